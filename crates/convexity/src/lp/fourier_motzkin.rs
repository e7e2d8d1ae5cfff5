//! Fourier–Motzkin elimination: feasibility of a small half-space system `nᵢ·x ≤ oᵢ`, with a
//! feasible point or a Farkas combination as the certificate.
//!
//! Source: J. B. J. Fourier (1826), T. S. Motzkin (1936); A. Schrijver, *Theory of Linear and
//! Integer Programming*, §12.2; redundancy rule of S. N. Chernikov (1960) / D. A. Kohler (1967).
//!
//! Algorithm: eliminate the variables from the last to the first. For variable xₖ the rows
//! split into P (coefficient > 0), N (< 0) and Z (0); every pair (p, q) ∈ P × N gives the
//! non-negative combination `p/|pₖ| + q/|qₖ|`, in which xₖ cancels, and the projected system is
//! Z ∪ {those combinations}. When no variable is left, the system is feasible iff every
//! remaining row reads `0 ≤ c` with `c ≥ 0`; a row `0 ≤ c < 0` is the Farkas certificate (each
//! row carries its combination of input rows). A feasible point is then built by
//! back-substitution: x₀ from the one-variable system, x₁ from the two-variable system with x₀
//! fixed, and so on (each step takes the middle of an interval).
//!
//! **Exponential growth.** One step turns m rows into up to |Z| + |P|·|N| ≤ m²/4 rows, so k
//! steps can give (m/2)^(2^k) rows: 40 rows in 4 variables can reach 20^16. Pruning keeps real
//! systems far below that, but not all of them, so the elimination refuses to start a step
//! whose row count would exceed [`FmOptions::max_rows`] and returns [`FmError::TooLarge`] at
//! once (before building the rows), and refuses systems with more than [`FmOptions::max_dim`]
//! variables.
//!
//! Pruning, after every step: (1) exact and scaled duplicates (rows are scaled to unit largest
//! coefficient, so a scaled duplicate is an equal row; the tighter offset is kept); (2)
//! Chernikov's rule: after k eliminations a row that combines more than k + 1 input rows is
//! redundant; (3) optionally ([`FmOptions::lp_prune`]) an LP test: a row is dropped when
//! maximising its left side over the other rows (Seidel's LP, [`crate::lp::seidel`]) cannot exceed
//! its offset by more than the tolerance. (3) makes the projections of bounded 2D/3D polytopes
//! stay at their true facet counts; it uses the Seidel solver, so comparisons of the two methods
//! are not fully independent when it is on (tests compare both against independent oracles).
//! Rule (2) is a statement about the complete elimination of a *feasible* system: on an
//! infeasible one it can drop rows that the certificate needs (the random tests found such
//! systems, in 2D), and after (3) has removed rows its premise fails. So (2) is switched off once
//! (3) has removed a row, and a "feasible" answer whose back-substituted point violates the
//! system by more than `1e-9 · (S + |x|∞)` triggers a second elimination without (2)
//! ([`FmStats::chernikov_retry`]). Either answer is certified by its own evidence — a point that
//! is checked against the input, or a combination of input rows — whatever was pruned. (3) also drops
//! a row when the other rows are infeasible by themselves: the system stays infeasible.
//!
//! Tolerance: a derived row's offset is judged against `rel_tolerance ·` the sum of its weights
//! times `|oᵢ|/|nᵢ| + S` (S the system's magnitude), the scale of its rounding.
//!
//! Failure modes: [`FmError::TooLarge`] as above; input errors for a bad system. No panics, and
//! every loop is bounded by the row limit.

use crate::error::InputError;
use crate::gjk::certificate::tolerance_for;
use crate::lp::seidel::{
    centred_systems, shifted, split_farkas, typed_verdict, HalfspaceVerdict, PairAnswer,
};
use crate::math::pose::Pose;
use crate::math::seidel_lp;
use crate::math::slice::dot;
use crate::math::vector::Vector;
use crate::shape::{BoundedHalfspaces, Farkas, Halfspaces};

