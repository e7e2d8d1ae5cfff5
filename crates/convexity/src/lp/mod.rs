//! Linear programming on vertex sets, in any dimension n ≥ 1: intersection with certificates,
//! the exact L1 distance, and containment.
//!
//! `K = conv(S)` and `L = conv(T)` intersect iff some `λ, μ ≥ 0` with `Σλ = Σμ = 1` have
//! `Σλᵢsᵢ = Σμⱼtⱼ`: an LP with n + 2 equality rows and |S| + |T| columns.
//!
//! * [`intersect_reference`] ([`reference`](mod@reference)): the textbook formulation, kept as a reference:
//!   slack variables on `Ax ≤ b`, start at `x = 0`, minimise `eᵀ(b − Ax)` with a dense tableau
//!   and Bland's rule. Its optimum, [`ReferenceIntersection::infeasibility_objective`], is zero
//!   exactly when the hulls meet, and is **not** a distance (see below).
//! * [`intersect`] (production, `revised`): the L1 distance LP
//!   `min Σ(r⁺ + r⁻)  s.t.  Σλᵢsᵢ − Σμⱼtⱼ = r⁺ − r⁻, Σλ = Σμ = 1`, solved by a revised simplex
//!   whose basis has only n + 2 columns (O(n²) per pivot plus O(n(|S| + |T|)) pricing). Its
//!   first basis is feasible (no phase 1), it exits early as soon as either certificate is
//!   proved, and its optimal duals `(w, α, β)` satisfy `min_T w·t − max_S w·s = d₁`
//!   (LP duality): `w` is the Farkas direction of the feasibility problem.
//! * [`l1_distance`]: the same LP solved to optimality: the exact L1 distance `d₁` between the
//!   hulls, the closest pair, and the Euclidean bracket `d₂ ∈ [d₁/√n, d₁]`.
//! * [`containment`]: point in hull, a batch version that reuses the scaled hull and warm-starts
//!   each point from the previous basis, and hull-in-hull containment.
//! * [`intersect_points`]: 2D/3D [`Points`] with poses, returning a [`Verdict`].
//!
//! Two defects of the usual write-up are avoided:
//! 1. The reference objective `min eᵀ(b − Ax)` is not a lower bound on any distance: the
//!    residuals are forced non-negative on every coordinate row, so only part of K − L is
//!    reachable. For K = {(0.1, −0.1)}, L = {(0, 0)} it is 1 while the L1 distance is 0.2. The
//!    distance is [`l1_distance`], with free (split) residuals.
//! 2. Single points are compared by absolute coordinate differences (the L1 residual
//!    `Σₖ|sₖ − tₖ|`), never by a signed difference.
//!
//! Quantities: `d₁` is the L1 (sum of absolute coordinates) distance between the hulls, `d₂` the
//! Euclidean one; `‖x‖₂ ≤ ‖x‖₁ ≤ √n‖x‖₂` gives `d₁/√n ≤ d₂ ≤ d₁`.
//!
//! Tolerance (absolute, a length; see [`tolerance`]): `tol = rel · (size_S + size_T) +
//! 8(n + 2) ε · magnitude`, sizes being bounding-box diagonals and magnitude the largest
//! absolute coordinate (the rounding of a dot product of the original coordinates).
//! Decision rule of [`intersect`]: intersecting iff the L1 residual of the returned weights is
//! at most `tol` (touching is intersecting); otherwise separated only with a hyperplane whose
//! gap, evaluated over every vertex of the original data, is positive (and above `tol` unless
//! the LP was solved to optimality). Anything else is [`VerdictN::Undetermined`] with a status.
//!
//! Scaling: the LP runs on coordinates centred on the bounding-box centre of S ∪ T and divided
//! by their largest absolute value, so every column is O(1); certificates are evaluated on the
//! original coordinates.
//!
//! Complexity: O(n(|S| + |T|) + n²) per pivot, O(n³) per refactorisation (every 64 pivots);
//! the number of pivots is typically a small multiple of n + 2. The reference costs
//! O((n + 2)(|S| + |T| + n)) per pivot and Bland's rule pivots more.
//! Failure modes: iteration cap ([`Status::IterationLimit`]), numerically singular basis
//! ([`Status::Numerical`]); both return the best certificate proved, else `Undetermined`.

