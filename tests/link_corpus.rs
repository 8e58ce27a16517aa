//! Links made by earlier versions of the lab open the same scene today.
//!
//! `tests/fixtures/link_corpus.txt` lists links (every method of every task, each solver,
//! multi-class scheme, kernel and view, held-out and named points, compare); the scene each
//! opened when it was recorded is in `tests/fixtures/link_corpus.json`, written by
//! `scripts/make-link-corpus.sh` (the ignored test [`record`] below) as plain data: the hash
//! the lab wrote back, every setting as key and value text, the views, the points' count,
//! held-out points and class names, and the status line of the fit. [`links_open_as_recorded`]
//! opens each link with today's code and compares.
//!
//! A setting whose key has changed since is compared under its new key ([`today`] names the
//! renames), so the corpus states what a link means, not how today's lab spells it.

use kernel_playground::lab::link;
use kernel_playground::lab::playground::Playground;
use kernel_playground::lab::state::Settings;
use serde_json::{json, Map, Value};

/// How a setting recorded under `key` reads today: its key, and, for a key that has become
/// two methods' own rows, the one method whose scene it is part of. The record was made when
/// every method's settings shared one space of keys and a link wrote them all: the SVM's
/// solver was `svm_solver` and `solver` was logistic regression's. Today each is its method's
/// `solver`, and a link writes the solver of its own model only.
fn today(key: &str) -> (&str, Option<&'static str>) {
    match key {
        "svm_solver" => ("solver", Some("svm")),
        "solver" => ("solver", Some("logistic")),
        _ => (key, None),
    }
}

const LINKS: &str = include_str!("fixtures/link_corpus.txt");
const RECORD: &str = "tests/fixtures/link_corpus.json";

/// The corpus's links, as (name, link).
fn links() -> Vec<(&'static str, &'static str)> {
    LINKS
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split_once('\t').expect("name<TAB>link"))
        .collect()
}

/// One side of a scene as plain data.
fn side(hash: &str) -> Value {
    let mut lab = Playground::open(hash).unwrap_or_else(|e| panic!("{hash}: {e}"));
    lab.fit();
    let status = serde_json::to_value(lab.status()).expect("a status is JSON");
    let settings = lab.settings();
    let mut values = Map::new();
    for key in Settings::keys().chain(Settings::optional_keys()) {
        if matches!(key, "views" | "v") {
            continue;
        }
        if let Some(value) = settings.get(key) {
            values.insert(key.to_string(), json!(value));
        }
    }
    let data = lab.data();
    let held_out: Vec<usize> = (0..data.len()).filter(|&i| lab.test()[i]).collect();
    let classes: Vec<String> = data
        .classes()
        .into_iter()
        .map(|c| data.class_name(c))
        .collect();
    json!({
        "hash": lab.hash(),
        "model": settings.model,
        "views": settings.views,
        "settings": values,
        "points": data.len(),
        "held_out": held_out,
        "classes": classes,
        "status": status,
    })
}

/// The scene `link` opens: each side, and the warnings of its reading.
fn scene(name: &str, link: &str) -> Value {
    let read = link::read(link).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut sides = vec![side(&read.left)];
    if let Some(right) = &read.right {
        sides.push(side(right));
    }
    json!({ "name": name, "link": link, "warnings": read.warnings, "sides": sides })
}

/// Writes the record from the lab as it is (run by scripts/make-link-corpus.sh).
#[test]
#[ignore = "writes the fixture; run by scripts/make-link-corpus.sh"]
fn record() {
    let scenes: Vec<Value> = links()
        .into_iter()
        .map(|(name, link)| scene(name, link))
        .collect();
    let made_by = std::env::var("LINK_CORPUS_MADE_BY").unwrap_or_default();
    // One scene a line, so a change to the record reads as the scenes it changed.
    let lines: Vec<String> = scenes.iter().map(Value::to_string).collect();
    let text = format!(
        "{{\"made_by\": {},\n\"scenes\": [\n{}\n]}}\n",
        json!(made_by),
        lines.join(",\n")
    );
    std::fs::write(RECORD, text).expect("the fixture is writable");
}

