//! Chung–Wang: boolean answers against GJK and the clarabel oracle (outside the ±tolerance
//! band), certificates, exact placements, termination on intersecting pairs with a proof (not
//! the iteration cap), warm start on a coherent trajectory, curved and degenerate shapes.

use convexity::gjk::certificate::{tolerance_for, verify};
use convexity::gjk::chung_wang::{separate, ChungWangCache, ChungWangOptions, ChungWangResult};
use convexity::*;
use convexity_testkit::degenerate;
use convexity_testkit::gen3::{random_hull3, random_pose3, random_quat, unit_vector3};
use convexity_testkit::hull_oracle::{hull_distance3, world_points};
use convexity_testkit::placement::{place_at_distance, place_in_regime, Regime};
use convexity_testkit::rng::rng;

fn cw<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3) -> ChungWangResult<DVec3>
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    separate(a, pa, b, pb, &ChungWangOptions::default(), None)
}

/// Agreement with GJK outside the band and a verified certificate. Returns the verdict.
fn check<A, B>(a: &A, pa: &Pose3, b: &B, pb: &Pose3, ctx: &str) -> bool
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let r = cw(a, pa, b, pb);
    assert_eq!(r.status, Status::Converged, "{ctx}: {r:?}");
    let g = gjk::distance(a, pa, b, pb, &gjk::Options::default(), None);
    let band = 2.0 * r.tolerance.max(g.tolerance);
    let hit = r
        .intersecting()
        .unwrap_or_else(|| panic!("{ctx}: undetermined"));
    if g.distance > band {
        assert!(!hit, "{ctx}: CW intersecting, GJK distance {}", g.distance);
    }
    if g.intersecting() == Some(true) && g.lower_bound < -band {
        assert!(
            hit,
            "{ctx}: CW separated, GJK lower bound {}",
            g.lower_bound
        );
    }
    verify(a, pa, b, pb, &r.verdict, tolerance_for(a, pa, b, pb))
        .unwrap_or_else(|e| panic!("{ctx}: certificate {e}"));
    hit
}

#[test]
fn random_hull_pairs_agree_with_gjk() {
    let mut rg = rng(0xc4_1996);
    let (mut sep, mut hit) = (0, 0);
    let mut reflections = 0u64;
    for i in 0..2400 {
        let a = Points::new(&random_hull3(&mut rg, 4..=64, 0.2..=2.0)).unwrap();
        let b = Points::new(&random_hull3(&mut rg, 4..=64, 0.2..=2.0)).unwrap();
        let pa = random_pose3(&mut rg, 5.0);
        let regime = Regime::ALL[i % Regime::ALL.len()];
        let q = random_quat(&mut rg);
        let u = unit_vector3(&mut rg);
        let pl = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime);
        if check(
            &a,
            &pa,
            &b,
            &pl.pose_b,
            &format!("pair {i} {}", regime.name()),
        ) {
            hit += 1;
        } else {
            sep += 1;
        }
        reflections += cw(&a, &pa, &b, &pl.pose_b).reflections as u64;
    }
    eprintln!("chung_wang: 2400 hull pairs, {sep} separated, {hit} intersecting, {reflections} reflections");
    assert!(sep > 700 && hit > 700);
}

#[test]
fn agrees_with_clarabel_oracle() {
    let mut rg = rng(0x0c1a);
    let mut decided = 0;
    for i in 0..250 {
        let a = Points::new(&random_hull3(&mut rg, 4..=24, 0.3..=1.5)).unwrap();
        let b = Points::new(&random_hull3(&mut rg, 4..=24, 0.3..=1.5)).unwrap();
        let pa = random_pose3(&mut rg, 1.5);
        let pb = random_pose3(&mut rg, 1.5);
        let r = cw(&a, &pa, &b, &pb);
        let o = hull_distance3(&world_points(&a, &pa), &world_points(&b, &pb)).expect("oracle");
        let band = 2.0 * r.tolerance + 1e-9;
        if o.lower_bound > band {
            assert_eq!(
                r.intersecting(),
                Some(false),
                "pair {i}: oracle {}",
                o.distance
            );
            decided += 1;
        } else if o.upper_bound <= 1e-12 {
            assert_eq!(r.intersecting(), Some(true), "pair {i}: oracle overlap");
            decided += 1;
        }
    }
    assert!(decided > 200, "{decided}");
}

