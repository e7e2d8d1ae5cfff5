//! Warm start: a `gjk::Cache` carried along a coherent trajectory must give the same answers as
//! cold queries, with valid certificates, in fewer iterations; and a cache handed to the wrong
//! pair must not change any answer.

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{distance, intersects, Cache, Options};
use convexity::*;
use convexity_testkit::gen3::{box_corners3, random_quat, sphere_points};
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

// ---------------------------------------------------------------------------------------
// Warm-started EPA (`epa::penetration_cached`): the previous frame's polytope
// ---------------------------------------------------------------------------------------

use convexity::gjk::epa::{self, EpaCache, Penetration};
use convexity::polytope::sat3d::sat;

/// Support value `max_{x∈S} n·x` of a posed shape (world frame).
fn h<S: SupportMap<DVec3> + ?Sized>(s: &S, pose: &Pose3, n: DVec3) -> f64 {
    n.dot(pose.transform_point(s.support(pose.inverse_transform_vector(n))))
}

/// The normal is a certificate of the depth: the projections of A and B on it overlap by
/// exactly `depth` (`h_A(n) + h_B(−n) = depth`, so moving B by `depth·n` makes them touch),
/// the points are on the shapes' supporting planes and `point_a = point_b + depth·n`.
fn check_certificate<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3, p: &Penetration<DVec3>, tol: f64)
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    assert!(p.depth.is_finite() && p.normal.is_finite(), "{p:?}");
    assert!((p.normal.length() - 1.0).abs() < 1e-12, "{p:?}");
    let (ha, hb) = (h(a, pa, p.normal), h(b, pb, -p.normal));
    assert!(
        (ha + hb - p.depth).abs() <= tol,
        "overlap along the normal {} vs depth {}; {p:?}",
        ha + hb,
        p.depth
    );
    assert!((p.normal.dot(p.point_a) - ha).abs() <= tol, "{p:?}");
    assert!((p.normal.dot(p.point_b) + hb).abs() <= tol, "{p:?}");
    assert!(
        (p.point_a - p.point_b - p.normal * p.depth).length() <= tol,
        "{p:?}"
    );
}

/// Warm against cold on one query: same verdict, depth within twice the stopping tolerance,
/// a valid certificate, and the warm interval containing the cold depth.
fn same_answer<A, B>(
    a: &A,
    pa: &Pose3,
    b: &B,
    pb: &Pose3,
    cold: &Penetration<DVec3>,
    warm: &Penetration<DVec3>,
    tol: f64,
) where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    assert_eq!(cold.verdict.intersecting(), warm.verdict.intersecting());
    assert_eq!(cold.status, warm.status, "{cold:?} vs {warm:?}");
    assert!(
        (warm.depth - cold.depth).abs() <= tol,
        "warm {warm:?} vs cold {cold:?}"
    );
    assert!(
        warm.depth_lower <= cold.depth + tol && cold.depth <= warm.depth_upper + tol,
        "cold depth {} outside [{}, {}]",
        cold.depth,
        warm.depth_lower,
        warm.depth_upper
    );
    assert!(warm.depth_lower <= warm.depth && warm.depth <= warm.depth_upper);
    if warm.verdict.intersecting() == Some(true) {
        assert!(warm.depth_upper - warm.depth_lower <= tol, "{warm:?}");
    }
    let vt = tolerance_for(a, pa, b, pb);
    verify(a, pa, b, pb, &warm.verdict, vt).unwrap();
    check_certificate(a, pa, b, pb, warm, tol);
}

