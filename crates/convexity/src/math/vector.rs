//! The small vector and rotation traits every dimension-free algorithm is written over.
//!
//! GJK, its simplex solver, the Minkowski difference and the certificate checker only need
//! dot products, linear combinations and a rigid rotation, so they are written once over
//! [`Vector`] and instantiated for glam's `DVec2` and `DVec3`.
//!
//! The structure-of-arrays helpers ([`Vector::Lanes`]) let a point-cloud support scan work on
//! four points at a time with plain `[f64; 4]` arithmetic that the compiler vectorises.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use glam::{DMat2, DMat3, DQuat, DVec2, DVec3};

/// A fixed-dimension f64 vector (2D or 3D).
pub trait Vector:
    Copy
    + Debug
    + PartialEq
    + Default
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<f64, Output = Self>
    + AddAssign
    + SubAssign
{
    /// Number of coordinates.
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;
    /// A fixed unit vector used where a direction must be chosen arbitrarily (the first axis).
    const AXIS: Self;
    /// The rotation type of rigid poses in this dimension (`DQuat` in 3D, [`Rot2`] in 2D).
    type Rotation: Rotation<Self>;
    /// A matrix form of a rotation, applied once per support call.
    type Matrix: Copy + Debug + Send + Sync;
    /// Four points stored coordinate-major (`[[x0..x3], [y0..y3], ...]`).
    type Lanes: Copy + Debug + Send + Sync;

    /// The Euclidean dot product `Σ selfᵢ·otherᵢ`.
    fn dot(self, other: Self) -> f64;
    /// `|self|²`, without the square root.
    #[inline]
    fn length_squared(self) -> f64 {
        self.dot(self)
    }
    /// The Euclidean length `|self|`.
    #[inline]
    fn length(self) -> f64 {
        self.length_squared().sqrt()
    }
    /// Every coordinate finite (no NaN, no infinity).
    fn is_finite(self) -> bool;
    /// Largest absolute coordinate.
    fn max_abs(self) -> f64;
    /// The sum of the absolute coordinates `‖self‖₁` (`≥ |self|`, with no square root), in
    /// coordinate order: the world translations' share of the rounding floor's magnitude
    /// (`MinkowskiDifference::magnitude`). (Provided, so that an existing implementation of
    /// the trait keeps compiling; `DVec2` and `DVec3` spell it out.)
    fn abs_sum(self) -> f64 {
        (0..Self::DIM).map(|i| self.coord(i).abs()).sum()
    }
    /// Coordinates as a slice-like array copy.
    fn to_vec(self) -> Vec<f64>;
    /// Builds a vector from exactly `DIM` coordinates; `None` on a length mismatch.
    fn from_slice(c: &[f64]) -> Option<Self>;
    /// Coordinate `i` (`i < DIM`).
    fn coord(self, i: usize) -> f64;

    /// `m v`: rotates `v` by the rotation whose matrix is `m` (local → parent frame).
    fn mat_mul(m: &Self::Matrix, v: Self) -> Self;
    /// `mᵀ v`: the inverse rotation of `v` for a rotation matrix `m` (parent → local frame).
    fn mat_transpose_mul(m: &Self::Matrix, v: Self) -> Self;
    /// The product `a b` (first `b`, then `a` when applied to a vector).
    fn mat_mul_mat(a: &Self::Matrix, b: &Self::Matrix) -> Self::Matrix;
    /// The transpose `mᵀ`, which is the inverse of a rotation matrix.
    fn mat_transpose(m: &Self::Matrix) -> Self::Matrix;
    /// The identity matrix.
    fn mat_identity() -> Self::Matrix;

    /// Packs four points into lanes.
    fn pack(p: [Self; 4]) -> Self::Lanes;
    /// The four dot products of the packed points with `d`.
    fn dot4(lanes: &Self::Lanes, d: Self) -> [f64; 4];
    /// The first-maximum mask of the small point-set scan (`Points`, at most `4·C` points) on a
    /// wide vector unit when this dimension has such a kernel and the CPU the instructions;
    /// `None`: use the portable scan. Bit-identical to it (`math::wide_scan`).
    #[inline(always)]
    fn max_mask_wide<const C: usize>(_lanes: &[Self::Lanes], _dir: Self) -> Option<u64> {
        None
    }

    /// A unit vector orthogonal to the unit vector `n` (any one, chosen deterministically).
    fn any_orthonormal(n: Self) -> Self;
    /// The determinant of `DIM` column vectors (`edges.len() == DIM`): the signed area in 2D, the
    /// triple product in 3D. Used for signed-volume barycentric coordinates of full simplices.
    fn det(edges: &[Self]) -> f64;
    /// `h` with each coordinate given the sign of the matching coordinate of `d` (+ for 0).
    fn sign_select(h: Self, d: Self) -> Self;
    /// The normal `e1 × e2` of a plane spanned by two edges, where the dimension has one (3D);
    /// `None` in 2D, where a triangle is a full simplex and never needs it.
    fn plane_normal(e1: Self, e2: Self) -> Option<Self>;

    /// `*p`, read one coordinate at a time (see the impl for `DVec3`).
    #[inline(always)]
    fn load_scalars(p: &Self) -> Self {
        *p
    }

    /// `self / |self|`, or `None` when the length is zero or not finite.
    #[inline]
    fn try_normalize(self) -> Option<Self> {
        let l = self.length();
        if l > 0.0 && l.is_finite() {
            Some(self * (1.0 / l))
        } else {
            None
        }
    }
}

