//! General 2D polygons and polylines: point location and segment intersections.
//!
//! What: [`Polygon`] holds one or more closed rings (outer boundaries, holes, islands, in any
//! orientation, possibly self-intersecting), built from a flat vertex list in which a vertex
//! with NaN coordinates separates rings, as in the polyline formats of MATLAB/Octave
//! (`inpolygon`, `polyxpoly`) and many GIS exports. [`point_in_polygon`] locates points in
//! convex and general polygons; [`segments`] finds every intersection between two polylines
//! or polygons.
//!
//! Conventions, shared by every function here:
//! * Closed sets: a point on an edge or a vertex is [`Location::Boundary`], and callers that
//!   want a yes/no answer count it as inside. Touching segments intersect.
//! * Every sign decision (which side of an edge, whether a ray crosses an edge, whether two
//!   segments meet or overlap) is exact: orientation signs come from Shewchuk's adaptive
//!   predicates (`robust::orient2d`, a floating-point filter that falls back to exact
//!   expansion arithmetic), and coordinate comparisons are exact on floats. Only computed
//!   intersection *points* (crossings in the interior of both segments) are rounded.
//!   The one limit of this exactness is underflow: Shewchuk's predicates multiply coordinate
//!   differences, so differences below about 1e-150 (products below the smallest subnormal)
//!   can make a sign come out zero. Scale such inputs up first.
//!
//! Source: Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
//! predicates", DCG 18 (1997). Complexity and failure modes: see each submodule.
//! Preconditions: coordinates finite and at most [`crate::error::MAX_MAGNITUDE`] in
//! magnitude (checked by the constructors; NaN is accepted only as a ring separator).

pub mod point_in_polygon;
pub mod polygon_polyline;
pub mod segments;

pub use point_in_polygon::{
    convex_polygon_contains, ConvexPolygonLocator, FillRule, Location, PolygonLocator,
};
pub use polygon_polyline::polygon_polyline_intersections;
pub use segments::{
    polygon_intersections, polyline_intersections, polyline_intersections_brute, HitKind,
    SegmentHit,
};

use crate::error::{InputError, Problem, MAX_MAGNITUDE};
use glam::DVec2;
use std::ops::Range;

/// Sign of the exact orientation determinant of `(a, b, c)`: positive when `c` is to the left
/// of the directed line `a -> b` (counter-clockwise turn), negative to the right, zero when
/// collinear. The value itself is a rounding of the exact determinant with the exact sign.
#[inline]
pub(crate) fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// True when `p` lies on the closed segment `[a, b]`. Exact.
///
/// Collinearity is the exact orientation sign; betweenness is two exact coordinate
/// comparisons (for collinear points, lying in the segment's bounding box is equivalent to
/// lying on the segment).
#[inline]
pub(crate) fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
        && orient(a, b, p) == 0.0
}

/// Checks one input coordinate pair; `field` names it, e.g. `points[3]`.
pub(crate) fn check_point(field: &str, p: DVec2) -> Result<DVec2, InputError> {
    check_point_with(|| field.to_string(), p)
}

/// [`check_point`] with the field name built only on error (for loops over many points).
#[inline]
pub(crate) fn check_point_with(field: impl Fn() -> String, p: DVec2) -> Result<DVec2, InputError> {
    // Fast path: one comparison per coordinate; NaN fails `<=`.
    if p.x.abs() <= MAX_MAGNITUDE && p.y.abs() <= MAX_MAGNITUDE {
        return Ok(p);
    }
    for (i, c) in [p.x, p.y].into_iter().enumerate() {
        if !c.is_finite() {
            return Err(InputError::new(
                format!("{}[{i}]", field()),
                Problem::NotFinite(c),
            ));
        }
        if c.abs() > MAX_MAGNITUDE {
            return Err(InputError::new(
                format!("{}[{i}]", field()),
                Problem::OutOfRange(c),
            ));
        }
    }
    Ok(p)
}

/// True for a vertex that separates rings or polyline parts: both coordinates NaN.
///
/// A vertex with exactly one NaN coordinate is rejected as malformed rather than read as a
/// separator, since it usually means a parsing error upstream.
#[inline]
pub(crate) fn is_separator(p: DVec2) -> bool {
    p.x.is_nan() && p.y.is_nan()
}

