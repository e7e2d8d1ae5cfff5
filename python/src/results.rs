//! Result classes: `QueryResult` (one pair), `Certificate`, `BatchResult` (numpy arrays).
//!
//! Single results keep plain Rust values and build numpy arrays only when a field is read, so
//! that a query's cost from Python is the query plus one small object.

use crate::convert::{self, guard, value_error};
use convexity::nd::points::{CommonPointN, SeparatingHyperplane, VerdictN};
use convexity::{CommonPoint, SeparatingAxis, Status, Vector, Verdict};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use smallvec::SmallVec;

pub fn vector<'py>(py: Python<'py>, v: Vec<f64>) -> Bound<'py, PyAny> {
    v.into_pyarray(py).into_any()
}

pub fn matrix<'py>(py: Python<'py>, flat: Vec<f64>, cols: usize) -> PyResult<Bound<'py, PyAny>> {
    let n = flat.len() / cols.max(1);
    Ok(PyArray1::from_vec(py, flat).reshape([n, cols])?.into_any())
}

/// A point's or a vector's coordinates, inline up to three (2D and 3D results carry four
/// of these — two points, a normal and a certificate — and as `Vec`s their allocations cost
/// more than a ball–ball query itself from Python).
pub type Coords = SmallVec<[f64; 3]>;

pub fn coords<V: Vector>(v: V) -> Vec<f64> {
    (0..V::DIM).map(|i| v.coord(i)).collect()
}

/// [`coords`] without a heap allocation (2D and 3D). Filled in place: collecting an iterator
/// into a `SmallVec` ran its generic `extend` (about 95 instructions a vector).
pub fn inline_coords<V: Vector>(v: V) -> Coords {
    if V::DIM > 3 {
        return (0..V::DIM).map(|i| v.coord(i)).collect();
    }
    let mut buf = [0.0; 3];
    for (i, b) in buf.iter_mut().enumerate().take(V::DIM) {
        *b = v.coord(i);
    }
    Coords::from_buf_and_len(buf, V::DIM)
}

/// The evidence for a boolean answer: a separating axis with its gap, or a common point.
///
/// >>> import convexity as cx
/// >>> c = cx.Certificate.separating_axis([1, 0, 0], 0.5)
/// >>> c.kind
/// 'separating_axis'
#[pyclass(frozen, module = "convexity", name = "Certificate")]
#[derive(Clone, Debug)]
pub struct PyCertificate {
    /// "separating_axis" or "common_point".
    pub kind: &'static str,
    pub axis: Coords,
    pub gap: f64,
    pub point: Coords,
}

impl PyCertificate {
    pub fn from_verdict<V: Vector>(v: &Verdict<V>) -> Option<Self> {
        match v {
            Verdict::Separated(s) => Some(Self::new_axis(inline_coords(s.axis), s.gap)),
            Verdict::Intersecting(c) => Some(Self::new_point(inline_coords(c.point))),
            Verdict::Undetermined => None,
        }
    }
    pub fn from_verdict_n(v: &VerdictN) -> Option<Self> {
        match v {
            VerdictN::Separated(h) => Some(Self::new_axis(h.normal.as_slice().into(), h.gap)),
            VerdictN::Intersecting(c) => Some(Self::new_point(c.point.as_slice().into())),
            VerdictN::Undetermined => None,
        }
    }
    fn new_axis(axis: Coords, gap: f64) -> Self {
        PyCertificate {
            kind: "separating_axis",
            axis,
            gap,
            point: Coords::new(),
        }
    }
    fn new_point(point: Coords) -> Self {
        PyCertificate {
            kind: "common_point",
            axis: Coords::new(),
            gap: f64::NAN,
            point,
        }
    }
    fn len(&self) -> usize {
        if self.kind == "separating_axis" {
            self.axis.len()
        } else {
            self.point.len()
        }
    }
    /// The library verdict in dimension `V::DIM`.
    pub fn verdict<V: Vector>(&self) -> PyResult<Verdict<V>> {
        if self.len() != V::DIM {
            return Err(value_error(
                "certificate",
                format!(
                    "has {} coordinates but the shapes are {}D",
                    self.len(),
                    V::DIM
                ),
            ));
        }
        Ok(if self.kind == "separating_axis" {
            Verdict::Separated(SeparatingAxis {
                axis: V::from_slice(&self.axis).unwrap_or(V::ZERO),
                gap: self.gap,
            })
        } else {
            Verdict::Intersecting(CommonPoint {
                point: V::from_slice(&self.point).unwrap_or(V::ZERO),
            })
        })
    }
    /// The n-dimensional verdict (a common point carries no weights: only hyperplanes can be
    /// checked this way).
    pub fn verdict_n(&self) -> VerdictN {
        if self.kind == "separating_axis" {
            VerdictN::Separated(SeparatingHyperplane {
                normal: self.axis.to_vec(),
                gap: self.gap,
            })
        } else {
            VerdictN::Intersecting(CommonPointN {
                point: self.point.to_vec(),
                weights_a: Vec::new(),
                weights_b: Vec::new(),
            })
        }
    }
}

