//! Contact generation and Chung–Wang, against parry3d-f64 and GJK, on identical seeded inputs.
//!
//! * `contact-box`: the overlapping pairs of the `box` set. `sat-manifold` is
//!   `box_box::box_box_manifold` (15-axis SAT + reference/incident face clipping, up to 4
//!   points); `sat-boolean` is `box_box::box_box` (SAT with its certificate); `epa` is
//!   `epa::penetration` (single point); `parry3d-f64` is `query::contact(.., prediction 0)`.
//! * `contact-hull128`: the overlapping pairs of the `hull128` set, the hulls built once as
//!   `ConvexPolyhedron`; `sat-manifold` is `sat3d::polyhedron_manifold_with` (reused context).
//! * `coherent-hull128` (issue 3, item 4): [`COHERENT_TRAJECTORIES`] closed trajectories of
//!   [`COHERENT_STEPS`] small steps each (`convexity_bench::trajectories`: B orbits A,
//!   alternately overlapping and separated) on hull128 pairs, the polyhedra built once
//!   (untimed). Per-step cost of V-Clip warm (one `VClipCache` per trajectory, carried from
//!   step to step) and cold, GJK distance and boolean cold and warm (one `gjk::Cache` per
//!   trajectory), Chung–Wang cold and warm, and parry3d-f64's distance. All of ours run on the
//!   same `ConvexPolyhedron`s (GJK and Chung–Wang with the hill-climbing support).
//!   Untimed: average iterations / feature steps, V-Clip vs GJK distance agreement (asserted).
//!
//! After the box, hull128 and coherent groups the competitors are also timed interleaved
//! (`convexity_bench::harness::interleave`); the untimed statistics and interleaved medians/ratios are written to
//! `bench-results/raw/polyhedra-*.json`.

mod common;

use common::batched;
use convexity::gjk::chung_wang::{self, ChungWangCache};
use convexity::gjk::epa;
use convexity::gjk::{self, Cache};
use convexity::polytope::box_box::box_box;
use convexity::polytope::box_box::box_box_manifold;
use convexity::polytope::sat3d::{polyhedron_manifold_with, SatContext};
use convexity::polytope::vclip::{self, VClipCache};
use convexity::{ConvexPolyhedron, DVec3};
use convexity_bench::harness::{self, Competitor, Stop};
use convexity_bench::{
    box_set_with_pairs, hull_set_with_pairs, overlapping, to_parry64, trajectories, write_raw, Kind,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const BATCH: usize = 1000;

/// parry3d-f64's `query::contact` (prediction 0) on pair `i` of a set; returns the distance.
fn parry_contact<S>(set: &convexity_bench::DataSet<S>, i: usize) -> f64 {
    let (ia, ib) = set.pairs.idx[i];
    let (pa, pb) = &set.pairs.parry64[i];
    parry3d_f64::query::contact(
        pa,
        &*set.parry64[ia as usize],
        pb,
        &*set.parry64[ib as usize],
        0.0,
    )
    .expect("supported")
    .map_or(0.0, |c| c.dist)
}

fn bench_box(c: &mut Criterion) {
    let set = box_set_with_pairs(4000);
    let over = overlapping(&set);
    let n = over.len();
    let pair = |k: usize| {
        let i = over[k];
        let (ia, ib) = set.pairs.idx[i];
        let (pa, pb) = &set.pairs.ours[i];
        (&set.shapes[ia as usize], pa, &set.shapes[ib as usize], pb)
    };
    let sat_manifold = |k: usize| {
        let (a, pa, bb, pb) = pair(k);
        box_box_manifold(a, pa, bb, pb).map_or(0.0, |m| m.len() as f64)
    };
    let sat_boolean = |k: usize| {
        let (a, pa, bb, pb) = pair(k);
        box_box(a, pa, bb, pb).separation
    };
    let run_epa = |k: usize, ctx: &mut epa::Context<DVec3>| {
        let (a, pa, bb, pb) = pair(k);
        epa::penetration(a, pa, bb, pb, &epa::Options::default(), ctx).depth
    };
    let parry = |k: usize| parry_contact(&set, over[k]);
    let mut g = c.benchmark_group("contact-box");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("sat-manifold", |b| batched(b, n, BATCH, sat_manifold));
    g.bench_function("sat-boolean", |b| batched(b, n, BATCH, sat_boolean));
    let mut ctx = epa::Context::new();
    g.bench_function("epa", |b| batched(b, n, BATCH, |k| run_epa(k, &mut ctx)));
    g.bench_function("parry3d-f64", |b| batched(b, n, BATCH, parry));
    g.finish();
    let mut ctx = epa::Context::new();
    let mut comps: Vec<Competitor<'_>> = vec![
        ("sat-manifold", Box::new(sat_manifold)),
        ("sat-boolean", Box::new(sat_boolean)),
        ("epa", Box::new(move |k| run_epa(k, &mut ctx))),
        ("parry3d-f64", Box::new(parry)),
    ];
    let p = harness::interleave(n, 200, Stop::bench_default(), true, &mut comps).to_json();
    println!("[contact-box] interleaved: {p}");
    write_raw(
        "polyhedra-contact-box.json",
        &serde_json::json!({ "pairs": n, "interleaved": p }),
    );
}

