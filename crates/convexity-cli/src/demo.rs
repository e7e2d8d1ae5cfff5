//! `convexity demo`: every method on a built-in collection, cross-checked and tabulated.
//!
//! For each pair of [`cases::collection`] and each method of [`Method::ALL`] the demo runs the
//! query (timing it over several repetitions), checks the answer's certificate with
//! [`convexity::verify`], and compares the answer with the other methods' answers and with the
//! truth known by construction. It prints one table row per shape family and method:
//!
//! * `agree`: pairs where the method's verdict matches every other method and the truth, and
//!   its distance matches theirs (inside the tolerance band around touching, where either
//!   verdict is right, a verdict agrees when its certificate checks out);
//! * `certified`: answers whose certificate `convexity::verify` accepts, at the tolerance
//!   `convexity::gjk::certificate::tolerance_for` gives for the pair (undetermined answers carry
//!   none and are counted under `undet`);
//! * `µs/query`: mean wall time of one query;
//! * `worst error`: the largest deviation from the exact distance, penetration depth or
//!   reference points, where the pair has one.
//!
//! Adding a method to `Method::ALL` adds its rows here with no change to this file.

pub mod cases;
mod judge;
pub mod ndim;
pub mod polygons;

use crate::{emit, exit, Fatal};
use cases::{Case, Regime};
use convexity::query::Method;
use judge::{judge, run_case, Answer, Judgement};
use std::fmt::Write as _;
use std::time::Instant;

/// Aggregates of one table row.
#[derive(Clone, Debug, Default)]
struct Row {
    pairs: usize,
    agree: usize,
    certified: usize,
    with_certificate: usize,
    undetermined: usize,
    micros: f64,
    worst: Option<f64>,
    error_too_large: bool,
}

impl Row {
    fn ok(&self) -> bool {
        self.agree == self.pairs && self.certified == self.with_certificate && !self.error_too_large
    }
}

fn fmt_err(e: Option<f64>) -> String {
    match e {
        None => "-".into(),
        Some(0.0) => "0".into(),
        Some(e) => format!("{e:.1e}"),
    }
}

fn fmt_point(p: &Option<Vec<f64>>) -> String {
    match p {
        None => "-".into(),
        Some(p) => {
            let c: Vec<String> = p
                .iter()
                .map(|x| {
                    let r = if x.abs() < 5e-13 { 0.0 } else { *x };
                    format!("{r:.6}")
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                        .to_string()
                })
                .collect();
            format!("({})", c.join(", "))
        }
    }
}

fn verdict_word(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "intersecting",
        Some(false) => "separated",
        None => "undetermined",
    }
}

/// A case with each method's answer and its judgement.
type Checked<'c> = (&'c Case, Vec<(Method, Answer)>, Vec<Judgement>);

