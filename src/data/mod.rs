//! Training points and their labels: the dataset a scene is made of, reading and writing it as
//! CSV (`x,y,label`), and the seeded presets a lecture starts from. Files as people have them
//! (other delimiters, more columns, encodings, labels that are texts) are split into rows by
//! [`crate::table`], whose rules they follow; [`Dataset::read`] reads a file's bytes so.
//!
//! Labels are small integers, each class keeping the text it was written as
//! ([`crate::labels`]). For a two-class problem the larger label is the positive class,
//! y = +1, and the smaller one y = −1 (scikit-learn's convention), so numbers printed here can be
//! compared with `SVC.decision_function` directly.
//!
//! Coordinates are kept exactly as given, as f64, in any units. A point read from a file or a
//! link also keeps the text it was written as (until it is moved), so writing the data back
//! reproduces that text; other points are written in the shortest form that reads back as the
//! same f64 (Rust's `Display`), so a write–read round trip is exact either way. The presets
//! place their points on a grid of 10⁻⁴ ([`on_preset_grid`]) only to keep their links short.

use crate::error::Error;
use crate::labels::{self, LabelTexts};
use crate::table::{self, ColumnRef, Table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub mod files;
pub mod targets;

/// A point of the input plane, (x₁, x₂).
pub type Point = [f64; 2];

/// Rounds a generated coordinate to the 10⁻⁴ grid the presets' points live on (their shared
/// links then need at most four decimals a coordinate). Data a person gives is never rounded.
pub fn on_preset_grid(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

/// The text a coordinate pair was written as, where it came from a file or a link.
pub type Written = [Box<str>; 2];

/// `n` points uniform in [−1, 1]² with labels 0 and 1 drawn at random: data with nothing to
/// learn, which a flexible classifier memorises with nearly every point a support vector (the
/// field's hardest scene).
pub fn random_labels(n: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut data = Dataset::new();
    for _ in 0..n {
        let p = [
            on_preset_grid(rng.random_range(-1.0..=1.0)),
            on_preset_grid(rng.random_range(-1.0..=1.0)),
        ];
        let label = rng.random_range(0..2);
        data.points.push(p);
        data.labels.push(label);
    }
    data
}

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
        // One pass with a short sorted list: a scene has a few classes and may have millions
        // of points, and this is asked for every frame. Past 64 classes, sort once instead.
        let mut classes: Vec<i32> = Vec::new();
        for &label in &self.labels {
            if let Err(at) = classes.binary_search(&label) {
                if classes.len() == 64 {
                    let mut all = self.labels.clone();
                    crate::sorting::sort(&mut all);
                    all.dedup();
                    return all;
                }
                classes.insert(at, label);
            }
        }
        classes
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

    /// Reads a file of points, CSV in any dialect of [`crate::table`] or LIBSVM's format, from
    /// its bytes, with the columns `columns` (the defaults when `None`). Errors name the
    /// 1-based line where there is one.
    pub fn read(bytes: &[u8], columns: Option<&[ColumnRef]>) -> Result<Dataset, Error> {
        Dataset::read_against(bytes, columns, &LabelTexts::new())
    }

    /// [`Dataset::read`] for held-out points: labels that are texts take the classes they
    /// have in `known`, the training data's [`Dataset::label_texts`].
    pub fn read_against(
        bytes: &[u8],
        columns: Option<&[ColumnRef]>,
        known: &LabelTexts,
    ) -> Result<Dataset, Error> {
        let text = table::decode(bytes)?;
        if is_libsvm(&text) {
            Dataset::from_libsvm(&text)
        } else {
            Dataset::from_table(&text, columns, known)
        }
    }

    /// Reads CSV text in any dialect of [`crate::table`], with the default columns.
    pub fn from_csv(text: &str) -> Result<Dataset, Error> {
        Dataset::from_table(text, None, &LabelTexts::new())
    }

    fn from_table(
        text: &str,
        columns: Option<&[ColumnRef]>,
        known: &LabelTexts,
    ) -> Result<Dataset, Error> {
        let table = Table::read(text)?;
        let layout = table.layout(columns, true)?;
        let rows = table.data_rows(&layout)?;
        let label = layout.label.expect("a label column");
        // Row by row, so the error named is the first bad row's.
        let mut points = Vec::with_capacity(rows.len());
        for row in rows {
            table.check_width(row, &layout, false)?;
            points.push(row_point(row, layout.x, layout.y)?);
            if let Some(message) = labels::problem(&row.fields[label], known) {
                return Err(Error::Csv {
                    line: row.line,
                    message,
                });
            }
        }
        let texts: Vec<(usize, &str)> = rows
            .iter()
            .map(|r| (r.line, r.fields[label].as_str()))
            .collect();
        let (classes, label_texts) = labels::code(&texts, known)?;
        let mut data = Dataset {
            label_texts,
            ..Dataset::default()
        };
        for ((point, written), class) in points.into_iter().zip(classes) {
            data.push_written(point, class, Some(written))?;
        }
        Ok(data)
    }

    /// Reads LIBSVM's (svmlight's) sparse format, `label 1:x₁ 2:x₂` a line: features by
    /// index, a missing one 0 (as LIBSVM reads it), a `#` starting a comment. Only features 1
    /// and 2 exist in the plane; labels are integers (`+1`, `-1`, `3`, or `1.0`). Errors name
    /// the 1-based line.
    pub fn from_libsvm(text: &str) -> Result<Dataset, Error> {
        let mut data = Dataset::new();
        for row in libsvm_lines(text, 2, "the plane has only features 1 and 2")? {
            let csv_error = |message: String| Error::Csv {
                line: row.line,
                message,
            };
            let label = labels::integer(row.first)
                .ok_or_else(|| csv_error(format!("label '{}' is not an integer", row.first)))?;
            data.label_texts
                .entry(label)
                .or_insert_with(|| row.first.into());
            let [x, y] = row.features.map(|f| f.unwrap_or("0"));
            let point = [
                parse_coordinate("x", x).map_err(csv_error)?,
                parse_coordinate("y", y).map_err(csv_error)?,
            ];
            data.push_written(point, label, Some([x.into(), y.into()]))
                .map_err(|e| csv_error(e.to_string()))?;
        }
        Ok(data)
    }

    /// Writes LIBSVM's format, `label 1:x 2:y` a line (zeros written too, so every line has
    /// both features).
    pub fn to_libsvm(&self) -> String {
        let mut out = String::new();
        for (i, &l) in self.labels.iter().enumerate() {
            let (x, y) = (self.coordinate_text(i, 0), self.coordinate_text(i, 1));
            // LIBSVM's labels are numbers: a class named by a text is written as its integer.
            let text = self.label_text(l);
            let label = match labels::integer(&text) {
                Some(_) => text,
                None => std::borrow::Cow::Owned(l.to_string()),
            };
            out.push_str(&format!("{label} 1:{x} 2:{y}\n"));
        }
        out
    }

    /// Points in either format a person may bring: LIBSVM's `label 1:x 2:y` when the first
    /// line with content has a `:` in it, else CSV.
    pub fn from_text(text: &str) -> Result<Dataset, Error> {
        if is_libsvm(text) {
            Dataset::from_libsvm(text)
        } else {
            Dataset::from_csv(text)
        }
    }

    /// Writes `x,y,label` rows with a header, each label as its class is written
    /// ([`Dataset::label_text`], quoted when it must be).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("x,y,label\n");
        for (i, &l) in self.labels.iter().enumerate() {
            let (x, y) = (self.coordinate_text(i, 0), self.coordinate_text(i, 1));
            let label = self.label_text(l);
            out.push_str(&format!("{x},{y},{}\n", labels::csv_field(&label)));
        }
        out
    }
}

