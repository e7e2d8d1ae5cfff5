//! Time of impact.
//!
//! Oracles:
//! * vertex–edge: a reference root found by bisection in f64 on a sign-exact evaluation of
//!   `f(t) = (b − a) × (p − a)` (double-double arithmetic, ~106 bits, independent of the
//!   library's polynomial), on random quadratic and quartic cases and on the listed edge cases
//!   (linear, zero relative velocity, grazing double root, hit at h, touching at the start,
//!   collinear sliding);
//! * translating polygons: the minimum of the vertex–edge TOIs over all vertex/edge pairs of
//!   both polygons (exact for translation) against the swept GJK ray cast;
//! * 3D hulls: parry3d-f64 `query::cast_shapes`, and conservative advancement against the
//!   swept ray cast (same status, same time), and the swept-hull boolean with its certificate;
//! * rotation: SAT separations sampled before the reported time (no missed earlier contact)
//!   and at it (touching).

use convexity::polytope::sat2d::sat;
use convexity::toi::roots::{quadratic_roots, quartic_roots, RootKind};
use convexity::toi::*;
use convexity::*;
use convexity_testkit::gen2::rect_corners;
use convexity_testkit::gen3::{random_quat, sphere_points};
use convexity_testkit::rng::rng;
use rand::Rng;

// ------------------------------------------------------------------------------------------
// Double-double reference for f(t)
// ------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
struct Dd(f64, f64);

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd(s, (a - (s - bb)) + (b - bb))
}
fn quick(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd(s, b - (s - a))
}
fn add(x: Dd, y: Dd) -> Dd {
    let s = two_sum(x.0, y.0);
    quick(s.0, s.1 + x.1 + y.1)
}
fn neg(x: Dd) -> Dd {
    Dd(-x.0, -x.1)
}
fn mul(x: Dd, y: Dd) -> Dd {
    let p = x.0 * y.0;
    let e = x.0.mul_add(y.0, -p);
    quick(p, e + x.0 * y.1 + x.1 * y.0)
}
fn d(x: f64) -> Dd {
    Dd(x, 0.0)
}

/// Position coordinate `x0 + v t + ½ a t²` in double-double.
fn pos(x0: f64, v: f64, a: f64, t: f64) -> Dd {
    let t = d(t);
    add(add(d(x0), mul(d(v), t)), mul(mul(d(0.5 * a), t), t))
}

fn f_dd(p: &Kinematic2, a: &Kinematic2, b: &Kinematic2, t: f64) -> f64 {
    let c = |k: &Kinematic2, i: usize| {
        let (x, v, acc) = if i == 0 {
            (k.position.x, k.velocity.x, k.acceleration.x)
        } else {
            (k.position.y, k.velocity.y, k.acceleration.y)
        };
        pos(x, v, acc, t)
    };
    let ex = add(c(b, 0), neg(c(a, 0)));
    let ey = add(c(b, 1), neg(c(a, 1)));
    let qx = add(c(p, 0), neg(c(a, 0)));
    let qy = add(c(p, 1), neg(c(a, 1)));
    let r = add(mul(ex, qy), neg(mul(ey, qx)));
    r.0 + r.1
}

fn within(p: &Kinematic2, a: &Kinematic2, b: &Kinematic2, t: f64, slack: f64) -> bool {
    let e = b.at(t) - a.at(t);
    let q = p.at(t) - a.at(t);
    let u = q.dot(e);
    let ee = e.dot(e);
    u >= -slack * ee && u <= ee * (1.0 + slack)
}

/// First t in [0, h] with f(t) = 0 and the vertex within the segment, by a scan of 4000
/// samples and bisection on the double-double sign. Returns (t, margin) where margin is the
/// distance of the segment parameter from [0, 1] (small margins are ambiguous).
fn reference(p: &Kinematic2, a: &Kinematic2, b: &Kinematic2, h: f64) -> Option<(f64, f64)> {
    let n = 4000;
    let mut t0 = 0.0;
    let mut f0 = f_dd(p, a, b, 0.0);
    for k in 1..=n {
        let t1 = h * k as f64 / n as f64;
        let f1 = f_dd(p, a, b, t1);
        if f0 == 0.0 || (f0 > 0.0) != (f1 > 0.0) || f1 == 0.0 {
            let (mut lo, mut hi) = (t0, t1);
            let flo = f0;
            if f0 != 0.0 {
                for _ in 0..200 {
                    let m = 0.5 * (lo + hi);
                    if !(m > lo && m < hi) {
                        break;
                    }
                    let fm = f_dd(p, a, b, m);
                    if fm == 0.0 {
                        hi = m;
                        break;
                    }
                    if (fm > 0.0) == (flo > 0.0) {
                        lo = m;
                    } else {
                        hi = m;
                    }
                }
            } else {
                hi = lo;
            }
            let t = if f0 == 0.0 { t0 } else { hi };
            let e = b.at(t) - a.at(t);
            let q = p.at(t) - a.at(t);
            let s = q.dot(e) / e.dot(e);
            if within(p, a, b, t, 0.0) {
                return Some((t, s.min(1.0 - s)));
            }
            if s.min(1.0 - s) > -1e-6 {
                return Some((t, s.min(1.0 - s)));
            }
        }
        t0 = t1;
        f0 = f1;
    }
    None
}

