//! GJK/EPA hot path against parry3d-f64, through the user-level calls with world poses.
//!
//! Sets as in issue 10: `hull8`, `hull32` (our `Points`), `hull128`, `hull1024` (our
//! `ConvexPolyhedron::from_points`, parry's `ConvexPolyhedron`), `box`. For each set and query
//! (distance, boolean, EPA on the overlapping pairs) parry and ours are timed interleaved on the
//! same pairs, round after round; the median over rounds of the per-round ratio parry / ours is
//! printed. Also warm-started EPA (`epa::penetration_cached`) against cold EPA on coherent
//! trajectories.
//!
//! Run: `cargo bench -p convexity-bench --bench hot_path -- [set ...] [query ...]`
//! (`HOT_PATH_PAIRS`, default 2000 pairs; `HOT_PATH_ROUNDS`, default 15).

use convexity::gjk::{self, epa};
use convexity::{ConvexPolyhedron, DQuat, DVec3, Pose3, SupportMap};
use convexity_bench::harness::median;
use convexity_bench::{box_set_with_pairs, hull_set_with_pairs, DataSet, Pairs};
use parry3d_f64::query as pq;
use std::hint::black_box;
use std::time::Instant;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Times `parry(k)` and `ours(k)` over `0..n` alternately for `rounds` rounds; returns the
/// median ns per query of each and the median per-round ratio parry / ours.
fn interleave(
    n: usize,
    rounds: usize,
    mut parry: impl FnMut(usize) -> f64,
    mut ours: impl FnMut(usize) -> f64,
) -> (f64, f64, f64) {
    let (mut tp, mut to, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let time = |f: &mut dyn FnMut(usize) -> f64| {
            let t = Instant::now();
            let mut acc = 0.0;
            for k in 0..n {
                acc += f(k);
            }
            black_box(acc);
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        };
        let (a, b) = if r % 2 == 0 {
            let a = time(&mut parry);
            (a, time(&mut ours))
        } else {
            let b = time(&mut ours);
            (time(&mut parry), b)
        };
        tp.push(a);
        to.push(b);
        ratio.push(a / b);
    }
    (median(&mut tp), median(&mut to), median(&mut ratio))
}

type Parry<'p> = (
    &'p dyn parry3d_f64::shape::Shape,
    &'p dyn parry3d_f64::shape::Shape,
    &'p (parry3d_f64::math::Pose, parry3d_f64::math::Pose),
);

fn report(set: &str, query: &str, (p, o, r): (f64, f64, f64)) {
    println!("{set:9} {query:9} parry {p:9.0} ns  ours {o:9.0} ns  parry/ours {r:5.2}x");
}

fn run_set<S, T: SupportMap<DVec3>>(
    name: &str,
    set: &DataSet<S>,
    shapes: &[T],
    queries: &[String],
) {
    let n = set.pairs.len();
    let rounds = env("HOT_PATH_ROUNDS", 15);
    let gopts = gjk::Options::default();
    let eopts = epa::Options::default();
    let want = |q: &str| queries.is_empty() || queries.iter().any(|x| x == q);
    let ours = |k: usize| {
        let (ia, ib) = set.pairs.idx[k];
        (
            &shapes[ia as usize],
            &shapes[ib as usize],
            &set.pairs.ours[k],
        )
    };
    fn theirs<'p, S>(set: &'p DataSet<S>, p: &'p Pairs, k: usize) -> Parry<'p> {
        let (ia, ib) = p.idx[k];
        (
            &*set.parry64[ia as usize],
            &*set.parry64[ib as usize],
            &p.parry64[k],
        )
    }
    if want("distance") {
        let r = interleave(
            n,
            rounds,
            |k| {
                let (a, b, (pa, pb)) = theirs(set, &set.pairs, k);
                pq::distance(pa, a, pb, b).map_or(0.0, |d| d.distance)
            },
            |k| {
                let (a, b, (pa, pb)) = ours(k);
                gjk::distance(a, pa, b, pb, &gopts, None).distance
            },
        );
        report(name, "distance", r);
    }
    if want("boolean") {
        let r = interleave(
            n,
            rounds,
            |k| {
                let (a, b, (pa, pb)) = theirs(set, &set.pairs, k);
                pq::intersection_test(pa, a, pb, b).map_or(0.0, |x| x.intersecting as u8 as f64)
            },
            |k| {
                let (a, b, (pa, pb)) = ours(k);
                gjk::intersects(a, pa, b, pb, &gopts, None).iterations as f64
            },
        );
        report(name, "boolean", r);
    }
    if want("epa") {
        let over: Vec<usize> = (0..n)
            .filter(|&k| {
                let (a, b, (pa, pb)) = ours(k);
                gjk::intersects(a, pa, b, pb, &gopts, None).intersecting() == Some(true)
            })
            .collect();
        let sub = set.pairs.subset(&over);
        let mut ctx = epa::Context::new();
        let r = interleave(
            over.len(),
            rounds,
            |k| {
                let (a, b, (pa, pb)) = theirs(set, &sub, k);
                pq::contact(pa, a, pb, b, 0.0)
                    .ok()
                    .flatten()
                    .map_or(0.0, |c| c.dist)
            },
            |k| {
                let (a, b, (pa, pb)) = ours(over[k]);
                epa::penetration(a, pa, b, pb, &eopts, &mut ctx).depth
            },
        );
        report(name, "epa", r);
    }
    if want("warm") {
        warm(name, shapes, rounds);
    }
}

