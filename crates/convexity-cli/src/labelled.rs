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
use crate::Fatal;
use convexity::error::MAX_MAGNITUDE;
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
pub fn read(path: &str) -> Result<Labelled, Fatal> {
    let text = if path == "-" {
        let mut buf = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut buf)
            .map_err(|e| Fatal::input(format!("cannot read standard input: {e}")))?;
        buf
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Fatal::input(format!("cannot read {path}: {e}")))?
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let first = text.trim_start().chars().next();
    let parsed = if matches!(first, Some('{' | '[')) {
        from_json(text)
    } else {
        from_csv(text)
    };
    let name = if path == "-" { "standard input" } else { path };
    parsed.map_err(|e| Fatal::input(format!("{name}: {e}")))
}

/// Parses the JSON forms.
pub fn from_json(text: &str) -> Result<Labelled, String> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| format!("malformed JSON at line {}, column {}", e.line(), e.column()))?;
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
fn check_value(x: f64) -> Result<(), &'static str> {
    if !x.is_finite() {
        Err("is not finite")
    } else if x.abs() > MAX_MAGNITUDE {
        Err("exceeds the largest accepted magnitude 1e60")
    } else {
        Ok(())
    }
}

/// Index of `name` among the (at most two) labels seen so far; `None` for a third label.
fn class_of(names: &mut Vec<String>, name: &str) -> Option<usize> {
    if let Some(k) = names.iter().position(|n| n == name) {
        return Some(k);
    }
    if names.len() == 2 {
        return None;
    }
    names.push(name.to_string());
    Some(names.len() - 1)
}

fn two(names: Vec<String>) -> Result<[String; 2], String> {
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

fn finish(
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

/// Splits one CSV line into fields, honouring double quotes.
fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => cur.push(c),
            (false, '"') if cur.trim().is_empty() => {
                cur.clear();
                quoted = true;
            }
            (false, ',') => fields.push(std::mem::take(&mut cur).trim().to_string()),
            (false, c) => cur.push(c),
        }
    }
    if quoted {
        return Err("unterminated quoted field".to_string());
    }
    fields.push(cur.trim().to_string());
    Ok(fields)
}

