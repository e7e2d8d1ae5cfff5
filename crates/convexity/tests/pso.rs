//! The improved particle swarm optimisation and the exterior-penalty baseline for the hull
//! distance: the published tetrahedron cases, feasibility reporting, determinism, success
//! rate on random pairs against the exact `distance_n`, and degenerate input.
//!
//! Set `CONVEXITY_TEST_STATS=1` to print the measured figures.

use convexity::nd::gjk::{distance_n, NdOptions};
use convexity::nd::points::{verify_n, PointsN, VerdictN};
use convexity::nd::pso::{penalty_distance, pso_distance, PenaltyOptions, PsoOptions, PsoResult};
use convexity::Status;
use convexity_testkit::gen_nd::{gaussian_cloud, unit_vector};
use convexity_testkit::rng::{case_rng, Rng};

fn stats() -> bool {
    std::env::var_os("CONVEXITY_TEST_STATS").is_some()
}

fn set(rows: &[[f64; 3]]) -> PointsN {
    PointsN::from_rows(rows).unwrap()
}

fn tetra_a() -> PointsN {
    set(&[
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0],
    ])
}

/// B1 touches A (distance 0), B2 is exactly 1 away.
fn tetra_b1() -> PointsN {
    set(&[
        [1.0, 0.0, 0.0],
        [2.0, -2.0, 0.0],
        [0.0, -2.0, 2.0],
        [0.0, -2.0, 0.0],
    ])
}

fn tetra_b2() -> PointsN {
    set(&[
        [1.0, -1.0, 0.0],
        [2.0, -2.0, 0.0],
        [0.0, -2.0, 2.0],
        [0.0, -2.0, 0.0],
    ])
}

/// The final answer is a feasible pair: weights in [0, 1] summing to 1 that reproduce the
/// points, and the distance is theirs.
fn check_feasible(a: &PointsN, b: &PointsN, r: &PsoResult, what: &str) {
    for (w, s, p) in [(&r.weights_a, a, &r.point_a), (&r.weights_b, b, &r.point_b)] {
        assert_eq!(w.len(), s.len(), "{what}");
        let sum: f64 = w.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{what}: sum {sum}");
        assert!(w.iter().all(|x| (0.0..=1.0).contains(x)), "{what}: {w:?}");
        let mut c = vec![0.0; s.dim()];
        for (wi, x) in w.iter().zip(s.iter()) {
            c.iter_mut().zip(x).for_each(|(cv, xv)| *cv += wi * xv);
        }
        let e: f64 = c
            .iter()
            .zip(p.iter())
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(e < 1e-12 * (1.0 + s.magnitude()), "{what}: {e}");
    }
    let d: f64 = r
        .point_b
        .iter()
        .zip(&r.point_a)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt();
    assert!(
        (d - r.distance).abs() <= 1e-12 + r.tolerance,
        "{what}: {d} vs {}",
        r.distance
    );
    assert!(r.distance.is_finite() && r.raw_distance.is_finite() && r.raw_violation.is_finite());
    assert!(r.lower_bound <= r.distance + r.tolerance, "{what}");
    if r.verdict != VerdictN::Undetermined {
        verify_n(&r.verdict, a, b, r.tolerance).unwrap();
    }
}

