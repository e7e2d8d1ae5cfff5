//! Support-call costs: the Minkowski-difference support call of each data set (the "support
//! floor" of GJK) and the layout of the `Points` scan (SoA vs AoS).
//!
//! * `support-floor-<set>` / `minkowski-support`: `MinkowskiDifference::support` of the set's
//!   first [`PAIRS_USED`] pose pairs (built once, untimed) in random unit directions, one call
//!   per element, [`CALLS_PER_PAIR`] consecutive calls on each pair (as in GJK). The table generator multiplies its median by the average GJK iterations of
//!   each query (from `bench-results/raw/gjk-stats-<set>.json`; one support call per iteration) to
//!   get the time a query would take if support calls were all it did.
//! * `support-layout-<N>` / `soa`, `aos`: `Points::support_index` (structure-of-arrays,
//!   four lanes) vs `Points::support_index_aos` (array-of-structures) on N points uniform on
//!   the unit sphere, N = 8, 32, 128, 1024, 10000, in random unit directions.
//!
//! `BENCH_SETS=hull8,box` restricts the floor benchmarks to some sets.

mod common;

use common::{batched, selected};
use convexity::gjk::minkowski::MinkowskiDifference;
use convexity::{DVec3, Points, SupportMap};
use convexity_bench::sphere_set_with_pairs;
use convexity_bench::{box_set_with_pairs, directions, hull_set_with_pairs, sphere_points};
use convexity_bench::{DataSet, Kind};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// Calls per iteration.
const BATCH: usize = 1000;
/// Pose pairs whose Minkowski differences are cycled through.
const PAIRS_USED: usize = 4096;
/// Consecutive calls on the same pair, in different directions: like GJK, which makes ~3–6
/// calls on one pair, so the shapes' points are in cache after the first call. (Cycling to a
/// new pair on every call would overstate the cost of big hulls: 64 hulls of 1024 points do
/// not fit in L2.)
const CALLS_PER_PAIR: usize = 5;
/// Random directions cycled through (coprime with `PAIRS_USED`, so pair and direction
/// combinations do not repeat in step).
const DIRS: usize = 1021;

fn floor<S: SupportMap<DVec3>>(c: &mut Criterion, set: &DataSet<S>) {
    let n = set.pairs.len().min(PAIRS_USED);
    let minks: Vec<_> = (0..n)
        .map(|k| {
            let (ia, ib) = set.pairs.idx[k];
            let (pa, pb) = &set.pairs.ours[k];
            MinkowskiDifference::new(&set.shapes[ia as usize], pa, &set.shapes[ib as usize], pb)
        })
        .collect();
    let dirs = directions(DIRS, 0x5EED_D1C5);
    let mut g = c.benchmark_group(format!("support-floor-{}", set.name()));
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("minkowski-support", |b| {
        let mut d = 0usize;
        batched(b, n * CALLS_PER_PAIR, BATCH, |k| {
            d += 1;
            if d == DIRS {
                d = 0;
            }
            let p = minks[k / CALLS_PER_PAIR].support(dirs[d]);
            p.w.x
        })
    });
    g.finish();
}

fn layout(c: &mut Criterion) {
    let dirs = directions(DIRS, 0x1A70_u64);
    for n in [8usize, 32, 128, 1024, 10_000] {
        let pts = Points::new(&sphere_points(n, 0xC10D + n as u64)).expect("finite");
        // The two scans must agree (ties aside, which random directions do not produce).
        for d in &dirs {
            assert_eq!(pts.support_index(*d), pts.support_index_aos(*d));
        }
        let mut g = c.benchmark_group(format!("support-layout-{n}"));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function("soa", |b| {
            batched(b, DIRS, BATCH, |k| {
                pts.support_index(black_box(dirs[k])) as f64
            })
        });
        g.bench_function("aos", |b| {
            batched(b, DIRS, BATCH, |k| {
                pts.support_index_aos(black_box(dirs[k])) as f64
            })
        });
        g.finish();
    }
}

fn benches(c: &mut Criterion) {
    for kind in Kind::ALL {
        if !selected(kind) {
            continue;
        }
        match kind {
            Kind::Hull(n) => floor(c, &hull_set_with_pairs(n, PAIRS_USED)),
            Kind::Box => floor(c, &box_set_with_pairs(PAIRS_USED)),
            Kind::Sphere => floor(c, &sphere_set_with_pairs(PAIRS_USED)),
        }
    }
    layout(c);
}

criterion_group! {
    name = support_benches;
    config = common::config(2);
    targets = benches
}
criterion_main!(support_benches);
