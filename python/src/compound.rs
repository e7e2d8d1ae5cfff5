//! Compound shapes from Python: `Compound(parts)`, a list of convex 3D parts (each a shape at a
//! local pose) queried as one body, and the compound queries `compound_distance`,
//! `compound_intersects` and `compound_contacts`. Everything is
//! `convexity::polytope::compound` (see its header for the method: an AABB tree over the
//! parts' boxes, GJK and EPA part pair by part pair, each pair with its own certificate).
//!
//! Either side of a query is a `Compound` or one 3D shape (a one-part compound at the identity,
//! `Compound::single`). `compound_intersects` checks its answer with
//! `compound::verify_intersection` (every listed pair's certificate by the independent checker;
//! for "separated", that every other pair's boxes are disjoint) before returning it.
//!
//! Errors: an empty `parts`, an item that is neither a shape nor a `(shape, pose)` pair, a 2D
//! or n-dimensional part, a bad pose, and a 2D `a` or `b` are `ValueError`s naming the field
//! (`parts[2]`, `parts[2].shape`, `parts[1].pose[3:7]`, `a`).
//! Complexity: building O(n log n) for n parts; a query O(m log n + k) GJK (or EPA) calls for
//! the k part pairs whose boxes are close enough to matter. The queries run without the GIL.

use crate::convert::{guard, input_error, value_error};
use crate::pose;
use crate::results::{coords, matrix, vector, PyCertificate};
use crate::shapes::{shape_arg, Geom, PyShape};
use crate::single::dim_name;
use convexity::gjk::{self, epa};
use convexity::polytope::compound::{self, Compound, CompoundCheckError, Part};
use convexity::{Pose3, Status};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::sync::Arc;

/// The name of an object's type, for error messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A 3D shape argument as a library shape; a 2D or n-dimensional shape is an error naming
/// `field` and saying that `what` ("compounds", "meshes") are 3D.
pub(crate) fn shape3_for(
    obj: &Bound<'_, PyAny>,
    field: &str,
    what: &str,
) -> PyResult<convexity::Shape3> {
    let data = shape_arg(obj, field)?;
    match &data.geom {
        Geom::D3(s) => Ok(s.clone()),
        g => Err(value_error(
            field,
            format!("{what} are 3D, found a {} shape", dim_name(g.dim())),
        )),
    }
}

