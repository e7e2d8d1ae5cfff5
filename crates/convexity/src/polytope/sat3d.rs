//! Separating-axis test (SAT) for convex polyhedra, with Gauss-map pruning of edge pairs, the
//! minimum-penetration axis and depth, and contact manifolds by face clipping.
//!
//! What it computes: [`sat`] decides whether two convex polyhedra (anything implementing
//! [`Faceted`]: face planes, face polygons, edges with their two faces) intersect. Separated:
//! a separating axis with a certified gap. Overlapping: the minimum-penetration axis, the depth
//! (`−separation`) and the features realising it (a face of A, a face of B, or an edge pair),
//! with a common point as certificate. [`polyhedron_manifold`] adds the contact points (see
//! [`crate::polytope::manifold`]). Box pairs have the specialised [`crate::polytope::box_box`].
//!
//! Source: the separating axis theorem for polytopes (Gottschalk, Lin & Manocha 1996; Ericson,
//! *Real-Time Collision Detection* §5.2.1); the Gauss-map pruning of edge pairs and the
//! Minkowski-face test of D. Gregorius, "The Separating Axis Test between Convex Polyhedra",
//! GDC 2013.
//!
//! Why these axes suffice, and why the minimum is the depth. `A − B` is a polytope whose facets
//! have normals that are (i) face normals of A, (ii) negated face normals of B, or (iii) cross
//! products `e_A × e_B` of an edge of A and an edge of B whose arcs on the Gauss map intersect
//! (the Gauss map of `A − B` is the overlay of A's and of `−B`'s; its vertices are A's face
//! normals, `−B`'s face normals and the crossings of an arc of A with an arc of `−B`). Along a
//! unit axis `n` the signed separation is `s(n) = min_B n·y − max_A n·x = −h_{A−B}(n)`. The pair
//! is disjoint iff some `s(n) > 0`, and that happens on a facet normal of `A − B` if anywhere;
//! when they overlap, the depth is the distance from the origin to the boundary of `A − B`,
//! `min_n h_{A−B}(n)`, attained on a facet normal: `depth = −max over the candidates of s(n)`.
//!
//! Gauss-map pruning: an edge of A maps to the arc between its two face normals `(n1, n2)`, an
//! edge of B to the arc `(−m1, −m2)` on the map of `−B`. Only pairs whose arcs cross produce a
//! facet of `A − B`; the crossing test is three signs of dot products with `n2 × n1` and
//! `m2 × m1` (precomputed once per edge), so the cross product, normalisation and projection
//! are only paid for the O(E_A + E_B) crossing pairs instead of all E_A·E_B. For a crossing pair
//! the supports are known (the two edges themselves), so the separation along `L = e_A × e_B`
//! (oriented into A's normal cone: `L·(n1 + n2) > 0`) is `L·(w0 − u0)` with `u0` on A's edge and
//! `w0` on B's: O(1) per pair. Near-parallel pairs (`|e_A × e_B| < 1e-8 |e_A||e_B|`) are skipped
//! before normalising (see [`crate::polytope::box_box`] for the error bound, `≈ 1e-8 × size`).
//!
//! Ties and early exit: as in [`crate::polytope::box_box`]: A's faces, then B's (kept unless better by
//! more than the touch tolerance), then edge pairs (likewise); the test stops at the first axis
//! whose separation exceeds the touch tolerance (GJK's default, `1e-10 × (size_A + size_B) + 4ε
//! × magnitude`). Separations within the tolerance are touching: intersecting.
//!
//! Common point for intersecting pairs: the midpoint of a manifold contact pair (or either
//! point), accepted when it satisfies every face inequality of both shapes within a quarter of
//! the tolerance; otherwise [`crate::gjk::intersects`] supplies it.
//!
//! Pruning: most axes cannot win, and a bound proves it without a support call. With a centre
//! `c` and radii `r_in ≤ r_out` of each solid ([`PruneData`], cached by
//! [`crate::hull::ConvexPolyhedron`]), the separation along A's face `f` lies between
//! `φ_f − r_out_B` and `φ_f − r_in_B`, `φ_f = n_f·c_B − d_f` (and likewise for B's faces); an
//! edge's axes are bounded by the largest value of `L·(c_B − p0)` on its arc, whose end values
//! are the two faces' `φ`. A face or edge is skipped only when its upper bound (plus the touch
//! tolerance as slack) shows that the running search would not take it (no better than the
//! best so far by the margin it needs), or, for A's faces, that it is below a lower bound on
//! the best face and not separating: the answer is the one the unpruned order gives. Only the
//! edges of *warm* faces are walked (see `warm_edges` for why cold-cold edges cannot win).
//!
//! Complexity: O(F_A + F_B) bound evaluations, plus support calls (hill climbing from the
//! previous answer on [`crate::hull::ConvexPolyhedron`]) for the faces that survive. Edge pairs:
//! when B exposes its vertex adjacency ([`Faceted::adjacent`]) the crossing pairs of the
//! surviving edges of A are found by walking each arc across the Gauss map of `−B`
//! (`edge_walk`, angles compared as pseudo-angles, no trigonometry): O(Σ (1 + crossings) ·
//! degree), about 2 steps per arc; otherwise (and in [`sat_full_scan`], the unpruned test
//! oracle) by the O(E_A·E_B) scan of sign tests. Measured on the overlapping hull128 pairs
//! (callgrind, instructions per query, `sat_polyhedra` bench): 116 k for SAT + manifold against
//! 122 k for parry3d-f64's `contact` (GJK + EPA); before the pruning 330 k with the walk, and
//! the full scan about 1.2 ms per query. Timings: `bench-results/polyhedra.md`.
//! Lower-dimensional shapes take the unpruned axis set ([`low_dim_axes`]):
//! O((E_A·E_B + extra axes) · V) support work, for small shapes.
//! Manifold: O(F) to find the incident face and O(k·m) clipping.
//! Buffers live in a [`SatContext`] that can be reused to avoid allocation.
//!
//! Preconditions: the polyhedra are convex with consistent topology (each edge borders exactly
//! two faces, face polygons counter-clockwise from outside, planes with unit outward normals),
//! as produced by a hull construction. Failure modes: a topology that violates this can only
//! produce a poor axis (the certificate check would then fail), never a panic: indices are
//! checked and bad ones skipped. Lower-dimensional polytopes (a two-sided polygon, a segment,
//! a point: [`crate::hull::ConvexPolyhedron::from_points_any`]) are valid inputs; their common
//! point comes from GJK.

use crate::gjk;
use crate::gjk::minkowski::MinkowskiDifference;
pub use crate::hull::PruneData;
use crate::math::pose::Pose3;
use crate::polytope::manifold::{
    clip_to_reference, face_contacts, segment_closest_points, ContactPoint, Feature, Manifold,
};
use crate::shape::SupportMap;
use crate::verdict::Status;
use crate::verdict::{CommonPoint, SeparatingAxis, Verdict};
use glam::DVec3;

/// Edge pairs with `|e_A × e_B| < EDGE_PARALLEL · |e_A| |e_B|` are skipped.
pub use crate::polytope::box_box::EDGE_PARALLEL;

