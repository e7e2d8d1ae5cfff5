//! Warm start: convexity's distance and boolean queries on coherent trajectories, cold (no
//! cache) vs warm (one `gjk::Cache` per trajectory, carried from step to step), with
//! parry3d-f64 (cold; its public query API has no cache) for reference.
//!
//! Each set gets [`TRAJECTORIES`] closed trajectories of [`STEPS`] steps
//! ([`convexity_bench::trajectories`]: B orbits A, alternately overlapping and separated,
//! moving ~0.6 % of the set's scale and turning 0.0126 rad per step). An iteration runs
//! [`BATCH`] consecutive steps, cycling; a trajectory's steps are contiguous, so the warm cache
//! always holds the previous step's answer (the wrap from a trajectory's last step to its
//! first is smooth too).
//!
//! Benchmark ids: group `warm-<query>-<set>` (query = `distance`, `boolean`), functions
//! `cold`, `warm`, `parry3d-f64`. The average iterations cold and warm (untimed) are printed and
//! written to `bench-results/raw/gjk-warm-<set>.json`. After each group the same steps are also
//! timed interleaved (warm, cold and parry back to back on each chunk of 200 steps, order
//! rotating, for `BENCH_PAIRED_SECS` seconds, default 1.5; `convexity_bench::harness`); the
//! medians of the per-round ratios go to `bench-results/raw/gjk-warm-paired-<set>.json`.
//!
//! `BENCH_SETS=hull8,box` restricts the run to some sets.

mod common;