/// Coherent trajectories: B circles A at a penetrating distance while both spin slowly; cold
/// EPA against the warm-started path on the same poses. Prints cold / warm.
fn warm<T: SupportMap<DVec3>>(name: &str, shapes: &[T], rounds: usize) {
    let steps = 400;
    let eopts = epa::Options::default();
    let mut poses = Vec::new();
    for t in 0..8 {
        for s in 0..steps {
            let th = s as f64 * 0.004 + t as f64;
            let pa = Pose3::new(DVec3::ZERO, DQuat::from_rotation_y(0.3 * th)).expect("pose");
            let dir = DVec3::new(th.cos(), 0.3 * (0.7 * th).sin(), th.sin()).normalize();
            let pb = Pose3::new(dir * 1.2, DQuat::from_rotation_z(0.5 * th)).expect("pose");
            poses.push((t % shapes.len(), (t + 1) % shapes.len(), pa, pb));
        }
    }
    let mut ctx = epa::Context::new();
    let mut ctx2 = epa::Context::new();
    let mut cache = epa::EpaCache::new();
    let n = poses.len();
    let r = interleave(
        n,
        rounds,
        |k| {
            let (ia, ib, pa, pb) = &poses[k];
            epa::penetration(&shapes[*ia], pa, &shapes[*ib], pb, &eopts, &mut ctx).depth
        },
        |k| {
            let (ia, ib, pa, pb) = &poses[k];
            epa::penetration_cached(
                &shapes[*ia],
                pa,
                &shapes[*ib],
                pb,
                &eopts,
                &mut ctx2,
                &mut cache,
            )
            .depth
        },
    );
    println!(
        "{name:9} warm-epa  cold  {:9.0} ns  warm {:9.0} ns  cold/warm  {:5.2}x",
        r.0, r.1, r.2
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let sets = ["hull8", "hull32", "hull128", "hull1024", "box"];
    let chosen: Vec<&str> = sets
        .iter()
        .copied()
        .filter(|s| args.iter().all(|a| !sets.contains(&a.as_str())) || args.iter().any(|a| a == s))
        .collect();
    let queries: Vec<String> = args
        .iter()
        .filter(|a| !sets.contains(&a.as_str()))
        .cloned()
        .collect();
    let pairs = env("HOT_PATH_PAIRS", 2000);
    for s in chosen {
        match s {
            "box" => {
                let set = box_set_with_pairs(pairs);
                run_set(s, &set, &set.shapes, &queries);
            }
            "hull8" | "hull32" => {
                let set = hull_set_with_pairs(if s == "hull8" { 8 } else { 32 }, pairs);
                run_set(s, &set, &set.shapes, &queries);
            }
            _ => {
                let n = if s == "hull128" { 128 } else { 1024 };
                let set = hull_set_with_pairs(n, pairs);
                let polys: Vec<ConvexPolyhedron> = set
                    .shapes
                    .iter()
                    .map(|p| ConvexPolyhedron::from_points(p.points()).expect("hull"))
                    .collect();
                run_set(s, &set, &polys, &queries);
            }
        }
    }
}