fn v2(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn kin<R: Rng>(r: &mut R, accel: bool) -> Kinematic2 {
    let mut u = || r.gen_range(-1.0..1.0);
    let pos = v2(u(), u());
    let vel = v2(u(), u()) * 2.0;
    let acc = if accel {
        v2(u(), u()) * 4.0
    } else {
        DVec2::ZERO
    };
    Kinematic2::with_acceleration(pos, vel, acc)
}

// ------------------------------------------------------------------------------------------
// Root finder and vertex–edge
// ------------------------------------------------------------------------------------------

#[test]
fn roots_match_constructed_roots() {
    let mut r = rng(0x2007);
    let mut worst: f64 = 0.0;
    for _ in 0..20000 {
        let k = r.gen_range(1..=4usize);
        let roots: Vec<f64> = (0..k).map(|_| r.gen_range(-0.5..1.5)).collect();
        // Expand Π (t − rᵢ).
        let mut c = vec![1.0];
        for &x in &roots {
            let mut n = vec![0.0; c.len() + 1];
            for (i, ci) in c.iter().enumerate() {
                n[i + 1] += ci;
                n[i] -= ci * x;
            }
            c = n;
        }
        let mut c5 = [0.0; 5];
        c5[..c.len()].copy_from_slice(&c);
        let got = quartic_roots(c5, 1.0);
        let mut want: Vec<f64> = roots
            .iter()
            .copied()
            .filter(|x| (0.0..=1.0).contains(x))
            .collect();
        want.sort_by(f64::total_cmp);
        want.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
        let times: Vec<f64> = got.times().collect();
        // Roots closer than ~1e-6 may merge (they are reported once, as touching).
        if roots
            .iter()
            .any(|x| (x.abs() < 1e-9) || ((x - 1.0).abs() < 1e-9))
        {
            continue;
        }
        let close = roots
            .iter()
            .enumerate()
            .any(|(i, x)| roots.iter().skip(i + 1).any(|y| (x - y).abs() < 1e-4));
        if close {
            continue;
        }
        assert_eq!(times.len(), want.len(), "roots {roots:?} got {got:?}");
        for (x, y) in times.iter().zip(&want) {
            worst = worst.max((x - y).abs());
        }
    }
    eprintln!("constructed roots: worst error {worst:e}");
    assert!(worst < 1e-9, "{worst}");
}

#[test]
fn quadratic_edge_cases() {
    // Linear (a = 0).
    assert_eq!(quadratic_roots(-1.0, 4.0, 0.0, 1.0).first(), Some(0.25));
    // Constant non-zero: no root, no division.
    assert!(quadratic_roots(1.0, 0.0, 0.0, 1.0).is_empty());
    // Grazing double root exactly.
    let r = quadratic_roots(1.0, -4.0, 4.0, 1.0); // (1 − 2t)²
    assert_eq!(r.as_slice(), &[(0.5, RootKind::Touching)]);
    // Root exactly at h.
    assert_eq!(
        quadratic_roots(-2.0, 0.0, 1.0 / 4.0, 8.0_f64.sqrt()).len(),
        1
    );
    assert_eq!(quadratic_roots(-1.0, 1.0, 0.0, 1.0).first(), Some(1.0));
    // Non-finite input.
    assert!(quadratic_roots(f64::NAN, 1.0, 0.0, 1.0).is_empty());
}

#[test]
fn vertex_edge_edge_cases() {
    let a = Kinematic2::new(v2(0.0, 0.0), DVec2::ZERO);
    let b = Kinematic2::new(v2(1.0, 0.0), DVec2::ZERO);
    // Linear: falls from y = 1 at speed 2.
    let p = Kinematic2::new(v2(0.5, 1.0), v2(0.0, -2.0));
    match vertex_edge_toi(&p, &a, &b, 1.0).unwrap() {
        TimeOfImpact::Hit {
            toi,
            normal,
            points,
        } => {
            assert_eq!(toi, 0.5);
            assert_eq!(normal, DVec2::Y);
            assert!((points[0] - v2(0.5, 0.0)).length() < 1e-15);
        }
        o => panic!("{o:?}"),
    }
    // Hit exactly at h.
    let p = Kinematic2::new(v2(0.5, 1.0), v2(0.0, -1.0));
    assert_eq!(vertex_edge_toi(&p, &a, &b, 1.0).unwrap().toi(), Some(1.0));
    // Zero relative velocity: no hit, no division by zero.
    let w = v2(0.3, -0.7);
    let (a2, b2) = (
        Kinematic2::new(a.position, w),
        Kinematic2::new(b.position, w),
    );
    let p = Kinematic2::new(v2(0.5, 1.0), w);
    assert_eq!(
        vertex_edge_toi(&p, &a2, &b2, 1.0).unwrap(),
        TimeOfImpact::Separated
    );
    // Touching at the start.
    let p = Kinematic2::new(v2(0.5, 0.0), v2(0.0, -1.0));
    assert_eq!(
        vertex_edge_toi(&p, &a, &b, 1.0).unwrap(),
        TimeOfImpact::InitiallyOverlapping
    );
    // Grazing under constant acceleration: y = (1 − 2t)², exact double root at 0.5.
    let p = Kinematic2::with_acceleration(v2(1.0, 1.0), v2(0.0, -4.0), v2(0.0, 8.0));
    let b2 = Kinematic2::new(v2(2.0, 0.0), DVec2::ZERO);
    assert_eq!(vertex_edge_toi(&p, &a, &b2, 1.0).unwrap().toi(), Some(0.5));
    // Grazing under constant velocity: the edge turns while the vertex slides past its
    // middle; f(t) = 2 (t − ½)².
    let ea = Kinematic2::new(v2(-1.0, -0.5), v2(0.0, 1.0));
    let eb = Kinematic2::new(v2(1.0, 0.5), v2(0.0, -1.0));
    let p = Kinematic2::new(v2(-0.5, 0.0), v2(1.0, 0.0));
    assert_eq!(vertex_edge_toi(&p, &ea, &eb, 1.0).unwrap().toi(), Some(0.5));
    // Near miss of the graze by 1e-9: separated.
    let p = Kinematic2::new(v2(-0.5, 1e-9), v2(1.0, 0.0));
    assert_eq!(
        vertex_edge_toi(&p, &ea, &eb, 1.0).unwrap(),
        TimeOfImpact::Separated
    );
    // Collinear sliding (f ≡ 0): enters the segment at t = 1.
    let p = Kinematic2::new(v2(-1.0, 0.0), v2(1.0, 0.0));
    assert_eq!(vertex_edge_toi(&p, &a, &b, 2.0).unwrap().toi(), Some(1.0));
    // Passing beyond the end point: separated.
    let p = Kinematic2::new(v2(1.5, 1.0), v2(0.0, -2.0));
    assert_eq!(
        vertex_edge_toi(&p, &a, &b, 1.0).unwrap(),
        TimeOfImpact::Separated
    );
    // Degenerate edge (both ends the same point) hit by the vertex.
    let p = Kinematic2::new(v2(0.0, 1.0), v2(0.0, -1.0));
    assert_eq!(vertex_edge_toi(&p, &a, &a, 2.0).unwrap().toi(), Some(1.0));
    // Bad input.
    let bad = Kinematic2::new(v2(f64::NAN, 0.0), DVec2::ZERO);
    let e = vertex_edge_toi(&bad, &a, &b, 1.0).unwrap_err();
    assert_eq!(e.field, "vertex.position[0]");
    assert!(vertex_edge_toi(&p, &a, &b, -1.0).is_err());
    // Huge coordinates do not overflow.
    let s = 1e59;
    let p = Kinematic2::new(v2(0.5, 1.0) * s, v2(0.0, -2.0) * s);
    let (a3, b3) = (
        Kinematic2::new(DVec2::ZERO, DVec2::ZERO),
        Kinematic2::new(v2(s, 0.0), DVec2::ZERO),
    );
    assert_eq!(vertex_edge_toi(&p, &a3, &b3, 1.0).unwrap().toi(), Some(0.5));
}

fn random_vertex_edge_campaign(accel: bool, seed: u64, cases: usize) -> (f64, usize) {
    let mut r = rng(seed);
    let mut worst: f64 = 0.0;
    let mut hits = 0;
    for _ in 0..cases {
        let a = kin(&mut r, accel);
        let b = kin(&mut r, accel);
        let mut p = kin(&mut r, accel);
        let h: f64 = r.gen_range(0.1..2.0);
        if r.gen_bool(0.7) {
            // Force a crossing at t* inside the segment.
            let ts = r.gen_range(0.0..h);
            let u = r.gen_range(0.05..0.95);
            let target = a.at(ts) + (b.at(ts) - a.at(ts)) * u;
            p.position = target - p.velocity * ts - p.acceleration * (0.5 * ts * ts);
        }
        let got = vertex_edge_toi(&p, &a, &b, h).unwrap();
        let want = reference(&p, &a, &b, h);
        match (got, want) {
            (TimeOfImpact::Hit { toi, .. }, Some((t, _))) => {
                hits += 1;
                worst = worst.max((toi - t).abs() / h);
            }
            (TimeOfImpact::Separated, None) => {}
            (TimeOfImpact::InitiallyOverlapping, Some((0.0, _))) => {}
            (g, Some((t, margin))) if margin.abs() < 1e-9 => {
                // The vertex meets the line at an end point of the segment: ambiguous.
                let _ = (g, t);
            }
            (g, w) => panic!("ours {g:?} reference {w:?} for {p:?} {a:?} {b:?} h {h}"),
        }
    }
    (worst, hits)
}

#[test]
fn quadratic_toi_matches_double_double_reference() {
    let (worst, hits) = random_vertex_edge_campaign(false, 0x0a_d2, 3000);
    eprintln!("quadratic: {hits} hits, worst |Δt|/h {worst:e}");
    assert!(hits > 1500);
    assert!(worst < 1e-9, "{worst}");
}

#[test]
fn quartic_toi_matches_double_double_reference() {
    let (worst, hits) = random_vertex_edge_campaign(true, 0x0a_d4, 3000);
    eprintln!("quartic: {hits} hits, worst |Δt|/h {worst:e}");
    assert!(hits > 1500);
    assert!(worst < 1e-9, "{worst}");
}

// ------------------------------------------------------------------------------------------
// Swept GJK and conservative advancement
// ------------------------------------------------------------------------------------------

fn polygon<R: Rng>(r: &mut R) -> ConvexPolygon {
    let n = r.gen_range(3..=7);
    let mut ang: Vec<f64> = (0..n)
        .map(|_| r.gen_range(0.0..std::f64::consts::TAU))
        .collect();
    ang.sort_by(f64::total_cmp);
    let rad = r.gen_range(0.3..1.0);
    let v: Vec<DVec2> = ang.iter().map(|a| v2(a.cos(), a.sin()) * rad).collect();
    ConvexPolygon::new(&v).unwrap()
}

/// Exact TOI of two translating polygons: the first vertex–edge contact over all pairs.
fn polygon_reference(
    a: &ConvexPolygon,
    pa: &Pose2,
    va: DVec2,
    b: &ConvexPolygon,
    pb: &Pose2,
    vb: DVec2,
    h: f64,
) -> Option<f64> {
    let wa: Vec<DVec2> = a
        .vertices()
        .iter()
        .map(|p| pa.transform_point(*p))
        .collect();
    let wb: Vec<DVec2> = b
        .vertices()
        .iter()
        .map(|p| pb.transform_point(*p))
        .collect();
    let mut best: Option<f64> = None;
    for (verts, vv, edges, ve) in [(&wa, va, &wb, vb), (&wb, vb, &wa, va)] {
        for p in verts.iter() {
            for i in 0..edges.len() {
                let e0 = Kinematic2::new(edges[i], ve);
                let e1 = Kinematic2::new(edges[(i + 1) % edges.len()], ve);
                let k = Kinematic2::new(*p, vv);
                if let Ok(TimeOfImpact::Hit { toi, .. }) = vertex_edge_toi(&k, &e0, &e1, h) {
                    best = Some(best.map_or(toi, |b: f64| b.min(toi)));
                }
            }
        }
    }
    best
}

#[test]
fn swept_toi_matches_vertex_edge_reference_for_translating_polygons() {
    let mut r = rng(0x5e_e7);
    let (mut hits, mut worst) = (0, 0.0f64);
    for _ in 0..600 {
        let a = polygon(&mut r);
        let b = polygon(&mut r);
        let pa = Pose2::from_angle([0.0, 0.0], r.gen_range(-3.0..3.0)).unwrap();
        let pb = Pose2::from_angle(
            [r.gen_range(2.2..4.0), r.gen_range(-1.5..1.5)],
            r.gen_range(-3.0..3.0),
        )
        .unwrap();
        let va = v2(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0));
        let vb = v2(r.gen_range(-4.0..0.0), r.gen_range(-1.0..1.0));
        let h = 1.0;
        if sat(&a, &pa, &b, &pb, None).verdict.intersecting() != Some(false) {
            continue;
        }
        let got = swept_toi(&a, &pa, va, &b, &pb, vb, h, &SweptOptions::default()).unwrap();
        let want = polygon_reference(&a, &pa, va, &b, &pb, vb, h);
        let ca = conservative_advancement(
            &a,
            &Motion::translating(pa, va),
            &b,
            &Motion::translating(pb, vb),
            h,
            &AdvancementOptions::default(),
        )
        .unwrap();
        assert_eq!(got.status(), ca.status(), "{got:?} {ca:?}");
        match (got, want) {
            (
                TimeOfImpact::Hit {
                    toi,
                    normal,
                    points,
                },
                Some(t),
            ) => {
                hits += 1;
                let closing = -normal.dot(vb - va);
                // Early by at most tolerance / closing speed, never late.
                let tol = 1e-9 * (a.size() + b.size());
                assert!(
                    toi <= t + 1e-12 && t - toi <= tol / closing * 1.01 + 1e-12,
                    "{toi} vs {t}"
                );
                worst = worst.max(t - toi);
                assert!((points[0] - points[1]).length() < 1e-8);
                assert!((ca.toi().unwrap() - toi).abs() < 1e-9);
            }
            (TimeOfImpact::Separated, None) => {}
            (g, w) => panic!("{g:?} vs {w:?}"),
        }
    }
    eprintln!("swept 2D: {hits} hits, worst lag {worst:e}");
    assert!(hits > 100, "{hits}");
}

