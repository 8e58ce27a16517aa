//! A kernel expansion f(x) = b + Σ_j c_j K(x, z_j) with a kernel built by rule, evaluated at
//! the nodes x = (u_col, v_row) of a lattice (the plane's grid).
//!
//! Summed directly, every node and term runs the composition's program with its RBF bases'
//! exponentials, which at a few hundred support vectors costs several frames. On a lattice
//! each RBF base factorises over the coordinates,
//!
//! exp(−γ‖x − z‖²) = exp(−γ(u − z₁)²) · exp(−γ(v − z₂)²),
//!
//! so its values at every node come from (columns + rows)·m exponentials computed once and one
//! product per node and term. The other bases are cheap where they stand: xᵀz = u z₁ + v z₂,
//! a power of it, a hyperbolic tangent. The program then runs on blocks of terms per node, as
//! [`Composition::eval_into`] does on blocks of points. The values agree with the direct sum
//! to rounding (the exponent is split in two), which is all a picture needs.

use super::exp::exp_non_positive;
use super::rules::{operate, Base, Composition, Step, BLOCK};
use crate::core::data::Point;
use std::cell::RefCell;

/// One addend of the composition's top-level sum, Σ_t K_t(x, z), with what the sum over the
/// expansion makes of it.
enum Addend {
    /// a·xᵀz summed over the terms: wᵀx with w = a Σ_j c_j z_j.
    Linear([f64; 2]),
    /// a·exp(−γ‖x − z‖²) summed over the terms: one dot product per node, of
    /// a c_j exp(−γ(u_col − z_j1)²) at `[col·m + j]` and exp(−γ(v_row − z_j2)²) at `[row·m + j]`.
    Rbf(Vec<f64>, Vec<f64>),
    /// Any other: the program's steps in this range, run on blocks of terms.
    Program(std::ops::Range<usize>),
}

/// The expansion {(z_j, c_j)}, its bias and its kernel, prepared for the lattice.
pub struct LatticeExpansion<'a> {
    steps: Vec<Step>,
    terms: &'a [(Point, f64)],
    /// b, and every constant addend a summed over the terms (a Σ_j c_j).
    bias: f64,
    columns: Vec<f64>,
    rows: Vec<f64>,
    addends: Vec<Addend>,
    /// For each RBF base inside a [`Addend::Program`], by its step's place: its factors as
    /// in [`Addend::Rbf`] without the coefficients.
    factors: Vec<(Vec<f64>, Vec<f64>)>,
    /// The program's stack, one block of values per level.
    stack: RefCell<Vec<[f64; BLOCK]>>,
}

