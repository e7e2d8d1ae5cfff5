//! Batches: `distance_batch`, `intersects_batch`, `penetration_batch` over N pairs, with the
//! GIL released and all cores in use (rayon).
//!
//! Every row is answered by [`run_batch`], the one place that calls the library per row; when
//! the library's own batch path (`convexity::batch`, SIMD lanes over rayon) lands, it replaces
//! the body of `run_batch` and nothing else. A bad row (NaN or non-unit quaternion in its pose,
//! shapes of another dimension) gets its error message; every other row is answered. A panic
//! in one row is caught and reported as that row's error.

use crate::convert::{self, guard, panic_message, value_error};
use crate::pose::{self, Layout};
use crate::results::{self, bool_array, status_code, PyBatchResult, ERROR_CODE};
use crate::shapes::{shape_arg, Geom, PyShape, ShapeData};
use crate::single::{dim_name, epa2, epa3};
use convexity::gjk;
use convexity::{Pose, Pose2, Pose3, Vector, Verdict};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Distance,
    Intersects,
    Penetration,
}

/// Poses of one side: identity, one pose for every row, or one per row.
pub struct Poses {
    pub layout: Option<Layout>,
    pub data: Vec<f64>,
    /// Number of rows, or None for one pose broadcast to every row.
    pub rows: Option<usize>,
    pub field: &'static str,
}

impl Poses {
    fn row(&self, i: usize) -> Option<(&[f64], Layout)> {
        let l = self.layout?;
        let w = l.width();
        let k = if self.rows.is_some() { i } else { 0 };
        self.data.get(k * w..(k + 1) * w).map(|s| (s, l))
    }
}

/// Shapes of one side: one for every row, or one per row.
pub struct Shapes {
    pub list: Vec<Arc<ShapeData>>,
    pub broadcast: bool,
    pub field: &'static str,
}

impl Shapes {
    fn get(&self, i: usize) -> Option<&ShapeData> {
        self.list
            .get(if self.broadcast { 0 } else { i })
            .map(|s| s.as_ref())
    }
}

/// Everything a batch needs, owned, so that it can run without the GIL.
pub struct Input {
    pub kind: Kind,
    pub dim: usize,
    pub n: usize,
    pub shapes_a: Shapes,
    pub poses_a: Poses,
    pub shapes_b: Shapes,
    pub poses_b: Poses,
}

/// One answered row.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub verdict: i8,
    pub distance: f64,
    pub depth: f64,
    pub point_a: [f64; 3],
    pub point_b: [f64; 3],
    pub normal: [f64; 3],
    pub status: u8,
    pub iterations: u32,
}

fn arr3<V: Vector>(v: V) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (i, o) in out.iter_mut().enumerate().take(V::DIM) {
        *o = v.coord(i);
    }
    out
}

fn verdict_code<V>(v: &Verdict<V>) -> i8 {
    match v.intersecting() {
        Some(true) => 1,
        Some(false) => 0,
        None => -1,
    }
}

const NAN3: [f64; 3] = [f64::NAN; 3];

fn answer<V, S>(
    kind: Kind,
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    epa: impl Fn() -> convexity::gjk::epa::Penetration<V>,
) -> Row
where
    V: Vector,
    S: convexity::SupportMap<V>,
{
    match kind {
        Kind::Distance => {
            let d = gjk::distance(a, pa, b, pb, &gjk::Options::default(), None);
            Row {
                verdict: verdict_code(&d.verdict),
                distance: d.distance,
                depth: f64::NAN,
                point_a: arr3(d.point_a),
                point_b: arr3(d.point_b),
                normal: arr3(d.normal),
                status: status_code(d.status),
                iterations: d.iterations,
            }
        }
        Kind::Intersects => {
            let d = gjk::intersects(a, pa, b, pb, &gjk::Options::default(), None);
            Row {
                verdict: verdict_code(&d.verdict),
                distance: f64::NAN,
                depth: f64::NAN,
                point_a: NAN3,
                point_b: NAN3,
                normal: NAN3,
                status: status_code(d.status),
                iterations: d.iterations,
            }
        }
        Kind::Penetration => {
            let p = epa();
            Row {
                verdict: verdict_code(&p.verdict),
                distance: (-p.depth).max(0.0),
                depth: p.depth,
                point_a: arr3(p.point_a),
                point_b: arr3(p.point_b),
                normal: arr3(p.normal),
                status: status_code(p.status),
                iterations: p.iterations,
            }
        }
    }
}

