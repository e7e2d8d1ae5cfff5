//! Separating-axis tests (box–box specialised and the general polyhedron SAT): boolean answers
//! against GJK and the clarabel oracle, depths against EPA, certificates, degenerate and
//! touching sets.
//!
//! Oracles: GJK distance (boolean outside the ±tolerance band), EPA depth (SAT's minimum
//! penetration equals the penetration depth for polytopes), the clarabel SOCP hull distance on
//! the world box corners (independent of the library), `certificate::verify`, and the exact
//! placements of `placement::place_at_distance`.

use convexity::gjk::certificate::{tolerance_for, verify};
use convexity::gjk::epa::{self, penetration};
use convexity::polytope::box_box::{box_box, box_box_contact};
use convexity::polytope::sat3d::{sat, SatResult};
use convexity::query;
use convexity::*;
use convexity_testkit::gen3::{
    box_corners3, random_cuboid, random_pose3, random_quat, sphere_points, unit_vector3,
};
use convexity_testkit::hull_oracle::{contact_points_hold, hull_distance3, world_points};
use convexity_testkit::placement::{place_in_regime, Regime};
use convexity_testkit::rng::rng;

fn world_corners(c: &Cuboid<DVec3>, pose: &Pose3) -> Vec<DVec3> {
    box_corners3(c.half_extents())
        .into_iter()
        .map(|p| pose.transform_point(p))
        .collect()
}

struct Stats {
    pairs: usize,
    separated: usize,
    intersecting: usize,
    max_depth_err: f64,
}

/// Checks one box pair: SAT vs GJK/EPA, certificate, general SAT on the same boxes.
fn check_pair(
    a: &Cuboid<DVec3>,
    pa: &Pose3,
    b: &Cuboid<DVec3>,
    pb: &Pose3,
    st: &mut Stats,
    ctx: &str,
) {
    let r = box_box(a, pa, b, pb);
    let g = gjk::distance(a, pa, b, pb, &gjk::Options::default(), None);
    let e = penetration(
        a,
        pa,
        b,
        pb,
        &epa::Options::default(),
        &mut epa::Context::new(),
    );
    let tol = r.tolerance;
    assert_eq!(r.status, Status::Converged, "{ctx}");
    assert!(
        (r.axis.length() - 1.0).abs() < 1e-12,
        "{ctx}: axis not unit"
    );
    // Boolean agreement outside the band.
    match r.intersecting() {
        Some(true) => {
            st.intersecting += 1;
            assert!(
                g.distance <= 2.0 * tol,
                "{ctx}: SAT intersecting, GJK distance {}",
                g.distance
            );
        }
        Some(false) => {
            st.separated += 1;
            assert!(
                e.depth < 2.0 * tol,
                "{ctx}: SAT separated, EPA depth {}",
                e.depth
            );
            // The gap is a lower bound on the distance.
            assert!(
                r.separation <= g.distance + 2.0 * tol,
                "{ctx}: gap {} > distance {}",
                r.separation,
                g.distance
            );
        }
        None => panic!("{ctx}: undetermined"),
    }
    let ctol = tolerance_for(a, pa, b, pb);
    verify(a, pa, b, pb, &r.verdict, ctol).unwrap_or_else(|err| panic!("{ctx}: certificate {err}"));
    // Depth: SAT's minimum penetration is the polytope depth (EPA's to its tolerance).
    if r.intersecting() == Some(true) && e.depth > 0.0 {
        let scale = a.size() + b.size();
        let err = (r.depth() - e.depth).abs();
        st.max_depth_err = st.max_depth_err.max(err / scale);
        assert!(
            err <= 1e-9 * scale,
            "{ctx}: SAT depth {} vs EPA {}",
            r.depth(),
            e.depth
        );
    }
    // The general polyhedron SAT on the same boxes gives the same answer.
    let q = sat(a, pa, b, pb);
    assert_eq!(
        q.intersecting(),
        r.intersecting(),
        "{ctx}: general SAT disagrees"
    );
    if r.intersecting() == Some(true) {
        assert!(
            (q.separation - r.separation).abs() <= 1e-12 * (a.size() + b.size()),
            "{ctx}: general SAT separation {} vs box {}",
            q.separation,
            r.separation
        );
    }
    verify(a, pa, b, pb, &q.verdict, ctol)
        .unwrap_or_else(|err| panic!("{ctx}: general certificate {err}"));
    st.pairs += 1;
}

