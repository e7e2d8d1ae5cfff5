//! The one table generator: writes `bench-results/<table>.md` from `bench-results/raw/` only.
//!
//! A bench group ([`GROUPS`]) is a set of criterion benches run together by
//! `crates/convexity-bench/run.sh <group>`, which leaves in `bench-results/raw/`:
//! * `<group>-criterion.json`: every criterion benchmark of the run as
//!   `{group, function, median_ns, elements}` (criterion's median point estimate per iteration
//!   and the declared throughput), exported by [`import_criterion`] right after the run, so
//!   the tables never need criterion's own directory again;
//! * `<group>-run.txt`: four lines, the library measured (commit), the date, the exact command
//!   and the machine;
//! * `<group>-bench.log`: the benches' output (some tables quote its untimed agreement lines);
//! * `<group>-*.json`: untimed statistics and interleaved timings the benches wrote.
//!
//! Each table module turns those into one or two Markdown files named by what they measure
//! (`gjk.md`, `support.md`, `polyhedra.md`, `nd.md`, `lp.md`, `polygons.md`,
//! `primitives.md`, `toi.md`), each carrying the command that produced its numbers.

pub mod gjk;
pub mod lp;
pub mod nd;
pub mod polygons;
pub mod polyhedra;
pub mod primitives;
pub mod toi;

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A bench group: its name, the criterion benches it runs, and the tables it writes.
pub struct Group {
    pub name: &'static str,
    pub benches: &'static [&'static str],
    pub tables: &'static [&'static str],
}

/// Every bench group, in the order `run.sh all` runs them.
pub const GROUPS: [Group; 7] = [
    Group {
        name: "gjk",
        benches: &["gjk", "support", "warm_start"],
        tables: &["gjk.md", "support.md"],
    },
    Group {
        name: "polyhedra",
        benches: &["polyhedron_support", "gjk_polyhedron", "contact"],
        tables: &["polyhedra.md"],
    },
    Group {
        name: "nd",
        benches: &["nd"],
        tables: &["nd.md"],
    },
    Group {
        name: "lp",
        benches: &["lp", "halfspace"],
        tables: &["lp.md"],
    },
    Group {
        name: "polygons",
        benches: &["polygon"],
        tables: &["polygons.md"],
    },
    Group {
        name: "primitives",
        benches: &["tri_tri"],
        tables: &["primitives.md"],
    },
    Group {
        name: "toi",
        benches: &["toi"],
        tables: &["toi.md"],
    },
];

/// The group called `name`.
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// One criterion benchmark: median ns per iteration and the declared throughput elements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Est {
    pub median_ns: f64,
    pub elements: Option<f64>,
}

/// (group id, function id) → estimate.
pub type Results = BTreeMap<(String, String), Est>;

/// Every benchmark under a criterion output directory (missing or unreadable files skipped).
pub fn read_criterion(dir: &Path) -> Results {
    let mut out = Results::new();
    collect(dir, &mut out);
    out
}

fn collect(dir: &Path, out: &mut Results) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if !p.is_dir() {
            continue;
        }
        if p.file_name().is_some_and(|n| n == "new") {
            let (Some(b), Some(est)) = (
                read_json(&p.join("benchmark.json")),
                read_json(&p.join("estimates.json")),
            ) else {
                continue;
            };
            let (Some(group), Some(median)) = (
                b["group_id"].as_str(),
                est["median"]["point_estimate"].as_f64(),
            ) else {
                continue;
            };
            let function = b["function_id"].as_str().unwrap_or("").to_string();
            out.insert(
                (group.to_string(), function),
                Est {
                    median_ns: median,
                    elements: b["throughput"]["Elements"].as_f64(),
                },
            );
        } else {
            collect(&p, out);
        }
    }
}