fn hull3<R: Rng>(r: &mut R) -> (Points<DVec3>, parry3d_f64::shape::ConvexPolyhedron) {
    loop {
        let n = r.gen_range(6..=24);
        let rad = r.gen_range(0.3..1.0);
        let pts = sphere_points(r, n, rad);
        if let Some(ph) = parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&pts) {
            return (Points::new(&pts).unwrap(), ph);
        }
    }
}

fn parry_pose(p: &Pose3) -> parry3d_f64::math::Pose {
    parry3d_f64::math::Pose::from_parts(p.translation(), p.rotation())
}

#[test]
fn swept_toi_agrees_with_parry_and_advancement_on_3d_hulls() {
    use parry3d_f64::query::{cast_shapes, ShapeCastOptions};
    let mut r = rng(0x3d_70);
    let (mut hits, mut sep, mut over) = (0, 0, 0);
    let mut worst: f64 = 0.0;
    for _ in 0..400 {
        let (a, ha) = hull3(&mut r);
        let (b, hb) = hull3(&mut r);
        let pa = Pose3::new(DVec3::ZERO, random_quat(&mut r)).unwrap();
        let dir = DVec3::new(
            r.gen_range(1.0..3.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let pb = Pose3::new(dir, random_quat(&mut r)).unwrap();
        let va = DVec3::new(r.gen_range(-0.5..1.0), r.gen_range(-0.5..0.5), 0.0);
        let vb = -dir * r.gen_range(0.0..1.5)
            + DVec3::new(0.0, r.gen_range(-0.5..0.5), r.gen_range(-0.5..0.5));
        let h = 1.0;
        let got = swept_toi(&a, &pa, va, &b, &pb, vb, h, &SweptOptions::default()).unwrap();
        let ca = conservative_advancement(
            &a,
            &Motion::translating(pa, va),
            &b,
            &Motion::translating(pb, vb),
            h,
            &AdvancementOptions::default(),
        )
        .unwrap();
        assert_eq!(got.status(), ca.status(), "{got:?} {ca:?}");
        let boolean =
            swept_intersects(&a, &pa, va, &b, &pb, vb, h, &gjk::Options::default()).unwrap();
        let swept_b = Swept::new(&b, pb.inverse_transform_vector((vb - va) * h));
        verify(
            &a,
            &pa,
            &swept_b,
            &pb,
            &boolean.verdict,
            boolean.tolerance * 10.0,
        )
        .unwrap();
        let parry = cast_shapes(
            &parry_pose(&pa),
            va,
            &ha,
            &parry_pose(&pb),
            vb,
            &hb,
            ShapeCastOptions::with_max_time_of_impact(h),
        )
        .unwrap();
        match got {
            TimeOfImpact::Hit { toi, .. } => {
                hits += 1;
                assert_eq!(boolean.intersecting(), Some(true));
                let p = parry.expect("parry finds the hit").time_of_impact;
                worst = worst.max((p - toi).abs());
                assert!((p - toi).abs() < 1e-6, "ours {toi} parry {p}");
                assert!((ca.toi().unwrap() - toi).abs() < 1e-9);
            }
            TimeOfImpact::Separated => {
                sep += 1;
                assert_eq!(boolean.intersecting(), Some(false));
                assert!(parry.is_none(), "{parry:?}");
            }
            TimeOfImpact::InitiallyOverlapping => {
                over += 1;
                assert_eq!(boolean.intersecting(), Some(true));
                assert_eq!(parry.map(|p| p.time_of_impact), Some(0.0));
            }
            TimeOfImpact::IterationLimit { .. } => panic!("iteration limit"),
        }
    }
    eprintln!(
        "swept 3D: {hits} hits, {sep} separated, {over} overlapping; worst |Δt| vs parry {worst:e}"
    );
    assert!(hits > 80 && sep > 40, "{hits} {sep}");
}

#[test]
fn rotating_boxes_never_pass_through_before_the_reported_time() {
    let mut r = rng(0x70_7a);
    let a = ConvexPolygon::new(&rect_corners(v2(1.0, 0.2))).unwrap();
    let b = ConvexPolygon::new(&rect_corners(v2(0.3, 0.3))).unwrap();
    let (mut hits, mut seps) = (0, 0);
    for _ in 0..150 {
        let ma = Motion::new(
            Pose2::from_angle([0.0, 0.0], r.gen_range(-3.0..3.0)).unwrap(),
            v2(r.gen_range(-0.5..0.5), 0.0),
            r.gen_range(-6.0..6.0),
        );
        let mb = Motion::new(
            Pose2::from_angle([r.gen_range(1.6..2.5), r.gen_range(-1.0..1.0)], 0.3).unwrap(),
            v2(r.gen_range(-3.0..0.0), r.gen_range(-1.0..1.0)),
            r.gen_range(-6.0..6.0),
        );
        if sat(&a, &ma.pose, &b, &mb.pose, None).verdict.intersecting() != Some(false) {
            continue;
        }
        let h = 1.0;
        let res =
            conservative_advancement(&a, &ma, &b, &mb, h, &AdvancementOptions::default()).unwrap();
        let end = match res {
            TimeOfImpact::Hit { toi, .. } => {
                hits += 1;
                let s = sat(
                    &a,
                    &ma.pose_at(toi).unwrap(),
                    &b,
                    &mb.pose_at(toi).unwrap(),
                    None,
                );
                assert!(
                    s.separation.abs() <= 1e-7,
                    "separation at toi {}",
                    s.separation
                );
                toi
            }
            TimeOfImpact::Separated => {
                seps += 1;
                h
            }
            o => panic!("{o:?}"),
        };
        for k in 0..400 {
            let t = end * k as f64 / 400.0;
            let s = sat(
                &a,
                &ma.pose_at(t).unwrap(),
                &b,
                &mb.pose_at(t).unwrap(),
                None,
            );
            assert!(
                s.separation > -1e-12,
                "overlap {} at t = {t} before {end}",
                s.separation
            );
        }
    }
    eprintln!("rotating boxes: {hits} hits, {seps} separated");
    assert!(hits > 30 && seps > 10);
}

#[test]
fn advancement_statuses() {
    let a = ConvexPolygon::new(&rect_corners(v2(1.0, 0.2))).unwrap();
    let still = Motion::translating(Pose2::IDENTITY, DVec2::ZERO);
    // Initially overlapping.
    let m = Motion::translating(Pose2::from_angle([0.5, 0.0], 0.0).unwrap(), DVec2::ZERO);
    let o = AdvancementOptions::default();
    assert_eq!(
        conservative_advancement(&a, &still, &a, &m, 1.0, &o).unwrap(),
        TimeOfImpact::InitiallyOverlapping
    );
    // Moving apart: separated at once.
    let m = Motion::translating(Pose2::from_angle([3.0, 0.0], 0.0).unwrap(), v2(1.0, 0.0));
    assert_eq!(
        conservative_advancement(&a, &still, &a, &m, 1.0, &o).unwrap(),
        TimeOfImpact::Separated
    );
    // Spinning toward contact with a tiny cap: iteration limit, with the proved-free time.
    let m = Motion::new(
        Pose2::from_angle([2.5, 0.0], 0.0).unwrap(),
        v2(-0.2, 0.0),
        8.0,
    );
    let capped = AdvancementOptions {
        max_iterations: 2,
        ..o
    };
    match conservative_advancement(&a, &still, &a, &m, 1.0, &capped).unwrap() {
        TimeOfImpact::IterationLimit { reached } => assert!(reached > 0.0 && reached < 1.0),
        x => panic!("{x:?}"),
    }
    // Same geometry through the swept path and the advancement path: same status.
    let b = Motion::translating(Pose2::from_angle([2.5, 0.0], 0.0).unwrap(), v2(-1.0, 0.0));
    let s = swept_toi(
        &a,
        &still.pose,
        DVec2::ZERO,
        &a,
        &b.pose,
        b.linear,
        1.0,
        &SweptOptions::default(),
    )
    .unwrap();
    let c = conservative_advancement(&a, &still, &a, &b, 1.0, &o).unwrap();
    assert_eq!(s.status(), c.status());
    assert!((s.toi().unwrap() - 0.5).abs() < 1e-9);
    // Contact exactly at h.
    let s = swept_toi(
        &a,
        &still.pose,
        DVec2::ZERO,
        &a,
        &b.pose,
        b.linear,
        0.5,
        &SweptOptions::default(),
    )
    .unwrap();
    assert!((s.toi().unwrap() - 0.5).abs() < 1e-9, "{s:?}");
    // Bad input.
    let e = swept_toi(
        &a,
        &still.pose,
        v2(f64::NAN, 0.0),
        &a,
        &b.pose,
        b.linear,
        1.0,
        &SweptOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.field, "vel_a[0]");
    // 3D spin.
    let c3 = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let m3 = Motion::new(
        Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap(),
        DVec3::new(-2.0, 0.0, 0.0),
        DVec3::new(0.0, 0.0, 3.0),
    );
    let s3 = Motion::translating(Pose3::IDENTITY, DVec3::ZERO);
    let res = conservative_advancement(&c3, &s3, &c3, &m3, 1.0, &o).unwrap();
    let toi = res.toi().expect("hit");
    let g = gjk::distance(
        &c3,
        &s3.pose,
        &c3,
        &m3.pose_at(toi).unwrap(),
        &gjk::Options::default(),
        None,
    );
    assert!(g.distance < 1e-8);
    for k in 0..200 {
        let t = toi * k as f64 / 200.0;
        let g = gjk::distance(
            &c3,
            &s3.pose,
            &c3,
            &m3.pose_at(t).unwrap(),
            &gjk::Options::default(),
            None,
        );
        assert!(g.intersecting() == Some(false) || t > toi - 1e-9, "t {t}");
    }
}

#[test]
fn swept_toi_at_offset_1e6_and_size_ratio_1e4() {
    let mut r = rng(0x0ff_5e7);
    let mut hits = 0;
    let mut worst: f64 = 0.0;
    for case in 0..300 {
        let a = polygon(&mut r);
        let small = case % 2 == 0;
        let b = if small {
            let v: Vec<DVec2> = polygon(&mut r)
                .vertices()
                .iter()
                .map(|p| *p * 1e-4)
                .collect();
            ConvexPolygon::new(&v).unwrap()
        } else {
            polygon(&mut r)
        };
        let ta = v2(0.0, 0.0);
        let tb = v2(r.gen_range(1.2..3.0), r.gen_range(-0.8..0.8));
        let (ra, rb) = (r.gen_range(-3.0..3.0), r.gen_range(-3.0..3.0));
        let va = v2(r.gen_range(-0.5..0.5), 0.0);
        let vb = v2(r.gen_range(-4.0..0.0), r.gen_range(-0.5..0.5));
        let off = v2(1e6, -1e6);
        let at = |t: DVec2, ang: f64, o: DVec2| Pose2::from_angle((t + o).to_array(), ang).unwrap();
        let (pa0, pb0) = (at(ta, ra, DVec2::ZERO), at(tb, rb, DVec2::ZERO));
        let (pa1, pb1) = (at(ta, ra, off), at(tb, rb, off));
        let o = SweptOptions::default();
        let near = swept_toi(&a, &pa0, va, &b, &pb0, vb, 1.0, &o).unwrap();
        let far = swept_toi(&a, &pa1, va, &b, &pb1, vb, 1.0, &o).unwrap();
        let want = polygon_reference(&a, &pa0, va, &b, &pb0, vb, 1.0);
        assert_eq!(near.status(), far.status(), "{near:?} {far:?}");
        match (near.toi(), far.toi(), want) {
            (Some(x), Some(y), Some(w)) => {
                hits += 1;
                worst = worst.max((x - y).abs());
                // The offset costs the rounding of the translations (≈1e-10 at 1e6).
                assert!((x - y).abs() < 1e-8, "{x} vs {y}");
                assert!((x - w).abs() < 1e-8, "{x} vs reference {w}");
            }
            (None, None, None) => {}
            (None, None, Some(_)) if near == TimeOfImpact::InitiallyOverlapping => {}
            o => panic!("{o:?} {near:?}"),
        }
    }
    eprintln!("offset 1e6 / ratio 1e4: {hits} hits, worst |Δt| near vs far {worst:e}");
    assert!(hits > 50, "{hits}");
}

// ---- issue 14: independent oracles (analytic times, dense sampling) -----------------------

/// First time in [0, h] at which |c0 + v t| = r (moving balls of radii summing to r), if any.
fn ball_time(c0: &[f64], v: &[f64], r: f64, h: f64) -> Option<f64> {
    let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>();
    let (a, b, c) = (dot(v, v), 2.0 * dot(c0, v), dot(c0, c0) - r * r);
    let disc = b * b - 4.0 * a * c;
    if a == 0.0 || disc < 0.0 {
        return None;
    }
    // The smaller root, in the cancellation-free form.
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let t = (q / a).min(c / q);
    (0.0..=h).contains(&t).then_some(t)
}

/// First time in [0, h] at which axis-aligned boxes of summed half-extents `e` (centre offset
/// `c0`, B's centre minus A's, relative velocity `v` of B) touch: the slab entry time.
fn box_time(c0: &[f64], v: &[f64], e: &[f64], h: f64) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, h);
    for k in 0..c0.len() {
        if v[k] == 0.0 {
            if c0[k].abs() > e[k] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-e[k] - c0[k]) / v[k], (e[k] - c0[k]) / v[k]);
        enter = enter.max(t1.min(t2));
        exit = exit.min(t1.max(t2));
    }
    (enter <= exit).then_some(enter)
}

