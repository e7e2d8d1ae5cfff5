//! A closed triangle mesh (the solid it bounds, which need not be convex) against one convex
//! 3D shape, from Python: `mesh_shape_distance` and `mesh_shape_intersects`. Everything is
//! `convexity::polytope::compound` (`mesh_convex_distance`: a branch and bound over the
//! triangles through the mesh's AABB tree, GJK per triangle, exact point location for a shape
//! wholly inside; `mesh_convex_intersects`, checked by `verify_mesh_intersection` before it is
//! returned).
//!
//! The mesh is a solid: a shape inside it is at distance 0 and intersecting, with the shape's
//! centre (located inside by exact predicates) as the common point.
//!
//! Errors: a bad pose or a shape that is not a 3D convex shape are `ValueError`s naming the
//! field (`pose_shape[3:7]`, `shape`); a `mesh` that is not a `TriMesh` is a `TypeError`.
//! Complexity: O(log n + k) GJK calls for the k triangles whose boxes are close enough to
//! matter (distance) or overlap the shape's box (boolean); the check scans all n triangles'
//! boxes. The queries run without the GIL.

use crate::compound::shape3_for;
use crate::convert::guard;
use crate::pose;
use crate::results::{coords, vector, PyCertificate};
use crate::trimesh::PyTriMesh;
use convexity::gjk;
use convexity::polytope::compound::{self, MeshCheckError};
use convexity::primitives::mesh::TriMesh;
use convexity::{Pose3, Shape3, Status, Verdict};
use pyo3::prelude::*;
use std::sync::Arc;

/// Both queries' arguments, read in order (the first bad one is the error): the mesh, its
/// pose, the shape (3D) and its pose.
fn args(
    mesh: &PyTriMesh,
    pose_mesh: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    pose_shape: &Bound<'_, PyAny>,
) -> PyResult<(Arc<TriMesh>, Pose3, Shape3, Pose3)> {
    let pm = pose::pose3(pose_mesh, "pose_mesh")?;
    let s = shape3_for(shape, "shape", "meshes")?;
    let ps = pose::pose3(pose_shape, "pose_shape")?;
    Ok((Arc::clone(&mesh.mesh), pm, s, ps))
}

fn bool_str(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "True",
        Some(false) => "False",
        None => "None",
    }
}

/// The distance from a convex shape to the solid a closed mesh bounds. Points and vectors are
/// in the world frame.
///
/// >>> import convexity as cx
/// >>> cube = cx.TriMesh([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
/// ...                    [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
/// ...                   [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
/// ...                    [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])
/// >>> r = cx.mesh_shape_distance(cube, None, cx.Sphere(0.5), [3, 0.5, 0.5, 0, 0, 0, 1])
/// >>> round(r.distance, 12), r.intersecting, r.normal.round(12).tolist()
/// (1.5, False, [1.0, 0.0, 0.0])
#[pyclass(frozen, module = "convexity", name = "MeshShapeDistance")]
#[derive(Clone, Debug)]
pub struct PyMeshShapeDistance {
    distance: f64,
    intersecting: Option<bool>,
    triangle: Option<usize>,
    point_mesh: Option<Vec<f64>>,
    point_shape: Option<Vec<f64>>,
    normal: Option<Vec<f64>>,
    status: Status,
    triangles_tested: usize,
    certificate: Option<PyCertificate>,
}

