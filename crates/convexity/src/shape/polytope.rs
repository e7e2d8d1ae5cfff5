//! The vertex view of a shape: methods that work on vertex sets (LP, SAT, V-Clip, the
//! boundary test, PSO) ask a shape for its vertices through [`Polytope`].
//!
//! A shape is a polytope here when it is the convex hull of finitely many points with no
//! rounding radius: point sets, boxes, segments, triangles, convex polygons, and rounded or
//! transformed wrappers of those with radius 0. Curved shapes (balls, capsules, cylinders,
//! cones) and custom support maps answer `None`, and the query layer reports the method as not
//! applicable instead of approximating them.

use super::*;
use crate::math::vector::Vector;
use glam::{DVec2, DVec3};

/// A shape that may expose a finite vertex set (local frame).
pub trait Polytope<V: Vector>: SupportMap<V> {
    /// The vertices whose convex hull is the shape, or `None` for a curved shape. The set may
    /// contain interior points (a `Points` shape is returned as given).
    fn vertex_set(&self) -> Option<Vec<V>>;

    /// Half extents when the shape is an axis-aligned box in its local frame.
    fn box_half_extents(&self) -> Option<V> {
        None
    }

    /// The half-space form, when the shape was given as one.
    fn bounded_halfspaces(&self) -> Option<&BoundedHalfspaces<V>> {
        None
    }
}

impl<V: Vector> Polytope<V> for BoundedHalfspaces<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        Some(self.vertices().to_vec())
    }
    fn bounded_halfspaces(&self) -> Option<&BoundedHalfspaces<V>> {
        Some(self)
    }
}

/// The 2^DIM corners of the box `[-h, h]`.
fn corners<V: Vector>(h: V) -> Vec<V> {
    (0..1usize << V::DIM)
        .map(|mask| {
            let c: Vec<f64> = (0..V::DIM)
                .map(|i| {
                    if mask >> i & 1 == 1 {
                        h.coord(i)
                    } else {
                        -h.coord(i)
                    }
                })
                .collect();
            V::from_slice(&c).unwrap_or(V::ZERO)
        })
        .collect()
}

impl<V: Vector> Polytope<V> for Points<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        Some(self.points().to_vec())
    }
}

impl<V: Vector> Polytope<V> for Cuboid<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        Some(corners(self.half_extents()))
    }
    fn box_half_extents(&self) -> Option<V> {
        Some(self.half_extents())
    }
}

impl<V: Vector> Polytope<V> for Segment<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        Some(vec![self.a(), self.b()])
    }
}

impl Polytope<DVec3> for Triangle {
    fn vertex_set(&self) -> Option<Vec<DVec3>> {
        Some(self.vertices().to_vec())
    }
}

impl Polytope<DVec2> for ConvexPolygon {
    fn vertex_set(&self) -> Option<Vec<DVec2>> {
        Some(self.vertices().to_vec())
    }
}

impl<V: Vector> Polytope<V> for Ball<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        None
    }
}

impl<V: Vector> Polytope<V> for Capsule<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        None
    }
}

impl Polytope<DVec3> for Cylinder {
    fn vertex_set(&self) -> Option<Vec<DVec3>> {
        None
    }
}

impl Polytope<DVec3> for Cone {
    fn vertex_set(&self) -> Option<Vec<DVec3>> {
        None
    }
}

impl<V: Vector> Polytope<V> for Custom<V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        None
    }
}

impl<V: Vector, S: Polytope<V>> Polytope<V> for Rounded<S> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        if self.core_radius() == 0.0 {
            self.inner().vertex_set()
        } else {
            None
        }
    }
}

impl<V: Vector, S: Polytope<V>> Polytope<V> for Transformed<S, V> {
    fn vertex_set(&self) -> Option<Vec<V>> {
        let pose = *self.pose();
        self.inner()
            .vertex_set()
            .map(|v| v.into_iter().map(|p| pose.transform_point(p)).collect())
    }
}

impl Polytope<DVec3> for Shape3 {
    fn vertex_set(&self) -> Option<Vec<DVec3>> {
        match self {
            Shape3::Points(s) => s.vertex_set(),
            Shape3::Sphere(s) => s.vertex_set(),
            Shape3::Cuboid(s) => s.vertex_set(),
            Shape3::Capsule(s) => s.vertex_set(),
            Shape3::Cylinder(s) => s.vertex_set(),
            Shape3::Cone(s) => s.vertex_set(),
            Shape3::Segment(s) => s.vertex_set(),
            Shape3::Triangle(s) => s.vertex_set(),
            Shape3::Halfspaces(s) => s.vertex_set(),
            Shape3::Rounded(s) => s.vertex_set(),
            Shape3::Transformed(s) => s.vertex_set(),
            Shape3::Custom(s) => s.vertex_set(),
        }
    }
    fn box_half_extents(&self) -> Option<DVec3> {
        match self {
            Shape3::Cuboid(s) => s.box_half_extents(),
            _ => None,
        }
    }
    fn bounded_halfspaces(&self) -> Option<&BoundedHalfspaces<DVec3>> {
        match self {
            Shape3::Halfspaces(s) => Some(s),
            _ => None,
        }
    }
}

impl Polytope<DVec2> for Shape2 {
    fn vertex_set(&self) -> Option<Vec<DVec2>> {
        match self {
            Shape2::Points(s) => s.vertex_set(),
            Shape2::Circle(s) => s.vertex_set(),
            Shape2::Rect(s) => s.vertex_set(),
            Shape2::Capsule(s) => s.vertex_set(),
            Shape2::Polygon(s) => s.vertex_set(),
            Shape2::Segment(s) => s.vertex_set(),
            Shape2::Halfspaces(s) => s.vertex_set(),
            Shape2::Rounded(s) => s.vertex_set(),
            Shape2::Transformed(s) => s.vertex_set(),
            Shape2::Custom(s) => s.vertex_set(),
        }
    }
    fn box_half_extents(&self) -> Option<DVec2> {
        match self {
            Shape2::Rect(s) => s.box_half_extents(),
            _ => None,
        }
    }
    fn bounded_halfspaces(&self) -> Option<&BoundedHalfspaces<DVec2>> {
        match self {
            Shape2::Halfspaces(s) => Some(s),
            _ => None,
        }
    }
}
