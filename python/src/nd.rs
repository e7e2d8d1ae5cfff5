//! Point sets in any dimension: `separate(X, y)` (maximum-margin hyperplane or an overlap
//! certificate), `contains(hull_points, queries)` (LP membership) and `distance_nd(A, B)`.

use crate::convert::{self, guard, input_error, value_error};
use crate::results::{self, PyCertificate, PyQueryResult};
use convexity::nd::points::{PointsN, VerdictN};
use convexity::nd::{self, Separation};
use convexity::Status;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn rename(field: &str, e: convexity::InputError) -> PyErr {
    // PointsN names rows `points[i][j]`; say which argument they belong to.
    let mut e = e;
    if let Some(rest) = e.field.strip_prefix("points") {
        e.field = format!("{field}{rest}");
    } else if e.field.is_empty() || e.field == "coords" {
        e.field = field.to_string();
    } else {
        e.field = format!("{field}.{}", e.field);
    }
    pyo3::exceptions::PyValueError::new_err(e.to_string())
}

fn points_named(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<PointsN> {
    let (d, flat) = convert::rows(obj, field)?;
    convert::finite(field, &flat, Some(d))?;
    PointsN::new(d, flat).map_err(|e| rename(field, e))
}

/// Maximum-margin separation of two labelled classes in any dimension.
///
/// `X` is (n, d); `y` holds n labels taking exactly two distinct values (any type numpy can
/// sort). The class of the smaller label is A, the other B; the normal points toward B.
/// Returns a dict: `separable` (True, False or None when undetermined), `classes` (the two
/// labels, A first), and for a separable set `normal`, `offset` (the plane `normal·x = offset`),
/// `margin` (half the gap), `point_a`, `point_b`, `certificate`; for an overlapping one
/// `common_point` and `certificate`.
///
/// >>> import numpy as np, convexity as cx
/// >>> X = np.array([[0, 0], [0, 1], [2, 0], [2, 1]]); y = ["a", "a", "b", "b"]
/// >>> s = cx.separate(X, y)
/// >>> s["separable"], round(s["margin"], 12), s["normal"].round(12).tolist()
/// (True, 1.0, [1.0, 0.0])
#[pyfunction]
#[allow(non_snake_case)]
pub fn separate<'py>(
    py: Python<'py>,
    X: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let pts = points_named(X, "X")?;
        let np = py.import("numpy")?;
        let y_arr = np
            .call_method1("asarray", (y,))
            .map_err(|e| value_error("y", e.value(py)))?;
        let ndim: usize = y_arr.getattr("ndim")?.extract()?;
        let len: usize = y_arr.len().unwrap_or(0);
        if ndim != 1 || len != pts.len() {
            return Err(value_error(
                "y",
                format!(
                    "expected {} labels (one per row of X), found an array of shape {}",
                    pts.len(),
                    y_arr.getattr("shape")?.str()?
                ),
            ));
        }
        let uniq = np
            .call_method1("unique", (&y_arr,))
            .map_err(|e| value_error("y", e.value(py)))?;
        let k = uniq.len()?;
        if k != 2 {
            return Err(value_error(
                "y",
                format!("expected exactly two distinct labels, found {k}"),
            ));
        }
        let hi = uniq.get_item(1)?;
        let mask = np.call_method1("equal", (&y_arr, &hi))?;
        let labels: Vec<bool> = np
            .call_method1("asarray", (mask, np.getattr("bool_")?))?
            .call_method0("tolist")?
            .extract()?;
        let sep = nd::separate_labelled(&pts, &labels, &nd::NdOptions::default())
            .map_err(|e| input_error("", e))?;
        let out = PyDict::new(py);
        out.set_item("classes", (uniq.get_item(0)?, hi))?;
        match sep {
            Separation::Separable {
                normal,
                offset,
                margin,
                certificate,
                point_a,
                point_b,
            } => {
                out.set_item("separable", true)?;
                out.set_item("normal", results::vector(py, normal))?;
                out.set_item("offset", offset)?;
                out.set_item("margin", margin)?;
                out.set_item("point_a", results::vector(py, point_a))?;
                out.set_item("point_b", results::vector(py, point_b))?;
                out.set_item(
                    "certificate",
                    PyCertificate::from_verdict_n(&VerdictN::Separated(certificate)),
                )?;
                out.set_item("status", Status::Converged.as_str())?;
            }
            Separation::Overlapping { common_point, .. } => {
                out.set_item("separable", false)?;
                out.set_item("common_point", results::vector(py, common_point.clone()))?;
                out.set_item(
                    "certificate",
                    PyCertificate::from_verdict_n(&VerdictN::Intersecting(
                        convexity::nd::points::CommonPointN {
                            point: common_point,
                            weights_a: Vec::new(),
                            weights_b: Vec::new(),
                        },
                    )),
                )?;
                out.set_item("status", Status::Converged.as_str())?;
            }
            Separation::Undetermined { status } => {
                out.set_item("separable", py.None())?;
                out.set_item("status", status.as_str())?;
            }
        }
        Ok(out)
    })
}

