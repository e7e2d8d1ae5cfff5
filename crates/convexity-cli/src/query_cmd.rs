//! `convexity query FILE [--algorithm NAME | --all] [--contact] [--force]`.
//!
//! `--force` runs a method on shapes beyond its practical size (`Method::check_size`), which
//! is otherwise refused with the reason.
//!
//! Reads a scene, answers every pair in input order with one JSON line per pair (per pair and
//! method with `--all`), and reports bad pairs as `{"pair": i, "error": ...}` lines without
//! stopping. Methods come from [`convexity::query`], so a method added there is available
//! here (and in `--all`) without changes.

use crate::output::{to_line, Answer, ErrorLine, SkipLine};
use crate::scene::{NdPoints, Resolved, Scene};
use crate::{exit, Fatal};
use convexity::query::{self, Method, QuerySpace};
use convexity::shape::Polytope;
use convexity::Pose;
use std::io::Write;

/// Which methods to run.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    One(Method),
    All,
}

/// Parsed options of the `query` command.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryArgs {
    pub file: String,
    pub selection: Selection,
    pub contact: bool,
    /// Run methods on shapes beyond their practical size ([`Method::check_size`]).
    pub force: bool,
}

/// The valid method names, for messages.
pub fn method_names() -> String {
    Method::ALL
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses the arguments after `query`.
pub fn parse_args(args: &[String]) -> Result<QueryArgs, Fatal> {
    let mut file = None;
    let mut selection = None;
    let mut contact = false;
    let mut force = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        match flag {
            "--algorithm" | "-a" => {
                let name = match inline {
                    Some(v) => v,
                    None => it.next().cloned().ok_or_else(|| {
                        Fatal::usage(format!(
                            "--algorithm needs a name; valid names: {}",
                            method_names()
                        ))
                    })?,
                };
                let m = Method::from_name(&name).ok_or_else(|| {
                    Fatal::usage(format!(
                        "unknown algorithm {}; valid names: {}",
                        crate::fields::quote(&name),
                        method_names()
                    ))
                })?;
                if selection.is_some() {
                    return Err(Fatal::usage(
                        "give at most one of --algorithm and --all".into(),
                    ));
                }
                selection = Some(Selection::One(m));
            }
            "--all" if inline.is_none() => {
                if selection.is_some() {
                    return Err(Fatal::usage(
                        "give at most one of --algorithm and --all".into(),
                    ));
                }
                selection = Some(Selection::All);
            }
            "--contact" if inline.is_none() => contact = true,
            "--force" if inline.is_none() => force = true,
            f if f.starts_with('-') && f != "-" => {
                return Err(Fatal::usage(format!("unknown option {arg} for query")));
            }
            _ => {
                if file.is_some() {
                    return Err(Fatal::usage(format!(
                        "query takes one scene file; unexpected argument {arg}"
                    )));
                }
                file = Some(arg.clone());
            }
        }
    }
    Ok(QueryArgs {
        file: file.ok_or_else(|| Fatal::usage("query needs a scene file".into()))?,
        selection: selection.unwrap_or(Selection::One(Method::Gjk)),
        contact,
        force,
    })
}

/// Reads and parses the scene file (or standard input for `-`).
pub fn load(path: &str) -> Result<Scene, Fatal> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
            .map_err(|e| Fatal::input(format!("cannot read standard input: {e}")))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| {
            let why = match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".to_string(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                _ => e.to_string(),
            };
            Fatal::input(format!("cannot read scene file {path}: {why}"))
        })?
    };
    let name = if path == "-" {
        "standard input".to_string()
    } else {
        path.to_string()
    };
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Fatal::input(format!(
            "malformed JSON in {name} at line {}, column {}: {msg}",
            e.line(),
            e.column()
        ))
    })?;
    Scene::from_value(&value).map_err(|e| Fatal::input(format!("{name}: {}", e.0)))
}

/// One method's result on a pair: an answer, or why the method does not apply.
pub enum Line {
    Answer(Answer),
    Skipped(SkipLine),
}

