//! The methods of the lab, one line each. Nothing outside this list and each method's own file
//! names a method: the page's model menu, the URL, the command line's `--model` and the
//! parameter controls all come from here and from the methods' own rows (gathered by
//! `methods::table`).
//!
//! Adding a method: write its file under `solvers/` (its problem in the module doc, a
//! [`Model`] for the fitted model, a [`Method`] for the registry, and a row, in its
//! `Method::rows`, for each parameter it brings), and add its line below.

use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::params::Values;
use crate::core::task::Task;
use crate::methods::model::{check_classes, FitOptions, Method, Model, MAX_CLASSES};
use crate::methods::multiclass::{Multiclass, Scheme};
use crate::methods::solvers::{
    bayes_logistic::BayesLogisticMethod,
    kernel_ridge::KernelRidgeMethod,
    knn::KnnMethod,
    lda::LdaMethod,
    least_squares::LeastSquaresMethod,
    logistic::LogisticMethod,
    means::ClassMeansMethod,
    naive_bayes::NaiveBayesMethod,
    novelty::OneClassMethod,
    nu_svc::NuSvcMethod,
    perceptron::PerceptronMethod,
    qda::QdaMethod,
    regression::krr::RidgeRegressionMethod,
    regression::lines::{LEAST_ABSOLUTE_LINE, LEAST_SQUARES_LINE},
    regression::svr::{EPSILON_SVR, NU_SVR},
    svm::SvmMethod,
};
use crate::methods::standardise::{Scaler, Standardised};

/// Every method, in the order the model menu lists them (its task's, for the others).
pub static METHODS: &[&dyn Method] = &[
    &SvmMethod,
    &NuSvcMethod,
    &PerceptronMethod,
    &LogisticMethod,
    &BayesLogisticMethod,
    &KnnMethod,
    &LdaMethod,
    &QdaMethod,
    &NaiveBayesMethod,
    &LeastSquaresMethod,
    &ClassMeansMethod,
    &KernelRidgeMethod,
    &EPSILON_SVR,
    &NU_SVR,
    &RidgeRegressionMethod,
    &LEAST_SQUARES_LINE,
    &LEAST_ABSOLUTE_LINE,
    &OneClassMethod,
];

/// The classification method with this id, or a message listing the ids there are.
pub fn method(id: &str) -> Result<&'static dyn Method, Error> {
    method_in(Task::Classification, id)
}

/// The methods of `task`, in menu order.
pub fn methods_of(task: Task) -> impl Iterator<Item = &'static dyn Method> {
    METHODS.iter().copied().filter(move |m| m.task() == task)
}

/// The method of `task` with this id, or a message listing the ids there are.
pub fn method_in(task: Task, id: &str) -> Result<&'static dyn Method, Error> {
    methods_of(task).find(|m| m.id() == id).ok_or_else(|| {
        let ids: Vec<&str> = methods_of(task).map(|m| m.id()).collect();
        let of = match task {
            Task::Classification => String::new(),
            other => format!(" for {}", other.title()),
        };
        Error::Parameter(format!("unknown model '{id}'{of} (use {})", ids.join(", ")))
    })
}

/// Fits `method` to `data`; more than two classes for a two-class method go through
/// one-versus-one (when the method reads the `mc` setting and it says so) or one-versus-rest.
///
/// With `std` on, the method is fitted to the standardised points and answers in the plane's
/// units ([`Standardised`]); the scaler is fitted on `data` alone, so a cross-validation fold
/// standardises by its own training points, as a scikit-learn pipeline does.
///
/// A method reads its own row of a key two methods have as itself (`Values::as_read_by`), so
/// the learning curves' second method, or the model-choice view's, reads its own `solver`.
pub fn fit(
    method: &dyn Method,
    values: &Values,
    data: &Dataset,
    options: FitOptions<'_>,
) -> Result<Box<dyn Model>, Error> {
    if method.task() != Task::Classification {
        // The points' labels do not matter, and standardising would rescale the targets.
        if data.len() < 2 {
            return Err(Error::TooFewPoints);
        }
        let model = method.fit(values, data, options)?;
        check_finite(model.as_ref(), data)?;
        return Ok(model);
    }
    if values.flag("std") {
        check_classes(data, MAX_CLASSES)?;
        let scaler = Scaler::fit(&data.points);
        // Every point's z moves when any point does, so whoever edits the points tells a warm
        // state of standardised points that its data was replaced (the playground does); with
        // the same points a kept run goes on (a new C, another step).
        let inner = fit_as_given(method, values, &scaler.dataset(data), options)?;
        return Ok(Box::new(Standardised { scaler, inner }));
    }
    fit_as_given(method, values, data, options)
}

/// [`fit`] on the points as they are.
fn fit_as_given(
    method: &dyn Method,
    values: &Values,
    data: &Dataset,
    options: FitOptions<'_>,
) -> Result<Box<dyn Model>, Error> {
    let classes = check_classes(data, MAX_CLASSES)?;
    let model = if classes.len() == 2 || method.native_multiclass(values) {
        method.fit(values, data, options)?
    } else {
        fit_pairs(method, values, data, options)?
    };
    check_finite(model.as_ref(), data)?;
    Ok(model)
}

