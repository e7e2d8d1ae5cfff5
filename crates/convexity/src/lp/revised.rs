//! Revised primal simplex for the L1 distance LP between two vertex sets.
//!
//! The LP (all data already centred and scaled by the caller):
//!
//! ```text
//! minimise   Σₖ (r⁺ₖ + r⁻ₖ)
//! subject to Σᵢ λᵢ sᵢ − Σⱼ μⱼ tⱼ − r⁺ + r⁻ = 0      (n coordinate rows)
//!            Σᵢ λᵢ = 1,  Σⱼ μⱼ = 1                   (2 convexity rows)
//!            λ, μ, r⁺, r⁻ ≥ 0
//! ```
//!
//! Its optimum is the L1 distance between the hulls, and a starting basis is feasible by
//! construction (one vertex of each set, the residual columns with the sign of their
//! difference), so there is no phase 1. The dual is
//! `max α + β  s.t.  w·sᵢ + α ≤ 0, β − w·tⱼ ≤ 0, |wₖ| ≤ 1`, i.e. the best `min_T w·t − max_S w·s`
//! over `‖w‖∞ ≤ 1`: the optimal duals `y = (w, α, β)` are the separating direction.
//!
//! Method (Chvátal, *Linear Programming*, ch. 7–8; Bland 1977): the basis has m = n + 2
//! columns; its inverse is kept explicitly (m × m) and updated by the elementary pivot (O(m²));
//! it is refactorised from scratch by Gauss–Jordan with partial pivoting every
//! [`REFACTOR_EVERY`] pivots (O(m³)). Pricing is Dantzig's rule (O(n) per column), partial:
//! over the 2n residual columns and a circular window of max(N/8, 128) of the N = |S| + |T|
//! vertex columns, widened until it finds an improving column, with a full pass every
//! [`FULL_PRICING_EVERY`] pivots (Chvátal ch. 8, "partial pricing"); after [`DEGENERATE_SWITCH`] consecutive degenerate pivots it switches to
//! Bland's smallest-index rule, which cannot cycle, until a pivot makes progress. The ratio test
//! breaks near-ties by the largest pivot element (Bland mode: smallest variable index).
//!
//! Failure modes: the iteration cap ([`Outcome::IterationLimit`]), a numerically singular basis
//! or an empty ratio test ([`Outcome::Numerical`]). The caller never trusts the LP's arithmetic
//! for its verdict: certificates are re-evaluated on the original data.

/// Pivots between refactorisations of the basis inverse.
pub(crate) const REFACTOR_EVERY: u32 = 64;
/// Consecutive degenerate pivots before switching to Bland's rule.
pub(crate) const DEGENERATE_SWITCH: u32 = 24;
/// Pivots between full pricing passes (partial pricing otherwise).
pub(crate) const FULL_PRICING_EVERY: u32 = 8;
/// Smallest pricing window (vertex columns).
const PARTIAL_MIN: usize = 128;
/// Smallest accepted pivot element (the columns are O(1) after scaling).
const PIVOT_TOL: f64 = 1e-11;
/// Reduced-cost optimality tolerance (costs are 0 or 1).
const DUAL_TOL: f64 = 1e-11;

/// How the solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Optimal,
    /// The objective fell below the intersect threshold.
    EarlyIntersecting,
    /// The current duals separate by more than the threshold.
    EarlySeparated,
    IterationLimit,
    Numerical,
}

/// The LP data: `s` and `t` row-major with dimension `n`.
pub(crate) struct Problem<'a> {
    pub n: usize,
    pub s: &'a [f64],
    pub t: &'a [f64],
}

impl Problem<'_> {
    fn ns(&self) -> usize {
        self.s.len() / self.n
    }
    fn nt(&self) -> usize {
        self.t.len() / self.n
    }
    fn cols(&self) -> usize {
        self.ns() + self.nt() + 2 * self.n
    }
    fn cost(&self, j: usize) -> f64 {
        if j >= self.ns() + self.nt() {
            1.0
        } else {
            0.0
        }
    }
    /// Writes column `j` (length n + 2) into `out`.
    fn column(&self, j: usize, out: &mut [f64]) {
        let (n, ns, nt) = (self.n, self.ns(), self.nt());
        out.iter_mut().for_each(|x| *x = 0.0);
        if j < ns {
            out[..n].copy_from_slice(&self.s[j * n..(j + 1) * n]);
            out[n] = 1.0;
        } else if j < ns + nt {
            let k = j - ns;
            for (o, x) in out[..n].iter_mut().zip(&self.t[k * n..(k + 1) * n]) {
                *o = -x;
            }
            out[n + 1] = 1.0;
        } else if j < ns + nt + n {
            out[j - ns - nt] = -1.0;
        } else {
            out[j - ns - nt - n] = 1.0;
        }
    }
}

