//! The one timing harness of the bench crate: the median, the interleaved timing loop, its
//! time budget, and the `--key value` argument parser of the binaries.
//!
//! Interleaved timing: several competitors run back to back on the same chunk of inputs,
//! round after round, and each round's ratio `t(competitor) / t(reference)` is taken; the
//! medians over rounds are reported. On a shared machine whose load drifts, that ratio is far
//! more stable than the ratio of two medians measured seconds or minutes apart. Every
//! interleaved figure of the suite (the `gjk`, `warm_start`, `gjk_polyhedron` and `contact`
//! benches, and the `speed` binary) goes through [`interleave`].

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median of `v` (mean of the two middle values for an even count; NaN when empty).
/// Sorts `v` in place.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// Seconds of interleaved timing per group of the criterion benches: `BENCH_PAIRED_SECS`,
/// default 1.5.
pub fn budget() -> Duration {
    let secs = std::env::var("BENCH_PAIRED_SECS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(1.5);
    Duration::from_secs_f64(secs.max(0.0))
}

/// When an interleaved run stops: after at least `min_rounds` rounds and `budget` of time.
#[derive(Clone, Copy, Debug)]
pub struct Stop {
    pub min_rounds: usize,
    pub budget: Duration,
}

impl Stop {
    /// The criterion benches' rule: at least 11 rounds, and [`budget`] seconds.
    pub fn bench_default() -> Stop {
        Stop {
            min_rounds: 11,
            budget: budget(),
        }
    }

    /// Exactly `n` rounds.
    pub fn rounds(n: usize) -> Stop {
        Stop {
            min_rounds: n.max(1),
            budget: Duration::ZERO,
        }
    }
}

/// A named competitor: `f(k)` runs one query on input `k` and returns a value to keep alive.
pub type Competitor<'a> = (&'a str, Box<dyn FnMut(usize) -> f64 + 'a>);

/// The result of [`interleave`]. Competitor 0 is the reference of the ratios.
#[derive(Clone, Debug)]
pub struct Interleaved {
    pub rounds: usize,
    pub chunk: usize,
    pub names: Vec<String>,
    /// Median over rounds of the ns per input of each competitor.
    pub ns: Vec<f64>,
    /// Median over rounds of `t(competitor) / t(competitor 0)` in the same round.
    pub ratio: Vec<f64>,
}

impl Interleaved {
    /// Index of the competitor called `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// `{rounds, chunk, reference, ns: {name: ns}, ratio_to_reference: {name: ratio}}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut ns = serde_json::Map::new();
        let mut ratio = serde_json::Map::new();
        for (i, name) in self.names.iter().enumerate() {
            ns.insert(name.clone(), self.ns[i].into());
            ratio.insert(name.clone(), self.ratio[i].into());
        }
        serde_json::json!({
            "rounds": self.rounds,
            "chunk": self.chunk,
            "reference": self.names.first(),
            "ns": ns,
            "ratio_to_reference": ratio,
        })
    }
}

impl std::fmt::Display for Interleaved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} rounds of {}:", self.rounds, self.chunk)?;
        for (i, name) in self.names.iter().enumerate() {
            write!(
                f,
                " {name} {:.0} ns ({:.2}× ref)",
                self.ns[i], self.ratio[i]
            )?;
        }
        Ok(())
    }
}

