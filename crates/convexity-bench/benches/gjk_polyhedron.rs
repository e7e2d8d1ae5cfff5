//! GJK distance and boolean on large hulls with the polyhedron's fast support (the cell map
//! of candidate vertices), against the linear scan and parry3d-f64, on identical seeded inputs
//! (issue 3, item 2).
//!
//! Data: the foundation `hull1024` set (`convexity_bench::hull_set_with_pairs`, the first
//! [`PAIRS_1024`] of its seeded pose pairs, the same 64 shapes) and a `hull10000` set built by
//! the same generator (64 hulls of 10 000 points uniform on the unit sphere, the first
//! [`PAIRS_10K`] pairs). Every point is a hull vertex, so all competitors work on the same
//! vertex sets.
//!
//! Groups `gjkpoly-<query>-<set>` (query = `distance`, `boolean`), functions:
//! * `convexity-polyhedron`: `gjk::distance` / `gjk::intersects` on `ConvexPolyhedron`s built
//!   once (untimed) by `ConvexPolyhedron::from_points` (support = hill climbing from the start
//!   map's vertex above 48 vertices);
//! * `convexity-points`: the same queries on `Points` (four-lane linear scan), for reference;
//! * `parry3d-f64`: `query::distance` / `query::intersection_test` on
//!   `ConvexPolyhedron::from_convex_hull` of the same points (parry 0.31 scans the vertices).
//!
//! Group `gjkpoly-coherent-hull1024`: the warm-start trajectories of the foundation suite
//! (`convexity_bench::trajectories`, 8 × 1000 small steps) on the hull1024 polyhedra:
//! `gjk::distance` cold, warm (one `gjk::Cache` per trajectory) and parry3d-f64's distance.
//!
//! Untimed, before timing: every query on every pair for agreement (asserted: |Δdistance| vs
//! parry ≤ 1e-6 with distances clamped at 0, no boolean mismatch where both are decided) and
//! average iterations. After each group the competitors are also timed interleaved (see
//! `convexity_bench::harness::interleave`). Both are written to `bench-results/raw/polyhedra-gjk-<set>.json`.

mod common;