#[pymethods]
impl PyMeshShapeDistance {
    /// Distance from the shape to the solid: the least GJK distance over the triangles when
    /// the shape is outside (at most the touch tolerance when it meets a triangle), 0 when it
    /// lies inside the solid.
    #[getter]
    fn distance(&self) -> f64 {
        self.distance
    }
    /// True when the shape meets the solid (a triangle, or wholly inside; touching counts),
    /// False when the closest triangle is proved separated (every other triangle is at least
    /// as far, and the centre is outside), None when undetermined.
    #[getter]
    fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }
    /// Index of the closest triangle (None when the shape lies inside the solid).
    #[getter]
    fn triangle(&self) -> Option<usize> {
        self.triangle
    }
    /// Closest point of the mesh (on `triangle`); the shape's centre when it lies inside.
    #[getter]
    fn point_mesh<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_mesh.clone().map(|v| vector(py, v))
    }
    /// Closest point of the shape; the shape's centre when it lies inside.
    #[getter]
    fn point_shape<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.point_shape.clone().map(|v| vector(py, v))
    }
    /// Unit vector from the mesh toward the shape (the closest triangle's GJK normal); None
    /// when the shape lies inside.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.normal.clone().map(|v| vector(py, v))
    }
    /// "converged", or the worst status of the triangles' GJK runs.
    #[getter]
    fn status(&self) -> &'static str {
        self.status.as_str()
    }
    /// How many triangles ran GJK (the rest were pruned by the tree).
    #[getter]
    fn triangles_tested(&self) -> usize {
        self.triangles_tested
    }
    /// The closest triangle's certificate against the shape: a common point (a point of the
    /// solid's surface in the shape: evidence for `intersecting`), or a separating axis with
    /// its gap, which proves the shape apart from that triangle only — the checked answer for
    /// the whole solid is `mesh_shape_intersects`'; or the shape's centre when it lies inside
    /// the solid (a common point).
    #[getter]
    fn certificate(&self) -> Option<PyCertificate> {
        self.certificate.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "MeshShapeDistance(distance={:?}, intersecting={}, triangle={}, status={:?}, \
             triangles_tested={})",
            self.distance,
            bool_str(self.intersecting),
            self.triangle.map_or("None".into(), |t| t.to_string()),
            self.status.as_str(),
            self.triangles_tested
        )
    }
}

/// The distance from `shape` at `pose_shape` to the solid bounded by `mesh` at `pose_mesh`
/// (None: the identity): GJK on the triangles whose boxes are close enough to matter, nearest
/// first; 0 when the shape lies inside the solid.
///
/// >>> import convexity as cx
/// >>> tet = cx.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
/// ...                  [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
/// >>> r = cx.mesh_shape_distance(tet, None, cx.Sphere(0.1), [-1, 0.2, 0.2, 0, 0, 0, 1])
/// >>> round(r.distance, 12), r.triangle is not None, r.certificate.kind
/// (0.9, True, 'separating_axis')
/// >>> cx.mesh_shape_distance(tet, None, cx.Sphere(0.05), [0.2, 0.2, 0.2, 0, 0, 0, 1]).distance
/// 0.0
#[pyfunction]
pub fn mesh_shape_distance(
    py: Python<'_>,
    mesh: &PyTriMesh,
    pose_mesh: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    pose_shape: &Bound<'_, PyAny>,
) -> PyResult<PyMeshShapeDistance> {
    guard(|| {
        let (m, pm, s, ps) = args(mesh, pose_mesh, shape, pose_shape)?;
        let d = py.detach(move || {
            compound::mesh_convex_distance(&m, &pm, &s, &ps, &gjk::Options::default())
        });
        if let Some(p) = d.inside_point {
            let p = coords(p);
            return Ok(PyMeshShapeDistance {
                distance: d.distance,
                intersecting: Some(true),
                triangle: None,
                point_mesh: Some(p.clone()),
                point_shape: Some(p.clone()),
                normal: None,
                status: d.status,
                triangles_tested: d.triangles_tested,
                certificate: PyCertificate::from_verdict(&Verdict::Intersecting(
                    convexity::CommonPoint {
                        point: convexity::DVec3::from_slice(&p),
                    },
                )),
            });
        }
        let closest = d.closest.as_ref();
        Ok(PyMeshShapeDistance {
            distance: d.distance,
            intersecting: closest.and_then(|(_, r)| r.verdict.intersecting()),
            triangle: closest.map(|(t, _)| *t),
            point_mesh: closest.map(|(_, r)| coords(r.point_a)),
            point_shape: closest.map(|(_, r)| coords(r.point_b)),
            normal: closest.map(|(_, r)| coords(r.normal)),
            status: d.status,
            triangles_tested: d.triangles_tested,
            certificate: closest.and_then(|(_, r)| PyCertificate::from_verdict(&r.verdict)),
        })
    })
}

/// The boolean answer of a closed mesh against a convex shape, checked before it was returned.
///
/// >>> import convexity as cx
/// >>> tet = cx.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
/// ...                  [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
/// >>> r = cx.mesh_shape_intersects(tet, None, cx.Box([0.1, 0.1, 0.1]), [0.5, 0.5, 0.5, 0, 0, 0, 1])
/// >>> r.intersecting, r.verified, len(r.separated) > 0
/// (False, True, True)
#[pyclass(frozen, module = "convexity", name = "MeshShapeIntersection")]
#[derive(Clone, Debug)]
pub struct PyMeshShapeIntersection {
    intersecting: Option<bool>,
    triangle: Option<usize>,
    certificate: Option<PyCertificate>,
    separated: Vec<(usize, Option<PyCertificate>)>,
    check_error: Option<String>,
}