/// Early-exit thresholds (scaled units); `None` solves to optimality.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EarlyExit {
    /// Stop when the objective (L1 residual) is at most this.
    pub intersect_below: f64,
    /// Stop when `min_T w·t − max_S w·s > separate_above · ‖w‖₂`.
    pub separate_above: f64,
}

/// Solver state; reusable across solves of problems with the same n (warm start).
pub(crate) struct Solver {
    m: usize,
    /// Basic variable of each row position.
    pub basis: Vec<usize>,
    /// Row-major basis inverse, m × m.
    binv: Vec<f64>,
    /// Values of the basic variables.
    pub xb: Vec<f64>,
    /// Duals `y = c_B B⁻¹`: `(w, α, β)`.
    pub y: Vec<f64>,
    pub iterations: u32,
    col: Vec<f64>,
    u: Vec<f64>,
}

impl Solver {
    pub fn new(n: usize) -> Self {
        let m = n + 2;
        Solver {
            m,
            basis: vec![0; m],
            binv: vec![0.0; m * m],
            xb: vec![0.0; m],
            y: vec![0.0; m],
            iterations: 0,
            col: vec![0.0; m],
            u: vec![0.0; m],
        }
    }

    /// The starting basis: vertex `i0` of S, vertex `j0` of T and one residual column per
    /// coordinate, signed like `s_{i0} − t_{j0}` (feasible and nonsingular by construction).
    pub fn cold_start(&mut self, p: &Problem<'_>, i0: usize, j0: usize) -> bool {
        let n = p.n;
        let (ns, nt) = (p.ns(), p.nt());
        for k in 0..n {
            let d = p.s[i0 * n + k] - p.t[j0 * n + k];
            self.basis[k] = if d >= 0.0 {
                ns + nt + k
            } else {
                ns + nt + n + k
            };
        }
        self.basis[n] = i0;
        self.basis[n + 1] = ns + j0;
        self.refactor(p)
    }

    /// Recomputes `B⁻¹` and `x_B = B⁻¹ b` from the basis (Gauss–Jordan, partial pivoting).
    /// Returns false when the basis is numerically singular.
    pub fn refactor(&mut self, p: &Problem<'_>) -> bool {
        let m = self.m;
        // Augmented [B | I], reduced to [I | B⁻¹].
        let w = 2 * m;
        let mut a = vec![0.0; m * w];
        for (c, &j) in self.basis.iter().enumerate() {
            p.column(j, &mut self.col);
            for r in 0..m {
                a[r * w + c] = self.col[r];
            }
        }
        for r in 0..m {
            a[r * w + m + r] = 1.0;
        }
        for c in 0..m {
            let (mut best, mut piv) = (c, 0.0f64);
            for r in c..m {
                let v = a[r * w + c].abs();
                if v > piv {
                    piv = v;
                    best = r;
                }
            }
            if !(piv > 1e-13) {
                return false;
            }
            if best != c {
                for k in 0..w {
                    a.swap(c * w + k, best * w + k);
                }
            }
            let inv = 1.0 / a[c * w + c];
            for k in 0..w {
                a[c * w + k] *= inv;
            }
            for r in 0..m {
                if r != c {
                    let f = a[r * w + c];
                    if f != 0.0 {
                        for k in 0..w {
                            a[r * w + k] -= f * a[c * w + k];
                        }
                    }
                }
            }
        }
        for r in 0..m {
            self.binv[r * m..(r + 1) * m].copy_from_slice(&a[r * w + m..(r + 1) * w]);
        }
        // b = (0, …, 0, 1, 1): x_B is the sum of the last two columns of B⁻¹.
        for r in 0..m {
            let v = self.binv[r * m + m - 2] + self.binv[r * m + m - 1];
            // Rounding can leave a basic value a hair below zero; clamp it.
            self.xb[r] = if v < 0.0 && v > -1e-9 { 0.0 } else { v };
        }
        self.xb.iter().all(|v| v.is_finite() && *v >= 0.0)
    }

    fn duals(&mut self, p: &Problem<'_>) {
        let m = self.m;
        self.y.iter_mut().for_each(|v| *v = 0.0);
        for (r, &j) in self.basis.iter().enumerate() {
            let c = p.cost(j);
            if c != 0.0 {
                for (yi, b) in self.y.iter_mut().zip(&self.binv[r * m..(r + 1) * m]) {
                    *yi += c * b;
                }
            }
        }
    }

    /// The objective `Σ c_B x_B`.
    pub fn objective(&self, p: &Problem<'_>) -> f64 {
        self.basis
            .iter()
            .zip(&self.xb)
            .map(|(&j, x)| p.cost(j) * x)
            .sum()
    }

