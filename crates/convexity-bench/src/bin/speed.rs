//! Writes `bench-results/speed.md`: convexity against parry3d-f64 0.31 through the calls a
//! user makes, with two world poses — `gjk::distance` / `parry::query::distance`,
//! `gjk::intersects` / `query::intersection_test`, `epa::penetration` /
//! `query::contact(.., prediction 0)` — next to the speed targets of issue 10.
//!
//! Method (the issue's): per set, the same 64 shapes and the first `--pairs` (20,000) seeded
//! pose pairs for both libraries (`convexity_bench` data sets: random rotations, about half of
//! the pairs overlapping); each query is timed interleaved in this one process
//! ([`convexity_bench::harness::interleave`]): a chunk of pairs with parry, then the same chunk
//! with ours, `--rounds` (15) rounds, ns per query = median over rounds, ratio = median over
//! rounds of parry's time ÷ ours on the same chunk. The chunk is every pair of the set unless
//! `--chunk` says otherwise. EPA runs on the pairs our GJK proves overlapping.
//!
//! Sets: hull8, hull32 (`Points`: the support function scans the points), hull128, hull1024
//! (`ConvexPolyhedron::from_points`, built once, untimed), box (half extents in [0.3, 1]),
//! sphere (radius in [0.3, 1]), capsule (capsule–capsule: segment half-length in [0.3, 1],
//! radius in [0.2, 0.6]), sphere–box (A a sphere of the sphere set, B a box of the box
//! set), and the mixed pairs capsule–box, sphere–hull8 and capsule–hull8 (no target: the
//! pairs a game or robot scene is made of, where we run GJK / EPA). parry gets
//! `ConvexPolyhedron::from_convex_hull` of the same points, and its own `Cuboid`, `Ball`,
//! `Capsule`. The offset scale of the sets beyond the data sets (the radius of the ball in
//! which B's centre lies about A's) is calibrated at start-up, deterministically, for a 50 %
//! overlap, as `src/bin/calibrate.rs` does for the others.
//!
//! The GJK floor: one `MinkowskiDifference::support` call is timed per set (5 calls on each
//! of the first 4,096 pairs, random unit directions, the same rounds), and the floor of a
//! query is its average GJK iterations (one support call each) × that time.
//!
//! Warm-started EPA (sets with trajectories: the hulls, box, sphere): cold `epa::penetration`
//! against `epa::penetration_cached` on the overlapping steps of 8 trajectories × 1000 steps
//! (`convexity_bench::trajectories`), one `EpaCache` per trajectory, steps in order,
//! interleaved, median of per-round cold ÷ warm ratios.
//!
//! Batch API (box, hull8): `convexity::batch::distance` on a `Shape3` table over the set's
//! pairs, single-core (`parallel: false`) and all-core, against a parry per-pair loop; per
//! round parry, single-core, all-core back to back; medians of per-round ratios.
//!
//! Usage: `cargo run --release -p convexity-bench --bin speed -- [--pairs N] [--rounds R]
//! [--chunk C] [--sets hull8,box,...] [--out FILE] [--command TEXT]`
//! (documented entry point: `crates/convexity-bench/run.sh speed`).

use convexity::batch::{self, BatchOptions, Pair3};
use convexity::gjk::minkowski::MinkowskiDifference;
use convexity::gjk::{self, epa};
use convexity::{Capsule, ConvexPolyhedron, DVec3, Pose3, Shape3, SupportMap};
use convexity_bench::harness::median;
use convexity_bench::harness::{interleave, Args, Competitor, Stop};
use convexity_bench::tables::machine;
use convexity_bench::{
    box_set_with_pairs, directions, hull_set_with_pairs, pose_pairs, seed_for_id,
    sphere_set_with_pairs, trajectories, DataSet, Kind, Pairs, SHAPES,
};
use convexity_bench::{checksum_of, raw_pose, BatchDistanceBuffers};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::hint::black_box;

type PShape = Box<dyn parry3d_f64::shape::Shape>;

const USAGE: &str = "usage: speed [--pairs N] [--rounds R] [--chunk C] [--sets a,b,...] \
                     [--out FILE] [--command TEXT]";
/// Seed ids of the sets that are not `convexity_bench::Kind`s.
const CAPSULE_ID: u64 = 3 << 20;
const BALL_BOX_ID: u64 = 4 << 20;
/// Seed ids of the mixed pairs a game or robot scene is made of (no target: context rows).
const CAPSULE_BOX_ID: u64 = 5 << 20;
const BALL_HULL_ID: u64 = 6 << 20;
const CAPSULE_HULL_ID: u64 = 7 << 20;
/// Pairs whose Minkowski supports are timed, and calls per pair (as GJK makes on one pair).
const SUPPORT_PAIRS: usize = 4096;
const CALLS_PER_PAIR: usize = 5;
/// Warm-started EPA: trajectories per set and steps per trajectory.
const TRAJECTORIES: usize = 8;
const STEPS: usize = 1000;

/// Settings of one run.
struct Cfg {
    pairs: usize,
    rounds: usize,
    chunk: usize,
    /// When the run started, and the load averages then.
    started: String,
    load_start: String,
}

