//! Linear separability of two point sets in any dimension, with the maximum-margin hyperplane.
//!
//! What: [`separate`] decides whether `conv(A)` and `conv(B)` can be strictly separated by a
//! hyperplane and returns either the maximum-margin hyperplane `w·x = c` (unit `w` pointing
//! from A toward B) with its margin, or a common point of the two hulls with convex weights.
//! [`separate_labelled`] does the same for one labelled cloud (two classes).
//!
//! Source: the hard-margin support vector machine's dual is the nearest-points problem of the
//! two hulls (Bennett & Bredensteiner, "Duality and geometry in SVM classifiers", ICML 2000;
//! Keerthi et al., "A fast iterative nearest point algorithm for SVM classifier design", IEEE
//! TNN 11(1), 2000). If `p_a`, `p_b` are closest points at distance `d > 0`, the perpendicular
//! bisector of the segment `p_a p_b`, `w = (p_b − p_a)/d`, `c = w·(p_a + p_b)/2`, separates
//! the sets with margin `d/2` and no hyperplane does better: any unit `u` with
//! `max_A u·a ≤ c' − m` and `min_B u·b ≥ c' + m` gives `2m ≤ u·(p_b − p_a) ≤ d`. The optimality
//! conditions of the closest pair (`w·a ≤ w·p_a` for every `a ∈ A`, `w·b ≥ w·p_b` for every
//! `b ∈ B`) are exactly `w·a ≤ c − d/2` and `w·b ≥ c + d/2`.
//!
//! Complexity and failure modes: those of [`distance_n`] (one run). Touching hulls (distance
//! within the tolerance) are closed sets with a common point: `Overlapping`. When the distance
//! run proves neither answer the result is `Undetermined` with its status, never a guess.
//!
//! ```
//! use convexity::nd::gjk::NdOptions;
//! use convexity::nd::separate::{separate_labelled, Separation};
//! use convexity::nd::points::PointsN;
//!
//! // Four labelled points in 3D: the `true` class sits above the plane z = 1.
//! let pts = PointsN::from_rows(&[
//!     [0.0, 0.0, 0.0],
//!     [1.0, 0.0, 0.5],
//!     [0.0, 1.0, 2.0],
//!     [1.0, 1.0, 3.0],
//! ])
//! .unwrap();
//! let labels = [false, false, true, true];
//! match separate_labelled(&pts, &labels, &NdOptions::default()).unwrap() {
//!     Separation::Separable { normal, offset, margin, .. } => {
//!         // Every point is on its side of w·x = c by at least the margin.
//!         for (p, &l) in pts.iter().zip(&labels) {
//!             let s: f64 = p.iter().zip(&normal).map(|(x, w)| x * w).sum::<f64>() - offset;
//!             assert!(if l { s >= margin - 1e-12 } else { s <= -margin + 1e-12 });
//!         }
//!     }
//!     other => panic!("expected separable, got {other:?}"),
//! }
//! ```

use crate::error::{InputError, Problem};
use crate::math::slice::dot;
use crate::nd::gjk::{distance_n, NdDistance, NdOptions};
use crate::nd::points::{PointsN, SeparatingHyperplane, VerdictN};
use crate::verdict::Status;

/// The answer of [`separate`].
#[derive(Clone, Debug, PartialEq)]
pub enum Separation {
    /// The hulls are at positive distance; `w·x = c` is the maximum-margin hyperplane.
    Separable {
        /// Unit normal `w = (p_b − p_a)/|p_b − p_a|`, from A toward B.
        normal: Vec<f64>,
        /// Offset `c = w·(p_a + p_b)/2`.
        offset: f64,
        /// Half the distance between the hulls: `w·a ≤ c − margin` on A and
        /// `w·b ≥ c + margin` on B, to the distance run's tolerance.
        margin: f64,
        /// A hyperplane certificate whose gap is recomputed from the vertex extents (checked by
        /// [`verify_n`](crate::nd::points::verify_n)); its normal is `normal` unless rounding made that
        /// gap non-positive, in which case it is the run's best lower-bound direction.
        certificate: SeparatingHyperplane,
        /// The closest point of `conv(A)` (a convex combination of A's support vectors).
        point_a: Vec<f64>,
        /// The closest point of `conv(B)`; `|point_b − point_a| = 2 · margin`.
        point_b: Vec<f64>,
    },
    /// The hulls share a point (touching counts): `common_point` with convex weights over each
    /// set that reproduce it to the tolerance.
    Overlapping {
        /// A point of both closed hulls (to the distance run's tolerance).
        common_point: Vec<f64>,
        /// `(index of a point of A, weight)`: non-negative weights summing to 1 whose
        /// combination of A's points is `common_point`.
        weights_a: Vec<(usize, f64)>,
        /// `(index of a point of B, weight)`: the same for B.
        weights_b: Vec<(usize, f64)>,
    },
    /// Neither answer was proved (iteration cap or numerical stall).
    Undetermined {
        /// Why the distance run stopped (`IterationLimit`, `Degenerate` or `Numerical`).
        status: Status,
    },
}

