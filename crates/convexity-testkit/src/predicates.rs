//! Exact sign predicates and exact sums, for the places where a sign decides a test.
//!
//! What: orientation tests in 2D and 3D with exactly computed signs (Shewchuk's adaptive
//! predicates from the `robust` crate), derived tests (collinear, coplanar, point on a plane,
//! point in a triangle), and exact sums of floating-point values by error-free
//! transformations (Knuth's two-sum), used to know the representable gap of a scene to the
//! last bit.
//!
//! Source: J. R. Shewchuk, "Adaptive precision floating-point arithmetic and fast robust
//! geometric predicates", DCG 18 (1997); `robust` 1.x (sign conventions below). Two-sum:
//! Knuth, TAOCP vol. 2, §4.2.2.
//!
//! Complexity: O(1) per predicate (adaptive: fast unless nearly degenerate); O(n²) worst case
//! for the exact sum of n terms (expansion growth), O(n) typical.
//! Preconditions: finite inputs (overflow in the predicates is not handled).
//! Failure modes: none for finite inputs; the signs are exact.

use convexity::{DVec2, DVec3};
use robust::{Coord, Coord3D};

/// The sign of an exactly evaluated expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    Negative,
    Zero,
    Positive,
}

impl Sign {
    pub fn of(x: f64) -> Sign {
        if x > 0.0 {
            Sign::Positive
        } else if x < 0.0 {
            Sign::Negative
        } else {
            Sign::Zero
        }
    }
}

fn c2(p: DVec2) -> Coord<f64> {
    Coord { x: p.x, y: p.y }
}

fn c3(p: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Exact sign of `(b − a) × (c − a)`: positive when `a, b, c` turn counter-clockwise.
pub fn orient2d(a: DVec2, b: DVec2, c: DVec2) -> Sign {
    Sign::of(robust::orient2d(c2(a), c2(b), c2(c)))
}

/// Exact sign of `det[a − d, b − d, c − d]` (robust's convention: positive when `d` lies
/// below the plane through `a, b, c`, i.e. `a, b, c` counter-clockwise seen from above).
pub fn orient3d(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> Sign {
    Sign::of(robust::orient3d(c3(a), c3(b), c3(c), c3(d)))
}

/// Whether three 3D points are exactly collinear (all three coordinate-plane projections
/// are collinear).
pub fn collinear3(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let xy = |p: DVec3| DVec2::new(p.x, p.y);
    let yz = |p: DVec3| DVec2::new(p.y, p.z);
    let zx = |p: DVec3| DVec2::new(p.z, p.x);
    orient2d(xy(a), xy(b), xy(c)) == Sign::Zero
        && orient2d(yz(a), yz(b), yz(c)) == Sign::Zero
        && orient2d(zx(a), zx(b), zx(c)) == Sign::Zero
}

/// Whether all points lie exactly on one line (true for fewer than 3 distinct points).
pub fn collinear(points: &[DVec3]) -> bool {
    let Some(&a) = points.first() else {
        return true;
    };
    let Some(&b) = points.iter().find(|p| **p != a) else {
        return true;
    };
    points.iter().all(|p| collinear3(a, b, *p))
}

/// Whether all points lie exactly on one plane (true for collinear sets).
pub fn coplanar(points: &[DVec3]) -> bool {
    let Some(&a) = points.first() else {
        return true;
    };
    let Some(&b) = points.iter().find(|p| **p != a) else {
        return true;
    };
    let Some(&c) = points.iter().find(|p| !collinear3(a, b, **p)) else {
        return true;
    };
    points.iter().all(|p| orient3d(a, b, c, *p) == Sign::Zero)
}

/// Whether `p` lies exactly on the plane through `a, b, c` (which must not be collinear).
pub fn point_on_plane(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> bool {
    orient3d(a, b, c, p) == Sign::Zero
}

/// Where a point lies relative to a closed region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Containment {
    Inside,
    Boundary,
    Outside,
}

/// Exact containment of `p` in the triangle `a, b, c` (either orientation, non-degenerate).
pub fn point_in_triangle2(p: DVec2, a: DVec2, b: DVec2, c: DVec2) -> Containment {
    let s = orient2d(a, b, c);
    let flip = |x: Sign| match (s, x) {
        (Sign::Negative, Sign::Positive) => Sign::Negative,
        (Sign::Negative, Sign::Negative) => Sign::Positive,
        (_, x) => x,
    };
    let e = [
        flip(orient2d(a, b, p)),
        flip(orient2d(b, c, p)),
        flip(orient2d(c, a, p)),
    ];
    if e.contains(&Sign::Negative) {
        Containment::Outside
    } else if e.contains(&Sign::Zero) {
        Containment::Boundary
    } else {
        Containment::Inside
    }
}

/// Knuth's two-sum: `s = fl(a + b)` and `e` with `a + b = s + e` exactly.
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The terms as a non-overlapping expansion whose exact sum is the exact sum of `xs`
/// (ordered by increasing magnitude, zeros removed).
pub fn expansion_sum(xs: &[f64]) -> Vec<f64> {
    let mut e: Vec<f64> = Vec::new();
    for &x in xs {
        // Grow-expansion (Shewchuk, Fig. 6).
        let mut q = x;
        let mut out = Vec::with_capacity(e.len() + 1);
        for &ei in &e {
            let (s, err) = two_sum(q, ei);
            if err != 0.0 {
                out.push(err);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        e = out;
    }
    e
}

/// The exact sign of `Σ xs`.
pub fn sum_sign(xs: &[f64]) -> Sign {
    // The largest component of a non-overlapping expansion carries the sign.
    Sign::of(expansion_sum(xs).last().copied().unwrap_or(0.0))
}

/// `Σ xs` rounded faithfully (error below one ulp of the result): the components of the exact
/// expansion summed from the smallest.
pub fn accurate_sum(xs: &[f64]) -> f64 {
    let e = expansion_sum(xs);
    let mut s = 0.0;
    for x in e {
        s += x;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_signs_where_floating_point_fails() {
        // Nearly collinear points where the naive determinant has the wrong sign or zero.
        let a = DVec2::new(0.5, 0.5);
        let b = DVec2::new(12.0, 12.0);
        let c = DVec2::new(24.0, 24.0);
        assert_eq!(orient2d(a, b, c), Sign::Zero);
        let c2 = DVec2::new(24.0, 24.0 + 24.0 * f64::EPSILON);
        assert_eq!(orient2d(a, b, c2), Sign::Positive);
        assert!(coplanar(&[
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::new(3.0, 7.0, 0.0)
        ]));
        assert!(!coplanar(&[
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::new(3.0, 7.0, 1e-300)
        ]));
        assert!(collinear(&[DVec3::ZERO, DVec3::ONE, DVec3::splat(-3.0)]));
        assert_eq!(
            point_in_triangle2(DVec2::new(0.5, 0.0), DVec2::ZERO, DVec2::X, DVec2::Y),
            Containment::Boundary
        );
    }

    #[test]
    fn sums_are_exact() {
        assert_eq!(sum_sign(&[1e6, 1e-10, -1e6]), Sign::Positive);
        assert_eq!(accurate_sum(&[1e6, 1e-10, -1e6]), 1e-10);
        assert_eq!(sum_sign(&[0.1, 0.2, -0.3]), Sign::Positive);
        assert_eq!(accurate_sum(&[1.0, 2.0, -3.0]), 0.0);
    }
}