/// Exports a criterion directory to `raw/<group>-criterion.json`; returns the number of
/// benchmarks written.
pub fn import_criterion(criterion: &Path, group: &str, raw: &Path) -> std::io::Result<usize> {
    let r = read_criterion(criterion);
    let results: Vec<Value> = r
        .iter()
        .map(|((g, f), e)| {
            serde_json::json!({
                "group": g, "function": f, "median_ns": e.median_ns, "elements": e.elements,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "source": format!("criterion's new/estimates.json medians under {}", criterion.display()),
        "results": results,
    });
    std::fs::create_dir_all(raw)?;
    let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::other)?;
    std::fs::write(raw.join(format!("{group}-criterion.json")), text + "\n")?;
    Ok(r.len())
}

/// The run record `raw/<group>-run.txt`.
#[derive(Clone, Debug)]
pub struct Run {
    pub commit: String,
    pub date: String,
    pub command: String,
    pub machine: String,
}

/// Everything the tables read: `bench-results/raw/`.
pub struct Raw {
    pub dir: PathBuf,
    /// Criterion medians of every group.
    pub crit: Results,
    /// `source` of each group's criterion export.
    pub crit_source: BTreeMap<String, String>,
    /// Every other `*.json` by file stem.
    pub json: BTreeMap<String, Value>,
}

impl Raw {
    /// Reads `dir` (missing files are simply absent).
    pub fn load(dir: &Path) -> Raw {
        let mut raw = Raw {
            dir: dir.to_path_buf(),
            crit: Results::new(),
            crit_source: BTreeMap::new(),
            json: BTreeMap::new(),
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return raw;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let (Some(stem), Some(v)) = (p.file_stem(), read_json(&p)) else {
                continue;
            };
            let stem = stem.to_string_lossy().into_owned();
            match stem.strip_suffix("-criterion") {
                Some(g) => {
                    for r in v["results"].as_array().into_iter().flatten() {
                        let (Some(gid), Some(f), Some(m)) = (
                            r["group"].as_str(),
                            r["function"].as_str(),
                            r["median_ns"].as_f64(),
                        ) else {
                            continue;
                        };
                        raw.crit.insert(
                            (gid.to_string(), f.to_string()),
                            Est {
                                median_ns: m,
                                elements: r["elements"].as_f64(),
                            },
                        );
                    }
                    let src = v["source"].as_str().unwrap_or("(not recorded)");
                    raw.crit_source.insert(g.to_string(), src.to_string());
                }
                None => {
                    raw.json.insert(stem, v);
                }
            }
        }
        raw
    }

    /// The raw JSON file `<stem>.json`.
    pub fn get(&self, stem: &str) -> Option<&Value> {
        self.json.get(stem)
    }

    /// The run record of a group.
    pub fn run(&self, group: &str) -> Run {
        let text = std::fs::read_to_string(self.dir.join(format!("{group}-run.txt")));
        let lines: Vec<String> = text
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let line = |i: usize| {
            lines
                .get(i)
                .cloned()
                .unwrap_or_else(|| "(not recorded)".into())
        };
        Run {
            commit: line(0),
            date: line(1),
            command: line(2),
            machine: line(3),
        }
    }

    /// A text file of the raw directory (empty when missing).
    pub fn text(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir.join(file)).unwrap_or_default()
    }
}

/// Writes the tables of `group` into `out`; returns the paths written.
pub fn write_group(group: &Group, raw: &Raw, out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let files: Vec<(&str, String)> = match group.name {
        "gjk" => vec![
            ("gjk.md", gjk::gjk_md(raw)),
            ("support.md", gjk::support_md(raw)),
        ],
        "polyhedra" => vec![("polyhedra.md", polyhedra::table(raw))],
        "nd" => vec![("nd.md", nd::table(raw))],
        "lp" => vec![("lp.md", lp::table(raw))],
        "polygons" => vec![("polygons.md", polygons::table(raw))],
        "primitives" => vec![("primitives.md", primitives::table(raw))],
        "toi" => vec![("toi.md", toi::table(raw))],
        _ => vec![],
    };
    std::fs::create_dir_all(out)?;
    let mut written = Vec::new();
    for (name, text) in files {
        let p = out.join(name);
        std::fs::write(&p, text)?;
        written.push(p);
    }
    Ok(written)
}

