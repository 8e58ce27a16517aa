//! The dataset a scene is made of, [`Dataset`]: labelled points `points[i]` with label
//! `labels[i]`, the text each point and class was written as, and its edits (adding, moving,
//! removing a point; a point placed must be finite, within ±[`MAX_COORDINATE`]). Also what the
//! methods ask of it: the classes (the distinct labels, in increasing order), their names and
//! colour order, the two-class targets y_i ∈ {−1, +1} (the larger label +1, as scikit-learn),
//! the nearest point within a radius, and the stratified split into training and held-out
//! (test) points: in each class a seeded shuffle, its first round(fraction · n_c) held out.

use super::{Point, Written, MAX_COORDINATE};
use crate::core::error::Error;
use crate::core::labels::LabelTexts;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Labelled points: `points[i]` has label `labels[i]`.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub points: Vec<Point>,
    pub labels: Vec<i32>,
    /// `written[i]`: the text point i was read from, if it was read and not moved since (may
    /// be shorter than `points`; a missing entry means none).
    pub written: Vec<Option<Written>>,
    /// The text each class was written as in the file or link it came from (a class without
    /// one is written as its integer).
    pub label_texts: LabelTexts,
}

/// Two datasets are equal when their points and labels are: how a number was written does not
/// matter.
impl PartialEq for Dataset {
    fn eq(&self, other: &Self) -> bool {
        self.points == other.points && self.labels == other.labels
    }
}

impl Dataset {
    pub fn new() -> Self {
        Self::default()
    }

    /// Points and their labels (equally many), with no written text.
    pub fn from_parts(points: Vec<Point>, labels: Vec<i32>) -> Self {
        Dataset {
            points,
            labels,
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Adds a point, exactly as given, and returns its index; rejects NaN and infinities.
    pub fn push(&mut self, point: Point, label: i32) -> Result<usize, Error> {
        self.push_written(point, label, None)
    }

    /// Adds a point read from `written`, the text of its two coordinates.
    pub fn push_written(
        &mut self,
        point: Point,
        label: i32,
        written: Option<Written>,
    ) -> Result<usize, Error> {
        check_finite(point, "point")?;
        let index = self.points.len();
        self.points.push(point);
        self.labels.push(label);
        if written.is_some() {
            self.written.resize(index, None);
            self.written.push(written);
        }
        Ok(index)
    }

    /// Moves point `index` to `point`, exactly as given.
    pub fn move_point(&mut self, index: usize, point: Point) -> Result<(), Error> {
        check_finite(point, "point")?;
        let slot = self
            .points
            .get_mut(index)
            .ok_or_else(|| Error::Parameter(format!("no point with index {index}")))?;
        *slot = point;
        if let Some(written) = self.written.get_mut(index) {
            *written = None;
        }
        Ok(())
    }

    pub fn remove(&mut self, index: usize) -> Result<(), Error> {
        if index >= self.points.len() {
            return Err(Error::Parameter(format!("no point with index {index}")));
        }
        self.points.remove(index);
        self.labels.remove(index);
        if index < self.written.len() {
            self.written.remove(index);
        }
        Ok(())
    }

    /// Coordinate `axis` of point `index` as text: as it was written, if it was read and
    /// still reads as the stored value, else the shortest text that reads back exactly.
    pub fn coordinate_text(&self, index: usize, axis: usize) -> std::borrow::Cow<'_, str> {
        let value = self.points[index][axis];
        match self.written.get(index) {
            Some(Some(text)) if text[axis].parse::<f64>().ok() == Some(value) => {
                std::borrow::Cow::Borrowed(&text[axis])
            }
            _ => std::borrow::Cow::Owned(value.to_string()),
        }
    }

    /// How class `label` is written: as its file wrote it, else as the integer.
    pub fn label_text(&self, label: i32) -> std::borrow::Cow<'_, str> {
        match self.label_texts.get(&label) {
            Some(text) => std::borrow::Cow::Borrowed(text),
            None => std::borrow::Cow::Owned(label.to_string()),
        }
    }

    /// How the page names class `label`: as its file or link wrote it (`-1`, `+1`, `setosa`,
    /// and a class added since as its integer) when the labels came from one, else, for the
    /// lab's own classes 0, 1, …, `class 1`, `class 2`, ….
    pub fn class_name(&self, label: i32) -> String {
        if self.label_texts.is_empty() {
            format!("class {}", i64::from(label) + 1)
        } else {
            self.label_text(label).into_owned()
        }
    }