use common::batched;
use convexity::gjk::{self, Cache};
use convexity::{ConvexPolyhedron, DVec3, Points};
use convexity_bench::harness::{self, Competitor, Stop};
use convexity_bench::{hull_set_with_pairs, trajectories, write_raw, DataSet, Kind, Trajectory};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Pairs of the hull1024 set used (the first ones of the foundation set's 100 000).
const PAIRS_1024: usize = 10_000;
/// Pairs of the hull10000 set.
const PAIRS_10K: usize = 2_000;

struct Hulls {
    set: DataSet<Points<DVec3>>,
    polys: Vec<ConvexPolyhedron>,
}

fn hulls(n: usize, pairs: usize) -> Hulls {
    let set = hull_set_with_pairs(n, pairs);
    let polys: Vec<ConvexPolyhedron> = set
        .shapes
        .iter()
        .map(|s| ConvexPolyhedron::from_points(s.points()).expect("full-dimensional hull"))
        .collect();
    for (p, s) in polys.iter().zip(&set.shapes) {
        assert_eq!(
            p.num_vertices(),
            s.len(),
            "every sphere point is a hull vertex"
        );
    }
    Hulls { set, polys }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Q {
    Distance,
    Boolean,
}

impl Q {
    fn name(self) -> &'static str {
        match self {
            Q::Distance => "distance",
            Q::Boolean => "boolean",
        }
    }
}

fn ours<S: convexity::SupportMap<DVec3>>(
    shapes: &[S],
    set: &DataSet<Points<DVec3>>,
    q: Q,
    k: usize,
) -> f64 {
    let (ia, ib) = set.pairs.idx[k];
    let (pa, pb) = &set.pairs.ours[k];
    let (a, b) = (&shapes[ia as usize], &shapes[ib as usize]);
    let o = gjk::Options::default();
    match q {
        Q::Distance => gjk::distance(a, pa, b, pb, &o, None).distance,
        Q::Boolean => convexity_bench::checksum_of(
            gjk::intersects(a, pa, b, pb, &o, None).intersecting() == Some(true),
        ),
    }
}

fn parry(set: &DataSet<Points<DVec3>>, q: Q, k: usize) -> f64 {
    use parry3d_f64::query;
    let (ia, ib) = set.pairs.idx[k];
    let (pa, pb) = &set.pairs.parry64[k];
    let (a, b) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
    match q {
        Q::Distance => query::distance(pa, a, pb, b).expect("supported").distance,
        Q::Boolean => convexity_bench::checksum_of(
            query::intersection_test(pa, a, pb, b)
                .expect("supported")
                .intersecting,
        ),
    }
}

/// Untimed agreement and iteration counts on every pair; asserts agreement with parry.
fn agreement(h: &Hulls) -> serde_json::Value {
    let set = &h.set;
    let o = gjk::Options::default();
    let n = set.pairs.len();
    let (mut dmax_parry, mut dmax_points) = (0.0f64, 0.0f64);
    let (mut mism, mut undecided, mut overl) = (0usize, 0usize, 0usize);
    let (mut it_d_poly, mut it_d_pts, mut it_b_poly) = (0u64, 0u64, 0u64);
    for k in 0..n {
        let (ia, ib) = set.pairs.idx[k];
        let (pa, pb) = &set.pairs.ours[k];
        let (a, b) = (&h.polys[ia as usize], &h.polys[ib as usize]);
        let (sa, sb) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
        let d = gjk::distance(a, pa, b, pb, &o, None);
        let dp = gjk::distance(sa, pa, sb, pb, &o, None);
        it_d_poly += d.iterations as u64;
        it_d_pts += dp.iterations as u64;
        let clamp = |r: &gjk::Distance<DVec3>| {
            if r.intersecting() == Some(true) {
                0.0
            } else {
                r.distance
            }
        };
        let p = parry(set, Q::Distance, k).max(0.0);
        dmax_parry = dmax_parry.max((clamp(&d) - p).abs());
        dmax_points = dmax_points.max((clamp(&d) - clamp(&dp)).abs());
        let bo = gjk::intersects(a, pa, b, pb, &o, None);
        it_b_poly += bo.iterations as u64;
        let pb_hit = parry(set, Q::Boolean, k) == 1.0;
        match bo.intersecting() {
            Some(hit) => {
                overl += hit as usize;
                mism += (hit != pb_hit) as usize;
            }
            None => undecided += 1,
        }
    }
    assert!(
        dmax_parry <= 1e-6,
        "{}: distance disagrees with parry by {dmax_parry}",
        set.name()
    );
    assert_eq!(mism, 0, "{}: boolean mismatches with parry", set.name());
    let nf = n as f64;
    serde_json::json!({
        "pairs": n,
        "vertices": h.polys[0].num_vertices(),
        "overlap_fraction": overl as f64 / nf,
        "max_diff_distance_parry64": dmax_parry,
        "max_diff_distance_points": dmax_points,
        "boolean_mismatches_parry64": mism,
        "undetermined": undecided,
        "avg_iters_distance_polyhedron": it_d_poly as f64 / nf,
        "avg_iters_distance_points": it_d_pts as f64 / nf,
        "avg_iters_boolean_polyhedron": it_b_poly as f64 / nf,
    })
}

fn bench_set(c: &mut Criterion, h: &Hulls, batch: usize) {
    let set = &h.set;
    let name = set.name();
    let t = std::time::Instant::now();
    let mut raw = agreement(h);
    println!(
        "[{name}] untimed agreement ({:.1} s): {raw}",
        t.elapsed().as_secs_f64()
    );
    let n = set.pairs.len();
    for q in [Q::Distance, Q::Boolean] {
        let mut g = c.benchmark_group(format!("gjkpoly-{}-{name}", q.name()));
        g.throughput(Throughput::Elements(batch as u64));
        g.bench_function("convexity-polyhedron", |b| {
            batched(b, n, batch, |k| ours(&h.polys, set, q, k))
        });
        g.bench_function("convexity-points", |b| {
            batched(b, n, batch, |k| ours(&set.shapes, set, q, k))
        });
        g.bench_function("parry3d-f64", |b| {
            batched(b, n, batch, |k| parry(set, q, k))
        });
        g.finish();
        let mut comps: Vec<Competitor<'_>> = vec![
            (
                "convexity-polyhedron",
                Box::new(|k| ours(&h.polys, set, q, k)),
            ),
            (
                "convexity-points",
                Box::new(|k| ours(&set.shapes, set, q, k)),
            ),
            ("parry3d-f64", Box::new(|k| parry(set, q, k))),
        ];
        let p = harness::interleave(
            n,
            (batch / 5).max(10),
            Stop::bench_default(),
            true,
            &mut comps,
        )
        .to_json();
        println!("[{name}] {} interleaved: {p}", q.name());
        raw[format!("interleaved_{}", q.name())] = p;
    }
    write_raw(&format!("polyhedra-gjk-{name}.json"), &raw);
}