pub mod containment;
pub mod fourier_motzkin;
pub mod reference;
pub(crate) mod revised;
pub mod seidel;

pub use containment::{
    contains, point_in_hull, points_in_hull, ContainmentOutcome, ContainmentReport,
    PointContainment,
};
pub use reference::{intersect_reference, ReferenceIntersection};

use crate::error::{InputError, Problem as InputProblem};
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use crate::nd::points::{CommonPointN, PointsN, SeparatingHyperplane, VerdictN};
use crate::shape::Points;
use crate::verdict::{Status, Verdict};
use revised::{EarlyExit, Outcome, Problem, Solver};

/// Solver options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LpOptions {
    /// Cap on simplex pivots per LP.
    pub max_iterations: u32,
    /// Relative part of the tolerance, multiplied by the sum of the bounding-box diagonals.
    pub rel_tolerance: f64,
}

impl Default for LpOptions {
    fn default() -> Self {
        LpOptions {
            max_iterations: 100_000,
            rel_tolerance: 1e-9,
        }
    }
}

/// Result of [`intersect`].
#[derive(Clone, Debug, PartialEq)]
pub struct LpIntersection {
    /// How the solve ended: `Converged` (solved to optimality), `Certified` (stopped early
    /// because a certificate was already proved), `IterationLimit` or `Numerical`.
    pub status: Status,
    /// Simplex pivots.
    pub iterations: u32,
    /// The answer for the pair `(A = a, B = b)`: a hyperplane with unit normal pointing from
    /// `conv(a)` toward `conv(b)`, a common point with convex weights over both vertex sets, or
    /// `Undetermined`. Check it with [`crate::nd::points::verify_n`] and `tolerance`.
    pub verdict: VerdictN,
    /// The absolute tolerance used (and to be used by [`crate::nd::points::verify_n`]).
    pub tolerance: f64,
    /// `‖Σλᵢsᵢ − Σμⱼtⱼ‖₁` of the final weights, evaluated on the data: an upper bound on the
    /// L1 distance (equal to it when `status` is `Converged`).
    pub l1_residual: f64,
}

