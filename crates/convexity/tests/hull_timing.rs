//! Build-time figures for `ConvexPolyhedron::build` (ignored: run by hand, release, on a quiet
//! machine): minimum over rounds of the wall time to build the hull of sphere points (every
//! point a vertex) and of ball points (most points interior), at several sizes.

use convexity::hull::{ConvexPolyhedron, HullOptions, HullResult};
use convexity::DVec3;
use convexity_testkit::gen3::{in_unit_ball3, sphere_points};
use convexity_testkit::rng;
use std::time::Instant;

fn min_time(pts: &[DVec3], rounds: usize, reps: usize) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..reps {
            let h = ConvexPolyhedron::build(pts, &HullOptions::default()).unwrap();
            assert!(matches!(h, HullResult::Solid(_)));
        }
        best = best.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    best
}

#[test]
#[ignore]
fn hull_build_times() {
    let mut r = rng(4242);
    for (n, rounds, reps) in [(100_000, 5, 1), (10_000, 7, 5), (1_000, 7, 50)] {
        let pts = sphere_points(&mut r, n, 1.0);
        eprintln!(
            "sphere {n:>6}: {:9.3} ms",
            1e3 * min_time(&pts, rounds, reps)
        );
    }
    for (n, rounds, reps) in [(100_000, 5, 1), (10_000, 7, 5), (2_000, 7, 50)] {
        let pts: Vec<DVec3> = (0..n).map(|_| in_unit_ball3(&mut r)).collect();
        eprintln!(
            "ball   {n:>6}: {:9.3} ms",
            1e3 * min_time(&pts, rounds, reps)
        );
    }
}

/// The exact fallback (stage 2) alone, for comparison with the table above.
#[test]
#[ignore]
fn hull_exact_fallback_times() {
    let mut r = rng(4242);
    let sphere = sphere_points(&mut r, 100_000, 1.0);
    let ball: Vec<DVec3> = (0..100_000).map(|_| in_unit_ball3(&mut r)).collect();
    for (name, pts) in [("sphere", sphere), ("ball  ", ball)] {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let t = Instant::now();
            let p = ConvexPolyhedron::build_exact_only(&pts).expect("exact fallback");
            best = best.min(t.elapsed().as_secs_f64());
            assert!(p.num_vertices() > 100);
        }
        eprintln!("exact fallback, {name} 100000: {:9.3} ms", 1e3 * best);
    }
}