/// Answers one resolved pair with `methods`.
fn answer<V, A, B>(
    i: usize,
    methods: &[Method],
    (contact, force): (bool, bool),
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Vec<Line>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let mut penetration = None;
    methods
        .iter()
        .filter(|m| m.applies_to_dim(V::DIM) || methods.len() == 1)
        .map(|&m| {
            let count = |s: &A| s.vertex_set().map_or(0, |v| v.len());
            let size_ok = if force {
                Ok(())
            } else {
                m.check_size(count(a), b.vertex_set().map_or(0, |v| v.len()))
            };
            let o = match size_ok.and_then(|()| query::run(m, a, pose_a, b, pose_b)) {
                Ok(o) => o,
                Err(skip) => {
                    return Line::Skipped(SkipLine {
                        pair: i,
                        algorithm: m.name(),
                        skipped: skip.to_string(),
                    })
                }
            };
            let line = Answer::new(i, &o);
            if !contact || o.verdict.intersecting() != Some(true) {
                return Line::Answer(line);
            }
            if o.penetration_depth.is_some() {
                return Line::Answer(line.with_contact(&o));
            }
            let pen = penetration
                .get_or_insert_with(|| query::run(Method::Epa, a, pose_a, b, pose_b).ok());
            Line::Answer(match pen {
                Some(p) => line.with_contact(p),
                None => line,
            })
        })
        .collect()
}

/// Answers an n-dimensional pair with the vertex-set methods that work in any dimension
/// (`gjk` is GJK in n dimensions there).
fn answer_n(i: usize, selection: &Selection, a: &NdPoints, b: &NdPoints) -> Vec<Line> {
    let skip = |m: Method, why: String| {
        Line::Skipped(SkipLine {
            pair: i,
            algorithm: m.name(),
            skipped: why,
        })
    };
    let chosen: Vec<Method> = match selection {
        Selection::All => Method::ALL
            .iter()
            .copied()
            .filter(Method::works_in_n_dimensions)
            .collect(),
        Selection::One(Method::Gjk) => vec![Method::GjkNd],
        Selection::One(m) => vec![*m],
    };
    chosen
        .into_iter()
        .map(|m| {
            if a.radius > 0.0 || b.radius > 0.0 {
                return skip(
                    m,
                    format!(
                        "{} works on vertex sets; a rounded {}-dimensional shape is not one",
                        m.name(),
                        a.dim
                    ),
                );
            }
            match query::run_n(m, &a.points, &b.points) {
                Ok(o) => Line::Answer(Answer::from_n(i, &o, &a.points, &b.points)),
                Err(e) => skip(m, e.to_string()),
            }
        })
        .collect()
}

