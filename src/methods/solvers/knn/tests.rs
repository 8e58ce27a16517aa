use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn params(k: usize, metric: Metric, weights: Weights) -> KnnParams {
    KnnParams { k, metric, weights }
}

/// All training points sorted by (rank, index), the first k kept: the definition.
fn brute_force(points: &[Point], x: Point, k: usize, metric: Metric) -> Vec<(usize, f64)> {
    let mut all: Vec<(usize, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, &p)| (i, metric.rank(x, p)))
        .collect();
    all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    all.truncate(k);
    all.into_iter()
        .map(|(i, rank)| (i, metric.distance_from_rank(rank)))
        .collect()
}

/// Points on a coarse grid, so that equal distances (ties) are frequent.
fn random_points(rng: &mut StdRng, n: usize, step: f64) -> Vec<Point> {
    (0..n)
        .map(|_| {
            let mut coordinate = || (rng.random_range(-1.0..1.0) / step).round() * step;
            [coordinate(), coordinate()]
        })
        .collect()
}

#[test]
fn neighbours_match_brute_force() {
    let mut rng = StdRng::seed_from_u64(7);
    for (n, step) in [(1, 0.1), (9, 0.1), (300, 0.05), (2000, 1e-4)] {
        let points = random_points(&mut rng, n, step);
        let labels: Vec<i32> = (0..n).map(|i| (i % 3) as i32).collect();
        let mut queries = random_points(&mut rng, 200, step / 2.0);
        queries.extend_from_slice(&points[..n.min(20)]);
        queries.extend([[5.0, 5.0], [-3.0, 0.2], [0.0, 0.0]]);
        for metric in Metric::ALL {
            for k in [1, 2, 3, 5, 8, 25] {
                let model =
                    KnnModel::fit(&points, &labels, &params(k, metric, Weights::Uniform)).unwrap();
                for &x in &queries {
                    assert_eq!(
                        model.neighbours(x),
                        brute_force(&points, x, k, metric),
                        "n = {n}, {metric:?}, k = {k}, x = {x:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn metrics_measure_as_stated() {
    let (a, b) = ([1.0, 2.0], [4.0, -2.0]);
    assert_eq!(Metric::Euclidean.distance(a, b), 5.0);
    assert_eq!(Metric::Manhattan.distance(a, b), 7.0);
    assert_eq!(Metric::Chebyshev.distance(a, b), 4.0);
}

#[test]
fn names_round_trip() {
    for metric in Metric::ALL {
        assert_eq!(Metric::from_name(metric.name()).unwrap(), metric);
    }
    for weights in Weights::ALL {
        assert_eq!(Weights::from_name(weights.name()).unwrap(), weights);
    }
    assert!(Metric::from_name("cosine").is_err());
    assert!(Weights::from_name("gaussian").is_err());
}

#[test]
fn checks_parameters_and_input() {
    let good = KnnParams::default();
    assert!(good.check().is_ok());
    for k in [0, MAX_K + 1] {
        let err = KnnParams { k, ..good }.check().unwrap_err();
        assert_eq!(err.to_string(), "k must be between 1 and 25");
    }
    assert_eq!(
        KnnModel::fit(&[], &[], &good).unwrap_err(),
        Error::TooFewPoints
    );
    assert!(matches!(
        KnnModel::fit(&[[0.0, f64::NAN]], &[1], &good),
        Err(Error::NotFinite { .. })
    ));
    assert!(matches!(
        KnnModel::fit(&[[0.0, 0.0]], &[1, 2], &good),
        Err(Error::Parameter(_))
    ));
}

#[test]
fn one_class_is_predicted_everywhere() {
    let model = KnnModel::fit(&[[0.0, 0.0], [1.0, 1.0]], &[4, 4], &KnnParams::default()).unwrap();
    assert_eq!(model.classes(), &[4]);
    assert_eq!(model.predict([-7.0, 3.0]), 4);
    let mut votes = [0.0];
    model.votes([0.5, 0.5], &mut votes);
    assert_eq!(votes, [1.0]);
}

#[test]
fn k_beyond_n_uses_every_point() {
    let points = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]];
    let model = KnnModel::fit(
        &points,
        &[2, 1, 1],
        &params(25, Metric::Euclidean, Weights::Uniform),
    )
    .unwrap();
    assert_eq!(model.params().k, 25);
    assert_eq!(
        model.neighbours([0.1, 0.0]),
        brute_force(&points, [0.1, 0.0], 3, Metric::Euclidean)
    );
    let mut votes = [0.0; 2];
    model.votes([0.1, 0.0], &mut votes);
    assert_eq!(votes, [2.0 / 3.0, 1.0 / 3.0]);
    // Nearest to the class-2 point, but outvoted by the two class-1 points.
    assert_eq!(model.predict([0.1, 0.0]), 1);
}

#[test]
fn equal_distances_go_to_the_lower_index() {
    // Both points are at distance 1 from the origin; k = 1 takes index 0.
    let points = [[1.0, 0.0], [-1.0, 0.0]];
    let model = KnnModel::fit(
        &points,
        &[9, 3],
        &params(1, Metric::Euclidean, Weights::Uniform),
    )
    .unwrap();
    assert_eq!(model.neighbours([0.0, 0.0]), vec![(0, 1.0)]);
    assert_eq!(model.predict([0.0, 0.0]), 9);
}

#[test]
fn equal_votes_go_to_the_smallest_label() {
    let points = [[1.0, 0.0], [-1.0, 0.0], [0.0, 3.0], [0.0, -3.0]];
    let labels = [5, 2, 7, 7];
    for weights in Weights::ALL {
        let model =
            KnnModel::fit(&points, &labels, &params(2, Metric::Manhattan, weights)).unwrap();
        let mut votes = [0.0; 3];
        model.votes([0.0, 0.0], &mut votes);
        assert_eq!(votes, [0.5, 0.5, 0.0]);
        assert_eq!(model.predict([0.0, 0.0]), 2);
    }
    // Four neighbours, two votes each for 2 and 7 (uniform): 2 wins over 5 and 7.
    let model = KnnModel::fit(
        &points,
        &[7, 2, 2, 7],
        &params(4, Metric::Chebyshev, Weights::Uniform),
    )
    .unwrap();
    assert_eq!(model.predict([0.0, 0.0]), 2);
}

#[test]
fn inverse_distance_weights() {
    let points = [[1.0, 0.0], [0.0, 2.0], [0.0, -2.0]];
    let model = KnnModel::fit(
        &points,
        &[1, 0, 0],
        &params(3, Metric::Euclidean, Weights::Distance),
    )
    .unwrap();
    let mut votes = [0.0; 2];
    model.votes([0.0, 0.0], &mut votes);
    // w = 1, ½, ½: class 1 holds half of the total weight 2 — a tie, won by label 0.
    assert_eq!(votes, [0.5, 0.5]);
    assert_eq!(model.predict([0.0, 0.0]), 0);
    model.votes([0.1, 0.0], &mut votes);
    let near = 1.0 / 0.9;
    let far = 2.0 / (0.01f64 + 4.0).sqrt();
    assert!((votes[1] - near / (near + far)).abs() < 1e-12);
    assert_eq!(model.predict([0.1, 0.0]), 1);
}

#[test]
fn a_neighbour_at_distance_zero_takes_the_whole_vote() {
    let points = [[0.0, 0.0], [0.1, 0.0], [-0.1, 0.0], [0.0, 0.1]];
    let model = KnnModel::fit(
        &points,
        &[3, 1, 1, 1],
        &params(4, Metric::Euclidean, Weights::Distance),
    )
    .unwrap();
    let mut votes = [0.0; 2];
    model.votes([0.0, 0.0], &mut votes);
    assert_eq!(votes, [0.0, 1.0]);
    assert_eq!(model.predict([0.0, 0.0]), 3);

    // Two points on the query with different labels share it; the tie goes to label 1.
    let points = [[0.5, 0.5], [0.0, 0.0], [0.5, 0.5]];
    let model = KnnModel::fit(
        &points,
        &[6, 6, 1],
        &params(3, Metric::Chebyshev, Weights::Distance),
    )
    .unwrap();
    model.votes([0.5, 0.5], &mut votes);
    assert_eq!(votes, [0.5, 0.5]);
    assert_eq!(model.predict([0.5, 0.5]), 1);
}

#[test]
fn many_classes_vote_shares_sum_to_one() {
    let mut rng = StdRng::seed_from_u64(3);
    let points = random_points(&mut rng, 500, 1e-4);
    let labels: Vec<i32> = (0..500).map(|i| [10, -2, 4, 0, 7, 1][i % 6]).collect();
    for weights in Weights::ALL {
        let model =
            KnnModel::fit(&points, &labels, &params(9, Metric::Euclidean, weights)).unwrap();
        assert_eq!(model.classes(), &[-2, 0, 1, 4, 7, 10]);
        let mut votes = [0.0; 6];
        for x in random_points(&mut rng, 50, 1e-3) {
            model.votes(x, &mut votes);
            assert!((votes.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let top = votes.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let first_top = votes.iter().position(|&v| v == top).unwrap();
            assert_eq!(model.predict(x), model.classes()[first_top]);
        }
    }
}

/// The training accuracy, asked in the k-d tree's leaf order, is the share of training points
/// whose own prediction is their label, counted point by point in input order; on points with
/// ties and three noisy classes, for each metric and weighting.
#[test]
fn the_training_accuracy_asked_in_leaf_order_counts_every_point_once() {
    let mut rng = StdRng::seed_from_u64(11);
    for (n, step, k) in [(1, 0.1, 1), (9, 0.1, 3), (300, 0.05, 5), (3000, 1e-3, 15)] {
        let points = random_points(&mut rng, n, step);
        let labels: Vec<i32> = (0..n).map(|_| rng.random_range(0..3)).collect();
        let data = Dataset::from_parts(points.clone(), labels.clone());
        for metric in Metric::ALL {
            for weights in [Weights::Uniform, Weights::Distance] {
                let model = KnnModel::fit(&points, &labels, &params(k, metric, weights)).unwrap();
                let correct = (0..n)
                    .filter(|&i| KnnModel::predict(&model, points[i]) == labels[i])
                    .count();
                assert_eq!(
                    model.training_accuracy(&data),
                    correct as f64 / n as f64,
                    "n = {n}, k = {k}, {metric:?}, {weights:?}"
                );
            }
        }
    }
}
