//! Half-space methods on the same pairs: Seidel's LP (`seidel::intersect_pair`, union of the
//! two row sets, 3 variables), Fourier–Motzkin (`fourier_motzkin::intersect_pair`), the
//! separating-plane LP on the vertex sets (`seidel::separating_plane`, 5 variables), and GJK's
//! boolean query on the same shapes (support by a scan of the enumerated vertices). There is no
//! half-space peer in parry, so GJK is the reference.
//!
//! Data: 64 pairs of hulls of 12 points on spheres of radius 1 (≈20 facets each), B's centre
//! at distance 0..2.5 from A's in a random direction (about half of them intersect), seeded.

use convexity::lp::fourier_motzkin::{self, FmOptions};
use convexity::lp::seidel;
use convexity::math::seidel_lp::SeidelOptions;
use convexity::{gjk, BoundedHalfspaces, DVec3, Halfspaces, Pose};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn unit(r: &mut ChaCha8Rng) -> DVec3 {
    let z: f64 = r.gen_range(-1.0..=1.0);
    let a: f64 = r.gen_range(0.0..std::f64::consts::TAU);
    let s = (1.0 - z * z).sqrt();
    DVec3::new(s * a.cos(), s * a.sin(), z)
}

type Pair = (BoundedHalfspaces<DVec3>, BoundedHalfspaces<DVec3>);

fn pairs() -> Vec<Pair> {
    let mut r = ChaCha8Rng::seed_from_u64(0x4a1f);
    let mut out = Vec::new();
    while out.len() < 64 {
        let a: Vec<DVec3> = (0..12).map(|_| unit(&mut r)).collect();
        let off = unit(&mut r) * r.gen_range(0.0..2.5);
        let b: Vec<DVec3> = (0..12).map(|_| unit(&mut r) + off).collect();
        let (Ok(ha), Ok(hb)) = (Halfspaces::from_hull(&a), Halfspaces::from_hull(&b)) else {
            continue;
        };
        let (Ok(ba), Ok(bb)) = (BoundedHalfspaces::new(ha), BoundedHalfspaces::new(hb)) else {
            continue;
        };
        out.push((ba, bb));
    }
    out
}

fn bench(c: &mut Criterion) {
    let data = pairs();
    let id = Pose::IDENTITY;
    let mut g = c.benchmark_group("halfspace-hull12");
    // Fourier–Motzkin takes about 1 s per iteration (64 pairs): 10 samples, not 100.
    g.sample_size(10);
    g.bench_function("seidel", |bch| {
        bch.iter(|| {
            for (a, b) in &data {
                black_box(seidel::intersect_pair(a, &id, b, &id, &SeidelOptions::default()).ok());
            }
        })
    });
    g.bench_function("fourier-motzkin", |bch| {
        bch.iter(|| {
            for (a, b) in &data {
                black_box(
                    fourier_motzkin::intersect_pair(a, &id, b, &id, &FmOptions::default()).ok(),
                );
            }
        })
    });
    g.bench_function("separating-plane", |bch| {
        bch.iter(|| {
            for (a, b) in &data {
                black_box(
                    seidel::separating_plane(a.vertices(), b.vertices(), &SeidelOptions::default())
                        .ok(),
                );
            }
        })
    });
    g.bench_function("gjk-boolean", |bch| {
        bch.iter(|| {
            for (a, b) in &data {
                black_box(gjk::intersects(
                    a,
                    &id,
                    b,
                    &id,
                    &gjk::Options::default(),
                    None,
                ));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
