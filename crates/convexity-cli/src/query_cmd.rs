//! `convexity query`: answers the pairs of a scene, one JSON line per pair and method.
//!
//! This module answers one pair ([`answer_pair`]); [`crate::batch_run`] feeds it the pairs of
//! a scene file or of an NDJSON stream, in parallel, in input order. Methods come from
//! [`convexity::query`], so a method added there is available here (and in `--all`) without
//! changes. `--force` runs a method on shapes beyond its practical size
//! (`Method::check_size`), which is otherwise refused with the reason.

use crate::output::{to_line, Answer, ErrorLine, SkipLine};
use crate::scene::{NdPoints, Pair, PoseAny, SceneShape};
use clap::Args;
use convexity::query::{self, Method, Outcome, QuerySpace};
use convexity::shape::Polytope;
use convexity::{DVec2, DVec3, Pose};
use std::time::Instant;

mod help;
mod solid;

pub use help::FORMAT_HELP;

/// Options of `convexity query`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct QueryArgs {
    /// The scene file (JSON, or NDJSON with --ndjson); '-' reads standard input
    pub file: String,
    /// Method to use (default gjk); see --help for the list
    #[arg(long, short = 'a', value_name = "NAME", value_parser = parse_method,
          conflicts_with_all = ["all", "methods"])]
    pub algorithm: Option<Method>,
    /// Run every method on every pair, one line each, with an agreement and time summary on
    /// standard error
    #[arg(long, conflicts_with = "methods")]
    pub all: bool,
    /// Run the listed methods (comma-separated), as --all does for all of them
    #[arg(long, value_name = "A,B,C", value_delimiter = ',', value_parser = parse_method)]
    pub methods: Vec<Method>,
    /// For intersecting pairs, add penetration_depth, the contact normal and contact points
    #[arg(long)]
    pub contact: bool,
    /// Run methods on shapes beyond their practical size (otherwise refused with the reason)
    #[arg(long)]
    pub force: bool,
    /// Read newline-delimited JSON: one pair (or a {"shapes": {...}} line) per line, streamed
    #[arg(long)]
    pub ndjson: bool,
    /// Worker threads (default: one per core); output order never depends on it
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

fn parse_method(name: &str) -> Result<Method, String> {
    Method::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        let hint = crate::fields::suggestion(name, &names)
            .map(|s| format!(" (did you mean \"{s}\"?)"))
            .unwrap_or_default();
        format!(
            "unknown algorithm {}{hint}; valid names: {}",
            crate::fields::quote(name),
            method_names()
        )
    })
}

