//! The CSV form of two labelled point sets, read with the `csv` crate (RFC 4180).

use super::{check_value, class_of, finish, two, Labelled};
use crate::fields::quote;

/// How to read a CSV file (`convexity separate` options).
#[derive(Clone, Debug, PartialEq)]
pub struct CsvOptions {
    /// The field delimiter (`,` by default).
    pub delimiter: u8,
    /// The label column, by header name or 0-based index; guessed when `None`.
    pub label: Option<String>,
    /// Whether the first row is a header.
    pub header: bool,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            delimiter: b',',
            label: None,
            header: true,
        }
    }
}

/// Names recognised as the label column when every column is numeric.
const LABEL_NAMES: &[&str] = &["label", "labels", "class", "target", "category"];

/// Reads the records (trimmed), with their 1-based line numbers.
fn records(text: &str, opts: &CsvOptions) -> Result<Vec<(u64, Vec<String>)>, String> {
    let mut rdr = ::csv::ReaderBuilder::new()
        .delimiter(opts.delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(::csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for r in rdr.records() {
        let r = r.map_err(|e| match e.position() {
            Some(p) => format!("line {}: {e}", p.line()),
            None => e.to_string(),
        })?;
        if r.iter().all(str::is_empty) {
            continue;
        }
        let line = r.position().map_or(0, |p| p.line());
        out.push((line, r.iter().map(str::to_string).collect()));
    }
    Ok(out)
}

/// The label column: given by the user, or guessed only when unambiguous.
fn label_column(
    header: &[String],
    table: &[(u64, Vec<String>)],
    given: Option<&str>,
) -> Result<usize, String> {
    let names = || {
        header
            .iter()
            .map(|h| quote(h))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(g) = given {
        if let Some(j) = header.iter().position(|h| h == g) {
            return Ok(j);
        }
        return match g.parse::<usize>() {
            Ok(j) if j < header.len() => Ok(j),
            _ => Err(format!(
                "--label {}: no such column (columns: {}; or give a 0-based index below {})",
                quote(g),
                names(),
                header.len()
            )),
        };
    }
    let list = |c: &[usize]| {
        c.iter()
            .map(|&j| format!("{} (index {j})", quote(&header[j])))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ambiguous = |c: &[usize], why: &str| {
        Err(format!(
            "cannot tell which column holds the labels: {why} {}; name it with --label",
            list(c)
        ))
    };
    // Non-numeric entries per column: a typo in a coordinate column is one bad entry, a
    // string label column is all of them.
    let bad: Vec<usize> = (0..header.len())
        .map(|j| {
            table
                .iter()
                .filter(|(_, r)| r[j].parse::<f64>().is_err())
                .count()
        })
        .collect();
    let most = bad.iter().copied().max().unwrap_or(0);
    if most > 0 {
        let c: Vec<usize> = (0..header.len()).filter(|&j| bad[j] == most).collect();
        return match c.as_slice() {
            [j] => Ok(*j),
            _ => ambiguous(&c, "several columns hold non-numbers:"),
        };
    }
    let named: Vec<usize> = (0..header.len())
        .filter(|&j| LABEL_NAMES.contains(&header[j].to_ascii_lowercase().as_str()))
        .collect();
    match named.as_slice() {
        [j] => return Ok(*j),
        [] => {}
        _ => return ambiguous(&named, "several columns have label names:"),
    }
    let two_valued: Vec<usize> = (0..header.len())
        .filter(|&j| {
            let mut seen: Vec<&str> = Vec::new();
            for (_, r) in table {
                if !seen.contains(&r[j].as_str()) {
                    seen.push(&r[j]);
                    if seen.len() > 2 {
                        return false;
                    }
                }
            }
            seen.len() == 2
        })
        .collect();
    match two_valued.as_slice() {
        [j] => Ok(*j),
        [] => Err(format!(
            "cannot tell which column holds the labels: no column has exactly two distinct \
             values (columns: {}); name it with --label",
            names()
        )),
        _ => ambiguous(
            &two_valued,
            "every column is numeric and several hold two values:",
        ),
    }
}

/// Parses the CSV form.
pub fn from_csv(text: &str, opts: &CsvOptions) -> Result<Labelled, String> {
    let mut rows = records(text, opts)?.into_iter();
    let header: Vec<String> = if opts.header {
        let Some((h, header)) = rows.next() else {
            return Err("empty file: expected a header row".to_string());
        };
        if header.iter().all(|f| f.parse::<f64>().is_ok()) {
            return Err(format!(
                "line {h}: the first row {} is all numbers, so it looks like data, not a \
                 header; pass --no-header if the file has no header row",
                quote(&header.join(","))
            ));
        }
        header
    } else {
        Vec::new()
    };
    let table: Vec<(u64, Vec<String>)> = rows.collect();
    let header = if opts.header {
        header
    } else {
        let width = table.first().map_or(0, |(_, r)| r.len());
        (0..width).map(|j| format!("{j}")).collect()
    };
    if header.len() < 2 {
        return Err(format!(
            "the header {} has one field; it must name at least one coordinate column and a \
             label column, separated by {}",
            quote(&header.join(",")),
            quote(&char::from(opts.delimiter).to_string())
        ));
    }
    if let Some((n, r)) = table.iter().find(|(_, r)| r.len() != header.len()) {
        return Err(format!(
            "line {n}: {} fields, but the {} has {}",
            r.len(),
            if opts.header { "header" } else { "first row" },
            header.len()
        ));
    }
    if table.is_empty() {
        return Err("no data rows after the header".into());
    }
    let label_col = label_column(&header, &table, opts.label.as_deref())?;
    split_classes(&header, &table, label_col)
}

/// Reads the coordinates of every row and splits the rows by label.
fn split_classes(
    header: &[String],
    table: &[(u64, Vec<String>)],
    label_col: usize,
) -> Result<Labelled, String> {
    let mut names = Vec::new();
    let mut split = (Vec::new(), Vec::new());
    for (n, row) in table {
        let mut p = Vec::with_capacity(header.len() - 1);
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
            p.push(x);
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
