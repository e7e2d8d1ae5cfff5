//! Two oriented boxes in 3D: the separating axis test with a precomputed rotation, and a common
//! point of two overlapping boxes by vertex tests and edge clipping. The 3D hot path of the
//! box–box closed forms in [`crate::gjk::closed_form`].
//!
//! Source: the 15-axis test of Gottschalk, Lin & Manocha, "OBBTree: a hierarchical structure
//! for rapid interference detection", SIGGRAPH 1996, in the form of Ericson, *Real-Time
//! Collision Detection* (2005), §4.4.1: with `R` the rotation of B in A's frame (`r[i][j] =
//! aᵢ·bⱼ`) and `t` B's centre, every projected radius is a sum of `h·|r|` terms, so an axis
//! costs a handful of multiplications and no normalisation. The edge axis `aᵢ × bⱼ` is left
//! unnormalised: its length is `√(r[i₁][j]² + r[i₂][j]²)` (the other two components of `bⱼ`),
//! and only an axis that separates is normalised for its certificate.
//!
//! Common point: two convex polytopes intersect exactly when a vertex of one lies in the other
//! or an edge of one crosses a face of the other (every vertex of `A ∩ B` is one of those). So
//! the 8 + 8 vertices are tested, then the 12 + 12 edges are clipped against the other box's
//! slabs (Liang–Barsky) and the middle of the clipped part is taken. Cheaper candidates go
//! first: the two centres, A's centre moved to its nearest point in B, and — when the caller
//! has the deepest axis — the two corners deepest along it and, for an edge pair, the closest
//! point of the two support edges. On the speed set's box pairs the vertex and edge search ran
//! for 205 of 2,000 rows with the centres alone, 61 with the corners, none with the edge point.
//! Every candidate is clamped into A and accepted only when it is within `slack` of B, the same
//! acceptance test as the alternating projections it replaces.
//!
//! Complexity: at most 15 axes (≈ 10 flops each) and 16 vertex tests plus 24 clips. No
//! allocation. Preconditions: finite half extents ≥ 0, a rotation matrix, finite `t`. Failure
//! modes: none; a candidate lost to rounding (an overlap thinner than the slack) yields `None`
//! and the caller falls back to GJK.

use crate::math::arr3;
use core::hint::select_unpredictable;

/// Three coordinates (A's frame unless said otherwise).
pub(crate) type V3 = [f64; 3];

/// The box pair: A is `[-ha, ha]` at the origin, B is `[-hb, hb]` rotated by `r` (columns: B's
/// axes in A's frame) and centred at `t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Obb3 {
    pub ha: V3,
    pub hb: V3,
    pub r: [V3; 3],
    pub abs_r: [V3; 3],
    pub t: V3,
}

/// Which family the best axis of [`Obb3::deepest`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Feature {
    /// A face normal of A.
    FaceA,
    /// A face normal of B.
    FaceB,
    /// The cross product of A's edge direction `i` and B's edge direction `j`.
    Edge(usize, usize),
}

/// What the separating axis test found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sat {
    /// An axis separating by more than the tolerance: unit axis from A toward B, and the gap.
    Separated(V3, f64),
    /// The largest separation is in `(0, tol]`: touching or a hair apart, undecided here.
    Close,
    /// No axis separates: the boxes overlap (up to rounding).
    Overlap,
}

#[inline(always)]
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `−1` for a negative `x`, else `1`.
#[inline(always)]
fn sign(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// The squared distance from `p` to the box `[-h, h]`.
#[inline(always)]
fn outside2(p: V3, h: V3) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let e = (p[k].abs() - h[k]).max(0.0);
        s += e * e;
    }
    s
}

#[inline(always)]
fn clamp(p: V3, h: V3) -> V3 {
    [
        p[0].clamp(-h[0], h[0]),
        p[1].clamp(-h[1], h[1]),
        p[2].clamp(-h[2], h[2]),
    ]
}