#[pymethods]
impl PyCertificate {
    /// A separating axis `axis` (unit, from A toward B) with `gap > 0`:
    /// `max_A axis·x + gap <= min_B axis·y`.
    #[staticmethod]
    fn separating_axis(axis: &Bound<'_, PyAny>, gap: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| {
            let a = convert::vector(axis, "axis")?;
            let g = convert::number(gap, "gap")?;
            Ok(Self::new_axis(a.into(), g))
        })
    }

    /// A point common to both shapes (world frame).
    #[staticmethod]
    fn common_point(point: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| Ok(Self::new_point(convert::vector(point, "point")?.into())))
    }

    /// "separating_axis" or "common_point".
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }
    /// The unit axis from A toward B (separating axis), else None.
    #[getter]
    fn axis<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        (self.kind == "separating_axis").then(|| vector(py, self.axis.to_vec()))
    }
    /// The certified gap, a lower bound on the distance (separating axis), else None.
    #[getter]
    fn gap(&self) -> Option<f64> {
        (self.kind == "separating_axis").then_some(self.gap)
    }
    /// The common point (world frame), else None.
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        (self.kind == "common_point").then(|| vector(py, self.point.to_vec()))
    }
    fn __repr__(&self) -> String {
        if self.kind == "separating_axis" {
            format!(
                "Certificate.separating_axis(axis={:?}, gap={:?})",
                self.axis, self.gap
            )
        } else {
            format!("Certificate.common_point(point={:?})", self.point)
        }
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyCertificate>() {
            Ok(o) => {
                let o = o.get();
                o.kind == self.kind
                    && o.axis == self.axis
                    && o.point == self.point
                    && (o.gap == self.gap || (o.gap.is_nan() && self.gap.is_nan()))
            }
            Err(_) => false,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let cls = py.import("convexity")?.getattr("Certificate")?;
        if self.kind == "separating_axis" {
            Ok((
                cls.getattr("separating_axis")?,
                (self.axis.to_vec(), self.gap).into_pyobject(py)?.into_any(),
            ))
        } else {
            Ok((
                cls.getattr("common_point")?,
                (self.point.to_vec(),).into_pyobject(py)?.into_any(),
            ))
        }
    }
}

/// The answer for one pair. Points and vectors are in the world frame; fields a method does
/// not compute are None.
#[pyclass(frozen, module = "convexity", name = "QueryResult")]
#[derive(Clone, Debug)]
pub struct PyQueryResult {
    pub method: &'static str,
    pub distance: Option<f64>,
    pub lower_bound: Option<f64>,
    pub intersecting: Option<bool>,
    pub point_a: Option<Coords>,
    pub point_b: Option<Coords>,
    pub normal: Option<Coords>,
    pub depth: Option<f64>,
    pub status: Status,
    pub iterations: u32,
    pub certificate: Option<PyCertificate>,
    pub tolerance: f64,
    pub check: Option<String>,
}

