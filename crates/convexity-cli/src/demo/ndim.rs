//! The demo's n-dimensional section: PSO, the penalty baseline, n-D GJK, LP intersection,
//! separability and the L1 distance, each checked against an answer known by construction or
//! against an independent method.
//!
//! * Reference tetrahedra (the PSO paper's pair): A = (0,1,0), (1,0,0), (0,0,1), (0,0,0)
//!   against B1 (touching at (1,0,0), distance 0) and B2 (distance exactly 1, closest points
//!   (1,0,0) and (1,−1,0): A has y ≥ 0 and B2 has y ≤ −1). PSO raw and polished, the
//!   exterior-penalty baseline, n-D GJK, LP intersection and the L1 distance (also 0 and 1:
//!   the y gap bounds every coordinate difference's L1 norm from below).
//! * Separability in 10-D: class A has x₀ ∈ [−3, −1] and class B has x₀ ∈ [1, 3], each with a
//!   single point at x₀ = ∓1 on the x₀ axis, so the margin is exactly 1 with `w = e₀`, `c = 0`;
//!   the overlapping variant adds to B the midpoint of two points of A.
//! * LP against n-D GJK on random clouds in d = 5 and 20: both verdicts certified by
//!   `verify_n` and equal outside the touching band.
//! * The L1-distance LP: d₁ with the bracket d₂ ∈ [d₁/√n, d₁] next to GJK's exact d₂, on the
//!   random pairs and on unit cubes in 5-D shifted along one axis (d₂ = d₁) and along the
//!   diagonal (d₂ = d₁/√n), whose distances are known exactly.
//!
//! Runs in a few milliseconds in release builds.

use crate::rng::Rng;
use convexity::lp::{self, LpOptions};
use convexity::math::slice::dot;
use convexity::nd::points::{verify_n, PointsN, VerdictN};
use convexity::nd::{
    distance_n, penalty_distance, pso_distance, separate, NdOptions, PenaltyOptions, PsoOptions,
    Separation,
};
use std::fmt::Write as _;

mod random;
use random::{l1_bracket, lp_against_gjk};

/// Accumulates the report and the overall verdict.
#[derive(Default)]
struct Section {
    out: String,
    ok: bool,
    checks: usize,
    failed: usize,
}

impl Section {
    fn line(&mut self, text: String) {
        let _ = writeln!(self.out, "{text}");
    }
    /// One checked line: `label: text  ok|FAIL`.
    fn check(&mut self, label: &str, text: String, pass: bool) {
        self.checks += 1;
        if !pass {
            self.failed += 1;
            self.ok = false;
        }
        let _ = writeln!(
            self.out,
            "    {label:<22} {text}  {}",
            if pass { "ok" } else { "FAIL" }
        );
    }
    /// A line that could not even be computed (an input error from the library: a bug here).
    fn error(&mut self, label: &str, e: impl std::fmt::Display) {
        self.check(label, format!("error: {e}"), false);
    }
}

/// The section's report text and whether every check passed.
pub fn section() -> (String, bool) {
    let started = std::time::Instant::now();
    let mut s = Section {
        ok: true,
        ..Section::default()
    };
    s.line(
        "\nn-dimensional methods (convexity::nd, convexity::lp), checked against constructions:"
            .into(),
    );
    tetrahedra(&mut s);
    separability(&mut s);
    let pairs = lp_against_gjk(&mut s);
    l1_bracket(&mut s, &pairs);
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let summary = if s.ok {
        format!("  n-D: {} checks in {ms:.1} ms, all ok", s.checks)
    } else {
        format!(
            "  n-D: {} of {} checks FAILED ({ms:.1} ms)",
            s.failed, s.checks
        )
    };
    s.line(summary);
    (s.out, s.ok)
}

fn set(rows: &[[f64; 3]]) -> Option<PointsN> {
    PointsN::from_rows(rows).ok()
}

fn verify_text(v: &VerdictN, a: &PointsN, b: &PointsN, tol: f64) -> (bool, &'static str) {
    match verify_n(v, a, b, tol) {
        Ok(()) => (true, "certificate ok"),
        Err(_) => (false, "certificate REJECTED"),
    }
}

fn word(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "intersecting",
        Some(false) => "separated",
        None => "undetermined",
    }
}

