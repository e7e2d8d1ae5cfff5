//! Contact classification for two convex polygons in contact (typically slightly overlapping
//! after a time step), and their contact points.
//!
//! Counts, with exact predicates (`robust::orient2d`, Shewchuk 1997) on the vertices placed in
//! A's frame (A's vertices exact, B's rounded once by `pose_ab`); boundaries are closed:
//! * vertices of A in B, and of B in A (point in convex polygon: left of or on every edge);
//! * edges of A that meet B's boundary, and edges of B that meet A's boundary (closed segment
//!   intersection: the four orientations);
//! * the crossing points themselves (line intersection in f64).
//!
//! Classification, with i = A (the penetrating body in the usual setting) and j = B, from the
//! vertex counts `(vᵢ, vⱼ)` (the edge counts follow from them for convex polygons, see the
//! table below):
//!
//! | kind | vᵢ in j | edges of i hit | vⱼ in i | edges of j hit | contact points |
//! |---|---|---|---|---|---|
//! | vertex–edge | 1 | 2 | 0 | 1 | 1 |
//! | edge–edge | 1 | 2 | 1 | 2 | 2 |
//! | multiple vertex–edge | k ≥ 2 | 2 | 0 | 1 | k |
//! | multiple edge–edge | 1 | 2 | k ≥ 2 | 2 | 1 + k |
//!
//! (and the mirror rows with i and j exchanged, `(0, 1)` and `(0, k)`). Each row is verified on
//! constructed cases in `tests/contact2d.rs`. What those cases show about the lecture-notes
//! table:
//! * vertex–edge (1, 2, 0, 1 → 1) and edge–edge (1, 2, 1, 2 → 2) are right;
//! * multiple vertex–edge is (k, 2, 0, 1 → k): k sunk vertices, the two edges that leave j on
//!   either side of them, one edge of j crossed twice;
//! * multiple edge–edge is (1, 2, k, 2 → 1 + k): the table's "5 contact points" is right only
//!   for k = 4 (constructed: a wide wedge under a hexagon with four vertices inside it); with
//!   k = 2 there are 3. Its other columns are right;
//! * with closed sets a vertex exactly on the other polygon's corner counts as inside both
//!   ways, so a single touching vertex–vertex point has the edge–edge counts (1, 2, 1, 2) and
//!   two coincident contact points;
//! * the edge columns assume one boundary crossing run per polygon, which holds for convex
//!   polygons; crossing counts (the fifth count) are per edge pair, 2 in every table row.
//!
//! Two kinds the table lacks: `Crossing` (edges cross but no vertex is inside: a thin polygon
//! through another; counts (0, 2, 0, 2), the contact points are the 4 crossings) and
//! `Contained` (every vertex of one polygon inside the other; counts (n, 0, 0, 0)).
//!
//! Contact points: the penetrating vertices (those of A in B, then those of B in A), in the
//! world frame; for `Crossing`, the crossing points.
//!
//! Complexity: O(n m). Preconditions: validated polygons and poses. No failure modes.

use crate::math::pose::Pose2;
use crate::polytope::sat2d::Body;
use crate::shape::ConvexPolygon;
use glam::DVec2;

/// The kind of contact (see the module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactKind {
    /// No vertex inside and no edges meeting.
    Separated,
    /// One vertex of one polygon inside the other, crossing one of its edges: one contact
    /// point (counts (1, 2, 0, 1)).
    VertexEdge,
    /// One vertex of each inside the other (two edges overlapping): two contact points
    /// (counts (1, 2, 1, 2)).
    EdgeEdge,
    /// k ≥ 2 vertices of one polygon inside the other, all across one of its edges: k contact
    /// points (counts (k, 2, 0, 1)).
    MultipleVertexEdge,
    /// One vertex of one polygon and k ≥ 2 of the other inside each other: 1 + k contact
    /// points (counts (1, 2, k, 2)).
    MultipleEdgeEdge,
    /// Edges cross but no vertex of either polygon is inside the other.
    Crossing,
    /// One polygon lies entirely inside the other (`body` in [`ContactClass`] is the inner one).
    Contained,
}

/// The four counts of the classification table, plus the number of crossing points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ContactCounts {
    /// Vertices of A inside B (closed: on the boundary counts).
    pub vertices_a_in_b: usize,
    /// Edges of A that meet B's boundary.
    pub edges_a_hit: usize,
    /// Vertices of B inside A (closed: on the boundary counts).
    pub vertices_b_in_a: usize,
    /// Edges of B that meet A's boundary.
    pub edges_b_hit: usize,
    /// Edge pairs (one of A, one of B) that meet.
    pub crossings: usize,
}

/// Result of [`classify`]. Points are in the world frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactClass {
    /// The kind of contact (row of the module's table).
    pub kind: ContactKind,
    /// The body whose vertices penetrate (for `VertexEdge` and `MultipleVertexEdge`, the one
    /// with vertices inside; for `MultipleEdgeEdge`, the one with more vertices inside; for
    /// `Contained`, the inner one; A otherwise).
    pub body: Body,
    /// Contact points: the penetrating vertices (for `Crossing`, the crossing points).
    pub points: Vec<DVec2>,
    /// Where the edges meet (one point per meeting pair; collinear overlaps give the overlap's
    /// middle point).
    pub crossing_points: Vec<DVec2>,
    /// The counts the kind was read from.
    pub counts: ContactCounts,
}

