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
