//! Seidel's randomised incremental linear programming in small dimension, and the two
//! collision questions it answers: do two H-polytopes intersect, and what plane separates two
//! V-polytopes.
//!
//! Source: R. Seidel, "Small-dimensional linear programming and convex hulls made easy",
//! Discrete Comput. Geom. 6 (1991) 423–434; de Berg et al., *Computational Geometry*, 3rd ed.,
//! §4.4–4.7 (the bounding-box trick for unbounded programs).
//!
//! Algorithm (maximise `c·x` subject to `aᵢ·x ≤ bᵢ`, x ∈ Rᵏ): start from the optimum of a box
//! `|xⱼ| ≤ B`, add the rows in a random order; while the current optimum satisfies the new row
//! it stays optimal; otherwise the new optimum lies on the row's hyperplane, found by the same
//! algorithm in dimension k − 1 over all earlier rows (and the box) restricted to that
//! hyperplane. The base case k = 1 intersects intervals. Every level parametrises its
//! hyperplane `ν·x = β` as `x = βν + U y` with `U` an orthonormal basis of `ν⊥` (the columns of
//! a Householder reflection), so residuals `a·x − b` keep their units at every depth.
//!
//! Ties: the objective is made lexicographic (c, then e₀, …, e_{d−1}), so every level has one
//! optimum, as the expected-time analysis requires; a zero objective (feasibility) stays zero.
//!
//! Complexity: expected O(d!·m) arithmetic operations for m rows in dimension d (the expectation
//! is over the shuffle, for any input). The shuffle is seeded ([`SeidelOptions::seed`]), so results are
//! deterministic.
//!
//! Tolerance: a row counts as satisfied when its residual, as a distance (rows are normalised),
//! is at most `rel_tolerance · (|oᵢ|/|nᵢ| + |x|)`: the rounding of the residual itself scales
//! with those magnitudes. In the base case two bounds that cross by no more than that are a
//! touching contact and yield a point; closed sets, so touching is intersecting.
//!
//! Unboundedness: the box `B` ([`SeidelOptions::bound`], by default `10⁶ · (1 + max |oᵢ|/|nᵢ|)`)
//! makes every program bounded. An optimum on the box whose value still grows when the box is
//! quadrupled is reported as [`LpOutcome::Unbounded`]; an infeasibility proof that needs the box
//! means only "no point within the box" and carries no [`Farkas`] certificate.
//!
//! Infeasibility certificate: the base case that fails names two rows whose bounds cross; each
//! level lifts this combination back by adding the hyperplane's own row with the weight that
//! cancels the component along its normal. At the top this is a Farkas combination of the input
//! rows (checked arithmetically before it is returned).
//!
//! Failure modes: mismatched dimensions and non-finite objectives are [`InputError`]s; nothing
//! panics or loops (the recursion depth is the dimension, every loop runs over the rows).

use crate::error::{finite, InputError, Problem};
use crate::math::halfspaces::{Farkas, Halfspaces};
use crate::math::slice::dot;

/// Solver settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeidelOptions {
    /// Seed of the row shuffle (results are deterministic for a given seed).
    pub seed: u64,
    /// Relative tolerance on residuals (see the module header).
    pub rel_tolerance: f64,
    /// Half-width of the bounding box; `None` for `10⁶ · (1 + max |oᵢ|/|nᵢ|)`.
    pub bound: Option<f64>,
}

impl Default for SeidelOptions {
    fn default() -> Self {
        SeidelOptions {
            seed: 0x005e_1de1,
            rel_tolerance: 1e-13,
            bound: None,
        }
    }
}

/// How a linear program ended.
#[derive(Clone, Debug, PartialEq)]
pub enum LpOutcome {
    /// An optimal point and its objective value.
    Optimal {
        /// The optimal point.
        x: Vec<f64>,
        /// The objective value at `x`.
        value: f64,
    },
    /// No feasible point. `farkas` is a certificate over the input rows, checked to exclude the
    /// ball of radius `10 · (1 + max |oᵢ|/|nᵢ|)` about the origin (see [`Farkas::check`] for its
    /// exact radius); `None` when the proof needed the bounding box (then: no feasible point
    /// within the box) or did not check.
    Infeasible {
        /// The certificate, when one was found and checked.
        farkas: Option<Farkas>,
    },
    /// The objective grows without bound (or its optimum lies beyond the box); `x` is the best
    /// point found on the box.
    Unbounded {
        /// The best point found on the bounding box.
        x: Vec<f64>,
    },
}

