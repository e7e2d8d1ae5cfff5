//! Calibrates [`Kind::offset_scale`](convexity_bench::Kind::offset_scale): for a sample of
//! pairs of each set it finds the touching distance `r*` along the pair's offset direction by
//! bisection with convexity's GJK, then solves `E[min(1, r*/s)³] = 0.5` for `s` (B's centre is
//! uniform in the ball of radius `s`, so that is the expected overlap fraction).
//!
//! Usage: `cargo run --release -p convexity-bench --bin calibrate [pairs]` (default 4000).

use convexity::{gjk, DVec3, Pose3, SupportMap};
use convexity_bench::{box_set_with_pairs, hull_set_with_pairs, sphere_set_with_pairs, DataSet};

fn touching<S: SupportMap<DVec3>>(set: &DataSet<S>) -> Vec<f64> {
    let opts = gjk::Options::default();
    (0..set.pairs.len())
        .map(|k| {
            let (ia, ib) = set.pairs.idx[k];
            let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
            let (pa, pb) = set.pairs.ours[k];
            let off = pb.translation() - pa.translation();
            let dir = off.normalize_or(DVec3::X);
            let hit = |r: f64| {
                let pbr = Pose3::new(pa.translation() + dir * r, pb.rotation()).unwrap();
                gjk::intersects(a, &pa, b, &pbr, &opts, None).intersecting() == Some(true)
            };
            let (mut lo, mut hi) = (0.0, 4.0);
            for _ in 0..40 {
                let m = 0.5 * (lo + hi);
                if hit(m) {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            lo
        })
        .collect()
}

fn solve(r: &[f64]) -> f64 {
    let frac = |s: f64| r.iter().map(|x| (x / s).min(1.0).powi(3)).sum::<f64>() / r.len() as f64;
    let (mut lo, mut hi) = (0.1, 10.0);
    for _ in 0..60 {
        let m = 0.5 * (lo + hi);
        if frac(m) > 0.5 {
            lo = m;
        } else {
            hi = m;
        }
    }
    lo
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    for h in convexity_bench::HULL_SIZES {
        let set = hull_set_with_pairs(h, n);
        let r = touching(&set);
        println!("{}: s = {:.3}", set.name(), solve(&r));
    }
    let set = box_set_with_pairs(n);
    println!("box: s = {:.3}", solve(&touching(&set)));
    let set = sphere_set_with_pairs(n);
    println!("sphere: s = {:.3}", solve(&touching(&set)));
}
