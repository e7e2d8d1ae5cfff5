//! n-D hull distance: `convexity::nd::gjk::distance_n` (GJK with Wolfe's method) vs the
//! clarabel SOCP oracle of the test kit, and the PSO / exterior-penalty alternatives vs
//! `distance_n`, on identical seeded inputs in the same run.
//!
//! Part 1 (criterion groups `nd-<sep|ovl>-d<n>`, functions `distance_n` and `clarabel`): two
//! Gaussian clouds of 1,000 points each in n = 2, 5, 10, 50, 100, separable (centres
//! `2√n + 8` apart) or overlapping (centres 0.5 apart). Before timing, both are run once
//! untimed and the agreement `|d − d_oracle| / scale` is printed. The clarabel side is
//! `hull_distance_with` (interior point + the oracle's polish, which costs O((m + n)·D²) and
//! is small next to the solve). `BENCH_ND_DIMS=2,5` restricts the dimensions.
//!
//! Part 2 (printed table, not criterion): PSO (raw and polished) and the penalty baseline vs
//! `distance_n` on `BENCH_ND_SEEDS` (default 50) random pairs of 8–16-vertex clouds in 3 and
//! 10 dimensions (and the two published tetrahedron pairs): median time, median and maximum
//! error against `distance_n`, and success rates (error ≤ 1e-6 and ≤ 1e-2·scale). Also
//! written to `bench-results/raw/nd-pso.json`.

mod common;

use convexity::nd::gjk::{distance_n, NdOptions};
use convexity::nd::points::PointsN;
use convexity::nd::pso::{penalty_distance, pso_distance, PenaltyOptions, PsoOptions};
use convexity_bench::harness::median;
use convexity_bench::write_raw;
use convexity_testkit::gen_nd::{gaussian_cloud, unit_vector};
use convexity_testkit::hull_oracle::{hull_distance_with, OracleOptions};
use convexity_testkit::rng::{case_rng, Rng};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

const DIMS: [usize; 5] = [2, 5, 10, 50, 100];
const POINTS: usize = 1000;

fn dims() -> Vec<usize> {
    match std::env::var("BENCH_ND_DIMS") {
        Ok(v) if !v.trim().is_empty() => {
            v.split(',').filter_map(|s| s.trim().parse().ok()).collect()
        }
        _ => DIMS.to_vec(),
    }
}

fn clouds(n: usize, separable: bool) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut r = case_rng(0x4e44_be00 + n as u64, separable as u64);
    let a = gaussian_cloud(&mut r, POINTS, &vec![0.0; n], 1.0);
    let u = unit_vector(&mut r, n);
    let shift = if separable {
        2.0 * (n as f64).sqrt() + 8.0
    } else {
        0.5
    };
    let cb: Vec<f64> = u.iter().map(|x| shift * x).collect();
    let b = gaussian_cloud(&mut r, POINTS, &cb, 1.0);
    (a, b)
}

fn big(c: &mut Criterion) {
    let oracle_opts = OracleOptions::default();
    for n in dims() {
        for separable in [true, false] {
            let (a, b) = clouds(n, separable);
            let (pa, pb) = (
                PointsN::from_rows(&a).unwrap(),
                PointsN::from_rows(&b).unwrap(),
            );
            let t = Instant::now();
            let ours = distance_n(&pa, &pb, &NdOptions::default()).unwrap();
            let t_ours = t.elapsed();
            let t = Instant::now();
            let o = hull_distance_with(&a, &b, &oracle_opts).unwrap();
            let t_oracle = t.elapsed();
            eprintln!(
                "nd d={n} {}: distance_n {:.12e} ({:?}, {} it, {:?}) clarabel {:.12e} ({:?}, verified {}, \
                 {} it) |diff|/scale {:.1e}",
                if separable { "sep" } else { "ovl" },
                ours.distance,
                ours.status,
                ours.iterations,
                t_ours,
                o.distance,
                t_oracle,
                o.verified,
                o.solver_iterations,
                (ours.distance - o.distance).abs() / o.scale
            );
            let mut g =
                c.benchmark_group(format!("nd-{}-d{n}", if separable { "sep" } else { "ovl" }));
            g.sample_size(10);
            g.bench_function("distance_n", |bch| {
                bch.iter(|| {
                    black_box(
                        distance_n(&pa, &pb, &NdOptions::default())
                            .unwrap()
                            .distance,
                    )
                })
            });
            g.bench_function("clarabel", |bch| {
                bch.iter(|| black_box(hull_distance_with(&a, &b, &oracle_opts).unwrap().distance))
            });
            g.finish();
        }
    }
}

/// One method's tallies over the seeds.
#[derive(Default)]
struct Tally {
    times: Vec<f64>,
    errors: Vec<f64>,
    ok_abs: usize,
    ok_rel: usize,
}

