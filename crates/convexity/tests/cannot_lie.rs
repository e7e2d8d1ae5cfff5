//! Issue 14: certificates that cannot lie. Every case the issue found is a named test here, and
//! the acceptance sweep runs equal boxes with parallel faces through every exact method.

use convexity::gjk::certificate::tolerance_for;
use convexity::query::{self, Method};
use convexity::*;
use convexity_testkit::gen3::random_quat;
use convexity_testkit::rng::case_rng;

/// Unit boxes (half-extent 0.5) with parallel faces, at a common rotation `q`, A centred at
/// `offset·(1,1,1)` and B beyond A's +x face (in the rotated frame) by `gap`.
fn parallel_boxes(offset: f64, gap: f64, q: DQuat) -> (Cuboid<DVec3>, Pose3, Cuboid<DVec3>, Pose3) {
    let c = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let ta = DVec3::splat(offset);
    let pa = Pose3::new(ta, q).unwrap();
    let pb = Pose3::new(ta + q * DVec3::new(1.0 + gap, 0.0, 0.0), q).unwrap();
    (c, pa, c, pb)
}

/// Exact methods that apply to two boxes in 3D.
fn exact_box_methods() -> Vec<Method> {
    Method::ALL
        .iter()
        .copied()
        .filter(|m| !m.is_approximate() && *m != Method::TriTri)
        .collect()
}

#[test]
#[ignore]
fn probe_table() {
    for offset in [0.0, 1e3, 1e6, 1e9] {
        for gap in [1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2] {
            let q = DQuat::IDENTITY;
            let (a, pa, b, pb) = parallel_boxes(offset, gap, q);
            let tol = tolerance_for(&a, &pa, &b, &pb);
            for m in exact_box_methods() {
                let o = query::run(m, &a, &pa, &b, &pb);
                match o {
                    Ok(o) => {
                        let v = verify(&a, &pa, &b, &pb, &o.verdict, tol);
                        println!(
                            "off {offset:e} gap {gap:e} tol {tol:.1e} {:16} {:?} {:?} verify {:?} mtol {:.1e}",
                            m.name(),
                            o.verdict.intersecting(),
                            o.status,
                            v.is_ok(),
                            o.tolerance
                        );
                    }
                    Err(e) => println!("off {offset:e} gap {gap:e} {:16} skip {e}", m.name()),
                }
            }
        }
    }
}

/// The gaps the sweep uses at `offset`: from `max(1e4 ulps of the offset, 5 touch
/// tolerances)` to 1e-2, geometrically.
fn sweep_gaps(offset: f64, tol: f64) -> Vec<f64> {
    let lo = (1e4 * f64::EPSILON * offset).max(5.0 * tol);
    let steps = 6;
    (0..=steps)
        .map(|k| lo * (1e-2 / lo).powf(k as f64 / steps as f64))
        .collect()
}

