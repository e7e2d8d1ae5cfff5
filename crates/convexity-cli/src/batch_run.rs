//! Running `convexity query` over many pairs: a scene file or an NDJSON stream, answered in
//! parallel chunks (rayon) and printed in input order.
//!
//! Memory is bounded for NDJSON: a few chunks of [`CHUNK`] lines are held at a time (one read
//! ahead by a reader thread, one parsed and answered in parallel, then written and dropped). A scene file is parsed whole (it is one
//! JSON value), then answered the same way. A progress bar goes to standard error only when
//! it is a terminal and the run has lasted over a second.

use crate::input::{self, display_name};
use crate::query_cmd::{self, answer_pairs, Plan, QueryArgs, Tally, SUB_CHUNK};
use crate::scene::{self, Scene};
use crate::{exit, Fatal};
use indicatif::{ProgressBar, ProgressDrawTarget};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

/// Lines (pairs) answered per parallel chunk.
pub const CHUNK: usize = 4096;

/// The run's totals.
#[derive(Default)]
struct Totals {
    pairs: usize,
    errors: usize,
    answered: usize,
    verified: usize,
    disagree: Vec<String>,
    times: BTreeMap<&'static str, (f64, usize)>,
}

impl Totals {
    fn add(&mut self, i: usize, t: Tally, several: bool) {
        self.pairs += 1;
        self.errors += t.errors;
        self.answered += t.answered;
        self.verified += t.verified;
        if several && t.errors == 0 {
            if let Some(d) = query_cmd::disagreement(i, &t.verdicts) {
                self.disagree.push(d);
            }
        }
        for (m, s) in t.times {
            let e = self.times.entry(m).or_default();
            e.0 += s;
            e.1 += 1;
        }
    }
}

/// Writes lines to standard output and keeps the progress bar.
struct Sink<W: Write> {
    out: W,
    bar: ProgressBar,
    start: Instant,
    shown: bool,
}

impl<W: Write> Sink<W> {
    fn write(&mut self, lines: &[String]) -> Result<(), Fatal> {
        for l in lines {
            self.out.write_all(l.as_bytes()).map_err(Fatal::output)?;
            self.out.write_all(b"\n").map_err(Fatal::output)?;
        }
        Ok(())
    }
    fn progress(&mut self, done: usize) {
        if !self.shown
            && self.start.elapsed() > Duration::from_secs(1)
            && std::io::stderr().is_terminal()
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done as u64);
    }
}

/// Answers `pairs` (index, here, value) in parallel against `scene`; output in input order.
fn answer_chunk<W: Write>(
    plan: &Plan,
    scene: &Scene,
    pairs: &[(usize, String, Result<Value, String>)],
    sink: &mut Sink<W>,
    totals: &mut Totals,
) -> Result<(), Fatal> {
    let results: Vec<(Vec<String>, Tally)> = pairs
        .par_chunks(SUB_CHUNK)
        .flat_map_iter(|sub| {
            let resolved = sub
                .iter()
                .map(|(i, here, v)| {
                    let pair = match v {
                        Ok(v) => scene.resolve_value(here, v),
                        Err(e) => Err(e.clone()),
                    };
                    (*i, pair)
                })
                .collect();
            answer_pairs(plan, resolved)
        })
        .collect();
    for ((i, _, _), (lines, tally)) in pairs.iter().zip(results) {
        sink.write(&lines)?;
        totals.add(*i, tally, plan.several);
    }
    sink.progress(totals.pairs);
    Ok(())
}

/// A chunk of answered pair lines: the number of its first pair, and each pair's output
/// lines and tally, in input order.
type Answered = (usize, Vec<(Vec<String>, Tally)>);

/// [`answer_chunk`]'s answering half for raw pair lines (numbered from `first`): parsed and
/// resolved in parallel, then answered together ([`answer_pairs`]).
fn answer_lines(plan: &Plan, scene: &Scene, first: usize, raw: &[(usize, String)]) -> Answered {
    let results = raw
        .par_chunks(SUB_CHUNK)
        .enumerate()
        .flat_map_iter(|(c, sub)| {
            let parsed: Vec<(String, Result<Value, String>)> = sub
                .iter()
                .map(|(n, l)| {
                    let v = input::parse(l.as_bytes()).map_err(|e| format!("line {n}: {e}"));
                    (format!("line {n}"), v)
                })
                .collect();
            let resolved = parsed
                .iter()
                .enumerate()
                .map(|(k, (here, v))| {
                    let pair = match v {
                        Ok(v) => scene.resolve_value(here, v),
                        Err(e) => Err(e.clone()),
                    };
                    (first + c * SUB_CHUNK + k, pair)
                })
                .collect();
            answer_pairs(plan, resolved)
        })
        .collect();
    (first, results)
}