impl LpIntersection {
    /// `Some(true)` if the hulls meet (touching counts), `Some(false)` if separated, `None` if
    /// undetermined.
    pub fn intersecting(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// Result of [`l1_distance`]. See the module documentation for which quantity is which.
#[derive(Clone, Debug, PartialEq)]
pub struct L1Distance {
    /// `Converged` when the LP was solved to optimality (then `d1` is exact up to rounding),
    /// else `IterationLimit` or `Numerical` (then `d1` is only an upper bound).
    pub status: Status,
    /// Simplex pivots.
    pub iterations: u32,
    /// L1 distance `min ‖x − y‖₁` over `x ∈ conv(S)`, `y ∈ conv(T)`: `‖point_a − point_b‖₁`
    /// evaluated on the data (exact up to rounding when `status` is `Converged`, otherwise an
    /// upper bound).
    pub d1: f64,
    /// Lower bound on the Euclidean distance: the larger of `d1/√n` (only when `Converged`) and
    /// the gap of `separation`.
    pub d2_lower: f64,
    /// Upper bound on the Euclidean distance: `‖point_a − point_b‖₂ ≤ d1`.
    pub d2_upper: f64,
    /// An L1-closest pair: `point_a = Σλᵢsᵢ ∈ conv(S)`, `point_b = Σμⱼtⱼ ∈ conv(T)`.
    pub point_a: Vec<f64>,
    /// The point of `conv(T)` (`T` = `b`) of the L1-closest pair; see `point_a`.
    pub point_b: Vec<f64>,
    /// `(vertex index, weight)`, non-negative, summing to 1.
    pub weights_a: Vec<(usize, f64)>,
    /// `(vertex index in b, weight)`, non-negative, summing to 1: reproduces `point_b`.
    pub weights_b: Vec<(usize, f64)>,
    /// A separating hyperplane from the optimal duals, when its gap on the data is positive.
    pub separation: Option<SeparatingHyperplane>,
    /// The absolute tolerance of the pair (a length, see [`tolerance`]); `d1 ≤ tolerance`
    /// means the hulls touch or overlap as far as the data can tell.
    pub tolerance: f64,
}

/// Result of [`intersect_points`]: the n-D answer converted to a 2D/3D [`Verdict`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LpQuery<V> {
    /// How the LP ended (see [`LpIntersection::status`]).
    pub status: Status,
    /// Simplex pivots.
    pub iterations: u32,
    /// The answer in the world frame, axis pointing from A toward B; `Undetermined` if neither
    /// certificate was proved.
    pub verdict: Verdict<V>,
    /// The absolute tolerance used (a length in world units), to pass to [`crate::verify`].
    pub tolerance: f64,
}

/// The absolute tolerance for a pair: `rel · (size_a + size_b) + 8(n + 2) ε · magnitude`.
pub fn tolerance(a: &PointsN, b: &PointsN, opts: &LpOptions) -> f64 {
    tolerance_from(
        &Bbox::of(a.coords(), a.dim()),
        &Bbox::of(b.coords(), b.dim()),
        opts,
    )
}

pub(crate) fn tolerance_from(a: &Bbox, b: &Bbox, opts: &LpOptions) -> f64 {
    let size = a.diagonal() + b.diagonal();
    let mag = a.magnitude().max(b.magnitude());
    let rounding = 8.0 * (a.lo.len() + 2) as f64 * f64::EPSILON * mag;
    (opts.rel_tolerance * size + rounding).max(f64::MIN_POSITIVE)
}

/// Axis-aligned bounding box of a row-major point set (one pass).
pub(crate) struct Bbox {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
}

impl Bbox {
    pub fn of(coords: &[f64], n: usize) -> Self {
        let mut lo = vec![f64::INFINITY; n];
        let mut hi = vec![f64::NEG_INFINITY; n];
        for p in coords.chunks_exact(n) {
            for ((l, h), &x) in lo.iter_mut().zip(hi.iter_mut()).zip(p) {
                if x < *l {
                    *l = x;
                }
                if x > *h {
                    *h = x;
                }
            }
        }
        Bbox { lo, hi }
    }

    pub fn union(&self, o: &Bbox) -> Bbox {
        Bbox {
            lo: self.lo.iter().zip(&o.lo).map(|(a, b)| a.min(*b)).collect(),
            hi: self.hi.iter().zip(&o.hi).map(|(a, b)| a.max(*b)).collect(),
        }
    }

    /// Length of the diagonal (the `size` of [`PointsN::size`]).
    pub fn diagonal(&self) -> f64 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(l, h)| (h - l) * (h - l))
            .sum::<f64>()
            .sqrt()
    }

    /// Largest absolute coordinate.
    pub fn magnitude(&self) -> f64 {
        self.lo
            .iter()
            .chain(&self.hi)
            .fold(0.0, |m: f64, x| m.max(x.abs()))
    }
}

pub(crate) fn check_options(opts: &LpOptions) -> Result<(), InputError> {
    let r = opts.rel_tolerance;
    if !r.is_finite() {
        return Err(InputError::new(
            "opts.rel_tolerance",
            InputProblem::NotFinite(r),
        ));
    }
    if r < 0.0 {
        return Err(InputError::new(
            "opts.rel_tolerance",
            InputProblem::Negative(r),
        ));
    }
    Ok(())
}

pub(crate) fn check_dims(a: &PointsN, b: &PointsN, field: &str) -> Result<(), InputError> {
    if a.dim() != b.dim() {
        return Err(InputError::new(
            field,
            InputProblem::DimensionMismatch {
                expected: a.dim(),
                found: b.dim(),
            },
        ));
    }
    Ok(())
}

