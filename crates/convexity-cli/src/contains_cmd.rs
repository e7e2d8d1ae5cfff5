//! `convexity contains FILE`: for each pair of a scene, is shape `a` contained in shape `b`?
//!
//! The scene format is that of `convexity query`. Containment is decided on vertex sets by
//! [`convexity::lp::contains`]: `conv(A) ⊆ conv(B)` iff every vertex of A is a convex
//! combination of B's vertices (a convex set containing the vertices contains their hull), one
//! LP per vertex. 2D and 3D shapes are placed by their poses and contribute their world-frame
//! vertices ([`Polytope::vertex_set`] gives them in the shape's frame); n-dimensional `points`
//! shapes are used as given (they have no pose). Curved shapes (spheres, capsules, cylinders,
//! cones, anything rounded by a positive radius) have no vertex set and are reported as
//! per-pair errors.
//!
//! Output, one JSON line per pair in input order: `pair`, `a`, `b`, `dim`, `contained`
//! (true/false/null), `status`, `iterations` (simplex pivots), `tolerance`, `certificate`,
//! `certificate_checked`, and `vertices_a`/`vertices_b` (the world-frame vertex sets the
//! certificate refers to). The certificate is either `{"weights": [...]}`, one list of
//! `[vertex of b, weight]` pairs per vertex of `a` (non-negative, summing to 1, reproducing
//! the vertex within the tolerance), or `{"vertex": k, "point": p, "separating_axis":
//! n, "gap": g}` (the certificate form every command uses) with `n·p + g ≤ n·y` for every vertex `y` of `b`. Every
//! certificate is checked with [`convexity::nd::points::verify_n`] before printing.
//!
//! Exit status: 0 all pairs answered and certified; 1 some pair undetermined or a certificate
//! rejected; 2 bad usage, bad input, or some pair reported as an error line.

use crate::fields::quote;
use crate::output::{to_line, ErrorLine};
use crate::scene::{PoseAny, Scene, SceneShape};
use crate::{exit, Fatal};
use convexity::lp::{contains, ContainmentOutcome, LpOptions};
use convexity::nd::points::{verify_n, CommonPointN, PointsN, VerdictN};
use convexity::shape::Polytope;
use convexity::{Pose, Vector};
use serde_json::{json, Value};
use std::io::Write;

/// The input format, shown by `convexity contains --help`.
pub const FORMAT_HELP: &str = "\
INPUT: a scene in the query format ({\"shapes\": {...}, \"pairs\": [{\"a\", \"b\", \"pose_a\",
  \"pose_b\"}]}); shapes must have vertex sets (points, box, segment, triangle, polygon,
  halfspaces), in any dimension for points.

OUTPUT: one JSON line per pair: pair, a, b, dim, contained (true/false/null), status,
  iterations, tolerance, certificate ({weights} per vertex of a, or {vertex, point,
  separating_axis, gap}), certificate_checked, vertices_a, vertices_b.

EXIT STATUS: 0 all pairs answered and certified; 1 some pair undetermined or a certificate
  rejected; 2 bad usage or bad input; 74 the output could not be written.";

/// Runs the command on `file`; returns the exit status.
pub fn run(file: &str) -> Result<i32, Fatal> {
    let scene = crate::scene::load(file)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut errors, mut unproved, mut yes, mut no) = (0usize, 0usize, 0usize, 0usize);
    for i in 0..scene.pairs.len() {
        let line = match vertex_sets(&scene, i) {
            Ok(pair) => {
                let (v, outcome) = answer(i, &pair);
                match outcome {
                    Some(true) => yes += 1,
                    Some(false) => no += 1,
                    None => unproved += 1,
                }
                to_line(&v)
            }
            Err(msg) => {
                errors += 1;
                to_line(&ErrorLine {
                    pair: i,
                    error: &msg,
                })
            }
        };
        writeln!(out, "{line}").map_err(Fatal::output)?;
    }
    out.flush().map_err(Fatal::output)?;
    drop(out);
    eprintln!(
        "contains: {} pairs: {yes} contained, {no} not contained, {unproved} undetermined or \
         not certified, {errors} errors",
        scene.pairs.len()
    );
    Ok(if errors > 0 {
        exit::INPUT
    } else if unproved > 0 {
        exit::CHECK_FAILED
    } else {
        exit::OK
    })
}

/// A pair reduced to its vertex sets.
pub struct VertexPair {
    pub name_a: String,
    pub name_b: String,
    pub a: PointsN,
    pub b: PointsN,
}

