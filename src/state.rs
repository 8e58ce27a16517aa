//! One scene's settings — the method, one value per row of the parameter table, the open views
//! — and their round trip through the URL hash, so any scene can be bookmarked or shared, and
//! reloading restores it exactly.
//!
//! The hash reads `#model=svm&kernel=rbf&C=1&…&views=loss` and, once points have been added,
//! moved or loaded, `&points=x,y,label;x,y,label;…`, each coordinate as it was written or in
//! the shortest text that reads back as the same f64 (see [`Dataset::coordinate_text`]), so a
//! link restores every point bit for bit. Clicks snap to the view's pixel grid and presets lie
//! on a 10⁻⁴ grid, which keeps their links short. An untouched preset
//! is stored by its name, size, noise and seed alone, which regenerate the same points.
//! Classes a file wrote other than as their integers (`setosa`, `1.0`) follow the points as
//! `&names=0:setosa;1:versicolor` ([`crate::labels::to_link`]); a link without it reads as
//! before.

use crate::data::{stratified_split, Dataset, Preset};
use crate::error::Error;
use crate::field::View;
use crate::model::Method;
use crate::params::{param, Effect, Kind, Values, PARAMS};
use crate::plane::Layers;
use crate::registry;
use crate::task::Task;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Points a link carries, and which of them are held out for testing.
pub type LinkedPoints = (Dataset, Vec<bool>);

/// One scene's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The method's id in the registry.
    pub model: String,
    /// One checked value per row of [`PARAMS`].
    pub values: Values,
    /// The views open beside the plane, by id.
    pub views: Vec<String>,
    /// An iteration cap for solvers that have one (not in the URL: the page keeps its
    /// interactive caps, the command line LIBSVM's 10⁷).
    pub max_iter: Option<usize>,
    /// The plotted window as zoomed and panned (`window=x_min,x_max,y_min,y_max` in the
    /// URL, written only when set); `None` fits the window to the points.
    pub window: Option<View>,
    /// The method whose learning curves are drawn beside the lab's own (its id; in the URL
    /// as `learn_vs`, written only when set, like the window).
    pub learn_vs: Option<String>,
    /// What the points ask ([`Task`]; in the URL as `task`, written only when it is not
    /// classification, so older links read as they did).
    pub task: Task,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            model: registry::METHODS[0].id().to_string(),
            values: Values::default(),
            views: Vec::new(),
            max_iter: None,
            window: None,
            learn_vs: None,
            task: Task::Classification,
        }
    }
}

