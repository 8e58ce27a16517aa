//! The one-class SVM on the solvers' random points (duplicates, collinear points, coordinates up
//! to ±10¹⁵, spreads down to 10⁻¹²) with every kernel and ν, γ, tol far beyond the sliders:
//! each fit ends (an iteration cap and the watchdog) with a one-line error or a solution that
//! keeps its constraints (0 ≤ α ≤ 1, Σα = νn) and finite decision values; converged where
//! rounding is below the tolerance, it has the ν-property.

use crate::solvers::{points, within_watchdog};
use crate::{config, one_line};
use kernel_playground::core::data::Point;
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::one_class::{fit_one_class, OneClassFit};
use proptest::prelude::*;

/// 10^e for e drawn from [lo, hi].
fn power(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..=hi).prop_map(|e| 10f64.powf(e))
}

fn kernel() -> impl Strategy<Value = Kernel> {
    let gamma = prop_oneof![4 => power(-12.0, 12.0), 1 => Just(0.0), 1 => Just(f64::NAN)];
    let coef0 = prop_oneof![Just(0.0), -1e3..1e3f64];
    (0usize..4, gamma, 0u32..=11, coef0).prop_map(|(kind, gamma, degree, coef0)| match kind {
        0 => Kernel::Linear,
        1 => Kernel::Polynomial {
            gamma,
            degree,
            coef0,
        },
        2 => Kernel::Rbf { gamma },
        _ => Kernel::Sigmoid { gamma, coef0 },
    })
}

/// ν: refused (0, above 1, NaN), tiny, anywhere, 1.
fn nu() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        1 => Just(1.5),
        1 => Just(f64::NAN),
        1 => Just(1.0),
        2 => power(-12.0, -6.0),
        6 => 0.0..=1.0f64,
    ]
}

/// An upper bound on the rounding in f(x) = Σ α_i K(x_i, x) − ρ: a few ulps of Σα·max|K|.
fn rounding(fit: &OneClassFit, points: &[Point]) -> f64 {
    let largest = points
        .iter()
        .map(|&p| fit.kernel.eval(p, p).abs())
        .fold(1.0f64, f64::max);
    let total: f64 = fit.alpha.iter().sum();
    64.0 * f64::EPSILON * (points.len() as f64 + 2.0) * total.max(1.0) * largest
}

fn check(points: &[Point], kernel: Kernel, nu: f64, tol: f64) -> Result<(), TestCaseError> {
    let owned = points.to_vec();
    let fit = within_watchdog(move || fit_one_class(&owned, kernel, nu, tol, 20_000))?;
    let fit = match fit {
        Err(e) => {
            let message = e.to_string();
            prop_assert!(one_line(&message) && !message.is_empty(), "{:?}", message);
            return Ok(());
        }
        Ok(fit) => fit,
    };
    let n = points.len() as f64;
    prop_assert!(fit.alpha.iter().all(|a| (0.0..=1.0).contains(a)));
    let total: f64 = fit.alpha.iter().sum();
    // Each update may put a multiplier within 10⁻¹² of a bound on it (the start too).
    let drift = 2e-12 * (fit.iterations + 1) as f64;
    prop_assert!(
        (total - nu * n).abs() <= 1e-9 * n + drift,
        "Σα = {} for νn = {}",
        total,
        nu * n
    );
    prop_assert!(fit.rho.is_finite() && fit.objective.is_finite());
    let support: Vec<usize> = (0..points.len()).filter(|&i| fit.alpha[i] > 0.0).collect();
    prop_assert_eq!(&fit.support, &support);
    for &x in points {
        prop_assert!(fit.decision(x).is_finite(), "f({:?})", x);
    }
    if fit.converged && rounding(&fit, points) < 0.01 * tol {
        let (outliers, support) = (fit.outlier_fraction(points), fit.support_fraction());
        // Σα may miss νn by the snaps to the bounds.
        prop_assert!(
            outliers <= nu && nu <= support + drift / n,
            "{} ≤ ν = {} ≤ {}",
            outliers,
            nu,
            support
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn the_one_class_svm_ends_with_a_valid_solution_or_one_line(
        data in points(),
        kernel in kernel(),
        nu in nu(),
        tol in power(-12.0, -1.0),
    ) {
        check(&data.points, kernel, nu, tol)?;
    }
}

#[test]
fn no_points_and_one_point() {
    let message = fit_one_class(&[], Kernel::Linear, 0.5, 1e-3, 100)
        .unwrap_err()
        .to_string();
    assert!(one_line(&message));
    check(&[[1e15, -1e15]], Kernel::Rbf { gamma: 1e12 }, 1.0, 1e-3).unwrap();
}
