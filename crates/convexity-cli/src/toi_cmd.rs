//! `convexity toi FILE`: the time of impact of moving bodies over one time step.
//!
//! Input (JSON; `-` reads standard input):
//!
//! ```json
//! {
//!   "h": 1.0,
//!   "bodies": {
//!     "A": {"shape": {"type": "box", "half_extents": [1, 1]},
//!           "pose": {"translation": [0, 0], "angle": 0},
//!           "velocity": [1, 0], "angular_velocity": 0, "acceleration": [0, -9.81]},
//!     "B": {"shape": {"type": "sphere", "radius": 1},
//!           "pose": {"translation": [5, 0, 0], "rotation": [0, 0, 0, 1]},
//!           "velocity": [-1, 0, 0], "angular_velocity": [0, 0, 1]}
//!   },
//!   "pairs": [{"a": "A", "b": "B"}, {"a": "A", "b": "C", "h": 0.5}]
//! }
//! ```
//!
//! * `shape`: any shape of the `convexity query` scene format (`scene::parse_shape`); its
//!   dimension (2 or 3) decides how the other fields are read.
//! * `pose`: as in scenes (2D: `translation` [x, y] and `angle`; 3D: `translation` and a unit
//!   quaternion `rotation` [x, y, z, w]); identity when absent.
//! * `velocity`: linear velocity of the body's origin (zero when absent); `angular_velocity`:
//!   a number (rad per unit time) in 2D, a vector (axis × rate) in 3D, about the origin
//!   (zero when absent); `acceleration`: constant linear acceleration, 2D only (zero when
//!   absent).
//! * `h`: the step length, at the top level and optionally per pair (the pair's wins).
//!
//! Method per pair (the `method` field of the output says which ran): chosen by
//! [`convexity::toi::dispatch`]: `vertex_edge_quartic` (some body accelerates; polygonal,
//! non-rotating 2D bodies), `swept_ray_cast` (translation only), `conservative_advancement`
//! (some body rotates). An acceleration that cannot be honoured (a curved shape, a rotating
//! body) fails that pair with an error naming `acceleration`; it is never ignored.
//!
//! Output: one JSON line per pair, `{"pair", "a", "b", "method", "status", "toi", "normal",
//! "points", "reached"?}` with `status` one of `hit`, `separated`,
//! `initially_overlapping`, `iteration_limit` (`toi`, `normal` and `points` are `null` unless
//! hit; `reached` is the time up to which the bodies are proved disjoint on
//! `iteration_limit`). Bad pairs print `{"pair": i, "error": "pairs[i]...: ..."}`, bad bodies
//! that no pair uses `{"body": name, "error": ...}`; the others are still answered, and the
//! exit status is then 2.

use crate::fields::{self, describe, quote};
use crate::output::to_line;
use crate::{emit, exit, Fatal};
use convexity::toi::{toi2, toi3, Body2, Body3, TimeOfImpact, ToiAnswer};
use convexity::{InputError, Problem, Vector};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The input format, shown by `convexity toi --help`.
pub const FORMAT_HELP: &str = "\
INPUT (JSON):
  {\"h\": 1.0,
   \"bodies\": {\"A\": {\"shape\": {\"type\": \"box\", \"half_extents\": [1, 1]},
                      \"pose\": {\"translation\": [0, 0], \"angle\": 0},
                      \"velocity\": [1, 0], \"angular_velocity\": 0, \"acceleration\": [0, -9.81]},
               \"B\": {\"shape\": {\"type\": \"circle\", \"radius\": 1},
                      \"pose\": {\"translation\": [5, 0]}, \"velocity\": [-1, 0]}},
   \"pairs\": [{\"a\": \"A\", \"b\": \"B\"}, {\"a\": \"A\", \"b\": \"B\", \"h\": 0.5}]}
  shape: any shape of the query format; pose as in scenes; velocity, angular_velocity (a
  number in 2D, a vector in 3D) and acceleration (2D only) default to zero. An acceleration
  is honoured exactly for polygonal, non-rotating 2D bodies (vertex-edge quartic) and is
  otherwise an error for that pair, never ignored.

OUTPUT: one JSON line per pair: pair, a, b, method, status (hit, separated,
  initially_overlapping, iteration_limit), toi, normal (A to B), points, reached?.

EXIT STATUS: 0 ok; 2 bad usage or some pair could not be answered; 74 the output could not be
  written.";

mod body;

use body::{parse_body, Body};

/// One answered pair.
#[derive(Serialize)]
struct ToiLine<'a> {
    pair: usize,
    a: &'a str,
    b: &'a str,
    method: &'static str,
    status: &'static str,
    toi: Option<f64>,
    normal: Option<Vec<f64>>,
    points: Option<[Vec<f64>; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reached: Option<f64>,
}

#[derive(Serialize)]
struct PairError {
    pair: usize,
    error: String,
}

#[derive(Serialize)]
struct BodyError<'a> {
    body: &'a str,
    error: String,
}

