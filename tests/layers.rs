//! The house rules, read from the source itself (code under `#[cfg(test)]` is left out):
//! - modules import only from their own layer or the layers below (see `src/lib.rs`), and no
//!   two modules import each other, directly or around a circle;
//! - a method is named (its id as a string) only in its own file under `src/methods/solvers/`, and a
//!   view only in its own file under `src/views/`: the registries and the parameter table
//!   (gathered from the methods' own rows) carry everything else, so adding a method is its
//!   file (with its parameter rows) and a registry line.
//!
//! Run alone with `cargo test --test layers`.

use kernel_playground::methods::registry::METHODS;
use kernel_playground::views::VIEWS;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: each is a folder of `src/` ("" for a module of its own at the top)
/// and the modules in it. A folder may hold several layers in a row (the methods' contract,
/// the methods, what is built on them).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "data",
            "table",
            "task",
            "labels",
            "error",
            "kernel",
            "field",
            "gauss_transform",
            "monomials",
            "contour",
            "voronoi",
            "hull",
            "packed",
            "base64",
            "params",
            "plane",
            "roc",
            "spectrum",
            "sorting",
            "pieces",
            "sklearn",
            "words",
            "job",
        ],
    ),
    ("methods", &["model", "capabilities", "marks"]),
    ("methods", &["solvers"]),
    (
        "methods",
        &[
            "multiclass",
            "standardise",
            "registry",
            "table",
            "picture",
            "validation",
            "reg_path",
            "learning",
        ],
    ),
    (
        "lab",
        &[
            "state",
            "link",
            "options",
            "playground",
            "examples",
            "history",
            "comparison",
        ],
    ),
    (
        "draw",
        &[
            "regions", "scene", "ahead", "inset", "svg", "sprites", "python",
        ],
    ),
    ("", &["views"]),
    ("", &["web"]),
];

/// Whether `name` is one of the layers' folders.
fn is_folder(name: &str) -> bool {
    LAYERS.iter().any(|(folder, _)| *folder == name)
}

/// A module path's folder and its module in that folder: ("core", "data") for "core::data::text",
/// ("", "views") for "views::cv".
fn placed(module: &str) -> (&str, &str) {
    let mut parts = module.split("::");
    let first = parts.next().unwrap();
    match parts.next() {
        Some(second) if is_folder(first) => (first, second),
        _ => ("", first),
    }
}

fn layer_of(module: &str) -> usize {
    let (folder, name) = placed(module);
    LAYERS
        .iter()
        .position(|(f, names)| *f == folder && names.contains(&name))
        .unwrap_or_else(|| {
            panic!("module {module} is in no layer, or not in its layer's folder: see LAYERS")
        })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "bin" {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under src/ ("solvers::svm", "views", …); `None` for lib.rs.
fn module_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix("src").unwrap().with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|p| p != "mod")
        .collect();
    (parts != ["lib"]).then(|| parts.join("::"))
}

/// The file's code before its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("#[cfg(test)]").next().unwrap().to_string()
}

/// Every `crate::a::b` path in `text`, as the longest prefix that is a module.
fn imports(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        for k in (1..=parts.len()).rev() {
            let candidate = parts[..k].join("::");
            if modules.contains(&candidate) {
                found.insert(candidate);
                break;
            }
        }
    }
    found
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .filter_map(|f| module_of(f).map(|m| (m, f.clone())))
        .filter(|(m, _)| !is_folder(m))
        .collect();
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(m, f)| {
            let mut uses = imports(&code(f), &names);
            uses.remove(m);
            // A module's own submodules are below it, not beside it.
            uses.retain(|u| !u.starts_with(&format!("{m}::")));
            (m.clone(), uses)
        })
        .collect()
}

/// Every module of the program sits in its layer's folder, and every folder is a layer's.
#[test]
fn each_module_sits_in_its_layers_folder() {
    let graph = graph();
    for module in graph.keys() {
        layer_of(module);
    }
    for entry in std::fs::read_dir("src").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && name != "bin" {
            assert!(
                is_folder(&name)
                    || LAYERS
                        .iter()
                        .any(|(f, m)| f.is_empty() && m.contains(&name.as_str())),
                "src/{name}/ is no layer's folder: see LAYERS"
            );
        }
    }
}