fn tetrahedra(s: &mut Section) {
    let Some(a) = set(&[[0., 1., 0.], [1., 0., 0.], [0., 0., 1.], [0., 0., 0.]]) else {
        s.error("tetrahedra", "could not build A");
        return;
    };
    let cases = [
        (
            "B1 = (1,0,0), (2,−2,0), (0,−2,2), (0,−2,0): touching at (1,0,0), distance 0",
            set(&[[1., 0., 0.], [2., -2., 0.], [0., -2., 2.], [0., -2., 0.]]),
            0.0,
        ),
        (
            "B2 = (1,−1,0), (2,−2,0), (0,−2,2), (0,−2,0): distance exactly 1",
            set(&[[1., -1., 0.], [2., -2., 0.], [0., -2., 2.], [0., -2., 0.]]),
            1.0,
        ),
    ];
    s.line("  PSO reference tetrahedra, A = (0,1,0), (1,0,0), (0,0,1), (0,0,0):".into());
    s.line(
        "    (raw: the swarm's best point, approximate and uncertified; polished: that point \
         refined by local iterations to a certified distance)"
            .into(),
    );
    for (name, b, truth) in &cases {
        let truth = *truth;
        let Some(b) = b else {
            s.error("tetrahedra", "could not build B");
            continue;
        };
        let touching = truth == 0.0;
        s.line(format!("   {name}"));
        // n-D GJK: exact distance and a certified verdict.
        match distance_n(&a, b, &NdOptions::default()) {
            Ok(d) => {
                let (cert, ctext) = verify_text(&d.verdict, &a, b, d.tolerance);
                let err = (d.distance - truth).abs();
                s.check(
                    "n-D GJK",
                    format!(
                        "{}, distance {:.9} (error {err:.1e}); {ctext}",
                        word(d.intersecting()),
                        d.distance
                    ),
                    cert && d.intersecting() == Some(touching) && err <= 1e-9,
                );
            }
            Err(e) => s.error("n-D GJK", e),
        }
        // LP intersection (Farkas certificate or common point) and the L1 distance.
        match lp::intersect(&a, b, &LpOptions::default()) {
            Ok(r) => {
                let (cert, ctext) = verify_text(&r.verdict, &a, b, r.tolerance);
                s.check(
                    "LP",
                    format!(
                        "{} ({}, {} pivots); {ctext}",
                        word(r.intersecting()),
                        r.status.as_str(),
                        r.iterations
                    ),
                    cert && r.intersecting() == Some(touching),
                );
            }
            Err(e) => s.error("LP", e),
        }
        match lp::l1_distance(&a, b, &LpOptions::default()) {
            Ok(r) => {
                let err = (r.d1 - truth).abs();
                s.check(
                    "L1 LP",
                    format!(
                        "d1 = {:.9} (exact {truth}, error {err:.1e}), d2 in [{:.6}, {:.6}]",
                        r.d1, r.d2_lower, r.d2_upper
                    ),
                    err <= 1e-9 && r.d2_lower <= truth + 1e-9 && truth <= r.d2_upper + 1e-9,
                );
            }
            Err(e) => s.error("L1 LP", e),
        }
        // PSO as published (raw swarm, then projected onto the simplices): approximate; the
        // check is that the projected pair, being feasible, is no closer than the truth.
        let raw = PsoOptions {
            polish: false,
            ..PsoOptions::default()
        };
        match pso_distance(&a, b, &raw) {
            Ok(r) => s.check(
                "PSO raw",
                format!(
                    "swarm objective {:.4} ({} weights, violation {:.1e}), projected distance \
                     {:.4} (error {:.1e}, not a certificate)",
                    r.raw_distance,
                    if r.feasible_raw {
                        "feasible"
                    } else {
                        "INFEASIBLE"
                    },
                    r.raw_violation,
                    r.projected_distance,
                    r.projected_distance - truth
                ),
                r.projected_distance >= truth - 1e-9,
            ),
            Err(e) => s.error("PSO raw", e),
        }
        match pso_distance(&a, b, &PsoOptions::default()) {
            Ok(r) => {
                let err = (r.distance - truth).abs();
                s.check(
                    "PSO polished",
                    format!(
                        "distance {:.9} (error {err:.1e}, {} polish iterations, status {})",
                        r.distance,
                        r.polish_iterations,
                        r.status.as_str()
                    ),
                    err <= 1e-6,
                );
            }
            Err(e) => s.error("PSO polished", e),
        }
        match penalty_distance(&a, b, &PenaltyOptions::default()) {
            Ok(r) => s.check(
                "penalty",
                format!(
                    "distance {:.4} (error {:.1e}; raw weights {}, violation {:.1e})",
                    r.distance,
                    r.distance - truth,
                    if r.feasible_raw {
                        "feasible"
                    } else {
                        "infeasible"
                    },
                    r.raw_violation
                ),
                r.distance >= truth - 1e-9,
            ),
            Err(e) => s.error("penalty", e),
        }
    }
}

