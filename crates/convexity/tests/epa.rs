//! EPA tests: analytic cases, a brute-force polytope oracle, metamorphic properties,
//! consistency with GJK, the defined answers of degenerate cases, and allocation.
//!
//! Oracle (independent of the library): for point hulls A and B the Minkowski difference is
//! `conv(D)`, `D = {a_i − b_j}` (world frame). When the origin is inside, the penetration
//! depth is the minimum over the facet planes of `conv(D)` of the plane's distance from the
//! origin. Facet planes are found by brute force over triples (pairs in 2D) of `D`: a triple
//! spans a facet plane iff every point of `D` lies on one side, decided with the exact
//! predicates of `robust`.

use convexity::gjk;
use convexity::gjk::epa::{penetration, Context, Options, Penetration};
use convexity::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn pen<V, A, B>(a: &A, pa: &Pose<V>, b: &B, pb: &Pose<V>) -> Penetration<V>
where
    V: convexity::gjk::epa::EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut ctx = Context::new();
    penetration(a, pa, b, pb, &Options::default(), &mut ctx)
}

/// Support value `max_{x∈S} n·x` of a posed shape, world frame.
fn h<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, n: V) -> f64 {
    let local = pose.inverse_transform_vector(n);
    n.dot(pose.transform_point(s.support(local)))
}

/// The checks every answer must pass: finite, unit normal, `point_a = point_b + depth·n`,
/// `point_a` on A's supporting plane along n, `point_b` on B's along −n, and the overlap of the
/// projections on n equal to the depth (`h_A(n) + h_B(−n) = depth`, i.e. moving B by
/// `depth·n` makes the shapes just touch).
fn check_answer<V, A, B>(a: &A, pa: &Pose<V>, b: &B, pb: &Pose<V>, p: &Penetration<V>, tol: f64)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    assert!(p.depth.is_finite(), "{p:?}");
    assert!(p.normal.is_finite() && p.point_a.is_finite() && p.point_b.is_finite());
    assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
    let n = p.normal;
    let diff = p.point_a - p.point_b - n * p.depth;
    assert!(
        diff.length() <= tol,
        "point_a − point_b − depth·n = {diff:?}; {p:?}"
    );
    let ha = h(a, pa, n);
    let hb = h(b, pb, -n);
    assert!((n.dot(p.point_a) - ha).abs() <= tol, "point_a off A: {p:?}");
    assert!((n.dot(p.point_b) + hb).abs() <= tol, "point_b off B: {p:?}");
    assert!(
        (ha + hb - p.depth).abs() <= tol,
        "projection overlap {} != depth {}; {p:?}",
        ha + hb,
        p.depth
    );
}

/// Distance from `p` (world) to a posed shape, by GJK against a point.
fn dist_to<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, p: V) -> f64 {
    let pt = Ball::<V>::new(0.0).unwrap();
    let pp = Pose::from_translation(p).unwrap();
    gjk::distance(s, pose, &pt, &pp, &gjk::Options::default(), None).distance
}

fn translated<V: Vector>(pose: &Pose<V>, t: V) -> Pose<V> {
    Pose::new(pose.translation() + t, pose.rotation()).unwrap()
}

/// Moving B by `(depth + δ)·n` separates (GJK proves it); when `depth > δ`, moving it by
/// `(depth − δ)·n` does not (the origin is inside `K` and `depth·n` on its boundary, so the
/// segment between them lies in `K`). For separated pairs the second half does not hold in
/// general: the ray from the origin through `K`'s closest point may leave `K` at once.
fn check_translation<V, A, B>(a: &A, pa: &Pose<V>, b: &B, pb: &Pose<V>, p: &Penetration<V>, d: f64)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let o = gjk::Options::default();
    let out = translated(pb, p.normal * (p.depth + d));
    let r = gjk::intersects(a, pa, b, &out, &o, None);
    assert_eq!(
        r.intersecting(),
        Some(false),
        "not separated by depth+δ: {p:?}"
    );
    if p.depth <= d {
        return;
    }
    let inn = translated(pb, p.normal * (p.depth - d));
    let r = gjk::intersects(a, pa, b, &inn, &o, None);
    assert_eq!(r.intersecting(), Some(true), "separated by depth−δ: {p:?}");
}

fn unit3(rng: &mut ChaCha8Rng) -> DVec3 {
    loop {
        let v = DVec3::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        let l = v.length();
        if l > 0.1 && l <= 1.0 {
            return v / l;
        }
    }
}

fn unit2(rng: &mut ChaCha8Rng) -> DVec2 {
    let a: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
    DVec2::new(a.cos(), a.sin())
}

fn quat(rng: &mut ChaCha8Rng) -> DQuat {
    loop {
        let q = [
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0f64..1.0),
        ];
        let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        if l > 0.1 && l <= 1.0 {
            return DQuat::from_xyzw(q[0] / l, q[1] / l, q[2] / l, q[3] / l);
        }
    }
}

fn pose3(t: DVec3, rng: &mut ChaCha8Rng) -> Pose3 {
    Pose3::new(t, quat(rng)).unwrap()
}

fn pose2(t: DVec2, rng: &mut ChaCha8Rng) -> Pose2 {
    Pose2::from_angle(t.to_array(), rng.gen_range(0.0..std::f64::consts::TAU)).unwrap()
}

fn hull3(n: usize, r: f64, rng: &mut ChaCha8Rng) -> Vec<DVec3> {
    (0..n).map(|_| unit3(rng) * r).collect()
}

fn hull2(n: usize, r: f64, rng: &mut ChaCha8Rng) -> Vec<DVec2> {
    (0..n).map(|_| unit2(rng) * r).collect()
}

fn c3(p: DVec3) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

fn c2(p: DVec2) -> robust::Coord<f64> {
    robust::Coord { x: p.x, y: p.y }
}

/// Facet planes `(outward unit normal, offset)` of `conv(d)`, 3D, by brute force. Empty when
/// `d` is flat.
fn facets3(d: &[DVec3]) -> Vec<(DVec3, f64)> {
    let n = d.len();
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (p, q, r) = (d[i], d[j], d[k]);
                let raw = (q - p).cross(r - p);
                if raw.length_squared() == 0.0 {
                    continue;
                }
                let (mut pos, mut neg) = (false, false);
                for m in d {
                    let o = robust::orient3d(c3(p), c3(q), c3(r), c3(*m));
                    if o > 0.0 {
                        pos = true;
                    } else if o < 0.0 {
                        neg = true;
                    }
                    if pos && neg {
                        break;
                    }
                }
                if pos == neg {
                    continue; // not a facet, or every point coplanar
                }
                // orient3d(p, q, r, m) < 0 iff m is on the +raw side: the points are inside,
                // so the outward normal is +raw when they all give ≥ 0.
                let nn = if pos {
                    raw.normalize()
                } else {
                    -raw.normalize()
                };
                out.push((nn, nn.dot(p)));
            }
        }
    }
    out
}

/// Facet lines of `conv(d)`, 2D, by brute force over pairs.
fn facets2(d: &[DVec2]) -> Vec<(DVec2, f64)> {
    let n = d.len();
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (p, q) = (d[i], d[j]);
            if p == q {
                continue;
            }
            let (mut pos, mut neg) = (false, false);
            for m in d {
                let o = robust::orient2d(c2(p), c2(q), c2(*m));
                if o > 0.0 {
                    pos = true;
                } else if o < 0.0 {
                    neg = true;
                }
                if pos && neg {
                    break;
                }
            }
            if pos == neg {
                continue;
            }
            // orient2d(p, q, m) > 0 iff m is left of p → q, i.e. on the +perp side.
            let left = (q - p).perp().normalize();
            let nn = if pos { -left } else { left };
            out.push((nn, nn.dot(p)));
        }
    }
    out
}

/// Oracle result: depth (min facet offset) and the minimising normal when unique (every
/// facet within `1e-7` of the minimum has the same normal to `1e-9`).
fn oracle<V: Vector>(facets: &[(V, f64)]) -> Option<(f64, Option<V>)> {
    let (bn, bd) = facets.iter().copied().min_by(|x, y| x.1.total_cmp(&y.1))?;
    let unique = facets
        .iter()
        .all(|(n, d)| *d > bd + 1e-7 || (*n - bn).length() < 1e-9);
    Some((bd, unique.then_some(bn)))
}

fn world_points<V: Vector>(pose: &Pose<V>, pts: &[V]) -> Vec<V> {
    pts.iter().map(|p| pose.transform_point(*p)).collect()
}

fn minkowski<V: Vector>(a: &[V], b: &[V]) -> Vec<V> {
    let mut d = Vec::with_capacity(a.len() * b.len());
    for p in a {
        for q in b {
            d.push(*p - *q);
        }
    }
    d
}

// ---------------------------------------------------------------------------------------
// Random point hulls against the brute-force oracle, with metamorphic properties
// ---------------------------------------------------------------------------------------

