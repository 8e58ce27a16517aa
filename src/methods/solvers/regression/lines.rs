//! Straight lines t ≈ w x + b as methods of the regression task: least squares (Σ rᵢ² made
//! least) and least absolute deviations (Σ |rᵢ|), solved in [`crate::methods::solvers::lines`]. Drag one
//! point far away: the first line follows it, the second hardly moves — a squared residual
//! grows with the distance, an absolute one only in step with it.

use super::{Curve, Fitted, ResidualLoss};
use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::sklearn::{Counterpart, Estimator, Multiclass};
use crate::core::task::Task;
use crate::methods::model::{Fact, FitOptions, Method, Model};
use crate::methods::solvers::lines::{least_absolute_line, least_squares_line, LineFit};

/// A fitted line and what it made least.
#[derive(Debug)]
pub struct Line {
    pub fit: LineFit,
    /// "Σ rᵢ²" or "Σ |rᵢ|".
    pub objective: &'static str,
    /// Whether it is the least-absolute-deviations line.
    pub absolute: bool,
}

impl Curve for Line {
    fn at(&self, x: f64) -> f64 {
        self.fit.predict(x)
    }

    fn loss(&self) -> ResidualLoss {
        match self.absolute {
            true => ResidualLoss::Absolute,
            false => ResidualLoss::Squared,
        }
    }

    fn facts(&self) -> Vec<Fact> {
        vec![
            Fact::new("w", "w =", self.fit.w),
            Fact::new("bias", "b =", self.fit.bias),
            Fact::new("objective", self.objective, self.fit.objective).inside(),
        ]
    }

    fn numbers(&self) -> Vec<(&'static str, Vec<f64>)> {
        vec![("w", vec![self.fit.w])]
    }

    fn scalars(&self) -> Vec<(&'static str, f64)> {
        vec![("bias", self.fit.bias)]
    }
}

fn fit_line(data: &Dataset, absolute: bool) -> Result<Box<dyn Model>, Error> {
    let (xs, ts): (Vec<f64>, Vec<f64>) = data.points.iter().map(|p| (p[0], p[1])).unzip();
    let line = if absolute {
        Line {
            fit: least_absolute_line(&xs, &ts)?,
            objective: "Σ |rᵢ| =",
            absolute,
        }
    } else {
        Line {
            fit: least_squares_line(&xs, &ts)?,
            objective: "Σ rᵢ² =",
            absolute,
        }
    };
    Ok(Box::new(Fitted::new(line, data)))
}

/// A registry entry of a line: least squares or least absolute deviations.
pub struct LineMethod {
    id: &'static str,
    title: &'static str,
    explain: &'static str,
    absolute: bool,
}

/// The least-squares line (its registry entry).
pub const LEAST_SQUARES_LINE: LineMethod = LineMethod {
    id: "lsq",
    title: "least-squares line",
    explain: "The line t = wx + b with the least sum of squared residuals Σ(tᵢ − wxᵢ − b)²: one far point pulls it towards itself.",
    absolute: false,
};

/// The least-absolute-deviations line (its registry entry).
pub const LEAST_ABSOLUTE_LINE: LineMethod = LineMethod {
    id: "lad",
    title: "least absolute deviations line",
    explain: "The line t = wx + b with the least sum of absolute residuals Σ|tᵢ − wxᵢ − b|, solved exactly: it passes through two of the points, and one far point hardly moves it.",
    absolute: true,
};

impl Method for LineMethod {
    fn id(&self) -> &'static str {
        self.id
    }

    fn task(&self) -> Task {
        Task::Regression
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn explain(&self) -> &'static str {
        self.explain
    }

    fn params(&self) -> &'static [&'static str] {
        &[]
    }

    fn fit(
        &self,
        _values: &Values,
        data: &Dataset,
        _options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        fit_line(data, self.absolute)
    }

    fn sklearn(&self, _values: &Values, _data: &Dataset) -> Counterpart {
        if !self.absolute {
            let line = Estimator::sklearn("sklearn.linear_model", "LinearRegression");
            return Counterpart::same(vec![line], Multiclass::Otherwise).map(
                "",
                "LinearRegression: the line of least squared residuals, in closed form as the lab's",
            );
        }
        let line = Estimator::sklearn("sklearn.linear_model", "QuantileRegressor")
            .arg("quantile", 0.5)
            .arg("alpha", 0.0)
            .arg("solver", "highs");
        Counterpart::same(vec![line], Multiclass::Otherwise)
            .map(
                "",
                "QuantileRegressor(quantile=0.5, alpha=0): the median's line, the least sum of \
                 absolute residuals, solved as the same linear programme (HiGHS)",
            )
            .near("a least-absolute-deviations line need not be unique, and each solver may end at another optimal line with the same sum of absolute residuals")
    }
}