/// The answer of a separating-axis test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatResult {
    /// `Converged`, except when the GJK fallback for the common point did not converge.
    pub status: Status,
    /// Separated (axis, gap) or intersecting (common point).
    pub verdict: Verdict<DVec3>,
    /// Unit axis from A toward B (world frame): the separating axis, or the
    /// minimum-penetration axis.
    pub axis: DVec3,
    /// Signed separation along `axis`: positive, a certified gap (a lower bound on the distance,
    /// the first axis that exceeded the tolerance, not necessarily the largest); otherwise
    /// `−depth`, the maximum over all candidate axes (the penetration depth for polytopes).
    pub separation: f64,
    /// The features of the axis: face of A, face of B, or an edge of each.
    pub feature: Feature,
    /// The touch tolerance used.
    pub tolerance: f64,
    /// How many axes were evaluated (after pruning).
    pub iterations: u32,
}

impl SatResult {
    /// Penetration depth, `max(−separation, 0)`: 0 when separated (the signed quantity is
    /// [`SatResult::separation`]), as in [`crate::polytope::sat2d::SatResult::depth`].
    pub fn depth(&self) -> f64 {
        (-self.separation).max(0.0)
    }
    /// The gap, `max(separation, 0)`: 0 when touching or overlapping.
    pub fn gap(&self) -> f64 {
        self.separation.max(0.0)
    }
    /// `Some(true)` when the verdict proves the shapes intersect (closed sets: touching counts),
    /// `Some(false)` when it proves them separated, `None` when undetermined.
    pub fn intersecting(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// What the SAT needs of a convex polyhedron, in its local frame.
pub trait Faceted {
    /// Vertex positions.
    fn vertex(&self, v: usize) -> Option<DVec3>;
    /// Number of vertices.
    fn num_vertices(&self) -> usize;
    /// Number of faces (0 for a segment or a point).
    fn num_faces(&self) -> usize;
    /// Unit outward normal `n` and offset `d` of face `f`: the face lies on `n·x = d`, the
    /// polyhedron in `n·x ≤ d`.
    fn face_plane(&self, f: usize) -> (DVec3, f64);
    /// Appends the vertices of face `f`, counter-clockwise seen from outside.
    fn face_polygon(&self, f: usize, out: &mut Vec<DVec3>);
    /// Number of undirected edges.
    fn num_edges(&self) -> usize;
    /// Endpoints of edge `e` (vertex indices).
    fn edge(&self, e: usize) -> (usize, usize);
    /// The two faces bordering edge `e`.
    fn edge_faces(&self, e: usize) -> (usize, usize);
    /// Index of a vertex maximising `dir·x`; `hint` is a previous answer (may be ignored).
    fn support_vertex(&self, dir: DVec3, hint: usize) -> usize;
    /// 3 for a solid; 2 for a two-sided polygon (faces `n` and `−n`), 1 for a segment (one
    /// edge, no faces), 0 for a point. Lower-dimensional shapes take the complete axis set of
    /// [`low_dim_axes`] instead of the Gauss-map pruning.
    fn dimension(&self) -> usize {
        3
    }
    /// Appends `(neighbour, edge)` for every edge at vertex `v` and returns true; the default
    /// (no adjacency) returns false and the edge pairs are scanned instead of walked.
    fn adjacent(&self, _v: usize, _out: &mut Vec<(usize, usize)>) -> bool {
        false
    }
    /// Appends the edges bounding face `f` and returns true; the default (unknown) returns
    /// false and every edge is examined instead.
    fn face_edges(&self, _f: usize, _out: &mut Vec<usize>) -> bool {
        false
    }
    /// The pruning constants ([`prune_data_of`], computed per call by default; shapes that
    /// cache them return the cached value).
    fn prune_data(&self) -> Option<PruneData> {
        prune_data_of(self)
    }
}

/// Reusable buffers for [`sat_with`] and [`polyhedron_manifold_with`].
#[derive(Clone, Debug, Default)]
pub struct SatContext {
    /// Per edge of A: endpoints, `n2 × n1`, `n1 + n2`.
    a_edges: Vec<EdgeData>,
    /// Per edge of B (A's frame, normals negated for `−B`).
    b_edges: Vec<EdgeData>,
    /// Per face of A: B's vertex minimising `n·y` (the walk's start on that face normal).
    a_face_support: Vec<usize>,
    /// Neighbour buffer for the walk.
    nbrs: Vec<(usize, usize)>,
    /// The pruning bounds of the current pair (`None` in the oracle scan).
    prune: Option<Prune>,
    /// Per face of A with pruning: `n·c_B − d`.
    a_face_phi: Vec<f64>,
    /// The edges of A the walk examines.
    edge_list: Vec<usize>,
    poly_ref: Vec<DVec3>,
    poly_inc: Vec<DVec3>,
    clip_a: Vec<DVec3>,
    clip_b: Vec<DVec3>,
}

impl SatContext {
    /// Empty buffers; they grow on first use and are reused by later queries.
    pub fn new() -> Self {
        Self::default()
    }
}

#[derive(Clone, Copy, Debug)]
struct EdgeData {
    p0: DVec3,
    p1: DVec3,
    /// First and second face normal on the Gauss map (for B: negated).
    n1: DVec3,
    n2: DVec3,
    /// `n2 × n1`.
    nx: DVec3,
    valid: bool,
}

/// Minkowski-face test (Gregorius 2013): do the arcs `a→b` and `c→d` cross? `bxa = b × a`,
/// `dxc = d × c`. The arcs cross iff `c`, `d` lie on opposite sides of the plane of `a, b`,
/// `a`, `b` on opposite sides of the plane of `c, d`, and the crossing is on the same
/// hemisphere (not the antipodal one): `(c·bxa)(b·dxc) > 0`.
#[inline]
fn arcs_cross(a: DVec3, b: DVec3, bxa: DVec3, c: DVec3, d: DVec3, dxc: DVec3) -> bool {
    // Most pairs fail the first test (two dot products), so it is evaluated alone first.
    let cba = c.dot(bxa);
    let dba = d.dot(bxa);
    if !(cba * dba < 0.0) {
        return false;
    }
    let adc = a.dot(dxc);
    let bdc = b.dot(dxc);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

/// The best axis, A's frame.
#[derive(Clone, Copy, Debug)]
struct Best {
    n: DVec3,
    sep: f64,
    feature: Feature,
}

/// The pruning constants of any [`Faceted`] solid ([`PruneData::from_parts`] over its
/// vertices, face planes and edges), O(V + F + E); `None` below three dimensions.
pub fn prune_data_of<P: Faceted + ?Sized>(p: &P) -> Option<PruneData> {
    if p.dimension() < 3 {
        return None;
    }
    // A vertex index the shape cannot resolve means a topology the bounds cannot trust.
    if !(0..p.num_vertices()).all(|v| p.vertex(v).is_some()) {
        return None;
    }
    PruneData::from_parts(
        (0..p.num_vertices()).filter_map(|v| p.vertex(v)),
        (0..p.num_faces()).map(|f| p.face_plane(f)),
        (0..p.num_edges()).map(|e| {
            let (f1, f2) = p.edge_faces(e);
            (p.face_plane(f1).0, p.face_plane(f2).0)
        }),
    )
}

/// The pruning bounds of a pair of solids (not in the oracle scan, where every axis is tested).
#[derive(Clone, Copy, Debug)]
struct Prune {
    /// A's constants (A's frame is its own).
    a: PruneData,
    /// B's constants with the centre moved into A's frame.
    b: PruneData,
    /// Added to every upper bound: the touch tolerance covers rounding in the bounds and the
    /// hulls' thick planes.
    slack: f64,
}

impl Prune {
    fn new<A, B>(pair: &Pair<'_, A, B>) -> Option<Prune>
    where
        A: Faceted + ?Sized,
        B: Faceted + ?Sized,
    {
        if pair.scan || pair.a.dimension() < 3 || pair.b.dimension() < 3 {
            return None;
        }
        let b = pair.b.prune_data()?;
        Some(Prune {
            a: pair.a.prune_data()?,
            b: PruneData {
                centre: pair.rot * b.centre + pair.t,
                ..b
            },
            slack: pair.tol,
        })
    }

    /// Upper bound on the separation along the axes of A's edge `ea`: every axis `L` on its
    /// arc has `max_A L·x = L·p0`, so `s(L) ≤ L·(c_B − p0) − r_in_B`, and the largest `L·v` on
    /// the arc from `n1` to `n2` is `|v|`'s projection when `v` projects inside the arc (bounded
    /// here by `|v|`), otherwise the larger end value. `v` projects inside iff
    /// `(n1 × v)·(n1 × n2) = n2·v − cosΘ n1·v ≥ 0` and `(v × n2)·(n1 × n2) = n1·v − cosΘ n2·v ≥ 0`.
    #[inline]
    fn edge_bound(&self, ea: &EdgeData) -> f64 {
        let v = self.b.centre - ea.p0;
        let (c1, c2, cos) = (ea.n1.dot(v), ea.n2.dot(v), ea.n1.dot(ea.n2));
        let inside = c2 - cos * c1 >= 0.0 && c1 - cos * c2 >= 0.0;
        // A nearly antipodal pair of normals makes the sector test fragile: no pruning there.
        let reach = if inside || cos < -0.99 {
            v.length()
        } else {
            c1.max(c2)
        };
        reach - self.b.r_in + self.slack
    }
}

fn edge_data<P: Faceted + ?Sized>(
    p: &P,
    e: usize,
    rot: &glam::DMat3,
    t: DVec3,
    neg: bool,
) -> EdgeData {
    let (v0, v1) = p.edge(e);
    let (f1, f2) = p.edge_faces(e);
    let nf = p.num_faces();
    let (Some(a), Some(b)) = (p.vertex(v0), p.vertex(v1)) else {
        return EdgeData {
            p0: DVec3::ZERO,
            p1: DVec3::ZERO,
            n1: DVec3::ZERO,
            n2: DVec3::ZERO,
            nx: DVec3::ZERO,
            valid: false,
        };
    };
    let valid = f1 < nf && f2 < nf;
    let s = if neg { -1.0 } else { 1.0 };
    let (n1, n2) = if valid {
        (*rot * p.face_plane(f1).0 * s, *rot * p.face_plane(f2).0 * s)
    } else {
        (DVec3::ZERO, DVec3::ZERO)
    };
    EdgeData {
        p0: *rot * a + t,
        p1: *rot * b + t,
        n1,
        n2,
        nx: n2.cross(n1),
        valid,
    }
}

/// A box as a polyhedron: vertex `v` has coordinate `k` equal to `+h_k` when bit `k` of `v` is
/// set; face `2k` has normal `+e_k`, face `2k + 1` normal `−e_k`; edges `4k..4k + 4` are parallel
/// to `e_k`.
impl Faceted for crate::shape::Cuboid<DVec3> {
    fn vertex(&self, v: usize) -> Option<DVec3> {
        if v >= 8 {
            return None;
        }
        let h = self.half_extents();
        let s = |k: usize| if v & (1 << k) != 0 { 1.0 } else { -1.0 };
        Some(DVec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z))
    }
    fn num_vertices(&self) -> usize {
        8
    }
    fn num_faces(&self) -> usize {
        6
    }
    fn face_plane(&self, f: usize) -> (DVec3, f64) {
        let k = (f / 2).min(2);
        let mut n = DVec3::ZERO;
        n[k] = if f.is_multiple_of(2) { 1.0 } else { -1.0 };
        (n, self.half_extents()[k])
    }
    fn face_polygon(&self, f: usize, out: &mut Vec<DVec3>) {
        let k = (f / 2).min(2);
        let pos = f.is_multiple_of(2);
        let (j, l) = ((k + 1) % 3, (k + 2) % 3);
        // (e_j, e_l, e_k) is right-handed, so (±1, ±1) in (j, l) counter-clockwise about +e_k;
        // reversed for −e_k.
        let mut corners = [(1, 1), (0, 1), (0, 0), (1, 0)];
        if !pos {
            corners.reverse();
        }
        for (sj, sl) in corners {
            let v = (usize::from(pos) << k) | (sj << j) | (sl << l);
            if let Some(p) = self.vertex(v) {
                out.push(p);
            }
        }
    }
    fn num_edges(&self) -> usize {
        12
    }
    fn edge(&self, e: usize) -> (usize, usize) {
        let k = (e / 4).min(2);
        let (j, l) = ((k + 1) % 3, (k + 2) % 3);
        let base = ((e & 1) << j) | (((e >> 1) & 1) << l);
        (base, base | (1 << k))
    }
    fn edge_faces(&self, e: usize) -> (usize, usize) {
        let k = (e / 4).min(2);
        let (j, l) = ((k + 1) % 3, (k + 2) % 3);
        let fj = 2 * j + usize::from(e & 1 == 0);
        let fl = 2 * l + usize::from((e >> 1) & 1 == 0);
        (fj, fl)
    }
    fn support_vertex(&self, dir: DVec3, _hint: usize) -> usize {
        usize::from(dir.x > 0.0) | (usize::from(dir.y > 0.0) << 1) | (usize::from(dir.z > 0.0) << 2)
    }
}

/// The hull's half-edge mesh: faces are its (merged, convex) polygons, edges its undirected
/// edges (`edge_faces` from the half-edge and its twin), supports by linear scan or hill
/// climbing from the previous face's answer.
impl Faceted for crate::hull::ConvexPolyhedron {
    #[inline]
    fn vertex(&self, v: usize) -> Option<DVec3> {
        self.vertices().get(v).copied()
    }
    fn num_vertices(&self) -> usize {
        crate::hull::ConvexPolyhedron::num_vertices(self)
    }
    fn num_faces(&self) -> usize {
        crate::hull::ConvexPolyhedron::num_faces(self)
    }
    #[inline]
    fn face_plane(&self, f: usize) -> (DVec3, f64) {
        crate::hull::ConvexPolyhedron::face_plane(self, f)
    }
    fn face_polygon(&self, f: usize, out: &mut Vec<DVec3>) {
        out.extend(
            self.face_vertices(f)
                .filter_map(|v| self.vertices().get(v).copied()),
        );
    }
    fn num_edges(&self) -> usize {
        crate::hull::ConvexPolyhedron::num_edges(self)
    }
    #[inline]
    fn edge(&self, e: usize) -> (usize, usize) {
        let h = self.half_edge(self.edge_half_edge(e));
        (h.origin, self.half_edge(h.next).origin)
    }
    #[inline]
    fn edge_faces(&self, e: usize) -> (usize, usize) {
        crate::hull::ConvexPolyhedron::edge_faces(self, e)
    }
    #[inline]
    fn support_vertex(&self, dir: DVec3, hint: usize) -> usize {
        self.support_index(dir, Some(hint))
    }
    fn dimension(&self) -> usize {
        crate::hull::ConvexPolyhedron::dimension(self)
    }
    fn adjacent(&self, v: usize, out: &mut Vec<(usize, usize)>) -> bool {
        let (nbrs, edges) = self.vertex_neighbor_edges(v);
        out.extend(nbrs.iter().copied().zip(edges.iter().copied()));
        true
    }
    fn face_edges(&self, f: usize, out: &mut Vec<usize>) -> bool {
        out.extend(self.face_half_edges(f).map(|h| self.half_edge_edge(h)));
        true
    }
    fn prune_data(&self) -> Option<PruneData> {
        self.cached_prune_data()
    }
}

/// Frame data for a pair.
struct Pair<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    rot: glam::DMat3,
    t: DVec3,
    tol: f64,
    /// Test the edge pairs by the full O(E_A·E_B) scan (the oracle) instead of the walk.
    scan: bool,
}

impl<A: Faceted + ?Sized, B: Faceted + ?Sized> Pair<'_, A, B> {
    #[inline]
    fn b_point(&self, v: usize) -> Option<DVec3> {
        self.b.vertex(v).map(|p| self.rot * p + self.t)
    }
}

/// The running best axis: the tie rule (A's faces first; later axes only when better by more
/// than the tolerance) and the early exit on a separating axis.
struct Search {
    best: Best,
    tested: u32,
}

impl Search {
    fn new() -> Self {
        Search {
            best: Best {
                n: DVec3::X,
                sep: f64::NEG_INFINITY,
                feature: Feature::FaceA(0),
            },
            tested: 0,
        }
    }