fn coords<V: Vector>(v: V) -> Vec<f64> {
    v.to_vec()
}

fn line<'a, V: Vector>(pair: usize, a: &'a str, b: &'a str, ans: ToiAnswer<V>) -> ToiLine<'a> {
    let (toi, normal, points, reached) = match ans.toi {
        TimeOfImpact::Hit {
            toi,
            normal,
            points,
        } => (
            Some(toi),
            Some(coords(normal)),
            Some([coords(points[0]), coords(points[1])]),
            None,
        ),
        TimeOfImpact::IterationLimit { reached } => (None, None, None, Some(reached)),
        _ => (None, None, None, None),
    };
    ToiLine {
        pair,
        a,
        b,
        method: ans.method.name(),
        status: ans.toi.status(),
        toi,
        normal,
        points,
        reached,
    }
}

fn step(v: Option<&Value>, field: &str) -> Result<Option<f64>, InputError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let h = fields::number(v, field)?;
            if !h.is_finite() {
                return Err(InputError::new(field, Problem::NotFinite(h)));
            }
            if h < 0.0 {
                return Err(InputError::new(field, Problem::Negative(h)));
            }
            Ok(Some(h))
        }
    }
}

/// Runs the command on `file`; returns the exit status.
pub fn run(file: &str) -> Result<i32, Fatal> {
    let v = crate::input::read_json(file)?;
    let (lines, errors) = answer_all(&v).map_err(Fatal::input)?;
    let mut out = String::new();
    for l in &lines {
        out.push_str(l);
        out.push('\n');
    }
    emit(&out)?;
    Ok(if errors > 0 { exit::INPUT } else { exit::OK })
}

