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
    let data = crate::core::data::Dataset::from_parts(
        vec![[-1.0, 0.0], [3.0, 2.0], [4.0, 4.0]],
        vec![0; 3],
    );
    let model = Fitted::new(Line, &data);
    let (rmse, r2) = scores(&model, &data.points).unwrap();
    assert!((rmse - (2.0f64 / 3.0).sqrt()).abs() < 1e-15);
    assert!((r2.unwrap() - (1.0 - 2.0 / 8.0)).abs() < 1e-15);
}

/// The hover's KKT case of each ε-SVR point agrees with its residual: inside the tube for
/// α = α* = 0, on its edge when free, on or outside it at C (to the solver's tolerance).
#[test]
fn each_svr_points_kkt_case_matches_its_residual() {
    use crate::core::kernel::Kernel;
    let data = crate::core::data::Preset::Sine.generate(60, 1.0, 3);
    let (inputs, targets) = inputs_and_targets(&data);
    let epsilon = 0.1;
    let fit = crate::methods::solvers::svr::fit_epsilon_svr(
        &inputs,
        &targets,
        Kernel::Rbf { gamma: 2.0 },
        1.0,
        epsilon,
        1e-6,
        1_000_000,
    )
    .unwrap();
    let mut seen = [0; 3];
    for i in 0..data.len() {
        let residual = (targets[i] - fit.predict(inputs[i])).abs();
        let case = Curve::point_facts(&fit, i).pop().unwrap();
        let text = format!("{:?}", case.value);
        let k = if text.contains("inside the tube") {
            assert!(residual <= epsilon + 1e-3, "{i}: {residual}");
            0
        } else if text.contains("on the tube's edge") {
            assert!((residual - epsilon).abs() <= 1e-3, "{i}: {residual}");
            1
        } else {
            assert!(text.contains("outside the tube"), "{text}");
            assert!(residual >= epsilon - 1e-3, "{i}: {residual}");
            2
        };
        seen[k] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "every case occurs: {seen:?}");
}

/// Support vector regression's scores and slack lines read the solver's residuals, which are
/// tᵢ − f(xᵢ) at the training points; other points are evaluated.
#[test]
fn svr_residuals_come_from_the_fit_and_agree_with_f() {
    use crate::core::kernel::Kernel;
    let data = crate::core::data::Preset::Sine.generate(80, 0.5, 4);
    let (inputs, targets) = inputs_and_targets(&data);
    let fit = crate::methods::solvers::svr::fit_epsilon_svr(
        &inputs,
        &targets,
        Kernel::Rbf { gamma: 2.0 },
        1.0,
        0.1,
        1e-6,
        1_000_000,
    )
    .unwrap();
    let model = Fitted::new(fit, &data);
    let kept = model.residuals_at(&data);
    assert!(matches!(kept, std::borrow::Cow::Borrowed(_)));
    for (i, &p) in data.points.iter().enumerate() {
        let direct = model.decision_value(p);
        assert!((kept[i] - direct).abs() < 1e-9, "{i}: {} {direct}", kept[i]);
    }
    let (rmse, _) = scores(&model, &data.points).unwrap();
    let shown = model
        .facts(&data)
        .into_iter()
        .find(|f| f.key == "train_rmse")
        .map(|f| match f.value {
            crate::methods::model::FactValue::Number(v) => v,
            ref other => panic!("{other:?}"),
        })
        .unwrap();
    assert!((shown - rmse).abs() < 1e-12 * rmse, "{shown} {rmse}");
    // Points the fit did not see are evaluated.
    let fewer = crate::core::data::Dataset::from_parts(data.points[..5].to_vec(), vec![0; 5]);
    let evaluated = model.residuals_at(&fewer);
    assert!(matches!(evaluated, std::borrow::Cow::Owned(_)));
    assert_eq!(evaluated[2], model.decision_value(fewer.points[2]));
    // As many points as the fit saw, one of them moved: evaluated too, not the fit's.
    let mut moved = data.clone();
    moved.points[7][1] += 0.75;
    let evaluated = model.residuals_at(&moved);
    assert!(matches!(evaluated, std::borrow::Cow::Owned(_)));
    assert_eq!(evaluated[7], model.decision_value(moved.points[7]));
    assert!((evaluated[7] - kept[7] - 0.75).abs() < 1e-9);
}
