//! The GJK simplex and its closest point to the origin: a dimension-free distance
//! subalgorithm.
//!
//! Source: Gilbert, Johnson & Keerthi (1988), "A fast procedure for computing the distance
//! between complex objects"; the recursive form follows van den Bergen, *Collision Detection
//! in Interactive 3D Environments* (2003), §4.3.
//!
//! The code is shared by 2D and 3D; only [`Vector::det`] and [`Vector::plane_normal`] know the
//! dimension:
//! * segment: clamp `t = −a·(b−a)/|b−a|²`;
//! * lower-dimensional triangle (3D only, through [`Vector::plane_normal`]): Montanari's S2D
//!   — project the origin onto the plane and decide by signed sub-areas in the coordinate
//!   plane where the normal is largest (details at `triangle`). Ericson's region tests and
//!   Cramer-rule weights were used first; fuzzing showed both failing on slivers and needles
//!   (a point 6e-6 off the plane of a 742 × 0.039 triangle; a wrong edge region on a
//!   9e10 × 2e3 needle) because they multiply dot products, whose rounding is cond(G)·ε,
//!   while the projection and the sub-areas are accurate relative to their own vectors. A
//!   dimension-free Gram–Schmidt version was equally robust but cost ≈930 instructions per
//!   call against ≈200 here; the benchmark made the case for specialising.
//! * full simplex (triangle in 2D, tetrahedron in 3D): signed volumes (Montanari, Petrella &
//!   Cavallaro, "Improving the GJK algorithm for faster and more reliable distance queries
//!   between convex objects", ACM TOG 36(3), 2017). The barycentric weight of vertex i is
//!   `det(…, 0 in place of pᵢ, …) / det(p)`: each numerator is a determinant of that facet's
//!   own vectors, so the "origin beyond facet i" decision is accurate however flat the simplex.
//!   When some weight is ≤ 0 the closest point lies on a facet opposite such a vertex: within
//!   the affine hull `|x|² = |q|² + |x − q|²` for the projection `q`, so the closest point of
//!   the simplex is the one closest to `q`, on a facet separating `q` from the simplex.
//!
//! Hot path: GJK pushes the newest point last, and in exact arithmetic the closest point lies
//! on a feature through it. A triangle (3D) or full simplex that passes a cheap conditioning
//! test (normalised area/volume and distance from the origin, see `FAT`/`NEAR`) is solved by
//! Voronoi-region tests (Ericson §5.1.5) or signed volumes based at the newest point, over the
//! features through it only; a failed test, or no such feature holding the origin, falls back
//! to the robust solves below. Callgrind: 5,600 → 4,900 instructions per hull8 distance query.
//!
//! The closed forms replace a generic recursive solve because the benchmark showed the simplex
//! step at more than half of GJK's cost (≈470 instructions per call before).
//!
//! Complexity: O(1). Failure modes: none. A triangle too flat for its projection to beat its
//! best edge (see `triangle`) falls back to that edge;
//! a flat full simplex (|det| below `1e-14` of the product of its edge lengths) falls back to
//! all of its facets.

use crate::gjk::minkowski::SupportPoint;
use crate::math::vector::Vector;

/// The residual `|Σ λᵢ wᵢ|`, relative to the largest `|wᵢ|`, below which
/// [`Simplex::enclosing_witnesses`] does not refine: 16 ε, a few times the sum's own rounding.
const RESIDUAL_FLOOR: f64 = 16.0 * f64::EPSILON;

/// Up to four support points with the barycentric weights of the closest point.
///
/// The points' `w` are kept twice: in `pts` and, contiguous, in `ws`, which the solves read in
/// place. Copying them out of `pts` into an array for the solves cost more than the copy's
/// sixteen instructions: the compiler reads a point's `(y, z)` pair with one 16-byte load
/// that straddles the copy's two stores of `(x, y)` and `z`, which the core cannot forward
/// from the store buffer, so each such load waited for the stores to reach the cache —
/// three per triangle solve, on the chain from one support point to the next direction
/// (GJK's time is that chain's: four dependent multiplications added to each iteration
/// cost a hull8 distance query 19 ns). `profile_driver hull8 distance`, eight alternated
/// runs: 467 → 455 ns (medians).
#[derive(Clone, Copy, Debug, Default)]
pub struct Simplex<V> {
    /// The support points; only the first `len` are meaningful.
    pub(crate) pts: [SupportPoint<V>; 4],
    /// Barycentric weights of the closest point to the origin (first `len` entries, summing
    /// to 1).
    pub(crate) weights: [f64; 4],
    /// Number of points in use (0 to 4).
    pub(crate) len: usize,
    /// `pts[i].w`, contiguous (written wherever `pts` is).
    ws: [V; 4],
}

impl<V: Vector> Simplex<V> {
    /// The empty simplex.
    pub fn new() -> Self {
        Simplex {
            pts: [SupportPoint::default(); 4],
            weights: [0.0; 4],
            len: 0,
            ws: [V::ZERO; 4],
        }
    }

    /// The simplex of the first `len` of `pts` with those weights.
    pub(crate) fn from_parts(pts: [SupportPoint<V>; 4], weights: [f64; 4], len: usize) -> Self {
        Simplex {
            pts,
            weights,
            len,
            ws: pts.map(|p| p.w),
        }
    }