fn pose3_row(p: &Poses, i: usize) -> Result<Pose3, String> {
    match p.row(i) {
        None => Ok(Pose3::IDENTITY),
        Some((v, l)) => pose::pose3_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field)),
    }
}

fn pose2_row(p: &Poses, i: usize) -> Result<Pose2, String> {
    match p.row(i) {
        None => Ok(Pose2::IDENTITY),
        Some((v, l)) => pose::pose2_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field)),
    }
}

/// Answers row `i`, or says why it cannot be answered.
fn one_row(inp: &Input, i: usize) -> Result<Row, String> {
    fn shape(s: &Shapes, i: usize) -> Result<&ShapeData, String> {
        s.get(i)
            .ok_or_else(|| format!("{}[{i}]: no such shape", s.field))
    }
    let a = shape(&inp.shapes_a, i)?;
    let b = shape(&inp.shapes_b, i)?;
    for (s, side) in [(a, &inp.shapes_a), (b, &inp.shapes_b)] {
        if s.dim() != inp.dim || matches!(s.geom, Geom::Nd(_)) {
            let at = if side.broadcast {
                side.field.to_string()
            } else {
                format!("{}[{i}]", side.field)
            };
            return Err(format!(
                "{at}: the shape is {} but the batch is {} (batches take 2D and 3D shapes of \
                 the poses' dimension)",
                dim_name(s.dim()),
                dim_name(inp.dim)
            ));
        }
    }
    match (&a.geom, &b.geom) {
        (Geom::D3(sa), Geom::D3(sb)) => {
            let pa = pose3_row(&inp.poses_a, i)?;
            let pb = pose3_row(&inp.poses_b, i)?;
            Ok(answer(inp.kind, sa, &pa, sb, &pb, || {
                epa3(sa, &pa, sb, &pb)
            }))
        }
        (Geom::D2(sa), Geom::D2(sb)) => {
            let pa = pose2_row(&inp.poses_a, i)?;
            let pb = pose2_row(&inp.poses_b, i)?;
            Ok(answer(inp.kind, sa, &pa, sb, &pb, || {
                epa2(sa, &pa, sb, &pb)
            }))
        }
        _ => Err(format!("row {i}: shapes a and b cannot be paired")),
    }
}

/// The batch kernel: every row, in parallel over `threads` threads (all cores by default).
/// This is the one function to replace by `convexity::batch`.
pub fn run_batch(inp: &Input, threads: Option<usize>) -> Vec<Result<Row, String>> {
    let work = || -> Vec<Result<Row, String>> {
        (0..inp.n)
            .into_par_iter()
            .with_min_len(64)
            .map(
                |i| match catch_unwind(AssertUnwindSafe(|| one_row(inp, i))) {
                    Ok(r) => r,
                    Err(p) => Err(format!(
                        "row {i}: internal error in convexity (please report): {}",
                        panic_message(&p)
                    )),
                },
            )
            .collect()
    };
    match threads {
        Some(t) => match rayon::ThreadPoolBuilder::new().num_threads(t).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
        None => work(),
    }
}

fn read_shapes(obj: &Bound<'_, PyAny>, field: &'static str) -> PyResult<Shapes> {
    if let Ok(s) = obj.cast::<PyShape>() {
        return Ok(Shapes {
            list: vec![s.get().data.clone()],
            broadcast: true,
            field,
        });
    }
    if obj.is_instance_of::<pyo3::types::PyString>() || obj.is_instance_of::<pyo3::types::PyDict>()
    {
        return Err(value_error(
            field,
            "expected a shape or a sequence of shapes",
        ));
    }
    let iter = obj
        .try_iter()
        .map_err(|_| value_error(field, "expected a shape or a sequence of shapes"))?;
    let mut list = Vec::new();
    for (i, item) in iter.enumerate() {
        list.push(shape_arg(&item?, &format!("{field}[{i}]"))?);
    }
    Ok(Shapes {
        list,
        broadcast: false,
        field,
    })
}

