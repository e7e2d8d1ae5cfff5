//! The certificate checker: accepts true certificates, rejects forged ones.
//!
//! True certificates come from closed-form configurations (face-to-face boxes with a known
//! gap, spheres, a point inside two shapes) and from GJK on random pairs. Forgeries: the axis
//! rotated slightly, a gap larger than the true one, the axis reversed, a non-unit axis, a
//! non-positive gap, NaN and infinite fields, a common point moved outside one shape, and an
//! undetermined verdict.

use convexity::gjk::certificate::{tolerance_for, verify_common_point, verify_separating_axis};
use convexity::gjk::{distance, intersects, Options};
use convexity::verdict::CertificateError;
use convexity::{
    verify, Ball, CommonPoint, Cuboid, DQuat, DVec3, Points, Pose2, Pose3, SeparatingAxis,
    SupportMap, Verdict,
};
use convexity_testkit::gen2::{circle_points, random_pose2};
use convexity_testkit::gen3::{random_hull3, random_pose3, random_quat, unit_vector3};
use convexity_testkit::rng::{case_rng, Rng};
use convexity_testkit::{place_in_regime, Regime};

const TOL: f64 = 1e-9;

/// Two boxes at a random common pose, B beyond A's +x face by `gap`, faces overlapping.
fn boxes(gap: f64, seed: u64) -> (Cuboid<DVec3>, Pose3, Cuboid<DVec3>, Pose3, DVec3) {
    let mut r = case_rng(0xCE47, seed);
    let ha = DVec3::new(1.0, 0.75, 0.5);
    let hb = DVec3::new(0.5, 0.5, 0.25);
    let pose_a = random_pose3(&mut r, 5.0);
    let local_b = DVec3::new(ha.x + hb.x + gap, 0.25, -0.125);
    let pose_b = Pose3::new(pose_a.transform_point(local_b), pose_a.rotation()).unwrap();
    let axis = pose_a.transform_vector(DVec3::X);
    (
        Cuboid::new(ha).unwrap(),
        pose_a,
        Cuboid::new(hb).unwrap(),
        pose_b,
        axis,
    )
}

fn axis_cert(axis: DVec3, gap: f64) -> SeparatingAxis<DVec3> {
    SeparatingAxis { axis, gap }
}

#[test]
fn accepts_the_true_axis_and_gap_of_face_to_face_boxes() {
    for seed in 0..50 {
        let gap = 0.25;
        let (a, pa, b, pb, axis) = boxes(gap, seed);
        let c = axis_cert(axis, gap);
        verify_separating_axis(&a, &pa, &b, &pb, &c, TOL).unwrap();
        verify(&a, &pa, &b, &pb, &Verdict::Separated(c), TOL).unwrap();
        // A smaller claimed gap is still true.
        verify_separating_axis(&a, &pa, &b, &pb, &axis_cert(axis, 0.5 * gap), TOL).unwrap();
        // Overclaiming by less than the tolerance is accepted, by more is not.
        verify_separating_axis(&a, &pa, &b, &pb, &axis_cert(axis, gap + 0.5 * TOL), TOL).unwrap();
        let e = verify_separating_axis(&a, &pa, &b, &pb, &axis_cert(axis, gap + 10.0 * TOL), TOL)
            .unwrap_err();
        assert!(
            matches!(e, CertificateError::AxisViolated(x) if x > TOL),
            "{e:?}"
        );
    }
}

#[test]
fn rejects_a_slightly_rotated_axis() {
    for seed in 0..50 {
        let gap = 0.25;
        let (a, pa, b, pb, axis) = boxes(gap, seed);
        // Tilting the axis by 1e-3 rad about any direction in the face plane moves the
        // projections of the face corners by ~1e-3 × their extent: far beyond the tolerance.
        let mut r = case_rng(0xCE48, seed);
        let tilt_axis = axis.any_orthonormal_vector();
        let spin = DQuat::from_axis_angle(axis, r.gen_range(0.0..std::f64::consts::TAU));
        let q = DQuat::from_axis_angle(spin * tilt_axis, 1e-3);
        let forged = axis_cert((q * axis).normalize(), gap);
        let e = verify_separating_axis(&a, &pa, &b, &pb, &forged, TOL).unwrap_err();
        match e {
            CertificateError::AxisViolated(x) => assert!(x > 1e-4, "{e:?}"),
            other => panic!("expected AxisViolated, got {other:?}"),
        }
    }
}

