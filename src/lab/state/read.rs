//! Reading a link whole or refusing it ([`Refusal`]): a newer version than [`LINK_VERSION`],
//! or any part that cannot be read, names every damaged part; an unknown key opens with a
//! warning that says the key it likely meant, the one fewest edits away (Levenshtein's
//! distance); the hash's percent-escapes are undone first.

use super::{shown, LinkedPoints, Settings};
use crate::core::data::Dataset;

impl Settings {
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
            match renamed(key) {
                "v" | "compare" => {}
                // Split before decoding: a class's text may hold an escaped ';'.
                "names" => match crate::core::labels::from_link(raw) {
                    Ok(texts) => names = Some(texts),
                    Err(e) => damaged.push(("class names".into(), e.to_string())),
                },
                "points" => match decode_points(&percent_decode(raw)) {
                    Ok(data) => points = Some(data),
                    Err(e) => damaged.push(("points".into(), e)),
                },
                key if Self::is_key(key) => {
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

/// The keys of earlier versions, each with the key it is today: the SVM's solver was
/// `svm_solver` while every method's settings shared one space of keys (logistic regression's
/// was `solver`); each method now has its own rows, and both are `solver`.
const RENAMED: &[(&str, &str)] = &[("svm_solver", "solver")];

/// The key `key` of a link or a scene file is today.
pub(super) fn renamed(key: &str) -> &str {
    RENAMED
        .iter()
        .find(|(old, _)| *old == key)
        .map_or(key, |(_, new)| new)
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

    /// Links of the versions whose keys were one space for every method wrote the SVM's
    /// solver as `svm_solver` and logistic regression's as `solver`, whatever the model: each
    /// opens with both where they belong, and is written back with its model's own as
    /// `solver`.
    #[test]
    fn links_of_one_key_space_keep_both_solvers() {
        let old = "model=logistic&svm_solver=pegasos&solver=gd&lr=2";
        let (mut settings, _, warnings) = Settings::from_hash(old).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(settings.values.choice("solver"), "gd");
        let hash = settings.to_hash(None);
        let solvers: Vec<&str> = hash.split('&').filter(|p| p.contains("solver")).collect();
        assert_eq!(solvers, ["solver=gd"]);
        settings.set("model", "svm").unwrap();
        assert_eq!(settings.values.choice("solver"), "pegasos");
        assert!(settings
            .to_hash(None)
            .split('&')
            .any(|p| p == "solver=pegasos"));
        // Today's link of either model says which solver with the one key.
        let (svm, _, _) = Settings::from_hash("model=svm&solver=dca").unwrap();
        assert_eq!(svm.values.choice("solver"), "dca");
        let refused = Settings::from_hash("model=svm&solver=bfgs").unwrap_err();
        assert!(
            refused.to_string().contains("use smo, dca, pegasos"),
            "{refused}"
        );
    }

    #[test]
    fn escaped_hashes_decode() {
        let (_, points, warnings) =
            Settings::from_hash("points=0.5%2C-0.25%2C1%3B0%2C0%2C0").unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(points.unwrap().0.points, vec![[0.5, -0.25], [0.0, 0.0]]);
    }
}