fn read_poses(obj: &Bound<'_, PyAny>, field: &'static str) -> PyResult<Poses> {
    if obj.is_none() {
        return Ok(Poses {
            layout: None,
            data: Vec::new(),
            rows: None,
            field,
        });
    }
    let a = convert::array(obj, field)?;
    let bad = || {
        value_error(
            field,
            format!(
                "expected poses of shape (N, 7) [tx, ty, tz, qx, qy, qz, qw], (N, 4, 4), \
                 (N, 3) [tx, ty, angle] or (N, 3, 3), one pose (7,) or (4, 4) for every row, \
                 or None; found shape {}",
                a.shape_str()
            ),
        )
    };
    let (layout, rows) = match a.shape.as_slice() {
        [7] => (Layout::Quat7, None),
        [4, 4] => (Layout::Mat4, None),
        [n, 7] => (Layout::Quat7, Some(*n)),
        [n, 3] => (Layout::Angle3, Some(*n)),
        [n, 4, 4] => (Layout::Mat4, Some(*n)),
        [n, 3, 3] => (Layout::Mat3, Some(*n)),
        [3] => (Layout::Angle3, None),
        _ => return Err(bad()),
    };
    Ok(Poses {
        layout: Some(layout),
        data: a.data,
        rows,
        field,
    })
}

/// Reads and checks the arguments of a batch call.
fn input(
    kind: Kind,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
) -> PyResult<Input> {
    let sa = read_shapes(shapes_a, "shapes_a")?;
    let sb = read_shapes(shapes_b, "shapes_b")?;
    let pa = read_poses(poses_a, "poses_a")?;
    let pb = read_poses(poses_b, "poses_b")?;
    let mut n: Option<(usize, &str)> = None;
    let counts = [
        ((!sa.broadcast).then_some(sa.list.len()), "shapes_a"),
        (pa.rows, "poses_a"),
        ((!sb.broadcast).then_some(sb.list.len()), "shapes_b"),
        (pb.rows, "poses_b"),
    ];
    for (c, field) in counts {
        let Some(c) = c else { continue };
        match n {
            None => n = Some((c, field)),
            Some((m, first)) if m != c => {
                return Err(value_error(
                    first,
                    format!(
                        "has {m} rows but {field} has {c}; every per-row input needs the same N"
                    ),
                ))
            }
            _ => {}
        }
    }
    let n = n.map_or(1, |(m, _)| m);
    let dims: Vec<(usize, &str)> = [(&pa, "poses_a"), (&pb, "poses_b")]
        .iter()
        .filter_map(|(p, f)| p.layout.map(|l| (l.dim(), *f)))
        .collect();
    let dim = match dims.as_slice() {
        [] => sa.list.first().map_or(3, |s| s.dim()),
        [(d, _)] => *d,
        [(d1, _), (d2, f2)] => {
            if d1 != d2 {
                return Err(value_error(
                    f2,
                    format!("poses are {}D but poses_a are {}D", d2, d1),
                ));
            }
            *d1
        }
        _ => 3,
    };
    if dim != 2 && dim != 3 {
        return Err(value_error(
            "shapes_a",
            format!(
                "batches take 2D and 3D shapes, found {} ones (use distance_nd for point sets)",
                dim_name(dim)
            ),
        ));
    }
    // A broadcast pose is not a row: a bad one fails the whole call.
    for p in [&pa, &pb] {
        if p.rows.is_none() {
            if let Some((v, l)) = p.row(0) {
                let r = if dim == 3 {
                    pose::pose3_from(v, l).map(|_| ())
                } else {
                    pose::pose2_from(v, l).map(|_| ())
                };
                r.map_err(|e| value_error("", format!("{}{e}", p.field)))?;
            }
        }
    }
    Ok(Input {
        kind,
        dim,
        n,
        shapes_a: sa,
        poses_a: pa,
        shapes_b: sb,
        poses_b: pb,
    })
}

