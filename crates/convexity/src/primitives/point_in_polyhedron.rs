//! Point in a convex polyhedron given by its face planes.
//!
//! What: a convex polyhedron is the intersection of half-spaces `n_i · x <= d_i`.
//! [`point_in_convex_polyhedron`] evaluates the signed distances `(n_i · p - d_i) / |n_i|` one
//! plane at a time and stops at the first plane that `p` is beyond by more than the
//! tolerance; otherwise `p` is on the boundary if it is within the tolerance of some plane,
//! else inside. [`point_in_convex_polyhedron_exact`] takes each face as three of its vertices
//! instead, and decides every side exactly with `robust::orient3d`: planes given as floats
//! (normal and offset) are themselves rounded, so only the vertex form can be exact.
//!
//! Source: the half-space representation of a convex polytope (Ziegler, *Lectures on
//! Polytopes*, §0.1; Preparata & Shamos, §3.4); Shewchuk's orient3d for the exact variant.
//! Complexity: O(f) for f faces, with early exit on the first separating plane.
//!
//! Preconditions: the planes bound a convex set (redundant planes are harmless; the answer
//! is for the intersection of the given half-spaces, which may be unbounded or empty: an empty
//! intersection gives `Outside` for every point). For the exact variant, each face triangle
//! is wound counter-clockwise seen from outside (the outward normal is
//! `(b - a) × (c - a)`), and the three points are not collinear.
//!
//! Tolerance: `tol` is a distance, in the units of the coordinates, applied to every plane
//! symmetrically: signed distance `> tol` is outside, `|distance| <= tol` is boundary. Use
//! `tol = 0` for the plain closed-set test on the given (already rounded) planes; a tolerance
//! of a few ulps of the coordinates' magnitude absorbs the rounding of planes computed from
//! vertices. Failure modes: none; bad input gives an [`InputError`].

use crate::error::{finite, non_negative, InputError, Problem};
use crate::math::vector::finite_vec;
use crate::primitives::polygon::Location;
use glam::DVec3;

/// Locates `p` in `{x : n_i · x <= d_i for every plane (n_i, d_i)}` with distance tolerance
/// `tol` (see the module header).
///
/// Errors: no plane (`Empty`), a non-finite or huge coordinate (`planes[i].normal[c]`,
/// `planes[i].offset`, `point[c]`), a zero normal (`planes[i].normal`, `Invalid`), or a
/// negative tolerance.
pub fn point_in_convex_polyhedron(
    planes: &[(DVec3, f64)],
    p: DVec3,
    tol: f64,
) -> Result<Location, InputError> {
    if planes.is_empty() {
        return Err(InputError::new("planes", Problem::Empty));
    }
    non_negative("tol", tol)?;
    finite_vec("point", p)?;
    for (i, &(n, d)) in planes.iter().enumerate() {
        finite_vec(&format!("planes[{i}].normal"), n)?;
        finite(&format!("planes[{i}].offset"), d)?;
        if !(n.length_squared() > 0.0) {
            return Err(InputError::new(
                format!("planes[{i}].normal"),
                Problem::Invalid("the normal must not be zero".into()),
            ));
        }
    }
    let mut on = false;
    for &(n, d) in planes {
        // Divide by |n| only when deciding, to keep the common case cheap: s > tol |n|.
        let s = n.dot(p) - d;
        let t = tol * n.length();
        if s > t {
            return Ok(Location::Outside);
        }
        on |= s >= -t;
    }
    Ok(if on {
        Location::Boundary
    } else {
        Location::Inside
    })
}

/// Locates `p` exactly in the convex polyhedron whose faces contain the given triangles
/// (each counter-clockwise seen from outside): outside as soon as `p` is strictly beyond one
/// face's plane, boundary if on some face's plane and behind all others, else inside.
///
/// Errors: no face (`Empty`), a non-finite or huge coordinate (`faces[i][k][c]`,
/// `point[c]`).
pub fn point_in_convex_polyhedron_exact(
    faces: &[[DVec3; 3]],
    p: DVec3,
) -> Result<Location, InputError> {
    if faces.is_empty() {
        return Err(InputError::new("faces", Problem::Empty));
    }
    finite_vec("point", p)?;
    for (i, f) in faces.iter().enumerate() {
        for (k, &v) in f.iter().enumerate() {
            finite_vec(&format!("faces[{i}][{k}]"), v)?;
        }
    }
    let c = |v: DVec3| robust::Coord3D {
        x: v.x,
        y: v.y,
        z: v.z,
    };
    let mut on = false;
    for f in faces {
        // robust's orient3d(a, b, c, d) is positive when d is below the plane of a, b, c
        // seen with a, b, c counter-clockwise, i.e. on the inner side of an outward face.
        let o = robust::orient3d(c(f[0]), c(f[1]), c(f[2]), c(p));
        if o < 0.0 {
            return Ok(Location::Outside);
        }
        on |= o == 0.0;
    }
    Ok(if on {
        Location::Boundary
    } else {
        Location::Inside
    })
}