#[test]
fn random_hulls_3d_against_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x3d3d);
    let mut done = 0;
    let (mut max_err, mut max_n_err, mut max_iters) = (0.0f64, 0.0f64, 0u32);
    let mut tries = 0;
    while done < 600 {
        tries += 1;
        assert!(tries < 20_000);
        let (na, nb) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
        let (ra, rb) = (rng.gen_range(0.2..1.5), rng.gen_range(0.2..1.5));
        let la = hull3(na, ra, &mut rng);
        let lb = hull3(nb, rb, &mut rng);
        let base = DVec3::new(
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
        );
        let pa = pose3(base, &mut rng);
        let pb = pose3(base + unit3(&mut rng) * rng.gen_range(0.0..1.2), &mut rng);
        let d = minkowski(&world_points(&pa, &la), &world_points(&pb, &lb));
        let Some((depth, normal)) = oracle(&facets3(&d)) else {
            continue; // flat difference: covered by the degenerate tests
        };
        if depth < 1e-6 {
            continue; // not overlapping
        }
        done += 1;
        let a = Points::new(&la).unwrap();
        let b = Points::new(&lb).unwrap();
        let scale = a.size() + b.size();
        let p = pen(&a, &pa, &b, &pb);
        assert_eq!(p.status, Status::Converged, "{p:?}");
        assert_eq!(p.verdict.intersecting(), Some(true), "{p:?} oracle {depth}");
        max_iters = max_iters.max(p.iterations);
        let err = (p.depth - depth).abs() / scale;
        max_err = max_err.max(err);
        assert!(err < 1e-9, "depth {} vs oracle {depth}", p.depth);
        // The normal minimises the support function of conv(D).
        let hn = d.iter().map(|x| x.dot(p.normal)).fold(f64::MIN, f64::max);
        max_n_err = max_n_err.max((hn - depth).abs() / scale);
        assert!(
            (hn - depth).abs() < 1e-9 * scale,
            "h(n) {hn} vs depth {depth}"
        );
        // The normal keeps an angular tolerance: the oracle returns a normal only when no other
        // facet is within 1e-7 of the minimum, and two facets that close in depth make the
        // minimising direction ill-conditioned (a depth error e moves it by about e / gap).
        if let Some(n) = normal {
            assert!((p.normal - n).length() < 1e-6, "{:?} vs {n:?}", p.normal);
        }
        check_answer(&a, &pa, &b, &pb, &p, 1e-9 * scale);

        // Swap A and B: same depth, normal negated.
        let q = pen(&b, &pb, &a, &pa);
        assert!((q.depth - p.depth).abs() < 1e-9 * scale);
        let hq = d.iter().map(|x| -x.dot(q.normal)).fold(f64::MIN, f64::max);
        assert!((hq - depth).abs() < 1e-9 * scale);
        if let Some(n) = normal {
            assert!((q.normal + n).length() < 1e-6);
        }

        if done % 4 == 0 {
            // Rigid motion of both: same depth, rotated normal.
            let m = pose3(unit3(&mut rng) * rng.gen_range(0.0..100.0), &mut rng);
            let (ma, mb) = (m.compose(&pa), m.compose(&pb));
            let r = pen(&a, &ma, &b, &mb);
            assert!((r.depth - p.depth).abs() < 1e-9 * scale, "{r:?} vs {p:?}");
            if normal.is_some() {
                assert!((r.normal - m.transform_vector(p.normal)).length() < 1e-6);
            }
            // Scale everything by s: depth scales.
            let s = [1e-3, 7.5, 1e3][done % 3];
            let sa = Points::new(&la.iter().map(|x| *x * s).collect::<Vec<_>>()).unwrap();
            let sb = Points::new(&lb.iter().map(|x| *x * s).collect::<Vec<_>>()).unwrap();
            let spa = Pose3::new(pa.translation() * s, pa.rotation()).unwrap();
            let spb = Pose3::new(pb.translation() * s, pb.rotation()).unwrap();
            let t = pen(&sa, &spa, &sb, &spb);
            assert!(
                (t.depth - p.depth * s).abs() < 1e-9 * scale * s,
                "{} vs {}",
                t.depth,
                p.depth * s
            );
            check_translation(&a, &pa, &b, &pb, &p, 1e-9 * scale);
            assert!(dist_to(&a, &pa, p.point_a) < 1e-9 * scale);
            assert!(dist_to(&b, &pb, p.point_b) < 1e-9 * scale);
        }
    }
    println!(
        "3D: {done} overlapping pairs, max depth error {max_err:.3e} (relative to size), \
         max normal error {max_n_err:.3e}, max iterations {max_iters}"
    );
}

#[test]
fn random_hulls_2d_against_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x2d2d);
    let mut done = 0;
    let (mut max_err, mut max_iters) = (0.0f64, 0u32);
    let mut tries = 0;
    while done < 600 {
        tries += 1;
        assert!(tries < 20_000);
        let (na, nb) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
        let (ra, rb) = (rng.gen_range(0.2..1.5), rng.gen_range(0.2..1.5));
        let la = hull2(na, ra, &mut rng);
        let lb = hull2(nb, rb, &mut rng);
        let base = DVec2::new(rng.gen_range(-5.0..5.0), rng.gen_range(-5.0..5.0));
        let pa = pose2(base, &mut rng);
        let pb = pose2(base + unit2(&mut rng) * rng.gen_range(0.0..1.2), &mut rng);
        let d = minkowski(&world_points(&pa, &la), &world_points(&pb, &lb));
        let Some((depth, normal)) = oracle(&facets2(&d)) else {
            continue;
        };
        if depth < 1e-6 {
            continue;
        }
        done += 1;
        let a = Points::new(&la).unwrap();
        let b = Points::new(&lb).unwrap();
        let scale = a.size() + b.size();
        let p = pen(&a, &pa, &b, &pb);
        assert_eq!(p.status, Status::Converged, "{p:?}");
        max_iters = max_iters.max(p.iterations);
        let err = (p.depth - depth).abs() / scale;
        max_err = max_err.max(err);
        assert!(err < 1e-9, "depth {} vs oracle {depth}", p.depth);
        let hn = d.iter().map(|x| x.dot(p.normal)).fold(f64::MIN, f64::max);
        assert!((hn - depth).abs() < 1e-9 * scale);
        if let Some(n) = normal {
            assert!((p.normal - n).length() < 1e-6);
        }
        check_answer(&a, &pa, &b, &pb, &p, 1e-9 * scale);
        let q = pen(&b, &pb, &a, &pa);
        assert!((q.depth - p.depth).abs() < 1e-9 * scale);
        if let Some(n) = normal {
            assert!((q.normal + n).length() < 1e-6);
        }
        if done % 4 == 0 {
            let m = pose2(unit2(&mut rng) * rng.gen_range(0.0..100.0), &mut rng);
            let r = pen(&a, &m.compose(&pa), &b, &m.compose(&pb));
            assert!((r.depth - p.depth).abs() < 1e-9 * scale);
            let s = [1e-3, 7.5, 1e3][done % 3];
            let sa = Points::new(&la.iter().map(|x| *x * s).collect::<Vec<_>>()).unwrap();
            let sb = Points::new(&lb.iter().map(|x| *x * s).collect::<Vec<_>>()).unwrap();
            let spa = Pose2::new(pa.translation() * s, pa.rotation()).unwrap();
            let spb = Pose2::new(pb.translation() * s, pb.rotation()).unwrap();
            let t = pen(&sa, &spa, &sb, &spb);
            assert!((t.depth - p.depth * s).abs() < 1e-9 * scale * s);
            check_translation(&a, &pa, &b, &pb, &p, 1e-9 * scale);
            assert!(dist_to(&a, &pa, p.point_a) < 1e-9 * scale);
            assert!(dist_to(&b, &pb, p.point_b) < 1e-9 * scale);
        }
    }
    println!(
        "2D: {done} overlapping pairs, max depth error {max_err:.3e} (relative to size), \
         max iterations {max_iters}"
    );
}

// ---------------------------------------------------------------------------------------
// Analytic cases
// ---------------------------------------------------------------------------------------