/// Times every competitor on the same `chunk` consecutive inputs (cycling through `0..n`),
/// round after round, until `stop`. With `rotate` the order of the competitors rotates every
/// round (cancelling order effects); without it they run in the given order. Each competitor
/// first runs one untimed warm-up chunk.
pub fn interleave(
    n: usize,
    chunk: usize,
    stop: Stop,
    rotate: bool,
    comps: &mut [Competitor<'_>],
) -> Interleaved {
    assert!(n > 0 && chunk > 0 && !comps.is_empty());
    let m = comps.len();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); m];
    for (_, f) in comps.iter_mut() {
        for j in 0..chunk {
            black_box(f(j % n));
        }
    }
    let start = Instant::now();
    let (mut cur, mut round) = (0usize, 0usize);
    while round < stop.min_rounds || start.elapsed() < stop.budget {
        for step in 0..m {
            let i = if rotate { (step + round) % m } else { step };
            let f = &mut comps[i].1;
            let clock = Instant::now();
            let mut acc = 0.0;
            // The input index wraps by a compare, not `%`: a 64-bit division per call would
            // cost as much as a ball–ball query and flatten the ratios of short queries.
            let mut k = cur;
            for _ in 0..chunk {
                acc += f(k);
                k += 1;
                if k == n {
                    k = 0;
                }
            }
            black_box(acc);
            times[i].push(clock.elapsed().as_secs_f64() * 1e9 / chunk as f64);
        }
        cur = (cur + chunk) % n;
        round += 1;
    }
    let ratio = (0..m)
        .map(|i| {
            let mut r: Vec<f64> = times[i].iter().zip(&times[0]).map(|(t, r)| t / r).collect();
            median(&mut r)
        })
        .collect();
    let ns = times.iter_mut().map(|t| median(t)).collect();
    Interleaved {
        rounds: round,
        chunk,
        names: comps.iter().map(|c| c.0.to_string()).collect(),
        ns,
        ratio,
    }
}

/// `--key value` arguments (and bare positional words) of the crate's binaries.
#[derive(Clone, Debug, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
    pub positional: Vec<String>,
}

impl Args {
    /// Parses the process arguments. Every `--key` takes one value; `known` lists the keys
    /// accepted. Prints `usage` and exits with status 2 on an unknown key or a missing value.
    pub fn parse(usage: &str, known: &[&str]) -> Args {
        match Args::parse_from(std::env::args().skip(1), known) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {e}\n\n{usage}");
                std::process::exit(2);
            }
        }
    }

    /// [`Args::parse`] on an explicit list (testable; returns the error instead of exiting).
    pub fn parse_from(
        args: impl IntoIterator<Item = String>,
        known: &[&str],
    ) -> Result<Args, String> {
        let mut a = Args::default();
        let mut it = args.into_iter();
        while let Some(k) = it.next() {
            let Some(key) = k.strip_prefix("--") else {
                a.positional.push(k);
                continue;
            };
            if !known.contains(&key) {
                return Err(format!("unknown argument --{key}"));
            }
            let v = it.next().ok_or_else(|| format!("--{key} needs a value"))?;
            a.values.insert(key.to_string(), v);
        }
        Ok(a)
    }

    /// The value of `--key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// The value of `--key` parsed as `T`, or `default` when absent; exits with a message
    /// naming the key when it does not parse.
    pub fn num<T: std::str::FromStr>(&self, key: &str, default: T) -> T {
        match self.get(key) {
            None => default,
            Some(v) => v.parse().unwrap_or_else(|_| {
                eprintln!("error: --{key} {v}: not a valid number");
                std::process::exit(2);
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn interleave_runs_the_rounds_and_takes_ratios_to_the_first() {
        let mut calls = [0usize; 2];
        let (c0, c1) = calls.split_at_mut(1);
        let mut comps: Vec<Competitor<'_>> = vec![
            (
                "a",
                Box::new(|k| {
                    c0[0] += 1;
                    k as f64
                }),
            ),
            (
                "b",
                Box::new(|k| {
                    c1[0] += 1;
                    k as f64
                }),
            ),
        ];
        let r = interleave(10, 4, Stop::rounds(5), false, &mut comps);
        drop(comps);
        assert_eq!(r.rounds, 5);
        // One warm-up chunk plus 5 timed chunks each.
        assert_eq!(calls, [24, 24]);
        assert_eq!(r.ratio[0], 1.0);
        assert_eq!(r.index("b"), Some(1));
        assert!(r.ns.iter().all(|t| t.is_finite() && *t >= 0.0));
    }

    #[test]
    fn args_reject_unknown_keys_and_missing_values() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let a = Args::parse_from(s(&["gjk", "--rounds", "3"]), &["rounds"]).unwrap();
        assert_eq!(a.positional, vec!["gjk"]);
        assert_eq!(a.num("rounds", 15usize), 3);
        assert_eq!(a.num("pairs", 7usize), 7);
        assert!(Args::parse_from(s(&["--bogus", "1"]), &["rounds"]).is_err());
        assert!(Args::parse_from(s(&["--rounds"]), &["rounds"]).is_err());
    }
}
