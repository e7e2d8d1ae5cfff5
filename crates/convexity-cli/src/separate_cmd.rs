//! `convexity separate FILE`: linear separability of two labelled point sets in any dimension.
//!
//! Reads the two classes ([`crate::labelled`]: JSON or CSV), runs
//! [`convexity::nd::separate()`] (the maximum-margin hyperplane is the perpendicular bisector
//! of the closest pair of the two hulls, found by n-D GJK), checks the certificate with
//! [`convexity::nd::points::verify_n`] before printing, and writes one JSON object to standard
//! output and one human-readable line to standard error.
//!
//! Output fields: `result` (`"separable"`, `"overlapping"` or `"undetermined"`), `separable`
//! (true/false/null), `dim`, `labels` (class A first, in order of first appearance), `counts`,
//! `margin` (half the distance between the hulls; 0 when overlapping), `distance`,
//! `hyperplane` `{w, c}` (unit `w` from A toward B; `w·x ≤ c − margin` on A and
//! `w·x ≥ c + margin` on B), `point_a`/`point_b` (closest points), `certificate` (either
//! `{"separating_axis": n, "gap": gap}` (the form every command uses) with `max_A n·x + gap ≤ min_B n·x`, or
//! `{"common_point", "weights_a", "weights_b"}` with `[index within its class, weight]`
//! pairs), `certificate_checked` and `tolerance` (the absolute tolerance of the check).
//!
//! Exit status: 0 answered and certified; 1 no answer proved or the certificate was rejected
//! (the object is still printed); 2 bad usage or bad input (the message names the line and
//! column, or the JSON path).

use crate::labelled::{self, Labelled};
use crate::{emit, exit, Fatal};
use convexity::nd::gjk::default_tolerance;
use convexity::nd::points::{verify_n, CommonPointN, PointsN, SeparatingHyperplane, VerdictN};
use convexity::nd::{separate, Separation};
use serde::Serialize;
use serde_json::{json, Value};

/// Relative tolerance of the n-D GJK run inside `nd::separate` (its default).
const REL_TOLERANCE: f64 = 1e-10;

