//! Metamorphic properties of GJK (proptest, fixed case counts and seeds).
//!
//! Here the property *is* self-consistency: symmetry `d(A,B) = d(B,A)`; invariance under a
//! rigid motion of both shapes; `d(sA, sB) = s·d(A, B)` (bit for bit for powers of two, to
//! the tolerance otherwise); invariance under vertex permutation and duplication; every
//! certificate verifies; the boolean and distance queries agree on the verdict outside the
//! tolerance band. 3D and 2D.

use convexity::gjk::{distance, intersects, Distance, Options};
use convexity::math::vector::Vector;
use convexity::{verify, DVec2, DVec3, Points, Pose, Pose2, Pose3, SupportMap};
use convexity_testkit::degenerate::shuffle;
use convexity_testkit::rng::{rng, Rng};
use convexity_testkit::strategies::{hull2, hull3, pose2, pose3, regime, unit2, unit3};
use convexity_testkit::{gen2, gen3, place_in_regime, Regime};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A pair of hulls placed in a regime (B's rotation drawn from `seed`).
fn placed<V: Vector>(
    a: &[V],
    b: &[V],
    pose_a: Pose<V>,
    rot_b: V::Rotation,
    u: V,
    regime: Regime,
    seed: u64,
) -> (Points<V>, Points<V>, Pose<V>, Pose<V>) {
    let pa = Points::new(a).unwrap();
    let pb = Points::new(b).unwrap();
    let pl = place_in_regime(&mut rng(seed), &pa, &pose_a, &pb, rot_b, u, regime);
    (pa, pb, pose_a, pl.pose_b)
}

fn run<V: Vector>(a: &Points<V>, pa: &Pose<V>, b: &Points<V>, pb: &Pose<V>) -> Distance<V> {
    distance(a, pa, b, pb, &Options::default(), None)
}

fn scale_of<V: Vector>(a: &Points<V>, b: &Points<V>) -> f64 {
    a.size() + b.size()
}

/// Distance, certificates and boolean agreement for one pair.
fn certificates_and_agreement<V: Vector>(
    a: &Points<V>,
    pa: &Pose<V>,
    b: &Points<V>,
    pb: &Pose<V>,
) -> Result<(), TestCaseError> {
    let scale = scale_of(a, b);
    let eps = 1e-9 * scale;
    let tol = Options::default().rel_tolerance * scale;
    let d = run(a, pa, b, pb);
    let i = intersects(a, pa, b, pb, &Options::default(), None);
    prop_assert!(d.distance.is_finite() && d.distance >= 0.0, "{:?}", d);
    if d.intersecting().is_some() {
        prop_assert!(
            verify(a, pa, b, pb, &d.verdict, eps).is_ok(),
            "distance certificate: {:?}",
            d
        );
    }
    if i.intersecting().is_some() {
        prop_assert!(
            verify(a, pa, b, pb, &i.verdict, eps).is_ok(),
            "boolean certificate: {:?}",
            i
        );
    }
    if d.distance > 2.0 * tol {
        prop_assert_eq!(d.intersecting(), Some(false), "{:?}", d);
        prop_assert_eq!(i.intersecting(), Some(false), "{:?}", i);
    }
    if let (Some(x), Some(y)) = (d.intersecting(), i.intersecting()) {
        prop_assert!(
            x == y || d.distance <= 2.0 * tol,
            "verdicts differ outside the band: {:?} vs {:?}",
            d,
            i
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(96, 0x9E0_0001))]

    #[test]
    fn symmetric_3d(a in hull3(4..=32, 0.5..=2.0), b in hull3(4..=32, 0.5..=2.0),
                    pose_a in pose3(10.0), rot in pose3(0.0), u in unit3(), reg in regime(),
                    seed in any::<u64>()) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let ab = run(&a, &pa, &b, &pb);
        let ba = run(&b, &pb, &a, &pa);
        let eps = 1e-9 * scale_of(&a, &b);
        prop_assert!((ab.distance - ba.distance).abs() <= eps, "{:?} vs {:?}", ab, ba);
        let tol = Options::default().rel_tolerance * scale_of(&a, &b);
        if ab.distance > 2.0 * tol || ba.distance > 2.0 * tol {
            prop_assert_eq!(ab.intersecting(), ba.intersecting());
        }
        if ab.intersecting() == Some(false) {
            // Swapping the roles swaps the witnesses and flips the normal.
            prop_assert!((ab.point_a - ba.point_b).length() <= eps || ab.distance < 1e-6);
            prop_assert!((ab.normal + ba.normal).length() <= 1e-6 || ab.distance < 1e-6);
        }
    }

    #[test]
    fn rigid_motion_invariant_3d(a in hull3(4..=32, 0.5..=2.0), b in hull3(4..=32, 0.5..=2.0),
                                 pose_a in pose3(10.0), rot in pose3(0.0), u in unit3(),
                                 reg in regime(), seed in any::<u64>(), motion in pose3(100.0)) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let d0 = run(&a, &pa, &b, &pb);
        let (ma, mb) = (motion.compose(&pa), motion.compose(&pb));
        let d1 = run(&a, &ma, &b, &mb);
        let eps = 1e-9 * scale_of(&a, &b);
        prop_assert!((d0.distance - d1.distance).abs() <= eps, "{:?} vs {:?}", d0, d1);
        if d0.intersecting() == Some(false) && d0.distance > 1e-6 {
            // World-frame outputs move with the motion.
            prop_assert!((motion.transform_point(d0.point_a) - d1.point_a).length() <= 1e-6);
            prop_assert!((motion.transform_vector(d0.normal) - d1.normal).length() <= 1e-6);
        }
    }

    #[test]
    fn scaling_3d(a in hull3(4..=32, 0.5..=2.0), b in hull3(4..=32, 0.5..=2.0),
                  pose_a in pose3(10.0), rot in pose3(0.0), u in unit3(), reg in regime(),
                  seed in any::<u64>(), k in -30i32..=30, s in 0.01f64..100.0) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let scaled = |p: &Points<DVec3>, f: f64| Points::new(&p.points().iter().map(|x| *x * f).collect::<Vec<_>>()).unwrap();
        let spose = |p: &Pose3, f: f64| Pose3::new(p.translation() * f, p.rotation()).unwrap();
        // Rebuild the poses the same way for both runs (`Pose3::new` renormalises the rotation,
        // which may change its last bits).
        let (pa0, pb0) = (spose(&pa, 1.0), spose(&pb, 1.0));
        let d0 = run(&a, &pa0, &b, &pb0);
        // A power of two scales every floating-point operation exactly: bit-identical results.
        let f = 2f64.powi(k);
        let d1 = run(&scaled(&a, f), &spose(&pa, f), &scaled(&b, f), &spose(&pb, f));
        prop_assert_eq!(d1.distance, d0.distance * f, "2^{}: {:?} vs {:?}", k, d0, d1);
        prop_assert_eq!(d1.intersecting(), d0.intersecting());
        // Any other factor: to the tolerance.
        let d2 = run(&scaled(&a, s), &spose(&pa, s), &scaled(&b, s), &spose(&pb, s));
        let eps = 1e-9 * s * scale_of(&a, &b);
        prop_assert!((d2.distance - s * d0.distance).abs() <= eps, "x{}: {:?} vs {:?}", s, d0, d2);
    }

    #[test]
    fn permutation_and_duplicates_invariant_3d(a in hull3(4..=32, 0.5..=2.0),
                                               b in hull3(4..=32, 0.5..=2.0),
                                               pose_a in pose3(10.0), rot in pose3(0.0),
                                               u in unit3(), reg in regime(),
                                               seed in any::<u64>()) {
        let (pa_pts, pb_pts, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let d0 = run(&pa_pts, &pa, &pb_pts, &pb);
        let mut r = rng(seed ^ 0xD00D);
        let mut a2 = a.clone();
        let mut b2 = b.clone();
        shuffle(&mut r, &mut a2);
        shuffle(&mut r, &mut b2);
        let n_dup = r.gen_range(1..20);
        let a3 = convexity_testkit::degenerate::with_duplicates(&mut r, &a2, n_dup);
        let eps = 1e-9 * scale_of(&pa_pts, &pb_pts);
        let d1 = run(&Points::new(&a2).unwrap(), &pa, &Points::new(&b2).unwrap(), &pb);
        prop_assert!((d0.distance - d1.distance).abs() <= eps, "permuted: {:?} vs {:?}", d0, d1);
        let d2 = run(&Points::new(&a3).unwrap(), &pa, &Points::new(&b2).unwrap(), &pb);
        prop_assert!((d0.distance - d2.distance).abs() <= eps, "duplicated: {:?} vs {:?}", d0, d2);
    }

    #[test]
    fn certificates_verify_and_verdicts_agree_3d(a in hull3(1..=40, 0.1..=3.0),
                                                 b in hull3(1..=40, 0.1..=3.0),
                                                 pose_a in pose3(100.0), rot in pose3(0.0),
                                                 u in unit3(), reg in regime(),
                                                 seed in any::<u64>()) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        certificates_and_agreement(&a, &pa, &b, &pb)?;
    }
}

