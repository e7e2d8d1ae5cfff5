//! Zero-failure corpus: one test per class of failure reported against other collision
//! libraries, rebuilt from the facts in the reports (shapes, sizes, configurations), each
//! checked here against an analytic answer or an independent oracle, with every certificate
//! verified by `convexity::verify`.
//!
//! | test | report | the failure reported |
//! | --- | --- | --- |
//! | `parry_157_205_*` | parry #157, #205 | EPA loops on overlapping capsules and gives up with no contact |
//! | `parry_315_*` | parry #315 | touching boxes: both witness points at A's centre, normal along y |
//! | `coal_147_*` | coal #147 | EPA fails on boxes and leaves the result undefined (NaN) |
//! | `fcl_398_445_*` | FCL #398, #445 | EPA errors when the origin lies on or near a face of the simplex |
//! | `mujoco_3383_*` | MuJoCo #3383 | separated convex mesh pairs reported at distance exactly 0 |
//! | `jolt_2103_*` | Jolt #2103 | barely touching cylinder and capsule reported ~6 deep |
//! | `parry_317_*` | parry #317 | nonlinear shape cast misses rotating cuboids that collide |

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{self, epa, Options};
use convexity::toi::{conservative_advancement, AdvancementOptions, Motion, TimeOfImpact};
use convexity::{
    verify, Ball, Capsule, Cuboid, Cylinder, DQuat, DVec2, DVec3, Points, Pose, Pose2, Pose3,
    Segment, SupportMap, Vector, Verdict,
};
use convexity_testkit::analytic::segment_segment;
use convexity_testkit::gen3::{random_hull3, random_quat, unit_vector3};
use convexity_testkit::placement::place_at_distance;
use convexity_testkit::rng::case_rng;
use rand::Rng;

/// Runs EPA and checks the answer is finite, converged, intersecting with a verified
/// certificate, and returns the depth.
fn epa_checked<V, A, B>(a: &A, pa: &Pose<V>, b: &B, pb: &Pose<V>, what: &str) -> epa::Penetration<V>
where
    V: epa::EpaSpace + std::fmt::Debug,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut ctx = epa::Context::new();
    let p = epa::penetration(a, pa, b, pb, &epa::Options::default(), &mut ctx);
    assert!(p.depth.is_finite(), "{what}: {p:?}");
    assert!((p.normal.length() - 1.0).abs() < 1e-9, "{what}: {p:?}");
    let tol = tolerance_for(a, pa, b, pb);
    verify(a, pa, b, pb, &p.verdict, tol).unwrap_or_else(|e| panic!("{what}: {e:?} {p:?}"));
    p
}

/// Capsule–capsule penetration depth when the core segments do not cross: the Minkowski
/// difference is (segment difference) ⊕ ball(r1 + r2), so the depth is `r1 + r2 − d(segments)`.
fn capsule_depth<V: Vector>(a: (V, V, f64), b: (V, V, f64)) -> f64 {
    a.2 + b.2 - segment_segment(a.0, a.1, b.0, b.1).0
}