/// The opening of every table: title, provenance, machine, date, library, command.
pub fn header(title: &str, group: &str, raw: &Raw, about: &str) -> String {
    let run = raw.run(group);
    let benches = self::group(group).map_or(String::new(), |g| {
        g.benches
            .iter()
            .map(|b| format!("`{b}`"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let mut s = String::new();
    let _ = writeln!(s, "# {title}\n");
    let _ = writeln!(
        s,
        "Generated by `crates/convexity-bench/src/bin/tables.rs` from `bench-results/raw/` \
         only: criterion's median estimates of the benches {benches} \
         (`crates/convexity-bench/benches/`; `raw/{group}-criterion.json`) divided by the \
         number of queries per iteration, and the untimed statistics and interleaved timings \
         the benches wrote (`raw/{group}-*.json`, `raw/{group}-bench.log`). {about}\n"
    );
    let _ = writeln!(s, "* Machine: {}", run.machine);
    let _ = writeln!(s, "* Date: {}", run.date);
    let _ = writeln!(s, "* Library measured: {}", run.commit);
    let _ = writeln!(s, "* Command: `{}`", run.command);
    let _ = writeln!(
        s,
        "* Tables regenerated from the raw results with: \
         `crates/convexity-bench/run.sh --tables {group}`"
    );
    if let Some(src) = raw.crit_source.get(group) {
        let _ = writeln!(s, "* Criterion medians: {src}");
    }
    let _ = writeln!(
        s,
        "* The 2 cores are shared with other jobs (compilers, other benchmark runs): absolute \
         times can be off by tens of percent; ratios within one run, and the interleaved \
         ratios above all, are the numbers to trust.\n"
    );
    s
}

/// A JSON file, or `None` if it is missing or malformed.
pub fn read_json(p: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
}

/// Median ns per element (per iteration when the bench declares no throughput).
pub fn get(r: &Results, group: &str, function: &str) -> Option<f64> {
    per_item(r, group, function, 1.0)
}

/// Median ns per element, or per iteration divided by `per` when the bench declares no
/// throughput.
pub fn per_item(r: &Results, group: &str, function: &str, per: f64) -> Option<f64> {
    let e = r.get(&(group.to_string(), function.to_string()))?;
    Some(e.median_ns / e.elements.unwrap_or(per))
}

/// The declared throughput elements of a benchmark.
pub fn elements(r: &Results, group: &str, function: &str) -> Option<f64> {
    r.get(&(group.to_string(), function.to_string()))?.elements
}

/// A time in ns without unit (µs above 10 000 ns): the GJK-family tables.
pub fn ns(x: Option<f64>) -> String {
    match x {
        Some(v) if v >= 10_000.0 => format!("{:.1} µs", v / 1000.0),
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
        None => "—".into(),
    }
}

/// A time with a unit that keeps 3 significant digits readable: the n-D, LP, polygon,
/// primitive and TOI tables.
pub fn t(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(v) if v >= 1e9 => format!("{:.2} s", v / 1e9),
        Some(v) if v >= 1e6 => format!("{:.2} ms", v / 1e6),
        Some(v) if v >= 1e4 => format!("{:.1} µs", v / 1e3),
        Some(v) if v >= 100.0 => format!("{v:.0} ns"),
        Some(v) => format!("{v:.1} ns"),
    }
}

/// A ratio with two decimals.
pub fn ratio(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.2}×"))
}

/// A ratio with fewer decimals as it grows (ratios spanning several orders of magnitude).
pub fn ratio_wide(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(v) if v >= 100.0 => format!("{v:.0}×"),
        Some(v) if v >= 10.0 => format!("{v:.1}×"),
        Some(v) => format!("{v:.2}×"),
    }
}

pub fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or("—".into(), |v| format!("{v:.digits$}"))
}

