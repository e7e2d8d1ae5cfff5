//! A small driver for profilers (callgrind, perf): runs one query of one library on the first
//! pairs of one data set, repeatedly, and prints a checksum.
//!
//! Usage: `profile_driver <set> <query> [library] [pairs] [repeats]` with set one of `hull8`,
//! `hull32`, `hull128`, `hull1024` (`Points`: support by scanning), `poly128`, `poly1024` (the
//! same hulls as `ConvexPolyhedron`: hill-climbing support, as the `speed` binary times them;
//! any `polyN`; `tpolyN`: those hulls inside a `Transformed` at a fixed pose, convexity only;
//! `ptsN`: any N as `Points`; `idxN`: the same `Points` with `Points::with_hull_index`),
//! `box`, `sphere`, and any of these as `enum-SET` (the shapes as `Shape3` values); query `distance`, `boolean`, `penetration` or `support` (the Minkowski
//! support call alone; a boolean's verdict is read, as a caller would, by the one `Query::run`
//! every set shares); library `convexity` (default) or `parry3d-f64`; pairs (default 2000) and
//! repeats (default 5).
//!
//! Batch (convexity only, sets `hull8` and `box`): query `batch` runs `batch::distance`
//! single-core (`parallel: false`) on the pairs, the lane kernel chosen at run time;
//! `batch-all` the same on every core; `batch-bool` runs `batch::intersects` single-core
//! (`batch-bool-scalar` with the lane paths off); `lanes-avx2`, `lanes-avx512` and
//! `lanes-baseline` run the GJK lane path alone (`batch::lanes::run_on`, distance mode) on the
//! chosen kernel — box pairs included, which the batch answers by the box lanes instead.
//!
//! Mixed pairs: sets `sphere-box` and `sphere-hull8` (A from the sphere set, B from the box or
//! hull8 set, the `speed` binary's pairs), queries `distance`, `boolean`, `penetration`, both
//! libraries; `hull8-sphere` is `sphere-hull8` with A and B exchanged in every pair (GJK then
//! works in the hull's frame: round 29 measured 2,171 → 2,120 instructions a distance query).
//!
//! Iterations (convexity only, untimed): query `iters` prints EPA's iteration count (mean,
//! median, range) on the set's first `pairs` overlapping pairs and GJK's iteration histogram
//! for the distance and boolean queries on its first `pairs` pairs, split by verdict.
//!
//! Warm-started EPA (convexity only): query `traj-cold` or `traj-warm` runs
//! `epa::penetration` or `epa::penetration_cached` on the overlapping steps of the set's
//! coherent trajectories (`convexity_bench::trajectories`, 8 × 1000 steps as the `speed`
//! binary's warm-EPA row; `pairs` caps the steps), in order, one `EpaCache` per trajectory;
//! `traj-stats` prints, untimed, the iterations of both and how often the warm query started
//! from the cached polytope.
//!
//! Example: `valgrind --tool=callgrind --toggle-collect='*profile_driver*drive*' \
//!   target/release/profile_driver hull8 distance convexity 2000 5`
//! (the toggle excludes data generation from the counts).

use convexity::batch::lanes::{self, Kernel, LaneRow, LaneShape, Mode};
use convexity::batch::{self, BatchOptions, IntersectOut, Pair3};
use convexity::gjk::minkowski::MinkowskiDifference;
use convexity::{gjk, gjk::epa, ConvexPolyhedron, DVec3, SupportMap};
use convexity::{Pose3, Shape3, Status, Verdict};
use convexity_bench::{
    box_set_with_pairs, checksum_of, directions, hull_set_with_pairs, overlapping, pose_pairs,
    raw_pose, sphere_set_with_pairs, trajectories, BatchDistanceBuffers, DataSet, Kind,
};

/// Trajectories and steps per trajectory of the `traj-*` queries (as the `speed` binary).
const TRAJECTORIES: usize = 8;
const STEPS: usize = 1000;

/// One overlapping trajectory step: the trajectory, the shapes' indices and the poses.
type Step = (usize, (u32, u32), Pose3, Pose3);

