//! Rigid poses (rotation then translation) in 2D and 3D.
//!
//! `Pose<DVec3>` holds a unit `DQuat`; `Pose<DVec2>` holds a [`Rot2`](crate::Rot2). A pose maps
//! local coordinates to the parent frame: `x_parent = R x_local + t`. Relative poses are named
//! plainly: `pose_ab` is the pose of B in A's frame, `pose_ab = pose_a⁻¹ ∘ pose_b`.
//!
//! Constructors validate: finite translation, and a rotation whose norm is within
//! [`UNIT_TOLERANCE`] of 1 (it is then renormalised exactly).

use crate::error::{InputError, Problem};
use crate::math::vector::finite_vec;
use crate::math::vector::{Rotation, Vector};

/// How far from unit norm a given rotation may be before it is rejected.
pub const UNIT_TOLERANCE: f64 = 1e-6;

/// A rigid transform. Fields are private so that every pose in the system is valid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose<V: Vector> {
    rotation: V::Rotation,
    translation: V,
}

/// A 2D rigid pose: a [`Rot2`](crate::Rot2) rotation and a `DVec2` translation.
pub type Pose2 = Pose<glam::DVec2>;
/// A 3D rigid pose: a unit `DQuat` rotation and a `DVec3` translation.
pub type Pose3 = Pose<glam::DVec3>;

impl<V: Vector> Default for Pose<V> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<V: Vector> Pose<V> {
    /// No rotation, no translation: local and parent frames coincide.
    pub const IDENTITY: Self = Pose {
        rotation: <V::Rotation as Rotation<V>>::IDENTITY,
        translation: V::ZERO,
    };

    /// A validated pose.
    pub fn new(translation: V, rotation: V::Rotation) -> Result<Self, InputError> {
        finite_vec("translation", translation)?;
        let err = rotation.unit_error();
        if !err.is_finite() || err > UNIT_TOLERANCE {
            return Err(InputError::new("rotation", Problem::NotUnit(err + 1.0)));
        }
        Ok(Pose {
            rotation: rotation.renormalize(),
            translation,
        })
    }

    /// A pose from parts the caller has validated as [`Pose::new`] does (finite translation
    /// within range, a rotation renormalised from one within `UNIT_TOLERANCE` of unit): the
    /// batch API's rows, which check their raw numbers once.
    #[inline]
    pub(crate) fn from_checked(translation: V, rotation: V::Rotation) -> Self {
        Pose {
            rotation,
            translation,
        }
    }

    /// A pure translation.
    pub fn from_translation(translation: V) -> Result<Self, InputError> {
        Self::new(translation, <V::Rotation as Rotation<V>>::IDENTITY)
    }

    /// `t`: where the local origin lies in the parent frame.
    #[inline]
    pub fn translation(&self) -> V {
        self.translation
    }
    /// [`Pose::translation`] read one coordinate at a time ([`Vector::load_scalars`]), for a
    /// pose stored just before (a relative pose made at the start of a query).
    #[inline(always)]
    pub(crate) fn translation_by_scalars(&self) -> V {
        V::load_scalars(&self.translation)
    }
    /// `R`: the unit rotation from local to parent axes (renormalised at construction).
    #[inline]
    pub fn rotation(&self) -> V::Rotation {
        self.rotation
    }

    /// Local point to parent frame.
    #[inline]
    pub fn transform_point(&self, p: V) -> V {
        self.rotation.rotate(p) + self.translation
    }
    /// Parent-frame point to local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: V) -> V {
        self.rotation.inverse_rotate(p - self.translation)
    }
    /// Local direction to parent frame: `R v` (rotation only; a direction has no position).
    #[inline]
    pub fn transform_vector(&self, v: V) -> V {
        self.rotation.rotate(v)
    }
    /// Parent-frame direction to local frame: `Rᵀ v` (rotation only).
    #[inline]
    pub fn inverse_transform_vector(&self, v: V) -> V {
        self.rotation.inverse_rotate(v)
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Self) -> Self {
        Pose {
            rotation: self.rotation.compose(&other.rotation),
            translation: self.transform_point(other.translation),
        }
    }

    /// The inverse pose, mapping parent coordinates back to local ones:
    /// `x_local = R⁻¹ x_parent − R⁻¹ t`. For a relative pose prefer [`Pose::relative`], which
    /// keeps more precision far from the origin.
    pub fn inverse(&self) -> Self {
        let r = self.rotation.inverse();
        Pose {
            rotation: r,
            translation: -r.rotate(self.translation),
        }
    }

    /// `pose_ab = self⁻¹ ∘ pose_b`, computed without forming the inverse explicitly so that a
    /// scene far from the origin loses only the rounding of one subtraction.
    pub fn relative(&self, pose_b: &Self) -> Self {
        Pose {
            rotation: self.rotation.inverse().compose(&pose_b.rotation),
            translation: self
                .rotation
                .inverse_rotate(pose_b.translation - self.translation),
        }
    }
}

