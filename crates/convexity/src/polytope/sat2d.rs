//! Separating-axis test (SAT) for two convex polygons: the minimum-penetration axis and depth,
//! or a separating axis with its gap as the certificate.
//!
//! Source: Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996 (the theorem); Ericson,
//! *Real-Time Collision Detection*, 2005, §5.2.1 and §4.4; Gregorius, "The Separating Axis
//! Test between convex polyhedra", GDC 2013 (caching the last separating feature).
//!
//! Two convex polygons are disjoint iff one of their edge normals separates them. For a unit
//! axis `u` pointing from A toward B the signed separation is
//! `s(u) = min_{y∈B} u·y − max_{x∈A} u·x`; the answer is the largest `s` over the outward
//! normals of A's edges and the reversed outward normals of B's edges. `s > tol` is a
//! separating axis with gap `s`; otherwise the polygons touch or overlap and `−s` is the
//! penetration depth along the minimum-penetration axis, whose edge is the *reference edge*
//! for contact clipping. Degenerate polygons (a segment or a point: no area) also test their
//! edge directions and, for two points, the line between them, which keeps the test exact.
//!
//! The intersecting verdict carries a common point: for overlap (`s ≤ 0`) the vertex average of
//! B clipped by A's edge half-planes (Sutherland–Hodgman); for a positive gap within the
//! tolerance, the verdict is decided on the Euclidean distance (vertex–edge closest points,
//! exact in 2D), because the edge-normal gap can be smaller than the distance (by up to √2 for
//! facing corners): touching within the tolerance gives the closest points' midpoint as the
//! common point, otherwise the closest-point direction separates with gap `d`, which is then
//! the reported separation. This keeps SAT's verdict equal to GJK's in the tolerance band.
//!
//! Caching ([`SatCache`]): the edge that separated the pair last time is tried first; while it
//! still separates (the common case between frames), the query costs one axis, O(n + m).
//!
//! Complexity: O((n + m)²) for a full test (each axis projects both polygons; polygons are
//! small), O(n m) for the common point. Works in A's frame: B's vertices are moved once with
//! `pose_ab`. Preconditions: validated polygons and poses (their constructors check).
//! No failure modes beyond `Status::Degenerate` (two coincident points, no axis exists).

use crate::gjk;
use crate::gjk::minkowski::MinkowskiDifference;
use crate::math::pair_key::PairKey;
use crate::math::pose::Pose2;
use crate::shape::ConvexPolygon;
use crate::verdict::{CommonPoint, SeparatingAxis, Status, Verdict};
use glam::DVec2;

/// Which polygon an edge belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// Polygon A (the first argument).
    A,
    /// Polygon B (the second argument).
    B,
}

/// An edge (or, for degenerate polygons, an edge direction) that defines a tested axis:
/// `index` is the edge from vertex `index` to vertex `index + 1` of `body`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReferenceEdge {
    /// The polygon the edge belongs to.
    pub body: Body,
    /// The edge's index in that polygon (from vertex `index` to vertex `index + 1`).
    pub index: usize,
    /// The axis is the edge's direction, not its normal (degenerate polygons only).
    pub along_edge: bool,
}

/// The last separating edge of one pair, reused by the next query on the same pair.
///
/// It records the polygons' addresses and is ignored for any other pair (costing speed,
/// never correctness).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SatCache {
    edge: Option<ReferenceEdge>,
    owner: PairKey,
}

impl SatCache {
    /// An empty cache: the first query with it starts cold.
    pub fn new() -> Self {
        Self::default()
    }
    /// The cached edge, if any.
    pub fn edge(&self) -> Option<ReferenceEdge> {
        self.edge
    }
}