    /// The points in use.
    pub fn points(&self) -> &[SupportPoint<V>] {
        &self.pts[..self.len]
    }

    /// The barycentric weights of the closest point to the origin, one per point in use
    /// (summing to 1).
    pub fn weights(&self) -> &[f64] {
        &self.weights[..self.len]
    }

    /// Adds a point (the caller ensures `len < 4`).
    #[inline]
    pub fn push(&mut self, p: SupportPoint<V>) {
        if self.len < 4 {
            self.pts[self.len] = p;
            self.ws[self.len] = p.w;
            self.len += 1;
        }
    }

    /// Whether a point with the same `w` is already present (exactly).
    #[inline]
    pub fn contains(&self, w: V) -> bool {
        // All four slots, masked by `len`: a fixed trip count has no loop exit to mispredict
        // (the early-exit `any` over `len` points mispredicted where it stopped).
        self.pts
            .iter()
            .enumerate()
            .fold(false, |hit, (i, p)| hit | ((i < self.len) & (p.w == w)))
    }

    /// Reduces to the smallest sub-simplex whose hull holds the closest point to the origin and
    /// returns that point.
    #[inline]
    pub fn reduce(&mut self) -> V {
        // One point (every run's first iteration): the point itself, answered inline. The
        // solves live in one large function whose entry saves six registers and copies the
        // four slots' `w` (49 instructions a call on entry and exit); the first iteration paid
        // that for nothing. (One function per size instead was slower: callgrind
        // `profile_driver hull8 distance` 4,363 → 4,543 instructions a query.)
        if self.len == 1 {
            self.weights = [1.0, 0.0, 0.0, 0.0];
            return self.pts[0].w;
        }
        self.reduce_several()
    }

    /// [`Simplex::reduce`] for a simplex of `len ≠ 1` points.
    #[inline(never)]
    fn reduce_several(&mut self) -> V {
        let ws = &self.ws;
        // Comparisons rather than a `match`: the match became a jump table whose indirect
        // branch was mispredicted on most calls (the size changes from call to call).
        let len = self.len;
        let sol = if len == 3 && V::DIM == 3 {
            triangle_fast(ws, 2, 0, 1).unwrap_or_else(|| triangle(ws, 0, 1, 2))
        } else if len == 2 {
            segment(ws, 0, 1)
        } else if len >= 4 {
            full_fast(ws, 4).unwrap_or_else(|| full_simplex(ws, 4))
        } else if len == 3 {
            full_fast(ws, 3).unwrap_or_else(|| full_simplex(ws, 3))
        } else {
            // Empty (one point is answered by `reduce`).
            return V::ZERO;
        };
        if sol.mask == (1 << self.len) - 1 {
            // Nothing dropped (the common case while the simplex grows): no compaction. The
            // weights one at a time: the solves store them so, and a 16-byte copy of two of
            // them could not be forwarded from those stores (`Vector::load_scalars`).
            self.weights = core::array::from_fn(|k| {
                // SAFETY: a read of an initialised element of a local.
                unsafe { core::ptr::read_volatile(&sol.l[k]) }
            });
        } else {
            // Branch-free compaction over all four slots: slot `i` is copied to `n ≤ i` (read
            // before any later write can reach it) and `n` advances only for kept points.
            let mut n = 0;
            for i in 0..4 {
                self.pts[n] = self.pts[i];
                self.ws[n] = self.ws[i];
                self.weights[n] = sol.l[i];
                n += usize::from(sol.mask & (1 << i) != 0);
            }
            self.len = n;
        }
        sol.x
    }

    /// `Σ λᵢ wᵢ`.
    #[inline]
    pub fn closest(&self) -> V {
        let mut v = V::ZERO;
        for i in 0..self.len {
            v += self.pts[i].w * self.weights[i];
        }
        v
    }

    /// The witness points of a simplex that encloses the origin (the intersecting verdict), with
    /// the weights refined once: on a sliver simplex the barycentric solve loses digits in
    /// proportion to its conditioning, and the witnesses `Σ λᵢ aᵢ`, `Σ λᵢ bᵢ` (far apart in
    /// magnitude from their difference) drift apart by that error times the coordinates (a
    /// box 1.9e-7 thick against a triangle 1e4 times larger: 1.1e-6 apart at a reported
    /// distance 0). One step of iterative refinement solves for the correction `δ` (`Σ δᵢ = 0`,
    /// `Σ δᵢ wᵢ = −r`, `r = Σ λᵢ wᵢ`) by Cramer's rule on the edges `wᵢ − w_d`, which gains as
    /// many digits as the first solve kept. The refined weights are kept only when they stay
    /// non-negative and shrink the residual; otherwise the plain witnesses are returned.
    pub fn enclosing_witnesses(&self) -> (V, V) {
        self.refined_witnesses().unwrap_or_else(|| self.witnesses())
    }