/// Result of [`solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct LpResult {
    /// How the program ended, with its point or certificate.
    pub outcome: LpOutcome,
    /// Largest row violation (a distance) at the returned point; 0 when infeasible.
    pub max_violation: f64,
    /// The box half-width used.
    pub bound: f64,
}

/// Maximises `objective · x` subject to `system` (`nᵢ·x ≤ oᵢ`). A zero objective asks for any
/// feasible point.
///
/// Steps: validate the input (`box_bound`), normalise and shuffle the rows
/// (`ShuffledRows`), build the lexicographic objective (`lex_objective`), run Seidel's
/// recursion inside the box, and turn its answer into an outcome: an optimum on the box is
/// re-run on a larger box to tell it from an unbounded one (`optimal_or_unbounded`), an
/// infeasible answer becomes a checked Farkas certificate (`farkas_of`).
pub fn solve(
    system: &Halfspaces,
    objective: &[f64],
    opts: &SeidelOptions,
) -> Result<LpResult, InputError> {
    let d = system.dim();
    let bound = box_bound(system, objective, opts)?;
    let rows = ShuffledRows::new(system, opts.seed);
    let cscale = objective.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    let c = lex_objective(objective, cscale);
    let run = |bound: f64| {
        let ctx = Ctx {
            rel: opts.rel_tolerance,
            inner_bound: bound * (d as f64).sqrt() * 1.01,
        };
        let level_rows = Rows {
            k: d,
            a: &rows.a,
            b: &rows.b,
            s: &rows.s,
        };
        level(&level_rows, &c, bound, 0.0, &ctx)
    };
    let status = match run(bound) {
        Found::Opt(x) => optimal_or_unbounded(x, objective, bound, cscale > 0.0, run),
        Found::Infeasible { weights } => LpOutcome::Infeasible {
            farkas: farkas_of(system, &rows.perm, &weights),
        },
    };
    let max_violation = match &status {
        LpOutcome::Optimal { x, .. } | LpOutcome::Unbounded { x } => system.violation(x).max(0.0),
        LpOutcome::Infeasible { .. } => 0.0,
    };
    Ok(LpResult {
        outcome: status,
        max_violation,
        bound,
    })
}

/// Validates the objective and the options; the box half-width (`opts.bound`, or
/// `1e6 · (1 + magnitude)`).
fn box_bound(
    system: &Halfspaces,
    objective: &[f64],
    opts: &SeidelOptions,
) -> Result<f64, InputError> {
    let d = system.dim();
    if objective.len() != d {
        return Err(InputError::new(
            "objective",
            Problem::DimensionMismatch {
                expected: d,
                found: objective.len(),
            },
        ));
    }
    for (i, &c) in objective.iter().enumerate() {
        finite(&format!("objective[{i}]"), c)?;
    }
    let bound = match opts.bound {
        Some(b) => {
            finite("bound", b)?;
            if !(b > 0.0) {
                return Err(InputError::new("bound", Problem::Negative(b)));
            }
            b
        }
        None => 1e6 * (1.0 + system.magnitude()),
    };
    if !(opts.rel_tolerance >= 0.0) || !opts.rel_tolerance.is_finite() {
        return Err(InputError::new(
            "rel_tolerance",
            Problem::Invalid("must be finite and non-negative".into()),
        ));
    }
    Ok(bound)
}

/// The rows normalised to unit normals, in a seeded random order: `a` row-major, offsets `b`,
/// tolerance scales `s = |b|`, and `perm[i]` the input index of row `i`.
struct ShuffledRows {
    perm: Vec<usize>,
    a: Vec<f64>,
    b: Vec<f64>,
    s: Vec<f64>,
}

impl ShuffledRows {
    fn new(system: &Halfspaces, seed: u64) -> Self {
        let (m, d) = (system.len(), system.dim());
        let mut perm: Vec<usize> = (0..m).collect();
        let mut rng = SplitMix(seed);
        for i in (1..m).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            perm.swap(i, j);
        }
        let mut a = Vec::with_capacity(m * d);
        let mut b = Vec::with_capacity(m);
        let mut s = Vec::with_capacity(m);
        for &i in &perm {
            let nl = system.normal_length(i);
            a.extend(system.normal(i).iter().map(|c| c / nl));
            b.push(system.offset(i) / nl);
            s.push((system.offset(i) / nl).abs());
        }
        ShuffledRows { perm, a, b, s }
    }
}