#[test]
fn sphere_sphere_analytic() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..200 {
        let (ra, rb) = (rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let ca = DVec3::new(rng.gen_range(-9.0..9.0), 3.0, -1.0);
        let c = unit3(&mut rng) * rng.gen_range(0.01..(ra + rb) * 1.5);
        let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
        let (pa, pb) = (pose3(ca, &mut rng), pose3(ca + c, &mut rng));
        let p = pen(&a, &pa, &b, &pb);
        let n = c.normalize();
        assert!((p.depth - (ra + rb - c.length())).abs() < 1e-12 * (ra + rb + 10.0));
        assert!((p.normal - n).length() < 1e-12);
        assert!((p.point_a - (ca + n * ra)).length() < 1e-12 * 10.0);
        assert!((p.point_b - (ca + c - n * rb)).length() < 1e-12 * 10.0);
        assert_eq!(p.verdict.intersecting(), Some(p.depth >= 0.0));
        check_answer(&a, &pa, &b, &pb, &p, 1e-12 * 10.0);
    }
    for _ in 0..200 {
        let (ra, rb) = (rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let c = unit2(&mut rng) * rng.gen_range(0.01..(ra + rb) * 1.5);
        let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
        let pa = pose2(DVec2::new(1.0, 2.0), &mut rng);
        let pb = pose2(DVec2::new(1.0, 2.0) + c, &mut rng);
        let p = pen(&a, &pa, &b, &pb);
        assert!((p.depth - (ra + rb - c.length())).abs() < 1e-12 * 10.0);
        assert!((p.normal - c.normalize()).length() < 1e-12);
        check_answer(&a, &pa, &b, &pb, &p, 1e-12 * 10.0);
    }
}

#[test]
fn box_box_axis_aligned_analytic() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut n3 = 0;
    while n3 < 300 {
        let ha = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        let hb = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        let t = DVec3::new(
            rng.gen_range(-4.0..4.0),
            rng.gen_range(-4.0..4.0),
            rng.gen_range(-4.0..4.0),
        );
        let overlap = ha + hb - t.abs();
        if overlap.min_element() <= 1e-3 {
            continue;
        }
        n3 += 1;
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let off = DVec3::new(10.0, -20.0, 30.0);
        let pa = Pose3::from_translation(off).unwrap();
        let pb = Pose3::from_translation(off + t).unwrap();
        let p = pen(&a, &pa, &b, &pb);
        let k = overlap.min_position();
        let mut expected_n = DVec3::ZERO;
        expected_n[k] = t[k].signum();
        let tol = 1e-9 * (a.size() + b.size());
        assert!((p.depth - overlap[k]).abs() < tol, "{p:?} vs {overlap:?}");
        let second = (0..3)
            .filter(|&i| i != k)
            .map(|i| overlap[i])
            .fold(f64::MAX, f64::min);
        if second > overlap[k] + 1e-6 {
            assert!((p.normal - expected_n).length() < 1e-9, "{p:?}");
        }
        check_answer(&a, &pa, &b, &pb, &p, tol);
        check_translation(&a, &pa, &b, &pb, &p, 1e-9 * (a.size() + b.size()));
    }
    let mut n2 = 0;
    while n2 < 300 {
        let ha = DVec2::new(rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let hb = DVec2::new(rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let t = DVec2::new(rng.gen_range(-4.0..4.0), rng.gen_range(-4.0..4.0));
        let overlap = ha + hb - t.abs();
        if overlap.min_element() <= 1e-3 {
            continue;
        }
        n2 += 1;
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let pa = Pose2::from_translation(DVec2::new(-3.0, 7.0)).unwrap();
        let pb = Pose2::from_translation(DVec2::new(-3.0, 7.0) + t).unwrap();
        let p = pen(&a, &pa, &b, &pb);
        let k = if overlap.x <= overlap.y { 0 } else { 1 };
        let tol = 1e-9 * (a.size() + b.size());
        assert!((p.depth - overlap[k]).abs() < tol);
        if (overlap.x - overlap.y).abs() > 1e-6 {
            let mut e = DVec2::ZERO;
            e[k] = t[k].signum();
            assert!((p.normal - e).length() < 1e-9);
        }
        check_answer(&a, &pa, &b, &pb, &p, tol);
    }
}

#[test]
fn capsule_capsule_analytic() {
    let id = Pose3::IDENTITY;
    // Parallel capsules along x, offset in y: depth = rA + rB − |Δy|, normal ±y.
    let a = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.5).unwrap();
    let b = Capsule::new(DVec3::new(-0.5, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), 0.3).unwrap();
    let pb = Pose3::from_translation(DVec3::new(0.0, 0.6, 0.0)).unwrap();
    let p = pen(&a, &id, &b, &pb);
    assert!((p.depth - 0.2).abs() < 1e-12, "{p:?}");
    assert!((p.normal - DVec3::Y).length() < 1e-12);
    check_answer(&a, &id, &b, &pb, &p, 1e-12);
    // Crossing capsules at a z offset (cores apart): depth = rA + rB − dz along z.
    let c = Capsule::new(DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), 0.3).unwrap();
    let pc = Pose3::from_translation(DVec3::new(0.2, 0.1, -0.5)).unwrap();
    let p = pen(&a, &id, &c, &pc);
    assert!((p.depth - 0.3).abs() < 1e-12, "{p:?}");
    assert!((p.normal + DVec3::Z).length() < 1e-12);
    check_answer(&a, &id, &c, &pc, &p, 1e-12);
    // Crossing cores (flat K, a parallelogram in z = 0): depth = rA + rB along ±z; the
    // centres differ in-plane, so the sign rule picks +z.
    let pc = Pose3::from_translation(DVec3::new(0.2, 0.1, 0.0)).unwrap();
    let p = pen(&a, &id, &c, &pc);
    assert!((p.depth - 0.8).abs() < 1e-12, "{p:?}");
    assert!((p.normal - DVec3::Z).length() < 1e-12, "{p:?}");
    assert_eq!(p.status, Status::Converged);
    check_answer(&a, &id, &c, &pc, &p, 1e-12);
    // 2D crossing capsules: K is the square [−1,1]², depth 1 + rA + rB.
    let a2 = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.25).unwrap();
    let b2 = Capsule::new(DVec2::new(0.0, -1.0), DVec2::new(0.0, 1.0), 0.5).unwrap();
    let id2 = Pose2::IDENTITY;
    let p = pen(&a2, &id2, &b2, &id2);
    assert!((p.depth - 1.75).abs() < 1e-12, "{p:?}");
    check_answer(&a2, &id2, &b2, &id2, &p, 1e-12);
    // Random rotated capsule pairs whose cores are apart: depth from segment distance.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..100 {
        let (ra, rb) = (rng.gen_range(0.2..1.0), rng.gen_range(0.2..1.0));
        let a = Capsule::new(unit3(&mut rng), unit3(&mut rng), ra).unwrap();
        let b = Capsule::new(unit3(&mut rng), unit3(&mut rng), rb).unwrap();
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..3.0), &mut rng);
        let p = pen(&a, &pa, &b, &pb);
        let g = gjk::distance(
            &a.segment(),
            &pa,
            &b.segment(),
            &pb,
            &gjk::Options::default(),
            None,
        );
        let core_d = if g.intersecting() == Some(true) {
            0.0
        } else {
            g.distance
        };
        if core_d > 1e-6 {
            assert!((p.depth - (ra + rb - core_d)).abs() < 1e-9, "{p:?}");
        } else {
            assert!(p.depth >= ra + rb - 1e-9, "{p:?}");
        }
        check_answer(&a, &pa, &b, &pb, &p, 1e-9);
    }
}

#[test]
fn sphere_inside_box_analytic() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..200 {
        let hb = DVec3::new(
            rng.gen_range(0.5..3.0),
            rng.gen_range(0.5..3.0),
            rng.gen_range(0.5..3.0),
        );
        let c = DVec3::new(
            rng.gen_range(-hb.x..hb.x),
            rng.gen_range(-hb.y..hb.y),
            rng.gen_range(-hb.z..hb.z),
        ) * 0.95;
        let r = rng.gen_range(0.01..1.0);
        let boxa = Cuboid::new(hb).unwrap();
        let ball = Ball::new(r).unwrap();
        let pa = pose3(DVec3::new(5.0, 5.0, -5.0), &mut rng);
        let pb = Pose3::from_translation(pa.transform_point(c)).unwrap();
        let p = pen(&boxa, &pa, &ball, &pb);
        let face = hb - c.abs();
        let k = face.min_position();
        let tol = 1e-9 * (hb.length() + r);
        assert!((p.depth - (face[k] + r)).abs() < tol, "{p:?}");
        let mut e = DVec3::ZERO;
        e[k] = c[k].signum();
        let second = (0..3)
            .filter(|&i| i != k)
            .map(|i| face[i])
            .fold(f64::MAX, f64::min);
        if second > face[k] + 1e-6 {
            assert!((p.normal - pa.transform_vector(e)).length() < 1e-9);
        }
        check_answer(&boxa, &pa, &ball, &pb, &p, tol);
    }
}

#[test]
fn point_hull_of_box_agrees_with_cuboid() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let ha = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        let hb = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        let corners = |h: DVec3, dup: usize| -> Points<DVec3> {
            let mut v = Vec::new();
            for i in 0..8 {
                let c = DVec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                );
                for _ in 0..dup {
                    v.push(c);
                }
            }
            Points::new(&v).unwrap()
        };
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(
            unit3(&mut rng) * rng.gen_range(0.0..(ha + hb).length()),
            &mut rng,
        );
        let (ca, cb) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let p = pen(&ca, &pa, &cb, &pb);
        // Duplicated vertices make no difference.
        let q = pen(&corners(ha, 1), &pa, &corners(hb, 3), &pb);
        let tol = 1e-9 * (ha + hb).length();
        assert!((p.depth - q.depth).abs() < tol, "{p:?} vs {q:?}");
        check_answer(&ca, &pa, &cb, &pb, &p, tol);
        check_answer(&ca, &pa, &cb, &pb, &q, tol);
    }
}

// ---------------------------------------------------------------------------------------
// Consistency with GJK
// ---------------------------------------------------------------------------------------

#[test]
fn consistent_with_gjk_on_random_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut ctx = Context::new();
    let mut seen = [0usize; 2];
    for i in 0..600 {
        let la = hull3(rng.gen_range(1..=10), rng.gen_range(0.2..1.5), &mut rng);
        let a: Shape3 = match i % 3 {
            0 => Shape3::Points(Points::new(&la).unwrap()),
            1 => Shape3::Capsule(Capsule::new(la[0], -la[0], 0.3).unwrap()),
            _ => Shape3::Cuboid(Cuboid::new(DVec3::new(0.5, 0.2, 0.8)).unwrap()),
        };
        let b: Shape3 = match i % 4 {
            0 => Shape3::Sphere(Ball::new(0.4).unwrap()),
            1 => Shape3::Cylinder(Cylinder::new(0.5, 0.3).unwrap()),
            2 => Shape3::Cone(Cone::new(0.5, 0.4).unwrap()),
            _ => Shape3::Points(Points::new(&hull3(rng.gen_range(1..=10), 0.7, &mut rng)).unwrap()),
        };
        let pa = pose3(DVec3::new(1.0, 2.0, 3.0), &mut rng);
        let pb = pose3(
            DVec3::new(1.0, 2.0, 3.0) + unit3(&mut rng) * rng.gen_range(0.0..3.0),
            &mut rng,
        );
        let p = penetration(&a, &pa, &b, &pb, &Options::default(), &mut ctx);
        let g = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
        assert_eq!(p.verdict, g.verdict);
        match g.intersecting() {
            Some(false) => {
                seen[0] += 1;
                assert_eq!(p.depth, -g.distance);
                assert_eq!(p.normal, g.normal);
                assert_eq!(p.point_a, g.point_a);
                assert_eq!(p.point_b, g.point_b);
            }
            Some(true) => {
                seen[1] += 1;
                assert!(p.depth >= 0.0);
            }
            None => {}
        }
        let scale = a.size() + b.size();
        // Curved shapes converge to the EPA tolerance or stop at the cap with a lower bound.
        let tol = if p.status == Status::Converged {
            1e-9
        } else {
            1e-3
        } * scale;
        check_answer(&a, &pa, &b, &pb, &p, tol);
        if p.status == Status::Converged {
            check_translation(&a, &pa, &b, &pb, &p, 1e-9 * scale);
        }
    }
    assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
}

// ---------------------------------------------------------------------------------------
// The defined answers of the degenerate cases
// ---------------------------------------------------------------------------------------