#[test]
fn parry_157_205_epa_on_overlapping_capsules_converges_to_the_analytic_depth() {
    // The reports: 2D capsules of size ~10 overlapping by ~9.4; EPA re-adds the same face
    // until its 10,000-iteration cap and returns no contact. Here: 2,000 overlapping capsule
    // pairs in 2D and in 3D at that scale (and smaller), depth against the closed form.
    let mut rng = case_rng(157, 0);
    let mut checked = 0;
    for case in 0..2000 {
        let scale = if case % 2 == 0 { 10.0 } else { 1.0 };
        let r1 = rng.gen_range(0.2..1.0) * scale;
        let r2 = rng.gen_range(0.2..1.0) * scale;
        let h1 = rng.gen_range(0.0..1.5) * scale;
        let h2 = rng.gen_range(0.0..1.5) * scale;
        // 2D: B's segment placed so that the segments stay apart but the capsules overlap.
        let ang = rng.gen_range(0.0..std::f64::consts::TAU);
        let gap = rng.gen_range(0.05..0.95) * (r1 + r2);
        let dir2 = DVec2::new(ang.cos(), ang.sin());
        let a2 = (DVec2::new(-h1, 0.0), DVec2::new(h1, 0.0), r1);
        let tang = rng.gen_range(-1.0..1.0);
        let c2 = dir2 * gap + DVec2::new(0.0, 0.0);
        let u2 = DVec2::new(tang, 1.0).normalize() * h2;
        let b2 = (c2 - u2, c2 + u2, r2);
        let sd = segment_segment(a2.0, a2.1, b2.0, b2.1).0;
        if sd > 1e-6 * scale && sd < r1 + r2 {
            let ca = Capsule::new(a2.0, a2.1, r1).unwrap();
            let cb = Capsule::new(b2.0, b2.1, r2).unwrap();
            let id = Pose2::IDENTITY;
            let p = epa_checked(&ca, &id, &cb, &id, &format!("2D case {case}"));
            let want = capsule_depth(a2, b2);
            assert!(
                p.status == convexity::Status::Converged,
                "2D case {case}: {p:?}"
            );
            assert!(
                (p.depth - want).abs() <= 1e-9 * scale,
                "2D case {case}: {} vs {want}",
                p.depth
            );
            checked += 1;
        }
        // 3D.
        let a3 = (DVec3::new(0.0, 0.0, -h1), DVec3::new(0.0, 0.0, h1), r1);
        let c3 = unit_vector3(&mut rng) * rng.gen_range(0.05..0.95) * (r1 + r2);
        let u3 = unit_vector3(&mut rng) * h2;
        let b3 = (c3 - u3, c3 + u3, r2);
        let sd = segment_segment(a3.0, a3.1, b3.0, b3.1).0;
        if sd > 1e-6 * scale && sd < r1 + r2 {
            let ca = Capsule::new(a3.0, a3.1, r1).unwrap();
            let cb = Capsule::new(b3.0, b3.1, r2).unwrap();
            let id = Pose3::IDENTITY;
            let p = epa_checked(&ca, &id, &cb, &id, &format!("3D case {case}"));
            let want = capsule_depth(a3, b3);
            assert!(
                (p.depth - want).abs() <= 1e-9 * scale,
                "3D case {case}: {} vs {want}",
                p.depth
            );
            checked += 1;
        }
    }
    assert!(checked > 2500, "{checked}");
}

#[test]
fn parry_315_touching_unit_cubes_have_witness_points_on_the_shared_face() {
    // The report: cubes of half extent 0.5 at (0.5, 0.5, 0.5) and (1.5, 0.5, 0.5) touch on
    // the plane x = 1; both witness points came back as A's centre and the normal along −y.
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let pa = Pose3::from_translation(DVec3::splat(0.5)).unwrap();
    let pb = Pose3::from_translation(DVec3::new(1.5, 0.5, 0.5)).unwrap();
    let p = epa_checked(&cube, &pa, &cube, &pb, "touching cubes");
    assert!(p.depth.abs() <= 1e-12, "{p:?}");
    assert!(
        (p.normal - DVec3::X).length() <= 1e-12,
        "normal A → B is +x: {p:?}"
    );
    for w in [p.point_a, p.point_b] {
        assert!(
            (w.x - 1.0).abs() <= 1e-12,
            "witness off the face x = 1: {p:?}"
        );
        assert!(
            (0.0..=1.0).contains(&w.y) && (0.0..=1.0).contains(&w.z),
            "{p:?}"
        );
    }
    assert!((p.point_a - p.point_b).length() <= 1e-12, "{p:?}");
    // GJK's distance agrees: 0, intersecting (closed sets), certificate verified.
    let d = gjk::distance(&cube, &pa, &cube, &pb, &Options::default(), None);
    assert!(
        d.distance <= 1e-12 && d.intersecting() == Some(true),
        "{d:?}"
    );
    let tol = tolerance_for(&cube, &pa, &cube, &pb);
    verify(&cube, &pa, &cube, &pb, &d.verdict, tol).unwrap();
    assert!(
        (d.point_a.x - 1.0).abs() <= 1e-12 && (d.point_b.x - 1.0).abs() <= 1e-12,
        "{d:?}"
    );
}