/// [`shape3_for`] a compound's part or side.
fn shape3(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<convexity::Shape3> {
    shape3_for(obj, field, "compounds")
}

/// One item of `parts`: a shape (identity pose) or a `(shape, pose)` pair.
fn part(item: &Bound<'_, PyAny>, field: &str) -> PyResult<Part> {
    if item.cast::<PyShape>().is_ok() {
        return Ok(Part {
            shape: shape3(item, &format!("{field}.shape"))?,
            pose: Pose3::IDENTITY,
        });
    }
    if item.is_instance_of::<PyTuple>() || item.is_instance_of::<PyList>() {
        let n = item.len()?;
        if n != 2 {
            return Err(value_error(
                field,
                format!(
                    "expected a (shape, pose) pair, found a {} of {n} items",
                    type_name(item)
                ),
            ));
        }
        return Ok(Part {
            shape: shape3(&item.get_item(0)?, &format!("{field}.shape"))?,
            pose: pose::pose3(&item.get_item(1)?, &format!("{field}.pose"))?,
        });
    }
    Err(value_error(
        field,
        format!(
            "expected a 3D convexity shape or a (shape, pose) pair, found {}",
            type_name(item)
        ),
    ))
}

/// A set of convex 3D parts queried as one body (a robot link, a convex decomposition).
/// `parts` is a non-empty sequence whose items are 3D shapes (at the identity) or
/// `(shape, pose)` pairs, the pose placing the part in the compound's frame (the forms the
/// pair queries take: `[tx, ty, tz, qx, qy, qz, qw]`, a (4, 4) matrix or None). Part indices in
/// results follow this order. `len()` is the number of parts.
///
/// >>> import convexity as cx
/// >>> arm = cx.Compound([cx.Box([1, 1, 1]), (cx.Sphere(0.5), [3, 0, 0, 0, 0, 0, 1])])
/// >>> len(arm), [v.round(9).tolist() for v in arm.aabb()]
/// (2, [[-1.0, -1.0, -1.0], [3.5, 1.0, 1.0]])
#[pyclass(name = "Compound", module = "convexity", frozen)]
pub struct PyCompound {
    pub compound: Arc<Compound>,
    /// The parts as Python objects, `(shape, pose)` with the pose as the 7 numbers
    /// `[tx, ty, tz, qx, qy, qz, qw]` of the validated pose: what `parts` returns and what
    /// pickling rebuilds the compound from.
    parts: Vec<(Py<PyAny>, [f64; 7])>,
}

/// A validated pose as `[tx, ty, tz, qx, qy, qz, qw]`.
fn pose7(p: &Pose3) -> [f64; 7] {
    let (t, q) = (p.translation(), p.rotation());
    [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
}

#[pymethods]
impl PyCompound {
    #[new]
    pub(crate) fn new(parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| {
            let not_a_sequence = || {
                value_error(
                    "parts",
                    format!(
                        "expected a sequence of 3D shapes or (shape, pose) pairs, found {}",
                        type_name(parts)
                    ),
                )
            };
            if parts.is_instance_of::<PyString>() || parts.cast::<PyShape>().is_ok() {
                return Err(not_a_sequence());
            }
            let items = parts.try_iter().map_err(|_| not_a_sequence())?;
            let mut out = Vec::new();
            let mut objects = Vec::new();
            for (i, item) in items.enumerate() {
                let item = item?;
                let p = part(&item, &format!("parts[{i}]"))?;
                // (`part` accepted the item: a shape, or a pair whose first item is one.)
                let shape = if item.cast::<PyShape>().is_ok() {
                    item.clone()
                } else {
                    item.get_item(0)?
                };
                objects.push((shape.unbind(), pose7(&p.pose)));
                out.push(p);
            }
            let compound = Compound::new(out).map_err(|e| input_error("", e))?;
            Ok(PyCompound {
                compound: Arc::new(compound),
                parts: objects,
            })
        })
    }

    /// The box of the whole compound in its own frame: `(min, max)`, two (3,) float arrays
    /// (each part's box from its support points, padded by a few ulps).
    fn aabb<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, Bound<'py, PyAny>) {
        let b = self.compound.aabb();
        (vector(py, coords(b.min)), vector(py, coords(b.max)))
    }

    fn __len__(&self) -> usize {
        self.compound.parts().len()
    }

    /// The parts, in order: a list of `(shape, pose)` with the shape object given and its pose
    /// as `[tx, ty, tz, qx, qy, qz, qw]` (a (7,) float array; the identity for a bare shape).
    ///
    /// >>> import convexity as cx
    /// >>> c = cx.Compound([cx.Sphere(1), (cx.Box([1, 1, 1]), [2, 0, 0, 0, 0, 0, 1])])
    /// >>> [(type(s).__name__, p.tolist()) for s, p in c.parts]
    /// [('Sphere', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]), ('Box', [2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])]
    #[getter]
    fn parts<'py>(&self, py: Python<'py>) -> Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        self.parts
            .iter()
            .map(|(s, p)| (s.bind(py).clone(), vector(py, p.to_vec())))
            .collect()
    }

    /// Pickles as its parts (rebuilt, and re-validated, on load).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyAny>,
        (Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,),
    ) {
        let py = slf.py();
        (slf.get_type().into_any(), (slf.get().parts(py),))
    }

    fn __repr__(&self) -> String {
        let n = self.compound.parts().len();
        format!("Compound({n} part{})", if n == 1 { "" } else { "s" })
    }
}