/// A pair's index and each method's verdict on it, for the `--all` summary.
pub type PairVerdicts = (usize, Vec<(&'static str, Option<bool>)>);

/// Runs the command; returns the exit status.
pub fn run(args: &QueryArgs) -> Result<i32, Fatal> {
    let scene = load(&args.file)?;
    let methods: Vec<Method> = match &args.selection {
        Selection::One(m) => vec![*m],
        Selection::All => Method::ALL.to_vec(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut warnings = scene.warnings.clone();
    let mut errors = 0usize;
    // For the --all summary: per answered pair, each method's verdict.
    let mut verdicts: Vec<PairVerdicts> = Vec::new();
    // Answers printed, and those whose certificate passed the checker.
    let (mut answered, mut verified) = (0usize, 0usize);
    for i in 0..scene.pairs.len() {
        let answers = match scene.resolve(i, &mut warnings) {
            Ok(Resolved::D2 {
                a,
                pose_a,
                b,
                pose_b,
            }) => answer(
                i,
                &methods,
                (args.contact, args.force),
                a,
                &pose_a,
                b,
                &pose_b,
            ),
            Ok(Resolved::D3 {
                a,
                pose_a,
                b,
                pose_b,
            }) => answer(
                i,
                &methods,
                (args.contact, args.force),
                a,
                &pose_a,
                b,
                &pose_b,
            ),
            Ok(Resolved::Nd { a, b }) => answer_n(i, &args.selection, a, b),
            Err(msg) => {
                errors += 1;
                let line = to_line(&ErrorLine {
                    pair: i,
                    error: &msg,
                });
                writeln!(out, "{line}").map_err(Fatal::output)?;
                continue;
            }
        };
        verdicts.push((
            i,
            answers
                .iter()
                .filter_map(|l| match l {
                    Line::Answer(a) => {
                        answered += 1;
                        verified += usize::from(a.verified);
                        Some((a.algorithm, a.intersecting))
                    }
                    Line::Skipped(_) => None,
                })
                .collect(),
        ));
        for l in &answers {
            let text = match l {
                Line::Answer(a) => to_line(a),
                Line::Skipped(s) => {
                    // A method asked for by name that cannot answer the pair is an error;
                    // under --all it is only noted.
                    if args.selection != Selection::All {
                        errors += 1;
                    }
                    to_line(s)
                }
            };
            writeln!(out, "{text}").map_err(Fatal::output)?;
        }
    }
    out.flush().map_err(Fatal::output)?;
    drop(out);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let unused = scene.unused_bad_shapes();
    for e in &unused {
        eprintln!("error: {e} (this shape is not used by any pair)");
    }
    if args.selection == Selection::All {
        eprintln!("{}", agreement_summary(&verdicts, errors));
        eprintln!("verified: {verified}/{answered} answers carry a certificate that verified");
    }
    if errors > 0 {
        eprintln!(
            "error: {errors} of {} pairs could not be answered (see the \"error\" and \"skipped\" lines)",
            scene.pairs.len()
        );
    }
    Ok(if errors > 0 || !unused.is_empty() {
        exit::INPUT
    } else {
        exit::OK
    })
}

fn show(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "null",
    }
}

/// `agreement: 12/12 pairs, all methods agree on intersecting`, or the list of pairs where
/// they do not.
pub fn agreement_summary(verdicts: &[PairVerdicts], errors: usize) -> String {
    let disagree: Vec<String> = verdicts
        .iter()
        .filter(|(_, v)| {
            // `null` (an approximate method abstaining, or a withdrawn answer) is no vote.
            let votes: Vec<bool> = v.iter().filter_map(|(_, x)| *x).collect();
            votes.windows(2).any(|w| w[0] != w[1])
        })
        .map(|(i, v)| {
            let each: Vec<String> = v.iter().map(|(m, x)| format!("{m}={}", show(*x))).collect();
            format!("pair {i} ({})", each.join(", "))
        })
        .collect();
    let n = verdicts.len();
    let agreeing = n - disagree.len();
    let errs = if errors > 0 {
        format!(" ({errors} pairs with errors not counted)")
    } else {
        String::new()
    };
    if disagree.is_empty() {
        format!("agreement: {agreeing}/{n} pairs, all methods agree on intersecting{errs}")
    } else {
        format!(
            "agreement: {agreeing}/{n} pairs, methods disagree on intersecting for {}{errs}",
            disagree.join("; ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Result<QueryArgs, Fatal> {
        parse_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options() {
        let a = args(&["s.json", "--algorithm=epa", "--contact"]).ok();
        assert_eq!(
            a,
            Some(QueryArgs {
                file: "s.json".into(),
                selection: Selection::One(Method::Epa),
                contact: true,
                force: false
            })
        );
        assert!(args(&["--all", "s.json"]).is_ok_and(|a| a.selection == Selection::All));
        assert!(args(&["s.json", "--algorithm", "nope"]).is_err());
        assert!(args(&["s.json", "--all", "--algorithm", "gjk"]).is_err());
        assert!(args(&["--all"]).is_err());
        assert!(args(&["a", "b"]).is_err());
    }

    #[test]
    fn summary() {
        let v = vec![
            (0, vec![("gjk", Some(true)), ("epa", Some(true))]),
            (2, vec![("gjk", Some(false)), ("epa", None)]),
        ];
        let s = agreement_summary(&v, 1);
        // `null` is no vote: pair 2 agrees.
        assert!(s.starts_with("agreement: 2/2 pairs"), "{s}");
        let v = vec![(
            3,
            vec![("gjk", Some(false)), ("pso", None), ("lp", Some(true))],
        )];
        let s = agreement_summary(&v, 0);
        assert!(s.starts_with("agreement: 0/1 pairs"), "{s}");
        assert!(s.contains("pair 3 (gjk=false, pso=null, lp=true)"), "{s}");
    }
}