/// Compares swept TOI and conservative advancement with an analytic time: A moves with `vel`,
/// B is static. Never late (at the returned time the GJK distance is ≥ −tolerance, and the
/// time is at most the analytic one plus tolerance / speed); never early by more than
/// 2 · tolerance in distance (advancement stops within its tolerance of contact). Returns the
/// largest distance at the returned time, in tolerances.
fn check_analytic<V, A, B>(
    a: &A,
    pa: Pose<V>,
    vel: V,
    b: &B,
    pb: Pose<V>,
    exact: Option<f64>,
) -> f64
where
    V: Vector + Spin,
    A: SupportMap<V>,
    B: SupportMap<V>,
{
    let h = 1.0;
    let tol = 1e-9 * (a.size() + b.size());
    let speed = vel.length();
    let swept = swept_toi(a, &pa, vel, b, &pb, V::ZERO, h, &SweptOptions::default()).unwrap();
    let ma = Motion::translating(pa, vel);
    let mb = Motion::translating(pb, V::ZERO);
    let adv = conservative_advancement(a, &ma, b, &mb, h, &AdvancementOptions::default()).unwrap();
    let mut worst = 0.0f64;
    for (name, r) in [("swept", swept), ("advancement", adv)] {
        match (r, exact) {
            (TimeOfImpact::Hit { toi, .. }, Some(t)) => {
                let at = ma.pose_at(toi).unwrap();
                let d = convexity::gjk::distance(a, &at, b, &pb, &Default::default(), None);
                let gjk_tol = d.tolerance.max(tol);
                assert!(
                    d.distance >= -gjk_tol,
                    "{name}: overlap {} at {toi}",
                    d.distance
                );
                assert!(toi <= t + gjk_tol / speed, "{name} late: {toi} > {t}");
                // Not early: at the returned time the shapes are within 2 tolerances of
                // touching (a bound in distance; in time it is 2 · tol over the closing speed
                // along the contact normal, which can be far below |vel| for glancing hits).
                assert!(
                    d.distance <= 2.0 * gjk_tol,
                    "{name} early: {toi} < {t}, speed {speed}, tol {gjk_tol:e}, distance {:e}",
                    d.distance
                );
                worst = worst.max(d.distance / gjk_tol);
            }
            (TimeOfImpact::Separated, None) => {}
            // A graze within the tolerance may go either way.
            (TimeOfImpact::Hit { toi, .. }, None) => {
                let at = ma.pose_at(toi).unwrap();
                let d = convexity::gjk::distance(a, &at, b, &pb, &Default::default(), None);
                assert!(
                    d.distance <= 2.0 * d.tolerance.max(tol),
                    "{name}: spurious hit {r:?}"
                );
            }
            (r, Some(t)) => panic!("{name}: {r:?}, analytic hit at {t}"),
            (r, None) => panic!("{name}: {r:?}"),
        }
    }
    worst
}