    /// The witnesses from once-refined weights, when the refinement is kept (see
    /// [`Simplex::enclosing_witnesses`]).
    fn refined_witnesses(&self) -> Option<(V, V)> {
        let d = V::DIM;
        if self.len != d + 1 {
            return None;
        }
        let r = self.closest();
        // A residual at the rounding of the sum itself (`Σ λᵢ wᵢ` rounds by a few ε times the
        // largest `|wᵢ|`) leaves nothing to refine: the witnesses, convex combinations of A's
        // and of B's points whatever the weights' errors, are apart by `r` plus their own
        // rounding, and a refined `r` would be no smaller. Well-conditioned simplices end here:
        // all 502 enclosing ones of `profile_driver hull32 boolean convexity 1000` had
        // `|r| ≤ 5.2 ε·max|wᵢ|` (callgrind per query: 2,772 → 2,718 instructions).
        let wmax = self.pts[..=d]
            .iter()
            .fold(0.0f64, |m, p| m.max(p.w.length_squared()));
        if r.length_squared() <= RESIDUAL_FLOOR * RESIDUAL_FLOOR * wmax {
            return None;
        }
        let last = self.pts[d].w;
        let mut edges = [V::ZERO; 3];
        for (k, e) in edges.iter_mut().enumerate().take(d) {
            *e = self.pts[k].w - last;
        }
        let det = V::det(&edges[..d]);
        if !(det.abs() > 0.0) {
            return None;
        }
        let mut w = self.weights;
        let mut sum = 0.0;
        for k in 0..d {
            let mut m = edges;
            m[k] = -r;
            let delta = V::det(&m[..d]) / det;
            w[k] += delta;
            sum += delta;
        }
        w[d] -= sum;
        // All `≥ 0` implies all finite: an infinite or NaN correction `δ_k` makes `w_k` or
        // `w_d = λ_d − Σ δ` −∞ or NaN. Tested without an early exit (no branch per weight).
        if !w[..=d].iter().fold(true, |ok, x| ok & (*x >= 0.0)) {
            return None;
        }
        let (mut a, mut b, mut v) = (V::ZERO, V::ZERO, V::ZERO);
        for (p, wi) in self.pts.iter().zip(w).take(d + 1) {
            a += p.a * wi;
            b += p.b * wi;
            v += p.w * wi;
        }
        (v.length_squared() < r.length_squared()).then_some((a, b))
    }

    /// The witness points `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)` in A's frame.
    pub fn witnesses(&self) -> (V, V) {
        let mut a = V::ZERO;
        let mut b = V::ZERO;
        for i in 0..self.len {
            a += self.pts[i].a * self.weights[i];
            b += self.pts[i].b * self.weights[i];
        }
        (a, b)
    }
}

/// A sub-simplex solution: the closest point, its squared norm, weights indexed like the
/// input, and the mask of points with positive weight.
#[derive(Clone, Copy, Debug)]
struct Sol<V> {
    x: V,
    d2: f64,
    l: [f64; 4],
    /// (A whole word: as a byte, the copies of a `Sol` moved it with its padding in 4-byte
    /// loads that straddled the byte's store and could not be forwarded.)
    mask: usize,
}

impl<V: Vector> Sol<V> {
    #[inline]
    fn vertex(ws: &[V; 4], i: usize) -> Self {
        Self::vertex_at(ws[i], i)
    }

    /// The vertex `x`, which is point `i`.
    #[inline(always)]
    fn vertex_at(x: V, i: usize) -> Self {
        let mut l = [0.0; 4];
        l[i] = 1.0;
        Sol {
            x,
            d2: x.length_squared(),
            l,
            mask: 1 << i,
        }
    }

    /// The point `t` of the way from point `i` (`a`) to point `j` (`b`).
    #[inline(always)]
    fn edge_at(a: V, b: V, i: usize, j: usize, t: f64) -> Self {
        let mut l = [0.0; 4];
        l[i] = 1.0 - t;
        l[j] = t;
        let x = a + (b - a) * t;
        Sol {
            x,
            d2: x.length_squared(),
            l,
            mask: (1 << i) | (1 << j),
        }
    }

    fn none() -> Self {
        Sol {
            x: V::ZERO,
            d2: f64::INFINITY,
            l: [0.0; 4],
            mask: 0,
        }
    }
}

/// Closest point of segment `ws[i]`–`ws[j]` to the origin, computed from the endpoint nearer
/// the origin (the rounding of `a + t·(b − a)` is ε times the anchor's norm).
#[inline(always)]
fn segment<V: Vector>(ws: &[V; 4], i: usize, j: usize) -> Sol<V> {
    // One endpoint is usually the newest support point, just stored (`Vector::load_scalars`).
    let (wi, wj) = (V::load_scalars(&ws[i]), V::load_scalars(&ws[j]));
    let (a, b, i, j) = if wj.length_squared() < wi.length_squared() {
        (wj, wi, j, i)
    } else {
        (wi, wj, i, j)
    };
    let ab = b - a;
    let den = ab.length_squared();
    let num = -a.dot(ab);
    if !(den > 0.0) || num <= 0.0 {
        Sol::vertex_at(a, i)
    } else if num >= den {
        Sol::vertex_at(b, j)
    } else {
        // One division, formed while `num` is: both quotients below are products by it, which
        // keeps two dependent divisions off the chain from one support point to the next
        // search direction (each quotient then rounds twice, half an ulp more).
        // Where `|ab|²` has no normal reciprocal (`|ab|` below about 7e-155, or above 2e153),
        // both divide as before.
        let rden = 1.0 / den;
        let over = |x: f64| if rden.is_normal() { x * rden } else { x / den };
        let mut s = Sol::edge_at(a, b, i, j, over(num));
        // `a + t·ab` keeps a rounding component of ~ε|a| along the edge, which tilts the next
        // search direction by ε|a|/|x| and spoils every lower bound taken along it (contacts a
        // few tolerances apart came back undetermined); a second projection removes it.
        s.x = s.x - ab * over(s.x.dot(ab));
        s.d2 = s.x.length_squared();
        s
    }
}

