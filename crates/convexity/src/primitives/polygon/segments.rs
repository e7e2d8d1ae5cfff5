//! Every intersection between two polylines or polygons, with the segment indices on both
//! sides.
//!
//! What: [`polyline_intersections`] reports each pair (segment of A, segment of B) that
//! meets, as a point or, for collinear overlapping segments, as the overlap's two end points
//! ([`HitKind::Overlap`]). NaN vertices (both coordinates NaN) split a polyline into parts, as
//! in MATLAB/Octave `polyxpoly`. [`polygon_intersections`] does the same for the closed rings
//! of two [`Polygon`]s. [`polyline_intersections_brute`] is the O(nm) double loop with the
//! same output, kept as the reference and the benchmark baseline.
//!
//! Segment indices: a segment is named by the index of its first vertex in the caller's
//! array (separators included), so segment `i` of A runs from `a[i]` to `a[i + 1]` (for a
//! polygon ring, the last edge runs back to the ring's first vertex).
//!
//! Pair test (exact decisions): with `d1, d2` the orientations of A's end points against
//! B's line and `d3, d4` those of B's end points against A's line (`robust::orient2d`, exact
//! signs), the segments are disjoint when `d1, d2` or `d3, d4` are non-zero with one sign;
//! collinear when all four are zero, in which case the overlap is the intersection of the two
//! intervals in lexicographic (x, then y) order, which is the order along their common line,
//! so its end points are input vertices and exact; otherwise they meet in exactly one point,
//! which is an input vertex (exact) when one `d` is zero and otherwise the rounded crossing
//! `a0 + d1 / (d1 - d2) (a1 - a0)` (clamped into both bounding boxes).
//!
//! Reporting once: where a polyline passes through a point of the other at one of its
//! interior vertices, the two segments sharing that vertex both touch it. The hit is kept
//! for the segment that *ends* at the vertex and dropped for the one that *starts* there
//! (a point hit equal to the start vertex of a segment that has a predecessor in its part or
//! ring). The predecessor always contains that point too, so no point is lost. Overlaps are
//! never dropped. The output is sorted by `(a_index, b_index)`.
//!
//! Candidate pairs (the "sweep"): a uniform grid over the intersection of the two bounding
//! boxes, each segment listed in every cell its bounding box covers, pairs tested cell by
//! cell, and a pair tested only in the lowest cell (in x, then y) shared by both cell ranges,
//! so no pair is tested twice and no hash set is needed. Correctness does not depend on
//! rounding: the cell of a coordinate is one monotone function (`floor((x - x0) * scale)`,
//! clamped), so two segments whose closed bounding boxes overlap share at least one cell, and
//! every intersecting pair has overlapping boxes. The grid has about n + m cells and its
//! resolution is halved until the cell entries number at most 8 (n + m).
//!
//! Complexity, honestly: building is O((n + m) log(n + m)) at most (a few halvings, each
//! O(n + m)); the query costs O(n + m + k + P) where P is the number of (A, B) pairs sharing
//! a cell. For segments that are short relative to the extent of the data (polylines from
//! measurements, GIS boundaries, random walks) P is O(n + m + k) and the whole is linear.
//! This is NOT the O((n + k) log n) worst-case bound of Bentley–Ottmann: many long segments
//! force a coarse grid, and in the extreme (every segment spanning the common box) the grid
//! is a single cell and the cost is the O(nm) of the double loop. We chose the grid because
//! it is simple enough to be exactly correct with degenerate inputs (shared end points,
//! vertical segments, collinear overlaps, many segments through one point), which a
//! Bentley–Ottmann sweep handles only with careful event ordering and exact intersection
//! coordinates (Bentley & Ottmann, IEEE TC 28 (1979); de Berg et al., *Computational
//! Geometry*, ch. 2).
//!
//! Preconditions: finite coordinates at most [`crate::error::MAX_MAGNITUDE`] (checked).
//! A part with a single vertex has no segment and meets nothing. Failure modes: none.

use super::{orient, split_parts, Polygon};
use crate::error::InputError;
use glam::DVec2;

/// What two segments have in common.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HitKind {
    /// One point. Exact when it is an end point of either segment; otherwise the rounded
    /// crossing of the two lines.
    Point(DVec2),
    /// A collinear overlap of positive length, from its lexicographically smaller end point
    /// to its larger one (both exact: each is an end point of one of the segments).
    Overlap(DVec2, DVec2),
}