#[test]
fn tetrahedron_cases_reach_zero_and_one() {
    let a = tetra_a();
    for (b, exact, name) in [(tetra_b1(), 0.0, "B1"), (tetra_b2(), 1.0, "B2")] {
        let raw = pso_distance(
            &a,
            &b,
            &PsoOptions {
                polish: false,
                ..PsoOptions::default()
            },
        )
        .unwrap();
        check_feasible(&a, &b, &raw, name);
        let pol = pso_distance(&a, &b, &PsoOptions::default()).unwrap();
        check_feasible(&a, &b, &pol, name);
        // The polished result meets 1e-6 with feasible weights.
        assert!((pol.distance - exact).abs() <= 1e-6, "{name}: {pol:?}");
        assert_eq!(pol.status, Status::Converged, "{name}");
        assert!(pol.polished && !raw.polished);
        // The swarm's own answer is reported, and its projection is a feasible upper bound.
        assert!(raw.distance >= exact - 1e-12);
        assert!((raw.distance - raw.projected_distance).abs() < 1e-15);
        let pen = penalty_distance(&a, &b, &PenaltyOptions::default()).unwrap();
        check_feasible(&a, &b, &pen, name);
        if stats() {
            eprintln!(
                "{name}: exact {exact}; PSO raw {:.3e} (feasible_raw {}, violation {:.1e}, \
                 projected {:.3e}, err {:.1e}); polished {:.3e} (err {:.1e}, {} iters); \
                 penalty raw {:.3e} (violation {:.1e}) projected {:.3e} (err {:.1e})",
                raw.raw_distance,
                raw.feasible_raw,
                raw.raw_violation,
                raw.distance,
                raw.distance - exact,
                pol.distance,
                pol.distance - exact,
                pol.polish_iterations,
                pen.raw_distance,
                pen.raw_violation,
                pen.distance,
                pen.distance - exact,
            );
        }
    }
}

/// How the swarm's raw accuracy depends on the feasibility tolerance (prints a table; about
/// 10 s at opt-level 2). Not an assertion: a measurement for the report.
#[test]
#[ignore]
fn feasibility_tolerance_sweep_long() {
    let a = tetra_a();
    for (b, exact, name) in [(tetra_b1(), 0.0, "B1"), (tetra_b2(), 1.0, "B2")] {
        for tau in [1e-1, 3e-2, 1e-2, 1e-3, 1e-4, 1e-6] {
            for gens in [200u32, 1000] {
                let mut errs = Vec::new();
                let mut feas = 0;
                for seed in 0..50 {
                    let o = PsoOptions {
                        feasibility_tolerance: tau,
                        generations: gens,
                        seed,
                        polish: false,
                        ..PsoOptions::default()
                    };
                    let r = pso_distance(&a, &b, &o).unwrap();
                    errs.push(r.distance - exact);
                    feas += r.feasible_raw as usize;
                }
                errs.sort_by(f64::total_cmp);
                eprintln!(
                    "{name} tau {tau:e} G {gens}: feasible {feas}/50, projected error median {:.2e} max {:.2e}",
                    errs[25], errs[49]
                );
            }
        }
    }
}

#[test]
fn feasibility_is_reported_and_the_answer_is_always_a_feasible_pair() {
    let (a, b) = (tetra_a(), tetra_b2());
    // No generations: the best initial particle (uniform in the box) is infeasible.
    let r = pso_distance(
        &a,
        &b,
        &PsoOptions {
            generations: 0,
            polish: false,
            ..PsoOptions::default()
        },
    )
    .unwrap();
    assert!(
        !r.feasible_raw && r.projected && r.raw_violation > 1e-3,
        "{r:?}"
    );
    assert_eq!(r.status, Status::IterationLimit);
    check_feasible(&a, &b, &r, "generations 0");
    assert!(r.distance >= 1.0 - 1e-12);
    // The raw weights are reported unchanged: they are the best particle, in the box.
    assert!(r
        .raw_weights_a
        .iter()
        .chain(&r.raw_weights_b)
        .all(|x| (0.0..=1.0).contains(x)));
    let sa: f64 = r.raw_weights_a.iter().sum();
    let sb: f64 = r.raw_weights_b.iter().sum();
    assert!((r.raw_violation - ((sa - 1.0).powi(2) + (sb - 1.0).powi(2))).abs() < 1e-12);
    // A tight tolerance: the raw particle may be feasible or not, and says which.
    let t = pso_distance(
        &a,
        &b,
        &PsoOptions {
            feasibility_tolerance: 1e-9,
            polish: false,
            ..PsoOptions::default()
        },
    )
    .unwrap();
    let sa: f64 = t.raw_weights_a.iter().sum();
    let sb: f64 = t.raw_weights_b.iter().sum();
    assert_eq!(
        t.feasible_raw,
        (sa - 1.0).abs() <= 1e-9 && (sb - 1.0).abs() <= 1e-9
    );
    check_feasible(&a, &b, &t, "tight");
}