/// Conditioning of the fast solves: a simplex is "well conditioned" when its (squared)
/// normalised area or volume is at least `FAT` and its newest vertex is within `NEAR` (squared
/// ratio) of its edge lengths from the origin. Then the products of dot products the region
/// tests use lose at most ~`ε / (FAT · NEAR⁻¹)` ≈ 1e-10 relative, which can only misjudge a
/// region boundary where the neighbouring features' closest points coincide to that accuracy.
/// Slivers, needles and far-away simplices (the fuzzing finds listed in the module header)
/// fail the test and take the robust solves.
const FAT: f64 = 1e-4;
const NEAR: f64 = 1e4;

/// Fast Voronoi-region solve of the triangle `(ws[ia], ws[ib], ws[ic])` whose newest vertex is
/// `ws[ia]` (Ericson, *Real-Time Collision Detection*, §5.1.5), testing only the features
/// adjacent to it: the vertex, edges `ab` and `ac`, and the face. GJK's previous simplex was
/// `bc` with the closest point on it, so in exact arithmetic the origin is in one of those
/// regions. Each region test is the exact region condition, so a region that holds is the
/// answer; `None` (use [`triangle`]) when the triangle fails the conditioning test or no
/// adjacent region holds the origin (a support point that added nothing).
///
/// The face point is the projection `n (a·n)/|n|²`, whose direction is exact to rounding
/// (a barycentric sum would tilt it by `ε|a|`, see `segment`).
#[inline(always)]
fn triangle_fast<V: Vector>(ws: &[V; 4], ia: usize, ib: usize, ic: usize) -> Option<Sol<V>> {
    let (a, b, c) = (V::load_scalars(&ws[ia]), ws[ib], ws[ic]);
    let (ab, ac) = (b - a, c - a);
    let n = V::plane_normal(ab, ac)?;
    let s = ab.length_squared() + ac.length_squared();
    let nn = n.length_squared();
    if !(nn >= FAT * s * s) || !(a.length_squared() <= NEAR * s) {
        return None;
    }
    let d1 = -ab.dot(a);
    let d2 = -ac.dot(a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return Some(Sol::vertex(ws, ia));
    }
    let d3 = -ab.dot(b);
    let d4 = -ac.dot(b);
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return Some(segment(ws, ia, ib));
    }
    let d5 = -ab.dot(c);
    let d6 = -ac.dot(c);
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return Some(segment(ws, ia, ic));
    }
    let va = d3 * d6 - d5 * d4;
    if va > 0.0 && vb > 0.0 && vc > 0.0 {
        let inv = 1.0 / (va + vb + vc);
        let mut l = [0.0; 4];
        l[ia] = va * inv;
        l[ib] = vb * inv;
        l[ic] = vc * inv;
        let x = n * (a.dot(n) / nn);
        return Some(Sol {
            x,
            d2: x.length_squared(),
            l,
            mask: (1 << ia) | (1 << ib) | (1 << ic),
        });
    }
    None
}

/// Fast solve of a full simplex (`n = DIM + 1` points) whose newest vertex is the last: the
/// signed volumes based at it, without the robust path's base selection and refinement, and
/// only the facets through it. `None` (use [`full_simplex`]) when the simplex fails the
/// conditioning test or the origin lies beyond the facet opposite the newest vertex (GJK's
/// previous simplex: the new point added nothing).
#[inline(always)]
fn full_fast<V: Vector>(ws: &[V; 4], n: usize) -> Option<Sol<V>> {
    let m = n - 1;
    let d = V::load_scalars(&ws[m]);
    let mut e = [V::ZERO; 3];
    let mut prod = 1.0;
    let mut sum = 0.0;
    for j in 0..m {
        e[j] = ws[j] - d;
        let l2 = e[j].length_squared();
        prod *= l2;
        sum += l2;
    }
    let total = V::det(&e[..m]);
    if !(total * total >= FAT * prod) || !(d.length_squared() <= NEAR * sum) {
        return None;
    }
    // Cramer's rule on `E μ = −d`: replace edge j by −d.
    let inv = 1.0 / total;
    let mut l = [0.0; 4];
    let mut rest = 1.0;
    for j in 0..m {
        let mut f = e;
        f[j] = -d;
        l[j] = V::det(&f[..m]) * inv;
        rest -= l[j];
    }
    l[m] = rest;
    if !(rest > 0.0) {
        return None;
    }
    if l[..m].iter().all(|&x| x > 0.0) {
        return Some(Sol {
            x: V::ZERO,
            d2: 0.0,
            l,
            mask: (1 << n) - 1,
        });
    }
    let mut best = Sol::none();
    for (j, &weight) in l[..m].iter().enumerate() {
        if weight > 0.0 {
            continue;
        }
        // The facet opposite vertex j holds the newest vertex (its last index).
        let f = all_but(n, j);
        let s = if n == 4 {
            triangle_fast(ws, f[2], f[0], f[1]).unwrap_or_else(|| triangle(ws, f[0], f[1], f[2]))
        } else {
            segment(ws, f[0], f[1])
        };
        if s.d2 < best.d2 {
            best = s;
        }
    }
    (best.mask != 0).then_some(best)
}