#[test]
fn rejects_gaps_too_large_reversed_axes_and_bad_numbers() {
    let (a, pa, b, pb, axis) = boxes(0.25, 1);
    let check = |c: SeparatingAxis<DVec3>| verify_separating_axis(&a, &pa, &b, &pb, &c, TOL);
    assert!(
        matches!(check(axis_cert(axis, 0.26)), Err(CertificateError::AxisViolated(x)) if (x - 0.01).abs() < 1e-12)
    );
    assert!(matches!(
        check(axis_cert(-axis, 0.25)),
        Err(CertificateError::AxisViolated(_))
    ));
    assert!(
        matches!(check(axis_cert(axis * 1.001, 0.2)), Err(CertificateError::AxisNotUnit(l)) if (l - 1.001).abs() < 1e-12)
    );
    assert!(matches!(
        check(axis_cert(axis * 0.5, 0.1)),
        Err(CertificateError::AxisNotUnit(_))
    ));
    assert!(
        matches!(check(axis_cert(axis, 0.0)), Err(CertificateError::GapNotPositive(g)) if g == 0.0)
    );
    assert!(matches!(
        check(axis_cert(axis, -1.0)),
        Err(CertificateError::GapNotPositive(_))
    ));
    assert_eq!(
        check(axis_cert(axis, f64::NAN)),
        Err(CertificateError::NotFinite)
    );
    assert_eq!(
        check(axis_cert(axis, f64::INFINITY)),
        Err(CertificateError::NotFinite)
    );
    assert_eq!(
        check(axis_cert(DVec3::new(f64::NAN, 0.0, 0.0), 0.1)),
        Err(CertificateError::NotFinite)
    );
    assert_eq!(
        check(axis_cert(DVec3::ZERO, 0.1)),
        Err(CertificateError::AxisNotUnit(0.0))
    );
    let cp = |p: DVec3| verify_common_point(&a, &pa, &b, &pb, &CommonPoint { point: p }, TOL);
    assert_eq!(
        cp(DVec3::new(0.0, f64::NAN, 0.0)),
        Err(CertificateError::NotFinite)
    );
    assert_eq!(
        cp(DVec3::splat(f64::NEG_INFINITY)),
        Err(CertificateError::NotFinite)
    );
    assert_eq!(
        verify(&a, &pa, &b, &pb, &Verdict::Undetermined, TOL),
        Err(CertificateError::NoCertificate)
    );
    // Every error has a message.
    for e in [
        CertificateError::NotFinite,
        CertificateError::AxisNotUnit(2.0),
        CertificateError::GapNotPositive(0.0),
        CertificateError::AxisViolated(1.0),
        CertificateError::OutsideA(1.0),
        CertificateError::OutsideB(1.0),
        CertificateError::NoCertificate,
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn common_points_inside_both_accepted_outside_one_rejected() {
    // Two overlapping boxes (gap −0.25): their intersection is known exactly in A's frame.
    for seed in 0..30 {
        let (a, pa, b, pb, axis) = boxes(-0.25, seed);
        let inside = pa.transform_point(DVec3::new(0.875, 0.25, -0.125));
        let cp = |p: DVec3| verify_common_point(&a, &pa, &b, &pb, &CommonPoint { point: p }, TOL);
        cp(inside).unwrap();
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &Verdict::Intersecting(CommonPoint { point: inside }),
            TOL,
        )
        .unwrap();
        // On the boundary of both (a corner region of the overlap) is accepted.
        let edge = pa.transform_point(DVec3::new(1.0, 0.25, -0.125));
        cp(edge).unwrap();
        // Moved along +axis past A's face (still inside B): outside A by 0.1.
        let out_a = inside + axis * 0.225;
        match cp(out_a) {
            Err(CertificateError::OutsideA(d)) => assert!((d - 0.1).abs() < 1e-9, "{d}"),
            other => panic!("expected OutsideA, got {other:?}"),
        }
        // Moved along −axis past B's face (still inside A): outside B by 0.1.
        let out_b = inside - axis * 0.225;
        match cp(out_b) {
            Err(CertificateError::OutsideB(d)) => assert!((d - 0.1).abs() < 1e-9, "{d}"),
            other => panic!("expected OutsideB, got {other:?}"),
        }
        // Just beyond the tolerance is rejected, just within is accepted.
        let side = pa.transform_vector(DVec3::Y);
        let on_side = pa.transform_point(DVec3::new(0.875, 0.75, -0.125));
        cp(on_side + side * (0.5 * TOL)).unwrap();
        assert!(matches!(
            cp(on_side + side * (10.0 * TOL)),
            Err(CertificateError::OutsideA(_))
        ));
    }
}

#[test]
fn curved_shapes_common_points() {
    let s = Ball::<DVec3>::new(1.0).unwrap();
    let pa = Pose3::IDENTITY;
    let pb = Pose3::from_translation(DVec3::new(1.5, 0.0, 0.0)).unwrap();
    let cp = |p: DVec3| verify_common_point(&s, &pa, &s, &pb, &CommonPoint { point: p }, TOL);
    cp(DVec3::new(0.75, 0.0, 0.0)).unwrap();
    cp(DVec3::new(0.75, 0.6, 0.0)).unwrap();
    match cp(DVec3::new(0.75, 0.67, 0.0)) {
        Err(CertificateError::OutsideA(d)) => {
            let exact = DVec3::new(0.75, 0.67, 0.0).length() - 1.0;
            assert!((d - exact).abs() < 1e-9, "{d} vs {exact}");
        }
        other => panic!("expected OutsideA, got {other:?}"),
    }
    // Separated spheres: the centre line is the exact axis, the gap is 1.
    let pc = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap();
    let ok = SeparatingAxis {
        axis: DVec3::X,
        gap: 1.0,
    };
    verify_separating_axis(&s, &pa, &s, &pc, &ok, TOL).unwrap();
    let tilted = SeparatingAxis {
        axis: DVec3::new(1.0, 1e-3, 0.0).normalize(),
        gap: 1.0,
    };
    assert!(matches!(
        verify_separating_axis(&s, &pa, &s, &pc, &tilted, TOL),
        Err(CertificateError::AxisViolated(_))
    ));
}

#[test]
fn gjk_certificates_verify_and_their_forgeries_do_not() {
    let mut accepted = 0;
    for case in 0..400u64 {
        let mut r = case_rng(0xCE49, case);
        let a = Points::new(&random_hull3(&mut r, 4..=40, 0.5..=2.0)).unwrap();
        let b = Points::new(&random_hull3(&mut r, 4..=40, 0.5..=2.0)).unwrap();
        let pose_a = random_pose3(&mut r, if case % 4 == 0 { 1e6 } else { 10.0 });
        let regime = [Regime::Far, Regime::Deep, Regime::Overlap][(case % 3) as usize];
        let (rot, u) = (random_quat(&mut r), unit_vector3(&mut r));
        let pl = place_in_regime(&mut r, &a, &pose_a, &b, rot, u, regime);
        let pb = pl.pose_b;
        let tol = tolerance_for(&a, &pose_a, &b, &pb);
        let d = distance(&a, &pose_a, &b, &pb, &Options::default(), None);
        let i = intersects(&a, &pose_a, &b, &pb, &Options::default(), None);
        for v in [d.verdict, i.verdict] {
            verify(&a, &pose_a, &b, &pb, &v, tol)
                .unwrap_or_else(|e| panic!("case {case}: true certificate rejected: {e} {v:?}"));
            accepted += 1;
        }
        match d.verdict {
            Verdict::Separated(s) => {
                // The gap of a converged distance query is the distance: adding 1e-6 × scale
                // overclaims.
                let scale = a.size() + b.size();
                let more = SeparatingAxis {
                    axis: s.axis,
                    gap: s.gap + 1e-6 * scale,
                };
                assert!(
                    verify(&a, &pose_a, &b, &pb, &Verdict::Separated(more), tol).is_err(),
                    "case {case}: overclaimed gap accepted"
                );
                let flipped = SeparatingAxis {
                    axis: -s.axis,
                    gap: s.gap,
                };
                assert!(verify(&a, &pose_a, &b, &pb, &Verdict::Separated(flipped), tol).is_err());
            }
            Verdict::Intersecting(c) => {
                // Move the common point out through A's support plane along a random direction.
                let n = unit_vector3(&mut r);
                let out = pose_a.transform_point(a.support(pose_a.inverse_transform_vector(n)))
                    + n * (0.05 * a.size());
                let forged = CommonPoint { point: out };
                assert!(
                    matches!(
                        verify_common_point(&a, &pose_a, &b, &pb, &forged, tol),
                        Err(CertificateError::OutsideA(_))
                    ),
                    "case {case}: point outside A accepted (true point {c:?})"
                );
            }
            Verdict::Undetermined => {}
        }
    }
    assert_eq!(accepted, 800);
}

#[test]
fn two_dimensional_certificates() {
    for case in 0..200u64 {
        let mut r = case_rng(0xCE4A, case);
        let a = Points::new(&circle_points(&mut r, 3 + (case % 12) as usize, 1.0)).unwrap();
        let b = Points::new(&circle_points(&mut r, 3 + (case % 5) as usize, 0.7)).unwrap();
        let pa = random_pose2(&mut r, 2.0);
        let pb: Pose2 = random_pose2(&mut r, 2.0);
        let d = distance(&a, &pa, &b, &pb, &Options::default(), None);
        let tol = tolerance_for(&a, &pa, &b, &pb);
        verify(&a, &pa, &b, &pb, &d.verdict, tol).unwrap_or_else(|e| panic!("case {case}: {e}"));
        if let Verdict::Separated(s) = d.verdict {
            let rot = convexity::Rot2::from_angle(1e-2);
            use convexity::Rotation;
            let tilted = SeparatingAxis {
                axis: rot.rotate(s.axis),
                gap: s.gap,
            };
            let over = SeparatingAxis {
                axis: s.axis,
                gap: s.gap * 1.01 + 1e-6,
            };
            assert!(verify(&a, &pa, &b, &pb, &Verdict::Separated(over), tol).is_err());
            // A tilted axis may still separate (vertex–vertex contacts have slack), but never
            // with a gap above the true distance.
            if verify(&a, &pa, &b, &pb, &Verdict::Separated(tilted), tol).is_ok() {
                assert!(tilted.gap <= d.distance + tol);
            }
        }
    }
}

/// A needle-shaped hull: eight points along `axis` within `±len` of `centre`, at most `width`
/// off the axis (aspect `len / width`).
fn needle<R: Rng>(r: &mut R, centre: DVec3, len: f64, width: f64) -> Points<DVec3> {
    let axis = unit_vector3(r);
    let f = axis.any_orthonormal_vector();
    let g = axis.cross(f);
    let pts: Vec<DVec3> = (0..8)
        .map(|_| {
            centre
                + axis * r.gen_range(-len..len)
                + f * r.gen_range(-width..width)
                + g * r.gen_range(-width..width)
        })
        .collect();
    Points::new(&pts).unwrap()
}

/// The needle regressions' check: GJK's boolean query finds a common point, the hull oracle puts
/// it in `hull` (one of the two shapes, at its pose) to within a thousandth of the pair's
/// tolerance, and the checker accepts it.
fn common_point_in_hull_verifies<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(
    a: &A,
    pa: &Pose3,
    b: &B,
    pb: &Pose3,
    hull: (&Points<DVec3>, &Pose3),
) {
    let tol = tolerance_for(a, pa, b, pb);
    let res = intersects(a, pa, b, pb, &Options::default(), None);
    let Verdict::Intersecting(c) = res.verdict else {
        panic!("expected a common point, got {:?}", res.verdict)
    };
    let world = convexity_testkit::hull_oracle::world_points(hull.0, hull.1);
    let d = convexity_testkit::hull_oracle::point_hull_distance(c.point, &world).unwrap();
    assert!(
        d.distance <= 1e-3 * tol,
        "oracle: {} outside the hull",
        d.distance
    );
    verify(a, pa, b, pb, &res.verdict, tol).unwrap();
}

/// Regression (case "needle hull, flat GJK simplex"): an 8-point hull 500 long and 1e-4 wide
/// crossing a long segment. The common point GJK reports is inside the hull (the hull oracle
/// puts it 4e-15 away), but the checker's own search rebuilt it from GJK's signed-volume
/// weights of a nearly flat tetrahedron, 4.2e-5 off, and rejected it (`OutsideA`); the checker
/// now re-solves the weights by least squares.
#[test]
fn needle_hull_common_point_verifies() {
    let a = Points::new(&[
        DVec3::new(145.36218794986516, -205.68575952654007, 48.481747619119226),
        DVec3::new(15.37720625814683, -21.605962935248925, 5.04694715526607),
        DVec3::new(-47.729698400654726, 67.7636169094482, -16.040379218961487),
        DVec3::new(96.62236070897653, -136.66227223572577, 32.19519436321151),
        DVec3::new(-99.11296249551648, 140.53066139042343, -33.210227744072796),
        DVec3::new(-3.5597507659204712, 5.2118362540162355, -1.280895895121371),
        DVec3::new(124.29467464937505, -175.8507471237641, 41.44197747914654),
        DVec3::new(22.077860699332128, -31.095172126007537, 7.285988087331174),
    ])
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(
            -0.06831427662122394,
            -0.9204366416875249,
            0.3848760167231907,
        ),
        DQuat::from_xyzw(
            -0.5997104040467283,
            0.4569109254208322,
            0.33259484643902354,
            -0.5665337638935487,
        ),
    )
    .unwrap();
    let b = convexity::Segment::new(
        DVec3::new(-27.660095387277675, 44.2382624219164, 45.654129444821095),
        DVec3::new(27.65802622524112, -43.60122159049406, -46.92739015504182),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(
            -0.9295748725430424,
            -2.2783398085936053,
            -1.5657683359086962,
        ),
        DQuat::from_xyzw(
            -0.1453957125793544,
            -0.2554219270455271,
            -0.8611125198384318,
            0.4148553412038918,
        ),
    )
    .unwrap();
    common_point_in_hull_verifies(&a, &pa, &b, &pb, (&a, &pa));
}