/// Whether text is in LIBSVM's format: the first line with content has no comma and is a
/// label followed by `index:value` tokens (at least one).
pub fn is_libsvm(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut features = first.split_whitespace().skip(1).peekable();
    !first.contains(',') && features.peek().is_some() && features.all(|t| t.contains(':'))
}

/// A content line of LIBSVM's format: its 1-based number, its first token (a label, or a
/// regression's target) and the text of each feature (`None`: left out, which LIBSVM reads as
/// 0).
pub(crate) struct LibsvmLine<'a> {
    pub line: usize,
    pub first: &'a str,
    pub features: [Option<&'a str>; 2],
}

/// The content lines of LIBSVM's text (blank lines and `#` comments left out), each with at
/// most `features` features, numbered from 1; a feature beyond them is an error that ends with
/// `beyond`. Every error names its line, and a text with no content line is one.
pub(crate) fn libsvm_lines<'a>(
    text: &'a str,
    features: usize,
    beyond: &str,
) -> Result<Vec<LibsvmLine<'a>>, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let csv_error = |message: String| Error::Csv { line, message };
        let row = raw.split('#').next().unwrap_or("").trim();
        let mut tokens = row.split_whitespace();
        let Some(first) = tokens.next() else {
            continue;
        };
        let mut read = LibsvmLine {
            line,
            first,
            features: [None; 2],
        };
        for token in tokens {
            let (feature, value) = token
                .split_once(':')
                .ok_or_else(|| csv_error(format!("'{token}' is not index:value")))?;
            let slot = match feature.parse::<usize>() {
                Ok(k) if (1..=features).contains(&k) => &mut read.features[k - 1],
                _ => return Err(csv_error(format!("feature '{feature}': {beyond}"))),
            };
            if slot.replace(value).is_some() {
                return Err(csv_error(format!("feature {feature} given twice")));
            }
        }
        rows.push(read);
    }
    if rows.is_empty() {
        return Err(Error::Csv {
            line: text.lines().count().max(1),
            message: "no data rows".into(),
        });
    }
    Ok(rows)
}

