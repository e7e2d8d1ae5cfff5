//! Degenerate point sets: the inputs that break naive GJK implementations.
//!
//! What: a single point, two points, collinear and coplanar sets, sets with duplicated
//! vertices and sets whose points are all equal, in 3D (and collinear sets in 2D). Every set
//! is a valid `Points` input (non-empty, finite).
//!
//! Source: constructed directly. Collinear and coplanar sets are built from exactly
//! representable parameters where possible: the coplanar generator puts points in an
//! axis-aligned plane (`z = c`) and then applies an optional rotation, so exact coplanarity
//! holds before rotation; after rotation it holds only up to rounding (check with
//! [`crate::predicates::coplanar`] if exactness matters).
//!
//! Complexity: O(n). Preconditions: `n ≥ 1`; finite arguments. Failure modes: none.

use crate::gen3::unit_vector3;
use crate::rng::Rng;
use convexity::{DQuat, DVec2, DVec3};

/// One point.
pub fn single_point(p: DVec3) -> Vec<DVec3> {
    vec![p]
}

/// Two points at distance `len` apart, centred at `c`, along a random direction.
pub fn two_points<R: Rng + ?Sized>(rng: &mut R, c: DVec3, len: f64) -> Vec<DVec3> {
    let d = unit_vector3(rng) * (0.5 * len);
    vec![c - d, c + d]
}

/// `n` points on the segment from `a` to `b` (endpoints included, the others at random
/// parameters). Exactly collinear only up to the rounding of `a + t(b − a)`.
pub fn collinear<R: Rng + ?Sized>(rng: &mut R, n: usize, a: DVec3, b: DVec3) -> Vec<DVec3> {
    let mut out = vec![a, b];
    while out.len() < n {
        let t: f64 = rng.gen();
        out.push(a + (b - a) * t);
    }
    out.truncate(n.max(1));
    out
}

/// `n` points exactly collinear: on the x axis (`y = z = 0`) within `[-len/2, len/2]`,
/// translated by `offset` per coordinate (exact when the translation is).
pub fn collinear_axis<R: Rng + ?Sized>(
    rng: &mut R,
    n: usize,
    len: f64,
    offset: DVec3,
) -> Vec<DVec3> {
    (0..n.max(1))
        .map(|_| DVec3::new(rng.gen_range(-0.5 * len..=0.5 * len), 0.0, 0.0) + offset)
        .collect()
}

/// `n` points in the plane `z = 0` (uniform in the square `[-size, size]²`), then rotated by
/// `rot` and translated by `offset`. With `rot = DQuat::IDENTITY` and an exactly
/// representable offset they are exactly coplanar.
pub fn coplanar<R: Rng + ?Sized>(
    rng: &mut R,
    n: usize,
    size: f64,
    rot: DQuat,
    offset: DVec3,
) -> Vec<DVec3> {
    (0..n.max(1))
        .map(|_| {
            let p = DVec3::new(
                rng.gen_range(-size..=size),
                rng.gen_range(-size..=size),
                0.0,
            );
            rot * p + offset
        })
        .collect()
}

/// `points` with `k` extra copies of randomly chosen points appended, then shuffled.
pub fn with_duplicates<R: Rng + ?Sized>(rng: &mut R, points: &[DVec3], k: usize) -> Vec<DVec3> {
    let mut out = points.to_vec();
    if points.is_empty() {
        return out;
    }
    for _ in 0..k {
        out.push(points[rng.gen_range(0..points.len())]);
    }
    shuffle(rng, &mut out);
    out
}

/// `n` copies of `p` (a hull that is a single point, stored many times).
pub fn all_equal(p: DVec3, n: usize) -> Vec<DVec3> {
    vec![p; n.max(1)]
}

/// `n` points exactly collinear in 2D, on the x axis, translated by `offset`.
pub fn collinear2<R: Rng + ?Sized>(rng: &mut R, n: usize, len: f64, offset: DVec2) -> Vec<DVec2> {
    (0..n.max(1))
        .map(|_| DVec2::new(rng.gen_range(-0.5 * len..=0.5 * len), 0.0) + offset)
        .collect()
}

/// Fisher–Yates shuffle.
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = rng.gen_range(0..=i);
        v.swap(i, j);
    }
}
