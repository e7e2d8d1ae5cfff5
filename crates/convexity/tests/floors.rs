//! The floor plan of `crates/convexity/src` (ARCHITECTURE.md), enforced: every `crate::X`
//! reference outside test modules names a top-level module on a strictly lower floor or the
//! same module, the top-level import graph has no cycle, and `lib.rs` declares at most twelve
//! top-level modules.
//!
//! The check reads the source text: comments are skipped, and each file is cut at its trailing
//! `#[cfg(test)]` module (test code may reach any floor).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, lowest first. A module may import only from floors below its own.
const FLOORS: &[(&str, u32)] = &[
    ("error", 0),
    ("verdict", 0),
    ("math", 1),
    ("shape", 2),
    ("primitives", 2),
    ("gjk", 3),
    ("nd", 3),
    ("hull", 4),
    ("toi", 4),
    ("polytope", 5),
    ("lp", 5),
    ("query", 6),
];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`None` for lib.rs).
fn top_module(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src_dir()).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    if first == "lib.rs" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

/// Top-level modules named by `crate::X` in the non-test, non-comment code of `text`.
fn crate_references(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.insert(name);
            }
            rest = after;
        }
    }
    out
}

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let Some(module) = top_module(&f) else {
            continue;
        };
        let text = fs::read_to_string(&f).expect("source is readable");
        let refs = crate_references(&text);
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(refs.into_iter().filter(|r| *r != module));
    }
    graph
}

fn floor_of(module: &str) -> u32 {
    FLOORS
        .iter()
        .find(|(m, _)| *m == module)
        .map(|&(_, f)| f)
        .unwrap_or_else(|| panic!("module `{module}` has no floor in FLOORS (and ARCHITECTURE.md)"))
}

#[test]
fn every_import_goes_to_a_lower_floor() {
    let graph = import_graph();
    let mut violations = Vec::new();
    for (module, deps) in &graph {
        for dep in deps {
            if floor_of(dep) >= floor_of(module) {
                violations.push(format!(
                    "{module} (floor {}) imports {dep} (floor {})",
                    floor_of(module),
                    floor_of(dep)
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "floor violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_top_level_import_graph_has_no_cycle() {
    let graph = import_graph();
    // Kahn's algorithm: a cycle leaves nodes that never reach in-degree zero.
    let mut remaining = graph.clone();
    loop {
        let free: Vec<String> = remaining
            .iter()
            .filter(|(_, deps)| deps.iter().all(|d| !remaining.contains_key(d)))
            .map(|(m, _)| m.clone())
            .collect();
        if free.is_empty() {
            break;
        }
        for m in free {
            remaining.remove(&m);
        }
    }
    assert!(
        remaining.is_empty(),
        "modules on a cycle: {:?}",
        remaining.keys()
    );
}

#[test]
fn lib_declares_at_most_twelve_modules_each_with_a_floor() {
    let lib = fs::read_to_string(src_dir().join("lib.rs")).expect("lib.rs is readable");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(
        declared.len() <= 12,
        "{} top-level modules: {declared:?}",
        declared.len()
    );
    for m in &declared {
        floor_of(m);
    }
    assert_eq!(
        declared.len(),
        FLOORS.len(),
        "FLOORS lists a module lib.rs does not declare"
    );
}

#[test]
fn the_checker_sees_references_and_skips_comments_and_tests() {
    let text = "use crate::gjk::Options;\n// crate::query in a comment\nlet x = crate::math::slice::dot(a, b); // crate::lp\n#[cfg(test)]\nmod tests { use crate::query; }\n";
    let refs: Vec<String> = crate_references(text).into_iter().collect();
    assert_eq!(refs, vec!["gjk".to_string(), "math".to_string()]);
}
