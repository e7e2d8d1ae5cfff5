//! Point in polygon: convex polygons (linear with early exit, and O(log n)) and general
//! polygons (crossing number and winding number, one point or a binned batch).
//!
//! What:
//! * [`convex_polygon_contains`]: one point against a convex polygon given in either winding;
//!   the winding is detected from the first non-zero turn, and the loop over the edges stops
//!   at the first edge that separates the point.
//! * [`ConvexPolygonLocator`]: validates convexity once (exactly), then answers in O(log n)
//!   by binary search over the fan of triangles from vertex 0 (Preparata & Shamos,
//!   *Computational Geometry*, §2.2.1, "inclusion in a convex polygon").
//! * [`Polygon::locate`], [`Polygon::crossing_number`], [`Polygon::winding_number`]: the
//!   crossing number (even-odd rule, ray casting) and the winding number (non-zero rule) in
//!   one pass over the edges, in the form of D. Sunday's winding-number algorithm
//!   (Hormann & Agathos, "The point in polygon problem for arbitrary polygons", CGTA 20
//!   (2001), which also proves that the half-open rule below is consistent).
//! * [`PolygonLocator`]: the same test after bucketing the edges into horizontal slabs, so a
//!   query visits only the edges whose y-range contains the query's y; [`PolygonLocator::
//!   locate_batch`] and [`PolygonLocator::inpolygon`] run it over many points (the
//!   `inpolygon` of MATLAB/Octave: inside-or-on and on-boundary flags).
//!
//! Exactness. The ray from the query `p` goes in +x. An edge `a -> b` is *upward* when
//! `a.y <= p.y < b.y` and *downward* when `b.y <= p.y < a.y` (half-open in y: a vertex at the
//! ray's height counts as below it). Only upward and downward edges can cross the ray, and
//! one of them does, to the right of `p`, exactly when `p` is strictly left of an upward edge
//! (orient2d(a, b, p) > 0) or strictly right of a downward one. With this rule a ray through
//! a vertex is counted once when the boundary crosses the ray there and zero or two times
//! when it only touches it, and horizontal edges are never counted; all of it uses exact
//! float comparisons and the exact sign of `robust::orient2d`. A point with orient2d = 0
//! within the edge's y-range, or on a horizontal edge within its x-range, is on the boundary,
//! and is reported as [`Location::Boundary`] before any rule is applied.
//!
//! Fill rules for self-intersecting polygons and multiple rings: [`FillRule::EvenOdd`] fills
//! the points with an odd crossing number (a region covered twice, such as the centre of a
//! pentagram or a hole of either orientation, is outside); [`FillRule::NonZero`] fills the
//! points with a non-zero winding number (the pentagram's centre, winding 2, is inside, and a
//! hole must be wound opposite to its outer ring to stay empty).
//!
//! Complexity: `Polygon::locate` O(n); `convex_polygon_contains` O(n), with early exit;
//! `ConvexPolygonLocator` O(n) to build, O(log n) per query; `PolygonLocator` O(n) to build
//! (with at most a few rebuilds of the slab count, O(n log n) in all), O(n) memory (the slab
//! count is reduced until the edge copies number at most 8n), and per query O(edges in the
//! query's slab), which is O(1) on average for polygons whose edges are short relative to
//! their height, and O(n) in the worst case (every edge spanning the whole height). Within a
//! slab the edges are sorted by decreasing right end and the scan stops at the first edge
//! left of the query, which halves the work on average. Known weak case: spiky polygons (a
//! star with random radii), where a horizontal line crosses O(n) edges and so every slab
//! holds O(n) edges; a 2D grid with precomputed cell-centre locations (Žalik & Kolingerová,
//! IJGIS 2001) would be O(1) there and is not implemented.
//!
//! Preconditions: finite inputs (checked: non-finite or huge coordinates give an
//! [`InputError`]). `convex_polygon_contains` assumes, without checking, that its polygon is
//! convex; for another polygon it answers for the intersection of its edges' half-planes.
//! Failure modes: none; there are no tolerances.

