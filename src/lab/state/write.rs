//! Writing a scene as a link: every setting as `key=value` in the table's order, the
//! optional keys only when set, and the points as `x,y,label` (`x,y,label,t` for a test
//! point) with their classes' texts when they are not integers.

use super::{written_names, Settings};
use crate::core::data::Dataset;
use crate::core::params::Kind;
use crate::methods::table::param;

impl Settings {
    /// The URL hash (without '#') for these settings and, if given, explicit points and which
    /// of them are held out (`x,y,label` for a training point, `x,y,label,t` for a test point).
    pub fn to_hash(&self, points: Option<(&Dataset, &[bool])>) -> String {
        // A typed expression (a kernel built by rule) only when it is not the default, so links
        // of named kernels stay as they were; its spaces escaped.
        let typed = |key: &str| param(key).is_some_and(|row| row.kind == Kind::Expression);
        let mut parts: Vec<String> = self
            .written_keys()
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
                parts.push(format!("names={}", crate::core::labels::to_link(&names)));
            }
        }
        parts.join("&")
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // A file's integer labels add only the first class's text, so the classes read back
        // named as the file named them, not as the lab's own `class 1`, `class 2`.
        for (file, names) in [
            (&b"1,2,0\n3,4,1\n"[..], "&names=0:0"),
            (b"1,2,-1\n3,4,1\n", "&names=-1:-1"),
            (b"1,2,-1\n3,4,+1\n", "&names=1:%2B1"),
        ] {
            let read = Dataset::read(file, None).unwrap();
            let hash = s.to_hash(Some((&read, &[])));
            assert!(hash.ends_with(names), "{hash}");
            let (_, points, _) = Settings::from_hash(&hash).unwrap();
            let back = points.unwrap().0;
            assert_eq!(back.class_choices(), read.class_choices(), "{hash}");
            let json = s.to_scene_json(&read, &[]);
            let (_, (back, _), _) = Settings::from_scene_json(&json).unwrap();
            assert_eq!(back.class_choices(), read.class_choices(), "{json}");
        }
        // The lab's own classes, never read from a file, have no texts to carry.
        let mut plain = Dataset::new();
        plain.push([1.0, 2.0], 0).unwrap();
        plain.push([3.0, 4.0], 1).unwrap();
        assert!(!s.to_hash(Some((&plain, &[]))).contains("names"));
        // The scene file carries the texts too.
        let json = s.to_scene_json(&data, &[false, false]);
        assert!(json.contains("\"0\": \"Iris setosa\""), "{json}");
        let (_, (back, _), _) = Settings::from_scene_json(&json).unwrap();
        assert_eq!(back.to_csv(), data.to_csv());
        assert!(!s.to_scene_json(&plain, &[]).contains("classes"));
    }
}