#[test]
fn box_box_random_pairs_agree_with_gjk_epa_and_certificates() {
    let mut rng = rng(0x5a7_b0c5);
    let mut st = Stats {
        pairs: 0,
        separated: 0,
        intersecting: 0,
        max_depth_err: 0.0,
    };
    for i in 0..2500 {
        let a = random_cuboid(&mut rng, 0.05, 1.5);
        let b = random_cuboid(&mut rng, 0.05, 1.5);
        let pa = random_pose3(&mut rng, 3.0);
        let regime = Regime::ALL[i % Regime::ALL.len()];
        let u = unit_vector3(&mut rng);
        let q = random_quat(&mut rng);
        let pl = place_in_regime(&mut rng, &a, &pa, &b, q, u, regime);
        check_pair(
            &a,
            &pa,
            &b,
            &pl.pose_b,
            &mut st,
            &format!("pair {i} ({})", regime.name()),
        );
    }
    // Random overlaps too (not only placed ones).
    for i in 0..1000 {
        let a = random_cuboid(&mut rng, 0.05, 1.5);
        let b = random_cuboid(&mut rng, 0.05, 1.5);
        let pa = random_pose3(&mut rng, 1.0);
        let pb = random_pose3(&mut rng, 1.0);
        check_pair(&a, &pa, &b, &pb, &mut st, &format!("random {i}"));
    }
    eprintln!(
        "box_box: {} pairs ({} separated, {} intersecting); max |SAT − EPA depth| / scale = {:.2e}",
        st.pairs, st.separated, st.intersecting, st.max_depth_err
    );
    assert!(st.separated > 500 && st.intersecting > 1000);
}

