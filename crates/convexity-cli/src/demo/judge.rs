//! The demo's checks of one answer: running a method on a case (timed), and judging its
//! answer against the truth known by construction and the other methods' answers.

use super::cases::{Case, Geometry, Regime};
use super::verdict_word;
use convexity::gjk::certificate::tolerance_for;
use convexity::query::{self, Method, Outcome, QuerySpace};
use convexity::shape::Polytope;
use convexity::{gjk, Pose};
use std::time::Instant;

/// Timed repetitions per batch, and batches per query (the fastest batch counts).
const REPS: u32 = 8;
const BATCHES: u32 = 3;
/// Allowed penetration-depth error, relative to `size(A) + size(B)`.
const DEPTH_TOL: f64 = 1e-6;
/// Allowed error of the reference points.
const POINT_TOL: f64 = 1e-9;

/// One method's answer on one pair, reduced to what the checks need.
#[derive(Clone, Debug)]
pub(super) struct Answer {
    pub(super) intersecting: Option<bool>,
    pub(super) distance: Option<f64>,
    pub(super) depth: Option<f64>,
    pub(super) point_a: Option<Vec<f64>>,
    pub(super) point_b: Option<Vec<f64>>,
    pub(super) status: &'static str,
    /// `None` for an undetermined verdict; otherwise the checker's result.
    pub(super) certificate: Option<Result<(), String>>,
    pub(super) micros: f64,
}

/// The method's answer, or `None` when it does not apply to the pair (see `query::Skip`).
fn measure<V, A, B>(
    method: Method,
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    tol: f64,
) -> Option<Answer>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let o: Outcome<V> = query::run(method, a, pa, b, pb).ok()?;
    // The best of a few batches, so that a context switch on a busy machine does not count.
    let mut micros = f64::INFINITY;
    for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..REPS {
            let _ = std::hint::black_box(query::run(method, std::hint::black_box(a), pa, b, pb));
        }
        micros = micros.min(start.elapsed().as_secs_f64() * 1e6 / f64::from(REPS));
    }
    let intersecting = o.verdict.intersecting();
    let certificate = intersecting
        .map(|_| convexity::verify(a, pa, b, pb, &o.verdict, tol).map_err(|e| e.to_string()));
    Some(Answer {
        intersecting,
        distance: if intersecting == Some(true) {
            Some(0.0)
        } else {
            o.distance
        },
        depth: o.penetration_depth,
        point_a: o.point_a.map(V::to_vec),
        point_b: o.point_b.map(V::to_vec),
        status: o.status.as_str(),
        certificate,
        micros,
    })
}

pub(super) fn run_case(case: &Case, method: Method) -> Option<Answer> {
    match &case.geometry {
        Geometry::D2 {
            a,
            pose_a,
            b,
            pose_b,
        } => {
            let tol = tolerance_for(a, pose_a, b, pose_b);
            measure(method, a, pose_a, b, pose_b, tol)
        }
        Geometry::D3 {
            a,
            pose_a,
            b,
            pose_b,
        } => {
            let tol = tolerance_for(a, pose_a, b, pose_b);
            measure(method, a, pose_a, b, pose_b, tol)
        }
    }
}

/// Distance tolerance of a pair: a few times GJK's own, plus rounding of the construction.
fn distance_tol(case: &Case) -> f64 {
    let rel = gjk::Options::default().rel_tolerance;
    let g = case.truth.distance.unwrap_or(0.0);
    let size = case.geometry.scale();
    4.0 * (rel * size).max(rel * g) + 64.0 * f64::EPSILON * (size + case.geometry.magnitude() + g)
}