#[test]
fn swept_and_advancement_match_analytic_times_for_balls_and_boxes() {
    let mut r = rng(0xa11);
    let (mut hits, mut worst) = (0, 0.0f64);
    for i in 0..200 {
        let off = [0.0, 1e3, 1e6][i % 3];
        // 3D balls.
        let (ra, rb) = (r.gen_range(0.1..0.9), r.gen_range(0.1..0.9));
        let c0 = DVec3::new(
            r.gen_range(2.0..6.0),
            r.gen_range(-2.0..2.0),
            r.gen_range(-2.0..2.0),
        ) * if i % 2 == 0 { 1.0 } else { -1.0 };
        let vel = c0 * r.gen_range(0.3..2.0)
            + DVec3::new(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0), 0.0);
        let pa = Pose3::from_translation(DVec3::splat(off)).unwrap();
        let pb = Pose3::from_translation(DVec3::splat(off) + c0).unwrap();
        // B relative to A moves with −vel.
        let t = ball_time(&c0.to_array(), &(-vel).to_array(), ra + rb, 1.0);
        hits += usize::from(t.is_some());
        worst = worst.max(check_analytic(
            &Ball::new(ra).unwrap(),
            pa,
            vel,
            &Ball::new(rb).unwrap(),
            pb,
            t,
        ));
        // 3D axis-aligned boxes.
        let (ea, eb) = (
            DVec3::new(0.5, 0.3, 0.8),
            DVec3::new(r.gen_range(0.1..1.0), 0.4, 0.2),
        );
        let t = box_time(
            &c0.to_array(),
            &(-vel).to_array(),
            &(ea + eb).to_array(),
            1.0,
        );
        hits += usize::from(t.is_some());
        worst = worst.max(check_analytic(
            &Cuboid::new(ea).unwrap(),
            pa,
            vel,
            &Cuboid::new(eb).unwrap(),
            pb,
            t,
        ));
        // 2D circles and rectangles.
        let c2 = v2(c0.x, c0.y);
        let v2d = v2(vel.x, vel.y);
        let pa2 = Pose2::from_angle([off, off], 0.0).unwrap();
        let pb2 = Pose2::from_angle([off + c2.x, off + c2.y], 0.0).unwrap();
        let t = ball_time(&c2.to_array(), &(-v2d).to_array(), ra + rb, 1.0);
        hits += usize::from(t.is_some());
        worst = worst.max(check_analytic(
            &Ball::new(ra).unwrap(),
            pa2,
            v2d,
            &Ball::new(rb).unwrap(),
            pb2,
            t,
        ));
        let (fa, fb) = (v2(0.5, 0.3), v2(eb.x, 0.4));
        let t = box_time(
            &c2.to_array(),
            &(-v2d).to_array(),
            &(fa + fb).to_array(),
            1.0,
        );
        hits += usize::from(t.is_some());
        worst = worst.max(check_analytic(
            &Cuboid::new(fa).unwrap(),
            pa2,
            v2d,
            &Cuboid::new(fb).unwrap(),
            pb2,
            t,
        ));
    }
    eprintln!("analytic TOI: {hits} hits of 800, worst distance at toi = {worst:.3} tolerances");
    assert!(hits > 300, "{hits}");
}