fn c(p: DVec2) -> robust::Coord<f64> {
    robust::Coord { x: p.x, y: p.y }
}

fn orient(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    robust::orient2d(c(a), c(b), c(p))
}

/// Point in a CCW convex polygon, boundary included (exact). A segment or a point polygon
/// contains the points on it.
fn contains(poly: &[DVec2], p: DVec2) -> bool {
    let n = poly.len();
    match n {
        0 => false,
        1 => poly[0] == p,
        _ => {
            let flat = (0..n).all(|i| orient(poly[0], poly[1 % n], poly[i]) == 0.0);
            if flat {
                return (0..n).any(|i| on_segment(poly[i], poly[(i + 1) % n], p));
            }
            (0..n).all(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                a == b || orient(a, b, p) >= 0.0
            })
        }
    }
}

/// `p` on the closed segment `[a, b]` (exact).
fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    orient(a, b, p) == 0.0
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether the closed segments meet (exact), and a meeting point (f64).
fn segments_meet(p: DVec2, q: DVec2, r: DVec2, s: DVec2) -> Option<DVec2> {
    let d1 = orient(r, s, p);
    let d2 = orient(r, s, q);
    let d3 = orient(p, q, r);
    let d4 = orient(p, q, s);
    let proper = ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0));
    if proper {
        let t = d1 / (d1 - d2);
        return Some(p + (q - p) * t);
    }
    let mut on: Vec<DVec2> = Vec::new();
    if d1 == 0.0 && on_segment(r, s, p) {
        on.push(p);
    }
    if d2 == 0.0 && on_segment(r, s, q) {
        on.push(q);
    }
    if d3 == 0.0 && on_segment(p, q, r) {
        on.push(r);
    }
    if d4 == 0.0 && on_segment(p, q, s) {
        on.push(s);
    }
    if on.is_empty() {
        None
    } else {
        let sum = on.iter().fold(DVec2::ZERO, |a, b| a + *b);
        Some(sum / on.len() as f64)
    }
}

fn edges(v: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    let n = v.len();
    if n == 1 {
        return vec![(v[0], v[0])];
    }
    let k = if n == 2 { 1 } else { n };
    (0..k).map(|i| (v[i], v[(i + 1) % n])).collect()
}

/// Classifies the contact between two convex polygons. See the module docs.
pub fn classify(
    a: &ConvexPolygon,
    pose_a: &Pose2,
    b: &ConvexPolygon,
    pose_b: &Pose2,
) -> ContactClass {
    let pose_ab = pose_a.relative(pose_b);
    let va = a.vertices();
    let vb: Vec<DVec2> = b
        .vertices()
        .iter()
        .map(|p| pose_ab.transform_point(*p))
        .collect();
    let a_in_b: Vec<DVec2> = va.iter().copied().filter(|p| contains(&vb, *p)).collect();
    let b_in_a: Vec<DVec2> = vb.iter().copied().filter(|p| contains(va, *p)).collect();
    let ea = edges(va);
    let eb = edges(&vb);
    let mut hit_a = vec![false; ea.len()];
    let mut hit_b = vec![false; eb.len()];
    let mut crossing_points = Vec::new();
    for (i, &(p, q)) in ea.iter().enumerate() {
        for (j, &(r, s)) in eb.iter().enumerate() {
            if let Some(x) = segments_meet(p, q, r, s) {
                hit_a[i] = true;
                hit_b[j] = true;
                crossing_points.push(x);
            }
        }
    }
    let counts = ContactCounts {
        vertices_a_in_b: a_in_b.len(),
        edges_a_hit: hit_a.iter().filter(|h| **h).count(),
        vertices_b_in_a: b_in_a.len(),
        edges_b_hit: hit_b.iter().filter(|h| **h).count(),
        crossings: crossing_points.len(),
    };
    let (vi, vj) = (counts.vertices_a_in_b, counts.vertices_b_in_a);
    let (kind, body) = if vi == va.len() && vi > 0 {
        (ContactKind::Contained, Body::A)
    } else if vj == vb.len() && vj > 0 {
        (ContactKind::Contained, Body::B)
    } else {
        match (vi, vj) {
            (0, 0) if counts.crossings > 0 => (ContactKind::Crossing, Body::A),
            (0, 0) => (ContactKind::Separated, Body::A),
            (1, 0) => (ContactKind::VertexEdge, Body::A),
            (0, 1) => (ContactKind::VertexEdge, Body::B),
            (1, 1) => (ContactKind::EdgeEdge, Body::A),
            (_, 0) => (ContactKind::MultipleVertexEdge, Body::A),
            (0, _) => (ContactKind::MultipleVertexEdge, Body::B),
            (i, j) if i >= j => (ContactKind::MultipleEdgeEdge, Body::A),
            _ => (ContactKind::MultipleEdgeEdge, Body::B),
        }
    };
    let local_points: Vec<DVec2> = if kind == ContactKind::Crossing {
        crossing_points.clone()
    } else {
        a_in_b.iter().chain(b_in_a.iter()).copied().collect()
    };
    ContactClass {
        kind,
        body,
        points: local_points
            .iter()
            .map(|p| pose_a.transform_point(*p))
            .collect(),
        crossing_points: crossing_points
            .iter()
            .map(|p| pose_a.transform_point(*p))
            .collect(),
        counts,
    }
}