#[test]
fn touching_shapes() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let id = Pose3::IDENTITY;
    // Face to face.
    let pb = Pose3::from_translation(DVec3::new(2.0, 0.3, 0.1)).unwrap();
    let p = pen(&cube, &id, &cube, &pb);
    assert!(p.depth.abs() < 1e-12, "{p:?}");
    assert!((p.normal - DVec3::X).length() < 1e-9, "{p:?}");
    assert_eq!(p.verdict.intersecting(), Some(true));
    check_answer(&cube, &id, &cube, &pb, &p, 1e-12);
    // Vertex to vertex: any normal in the positive octant is valid (check_answer verifies
    // h_A(n) + h_B(−n) = 0).
    let pb = Pose3::from_translation(DVec3::new(2.0, 2.0, 2.0)).unwrap();
    let p = pen(&cube, &id, &cube, &pb);
    assert!(p.depth.abs() < 1e-12, "{p:?}");
    assert!(p.normal.min_element() >= -1e-9, "{p:?}");
    check_answer(&cube, &id, &cube, &pb, &p, 1e-12);
    // Edge to face: B turned 45° about z, its vertical edge on A's face x = 1.
    let q = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4);
    let pb = Pose3::new(DVec3::new(1.0 + 2f64.sqrt(), 0.0, 0.5), q).unwrap();
    let p = pen(&cube, &id, &cube, &pb);
    assert!(p.depth.abs() < 1e-9, "{p:?}");
    assert!((p.normal - DVec3::X).length() < 1e-6, "{p:?}");
    check_answer(&cube, &id, &cube, &pb, &p, 1e-9);
    // Edge to edge, crossed at right angles: A turned 45° about x has a top edge along x at
    // z = √2; B turned 45° about y has a bottom edge along y, placed on it. The only valid
    // normal is +z.
    let r2 = 2f64.sqrt();
    let pa = Pose3::new(
        DVec3::ZERO,
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(0.1, -0.2, 2.0 * r2),
        DQuat::from_rotation_y(std::f64::consts::FRAC_PI_4),
    )
    .unwrap();
    let p = pen(&cube, &pa, &cube, &pb);
    assert!(p.depth.abs() < 1e-9, "{p:?}");
    assert!((p.normal - DVec3::Z).length() < 1e-6, "{p:?}");
    check_answer(&cube, &pa, &cube, &pb, &p, 1e-9);
    // Spheres exactly touching (cores apart by rA + rB).
    let s = Ball::new(1.0).unwrap();
    let pb = Pose3::from_translation(DVec3::new(0.0, 2.0, 0.0)).unwrap();
    let p = pen(&s, &id, &s, &pb);
    assert_eq!(p.depth, 0.0);
    assert!((p.normal - DVec3::Y).length() < 1e-15);
    // 2D squares touching on an edge, and a triangle's vertex touching an edge.
    let sq = Cuboid::new(DVec2::ONE).unwrap();
    let id2 = Pose2::IDENTITY;
    let pb2 = Pose2::from_translation(DVec2::new(0.4, -2.0)).unwrap();
    let p = pen(&sq, &id2, &sq, &pb2);
    assert!(p.depth.abs() < 1e-12);
    assert!((p.normal + DVec2::Y).length() < 1e-9);
    check_answer(&sq, &id2, &sq, &pb2, &p, 1e-12);
    let tri = ConvexPolygon::new(&[
        DVec2::new(0.0, 0.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(-1.0, 1.0),
    ])
    .unwrap();
    let pt = Pose2::from_translation(DVec2::new(0.25, 1.0)).unwrap();
    let p = pen(&sq, &id2, &tri, &pt);
    assert!(p.depth.abs() < 1e-12, "{p:?}");
    assert!((p.normal - DVec2::Y).length() < 1e-9, "{p:?}");
    check_answer(&sq, &id2, &tri, &pt, &p, 1e-12);
}

#[test]
fn flat_minkowski_difference_3d() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Two coplanar overlapping triangles (z = 0 in A's frame): depth 0, normal ±z of A's
    // frame; the centres differ in-plane, so the sign rule makes the largest coordinate
    // positive: +z.
    let t1 = Triangle::new(
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    )
    .unwrap();
    let t2 = Triangle::new(
        DVec3::new(0.5, 0.5, 0.0),
        DVec3::new(-1.0, 0.5, 0.0),
        DVec3::new(0.5, -1.0, 0.0),
    )
    .unwrap();
    for k in 0..20 {
        let pa = if k == 0 {
            Pose3::IDENTITY
        } else {
            pose3(unit3(&mut rng) * 10.0, &mut rng)
        };
        let p = pen(&t1, &pa, &t2, &pa);
        assert_eq!(p.depth, 0.0, "{p:?}");
        assert!(
            (p.normal - pa.transform_vector(DVec3::Z)).length() < 1e-12,
            "{p:?}"
        );
        assert_eq!(p.status, Status::Converged);
        assert_eq!(p.verdict.intersecting(), Some(true));
        check_answer(&t1, &pa, &t2, &pa, &p, 1e-9);
        assert!(dist_to(&t1, &pa, p.point_a) < 1e-9);
        assert!(dist_to(&t2, &pa, p.point_b) < 1e-9);
        // Rounded: the depth is the sum of the radii.
        let (r1, r2) = (
            Rounded::new(t1, 0.1).unwrap(),
            Rounded::new(t2, 0.25).unwrap(),
        );
        let p = pen(&r1, &pa, &r2, &pa);
        assert!((p.depth - 0.35).abs() < 1e-12, "{p:?}");
        assert!((p.normal - pa.transform_vector(DVec3::Z)).length() < 1e-12);
        check_answer(&r1, &pa, &r2, &pa, &p, 1e-9);
    }
    // Flat point hulls in one plane (B's offset in-plane, so the canonical sign: +z).
    let ring = |r: f64, c: DVec3| -> Points<DVec3> {
        Points::new(
            &(0..5)
                .map(|i| {
                    let a = i as f64 * 1.2566;
                    c + DVec3::new(a.cos() * r, a.sin() * r, 0.0)
                })
                .collect::<Vec<_>>(),
        )
        .unwrap()
    };
    let a = ring(1.0, DVec3::ZERO);
    let b = ring(0.7, DVec3::new(0.5, 0.2, 0.0));
    let id = Pose3::IDENTITY;
    let p = pen(&a, &id, &b, &id);
    assert_eq!(p.depth, 0.0);
    assert!((p.normal - DVec3::Z).length() < 1e-12, "{p:?}");
    assert_eq!(p.status, Status::Converged);
    // A triangle and a segment in its plane, A's frame turned upside down: the sign rule
    // works in A's frame, so the answer is A's +z mapped to world (= world −z).
    let pa = Pose3::new(DVec3::ZERO, DQuat::from_rotation_x(std::f64::consts::PI)).unwrap();
    let seg = Segment::new(DVec3::new(0.2, 0.2, 0.0), DVec3::new(0.9, 0.1, 0.0)).unwrap();
    let p = pen(&t1, &pa, &seg, &pa);
    assert_eq!(p.depth, 0.0);
    assert!(
        (p.normal - pa.transform_vector(DVec3::Z)).length() < 1e-12,
        "{p:?}"
    );
    assert!((p.normal + DVec3::Z).length() < 1e-12, "{p:?}");
    // Collinear 3D segments: K is a segment; depth 0, a unit normal orthogonal to it.
    let s1 = Segment::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0)).unwrap();
    let s2 = Segment::new(DVec3::new(0.0, 0.0, 0.0), DVec3::new(3.0, 0.0, 0.0)).unwrap();
    let p = pen(&s1, &id, &s2, &id);
    assert_eq!(p.depth, 0.0);
    assert!(p.normal.x.abs() < 1e-12, "{p:?}");
    assert_eq!(p.status, Status::Converged);
    check_answer(&s1, &id, &s2, &id, &p, 1e-12);
    let p2 = pen(&s1, &id, &s2, &id);
    assert_eq!(p, p2, "deterministic");
}

#[test]
fn collinear_segments_2d() {
    let id = Pose2::IDENTITY;
    let s1 = Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)).unwrap();
    let s2 = Segment::new(DVec2::new(0.5, 0.0), DVec2::new(3.0, 0.0)).unwrap();
    let p = pen(&s1, &id, &s2, &id);
    assert_eq!(p.depth, 0.0);
    // Centres differ along the line only: canonical sign, +y.
    assert!((p.normal - DVec2::Y).length() < 1e-12, "{p:?}");
    assert_eq!(p.status, Status::Converged);
    check_answer(&s1, &id, &s2, &id, &p, 1e-12);
    // Rotated frame: A's +y mapped to world.
    let pa = Pose2::from_angle([3.0, -4.0], 2.5).unwrap();
    let p = pen(&s1, &pa, &s2, &pa);
    assert_eq!(p.depth, 0.0);
    assert!(
        (p.normal - pa.transform_vector(DVec2::Y)).length() < 1e-12,
        "{p:?}"
    );
    // Rounded (2D capsules end to end, collinear): depth rA + rB.
    let c1 = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.2).unwrap();
    let c2 = Capsule::new(DVec2::new(0.5, 0.0), DVec2::new(3.0, 0.0), 0.1).unwrap();
    let p = pen(&c1, &id, &c2, &id);
    assert!((p.depth - 0.3).abs() < 1e-12);
    check_answer(&c1, &id, &c2, &id, &p, 1e-12);
    // A single point on a segment.
    let pt = Points::new(&[DVec2::new(0.3, 0.0)]).unwrap();
    let p = pen(&s1, &id, &pt, &id);
    assert_eq!(p.depth, 0.0);
    check_answer(&s1, &id, &pt, &id, &p, 1e-12);
}

#[test]
fn identical_shapes_identical_poses() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    for k in 0..20 {
        let pa = if k == 0 {
            Pose3::IDENTITY
        } else {
            pose3(unit3(&mut rng) * 50.0, &mut rng)
        };
        let p = pen(&cube, &pa, &cube, &pa);
        assert!((p.depth - 2.0).abs() < 1e-9, "{p:?}");
        let local = pa.inverse_transform_vector(p.normal);
        assert!((local.abs().max_element() - 1.0).abs() < 1e-9, "{local:?}");
        assert_eq!(p.status, Status::Converged);
        check_answer(&cube, &pa, &cube, &pa, &p, 1e-9);
        assert_eq!(p, pen(&cube, &pa, &cube, &pa), "deterministic");
    }
    // 2D squares, a rectangle (depth = twice the short half extent), and a point hull.
    let sq = Cuboid::new(DVec2::new(1.0, 0.5)).unwrap();
    let pa = Pose2::from_angle([1.0, 1.0], 0.3).unwrap();
    let p = pen(&sq, &pa, &sq, &pa);
    assert!((p.depth - 1.0).abs() < 1e-9, "{p:?}");
    check_answer(&sq, &pa, &sq, &pa, &p, 1e-9);
    let hull = Points::new(&hull3(8, 1.0, &mut rng)).unwrap();
    let pa = pose3(DVec3::ONE, &mut rng);
    let p = pen(&hull, &pa, &hull, &pa);
    let w = world_points(&pa, hull.points());
    let (depth, _) = oracle(&facets3(&minkowski(&w, &w))).unwrap();
    assert!((p.depth - depth).abs() < 1e-9, "{p:?} vs {depth}");
    check_answer(&hull, &pa, &hull, &pa, &p, 1e-9);
}