/// One set: our shapes for A and B, parry's, and the pose pairs.
struct Case<'a, A, B> {
    name: &'static str,
    a: &'a [A],
    b: &'a [B],
    pa: &'a [PShape],
    pb: &'a [PShape],
    pairs: Pairs,
    /// The data set's kind, for the warm-EPA trajectories (None: no trajectories).
    kind: Option<Kind>,
}

/// One timed query of one set.
#[derive(Clone, Copy, Default)]
struct Timing {
    pairs: usize,
    parry_ns: f64,
    ours_ns: f64,
    /// Median over rounds of parry's time ÷ ours.
    ratio: f64,
}

/// Everything measured on one set.
#[derive(Default)]
struct Row {
    name: &'static str,
    distance: Timing,
    boolean: Timing,
    epa: Option<Timing>,
    support_ns: f64,
    iters_distance: f64,
    iters_boolean: f64,
    overlap: f64,
    max_diff_distance: f64,
    boolean_mismatches: usize,
    boolean_undetermined: usize,
    warm: Option<Warm>,
    batch: Option<BatchRow>,
}

/// Cold `epa::penetration` against `penetration_cached` on the overlapping steps of coherent
/// trajectories.
#[derive(Clone, Copy, Default)]
struct Warm {
    steps: usize,
    cold_ns: f64,
    warm_ns: f64,
    /// Median over rounds of cold time ÷ warm time.
    ratio: f64,
}

/// The batch API against a parry per-pair loop on the set's pairs.
#[derive(Clone, Copy, Default)]
struct BatchRow {
    pairs: usize,
    lane_rows: usize,
    parry_ns: f64,
    one_ns: f64,
    all_ns: f64,
    /// Medians over rounds of parry ÷ single-core, parry ÷ all-core, single ÷ all-core.
    parry_over_one: f64,
    parry_over_all: f64,
    one_over_all: f64,
}

#[derive(Clone, Copy, PartialEq)]
enum Q {
    Distance,
    Boolean,
    Penetration,
}