/// A `Compound` argument, or one 3D shape as a one-part compound.
fn compound_arg(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Arc<Compound>> {
    if let Ok(c) = obj.cast::<PyCompound>() {
        return Ok(Arc::clone(&c.get().compound));
    }
    if let Ok(s) = obj.cast::<PyShape>() {
        let data = &s.get().data;
        return match &data.geom {
            Geom::D3(shape) => {
                if let Some(c) = data.single.get() {
                    return Ok(Arc::clone(c));
                }
                let c =
                    Arc::new(Compound::single(shape.clone()).map_err(|e| input_error(field, e))?);
                // (Another thread may have set it first: either compound is the same.)
                Ok(Arc::clone(data.single.get_or_init(|| c)))
            }
            g => Err(value_error(
                field,
                format!(
                    "compounds are 3D, found a {} shape (expected a Compound or a 3D shape)",
                    dim_name(g.dim())
                ),
            )),
        };
    }
    Err(value_error(
        field,
        format!(
            "expected a convexity.Compound or a 3D convexity shape, found {}",
            type_name(obj)
        ),
    ))
}

/// The two sides of a compound query, read and validated.
type Sides = (Arc<Compound>, Pose3, Arc<Compound>, Pose3);

fn sides(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Sides> {
    Ok((
        compound_arg(a, "a")?,
        pose::pose3(pose_a, "pose_a")?,
        compound_arg(b, "b")?,
        pose::pose3(pose_b, "pose_b")?,
    ))
}

/// The distance between two compounds: the closest part pair, found by GJK on the pairs whose
/// boxes are close enough to matter. Points and vectors are in the world frame.
///
/// >>> import convexity as cx
/// >>> a = cx.Compound([cx.Box([1, 1, 1])])
/// >>> r = cx.compound_distance(a, None, cx.Sphere(0.5), [3, 0, 0, 0, 0, 0, 1])
/// >>> round(r.distance, 12), r.intersecting, (r.part_a, r.part_b), r.certificate.kind
/// (1.5, False, (0, 0), 'separating_axis')
#[pyclass(frozen, module = "convexity", name = "CompoundDistance")]
#[derive(Clone, Debug)]
pub struct PyCompoundDistance {
    distance: f64,
    intersecting: Option<bool>,
    part_a: Option<usize>,
    part_b: Option<usize>,
    point_a: Option<Vec<f64>>,
    point_b: Option<Vec<f64>>,
    normal: Option<Vec<f64>>,
    status: Status,
    iterations: u32,
    pairs_tested: usize,
    certificate: Option<PyCertificate>,
}

fn bool_str(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "True",
        Some(false) => "False",
        None => "None",
    }
}

fn index_str(i: Option<usize>) -> String {
    i.map_or("None".into(), |i| i.to_string())
}

#[pymethods]
impl PyCompoundDistance {
    /// Distance between the compounds: the least GJK distance over the part pairs (at most
    /// the touch tolerance when some pair intersects; inf when no pair was tested).
    #[getter]
    fn distance(&self) -> f64 {
        self.distance
    }
    /// The closest pair's verdict: True when it intersects (touching counts), False when it
    /// is proved separated, None when undetermined or when no pair was tested.
    #[getter]
    fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }
    /// Index of the closest pair's part of A (None when no pair was tested).
    #[getter]
    fn part_a(&self) -> Option<usize> {
        self.part_a
    }
    /// Index of the closest pair's part of B (None when no pair was tested).
    #[getter]
    fn part_b(&self) -> Option<usize> {
        self.part_b
    }
    /// Closest point on A (on part `part_a`), world frame; None when no pair was tested.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_a.clone().map(|v| vector(py, v))
    }
    /// Closest point on B (on part `part_b`), world frame; None when no pair was tested.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_b.clone().map(|v| vector(py, v))
    }
    /// Unit vector from A toward B (the closest pair's GJK normal); None when no pair was
    /// tested.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.normal.clone().map(|v| vector(py, v))
    }
    /// "converged" unless some tested pair's GJK did not converge (then the worst status met).
    #[getter]
    fn status(&self) -> &'static str {
        self.status.as_str()
    }
    /// GJK iterations over all tested pairs.
    #[getter]
    fn iterations(&self) -> u32 {
        self.iterations
    }
    /// How many part pairs ran GJK (of `len(a) * len(b)`; the rest were pruned by their boxes).
    #[getter]
    fn pairs_tested(&self) -> usize {
        self.pairs_tested
    }
    /// The closest pair's certificate (check it with `verify` on that part pair, each part
    /// placed by its compound's pose and its own), None when undetermined.
    #[getter]
    fn certificate(&self) -> Option<PyCertificate> {
        self.certificate.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "CompoundDistance(distance={:?}, intersecting={}, part_a={}, part_b={}, status={:?}, \
             pairs_tested={})",
            self.distance,
            bool_str(self.intersecting),
            index_str(self.part_a),
            index_str(self.part_b),
            self.status.as_str(),
            self.pairs_tested
        )
    }
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, each a `Compound` or one 3D shape:
/// the least distance over their part pairs, with the closest pair, its points, normal (A
/// toward B) and certificate. Poses as for `distance` (3D).
///
/// >>> import convexity as cx
/// >>> a = cx.Compound([cx.Box([1, 1, 1]), (cx.Box([1, 1, 1]), [0, 4, 0, 0, 0, 0, 1])])
/// >>> r = cx.compound_distance(a, None, cx.Sphere(0.5), [0, 6, 0, 0, 0, 0, 1])
/// >>> round(r.distance, 12), r.part_a, r.part_b
/// (0.5, 1, 0)
#[pyfunction]
pub fn compound_distance(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<PyCompoundDistance> {
    guard(|| {
        let (ca, pa, cb, pb) = sides(a, pose_a, b, pose_b)?;
        let d = py.detach(move || compound::distance(&ca, &pa, &cb, &pb, &gjk::Options::default()));
        let closest = d.closest.as_ref();
        Ok(PyCompoundDistance {
            distance: d.distance,
            intersecting: closest.and_then(|c| c.result.verdict.intersecting()),
            part_a: closest.map(|c| c.part_a),
            part_b: closest.map(|c| c.part_b),
            point_a: closest.map(|c| coords(c.result.point_a)),
            point_b: closest.map(|c| coords(c.result.point_b)),
            normal: closest.map(|c| coords(c.result.normal)),
            status: d.status,
            iterations: d.iterations,
            pairs_tested: d.pairs_tested,
            certificate: closest.and_then(|c| PyCertificate::from_verdict(&c.result.verdict)),
        })
    })
}

/// The boolean answer for two compounds, checked before it was returned.
///
/// >>> import convexity as cx
/// >>> r = cx.compound_intersects(cx.Box([1, 1, 1]), None, cx.Sphere(1), [1.8, 1.8, 0, 0, 0, 0, 1])
/// >>> r.intersecting, r.verified, [(i, j, c.kind) for i, j, c in r.pairs]
/// (False, True, [(0, 0, 'separating_axis')])
#[pyclass(frozen, module = "convexity", name = "CompoundIntersection")]
#[derive(Clone, Debug)]
pub struct PyCompoundIntersection {
    intersecting: Option<bool>,
    pairs: Vec<(usize, usize, Option<PyCertificate>)>,
    iterations: u32,
    check_error: Option<String>,
}

/// A failed check in words.
fn check_error_text(e: &CompoundCheckError) -> String {
    match e {
        CompoundCheckError::Pair {
            part_a,
            part_b,
            error,
        } => format!("the certificate of part pair ({part_a}, {part_b}) fails: {error}"),
        CompoundCheckError::Uncovered { part_a, part_b } => format!(
            "part pair ({part_a}, {part_b}) has overlapping boxes but no certificate of \
             separation"
        ),
        CompoundCheckError::NoCertificate => "no certificate backs the answer (it is \
                                              undetermined, or a pair's verdict disagrees with \
                                              it)"
        .to_string(),
    }
}

#[pymethods]
impl PyCompoundIntersection {
    /// True when some part pair intersects (touching counts), False when every part pair is
    /// proved separated, None when some pair was undetermined and none intersected.
    #[getter]
    fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }
    /// The part pairs backing the answer, as `(part_a, part_b, certificate)` (world frame;
    /// the certificate None for an undetermined pair): when intersecting, the one pair found
    /// with a common point; when separated, every pair whose boxes overlap (grown by the touch
    /// tolerance), each with its separating axis (every other pair's boxes are disjoint).
    #[getter]
    fn pairs(&self) -> Vec<(usize, usize, Option<PyCertificate>)> {
        self.pairs.clone()
    }
    /// GJK iterations over all tested pairs.
    #[getter]
    fn iterations(&self) -> u32 {
        self.iterations
    }
    /// True when the answer passed the independent check (every listed certificate by the
    /// checker; for separated, also that every unlisted pair's boxes are disjoint). An
    /// undetermined answer is never verified.
    #[getter]
    fn verified(&self) -> bool {
        self.check_error.is_none()
    }
    /// Why the check failed, or None when the answer is verified.
    #[getter]
    fn check_error(&self) -> Option<String> {
        self.check_error.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "CompoundIntersection(intersecting={}, pairs={}, verified={}, iterations={})",
            bool_str(self.intersecting),
            self.pairs.len(),
            bool_str(Some(self.check_error.is_none())),
            self.iterations
        )
    }
}

