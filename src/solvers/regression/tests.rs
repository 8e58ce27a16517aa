use super::*;

/// R² and RMSE by their definitions on a hand-made case: residuals 1, −1, 0 of targets 0, 2, 4.
#[test]
fn scores_follow_their_definitions() {
    #[derive(Debug)]
    struct Line;
    impl Curve for Line {
        fn at(&self, x: f64) -> f64 {
            x
        }
    }
    let data =
        crate::data::Dataset::from_parts(vec![[-1.0, 0.0], [3.0, 2.0], [4.0, 4.0]], vec![0; 3]);
    let model = Fitted::new(Line, &data);
    let (rmse, r2) = scores(&model, &data.points).unwrap();
    assert!((rmse - (2.0f64 / 3.0).sqrt()).abs() < 1e-15);
    assert!((r2.unwrap() - (1.0 - 2.0 / 8.0)).abs() < 1e-15);
}

/// On the page's path a drag refits the kernel regressions from their kept state (a warm
/// start the model reports), and letting go fits once more from nothing: what the scene's link
/// reopens to. Both agree with a fit of the dragged scene from nothing.
#[test]
fn a_drag_refits_warm_and_letting_go_refits_cold() {
    use crate::playground::Playground;
    for model in [
        "model=svr&kernel=rbf&gamma=2&C=1&epsilon=0.1",
        "model=nusvr&kernel=rbf&gamma=2&C=1&nu=0.3",
        "model=krr&kernel=rbf&gamma=2&lambda=0.01",
    ] {
        let mut lab = Playground::from_hash(&format!(
            "task=regression&preset=sine&n=80&noise=0.3&seed=1&{model}"
        ));
        lab.fit();
        assert!(
            !lab.model().expect(model).warm_started(),
            "{model}: first fit"
        );
        for step in 1..=3 {
            let p = lab.data().points[5];
            lab.move_point(5, [p[0] + 0.01 * step as f64, p[1] + 0.05])
                .unwrap();
            lab.fit();
            assert!(lab.model().unwrap().warm_started(), "{model}: drag {step}");
        }
        let mut fresh = Playground::from_hash(&lab.hash());
        fresh.fit();
        let at = |lab: &Playground, x: f64| lab.model().unwrap().decision_value([x, 0.0]);
        for x in [-0.8, -0.1, 0.4, 0.9] {
            let (warm, cold) = (at(&lab, x), at(&fresh, x));
            assert!(
                (warm - cold).abs() < 1e-2,
                "{model}: {warm} against {cold} at {x}"
            );
        }
        lab.settle();
        lab.fit();
        assert!(!lab.model().unwrap().warm_started(), "{model}: let go");
        for x in [-0.8, -0.1, 0.4, 0.9] {
            assert_eq!(at(&lab, x), at(&fresh, x), "{model}: the link's fit at {x}");
        }
    }
}
