//! Each preset at the settings it opens with shows what it is for (issue 17, item 10): on the
//! two moons the held-out accuracy falls as γ grows past its best, and the separable blobs
//! have no bound support vector. The settings are the page's: the opening scene, and a preset
//! chosen from the menu.

use kernel_playground::lab::playground::Playground;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::solvers::svm::SvmModel;

/// γ over the slider's range, 10⁻¹ to 10³ in half decades.
const GAMMAS: [&str; 9] = ["0.1", "0.3", "1", "3", "10", "30", "100", "300", "1000"];

fn test_accuracy(lab: &mut Playground) -> f64 {
    lab.fit();
    lab.status().test_accuracy.expect("points are held out")
}

#[test]
fn the_opening_moons_overfit_visibly_as_gamma_grows() {
    let mut lab = Playground::new(Settings::opening());
    assert_eq!(lab.settings().values.choice("preset"), "moons");
    assert!(lab.settings().values.real("test") > 0.0, "points held out");
    let mut accuracy = Vec::new();
    for gamma in GAMMAS {
        lab.set("gamma", gamma).unwrap();
        accuracy.push(test_accuracy(&mut lab));
    }
    let best = accuracy.iter().copied().fold(0.0, f64::max);
    let at_300 = accuracy[7];
    assert!(
        best - at_300 >= 0.10,
        "test accuracy over γ {GAMMAS:?}: {accuracy:?}; at γ = 300 only {:.0} points below \
         the best",
        100.0 * (best - at_300)
    );
    // It rises to its best first: the fall is past the best, not a slide from the start.
    assert!(accuracy[0] < best, "{accuracy:?}");
}

#[test]
fn the_page_opens_at_the_moons_lesson_and_links_keep_their_values() {
    let opening = Playground::from_hash("");
    assert_eq!(opening.settings(), &Settings::opening());
    assert_eq!(opening.settings().values.real("noise"), 0.4);
    assert_eq!(opening.settings().values.real("test"), 0.3);
    // A link keeps what it names, and a key it leaves out is the table's default.
    let linked = Playground::from_hash("preset=moons&n=40");
    assert_eq!(linked.settings().values.real("noise"), 0.2);
    assert_eq!(linked.settings().values.real("test"), 0.0);
    let again = Playground::from_hash(&opening.hash());
    assert_eq!(again.settings(), opening.settings());
    assert_eq!(again.data(), opening.data());
}

#[test]
fn the_separable_blobs_chosen_from_the_menu_have_no_bound_support_vector() {
    for kernel in ["linear", "rbf"] {
        let mut lab = Playground::new(Settings::opening());
        lab.set("kernel", kernel).unwrap();
        lab.set("preset", "separable").unwrap();
        assert_eq!(lab.settings().values.real("C"), 10.0);
        assert_eq!(
            lab.settings().values.real("noise"),
            0.2,
            "the table's noise"
        );
        assert_eq!(lab.settings().values.real("test"), 0.0, "nothing held out");
        lab.fit();
        let svm = lab.model_as::<SvmModel>().expect("an SVM");
        let support = svm.alpha.iter().filter(|&&a| a > 0.0).count();
        let bound = svm.alpha.iter().filter(|&&a| a >= svm.c).count();
        assert!(support >= 2, "{kernel}: {support} support vectors");
        assert_eq!(bound, 0, "{kernel}: bound support vectors at C = {}", svm.c);
        assert_eq!(lab.status().train_accuracy, Some(1.0), "{kernel}");
    }
}

#[test]
fn choosing_a_preset_keeps_what_the_student_changed() {
    let mut lab = Playground::new(Settings::opening());
    lab.set("noise", "0.5").unwrap();
    lab.set("preset", "separable").unwrap();
    let values = &lab.settings().values;
    assert_eq!(values.real("noise"), 0.5, "changed by hand: kept");
    assert_eq!(values.real("test"), 0.0, "the moons' 30 % goes with them");
    assert_eq!(values.real("C"), 10.0);
    lab.set("C", "3").unwrap();
    lab.set("preset", "xor").unwrap();
    assert_eq!(
        lab.settings().values.real("C"),
        3.0,
        "changed by hand: kept"
    );
    lab.set("preset", "moons").unwrap();
    let values = &lab.settings().values;
    assert_eq!((values.real("noise"), values.real("test")), (0.5, 0.3));
    let mut plain = Playground::new(Settings::opening());
    plain.set("preset", "separable").unwrap();
    plain.set("preset", "moons").unwrap();
    assert_eq!(plain.settings(), &Settings::opening(), "there and back");
    assert!(plain.set("preset", "nowhere").is_err());
    assert_eq!(
        plain.settings(),
        &Settings::opening(),
        "an error changes nothing"
    );
}
