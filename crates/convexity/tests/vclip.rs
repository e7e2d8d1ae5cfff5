//! V-Clip against GJK, the clarabel oracle, constructed feature cases and its certificates;
//! warm start along a trajectory.

use convexity::gjk::certificate::{tolerance_for, verify};
use convexity::hull::ConvexPolyhedron;
use convexity::polytope::vclip::{closest_features, Feature, VClipCache, VClipOptions};
use convexity::{gjk, DQuat, DVec3, Points, Pose3, Status, SupportMap, Verdict};
use convexity_testkit::gen3::{random_hull3, random_quat, sphere_points, unit_vector3};
use convexity_testkit::hull_oracle::hull_distance3;
use convexity_testkit::placement::{gjk_tolerance, place_at_distance, place_deep, Regime};
use convexity_testkit::rng::rng as seeded;
use rand::Rng;

fn pose(t: DVec3, q: DQuat) -> Pose3 {
    Pose3::new(t, q).unwrap()
}

struct Pair {
    a: ConvexPolyhedron,
    b: ConvexPolyhedron,
    pa_pts: Points<DVec3>,
    pb_pts: Points<DVec3>,
}

fn pair(a: &[DVec3], b: &[DVec3]) -> Option<Pair> {
    Some(Pair {
        a: ConvexPolyhedron::from_points(a).ok()?,
        b: ConvexPolyhedron::from_points(b).ok()?,
        pa_pts: Points::new(a).ok()?,
        pb_pts: Points::new(b).ok()?,
    })
}

#[test]
fn random_pairs_agree_with_gjk_distance_and_certificates_verify() {
    let mut rng = seeded(0x7C1);
    let mut checked = 0;
    let mut max_err = 0.0f64;
    let mut max_steps = 0;
    let mut touch_ended = 0;
    for i in 0..2500 {
        let Some(p) = pair(
            &random_hull3(&mut rng, 4..=40, 0.5..=2.0),
            &random_hull3(&mut rng, 4..=40, 0.5..=2.0),
        ) else {
            continue;
        };
        let pa = pose(
            DVec3::new(rng.gen_range(-2.0..2.0), 1.0, 0.0),
            random_quat(&mut rng),
        );
        let regime = Regime::ALL[i % 5];
        let rot_b = random_quat(&mut rng);
        let pb = match regime {
            Regime::Deep => place_deep(&p.pa_pts, &pa, &p.pb_pts, rot_b).pose_b,
            _ => {
                let tol = gjk_tolerance(&p.pa_pts, &p.pb_pts);
                let g = match regime {
                    Regime::Far => rng.gen_range(0.01..2.0),
                    Regime::NearTouching => rng.gen_range(0.5..2.0) * tol,
                    Regime::Touching => 0.0,
                    _ => -0.3,
                };
                let u = unit_vector3(&mut rng);
                place_at_distance(&p.pa_pts, &pa, &p.pb_pts, rot_b, u, g).pose_b
            }
        };
        let r = closest_features(&p.a, &pa, &p.b, &pb, &VClipOptions::default(), None);
        let g = gjk::distance(
            &p.pa_pts,
            &pa,
            &p.pb_pts,
            &pb,
            &gjk::Options::default(),
            None,
        );
        assert_ne!(r.status, Status::IterationLimit, "pair {i}: {r:?}");
        max_steps = max_steps.max(r.iterations);
        if r.iterations >= 64 {
            // Ended by the touching check: only legitimate for a pair within the band.
            touch_ended += 1;
            assert!(
                g.distance <= 2.0 * g.tolerance.max(r.tolerance),
                "pair {i}: {r:?}"
            );
        }
        let scale = p.pa_pts.size() + p.pb_pts.size();
        let band = 2.0 * g.tolerance.max(r.tolerance);
        match r.verdict {
            Verdict::Separated(_) => {
                let err = (r.distance - g.distance).abs() / scale;
                max_err = max_err.max(err);
                assert!(
                    err <= 1e-9,
                    "pair {i} ({}): V-Clip {} vs GJK {} (features {:?})",
                    regime.name(),
                    r.distance,
                    g.distance,
                    r.features
                );
                // The closest points lie on the shapes and realise the distance.
                assert!(((r.point_b - r.point_a).length() - r.distance).abs() <= 1e-12 * scale);
            }
            Verdict::Intersecting(_) => assert!(
                g.distance <= band,
                "pair {i} ({}): V-Clip intersecting, GJK distance {}",
                regime.name(),
                g.distance
            ),
            Verdict::Undetermined => assert!(g.distance <= band, "pair {i}: {r:?}"),
        }
        if g.distance > band {
            assert_eq!(r.verdict.intersecting(), Some(false), "pair {i}");
        }
        if g.intersecting() == Some(true) && regime == Regime::Deep {
            assert_eq!(r.verdict.intersecting(), Some(true), "pair {i}");
        }
        if r.verdict.intersecting().is_some() {
            let tol = tolerance_for(&p.pa_pts, &pa, &p.pb_pts, &pb);
            verify(&p.pa_pts, &pa, &p.pb_pts, &pb, &r.verdict, tol)
                .unwrap_or_else(|e| panic!("pair {i} ({}): {e}", regime.name()));
        }
        checked += 1;
    }
    assert!(checked >= 2000, "{checked}");
    eprintln!("V-Clip vs GJK: {checked} pairs, max distance error {max_err:.2e} x scale, max {max_steps} steps, {touch_ended} ended by the touching check");
}