use super::{check_point, check_point_with, on_segment, orient, Polygon};
use crate::error::{InputError, Problem};
use glam::DVec2;

/// Where a point lies relative to a closed set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// In the interior.
    Inside,
    /// On an edge or a vertex (a point of the closed set).
    Boundary,
    /// Not in the closed set.
    Outside,
}

impl Location {
    /// True for `Inside` and `Boundary`: membership in the closed set.
    pub fn is_in_closed(self) -> bool {
        !matches!(self, Location::Outside)
    }
}

/// Which points a self-intersecting or multi-ring polygon contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FillRule {
    /// Odd crossing number. Holes may have any orientation.
    #[default]
    EvenOdd,
    /// Non-zero winding number. Holes must be wound opposite to the ring around them.
    NonZero,
}

/// Crossing and winding counts of the ray from a point.
#[derive(Clone, Copy, Default)]
struct Counts {
    crossings: u64,
    winding: i64,
}

impl Counts {
    fn location(self, rule: FillRule) -> Location {
        let inside = match rule {
            FillRule::EvenOdd => self.crossings % 2 == 1,
            FillRule::NonZero => self.winding != 0,
        };
        if inside {
            Location::Inside
        } else {
            Location::Outside
        }
    }
}

/// One edge's contribution to the crossing and winding numbers of `p` (see the module
/// header for the rule). Returns true when `p` lies on the closed edge.
#[inline(always)]
fn edge_step(a: DVec2, b: DVec2, p: DVec2, counts: &mut Counts) -> bool {
    // Entirely above or below the ray's line, or entirely to its left: neither a crossing
    // nor a boundary hit is possible. These exact comparisons dismiss most edges.
    if (a.y > p.y && b.y > p.y) || (a.y < p.y && b.y < p.y) || (a.x < p.x && b.x < p.x) {
        return false;
    }
    let upward = a.y <= p.y && b.y > p.y;
    let downward = b.y <= p.y && a.y > p.y;
    if !upward && !downward {
        // Horizontal edge at the ray's height, or an edge touching it from below at an end
        // point: never a crossing, possibly the boundary.
        return on_segment(a, b, p);
    }
    if a.x > p.x && b.x > p.x {
        // Entirely right of p and straddling the ray: it crosses the ray right of p.
        counts.crossings += 1;
        counts.winding += if upward { 1 } else { -1 };
        return false;
    }
    let o = orient(a, b, p);
    if o == 0.0 {
        // Collinear with a non-horizontal edge and within its y-range: on it.
        return true;
    }
    if upward && o > 0.0 {
        counts.crossings += 1;
        counts.winding += 1;
    } else if downward && o < 0.0 {
        counts.crossings += 1;
        counts.winding -= 1;
    }
    false
}

/// Runs [`edge_step`] over edges; `None` when `p` is on one of them.
#[inline]
fn count_edges(edges: impl Iterator<Item = (DVec2, DVec2)>, p: DVec2) -> Option<Counts> {
    let mut counts = Counts::default();
    for (a, b) in edges {
        if edge_step(a, b, p, &mut counts) {
            return None;
        }
    }
    Some(counts)
}

impl Polygon {
    fn counts(&self, p: DVec2) -> Result<Option<Counts>, InputError> {
        check_point("point", p)?;
        Ok(count_edges(self.edges().map(|(_, a, b)| (a, b)), p))
    }

    /// Locates `p` under `rule`: [`Location::Boundary`] on an edge or vertex of any ring,
    /// otherwise inside or outside by the rule. O(n), exact.
    pub fn locate(&self, p: DVec2, rule: FillRule) -> Result<Location, InputError> {
        Ok(match self.counts(p)? {
            None => Location::Boundary,
            Some(c) => c.location(rule),
        })
    }