/// Issue 14 acceptance: equal boxes with parallel faces at a random common rotation, offsets 0,
/// 1e3, 1e6, 1e9, gaps from 1e4 ulps of the offset (or 5 touch tolerances) to 1e-2, through
/// every exact method via `query::run`: every method answers separated with a certificate that
/// verifies; none answers undetermined.
#[test]
fn sweep_parallel_faces_every_exact_method_separates_with_a_verified_certificate() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for (k, offset) in [0.0, 1e3, 1e6, 1e9].into_iter().enumerate() {
        for seed in 0..3 {
            let mut r = case_rng(0x14_5EE7, (k * 10 + seed) as u64);
            let q = random_quat(&mut r);
            let (a, pa, b, pb) = parallel_boxes(offset, 1e-2, q);
            let tol = tolerance_for(&a, &pa, &b, &pb);
            for gap in sweep_gaps(offset, tol) {
                let (a, pa, b, pb) = parallel_boxes(offset, gap, q);
                for m in exact_box_methods() {
                    runs += 1;
                    match query::run(m, &a, &pa, &b, &pb) {
                        Ok(o) => {
                            let ok = matches!(o.verdict, Verdict::Separated(_))
                                && o.check.verified()
                                && verify(&a, &pa, &b, &pb, &o.verdict, tol).is_ok();
                            if !ok {
                                failures.push(format!(
                                    "offset {offset:e} gap {gap:.3e} (tol {tol:.1e}) seed {seed}: {} {:?} {:?} {}",
                                    m.name(),
                                    o.verdict.intersecting(),
                                    o.status,
                                    o.check.describe()
                                ));
                            }
                        }
                        Err(e) => failures.push(format!(
                            "offset {offset:e} gap {gap:.3e} seed {seed}: {} skipped: {e}",
                            m.name()
                        )),
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} answers not separated-and-verified:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn unit_box() -> Cuboid<DVec3> {
    Cuboid::new(DVec3::splat(0.5)).unwrap()
}

fn at(x: f64, y: f64, z: f64) -> Pose3 {
    Pose3::from_translation(DVec3::new(x, y, z)).unwrap()
}

/// Runs `m` on the pair and returns the outcome after asserting its certificate verifies at the
/// pair's touch tolerance.
fn run_verified(
    m: Method,
    a: &(impl convexity::shape::Polytope<DVec3> + ?Sized),
    pa: &Pose3,
    b: &(impl convexity::shape::Polytope<DVec3> + ?Sized),
    pb: &Pose3,
) -> convexity::query::Outcome<DVec3> {
    let o = query::run(m, a, pa, b, pb).unwrap();
    let tol = tolerance_for(a, pa, b, pb);
    assert!(o.check.verified(), "{}: {o:?}", m.name());
    verify(a, pa, b, pb, &o.verdict, tol).unwrap();
    assert_eq!(
        o.tolerance,
        tol,
        "{}: the one touch tolerance is reported",
        m.name()
    );
    o
}

/// Issue 14, found 1: Fourier–Motzkin said intersecting (common point 0.005 outside both boxes)
/// for unit boxes 0.01 apart at (1e9, 1e9, 1e9).
#[test]
fn fourier_motzkin_boxes_a_hundredth_apart_at_1e9_are_separated() {
    let c = unit_box();
    let o = run_verified(
        Method::FourierMotzkin,
        &c,
        &at(1e9, 1e9, 1e9),
        &c,
        &at(1e9 + 1.01, 1e9, 1e9),
    );
    assert_eq!(o.verdict.intersecting(), Some(false), "{o:?}");
}

/// Issue 14, found 1: at offset 1e6 Fourier–Motzkin said intersecting for gaps 1e-6 and 1e-5.
#[test]
fn fourier_motzkin_gaps_1e6_and_1e5_at_offset_1e6_are_separated() {
    let c = unit_box();
    for gap in [1e-6, 1e-5] {
        let pb = at(1e6 + 1.0 + gap, 1e6, 1e6);
        let o = run_verified(Method::FourierMotzkin, &c, &at(1e6, 1e6, 1e6), &c, &pb);
        assert_eq!(o.verdict.intersecting(), Some(false), "gap {gap}: {o:?}");
    }
}

/// Issue 14, found 2: LP, lp-reference and Seidel said intersecting for parallel faces 1e-9
/// apart with common points outside both boxes. 1e-9 is inside the touch band (the pair's
/// tolerance is 1.7e-9), where either answer is allowed but its certificate must verify;
/// 1e-8 (about 6 tolerances) must be separated by every method.
#[test]
fn lp_methods_and_seidel_parallel_faces_1e9_apart_certificates_verify() {
    let c = unit_box();
    for m in [
        Method::Lp,
        Method::LpReference,
        Method::Seidel,
        Method::FourierMotzkin,
    ] {
        let o = run_verified(m, &c, &at(0.0, 0.0, 0.0), &c, &at(1.0 + 1e-9, 0.0, 0.0));
        assert!(o.verdict.intersecting().is_some(), "{}: {o:?}", m.name());
        let o = run_verified(m, &c, &at(0.0, 0.0, 0.0), &c, &at(1.0 + 1e-8, 0.0, 0.0));
        assert_eq!(o.verdict.intersecting(), Some(false), "{}: {o:?}", m.name());
    }
}

/// Issue 14, found 3: Seidel was undetermined ("degenerate") at offset 1e9 for gaps 1e-3 and
/// 1e-2.
#[test]
fn seidel_at_offset_1e9_separates_gaps_1e3_and_1e2() {
    let c = unit_box();
    for gap in [1e-3, 1e-2] {
        let pb = at(1e9 + 1.0 + gap, 1e9, 1e9);
        let o = run_verified(Method::Seidel, &c, &at(1e9, 1e9, 1e9), &c, &pb);
        assert_eq!(o.verdict.intersecting(), Some(false), "gap {gap}: {o:?}");
    }
}

/// Issue 14, found 3: lp-reference was undetermined for a needle inside a box.
#[test]
fn lp_reference_needle_inside_a_box_is_intersecting() {
    let needle = Points::new(&[
        DVec3::new(-1.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.0, 1e-9, 0.0),
        DVec3::new(0.0, 0.0, 1e-9),
    ])
    .unwrap();
    let o = run_verified(
        Method::LpReference,
        &needle,
        &Pose3::IDENTITY,
        &unit_box(),
        &at(0.0, 0.2, 0.3),
    );
    assert_eq!(o.verdict.intersecting(), Some(true), "{o:?}");
}

/// Issue 14, found 3: lp-reference was undetermined for a 1e-6 gap at offsets 1e3 and 1e6.
#[test]
fn lp_reference_gap_1e6_at_offsets_1e3_and_1e6_is_separated() {
    let c = unit_box();
    for offset in [1e3, 1e6] {
        let pa = at(offset, offset, offset);
        let pb = at(offset + 1.0 + 1e-6, offset, offset);
        let o = run_verified(Method::LpReference, &c, &pa, &c, &pb);
        assert_eq!(
            o.verdict.intersecting(),
            Some(false),
            "offset {offset}: {o:?}"
        );
    }
}

/// Issue 14, found 3: gjk-nd returned `intersecting: null` with status converged for unit boxes
/// 1e-9 apart (the distance right, the certificate missing).
#[test]
fn gjk_nd_unit_boxes_1e9_apart_are_separated_with_a_certificate() {
    let c = unit_box();
    let o = run_verified(
        Method::GjkNd,
        &c,
        &at(0.0, 0.0, 0.0),
        &c,
        &at(1.0 + 1e-9, 0.0, 0.0),
    );
    assert_eq!(o.verdict.intersecting(), Some(false), "{o:?}");
    assert_eq!(o.status, Status::Converged);
}

/// Check before you speak: a certificate that fails is withdrawn, and the check names why.
#[test]
fn a_certificate_that_fails_is_withdrawn_with_the_failed_check() {
    use convexity::gjk::certificate::{checked, Check};
    let c = unit_box();
    let (pa, pb) = (at(0.0, 0.0, 0.0), at(1.01, 0.0, 0.0));
    // A "common point" 0.005 outside both boxes, as Fourier–Motzkin printed.
    let forged = Verdict::Intersecting(CommonPoint {
        point: DVec3::new(0.505, 0.0, 0.0),
    });
    let (v, check, tol) = checked(&c, &pa, &c, &pb, forged);
    assert_eq!(v, Verdict::Undetermined);
    assert!(matches!(check, Check::Rejected(_)), "{check:?}");
    assert!(
        check.describe().starts_with("rejected: point lies"),
        "{}",
        check.describe()
    );
    assert_eq!(tol, tolerance_for(&c, &pa, &c, &pb));
    let true_axis = Verdict::Separated(SeparatingAxis {
        axis: DVec3::X,
        gap: 0.01,
    });
    assert_eq!(checked(&c, &pa, &c, &pb, true_axis).1, Check::Verified);
}

/// The checker re-derives a common point from the shape's own support function: a witness whose
/// directions were tampered with, whose weights are negative or all zero, is rejected.
#[test]
fn checker_rejects_a_corrupted_witness() {
    use convexity::gjk::certificate::{find_witness, witnessed_distance};
    let c = unit_box();
    for p in [
        DVec3::new(0.4, 0.3, -0.2),
        DVec3::new(-0.1, 0.45, 0.2),
        DVec3::new(0.5, 0.0, 0.0),
    ] {
        let w = find_witness(&c, p).unwrap();
        assert!(
            witnessed_distance(&c, p, &w).unwrap() <= 1e-12,
            "{p}: {w:?}"
        );
        // Each direction in turn reversed: the support point moves to the opposite corner and
        // the rebuilt point leaves p.
        for i in 0..w.terms.len() {
            if w.terms[i].1 < 0.05 {
                continue;
            }
            let mut bad = w.clone();
            bad.terms[i].0 = -bad.terms[i].0;
            let d = witnessed_distance(&c, p, &bad).unwrap();
            assert!(d > 1e-3, "{p}, term {i}: {d}");
        }
        let mut neg = w.clone();
        neg.terms[0].1 = -0.5;
        assert_eq!(witnessed_distance(&c, p, &neg), None);
        let mut zero = w.clone();
        zero.terms.iter_mut().for_each(|t| t.1 = 0.0);
        assert_eq!(witnessed_distance(&c, p, &zero), None);
    }
}

/// Shifted points and rotated axes are rejected at every offset of the sweep.
#[test]
fn checker_rejects_shifted_points_and_rotated_axes() {
    for (k, offset) in [0.0, 1e3, 1e6, 1e9].into_iter().enumerate() {
        for seed in 0..5 {
            let mut r = case_rng(0x14_C4EC, (k * 10 + seed) as u64);
            let q = random_quat(&mut r);
            // Overlapping by 0.1: the middle of the overlap is common; moved out of B along the
            // face normal by 20 tolerances it is not.
            let (a, pa, b, pb) = parallel_boxes(offset, -0.1, q);
            let tol = tolerance_for(&a, &pa, &b, &pb);
            let n = q * DVec3::X;
            let mid = pa.transform_point(DVec3::new(0.45, 0.1, -0.2));
            let ok = Verdict::Intersecting(CommonPoint { point: mid });
            verify(&a, &pa, &b, &pb, &ok, tol).unwrap();
            let out = Verdict::Intersecting(CommonPoint {
                point: pa.transform_point(DVec3::new(0.4, 0.1, -0.2)) - n * (20.0 * tol),
            });
            assert!(
                verify(&a, &pa, &b, &pb, &out, tol).is_err(),
                "{offset} {seed}"
            );
            // Separated by 0.01: the true axis verifies, the axis tilted by 1e-2 rad does not
            // (1e-2 × the face half-width 0.5 is far beyond the gap).
            let (a, pa, b, pb) = parallel_boxes(offset, 1e-2, q);
            let tol = tolerance_for(&a, &pa, &b, &pb);
            let good = Verdict::Separated(SeparatingAxis {
                axis: n,
                gap: 1e-2 - 2.0 * tol,
            });
            verify(&a, &pa, &b, &pb, &good, tol).unwrap();
            let tilt = DQuat::from_axis_angle(q * DVec3::Y, 1e-2);
            let bad = Verdict::Separated(SeparatingAxis {
                axis: (tilt * n).normalize(),
                gap: 1e-2 - 2.0 * tol,
            });
            assert!(
                verify(&a, &pa, &b, &pb, &bad, tol).is_err(),
                "{offset} {seed}"
            );
        }
    }
}

/// Issue 14, found 7: methods state their cost and refuse inputs beyond their practical size
/// (the boundary test ran 577 s on a 100,000-point hull, PSO 66 s on 100k points).
#[test]
fn size_guards_refuse_the_boundary_test_and_pso_on_100k_points_with_the_reason() {
    for m in [Method::Boundary, Method::Pso] {
        match m.check_size(100_000, 8) {
            Err(query::Skip::TooLarge(why)) => {
                assert!(why.contains(m.complexity()), "{why}");
                assert!(
                    why.contains("100000 vertices") && why.contains("force"),
                    "{why}"
                );
            }
            other => panic!("{}: {other:?}", m.name()),
        }
        assert!(m.check_size(8, 8).is_ok());
    }
    for m in Method::ALL {
        assert!(!m.complexity().is_empty());
    }
    assert!(Method::Gjk.check_size(1_000_000, 1_000_000).is_ok());
}

/// The swept TOI of `a` moving with `vel` from `pose_a` against a static `b`; asserts the hit is
/// never late against the analytic time `exact` and that at the returned time the gap (along
/// the known contact axis `axis`, from the analytic extents) is ≥ −tolerance.
fn assert_toi_never_late<V, A, B>(
    a: &A,
    pose_a: Pose<V>,
    vel: V,
    b: &B,
    pose_b: Pose<V>,
    exact: f64,
    gap_at: impl Fn(f64) -> f64,
) where
    V: Vector,
    A: SupportMap<V>,
    B: SupportMap<V>,
{
    use convexity::toi::{swept_toi, SweptOptions, TimeOfImpact};
    let r = swept_toi(
        a,
        &pose_a,
        vel,
        b,
        &pose_b,
        V::ZERO,
        1.0,
        &SweptOptions::default(),
    )
    .unwrap();
    let TimeOfImpact::Hit { toi, .. } = r else {
        panic!("{r:?}")
    };
    let tol = tolerance_for(a, &pose_a, b, &pose_b);
    // Never late beyond rounding: at most the touch tolerance's worth of time.
    assert!(
        toi <= exact + tol / vel.length(),
        "late: toi {toi:e} > exact {exact}"
    );
    let gap = gap_at(toi);
    assert!(gap >= -tol, "toi {toi:e}: the shapes overlap by {:e}", -gap);
    // Early by at most the touch tolerance over the closing speed (a few for rounding).
    assert!(
        exact - toi <= 4.0 * tol / vel.length() + 1e-15,
        "toi {toi:e}"
    );
}

/// Issue 14, found 5: a triangle at (0, 1e6) moving at (0, −2e6) onto a box's top face at y = 0
/// got toi 0.5000000000075626 (exact 0.5), 1.5e-5 inside the floor.
#[test]
fn swept_toi_far_fast_triangle_onto_floor_2d_is_never_late() {
    let tri = Points::new(&[
        DVec2::new(-0.5, 0.0),
        DVec2::new(0.5, 0.0),
        DVec2::new(0.0, 1.0),
    ])
    .unwrap();
    let floor = Cuboid::new(DVec2::new(5.0, 0.5)).unwrap();
    for (y0, speed) in [(1e6, 2e6), (1e3, 2e3), (1e6, 1e3), (123456.789, 3e5)] {
        let exact = y0 / speed;
        if exact > 1.0 {
            continue;
        }
        assert_toi_never_late(
            &tri,
            Pose2::from_translation(DVec2::new(0.0, y0)).unwrap(),
            DVec2::new(0.0, -speed),
            &floor,
            Pose2::from_translation(DVec2::new(0.0, -0.5)).unwrap(),
            exact,
            |t| y0 - speed * t,
        );
    }
}

/// Issue 14, found 5: the same with a 2D box and a 3D cube (5e-6 and 1e-5 inside before).
#[test]
fn swept_toi_far_fast_boxes_2d_and_3d_are_never_late() {
    let floor2 = Cuboid::new(DVec2::new(5.0, 0.5)).unwrap();
    let box2 = Cuboid::new(DVec2::new(0.5, 0.5)).unwrap();
    let floor3 = Cuboid::new(DVec3::new(5.0, 5.0, 0.5)).unwrap();
    for (y0, speed) in [(1e6, 2e6), (1e6 + 0.25, 1.5e6), (1e3, 2e3)] {
        // The box's bottom face starts at y0 − 0.5 + 0.5 = y0.
        let exact = y0 / speed;
        assert_toi_never_late(
            &box2,
            Pose2::from_translation(DVec2::new(0.3, y0 + 0.5)).unwrap(),
            DVec2::new(0.0, -speed),
            &floor2,
            Pose2::from_translation(DVec2::new(0.0, -0.5)).unwrap(),
            exact,
            |t| y0 - speed * t,
        );
        assert_toi_never_late(
            &unit_box(),
            Pose3::from_translation(DVec3::new(0.3, -0.2, y0 + 0.5)).unwrap(),
            DVec3::new(0.0, 0.0, -speed),
            &floor3,
            Pose3::from_translation(DVec3::new(0.0, 0.0, -0.5)).unwrap(),
            exact,
            |t| y0 - speed * t,
        );
    }
}

/// Found by the sweep: V-Clip cycled between parallel faces (random common rotation, offset
/// 1e3 and 1e9, gap 1e-2) until its step cap and answered undetermined; at the cap it now tries
/// the current pair's direction as a separating axis, its gap measured by support functions.
#[test]
fn vclip_cycling_between_parallel_faces_still_separates() {
    for (k, seed, offset) in [(1usize, 1usize, 1e3), (3, 0, 1e9)] {
        let mut r = case_rng(0x14_5EE7, (k * 10 + seed) as u64);
        let q = random_quat(&mut r);
        let (a, pa, b, pb) = parallel_boxes(offset, 1e-2, q);
        let o = run_verified(Method::VClip, &a, &pa, &b, &pb);
        assert_eq!(o.verdict.intersecting(), Some(false), "{o:?}");
    }
}

/// Found by the sweep: gjk-nd left rotated parallel faces 5 tolerances apart without a
/// certificate (the closest-point difference tilted by its rounding); the faces' common normal
/// is now a candidate axis.
#[test]
fn gjk_nd_rotated_parallel_faces_five_tolerances_apart_are_separated() {
    for (k, seed, offset) in [(0usize, 1usize, 0.0), (0, 2, 0.0), (1, 0, 1e3), (1, 2, 1e3)] {
        let mut r = case_rng(0x14_5EE7, (k * 10 + seed) as u64);
        let q = random_quat(&mut r);
        let (a, pa, b, pb) = parallel_boxes(offset, 1e-2, q);
        let tol = tolerance_for(&a, &pa, &b, &pb);
        let (a, pa, b, pb) = parallel_boxes(offset, 5.0 * tol, q);
        let o = run_verified(Method::GjkNd, &a, &pa, &b, &pb);
        assert_eq!(o.verdict.intersecting(), Some(false), "{o:?}");
    }
}
