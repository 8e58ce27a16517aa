//! A shared link written ([`write()`]) and read whole ([`read`]), before anything of it is
//! opened: the left-hand scene, and when comparing the right-hand side's own settings as
//! `compare=` (the URL-encoded `key=value&…` of the settings that may differ from the left's,
//! [`shared`] saying which may not). Either every
//! part reads, or the link is refused naming each part that does not ([`Refusal`]); keys this
//! lab does not know are left out with a warning, on either side.

use crate::core::params::Group;
use crate::lab::state::{percent_decode, Refusal, Settings};
use crate::methods::table::rows;
use serde::Serialize;

/// A link that reads whole: the hash each side opens, and what was left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Link {
    /// The left-hand scene's hash (the link without `compare=`).
    pub left: String,
    /// When comparing, the right-hand scene's hash: the left's with the right's own settings.
    pub right: Option<String>,
    /// The parts left out, as one-line messages.
    pub warnings: Vec<String>,
}

/// Whether `key` belongs to both sides, so the right-hand side's own settings may not hold
/// it: the points, the settings that make them, the task, the views and the version. An edit
/// of such a setting is made on both sides of a comparison, any other on the side edited.
pub fn shared(key: &str) -> bool {
    matches!(key, "points" | "names" | "views" | "v" | "compare")
        || key == crate::lab::state::LEARN_VS_KEY
        || key == crate::lab::state::TASK_KEY
        || rows()
            .iter()
            .any(|row| row.key == key && row.group == Group::Points)
}

/// The link of a scene from its sides' hashes: the left's, and when comparing, `compare=` with
/// the right side's own settings (every part of its hash whose key is not [`shared`]),
/// encoded as a URI component.
pub fn write(left: &str, right: Option<&str>) -> String {
    let Some(right) = right else {
        return left.to_string();
    };
    let own: Vec<&str> = right
        .split('&')
        .filter(|part| !shared(part.split('=').next().unwrap_or(part)))
        .collect();
    left.to_string() + "&compare=" + &uri_component(&own.join("&"))
}

/// `text` as a URI component: every byte but ASCII letters, digits and `-_.!~*'()` escaped as
/// `%XX` (JavaScript's `encodeURIComponent`, so a link reads the same whoever wrote it).
fn uri_component(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 15)] as char);
        }
    }
    out
}

