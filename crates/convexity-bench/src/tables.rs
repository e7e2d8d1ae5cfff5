//! Reading criterion's results and formatting them, shared by the table generators
//! (`bench_table`, `issue3_table`, `issue_tables`).
//!
//! [`read_criterion`] walks a criterion output directory and collects, for every
//! `<group>/<function>/new/` pair of `benchmark.json` and `estimates.json`, the median point
//! estimate divided by the benchmark's throughput in elements (1 when it declares none): the
//! time per query or per call, in ns.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// (group, function) → median ns per element.
pub type Results = BTreeMap<(String, String), f64>;

/// Every benchmark's median ns per element under `dir` (missing or unreadable files are
/// skipped).
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
            let elements = b["throughput"]["Elements"].as_f64().unwrap_or(1.0);
            let (Some(group), Some(median)) = (
                b["group_id"].as_str(),
                est["median"]["point_estimate"].as_f64(),
            ) else {
                continue;
            };
            let function = b["function_id"].as_str().unwrap_or("").to_string();
            out.insert((group.to_string(), function), median / elements);
        } else {
            collect(&p, out);
        }
    }
}

/// A JSON file, or `None` if it is missing or malformed.
pub fn read_json(p: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
}

pub fn get(r: &Results, group: &str, function: &str) -> Option<f64> {
    r.get(&(group.to_string(), function.to_string())).copied()
}

/// A time in ns (µs above 10 000 ns).
pub fn ns(x: Option<f64>) -> String {
    match x {
        Some(v) if v >= 10_000.0 => format!("{:.1} µs", v / 1000.0),
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
        None => "—".into(),
    }
}

pub fn ratio(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.2}×"))
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
