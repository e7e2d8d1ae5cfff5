//! Contact generation and Chung–Wang, against parry3d-f64 and GJK, on identical seeded inputs.
//!
//! * `contact-box`: the overlapping pairs of the `box` set. `sat-manifold` is
//!   `box_box::box_box_manifold` (15-axis SAT + reference/incident face clipping, up to 4
//!   points); `sat-boolean` is `box_box::box_box` (SAT with its certificate); `epa` is
//!   `epa::penetration` (single point); `parry3d-f64` is `query::contact(.., prediction 0)`.
//! * `contact-hull128`: the overlapping pairs of the `hull128` set, the hulls built once as
//!   `ConvexPolyhedron`; `sat-manifold` is `sat3d::polyhedron_manifold_with` (reused context).
//! * `cw-hull128`: the coherent trajectories of `warm_start.rs` (`convexity_bench::trajectories`,
//!   8 × 1000 steps) on hull128 `Points`: Chung–Wang cold and warm (one cache per trajectory),
//!   GJK boolean cold and warm. The average iterations are printed (untimed).

mod common;

use common::batched;
use convexity::box_box::box_box;
use convexity::box_box::box_box_manifold;
use convexity::chung_wang::{self, ChungWangCache};
use convexity::epa;
use convexity::gjk::{self, Cache};
use convexity::sat3d::{polyhedron_manifold_with, SatContext};
use convexity::{ConvexPolyhedron, DVec3};
use convexity_bench::{
    box_set_with_pairs, hull_set_with_pairs, overlapping, to_parry64, trajectories, Kind,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const BATCH: usize = 1000;

fn bench_box(c: &mut Criterion) {
    let set = box_set_with_pairs(4000);
    let over = overlapping(&set);
    let n = over.len();
    let mut g = c.benchmark_group("contact-box");
    g.throughput(Throughput::Elements(BATCH as u64));
    let pair = |k: usize| {
        let i = over[k];
        let (ia, ib) = set.pairs.idx[i];
        let (pa, pb) = &set.pairs.ours[i];
        (&set.shapes[ia as usize], pa, &set.shapes[ib as usize], pb)
    };
    g.bench_function("sat-manifold", |b| {
        batched(b, n, BATCH, |k| {
            let (a, pa, bb, pb) = pair(k);
            box_box_manifold(a, pa, bb, pb).map_or(0.0, |m| m.len() as f64)
        })
    });
    g.bench_function("sat-boolean", |b| {
        batched(b, n, BATCH, |k| {
            let (a, pa, bb, pb) = pair(k);
            box_box(a, pa, bb, pb).separation
        })
    });
    let mut ctx = epa::Context::new();
    g.bench_function("epa", |b| {
        batched(b, n, BATCH, |k| {
            let (a, pa, bb, pb) = pair(k);
            epa::penetration(a, pa, bb, pb, &epa::Options::default(), &mut ctx).depth
        })
    });
    g.bench_function("parry3d-f64", |b| {
        batched(b, n, BATCH, |k| {
            let i = over[k];
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
        })
    });
    g.finish();
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
    let mut g = c.benchmark_group("contact-hull128");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut sctx = SatContext::new();
    g.bench_function("sat-manifold", |b| {
        batched(b, n, BATCH, |k| {
            let i = over[k];
            let (ia, ib) = set.pairs.idx[i];
            let (pa, pb) = &set.pairs.ours[i];
            polyhedron_manifold_with(&polys[ia as usize], pa, &polys[ib as usize], pb, &mut sctx)
                .map_or(0.0, |m| m.len() as f64)
        })
    });
    let mut ctx = epa::Context::new();
    g.bench_function("epa", |b| {
        batched(b, n, BATCH, |k| {
            let i = over[k];
            let (ia, ib) = set.pairs.idx[i];
            let (pa, pb) = &set.pairs.ours[i];
            epa::penetration(
                &polys[ia as usize],
                pa,
                &polys[ib as usize],
                pb,
                &epa::Options::default(),
                &mut ctx,
            )
            .depth
        })
    });
    g.bench_function("parry3d-f64", |b| {
        batched(b, n, BATCH, |k| {
            let i = over[k];
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
        })
    });
    g.finish();
}

fn bench_cw(c: &mut Criterion) {
    let kind = Kind::Hull(128);
    let set = hull_set_with_pairs(128, 1);
    let trajs = trajectories(kind, 8, 1000);
    let mut steps = Vec::new();
    for (t, tr) in trajs.iter().enumerate() {
        for (pa, pb) in &tr.poses {
            steps.push((t, tr.idx, *pa, *pb));
        }
    }
    let n = steps.len();
    let _ = to_parry64;
    let cwo = chung_wang::Options::default();
    let go = gjk::Options::default();
    // Untimed: average iterations over two passes.
    let (mut cc, mut cw, mut gc, mut gw) = (0u64, 0u64, 0u64, 0u64);
    let mut ccache = vec![ChungWangCache::new(); 8];
    let mut gcache = vec![Cache::new(); 8];
    for _ in 0..2 {
        for (t, (ia, ib), pa, pb) in &steps {
            let (a, b) = (&set.shapes[*ia as usize], &set.shapes[*ib as usize]);
            cc += chung_wang::separate(a, pa, b, pb, &cwo, None).iterations as u64;
            cw += chung_wang::separate(a, pa, b, pb, &cwo, Some(&mut ccache[*t])).iterations as u64;
            gc += gjk::intersects(a, pa, b, pb, &go, None).iterations as u64;
            gw += gjk::intersects(a, pa, b, pb, &go, Some(&mut gcache[*t])).iterations as u64;
        }
    }
    let d = 2.0 * n as f64;
    println!(
        "[hull128 trajectories] average iterations: CW cold {:.2} warm {:.2}; GJK boolean cold {:.2} warm {:.2}",
        cc as f64 / d,
        cw as f64 / d,
        gc as f64 / d,
        gw as f64 / d
    );
    let mut g = c.benchmark_group("cw-hull128");
    g.throughput(Throughput::Elements(BATCH as u64));
    let run_cw = |k: usize, cache: Option<&mut ChungWangCache<DVec3>>| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        let (a, b) = (&set.shapes[*ia as usize], &set.shapes[*ib as usize]);
        (chung_wang::separate(a, pa, b, pb, &cwo, cache).intersecting() == Some(true)) as u8 as f64
    };
    let run_gjk = |k: usize, cache: Option<&mut Cache<DVec3>>| {
        let (_, (ia, ib), pa, pb) = &steps[k];
        let (a, b) = (&set.shapes[*ia as usize], &set.shapes[*ib as usize]);
        (gjk::intersects(a, pa, b, pb, &go, cache).intersecting() == Some(true)) as u8 as f64
    };
    g.bench_function("chung-wang-cold", |b| {
        batched(b, n, BATCH, |k| run_cw(k, None))
    });
    g.bench_function("chung-wang-warm", |b| {
        let mut caches = vec![ChungWangCache::new(); 8];
        batched(b, n, BATCH, |k| run_cw(k, Some(&mut caches[steps[k].0])))
    });
    g.bench_function("gjk-cold", |b| batched(b, n, BATCH, |k| run_gjk(k, None)));
    g.bench_function("gjk-warm", |b| {
        let mut caches = vec![Cache::new(); 8];
        batched(b, n, BATCH, |k| run_gjk(k, Some(&mut caches[steps[k].0])))
    });
    g.finish();
}

criterion_group! {
    name = contact_benches;
    config = common::config(2);
    targets = bench_box, bench_hull, bench_cw
}
criterion_main!(contact_benches);
