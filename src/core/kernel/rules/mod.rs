//! Kernels built by rule: the closure properties of positive semi-definite kernels, typed as
//! an expression.
//!
//! If k₁ and k₂ are kernels (their Gram matrix is positive semi-definite on every finite set of
//! points), then so are
//!
//! | rule              | written        | why                                               |
//! |-------------------|----------------|---------------------------------------------------|
//! | positive scaling  | `c * k1`, c > 0 | cK₁ has the eigenvalues of K₁ times c            |
//! | an added constant | `k1 + c`, c ≥ 0 | c·11ᵀ is positive semi-definite                  |
//! | sum               | `k1 + k2`       | the sum of two PSD matrices is PSD               |
//! | product           | `k1 * k2`       | Schur's product theorem (the features' products) |
//! | power             | `k1 ^ n`        | a product of n copies                            |
//! | exponential       | `exp(k1)`       | the limit of the series Σ k₁ⁿ/n!, each term PSD  |
//!
//! The bases are the lab's four kernels: `linear` (xᵀz), `poly` ((γxᵀz + coef0)^degree),
//! `rbf` (exp(−γ‖x − z‖²)) and `sigmoid` (tanh(γxᵀz + coef0)). Written bare they take the
//! panel's γ, degree and coef0; with arguments they take their own: `rbf(γ)`,
//! `poly(degree, γ, coef0)`, `sigmoid(γ, coef0)` (arguments left out come from the panel). The
//! sigmoid is not a kernel in general, so neither is a composition that uses it: the Gram
//! view's smallest eigenvalue says so on the data.
//!
//! Constants are written as plain non-negative numbers, so every composition the grammar
//! accepts is positive semi-definite when its bases are. Precedence is the usual: `^` before
//! `*` before `+`; brackets group.
//!
//! A composition is kept as a short postfix program in a fixed array, so a [`Kernel`] stays a
//! small `Copy` value and K(x, z) is a loop over at most [`MAX_STEPS`] steps with no
//! allocation.

use super::Kernel;
use crate::core::data::Point;
use crate::core::error::Error;

mod grammar;

/// The most steps (bases, constants and operations) a composition may have.
pub const MAX_STEPS: usize = 16;

/// How many points [`Composition::eval_into`] runs the program on at once.
pub(super) const BLOCK: usize = 64;

/// Runs a step other than a base on a stack of blocks of `n` values each, `top` of them in
/// use: pushes a constant, or pops one or two blocks and pushes what the operation makes.
pub(super) fn operate(step: Step, stack: &mut [[f64; BLOCK]], top: &mut usize, n: usize) {
    match step {
        Step::Base(_) => unreachable!("a base is evaluated by its caller"),
        Step::Constant(c) => {
            stack[*top][..n].fill(c);
            *top += 1;
        }
        Step::Add | Step::Multiply => {
            *top -= 1;
            let (below, above) = stack.split_at_mut(*top);
            let pairs = below[*top - 1][..n].iter_mut().zip(&above[0][..n]);
            if step == Step::Add {
                pairs.for_each(|(a, b)| *a += *b);
            } else {
                pairs.for_each(|(a, b)| *a *= *b);
            }
        }
        Step::Power(p) => {
            for v in &mut stack[*top - 1][..n] {
                *v = v.powi(p as i32);
            }
        }
        Step::Exp => {
            for v in &mut stack[*top - 1][..n] {
                *v = v.exp();
            }
        }
    }
}

/// The panel's kernel parameters, which a base written bare takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelParams {
    pub gamma: f64,
    pub degree: u32,
    pub coef0: f64,
}

/// A base kernel inside a composition: one of the four, never itself composed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Base {
    Linear,
    Polynomial { gamma: f64, degree: u32, coef0: f64 },
    Rbf { gamma: f64 },
    Sigmoid { gamma: f64, coef0: f64 },
}

impl Base {
    fn of(kernel: Kernel) -> Base {
        match kernel {
            Kernel::Polynomial {
                gamma,
                degree,
                coef0,
            } => Base::Polynomial {
                gamma,
                degree,
                coef0,
            },
            Kernel::Rbf { gamma } => Base::Rbf { gamma },
            Kernel::Sigmoid { gamma, coef0 } => Base::Sigmoid { gamma, coef0 },
            _ => Base::Linear,
        }
    }