pub fn sci(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.1e}"))
}

pub fn div(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b?)
}

/// "met" / "**missed**" / "—" for a ratio against a goal.
pub fn verdict(r: Option<f64>, goal: f64) -> &'static str {
    match r {
        Some(v) if v >= goal => "met",
        Some(_) => "**missed**",
        None => "—",
    }
}

/// "met" / "**missed** (needs k× more)" / "not measured" for a ratio against a goal.
pub fn verdict_by(r: Option<f64>, goal: f64) -> String {
    match r {
        Some(v) if v >= goal => "met".into(),
        Some(v) => format!("**missed** (needs {:.1}× more)", goal / v),
        None => "not measured".into(),
    }
}

/// The CPU model from `/proc/cpuinfo`, or "unknown".
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// "N cores (nproc), CPU: model" of this machine.
pub fn machine() -> String {
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{nproc} cores (nproc), CPU: {}", cpu_model())
}

/// Lines of the log starting with any of `prefixes` (the benches' untimed agreement output).
pub fn log_lines(log: &str, prefixes: &[&str]) -> Vec<String> {
    log.lines()
        .map(str::trim)
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        // Criterion's own lines start with `group/function`.
        .filter(|l| !l.split_whitespace().next().unwrap_or("").contains('/'))
        .map(str::to_string)
        .collect()
}

/// The lines in a fenced block (or a note that none were found).
pub fn quote_lines(s: &mut String, lines: &[String]) {
    if lines.is_empty() {
        let _ = writeln!(s, "(no agreement lines found in the log)\n");
        return;
    }
    let _ = writeln!(s, "```");
    for l in lines {
        let _ = writeln!(s, "{l}");
    }
    let _ = writeln!(s, "```\n");
}

/// The value after `key` in a log line, up to the next space (e.g. `"|diff|/scale "`).
pub fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let i = line.find(key)? + key.len();
    line[i..].split_whitespace().next()
}

/// Puts `## Summary` with `lines` right after the header bullets (before the first `## `).
pub fn with_summary(s: String, lines: &[String]) -> String {
    let mut block = String::new();
    let _ = writeln!(block, "## Summary\n");
    for l in lines {
        let _ = writeln!(block, "* {l}");
    }
    block.push('\n');
    match s.find("\n## ") {
        Some(i) => format!("{}\n{}{}", &s[..i], block, &s[i + 1..]),
        None => s + &block,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every committed table is exactly what the generator makes of the committed raw
    /// results: nothing in `bench-results/*.md` depends on anything but `bench-results/raw`.
    #[test]
    fn committed_tables_regenerate_from_raw_exactly() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results");
        let raw = Raw::load(&root.join("raw"));
        let out = std::env::temp_dir().join(format!("convexity-tables-{}", std::process::id()));
        let mut checked = 0;
        for g in &GROUPS {
            for p in write_group(g, &raw, &out).expect("write tables") {
                let name = p.file_name().expect("file name");
                let committed = std::fs::read_to_string(root.join(name)).expect("committed table");
                let fresh = std::fs::read_to_string(&p).expect("fresh table");
                assert!(fresh == committed, "{name:?} differs from its regeneration");
                checked += 1;
            }
        }
        let _ = std::fs::remove_dir_all(&out);
        assert_eq!(checked, 8);
    }

    #[test]
    fn formats_keep_their_units() {
        assert_eq!(ns(Some(12_345.0)), "12.3 µs");
        assert_eq!(ns(Some(345.4)), "345");
        assert_eq!(t(Some(2.5e6)), "2.50 ms");
        assert_eq!(ratio_wide(Some(123.4)), "123×");
        assert_eq!(verdict(Some(1.9), 2.0), "**missed**");
        assert_eq!(verdict_by(Some(1.0), 2.0), "**missed** (needs 2.0× more)");
    }
}
