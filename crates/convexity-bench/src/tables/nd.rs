//! `nd.md` from the `nd` group (bench `nd`): n-D distance vs clarabel, and PSO / exterior
//! penalty vs `distance_n` (`raw/nd-pso.json`).

use super::{
    after, div, header, log_lines, per_item, quote_lines, ratio_wide, sci, t, verdict_by,
    with_summary, Raw, Results,
};
use serde_json::Value;
use std::fmt::Write as _;

const DIMS: [usize; 5] = [2, 5, 10, 50, 100];

/// One line per method over all sets of the PSO table: success counts and the time range
/// relative to `distance_n`.
fn pso_summary(sets: &[Value]) -> String {
    let mut parts = Vec::new();
    for m in ["pso-raw", "pso-polished", "penalty"] {
        let (mut ok6, mut ok2, mut n) = (0, 0, 0);
        let mut lo = f64::INFINITY;
        let mut hi = 0.0f64;
        for set in sets {
            let rows = set["rows"].as_array().cloned().unwrap_or_default();
            let base = rows
                .iter()
                .find(|r| r["method"] == "distance_n")
                .and_then(|r| r["median_time_s"].as_f64());
            let Some(row) = rows.iter().find(|r| r["method"] == m) else {
                continue;
            };
            n += row["cases"].as_u64().unwrap_or(0);
            ok6 += row["success_1e-6"].as_u64().unwrap_or(0);
            ok2 += row["success_1e-2_scale"].as_u64().unwrap_or(0);
            if let Some(q) = div(row["median_time_s"].as_f64(), base) {
                lo = lo.min(q);
                hi = hi.max(q);
            }
        }
        parts.push(format!(
            "{m}: error ≤ 1e-6 in {ok6}/{n}, ≤ 1e-2·scale in {ok2}/{n}, median time {}–{} of \
             distance_n",
            ratio_wide(Some(lo).filter(|x| x.is_finite())),
            ratio_wide(Some(hi).filter(|x| *x > 0.0))
        ));
    }
    format!(
        "PSO / penalty vs distance_n (report only): {}",
        parts.join("; ")
    )
}

/// The whole `nd.md`.
fn distance_section(s: &mut String, r: &Results, log: &str, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## n-D distance: `nd::gjk::distance_n` vs clarabel\n");
    let _ = writeln!(
        s,
        "Bench `nd`, groups `nd-<sep|ovl>-d<n>`: two Gaussian clouds of 1,000 points each, \
         separable (centres 2√n + 8 apart) or overlapping (centres 0.5 apart), seeded. clarabel \
         = the test kit's SOCP oracle `hull_distance_with` (interior point + polish). \
         `|Δ|/scale` is |d_ours − d_clarabel| / scale from the untimed check before timing. \
         Target: clarabel ÷ ours ≥ 20× at equal accuracy (here: |Δ|/scale ≤ 1e-6).\n"
    );
    let _ = writeln!(
        s,
        "| d | case | distance_n | clarabel | clarabel ÷ ours | \\|Δ\\|/scale | ≥ 20× |"
    );
    let _ = writeln!(s, "|---:|---|---:|---:|---:|---:|---|");
    let mut worst: Option<(f64, String)> = None;
    let mut worst_acc: Option<f64> = None;
    for d in DIMS {
        for case in ["sep", "ovl"] {
            let g = format!("nd-{case}-d{d}");
            let ours = per_item(r, &g, "distance_n", 1.0);
            let peer = per_item(r, &g, "clarabel", 1.0);
            let q = div(peer, ours);
            let prefix = format!("nd d={d} {case}:");
            let acc = log_lines(log, &[&prefix])
                .first()
                .and_then(|l| after(l, "|diff|/scale ").and_then(|v| v.parse::<f64>().ok()));
            if let Some(e) = acc {
                worst_acc = Some(worst_acc.map_or(e, |w: f64| w.max(e)));
            }
            let equal = acc.map(|e| e <= 1e-6);
            let v = match (q, equal) {
                (Some(_), Some(false)) => "**missed** (accuracy)".to_string(),
                _ => verdict_by(q, 20.0),
            };
            if let Some(x) = q {
                if worst.as_ref().is_none_or(|(w, _)| x < *w) {
                    worst = Some((x, format!("d = {d} {case}")));
                }
            }
            let _ = writeln!(
                s,
                "| {d} | {} | {} | {} | {} | {} | {v} |",
                if case == "sep" {
                    "separable"
                } else {
                    "overlapping"
                },
                t(ours),
                t(peer),
                ratio_wide(q),
                sci(acc)
            );
        }
    }
    s.push('\n');
    summary.push(format!(
        "n-D distance vs clarabel (≥ 20× at equal accuracy): smallest ratio {} ({}); largest \
         |Δ|/scale {}",
        ratio_wide(worst.as_ref().map(|w| w.0)),
        worst.as_ref().map_or("—", |w| w.1.as_str()),
        sci(worst_acc)
    ));
    quote_lines(s, &log_lines(log, &["nd d="]));
}