/// Size limits and settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FmOptions {
    /// Largest number of rows allowed at any stage (checked before a step builds its rows).
    pub max_rows: usize,
    /// Largest number of variables.
    pub max_dim: usize,
    /// Relative tolerance: a derived row `0 ≤ off` is judged empty-infeasible only when
    /// `off < −rel_tolerance ·` the sum of the weighted magnitudes of the rows it combines (see the
    /// module header).
    pub rel_tolerance: f64,
    /// Drop rows that an LP shows to be redundant (see the module header).
    pub lp_prune: bool,
}

impl Default for FmOptions {
    fn default() -> Self {
        FmOptions {
            max_rows: 20_000,
            max_dim: 12,
            rel_tolerance: 1e-11,
            lp_prune: true,
        }
    }
}

/// Why the elimination refused to run.
#[derive(Clone, Debug, PartialEq)]
pub enum FmError {
    /// The system itself is malformed (the error names the field).
    Input(InputError),
    /// Eliminating `variable` would produce `rows` rows, more than `limit`.
    TooLarge {
        /// Index of the variable being eliminated.
        variable: usize,
        /// Rows the step would produce.
        rows: usize,
        /// [`FmOptions::max_rows`].
        limit: usize,
    },
    /// The system has more variables than [`FmOptions::max_dim`].
    TooManyVariables {
        /// Number of variables of the system.
        dim: usize,
        /// [`FmOptions::max_dim`].
        limit: usize,
    },
    /// Every attempt (with and without Chernikov's rule and the LP pruning) ended with a
    /// "feasible" point that violates a row by `max_violation`: rounding defeated the
    /// elimination, and no answer is claimed.
    Unverified {
        /// The smallest largest-row violation over the attempts (a distance).
        max_violation: f64,
    },
}

impl From<InputError> for FmError {
    fn from(e: InputError) -> Self {
        FmError::Input(e)
    }
}

impl core::fmt::Display for FmError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FmError::Input(e) => write!(f, "{e}"),
            FmError::TooLarge {
                variable,
                rows,
                limit,
            } => write!(
                f,
                "Fourier-Motzkin: eliminating x{variable} would create {rows} inequalities, more \
                 than the limit {limit} (the count can square at every step); use the LP \
                 (seidel) instead"
            ),
            FmError::TooManyVariables { dim, limit } => write!(
                f,
                "Fourier-Motzkin: {dim} variables exceed the limit {limit}"
            ),
            FmError::Unverified { max_violation } => write!(
                f,
                "Fourier-Motzkin: the back-substituted point violates a row by {max_violation:e} \
                 in every attempt; no answer is claimed"
            ),
        }
    }
}

impl std::error::Error for FmError {}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub enum FmOutcome {
    /// A point satisfying every row; `max_violation` is its largest row violation (a distance,
    /// ≤ 0 inside).
    Feasible {
        /// The point, one coordinate per variable.
        point: Vec<f64>,
        /// Its largest row violation (a distance, ≤ 0 inside).
        max_violation: f64,
    },
    /// A Farkas combination of the input rows proving infeasibility.
    Infeasible {
        /// Non-negative weights on the input rows whose combination is a contradiction
        /// (`0 ≤ negative`); see [`Farkas::check`].
        combination: Farkas,
    },
}

/// Row counts seen during the elimination.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FmStats {
    /// Rows after each step's pruning (first entry: the input after duplicate removal).
    pub rows_per_stage: Vec<usize>,
    /// Largest row count at any stage.
    pub peak_rows: usize,
    /// Rows dropped as exact or scaled duplicates.
    pub pruned_duplicates: usize,
    /// Combinations skipped by Chernikov's rule (too many input rows in their history).
    pub pruned_chernikov: usize,
    /// Rows dropped because an LP showed them redundant ([`FmOptions::lp_prune`]).
    pub pruned_lp: usize,
    /// The first elimination (with Chernikov's rule) claimed feasibility with a point that
    /// violates the system, and this is the second one, without the rule.
    pub chernikov_retry: bool,
}

/// Result of [`feasible`].
#[derive(Clone, Debug, PartialEq)]
pub struct FmReport {
    /// The answer, each with its own evidence (a point or a Farkas combination).
    pub outcome: FmOutcome,
    /// Row counts, for diagnosing blow-up.
    pub stats: FmStats,
}