impl<A: SupportMap<DVec3>, B: SupportMap<DVec3>> Case<'_, A, B> {
    fn ours(&self, pairs: &Pairs, q: Q, k: usize, ctx: &mut epa::Context<DVec3>) -> f64 {
        let (ia, ib) = pairs.idx[k];
        let (a, b) = (&self.a[ia as usize], &self.b[ib as usize]);
        let (pa, pb) = &pairs.ours[k];
        match q {
            Q::Distance => gjk::distance(a, pa, b, pb, &gjk::Options::default(), None).distance,
            Q::Boolean => {
                let r = gjk::intersects(a, pa, b, pb, &gjk::Options::default(), None);
                checksum_of(r.intersecting() == Some(true))
            }
            Q::Penetration => epa::penetration(a, pa, b, pb, &epa::Options::default(), ctx).depth,
        }
    }

    fn parry(&self, pairs: &Pairs, q: Q, k: usize) -> f64 {
        use parry3d_f64::query;
        let (ia, ib) = pairs.idx[k];
        let (a, b) = (&*self.pa[ia as usize], &*self.pb[ib as usize]);
        let (pa, pb) = &pairs.parry64[k];
        // parry answers every pair of these shape types; a NaN keeps a failure visible.
        match q {
            Q::Distance => query::distance(pa, a, pb, b).map_or(f64::NAN, |d| d.distance),
            Q::Boolean => query::intersection_test(pa, a, pb, b)
                .map_or(f64::NAN, |r| checksum_of(r.intersecting)),
            Q::Penetration => {
                query::contact(pa, a, pb, b, 0.0).map_or(f64::NAN, |c| c.map_or(0.0, |c| c.dist))
            }
        }
    }

    /// parry then ours on the same chunk, `cfg.rounds` rounds.
    fn time(&self, pairs: &Pairs, q: Q, cfg: &Cfg) -> Timing {
        let n = pairs.len();
        let chunk = if cfg.chunk == 0 { n } else { cfg.chunk.min(n) };
        let mut ctx = epa::Context::new();
        let mut comps: Vec<Competitor<'_>> = vec![
            ("parry3d-f64", Box::new(|k| self.parry(pairs, q, k))),
            ("convexity", Box::new(|k| self.ours(pairs, q, k, &mut ctx))),
        ];
        let r = interleave(n, chunk, Stop::rounds(cfg.rounds), false, &mut comps);
        Timing {
            pairs: n,
            parry_ns: r.ns[0],
            ours_ns: r.ns[1],
            // ratio[1] is the median of t_ours / t_parry; its reciprocal is the median of
            // t_parry / t_ours (exactly so for an odd number of rounds).
            ratio: 1.0 / r.ratio[1],
        }
    }

    /// ns per `MinkowskiDifference::support` call on this set.
    fn support_ns(&self, cfg: &Cfg) -> f64 {
        let n = self.pairs.len().min(SUPPORT_PAIRS);
        let minks: Vec<_> = (0..n)
            .map(|k| {
                let (ia, ib) = self.pairs.idx[k];
                let (pa, pb) = &self.pairs.ours[k];
                MinkowskiDifference::new(&self.a[ia as usize], pa, &self.b[ib as usize], pb)
            })
            .collect();
        let dirs = directions(1021, 0x5EED_D1C5);
        let calls = n * CALLS_PER_PAIR;
        let mut comps: Vec<Competitor<'_>> = vec![(
            "support",
            Box::new(|k| minks[k / CALLS_PER_PAIR].support(dirs[k % dirs.len()]).w.x),
        )];
        interleave(calls, calls, Stop::rounds(cfg.rounds), false, &mut comps).ns[0]
    }

    fn measure(&self, cfg: &Cfg) -> Row {
        let t0 = std::time::Instant::now();
        let mut row = Row {
            name: self.name,
            ..Row::default()
        };
        let opts = gjk::Options::default();
        let (mut it_d, mut it_b) = (0u64, 0u64);
        let mut over = Vec::new();
        let n = self.pairs.len();
        for k in 0..n {
            let (ia, ib) = self.pairs.idx[k];
            let (a, b) = (&self.a[ia as usize], &self.b[ib as usize]);
            let (pa, pb) = &self.pairs.ours[k];
            let d = gjk::distance(a, pa, b, pb, &opts, None);
            let i = gjk::intersects(a, pa, b, pb, &opts, None);
            it_d += d.iterations as u64;
            it_b += i.iterations as u64;
            let dp = self.parry(&self.pairs, Q::Distance, k);
            row.max_diff_distance = row.max_diff_distance.max((d.distance - dp).abs());
            let bp = self.parry(&self.pairs, Q::Boolean, k) == 1.0;
            match i.intersecting() {
                Some(v) => {
                    row.boolean_mismatches += (v != bp) as usize;
                    if v {
                        over.push(k);
                    }
                }
                None => row.boolean_undetermined += 1,
            }
        }
        row.iters_distance = it_d as f64 / n.max(1) as f64;
        row.iters_boolean = it_b as f64 / n.max(1) as f64;
        row.overlap = over.len() as f64 / n.max(1) as f64;
        eprintln!(
            "[{}] untimed pass {:.1} s: overlap {:.3}, iterations {:.2} / {:.2}",
            self.name,
            t0.elapsed().as_secs_f64(),
            row.overlap,
            row.iters_distance,
            row.iters_boolean
        );
        row.distance = self.time(&self.pairs, Q::Distance, cfg);
        row.boolean = self.time(&self.pairs, Q::Boolean, cfg);
        let overlapping = self.pairs.subset(&over);
        if !overlapping.is_empty() {
            row.epa = Some(self.time(&overlapping, Q::Penetration, cfg));
        }
        row.support_ns = self.support_ns(cfg);
        eprintln!(
            "[{}] {:.1} s: distance {:.0}/{:.0} ns ({:.2}×), boolean {:.0}/{:.0} ns ({:.2}×), \
             support {:.1} ns",
            self.name,
            t0.elapsed().as_secs_f64(),
            row.distance.parry_ns,
            row.distance.ours_ns,
            row.distance.ratio,
            row.boolean.parry_ns,
            row.boolean.ours_ns,
            row.boolean.ratio,
            row.support_ns
        );
        if let Some(kind) = self.kind {
            row.warm = self.warm(kind, cfg);
            if let Some(w) = row.warm {
                eprintln!(
                    "[{}] warm EPA: {} steps, cold {:.0} ns, warm {:.0} ns ({:.2}×)",
                    self.name, w.steps, w.cold_ns, w.warm_ns, w.ratio
                );
            }
        }
        row
    }

    /// Cold EPA vs warm-started EPA on the overlapping steps of `TRAJECTORIES` trajectories
    /// of `STEPS` steps (steps in order, one cache per trajectory), interleaved.
    fn warm(&self, kind: Kind, cfg: &Cfg) -> Option<Warm> {
        let gopts = gjk::Options::default();
        // Overlapping steps, trajectory-major and in step order.
        let mut steps: Vec<(usize, (u32, u32), Pose3, Pose3)> = Vec::new();
        for (t, tr) in trajectories(kind, TRAJECTORIES, STEPS)
            .into_iter()
            .enumerate()
        {
            let (a, b) = (&self.a[tr.idx.0 as usize], &self.b[tr.idx.1 as usize]);
            for (pa, pb) in tr.poses {
                if gjk::intersects(a, &pa, b, &pb, &gopts, None).intersecting() == Some(true) {
                    steps.push((t, tr.idx, pa, pb));
                }
            }
        }
        if steps.is_empty() {
            return None;
        }
        let opts = epa::Options::default();
        let mut ctx_cold = epa::Context::new();
        let mut ctx_warm = epa::Context::new();
        let mut caches: Vec<epa::EpaCache<DVec3>> =
            (0..TRAJECTORIES).map(|_| epa::EpaCache::new()).collect();
        let n = steps.len();
        let st = &steps;
        let mut comps: Vec<Competitor<'_>> = vec![
            (
                "cold",
                Box::new(|k| {
                    let (_, (ia, ib), pa, pb) = &st[k];
                    let (a, b) = (&self.a[*ia as usize], &self.b[*ib as usize]);
                    epa::penetration(a, pa, b, pb, &opts, &mut ctx_cold).depth
                }),
            ),
            (
                "warm",
                Box::new(|k| {
                    let (t, (ia, ib), pa, pb) = &st[k];
                    let (a, b) = (&self.a[*ia as usize], &self.b[*ib as usize]);
                    epa::penetration_cached(a, pa, b, pb, &opts, &mut ctx_warm, &mut caches[*t])
                        .depth
                }),
            ),
        ];
        let r = interleave(n, n, Stop::rounds(cfg.rounds), false, &mut comps);
        Some(Warm {
            steps: n,
            cold_ns: r.ns[0],
            warm_ns: r.ns[1],
            // ratio[1] is the median of t_warm / t_cold.
            ratio: 1.0 / r.ratio[1],
        })
    }
}