/// One intersection: segment `a_index` of A (from `a[a_index]` to the next vertex) meets
/// segment `b_index` of B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentHit {
    /// Index of the segment of A: it runs from vertex `a_index` to the next vertex.
    pub a_index: usize,
    /// Index of the segment of B: it runs from vertex `b_index` to the next vertex.
    pub b_index: usize,
    /// What the two segments share: one point or a collinear overlap.
    pub kind: HitKind,
}

/// A segment with its name and whether the vertex it starts at is shared with a preceding
/// segment of the same part or ring.
#[derive(Clone, Copy, Debug)]
struct Seg {
    index: usize,
    a: DVec2,
    b: DVec2,
    has_prev: bool,
}

impl Seg {
    fn lo(&self) -> DVec2 {
        self.a.min(self.b)
    }
    fn hi(&self) -> DVec2 {
        self.a.max(self.b)
    }
}

/// The segments of a NaN-separated polyline.
fn polyline_segments(field: &str, pts: &[DVec2]) -> Result<Vec<Seg>, InputError> {
    let parts = split_parts(field, pts)?;
    let mut segs = Vec::with_capacity(pts.len());
    for r in parts {
        for i in r.start..r.end.saturating_sub(1) {
            segs.push(Seg {
                index: i,
                a: pts[i],
                b: pts[i + 1],
                has_prev: i > r.start,
            });
        }
    }
    Ok(segs)
}

/// The edges of a polygon's rings (a one-vertex ring is one zero-length edge, which has no
/// predecessor; in longer rings every edge's predecessor is the previous edge, cyclically).
fn polygon_segments(poly: &Polygon) -> Vec<Seg> {
    let v = poly.vertices();
    let mut segs = Vec::with_capacity(poly.edge_count());
    for r in poly.rings() {
        let ring = &v[r.clone()];
        for (k, &a) in ring.iter().enumerate() {
            segs.push(Seg {
                index: r.start + k,
                a,
                b: ring.get(k + 1).copied().unwrap_or(ring[0]),
                has_prev: ring.len() > 1,
            });
        }
    }
    segs
}

/// Lexicographic (x, then y) order on points.
#[inline]
fn lex_less(p: DVec2, q: DVec2) -> bool {
    p.x < q.x || (p.x == q.x && p.y < q.y)
}

/// What two segments share, or `None`. Also says whether a point hit is an exact vertex.
fn intersect(s: &Seg, t: &Seg) -> Option<HitKind> {
    let (slo, shi, tlo, thi) = (s.lo(), s.hi(), t.lo(), t.hi());
    if slo.x > thi.x || tlo.x > shi.x || slo.y > thi.y || tlo.y > shi.y {
        return None;
    }
    let d1 = orient(t.a, t.b, s.a);
    let d2 = orient(t.a, t.b, s.b);
    if (d1 > 0.0 && d2 > 0.0) || (d1 < 0.0 && d2 < 0.0) {
        return None;
    }
    let d3 = orient(s.a, s.b, t.a);
    let d4 = orient(s.a, s.b, t.b);
    if (d3 > 0.0 && d4 > 0.0) || (d3 < 0.0 && d4 < 0.0) {
        return None;
    }
    if d1 == 0.0 && d2 == 0.0 && d3 == 0.0 && d4 == 0.0 {
        let order = |p: DVec2, q: DVec2| if lex_less(q, p) { (q, p) } else { (p, q) };
        let (s0, s1) = order(s.a, s.b);
        let (t0, t1) = order(t.a, t.b);
        let lo = if lex_less(s0, t0) { t0 } else { s0 };
        let hi = if lex_less(s1, t1) { s1 } else { t1 };
        return if lex_less(hi, lo) {
            None
        } else if lo == hi {
            Some(HitKind::Point(lo))
        } else {
            Some(HitKind::Overlap(lo, hi))
        };
    }
    // Not collinear and not separated: exactly one common point. Neither segment is a point
    // here (a point segment has d3 = d4 = 0 and, unless collinear, d1 = d2 != 0).
    let p = if d1 == 0.0 {
        s.a
    } else if d2 == 0.0 {
        s.b
    } else if d3 == 0.0 {
        t.a
    } else if d4 == 0.0 {
        t.b
    } else {
        // d1 and d2 have opposite signs, so the ratio is in (0, 1) and finite.
        let x = s.a + (s.b - s.a) * (d1 / (d1 - d2));
        x.clamp(slo.max(tlo), shi.min(thi))
    };
    Some(HitKind::Point(p))
}

