//! The boundary-based test against GJK, the clarabel oracle, constructed boundary cases and
//! its own certificates.

use convexity::gjk::certificate::{tolerance_for, verify};
use convexity::hull::ConvexPolyhedron;
use convexity::polytope::boundary::{intersect, Witness};
use convexity::{gjk, DQuat, DVec3, Points, Pose3, Verdict};
use convexity_testkit::gen3::{random_hull3, random_quat, unit_vector3};
use convexity_testkit::hull_oracle::hull_distance3;
use convexity_testkit::placement::{gjk_tolerance, place_at_distance, place_deep, Regime};
use convexity_testkit::rng::rng as seeded;
use rand::Rng;

fn pose(t: DVec3, q: DQuat) -> Pose3 {
    Pose3::new(t, q).unwrap()
}

fn hull(points: &[DVec3]) -> ConvexPolyhedron {
    ConvexPolyhedron::from_points(points).unwrap()
}

/// GJK's verdict on the same vertex sets, and the band around touching where either
/// verdict is right.
fn gjk_verdict(a: &[DVec3], pa: &Pose3, b: &[DVec3], pb: &Pose3) -> (Option<bool>, f64, f64) {
    let (pa_, pb_) = (Points::new(a).unwrap(), Points::new(b).unwrap());
    let d = gjk::distance(&pa_, pa, &pb_, pb, &gjk::Options::default(), None);
    (d.intersecting(), d.distance, d.tolerance)
}

#[test]
fn random_pairs_agree_with_gjk_and_certificates_verify() {
    let mut rng = seeded(0xB0A);
    let mut checked = 0;
    let mut by_regime = [0usize; 5];
    for i in 0..2400 {
        let a_pts = random_hull3(&mut rng, 4..=24, 0.5..=2.0);
        let b_pts = random_hull3(&mut rng, 4..=24, 0.5..=2.0);
        let (Ok(a), Ok(b)) = (
            ConvexPolyhedron::from_points(&a_pts),
            ConvexPolyhedron::from_points(&b_pts),
        ) else {
            continue;
        };
        let pa = pose(
            DVec3::new(rng.gen_range(-3.0..3.0), 0.0, 1.0),
            random_quat(&mut rng),
        );
        let regime = Regime::ALL[i % 5];
        let (a_shape, b_shape) = (Points::new(&a_pts).unwrap(), Points::new(&b_pts).unwrap());
        let rot_b = random_quat(&mut rng);
        let placement = match regime {
            Regime::Deep => place_deep(&a_shape, &pa, &b_shape, rot_b),
            _ => {
                let tol = gjk_tolerance(&a_shape, &b_shape);
                let g = match regime {
                    Regime::Far => rng.gen_range(0.01..1.0),
                    Regime::NearTouching => rng.gen_range(0.5..2.0) * tol,
                    Regime::Touching => 0.0,
                    _ => -0.3,
                };
                place_at_distance(&a_shape, &pa, &b_shape, rot_b, unit_vector3(&mut rng), g)
            }
        };
        let pb = placement.pose_b;
        let r = intersect(&a, &pa, &b, &pb);
        let (g, dist, band) = gjk_verdict(&a_pts, &pa, &b_pts, &pb);
        let got = r.verdict.intersecting();
        if dist > 2.0 * band {
            assert_eq!(
                got,
                Some(false),
                "pair {i} ({}): GJK distance {dist}",
                regime.name()
            );
        }
        if g == Some(true) {
            // GJK proved a common point within its tolerance: the boundary test may only
            // disagree by a gap inside that band.
            match r.verdict {
                Verdict::Separated(s) => assert!(
                    s.gap <= 2.0 * band,
                    "pair {i} ({}): separated by {} but GJK intersecting",
                    regime.name(),
                    s.gap
                ),
                Verdict::Intersecting(_) => {}
                Verdict::Undetermined => assert!(dist <= 2.0 * band, "pair {i}: undetermined"),
            }
        }
        if regime == Regime::Deep {
            assert_eq!(got, Some(true), "pair {i}: deep pair");
        }
        if got.is_some() {
            let tol = tolerance_for(&a_shape, &pa, &b_shape, &pb);
            verify(&a_shape, &pa, &b_shape, &pb, &r.verdict, tol)
                .unwrap_or_else(|e| panic!("pair {i} ({}): {e}", regime.name()));
        } else {
            // Undetermined only where rounding decides: inside GJK's band.
            assert!(
                dist <= 2.0 * band,
                "pair {i}: undetermined at distance {dist}"
            );
        }
        by_regime[i % 5] += 1;
        checked += 1;
    }
    assert!(checked >= 2000, "only {checked} pairs had solid hulls");
    assert!(by_regime.iter().all(|&n| n >= 400), "{by_regime:?}");
}

