//! Real roots of a polynomial of degree ≤ 4 on a closed interval `[0, h]`, isolated with a
//! Sturm sequence and polished by bisection. No complex arithmetic, no companion matrix.
//!
//! Source: Sturm's theorem (e.g. Basu, Pollack & Roy, *Algorithms in Real Algebraic
//! Geometry*, §2.2.2); the floating-point treatment follows the usual practice of cutting the
//! remainder sequence when a remainder vanishes to within the rounding of its own division,
//! which makes the last element an approximate gcd and keeps the count of *distinct* roots.
//!
//! Method:
//! 1. Substitute `t = h s`, so the work is on `s ∈ [0, 1]` with coefficients `cᵢ hⁱ`, each
//!    chain element scaled to unit largest coefficient.
//! 2. The Sturm chain `p₀ = p, p₁ = p', pₖ₊₁ = −rem(pₖ₋₁, pₖ)` counts the distinct roots in
//!    `(a, b]` as `V(a) − V(b)` (sign changes, zeros skipped).
//! 3. Bisect until every interval holds exactly one distinct root, then polish: bisection on
//!    the sign of `p` when it changes sign (odd multiplicity), otherwise bisection on the sign
//!    of `p'` (a double root is a simple root of `p'`: the grazing case).
//! 4. `s = 0` is tested directly (a root there means the shapes touch at the start).
//!
//! Complexity: O(d²) for the chain, then O(d · 60) evaluations per root (bisection to one
//! ulp, capped at [`MAX_BISECTIONS`] steps). No allocation.
//!
//! Accuracy: roots of odd multiplicity are located to about one ulp of `s` plus the
//! conditioning `ε Σ|cᵢ| sⁱ / |p'(s)|`; a double root to `sqrt(ε)`-relative in the worst
//! case (the root of `p'` is found to one ulp, so in practice much better; tests measure it).
//! A pair of simple roots closer than the rounding of the chain is reported once, as a
//! touching (even) root: a near-graze counts as a hit, the closed-set convention.
//!
//! Failure modes: non-finite coefficients return [`Status::Degenerate`]; an identically
//! zero polynomial returns [`Status::Identical`] (every `s` is a root; the caller decides).

use crate::verdict::Status;

/// Cap on bisection steps per interval (the interval is at one ulp long before that).
pub const MAX_BISECTIONS: u32 = 200;

/// Whether the polynomial crosses zero at a root or only touches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootKind {
    /// `p` changes sign (odd multiplicity).
    Crossing,
    /// `p` keeps its sign (even multiplicity: a grazing contact), or two roots closer than
    /// the rounding of the Sturm chain.
    Touching,
}

/// Roots in `[0, h]`, ascending, each with its kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roots {
    roots: [(f64, RootKind); 4],
    len: usize,
    /// `Converged` normally; `Degenerate` for a non-finite coefficient (no roots reported),
    /// `Identical` for the zero polynomial (every time is a root; none reported),
    /// `IterationLimit` if root isolation hit its step cap with an interval still holding
    /// several distinct roots (one root is then reported for that interval).
    pub status: Status,
}

impl Roots {
    fn empty(status: Status) -> Self {
        Roots {
            roots: [(0.0, RootKind::Crossing); 4],
            len: 0,
            status,
        }
    }
    fn push(&mut self, t: f64, k: RootKind) {
        if self.len < 4 {
            self.roots[self.len] = (t, k);
            self.len += 1;
        }
    }
    /// The roots in ascending order with their kind.
    pub fn as_slice(&self) -> &[(f64, RootKind)] {
        &self.roots[..self.len]
    }
    /// The roots in ascending order.
    pub fn times(&self) -> impl Iterator<Item = f64> + '_ {
        self.as_slice().iter().map(|r| r.0)
    }
    /// Number of distinct roots found in `[0, h]` (at most 4).
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when no root lies in `[0, h]` (or none was reported, see `status`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The first root, if any.
    pub fn first(&self) -> Option<f64> {
        self.as_slice().first().map(|r| r.0)
    }
}