#[test]
fn exact_gaps_and_touching() {
    let mut rg = rng(9);
    for i in 0..300 {
        let a = Points::new(&random_hull3(&mut rg, 4..=32, 0.5..=1.5)).unwrap();
        let b = Points::new(&random_hull3(&mut rg, 4..=32, 0.5..=1.5)).unwrap();
        let pa = random_pose3(&mut rg, 1e6);
        let u = unit_vector3(&mut rg);
        let q = random_quat(&mut rg);
        let tol = cw(&a, &pa, &b, &pa).tolerance;
        for k in [0.0, 0.5, 1.0, 2.0, 10.0, 1e6] {
            let pl = place_at_distance(&a, &pa, &b, q, u, k * tol);
            let r = cw(&a, &pa, &b, &pl.pose_b);
            assert_eq!(r.status, Status::Converged, "pair {i} k {k}");
            if k >= 10.0 {
                assert_eq!(r.intersecting(), Some(false), "pair {i} k {k}");
            }
            if let Verdict::Separated(s) = r.verdict {
                assert!(
                    s.gap <= k * tol + tol,
                    "pair {i} k {k}: gap {} vs {}",
                    s.gap,
                    k * tol
                );
            }
            verify(
                &a,
                &pa,
                &b,
                &pl.pose_b,
                &r.verdict,
                tolerance_for(&a, &pa, &b, &pl.pose_b),
            )
            .unwrap_or_else(|e| panic!("pair {i} k {k}: {e}"));
        }
    }
}

#[test]
fn concentric_cubes_terminate_with_a_proof() {
    // Reflections alone cycle here; the test must end on the origin-in-hull proof.
    let c = Points::new(&convexity_testkit::gen3::box_corners3(DVec3::splat(1.0))).unwrap();
    let p = Pose3::IDENTITY;
    let r = cw(&c, &p, &c, &p);
    assert_eq!(r.status, Status::Converged);
    assert_eq!(r.intersecting(), Some(true));
    assert!(r.iterations < 40, "{} iterations", r.iterations);
    // Without the GJK phase (reflections only, small cap) it would be IterationLimit: the cap is
    // never what ends an intersecting query with the default options.
    let mut rg = rng(3);
    for i in 0..500 {
        let a = Points::new(&random_hull3(&mut rg, 4..=64, 0.5..=1.5)).unwrap();
        let b = Points::new(&random_hull3(&mut rg, 4..=64, 0.5..=1.5)).unwrap();
        let pa = random_pose3(&mut rg, 1.0);
        let pl = convexity_testkit::placement::place_deep(&a, &pa, &b, random_quat(&mut rg));
        let r = cw(&a, &pa, &b, &pl.pose_b);
        assert_eq!(r.status, Status::Converged, "deep {i}");
        assert_eq!(r.intersecting(), Some(true), "deep {i}");
    }
}

#[test]
fn curved_and_degenerate_shapes() {
    let mut rg = rng(21);
    let ball = Ball::new(0.7).unwrap();
    let capsule = Capsule::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), 0.2).unwrap();
    let cube = Cuboid::new(DVec3::new(0.5, 0.3, 0.8)).unwrap();
    let seg = Points::new(&degenerate::two_points(&mut rg, DVec3::ZERO, 1.0)).unwrap();
    let flat = Points::new(&degenerate::coplanar(
        &mut rg,
        12,
        1.0,
        DQuat::from_rotation_x(0.4),
        DVec3::ZERO,
    ))
    .unwrap();
    let point = Points::new(&degenerate::single_point(DVec3::new(0.1, 0.2, 0.3))).unwrap();
    let base = random_hull3(&mut rg, 8..=16, 1.0..=1.0);
    let dup = Points::new(&degenerate::with_duplicates(&mut rg, &base, 6)).unwrap();
    let shapes: Vec<(&str, &dyn SupportMap<DVec3>)> = vec![
        ("ball", &ball),
        ("capsule", &capsule),
        ("cube", &cube),
        ("segment", &seg),
        ("flat", &flat),
        ("point", &point),
        ("dup", &dup),
    ];
    for (na, a) in &shapes {
        for (nb, b) in &shapes {
            for i in 0..40 {
                let pa = random_pose3(&mut rg, 1.0);
                let regime = Regime::ALL[i % Regime::ALL.len()];
                let q = random_quat(&mut rg);
                let u = unit_vector3(&mut rg);
                let pl = place_in_regime(&mut rg, *a, &pa, *b, q, u, regime);
                let r = cw(*a, &pa, *b, &pl.pose_b);
                assert_ne!(r.status, Status::Degenerate, "{na}-{nb} {i}");
                if r.verdict != Verdict::Undetermined {
                    verify(
                        *a,
                        &pa,
                        *b,
                        &pl.pose_b,
                        &r.verdict,
                        tolerance_for(*a, &pa, *b, &pl.pose_b),
                    )
                    .unwrap_or_else(|e| panic!("{na}-{nb} {i}: {e}"));
                }
                if regime != Regime::Touching && regime != Regime::NearTouching {
                    check(*a, &pa, *b, &pl.pose_b, &format!("{na}-{nb} {i}"));
                }
            }
        }
    }
}

