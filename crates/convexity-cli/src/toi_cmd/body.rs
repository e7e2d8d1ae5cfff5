//! Reading one moving body of the `toi` input: shape, pose, velocity, angular velocity and
//! (2D only) acceleration.

use crate::fields::{self, describe, Object};
use crate::scene::{parse_pose2, parse_pose3, parse_shape, Files, SceneShape};

/// Why a body cannot be a mesh file.
const NO_MESH_FILES: &str = "mesh files are read by `convexity query` and `convexity \
                             contains` only; give a moving body its points (\"points\")";
use convexity::{DVec2, DVec3, InputError, Pose2, Pose3, Problem, Shape2, Shape3};
use serde_json::Value;

/// A body's motion, by dimension.
#[derive(Clone, Debug)]
pub(super) enum Body {
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

pub(super) fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

pub(super) fn vec_n<const N: usize>(obj: &Object, key: &str) -> Result<[f64; N], InputError> {
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

pub(super) const BODY_KEYS: &[&str] = &[
    "shape",
    "pose",
    "velocity",
    "angular_velocity",
    "acceleration",
];

pub(super) fn parse_body(v: &Value) -> Result<Body, InputError> {
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
    let shape = parse_shape(
        fields::required(obj, "shape", "a body")?,
        &Files::refused(NO_MESH_FILES),
    )
    .map_err(|e| e.within("shape"))?;
    match shape {
        SceneShape::D2(shape) => {
            let pose = parse_pose2(obj.get("pose")).map_err(|e| e.within("pose"))?;
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
            let pose = parse_pose3(obj.get("pose")).map_err(|e| e.within("pose"))?;
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
        // A mesh file is refused before it is read (`NO_MESH_FILES`).
        SceneShape::Solid(_) => Err(invalid("shape", NO_MESH_FILES.to_string())),
        SceneShape::Nd(p) => Err(invalid(
            "shape",
            format!(
                "a {}-dimensional shape cannot move here (only 2D and 3D bodies)",
                p.dim
            ),
        )),
    }
}