#[test]
fn box_box_agrees_with_clarabel_oracle() {
    let mut rng = rng(0x0c1a_4abe1);
    let mut checked = 0;
    for i in 0..300 {
        let a = random_cuboid(&mut rng, 0.1, 1.0);
        let b = random_cuboid(&mut rng, 0.1, 1.0);
        let pa = random_pose3(&mut rng, 1.5);
        let pb = random_pose3(&mut rng, 1.5);
        let r = box_box(&a, &pa, &b, &pb);
        let o = hull_distance3(&world_corners(&a, &pa), &world_corners(&b, &pb)).expect("oracle");
        let band = 2.0 * r.tolerance + 1e-9;
        if o.distance > band {
            assert_eq!(
                r.intersecting(),
                Some(false),
                "pair {i}: oracle distance {}",
                o.distance
            );
            assert!(
                r.separation <= o.distance + band,
                "pair {i}: gap exceeds the distance"
            );
            checked += 1;
        } else if o.upper_bound <= 1e-12 {
            assert_eq!(r.intersecting(), Some(true), "pair {i}: oracle distance 0");
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} decided pairs");
}

#[test]
fn box_box_exact_gaps_half_to_twice_the_tolerance() {
    // Exact placements at g = k × tol: separated for k ≥ 2 (beyond the band), both answers
    // allowed inside it, certificate valid either way; the gap never exceeds g.
    let mut rng = rng(77);
    for i in 0..400 {
        let a = random_cuboid(&mut rng, 0.1, 1.0);
        let b = random_cuboid(&mut rng, 0.1, 1.0);
        let pa = random_pose3(&mut rng, 2.0);
        let u = unit_vector3(&mut rng);
        let probe = box_box(&a, &pa, &b, &pa);
        let tol = probe.tolerance;
        for k in [0.5, 1.0, 2.0, 4.0] {
            let pl = convexity_testkit::placement::place_at_distance(
                &a,
                &pa,
                &b,
                random_quat(&mut rng),
                u,
                k * tol,
            );
            let r = box_box(&a, &pa, &b, &pl.pose_b);
            if k >= 4.0 {
                assert_eq!(r.intersecting(), Some(false), "pair {i} k {k}");
            }
            if let Some(false) = r.intersecting() {
                assert!(
                    r.separation <= k * tol * (1.0 + 1e-6) + 1e-15,
                    "pair {i} k {k}: gap {} > {}",
                    r.separation,
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
            .expect("certificate");
        }
    }
}

fn pose(t: DVec3, q: DQuat) -> Pose3 {
    Pose3::new(t, q).expect("pose")
}

#[test]
fn box_box_resting_face_contact_exact_depth() {
    // B (half 0.5) resting on A (half 1) with overlap 0.01: face axis of A, depth 0.01.
    let a = Cuboid::new(DVec3::splat(1.0)).unwrap();
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let pa = Pose3::IDENTITY;
    let pb = pose(DVec3::new(0.1, -0.2, 1.49), DQuat::from_rotation_z(0.3));
    let r = box_box(&a, &pa, &b, &pb);
    assert_eq!(r.intersecting(), Some(true));
    assert!((r.depth() - 0.01).abs() < 1e-14, "depth {}", r.depth());
    assert!((r.axis - DVec3::Z).length() < 1e-14);
    assert_eq!(r.feature, convexity::polytope::manifold::Feature::FaceA(4));
}

#[test]
fn box_box_touching_faces_and_edges_intersect() {
    let a = Cuboid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap();
    let b = Cuboid::new(DVec3::new(0.3, 0.7, 0.2)).unwrap();
    let pa = pose(DVec3::new(1e6, -1e6, 3e5), DQuat::from_rotation_x(0.4));
    // Face-to-face, exactly touching along A's x face.
    let pb = pa.compose(&pose(DVec3::new(1.3, 0.1, 0.0), DQuat::IDENTITY));
    let r = box_box(&a, &pa, &b, &pb);
    assert_eq!(r.intersecting(), Some(true));
    assert!(r.separation.abs() <= r.tolerance);
    verify(
        &a,
        &pa,
        &b,
        &pb,
        &r.verdict,
        tolerance_for(&a, &pa, &b, &pb),
    )
    .unwrap();
    // Edge-to-edge touching: B rotated 45° about z and about x, placed exactly at distance 0.
    let mut rg = rng(5);
    for _ in 0..50 {
        let u = unit_vector3(&mut rg);
        let pl = convexity_testkit::placement::place_at_distance(
            &a,
            &pa,
            &b,
            random_quat(&mut rg),
            u,
            0.0,
        );
        let r = box_box(&a, &pa, &b, &pl.pose_b);
        assert_eq!(r.intersecting(), Some(true));
        verify(
            &a,
            &pa,
            &b,
            &pl.pose_b,
            &r.verdict,
            tolerance_for(&a, &pa, &b, &pl.pose_b),
        )
        .unwrap();
    }
}

#[test]
fn box_box_degenerate_boxes() {
    let mut rg = rng(11);
    let mut st = Stats {
        pairs: 0,
        separated: 0,
        intersecting: 0,
        max_depth_err: 0.0,
    };
    let cases: Vec<(DVec3, DVec3)> = vec![
        // Flat plate and a box; two plates; a segment-like box; a point box.
        (DVec3::new(1.0, 1.0, 0.0), DVec3::splat(0.3)),
        (DVec3::new(1.0, 0.0, 1.0), DVec3::new(0.5, 0.5, 0.0)),
        (DVec3::new(1.0, 0.0, 0.0), DVec3::splat(0.4)),
        (DVec3::ZERO, DVec3::splat(0.4)),
        // Size ratio 1e4.
        (DVec3::splat(1e-4), DVec3::splat(1.0)),
        (DVec3::new(1e4, 1e4, 1.0), DVec3::splat(0.5)),
    ];
    for (k, (ha, hb)) in cases.iter().enumerate() {
        let a = Cuboid::new(*ha).unwrap();
        let b = Cuboid::new(*hb).unwrap();
        for i in 0..60 {
            let pa = random_pose3(&mut rg, 1.0);
            let regime = Regime::ALL[i % Regime::ALL.len()];
            let q = random_quat(&mut rg);
            let u = unit_vector3(&mut rg);
            let pl = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime);
            let r = box_box(&a, &pa, &b, &pl.pose_b);
            assert!(r.separation.is_finite() && r.axis.is_finite(), "case {k}");
            let ctol = tolerance_for(&a, &pa, &b, &pl.pose_b);
            verify(&a, &pa, &b, &pl.pose_b, &r.verdict, ctol)
                .unwrap_or_else(|e| panic!("case {k} pair {i}: {e}"));
            if ha.min_element() > 0.0 && hb.min_element() > 0.0 {
                check_pair(
                    &a,
                    &pa,
                    &b,
                    &pl.pose_b,
                    &mut st,
                    &format!("case {k} pair {i}"),
                );
            }
        }
    }
}

#[test]
fn identical_boxes_at_identical_poses() {
    let a = Cuboid::new(DVec3::new(0.5, 0.5, 0.5)).unwrap();
    let p = pose(DVec3::new(1e6, 2.0, -3.0), DQuat::from_rotation_y(1.0));
    let r: SatResult = box_box(&a, &p, &a, &p);
    assert_eq!(r.intersecting(), Some(true));
    assert!((r.depth() - 1.0).abs() < 1e-9, "depth {}", r.depth());
    let (_, m) = box_box_contact(&a, &p, &a, &p);
    assert!(m.is_some_and(|m| !m.is_empty()));
}

#[test]
fn near_parallel_edges_are_skipped_without_harm() {
    // B rotated by 1e-12 and 1e-7 about a diagonal: edge cross products are tiny.
    let a = Cuboid::new(DVec3::new(1.0, 0.7, 0.4)).unwrap();
    let b = Cuboid::new(DVec3::new(0.6, 0.5, 0.3)).unwrap();
    let pa = Pose3::IDENTITY;
    let mut st = Stats {
        pairs: 0,
        separated: 0,
        intersecting: 0,
        max_depth_err: 0.0,
    };
    for angle in [0.0, 1e-12, 1e-9, 1e-7, 1e-5] {
        for t in [
            DVec3::new(1.5, 0.3, 0.1),
            DVec3::new(0.2, 1.1, 0.6),
            DVec3::new(1.59, 1.19, 0.69),
        ] {
            let pb = pose(t, DQuat::from_axis_angle(DVec3::ONE.normalize(), angle));
            check_pair(&a, &pa, &b, &pb, &mut st, &format!("angle {angle} t {t}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// General polyhedra (ConvexPolyhedron from the hull module)
// ---------------------------------------------------------------------------------------

use convexity::polytope::sat3d::{polyhedron_manifold, sat_with, SatContext};
use convexity_testkit::gen3::random_hull3;

fn random_poly(
    rg: &mut rand_chacha::ChaCha8Rng,
    n: std::ops::RangeInclusive<usize>,
) -> ConvexPolyhedron {
    loop {
        if let Ok(p) = ConvexPolyhedron::from_points(&random_hull3(rg, n.clone(), 0.2..=2.0)) {
            return p;
        }
    }
}

/// Largest `n·x − d` over the faces: 0 on the surface, negative inside.
fn plane_distance(p: &ConvexPolyhedron, pose: &Pose3, x: DVec3) -> f64 {
    let l = pose.inverse_transform_point(x);
    (0..p.num_faces())
        .map(|f| {
            let (n, d) = p.face_plane(f);
            n.dot(l) - d
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn polyhedron_sat_random_pairs_agree_with_gjk_epa_and_certificates() {
    let mut rg = rng(0x9011_4ed7);
    let mut ctx = SatContext::new();
    let (mut sep, mut hit, mut pruned_max) = (0, 0, 0u32);
    let mut worst_depth = 0.0f64;
    let mut worst_manifold = 0.0f64;
    let mut worst_deepest = 0.0f64;
    for i in 0..2200 {
        let a = random_poly(&mut rg, 4..=48);
        let b = random_poly(&mut rg, 4..=48);
        let pa = random_pose3(&mut rg, 3.0);
        let regime = Regime::ALL[i % Regime::ALL.len()];
        let q = random_quat(&mut rg);
        let u = unit_vector3(&mut rg);
        let pb = place_in_regime(&mut rg, &a, &pa, &b, q, u, regime).pose_b;
        let ctxs = format!("pair {i} ({})", regime.name());
        let (r, m) = sat_with(&a, &pa, &b, &pb, &mut ctx);
        assert_eq!(r.status, Status::Converged, "{ctxs}");
        let g = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
        let e = penetration(
            &a,
            &pa,
            &b,
            &pb,
            &epa::Options::default(),
            &mut epa::Context::new(),
        );
        let scale = a.size() + b.size();
        let tol = r.tolerance;
        pruned_max = pruned_max.max(r.iterations);
        match r.intersecting() {
            Some(true) => {
                hit += 1;
                assert!(
                    g.distance <= 2.0 * tol,
                    "{ctxs}: GJK distance {}",
                    g.distance
                );
            }
            Some(false) => {
                sep += 1;
                assert!(e.depth < 2.0 * tol, "{ctxs}: EPA depth {}", e.depth);
                assert!(
                    r.separation <= g.distance + 2.0 * tol,
                    "{ctxs}: gap > distance"
                );
            }
            None => panic!("{ctxs}: undetermined"),
        }
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &r.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap_or_else(|err| panic!("{ctxs}: certificate {err}"));
        if r.intersecting() == Some(true) && e.depth > 0.0 {
            let err = (r.depth() - e.depth).abs();
            worst_depth = worst_depth.max(err / scale);
            assert!(
                err <= 1e-9 * scale,
                "{ctxs}: SAT depth {} vs EPA {}",
                r.depth(),
                e.depth
            );
        }
        if let Some(m) = m {
            assert!(!m.is_empty() && m.len() <= 4, "{ctxs}");
            let mtol = 1e-9 * scale;
            for c in m.points() {
                let da = plane_distance(&a, &pa, c.point_a).abs();
                let db = plane_distance(&b, &pb, c.point_b).abs();
                worst_manifold = worst_manifold.max(da.max(db) / scale);
                assert!(
                    da <= mtol && db <= mtol,
                    "{ctxs}: contact off the surfaces ({da}, {db})"
                );
                let rel = c.point_a - c.point_b - m.normal * c.depth;
                assert!(rel.length() <= mtol, "{ctxs}: point relation {rel}");
            }
            if e.depth > 0.0 {
                let deepest = m.deepest().map_or(f64::NAN, |c| c.depth);
                worst_deepest = worst_deepest.max((deepest - e.depth).abs() / scale);
            }
        }
    }
    eprintln!(
        "polyhedron SAT: {} pairs ({sep} separated, {hit} intersecting); max |SAT − EPA| / scale {worst_depth:.1e}; manifold off-surface {worst_manifold:.1e}; deepest vs EPA {worst_deepest:.1e}; max axes tested {pruned_max}",
        sep + hit
    );
    assert!(sep > 600 && hit > 1000);
    assert!(
        worst_deepest <= 1e-6,
        "deepest contact vs EPA {worst_deepest}"
    );
}

#[test]
fn polyhedron_sat_agrees_with_clarabel_oracle() {
    let mut rg = rng(0xc1a7);
    let mut decided = 0;
    for i in 0..250 {
        let a = random_poly(&mut rg, 4..=24);
        let b = random_poly(&mut rg, 4..=24);
        let pa = random_pose3(&mut rg, 1.5);
        let pb = random_pose3(&mut rg, 1.5);
        let r = sat(&a, &pa, &b, &pb);
        let wa: Vec<DVec3> = a
            .vertices()
            .iter()
            .map(|p| pa.transform_point(*p))
            .collect();
        let wb: Vec<DVec3> = b
            .vertices()
            .iter()
            .map(|p| pb.transform_point(*p))
            .collect();
        let o = hull_distance3(&wa, &wb).expect("oracle");
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
            assert_eq!(r.intersecting(), Some(true), "pair {i}");
            decided += 1;
        }
    }
    assert!(decided > 200, "{decided}");
}

#[test]
fn polyhedron_manifold_cuboids_match_box_box() {
    let mut rg = rng(31);
    for i in 0..300 {
        let a = random_cuboid(&mut rg, 0.1, 1.0);
        let b = random_cuboid(&mut rg, 0.1, 1.0);
        let (ha, hb) = (a.half_extents(), b.half_extents());
        let (pa_, pb_) = (ConvexPolyhedron::cuboid(ha), ConvexPolyhedron::cuboid(hb));
        let pa = random_pose3(&mut rg, 1.0);
        let pb = random_pose3(&mut rg, 1.0);
        let r = box_box(&a, &pa, &b, &pb);
        let q = sat(&pa_, &pa, &pb_, &pb);
        assert_eq!(r.intersecting(), q.intersecting(), "pair {i}");
        if r.intersecting() == Some(true) {
            assert!((r.separation - q.separation).abs() < 1e-12, "pair {i}");
            let m = polyhedron_manifold(&pa_, &pa, &pb_, &pb).expect("contact");
            assert!(!m.is_empty());
        }
    }
}

/// The overlay walk over edge pairs equals the full O(E_A·E_B) scan: the same verdict on
/// 2,400 random hull pairs (sphere hulls of 4 to 128 points, flattened blobs, boxes and
/// rounded sphere hulls; aligned poses for exact ties), and when not separated the
/// same depth to 1e-12 relative.
#[test]
fn sat_edge_walk_equals_the_full_scan_on_random_hulls() {
    use convexity::hull::ConvexPolyhedron;
    use convexity::polytope::sat3d::sat_full_scan;
    use convexity_testkit::gen3::{ellipsoid_blob, sphere_points};
    use rand::Rng;
    let mut r = rng(0x5a73d);
    let hull = |r: &mut rand_chacha::ChaCha8Rng, kind: usize| -> ConvexPolyhedron {
        let pts = match kind % 4 {
            0 => {
                let n = r.gen_range(4..=128);
                sphere_points(r, n, 1.0)
            }
            1 => {
                let n = r.gen_range(8..=64);
                ellipsoid_blob(r, n, DVec3::new(1.0, 0.5, 0.05))
            }
            2 => box_corners3(DVec3::new(0.5, 0.3, 0.8)),
            _ => sphere_points(r, 200, 1.0)
                .into_iter()
                .map(|p| (p * 1e3).round() * 1e-3)
                .collect(),
        };
        ConvexPolyhedron::from_points(&pts).unwrap()
    };
    let (mut pairs, mut hits, mut worst) = (0, 0, 0.0f64);
    for i in 0..2400 {
        let a = hull(&mut r, i);
        let kind_b = i / 4 + r.gen_range(0..4);
        let b = hull(&mut r, kind_b);
        let pa = random_pose3(&mut r, 1.0);
        // Aligned poses for the boxes and lattices (exact ties), random ones otherwise.
        let q = if i % 3 == 0 {
            pa.rotation()
        } else {
            random_quat(&mut r)
        };
        let t = pa.translation() + unit_vector3(&mut r) * r.gen_range(0.0..2.5);
        let pb = Pose3::new(t, q).unwrap();
        let walk = sat(&a, &pa, &b, &pb);
        let scan = sat_full_scan(&a, &pa, &b, &pb);
        pairs += 1;
        assert_eq!(
            walk.intersecting(),
            scan.intersecting(),
            "pair {i}: walk {walk:?} scan {scan:?}"
        );
        if scan.separation <= scan.tolerance {
            hits += 1;
            let err = (walk.separation - scan.separation).abs() / scan.separation.abs().max(1.0);
            worst = worst.max(err);
            assert!(
                err <= 1e-12,
                "pair {i}: depth {} vs {}",
                walk.depth(),
                scan.depth()
            );
        }
    }
    eprintln!("walk vs scan: {pairs} pairs, {hits} not separated, worst depth error {worst:e}");
    assert!(hits > 200);
}

/// The pruned SAT (support calls skipped by centre-ball bounds, edges of cold faces never
/// walked) against the unpruned full scan where the bounds' slack matters most: hulls far from
/// the origin (offsets 1e3 and 1e6), size ratios 1e2 and 1e4, and gaps swept across the touch
/// tolerance (0.5× to 2×, along GJK's normal) as well as deep and shallow overlaps. The same
/// verdict every time, the same depth up to the tie tolerance when not separated, and every
/// certificate verifies.
#[test]
fn sat_pruning_equals_the_full_scan_far_out_and_at_size_ratios() {
    use convexity::hull::ConvexPolyhedron;
    use convexity::polytope::sat3d::sat_full_scan;
    use convexity_testkit::gen3::sphere_points;
    use rand::Rng;
    let mut r = rng(0x9a11e);
    let (mut hits, mut near) = (0, 0);
    for i in 0..600 {
        let offset = [0.0, 1e3, 1e6][i % 3];
        let ratio = [1.0, 1e2, 1e4][(i / 3) % 3];
        let n_a = r.gen_range(16..=160);
        let n_b = r.gen_range(16..=160);
        let a = ConvexPolyhedron::from_points(&sphere_points(&mut r, n_a, 1.0)).unwrap();
        let b_pts: Vec<DVec3> = sphere_points(&mut r, n_b, 1.0)
            .into_iter()
            .map(|p| p / ratio)
            .collect();
        let b = ConvexPolyhedron::from_points(&b_pts).unwrap();
        let base = unit_vector3(&mut r) * offset;
        let pa = Pose3::new(base, random_quat(&mut r)).unwrap();
        let qb = random_quat(&mut r);
        // Place B apart along a random direction, then move it along GJK's normal (from A to
        // B) so that the distance becomes exactly the gap (negative: an overlap that deep).
        let dir = unit_vector3(&mut r);
        let probe = Pose3::new(base + dir * 3.0, qb).unwrap();
        let g = gjk::distance(&a, &pa, &b, &probe, &gjk::Options::default(), None);
        let tol = sat_full_scan(&a, &pa, &b, &probe).tolerance;
        let gap = match i % 4 {
            0 => tol * r.gen_range(0.5..2.0),
            1 => -tol * r.gen_range(0.5..2.0),
            2 => -r.gen_range(0.0..0.5) / ratio,
            _ => -r.gen_range(0.0..1.0),
        };
        let pb = Pose3::new(base + dir * 3.0 - g.normal * (g.distance - gap), qb).unwrap();
        let walk = sat(&a, &pa, &b, &pb);
        let scan = sat_full_scan(&a, &pa, &b, &pb);
        assert_eq!(
            walk.intersecting(),
            scan.intersecting(),
            "pair {i} (offset {offset:e}, ratio {ratio:e}): walk {walk:?} scan {scan:?}"
        );
        assert!(
            verify(&a, &pa, &b, &pb, &walk.verdict, walk.tolerance).is_ok(),
            "pair {i}: certificate {:?}",
            walk.verdict
        );
        if scan.separation <= scan.tolerance {
            hits += 1;
            near += usize::from(i % 4 < 2);
            // Equal up to the tie rule: an axis replaces the best only when better by more than
            // the tolerance, and the walk meets the edge pairs in another order than the scan.
            let err = (walk.separation - scan.separation).abs();
            assert!(
                err <= scan.tolerance + 1e-12 * scan.separation.abs(),
                "pair {i} (offset {offset:e}, ratio {ratio:e}): depth {} vs {}",
                walk.depth(),
                scan.depth()
            );
        }
    }
    assert!(
        hits > 350 && near > 100,
        "{hits} not separated, {near} near touching"
    );
}

/// Regression (found by the compound contact checks): for a flat or thin polytope the SAT tries
/// every edge pair only to name axes, so an edge–edge axis need not come from the supporting
/// edges, and the manifold took the closest points of two unrelated edges (point_a − point_b
/// off the normal by 0.92 on a triangle against a box). Every contact of 2,000 random
/// triangle, segment and flat-polygon pairs against boxes and hulls now has point_a on A,
/// point_b on B (GJK distance from the point) and point_a − point_b = depth·normal.
#[test]
fn lower_dimensional_manifolds_keep_the_contact_convention() {
    use convexity::hull::ConvexPolyhedron;
    use convexity::polytope::sat3d::polyhedron_manifold;
    use convexity_testkit::gen3::sphere_points;
    use rand::Rng;
    let mut r = rng(0x10d1);
    let (mut checked, mut edges) = (0, 0);
    for i in 0..2000 {
        let flat: Vec<DVec3> = match i % 3 {
            0 => (0..3).map(|_| unit_vector3(&mut r)).collect(),
            1 => (0..2).map(|_| unit_vector3(&mut r)).collect(),
            _ => sphere_points(&mut r, 8, 1.0)
                .into_iter()
                .map(|p| DVec3::new(p.x, p.y, 0.0))
                .collect(),
        };
        let solid = if i % 2 == 0 {
            box_corners3(DVec3::new(
                r.gen_range(0.1..0.8),
                r.gen_range(0.1..0.8),
                r.gen_range(0.1..0.8),
            ))
        } else {
            sphere_points(&mut r, 24, 0.7)
        };
        let a = ConvexPolyhedron::from_points_any(&flat).unwrap();
        let b = ConvexPolyhedron::from_points_any(&solid).unwrap();
        let pa = random_pose3(&mut r, 1.0);
        let pb = Pose3::new(
            pa.translation() + unit_vector3(&mut r) * r.gen_range(0.0..1.0),
            random_quat(&mut r),
        )
        .unwrap();
        let Some(m) = polyhedron_manifold(&a, &pa, &b, &pb) else {
            continue;
        };
        let t = tolerance_for(&a, &pa, &b, &pb);
        let off = |p: DVec3, s: &ConvexPolyhedron, q: &Pose3| {
            let pt = Points::new(&[p]).unwrap();
            gjk::distance(&pt, &Pose3::IDENTITY, s, q, &gjk::Options::default(), None).distance
        };
        checked += 1;
        edges += usize::from(matches!(
            m.feature,
            convexity::polytope::manifold::Feature::Edges { .. }
        ));
        for c in m.points() {
            let gap = (c.point_a - c.point_b - m.normal * c.depth).length();
            assert!(gap <= 4.0 * t, "pair {i}: {m:?}");
            assert!(
                off(c.point_a, &a, &pa) <= 4.0 * t,
                "pair {i}: point_a off A {m:?}"
            );
            assert!(
                off(c.point_b, &b, &pb) <= 4.0 * t,
                "pair {i}: point_b off B {m:?}"
            );
        }
    }
    assert!(
        checked > 800 && edges > 50,
        "{checked} manifolds, {edges} edge axes"
    );
}

/// `query::run(Method::Sat, ..)` answers an overlapping pair with contact points (the deepest
/// pair of the contact manifold its SAT run builds), not only the depth and normal: random
/// overlapping boxes (the box–box path) and sphere-point hulls of 4–20 points (the polyhedron
/// SAT), sizes 1e-2 … 1e2 and offsets to 1e6.
#[test]
fn sat_query_contact_points_lie_on_both_surfaces_apart_by_the_depth() {
    let mut r = rng(0x5a7_c0c7);
    let mut checked = 0;
    for case in 0..600 {
        let size = [1e-2, 1.0, 1e2][case % 3];
        let offset = if case % 5 == 0 { 1e6 } else { 0.0 };
        let at = |p: Pose3| {
            Pose3::new(p.translation() * size + DVec3::splat(offset), p.rotation()).unwrap()
        };
        let (pa, pb) = (at(random_pose3(&mut r, 0.3)), at(random_pose3(&mut r, 0.3)));
        let name = format!("case {case} (size {size}, offset {offset})");
        let ok = if case % 2 == 0 {
            let a = Cuboid::new(random_cuboid(&mut r, 0.2, 1.0).half_extents() * size).unwrap();
            let b = Cuboid::new(random_cuboid(&mut r, 0.2, 1.0).half_extents() * size).unwrap();
            let o = query::run(query::Method::Sat, &a, &pa, &b, &pb).unwrap();
            contact_points_hold(&name, &o, &world_corners(&a, &pa), &world_corners(&b, &pb))
        } else {
            let pts = |r: &mut _| {
                let n = rand::Rng::gen_range(r, 4..=20);
                Points::new(&sphere_points(r, n, size)).unwrap()
            };
            let (a, b) = (pts(&mut r), pts(&mut r));
            let o = query::run(query::Method::Sat, &a, &pa, &b, &pb).unwrap();
            contact_points_hold(&name, &o, &world_points(&a, &pa), &world_points(&b, &pb))
        };
        checked += usize::from(ok);
    }
    assert!(checked >= 300, "only {checked} of 600 pairs overlapped");
}