/// Which query points lie in the convex hull of `hull_points` (boundary included), by LP
/// with a certificate per point. `hull_points` is (n, d); `queries` is (m, d) or one point
/// (d,). Returns an (m,) bool array (a 0-d bool for one point). With `certified=True` it
/// returns `(inside, certified)`: `certified[i]` is False where the LP could prove neither
/// answer (then `inside[i]` is False).
///
/// >>> import convexity as cx
/// >>> cx.contains([[0, 0], [1, 0], [0, 1]], [[0.2, 0.2], [1, 1]]).tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (hull_points, queries, certified = false))]
pub fn contains<'py>(
    py: Python<'py>,
    hull_points: &Bound<'py, PyAny>,
    queries: &Bound<'py, PyAny>,
    certified: bool,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let hull = points_named(hull_points, "hull_points")?;
        let q = convert::array(queries, "queries")?;
        let single = q.ndim() == 1;
        let (d, flat) = match q.shape.as_slice() {
            [d] => (*d, q.data.clone()),
            [_, d] => (*d, q.data.clone()),
            _ => {
                return Err(value_error(
                    "queries",
                    format!("expected (m, d) or (d,), found shape {}", q.shape_str()),
                ))
            }
        };
        if d != hull.dim() {
            return Err(value_error(
                "queries",
                format!(
                    "expected points of {} coordinates (like hull_points), found {d}",
                    hull.dim()
                ),
            ));
        }
        if flat.is_empty() {
            let empty = PyArray1::<bool>::from_vec(py, Vec::new()).into_any();
            return if certified {
                Ok((empty.clone(), empty).into_pyobject(py)?.into_any())
            } else {
                Ok(empty)
            };
        }
        convert::finite("queries", &flat, (!single).then_some(d))?;
        let qp = PointsN::new(d, flat).map_err(|e| rename("queries", e))?;
        let opts = convexity::lp::LpOptions::default();
        let res = py
            .detach(|| convexity::lp::points_in_hull(&qp, &hull, &opts))
            .map_err(|e| input_error("", e))?;
        let inside: Vec<bool> = res.iter().map(|r| r.inside() == Some(true)).collect();
        let cert: Vec<bool> = res.iter().map(|r| r.inside().is_some()).collect();
        let wrap = |v: Vec<bool>| -> PyResult<Bound<'py, PyAny>> {
            let a = PyArray1::from_vec(py, v).into_any();
            if single {
                a.get_item(0)
            } else {
                Ok(a)
            }
        };
        if certified {
            Ok((wrap(inside)?, wrap(cert)?).into_pyobject(py)?.into_any())
        } else {
            wrap(inside)
        }
    })
}

/// Distance between the convex hulls of two point sets in any dimension (n-D GJK), with
/// closest points, normal and certificate. `A` is (n, d), `B` is (m, d).
///
/// >>> import convexity as cx
/// >>> r = cx.distance_nd([[0, 0, 0, 0]], [[3, 4, 0, 0], [3, 4, 1, 1]])
/// >>> round(r.distance, 12)
/// 5.0
#[pyfunction]
#[allow(non_snake_case)]
pub fn distance_nd(A: &Bound<'_, PyAny>, B: &Bound<'_, PyAny>) -> PyResult<PyQueryResult> {
    guard(|| {
        let a = points_named(A, "A")?;
        let b = points_named(B, "B")?;
        if a.dim() != b.dim() {
            return Err(value_error(
                "B",
                format!(
                    "expected points of {} coordinates (like A), found {}",
                    a.dim(),
                    b.dim()
                ),
            ));
        }
        let d =
            nd::distance_n(&a, &b, &nd::NdOptions::default()).map_err(|e| input_error("", e))?;
        let mut r = PyQueryResult::new("gjk-nd", d.status, d.iterations, d.tolerance);
        r.distance = Some(d.distance);
        r.lower_bound = Some(d.lower_bound);
        r.intersecting = d.verdict.intersecting();
        r.point_a = Some(d.point_a.into());
        r.point_b = Some(d.point_b.into());
        r.normal = Some(d.normal.into());
        r.certificate = PyCertificate::from_verdict_n(&d.verdict);
        Ok(r)
    })
}