/// More than two classes for a two-class method: one-versus-one or one-versus-rest.
fn fit_pairs(
    method: &dyn Method,
    values: &Values,
    data: &Dataset,
    options: FitOptions<'_>,
) -> Result<Box<dyn Model>, Error> {
    let scheme = scheme(method, values)?;
    let max_iter = options.max_iter;
    let multi = Multiclass::fit(data, scheme, |pair| {
        method.fit(
            values,
            pair,
            FitOptions {
                max_iter,
                ..FitOptions::default()
            },
        )
    })?;
    Ok(Box::new(multi))
}

/// How a two-class `method` tells more classes apart: one-versus-one when it reads the `mc`
/// setting and that says so, else one-versus-rest.
pub fn scheme(method: &dyn Method, values: &Values) -> Result<Scheme, Error> {
    if method.params().contains(&"mc") {
        Scheme::from_name(values.choice("mc"))
    } else {
        Ok(Scheme::OneVsRest)
    }
}

/// Refuses a model whose values overflow within the view the page shows around the points (a
/// polynomial kernel of degree 10 on coordinates of 10¹⁵, say): a NaN or an infinity would be
/// drawn as a boundary and counted as predictions. The corners of the view stand for all of
/// it: a term of a kernel expansion, |γxᵀz + c₀|^d, is largest at a corner, and a NaN
/// parameter shows everywhere. (Checking every training point would double the cost of a fit
/// that scores them anyway.)
fn check_finite(model: &dyn Model, data: &Dataset) -> Result<(), Error> {
    let overflows = |x| {
        let f = model.decision_value(x);
        !f.is_finite() || model.scores(x).iter().any(|s| !s.is_finite())
    };
    let view = View::around(&data.points);
    let corners = [
        [view.x_min, view.y_min],
        [view.x_min, view.y_max],
        [view.x_max, view.y_min],
        [view.x_max, view.y_max],
    ];
    if corners.into_iter().any(overflows) {
        return Err(Error::Parameter(
            "the model overflows at the scale of these points: rescale the data, or lower γ \
             or the degree"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::params::Group;
    use crate::methods::table::param;

    #[test]
    fn ids_are_unique_and_parameters_exist() {
        // Unique within each task.
        let mut ids: Vec<(&str, &str)> = METHODS.iter().map(|m| (m.task().id(), m.id())).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), METHODS.len());
        for m in METHODS {
            assert!(m.explain().ends_with('.'), "{} explains itself", m.id());
            for key in m.params() {
                let row = param(key).unwrap_or_else(|| panic!("{}: no row {key}", m.id()));
                assert!(matches!(row.group, Group::Model | Group::Hidden), "{key}");
            }
        }
        assert!(method("nope")
            .err()
            .unwrap()
            .to_string()
            .contains("use svm"));
    }

    #[test]
    fn every_method_fits_two_and_three_classes() {
        let values = crate::methods::table::defaults();
        for data in [
            crate::core::data::Preset::Moons.generate(60, 0.2, 1),
            crate::core::data::Preset::Blobs3.generate(60, 0.1, 1),
        ] {
            for m in methods_of(Task::Classification) {
                let model = fit(m, &values, &data, FitOptions::default())
                    .unwrap_or_else(|e| panic!("{}: {e}", m.id()));
                assert_eq!(model.classes(), data.classes().as_slice(), "{}", m.id());
                let correct = (0..data.len())
                    .filter(|&i| model.predict(data.points[i]) == data.labels[i])
                    .count();
                assert!(correct * 10 >= data.len() * 8, "{}: {correct}", m.id());
            }
        }
    }

    /// A method fitted on settings that another method reads (the learning curves' second
    /// method beside the lab's own) reads its own row of a key both have: logistic
    /// regression's gradient descent beside an SVM's dual coordinate ascent.
    #[test]
    fn a_method_fits_with_its_own_row_of_a_shared_key() {
        let data = crate::core::data::Preset::Moons.generate(60, 0.2, 1);
        let logistic = method("logistic").unwrap();
        let mut values = crate::methods::table::defaults();
        values.read_by(method("svm").unwrap().rows());
        values.set("solver", "dca").unwrap();
        values.set("solver", "gd").unwrap();
        let f = |values: &Values| {
            let model = fit(logistic, values, &data, FitOptions::default()).unwrap();
            model.decision_value([0.3, 0.1])
        };
        let mut own = crate::methods::table::defaults();
        own.read_by(logistic.rows());
        let newton = f(&own);
        own.set("solver", "gd").unwrap();
        assert_eq!(
            f(&values),
            f(&own),
            "gradient descent, as its own settings say"
        );
        assert_ne!(f(&values), newton);
    }
}