/// Whether `a` at `pose_a` and `b` at `pose_b` (each a `Compound` or one 3D shape) share a
/// point: GJK's boolean test on the part pairs whose boxes overlap (grown by the touch
/// tolerance), stopping at the first intersecting pair; touching counts. The answer is
/// checked independently before it is returned (`verified`, `check_error`).
///
/// >>> import convexity as cx
/// >>> a = cx.Compound([cx.Box([1, 1, 1]), (cx.Sphere(1), [3, 0, 0, 0, 0, 0, 1])])
/// >>> r = cx.compound_intersects(a, None, cx.Sphere(0.5), [3, 1.4, 0, 0, 0, 0, 1])
/// >>> r.intersecting, r.verified, [(i, j) for i, j, _ in r.pairs]
/// (True, True, [(1, 0)])
#[pyfunction]
pub fn compound_intersects(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<PyCompoundIntersection> {
    guard(|| {
        let (ca, pa, cb, pb) = sides(a, pose_a, b, pose_b)?;
        let (r, check) = py.detach(move || {
            let r = compound::intersects(&ca, &pa, &cb, &pb, &gjk::Options::default());
            let check = compound::verify_intersection(&ca, &pa, &cb, &pb, &r);
            (r, check)
        });
        Ok(PyCompoundIntersection {
            intersecting: r.intersecting,
            pairs: r
                .pairs
                .iter()
                .map(|p| (p.part_a, p.part_b, PyCertificate::from_verdict(&p.verdict)))
                .collect(),
            iterations: r.iterations,
            check_error: check.err().map(|e| check_error_text(&e)),
        })
    })
}

/// One intersecting part pair: EPA's depth, normal and deepest points, and the contact
/// manifold (world frame). For two polytope parts (point hulls, boxes, triangles, segments)
/// the manifold is the SAT's contact patch of up to four points by face clipping, along its
/// own normal `manifold_normal`; otherwise it is EPA's one point.
///
/// >>> import convexity as cx
/// >>> box = cx.Box([1, 1, 1])
/// >>> (c,) = cx.compound_contacts(box, None, box, [1.5, 0, 0, 0, 0, 0, 1])
/// >>> round(c.depth, 12), c.manifold.shape, c.manifold_depths.round(12).tolist()
/// (0.5, (4, 3), [0.5, 0.5, 0.5, 0.5])
#[pyclass(frozen, module = "convexity", name = "PartContact")]
#[derive(Clone, Debug)]
pub struct PyPartContact {
    part_a: usize,
    part_b: usize,
    depth: f64,
    normal: Vec<f64>,
    point_a: Vec<f64>,
    point_b: Vec<f64>,
    status: Status,
    certificate: Option<PyCertificate>,
    manifold_normal: Vec<f64>,
    /// `(point_a, point_b, depth)` of each manifold point.
    manifold: Vec<(Vec<f64>, Vec<f64>, f64)>,
}

#[pymethods]
impl PyPartContact {
    /// Index of the part of A.
    #[getter]
    fn part_a(&self) -> usize {
        self.part_a
    }
    /// Index of the part of B.
    #[getter]
    fn part_b(&self) -> usize {
        self.part_b
    }
    /// EPA's penetration depth of the pair (>= 0; 0 when touching): moving B by
    /// `depth * normal` makes the two parts touch.
    #[getter]
    fn depth(&self) -> f64 {
        self.depth
    }
    /// EPA's unit normal from A toward B.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        vector(py, self.normal.clone())
    }
    /// EPA's deepest point of A's part inside B's (`point_b + depth * normal`).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        vector(py, self.point_a.clone())
    }
    /// EPA's deepest point of B's part inside A's.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        vector(py, self.point_b.clone())
    }
    /// How EPA ended: "converged", "iteration_limit", ...
    #[getter]
    fn status(&self) -> &'static str {
        self.status.as_str()
    }
    /// The pair's common point (check it with `verify` on that part pair), None if EPA's
    /// verdict carries none.
    #[getter]
    fn certificate(&self) -> Option<PyCertificate> {
        self.certificate.clone()
    }
    /// The contact manifold's points on A's surface: a (k, 3) array, 1 <= k <= 4.
    #[getter]
    fn manifold<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat = self.manifold.iter().flat_map(|m| m.0.clone()).collect();
        matrix(py, flat, 3)
    }
    /// The manifold's points on B's surface: a (k, 3) array, row for row with `manifold`.
    #[getter]
    fn manifold_points_b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat = self.manifold.iter().flat_map(|m| m.1.clone()).collect();
        matrix(py, flat, 3)
    }
    /// The depth at each manifold point, a (k,) array: `(a - b) . manifold_normal`, positive
    /// where the parts overlap.
    #[getter]
    fn manifold_depths<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        vector(py, self.manifold.iter().map(|m| m.2).collect())
    }
    /// The manifold's unit normal from A toward B (the SAT's axis for two polytopes, else
    /// EPA's normal).
    #[getter]
    fn manifold_normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        vector(py, self.manifold_normal.clone())
    }
    fn __repr__(&self) -> String {
        format!(
            "PartContact(part_a={}, part_b={}, depth={:?}, manifold_points={}, status={:?})",
            self.part_a,
            self.part_b,
            self.depth,
            self.manifold.len(),
            self.status.as_str()
        )
    }
}