/// The point of a data row and the text of its coordinates, or the row's error.
fn row_point(row: &table::Row, x: usize, y: usize) -> Result<(Point, Written), Error> {
    let csv_error = |message: String| Error::Csv {
        line: row.line,
        message,
    };
    let (tx, ty) = (row.fields[x].as_str(), row.fields[y].as_str());
    let point = [
        parse_coordinate("x", tx).map_err(csv_error)?,
        parse_coordinate("y", ty).map_err(csv_error)?,
    ];
    Ok((point, [tx.into(), ty.into()]))
}

impl Dataset {
    /// Query points from a file's bytes: the x and y columns of `columns` (the defaults when
    /// `None`); a label column is not needed, and one named in `columns` is not read.
    pub fn read_points(bytes: &[u8], columns: Option<&[ColumnRef]>) -> Result<Vec<Point>, Error> {
        let text = table::decode(bytes)?;
        let rows = points_from_table(&text, columns.map(|c| &c[..c.len().min(2)]))?;
        Ok(rows.into_iter().map(|(point, _)| point).collect())
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
    crate::sorting::sort(&mut classes);
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

/// Query points for the CLI: rows `x,y` or `x,y,label` (a label is ignored), in any dialect
/// of [`crate::table`].
pub fn points_from_csv(text: &str) -> Result<Vec<Point>, Error> {
    Ok(points_from_table(text, None)?
        .into_iter()
        .map(|(point, _)| point)
        .collect())
}

fn points_from_table(
    text: &str,
    columns: Option<&[ColumnRef]>,
) -> Result<Vec<(Point, Written)>, Error> {
    let table = Table::read(text)?;
    let layout = table.layout(columns, false)?;
    table
        .data_rows(&layout)?
        .iter()
        .map(|row| {
            table.check_width(row, &layout, true)?;
            row_point(row, layout.x, layout.y)
        })
        .collect()
}

/// A coordinate as a file gives it: a finite number within ±[`MAX_COORDINATE`], or what is
/// wrong with it.
fn parse_coordinate(name: &str, s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{name} '{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("{name} '{s}' is not a finite number"));
    }
    if v.abs() > MAX_COORDINATE {
        return Err(format!("{name} '{s}' lies outside ±{MAX_COORDINATE:e}"));
    }
    Ok(v)
}

/// The largest coordinate accepted: data in any units a person measures (10⁻⁶ to 10⁹ and
/// beyond) fits, and squared distances (≤ 10³⁰) and polynomial kernels of the slider's degrees
/// at unit γ stay finite.
pub const MAX_COORDINATE: f64 = 1e15;

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

/// The seeded point sets a lecture starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Two well-separated Gaussian blobs: linearly separable at low noise.
    Separable,
    /// Two Gaussian blobs that overlap: the soft margin's home ground.
    Overlapping,
    /// Four quadrant clusters, diagonal ones alike: no line separates them.
    Xor,
    /// A disc inside a ring: separable by a circle, i.e. a plane in (x₁², x₂², √2x₁x₂).
    Rings,
    /// Two interleaved half circles.
    Moons,
    /// Three Gaussian blobs at the corners of a triangle (three classes).
    Blobs3,
    /// Three interleaved spiral arms (three classes).
    Spiral3,
    /// Two separable blobs, class 0 left and class 1 right of x₁ = 0, stretched along the
    /// boundary, and a few class-1 points far out on their own side, around [`FAR_POINT`]: the
    /// maximum-margin line classifies them correctly and does not move for them, but they drag
    /// a least-squares line across the blobs. The far points are the last
    /// [`Preset::far_points`] of class 1.
    Outlier,
    /// Regression ([`targets`]): t = 0.6 sin(3x) + noise.
    Sine,
    /// Regression: t = 0.5x + noise, a few points far above the line.
    LineWithOutliers,
    /// Regression: a jump from −0.4 to 0.4 at x = 0.
    Step,
    /// Regression: a line with noise growing from left to right.
    Heteroscedastic,
    /// Novelty detection: one Gaussian blob, and a tenth of the points scattered over the square.
    Blob,
}