proptest! {
    #![proptest_config(config(96, 0x9E0_0002))]

    #[test]
    fn symmetric_2d(a in hull2(3..=24, 0.5..=2.0), b in hull2(3..=24, 0.5..=2.0),
                    pose_a in pose2(10.0), rot in pose2(0.0), u in unit2(), reg in regime(),
                    seed in any::<u64>()) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let ab = run(&a, &pa, &b, &pb);
        let ba = run(&b, &pb, &a, &pa);
        let eps = 1e-9 * scale_of(&a, &b);
        prop_assert!((ab.distance - ba.distance).abs() <= eps, "{:?} vs {:?}", ab, ba);
    }

    #[test]
    fn rigid_motion_invariant_2d(a in hull2(3..=24, 0.5..=2.0), b in hull2(3..=24, 0.5..=2.0),
                                 pose_a in pose2(10.0), rot in pose2(0.0), u in unit2(),
                                 reg in regime(), seed in any::<u64>(), motion in pose2(100.0)) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let d0 = run(&a, &pa, &b, &pb);
        let d1 = run(&a, &motion.compose(&pa), &b, &motion.compose(&pb));
        let eps = 1e-9 * scale_of(&a, &b);
        prop_assert!((d0.distance - d1.distance).abs() <= eps, "{:?} vs {:?}", d0, d1);
    }

    #[test]
    fn scaling_2d(a in hull2(3..=24, 0.5..=2.0), b in hull2(3..=24, 0.5..=2.0),
                  pose_a in pose2(10.0), rot in pose2(0.0), u in unit2(), reg in regime(),
                  seed in any::<u64>(), k in -30i32..=30) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        let f = 2f64.powi(k);
        let scaled = |p: &Points<DVec2>| Points::new(&p.points().iter().map(|x| *x * f).collect::<Vec<_>>()).unwrap();
        let spose = |p: &Pose2, f: f64| Pose2::new(p.translation() * f, p.rotation()).unwrap();
        let (pa0, pb0) = (spose(&pa, 1.0), spose(&pb, 1.0));
        let d0 = run(&a, &pa0, &b, &pb0);
        let d1 = run(&scaled(&a), &spose(&pa, f), &scaled(&b), &spose(&pb, f));
        prop_assert_eq!(d1.distance, d0.distance * f, "2^{}: {:?} vs {:?}", k, d0, d1);
    }

    #[test]
    fn certificates_verify_and_verdicts_agree_2d(a in hull2(1..=30, 0.1..=3.0),
                                                 b in hull2(1..=30, 0.1..=3.0),
                                                 pose_a in pose2(100.0), rot in pose2(0.0),
                                                 u in unit2(), reg in regime(),
                                                 seed in any::<u64>()) {
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot.rotation(), u, reg, seed);
        certificates_and_agreement(&a, &pa, &b, &pb)?;
    }
}