#[test]
fn runs_are_deterministic_per_seed() {
    let (a, b) = (tetra_a(), tetra_b2());
    let o = PsoOptions {
        polish: false,
        seed: 42,
        ..PsoOptions::default()
    };
    let r1 = pso_distance(&a, &b, &o).unwrap();
    let r2 = pso_distance(&a, &b, &o).unwrap();
    assert_eq!(r1, r2);
    let r3 = pso_distance(&a, &b, &PsoOptions { seed: 43, ..o }).unwrap();
    assert_ne!(r1.raw_weights_a, r3.raw_weights_a);
    let p1 = penalty_distance(&a, &b, &PenaltyOptions::default()).unwrap();
    assert_eq!(
        p1,
        penalty_distance(&a, &b, &PenaltyOptions::default()).unwrap()
    );
}

/// Random pairs in 3 and 5 dimensions with 4–12 vertices each, separated or overlapping.
fn random_pair(seed: u64) -> (PointsN, PointsN, usize) {
    let mut r = case_rng(0x9050_0001, seed);
    let n = if seed.is_multiple_of(2) { 3 } else { 5 };
    let ma = r.gen_range(4..=12);
    let mb = r.gen_range(4..=12);
    let a = gaussian_cloud(&mut r, ma, &vec![0.0; n], 1.0);
    let u = unit_vector(&mut r, n);
    let shift = r.gen_range(0.0..5.0);
    let cb: Vec<f64> = u.iter().map(|x| shift * x).collect();
    let sigma = r.gen_range(0.3..1.5);
    let b = gaussian_cloud(&mut r, mb, &cb, sigma);
    (
        PointsN::from_rows(&a).unwrap(),
        PointsN::from_rows(&b).unwrap(),
        n,
    )
}

#[test]
fn success_rate_on_random_pairs() {
    let seeds = 60u64;
    let (mut raw_ok, mut pol_ok, mut pen_ok) = (0, 0, 0);
    let mut raw_errs = Vec::new();
    for seed in 0..seeds {
        let (a, b, _) = random_pair(seed);
        let exact = distance_n(&a, &b, &NdOptions::default()).unwrap();
        let scale = a.size() + b.size();
        let o = PsoOptions {
            seed,
            ..PsoOptions::default()
        };
        let raw = pso_distance(&a, &b, &PsoOptions { polish: false, ..o }).unwrap();
        let pol = pso_distance(&a, &b, &o).unwrap();
        let pen = penalty_distance(&a, &b, &PenaltyOptions::default()).unwrap();
        for (r, w) in [(&raw, "raw"), (&pol, "polished"), (&pen, "penalty")] {
            check_feasible(&a, &b, r, &format!("seed {seed} {w}"));
            // A feasible pair never beats the exact distance.
            assert!(
                r.distance >= exact.lower_bound - 1e-12 * scale,
                "seed {seed} {w}"
            );
        }
        let err = |r: &PsoResult| (r.distance - exact.distance).abs();
        raw_errs.push(err(&raw) / scale);
        raw_ok += (err(&raw) <= 1e-2 * scale) as usize;
        pol_ok += (err(&pol) <= 1e-6) as usize;
        pen_ok += (err(&pen) <= 1e-6) as usize;
    }
    raw_errs.sort_by(f64::total_cmp);
    if stats() {
        eprintln!(
            "{seeds} random pairs (3D/5D, 4-12 vertices): PSO raw within 1e-2*scale {raw_ok}, \
             PSO polished within 1e-6 {pol_ok}, penalty within 1e-6 {pen_ok}; raw error/scale \
             median {:.2e}, 90% {:.2e}, max {:.2e}",
            raw_errs[raw_errs.len() / 2],
            raw_errs[raw_errs.len() * 9 / 10],
            raw_errs[raw_errs.len() - 1]
        );
    }
    // Floors measured (see the report), with margin.
    assert!(pol_ok >= 57, "polished {pol_ok}/{seeds}");
    assert!(raw_ok >= 1, "raw {raw_ok}/{seeds}");
}

