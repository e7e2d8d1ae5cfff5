//! The Dobkin–Kirkpatrick hierarchy against a linear scan, analytic containment and GJK.

use convexity::hull::dk::{DkHierarchy, TOP_MAX_VERTICES};
use convexity::hull::ConvexPolyhedron;
use convexity::{gjk, DVec3, Points, Pose3, SupportMap};
use convexity_testkit::gen3::{box_corners3, sphere_points, unit_vector3};
use convexity_testkit::rng::rng as seeded;
use rand::Rng;

fn linear_max(p: &ConvexPolyhedron, d: DVec3) -> f64 {
    p.vertices()
        .iter()
        .map(|v| d.dot(*v))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn extreme_vertex_equals_linear_scan_on_random_directions() {
    let mut rng = seeded(0xD1);
    for n in [20, 200, 2_000, 20_000] {
        let p = ConvexPolyhedron::from_points(&sphere_points(&mut rng, n, 1.0)).unwrap();
        let h = DkHierarchy::build(&p);
        let sizes = h.level_sizes();
        assert!(*sizes.last().unwrap() <= TOP_MAX_VERTICES.max(sizes[0]));
        // O(log n) levels: each level removes a constant fraction.
        assert!(
            h.levels() as f64 <= 2.0 + 4.0 * (n as f64).log2(),
            "{n}: {sizes:?}"
        );
        let mut steps = 0;
        for _ in 0..5_000 {
            let d = unit_vector3(&mut rng);
            let (i, s) = h.support_index_steps(d);
            steps += s;
            assert_eq!(
                d.dot(p.vertices()[i]),
                linear_max(&p, d),
                "n = {n}, dir {d}"
            );
        }
        eprintln!(
            "n = {n}: levels {sizes:?}, {:.1} climbing steps per query",
            steps as f64 / 5_000.0
        );
    }
}

#[test]
fn plateaus_and_axis_directions_on_boxes_and_prisms() {
    let boxp = ConvexPolyhedron::from_points(&box_corners3(DVec3::new(1.0, 2.0, 3.0))).unwrap();
    // A prism with many vertices on two parallel caps: large coplanar plateaus.
    let mut pts = Vec::new();
    for k in 0..400 {
        let t = k as f64 / 400.0 * std::f64::consts::TAU;
        pts.push(DVec3::new(t.cos(), t.sin(), 1.0));
        pts.push(DVec3::new(t.cos(), t.sin(), -1.0));
    }
    let prism = ConvexPolyhedron::from_points(&pts).unwrap();
    for p in [&boxp, &prism] {
        let h = DkHierarchy::build(p);
        for d in [
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(0.0, 1e-17, 1.0),
            DVec3::ZERO,
        ] {
            let i = h.support_index(d);
            assert_eq!(d.dot(p.vertices()[i]), linear_max(p, d), "{d}");
        }
    }
}

#[test]
fn containment_and_closest_points_match_the_box_analytically() {
    let half = DVec3::new(1.0, 0.5, 2.0);
    // A box hull refined with points on its faces, so the hierarchy has several levels.
    let mut rng = seeded(0xD2);
    let mut pts = box_corners3(half);
    for _ in 0..3000 {
        let mut p = DVec3::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        ) * half;
        let k = rng.gen_range(0..3);
        p[k] = if rng.gen_bool(0.5) { half[k] } else { -half[k] };
        pts.push(p);
    }
    let p = ConvexPolyhedron::from_points(&pts).unwrap();
    let h = DkHierarchy::build(&p);
    for _ in 0..500 {
        let q = DVec3::new(
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-3.0..3.0),
        );
        let clamped = q.clamp(-half, half);
        let want = (q - clamped).length();
        let (c, d) = h.closest_point(q).unwrap();
        assert!((d - want).abs() < 1e-9, "{q}: {d} vs {want}");
        if want > 1e-6 {
            assert!((c - clamped).length() < 1e-6, "{q}: {c} vs {clamped}");
            assert_eq!(h.contains(q), Some(false));
        } else {
            assert_eq!(h.contains(q), Some(true));
        }
    }
}

#[test]
fn gjk_with_the_hierarchy_equals_gjk_with_the_points() {
    let mut rng = seeded(0xD3);
    let pts_a = sphere_points(&mut rng, 3000, 1.0);
    let pts_b = sphere_points(&mut rng, 3000, 0.7);
    let ha = DkHierarchy::build(&ConvexPolyhedron::from_points(&pts_a).unwrap());
    let (sa, sb) = (Points::new(&pts_a).unwrap(), Points::new(&pts_b).unwrap());
    for _ in 0..200 {
        let pb = Pose3::from_translation(unit_vector3(&mut rng) * rng.gen_range(0.5..4.0)).unwrap();
        let id = Pose3::IDENTITY;
        let o = gjk::Options::default();
        let x = gjk::distance(&ha, &id, &sb, &pb, &o, None);
        let y = gjk::distance(&sa, &id, &sb, &pb, &o, None);
        assert!(
            (x.distance - y.distance).abs() < 1e-12,
            "{} vs {}",
            x.distance,
            y.distance
        );
        assert_eq!(x.intersecting(), y.intersecting());
        assert!(ha.size() > 0.0);
    }
}