/// A polynomial of degree ≤ 4, coefficients ascending.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Poly {
    c: [f64; 5],
    deg: usize,
}

impl Poly {
    fn new(coeffs: &[f64]) -> Self {
        let mut c = [0.0; 5];
        for (slot, v) in c.iter_mut().zip(coeffs) {
            *slot = *v;
        }
        let mut p = Poly { c, deg: 4 };
        p.trim(0.0);
        p
    }
    fn norm(&self) -> f64 {
        self.c[..=self.deg].iter().fold(0.0, |m, v| m.max(v.abs()))
    }
    /// Drops leading coefficients of magnitude ≤ `tol`.
    fn trim(&mut self, tol: f64) {
        while self.deg > 0 && !(self.c[self.deg].abs() > tol) {
            self.c[self.deg] = 0.0;
            self.deg -= 1;
        }
    }
    fn is_zero(&self) -> bool {
        self.deg == 0 && self.c[0] == 0.0
    }
    fn scaled(mut self) -> Self {
        let n = self.norm();
        if n > 0.0 && n.is_finite() {
            for v in &mut self.c[..=self.deg] {
                *v /= n;
            }
        }
        self
    }
    #[inline]
    fn eval(&self, x: f64) -> f64 {
        let mut r = self.c[self.deg];
        for i in (0..self.deg).rev() {
            r = r * x + self.c[i];
        }
        r
    }
    /// Bound on the rounding error of [`eval`] at `x` (Higham, Accuracy and Stability, §5.1).
    fn eval_bound(&self, x: f64) -> f64 {
        let ax = x.abs();
        let mut r = self.c[self.deg].abs();
        for i in (0..self.deg).rev() {
            r = r * ax + self.c[i].abs();
        }
        (2 * self.deg + 2) as f64 * f64::EPSILON * r
    }
    fn derivative(&self) -> Self {
        let mut c = [0.0; 5];
        for i in 1..=self.deg {
            c[i - 1] = self.c[i] * i as f64;
        }
        Poly {
            c,
            deg: self.deg.saturating_sub(1),
        }
    }
    /// `−rem(self, d)`, with coefficients below the division's rounding set to zero.
    fn neg_rem(&self, d: &Poly) -> Poly {
        let mut r = self.c;
        let mut qmax: f64 = 0.0;
        if d.deg <= self.deg {
            let lead = d.c[d.deg];
            for k in (0..=self.deg - d.deg).rev() {
                let q = r[k + d.deg] / lead;
                qmax = qmax.max(q.abs());
                for j in 0..=d.deg {
                    r[k + j] -= q * d.c[j];
                }
                r[k + d.deg] = 0.0;
            }
        }
        let tol = 32.0 * f64::EPSILON * (self.norm() + qmax * d.norm());
        let mut out = Poly {
            c: [0.0; 5],
            deg: d.deg.saturating_sub(1),
        };
        for (o, ri) in out.c.iter_mut().zip(r).take(out.deg + 1) {
            *o = if ri.abs() > tol { -ri } else { 0.0 };
        }
        out.trim(0.0);
        out
    }
}

/// A Sturm chain of a polynomial of degree ≤ 4 (at most 5 elements).
struct Sturm {
    chain: [Poly; 5],
    len: usize,
}

impl Sturm {
    fn new(p: &Poly) -> Self {
        let mut chain = [*p; 5];
        let mut len = 1;
        if p.deg >= 1 {
            chain[1] = p.derivative().scaled();
            len = 2;
            while len < 5 && chain[len - 1].deg >= 1 {
                let r = chain[len - 2].neg_rem(&chain[len - 1]);
                if r.is_zero() {
                    break;
                }
                chain[len] = r.scaled();
                len += 1;
            }
        }
        Sturm { chain, len }
    }
    /// Sign changes at `x`, zeros skipped.
    fn changes(&self, x: f64) -> i32 {
        let mut last = 0.0f64;
        let mut n = 0;
        for p in &self.chain[..self.len] {
            let v = p.eval(x);
            if v != 0.0 {
                if last != 0.0 && (v > 0.0) != (last > 0.0) {
                    n += 1;
                }
                last = v;
            }
        }
        n
    }
}

