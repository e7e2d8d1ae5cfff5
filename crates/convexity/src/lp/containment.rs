//! Containment by LP: is a point in `conv(T)`, are many points, is `conv(S) ⊆ conv(T)`?
//!
//! A point `p` lies in `conv(T)` iff the L1 LP of [`super`] with `S = {p}` has optimum 0; its
//! certificate is either convex weights over T reproducing `p` (within the tolerance), or a
//! hyperplane separating `p` from T. `conv(S) ⊆ conv(T)` iff every vertex of S is in `conv(T)`
//! (a convex set containing the vertices contains their hull), so [`contains`] runs the batch
//! test over the vertices of S and stops at the first vertex proved outside.
//!
//! Batch ([`points_in_hull`]): the hull is centred and scaled once (the scaling covers all
//! query points), and each query starts from the previous query's optimal basis when that
//! basis is still feasible for the new point (refactorised, O(n³)), else from the cold start;
//! nearby query points then need few pivots.
//!
//! Tolerance of query `p`: [`super::tolerance`] of the pair `({p}, T)`, the same as
//! [`point_in_hull`]. Complexity: one LP per point (see [`super`]). Failure modes as for
//! [`super::intersect`]: a point whose LP neither proves inside nor outside is `Undetermined`.

use super::revised::{EarlyExit, Problem, Solver};
use super::{
    check_dims, check_options, decide, solve_scaled, tolerance_from, Bbox, LpOptions, Scaling,
};
use crate::error::InputError;
use crate::nd::points::{PointsN, SeparatingHyperplane, VerdictN};
use crate::verdict::Status;

/// One point against one hull. The verdict is for the pair `(A = {p}, B = hull)`: check it
/// with `verify_n(&verdict, &PointsN::from_rows(&[p])?, hull, tolerance)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PointContainment {
    /// How this point's LP ended (`Converged`, `Certified` on early exit, `IterationLimit`,
    /// `Numerical`).
    pub status: Status,
    /// Simplex pivots for this point.
    pub iterations: u32,
    /// `Intersecting`: the point is in the hull (weights over the hull in `weights_b`);
    /// `Separated`: a hyperplane with the point on its A side.
    pub verdict: VerdictN,
    /// The absolute tolerance of the pair `({p}, hull)` (a length): a point within it of the
    /// hull counts as inside.
    pub tolerance: f64,
}