#[derive(Clone, Debug)]
struct Row {
    coef: Vec<f64>,
    off: f64,
    /// `(input row, weight)`, sorted by row.
    combo: Vec<(usize, f64)>,
    /// Rounding scale of the offset.
    mag: f64,
}

impl Row {
    fn scale(&mut self, f: f64) {
        self.coef.iter_mut().for_each(|c| *c *= f);
        self.off *= f;
        self.mag *= f;
        self.combo.iter_mut().for_each(|(_, w)| *w *= f);
    }

    /// Scales to unit largest coefficient; a row whose coefficients cancelled to rounding level
    /// (below `1e-12` of the parents' unit scale) becomes `0 ≤ off`.
    fn normalise(&mut self) {
        let m = self.coef.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        if m > 1e-12 {
            self.scale(1.0 / m);
        } else {
            self.coef.iter_mut().for_each(|c| *c = 0.0);
        }
    }

    fn is_zero(&self) -> bool {
        self.coef.iter().all(|c| *c == 0.0)
    }
}

/// Decides whether `system` has a solution.
pub fn feasible(system: &Halfspaces, limits: &FmOptions) -> Result<FmReport, FmError> {
    // A "feasible" answer is only returned when its point checks out against the original
    // rows. Chernikov's rule and the LP pruning can each drop a row that rounding made look
    // redundant, so a failed check retries without the rule, then without either.
    // (Regression: fuzzing found a pair of posed tetrahedra, 455 apart, reported feasible at
    // x ≈ 2e9 after the LP pruning removed a bounding row.)
    let violated = |r: &FmReport| match &r.outcome {
        FmOutcome::Feasible {
            point,
            max_violation,
        } => {
            let xmax = point.iter().fold(0.0f64, |m, c| m.max(c.abs()));
            (*max_violation > 1e-9 * (system.magnitude() + xmax)).then_some(*max_violation)
        }
        FmOutcome::Infeasible { .. } => None,
    };
    let first = eliminate(system, limits, true)?;
    if violated(&first).is_none() {
        return Ok(first);
    }
    let mut second = eliminate(system, limits, false)?;
    second.stats.chernikov_retry = true;
    if violated(&second).is_none() {
        return Ok(second);
    }
    let plain = FmOptions {
        lp_prune: false,
        ..*limits
    };
    let mut third = eliminate(system, &plain, false)?;
    third.stats.chernikov_retry = true;
    match violated(&third) {
        None => Ok(third),
        Some(max_violation) => Err(FmError::Unverified { max_violation }),
    }
}

fn eliminate(
    system: &Halfspaces,
    limits: &FmOptions,
    use_chernikov: bool,
) -> Result<FmReport, FmError> {
    check_limits(system, limits)?;
    let d = system.dim();
    let mut stats = FmStats::default();
    let mut rows = input_rows(system);
    stats.pruned_duplicates += dedupe(&mut rows);
    stats.rows_per_stage.push(rows.len());
    stats.peak_rows = rows.len();
    // stages[j]: the system before eliminating variable d − 1 − j.
    let mut stages: Vec<Vec<Row>> = Vec::with_capacity(d);
    let mut chernikov = use_chernikov;
    for var in (0..d).rev() {
        let (p, n, z) = split_by_sign(&mut rows, var);
        let predicted = z.len() + p.len() * n.len();
        if predicted > limits.max_rows {
            return Err(FmError::TooLarge {
                variable: var,
                rows: predicted,
                limit: limits.max_rows,
            });
        }
        let mut stage = Vec::with_capacity(p.len() + n.len() + z.len());
        stage.extend(p.iter().cloned());
        stage.extend(n.iter().cloned());
        stage.extend(z.iter().cloned());
        stages.push(stage);
        let next = combine(&p, &n, z, var, d - var, chernikov, &mut stats);
        rows = match drop_empty_rows(next, limits.rel_tolerance) {
            Ok(kept) => kept,
            Err(combination) => {
                return Ok(FmReport {
                    outcome: FmOutcome::Infeasible { combination },
                    stats,
                })
            }
        };
        stats.pruned_duplicates += dedupe(&mut rows);
        if limits.lp_prune && var > 0 && rows.len() > 2 * var + 2 {
            let pruned = lp_prune(&mut rows, var, limits.rel_tolerance);
            stats.pruned_lp += pruned;
            // Chernikov's rule assumes every row of the full elimination is present (a row it
            // drops is implied by rows of smaller history); once the LP has removed rows that
            // assumption fails (a test found a feasible verdict for an infeasible system), so
            // from here on the LP does all the pruning.
            chernikov &= pruned == 0;
        }
        stats.rows_per_stage.push(rows.len());
        stats.peak_rows = stats.peak_rows.max(rows.len());
    }
    let x = back_substitute(&stages, d);
    let max_violation = system.violation(&x);
    Ok(FmReport {
        outcome: FmOutcome::Feasible {
            point: x,
            max_violation,
        },
        stats,
    })
}

