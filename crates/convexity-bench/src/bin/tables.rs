//! Writes `bench-results/<table>.md` from `bench-results/raw/` (see
//! [`convexity_bench::tables`]).
//!
//! Usage: `tables [--raw DIR] [--out DIR] [--import-criterion DIR] GROUP...`
//! * `GROUP`: one of `gjk`, `polyhedra`, `nd`, `lp`, `polygons`, `primitives`, `toi`, or
//!   `all` (default `all`);
//! * `--import-criterion DIR`: first export the criterion directory DIR of a run of one group
//!   to `raw/<group>-criterion.json` (exactly one GROUP);
//! * `--raw` defaults to `bench-results/raw`, `--out` to `bench-results`.
//!
//! `crates/convexity-bench/run.sh <group>` runs the group's benches and then this.

use convexity_bench::harness::Args;
use convexity_bench::tables::{group, import_criterion, write_group, Raw, GROUPS};
use std::path::PathBuf;

const USAGE: &str = "usage: tables [--raw DIR] [--out DIR] [--import-criterion DIR] \
                     [gjk|polyhedra|nd|lp|polygons|primitives|toi|all]...";

fn main() {
    let a = Args::parse(USAGE, &["raw", "out", "import-criterion"]);
    let out = PathBuf::from(a.get("out").unwrap_or("bench-results"));
    let raw_dir = a.get("raw").map_or_else(|| out.join("raw"), PathBuf::from);
    let mut groups = Vec::new();
    for name in &a.positional {
        if name == "all" {
            groups.extend(GROUPS.iter());
        } else if let Some(g) = group(name) {
            groups.push(g);
        } else {
            eprintln!("error: unknown group {name}\n\n{USAGE}");
            std::process::exit(2);
        }
    }
    if groups.is_empty() {
        groups.extend(GROUPS.iter());
    }
    if let Some(dir) = a.get("import-criterion") {
        if groups.len() != 1 {
            eprintln!("error: --import-criterion needs exactly one group\n\n{USAGE}");
            std::process::exit(2);
        }
        match import_criterion(dir.as_ref(), groups[0].name, &raw_dir) {
            Ok(0) => {
                eprintln!("error: no criterion results under {dir}");
                std::process::exit(1);
            }
            Ok(n) => eprintln!("exported {n} criterion results of {}", groups[0].name),
            Err(e) => {
                eprintln!("error: exporting {dir}: {e}");
                std::process::exit(1);
            }
        }
    }
    let raw = Raw::load(&raw_dir);
    for g in groups {
        match write_group(g, &raw, &out) {
            Ok(paths) => {
                for p in paths {
                    println!("wrote {}", p.display());
                }
            }
            Err(e) => {
                eprintln!("error: writing the {} tables: {e}", g.name);
                std::process::exit(1);
            }
        }
    }
}