fn max_diff(x: &[f64], y: &[f64]) -> f64 {
    if x.len() != y.len() {
        return f64::INFINITY;
    }
    x.iter()
        .zip(y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// The checks of one answer against the truth and the other methods.
#[derive(Clone, Debug, Default)]
pub(super) struct Judgement {
    pub(super) agrees: bool,
    /// Largest error against the truth and whether it exceeds the tolerance.
    pub(super) error: Option<f64>,
    pub(super) error_too_large: bool,
    pub(super) notes: Vec<String>,
    /// Remarks that are not failures (allowed undetermined answers).
    pub(super) info: Vec<String>,
}

pub(super) fn judge(case: &Case, answers: &[(Method, Answer)], k: usize) -> Judgement {
    let (method, ans) = &answers[k];
    let truth = &case.truth;
    let band = truth.intersecting.is_none();
    // At or just above touching, a curved contact may not converge within the iteration cap;
    // "undetermined" is then an honest answer (never a wrong one), and its distance is only an
    // upper bound.
    let may_be_undetermined =
        band || matches!(case.regime, Regime::Touching | Regime::NearTouching);
    let undetermined = ans.intersecting.is_none();
    let dtol = distance_tol(case);
    let mut j = Judgement {
        agrees: true,
        ..Judgement::default()
    };
    let note = |j: &mut Judgement, s: String| {
        j.agrees = false;
        j.notes
            .push(format!("{}: {}: {s}", case.name, method.name()));
    };
    if let Some(Err(e)) = &ans.certificate {
        note(&mut j, format!("certificate rejected: {e}"));
    }
    if undetermined && !may_be_undetermined {
        note(
            &mut j,
            format!("no verdict (status {}) on a clear-cut pair", ans.status),
        );
    } else if undetermined {
        let bound = ans
            .distance
            .map(|d| format!("; distance upper bound {d:.3e}"))
            .unwrap_or_default();
        j.info.push(format!(
            "{}: {}: no verdict proved (status {}){bound}",
            case.name,
            method.name(),
            ans.status,
        ));
    }
    // Verdict against the truth and the other methods (outside the band).
    if !band && !undetermined {
        if ans.intersecting != truth.intersecting {
            note(
                &mut j,
                format!(
                    "says {} but the pair is {} (status {})",
                    verdict_word(ans.intersecting),
                    verdict_word(truth.intersecting),
                    ans.status
                ),
            );
        }
        for (m, other) in answers.iter().filter(|(m, _)| m != method) {
            if other.intersecting.is_some() && other.intersecting != ans.intersecting {
                note(
                    &mut j,
                    format!(
                        "says {} but {} says {}",
                        verdict_word(ans.intersecting),
                        m.name(),
                        verdict_word(other.intersecting)
                    ),
                );
            }
        }
    }
    // Distance against the other methods.
    if let (Some(d), false, false) = (ans.distance, band, undetermined) {
        for (m, other) in answers.iter().filter(|(m, _)| m != method) {
            if let (Some(e), Some(_)) = (other.distance, other.intersecting) {
                if (d - e).abs() > dtol {
                    note(
                        &mut j,
                        format!("distance {d:e} but {} says {e:e}", m.name()),
                    );
                }
            }
        }
    }
    // Errors against the truth (shown always, checked for proved answers).
    let mut worst: Option<f64> = None;
    let mut track = |j: &mut Judgement, err: f64, limit: f64, what: &str| {
        worst = Some(worst.map_or(err, |w| w.max(err)));
        let within = err <= limit; // false for NaN too
        if !within && !undetermined {
            j.error_too_large = true;
            j.notes.push(format!(
                "{}: {}: {what} error {err:.3e} exceeds {limit:.3e}",
                case.name,
                method.name()
            ));
        }
    };
    if let (Some(d), Some(t)) = (ans.distance, truth.distance) {
        track(&mut j, (d - t).abs(), dtol, "distance");
    }
    if let (Some(d), Some(t)) = (ans.depth, truth.depth) {
        track(
            &mut j,
            (d - t).abs(),
            DEPTH_TOL * case.geometry.scale(),
            "penetration depth",
        );
    }
    if let Some((ta, tb)) = &truth.points {
        if let (Some(pa), Some(pb)) = (&ans.point_a, &ans.point_b) {
            let e = max_diff(pa, ta).max(max_diff(pb, tb));
            track(&mut j, e, POINT_TOL, "closest points");
        }
    }
    j.error = worst;
    j
}
