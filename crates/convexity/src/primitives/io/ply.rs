//! PLY (ASCII, binary little- and big-endian) through `ply-rs`. The header is checked first by
//! a scan of our own (magic line, format, element counts that fit the file, properties after an
//! element) so that a header error names its line and no count can make the parser loop or
//! allocate past the file's size. Vertices are the `vertex` element's `x`, `y`, `z`; faces the
//! `face` element's `vertex_indices` (or `vertex_index`) list.

use glam::DVec3;
use ply_rs::parser::Parser;
use ply_rs::ply::{DefaultElement, Property};

use super::{IoError, IoErrorKind, Location, Raw};

fn parse_error(name: &str, line: usize, problem: impl Into<String>) -> IoError {
    IoError::new(
        name,
        IoErrorKind::Parse,
        Some(Location::line(line)),
        problem,
    )
}

/// What the header scan learnt: whether the payload is ASCII, the line the payload starts on,
/// and the elements in order with their counts.
struct Header {
    ascii: bool,
    body_line: usize,
    elements: Vec<(String, usize)>,
}

fn scan_header(bytes: &[u8], name: &str) -> Result<Header, IoError> {
    let mut h = Header {
        ascii: false,
        body_line: 0,
        elements: Vec::new(),
    };
    let mut format_seen = false;
    let mut pos = 0usize;
    let mut ln = 0usize;
    loop {
        ln += 1;
        let Some(end) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            return Err(parse_error(name, ln, "the header has no `end_header` line"));
        };
        let raw = &bytes[pos..pos + end];
        pos += end + 1;
        let Ok(line) = std::str::from_utf8(raw) else {
            return Err(parse_error(name, ln, "header line is not text"));
        };
        let line = line.trim_end_matches('\r');
        let words: Vec<&str> = line.split_whitespace().collect();
        if ln == 1 {
            if line != "ply" {
                return Err(parse_error(name, ln, "a PLY file starts with a line `ply`"));
            }
            continue;
        }
        match words.first().copied() {
            Some("format") => {
                // The version's numbers must fit the parser's counter type (it unwraps them).
                let version_ok = words.get(2).is_some_and(|v| {
                    v.split_once('.')
                        .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok())
                });
                let ok = words.len() == 3
                    && version_ok
                    && matches!(
                        words[1],
                        "ascii" | "binary_little_endian" | "binary_big_endian"
                    );
                if !ok {
                    return Err(parse_error(
                        name,
                        ln,
                        format!("unknown format line {line:?}"),
                    ));
                }
                h.ascii = words[1] == "ascii";
                format_seen = true;
            }
            Some("element") => {
                let count = (words.len() == 3)
                    .then(|| words[2].parse::<usize>().ok())
                    .flatten()
                    .filter(|&c| c <= bytes.len());
                let Some(count) = count else {
                    return Err(parse_error(
                        name,
                        ln,
                        format!(
                            "`element NAME COUNT` with a count that fits the file's {} bytes, \
                             found {line:?}",
                            bytes.len()
                        ),
                    ));
                };
                h.elements.push((words[1].to_string(), count));
            }
            Some("property") if h.elements.is_empty() => {
                return Err(parse_error(name, ln, "a property before any element"));
            }
            Some("end_header") => {
                if !format_seen {
                    return Err(parse_error(name, ln, "the header has no format line"));
                }
                let total: usize = h.elements.iter().map(|e| e.1).sum();
                if total > bytes.len() {
                    return Err(parse_error(
                        name,
                        ln,
                        format!("the header declares {total} elements, more than the file's bytes"),
                    ));
                }
                h.body_line = ln + 1;
                return Ok(h);
            }
            _ => {}
        }
    }
}

fn scalar(p: &Property) -> Option<f64> {
    Some(match *p {
        Property::Char(v) => f64::from(v),
        Property::UChar(v) => f64::from(v),
        Property::Short(v) => f64::from(v),
        Property::UShort(v) => f64::from(v),
        Property::Int(v) => f64::from(v),
        Property::UInt(v) => f64::from(v),
        Property::Float(v) => f64::from(v),
        Property::Double(v) => v,
        _ => return None,
    })
}

fn list(p: &Property) -> Option<Vec<i64>> {
    Some(match p {
        Property::ListChar(v) => v.iter().map(|&x| i64::from(x)).collect(),
        Property::ListUChar(v) => v.iter().map(|&x| i64::from(x)).collect(),
        Property::ListShort(v) => v.iter().map(|&x| i64::from(x)).collect(),
        Property::ListUShort(v) => v.iter().map(|&x| i64::from(x)).collect(),
        Property::ListInt(v) => v.iter().map(|&x| i64::from(x)).collect(),
        Property::ListUInt(v) => v.iter().map(|&x| i64::from(x)).collect(),
        _ => return None,
    })
}

pub(crate) fn read(bytes: &[u8], name: &str) -> Result<Raw, IoError> {
    let h = scan_header(bytes, name)?;
    let parser = Parser::<DefaultElement>::new();
    let ply = parser
        .read_ply(&mut &bytes[..])
        .map_err(|e| IoError::new(name, IoErrorKind::Parse, None, format!("PLY: {e}")))?;
    // ASCII payload: one element per line, elements in header order.
    let line_of = |element: &str, i: usize| -> Option<usize> {
        if !h.ascii {
            return None;
        }
        let mut line = h.body_line;
        for (e, c) in &h.elements {
            if e == element {
                return Some(line + i);
            }
            line += c;
        }
        None
    };
    let mut raw = Raw {
        positions: Vec::new(),
        position_at: Vec::new(),
        faces: Vec::new(),
        face_at: Vec::new(),
        groups: Vec::new(),
    };
    let no_vertices = || IoError::new(name, IoErrorKind::Empty, None, "no `vertex` element");
    let vertices = ply.payload.get("vertex").ok_or_else(no_vertices)?;
    for (i, v) in vertices.iter().enumerate() {
        let at = Location {
            line: line_of("vertex", i),
            face: None,
        };
        let c = ["x", "y", "z"].map(|k| v.get(k).and_then(scalar));
        let [Some(x), Some(y), Some(z)] = c else {
            return Err(IoError::new(
                name,
                IoErrorKind::Parse,
                Some(at),
                format!("vertex {i} lacks a scalar x, y or z property"),
            ));
        };
        raw.positions.push(DVec3::new(x, y, z));
        raw.position_at.push(at);
    }
    for (f, face) in ply.payload.get("face").into_iter().flatten().enumerate() {
        let at = Location {
            line: line_of("face", f),
            face: Some(f),
        };
        let ids = face
            .get("vertex_indices")
            .or_else(|| face.get("vertex_index"))
            .and_then(list);
        let Some(ids) = ids else {
            return Err(IoError::new(
                name,
                IoErrorKind::Parse,
                Some(at),
                "a face needs an integer list property `vertex_indices`",
            ));
        };
        if ids.len() < 3 {
            return Err(IoError::new(
                name,
                IoErrorKind::Parse,
                Some(at),
                format!("a face needs at least three vertices, found {}", ids.len()),
            ));
        }
        let n = raw.positions.len();
        let mut face_ids = Vec::with_capacity(ids.len());
        for i in ids {
            match usize::try_from(i) {
                Ok(u) if u < n => face_ids.push(u),
                _ => {
                    return Err(IoError::new(
                        name,
                        IoErrorKind::BadIndex,
                        Some(at),
                        format!("vertex index {i} out of range (there are {n} vertices)"),
                    ))
                }
            }
        }
        raw.faces.push(face_ids);
        raw.face_at.push(at);
    }
    Ok(raw)
}