    /// The classes a new point may take, in increasing order (so a class's place here is its
    /// colour and shape in the plane), each with its [`Dataset::class_name`]: the labels
    /// present, and, while there are fewer than two, the classes the file named, then the
    /// next integers above them, so an empty scene offers two classes to start.
    pub fn class_choices(&self) -> Vec<(i32, String)> {
        self.class_order()
            .into_iter()
            .map(|c| (c, self.class_name(c)))
            .collect()
    }

    /// The classes of [`Dataset::class_choices`], without their names: a class's place here
    /// is its colour and shape, in the plane as on its button.
    pub fn class_order(&self) -> Vec<i32> {
        let mut classes = self.classes();
        for &class in self.label_texts.keys() {
            if classes.len() >= 2 {
                break;
            }
            if let Err(at) = classes.binary_search(&class) {
                classes.insert(at, class);
            }
        }
        while classes.len() < 2 {
            let next = classes.last().map_or(0, |&c| c.saturating_add(1));
            if classes.last() == Some(&next) {
                break;
            }
            classes.push(next);
        }
        classes
    }

    /// The distinct labels, in increasing order.
    pub fn classes(&self) -> Vec<i32> {
        // One pass (a scene may have millions of points, and this is asked whenever they
        // change): labels 0…63, nearly every scene's, set bits of a mask; any other goes into
        // a short sorted list, and past 64 of those the labels are sorted once instead.
        let mut small = 0u64;
        let mut others: Vec<i32> = Vec::new();
        for &label in &self.labels {
            if (0..64).contains(&label) {
                small |= 1 << label;
            } else if let Err(at) = others.binary_search(&label) {
                if others.len() == 64 {
                    let mut all = self.labels.clone();
                    crate::core::sorting::sort(&mut all);
                    all.dedup();
                    return all;
                }
                others.insert(at, label);
            }
        }
        let below = others.iter().copied().filter(|&l| l < 0);
        let masked = (0..64).filter(|&l| small & (1 << l) != 0);
        let above = others.iter().copied().filter(|&l| l >= 64);
        below.chain(masked).chain(above).collect()
    }

    /// The two-class view of the data: `([negative, positive] labels, y)` with y_i ∈ {−1, +1}.
    /// Fails with a message a student understands when there are too few points or classes.
    pub fn binary_targets(&self) -> Result<([i32; 2], Vec<f64>), Error> {
        let classes = self.classes();
        if self.len() < 2 {
            return Err(Error::TooFewPoints);
        }
        match classes.len() {
            0 | 1 => Err(Error::OneClass),
            2 => {
                let y = self
                    .labels
                    .iter()
                    .map(|&l| if l == classes[1] { 1.0 } else { -1.0 })
                    .collect();
                Ok(([classes[0], classes[1]], y))
            }
            found => Err(Error::TooManyClasses { found, max: 2 }),
        }
    }

    /// Index of the point nearest to `at` within `radius` (Euclidean), if any.
    pub fn nearest_within(&self, at: Point, radius: f64) -> Option<usize> {
        let mut best = None;
        let mut best_d2 = radius * radius;
        for (i, p) in self.points.iter().enumerate() {
            let d2 = (p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2);
            if d2 <= best_d2 {
                best_d2 = d2;
                best = Some(i);
            }
        }
        best
    }
}

/// Which points to hold out for testing: in each class, a seeded shuffle of its points and the
/// first round(`fraction` · n_c) of it (stratified, as scikit-learn's
/// `train_test_split(stratify=y)`), so every class keeps its share on both sides. The same
/// labels, fraction and seed always give the same split; `true` marks a test point.
pub fn stratified_split(labels: &[i32], fraction: f64, seed: u64) -> Vec<bool> {
    let mut test = vec![false; labels.len()];
    if fraction <= 0.0 {
        return test;
    }
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5EED_7E57);
    let mut classes = labels.to_vec();
    crate::core::sorting::sort(&mut classes);
    classes.dedup();
    for class in classes {
        let mut members: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        // Fisher–Yates, drawn from the seeded generator.
        for k in (1..members.len()).rev() {
            members.swap(k, rng.random_range(0..=k));
        }
        // Every class keeps a training point.
        let held = ((fraction * members.len() as f64).round() as usize)
            .min(members.len().saturating_sub(1));
        for &i in &members[..held.min(members.len())] {
            test[i] = true;
        }
    }
    test
}

