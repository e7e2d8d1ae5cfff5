//! A test harness: runs convexity's GJK queries on a pair of point hulls and checks every
//! output against the independent oracles of this crate.
//!
//! What: [`check_gjk_pair`] runs `gjk::distance` and `gjk::intersects` and checks
//! * status: never `IterationLimit` (polytopes converge in finitely many steps);
//! * distance: finite, non-negative, within `eps = max(rel_accuracy × (size_A + size_B),
//!   reported tolerance)` of the hull oracle's certified bracket (which must be narrower than
//!   a tenth of that); the reported tolerance only matters far from the origin, where GJK's
//!   documented rounding floor `4ε × magnitude` exceeds the relative accuracy; the lower bound never above the true distance;
//! * verdicts (both queries): intersecting when the oracle distance is 0 (to 1e-3 of the
//!   tolerance), separated when the oracle's certified lower bound exceeds `band_factor` times
//!   the tolerance `max(rel_tolerance × scale, reported tolerance)`, and (with `require_decided`) never undetermined;
//! * certificates: `convexity::verify` accepts them with `tol = rel_accuracy × scale`; a
//!   separating gap is never above the true distance;
//! * witness points: `point_a ∈ A`, `point_b ∈ B` (oracle point-to-hull distance within the
//!   accuracy, in A's frame) and `|point_b − point_a| = distance` when separated.
//!
//! The oracle runs in A's frame, on A's local points and B's points placed by
//! `pose_a.relative(pose_b)`: that relative pose defines the pair's geometry for GJK, and
//! world coordinates would add rounding of ulp(|translation|) (1.2e-10 at 1e6).
//!
//! This module calls the library under test; the *oracles* it compares with do not.
//! Source: the contracts in `convexity::gjk` and `convexity::gjk::certificate`.
//! Complexity: three oracle solves (pair, and each witness point) plus two GJK queries.
//! Preconditions: the shapes are `Points` hulls. Failure modes: returns `Err(description)`
//! on the first violated check; panics never.

use crate::hull_oracle::{hull_distance_v, point_hull_distance, world_points};
use convexity::gjk::{distance, intersects, Options};
use convexity::math::vector::Vector;
use convexity::{verify, Points, Pose, Status, SupportMap, Verdict};

/// What [`check_gjk_pair`] requires.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    /// Accuracy relative to `size_A + size_B` (distance, witnesses, certificate tolerance).
    pub rel_accuracy: f64,
    /// Verdicts outside `[0, band_factor × tol]` must match the oracle.
    pub band_factor: f64,
    /// Fail on an undetermined verdict.
    pub require_decided: bool,
    /// Check witness points with the oracle (two extra solves).
    pub check_witnesses: bool,
    /// The GJK options to run with.
    pub gjk: Options,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            rel_accuracy: 1e-9,
            band_factor: 2.0,
            require_decided: true,
            check_witnesses: true,
            gjk: Options::default(),
        }
    }
}

/// What the checks measured (for statistics).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckReport {
    pub oracle_distance: f64,
    pub gjk_distance: f64,
    /// `|gjk − oracle| / (size_A + size_B)`.
    pub rel_error: f64,
    pub iterations: u32,
    pub boolean_iterations: u32,
    pub status: Status,
    pub boolean_status: Status,
    pub intersecting: Option<bool>,
}

