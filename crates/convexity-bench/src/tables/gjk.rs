//! `gjk.md` (distance, boolean and penetration vs parry3d-f64 and parry3d, agreement, depth
//! quality) and `support.md` (support floor, `Points` layout, warm start) from the `gjk`
//! group: benches `gjk`, `support`, `warm_start`.

use super::{div, get, header, ns, num, ratio, sci, Raw, Results};
use serde_json::Value;
use std::fmt::Write as _;

const ABOUT: &str = "Times are per query (or per support call); lower is better; ratios above 1 \
                     mean convexity is faster.";

/// Set names in table order (must match `convexity_bench::Kind::name`).
const SETS: [&str; 6] = ["hull8", "hull32", "hull128", "hull1024", "box", "sphere"];
/// Sets the issue's targets apply to.
const TARGET_SETS: [&str; 4] = ["hull8", "hull32", "hull128", "box"];
/// parry3d-f64 times from the issue (ns; measured on another 2-core machine), for orientation.
const ISSUE_PARRY: [(&str, [Option<f64>; 6]); 3] = [
    (
        "distance",
        [
            Some(685.0),
            Some(924.0),
            Some(1790.0),
            Some(10213.0),
            Some(557.0),
            None,
        ],
    ),
    (
        "boolean",
        [
            Some(473.0),
            Some(584.0),
            Some(1125.0),
            Some(6156.0),
            Some(304.0),
            None,
        ],
    ),
    (
        "penetration",
        [
            Some(3900.0),
            Some(8900.0),
            Some(20600.0),
            Some(104600.0),
            Some(4900.0),
            None,
        ],
    ),
];

pub fn gjk_md(raw: &Raw) -> String {
    let r = &raw.crit;
    let mut s = header(
        "GJK / EPA: convexity vs parry3d-f64 vs parry3d (f32)",
        "gjk",
        raw,
        ABOUT,
    );
    let _ = writeln!(
        s,
        "Data: 64 shapes and 100 000 seeded pose pairs per set, about half overlapping \
         (`crates/convexity-bench/src/lib.rs`). Penetration runs on the overlapping pairs \
         only. `support floor` = average iterations × the median time of one \
         `MinkowskiDifference::support` call for the set (bench `support`); `conv./floor` is \
         how many times the floor the query takes. `target` is the issue's goal (parry-f64 / \
         convexity ≥ 2× for distance and boolean, ≥ 3× for penetration, on hull8–hull128 and \
         box), judged on the criterion ratio / the interleaved ratio. The criterion columns \
         are medians of separate criterion runs (measured up to minutes apart); the \
         `interleaved` ratios time the libraries back to back on the same chunk of pairs, \
         round after round, and take the median of the per-round ratios, which cancels most \
         of the drift of a shared machine's load (`convexity_bench::paired`). `issue parry-f64` is parry3d-f64 as measured in the issue on another machine, \
         for orientation only.\n"
    );
    query_tables(&mut s, r, raw);
    agreement(&mut s, raw);
    depth_quality(&mut s, raw);
    s
}

/// `iteration_limit + degenerate` from a `[converged, iteration_limit, degenerate]` array.
fn not_converged(v: &Value) -> String {
    match v.as_array() {
        Some(a) if a.len() == 3 => {
            let n: u64 = a[1..].iter().filter_map(|x| x.as_u64()).sum();
            format!(
                "{n} ({} cap, {} degenerate)",
                a[1].as_u64().unwrap_or(0),
                a[2].as_u64().unwrap_or(0)
            )
        }
        _ => "—".into(),
    }
}

