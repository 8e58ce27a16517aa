//! The bias and the objectives of an iterate, from SMO's gradient.
//!
//! The bias comes from the KKT conditions: for a free multiplier (0 < α_i < C) y_i f(x_i) = 1,
//! so b = −y_i∇_i averaged over the free ones; with none free, b is the midpoint of the interval
//! the bounded multipliers allow, as LIBSVM does.
//!
//! The dual objective D(α) = eᵀα − ½αᵀQα and the primal P = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i))
//! of the same α (see the module doc of `smo`) give the duality gap the trace shows.

/// The dual objective D(α) = eᵀα − ½αᵀQα and the primal objective P of the (w, b) α gives,
/// with b = −ρ as at the end of a run (see the module doc), from the exact gradient ∇ = Qα − e.
pub(crate) fn objectives(alpha: &[f64], gradient: &[f64], y: &[f64], c: f64) -> (f64, f64) {
    let bias = -compute_rho(alpha, gradient, y, c);
    let mut w_squared = 0.0;
    let mut hinge = 0.0;
    for t in 0..alpha.len() {
        // (Qα)_t = ∇_t + 1; y_t f(x_t) = (Qα)_t + y_t b.
        let q_alpha = gradient[t] + 1.0;
        w_squared += alpha[t] * q_alpha;
        hinge += (1.0 - (q_alpha + y[t] * bias)).max(0.0);
    }
    let sum: f64 = alpha.iter().sum();
    (sum - 0.5 * w_squared, 0.5 * w_squared + c * hinge)
}

/// ρ = −b: the mean of y_i∇_i over free multipliers, or the middle of the interval the bounded
/// ones leave.
pub(crate) fn compute_rho(alpha: &[f64], grad: &[f64], y: &[f64], c: f64) -> f64 {
    let (mut upper, mut lower) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut free_sum, mut free_count) = (0.0, 0usize);
    for i in 0..alpha.len() {
        let yg = y[i] * grad[i];
        let at_upper = alpha[i] >= c;
        let at_lower = alpha[i] <= 0.0;
        if at_upper {
            if y[i] < 0.0 {
                upper = upper.min(yg);
            } else {
                lower = lower.max(yg);
            }
        } else if at_lower {
            if y[i] > 0.0 {
                upper = upper.min(yg);
            } else {
                lower = lower.max(yg);
            }
        } else {
            free_count += 1;
            free_sum += yg;
        }
    }
    if free_count > 0 {
        free_sum / free_count as f64
    } else {
        (upper + lower) / 2.0
    }
}