#[test]
fn degenerate_input_never_gives_nan() {
    let one = |p: &[f64]| PointsN::from_rows(&[p.to_vec()]).unwrap();
    let cases: Vec<(PointsN, PointsN)> = vec![
        (one(&[0.0, 0.0, 0.0]), one(&[0.0, 0.0, 0.0])),
        (one(&[1.0, 2.0, 3.0]), one(&[4.0, 6.0, 3.0])),
        (one(&[5.0]), one(&[-5.0])),
        (tetra_a(), tetra_a()),
        (
            set(&[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
            set(&[[1e6, 1e6, 1e6], [1e6, 1e6, 1e6 + 1.0]]),
        ),
        (
            set(&[[0.0, 0.0, 0.0], [1e-12, 0.0, 0.0]]),
            set(&[[1e60, 0.0, 0.0], [-1e60, 0.0, 1.0]]),
        ),
    ];
    for (k, (a, b)) in cases.iter().enumerate() {
        for polish in [false, true] {
            let r = pso_distance(
                a,
                b,
                &PsoOptions {
                    polish,
                    ..PsoOptions::default()
                },
            )
            .unwrap();
            check_feasible(a, b, &r, &format!("case {k} pso"));
            let p = penalty_distance(
                a,
                b,
                &PenaltyOptions {
                    polish,
                    ..PenaltyOptions::default()
                },
            )
            .unwrap();
            check_feasible(a, b, &p, &format!("case {k} penalty"));
        }
    }
    let d = pso_distance(&cases[1].0, &cases[1].1, &PsoOptions::default()).unwrap();
    assert!((d.distance - 5.0).abs() < 1e-12);
}

#[test]
fn bad_options_are_errors() {
    let (a, b) = (tetra_a(), tetra_b1());
    let e = |o: PsoOptions| pso_distance(&a, &b, &o).unwrap_err().field;
    assert_eq!(
        e(PsoOptions {
            particles: 1,
            ..PsoOptions::default()
        }),
        "opts.particles"
    );
    assert_eq!(
        e(PsoOptions {
            w_min: 0.95,
            ..PsoOptions::default()
        }),
        "opts.w_min"
    );
    assert_eq!(
        e(PsoOptions {
            w_max: f64::NAN,
            ..PsoOptions::default()
        }),
        "opts.w_max"
    );
    assert_eq!(
        e(PsoOptions {
            feasibility_tolerance: -1.0,
            ..PsoOptions::default()
        }),
        "opts.feasibility_tolerance"
    );
    let p = |o: PenaltyOptions| penalty_distance(&a, &b, &o).unwrap_err().field;
    assert_eq!(
        p(PenaltyOptions {
            mu0: 0.0,
            ..PenaltyOptions::default()
        }),
        "opts.mu0"
    );
    assert_eq!(
        p(PenaltyOptions {
            mu_factor: 1.0,
            ..PenaltyOptions::default()
        }),
        "opts.mu_factor"
    );
    let c = PointsN::from_rows(&[[0.0, 1.0]]).unwrap();
    assert_eq!(
        pso_distance(&a, &c, &PsoOptions::default())
            .unwrap_err()
            .field,
        "b"
    );
    assert_eq!(
        penalty_distance(&a, &c, &PenaltyOptions::default())
            .unwrap_err()
            .field,
        "b"
    );
}