impl Settings {
    /// The keys, in URL order: the method, the table's rows, the open views, and the format
    /// version.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        std::iter::once("model")
            .chain(PARAMS.iter().map(|p| p.key))
            .chain(["views", "v"])
    }

    /// Whether `key` is a setting: one of [`Settings::keys`] or `window`, the optional
    /// zoomed window (written only when set, so links of fitted windows stay as they were).
    pub fn is_key(key: &str) -> bool {
        Self::optional_keys().contains(&key) || Self::keys().any(|k| k == key)
    }

    /// The keys written only when set: the zoomed window and the learning curves' second
    /// method.
    pub fn optional_keys() -> [&'static str; 3] {
        [WINDOW_KEY, LEARN_VS_KEY, TASK_KEY]
    }

    /// Whether optional key `key` is set.
    fn is_set(&self, key: &str) -> bool {
        match key {
            WINDOW_KEY => self.window.is_some(),
            LEARN_VS_KEY => self.learn_vs.is_some(),
            TASK_KEY => self.task != Task::Classification,
            _ => false,
        }
    }

    /// The method these settings choose.
    pub fn method(&self) -> &'static dyn Method {
        registry::method_in(self.task, &self.model).expect("the model was checked when it was set")
    }

    /// The layers switched on.
    pub fn layers(&self) -> Layers {
        Layers::from_values(&self.values)
    }

    /// The preset, the number of points, the noise and the seed.
    pub fn preset(&self) -> (Preset, usize, f64, u64) {
        let preset =
            Preset::from_name(self.values.choice("preset")).expect("the table lists the presets");
        (
            preset,
            self.values.whole("n") as usize,
            self.values.real("noise"),
            self.values.whole("seed"),
        )
    }

    /// Which of `data`'s points the test fraction and the seed hold out.
    pub fn split(&self, data: &Dataset) -> Vec<bool> {
        stratified_split(
            &data.labels,
            self.values.real("test"),
            self.values.whole("seed"),
        )
    }

    /// The points the preset makes.
    pub fn generate(&self) -> Dataset {
        let (preset, n, noise, seed) = self.preset();
        preset.generate(n, noise, seed)
    }

    /// The settings the page opens with, without a link: the defaults, with the default
    /// preset's lesson ([`Preset::lesson`]).
    pub fn opening() -> Settings {
        let mut settings = Settings::default();
        let (preset, ..) = settings.preset();
        for (key, value) in preset.lesson() {
            settings
                .values
                .set(key, value)
                .expect("a preset's lesson is in range");
        }
        settings
    }

    /// Chooses a preset as the menu does: besides the preset, every setting some preset's
    /// lesson names ([`Preset::lesson`]) that is still at the old preset's value (its lesson's,
    /// else the table's default) moves to the new preset's; one the student changed stays.
    /// Returns what the lab must redo (at least regenerate the points).
    pub fn choose_preset(&mut self, name: &str) -> Result<Effect, Error> {
        let new = Preset::from_name(name.trim())?;
        let (old, ..) = self.preset();
        let value_in = |preset: Preset, key: &str| -> String {
            let text = preset.lesson().iter().find(|(k, _)| *k == key).map_or_else(
                || crate::params::param(key).map_or("", |p| p.default),
                |(_, v)| v,
            );
            // As the table writes it, to compare with the current value's text.
            let mut probe = self.values.clone();
            probe.set(key, text).map_or_else(
                |_| text.to_string(),
                |_| probe.text(key).unwrap_or_default(),
            )
        };
        let mut keys: Vec<&str> = Preset::ALL
            .iter()
            .flat_map(|p| p.lesson().iter().map(|(k, _)| *k))
            .collect();
        crate::sorting::sort(&mut keys);
        keys.dedup();
        let moves: Vec<(&str, String)> = keys
            .into_iter()
            .filter(|key| self.values.text(key) == Some(value_in(old, key)))
            .map(|key| (key, value_in(new, key)))
            .collect();
        let effect = self.values.set("preset", new.name())?;
        for (key, value) in moves {
            self.values.set(key, &value)?;
        }
        Ok(effect)
    }

    /// The value of `key` as it is written in the URL.
    pub fn get(&self, key: &str) -> Option<String> {
        match key {
            "model" => Some(self.model.clone()),
            "views" => Some(self.views.join(",")),
            "v" => Some(LINK_VERSION.to_string()),
            WINDOW_KEY => Some(self.window.map_or_else(String::new, |w| {
                format!("{},{},{},{}", w.x_min, w.x_max, w.y_min, w.y_max)
            })),
            LEARN_VS_KEY => Some(self.learn_vs.clone().unwrap_or_else(|| "none".into())),
            TASK_KEY => Some(self.task.id().to_string()),
            _ => self.values.text(key),
        }
    }

    /// Sets `key` from its text, checking the range; on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<Effect, Error> {
        let value = value.trim();
        match key {
            "model" => {
                // A method of the current task, else of the task that has it (a link names
                // the task after the model).
                let method = registry::method_in(self.task, value).or_else(|e| {
                    registry::METHODS
                        .iter()
                        .find(|m| m.id() == value)
                        .copied()
                        .ok_or(e)
                })?;
                self.task = method.task();
                self.model = method.id().to_string();
                Ok(Effect::Refit)
            }
            TASK_KEY => {
                let task = Task::from_id(value)?;
                if registry::methods_of(task).next().is_none() {
                    return Err(Error::Parameter(format!(
                        "{} has no method in this version",
                        task.title()
                    )));
                }
                if task != self.task {
                    self.task = task;
                    // The same id in the new task (kernel ridge is in both), else its first.
                    let method = registry::method_in(task, &self.model)
                        .unwrap_or_else(|_| registry::methods_of(task).next().expect("a method"));
                    self.model = method.id().to_string();
                }
                Ok(Effect::Refit)
            }
            "views" => {
                let views: Vec<String> = value
                    .split(',')
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(String::from)
                    .collect();
                if let Some(bad) = views
                    .iter()
                    .find(|v| !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                {
                    return Err(Error::Parameter(format!("'{bad}' is not a view")));
                }
                self.views = views;
                Ok(Effect::Redraw)
            }
            "v" => Ok(Effect::Redraw),
            WINDOW_KEY => {
                self.window = read_window(value)?;
                Ok(Effect::Redraw)
            }
            LEARN_VS_KEY => {
                self.learn_vs = match value {
                    "" | "none" => None,
                    id => Some(registry::method(id)?.id().to_string()),
                };
                Ok(Effect::Redraw)
            }
            _ => self.values.set(key, value),
        }
    }

    /// The URL hash (without '#') for these settings and, if given, explicit points and which
    /// of them are held out (`x,y,label` for a training point, `x,y,label,t` for a test point).
    pub fn to_hash(&self, points: Option<(&Dataset, &[bool])>) -> String {
        // A typed expression (a kernel built by rule) only when it is not the default, so links
        // of named kernels stay as they were; its spaces escaped.
        let typed = |key: &str| param(key).is_some_and(|row| row.kind == Kind::Expression);
        let mut parts: Vec<String> = Self::keys()
            .filter(|k| !typed(k) || self.get(k).as_deref() != param(k).map(|row| row.default))
            .map(|k| {
                let value = self.get(k).unwrap_or_default();
                format!("{k}={}", value.replace('%', "%25").replace(' ', "%20"))
            })
            .collect();
        for key in Self::optional_keys().into_iter().filter(|k| self.is_set(k)) {
            parts.push(format!("{key}={}", self.get(key).unwrap_or_default()));
        }
        if let Some((data, test)) = points {
            let encoded: Vec<String> = (0..data.len()).map(|i| point_text(data, test, i)).collect();
            parts.push(format!("points={}", encoded.join(";")));
            let names = written_names(data);
            if !names.is_empty() {
                parts.push(format!("names={}", crate::labels::to_link(&names)));
            }
        }
        parts.join("&")
    }

    /// Reads a hash written by [`Settings::to_hash`] (a leading '#' is fine) whole, or refuses
    /// it: a link whose version is newer than [`LINK_VERSION`], or with any part that cannot
    /// be read (a bad value of a known key, damaged points), is a [`Refusal`] naming every
    /// such part, so nothing of it is half applied. A key this lab does not know (a later
    /// version's optional setting, say) is left out with a warning. `compare`, the right-hand
    /// side's settings when comparing, is read with the whole link (the `link` module) and is
    /// passed over here.
    pub fn from_hash(hash: &str) -> Result<(Settings, Option<LinkedPoints>, Vec<String>), Refusal> {
        // Each key decoded, its value as written (decoded where it is read).
        let parts: Vec<(String, &str)> = hash
            .trim_start_matches('#')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|part| {
                let (key, value) = part.split_once('=').unwrap_or((part, ""));
                (percent_decode(key), value)
            })
            .collect();
        let mut damaged = Vec::new();
        // The version first: a newer link is refused as such, whatever else it holds.
        for (_, raw) in parts.iter().filter(|(k, _)| *k == "v") {
            let version = percent_decode(raw);
            let version = version.trim();
            match version.parse::<u64>() {
                Ok(v) if v == LINK_VERSION => {}
                Ok(v) if v > LINK_VERSION => return Err(Refusal::Newer(v.to_string())),
                Err(_) if !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()) => {
                    return Err(Refusal::Newer(shown(version)))
                }
                _ => damaged.push((
                    "version v".to_string(),
                    format!("'{}' is not a version of the lab", shown(version)),
                )),
            }
        }
        // No link at all is the page's opening scene; a key a link leaves out takes the
        // table's default.
        let mut settings = if parts.is_empty() {
            Settings::opening()
        } else {
            Settings::default()
        };
        let mut warnings = Vec::new();
        let mut points: Option<LinkedPoints> = None;
        let mut names = None;
        for (key, raw) in &parts {
            match key.as_str() {
                "v" | "compare" => {}
                // Split before decoding: a class's text may hold an escaped ';'.
                "names" => match crate::labels::from_link(raw) {
                    Ok(texts) => names = Some(texts),
                    Err(e) => damaged.push(("class names".into(), e.to_string())),
                },
                "points" => match decode_points(&percent_decode(raw)) {
                    Ok(data) => points = Some(data),
                    Err(e) => damaged.push(("points".into(), e)),
                },
                _ if Self::is_key(key) => {
                    if let Err(e) = settings.set(key, &percent_decode(raw)) {
                        damaged.push((key.to_string(), e.to_string()));
                    }
                }
                _ => {
                    let hint = nearest_key(key).map(|k| format!(" (did you mean '{k}'?)"));
                    let hint = hint.unwrap_or_default();
                    warnings.push(format!(
                        "'{}' is not a setting this lab knows{hint}",
                        shown(key)
                    ))
                }
            }
        }
        if !damaged.is_empty() {
            return Err(Refusal::Damaged(damaged));
        }
        if let (Some((data, _)), Some(names)) = (points.as_mut(), names) {
            data.label_texts = names;
        }
        Ok((settings, points, warnings))
    }
}

