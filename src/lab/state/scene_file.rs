//! The scene as a file: every setting as the URL writes it and the points with their roles
//! (training or test), in JSON marked with [`SCENE_FORMAT`], read back exactly.

use super::read::renamed;
use super::{written_names, LinkedPoints, Settings};
use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::sorting::map_of;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
            settings: map_of(
                self.written_keys()
                    .filter(|&k| k != "v")
                    .chain(Self::optional_keys().into_iter().filter(|k| self.is_set(k)))
                    .map(|k| (k.to_string(), self.get(k).unwrap_or_default())),
            ),
            points: (0..data.len())
                .map(|i| ScenePoint {
                    x: data.points[i][0],
                    y: data.points[i][1],
                    label: data.labels[i],
                    test: test.get(i).copied().unwrap_or(false),
                })
                .collect(),
            classes: map_of(
                written_names(data)
                    .into_iter()
                    .map(|(class, text)| (class, text.into())),
            ),
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
        let given = |key: &str| {
            file.settings
                .iter()
                .find(|(k, _)| renamed(k) == key)
                .map(|(_, value)| value)
        };
        let ordered = Self::keys().chain(Self::optional_keys());
        for (key, value) in ordered.filter_map(|k| given(k).map(|v| (k, v))) {
            if let Err(e) = settings.set(key, value) {
                warnings.push(format!("{key}: {e}"));
            }
        }
        for key in file.settings.keys() {
            if !Self::is_key(renamed(key)) {
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

    /// A file saved when the SVM's solver was `svm_solver` opens with that solver.
    #[test]
    fn an_older_files_svm_solver_is_the_svms_solver() {
        let mut svm = Settings::default();
        svm.set("solver", "dca").unwrap();
        let text = svm.to_scene_json(&Dataset::new(), &[]);
        assert!(text.contains("\"solver\": \"dca\""), "{text}");
        let old = text.replace("\"solver\"", "\"svm_solver\"");
        let (back, _, warnings) = Settings::from_scene_json(&old).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back.values.choice("solver"), "dca");
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
}