/// `batch::distance` over every pair of the set (a `Shape3` table), single-core
/// (`parallel: false`) and all-core, against `parry3d_f64::query::distance` per pair;
/// `cfg.rounds` rounds of parry, single-core, all-core back to back (one untimed warm-up).
fn batch_row<S>(set: &DataSet<S>, table: &[Shape3], cfg: &Cfg) -> BatchRow {
    let pairs: Vec<Pair3> = set
        .pairs
        .idx
        .iter()
        .zip(set.pairs.ours.iter())
        .map(|(&(a, b), (pa, pb))| Pair3 {
            a: a as usize,
            pose_a: raw_pose(pa),
            b: b as usize,
            pose_b: raw_pose(pb),
        })
        .collect();
    let n = pairs.len();
    let mut out = BatchDistanceBuffers::new(n);
    let one = BatchOptions {
        parallel: false,
        ..BatchOptions::default()
    };
    let all = BatchOptions::default();
    let parry = || {
        let mut acc = 0.0;
        for (&(ia, ib), (pa, pb)) in set.pairs.idx.iter().zip(set.pairs.parry64.iter()) {
            let (a, b) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
            acc += parry3d_f64::query::distance(pa, a, pb, b).map_or(f64::NAN, |d| d.distance);
        }
        black_box(acc)
    };
    let mut run = |o: &BatchOptions| {
        let r = batch::distance(table, &pairs, o, out.out());
        black_box(r.map_or(0, |r| r.lane_rows))
    };
    let lane_rows = run(&one);
    run(&all);
    parry();
    let (mut tp, mut t1, mut ta) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..cfg.rounds {
        let c = std::time::Instant::now();
        parry();
        tp.push(c.elapsed().as_secs_f64() * 1e9 / n as f64);
        let c = std::time::Instant::now();
        run(&one);
        t1.push(c.elapsed().as_secs_f64() * 1e9 / n as f64);
        let c = std::time::Instant::now();
        run(&all);
        ta.push(c.elapsed().as_secs_f64() * 1e9 / n as f64);
    }
    let ratio = |x: &[f64], y: &[f64]| {
        let mut r: Vec<f64> = x.iter().zip(y).map(|(a, b)| a / b).collect();
        median(&mut r)
    };
    let row = BatchRow {
        pairs: n,
        lane_rows,
        parry_over_one: ratio(&tp, &t1),
        parry_over_all: ratio(&tp, &ta),
        one_over_all: ratio(&t1, &ta),
        parry_ns: median(&mut tp),
        one_ns: median(&mut t1),
        all_ns: median(&mut ta),
    };
    eprintln!(
        "[{}] batch: parry {:.0} ns, 1 core {:.0} ns ({:.2}×), all cores {:.0} ns ({:.2}×), \
         all ÷ 1 core throughput {:.2}×",
        set.name(),
        row.parry_ns,
        row.one_ns,
        row.parry_over_one,
        row.all_ns,
        row.parry_over_all,
        row.one_over_all
    );
    row
}

/// 64 capsules along local y: segment half-length in [0.3, 1], radius in [0.2, 0.6].
fn capsules() -> (Vec<Capsule<DVec3>>, Vec<PShape>) {
    let mut ours = Vec::with_capacity(SHAPES);
    let mut parry: Vec<PShape> = Vec::with_capacity(SHAPES);
    for i in 0..SHAPES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed_for_id(CAPSULE_ID, 1, i as u64, 0));
        let h: f64 = rng.gen_range(0.3..=1.0);
        let r: f64 = rng.gen_range(0.2..=0.6);
        let (p, q) = (DVec3::new(0.0, -h, 0.0), DVec3::new(0.0, h, 0.0));
        ours.push(Capsule::new(p, q, r).expect("valid capsule"));
        parry.push(Box::new(parry3d_f64::shape::Capsule::new_y(h, r)));
    }
    (ours, parry)
}

