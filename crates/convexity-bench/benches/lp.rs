//! LP intersection (`convexity::lp`) against GJK and against the `microlp` crate.
//!
//! * Groups `lp-hull8`, `lp-hull32`, `lp-hull128`: the foundation hull sets
//!   ([`convexity_bench::hull_set_with_pairs`], the first [`PAIRS_3D`] pose pairs); one
//!   iteration answers every pair. Functions: `gjk-boolean` (`gjk::intersects`), `lp`
//!   (`lp::intersect_points`, production) and `lp-reference` (`lp::intersect_points_reference`,
//!   dense tableau with Bland's rule). Both LPs transform the vertices to the world frame
//!   first, inside the timing.
//! * Groups `lp-nd-d{2,5,10,50,100}-{separable,overlapping}`: two clouds of [`CLOUD`] points
//!   in the unit ball, centres 3 apart (separable, gap about 1) or 0.5 apart (overlapping),
//!   seeded. Functions: `lp` (`lp::intersect`) and `microlp` (the same feasibility LP, n + 2
//!   equality rows over λ, μ ≥ 0 with a zero objective, solved by microlp's simplex; the
//!   problem is built inside the timing, as ours is).
//!
//! Before timing, every answer is compared between the methods (printed; a disagreement
//! outside GJK's tolerance band panics).
//!
//! `BENCH_LP_DIMS=2,5` restricts the n-D dimensions.

use convexity::lp::{self, LpOptions};
use convexity::nd::points::PointsN;
use convexity::{gjk, DVec3, Points, Pose3};
use convexity_bench::hull_set_with_pairs;
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// Pose pairs per 3D set.
const PAIRS_3D: usize = 200;
/// Points per cloud in the n-D groups.
const CLOUD: usize = 1000;

fn hull_groups(c: &mut Criterion) {
    let opts = LpOptions::default();
    for n in [8usize, 32, 128] {
        let set = hull_set_with_pairs(n, PAIRS_3D);
        let pairs: Vec<(&Points<DVec3>, Pose3, &Points<DVec3>, Pose3)> = set
            .pairs
            .idx
            .iter()
            .zip(&set.pairs.ours)
            .map(|(&(ia, ib), &(pa, pb))| {
                (&set.shapes[ia as usize], pa, &set.shapes[ib as usize], pb)
            })
            .collect();
        // Agreement check (untimed).
        let (mut overlap, mut disagree) = (0, 0);
        for (a, pa, b, pb) in &pairs {
            let g = gjk::intersects(*a, pa, *b, pb, &Default::default(), None);
            let l = lp::intersect_points(*a, pa, *b, pb, &opts).expect("valid input");
            let r = lp::intersect_points_reference(*a, pa, *b, pb, &opts).expect("valid input");
            if g.intersecting() == Some(true) {
                overlap += 1;
            }
            if g.intersecting() != l.verdict.intersecting()
                || g.intersecting() != r.verdict.intersecting()
            {
                disagree += 1;
            }
        }
        println!(
            "hull{n}: {} pairs, {overlap} overlapping (GJK), {disagree} disagreements gjk/lp/reference",
            pairs.len()
        );
        let mut g = c.benchmark_group(format!("lp-hull{n}"));
        g.sample_size(10);
        g.bench_function("gjk-boolean", |bch| {
            bch.iter(|| {
                let mut k = 0;
                for (a, pa, b, pb) in &pairs {
                    let r = gjk::intersects(*a, pa, *b, pb, &Default::default(), None);
                    k += r.intersecting().unwrap_or(false) as u32;
                }
                black_box(k)
            })
        });
        g.bench_function("lp", |bch| {
            bch.iter(|| {
                let mut k = 0;
                for (a, pa, b, pb) in &pairs {
                    let r = lp::intersect_points(*a, pa, *b, pb, &opts).expect("valid input");
                    k += r.verdict.intersecting().unwrap_or(false) as u32;
                }
                black_box(k)
            })
        });
        g.bench_function("lp-reference", |bch| {
            bch.iter(|| {
                let mut k = 0;
                for (a, pa, b, pb) in &pairs {
                    let r =
                        lp::intersect_points_reference(*a, pa, *b, pb, &opts).expect("valid input");
                    k += r.verdict.intersecting().unwrap_or(false) as u32;
                }
                black_box(k)
            })
        });
        g.finish();
    }
}