/// Lexicographic objective: `c / cscale`, then `e₀, …, e_{d−1}` to break ties, so that every
/// level has a unique optimum (Seidel's expected-time analysis assumes one; with ties the
/// current point keeps moving along the optimal face and the recursion count grows — measured
/// 100× on the separating-plane LP). A zero objective (feasibility) has no ties to break.
fn lex_objective(objective: &[f64], cscale: f64) -> Vec<Vec<f64>> {
    if !(cscale > 0.0) {
        return Vec::new();
    }
    let d = objective.len();
    let mut list = vec![objective.iter().map(|x| x / cscale).collect::<Vec<f64>>()];
    for j in 0..d {
        let mut e = vec![0.0; d];
        e[j] = 1.0;
        list.push(e);
    }
    list
}

/// An optimum found in the box: when it lies on the box (and the objective is not zero), the
/// LP is re-run in a box four times larger; a strictly better value there means unbounded.
fn optimal_or_unbounded(
    x: Vec<f64>,
    objective: &[f64],
    bound: f64,
    has_objective: bool,
    run: impl Fn(f64) -> Found,
) -> LpOutcome {
    let on_box = x.iter().any(|xi| xi.abs() >= bound * (1.0 - 1e-9));
    let value = dot(objective, &x);
    if !(on_box && has_objective) {
        return LpOutcome::Optimal { x, value };
    }
    match run(4.0 * bound) {
        Found::Opt(x4) => {
            let v4 = dot(objective, &x4);
            let slack = 1e-9 * (v4.abs() + value.abs()) + 1e-300;
            if v4 > value + slack {
                LpOutcome::Unbounded { x }
            } else {
                LpOutcome::Optimal { x, value }
            }
        }
        Found::Infeasible { .. } => LpOutcome::Optimal { x, value },
    }
}

/// The Farkas certificate of an infeasible answer, over the input rows (`perm` maps the
/// shuffled positions back); `None` when the proof used the box rows or does not check.
fn farkas_of(system: &Halfspaces, perm: &[usize], weights: &[(usize, f64)]) -> Option<Farkas> {
    let (m, d) = (system.len(), system.dim());
    let mut uses_bound = false;
    let mut w = vec![0.0; m];
    for &(p, l) in weights {
        if p < 2 * d {
            uses_bound |= l > 0.0;
        } else if let Some(&orig) = perm.get(p - 2 * d) {
            w[orig] += l / system.normal_length(orig);
        }
    }
    if uses_bound {
        return None;
    }
    let total: f64 = w
        .iter()
        .enumerate()
        .map(|(i, l)| l * system.normal_length(i))
        .sum();
    let f = Farkas {
        weights: w
            .iter()
            .enumerate()
            .filter(|(_, l)| **l > 0.0)
            .map(|(i, l)| (i, l / total))
            .collect(),
    };
    // Keep it only if it excludes a ball ten times the data's magnitude (its residual `Σλn` is
    // rounding, so it proves infeasibility within `radius`; asking for the whole box rejected
    // valid proofs of 1e-12 separations).
    let radius = 10.0 * (1.0 + system.magnitude());
    (total > 0.0 && f.proves_within(system, radius)).then_some(f)
}

/// SplitMix64: a tiny seeded generator for the shuffle (no dependency for the library).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

struct Ctx {
    rel: f64,
    /// Box half-width of every level below the top: the section of a box of half-width B by a
    /// hyperplane through coordinates orthogonal to its offset has |y| ≤ |x| ≤ B√d.
    inner_bound: f64,
}

/// The rows of one level: `a` row-major with `k` columns, offsets `b`, tolerance scales `s`.
struct Rows<'a> {
    k: usize,
    a: &'a [f64],
    b: &'a [f64],
    s: &'a [f64],
}

/// A level's answer. Positions index the level's list: its own box rows first
/// (`2j`: `yⱼ ≤ bound`, `2j+1`: `−yⱼ ≤ bound`), then the given rows.
enum Found {
    Opt(Vec<f64>),
    Infeasible { weights: Vec<(usize, f64)> },
}

