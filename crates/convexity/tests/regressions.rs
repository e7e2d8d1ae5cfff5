//! Regression tests, each named after the case it pins down.

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{distance, Options};
use convexity::*;

/// Found by fuzzing: a point lying inside a sliver triangle (edges 742 and 0.039) far from
/// the origin. Cramer-rule barycentrics put GJK's closest point 5.8e-6 off the plane and GJK
/// stopped there on a repeated support point, reporting distance 5.8e-6 instead of 0.
#[test]
fn point_inside_sliver_triangle_far_from_origin_is_at_distance_zero() {
    let tri = Points::new(&[
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-257.813, -1000.0, -999.744),
        DVec3::new(-1000.0, -999.961, -1000.0),
    ])
    .unwrap();
    let v = tri.points();
    let opts = Options::default();
    for (wa, wb) in [(0.2, 0.3), (0.9, 0.05), (0.01, 0.01), (0.45, 0.45)] {
        let p = v[0] * (1.0 - wa - wb) + v[1] * wa + v[2] * wb;
        let point = Ball::<DVec3>::new(0.0).unwrap();
        let pose_p = Pose3::from_translation(p).unwrap();
        let d = distance(&tri, &Pose3::IDENTITY, &point, &pose_p, &opts, None);
        assert_eq!(d.intersecting(), Some(true), "{d:?}");
        assert!(d.distance <= 1e-9, "{d:?}");
    }
}

/// Found by fuzzing: the same sliver against a rounded triangle; the common point must verify.
#[test]
fn sliver_triangle_vs_rounded_triangle_common_point_verifies() {
    let a = Points::new(&[
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-257.813, -1000.0, -999.744),
        DVec3::new(-1000.0, -999.961, -1000.0),
    ])
    .unwrap();
    let b = Rounded::new(
        Points::new(&[
            DVec3::new(-1000.0, 442.377, -1000.0),
            DVec3::new(-1000.0, -603.31, -1000.0),
            DVec3::new(-444.097, -1000.0, -1000.0),
        ])
        .unwrap(),
        10.0,
    )
    .unwrap();
    let q = DQuat::from_xyzw(-1000.0, -1000.0, -1000.0, -1000.0).normalize();
    let q2 = DQuat::from_xyzw(-1000.0, -405.921, -1000.0, -987.968).normalize();
    let pa = Pose3::new(DVec3::splat(-1000.0), q).unwrap();
    let pb = Pose3::new(DVec3::splat(-1000.0), q2).unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    assert!(d.intersecting().is_some(), "{d:?}");
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
}

/// Found by fuzzing: translations near 1e303 overflow squared lengths; they are rejected with
/// an error naming the field instead of producing infinities downstream.
#[test]
fn translation_beyond_max_magnitude_is_rejected_naming_the_field() {
    let e = Pose3::new(DVec3::new(-5.5e303, 1.0, 2.0), DQuat::IDENTITY).unwrap_err();
    assert_eq!(e.field, "translation[0]");
    assert!(matches!(e.problem, Problem::OutOfRange(_)));
    assert!(e.to_string().contains("translation[0]"));
    let e = Points::new(&[DVec3::ZERO, DVec3::new(0.0, 0.0, 1e61)]).unwrap_err();
    assert_eq!(e.field, "points[1][2]");
}

/// Found by fuzzing: a separating axis between shapes whose coordinates are near 4e13 fails a
/// size-relative tolerance by rounding alone; `tolerance_for` accounts for the magnitude.
#[test]
fn certificate_far_from_origin_verifies_with_tolerance_for() {
    let a = Points::new(&[DVec3::new(33.19, 372.1, 1177.36)]).unwrap();
    let b = Points::new(&[
        DVec3::new(-2.52e12, -2.3136e13, 3.4064e13),
        DVec3::new(-2.52e12 + 1e-3, -2.3136e13, 3.4064e13),
    ])
    .unwrap();
    let id = Pose3::IDENTITY;
    let d = distance(&a, &id, &b, &id, &Options::default(), None);
    assert_eq!(d.intersecting(), Some(false));
    verify(
        &a,
        &id,
        &b,
        &id,
        &d.verdict,
        tolerance_for(&a, &id, &b, &id),
    )
    .unwrap();
}