#[test]
fn agrees_with_clarabel_outside_the_band() {
    let mut rng = seeded(0xB0B);
    for i in 0..150 {
        let a_pts = random_hull3(&mut rng, 4..=16, 0.5..=1.5);
        let b_pts = random_hull3(&mut rng, 4..=16, 0.5..=1.5);
        let (Ok(a), Ok(b)) = (
            ConvexPolyhedron::from_points(&a_pts),
            ConvexPolyhedron::from_points(&b_pts),
        ) else {
            continue;
        };
        let pa = pose(DVec3::ZERO, random_quat(&mut rng));
        let t = unit_vector3(&mut rng) * rng.gen_range(0.0..3.5);
        let pb = pose(t, random_quat(&mut rng));
        let wa: Vec<DVec3> = a_pts.iter().map(|&p| pa.transform_point(p)).collect();
        let wb: Vec<DVec3> = b_pts.iter().map(|&p| pb.transform_point(p)).collect();
        let oracle = hull_distance3(&wa, &wb).unwrap();
        let got = intersect(&a, &pa, &b, &pb).verdict.intersecting();
        if oracle.distance > 1e-6 {
            assert_eq!(
                got,
                Some(false),
                "pair {i}: oracle distance {}",
                oracle.distance
            );
        } else if oracle.distance < 1e-12 && oracle.upper_bound - oracle.lower_bound < 1e-9 {
            // The oracle's distance is a certified upper bound: 0 means a common point.
            assert_eq!(got, Some(true), "pair {i}");
        }
    }
}

fn unit_cube() -> ConvexPolyhedron {
    ConvexPolyhedron::cuboid(DVec3::splat(0.5))
}

#[test]
fn identical_aligned_cubes_intersect() {
    let c = unit_cube();
    let p = pose(DVec3::new(1e6, -3.0, 2.0), random_quat(&mut seeded(3)));
    let r = intersect(&c, &p, &c, &p);
    assert_eq!(r.verdict.intersecting(), Some(true));
}

