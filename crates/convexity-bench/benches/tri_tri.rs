//! Triangle–triangle boolean test: `convexity::primitives::tri_tri::tri_tri_test` (exact orientation
//! predicates) and `convexity::primitives::tri_tri::tri_tri` (with the intersection geometry) against
//! `parry3d_f64::query::intersection_test` on two `Triangle`s (parry has no dedicated
//! triangle–triangle test in its public query API; its dispatcher runs GJK on the two support
//! maps), on identical seeded pairs in three regimes:
//!
//! * `overlapping`: random triangles in [−1, 1]³ kept when they intersect;
//! * `near-miss`: an overlapping pair with B translated along a random direction to just past
//!   first separation (bisection to a gap of about 1e-11);
//! * `disjoint`: B translated 4 units along a random direction (bounding balls apart).
//!
//! Each regime holds `PAIRS` pairs (cycled; 2^17 rather than 10^6 to keep memory small on the
//! shared machine); one iteration runs `BATCH` consecutive pairs, so `median / BATCH` is the
//! time per pair. Also: bounding-sphere and AABB overlap checks and sort-and-sweep versus the
//! O(n²) loop for n = 10,000 boxes.

mod common;

use common::batched;
use convexity::primitives::bounds::{Aabb, BoundingSphere};
use convexity::primitives::sweep_prune::{brute_force_pairs, candidate_pairs};
use convexity::primitives::tri_tri::{tri_tri, tri_tri_test};
use convexity::{DQuat, DVec3, Pose3};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PAIRS: usize = 1 << 17;
const BATCH: usize = 1000;

type Tri = [DVec3; 3];

fn rand_tri(r: &mut ChaCha8Rng) -> Tri {
    [(); 3].map(|_| {
        DVec3::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        )
    })
}

fn rand_dir(r: &mut ChaCha8Rng) -> DVec3 {
    loop {
        let d = DVec3::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let l = d.length();
        if l > 0.1 && l <= 1.0 {
            return d / l;
        }
    }
}

fn overlapping_pair(r: &mut ChaCha8Rng) -> (Tri, Tri) {
    loop {
        let (a, b) = (rand_tri(r), rand_tri(r));
        if tri_tri_test(a, b) {
            return (a, b);
        }
    }
}