/// Every intersecting part pair of `a` at `pose_a` and `b` at `pose_b` (each a `Compound` or
/// one 3D shape; touching counts), sorted by `(part_a, part_b)`: a list of `PartContact`,
/// each with EPA's depth, normal and points and the pair's contact manifold. Empty when the
/// compounds are apart.
///
/// >>> import convexity as cx
/// >>> a = cx.Compound([cx.Box([1, 1, 1]), (cx.Box([1, 1, 1]), [3, 0, 0, 0, 0, 0, 1])])
/// >>> found = cx.compound_contacts(a, None, cx.Sphere(1), [4.5, 0, 0, 0, 0, 0, 1])
/// >>> [(c.part_a, c.part_b, round(c.depth, 12)) for c in found]
/// [(1, 0, 0.5)]
#[pyfunction]
pub fn compound_contacts(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyPartContact>> {
    guard(|| {
        let (ca, pa, cb, pb) = sides(a, pose_a, b, pose_b)?;
        let contacts =
            py.detach(move || compound::contacts(&ca, &pa, &cb, &pb, &epa::Options::default()));
        Ok(contacts
            .iter()
            .map(|c| {
                let p = &c.penetration;
                PyPartContact {
                    part_a: c.part_a,
                    part_b: c.part_b,
                    depth: p.depth,
                    normal: coords(p.normal),
                    point_a: coords(p.point_a),
                    point_b: coords(p.point_b),
                    status: p.status,
                    certificate: PyCertificate::from_verdict(&p.verdict),
                    manifold_normal: coords(c.manifold.normal),
                    manifold: c
                        .manifold
                        .points()
                        .iter()
                        .map(|m| (coords(m.point_a), coords(m.point_b), m.depth))
                        .collect(),
                }
            })
            .collect())
    })
}
