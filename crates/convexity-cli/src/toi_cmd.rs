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
//! Method per pair (the `method` field of the output says which ran):
//! * `vertex_edge_quartic`: some body accelerates, both are polygonal 2D shapes and neither
//!   rotates. Every vertex moves on the parabola `x₀ + v t + ½ a t²`; the first contact of
//!   two convex polygons is a vertex of one on an edge of the other, so the answer is the
//!   earliest root over all vertex–edge pairs (both ways) of the quartic
//!   `toi::vertex_edge_toi`, after a GJK test at `t = 0` for initial overlap.
//! * `swept_ray_cast`: no rotation and no acceleration: `toi::swept_toi` (GJK ray cast on the
//!   Minkowski difference), exact for translation.
//! * `conservative_advancement`: some body rotates: `toi::conservative_advancement` (Mirtich).
//! * With an acceleration that the quartic path cannot use (a curved shape, a rotating body,
//!   or 3D) the acceleration is ignored, constant velocity is used, and a `note` says so.
//!
//! Output: one JSON line per pair, `{"pair", "a", "b", "method", "status", "toi", "normal",
//! "points", "reached"?, "note"?}` with `status` one of `hit`, `separated`,
//! `initially_overlapping`, `iteration_limit` (`toi`, `normal` and `points` are `null` unless
//! hit; `reached` is the time up to which the bodies are proved disjoint on
//! `iteration_limit`). Bad pairs print `{"pair": i, "error": "pairs[i]...: ..."}`, bad bodies
//! that no pair uses `{"body": name, "error": ...}`; the others are still answered, and the
//! exit status is then 2.

use crate::fields::{self, describe, quote, Object};
use crate::output::to_line;
use crate::scene::{parse_pose2, parse_pose3, parse_shape, SceneShape};
use crate::{emit, exit, Fatal};
use convexity::gjk;
use convexity::math::hull2d::hull2d;
use convexity::shape::Polytope;
use convexity::toi::{
    conservative_advancement, swept_toi, vertex_edge_toi, AdvancementOptions, Kinematic2, Motion,
    SweptOptions, TimeOfImpact,
};
use convexity::{DVec2, DVec3, InputError, Pose2, Pose3, Problem, Shape2, Shape3, Vector};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Reads a JSON file (or standard input for `-`), with messages that name the file.
pub fn read_json(path: &str) -> Result<Value, Fatal> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
            .map_err(|e| Fatal::input(format!("cannot read standard input: {e}")))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| {
            let why = match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".to_string(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                _ => e.to_string(),
            };
            Fatal::input(format!("cannot read {path}: {why}"))
        })?
    };
    let name = if path == "-" { "standard input" } else { path };
    serde_json::from_slice(&bytes).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Fatal::input(format!(
            "malformed JSON in {name} at line {}, column {}: {msg}",
            e.line(),
            e.column()
        ))
    })
}

/// The single FILE argument of `toi` and `polygon` (plus `--svg OUT` for `polygon`).
pub fn file_arg(cmd: &str, args: &[String]) -> Result<String, Fatal> {
    match args {
        [f] if !f.starts_with('-') || f == "-" => Ok(f.clone()),
        [] => Err(Fatal::usage(format!("{cmd} needs an input file"))),
        _ => Err(Fatal::usage(format!(
            "{cmd} takes one input file; unexpected arguments {}",
            args.join(" ")
        ))),
    }
}

/// A body's motion, by dimension.
#[derive(Clone, Debug)]
enum Body {
    D2 {
        shape: Shape2,
        pose: Pose2,
        velocity: DVec2,
        angular: f64,
        acceleration: DVec2,
    },
    D3 {
        shape: Shape3,
        pose: Pose3,
        velocity: DVec3,
        angular: DVec3,
    },
}

fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

fn vec_n<const N: usize>(obj: &Object, key: &str) -> Result<[f64; N], InputError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok([0.0; N]),
        Some(v) => {
            let c = fields::numbers(v, key)?;
            fields::finite_coords(key, &c)?;
            <[f64; N]>::try_from(c.as_slice()).map_err(|_| {
                InputError::new(
                    key,
                    Problem::DimensionMismatch {
                        expected: N,
                        found: c.len(),
                    },
                )
            })
        }
    }
}

const BODY_KEYS: &[&str] = &[
    "shape",
    "pose",
    "velocity",
    "angular_velocity",
    "acceleration",
];