/// The offset scale `s` giving about half overlapping pairs for shapes `a` × `b` under the
/// pose stream `id` (bisection of the touching distance along each pair's offset direction,
/// then `E[min(1, r*/s)³] = 1/2` solved for `s`; see `src/bin/calibrate.rs`).
fn calibrate<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(id: u64, a: &[A], b: &[B]) -> f64 {
    let opts = gjk::Options::default();
    let probe = pose_pairs(id, 1.0, 2000);
    let touching: Vec<f64> = (0..probe.len())
        .map(|k| {
            let (ia, ib) = probe.idx[k];
            let (sa, sb) = (&a[ia as usize], &b[ib as usize]);
            let (pa, pb) = probe.ours[k];
            let dir = (pb.translation() - pa.translation()).normalize_or(DVec3::X);
            let hit = |r: f64| {
                Pose3::new(pa.translation() + dir * r, pb.rotation()).is_ok_and(|pbr| {
                    gjk::intersects(sa, &pa, sb, &pbr, &opts, None).intersecting() == Some(true)
                })
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
        .collect();
    let frac = |s: f64| {
        touching
            .iter()
            .map(|x| (x / s).min(1.0).powi(3))
            .sum::<f64>()
            / touching.len() as f64
    };
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

fn polyhedra(points: &[convexity::Points<DVec3>]) -> Vec<ConvexPolyhedron> {
    points
        .iter()
        .map(|p| ConvexPolyhedron::from_points(p.points()).expect("hull of sphere points"))
        .collect()
}

fn run_sets(cfg: &Cfg, wanted: &dyn Fn(&str) -> bool) -> (Vec<Row>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for n in [8usize, 32, 128, 1024] {
        let name: &'static str = match n {
            8 => "hull8",
            32 => "hull32",
            128 => "hull128",
            _ => "hull1024",
        };
        if !wanted(name) {
            continue;
        }
        let set = hull_set_with_pairs(n, cfg.pairs);
        if n <= 32 {
            let c = Case {
                name,
                a: &set.shapes,
                b: &set.shapes,
                pa: &set.parry64,
                pb: &set.parry64,
                pairs: set.pairs.clone(),
                kind: Some(Kind::Hull(n)),
            };
            let mut row = c.measure(cfg);
            if n == 8 {
                let table: Vec<Shape3> = set.shapes.iter().cloned().map(Shape3::Points).collect();
                row.batch = Some(batch_row(&set, &table, cfg));
            }
            rows.push(row);
        } else {
            let polys = polyhedra(&set.shapes);
            let c = Case {
                name,
                a: &polys,
                b: &polys,
                pa: &set.parry64,
                pb: &set.parry64,
                pairs: set.pairs.clone(),
                kind: Some(Kind::Hull(n)),
            };
            rows.push(c.measure(cfg));
        }
    }
    let boxes = box_set_with_pairs(cfg.pairs);
    let balls = sphere_set_with_pairs(cfg.pairs);
    if wanted("box") {
        let c = Case {
            name: "box",
            a: &boxes.shapes,
            b: &boxes.shapes,
            pa: &boxes.parry64,
            pb: &boxes.parry64,
            pairs: boxes.pairs.clone(),
            kind: Some(Kind::Box),
        };
        let mut row = c.measure(cfg);
        let table: Vec<Shape3> = boxes.shapes.iter().map(|s| Shape3::Cuboid(*s)).collect();
        row.batch = Some(batch_row(&boxes, &table, cfg));
        rows.push(row);
    }
    if wanted("sphere") {
        let c = Case {
            name: "sphere",
            a: &balls.shapes,
            b: &balls.shapes,
            pa: &balls.parry64,
            pb: &balls.parry64,
            pairs: balls.pairs.clone(),
            kind: Some(Kind::Sphere),
        };
        rows.push(c.measure(cfg));
    }
    // The pairs outside the data sets: two shape lists, calibrated offsets, no trajectories.
    let (caps, pcaps) = capsules();
    let hulls = hull_set_with_pairs(8, 1);
    let caps = (&caps[..], &pcaps[..]);
    let balls = (&balls.shapes[..], &balls.parry64[..]);
    let boxes = (&boxes.shapes[..], &boxes.parry64[..]);
    let hulls = (&hulls.shapes[..], &hulls.parry64[..]);
    if wanted("capsule") {
        rows.push(calibrated(
            "capsule", caps, caps, CAPSULE_ID, cfg, &mut notes,
        ));
    }
    if wanted("sphere-box") {
        rows.push(calibrated(
            "sphere-box",
            balls,
            boxes,
            BALL_BOX_ID,
            cfg,
            &mut notes,
        ));
    }
    if wanted("capsule-box") {
        rows.push(calibrated(
            "capsule-box",
            caps,
            boxes,
            CAPSULE_BOX_ID,
            cfg,
            &mut notes,
        ));
    }
    if wanted("sphere-hull8") {
        rows.push(calibrated(
            "sphere-hull8",
            balls,
            hulls,
            BALL_HULL_ID,
            cfg,
            &mut notes,
        ));
    }
    if wanted("capsule-hull8") {
        rows.push(calibrated(
            "capsule-hull8",
            caps,
            hulls,
            CAPSULE_HULL_ID,
            cfg,
            &mut notes,
        ));
    }
    (rows, notes)
}

/// A row of a pair outside the data sets (A from one shape list, B from another): the offset
/// scale calibrated for half the pairs overlapping (and noted), pose stream `id`, no
/// trajectories.
fn calibrated<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(
    name: &'static str,
    (a, pa): (&[A], &[PShape]),
    (b, pb): (&[B], &[PShape]),
    id: u64,
    cfg: &Cfg,
    notes: &mut Vec<String>,
) -> Row {
    let s = calibrate(id, a, b);
    notes.push(format!("{name} offset scale {s:.3} (calibrated)"));
    Case {
        name,
        a,
        b,
        pa,
        pb,
        pairs: pose_pairs(id, s, cfg.pairs),
        kind: None,
    }
    .measure(cfg)
}

/// The target for a query on a set: parry ÷ ours at least this.
fn target(q: Q, set: &str) -> Option<f64> {
    match (q, set) {
        (Q::Distance | Q::Boolean, "hull8" | "hull32" | "hull128" | "box") => Some(2.0),
        (Q::Distance | Q::Boolean, "hull1024") => Some(5.0),
        (Q::Distance | Q::Boolean, "sphere" | "capsule") => Some(1.5),
        (Q::Penetration, "hull8" | "hull32" | "hull128" | "box") => Some(3.0),
        _ => None,
    }
}

fn ns(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.1} µs", v / 1000.0)
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn met(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "**missed**"
    }
}

fn git(args: &[&str]) -> Option<String> {
    let o = std::process::Command::new("git").args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The load averages of `uptime` (the part after "load average:").
fn load() -> String {
    std::process::Command::new("uptime")
        .output()
        .ok()
        .map(|o| {
            let t = String::from_utf8_lossy(&o.stdout).trim().to_string();
            t.split("load average:")
                .nth(1)
                .map_or(t.clone(), |x| x.trim().to_string())
        })
        .unwrap_or_else(|| "(unknown)".into())
}

fn now_utc() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "(unknown)".into())
}

fn query_table(s: &mut String, rows: &[Row], q: Q, title: &str) {
    let _ = writeln!(s, "### {title}\n");
    let _ = writeln!(
        s,
        "| set | pairs timed | parry3d-f64 ns/query | convexity ns/query | parry ÷ ours | \
         target | status |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---|---|");
    for r in rows {
        let t = match q {
            Q::Distance => Some(r.distance),
            Q::Boolean => Some(r.boolean),
            Q::Penetration => r.epa,
        };
        let Some(t) = t else {
            let _ = writeln!(
                s,
                "| {} | 0 | — | — | — | — | no overlapping pair |",
                r.name
            );
            continue;
        };
        let (goal, status) = match target(q, r.name) {
            Some(g) => (format!("≥ {g}×"), met(t.ratio >= g).to_string()),
            None => ("—".into(), "no target".into()),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.2}× | {goal} | {status} |",
            r.name,
            t.pairs,
            ns(t.parry_ns),
            ns(t.ours_ns),
            t.ratio
        );
    }
    s.push('\n');
}