/// [`answer_chunk`]'s writing half: prints an answered chunk in order and counts it.
fn write_answered<W: Write>(
    answered: Option<Answered>,
    plan: &Plan,
    sink: &mut Sink<W>,
    totals: &mut Totals,
) -> Result<(), Fatal> {
    let Some((first, results)) = answered else {
        return Ok(());
    };
    for (k, (lines, tally)) in results.into_iter().enumerate() {
        sink.write(&lines)?;
        totals.add(first + k, tally, plan.several);
    }
    sink.progress(totals.pairs);
    Ok(())
}

/// Runs `convexity query`; returns the exit status.
pub fn run(args: &QueryArgs) -> Result<i32, Fatal> {
    let plan = Plan::new(args);
    if let Some(n) = args.threads {
        // The global pool: built once per process, before any parallel work.
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
            .map_err(|e| Fatal::input(format!("cannot start worker threads: {e}")))?;
    }
    let stdout = std::io::stdout();
    let mut sink = Sink {
        out: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
        start: Instant::now(),
        shown: false,
    };
    let mut totals = Totals::default();
    let unused = if args.ndjson {
        run_ndjson(&args.file, &plan, &mut sink, &mut totals)?;
        Vec::new()
    } else {
        run_scene(&args.file, &plan, &mut sink, &mut totals)?
    };
    sink.out.flush().map_err(Fatal::output)?;
    sink.bar.finish_and_clear();
    for e in &unused {
        eprintln!("error: {e} (this shape is not used by any pair)");
    }
    if plan.several {
        eprintln!(
            "{}",
            query_cmd::agreement_summary(
                totals.pairs - totals.errors.min(totals.pairs),
                &totals.disagree,
                totals.errors
            )
        );
        eprintln!(
            "verified: {}/{} answers carry a certificate that verified",
            totals.verified, totals.answered
        );
        let times: Vec<String> = totals
            .times
            .iter()
            .map(|(m, (s, n))| format!("{m} {:.3} ms ({n} runs)", s * 1e3))
            .collect();
        eprintln!("time per method: {}", times.join(", "));
    }
    if totals.errors > 0 {
        eprintln!(
            "error: {} of {} pairs could not be answered (see the \"error\" and \"skipped\" lines)",
            totals.errors, totals.pairs
        );
    }
    Ok(if totals.errors > 0 || !unused.is_empty() {
        exit::INPUT
    } else {
        exit::OK
    })
}

/// A whole scene file; returns the errors of bad shapes no pair uses.
fn run_scene<W: Write>(
    file: &str,
    plan: &Plan,
    sink: &mut Sink<W>,
    totals: &mut Totals,
) -> Result<Vec<String>, Fatal> {
    let scene = scene::load(file)?;
    sink.bar.set_length(scene.pairs.len() as u64);
    for start in (0..scene.pairs.len()).step_by(CHUNK) {
        let end = (start + CHUNK).min(scene.pairs.len());
        // Cheap handles: the values stay in the scene; `resolve` reads them by index.
        let ids: Vec<usize> = (start..end).collect();
        let answered: Vec<(Vec<String>, Tally)> = ids
            .par_chunks(SUB_CHUNK)
            .flat_map_iter(|sub| {
                answer_pairs(plan, sub.iter().map(|&i| (i, scene.resolve(i))).collect())
            })
            .collect();
        for (i, (lines, tally)) in (start..end).zip(answered) {
            sink.write(&lines)?;
            totals.add(i, tally, plan.several);
        }
        sink.progress(totals.pairs);
    }
    Ok(scene
        .unused_bad_shapes()
        .into_iter()
        .map(str::to_string)
        .collect())
}

