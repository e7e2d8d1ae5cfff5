//! Primitive shapes: ball, box, capsule, segment (any dimension), triangle, cylinder and cone
//! (3D, along local z).
//!
//! Support functions are closed-form (O(1)). Ball and capsule are a point and a segment plus a
//! radius, so GJK treats them exactly through the core/radius split. Constructors validate:
//! finite values, non-negative radii and extents.

use super::{Primitive, SupportMap};
use crate::error::{non_negative, InputError};
use crate::math::vector::finite_vec;
use crate::math::vector::Vector;
use glam::DVec3;

/// A ball (circle in 2D, sphere in 3D) centred at the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<V: Vector> {
    radius: f64,
    _dim: core::marker::PhantomData<V>,
}

impl<V: Vector> Ball<V> {
    /// A closed ball of `radius` (length units, ≥ 0; 0 is a single point) about the local
    /// origin. Errors: `radius` negative, not finite or beyond [`crate::error::MAX_MAGNITUDE`].
    pub fn new(radius: f64) -> Result<Self, InputError> {
        non_negative("radius", radius)?;
        Ok(Ball {
            radius,
            _dim: core::marker::PhantomData,
        })
    }
    /// The radius (GJK treats the ball as the point core plus this radius).
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl<V: Vector> SupportMap<V> for Ball<V> {
    #[inline]
    fn core_support(&self, _dir: V) -> V {
        V::ZERO
    }
    #[inline]
    fn core_radius(&self) -> f64 {
        self.radius
    }
    fn center(&self) -> V {
        V::ZERO
    }
    fn size(&self) -> f64 {
        self.radius
    }
    #[inline]
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Capsule {
            a: V::ZERO,
            b: V::ZERO,
            radius: self.radius,
        }
    }
}

/// An axis-aligned box centred at the local origin, given by its half extents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<V: Vector> {
    half_extents: V,
    /// `|half_extents|`: the size and the bounding radius, formed once (every GJK and
    /// closed-form query reads both for its tolerance; four square roots per box pair).
    radius: f64,
}

impl<V: Vector> Cuboid<V> {
    /// The closed box `[-h, h]` on each local axis for `h = half_extents` (each ≥ 0; a zero
    /// extent gives a flat box). Errors: a coordinate negative, not finite or too large
    /// (field `half_extents[i]`).
    pub fn new(half_extents: V) -> Result<Self, InputError> {
        finite_vec("half_extents", half_extents)?;
        for i in 0..V::DIM {
            let h = half_extents.coord(i);
            // The field name is formatted only for an error (a box is built per query on hot
            // paths: the closed forms, the batch API).
            if !(h >= 0.0) {
                non_negative(&format!("half_extents[{i}]"), h)?;
            }
        }
        Ok(Cuboid {
            half_extents,
            radius: half_extents.length(),
        })
    }
    /// Half the side lengths along the local axes.
    pub fn half_extents(&self) -> V {
        self.half_extents
    }
}

impl<V: Vector> SupportMap<V> for Cuboid<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        V::sign_select(self.half_extents, dir)
    }
    fn center(&self) -> V {
        V::ZERO
    }
    #[inline]
    fn size(&self) -> f64 {
        self.radius
    }
    #[inline]
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Cuboid {
            half_extents: self.half_extents,
            radius: 0.0,
        }
    }
}

/// A line segment from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<V: Vector> {
    pub(crate) a: V,
    pub(crate) b: V,
}

impl<V: Vector> Segment<V> {
    /// The closed segment between the local points `a` and `b` (`a == b` is a point).
    /// Errors: a coordinate not finite or too large (field `a[i]` or `b[i]`).
    pub fn new(a: V, b: V) -> Result<Self, InputError> {
        finite_vec("a", a)?;
        finite_vec("b", b)?;
        Ok(Segment { a, b })
    }
    /// The first end point (local frame).
    pub fn a(&self) -> V {
        self.a
    }
    /// The second end point (local frame).
    pub fn b(&self) -> V {
        self.b
    }
}

impl<V: Vector> SupportMap<V> for Segment<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        if (self.b - self.a).dot(dir) > 0.0 {
            self.b
        } else {
            self.a
        }
    }
    fn center(&self) -> V {
        (self.a + self.b) * 0.5
    }
    fn size(&self) -> f64 {
        (self.b - self.a).length() * 0.5
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Capsule {
            a: self.a,
            b: self.b,
            radius: 0.0,
        }
    }
}

/// A capsule: the segment `a`–`b` swept by a ball of `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<V: Vector> {
    segment: Segment<V>,
    radius: f64,
}

impl<V: Vector> Capsule<V> {
    /// The points within `radius` (≥ 0) of the segment `a`–`b` (local frame). Errors: as
    /// [`Segment::new`] for the end points, as [`Ball::new`] for `radius`.
    pub fn new(a: V, b: V, radius: f64) -> Result<Self, InputError> {
        let segment = Segment::new(a, b)?;
        non_negative("radius", radius)?;
        Ok(Capsule { segment, radius })
    }
    /// The core segment (GJK works on it and adds the radius).
    pub fn segment(&self) -> Segment<V> {
        self.segment
    }
    /// The radius swept around the core segment.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl<V: Vector> SupportMap<V> for Capsule<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        self.segment.core_support(dir)
    }
    #[inline]
    fn core_radius(&self) -> f64 {
        self.radius
    }
    fn center(&self) -> V {
        self.segment.center()
    }
    fn size(&self) -> f64 {
        self.segment.size() + self.radius
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Capsule {
            a: self.segment.a,
            b: self.segment.b,
            radius: self.radius,
        }
    }
}

