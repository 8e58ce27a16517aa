//! The documents, read as files: the README stays a user's page of at most 300 lines, and every
//! relative link in `README.md` and `docs/*.md` names a file or folder that exists.
//!
//! Run alone with `cargo test --test docs`.

use std::path::{Component, Path, PathBuf};

/// The README's length at most, in lines.
const README_MAX_LINES: usize = 300;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text with its fenced code blocks and inline code spans blanked out, so that a link shown
/// as code is not taken for a link.
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            let mut in_code = false;
            for c in line.chars() {
                if c == '`' {
                    in_code = !in_code;
                } else if !in_code {
                    out.push(c);
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links and images (`[text](target)`, `![alt](target)`) in Markdown.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = without_code(markdown);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].trim();
        // A title after the address (`(path "title")`) is not part of it.
        let target = target.split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

/// Whether `path`, relative to `dir`, names a file or folder with exactly that spelling: a
/// case-insensitive file system would find `docs/architecture.md` for `docs/ARCHITECTURE.md`,
/// and the site and GitHub would not.
fn exists_exactly(dir: &Path, path: &str) -> bool {
    let mut at = dir.to_path_buf();
    for part in Path::new(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !at.pop() {
                    return false;
                }
            }
            Component::Normal(name) => {
                let Ok(entries) = std::fs::read_dir(&at) else {
                    return false;
                };
                if !entries.flatten().any(|entry| entry.file_name() == name) {
                    return false;
                }
                at.push(name);
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// The links of `markdown` (a file in `dir`) that point inside the repository at nothing.
fn broken_links(markdown: &str, dir: &Path) -> Vec<String> {
    link_targets(markdown)
        .into_iter()
        .filter(|target| {
            let external = target.contains("://") || target.starts_with("mailto:");
            let path = target.split('#').next().unwrap_or("");
            !external && !path.is_empty() && !exists_exactly(dir, path)
        })
        .collect()
}

/// The README and every Markdown file under `docs/`.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn readme_is_at_most_300_lines() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move engineering detail to docs/"
    );
}

#[test]
fn every_relative_link_points_at_a_file_that_exists() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("a readable document");
        let dir = file.parent().expect("a file has a folder");
        checked += link_targets(&text).len();
        for target in broken_links(&text, dir) {
            broken.push(format!("{}: {target}", file.display()));
        }
    }
    assert!(checked > 0, "no links found: the reader is broken");
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_reader_finds_a_broken_link() {
    let root = root();
    let text = "See [the guide](README.md), ![a picture](docs/missing.png \"title\"), \
                [a site](https://example.org/x), [a part](#use) and `[code](nowhere.md)`.\n\
                ```\n[fenced](nowhere-either.md)\n```\n[gone](docs/GONE.md#part), \
                [spelt otherwise](readme.md) and [up](tests/../Cargo.toml).\n";
    assert_eq!(
        link_targets(text),
        [
            "README.md",
            "docs/missing.png",
            "https://example.org/x",
            "#use",
            "docs/GONE.md#part",
            "readme.md",
            "tests/../Cargo.toml"
        ]
    );
    assert_eq!(
        broken_links(text, &root),
        ["docs/missing.png", "docs/GONE.md#part", "readme.md"]
    );
}
