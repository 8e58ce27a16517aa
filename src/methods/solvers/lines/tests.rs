use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_scene(seed: u64, n: usize, integers: bool) -> (Vec<f64>, Vec<f64>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut draw = |scale: f64| {
        let v: f64 = rng.random_range(-scale..scale);
        if integers {
            v.round()
        } else {
            v
        }
    };
    let xs: Vec<f64> = (0..n).map(|_| draw(5.0)).collect();
    let ts: Vec<f64> = xs.iter().map(|x| 0.7 * x - 1.0 + draw(3.0)).collect();
    (xs, ts)
}

#[test]
fn least_squares_solves_the_normal_equations() {
    // x̄ = 1, t̄ = 2, Σ(x − x̄)(t − t̄) = 1, Σ(x − x̄)² = 2: w = 1/2, b = 3/2.
    let fit = least_squares_line(&[0.0, 1.0, 2.0], &[1.0, 3.0, 2.0]).unwrap();
    assert!((fit.w - 0.5).abs() < 1e-15 && (fit.bias - 1.5).abs() < 1e-15);
    assert!((fit.objective - 1.5).abs() < 1e-15);
    // Σr = 0 and Σ r x = 0 at the optimum, far from the origin too.
    for (seed, offset) in [(1, 0.0), (2, 1e6), (3, -3e3)] {
        let (mut xs, ts) = random_scene(seed, 40, false);
        xs.iter_mut().for_each(|x| *x += offset);
        let fit = least_squares_line(&xs, &ts).unwrap();
        let r: Vec<f64> = xs
            .iter()
            .zip(&ts)
            .map(|(&x, &t)| t - fit.predict(x))
            .collect();
        let scale: f64 = ts.iter().map(|t| t.abs()).sum();
        assert!(r.iter().sum::<f64>().abs() < 1e-9 * scale);
        let moment: f64 = r.iter().zip(&xs).map(|(r, x)| r * (x - offset)).sum();
        assert!(moment.abs() < 1e-9 * scale * 5.0, "{moment}");
    }
}

#[test]
fn a_far_outlier_tilts_least_squares_and_not_least_absolute() {
    // Ten points on t = 2x + 1, then one far above the line at the right end.
    let mut xs: Vec<f64> = (0..10).map(f64::from).collect();
    let mut ts: Vec<f64> = xs.iter().map(|x| 2.0 * x + 1.0).collect();
    xs.push(9.5);
    ts.push(100.0);
    let lad = least_absolute_line(&xs, &ts).unwrap();
    assert!(
        (lad.w - 2.0).abs() < 1e-12 && (lad.bias - 1.0).abs() < 1e-12,
        "{lad:?}"
    );
    let lsq = least_squares_line(&xs, &ts).unwrap();
    assert!(
        lsq.w > 4.0,
        "least squares tilts towards the outlier: {lsq:?}"
    );
    // The further out, the more it tilts; LAD stays.
    ts[10] = 1000.0;
    assert!(least_squares_line(&xs, &ts).unwrap().w > 2.0 * lsq.w);
    assert_eq!(least_absolute_line(&xs, &ts).unwrap().w, lad.w);
}

#[test]
fn ties_give_one_optimum_whatever_the_order() {
    // The corners of a square: every line between the two rows is optimal, A = 2.
    let xs = [0.0, 1.0, 0.0, 1.0];
    let ts = [0.0, 0.0, 1.0, 1.0];
    let fit = least_absolute_line(&xs, &ts).unwrap();
    assert_eq!(fit.objective, 2.0);
    // Through two corners: a side or a diagonal.
    let on = (0..4).filter(|&i| ts[i] == fit.predict(xs[i])).count();
    assert!(on >= 2, "{fit:?}");
    for order in [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
        let (x, t): (Vec<f64>, Vec<f64>) = order.iter().map(|&i| (xs[i], ts[i])).unzip();
        assert_eq!(least_absolute_line(&x, &t).unwrap(), fit);
    }
    // Duplicated points and repeated x; linprog's optimum is 5.
    let xs = [1.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 3.0];
    let ts = [0.0, 0.0, 2.0, 1.0, 1.0, 5.0, 2.0, 2.0];
    let fit = least_absolute_line(&xs, &ts).unwrap();
    assert!((fit.objective - 5.0).abs() < 1e-14, "{fit:?}");
}

#[test]
fn two_and_three_points() {
    let (xs, ts) = ([1.0, 3.0], [2.0, -4.0]);
    for fit in [least_squares_line(&xs, &ts), least_absolute_line(&xs, &ts)] {
        let fit = fit.unwrap();
        assert!((fit.w + 3.0).abs() < 1e-15 && (fit.bias - 5.0).abs() < 1e-15);
        assert_eq!(fit.objective, 0.0);
    }
    // Three points: LAD through two of them, the third off by its whole residual.
    let (xs, ts) = ([0.0, 1.0, 2.0], [0.0, 1.0, 0.0]);
    let fit = least_absolute_line(&xs, &ts).unwrap();
    assert_eq!(fit.objective, 1.0);
}

