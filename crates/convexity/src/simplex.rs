//! The GJK simplex and its closest point to the origin: a dimension-free distance
//! subalgorithm.
//!
//! Source: Gilbert, Johnson & Keerthi (1988), "A fast procedure for computing the distance
//! between complex objects"; the recursive form follows van den Bergen, *Collision Detection
//! in Interactive 3D Environments* (2003), §4.3.
//!
//! The code is shared by 2D and 3D; only [`Vector::det`] knows the dimension:
//! * segment: clamp `t = −a·(b−a)/|b−a|²`;
//! * lower-dimensional triangle (3D): the origin is projected onto the plane with a
//!   Gram–Schmidt basis (longest edge first, then the shorter edge at one of its ends) and the
//!   region is decided by signed sub-areas in that basis, as for full simplices. Ericson's
//!   region tests and Cramer-rule weights were used first; fuzzing showed both failing on
//!   slivers and needles (a point 6e-6 off the plane of a 742 × 0.039 triangle; a wrong edge
//!   region on a 9e10 × 2e3 needle) because they multiply dot products, whose rounding is
//!   cond(G)·ε, while the projection and sub-areas are accurate relative to their own vectors.
//! * full simplex (triangle in 2D, tetrahedron in 3D): signed volumes (Montanari, Petrella &
//!   Cavallaro, "Improving the GJK algorithm for faster and more reliable distance queries
//!   between convex objects", ACM TOG 36(3), 2017). The barycentric weight of vertex i is
//!   `det(…, 0 in place of pᵢ, …) / det(p)`: each numerator is a determinant of that facet's
//!   own vectors, so the "origin beyond facet i" decision is accurate however flat the simplex.
//!   When some weight is ≤ 0 the closest point lies on a facet opposite such a vertex: within
//!   the affine hull `|x|² = |q|² + |x − q|²` for the projection `q`, so the closest point of
//!   the simplex is the one closest to `q`, on a facet separating `q` from the simplex.
//!
//! The closed forms replace a generic recursive solve because the benchmark showed the simplex
//! step at more than half of GJK's cost (≈470 instructions per call before).
//!
//! Complexity: O(1). Failure modes: none. A triangle too flat for its projection to beat its
//! best edge (see `plane_projection`) falls back to that edge;
//! a flat full simplex (|det| below `1e-14` of the product of its edge lengths) falls back to
//! all of its facets.

use crate::minkowski::SupportPoint;
use crate::vector::Vector;

/// Up to four support points with the barycentric weights of the closest point.
#[derive(Clone, Copy, Debug, Default)]
pub struct Simplex<V> {
    pub pts: [SupportPoint<V>; 4],
    pub weights: [f64; 4],
    pub len: usize,
    /// The closest point found by the last [`reduce`](Simplex::reduce).
    pub v: V,
}