/// The variable and row limits, checked before any work.
fn check_limits(system: &Halfspaces, limits: &FmOptions) -> Result<(), FmError> {
    let d = system.dim();
    if d > limits.max_dim {
        return Err(FmError::TooManyVariables {
            dim: d,
            limit: limits.max_dim,
        });
    }
    if system.len() > limits.max_rows {
        return Err(FmError::TooLarge {
            variable: d - 1,
            rows: system.len(),
            limit: limits.max_rows,
        });
    }
    Ok(())
}

/// The input rows, normalised, each its own combination.
fn input_rows(system: &Halfspaces) -> Vec<Row> {
    let big_s = system.magnitude();
    (0..system.len())
        .map(|i| {
            let nl = system.normal_length(i);
            let mut r = Row {
                coef: system.normal(i).to_vec(),
                off: system.offset(i),
                combo: vec![(i, 1.0)],
                mag: system.offset(i).abs() + nl * big_s,
            };
            r.normalise();
            r
        })
        .collect()
}

/// Drains `rows` into those with a positive, negative and zero coefficient of `var`.
fn split_by_sign(rows: &mut Vec<Row>, var: usize) -> (Vec<Row>, Vec<Row>, Vec<Row>) {
    let (mut p, mut n, mut z) = (Vec::new(), Vec::new(), Vec::new());
    for mut r in rows.drain(..) {
        let c = r.coef[var];
        if c > 1e-14 {
            p.push(r);
        } else if c < -1e-14 {
            n.push(r);
        } else {
            r.coef[var] = 0.0;
            z.push(r);
        }
    }
    (p, n, z)
}

/// The projected system: `z` plus every combination `p/|pₖ| + q/|qₖ|` in which `var` cancels
/// (skipping those Chernikov's rule marks redundant after `eliminated` steps).
fn combine(
    p: &[Row],
    n: &[Row],
    z: Vec<Row>,
    var: usize,
    eliminated: usize,
    chernikov: bool,
    stats: &mut FmStats,
) -> Vec<Row> {
    let mut next = z;
    for rp in p {
        for rn in n {
            let combo = merge(
                &rp.combo,
                1.0 / rp.coef[var],
                &rn.combo,
                -1.0 / rn.coef[var],
            );
            if chernikov && combo.len() > eliminated + 1 {
                stats.pruned_chernikov += 1;
                continue;
            }
            let (fp, fn_) = (1.0 / rp.coef[var], -1.0 / rn.coef[var]);
            let mut coef: Vec<f64> = rp
                .coef
                .iter()
                .zip(&rn.coef)
                .map(|(a, b)| fp * a + fn_ * b)
                .collect();
            coef[var] = 0.0;
            let mut r = Row {
                coef,
                off: fp * rp.off + fn_ * rn.off,
                combo,
                mag: fp * rp.mag + fn_ * rn.mag,
            };
            r.normalise();
            next.push(r);
        }
    }
    next
}