    /// Offers axis `n` with separation `sep`; `margin` is 0 for A's faces and the tolerance
    /// otherwise. True when the axis separates (the search stops).
    #[inline]
    fn offer(&mut self, n: DVec3, sep: f64, feature: Feature, margin: f64, tol: f64) -> bool {
        self.tested += 1;
        if sep > self.best.sep + margin {
            self.best = Best { n, sep, feature };
            return sep > tol;
        }
        false
    }
}

/// SAT in A's frame; fills the context's edge data. Returns the best axis and the count.
fn sat_axes<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext) -> (Best, u32)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let mut s = Search::new();
    if !face_axes(pair, ctx, &mut s) {
        if pair.a.dimension() < 3 || pair.b.dimension() < 3 {
            low_dim_search(pair, ctx, &mut s);
        } else if pair.scan || !pair.b.adjacent(0, &mut ctx.nbrs) {
            edge_axes(pair, ctx, &mut s);
        } else {
            edge_walk(pair, ctx, &mut s);
        }
    }
    (s.best, s.tested)
}

/// Face normals of A (`s = min_B n·y − d`), then of B (axis `−m`, `s = min_A m·x − e`). True
/// when an axis separates.
///
/// Pruning (with [`Prune`]) skips the support call of a face only when the skip cannot change
/// the result: when its upper bound is no better than the running best plus the margin that
/// axis needs to be taken (so it would not have been taken), or, for A's faces, when the bound
/// is below `T = max_f (n_f·c_B − r_out_B − d_f)`, a lower bound on the best face of A, and
/// not above the tolerance (such a face is neither the first maximum nor a separating axis).
fn face_axes<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext, s: &mut Search) -> bool
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let (a, b, tol) = (pair.a, pair.b, pair.tol);
    let prune = Prune::new(pair);
    ctx.prune = prune;
    // φ_f = n_f·c_B − d_f, the separation of B's centre from face f.
    ctx.a_face_phi.clear();
    let mut floor = f64::NEG_INFINITY;
    if let Some(p) = prune {
        for f in 0..a.num_faces() {
            let (n, d) = a.face_plane(f);
            let phi = n.dot(p.b.centre) - d;
            ctx.a_face_phi.push(phi);
            floor = floor.max(phi - p.b.r_out - p.slack);
        }
    }
    let mut hint = 0;
    ctx.a_face_support.clear();
    for f in 0..a.num_faces() {
        if let (Some(p), Some(&phi)) = (prune, ctx.a_face_phi.get(f)) {
            let upper = phi - p.b.r_in + p.slack;
            if upper <= s.best.sep || (upper < floor && upper <= tol) {
                ctx.a_face_support.push(usize::MAX);
                continue;
            }
        }
        let (n, d) = a.face_plane(f);
        hint = b.support_vertex(pair.rot.transpose() * -n, hint);
        ctx.a_face_support.push(hint);
        let Some(y) = pair.b_point(hint) else {
            continue;
        };
        if s.offer(n, n.dot(y) - d, Feature::FaceA(f), 0.0, tol) {
            return true;
        }
    }
    // The bound is taken in B's frame, where `m·c_A − e` has the same value: only the planes
    // that survive it are moved to A's frame.
    let a_centre_in_b = prune.map(|p| pair.rot.transpose() * (p.a.centre - pair.t));
    let mut hint = 0;
    for g in 0..b.num_faces() {
        let (m_local, e_local) = b.face_plane(g);
        if let (Some(p), Some(c)) = (prune, a_centre_in_b) {
            if m_local.dot(c) - e_local - p.a.r_in + p.slack <= s.best.sep + tol {
                continue;
            }
        }
        let m = pair.rot * m_local;
        let e = e_local + m.dot(pair.t);
        hint = a.support_vertex(-m, hint);
        let Some(x) = a.vertex(hint) else {
            continue;
        };
        if s.offer(-m, m.dot(x) - e, Feature::FaceB(g), tol, tol) {
            return true;
        }
    }
    false
}