fn parse_body(v: &Value, at: &str, warnings: &mut Vec<String>) -> Result<Body, InputError> {
    let obj = v.as_object().ok_or_else(|| {
        invalid(
            "",
            format!(
                "expected a body object with a \"shape\", found {}",
                describe(v)
            ),
        )
    })?;
    for k in obj.keys() {
        if !BODY_KEYS.contains(&k.as_str()) {
            let hint = fields::suggestion(k, BODY_KEYS)
                .map(|s| format!("; did you mean \"{s}\"?"))
                .unwrap_or_default();
            return Err(invalid(
                k,
                format!("unknown field (a body has {}){hint}", BODY_KEYS.join(", ")),
            ));
        }
    }
    let shape = parse_shape(fields::required(obj, "shape", "a body")?, at, warnings)
        .map_err(|e| e.within("shape"))?;
    match shape {
        SceneShape::D2(shape) => {
            let pose = parse_pose2(obj.get("pose"), at, warnings).map_err(|e| e.within("pose"))?;
            let angular = match obj.get("angular_velocity") {
                None | Some(Value::Null) => 0.0,
                Some(v) => {
                    let w = fields::number(v, "angular_velocity")?;
                    fields::finite_coords("angular_velocity", &[w])
                        .map_err(|_| InputError::new("angular_velocity", Problem::NotFinite(w)))?;
                    w
                }
            };
            Ok(Body::D2 {
                shape,
                pose,
                velocity: DVec2::from_array(vec_n::<2>(obj, "velocity")?),
                angular,
                acceleration: DVec2::from_array(vec_n::<2>(obj, "acceleration")?),
            })
        }
        SceneShape::D3(shape) => {
            let pose = parse_pose3(obj.get("pose"), at, warnings).map_err(|e| e.within("pose"))?;
            if obj.get("acceleration").is_some_and(|a| !a.is_null()) {
                return Err(invalid(
                    "acceleration",
                    "acceleration is supported for 2D bodies only (the vertex–edge quartic)".into(),
                ));
            }
            Ok(Body::D3 {
                shape,
                pose,
                velocity: DVec3::from_array(vec_n::<3>(obj, "velocity")?),
                angular: DVec3::from_array(vec_n::<3>(obj, "angular_velocity")?),
            })
        }
        SceneShape::Nd(p) => Err(invalid(
            "shape",
            format!(
                "a {}-dimensional shape cannot move here (only 2D and 3D bodies)",
                p.dim
            ),
        )),
    }
}

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
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
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
    v.to_vec().into_iter().map(|x| x + 0.0).collect()
}

/// A time-of-impact answer with the method that produced it.
pub struct Answer<V> {
    pub method: &'static str,
    pub toi: TimeOfImpact<V>,
    pub note: Option<String>,
}

/// Polygonal 2D shapes: the convex hull of the shape's vertices in the world frame, CCW.
fn world_hull(shape: &Shape2, pose: &Pose2) -> Option<Vec<DVec2>> {
    let v: Vec<DVec2> = shape
        .vertex_set()?
        .into_iter()
        .map(|p| pose.transform_point(p))
        .collect();
    let idx = hull2d(&v);
    let hull: Vec<DVec2> = idx.iter().filter_map(|&i| v.get(i).copied()).collect();
    (!hull.is_empty()).then_some(hull)
}

/// Edges of a CCW hull (one degenerate edge for a single point, one for a segment).
fn hull_edges(h: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    match h.len() {
        0 => Vec::new(),
        1 => vec![(h[0], h[0])],
        2 => vec![(h[0], h[1])],
        n => (0..n).map(|i| (h[i], h[(i + 1) % n])).collect(),
    }
}

/// The quartic path: earliest vertex–edge contact over both directions.
#[allow(clippy::too_many_arguments)]
pub fn quartic_toi(
    ha: &[DVec2],
    va: DVec2,
    aa: DVec2,
    hb: &[DVec2],
    vb: DVec2,
    ab: DVec2,
    h: f64,
) -> Result<TimeOfImpact<DVec2>, InputError> {
    let mut best: Option<TimeOfImpact<DVec2>> = None;
    let mut consider = |r: TimeOfImpact<DVec2>, flip: bool| {
        if let TimeOfImpact::Hit {
            toi,
            normal,
            points,
        } = r
        {
            if best.and_then(|b| b.toi()).is_none_or(|t| toi < t) {
                best = Some(TimeOfImpact::Hit {
                    toi,
                    normal: if flip { -normal } else { normal },
                    points,
                });
            }
        }
    };
    // Vertices of B against edges of A (the normal of an A edge already points A → B) and
    // vertices of A against edges of B (flipped).
    for (p, q) in hull_edges(ha) {
        let (ka, kb) = (
            Kinematic2::with_acceleration(p, va, aa),
            Kinematic2::with_acceleration(q, va, aa),
        );
        for &x in hb {
            let r = vertex_edge_toi(&Kinematic2::with_acceleration(x, vb, ab), &ka, &kb, h)?;
            consider(r, false);
        }
    }
    for (p, q) in hull_edges(hb) {
        let (ka, kb) = (
            Kinematic2::with_acceleration(p, vb, ab),
            Kinematic2::with_acceleration(q, vb, ab),
        );
        for &x in ha {
            let r = vertex_edge_toi(&Kinematic2::with_acceleration(x, va, aa), &ka, &kb, h)?;
            consider(r, true);
        }
    }
    Ok(best.unwrap_or(TimeOfImpact::Separated))
}

