//! GJK against the independent hull oracle (clarabel SOCP + polish, `convexity-testkit`).
//!
//! Random pairs of point hulls (4–64 vertices, random poses), placed in every regime (far,
//! near touching, touching, overlapping, deep), plus face-aligned box pairs. For each pair
//! (`convexity_testkit::check_gjk_pair`): the distance agrees with the oracle to
//! `1e-9 × (size_A + size_B)`; the closest points are points of the shapes and are
//! `distance` apart; the verdicts of `distance` and `intersects` agree with the oracle outside
//! the tolerance band `[0, 2 tol]`; every certificate verifies with `convexity::verify`.
//!
//! Set `CONVEXITY_TEST_STATS=1` to print the error and iteration statistics.

use convexity::{DQuat, DVec3, Points, Pose3};
use convexity_testkit::gen3::{
    box_corners3, half_extents3, random_hull3, random_pose3, random_quat, unit_vector3,
};
use convexity_testkit::rng::{case_rng, Rng};
use convexity_testkit::{check_gjk_pair, place_at_distance, place_in_regime, CheckOptions};
use convexity_testkit::{CheckReport, Regime};
use std::collections::BTreeMap;

struct Pair {
    a: Points<DVec3>,
    b: Points<DVec3>,
    pose_a: Pose3,
    pose_b: Pose3,
    regime: Regime,
}

/// Random hulls in a random regime.
fn random_pair(test_seed: u64, case: u64) -> Pair {
    let mut r = case_rng(test_seed, case);
    let a = Points::new(&random_hull3(&mut r, 4..=64, 0.5..=2.0)).unwrap();
    let b = Points::new(&random_hull3(&mut r, 4..=64, 0.5..=2.0)).unwrap();
    let pose_a = random_pose3(&mut r, 10.0);
    let rot_b = random_quat(&mut r);
    let u = unit_vector3(&mut r);
    let regime = Regime::ALL[(case % Regime::ALL.len() as u64) as usize];
    let pl = place_in_regime(&mut r, &a, &pose_a, &b, rot_b, u, regime);
    Pair {
        a,
        b,
        pose_a,
        pose_b: pl.pose_b,
        regime,
    }
}

/// Two box hulls with faces anti-parallel (B's rotation is A's, up to a quarter turn about
/// the contact normal), placed along A's face normal: face–face contacts, which random
/// directions almost never produce. Far, touching and deep regimes only (the near-touching
/// band for face contacts is covered by `gap_sweep.rs`).
fn aligned_box_pair(test_seed: u64, case: u64) -> Pair {
    let mut r = case_rng(test_seed, case);
    let a = Points::new(&box_corners3(half_extents3(&mut r, 0.2, 1.0))).unwrap();
    let b = Points::new(&box_corners3(half_extents3(&mut r, 0.2, 1.0))).unwrap();
    let pose_a = random_pose3(&mut r, 10.0);
    let axis = [DVec3::X, DVec3::Y, DVec3::Z][r.gen_range(0..3)];
    let sign = if r.gen_bool(0.5) { 1.0 } else { -1.0 };
    let twist =
        DQuat::from_axis_angle(axis, r.gen_range(0..4) as f64 * std::f64::consts::FRAC_PI_2);
    let rot_b = pose_a.rotation() * twist;
    let u = pose_a.rotation() * (axis * sign);
    let regime = [Regime::Far, Regime::Touching, Regime::Deep][(case % 3) as usize];
    let mut pl = place_in_regime(&mut r, &a, &pose_a, &b, rot_b, u, regime);
    if regime != Regime::Deep {
        // Slide B sideways within the contact plane so the faces overlap partially.
        let lateral = pose_a.rotation() * (axis.any_orthonormal_vector() * r.gen_range(-0.2..0.2));
        let g = pl.gap;
        pl = place_at_distance(&a, &pose_a, &b, rot_b, u, g);
        pl.pose_b = Pose3::new(pl.pose_b.translation() + lateral, rot_b).unwrap();
    }
    Pair {
        a,
        b,
        pose_a,
        pose_b: pl.pose_b,
        regime,
    }
}

#[derive(Default)]
struct Stats {
    max_rel_err: f64,
    iterations: BTreeMap<u32, u32>,
    boolean_iterations: BTreeMap<u32, u32>,
    statuses: BTreeMap<&'static str, u32>,
}

impl Stats {
    fn add(&mut self, r: &CheckReport) {
        self.max_rel_err = self.max_rel_err.max(r.rel_error);
        *self.iterations.entry(r.iterations).or_default() += 1;
        *self
            .boolean_iterations
            .entry(r.boolean_iterations)
            .or_default() += 1;
        *self.statuses.entry(r.status.as_str()).or_default() += 1;
    }
}

fn run_pairs(name: &str, n: u64, make: impl Fn(u64) -> Pair) {
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    let opts = CheckOptions::default();
    let start = std::time::Instant::now();
    for case in 0..n {
        let p = make(case);
        match check_gjk_pair(&p.a, &p.pose_a, &p.b, &p.pose_b, &opts) {
            Ok(r) => stats.add(&r),
            Err(e) => failures.push(format!("case {case} ({}): {e}", p.regime.name())),
        }
    }
    if std::env::var_os("CONVEXITY_TEST_STATS").is_some() {
        eprintln!(
            "{name}: {n} pairs in {:?}, max |d - oracle| / scale = {:e}\n  statuses {:?}\n  distance iterations {:?}\n  boolean iterations {:?}",
            start.elapsed(),
            stats.max_rel_err,
            stats.statuses,
            stats.iterations,
            stats.boolean_iterations
        );
    }
    assert!(
        failures.is_empty(),
        "{name}: {} of {n} pairs failed; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn oracle_2000_pairs_all_regimes() {
    run_pairs("random pairs", 2000, |c| random_pair(0x6A4B_0001, c));
}

#[test]
fn oracle_300_face_aligned_box_pairs() {
    run_pairs("aligned boxes", 300, |c| aligned_box_pair(0x6A4B_0002, c));
}

#[test]
#[ignore = "long: 100,000 pairs (about 4 minutes); run with --ignored"]
fn oracle_100k_pairs_long() {
    run_pairs("random pairs", 100_000, |c| random_pair(0x6A4B_0100, c));
}