/// B orbits A (radius oscillating between overlap and separation) and turns, `steps` steps of
/// about `0.006·s` and `0.0126` rad (as the speed bench's trajectories).
fn orbit(s: f64, steps: usize, seed: u64) -> Vec<(Pose3, Pose3)> {
    let mut g = rng(seed);
    let qa = random_quat(&mut g);
    let qb = random_quat(&mut g);
    let ta = DVec3::new(0.3, -0.2, 0.1);
    let n = DVec3::new(0.3, 0.5, 0.8).normalize();
    let (u, v) = (
        n.any_orthonormal_vector(),
        n.cross(n.any_orthonormal_vector()),
    );
    let spin = DVec3::new(-0.6, 0.2, 0.7).normalize();
    (0..steps)
        .map(|k| {
            let th = std::f64::consts::TAU * k as f64 / 1000.0;
            let rho = s * (0.8 + 0.25 * (4.0 * th).sin());
            let tb = ta + (u * th.cos() + v * th.sin()) * rho;
            let q = (DQuat::from_axis_angle(spin, 2.0 * th) * qb).normalize();
            (Pose3::new(ta, qa).unwrap(), Pose3::new(tb, q).unwrap())
        })
        .collect()
}

/// An independent depth of a posed pair.
type DepthOracle<'a> = &'a dyn Fn(&Pose3, &Pose3) -> f64;

/// Runs cold and warm along `poses`; returns (overlapping steps, steps that reused the
/// polytope, cold iterations, warm iterations) over the overlapping steps. `oracle` gives the
/// polytope depth independently (SAT) when the shapes are polytopes.
fn trajectory<A, B>(
    a: &A,
    b: &B,
    poses: &[(Pose3, Pose3)],
    oracle: Option<DepthOracle<'_>>,
) -> (usize, usize, u64, u64)
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let opts = epa::Options::default();
    let (mut ctx_cold, mut ctx_warm) = (epa::Context::new(), epa::Context::new());
    let mut cache = EpaCache::new();
    let tol = 2e-9 * (a.size() + b.size());
    let (mut overlapping, mut reused, mut it_cold, mut it_warm) = (0, 0, 0, 0);
    for (k, (pa, pb)) in poses.iter().enumerate() {
        let cold = epa::penetration(a, pa, b, pb, &opts, &mut ctx_cold);
        let warm = epa::penetration_cached(a, pa, b, pb, &opts, &mut ctx_warm, &mut cache);
        same_answer(a, pa, b, pb, &cold, &warm, tol);
        // (SAT's separation is the depth only for overlapping pairs.)
        let overlap = cold.verdict.intersecting() == Some(true);
        if let Some(depth) = oracle.filter(|_| overlap && k % 7 == 0).map(|o| o(pa, pb)) {
            assert!(
                (warm.depth - depth).abs() <= tol,
                "step {k}: warm {} vs SAT {depth}",
                warm.depth
            );
        }
        if cold.verdict.intersecting() == Some(true) {
            overlapping += 1;
            reused += usize::from(cache.reused());
            it_cold += u64::from(cold.iterations);
            it_warm += u64::from(warm.iterations);
        } else {
            assert!(!cache.reused());
        }
    }
    (overlapping, reused, it_cold, it_warm)
}

#[test]
fn warm_epa_reuses_the_polytope_along_coherent_trajectories_of_hulls() {
    let mut g = rng(90);
    for (n, s, min_share) in [
        (8, 1.71, 0.9),
        (32, 2.30, 0.85),
        (128, 2.46, 0.8),
        (1024, 2.51, 0.6),
    ] {
        let la = sphere_points(&mut g, n, 1.0);
        let lb = sphere_points(&mut g, n, 1.0);
        let (ha, hb) = (
            ConvexPolyhedron::from_points(&la).unwrap(),
            ConvexPolyhedron::from_points(&lb).unwrap(),
        );
        let sat_depth = |pa: &Pose3, pb: &Pose3| -sat(&ha, pa, &hb, pb).separation;
        let poses = orbit(s, 500, n as u64);
        let (overlapping, reused, it_cold, it_warm) = if n <= 32 {
            // Points: support by scanning (the speed bench's hull8 and hull32).
            let (a, b) = (Points::new(&la).unwrap(), Points::new(&lb).unwrap());
            trajectory(&a, &b, &poses, Some(&sat_depth))
        } else {
            trajectory(&ha, &hb, &poses, Some(&sat_depth))
        };
        assert!(
            overlapping > 100 && overlapping < 450,
            "n {n}: {overlapping}"
        );
        assert!(
            reused as f64 >= min_share * overlapping as f64,
            "n {n}: reused {reused} of {overlapping}"
        );
        assert!(
            it_warm * 3 < it_cold,
            "n {n}: iterations warm {it_warm} cold {it_cold}"
        );
    }
}