    /// Runs primal simplex iterations from the current (feasible) basis: each iteration prices
    /// the columns ([`Self::price`]), runs the ratio test ([`Self::ratio_test`]) and pivots
    /// ([`Self::pivot`]).
    pub fn solve(&mut self, p: &Problem<'_>, max_iter: u32, early: Option<EarlyExit>) -> Outcome {
        let ncols = p.cols();
        let mut in_basis = vec![false; ncols];
        for &j in &self.basis {
            in_basis[j] = true;
        }
        let mut degenerate_run = 0u32;
        let mut since_refactor = 0u32;
        // The first pass is full: a separated pair can then exit before any pivot.
        let mut cursor = Cursor {
            next: 0,
            since_full: FULL_PRICING_EVERY,
        };
        loop {
            if let Some(e) = early {
                if self.objective(p) <= e.intersect_below {
                    return Outcome::EarlyIntersecting;
                }
            }
            self.duals(p);
            let bland = degenerate_run >= DEGENERATE_SWITCH;
            let priced = self.price(p, &in_basis, bland, &mut cursor);
            if let (Some(e), true) = (early, priced.full_pass) {
                let w = &self.y[..p.n];
                let norm = dot(w, w).sqrt();
                if norm > 0.0 && priced.lo_t - priced.hi_s > e.separate_above * norm {
                    return Outcome::EarlySeparated;
                }
            }
            let Some(enter) = priced.enter else {
                return Outcome::Optimal;
            };
            if self.iterations >= max_iter {
                return Outcome::IterationLimit;
            }
            self.iterations += 1;
            let (leave, theta) = match self.ratio_test(p, enter, bland) {
                Ok(lt) => lt,
                Err(o) => return o,
            };
            degenerate_run = if theta <= 1e-13 {
                degenerate_run + 1
            } else {
                0
            };
            self.pivot(leave, theta);
            in_basis[self.basis[leave]] = false;
            in_basis[enter] = true;
            self.basis[leave] = enter;
            since_refactor += 1;
            if since_refactor >= REFACTOR_EVERY {
                since_refactor = 0;
                if !self.refactor(p) {
                    return Outcome::Numerical;
                }
            }
        }
    }

    /// Pricing: the entering column (most negative reduced cost; Bland: the first negative one)
    /// and, after a full pass, the extents `max w·sᵢ`, `min w·tⱼ` for the early separation
    /// test. Reduced costs: λᵢ: −(w·sᵢ + α); μⱼ: w·tⱼ − β; r⁺ₖ: 1 + wₖ; r⁻ₖ: 1 − wₖ.
    /// Partial pricing: the vertex columns are scanned circularly from the cursor in windows,
    /// stopping after the first window with an improving column; a full pass runs in Bland
    /// mode, every FULL_PRICING_EVERY pivots, and whenever the windows find nothing.
    fn price(&self, p: &Problem<'_>, in_basis: &[bool], bland: bool, cur: &mut Cursor) -> Priced {
        let n = p.n;
        let (ns, nt) = (p.ns(), p.nt());
        let w = &self.y[..n];
        let (alpha, beta) = (self.y[n], self.y[n + 1]);
        let mut enter = usize::MAX;
        let mut best = -DUAL_TOL;
        let mut hi_s = f64::NEG_INFINITY;
        let mut lo_t = f64::INFINITY;
        let nv = ns + nt;
        let full = bland || cur.since_full >= FULL_PRICING_EVERY;
        let window = if full { nv } else { (nv / 8).max(PARTIAL_MIN) };
        let mut scanned = 0;
        let mut c = if bland { 0 } else { cur.next % nv.max(1) };
        while scanned < nv {
            let stop = (scanned + window).min(nv);
            while scanned < stop {
                let d = if c < ns {
                    let ws = dot(w, &p.s[c * n..(c + 1) * n]);
                    hi_s = hi_s.max(ws);
                    -(ws + alpha)
                } else {
                    let j = c - ns;
                    let wt = dot(w, &p.t[j * n..(j + 1) * n]);
                    lo_t = lo_t.min(wt);
                    wt - beta
                };
                if d < best && !in_basis[c] && !(bland && enter != usize::MAX) {
                    best = if bland { -DUAL_TOL } else { d };
                    enter = c;
                }
                c += 1;
                if c == nv {
                    c = 0;
                }
                scanned += 1;
            }
            if enter != usize::MAX {
                break;
            }
        }
        cur.next = c;
        let full_pass = scanned == nv;
        if full_pass {
            cur.since_full = 0;
        } else {
            cur.since_full += 1;
        }
        // r⁺ then r⁻, in column order (Bland's rule needs one fixed order).
        for (side, sign) in [(0, 1.0), (n, -1.0)] {
            for (k, &wk) in w.iter().enumerate() {
                let (col, d) = (ns + nt + side + k, 1.0 + sign * wk);
                if d < best && !in_basis[col] && !(bland && enter != usize::MAX) {
                    best = if bland { -DUAL_TOL } else { d };
                    enter = col;
                }
            }
        }
        Priced {
            enter: (enter != usize::MAX).then_some(enter),
            hi_s,
            lo_t,
            full_pass,
        }
    }