#[test]
fn coal_147_degenerate_and_box_box_inputs_never_give_nan_or_an_undefined_answer() {
    // The report: EPA failed on a pair of boxes and the result was left unset (the caller then
    // read garbage / NaN), and the collision flag was lost. Here: degenerate shapes and
    // overlapping boxes; every answer is finite, proved and verified.
    let id = Pose3::IDENTITY;
    let at = |x: f64, y: f64, z: f64| Pose3::from_translation(DVec3::new(x, y, z)).unwrap();
    let flat = Cuboid::new(DVec3::new(0.5, 0.5, 0.0)).unwrap();
    let point_box = Cuboid::new(DVec3::ZERO).unwrap();
    let dot = Points::new(&[DVec3::ZERO]).unwrap();
    let dup = Points::new(&[DVec3::X; 5]).unwrap();
    let seg = Segment::new(DVec3::ZERO, DVec3::X).unwrap();
    let ball0 = Ball::new(0.0).unwrap();
    let cap0 = Capsule::new(DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
    type Case<'a> = (
        &'a dyn SupportMap<DVec3>,
        Pose3,
        &'a dyn SupportMap<DVec3>,
        Pose3,
        Option<f64>,
    );
    let cases: Vec<Case> = vec![
        (&dot, id, &dot, id, Some(0.0)),
        (&dot, id, &dup, id, Some(1.0)),
        (&point_box, id, &point_box, at(0.0, 3.0, 4.0), Some(5.0)),
        (&flat, id, &flat, id, Some(0.0)),
        (&flat, id, &flat, at(0.0, 0.0, 1e-9), Some(1e-9)),
        (&flat, id, &flat, at(0.3, 0.2, 0.0), Some(0.0)),
        (&seg, id, &dot, at(0.5, 0.0, 0.0), Some(0.0)),
        (&seg, id, &seg, at(0.0, 0.0, 0.0), Some(0.0)),
        (&ball0, id, &cap0, at(0.0, 0.0, 2.0), Some(2.0)),
        (&cap0, id, &cap0, id, Some(0.0)),
    ];
    for (k, (a, pa, b, pb, want)) in cases.into_iter().enumerate() {
        let d = gjk::distance(a, &pa, b, &pb, &Options::default(), None);
        assert!(
            d.distance.is_finite() && d.point_a.is_finite() && d.normal.is_finite(),
            "{k}: {d:?}"
        );
        if let Some(w) = want {
            assert!(
                (d.distance - w).abs() <= 1e-12,
                "{k}: {} vs {w}",
                d.distance
            );
        }
        let tol = tolerance_for(a, &pa, b, &pb);
        verify(a, &pa, b, &pb, &d.verdict, tol).unwrap_or_else(|e| panic!("{k}: {e:?}"));
        let mut ctx = epa::Context::new();
        let p = epa::penetration(a, &pa, b, &pb, &epa::Options::default(), &mut ctx);
        assert!(
            p.depth.is_finite() && p.point_a.is_finite() && p.normal.is_finite(),
            "{k}: {p:?}"
        );
        verify(a, &pa, b, &pb, &p.verdict, tol).unwrap_or_else(|e| panic!("{k}: {e:?}"));
    }
    // Overlapping boxes at random poses (the report's setting): EPA's depth is the overlap
    // along its own normal (support values), within the tolerance; never NaN.
    let mut rng = case_rng(147, 0);
    for case in 0..2000 {
        let ha = DVec3::new(
            rng.gen_range(0.01..0.5),
            rng.gen_range(0.01..0.5),
            rng.gen_range(0.001..0.5),
        );
        let hb = DVec3::new(
            rng.gen_range(0.01..0.5),
            rng.gen_range(0.01..0.5),
            rng.gen_range(0.001..0.5),
        );
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let pa = Pose3::new(DVec3::ZERO, random_quat(&mut rng)).unwrap();
        let pb = Pose3::new(
            unit_vector3(&mut rng) * rng.gen_range(0.0..0.3),
            random_quat(&mut rng),
        )
        .unwrap();
        let p = epa_checked(&a, &pa, &b, &pb, &format!("box case {case}"));
        let n = p.normal;
        let max_a = pa
            .transform_point(a.support(pa.inverse_transform_vector(n)))
            .dot(n);
        let min_b = pb
            .transform_point(b.support(pb.inverse_transform_vector(-n)))
            .dot(n);
        assert!(
            (p.depth - (max_a - min_b)).abs() <= 1e-9,
            "box case {case}: {p:?}"
        );
    }
}

