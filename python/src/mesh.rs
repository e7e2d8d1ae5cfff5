//! Mesh files (OBJ, STL, PLY, read by `convexity::primitives::io`) as Python shapes.
//!
//! `load_mesh(path, as_)` reads a file as:
//! * `"hull"`: the convex hull of every vertex of the file, as a `Points` shape (every method
//!   answers it; open or non-manifold meshes are fine);
//! * `"parts"`: one convex part per OBJ object/group, or per connected component when the file
//!   has no groups; `"components"`: one per connected component. A list of `(name, Points)`,
//!   each part the hull of its vertices;
//! * `"compound"`: the parts of `"parts"` as one `Compound` (`compound.rs`), each at the
//!   identity, in the same order (the names are dropped);
//! * `"mesh"`: a closed, consistently oriented triangle mesh, a possibly non-convex solid, as a
//!   `TriMesh` (`trimesh.rs`: point location and mesh–mesh intersection; not a convex shape,
//!   so the pair queries do not take it).
//!
//! The scene format's `{"type": "mesh", "file": …, "as": "hull"}` loads through
//! `shape_from_dict` (a relative `file` from the current directory; `"index": true` as in the
//! CLI, off by default there, while `load_mesh` always builds the index); `"parts"`,
//! `"compound"` and `"mesh"` there are refused with a pointer to `load_mesh`, because one dict
//! makes one convex shape.
//!
//! Errors: a file that cannot be read is `FileNotFoundError` (missing) or `OSError`; a file
//! that does not parse, or has bad coordinates or indices, is `ValueError` naming the file and,
//! when it has one, the line or face. The loaded shapes keep their points (`to_dict` gives a
//! `points` dict), not the file name: pickles do not depend on the file.

use crate::compound::PyCompound;
use crate::convert::{guard, input_error, value_error};
use crate::shapes::{self, did_you_mean, Field, Geom, ShapeData};
use crate::trimesh::PyTriMesh;
use convexity::primitives::io::{self, IoErrorKind, LoadAs, Loaded};
use convexity::{DVec3, Points, Shape3};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The readings `load_mesh` offers (the scene format's, without `components` and `compound`).
const AS_VALUES: &[&str] = &["hull", "parts", "components", "mesh", "compound"];

/// A failure of this code, never a property of the input (`RuntimeError`).
fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error in convexity (please report): {what}"
    ))
}

/// The convex hull of the points as a `points` shape, with a support index when `index`
/// (`load_mesh` always asks for one: a mesh is loaded to be queried many times, and its hull
/// can have thousands of vertices).
fn hull_shape(points: &[DVec3], index: bool, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let p = Points::new(points).map_err(|e| input_error(prefix, e))?;
    let flat: Vec<f64> = points.iter().flat_map(|v| v.to_array()).collect();
    let mut fields = vec![("points", Field::Rows(3, flat))];
    let p = if index {
        fields.push(("index", Field::Flag(true)));
        p.with_hull_index()
    } else {
        p
    };
    Ok(shapes::data(Geom::D3(Shape3::Points(p)), "points", fields))
}

/// Reads `path`, mapping its problems to the Python exception a user expects.
fn load(path: &Path, load_as: LoadAs) -> PyResult<Loaded> {
    io::load(path, load_as).map_err(|e| match e.kind {
        IoErrorKind::NotFound if !path.exists() => PyFileNotFoundError::new_err(e.to_string()),
        IoErrorKind::NotFound => PyOSError::new_err(e.to_string()),
        _ => value_error("", e),
    })
}

