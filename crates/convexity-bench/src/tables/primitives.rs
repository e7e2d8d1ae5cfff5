//! `primitives.md` from the `primitives` group (bench `tri_tri`): triangle–triangle vs
//! parry3d-f64 and the broad-phase / bounding-volume checks.

use super::{
    div, header, log_lines, per_item, quote_lines, ratio_wide, t, with_summary, Raw, Results,
};
use std::fmt::Write as _;

/// The whole `primitives.md`.
fn tri_tri_section(s: &mut String, r: &Results, log: &str, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## Triangle–triangle vs parry3d-f64\n");
    let _ = writeln!(
        s,
        "Bench `tri_tri`, groups `tri_tri-<regime>`: seeded pairs in [−1, 1]³ — overlapping, \
         near-miss (B moved to just past first separation, gap ≈ 1e-11) and disjoint (B moved \
         4 units). Each regime holds 131,072 (2¹⁷) distinct pairs cycled in batches of 1,000 \
         (the issue asks for 10⁶ random pairs; 2¹⁷ keeps memory small on the shared machine — \
         a per-pair cost, not a count-dependent one). Ours: `tri_tri_test` (boolean, exact \
         predicates) and `tri_tri` (with the intersection segment); parry: \
         `query::intersection_test` on two `Triangle`s (GJK on support maps; parry has no \
         public dedicated tri–tri test). Times per pair. Semantics differ on the near-miss \
         regime: parry answers most pairs at a gap of ≈ 1e-11 as intersecting (within its GJK \
         tolerance), ours answers exactly (see the check lines below).\n"
    );
    let _ = writeln!(
        s,
        "| regime | ours test | ours construct | parry3d-f64 | parry ÷ test | parry ÷ construct |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
    let mut tt = Vec::new();
    for reg in ["overlapping", "near-miss", "disjoint"] {
        let g = format!("tri_tri-{reg}");
        let test = per_item(r, &g, "convexity-test", 1000.0);
        let cons = per_item(r, &g, "convexity-construct", 1000.0);
        let parry = per_item(r, &g, "parry3d-f64", 1000.0);
        tt.push(format!("{reg} {}", ratio_wide(div(parry, test))));
        let _ = writeln!(
            s,
            "| {reg} | {} | {} | {} | {} | {} |",
            t(test),
            t(cons),
            t(parry),
            ratio_wide(div(parry, test)),
            ratio_wide(div(parry, cons))
        );
    }
    s.push('\n');
    quote_lines(s, &log_lines(log, &["tri-tri "]));
    summary.push(format!(
        "Tri–tri vs parry3d-f64 (parry ÷ ours test): {}",
        tt.join(", ")
    ));
}

fn broad_phase_section(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## Broad phase and bounding-volume checks\n");
    let _ = writeln!(
        s,
        "Bench `tri_tri`, group `all-pairs-10000`: 10,000 seeded AABBs (half-sizes 0.1–1) in \
         [−100, 100]³, all overlapping pairs; `posed-bound-check`: one check between two posed \
         bounds of a 64-point set (times per check).\n"
    );
    let _ = writeln!(s, "| group | method | time | ÷ first row of the group |");
    let _ = writeln!(s, "|---|---|---:|---:|");
    for (g, ms, per) in [
        (
            "all-pairs-10000",
            &["sort-and-sweep", "brute-force"][..],
            1.0,
        ),
        (
            "posed-bound-check",
            &["sphere-origin", "aabb-fast", "aabb-exact-64-vertices"][..],
            1000.0,
        ),
    ] {
        let first = per_item(r, g, ms[0], per);
        for m in ms {
            let x = per_item(r, g, m, per);
            let _ = writeln!(
                s,
                "| {g} | {m} | {} | {} |",
                t(x),
                ratio_wide(div(x, first))
            );
        }
    }
    s.push('\n');
}

pub fn table(raw: &Raw) -> String {
    let r = &raw.crit;
    let log = raw.text("primitives-bench.log");
    let mut s = header(
        "Primitives: triangle–triangle and broad phase",
        "primitives",
        raw,
        "Times are per query unless a column says otherwise. Ratios are peer ÷ ours (above 1: \
         convexity is faster). Our code and the peer run in the same bench process on the same \
         seeded inputs, one after the other.",
    );
    let mut summary = Vec::new();

    tri_tri_section(&mut s, r, &log, &mut summary);
    broad_phase_section(&mut s, r);
    with_summary(s, &summary)
}