    /// Crossings of the ray from `p` in +x with the boundary, counted with the half-open rule
    /// of the module header; `None` when `p` is on the boundary (where no count is meaningful).
    pub fn crossing_number(&self, p: DVec2) -> Result<Option<u64>, InputError> {
        Ok(self.counts(p)?.map(|c| c.crossings))
    }

    /// How many times the boundary winds counter-clockwise around `p` (clockwise turns count
    /// negative, and the rings add up); `None` when `p` is on the boundary.
    pub fn winding_number(&self, p: DVec2) -> Result<Option<i64>, InputError> {
        Ok(self.counts(p)?.map(|c| c.winding))
    }
}

/// Locates `p` in the convex polygon `poly`, given in either winding, in one pass that stops
/// at the first edge with `p` strictly on its outer side.
///
/// Repeated vertices and collinear vertices are accepted. A polygon whose vertices are all
/// collinear is the segment (or point) they span: `p` is then `Boundary` or `Outside`.
/// Convexity is not checked (use [`ConvexPolygonLocator::new`] for that); for a non-convex
/// input the answer is the one for the intersection of the edges' half-planes.
///
/// Errors: empty `poly`, or a non-finite or huge coordinate in `poly` or `p`.
pub fn convex_polygon_contains(poly: &[DVec2], p: DVec2) -> Result<Location, InputError> {
    if poly.is_empty() {
        return Err(InputError::new("poly", Problem::Empty));
    }
    for (i, &v) in poly.iter().enumerate() {
        check_point_with(|| format!("poly[{i}]"), v)?;
    }
    check_point("point", p)?;
    let n = poly.len();
    let at = |i: usize| poly[i % n];
    // The winding is the sign of the first non-zero turn (for a convex polygon every
    // non-zero turn has the same sign).
    let sign = (0..n)
        .map(|i| orient(at(i), at(i + 1), at(i + 2)))
        .find(|&o| o != 0.0)
        .map(f64::signum);
    let Some(sign) = sign else {
        // All vertices collinear: the closed set is the union of the edges.
        let on = (0..n).any(|i| on_segment(at(i), at(i + 1), p));
        return Ok(if on {
            Location::Boundary
        } else {
            Location::Outside
        });
    };
    let mut on_line = false;
    for i in 0..n {
        let (a, b) = (at(i), at(i + 1));
        if a == b {
            continue;
        }
        let o = orient(a, b, p) * sign;
        if o < 0.0 {
            return Ok(Location::Outside);
        }
        on_line |= o == 0.0;
    }
    // In every closed half-plane, and on the line of one edge: on the boundary of the
    // intersection.
    Ok(if on_line {
        Location::Boundary
    } else {
        Location::Inside
    })
}

/// A convex polygon prepared for O(log n) point location.
///
/// Built once in O(n): the input may be in either winding, with repeated or collinear
/// vertices; it is stored counter-clockwise with neither. Convexity is verified exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygonLocator {
    /// Counter-clockwise, strictly convex; or 1 point; or the 2 end points of a segment.
    vertices: Vec<DVec2>,
}