use common::{batched, selected};
use convexity::gjk::{self, Cache};
use convexity::{DVec3, Pose3, SupportMap};
use convexity_bench::harness::{interleave, Competitor, Stop};
use convexity_bench::{
    box_set_with_pairs, hull_set_with_pairs, sphere_set_with_pairs, to_parry64, trajectories,
    write_raw, DataSet, Kind,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const TRAJECTORIES: usize = 8;
const STEPS: usize = 1000;
const BATCH: usize = 1000;

struct Steps {
    traj: Vec<usize>,
    idx: Vec<(u32, u32)>,
    ours: Vec<(Pose3, Pose3)>,
    parry64: Vec<(parry3d_f64::math::Pose, parry3d_f64::math::Pose)>,
}

fn steps(kind: Kind) -> Steps {
    let mut s = Steps {
        traj: Vec::new(),
        idx: Vec::new(),
        ours: Vec::new(),
        parry64: Vec::new(),
    };
    for (t, tr) in trajectories(kind, TRAJECTORIES, STEPS)
        .into_iter()
        .enumerate()
    {
        for (pa, pb) in tr.poses {
            s.traj.push(t);
            s.idx.push(tr.idx);
            s.ours.push((pa, pb));
            s.parry64.push((to_parry64(&pa), to_parry64(&pb)));
        }
    }
    s
}

/// Average iterations over two passes of every trajectory (the second pass of the warm run
/// starts from a filled cache, as in the benchmark), cold and warm.
fn iterations<S: SupportMap<DVec3>>(set: &DataSet<S>, st: &Steps, boolean: bool) -> (f64, f64) {
    let opts = gjk::Options::default();
    let mut caches = vec![Cache::new(); TRAJECTORIES];
    let (mut cold, mut warm) = (0u64, 0u64);
    for _pass in 0..2 {
        for k in 0..st.ours.len() {
            let (ia, ib) = st.idx[k];
            let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
            let (pa, pb) = &st.ours[k];
            let cache = &mut caches[st.traj[k]];
            if boolean {
                cold += gjk::intersects(a, pa, b, pb, &opts, None).iterations as u64;
                warm += gjk::intersects(a, pa, b, pb, &opts, Some(cache)).iterations as u64;
            } else {
                cold += gjk::distance(a, pa, b, pb, &opts, None).iterations as u64;
                warm += gjk::distance(a, pa, b, pb, &opts, Some(cache)).iterations as u64;
            }
        }
    }
    let n = 2.0 * st.ours.len() as f64;
    (cold as f64 / n, warm as f64 / n)
}

fn bench_set<S: SupportMap<DVec3>>(c: &mut Criterion, set: &DataSet<S>) {
    let st = steps(set.kind);
    let n = st.ours.len();
    let (dc, dw) = iterations(set, &st, false);
    let (bc, bw) = iterations(set, &st, true);
    println!(
        "[{}] warm start, average iterations: distance cold {dc:.2} warm {dw:.2}; \
         boolean cold {bc:.2} warm {bw:.2}",
        set.name()
    );
    write_raw(
        &format!("gjk-warm-{}.json", set.name()),
        &serde_json::json!({
            "name": set.name(),
            "steps": n,
            "avg_iters_distance_cold": dc,
            "avg_iters_distance_warm": dw,
            "avg_iters_boolean_cold": bc,
            "avg_iters_boolean_warm": bw,
        }),
    );
    let opts = gjk::Options::default();
    let mut interleaved = serde_json::Map::new();
    for boolean in [false, true] {
        let q = if boolean { "boolean" } else { "distance" };
        let mut g = c.benchmark_group(format!("warm-{q}-{}", set.name()));
        g.throughput(Throughput::Elements(BATCH as u64));
        let run = |k: usize, cache: Option<&mut Cache<DVec3>>| {
            let (ia, ib) = st.idx[k];
            let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
            let (pa, pb) = &st.ours[k];
            if boolean {
                let r = gjk::intersects(a, pa, b, pb, &opts, cache);
                convexity_bench::checksum_of(r.intersecting() == Some(true))
            } else {
                gjk::distance(a, pa, b, pb, &opts, cache).distance
            }
        };
        g.bench_function("cold", |b| batched(b, n, BATCH, |k| run(k, None)));
        g.bench_function("warm", |b| {
            let mut caches = vec![Cache::new(); TRAJECTORIES];
            batched(b, n, BATCH, |k| run(k, Some(&mut caches[st.traj[k]])))
        });
        g.bench_function("parry3d-f64", |b| {
            use parry3d_f64::query;
            batched(b, n, BATCH, |k| {
                let (ia, ib) = st.idx[k];
                let (sa, sb) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
                let (pa, pb) = &st.parry64[k];
                if boolean {
                    convexity_bench::checksum_of(
                        query::intersection_test(pa, sa, pb, sb)
                            .unwrap()
                            .intersecting,
                    )
                } else {
                    query::distance(pa, sa, pb, sb).unwrap().distance
                }
            })
        });
        g.finish();

        // Interleaved: the same chunk of steps warm (the caches carry on from the previous
        // warm chunk, which ended on the step before), cold, then parry; per-round ratios to
        // warm, medians over rounds.
        let mut caches = vec![Cache::new(); TRAJECTORIES];
        let parry = |k: usize| {
            use parry3d_f64::query;
            let (ia, ib) = st.idx[k];
            let (sa, sb) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
            let (pa, pb) = &st.parry64[k];
            if boolean {
                convexity_bench::checksum_of(
                    query::intersection_test(pa, sa, pb, sb)
                        .unwrap()
                        .intersecting,
                )
            } else {
                query::distance(pa, sa, pb, sb).unwrap().distance
            }
        };
        let mut comps: Vec<Competitor<'_>> = vec![
            ("warm", Box::new(|k| run(k, Some(&mut caches[st.traj[k]])))),
            ("cold", Box::new(|k| run(k, None))),
            ("parry3d-f64", Box::new(parry)),
        ];
        let p = interleave(n, 200, Stop::bench_default(), true, &mut comps);
        let (rc, rp, tw) = (p.ratio[1], p.ratio[2], p.ns[0]);
        println!(
            "[{}] warm-{q} interleaved: median ratio cold/warm {rc:.2}, parry3d-f64/warm \
             {rp:.2}, warm {tw:.0} ns/query",
            set.name()
        );
        interleaved.insert(
            q.into(),
            serde_json::json!({"ratio_cold_warm": rc, "ratio_parry64_warm": rp, "ns_warm": tw}),
        );
    }
    write_raw(
        &format!("gjk-warm-paired-{}.json", set.name()),
        &serde_json::Value::Object(interleaved),
    );
}

fn benches(c: &mut Criterion) {
    for kind in Kind::ALL {
        if !selected(kind) {
            continue;
        }
        // Only the shapes are needed; one pair keeps the set small.
        match kind {
            Kind::Hull(n) => bench_set(c, &hull_set_with_pairs(n, 1)),
            Kind::Box => bench_set(c, &box_set_with_pairs(1)),
            Kind::Sphere => bench_set(c, &sphere_set_with_pairs(1)),
        }
    }
}

criterion_group! {
    name = warm_benches;
    config = common::config(2);
    targets = benches
}
criterion_main!(warm_benches);