    /// As a kernel of its own.
    #[inline]
    pub fn kernel(self) -> Kernel {
        match self {
            Base::Linear => Kernel::Linear,
            Base::Polynomial {
                gamma,
                degree,
                coef0,
            } => Kernel::Polynomial {
                gamma,
                degree,
                coef0,
            },
            Base::Rbf { gamma } => Kernel::Rbf { gamma },
            Base::Sigmoid { gamma, coef0 } => Kernel::Sigmoid { gamma, coef0 },
        }
    }
}

/// One step of the postfix program (also how the Python export reads a composition).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// Pushes K(x, z) of a base kernel.
    Base(Base),
    /// Pushes a constant.
    Constant(f64),
    /// Pops two values, pushes their sum.
    Add,
    /// Pops two values, pushes their product.
    Multiply,
    /// Pops a value, pushes its n-th power.
    Power(u32),
    /// Pops a value, pushes its exponential.
    Exp,
}

/// A kernel composed by the rules above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Composition {
    steps: [Step; MAX_STEPS],
    len: usize,
}

impl Composition {
    /// K(x, z): the program run on a small stack.
    #[inline]
    pub fn eval(&self, x: Point, z: Point) -> f64 {
        let mut stack = [0.0; MAX_STEPS];
        let mut top = 0;
        for step in &self.steps[..self.len] {
            match *step {
                Step::Base(base) => {
                    stack[top] = base.kernel().eval(x, z);
                    top += 1;
                }
                Step::Constant(c) => {
                    stack[top] = c;
                    top += 1;
                }
                Step::Add => {
                    top -= 1;
                    stack[top - 1] += stack[top];
                }
                Step::Multiply => {
                    top -= 1;
                    stack[top - 1] *= stack[top];
                }
                Step::Power(n) => stack[top - 1] = stack[top - 1].powi(n as i32),
                Step::Exp => stack[top - 1] = stack[top - 1].exp(),
            }
        }
        stack[0]
    }

    /// `out[t]` = K(x, z_t) for the points z_t (as many as `out` holds, or as there are): the
    /// program run on blocks of points at once, each base's values computed together (the RBF
    /// exponentials in SIMD lanes), with the bits of [`Composition::eval`].
    pub fn eval_into(&self, x: Point, points: &mut dyn Iterator<Item = Point>, out: &mut [f64]) {
        let mut zs = [[0.0; 2]; BLOCK];
        for chunk in out.chunks_mut(BLOCK) {
            let mut m = 0;
            for z in zs.iter_mut().take(chunk.len()) {
                let Some(point) = points.next() else { break };
                *z = point;
                m += 1;
            }
            self.eval_block(x, &zs[..m], &mut chunk[..m]);
            if m < chunk.len() {
                break;
            }
        }
    }

    /// [`Composition::eval_into`] for one block of at most [`BLOCK`] points (not generic, so
    /// the program's loop is compiled once whatever iterator the callers hold).
    fn eval_block(&self, x: Point, zs: &[Point], out: &mut [f64]) {
        let m = zs.len();
        let mut stack = [[0.0; BLOCK]; MAX_STEPS];
        let mut top = 0;
        for step in &self.steps[..self.len] {
            match *step {
                Step::Base(base) => {
                    base.kernel()
                        .eval_into(x, zs.iter().copied(), &mut stack[top][..m]);
                    top += 1;
                }
                step => operate(step, &mut stack, &mut top, m),
            }
        }
        out.copy_from_slice(&stack[0][..m]);
    }

    /// K(x, z) and its gradient ∇ₓK(x, z), carried through the program by the sum, product,
    /// power and chain rules (forward-mode differentiation).
    pub fn value_and_gradient(&self, x: Point, z: Point) -> (f64, Point) {
        let mut stack = [(0.0, [0.0; 2]); MAX_STEPS];
        let mut top = 0;
        for step in &self.steps[..self.len] {
            match *step {
                Step::Base(base) => {
                    let kernel = base.kernel();
                    stack[top] = (kernel.eval(x, z), kernel.gradient(x, z));
                    top += 1;
                }
                Step::Constant(c) => {
                    stack[top] = (c, [0.0; 2]);
                    top += 1;
                }
                Step::Add => {
                    top -= 1;
                    let (b, gb) = stack[top];
                    let (a, ga) = stack[top - 1];
                    stack[top - 1] = (a + b, [ga[0] + gb[0], ga[1] + gb[1]]);
                }
                Step::Multiply => {
                    top -= 1;
                    let (b, gb) = stack[top];
                    let (a, ga) = stack[top - 1];
                    stack[top - 1] = (a * b, [a * gb[0] + b * ga[0], a * gb[1] + b * ga[1]]);
                }
                Step::Power(n) => {
                    let (a, ga) = stack[top - 1];
                    let slope = n as f64 * a.powi(n as i32 - 1);
                    stack[top - 1] = (a.powi(n as i32), [slope * ga[0], slope * ga[1]]);
                }
                Step::Exp => {
                    let (a, ga) = stack[top - 1];
                    let e = a.exp();
                    stack[top - 1] = (e, [e * ga[0], e * ga[1]]);
                }
            }
        }
        stack[0]
    }