/// Reads `hash` (a leading '#' is fine) whole, both sides, or refuses it.
pub fn read(hash: &str) -> Result<Link, Refusal> {
    let mut base = Vec::new();
    let mut compare = None;
    for part in hash.trim_start_matches('#').split('&') {
        match part.split_once('=').unwrap_or((part, "")) {
            ("compare", value) => compare = Some(value),
            _ if part.is_empty() => {}
            _ => base.push(part),
        }
    }
    let left = base.join("&");
    let (_, _, mut warnings) = Settings::from_hash(&left)?;
    let Some(encoded) = compare else {
        return Ok(Link {
            left,
            right: None,
            warnings,
        });
    };
    let decoded = percent_decode(encoded);
    let mut own = Vec::new();
    for part in decoded.split('&').filter(|p| !p.is_empty()) {
        let key = part.split_once('=').map_or(part, |(k, _)| k);
        if shared(key) {
            let key: String = key.chars().take(40).collect();
            warnings.push(format!(
                "the right-hand side's '{key}' is the left's too and was left out"
            ));
        } else {
            own.push(part);
        }
    }
    let own = own.join("&");
    match Settings::from_hash(&own) {
        Ok((_, _, theirs)) => warnings.extend(
            theirs
                .into_iter()
                .map(|w| format!("on the right-hand side, {w}")),
        ),
        Err(Refusal::Damaged(parts)) => {
            return Err(Refusal::Damaged(
                parts
                    .into_iter()
                    .map(|(what, why)| (format!("right-hand side's {what}"), why))
                    .collect(),
            ))
        }
        Err(newer) => return Err(newer),
    }
    let right = if own.is_empty() {
        left.clone()
    } else if left.is_empty() {
        own
    } else {
        format!("{left}&{own}")
    };
    Ok(Link {
        left,
        right: Some(right),
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::playground::Playground;

    #[test]
    fn a_comparison_reads_both_sides() {
        let link = read("#preset=moons&n=40&C=2&compare=kernel%3Dpoly%26C%3D5&points=0,0,0;1,1,1")
            .unwrap();
        assert_eq!(link.left, "preset=moons&n=40&C=2&points=0,0,0;1,1,1");
        let right = link.right.unwrap();
        assert!(link.warnings.is_empty(), "{:?}", link.warnings);
        let (left, right) = (
            Playground::open(&link.left).unwrap(),
            Playground::open(&right).unwrap(),
        );
        assert_eq!(right.data(), left.data(), "the same points");
        assert_eq!(left.settings().get("kernel").unwrap(), "rbf");
        assert_eq!(right.settings().get("kernel").unwrap(), "poly");
        assert_eq!(right.settings().get("C").unwrap(), "5");
        assert_eq!(read("C=2&compare=").unwrap().right.unwrap(), "C=2");
        assert!(read("C=2").unwrap().right.is_none());
    }

    /// A comparison's link, written and read again, opens both sides as they were: the right
    /// side's own settings (a model of another task's kind, its own solver, a kernel by rule
    /// with spaces and signs) and the left's points and names.
    #[test]
    fn a_comparison_written_reads_back_both_sides() {
        let points = "&points=0,0,0;1,1,1;0.5,-2,0,t&names=0:%C3%A9t%C3%A9%20%26%20co";
        let left = Playground::open(&format!("preset=xor&n=20&C=2{points}")).unwrap();
        let right = Playground::open(&format!(
            "preset=xor&n=20&model=logistic&solver=gd&lr=0.5&kernel=rbf%20%2B%201&features=rbf{points}"
        ))
        .unwrap();
        assert_eq!(write(&left.hash(), None), left.hash());
        let link = read(&write(&left.hash(), Some(&right.hash()))).unwrap();
        assert!(link.warnings.is_empty(), "{:?}", link.warnings);
        assert_eq!(Playground::open(&link.left).unwrap().hash(), left.hash());
        let opened = Playground::open(&link.right.unwrap()).unwrap();
        assert_eq!(opened.settings(), right.settings());
        assert_eq!(opened.data(), left.data());
        // Encoded as the page's JavaScript would: `encodeURIComponent`'s set kept.
        assert_eq!(
            uri_component("a=b&c d%é*(!)~'"),
            "a%3Db%26c%20d%25%C3%A9*(!)~'"
        );
    }

    #[test]
    fn a_damaged_right_hand_side_refuses_the_link_naming_it() {
        let refusal = read("C=2&compare=kernel%3Dcubic%26C%3D-3").unwrap_err();
        let text = refusal.to_string();
        assert!(
            text.starts_with("its right-hand side's kernel is damaged: unknown kernel 'cubic'"),
            "{text}"
        );
        assert!(
            text.ends_with("; its right-hand side's C is damaged: C <= 0"),
            "{text}"
        );
        // The left's damage is named as the left's.
        let text = read("C=0&compare=C%3D2").unwrap_err().to_string();
        assert_eq!(text, "its C is damaged: C <= 0");
    }

    #[test]
    fn warnings_of_either_side_are_kept() {
        let link = read("C=2&shade=1&compare=C%3D3%26glow%3D2%26n%3D80").unwrap();
        assert_eq!(
            link.warnings,
            [
                "'shade' is not a setting this lab knows",
                "the right-hand side's 'n' is the left's too and was left out",
                "on the right-hand side, 'glow' is not a setting this lab knows",
            ]
        );
        assert_eq!(link.right.unwrap(), "C=2&shade=1&C=3&glow=2");
    }

    #[test]
    fn a_newer_link_is_refused_as_newer_with_or_without_a_comparison() {
        for hash in ["v=2&C=2", "v=2&compare=C%3D3", "C=2&compare=C%3D-1&v=3"] {
            assert!(
                matches!(read(hash), Err(Refusal::Newer(_))),
                "{hash}: {:?}",
                read(hash)
            );
        }
    }

    /// The right-hand side's own settings (the parts of its hash not [`shared`]), written as
    /// the page writes them after `compare=` (www/scenes.js), read back as that side: its model's settings are its own; the points, their settings,
    /// the task and the views are the left's.
    #[test]
    fn own_settings_round_trip_and_leave_the_shared_ones_out() {
        let hash = "preset=moons&n=30&seed=4&C=2&views=curve";
        let left = Playground::open(hash).unwrap();
        let mut right = Playground::open(hash).unwrap();
        right.set("kernel", "poly").unwrap();
        right.set("C", "0.5").unwrap();
        right.set("n", "50").unwrap();
        let hash = right.hash();
        let own: Vec<&str> = hash
            .split('&')
            .filter(|part| !shared(part.split('=').next().unwrap()))
            .collect();
        let own = own.join("&");
        for part in own.split('&') {
            let key = part.split('=').next().unwrap();
            assert!(!shared(key), "{own}");
        }
        assert!(
            own.contains("kernel=poly") && own.contains("C=0.5"),
            "{own}"
        );
        // As the page's encodeURIComponent writes it (these settings need only these three).
        let encoded = own
            .replace('%', "%25")
            .replace('&', "%26")
            .replace('=', "%3D");
        let link = read(&format!("#{}&compare={encoded}", left.hash())).unwrap();
        assert!(link.warnings.is_empty(), "{:?}", link.warnings);
        let opened = Playground::open(&link.right.unwrap()).unwrap();
        assert_eq!(opened.hash(), right.hash().replace("n=50", "n=30"));
        assert_eq!(opened.data(), left.data(), "the left's points");
        assert!(shared("n") && shared("views") && shared("task") && !shared("C"));
    }

    /// A part of a link written before each method had its own rows, as a link of `model`
    /// writes it today, or None: those links wrote every method's settings, the SVM's solver
    /// as `svm_solver` and logistic regression's as `solver`, and a link today writes its
    /// model's own solver, as `solver`.
    fn today(part: &str, model: &str) -> Option<String> {
        match part.split_once('=') {
            Some(("svm_solver", value)) => (model == "svm").then(|| format!("solver={value}")),
            Some(("solver", _)) => (model == "logistic").then(|| part.to_string()),
            _ => Some(part.to_string()),
        }
    }

    /// Every link the page wrote before links were read whole opens the same scene: read
    /// without a warning, the left side's settings written back as they were, the right side with
    /// every setting of its own.
    #[test]
    fn links_written_before_open_the_same_scene() {
        let fixture: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/links_main.json")).unwrap();
        let links = fixture["links"].as_array().unwrap();
        assert_eq!(links.len(), 9);
        for written in links {
            let written = written.as_str().unwrap();
            let link = read(written).unwrap_or_else(|r| panic!("{written}: {r}"));
            assert!(link.warnings.is_empty(), "{written}: {:?}", link.warnings);
            let left = Playground::open(&link.left).unwrap();
            assert!(left.warnings.is_empty());
            // Settings added since are written too, at their defaults: the same scene.
            let written_keys: Vec<&str> = link
                .left
                .split('&')
                .filter_map(|p| p.split('=').next())
                .collect();
            // Every setting as it was written (the URL's order of keys follows the table's,
            // which may have changed: the scene is the settings, not their order).
            let hash = left.hash();
            let mut kept: Vec<&str> = hash
                .split('&')
                .filter(|part| {
                    let (key, value) = part.split_once('=').unwrap_or((part, ""));
                    written_keys.contains(&key)
                        || crate::methods::table::param(key).is_none_or(|row| row.default != value)
                })
                .collect();
            let model = left.settings().model.clone();
            let mut given: Vec<String> = link
                .left
                .split('&')
                .filter_map(|part| today(part, &model))
                .collect();
            kept.sort_unstable();
            given.sort_unstable();
            assert_eq!(kept, given, "the same scene");
            assert!(written.starts_with(&format!("#{}", link.left)));
            let Some((_, compare)) = written.split_once("&compare=") else {
                assert!(link.right.is_none());
                continue;
            };
            let right = Playground::open(&link.right.unwrap()).unwrap();
            assert_eq!(right.data(), left.data(), "{written}: the same points");
            let hash = right.hash();
            let parts: Vec<&str> = hash.split('&').collect();
            let model = &right.settings().model;
            for own in percent_decode(compare).split('&') {
                if let Some(own) = today(own, model) {
                    assert!(
                        parts.contains(&own.as_str()),
                        "{written}: {own} on the right"
                    );
                }
            }
        }
    }
}
