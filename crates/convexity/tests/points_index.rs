//! `Points::with_hull_index`: support by hill climbing over the hull (or a scan of the hull's
//! vertices) instead of a scan of every point. Checked against the plain scan of the same
//! points (the support value, point for point), against the clarabel distance oracle, and by
//! verifying every certificate on the *plain* set, on the degenerate sets a user can hand in:
//! flat, collinear, one repeated point, duplicates, an offset of 1e6, a 1e4:1 needle, and
//! clouds whose hull keeps few of the points.

use convexity::gjk::epa::{self, Context};
use convexity::gjk::{self, certificate};
use convexity::{DVec3, Points, Pose, SupportMap, Verdict};
use convexity_testkit::gen3::{random_pose3, random_quat, sphere_points, unit_vector3};
use convexity_testkit::hull_oracle::{hull_distance3, world_points};
use convexity_testkit::rng;
use rand::Rng;

/// The sets, by name: each of more than 64 points (the index's threshold).
fn sets() -> Vec<(&'static str, Vec<DVec3>)> {
    let mut r = rng(41);
    let mut u = |lo: f64, hi: f64| r.gen_range(lo..hi);
    let sphere: Vec<DVec3> = sphere_points(&mut rng(1), 1500, 1.0);
    let cube: Vec<DVec3> = (0..3000)
        .map(|_| DVec3::new(u(-1.0, 1.0), u(-1.0, 1.0), u(-1.0, 1.0)))
        .collect();
    let flat: Vec<DVec3> = (0..400)
        .map(|_| DVec3::new(u(-1.0, 1.0), u(-1.0, 1.0), 0.25))
        .collect();
    let line: Vec<DVec3> = (0..200)
        .map(|_| DVec3::new(1.0, -2.0, 0.5) * u(-1.0, 1.0))
        .collect();
    let point = vec![DVec3::new(0.3, -0.2, 0.1); 100];
    let dups: Vec<DVec3> = sphere_points(&mut rng(2), 300, 0.7)
        .into_iter()
        .flat_map(|p| [p, p, p])
        .collect();
    let offset: Vec<DVec3> = sphere_points(&mut rng(3), 500, 1.0)
        .into_iter()
        .map(|p| p + DVec3::new(1e6, -1e6, 1e6))
        .collect();
    let needle: Vec<DVec3> = (0..800)
        .map(|_| DVec3::new(u(0.0, 1e4), u(0.0, 1.0), u(0.0, 1.0)))
        .collect();
    let few = sphere_points(&mut rng(4), 65, 1.0);
    vec![
        ("sphere", sphere),
        ("cube cloud", cube),
        ("flat", flat),
        ("collinear", line),
        ("one point", point),
        ("duplicates", dups),
        ("offset 1e6", offset),
        ("needle 1e4", needle),
        ("65 points", few),
    ]
}

/// `Σ_k max_i |p_i[k]|`: the magnitude the hull's build tolerance is relative to.
fn magnitude(pts: &[DVec3]) -> f64 {
    let m = pts.iter().fold(DVec3::ZERO, |m, p| m.max(p.abs()));
    m.x + m.y + m.z
}

/// Along random, axis and diagonal directions (and the zero direction), the indexed set
/// returns one of its own points whose value is the plain scan's maximum, or short of it by at
/// most the hull's check bound (4 × 16ε × magnitude × |d|; in these sets it is exact).
#[test]
fn indexed_support_returns_a_point_of_the_set_with_the_scans_value() {
    for (name, pts) in sets() {
        let plain = Points::new(&pts).unwrap();
        let indexed = plain.clone().with_hull_index();
        let hv = indexed
            .hull_index_vertices()
            .unwrap_or_else(|| panic!("{name}: no index"));
        assert!(hv <= pts.len(), "{name}");
        let bound = 64.0 * f64::EPSILON * magnitude(&pts);
        let mut r = rng(7);
        let mut dirs: Vec<DVec3> = (0..3000).map(|_| unit_vector3(&mut r)).collect();
        for x in [-1.0, 0.0, 1.0] {
            for y in [-1.0, 0.0, 1.0] {
                for z in [-1.0, 0.0, 1.0] {
                    dirs.push(DVec3::new(x, y, z));
                }
            }
        }
        let mut short = 0.0f64;
        for d in dirs {
            let want = pts
                .iter()
                .map(|p| d.dot(*p))
                .fold(f64::NEG_INFINITY, f64::max);
            let got = indexed.core_support(d);
            assert!(
                pts.contains(&got),
                "{name}: {got:?} is not a point of the set"
            );
            let gap = want - d.dot(got);
            assert!(
                gap >= 0.0 && gap <= bound * d.length(),
                "{name}, {d:?}: short by {gap:e}"
            );
            short = short.max(gap);
        }
        // The plain set is untouched and reports no index.
        assert!(plain.hull_index_vertices().is_none(), "{name}");
        eprintln!(
            "{name}: {hv} hull vertices of {}, worst shortfall {short:e}",
            pts.len()
        );
    }
}