/// Centre and scale of a set of coordinates: bounding-box centre and largest absolute centred
/// coordinate (1 when every point coincides).
pub(crate) struct Scaling {
    pub centre: Vec<f64>,
    pub inv_scale: f64,
}

impl Scaling {
    /// From the bounding box of everything to be scaled.
    pub fn of(bbox: &Bbox) -> Self {
        let centre: Vec<f64> = bbox
            .lo
            .iter()
            .zip(&bbox.hi)
            .map(|(l, h)| 0.5 * (l + h))
            .collect();
        let scale = bbox
            .lo
            .iter()
            .zip(&bbox.hi)
            .zip(&centre)
            .fold(0.0f64, |m, ((l, h), c)| m.max(h - c).max(c - l));
        let inv_scale = if scale > 0.0 && scale.is_finite() {
            1.0 / scale
        } else {
            1.0
        };
        Scaling { centre, inv_scale }
    }

    pub fn apply(&self, coords: &[f64]) -> Vec<f64> {
        let n = self.centre.len();
        let mut out = Vec::with_capacity(coords.len());
        for p in coords.chunks_exact(n) {
            for (x, c) in p.iter().zip(&self.centre) {
                out.push((x - c) * self.inv_scale);
            }
        }
        out
    }
}

/// Index of the point of `set` (row-major, dim n) maximising `dir · p`.
pub(crate) fn support(set: &[f64], n: usize, dir: &[f64]) -> usize {
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, p) in set.chunks_exact(n).enumerate() {
        let v = revised::dot(p, dir);
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    best
}

fn centroid(set: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n];
    let mut count = 0.0f64;
    for p in set.chunks_exact(n) {
        for (ck, pk) in c.iter_mut().zip(p) {
            *ck += pk;
        }
        count += 1.0;
    }
    c.iter_mut().for_each(|x| *x /= count.max(1.0));
    c
}

/// Starting vertices: each set's extreme vertex toward the other set's centroid.
pub(crate) fn start_pair(s: &[f64], t: &[f64], n: usize) -> (usize, usize) {
    let cs = centroid(s, n);
    let ct = centroid(t, n);
    let d: Vec<f64> = ct.iter().zip(&cs).map(|(a, b)| a - b).collect();
    let nd: Vec<f64> = d.iter().map(|x| -x).collect();
    (support(s, n, &d), support(t, n, &nd))
}

/// `Σ wᵢ pᵢ` over a vertex set.
pub(crate) fn combine(set: &PointsN, w: &[(usize, f64)]) -> Vec<f64> {
    let mut out = vec![0.0; set.dim()];
    for &(i, wi) in w {
        if i < set.len() {
            for (o, x) in out.iter_mut().zip(set.point(i)) {
                *o += wi * x;
            }
        }
    }
    out
}

/// `(min, max)` of `dir · p` over the set (same as [`PointsN::extent`], faster dot).
fn extent(set: &PointsN, dir: &[f64]) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in set.iter() {
        let v = revised::dot(p, dir);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo, hi)
}

/// The best of the candidate directions as a separating hyperplane, gap evaluated on the data.
pub(crate) fn best_hyperplane(
    a: &PointsN,
    b: &PointsN,
    candidates: &[&[f64]],
) -> Option<SeparatingHyperplane> {
    let mut best: Option<SeparatingHyperplane> = None;
    for c in candidates {
        let norm = revised::dot(c, c).sqrt();
        if !(norm > 0.0) || !norm.is_finite() || c.len() != a.dim() {
            continue;
        }
        let normal: Vec<f64> = c.iter().map(|x| x / norm).collect();
        let gap = extent(b, &normal).0 - extent(a, &normal).1;
        if gap.is_finite() && best.as_ref().is_none_or(|h| gap > h.gap) {
            best = Some(SeparatingHyperplane { normal, gap });
        }
    }
    best
}

/// The raw result of one L1-LP solve, with weights and dual direction.
pub(crate) struct Solved {
    pub outcome: Outcome,
    pub iterations: u32,
    pub weights_a: Vec<(usize, f64)>,
    pub weights_b: Vec<(usize, f64)>,
    pub dual_w: Vec<f64>,
}