/// The distance, boolean and penetration tables against parry.
fn query_tables(s: &mut String, r: &Results, raw: &Raw) {
    for (q, iter_key, goal) in [
        ("distance", "avg_iters_distance", 2.0),
        ("boolean", "avg_iters_boolean", 2.0),
        ("penetration", "avg_iters_penetration", 3.0),
    ] {
        let _ = writeln!(s, "## {q}\n");
        let _ = writeln!(
            s,
            "| set | convexity ns/query | parry3d-f64 ns/query | parry3d (f32) ns/query | \
             parry-f64/convexity | parry-f64/convexity interleaved | parry-f32/convexity \
             interleaved | avg iterations | support floor ns | conv./floor | target | \
             issue parry-f64 |"
        );
        let _ = writeln!(
            s,
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"
        );
        let issue = ISSUE_PARRY.iter().find(|(n, _)| *n == q).map(|(_, v)| v);
        for (i, set) in SETS.iter().enumerate() {
            let g = format!("{q}-{set}");
            let ours = get(r, &g, "convexity");
            let p64 = get(r, &g, "parry3d-f64");
            let p32 = get(r, &g, "parry3d-f32");
            let sp = div(p64, ours);
            let iters = raw
                .get(&format!("gjk-stats-{set}"))
                .and_then(|v| v[iter_key].as_f64());
            let support = get(r, &format!("support-floor-{set}"), "minkowski-support");
            let floor = iters.zip(support).map(|(i, s)| i * s);
            let inter = raw.get(&format!("gjk-paired-{set}")).map(|v| &v[q]);
            let i64 = inter.and_then(|v| v["ratio_parry64"].as_f64());
            let i32 = inter.and_then(|v| v["ratio_parry32"].as_f64());
            let target = if TARGET_SETS.contains(set) {
                let verdict = |r: Option<f64>| match r {
                    Some(v) if v >= goal => "met",
                    Some(_) => "**missed**",
                    None => "—",
                };
                format!("≥{goal:.0}×: {} / {}", verdict(sp), verdict(i64))
            } else {
                "—".into()
            };
            let _ = writeln!(
                s,
                "| {set} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {target} | {} |",
                ns(ours),
                ns(p64),
                ns(p32),
                ratio(sp),
                ratio(i64),
                ratio(i32),
                num(iters, 2),
                ns(floor),
                ratio(div(ours, floor)),
                ns(issue.and_then(|v| v[i]))
            );
        }
        s.push('\n');
    }
}

/// Untimed agreement with parry over every pair.
fn agreement(s: &mut String, raw: &Raw) {
    let _ = writeln!(s, "## Agreement (untimed, every pair of each set)\n");
    let _ = writeln!(
        s,
        "Distances are clamped at 0 (an intersecting verdict counts as 0). `status ≠ \
         converged` counts our distance queries that ended on the iteration cap or a stall.\n"
    );
    let _ = writeln!(
        s,
        "| set | pairs | overlap fraction | max \\|Δdistance\\| vs parry3d-f64 | worst pair | \
         max \\|Δdistance\\| vs parry3d (f32) | boolean mismatches vs parry3d-f64 | \
         undetermined | distance status ≠ converged | hull retries |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in SETS {
        let Some(v) = raw.get(&format!("gjk-stats-{set}")) else {
            let _ = writeln!(s, "| {set} | — | — | — | — | — | — | — | — | — |");
            continue;
        };
        let _ = writeln!(
            s,
            "| {set} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            v["pairs"],
            num(v["overlap_fraction"].as_f64(), 4),
            sci(v["max_diff_distance_parry64"].as_f64()),
            v["worst_pair_parry64"],
            sci(v["max_diff_distance_parry32"].as_f64()),
            v["boolean_mismatches_parry64"],
            v["undetermined"],
            not_converged(&v["status_distance"]),
            v["hull_retries"],
        );
    }
    s.push('\n');
}

/// Penetration depth quality judged with exact support functions.
fn depth_quality(s: &mut String, raw: &Raw) {
    let _ = writeln!(
        s,
        "## Penetration depth quality (untimed, every overlapping pair)\n"
    );
    let _ = writeln!(
        s,
        "Judged with exact support functions: for a unit normal `n` (A toward B), \
         `overlap(n) = max_A n·x − min_B n·y` is how far B must move along `n` to separate, so \
         it is ≥ the true depth with equality at the optimal normal. `consistency` = max \
         \\|depth − overlap(own normal)\\| (0 for a correct answer); `ours worse` = max \
         (overlap(n_ours) − overlap(n_parry)) > 0 when parry found a shallower direction on \
         some pair; `parry worse` the converse. `EPA status ≠ converged` counts our results \
         that hit the iteration/vertex cap or degenerated; `consistency (converged)` is ours \
         over converged results only.\n"
    );
    let _ = writeln!(
        s,
        "| set | overlapping pairs | max \\|Δdepth\\| vs parry3d-f64 | ours: consistency | \
         ours: consistency (converged) | parry3d-f64: consistency | ours worse by | \
         parry worse by | EPA status ≠ converged | no parry contact |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in SETS {
        let Some(v) = raw.get(&format!("gjk-stats-{set}")) else {
            let _ = writeln!(s, "| {set} | — | — | — | — | — | — | — | — | — |");
            continue;
        };
        let overl = v["status_penetration"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_u64()).sum::<u64>());
        let _ = writeln!(
            s,
            "| {set} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            overl.map_or("—".into(), |x| x.to_string()),
            sci(v["max_diff_depth_parry64"].as_f64()),
            sci(v["max_inconsistency_ours"].as_f64()),
            sci(v["max_inconsistency_ours_converged"].as_f64()),
            sci(v["max_inconsistency_parry64"].as_f64()),
            sci(v["max_excess_ours_over_parry64"].as_f64()),
            sci(v["max_excess_parry64_over_ours"].as_f64()),
            not_converged(&v["status_penetration"]),
            v["no_contact_parry64"],
        );
    }
    s.push('\n');
}