/// Fills the context's per-edge data of both shapes (one entry per edge, in edge order).
fn fill_edges<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    ctx.a_edges.clear();
    for e in 0..pair.a.num_edges() {
        ctx.a_edges.push(edge_data(
            pair.a,
            e,
            &glam::DMat3::IDENTITY,
            DVec3::ZERO,
            false,
        ));
    }
    ctx.b_edges.clear();
    for e in 0..pair.b.num_edges() {
        ctx.b_edges
            .push(edge_data(pair.b, e, &pair.rot, pair.t, true));
    }
}

/// Edge pairs whose Gauss-map arcs cross (the full O(E_A·E_B) scan of the pair list).
fn edge_axes<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext, s: &mut Search)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    fill_edges(pair, ctx);
    for (ia, ea) in ctx.a_edges.iter().enumerate() {
        if !ea.valid {
            continue;
        }
        for (ib, eb) in ctx.b_edges.iter().enumerate() {
            if !eb.valid || !arcs_cross(ea.n1, ea.n2, ea.nx, eb.n1, eb.n2, eb.nx) {
                continue;
            }
            if let Some((l, sep)) = crossing_axis(ea, eb) {
                let feature = Feature::Edges {
                    edge_a: ia,
                    edge_b: ib,
                };
                if s.offer(l, sep, feature, pair.tol, pair.tol) {
                    return;
                }
            }
        }
    }
}