/// Resolves pair `i` (through [`Scene::resolve`], the one resolver) and returns the shapes'
/// world-frame vertex sets, or the per-pair error.
pub fn vertex_sets(scene: &Scene, i: usize) -> Result<VertexPair, String> {
    let here = format!("pairs[{i}]");
    let pair = scene.resolve(i)?;
    let world = |s: &SceneShape, pose: &PoseAny, name: &str| -> Result<PointsN, String> {
        let set_error = |e: convexity::InputError| format!("{here}: shape {}: {e}", quote(name));
        let set = match (s, pose) {
            (SceneShape::D2(s), PoseAny::D2(pose)) => world_set(s.vertex_set(), pose)
                .transpose()
                .map_err(set_error)?,
            (SceneShape::D3(s), PoseAny::D3(pose)) => world_set(s.vertex_set(), pose)
                .transpose()
                .map_err(set_error)?,
            (SceneShape::Nd(p), _) => (p.radius == 0.0).then(|| p.points.clone()),
            (SceneShape::Solid(s), _) => {
                return Err(format!(
                    "{here}: shape {} is the mesh file {} read as \"{}\"; containment needs \
                     vertex sets (read the file with \"as\": \"hull\")",
                    quote(name),
                    quote(&s.file),
                    s.reading()
                ))
            }
            _ => None,
        };
        set.ok_or_else(|| {
            format!(
                "{here}: shape {name} is curved (or rounded); containment needs vertex sets \
                 (points, box, segment, triangle, polygon)",
                name = quote(name)
            )
        })
    };
    let a = world(&pair.a, &pair.pose_a, &pair.names[0])?;
    let b = world(&pair.b, &pair.pose_b, &pair.names[1])?;
    Ok(VertexPair {
        name_a: pair.names[0].to_string(),
        name_b: pair.names[1].to_string(),
        a,
        b,
    })
}

/// The vertices placed at `pose` as an n-D set (`None` for a shape without vertices).
fn world_set<V: Vector>(
    verts: Option<Vec<V>>,
    pose: &Pose<V>,
) -> Option<Result<PointsN, convexity::InputError>> {
    verts.map(|vs| {
        let rows: Vec<Vec<f64>> = vs
            .into_iter()
            .map(|p| pose.transform_point(p).to_vec())
            .collect();
        PointsN::from_rows(&rows)
    })
}

fn clean(v: &[f64]) -> Vec<f64> {
    v.to_vec()
}

fn rows_json(p: &PointsN) -> Value {
    Value::Array(p.iter().map(|r| json!(clean(r))).collect())
}

/// Answers one pair: the output object and `Some(contained)` when proved and certified.
pub fn answer(i: usize, pair: &VertexPair) -> (Value, Option<bool>) {
    let mut v = json!({
        "pair": i,
        "a": pair.name_a,
        "b": pair.name_b,
        "dim": pair.a.dim(),
    });
    let report = match contains(&pair.b, &pair.a, &LpOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            // The sets were validated and have the same dimension; report rather than panic.
            return (json!({"pair": i, "error": e.to_string()}), None);
        }
    };
    let tol = report.tolerance;
    let (contained, certificate, check) = match &report.outcome {
        ContainmentOutcome::Contained { weights } => {
            let check = pair.a.iter().zip(weights).try_for_each(|(p, w)| {
                let one = PointsN::from_rows(&[p]).map_err(|e| e.to_string())?;
                let verdict = VerdictN::Intersecting(CommonPointN {
                    point: p.to_vec(),
                    weights_a: vec![(0, 1.0)],
                    weights_b: w.clone(),
                });
                verify_n(&verdict, &one, &pair.b, tol).map_err(|e| e.to_string())
            });
            let check = if weights.len() == pair.a.len() {
                check
            } else {
                Err("one weight list per vertex of a is missing".to_string())
            };
            let w: Vec<Value> = weights
                .iter()
                .map(|w| Value::Array(w.iter().map(|&(j, x)| json!([j, x])).collect()))
                .collect();
            (Some(true), json!({ "weights": w }), Some(check))
        }
        ContainmentOutcome::NotContained { vertex, hyperplane } => {
            let p = pair.a.iter().nth(*vertex).map(<[f64]>::to_vec);
            let check = match &p {
                Some(p) => PointsN::from_rows(&[p])
                    .map_err(|e| e.to_string())
                    .and_then(|one| {
                        verify_n(&VerdictN::Separated(hyperplane.clone()), &one, &pair.b, tol)
                            .map_err(|e| e.to_string())
                    }),
                None => Err(format!("vertex {vertex} out of range")),
            };
            (
                Some(false),
                json!({
                    "vertex": vertex,
                    "point": p.as_deref().map(clean),
                    "separating_axis": clean(&hyperplane.normal),
                    "gap": hyperplane.gap,
                }),
                Some(check),
            )
        }
        ContainmentOutcome::Undetermined { vertex, status } => (
            None,
            json!({ "undetermined_vertex": vertex, "vertex_status": status.as_str() }),
            None,
        ),
    };
    // The status names of `query` (the library's `Status`): the vertex LP's when undetermined.
    let status = match &report.outcome {
        ContainmentOutcome::Undetermined { status, .. } => status.as_str(),
        _ => "converged",
    };
    let checked = matches!(check, Some(Ok(())));
    if let Some(m) = v.as_object_mut() {
        m.insert("contained".into(), json!(contained));
        m.insert("status".into(), json!(status));
        m.insert("iterations".into(), json!(report.iterations));
        m.insert("tolerance".into(), json!(tol));
        m.insert(
            "certificate".into(),
            if contained.is_some() {
                certificate.clone()
            } else {
                Value::Null
            },
        );
        m.insert("certificate_checked".into(), json!(checked));
        if let Some(Err(e)) = &check {
            m.insert("certificate_error".into(), json!(e));
        }
        if contained.is_none() {
            m.insert("undetermined".into(), certificate);
        }
        m.insert("vertices_a".into(), rows_json(&pair.a));
        m.insert("vertices_b".into(), rows_json(&pair.b));
    }
    (v, if checked { contained } else { None })
}
