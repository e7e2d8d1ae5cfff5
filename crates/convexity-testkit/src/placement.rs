//! Pair placement at a chosen signed distance.
//!
//! What: given shapes A and B, a pose for A, a rotation for B and a unit direction `u` (from A
//! toward B), [`place_at_distance`] translates B so that the distance between the two shapes
//! is exactly `g ≥ 0` and the closest points are known.
//!
//! Construction and proof. Let `p` be a support point of A along `u` (world frame) and `q_l`
//! a support point of B along `−u` in B's local frame (for B's rotation `R_b`). Set B's
//! translation to `t_b = p + g·u − R_b q_l`, so that B's support point lands at
//! `q = p + g·u`. Then
//! * every `x ∈ A` has `u·x ≤ u·p` (p is A's support along `u`: `u` lies in A's normal cone at
//!   p), and every `y ∈ B` has `u·y ≥ u·q = u·p + g` (−u lies in B's normal cone at q);
//! * hence `|y − x| ≥ u·(y − x) ≥ g` for all pairs: the distance is at least `g`;
//! * and `|q − p| = g` with `p ∈ A`, `q ∈ B`: the distance is at most `g`.
//!
//! So the distance is exactly `g` and `(p, q)` is a closest pair (unique only when the
//! supports are unique). In floating point `t_b` is rounded, which moves B by at most a few
//! ulps of `|t_b|`; the true distance of the placed pair is `g` up to that rounding
//! (≈ 1e-16 × the scene's coordinates), far below the 1e-10 relative tolerance of GJK.
//!
//! Regimes ([`Regime`]): far (`g` of the order of the shapes' sizes), near touching
//! (`g = k·tol` with `k ∈ [0.5, 2]` and `tol` the size-relative part of GJK's absolute
//! tolerance, `1e-10 × (size_A + size_B)`), touching (`g = 0`), overlap (`g = −0.5·min(size_A, size_B)`
//! along `u`: usually overlapping but not guaranteed, confirm with an oracle) and deep (an
//! interior point of B placed on an interior point of A: overlapping by construction).
//!
//! Complexity: O(support) (a handful of support calls). Preconditions: `u` non-zero and finite
//! (it is normalised), shapes bounded with finite supports. Failure modes: panics if the
//! resulting pose is not finite (a shape whose support is not finite).

use crate::rng::Rng;
use convexity::gjk::Options;
use convexity::math::vector::{Rotation, Vector};
use convexity::{Pose, SupportMap};

/// The size-relative part of GJK's default absolute tolerance for the pair:
/// `rel_tolerance × (size_A + size_B)` with `rel_tolerance = Options::default().rel_tolerance`
/// (1e-10). GJK adds a rounding floor of `4ε × magnitude` (the coordinates' magnitude), which
/// only matters far from the origin; the exact value used is reported in
/// `gjk::Distance::tolerance`.
pub fn gjk_tolerance<V, A, B>(a: &A, b: &B) -> f64
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    Options::default().rel_tolerance * (a.size() + b.size())
}

/// How far apart a generated pair is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Regime {
    /// `g` uniform in `[0.05, 2] × (size_A + size_B)`.
    Far,
    /// `g = k · tol`, `k` uniform in `[0.5, 2]`, `tol` = [`gjk_tolerance`].
    NearTouching,
    /// `g = 0`: the shapes touch at the support points.
    Touching,
    /// `g = −0.5 · min(size_A, size_B)` along `u`: usually overlapping, not guaranteed.
    Overlap,
    /// An interior point of B placed on an interior point of A: overlapping for certain.
    Deep,
}

impl Regime {
    pub const ALL: [Regime; 5] = [
        Regime::Far,
        Regime::NearTouching,
        Regime::Touching,
        Regime::Overlap,
        Regime::Deep,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Regime::Far => "far",
            Regime::NearTouching => "near-touching",
            Regime::Touching => "touching",
            Regime::Overlap => "overlap",
            Regime::Deep => "deep",
        }
    }
}