/// A proper rotation in the dimension of `V`.
pub trait Rotation<V: Vector>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The rotation by zero.
    const IDENTITY: Self;
    /// `R v`: the vector `v` given in the rotated (local) frame, expressed in the parent frame.
    fn rotate(&self, v: V) -> V;
    /// `R⁻¹ v = Rᵀ v`: the parent-frame vector `v` expressed in the rotated (local) frame.
    fn inverse_rotate(&self, v: V) -> V;
    /// `self ∘ other`.
    fn compose(&self, other: &Self) -> Self;
    /// The inverse rotation `R⁻¹` (a conjugate quaternion, or the negated angle in 2D).
    fn inverse(&self) -> Self;
    /// The rotation matrix `R`, for applying the same rotation to many vectors.
    fn to_matrix(&self) -> V::Matrix;
    /// Deviation of the stored representation from a unit one (|q|−1 for a quaternion).
    fn unit_error(&self) -> f64;
    /// The same rotation renormalised (fixes accumulated rounding).
    fn renormalize(&self) -> Self;
}

impl Vector for DVec3 {
    const DIM: usize = 3;
    const ZERO: Self = DVec3::ZERO;
    const AXIS: Self = DVec3::X;
    type Rotation = DQuat;
    type Matrix = DMat3;
    type Lanes = [[f64; 4]; 3];

    /// Three 8-byte loads. A vector just stored is in the store buffer as a 16-byte `(x, y)`
    /// and an 8-byte `z`; a 16-byte load of `(y, z)`, which the compiler otherwise emits for
    /// cross products, straddles the two and cannot be forwarded (it waits for both to reach
    /// the cache). Volatile keeps the compiler from merging the loads again.
    #[inline(always)]
    fn load_scalars(p: &Self) -> Self {
        // SAFETY: `p` is a valid reference; the reads are of its initialised fields.
        unsafe {
            DVec3::new(
                core::ptr::read_volatile(&p.x),
                core::ptr::read_volatile(&p.y),
                core::ptr::read_volatile(&p.z),
            )
        }
    }

