//! Closed-form distances between simple shapes.
//!
//! What: distances (0 when overlapping) between spheres, boxes, points, segments, capsules,
//! and from a point to a cylinder, a cone and a convex polygon. They are independent of
//! convexity's support-map machinery, so they check GJK on curved shapes, where a point-hull
//! oracle cannot.
//!
//! Sources: elementary geometry. Segment–segment takes the minimum over the four
//! endpoint-to-segment distances and the interior critical point of the 2×2 normal equations
//! (when it lies inside both segments); the minimum over this finite candidate set is the
//! distance because the optimum is either interior to both segments (a critical point) or
//! has a parameter at an end (an endpoint-to-segment distance). Cylinder and cone distances
//! use the meridian half-plane: for a solid of revolution the closest point lies in the
//! half-plane through the axis and the query point.
//!
//! Complexity: O(1), O(n) for a polygon. Accuracy: a few ulps of the inputs' magnitude
//! (segment–segment interior points lose up to `1/sin²θ` for nearly parallel segments, but
//! the endpoint candidates then dominate). Preconditions: finite inputs, non-negative radii
//! and extents, polygons counter-clockwise. Failure modes: none (degenerate segments are
//! points).

use convexity::math::vector::Vector;
use convexity::{DVec2, DVec3, Pose3};

/// Distance between two balls (0 when they overlap).
pub fn sphere_sphere<V: Vector>(c1: V, r1: f64, c2: V, r2: f64) -> f64 {
    ((c2 - c1).length() - r1 - r2).max(0.0)
}

/// Closest point of the axis-aligned box `[-half, half]` to `p` and the distance.
pub fn point_aabb<V: Vector>(p: V, half: V) -> (f64, V) {
    let c: Vec<f64> = (0..V::DIM)
        .map(|k| p.coord(k).clamp(-half.coord(k), half.coord(k)))
        .collect();
    let q = V::from_slice(&c).expect("dimension");
    ((p - q).length(), q)
}

/// Distance from a world point to a box with half extents `half` at `pose`, and the closest
/// point (world frame).
pub fn point_box(p: DVec3, half: DVec3, pose: &Pose3) -> (f64, DVec3) {
    let (d, q) = point_aabb(pose.inverse_transform_point(p), half);
    (d, pose.transform_point(q))
}

/// Distance between a ball (centre `c`, radius `r`, world frame) and a posed box.
pub fn sphere_box(c: DVec3, r: f64, half: DVec3, pose: &Pose3) -> f64 {
    (point_box(c, half, pose).0 - r).max(0.0)
}

/// Distance between two axis-aligned boxes given by their corners (any dimension).
pub fn aabb_aabb<V: Vector>(min_a: V, max_a: V, min_b: V, max_b: V) -> f64 {
    let mut s = 0.0;
    for k in 0..V::DIM {
        let g = (min_b.coord(k) - max_a.coord(k))
            .max(min_a.coord(k) - max_b.coord(k))
            .max(0.0);
        s += g * g;
    }
    s.sqrt()
}

/// Distance between two axis-aligned boxes given by centres and half extents.
pub fn box_box_axis_aligned<V: Vector>(ca: V, ha: V, cb: V, hb: V) -> f64 {
    aabb_aabb(ca - ha, ca + ha, cb - hb, cb + hb)
}

/// Distance from `p` to the segment `a`–`b` and the closest point.
pub fn point_segment<V: Vector>(p: V, a: V, b: V) -> (f64, V) {
    let d = b - a;
    let l2 = d.length_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = a + d * t;
    ((p - q).length(), q)
}

/// Distance between segments `p1`–`q1` and `p2`–`q2`, with a closest pair.
pub fn segment_segment<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> (f64, V, V) {
    let mut best = {
        let (d, c) = point_segment(p1, p2, q2);
        (d, p1, c)
    };
    let mut take = |d: f64, x: V, y: V| {
        if d < best.0 {
            best = (d, x, y);
        }
    };
    let (d, c) = point_segment(q1, p2, q2);
    take(d, q1, c);
    let (d, c) = point_segment(p2, p1, q1);
    take(d, c, p2);
    let (d, c) = point_segment(q2, p1, q1);
    take(d, c, q2);
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let (a, e, b) = (d1.dot(d1), d2.dot(d2), d1.dot(d2));
    let (c, f) = (d1.dot(r), d2.dot(r));
    let denom = a * e - b * b;
    if a > 0.0 && e > 0.0 && denom > 1e-14 * a * e {
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            let x = p1 + d1 * s;
            let y = p2 + d2 * t;
            take((x - y).length(), x, y);
        }
    }
    best
}