impl ConvexPolygonLocator {
    /// Validates and prepares `poly`.
    ///
    /// Errors: `Empty`; `NotFinite`/`OutOfRange` for a bad coordinate (`poly[i][c]`);
    /// `NotConvex(i)` when the turn at vertex `i` has the wrong sign, when the boundary
    /// doubles back on itself at `i`, or (with `i` = 0) when the boundary winds around more
    /// than once (a pentagram's turns all have one sign).
    pub fn new(poly: &[DVec2]) -> Result<ConvexPolygonLocator, InputError> {
        if poly.is_empty() {
            return Err(InputError::new("poly", Problem::Empty));
        }
        for (i, &v) in poly.iter().enumerate() {
            check_point_with(|| format!("poly[{i}]"), v)?;
        }
        // Drop cyclically repeated vertices, remembering input indices for error messages.
        let mut verts: Vec<(usize, DVec2)> = Vec::with_capacity(poly.len());
        for (i, &v) in poly.iter().enumerate() {
            if verts.last().is_none_or(|&(_, w)| w != v) {
                verts.push((i, v));
            }
        }
        while verts.len() > 1 && verts.first().map(|f| f.1) == verts.last().map(|l| l.1) {
            verts.pop();
        }
        let n = verts.len();
        let at = |i: usize| verts[i % n].1;
        let turns: Vec<f64> = (0..n)
            .map(|i| orient(at(i + n - 1), at(i), at(i + 1)))
            .collect();
        let Some(sign) = turns.iter().find(|&&o| o != 0.0).map(|o| o.signum()) else {
            // All collinear (or a single point): the set is the segment between the
            // lexicographic extremes, which are the extremes along the common line.
            let key = |v: &DVec2| (v.x, v.y);
            let lo = verts.iter().map(|v| v.1).min_by(|a, b| {
                key(a)
                    .partial_cmp(&key(b))
                    .unwrap_or(core::cmp::Ordering::Equal)
            });
            let hi = verts.iter().map(|v| v.1).max_by(|a, b| {
                key(a)
                    .partial_cmp(&key(b))
                    .unwrap_or(core::cmp::Ordering::Equal)
            });
            let vertices = match (lo, hi) {
                (Some(lo), Some(hi)) if lo != hi => vec![lo, hi],
                (Some(lo), _) => vec![lo],
                _ => return Err(InputError::new("poly", Problem::Empty)),
            };
            return Ok(ConvexPolygonLocator { vertices });
        };
        let mut turning = 0.0;
        for i in 0..n {
            let (e0, e1) = (at(i) - at(i + n - 1), at(i + 1) - at(i));
            if turns[i] * sign < 0.0 || (turns[i] == 0.0 && e0.dot(e1) < 0.0) {
                return Err(InputError::new("poly", Problem::NotConvex(verts[i].0)));
            }
            turning += e0.perp_dot(e1).atan2(e0.dot(e1));
        }
        // Each exterior angle is in [-pi, pi] and has the polygon's sign, so the sum is a
        // multiple of 2 pi up to rounding (~n ulps): 2 pi for a simple polygon, 4 pi or more
        // for a star that winds around several times. The threshold 3 pi is far from both.
        if turning.abs() > 3.0 * core::f64::consts::PI {
            return Err(InputError::new("poly", Problem::NotConvex(verts[0].0)));
        }
        let mut vertices: Vec<DVec2> = (0..n).filter(|&i| turns[i] != 0.0).map(at).collect();
        if sign < 0.0 {
            vertices.reverse();
        }
        Ok(ConvexPolygonLocator { vertices })
    }

    /// The prepared vertices: counter-clockwise and strictly convex (or 1 or 2 points for a
    /// degenerate polygon).
    pub fn vertices(&self) -> &[DVec2] {
        &self.vertices
    }