#[test]
fn concentric_spheres() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for k in 0..10 {
        let pa = if k == 0 {
            Pose3::IDENTITY
        } else {
            pose3(unit3(&mut rng) * 10.0, &mut rng)
        };
        let pb = pose3(pa.translation(), &mut rng);
        let (a, b) = (Ball::new(0.7).unwrap(), Ball::new(0.4).unwrap());
        let p = pen(&a, &pa, &b, &pb);
        let x = pa.transform_vector(DVec3::X);
        assert!((p.depth - 1.1).abs() < 1e-15);
        assert!((p.normal - x).length() < 1e-15, "{p:?}");
        assert!((p.point_a - (pa.translation() + x * 0.7)).length() < 1e-14);
        assert!((p.point_b - (pa.translation() - x * 0.4)).length() < 1e-14);
        assert_eq!(p.status, Status::Converged);
        check_answer(&a, &pa, &b, &pb, &p, 1e-14);
    }
    let pa = Pose2::from_angle([2.0, 3.0], 1.0).unwrap();
    let pb = Pose2::from_angle([2.0, 3.0], -2.0).unwrap();
    let (a, b) = (Ball::new(1.0).unwrap(), Ball::new(2.0).unwrap());
    let p = pen(&a, &pa, &b, &pb);
    assert!((p.depth - 3.0).abs() < 1e-15);
    assert!((p.normal - pa.transform_vector(DVec2::X)).length() < 1e-15);
    // Coincident single points, and a point against a sphere centre.
    let pt = Points::new(&[DVec3::new(1.0, 2.0, 3.0)]).unwrap();
    let id = Pose3::IDENTITY;
    let p = pen(&pt, &id, &pt, &id);
    assert_eq!(p.depth, 0.0);
    assert_eq!(p.normal, DVec3::X);
    assert_eq!(p.point_a, DVec3::new(1.0, 2.0, 3.0));
    let s = Ball::new(0.5).unwrap();
    let ps = Pose3::from_translation(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let p = pen(&pt, &id, &s, &ps);
    assert_eq!(p.depth, 0.5);
    assert_eq!(p.normal, DVec3::X);
    check_answer(&pt, &id, &s, &ps, &p, 1e-15);
}

#[test]
fn huge_size_ratios() {
    let big = Cuboid::new(DVec3::splat(1e4)).unwrap();
    let tiny = Cuboid::new(DVec3::splat(1e-3)).unwrap();
    let id = Pose3::IDENTITY;
    // A tiny box poking 1.5e-3 into the big box's +x face.
    let pb = Pose3::from_translation(DVec3::new(1e4 - 0.5e-3, 3.7, -12.1)).unwrap();
    let p = pen(&big, &id, &tiny, &pb);
    let expect = 1e4 - (pb.translation().x - 1e-3);
    assert!((p.depth - expect).abs() < 1e-9, "{p:?} vs {expect}");
    assert!((p.normal - DVec3::X).length() < 1e-9, "{p:?}");
    assert_eq!(p.status, Status::Converged);
    check_answer(&big, &id, &tiny, &pb, &p, 1e-9);
    // Swapped, and with both boxes rotated together.
    let q = pen(&tiny, &pb, &big, &id);
    assert!((q.depth - expect).abs() < 1e-9 && (q.normal + DVec3::X).length() < 1e-9);
    let m = Pose3::new(DVec3::new(-3.0, 2.0, 1.0), DQuat::from_rotation_y(0.7)).unwrap();
    let r = pen(&big, &m, &tiny, &m.compose(&pb));
    assert!((r.depth - expect).abs() < 1e-8, "{r:?}");
    check_answer(&big, &m, &tiny, &m.compose(&pb), &r, 1e-8);
    // A tiny box fully inside, its centre 0.25 below the top face: pushed out through that
    // face, depth = 0.25 + its half extent.
    let pb = Pose3::from_translation(DVec3::new(123.0, -456.0, 1e4 - 0.25)).unwrap();
    let p = pen(&big, &id, &tiny, &pb);
    assert!((p.depth - (0.25 + 1e-3)).abs() < 1e-9, "{p:?}");
    assert!((p.normal - DVec3::Z).length() < 1e-9);
    // A tiny sphere deep inside the huge box: depth = distance to the nearest face + r.
    let s = Ball::new(1e-3).unwrap();
    let ps = Pose3::from_translation(DVec3::new(1234.5, -2000.0, 300.0)).unwrap();
    let p = pen(&big, &id, &s, &ps);
    assert!((p.depth - (8000.0 + 1e-3)).abs() < 1e-8, "{p:?}");
    assert!((p.normal + DVec3::Y).length() < 1e-12, "{p:?}");
    check_answer(&big, &id, &s, &ps, &p, 1e-8);
    // 2D: a tiny square against a huge one.
    let big2 = Cuboid::new(DVec2::splat(1e4)).unwrap();
    let tiny2 = Cuboid::new(DVec2::splat(1e-3)).unwrap();
    let pb2 = Pose2::from_translation(DVec2::new(-5.0, -1e4 - 0.5e-3)).unwrap();
    let p = pen(&big2, &Pose2::IDENTITY, &tiny2, &pb2);
    assert!((p.depth - 0.5e-3).abs() < 1e-9, "{p:?}");
    assert!((p.normal + DVec2::Y).length() < 1e-9);
}

#[test]
fn segments_points_and_duplicates() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let id = Pose3::IDENTITY;
    // A segment inside the cube: pushed out along +y by 0.8.
    let seg = Segment::new(DVec3::new(-0.5, 0.2, 0.1), DVec3::new(0.5, 0.2, 0.1)).unwrap();
    let p = pen(&cube, &id, &seg, &id);
    assert!((p.depth - 0.8).abs() < 1e-9, "{p:?}");
    assert!((p.normal - DVec3::Y).length() < 1e-9);
    check_answer(&cube, &id, &seg, &id, &p, 1e-9);
    // A single point inside: depth = distance to the nearest face.
    let pt = Points::new(&[DVec3::new(0.3, -0.6, 0.1)]).unwrap();
    let p = pen(&cube, &id, &pt, &id);
    assert!((p.depth - 0.4).abs() < 1e-9, "{p:?}");
    assert!((p.normal + DVec3::Y).length() < 1e-9);
    // The same point, repeated: identical answer.
    let pts = Points::new(&[DVec3::new(0.3, -0.6, 0.1); 5]).unwrap();
    assert_eq!(pen(&cube, &id, &pts, &id).depth, p.depth);
    // Point hull with duplicates vs its deduplicated self.
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for _ in 0..50 {
        let l = hull3(6, 1.0, &mut rng);
        let mut dup = l.clone();
        dup.extend_from_slice(&l);
        dup.push(l[0]);
        let (a, b) = (Points::new(&l).unwrap(), Points::new(&dup).unwrap());
        let pb = pose3(unit3(&mut rng) * 0.5, &mut rng);
        let p = pen(&cube, &id, &a, &pb);
        let q = pen(&cube, &id, &b, &pb);
        assert!((p.depth - q.depth).abs() < 1e-9, "{p:?} {q:?}");
    }
    // 2D: a point in a square, a segment across a polygon.
    let sq = Cuboid::new(DVec2::ONE).unwrap();
    let id2 = Pose2::IDENTITY;
    let pt = Points::new(&[DVec2::new(0.9, 0.0)]).unwrap();
    let p = pen(&sq, &id2, &pt, &id2);
    assert!((p.depth - 0.1).abs() < 1e-12);
    assert!((p.normal - DVec2::X).length() < 1e-12);
    let seg = Segment::new(DVec2::new(-2.0, 0.7), DVec2::new(2.0, 0.7)).unwrap();
    let p = pen(&sq, &id2, &seg, &id2);
    assert!((p.depth - 0.3).abs() < 1e-12, "{p:?}");
    assert!((p.normal - DVec2::Y).length() < 1e-12);
    check_answer(&sq, &id2, &seg, &id2, &p, 1e-12);
}

#[test]
fn rounded_shapes_add_radii() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..100 {
        let l = hull3(7, 1.0, &mut rng);
        let core = Points::new(&l).unwrap();
        let rounded = Rounded::new(core.clone(), 0.3).unwrap();
        let cube = Cuboid::new(DVec3::splat(0.6)).unwrap();
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..1.0), &mut rng);
        let p = pen(&core, &pa, &cube, &pb);
        let q = pen(&rounded, &pa, &cube, &pb);
        if p.depth > 1e-6 {
            // Cores overlap: same normal, depth + r.
            assert!((q.depth - p.depth - 0.3).abs() < 1e-9, "{p:?} {q:?}");
        }
        check_answer(&rounded, &pa, &cube, &pb, &q, 1e-9);
    }
}

// ---------------------------------------------------------------------------------------
// Robustness: never NaN, caps, allocation
// ---------------------------------------------------------------------------------------

fn random_shape3(rng: &mut ChaCha8Rng) -> Shape3 {
    let s = [0.0, 1e-9, 1e-3, 1.0, 1e3][rng.gen_range(0..5)];
    match rng.gen_range(0..9) {
        0 => Shape3::Points(Points::new(&hull3(rng.gen_range(1..10), s, rng)).unwrap()),
        1 => Shape3::Sphere(Ball::new(s).unwrap()),
        2 => Shape3::Cuboid(Cuboid::new(DVec3::new(s, s * 0.5, 0.0)).unwrap()),
        3 => Shape3::Capsule(Capsule::new(DVec3::ZERO, DVec3::X * s, s * 0.1).unwrap()),
        4 => Shape3::Cylinder(Cylinder::new(s, s * 0.3).unwrap()),
        5 => Shape3::Cone(Cone::new(s * 0.2, s).unwrap()),
        6 => Shape3::Segment(Segment::new(DVec3::ZERO, DVec3::Y * s).unwrap()),
        7 => Shape3::Triangle(Triangle::new(DVec3::ZERO, DVec3::X * s, DVec3::Y * s).unwrap()),
        _ => Shape3::Cuboid(Cuboid::new(DVec3::splat(s)).unwrap()),
    }
}