impl PyQueryResult {
    pub fn new(method: &'static str, status: Status, iterations: u32, tolerance: f64) -> Self {
        PyQueryResult {
            method,
            distance: None,
            lower_bound: None,
            intersecting: None,
            point_a: None,
            point_b: None,
            normal: None,
            depth: None,
            status,
            iterations,
            certificate: None,
            tolerance,
            check: None,
        }
    }
}

#[pymethods]
impl PyQueryResult {
    /// The method that answered ("gjk", "epa", ...).
    #[getter]
    fn method(&self) -> &'static str {
        self.method
    }
    /// Distance between the shapes (0 when intersecting; an upper bound when undetermined);
    /// None for boolean-only methods.
    #[getter]
    fn distance(&self) -> Option<f64> {
        self.distance
    }
    /// Certified lower bound on the distance (GJK distance), else None.
    #[getter]
    fn lower_bound(&self) -> Option<f64> {
        self.lower_bound
    }
    /// True, False, or None when neither could be proved. Touching counts as intersecting.
    #[getter]
    fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }
    /// Closest point on A (a common point or, for penetration, the contact point on A).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_a.as_ref().map(|v| vector(py, v.to_vec()))
    }
    /// Closest point on B.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_b.as_ref().map(|v| vector(py, v.to_vec()))
    }
    /// Unit normal from A toward B.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.normal.as_ref().map(|v| vector(py, v.to_vec()))
    }
    /// Penetration depth (>= 0 when intersecting, minus the distance when separated) for
    /// penetration queries, else None.
    #[getter]
    fn depth(&self) -> Option<f64> {
        self.depth
    }
    /// How the method ended: "converged", "iteration_limit", "degenerate", ...
    #[getter]
    fn status(&self) -> &'static str {
        self.status.as_str()
    }
    #[getter]
    fn iterations(&self) -> u32 {
        self.iterations
    }
    /// The evidence for `intersecting` (None when undetermined).
    #[getter]
    fn certificate(&self) -> Option<PyCertificate> {
        self.certificate.clone()
    }
    /// The touch tolerance used: gaps up to it count as touching.
    #[getter]
    fn tolerance(&self) -> f64 {
        self.tolerance
    }
    /// For `query`: "verified", "no certificate" or "rejected: ..." (the certificate was
    /// checked independently before returning); None for the direct calls.
    #[getter]
    fn check(&self) -> Option<String> {
        self.check.clone()
    }
    fn __repr__(&self) -> String {
        let mut s = format!(
            "QueryResult(method={:?}, intersecting={}, distance={}",
            self.method,
            match self.intersecting {
                Some(true) => "True",
                Some(false) => "False",
                None => "None",
            },
            self.distance.map_or("None".into(), |d| format!("{d:?}"))
        );
        if let Some(d) = self.depth {
            s += &format!(", depth={d:?}");
        }
        s += &format!(
            ", status={:?}, iterations={})",
            self.status.as_str(),
            self.iterations
        );
        s
    }
}

/// Status names in code order (batch `status` arrays); the last code marks an error row.
pub const STATUS_NAMES: &[&str] = &[
    "converged",
    "iteration_limit",
    "degenerate",
    "numerical",
    "certified",
    "cached_axis",
    "point_from_gjk",
    "identical",
    "error",
];

pub fn status_code(s: Status) -> u8 {
    match s {
        Status::Converged => 0,
        Status::IterationLimit => 1,
        Status::Degenerate => 2,
        Status::Numerical => 3,
        Status::Certified => 4,
        Status::CachedAxis => 5,
        Status::PointFromGjk => 6,
        Status::Identical => 7,
    }
}
pub const ERROR_CODE: u8 = 8;

