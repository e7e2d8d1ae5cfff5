//! Closed triangle meshes (possibly non-convex solids) from Python: `TriMesh`, built from arrays
//! or read by `load_mesh(path, as_="mesh")`, with exact point location (`locate`, and
//! `contains` over many points) and mesh–mesh intersection (`mesh_intersection`). Everything is
//! `convexity::primitives::mesh` (see its header for the method: an AABB tree, ray casting with
//! exact predicates and symbolic perturbation, exact triangle–triangle tests).
//!
//! A `TriMesh` is not a convex shape: the pair queries (`distance`, `intersects`, …) do not take
//! it; `mesh_shape_distance` and `mesh_shape_intersects` (`mesh_shape`) answer it against one
//! convex shape, and a list of convex parts (`load_mesh(path, as_="parts")`) is the way to the
//! rest.
//!
//! Errors: an open, non-manifold or inconsistently oriented mesh, an index out of range or a
//! non-integer index, and non-finite coordinates are `ValueError`s naming the field.
//! Complexity: building O(n log n) for n triangles; `locate` O(log n + k) for the k triangles
//! the ray's boxes meet; `mesh_intersection` O(m log n + candidates).

use crate::convert::{self, guard, input_error, value_error};
use crate::pose;
use convexity::primitives::mesh::{mesh_mesh, Containment, MeshLocation, TriMesh};
use convexity::DVec3;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// A closed, consistently oriented triangle mesh: the boundary of a solid, which need not be
/// convex. `vertices` is (n, 3) floats; `triangles` is (m, 3) vertex indices, every edge used
/// once in each direction.
///
/// >>> import convexity as cx
/// >>> tet = cx.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
/// ...                  [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
/// >>> tet.locate([0.1, 0.1, 0.1]), tet.locate([1, 1, 1]), tet.locate([0, 0, 0])
/// ('inside', 'outside', 'boundary')
#[pyclass(name = "TriMesh", module = "convexity", frozen)]
pub struct PyTriMesh {
    pub mesh: Arc<TriMesh>,
}

/// The triangle indices: integers in `[0, n)` (floats that are whole numbers are accepted, as
/// numpy's default float arrays hold them).
fn triangles(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<[usize; 3]>> {
    let (cols, flat) = convert::rows(obj, "triangles")?;
    if cols != 3 {
        return Err(value_error(
            "triangles",
            format!("expected an (m, 3) array of vertex indices, found {cols} columns"),
        ));
    }
    let mut out = Vec::with_capacity(flat.len() / 3);
    for (t, row) in flat.chunks_exact(3).enumerate() {
        let mut tri = [0usize; 3];
        for (k, (&x, slot)) in row.iter().zip(tri.iter_mut()).enumerate() {
            if !(x >= 0.0 && x.fract() == 0.0 && x < n as f64) {
                return Err(value_error(
                    &format!("triangles[{t}][{k}]"),
                    format!("expected a vertex index in 0..{n}, found {x}"),
                ));
            }
            *slot = x as usize;
        }
        out.push(tri);
    }
    Ok(out)
}

/// Points as (m, 3) rows or one point (3,); returns them and whether one point was given.
fn query_points(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<(Vec<DVec3>, bool)> {
    let a = convert::array(obj, field)?;
    let single = match a.shape.as_slice() {
        [3] => true,
        [_, 3] => false,
        _ => {
            return Err(value_error(
                field,
                format!("expected (m, 3) or (3,), found shape {}", a.shape_str()),
            ))
        }
    };
    convert::finite(field, &a.data, (!single).then_some(3))?;
    Ok((
        a.data.chunks_exact(3).map(DVec3::from_slice).collect(),
        single,
    ))
}

fn location_name(l: MeshLocation) -> &'static str {
    match l {
        MeshLocation::Inside => "inside",
        MeshLocation::Boundary => "boundary",
        MeshLocation::Outside => "outside",
    }
}

#[pymethods]
impl PyTriMesh {
    #[new]
    fn new(vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| {
            let (cols, flat) = convert::rows(vertices, "vertices")?;
            if cols != 3 {
                return Err(value_error(
                    "vertices",
                    format!("expected an (n, 3) array of points, found {cols} columns"),
                ));
            }
            convert::finite("vertices", &flat, Some(3))?;
            let verts: Vec<DVec3> = flat.chunks_exact(3).map(DVec3::from_slice).collect();
            let tris = self::triangles(triangles, verts.len())?;
            let mesh = TriMesh::new(verts, tris).map_err(|e| input_error("", e))?;
            Ok(PyTriMesh {
                mesh: Arc::new(mesh),
            })
        })
    }

    /// The vertices, an (n, 3) float array (a copy).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let rows: Vec<Vec<f64>> = self
            .mesh
            .vertices()
            .iter()
            .map(|v| v.to_array().to_vec())
            .collect();
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// The triangles, an (m, 3) int64 array of vertex indices (a copy).
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let rows: Vec<Vec<i64>> = self
            .mesh
            .triangles()
            .iter()
            .map(|t| t.iter().map(|&i| i as i64).collect())
            .collect();
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// Where `point` (3,) lies: `"inside"`, `"boundary"` (exactly on a triangle) or `"outside"`,
    /// decided by exact predicates (no tolerance).
    fn locate(&self, point: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        guard(|| {
            let (pts, single) = query_points(point, "point")?;
            match (single, pts.as_slice()) {
                (true, [p]) => Ok(location_name(self.mesh.locate(*p))),
                _ => Err(value_error(
                    "point",
                    "expected one point of shape (3,); contains() takes many",
                )),
            }
        })
    }

    /// Which `points` ((m, 3), or one point (3,)) lie in the closed solid, its surface included:
    /// an (m,) bool array (a 0-d bool for one point). Runs without the GIL.
    fn contains<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guard(|| {
            let (pts, single) = query_points(points, "points")?;
            let mesh = Arc::clone(&self.mesh);
            let inside: Vec<bool> = py.detach(move || {
                pts.iter()
                    .map(|p| mesh.locate(*p) != MeshLocation::Outside)
                    .collect()
            });
            if single {
                Ok(
                    pyo3::types::PyBool::new(py, inside.first().copied().unwrap_or(false))
                        .to_owned()
                        .into_any(),
                )
            } else {
                Ok(PyArray1::from_vec(py, inside).into_any())
            }
        })
    }

    /// Pickles as its vertices and triangles (rebuilt, and re-validated, on load).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<i64>>),
    )> {
        let py = slf.py();
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (me.vertices(py)?, me.triangles(py)?),
        ))
    }

    fn __len__(&self) -> usize {
        self.mesh.triangles().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "TriMesh({} vertices, {} triangles)",
            self.mesh.vertices().len(),
            self.mesh.triangles().len()
        )
    }
}

