//! Poses from Python: 3D as a (7,) array `[tx, ty, tz, qx, qy, qz, qw]` (scalar-last, as the
//! CLI and scipy) or a (4, 4) homogeneous matrix; 2D as `[tx, ty, angle]` or a (3, 3) matrix;
//! `None` is the identity. A quaternion whose norm differs from 1 by more than 1e-6 is rejected
//! (the library's rule); a matrix must be rigid (orthonormal rotation, det +1, last row
//! `[0, …, 0, 1]`) to 1e-6.

use crate::convert::{self, value_error};
use convexity::{DQuat, DVec3, Pose2, Pose3, Problem};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// How a pose is laid out in a flat row of floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// 3D `[tx, ty, tz, qx, qy, qz, qw]`.
    Quat7,
    /// 3D 4x4 homogeneous matrix, row-major.
    Mat4,
    /// 2D `[tx, ty, angle]`.
    Angle3,
    /// 2D 3x3 homogeneous matrix, row-major.
    Mat3,
}

impl Layout {
    pub fn width(self) -> usize {
        match self {
            Layout::Quat7 => 7,
            Layout::Mat4 => 16,
            Layout::Angle3 => 3,
            Layout::Mat3 => 9,
        }
    }
    pub fn dim(self) -> usize {
        match self {
            Layout::Quat7 | Layout::Mat4 => 3,
            Layout::Angle3 | Layout::Mat3 => 2,
        }
    }
    /// The layout of one pose of this array shape (trailing dimensions).
    pub fn of_shape(shape: &[usize]) -> Option<Layout> {
        match shape {
            [7] => Some(Layout::Quat7),
            [4, 4] => Some(Layout::Mat4),
            [3] => Some(Layout::Angle3),
            [3, 3] => Some(Layout::Mat3),
            _ => None,
        }
    }
}

const RIGID_TOL: f64 = 1e-6;

fn check_finite(v: &[f64], layout: Layout) -> Result<(), String> {
    for (k, x) in v.iter().enumerate() {
        if !x.is_finite() {
            let at = match layout {
                Layout::Mat4 => format!("[{}][{}]", k / 4, k % 4),
                Layout::Mat3 => format!("[{}][{}]", k / 3, k % 3),
                _ => format!("[{k}]"),
            };
            return Err(format!("{at}: value {x} is not finite"));
        }
    }
    Ok(())
}

/// Checks `R^T R = I`, `det R = +1` and the last row of a homogeneous matrix.
fn check_rigid(m: &[f64], n: usize) -> Result<(), String> {
    let k = n - 1;
    let r = |i: usize, j: usize| m[i * n + j];
    for j in 0..n {
        let want = if j == k { 1.0 } else { 0.0 };
        if (m[k * n + j] - want).abs() > RIGID_TOL {
            return Err(format!(
                "[{k}][{j}]: the last row of a homogeneous matrix must be [0, ..., 0, 1], found {}",
                m[k * n + j]
            ));
        }
    }
    let mut worst = 0.0f64;
    for i in 0..k {
        for j in 0..k {
            let dot: f64 = (0..k).map(|l| r(l, i) * r(l, j)).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((dot - want).abs());
        }
    }
    if worst > RIGID_TOL {
        return Err(format!(
            ": the rotation part is not orthonormal (|R^T R - I| = {worst:e} > {RIGID_TOL:e})"
        ));
    }
    let det = if k == 3 {
        r(0, 0) * (r(1, 1) * r(2, 2) - r(1, 2) * r(2, 1))
            - r(0, 1) * (r(1, 0) * r(2, 2) - r(1, 2) * r(2, 0))
            + r(0, 2) * (r(1, 0) * r(2, 1) - r(1, 1) * r(2, 0))
    } else {
        r(0, 0) * r(1, 1) - r(0, 1) * r(1, 0)
    };
    if det < 0.0 {
        return Err(": the rotation part is a reflection (determinant -1)".into());
    }
    Ok(())
}

