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
//! `&names=0:setosa;1:versicolor` ([`crate::core::labels::to_link`]); a file's classes all
//! written as integers give the first one's alone (`&names=-1:-1`), so they keep their names and
//! do not become the lab's own `class 1`, `class 2`; a link without it reads as before.
//!
//! Here: [`Settings`] with its keys, read and set one at a time. `write` writes a link,
//! `read` reads one whole or refuses it ([`Refusal`], with the key a mistyped one likely
//! meant), and `scene_file` writes and reads the same scene as a JSON file.

mod read;
mod scene_file;
mod write;

pub(crate) use read::percent_decode;
pub use read::{Refusal, LINK_VERSION};
pub use scene_file::SCENE_FORMAT;
pub use write::point_text;

use crate::core::data::{stratified_split, Dataset, Preset};
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::params::{Effect, Param, Values};
use crate::core::plane::Layers;
use crate::core::task::Task;
use crate::methods::model::Method;
use crate::methods::registry;
use crate::methods::table::rows;

/// Points a link carries, and which of them are held out for testing.
pub type LinkedPoints = (Dataset, Vec<bool>);

/// One scene's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The method's id in the registry.
    pub model: String,
    /// One checked value per row of the parameter table (`methods::table::rows`).
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
        let mut values = crate::methods::table::defaults();
        values.read_by(registry::METHODS[0].rows());
        Settings {
            model: registry::METHODS[0].id().to_string(),
            values,
            views: Vec::new(),
            max_iter: None,
            window: None,
            learn_vs: None,
            task: Task::Classification,
        }
    }
}

impl Settings {
    /// The keys a link writes, in URL order: the method, the rows the method sees (its own
    /// row of a key, not another method's), the open views, and the format version.
    pub fn written_keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once("model")
            .chain(self.values.seen().map(|p| p.key))
            .chain(["views", "v"])
    }

    /// Every key, in URL order: the method, the table's rows, the open views, and the format
    /// version.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        let table = rows();
        // A key two methods have rows of, once.
        let first = |&(i, p): &(usize, &&'static Param)| table[..i].iter().all(|q| q.key != p.key);
        std::iter::once("model")
            .chain(table.iter().enumerate().filter(first).map(|(_, p)| p.key))
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
                || crate::methods::table::param(key).map_or("", |p| p.default),
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
        crate::core::sorting::sort(&mut keys);
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
                self.values.read_by(method.rows());
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
                    self.values.read_by(method.rows());
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

/// The texts of `data`'s classes that are written other than as their integers. A file's
/// labels written as integers (`-1`, `1`) give none; yet a lab without texts names its classes
/// `class 1`, `class 2`, …, so the first class's text is kept then, and the link or scene
/// file reads back with the classes named as the file named them.
fn written_names(data: &Dataset) -> crate::core::labels::LabelTexts {
    let mut names: crate::core::labels::LabelTexts = crate::core::sorting::map_of(
        (data.label_texts.iter())
            .filter(|(class, text)| class.to_string() != ***text)
            .map(|(&class, text)| (class, text.clone())),
    );
    if names.is_empty() {
        if let Some((&class, text)) = data.label_texts.iter().next() {
            names.insert(class, text.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let crate::core::params::Kind::Choice { options } =
            crate::methods::table::param("preset").unwrap().kind
        else {
            panic!("preset is a choice")
        };
        let names: Vec<&str> = options.iter().map(|o| o.value).collect();
        let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, presets);
    }
}