/// Real roots of `Σ coeffs[i] tⁱ` (degree ≤ 4; extra coefficients beyond the fifth are
/// ignored) in the closed interval `[0, h]`, ascending. `h` must be finite and ≥ 0.
pub fn roots_in(coeffs: &[f64], h: f64) -> Roots {
    if !h.is_finite() || h < 0.0 || coeffs.iter().take(5).any(|c| !c.is_finite()) {
        return Roots::empty(Status::Degenerate);
    }
    // s = t / h: coefficients cᵢ hⁱ. h = 0 leaves only t = 0 to test.
    let mut scaled = [0.0; 5];
    let mut hp = 1.0;
    for (i, c) in coeffs.iter().take(5).enumerate() {
        scaled[i] = c * hp;
        hp *= h;
    }
    if scaled.iter().any(|c| !c.is_finite()) {
        return Roots::empty(Status::Degenerate);
    }
    let mut out = roots_unit(&scaled, h == 0.0);
    for r in &mut out.roots[..out.len] {
        r.0 = if r.0 >= 1.0 { h } else { (r.0 * h).min(h) };
    }
    out
}

/// Roots of a quadratic `c0 + c1 t + c2 t²` in `[0, h]` (degenerates to linear or constant).
pub fn quadratic_roots(c0: f64, c1: f64, c2: f64, h: f64) -> Roots {
    roots_in(&[c0, c1, c2], h)
}

/// Roots of a quartic `Σ c[i] tⁱ` in `[0, h]` (any leading coefficients may be zero).
pub fn quartic_roots(c: [f64; 5], h: f64) -> Roots {
    roots_in(&c, h)
}

/// Roots in `[0, 1]` of a polynomial with finite coefficients.
fn roots_unit(coeffs: &[f64; 5], only_zero: bool) -> Roots {
    let p = Poly::new(coeffs).scaled();
    if p.is_zero() {
        return Roots::empty(Status::Identical);
    }
    let mut out = Roots::empty(Status::Converged);
    // A root at 0: the value is the constant coefficient itself (exact).
    let at_zero = p.c[0] == 0.0;
    if at_zero {
        let d = p.derivative();
        let kind = if d.eval(0.0) == 0.0 {
            RootKind::Touching
        } else {
            RootKind::Crossing
        };
        out.push(0.0, kind);
    }
    if only_zero || p.deg == 0 {
        return out;
    }
    let sturm = Sturm::new(&p);
    let dp = p.derivative();
    // Stack of intervals (a, b] with their sign-change counts.
    let mut stack = [(0.0f64, 0i32, 0.0f64, 0i32); 64];
    let mut top = 0;
    stack[top] = (0.0, sturm.changes(0.0), 1.0, sturm.changes(1.0));
    top += 1;
    let mut found: [(f64, RootKind); 4] = [(0.0, RootKind::Crossing); 4];
    let mut nfound = 0;
    let mut steps = 0;
    while top > 0 {
        top -= 1;
        let (a, va, b, vb) = stack[top];
        let n = va - vb;
        if n <= 0 {
            continue;
        }
        steps += 1;
        let m = 0.5 * (a + b);
        if n == 1 || !(m > a && m < b) || steps > 400 || top + 2 > stack.len() {
            if n > 1 && (m > a && m < b) {
                out.status = Status::IterationLimit;
            }
            let r = polish(&p, &dp, a, b);
            if nfound < 4 {
                found[nfound] = r;
                nfound += 1;
            }
            continue;
        }
        let vm = sturm.changes(m);
        stack[top] = (m, vm, b, vb);
        stack[top + 1] = (a, va, m, vm);
        top += 2;
    }
    found[..nfound].sort_by(|x, y| x.0.total_cmp(&y.0));
    for &(s, k) in &found[..nfound] {
        // A root polished onto 0 duplicates the explicit one.
        if at_zero && s == 0.0 {
            continue;
        }
        out.push(s, k);
    }
    out
}

