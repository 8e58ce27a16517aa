use super::*;
use crate::core::data::Preset;
use crate::methods::solvers::svm::SvmParams;

fn rbf(gamma: f64) -> Kernel {
    Kernel::Rbf { gamma }
}

#[test]
fn the_initial_alpha_fills_each_class_to_half_of_nu_l() {
    // l = 7, ν = 0.6: each class carries 2.1, the first points of a class at 1.
    let y = [1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0];
    let alpha = solver::initial_alpha(&y, 0.6);
    let expected = [1.0, 1.0, 1.0, 0.1, 1.0, 0.1, 0.0];
    for (a, e) in alpha.iter().zip(expected) {
        assert!((a - e).abs() < 1e-12, "{alpha:?}");
    }
}

#[test]
fn the_rescaled_solution_is_the_c_svm_with_c_one_over_r() {
    for (preset, kernel, nu) in [
        (Preset::Moons, rbf(2.0), 0.3),
        (Preset::Overlapping, Kernel::Linear, 0.5),
        (Preset::Xor, rbf(5.0), 0.2),
    ] {
        let data = preset.generate(80, 0.3, 4);
        let params = NuSvcParams {
            tol: 1e-8,
            ..NuSvcParams::new(kernel, nu)
        };
        let model = NuSvcModel::fit(&data.points, &data.labels, &params).unwrap();
        assert_eq!(model.svm.report.exit, ExitReason::Converged);
        let c = 1.0 / model.r;
        let svm = SvmModel::fit(
            &data.points,
            &data.labels,
            &SvmParams {
                tol: 1e-8,
                ..SvmParams::new(kernel, c)
            },
        )
        .unwrap();
        for x in [[0.1, 0.2], [-0.7, 0.4], data.points[3]] {
            let (a, b) = (model.decision_value(x), svm.decision_value(x));
            assert!(
                (a - b).abs() < 1e-5 * (1.0 + b.abs()),
                "{preset:?}: {a} vs {b}"
            );
        }
        // The constraints before the rescaling: Σα = νl, Σyα = 0.
        let total: f64 = model.svm.alpha.iter().map(|a| a * model.r).sum();
        assert!(
            (total - nu * data.len() as f64).abs() < 1e-9,
            "Σα = {total}"
        );
        // The ν-property.
        let (errors, support) = (model.margin_error_fraction(), model.support_fraction());
        assert!(errors <= nu && nu <= support, "{errors} ≤ {nu} ≤ {support}");
    }
}

#[test]
fn infeasible_and_boundary_nu_are_refused_in_words() {
    // 3 against 7 points: ν·10/2 ≤ 3 means ν ≤ 0.6.
    let data = Preset::Separable.generate(10, 0.2, 1);
    let mut labels = vec![0; 10];
    for l in labels.iter_mut().take(3) {
        *l = 1;
    }
    let fit = |nu| NuSvcModel::fit(&data.points, &labels, &NuSvcParams::new(rbf(1.0), nu));
    let err = fit(0.7).unwrap_err().to_string();
    assert!(
        err.contains("infeasible") && err.contains("ν ≤ 0.6"),
        "{err}"
    );
    assert!(!err.contains('\n'));
    // At the limit a whole class sits at the bound: LIBSVM's r is infinite.
    let err = fit(0.6).unwrap_err().to_string();
    assert!(err.contains("no margin"), "{err}");
    assert!(fit(0.5).is_ok());
    for nu in [0.0, -0.1, 1.5, f64::NAN] {
        assert_eq!(fit(nu).unwrap_err().to_string(), "nu must be in (0, 1]");
    }
}

#[test]
fn scikit_learns_summed_nu_is_told_apart() {
    // 0.4 added 40 times is 16.000000000000007: half of it leaves 3.6·10⁻¹⁵ over.
    assert!(summed_remainder(0.4, &[40]));
    assert!(!summed_remainder(0.33, &[40]));
    assert!(!summed_remainder(0.5, &[40, 60]));
    let data = Preset::Blobs3.generate(60, 0.3, 2);
    assert_eq!(problem_sizes(&data, false), vec![40, 40, 40]);
    assert_eq!(problem_sizes(&data, true), vec![60]);
}