/// Whether two recorded values agree: numbers to 1e-9 of their size (a fit's last bits may
/// differ between machines), everything else exactly.
fn agree(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| agree(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, v)| y.get(key).is_some_and(|w| agree(v, w)))
        }
        _ => a == b,
    }
}

/// The recorded side with its settings' keys spelled as today's lab spells them, and its
/// hash as today's lab writes it back: the recorded hash, opened again, must give the same.
fn as_today(mut recorded: Value) -> Value {
    let settings = recorded["settings"].as_object().expect("settings").clone();
    let model = recorded["model"].clone();
    let renamed: Map<String, Value> = settings
        .into_iter()
        .filter_map(|(key, value)| {
            let (key, only) = today(&key);
            let theirs = only.is_some_and(|m| model != json!(m));
            (!theirs).then(|| (key.to_string(), value))
        })
        .collect();
    recorded["settings"] = Value::Object(renamed);
    let old_hash = recorded["hash"].as_str().expect("a hash").to_string();
    let reopened = Playground::open(&old_hash).unwrap_or_else(|e| panic!("{old_hash}: {e}"));
    recorded["hash"] = json!(reopened.hash());
    recorded
}

#[test]
fn links_open_as_recorded() {
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(RECORD).expect("the record")).unwrap();
    let recorded = record["scenes"].as_array().expect("scenes");
    let links = links();
    assert_eq!(
        recorded.len(),
        links.len(),
        "link_corpus.txt and its record differ: run scripts/make-link-corpus.sh"
    );
    let mut differ = Vec::new();
    for (old, (name, link)) in recorded.iter().zip(links) {
        assert_eq!(
            old["link"],
            json!(link),
            "{name}: the record is of another link"
        );
        let mut old = old.clone();
        for side in old["sides"].as_array_mut().expect("sides") {
            *side = as_today(side.take());
        }
        let now = scene(name, link);
        if !agree(&old, &now) {
            differ.push(format!("{name}:\n  recorded {old}\n  today    {now}"));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The corpus covers what it claims: every method of every task, each solver and multi-class
/// scheme, compare, views, held-out and named points.
#[test]
fn the_corpus_covers_every_method_and_choice() {
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(RECORD).expect("the record")).unwrap();
    let sides: Vec<&Value> = record["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sides"].as_array().unwrap())
        .collect();
    // Whether some scene of `model` (any, for None) has `key` = `value` as today reads it.
    let seen = |model: Option<&str>, key: &str, value: &str| {
        sides.iter().any(|s| {
            let of_model = |m: &str| s["model"] == json!(m);
            model.is_none_or(of_model)
                && s["settings"].as_object().unwrap().iter().any(|(k, v)| {
                    let (k, only) = today(k);
                    k == key && only.is_none_or(of_model) && v.as_str() == Some(value)
                })
        })
    };
    for method in kernel_playground::methods::registry::METHODS {
        let (id, task) = (method.id(), method.task().id());
        assert!(
            sides
                .iter()
                .any(|s| s["model"] == json!(id) && s["settings"]["task"] == json!(task)),
            "no link of {task}'s {id}"
        );
    }
    for (model, key, value) in [
        (Some("svm"), "solver", "smo"),
        (Some("svm"), "solver", "dca"),
        (Some("svm"), "solver", "pegasos"),
        (Some("logistic"), "solver", "newton"),
        (Some("logistic"), "solver", "gd"),
        (None, "mc", "ovo"),
        (None, "mc", "ovr"),
        (None, "multi", "ovr"),
        (None, "multi", "multinomial"),
        (None, "hard", "1"),
        (None, "kernel", "composed"),
        (None, "bandwidth", "sigma"),
    ] {
        assert!(
            seen(model, key, value),
            "no link of {model:?} with {key}={value}"
        );
    }
    assert!(sides
        .iter()
        .any(|s| !s["views"].as_array().unwrap().is_empty()));
    assert!(sides
        .iter()
        .any(|s| !s["held_out"].as_array().unwrap().is_empty()));
    assert!(sides.iter().any(|s| s["classes"][0] == json!("setosa")));
    assert!(record["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["sides"].as_array().unwrap().len() == 2));
}