/// An NDJSON stream: each line a pair, or `{"shapes": {...}}` adding named shapes for the
/// lines after it. Blank lines are skipped. Pair numbers count pair lines from 0.
fn run_ndjson<W: Write>(
    file: &str,
    plan: &Plan,
    sink: &mut Sink<W>,
    totals: &mut Totals,
) -> Result<(), Fatal> {
    let reader: Box<dyn BufRead + Send> = if file == "-" {
        Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin()))
    } else {
        let f = std::fs::File::open(file)
            .map_err(|e| Fatal::input(format!("cannot read {file}: {}", input::why(&e))))?;
        Box::new(std::io::BufReader::with_capacity(1 << 16, f))
    };
    let mut scene = Scene {
        shapes: BTreeMap::new(),
        pairs: Vec::new(),
        files: scene::Files::relative_to(file),
    };
    // A reader thread reads the next chunk while this one answers the current one; at most
    // two chunks wait in the channel, so memory stays bounded.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<(usize, String)>, String>>(2);
    let name = display_name(file).to_string();
    let reader_thread = std::thread::spawn(move || {
        let mut lines = reader.lines().enumerate();
        loop {
            let mut raw: Vec<(usize, String)> = Vec::with_capacity(CHUNK);
            for (n, l) in lines.by_ref() {
                match l {
                    Ok(l) if l.trim().is_empty() => {}
                    Ok(l) => {
                        raw.push((n + 1, l));
                        if raw.len() == CHUNK {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(format!("cannot read {name}: {e}")));
                        return;
                    }
                }
            }
            if raw.is_empty() || tx.send(Ok(raw)).is_err() {
                return;
            }
        }
    });
    let mut next_pair = 0usize;
    let mut prev: Option<Answered> = None;
    for raw in rx {
        let raw = raw.map_err(Fatal::input)?;
        // The common case, a chunk of pair lines only: parse and answer in one parallel pass
        // (two passes would make every worker wait at the barrier between them). A line that
        // could define shapes names the key, so the textual test never misses one.
        if !raw.iter().any(|(_, l)| l.contains("\"shapes\"")) {
            let first = next_pair;
            next_pair += raw.len();
            // Write the previous chunk while the workers answer this one.
            // (The output lock cannot leave this thread, so the answering goes to a scoped
            // thread that hands its chunk to the worker pool.)
            let scene = &scene;
            let raw = &raw;
            let answered = std::thread::scope(|s| {
                let answering = s.spawn(move || answer_lines(plan, scene, first, raw));
                let written = write_answered(prev.take(), plan, sink, totals);
                // `answer_lines` does not panic on input; a panic would be a bug, re-raised.
                let answered = answering
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
                written.map(|()| answered)
            })?;
            prev = Some(answered);
            continue;
        }
        write_answered(prev.take(), plan, sink, totals)?;
        let parsed: Vec<Result<Value, String>> = raw
            .par_iter()
            .map(|(n, l)| input::parse(l.as_bytes()).map_err(|e| format!("line {n}: {e}")))
            .collect();
        // Split at shape definitions: pairs before one are answered before it takes effect.
        let mut pending: Vec<(usize, String, Result<Value, String>)> = Vec::new();
        for ((n, _), v) in raw.iter().zip(parsed) {
            if let Ok(Value::Object(o)) = &v {
                if o.contains_key("shapes") && !o.contains_key("a") {
                    answer_chunk(plan, &scene, &pending, sink, totals)?;
                    pending.clear();
                    define_shapes(&mut scene, *n, o, sink, totals)?;
                    continue;
                }
            }
            pending.push((next_pair, format!("line {n}"), v));
            next_pair += 1;
        }
        answer_chunk(plan, &scene, &pending, sink, totals)?;
    }
    write_answered(prev.take(), plan, sink, totals)?;
    // The reader has finished (the channel closed); it cannot panic on input.
    let _ = reader_thread.join();
    Ok(())
}

/// A `{"shapes": {...}}` line: adds (or replaces) named shapes. A malformed line is reported
/// as an error line and counted as an error.
fn define_shapes<W: Write>(
    scene: &mut Scene,
    n: usize,
    o: &serde_json::Map<String, Value>,
    sink: &mut Sink<W>,
    totals: &mut Totals,
) -> Result<(), Fatal> {
    let err = crate::fields::check_keys(o, &["shapes"], "a shapes line")
        .map_err(|e| e.to_string())
        .and_then(|()| {
            o.get("shapes")
                .and_then(Value::as_object)
                .ok_or_else(|| "\"shapes\" must be an object mapping names to shapes".to_string())
        });
    match err {
        Ok(shapes) => {
            scene
                .shapes
                .extend(scene::parse_shapes(shapes, &scene.files));
            Ok(())
        }
        Err(e) => {
            totals.errors += 1;
            let line = crate::output::to_line(&serde_json::json!({
                "line": n,
                "error": format!("line {n}: {e}"),
            }));
            sink.write(&[line])
        }
    }
}