/// `as_` as a `LoadAs`; `"mesh"` and unknown values are errors naming `field`.
fn parse_as(value: &str, field: &str, scene: bool) -> PyResult<LoadAs> {
    match value {
        "hull" => Ok(LoadAs::Hull),
        "parts" | "compound" if !scene => Ok(LoadAs::Parts),
        "components" if !scene => Ok(LoadAs::Components),
        "mesh" if !scene => Ok(LoadAs::Mesh),
        "parts" => Err(value_error(
            field,
            "\"parts\" reads several shapes and a shape dict makes one: use \
             convexity.load_mesh(file, as_=\"parts\"), which returns them as a list of \
             (name, Points)",
        )),
        "compound" => Err(value_error(
            field,
            "\"compound\" reads several convex parts as one body and a shape dict makes one \
             convex shape: use convexity.load_mesh(file, as_=\"compound\"), which returns a \
             Compound",
        )),
        "mesh" => Err(value_error(
            field,
            "\"mesh\" (a closed triangle mesh, a possibly non-convex solid) is not a convex \
             shape, and a shape dict makes one: use convexity.load_mesh(file, as_=\"mesh\"), \
             which returns a TriMesh (point location, mesh-mesh intersection)",
        )),
        other => {
            // The scene format's values are the CLI's (no "components", no "compound").
            let values: Vec<&str> = AS_VALUES
                .iter()
                .copied()
                .filter(|v| !scene || !matches!(*v, "components" | "compound"))
                .collect();
            Err(value_error(
                field,
                format!(
                    "unknown value {other:?}{}; values are: {}",
                    did_you_mean(other, &values),
                    values.join(", ")
                ),
            ))
        }
    }
}

/// The scene format's `mesh` shape (only `as: "hull"` makes one shape).
pub fn from_scene(
    file: &Bound<'_, PyAny>,
    load_as: &Bound<'_, PyAny>,
    index: bool,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    let file: PathBuf = file
        .extract()
        .map_err(|_| value_error(&join("file"), "expected a path (a string)"))?;
    let value: String = load_as
        .extract()
        .map_err(|_| value_error(&join("as"), "expected a string: hull, parts or mesh"))?;
    parse_as(&value, &join("as"), true)?;
    match load(&file, LoadAs::Hull)? {
        Loaded::Hull(points) => hull_shape(&points, index, prefix),
        _ => Err(internal("a hull read returned no vertex list")),
    }
}

/// Reads a mesh file (OBJ, STL or PLY, from the extension) as the convex hull of its vertices
/// (`as_="hull"`: a `Points` shape) or as convex parts (`as_="parts"`: one per OBJ
/// object/group, else per connected component; `as_="components"`: one per connected
/// component), a list of `(name, Points)`, or as those parts in one `Compound`
/// (`as_="compound"`: the parts of `"parts"`, in the same order, each at the identity), or as
/// a closed triangle mesh (`as_="mesh"`: a `TriMesh`, the possibly non-convex solid itself;
/// the file must be closed and consistently oriented). `as_` is required: the readings answer
/// different questions. Hulls and parts are built with `index=True` (see `Points`): a loaded
/// mesh is there to be queried many times.
///
/// >>> import convexity as cx, pathlib, tempfile
/// >>> f = pathlib.Path(tempfile.mkdtemp()) / "tet.obj"
/// >>> _ = f.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
/// >>> cx.load_mesh(f, as_="hull")
/// Points(points=[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], index=True)
#[pyfunction]
#[pyo3(signature = (path, *, as_))]
pub fn load_mesh<'py>(
    py: Python<'py>,
    path: PathBuf,
    as_: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let value: String = as_.extract().map_err(|_| {
            value_error(
                "as_",
                "expected a string: hull, parts, components, mesh or compound",
            )
        })?;
        let load_as = parse_as(&value, "as_", false)?;
        match load(&path, load_as)? {
            Loaded::Hull(points) => shapes::wrap(py, hull_shape(&points, true, "")?),
            Loaded::Parts(parts) if value == "compound" => {
                // The parts as `Points` shapes at the identity, as `Compound(parts)` takes them
                // (so that the compound reads its parts back and pickles like any other).
                let shapes = PyList::empty(py);
                for (k, part) in parts.iter().enumerate() {
                    shapes.append(shapes::wrap(
                        py,
                        hull_shape(&part.points, true, &format!("parts[{k}]"))?,
                    )?)?;
                }
                Ok(Bound::new(py, PyCompound::new(shapes.as_any())?)?.into_any())
            }
            Loaded::Parts(parts) => {
                let out = PyList::empty(py);
                for (k, part) in parts.iter().enumerate() {
                    let shape =
                        shapes::wrap(py, hull_shape(&part.points, true, &format!("parts[{k}]"))?)?;
                    out.append((part.name.clone(), shape))?;
                }
                Ok(out.into_any())
            }
            Loaded::Mesh(mesh) => Ok(Bound::new(
                py,
                PyTriMesh {
                    mesh: Arc::new(mesh),
                },
            )?
            .into_any()),
        }
    })
}