/// Result of [`sat`]. Vectors and points are in the world frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SatResult {
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<DVec2>,
    /// Signed separation along `axis`: the gap when positive, minus the penetration depth
    /// otherwise.
    pub separation: f64,
    /// Unit axis from A toward B: the separating axis, or the minimum-penetration axis.
    pub axis: DVec2,
    /// The edge that defines `axis` (`None` only for two points).
    pub reference: Option<ReferenceEdge>,
    /// `Converged` (every candidate axis tested), `CachedAxis` (the cached edge still
    /// separates; no other axis tested) or `Degenerate` (both polygons are the same single
    /// point: touching).
    pub status: Status,
    /// Iterations: the number of axes projected.
    pub iterations: u32,
    /// The touch tolerance (touching within it counts as intersecting): GJK's default,
    /// `1e-10 × (size_A + size_B) + 4ε × magnitude`.
    pub tolerance: f64,
}

impl SatResult {
    /// Penetration depth, `max(−separation, 0)`: 0 when separated (the signed quantity is
    /// [`SatResult::separation`]). One meaning across the crate: `sat3d` and `box_box` agree.
    pub fn depth(&self) -> f64 {
        (-self.separation).max(0.0)
    }
    /// The gap (0 when touching or overlapping).
    pub fn gap(&self) -> f64 {
        self.separation.max(0.0)
    }
}

/// `min_{y∈B} u·y − max_{x∈A} u·x` (both sets in the same frame).
fn separation(va: &[DVec2], vb: &[DVec2], u: DVec2) -> f64 {
    let max_a = va.iter().fold(f64::NEG_INFINITY, |m, x| m.max(u.dot(*x)));
    let min_b = vb.iter().fold(f64::INFINITY, |m, y| m.min(u.dot(*y)));
    min_b - max_a
}

fn twice_area(v: &[DVec2]) -> f64 {
    let n = v.len();
    (0..n).map(|i| v[i].perp_dot(v[(i + 1) % n])).sum()
}

/// The axis of a reference edge, from A toward B, in A's frame (`None` for a zero edge).
fn axis_of(edge: ReferenceEdge, va: &[DVec2], vb: &[DVec2]) -> Option<DVec2> {
    let v = match edge.body {
        Body::A => va,
        Body::B => vb,
    };
    let n = v.len();
    let p = *v.get(edge.index)?;
    let q = *v.get((edge.index + 1) % n)?;
    let e = (q - p).try_normalize()?;
    // Outward normal of a CCW edge: the edge direction turned clockwise.
    let outward = DVec2::new(e.y, -e.x);
    let u = match (edge.along_edge, edge.body) {
        (true, _) => e,
        (false, Body::A) => outward,
        (false, Body::B) => -outward,
    };
    Some(u)
}

/// Separating-axis test for two convex polygons. See the module docs.
///
/// Steps: the cached axis first (`cached_answer`), then every edge normal of both polygons
/// (`best_axis`), then the verdict from the best separation (`decide`).
pub fn sat(
    a: &ConvexPolygon,
    pose_a: &Pose2,
    b: &ConvexPolygon,
    pose_b: &Pose2,
    cache: Option<&mut SatCache>,
) -> SatResult {
    // GJK's touch tolerance, so that both methods call the same pairs touching.
    let tol = MinkowskiDifference::new(a, pose_a, b, pose_b)
        .tolerance(gjk::GjkOptions::default().rel_tolerance)
        .max(f64::MIN_POSITIVE);
    let pose_ab = pose_a.relative(pose_b);
    let va = a.vertices();
    let vb: Vec<DVec2> = b
        .vertices()
        .iter()
        .map(|p| pose_ab.transform_point(*p))
        .collect();
    let owner = PairKey::of(a, b);
    let world = |u: DVec2| pose_a.transform_vector(u);

    if let Some(c) = cache.as_deref() {
        if let Some(r) = cached_answer(c, owner, va, &vb, tol, pose_a) {
            return r;
        }
    }

    let (best, mut tested) = best_axis(va, &vb);
    // Two points (no edges): the line between them.
    let (s, u, reference) = match best {
        Some((s, u, e)) => (s, u, Some(e)),
        None => {
            let d =
                vb.first().copied().unwrap_or_default() - va.first().copied().unwrap_or_default();
            match d.try_normalize() {
                Some(u) => {
                    tested += 1;
                    (separation(va, &vb, u), u, None)
                }
                None => {
                    let p = pose_a.transform_point(va.first().copied().unwrap_or_default());
                    return SatResult {
                        verdict: Verdict::Intersecting(CommonPoint { point: p }),
                        separation: 0.0,
                        axis: world(DVec2::X),
                        reference: None,
                        status: Status::Degenerate,
                        iterations: 0,
                        tolerance: tol,
                    };
                }
            }
        }
    };
    if let Some(c) = cache {
        c.owner = owner;
        c.edge = if s > tol { reference } else { None };
    }
    let (verdict, s, u) = decide(va, &vb, s, u, tol, pose_a);
    SatResult {
        verdict,
        separation: s,
        axis: world(u),
        reference,
        status: Status::Converged,
        iterations: tested,
        tolerance: tol,
    }
}