/// The overlapping steps of the set's trajectories, trajectory-major, in step order.
fn traj_steps<S: SupportMap<DVec3>>(set: &DataSet<S>, n: usize) -> Vec<Step> {
    let gopts = gjk::Options::default();
    let mut steps = Vec::new();
    for (t, tr) in trajectories(set.kind, TRAJECTORIES, STEPS)
        .into_iter()
        .enumerate()
    {
        let (a, b) = (
            &set.shapes[tr.idx.0 as usize],
            &set.shapes[tr.idx.1 as usize],
        );
        for (pa, pb) in tr.poses {
            if gjk::intersects(a, &pa, b, &pb, &gopts, None).intersecting() == Some(true) {
                steps.push((t, tr.idx, pa, pb));
            }
        }
    }
    steps.truncate(n);
    steps
}

/// Cold (`warm == false`) or warm-started EPA over the trajectory steps, `repeats` times.
#[inline(never)]
fn drive_traj<S: SupportMap<DVec3>>(
    set: &DataSet<S>,
    steps: &[Step],
    warm: bool,
    repeats: usize,
) -> f64 {
    let eopts = epa::Options::default();
    let mut ctx = epa::Context::new();
    let mut caches: Vec<epa::EpaCache<DVec3>> =
        (0..TRAJECTORIES).map(|_| epa::EpaCache::new()).collect();
    let mut acc = 0.0;
    for _ in 0..repeats {
        for (t, (ia, ib), pa, pb) in steps {
            let (a, b) = (&set.shapes[*ia as usize], &set.shapes[*ib as usize]);
            acc += if warm {
                epa::penetration_cached(a, pa, b, pb, &eopts, &mut ctx, &mut caches[*t]).depth
            } else {
                epa::penetration(a, pa, b, pb, &eopts, &mut ctx).depth
            };
        }
    }
    acc
}

/// Untimed: mean iterations cold and warm on the trajectory steps, the share of warm queries
/// that started from the cached polytope, and the largest depth difference.
fn traj_stats<S: SupportMap<DVec3>>(set: &DataSet<S>, steps: &[Step]) {
    let eopts = epa::Options::default();
    let mut ctx = epa::Context::new();
    let mut caches: Vec<epa::EpaCache<DVec3>> =
        (0..TRAJECTORIES).map(|_| epa::EpaCache::new()).collect();
    let (mut it_cold, mut it_warm, mut reused, mut max_diff) = (0u64, 0u64, 0usize, 0.0f64);
    let (mut lazy, mut size) = (0usize, [0usize; 3]);
    for (t, (ia, ib), pa, pb) in steps {
        let (a, b) = (&set.shapes[*ia as usize], &set.shapes[*ib as usize]);
        let c = epa::penetration(a, pa, b, pb, &eopts, &mut ctx);
        let w = epa::penetration_cached(a, pa, b, pb, &eopts, &mut ctx, &mut caches[*t]);
        it_cold += u64::from(c.iterations);
        it_warm += u64::from(w.iterations);
        reused += usize::from(caches[*t].reused());
        lazy += usize::from(caches[*t].lazy());
        let (v, s, l) = caches[*t].polytope_size();
        for (acc, x) in size.iter_mut().zip([v, s, l]) {
            *acc += x;
        }
        max_diff = max_diff.max((c.depth - w.depth).abs());
    }
    let n = steps.len().max(1) as f64;
    println!(
        "{} trajectories: {} steps, iterations cold {:.2} warm {:.2}, polytope reused {:.1} %, \
         of them lazily {:.1} %, max |depth cold - warm| {max_diff:.1e}; polytope kept: {:.1} \
         vertices, {:.1} face slots, {:.1} live faces (means)",
        set.name(),
        steps.len(),
        it_cold as f64 / n,
        it_warm as f64 / n,
        100.0 * reused as f64 / n,
        100.0 * lazy as f64 / n,
        size[0] as f64 / n,
        size[1] as f64 / n,
        size[2] as f64 / n,
    );
}

