//! Point in polygon and polyline intersections, against the `geo` crate.
//!
//! * `pip-one-<shape>-<n>`: one point at a time (64 fixed points per iteration, throughput
//!   per point) in a convex polygon (regular n-gon) or a concave one (star with random radii
//!   in [0.5, 1]), n = 10 .. 100,000 vertices. Ours: `Polygon::locate` (O(n) scan),
//!   `ConvexPolygonLocator::locate` (O(log n), convex only), `PolygonLocator::locate` (slabs,
//!   build not timed); geo: `Intersects<Point>` for `Polygon` (closed set, like ours).
//! * `pip-batch-<shape>-<n>`: a batch of points uniform in the bounding box. Ours:
//!   `PolygonLocator::new` + `locate_batch` on 1,000,000 points, build included. geo:
//!   `intersects` per point on the first `min(1e6, 2e8 / n)` points of the same batch (the full
//!   batch would take minutes at large n); compare the per-point throughput.
//! * `segments-walks-10000`: two random-walk polylines of 10,000 segments each. Ours: the grid
//!   sweep `polyline_intersections` and the double loop `polyline_intersections_brute`; geo:
//!   `sweep::Intersections` over all 20,000 segments (it also reports pairs within one
//!   polyline, which are filtered out after the fact: its cost includes finding them).
//!
//! `BENCH_MAX_N=1000` limits the polygon sizes for quick runs. `BENCH_CONCAVE_BATCH_MAX_N=10000`
//! skips only the concave batch groups above that size (the slab locator is O(n) per query on
//! the random star, so the 100,000-vertex concave batch of 10^6 points takes about a minute
//! per iteration).

use convexity::primitives::polygon::{
    polyline_intersections, polyline_intersections_brute, ConvexPolygonLocator, FillRule, Polygon,
    PolygonLocator,
};
use convexity::DVec2;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use geo::Intersects;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SIZES: [usize; 5] = [10, 100, 1000, 10_000, 100_000];
const BATCH: usize = 1_000_000;

fn max_n() -> usize {
    std::env::var("BENCH_MAX_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX)
}

fn concave_batch_max_n() -> usize {
    std::env::var("BENCH_CONCAVE_BATCH_MAX_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX)
}

fn polygon(n: usize, concave: bool, seed: u64) -> Vec<DVec2> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|k| {
            let t = k as f64 * std::f64::consts::TAU / n as f64;
            let r = if concave {
                rng.gen_range(0.5..1.0)
            } else {
                1.0
            };
            DVec2::new(r * t.cos(), r * t.sin())
        })
        .collect()
}

fn points(count: usize, seed: u64) -> Vec<DVec2> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| DVec2::new(rng.gen_range(-1.05..1.05), rng.gen_range(-1.05..1.05)))
        .collect()
}

fn to_geo(poly: &[DVec2]) -> geo::Polygon<f64> {
    geo::Polygon::new(
        geo::LineString::from(poly.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>()),
        vec![],
    )
}

