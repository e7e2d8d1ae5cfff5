//! `lp.md` from the `lp` group (benches `lp`, `halfspace`): LP feasibility vs microlp, the LP
//! on the foundation hull sets vs GJK, and the half-space methods.

use super::{
    div, header, log_lines, per_item, quote_lines, ratio_wide, t, verdict_by, with_summary, Raw,
    Results,
};
use std::fmt::Write as _;

const DIMS: [usize; 5] = [2, 5, 10, 50, 100];

/// The whole `lp.md`.
fn feasibility_section(s: &mut String, r: &Results, log: &str, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## LP feasibility: `lp::intersect` vs microlp\n");
    let _ = writeln!(
        s,
        "Bench `lp`, groups `lp-nd-d<n>-<case>`: two clouds of 1,000 points uniform in unit \
         balls, centres 3 apart (separable) or 0.5 apart (overlapping), seeded. Both solve the \
         same feasibility LP (n + 2 equality rows over λ, μ ≥ 0); building microlp's problem is \
         inside its timing, as building ours is. Target: microlp ÷ ours ≥ 5×.\n"
    );
    let _ = writeln!(s, "| d | case | lp | microlp | microlp ÷ lp | ≥ 5× |");
    let _ = writeln!(s, "|---:|---|---:|---:|---:|---|");
    let mut worst: Option<(f64, String)> = None;
    for d in DIMS {
        for case in ["separable", "overlapping"] {
            let g = format!("lp-nd-d{d}-{case}");
            let ours = per_item(r, &g, "lp", 1.0);
            let peer = per_item(r, &g, "microlp", 1.0);
            let q = div(peer, ours);
            if let Some(x) = q {
                if worst.as_ref().is_none_or(|(w, _)| x < *w) {
                    worst = Some((x, format!("d = {d} {case}")));
                }
            }
            let _ = writeln!(
                s,
                "| {d} | {case} | {} | {} | {} | {} |",
                t(ours),
                t(peer),
                ratio_wide(q),
                verdict_by(q, 5.0)
            );
        }
    }
    s.push('\n');
    summary.push(format!(
        "LP feasibility vs microlp (≥ 5×): smallest ratio {} ({})",
        ratio_wide(worst.as_ref().map(|w| w.0)),
        worst.as_ref().map_or("—", |w| w.1.as_str())
    ));
    let lp_lines: Vec<String> = log_lines(log, &["d="])
        .into_iter()
        .filter(|l| l.contains("microlp"))
        .collect();
    quote_lines(s, &lp_lines);
}

fn hull_sets_section(s: &mut String, r: &Results, log: &str) {
    let _ = writeln!(
        s,
        "## LP intersection on the foundation hull sets vs GJK boolean\n"
    );
    let _ = writeln!(
        s,
        "Bench `lp`, groups `lp-hull<n>`: the first 200 pose pairs of the foundation hull sets; \
         one iteration answers all 200 (times below are per pair). `lp` = \
         `lp::intersect_points` (production), `lp-reference` = \
         `lp::intersect_points_reference` (dense tableau, Bland's rule); both transform the \
         vertices to the world frame inside the timing. No numeric target: the LP is the \
         certified fallback, GJK the fast path.\n"
    );
    let _ = writeln!(
        s,
        "| set | GJK boolean | lp | lp-reference | lp ÷ GJK (slowdown) | reference ÷ lp |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
    for n in [8, 32, 128] {
        let g = format!("lp-hull{n}");
        let gj = per_item(r, &g, "gjk-boolean", 200.0);
        let lp = per_item(r, &g, "lp", 200.0);
        let rf = per_item(r, &g, "lp-reference", 200.0);
        let _ = writeln!(
            s,
            "| hull{n} | {} | {} | {} | {} | {} |",
            t(gj),
            t(lp),
            t(rf),
            ratio_wide(div(lp, gj)),
            ratio_wide(div(rf, lp))
        );
    }
    s.push('\n');
    quote_lines(s, &log_lines(log, &["hull8:", "hull32:", "hull128:"]));
}

fn halfspace_section(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## Half-space methods vs GJK boolean\n");
    let _ = writeln!(
        s,
        "Bench `halfspace`, group `halfspace-hull12`: 64 seeded pairs of hulls of 12 points on \
         unit spheres (≈ 20 facets), centres 0–2.5 apart (about half intersect); one iteration \
         answers all 64 (times per pair). There is no half-space peer in parry; GJK on the same \
         shapes (support by a scan of the enumerated vertices) is the reference.\n"
    );
    let _ = writeln!(s, "| method | time per pair | ÷ GJK boolean |");
    let _ = writeln!(s, "|---|---:|---:|");
    let gj = per_item(r, "halfspace-hull12", "gjk-boolean", 64.0);
    for m in [
        "seidel",
        "separating-plane",
        "fourier-motzkin",
        "gjk-boolean",
    ] {
        let x = per_item(r, "halfspace-hull12", m, 64.0);
        let _ = writeln!(s, "| {m} | {} | {} |", t(x), ratio_wide(div(x, gj)));
    }
    s.push('\n');
}

pub fn table(raw: &Raw) -> String {
    let r = &raw.crit;
    let log = raw.text("lp-bench.log");
    let mut s = header(
        "LP: feasibility vs microlp, hull sets vs GJK, half-space methods",
        "lp",
        raw,
        "Times are per query unless a column says otherwise. Ratios are peer ÷ ours (above 1: \
         convexity is faster). Our code and the peer run in the same bench process on the same \
         seeded inputs, one after the other.",
    );
    let mut summary = Vec::new();

    feasibility_section(&mut s, r, &log, &mut summary);
    hull_sets_section(&mut s, r, &log);
    halfspace_section(&mut s, r);
    with_summary(s, &summary)
}
