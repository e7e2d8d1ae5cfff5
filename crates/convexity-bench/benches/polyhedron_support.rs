//! Support queries on a hulled point set: which strategy is fastest at which size.
//!
//! For N = 8, 32, 128, 1024, 10 000, 100 000 points uniform on the unit sphere (all of them
//! hull vertices), hulled once by `ConvexPolyhedron::from_points` (untimed), in random unit
//! directions (`polyhedron-support-<N>`, [`BATCH`] calls per iteration):
//!
//! * `linear-points`: `Points::support_index` on the input (the four-lane scan);
//! * `hill-climb-v0`: `support_hill_climb` from vertex 0 (a cold start);
//! * `hill-climb-map`: `support_from_map` (the best of the candidates the cell map lists for
//!   the direction's cube-map cell);
//! * `hill-climb-hint`: `support_index(dir, Some(prev))` on a slowly turning direction (5°
//!   per call), the previous answer as hint: the coherent-GJK case;
//! * `support-index`: `support_index(dir, None)`, the size-based choice;
//! * `dobkin-kirkpatrick`: `DkHierarchy::support_index` (the hierarchy built once, untimed);
//! * `parry-polyhedron`: parry3d-f64's `ConvexPolyhedron::local_support_point` on the same
//!   points (parry scans its vertices linearly).
//!
//! The crossover sets `LINEAR_MAX_VERTICES` in `convexity::hull`. The current table,
//! with the Dobkin–Kirkpatrick column and the crossover points, is generated into
//! `bench-results/polyhedra.md` by `run.sh polyhedra`. First preliminary medians (ns per call,
//! shared 2-core machine, `--warm-up-time 1 --measurement-time 2`, before the DK column):
//!
//! | N       | linear | climb v0 | climb far | climb hint | support_index | parry  |
//! |---------|--------|----------|-----------|------------|---------------|--------|
//! | 8       | 75     | 138      | 149       | 87         | 139 (linear)  | 44     |
//! | 32      | 181    | 193      | 224       | 72         | 182 (linear)  | 122    |
//! | 128     | 388    | 318      | 180       | 81         | 192           | 479    |
//! | 1024    | 2213   | 786      | 265       | 76         | 264           | 2901   |
//! | 10 000  | 28740  | 5308     | 1244      | 234        | 1084          | 29537  |
//! | 100 000 | 228820 | 54899    | 4396      | 550        | 4209          | 282450 |
//!
//! Crossover linear vs far-start climbing: about 50 vertices (between 32 and 128). The far
//! starts (the `climb far` column above) have since been replaced by a start map, then by the cell
//! map of candidates and the climb table (`convexity::hull::hill_climb`); `bench-results/polyhedra.md` has the current
//! figures.

mod common;

use common::batched;
use convexity::hull::dk::DkHierarchy;
use convexity::hull::ConvexPolyhedron;
use convexity::{DQuat, DVec3, Points};
use convexity_bench::{directions, sphere_points};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use parry3d_f64::shape::SupportMap as _;

/// Calls per iteration.
const BATCH: usize = 1000;
/// Random directions cycled through.
const DIRS: usize = 1021;

fn benches(c: &mut Criterion) {
    let dirs = directions(DIRS, 0x0B0D_5EED);
    // A slowly turning direction for the warm-start case.
    let turn = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 5f64.to_radians());
    let mut d = DVec3::new(0.3, -0.5, 0.8).normalize();
    let coherent: Vec<DVec3> = (0..DIRS)
        .map(|_| {
            d = turn * d;
            d
        })
        .collect();
    let mut raw = serde_json::Map::new();
    for n in [8usize, 32, 128, 1024, 10_000, 100_000] {
        let pts_v = sphere_points(n, 0x9011 + n as u64);
        let pts = Points::new(&pts_v).expect("finite");
        let hull = ConvexPolyhedron::from_points(&pts_v).expect("full-dimensional");
        let parry =
            parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&pts_v).expect("parry hull");
        let t = std::time::Instant::now();
        let dk = DkHierarchy::build(&hull);
        let t_build = t.elapsed().as_secs_f64();
        println!(
            "[polyhedron-support-{n}] DK hierarchy built in {:.3} s, level sizes {:?}",
            t.elapsed().as_secs_f64(),
            dk.level_sizes()
        );
        let v = hull.vertices();
        let mut dk_steps = 0usize;
        for dd in &dirs {
            let want = dd.dot(pts.points()[pts.support_index(*dd)]);
            assert_eq!(dd.dot(v[hull.support_from_map(*dd)]), want);
            let (i, s) = dk.support_index_steps(*dd);
            assert_eq!(dd.dot(v[i]), want, "DK support at n = {n}");
            dk_steps += s;
        }
        println!(
            "[polyhedron-support-{n}] DK: {} levels, {:.2} climbing steps per query",
            dk.levels(),
            dk_steps as f64 / dirs.len() as f64
        );
        raw.insert(
            n.to_string(),
            serde_json::json!({
                "dk_build_s": t_build,
                "dk_level_sizes": dk.level_sizes(),
                "dk_steps_per_query": dk_steps as f64 / dirs.len() as f64,
            }),
        );
        let mut g = c.benchmark_group(format!("polyhedron-support-{n}"));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function("linear-points", |b| {
            batched(b, DIRS, BATCH, |k| {
                pts.support_index(black_box(dirs[k])) as f64
            })
        });
        g.bench_function("hill-climb-v0", |b| {
            batched(b, DIRS, BATCH, |k| {
                hull.support_hill_climb(black_box(dirs[k]), 0).0 as f64
            })
        });
        g.bench_function("hill-climb-map", |b| {
            batched(b, DIRS, BATCH, |k| {
                hull.support_from_map(black_box(dirs[k])) as f64
            })
        });
        g.bench_function("hill-climb-hint", |b| {
            let mut prev = 0usize;
            batched(b, DIRS, BATCH, |k| {
                let (i, _) = hull.support_hill_climb(black_box(coherent[k]), prev);
                prev = i;
                i as f64
            })
        });
        g.bench_function("support-index", |b| {
            batched(b, DIRS, BATCH, |k| {
                hull.support_index(black_box(dirs[k]), None) as f64
            })
        });
        g.bench_function("dobkin-kirkpatrick", |b| {
            batched(b, DIRS, BATCH, |k| {
                dk.support_index(black_box(dirs[k])) as f64
            })
        });
        g.bench_function("parry-polyhedron", |b| {
            batched(b, DIRS, BATCH, |k| {
                parry.local_support_point(black_box(dirs[k])).x
            })
        });
        g.finish();
    }
    convexity_bench::write_raw("polyhedra-support.json", &serde_json::Value::Object(raw));
}

criterion_group! {
    name = polyhedron_support_benches;
    config = common::config(2);
    targets = benches
}
criterion_main!(polyhedron_support_benches);