/// The answer from the cached reference edge, when the cache belongs to this pair and its
/// axis still separates by more than `tol` (B's vertices `vb` in A's frame).
fn cached_answer(
    c: &SatCache,
    owner: PairKey,
    va: &[DVec2],
    vb: &[DVec2],
    tol: f64,
    pose_a: &Pose2,
) -> Option<SatResult> {
    if c.owner != owner {
        return None;
    }
    let edge = c.edge?;
    let u = axis_of(edge, va, vb)?;
    let s = separation(va, vb, u);
    (s > tol).then(|| SatResult {
        verdict: Verdict::Separated(SeparatingAxis {
            axis: pose_a.transform_vector(u),
            gap: s,
        }),
        separation: s,
        axis: pose_a.transform_vector(u),
        reference: Some(edge),
        status: Status::CachedAxis,
        iterations: 1,
        tolerance: tol,
    })
}

/// The edge axis of largest separation over both polygons (A's frame; a flat polygon also
/// offers its edges' directions, both signs), and the number of axes tested. `None` when
/// neither polygon has an edge.
fn best_axis(va: &[DVec2], vb: &[DVec2]) -> (Option<(f64, DVec2, ReferenceEdge)>, u32) {
    let mut best: Option<(f64, DVec2, ReferenceEdge)> = None;
    let mut tested = 0;
    for (body, v) in [(Body::A, va), (Body::B, vb)] {
        let flat = !(twice_area(v).abs() > 0.0);
        let n = v.len();
        for index in 0..n {
            let dirs: &[bool] = if flat { &[false, true] } else { &[false] };
            for &along_edge in dirs {
                let edge = ReferenceEdge {
                    body,
                    index,
                    along_edge,
                };
                let Some(u) = axis_of(edge, va, vb) else {
                    continue;
                };
                for u in [u, -u].into_iter().take(if along_edge { 2 } else { 1 }) {
                    tested += 1;
                    let s = separation(va, vb, u);
                    if best.is_none_or(|(bs, _, _)| s > bs) {
                        best = Some((s, u, edge));
                    }
                }
            }
        }
    }
    (best, tested)
}

/// The verdict from the best separation `s` along `u` (A's frame), with the separation and
/// axis reported: separated beyond `tol`; within it, decided on the Euclidean distance; at or
/// below zero, a common point by clipping.
fn decide(
    va: &[DVec2],
    vb: &[DVec2],
    s: f64,
    u: DVec2,
    tol: f64,
    pose_a: &Pose2,
) -> (Verdict<DVec2>, f64, DVec2) {
    let world = |u: DVec2| pose_a.transform_vector(u);
    if s > tol {
        (
            Verdict::Separated(SeparatingAxis {
                axis: world(u),
                gap: s,
            }),
            s,
            u,
        )
    } else if s > 0.0 {
        // Disjoint, but the best edge normal's gap is within the tolerance. The Euclidean
        // distance can exceed it (two corners facing diagonally: d = s √2), so decide on the
        // distance itself, as GJK does: touching within the tolerance, else separated along
        // the closest points with gap d.
        let (pa, pb) = closest_points(va, vb);
        let dvec = pb - pa;
        let d = dvec.length();
        match dvec.try_normalize() {
            Some(n) if d > tol => (
                Verdict::Separated(SeparatingAxis {
                    axis: world(n),
                    gap: d,
                }),
                d,
                n,
            ),
            _ => (
                Verdict::Intersecting(CommonPoint {
                    point: pose_a.transform_point((pa + pb) * 0.5),
                }),
                s,
                u,
            ),
        }
    } else {
        // Overlapping or touching exactly: B clipped by A (pushed out by a sliver of the
        // tolerance for the rounding of B's placement) is a piece of A ∩ B.
        match common_point(va, vb, 1e-3 * tol) {
            Some(p) => (
                Verdict::Intersecting(CommonPoint {
                    point: pose_a.transform_point(p),
                }),
                s,
                u,
            ),
            None => (Verdict::Undetermined, s, u),
        }
    }
}