    /// Locates `p` in O(log n): the wedge at vertex 0 that contains `p` is found by binary
    /// search over the fan diagonals, then `p` is tested against the one edge closing it.
    pub fn locate(&self, p: DVec2) -> Result<Location, InputError> {
        check_point("point", p)?;
        let v = &self.vertices;
        let n = v.len();
        let seg = |a: DVec2, b: DVec2| {
            if on_segment(a, b, p) {
                Location::Boundary
            } else {
                Location::Outside
            }
        };
        match v.as_slice() {
            [] => return Ok(Location::Outside),
            [a] => return Ok(seg(*a, *a)),
            [a, b] => return Ok(seg(*a, *b)),
            _ => {}
        }
        let (v0, v1, vl) = (v[0], v[1], v[n - 1]);
        let o1 = orient(v0, v1, p);
        let ol = orient(v0, vl, p);
        if o1 < 0.0 || ol > 0.0 {
            return Ok(Location::Outside);
        }
        // In the closed cone at v0. On one of its bounding rays, p is in the polygon exactly
        // when it is on the edge along that ray.
        if o1 == 0.0 {
            return Ok(seg(v0, v1));
        }
        if ol == 0.0 {
            return Ok(seg(v0, vl));
        }
        // Strictly inside the cone: orient(v0, v[lo], p) >= 0 > orient(v0, v[hi], p).
        let (mut lo, mut hi) = (1, n - 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if orient(v0, v[mid], p) >= 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // p is in the closed wedge between the diagonals to v[lo] and v[hi]; the polygon's
        // part of that wedge is the triangle (v0, v[lo], v[hi]).
        let o = orient(v[lo], v[hi], p);
        Ok(if o > 0.0 {
            Location::Inside
        } else if o == 0.0 {
            Location::Boundary
        } else {
            Location::Outside
        })
    }

    /// Locates `p` by the linear test with early exit ([`convex_polygon_contains`] on the
    /// prepared vertices).
    pub fn locate_linear(&self, p: DVec2) -> Result<Location, InputError> {
        convex_polygon_contains(&self.vertices, p)
    }
}

/// Most slabs a [`PolygonLocator`] uses.
const MAX_SLABS: usize = 1 << 22;
/// Edge copies allowed per edge before the slab count is reduced.
const COPIES_PER_EDGE: usize = 8;

/// A general polygon prepared for fast point location: its edges bucketed into horizontal
/// slabs of equal height.
///
/// Correctness does not depend on rounding: the slab of a y-coordinate is computed by one
/// monotone function (`(y - y0) * scale` truncated, clamped), so an edge whose closed y-range
/// contains `p.y` is always listed in the slab of `p.y`, and the exact edge test of the module
/// header is then applied to every edge listed there.
#[derive(Clone, Debug)]
pub struct PolygonLocator {
    lo: DVec2,
    hi: DVec2,
    y0: f64,
    scale: f64,
    slabs: usize,
    /// Slab `k` holds `edges[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<usize>,
    edges: Vec<[DVec2; 2]>,
}

impl PolygonLocator {
    /// Buckets the edges of `polygon`.
    pub fn new(polygon: &Polygon) -> PolygonLocator {
        let (lo, hi) = polygon.bounds();
        let n = polygon.edge_count().max(1);
        let height = hi.y - lo.y;
        let mut slabs = (2 * n).min(MAX_SLABS);
        let mut scale;
        loop {
            scale = slabs as f64 / height;
            if !(scale.is_finite() && scale > 0.0) {
                slabs = 1;
                scale = 0.0;
            }
            let probe = PolygonLocator {
                lo,
                hi,
                y0: lo.y,
                scale,
                slabs,
                offsets: Vec::new(),
                edges: Vec::new(),
            };
            let copies: usize = polygon
                .edges()
                .map(|(_, a, b)| probe.slab_of(a.y.max(b.y)) - probe.slab_of(a.y.min(b.y)) + 1)
                .sum();
            if slabs == 1 || copies <= COPIES_PER_EDGE * n {
                break;
            }
            slabs /= 2;
        }
        let mut loc = PolygonLocator {
            lo,
            hi,
            y0: lo.y,
            scale,
            slabs,
            offsets: vec![0; slabs + 1],
            edges: Vec::new(),
        };
        for (_, a, b) in polygon.edges() {
            for k in loc.slab_of(a.y.min(b.y))..=loc.slab_of(a.y.max(b.y)) {
                loc.offsets[k + 1] += 1;
            }
        }
        for k in 0..slabs {
            loc.offsets[k + 1] += loc.offsets[k];
        }
        let mut fill = loc.offsets.clone();
        loc.edges = vec![[DVec2::ZERO; 2]; loc.offsets[slabs]];
        for (_, a, b) in polygon.edges() {
            let (k0, k1) = (loc.slab_of(a.y.min(b.y)), loc.slab_of(a.y.max(b.y)));
            for slot in &mut fill[k0..=k1] {
                loc.edges[*slot] = [a, b];
                *slot += 1;
            }
        }
        // Within a slab, edges by decreasing right end, so a query stops at the first edge
        // entirely left of it (such an edge neither crosses the ray nor holds the point).
        for k in 0..slabs {
            loc.edges[loc.offsets[k]..loc.offsets[k + 1]]
                .sort_unstable_by(|e, f| f[0].x.max(f[1].x).total_cmp(&e[0].x.max(e[1].x)));
        }
        loc
    }