impl Tally {
    fn add(&mut self, secs: f64, err: f64, scale: f64) {
        self.times.push(secs);
        self.errors.push(err);
        self.ok_abs += (err <= 1e-6) as usize;
        self.ok_rel += (err <= 1e-2 * scale) as usize;
    }

    fn row(&mut self, name: &str) -> serde_json::Value {
        let n = self.times.len();
        let t = median(&mut self.times);
        let e = median(&mut self.errors);
        let mx = self.errors.last().copied().unwrap_or(0.0);
        eprintln!(
            "  {name:<14} median time {:>10.3} us  median err {e:>9.2e}  max err {mx:>9.2e}  \
             err<=1e-6 {}/{n}  err<=1e-2*scale {}/{n}",
            t * 1e6,
            self.ok_abs,
            self.ok_rel
        );
        serde_json::json!({
            "method": name, "cases": n, "median_time_s": t, "median_error": e,
            "max_error": mx, "success_1e-6": self.ok_abs, "success_1e-2_scale": self.ok_rel,
        })
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

fn swarm_table() {
    let seeds: u64 = std::env::var("BENCH_ND_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let mut out = Vec::new();
    for name in ["tetra-B1", "tetra-B2", "random-3d", "random-10d"] {
        let make = |seed: u64| case(name, seed);
        let (mut gjk, mut raw, mut pol, mut pen) = Default::default();
        let (gjk, raw, pol, pen): (&mut Tally, &mut Tally, &mut Tally, &mut Tally) =
            (&mut gjk, &mut raw, &mut pol, &mut pen);
        for seed in 0..seeds {
            let (a, b) = make(seed);
            let scale = a.size() + b.size();
            let (exact, t) = timed(|| distance_n(&a, &b, &NdOptions::default()).unwrap());
            gjk.add(t, 0.0, scale);
            let o = PsoOptions {
                seed,
                ..PsoOptions::default()
            };
            let (r, t) =
                timed(|| pso_distance(&a, &b, &PsoOptions { polish: false, ..o }).unwrap());
            raw.add(t, (r.distance - exact.distance).abs(), scale);
            let (r, t) = timed(|| pso_distance(&a, &b, &o).unwrap());
            pol.add(t, (r.distance - exact.distance).abs(), scale);
            let (r, t) = timed(|| penalty_distance(&a, &b, &PenaltyOptions::default()).unwrap());
            pen.add(t, (r.distance - exact.distance).abs(), scale);
        }
        eprintln!("{name} ({seeds} seeds; errors against distance_n):");
        out.push(serde_json::json!({
            "set": name,
            "rows": [gjk.row("distance_n"), raw.row("pso-raw"), pol.row("pso-polished"), pen.row("penalty")],
        }));
    }
    write_raw("nd-pso.json", &serde_json::Value::Array(out));
}

/// The published tetrahedron pairs (B1 touching, B2 at distance 1) or a random pair.
fn case(name: &str, seed: u64) -> (PointsN, PointsN) {
    let set = |rows: &[[f64; 3]]| PointsN::from_rows(rows).unwrap();
    let a = set(&[
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0],
    ]);
    match name {
        "tetra-B1" => (
            a,
            set(&[
                [1.0, 0.0, 0.0],
                [2.0, -2.0, 0.0],
                [0.0, -2.0, 2.0],
                [0.0, -2.0, 0.0],
            ]),
        ),
        "tetra-B2" => (
            a,
            set(&[
                [1.0, -1.0, 0.0],
                [2.0, -2.0, 0.0],
                [0.0, -2.0, 2.0],
                [0.0, -2.0, 0.0],
            ]),
        ),
        "random-3d" => random_pair(3, seed),
        _ => random_pair(10, seed),
    }
}

fn random_pair(n: usize, seed: u64) -> (PointsN, PointsN) {
    let mut r = case_rng(0x9050_be00 + n as u64, seed);
    let ma = r.gen_range(8..=16);
    let mb = r.gen_range(8..=16);
    let a = gaussian_cloud(&mut r, ma, &vec![0.0; n], 1.0);
    let u = unit_vector(&mut r, n);
    let shift = r.gen_range(0.0..6.0);
    let cb: Vec<f64> = u.iter().map(|x| shift * x).collect();
    let b = gaussian_cloud(&mut r, mb, &cb, 1.0);
    (
        PointsN::from_rows(&a).unwrap(),
        PointsN::from_rows(&b).unwrap(),
    )
}

fn swarm(_: &mut Criterion) {
    if std::env::var("BENCH_ND_SKIP_PSO").is_err() {
        swarm_table();
    }
}

fn config() -> Criterion {
    common::config(2).warm_up_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = swarm, big
}
criterion_main!(benches);