#[test]
fn never_nan_on_mixed_and_degenerate_inputs() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut ctx = Context::new();
    let mut statuses = [0usize; 3];
    for i in 0..1500 {
        let a = random_shape3(&mut rng);
        let b = random_shape3(&mut rng);
        let pa = pose3(unit3(&mut rng) * 3.0, &mut rng);
        let pb = match i % 3 {
            0 => pa,
            1 => pose3(pa.translation(), &mut rng),
            _ => pose3(
                pa.translation() + unit3(&mut rng) * rng.gen_range(0.0..2.0),
                &mut rng,
            ),
        };
        let p = penetration(&a, &pa, &b, &pb, &Options::default(), &mut ctx);
        let curved = |s: &Shape3| matches!(s, Shape3::Cylinder(_) | Shape3::Cone(_));
        if p.status != Status::Converged {
            // Polytopes, spheres and capsules always converge; only curved cores can hit the
            // cap (a body near a cylinder's axis: see the module header).
            assert!(curved(&a) || curved(&b), "{p:?} {a:?} {b:?}");
        }
        statuses[match p.status {
            Status::Converged => 0,
            Status::IterationLimit => 1,
            _ => 2,
        }] += 1;
        assert!(p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite());
        assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
        let scale = a.size() + b.size() + 1e-300;
        let d = p.point_a - p.point_b - p.normal * p.depth;
        // Witness points, not depth: they stay at 1e-6 × scale. Checked to 1e-9 this fails
        // once in 1500 (seed 12, case 1241: a capsule of core length 1000 and radius 100
        // against a unit sphere, scale 601): converged, depth 100.9999172 in a certified
        // interval 1.2e-7 wide, yet |point_a − point_b − depth·normal| = 1.24e-4 (2e-7 ×
        // scale) — the witness points are ~1e3 times less accurate than the depth.
        assert!(d.length() <= 1e-6 * scale + 1e-12, "{p:?}");
        if p.verdict.intersecting() == Some(true) {
            assert!(p.depth >= 0.0);
        }
    }
    println!("statuses (converged, iteration limit, degenerate): {statuses:?}");
    assert_eq!(statuses[2], 0);
    // 2D.
    let mut ctx2 = Context::new();
    for i in 0..1000 {
        let s = [0.0, 1e-9, 1.0, 1e3][rng.gen_range(0..4)];
        let mk = |rng: &mut ChaCha8Rng, k: usize| -> Shape2 {
            match k % 5 {
                0 => Shape2::Points(Points::new(&hull2(rng.gen_range(1..8), s, rng)).unwrap()),
                1 => Shape2::Circle(Ball::new(s).unwrap()),
                2 => Shape2::Rect(Cuboid::new(DVec2::new(s, 0.0)).unwrap()),
                3 => Shape2::Segment(Segment::new(DVec2::ZERO, DVec2::X * s).unwrap()),
                _ => Shape2::Capsule(Capsule::new(DVec2::ZERO, DVec2::Y * s, s).unwrap()),
            }
        };
        let a = mk(&mut rng, i);
        let b = mk(&mut rng, i / 5);
        let pa = pose2(unit2(&mut rng), &mut rng);
        let pb = if i % 2 == 0 {
            pa
        } else {
            pose2(
                pa.translation() + unit2(&mut rng) * rng.gen_range(0.0..2.0),
                &mut rng,
            )
        };
        let p = penetration(&a, &pa, &b, &pb, &Options::default(), &mut ctx2);
        assert!(p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite());
        assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
    }
}

#[test]
fn iteration_cap_reports_best_face() {
    let cyl = Cylinder::new(1.0, 1.0).unwrap();
    let cone = Cone::new(1.0, 1.0).unwrap();
    let pb = Pose3::new(DVec3::new(0.3, 0.2, 0.5), DQuat::from_rotation_x(0.4)).unwrap();
    let id = Pose3::IDENTITY;
    let full = pen(&cyl, &id, &cone, &pb);
    for cap in [0, 1, 3] {
        let opts = Options {
            max_iterations: cap,
            ..Options::default()
        };
        let p = penetration(&cyl, &id, &cone, &pb, &opts, &mut Context::new());
        assert_eq!(p.status, Status::IterationLimit, "{p:?}");
        assert!(p.depth.is_finite() && (p.normal.length() - 1.0).abs() < 1e-12);
        // The interval is certified: it holds the converged depth.
        assert!(p.depth_lower <= full.depth + 1e-9, "{p:?} vs {full:?}");
        assert!(full.depth <= p.depth_upper + 1e-9, "{p:?} vs {full:?}");
        assert!(
            p.depth_lower <= p.depth && p.depth <= p.depth_upper,
            "{p:?}"
        );
    }
    // Curved shapes: the result is still a valid (translation-checked) answer.
    let scale = cyl.size() + cone.size();
    check_answer(&cyl, &id, &cone, &pb, &full, 1e-9 * scale);
}

#[test]
fn context_capacity_stops_growing() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut shapes = Vec::new();
    for _ in 0..100 {
        let a = random_shape3(&mut rng);
        let b = Shape3::Points(Points::new(&hull3(8, 1.0, &mut rng)).unwrap());
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..1.0), &mut rng);
        shapes.push((a, pa, b, pb));
    }
    let mut ctx = Context::new();
    let run = |ctx: &mut Context<DVec3>| {
        for (a, pa, b, pb) in &shapes {
            penetration(a, pa, b, pb, &Options::default(), ctx);
        }
    };
    run(&mut ctx);
    let warm = ctx.capacity();
    assert!(warm > 0);
    for _ in 0..20 {
        run(&mut ctx);
        assert_eq!(ctx.capacity(), warm);
    }
    // 2D.
    let mut ctx2 = Context::new();
    let pairs: Vec<_> = (0..100)
        .map(|_| {
            let a = Points::new(&hull2(8, 1.0, &mut rng)).unwrap();
            let b = Points::new(&hull2(8, 1.0, &mut rng)).unwrap();
            let pb = pose2(unit2(&mut rng) * 0.5, &mut rng);
            (a, b, pb)
        })
        .collect();
    let run2 = |ctx: &mut Context<DVec2>| {
        for (a, b, pb) in &pairs {
            penetration(a, &Pose2::IDENTITY, b, pb, &Options::default(), ctx);
        }
    };
    run2(&mut ctx2);
    let warm = ctx2.capacity();
    for _ in 0..20 {
        run2(&mut ctx2);
        assert_eq!(ctx2.capacity(), warm);
    }
}

// ---------------------------------------------------------------------------------------
// Hard geometry: coplanar vertices, thin slabs, near-touching pairs, hair-apart cores
// ---------------------------------------------------------------------------------------

/// The points of a `(k+1)³` grid on the surface of the box with half extents `h`: many
/// coplanar (and collinear) vertices, so the polytope has many coplanar faces.
fn grid3(h: DVec3, k: usize) -> Points<DVec3> {
    let mut v = Vec::new();
    for i in 0..=k {
        for j in 0..=k {
            for l in 0..=k {
                let t = DVec3::new(i as f64, j as f64, l as f64) / k as f64 * 2.0 - DVec3::ONE;
                if t.abs().max_element() == 1.0 {
                    v.push(t * h);
                }
            }
        }
    }
    Points::new(&v).unwrap()
}

fn grid2(h: DVec2, k: usize) -> Points<DVec2> {
    let mut v = Vec::new();
    for i in 0..=k {
        for j in 0..=k {
            let t = DVec2::new(i as f64, j as f64) / k as f64 * 2.0 - DVec2::ONE;
            if t.abs().max_element() == 1.0 {
                v.push(t * h);
            }
        }
    }
    Points::new(&v).unwrap()
}

#[test]
fn coplanar_vertex_grids_agree_with_cuboids() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut worst = 0.0f64;
    for i in 0..300 {
        let ha = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        let hb = DVec3::new(
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
            rng.gen_range(0.1..2.0),
        );
        // Far from the origin too: results depend on the offset only through the rounding
        // of the input translations.
        let off = DVec3::splat([0.0, 1e3, 1e6][i % 3]);
        let t = unit3(&mut rng) * rng.gen_range(0.0..(ha + hb).length());
        let (pa, pb) = if i % 5 == 0 {
            (
                Pose3::from_translation(off).unwrap(),
                Pose3::from_translation(off + t).unwrap(),
            )
        } else {
            (pose3(off, &mut rng), pose3(off + t, &mut rng))
        };
        let (ca, cb) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let p = pen(&ca, &pa, &cb, &pb);
        let q = pen(&grid3(ha, 4), &pa, &grid3(hb, 3), &pb);
        let scale = (ha + hb).length();
        assert_eq!(q.status, Status::Converged);
        worst = worst.max((p.depth - q.depth).abs() / scale);
        // Offsets of 1e6 cost ~1e-10 in the input translations.
        let tol = 1e-9 * scale;
        assert!((p.depth - q.depth).abs() < tol, "{p:?} {q:?}");
        check_answer(&ca, &pa, &cb, &pb, &q, tol);
    }
    println!("grids 3D: max |depth(points) − depth(cuboid)| / size = {worst:.2e}");
    for i in 0..300 {
        let ha = DVec2::new(rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let hb = DVec2::new(rng.gen_range(0.1..2.0), rng.gen_range(0.1..2.0));
        let off = DVec2::splat([0.0, 1e3, 1e6][i % 3]);
        let t = unit2(&mut rng) * rng.gen_range(0.0..(ha + hb).length());
        let (pa, pb) = if i % 5 == 0 {
            (
                Pose2::from_translation(off).unwrap(),
                Pose2::from_translation(off + t).unwrap(),
            )
        } else {
            (pose2(off, &mut rng), pose2(off + t, &mut rng))
        };
        let (ca, cb) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let p = pen(&ca, &pa, &cb, &pb);
        let q = pen(&grid2(ha, 5), &pa, &grid2(hb, 4), &pb);
        let tol = 1e-9 * (ha + hb).length();
        assert_eq!(q.status, Status::Converged);
        assert!((p.depth - q.depth).abs() < tol, "{p:?} {q:?}");
        check_answer(&ca, &pa, &cb, &pb, &q, tol);
    }
}

