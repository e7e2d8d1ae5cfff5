//! `polygons.md` from the `polygons` group (bench `polygon`): point in polygon (batches and
//! single points) vs geo, and segment intersection.

use super::{
    div, elements, header, log_lines, per_item, quote_lines, ratio_wide, t, verdict_by,
    with_summary, Raw, Results,
};
use std::fmt::Write as _;

const SIZES: [usize; 5] = [10, 100, 1000, 10_000, 100_000];

/// The whole `polygons.md`.
fn batch_section(s: &mut String, r: &Results, separate: Option<&str>, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## Point in polygon: batch of 1,000,000 points vs geo\n");
    let _ = writeln!(
        s,
        "Bench `polygon`, groups `pip-batch-<shape>-<n>`: points uniform in the bounding box \
         [−1.05, 1.05]²; convex = regular n-gon, concave = star with random radii in [0.5, 1]. \
         Ours: `PolygonLocator::new` + `locate_batch` on all 1,000,000 points, the build \
         included. geo: `Intersects<Point>` per point on the first min(10⁶, 2·10⁸ / n) points of \
         the same batch (column `geo points`). Times are per point. Target: geo ÷ ours ≥ 2×.\n"
    );
    let _ = writeln!(
        s,
        "| shape | n | ours (slabs, build incl.) | geo | geo points | geo ÷ ours | ≥ 2× |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---|");
    let mut missed = Vec::new();
    let mut not_measured = Vec::new();
    let mut range: Option<(f64, f64)> = None;
    for shape in ["convex", "concave"] {
        for n in SIZES {
            let g = format!("pip-batch-{shape}-{n}");
            let ours = per_item(r, &g, "ours-slabs", 1e6);
            let geo = per_item(r, &g, "geo-intersects", 1.0);
            let q = div(geo, ours);
            match q {
                Some(x) => {
                    range = Some(range.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
                    if x < 2.0 {
                        missed.push(format!("{shape} n = {n}: {}", ratio_wide(q)));
                    }
                }
                None => not_measured.push(format!("{shape} n = {n}")),
            }
            let v = if q.is_none() {
                "not measured (see note)".to_string()
            } else {
                verdict_by(q, 2.0)
            };
            let _ = writeln!(
                s,
                "| {shape} | {n} | {} | {} | {} | {} | {v} |",
                t(ours),
                t(geo),
                elements(r, &g, "geo-intersects").map_or("—".into(), |e| format!("{e:.0}")),
                ratio_wide(q)
            );
        }
    }
    s.push('\n');
    if let Some(first) = separate.and_then(|l| l.lines().next()) {
        if r.contains_key(&(
            "pip-batch-concave-100000".to_string(),
            "ours-slabs".to_string(),
        )) {
            let _ = writeln!(
                s,
                "The concave n = 100,000 row was measured separately, right after the main run \
                 (ours and geo in that same run): `{}` (log: `raw/polygons-concave100k.log`).\n",
                first.trim_start_matches("# ")
            );
        }
    }
    if !not_measured.is_empty() {
        let _ = writeln!(
            s,
            "Not measured in this run: {}. The run skips the concave batches above \
             `BENCH_CONCAVE_BATCH_MAX_N` (10,000 by default): on the random star every slab \
             holds O(n) edges (the weak case stated in `polygon/point_in_polygon.rs`), so one \
             iteration over 10⁶ points at n = 100,000 costs of the order of a minute and the \
             10-sample group alone would exceed the run's budget.\n",
            not_measured.join(", ")
        );
        for m in &not_measured {
            let Some((shape, n)) = m.split_once(" n = ") else {
                continue;
            };
            let g = format!("pip-one-{shape}-{n}");
            let slabs = per_item(r, &g, "ours-slabs", 64.0);
            let geo = per_item(r, &g, "geo-intersects", 64.0);
            let _ = writeln!(
                s,
                "Indication for {m} from the single-point groups (same locator, build excluded; \
                 64 points): ours slabs {} per point, geo {} per point, geo ÷ ours {}.\n",
                t(slabs),
                t(geo),
                ratio_wide(div(geo, slabs))
            );
        }
    }
    summary.push(format!(
        "Point in polygon, batch of 10⁶ vs geo (≥ 2×): geo ÷ ours from {} to {}; missed: {}{}",
        ratio_wide(range.map(|x| x.0)),
        ratio_wide(range.map(|x| x.1)),
        if missed.is_empty() {
            "none".to_string()
        } else {
            missed.join(", ")
        },
        if not_measured.is_empty() {
            String::new()
        } else {
            format!("; not measured: {}", not_measured.join(", "))
        }
    ));
}

fn single_point_section(s: &mut String, r: &Results, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## Point in polygon: one point at a time vs geo\n");
    let _ = writeln!(
        s,
        "Bench `polygon`, groups `pip-one-<shape>-<n>`: 64 fixed query points per iteration \
         (times per point). Ours: `Polygon::locate` (O(n) scan; n ≤ 10,000 only), \
         `ConvexPolygonLocator::locate` (O(log n), convex only), `PolygonLocator::locate` (slabs; \
         build not timed). geo: `Intersects<Point>` for `Polygon`. The ≥ 2× target of the issue \
         is stated for batches; the ratio of the fastest of ours is shown for reference.\n"
    );
    let _ = writeln!(
        s,
        "| shape | n | ours scan | ours convex O(log n) | ours slabs | geo | geo ÷ scan | geo ÷ \
         fastest ours |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut one: Option<(f64, f64)> = None;
    for shape in ["convex", "concave"] {
        for n in SIZES {
            let g = format!("pip-one-{shape}-{n}");
            let scan = per_item(r, &g, "ours-scan", 64.0);
            let log_n = per_item(r, &g, "ours-convex-log", 64.0);
            let slabs = per_item(r, &g, "ours-slabs", 64.0);
            let geo = per_item(r, &g, "geo-intersects", 64.0);
            let best = [scan, log_n, slabs].into_iter().flatten().reduce(f64::min);
            if let Some(x) = div(geo, best) {
                one = Some(one.map_or((x, x), |(lo, hi): (f64, f64)| (lo.min(x), hi.max(x))));
            }
            let _ = writeln!(
                s,
                "| {shape} | {n} | {} | {} | {} | {} | {} | {} |",
                t(scan),
                t(log_n),
                t(slabs),
                t(geo),
                ratio_wide(div(geo, scan)),
                ratio_wide(div(geo, best))
            );
        }
    }
    s.push('\n');

    summary.push(format!(
        "Point in polygon, one point at a time (target stated for batches; for reference): geo \
         ÷ fastest ours from {} to {}",
        ratio_wide(one.map(|x| x.0)),
        ratio_wide(one.map(|x| x.1))
    ));
}

fn segments_section(s: &mut String, r: &Results, log: &str, summary: &mut Vec<String>) {
    let _ = writeln!(
        s,
        "## Segment intersection: two polylines of 10,000 segments each\n"
    );
    let _ = writeln!(
        s,
        "Bench `polygon`, group `segments-walks-10000`: two seeded random walks (steps up to \
         0.02, wrapped in the unit square). Ours: the grid sweep `polyline_intersections` and \
         the double loop `polyline_intersections_brute` (identical outputs, asserted before \
         timing); geo: `sweep::Intersections` over all 20,000 segments, filtered to A–B pairs \
         (its cost includes finding the pairs within one polyline). Time per call (all \
         intersections of the two polylines). No numeric target.\n"
    );
    let g = "segments-walks-10000";
    let sweep = per_item(r, g, "ours-grid-sweep", 1.0);
    let brute = per_item(r, g, "ours-double-loop", 1.0);
    let geo = per_item(r, g, "geo-sweep", 1.0);
    let _ = writeln!(s, "| method | time per call | ÷ ours grid sweep |");
    let _ = writeln!(s, "|---|---:|---:|");
    for (m, x) in [
        ("ours grid sweep", sweep),
        ("ours double loop", brute),
        ("geo sweep", geo),
    ] {
        let _ = writeln!(s, "| {m} | {} | {} |", t(x), ratio_wide(div(x, sweep)));
    }
    s.push('\n');
    quote_lines(s, &log_lines(log, &["segments-walks-"]));
    summary.push(format!(
        "Segment intersection 10,000 × 10,000: geo ÷ sweep {}, double loop ÷ sweep {}",
        ratio_wide(div(geo, sweep)),
        ratio_wide(div(brute, sweep))
    ));
}

pub fn table(raw: &Raw) -> String {
    let r = &raw.crit;
    let log = raw.text("polygons-bench.log");
    let separate = Some(raw.text("polygons-concave100k.log")).filter(|t| !t.is_empty());
    let separate = separate.as_deref();
    let mut s = header(
        "Polygons: point in polygon and segment intersection vs geo",
        "polygons",
        raw,
        "Times are per query unless a column says otherwise. Ratios are peer ÷ ours (above 1: \
         convexity is faster). Our code and the peer run in the same bench process on the same \
         seeded inputs, one after the other.",
    );
    let mut summary = Vec::new();

    batch_section(&mut s, r, separate, &mut summary);
    single_point_section(&mut s, r, &mut summary);
    segments_section(&mut s, r, &log, &mut summary);
    with_summary(s, &summary)
}
