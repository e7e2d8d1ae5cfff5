//! Contact manifolds: points on both surfaces (analytic box signed distance), the EPA
//! relation `point_a = point_b + depth·normal`, deepest depth against EPA's depth, exact
//! resting contacts, the reduction to four points, and the general polyhedron manifold against
//! the box-specialised one.

use convexity::gjk::epa::{self, penetration};
use convexity::polytope::box_box::{box_box_contact, box_box_manifold};
use convexity::polytope::manifold::{Feature, Manifold, MAX_CONTACTS};
use convexity::polytope::sat3d::polyhedron_manifold;
use convexity::*;
use convexity_testkit::gen3::{random_cuboid, random_pose3, random_quat, unit_vector3};
use convexity_testkit::placement::{place_in_regime, Regime};
use convexity_testkit::rng::rng;

/// Signed distance from a world point to a posed box (negative inside).
fn box_sdf(c: &Cuboid<DVec3>, pose: &Pose3, p: DVec3) -> f64 {
    let q = pose.inverse_transform_point(p).abs() - c.half_extents();
    q.max(DVec3::ZERO).length() + q.max_element().min(0.0)
}

/// The checks every manifold must pass. Returns the deepest depth.
fn check_manifold(
    m: &Manifold,
    a: &Cuboid<DVec3>,
    pa: &Pose3,
    b: &Cuboid<DVec3>,
    pb: &Pose3,
    ctx: &str,
) -> f64 {
    let scale = a.size() + b.size();
    let tol = 1e-9 * scale + 1e-15 * (pa.translation().length() + pb.translation().length());
    assert!((m.normal.length() - 1.0).abs() < 1e-12, "{ctx}: normal");
    assert!(
        !m.is_empty() && m.len() <= MAX_CONTACTS,
        "{ctx}: {} points",
        m.len()
    );
    for (k, c) in m.points().iter().enumerate() {
        let sa = box_sdf(a, pa, c.point_a);
        let sb = box_sdf(b, pb, c.point_b);
        assert!(
            sa.abs() <= tol,
            "{ctx} point {k}: point_a {sa} off A's surface"
        );
        assert!(
            sb.abs() <= tol,
            "{ctx} point {k}: point_b {sb} off B's surface"
        );
        let rel = c.point_a - c.point_b - m.normal * c.depth;
        assert!(
            rel.length() <= tol,
            "{ctx} point {k}: point_a − point_b − depth·n = {rel}"
        );
        assert!(c.depth >= -tol, "{ctx} point {k}: depth {}", c.depth);
    }
    m.deepest().map_or(f64::NAN, |c| c.depth)
}

#[test]
fn box_manifolds_on_both_surfaces_and_deepest_matches_epa() {
    let mut rg = rng(0x3a1f);
    let (mut n, mut face, mut edge, mut shallow) = (0, 0, 0, 0);
    let mut worst = 0.0f64;
    for i in 0..2500 {
        let a = random_cuboid(&mut rg, 0.05, 1.5);
        let b = random_cuboid(&mut rg, 0.05, 1.5);
        let pa = random_pose3(&mut rg, 3.0);
        let regime = [Regime::Touching, Regime::Overlap, Regime::Deep][i % 3];
        let q = random_quat(&mut rg);
        let u = unit_vector3(&mut rg);
        let pl = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime);
        let pb = pl.pose_b;
        let (r, m) = box_box_contact(&a, &pa, &b, &pb);
        let Some(m) = m else {
            assert_eq!(r.intersecting(), Some(false));
            continue;
        };
        let ctx = format!("pair {i} ({})", regime.name());
        let deepest = check_manifold(&m, &a, &pa, &b, &pb, &ctx);
        let e = penetration(
            &a,
            &pa,
            &b,
            &pb,
            &epa::Options::default(),
            &mut epa::Context::new(),
        );
        let scale = a.size() + b.size();
        // The normal is the SAT axis; the deepest point never exceeds the depth.
        assert!((m.normal - r.axis).length() < 1e-12, "{ctx}");
        assert!(
            deepest <= r.depth() + 1e-9 * scale,
            "{ctx}: deepest {deepest} > depth {}",
            r.depth()
        );
        let err = (deepest - e.depth).abs();
        match m.feature {
            Feature::Edges { .. } => edge += 1,
            _ => face += 1,
        }
        if err > 1e-6 * scale {
            // The deepest vertex of the incident face was clipped away by the reference face's
            // side planes (B's corner pokes past A's face boundary): only allowed when the
            // patch is then shallower than the depth, never deeper.
            shallow += 1;
        } else {
            worst = worst.max(err / scale);
        }
        n += 1;
    }
    eprintln!(
        "manifold: {n} box pairs ({face} face, {edge} edge); deepest = EPA depth within 1e-6 x scale on {} (worst {worst:.1e}); {shallow} with the deepest corner clipped",
        n - shallow
    );
    assert!(n > 2000);
    // Most contacts carry the true depth on their deepest point.
    assert!(shallow * 100 < n, "{shallow} of {n}");
}