fn regime(name: &str, seed: u64) -> Vec<(Tri, Tri)> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..PAIRS)
        .map(|_| {
            let (a, b) = overlapping_pair(&mut r);
            match name {
                "overlapping" => (a, b),
                "near-miss" => {
                    let d = rand_dir(&mut r);
                    let (mut lo, mut hi) = (0.0, 4.0);
                    for _ in 0..40 {
                        let mid = 0.5 * (lo + hi);
                        if tri_tri_test(a, b.map(|p| p + d * mid)) {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    (a, b.map(|p| p + d * hi))
                }
                _ => {
                    let d = rand_dir(&mut r) * 4.0;
                    (a, b.map(|p| p + d))
                }
            }
        })
        .collect()
}

fn bench_tri_tri(c: &mut Criterion) {
    use parry3d_f64::math::Pose;
    use parry3d_f64::query;
    use parry3d_f64::shape::Triangle;
    let id = Pose::IDENTITY;
    for (name, seed) in [("overlapping", 1u64), ("near-miss", 2), ("disjoint", 3)] {
        let pairs = regime(name, seed);
        let parry: Vec<(Triangle, Triangle)> = pairs
            .iter()
            .map(|(a, b)| {
                (
                    Triangle::new(a[0], a[1], a[2]),
                    Triangle::new(b[0], b[1], b[2]),
                )
            })
            .collect();
        let hits_ours = pairs.iter().filter(|(a, b)| tri_tri_test(*a, *b)).count();
        let hits_parry = parry
            .iter()
            .filter(|(a, b)| {
                query::intersection_test(&id, a, &id, b)
                    .map(|x| x.intersecting)
                    .unwrap_or(false)
            })
            .count();
        eprintln!(
            "tri-tri {name}: {PAIRS} pairs, intersecting: ours {hits_ours}, parry {hits_parry}"
        );
        let n = pairs.len();
        let mut g = c.benchmark_group(format!("tri_tri-{name}"));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function("convexity-test", |b| {
            batched(b, n, BATCH, |k| {
                let (x, y) = pairs[k];
                f64::from(u8::from(tri_tri_test(x, y)))
            })
        });
        g.bench_function("convexity-construct", |b| {
            batched(b, n, BATCH, |k| {
                let (x, y) = pairs[k];
                f64::from(u8::from(tri_tri(x, y).is_intersecting()))
            })
        });
        g.bench_function("parry3d-f64", |b| {
            batched(b, n, BATCH, |k| {
                let (x, y) = &parry[k];
                let hit = query::intersection_test(&id, x, &id, y)
                    .map(|r| r.intersecting)
                    .unwrap_or(false);
                f64::from(u8::from(hit))
            })
        });
        g.finish();
    }
}

fn bench_bounds(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(4);
    let n = 10_000;
    let boxes: Vec<Aabb<DVec3>> = (0..n)
        .map(|_| {
            let c = DVec3::new(
                r.gen_range(-100.0..100.0),
                r.gen_range(-100.0..100.0),
                r.gen_range(-100.0..100.0),
            );
            let h = DVec3::splat(r.gen_range(0.1..1.0));
            Aabb {
                min: c - h,
                max: c + h,
            }
        })
        .collect();
    let mut g = c.benchmark_group("all-pairs-10000");
    g.sample_size(10);
    g.bench_function("sort-and-sweep", |b| {
        b.iter(|| candidate_pairs(black_box(&boxes)).len())
    });
    g.bench_function("brute-force", |b| {
        b.iter(|| brute_force_pairs(black_box(&boxes)).len())
    });
    g.finish();

    // Per-check costs: posed sphere (origin-centred: no vertex transform) and posed AABB.
    let pts: Vec<DVec3> = (0..64)
        .map(|_| {
            DVec3::new(
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
            )
        })
        .collect();
    let sphere = BoundingSphere::about_origin(&pts).unwrap_or(BoundingSphere {
        center: DVec3::ZERO,
        radius: 1.0,
    });
    let local = Aabb::from_points(&pts).unwrap_or(boxes[0]);
    let poses: Vec<Pose3> = (0..1024)
        .map(|_| {
            let q = DQuat::from_euler(
                glam::EulerRot::XYZ,
                r.gen_range(0.0..6.0),
                r.gen_range(0.0..6.0),
                r.gen_range(0.0..6.0),
            );
            Pose3::new(
                DVec3::new(r.gen_range(-3.0..3.0), r.gen_range(-3.0..3.0), 0.0),
                q,
            )
            .unwrap_or(Pose3::IDENTITY)
        })
        .collect();
    let mut g = c.benchmark_group("posed-bound-check");
    g.throughput(Throughput::Elements(BATCH as u64));
    let np = poses.len();
    g.bench_function("sphere-origin", |b| {
        batched(b, np, BATCH, |k| {
            let s1 = sphere.posed(&poses[k]);
            let s2 = sphere.posed(&poses[(k + 1) % np]);
            f64::from(u8::from(s1.intersects(&s2)))
        })
    });
    g.bench_function("aabb-fast", |b| {
        batched(b, np, BATCH, |k| {
            let b1 = local.transformed(&poses[k]);
            let b2 = local.transformed(&poses[(k + 1) % np]);
            f64::from(u8::from(b1.intersects(&b2)))
        })
    });
    g.bench_function("aabb-exact-64-vertices", |b| {
        batched(b, np, BATCH, |k| {
            let b1 = Aabb::from_points_posed(&pts, &poses[k]).unwrap_or(local);
            let b2 = Aabb::from_points_posed(&pts, &poses[(k + 1) % np]).unwrap_or(local);
            f64::from(u8::from(b1.intersects(&b2)))
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::config(2);
    targets = bench_tri_tri, bench_bounds
}
criterion_main!(benches);