/// A projected normal shorter than this is parallel to the hyperplane it was restricted to.
const PARALLEL: f64 = 1e-14;

/// The sign the lexicographic objective `c` gives coordinate `j`: that of the first vector
/// whose `j`-th entry is non-zero.
fn lex_sign(c: &[Vec<f64>], j: usize) -> f64 {
    c.iter()
        .map(|v| v.get(j).copied().unwrap_or(0.0))
        .find(|v| *v != 0.0)
        .map_or(0.0, f64::signum)
}

fn level(rows: &Rows<'_>, c: &[Vec<f64>], bound: f64, x0sq: f64, ctx: &Ctx) -> Found {
    let k = rows.k;
    if k == 1 {
        return base1(rows, lex_sign(c, 0), bound, x0sq, ctx);
    }
    let nbox = 2 * k;
    let mut x: Vec<f64> = (0..k).map(|j| bound * lex_sign(c, j)).collect();
    let m = rows.b.len();
    for i in 0..m {
        let ai = &rows.a[i * k..(i + 1) * k];
        let r = dot(ai, &x) - rows.b[i];
        let xn = (x0sq + dot(&x, &x)).sqrt();
        let tol = ctx.rel * (rows.s[i] + xn);
        if !(r > tol) {
            continue;
        }
        let na = dot(ai, ai).sqrt();
        if !(na > PARALLEL) {
            // `0 ≤ bᵢ < 0` on its own.
            return Found::Infeasible {
                weights: vec![(nbox + i, 1.0)],
            };
        }
        // The hyperplane ν·x = β and its parametrisation x = βν + U y.
        let nu: Vec<f64> = ai.iter().map(|v| v / na).collect();
        let beta = rows.b[i] / na;
        let basis = householder_basis(&nu);
        let x0: Vec<f64> = nu.iter().map(|v| beta * v).collect();
        // Child rows: this level's box rows, then rows 0..i, all restricted to the hyperplane.
        let kc = k - 1;
        let nchild = nbox + i;
        let mut ca = Vec::with_capacity(nchild * kc);
        let mut cb = Vec::with_capacity(nchild);
        let mut cs = Vec::with_capacity(nchild);
        // This level's box rows ±e_j·x ≤ B (no allocation: their products are coordinates).
        for j in 0..k {
            for sign in [1.0, -1.0] {
                for u in &basis {
                    ca.push(sign * u[j]);
                }
                cb.push(bound - sign * x0[j]);
                cs.push(bound);
            }
        }
        for q in 0..i {
            let normal = &rows.a[q * k..(q + 1) * k];
            for u in &basis {
                ca.push(dot(normal, u));
            }
            cb.push(rows.b[q] - dot(normal, &x0));
            cs.push(rows.s[q]);
        }
        // Project every objective; one orthogonal to the hyperplane (to rounding) drops out.
        let cc: Vec<Vec<f64>> = c
            .iter()
            .filter_map(|v| {
                let p: Vec<f64> = basis.iter().map(|u| dot(v, u)).collect();
                (dot(&p, &p).sqrt() > 1e-13 * dot(v, v).sqrt()).then_some(p)
            })
            .collect();
        let child = Rows {
            k: kc,
            a: &ca,
            b: &cb,
            s: &cs,
        };
        match level(&child, &cc, ctx.inner_bound, x0sq + beta * beta, ctx) {
            Found::Opt(y) => {
                x = x0.clone();
                for (yj, u) in y.iter().zip(&basis) {
                    for (xv, uv) in x.iter_mut().zip(u) {
                        *xv += yj * uv;
                    }
                }
            }
            Found::Infeasible { weights } => {
                // Lift: the child's combination of restricted rows cancels within ν⊥, so in
                // this level's coordinates it equals μν; adding −μ/|aᵢ| times row i cancels it.
                let cbox = 2 * kc;
                let mut combo = vec![0.0; k];
                let mut lifted = Vec::with_capacity(weights.len() + 1);
                for (p, l) in weights {
                    let normal: Vec<f64> = if p < cbox {
                        // The child's own box row ±y_j ≤ B is ±u_j·x ≤ … here; it stays a
                        // box row (position < 2k) so the top level knows the box was used.
                        let sign = if p % 2 == 0 { 1.0 } else { -1.0 };
                        lifted.push((0, l));
                        basis
                            .get(p / 2)
                            .map(|u| u.iter().map(|v| sign * v).collect())
                            .unwrap_or_else(|| vec![0.0; k])
                    } else {
                        let q = p - cbox;
                        lifted.push((q, l));
                        row_at(rows, q, bound).0
                    };
                    for (cv, nv) in combo.iter_mut().zip(&normal) {
                        *cv += l * nv;
                    }
                }
                let mu = dot(&combo, &nu);
                lifted.push((nbox + i, (-mu / na).max(0.0)));
                return Found::Infeasible { weights: lifted };
            }
        }
    }
    Found::Opt(x)
}

