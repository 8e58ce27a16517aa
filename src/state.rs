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
use crate::model::Method;
use crate::params::{Effect, Values, PARAMS};
use crate::plane::Layers;
use crate::registry;
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            model: registry::METHODS[0].id().to_string(),
            values: Values::default(),
            views: Vec::new(),
            max_iter: None,
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

    /// The method these settings choose.
    pub fn method(&self) -> &'static dyn Method {
        registry::method(&self.model).expect("the model was checked when it was set")
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

    /// The value of `key` as it is written in the URL.
    pub fn get(&self, key: &str) -> Option<String> {
        match key {
            "model" => Some(self.model.clone()),
            "views" => Some(self.views.join(",")),
            "v" => Some("1".into()),
            _ => self.values.text(key),
        }
    }

    /// Sets `key` from its text, checking the range; on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<Effect, Error> {
        let value = value.trim();
        match key {
            "model" => {
                self.model = registry::method(value)?.id().to_string();
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
            _ => self.values.set(key, value),
        }
    }

    /// The URL hash (without '#') for these settings and, if given, explicit points and which
    /// of them are held out (`x,y,label` for a training point, `x,y,label,t` for a test point).
    pub fn to_hash(&self, points: Option<(&Dataset, &[bool])>) -> String {
        let mut parts: Vec<String> = Self::keys()
            .map(|k| format!("{k}={}", self.get(k).unwrap_or_default()))
            .collect();
        if let Some((data, test)) = points {
            let encoded: Vec<String> = data
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let role = if test.get(i).copied().unwrap_or(false) {
                        ",t"
                    } else {
                        ""
                    };
                    let (x, y) = (data.coordinate_text(i, 0), data.coordinate_text(i, 1));
                    format!("{x},{y},{l}{role}")
                })
                .collect();
            parts.push(format!("points={}", encoded.join(";")));
            let names = written_names(data);
            if !names.is_empty() {
                parts.push(format!("names={}", crate::labels::to_link(&names)));
            }
        }
        parts.join("&")
    }

    /// Reads a hash written by [`Settings::to_hash`] (a leading '#' is fine). Unknown keys are
    /// ignored; a bad value keeps its default and adds a warning, so a damaged link still opens.
    pub fn from_hash(hash: &str) -> (Settings, Option<LinkedPoints>, Vec<String>) {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        let mut points: Option<LinkedPoints> = None;
        let mut names = None;
        let hash = hash.trim_start_matches('#');
        for part in hash.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            if key == "names" {
                // Split before decoding: a class's text may hold an escaped ';'.
                match crate::labels::from_link(value) {
                    Ok(texts) => names = Some(texts),
                    Err(e) => warnings.push(e.to_string()),
                }
                continue;
            }
            let value = percent_decode(value);
            if key == "points" {
                match decode_points(&value) {
                    Ok(data) => points = Some(data),
                    Err(e) => warnings.push(e.to_string()),
                }
            } else if Self::keys().any(|k| k == key) {
                if let Err(e) = settings.set(key, &value) {
                    warnings.push(format!("{key}: {e}"));
                }
            }
        }
        if let (Some((data, _)), Some(names)) = (points.as_mut(), names) {
            data.label_texts = names;
        }
        (settings, points, warnings)
    }
}

/// The texts of `data`'s classes that are written other than as their integers.
fn written_names(data: &Dataset) -> crate::labels::LabelTexts {
    data.label_texts
        .iter()
        .filter(|(class, text)| class.to_string() != ***text)
        .map(|(&class, text)| (class, text.clone()))
        .collect()
}

fn decode_points(text: &str) -> Result<LinkedPoints, Error> {
    let mut data = Dataset::new();
    let mut test = Vec::new();
    for (i, row) in text.split(';').filter(|r| !r.is_empty()).enumerate() {
        let bad = || Error::State(format!("point {} ('{row}') is not x,y,label", i + 1));
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
        let ordered = Self::keys().filter(|k| file.settings.contains_key(*k));
        for key in ordered {
            if let Err(e) = settings.set(key, &file.settings[key]) {
                warnings.push(format!("{key}: {e}"));
            }
        }
        for key in file.settings.keys() {
            if !Self::keys().any(|k| k == key) {
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
fn percent_decode(text: &str) -> String {
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
        let (_, points, warnings) = Settings::from_hash(&hash);
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
        let (back, points, warnings) = Settings::from_hash(&format!("#{hash}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, s);
        assert_eq!(points.unwrap(), (data, vec![false, true]));
        let (_, none, _) = Settings::from_hash(&s.to_hash(None));
        assert!(none.is_none());
    }

    #[test]
    fn damaged_links_open_with_warnings() {
        let (s, points, warnings) =
            Settings::from_hash("C=-1&gamma=abc&kernel=rbf&points=1,2&model=nope");
        assert_eq!(s, Settings::default());
        assert!(points.is_none());
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings[0].contains("C <= 0"));
        assert!(warnings[3].contains("unknown model 'nope'"));
    }

    #[test]
    fn escaped_hashes_decode() {
        let (_, points, warnings) = Settings::from_hash("points=0.5%2C-0.25%2C1%3B0%2C0%2C0");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(points.unwrap().0.points, vec![[0.5, -0.25], [0.0, 0.0]]);
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
        let names: Vec<&str> = options.iter().map(|o| o.0).collect();
        let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, presets);
        let crate::params::Kind::Choice { options } = crate::params::param("kernel").unwrap().kind
        else {
            panic!("kernel is a choice")
        };
        let names: Vec<&str> = options.iter().map(|o| o.0).collect();
        assert_eq!(names, crate::kernel::KERNEL_NAMES);
    }
}