fn point_in_polygon(c: &mut Criterion) {
    for concave in [false, true] {
        let shape = if concave { "concave" } else { "convex" };
        for &n in SIZES.iter().filter(|&&n| n <= max_n()) {
            let verts = polygon(n, concave, 7 + n as u64);
            let poly = Polygon::new(&verts).expect("valid polygon");
            let loc = PolygonLocator::new(&poly);
            let gpoly = to_geo(&verts);
            let queries = points(64, 11);
            let gq: Vec<geo::Point<f64>> =
                queries.iter().map(|p| geo::Point::new(p.x, p.y)).collect();
            // Same answers before timing anything.
            for (p, g) in queries.iter().zip(&gq) {
                let ours = loc.locate(*p, FillRule::EvenOdd).expect("finite");
                assert_eq!(ours.is_in_closed(), gpoly.intersects(g), "n {n} p {p}");
            }
            let mut group = c.benchmark_group(format!("pip-one-{shape}-{n}"));
            group.throughput(Throughput::Elements(queries.len() as u64));
            if n <= 10_000 {
                group.bench_function("ours-scan", |b| {
                    b.iter(|| {
                        queries
                            .iter()
                            .filter(|&&p| {
                                poly.locate(p, FillRule::EvenOdd)
                                    .is_ok_and(|l| l.is_in_closed())
                            })
                            .count()
                    })
                });
            }
            if !concave {
                let cl = ConvexPolygonLocator::new(&verts).expect("convex");
                group.bench_function("ours-convex-log", |b| {
                    b.iter(|| {
                        queries
                            .iter()
                            .filter(|&&p| cl.locate(p).is_ok_and(|l| l.is_in_closed()))
                            .count()
                    })
                });
            }
            group.bench_function("ours-slabs", |b| {
                b.iter(|| {
                    queries
                        .iter()
                        .filter(|&&p| {
                            loc.locate(p, FillRule::EvenOdd)
                                .is_ok_and(|l| l.is_in_closed())
                        })
                        .count()
                })
            });
            group.bench_function("geo-intersects", |b| {
                b.iter(|| gq.iter().filter(|g| gpoly.intersects(*g)).count())
            });
            group.finish();

            if concave && n > concave_batch_max_n() {
                continue;
            }
            let batch = points(BATCH, 13);
            let mut group = c.benchmark_group(format!("pip-batch-{shape}-{n}"));
            group.sample_size(10);
            group.throughput(Throughput::Elements(BATCH as u64));
            group.bench_function(BenchmarkId::new("ours-slabs", BATCH), |b| {
                b.iter(|| {
                    let loc = PolygonLocator::new(black_box(&poly));
                    loc.locate_batch(&batch, FillRule::EvenOdd)
                        .map(|v| v.len())
                        .unwrap_or(0)
                })
            });
            let geo_count = (200_000_000 / n).clamp(1000, BATCH);
            let gbatch: Vec<geo::Point<f64>> = batch[..geo_count]
                .iter()
                .map(|p| geo::Point::new(p.x, p.y))
                .collect();
            group.throughput(Throughput::Elements(geo_count as u64));
            group.bench_function(BenchmarkId::new("geo-intersects", geo_count), |b| {
                b.iter(|| gbatch.iter().filter(|g| gpoly.intersects(*g)).count())
            });
            group.finish();
        }
    }
}

/// A random walk of `n` steps in the unit square (reflected at the walls).
fn walk(n: usize, step: f64, seed: u64) -> Vec<DVec2> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = DVec2::new(rng.gen_range(0.0..1.0), rng.gen_range(0.0..1.0));
    (0..=n)
        .map(|_| {
            p += DVec2::new(rng.gen_range(-step..step), rng.gen_range(-step..step));
            p = DVec2::new(p.x.rem_euclid(1.0), p.y.rem_euclid(1.0));
            p
        })
        .collect()
}

#[derive(Clone)]
struct Tagged {
    line: geo::Line<f64>,
    side: bool,
}

impl geo::algorithm::sweep::Cross for Tagged {
    type Scalar = f64;
    fn line(&self) -> geo::Line<f64> {
        self.line
    }
}

fn segments(c: &mut Criterion) {
    let n = 10_000;
    // Steps of up to 0.02 in the unit square: each polyline crosses itself and the other
    // often (the wrap-around jumps add some long segments).
    let a = walk(n, 0.02, 1);
    let b = walk(n, 0.02, 2);
    let sweep = polyline_intersections(&a, &b).expect("finite");
    let brute = polyline_intersections_brute(&a, &b).expect("finite");
    assert_eq!(sweep, brute);
    let tagged: Vec<Tagged> = [(&a, false), (&b, true)]
        .iter()
        .flat_map(|(pts, side)| {
            pts.windows(2).map(move |w| Tagged {
                line: geo::Line::new((w[0].x, w[0].y), (w[1].x, w[1].y)),
                side: *side,
            })
        })
        .collect();
    let geo_ab = || {
        geo::algorithm::sweep::Intersections::from_iter(tagged.iter().cloned())
            .filter(|(s, t, _)| s.side != t.side)
            .count()
    };
    eprintln!(
        "segments-walks-{n}: {} hits (ours), {} A-B pairs (geo, before shared-vertex dedup)",
        sweep.len(),
        geo_ab()
    );
    let mut group = c.benchmark_group(format!("segments-walks-{n}"));
    group.sample_size(10);
    group.bench_function("ours-grid-sweep", |bch| {
        bch.iter(|| polyline_intersections(black_box(&a), black_box(&b)).map(|h| h.len()))
    });
    group.bench_function("ours-double-loop", |bch| {
        bch.iter(|| polyline_intersections_brute(black_box(&a), black_box(&b)).map(|h| h.len()))
    });
    group.bench_function("geo-sweep", |bch| bch.iter(geo_ab));
    group.finish();
}

criterion_group!(benches, point_in_polygon, segments);
criterion_main!(benches);