fn batch(
    py: Python<'_>,
    kind: Kind,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    if threads == Some(0) {
        return Err(value_error(
            "threads",
            "must be at least 1 (or None for all cores)",
        ));
    }
    let inp = input(kind, shapes_a, poses_a, shapes_b, poses_b)?;
    let rows = py.detach(|| run_batch(&inp, threads));
    let (n, dim) = (inp.n, inp.dim);
    let mut distance = Vec::with_capacity(n);
    let mut depth = Vec::with_capacity(n);
    let mut intersecting = Vec::with_capacity(n);
    let mut verdict = Vec::with_capacity(n);
    let mut pa = Vec::with_capacity(n * dim);
    let mut pb = Vec::with_capacity(n * dim);
    let mut normal = Vec::with_capacity(n * dim);
    let mut iterations = Vec::with_capacity(n);
    let mut status = Vec::with_capacity(n);
    let mut errors = Vec::new();
    for (i, r) in rows.into_iter().enumerate() {
        let row = match r {
            Ok(row) => row,
            Err(e) => {
                errors.push((i, e));
                Row {
                    verdict: -1,
                    distance: f64::NAN,
                    depth: f64::NAN,
                    point_a: NAN3,
                    point_b: NAN3,
                    normal: NAN3,
                    status: ERROR_CODE,
                    iterations: 0,
                }
            }
        };
        distance.push(row.distance);
        depth.push(row.depth);
        intersecting.push(row.verdict == 1);
        verdict.push(row.verdict);
        pa.extend_from_slice(&row.point_a[..dim]);
        pb.extend_from_slice(&row.point_b[..dim]);
        normal.extend_from_slice(&row.normal[..dim]);
        iterations.push(row.iterations);
        status.push(row.status);
    }
    Ok(PyBatchResult {
        n,
        distance: distance.into_pyarray(py).into_any().unbind(),
        depth: depth.into_pyarray(py).into_any().unbind(),
        intersecting: bool_array(py, intersecting).unbind(),
        verdict: verdict.into_pyarray(py).into_any().unbind(),
        point_a: results::matrix(py, pa, dim)?.unbind(),
        point_b: results::matrix(py, pb, dim)?.unbind(),
        normal: results::matrix(py, normal, dim)?.unbind(),
        iterations: iterations.into_pyarray(py).into_any().unbind(),
        status_codes: PyArray1::from_vec(py, status).into_any().unbind(),
        errors,
    })
}

/// Distances for N pairs (GJK), in parallel with the GIL released.
///
/// `shapes_a`, `shapes_b`: one shape (used for every row) or a sequence of N shapes.
/// `poses_a`, `poses_b`: (N, 7) `[tx, ty, tz, qx, qy, qz, qw]`, (N, 4, 4), or one (7,) /
/// (4, 4) pose for every row, or None; in 2D (N, 3) `[tx, ty, angle]` or (N, 3, 3).
/// `threads`: number of threads (default: all cores).
/// A bad row gets its message in `error` and `status == "error"`; the others are answered.
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.zeros((3, 7)); poses[:, 6] = 1; poses[:, 0] = [1, 2, 3]
/// >>> r = cx.distance_batch(cx.Sphere(0.5), None, cx.Sphere(0.5), poses)
/// >>> r.distance.round(12).tolist()
/// [0.0, 1.0, 2.0]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn distance_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Distance,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}

/// Boolean intersection tests for N pairs (GJK with early exit); arguments as in
/// `distance_batch`. `distance` and the points are NaN (not computed).
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.zeros((2, 7)); poses[:, 6] = 1; poses[:, 0] = [0.5, 3.0]
/// >>> cx.intersects_batch(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), poses).intersecting.tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn intersects_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Intersects,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}

/// Penetration depths, normals and contact points for N pairs (GJK + EPA); arguments as in
/// `distance_batch`. `depth` is minus the distance for separated rows.
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.array([[1.5, 0, 0, 0, 0, 0, 1]])
/// >>> cx.penetration_batch(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), poses).depth.round(12).tolist()
/// [0.5]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn penetration_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Penetration,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}