/// Runs GJK (distance and boolean) on two posed point hulls and checks it against the oracle
/// (see the module documentation). Returns a description of the first failed check.
pub fn check_gjk_pair<V: Vector>(
    a: &Points<V>,
    pose_a: &Pose<V>,
    b: &Points<V>,
    pose_b: &Pose<V>,
    opts: &CheckOptions,
) -> Result<CheckReport, String> {
    // The oracle works in A's frame on B placed by `pose_a.relative(pose_b)`: GJK's input
    // geometry is defined through that relative pose (see `convexity::gjk::minkowski`), and working
    // there avoids the rounding of world coordinates (1.2e-10 at 1e6), which is as large as
    // the tolerance. Witness points are mapped back into A's frame for the membership checks.
    let pose_ab = pose_a.relative(pose_b);
    let wa: Vec<V> = a.points().to_vec();
    let wb = world_points(b, &pose_ab);
    let o = hull_distance_v(&wa, &wb).map_err(|e| format!("oracle error: {e}"))?;
    let scale = a.size() + b.size();
    let d = distance(a, pose_a, b, pose_b, &opts.gjk, None);
    // Accuracy: fixed figures, not the tolerance GJK reports about itself (issue 14):
    // `rel_accuracy × scale` plus a rounding floor of 8ε × the magnitude of the coordinates
    // involved (world translations, their difference and the shapes' bounding radii), which
    // dominates for small shapes far from the origin. The verdict band: GJK's relative
    // tolerance × scale plus the same floor.
    let magnitude = pose_a.translation().length()
        + pose_b.translation().length()
        + pose_ab.translation().length()
        + a.bounding_radius()
        + b.bounding_radius();
    let floor = 8.0 * f64::EPSILON * magnitude;
    let eps = opts.rel_accuracy * scale + floor;
    let tol = opts.gjk.rel_tolerance * scale + floor;
    // The oracle must have certified its own answer.
    if !o.verified {
        return Err(format!("oracle answer not verified: {:?}", o.raw));
    }
    // The certified bracket [lo, hi] ∋ true distance. It is normally ~1e-16 × scale wide
    // (`verified`); a wider one is still usable as long as it is well inside the accuracy.
    let (lo, hi) = (o.lower_bound.max(0.0), o.upper_bound);
    let bracket_ok = hi - lo <= 0.1 * eps; // false for NaN too
    if !bracket_ok {
        return Err(format!(
            "oracle inconclusive (bracket [{lo:e}, {hi:e}]): {:?}",
            o.raw
        ));
    }

    if d.status == Status::IterationLimit {
        return Err(format!("iteration limit on polytopes: {d:?}"));
    }
    if !d.distance.is_finite() || d.distance < 0.0 || !d.lower_bound.is_finite() {
        return Err(format!("bad distance or bound: {d:?}"));
    }
    let err = (lo - d.distance).max(d.distance - hi).max(0.0);
    if err > eps {
        return Err(format!(
            "distance {:e} vs oracle {:e} (error {err:e} > {eps:e}); {d:?}",
            d.distance, o.distance
        ));
    }
    if d.lower_bound > hi + eps {
        return Err(format!(
            "lower bound {:e} above the true distance {hi:e}",
            d.lower_bound
        ));
    }

    let want = if hi <= 1e-3 * tol {
        Some(true)
    } else if lo > opts.band_factor * tol {
        Some(false)
    } else {
        None
    };
    let got = d.intersecting();
    if got.is_none() && opts.require_decided {
        return Err(format!(
            "undetermined distance verdict (oracle d = {:e}): {d:?}",
            o.distance
        ));
    }
    if want.is_some() && got.is_some() && got != want {
        return Err(format!(
            "distance verdict {:?}, oracle: intersecting = {want:?} (d = {:e})",
            d.verdict, o.distance
        ));
    }
    if got.is_some() {
        verify(a, pose_a, b, pose_b, &d.verdict, eps)
            .map_err(|e| format!("distance certificate rejected: {e} ({:?})", d.verdict))?;
    }
    if let Verdict::Separated(s) = d.verdict {
        if s.gap > hi + eps {
            return Err(format!(
                "certified gap {:e} above the distance {:e}",
                s.gap, hi
            ));
        }
    }
    if got == Some(false) {
        let sep = (d.point_b - d.point_a).length();
        if (sep - d.distance).abs() > eps {
            return Err(format!(
                "|point_b − point_a| = {sep:e} but distance = {:e}",
                d.distance
            ));
        }
    }
    if opts.check_witnesses {
        let pa = pose_a.inverse_transform_point(d.point_a);
        let pb = pose_a.inverse_transform_point(d.point_b);
        let in_a = point_hull_distance(pa, &wa).map_err(|e| e.to_string())?;
        let in_b = point_hull_distance(pb, &wb).map_err(|e| e.to_string())?;
        if in_a.distance > eps || in_b.distance > eps {
            return Err(format!(
                "witness points outside their shapes by {:e} / {:e}",
                in_a.distance, in_b.distance
            ));
        }
    }

    let i = intersects(a, pose_a, b, pose_b, &opts.gjk, None);
    if i.status == Status::IterationLimit {
        return Err(format!("boolean iteration limit: {i:?}"));
    }
    let gotb = i.intersecting();
    if gotb.is_none() && opts.require_decided {
        return Err(format!(
            "undetermined boolean verdict (oracle d = {:e}): {i:?}",
            o.distance
        ));
    }
    if want.is_some() && gotb.is_some() && gotb != want {
        return Err(format!(
            "boolean verdict {:?}, oracle: intersecting = {want:?} (d = {:e})",
            i.verdict, o.distance
        ));
    }
    if gotb.is_some() {
        verify(a, pose_a, b, pose_b, &i.verdict, eps)
            .map_err(|e| format!("boolean certificate rejected: {e} ({:?})", i.verdict))?;
    }
    Ok(CheckReport {
        oracle_distance: o.distance,
        gjk_distance: d.distance,
        rel_error: err / scale,
        iterations: d.iterations,
        boolean_iterations: i.iterations,
        status: d.status,
        boolean_status: i.status,
        intersecting: got,
    })
}
