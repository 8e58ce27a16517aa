use super::*;

/// R² and RMSE by their definitions on a hand-made case: residuals 1, −1, 0 of targets 0, 2, 4.
#[test]
fn scores_follow_their_definitions() {
    #[derive(Debug)]
    struct Line;
    impl Curve for Line {
        fn at(&self, x: f64) -> f64 {
            x
        }
    }
    let data =
        crate::data::Dataset::from_parts(vec![[-1.0, 0.0], [3.0, 2.0], [4.0, 4.0]], vec![0; 3]);
    let model = Fitted::new(Line, &data);
    let (rmse, r2) = scores(&model, &data.points).unwrap();
    assert!((rmse - (2.0f64 / 3.0).sqrt()).abs() < 1e-15);
    assert!((r2.unwrap() - (1.0 - 2.0 / 8.0)).abs() < 1e-15);
}
