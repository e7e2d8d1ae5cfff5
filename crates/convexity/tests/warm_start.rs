//! Warm start: a `gjk::Cache` carried along a coherent trajectory must give the same answers as
//! cold queries, with valid certificates, in fewer iterations; and a cache handed to the wrong
//! pair must not change any answer.

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{distance, intersects, Cache, Options};
use convexity::*;
use convexity_testkit::gen3::{random_quat, sphere_points};
use convexity_testkit::rng::rng;

fn trajectory_pose(t: f64) -> Pose3 {
    // B orbits A at a radius that alternates between overlap and separation.
    let r = 1.6 + 0.6 * (3.0 * t).sin();
    let p = DVec3::new(r * t.cos(), r * t.sin(), 0.3 * (2.0 * t).cos());
    Pose3::new(
        p,
        DQuat::from_rotation_z(0.7 * t) * DQuat::from_rotation_x(0.4 * t),
    )
    .unwrap()
}

#[test]
fn warm_trajectory_matches_cold_answers_with_fewer_iterations() {
    let mut g = rng(41);
    let a = Points::new(&sphere_points(&mut g, 32, 1.0)).unwrap();
    let b = Points::new(&sphere_points(&mut g, 32, 1.0)).unwrap();
    let pose_a = Pose3::new(DVec3::ZERO, random_quat(&mut g)).unwrap();
    let opts = Options::default();
    let mut cache_d = Cache::new();
    let mut cache_b = Cache::new();
    let (mut it_cold, mut it_warm, mut it_bool_cold, mut it_bool_warm) = (0, 0, 0, 0);
    let mut hits = 0;
    for step in 0..2000 {
        let pose_b = trajectory_pose(step as f64 * 0.005);
        let cold = distance(&a, &pose_a, &b, &pose_b, &opts, None);
        let warm = distance(&a, &pose_a, &b, &pose_b, &opts, Some(&mut cache_d));
        assert_eq!(cold.intersecting(), warm.intersecting(), "step {step}");
        assert!(
            (cold.distance - warm.distance).abs() <= 1e-12,
            "step {step}: {cold:?} vs {warm:?}"
        );
        let tol = tolerance_for(&a, &pose_a, &b, &pose_b);
        verify(&a, &pose_a, &b, &pose_b, &warm.verdict, tol).unwrap();
        let bc = intersects(&a, &pose_a, &b, &pose_b, &opts, None);
        let bw = intersects(&a, &pose_a, &b, &pose_b, &opts, Some(&mut cache_b));
        assert_eq!(bc.intersecting(), bw.intersecting(), "step {step}");
        verify(&a, &pose_a, &b, &pose_b, &bw.verdict, tol).unwrap();
        it_cold += cold.iterations;
        it_warm += warm.iterations;
        it_bool_cold += bc.iterations;
        it_bool_warm += bw.iterations;
        hits += usize::from(cold.intersecting() == Some(true));
    }
    // The trajectory must exercise both verdicts for this test to mean anything.
    assert!(hits > 200 && hits < 1800, "hits {hits}");
    assert!(
        it_warm * 2 < it_cold,
        "distance iterations warm {it_warm} cold {it_cold}"
    );
    assert!(
        it_bool_warm * 3 < it_bool_cold * 2,
        "boolean iterations warm {it_bool_warm} cold {it_bool_cold}"
    );
}

#[test]
fn cache_passed_with_another_pair_is_ignored_and_answers_stay_correct() {
    let mut g = rng(42);
    let a = Points::new(&sphere_points(&mut g, 16, 1.0)).unwrap();
    let b = Points::new(&sphere_points(&mut g, 16, 1.0)).unwrap();
    let far = Points::new(&sphere_points(&mut g, 16, 1.0)).unwrap();
    let opts = Options::default();
    let id = Pose3::IDENTITY;
    // Fill the cache with an overlapping pair (its simplex encloses the origin)...
    let mut cache = Cache::new();
    let overlapping = Pose3::from_translation(DVec3::new(0.5, 0.0, 0.0)).unwrap();
    let d = distance(&a, &id, &b, &overlapping, &opts, Some(&mut cache));
    assert_eq!(d.intersecting(), Some(true));
    // ...then hand it to a separated pair of other shapes: the answer must be the cold one.
    let apart = Pose3::from_translation(DVec3::new(5.0, 0.0, 0.0)).unwrap();
    let cold = distance(&a, &id, &far, &apart, &opts, None);
    let reused = distance(&a, &id, &far, &apart, &opts, Some(&mut cache));
    assert_eq!(cold.intersecting(), Some(false));
    assert_eq!(reused.intersecting(), Some(false), "{reused:?}");
    assert_eq!(cold.distance, reused.distance);
    let tol = tolerance_for(&a, &id, &far, &apart);
    verify(&a, &id, &far, &apart, &reused.verdict, tol).unwrap();
}