/// Drops rows without variables (`0 ≤ off`); a violated one (`off` below its rounding scale)
/// is the Farkas certificate.
fn drop_empty_rows(next: Vec<Row>, rel_tolerance: f64) -> Result<Vec<Row>, Farkas> {
    let mut kept = Vec::with_capacity(next.len());
    for r in next {
        if r.is_zero() {
            if r.off < -rel_tolerance * r.mag {
                return Err(Farkas { weights: r.combo });
            }
        } else {
            kept.push(r);
        }
    }
    Ok(kept)
}

/// Back-substitution, first variable first: each variable takes the middle of its interval
/// given the earlier ones (or the residual-balancing point when rounding crossed the bounds).
fn back_substitute(stages: &[Vec<Row>], d: usize) -> Vec<f64> {
    let mut x = vec![0.0; d];
    for var in 0..d {
        let Some(stage) = stages.get(d - 1 - var) else {
            break;
        };
        let (mut lo, mut hi) = ((f64::NEG_INFINITY, 1.0), (f64::INFINITY, 1.0));
        for r in stage {
            let a = r.coef[var];
            if a.abs() <= 1e-14 {
                continue;
            }
            let rest = r.off - dot(&r.coef[..var], &x[..var]);
            let v = rest / a;
            if a > 0.0 && v < hi.0 {
                hi = (v, a);
            } else if a < 0.0 && v > lo.0 {
                lo = (v, -a);
            }
        }
        x[var] = if lo.0 <= hi.0 {
            if lo.0.is_finite() && hi.0.is_finite() {
                0.5 * (lo.0 + hi.0)
            } else {
                0.0f64.clamp(lo.0, hi.0)
            }
        } else {
            // Crossing within rounding: the point balancing the two residuals.
            (hi.1 * hi.0 + lo.1 * lo.0) / (hi.1 + lo.1)
        };
    }
    x
}