/// Edge pairs whose Gauss-map arcs cross, found by walking each arc of A across the Gauss map
/// of `−B` (an overlay walk): the region of B's vertex `w` is the set of directions `d` in which
/// `w` minimises `d·y`, and its boundary with a neighbour `w'` is the arc of edge `ww'`. Along
/// A's arc `d(θ) = cos θ n1 + sin θ u` (from `n1` toward `n2`, `θ ∈ [0, Θ]`), the walk leaves
/// `w` where `g(θ) = d(θ)·(w' − w)` first turns negative after the current angle; each
/// exit is one crossing pair, tested as in the scan. The start is B's support vertex on A's
/// face normal `n1`, already found by the face stage.
///
/// Cost: O(Σ (1 + crossings of the arc) · degree) over A's edges, O(E_A + E_B) on typical hulls,
/// instead of the scan's E_A·E_B sign tests. Each arc's walk is capped at V_B steps.
fn edge_walk<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext, s: &mut Search)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let (a, b) = (pair.a, pair.b);
    let (nv, ne_b) = (b.num_vertices(), b.num_edges());
    let mut nbrs = std::mem::take(&mut ctx.nbrs);
    let mut edges = std::mem::take(&mut ctx.edge_list);
    let all = !warm_edges(pair, ctx, s.best.sep, &mut edges);
    let mut hint = 0;
    for k in 0..if all { a.num_edges() } else { edges.len() } {
        let ia = if all { k } else { edges[k] };
        // Skipped edges cannot be taken (see `face_axes` for the rule). The arc's end values
        // `n_i·(c_B − p0)` are the faces' φ (`p0` lies on both planes): when both are too low,
        // only an arc containing the direction to `c_B` can reach higher (see `edge_bound`).
        if let Some(p) = ctx.prune {
            let cut = s.best.sep + pair.tol + p.b.r_in - p.slack;
            let (f1, f2) = a.edge_faces(ia);
            if let (Some(&c1), Some(&c2)) = (ctx.a_face_phi.get(f1), ctx.a_face_phi.get(f2)) {
                let cos = a.face_plane(f1).0.dot(a.face_plane(f2).0);
                let inside = c2 - cos * c1 >= 0.0 && c1 - cos * c2 >= 0.0;
                if c1.max(c2) <= cut && !inside && cos >= -0.99 {
                    continue;
                }
            }
        }
        let ea = edge_data(a, ia, &glam::DMat3::IDENTITY, DVec3::ZERO, false);
        if !ea.valid {
            continue;
        }
        if ctx
            .prune
            .is_some_and(|p| p.edge_bound(&ea) <= s.best.sep + pair.tol)
        {
            continue;
        }
        let (n1, n2) = (ea.n1, ea.n2);
        let Some(u) = (n2 - n1 * n1.dot(n2)).try_normalize() else {
            continue;
        };
        let end = pseudo_angle(n1.cross(n2).length(), n1.dot(n2));
        let f1 = a.edge_faces(ia).0;
        let mut w = match ctx.a_face_support.get(f1) {
            Some(&w) if w != usize::MAX => w,
            _ => {
                // The face stage pruned this face: B's support on its normal now.
                hint = b.support_vertex(pair.rot.transpose() * -n1, hint);
                if let Some(slot) = ctx.a_face_support.get_mut(f1) {
                    *slot = hint;
                }
                hint
            }
        };
        let mut came = usize::MAX;
        let mut theta = 0.0;
        for _ in 0..nv {
            let Some(yw) = pair.b_point(w) else {
                break;
            };
            nbrs.clear();
            b.adjacent(w, &mut nbrs);
            let mut exit = (f64::INFINITY, usize::MAX, usize::MAX);
            for &(w2, eb) in &nbrs {
                if eb == came {
                    continue;
                }
                let Some(y2) = pair.b_point(w2) else {
                    continue;
                };
                // g(θ) = R cos(θ − φ), φ = atan2(u·Δ, n1·Δ): it turns negative at φ + π/2
                // (mod 2π), the first such angle not before the current one. Angles are only
                // compared, so they are kept as pseudo-angles; φ + π/2 is the angle of Δ's
                // components (n1·Δ, u·Δ) turned a quarter: (−u·Δ, n1·Δ).
                let d = y2 - yw;
                let mut th = pseudo_angle(n1.dot(d), -u.dot(d));
                if th < theta - 1e-12 {
                    th += 4.0;
                }
                if th < exit.0 {
                    exit = (th, w2, eb);
                }
            }
            if !(exit.0 <= end) {
                break;
            }
            if exit.2 < ne_b {
                let eb = edge_data(b, exit.2, &pair.rot, pair.t, true);
                if let Some((l, sep)) = crossing_axis(&ea, &eb) {
                    let feature = Feature::Edges {
                        edge_a: ia,
                        edge_b: exit.2,
                    };
                    if s.offer(l, sep, feature, pair.tol, pair.tol) {
                        ctx.nbrs = nbrs;
                        ctx.edge_list = edges;
                        return;
                    }
                }
            }
            w = exit.1;
            came = exit.2;
            theta = exit.0;
        }
    }
    ctx.nbrs = nbrs;
    ctx.edge_list = edges;
}

/// The edges of A that can still be taken, in increasing order, or false when every edge is
/// to be examined (no pruning, or no face-to-edge map). An edge is listed when one of its faces
/// is *warm*, `φ > cut·cos(Θmax/2)` (`cut` as in the edge test, for `cut > 0`; `cut` itself
/// otherwise), with `Θmax` the largest turn between the normals of an edge. Cold-cold edges
/// cannot reach `cut`: if `c_B − p0` projects outside the edge's arc, its bound is the larger
/// end value `max φ ≤ cut`; inside, the nearer end is within `Θ/2` of it, so
/// `max φ ≥ ρ cos(Θ/2)` and the bound `ρ ≤ max φ / cos(Θmax/2) ≤ cut` (for `cut ≤ 0` the
/// inside case needs `ρ cos(Θ/2) ≤ max φ ≤ 0`, so `ρ = 0 ≤ cut` or it cannot happen). The cut
/// is taken from the best axis before the edge stage; the best only grows, so every edge left
/// out stays prunable.
fn warm_edges<A, B>(
    pair: &Pair<'_, A, B>,
    ctx: &mut SatContext,
    best: f64,
    out: &mut Vec<usize>,
) -> bool
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    out.clear();
    let Some(p) = ctx.prune else {
        return false;
    };
    // cos(Θmax/2) from cos Θmax; a near-antipodal pair of normals leaves nothing to prune.
    if !(p.a.edge_cos_min > -0.99) {
        return false;
    }
    let half = (0.5 * (1.0 + p.a.edge_cos_min)).sqrt();
    let cut = best + pair.tol + p.b.r_in - p.slack;
    let warm = if cut > 0.0 { cut * half } else { cut };
    for (f, &phi) in ctx.a_face_phi.iter().enumerate() {
        if phi > warm && !pair.a.face_edges(f, out) {
            return false;
        }
    }
    out.sort_unstable();
    out.dedup();
    true
}

/// A pseudo-angle of the direction `(x, y)`: a value in `[0, 4)` increasing with the angle
/// `atan2(y, x)` taken in `[0, 2π)` (0, 1, 2 and 3 at the quarter turns; linear in `y / (|x| +
/// |y|)` in between), so comparisons of angles need no `atan2`. The zero vector maps to 0.
#[inline]
fn pseudo_angle(y: f64, x: f64) -> f64 {
    let s = x.abs() + y.abs();
    if !(s > 0.0) {
        return 0.0;
    }
    let p = y / s;
    if x < 0.0 {
        2.0 - p
    } else if y < 0.0 {
        4.0 + p
    } else {
        p
    }
}