fn pso_section(s: &mut String, pso: Option<&Value>, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## PSO and exterior penalty vs `distance_n` (GJK)\n");
    let _ = writeln!(
        s,
        "Bench `nd`, untimed by criterion (`raw/nd-pso.json`): each method runs once per seed, \
         timed with `Instant` in the same process, on the two published tetrahedron pairs (B1 \
         touching, B2 at distance 1) and on random pairs of 8–16-point Gaussian clouds in 3 \
         and 10 dimensions (centres 0–6 apart). Errors are |d − d_distance_n|; success = error \
         ≤ 1e-6 (absolute) and ≤ 1e-2·scale (scale = sum of the two sets' sizes). Times are \
         medians over the seeds. For the LP on these sets see the boolean tables above (the LP \
         answers intersection, not distance).\n"
    );
    match pso.and_then(Value::as_array) {
        None => {
            let _ = writeln!(
                s,
                "(raw/nd-pso.json not found: the PSO table was not run)\n"
            );
        }
        Some(sets) => {
            let _ = writeln!(
                s,
                "| set | method | cases | median time | ÷ distance_n | median error | max \
                 error | error ≤ 1e-6 | error ≤ 1e-2·scale |"
            );
            let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
            summary.push(pso_summary(sets));
            for set in sets {
                let name = set["set"].as_str().unwrap_or("?");
                let rows = set["rows"].as_array().cloned().unwrap_or_default();
                let base = rows
                    .iter()
                    .find(|r| r["method"] == "distance_n")
                    .and_then(|r| r["median_time_s"].as_f64());
                for row in &rows {
                    let n = row["cases"].as_u64().unwrap_or(0);
                    let tm = row["median_time_s"].as_f64();
                    let pct = |k: &str| {
                        let v = row[k].as_u64().unwrap_or(0);
                        format!("{v}/{n} ({:.0} %)", 100.0 * v as f64 / n.max(1) as f64)
                    };
                    let _ = writeln!(
                        s,
                        "| {name} | {} | {n} | {} | {} | {} | {} | {} | {} |",
                        row["method"].as_str().unwrap_or("?"),
                        t(tm.map(|x| x * 1e9)),
                        ratio_wide(div(tm, base)),
                        sci(row["median_error"].as_f64()),
                        sci(row["max_error"].as_f64()),
                        pct("success_1e-6"),
                        pct("success_1e-2_scale"),
                    );
                }
            }
            s.push('\n');
        }
    }
}

pub fn table(raw: &Raw) -> String {
    let r = &raw.crit;
    let log = raw.text("nd-bench.log");
    let pso = raw.get("nd-pso");
    let mut s = header(
        "n-D: distance vs clarabel, PSO and penalty",
        "nd",
        raw,
        "Times are per query unless a column says otherwise. Ratios are peer ÷ ours (above 1: \
         convexity is faster). Our code and the peer run in the same bench process on the same \
         seeded inputs, one after the other.",
    );
    let mut summary = Vec::new();

    distance_section(&mut s, r, &log, &mut summary);
    pso_section(&mut s, pso, &mut summary);
    with_summary(s, &summary)
}
