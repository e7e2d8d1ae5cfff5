//! Wavefront OBJ through `tobj`, after a line scan of our own that checks every `v`, `vt`,
//! `vn` and `f` line (numbers parse, indices in range, at least three corners per face) so that
//! an error names its line, and so that `tobj` never sees an index it would overflow on.
//! Objects and groups (`o`, `g`) become [`super::Group`]s; `l` and `p` elements are ignored.

use glam::DVec3;

use super::{IoError, IoErrorKind, Location, Raw};

/// What the scan found: every position with its line, and every face's line.
struct Scan {
    positions: Vec<DVec3>,
    position_lines: Vec<usize>,
    face_lines: Vec<usize>,
}

fn parse_error(name: &str, line: usize, problem: impl Into<String>) -> IoError {
    IoError::new(
        name,
        IoErrorKind::Parse,
        Some(Location::line(line)),
        problem,
    )
}

/// A 1-based (or negative, relative) OBJ index resolved against `count` items, as tobj does.
fn resolve(tok: &str, count: usize) -> Option<usize> {
    let x: i64 = tok.parse().ok()?;
    let count = i64::try_from(count).ok()?;
    let i = if x < 0 { count + x } else { x - 1 };
    if (0..count).contains(&i) {
        usize::try_from(i).ok()
    } else {
        None
    }
}

/// The position on a `v` line (`x y z`, `x y z w` divided by `w`, or `x y z r g b`).
fn vertex(rest: &[&str], line: &str, name: &str, ln: usize) -> Result<DVec3, IoError> {
    let nums = |k: usize| -> Option<Vec<f64>> {
        rest.get(..k)?
            .iter()
            .map(|w| w.parse::<f64>().ok())
            .collect()
    };
    let Some(c) = nums(3) else {
        return Err(parse_error(
            name,
            ln,
            format!("a vertex needs three numbers, found {line:?}"),
        ));
    };
    let mut p = DVec3::new(c[0], c[1], c[2]);
    match rest.len() {
        3 | 6 => {}
        4 => {
            let w: f64 = rest[3].parse().map_err(|_| {
                parse_error(
                    name,
                    ln,
                    format!("vertex weight {:?} is not a number", rest[3]),
                )
            })?;
            if w == 0.0 {
                return Err(parse_error(name, ln, "vertex weight w is zero"));
            }
            p /= w;
        }
        n => {
            return Err(parse_error(
                name,
                ln,
                format!("a vertex has 3, 4 (x y z w) or 6 (x y z r g b) numbers, found {n}"),
            ))
        }
    }
    Ok(p)
}

fn scan(text: &str, name: &str) -> Result<Scan, IoError> {
    let mut s = Scan {
        positions: Vec::new(),
        position_lines: Vec::new(),
        face_lines: Vec::new(),
    };
    let (mut n_vt, mut n_vn) = (0usize, 0usize);
    // Whether vertices carry colours: tobj wants all or none.
    let mut coloured: Option<bool> = None;
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        let mut words = line.split_whitespace();
        let Some(head) = words.next() else {
            continue;
        };
        let rest: Vec<&str> = words.collect();
        let nums = |k: usize| -> Option<Vec<f64>> {
            rest.get(..k)?
                .iter()
                .map(|w| w.parse::<f64>().ok())
                .collect()
        };
        match head {
            "v" => {
                let p = vertex(&rest, line, name, ln)?;
                let has_colour = rest.len() == 6;
                if *coloured.get_or_insert(has_colour) != has_colour {
                    return Err(parse_error(
                        name,
                        ln,
                        "vertex colours (x y z r g b) must be given for every vertex or for none",
                    ));
                }
                super::check_position(name, p, Location::line(ln))?;
                s.positions.push(p);
                s.position_lines.push(ln);
            }
            "vt" | "vn" => {
                let k = if head == "vt" { 2 } else { 3 };
                if nums(k).is_none() {
                    return Err(parse_error(
                        name,
                        ln,
                        format!("`{head}` needs {k} numbers, found {line:?}"),
                    ));
                }
                if head == "vt" {
                    n_vt += 1;
                } else {
                    n_vn += 1;
                }
            }
            "f" => {
                if rest.len() < 3 {
                    return Err(parse_error(
                        name,
                        ln,
                        format!("a face needs at least three vertices, found {}", rest.len()),
                    ));
                }
                for w in &rest {
                    let parts: Vec<&str> = w.split('/').collect();
                    let counts = [s.positions.len(), n_vt, n_vn];
                    let ok =
                        parts.len() <= 3
                            && !parts[0].is_empty()
                            && parts.iter().zip(counts).enumerate().all(|(k, (p, c))| {
                                (k > 0 && p.is_empty()) || resolve(p, c).is_some()
                            });
                    if !ok {
                        return Err(IoError::new(
                            name,
                            IoErrorKind::BadIndex,
                            Some(Location {
                                line: Some(ln),
                                face: Some(s.face_lines.len()),
                            }),
                            format!(
                                "face corner {w:?} is not a valid index (there are {} vertices, \
                                 {n_vt} texture and {n_vn} normal coordinates so far)",
                                s.positions.len()
                            ),
                        ));
                    }
                }
                s.face_lines.push(ln);
            }
            _ => {}
        }
    }
    Ok(s)
}

pub(crate) fn read(bytes: &[u8], name: &str) -> Result<Raw, IoError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        parse_error(name, line, "the file is not UTF-8 text")
    })?;
    let s = scan(text, name)?;
    // `..Default::default()`: the options struct grows fields with tobj's cargo features,
    // which another crate of a build may switch on.
    #[allow(clippy::needless_update)]
    let opts = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    // Materials are not geometry: any `mtllib` is answered with "no materials".
    let (models, _materials) = tobj::load_obj_buf(&mut text.as_bytes(), &opts, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
    .map_err(|e| IoError::new(name, IoErrorKind::Parse, None, format!("OBJ: {e}")))?;

    // Positions: every `v` line (a hull wants unreferenced vertices too), then each model's
    // own copies, which the weld merges with the former.
    let mut raw = Raw {
        positions: s.positions,
        position_at: s.position_lines.into_iter().map(Location::line).collect(),
        faces: Vec::new(),
        face_at: Vec::new(),
        groups: Vec::new(),
    };
    let total: usize = models
        .iter()
        .map(|m| {
            if m.mesh.face_arities.is_empty() {
                m.mesh.indices.len() / 3
            } else {
                m.mesh.face_arities.len()
            }
        })
        .sum();
    // Faces come out in file order; when the counts agree each face gets its line.
    let lines = (total == s.face_lines.len()).then_some(&s.face_lines);
    for m in &models {
        let base = raw.positions.len();
        for c in m.mesh.positions.chunks_exact(3) {
            raw.positions.push(DVec3::new(c[0], c[1], c[2]));
            raw.position_at.push(Location::default());
        }
        let arities: Vec<usize> = if m.mesh.face_arities.is_empty() {
            vec![3; m.mesh.indices.len() / 3]
        } else {
            m.mesh.face_arities.iter().map(|&a| a as usize).collect()
        };
        let mut group = Vec::with_capacity(arities.len());
        let mut k = 0usize;
        for a in arities {
            let Some(ids) = m.mesh.indices.get(k..k + a) else {
                break;
            };
            k += a;
            let f = raw.faces.len();
            raw.faces
                .push(ids.iter().map(|&i| base + i as usize).collect());
            raw.face_at.push(Location {
                line: lines.and_then(|l| l.get(f).copied()),
                face: Some(f),
            });
            group.push(f);
        }
        raw.groups.push((m.name.clone(), group));
    }
    Ok(raw)
}