    #[inline(always)]
    fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    #[inline]
    fn is_finite(self) -> bool {
        DVec3::is_finite(self)
    }
    #[inline]
    fn max_abs(self) -> f64 {
        self.abs().max_element()
    }
    #[inline(always)]
    fn abs_sum(self) -> f64 {
        self.x.abs() + self.y.abs() + self.z.abs()
    }
    fn to_vec(self) -> Vec<f64> {
        vec![self.x, self.y, self.z]
    }
    fn from_slice(c: &[f64]) -> Option<Self> {
        match c {
            [x, y, z] => Some(DVec3::new(*x, *y, *z)),
            _ => None,
        }
    }
    #[inline]
    fn coord(self, i: usize) -> f64 {
        self[i]
    }
    #[inline(always)]
    fn mat_mul(m: &DMat3, v: Self) -> Self {
        m.x_axis * v.x + m.y_axis * v.y + m.z_axis * v.z
    }
    #[inline(always)]
    fn mat_transpose_mul(m: &DMat3, v: Self) -> Self {
        DVec3::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v))
    }
    #[inline]
    fn mat_mul_mat(a: &DMat3, b: &DMat3) -> DMat3 {
        *a * *b
    }
    #[inline]
    fn mat_transpose(m: &DMat3) -> DMat3 {
        m.transpose()
    }
    #[inline]
    fn mat_identity() -> DMat3 {
        DMat3::IDENTITY
    }
    #[inline(always)]
    fn pack(p: [Self; 4]) -> Self::Lanes {
        [
            [p[0].x, p[1].x, p[2].x, p[3].x],
            [p[0].y, p[1].y, p[2].y, p[3].y],
            [p[0].z, p[1].z, p[2].z, p[3].z],
        ]
    }
    #[inline(always)]
    fn dot4(l: &Self::Lanes, d: Self) -> [f64; 4] {
        let mut out = [0.0; 4];
        for k in 0..4 {
            out[k] = l[0][k] * d.x + l[1][k] * d.y + l[2][k] * d.z;
        }
        out
    }
    #[inline(always)]
    fn max_mask_wide<const C: usize>(lanes: &[Self::Lanes], dir: Self) -> Option<u64> {
        crate::math::wide_scan::max_mask::<C>(lanes, dir)
    }
    fn any_orthonormal(n: Self) -> Self {
        n.any_orthonormal_vector()
    }
    #[inline]
    fn det(e: &[Self]) -> f64 {
        match e {
            [a, b, c] => a.dot(b.cross(*c)),
            _ => 0.0,
        }
    }
    #[inline(always)]
    fn plane_normal(e1: Self, e2: Self) -> Option<Self> {
        Some(e1.cross(e2))
    }
    #[inline(always)]
    fn sign_select(h: Self, d: Self) -> Self {
        DVec3::new(
            if d.x < 0.0 { -h.x } else { h.x },
            if d.y < 0.0 { -h.y } else { h.y },
            if d.z < 0.0 { -h.z } else { h.z },
        )
    }
}

impl Vector for DVec2 {
    const DIM: usize = 2;
    const ZERO: Self = DVec2::ZERO;
    const AXIS: Self = DVec2::X;
    type Rotation = Rot2;
    type Matrix = DMat2;
    type Lanes = [[f64; 4]; 2];

    #[inline(always)]
    fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y
    }
    #[inline]
    fn is_finite(self) -> bool {
        DVec2::is_finite(self)
    }
    #[inline]
    fn max_abs(self) -> f64 {
        self.abs().max_element()
    }
    #[inline(always)]
    fn abs_sum(self) -> f64 {
        self.x.abs() + self.y.abs()
    }
    fn to_vec(self) -> Vec<f64> {
        vec![self.x, self.y]
    }
    fn from_slice(c: &[f64]) -> Option<Self> {
        match c {
            [x, y] => Some(DVec2::new(*x, *y)),
            _ => None,
        }
    }
    #[inline]
    fn coord(self, i: usize) -> f64 {
        self[i]
    }
    #[inline(always)]
    fn mat_mul(m: &DMat2, v: Self) -> Self {
        m.x_axis * v.x + m.y_axis * v.y
    }
    #[inline(always)]
    fn mat_transpose_mul(m: &DMat2, v: Self) -> Self {
        DVec2::new(m.x_axis.dot(v), m.y_axis.dot(v))
    }
    #[inline]
    fn mat_mul_mat(a: &DMat2, b: &DMat2) -> DMat2 {
        *a * *b
    }
    #[inline]
    fn mat_transpose(m: &DMat2) -> DMat2 {
        m.transpose()
    }
    #[inline]
    fn mat_identity() -> DMat2 {
        DMat2::IDENTITY
    }
    #[inline(always)]
    fn pack(p: [Self; 4]) -> Self::Lanes {
        [
            [p[0].x, p[1].x, p[2].x, p[3].x],
            [p[0].y, p[1].y, p[2].y, p[3].y],
        ]
    }
    #[inline(always)]
    fn dot4(l: &Self::Lanes, d: Self) -> [f64; 4] {
        let mut out = [0.0; 4];
        for k in 0..4 {
            out[k] = l[0][k] * d.x + l[1][k] * d.y;
        }
        out
    }
    fn any_orthonormal(n: Self) -> Self {
        n.perp()
    }
    #[inline]
    fn det(e: &[Self]) -> f64 {
        match e {
            [a, b] => a.perp_dot(*b),
            _ => 0.0,
        }
    }
    #[inline(always)]
    fn plane_normal(_e1: Self, _e2: Self) -> Option<Self> {
        None
    }
    #[inline(always)]
    fn sign_select(h: Self, d: Self) -> Self {
        DVec2::new(
            if d.x < 0.0 { -h.x } else { h.x },
            if d.y < 0.0 { -h.y } else { h.y },
        )
    }
}