    /// FTRAN (`u = B⁻¹ a_enter`) and the ratio test: the leaving row and the step `θ`, near-ties
    /// broken by the larger pivot (Bland: the smaller variable index). `Err(Numerical)` when no
    /// row bounds the step.
    fn ratio_test(
        &mut self,
        p: &Problem<'_>,
        enter: usize,
        bland: bool,
    ) -> Result<(usize, f64), Outcome> {
        let m = self.m;
        p.column(enter, &mut self.col);
        for r in 0..m {
            let row = &self.binv[r * m..(r + 1) * m];
            self.u[r] = dot(row, &self.col);
        }
        let mut theta = f64::INFINITY;
        for r in 0..m {
            if self.u[r] > PIVOT_TOL {
                theta = theta.min(self.xb[r].max(0.0) / self.u[r]);
            }
        }
        if !theta.is_finite() {
            return Err(Outcome::Numerical);
        }
        let slack = theta * (1.0 + 1e-9) + 1e-15;
        let mut leave = usize::MAX;
        for r in 0..m {
            if self.u[r] > PIVOT_TOL && self.xb[r].max(0.0) / self.u[r] <= slack {
                let better = leave == usize::MAX
                    || if bland {
                        self.basis[r] < self.basis[leave]
                    } else {
                        self.u[r] > self.u[leave]
                    };
                if better {
                    leave = r;
                }
            }
        }
        if leave == usize::MAX {
            return Err(Outcome::Numerical);
        }
        Ok((leave, self.xb[leave].max(0.0) / self.u[leave]))
    }

    /// Updates `x_B` and `B⁻¹` by the elementary pivot on row `leave` (column `u`).
    fn pivot(&mut self, leave: usize, theta: f64) {
        let m = self.m;
        for r in 0..m {
            if r != leave {
                self.xb[r] = (self.xb[r] - theta * self.u[r]).max(0.0);
            }
        }
        self.xb[leave] = theta;
        let inv = 1.0 / self.u[leave];
        for k in 0..m {
            self.binv[leave * m + k] *= inv;
        }
        for r in 0..m {
            let f = self.u[r];
            if r != leave && f != 0.0 {
                for k in 0..m {
                    self.binv[r * m + k] -= f * self.binv[leave * m + k];
                }
            }
        }
    }

    /// Convex weights `(index, weight)` of S and T read off the basis (clamped, renormalised).
    pub fn weights(&self, p: &Problem<'_>) -> (Weights, Weights) {
        let (ns, nt) = (p.ns(), p.nt());
        let mut wa = Vec::new();
        let mut wb = Vec::new();
        for (&j, &x) in self.basis.iter().zip(&self.xb) {
            if x > 0.0 {
                if j < ns {
                    wa.push((j, x));
                } else if j < ns + nt {
                    wb.push((j - ns, x));
                }
            }
        }
        (normalise(wa), normalise(wb))
    }
}

/// Where partial pricing resumes, and the pivots since the last full pass.
struct Cursor {
    next: usize,
    since_full: u32,
}

/// The result of one pricing pass.
struct Priced {
    /// The entering column; `None` at optimality.
    enter: Option<usize>,
    /// `max w·sᵢ` and `min w·tⱼ` over the scanned columns (complete after a full pass).
    hi_s: f64,
    lo_t: f64,
    full_pass: bool,
}

/// Sparse convex weights `(vertex index, weight)`.
pub(crate) type Weights = Vec<(usize, f64)>;

/// Sorts by index and scales the weights to sum 1 (one vertex with weight 1 if they vanish).
fn normalise(mut w: Vec<(usize, f64)>) -> Vec<(usize, f64)> {
    w.sort_by_key(|e| e.0);
    let sum: f64 = w.iter().map(|e| e.1).sum();
    if !(sum > 0.0) || !sum.is_finite() {
        return vec![(0, 1.0)];
    }
    w.iter_mut().for_each(|e| e.1 /= sum);
    w
}

/// Dot product with four independent accumulators (pricing is O(n) dots per column and a
/// single running sum is bound by the latency of the floating-point add).
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        tail += x * y;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}