/// Title, provenance, method, sets and peers.
fn header(s: &mut String, notes: &[String], cfg: &Cfg, command: &str) {
    let commit = {
        let head = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
        let dirty = git(&["status", "--porcelain", "--", "crates/convexity"])
            .is_some_and(|x| !x.is_empty());
        let branch = git(&["rev-parse", "--abbrev-ref", "HEAD"]).unwrap_or_default();
        let dirty = if dirty {
            " + uncommitted changes in crates/convexity"
        } else {
            ""
        };
        format!("{head}{dirty} (branch {branch})")
    };
    let _ = writeln!(s, "# Speed: convexity vs parry3d-f64, user-level calls\n");
    let _ = writeln!(
        s,
        "Generated by `crates/convexity-bench/src/bin/speed.rs`. Each query is the call a user \
         makes with two world poses: `gjk::distance` / `parry3d_f64::query::distance`, \
         `gjk::intersects` / `query::intersection_test`, `epa::penetration` / \
         `query::contact(.., prediction 0)` (EPA on the pairs our GJK proves overlapping). \
         Same 64 shapes and the same {} seeded pose pairs per set for both libraries, random \
         rotations, about half of the pairs overlapping. Timed interleaved in one process: a \
         chunk of pairs with parry, then the same chunk with ours, {} rounds; ns per query = \
         median over rounds; ratio = median over rounds of parry's time ÷ ours (above 1: \
         convexity faster). Each answer is kept as a number, a boolean one through \
         `black_box` as 0/1 for both libraries (`convexity_bench::checksum_of`). Chunk: {}.\n",
        cfg.pairs,
        cfg.rounds,
        if cfg.chunk == 0 {
            "every pair of the set".to_string()
        } else {
            format!("{} pairs", cfg.chunk)
        }
    );
    let _ = writeln!(
        s,
        "**Code measured:** the merged state of the team's issue-10 work, as merged to main \
         (GJK hot path; closed forms for primitive pairs dispatched inside `gjk::distance` / \
         `gjk::intersects` / `epa::penetration`; warm-started EPA \
         `epa::penetration_cached`; the batch API `convexity::batch`), at the commit below. \
         The machine is shared (2 cores, other jobs running): the load averages at the start \
         and end of the run are given below; absolute ns move with the load, the interleaved \
         ratios much less.\n"
    );
    let _ = writeln!(s, "* Machine: {}", machine());
    let _ = writeln!(s, "* Date: {} (run started {})", now_utc(), cfg.started);
    let _ = writeln!(
        s,
        "* Load (`uptime` load averages 1/5/15 min): at start {}; at end {}",
        cfg.load_start,
        load()
    );
    let _ = writeln!(s, "* Library measured: {commit}");
    let _ = writeln!(s, "* Command: `{command}`");
    let _ = writeln!(
        s,
        "* Sets: hull8, hull32 = `Points` (support by scanning the points); hull128, hull1024 = \
         `ConvexPolyhedron::from_points` built once (hill-climbing support); parry: \
         `ConvexPolyhedron::from_convex_hull` of the same points. box: half extents in \
         [0.3, 1]; sphere: radius in [0.3, 1] (ball–ball); capsule: capsule–capsule, segment \
         half-length in [0.3, 1], radius in [0.2, 0.6]; sphere-box: A from the sphere set, B \
         from the box set; capsule-box, sphere-hull8, capsule-hull8: the mixed pairs of a \
         game or robot scene (A from the capsule or sphere set, B from the box or hull8 set; \
         GJK / EPA for us, no target).{}",
        if notes.is_empty() {
            String::new()
        } else {
            format!(" {}.", notes.join("; "))
        }
    );
    let _ = writeln!(
        s,
        "* Peers: parry3d-f64 0.31 is measured in this run. coal is not run here: its figures \
         come only from an earlier run, as context (coal box distance was 873 ns per query on \
         this machine class).\n"
    );
}