#[test]
fn warm_start_on_a_coherent_trajectory() {
    // B orbits A, alternately apart and overlapping; the cache makes separated steps cheap.
    let mut rg = rng(55);
    let a = Points::new(&random_hull3(&mut rg, 64..=64, 1.0..=1.0)).unwrap();
    let b = Points::new(&random_hull3(&mut rg, 64..=64, 1.0..=1.0)).unwrap();
    let mut cache = ChungWangCache::new();
    let (mut cold_it, mut warm_it, mut gjk_it, mut steps, mut hits) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut gcache = gjk::Cache::new();
    let (mut follow_it, mut follow, mut prev_separated) = (0u64, 0u64, false);
    for k in 0..2000 {
        let t = k as f64 * 0.003;
        let radius = 1.3 + 0.9 * (7.0 * t).sin();
        let pa = Pose3::new(DVec3::ZERO, DQuat::from_rotation_z(0.3 * t)).unwrap();
        let pb = Pose3::new(
            DVec3::new(radius * t.cos(), radius * t.sin(), 0.2 * (3.0 * t).cos()),
            DQuat::from_rotation_x(t),
        )
        .unwrap();
        let cold = cw(&a, &pa, &b, &pb);
        let warm = separate(
            &a,
            &pa,
            &b,
            &pb,
            &ChungWangOptions::default(),
            Some(&mut cache),
        );
        assert_eq!(cold.intersecting(), warm.intersecting(), "step {k}");
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &warm.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap();
        let g = gjk::intersects(
            &a,
            &pa,
            &b,
            &pb,
            &gjk::Options::default(),
            Some(&mut gcache),
        );
        if warm.intersecting() == Some(false) && prev_separated {
            follow_it += warm.iterations as u64;
            follow += 1;
        }
        prev_separated = warm.intersecting() == Some(false);
        if warm.intersecting() == Some(false) {
            cold_it += cold.iterations as u64;
            warm_it += warm.iterations as u64;
            gjk_it += g.iterations as u64;
            steps += 1;
        } else {
            hits += 1;
        }
    }
    let (c, w) = (cold_it as f64 / steps as f64, warm_it as f64 / steps as f64);
    let gw = gjk_it as f64 / steps as f64;
    eprintln!("chung_wang trajectory: {steps} separated / {hits} intersecting steps; separated steps: iterations CW cold {c:.2}, CW warm {w:.2}, GJK boolean warm {gw:.2}");
    assert!(steps > 200 && hits > 200);
    let f = follow_it as f64 / follow as f64;
    eprintln!("  separated steps after a separated step: CW warm {f:.3} iterations");
    // Warm: the previous frame's vector usually still separates (one support pair); CW stops at
    // the first separating vector, often with a small margin, so ~13 % of steps need a reflection.
    assert!(f < 1.2, "warm after separated {f}");
    assert!(w < c + 0.1, "warm {w} cold {c}");
    // A cache filled for another pair is ignored (same answer, no panic).
    let other = Points::new(&random_hull3(&mut rg, 8..=8, 1.0..=1.0)).unwrap();
    let pb = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap();
    let r = separate(
        &other,
        &Pose3::IDENTITY,
        &b,
        &pb,
        &ChungWangOptions::default(),
        Some(&mut cache),
    );
    assert_eq!(r.intersecting(), Some(false));
}

#[test]
fn convex_polyhedron_pairs_agree_with_gjk() {
    let mut rg = rng(0x9011);
    let mut n = 0;
    while n < 600 {
        let (Ok(a), Ok(b)) = (
            ConvexPolyhedron::from_points(&random_hull3(&mut rg, 4..=200, 0.2..=2.0)),
            ConvexPolyhedron::from_points(&random_hull3(&mut rg, 4..=200, 0.2..=2.0)),
        ) else {
            continue;
        };
        let pa = random_pose3(&mut rg, 3.0);
        let regime = Regime::ALL[n % Regime::ALL.len()];
        let q = random_quat(&mut rg);
        let u = unit_vector3(&mut rg);
        let pl = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime);
        check(
            &a,
            &pa,
            &b,
            &pl.pose_b,
            &format!("poly pair {n} {}", regime.name()),
        );
        n += 1;
    }
}
