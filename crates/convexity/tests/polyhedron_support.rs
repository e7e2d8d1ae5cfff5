//! Support strategies of `ConvexPolyhedron` (linear scan, hill climbing, far starts, the
//! size-based `support_index`) against an independent plain linear scan over the vertices:
//! the extreme VALUE must be bit-identical, the index may differ only on ties.

use convexity::hull::{ConvexPolyhedron, HullOptions, HullResult};
use convexity::{DVec3, SupportMap};
use convexity_testkit::gen3::{ellipsoid_blob, perturbed_blob, sphere_points, unit_vector3};
use convexity_testkit::rng;

fn solid(points: &[DVec3]) -> ConvexPolyhedron {
    match ConvexPolyhedron::build(points, &HullOptions::default()).unwrap() {
        HullResult::Solid(p) => p,
        other => panic!("expected a solid, got {other:?}"),
    }
}

/// The oracle: max of `d·v` over the vertices, by a plain loop (not the library's scan).
fn max_dot(p: &ConvexPolyhedron, d: DVec3) -> f64 {
    p.vertices()
        .iter()
        .map(|v| d.dot(*v))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// A prism over a regular `n`-gon (coplanar plateaus on the caps, vertical quads).
fn prism(n: usize, r: f64, h: f64) -> Vec<DVec3> {
    let mut out = Vec::new();
    for k in 0..n {
        let t = std::f64::consts::TAU * k as f64 / n as f64;
        out.push(DVec3::new(r * t.cos(), r * t.sin(), -h));
        out.push(DVec3::new(r * t.cos(), r * t.sin(), h));
    }
    out
}

/// Directions: random, axis-aligned (±x, ±y, ±z and their sums) and every face normal.
fn directions(p: &ConvexPolyhedron, seed: u64, count: usize) -> Vec<DVec3> {
    let mut r = rng(seed);
    let mut dirs: Vec<DVec3> = (0..count).map(|_| unit_vector3(&mut r)).collect();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                dirs.push(DVec3::new(x, y, z));
            }
        }
    }
    for f in 0..p.num_faces() {
        dirs.push(p.face_plane(f).0);
    }
    dirs
}

fn check_all_strategies(p: &ConvexPolyhedron, seed: u64) {
    let n = p.num_vertices();
    let v = p.vertices();
    let mut max_steps = 0;
    for (k, d) in directions(p, seed, 10_000).into_iter().enumerate() {
        let want = max_dot(p, d);
        let lin = p.support_linear(d);
        assert_eq!(d.dot(v[lin]), want, "linear, dir {d:?}");
        let (hc, steps) = p.support_hill_climb(d, k % n);
        max_steps = max_steps.max(steps);
        assert_eq!(d.dot(v[hc]), want, "hill climb from {} dir {d:?}", k % n);
        let far = p.support_from_map(d);
        assert_eq!(d.dot(v[far]), want, "far start, dir {d:?}");
        let auto = p.support_index(d, None);
        assert_eq!(d.dot(v[auto]), want, "support_index, dir {d:?}");
        let hinted = p.support_index(d, Some((k * 7919) % n));
        assert_eq!(d.dot(v[hinted]), want, "support_index with hint, dir {d:?}");
        let sp = p.core_support(d);
        assert_eq!(d.dot(sp), want, "SupportMap, dir {d:?}");
    }
    assert!(max_steps < n);
}

#[test]
fn strategies_agree_on_sphere_hulls() {
    for (i, n) in [8usize, 40, 200, 2000].into_iter().enumerate() {
        let mut r = rng(100 + i as u64);
        let p = solid(&sphere_points(&mut r, n, 1.0));
        check_all_strategies(&p, 7 + i as u64);
    }
}

#[test]
fn strategies_agree_on_blobs() {
    let mut r = rng(5);
    let p = solid(&ellipsoid_blob(&mut r, 3000, DVec3::new(1.0, 0.1, 3.0)));
    check_all_strategies(&p, 11);
    let p = solid(&perturbed_blob(&mut r, 1000, 2.0, 0.3));
    check_all_strategies(&p, 12);
}

#[test]
fn strategies_agree_on_boxes_with_plateaus() {
    let p = ConvexPolyhedron::cuboid(DVec3::new(1.0, 2.0, 0.5));
    check_all_strategies(&p, 21);
    // A box whose faces carry a grid of coplanar points: large plateaus, many ties.
    let mut pts = Vec::new();
    for i in 0..=10 {
        for j in 0..=10 {
            let (a, b) = (-1.0 + 0.2 * i as f64, -1.0 + 0.2 * j as f64);
            for s in [-1.0, 1.0] {
                pts.push(DVec3::new(s, a, b));
                pts.push(DVec3::new(a, s, b));
                pts.push(DVec3::new(a, b, s));
            }
        }
    }
    let p = solid(&pts);
    assert_eq!(p.num_vertices(), 8);
    check_all_strategies(&p, 22);
}

#[test]
fn strategies_agree_on_prisms() {
    for (i, n) in [6usize, 64, 500].into_iter().enumerate() {
        let p = solid(&prism(n, 1.0, 0.25));
        assert_eq!(p.num_faces(), n + 2, "prism {n}");
        check_all_strategies(&p, 31 + i as u64);
    }
}

#[test]
fn support_of_zero_and_nan_directions_is_a_vertex() {
    let mut r = rng(9);
    let p = solid(&sphere_points(&mut r, 500, 1.0));
    for d in [DVec3::ZERO, DVec3::NAN, DVec3::new(f64::INFINITY, 0.0, 0.0)] {
        assert!(p.support_index(d, None) < p.num_vertices());
        assert!(p.support_index(d, Some(3)) < p.num_vertices());
        assert!(p.support_hill_climb(d, 10_000).0 < p.num_vertices());
    }
}