/// Regression (case "needle hull, stalled search"): a 150-long segment crossing an 8-point
/// hull 730 long and about 1e-5 wide (aspect 7e7), 900 from the origin. GJK's common point
/// is in the hull (hull oracle: 4e-15), but the checker's point-to-hull search stalled
/// (`Degenerate`) 1.4e-6 from it, over the 4.3e-7 tolerance; the checker now also tries every
/// four of the search's latest support points.
#[test]
fn needle_hull_common_point_verifies_after_a_stalled_search() {
    let a = convexity::Segment::new(
        DVec3::new(74.3050330633617, -74.16820039977074, -14.365066255762018),
        DVec3::new(-73.71559853954939, 73.31682895427008, 15.37612529886995),
    )
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(-656.4006189153687, -663.3749615832538, -359.26576212038015),
        DQuat::from_xyzw(
            -0.7694634489938182,
            0.07325339604670188,
            0.43857337658144907,
            -0.4584902768697603,
        ),
    )
    .unwrap();
    let b = Points::new(&[
        DVec3::new(-7.948293230849302, 5.467661852587071, -1.1428838410515887),
        DVec3::new(32.96143844276588, -24.731470393144424, 6.199988456608833),
        DVec3::new(51.002148818449136, -38.048928852100204, 9.438107449229683),
        DVec3::new(-52.2142544708194, 38.14431020181524, -9.08816166417194),
        DVec3::new(-146.7654899295904, 107.94102874721816, -26.059126723426708),
        DVec3::new(270.6796242525056, -200.21249225194384, 48.8679278479306),
        DVec3::new(-143.90906184811413, 105.8324399738591, -25.546425519319047),
        DVec3::new(78.00410270677864, -57.98148457415347, 14.28468117006489),
    ])
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(-655.2391145688616, -663.7103525713902, -357.31640788500556),
        DQuat::from_xyzw(
            -0.5995332777906074,
            -0.3706768971562544,
            0.5716960408207564,
            -0.4199072798203598,
        ),
    )
    .unwrap();
    common_point_in_hull_verifies(&a, &pa, &b, &pb, (&b, &pb));
}