#[test]
fn fcl_398_445_epa_with_the_origin_on_or_near_a_face_of_the_minkowski_difference() {
    // The reports: EPA threw when the origin lay on (or within rounding of) a face of the
    // simplex/polytope (touching or barely overlapping boxes, "degenerate" tetrahedra).
    // Here: face-to-face boxes with overlap δ from −1e-6 to 1e-6 (zero included), B rotated
    // about the contact normal and slid along the face, so the origin lies on or next to a
    // face of A ⊖ B. Analytic answer: depth δ (overlap), or distance −δ (gap).
    let mut rng = case_rng(398, 0);
    let a = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let b = Cuboid::new(DVec3::new(0.5, 0.3, 0.2)).unwrap();
    let deltas = [0.0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6];
    for case in 0..300 {
        let delta = deltas[case % deltas.len()];
        let rot = DQuat::from_rotation_x(rng.gen_range(0.0..std::f64::consts::TAU));
        let slide = DVec3::new(0.0, rng.gen_range(-0.2..0.2), rng.gen_range(-0.2..0.2));
        let pa = Pose3::IDENTITY;
        let pb = Pose3::new(DVec3::new(1.0 - delta, 0.0, 0.0) + slide, rot).unwrap();
        let tol = tolerance_for(&a, &pa, &b, &pb);
        let d = gjk::distance(&a, &pa, &b, &pb, &Options::default(), None);
        assert!(
            (d.distance - (-delta).max(0.0)).abs() <= tol,
            "case {case}: {d:?}"
        );
        if d.intersecting().is_some() {
            verify(&a, &pa, &b, &pb, &d.verdict, tol).unwrap();
        }
        if delta >= 0.0 {
            let p = epa_checked(&a, &pa, &b, &pb, &format!("case {case}"));
            assert!((p.depth - delta).abs() <= tol, "case {case}: {p:?}");
            assert!((p.normal - DVec3::X).length() <= 1e-6, "case {case}: {p:?}");
        } else {
            assert!(
                matches!(d.verdict, Verdict::Separated(_)) || -delta <= tol,
                "case {case}"
            );
        }
    }
}

#[test]
fn mujoco_3383_separated_hull_pairs_are_never_reported_at_distance_zero() {
    // The report: convex mesh pairs (decomposed hulls, centimetre to decimetre apart) got
    // distance exactly 0 on 103 of 3,000 random poses. Here: 3,000 random hull pairs of
    // decimetre size placed at an exact gap of 1 cm to 30 cm (testkit placement, exact by
    // construction), at random rotations.
    let mut rng = case_rng(3383, 0);
    for case in 0..3000 {
        let pa_pts = random_hull3(&mut rng, 8..=64, 0.05..=0.3);
        let pb_pts = random_hull3(&mut rng, 8..=64, 0.05..=0.3);
        let (a, b) = (Points::new(&pa_pts).unwrap(), Points::new(&pb_pts).unwrap());
        let pa = Pose3::new(unit_vector3(&mut rng), random_quat(&mut rng)).unwrap();
        let gap = rng.gen_range(0.01..0.3);
        let pl = place_at_distance(
            &a,
            &pa,
            &b,
            random_quat(&mut rng),
            unit_vector3(&mut rng),
            gap,
        );
        let pb = pl.pose_b;
        let d = gjk::distance(&a, &pa, &b, &pb, &Options::default(), None);
        assert!(
            d.distance > 0.0,
            "case {case}: separated by {gap}, reported {d:?}"
        );
        assert!(
            (d.distance - gap).abs() <= 1e-9,
            "case {case}: {} vs {gap}",
            d.distance
        );
        let Verdict::Separated(s) = d.verdict else {
            panic!("case {case}: not proved separated: {d:?}");
        };
        // The certified gap is a lower bound the distance respects.
        assert!(
            s.gap <= d.distance + 1e-12 && s.gap > 0.5 * gap,
            "case {case}: {s:?}"
        );
        let tol = tolerance_for(&a, &pa, &b, &pb);
        verify(&a, &pa, &b, &pb, &d.verdict, tol).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
    }
}

