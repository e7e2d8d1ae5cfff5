//! Seeded 2D generators: point sets, convex polygons, angles and rigid poses.
//!
//! What: the 2D counterparts of [`crate::gen3`]. Polygons are built from points on a circle
//! sorted by angle, so they are convex by construction (every vertex on the circle).
//!
//! Source: uniform angles; points in a disc by rejection from the square.
//! Complexity: O(n log n) for a polygon (the sort), O(n) otherwise.
//! Preconditions: counts ≥ 1 (≥ 3 for a polygon with area); finite ranges with `lo ≤ hi`.
//! Failure modes: panics on an empty or inverted range (from `rand`). Two points drawn at the
//! same angle give a repeated vertex, which `ConvexPolygon` accepts.

use crate::rng::Rng;
use convexity::{ConvexPolygon, DVec2, Pose2, Rot2};
use std::f64::consts::{PI, TAU};

/// An angle uniform in `[-π, π)`.
pub fn random_angle<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.gen_range(-PI..PI)
}

/// A uniform random 2D rotation.
pub fn random_rot2<R: Rng + ?Sized>(rng: &mut R) -> Rot2 {
    Rot2::from_angle(random_angle(rng))
}

/// A unit vector uniform on the circle.
pub fn unit_vector2<R: Rng + ?Sized>(rng: &mut R) -> DVec2 {
    let a = random_angle(rng);
    DVec2::new(a.cos(), a.sin())
}

/// A point uniform in the unit disc.
pub fn in_unit_disc<R: Rng + ?Sized>(rng: &mut R) -> DVec2 {
    loop {
        let p = DVec2::new(rng.gen_range(-1.0..=1.0), rng.gen_range(-1.0..=1.0));
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// `n` points on the circle of `radius`, sorted counter-clockwise by angle.
pub fn circle_points<R: Rng + ?Sized>(rng: &mut R, n: usize, radius: f64) -> Vec<DVec2> {
    let mut angles: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..TAU)).collect();
    angles.sort_by(f64::total_cmp);
    angles
        .into_iter()
        .map(|a| DVec2::new(a.cos(), a.sin()) * radius)
        .collect()
}

/// A convex polygon with `n ≥ 3` vertices on the circle of `radius` (counter-clockwise).
pub fn random_polygon<R: Rng + ?Sized>(rng: &mut R, n: usize, radius: f64) -> ConvexPolygon {
    ConvexPolygon::new(&circle_points(rng, n.max(3), radius))
        .expect("points on a circle are convex")
}

/// `n` points uniform in the ellipse with semi-axes `radii`.
pub fn disc_blob<R: Rng + ?Sized>(rng: &mut R, n: usize, radii: DVec2) -> Vec<DVec2> {
    (0..n).map(|_| in_unit_disc(rng) * radii).collect()
}

/// The 4 corners of the rectangle `[-h, h]`, counter-clockwise.
pub fn rect_corners(h: DVec2) -> Vec<DVec2> {
    vec![
        DVec2::new(-h.x, -h.y),
        DVec2::new(h.x, -h.y),
        DVec2::new(h.x, h.y),
        DVec2::new(-h.x, h.y),
    ]
}

/// A translation uniform in the square `[-half_box, half_box]²`.
pub fn translation2<R: Rng + ?Sized>(rng: &mut R, half_box: f64) -> DVec2 {
    if half_box == 0.0 {
        return DVec2::ZERO;
    }
    DVec2::new(
        rng.gen_range(-half_box..=half_box),
        rng.gen_range(-half_box..=half_box),
    )
}

/// A rigid 2D pose: uniform angle, translation uniform in `[-half_box, half_box]²`.
pub fn random_pose2<R: Rng + ?Sized>(rng: &mut R, half_box: f64) -> Pose2 {
    let r = random_rot2(rng);
    Pose2::new(translation2(rng, half_box), r).expect("unit rotation and finite translation")
}

/// A random 2D point set: circle points, a rectangle or an elliptic blob, about `size` in
/// radius with `n` points (rectangles have 4).
pub fn random_hull2<R: Rng + ?Sized>(
    rng: &mut R,
    n_range: core::ops::RangeInclusive<usize>,
    size_range: core::ops::RangeInclusive<f64>,
) -> Vec<DVec2> {
    let n = rng.gen_range(n_range);
    let size = rng.gen_range(size_range);
    match rng.gen_range(0..3) {
        0 => circle_points(rng, n, size),
        1 => rect_corners(DVec2::new(
            rng.gen_range(0.2 * size..=0.7 * size),
            rng.gen_range(0.2 * size..=0.7 * size),
        )),
        _ => {
            let radii = DVec2::new(
                rng.gen_range(0.2 * size..=size),
                rng.gen_range(0.2 * size..=size),
            );
            disc_blob(rng, n, radii)
        }
    }
}