/// Where the far points of [`Preset::Outlier`] sit: on class 1's side, but well off the line
/// through the blob centres, so squared loss tilts the boundary instead of only shifting it.
pub const FAR_POINT: Point = [3.0, 2.5];

impl Preset {
    pub const ALL: [Preset; 13] = [
        Preset::Separable,
        Preset::Overlapping,
        Preset::Xor,
        Preset::Rings,
        Preset::Moons,
        Preset::Blobs3,
        Preset::Spiral3,
        Preset::Outlier,
        Preset::Sine,
        Preset::LineWithOutliers,
        Preset::Step,
        Preset::Heteroscedastic,
        Preset::Blob,
    ];

    /// The short name used in the URL, the CLI and the preset menu.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Separable => "separable",
            Preset::Overlapping => "overlapping",
            Preset::Xor => "xor",
            Preset::Rings => "rings",
            Preset::Moons => "moons",
            Preset::Blobs3 => "blobs3",
            Preset::Spiral3 => "spiral3",
            Preset::Outlier => "outlier",
            Preset::Sine => "sine",
            Preset::LineWithOutliers => "line_outliers",
            Preset::Step => "step",
            Preset::Heteroscedastic => "heteroscedastic",
            Preset::Blob => "blob",
        }
    }

    /// The regression shape of a regression preset.
    pub fn shape(self) -> Option<targets::Shape> {
        match self {
            Preset::Sine => Some(targets::Shape::Sine),
            Preset::LineWithOutliers => Some(targets::Shape::LineWithOutliers),
            Preset::Step => Some(targets::Shape::Step),
            Preset::Heteroscedastic => Some(targets::Shape::Heteroscedastic),
            _ => None,
        }
    }

    /// The task the preset's points are for.
    pub fn task(self) -> crate::task::Task {
        match self.shape() {
            Some(_) => crate::task::Task::Regression,
            None if self == Preset::Blob => crate::task::Task::Novelty,
            None => crate::task::Task::Classification,
        }
    }

    /// How many classes the preset makes.
    pub fn classes(self) -> usize {
        match self {
            Preset::Blobs3 | Preset::Spiral3 => 3,
            p if p.shape().is_some() || p == Preset::Blob => 1,
            _ => 2,
        }
    }

    pub fn from_name(name: &str) -> Result<Preset, Error> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| Error::Parameter(format!("unknown preset '{name}'")))
    }

    /// The settings a preset brings when it is chosen, where they differ from the table's
    /// defaults, so that at them the scene shows what the preset is for: the two moons with
    /// noise enough to overfit and 30 % of the points held out, so the test accuracy falls
    /// as γ grows past its best (by 16 points from γ ≈ 10 to γ = 300 at seed 1); the
    /// separable blobs with C = 10, where no multiplier reaches C and the support vectors are
    /// the few on the margin (at C = 1 six of them are bound, with the linear kernel). A link
    /// keeps every value it names; only choosing a preset (the settings' `choose_preset`)
    /// brings these.
    pub fn lesson(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Preset::Moons => &[("noise", "0.4"), ("test", "0.3")],
            Preset::Separable => &[("C", "10")],
            // A tenth of the blob's points are strays: ν = 0.1 leaves about them outside.
            Preset::Blob => &[("nu", "0.1")],
            _ => &[],
        }
    }

    /// How many of `n` points [`Preset::generate`] places far out (class 1, the last ones of
    /// that class): 6 % of n but at least 3, while class 1 keeps at least one point in its
    /// blob. Zero for every preset but [`Preset::Outlier`].
    pub fn far_points(self, n: usize) -> usize {
        match self {
            Preset::Outlier => ((6 * n + 50) / 100).max(3).min((n / 2).saturating_sub(1)),
            _ => 0,
        }
    }

    /// `n` points (the classes take turns, labels 0, 1, …) with Gaussian jitter of standard
    /// deviation `0.25 · noise`; the same arguments always give the same points.
    pub fn generate(self, n: usize, noise: f64, seed: u64) -> Dataset {
        let mut rng = StdRng::seed_from_u64(seed ^ (self as u64).wrapping_mul(0x9E37_79B9));
        let jitter = 0.25 * noise.max(0.0);
        // Among the last 2·far indices the classes alternate, so exactly `far` are class 1.
        let far_from = n - 2 * self.far_points(n);
        let mut data = Dataset::new();
        if let Some(shape) = self.shape() {
            for i in 0..n {
                let p = targets::sample(shape, i, n, noise, &mut rng);
                data.push([on_preset_grid(p[0]), on_preset_grid(p[1])], 0)
                    .expect("generated points are finite");
            }
            return data;
        }
        for i in 0..n {
            let label = (i % self.classes()) as i32;
            let base = if label == 1 && i >= far_from {
                [
                    FAR_POINT[0] + 0.15 * gaussian(&mut rng),
                    FAR_POINT[1] + 0.15 * gaussian(&mut rng),
                ]
            } else {
                self.sample(label, &mut rng)
            };
            let p = [
                base[0] + jitter * gaussian(&mut rng),
                base[1] + jitter * gaussian(&mut rng),
            ];
            data.push([on_preset_grid(p[0]), on_preset_grid(p[1])], label)
                .expect("generated points are finite");
        }
        data
    }

    fn sample(self, label: i32, rng: &mut StdRng) -> Point {
        let sign = if label == 1 { 1.0 } else { -1.0 };
        match self {
            Preset::Separable => [
                sign * 0.45 + 0.12 * gaussian(rng),
                sign * 0.35 + 0.12 * gaussian(rng),
            ],
            Preset::Overlapping => [
                sign * 0.25 + 0.25 * gaussian(rng),
                sign * 0.2 + 0.25 * gaussian(rng),
            ],
            Preset::Xor => {
                // One diagonal pair of quadrants per class, kept 0.1 away from the axes.
                let a: f64 = rng.random_range(0.1..0.9);
                let b: f64 = rng.random_range(0.1..0.9);
                let flip = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                [flip * a, flip * sign * b]
            }
            Preset::Rings => {
                let angle = rng.random_range(0.0..std::f64::consts::TAU);
                let radius = if label == 1 {
                    0.4 * rng.random::<f64>().sqrt()
                } else {
                    rng.random_range(0.62..0.9)
                };
                [radius * angle.cos(), radius * angle.sin()]
            }
            Preset::Moons => {
                let t = rng.random_range(0.0..std::f64::consts::PI);
                let (x, y) = if label == 1 {
                    (t.cos(), t.sin())
                } else {
                    (1.0 - t.cos(), 0.5 - t.sin())
                };
                [0.55 * (x - 0.5), 0.55 * (y - 0.25)]
            }
            Preset::Blobs3 => {
                let angle =
                    std::f64::consts::FRAC_PI_2 + label as f64 * std::f64::consts::TAU / 3.0;
                [
                    0.5 * angle.cos() + 0.17 * gaussian(rng),
                    0.5 * angle.sin() + 0.17 * gaussian(rng),
                ]
            }
            Preset::Spiral3 => {
                // Arm c: radius r ∈ (0.08, 0.9], angle growing with r, turned by c·120°.
                let r: f64 = rng.random_range(0.08..0.9);
                let angle = 3.2 * r + label as f64 * std::f64::consts::TAU / 3.0;
                [r * angle.cos(), r * angle.sin()]
            }
            // Stretched along the boundary: the blob ends are where a tilted line cuts in.
            Preset::Outlier => [sign * 0.4 + 0.08 * gaussian(rng), 0.3 * gaussian(rng)],
            Preset::Blob if rng.random_bool(0.1) => {
                [rng.random_range(-0.95..0.95), rng.random_range(-0.95..0.95)]
            }
            Preset::Blob => [0.3 * gaussian(rng), 0.3 * gaussian(rng)],
            // Generated by `targets::sample` instead.
            Preset::Sine | Preset::LineWithOutliers | Preset::Step | Preset::Heteroscedastic => {
                [0.0, 0.0]
            }
        }
    }
}

