//! The batch API (`convexity::batch::distance`) per query, against a scalar loop and parry.
//!
//! Sets: `box` and `hull8` of the crate's generators (64 shapes, 20,000 pose pairs, random
//! rotations, about half overlapping), the same seeded inputs for every contender. One
//! iteration answers all 20,000 pairs; the throughput is 20,000 elements, so criterion's
//! `thrpt` is queries per second and `time / 20000` is ns per query.
//!
//! Functions of group `batch-<set>`:
//! * `batch-1core`: `batch::distance` with `parallel: false` (lane path + scalar fallback);
//! * `batch-allcore`: the same with rayon over all cores;
//! * `batch-scalar-1core`: `batch::distance` with `lanes: false, parallel: false`;
//! * `scalar-loop`: `gjk::distance` per pair on the concrete shapes (what a user writes);
//! * `parry3d-f64`: `parry3d_f64::query::distance` per pair.
//!
//! Run: `cargo bench -p convexity-bench --bench batch -- --warm-up-time 1 --measurement-time 2`.

use convexity::batch::{self, BatchOptions, Pair3};
use convexity::{gjk, DVec3, Shape3, SupportMap};
use convexity_bench::{box_set_with_pairs, hull_set_with_pairs, DataSet};
use convexity_bench::{raw_pose, BatchDistanceBuffers};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const PAIRS: usize = 20_000;

fn bench_set<S: SupportMap<DVec3>>(c: &mut Criterion, set: &DataSet<S>, table: Vec<Shape3>) {
    let pairs: Vec<Pair3> = set
        .pairs
        .idx
        .iter()
        .zip(set.pairs.ours.iter())
        .map(|(&(a, b), (pa, pb))| Pair3 {
            a: a as usize,
            pose_a: raw_pose(pa),
            b: b as usize,
            pose_b: raw_pose(pb),
        })
        .collect();
    let n = pairs.len();
    let mut out = BatchDistanceBuffers::new(n);
    let one = BatchOptions {
        parallel: false,
        ..BatchOptions::default()
    };
    let rep = batch::distance(&table, &pairs, &one, out.out()).expect("valid batch");
    let overlapping = out
        .verdict
        .iter()
        .filter(|v| v.intersecting() == Some(true))
        .count();
    eprintln!(
        "batch-{}: {} pairs, {} overlapping, {} through the lanes",
        set.name(),
        n,
        overlapping,
        rep.lane_rows
    );
    let mut g = c.benchmark_group(format!("batch-{}", set.name()));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("batch-1core", |b| {
        b.iter(|| batch::distance(&table, &pairs, &one, out.out()).map(|r| r.rows))
    });
    g.bench_function("batch-allcore", |b| {
        b.iter(|| {
            batch::distance(&table, &pairs, &BatchOptions::default(), out.out()).map(|r| r.rows)
        })
    });
    let plain = BatchOptions {
        lanes: false,
        parallel: false,
        ..BatchOptions::default()
    };
    g.bench_function("batch-scalar-1core", |b| {
        b.iter(|| batch::distance(&table, &pairs, &plain, out.out()).map(|r| r.rows))
    });
    let opts = gjk::Options::default();
    g.bench_function("scalar-loop", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for (&(ia, ib), (pa, pb)) in set.pairs.idx.iter().zip(set.pairs.ours.iter()) {
                let (a, bb) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
                acc += gjk::distance(a, pa, bb, pb, &opts, None).distance;
            }
            black_box(acc)
        })
    });
    g.bench_function("parry3d-f64", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for (&(ia, ib), (pa, pb)) in set.pairs.idx.iter().zip(set.pairs.parry64.iter()) {
                let (a, bb) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
                acc += parry3d_f64::query::distance(pa, a, pb, bb).map_or(0.0, |d| d.distance);
            }
            black_box(acc)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let boxes = box_set_with_pairs(PAIRS);
    let table = boxes.shapes.iter().map(|s| Shape3::Cuboid(*s)).collect();
    bench_set(c, &boxes, table);
    let hulls = hull_set_with_pairs(8, PAIRS);
    let table = hulls
        .shapes
        .iter()
        .map(|s| Shape3::Points(s.clone()))
        .collect();
    bench_set(c, &hulls, table);
}

criterion_group!(batch_benches, benches);
criterion_main!(batch_benches);