impl<V: Vector> Simplex<V> {
    pub fn new() -> Self {
        Simplex {
            pts: [SupportPoint::default(); 4],
            weights: [0.0; 4],
            len: 0,
            v: V::ZERO,
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
        let ws: [V; 4] = [self.pts[0].w, self.pts[1].w, self.pts[2].w, self.pts[3].w];
        let sol = match self.len {
            0 => return V::ZERO,
            1 => Sol::vertex(&ws, 0),
            2 => segment(&ws, 0, 1),
            3 if V::DIM == 2 => full_simplex(&ws, 3),
            3 => triangle(&ws, 0, 1, 2),
            _ => full_simplex(&ws, 4),
        };
        let mut n = 0;
        for i in 0..self.len {
            if sol.mask & (1 << i) != 0 {
                self.pts[n] = self.pts[i];
                self.weights[n] = sol.l[i];
                n += 1;
            }
        }
        self.len = n;
        self.v = sol.x;
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
#[derive(Clone, Copy)]
struct Sol<V> {
    x: V,
    d2: f64,
    l: [f64; 4],
    mask: u8,
}

impl<V: Vector> Sol<V> {
    #[inline]
    fn vertex(ws: &[V; 4], i: usize) -> Self {
        let mut l = [0.0; 4];
        l[i] = 1.0;
        Sol {
            x: ws[i],
            d2: ws[i].length_squared(),
            l,
            mask: 1 << i,
        }
    }

    #[inline]
    fn edge(ws: &[V; 4], i: usize, j: usize, t: f64) -> Self {
        let mut l = [0.0; 4];
        l[i] = 1.0 - t;
        l[j] = t;
        let x = ws[i] + (ws[j] - ws[i]) * t;
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
#[inline]
fn segment<V: Vector>(ws: &[V; 4], i: usize, j: usize) -> Sol<V> {
    let (i, j) = if ws[j].length_squared() < ws[i].length_squared() {
        (j, i)
    } else {
        (i, j)
    };
    let a = ws[i];
    let ab = ws[j] - a;
    let den = ab.length_squared();
    let num = -a.dot(ab);
    if !(den > 0.0) || num <= 0.0 {
        Sol::vertex(ws, i)
    } else if num >= den {
        Sol::vertex(ws, j)
    } else {
        Sol::edge(ws, i, j, num / den)
    }
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
/// than the whole space (3D).
///
/// The origin is projected onto the plane (see [`plane_projection`]) and the decision is made
/// by the signed areas of the sub-triangles `(x, q, r)` in the plane's own 2D basis: all
/// positive means the projection is inside; otherwise the closest point lies on an edge
/// opposite a vertex with non-positive area, by the same argument as for full simplices.
/// Ericson's region tests were used first, but they multiply dot products (4th powers of
/// lengths) and misjudged a 9e10-long needle against a 2e3 base, stalling GJK (fuzzing).
fn triangle<V: Vector>(ws: &[V; 4], i: usize, j: usize, k: usize) -> Sol<V> {
    let (a, b, c) = (ws[i], ws[j], ws[k]);
    let (x, u1, u2) = match plane_projection(a, b, c) {
        Some(r) => r,
        None => return best_edge(ws, i, j, k),
    };
    let to2 = |q: V| {
        let d = q - x;
        (d.dot(u1), d.dot(u2))
    };
    let (xa, xb, xc) = (to2(a), to2(b), to2(c));
    let cross = |p: (f64, f64), q: (f64, f64)| p.0 * q.1 - p.1 * q.0;
    let area = [cross(xb, xc), cross(xc, xa), cross(xa, xb)];
    // The basis may see the triangle clockwise: orient so that the total area is positive.
    let total = area[0] + area[1] + area[2];
    let sign = if total < 0.0 { -1.0 } else { 1.0 };
    let area = area.map(|s| s * sign);
    if area.iter().all(|&s| s > 0.0) {
        let t = total * sign;
        let mut l = [0.0; 4];
        l[i] = area[0] / t;
        l[j] = area[1] / t;
        l[k] = area[2] / t;
        return Sol {
            x,
            d2: x.length_squared(),
            l,
            mask: (1 << i) | (1 << j) | (1 << k),
        };
    }
    let edges = [(j, k), (k, i), (i, j)];
    let mut best = Sol::none();
    for (opposite, &(p, q)) in edges.iter().enumerate() {
        if area[opposite] <= 0.0 {
            let s = segment(ws, p, q);
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

/// The origin's orthogonal projection onto the plane through `a, b, c`, by modified
/// Gram–Schmidt: the first axis along the longest edge, the second from the shorter of the two
/// edges that meet it at one of its ends (the best-conditioned choice for needles and slivers).
/// Returns the projection and the orthonormal basis `(u1, u2)` of the plane.
///
/// `None` means the triangle is too flat for the projection to beat its best edge. With `h`
/// the height over the first axis, `e2` the second edge and `y` the origin's offset from the
/// first axis' line, the projection's rounding is about `ε·|y|·|e2|/h` (the second axis is
/// found by a cancelling subtraction), while the best edge is at most `h` from the answer;
/// so the projection is used when `h² > 16·ε·|y|·|e2|`. (An earlier test of `h` against the
/// longest edge rejected a 2e11 × 1.5e3 needle whose projection was accurate to 2e-5 and
/// whose best edge was 130 off; fuzzing found it.)
fn plane_projection<V: Vector>(a: V, b: V, c: V) -> Option<(V, V, V)> {
    let (lab, lbc, lca) = (
        (b - a).length_squared(),
        (c - b).length_squared(),
        (a - c).length_squared(),
    );
    // Longest edge (p, q) and the third vertex r.
    let (p, q, r) = if lab >= lbc && lab >= lca {
        (a, b, c)
    } else if lbc >= lca {
        (b, c, a)
    } else {
        (c, a, b)
    };
    let (e1, e2) = if (r - p).length_squared() <= (r - q).length_squared() {
        (q - p, r - p)
    } else {
        (p - q, r - q)
    };
    let u1 = e1.try_normalize()?;
    let h = e2 - u1 * e2.dot(u1);
    // The basis does not depend on where the plane is anchored, but the projection's rounding
    // is ε times the anchor's norm: anchor at the vertex nearest the origin. (Anchored at a
    // 4e11-far vertex, the projection's direction was off by 3.5e-9 rad, enough to pick the
    // wrong support vertex of a 4e11 needle and stop 825 away from a point inside it.)
    let anchor = [a, b, c]
        .into_iter()
        .min_by(|p, q| p.length_squared().total_cmp(&q.length_squared()))
        .unwrap_or(a);
    let y = anchor - u1 * anchor.dot(u1);
    let h2 = h.length_squared();
    if !(h2 > 16.0 * f64::EPSILON * y.length() * e2.length()) {
        return None;
    }
    let u2 = h.try_normalize()?;
    Some((y - u2 * y.dot(u2), u1, u2))
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
    let mut others = [0usize; 3];
    let mut c = 0;
    for i in (0..n).filter(|&i| i != base) {
        others[c] = i;
        c += 1;
    }
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
        // Weight of vertex others[j]: replace edge j by (0 − p0), i.e. the signed volume of
        // the sub-simplex in which the origin takes that vertex's place. The base's weight is
        // the rest.
        let mut sum = 0.0;
        for j in 0..m {
            let mut f = e;
            f[j] = -p0;
            let w = V::det(&f[..m]) / total;
            l[others[j]] = w;
            sum += w;
        }
        l[base] = 1.0 - sum;
        if l[..n].iter().all(|&x| x > 0.0) {
            return Sol {
                x: V::ZERO,
                d2: 0.0,
                l,
                mask: ((1u16 << n) - 1) as u8,
            };
        }
    }
    let mut best = Sol::none();
    for opposite in 0..n {
        if !flat && l[opposite] > 0.0 {
            continue;
        }
        let mut f = [0usize; 3];
        let mut c = 0;
        for i in (0..n).filter(|&i| i != opposite) {
            f[c] = i;
            c += 1;
        }
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

    fn lcg(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

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
