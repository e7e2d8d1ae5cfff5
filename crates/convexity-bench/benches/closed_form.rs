//! Closed-form primitive pairs (`gjk::closed_form`) against parry3d-f64: ball–ball and
//! capsule–capsule distance, boolean and contact (penetration), user-level calls with two
//! world poses on both sides.
//!
//! Group `<query>-<pair>`, functions `convexity` (concrete `Ball`/`Capsule`), `convexity-enum`
//! (the same shapes as `Shape3`) and `parry3d-f64`. One iteration runs [`BATCH`] consecutive
//! pose pairs (radii and segments in [0.3, 1], random rotations, centres within 2.5 per axis:
//! about half overlap), so `median / BATCH` is the time per query.
//!
//! The interleaved, load-robust ratios for these pairs (sphere and capsule sets) are in
//! `bench-results/speed.md` (`crates/convexity-bench/run.sh speed`), timed by the one harness.
//!
//! `cargo bench -p convexity-bench --bench closed_form -- --warm-up-time 1 --measurement-time 2`

use convexity::gjk::{self, epa};
use convexity::{Ball, Capsule, DQuat, DVec3, Pose3, Shape3};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry3d_f64::query as pq;
use parry3d_f64::shape as ps;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const BATCH: usize = 1000;

fn quat<R: Rng>(r: &mut R) -> DQuat {
    let q = DQuat::from_xyzw(
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
    );
    if q.length() > 0.1 {
        q.normalize()
    } else {
        DQuat::IDENTITY
    }
}

fn vec<R: Rng>(r: &mut R, s: f64) -> DVec3 {
    DVec3::new(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s))
}

struct Pair {
    a: Pose3,
    b: Pose3,
    pa: parry3d_f64::math::Pose,
    pb: parry3d_f64::math::Pose,
}

fn pairs() -> Vec<Pair> {
    let mut r = ChaCha8Rng::seed_from_u64(7);
    (0..BATCH)
        .map(|_| {
            let ta = vec(&mut r, 10.0);
            let a = Pose3::new(ta, quat(&mut r)).unwrap();
            let b = Pose3::new(ta + vec(&mut r, 1.6), quat(&mut r)).unwrap();
            let p = |p: &Pose3| parry3d_f64::math::Pose::from_parts(p.translation(), p.rotation());
            Pair {
                pa: p(&a),
                pb: p(&b),
                a,
                b,
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let ps_ = pairs();
    let mut r = ChaCha8Rng::seed_from_u64(8);
    let radii: Vec<(f64, f64)> = (0..BATCH)
        .map(|_| (r.gen_range(0.3..1.0), r.gen_range(0.3..1.0)))
        .collect();
    let segs: Vec<(DVec3, DVec3)> = (0..2 * BATCH)
        .map(|_| {
            let d = vec(&mut r, 0.7);
            (-d, d)
        })
        .collect();

    // Shapes: ours concrete, ours as Shape3, parry.
    let balls: Vec<(Ball<DVec3>, Ball<DVec3>)> = radii
        .iter()
        .map(|&(x, y)| (Ball::new(x).unwrap(), Ball::new(y).unwrap()))
        .collect();
    let caps: Vec<(Capsule<DVec3>, Capsule<DVec3>)> = (0..BATCH)
        .map(|i| {
            let (ra, rb) = radii[i];
            let (a0, a1) = segs[2 * i];
            let (b0, b1) = segs[2 * i + 1];
            (
                Capsule::new(a0, a1, ra * 0.5).unwrap(),
                Capsule::new(b0, b1, rb * 0.5).unwrap(),
            )
        })
        .collect();
    let balls3: Vec<(Shape3, Shape3)> = balls
        .iter()
        .map(|(a, b)| (Shape3::Sphere(*a), Shape3::Sphere(*b)))
        .collect();
    let caps3: Vec<(Shape3, Shape3)> = caps
        .iter()
        .map(|(a, b)| (Shape3::Capsule(*a), Shape3::Capsule(*b)))
        .collect();
    let pballs: Vec<(ps::Ball, ps::Ball)> = radii
        .iter()
        .map(|&(x, y)| (ps::Ball::new(x), ps::Ball::new(y)))
        .collect();
    let pcaps: Vec<(ps::Capsule, ps::Capsule)> = caps
        .iter()
        .map(|(a, b)| {
            let (sa, sb) = (a.segment(), b.segment());
            (
                ps::Capsule::new(sa.a(), sa.b(), a.radius()),
                ps::Capsule::new(sb.a(), sb.b(), b.radius()),
            )
        })
        .collect();

    let go = gjk::Options::default();
    let eo = epa::Options::default();
    macro_rules! ours {
        ($g:expr, $name:expr, $shapes:expr) => {{
            let shapes = &$shapes;
            $g.bench_function(concat!("convexity", $name, "/distance"), |bch| {
                bch.iter(|| {
                    let mut s = 0.0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        s += gjk::distance(a, &p.a, b, &p.b, &go, None).distance;
                    }
                    black_box(s)
                })
            });
            $g.bench_function(concat!("convexity", $name, "/boolean"), |bch| {
                bch.iter(|| {
                    let mut s = 0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        s += (gjk::intersects(a, &p.a, b, &p.b, &go, None).intersecting()
                            == Some(true)) as usize;
                    }
                    black_box(s)
                })
            });
            let mut ctx = epa::Context::new();
            $g.bench_function(concat!("convexity", $name, "/contact"), |bch| {
                bch.iter(|| {
                    let mut s = 0.0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        s += epa::penetration(a, &p.a, b, &p.b, &eo, &mut ctx).depth;
                    }
                    black_box(s)
                })
            });
        }};
    }
    macro_rules! parry {
        ($g:expr, $shapes:expr) => {{
            let shapes = &$shapes;
            $g.bench_function("parry3d-f64/distance", |bch| {
                bch.iter(|| {
                    let mut s = 0.0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        s += pq::distance(&p.pa, a, &p.pb, b).map_or(0.0, |d| d.distance);
                    }
                    black_box(s)
                })
            });
            $g.bench_function("parry3d-f64/boolean", |bch| {
                bch.iter(|| {
                    let mut s = 0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        s += pq::intersection_test(&p.pa, a, &p.pb, b)
                            .map_or(false, |i| i.intersecting) as usize;
                    }
                    black_box(s)
                })
            });
            $g.bench_function("parry3d-f64/contact", |bch| {
                bch.iter(|| {
                    let mut s = 0.0;
                    for (p, (a, b)) in ps_.iter().zip(shapes.iter()) {
                        if let Ok(Some(c)) = pq::contact(&p.pa, a, &p.pb, b, 0.0) {
                            s += c.dist;
                        }
                    }
                    black_box(s)
                })
            });
        }};
    }

    let mut g = c.benchmark_group("ball-ball");
    g.throughput(Throughput::Elements(BATCH as u64));
    ours!(g, "", balls);
    ours!(g, "-enum", balls3);
    parry!(g, pballs);
    g.finish();

    let mut g = c.benchmark_group("capsule-capsule");
    g.throughput(Throughput::Elements(BATCH as u64));
    ours!(g, "", caps);
    ours!(g, "-enum", caps3);
    parry!(g, pcaps);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
