//! The hull oracle against pairs whose distance is known by construction (placement), in 2D
//! and 3D, near the origin and at 1e6, and its certificate on every regime.
//!
//! Set `CONVEXITY_TEST_STATS=1` to print the polish paths, accuracy and timing.

use convexity::{DVec3, Points, Pose2, Pose3, SupportMap};
use convexity_testkit::gen2::{random_hull2, random_pose2, random_rot2, unit_vector2};
use convexity_testkit::gen3::{random_hull3, random_pose3, random_quat, unit_vector3};
use convexity_testkit::rng::{case_rng, Rng};
use convexity_testkit::{
    hull_distance, hull_distance2, hull_distance3, place_in_regime, world_points, Regime,
};
use std::collections::HashMap;

fn stats_enabled() -> bool {
    std::env::var_os("CONVEXITY_TEST_STATS").is_some()
}

#[test]
fn oracle_matches_placement_3d() {
    let mut paths = HashMap::new();
    let (mut worst, mut worst_bracket): (f64, f64) = (0.0, 0.0);
    let start = std::time::Instant::now();
    let n = 600;
    for case in 0..n {
        let mut r = case_rng(0x0AC1E, case);
        let a = Points::new(&random_hull3(&mut r, 4..=64, 0.5..=2.0)).unwrap();
        let b = Points::new(&random_hull3(&mut r, 4..=64, 0.5..=2.0)).unwrap();
        let pose_a = random_pose3(&mut r, 10.0);
        let (rot_b, u) = (random_quat(&mut r), unit_vector3(&mut r));
        let regime = Regime::ALL[(case % 5) as usize];
        let pl = place_in_regime(&mut r, &a, &pose_a, &b, rot_b, u, regime);
        let wa = world_points(&a, &pose_a);
        let wb = world_points(&b, &pl.pose_b);
        let o = hull_distance3(&wa, &wb).unwrap();
        *paths.entry(o.raw.polish).or_insert(0) += 1;
        assert!(o.verified, "case {case} {regime:?}: {:?}", o.raw);
        let scale = a.size() + b.size();
        worst_bracket = worst_bracket.max(o.raw.bracket() / scale);
        assert!(o.lower_bound <= o.upper_bound + 1e-15 * scale);
        if let Some(g) = pl.exact_distance {
            let err = (o.distance - g).abs() / scale;
            worst = worst.max(err);
            assert!(
                err <= 1e-12,
                "case {case} {regime:?}: oracle {} placed {g}",
                o.distance
            );
            // The closest points are a closest pair: |q − p| = d.
            assert!(((o.point_b - o.point_a).length() - o.distance).abs() <= 1e-14 * scale);
        }
        if regime == Regime::Deep {
            assert!(
                o.distance <= 1e-14 * scale,
                "case {case}: deep pair at {}",
                o.distance
            );
        }
    }
    if stats_enabled() {
        eprintln!(
            "3D: {n} pairs in {:?}; polish paths {paths:?}; worst |oracle - placed| / scale {worst:e}; worst bracket / scale {worst_bracket:e}",
            start.elapsed()
        );
    }
}

#[test]
fn oracle_matches_placement_2d_and_far_from_the_origin() {
    for case in 0..300u64 {
        let mut r = case_rng(0x0AC1F, case);
        let a = Points::new(&random_hull2(&mut r, 3..=30, 0.5..=2.0)).unwrap();
        let b = Points::new(&random_hull2(&mut r, 3..=30, 0.5..=2.0)).unwrap();
        let pose_a: Pose2 = random_pose2(&mut r, 10.0);
        let (rot_b, u) = (random_rot2(&mut r), unit_vector2(&mut r));
        let regime = Regime::ALL[(case % 5) as usize];
        let pl = place_in_regime(&mut r, &a, &pose_a, &b, rot_b, u, regime);
        let o = hull_distance2(&world_points(&a, &pose_a), &world_points(&b, &pl.pose_b)).unwrap();
        assert!(o.verified, "2D case {case}: {:?}", o.raw);
        let scale = a.size() + b.size();
        if let Some(g) = pl.exact_distance {
            assert!((o.distance - g).abs() <= 1e-12 * scale, "2D case {case}");
        }
    }
    // At 1e6 the world coordinates are rounded to ~1.2e-10; the oracle must still certify
    // the distance of the points as given to ~1e-16 relative to the scene.
    for case in 0..100u64 {
        let mut r = case_rng(0x0AC20, case);
        let a = Points::new(&random_hull3(&mut r, 4..=40, 0.5..=2.0)).unwrap();
        let b = Points::new(&random_hull3(&mut r, 4..=40, 0.5..=2.0)).unwrap();
        let pose_a = Pose3::new(
            DVec3::splat(1e6) + DVec3::new(r.gen(), r.gen(), r.gen()),
            random_quat(&mut r),
        )
        .unwrap();
        let (rot_b, u) = (random_quat(&mut r), unit_vector3(&mut r));
        let regime = Regime::ALL[(case % 5) as usize];
        let pl = place_in_regime(&mut r, &a, &pose_a, &b, rot_b, u, regime);
        let o = hull_distance3(&world_points(&a, &pose_a), &world_points(&b, &pl.pose_b)).unwrap();
        let scale = a.size() + b.size();
        assert!(
            o.raw.bracket() <= 1e-12 * scale,
            "1e6 case {case}: {:?}",
            o.raw
        );
        if let Some(g) = pl.exact_distance {
            // The placement is exact up to the rounding of world coordinates (≈ 2e-10).
            assert!(
                (o.distance - g).abs() <= 1e-9,
                "1e6 case {case}: {} vs {g}",
                o.distance
            );
        }
    }
}

#[test]
fn oracle_in_four_and_six_dimensions() {
    // Two cross-polytopes (±e_i) scaled by s, the second shifted along the all-ones diagonal:
    // the closest points are the facets' centres, distance = |shift| − 2s/√D for shifts
    // beyond contact (the facet x·1/√D = s/√D faces the other one).
    for d in [4usize, 6] {
        for (k, shift) in [3.0, 5.5, 10.0].into_iter().enumerate() {
            let s = 1.0 + 0.25 * k as f64;
            let cross = |sign: f64, off: f64| -> Vec<Vec<f64>> {
                let mut v = Vec::new();
                for i in 0..d {
                    for sg in [-1.0, 1.0] {
                        let mut p = vec![off / (d as f64).sqrt() * sign; d];
                        p[i] += sg * s;
                        v.push(p);
                    }
                }
                v
            };
            let a = cross(1.0, 0.0);
            let b = cross(1.0, shift);
            let o = hull_distance(&a, &b).unwrap();
            assert!(o.verified, "D = {d}: {o:?}");
            let exact = shift - 2.0 * s / (d as f64).sqrt();
            assert!(
                (o.distance - exact).abs() <= 1e-12 * o.scale,
                "D = {d}: {} vs {exact}",
                o.distance
            );
        }
    }
}