/// Answers one 2D pair.
pub fn answer2(
    (a, pose_a, va, wa, aa): (&Shape2, &Pose2, DVec2, f64, DVec2),
    (b, pose_b, vb, wb, ab): (&Shape2, &Pose2, DVec2, f64, DVec2),
    h: f64,
) -> Result<Answer<DVec2>, InputError> {
    let accelerates = aa != DVec2::ZERO || ab != DVec2::ZERO;
    let rotates = wa != 0.0 || wb != 0.0;
    let mut note = None;
    if accelerates {
        let hulls = (!rotates)
            .then(|| world_hull(a, pose_a).zip(world_hull(b, pose_b)))
            .flatten();
        if let Some((ha, hb)) = hulls {
            let r = gjk::intersects(a, pose_a, b, pose_b, &gjk::Options::default(), None);
            let toi = if r.intersecting() == Some(true) {
                TimeOfImpact::InitiallyOverlapping
            } else {
                quartic_toi(&ha, va, aa, &hb, vb, ab, h)?
            };
            return Ok(Answer {
                method: "vertex_edge_quartic",
                toi,
                note: None,
            });
        }
        note = Some(
            if rotates {
                "acceleration ignored: the quartic vertex–edge method needs non-rotating \
                 bodies; constant velocity used"
            } else {
                "acceleration ignored: the quartic vertex–edge method needs polygonal shapes; \
                 constant velocity used"
            }
            .to_string(),
        );
    }
    if rotates {
        let ma = Motion::new(*pose_a, va, wa);
        let mb = Motion::new(*pose_b, vb, wb);
        let toi = conservative_advancement(a, &ma, b, &mb, h, &AdvancementOptions::default())?;
        return Ok(Answer {
            method: "conservative_advancement",
            toi,
            note,
        });
    }
    let toi = swept_toi(a, pose_a, va, b, pose_b, vb, h, &SweptOptions::default())?;
    Ok(Answer {
        method: "swept_ray_cast",
        toi,
        note,
    })
}

/// Answers one 3D pair.
pub fn answer3(
    (a, pose_a, va, wa): (&Shape3, &Pose3, DVec3, DVec3),
    (b, pose_b, vb, wb): (&Shape3, &Pose3, DVec3, DVec3),
    h: f64,
) -> Result<Answer<DVec3>, InputError> {
    if wa != DVec3::ZERO || wb != DVec3::ZERO {
        let ma = Motion::new(*pose_a, va, wa);
        let mb = Motion::new(*pose_b, vb, wb);
        let toi = conservative_advancement(a, &ma, b, &mb, h, &AdvancementOptions::default())?;
        return Ok(Answer {
            method: "conservative_advancement",
            toi,
            note: None,
        });
    }
    let toi = swept_toi(a, pose_a, va, b, pose_b, vb, h, &SweptOptions::default())?;
    Ok(Answer {
        method: "swept_ray_cast",
        toi,
        note: None,
    })
}

fn line<'a, V: Vector>(pair: usize, a: &'a str, b: &'a str, ans: Answer<V>) -> ToiLine<'a> {
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
        method: ans.method,
        status: ans.toi.status(),
        toi,
        normal,
        points,
        reached,
        note: ans.note,
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
pub fn run(args: &[String]) -> Result<i32, Fatal> {
    let file = file_arg("toi", args)?;
    let v = read_json(&file)?;
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
    let mut warnings = Vec::new();
    let bodies: BTreeMap<&str, Result<Body, String>> = bodies_o
        .iter()
        .map(|(name, bv)| {
            let at = format!("bodies.{name}");
            let b = parse_body(bv, &at, &mut warnings)
                .map_err(|e| format!("{}", e.within(&format!("bodies.{name}"))));
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
                ) => answer2((a, pa, *va, *wa, *aa), (b, pb, *vb, *wb, *ab), h)
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
                ) => answer3((a, pa, *va, *wa), (b, pb, *vb, *wb), h)
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
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok((lines, errors))
}