/// The key a mistyped link key most likely meant (`view` for `views`, `gama` for `gamma`): the
/// one fewest single-character edits away, at most one (two for a key of five letters or more);
/// none for keys shorter than three letters, which are a letter from many others.
fn nearest_key(typed: &str) -> Option<&'static str> {
    let limit = 1 + usize::from(typed.len() >= 5);
    let mut best: Option<(usize, &'static str)> = None;
    let long = |key: &&str| key.len() >= 3;
    for key in Settings::keys()
        .chain(Settings::optional_keys())
        .filter(long)
    {
        if typed.len() < 3 {
            break;
        }
        let d = edits(typed.as_bytes(), key.as_bytes());
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, key));
        }
    }
    best.map(|(_, key)| key)
}

/// The fewest insertions, deletions and substitutions of a byte turning `a` into `b`
/// (Levenshtein's distance), ignoring the case of ASCII letters.
fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let same = ca.eq_ignore_ascii_case(cb);
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(!same));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Point `i` as a link writes it: `x,y,label`, or `x,y,label,t` for a test point.
pub fn point_text(data: &Dataset, test: &[bool], i: usize) -> String {
    let role = if test.get(i).copied().unwrap_or(false) {
        ",t"
    } else {
        ""
    };
    let (x, y) = (data.coordinate_text(i, 0), data.coordinate_text(i, 1));
    format!("{x},{y},{}{role}", data.labels[i])
}