/// The best of the three edges of a triangle.
fn best_edge<V: Vector>(ws: &[V; 4], i: usize, j: usize, k: usize) -> Sol<V> {
    let mut best = segment(ws, i, j);
    for s in [segment(ws, i, k), segment(ws, j, k)] {
        if s.d2 < best.d2 {
            best = s;
        }
    }
    best
}

/// Closest point of triangle `ws[i], ws[j], ws[k]` to the origin when the triangle spans less
/// than the whole space (3D), after Montanari et al.'s S2D.
///
/// * Normal: the cross product of the two shortest edges (at their shared vertex), whose
///   rounding relative to the area is the smallest of the three choices.
/// * Projection of the origin onto the plane, anchored at the vertex nearest the origin: its
///   rounding is ε times that vertex's norm. (Anchored at a 4e11-far vertex of a needle, the
///   projection's direction was off by 3.5e-9 rad, enough to pick the wrong support and stop
///   825 away from a point inside the hull; fuzzing found it.)
/// * Decision: signed areas of the sub-triangles `(x, q, r)` in the coordinate plane where the
///   normal is largest. Each is a 2×2 determinant of that sub-triangle's own vectors, so it is
///   accurate however thin the triangle. All positive: the projection is inside. Otherwise the
///   closest point lies on an edge opposite a vertex with non-positive area (as for full
///   simplices). Ericson's region tests were used first; they multiply dot products (4th
///   powers of lengths) and misjudged slivers and needles.
/// * A triangle too flat for its projection to beat its best edge falls back to that edge: the
///   projection's rounding is about `ε·|x₀|/sin θ` for anchor norm `|x₀|` and angle `θ`
///   between the two edges that build the normal, the edge's error at most the height `h`;
///   so the edge is used when `16·ε·|x₀|/sin θ ≥ h`.
fn triangle<V: Vector>(ws: &[V; 4], i: usize, j: usize, k: usize) -> Sol<V> {
    let idx = [i, j, k];
    let p = [ws[i], ws[j], ws[k]];
    // Edge t joins the two vertices other than t; squared lengths.
    let e = [p[2] - p[1], p[0] - p[2], p[1] - p[0]];
    let l2 = [
        e[0].length_squared(),
        e[1].length_squared(),
        e[2].length_squared(),
    ];
    // The longest edge is opposite vertex `far`; the other two meet at `far`.
    let far = if l2[0] >= l2[1] && l2[0] >= l2[2] {
        0
    } else if l2[1] >= l2[2] {
        1
    } else {
        2
    };
    let (e1, e2) = (p[(far + 1) % 3] - p[far], p[(far + 2) % 3] - p[far]);
    let n = match V::plane_normal(e1, e2) {
        Some(n) => n,
        None => return best_edge(ws, i, j, k),
    };
    let nn = n.length_squared();
    let near = if p[0].length_squared() <= p[1].length_squared() {
        if p[0].length_squared() <= p[2].length_squared() {
            0
        } else {
            2
        }
    } else if p[1].length_squared() <= p[2].length_squared() {
        1
    } else {
        2
    };
    // Project unless the best edge is the more accurate answer. The normal's direction carries
    // a rounding error of about ε/sin θ, θ the angle between the two edges it is built from
    // (|n| = |e1||e2| sin θ), so the projection is off by about ε·|x₀|/sin θ; the best edge is
    // at most the height h = |n|/L from the answer. Project iff 16·ε·|x₀|/sin θ < h, i.e.
    // 16·ε·|x₀|·|e1||e2|·L < |n|². (A cruder bound, ε·|x₀|·L/h, sent a sliver made by two
    // vertices 1e-3 apart next to a 1.4e3 edge to its edge, 3e-6 off; fuzzing found it.)
    let longest = l2[far].sqrt();
    let e1e2 = (l2[(far + 1) % 3] * l2[(far + 2) % 3]).sqrt();
    if !(nn > 16.0 * f64::EPSILON * p[near].length() * e1e2 * longest) {
        return best_edge(ws, i, j, k);
    }
    let x = n * (p[near].dot(n) / nn);
    // Coordinate plane: drop the axis where the normal is largest.
    let mut drop = 0;
    for c in 1..V::DIM {
        if n.coord(c).abs() > n.coord(drop).abs() {
            drop = c;
        }
    }
    // `plane_normal` exists only in 3D, so the remaining two axes are the other two of three.
    let (u, w) = ((drop + 1) % 3, (drop + 2) % 3);
    let to2 = |q: V| {
        let d = q - x;
        (d.coord(u), d.coord(w))
    };
    let q2 = [to2(p[0]), to2(p[1]), to2(p[2])];
    let cross = |a: (f64, f64), b: (f64, f64)| a.0 * b.1 - a.1 * b.0;
    let area = [
        cross(q2[1], q2[2]),
        cross(q2[2], q2[0]),
        cross(q2[0], q2[1]),
    ];
    // Orient by the normal's dropped component (the projected total area has its sign).
    let sign = if n.coord(drop) < 0.0 { -1.0 } else { 1.0 };
    let area = area.map(|a| a * sign);
    if area.iter().all(|&a| a > 0.0) {
        // Weights by Cramer's rule on the two edges at `far`: `x − p_far = s·e1 + t·e2` with
        // `s = ((x − p_far) × e2)·n / |n|²`, `t = (e1 × (x − p_far))·n / |n|²`, which
        // reproduce `x` to about ε·|x − p_far|/sin θ, the projection's own accuracy. (The
        // sub-areas decide the region well, but as weights their rounding is ε·L² against a
        // total area |e1||e2| sin θ: on a sliver 3e-10 wide and 0.5 long the witnesses they
        // gave were 8e-9 apart while `x` said 3e-16 — a common point 4e-9 outside B; fuzzing
        // found it.)
        let d = x - p[far];
        let weights = V::plane_normal(d, e2)
            .zip(V::plane_normal(e1, d))
            .map(|(se, te)| (se.dot(n) / nn, te.dot(n) / nn))
            .filter(|(s, t)| s.is_finite() && t.is_finite());
        let mut w3 = area;
        if let Some((s, t)) = weights {
            w3[(far + 1) % 3] = s;
            w3[(far + 2) % 3] = t;
            w3[far] = 1.0 - s - t;
            if w3.iter().any(|&x| x < 0.0) {
                // The sub-areas called the projection inside, the weights put it a hair
                // outside (the sub-areas' rounding is the larger). Clamping the negative
                // weight and renormalising would move the point by that weight times the
                // vertex's norm, not times the sliver's width (a weight of −3e-8 on a vertex
                // 0.2 from the origin: witnesses 8e-9 apart; fuzzing found it), so the
                // closest point is taken on the edges opposite the negative weights.
                let mut best = Sol::none();
                for (v, &x) in w3.iter().enumerate() {
                    if x < 0.0 {
                        let s = segment(ws, idx[(v + 1) % 3], idx[(v + 2) % 3]);
                        if s.d2 < best.d2 {
                            best = s;
                        }
                    }
                }
                return best;
            }
        }
        let total = w3[0] + w3[1] + w3[2];
        let mut l = [0.0; 4];
        for t in 0..3 {
            l[idx[t]] = w3[t] / total;
        }
        return Sol {
            x,
            d2: x.length_squared(),
            l,
            mask: (1 << i) | (1 << j) | (1 << k),
        };
    }
    let mut best = Sol::none();
    for t in 0..3 {
        if area[t] <= 0.0 {
            let s = segment(ws, idx[(t + 1) % 3], idx[(t + 2) % 3]);
            if s.d2 < best.d2 {
                best = s;
            }
        }
    }
    if best.mask == 0 {
        best = best_edge(ws, i, j, k);
    }
    best
}