/// A cloud in `dim` dimensions with coordinate 0 drawn by `x0` and the others in [−1, 1).
fn cloud(rng: &mut Rng, n: usize, dim: usize, x0: impl Fn(&mut Rng) -> f64) -> Vec<Vec<f64>> {
    (0..n)
        .map(|_| {
            let mut p = vec![x0(rng)];
            p.extend((1..dim).map(|_| rng.range(-1.0, 1.0)));
            p
        })
        .collect()
}

fn axis_point(dim: usize, x0: f64) -> Vec<f64> {
    let mut p = vec![0.0; dim];
    p[0] = x0;
    p
}

fn separability(s: &mut Section) {
    const DIM: usize = 10;
    let mut rng = Rng::new(0x5e9a);
    let mut a = cloud(&mut rng, 39, DIM, |r| r.range(-3.0, -1.0));
    a.push(axis_point(DIM, -1.0));
    let mut b = cloud(&mut rng, 39, DIM, |r| 3.0 - r.range(0.0, 2.0));
    b.push(axis_point(DIM, 1.0));
    s.line(format!(
        "  separability in {DIM}-D (40 + 40 points; margin exactly 1, w = e0, c = 0 by construction):"
    ));
    let (Ok(pa), Ok(pb)) = (PointsN::from_rows(&a), PointsN::from_rows(&b)) else {
        s.error("separable", "could not build the clouds");
        return;
    };
    match separate(&pa, &pb) {
        Ok(Separation::Separable {
            normal,
            offset,
            margin,
            certificate,
            ..
        }) => {
            // Plain arithmetic: every point on its side by the margin.
            let slack_a = a
                .iter()
                .map(|p| dot(&normal, p) - (offset - margin))
                .fold(f64::NEG_INFINITY, f64::max);
            let slack_b = b
                .iter()
                .map(|p| (offset + margin) - dot(&normal, p))
                .fold(f64::NEG_INFINITY, f64::max);
            let v = VerdictN::Separated(certificate);
            let (cert, ctext) = verify_text(&v, &pa, &pb, 1e-9);
            let pass = (margin - 1.0).abs() <= 1e-9
                && (normal[0] - 1.0).abs() <= 1e-9
                && offset.abs() <= 1e-9
                && slack_a <= 1e-9
                && slack_b <= 1e-9
                && cert;
            s.check(
                "separable",
                format!(
                    "margin {margin:.12} (error {:.1e}), c = {:.1e}, w0 = {:.12}; all 80 points on \
                     their side by the margin (worst excess {:.1e}); {ctext}",
                    (margin - 1.0).abs(),
                    offset,
                    normal[0],
                    slack_a.max(slack_b)
                ),
                pass,
            );
        }
        Ok(other) => s.check(
            "separable",
            format!(
                "got {} separable, expected separable",
                crate::demo::yes_no(other.separable())
            ),
            false,
        ),
        Err(e) => s.error("separable", e),
    }
    // Overlapping variant: the midpoint of two points of A joins B.
    let mid: Vec<f64> = a[0].iter().zip(&a[1]).map(|(x, y)| 0.5 * (x + y)).collect();
    b.push(mid);
    let Ok(pb) = PointsN::from_rows(&b) else {
        s.error("overlapping", "could not build the cloud");
        return;
    };
    match separate(&pa, &pb) {
        Ok(Separation::Overlapping {
            common_point,
            weights_a,
            weights_b,
        }) => {
            let v = VerdictN::Intersecting(convexity::nd::points::CommonPointN {
                point: common_point,
                weights_a,
                weights_b,
            });
            let (cert, ctext) = verify_text(&v, &pa, &pb, 1e-9);
            s.check(
                "overlapping",
                format!("B plus the midpoint of A[0] and A[1]: overlapping; {ctext}"),
                cert,
            );
        }
        Ok(other) => s.check(
            "overlapping",
            format!(
                "got {} separable, expected overlapping",
                crate::demo::yes_no(other.separable())
            ),
            false,
        ),
        Err(e) => s.error("overlapping", e),
    }
}
