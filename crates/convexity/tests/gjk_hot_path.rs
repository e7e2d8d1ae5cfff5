//! The GJK hot path: the point-set support scans against a brute force, the
//! boolean query's verdict (decided without the distance summary) against the distance
//! query's, and the fast simplex solves against GJK's own certificates on random and
//! touching pairs.

use convexity::gjk;
use convexity::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn unit(rng: &mut ChaCha8Rng) -> DVec3 {
    loop {
        let v = DVec3::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        if v.length() > 0.1 && v.length() <= 1.0 {
            return v.normalize();
        }
    }
}

fn pose(rng: &mut ChaCha8Rng, t: DVec3) -> Pose3 {
    let q = DQuat::from_axis_angle(unit(rng), rng.gen_range(0.0..6.3));
    Pose3::new(t, q).unwrap()
}

/// Every set size across the scan switch (plain scan up to 64 points, lanes beyond), with
/// duplicates and ties (cube corners against axis and diagonal directions) and degenerate
/// directions: the support point is a maximiser found by an independent brute force (the
/// plain scan's first maximum, bit for bit, up to 64 points).
#[test]
fn point_set_support_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for n in (1..=20).chain([63, 64, 65, 100]) {
        for _ in 0..100 {
            let mut pts: Vec<DVec3> = (0..n).map(|_| unit(&mut rng)).collect();
            if n > 2 && rng.gen_bool(0.3) {
                pts[n - 1] = pts[0];
            }
            let p = Points::new(&pts).unwrap();
            for d in [unit(&mut rng), DVec3::X, DVec3::ZERO] {
                let mut first = 0;
                for (i, q) in pts.iter().enumerate() {
                    if q.dot(d) > pts[first].dot(d) {
                        first = i;
                    }
                }
                let got = p.core_support(d);
                assert_eq!(got.dot(d), pts[first].dot(d), "n {n}, d {d:?}");
                if n <= 64 {
                    assert_eq!(got, pts[first], "n {n}, d {d:?}");
                }
            }
            assert!(p.core_support(DVec3::NAN).is_finite());
        }
    }
    let mut corners = Vec::new();
    for k in 0..8 {
        corners.push(DVec3::new(
            if k & 1 == 0 { -1.0 } else { 1.0 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        ));
    }
    let p = Points::new(&corners).unwrap();
    for d in [DVec3::X, DVec3::NEG_Y, DVec3::Z, DVec3::new(1.0, 1.0, 0.0)] {
        assert_eq!(p.core_support(d), corners[p.support_index_aos(d)], "{d:?}");
    }
}

/// The boolean query decides the same verdict as the distance query on random pairs of small
/// hulls and boxes, and on pairs moved to touch (distance zero) and a few tolerances apart.
#[test]
fn boolean_verdict_matches_distance_verdict() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let o = gjk::Options::default();
    let mut both = [0usize; 2];
    for k in 0..3000 {
        let a = Points::new(&(0..8).map(|_| unit(&mut rng)).collect::<Vec<_>>()).unwrap();
        let b = Cuboid::new(DVec3::new(0.3, 0.5, 0.7)).unwrap();
        let pa = pose(&mut rng, DVec3::ZERO);
        let t = unit(&mut rng) * rng.gen_range(0.0..2.5);
        let mut pb = pose(&mut rng, t);
        let d = gjk::distance(&a, &pa, &b, &pb, &o, None);
        if k % 3 == 0 && d.distance > 0.0 {
            // Move B along the normal to touching, or to 4 tolerances apart.
            let shift = if k % 2 == 0 { 0.0 } else { 4.0 * d.tolerance };
            pb = Pose3::new(
                pb.translation() - d.normal * (d.distance - shift),
                pb.rotation(),
            )
            .unwrap();
        }
        let d = gjk::distance(&a, &pa, &b, &pb, &o, None);
        let i = gjk::intersects(&a, &pa, &b, &pb, &o, None);
        if let (Some(x), Some(y)) = (d.intersecting(), i.intersecting()) {
            assert_eq!(x, y, "{d:?} / {i:?}");
            both[x as usize] += 1;
        }
        for v in [&d.verdict, &i.verdict] {
            if !matches!(v, Verdict::Undetermined) {
                verify(&a, &pa, &b, &pb, v, d.tolerance.max(i.tolerance)).unwrap();
            }
        }
    }
    assert!(both[0] > 500 && both[1] > 500, "{both:?}");
}

// ---------------------------------------------------------------------------------------
// Regressions found by the `closed_forms` fuzz target (fuzz/fuzz_targets/closed_forms.rs)
// ---------------------------------------------------------------------------------------