/// Found by fuzzing: a ball against a needle hull (one vertex 9.1e10 away, the others within
/// 2e3). Ericson's region test misjudged the triangle (needle tip, two near points) and GJK
/// stalled with bounds [−617, 515] and an undetermined verdict. The needle vs a tetrahedron
/// sharing it gave a common point 1.5e-9·size outside A.
#[test]
fn ball_against_needle_hull_converges_and_certificates_verify() {
    let needle = Points::new(&[
        DVec3::new(811.565, 47.954, 672.146),
        DVec3::new(498.715, 407.546, 434.308),
        DVec3::new(-873.639, 450.692, 434.308),
        DVec3::new(434.308, -949.929, -91221737215.23436),
        DVec3::new(-929.899, -174.495, 811.565),
    ])
    .unwrap();
    let tetra = Points::new(&[
        DVec3::new(-425.629, 47.954, 672.146),
        DVec3::new(498.715, 407.546, 434.308),
        DVec3::new(-873.639, 450.692, 434.308),
        DVec3::new(434.308, -949.929, -91221737215.23436),
    ])
    .unwrap();
    let ball = Ball::<DVec3>::new(9.9999).unwrap();
    let qa = DQuat::from_xyzw(-999.99, 888.239, 44.248, -683.002).normalize();
    let qb = DQuat::from_xyzw(-967.89, 8.346, 510.428, -459.281).normalize();
    let pa = Pose3::new(DVec3::new(-11.277, 434.308, -34.081), qa).unwrap();
    let pb = Pose3::new(DVec3::new(-250.85, -788.485, -425.629), qb).unwrap();
    let o = Options::default();
    let d = distance(&ball, &pa, &needle, &pb, &o, None);
    assert_eq!(d.status, Status::Converged, "{d:?}");
    assert_eq!(d.intersecting(), Some(false), "{d:?}");
    assert!(d.distance - d.lower_bound <= d.tolerance, "{d:?}");
    verify(
        &ball,
        &pa,
        &needle,
        &pb,
        &d.verdict,
        tolerance_for(&ball, &pa, &needle, &pb),
    )
    .unwrap();
    let d = distance(&tetra, &pa, &needle, &pb, &o, None);
    assert_eq!(d.intersecting(), Some(true), "{d:?}");
    verify(
        &tetra,
        &pa,
        &needle,
        &pb,
        &d.verdict,
        tolerance_for(&tetra, &pa, &needle, &pb),
    )
    .unwrap();
}

/// Found by fuzzing: a hull with two vertices 4.25e11 away (along −y and −z) against a small
/// hull. The triangle projection was anchored at a far vertex, so its direction carried a
/// 3.5e-9 rad rounding error, enough to pick the wrong support vertex: the checker's
/// point-in-hull query stopped 825 away from a point inside the hull.
#[test]
fn hull_with_two_far_vertices_common_point_verifies() {
    let a = Points::new(&[
        DVec3::new(-1000.0, -174.257, -1000.0),
        DVec3::new(-1000.0, -1000.0, -77.17),
        DVec3::new(428.872, 475.069, -425387035403.0468),
        DVec3::new(-101.532, -465.011, 47.849),
        DVec3::new(-739.529, -1000.0, -1000.0),
        DVec3::new(-1000.0, -77.17, 428.872),
        DVec3::new(475.069, -425387035403.0468, -101.532),
        DVec3::new(-465.011, 47.849, -739.529),
        DVec3::new(-1000.0, -1000.0, -1000.0),
    ])
    .unwrap();
    let b = Points::new(&[
        DVec3::splat(-441.287),
        DVec3::new(-518.961, -1000.0, -944.333),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-102.965, 434.308, 78.02),
        DVec3::new(-820.031, -1000.0, 552.845),
    ])
    .unwrap();
    let q = DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5);
    let pa = Pose3::new(DVec3::splat(-1000.0), q).unwrap();
    let pb = Pose3::new(DVec3::new(-1000.0, -174.257, -1000.0), q).unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    assert_eq!(d.intersecting(), Some(true), "{d:?}");
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
    // And directly: every vertex of B that lies inside A's hull is at distance 0 from it.
    let point = Ball::<DVec3>::new(0.0).unwrap();
    if let Verdict::Intersecting(c) = d.verdict {
        let at = Pose3::from_translation(c.point).unwrap();
        let dp = distance(&a, &pa, &point, &at, &Options::default(), None);
        assert_eq!(dp.intersecting(), Some(true), "{dp:?}");
    }
}