#[test]
fn warm_epa_on_boxes_and_rounded_shapes_matches_cold() {
    let mut g = rng(91);
    // Boxes: answered by the closed form, so the polytope is never kept.
    let a = Cuboid::new(DVec3::new(0.8, 0.5, 0.3)).unwrap();
    let b = Cuboid::new(DVec3::new(0.4, 0.9, 0.6)).unwrap();
    let (overlapping, reused, _, _) = trajectory(&a, &b, &orbit(1.6, 300, 5), None);
    assert!(overlapping > 50);
    assert_eq!(reused, 0);
    // A rounded hull against a hull: EPA on the cores, radius added. (Steps where only the
    // rounding overlaps run no EPA and cannot reuse anything: hence the lower share.)
    let ra = Rounded::new(Points::new(&sphere_points(&mut g, 24, 0.8)).unwrap(), 0.2).unwrap();
    let pb = Points::new(&sphere_points(&mut g, 16, 1.0)).unwrap();
    let (overlapping, reused, it_cold, it_warm) = trajectory(&ra, &pb, &orbit(1.9, 300, 6), None);
    assert!(overlapping > 50);
    assert!(
        reused * 10 >= overlapping * 6,
        "reused {reused} of {overlapping}"
    );
    assert!(it_warm * 2 < it_cold);
    // A box against a hull: not a closed-form pair.
    let (overlapping, reused, _, _) = trajectory(&a, &pb, &orbit(1.5, 300, 7), None);
    assert!(
        overlapping > 50 && reused * 10 >= overlapping * 8,
        "{reused} of {overlapping}"
    );
}

/// Warm and cold on one query with a shared cache; returns the warm answer and whether it
/// reused the polytope.
fn step<A, B>(
    a: &A,
    pa: &Pose3,
    b: &B,
    pb: &Pose3,
    ctx: &mut epa::Context<DVec3>,
    cache: &mut EpaCache<DVec3>,
) -> bool
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let opts = epa::Options::default();
    let cold = epa::penetration(a, pa, b, pb, &opts, &mut epa::Context::new());
    let warm = epa::penetration_cached(a, pa, b, pb, &opts, ctx, cache);
    same_answer(a, pa, b, pb, &cold, &warm, 2e-9 * (a.size() + b.size()));
    cache.reused()
}