/// The valid method names, for messages.
pub fn method_names() -> String {
    Method::ALL
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a run answers with: the methods, and whether several were asked for (`--all`,
/// `--methods`: a method that does not apply is then noted, not an error, and a summary is
/// printed).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub methods: Vec<Method>,
    pub several: bool,
    pub contact: bool,
    pub force: bool,
}

impl Plan {
    pub fn new(args: &QueryArgs) -> Plan {
        let (methods, several) = if args.all {
            (Method::ALL.to_vec(), true)
        } else if !args.methods.is_empty() {
            (args.methods.clone(), true)
        } else {
            (vec![args.algorithm.unwrap_or(Method::Gjk)], false)
        };
        Plan {
            methods,
            several,
            contact: args.contact,
            force: args.force,
        }
    }
}

/// What one pair contributed to the run's summary.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub errors: usize,
    pub answered: usize,
    pub verified: usize,
    /// Each method's verdict (for the agreement summary; only with several methods).
    pub verdicts: Vec<(&'static str, Option<bool>)>,
    /// Time spent per method, in seconds.
    pub times: Vec<(&'static str, f64)>,
}

/// The output lines of one pair and its tally.
pub fn answer_pair(plan: &Plan, i: usize, pair: Result<Pair<'_>, String>) -> (Vec<String>, Tally) {
    let mut tally = Tally::default();
    let pair = match pair {
        Ok(p) => p,
        Err(msg) => {
            tally.errors = 1;
            let line = to_line(&ErrorLine {
                pair: i,
                error: &msg,
            });
            return (vec![line], tally);
        }
    };
    let lines = match (&*pair.a, &*pair.b, pair.pose_a, pair.pose_b) {
        (SceneShape::D2(a), SceneShape::D2(b), PoseAny::D2(pa), PoseAny::D2(pb)) => {
            answer(plan, i, (a, &pa), (b, &pb), &mut tally)
        }
        (SceneShape::D3(a), SceneShape::D3(b), PoseAny::D3(pa), PoseAny::D3(pb)) => {
            answer(plan, i, (a, &pa), (b, &pb), &mut tally)
        }
        (SceneShape::Nd(a), SceneShape::Nd(b), _, _) => answer_n(plan, i, a, b, &mut tally),
        (SceneShape::Solid(_), ..) | (_, SceneShape::Solid(_), ..) => solid::answer(plan, i, &pair),
        _ => vec![Line::Error(format!(
            "pairs[{i}]: shapes {} and {} cannot be paired",
            pair.names[0], pair.names[1]
        ))],
    };
    finish_lines(plan, i, lines, tally)
}

/// The output lines of a pair's method results, counted into its tally.
fn finish_lines(plan: &Plan, i: usize, lines: Vec<Line>, mut tally: Tally) -> (Vec<String>, Tally) {
    let mut out = Vec::with_capacity(lines.len());
    for l in lines {
        out.push(match l {
            Line::Answer(a) => {
                tally.answered += 1;
                tally.verified += usize::from(a.verified);
                if plan.several {
                    tally.verdicts.push((a.algorithm, a.intersecting));
                }
                to_line(&a)
            }
            Line::Skipped(s) => {
                // A method asked for by name that cannot answer the pair is an error; with
                // several methods it is only noted.
                if !plan.several {
                    tally.errors += 1;
                }
                to_line(&s)
            }
            Line::Error(msg) => {
                tally.errors += 1;
                to_line(&ErrorLine {
                    pair: i,
                    error: &msg,
                })
            }
        });
    }
    (out, tally)
}

/// Answers resolved pairs (numbered, in order) on the calling thread, as [`answer_pair`]
/// answers each. When the plan is one of `gjk`, `gjk-boolean`, `epa`, the 2D and 3D pairs go
/// through [`query::run_many`] (the library's batch API: SIMD lanes for small hulls; every
/// outcome checked as `query::run` checks its own), whose answers are `query::run`'s on the same
/// poses; every other pair, and every other plan, is answered pair by pair. Callers spread
/// chunks of [`SUB_CHUNK`] pairs over the cores (one parallel pass, no barrier inside).
pub fn answer_pairs(
    plan: &Plan,
    pairs: Vec<(usize, Result<Pair<'_>, String>)>,
) -> Vec<(Vec<String>, Tally)> {
    // (A method with a size limit keeps the pair-by-pair path, which checks it: none of these
    // has one today.)
    let method = match plan.methods.as_slice() {
        [m] if !plan.several
            && matches!(m, Method::Gjk | Method::GjkBoolean | Method::Epa)
            && m.size_limit().is_none() =>
        {
            *m
        }
        _ => {
            return pairs
                .into_iter()
                .map(|(i, p)| answer_pair(plan, i, p))
                .collect()
        }
    };
    let mut rows3: Vec<(usize, query::Row<'_, DVec3>)> = Vec::new();
    let mut rows2: Vec<(usize, query::Row<'_, DVec2>)> = Vec::new();
    for (k, (_, p)) in pairs.iter().enumerate() {
        match p.as_ref().map(|p| (&*p.a, &*p.b, p.pose_a, p.pose_b)) {
            Ok((SceneShape::D3(a), SceneShape::D3(b), PoseAny::D3(pa), PoseAny::D3(pb))) => {
                rows3.push((k, (a, pa, b, pb)))
            }
            Ok((SceneShape::D2(a), SceneShape::D2(b), PoseAny::D2(pa), PoseAny::D2(pb))) => {
                rows2.push((k, (a, pa, b, pb)))
            }
            _ => {}
        }
    }
    let mut done: Vec<Option<(Vec<String>, Tally)>> = vec![None; pairs.len()];
    batched(plan, method, &pairs, &rows3, &mut done);
    batched(plan, method, &pairs, &rows2, &mut done);
    pairs
        .into_iter()
        .zip(done)
        .map(|((i, p), d)| d.unwrap_or_else(|| answer_pair(plan, i, p)))
        .collect()
}

/// Pairs per [`answer_pairs`] call: the batch API's own chunk, small enough that a chunk's
/// parsed lines stay in cache between parsing and answering.
pub const SUB_CHUNK: usize = convexity::batch::CHUNK;

/// [`answer_pairs`]'s batch half for the rows of one dimension (`(k, row)`: the row of pair
/// `pairs[k]`): fills `done[k]` with the pair's lines and tally.
fn batched<V>(
    plan: &Plan,
    method: Method,
    pairs: &[(usize, Result<Pair<'_>, String>)],
    rows: &[(usize, query::Row<'_, V>)],
    done: &mut [Option<(Vec<String>, Tally)>],
) where
    V: QuerySpace + convexity::batch::BatchSpace,
    V::Shape: Polytope<V>,
{
    if rows.is_empty() {
        return;
    }
    let many: Vec<query::Row<'_, V>> = rows.iter().map(|(_, r)| *r).collect();
    let start = Instant::now();
    let outcomes = query::run_many(method, &many, false);
    // The batch has no per-row clock: each row gets an equal share of the call's time.
    let share = start.elapsed().as_secs_f64() / rows.len() as f64;
    for ((k, (a, pa, b, pb)), o) in rows.iter().zip(outcomes) {
        let (Some(slot), Some((i, _))) = (done.get_mut(*k), pairs.get(*k)) else {
            continue;
        };
        let mut tally = Tally::default();
        tally.times.push((method.name(), share));
        let epa = |t: &mut Tally| {
            let start = Instant::now();
            let r = query::run(Method::Epa, *a, pa, *b, pb).map_err(|s| s.to_string());
            t.times
                .push((Method::Epa.name(), start.elapsed().as_secs_f64()));
            r
        };
        let line = one_line(
            plan,
            *i,
            method,
            o.map_err(|s| s.to_string()),
            epa,
            &mut tally,
        );
        *slot = Some(finish_lines(plan, *i, vec![line], tally));
    }
}

/// One method's result on a pair.
enum Line {
    Answer(Box<Answer>),
    Skipped(SkipLine),
    Error(String),
}

fn vertex_count<V, S: Polytope<V> + ?Sized>(s: &S) -> usize
where
    V: QuerySpace,
{
    s.vertex_set().map_or(0, |v| v.len())
}

/// Answers one resolved 2D or 3D pair with the plan's methods. With `--contact`, the EPA
/// outcome is computed at most once per pair and shared: the `epa` method's own line and the
/// contact fields of every other method's intersecting answer reuse it.
fn answer<V, A, B>(
    plan: &Plan,
    i: usize,
    (a, pose_a): (&A, &Pose<V>),
    (b, pose_b): (&B, &Pose<V>),
    tally: &mut Tally,
) -> Vec<Line>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let mut epa: Option<Result<Outcome<V>, String>> = None;
    let mut run = |m: Method, tally: &mut Tally| -> Result<Outcome<V>, String> {
        if m == Method::Epa {
            if let Some(r) = &epa {
                return r.clone();
            }
        }
        let size_ok = if plan.force {
            Ok(())
        } else {
            m.check_size(vertex_count(a), vertex_count(b))
        };
        let start = Instant::now();
        let r = size_ok
            .and_then(|()| query::run(m, a, pose_a, b, pose_b))
            .map_err(|s| s.to_string());
        tally.times.push((m.name(), start.elapsed().as_secs_f64()));
        if m == Method::Epa {
            epa = Some(r.clone());
        }
        r
    };
    let mut lines = Vec::with_capacity(plan.methods.len());
    for &m in &plan.methods {
        if !(m.applies_to_dim(V::DIM) || plan.methods.len() == 1) {
            continue;
        }
        let r = run(m, tally);
        lines.push(one_line(plan, i, m, r, |t| run(Method::Epa, t), tally));
    }
    lines
}

/// The line of method `m`'s result `r` on pair `i`; with `--contact`, an intersecting answer
/// without a depth gets the contact fields of `epa(tally)` (the `epa` method's outcome).
fn one_line<V: QuerySpace>(
    plan: &Plan,
    i: usize,
    m: Method,
    r: Result<Outcome<V>, String>,
    epa: impl FnOnce(&mut Tally) -> Result<Outcome<V>, String>,
    tally: &mut Tally,
) -> Line {
    let o = match r {
        Ok(o) => o,
        Err(skipped) => {
            return Line::Skipped(SkipLine {
                pair: i,
                algorithm: m.name(),
                skipped,
            })
        }
    };
    let line = Answer::new(i, &o);
    if !plan.contact || o.verdict.intersecting() != Some(true) {
        Line::Answer(Box::new(line))
    } else if o.penetration_depth.is_some() {
        Line::Answer(Box::new(line.with_contact(&o)))
    } else {
        Line::Answer(Box::new(match epa(tally) {
            Ok(p) => line.with_contact(&p),
            Err(_) => line,
        }))
    }
}

/// Answers an n-dimensional pair with the vertex-set methods that work in any dimension
/// (`gjk` is GJK in n dimensions there).
fn answer_n(plan: &Plan, i: usize, a: &NdPoints, b: &NdPoints, tally: &mut Tally) -> Vec<Line> {
    let chosen: Vec<Method> = if plan.several {
        let mut v: Vec<Method> = plan
            .methods
            .iter()
            .map(|&m| if m == Method::Gjk { Method::GjkNd } else { m })
            .filter(Method::works_in_n_dimensions)
            .collect();
        v.dedup();
        v
    } else {
        plan.methods
            .iter()
            .map(|&m| if m == Method::Gjk { Method::GjkNd } else { m })
            .collect()
    };
    chosen
        .into_iter()
        .map(|m| {
            let skip = |why: String| {
                Line::Skipped(SkipLine {
                    pair: i,
                    algorithm: m.name(),
                    skipped: why,
                })
            };
            if a.radius > 0.0 || b.radius > 0.0 {
                return skip(format!(
                    "{} works on vertex sets; a rounded {}-dimensional shape is not one",
                    m.name(),
                    a.dim
                ));
            }
            let start = Instant::now();
            let r = query::run_n(m, &a.points, &b.points);
            tally.times.push((m.name(), start.elapsed().as_secs_f64()));
            match r {
                Ok(o) => Line::Answer(Box::new(Answer::from_n(i, &o, &a.points, &b.points))),
                Err(e) => skip(e.to_string()),
            }
        })
        .collect()
}

fn show(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "null",
    }
}

/// `Some("pair 3 (gjk=false, pso=null, lp=true)")` when the methods' verdicts on a pair
/// disagree. `null` (an approximate method abstaining, or a withdrawn answer) is no vote.
pub fn disagreement(i: usize, verdicts: &[(&'static str, Option<bool>)]) -> Option<String> {
    let votes: Vec<bool> = verdicts.iter().filter_map(|(_, x)| *x).collect();
    if !votes.windows(2).any(|w| w[0] != w[1]) {
        return None;
    }
    let each: Vec<String> = verdicts
        .iter()
        .map(|(m, x)| format!("{m}={}", show(*x)))
        .collect();
    Some(format!("pair {i} ({})", each.join(", ")))
}

/// `agreement: 12/12 pairs, all methods agree on intersecting`, or the list of pairs where
/// they do not.
pub fn agreement_summary(pairs: usize, disagree: &[String], errors: usize) -> String {
    let agreeing = pairs - disagree.len().min(pairs);
    let errs = if errors > 0 {
        format!(" ({errors} pairs with errors not counted)")
    } else {
        String::new()
    };
    if disagree.is_empty() {
        format!("agreement: {agreeing}/{pairs} pairs, all methods agree on intersecting{errs}")
    } else {
        format!(
            "agreement: {agreeing}/{pairs} pairs, methods disagree on intersecting for {}{errs}",
            disagree.join("; ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary() {
        assert_eq!(
            disagreement(2, &[("gjk", Some(false)), ("epa", None)]),
            None,
            "null is no vote"
        );
        let d = disagreement(
            3,
            &[("gjk", Some(false)), ("pso", None), ("lp", Some(true))],
        );
        assert_eq!(d.as_deref(), Some("pair 3 (gjk=false, pso=null, lp=true)"));
        let s = agreement_summary(2, &[], 1);
        assert!(s.starts_with("agreement: 2/2 pairs"), "{s}");
        let s = agreement_summary(1, &d.into_iter().collect::<Vec<_>>(), 0);
        assert!(s.starts_with("agreement: 0/1 pairs"), "{s}");
    }

    #[test]
    fn unknown_method_suggests_the_closest() {
        let e = parse_method("gkj").unwrap_err();
        assert!(e.contains("did you mean \"gjk\""), "{e}");
        assert_eq!(parse_method("epa"), Ok(Method::Epa));
    }
}