fn gaussian(r: &mut ChaCha8Rng) -> f64 {
    let u: f64 = r.gen_range(1e-12..1.0);
    let v: f64 = r.gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn unit(r: &mut ChaCha8Rng, d: usize) -> Vec<f64> {
    loop {
        let v: Vec<f64> = (0..d).map(|_| gaussian(r)).collect();
        let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if l > 1e-6 {
            return v.iter().map(|x| x / l).collect();
        }
    }
}

/// [`CLOUD`] points uniform in the unit ball about `c`.
fn cloud(r: &mut ChaCha8Rng, c: &[f64]) -> PointsN {
    let d = c.len();
    let mut coords = Vec::with_capacity(d * CLOUD);
    for _ in 0..CLOUD {
        let u = unit(r, d);
        let s = r.gen::<f64>().powf(1.0 / d as f64);
        coords.extend(c.iter().zip(&u).map(|(ci, ui)| ci + s * ui));
    }
    PointsN::new(d, coords).expect("finite")
}

/// The feasibility LP in microlp: `Some(true)` feasible (intersecting), `Some(false)`
/// infeasible, `None` on any other solver error.
fn microlp_intersects(a: &PointsN, b: &PointsN) -> Option<bool> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let lam: Vec<_> = (0..a.len())
        .map(|_| p.add_var(0.0, (0.0, f64::INFINITY)))
        .collect();
    let mu: Vec<_> = (0..b.len())
        .map(|_| p.add_var(0.0, (0.0, f64::INFINITY)))
        .collect();
    for k in 0..a.dim() {
        let mut row: Vec<(microlp::Variable, f64)> = Vec::with_capacity(a.len() + b.len());
        row.extend(lam.iter().zip(a.iter()).map(|(v, s)| (*v, s[k])));
        row.extend(mu.iter().zip(b.iter()).map(|(v, t)| (*v, -t[k])));
        p.add_constraint(row.as_slice(), ComparisonOp::Eq, 0.0);
    }
    let ones: Vec<(microlp::Variable, f64)> = lam.iter().map(|v| (*v, 1.0)).collect();
    p.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let ones: Vec<(microlp::Variable, f64)> = mu.iter().map(|v| (*v, 1.0)).collect();
    p.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    match p.solve() {
        Ok(_) => Some(true),
        Err(microlp::Error::Infeasible) => Some(false),
        Err(_) => None,
    }
}

fn nd_groups(c: &mut Criterion) {
    let opts = LpOptions::default();
    let dims: Vec<usize> = std::env::var("BENCH_LP_DIMS")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2, 5, 10, 50, 100]);
    for d in dims {
        for (name, dist) in [("separable", 3.0), ("overlapping", 0.5)] {
            let mut r = ChaCha8Rng::seed_from_u64(0x1b00 + d as u64);
            let a = cloud(&mut r, &vec![0.0; d]);
            let dir = unit(&mut r, d);
            let cb: Vec<f64> = dir.iter().map(|x| x * dist).collect();
            let b = cloud(&mut r, &cb);
            let ours = lp::intersect(&a, &b, &opts).expect("valid input");
            let theirs = microlp_intersects(&a, &b);
            println!(
                "d={d} {name}: lp {:?} ({:?}, {} pivots), microlp {:?}",
                ours.intersecting(),
                ours.status,
                ours.iterations,
                theirs
            );
            let mut g = c.benchmark_group(format!("lp-nd-d{d}-{name}"));
            g.sample_size(10);
            g.warm_up_time(Duration::from_millis(500));
            g.bench_function("lp", |bch| {
                bch.iter(|| {
                    black_box(
                        lp::intersect(&a, &b, &opts)
                            .expect("valid input")
                            .iterations,
                    )
                })
            });
            g.bench_function("microlp", |bch| {
                bch.iter(|| black_box(microlp_intersects(&a, &b)))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, hull_groups, nd_groups);
criterion_main!(benches);
