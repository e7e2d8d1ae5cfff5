//! Distance, boolean and penetration queries, convexity vs parry3d-f64 vs parry3d (f32), on
//! the same shapes and pose pairs (see the crate docs for the data sets).
//!
//! Benchmark ids: group `<query>-<set>` (query = `distance`, `boolean`, `penetration`), function
//! `convexity`, `parry3d-f64` or `parry3d-f32`. One iteration runs a batch of consecutive pairs
//! ([`BATCH`], or [`PEN_BATCH`] for penetration), cycling through the set, and the throughput is
//! the batch size, so `median / batch` is the time per query.
//!
//! * distance: `convexity::gjk::distance` (no cache) vs `parry::query::distance`, all pairs.
//! * boolean: `convexity::gjk::intersects` vs `parry::query::intersection_test`, all pairs.
//! * penetration: `convexity::gjk::epa::penetration` (one reused `Context`) vs
//!   `parry::query::contact(.., prediction 0)`, on the pairs our GJK proves overlapping.
//!
//! Before timing a set, every query is run once on every pair (untimed) to count the overlap
//! fraction and average iterations and to compare the answers with parry
//! ([`convexity_bench::stats`]); that is printed and written to
//! `bench-results/raw/gjk-stats-<set>.json` for the table generator.
//!
//! After each criterion group, the same pairs are also timed *interleaved*
//! ([`convexity_bench::paired`]: the three libraries back to back on the same chunk of pairs,
//! round after round, for `BENCH_PAIRED_SECS` seconds, default 1.5; median of the per-round
//! ratios). On a shared machine whose load drifts, that ratio is more trustworthy than the
//! ratio of two criterion medians measured seconds or minutes apart. Written to
//! `bench-results/raw/gjk-paired-<set>.json`.
//!
//! `BENCH_SETS=hull8,box` restricts the run to some sets (all by default).

mod common;

use common::{batched, selected};
use convexity::{gjk::epa, DVec3, SupportMap};
use convexity_bench::{
    box_set, harness, hull_set, overlapping, paired, run_ours, run_parry32, run_parry64,
    sphere_set, stats, write_raw, DataSet, Kind, Pairs, Query,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Pairs per iteration for distance and boolean queries.
const BATCH: usize = 1000;
/// Pairs per iteration for penetration queries (EPA is up to ~100× slower).
const PEN_BATCH: usize = 100;

fn query_group<S: SupportMap<DVec3>>(
    c: &mut Criterion,
    set: &DataSet<S>,
    query: Query,
    pairs: &Pairs,
    batch: usize,
) {
    let n = pairs.len();
    if n == 0 {
        return;
    }
    let mut g = c.benchmark_group(format!("{}-{}", query.name(), set.name()));
    g.throughput(Throughput::Elements(batch as u64));
    g.bench_function("convexity", |b| {
        let mut ctx = epa::Context::new();
        batched(b, n, batch, |k| run_ours(set, pairs, query, k, &mut ctx))
    });
    g.bench_function("parry3d-f64", |b| {
        batched(b, n, batch, |k| run_parry64(set, pairs, query, k))
    });
    g.bench_function("parry3d-f32", |b| {
        batched(b, n, batch, |k| run_parry32(set, pairs, query, k))
    });
    g.finish();
}

fn bench_set<S: SupportMap<DVec3>>(c: &mut Criterion, set: DataSet<S>) {
    let t = std::time::Instant::now();
    let st = stats(&set);
    println!(
        "[{}] untimed statistics ({:.1} s): {}",
        st.name,
        t.elapsed().as_secs_f64(),
        st.to_json()
    );
    write_raw(&format!("gjk-stats-{}.json", st.name), &st.to_json());

    let over = set.pairs.subset(&overlapping(&set));
    let mut interleaved = serde_json::Map::new();
    for query in Query::ALL {
        let (pairs, batch) = match query {
            Query::Penetration => (&over, PEN_BATCH),
            _ => (&set.pairs, BATCH),
        };
        query_group(c, &set, query, pairs, batch);
        if pairs.is_empty() {
            continue;
        }
        let p = paired(&set, pairs, query, batch / 5, harness::budget());
        println!(
            "[{}] {} interleaved: {} rounds, medians ns/query: convexity {:.0}, parry3d-f64 \
             {:.0}, parry3d-f32 {:.0}; median ratio parry3d-f64/convexity {:.2}",
            set.name(),
            query.name(),
            p.rounds,
            p.ns_ours,
            p.ns_parry64,
            p.ns_parry32,
            p.ratio_parry64
        );
        interleaved.insert(query.name().into(), p.to_json());
    }
    write_raw(
        &format!("gjk-paired-{}.json", set.name()),
        &serde_json::Value::Object(interleaved),
    );
}

fn benches(c: &mut Criterion) {
    for kind in Kind::ALL {
        if !selected(kind) {
            continue;
        }
        match kind {
            Kind::Hull(n) => bench_set(c, hull_set(n)),
            Kind::Box => bench_set(c, box_set()),
            Kind::Sphere => bench_set(c, sphere_set()),
        }
    }
}

criterion_group! {
    name = gjk_benches;
    config = common::config(3);
    targets = benches
}
criterion_main!(gjk_benches);