#[test]
fn stacked_cubes_rotated_45_degrees_meet_only_in_the_face_plane() {
    // The upper cube's bottom face is the lower cube's top face rotated by 45°: no vertex of
    // either lies in the other, and the edges cross inside the common plane z = 0.5.
    let c = unit_cube();
    let lower = Pose3::IDENTITY;
    let upper = pose(
        DVec3::new(0.0, 0.0, 1.0),
        DQuat::from_rotation_z(0.25 * std::f64::consts::PI),
    );
    let r = intersect(&c, &lower, &c, &upper);
    assert_eq!(r.verdict.intersecting(), Some(true), "{r:?}");
    assert!(matches!(
        r.witness,
        Witness::EdgeOfAFaceOfB { .. } | Witness::EdgeOfBFaceOfA { .. }
    ));
    if let Verdict::Intersecting(p) = r.verdict {
        assert!((p.point.z - 0.5).abs() < 1e-12, "{p:?}");
    }
    // Lifted by one ulp-scale step above the plane: disjoint with a positive gap.
    let lifted = pose(
        DVec3::new(0.0, 0.0, 1.0 + 1e-9),
        DQuat::from_rotation_z(0.25 * std::f64::consts::PI),
    );
    let r = intersect(&c, &lower, &c, &lifted);
    match r.verdict {
        Verdict::Separated(s) => {
            assert!((s.gap - 1e-9).abs() < 1e-15, "{s:?}");
            assert!((s.axis - DVec3::Z).length() < 1e-12);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn crossed_bars_meet_through_edges_only() {
    // Two long thin bars crossing like a plus sign: no vertex of either is in the other.
    let bar_x = ConvexPolyhedron::cuboid(DVec3::new(2.0, 0.1, 0.1));
    let bar_y = ConvexPolyhedron::cuboid(DVec3::new(0.1, 2.0, 0.1));
    let r = intersect(&bar_x, &Pose3::IDENTITY, &bar_y, &Pose3::IDENTITY);
    assert_eq!(r.verdict.intersecting(), Some(true));
    assert!(!matches!(
        r.witness,
        Witness::VertexOfAInB { .. } | Witness::VertexOfBInA { .. }
    ));
    // Raised so the bars touch along a square patch: still intersecting (closed sets).
    let up = pose(DVec3::new(0.0, 0.0, 0.2), DQuat::IDENTITY);
    assert_eq!(
        intersect(&bar_x, &Pose3::IDENTITY, &bar_y, &up)
            .verdict
            .intersecting(),
        Some(true)
    );
    let above = pose(DVec3::new(0.0, 0.0, 0.2 + 1e-8), DQuat::IDENTITY);
    assert_eq!(
        intersect(&bar_x, &Pose3::IDENTITY, &bar_y, &above)
            .verdict
            .intersecting(),
        Some(false)
    );
}

#[test]
fn exact_touching_vertex_edge_and_face_contacts_intersect() {
    let c = unit_cube();
    let id = Pose3::IDENTITY;
    // Face to face, edge to edge and corner to corner, with exactly representable offsets.
    for t in [
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(1.0, 1.0, 1.0),
        DVec3::new(1.0, 0.25, -0.5),
    ] {
        let r = intersect(&c, &id, &c, &pose(t, DQuat::IDENTITY));
        assert_eq!(r.verdict.intersecting(), Some(true), "offset {t}");
        // A gap below the touch tolerance counts as touching (closed sets, as in GJK);
        // one well above it is a separation.
        let near = intersect(&c, &id, &c, &pose(t * (1.0 + 1e-12), DQuat::IDENTITY));
        assert_eq!(
            near.verdict.intersecting(),
            Some(true),
            "offset {t} + 1e-12"
        );
        assert!(
            near.tolerance > 1e-12 && near.tolerance < 1e-8,
            "{}",
            near.tolerance
        );
        let g = intersect(&c, &id, &c, &pose(t * (1.0 + 1e-8), DQuat::IDENTITY));
        assert_eq!(g.verdict.intersecting(), Some(false), "offset {t} + 1e-8");
    }
}

#[test]
fn size_ratio_1e4_and_offsets_1e6() {
    let big = ConvexPolyhedron::cuboid(DVec3::splat(1e3));
    let small = ConvexPolyhedron::cuboid(DVec3::splat(0.05));
    let off = DVec3::new(1e6, -1e6, 5e5);
    let pa = pose(off, DQuat::IDENTITY);
    // Small box resting on the big box's top face, then lifted by 1e-6.
    let on = pose(off + DVec3::new(3.0, -7.0, 1000.05), DQuat::IDENTITY);
    assert_eq!(
        intersect(&big, &pa, &small, &on).verdict.intersecting(),
        Some(true)
    );
    let lifted = pose(off + DVec3::new(3.0, -7.0, 1000.05 + 1e-6), DQuat::IDENTITY);
    let r = intersect(&big, &pa, &small, &lifted);
    match r.verdict {
        Verdict::Separated(s) => assert!((s.gap - 1e-6).abs() < 1e-9, "{s:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn symmetric_under_swapping_the_shapes() {
    let mut rng = seeded(0xB0C);
    for _ in 0..300 {
        let a = hull(&random_hull3(&mut rng, 4..=12, 0.5..=1.0));
        let b = hull(&random_hull3(&mut rng, 4..=12, 0.5..=1.0));
        let pa = pose(DVec3::ZERO, random_quat(&mut rng));
        let pb = pose(
            unit_vector3(&mut rng) * rng.gen_range(0.0..2.5),
            random_quat(&mut rng),
        );
        let ab = intersect(&a, &pa, &b, &pb).verdict.intersecting();
        let ba = intersect(&b, &pb, &a, &pa).verdict.intersecting();
        assert_eq!(ab, ba);
    }
}