fn bench_hull(c: &mut Criterion) {
    let set = hull_set_with_pairs(128, 2000);
    let polys: Vec<ConvexPolyhedron> = set
        .shapes
        .iter()
        .map(|s| ConvexPolyhedron::from_points(s.points()).expect("hull"))
        .collect();
    let over = overlapping(&set);
    let n = over.len();
    let pair = |k: usize| {
        let i = over[k];
        let (ia, ib) = set.pairs.idx[i];
        let (pa, pb) = &set.pairs.ours[i];
        (&polys[ia as usize], pa, &polys[ib as usize], pb)
    };
    let sat_manifold = |k: usize, sctx: &mut SatContext| {
        let (a, pa, bb, pb) = pair(k);
        polyhedron_manifold_with(a, pa, bb, pb, sctx).map_or(0.0, |m| m.len() as f64)
    };
    let run_epa = |k: usize, ctx: &mut epa::Context<DVec3>| {
        let (a, pa, bb, pb) = pair(k);
        epa::penetration(a, pa, bb, pb, &epa::Options::default(), ctx).depth
    };
    let parry = |k: usize| parry_contact(&set, over[k]);
    let mut g = c.benchmark_group("contact-hull128");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut sctx = SatContext::new();
    g.bench_function("sat-manifold", |b| {
        batched(b, n, BATCH, |k| sat_manifold(k, &mut sctx))
    });
    let mut ctx = epa::Context::new();
    g.bench_function("epa", |b| batched(b, n, BATCH, |k| run_epa(k, &mut ctx)));
    g.bench_function("parry3d-f64", |b| batched(b, n, BATCH, parry));
    g.finish();
    let mut comps: Vec<Competitor<'_>> = vec![
        (
            "sat-manifold",
            Box::new(move |k| sat_manifold(k, &mut sctx)),
        ),
        ("epa", Box::new(move |k| run_epa(k, &mut ctx))),
        ("parry3d-f64", Box::new(parry)),
    ];
    let p = harness::interleave(n, 200, Stop::bench_default(), true, &mut comps).to_json();
    println!("[contact-hull128] interleaved: {p}");
    write_raw(
        "polyhedra-contact-hull128.json",
        &serde_json::json!({ "pairs": n, "interleaved": p }),
    );
}

/// Trajectories and steps of the coherent-motion group.
const COHERENT_TRAJECTORIES: usize = 4;
const COHERENT_STEPS: usize = 10_000;