/// The key of the zoomed window in a link.
pub const WINDOW_KEY: &str = "window";

/// The key of the learning curves' second method in a link.
pub const LEARN_VS_KEY: &str = "learn_vs";

/// The task's key in the URL (written only when it is not classification).
pub const TASK_KEY: &str = "task";

/// A window as a link writes it, `x_min,x_max,y_min,y_max`; empty for none (fit the points).
fn read_window(text: &str) -> Result<Option<View>, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let bad = || {
        Error::Parameter(format!(
            "window '{}' is not x_min,x_max,y_min,y_max",
            shown(text)
        ))
    };
    let v: Vec<f64> = text
        .split(',')
        .map(|part| part.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match v[..] {
        [x_min, x_max, y_min, y_max]
            if v.iter().all(|c| c.is_finite()) && x_min < x_max && y_min < y_max =>
        {
            Ok(Some(View {
                x_min,
                x_max,
                y_min,
                y_max,
            }))
        }
        _ => Err(bad()),
    }
}

/// The version of the link format this lab writes and reads (`v=1`).
pub const LINK_VERSION: u64 = 1;

/// Why a link was not opened.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// It says it is of a newer format version (as written) than [`LINK_VERSION`].
    Newer(String),
    /// These parts of it cannot be read: each as (what, why), e.g. ("C", "C <= 0").
    Damaged(Vec<(String, String)>),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Newer(v) => write!(
                f,
                "it is from a newer version of the lab (link version {v}; this lab reads version {LINK_VERSION})"
            ),
            Refusal::Damaged(parts) => {
                // The first few, so that the line stays a line whatever the link holds.
                const NAMED: usize = 3;
                let mut said: Vec<String> = parts
                    .iter()
                    .take(NAMED)
                    .map(|(what, why)| {
                        let plural = what.ends_with("points") || what.ends_with("names");
                        let verb = if plural { "are" } else { "is" };
                        format!("its {what} {verb} damaged: {}", shown(why))
                    })
                    .collect();
                match parts.len().saturating_sub(NAMED) {
                    0 => {}
                    1 => said.push("and 1 more damaged part".into()),
                    more => said.push(format!("and {more} more damaged parts")),
                }
                write!(f, "{}", said.join("; "))
            }
        }
    }
}

impl std::error::Error for Refusal {}