/// Row `p` of a level's list (box rows first): `(normal, offset, tolerance scale)`.
fn row_at(rows: &Rows<'_>, p: usize, bound: f64) -> (Vec<f64>, f64, f64) {
    let k = rows.k;
    if p < 2 * k {
        let mut n = vec![0.0; k];
        n[p / 2] = if p.is_multiple_of(2) { 1.0 } else { -1.0 };
        (n, bound, bound)
    } else {
        let q = p - 2 * k;
        (rows.a[q * k..(q + 1) * k].to_vec(), rows.b[q], rows.s[q])
    }
}

/// The k − 1 columns other than the pivot of the Householder reflection that maps the unit
/// vector `nu` to ∓e_p: an orthonormal basis of ν⊥.
fn householder_basis(nu: &[f64]) -> Vec<Vec<f64>> {
    let k = nu.len();
    let p = (0..k)
        .max_by(|&i, &j| nu[i].abs().total_cmp(&nu[j].abs()))
        .unwrap_or(0);
    let sign = if nu[p] >= 0.0 { 1.0 } else { -1.0 };
    let mut w = nu.to_vec();
    w[p] += sign;
    let ww = dot(&w, &w);
    let mut out = Vec::with_capacity(k - 1);
    for j in (0..k).filter(|&j| j != p) {
        // Column j of I − 2wwᵀ/(wᵀw).
        let f = 2.0 * w[j] / ww;
        let col: Vec<f64> = (0..k)
            .map(|i| if i == j { 1.0 } else { 0.0 } - f * w[i])
            .collect();
        out.push(col);
    }
    out
}

/// One dimension: intersect the intervals `a y ≤ b` with `|y| ≤ bound`, then take the end the
/// objective prefers (or the point nearest 0 when it is 0).
fn base1(rows: &Rows<'_>, c: f64, bound: f64, x0sq: f64, ctx: &Ctx) -> Found {
    // (value, position, |coefficient|, scale)
    let mut lo = (-bound, 1usize, 1.0, bound);
    let mut hi = (bound, 0usize, 1.0, bound);
    for (j, (&a, &b)) in rows.a.iter().zip(rows.b).enumerate() {
        let s = rows.s[j];
        if !(a.abs() > PARALLEL) {
            let tol = ctx.rel * (s + x0sq.sqrt());
            if b < -tol {
                return Found::Infeasible {
                    weights: vec![(2 + j, 1.0)],
                };
            }
            continue;
        }
        let v = b / a;
        if a > 0.0 {
            if v < hi.0 {
                hi = (v, 2 + j, a, s);
            }
        } else if v > lo.0 {
            lo = (v, 2 + j, -a, s);
        }
    }
    if lo.0 <= hi.0 {
        let y = if c > 0.0 {
            hi.0
        } else if c < 0.0 {
            lo.0
        } else {
            0.0f64.clamp(lo.0, hi.0)
        };
        return Found::Opt(vec![y]);
    }
    // The bounds cross: the point minimising the larger of the two residuals, accepted as a
    // touching contact when that residual is within the tolerance.
    let (al, ah) = (lo.2, hi.2);
    let t = (ah * hi.0 + al * lo.0) / (ah + al);
    let r = ah * al * (lo.0 - hi.0) / (ah + al);
    let tol = ctx.rel * (lo.3.max(hi.3) + (x0sq + t * t).sqrt());
    if r <= tol {
        return Found::Opt(vec![t]);
    }
    // al·(−y ≤ …) + ah·(y ≤ …) cancels y.
    let sum = al + ah;
    Found::Infeasible {
        weights: vec![(lo.1, ah / sum), (hi.1, al / sum)],
    }
}