#[test]
fn distance_matches_clarabel() {
    let mut rng = seeded(0x7C2);
    let mut n = 0;
    for i in 0..200 {
        let Some(p) = pair(
            &random_hull3(&mut rng, 4..=24, 0.5..=1.5),
            &random_hull3(&mut rng, 4..=24, 0.5..=1.5),
        ) else {
            continue;
        };
        let pa = pose(DVec3::ZERO, random_quat(&mut rng));
        let pb = pose(
            unit_vector3(&mut rng) * rng.gen_range(2.5..5.0),
            random_quat(&mut rng),
        );
        let wa: Vec<DVec3> = p
            .pa_pts
            .points()
            .iter()
            .map(|&x| pa.transform_point(x))
            .collect();
        let wb: Vec<DVec3> = p
            .pb_pts
            .points()
            .iter()
            .map(|&x| pb.transform_point(x))
            .collect();
        let oracle = hull_distance3(&wa, &wb).unwrap();
        if oracle.distance < 1e-6 {
            continue;
        }
        let r = closest_features(&p.a, &pa, &p.b, &pb, &VClipOptions::default(), None);
        assert!(
            (r.distance - oracle.distance).abs() <= 1e-9 * (1.0 + oracle.distance),
            "pair {i}: {} vs {}",
            r.distance,
            oracle.distance
        );
        n += 1;
    }
    assert!(n >= 100, "{n}");
}

#[test]
fn warm_start_takes_few_steps_along_a_trajectory() {
    let mut rng = seeded(0x7C3);
    let a = ConvexPolyhedron::from_points(&sphere_points(&mut rng, 128, 1.0)).unwrap();
    let b = ConvexPolyhedron::from_points(&sphere_points(&mut rng, 128, 1.0)).unwrap();
    let pa = Pose3::IDENTITY;
    let mut state = VClipCache::new();
    let (mut warm_steps, mut cold_steps) = (0u64, 0u64);
    let frames = 400;
    for k in 0..frames {
        let s = k as f64 * 0.01;
        let pb = pose(
            DVec3::new(2.6 + 0.3 * s.sin(), 0.4 * s.cos(), 0.2 * s),
            DQuat::from_euler(glam::EulerRot::XYZ, s, 0.5 * s, 0.0),
        );
        let warm = closest_features(&a, &pa, &b, &pb, &VClipOptions::default(), Some(&mut state));
        let cold = closest_features(&a, &pa, &b, &pb, &VClipOptions::default(), None);
        assert!((warm.distance - cold.distance).abs() <= 1e-12, "frame {k}");
        warm_steps += u64::from(warm.iterations);
        cold_steps += u64::from(cold.iterations);
    }
    let (w, c) = (
        warm_steps as f64 / frames as f64,
        cold_steps as f64 / frames as f64,
    );
    eprintln!("V-Clip steps per frame: warm {w:.2}, cold {c:.2}");
    assert!(w < 0.5 * c, "warm {w} vs cold {c}");
    assert!(w < 3.0, "warm start averages {w} steps");
}

#[test]
fn parallel_faces_and_edges_give_exact_distances() {
    let c = ConvexPolyhedron::cuboid(DVec3::splat(0.5));
    let id = Pose3::IDENTITY;
    for (t, want) in [
        (DVec3::new(3.0, 0.0, 0.0), 2.0),  // face-face, parallel
        (DVec3::new(3.0, 0.3, -0.2), 2.0), // face-face, offset
        (DVec3::new(3.0, 3.0, 0.0), 2.0 * 2f64.sqrt()), // edge-edge, parallel
        (DVec3::new(3.0, 3.0, 3.0), 2.0 * 3f64.sqrt()), // vertex-vertex
        (DVec3::new(1.0 + 1e-9, 0.2, 0.1), 1e-9), // almost touching faces
    ] {
        let r = closest_features(
            &c,
            &id,
            &c,
            &pose(t, DQuat::IDENTITY),
            &VClipOptions::default(),
            None,
        );
        assert!((r.distance - want).abs() < 1e-12, "{t}: {r:?}");
        assert_eq!(r.verdict.intersecting(), Some(false));
    }
    // Rotated about z by 45°: the closest features are an edge of B and a face of A.
    let r = closest_features(
        &c,
        &id,
        &c,
        &pose(
            DVec3::new(2.0, 0.0, 0.0),
            DQuat::from_rotation_z(0.25 * std::f64::consts::PI),
        ),
        &VClipOptions::default(),
        None,
    );
    assert!(
        (r.distance - (1.5 - 0.5 * 2f64.sqrt())).abs() < 1e-12,
        "{r:?}"
    );
}