/// Solves the L1 LP for `(a, b)` already scaled into `s`, `t`.
pub(crate) fn solve_scaled(
    solver: &mut Solver,
    p: &Problem<'_>,
    max_iter: u32,
    early: Option<EarlyExit>,
    warm: bool,
) -> Solved {
    solver.iterations = 0;
    let start_ok = (warm && solver.refactor(p)) || {
        let (i0, j0) = start_pair(p.s, p.t, p.n);
        solver.cold_start(p, i0, j0)
    };
    let outcome = if start_ok {
        solver.solve(p, max_iter, early)
    } else {
        Outcome::Numerical
    };
    let (weights_a, weights_b) = solver.weights(p);
    Solved {
        outcome,
        iterations: solver.iterations,
        weights_a,
        weights_b,
        dual_w: solver.y[..p.n].to_vec(),
    }
}

/// Turns a solve into a status and a verdict, checking everything on the original data.
pub(crate) fn decide(
    a: &PointsN,
    b: &PointsN,
    solved: Solved,
    tol: f64,
) -> (Status, VerdictN, f64) {
    let pa = combine(a, &solved.weights_a);
    let pb = combine(b, &solved.weights_b);
    let diff: Vec<f64> = pb.iter().zip(&pa).map(|(y, x)| y - x).collect();
    let d1: f64 = diff.iter().map(|x| x.abs()).sum();
    let mut status = match solved.outcome {
        Outcome::Optimal => Status::Converged,
        Outcome::EarlyIntersecting | Outcome::EarlySeparated => Status::Certified,
        Outcome::IterationLimit => Status::IterationLimit,
        Outcome::Numerical => Status::Numerical,
    };
    if d1 <= tol {
        let point = pa.iter().zip(&pb).map(|(x, y)| 0.5 * (x + y)).collect();
        let verdict = VerdictN::Intersecting(CommonPointN {
            point,
            weights_a: solved.weights_a,
            weights_b: solved.weights_b,
        });
        return (status, verdict, d1);
    }
    // The LP's duals (the Farkas direction) and the closest-pair direction; whichever
    // separates the data by more.
    let h = best_hyperplane(a, b, &[&solved.dual_w, &diff]);
    // Only an optimal LP has shown that the hulls are more than `tol` apart; otherwise demand
    // that the certificate itself shows it.
    let need = if status == Status::Converged {
        0.0
    } else {
        tol
    };
    match h {
        Some(h) if h.gap > need => (status, VerdictN::Separated(h), d1),
        _ => {
            if status == Status::Converged || status == Status::Certified {
                status = Status::Numerical;
            }
            (status, VerdictN::Undetermined, d1)
        }
    }
}

/// Production intersection test of `conv(a)` and `conv(b)` (any dimension), with certificate.
///
/// Errors: `b` of another dimension than `a` (field `b`), bad options (`opts.rel_tolerance`).
pub fn intersect(a: &PointsN, b: &PointsN, opts: &LpOptions) -> Result<LpIntersection, InputError> {
    check_dims(a, b, "b")?;
    check_options(opts)?;
    let n = a.dim();
    let (box_a, box_b) = (Bbox::of(a.coords(), n), Bbox::of(b.coords(), n));
    let tol = tolerance_from(&box_a, &box_b, opts);
    let scaling = Scaling::of(&box_a.union(&box_b));
    let s = scaling.apply(a.coords());
    let t = scaling.apply(b.coords());
    let p = Problem { n, s: &s, t: &t };
    let tol_s = tol * scaling.inv_scale;
    let early = EarlyExit {
        // Half the tolerance: rounding on the way back to the data must not cross it.
        intersect_below: 0.5 * tol_s,
        separate_above: 2.0 * tol_s,
    };
    let mut solver = Solver::new(n);
    let solved = solve_scaled(&mut solver, &p, opts.max_iterations, Some(early), false);
    let iterations = solved.iterations;
    let (status, verdict, l1_residual) = decide(a, b, solved, tol);
    Ok(LpIntersection {
        status,
        iterations,
        verdict,
        tolerance: tol,
        l1_residual,
    })
}