/// A triangle against a segment 3e-10 long (GJK: no closed form for the pair). GJK's common
/// point lay 4.2e-9 outside the segment, ten times the verification tolerance.
#[test]
#[allow(clippy::approx_constant)] // the fuzz case's quaternion, bit for bit
fn fuzz_triangle_against_a_near_point_segment_common_point_verifies() {
    let tri = Triangle::new(
        DVec3::new(
            -0.28885591318444276,
            -0.003495380024648075,
            -0.1346007816048911,
        ),
        DVec3::new(
            -0.2860966346277849,
            -0.020306703371442286,
            -0.15678079709547016,
        ),
        DVec3::new(
            0.21520168845320753,
            -0.24355261445388407,
            -0.24355261445388407,
        ),
    )
    .unwrap();
    let seg = Segment::new(
        DVec3::new(
            -0.26038062283737023,
            -0.26038062283737023,
            -0.26038062283737023,
        ),
        DVec3::new(
            -0.26038062309775084,
            -0.26038062314614663,
            -0.26038062314619376,
        ),
    )
    .unwrap();
    let qa = DQuat::from_xyzw(
        -0.5188810191453844,
        -0.5191979172409004,
        -0.5191979172409004,
        -0.43775510669330814,
    );
    let pa = Pose3::new(DVec3::ZERO, qa.normalize()).unwrap();
    let qb = DQuat::from_xyzw(0.0, 0.7071067811865476, 0.0, -0.7071067811865475);
    let pb = Pose3::new(
        DVec3::new(
            -0.42051978852723215,
            0.11038047393283823,
            0.1885698009097534,
        ),
        qb.normalize(),
    )
    .unwrap();
    let opts = gjk::Options::default();
    let tol = gjk::certificate::tolerance_for(&tri, &pa, &seg, &pb);
    let d = gjk::distance(&tri, &pa, &seg, &pb, &opts, None);
    eprintln!("{d:?} tol {tol}");
    verify(&tri, &pa, &seg, &pb, &d.verdict, tol).unwrap();
    let i = gjk::intersects(&tri, &pa, &seg, &pb, &opts, None);
    eprintln!("{i:?}");
    verify(&tri, &pa, &seg, &pb, &i.verdict, tol).unwrap();
}

/// A segment against a capsule of radius 0 whose segment is 1.7e-10 long, touching.
/// `gjk::distance` answers in closed form; `epa::penetration` declines it (cores within a hair)
/// and runs GJK, whose last simplex is a sliver of the Minkowski difference with the origin's
/// projection a hair outside it: the weight −3.1e-8 of a vertex 0.2 from the origin, clamped
/// to 0 and renormalised, put the witnesses 1.1e-8 apart while the upper bound said 2.6e-11,
/// and the common point 5.8e-9 outside B (6.6e-9 with the sub-area weights before). The
/// robust triangle solve now answers from the edges opposite a negative weight.
#[test]
fn fuzz_segment_against_a_near_point_capsule_penetration_common_point_verifies() {
    let seg = Segment::new(
        DVec3::new(
            -0.1539826047150378,
            -0.41662088960097654,
            -0.1422392614633402,
        ),
        DVec3::new(
            0.23122682536049444,
            -0.6495635919737545,
            -0.41662088960097654,
        ),
    )
    .unwrap();
    let cap = Capsule::new(
        DVec3::new(
            -0.09845974832253354,
            -0.09124597737134901,
            -0.06052652370929465,
        ),
        DVec3::new(
            -0.09845974842235501,
            -0.09124597747117048,
            -0.06052652380911612,
        ),
        0.0,
    )
    .unwrap();
    let pa = Pose3::IDENTITY;
    let pb = Pose3::new(
        DVec3::new(
            0.09567218497659025,
            -0.4168051285537058,
            -0.1894077690232827,
        ),
        DQuat::IDENTITY,
    )
    .unwrap();
    let tol = gjk::certificate::tolerance_for(&seg, &pa, &cap, &pb);
    let d = gjk::distance(&seg, &pa, &cap, &pb, &gjk::Options::default(), None);
    verify(&seg, &pa, &cap, &pb, &d.verdict, tol).unwrap();
    let mut ctx = gjk::epa::Context::new();
    let p = gjk::epa::penetration(
        &seg,
        &pa,
        &cap,
        &pb,
        &gjk::epa::Options::default(),
        &mut ctx,
    );
    assert_eq!(p.verdict.intersecting(), Some(true), "{p:?}");
    verify(&seg, &pa, &cap, &pb, &p.verdict, tol).unwrap();
}

/// Regression (closed_forms fuzz target, 2026-11-26, pre-existing): a box 1.9e-7 thick at the
/// origin touching a triangle of size 150 about 200 away (size ratio 1e4, depth 9e-9). GJK's
/// final tetrahedron is a sliver whose barycentric weights lost digits, so the witnesses
/// `Σ λ a`, `Σ λ b` were 1.1e-6 apart at a reported distance 0 and the common point lay 4.7e-7
/// outside the box (checker tolerance 1.4e-7). The weights of an enclosing simplex are now
/// refined once (`Simplex::enclosing_witnesses`).
#[test]
fn fuzz_flat_box_against_a_far_large_triangle_common_point_verifies() {
    let a = Cuboid::new(DVec3::new(
        0.006220874341954681,
        0.006220874341954681,
        9.492445780048309e-8,
    ))
    .unwrap();
    let pa = Pose3::new(
        DVec3::ZERO,
        DQuat::from_xyzw(
            -0.8560430595669967,
            -0.06722498230818816,
            0.2651644588015857,
            -0.4385873820680451,
        ),
    )
    .unwrap();
    let b = Triangle::new(
        DVec3::new(41.582080973297195, 41.95742284096061, 41.95742284096061),
        DVec3::new(83.53950381425781, -54.35743649340203, -54.89756259564938),
        DVec3::new(125.49692665521842, -150.67229582776466, -151.75254803225937),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(135.14805931980993, -118.2994941437535, 134.14965455463124),
        DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5),
    )
    .unwrap();
    let d = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
    assert_eq!(d.verdict.intersecting(), Some(true));
    let t = gjk::certificate::tolerance_for(&a, &pa, &b, &pb);
    verify(&a, &pa, &b, &pb, &d.verdict, t).unwrap();
}