/// Found by fuzzing: both hulls mix a 1e3 cluster with vertices 2.7e12 and 3.9e12 away. The
/// common point missed A by 3.6e3 against a checking tolerance of 2.7e3 (1e-9 × scale): the
/// segment step's closest point kept an along-edge rounding component that tilted later
/// search directions. Fixed by re-projecting the segment's closest point.
#[test]
fn hulls_with_far_vertices_on_both_sides_common_point_verifies() {
    let a = Points::new(&[
        DVec3::new(
            -255.46000000000004,
            -124.40499999999997,
            -124.40499999999997,
        ),
        DVec3::new(834.442, -124.40499999999997, 190.24800000000005),
        DVec3::new(-1000.0, 234.0619999999999, 812.6669999999999),
        DVec3::new(-1000.0, -151.39, -902.377),
        DVec3::new(196.7170000000001, -859.219, -874.561),
        DVec3::new(-303.764, 909.0440000000001, 680.481),
        DVec3::new(434.308, -894.887, -1.7183331148950146e-93),
        DVec3::new(-881.399, 17.33299999999997, 434.13599999999997),
        DVec3::new(-287.025, -425.11699999999996, -2748650643431.4995),
    ])
    .unwrap();
    let b = Points::new(&[
        DVec3::new(-124.40499999999997, -325.89300000000003, 811.565),
        DVec3::new(842.9190000000001, -812.434, -425.11699999999996),
        DVec3::new(-2715902011263.9995, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -107.303),
        DVec3::new(902.6469999999999, -124.40499999999997, -465.01099999999997),
        DVec3::new(-596.906, 842.797, 842.9190000000001),
        DVec3::new(842.9190000000001, 842.9190000000001, 842.9190000000001),
    ])
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(524.5409999999999, -425.629, -255.46000000000004),
        DQuat::from_xyzw(
            -0.2084457031493315,
            0.7931703904603798,
            0.21255342946065287,
            0.5312740913690641,
        ),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(-124.40499999999997, 60.182000000000016, 676.358),
        DQuat::from_xyzw(
            0.2816664319772134,
            0.4044244104406806,
            0.7848240537633078,
            0.3757074952292839,
        ),
    )
    .unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
}

/// Found by fuzzing: each hull has one vertex 2.7e12 away from a 1e3 cluster. The final
/// tetrahedron is flat to about 1e-9, and Cramer's rule gave its far vertices weights of 1.4e-8
/// and 1.7e-8 where the exact ones are 3.6e-11 and −5.4e-11 (the origin is just outside):
/// a residual Σλw of 1e5 and a common point 3.9e4 outside A. Fixed by one step of iterative
/// refinement of the weights before their signs are read.
#[test]
fn flat_tetrahedron_with_far_vertices_weights_are_refined() {
    let a = Points::new(&[
        DVec3::new(565.3800000000001, 434.308, 434.308),
        DVec3::new(-771.494, 499.84400000000005, -949.931),
        DVec3::new(-761.665, -659.788, 246.76299999999992),
        DVec3::new(631.4960000000001, 434.241, -600.544),
        DVec3::new(889.6890000000001, -439.07000000000005, 434.308),
        DVec3::new(648.404, 381.2439999999999, 434.19399999999996),
        DVec3::new(-287.025, -425.11699999999996, -2715902011263.9995),
        DVec3::new(800.865, -124.40499999999997, 855.656),
    ])
    .unwrap();
    let b = Points::new(&[
        DVec3::new(-1000.0, -882.083, -894.887),
        DVec3::new(-1.7183331148950146e-93, 85.48900000000003, -287.025),
        DVec3::new(-425.11699999999996, -2715902011263.9995, 800.865),
        DVec3::new(-124.40499999999997, 26.179000000000087, 434.308),
        DVec3::new(364.605, 864.2629999999999, 407.54600000000005),
        DVec3::new(434.308, 229.61899999999991, 581.537),
        DVec3::new(565.577, 31.49499999999989, 134.2070000000001),
        DVec3::new(-842.604, 135.8989999999999, 842.9190000000001),
    ])
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(434.308, -325.89700000000005, 867.3130000000001),
        DQuat::from_xyzw(
            5.593788134612063e-143,
            -1.0,
            -4.694772741551043e-143,
            1.0428802792814491e-142,
        ),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(-699.1859999999999, -1.71833341162699e-93, 594.876),
        DQuat::from_xyzw(
            0.4929560428718123,
            -0.43251551134225963,
            -0.6703082299872519,
            -0.34729173479348047,
        ),
    )
    .unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    assert!(d.intersecting().is_some(), "{d:?}");
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
}

