//! The Minkowski difference `A − B` of two posed shapes, evaluated in A's frame.
//!
//! Working in A's frame (pose of B relative to A: `pose_ab = pose_a⁻¹ ∘ pose_b`) means the
//! support points of A are exact local coordinates and only B is transformed. The relative
//! translation `R_aᵀ (t_b − t_a)` is formed from the difference of the world translations,
//! which is exact (Sterbenz) whenever the two shapes are closer to each other than to the
//! world origin. A scene offset to 1e6 therefore loses nothing beyond the rounding of its
//! input: results depend on the offset only through that one subtraction.
//!
//! The support of the difference runs on the shapes' *cores*; callers account for the radii.

use crate::math::pose::Pose;
use crate::math::vector::{Rotation, Vector};
use crate::shape::SupportMap;

/// A point of the Minkowski difference with the two points it came from, all in A's frame.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SupportPoint<V> {
    /// `a − b`.
    pub w: V,
    /// The support point of A's core.
    pub a: V,
    /// The support point of B's core, in A's frame.
    pub b: V,
}

/// `core(A) − core(B)` with B placed by `pose_ab`.
pub struct MinkowskiDifference<'s, V: Vector, A: ?Sized, B: ?Sized> {
    /// Shape A (the difference is taken in A's frame).
    pub a: &'s A,
    /// Shape B (placed in A's frame by `pose_ab`).
    pub b: &'s B,
    pose_ab: Pose<V>,
    rot_ab: V::Matrix,
    /// `‖t_a‖₁ + ‖t_b‖₁` of the world poses (0 when built from a relative pose).
    reach: f64,
}

impl<'s, V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>
    MinkowskiDifference<'s, V, A, B>
{
    /// From the world poses of A and B (the difference is expressed in A's frame).
    #[inline(always)]
    pub fn new(a: &'s A, pose_a: &Pose<V>, b: &'s B, pose_b: &Pose<V>) -> Self {
        let mut m = Self::from_relative(a, b, pose_a.relative(pose_b));
        m.reach = pose_a.translation().abs_sum() + pose_b.translation().abs_sum();
        m
    }

    /// From the pose of B in A's frame.
    #[inline(always)]
    pub fn from_relative(a: &'s A, b: &'s B, pose_ab: Pose<V>) -> Self {
        MinkowskiDifference {
            a,
            b,
            rot_ab: pose_ab.rotation().to_matrix(),
            pose_ab,
            reach: 0.0,
        }
    }

    /// The rotation of B in A's frame as a matrix.
    #[inline]
    pub(crate) fn rot_ab(&self) -> &V::Matrix {
        &self.rot_ab
    }

    #[inline]
    /// The pose of B in A's frame.
    pub fn pose_ab(&self) -> &Pose<V> {
        &self.pose_ab
    }

    /// Support point of `core(A) − core(B)` in direction `d` (A's frame). B's shape is told
    /// first ([`SupportMap::prefetch_support`]), so that a hill-climbing B fetches its tables
    /// while A's support runs. Always inlined: it is GJK's and EPA's inner call, and the hint
    /// tipped the compiler into an out-of-line call (hull8 +6% instructions).
    #[inline(always)]
    pub fn support(&self, d: V) -> SupportPoint<V> {
        let db = V::mat_transpose_mul(&self.rot_ab, -d);
        self.b.prefetch_support(db);
        let a = self.a.core_support(d);
        // Read one coordinate at a time (`Vector::load_scalars`): an out-of-line support
        // function returns its point through memory, and EPA's loop read `(y, z)` of it with
        // one 16-byte load that could not be forwarded (perf annotate). `speed`, four
        // alternated runs: EPA hull8 2.17 → 2.25×, hull32 2.43 → 2.50× parry3d-f64.
        let b_local = V::load_scalars(&self.b.core_support(db));
        let b = V::mat_mul(&self.rot_ab, b_local) + self.pose_ab.translation();
        SupportPoint { w: a - b, a, b }
    }

    /// Sum of the two core radii.
    #[inline]
    pub fn radius_sum(&self) -> f64 {
        self.a.core_radius() + self.b.core_radius()
    }

    /// Centre of A minus centre of B (A's frame): a point inside the difference.
    pub fn center(&self) -> V {
        self.a.center()
            - (V::mat_mul(&self.rot_ab, self.b.center()) + self.pose_ab.translation_by_scalars())
    }

    /// Characteristic length of the pair (sum of the shapes' sizes, never zero).
    pub fn scale(&self) -> f64 {
        (self.a.size() + self.b.size()).max(f64::MIN_POSITIVE)
    }

    /// The absolute tolerance of a query on this pair with relative tolerance `rel`:
    /// `rel × scale` plus the rounding floor `4ε × magnitude` (no answer can resolve a gap below
    /// the rounding of its own input). GJK and EPA both use it.
    pub fn tolerance(&self, rel: f64) -> f64 {
        rel * self.scale() + self.rounding_floor()
    }

    /// `4ε × magnitude`: the rounding of the coordinates involved.
    pub fn rounding_floor(&self) -> f64 {
        4.0 * f64::EPSILON * self.magnitude()
    }

    /// Magnitude of the coordinates the query works with: the world translations (as the sums
    /// of their absolute coordinates, `‖t‖₁ ≥ |t|`: a bound of the same rounding without a
    /// square root), the shapes' bounding radii about their origins and `|t_ab|`. Input
    /// rounding is `ε` times this, so no answer can resolve a gap below a few `ε·magnitude`;
    /// GJK's tolerance has that as its floor. (With `|t_a| + |t_b|` the ball–ball closed form
    /// took three square roots a query, two of them for this; `speed --sets sphere`, eight
    /// interleaved runs each, parry ÷ ours: distance 1.67 → 1.78×, boolean 1.63 → 1.73×.)
    pub fn magnitude(&self) -> f64 {
        // The translation one coordinate at a time: it was just stored (`new`), and a 16-byte
        // load of its `(y, z)` straddles two of those stores, which cannot be forwarded (perf
        // annotate of a warm hull8 penetration query: 9% of `solve`'s samples after that load).
        self.reach
            + self.a.bounding_radius()
            + self.pose_ab.translation_by_scalars().length()
            + self.b.bounding_radius()
    }
}
