//! The field of predicted labels: at every grid node the predicted class and a confidence in
//! [0, 1]: how regions are painted when there are more than two classes, evaluated exactly
//! only in the coarse cells where the class changes (or at every node, for a model whose
//! labels on the grid are exact at a cost per node that pays for it).

use super::{coarse_lattice, Field, Grid};

/// The predicted class (an index into the model's classes) and a confidence in [0, 1] at
/// every node of a grid: how regions are painted when there are more than two classes.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelField {
    pub grid: Grid,
    pub class: Vec<u8>,
    pub confidence: Vec<f32>,
    /// How many nodes were evaluated (the rest filled in).
    pub exact_nodes: usize,
}

impl LabelField {
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> (u8, f32) {
        let k = row * self.grid.cols + col;
        (self.class[k], self.confidence[k])
    }

    /// The model at every `step`-th node; inside a coarse cell whose corners all predict the
    /// same class the class is filled in and the confidence interpolated, elsewhere every node
    /// is evaluated, so the boundaries between classes are placed at the grid's resolution.
    pub fn adaptive(grid: Grid, step: usize, f: &dyn Fn(usize, usize) -> (u8, f32)) -> LabelField {
        let step = step.max(1);
        let (rows, cols) = (grid.rows, grid.cols);
        if step == 1 {
            // Every node is a lattice node: nothing to fill in, so no pass over the cells.
            return LabelField::exact(grid, f);
        }
        let mut class = vec![0u8; rows * cols];
        let mut confidence = vec![0f32; rows * cols];
        let mut known = vec![false; rows * cols];
        let mut exact_nodes = 0;
        let mut evaluate =
            |r: usize, c: usize, class: &mut [u8], confidence: &mut [f32], known: &mut [bool]| {
                let k = r * cols + c;
                if !known[k] {
                    (class[k], confidence[k]) = f(r, c);
                    known[k] = true;
                    exact_nodes += 1;
                }
            };
        let (lattice_rows, lattice_cols) = (coarse_lattice(rows, step), coarse_lattice(cols, step));
        for &r in &lattice_rows {
            for &c in &lattice_cols {
                evaluate(r, c, &mut class, &mut confidence, &mut known);
            }
        }
        for rs in lattice_rows.windows(2) {
            for cs in lattice_cols.windows(2) {
                let (r0, r1, c0, c1) = (rs[0], rs[1], cs[0], cs[1]);
                let corners = [
                    r0 * cols + c0,
                    r0 * cols + c1,
                    r1 * cols + c0,
                    r1 * cols + c1,
                ];
                let same = corners.iter().all(|&k| class[k] == class[corners[0]]);
                for r in r0..=r1 {
                    for c in c0..=c1 {
                        if same {
                            let k = r * cols + c;
                            if known[k] {
                                continue;
                            }
                            let u = (c - c0) as f32 / (c1 - c0) as f32;
                            let v = (r - r0) as f32 / (r1 - r0) as f32;
                            let q = corners.map(|k| confidence[k]);
                            class[k] = class[corners[0]];
                            confidence[k] = (1.0 - v) * ((1.0 - u) * q[0] + u * q[1])
                                + v * ((1.0 - u) * q[2] + u * q[3]);
                        } else {
                            evaluate(r, c, &mut class, &mut confidence, &mut known);
                        }
                    }
                }
            }
        }
        LabelField {
            grid,
            class,
            confidence,
            exact_nodes,
        }
    }

    /// The model at every node, row by row.
    pub fn exact(grid: Grid, f: &dyn Fn(usize, usize) -> (u8, f32)) -> LabelField {
        let (class, confidence) = (0..grid.rows)
            .flat_map(|r| (0..grid.cols).map(move |c| f(r, c)))
            .unzip();
        LabelField {
            grid,
            class,
            confidence,
            exact_nodes: grid.rows * grid.cols,
        }
    }

    /// Renames every class index k to `to[k]` (a model's class order to the colours on show).
    pub fn recolour(&mut self, to: &[u8]) {
        for c in self.class.iter_mut() {
            *c = to.get(*c as usize).copied().unwrap_or(*c);
        }
    }

    /// 1 where class `index` is predicted, 0 elsewhere: its level ½ traces that class's region.
    pub fn indicator(&self, index: u8) -> Field {
        Field {
            grid: self.grid,
            values: self
                .class
                .iter()
                .map(|&c| (c == index) as u8 as f64)
                .collect(),
            exact_nodes: 0,
        }
    }
}