fn bench_coherent(c: &mut Criterion) {
    let kind = Kind::Hull(128);
    let set = hull_set_with_pairs(128, 1);
    let polys: Vec<ConvexPolyhedron> = set
        .shapes
        .iter()
        .map(|s| ConvexPolyhedron::from_points(s.points()).expect("hull"))
        .collect();
    let trajs = trajectories(kind, COHERENT_TRAJECTORIES, COHERENT_STEPS);
    let nt = trajs.len();
    let mut steps = Vec::new();
    for (t, tr) in trajs.iter().enumerate() {
        for (pa, pb) in &tr.poses {
            steps.push((t, tr.idx, *pa, *pb));
        }
    }
    let n = steps.len();
    let cwo = chung_wang::ChungWangOptions::default();
    let go = gjk::Options::default();
    let vo = vclip::VClipOptions::default();
    let shapes = |k: usize| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        (&polys[*ia as usize], pa, &polys[*ib as usize], pb)
    };
    let run_vclip = |k: usize, st: Option<&mut VClipCache>| {
        let (a, pa, b, pb) = shapes(k);
        vclip::closest_features(a, pa, b, pb, &vo, st).distance
    };
    let run_gjk_d = |k: usize, cache: Option<&mut Cache<DVec3>>| {
        let (a, pa, b, pb) = shapes(k);
        gjk::distance(a, pa, b, pb, &go, cache).distance
    };
    let run_gjk_b = |k: usize, cache: Option<&mut Cache<DVec3>>| {
        let (a, pa, b, pb) = shapes(k);
        convexity_bench::checksum_of(
            gjk::intersects(a, pa, b, pb, &go, cache).intersecting() == Some(true),
        )
    };
    let run_cw = |k: usize, cache: Option<&mut ChungWangCache<DVec3>>| {
        let (a, pa, b, pb) = shapes(k);
        convexity_bench::checksum_of(
            chung_wang::separate(a, pa, b, pb, &cwo, cache).intersecting() == Some(true),
        )
    };
    let run_parry = |k: usize| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        parry3d_f64::query::distance(
            &to_parry64(pa),
            &*set.parry64[*ia as usize],
            &to_parry64(pb),
            &*set.parry64[*ib as usize],
        )
        .expect("supported")
        .distance
    };
    // Untimed, two passes over every trajectory (the second pass starts warm as well):
    // average iterations / feature steps, and agreement of V-Clip (warm) with GJK (cold).
    let mut vs = vec![VClipCache::new(); nt];
    let mut gc = vec![Cache::new(); nt];
    let mut gbc = vec![Cache::new(); nt];
    let mut cc = vec![ChungWangCache::new(); nt];
    let mut it = [0u64; 8];
    let (mut dmax, mut verdict_mismatch, mut hits, mut vclip_not_conv) =
        (0.0f64, 0usize, 0usize, 0usize);
    for _ in 0..2 {
        for (t, (ia, ib), pa, pb) in &steps {
            let (a, b) = (&polys[*ia as usize], &polys[*ib as usize]);
            let vw = vclip::closest_features(a, pa, b, pb, &vo, Some(&mut vs[*t]));
            let vc = vclip::closest_features(a, pa, b, pb, &vo, None);
            let gd = gjk::distance(a, pa, b, pb, &go, None);
            let gw = gjk::distance(a, pa, b, pb, &go, Some(&mut gc[*t]));
            let bc = gjk::intersects(a, pa, b, pb, &go, None);
            let bw = gjk::intersects(a, pa, b, pb, &go, Some(&mut gbc[*t]));
            let cwc = chung_wang::separate(a, pa, b, pb, &cwo, None);
            let cww = chung_wang::separate(a, pa, b, pb, &cwo, Some(&mut cc[*t]));
            for (slot, v) in [
                vw.iterations,
                vc.iterations,
                gd.iterations,
                gw.iterations,
                bc.iterations,
                bw.iterations,
                cwc.iterations,
                cww.iterations,
            ]
            .into_iter()
            .enumerate()
            {
                it[slot] += v as u64;
            }
            vclip_not_conv += (vw.status != convexity::Status::Converged) as usize;
            let g_hit = gd.intersecting() == Some(true);
            hits += g_hit as usize;
            let gdist = if g_hit { 0.0 } else { gd.distance };
            dmax = dmax.max((vw.distance - gdist).abs());
            let v_hit = vw.verdict.intersecting();
            if v_hit.is_some() && gd.intersecting().is_some() && v_hit != gd.intersecting() {
                verdict_mismatch += 1;
            }
            if cww.intersecting().is_some() && cww.intersecting() != gd.intersecting() {
                verdict_mismatch += 1;
            }
        }
    }
    assert!(dmax <= 1e-6, "V-Clip and GJK distances differ by {dmax}");
    assert_eq!(verdict_mismatch, 0, "verdict mismatches on the trajectory");
    let d = 2.0 * n as f64;
    let names = [
        "vclip_warm",
        "vclip_cold",
        "gjk_distance_cold",
        "gjk_distance_warm",
        "gjk_boolean_cold",
        "gjk_boolean_warm",
        "chung_wang_cold",
        "chung_wang_warm",
    ];
    let mut raw = serde_json::json!({
        "trajectories": nt,
        "steps_per_trajectory": COHERENT_STEPS,
        "overlap_fraction": hits as f64 / d,
        "max_diff_distance_vclip_gjk": dmax,
        "vclip_warm_not_converged": vclip_not_conv,
    });
    for (name, v) in names.iter().zip(it) {
        raw[format!("avg_iters_{name}")] = (v as f64 / d).into();
    }
    println!("[hull128 coherent] untimed: {raw}");

    let mut g = c.benchmark_group("coherent-hull128");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("vclip-warm", |b| {
        let mut st = vec![VClipCache::new(); nt];
        batched(b, n, BATCH, |k| run_vclip(k, Some(&mut st[steps[k].0])))
    });
    g.bench_function("vclip-cold", |b| {
        batched(b, n, BATCH, |k| run_vclip(k, None))
    });
    g.bench_function("gjk-distance-cold", |b| {
        batched(b, n, BATCH, |k| run_gjk_d(k, None))
    });
    g.bench_function("gjk-distance-warm", |b| {
        let mut caches = vec![Cache::new(); nt];
        batched(b, n, BATCH, |k| run_gjk_d(k, Some(&mut caches[steps[k].0])))
    });
    g.bench_function("gjk-boolean-cold", |b| {
        batched(b, n, BATCH, |k| run_gjk_b(k, None))
    });
    g.bench_function("gjk-boolean-warm", |b| {
        let mut caches = vec![Cache::new(); nt];
        batched(b, n, BATCH, |k| run_gjk_b(k, Some(&mut caches[steps[k].0])))
    });
    g.bench_function("chung-wang-cold", |b| {
        batched(b, n, BATCH, |k| run_cw(k, None))
    });
    g.bench_function("chung-wang-warm", |b| {
        let mut caches = vec![ChungWangCache::new(); nt];
        batched(b, n, BATCH, |k| run_cw(k, Some(&mut caches[steps[k].0])))
    });
    g.bench_function("parry3d-f64-distance", |b| batched(b, n, BATCH, run_parry));
    g.finish();

    // Interleaved: everything relative to cold GJK distance.
    let mut st = vec![VClipCache::new(); nt];
    let mut c1 = vec![Cache::new(); nt];
    let mut c2 = vec![Cache::new(); nt];
    let mut c3 = vec![ChungWangCache::new(); nt];
    let steps_ref = &steps;
    let mut comps: Vec<Competitor<'_>> = vec![
        ("gjk-distance-cold", Box::new(|k| run_gjk_d(k, None))),
        (
            "vclip-warm",
            Box::new(move |k| run_vclip(k, Some(&mut st[steps_ref[k].0]))),
        ),
        ("vclip-cold", Box::new(|k| run_vclip(k, None))),
        (
            "gjk-distance-warm",
            Box::new(move |k| run_gjk_d(k, Some(&mut c1[steps_ref[k].0]))),
        ),
        ("gjk-boolean-cold", Box::new(|k| run_gjk_b(k, None))),
        (
            "gjk-boolean-warm",
            Box::new(move |k| run_gjk_b(k, Some(&mut c2[steps_ref[k].0]))),
        ),
        (
            "chung-wang-warm",
            Box::new(move |k| run_cw(k, Some(&mut c3[steps_ref[k].0]))),
        ),
        ("parry3d-f64-distance", Box::new(run_parry)),
    ];
    let p = harness::interleave(n, 200, Stop::bench_default(), true, &mut comps).to_json();
    println!("[hull128 coherent] interleaved: {p}");
    raw["interleaved"] = p;
    write_raw("polyhedra-coherent-hull128.json", &raw);
}

criterion_group! {
    name = contact_benches;
    config = common::config(2);
    targets = bench_box, bench_hull, bench_coherent
}
criterion_main!(contact_benches);