/// Found by fuzzing: a point 4.18e13 from its own origin, brought near the world origin by a
/// 4.18e13 translation after a half turn. Its world position is a difference of two 4e13
/// numbers (uncertain by ~1e-2), which GJK's tolerance floor covered but `tolerance_for` did
/// not: it measured magnitude from the shapes' resulting centres. It now uses the same
/// magnitude as GJK (world translations and bounding radii about the shapes' own origins).
#[test]
fn point_far_from_its_own_origin_cancelled_by_its_pose_certificate_verifies() {
    let a = Points::new(&[DVec3::new(362.806, -124.405, -124.405)]).unwrap();
    let b = Rounded::new(
        Points::new(&[DVec3::new(842.919, 1.316, -41774865186815.99)]).unwrap(),
        1.2,
    )
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(713.12, 434.184, -184.262),
        DQuat::from_xyzw(0.0, 0.0, -1.0, 0.0),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(17.333, -11.252, -41774865186815.99),
        DQuat::from_xyzw(-1.0, 0.0, 0.0, 0.0),
    )
    .unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    assert_eq!(d.intersecting(), Some(false), "{d:?}");
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
}

/// Found by fuzzing: hull A has two vertices 1e-3 apart beside a 1.4e3 edge. Checking a point
/// of A (the common point GJK found against B), the point-in-hull query met the sliver these
/// make and fell back to its best edge, stalling 3e-6 away (ten times its tolerance), because
/// the flatness rule overestimated the projection's rounding.
#[test]
fn near_duplicate_vertices_sliver_point_in_hull_verifies() {
    let a = Points::new(&[
        DVec3::new(-1000.0, -1000.0, 489.092),
        DVec3::new(430.839, -987.15, -987.968),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -320.349, 148.931),
        DVec3::new(-999.999, -1000.0, -1000.0),
    ])
    .unwrap();
    let b = Points::new(&[
        DVec3::new(-1000.0, -999.801, -1000.0),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-1000.0, -1000.0, -990.505),
        DVec3::new(-582.943, 999.778, -1000.0),
        DVec3::new(276.799, -1000.0, -1000.0),
    ])
    .unwrap();
    let q = DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5);
    let pa = Pose3::new(DVec3::new(-1000.0, -1000.0, -708.547), q).unwrap();
    let pb = Pose3::new(DVec3::new(-1000.0, -1000.0, -1000.0), q).unwrap();
    let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
    assert_eq!(d.intersecting(), Some(true), "{d:?}");
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &d.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
}