impl<'a> LatticeExpansion<'a> {
    /// The expansion at nodes (`columns[col]`, `rows[row]`).
    pub fn new(
        composition: Composition,
        terms: &'a [(Point, f64)],
        bias: f64,
        columns: Vec<f64>,
        rows: Vec<f64>,
    ) -> LatticeExpansion<'a> {
        let steps: Vec<Step> = composition.postfix().collect();
        let along = |gamma: f64, at: &[f64], axis: usize, scale: &dyn Fn(f64) -> f64| {
            at.iter()
                .flat_map(|&u| {
                    terms.iter().map(move |&(z, c)| {
                        scale(c) * exp_non_positive(-gamma * (u - z[axis]).powi(2))
                    })
                })
                .collect::<Vec<f64>>()
        };
        let mut expansion = LatticeExpansion {
            steps: steps.clone(),
            terms,
            bias,
            columns: Vec::new(),
            rows: Vec::new(),
            addends: Vec::new(),
            factors: vec![(Vec::new(), Vec::new()); steps.len()],
            stack: RefCell::new(vec![[0.0; BLOCK]; steps.len()]),
        };
        let coefficients: f64 = terms.iter().map(|(_, c)| c).sum();
        for range in addends(&steps, 0..steps.len()) {
            let (scale, single) = scaled(&steps[range.clone()]);
            match single {
                Some(Step::Constant(c)) => expansion.bias += scale * c * coefficients,
                Some(Step::Base(Base::Linear)) => {
                    let w = terms.iter().fold([0.0; 2], |w, &(z, c)| {
                        [w[0] + scale * c * z[0], w[1] + scale * c * z[1]]
                    });
                    expansion.addends.push(Addend::Linear(w));
                }
                Some(Step::Base(Base::Rbf { gamma })) => {
                    let across = along(gamma, &columns, 0, &|c| scale * c);
                    let down = along(gamma, &rows, 1, &|_| 1.0);
                    expansion.addends.push(Addend::Rbf(across, down));
                }
                _ => {
                    for k in range.clone() {
                        if let Step::Base(Base::Rbf { gamma }) = steps[k] {
                            expansion.factors[k] = (
                                along(gamma, &columns, 0, &|_| 1.0),
                                along(gamma, &rows, 1, &|_| 1.0),
                            );
                        }
                    }
                    expansion.addends.push(Addend::Program(range));
                }
            }
        }
        expansion.columns = columns;
        expansion.rows = rows;
        expansion
    }

    /// f at node (row, col).
    pub fn at(&self, row: usize, col: usize) -> f64 {
        let x = [self.columns[col], self.rows[row]];
        let m = self.terms.len();
        let mut f = self.bias;
        for addend in &self.addends {
            f += match addend {
                Addend::Linear(w) => w[0] * x[0] + w[1] * x[1],
                Addend::Rbf(across, down) => super::dot(
                    &across[col * m..(col + 1) * m],
                    &down[row * m..(row + 1) * m],
                ),
                Addend::Program(range) => self.program(range.clone(), x, row, col),
            };
        }
        f
    }

    /// Σ_j c_j K(x, z_j) for the part of the program in `range`, at node (row, col) = x.
    fn program(&self, range: std::ops::Range<usize>, x: Point, row: usize, col: usize) -> f64 {
        let m = self.terms.len();
        let mut stack = self.stack.borrow_mut();
        let mut sum = 0.0;
        for start in (0..m).step_by(BLOCK) {
            let block = &self.terms[start..(start + BLOCK).min(m)];
            let n = block.len();
            let dots = || block.iter().map(|(z, _)| x[0] * z[0] + x[1] * z[1]);
            let mut top = 0;
            for k in range.clone() {
                let step = self.steps[k];
                match step {
                    Step::Base(base) => {
                        let out = &mut stack[top][..n];
                        match base {
                            Base::Linear => out.iter_mut().zip(dots()).for_each(|(o, d)| *o = d),
                            Base::Polynomial {
                                gamma,
                                degree,
                                coef0,
                            } => out.iter_mut().zip(dots()).for_each(|(o, d)| {
                                *o = (gamma * d + coef0).powi(degree as i32);
                            }),
                            Base::Sigmoid { gamma, coef0 } => {
                                out.iter_mut().zip(dots()).for_each(|(o, d)| {
                                    *o = (gamma * d + coef0).tanh();
                                })
                            }
                            Base::Rbf { .. } => {
                                let (across, down) = &self.factors[k];
                                let a = &across[col * m + start..][..n];
                                let d = &down[row * m + start..][..n];
                                for ((o, a), d) in out.iter_mut().zip(a).zip(d) {
                                    *o = a * d;
                                }
                            }
                        }
                        top += 1;
                    }
                    step => operate(step, &mut stack, &mut top, n),
                }
            }
            sum += block
                .iter()
                .zip(&stack[0][..n])
                .map(|((_, c), k)| c * k)
                .sum::<f64>();
        }
        sum
    }
}

/// How many values a step pops.
fn arity(step: Step) -> usize {
    match step {
        Step::Base(_) | Step::Constant(_) => 0,
        Step::Power(_) | Step::Exp => 1,
        Step::Add | Step::Multiply => 2,
    }
}

/// Where the subexpression whose last step is `steps[end]` begins: in a postfix program every
/// subexpression is a contiguous run of steps ending at its operation.
fn start_of(steps: &[Step], end: usize) -> usize {
    let mut open = 1;
    let mut k = end;
    loop {
        open = open - 1 + arity(steps[k]);
        if open == 0 {
            return k;
        }
        k -= 1;
    }
}

