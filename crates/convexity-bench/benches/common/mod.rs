//! Helpers shared by the bench targets: set selection, the batched timing loop, and the
//! criterion settings.

#![allow(dead_code)]

use convexity_bench::Kind;
use criterion::{black_box, Bencher, Criterion};
use std::time::Duration;

/// Whether `BENCH_SETS` (comma-separated set names, e.g. `hull8,box`) selects this set; all
/// sets when it is unset or empty.
pub fn selected(kind: Kind) -> bool {
    match std::env::var("BENCH_SETS") {
        Ok(v) if !v.trim().is_empty() => v.split(',').any(|s| s.trim() == kind.name()),
        _ => true,
    }
}

/// Times `f(k)` over `batch` consecutive indices `k`, cycling through `0..n` across
/// iterations (the cursor persists between iterations, so every item is visited). The results
/// are summed into a black-boxed value so nothing is optimised away.
pub fn batched(b: &mut Bencher<'_>, n: usize, batch: usize, mut f: impl FnMut(usize) -> f64) {
    assert!(n > 0);
    let mut cur = 0usize;
    b.iter(|| {
        let mut acc = 0.0;
        let mut k = cur;
        for _ in 0..batch {
            acc += f(k);
            k += 1;
            if k == n {
                k = 0;
            }
        }
        cur = k;
        black_box(acc)
    });
}

/// Default criterion settings of the suite (overridable with criterion's own flags, e.g.
/// `--measurement-time 1 --warm-up-time 0.5` or `--quick`).
pub fn config(measure_secs: u64) -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(measure_secs))
}