/// The exact L1 distance between `conv(a)` and `conv(b)` (LP solved to optimality), an
/// L1-closest pair, and the Euclidean bracket. Errors as [`intersect`].
pub fn l1_distance(a: &PointsN, b: &PointsN, opts: &LpOptions) -> Result<L1Distance, InputError> {
    check_dims(a, b, "b")?;
    check_options(opts)?;
    let n = a.dim();
    let (box_a, box_b) = (Bbox::of(a.coords(), n), Bbox::of(b.coords(), n));
    let tol = tolerance_from(&box_a, &box_b, opts);
    let scaling = Scaling::of(&box_a.union(&box_b));
    let s = scaling.apply(a.coords());
    let t = scaling.apply(b.coords());
    let p = Problem { n, s: &s, t: &t };
    let mut solver = Solver::new(n);
    let solved = solve_scaled(&mut solver, &p, opts.max_iterations, None, false);
    let status = match solved.outcome {
        Outcome::Optimal => Status::Converged,
        Outcome::IterationLimit => Status::IterationLimit,
        _ => Status::Numerical,
    };
    let point_a = combine(a, &solved.weights_a);
    let point_b = combine(b, &solved.weights_b);
    let diff: Vec<f64> = point_b.iter().zip(&point_a).map(|(y, x)| y - x).collect();
    let d1: f64 = diff.iter().map(|x| x.abs()).sum();
    let d2_upper = revised::dot(&diff, &diff).sqrt();
    let separation = best_hyperplane(a, b, &[&solved.dual_w, &diff]).filter(|h| h.gap > 0.0);
    let mut d2_lower = separation.as_ref().map_or(0.0, |h| h.gap);
    if status == Status::Converged {
        d2_lower = d2_lower.max(d1 / (n as f64).sqrt());
    }
    Ok(L1Distance {
        status,
        iterations: solved.iterations,
        d1,
        d2_lower: d2_lower.min(d2_upper),
        d2_upper,
        point_a,
        point_b,
        weights_a: solved.weights_a,
        weights_b: solved.weights_b,
        separation,
        tolerance: tol,
    })
}

/// [`intersect`] on two posed 2D/3D hulls (vertices transformed to the world frame first).
/// For `query::Method` wiring: `--algorithm lp`. Errors only if a world coordinate exceeds
/// [`crate::error::MAX_MAGNITUDE`] (field `a` or `b`).
pub fn intersect_points<V: Vector>(
    a: &Points<V>,
    pose_a: &Pose<V>,
    b: &Points<V>,
    pose_b: &Pose<V>,
    opts: &LpOptions,
) -> Result<LpQuery<V>, InputError> {
    let wa = PointsN::posed(a.points(), pose_a).map_err(|e| e.within("a"))?;
    let wb = PointsN::posed(b.points(), pose_b).map_err(|e| e.within("b"))?;
    let r = intersect(&wa, &wb, opts)?;
    Ok(LpQuery {
        status: r.status,
        iterations: r.iterations,
        verdict: r.verdict.typed(),
        tolerance: r.tolerance,
    })
}

/// [`intersect_reference`] on two posed 2D/3D hulls. For `--algorithm lp-reference`.
pub fn intersect_points_reference<V: Vector>(
    a: &Points<V>,
    pose_a: &Pose<V>,
    b: &Points<V>,
    pose_b: &Pose<V>,
    opts: &LpOptions,
) -> Result<LpQuery<V>, InputError> {
    let wa = PointsN::posed(a.points(), pose_a).map_err(|e| e.within("a"))?;
    let wb = PointsN::posed(b.points(), pose_b).map_err(|e| e.within("b"))?;
    let r = intersect_reference(&wa, &wb, opts)?;
    Ok(LpQuery {
        status: r.status,
        iterations: r.iterations,
        verdict: r.verdict.typed(),
        tolerance: r.tolerance,
    })
}