/// At most 120 characters of `text`, for a message that quotes it, its line breaks and other
/// control characters escaped (`\n`, `\u{2028}`) as every message's are, so it stays one line.
fn shown(text: &str) -> String {
    const MOST: usize = 120;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MOST - 1 && text.chars().nth(MOST).is_some() {
            out.push('…');
            break;
        }
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The texts of `data`'s classes that are written other than as their integers.
fn written_names(data: &Dataset) -> crate::labels::LabelTexts {
    data.label_texts
        .iter()
        .filter(|(class, text)| class.to_string() != ***text)
        .map(|(&class, text)| (class, text.clone()))
        .collect()
}

fn decode_points(text: &str) -> Result<LinkedPoints, String> {
    let mut data = Dataset::new();
    let mut test = Vec::new();
    for (i, row) in text.split(';').filter(|r| !r.is_empty()).enumerate() {
        let bad = || format!("point {} ('{}') is not x,y,label", i + 1, shown(row));
        let fields: Vec<&str> = row.split(',').collect();
        match fields.get(3) {
            None if fields.len() == 3 => test.push(false),
            Some(&"t") if fields.len() == 4 => test.push(true),
            _ => return Err(bad()),
        }
        let x: f64 = fields[0].parse().map_err(|_| bad())?;
        let y: f64 = fields[1].parse().map_err(|_| bad())?;
        let label: i32 = fields[2].parse().map_err(|_| bad())?;
        data.push_written([x, y], label, Some([fields[0].into(), fields[1].into()]))
            .map_err(|_| bad())?;
    }
    Ok((data, test))
}

/// What a scene file says its format is.
pub const SCENE_FORMAT: &str = "kernel-playground scene";

/// A scene file: every setting as the URL writes it, and the points with their roles.
#[derive(Serialize, Deserialize)]
struct SceneFile {
    format: String,
    version: u32,
    settings: BTreeMap<String, String>,
    points: Vec<ScenePoint>,
    /// The texts of classes written other than as their integers (`"0": "setosa"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    classes: BTreeMap<i32, String>,
}

#[derive(Serialize, Deserialize)]
struct ScenePoint {
    x: f64,
    y: f64,
    label: i32,
    /// Held out for testing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    test: bool,
}

impl Settings {
    /// The scene as a JSON file: these settings and the points (coordinates as JSON numbers,
    /// the shortest text that reads back as the same f64).
    pub fn to_scene_json(&self, data: &Dataset, test: &[bool]) -> String {
        let file = SceneFile {
            format: SCENE_FORMAT.into(),
            version: 1,
            settings: Self::keys()
                .filter(|&k| k != "v")
                .chain(Self::optional_keys().into_iter().filter(|k| self.is_set(k)))
                .map(|k| (k.to_string(), self.get(k).unwrap_or_default()))
                .collect(),
            points: (0..data.len())
                .map(|i| ScenePoint {
                    x: data.points[i][0],
                    y: data.points[i][1],
                    label: data.labels[i],
                    test: test.get(i).copied().unwrap_or(false),
                })
                .collect(),
            classes: written_names(data)
                .into_iter()
                .map(|(class, text)| (class, text.into()))
                .collect(),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
    }

    /// Reads a file written by [`Settings::to_scene_json`]. A file that is not one is an
    /// error; an unknown setting or a bad value is a warning (the setting keeps its default),
    /// as in a damaged link.
    pub fn from_scene_json(text: &str) -> Result<(Settings, LinkedPoints, Vec<String>), Error> {
        let file: SceneFile = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|e| Error::State(format!("not a scene file: {e}")))?;
        if file.format != SCENE_FORMAT {
            return Err(Error::State(format!(
                "format '{}' is not '{SCENE_FORMAT}'",
                file.format.chars().take(60).collect::<String>()
            )));
        }
        if file.version != 1 {
            return Err(Error::State(format!(
                "version {} is newer than this lab reads (1)",
                file.version
            )));
        }
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        // The method first: which rows matter follows from it.
        let ordered = Self::keys()
            .chain(Self::optional_keys())
            .filter(|k| file.settings.contains_key(*k));
        for key in ordered {
            if let Err(e) = settings.set(key, &file.settings[key]) {
                warnings.push(format!("{key}: {e}"));
            }
        }
        for key in file.settings.keys() {
            if !Self::is_key(key) {
                let shown: String = key.chars().take(40).collect();
                warnings.push(format!("unknown setting '{shown}' ignored"));
            }
        }
        let mut data = Dataset::new();
        let mut test = Vec::with_capacity(file.points.len());
        for (i, p) in file.points.iter().enumerate() {
            data.push([p.x, p.y], p.label)
                .map_err(|e| Error::State(format!("point {}: {e}", i + 1)))?;
            test.push(p.test);
        }
        for (class, text) in file.classes {
            if text.is_empty() || text.contains(char::is_control) {
                warnings.push(format!("class {class}: its name is empty or not one line"));
            } else {
                data.label_texts.insert(class, text.into());
            }
        }
        Ok((settings, (data, test), warnings))
    }
}

/// Undoes the escaping browsers apply to a hash (%2C for ',' and the like).
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_file_round_trips_exactly() {
        let mut s = Settings::default();
        s.set("kernel", "poly").unwrap();
        s.set("C", "31.6").unwrap();
        s.set("views", "loss").unwrap();
        let mut data = Dataset::new();
        data.push([0.1 + 0.2, -1e-7], 0).unwrap();
        data.push([123456.789, 2.0f64.sqrt()], 3).unwrap();
        let test = vec![false, true];
        let text = s.to_scene_json(&data, &test);
        let (back, (points, roles), warnings) = Settings::from_scene_json(&text).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, s);
        assert_eq!(points.points, data.points, "bit for bit");
        assert_eq!(points.labels, data.labels);
        assert_eq!(roles, test);
        assert_eq!(back.to_scene_json(&points, &roles), text);
    }

    #[test]
    fn class_texts_follow_the_points() {
        let data = Dataset::read(b"x;y;species\n1,5;2;Iris setosa\n3;4;v&r;s\n", None);
        assert!(data.is_err(), "a ';' in an unquoted label splits the row");
        let data =
            Dataset::read(b"x,y,species\n1.5,2,Iris setosa\n3,4,\"v&r;s#%\"\n", None).unwrap();
        let s = Settings::default();
        let hash = s.to_hash(Some((&data, &[false, false])));
        assert!(
            hash.ends_with("&points=1.5,2,0;3,4,1&names=0:Iris%20setosa;1:v%26r%3Bs%23%25"),
            "{hash}"
        );
        let (_, points, warnings) = Settings::from_hash(&hash).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let (back, _) = points.unwrap();
        assert_eq!(back.to_csv(), data.to_csv());
        assert_eq!(back.to_csv(), "x,y,label\n1.5,2,Iris setosa\n3,4,v&r;s#%\n");
        // Integer labels add nothing: such links read and write as before.
        let plain = Dataset::read(b"1,2,0\n3,4,1\n", None).unwrap();
        assert!(!s.to_hash(Some((&plain, &[]))).contains("names"));
        // The scene file carries the texts too.
        let json = s.to_scene_json(&data, &[false, false]);
        assert!(json.contains("\"0\": \"Iris setosa\""), "{json}");
        let (_, (back, _), _) = Settings::from_scene_json(&json).unwrap();
        assert_eq!(back.to_csv(), data.to_csv());
        assert!(!s.to_scene_json(&plain, &[]).contains("classes"));
    }

    #[test]
    fn damaged_scene_files_are_messages() {
        let good = Settings::default().to_scene_json(&Dataset::new(), &[]);
        let cases = [
            ("", "not a scene file"),
            ("[1, 2]", "not a scene file"),
            (
                &good.replace("kernel-playground scene", "other"),
                "format 'other'",
            ),
            (
                &good.replace("\"version\": 1", "\"version\": 7"),
                "version 7",
            ),
        ];
        for (text, message) in cases {
            let err = Settings::from_scene_json(text).unwrap_err().to_string();
            assert!(err.contains(message), "{err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
        let odd = good.replace("\"C\": \"1\"", "\"C\": \"-3\"").replace(
            "\"settings\": {",
            "\"settings\": {\n    \"colour\": \"red\",",
        );
        let (settings, _, warnings) = Settings::from_scene_json(&odd).unwrap();
        assert_eq!(settings.get("C").unwrap(), "1");
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let nan = good.replace(
            "\"points\": []",
            "\"points\": [{\"x\": 1e400, \"y\": 0, \"label\": 0}]",
        );
        assert!(Settings::from_scene_json(&nan).is_err());
    }

    #[test]
    fn every_setting_survives_the_url() {
        let mut s = Settings::default();
        for (k, v) in [
            ("model", "logistic"),
            ("kernel", "poly"),
            ("C", "0.0123"),
            ("hard", "1"),
            ("gamma", "123.5"),
            ("degree", "7"),
            ("coef0", "-0.25"),
            ("preset", "rings"),
            ("n", "321"),
            ("noise", "0.35"),
            ("seed", "99"),
            ("margins", "0"),
            ("slack", "0"),
            ("views", "loss"),
        ] {
            s.set(k, v).unwrap();
        }
        let mut data = Dataset::new();
        data.push([0.1234, -0.9876], 0).unwrap();
        data.push([1.5, 2.0], 1).unwrap();
        let hash = s.to_hash(Some((&data, &[false, true])));
        let (back, points, warnings) = Settings::from_hash(&format!("#{hash}")).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, s);
        assert_eq!(points.unwrap(), (data, vec![false, true]));
        let (_, none, _) = Settings::from_hash(&s.to_hash(None)).unwrap();
        assert!(none.is_none());
    }

    #[test]
    fn a_damaged_link_is_refused_naming_every_damaged_part() {
        let refusal =
            Settings::from_hash("C=-1&gamma=abc&kernel=rbf&points=0,0,0;1,2;3,4,1&model=nope")
                .unwrap_err();
        let Refusal::Damaged(parts) = &refusal else {
            panic!("{refusal:?}")
        };
        let named: Vec<&str> = parts.iter().map(|(what, _)| what.as_str()).collect();
        assert_eq!(named, ["C", "gamma", "points", "model"]);
        let text = refusal.to_string();
        assert!(
            text.starts_with("its C is damaged: C <= 0; its gamma is damaged: "),
            "{text}"
        );
        assert!(
            text.contains("its points are damaged: point 2 ('1,2') is not x,y,label"),
            "{text}"
        );
        assert!(text.ends_with("; and 1 more damaged part"), "{text}");
        let text = Settings::from_hash("model=nope").unwrap_err().to_string();
        assert!(
            text.starts_with("its model is damaged: unknown model 'nope'"),
            "{text}"
        );
        assert!(!text.contains('\n'));
        // Points damaged halfway: refused too, not cut short.
        let half = "kernel=poly&points=0,0,0;1,1,1;0.5,abc,0;2,2,1";
        let text = Settings::from_hash(half).unwrap_err().to_string();
        assert_eq!(
            text,
            "its points are damaged: point 3 ('0.5,abc,0') is not x,y,label"
        );
    }

    #[test]
    fn a_newer_link_is_refused_as_newer() {
        for v in ["2", "17", "99999999999999999999999"] {
            let refusal = Settings::from_hash(&format!("C=2&v={v}&gamma=abc")).unwrap_err();
            assert_eq!(refusal, Refusal::Newer(v.into()));
            assert_eq!(
                refusal.to_string(),
                format!("it is from a newer version of the lab (link version {v}; this lab reads version 1)")
            );
        }
        for v in ["0", "x", "-1", ""] {
            let refusal = Settings::from_hash(&format!("v={v}")).unwrap_err();
            assert!(
                matches!(&refusal, Refusal::Damaged(p) if p[0].0 == "version v"),
                "{v}: {refusal:?}"
            );
        }
        assert!(Settings::from_hash("v=1&C=2").is_ok());
        assert!(Settings::from_hash("v=01").is_ok());
    }

    #[test]
    fn unknown_keys_open_with_a_warning_and_long_values_are_cut() {
        let (s, points, warnings) = Settings::from_hash("C=2&labels=a,b&colour&compare=x").unwrap();
        assert_eq!(s.get("C").unwrap(), "2");
        assert!(points.is_none());
        assert_eq!(
            warnings,
            [
                "'labels' is not a setting this lab knows",
                "'colour' is not a setting this lab knows"
            ]
        );
        let long = "z".repeat(5000);
        let text = Settings::from_hash(&format!("kernel={long}"))
            .unwrap_err()
            .to_string();
        assert!(text.len() < 400, "{} characters", text.len());
        assert!(text.ends_with('…'), "{text}");
        // A line break in a point is escaped, as in every message.
        let text = Settings::from_hash("points=0,0,0;1%0A,1,1")
            .unwrap_err()
            .to_string();
        assert_eq!(
            text,
            "its points are damaged: point 2 ('1\\n,1,1') is not x,y,label"
        );
        let (_, _, warnings) = Settings::from_hash("a%E2%80%A8b=1").unwrap();
        assert_eq!(warnings, ["'a\\u{2028}b' is not a setting this lab knows"]);
    }

    #[test]
    fn a_mistyped_key_is_told_the_key_it_likely_meant() {
        let (s, _, warnings) =
            Settings::from_hash("view=gram&gama=3&Kernel=poly&xyz=1&a=1").unwrap();
        assert_eq!(
            warnings,
            [
                "'view' is not a setting this lab knows (did you mean 'views'?)",
                "'gama' is not a setting this lab knows (did you mean 'gamma'?)",
                "'Kernel' is not a setting this lab knows (did you mean 'kernel'?)",
                "'xyz' is not a setting this lab knows",
                "'a' is not a setting this lab knows",
            ]
        );
        // Nothing of them is read.
        assert_eq!(s.get("gamma"), Settings::default().get("gamma"));
        assert_eq!(edits(b"kitten", b"sitting"), 3);
    }

    /// Short links as the lab writes them (and people trim them) read without a warning.
    #[test]
    fn short_links_of_todays_form_read_without_a_warning() {
        let written = [
            "model=svm&kernel=rbf&svm_solver=smo&mc=ovr&C=1&hard=0&gamma=1&degree=3&coef0=0&tol=0.001",
            "",
            "#preset=moons&n=40&kernel=rbf&gamma=2&C=10&views=trace",
            "points=",
            "points=0.5,0.25,0;-1e-7,3,1,t&v=1&views=",
        ];
        for hash in written {
            let (settings, points, warnings) = Settings::from_hash(hash).unwrap();
            assert!(warnings.is_empty(), "{hash}: {warnings:?}");
            let again = settings.to_hash(points.as_ref().map(|(d, t)| (d, t.as_slice())));
            assert_eq!(Settings::from_hash(&again).unwrap().0, settings, "{hash}");
        }
    }

    #[test]
    fn escaped_hashes_decode() {
        let (_, points, warnings) =
            Settings::from_hash("points=0.5%2C-0.25%2C1%3B0%2C0%2C0").unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(points.unwrap().0.points, vec![[0.5, -0.25], [0.0, 0.0]]);
    }

    #[test]
    fn a_zoomed_window_rides_in_the_link_and_scene_file_only_when_set() {
        let plain = Settings::default();
        assert!(!plain.to_hash(None).contains("window"));
        let mut s = Settings::default();
        assert_eq!(s.set("window", "-4,4,-2.5,5.5").unwrap(), Effect::Redraw);
        let hash = s.to_hash(None);
        assert!(hash.contains("&window=-4,4,-2.5,5.5"), "{hash}");
        let (back, _, warnings) = Settings::from_hash(&hash).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, s);
        let json = s.to_scene_json(&Dataset::new(), &[]);
        let (back, _, warnings) = Settings::from_scene_json(&json).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back.window, s.window);
        for bad in ["1,2,3", "1,0,0,1", "0,1,0,nan", "a,b,c,d"] {
            assert!(s.set("window", bad).is_err(), "{bad}");
        }
        s.set("window", "").unwrap();
        assert_eq!(s, plain);
    }

    #[test]
    fn range_checks() {
        let mut s = Settings::default();
        assert!(s.set("degree", "11").is_err());
        assert!(s.set("n", "1").is_err());
        assert!(s.set("gamma", "0").is_err());
        assert!(s.set("kernel", "cubic").is_err());
        assert!(s.set("C", "inf").is_err());
        assert!(s.set("model", "tree").is_err());
        assert!(s.set("views", "a b").is_err());
        assert_eq!(s, Settings::default());
        assert_eq!(s.set("C", "1e4").unwrap(), Effect::Refit);
        assert_eq!(s.set("noise", "0").unwrap(), Effect::Regenerate);
        assert_eq!(s.set("regions", "0").unwrap(), Effect::Redraw);
    }

    #[test]
    fn the_table_lists_every_preset() {
        let crate::params::Kind::Choice { options } = crate::params::param("preset").unwrap().kind
        else {
            panic!("preset is a choice")
        };
        let names: Vec<&str> = options.iter().map(|o| o.value).collect();
        let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, presets);
    }
}