    /// The largest γ of the RBF bases, whose bumps (1/√γ wide) are the narrowest detail of
    /// the kernel; `None` without an RBF base.
    pub fn largest_rbf_gamma(&self) -> Option<f64> {
        self.steps[..self.len]
            .iter()
            .filter_map(|s| match s {
                Step::Base(Base::Rbf { gamma }) => Some(*gamma),
                _ => None,
            })
            .reduce(f64::max)
    }

    /// The expression in a canonical form (bases with all their parameters), for the Python
    /// export and messages.
    pub fn written(&self) -> String {
        let mut stack: Vec<String> = Vec::new();
        for step in &self.steps[..self.len] {
            let text = match *step {
                Step::Base(base) => base_text(base.kernel()),
                Step::Constant(c) => c.to_string(),
                Step::Add => {
                    let b = stack.pop().unwrap_or_default();
                    let a = stack.pop().unwrap_or_default();
                    format!("({a} + {b})")
                }
                Step::Multiply => {
                    let b = stack.pop().unwrap_or_default();
                    let a = stack.pop().unwrap_or_default();
                    format!("{a} * {b}")
                }
                Step::Power(n) => format!("({})^{n}", stack.pop().unwrap_or_default()),
                Step::Exp => format!("exp({})", stack.pop().unwrap_or_default()),
            };
            stack.push(text);
        }
        stack.pop().unwrap_or_default()
    }

    /// Whether the composition uses a base that is not a kernel in general (the sigmoid).
    pub fn may_be_indefinite(&self) -> bool {
        self.steps[..self.len]
            .iter()
            .any(|s| matches!(s, Step::Base(Base::Sigmoid { .. })))
    }

    /// The steps in postfix order, as the export writes them.
    pub fn postfix(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps[..self.len].iter().copied()
    }
}