#[test]
fn jolt_2103_barely_touching_cylinder_and_capsule_report_near_zero_depth() {
    // The report: a capsule (half height 2.03114343, radius 7.19732189) at the origin and a
    // cylinder (half height 0.3, radius 0.4975) at (-0.951660156, -2.09155273, -7.63574218),
    // both along Jolt's y axis, barely touching; the cast reported a penetration of ~6 where
    // ~0 is right. Here both axes are z (the y and z coordinates swapped: a reflection, which
    // preserves distances).
    let (hh, rc) = (2.03114343, 7.19732189);
    let capsule = Capsule::new(DVec3::new(0.0, 0.0, -hh), DVec3::new(0.0, 0.0, hh), rc).unwrap();
    let cylinder = Cylinder::new(0.3, 0.4975).unwrap();
    let c = DVec3::new(-0.951660156, -7.63574218, -2.09155273);
    // The cylinder's z range [-2.39, -1.79] overlaps the segment's, so the closest points are
    // horizontal: signed distance = radial distance − cylinder radius − capsule radius.
    let want = c.truncate().length() - 0.4975 - rc;
    // (f32 inputs: the pair overlaps by 4.4e-6, touching to the reporter's precision.)
    assert!(
        want.abs() < 1e-5,
        "the configuration is a barely touching one: {want}"
    );
    let pa = Pose3::IDENTITY;
    let pb = Pose3::from_translation(c).unwrap();
    let d = gjk::distance(&capsule, &pa, &cylinder, &pb, &Options::default(), None);
    assert!(
        (d.distance - want.max(0.0)).abs() <= 1e-9,
        "{d:?} want {want}"
    );
    let tol = tolerance_for(&capsule, &pa, &cylinder, &pb);
    verify(&capsule, &pa, &cylinder, &pb, &d.verdict, tol).unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(
        &capsule,
        &pa,
        &cylinder,
        &pb,
        &epa::Options::default(),
        &mut ctx,
    );
    // Signed: depth = −distance.
    assert!((p.depth + want).abs() <= 1e-9, "{p:?} want depth {}", -want);
    verify(&capsule, &pa, &cylinder, &pb, &p.verdict, tol).unwrap();
    // The same pair pushed together by 1e-3 and pulled apart by 1e-3.
    for (shift, sign) in [(1e-3, 1.0), (-1e-3, -1.0)] {
        let cb = c - c.truncate().extend(0.0).normalize() * shift;
        let pb = Pose3::from_translation(cb).unwrap();
        let p = epa::penetration(
            &capsule,
            &pa,
            &cylinder,
            &pb,
            &epa::Options::default(),
            &mut ctx,
        );
        let want = -(cb.truncate().length() - 0.4975 - rc);
        assert!(
            (p.depth - want).abs() <= 1e-9 && p.depth.signum() == sign,
            "{p:?} want {want}"
        );
    }
}