#[test]
fn warm_epa_falls_back_to_cold_when_the_polytope_does_not_fit() {
    let mut g = rng(92);
    let a = Points::new(&sphere_points(&mut g, 20, 1.0)).unwrap();
    let b = Points::new(&sphere_points(&mut g, 20, 1.0)).unwrap();
    let c = Points::new(&sphere_points(&mut g, 20, 0.9)).unwrap();
    let mut ctx = epa::Context::new();
    let mut cache = EpaCache::new();
    let pa = Pose3::new(DVec3::ZERO, random_quat(&mut g)).unwrap();
    let qb = random_quat(&mut g);
    let at = |x: f64| Pose3::new(DVec3::new(x, 0.1, -0.05), qb).unwrap();
    // First query: nothing cached. Second, a hair later: the polytope is reused.
    assert!(!step(&a, &pa, &b, &at(0.5), &mut ctx, &mut cache));
    assert!(step(&a, &pa, &b, &at(0.501), &mut ctx, &mut cache));
    // Another pair with the same cache: ignored.
    assert!(!step(&a, &pa, &c, &at(0.501), &mut ctx, &mut cache));
    // And back: the cache now belongs to (a, c), so (a, b) starts cold again.
    assert!(!step(&a, &pa, &b, &at(0.502), &mut ctx, &mut cache));
    assert!(step(&a, &pa, &b, &at(0.503), &mut ctx, &mut cache));
    // A teleport to the other side: answered correctly (whether the shifted polytope still
    // holds the origin or not).
    step(&a, &pa, &b, &at(-0.7), &mut ctx, &mut cache);
    assert!(step(&a, &pa, &b, &at(-0.701), &mut ctx, &mut cache));
    // A big turn in place: answered correctly whether or not the polytope still fits.
    let turned = Pose3::new(DVec3::new(-0.701, 0.1, -0.05), random_quat(&mut g)).unwrap();
    step(&a, &pa, &b, &turned, &mut ctx, &mut cache);
    // Separate, then overlap again: the separated query forgets the polytope.
    assert!(!step(&a, &pa, &b, &at(3.0), &mut ctx, &mut cache));
    assert!(!step(&a, &pa, &b, &at(0.5), &mut ctx, &mut cache));
    assert!(step(&a, &pa, &b, &at(0.4995), &mut ctx, &mut cache));
    // Clones carry the polytope.
    let mut copy = cache.clone();
    assert!(step(&a, &pa, &b, &at(0.499), &mut ctx, &mut copy));

    // A polytope that no longer holds the origin: A a long bar along x, B a small cube near
    // its +x end; teleported to the −x end, every vertex of the polytope built at the +x end
    // (the origin's neighbourhood there) is shifted by +5.8 in x, beyond the origin.
    let bar = Points::new(&box_corners3(DVec3::new(3.0, 0.5, 0.5))).unwrap();
    let small = Points::new(&box_corners3(DVec3::splat(0.25))).unwrap();
    let mut cache = EpaCache::new();
    let end = |x: f64| Pose3::from_translation(DVec3::new(x, 0.1, 0.05)).unwrap();
    let id = Pose3::IDENTITY;
    assert!(!step(&bar, &id, &small, &end(2.9), &mut ctx, &mut cache));
    assert!(step(&bar, &id, &small, &end(2.899), &mut ctx, &mut cache));
    assert!(!step(&bar, &id, &small, &end(-2.9), &mut ctx, &mut cache));
    assert!(step(&bar, &id, &small, &end(-2.899), &mut ctx, &mut cache));
}

#[test]
fn warm_epa_degenerate_pairs_match_cold() {
    let mut g = rng(93);
    let mut ctx = epa::Context::new();
    let hull = Points::new(&sphere_points(&mut g, 16, 1.0)).unwrap();
    // A flat hull (3 coplanar points) through a hull: K is full-dimensional, so warm works.
    let tri = Points::new(&[
        DVec3::new(-0.8, -0.5, 0.0),
        DVec3::new(0.9, -0.4, 0.0),
        DVec3::new(0.0, 0.9, 0.0),
    ])
    .unwrap();
    let mut cache = EpaCache::new();
    let mut reused = 0;
    for (pa, pb) in orbit(1.2, 200, 8) {
        reused += usize::from(step(&tri, &pa, &hull, &pb, &mut ctx, &mut cache));
    }
    assert!(reused > 20, "flat hull: reused {reused}");
    // Two flat hulls in one plane: a flat K, answered by the defined flat answer each time.
    let mut cache = EpaCache::new();
    for k in 0..20 {
        let pb = Pose3::new(
            DVec3::new(0.01 * k as f64, 0.2, 0.0),
            DQuat::from_rotation_z(0.01 * k as f64),
        )
        .unwrap();
        assert!(!step(
            &tri,
            &Pose3::IDENTITY,
            &tri,
            &pb,
            &mut ctx,
            &mut cache
        ));
    }
    // Touching pairs: two cubes face to face, sliding.
    let cube = Points::new(&box_corners3(DVec3::ONE)).unwrap();
    let mut cache = EpaCache::new();
    for k in 0..20 {
        let pb = Pose3::from_translation(DVec3::new(2.0, 0.05 * k as f64, 0.0)).unwrap();
        step(&cube, &Pose3::IDENTITY, &cube, &pb, &mut ctx, &mut cache);
    }
    // Identical shapes at identical poses, then turning in place (depth 2 for the cubes).
    for s in [&cube, &hull] {
        let mut cache = EpaCache::new();
        let mut reused = 0;
        for k in 0..50 {
            let q = DQuat::from_rotation_y(0.01 * k as f64);
            let p = Pose3::new(DVec3::ZERO, q).unwrap();
            reused += usize::from(step(s, &p, s, &p, &mut ctx, &mut cache));
        }
        assert!(reused > 40, "identical: reused {reused}");
    }
    // Coordinates offset to 1e6 and a size ratio of 1e4.
    let big = Points::new(&sphere_points(&mut g, 16, 1e4)).unwrap();
    let small = Points::new(&sphere_points(&mut g, 12, 1.0)).unwrap();
    for (a, b, off, s) in [(&hull, &small, 1e6, 1.5), (&big, &small, 0.0, 3e3)] {
        let mut cache = EpaCache::new();
        let mut reused = 0;
        for (pa, pb) in orbit(s, 100, 9) {
            let o = DVec3::splat(off);
            let pa = Pose3::new(pa.translation() + o, pa.rotation()).unwrap();
            let pb = Pose3::new(pb.translation() + o, pb.rotation()).unwrap();
            reused += usize::from(step(a, &pa, b, &pb, &mut ctx, &mut cache));
        }
        assert!(reused > 20, "offset {off}, scale {s}: reused {reused}");
    }
}