impl PointContainment {
    /// `Some(true)` inside (boundary included), `Some(false)` outside, `None` undetermined.
    pub fn inside(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// How a hull-in-hull test ended.
#[derive(Clone, Debug, PartialEq)]
pub enum ContainmentOutcome {
    /// Every vertex of the inner set is in the outer hull; `weights[i]` are the convex weights
    /// `(outer vertex, weight)` reproducing inner vertex `i` within the tolerance.
    Contained {
        /// Per inner vertex, `(outer vertex index, weight)` pairs: non-negative, summing to 1.
        weights: Vec<Vec<(usize, f64)>>,
    },
    /// Inner vertex `vertex` is outside; `hyperplane` separates it (as set A) from the outer
    /// hull (as set B).
    NotContained {
        /// Index (in `inner`) of the first vertex proved outside the outer hull.
        vertex: usize,
        /// Unit normal from that vertex toward the outer hull, with a positive gap.
        hyperplane: SeparatingHyperplane,
    },
    /// No vertex was proved outside, but `vertex` was not proved inside either.
    Undetermined {
        /// Index (in `inner`) of the first vertex whose LP proved neither inside nor outside.
        vertex: usize,
        /// That vertex's LP status (`IterationLimit` or `Numerical`).
        status: Status,
    },
}

/// Result of [`contains`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContainmentReport {
    /// Contained (with weights), not contained (with a witness vertex and hyperplane), or
    /// undetermined.
    pub outcome: ContainmentOutcome,
    /// Total pivots over the vertices tested.
    pub iterations: u32,
    /// The largest per-vertex tolerance used.
    pub tolerance: f64,
}

impl ContainmentReport {
    /// `Some(true)` contained, `Some(false)` not, `None` undetermined.
    pub fn contained(&self) -> Option<bool> {
        match self.outcome {
            ContainmentOutcome::Contained { .. } => Some(true),
            ContainmentOutcome::NotContained { .. } => Some(false),
            ContainmentOutcome::Undetermined { .. } => None,
        }
    }
}

/// Is `p` in `conv(hull)`? Errors: `p` of the wrong length (field `p`) or not finite
/// (`p[k]`), bad options.
pub fn point_in_hull(
    p: &[f64],
    hull: &PointsN,
    opts: &LpOptions,
) -> Result<PointContainment, InputError> {
    if p.len() != hull.dim() {
        return Err(InputError::new(
            "p",
            crate::error::Problem::DimensionMismatch {
                expected: hull.dim(),
                found: p.len(),
            },
        ));
    }
    let q = PointsN::new(hull.dim(), p.to_vec()).map_err(|e| rename_point_error(e, "p"))?;
    let mut out = points_in_hull(&q, hull, opts)?;
    Ok(out.remove(0))
}

/// `points[0][k]` from the one-row set becomes `p[k]`.
fn rename_point_error(mut e: InputError, name: &str) -> InputError {
    if let Some(rest) = e.field.strip_prefix("points[0]") {
        e.field = format!("{name}{rest}");
    }
    e
}

/// [`point_in_hull`] for every point of `points`, reusing the scaled hull and warm-starting
/// each LP from the previous basis. Errors: `points` of another dimension (field `points`).
pub fn points_in_hull(
    points: &PointsN,
    hull: &PointsN,
    opts: &LpOptions,
) -> Result<Vec<PointContainment>, InputError> {
    let mut out = Vec::with_capacity(points.len());
    run_batch(points, hull, opts, |_, r| {
        out.push(r);
        true
    })?;
    Ok(out)
}

/// Runs the batch, handing each result to `f` (index, result); stops when `f` returns false.
fn run_batch(
    points: &PointsN,
    hull: &PointsN,
    opts: &LpOptions,
    mut f: impl FnMut(usize, PointContainment) -> bool,
) -> Result<(), InputError> {
    check_dims(hull, points, "points")?;
    check_options(opts)?;
    let n = hull.dim();
    let hull_box = Bbox::of(hull.coords(), n);
    let scaling = Scaling::of(&hull_box.union(&Bbox::of(points.coords(), n)));
    let t = scaling.apply(hull.coords());
    let mut solver = Solver::new(n);
    let mut warm = false;
    for (i, p) in points.iter().enumerate() {
        let single = PointsN::new(n, p.to_vec())?;
        let tol = tolerance_from(&Bbox::of(p, n), &hull_box, opts);
        let s = scaling.apply(p);
        let problem = Problem { n, s: &s, t: &t };
        let tol_s = tol * scaling.inv_scale;
        let early = EarlyExit {
            intersect_below: 0.5 * tol_s,
            separate_above: 2.0 * tol_s,
        };
        let solved = solve_scaled(
            &mut solver,
            &problem,
            opts.max_iterations,
            Some(early),
            warm,
        );
        let iterations = solved.iterations;
        let (status, verdict, _) = decide(&single, hull, solved, tol);
        warm = status != Status::Numerical;
        let go_on = f(
            i,
            PointContainment {
                status,
                iterations,
                verdict,
                tolerance: tol,
            },
        );
        if !go_on {
            break;
        }
    }
    Ok(())
}

/// Is `conv(inner) ⊆ conv(outer)`? Tests every vertex of `inner` (stopping at the first one
/// proved outside). Errors: `inner` of another dimension (field `inner`), bad options.
///
/// Containment is of closed sets: an inner vertex on the outer boundary (within the
/// tolerance) counts as inside.
///
/// # Example
///
/// ```
/// use convexity::lp::{contains, ContainmentOutcome, LpOptions};
/// use convexity::nd::points::PointsN;
///
/// // The unit square, a smaller square inside it, and a triangle poking out at x = 1.5.
/// let square = PointsN::from_rows(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])?;
/// let inner = PointsN::from_rows(&[[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]])?;
/// let poking = PointsN::from_rows(&[[0.5, 0.5], [1.5, 0.5], [0.5, 0.9]])?;
///
/// let r = contains(&square, &inner, &LpOptions::default())?;
/// assert_eq!(r.contained(), Some(true));
///
/// let r = contains(&square, &poking, &LpOptions::default())?;
/// assert_eq!(r.contained(), Some(false));
/// if let ContainmentOutcome::NotContained { vertex, hyperplane } = &r.outcome {
///     assert_eq!(*vertex, 1); // (1.5, 0.5) is the vertex outside
///     assert!(hyperplane.gap > 0.0);
/// }
/// # Ok::<(), convexity::InputError>(())
/// ```
pub fn contains(
    outer: &PointsN,
    inner: &PointsN,
    opts: &LpOptions,
) -> Result<ContainmentReport, InputError> {
    check_dims(outer, inner, "inner")?;
    let mut weights = Vec::with_capacity(inner.len());
    let mut iterations = 0u32;
    let mut tol = 0.0f64;
    let mut violated: Option<(usize, SeparatingHyperplane)> = None;
    let mut undetermined: Option<(usize, Status)> = None;
    run_batch(inner, outer, opts, |i, r| {
        iterations = iterations.saturating_add(r.iterations);
        tol = tol.max(r.tolerance);
        match r.verdict {
            VerdictN::Intersecting(c) => {
                weights.push(c.weights_b);
                true
            }
            VerdictN::Separated(h) => {
                violated = Some((i, h));
                false
            }
            VerdictN::Undetermined => {
                if undetermined.is_none() {
                    undetermined = Some((i, r.status));
                }
                weights.push(Vec::new());
                true
            }
        }
    })?;
    let outcome = match (violated, undetermined) {
        (Some((vertex, hyperplane)), _) => ContainmentOutcome::NotContained { vertex, hyperplane },
        (None, Some((vertex, status))) => ContainmentOutcome::Undetermined { vertex, status },
        (None, None) => ContainmentOutcome::Contained { weights },
    };
    Ok(ContainmentReport {
        outcome,
        iterations,
        tolerance: tol,
    })
}