impl Rotation<DVec3> for DQuat {
    const IDENTITY: Self = DQuat::IDENTITY;
    #[inline]
    fn rotate(&self, v: DVec3) -> DVec3 {
        *self * v
    }
    #[inline]
    fn inverse_rotate(&self, v: DVec3) -> DVec3 {
        self.conjugate() * v
    }
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        *self * *other
    }
    #[inline]
    fn inverse(&self) -> Self {
        self.conjugate()
    }
    #[inline]
    fn to_matrix(&self) -> DMat3 {
        DMat3::from_quat(*self)
    }
    fn unit_error(&self) -> f64 {
        (self.length() - 1.0).abs()
    }
    fn renormalize(&self) -> Self {
        self.normalize()
    }
}

/// A 2D rotation stored as `(cos θ, sin θ)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rot2 {
    /// `cos θ`; with `sin`, of unit norm for a proper rotation.
    pub cos: f64,
    /// `sin θ` (θ counter-clockwise, in radians).
    pub sin: f64,
}

impl Rot2 {
    /// The counter-clockwise rotation by `angle` radians.
    pub fn from_angle(angle: f64) -> Self {
        let (sin, cos) = angle.sin_cos();
        Rot2 { cos, sin }
    }
    /// The angle θ in radians, in `[−π, π]` (`atan2(sin, cos)`).
    pub fn angle(&self) -> f64 {
        self.sin.atan2(self.cos)
    }
}

impl Rotation<DVec2> for Rot2 {
    const IDENTITY: Self = Rot2 { cos: 1.0, sin: 0.0 };
    #[inline]
    fn rotate(&self, v: DVec2) -> DVec2 {
        DVec2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }
    #[inline]
    fn inverse_rotate(&self, v: DVec2) -> DVec2 {
        DVec2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }
    #[inline]
    fn compose(&self, o: &Self) -> Self {
        Rot2 {
            cos: self.cos * o.cos - self.sin * o.sin,
            sin: self.sin * o.cos + self.cos * o.sin,
        }
    }
    #[inline]
    fn inverse(&self) -> Self {
        Rot2 {
            cos: self.cos,
            sin: -self.sin,
        }
    }
    #[inline]
    fn to_matrix(&self) -> DMat2 {
        DMat2::from_cols(
            DVec2::new(self.cos, self.sin),
            DVec2::new(-self.sin, self.cos),
        )
    }
    fn unit_error(&self) -> f64 {
        ((self.cos * self.cos + self.sin * self.sin).sqrt() - 1.0).abs()
    }
    fn renormalize(&self) -> Self {
        let l = (self.cos * self.cos + self.sin * self.sin).sqrt();
        Rot2 {
            cos: self.cos / l,
            sin: self.sin / l,
        }
    }
}

/// Checks every coordinate of a vector, naming the first bad one as `field[i]`.
pub(crate) fn finite_vec<V: Vector>(field: &str, v: V) -> Result<V, crate::error::InputError> {
    for i in 0..V::DIM {
        let c = v.coord(i);
        if !c.is_finite() || c.abs() > crate::error::MAX_MAGNITUDE {
            // The field name is only built on failure: this runs once per input coordinate.
            crate::error::finite(&format!("{field}[{i}]"), c)?;
        }
    }
    Ok(v)
}