#[test]
fn thin_slabs_against_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for i in 0..400 {
        let th = [1e-12, 1e-9, 1e-6, 1e-3][i % 4];
        let a = Cuboid::new(DVec3::new(1.0, 1.0, th)).unwrap();
        let b = Points::new(&hull3(8, 1.0, &mut rng)).unwrap();
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..2.0), &mut rng);
        let p = pen(&a, &pa, &b, &pb);
        assert_eq!(p.status, Status::Converged);
        if p.verdict.intersecting() == Some(false) {
            // Separated: GJK's answer, whose normal (the direction of its closest point) is
            // only as accurate as GJK makes it; not EPA's business.
            let g = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
            assert_eq!((p.depth, p.normal), (-g.distance, g.normal));
            continue;
        }
        check_answer(&a, &pa, &b, &pb, &p, 1e-9);
        let corners: Vec<DVec3> = (0..8)
            .map(|k| {
                pa.transform_point(DVec3::new(
                    if k & 1 == 0 { -1.0 } else { 1.0 },
                    if k & 2 == 0 { -1.0 } else { 1.0 },
                    if k & 4 == 0 { -th } else { th },
                ))
            })
            .collect();
        let d = minkowski(&corners, &world_points(&pb, b.points()));
        if let Some((depth, _)) = oracle(&facets3(&d)) {
            if depth > 0.0 {
                assert!((p.depth - depth).abs() < 1e-9, "{p:?} vs {depth}");
            }
        }
    }
}

#[test]
fn near_touching_pairs() {
    // Move B out along the answer's normal by depth + e: the new depth is −e (to the
    // tolerance), with a consistent normal, for e from 1e-14 to 1e-9 of either sign.
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let es = [0.0, 1e-14, -1e-14, 1e-11, -1e-11, 1e-9, -1e-9];
    for i in 0..700 {
        let e = es[i % es.len()];
        let a = Points::new(&hull3(8, 1.0, &mut rng)).unwrap();
        let b = Points::new(&hull3(6, 0.7, &mut rng)).unwrap();
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * 0.5, &mut rng);
        let p = pen(&a, &pa, &b, &pb);
        let pb2 = translated(&pb, p.normal * (p.depth + e));
        let q = pen(&a, &pa, &b, &pb2);
        assert_eq!(q.status, Status::Converged);
        assert!((q.depth + e).abs() < 1e-9, "e = {e}: {q:?}");
        check_answer(&a, &pa, &b, &pb2, &q, 1e-9);

        let a = Points::new(&hull2(6, 1.0, &mut rng)).unwrap();
        let b = Points::new(&hull2(5, 0.7, &mut rng)).unwrap();
        let pa = pose2(DVec2::ZERO, &mut rng);
        let pb = pose2(unit2(&mut rng) * 0.5, &mut rng);
        let p = pen(&a, &pa, &b, &pb);
        let pb2 = translated(&pb, p.normal * (p.depth + e));
        let q = pen(&a, &pa, &b, &pb2);
        assert_eq!(q.status, Status::Converged);
        assert!((q.depth + e).abs() < 1e-9, "e = {e}: {q:?}");
        check_answer(&a, &pa, &b, &pb2, &q, 1e-9);
    }
}

#[test]
fn rounded_cores_a_hair_apart() {
    // Cores 1e-8 apart (well above the touch tolerance, far below the shapes' size): the
    // flat, segment and point answers carry the offset exactly.
    let id = Pose3::IDENTITY;
    let t1 = Triangle::new(
        DVec3::ZERO,
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    )
    .unwrap();
    let (r1, r2) = (
        Rounded::new(t1, 0.1).unwrap(),
        Rounded::new(t1, 0.2).unwrap(),
    );
    let up = Pose3::from_translation(DVec3::new(0.1, 0.2, 1e-8)).unwrap();
    let p = pen(&r1, &id, &r2, &up);
    assert!((p.depth - (0.3 - 1e-8)).abs() < 1e-15, "{p:?}");
    assert!((p.normal - DVec3::Z).length() < 1e-12, "{p:?}");
    check_answer(&r1, &id, &r2, &up, &p, 1e-12);
    let down = Pose3::from_translation(DVec3::new(0.1, 0.2, -1e-8)).unwrap();
    let p = pen(&r1, &id, &r2, &down);
    assert!((p.depth - (0.3 - 1e-8)).abs() < 1e-15, "{p:?}");
    assert!((p.normal + DVec3::Z).length() < 1e-12, "{p:?}");
    // Collinear capsules offset sideways by 1e-8.
    let c = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.25).unwrap();
    let side = Pose3::from_translation(DVec3::new(0.5, 0.0, 1e-8)).unwrap();
    let p = pen(&c, &id, &c, &side);
    assert!((p.depth - (0.5 - 1e-8)).abs() < 1e-15, "{p:?}");
    assert!((p.normal - DVec3::Z).length() < 1e-9, "{p:?}");
    check_answer(&c, &id, &c, &side, &p, 1e-12);
    // Spheres 1e-9 apart: the exact direction.
    let s = Ball::new(0.5).unwrap();
    let dir = DVec3::new(1.0, -2.0, 2.0) / 3.0;
    let ps = Pose3::from_translation(dir * 1e-9).unwrap();
    let p = pen(&s, &id, &s, &ps);
    assert!((p.depth - (1.0 - 1e-9)).abs() < 1e-15, "{p:?}");
    assert!((p.normal - dir).length() < 1e-6, "{p:?}");
    // 2D: collinear capsules offset by 1e-8.
    let c2 = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.25).unwrap();
    let side2 = Pose2::from_translation(DVec2::new(0.5, -1e-8)).unwrap();
    let p = pen(&c2, &Pose2::IDENTITY, &c2, &side2);
    assert!((p.depth - (0.5 - 1e-8)).abs() < 1e-15, "{p:?}");
    assert!((p.normal + DVec2::Y).length() < 1e-9, "{p:?}");
}

#[test]
fn contract_breaking_custom_supports_never_give_nan() {
    // Support functions that break their contract: NaN in some directions, and a "shape" whose
    // support is not a maximiser (a star-shaped, inconsistent answer). The result may be poor
    // (status Degenerate or IterationLimit) but is always finite with a unit normal.
    let nan_above = Custom::new(
        |d: DVec3| {
            if d.y > 0.5 * d.length() {
                DVec3::NAN
            } else {
                DVec3::new(d.x.signum(), d.y.signum(), d.z.signum())
            }
        },
        DVec3::ZERO,
        1.7,
    )
    .unwrap();
    let liar = Custom::new(
        |d: DVec3| {
            let n = d.normalize_or_zero();
            n * (1.0 + 0.5 * (7.0 * n.x).sin() * (5.0 * n.y).cos())
        },
        DVec3::ZERO,
        1.5,
    )
    .unwrap();
    // A support that answers a pseudo-random point of a small set (a hash of the direction):
    // wildly inconsistent, so the polytope goes non-convex and its horizon breaks.
    let chaos = Custom::new(
        |d: DVec3| {
            let h = (d.x * 12.9898 + d.y * 78.233 + d.z * 37.719).sin() * 43758.5453;
            let k = ((h - h.floor()) * 12.0) as usize;
            let pts = [
                DVec3::X,
                DVec3::NEG_X,
                DVec3::Y,
                DVec3::NEG_Y,
                DVec3::Z,
                DVec3::NEG_Z,
                DVec3::ONE * 0.5,
                DVec3::NEG_ONE * 0.5,
                DVec3::new(0.5, -0.5, 0.5),
                DVec3::new(-0.5, 0.5, -0.5),
                DVec3::new(0.5, 0.5, -0.5),
                DVec3::new(-0.5, -0.5, 0.5),
            ];
            pts[k.min(11)]
        },
        DVec3::ZERO,
        1.0,
    )
    .unwrap();
    let cube = Cuboid::new(DVec3::splat(0.8)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut ctx = Context::new();
    let mut statuses = [0usize; 3];
    for i in 0..800 {
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..2.5), &mut rng);
        let p = match i % 4 {
            0 => penetration(&nan_above, &pa, &cube, &pb, &Options::default(), &mut ctx),
            1 => penetration(&liar, &pa, &cube, &pb, &Options::default(), &mut ctx),
            2 => penetration(&cube, &pa, &liar, &pb, &Options::default(), &mut ctx),
            _ => penetration(&chaos, &pa, &cube, &pb, &Options::default(), &mut ctx),
        };
        statuses[match p.status {
            Status::Converged => 0,
            Status::IterationLimit => 1,
            _ => 2,
        }] += 1;
        assert!(p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite());
        assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
    }
    println!("contract-breaking supports (converged, limit, degenerate): {statuses:?}");
    // 2D: NaN support everywhere but along the probe axis.
    let nan2 = Custom::new(
        |d: DVec2| if d.y != 0.0 { DVec2::NAN } else { DVec2::X },
        DVec2::ZERO,
        1.0,
    )
    .unwrap();
    let sq = Cuboid::new(DVec2::ONE).unwrap();
    for k in 0..20 {
        let pb = pose2(unit2(&mut rng) * (k as f64 * 0.1), &mut rng);
        let p = pen(&nan2, &Pose2::IDENTITY, &sq, &pb);
        assert!(p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite());
        assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Curved shapes (issue 14, item 6): converged depths or certified intervals
// ---------------------------------------------------------------------------------------

/// `h_A(n) + h_B(−n)`: the overlap of the projections on the unit `n` (an upper bound on the
/// depth for every `n`; the depth is its minimum).
fn overlap<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3, n: DVec3) -> f64
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    h(a, pa, n) + h(b, pb, -n)
}