/// The single distinct root of `p` in `(a, b]`.
fn polish(p: &Poly, dp: &Poly, a: f64, b: f64) -> (f64, RootKind) {
    let pa = p.eval(a);
    let pb = p.eval(b);
    if pb == 0.0 {
        let kind = if dp.eval(b) == 0.0 || (pa != 0.0 && p.eval(0.5 * (a + b)) * pa > 0.0) {
            RootKind::Touching
        } else {
            RootKind::Crossing
        };
        return (b, kind);
    }
    if pa != 0.0 && (pa > 0.0) != (pb > 0.0) {
        return (bisect(p, a, b, pa), RootKind::Crossing);
    }
    // No sign change: an even root. It is a simple root of p' when p' changes sign.
    let da = dp.eval(a);
    let db = dp.eval(b);
    let s = if da != 0.0 && db != 0.0 && (da > 0.0) != (db > 0.0) {
        bisect(dp, a, b, da)
    } else {
        // p' has no sign change either (rounding): take the smallest |p| seen.
        let m = 0.5 * (a + b);
        [a, m, b]
            .into_iter()
            .min_by(|x, y| p.eval(*x).abs().total_cmp(&p.eval(*y).abs()))
            .unwrap_or(m)
    };
    (s, RootKind::Touching)
}

/// Bisection on the sign of `p` in `[a, b]` with `sign p(a) = sign fa ≠ sign p(b)`; returns
/// the first float at which the sign has changed (so a returned root is never early by more
/// than one ulp).
fn bisect(p: &Poly, mut a: f64, mut b: f64, fa: f64) -> f64 {
    let pos = fa > 0.0;
    for _ in 0..MAX_BISECTIONS {
        let m = 0.5 * (a + b);
        if !(m > a && m < b) {
            break;
        }
        let v = p.eval(m);
        if v == 0.0 {
            return m;
        }
        if (v > 0.0) == pos {
            a = m;
        } else {
            b = m;
        }
    }
    // Of the two bracketing floats, the one with the smaller |p|.
    if p.eval(a).abs() < p.eval(b).abs() {
        a
    } else {
        b
    }
}

/// Rounding bound of the evaluation of `Σ coeffs[i] tⁱ` at `t` (for callers that need to
/// decide whether a value is zero to within rounding).
pub fn eval_bound(coeffs: &[f64], t: f64) -> f64 {
    let p = Poly::new(coeffs);
    p.eval_bound(t)
}

/// Horner evaluation of `Σ coeffs[i] tⁱ` (degree ≤ 4).
pub fn eval(coeffs: &[f64], t: f64) -> f64 {
    Poly::new(coeffs).eval(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_root_found_exactly() {
        // (t − 0.5)² on [0, 1].
        let r = quadratic_roots(0.25, -1.0, 1.0, 1.0);
        assert_eq!(r.as_slice(), &[(0.5, RootKind::Touching)]);
    }

    #[test]
    fn simple_roots_of_a_quartic() {
        // (t − .1)(t − .2)(t − .7)(t − 3)
        let c = [0.042, -0.704, 3.23, -4.0, 1.0];
        let r = quartic_roots(c, 1.0);
        let t: Vec<f64> = r.times().collect();
        assert_eq!(t.len(), 3, "{r:?}");
        for (x, y) in t.iter().zip([0.1, 0.2, 0.7]) {
            assert!((x - y).abs() < 1e-14, "{t:?}");
        }
    }

    #[test]
    fn root_at_both_ends() {
        let r = quadratic_roots(0.0, -1.0, 1.0, 1.0); // t(t − 1)
        assert_eq!(r.times().collect::<Vec<_>>(), vec![0.0, 1.0]);
    }
}