/// The part `[u0, u1]` of the segment `p + u·d` (`u ∈ [0, 1]`) inside the box `[-h, h]`, as
/// its middle parameter; `None` when it misses.
#[inline(always)]
fn clip(p: V3, d: V3, h: V3) -> Option<f64> {
    let (mut u0, mut u1) = (0.0f64, 1.0f64);
    for k in 0..3 {
        if d[k] == 0.0 {
            if p[k].abs() > h[k] {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d[k];
        let (mut lo, mut hi) = ((-h[k] - p[k]) * inv, (h[k] - p[k]) * inv);
        if lo > hi {
            core::mem::swap(&mut lo, &mut hi);
        }
        u0 = u0.max(lo);
        u1 = u1.min(hi);
    }
    (u0 <= u1).then_some(0.5 * (u0 + u1))
}

impl Obb3 {
    /// The pair from B's rotation matrix columns in A's frame (`cols[j]` = B's axis j) and
    /// centre `t`.
    #[inline(always)]
    pub fn new(ha: V3, hb: V3, cols: [V3; 3], t: V3) -> Self {
        let r: [V3; 3] = arr3(|i| arr3(|j| cols[j][i]));
        let abs_r = arr3(|i| arr3(|j| r[i][j].abs()));
        Obb3 {
            ha,
            hb,
            r,
            abs_r,
            t,
        }
    }

    /// B's axis j in A's frame.
    #[inline(always)]
    fn col(&self, j: usize) -> V3 {
        [self.r[0][j], self.r[1][j], self.r[2][j]]
    }

    /// `p` (A's frame) in B's frame: `Rᵀ (p − t)`.
    #[inline(always)]
    fn in_b(&self, p: V3) -> V3 {
        let q = [p[0] - self.t[0], p[1] - self.t[1], p[2] - self.t[2]];
        arr3(|j| dot(q, self.col(j)))
    }

    /// `y` (B's frame) in A's frame: `R y + t`.
    #[inline(always)]
    pub fn b_to_a(&self, y: V3) -> V3 {
        arr3(|i| dot(self.r[i], y) + self.t[i])
    }

    /// The edge axis `L = aᵢ × bⱼ` (see `edge_terms`): `Some` when it separates by more than
    /// `tol`; otherwise `best` takes its separation.
    #[inline(always)]
    fn edge<const I: usize, const J: usize>(&self, tol: f64, best: &mut f64) -> Option<Sat> {
        let (num, tl, len2) = self.edge_terms(I, J)?;
        if !(num > 0.0) {
            return None;
        }
        // The certificate's gap is measured along the unit axis itself (its radii from real
        // projections): the formulas above assume an exactly orthonormal R, which rounding
        // breaks by ε, and an edge axis of length 1e-6 would magnify that by 1e6.
        let n = self.edge_unit(I, J, tl, len2.sqrt());
        let s = self.separation(n);
        if s > tol {
            return Some(Sat::Separated(n, s));
        }
        *best = best.max(s);
        None
    }

    /// The separation along A's face axis i (exact: the axis is `±aᵢ`, sign of `t_i`).
    #[inline(always)]
    fn face_a(&self, i: usize) -> f64 {
        self.t[i].abs() - self.ha[i] - dot(self.hb, self.abs_r[i])
    }

    /// The separation along B's face axis j, and `t·bⱼ` (whose sign orients the axis).
    #[inline(always)]
    fn face_b(&self, j: usize) -> (f64, f64) {
        let (ha, ar) = (self.ha, &self.abs_r);
        let tc = dot(self.t, self.col(j));
        let s = tc.abs() - (ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j]) - self.hb[j];
        (s, tc)
    }

    /// The unnormalised edge axis `L = aᵢ × bⱼ`: `(|t·L| − r_A − r_B, t·L, |L|²)`, `None` for
    /// nearly parallel edges (`|L|² ≤ 1e-12`: the face axes cover them).
    ///
    /// With `{i, i1, i2}` and `{j, j1, j2}` cyclic: `L`'s non-zero components are
    /// `L_i1 = −r[i2][j]` and `L_i2 = r[i1][j]`, so A's radius is
    /// `ha_i1·|r[i2][j]| + ha_i2·|r[i1][j]|`, and B's is `hb_j1·|r[i][j2]| + hb_j2·|r[i][j1]|`
    /// (`bₘ·(aᵢ × bⱼ) = aᵢ·(bⱼ × bₘ) = ±r[i][l]` for `{j, m, l}` distinct).
    #[inline(always)]
    fn edge_terms(&self, i: usize, j: usize) -> Option<(f64, f64, f64)> {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let (r, ar, t) = (&self.r, &self.abs_r, self.t);
        let len2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        if len2 <= 1e-12 {
            return None;
        }
        let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let num = tl.abs()
            - (self.ha[i1] * ar[i2][j] + self.ha[i2] * ar[i1][j])
            - (self.hb[j1] * ar[i][j2] + self.hb[j2] * ar[i][j1]);
        Some((num, tl, len2))
    }

    /// The unit edge axis `±(aᵢ × bⱼ)/|L|`, oriented by the sign of `t·L`.
    #[inline(always)]
    fn edge_unit(&self, i: usize, j: usize, tl: f64, len: f64) -> V3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let k = sign(tl) / len;
        let mut n = [0.0; 3];
        n[i1] = -self.r[i2][j] * k;
        n[i2] = self.r[i1][j] * k;
        n
    }

    /// The axis of largest separation over all 15 (for a penetration, the depth is minus that
    /// separation): `(separation, unit axis from A toward B, its family)`. Face axes first, so
    /// a tie keeps a face axis. An edge axis's separation comes from its unnormalised form (an
    /// error of `ε / |L|` relative, `|L|² > 1e-12`); the winner's is re-measured along its unit
    /// axis.
    pub fn deepest(&self) -> (f64, V3, Feature) {
        // The running maximum keeps the winner's index (0–2 A's faces, 3–5 B's, 6–14 the
        // edge pairs) by selects, and the winner's axis is formed once after the scan: which
        // of the 15 axes wins is data, and the branch per axis was mispredicted 3.3 times a
        // query (callgrind branch-sim, box set distance).
        let mut best = f64::NEG_INFINITY;
        let mut k = 0usize;
        let mut take = |s: f64, at: usize| {
            let more = s > best;
            best = select_unpredictable(more, s, best);
            k = select_unpredictable(more, at, k);
        };
        for i in 0..3 {
            take(self.face_a(i), i);
        }
        for j in 0..3 {
            take(self.face_b(j).0, 3 + j);
        }
        for i in 0..3 {
            for j in 0..3 {
                if let Some((num, _, len2)) = self.edge_terms(i, j) {
                    take(num / len2.sqrt(), 6 + 3 * i + j);
                }
            }
        }
        if k < 3 {
            let mut axis = [0.0; 3];
            axis[k] = sign(self.t[k]);
            (best, axis, Feature::FaceA)
        } else if k < 6 {
            let (s, tc) = self.face_b(k - 3);
            (s, self.col(k - 3).map(|x| x * sign(tc)), Feature::FaceB)
        } else {
            let (i, j) = ((k - 6) / 3, (k - 6) % 3);
            match self.edge_terms(i, j) {
                Some((_, tl, len2)) => {
                    let n = self.edge_unit(i, j, tl, len2.sqrt());
                    (self.separation(n), n, Feature::Edge(i, j))
                }
                None => (best, [1.0, 0.0, 0.0], Feature::FaceA),
            }
        }
    }

    /// The point of A nearest to `x`.
    #[inline(always)]
    pub fn nearest_in_a(&self, x: V3) -> V3 {
        clamp(x, self.ha)
    }

    /// The point of B nearest to `x` (both in A's frame).
    #[inline(always)]
    pub fn nearest_in_b(&self, x: V3) -> V3 {
        self.b_to_a(clamp(self.in_b(x), self.hb))
    }

    /// A's corner farthest along `n`.
    #[inline(always)]
    pub fn corner_a(&self, n: V3) -> V3 {
        arr3(|k| sign(n[k]) * self.ha[k])
    }

    /// B's corner farthest along `−n`, in B's frame.
    #[inline(always)]
    pub fn corner_b(&self, n: V3) -> V3 {
        arr3(|j| -sign(dot(self.col(j), n)) * self.hb[j])
    }

    /// The ends of A's edge through `corner` (A's corner) along A's axis `i`, and of B's edge
    /// through `corner` (B's corner, B's frame) along B's axis `j`, all in A's frame.
    #[inline(always)]
    pub fn edge_ends(&self, ca: V3, i: usize, cb: V3, j: usize) -> [V3; 4] {
        let (mut a0, mut a1, mut b0, mut b1) = (ca, ca, cb, cb);
        a0[i] = -self.ha[i];
        a1[i] = self.ha[i];
        b0[j] = -self.hb[j];
        b1[j] = self.hb[j];
        [a0, a1, self.b_to_a(b0), self.b_to_a(b1)]
    }

    /// The separation of the projections on the unit axis `n` (A's frame) pointing from A
    /// toward B: `n·t − Σ ha_k |n_k| − Σ hb_j |bⱼ·n|`.
    #[inline(always)]
    pub fn separation(&self, n: V3) -> f64 {
        let ra = self.ha[0] * n[0].abs() + self.ha[1] * n[1].abs() + self.ha[2] * n[2].abs();
        let rb: f64 = (0..3).map(|j| self.hb[j] * dot(self.col(j), n).abs()).sum();
        dot(self.t, n) - ra - rb
    }

    /// The separating axis test: the first axis (A's faces, B's faces, then the nine edge
    /// pairs) that separates by more than `tol`, else whether any separates at all.
    #[inline(always)]
    pub fn sat(&self, tol: f64) -> Sat {
        let mut best = f64::NEG_INFINITY;
        for i in 0..3 {
            let s = self.face_a(i);
            if s > tol {
                let mut axis = [0.0; 3];
                axis[i] = sign(self.t[i]);
                return Sat::Separated(axis, s);
            }
            best = best.max(s);
        }
        for j in 0..3 {
            let (s, tc) = self.face_b(j);
            if s > tol {
                return Sat::Separated(self.col(j).map(|x| x * sign(tc)), s);
            }
            best = best.max(s);
        }
        // Edge axes, unrolled (constant indices keep everything in registers).
        macro_rules! edges {
            ($($i:literal $j:literal),*) => {$(
                if let Some(v) = self.edge::<$i, $j>(tol, &mut best) {
                    return v;
                }
            )*};
        }
        edges!(0 0, 0 1, 0 2, 1 0, 1 1, 1 2, 2 0, 2 1, 2 2);
        if best > 0.0 {
            Sat::Close
        } else {
            Sat::Overlap
        }
    }

    /// A point in A and within `slack` of B (A's frame), for boxes the test found overlapping;
    /// `None` when every candidate misses by more than the slack (see the module header).
    /// `deepest`: the best axis of [`Obb3::deepest`] when the caller has it, with what gives,
    /// for an edge pair, the closest point of A's support edge to B's
    /// (`closed_form::support_edges_closest`; formed only if the corners miss): the two
    /// deepest corners and that point are tried before the other vertices.
    pub fn common_point(
        &self,
        slack: f64,
        deepest: Option<(V3, impl FnOnce() -> Option<V3>)>,
    ) -> Option<V3> {
        let s2 = slack * slack;
        let accept = |x: V3| {
            let x = clamp(x, self.ha);
            (outside2(self.in_b(x), self.hb) <= s2).then_some(x)
        };
        // The centres.
        if let Some(x) = accept(self.t) {
            return Some(x);
        }
        if outside2(self.in_b([0.0; 3]), self.hb) <= s2 {
            return Some([0.0; 3]);
        }
        // A's centre moved to its nearest point in B (and clamped back into A): the first
        // round of alternating projections from A's centre. On random boxes of comparable
        // size it finds half of the overlaps the centres miss, the deepest corners half of
        // the rest, the support edges' closest point all the others; all are points the box
        // lanes already hold (`batch::box_lanes`).
        if let Some(x) = accept(self.nearest_in_b([0.0; 3])) {
            return Some(x);
        }
        if let Some((n, edge_point)) = deepest {
            if let Some(x) = accept(self.b_to_a(self.corner_b(n))) {
                return Some(x);
            }
            let u = self.corner_a(n);
            if outside2(self.in_b(u), self.hb) <= s2 {
                return Some(u);
            }
            // Boxes whose best axis is an edge pair and whose deepest corners lie outside the
            // other box cross edge through edge: the closest point of the two support edges
            // is then common (on random boxes, every pair the candidates above missed).
            if let Some(x) = edge_point().and_then(accept) {
                return Some(x);
            }
        }
        let signs = |k: usize| {
            [
                if k & 1 == 0 { -1.0 } else { 1.0 },
                if k & 2 == 0 { -1.0 } else { 1.0 },
                if k & 4 == 0 { -1.0 } else { 1.0 },
            ]
        };
        // B's vertices in A, A's vertices in B.
        let vb = |k: usize| {
            let s = signs(k);
            self.b_to_a([s[0] * self.hb[0], s[1] * self.hb[1], s[2] * self.hb[2]])
        };
        for k in 0..8 {
            let v = vb(k);
            if outside2(v, self.ha) <= s2 {
                if let Some(x) = accept(v) {
                    return Some(x);
                }
            }
        }
        for k in 0..8 {
            let s = signs(k);
            let u = [s[0] * self.ha[0], s[1] * self.ha[1], s[2] * self.ha[2]];
            if outside2(self.in_b(u), self.hb) <= s2 {
                return Some(u);
            }
        }
        // B's edges clipped against A (A's frame): the four edges along B's axis j start at
        // the vertices with sign −1 on j.
        for j in 0..3 {
            let c = self.col(j);
            let d = c.map(|x| x * 2.0 * self.hb[j]);
            for k in (0..8).filter(|k| k & (1 << j) == 0) {
                let p = vb(k);
                if let Some(u) = clip(p, d, self.ha) {
                    if let Some(x) = accept(arr3(|m| p[m] + d[m] * u)) {
                        return Some(x);
                    }
                }
            }
        }
        // A's edges clipped against B (B's frame), mapped back.
        for i in 0..3 {
            let d = arr3(|j| self.r[i][j] * 2.0 * self.ha[i]);
            for k in (0..8).filter(|k| k & (1 << i) == 0) {
                let s = signs(k);
                let p = self.in_b([s[0] * self.ha[0], s[1] * self.ha[1], s[2] * self.ha[2]]);
                if let Some(u) = clip(p, d, self.hb) {
                    let y = arr3(|m| p[m] + d[m] * u);
                    if let Some(x) = accept(self.b_to_a(y)) {
                        return Some(x);
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::test_rng::lcg;
    use glam::{DMat3, DQuat, DVec3};

    /// Random overlapping box pairs of comparable size (B rotated, its centre within reach).
    fn overlapping_pairs(n: usize) -> Vec<(Obb3, DMat3, DVec3)> {
        let mut s = 0x0bb3_u64;
        let mut r = |lo: f64, hi: f64| lo + (hi - lo) * 0.5 * (lcg(&mut s) + 1.0);
        let mut out = Vec::new();
        while out.len() < n {
            let ha = [r(0.3, 1.0), r(0.3, 1.0), r(0.3, 1.0)];
            let hb = [r(0.3, 1.0), r(0.3, 1.0), r(0.3, 1.0)];
            let q = DQuat::from_xyzw(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0));
            if q.length() < 0.1 {
                continue;
            }
            let m = DMat3::from_quat(q.normalize());
            let t = DVec3::new(r(-1.8, 1.8), r(-1.8, 1.8), r(-1.8, 1.8));
            let cols = [
                m.x_axis.to_array(),
                m.y_axis.to_array(),
                m.z_axis.to_array(),
            ];
            let obb = Obb3::new(ha, hb, cols, t.to_array());
            if obb.sat(1e-10) == Sat::Overlap {
                out.push((obb, m, t));
            }
        }
        out
    }

    #[test]
    fn common_point_lies_in_both_boxes_with_and_without_the_deepest_axis() {
        let slack = 1e-9;
        let (mut found, mut pairs) = (0, overlapping_pairs(3000));
        // Touching faces too: B shifted so that its deepest point along the best axis sits on
        // A's surface (overlap zero up to rounding).
        let touching: Vec<_> = pairs
            .iter()
            .map(|(obb, m, t)| {
                let (sep, n, _) = obb.deepest();
                let t = *t + DVec3::from_array(n) * sep;
                let cols = [
                    m.x_axis.to_array(),
                    m.y_axis.to_array(),
                    m.z_axis.to_array(),
                ];
                (Obb3::new(obb.ha, obb.hb, cols, t.to_array()), *m, t)
            })
            .collect();
        pairs.extend(touching);
        for (obb, m, t) in &pairs {
            let (_, n, _) = obb.deepest();
            for hint in [None, Some((n, || None))] {
                let Some(x) = obb.common_point(slack, hint) else {
                    continue;
                };
                found += 1;
                // In A exactly; within the slack of B, measured in B's frame through glam.
                let x = DVec3::from_array(x);
                assert!((0..3).all(|k| x[k].abs() <= obb.ha[k]), "{x} not in A");
                let y = m.transpose() * (x - *t);
                let out = DVec3::from_array(obb.hb);
                let excess = (y.abs() - out).max(DVec3::ZERO).length();
                assert!(
                    excess <= slack * (1.0 + 1e-6) + 1e-15,
                    "{x}: {excess} outside B"
                );
            }
        }
        // Every deep pair gives a point both ways; touching pairs may miss by rounding.
        assert!(found >= 2 * 3000, "{found}");
    }
}