fn bench_coherent(c: &mut Criterion, h: &Hulls) {
    let kind = Kind::Hull(1024);
    let trajs: Vec<Trajectory> = trajectories(kind, 8, 1000);
    let steps: Vec<(usize, (u32, u32), convexity::Pose3, convexity::Pose3)> = trajs
        .iter()
        .enumerate()
        .flat_map(|(t, tr)| tr.poses.iter().map(move |(pa, pb)| (t, tr.idx, *pa, *pb)))
        .collect();
    let n = steps.len();
    let o = gjk::Options::default();
    let run = |k: usize, cache: Option<&mut Cache<DVec3>>| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        gjk::distance(
            &h.polys[*ia as usize],
            pa,
            &h.polys[*ib as usize],
            pb,
            &o,
            cache,
        )
        .distance
    };
    let run_parry = |k: usize| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        parry3d_f64::query::distance(
            &convexity_bench::to_parry64(pa),
            &*h.set.parry64[*ia as usize],
            &convexity_bench::to_parry64(pb),
            &*h.set.parry64[*ib as usize],
        )
        .expect("supported")
        .distance
    };
    // Untimed: iterations cold and warm (two passes, so the second starts warm too).
    let (mut ic, mut iw) = (0u64, 0u64);
    let mut caches = vec![Cache::new(); trajs.len()];
    for _ in 0..2 {
        for (t, (ia, ib), pa, pb) in &steps {
            let (a, b) = (&h.polys[*ia as usize], &h.polys[*ib as usize]);
            ic += gjk::distance(a, pa, b, pb, &o, None).iterations as u64;
            iw += gjk::distance(a, pa, b, pb, &o, Some(&mut caches[*t])).iterations as u64;
        }
    }
    let mut raw = serde_json::json!({
        "steps": n,
        "avg_iters_cold": ic as f64 / (2 * n) as f64,
        "avg_iters_warm": iw as f64 / (2 * n) as f64,
    });
    let batch = 1000;
    let mut g = c.benchmark_group("gjkpoly-coherent-hull1024");
    g.throughput(Throughput::Elements(batch as u64));
    g.bench_function("distance-cold", |b| batched(b, n, batch, |k| run(k, None)));
    g.bench_function("distance-warm", |b| {
        let mut caches = vec![Cache::new(); trajs.len()];
        batched(b, n, batch, |k| run(k, Some(&mut caches[steps[k].0])))
    });
    g.bench_function("parry3d-f64", |b| batched(b, n, batch, run_parry));
    g.finish();
    let mut wc = vec![Cache::new(); trajs.len()];
    let steps_ref = &steps;
    let mut comps: Vec<Competitor<'_>> = vec![
        (
            "distance-warm",
            Box::new(move |k| run(k, Some(&mut wc[steps_ref[k].0]))),
        ),
        ("distance-cold", Box::new(|k| run(k, None))),
        ("parry3d-f64", Box::new(run_parry)),
    ];
    let p = harness::interleave(n, 200, Stop::bench_default(), true, &mut comps).to_json();
    println!("[hull1024 coherent] interleaved: {p}");
    raw["interleaved"] = p;
    write_raw("polyhedra-gjk-coherent-hull1024.json", &raw);
}

fn benches(c: &mut Criterion) {
    let t = std::time::Instant::now();
    let h1024 = hulls(1024, PAIRS_1024);
    println!("[hull1024] built in {:.1} s", t.elapsed().as_secs_f64());
    bench_set(c, &h1024, 1000);
    bench_coherent(c, &h1024);
    drop(h1024);
    let t = std::time::Instant::now();
    let h10k = hulls(10_000, PAIRS_10K);
    println!("[hull10000] built in {:.1} s", t.elapsed().as_secs_f64());
    bench_set(c, &h10k, 100);
}

criterion_group! {
    name = gjk_polyhedron_benches;
    config = common::config(3);
    targets = benches
}
criterion_main!(gjk_polyhedron_benches);