/// `fa·a + fb·b` over sorted sparse combinations.
fn merge(a: &[(usize, f64)], fa: f64, b: &[(usize, f64)], fb: f64) -> Vec<(usize, f64)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(&(ia, wa)), Some(&(ib, wb))) if ia == ib => {
                out.push((ia, fa * wa + fb * wb));
                i += 1;
                j += 1;
            }
            (Some(&(ia, wa)), Some(&(ib, _))) if ia < ib => {
                out.push((ia, fa * wa));
                i += 1;
            }
            (Some(&(ia, wa)), None) => {
                out.push((ia, fa * wa));
                i += 1;
            }
            (_, Some(&(ib, wb))) => {
                out.push((ib, fb * wb));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// Removes duplicate rows (equal coefficients within 1e-12 after normalisation), keeping the
/// smallest offset. Returns the number removed.
fn dedupe(rows: &mut Vec<Row>) -> usize {
    let before = rows.len();
    rows.sort_by(|a, b| {
        for (x, y) in a.coef.iter().zip(&b.coef) {
            let o = x.total_cmp(y);
            if o != core::cmp::Ordering::Equal {
                return o;
            }
        }
        a.off.total_cmp(&b.off)
    });
    let mut out: Vec<Row> = Vec::with_capacity(rows.len());
    for r in rows.drain(..) {
        if let Some(last) = out.last() {
            let same = last
                .coef
                .iter()
                .zip(&r.coef)
                .all(|(x, y)| (x - y).abs() <= 1e-12);
            if same {
                // Sorted by offset within equal coefficients: the one kept is the tighter.
                if r.off < last.off {
                    if let Some(l) = out.last_mut() {
                        *l = r;
                    }
                }
                continue;
            }
        }
        out.push(r);
    }
    *rows = out;
    before - rows.len()
}

/// Drops rows implied by the others (over the variables `0..nvar`). Returns the number dropped.
fn lp_prune(rows: &mut Vec<Row>, nvar: usize, rel: f64) -> usize {
    let mut keep = vec![true; rows.len()];
    let opts = seidel_lp::SeidelOptions::default();
    for i in 0..rows.len() {
        let others: Vec<usize> = (0..rows.len()).filter(|&j| j != i && keep[j]).collect();
        if others.is_empty() {
            continue;
        }
        let mut normals = Vec::with_capacity(others.len() * nvar);
        let mut offsets = Vec::with_capacity(others.len());
        for &j in &others {
            normals.extend_from_slice(&rows[j].coef[..nvar]);
            offsets.push(rows[j].off);
        }
        let Ok(h) = Halfspaces::new(nvar, normals, offsets) else {
            continue;
        };
        let Ok(r) = seidel_lp::solve(&h, &rows[i].coef[..nvar], &opts) else {
            continue;
        };
        let drop = match r.outcome {
            seidel_lp::LpOutcome::Optimal { value, .. } => value <= rows[i].off + rel * rows[i].mag,
            // The other rows alone are infeasible: dropping row i keeps the system infeasible,
            // and the elimination still derives its own certificate from the rows kept.
            seidel_lp::LpOutcome::Infeasible { .. } => true,
            seidel_lp::LpOutcome::Unbounded { .. } => false,
        };
        if drop {
            keep[i] = false;
        }
    }
    let before = rows.len();
    let mut k = keep.into_iter();
    rows.retain(|_| k.next().unwrap_or(true));
    before - rows.len()
}

/// The half-space form of the hull of any non-empty finite 2D or 3D point set, for the
/// half-space methods: a solid's facets (3D: the robust
/// [`ConvexPolyhedron::build`](crate::hull::ConvexPolyhedron::build); 2D: the planar hull's
/// edges); a flat, collinear or single-point set as *equality rows*: each
/// direction the set does not span gets the pair `n·x ≤ max`, `−n·x ≤ −min` over the points
/// (equal up to the points' own rounding), and the spanned directions get the lower-dimensional
/// hull's facets (a polygon's sides `e × n`, a segment's ends `±d`). Every input point
/// satisfies every row by construction (each offset is the maximum of the same dot products).
/// Errors: empty or non-finite input, a dimension other than 2 or 3 (naming `points`), and the
/// bounded-set check of [`BoundedHalfspaces::new`], each with its cause.
pub fn hull_halfspaces<V: Vector>(points: &[V]) -> Result<BoundedHalfspaces<V>, InputError> {
    let rows: Vec<Vec<f64>> = points.iter().map(|p| p.to_vec()).collect();
    let normals = match V::DIM {
        3 => {
            let p3: Vec<glam::DVec3> = rows
                .iter()
                .map(|r| glam::DVec3::new(r[0], r[1], r[2]))
                .collect();
            hull_normals_3d(&p3)?
        }
        2 => {
            let p2: Vec<glam::DVec2> = rows.iter().map(|r| glam::DVec2::new(r[0], r[1])).collect();
            hull_normals_2d(&p2)?
        }
        d => {
            return Err(InputError::new(
                "points",
                crate::error::Problem::Invalid(format!("dimension {d} is not supported")),
            ))
        }
    };
    // Each offset is the largest `n·p` over the points, so every point satisfies every row,
    // plus a pad of four hull tolerances (`64 ε Σ_k max|p_k|`, the thick plane of
    // `crate::hull`): rounded facet planes of a nearly degenerate solid (a needle facet) can
    // otherwise leave an LP unable to find the set's interior.
    let pad = 4.0 * hull_tolerance(&rows);
    let offsets: Vec<f64> = normals
        .iter()
        .map(|n| {
            rows.iter()
                .map(|r| dot(n, r))
                .fold(f64::NEG_INFINITY, f64::max)
                + pad
        })
        .collect();
    BoundedHalfspaces::new(Halfspaces::from_rows(&normals, &offsets)?)
}

/// The hull's thick-plane half width for points given as rows (see `crate::hull`).
fn hull_tolerance(rows: &[Vec<f64>]) -> f64 {
    let dim = rows.first().map_or(0, Vec::len);
    let sum: f64 = (0..dim)
        .map(|k| rows.iter().map(|r| r[k].abs()).fold(0.0, f64::max))
        .sum();
    16.0 * f64::EPSILON * sum
}

/// Row normals of a 3D hull (see [`hull_halfspaces`]).
fn hull_normals_3d(p: &[glam::DVec3]) -> Result<Vec<Vec<f64>>, InputError> {
    use crate::hull::{ConvexPolyhedron, HullOptions, HullResult};
    use glam::DVec3;
    let v = |n: DVec3| vec![n.x, n.y, n.z];
    let mut out = Vec::new();
    match ConvexPolyhedron::build(p, &HullOptions::default())? {
        HullResult::Solid(h) => out.extend((0..h.num_faces()).map(|f| v(h.face_plane(f).0))),
        HullResult::Flat {
            normal, vertices, ..
        } => {
            out.extend([v(normal), v(-normal)]);
            for k in 0..vertices.len() {
                let e = vertices[(k + 1) % vertices.len()] - vertices[k];
                if let Some(u) = e.cross(normal).try_normalize() {
                    out.push(v(u));
                }
            }
            if vertices.len() < 3 {
                out.extend(box_rows(3));
            }
        }
        HullResult::Segment { a, b } => {
            let d = (b - a).normalize_or(DVec3::X);
            let u = d.any_orthonormal_vector();
            let w = d.cross(u);
            out.extend([v(d), v(-d), v(u), v(-u), v(w), v(-w)]);
        }
        HullResult::Point(_) => out.extend(box_rows(3)),
    }
    Ok(out)
}

/// Row normals of a 2D hull (see [`hull_halfspaces`]).
fn hull_normals_2d(p: &[glam::DVec2]) -> Result<Vec<Vec<f64>>, InputError> {
    if p.is_empty() {
        return Err(InputError::new("points", crate::error::Problem::Empty));
    }
    for (i, q) in p.iter().enumerate() {
        crate::math::vector::finite_vec(&format!("points[{i}]"), *q)?;
    }
    let idx = crate::math::hull2d::hull2d(p);
    let hull: Vec<glam::DVec2> = idx.iter().filter_map(|&i| p.get(i).copied()).collect();
    let mut out = Vec::new();
    for k in 0..hull.len() {
        let e = hull[(k + 1) % hull.len()] - hull[k];
        // Counter-clockwise hull: the outward normal of an edge is (e_y, −e_x).
        if let Some(n) = glam::DVec2::new(e.y, -e.x).try_normalize() {
            out.push(vec![n.x, n.y]);
        }
    }
    if hull.len() < 3 {
        // A segment or a point: its direction's rows (above) plus the axes close it.
        out.extend(box_rows(2));
    }
    Ok(out)
}

/// `±e_k` for every axis: closes any lower-dimensional hull.
fn box_rows(dim: usize) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for k in 0..dim {
        for s in [1.0, -1.0] {
            let mut n = vec![0.0; dim];
            n[k] = s;
            out.push(n);
        }
    }
    out
}