/// The addends of the sum that the steps in `range` compute, each as its own range.
fn addends(steps: &[Step], range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let last = range.end - 1;
    if steps[last] != Step::Add {
        return vec![range];
    }
    let middle = start_of(steps, last - 1);
    let mut both = addends(steps, range.start..middle);
    both.extend(addends(steps, middle..last));
    both
}

/// An addend as a·(one step) when it is one: a base or a constant, scaled by constants
/// (`0.5 * linear`, `rbf * 2`); else (1, None).
fn scaled(steps: &[Step]) -> (f64, Option<Step>) {
    let n = steps.len();
    if n == 1 {
        return (1.0, Some(steps[0]));
    }
    if steps[n - 1] != Step::Multiply {
        return (1.0, None);
    }
    let middle = start_of(steps, n - 2);
    let (left, right) = (&steps[..middle], &steps[middle..n - 1]);
    let (a, rest) = match (left, right) {
        ([Step::Constant(a)], rest) | (rest, [Step::Constant(a)]) => (*a, rest),
        _ => return (1.0, None),
    };
    match scaled(rest) {
        (b, Some(step)) => (a * b, Some(step)),
        none => none,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::kernel::PanelParams;

    /// The top-level sum is taken apart, and scaled bases are recognised as such.
    #[test]
    fn addends_and_their_scales() {
        let panel = PanelParams {
            gamma: 1.0,
            degree: 2,
            coef0: 0.0,
        };
        let steps: Vec<Step> =
            Composition::parse("2 * rbf * 3 + 1 + linear * 0.25 + rbf * poly", panel)
                .unwrap()
                .postfix()
                .collect();
        let parts: Vec<(f64, Option<Step>)> = addends(&steps, 0..steps.len())
            .into_iter()
            .map(|range| scaled(&steps[range]))
            .collect();
        assert_eq!(
            parts,
            vec![
                (6.0, Some(Step::Base(Base::Rbf { gamma: 1.0 }))),
                (1.0, Some(Step::Constant(1.0))),
                (0.25, Some(Step::Base(Base::Linear))),
                (1.0, None),
            ]
        );
    }

    /// At every node of a lattice the expansion agrees with the direct sum of the program,
    /// for compositions of every base and operation, across several blocks of terms.
    #[test]
    fn the_lattice_agrees_with_the_direct_sum() {
        let panel = PanelParams {
            gamma: 0.7,
            degree: 3,
            coef0: 0.5,
        };
        let terms: Vec<(Point, f64)> = (0..150)
            .map(|j| {
                let t = j as f64;
                (
                    [(t * 0.37).sin() * 2.0, (t * 0.91).cos() * 1.5],
                    (t * 0.13).sin(),
                )
            })
            .collect();
        let columns: Vec<f64> = (0..23).map(|c| -2.5 + 0.23 * c as f64).collect();
        let rows: Vec<f64> = (0..17).map(|r| -1.8 + 0.21 * r as f64).collect();
        for text in [
            "rbf",
            "rbf + 0.5 * linear",
            "rbf * poly + 0.5 * linear",
            "(linear + 1)^2",
            "exp(0.3 * rbf(2)) + sigmoid(0.1, 0)",
            "rbf(0.5) * rbf(4) + poly(2, 1, 1)",
            "2 * rbf * 3 + 1 + linear * 0.25",
            "0.5 * (rbf(3) + poly) + sigmoid",
        ] {
            let composition = Composition::parse(text, panel).unwrap();
            let lattice =
                LatticeExpansion::new(composition, &terms, 0.25, columns.clone(), rows.clone());
            for (row, &v) in rows.iter().enumerate() {
                for (col, &u) in columns.iter().enumerate() {
                    let direct = 0.25
                        + terms
                            .iter()
                            .map(|&(z, c)| c * composition.eval([u, v], z))
                            .sum::<f64>();
                    let got = lattice.at(row, col);
                    assert!(
                        (got - direct).abs() <= 1e-11 * (1.0 + direct.abs()),
                        "{text} at ({u}, {v}): {got} against {direct}"
                    );
                }
            }
        }
    }
}