/// Batch answers as numpy arrays, one row per pair. Rows with an error have `error[i]` set,
/// `status[i] == "error"`, NaN numbers and `intersecting[i] == False`.
#[pyclass(frozen, module = "convexity", name = "BatchResult")]
pub struct PyBatchResult {
    pub n: usize,
    pub distance: Py<PyAny>,
    pub depth: Py<PyAny>,
    pub intersecting: Py<PyAny>,
    pub verdict: Py<PyAny>,
    pub point_a: Py<PyAny>,
    pub point_b: Py<PyAny>,
    pub normal: Py<PyAny>,
    pub iterations: Py<PyAny>,
    pub status_codes: Py<PyAny>,
    pub errors: Vec<(usize, String)>,
}

#[pymethods]
impl PyBatchResult {
    /// (N,) float64 distances (0 when intersecting; NaN for boolean batches and error rows).
    #[getter]
    fn distance(&self, py: Python<'_>) -> Py<PyAny> {
        self.distance.clone_ref(py)
    }
    /// (N,) float64 penetration depths (penetration batches; NaN otherwise).
    #[getter]
    fn depth(&self, py: Python<'_>) -> Py<PyAny> {
        self.depth.clone_ref(py)
    }
    /// (N,) bool: True when the pair intersects (touching counts), proved by a certificate.
    #[getter]
    fn intersecting(&self, py: Python<'_>) -> Py<PyAny> {
        self.intersecting.clone_ref(py)
    }
    /// (N,) int8: 1 intersecting, 0 separated, -1 undetermined or error.
    #[getter]
    fn verdict(&self, py: Python<'_>) -> Py<PyAny> {
        self.verdict.clone_ref(py)
    }
    /// (N, dim) closest (or contact) points on A, world frame.
    #[getter]
    fn point_a(&self, py: Python<'_>) -> Py<PyAny> {
        self.point_a.clone_ref(py)
    }
    /// (N, dim) closest (or contact) points on B, world frame.
    #[getter]
    fn point_b(&self, py: Python<'_>) -> Py<PyAny> {
        self.point_b.clone_ref(py)
    }
    /// (N, dim) unit normals from A toward B.
    #[getter]
    fn normal(&self, py: Python<'_>) -> Py<PyAny> {
        self.normal.clone_ref(py)
    }
    /// (N,) uint32 iterations.
    #[getter]
    fn iterations(&self, py: Python<'_>) -> Py<PyAny> {
        self.iterations.clone_ref(py)
    }
    /// (N,) uint8 status codes (index into `status_names`).
    #[getter]
    fn status_code(&self, py: Python<'_>) -> Py<PyAny> {
        self.status_codes.clone_ref(py)
    }
    /// The names of the status codes.
    #[getter]
    fn status_names(&self) -> Vec<&'static str> {
        STATUS_NAMES.to_vec()
    }
    /// (N,) str status per row ("converged", ..., "error").
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy")?;
        let names = np.call_method1("array", (STATUS_NAMES.to_vec(),))?;
        names.get_item(self.status_codes.bind(py))
    }
    /// (N,) bool: rows answered without error.
    #[getter]
    fn ok<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy")?;
        let codes = self.status_codes.bind(py);
        np.call_method1("not_equal", (codes, crate::results::ERROR_CODE))
    }
    /// Per-row error: None, or the message naming the row and field.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut v: Vec<Option<&str>> = vec![None; self.n];
        for (i, e) in &self.errors {
            v[*i] = Some(e.as_str());
        }
        PyList::new(py, v)
    }
    /// The rows that failed, as (row, message) pairs.
    #[getter]
    fn errors(&self) -> Vec<(usize, String)> {
        self.errors.clone()
    }
    fn __len__(&self) -> usize {
        self.n
    }
    fn __repr__(&self) -> String {
        format!("BatchResult(n={}, errors={})", self.n, self.errors.len())
    }
}

pub fn bool_array<'py>(py: Python<'py>, v: Vec<bool>) -> Bound<'py, PyAny> {
    PyArray1::from_vec(py, v).into_any()
}