impl Pose3 {
    /// A pose from a translation and a quaternion given as `[x, y, z, w]`.
    pub fn from_parts(translation: [f64; 3], quat_xyzw: [f64; 4]) -> Result<Self, InputError> {
        for (i, q) in quat_xyzw.iter().enumerate() {
            if !q.is_finite() {
                return Err(InputError::new(
                    format!("rotation[{i}]"),
                    Problem::NotFinite(*q),
                ));
            }
        }
        // Report the real norm (Pose::new sees only |norm − 1|, which cannot tell 0 from 2).
        let norm = quat_xyzw.iter().map(|q| q * q).sum::<f64>().sqrt();
        let unit = (norm - 1.0).abs() <= UNIT_TOLERANCE; // false for NaN too
        if !unit {
            return Err(InputError::new("rotation", Problem::NotUnit(norm)));
        }
        let q = glam::DQuat::from_xyzw(quat_xyzw[0], quat_xyzw[1], quat_xyzw[2], quat_xyzw[3]);
        let translation = finite_vec("translation", glam::DVec3::from_array(translation))?;
        // `Pose::new` would take the norm twice more (its unit test, then `normalize`); this is
        // its answer bit for bit: the same sum of squares in the same order, and `normalize`
        // multiplies by `1 / length`. (Two square roots and a division fewer per pose read by
        // the CLI and the Python per-pair calls.)
        Ok(Pose::from_checked(translation, q * (1.0 / norm)))
    }
}

impl Pose2 {
    /// A pose from a translation and an angle in radians.
    pub fn from_angle(translation: [f64; 2], angle: f64) -> Result<Self, InputError> {
        crate::error::finite("angle", angle)?;
        Self::new(
            glam::DVec2::from_array(translation),
            crate::math::vector::Rot2::from_angle(angle),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::test_rng::lcg;

    /// `Pose3::from_parts` (one norm) equals `Pose::new` (which renormalises by its own norm)
    /// bit for bit, on quaternions up to the unit tolerance away from unit length, and rejects
    /// the same ones.
    #[test]
    fn from_parts_equals_pose_new_bit_for_bit() {
        let mut st = 7u64;
        let mut r = || lcg(&mut st);
        let mut rejected = 0;
        for k in 0..20_000 {
            let t = [r() * 1e3, r(), r() * 1e-3];
            let q = glam::DQuat::from_xyzw(r(), r(), r(), r()).normalize();
            // Off unit length by up to twice the tolerance (k odd: within it).
            let scale = 1.0 + r() * UNIT_TOLERANCE * if k % 2 == 1 { 0.9 } else { 2.0 };
            let raw = [q.x * scale, q.y * scale, q.z * scale, q.w * scale];
            let got = Pose3::from_parts(t, raw);
            let want = Pose::new(
                glam::DVec3::from_array(t),
                glam::DQuat::from_xyzw(raw[0], raw[1], raw[2], raw[3]),
            );
            match (got, want) {
                (Ok(g), Ok(w)) => {
                    assert_eq!(g.translation().to_array(), w.translation().to_array());
                    let (gq, wq) = (g.rotation(), w.rotation());
                    assert_eq!(
                        gq.to_array().map(f64::to_bits),
                        wq.to_array().map(f64::to_bits)
                    );
                }
                (Err(_), Err(_)) => {
                    assert!(k % 2 == 0, "rejected within the tolerance");
                    rejected += 1;
                }
                (g, w) => panic!("{raw:?}: from_parts {g:?}, new {w:?}"),
            }
        }
        // Both outcomes were exercised (about a quarter of the quaternions lie outside).
        assert!((1_000..10_000).contains(&rejected), "{rejected} rejected");
    }
}
