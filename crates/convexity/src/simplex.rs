//! The GJK simplex and its closest point to the origin: a dimension-free distance
//! subalgorithm.
//!
//! Source: Gilbert, Johnson & Keerthi (1988), "A fast procedure for computing the distance
//! between complex objects"; the recursive form follows van den Bergen, *Collision Detection
//! in Interactive 3D Environments* (2003), §4.3.
//!
//! The closest point of `conv(S)` to the origin is found from dot products only, so 2D and 3D
//! share this code:
//! 1. Project the origin onto the affine hull of `S` by solving the Gram system
//!    `G μ = −Eᵀ p₀` with `Eᵢ = pᵢ − p₀` (at most 3×3 here), giving barycentric weights λ.
//! 2. If every λᵢ > 0 the projection is the answer. Otherwise the answer lies on a facet that
//!    the projection "sees", i.e. one opposite a vertex with λᵢ ≤ 0; recurse on those facets
//!    and keep the closest. (Proof: within the affine hull, `|x|² = |q|² + |x − q|²` with `q`
//!    the projection, so the closest point of `conv(S)` to the origin is the closest to `q`,
//!    and that lies on a facet separating `q` from the simplex.)
//! 3. A singular Gram system (flat simplex) is handled by recursing on all facets.
//!
//! Complexity: at most 15 sub-simplices for 4 points; O(1). Failure modes: none: a nearly
//! degenerate simplex is treated as flat when the pivot of its Gram matrix falls below
//! `1e-14` of the largest diagonal entry, and its facets answer.

use crate::minkowski::SupportPoint;
use crate::vector::Vector;

/// Up to four support points with the barycentric weights of the closest point.
#[derive(Clone, Copy, Debug, Default)]
pub struct Simplex<V> {
    pub pts: [SupportPoint<V>; 4],
    pub weights: [f64; 4],
    pub len: usize,
}

impl<V: Vector> Simplex<V> {
    pub fn new() -> Self {
        Simplex {
            pts: [SupportPoint::default(); 4],
            weights: [0.0; 4],
            len: 0,
        }
    }

    pub fn points(&self) -> &[SupportPoint<V>] {
        &self.pts[..self.len]
    }

    /// Adds a point (the caller ensures `len < 4`).
    #[inline]
    pub fn push(&mut self, p: SupportPoint<V>) {
        if self.len < 4 {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    /// Whether a point with the same `w` is already present (exactly).
    #[inline]
    pub fn contains(&self, w: V) -> bool {
        self.pts[..self.len].iter().any(|p| p.w == w)
    }

    /// Reduces to the smallest sub-simplex whose hull holds the closest point to the origin and
    /// returns that point.
    pub fn reduce(&mut self) -> V {
        let ws: [V; 4] = core::array::from_fn(|i| self.pts[i].w);
        let full = (1u8 << self.len) - 1;
        let (_, lambda, mask) = closest_subset(&ws, full);
        let mut out = Simplex::new();
        for i in 0..self.len {
            if mask & (1 << i) != 0 {
                out.pts[out.len] = self.pts[i];
                out.weights[out.len] = lambda[i];
                out.len += 1;
            }
        }
        *self = out;
        self.closest()
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

/// Closest point of the hull of the points selected by `mask`: (squared distance, weights
/// indexed like `ws`, mask of the points with positive weight).
fn closest_subset<V: Vector>(ws: &[V; 4], mask: u8) -> (f64, [f64; 4], u8) {
    let mut idx = [0usize; 4];
    let mut k = 0;
    for (i, slot) in (0..4).filter(|i| mask & (1 << i) != 0).zip(0..) {
        idx[slot] = i;
        k += 1;
    }
    let mut lambda = [0.0; 4];
    if k == 1 {
        lambda[idx[0]] = 1.0;
        return (ws[idx[0]].length_squared(), lambda, mask);
    }
    let proj = project(ws, &idx[..k]);
    if let Some(l) = proj {
        if idx[..k].iter().all(|&i| l[i] > 0.0) {
            let mut x = V::ZERO;
            for &i in &idx[..k] {
                x += ws[i] * l[i];
            }
            return (x.length_squared(), l, mask);
        }
    }
    let mut best = (f64::INFINITY, lambda, 0u8);
    for &i in &idx[..k] {
        let sees_facet = match proj {
            Some(l) => l[i] <= 0.0,
            None => true,
        };
        if sees_facet {
            let r = closest_subset(ws, mask & !(1 << i));
            if r.0 < best.0 {
                best = r;
            }
        }
    }
    best
}

/// Barycentric weights of the origin's projection onto the affine hull of `ws[idx]`, or `None`
/// when the points are affinely dependent (to the pivot threshold).
fn project<V: Vector>(ws: &[V; 4], idx: &[usize]) -> Option<[f64; 4]> {
    let k = idx.len() - 1;
    // Use the last point as the base: in GJK it is usually the newest and the nearest.
    let p0 = ws[idx[k]];
    let mut e = [V::ZERO; 3];
    for j in 0..k {
        e[j] = ws[idx[j]] - p0;
    }
    let mut g = [[0.0f64; 4]; 3];
    let mut max_diag: f64 = 0.0;
    for r in 0..k {
        for c in 0..k {
            g[r][c] = e[r].dot(e[c]);
        }
        g[r][3] = -e[r].dot(p0);
        max_diag = max_diag.max(g[r][r]);
    }
    if max_diag <= 0.0 {
        return None;
    }
    // Gaussian elimination with partial pivoting on the k×k system.
    let mut perm = [0usize, 1, 2];
    for col in 0..k {
        let mut piv = col;
        for r in col + 1..k {
            if g[perm[r]][col].abs() > g[perm[piv]][col].abs() {
                piv = r;
            }
        }
        perm.swap(col, piv);
        let pr = perm[col];
        if g[pr][col].abs() <= 1e-14 * max_diag {
            return None;
        }
        for r in col + 1..k {
            let rr = perm[r];
            let f = g[rr][col] / g[pr][col];
            for c in col..4 {
                g[rr][c] -= f * g[pr][c];
            }
        }
    }
    let mut mu = [0.0f64; 3];
    for col in (0..k).rev() {
        let pr = perm[col];
        let mut s = g[pr][3];
        for c in col + 1..k {
            s -= g[pr][c] * mu[c];
        }
        mu[col] = s / g[pr][col];
    }
    let mut l = [0.0; 4];
    let mut sum = 0.0;
    for j in 0..k {
        l[idx[j]] = mu[j];
        sum += mu[j];
    }
    l[idx[k]] = 1.0 - sum;
    if l.iter().all(|x| x.is_finite()) {
        Some(l)
    } else {
        None
    }
}