/// One query of one library on one pair (the verdict of a boolean is read, as a caller would).
struct Query<'o> {
    query: &'o str,
    library: &'o str,
    gopts: &'o gjk::Options,
    eopts: &'o epa::Options,
}

type Posed<'s, S> = (
    &'s S,
    &'s Pose3,
    &'s dyn parry3d_f64::shape::Shape,
    &'s parry3d_f64::math::Pose,
);

impl Query<'_> {
    #[inline(always)]
    fn run<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(
        &self,
        (a, pa, a64, qa): Posed<'_, A>,
        (b, pb, b64, qb): Posed<'_, B>,
        ctx: &mut epa::Context<DVec3>,
    ) -> f64 {
        use parry3d_f64::query as pq;
        let (gopts, eopts) = (self.gopts, self.eopts);
        match (self.library, self.query) {
            ("convexity", "distance") => gjk::distance(a, pa, b, pb, gopts, None).distance,
            ("convexity", "boolean") => {
                checksum_of(gjk::intersects(a, pa, b, pb, gopts, None).intersecting() == Some(true))
            }
            ("convexity", "penetration") => epa::penetration(a, pa, b, pb, eopts, ctx).depth,
            ("parry3d-f64", "distance") => pq::distance(qa, a64, qb, b64).unwrap().distance,
            ("parry3d-f64", "boolean") => checksum_of(
                pq::intersection_test(qa, a64, qb, b64)
                    .unwrap()
                    .intersecting,
            ),
            ("parry3d-f64", "penetration") => pq::contact(qa, a64, qb, b64, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist),
            _ => panic!("unknown library/query {}/{}", self.library, self.query),
        }
    }
}

#[inline(never)]
fn drive<S: SupportMap<DVec3>>(
    set: &DataSet<S>,
    pairs: &[usize],
    query: &str,
    library: &str,
    repeats: usize,
) -> f64 {
    let (gopts, eopts) = (gjk::Options::default(), epa::Options::default());
    let mut ctx = epa::Context::new();
    let q = Query {
        query,
        library,
        gopts: &gopts,
        eopts: &eopts,
    };
    let dirs = directions(64, 7);
    let mut acc = 0.0;
    for _ in 0..repeats {
        for &k in pairs {
            let (ia, ib) = set.pairs.idx[k];
            let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
            let (pa, pb) = &set.pairs.ours[k];
            let (qa, qb) = &set.pairs.parry64[k];
            let (a64, b64) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
            acc += if (library, query) == ("convexity", "support") {
                let m = MinkowskiDifference::new(a, pa, b, pb);
                dirs.iter().take(5).map(|d| m.support(*d).w.x).sum()
            } else {
                q.run((a, pa, a64, qa), (b, pb, b64, qb), &mut ctx)
            };
        }
    }
    acc
}

/// `batch::distance`, single-core or on every core, over `pairs`, `repeats` times.
#[inline(never)]
fn drive_batch(table: &[Shape3], pairs: &[Pair3], repeats: usize, parallel: bool) -> f64 {
    let mut out = BatchDistanceBuffers::new(pairs.len());
    let one = BatchOptions {
        parallel,
        ..BatchOptions::default()
    };
    let mut acc = 0.0;
    for _ in 0..repeats {
        let r = batch::distance(table, pairs, &one, out.out()).expect("batch refused");
        acc += r.lane_rows as f64 + out.distance.iter().sum::<f64>();
    }
    acc
}

/// `batch::intersects` on one core over `pairs`, `repeats` times.
#[inline(never)]
fn drive_batch_bool(table: &[Shape3], pairs: &[Pair3], repeats: usize, lanes: bool) -> f64 {
    let n = pairs.len();
    let (mut status, mut iterations) = (vec![Status::Converged; n], vec![0u32; n]);
    let (mut verdict, mut error) = (vec![Verdict::Undetermined; n], vec![None; n]);
    let one = BatchOptions {
        parallel: false,
        lanes,
        ..BatchOptions::default()
    };
    let mut acc = 0.0;
    for _ in 0..repeats {
        let out = IntersectOut {
            status: &mut status,
            iterations: &mut iterations,
            verdict: &mut verdict,
            error: &mut error,
        };
        let r = batch::intersects(table, pairs, &one, out).expect("batch refused");
        acc += r.lane_rows as f64
            + verdict
                .iter()
                .map(|v| f64::from(u8::from(v.intersecting() == Some(true))))
                .sum::<f64>();
    }
    acc
}