/// A 3D pose from a flat row; the error is a suffix for the field (`[3]: ...` or `: ...`).
pub fn pose3_from(v: &[f64], layout: Layout) -> Result<Pose3, String> {
    check_finite(v, layout)?;
    match layout {
        Layout::Quat7 => {
            Pose3::from_parts([v[0], v[1], v[2]], [v[3], v[4], v[5], v[6]]).map_err(|e| {
                match e.problem {
                    Problem::NotUnit(n) => format!(
                        "[3:7]: the quaternion [qx, qy, qz, qw] must have unit norm (within \
                         1e-6), its norm is {n}"
                    ),
                    _ => format!(": {e}"),
                }
            })
        }
        Layout::Mat4 => {
            check_rigid(v, 4)?;
            let [tx, ty, tz, qx, qy, qz, qw] = mat4_raw(v);
            Pose3::new(DVec3::new(tx, ty, tz), DQuat::from_xyzw(qx, qy, qz, qw))
                .map_err(|e| format!(": {e}"))
        }
        _ => Err(": expected a 3D pose".into()),
    }
}

/// `[tx, ty, tz, qx, qy, qz, qw]` of a row-major 4x4 matrix already checked to be rigid (the
/// quaternion normalised): the values `pose3_from` builds its pose from.
pub fn mat4_raw(v: &[f64]) -> [f64; 7] {
    let m = glam::DMat3::from_cols_array(&[v[0], v[4], v[8], v[1], v[5], v[9], v[2], v[6], v[10]]);
    let q = DQuat::from_mat3(&m).normalize();
    [v[3], v[7], v[11], q.x, q.y, q.z, q.w]
}

/// `[tx, ty, angle]` of a row-major 3x3 matrix already checked to be rigid: the values
/// `pose2_from` builds its pose from.
pub fn mat3_raw(v: &[f64]) -> [f64; 3] {
    [v[2], v[5], v[3].atan2(v[0])]
}

/// A 2D pose from a flat row.
pub fn pose2_from(v: &[f64], layout: Layout) -> Result<Pose2, String> {
    check_finite(v, layout)?;
    match layout {
        Layout::Angle3 => Pose2::from_angle([v[0], v[1]], v[2]).map_err(|e| format!(": {e}")),
        Layout::Mat3 => {
            check_rigid(v, 3)?;
            let [tx, ty, angle] = mat3_raw(v);
            Pose2::from_angle([tx, ty], angle).map_err(|e| format!(": {e}"))
        }
        _ => Err(": expected a 2D pose".into()),
    }
}