/// Random polygons (not just hulls of random points) through the same 2D checks.
#[test]
fn polygons_certificates_2d() {
    for case in 0..200u64 {
        let mut r = rng(0x9E0_0003 ^ case);
        let a = gen2::circle_points(&mut r, 3 + (case % 20) as usize, 1.0);
        let b = gen2::circle_points(&mut r, 3 + (case % 7) as usize, 0.5);
        let pose_a = gen2::random_pose2(&mut r, 5.0);
        let rot = gen2::random_rot2(&mut r);
        let u = gen2::unit_vector2(&mut r);
        let reg = Regime::ALL[(case % 5) as usize];
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot, u, reg, case);
        certificates_and_agreement(&a, &pa, &b, &pb).unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
}

/// Boxes as 8-point hulls in every regime through the 3D checks.
#[test]
fn box_hulls_certificates_3d() {
    for case in 0..200u64 {
        let mut r = rng(0x9E0_0004 ^ case);
        let a = gen3::box_corners3(gen3::half_extents3(&mut r, 0.1, 1.0));
        let b = gen3::box_corners3(gen3::half_extents3(&mut r, 0.1, 1.0));
        let pose_a = gen3::random_pose3(&mut r, 5.0);
        let rot = gen3::random_quat(&mut r);
        let u = gen3::unit_vector3(&mut r);
        let reg = Regime::ALL[(case % 5) as usize];
        let (a, b, pa, pb) = placed(&a, &b, pose_a, rot, u, reg, case);
        certificates_and_agreement(&a, &pa, &b, &pb).unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
}