/// B turning about its own centre by `turn` rad and drifting by `drift` per step, near A's
/// centre (always overlapping).
fn spin(turn: f64, drift: f64, steps: usize, seed: u64) -> Vec<(Pose3, Pose3)> {
    let mut g = rng(seed);
    let pa = Pose3::new(DVec3::ZERO, random_quat(&mut g)).unwrap();
    let qb = random_quat(&mut g);
    let axis = DVec3::new(0.2, -0.7, 0.4).normalize();
    (0..steps)
        .map(|k| {
            let k = k as f64;
            let t = DVec3::new(0.9 + drift * k, 0.2 * (drift * k).sin(), 0.1);
            let q = (DQuat::from_axis_angle(axis, turn * k) * qb).normalize();
            (pa, Pose3::new(t, q).unwrap())
        })
        .collect()
}

#[test]
fn warm_epa_lazy_and_full_rechecks_both_match_cold() {
    // The warm path certifies the intersection from the cached GJK simplex (no GJK run) and the
    // depth from the cached polytope, re-checked lazily (stored normals, shifted) or fully
    // (every plane rebuilt). Every answer must equal the cold one with verified certificates
    // (`same_answer`), and both re-checks must be exercised: small steps stay lazy, big turns
    // need the full one (or a cold restart).
    let mut g = rng(93);
    let a = Points::new(&sphere_points(&mut g, 24, 1.0)).unwrap();
    let b = Points::new(&sphere_points(&mut g, 24, 0.8)).unwrap();
    let mut counts = Vec::new();
    for (turn, drift) in [(0.002, 0.0005), (0.02, 0.004), (0.25, 0.03)] {
        let mut ctx = epa::Context::new();
        let mut cache = EpaCache::new();
        let (mut lazy, mut full) = (0, 0);
        for (pa, pb) in spin(turn, drift, 200, 7) {
            if step(&a, &pa, &b, &pb, &mut ctx, &mut cache) {
                if cache.lazy() {
                    lazy += 1;
                } else {
                    full += 1;
                }
            }
        }
        counts.push((lazy, full));
    }
    let (slow, fast) = (counts[0], counts[2]);
    assert!(slow.0 >= 150, "small steps should stay lazy: {counts:?}");
    assert!(
        fast.1 > 0,
        "big turns should need full rebuilds: {counts:?}"
    );
}
