//! Shape combinators: `Rounded<S>` (Minkowski sum with a ball), `Transformed<S>` (a shape
//! under a fixed local pose) and `Custom` (a user-defined support function).
//!
//! These play the role of Jolt's `TransformedConvexObject` and `AddConvexRadius` templates:
//! they wrap any support map without knowing its type.

use super::{Primitive, SupportMap};
use crate::error::{non_negative, InputError, Problem};
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use std::sync::Arc;

/// `inner ⊕ ball(radius)`. Its core is the core of `inner`; the radii add.
#[derive(Clone, Debug)]
pub struct Rounded<S> {
    inner: S,
    radius: f64,
}

impl<S> Rounded<S> {
    /// `inner` grown by `radius` (length units, ≥ 0) in every direction. Errors: `radius`
    /// negative, not finite or too large (field `radius`).
    pub fn new(inner: S, radius: f64) -> Result<Self, InputError> {
        non_negative("radius", radius)?;
        Ok(Rounded { inner, radius })
    }
    /// The shape before rounding.
    pub fn inner(&self) -> &S {
        &self.inner
    }
    /// The added radius (not including any radius `inner` already has).
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Rounded<S> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        self.inner.core_support(dir)
    }
    #[inline(always)]
    fn prefetch_support(&self, dir: V) {
        self.inner.prefetch_support(dir)
    }
    #[inline]
    fn core_radius(&self) -> f64 {
        self.inner.core_radius() + self.radius
    }
    fn center(&self) -> V {
        self.inner.center()
    }
    fn size(&self) -> f64 {
        self.inner.size() + self.radius
    }
    fn bounding_radius(&self) -> f64 {
        self.inner.bounding_radius() + self.radius
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        self.inner.primitive().rounded(self.radius)
    }
}

/// A shape placed at a fixed pose in the local frame of its owner.
#[derive(Clone, Debug)]
pub struct Transformed<S, V: Vector> {
    inner: S,
    pose: Pose<V>,
    matrix: V::Matrix,
}

impl<S, V: Vector> Transformed<S, V> {
    /// `inner` placed at `pose` (inner's local frame → the owner's local frame). Infallible:
    /// a [`Pose`] is valid by construction.
    pub fn new(inner: S, pose: Pose<V>) -> Self {
        use crate::math::vector::Rotation;
        Transformed {
            inner,
            matrix: pose.rotation().to_matrix(),
            pose,
        }
    }
    /// The wrapped shape, in its own local frame.
    pub fn inner(&self) -> &S {
        &self.inner
    }
    /// The fixed pose of `inner` in the owner's local frame.
    pub fn pose(&self) -> &Pose<V> {
        &self.pose
    }
}

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Transformed<S, V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        let local = V::mat_transpose_mul(&self.matrix, dir);
        V::mat_mul(&self.matrix, self.inner.core_support(local)) + self.pose.translation()
    }
    /// The hint in the inner shape's frame (the direction `core_support` will query there); for
    /// an inner shape without a prefetch the rotation is dead code and compiles away. `inline`,
    /// not `inline(always)`: a `Shape3::Transformed` holds a boxed `Shape3`, so this call can
    /// recurse, and LLVM rejects a forced inline of a recursive call.
    #[inline]
    fn prefetch_support(&self, dir: V) {
        self.inner
            .prefetch_support(V::mat_transpose_mul(&self.matrix, dir))
    }
    #[inline]
    fn core_radius(&self) -> f64 {
        self.inner.core_radius()
    }
    fn center(&self) -> V {
        self.pose.transform_point(self.inner.center())
    }
    fn size(&self) -> f64 {
        self.inner.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.pose.translation().length() + self.inner.bounding_radius()
    }
    /// Segments and triangles move with the pose; a posed box or polygon has no closed form
    /// here (it runs GJK).
    #[inline]
    fn primitive(&self) -> Primitive<'_, V> {
        let p = |x: V| V::mat_mul(&self.matrix, x) + self.pose.translation();
        match self.inner.primitive() {
            Primitive::Capsule { a, b, radius } => Primitive::Capsule {
                a: p(a),
                b: p(b),
                radius,
            },
            Primitive::Triangle { v, radius } => Primitive::Triangle {
                v: [p(v[0]), p(v[1]), p(v[2])],
                radius,
            },
            _ => Primitive::Other,
        }
    }
}

/// The signature of a user-supplied support function.
pub type SupportFn<V> = dyn Fn(V) -> V + Send + Sync;

/// A user-defined convex shape given by its support function.
///
/// The function must return a point maximising `dir·x` over a bounded convex set, with finite
/// coordinates. `center` must lie in the set and `size` should be about its radius. Results
/// from a support function that breaks this contract are not guaranteed (but never panic:
/// non-finite support points end a query with status `Degenerate`).
#[derive(Clone)]
pub struct Custom<V: Vector> {
    support: Arc<SupportFn<V>>,
    center: V,
    size: f64,
}

impl<V: Vector> core::fmt::Debug for Custom<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Custom")
            .field("center", &self.center)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl<V: Vector> Custom<V> {
    /// A shape from its support function, a point `center` inside the set and a size scale
    /// `size` (about its radius, ≥ 0; used for tolerances). The function is called once on
    /// [`Vector::AXIS`] as a probe. Errors: `center` not finite (field `center[i]`), `size`
    /// negative or not finite (field `size`), a non-finite probe point (field `support`).
    pub fn new(
        support: impl Fn(V) -> V + Send + Sync + 'static,
        center: V,
        size: f64,
    ) -> Result<Self, InputError> {
        crate::math::vector::finite_vec("center", center)?;
        non_negative("size", size)?;
        let probe = support(V::AXIS);
        if !probe.is_finite() {
            return Err(InputError::new(
                "support",
                Problem::Invalid("support function returned a non-finite point".into()),
            ));
        }
        Ok(Custom {
            support: Arc::new(support),
            center,
            size,
        })
    }
}

impl<V: Vector> SupportMap<V> for Custom<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        (self.support)(dir)
    }
    fn center(&self) -> V {
        self.center
    }
    fn size(&self) -> f64 {
        self.size
    }
}
