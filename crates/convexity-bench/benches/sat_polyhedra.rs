//! Polyhedron SAT + contact manifold on the overlapping pairs of the `hull128` set (hulls
//! built once as `ConvexPolyhedron`), against parry3d-f64's `query::contact` (prediction 0).
//!
//! * `sat-manifold`: `sat3d::sat_with` (verdict, depth and manifold; edge pairs by the
//!   Gauss-map overlay walk), reused context;
//! * `sat-full-scan`: `sat3d::sat_full_scan`, the O(E_A·E_B) edge-pair scan (the walk's test
//!   oracle), SAT only;
//! * `parry3d-f64`: `query::contact`.
//!
//! Each group times batches of 1000 queries; ns/query is the batch time / 1000.

mod common;

use common::batched;
use convexity::polytope::sat3d::{sat_full_scan, sat_with, SatContext};
use convexity::ConvexPolyhedron;
use convexity_bench::{hull_set_with_pairs, overlapping};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const BATCH: usize = 1000;

fn bench_sat_hull128(c: &mut Criterion) {
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
    let mut g = c.benchmark_group("sat-hull128");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut ctx = SatContext::new();
    g.bench_function("sat-manifold", |b| {
        batched(b, n, BATCH, |k| {
            let (a, pa, bb, pb) = pair(k);
            let (r, m) = sat_with(a, pa, bb, pb, &mut ctx);
            r.separation + m.map_or(0.0, |m| m.len() as f64)
        })
    });
    g.bench_function("sat-full-scan", |b| {
        batched(b, n, BATCH, |k| {
            let (a, pa, bb, pb) = pair(k);
            sat_full_scan(a, pa, bb, pb).separation
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

criterion_group!(benches, bench_sat_hull128);
criterion_main!(benches);