/// Every output line of a parsed input, and the number of error lines. `Err` for a file whose
/// top level is unusable (not an object, no `bodies` or `pairs`).
pub fn answer_all(v: &Value) -> Result<(Vec<String>, usize), String> {
    let obj = v.as_object().ok_or_else(|| {
        format!(
            "the input must be a JSON object with \"bodies\" and \"pairs\", found {}",
            describe(v)
        )
    })?;
    fields::check_keys(obj, &["bodies", "pairs", "h"], "a time-of-impact input")
        .map_err(|e| e.to_string())?;
    let bodies_v = obj
        .get("bodies")
        .ok_or("the input has no \"bodies\" object")?;
    let bodies_o = bodies_v.as_object().ok_or_else(|| {
        format!(
            "\"bodies\" must be an object mapping names to bodies, found {}",
            describe(bodies_v)
        )
    })?;
    let pairs_v = obj.get("pairs").ok_or("the input has no \"pairs\" array")?;
    let pairs = pairs_v
        .as_array()
        .ok_or_else(|| format!("\"pairs\" must be an array, found {}", describe(pairs_v)))?;
    let mut lines = Vec::new();
    let mut errors = 0;
    let h_top = match step(obj.get("h"), "h") {
        Ok(h) => h,
        Err(e) => {
            lines.push(to_line(&BodyError {
                body: "",
                error: e.to_string().trim_start_matches(": ").to_string(),
            }));
            errors += 1;
            None
        }
    };
    let bodies: BTreeMap<&str, Result<Body, String>> = bodies_o
        .iter()
        .map(|(name, bv)| {
            let b = parse_body(bv).map_err(|e| format!("{}", e.within(&format!("bodies.{name}"))));
            (name.as_str(), b)
        })
        .collect();
    let mut used = std::collections::BTreeSet::new();
    for (i, p) in pairs.iter().enumerate() {
        let here = format!("pairs[{i}]");
        let r = (|| -> Result<String, String> {
            let po = p.as_object().ok_or_else(|| {
                format!(
                    "{here}: expected an object with \"a\" and \"b\", found {}",
                    describe(p)
                )
            })?;
            fields::check_keys(po, &["a", "b", "h"], "a pair")
                .map_err(|e| e.within(&here).to_string())?;
            let name = |key: &str| -> Result<&str, String> {
                let n = fields::string_field(po, key, "a pair")
                    .map_err(|e| e.within(&here).to_string())?;
                Ok(n)
            };
            let (na, nb) = (name("a")?, name("b")?);
            let body = |n: &str, key: &str| -> Result<&Body, String> {
                match bodies.get(n) {
                    Some(Ok(b)) => Ok(b),
                    Some(Err(e)) => Err(format!("{here}.{key}: body {} is invalid: {e}", quote(n))),
                    None => Err(format!(
                        "{here}.{key}: unknown body {}; defined bodies: {}",
                        quote(n),
                        bodies
                            .keys()
                            .map(|k| quote(k))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            };
            used.insert(na.to_string());
            used.insert(nb.to_string());
            let (ba, bb) = (body(na, "a")?, body(nb, "b")?);
            let h = match step(po.get("h"), "h").map_err(|e| e.within(&here).to_string())? {
                Some(h) => h,
                None => h_top.ok_or_else(|| {
                    format!("{here}: no step length: give \"h\" at the top level or in the pair")
                })?,
            };
            let ctx = |e: InputError| format!("{here}: {}", e.to_string().trim_start_matches(": "));
            match (ba, bb) {
                (
                    Body::D2 {
                        shape: a,
                        pose: pa,
                        velocity: va,
                        angular: wa,
                        acceleration: aa,
                    },
                    Body::D2 {
                        shape: b,
                        pose: pb,
                        velocity: vb,
                        angular: wb,
                        acceleration: ab,
                    },
                ) => toi2(
                    &Body2 {
                        shape: a,
                        pose: *pa,
                        velocity: *va,
                        angular_velocity: *wa,
                        acceleration: *aa,
                    },
                    &Body2 {
                        shape: b,
                        pose: *pb,
                        velocity: *vb,
                        angular_velocity: *wb,
                        acceleration: *ab,
                    },
                    h,
                )
                .map(|ans| to_line(&line(i, na, nb, ans)))
                .map_err(ctx),
                (
                    Body::D3 {
                        shape: a,
                        pose: pa,
                        velocity: va,
                        angular: wa,
                    },
                    Body::D3 {
                        shape: b,
                        pose: pb,
                        velocity: vb,
                        angular: wb,
                    },
                ) => toi3(
                    &Body3 {
                        shape: a,
                        pose: *pa,
                        velocity: *va,
                        angular_velocity: *wa,
                    },
                    &Body3 {
                        shape: b,
                        pose: *pb,
                        velocity: *vb,
                        angular_velocity: *wb,
                    },
                    h,
                )
                .map(|ans| to_line(&line(i, na, nb, ans)))
                .map_err(ctx),
                _ => Err(format!(
                    "{here}: bodies {} and {} have different dimensions",
                    quote(na),
                    quote(nb)
                )),
            }
        })();
        match r {
            Ok(l) => lines.push(l),
            Err(e) => {
                errors += 1;
                lines.push(to_line(&PairError { pair: i, error: e }));
            }
        }
    }
    for (name, b) in &bodies {
        if let Err(e) = b {
            if !used.contains(*name) {
                errors += 1;
                lines.push(to_line(&BodyError {
                    body: name,
                    error: e.clone(),
                }));
            }
        }
    }
    Ok((lines, errors))
}