    /// The slab of height `y`: monotone non-decreasing in `y`, always in `0..slabs`.
    #[inline]
    fn slab_of(&self, y: f64) -> usize {
        // For t >= 0 truncation is the floor (and `as` saturates), so this is monotone; it
        // avoids a call to `floor` on targets without SSE4.1.
        let t = (y - self.y0) * self.scale;
        if !(t > 0.0) {
            0
        } else {
            (t as usize).min(self.slabs - 1)
        }
    }

    /// The number of slabs chosen.
    pub fn slab_count(&self) -> usize {
        self.slabs
    }

    #[inline]
    fn counts_unchecked(&self, p: DVec2) -> Option<Counts> {
        if p.y < self.lo.y || p.y > self.hi.y || p.x > self.hi.x {
            return Some(Counts::default());
        }
        let k = self.slab_of(p.y);
        let (s, e) = (self.offsets[k], self.offsets[k + 1]);
        count_edges(
            self.edges[s..e]
                .iter()
                .take_while(|[a, b]| a.x.max(b.x) >= p.x)
                .map(|&[a, b]| (a, b)),
            p,
        )
    }

    #[inline]
    fn locate_unchecked(&self, p: DVec2, rule: FillRule) -> Location {
        match self.counts_unchecked(p) {
            None => Location::Boundary,
            Some(c) => c.location(rule),
        }
    }

    /// Locates one point; same answers as [`Polygon::locate`].
    pub fn locate(&self, p: DVec2, rule: FillRule) -> Result<Location, InputError> {
        check_point("point", p)?;
        Ok(self.locate_unchecked(p, rule))
    }

    /// Same as [`Polygon::crossing_number`].
    pub fn crossing_number(&self, p: DVec2) -> Result<Option<u64>, InputError> {
        check_point("point", p)?;
        Ok(self.counts_unchecked(p).map(|c| c.crossings))
    }

    /// Same as [`Polygon::winding_number`].
    pub fn winding_number(&self, p: DVec2) -> Result<Option<i64>, InputError> {
        check_point("point", p)?;
        Ok(self.counts_unchecked(p).map(|c| c.winding))
    }

    /// Locates every point. Errors name the first bad point (`points[i][c]`).
    pub fn locate_batch(
        &self,
        points: &[DVec2],
        rule: FillRule,
    ) -> Result<Vec<Location>, InputError> {
        for (i, &p) in points.iter().enumerate() {
            check_point_with(|| format!("points[{i}]"), p)?;
        }
        Ok(points
            .iter()
            .map(|&p| self.locate_unchecked(p, rule))
            .collect())
    }

    /// MATLAB/Octave-style `[in, on] = inpolygon(...)`: `inside[i]` is true for points inside
    /// or on the boundary (the closed set), `on[i]` for points on the boundary.
    pub fn inpolygon(
        &self,
        points: &[DVec2],
        rule: FillRule,
    ) -> Result<(Vec<bool>, Vec<bool>), InputError> {
        let locs = self.locate_batch(points, rule)?;
        Ok((
            locs.iter().map(|l| l.is_in_closed()).collect(),
            locs.iter().map(|&l| l == Location::Boundary).collect(),
        ))
    }
}
