//! Interleaved timing for the issue-3 benches: several competitors timed back to back on the
//! same chunk of inputs, round after round, so that the per-round ratios cancel most of the
//! drift of a shared machine's load. Medians over rounds are reported and written as JSON.

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Seconds of interleaved timing per group (`BENCH_PAIRED_SECS`, default 1.5).
pub fn budget() -> Duration {
    let secs = std::env::var("BENCH_PAIRED_SECS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(1.5);
    Duration::from_secs_f64(secs.max(0.0))
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// A named competitor: `f(k)` runs one query on input `k` and returns a value to keep alive.
pub type Competitor<'a> = (&'a str, Box<dyn FnMut(usize) -> f64 + 'a>);

/// Times every competitor on the same `chunk` consecutive inputs (cycling through `0..n`),
/// rotating the order each round, for about `budget` (at least 11 rounds). Returns JSON with
/// the median ns per query of each competitor and, for each, the median over rounds of
/// `t(competitor) / t(reference)` where the reference is competitor 0.
pub fn run(
    n: usize,
    chunk: usize,
    budget: Duration,
    comps: &mut [Competitor<'_>],
) -> serde_json::Value {
    assert!(n > 0 && chunk > 0 && !comps.is_empty());
    let m = comps.len();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); m];
    // One untimed warm-up chunk each.
    for (_, f) in comps.iter_mut() {
        for j in 0..chunk {
            black_box(f(j % n));
        }
    }
    let start = Instant::now();
    let (mut cur, mut round) = (0usize, 0usize);
    while round < 11 || start.elapsed() < budget {
        for step in 0..m {
            let i = (step + round) % m;
            let f = &mut comps[i].1;
            let clock = Instant::now();
            let mut acc = 0.0;
            for j in 0..chunk {
                acc += f((cur + j) % n);
            }
            black_box(acc);
            times[i].push(clock.elapsed().as_secs_f64() * 1e9 / chunk as f64);
        }
        cur = (cur + chunk) % n;
        round += 1;
    }
    let mut ns = serde_json::Map::new();
    let mut ratio = serde_json::Map::new();
    for i in 0..m {
        let mut r: Vec<f64> = times[i].iter().zip(&times[0]).map(|(t, r)| t / r).collect();
        ratio.insert(comps[i].0.into(), median(&mut r).into());
        ns.insert(comps[i].0.into(), median(&mut times[i].clone()).into());
    }
    serde_json::json!({
        "rounds": round,
        "chunk": chunk,
        "reference": comps[0].0,
        "ns": ns,
        "ratio_to_reference": ratio,
    })
}