/// Fourier–Motzkin on a posed pair of bounded 2D/3D half-space shapes: the entry for
/// `--algorithm fourier-motzkin`. A feasible point is the common point (world frame); a Farkas
/// combination becomes a separating axis whose gap is recomputed from the vertices.
pub fn intersect_pair<V: Vector>(
    a: &BoundedHalfspaces<V>,
    pose_a: &Pose<V>,
    b: &BoundedHalfspaces<V>,
    pose_b: &Pose<V>,
    limits: &FmOptions,
) -> Result<PairAnswer<V>, FmError> {
    // Relative to A's position: far from the origin the world offsets (and their rounding)
    // are of the order of the offset (issue 14: boxes 0.01 apart at 1e9 were "intersecting").
    let (ha, hb, centre) = centred_systems(a, pose_a, b, pose_b)?;
    let union = ha.concat(&hb)?;
    let report = feasible(&union, limits)?;
    let tolerance = tolerance_for(a, pose_a, b, pose_b);
    let verdict = match report.outcome {
        // The point is accepted only within the pair's touch tolerance of every row; a point
        // further out is no certificate (the elimination's own acceptance is looser).
        FmOutcome::Feasible {
            point,
            max_violation,
        } if max_violation <= tolerance => HalfspaceVerdict::Intersecting { point },
        FmOutcome::Feasible { .. } => HalfspaceVerdict::Undetermined,
        FmOutcome::Infeasible { combination } => split_farkas(&union, ha.len(), &combination),
    };
    Ok(typed_verdict(
        &shifted(verdict, centre),
        a,
        pose_a,
        b,
        pose_b,
    ))
}