/// A radius-0.0033 ball whose centre is 1.6e-7 outside a sliver hull (8 points, faces with
/// offsets down to 1e-17) 670 units from the origin: EPA's closest face does not hold the
/// origin's projection, and its clamped weights left `point_a − point_b` off `depth·n` by
/// 1.1e-9 (5e-9 of the size; the contract is 1e-9). Found by the `warm_epa` fuzz target on
/// the cold call. Sizes, the contact convention, and the support planes along the normal.
#[test]
fn fuzz_ball_just_outside_a_sliver_hull_far_out_keeps_the_contact_convention() {
    use convexity::gjk::epa;
    let v = [
        DVec3::new(-0.25, -0.005855649652857259, -0.13496986343175404),
        DVec3::new(
            0.004901960784313708,
            0.004901960784313708,
            0.004901960784313708,
        ),
        DVec3::new(
            0.004901960784313708,
            -0.1669756618600748,
            -0.16764705882352943,
        ),
        DVec3::new(
            -0.16764705882352943,
            -0.16764705882352943,
            -0.16764705882352943,
        ),
        DVec3::new(
            -0.16764705882352943,
            -0.16764705882352943,
            -0.24382009613183794,
        ),
        DVec3::new(
            -0.1715533684290837,
            -0.16764705882352943,
            -0.16764705882352943,
        ),
        DVec3::new(
            -0.13016327153429463,
            0.005756466010528705,
            0.004901960784313708,
        ),
        DVec3::new(
            -0.16764705882352943,
            0.004230563820859068,
            -0.06249713893339437,
        ),
    ];
    let b = Ball::new(0.0033235294117647056).unwrap();
    let pa = Pose3::new(
        DVec3::splat(-670.5882352941177),
        DQuat::from_xyzw(
            -0.5000113772114234,
            -0.5000113772114234,
            -0.4999658668123325,
            -0.5000113772114234,
        ),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::splat(-670.5897173645698),
        DQuat::from_xyzw(
            0.4792847535162691,
            0.4790448398498419,
            0.485397091058526,
            0.5524416986904676,
        ),
    )
    .unwrap();
    let poly = ConvexPolyhedron::from_points(&v).unwrap();
    let pts = Points::new(&v).unwrap();
    let mut ctx = epa::Context::new();
    for a in [&poly as &dyn SupportMap<DVec3>, &pts] {
        let p = epa::penetration(a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
        assert_exact_contact(&p, (a, &pa), (&b, &pb), 0.0033233386, 1200.0);
    }
}

/// A rounded point (radius 1.69) 1.8e-7 from the edge of a rounded triangle (radius 5.81),
/// 1.6e-7 from the triangle's plane: the cores' difference `K` is flat, and EPA answered with
/// the plane's offset, as if the origin projected inside `K`; the depth was off by 2.4e-8 and
/// `point_a − point_b − depth·n` by 9e-8 (3e-9 of the size). Found by the `warm_epa` fuzz
/// target on the cold call. The answer must be the cores' distance along GJK's direction.
#[test]
fn fuzz_rounded_point_beside_a_rounded_triangles_edge_takes_the_edge_distance() {
    use convexity::gjk::epa;
    let p = DVec3::splat(-23.22222222222222);
    let a = Shape3::Rounded(Box::new(
        Rounded::new(
            Shape3::Points(Points::new(&[p, p, p]).unwrap()),
            1.6888888888888884,
        )
        .unwrap(),
    ));
    let tri = [
        p,
        DVec3::new(-23.22222222222222, -23.22222222222222, -2.607843137254903),
        DVec3::splat(-2.607843137254903),
    ];
    let b = Shape3::Rounded(Box::new(
        Rounded::new(
            Shape3::Points(Points::new(&tri).unwrap()),
            5.811764705882353,
        )
        .unwrap(),
    ));
    let pa = Pose3::new(
        DVec3::splat(-0.08235294117647063),
        DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(-0.082354384112889, -0.082354384112889, -0.08235460776129745),
        DQuat::from_xyzw(
            -0.4989674113546294,
            -0.4989674113546294,
            -0.4989674113546294,
            -0.5030850496866113,
        ),
    )
    .unwrap();
    let cores = gjk::distance(
        &Points::new(&[p]).unwrap(),
        &pa,
        &Points::new(&tri).unwrap(),
        &pb,
        &Options::default(),
        None,
    );
    assert!(cores.distance > 1e-7, "{cores:?}");
    let mut ctx = epa::Context::new();
    let r = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
    let scale = a.size() + b.size();
    let rsum = 1.6888888888888884 + 5.811764705882353;
    assert!(
        (r.depth - (rsum - cores.distance)).abs() <= 4.0 * r.tolerance,
        "{r:?}"
    );
    assert!((r.normal - cores.normal).length() <= 1e-6, "{r:?}");
    let miss = miss(&r);
    assert!(miss <= 1e-12 * scale, "miss {miss}: {r:?}");
    // The normal carries the depth, and the interval holds the cores' distance. (A first fix
    // took the direction of GJK's witnesses' difference, 1e-8 rad off on this 20-unit `K`:
    // the projections along it overlapped by 4e-7 more than the depth.)
    let overlap = h(&a, &pa, r.normal) + h(&b, &pb, -r.normal);
    assert!(
        (overlap - r.depth).abs() <= 4.0 * r.tolerance,
        "overlap {overlap}: {r:?}"
    );
    let truth = rsum - cores.distance;
    assert!(r.depth_lower <= truth + r.tolerance && truth <= r.depth_upper + r.tolerance);
}

/// A needle triangle (8 long, 0.03 across) 270 units out against a ball of radius 0.0025 whose
/// centre is 7.7e-9 from the triangle's plane: `K` is flat, and EPA's flat answer took GJK's
/// witnesses, whose weights on the needle are off by 7.6e-8 across it, so `point_a − point_b`
/// missed `depth·n` by 7.6e-8 (9e-9 of the size; the contract is 1e-9). Found by the
/// `warm_epa` fuzz target on the cold call.
#[test]
fn fuzz_ball_on_a_needle_triangle_far_out_keeps_the_contact_convention() {
    use convexity::gjk::epa;
    let a = Points::new(&[
        DVec3::splat(1.5359861591695496),
        DVec3::new(-5.648406554198699, -5.6764705882352935, -5.659666814768937),
        DVec3::splat(-5.6764705882352935),
    ])
    .unwrap();
    let b = Ball::new(0.0025).unwrap();
    let pa = Pose3::new(
        DVec3::splat(270.58823529411757),
        DQuat::from_xyzw(
            0.5141842598030127,
            0.5141842598030127,
            0.5141842598030127,
            0.4548006606332972,
        ),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(270.5889038465936, 270.5889126317773, 270.5889126317773),
        DQuat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
    assert_exact_contact(&p, (&a, &pa), (&b, &pb), 0.0024928273, 600.0);
}

/// A rounded needle (a segment 0.023 long, radius 0.08) over a flat box, the cores 0.044
/// apart, the second frame of a warm-started pair: GJK (warm) stopped on its duality gap with
/// `v` sideways on the box's face, `v̂` tilted by 5e-6 rad, and the penetration answer along it
/// left the projections overlapping by 4.8e-7 more than the depth. The normal must carry the
/// depth. Found by the `warm_epa` fuzz target.
#[test]
fn fuzz_rounded_needle_over_a_flat_box_normal_carries_the_depth() {
    use convexity::gjk::epa;
    let p = DVec3::splat(-0.07243964832442476);
    let a = Shape3::Rounded(Box::new(
        Rounded::new(
            Shape3::Points(
                Points::new(&[
                    DVec3::new(
                        -0.050150525763063274,
                        -0.07235292022107316,
                        -0.07243964832442476,
                    ),
                    p,
                    p,
                ])
                .unwrap(),
            ),
            0.08024084122090128,
        )
        .unwrap(),
    ));
    let b = Shape3::Cuboid(
        Cuboid::new(DVec3::new(0.07062283737024222, 0.0, 0.07062283737024222)).unwrap(),
    );
    let pa = Pose3::new(DVec3::ZERO, DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5)).unwrap();
    let frames = [
        Pose3::new(
            DVec3::new(
                -0.030416278334748005,
                -0.030416278334748005,
                -0.030232771376468983,
            ),
            DQuat::from_xyzw(
                -0.4980772847756933,
                -0.49807728477569335,
                -0.4980772847756933,
                -0.5057242877017268,
            ),
        )
        .unwrap(),
        Pose3::new(
            DVec3::new(
                -0.028841176942853063,
                -0.028841176942853063,
                -0.02865766998457404,
            ),
            DQuat::from_xyzw(
                -0.5030828374704411,
                -0.5031326152887748,
                -0.5030832166799711,
                -0.49058384316067816,
            ),
        )
        .unwrap(),
    ];
    let opts = epa::Options::default();
    let (mut ctx, mut cold_ctx) = (epa::Context::new(), epa::Context::new());
    let mut cache = epa::EpaCache::new();
    for pb in &frames {
        let warm = epa::penetration_cached(&a, &pa, &b, pb, &opts, &mut ctx, &mut cache);
        let cold = epa::penetration(&a, &pa, &b, pb, &opts, &mut cold_ctx);
        for p in [warm, cold] {
            assert_eq!(p.verdict.intersecting(), Some(true));
            let overlap = h(&a, &pa, p.normal) + h(&b, pb, -p.normal);
            assert!(
                (overlap - p.depth).abs() <= 1e-12,
                "overlap {overlap}: {p:?}"
            );
            let miss = miss(&p);
            assert!(miss <= 1e-15, "miss {miss}: {p:?}");
            assert!(
                p.depth_lower <= p.depth && p.depth <= p.depth_upper,
                "{p:?}"
            );
        }
        assert!((warm.depth - cold.depth).abs() <= 1e-12);
    }
}

/// The needle triangle of the case above, 300 out, against a ball of radius 0.0025 whose centre
/// is 1.2e-7 from the triangle's plane: GJK's closest vector (its weights are poor on a needle)
/// was 1.43e-7 long, and taking it as the cores' distance (the fix for an origin beside a flat
/// `K`'s edge) left the projections along the answer's normal overlapping by 2.6e-8 more than
/// the depth. The flat answer now keeps whichever of the plane's normal and GJK's direction
/// has the lower support value, measured. Found by the `warm_epa` fuzz target.
#[test]
fn fuzz_ball_over_a_needle_triangle_keeps_the_planes_answer() {
    use convexity::gjk::epa;
    let a = Points::new(&[
        DVec3::splat(1.5359861591695496),
        DVec3::new(-5.648406554198699, -5.6764705882352935, -5.659666814768937),
        DVec3::splat(-5.6764705882352935),
    ])
    .unwrap();
    let b = Ball::new(0.0025).unwrap();
    let pa = Pose3::new(
        DVec3::new(270.58823529411757, 301.83871213855195, 270.58823529411757),
        DQuat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(270.587371856475, 301.837848876613, 270.5873720321786),
        DQuat::from_xyzw(
            -0.46264975238705436,
            -0.4626497523870543,
            -0.46264975238705436,
            -0.5982187056993385,
        ),
    )
    .unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
    let scale = a.size() + b.size();
    assert_eq!(p.status, Status::Converged);
    let overlap = h(&a, &pa, p.normal) + h(&b, &pb, -p.normal);
    assert!(
        (overlap - p.depth).abs() <= 1e-12 * scale,
        "overlap {overlap}: {p:?}"
    );
    let miss = miss(&p);
    assert!(
        miss <= 1e-12 * scale + 8.0 * f64::EPSILON * 700.0,
        "miss {miss}: {p:?}"
    );
}

/// Two rounded needle triangles (one 1e-3 across, one 36 long with two vertices 1e-3 apart)
/// whose cores touch 740 units out: EPA's closest face is a sliver, its barycentric weights
/// carry an error far above its plane's, and `point_a − point_b` missed `depth·n` by 1.0e-7
/// (3e-9 of the size) along the face. Found by the `warm_epa` fuzz target on the cold call.
#[test]
fn fuzz_rounded_needle_triangles_touching_far_out_keep_the_contact_convention() {
    use convexity::gjk::epa;
    let small = [
        DVec3::splat(-0.0023222222222222225),
        DVec3::new(
            -0.0023224155031662474,
            -0.0023222222222222225,
            -0.0023222222222222225,
        ),
        DVec3::new(
            -0.0023222222222222225,
            -0.0031666666666666666,
            -0.0031419267058314894,
        ),
    ];
    let needle = [
        DVec3::new(-23.22222222222222, -23.221255817502097, -23.22222222222222),
        DVec3::splat(-23.22222222222222),
        DVec3::splat(8.320261437908494),
    ];
    let rounded = |p: &[DVec3], r: f64| {
        Shape3::Rounded(Box::new(
            Rounded::new(Shape3::Points(Points::new(p).unwrap()), r).unwrap(),
        ))
    };
    let a = rounded(&small, 0.00016888888888888886);
    let b = rounded(&needle, 1.6888888888888884);
    let q = DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5);
    let pa = Pose3::new(
        DVec3::new(743.2516975661861, -734.3709468223087, -733.3333333333334),
        q,
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(743.2516964209984, -734.3709479674964, -733.333334478521),
        q,
    )
    .unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
    let scale = a.size() + b.size();
    assert_eq!(p.status, Status::Converged);
    assert!((p.depth - (0.00016888888888888886 + 1.6888888888888884)).abs() <= 4.0 * p.tolerance);
    let miss = miss(&p);
    assert!(
        miss <= 1e-12 * scale + 8.0 * f64::EPSILON * 1500.0,
        "miss {miss}: {p:?}"
    );
    let overlap = h(&a, &pa, p.normal) + h(&b, &pb, -p.normal);
    assert!(
        (overlap - p.depth).abs() <= 4.0 * p.tolerance,
        "overlap {overlap}: {p:?}"
    );
}