fn check_finite(point: Point, what: &str) -> Result<(), Error> {
    if !point.iter().all(|v| v.is_finite()) {
        return Err(Error::NotFinite { what: what.into() });
    }
    if point.iter().any(|v| v.abs() > MAX_COORDINATE) {
        return Err(Error::Parameter(format!(
            "{what} lies outside ±{MAX_COORDINATE:e}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;

    #[test]
    fn classes_are_named_as_given_and_an_empty_scene_offers_two() {
        let named = |data: &Dataset| data.class_choices();
        let file = Dataset::from_csv("x,y,label\n0,0,-1\n1,1,+1\n").unwrap();
        assert_eq!(named(&file), [(-1, "-1".into()), (1, "+1".into())]);
        let file = Dataset::from_csv("x,y,label\n0,0,7\n1,1,3\n").unwrap();
        assert_eq!(named(&file), [(3, "3".into()), (7, "7".into())]);
        // A class added to a file's classes is named by its integer, as files write it.
        let mut more = file.clone();
        more.push([2.0, 2.0], 8).unwrap();
        assert_eq!(more.class_name(8), "8");
        assert_eq!(named(&more).len(), 3);
        // The lab's own classes, and the two an empty scene starts with.
        let own = Dataset::from_parts(vec![[0.0, 0.0], [1.0, 1.0]], vec![0, 2]);
        assert_eq!(named(&own), [(0, "class 1".into()), (2, "class 3".into())]);
        assert_eq!(
            named(&Dataset::new()),
            [(0, "class 1".into()), (1, "class 2".into())]
        );
        let one = Dataset::from_parts(vec![[0.0, 0.0]], vec![4]);
        assert_eq!(named(&one), [(4, "class 5".into()), (5, "class 6".into())]);
        let top = Dataset::from_parts(vec![[0.0, 0.0]], vec![i32::MAX]);
        assert_eq!(named(&top).len(), 1);
        // A file's one class present still offers the other class it named.
        let mut left = Dataset::from_csv("x,y,label\n0,0,-1\n1,1,+1\n").unwrap();
        left.remove(1).unwrap();
        assert_eq!(named(&left), [(-1, "-1".into()), (1, "+1".into())]);
    }

    #[test]
    fn splits_are_stratified_and_seeded() {
        let data = Preset::Blobs3.generate(90, 0.2, 1);
        let split = stratified_split(&data.labels, 0.3, 7);
        for class in 0..3 {
            let held = (0..90)
                .filter(|&i| data.labels[i] == class && split[i])
                .count();
            assert_eq!(held, 9, "class {class}: 30 % of 30");
        }
        assert_eq!(split, stratified_split(&data.labels, 0.3, 7));
        assert_ne!(split, stratified_split(&data.labels, 0.3, 8));
        assert!(stratified_split(&data.labels, 0.0, 7).iter().all(|t| !t));
    }

    #[test]
    fn classes_are_the_distinct_labels_in_order_however_many() {
        let few = Dataset::from_parts(vec![[0.0, 0.0]; 6], vec![3, -1, 3, 7, -1, 0]);
        assert_eq!(few.classes(), vec![-1, 0, 3, 7]);
        // Past the short list's 64 classes, all of them still, in order.
        let labels: Vec<i32> = (0..200).map(|i| (i * 37) % 101 - 50).collect();
        let many = Dataset::from_parts(vec![[0.0, 0.0]; 200], labels);
        assert_eq!(many.classes(), (-50..=50).collect::<Vec<_>>());
        // Labels on both sides of 0…63 and at the ends of the integers, and past 64 others.
        let edges = vec![64, i32::MAX, 63, 0, i32::MIN, -1, 64, 0];
        let edged = Dataset::from_parts(vec![[0.0, 0.0]; 8], edges);
        assert_eq!(edged.classes(), vec![i32::MIN, -1, 0, 63, 64, i32::MAX]);
        let wide: Vec<i32> = (0..400).map(|i| (i * 37) % 301 - 100).collect();
        let wide = Dataset::from_parts(vec![[0.0, 0.0]; 400], wide);
        assert_eq!(wide.classes(), (-100..=200).collect::<Vec<_>>());
        assert!(Dataset::new().classes().is_empty());
    }

    #[test]
    fn binary_targets_follow_scikit_learn() {
        let mut data = Dataset::new();
        data.push([0.0, 0.0], 3).unwrap();
        assert_eq!(data.binary_targets().unwrap_err(), Error::TooFewPoints);
        data.push([1.0, 0.0], 3).unwrap();
        assert_eq!(data.binary_targets().unwrap_err(), Error::OneClass);
        data.push([1.0, 1.0], -2).unwrap();
        let (classes, y) = data.binary_targets().unwrap();
        assert_eq!(classes, [-2, 3]);
        assert_eq!(y, vec![1.0, 1.0, -1.0]);
    }

    #[test]
    fn rejects_non_finite_points() {
        let mut data = Dataset::new();
        assert!(data.push([f64::NAN, 0.0], 0).is_err());
        assert!(data.is_empty());
    }
}