/// Runs the demo, drawing the 2D picture to `svg` (or the default place,
/// `demo_picture_path`); returns the exit status.
pub fn run(svg: Option<&str>) -> Result<i32, Fatal> {
    let started = Instant::now();
    let cases = cases::collection().map_err(|e| Fatal {
        message: format!("demo: could not build the collection: {e}"),
        code: exit::INTERNAL,
        show_usage: false,
    })?;
    // Approximate methods (PSO, penalty) have their own section with their error figures;
    // the cross-check table holds the exact ones to exact tolerances.
    let methods: Vec<Method> = Method::ALL
        .iter()
        .copied()
        .filter(|m| !m.is_approximate())
        .collect();
    let mut families: Vec<&'static str> = Vec::new();
    for c in &cases {
        if !families.contains(&c.family) {
            families.push(c.family);
        }
    }
    let mut rows: Vec<Vec<Row>> = vec![vec![Row::default(); methods.len()]; families.len()];
    let mut notes: Vec<String> = Vec::new();
    let mut infos: Vec<String> = Vec::new();
    let mut references: Vec<Checked> = Vec::new();
    let mut band_pairs = 0;
    let mut answered = 0usize;
    for case in &cases {
        let answers: Vec<(Method, Answer)> = methods
            .iter()
            .filter_map(|&m| run_case(case, m).map(|a| (m, a)))
            .collect();
        let judgements: Vec<Judgement> = (0..answers.len())
            .map(|k| judge(case, &answers, k))
            .collect();
        if case.truth.intersecting.is_none() {
            band_pairs += 1;
        }
        let f = families.iter().position(|f| *f == case.family).unwrap_or(0);
        for ((m, ans), j) in answers.iter().zip(&judgements) {
            let k = methods.iter().position(|x| x == m).unwrap_or(0);
            answered += 1;
            let row = &mut rows[f][k];
            row.pairs += 1;
            row.agree += usize::from(j.agrees);
            match &ans.certificate {
                None => row.undetermined += 1,
                Some(r) => {
                    row.with_certificate += 1;
                    row.certified += usize::from(r.is_ok());
                }
            }
            row.micros += ans.micros;
            if let Some(e) = j.error {
                row.worst = Some(row.worst.map_or(e, |w: f64| w.max(e)));
            }
            row.error_too_large |= j.error_too_large;
            notes.extend(j.notes.iter().cloned());
            infos.extend(j.info.iter().cloned());
        }
        if case.regime == Regime::Reference {
            references.push((case, answers, judgements));
        }
    }

    // The report is assembled first and written once, so that a closed pipe is an error
    // to report, not a panic in println!.
    let mut out = String::new();
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(out, $($t)*);
        }};
    }
    let names: Vec<&str> = methods.iter().map(|m| m.name()).collect();
    say!(
        "convexity demo: {} pairs in {} shape families (deep, touching, near-touching and far \
         pairs,\nplus analytic penetration depths and the reference tetrahedra), {} methods: {}\n",
        cases.len(),
        families.len(),
        methods.len(),
        names.join(", ")
    );
    let mw = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let fw = families.iter().map(|f| f.len()).max().unwrap_or(6).max(6);
    say!(
        "{:<fw$}  {:<mw$}  {:>5}  {:>9}  {:>9}  {:>5}  {:>8}  {:>11}",
        "family",
        "method",
        "pairs",
        "agree",
        "certified",
        "undet",
        "µs/query",
        "worst error"
    );
    say!("{}", "-".repeat(fw + mw + 64));
    let mut failed_rows = 0;
    for (f, family) in families.iter().enumerate() {
        let mut first = true;
        for (k, row) in rows[f].iter().enumerate() {
            if row.pairs == 0 {
                // The method does not apply to this family (curved shapes, 2D, ...).
                continue;
            }
            let label = if first { *family } else { "" };
            first = false;
            let status = if row.ok() {
                "ok"
            } else {
                failed_rows += 1;
                "FAIL"
            };
            say!(
                "{:<fw$}  {:<mw$}  {:>5}  {:>9}  {:>9}  {:>5}  {:>8.2}  {:>11}  {status}",
                label,
                names[k],
                row.pairs,
                format!("{}/{}", row.agree, row.pairs),
                format!("{}/{}", row.certified, row.with_certificate),
                row.undetermined,
                row.micros / row.pairs.max(1) as f64,
                fmt_err(row.worst),
            );
        }
    }

    say!("\nreference tetrahedra, A = (0,1,0), (1,0,0), (0,0,1), (0,0,0):");
    let mut reference_ok = true;
    for (case, answers, judgements) in &references {
        let t = &case.truth;
        let expect = match (t.intersecting, &t.points) {
            (Some(false), Some((pa, pb))) => format!(
                "separated, distance {}, closest points {} and {}",
                t.distance.unwrap_or(f64::NAN),
                fmt_point(&Some(pa.clone())),
                fmt_point(&Some(pb.clone()))
            ),
            (_, Some((pa, _))) => format!(
                "intersecting (touching), distance 0, common point {}",
                fmt_point(&Some(pa.clone()))
            ),
            _ => verdict_word(t.intersecting).to_string(),
        };
        say!("  {}\n    expected: {expect}", case.name);
        for ((m, a), j) in answers.iter().zip(judgements) {
            let ok =
                j.agrees && !j.error_too_large && a.certificate.as_ref().is_none_or(|r| r.is_ok());
            reference_ok &= ok;
            let mut got = verdict_word(a.intersecting).to_string();
            if let Some(d) = a.distance {
                got.push_str(&format!(", distance {d}"));
            }
            if let Some(d) = a.depth {
                got.push_str(&format!(", depth {d}"));
            }
            if a.point_a.is_some() {
                got.push_str(&format!(
                    ", points {} {}",
                    fmt_point(&a.point_a),
                    fmt_point(&a.point_b)
                ));
            }
            let cert = match &a.certificate {
                Some(Ok(())) => "certificate ok",
                Some(Err(_)) => "certificate REJECTED",
                None => "no certificate",
            };
            say!(
                "    {:<mw$}  {got}; {cert}  {}",
                m.name(),
                if ok { "ok" } else { "FAIL" }
            );
        }
    }

    say!(
        "\nagree: the verdict and distance match the other methods and the construction ({band_pairs} \
         pairs lie\n  within the touching tolerance, where either verdict is right if its certificate \
         checks out);\ncertified: convexity::verify accepts the answer's certificate;\nundet: no \
         verdict proved, allowed only for touching and near-touching pairs (the distance\n  is then \
         an upper bound: its error is shown but not checked);\nworst error: against the exact \
         distance, penetration depth or reference points;\nµs/query: vclip, boundary and sat on hulls build the hulls of the vertex sets on every \
         call, and lp/gjk-nd copy the\n  vertices: their times include that (see bench-results/ for the algorithms alone)."
    );
    if !infos.is_empty() {
        say!("\nundetermined answers (allowed at touching distance):");
        for n in &infos {
            say!("  {n}");
        }
    }
    if !notes.is_empty() {
        say!("\nproblems ({}):", notes.len());
        const SHOWN: usize = 40;
        for n in notes.iter().take(SHOWN) {
            say!("  {n}");
        }
        if notes.len() > SHOWN {
            say!("  … and {} more", notes.len() - SHOWN);
        }
    }
    let (nd_text, nd_ok) = ndim::section();
    out.push_str(&nd_text);
    let svg_path = svg.map_or_else(demo_picture_path, std::path::PathBuf::from);
    let (text, polygons_ok) = polygons::section(&svg_path);
    say!("{text}picture: {}", svg_path.display());
    let answers = answered;
    let secs = started.elapsed().as_secs_f64();
    if failed_rows == 0 && reference_ok && nd_ok && polygons_ok {
        let undet = if infos.is_empty() {
            String::new()
        } else {
            format!(
                ", {} of them undetermined at touching distance",
                infos.len()
            )
        };
        say!(
            "\ndemo: OK: {answers} answers{undet}; no method disagrees and every certificate \
             checks out ({secs:.2} s)"
        );
        finish(&out, exit::OK)
    } else {
        say!(
            "\ndemo: FAILED: {failed_rows} of {} rows disagree or fail a check{} ({secs:.2} s)",
            rows.iter().flatten().filter(|r| r.pairs > 0).count(),
            if reference_ok {
                ""
            } else {
                "; the reference tetrahedra are answered wrongly"
            }
        );
        finish(&out, exit::CHECK_FAILED)
    }
}

/// Where the demo's picture goes: `$CARGO_TARGET_DIR` or `./target` when there is one (the
/// README's command runs from the workspace root), else the system's temporary directory, so
/// that a run from another directory never writes into a source tree.
fn demo_picture_path() -> std::path::PathBuf {
    let name = "convexity-demo.svg";
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").map(std::path::PathBuf::from) {
        if dir.is_dir() {
            return dir.join(name);
        }
    }
    let local = std::path::Path::new("target");
    if local.is_dir() {
        return local.join(name);
    }
    std::env::temp_dir().join(name)
}

/// Writes the report; a reader that went away does not change the verdict's exit status.
fn finish(report: &str, code: i32) -> Result<i32, Fatal> {
    match emit(report) {
        Err(f) if f.code != exit::OK => Err(f),
        _ => Ok(code),
    }
}

/// `yes`, `no` or `undetermined`, for the report.
pub fn yes_no(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "yes",
        Some(false) => "no",
        None => "undetermined",
    }
}
