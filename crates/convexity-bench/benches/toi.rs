//! Time of impact: root solves per second, vertex–edge TOIs, and the swept GJK ray cast
//! (`convexity::toi::swept_toi`) against parry3d-f64 `query::cast_shapes`, on the foundation
//! hull sets (`hull8`, `hull32`; the same shapes and pose pairs for both libraries).
//!
//! Motion for the swept benchmark, identical for both libraries: A is still, B moves toward A's
//! origin by `s · (t_A − t_B)` over the step `h = 1`, with `s` cycling through 0.25, 0.75, 1.5
//! (so some pairs miss, some hit, some start overlapping). Throughput is per query.
//!
//! Groups: `roots` (`quadratic`, `quartic`: Sturm isolation and bisection on random
//! polynomials with roots in [0, 1]), `vertex-edge` (`quadratic`, `quartic`), and
//! `swept-<set>` (`convexity`, `parry3d-f64`).

mod common;

use common::{batched, config};
use convexity::toi::roots::{quadratic_roots, quartic_roots};
use convexity::toi::{swept_toi, vertex_edge_toi, Kinematic2, SweptOptions};
use convexity::{DVec2, DVec3};
use convexity_bench::{hull_set_with_pairs, DataSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 4096;
const BATCH: usize = 256;

fn polys(deg: usize) -> Vec<[f64; 5]> {
    let mut r = ChaCha8Rng::seed_from_u64(0x700 + deg as u64);
    (0..N)
        .map(|_| {
            let mut c = vec![1.0];
            for _ in 0..deg {
                let x: f64 = r.gen_range(-0.5..1.5);
                let mut n = vec![0.0; c.len() + 1];
                for (i, ci) in c.iter().enumerate() {
                    n[i + 1] += ci;
                    n[i] -= ci * x;
                }
                c = n;
            }
            let mut out = [0.0; 5];
            out[..c.len()].copy_from_slice(&c);
            out
        })
        .collect()
}

fn kin(r: &mut ChaCha8Rng, accel: bool) -> Kinematic2 {
    let mut u = || r.gen_range(-1.0..1.0);
    let p = DVec2::new(u(), u());
    let v = DVec2::new(u(), u()) * 2.0;
    let a = if accel {
        DVec2::new(u(), u()) * 4.0
    } else {
        DVec2::ZERO
    };
    Kinematic2::with_acceleration(p, v, a)
}

fn roots(c: &mut Criterion) {
    let q = polys(2);
    let p4 = polys(4);
    let mut g = c.benchmark_group("roots");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("quadratic", |b| {
        batched(b, N, BATCH, |k| {
            let c = &q[k];
            quadratic_roots(c[0], c[1], c[2], 1.0)
                .first()
                .unwrap_or(0.0)
        })
    });
    g.bench_function("quartic", |b| {
        batched(b, N, BATCH, |k| {
            quartic_roots(p4[k], 1.0).first().unwrap_or(0.0)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("vertex-edge");
    g.throughput(Throughput::Elements(BATCH as u64));
    for (name, accel) in [("quadratic", false), ("quartic", true)] {
        let mut r = ChaCha8Rng::seed_from_u64(0x7e + accel as u64);
        let cases: Vec<[Kinematic2; 3]> = (0..N)
            .map(|_| [kin(&mut r, accel), kin(&mut r, accel), kin(&mut r, accel)])
            .collect();
        g.bench_function(name, |b| {
            batched(b, N, BATCH, |k| {
                let [p, a, e] = &cases[k];
                vertex_edge_toi(p, a, e, 1.0)
                    .ok()
                    .and_then(|t| t.toi())
                    .unwrap_or(0.0)
            })
        });
    }
    g.finish();
}

fn swept_set(c: &mut Criterion, set: &DataSet<convexity::Points<DVec3>>) {
    use parry3d_f64::query::{cast_shapes, ShapeCastOptions};
    let n = set.pairs.len();
    let scale = [0.25, 0.75, 1.5];
    let vel: Vec<DVec3> = (0..n)
        .map(|k| {
            let (pa, pb) = set.pairs.ours[k];
            (pa.translation() - pb.translation()) * scale[k % 3]
        })
        .collect();
    // Agreement and status counts, untimed.
    let (mut hits, mut agree, mut worst) = (0, 0, 0.0f64);
    for (k, v) in vel.iter().enumerate() {
        let (ia, ib) = set.pairs.idx[k];
        let (pa, pb) = set.pairs.ours[k];
        let ours = swept_toi(
            &set.shapes[ia as usize],
            &pa,
            DVec3::ZERO,
            &set.shapes[ib as usize],
            &pb,
            *v,
            1.0,
            &SweptOptions::default(),
        )
        .ok()
        .and_then(|t| t.toi());
        let (qa, qb) = set.pairs.parry64[k];
        let theirs = cast_shapes(
            &qa,
            DVec3::ZERO,
            set.parry64[ia as usize].as_ref(),
            &qb,
            *v,
            set.parry64[ib as usize].as_ref(),
            ShapeCastOptions::with_max_time_of_impact(1.0),
        )
        .ok()
        .flatten()
        .map(|h| h.time_of_impact)
        .filter(|t| *t > 0.0);
        if let (Some(x), Some(y)) = (ours, theirs) {
            hits += 1;
            worst = worst.max((x - y).abs());
            agree += 1;
        } else if ours.is_none() && theirs.is_none() {
            agree += 1;
        }
    }
    eprintln!(
        "swept-{}: {n} pairs, {hits} hits, status agreement {agree}/{n}, worst |Δtoi| {worst:e}",
        set.name()
    );
    let mut g = c.benchmark_group(format!("swept-{}", set.name()));
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("convexity", |b| {
        batched(b, n, BATCH, |k| {
            let (ia, ib) = set.pairs.idx[k];
            let (pa, pb) = set.pairs.ours[k];
            swept_toi(
                &set.shapes[ia as usize],
                &pa,
                DVec3::ZERO,
                &set.shapes[ib as usize],
                &pb,
                vel[k],
                1.0,
                &SweptOptions::default(),
            )
            .ok()
            .and_then(|t| t.toi())
            .unwrap_or(0.0)
        })
    });
    g.bench_function("parry3d-f64", |b| {
        batched(b, n, BATCH, |k| {
            let (ia, ib) = set.pairs.idx[k];
            let (qa, qb) = set.pairs.parry64[k];
            cast_shapes(
                &qa,
                DVec3::ZERO,
                set.parry64[ia as usize].as_ref(),
                &qb,
                vel[k],
                set.parry64[ib as usize].as_ref(),
                ShapeCastOptions::with_max_time_of_impact(1.0),
            )
            .ok()
            .flatten()
            .map_or(0.0, |h| h.time_of_impact)
        })
    });
    g.finish();
}

fn swept(c: &mut Criterion) {
    for hull in [8, 32] {
        let set = hull_set_with_pairs(hull, 2000);
        swept_set(c, &set);
    }
}

criterion_group! {
    name = benches;
    config = config(2);
    targets = roots, swept
}
criterion_main!(benches);
