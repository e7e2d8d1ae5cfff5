//! Two labelled point sets in any dimension, read from JSON or CSV (`convexity separate`).
//!
//! * JSON: `{"a": [[x, y, ...], ...], "b": [[...], ...]}`, or
//!   `{"points": [[...], ...], "labels": [l0, l1, ...]}` with exactly two distinct labels
//!   (strings or numbers).
//! * CSV: a header row, then one row per point. Every column but one holds numbers; the label
//!   column holds exactly two distinct values (strings allowed). When every column is numeric,
//!   the label column is the one named `label`/`class`/`y`, else the last one. Fields may be
//!   double-quoted (RFC 4180 style, `""` for a quote).
//!
//! Every error names the line (CSV) or the JSON path and the offending value.

use crate::fields::{self, describe, quote};

mod csv_input;

use crate::Fatal;
use convexity::error::MAX_MAGNITUDE;
pub use csv_input::{from_csv, CsvOptions};
use serde_json::Value;

/// The two classes, in order of first appearance.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub labels: [String; 2],
    pub a: Vec<Vec<f64>>,
    pub b: Vec<Vec<f64>>,
    /// Names of the coordinate columns (CSV) or `x0, x1, ...` (JSON).
    pub columns: Vec<String>,
}

/// Reads `path` ('-' for standard input); JSON when the first non-blank character is `{` or
/// `[`, CSV otherwise.
pub fn read(path: &str, csv: &CsvOptions) -> Result<Labelled, Fatal> {
    let bytes = crate::input::read_bytes(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Fatal::input(format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            crate::input::display_name(path),
            e.utf8_error().valid_up_to()
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let first = text.trim_start().chars().next();
    let parsed = if matches!(first, Some('{' | '[')) {
        from_json(text)
    } else {
        from_csv(text, csv)
    };
    let name = crate::input::display_name(path);
    parsed.map_err(|e| Fatal::input(format!("{name}: {e}")))
}

/// Parses the JSON forms.
pub fn from_json(text: &str) -> Result<Labelled, String> {
    let v: Value = crate::input::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    let obj = v
        .as_object()
        .ok_or_else(|| "expected a JSON object".to_string())?;
    if let (Some(a), Some(b)) = (obj.get("a"), obj.get("b")) {
        let a = rows(a, "a")?;
        let b = rows(b, "b")?;
        let dim = a.first().or(b.first()).map_or(1, Vec::len);
        same_dim(&a, dim, "a")?;
        same_dim(&b, dim, "b")?;
        return finish(["a".into(), "b".into()], a, b, default_columns(dim));
    }
    let (Some(points), Some(labels)) = (obj.get("points"), obj.get("labels")) else {
        return Err("expected either \"a\" and \"b\", or \"points\" and \"labels\"".to_string());
    };
    let points = rows(points, "points")?;
    same_dim(&points, points.first().map_or(1, Vec::len), "points")?;
    let labels = labels
        .as_array()
        .ok_or_else(|| "labels: expected an array".to_string())?;
    if labels.len() != points.len() {
        return Err(format!(
            "labels: {} labels for {} points",
            labels.len(),
            points.len()
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut split = (Vec::new(), Vec::new());
    for (i, (p, l)) in points.into_iter().zip(labels).enumerate() {
        let name = match l {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(format!(
                    "labels[{i}]: expected a string or number, found {}",
                    describe(other)
                ))
            }
        };
        let class = class_of(&mut names, &name).ok_or_else(|| {
            format!(
                "labels[{i}]: a third distinct label {} (found {} and {})",
                quote(&name),
                quote(&names[0]),
                quote(&names[1])
            )
        })?;
        if class == 0 {
            split.0.push(p);
        } else {
            split.1.push(p);
        }
    }
    let dim = split.0.first().or(split.1.first()).map_or(0, Vec::len);
    finish(two(names)?, split.0, split.1, default_columns(dim))
}

/// An array of points; every coordinate finite and within [`MAX_MAGNITUDE`]. The strings
/// `"NaN"`, `"inf"`, ... are read (and then rejected) so that the message names them.
fn rows(v: &Value, what: &str) -> Result<Vec<Vec<f64>>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("{what}: expected an array of points, found {}", describe(v)))?;
    arr.iter()
        .enumerate()
        .map(|(i, r)| {
            let r = r.as_array().ok_or_else(|| {
                format!(
                    "{what}[{i}]: expected an array of numbers, found {}",
                    describe(r)
                )
            })?;
            r.iter()
                .enumerate()
                .map(|(j, x)| {
                    let at = format!("{what}[{i}][{j}]");
                    let v = fields::number(x, &at).map_err(|e| e.to_string())?;
                    check_value(v).map_err(|why| format!("{at}: value {v} {why}"))?;
                    Ok(v)
                })
                .collect()
        })
        .collect()
}

/// Every row of `rows` has `dim ≥ 1` coordinates; errors name `what[i]`.
fn same_dim(rows: &[Vec<f64>], dim: usize, what: &str) -> Result<(), String> {
    if dim == 0 {
        return Err(format!("{what}[0]: a point needs at least one coordinate"));
    }
    match rows.iter().position(|r| r.len() != dim) {
        Some(i) => Err(format!(
            "{what}[{i}]: expected {dim} coordinates (as in the first point), found {}",
            rows[i].len()
        )),
        None => Ok(()),
    }
}

/// Why a coordinate is unacceptable, if it is.
pub(crate) fn check_value(x: f64) -> Result<(), &'static str> {
    if !x.is_finite() {
        Err("is not finite")
    } else if x.abs() > MAX_MAGNITUDE {
        Err("exceeds the largest accepted magnitude 1e60")
    } else {
        Ok(())
    }
}

/// Index of `name` among the (at most two) labels seen so far; `None` for a third label.
pub(crate) fn class_of(names: &mut Vec<String>, name: &str) -> Option<usize> {
    if let Some(k) = names.iter().position(|n| n == name) {
        return Some(k);
    }
    if names.len() == 2 {
        return None;
    }
    names.push(name.to_string());
    Some(names.len() - 1)
}

pub(crate) fn two(names: Vec<String>) -> Result<[String; 2], String> {
    match <[String; 2]>::try_from(names) {
        Ok(pair) => Ok(pair),
        Err(names) => Err(format!(
            "expected two distinct labels, found {}",
            names.len()
        )),
    }
}

fn default_columns(dim: usize) -> Vec<String> {
    (0..dim).map(|j| format!("x{j}")).collect()
}

pub(crate) fn finish(
    labels: [String; 2],
    a: Vec<Vec<f64>>,
    b: Vec<Vec<f64>>,
    columns: Vec<String>,
) -> Result<Labelled, String> {
    if a.is_empty() || b.is_empty() {
        return Err(format!(
            "class {} has no points",
            quote(if a.is_empty() { &labels[0] } else { &labels[1] })
        ));
    }
    Ok(Labelled {
        labels,
        a,
        b,
        columns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_string_labels_and_quotes() {
        let t = "x,\"y, m\",species\n0,0,setosa\n1,0.5,\"virginica\"\n2,1,setosa\n";
        let l = from_csv(t, &CsvOptions::default()).unwrap();
        assert_eq!(l.labels, ["setosa".to_string(), "virginica".to_string()]);
        assert_eq!(l.a, vec![vec![0.0, 0.0], vec![2.0, 1.0]]);
        assert_eq!(l.b, vec![vec![1.0, 0.5]]);
        assert_eq!(l.columns, vec!["x".to_string(), "y, m".to_string()]);
    }

    #[test]
    fn csv_numeric_labels_use_label_column_or_last() {
        let l = from_csv("label,a,b\n1,0,0\n0,1,1\n", &CsvOptions::default()).unwrap();
        assert_eq!(l.a, vec![vec![0.0, 0.0]]);
        // Every column two-valued: ambiguous, the candidates are listed.
        let e = from_csv("a,b,c\n0,0,7\n1,1,8\n", &CsvOptions::default()).unwrap_err();
        assert!(
            e.contains("\"a\" (index 0), \"b\" (index 1), \"c\" (index 2)"),
            "{e}"
        );
        assert!(e.contains("--label"), "{e}");
        let opts = CsvOptions {
            label: Some("2".into()),
            ..CsvOptions::default()
        };
        let l = from_csv("a,b,c\n0,0,7\n1,1,8\n", &opts).unwrap();
        assert_eq!(l.labels, ["7".to_string(), "8".to_string()]);
        let opts = CsvOptions {
            label: Some("b".into()),
            ..CsvOptions::default()
        };
        let l = from_csv("a,b,c\n0,0,7\n1,1,8\n", &opts).unwrap();
        assert_eq!(l.columns, vec!["a".to_string(), "c".to_string()]);
    }

    #[test]
    fn csv_errors_name_the_line() {
        let e = from_csv("a,b,c\n0,0,x\n1,1,y\n2,2,z\n", &CsvOptions::default()).unwrap_err();
        assert!(e.contains("line 4") && e.contains("third"), "{e}");
        let e = from_csv("a,b,c\n0,0\n", &CsvOptions::default()).unwrap_err();
        assert!(e.starts_with("line 2"), "{e}");
        let e = from_csv("a,b,c\n0,q,x\n1,1,y\n", &CsvOptions::default()).unwrap_err();
        assert!(e.contains("line 2") && e.contains("only one column"), "{e}");
        assert!(from_csv("a,b\n0,x\n1,x\n", &CsvOptions::default())
            .unwrap_err()
            .contains("two distinct"));
    }

    #[test]
    fn json_both_forms() {
        let l = from_json(r#"{"a": [[0, 0]], "b": [[1, 1], [2, 2]]}"#).unwrap();
        assert_eq!(l.b.len(), 2);
        let l = from_json(r#"{"points": [[0], [1], [2]], "labels": ["p", "q", "p"]}"#).unwrap();
        assert_eq!(l.a, vec![vec![0.0], vec![2.0]]);
        let e = from_json(r#"{"a": [[0, "x"]], "b": [[1, 1]]}"#).unwrap_err();
        assert!(e.contains("a[0][1]"), "{e}");
    }

    #[test]
    fn csv_typo_before_the_label_column_is_named_as_the_typo() {
        // Column "a" has one bad entry, "class" has only strings: "class" is the label column.
        let e = from_csv(
            "a,b,class\n0,0,cat\n1o,1,dog\n2,2,cat\n",
            &CsvOptions::default(),
        )
        .unwrap_err();
        assert!(e.starts_with("line 3: column \"a\" holds \"1o\""), "{e}");
        assert!(e.contains("column \"class\" is the label column"), "{e}");
    }

    #[test]
    fn non_finite_and_huge_values_are_rejected_by_position() {
        let e = from_csv("a,b,c\n0,inf,x\n1,1,y\n", &CsvOptions::default()).unwrap_err();
        assert!(e.contains("line 2") && e.contains("not finite"), "{e}");
        let e = from_csv("a,b,c\n0,1e61,x\n1,1,y\n", &CsvOptions::default()).unwrap_err();
        assert!(e.contains("line 2") && e.contains("magnitude"), "{e}");
        let e = from_json(r#"{"a": [[0, 0]], "b": [[1, "-inf"]]}"#).unwrap_err();
        assert!(e.contains("b[0][1]") && e.contains("not finite"), "{e}");
        let e = from_json(r#"{"a": [[]], "b": [[]]}"#).unwrap_err();
        assert!(
            e.contains("a[0]") && e.contains("at least one coordinate"),
            "{e}"
        );
        let e = from_json(r#"{"points": [[0, 1], [2]], "labels": ["p", "q"]}"#).unwrap_err();
        assert!(e.contains("points[1]: expected 2 coordinates"), "{e}");
    }

    #[test]
    fn crlf_blank_lines_and_spaces_are_accepted() {
        let l = from_csv(
            "x , y, tag\r\n\r\n 0, 1 , up\r\n2,3,down\r\n",
            &CsvOptions::default(),
        )
        .unwrap();
        assert_eq!(l.columns, vec!["x".to_string(), "y".to_string()]);
        assert_eq!(l.a, vec![vec![0.0, 1.0]]);
        assert_eq!(l.labels, ["up".to_string(), "down".to_string()]);
    }

    #[test]
    fn csv_header_x_y_class_takes_class_as_the_label_column() {
        // Issue 13, case 3: "y" is a coordinate here; the labels are in "class".
        let t = "x,y,class\n0,0,0\n1,3,0\n5,0,1\n6,2,1\n";
        let l = from_csv(t, &CsvOptions::default()).unwrap();
        assert_eq!(l.columns, vec!["x".to_string(), "y".to_string()]);
        assert_eq!(l.labels, ["0".to_string(), "1".to_string()]);
        assert_eq!(l.a, vec![vec![0.0, 0.0], vec![1.0, 3.0]]);
    }

    #[test]
    fn csv_without_header_is_refused_or_read_with_no_header() {
        // Issue 13, case 3: the first data row is not silently eaten as a header.
        let t = "0,0,a\n1,1,a\n5,5,b\n";
        let e = from_csv("0,0,7\n1,1,7\n5,5,8\n", &CsvOptions::default()).unwrap_err();
        assert!(e.contains("--no-header"), "{e}");
        let opts = CsvOptions {
            header: false,
            ..CsvOptions::default()
        };
        let l = from_csv(t, &opts).unwrap();
        assert_eq!(l.a.len() + l.b.len(), 3);
        assert_eq!(l.a, vec![vec![0.0, 0.0], vec![1.0, 1.0]]);
    }

    #[test]
    fn csv_quoted_newlines_and_other_delimiters() {
        let t = "x;y;\"kind\nof thing\"\n0;0;\"two\nlines\"\n1;1;one\n";
        let opts = CsvOptions {
            delimiter: b';',
            ..CsvOptions::default()
        };
        let l = from_csv(t, &opts).unwrap();
        assert_eq!(l.labels, ["two\nlines".to_string(), "one".to_string()]);
        // A row after a quoted newline is numbered by its real line.
        let e = from_csv(
            "x,y,c\n0,0,\"a\nb\"\n1,q,c\n2,2,c\n",
            &CsvOptions::default(),
        )
        .unwrap_err();
        assert!(e.starts_with("line 4"), "{e}");
    }
}