/// The closest point of the segment `[p, q]` to `x`.
fn closest_on_segment(p: DVec2, q: DVec2, x: DVec2) -> DVec2 {
    let e = q - p;
    let ee = e.dot(e);
    if !(ee > 0.0) {
        return p;
    }
    p + e * ((x - p).dot(e) / ee).clamp(0.0, 1.0)
}

/// Closest points of two disjoint convex polygons (A's, B's): in 2D one of them is a vertex,
/// so the minimum over vertex–edge pairs of both is exact. O(n m).
fn closest_points(va: &[DVec2], vb: &[DVec2]) -> (DVec2, DVec2) {
    let mut best = (f64::INFINITY, DVec2::ZERO, DVec2::ZERO);
    let edges = |v: &[DVec2]| -> Vec<(DVec2, DVec2)> {
        let n = v.len();
        (0..n).map(|i| (v[i], v[(i + 1) % n])).collect()
    };
    for &(p, q) in &edges(vb) {
        for &x in va {
            let y = closest_on_segment(p, q, x);
            let d = (y - x).length_squared();
            if d < best.0 {
                best = (d, x, y);
            }
        }
    }
    for &(p, q) in &edges(va) {
        for &y in vb {
            let x = closest_on_segment(p, q, y);
            let d = (y - x).length_squared();
            if d < best.0 {
                best = (d, x, y);
            }
        }
    }
    (best.1, best.2)
}

/// Clips the convex polygon `subject` by the half-plane `n·x ≤ c` (Sutherland–Hodgman).
pub(crate) fn clip(subject: &[DVec2], n: DVec2, c: f64) -> Vec<DVec2> {
    let k = subject.len();
    let mut out = Vec::with_capacity(k + 1);
    for i in 0..k {
        let p = subject[i];
        let q = subject[(i + 1) % k];
        let dp = n.dot(p) - c;
        let dq = n.dot(q) - c;
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            let t = dp / (dp - dq);
            out.push(p + (q - p) * t);
        }
    }
    out
}

/// A point of B within `slack` of every edge half-plane of A (both in A's frame): the vertex
/// average of B clipped by A's half-planes pushed out by `slack`.
fn common_point(va: &[DVec2], vb: &[DVec2], slack: f64) -> Option<DVec2> {
    let mut poly = vb.to_vec();
    let n = va.len();
    let flat = !(twice_area(va).abs() > 0.0);
    for i in 0..n {
        let p = va[i];
        let Some(e) = (va[(i + 1) % n] - p).try_normalize() else {
            continue;
        };
        let outward = DVec2::new(e.y, -e.x);
        let normals: &[DVec2] = if flat {
            &[
                outward,
                DVec2::new(-outward.x, -outward.y),
                e,
                DVec2::new(-e.x, -e.y),
            ]
        } else {
            &[outward]
        };
        for &u in normals {
            let c = va.iter().fold(f64::NEG_INFINITY, |m, x| m.max(u.dot(*x))) + slack;
            poly = clip(&poly, u, c);
            if poly.is_empty() {
                return None;
            }
        }
    }
    if n == 1 {
        // A is a point: it is the common point when B reaches it.
        return Some(va[0]);
    }
    let sum = poly.iter().fold(DVec2::ZERO, |s, p| s + *p);
    Some(sum / poly.len() as f64)
}