#[test]
fn imports_point_down_the_layers() {
    let graph = graph();
    assert!(graph.len() > 20, "found only {} modules", graph.len());
    let mut wrong = Vec::new();
    for (module, uses) in &graph {
        for used in uses {
            if layer_of(used) > layer_of(module) {
                wrong.push(format!("{module} imports {used}, a layer above it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_import_cycles() {
    let graph = graph();
    fn reaches(
        graph: &BTreeMap<String, BTreeSet<String>>,
        from: &str,
        to: &str,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        if from == to {
            return true;
        }
        if !seen.insert(from.to_string()) {
            return false;
        }
        graph[from]
            .iter()
            .any(|next| reaches(graph, next, to, seen))
    }
    let mut cycles = Vec::new();
    for (module, uses) in &graph {
        for used in uses {
            if reaches(&graph, used, module, &mut BTreeSet::new()) {
                cycles.push(format!("{module} → {used} → … → {module}"));
            }
        }
    }
    assert!(cycles.is_empty(), "{cycles:#?}");
}

/// Files of the program (not tests) where a quoted name may appear.
fn program_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    rust_files(Path::new("src/bin"), &mut files);
    for dir in ["www"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "js") {
                files.push(path);
            }
        }
    }
    files.push(PathBuf::from("index.html"));
    files
}

/// Rust code without the keyword names of scikit-learn estimators, `.arg("loss", …)` in a
/// method's counterpart (`src/core/sklearn.rs`): a keyword is scikit-learn's word (`LinearSVC`'s
/// `loss`), not the name of a method or a view.
fn without_estimator_keywords(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(".arg(\"") {
        out.push_str(&rest[..at + ".arg(".len()]);
        let name = &rest[at + ".arg(\"".len()..];
        rest = &name[name.find('"').map_or(name.len(), |end| end + 1)..];
    }
    out.push_str(rest);
    out
}

/// The files that hold `"name"` or `'name'` outside test code.
fn files_naming(name: &str) -> Vec<PathBuf> {
    program_files()
        .into_iter()
        .filter(|f| {
            let text = if f.extension().is_some_and(|e| e == "rs") {
                without_estimator_keywords(&code(f))
            } else {
                std::fs::read_to_string(f).unwrap()
            };
            text.contains(&format!("\"{name}\"")) || text.contains(&format!("'{name}'"))
        })
        .collect()
}

#[test]
fn a_method_is_named_only_in_its_own_file() {
    for method in METHODS {
        let files = files_naming(method.id());
        // Methods of different tasks may share an id (kernel ridge classifies and regresses).
        let sharing = METHODS.iter().filter(|m| m.id() == method.id()).count();
        assert_eq!(
            files.len(),
            sharing,
            "'{}' is named in {files:?}: outside its own file, use the registry",
            method.id()
        );
        assert!(
            files[0].starts_with("src/methods/solvers"),
            "'{}' is named in {:?}",
            method.id(),
            files[0]
        );
    }
}

/// (The command line's subcommands are not views: `kernel-playground roc` prints the same
/// curve's numbers, so its name may be the view's.)
#[test]
fn a_view_is_named_only_in_its_own_file() {
    for view in VIEWS {
        let files: Vec<PathBuf> = files_naming(view.id())
            .into_iter()
            .filter(|f| !f.starts_with("src/bin"))
            .collect();
        assert_eq!(files.len(), 1, "'{}' is named in {files:?}", view.id());
        assert!(files[0].starts_with("src/views"), "{:?}", files[0]);
    }
}

/// The names listed in `static NAME: … = &[ … ];` of `file`.
fn registry_entries(file: &str, list: &str) -> Vec<String> {
    let text = code(Path::new(file));
    let start = text
        .find(&format!("static {list}"))
        .expect("the registry list");
    let body = &text[start..];
    let body = &body[body.find("= &[").expect("a list") + 4..body.find("];").expect("its end")];
    body.split(',')
        .map(|e| e.trim().trim_start_matches('&').to_string())
        .filter(|e| !e.is_empty())
        .collect()
}

/// Whether `text` has `name` as a whole word.
fn has_word(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        boundary(before) && boundary(after)
    })
}

/// What adding a method touches: its file under `src/methods/solvers/` (where its registry entry is
/// defined) and its line in `src/methods/registry.rs`; nothing else in the program names the entry.
/// (Its parameter rows are found by key; see `every_model_row_is_some_methods`.)
#[test]
fn a_method_touches_its_file_and_one_registry_line() {
    let entries = registry_entries("src/methods/registry.rs", "METHODS");
    assert_eq!(entries.len(), METHODS.len());
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    rust_files(Path::new("src/bin"), &mut files);
    for entry in &entries {
        let naming: Vec<&PathBuf> = files.iter().filter(|f| has_word(&code(f), entry)).collect();
        let solver_files = naming
            .iter()
            .filter(|f| f.starts_with("src/methods/solvers"))
            .count();
        let others: Vec<_> = naming
            .iter()
            .filter(|f| {
                !f.starts_with("src/methods/solvers") && **f != Path::new("src/methods/registry.rs")
            })
            .collect();
        assert_eq!(
            solver_files, 1,
            "{entry} is defined in one solver file: {naming:?}"
        );
        assert!(others.is_empty(), "{entry} is named in {others:?}");
    }
}

/// Every parameter a method reads is a row of the table, and every model row is read by some
/// method: a method's parameters are its rows.
#[test]
fn every_model_row_is_some_methods() {
    use kernel_playground::core::params::Group;
    use kernel_playground::methods::table::rows;
    for row in rows().iter().filter(|p| p.group == Group::Model) {
        assert!(
            METHODS.iter().any(|m| m.reads().contains(&row.key)),
            "no method reads {}",
            row.key
        );
    }
}

/// Outside the methods' own files (`src/methods/solvers/`), the program asks a model what it is
/// through capabilities (`Model::kernel_expansion`, `Model::one_class`, `Method::svm_type` …),
/// never by casting it to a method's type: a view then works for every method that has what
/// it needs. The generic casts left are `Playground::model_as`, kept for tests that look
/// inside a method's own type, and `Playground::job_as`, by which a view reads back the job its
/// own kind started (a job belongs to its view, not to a method).
#[test]
fn only_a_method_casts_to_its_own_types() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    rust_files(Path::new("src/bin"), &mut files);
    let mut casts = Vec::new();
    // A module's tests (`tests.rs`, or the files of a `tests/` folder, declared under
    // `#[cfg(test)]`) may look inside.
    let test_file =
        |f: &PathBuf| f.ends_with("tests.rs") || f.components().any(|c| c.as_os_str() == "tests");
    let program = |f: &&PathBuf| !f.starts_with("src/methods/solvers") && !test_file(f);
    for file in files.iter().filter(program) {
        for line in code(file).lines() {
            let generic = line.contains("downcast_ref::<T>()")
                && (file.ends_with("playground/mod.rs") || file.ends_with("playground/jobs.rs"));
            if (line.contains("downcast_") && !generic) || line.contains("model_as::<") {
                casts.push(format!("{}: {}", file.display(), line.trim()));
            }
        }
    }
    assert!(casts.is_empty(), "{casts:#?}");
}
