//! The lectures' worked examples open with the numbers the notes give them, worked by hand:
//! three points (1, 1, +1), (3, 1, +1), (3, 5, −1) with a hard margin have w = (0, −½),
//! b = 3/2; with a fourth point (−1, 2, −1), C = ½ keeps the hard-margin solution
//! α = (½, 0, 1/10, 2/5), w = (3/5, −4/5), b = 6/5; C = 5/16 gives α = (5/16, 0, 1/16, 1/4),
//! w = (3/8, −1/2), b = 3/8; C = 1/10 bounds every α, w = (1/10)(2, −5). The other examples
//! open, fit and show what their captions promise.

use kernel_playground::lab::examples::{example, EXAMPLES};
use kernel_playground::lab::playground::Playground;
use kernel_playground::methods::solvers::svm::SvmModel;

fn open(id: &str) -> Playground {
    let e = example(id).unwrap_or_else(|| panic!("no example {id}"));
    let mut lab = Playground::from_hash(&e.hash());
    assert!(lab.warnings.is_empty(), "{id}: {:?}", lab.warnings);
    lab.fit();
    lab
}

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-7, "{what}: {got:?}, want {want:?}");
    }
}

fn svm(lab: &Playground) -> &SvmModel {
    lab.model_as::<SvmModel>().expect("an SVM")
}

#[test]
fn the_soft_margin_examples_have_the_notes_numbers() {
    // (example, w, b, α); with every α at C, b lies in an interval and is not checked.
    let cases: [(&str, [f64; 2], f64, &[f64]); 4] = [
        ("three-hard", [0.0, -0.5], 1.5, &[0.0, 0.125, 0.125]),
        ("four-half", [0.6, -0.8], 1.2, &[0.5, 0.0, 0.1, 0.4]),
        (
            "four-5-16",
            [0.375, -0.5],
            0.375,
            &[0.3125, 0.0, 0.0625, 0.25],
        ),
        ("four-tenth", [0.2, -0.5], f64::NAN, &[0.1; 4]),
    ];
    for (id, w, b, alpha) in cases {
        let lab = open(id);
        let model = svm(&lab);
        close(&model.w.expect("linear"), &w, &format!("{id}: w"));
        if b.is_finite() {
            close(&[model.bias], &[b], &format!("{id}: b"));
        }
        close(&model.alpha, alpha, &format!("{id}: α"));
    }
}

#[test]
fn the_margins_are_those_of_the_notes() {
    // 1/‖w‖: 2, 1, 1.6 and 1/√0.29 ≈ 1.857.
    for (id, margin) in [
        ("three-hard", 2.0),
        ("four-half", 1.0),
        ("four-5-16", 1.6),
        ("four-tenth", 1.0 / 0.29f64.sqrt()),
    ] {
        let w = svm(&open(id)).w.unwrap();
        let got = 1.0 / (w[0] * w[0] + w[1] * w[1]).sqrt();
        assert!(
            (got - margin).abs() < 1e-7,
            "{id}: margin {got}, want {margin}"
        );
    }
}

#[test]
fn every_example_opens_fits_and_says_what_to_look_at() {
    let mut ids = std::collections::BTreeSet::new();
    for e in EXAMPLES {
        assert!(ids.insert(e.id), "{} twice", e.id);
        assert!(!e.caption.is_empty() && !e.title.is_empty());
        let status = open(e.id).status();
        assert!(status.message.is_none(), "{}: {:?}", e.id, status.message);
        assert!(status.train_accuracy.is_some(), "{}: fitted", e.id);
    }
    // The lifts are separable by a plane: the degree-2 kernel classifies XOR and the rings.
    for id in ["xor-lift", "ring"] {
        let accuracy = open(id).status().train_accuracy.unwrap();
        assert!(accuracy >= 0.97, "{id}: {accuracy}");
    }
    // The over-fitting example holds points out, and the perceptron converges on its set.
    assert!(open("moons-overfit").status().test_points > 0);
    assert_eq!(open("perceptron-bound").status().train_accuracy, Some(1.0));
}

/// The value of the fact `key` in a hover readout.
fn fact(facts: &[kernel_playground::methods::model::Fact], key: &str) -> f64 {
    let fact = facts.iter().find(|f| f.key == key);
    match fact.map(|f| &f.value) {
        Some(kernel_playground::methods::model::FactValue::Number(v)) => *v,
        other => panic!("{key}: {other:?}"),
    }
}

#[test]
fn the_hover_gives_the_notes_geometric_margin_and_signed_distance() {
    // C = 5/16: ‖w‖ = 0.625. The point (1, 1) has y f = 1 − ξ = 1/4, so y f/‖w‖ = 0.4; the
    // origin has f = b = 3/8, at distance 0.6 from the boundary on its positive side.
    let lab = open("four-5-16");
    let at_point = lab.inspect([1.0, 1.0], 1e-6);
    assert_eq!(at_point.index, Some(0));
    assert!((fact(&at_point.facts, "margin") - 0.25).abs() < 1e-9);
    assert!((fact(&at_point.facts, "geometric_margin") - 0.4).abs() < 1e-9);
    let at_origin = lab.inspect([0.0, 0.0], 1e-6);
    assert_eq!(at_origin.index, None);
    assert!((fact(&at_origin.facts, "distance") - 0.6).abs() < 1e-9);
    // The point (3, 5) of class −1: f = −1, at distance −1.6, on the margin.
    let below = lab.inspect([3.0, 5.0], 1e-6);
    assert!((fact(&below.facts, "distance") + 1.6).abs() < 1e-9);
}