/// A triangle (3D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    pub(crate) v: [DVec3; 3],
}

impl Triangle {
    /// The closed (filled) triangle `abc` in local coordinates; degenerate (collinear or
    /// repeated) vertices are accepted and give a segment or a point. Errors: a coordinate not
    /// finite or too large (field `a[i]`, `b[i]` or `c[i]`).
    pub fn new(a: DVec3, b: DVec3, c: DVec3) -> Result<Self, InputError> {
        finite_vec("a", a)?;
        finite_vec("b", b)?;
        finite_vec("c", c)?;
        Ok(Triangle { v: [a, b, c] })
    }
    /// The vertices `[a, b, c]` as given.
    pub fn vertices(&self) -> [DVec3; 3] {
        self.v
    }
}

impl SupportMap<DVec3> for Triangle {
    #[inline]
    fn core_support(&self, dir: DVec3) -> DVec3 {
        let d = [self.v[0].dot(dir), self.v[1].dot(dir), self.v[2].dot(dir)];
        let mut i = 0;
        if d[1] > d[i] {
            i = 1;
        }
        if d[2] > d[i] {
            i = 2;
        }
        self.v[i]
    }
    fn center(&self) -> DVec3 {
        (self.v[0] + self.v[1] + self.v[2]) / 3.0
    }
    fn size(&self) -> f64 {
        let c = self.center();
        self.v.iter().map(|p| (*p - c).length()).fold(0.0, f64::max)
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, DVec3> {
        Primitive::Triangle {
            v: self.v,
            radius: 0.0,
        }
    }
}

/// A solid cylinder along local z, from `-half_height` to `+half_height`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    half_height: f64,
    radius: f64,
}

impl Cylinder {
    /// A solid cylinder along local z of height `2 · half_height` and base radius `radius`
    /// (both ≥ 0). Errors: either negative, not finite or too large (field `half_height` or
    /// `radius`).
    pub fn new(half_height: f64, radius: f64) -> Result<Self, InputError> {
        non_negative("half_height", half_height)?;
        non_negative("radius", radius)?;
        Ok(Cylinder {
            half_height,
            radius,
        })
    }
    /// Half the height along local z.
    pub fn half_height(&self) -> f64 {
        self.half_height
    }
    /// Radius of the circular cross-section.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

/// The rim point of a disc of `radius` in the xy plane furthest along `dir`.
#[inline]
fn disc_support(dir: DVec3, radius: f64) -> (f64, f64) {
    let l = (dir.x * dir.x + dir.y * dir.y).sqrt();
    if l > 0.0 {
        (dir.x * radius / l, dir.y * radius / l)
    } else {
        (0.0, 0.0)
    }
}

impl SupportMap<DVec3> for Cylinder {
    #[inline]
    fn core_support(&self, dir: DVec3) -> DVec3 {
        let (x, y) = disc_support(dir, self.radius);
        let z = if dir.z < 0.0 {
            -self.half_height
        } else {
            self.half_height
        };
        DVec3::new(x, y, z)
    }
    fn center(&self) -> DVec3 {
        DVec3::ZERO
    }
    fn size(&self) -> f64 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }
}

/// A solid cone along local z: base disc of `radius` at `z = -half_height`, apex at
/// `z = +half_height`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    half_height: f64,
    radius: f64,
}

impl Cone {
    /// A solid cone along local z of height `2 · half_height` and base radius `radius`
    /// (both ≥ 0). Errors: either negative, not finite or too large (field `half_height` or
    /// `radius`).
    pub fn new(half_height: f64, radius: f64) -> Result<Self, InputError> {
        non_negative("half_height", half_height)?;
        non_negative("radius", radius)?;
        Ok(Cone {
            half_height,
            radius,
        })
    }
    /// Half the height along local z (base at `-half_height`, apex at `+half_height`).
    pub fn half_height(&self) -> f64 {
        self.half_height
    }
    /// Radius of the base disc (at `z = -half_height`).
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl SupportMap<DVec3> for Cone {
    #[inline]
    fn core_support(&self, dir: DVec3) -> DVec3 {
        // The support is the apex or a point of the base rim, whichever is further along dir.
        let apex = DVec3::new(0.0, 0.0, self.half_height);
        let (x, y) = disc_support(dir, self.radius);
        let rim = DVec3::new(x, y, -self.half_height);
        if apex.dot(dir) >= rim.dot(dir) {
            apex
        } else {
            rim
        }
    }
    fn center(&self) -> DVec3 {
        DVec3::new(0.0, 0.0, -0.5 * self.half_height)
    }
    fn size(&self) -> f64 {
        (4.0 * self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }
}
