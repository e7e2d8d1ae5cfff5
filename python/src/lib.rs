//! Python bindings of convexity (PyO3 + rust-numpy, abi3), imported as `convexity`.
//!
//! Shapes (`shapes`), mesh files (`mesh`), closed triangle meshes (`trimesh`) and a mesh against
//! a convex shape (`mesh_shape`), compounds of convex parts (`compound`), poses (`pose`),
//! one-pair queries (`single`), batches over numpy arrays with the GIL released (`batch`),
//! n-dimensional point sets (`nd`) and the result classes (`results`). Every entry point runs
//! inside `convert::guard`, which turns a Rust panic into `RuntimeError` (never
//! `PanicException`); bad input is a `ValueError` naming the field.

mod batch;
mod compound;
mod convert;
mod mesh;
mod mesh_shape;
mod nd;
mod pose;
mod results;
mod shapes;
mod single;
mod trimesh;

use pyo3::prelude::*;

/// Raises the error a Rust panic becomes (tests the last line of defence). Not public API.
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    convert::guard(|| -> PyResult<()> { panic!("deliberate panic for the test suite") })
}

#[pymodule]
fn _convexity(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<shapes::PyShape>()?;
    m.add_class::<shapes::PyPoints>()?;
    m.add_class::<shapes::PyBox>()?;
    m.add_class::<shapes::PySphere>()?;
    m.add_class::<shapes::PyCircle>()?;
    m.add_class::<shapes::PyCapsule>()?;
    m.add_class::<shapes::PySegment>()?;
    m.add_class::<shapes::PyTriangle>()?;
    m.add_class::<shapes::PyCylinder>()?;
    m.add_class::<shapes::PyCone>()?;
    m.add_class::<shapes::PyPolygon>()?;
    m.add_class::<shapes::PyRounded>()?;
    m.add_class::<shapes::PyHalfspaces>()?;
    m.add_class::<shapes::PyTransformed>()?;
    m.add_class::<trimesh::PyTriMesh>()?;
    m.add_class::<compound::PyCompound>()?;
    m.add_class::<compound::PyCompoundDistance>()?;
    m.add_class::<compound::PyCompoundIntersection>()?;
    m.add_class::<compound::PyPartContact>()?;
    m.add_class::<mesh_shape::PyMeshShapeDistance>()?;
    m.add_class::<mesh_shape::PyMeshShapeIntersection>()?;
    m.add_class::<results::PyCertificate>()?;
    m.add_class::<results::PyQueryResult>()?;
    m.add_class::<results::PyBatchResult>()?;
    m.add_function(wrap_pyfunction!(shapes::shape_from_dict, m)?)?;
    m.add_function(wrap_pyfunction!(mesh::load_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(trimesh::mesh_intersection, m)?)?;
    m.add_function(wrap_pyfunction!(mesh_shape::mesh_shape_distance, m)?)?;
    m.add_function(wrap_pyfunction!(mesh_shape::mesh_shape_intersects, m)?)?;
    m.add_function(wrap_pyfunction!(compound::compound_distance, m)?)?;
    m.add_function(wrap_pyfunction!(compound::compound_intersects, m)?)?;
    m.add_function(wrap_pyfunction!(compound::compound_contacts, m)?)?;
    m.add_function(wrap_pyfunction!(single::distance, m)?)?;
    m.add_function(wrap_pyfunction!(single::intersects, m)?)?;
    m.add_function(wrap_pyfunction!(single::penetration, m)?)?;
    m.add_function(wrap_pyfunction!(single::query, m)?)?;
    m.add_function(wrap_pyfunction!(single::verify, m)?)?;
    m.add_function(wrap_pyfunction!(single::certificate_error, m)?)?;
    m.add_function(wrap_pyfunction!(batch::distance_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::intersects_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::penetration_batch, m)?)?;
    m.add_function(wrap_pyfunction!(nd::separate, m)?)?;
    m.add_function(wrap_pyfunction!(nd::contains, m)?)?;
    m.add_function(wrap_pyfunction!(nd::distance_nd, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    let names: Vec<&str> = convexity::query::Method::ALL
        .iter()
        .map(|m| m.name())
        .collect();
    m.add("METHODS", names)?;
    Ok(())
}