/// Tests one pair and records the hit unless it is a repeat at a start vertex.
#[inline]
fn test_pair(s: &Seg, t: &Seg, out: &mut Vec<SegmentHit>) {
    let Some(kind) = intersect(s, t) else {
        return;
    };
    if let HitKind::Point(p) = kind {
        if (s.has_prev && p == s.a) || (t.has_prev && p == t.a) {
            return;
        }
    }
    out.push(SegmentHit {
        a_index: s.index,
        b_index: t.index,
        kind,
    });
}

fn sorted(mut hits: Vec<SegmentHit>) -> Vec<SegmentHit> {
    hits.sort_by_key(|h| (h.a_index, h.b_index));
    hits
}

/// Every intersection between polylines `a` and `b` (NaN-separated parts), by the grid
/// "sweep" of the module header. Errors name a bad vertex (`a[i][c]` or `b[i][c]`).
pub fn polyline_intersections(a: &[DVec2], b: &[DVec2]) -> Result<Vec<SegmentHit>, InputError> {
    let sa = polyline_segments("a", a)?;
    let sb = polyline_segments("b", b)?;
    Ok(grid_intersections(&sa, &sb))
}

/// The same as [`polyline_intersections`] by the O(nm) double loop.
pub fn polyline_intersections_brute(
    a: &[DVec2],
    b: &[DVec2],
) -> Result<Vec<SegmentHit>, InputError> {
    let sa = polyline_segments("a", a)?;
    let sb = polyline_segments("b", b)?;
    let mut out = Vec::new();
    for s in &sa {
        for t in &sb {
            test_pair(s, t, &mut out);
        }
    }
    Ok(sorted(out))
}

/// Every intersection between the boundaries of two polygons (all rings, closed). Segment
/// indices are indices into each polygon's [`Polygon::vertices`].
pub fn polygon_intersections(a: &Polygon, b: &Polygon) -> Vec<SegmentHit> {
    grid_intersections(&polygon_segments(a), &polygon_segments(b))
}

/// Largest number of grid cells per axis.
const MAX_CELLS_PER_AXIS: usize = 1 << 11;
/// Cell entries allowed per segment before the grid is coarsened.
const ENTRIES_PER_SEGMENT: usize = 8;

/// A monotone map from one coordinate to a cell index in `0..cells`.
#[derive(Clone, Copy)]
struct Axis {
    origin: f64,
    scale: f64,
    cells: usize,
}

impl Axis {
    fn new(lo: f64, hi: f64, cells: usize) -> Axis {
        let scale = cells as f64 / (hi - lo);
        if cells <= 1 || !(scale.is_finite() && scale > 0.0) {
            Axis {
                origin: lo,
                scale: 0.0,
                cells: 1,
            }
        } else {
            Axis {
                origin: lo,
                scale,
                cells,
            }
        }
    }

    #[inline]
    fn cell(&self, x: f64) -> usize {
        // Truncation is the floor for t >= 0, and `as` saturates: monotone.
        let t = (x - self.origin) * self.scale;
        if !(t > 0.0) {
            0
        } else {
            (t as usize).min(self.cells - 1)
        }
    }
}

/// Cell ranges `[x0, x1] x [y0, y1]` (inclusive) of a segment's bounding box.
#[derive(Clone, Copy)]
struct CellBox {
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
}

fn cell_box(s: &Seg, ax: Axis, ay: Axis) -> CellBox {
    let (lo, hi) = (s.lo(), s.hi());
    CellBox {
        x0: ax.cell(lo.x) as u32,
        x1: ax.cell(hi.x) as u32,
        y0: ay.cell(lo.y) as u32,
        y1: ay.cell(hi.y) as u32,
    }
}

fn entries(c: &CellBox) -> usize {
    (c.x1 - c.x0 + 1) as usize * (c.y1 - c.y0 + 1) as usize
}