/// Parses the CSV form.
pub fn from_csv(text: &str) -> Result<Labelled, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((h, header)) = lines.next() else {
        return Err("empty file: expected a header row".to_string());
    };
    let header = split_csv(header).map_err(|e| format!("line {}: {e}", h + 1))?;
    if header.len() < 2 {
        return Err(format!(
            "line {}: the header {} has one field; it must name at least one coordinate \
             column and a label column, separated by commas",
            h + 1,
            quote(&header.join(","))
        ));
    }
    let mut table: Vec<(usize, Vec<String>)> = Vec::new();
    for (n, line) in lines {
        let fields = split_csv(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        if fields.len() != header.len() {
            return Err(format!(
                "line {}: {} fields, but the header has {}",
                n + 1,
                fields.len(),
                header.len()
            ));
        }
        table.push((n + 1, fields));
    }
    if table.is_empty() {
        return Err("no data rows after the header".into());
    }
    let bad_count = |j: usize| {
        table
            .iter()
            .filter(|(_, r)| r[j].parse::<f64>().is_err())
            .count()
    };
    let counts: Vec<usize> = (0..header.len()).map(bad_count).collect();
    let named = |j: usize| {
        matches!(
            header[j].to_ascii_lowercase().as_str(),
            "label" | "class" | "y"
        )
    };
    // The label column: the one with the most non-numeric entries (a typo in a coordinate
    // column is one bad entry, a string label column is all of them); when every column is
    // numeric, the one named label/class/y, else the last.
    let label_col = match counts.iter().copied().max() {
        Some(m) if m > 0 => (0..header.len())
            .filter(|&j| counts[j] == m)
            .max_by_key(|&j| (named(j), j))
            .unwrap_or(header.len() - 1),
        _ => (0..header.len())
            .find(|&j| named(j))
            .unwrap_or(header.len() - 1),
    };
    for (n, row) in &table {
        for (j, f) in row.iter().enumerate() {
            if j == label_col {
                continue;
            }
            let x = f.parse::<f64>().map_err(|_| {
                format!(
                    "line {n}: column {} holds {}, which is not a number (column {} is the \
                     label column; only one column may hold labels)",
                    quote(&header[j]),
                    quote(f),
                    quote(&header[label_col])
                )
            })?;
            check_value(x).map_err(|why| {
                format!(
                    "line {n}: column {}: value {} {why}",
                    quote(&header[j]),
                    quote(f)
                )
            })?;
        }
    }
    let mut names = Vec::new();
    let mut split = (Vec::new(), Vec::new());
    for (n, row) in &table {
        let mut p = Vec::with_capacity(header.len() - 1);
        for (j, f) in row.iter().enumerate() {
            if j == label_col {
                continue;
            }
            // Every column but the label column parsed for every row (checked above).
            p.push(f.parse::<f64>().unwrap_or(0.0));
        }
        let class = class_of(&mut names, &row[label_col]).ok_or_else(|| {
            format!(
                "line {n}: a third distinct label {} in column {} (found {} and {})",
                quote(&row[label_col]),
                quote(&header[label_col]),
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
    let columns = header
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != label_col)
        .map(|(_, h)| h.clone())
        .collect();
    finish(two(names)?, split.0, split.1, columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_string_labels_and_quotes() {
        let t = "x,\"y, m\",species\n0,0,setosa\n1,0.5,\"virginica\"\n2,1,setosa\n";
        let l = from_csv(t).unwrap();
        assert_eq!(l.labels, ["setosa".to_string(), "virginica".to_string()]);
        assert_eq!(l.a, vec![vec![0.0, 0.0], vec![2.0, 1.0]]);
        assert_eq!(l.b, vec![vec![1.0, 0.5]]);
        assert_eq!(l.columns, vec!["x".to_string(), "y, m".to_string()]);
    }

    #[test]
    fn csv_numeric_labels_use_label_column_or_last() {
        let l = from_csv("label,a,b\n1,0,0\n0,1,1\n").unwrap();
        assert_eq!(l.a, vec![vec![0.0, 0.0]]);
        let l = from_csv("a,b,c\n0,0,7\n1,1,8\n").unwrap();
        assert_eq!(l.labels, ["7".to_string(), "8".to_string()]);
    }

    #[test]
    fn csv_errors_name_the_line() {
        let e = from_csv("a,b,c\n0,0,x\n1,1,y\n2,2,z\n").unwrap_err();
        assert!(e.contains("line 4") && e.contains("third"), "{e}");
        let e = from_csv("a,b,c\n0,0\n").unwrap_err();
        assert!(e.starts_with("line 2"), "{e}");
        let e = from_csv("a,b,c\n0,q,x\n1,1,y\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("only one column"), "{e}");
        assert!(from_csv("a,b\n0,x\n1,x\n")
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
        let e = from_csv("a,b,class\n0,0,cat\n1o,1,dog\n2,2,cat\n").unwrap_err();
        assert!(e.starts_with("line 3: column \"a\" holds \"1o\""), "{e}");
        assert!(e.contains("column \"class\" is the label column"), "{e}");
    }

    #[test]
    fn non_finite_and_huge_values_are_rejected_by_position() {
        let e = from_csv("a,b,c\n0,inf,x\n1,1,y\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("not finite"), "{e}");
        let e = from_csv("a,b,c\n0,1e61,x\n1,1,y\n").unwrap_err();
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
        let l = from_csv("x , y, tag\r\n\r\n 0, 1 , up\r\n2,3,down\r\n").unwrap();
        assert_eq!(l.columns, vec!["x".to_string(), "y".to_string()]);
        assert_eq!(l.a, vec![vec![0.0, 1.0]]);
        assert_eq!(l.labels, ["up".to_string(), "down".to_string()]);
    }
}