/// The lane path alone on `kernel`, distance mode, over `rows`, `repeats` times.
#[inline(never)]
fn drive_lanes(rows: &[LaneRow<'_, DVec3>], kernel: Kernel, repeats: usize) -> f64 {
    let opts = gjk::Options::default();
    let mut answers = Vec::new();
    let mut acc = 0.0;
    for _ in 0..repeats {
        let ran = lanes::run_on(kernel, rows, Mode::Distance, &opts, &mut answers);
        assert_eq!(ran, kernel, "kernel {kernel:?} not available on this CPU");
        acc += answers
            .iter()
            .map(|a| a.map_or(-1.0, |a| a.distance.distance))
            .sum::<f64>();
    }
    acc
}

/// The batch queries (`batch`, `batch-all`, `batch-bool`, `lanes-*`) on the set as a `Shape3`
/// table.
fn go_batch<S>(set: &DataSet<S>, table: &[Shape3], query: &str, n: usize, r: usize) {
    let n = n.min(set.pairs.len());
    let pairs: Vec<Pair3> = (0..n)
        .map(|k| {
            let (a, b) = set.pairs.idx[k];
            let (pa, pb) = &set.pairs.ours[k];
            Pair3 {
                a: a as usize,
                pose_a: raw_pose(pa),
                b: b as usize,
                pose_b: raw_pose(pb),
            }
        })
        .collect();
    let lane_shapes: Vec<Option<LaneShape>> = table.iter().map(LaneShape::of).collect();
    let rows: Vec<LaneRow<'_, DVec3>> = (0..n)
        .filter_map(|k| {
            let (a, b) = set.pairs.idx[k];
            let (pa, pb) = set.pairs.ours[k];
            Some(LaneRow {
                k,
                a: lane_shapes[a as usize].as_ref()?,
                b: lane_shapes[b as usize].as_ref()?,
                pose_a: pa,
                pose_b: pb,
            })
        })
        .collect();
    let t = std::time::Instant::now();
    let acc = match query {
        "batch" => drive_batch(table, &pairs, r, false),
        "batch-all" => drive_batch(table, &pairs, r, true),
        "batch-bool" => drive_batch_bool(table, &pairs, r, true),
        "batch-bool-scalar" => drive_batch_bool(table, &pairs, r, false),
        "lanes-avx2" => drive_lanes(&rows, Kernel::Avx2, r),
        "lanes-avx512" => drive_lanes(&rows, Kernel::Avx512, r),
        "lanes-baseline" => drive_lanes(&rows, Kernel::Baseline, r),
        _ => panic!("unknown batch query {query}"),
    };
    let per = t.elapsed().as_secs_f64() * 1e9 / (n * r).max(1) as f64;
    println!(
        "{} {query} convexity (kernel {:?}): {} queries, {} lane rows, {per:.0} ns/query, \
         checksum {acc}",
        set.name(),
        Kernel::best(),
        n * r,
        rows.len()
    );
}

fn go<S: SupportMap<DVec3>>(set: DataSet<S>, query: &str, library: &str, n: usize, r: usize) {
    if let Some(kind) = query.strip_prefix("traj-") {
        let steps = traj_steps(&set, n);
        if kind == "stats" {
            return traj_stats(&set, &steps);
        }
        let t = std::time::Instant::now();
        let acc = drive_traj(&set, &steps, kind == "warm", r);
        let per = t.elapsed().as_secs_f64() * 1e9 / (steps.len() * r).max(1) as f64;
        println!(
            "{} {query}: {} queries, {per:.0} ns/query, checksum {acc}",
            set.name(),
            steps.len() * r
        );
        return;
    }
    if query == "iters" {
        return iteration_stats(&set, n);
    }
    let pairs: Vec<usize> = if query == "penetration" {
        overlapping(&set).into_iter().take(n).collect()
    } else {
        (0..n.min(set.pairs.len())).collect()
    };
    let t = std::time::Instant::now();
    let acc = drive(&set, &pairs, query, library, r);
    let per = t.elapsed().as_secs_f64() * 1e9 / (pairs.len() * r) as f64;
    println!(
        "{} {query} {library}: {} queries, {per:.0} ns/query, checksum {acc}",
        set.name(),
        pairs.len() * r
    );
}

/// Prints, untimed, the iterations of EPA (mean, median, range) on the set's first `n`
/// overlapping pairs, and the GJK iteration histogram of the distance and boolean queries on
/// its first `n` pairs, split by verdict.
fn iteration_stats<S: SupportMap<DVec3>>(set: &DataSet<S>, n: usize) {
    let gopts = gjk::Options::default();
    let (eopts, mut ctx) = (epa::Options::default(), epa::Context::new());
    let mut epa_iters = Vec::new();
    for k in overlapping(set).into_iter().take(n) {
        let (ia, ib) = set.pairs.idx[k];
        let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
        let (pa, pb) = &set.pairs.ours[k];
        epa_iters.push(epa::penetration(a, pa, b, pb, &eopts, &mut ctx).iterations);
    }
    epa_iters.sort_unstable();
    if let (Some(&lo), Some(&hi)) = (epa_iters.first(), epa_iters.last()) {
        let mean = epa_iters.iter().map(|&i| f64::from(i)).sum::<f64>() / epa_iters.len() as f64;
        println!(
            "{} penetration: {} overlapping pairs, iterations mean {mean:.2}, median {}, \
             range {lo}–{hi}",
            set.name(),
            epa_iters.len(),
            epa_iters[epa_iters.len() / 2]
        );
    }
    for query in ["distance", "boolean"] {
        let mut hist = [[0usize; 2]; 17];
        for k in 0..n.min(set.pairs.len()) {
            let (ia, ib) = set.pairs.idx[k];
            let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
            let (pa, pb) = &set.pairs.ours[k];
            let (it, hit) = if query == "distance" {
                let d = gjk::distance(a, pa, b, pb, &gopts, None);
                (d.iterations, d.intersecting() == Some(true))
            } else {
                let d = gjk::intersects(a, pa, b, pb, &gopts, None);
                (d.iterations, d.intersecting() == Some(true))
            };
            hist[(it as usize).min(16)][usize::from(hit)] += 1;
        }
        let total: usize = hist.iter().flatten().sum();
        let mean = |j: usize| {
            let c: usize = hist.iter().map(|h| h[j]).sum();
            let s: usize = hist.iter().enumerate().map(|(i, h)| i * h[j]).sum();
            s as f64 / c.max(1) as f64
        };
        println!(
            "{} {query}: {total} pairs, mean iterations separated {:.2}, intersecting {:.2}",
            set.name(),
            mean(0),
            mean(1)
        );
        for (i, h) in hist.iter().enumerate().filter(|(_, h)| h[0] + h[1] > 0) {
            // The last bucket holds every run of 16 iterations or more.
            let label = if i == hist.len() - 1 {
                format!("{i}+")
            } else {
                i.to_string()
            };
            println!(
                "  {label:>3} iterations: separated {:>6}, intersecting {:>6}",
                h[0], h[1]
            );
        }
    }
}

/// The `speed` binary's mixed pairs (`sphere-box`, `sphere-hull8`; their calibrated offset
/// scales, rounded), and `hull8-sphere`: `sphere-hull8` with the roles swapped.
fn go_mixed(set: &str, query: &str, library: &str, n: usize, r: usize) {
    let balls = sphere_set_with_pairs(1);
    let t = std::time::Instant::now();
    let acc = match set {
        "sphere-box" => {
            let boxes = box_set_with_pairs(1);
            let pairs = pose_pairs(4 << 20, 1.9, n);
            drive_mixed(
                (&balls.shapes, &balls.parry64),
                (&boxes.shapes, &boxes.parry64),
                &pairs,
                query,
                library,
                r,
            )
        }
        "sphere-hull8" | "hull8-sphere" => {
            let hulls = hull_set_with_pairs(8, 1);
            let pairs = pose_pairs(6 << 20, 1.673, n);
            let (b, h) = (
                (&balls.shapes[..], &balls.parry64[..]),
                (&hulls.shapes[..], &hulls.parry64[..]),
            );
            if set == "sphere-hull8" {
                drive_mixed(b, h, &pairs, query, library, r)
            } else {
                // The same pairs with the roles swapped: the hull is A, whose frame GJK works in.
                drive_mixed(h, b, &swap_pairs(&pairs), query, library, r)
            }
        }
        _ => panic!("unknown set {set}"),
    };
    let per = t.elapsed().as_secs_f64() * 1e9 / (n * r).max(1) as f64;
    println!(
        "{set} {query} {library}: {} queries, {per:.0} ns/query, checksum {acc}",
        n * r
    );
}

type PShape = Box<dyn parry3d_f64::shape::Shape>;

#[inline(never)]
fn drive_mixed<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(
    (sa, qsa): (&[A], &[PShape]),
    (sb, qsb): (&[B], &[PShape]),
    pairs: &convexity_bench::Pairs,
    query: &str,
    library: &str,
    repeats: usize,
) -> f64 {
    let (gopts, eopts) = (gjk::Options::default(), epa::Options::default());
    let mut ctx = epa::Context::new();
    let q = Query {
        query,
        library,
        gopts: &gopts,
        eopts: &eopts,
    };
    let mut acc = 0.0;
    for _ in 0..repeats {
        for (k, &(ia, ib)) in pairs.idx.iter().enumerate() {
            let (a, b) = (&sa[ia as usize], &sb[ib as usize]);
            let (pa, pb) = &pairs.ours[k];
            let (qa, qb) = &pairs.parry64[k];
            let (a64, b64) = (&*qsa[ia as usize], &*qsb[ib as usize]);
            acc += q.run((a, pa, a64, qa), (b, pb, b64, qb), &mut ctx);
        }
    }
    acc
}

/// The `hullN` set with each hull built as a `ConvexPolyhedron` and passed through `wrap`.
fn poly_set<S>(h: usize, pairs: usize, wrap: impl Fn(ConvexPolyhedron) -> S) -> DataSet<S> {
    let s = hull_set_with_pairs(h, pairs);
    let shapes = s
        .shapes
        .iter()
        .map(|p| wrap(ConvexPolyhedron::from_points(p.points()).expect("hull of sphere points")))
        .collect();
    DataSet {
        kind: s.kind,
        shapes,
        parry64: s.parry64,
        parry32: s.parry32,
        pairs: s.pairs,
        hull_retries: s.hull_retries,
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let set = a.first().map_or("hull8", |s| s.as_str());
    let query = a.get(1).map_or("distance", |s| s.as_str());
    let library = a.get(2).map_or("convexity", |s| s.as_str());
    let n: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let r: usize = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    // Penetration needs overlapping pairs: generate twice as many.
    let gen = 2 * n + 100;
    // `polyN`: the `hullN` set as `ConvexPolyhedron`s (hill-climbing support), the shapes the
    // `speed` binary times for hull128 and hull1024.
    if let Some(h) = set
        .strip_prefix("poly")
        .and_then(|s| s.parse::<usize>().ok())
    {
        return go(poly_set(h, gen, |p| p), query, library, n, r);
    }
    // `tpolyN`: the `polyN` set, each hull wrapped in a `Transformed` (a fixed rotation about
    // (1, 2, 3) by 0.7 rad and an offset of (0.1, −0.2, 0.05)), for the wrapper's own cost.
    if let Some(h) = set
        .strip_prefix("tpoly")
        .and_then(|s| s.parse::<usize>().ok())
    {
        let inner = Pose3::new(
            DVec3::new(0.1, -0.2, 0.05),
            glam::DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7),
        )
        .expect("a unit rotation");
        let set = poly_set(h, gen, |p| convexity::Transformed::new(p, inner));
        return go(set, query, library, n, r);
    }
    // `idxN`: the `ptsN` set with a support index (`Points::with_hull_index`).
    if let Some(h) = set
        .strip_prefix("idx")
        .and_then(|s| s.parse::<usize>().ok())
    {
        let mut s = hull_set_with_pairs(h, gen);
        s.shapes = s.shapes.into_iter().map(|p| p.with_hull_index()).collect();
        return go(s, query, library, n, r);
    }
    // `ptsN`: N points on the unit sphere as a `Points` set (any N; the sizes between the
    // `speed` sets, for the scan thresholds).
    if let Some(h) = set
        .strip_prefix("pts")
        .and_then(|s| s.parse::<usize>().ok())
    {
        return go(hull_set_with_pairs(h, gen), query, library, n, r);
    }
    // `enum-SET`: the set's shapes as `Shape3` values (the runtime-dispatch enum a physics
    // engine or the Python binding passes), for the enum's own cost.
    if let Some(inner) = set.strip_prefix("enum-") {
        fn as_enum<S>(s: DataSet<S>, f: impl Fn(S) -> Shape3) -> DataSet<Shape3> {
            DataSet {
                kind: s.kind,
                shapes: s.shapes.into_iter().map(f).collect(),
                parry64: s.parry64,
                parry32: s.parry32,
                pairs: s.pairs,
                hull_retries: s.hull_retries,
            }
        }
        let s = match Kind::from_name(inner).unwrap_or_else(|| panic!("unknown set {inner}")) {
            Kind::Hull(h) => as_enum(hull_set_with_pairs(h, gen), Shape3::Points),
            Kind::Box => as_enum(box_set_with_pairs(gen), Shape3::Cuboid),
            Kind::Sphere => as_enum(sphere_set_with_pairs(gen), Shape3::Sphere),
        };
        return go(s, query, library, n, r);
    }
    if matches!(set, "sphere-box" | "sphere-hull8" | "hull8-sphere") {
        return go_mixed(set, query, library, n, r);
    }
    if query.starts_with("batch") || query.starts_with("lanes-") {
        match Kind::from_name(set).unwrap_or_else(|| panic!("unknown set {set}")) {
            Kind::Hull(h) => {
                let s = hull_set_with_pairs(h, gen);
                let table: Vec<Shape3> = s.shapes.iter().cloned().map(Shape3::Points).collect();
                go_batch(&s, &table, query, n, r);
            }
            Kind::Box => {
                let s = box_set_with_pairs(gen);
                let table: Vec<Shape3> = s.shapes.iter().map(|c| Shape3::Cuboid(*c)).collect();
                go_batch(&s, &table, query, n, r);
            }
            Kind::Sphere => panic!("the batch queries take hull8 or box"),
        }
        return;
    }
    match Kind::from_name(set).unwrap_or_else(|| panic!("unknown set {set}")) {
        Kind::Hull(h) => go(hull_set_with_pairs(h, gen), query, library, n, r),
        Kind::Box => go(box_set_with_pairs(gen), query, library, n, r),
        Kind::Sphere => go(sphere_set_with_pairs(gen), query, library, n, r),
    }
}

/// `pairs` with A and B exchanged in every pair (indices and poses).
fn swap_pairs(pairs: &convexity_bench::Pairs) -> convexity_bench::Pairs {
    fn flip<T: Copy>(v: &[(T, T)]) -> Vec<(T, T)> {
        v.iter().map(|&(x, y)| (y, x)).collect()
    }
    convexity_bench::Pairs {
        idx: flip(&pairs.idx),
        ours: flip(&pairs.ours),
        parry64: flip(&pairs.parry64),
        parry32: flip(&pairs.parry32),
    }
}
