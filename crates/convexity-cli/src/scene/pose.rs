//! Parsing poses: 2D (`translation`, `angle`) and 3D (`translation`, `rotation` quaternion).

use super::invalid;
use crate::fields::{self, describe, Object};
use convexity::{InputError, Pose2, Pose3, Problem};
use serde_json::Value;

/// Reads a pose object; an unknown key is an error with a suggestion.
fn pose_object<'a>(
    v: Option<&'a Value>,
    allowed: &[&str],
    other_dim: (&str, &str),
) -> Result<Option<&'a Object>, InputError> {
    let Some(v) = v else { return Ok(None) };
    if v.is_null() {
        return Ok(None);
    }
    let obj = v.as_object().ok_or_else(|| {
        invalid(
            "",
            format!(
                "expected a pose object ({}), found {}",
                allowed.join(", "),
                describe(v)
            ),
        )
    })?;
    let (wrong_key, advice) = other_dim;
    if obj.contains_key(wrong_key) {
        return Err(invalid(wrong_key, advice.to_string()));
    }
    fields::check_keys(obj, allowed, "a pose")?;
    Ok(Some(obj))
}

fn fixed<const N: usize>(
    obj: &Object,
    key: &str,
    default: [f64; N],
) -> Result<[f64; N], InputError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => {
            let c = fields::numbers(v, key)?;
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

/// A 3D pose: `translation` [x, y, z] and `rotation` as a unit quaternion [x, y, z, w].
pub fn parse_pose3(v: Option<&Value>) -> Result<Pose3, InputError> {
    let Some(obj) = pose_object(
        v,
        &["translation", "rotation"],
        (
            "angle",
            "a 3D pose takes \"rotation\" as a unit quaternion [x, y, z, w], not \"angle\"",
        ),
    )?
    else {
        return Ok(Pose3::IDENTITY);
    };
    let t = fixed(obj, "translation", [0.0; 3])?;
    let q = fixed(obj, "rotation", [0.0, 0.0, 0.0, 1.0])?;
    Pose3::from_parts(t, q)
}

/// A 2D pose: `translation` [x, y] and `angle` in radians.
pub fn parse_pose2(v: Option<&Value>) -> Result<Pose2, InputError> {
    let Some(obj) = pose_object(
        v,
        &["translation", "angle"],
        (
            "rotation",
            "a 2D pose takes \"angle\" in radians, not a quaternion \"rotation\"",
        ),
    )?
    else {
        return Ok(Pose2::IDENTITY);
    };
    let t = fixed(obj, "translation", [0.0; 2])?;
    let angle = match obj.get("angle") {
        None | Some(Value::Null) => 0.0,
        Some(v) => fields::number(v, "angle")?,
    };
    Pose2::from_angle(t, angle)
}