/// The indices `0..n` without `skip`, in order (`n ≤ 4`).
#[inline]
fn all_but(n: usize, skip: usize) -> [usize; 3] {
    let mut out = [0usize; 3];
    for (slot, i) in (0..n).filter(|&i| i != skip).enumerate() {
        out[slot] = i;
    }
    out
}

/// Closest point of a full-dimensional simplex (`n = DIM + 1` points) to the origin, by signed
/// volumes.
fn full_simplex<V: Vector>(ws: &[V; 4], n: usize) -> Sol<V> {
    let m = n - 1; // = DIM
                   // Base the edges at the most central vertex (least sum of squared distances to the others).
                   // Based at a needle's tip, all edges are long and nearly parallel and the determinant's
                   // rounding, ε·L³, exceeds its value (fuzzing found a 4e11 needle with a 1e3 base).
    let mut base = 0;
    let mut best_spread = f64::INFINITY;
    for i in 0..n {
        let spread: f64 = (0..n).map(|j| (ws[j] - ws[i]).length_squared()).sum();
        if spread < best_spread {
            best_spread = spread;
            base = i;
        }
    }
    let others = all_but(n, base);
    let p0 = ws[base];
    let mut e = [V::ZERO; 3];
    for j in 0..m {
        e[j] = ws[others[j]] - p0;
    }
    let total = V::det(&e[..m]);
    let mut edge_product = 1.0;
    for ej in &e[..m] {
        edge_product *= ej.length();
    }
    let mut l = [0.0; 4];
    let flat = !(total.abs() > 1e-14 * edge_product);
    if !flat {
        // Weight of vertex others[j] by Cramer's rule on `E μ = −p0`: replace edge j by
        // (0 − p0), i.e. the signed volume of the sub-simplex in which the origin takes that
        // vertex's place. The base's weight is the rest.
        let solve = |rhs: V| {
            let mut mu = [0.0f64; 3];
            for j in 0..m {
                let mut f = e;
                f[j] = rhs;
                mu[j] = V::det(&f[..m]) / total;
            }
            mu
        };
        let mut mu = solve(-p0);
        // One step of iterative refinement. Cramer's rule leaves absolute weight errors of
        // about ε/flatness, which vertices far from the origin multiply: a tetrahedron flat to
        // 1e-9 with 4e12-far vertices had weights off by 1.7e-8, a residual Σλw of 1e5, and
        // even the wrong sign (fuzzing found it). The residual itself is accurate (its terms are
        // small), and solving for the correction shrinks the error by another ε/flatness.
        let mut r = p0;
        for j in 0..m {
            r += e[j] * mu[j];
        }
        let delta = solve(-r);
        let mut sum = 0.0;
        for j in 0..m {
            mu[j] += delta[j];
            l[others[j]] = mu[j];
            sum += mu[j];
        }
        l[base] = 1.0 - sum;
        if l[..n].iter().all(|&x| x > 0.0) {
            return Sol {
                x: V::ZERO,
                d2: 0.0,
                l,
                mask: (1 << n) - 1,
            };
        }
    }
    let mut best = Sol::none();
    for (opposite, &weight) in l[..n].iter().enumerate() {
        if !flat && weight > 0.0 {
            continue;
        }
        let f = all_but(n, opposite);
        let s = if n == 4 {
            triangle(ws, f[0], f[1], f[2])
        } else {
            segment(ws, f[0], f[1])
        };
        if s.d2 < best.d2 {
            best = s;
        }
    }
    if best.mask == 0 {
        // Unreachable for finite input (some weight is ≤ 0 when not all are > 0); stay safe.
        best = Sol::vertex(ws, n - 1);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    /// Independent oracle: every non-empty subset, the origin's projection onto its affine hull
    /// by normal equations, kept when its weights are non-negative; the minimum norm wins.
    pub(super) fn brute_force_distance<V: Vector>(ws: &[V]) -> f64 {
        brute_force(ws)
    }

    #[allow(clippy::needless_range_loop)] // Gauss–Jordan reads best with explicit indices.
    fn brute_force<V: Vector>(ws: &[V]) -> f64 {
        let n = ws.len();
        let mut best = f64::INFINITY;
        for mask in 1u32..(1 << n) {
            let idx: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
            let p0 = ws[idx[0]];
            let e: Vec<V> = idx[1..].iter().map(|&i| ws[i] - p0).collect();
            let k = e.len();
            // Solve the k×k normal equations by Gauss–Jordan (small, unoptimised on purpose).
            let mut m = vec![vec![0.0; k + 1]; k];
            for r in 0..k {
                for c in 0..k {
                    m[r][c] = e[r].dot(e[c]);
                }
                m[r][k] = -e[r].dot(p0);
            }
            let mut ok = true;
            for c in 0..k {
                let p = (c..k)
                    .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
                    .unwrap();
                m.swap(c, p);
                if m[c][c].abs() < 1e-12 {
                    ok = false;
                    break;
                }
                for r in 0..k {
                    if r != c {
                        let f = m[r][c] / m[c][c];
                        for cc in c..=k {
                            m[r][cc] -= f * m[c][cc];
                        }
                    }
                }
            }
            if !ok {
                continue;
            }
            let mu: Vec<f64> = (0..k).map(|r| m[r][k] / m[r][r]).collect();
            let l0 = 1.0 - mu.iter().sum::<f64>();
            if l0 < -1e-12 || mu.iter().any(|&x| x < -1e-12) {
                continue;
            }
            let mut x = p0;
            for (ei, mi) in e.iter().zip(&mu) {
                x += *ei * *mi;
            }
            best = best.min(x.length());
        }
        best
    }

    use crate::math::test_rng::lcg;

    fn check<V: Vector>(pts: &[V]) {
        let mut s = Simplex::<V>::new();
        for p in pts {
            s.push(SupportPoint {
                w: *p,
                a: *p,
                b: V::ZERO,
            });
        }
        let v = s.reduce();
        let want = brute_force(pts);
        let scale = pts.iter().map(|p| p.length()).fold(1.0, f64::max);
        assert!(
            (v.length() - want).abs() <= 1e-9 * scale,
            "simplex {pts:?}: got {} want {want}",
            v.length()
        );
        let wsum: f64 = s.weights[..s.len].iter().sum();
        assert!((wsum - 1.0).abs() < 1e-9, "weights sum to {wsum}");
        assert!(s.weights[..s.len].iter().all(|&w| w >= 0.0));
        // The compaction kept input points with their own weights (their weighted sum is the
        // returned point), and `contains` sees exactly the kept ones, not the stale slots.
        assert!(
            (s.closest() - v).length() <= 1e-9 * scale,
            "simplex {pts:?}: kept points do not reproduce the closest point"
        );
        assert!(s.points().iter().all(|k| pts.contains(&k.w)));
        for p in pts {
            assert_eq!(s.contains(*p), s.points().iter().any(|k| k.w == *p));
        }
    }

    /// A segment 1e-160 long: `|ab|²` is subnormal, its reciprocal infinite. The solve divides
    /// instead, and the closest point is its midpoint, not NaN.
    #[test]
    fn segment_with_a_subnormal_squared_length_divides_instead_of_taking_its_reciprocal() {
        let mut s = Simplex::<DVec3>::new();
        for x in [-0.5e-160, 0.5e-160] {
            let w = DVec3::new(x, 1e-160, 0.0);
            s.push(SupportPoint {
                w,
                a: w,
                b: DVec3::ZERO,
            });
        }
        let v = s.reduce();
        assert!(v.is_finite(), "{v:?}");
        assert!(
            v.x.abs() <= 1e-170 && (v.y - 1e-160).abs() <= 1e-170,
            "{v:?}"
        );
        assert_eq!(s.len, 2);
    }

    #[test]
    fn closed_forms_match_brute_force_3d() {
        let mut st = 7u64;
        for n in 1..=4 {
            for _ in 0..3000 {
                let pts: Vec<DVec3> = (0..n)
                    .map(|_| DVec3::new(lcg(&mut st), lcg(&mut st), lcg(&mut st)) * 2.0)
                    .collect();
                check(&pts);
            }
        }
    }

    #[test]
    fn closed_forms_match_brute_force_2d() {
        let mut st = 11u64;
        for n in 1..=3 {
            for _ in 0..3000 {
                let pts: Vec<DVec2> = (0..n)
                    .map(|_| DVec2::new(lcg(&mut st), lcg(&mut st)) * 2.0)
                    .collect();
                check(&pts);
            }
        }
    }

    /// The fast Voronoi and signed-volume solves, where they answer, agree with the robust
    /// solves (same point to 1e-12, same kept vertices, weights to 1e-9); and they do answer
    /// on most random simplices (the hot path is taken).
    #[test]
    fn fast_solves_agree_with_robust_solves() {
        let mut st = 23u64;
        let (mut answered, mut total) = (0, 0);
        for n in 3..=4 {
            for _ in 0..5000 {
                let mut ws = [DVec3::ZERO; 4];
                for w in ws.iter_mut().take(n) {
                    *w = DVec3::new(lcg(&mut st), lcg(&mut st), lcg(&mut st)) * 2.0;
                }
                let (fast, robust) = if n == 3 {
                    (triangle_fast(&ws, 2, 0, 1), triangle(&ws, 0, 1, 2))
                } else {
                    (full_fast(&ws, 4), full_simplex(&ws, 4))
                };
                total += 1;
                let Some(f) = fast else { continue };
                answered += 1;
                assert!(
                    (f.x - robust.x).length() <= 1e-12,
                    "{ws:?}: {f:?} vs {robust:?}"
                );
                assert_eq!(f.mask, robust.mask, "{ws:?}");
                for i in 0..4 {
                    assert!((f.l[i] - robust.l[i]).abs() <= 1e-9, "{ws:?}");
                }
            }
        }
        assert!(
            answered * 2 > total,
            "fast path answered {answered} of {total}"
        );
        // A sliver and a far-away triangle are refused.
        let sliver = [
            DVec3::X,
            DVec3::NEG_X,
            DVec3::new(0.0, 1e-4, 1.0),
            DVec3::ZERO,
        ];
        assert!(triangle_fast(&sliver, 2, 0, 1).is_none());
        let far = [
            DVec3::new(1e3, 0.0, 0.0),
            DVec3::new(1e3, 1.0, 0.0),
            DVec3::new(1e3, 0.0, 1.0),
            DVec3::ZERO,
        ];
        assert!(triangle_fast(&far, 2, 0, 1).is_none());
    }

    #[test]
    fn degenerate_simplices_collinear_coplanar_duplicate() {
        let a = DVec3::new(1.0, 1.0, 0.0);
        let b = DVec3::new(1.0, -1.0, 0.0);
        check(&[a, a]);
        check(&[a, b, (a + b) * 0.5]);
        check(&[a, b, a, b]);
        check(&[a, b, DVec3::new(-1.0, 0.0, 0.0), DVec3::new(0.0, 0.5, 0.0)]);
        check(&[a, a, a, a]);
        let c = DVec3::new(0.5, 0.2, 1e-13);
        check(&[a, b, DVec3::new(-1.0, 0.0, 0.0), c]);
    }
}

#[cfg(test)]
mod sliver_regression {
    use super::*;
    use glam::DVec3;

    /// Found by fuzzing: the witness of a point inside a 742 × 0.039 sliver must reproduce the
    /// point in every vertex order (the plane basis may see the triangle clockwise).
    #[test]
    fn sliver_triangle_witness_reproduces_point_in_every_vertex_order() {
        let p = DVec3::new(-405.42707369704, -999.9996103153114, -999.7949160129006);
        let v = [
            DVec3::new(-1000.0, -1000.0, -1000.0),
            DVec3::new(-257.813, -1000.0, -999.744),
            DVec3::new(-1000.0, -999.961, -1000.0),
        ];
        for perm in [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
            [0, 2, 1],
            [1, 0, 2],
        ] {
            let mut s = Simplex::<DVec3>::new();
            for &i in &perm {
                s.push(SupportPoint {
                    w: v[i] - p,
                    a: v[i],
                    b: p,
                });
            }
            let x = s.reduce();
            let (wa, _) = s.witnesses();
            assert!(x.length() < 1e-11, "{perm:?}: {x:?}");
            assert!((wa - p).length() < 1e-11, "{perm:?}: {:?}", wa - p);
        }
    }

    /// Found by fuzzing: a 2e11-long needle with a 1.5e3 base. The old flatness test (height
    /// against longest edge) dropped to the best edge, 130 off, and GJK looped to its cap.
    #[test]
    fn needle_triangle_is_projected_not_collapsed_to_an_edge() {
        let pts = [
            DVec3::new(359.43090654517107, 1492.5237065664603, -792.6220070991047),
            DVec3::new(217.2459065451711, -273.20329343353967, 370.46699290089543),
            DVec3::new(-212693517605.2228, 1519.6447065664604, 1000.2849929008954),
        ];
        let mut s = Simplex::<DVec3>::new();
        for p in pts {
            s.push(SupportPoint {
                w: p,
                a: p,
                b: DVec3::ZERO,
            });
        }
        let x = s.reduce();
        let want = super::tests::brute_force_distance(&pts);
        assert!((x.length() - want).abs() < 1e-6, "{} vs {want}", x.length());
        assert_eq!(s.len, 3);
    }
}
