//! Reading the polygon command's input: vertex lists, polygons with their rings, query points.

use super::*;
use crate::fields::{self, describe, quote};
use convexity::error::MAX_MAGNITUDE;
use convexity::primitives::polygon::Polygon;
use convexity::{ConvexPolygon, DVec2, InputError, Problem};
use serde_json::Value;

pub(super) fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

/// A NaN-separated vertex list: `null`, `"NaN"` and `[NaN, NaN]` are separators (stored as
/// `DVec2::NAN`); any other entry must be a finite point within the supported magnitude.
pub fn vertex_list(v: &Value, field: &str) -> Result<Vec<DVec2>, InputError> {
    let arr = v.as_array().ok_or_else(|| {
        invalid(
            field,
            format!(
                "expected an array of [x, y] vertices (with null or \"NaN\" separators), found {}",
                describe(v)
            ),
        )
    })?;
    let mut out = Vec::with_capacity(arr.len());
    for (i, e) in arr.iter().enumerate() {
        let here = format!("{field}[{i}]");
        match e {
            Value::Null => out.push(DVec2::NAN),
            Value::String(s) if fields::non_finite_word(s).is_some_and(f64::is_nan) => {
                out.push(DVec2::NAN)
            }
            _ => {
                let c = fields::numbers(e, &here)?;
                if c.len() != 2 {
                    return Err(InputError::new(
                        here,
                        Problem::DimensionMismatch {
                            expected: 2,
                            found: c.len(),
                        },
                    ));
                }
                if c[0].is_nan() && c[1].is_nan() {
                    out.push(DVec2::NAN);
                    continue;
                }
                fields::finite_coords(&here, &c)?;
                if let Some(k) = c.iter().position(|x| x.abs() > MAX_MAGNITUDE) {
                    return Err(InputError::new(
                        format!("{here}[{k}]"),
                        Problem::OutOfRange(c[k]),
                    ));
                }
                out.push(DVec2::new(c[0], c[1]));
            }
        }
    }
    Ok(out)
}

/// The parts of a NaN-separated list as index ranges (empty parts dropped).
pub(super) fn parts(v: &[DVec2]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, p) in v.iter().enumerate() {
        if p.x.is_nan() {
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
        }
    }
    if v.len() > start {
        out.push(start..v.len());
    }
    out
}

/// A polygon of the input with its rings, and its convex form when it is one convex ring.
pub struct Poly {
    pub polygon: Polygon,
    pub rings: Vec<Vec<DVec2>>,
    /// The convex polygon and the input index of its first vertex, with `reversed` when the
    /// input ring was clockwise (ConvexPolygon stores counter-clockwise).
    pub convex: Result<(ConvexPolygon, usize, bool), String>,
}

impl Poly {
    pub(super) fn new(vertices: &[DVec2], field: &str) -> Result<Poly, InputError> {
        let polygon = Polygon::new(vertices).map_err(|e| rename(e, "vertices", field))?;
        let rings: Vec<Vec<DVec2>> = polygon
            .rings()
            .iter()
            .map(|r| polygon.vertices()[r.clone()].to_vec())
            .collect();
        let convex = match polygon.rings() {
            [r] => {
                let ring = &polygon.vertices()[r.clone()];
                ConvexPolygon::new(ring)
                    .map(|c| {
                        let reversed = ring.len() > 2 && c.vertices().first() != ring.first();
                        (c, r.start, reversed)
                    })
                    .map_err(|e| format!("not convex ({})", e.to_string().trim_start_matches(": ")))
            }
            rs => Err(format!("{} rings", rs.len())),
        };
        Ok(Poly {
            polygon,
            rings,
            convex,
        })
    }

    /// The input index of the first vertex of convex edge `k` (counter-clockwise order).
    pub(super) fn input_edge(&self, k: usize) -> Option<usize> {
        let (c, start, reversed) = self.convex.as_ref().ok()?;
        let n = c.vertices().len();
        Some(if *reversed {
            // ccw[k] = ring[n-1-k]: edge ccw[k] → ccw[k+1] is input edge ring[n-2-k] → ring[n-1-k].
            start + (2 * n - 2 - k) % n
        } else {
            start + k
        })
    }
}

pub(super) fn rename(e: InputError, from: &str, to: &str) -> InputError {
    let field = match e.field.strip_prefix(from) {
        Some(rest) => format!("{to}{rest}"),
        None if e.field.is_empty() => to.to_string(),
        None => format!("{to}.{}", e.field),
    };
    InputError::new(field, e.problem)
}

/// A query point: `[x, y]` (located in every polygon) or `{"at": [x, y], "in": [names]}`.
pub(super) fn parse_point(
    v: &Value,
    field: &str,
    polygons: &BTreeMap<String, Result<Poly, String>>,
) -> Result<(DVec2, Option<Vec<String>>), InputError> {
    let (at, at_field, only) = match v {
        Value::Object(o) => {
            fields::check_keys(o, &["at", "in"], "a query point object")
                .map_err(|e| e.within(field))?;
            let at =
                fields::required(o, "at", "a query point object").map_err(|e| e.within(field))?;
            let only = match o.get("in") {
                None | Some(Value::Null) => None,
                Some(Value::Array(names)) => {
                    let mut out = Vec::new();
                    for (k, n) in names.iter().enumerate() {
                        let here = format!("{field}.in[{k}]");
                        let n = n.as_str().ok_or_else(|| {
                            invalid(
                                &here,
                                format!("expected a polygon name, found {}", describe(n)),
                            )
                        })?;
                        if !polygons.contains_key(n) {
                            return Err(invalid(&here, format!("unknown polygon {}", quote(n))));
                        }
                        out.push(n.to_string());
                    }
                    Some(out)
                }
                Some(other) => {
                    return Err(invalid(
                        &format!("{field}.in"),
                        format!(
                            "expected an array of polygon names, found {}",
                            describe(other)
                        ),
                    ))
                }
            };
            (at, format!("{field}.at"), only)
        }
        _ => (v, field.to_string(), None),
    };
    let c = fields::numbers(at, &at_field)?;
    if c.len() != 2 {
        return Err(InputError::new(
            at_field,
            Problem::DimensionMismatch {
                expected: 2,
                found: c.len(),
            },
        ));
    }
    fields::finite_coords(&at_field, &c)?;
    Ok((DVec2::new(c[0], c[1]), only))
}

/// The input format, shown by `convexity polygon --help`.
pub const FORMAT_HELP: &str = "\
INPUT (JSON):
  {\"polygons\": {\"L\": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]],
                \"frame\": [[0, 0], [10, 0], [10, 10], [0, 10], null, [3, 3], [3, 7], [7, 7], [7, 3]]},
   \"polylines\": {\"zigzag\": [[-1, 2], [5, 2], \"NaN\", [2, -1], [2, 5]]},
   \"points\": [[0.5, 0.5], {\"at\": [5, 5], \"in\": [\"L\"]}],
   \"pairs\": [{\"a\": \"L\", \"b\": \"zigzag\"}, {\"a\": \"L\", \"b\": \"frame\"}]}
  Rings and polyline parts are separated by null, \"NaN\" or [\"NaN\", \"NaN\"]; rings may
  have either orientation and self-intersect.

OUTPUT: one JSON line per point and polygon (even_odd, non_zero, crossing_number,
  winding_number), then one per pair (intersections with segment indices; for two convex
  rings also sat, with a verified certificate, and contact).

EXIT STATUS: 0 ok; 2 bad usage or some item could not be answered; 74 the output or the
  --svg file could not be written.";