#[test]
fn touching_identical_and_nested_polyhedra_intersect() {
    let c = ConvexPolyhedron::cuboid(DVec3::splat(0.5));
    let small = ConvexPolyhedron::cuboid(DVec3::splat(0.1));
    let id = Pose3::IDENTITY;
    for (b, t) in [
        (&c, DVec3::new(1.0, 0.0, 0.0)),
        (&c, DVec3::new(1.0, 1.0, 1.0)),
        (&c, DVec3::ZERO),
        (&small, DVec3::new(0.05, -0.1, 0.2)),
        (&small, DVec3::new(1e-3, 0.0, 0.0)),
    ] {
        let pb = pose(t, DQuat::IDENTITY);
        let r = closest_features(&c, &id, b, &pb, &VClipOptions::default(), None);
        assert_eq!(r.verdict.intersecting(), Some(true), "{t}: {r:?}");
        let (pa_pts, pb_pts) = (
            Points::new(c.vertices()).unwrap(),
            Points::new(b.vertices()).unwrap(),
        );
        let tol = tolerance_for(&pa_pts, &id, &pb_pts, &pb);
        verify(&pa_pts, &id, &pb_pts, &pb, &r.verdict, tol).unwrap();
        // And the mirror image.
        let r = closest_features(b, &pb, &c, &id, &VClipOptions::default(), None);
        assert_eq!(r.verdict.intersecting(), Some(true), "mirror {t}");
    }
}

#[test]
fn offsets_of_1e6_and_size_ratio_1e4() {
    let big = ConvexPolyhedron::cuboid(DVec3::splat(1e3));
    let mut rng = seeded(0x7C4);
    let small = ConvexPolyhedron::from_points(&sphere_points(&mut rng, 40, 0.05)).unwrap();
    let off = DVec3::new(1e6, -1e6, 1e6);
    for gap in [1e-3, 0.5, 10.0] {
        let pa = pose(off, DQuat::IDENTITY);
        let top = small
            .vertices()
            .iter()
            .map(|v| -v.z)
            .fold(f64::NEG_INFINITY, f64::max);
        let pb = pose(off + DVec3::new(3.0, 2.0, 1e3 + top + gap), DQuat::IDENTITY);
        let r = closest_features(&big, &pa, &small, &pb, &VClipOptions::default(), None);
        assert!((r.distance - gap).abs() < 1e-8, "gap {gap}: {r:?}");
        assert!(matches!(r.features.0, Feature::Face(_)), "{:?}", r.features);
    }
}

#[test]
fn iteration_cap_is_reported() {
    let mut rng = seeded(0x7C5);
    let a = ConvexPolyhedron::from_points(&sphere_points(&mut rng, 500, 1.0)).unwrap();
    let b = ConvexPolyhedron::from_points(&sphere_points(&mut rng, 500, 1.0)).unwrap();
    let opts = VClipOptions {
        max_iterations: 1,
        ..VClipOptions::default()
    };
    let r = closest_features(
        &a,
        &Pose3::IDENTITY,
        &b,
        &pose(DVec3::new(5.0, 0.0, 0.0), DQuat::IDENTITY),
        &opts,
        None,
    );
    assert_eq!(r.status, Status::IterationLimit);
    // At the cap V-Clip still offers the current feature pair's axis; the balls are 3 apart,
    // so that axis separates. Whatever it says must be a certificate that holds.
    let pb = pose(DVec3::new(5.0, 0.0, 0.0), DQuat::IDENTITY);
    match r.verdict {
        Verdict::Separated(_) => {
            let tol = tolerance_for(&a, &Pose3::IDENTITY, &b, &pb);
            verify(&a, &Pose3::IDENTITY, &b, &pb, &r.verdict, tol).unwrap()
        }
        Verdict::Undetermined => {}
        Verdict::Intersecting(_) => panic!("balls 3 apart called intersecting: {r:?}"),
    }
    assert!(r.distance.is_finite());
}