/// Whether two closed meshes, placed by `pose_a` and `pose_b` (None: the identity), share a
/// point: a dict with `intersecting` (bool), `pairs` (the `(triangle of a, triangle of b)`
/// pairs whose triangles share a point, sorted) and `containment` (`"a_inside_b"`,
/// `"b_inside_a"` or None; set only when no triangles meet, judged from one vertex of the inner
/// mesh, so for a mesh of several separate pieces only the piece holding vertex 0). Exact on
/// the coordinates after B is placed in A's frame (rounded once). Runs without the GIL.
///
/// >>> import convexity as cx
/// >>> v = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
/// >>> t = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
/// >>> r = cx.mesh_intersection(cx.TriMesh(v, t), cx.TriMesh(v, t), pose_b=[5, 0, 0, 0, 0, 0, 1])
/// >>> r["intersecting"], r["pairs"], r["containment"]
/// (False, [], None)
#[pyfunction]
#[pyo3(signature = (a, b, *, pose_a = None, pose_b = None))]
pub fn mesh_intersection<'py>(
    py: Python<'py>,
    a: &PyTriMesh,
    b: &PyTriMesh,
    pose_a: Option<&Bound<'py, PyAny>>,
    pose_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let none = py.None().into_bound(py);
        let pa = pose::pose3(pose_a.unwrap_or(&none), "pose_a")?;
        let pb = pose::pose3(pose_b.unwrap_or(&none), "pose_b")?;
        let (ma, mb) = (Arc::clone(&a.mesh), Arc::clone(&b.mesh));
        let r = py.detach(move || mesh_mesh(&ma, &pa, &mb, &pb));
        let out = PyDict::new(py);
        out.set_item("intersecting", r.intersects())?;
        out.set_item("pairs", r.pairs.clone())?;
        out.set_item(
            "containment",
            match r.containment {
                Some(Containment::AInsideB) => Some("a_inside_b"),
                Some(Containment::BInsideA) => Some("b_inside_a"),
                None => None,
            },
        )?;
        Ok(out)
    })
}