/// The axis `e_A × e_B` of a crossing pair, oriented into A's normal cone, and its separation
/// `L·(w0 − u0)`; `None` for near-parallel edges.
#[inline]
fn crossing_axis(ea: &EdgeData, eb: &EdgeData) -> Option<(DVec3, f64)> {
    let da = ea.p1 - ea.p0;
    let db = eb.p1 - eb.p0;
    let l = da.cross(db);
    let l2 = l.length_squared();
    if !(l2 >= EDGE_PARALLEL * EDGE_PARALLEL * da.length_squared() * db.length_squared()) {
        return None;
    }
    let mut l = l * (1.0 / l2.sqrt());
    if l.dot(ea.n1 + ea.n2) < 0.0 {
        l = -l;
    }
    Some((l, l.dot(eb.p0 - ea.p0)))
}

/// The separation along the better of `±n` (unit, A's frame), from support vertices:
/// `min_B n·y − max_A n·x`.
fn support_separation<A, B>(pair: &Pair<'_, A, B>, n: DVec3) -> (DVec3, f64)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let sep = |n: DVec3| {
        let x = pair.a.vertex(pair.a.support_vertex(n, 0));
        let y = pair.b_point(pair.b.support_vertex(pair.rot.transpose() * -n, 0));
        match (x, y) {
            (Some(x), Some(y)) => n.dot(y) - n.dot(x),
            _ => f64::NEG_INFINITY,
        }
    };
    let (sp, sm) = (sep(n), sep(-n));
    if sp >= sm {
        (n, sp)
    } else {
        (-n, sm)
    }
}

/// The axes of a pair with a lower-dimensional shape, after the face normals: every edge pair
/// (unpruned: a polygon's edge maps to a half great circle on the Gauss map, a segment's to a
/// full one) and the axes of [`low_dim_axes`], each measured by support vertices.
fn low_dim_search<A, B>(pair: &Pair<'_, A, B>, ctx: &mut SatContext, s: &mut Search)
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    fill_edges(pair, ctx);
    let tol = pair.tol;
    for (ia, ea) in ctx.a_edges.iter().enumerate() {
        let da = ea.p1 - ea.p0;
        for (ib, eb) in ctx.b_edges.iter().enumerate() {
            let db = eb.p1 - eb.p0;
            let Some(l) = da.cross(db).try_normalize() else {
                continue;
            };
            let (l, sep) = support_separation(pair, l);
            let feature = Feature::Edges {
                edge_a: ia,
                edge_b: ib,
            };
            if s.offer(l, sep, feature, tol, tol) {
                return;
            }
        }
    }
    let shape = |p: &dyn Fn(usize) -> Option<DVec3>, f: &dyn Faceted, rot: glam::DMat3| LowDim {
        vertices: (0..f.num_vertices()).filter_map(p).collect(),
        edges: (0..f.num_edges())
            .filter_map(|e| {
                let (u, v) = f.edge(e);
                Some((p(u)?, p(v)?))
            })
            .collect(),
        normal: (f.dimension() == 2 && f.num_faces() > 0).then(|| rot * f.face_plane(0).0),
        dim: f.dimension(),
    };
    let ga = shape(&|v| pair.a.vertex(v), &Wrap(pair.a), glam::DMat3::IDENTITY);
    let gb = shape(&|v| pair.b_point(v), &Wrap(pair.b), pair.rot);
    let mut axes = Vec::new();
    low_dim_axes(&ga, &gb, &mut axes);
    for n in axes {
        let Some(n) = n.try_normalize() else {
            continue;
        };
        let (l, sep) = support_separation(pair, n);
        if s.offer(l, sep, Feature::Supports, tol, tol) {
            return;
        }
    }
}

/// `&T` as a `Faceted` trait object for unsized `T`.
struct Wrap<'s, T: ?Sized>(&'s T);

impl<T: Faceted + ?Sized> Faceted for Wrap<'_, T> {
    fn vertex(&self, v: usize) -> Option<DVec3> {
        self.0.vertex(v)
    }
    fn num_vertices(&self) -> usize {
        self.0.num_vertices()
    }
    fn num_faces(&self) -> usize {
        self.0.num_faces()
    }
    fn face_plane(&self, f: usize) -> (DVec3, f64) {
        self.0.face_plane(f)
    }
    fn face_polygon(&self, f: usize, out: &mut Vec<DVec3>) {
        self.0.face_polygon(f, out)
    }
    fn num_edges(&self) -> usize {
        self.0.num_edges()
    }
    fn edge(&self, e: usize) -> (usize, usize) {
        self.0.edge(e)
    }
    fn edge_faces(&self, e: usize) -> (usize, usize) {
        self.0.edge_faces(e)
    }
    fn support_vertex(&self, dir: DVec3, hint: usize) -> usize {
        self.0.support_vertex(dir, hint)
    }
    fn dimension(&self) -> usize {
        self.0.dimension()
    }
}

/// A shape's geometry in a common frame, for [`low_dim_axes`].
#[derive(Clone, Debug, Default)]
pub struct LowDim {
    /// The shape's vertices (common frame).
    pub vertices: Vec<DVec3>,
    /// The shape's edges as endpoint pairs (common frame).
    pub edges: Vec<(DVec3, DVec3)>,
    /// The plane normal of a flat (dimension 2) shape.
    pub normal: Option<DVec3>,
    /// 0 point, 1 segment, 2 flat polygon, 3 solid.
    pub dim: usize,
}

/// The separating-axis candidates that face normals and edge × edge directions miss when
/// `A − B` is lower-dimensional (unnormalised; zero vectors are skipped by the caller).
///
/// Why these complete the set. When `A − B` spans 3D its facet normals are face normals and
/// edge crossings. Otherwise `A − B` lies in a plane or on a line: (i) both shapes are flat
/// (or flat and a point, or a segment parallel to a flat shape's plane), `A − B` is a polygon
/// in the plane with normal `N` whose edges are parallel to edges of A or B, so its in-plane
/// facet normals are `N × e`; (ii) both shapes are points or segments: `A − B` is a
/// parallelogram, a segment or a point, whose separating directions are the in-plane edge
/// normals `N × d` (`N = d_A × d_B`), the perpendicular from a vertex to the other's line,
/// or a vertex difference; a fixed orthonormal frame adds the zero-depth axes of an
/// overlapping pair (coincident points, collinear overlapping segments). Every candidate is
/// measured with support functions, so an extra axis never produces a wrong answer.
pub fn low_dim_axes(a: &LowDim, b: &LowDim, out: &mut Vec<DVec3>) {
    for n in [a.normal, b.normal].into_iter().flatten() {
        for (p, q) in a.edges.iter().chain(&b.edges) {
            out.push(n.cross(*q - *p));
        }
    }
    if a.dim > 1 || b.dim > 1 {
        return;
    }
    for x in &a.vertices {
        for y in &b.vertices {
            out.push(*y - *x);
        }
    }
    for (verts, edges) in [(&a.vertices, &b.edges), (&b.vertices, &a.edges)] {
        for x in verts {
            for (p, q) in edges {
                let (w, d) = (*x - *p, *q - *p);
                let dd = d.length_squared();
                if dd > 0.0 {
                    out.push(w - d * (w.dot(d) / dd));
                }
                out.push(d.any_orthonormal_vector());
            }
        }
    }
    if let (Some((p, q)), Some((r, t))) = (a.edges.first(), b.edges.first()) {
        let (da, db) = (*q - *p, *t - *r);
        let n = da.cross(db);
        out.push(n.cross(da));
        out.push(n.cross(db));
    }
    out.extend([DVec3::X, DVec3::Y, DVec3::Z]);
}