/// Splits a NaN-separated vertex list into the index ranges of its parts (empty parts, from
/// leading, trailing or repeated separators, are dropped) after validating every other vertex.
pub(crate) fn split_parts(field: &str, points: &[DVec2]) -> Result<Vec<Range<usize>>, InputError> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, &p) in points.iter().enumerate() {
        if is_separator(p) {
            if i > start {
                parts.push(start..i);
            }
            start = i + 1;
        } else {
            check_point_with(|| format!("{field}[{i}]"), p)?;
        }
    }
    if points.len() > start {
        parts.push(start..points.len());
    }
    Ok(parts)
}

/// A general polygon: one or more closed rings.
///
/// Rings may be in either orientation, may touch or cross each other and themselves, and may
/// be degenerate (one or two distinct vertices: the ring is then only a boundary of zero
/// area). Which points are inside is decided by a [`FillRule`]: with [`FillRule::EvenOdd`]
/// holes are simply further rings, whatever their orientation; with [`FillRule::NonZero`]
/// a hole must be wound opposite to the ring around it (as in SVG and PostScript), otherwise
/// it is filled.
///
/// Vertex indices (in [`Polygon::vertices`] and in [`SegmentHit`]) refer to the input list
/// including its separators, so that results map back to the caller's data unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// The input vertices, separators included.
    vertices: Vec<DVec2>,
    /// Index ranges into `vertices` of each ring, without the closing repetition of the first
    /// vertex if the input had one.
    rings: Vec<Range<usize>>,
}

impl Polygon {
    /// Builds a polygon from a NaN-separated vertex list (a vertex whose two coordinates are
    /// NaN ends a ring). Each ring is closed implicitly; a last vertex equal to the first is
    /// accepted and ignored.
    ///
    /// Errors: a vertex with one NaN or an infinite coordinate (`NotFinite`), a coordinate
    /// beyond [`MAX_MAGNITUDE`] (`OutOfRange`), or no vertex at all (`Empty`); the field is
    /// `vertices[i][c]`.
    pub fn new(vertices: &[DVec2]) -> Result<Polygon, InputError> {
        let mut rings = split_parts("vertices", vertices)?;
        if rings.is_empty() {
            return Err(InputError::new("vertices", Problem::Empty));
        }
        for r in &mut rings {
            if r.len() > 1 && vertices[r.start] == vertices[r.end - 1] {
                r.end -= 1;
            }
        }
        Ok(Polygon {
            vertices: vertices.to_vec(),
            rings,
        })
    }

    /// Builds a polygon from separate rings (outer boundaries, holes, islands), joined as if
    /// NaN-separated; vertex indices then count the separators between rings.
    pub fn from_rings(rings: &[Vec<DVec2>]) -> Result<Polygon, InputError> {
        let mut flat = Vec::new();
        for (i, r) in rings.iter().enumerate() {
            if i > 0 {
                flat.push(DVec2::NAN);
            }
            flat.extend_from_slice(r);
        }
        Polygon::new(&flat)
    }

    /// The input vertices, separators included.
    pub fn vertices(&self) -> &[DVec2] {
        &self.vertices
    }

    /// The rings as index ranges into [`Polygon::vertices`].
    pub fn rings(&self) -> &[Range<usize>] {
        &self.rings
    }

    /// The number of edges (one per ring vertex).
    pub fn edge_count(&self) -> usize {
        self.rings.iter().map(|r| r.len()).sum()
    }

    /// Every edge as `(index of its first vertex, first vertex, second vertex)`; the last
    /// edge of a ring closes it back to the ring's first vertex.
    pub fn edges(&self) -> impl Iterator<Item = (usize, DVec2, DVec2)> + '_ {
        self.rings.iter().flat_map(move |r| {
            let ring = &self.vertices[r.clone()];
            let start = r.start;
            ring.iter().enumerate().map(move |(k, &a)| {
                let b = if k + 1 < ring.len() {
                    ring[k + 1]
                } else {
                    ring[0]
                };
                (start + k, a, b)
            })
        })
    }

    /// Axis-aligned bounds `(min, max)` of all vertices.
    pub fn bounds(&self) -> (DVec2, DVec2) {
        let mut lo = DVec2::splat(f64::INFINITY);
        let mut hi = DVec2::splat(f64::NEG_INFINITY);
        for r in &self.rings {
            for &v in &self.vertices[r.clone()] {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        (lo, hi)
    }
}