#[test]
fn parry_317_rotating_cuboid_sweeping_through_a_cuboid_is_caught() {
    // The report: a nonlinear cast between cuboids, one rotating, returned no hit though the
    // moving cuboid visibly passes through the static one. Here: a rod (half extents 4, 0.1,
    // 0.1) spinning half a turn about z in one step, separated from a unit cube centred at
    // (0, 3, 0) at both ends of the step, sweeps through it. First contact: the cube's corner
    // (0.5, 2.5) meets the rod's leading face when its polar angle minus asin(0.1 / r) is
    // reached.
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let rod = Cuboid::new(DVec3::new(4.0, 0.1, 0.1)).unwrap();
    let ma = Motion::translating(
        Pose3::from_translation(DVec3::new(0.0, 3.0, 0.0)).unwrap(),
        DVec3::ZERO,
    );
    let w = std::f64::consts::PI;
    let mb = Motion::new(Pose3::IDENTITY, DVec3::ZERO, DVec3::new(0.0, 0.0, w));
    // Both ends of the step are separated: only the motion in between collides.
    for t in [0.0, 1.0] {
        let d = gjk::distance(
            &cube,
            &ma.pose,
            &rod,
            &mb.pose_at(t).unwrap(),
            &Options::default(),
            None,
        );
        assert!(d.distance > 0.5, "t = {t}: {d:?}");
    }
    let corner = DVec2::new(0.5, 2.5);
    let t_star = (corner.y.atan2(corner.x) - (0.1 / corner.length()).asin()) / w;
    let r = conservative_advancement(&cube, &ma, &rod, &mb, 1.0, &AdvancementOptions::default())
        .unwrap();
    let TimeOfImpact::Hit {
        toi,
        normal,
        points,
    } = r
    else {
        panic!("missed: {r:?}");
    };
    assert!(
        (toi - t_star).abs() <= 1e-6,
        "toi {toi} vs analytic {t_star}"
    );
    assert!(
        normal.is_finite() && (points[0] - points[1]).length() <= 1e-6,
        "{r:?}"
    );
    // Just before: separated, certified; at the hit: touching, certified.
    for (t, sep) in [(toi - 1e-4, true), (toi + 1e-9, false)] {
        let pb = mb.pose_at(t).unwrap();
        let i = gjk::intersects(&cube, &ma.pose, &rod, &pb, &Options::default(), None);
        let tol = tolerance_for(&cube, &ma.pose, &rod, &pb);
        verify(&cube, &ma.pose, &rod, &pb, &i.verdict, tol).unwrap();
        assert_eq!(i.intersecting(), Some(!sep), "t = {t}");
    }
    // A family of such sweeps: the reported hit time is never after a sampled collision, and
    // the pair is disjoint before it.
    let mut rng = case_rng(317, 0);
    for case in 0..40 {
        let y = rng.gen_range(1.5..3.5);
        let ma = Motion::translating(
            Pose3::from_translation(DVec3::new(0.0, y, 0.0)).unwrap(),
            DVec3::ZERO,
        );
        let w = rng.gen_range(2.0..6.0);
        let mb = Motion::new(
            Pose3::IDENTITY,
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(0.0, 0.0, w),
        );
        let r =
            conservative_advancement(&cube, &ma, &rod, &mb, 1.0, &AdvancementOptions::default())
                .unwrap();
        let first_sample = (0..=2000).map(|k| k as f64 / 2000.0).find(|&t| {
            let pb = mb.pose_at(t).unwrap();
            gjk::intersects(&cube, &ma.pose, &rod, &pb, &Options::default(), None).intersecting()
                == Some(true)
        });
        match (r, first_sample) {
            (TimeOfImpact::Hit { toi, .. }, Some(ts)) => {
                assert!(
                    toi <= ts + 1e-9,
                    "case {case}: toi {toi} after a sampled contact at {ts}"
                );
                assert!(
                    toi >= ts - 1.0 / 2000.0 - 1e-6,
                    "case {case}: toi {toi}, samples {ts}"
                );
            }
            (TimeOfImpact::InitiallyOverlapping, Some(ts)) => assert_eq!(ts, 0.0, "case {case}"),
            (other, ts) => panic!("case {case}: {other:?} with a sampled contact at {ts:?}"),
        }
    }
}