/// Distance between two capsules (segment plus radius), 0 when overlapping.
pub fn capsule_capsule<V: Vector>(a1: V, b1: V, r1: f64, a2: V, b2: V, r2: f64) -> f64 {
    (segment_segment(a1, b1, a2, b2).0 - r1 - r2).max(0.0)
}

/// Distance from a point (in the cylinder's local frame) to the solid cylinder along z with
/// the given half height and radius.
pub fn point_cylinder(p: DVec3, half_height: f64, radius: f64) -> f64 {
    let rho = (p.x * p.x + p.y * p.y).sqrt();
    let dr = (rho - radius).max(0.0);
    let dz = (p.z.abs() - half_height).max(0.0);
    (dr * dr + dz * dz).sqrt()
}

/// Distance from a 2D point to a convex polygon given counter-clockwise (0 inside).
pub fn point_convex_polygon(p: DVec2, poly: &[DVec2]) -> f64 {
    let n = poly.len();
    if n == 1 {
        return (p - poly[0]).length();
    }
    let mut inside = n >= 3;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (b - a).perp_dot(p - a) < 0.0 {
            inside = false;
        }
        best = best.min(point_segment(p, a, b).0);
    }
    if inside {
        0.0
    } else {
        best
    }
}

/// Distance from a point (in the cone's local frame) to convexity's solid cone: base disc of
/// `radius` at `z = −half_height`, apex at `z = +half_height`.
pub fn point_cone(p: DVec3, half_height: f64, radius: f64) -> f64 {
    let rho = (p.x * p.x + p.y * p.y).sqrt();
    let tri = [
        DVec2::new(0.0, -half_height),
        DVec2::new(radius, -half_height),
        DVec2::new(0.0, half_height),
    ];
    point_convex_polygon(DVec2::new(rho, p.z), &tri)
}

/// Distance between a ball (centre in the cylinder's local frame) and a cylinder.
pub fn sphere_cylinder(c: DVec3, r: f64, half_height: f64, radius: f64) -> f64 {
    (point_cylinder(c, half_height, radius) - r).max(0.0)
}

/// Distance between a ball (centre in the cone's local frame) and a cone.
pub fn sphere_cone(c: DVec3, r: f64, half_height: f64, radius: f64) -> f64 {
    (point_cone(c, half_height, radius) - r).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_crossing_parallel_and_skew() {
        let (d, x, y) = segment_segment(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, -1.0, 2.0),
            DVec3::new(0.0, 1.0, 2.0),
        );
        assert_eq!(d, 2.0);
        assert_eq!(x, DVec3::ZERO);
        assert_eq!(y, DVec3::new(0.0, 0.0, 2.0));
        let (d, _, _) = segment_segment(
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(0.5, 1.0, 0.0),
            DVec3::new(3.0, 1.0, 0.0),
        );
        assert_eq!(d, 1.0);
        let (d, _, _) = segment_segment(
            DVec2::ZERO,
            DVec2::X,
            DVec2::new(2.0, 0.0),
            DVec2::new(3.0, 0.0),
        );
        assert_eq!(d, 1.0);
    }

    #[test]
    fn cone_and_cylinder_points() {
        assert_eq!(point_cylinder(DVec3::new(3.0, 4.0, 0.0), 1.0, 2.0), 3.0);
        assert_eq!(point_cylinder(DVec3::new(0.0, 0.0, 3.0), 1.0, 2.0), 2.0);
        assert_eq!(point_cone(DVec3::new(0.0, 0.0, 3.0), 1.0, 1.0), 2.0);
        assert_eq!(point_cone(DVec3::new(0.0, 0.0, -3.0), 1.0, 1.0), 2.0);
        assert_eq!(point_cone(DVec3::new(0.1, 0.0, 0.0), 1.0, 1.0), 0.0);
        // Slant side: the line from (1, −1) to (0, 1) in the meridian plane.
        let d = point_cone(DVec3::new(0.0, 1.0, 0.0), 1.0, 1.0);
        assert!((d - 1.0 / 5f64.sqrt()).abs() < 1e-15);
        assert_eq!(point_cone(DVec3::new(0.0, 2.0, -1.0), 1.0, 1.0), 1.0);
    }
}