pub fn support_md(raw: &Raw) -> String {
    let r = &raw.crit;
    let mut s = header("Support calls and warm start", "gjk", raw, ABOUT);
    let _ = writeln!(
        s,
        "## Support floor (bench `support`, `support-floor-<set>`)\n"
    );
    let _ = writeln!(
        s,
        "One `MinkowskiDifference::support` call (A's core support, B's core support through \
         the relative rotation, one subtraction) on the set's first 4096 pairs in random unit \
         directions. The floor of a query is this × its average GJK iterations (one support \
         call per iteration).\n"
    );
    let _ = writeln!(
        s,
        "| set | ns/support call | distance: iterations | distance: floor ns | \
         distance: convexity ns | boolean: iterations | boolean: floor ns | boolean: \
         convexity ns |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for set in SETS {
        let sup = get(r, &format!("support-floor-{set}"), "minkowski-support");
        let g = raw.get(&format!("gjk-stats-{set}"));
        let di = g.and_then(|v| v["avg_iters_distance"].as_f64());
        let bi = g.and_then(|v| v["avg_iters_boolean"].as_f64());
        let _ = writeln!(
            s,
            "| {set} | {} | {} | {} | {} | {} | {} | {} |",
            ns(sup),
            num(di, 2),
            ns(di.zip(sup).map(|(i, s)| i * s)),
            ns(get(r, &format!("distance-{set}"), "convexity")),
            num(bi, 2),
            ns(bi.zip(sup).map(|(i, s)| i * s)),
            ns(get(r, &format!("boolean-{set}"), "convexity")),
        );
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "## Support layout (bench `support`, `support-layout-<N>`)\n"
    );
    let _ = writeln!(
        s,
        "`Points::support_index` (structure-of-arrays, 4 lanes) vs \
         `Points::support_index_aos` (array-of-structures) on N points uniform on the unit \
         sphere, random unit directions.\n"
    );
    let _ = writeln!(
        s,
        "| N | SoA ns/call | AoS ns/call | AoS/SoA | SoA ns/point | AoS ns/point |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|");
    for n in [8usize, 32, 128, 1024, 10_000] {
        let g = format!("support-layout-{n}");
        let (soa, aos) = (get(r, &g, "soa"), get(r, &g, "aos"));
        let _ = writeln!(
            s,
            "| {n} | {} | {} | {} | {} | {} |",
            ns(soa),
            ns(aos),
            ratio(div(aos, soa)),
            num(soa.map(|v| v / n as f64), 3),
            num(aos.map(|v| v / n as f64), 3),
        );
    }
    s.push('\n');
    let _ = writeln!(s, "## Warm start (bench `warm_start`)\n");
    let _ = writeln!(
        s,
        "8 closed trajectories × 1000 small steps per set (B orbits A, alternately overlapping \
         and separated). `cold`: no cache; `warm`: one `gjk::Cache` per trajectory carried \
         from step to step. parry3d-f64 (no cache in its query API) for reference. The \
         `interleaved` ratios time cold, warm and parry back to back on each chunk of 200 \
         steps and take the median of the per-round ratios.\n"
    );
    let _ = writeln!(
        s,
        "| set | query | cold ns | warm ns | cold/warm | cold/warm interleaved | iterations \
         cold | iterations warm | parry3d-f64 ns | parry-f64/warm | parry-f64/warm \
         interleaved |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in SETS {
        let w = raw.get(&format!("gjk-warm-{set}"));
        for q in ["distance", "boolean"] {
            let g = format!("warm-{q}-{set}");
            let (cold, warm) = (get(r, &g, "cold"), get(r, &g, "warm"));
            let p64 = get(r, &g, "parry3d-f64");
            let wp = raw.get(&format!("gjk-warm-paired-{set}")).map(|v| &v[q]);
            let _ = writeln!(
                s,
                "| {set} | {q} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                ns(cold),
                ns(warm),
                ratio(div(cold, warm)),
                ratio(wp.and_then(|v| v["ratio_cold_warm"].as_f64())),
                num(w.and_then(|v| v[format!("avg_iters_{q}_cold")].as_f64()), 2),
                num(w.and_then(|v| v[format!("avg_iters_{q}_warm")].as_f64()), 2),
                ns(p64),
                ratio(div(p64, warm)),
                ratio(wp.and_then(|v| v["ratio_parry64_warm"].as_f64())),
            );
        }
    }
    s.push('\n');
    s
}