/// The table: parry ns / ours ns (ratio) per set and query.
fn summary(s: &mut String, rows: &[Row]) {
    let _ = writeln!(s, "## Summary: parry ns / ours ns (parry ÷ ours)\n");
    let _ = writeln!(
        s,
        "| set | distance | boolean | EPA (overlapping pairs) | overlap fraction |"
    );
    let _ = writeln!(s, "|---|---|---|---|---:|");
    let cell = |t: Timing| format!("{} / {} ({:.2}×)", ns(t.parry_ns), ns(t.ours_ns), t.ratio);
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.3} |",
            r.name,
            cell(r.distance),
            cell(r.boolean),
            r.epa.map_or("—".into(), cell),
            r.overlap
        );
    }
    s.push('\n');
}

/// Each query against its target, and the warm-EPA row.
fn targets(s: &mut String, rows: &[Row]) {
    let _ = writeln!(s, "## Against the targets of issue 10\n");
    query_table(s, rows, Q::Distance, "Distance");
    query_table(s, rows, Q::Boolean, "Boolean");
    query_table(s, rows, Q::Penetration, "EPA (cold), overlapping pairs");

    let _ = writeln!(s, "### Warm-started EPA on a coherent trajectory\n");
    let _ = writeln!(
        s,
        "Per set, {TRAJECTORIES} closed trajectories of {STEPS} steps \
         (`convexity_bench::trajectories`: B orbits A, alternately overlapping and separated); \
         timed on the steps our GJK proves overlapping, trajectory after trajectory, steps in \
         order. Cold = `epa::penetration`; warm = `epa::penetration_cached` with one \
         `EpaCache` per trajectory, carried from step to step (and from the last step of a \
         round to the first of the next: the trajectories are periodic). Interleaved: all \
         steps cold, then all steps warm, per round; ratio = median over rounds of cold ÷ \
         warm. Sets without trajectories (capsule, sphere-box and the other mixed pairs) have no \
         row. As documented on \
         `EpaCache`, the warm path re-uses GJK's last simplex and (3D) the previous query's \
         EPA polytope, re-placed under the new pose and re-checked; box and sphere pairs are \
         answered by closed forms, so warm starting cannot help them (ratio ≈ 1).\n"
    );
    let _ = writeln!(
        s,
        "| set | overlapping steps timed | cold EPA ns/step | warm EPA ns/step | cold ÷ warm | \
         target | status |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---|---|");
    for r in rows {
        let Some(w) = r.warm else { continue };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {:.2}× | ≥ 5× | {} |",
            r.name,
            w.steps,
            ns(w.cold_ns),
            ns(w.warm_ns),
            w.ratio,
            warm_status(r.name, w.ratio)
        );
    }
    s.push('\n');
}

/// The warm-EPA row's status: box and ball pairs are answered by closed forms, cold or warm,
/// so no EPA runs that a warm start could shorten (the target is about EPA).
fn warm_status(set: &str, ratio: f64) -> &'static str {
    if matches!(set, "sphere" | "box") {
        "n/a: closed form, no EPA run"
    } else {
        met(ratio >= 5.0)
    }
}

/// The floor row's status: a query that the library answers in closed form runs no GJK
/// (its "iterations" are the closed form's 1), so the GJK floor does not apply to it.
fn floor_status(set: &str, ratio: f64) -> &'static str {
    let closed = matches!(set, "sphere" | "capsule" | "sphere-box" | "box");
    if closed {
        "n/a: closed form, no GJK run"
    } else if target(Q::Distance, set).is_none() {
        // The mixed pairs: context rows, as in the other tables.
        "no target"
    } else {
        met(ratio <= 2.0)
    }
}

/// GJK time ÷ (iterations × support time).
fn floor(s: &mut String, rows: &[Row], cfg: &Cfg) {
    let _ = writeln!(s, "### GJK against its floor\n");
    let _ = writeln!(
        s,
        "Floor = average GJK iterations (one `MinkowskiDifference::support` call each) × the \
         time of one support call on the set (5 calls on each of the first {SUPPORT_PAIRS} \
         pairs, random unit directions, median of {} rounds). `÷ floor` = our query time ÷ \
         floor; target: within 2× (≤ 2). Queries answered in closed form (ball and capsule \
         pairs, box–box distance and boolean) run no GJK; their rows say so.\n",
        cfg.rounds
    );
    let _ = writeln!(
        s,
        "| set | support ns/call | distance: iterations | floor ns | ours ns | ÷ floor | status \
         | boolean: iterations | floor ns | ours ns | ÷ floor | status |"
    );
    let _ = writeln!(
        s,
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|"
    );
    for r in rows {
        let fd = r.iters_distance * r.support_ns;
        let fb = r.iters_boolean * r.support_ns;
        let (xd, xb) = (r.distance.ours_ns / fd, r.boolean.ours_ns / fb);
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {} | {} | {:.2}× | {} | {:.2} | {} | {} | {:.2}× | {} |",
            r.name,
            ns(r.support_ns),
            r.iters_distance,
            ns(fd),
            ns(r.distance.ours_ns),
            xd,
            floor_status(r.name, xd),
            r.iters_boolean,
            ns(fb),
            ns(r.boolean.ours_ns),
            xb,
            floor_status(r.name, xb)
        );
    }
    s.push('\n');
}