#[test]
fn resting_box_gives_four_points_with_exact_depth() {
    let a = Cuboid::new(DVec3::new(2.0, 2.0, 0.5)).unwrap();
    let b = Cuboid::new(DVec3::new(0.5, 0.4, 0.3)).unwrap();
    let pa = Pose3::new(DVec3::new(1e6, -2e6, 5.0), DQuat::from_rotation_y(0.2)).unwrap();
    let local = Pose3::new(
        DVec3::new(0.3, -0.1, 0.8 - 0.002),
        DQuat::from_rotation_z(0.7),
    )
    .unwrap();
    let pb = pa.compose(&local);
    let m = box_box_manifold(&a, &pa, &b, &pb).expect("contact");
    assert_eq!(m.len(), 4);
    for c in m.points() {
        assert!((c.depth - 0.002).abs() < 1e-9, "depth {}", c.depth);
    }
    check_manifold(&m, &a, &pa, &b, &pb, "resting");
    assert!((m.normal - pa.transform_vector(DVec3::Z)).length() < 1e-12);
    // Upside down (B below A): the normal flips, still 4 points.
    let local = Pose3::new(
        DVec3::new(0.3, -0.1, -0.8 + 0.002),
        DQuat::from_rotation_z(0.7),
    )
    .unwrap();
    let m = box_box_manifold(&a, &pa, &b, &pa.compose(&local)).expect("contact");
    assert_eq!(m.len(), 4);
    assert!((m.normal + pa.transform_vector(DVec3::Z)).length() < 1e-12);
}

#[test]
fn octagon_patch_is_reduced_to_four_keeping_the_deepest() {
    // Two equal squares, B turned 45° and tilted slightly: the clipped patch is an octagon.
    let a = Cuboid::new(DVec3::new(1.0, 1.0, 0.5)).unwrap();
    let b = Cuboid::new(DVec3::new(1.0, 1.0, 0.5)).unwrap();
    let pa = Pose3::IDENTITY;
    let rot = DQuat::from_rotation_x(1e-3) * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4);
    let pb = Pose3::new(DVec3::new(0.0, 0.0, 1.0 - 0.01), rot).unwrap();
    let m = box_box_manifold(&a, &pa, &b, &pb).expect("contact");
    assert_eq!(m.len(), 4);
    check_manifold(&m, &a, &pa, &b, &pb, "octagon");
    let deepest = m.deepest().unwrap().depth;
    let (r, _) = box_box_contact(&a, &pa, &b, &pb);
    assert!(
        (deepest - r.depth()).abs() < 1e-12,
        "deepest {deepest} vs depth {}",
        r.depth()
    );
    // The kept quadrilateral covers a large part of the octagon (area of the regular octagon
    // inscribed in the 2×2 square: 8(√2 − 1) ≈ 3.31; the best 4 of its vertices: ≈ 2.83).
    let p: Vec<DVec3> = m.points().iter().map(|c| c.point_a).collect();
    let area = 0.5
        * ((p[1] - p[0]).cross(p[2] - p[0]).length() + (p[2] - p[0]).cross(p[3] - p[0]).length());
    assert!(area > 2.0, "area {area}");
}

#[test]
fn polyhedron_manifold_matches_box_manifold() {
    let mut rg = rng(8);
    for i in 0..600 {
        let a = random_cuboid(&mut rg, 0.1, 1.2);
        let b = random_cuboid(&mut rg, 0.1, 1.2);
        let pa = random_pose3(&mut rg, 2.0);
        let regime = [Regime::Touching, Regime::Overlap, Regime::Deep][i % 3];
        let q = random_quat(&mut rg);
        let u = unit_vector3(&mut rg);
        let pb = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime).pose_b;
        let mb = box_box_manifold(&a, &pa, &b, &pb);
        let mp = polyhedron_manifold(&a, &pa, &b, &pb);
        assert_eq!(mb.is_some(), mp.is_some(), "pair {i}");
        if let (Some(mb), Some(mp)) = (mb, mp) {
            check_manifold(&mp, &a, &pa, &b, &pb, &format!("pair {i}"));
            assert!((mb.normal - mp.normal).length() < 1e-9, "pair {i}");
            let (db, dp) = (mb.deepest().unwrap().depth, mp.deepest().unwrap().depth);
            assert!(
                (db - dp).abs() < 1e-9 * (a.size() + b.size()),
                "pair {i}: {db} vs {dp}"
            );
        }
    }
}