/// `max_{x ∈ S} d·x` of a posed shape (world frame).
fn h(s: &dyn SupportMap<DVec3>, pose: &Pose3, d: DVec3) -> f64 {
    d.dot(pose.transform_point(s.support(pose.inverse_transform_vector(d))))
}

/// A converged penetration answer of depth `depth` (to 1e-9) that keeps its contact convention
/// to `1e-12·scale` plus the rounding of coordinates of size `magnitude`, with its witnesses on
/// the support planes of A and B along its normal (to `1e-9·scale`).
fn assert_exact_contact(
    p: &convexity::gjk::epa::Penetration<DVec3>,
    (a, pa): (&dyn SupportMap<DVec3>, &Pose3),
    (b, pb): (&dyn SupportMap<DVec3>, &Pose3),
    depth: f64,
    magnitude: f64,
) {
    let scale = a.size() + b.size();
    assert_eq!(p.status, Status::Converged);
    assert!((p.depth - depth).abs() < 1e-9, "{p:?}");
    let n = p.normal;
    let miss = miss(p);
    assert!(
        miss <= 1e-12 * scale + 8.0 * f64::EPSILON * magnitude,
        "miss {miss}: {p:?}"
    );
    assert!(
        (n.dot(p.point_a) - h(a, pa, n)).abs() <= 1e-9 * scale,
        "{p:?}"
    );
    assert!(
        (n.dot(p.point_b) + h(b, pb, -n)).abs() <= 1e-9 * scale,
        "{p:?}"
    );
}