/// A placed pair: B's pose and what is known about the distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement<V: Vector> {
    /// The pose of B (world frame).
    pub pose_b: Pose<V>,
    pub regime: Regime,
    /// The unit direction from A toward B used for the placement.
    pub direction: V,
    /// The signed gap requested along `direction` (NaN for [`Regime::Deep`]).
    pub gap: f64,
    /// A's support point along `direction` (world frame); for `Deep`, the shared interior
    /// point.
    pub point_a: V,
    /// B's support point along `−direction` after placement (world frame), `point_a + gap·u`
    /// up to rounding; for `Deep`, the shared interior point.
    pub point_b: V,
    /// The exact distance when the construction proves it: `Some(gap)` for `gap ≥ 0`,
    /// `Some(0)` for `Deep`, `None` for `Overlap` (confirm with an oracle).
    pub exact_distance: Option<f64>,
}

fn axis<V: Vector>(i: usize) -> V {
    let mut c = vec![0.0; V::DIM];
    c[i] = 1.0;
    V::from_slice(&c).expect("DIM coordinates")
}

/// A point of the shape (local frame): the mean of its support points along `±e_i`. It is a
/// convex combination of points of the shape, so it lies in the shape; for a full-dimensional
/// shape it is usually interior.
pub fn interior_point<V: Vector, S: SupportMap<V> + ?Sized>(s: &S) -> V {
    let mut sum = V::ZERO;
    for i in 0..V::DIM {
        let e: V = axis(i);
        sum += s.support(e);
        sum += s.support(-e);
    }
    sum * (1.0 / (2 * V::DIM) as f64)
}

/// A's support point along the world direction `u` (world frame).
pub fn world_support<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, u: V) -> V {
    pose.transform_point(s.support(pose.inverse_transform_vector(u)))
}

/// Places B (rotated by `rot_b`) so that its distance to A (at `pose_a`) is exactly `g ≥ 0`
/// along the direction `u` (see the module documentation for the proof). A negative `g`
/// pushes B into A by `|g|` along `u`; the result is then overlapping or not depending on the
/// shapes (`exact_distance` is `None`).
pub fn place_at_distance<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    rot_b: V::Rotation,
    u: V,
    g: f64,
) -> Placement<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let u = u
        .try_normalize()
        .expect("direction must be non-zero and finite");
    let p = world_support(a, pose_a, u);
    let q_local = b.support(rot_b.inverse_rotate(-u));
    let target = p + u * g;
    let t = target - rot_b.rotate(q_local);
    let pose_b = Pose::new(t, rot_b).expect("finite placement");
    Placement {
        pose_b,
        regime: if g > 0.0 {
            Regime::Far
        } else if g == 0.0 {
            Regime::Touching
        } else {
            Regime::Overlap
        },
        direction: u,
        gap: g,
        point_a: p,
        point_b: pose_b.transform_point(q_local),
        exact_distance: if g >= 0.0 { Some(g) } else { None },
    }
}

/// Places B so that an interior point of B ([`interior_point`]) coincides with one of A.
pub fn place_deep<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, rot_b: V::Rotation) -> Placement<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let ca = pose_a.transform_point(interior_point(a));
    let cb = interior_point(b);
    let t = ca - rot_b.rotate(cb);
    let pose_b = Pose::new(t, rot_b).expect("finite placement");
    Placement {
        pose_b,
        regime: Regime::Deep,
        direction: V::AXIS,
        gap: f64::NAN,
        point_a: ca,
        point_b: pose_b.transform_point(cb),
        exact_distance: Some(0.0),
    }
}

/// The gap a regime asks for, for a pair of the given sizes (NaN for `Deep`).
pub fn regime_gap<R: Rng + ?Sized>(rng: &mut R, regime: Regime, size_a: f64, size_b: f64) -> f64 {
    let scale = size_a + size_b;
    let tol = Options::default().rel_tolerance * scale;
    match regime {
        Regime::Far => rng.gen_range(0.05..=2.0) * scale,
        Regime::NearTouching => rng.gen_range(0.5..=2.0) * tol,
        Regime::Touching => 0.0,
        Regime::Overlap => -0.5 * size_a.min(size_b),
        Regime::Deep => f64::NAN,
    }
}

/// Places B in the given regime (see [`Regime`]).
pub fn place_in_regime<V, A, B, R>(
    rng: &mut R,
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    rot_b: V::Rotation,
    u: V,
    regime: Regime,
) -> Placement<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Rng + ?Sized,
{
    if regime == Regime::Deep {
        return place_deep(a, pose_a, b, rot_b);
    }
    let g = regime_gap(rng, regime, a.size(), b.size());
    let mut pl = place_at_distance(a, pose_a, b, rot_b, u, g);
    pl.regime = regime;
    pl
}
