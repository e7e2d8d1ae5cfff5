//! Intersection of two convex planar polygons in 3D (mesh facets): the crossing segment, a
//! point, or the coplanar overlap polygon.
//!
//! Method: each facet is split into the fan of triangles from its vertex 0, and every pair of
//! fan triangles is intersected with the exact [`tri_tri`]. The fan
//! triangles tile the facet, so the union of the pieces is the intersection `P ∩ Q`, which is
//! convex: a segment on the line `πP ∩ πQ` (its extreme points are the farthest pair of piece
//! endpoints) or, for coplanar facets, a convex polygon (the convex hull of the pieces,
//! computed with exact orientation in a one-to-one coordinate projection). Every decision —
//! which edge pierces which facet, whether a point is inside a facet on its plane, coplanarity
//! — is an exact orientation sign inside [`tri_tri`]; only crossing points are rounded.
//!
//! This replaces a local-frame projection with a tolerance by exact tests on the fan. The
//! cost is (n−2)(m−2) triangle pairs instead of n + m edge tests; facets are small.
//!
//! Preconditions: each facet is a convex polygon whose vertices are coplanar. A facet that is
//! not exactly planar (rounded coordinates) is answered exactly for its fan triangulation,
//! which is within rounding of the polygon. Vertex order may be either orientation. One or two
//! vertices are accepted (a point or a segment).
//! Complexity: O(n·m). Failure modes: empty or non-finite input is an [`InputError`].

use glam::DVec3;

use crate::error::{InputError, Problem, MAX_MAGNITUDE};
use crate::math::vector::finite_vec;
use crate::primitives::tri_tri::{is_coplanar_pair, planar_hull, tri_tri, Piece, TriTri};

fn fan(p: &[DVec3]) -> Vec<[DVec3; 3]> {
    match p {
        [] => vec![],
        [a] => vec![[*a; 3]],
        [a, b] => vec![[*a, *b, *b]],
        [a, rest @ ..] => rest.windows(2).map(|w| [*a, w[0], w[1]]).collect(),
    }
}

fn validate(field: &str, p: &[DVec3]) -> Result<(), InputError> {
    if p.is_empty() {
        return Err(InputError::new(field, Problem::Empty));
    }
    for (i, v) in p.iter().enumerate() {
        if !v.is_finite() || v.abs().max_element() > MAX_MAGNITUDE {
            finite_vec(&format!("{field}[{i}]"), *v)?;
        }
    }
    Ok(())
}

/// The intersection of two closed convex planar facets (see the module notes).
pub fn facet_facet(p: &[DVec3], q: &[DVec3]) -> Result<TriTri, InputError> {
    validate("p", p)?;
    validate("q", q)?;
    let (fp, fq) = (fan(p), fan(q));
    let mut pts: Vec<DVec3> = Vec::new();
    let mut coplanar = false;
    for a in &fp {
        for b in &fq {
            let r = tri_tri(*a, *b);
            if !r.is_intersecting() {
                continue;
            }
            if Piece::new(*a).len == 3 && Piece::new(*b).len == 3 && is_coplanar_pair(a, b) {
                coplanar = true;
            }
            match r {
                TriTri::Disjoint => {}
                TriTri::Point(x) => pts.push(x),
                TriTri::Segment(x, y) => pts.extend([x, y]),
                TriTri::Coplanar(v) => pts.extend(v),
            }
        }
    }
    pts.sort_by(|a, b| {
        a.x.total_cmp(&b.x)
            .then(a.y.total_cmp(&b.y))
            .then(a.z.total_cmp(&b.z))
    });
    pts.dedup();
    Ok(match pts.as_slice() {
        [] => TriTri::Disjoint,
        [x] => TriTri::Point(*x),
        _ if coplanar => planar_hull(&pts),
        _ => {
            let mut best = (-1.0, pts[0], pts[0]);
            for (i, &a) in pts.iter().enumerate() {
                for &b in &pts[i + 1..] {
                    let d = (a - b).length_squared();
                    if d > best.0 {
                        best = (d, a, b);
                    }
                }
            }
            TriTri::Segment(best.1, best.2)
        }
    })
}

/// Whether two closed convex planar facets share a point (exact on the fan triangulation).
pub fn facet_facet_test(p: &[DVec3], q: &[DVec3]) -> Result<bool, InputError> {
    validate("p", p)?;
    validate("q", q)?;
    let fq = fan(q);
    Ok(fan(p).iter().any(|a| {
        fq.iter()
            .any(|b| crate::primitives::tri_tri::tri_tri_test(*a, *b))
    }))
}