/// How far a penetration answer misses its contact convention `point_a = point_b + depth·n`.
fn miss(p: &convexity::gjk::epa::Penetration<DVec3>) -> f64 {
    (p.point_b + p.normal * p.depth - p.point_a).length()
}

/// Found by scanning stack positions: with 8-byte alignment the `x, y` pair of a vector in a
/// query result sometimes sat 8 bytes before a 4 KiB boundary, and its 16-byte store crossed
/// the page (ball–ball distance 18–23 ns instead of 13–14 at 9 of 256 stack shifts; see
/// "Result layout" in `convexity::gjk`). Every vector of a 3D result, the verdict's included,
/// now starts at a multiple of 16 bytes from a 16-byte aligned start.
#[test]
fn result_vectors_sit_at_multiples_of_16_bytes_so_no_store_crosses_a_page() {
    use std::mem::{align_of, offset_of};
    type D = gjk::Distance<DVec3>;
    type I = gjk::Intersection<DVec3>;
    type P = gjk::epa::Penetration<DVec3>;
    assert_eq!(align_of::<D>(), 16);
    assert_eq!(align_of::<I>(), 16);
    assert_eq!(align_of::<P>(), 16);
    // Where the verdict's vector lies inside the enum (no `offset_of!` for variants).
    let axis = SeparatingAxis {
        axis: DVec3::X,
        gap: 1.0,
    };
    let point = CommonPoint { point: DVec3::ONE };
    let mut inner = Vec::new();
    for v in [Verdict::Separated(axis), Verdict::Intersecting(point)] {
        let start = std::ptr::from_ref(&v) as usize;
        let at = match &v {
            Verdict::Separated(s) => std::ptr::from_ref(&s.axis) as usize,
            Verdict::Intersecting(c) => std::ptr::from_ref(&c.point) as usize,
            Verdict::Undetermined => unreachable!(),
        };
        inner.push((format!("{v:?}"), at - start));
    }
    let offsets = [
        ("Distance::point_a", offset_of!(D, point_a)),
        ("Distance::point_b", offset_of!(D, point_b)),
        ("Distance::normal", offset_of!(D, normal)),
        ("Penetration::point_a", offset_of!(P, point_a)),
        ("Penetration::point_b", offset_of!(P, point_b)),
        ("Penetration::normal", offset_of!(P, normal)),
    ];
    for (field, off) in offsets {
        assert_eq!(off % 16, 0, "{field} at byte {off}");
    }
    for (verdict, off) in [
        ("Distance", offset_of!(D, verdict)),
        ("Intersection", offset_of!(I, verdict)),
        ("Penetration", offset_of!(P, verdict)),
    ] {
        for (variant, within) in &inner {
            let at = off + within;
            assert_eq!(
                at % 16,
                0,
                "{verdict}::verdict ({variant}): vector at byte {at}"
            );
        }
    }
}