#[test]
fn every_x_equal_gives_a_flat_line_at_the_mean_or_lower_median() {
    let xs = [2.0; 4];
    let ts = [5.0, 1.0, 4.0, 2.0];
    let lsq = least_squares_line(&xs, &ts).unwrap();
    assert_eq!((lsq.w, lsq.bias), (0.0, 3.0));
    assert_eq!(lsq.objective, 4.0 + 4.0 + 1.0 + 1.0);
    let lad = least_absolute_line(&xs, &ts).unwrap();
    assert_eq!((lad.w, lad.bias), (0.0, 2.0));
    assert_eq!(lad.objective, 6.0);
    // The mean of equal values is exact.
    let lsq = least_squares_line(&[0.1; 3], &[0.1; 3]).unwrap();
    assert_eq!((lsq.w, lsq.bias, lsq.objective), (0.0, 0.1, 0.0));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let message = |r: Result<LineFit, Error>| {
        let m = r.unwrap_err().to_string();
        assert!(!m.contains('\n'));
        m
    };
    for fit in [least_squares_line, least_absolute_line] {
        assert!(message(fit(&[], &[])).contains("at least two"));
        assert!(message(fit(&[1.0], &[1.0])).contains("at least two"));
        assert_eq!(
            message(fit(&[1.0, 2.0], &[1.0])),
            "2 x values but 1 t values"
        );
        assert_eq!(
            message(fit(&[1.0, f64::NAN], &[1.0, 2.0])),
            "x of point 2 is not a finite number"
        );
        assert_eq!(
            message(fit(&[1.0, 2.0], &[f64::NEG_INFINITY, 2.0])),
            "t of point 1 is not a finite number"
        );
        // x values one subnormal step apart under a spread of 1: the slope is 10³²³.
        let m = message(fit(&[0.0, 5e-324], &[0.0, 1.0]));
        assert!(m.contains("slope overflows"), "{m}");
    }
    // Squares of residuals of 10²⁰⁰.
    let m = message(least_squares_line(&[0.0, 1.0, 2.0], &[0.0, 1e200, 0.0]));
    assert!(m.contains("overflows"), "{m}");
}

#[test]
fn extreme_scales_are_exact_after_scaling() {
    // The same scene at 2^±1000: slopes and intercepts scale exactly.
    let (xs, ts) = random_scene(7, 25, false);
    let base = least_absolute_line(&xs, &ts).unwrap();
    for e in [-1000, -500, 500, 1000] {
        let s = 2f64.powi(e);
        let xs_s: Vec<f64> = xs.iter().map(|x| x * s).collect();
        let fit = least_absolute_line(&xs_s, &ts).unwrap();
        assert_eq!(fit.w, base.w / s);
        assert_eq!(fit.bias, base.bias);
        let lsq = least_squares_line(&xs_s, &ts).unwrap();
        let lsq_base = least_squares_line(&xs, &ts).unwrap();
        assert_eq!(lsq.w, lsq_base.w / s);
    }
}

#[test]
fn the_descent_visits_few_pivots_at_ten_thousand_points() {
    let (xs, ts) = random_scene(11, 10_000, false);
    let data = Scaled::new(&xs, &ts).unwrap();
    let descent = least_absolute::fit(&data.u, &data.v);
    assert!(descent.pivots <= 40, "{} pivots", descent.pivots);
    // Heavy tails and a cluster of outliers: still few.
    let mut rng = StdRng::seed_from_u64(12);
    let ts: Vec<f64> = xs
        .iter()
        .map(|x| {
            let u: f64 = rng.random_range(0.001..1.0);
            x + if rng.random_bool(0.2) { 1e3 } else { 0.0 } + (1.0 / u - 1.0)
        })
        .collect();
    let data = Scaled::new(&xs, &ts).unwrap();
    let descent = least_absolute::fit(&data.u, &data.v);
    assert!(descent.pivots <= 40, "{} pivots", descent.pivots);
    // Every point on one line but a far one: each is on L, yet the certificate is one pass.
    let mut xs: Vec<f64> = (0..10_000).map(|i| f64::from(i) * 0.37 - 100.0).collect();
    let mut ts: Vec<f64> = xs.iter().map(|x| 3.0 * x + 2.0).collect();
    xs[3000] += 0.5;
    ts[3000] += 50.0;
    let data = Scaled::new(&xs, &ts).unwrap();
    let descent = least_absolute::fit(&data.u, &data.v);
    assert!(descent.pivots <= 2, "{} pivots", descent.pivots);
    let fit = least_absolute_line(&xs, &ts).unwrap();
    assert_eq!((fit.w, fit.bias), (3.0, 2.0));
}