/// Rotating 3D cubes: the motion sampled at N = 2000 steps; the first sampled step k with
/// GJK distance ≤ 0 brackets first contact in (t_{k−1}, t_k]. Advancement's time lies at or
/// before t_k (never past a sampled overlap) and at it the distance is ≥ −tolerance; when no
/// sample overlaps, a hit must still be at distance ≤ tolerance (a contact between samples).
#[test]
fn advancement_on_rotating_cubes_lies_in_the_dense_sampling_bracket() {
    let mut r = rng(0xb7ac);
    let a = Cuboid::new(DVec3::new(1.0, 0.2, 0.3)).unwrap();
    let b = Cuboid::new(DVec3::splat(0.3)).unwrap();
    let n = 2000;
    let (mut bracketed, mut misses) = (0, 0);
    let dist = |pa: &Pose3, pb: &Pose3| {
        convexity::gjk::distance(&a, pa, &b, pb, &Default::default(), None)
    };
    for _ in 0..60 {
        let ma = Motion::new(
            Pose3::new(DVec3::ZERO, random_quat(&mut r)).unwrap(),
            DVec3::new(r.gen_range(-0.5..0.5), 0.0, 0.0),
            DVec3::new(
                r.gen_range(-6.0..6.0),
                r.gen_range(-6.0..6.0),
                r.gen_range(-6.0..6.0),
            ),
        );
        let mb = Motion::new(
            Pose3::new(
                DVec3::new(r.gen_range(1.6..2.5), r.gen_range(-1.0..1.0), 0.0),
                random_quat(&mut r),
            )
            .unwrap(),
            DVec3::new(
                r.gen_range(-3.0..0.0),
                r.gen_range(-1.0..1.0),
                r.gen_range(-0.5..0.5),
            ),
            DVec3::new(r.gen_range(-6.0..6.0), 0.0, r.gen_range(-6.0..6.0)),
        );
        if dist(&ma.pose, &mb.pose).distance <= 0.0 {
            continue;
        }
        let h = 1.0;
        let first = (1..=n)
            .map(|k| h * k as f64 / n as f64)
            .find(|&t| dist(&ma.pose_at(t).unwrap(), &mb.pose_at(t).unwrap()).distance <= 0.0);
        let res =
            conservative_advancement(&a, &ma, &b, &mb, h, &AdvancementOptions::default()).unwrap();
        let tol = 1e-9 * (a.size() + b.size());
        match (res, first) {
            (TimeOfImpact::Hit { toi, .. }, Some(tk)) => {
                assert!(toi <= tk, "late: toi {toi} after sampled overlap at {tk}");
                let d = dist(&ma.pose_at(toi).unwrap(), &mb.pose_at(toi).unwrap());
                assert!(
                    d.distance >= -d.tolerance.max(tol),
                    "overlap {} at {toi}",
                    d.distance
                );
                assert!(
                    d.distance <= 2.0 * d.tolerance.max(tol),
                    "not in contact at {toi}: {}",
                    d.distance
                );
                bracketed += usize::from(toi > tk - h / n as f64);
            }
            (TimeOfImpact::Hit { toi, .. }, None) => {
                let d = dist(&ma.pose_at(toi).unwrap(), &mb.pose_at(toi).unwrap());
                assert!(
                    d.distance.abs() <= 2.0 * d.tolerance.max(tol),
                    "hit at {toi}, distance {}",
                    d.distance
                );
                misses += 1;
            }
            (TimeOfImpact::Separated, None) => {}
            (o, Some(tk)) => panic!("{o:?} but sampled overlap at {tk}"),
            (o, None) => panic!("{o:?}"),
        }
    }
    eprintln!(
        "rotating cubes: {bracketed} in the sampling bracket, {misses} contacts between samples"
    );
    assert!(bracketed > 10, "{bracketed}");
}
