//! STL, binary and ASCII, through `stl_io` (which tells the two apart). Facets are read one by
//! one so that an error names its facet; for ASCII files the facet's line is found by counting
//! `facet` keywords. A binary file whose header declares more facets than its bytes hold is
//! refused up front, naming the first missing facet.

use std::io::Cursor;

use glam::DVec3;

use super::{IoError, IoErrorKind, Location, Raw};

/// Bytes of the binary header (80) and facet count (4), and of one facet record.
const HEADER: usize = 84;
const RECORD: usize = 50;

/// Lines (1-based) of the `facet` keywords of an ASCII file, in order.
fn facet_lines(bytes: &[u8]) -> Vec<usize> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.split_whitespace().next() == Some("facet"))
        .map(|(i, _)| i + 1)
        .collect()
}

/// `stl_io`'s own rule (the first line starts with `solid `), except that a file whose size is
/// exactly that of a binary STL with its declared facet count is binary: binary headers may
/// start with `solid ` too.
fn is_ascii(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"solid ") {
        return false;
    }
    if bytes.len() >= HEADER {
        let declared = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if declared
            .checked_mul(RECORD)
            .and_then(|b| b.checked_add(HEADER))
            == Some(bytes.len())
        {
            return false;
        }
    }
    true
}

pub(crate) fn read(bytes: &[u8], name: &str) -> Result<Raw, IoError> {
    let ascii = is_ascii(bytes);
    // A binary header that starts with `solid ` would send stl_io to its ASCII reader: blank
    // the (meaningless) header's first byte in a copy.
    let patched;
    let bytes_for_reader = if !ascii && bytes.starts_with(b"solid ") {
        let mut b = bytes.to_vec();
        b[0] = 0;
        patched = b;
        &patched[..]
    } else {
        bytes
    };
    let lines = if ascii {
        facet_lines(bytes)
    } else {
        Vec::new()
    };
    if !ascii {
        if bytes.len() < HEADER {
            return Err(IoError::new(
                name,
                IoErrorKind::Parse,
                None,
                format!(
                    "binary STL shorter ({} bytes) than its 84-byte header, and not ASCII STL",
                    bytes.len()
                ),
            ));
        }
        let declared = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        let held = (bytes.len() - HEADER) / RECORD;
        if held < declared {
            return Err(IoError::new(
                name,
                IoErrorKind::Parse,
                Some(Location::face(held)),
                format!(
                    "binary STL truncated: the header declares {declared} facets, the file holds \
                     {held}"
                ),
            ));
        }
    }
    let mut cursor = Cursor::new(bytes_for_reader);
    let reader = stl_io::create_stl_reader(&mut cursor)
        .map_err(|e| IoError::new(name, IoErrorKind::Parse, None, format!("STL: {e}")))?;
    let mut raw = Raw {
        positions: Vec::new(),
        position_at: Vec::new(),
        faces: Vec::new(),
        face_at: Vec::new(),
        groups: Vec::new(),
    };
    for (k, tri) in reader.enumerate() {
        let at = Location {
            line: lines.get(k).copied(),
            face: Some(k),
        };
        let tri =
            tri.map_err(|e| IoError::new(name, IoErrorKind::Parse, Some(at), format!("STL: {e}")))?;
        let base = raw.positions.len();
        for v in tri.vertices {
            let p = DVec3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2]));
            super::check_position(name, p, at)?;
            raw.positions.push(p);
            raw.position_at.push(at);
        }
        raw.faces.push(vec![base, base + 1, base + 2]);
        raw.face_at.push(at);
    }
    Ok(raw)
}