/// The face of `p` (planes given) most anti-parallel to `n`.
fn incident_face(planes: impl Iterator<Item = DVec3>, n: DVec3) -> usize {
    let mut best = f64::INFINITY;
    let mut k = 0;
    for (i, m) in planes.enumerate() {
        let c = m.dot(n);
        if c < best {
            best = c;
            k = i;
        }
    }
    k
}

/// The manifold for a non-separating axis.
fn manifold_for<A, B>(
    pair: &Pair<'_, A, B>,
    best: &Best,
    ctx: &mut SatContext,
    (pose_a, pose_b): (&Pose3, &Pose3),
) -> Manifold
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    let solids = pair.a.dimension() == 3 && pair.b.dimension() == 3;
    match best.feature {
        // A crossing pair of solids: the two edges are the supporting features.
        Feature::Edges { edge_a, edge_b } if solids => {
            edges_manifold(pair, best, edge_a, edge_b, pose_a)
        }
        Feature::FaceA(f) => face_a_manifold(pair, best, ctx, f, pose_a),
        Feature::FaceB(g) => face_b_manifold(pair, best, ctx, g, pose_a),
        // An edge pair of a lower-dimensional shape only named the axis (every pair is tried,
        // not only the supporting ones), and a `Supports` axis has no features.
        Feature::Edges { .. } | Feature::Supports => {
            touching_manifold(pair, best, (pose_a, pose_b))
        }
    }
}

/// One contact: the closest points of the two edges.
fn edges_manifold<A, B>(
    pair: &Pair<'_, A, B>,
    best: &Best,
    edge_a: usize,
    edge_b: usize,
    pose_a: &Pose3,
) -> Manifold
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let mut m = Manifold::new(pose_a.transform_vector(best.n), best.feature);
    if edge_a < pair.a.num_edges() && edge_b < pair.b.num_edges() {
        let ea = edge_data(pair.a, edge_a, &glam::DMat3::IDENTITY, DVec3::ZERO, false);
        let eb = edge_data(pair.b, edge_b, &pair.rot, pair.t, true);
        let (ua, ha) = unit_half(ea.p1 - ea.p0);
        let (ub, hb) = unit_half(eb.p1 - eb.p0);
        let (pa, pb) =
            segment_closest_points((ea.p0 + ea.p1) * 0.5, ua, ha, (eb.p0 + eb.p1) * 0.5, ub, hb);
        m.push(ContactPoint {
            point_a: pose_a.transform_point(pa),
            point_b: pose_a.transform_point(pb),
            depth: -best.sep,
        });
    }
    m
}

/// One contact for an axis whose supporting features are unknown: with `D = −sep` and `n` the
/// axis, B moved by `D·n` touches A (the axis is a facet normal of `A − B` at distance `D`
/// from the origin), and a common point `c` of that touching pair gives `point_a = c` (on A)
/// and `point_b = c − D·n` (on B at its pose), so `point_a − point_b = D·n` as for every other
/// contact. One GJK boolean call; if GJK cannot name a common point (rounding), the support
/// points along `±n` are the contact instead.
fn touching_manifold<A, B>(
    pair: &Pair<'_, A, B>,
    best: &Best,
    (pose_a, pose_b): (&Pose3, &Pose3),
) -> Manifold
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    let n = pose_a.transform_vector(best.n);
    let depth = -best.sep;
    let mut m = Manifold::new(n, best.feature);
    let moved = Pose3::new(pose_b.translation() + n * depth, pose_b.rotation());
    if let Ok(moved) = moved {
        let g = gjk::intersects(
            pair.a,
            pose_a,
            pair.b,
            &moved,
            &gjk::GjkOptions::default(),
            None,
        );
        if let Verdict::Intersecting(c) = g.verdict {
            m.push(ContactPoint {
                point_a: c.point,
                point_b: c.point - n * depth,
                depth,
            });
            return m;
        }
    }
    let x = pair.a.vertex(pair.a.support_vertex(best.n, 0));
    let y = pair.b_point(pair.b.support_vertex(pair.rot.transpose() * -best.n, 0));
    if let (Some(x), Some(y)) = (x, y) {
        m.push(ContactPoint {
            point_a: pose_a.transform_point(x),
            point_b: pose_a.transform_point(y),
            depth,
        });
    }
    m
}

/// Face `f` of A is the reference face; B's incident face (the most anti-parallel face
/// through B's deepest point) is clipped against it.
fn face_a_manifold<A, B>(
    pair: &Pair<'_, A, B>,
    best: &Best,
    ctx: &mut SatContext,
    f: usize,
    pose_a: &Pose3,
) -> Manifold
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let (a, b) = (pair.a, pair.b);
    let (n, d) = a.face_plane(f);
    ctx.poly_ref.clear();
    a.face_polygon(f, &mut ctx.poly_ref);
    // B's deepest point along −n, and the most anti-parallel face through it (in B's frame).
    let n_b = pair.rot.transpose() * n;
    let qi = b.support_vertex(-n_b, 0);
    let q_b = b.vertex(qi).unwrap_or(DVec3::ZERO);
    let q = pair.rot * q_b + pair.t;
    let eps = 8.0 * pair.tol;
    let g = incident_face(
        (0..b.num_faces()).map(|g| {
            let (m, e) = b.face_plane(g);
            if e - m.dot(q_b) <= eps {
                m
            } else {
                DVec3::ZERO
            }
        }),
        n_b,
    );
    ctx.poly_inc.clear();
    b.face_polygon(g, &mut ctx.poly_inc);
    for p in ctx.poly_inc.iter_mut() {
        *p = pair.rot * *p + pair.t;
    }
    if ctx.poly_inc.is_empty() {
        // B has no faces (a segment or a point): its deepest vertex is the incident polygon.
        ctx.poly_inc.push(q);
    }
    clip_to_reference(
        &ctx.poly_ref,
        n,
        &ctx.poly_inc,
        &mut ctx.clip_a,
        &mut ctx.clip_b,
    );
    face_contacts(
        ctx.clip_a.as_slice(),
        q,
        n,
        d,
        true,
        pair.tol,
        best.feature,
        pose_a,
    )
}

/// Face `g` of B is the reference face; A's incident face is clipped against it.
fn face_b_manifold<A, B>(
    pair: &Pair<'_, A, B>,
    best: &Best,
    ctx: &mut SatContext,
    g: usize,
    pose_a: &Pose3,
) -> Manifold
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let (a, b) = (pair.a, pair.b);
    let (m, e) = b.face_plane(g);
    let m = pair.rot * m;
    let e = e + m.dot(pair.t);
    ctx.poly_ref.clear();
    b.face_polygon(g, &mut ctx.poly_ref);
    for p in ctx.poly_ref.iter_mut() {
        *p = pair.rot * *p + pair.t;
    }
    let qi = a.support_vertex(-m, 0);
    let q = a.vertex(qi).unwrap_or(DVec3::ZERO);
    let eps = 8.0 * pair.tol;
    let f = incident_face(
        (0..a.num_faces()).map(|f| {
            let (n, d) = a.face_plane(f);
            if d - n.dot(q) <= eps {
                n
            } else {
                DVec3::ZERO
            }
        }),
        m,
    );
    ctx.poly_inc.clear();
    a.face_polygon(f, &mut ctx.poly_inc);
    if ctx.poly_inc.is_empty() {
        ctx.poly_inc.push(q);
    }
    clip_to_reference(
        &ctx.poly_ref,
        m,
        &ctx.poly_inc,
        &mut ctx.clip_a,
        &mut ctx.clip_b,
    );
    face_contacts(
        ctx.clip_a.as_slice(),
        q,
        m,
        e,
        false,
        pair.tol,
        best.feature,
        pose_a,
    )
}