/// The hull keeps what it should: 8 corners of a cube among 3000 interior points, 2 ends of a
/// collinear set, 1 point of a repeated one, and the index only above 64 points.
#[test]
fn index_keeps_the_hull_vertices_only_and_only_where_it_pays() {
    let mut r = rng(5);
    let mut pts: Vec<DVec3> = (0..3000)
        .map(|_| {
            DVec3::new(
                r.gen_range(-0.9..0.9),
                r.gen_range(-0.9..0.9),
                r.gen_range(-0.9..0.9),
            )
        })
        .collect();
    for c in 0..8 {
        let s = |k: i32| if c >> k & 1 == 1 { 1.0 } else { -1.0 };
        pts.insert(37 * c, DVec3::new(s(0), s(1), s(2)));
    }
    let cube = Points::new(&pts).unwrap().with_hull_index();
    assert_eq!(cube.hull_index_vertices(), Some(8));
    let line: Vec<DVec3> = (0..100).map(|i| DVec3::X * i as f64).collect();
    assert_eq!(
        Points::new(&line)
            .unwrap()
            .with_hull_index()
            .hull_index_vertices(),
        Some(2)
    );
    let point = vec![DVec3::ONE; 70];
    assert_eq!(
        Points::new(&point)
            .unwrap()
            .with_hull_index()
            .hull_index_vertices(),
        Some(1)
    );
    // At or below 64 points the scan is kept (it is as fast as a climb there).
    let small = sphere_points(&mut rng(6), 64, 1.0);
    assert_eq!(
        Points::new(&small)
            .unwrap()
            .with_hull_index()
            .hull_index_vertices(),
        None
    );
    // Clones share the index.
    let c2 = cube.clone();
    assert_eq!(c2.hull_index_vertices(), Some(8));
}

/// GJK distance and boolean, and EPA, on indexed sets give the plain sets' verdicts and
/// distances (within 1e-12 of the scale; depths within GJK's tolerance), every certificate
/// verifies against the plain sets, and the distance is within the clarabel oracle's bracket
/// plus the tolerance. Pairs of every named set against a sphere cloud, at random poses, and
/// placed exactly touching (a vertex of B moved onto a support point of A).
#[test]
fn indexed_sets_answer_queries_as_the_plain_sets() {
    let other = Points::new(&sphere_points(&mut rng(9), 400, 0.8)).unwrap();
    let other_idx = other.clone().with_hull_index();
    let opts = gjk::Options::default();
    let mut r = rng(11);
    let mut oracle_checked = 0;
    let mut overlapping = 0;
    for (name, pts) in sets() {
        let plain = Points::new(&pts).unwrap();
        let indexed = plain.clone().with_hull_index();
        let scale = pts.iter().map(|p| p.length()).fold(0.0, f64::max) + 1.0;
        let centre = pts.iter().fold(DVec3::ZERO, |s, p| s + *p) / pts.len() as f64;
        for k in 0..60 {
            // A's centre at the origin (its coordinates stay as given in its own frame).
            let q = random_quat(&mut r);
            let pa = Pose::new(-(q * centre), q).unwrap();
            let mut pb = random_pose3(&mut r, 1.5);
            if k % 5 == 0 {
                // Touching: B's support point along −u onto A's along u.
                let u = unit_vector3(&mut r);
                let on_a = pa.transform_point(plain.core_support(pa.inverse_transform_vector(u)));
                let on_b = pb.transform_point(other.core_support(pb.inverse_transform_vector(-u)));
                pb = Pose::new(pb.translation() + (on_a - on_b), pb.rotation()).unwrap();
            }
            let want = gjk::distance(&plain, &pa, &other, &pb, &opts, None);
            let got = gjk::distance(&indexed, &pa, &other_idx, &pb, &opts, None);
            let tol = want.tolerance.max(got.tolerance);
            assert!(
                (want.distance - got.distance).abs() <= 1e-12 * scale + tol,
                "{name} #{k}: {} vs {}",
                want.distance,
                got.distance
            );
            assert_eq!(
                matches!(want.verdict, Verdict::Intersecting(_)),
                matches!(got.verdict, Verdict::Intersecting(_)),
                "{name} #{k}: verdict"
            );
            let ctol = certificate::tolerance_for(&plain, &pa, &other, &pb);
            certificate::verify(&plain, &pa, &other, &pb, &got.verdict, ctol)
                .unwrap_or_else(|e| panic!("{name} #{k}: distance certificate: {e}"));
            let b = gjk::intersects(&indexed, &pa, &other_idx, &pb, &opts, None);
            certificate::verify(&plain, &pa, &other, &pb, &b.verdict, ctol)
                .unwrap_or_else(|e| panic!("{name} #{k}: boolean certificate: {e}"));
            if matches!(got.verdict, Verdict::Intersecting(_)) {
                overlapping += 1;
                let eo = epa::Options::default();
                let dw = epa::penetration(&plain, &pa, &other, &pb, &eo, &mut Context::new());
                let dg = epa::penetration(&indexed, &pa, &other_idx, &pb, &eo, &mut Context::new());
                assert!(
                    (dw.depth - dg.depth).abs() <= 1e-9 * scale,
                    "{name} #{k}: depth {} vs {}",
                    dw.depth,
                    dg.depth
                );
            }
            if k % 6 == 0 && pts.len() <= 1500 {
                let o =
                    hull_distance3(&world_points(&plain, &pa), &world_points(&other, &pb)).unwrap();
                assert!(
                    got.distance >= o.lower_bound - tol && got.distance <= o.upper_bound + tol,
                    "{name} #{k}: {} outside the oracle's [{}, {}]",
                    got.distance,
                    o.lower_bound,
                    o.upper_bound
                );
                oracle_checked += 1;
            }
        }
    }
    assert!(oracle_checked >= 40, "{oracle_checked}");
    // Both verdicts occur often (between a quarter and three quarters of the 540 pairs overlap).
    assert!((135..=405).contains(&overlapping), "{overlapping}");
}