fn base_text(kernel: Kernel) -> String {
    match kernel {
        Kernel::Polynomial {
            gamma,
            degree,
            coef0,
        } => format!("poly({degree}, {gamma}, {coef0})"),
        Kernel::Rbf { gamma } => format!("rbf({gamma})"),
        Kernel::Sigmoid { gamma, coef0 } => format!("sigmoid({gamma}, {coef0})"),
        _ => "linear".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PANEL: PanelParams = PanelParams {
        gamma: 0.5,
        degree: 3,
        coef0: 1.0,
    };

    fn k(text: &str) -> Composition {
        Composition::parse(text, PANEL).unwrap()
    }

    const X: Point = [0.3, -1.2];
    const Z: Point = [1.1, 0.4];

    #[test]
    fn each_rule_computes_what_it_says() {
        let dot = X[0] * Z[0] + X[1] * Z[1];
        let d2 = (X[0] - Z[0]).powi(2) + (X[1] - Z[1]).powi(2);
        let rbf = (-0.5 * d2).exp();
        let poly = (0.5 * dot + 1.0).powi(3);
        let cases = [
            ("linear", dot),
            ("rbf", rbf),
            ("rbf(2)", (-2.0 * d2).exp()),
            ("poly", poly),
            ("poly(2)", (0.5 * dot + 1.0).powi(2)),
            ("poly(2, 1, 0)", dot * dot),
            ("sigmoid(0.1, 0.2)", (0.1 * dot + 0.2).tanh()),
            ("rbf + linear", rbf + dot),
            ("2 * rbf", 2.0 * rbf),
            ("linear + 1", dot + 1.0),
            ("(linear + 1)^2", (dot + 1.0).powi(2)),
            ("rbf * poly + 0.5 * linear", rbf * poly + 0.5 * dot),
            ("exp(linear)", dot.exp()),
            ("linear * linear ^ 2", dot * dot * dot),
            ("  rbf(1e-1)*2.5e0 ", (-0.1 * d2).exp() * 2.5),
            ("sigmoid(2, -1)", (2.0 * dot - 1.0).tanh()),
        ];
        for (text, want) in cases {
            let got = k(text).eval(X, Z);
            assert!(
                (got - want).abs() <= 1e-14 * want.abs().max(1.0),
                "{text}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn a_bad_expression_is_named_in_one_line() {
        let cases = [
            ("", "is empty"),
            ("rbf +", "character 6"),
            ("rfb", "names 'rfb'"),
            ("rbf - linear", "an operator"),
            ("-linear", "minus sign"),
            ("(rbf", "')'"),
            ("rbf(0)", "bad value"),
            ("rbf(1, 2)", "at most 1"),
            ("poly(2.5)", "degree 2.5"),
            ("linear ^ 0", "whole number from 1 to 10"),
            ("exp linear", "'('"),
            ("rbf 2", "an operator"),
        ];
        for (text, part) in cases {
            let e = Composition::parse(text, PANEL).unwrap_err().to_string();
            assert!(e.contains(part), "{text:?}: {e}");
            assert!(!e.contains('\n'));
        }
        let long = vec!["linear"; MAX_STEPS].join(" + ");
        assert!(Composition::parse(&long, PANEL)
            .unwrap_err()
            .to_string()
            .contains("too long"));
    }

    #[test]
    fn the_written_form_reads_back_to_the_same_kernel() {
        for text in [
            "rbf * poly + 0.5 * linear",
            "exp(linear)^2 + 1",
            "(rbf + 1) * (linear + 2)",
        ] {
            let c = k(text);
            let again = k(&c.written());
            assert_eq!(again.eval(X, Z).to_bits(), c.eval(X, Z).to_bits(), "{text}");
        }
    }

    #[test]
    fn values_in_blocks_have_the_bits_of_one_at_a_time() {
        let points: Vec<Point> = (0..150)
            .map(|i| [(i as f64 * 0.37).sin(), (i as f64 * 0.61).cos()])
            .collect();
        for text in [
            "rbf * poly + 0.5 * linear",
            "exp(0.3 * linear)^2 + sigmoid",
            "rbf(5) + 2",
        ] {
            let c = k(text);
            let mut out = vec![f64::NAN; points.len() + 3];
            Kernel::Composed(c).eval_into(X, points.iter().copied(), &mut out);
            for (t, z) in points.iter().enumerate() {
                assert_eq!(out[t].to_bits(), c.eval(X, *z).to_bits(), "{text} at {t}");
            }
            // Fewer points than room: the rest is left as it was.
            assert!(out[points.len()..].iter().all(|v| v.is_nan()));
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_value() {
        for text in [
            "linear",
            "rbf * poly + 0.5 * linear",
            "exp(0.3 * linear)^2 + sigmoid(0.2, 0.1)",
            "(rbf(2) + 1) * (linear + 2)",
        ] {
            let c = k(text);
            let (value, g) = c.value_and_gradient(X, Z);
            assert_eq!(value.to_bits(), c.eval(X, Z).to_bits(), "{text}");
            let h = 1e-6;
            for axis in 0..2 {
                let (mut up, mut down) = (X, X);
                up[axis] += h;
                down[axis] -= h;
                let slope = (c.eval(up, Z) - c.eval(down, Z)) / (2.0 * h);
                assert!(
                    (slope - g[axis]).abs() <= 1e-6 * slope.abs().max(1.0),
                    "{text}, axis {axis}: {slope} vs {}",
                    g[axis]
                );
            }
        }
    }

    proptest::proptest! {
        /// Any text: a composition or a one-line message, never a panic; a composition's K(x, z)
        /// on points in the square is a number or ±∞ (exp of exp overflows), never NaN unless a
        /// product met 0 · ∞.
        #[test]
        fn any_text_reads_or_is_refused_in_one_line(
            text in "[a-z0-9.,()+*^ e-]{0,40}",
        ) {
            match Composition::parse(&text, PANEL) {
                Ok(c) => {
                    let v = c.eval(X, Z);
                    proptest::prop_assert!(!v.is_nan() || c.written().contains('*'));
                }
                Err(e) => proptest::prop_assert!(!e.to_string().contains('\n')),
            }
        }
    }

    #[test]
    fn only_the_sigmoid_makes_it_possibly_indefinite() {
        assert!(!k("rbf * poly + exp(linear)").may_be_indefinite());
        assert!(k("rbf + sigmoid").may_be_indefinite());
    }
}