impl Separation {
    /// `Some(true)` when separable, `Some(false)` when overlapping.
    pub fn separable(&self) -> Option<bool> {
        match self {
            Separation::Separable { .. } => Some(true),
            Separation::Overlapping { .. } => Some(false),
            Separation::Undetermined { .. } => None,
        }
    }
}

/// The separation encoded by a finished distance run.
pub fn from_distance(d: &NdDistance) -> Separation {
    match &d.verdict {
        VerdictN::Intersecting(c) => Separation::Overlapping {
            common_point: c.point.clone(),
            weights_a: c.weights_a.clone(),
            weights_b: c.weights_b.clone(),
        },
        VerdictN::Separated(h) => {
            let diff: Vec<f64> = d
                .point_b
                .iter()
                .zip(&d.point_a)
                .map(|(x, y)| x - y)
                .collect();
            let len = dot(&diff, &diff).sqrt();
            if !(len > 0.0) || !len.is_finite() {
                return Separation::Undetermined { status: d.status };
            }
            let normal: Vec<f64> = diff.iter().map(|x| x / len).collect();
            let mid: Vec<f64> = d
                .point_a
                .iter()
                .zip(&d.point_b)
                .map(|(x, y)| 0.5 * (x + y))
                .collect();
            Separation::Separable {
                offset: dot(&normal, &mid),
                normal,
                margin: 0.5 * len,
                certificate: h.clone(),
                point_a: d.point_a.clone(),
                point_b: d.point_b.clone(),
            }
        }
        VerdictN::Undetermined => Separation::Undetermined { status: d.status },
    }
}

/// Linear separability of `a` and `b` with default [`NdOptions`].
///
/// A is `conv(a)`, B is `conv(b)`; both are closed, so hulls that touch (distance within the
/// tolerance) are `Overlapping`. Errors: `b` of another dimension than `a` (field `b`).
///
/// # Example
///
/// ```
/// use convexity::nd::points::PointsN;
/// use convexity::nd::separate::{separate, Separation};
///
/// // Two squares in the plane, 2 apart along x: the best hyperplane is x = 2, margin 1.
/// let a = PointsN::from_rows(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])?;
/// let b = PointsN::from_rows(&[[3.0, 0.0], [4.0, 0.0], [4.0, 1.0], [3.0, 1.0]])?;
/// match separate(&a, &b)? {
///     Separation::Separable { normal, offset, margin, .. } => {
///         assert!((normal[0] - 1.0).abs() < 1e-9 && normal[1].abs() < 1e-9);
///         assert!((offset - 2.0).abs() < 1e-9);
///         assert!((margin - 1.0).abs() < 1e-9);
///     }
///     other => panic!("expected separable, got {other:?}"),
/// }
///
/// // Squares sharing the edge x = 1 touch: closed sets, so they overlap.
/// let c = PointsN::from_rows(&[[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]])?;
/// assert_eq!(separate(&a, &c)?.separable(), Some(false));
/// # Ok::<(), convexity::InputError>(())
/// ```
pub fn separate(a: &PointsN, b: &PointsN) -> Result<Separation, InputError> {
    separate_with(a, b, &NdOptions::default())
}

/// Linear separability of `a` and `b` (see the module documentation).
pub fn separate_with(a: &PointsN, b: &PointsN, opts: &NdOptions) -> Result<Separation, InputError> {
    Ok(from_distance(&distance_n(a, b, opts)?))
}

/// Separability of the two classes of a labelled cloud: points labelled `false` form A,
/// points labelled `true` form B (the normal points toward the `true` class). Weights in the
/// answer index the original `points`.
///
/// Errors: `labels` of another length than `points` (field `labels`), or a class with no
/// point (field `labels`, [`Problem::Invalid`]).
pub fn separate_labelled(
    points: &PointsN,
    labels: &[bool],
    opts: &NdOptions,
) -> Result<Separation, InputError> {
    if labels.len() != points.len() {
        return Err(InputError::new(
            "labels",
            Problem::DimensionMismatch {
                expected: points.len(),
                found: labels.len(),
            },
        ));
    }
    let mut idx = [Vec::new(), Vec::new()];
    let mut coords = [Vec::new(), Vec::new()];
    for (i, (p, &l)) in points.iter().zip(labels).enumerate() {
        idx[l as usize].push(i);
        coords[l as usize].extend_from_slice(p);
    }
    for (class, name) in [(0, "false"), (1, "true")] {
        if idx[class].is_empty() {
            return Err(InputError::new(
                "labels",
                Problem::Invalid(format!("no point is labelled {name}")),
            ));
        }
    }
    let [ca, cb] = coords;
    let a = PointsN::new(points.dim(), ca)?;
    let b = PointsN::new(points.dim(), cb)?;
    let remap = |w: Vec<(usize, f64)>, map: &[usize]| -> Vec<(usize, f64)> {
        w.into_iter()
            .filter_map(|(i, v)| map.get(i).map(|&o| (o, v)))
            .collect()
    };
    Ok(match separate_with(&a, &b, opts)? {
        Separation::Overlapping {
            common_point,
            weights_a,
            weights_b,
        } => Separation::Overlapping {
            common_point,
            weights_a: remap(weights_a, &idx[0]),
            weights_b: remap(weights_b, &idx[1]),
        },
        other => other,
    })
}