/// A failed check in words.
fn check_error_text(e: &MeshCheckError) -> String {
    match e {
        MeshCheckError::NoCertificate => "no certificate backs the answer (it is undetermined, \
                                          or a triangle's verdict disagrees with it)"
            .to_string(),
        e => format!("the answer fails its check: {e}"),
    }
}

#[pymethods]
impl PyMeshShapeIntersection {
    /// True when the shape meets the solid (a triangle, or wholly inside; touching counts),
    /// False when every triangle whose box overlaps the shape's (grown by the touch tolerance)
    /// is proved separated and the shape's centre is outside the solid, None when some
    /// triangle was undetermined.
    #[getter]
    fn intersecting(&self) -> Option<bool> {
        self.intersecting
    }
    /// The triangle the shape meets (None when separated, or when the shape lies inside).
    #[getter]
    fn triangle(&self) -> Option<usize> {
        self.triangle
    }
    /// When intersecting, the common point (on `triangle`, or the shape's centre inside the
    /// solid); None otherwise (see `separated`).
    #[getter]
    fn certificate(&self) -> Option<PyCertificate> {
        self.certificate.clone()
    }
    /// When separated, every triangle whose box overlaps the shape's (grown by the touch
    /// tolerance), as `(triangle, certificate)` with its separating axis (every other
    /// triangle's box is disjoint from the shape's).
    #[getter]
    fn separated(&self) -> Vec<(usize, Option<PyCertificate>)> {
        self.separated.clone()
    }
    /// True when the answer passed the independent check (`verify_mesh_intersection`). An
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
            "MeshShapeIntersection(intersecting={}, triangle={}, separated={}, verified={})",
            bool_str(self.intersecting),
            self.triangle.map_or("None".into(), |t| t.to_string()),
            self.separated.len(),
            bool_str(Some(self.check_error.is_none())),
        )
    }
}

/// Whether `shape` at `pose_shape` meets the solid bounded by `mesh` at `pose_mesh` (None: the
/// identity): GJK's boolean test on the triangles whose boxes overlap the shape's (grown by
/// the touch tolerance), then exact point location of the shape's centre; touching counts.
/// The answer is checked independently before it is returned (`verified`, `check_error`).
///
/// >>> import convexity as cx
/// >>> tet = cx.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
/// ...                  [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
/// >>> r = cx.mesh_shape_intersects(tet, None, cx.Sphere(0.05), [0.2, 0.2, 0.2, 0, 0, 0, 1])
/// >>> r.intersecting, r.triangle, r.certificate.kind, r.verified
/// (True, None, 'common_point', True)
#[pyfunction]
pub fn mesh_shape_intersects(
    py: Python<'_>,
    mesh: &PyTriMesh,
    pose_mesh: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    pose_shape: &Bound<'_, PyAny>,
) -> PyResult<PyMeshShapeIntersection> {
    guard(|| {
        let (m, pm, s, ps) = args(mesh, pose_mesh, shape, pose_shape)?;
        let (r, check) = py.detach(move || {
            let r = compound::mesh_convex_intersects(&m, &pm, &s, &ps, &gjk::Options::default());
            let check = compound::verify_mesh_intersection(&m, &pm, &s, &ps, &r);
            (r, check)
        });
        let certificate = match (&r.witness, r.inside_point) {
            (Some((_, v)), _) => PyCertificate::from_verdict(v),
            (None, Some(p)) => {
                PyCertificate::from_verdict(&Verdict::Intersecting(convexity::CommonPoint {
                    point: p,
                }))
            }
            (None, None) => None,
        };
        Ok(PyMeshShapeIntersection {
            intersecting: r.intersecting,
            triangle: r.witness.as_ref().map(|(t, _)| *t),
            certificate: certificate.filter(|_| r.intersecting == Some(true)),
            separated: r
                .separated
                .iter()
                .map(|(t, v)| (*t, PyCertificate::from_verdict(v)))
                .collect(),
            check_error: check.err().map(|e| check_error_text(&e)),
        })
    })
}
