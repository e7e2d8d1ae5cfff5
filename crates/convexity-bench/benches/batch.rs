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

use convexity::batch::{self, BatchOptions, DistanceOut, Pair3};
use convexity::{gjk, DVec3, Pose3, Shape3, Status, SupportMap, Verdict};
use convexity_bench::{box_set_with_pairs, hull_set_with_pairs, DataSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const PAIRS: usize = 20_000;

fn raw(p: &Pose3) -> [f64; 7] {
    let t = p.translation();
    let q = p.rotation();
    [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
}

struct Out {
    d: Vec<f64>,
    pa: Vec<DVec3>,
    pb: Vec<DVec3>,
    n: Vec<DVec3>,
    s: Vec<Status>,
    it: Vec<u32>,
    v: Vec<Verdict<DVec3>>,
    e: Vec<Option<convexity::InputError>>,
}

impl Out {
    fn new(n: usize) -> Self {
        Out {
            d: vec![0.0; n],
            pa: vec![DVec3::ZERO; n],
            pb: vec![DVec3::ZERO; n],
            n: vec![DVec3::ZERO; n],
            s: vec![Status::Converged; n],
            it: vec![0; n],
            v: vec![Verdict::Undetermined; n],
            e: vec![None; n],
        }
    }
    fn out(&mut self) -> DistanceOut<'_, DVec3> {
        DistanceOut {
            distance: &mut self.d,
            point_a: &mut self.pa,
            point_b: &mut self.pb,
            normal: &mut self.n,
            status: &mut self.s,
            iterations: &mut self.it,
            verdict: &mut self.v,
            error: &mut self.e,
        }
    }
}

fn bench_set<S: SupportMap<DVec3>>(c: &mut Criterion, set: &DataSet<S>, table: Vec<Shape3>) {
    let pairs: Vec<Pair3> = set
        .pairs
        .idx
        .iter()
        .zip(set.pairs.ours.iter())
        .map(|(&(a, b), (pa, pb))| Pair3 {
            a: a as usize,
            pose_a: raw(pa),
            b: b as usize,
            pose_b: raw(pb),
        })
        .collect();
    let n = pairs.len();
    let mut out = Out::new(n);
    let one = BatchOptions {
        parallel: false,
        ..BatchOptions::default()
    };
    let rep = batch::distance(&table, &pairs, &one, out.out()).expect("valid batch");
    let overlapping = out
        .v
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