fn unit_half(d: DVec3) -> (DVec3, f64) {
    let l = d.length();
    if l > 0.0 {
        (d / l, 0.5 * l)
    } else {
        (DVec3::X, 0.0)
    }
}

/// Whether `p` (A's frame) satisfies every face inequality of both shapes within `slack` (B's
/// in its own frame).
fn in_both<A, B>(pair: &Pair<'_, A, B>, p: DVec3, slack: f64) -> bool
where
    A: Faceted + ?Sized,
    B: Faceted + ?Sized,
{
    let p_b = pair.rot.transpose() * (p - pair.t);
    (0..pair.a.num_faces()).all(|f| {
        let (n, d) = pair.a.face_plane(f);
        n.dot(p) <= d + slack
    }) && (0..pair.b.num_faces()).all(|g| {
        let (m, e) = pair.b.face_plane(g);
        m.dot(p_b) <= e + slack
    })
}

/// SAT with a reusable context; also returns the manifold when the shapes are not separated.
pub fn sat_with<A, B>(
    a: &A,
    pose_a: &Pose3,
    b: &B,
    pose_b: &Pose3,
    ctx: &mut SatContext,
) -> (SatResult, Option<Manifold>)
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    sat_impl(a, pose_a, b, pose_b, ctx, false)
}

/// [`sat`] with the edge pairs tested by the full O(E_A·E_B) scan of Gauss-map crossings
/// instead of the overlay walk: the test oracle for the walk.
pub fn sat_full_scan<A, B>(a: &A, pose_a: &Pose3, b: &B, pose_b: &Pose3) -> SatResult
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    sat_impl(a, pose_a, b, pose_b, &mut SatContext::new(), true).0
}

fn sat_impl<A, B>(
    a: &A,
    pose_a: &Pose3,
    b: &B,
    pose_b: &Pose3,
    ctx: &mut SatContext,
    scan: bool,
) -> (SatResult, Option<Manifold>)
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    let pose_ab = pose_a.relative(pose_b);
    let tol = MinkowskiDifference::new(a, pose_a, b, pose_b)
        .tolerance(gjk::GjkOptions::default().rel_tolerance);
    let pair = Pair {
        a,
        b,
        rot: glam::DMat3::from_quat(pose_ab.rotation()),
        t: pose_ab.translation(),
        tol,
        scan,
    };
    let (best, tested) = sat_axes(&pair, ctx);
    let axis = pose_a.transform_vector(best.n);
    let mut out = SatResult {
        status: Status::Converged,
        verdict: Verdict::Undetermined,
        axis,
        separation: best.sep,
        feature: best.feature,
        tolerance: tol,
        iterations: tested,
    };
    if !best.sep.is_finite() {
        // No axis at all (no faces): leave the verdict to GJK.
        out.status = Status::Degenerate;
        let g = gjk::intersects(a, pose_a, b, pose_b, &gjk::GjkOptions::default(), None);
        out.verdict = g.verdict;
        return (out, None);
    }
    if best.sep > tol {
        out.verdict = Verdict::Separated(SeparatingAxis {
            axis,
            gap: best.sep,
        });
        return (out, None);
    }
    let m = manifold_for(&pair, &best, ctx, (pose_a, pose_b));
    let slack = 0.25 * tol;
    let mut common = None;
    // The face inequalities bound a solid only: a lower-dimensional shape's common point
    // comes from GJK below.
    let solid = a.dimension() == 3 && b.dimension() == 3;
    'search: for c in m.points().iter().filter(|_| solid) {
        let pa = pose_a.inverse_transform_point(c.point_a);
        let pb = pose_a.inverse_transform_point(c.point_b);
        for p in [(pa + pb) * 0.5, pb, pa] {
            if in_both(&pair, p, slack) {
                common = Some(pose_a.transform_point(p));
                break 'search;
            }
        }
    }
    out.verdict = match common {
        Some(point) => Verdict::Intersecting(CommonPoint { point }),
        None => {
            let g = gjk::intersects(a, pose_a, b, pose_b, &gjk::GjkOptions::default(), None);
            if g.status != Status::Converged {
                out.status = g.status;
            }
            g.verdict
        }
    };
    (out, Some(m))
}

/// Separating-axis test of two convex polyhedra (see the module documentation).
pub fn sat<A, B>(a: &A, pose_a: &Pose3, b: &B, pose_b: &Pose3) -> SatResult
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    sat_with(a, pose_a, b, pose_b, &mut SatContext::new()).0
}

/// The contact manifold of two convex polyhedra, or `None` when they are separated by more
/// than the touch tolerance (SAT axis, then reference/incident face clipping).
pub fn polyhedron_manifold<A, B>(a: &A, pose_a: &Pose3, b: &B, pose_b: &Pose3) -> Option<Manifold>
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    polyhedron_manifold_with(a, pose_a, b, pose_b, &mut SatContext::new())
}

/// [`polyhedron_manifold`] with a reusable context (no allocation once warmed up). Skips the
/// common-point search.
pub fn polyhedron_manifold_with<A, B>(
    a: &A,
    pose_a: &Pose3,
    b: &B,
    pose_b: &Pose3,
    ctx: &mut SatContext,
) -> Option<Manifold>
where
    A: Faceted + SupportMap<DVec3> + ?Sized,
    B: Faceted + SupportMap<DVec3> + ?Sized,
{
    let pose_ab = pose_a.relative(pose_b);
    let tol = MinkowskiDifference::new(a, pose_a, b, pose_b)
        .tolerance(gjk::GjkOptions::default().rel_tolerance);
    let pair = Pair {
        a,
        b,
        rot: glam::DMat3::from_quat(pose_ab.rotation()),
        t: pose_ab.translation(),
        tol,
        scan: false,
    };
    let (best, _) = sat_axes(&pair, ctx);
    if !(best.sep <= tol) {
        return None;
    }
    Some(manifold_for(&pair, &best, ctx, (pose_a, pose_b)))
}

#[cfg(test)]
mod tests {
    use super::pseudo_angle;

    /// The walk compares pseudo-angles instead of angles: the order must be the same.
    #[test]
    fn pseudo_angle_orders_directions_like_the_angle() {
        let n = 4000;
        let mut prev = -1.0;
        for k in 0..n {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            let p = pseudo_angle(t.sin(), t.cos());
            assert!((0.0..4.0).contains(&p), "{t}: {p}");
            assert!(p > prev, "not increasing at {t}: {p} after {prev}");
            prev = p;
        }
        for (q, (y, x)) in [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)]
            .iter()
            .enumerate()
        {
            assert_eq!(pseudo_angle(*y, *x), q as f64);
        }
        assert_eq!(pseudo_angle(0.0, 0.0), 0.0);
    }
}