/// A standard normal draw (Box–Muller), so presets need nothing beyond `rand`.
pub fn gaussian(rng: &mut StdRng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(Dataset::new().classes().is_empty());
    }

    #[test]
    fn csv_round_trip_with_header() {
        let data = Dataset::from_csv("x,y,label\n0.5,-0.25,1\n\n# note\n1,2,0\n").unwrap();
        assert_eq!(data.points, vec![[0.5, -0.25], [1.0, 2.0]]);
        assert_eq!(data.labels, vec![1, 0]);
        assert_eq!(Dataset::from_csv(&data.to_csv()).unwrap(), data);
    }

    #[test]
    fn csv_errors_name_the_line() {
        let err = Dataset::from_csv("0,0,1\n1,oops,0\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: y 'oops' is not a number");
        let err = Dataset::from_csv("0,0,1\n1,NaN,0\n").unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
        let err = Dataset::from_csv("x,y,label\n0,0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected 3 fields (as line 1) but found 2"
        );
        assert_eq!(
            points_from_csv("x,y\n1,2\n3,4,0\n").unwrap(),
            vec![[1.0, 2.0], [3.0, 4.0]]
        );
        assert!(points_from_csv("1\n")
            .unwrap_err()
            .to_string()
            .starts_with("line 1: one column only"));
        assert_eq!(
            Dataset::from_csv("\u{feff}0.5,1,0\n2,3,1\n").unwrap().len(),
            2
        );
        // The first bad row is the one named, whatever is wrong with later ones.
        let err = Dataset::from_csv("0,0,1\n1,x,0\n2,\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: y 'x' is not a number");
        let err = Dataset::from_csv("0,0,1\n1,2\n2,x,0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected 3 fields (as line 1) but found 2"
        );
        let err = Dataset::from_csv("0,0,1\n1e305,0,0\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: x '1e305' lies outside ±1e15");
        // A label that is not an integer is a text: its class is its rank.
        let data = Dataset::from_csv("0,0,1.5\n1,1,0.5\n").unwrap();
        assert_eq!(data.labels, [1, 0]);
        assert_eq!(data.to_csv(), "x,y,label\n0,0,1.5\n1,1,0.5\n");
        assert!(Dataset::from_csv("x,y,label\n").is_err());
    }

    #[test]
    fn libsvm_format_reads_and_writes() {
        let text = "+1 1:0.5 2:-0.25\n-1 2:3 # only x2\n\n# a comment\n3 1:1e-3\n";
        let data = Dataset::from_libsvm(text).unwrap();
        assert_eq!(data.points, vec![[0.5, -0.25], [0.0, 3.0], [1e-3, 0.0]]);
        assert_eq!(data.labels, vec![1, -1, 3]);
        // Labels keep their text (`+1`); a missing feature is written 0.
        assert_eq!(
            data.to_libsvm(),
            "+1 1:0.5 2:-0.25\n-1 1:0 2:3\n3 1:1e-3 2:0\n"
        );
        assert_eq!(Dataset::from_libsvm(&data.to_libsvm()).unwrap(), data);
        assert_eq!(Dataset::from_text(text).unwrap(), data);
        assert_eq!(Dataset::from_text("x,y,label\n1,2,0\n").unwrap().len(), 1);
        // A `:` in a header or a label does not make a file LIBSVM's.
        let semicolons = Dataset::from_text("time:s;x;y;label\n1;2;3;a:b\n").unwrap();
        assert_eq!(semicolons.points, [[1.0, 2.0]]);
        assert_eq!(semicolons.to_csv(), "x,y,label\n1,2,a:b\n");
        assert_eq!(
            Dataset::from_libsvm("1.0 1:1 2:2\n").unwrap().labels,
            vec![1]
        );
        let bad = [
            (
                "1 1:1 3:2\n",
                "line 1: feature '3': the plane has only features 1 and 2",
            ),
            ("1 1:1\nx 1:2\n", "line 2: label 'x' is not an integer"),
            ("1 1:1\n0 1:nan\n", "line 2: x 'nan' is not a finite number"),
            ("1 1:1 1:2\n", "line 1: feature 1 given twice"),
            ("1 1=2\n", "line 1: '1=2' is not index:value"),
            ("0.5 1:1\n", "line 1: label '0.5' is not an integer"),
            ("# nothing\n", "line 1: no data rows"),
        ];
        for (text, message) in bad {
            assert_eq!(Dataset::from_libsvm(text).unwrap_err().to_string(), message);
        }
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
    fn presets_are_seeded_and_balanced() {
        for preset in Preset::ALL {
            let a = preset.generate(101, 0.3, 7);
            assert_eq!(a, preset.generate(101, 0.3, 7));
            assert_ne!(a, preset.generate(101, 0.3, 8));
            assert_eq!(a.len(), 101);
            let per_class = 101 / preset.classes();
            let last = preset.classes() as i32 - 1;
            assert!(a.labels.iter().filter(|&&l| l == last).count() >= per_class);
            assert_eq!(a.classes().len(), preset.classes());
            assert_eq!(Preset::from_name(preset.name()).unwrap(), preset);
            for p in &a.points {
                assert_eq!(p[0], on_preset_grid(p[0]));
            }
        }
        assert!(Preset::from_name("spiral").is_err());
    }

    #[test]
    fn rejects_non_finite_points() {
        let mut data = Dataset::new();
        assert!(data.push([f64::NAN, 0.0], 0).is_err());
        assert!(data.is_empty());
    }
}