/// Needle hulls of aspect 1e4 to 1e7 (lengths 1 to 1000) against needles, segments and balls,
/// moved to signed distances of ±1e-9 to ±1e-6 (scaled with the offset) and to exact touching:
/// every distance and boolean certificate given verifies (an undetermined verdict is allowed
/// only rarely), and a common point the checker accepts is
/// in both hulls by the hull oracle. (Before the checker re-solved its witness weights, about
/// 0.7% of the pairs of aspect 1e6 to 1e7 had a true common point rejected. From aspect 1e7 on
/// the search itself can stall, and answers are withdrawn rather than wrong: not tested here.)
#[test]
fn needle_hull_certificates_near_contact_verify() {
    let mut r = case_rng(0x0EED1E, 0);
    let (mut intersecting, mut undetermined) = (0, 0);
    for i in 0..4000 {
        let len = 10f64.powf(r.gen_range(0.0..3.0));
        let width = len * 10f64.powf(-r.gen_range(4.0..7.0));
        let centre = unit_vector3(&mut r);
        let a = needle(&mut r, centre, len, width);
        let offset = [0.0, 1.0, 1e3][i % 3];
        let pa = random_pose3(&mut r, offset);
        let bl = 10f64.powf(r.gen_range(-1.0..2.0));
        let bw = bl * 10f64.powf(-r.gen_range(0.0..5.0));
        let b = needle(&mut r, DVec3::ZERO, bl, bw);
        let pb0 = Pose3::new(
            pa.translation() + unit_vector3(&mut r) * r.gen_range(0.0..3.0),
            random_quat(&mut r),
        )
        .unwrap();
        let opts = Options::default();
        let d0 = distance(&a, &pa, &b, &pb0, &opts, None);
        let target = [1e-9, 1e-8, 1e-7, 1e-6, -1e-9, -1e-8, -1e-7, -1e-6, 0.0][r.gen_range(0..9)]
            * (1.0 + offset * 1e-3);
        let shift = d0.normal * (target - d0.lower_bound);
        let pb = Pose3::new(pb0.translation() + shift, pb0.rotation()).unwrap();
        let tol = tolerance_for(&a, &pa, &b, &pb);
        let msg = || format!("pair {i}: {a:?} at {pa:?} vs {b:?} at {pb:?}");
        for v in [
            distance(&a, &pa, &b, &pb, &opts, None).verdict,
            intersects(&a, &pa, &b, &pb, &opts, None).verdict,
        ] {
            if v == Verdict::Undetermined {
                undetermined += 1;
                continue;
            }
            verify(&a, &pa, &b, &pb, &v, tol)
                .unwrap_or_else(|e| panic!("{}: {v:?} rejected: {e}", msg()));
            if let Verdict::Intersecting(c) = v {
                intersecting += 1;
                for (s, ps) in [(&a, &pa), (&b, &pb)] {
                    let world = convexity_testkit::hull_oracle::world_points(s, ps);
                    let o = convexity_testkit::hull_oracle::point_hull_distance(c.point, &world)
                        .unwrap();
                    assert!(o.distance <= tol, "{}: oracle {}", msg(), o.distance);
                }
            }
        }
    }
    assert!(intersecting > 2000, "{intersecting}");
    // GJK may give up on the thinnest (one pair of aspect 8.7e6 here): honest, but rare.
    assert!(undetermined <= 4, "{undetermined} undetermined verdicts");
}