/// Cell lists in compressed form: cell `c` holds `items[offsets[c]..offsets[c + 1]]`.
fn bucket(boxes: &[CellBox], nx: usize, cells: usize) -> (Vec<usize>, Vec<u32>) {
    let mut offsets = vec![0usize; cells + 1];
    for c in boxes {
        for y in c.y0..=c.y1 {
            for x in c.x0..=c.x1 {
                offsets[y as usize * nx + x as usize + 1] += 1;
            }
        }
    }
    for k in 0..cells {
        offsets[k + 1] += offsets[k];
    }
    let mut fill = offsets.clone();
    let mut items = vec![0u32; offsets[cells]];
    for (i, c) in boxes.iter().enumerate() {
        for y in c.y0..=c.y1 {
            for x in c.x0..=c.x1 {
                let k = y as usize * nx + x as usize;
                items[fill[k]] = i as u32;
                fill[k] += 1;
            }
        }
    }
    (offsets, items)
}

fn grid_intersections(sa: &[Seg], sb: &[Seg]) -> Vec<SegmentHit> {
    let bounds = |s: &[Seg]| {
        s.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), g| (lo.min(g.lo()), hi.max(g.hi())),
        )
    };
    let (alo, ahi) = bounds(sa);
    let (blo, bhi) = bounds(sb);
    let (lo, hi) = (alo.max(blo), ahi.min(bhi));
    if !(lo.x <= hi.x && lo.y <= hi.y) {
        return Vec::new();
    }
    // Only segments whose boxes meet the common box can meet a segment of the other set.
    let meets = |g: &&Seg| {
        let (glo, ghi) = (g.lo(), g.hi());
        glo.x <= hi.x && ghi.x >= lo.x && glo.y <= hi.y && ghi.y >= lo.y
    };
    let sa: Vec<Seg> = sa.iter().filter(meets).copied().collect();
    let sb: Vec<Seg> = sb.iter().filter(meets).copied().collect();
    let n = sa.len() + sb.len();
    if sa.is_empty() || sb.is_empty() || u32::try_from(n).is_err() {
        if u32::try_from(n).is_err() {
            // Beyond u32 indices: fall back to the double loop (never reached in practice).
            let mut out = Vec::new();
            for s in &sa {
                for t in &sb {
                    test_pair(s, t, &mut out);
                }
            }
            return sorted(out);
        }
        return Vec::new();
    }
    // Aim at about n square-ish cells over the common box.
    let (w, h) = (hi.x - lo.x, hi.y - lo.y);
    let (mut nx, mut ny) = if w > 0.0 && h > 0.0 {
        let nx = ((n as f64 * w / h).sqrt().ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
        (nx, (n.div_ceil(nx)).clamp(1, MAX_CELLS_PER_AXIS))
    } else if w > 0.0 {
        (n.clamp(1, MAX_CELLS_PER_AXIS), 1)
    } else {
        (1, n.clamp(1, MAX_CELLS_PER_AXIS))
    };
    let (ax, ay, boxes_a, boxes_b) = loop {
        let ax = Axis::new(lo.x, hi.x, nx);
        let ay = Axis::new(lo.y, hi.y, ny);
        let boxes_a: Vec<CellBox> = sa.iter().map(|s| cell_box(s, ax, ay)).collect();
        let boxes_b: Vec<CellBox> = sb.iter().map(|s| cell_box(s, ax, ay)).collect();
        let total: usize = boxes_a.iter().chain(&boxes_b).map(entries).sum();
        if (ax.cells == 1 && ay.cells == 1) || total <= ENTRIES_PER_SEGMENT * n {
            break (ax, ay, boxes_a, boxes_b);
        }
        nx = nx.div_ceil(2);
        ny = ny.div_ceil(2);
    };
    let (nx, cells) = (ax.cells, ax.cells * ay.cells);
    let (off_a, items_a) = bucket(&boxes_a, nx, cells);
    let (off_b, items_b) = bucket(&boxes_b, nx, cells);
    let mut out = Vec::new();
    for c in 0..cells {
        let (cx, cy) = ((c % nx) as u32, (c / nx) as u32);
        let list_b = &items_b[off_b[c]..off_b[c + 1]];
        if list_b.is_empty() {
            continue;
        }
        for &i in &items_a[off_a[c]..off_a[c + 1]] {
            let ba = boxes_a[i as usize];
            for &j in list_b {
                let bb = boxes_b[j as usize];
                // Test the pair only in the first cell both cover.
                if ba.x0.max(bb.x0) == cx && ba.y0.max(bb.y0) == cy {
                    test_pair(&sa[i as usize], &sb[j as usize], &mut out);
                }
            }
        }
    }
    sorted(out)
}