/// The values of a flat pose of `N` numbers, read without a heap copy: a one-dimensional
/// contiguous float64 array, or a list or tuple of `N` numbers (each converted as
/// [`convert::array`] converts them, by `float()`); `None` for anything else, which then takes
/// the general path (which also words the errors). The general path's two vectors (shape and
/// values) cost about as much as the query itself on a pair of balls.
fn flat<'py, const N: usize>(obj: &Bound<'py, PyAny>) -> Option<[f64; N]> {
    let mut v = [0.0; N];
    if let Ok(a) = obj.cast::<PyArray1<f64>>() {
        // SAFETY: the values are copied out at once while this thread holds the GIL (as in
        // `convert::array`).
        let s = unsafe { a.as_slice() }.ok()?;
        v.copy_from_slice(s.get(..N).filter(|_| s.len() == N)?);
        return Some(v);
    }
    // A list's or a tuple's length and items.
    let (len, item): (usize, &dyn Fn(usize) -> PyResult<Bound<'py, PyAny>>) =
        if let Ok(l) = obj.cast_exact::<PyList>() {
            (l.len(), &move |k| l.get_item(k))
        } else if let Ok(t) = obj.cast_exact::<PyTuple>() {
            (t.len(), &move |k| t.get_item(k))
        } else {
            return None;
        };
    if len != N {
        return None;
    }
    for (k, x) in v.iter_mut().enumerate() {
        *x = item(k).ok()?.extract::<f64>().ok()?;
    }
    Some(v)
}

/// Builds a pose from an object other than `None`: a flat pose of `N` numbers in `flat_layout`
/// read on the stack first ([`flat`]), anything else (a matrix, a scene-format object, a
/// sequence to convert) through [`convert::array`]; `build` checks the values. Every error
/// names `field`.
fn read<const N: usize, P>(
    obj: &Bound<'_, PyAny>,
    field: &str,
    flat_layout: Layout,
    build: impl Fn(&[f64], Layout) -> Result<P, String>,
) -> PyResult<P> {
    let built = match flat::<N>(obj) {
        Some(v) => build(&v, flat_layout),
        None => {
            let dim = flat_layout.dim();
            let (l, v) = if let Ok(d) = obj.cast::<PyDict>() {
                scene_pose(d, field, dim)?
            } else {
                let a = convert::array(obj, field)?;
                match Layout::of_shape(&a.shape) {
                    Some(l) if l.dim() == dim => (l, a.data),
                    _ => {
                        return Err(value_error(
                            field,
                            format!(
                                "expected {}, found an array of shape {}",
                                expected(dim),
                                a.shape_str()
                            ),
                        ))
                    }
                }
            };
            build(&v, l)
        }
    };
    built.map_err(|e| value_error("", format!("{field}{e}")))
}

pub fn expected(dim: usize) -> &'static str {
    if dim == 2 {
        "a 2D pose: [tx, ty, angle] of shape (3,) or a (3, 3) matrix, or None"
    } else {
        "a 3D pose: [tx, ty, tz, qx, qy, qz, qw] of shape (7,) or a (4, 4) matrix, or None"
    }
}

/// A 3D pose argument.
pub fn pose3(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Pose3> {
    if obj.is_none() {
        return Ok(Pose3::IDENTITY);
    }
    read::<7, _>(obj, field, Layout::Quat7, pose3_from)
}

/// A 2D pose argument.
pub fn pose2(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Pose2> {
    if obj.is_none() {
        return Ok(Pose2::IDENTITY);
    }
    read::<3, _>(obj, field, Layout::Angle3, pose2_from)
}

/// A scene-format pose object: `translation` and `rotation` [x, y, z, w] (3D) or `angle` (2D).
fn scene_pose(d: &Bound<'_, PyDict>, field: &str, dim: usize) -> PyResult<(Layout, Vec<f64>)> {
    let get = |k: &str, default: &[f64]| -> PyResult<Vec<f64>> {
        match d.get_item(k)? {
            Some(v) if !v.is_none() => {
                let a = convert::array(&v, &format!("{field}.{k}"))?;
                if a.data.len() != default.len() || a.ndim() > 1 {
                    return Err(value_error(
                        &format!("{field}.{k}"),
                        format!(
                            "expected {} numbers, found shape {}",
                            default.len(),
                            a.shape_str()
                        ),
                    ));
                }
                Ok(a.data)
            }
            _ => Ok(default.to_vec()),
        }
    };
    let (wrong, advice) = if dim == 3 {
        (
            "angle",
            "a 3D pose takes \"rotation\" as a unit quaternion [x, y, z, w], not \"angle\"",
        )
    } else {
        (
            "rotation",
            "a 2D pose takes \"angle\" in radians, not a quaternion \"rotation\"",
        )
    };
    if d.contains(wrong)? {
        return Err(value_error(&format!("{field}.{wrong}"), advice));
    }
    if dim == 3 {
        let mut v = get("translation", &[0.0; 3])?;
        v.extend(get("rotation", &[0.0, 0.0, 0.0, 1.0])?);
        Ok((Layout::Quat7, v))
    } else {
        let mut v = get("translation", &[0.0; 2])?;
        v.extend(get("angle", &[0.0])?);
        Ok((Layout::Angle3, v))
    }
}