/// The batch rows and the untimed agreement.
fn batch_and_agreement(s: &mut String, rows: &[Row]) {
    let _ = writeln!(s, "## Batch API\n");
    let _ = writeln!(
        s,
        "`convexity::batch::distance` over every pair of the set (the same seeded pairs as \
         the rows above; shapes as a `Shape3` table, poses as raw `[f64; 7]`, caller-provided \
         output slices), single-core (`BatchOptions {{ parallel: false, .. }}`: lane paths \
         with scalar fallback — GJK lanes for hull8 (lane kernel chosen at run time on this \
         machine: `{:?}`), the box–box closed form in lanes for box, whose `rows through the \
         lanes` count the rows whose set-up and 15-axis scan ran in lanes, a scalar \
         common-point search after it included) and all-core (default options: rayon over \
         every core), against \
         `parry3d_f64::query::distance` in a per-pair loop. Per round: the parry loop, the \
         single-core call, the all-core call, back to back; ns per query = median over \
         rounds; ratios = medians over rounds of the per-round ratios. Targets: ≥ 4× parry \
         on one core; all-core throughput ≥ 1.8× single-core. The all-core figure needs \
         idle cores: on this shared machine it depends on the other jobs' load (header).\n",
        convexity::batch::lanes::Kernel::best()
    );
    let _ = writeln!(
        s,
        "| set | pairs | rows through the lanes | parry3d-f64 ns/query | batch 1 core ns/query | \
         parry ÷ 1 core | status (≥ 4×) | batch all cores ns/query | parry ÷ all cores | \
         all ÷ 1 core throughput | status (≥ 1.8×) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|");
    for r in rows {
        let Some(b) = r.batch else { continue };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.2}× | {} | {} | {:.2}× | {:.2}× | {} |",
            r.name,
            b.pairs,
            b.lane_rows,
            ns(b.parry_ns),
            ns(b.one_ns),
            b.parry_over_one,
            met(b.parry_over_one >= 4.0),
            ns(b.all_ns),
            b.parry_over_all,
            b.one_over_all,
            met(b.one_over_all >= 1.8)
        );
    }
    s.push('\n');

    let _ = writeln!(s, "## Agreement (untimed, every pair)\n");
    let _ = writeln!(
        s,
        "| set | pairs | max \\|Δdistance\\| vs parry3d-f64 | boolean mismatches | our boolean \
         undetermined |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {:.1e} | {} | {} |",
            r.name,
            r.distance.pairs,
            r.max_diff_distance,
            r.boolean_mismatches,
            r.boolean_undetermined
        );
    }
    s.push('\n');
}

fn report(rows: &[Row], notes: &[String], cfg: &Cfg, command: &str) -> String {
    let mut s = String::new();
    header(&mut s, notes, cfg, command);
    summary(&mut s, rows);
    targets(&mut s, rows);
    floor(&mut s, rows, cfg);
    batch_and_agreement(&mut s, rows);
    s
}

fn main() {
    let a = Args::parse(
        USAGE,
        &["pairs", "rounds", "chunk", "sets", "out", "command"],
    );
    let cfg = Cfg {
        pairs: a.num("pairs", 20_000usize).max(1),
        rounds: a.num("rounds", 15usize).max(1),
        chunk: a.num("chunk", 0usize),
        started: now_utc(),
        load_start: load(),
    };
    let sets: Option<Vec<String>> = a
        .get("sets")
        .map(|v| v.split(',').map(|x| x.trim().to_string()).collect());
    const SETS: [&str; 11] = [
        "hull8",
        "hull32",
        "hull128",
        "hull1024",
        "box",
        "sphere",
        "capsule",
        "sphere-box",
        "capsule-box",
        "sphere-hull8",
        "capsule-hull8",
    ];
    if let Some(bad) = sets.iter().flatten().find(|x| !SETS.contains(&x.as_str())) {
        eprintln!(
            "error: --sets: unknown set {bad} (known: {})\n\n{USAGE}",
            SETS.join(", ")
        );
        std::process::exit(2);
    }
    let wanted = |name: &str| sets.as_ref().is_none_or(|v| v.iter().any(|x| x == name));
    let out = a.get("out").unwrap_or("bench-results/speed.md").to_string();
    let command = a.get("command").map_or_else(
        || {
            let args: Vec<String> = std::env::args().skip(1).collect();
            format!(
                "cargo run --release -p convexity-bench --bin speed --{}{}",
                if args.is_empty() { "" } else { " " },
                args.join(" ")
            )
        },
        str::to_string,
    );
    let t = std::time::Instant::now();
    let (rows, notes) = run_sets(&cfg, &wanted);
    let text = report(&rows, &notes, &cfg, &command);
    black_box(&rows);
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = std::fs::write(&out, &text) {
        eprintln!("error: writing {out}: {e}");
        std::process::exit(1);
    }
    println!("{text}");
    eprintln!("wrote {out} in {:.0} s", t.elapsed().as_secs_f64());
}