/// The input format, shown by `convexity separate --help`.
pub const FORMAT_HELP: &str = "\
INPUT: two labelled point sets in any dimension, JSON or CSV.
  JSON: {\"a\": [[x, y, ...], ...], \"b\": [[...], ...]}
     or {\"points\": [[...], ...], \"labels\": [l0, l1, ...]} with two distinct labels.
  CSV (RFC 4180: quoted fields, quoted newlines): a header row (or none with --no-header),
  one row per point; every column but the label column holds numbers. The label column is
  --label NAME|INDEX (0-based), else guessed only when unambiguous: the one non-numeric
  column; else the one named label/labels/class/target/category; else the one column with
  exactly two distinct values. Otherwise an error lists the candidates.

OUTPUT: one JSON object on standard output (result, separable, dim, labels, counts, margin,
  distance, hyperplane {w, c}, point_a, point_b, certificate, certificate_checked,
  tolerance); a one-line summary on standard error.

EXIT STATUS: 0 answered and certified; 1 no answer could be proved or the certificate was
  rejected; 2 bad usage or bad input; 74 the output could not be written.";

/// Options of `convexity separate`.
#[derive(clap::Args, Clone, Debug)]
pub struct SeparateArgs {
    /// The point sets (JSON or CSV); '-' reads standard input
    pub file: String,
    /// CSV field delimiter (one ASCII character; "tab" or "\t" for a tab)
    #[arg(long, value_name = "CHAR", default_value = ",", value_parser = parse_delimiter)]
    pub delimiter: u8,
    /// The CSV label column, by header name or 0-based index
    #[arg(long, value_name = "NAME|INDEX")]
    pub label: Option<String>,
    /// The CSV file has no header row (the first row is data)
    #[arg(long)]
    pub no_header: bool,
}

fn parse_delimiter(s: &str) -> Result<u8, String> {
    match s {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => Ok(s.as_bytes()[0]),
        _ => Err(format!(
            "the delimiter must be one ASCII character, not {}",
            crate::fields::quote(s)
        )),
    }
}

/// Runs the command; returns the exit status.
pub fn run(args: &SeparateArgs) -> Result<i32, Fatal> {
    let file = &args.file;
    let csv = labelled::CsvOptions {
        delimiter: args.delimiter,
        label: args.label.clone(),
        header: !args.no_header,
    };
    let data = labelled::read(file, &csv)?;
    let (report, code) = answer(&data).map_err(|e| Fatal::input(format!("{file}: {e}")))?;
    // (`answer` fails only on data the reader let through, e.g. a mixed dimension.)
    emit(&format!("{}\n", crate::output::to_line(&report.json)))?;
    eprintln!("{}", report.summary);
    Ok(code)
}

/// The printed answer.
pub struct Report {
    pub json: Value,
    pub summary: String,
}

#[derive(Serialize)]
struct Hyperplane {
    w: Vec<f64>,
    c: f64,
}

/// −0 printed as 0.
fn clean(v: &[f64]) -> Vec<f64> {
    v.to_vec()
}

fn weights(w: &[(usize, f64)]) -> Value {
    Value::Array(w.iter().map(|&(i, x)| json!([i, x])).collect())
}

/// Separates the two classes of `data` and builds the report and the exit status. Errors are
/// input errors (only possible for data the reader let through, e.g. a mixed dimension).
pub fn answer(data: &Labelled) -> Result<(Report, i32), String> {
    let a = PointsN::from_rows(&data.a)
        .map_err(|e| format!("class {}: {e}", quoted(&data.labels[0])))?;
    let b = PointsN::from_rows(&data.b)
        .map_err(|e| format!("class {}: {e}", quoted(&data.labels[1])))?;
    if a.dim() != b.dim() {
        return Err(format!(
            "class {} has {} coordinates per point but class {} has {}",
            quoted(&data.labels[0]),
            a.dim(),
            quoted(&data.labels[1]),
            b.dim()
        ));
    }
    let sep = separate(&a, &b).map_err(|e| e.to_string())?;
    let base_tol = default_tolerance(&a, &b, REL_TOLERANCE);
    let names = format!(
        "{} ({} points) and {} ({} points) in {} dimensions",
        quoted(&data.labels[0]),
        a.len(),
        quoted(&data.labels[1]),
        b.len(),
        a.dim()
    );
    let mut obj = serde_json::Map::new();
    obj.insert("dim".into(), json!(a.dim()));
    obj.insert("labels".into(), json!(data.labels));
    obj.insert("counts".into(), json!([a.len(), b.len()]));
    obj.insert("columns".into(), json!(data.columns));
    let (verdict, tol) = match &sep {
        Separation::Separable {
            margin,
            certificate,
            ..
        } => (
            VerdictN::Separated(certificate.clone()),
            base_tol.max(2.0 * margin * REL_TOLERANCE),
        ),
        Separation::Overlapping {
            common_point,
            weights_a,
            weights_b,
        } => (
            VerdictN::Intersecting(CommonPointN {
                point: common_point.clone(),
                weights_a: weights_a.clone(),
                weights_b: weights_b.clone(),
            }),
            base_tol,
        ),
        Separation::Undetermined { .. } => (VerdictN::Undetermined, base_tol),
    };
    let check = verify_n(&verdict, &a, &b, tol);
    let checked = check.is_ok();
    let mut put = |k: &str, v: Value| {
        obj.insert(k.to_string(), v);
    };
    let summary = match &sep {
        Separation::Separable {
            normal,
            offset,
            margin,
            certificate,
            point_a,
            point_b,
        } => {
            put("result", json!("separable"));
            put("separable", json!(true));
            put("status", json!("converged"));
            put("margin", json!(margin));
            put("distance", json!(2.0 * margin));
            put(
                "hyperplane",
                json!(Hyperplane {
                    w: clean(normal),
                    c: *offset
                }),
            );
            put("point_a", json!(clean(point_a)));
            put("point_b", json!(clean(point_b)));
            put("certificate", hyperplane_json(certificate));
            format!(
                "separable: {names}; margin {} (distance {}); hyperplane w·x = c with c = {}, \
                 w = {}",
                num(*margin),
                num(2.0 * margin),
                num(*offset),
                short(normal)
            )
        }
        Separation::Overlapping {
            common_point,
            weights_a,
            weights_b,
        } => {
            put("result", json!("overlapping"));
            put("separable", json!(false));
            put("status", json!("converged"));
            put("margin", json!(0.0));
            put("distance", json!(0.0));
            put("hyperplane", Value::Null);
            put(
                "certificate",
                json!({
                    "common_point": clean(common_point),
                    "weights_a": weights(weights_a),
                    "weights_b": weights(weights_b),
                }),
            );
            format!(
                "overlapping: {names}; the hulls share the point {}",
                short(common_point)
            )
        }
        Separation::Undetermined { status } => {
            put("result", json!("undetermined"));
            put("separable", Value::Null);
            put("status", json!(status.as_str()));
            put("certificate", Value::Null);
            format!(
                "undetermined: {names}; no answer proved (status {})",
                status.as_str()
            )
        }
    };
    put("certificate_checked", json!(checked));
    put("tolerance", json!(tol));
    let (summary, code) = match (&sep, check) {
        (Separation::Undetermined { .. }, _) => (summary, exit::CHECK_FAILED),
        (_, Ok(())) => (
            format!("{summary}; certificate checked by verify_n (tolerance {tol:.1e})"),
            exit::OK,
        ),
        (_, Err(e)) => (
            format!("{summary}; CERTIFICATE REJECTED by verify_n: {e}"),
            exit::CHECK_FAILED,
        ),
    };
    Ok((
        Report {
            json: Value::Object(obj),
            summary,
        },
        code,
    ))
}

fn hyperplane_json(h: &SeparatingHyperplane) -> Value {
    json!({"separating_axis": clean(&h.normal), "gap": h.gap})
}

/// A number for the summary line: plain in [1e-4, 1e9), else in exponent form.
fn num(x: f64) -> String {
    let x = x + 0.0;
    if x == 0.0 || (1e-4..1e9).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

fn quoted(s: &str) -> String {
    crate::fields::quote(s)
}

/// A vector for the summary line: all coordinates up to 6, else the first 6 and a count.
fn short(v: &[f64]) -> String {
    const SHOWN: usize = 6;
    let mut parts: Vec<String> = v
        .iter()
        .take(SHOWN)
        .map(|x| format!("{:.4}", x + 0.0))
        .collect();
    if v.len() > SHOWN {
        parts.push(format!("… ({} coordinates)", v.len()));
    }
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(a: Vec<Vec<f64>>, b: Vec<Vec<f64>>) -> Labelled {
        Labelled {
            labels: ["p".into(), "q".into()],
            columns: vec![],
            a,
            b,
        }
    }

    #[test]
    fn separable_squares_have_margin_half_the_gap() {
        let (r, code) = answer(&data(
            vec![
                vec![0.0, 0.0],
                vec![1.0, 0.0],
                vec![0.0, 1.0],
                vec![1.0, 1.0],
            ],
            vec![vec![3.0, 0.0], vec![4.0, 1.0], vec![3.0, 1.0]],
        ))
        .unwrap();
        assert_eq!(code, exit::OK);
        assert_eq!(r.json["result"], "separable");
        let m = r.json["margin"].as_f64().unwrap();
        assert!((m - 1.0).abs() < 1e-9, "{m}");
        let c = r.json["hyperplane"]["c"].as_f64().unwrap();
        assert!((c - 2.0).abs() < 1e-9, "{c}");
        assert_eq!(r.json["certificate_checked"], true);
    }

    #[test]
    fn shared_vertex_overlaps() {
        let (r, code) = answer(&data(
            vec![vec![0.0, 0.0], vec![1.0, 0.0]],
            vec![vec![1.0, 0.0], vec![2.0, 1.0]],
        ))
        .unwrap();
        assert_eq!(code, exit::OK);
        assert_eq!(r.json["separable"], false);
        assert!(r.summary.contains("certificate checked"));
    }
}