/// Independent upper bound on the depth: the least projection overlap over 4000 Fibonacci
/// directions, then a shrinking pattern search from the best of them and from `seed`.
fn oracle_upper<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3, seed: DVec3) -> f64
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let f = |n: DVec3| overlap(a, pa, b, pb, n.normalize());
    let m = 4000;
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut best = (f64::INFINITY, DVec3::X);
    for i in 0..m {
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / m as f64;
        let r = (1.0 - z * z).sqrt();
        let n = DVec3::new(
            r * (golden * i as f64).cos(),
            r * (golden * i as f64).sin(),
            z,
        );
        let v = f(n);
        if v < best.0 {
            best = (v, n);
        }
    }
    let mut out = best.0;
    for start in [best.1, seed] {
        let (mut v, mut n) = (f(start), start.normalize());
        let mut step = 0.05;
        while step > 1e-13 {
            let (e1, e2) = (
                n.any_orthonormal_vector(),
                n.cross(n.any_orthonormal_vector()),
            );
            let mut moved = false;
            for d in [e1, -e1, e2, -e2, e1 + e2, e1 - e2, -e1 + e2, -e1 - e2] {
                let c = (n + d * step).normalize();
                let cv = f(c);
                if cv < v {
                    (v, n, moved) = (cv, c, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        out = out.min(v);
    }
    out
}

/// The checks of a curved pair: the interval is certified (its lower end not above the
/// oracle's upper bound, `depth` inside it), `depth` is within `1e-9 · size` of the true
/// depth (a converged interval that narrow, or `want`), and moving B by `depth · normal`
/// makes the pair touch: GJK distance at most `1e-9 · size`, and a further `1e-9 · size`
/// separates them.
fn check_curved<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3, want: Option<f64>) -> Penetration<DVec3>
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let p = pen(a, pa, b, pb);
    let s = a.size() + b.size();
    let tol = 1e-9 * s;
    assert!(
        p.depth_lower <= p.depth && p.depth <= p.depth_upper,
        "{p:?}"
    );
    let o = oracle_upper(a, pa, b, pb, p.normal);
    assert!(
        p.depth_lower <= o + tol,
        "lower bound above the oracle {o}: {p:?}"
    );
    // The depth is attained along our normal: the overlap there is the depth.
    assert!(
        (overlap(a, pa, b, pb, p.normal) - p.depth).abs() <= tol,
        "{p:?}"
    );
    match want {
        Some(d) => assert!((p.depth - d).abs() <= tol, "want {d}: {p:?}"),
        None => {
            assert_eq!(p.status, Status::Converged, "{p:?}");
            assert!(p.depth_upper - p.depth_lower <= tol, "{p:?}");
            assert!(p.depth <= o + tol, "depth above the oracle {o}: {p:?}");
        }
    }
    let o = gjk::Options::default();
    let moved = translated(pb, p.normal * p.depth);
    let d = gjk::distance(a, pa, b, &moved, &o, None);
    assert!(
        d.distance <= tol,
        "not touching after the move: {d:?}; {p:?}"
    );
    let apart = translated(pb, p.normal * (p.depth + tol));
    let r = gjk::intersects(a, pa, b, &apart, &o, None);
    assert_eq!(r.intersecting(), Some(false), "still overlapping: {p:?}");
    p
}

#[test]
fn epa_cylinder_against_itself_converges() {
    let c = Cylinder::new(1.0, 0.5).unwrap();
    let id = Pose3::IDENTITY;
    let p = check_curved(&c, &id, &c, &id, Some(1.0));
    assert!(
        p.depth_lower <= 1.0 && 1.0 <= p.depth_upper + 1e-12,
        "{p:?}"
    );
    // Far from the origin and rotated: the same depth.
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let pose = pose3(DVec3::new(1e3, -2e3, 5e2), &mut rng);
    check_curved(&c, &pose, &c, &pose, Some(1.0));
}

#[test]
fn epa_cone_against_itself_converges() {
    let c = Cone::new(1.0, 0.5).unwrap();
    let id = Pose3::IDENTITY;
    let want = 4.0 / 17f64.sqrt();
    let p = check_curved(&c, &id, &c, &id, Some(want));
    assert!(
        p.depth_lower <= want && want <= p.depth_upper + 1e-12,
        "{p:?}"
    );
}

#[test]
fn epa_capsule_and_rounded_against_themselves_converge() {
    let id = Pose3::IDENTITY;
    let cap = Capsule::new(DVec3::new(0.0, 0.0, -1.0), DVec3::new(0.0, 0.0, 1.0), 0.5).unwrap();
    check_curved(&cap, &id, &cap, &id, Some(1.0));
    let rb = Rounded::new(Cuboid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap(), 0.1).unwrap();
    check_curved(&rb, &id, &rb, &id, Some(0.7));
    let rc = Rounded::new(Cylinder::new(1.0, 0.5).unwrap(), 0.25).unwrap();
    check_curved(&rc, &id, &rc, &id, Some(1.5));
}

#[test]
fn epa_random_curved_overlaps_within_1e9_of_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut converged = 0;
    let total = 60;
    for k in 0..total {
        let shape = |rng: &mut ChaCha8Rng, k: usize| -> Shape3 {
            let (h, r) = (rng.gen_range(0.3..1.5), rng.gen_range(0.2..1.0));
            match k % 5 {
                0 => Shape3::Cylinder(Cylinder::new(h, r).unwrap()),
                1 => Shape3::Cone(Cone::new(h, r).unwrap()),
                2 => Shape3::Capsule(Capsule::new(DVec3::ZERO, DVec3::Z * h, r).unwrap()),
                3 => Shape3::Sphere(Ball::new(r).unwrap()),
                _ => Shape3::Cuboid(Cuboid::new(DVec3::new(h, r, 0.5 * (h + r))).unwrap()),
            }
        };
        let a = shape(&mut rng, k);
        let b = shape(&mut rng, k / 5 + 1);
        let pa = pose3(DVec3::ZERO, &mut rng);
        let pb = pose3(unit3(&mut rng) * rng.gen_range(0.0..0.6), &mut rng);
        if gjk::intersects(&a, &pa, &b, &pb, &gjk::Options::default(), None).intersecting()
            != Some(true)
        {
            continue;
        }
        let p = pen(&a, &pa, &b, &pb);
        if p.status == Status::Converged {
            converged += 1;
            check_curved(&a, &pa, &b, &pb, None);
        } else {
            // Not converged within the cap: the interval is certified and the depth is its
            // upper end, a support value that is attained.
            let want = p.depth_upper;
            check_curved(&a, &pa, &b, &pb, Some(want));
        }
    }
    assert!(
        converged >= total / 2,
        "only {converged} of {total} converged"
    );
}

/// The warm-started path answers as the cold one on a coherent trajectory (depth to
/// `1e-9 · size`, interval certified), including after the cache is handed another pair.
#[test]
fn warm_started_penetration_matches_cold_on_a_trajectory() {
    use convexity::gjk::epa::{penetration_cached, EpaCache};
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let a = Points::new(&hull3(16, 1.0, &mut rng)).unwrap();
    let b = Points::new(&hull3(12, 0.8, &mut rng)).unwrap();
    let c = Cylinder::new(0.6, 0.4).unwrap();
    let mut cache = EpaCache::new();
    let mut ctx = Context::new();
    let s = a.size() + b.size();
    for step in 0..300 {
        let t = step as f64 * 0.01;
        let pa = Pose3::new(DVec3::ZERO, DQuat::from_rotation_y(0.3 * t)).unwrap();
        let dir = DVec3::new(t.cos(), 0.2 * t.sin(), t.sin());
        let pb = Pose3::new(dir * 0.9, DQuat::from_rotation_z(0.5 * t)).unwrap();
        let cold = pen(&a, &pa, &b, &pb);
        let warm = penetration_cached(&a, &pa, &b, &pb, &Options::default(), &mut ctx, &mut cache);
        assert!(
            (warm.depth - cold.depth).abs() <= 1e-9 * s,
            "{warm:?} vs {cold:?}"
        );
        assert_eq!(warm.verdict.intersecting(), cold.verdict.intersecting());
        assert!(
            warm.depth_lower <= cold.depth + 1e-9 * s && cold.depth <= warm.depth_upper + 1e-9 * s
        );
        if step % 50 == 0 {
            // The same cache with another pair: ignored, same answer as cold.
            let cold = pen(&a, &pa, &c, &pb);
            let warm =
                penetration_cached(&a, &pa, &c, &pb, &Options::default(), &mut ctx, &mut cache);
            assert!(
                (warm.depth - cold.depth).abs() <= 1e-9 * s,
                "{warm:?} vs {cold:?}"
            );
        }
    }
}

/// Fuzz case (warm_epa, 2026-12-05): the rounded core of A is a 11-unit segment (a collinear
/// point set) and B a rounded point touching it from the side, so the core overlap is a
/// segment and every normal across it ties. The reported normal must be perpendicular to the
/// segment to working precision: a tilt of 5e-8 rad moves A's support to the far end and puts
/// the overlap along the normal 4.9e-7 above the reported depth (and above `depth_upper`).
#[test]
fn rounded_long_segment_against_rounded_point_overlap_along_normal_is_the_depth() {
    let seg = [
        DVec3::splat(-5.025069675386747),
        DVec3::splat(0.5583410750429701),
        DVec3::splat(0.5583410750429701),
    ];
    let a = Rounded::new(
        Shape3::Points(Points::new(&seg).unwrap()),
        0.00028967111545679384,
    )
    .unwrap();
    let pt = [DVec3::splat(5.906094184068663e-5); 2];
    let b = Rounded::new(
        Shape3::Points(Points::new(&pt).unwrap()),
        0.0009923157465684272,
    )
    .unwrap();
    let pa = Pose3::new(
        DVec3::splat(0.0117647058823529),
        DQuat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::splat(0.07397327643327135),
        DQuat::from_xyzw(
            0.49867695725797057,
            0.4986655130315272,
            0.49867695725797057,
            0.5039596121842187,
        )
        .normalize(),
    )
    .unwrap();
    let p = pen(&a, &pa, &b, &pb);
    assert_eq!(p.verdict.intersecting(), Some(true), "{p:?}");
    let tol = 1e-9 * (a.size() + b.size());
    let overlap = h(&a, &pa, p.normal) + h(&b, &pb, -p.normal);
    assert!(
        overlap <= p.depth_upper + tol && (overlap - p.depth).abs() <= tol,
        "overlap {overlap} vs {p:?}"
    );
    check_answer(&a, &pa, &b, &pb, &p, tol);
}
