//! Shapes: immutable Python classes over the library's `Shape2` / `Shape3` / `PointsN`, built
//! from numpy arrays or sequences, or from the CLI scene format's shape objects
//! (`shape_from_dict`), with a `repr`, `to_dict` and pickle support (`__reduce__`).
//!
//! Every shape keeps the arguments it was built from (`Desc`) so that `to_dict` returns a
//! scene-format object and `shape_from_dict(s.to_dict())` rebuilds the same shape.

use crate::convert::{self, guard, input_error, value_error};
use crate::pose;
use convexity::nd::points::PointsN;
use convexity::{
    Ball, BoundedHalfspaces, Capsule, Cone, ConvexPolygon, Cuboid, Cylinder, DVec2, DVec3, Points,
    Rounded, Segment, Shape2, Shape3, Transformed, Triangle,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// The geometry a query runs on.
#[derive(Clone, Debug)]
pub enum Geom {
    D2(Shape2),
    D3(Shape3),
    /// A point set of a dimension other than 2 or 3 (vertex methods, `distance_nd`).
    Nd(PointsN),
}

impl Geom {
    pub fn dim(&self) -> usize {
        match self {
            Geom::D2(_) => 2,
            Geom::D3(_) => 3,
            Geom::Nd(p) => p.dim(),
        }
    }
}

/// A constructor argument, kept for `repr`, `to_dict` and pickling.
#[derive(Clone, Debug)]
pub enum Field {
    Num(f64),
    Vec(Vec<f64>),
    Rows(usize, Vec<f64>),
    Shape(Arc<ShapeData>),
    /// A pose as the flat array it was given in (7 or 3 values).
    Pose(Vec<f64>),
    /// A flag (`Points`' `index`; kept only when true).
    Flag(bool),
}

#[derive(Debug)]
pub struct ShapeData {
    pub geom: Geom,
    /// The scene-format `type`.
    pub kind: &'static str,
    pub fields: Vec<(&'static str, Field)>,
    /// A 3D shape as a one-part compound, built on its first use where a compound is expected
    /// (`compound.rs`): later calls reuse it instead of copying the shape each time.
    pub single: std::sync::OnceLock<Arc<convexity::polytope::compound::Compound>>,
}

impl ShapeData {
    pub fn dim(&self) -> usize {
        self.geom.dim()
    }

    fn repr(&self) -> String {
        let class = class_name(self.kind);
        let args: Vec<String> = self
            .fields
            .iter()
            .map(|(k, f)| format!("{k}={}", field_repr(f)))
            .collect();
        format!("{class}({})", args.join(", "))
    }
}

fn fmt_num(x: f64) -> String {
    format!("{x:?}")
}

fn fmt_vec(v: &[f64]) -> String {
    let s: Vec<String> = v.iter().map(|x| fmt_num(*x)).collect();
    format!("[{}]", s.join(", "))
}

fn field_repr(f: &Field) -> String {
    match f {
        Field::Num(x) => fmt_num(*x),
        Field::Vec(v) | Field::Pose(v) => fmt_vec(v),
        Field::Rows(c, d) => {
            let n = d.len() / (*c).max(1);
            if n <= 4 {
                let rows: Vec<String> = d.chunks(*c).map(fmt_vec).collect();
                format!("[{}]", rows.join(", "))
            } else {
                format!("<{n} x {c} array>")
            }
        }
        Field::Shape(s) => s.repr(),
        Field::Flag(b) => if *b { "True" } else { "False" }.to_string(),
    }
}

fn class_name(kind: &str) -> &'static str {
    match kind {
        "points" => "Points",
        "box" => "Box",
        "sphere" => "Sphere",
        "circle" => "Circle",
        "capsule" => "Capsule",
        "segment" => "Segment",
        "triangle" => "Triangle",
        "cylinder" => "Cylinder",
        "cone" => "Cone",
        "polygon" => "Polygon",
        "rounded" => "Rounded",
        "halfspaces" => "Halfspaces",
        "transformed" => "Transformed",
        _ => "Shape",
    }
}

fn v2(c: &[f64]) -> DVec2 {
    DVec2::new(c[0], c[1])
}
fn v3(c: &[f64]) -> DVec3 {
    DVec3::new(c[0], c[1], c[2])
}

pub(crate) fn data(
    geom: Geom,
    kind: &'static str,
    fields: Vec<(&'static str, Field)>,
) -> Arc<ShapeData> {
    Arc::new(ShapeData {
        geom,
        kind,
        fields,
        single: std::sync::OnceLock::new(),
    })
}

fn coords_2_or_3(field: &str, v: &[f64]) -> PyResult<()> {
    if v.len() == 2 || v.len() == 3 {
        Ok(())
    } else {
        Err(value_error(
            field,
            format!(
                "expected 2 coordinates (2D) or 3 coordinates (3D), found {}",
                v.len()
            ),
        ))
    }
}

fn same_len(field: &str, first: &[f64], other: &[f64]) -> PyResult<()> {
    if first.len() == other.len() {
        Ok(())
    } else {
        Err(value_error(
            field,
            format!(
                "expected {} coordinates (like a), found {}",
                first.len(),
                other.len()
            ),
        ))
    }
}

// ---- builders shared by the constructors and shape_from_dict --------------------------------

pub fn build_points(
    points: &Bound<'_, PyAny>,
    dim: Option<usize>,
    index: bool,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let field = join(prefix, "points");
    let (d, flat) = convert::rows(points, &field)?;
    if let Some(want) = dim {
        if want != d {
            return Err(value_error(
                &field,
                format!(
                    "expected rows of {want} coordinates (a {want}-dimensional shape), found {d}"
                ),
            ));
        }
    }
    let rows: Vec<&[f64]> = flat.chunks(d).collect();
    let err = |e| input_error(prefix, e);
    let geom = match d {
        2 => Geom::D2(Shape2::Points(Points::from_rows(&rows).map_err(err)?)),
        3 => {
            let p = Points::from_rows(&rows).map_err(err)?;
            Geom::D3(Shape3::Points(if index { p.with_hull_index() } else { p }))
        }
        _ => Geom::Nd(PointsN::from_rows(&rows).map_err(err)?),
    };
    let mut fields = vec![("points", Field::Rows(d, flat))];
    if index {
        fields.push(("index", Field::Flag(true)));
    }
    Ok(data(geom, "points", fields))
}

pub fn build_box(half_extents: &Bound<'_, PyAny>, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let h = convert::vector(half_extents, &join(prefix, "half_extents"))?;
    let err = |e| input_error(prefix, e);
    let geom = match h.len() {
        2 => Geom::D2(Shape2::Rect(Cuboid::new(v2(&h)).map_err(err)?)),
        3 => Geom::D3(Shape3::Cuboid(Cuboid::new(v3(&h)).map_err(err)?)),
        n => {
            return Err(value_error(
                &join(prefix, "half_extents"),
                format!("expected 2 numbers (2D) or 3 numbers (3D), found {n}"),
            ))
        }
    };
    Ok(data(geom, "box", vec![("half_extents", Field::Vec(h))]))
}

pub fn build_ball(radius: &Bound<'_, PyAny>, d3: bool, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let r = convert::number(radius, &join(prefix, "radius"))?;
    let err = |e| input_error(prefix, e);
    let (geom, kind) = if d3 {
        (
            Geom::D3(Shape3::Sphere(Ball::new(r).map_err(err)?)),
            "sphere",
        )
    } else {
        (
            Geom::D2(Shape2::Circle(Ball::new(r).map_err(err)?)),
            "circle",
        )
    };
    Ok(data(geom, kind, vec![("radius", Field::Num(r))]))
}

pub fn build_capsule(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: Option<&Bound<'_, PyAny>>,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let av = convert::vector(a, &join(prefix, "a"))?;
    let bv = convert::vector(b, &join(prefix, "b"))?;
    coords_2_or_3(&join(prefix, "a"), &av)?;
    same_len(&join(prefix, "b"), &av, &bv)?;
    let err = |e| input_error(prefix, e);
    let mut fields = vec![("a", Field::Vec(av.clone())), ("b", Field::Vec(bv.clone()))];
    let (geom, kind) = match radius {
        Some(r) => {
            let r = convert::number(r, &join(prefix, "radius"))?;
            fields.push(("radius", Field::Num(r)));
            let g = if av.len() == 2 {
                Geom::D2(Shape2::Capsule(
                    Capsule::new(v2(&av), v2(&bv), r).map_err(err)?,
                ))
            } else {
                Geom::D3(Shape3::Capsule(
                    Capsule::new(v3(&av), v3(&bv), r).map_err(err)?,
                ))
            };
            (g, "capsule")
        }
        None => {
            let g = if av.len() == 2 {
                Geom::D2(Shape2::Segment(
                    Segment::new(v2(&av), v2(&bv)).map_err(err)?,
                ))
            } else {
                Geom::D3(Shape3::Segment(
                    Segment::new(v3(&av), v3(&bv)).map_err(err)?,
                ))
            };
            (g, "segment")
        }
    };
    Ok(data(geom, kind, fields))
}

pub fn build_triangle(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let av = convert::vector(a, &join(prefix, "a"))?;
    let bv = convert::vector(b, &join(prefix, "b"))?;
    let cv = convert::vector(c, &join(prefix, "c"))?;
    coords_2_or_3(&join(prefix, "a"), &av)?;
    same_len(&join(prefix, "b"), &av, &bv)?;
    same_len(&join(prefix, "c"), &av, &cv)?;
    let err = |e| input_error(prefix, e);
    let geom = if av.len() == 3 {
        Geom::D3(Shape3::Triangle(
            Triangle::new(v3(&av), v3(&bv), v3(&cv)).map_err(err)?,
        ))
    } else {
        // A 2D triangle is the hull of its three corners (as in the CLI).
        for (k, p) in [("a", &av), ("b", &bv), ("c", &cv)] {
            convert::finite(&join(prefix, k), p, None)?;
        }
        Geom::D2(Shape2::Points(
            Points::new(&[v2(&av), v2(&bv), v2(&cv)]).map_err(err)?,
        ))
    };
    Ok(data(
        geom,
        "triangle",
        vec![
            ("a", Field::Vec(av)),
            ("b", Field::Vec(bv)),
            ("c", Field::Vec(cv)),
        ],
    ))
}

pub fn build_cylinder_or_cone(
    half_height: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
    cone: bool,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let h = convert::number(half_height, &join(prefix, "half_height"))?;
    let r = convert::number(radius, &join(prefix, "radius"))?;
    let err = |e| input_error(prefix, e);
    let (geom, kind) = if cone {
        (
            Geom::D3(Shape3::Cone(Cone::new(h, r).map_err(err)?)),
            "cone",
        )
    } else {
        (
            Geom::D3(Shape3::Cylinder(Cylinder::new(h, r).map_err(err)?)),
            "cylinder",
        )
    };
    Ok(data(
        geom,
        kind,
        vec![("half_height", Field::Num(h)), ("radius", Field::Num(r))],
    ))
}

pub fn build_polygon(points: &Bound<'_, PyAny>, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let field = join(prefix, "points");
    let (d, flat) = convert::rows(points, &field)?;
    if d != 2 {
        return Err(value_error(
            &field,
            format!("a polygon takes rows of 2 coordinates (shape (n, 2)), found {d}"),
        ));
    }
    let rows: Vec<&[f64]> = flat.chunks(2).collect();
    let err = |e| input_error(prefix, e);
    let pts = Points::<DVec2>::from_rows(&rows).map_err(err)?;
    let poly = ConvexPolygon::new(pts.points()).map_err(err)?;
    Ok(data(
        Geom::D2(Shape2::Polygon(poly)),
        "polygon",
        vec![("points", Field::Rows(2, flat))],
    ))
}

pub fn build_halfspaces(
    normals: &Bound<'_, PyAny>,
    offsets: &Bound<'_, PyAny>,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let (d, flat) = convert::rows(normals, &join(prefix, "normals"))?;
    let off = convert::vector(offsets, &join(prefix, "offsets"))?;
    let rows: Vec<&[f64]> = flat.chunks(d).collect();
    let err = |e| input_error(prefix, e);
    let geom = match d {
        2 => Geom::D2(Shape2::Halfspaces(
            BoundedHalfspaces::from_rows(&rows, &off).map_err(err)?,
        )),
        3 => Geom::D3(Shape3::Halfspaces(
            BoundedHalfspaces::from_rows(&rows, &off).map_err(err)?,
        )),
        n => {
            return Err(value_error(
                &join(prefix, "normals"),
                format!("expected rows of 2 (2D) or 3 (3D) numbers, found {n}"),
            ))
        }
    };
    Ok(data(
        geom,
        "halfspaces",
        vec![
            ("normals", Field::Rows(d, flat)),
            ("offsets", Field::Vec(off)),
        ],
    ))
}

pub fn build_rounded(inner: Arc<ShapeData>, radius: f64, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let err = |e| input_error(prefix, e);
    let geom = match &inner.geom {
        Geom::D2(s) => Geom::D2(Shape2::Rounded(Box::new(
            Rounded::new(s.clone(), radius).map_err(err)?,
        ))),
        Geom::D3(s) => Geom::D3(Shape3::Rounded(Box::new(
            Rounded::new(s.clone(), radius).map_err(err)?,
        ))),
        Geom::Nd(p) => {
            return Err(value_error(
                &join(prefix, "shape"),
                format!(
                    "a {}-dimensional point set cannot be rounded (only 2D and 3D shapes)",
                    p.dim()
                ),
            ))
        }
    };
    Ok(data(
        geom,
        "rounded",
        vec![
            ("shape", Field::Shape(inner)),
            ("radius", Field::Num(radius)),
        ],
    ))
}

pub fn build_transformed(
    inner: Arc<ShapeData>,
    pose_obj: &Bound<'_, PyAny>,
    prefix: &str,
) -> PyResult<Arc<ShapeData>> {
    let field = join(prefix, "pose");
    let (geom, flat) = match &inner.geom {
        Geom::D2(s) => {
            let p = pose::pose2(pose_obj, &field)?;
            let t = p.translation();
            let flat = vec![t.x, t.y, p.rotation().angle()];
            (
                Geom::D2(Shape2::Transformed(Box::new(Transformed::new(
                    s.clone(),
                    p,
                )))),
                flat,
            )
        }
        Geom::D3(s) => {
            let p = pose::pose3(pose_obj, &field)?;
            let (t, q) = (p.translation(), p.rotation());
            let flat = vec![t.x, t.y, t.z, q.x, q.y, q.z, q.w];
            (
                Geom::D3(Shape3::Transformed(Box::new(Transformed::new(
                    s.clone(),
                    p,
                )))),
                flat,
            )
        }
        Geom::Nd(p) => {
            return Err(value_error(
                &join(prefix, "shape"),
                format!(
                    "a {}-dimensional shape cannot be transformed (only 2D and 3D)",
                    p.dim()
                ),
            ))
        }
    };
    Ok(data(
        geom,
        "transformed",
        vec![("shape", Field::Shape(inner)), ("pose", Field::Pose(flat))],
    ))
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

// ---- the scene format ---------------------------------------------------------------------

/// Every shape `type` of the scene format with its fields besides `type` (and `meta`, free-form
/// metadata that is never read): the library's table, which the CLI reads too, so that a scene
/// file's shapes load unchanged. A key outside them is an error, never ignored: it would
/// change the answer.
use convexity::shape::SCENE_FIELDS as FIELDS;

/// The shape type names, in table order.
fn type_names() -> Vec<&'static str> {
    FIELDS.iter().map(|(t, _)| *t).collect()
}

/// ` (did you mean "x"?)` or nothing.
pub fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    convexity::error::suggestion(word, candidates)
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default()
}

/// Every key of a `ty` shape dict is `type`, `meta` or one of the type's fields.
fn check_keys(d: &Bound<'_, PyDict>, ty: &str, allowed: &[&str], prefix: &str) -> PyResult<()> {
    for k in d.keys() {
        let Ok(k) = k.extract::<String>() else {
            return Err(value_error(
                prefix,
                format!("a shape dict's keys are strings, found {}", k.repr()?),
            ));
        };
        if k == "type" || k == "meta" || allowed.contains(&k.as_str()) {
            continue;
        }
        return Err(value_error(
            &join(prefix, &k),
            format!(
                "unknown field in a {ty:?} shape{} (fields are: type, {}; put metadata under \"meta\")",
                did_you_mean(&k, allowed),
                allowed.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A field that must be present (and not `None`). A misspelt key never reaches here:
/// `check_keys` has already refused it with a suggestion.
fn required<'py>(d: &Bound<'py, PyDict>, key: &str, prefix: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .filter(|v| !v.is_none())
        .ok_or_else(|| value_error(&join(prefix, key), "missing field"))
}

/// Parses a scene-format shape object (recursively for `rounded` and `transformed`).
pub fn from_dict(obj: &Bound<'_, PyAny>, prefix: &str) -> PyResult<Arc<ShapeData>> {
    let d = obj.cast::<PyDict>().map_err(|_| {
        value_error(
            prefix,
            format!(
                "expected a shape dict with a \"type\", found {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        )
    })?;
    let ty_field = join(prefix, "type");
    let ty_v = d.get_item("type")?.ok_or_else(|| {
        value_error(
            &ty_field,
            format!(
                "missing field; valid types are: {}",
                type_names().join(", ")
            ),
        )
    })?;
    let ty: String = ty_v.extract().map_err(|_| {
        value_error(
            &ty_field,
            format!(
                "expected a string; valid types are: {}",
                type_names().join(", ")
            ),
        )
    })?;
    let Some((_, allowed)) = FIELDS.iter().find(|(t, _)| *t == ty) else {
        return Err(value_error(
            &ty_field,
            format!(
                "unknown type {ty:?}{}; valid types are: {}",
                did_you_mean(&ty, &type_names()),
                type_names().join(", ")
            ),
        ));
    };
    check_keys(d, &ty, allowed, prefix)?;
    let req = |k: &str| required(d, k, prefix);
    // `index` (support from the hull's cell map): false when absent; only `points` and `mesh`
    // take it (the key check above refuses it elsewhere).
    let index = || match d.get_item("index")? {
        None => Ok(false),
        Some(v) => convert::flag(&v, &join(prefix, "index")),
    };
    match ty.as_str() {
        "points" => build_points(&req("points")?, None, index()?, prefix),
        "sphere" => build_ball(&req("radius")?, true, prefix),
        "circle" => build_ball(&req("radius")?, false, prefix),
        "box" => build_box(&req("half_extents")?, prefix),
        "capsule" => build_capsule(&req("a")?, &req("b")?, Some(&req("radius")?), prefix),
        "segment" => build_capsule(&req("a")?, &req("b")?, None, prefix),
        "triangle" => build_triangle(&req("a")?, &req("b")?, &req("c")?, prefix),
        "cylinder" => build_cylinder_or_cone(&req("half_height")?, &req("radius")?, false, prefix),
        "cone" => build_cylinder_or_cone(&req("half_height")?, &req("radius")?, true, prefix),
        "polygon" => build_polygon(&req("points")?, prefix),
        "halfspaces" => build_halfspaces(&req("normals")?, &req("offsets")?, prefix),
        "rounded" => {
            let inner = from_dict(&req("shape")?, &join(prefix, "shape"))?;
            let r = convert::number(&req("radius")?, &join(prefix, "radius"))?;
            build_rounded(inner, r, prefix)
        }
        "transformed" => {
            let inner = from_dict(&req("shape")?, &join(prefix, "shape"))?;
            let pose_obj = match d.get_item("pose")? {
                Some(p) => p,
                None => obj.py().None().into_bound(obj.py()),
            };
            build_transformed(inner, &pose_obj, prefix)
        }
        "mesh" => crate::mesh::from_scene(&req("file")?, &req("as")?, index()?, prefix),
        // Unknown types were refused above: a type in the table without a builder here is a
        // fault of this code, not of the input.
        other => Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "internal error in convexity (please report): shape type {other:?} has no builder"
        ))),
    }
}

/// The scene-format object of a shape (inverse of [`from_dict`]).
pub fn to_dict<'py>(py: Python<'py>, s: &ShapeData) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("type", s.kind)?;
    for (k, f) in &s.fields {
        match f {
            Field::Num(x) => d.set_item(*k, *x)?,
            Field::Vec(v) => d.set_item(*k, v.clone())?,
            Field::Rows(c, data) => {
                let rows: Vec<Vec<f64>> = data.chunks(*c).map(<[f64]>::to_vec).collect();
                d.set_item(*k, PyList::new(py, rows)?)?
            }
            Field::Shape(inner) => d.set_item(*k, to_dict(py, inner)?)?,
            Field::Flag(b) => d.set_item(*k, *b)?,
            Field::Pose(v) => {
                let p = PyDict::new(py);
                if v.len() == 7 {
                    p.set_item("translation", v[..3].to_vec())?;
                    p.set_item("rotation", v[3..].to_vec())?;
                } else {
                    p.set_item("translation", v[..2].to_vec())?;
                    p.set_item("angle", v[2])?;
                }
                d.set_item(*k, p)?
            }
        }
    }
    Ok(d)
}

// ---- Python classes ------------------------------------------------------------------------

/// Base class of every shape. Shapes are immutable; build them with the subclasses
/// (`Points`, `Box`, `Sphere`, ...) or `shape_from_dict`.
#[pyclass(frozen, subclass, module = "convexity", name = "Shape")]
pub struct PyShape {
    pub data: Arc<ShapeData>,
}

#[pymethods]
impl PyShape {
    /// Dimension of the shape (2, 3, or n for an n-dimensional point set).
    #[getter]
    fn dim(&self) -> usize {
        self.data.dim()
    }

    /// The scene-format `type` of the shape ("box", "sphere", ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.data.kind
    }

    /// The CLI scene format's object for this shape: `shape_from_dict(s.to_dict())` rebuilds it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| to_dict(py, &self.data))
    }

    /// Vertices of the shape (in its own frame) for polytopes, `None` for curved shapes.
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        use convexity::shape::Polytope;
        guard(|| {
            let (dim, flat): (usize, Vec<f64>) = match &self.data.geom {
                Geom::D2(s) => match s.vertex_set() {
                    Some(v) => (2, v.iter().flat_map(|p| [p.x, p.y]).collect()),
                    None => return Ok(None),
                },
                Geom::D3(s) => match s.vertex_set() {
                    Some(v) => (3, v.iter().flat_map(|p| [p.x, p.y, p.z]).collect()),
                    None => return Ok(None),
                },
                Geom::Nd(p) => (p.dim(), p.coords().to_vec()),
            };
            crate::results::matrix(py, flat, dim).map(Some)
        })
    }

    fn __repr__(&self) -> String {
        self.data.repr()
    }

    /// Pickles as `shape_from_dict(self.to_dict())`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        guard(|| {
            let f = py.import("convexity")?.getattr("shape_from_dict")?;
            Ok((f, (to_dict(py, &self.data)?,)))
        })
    }
}

/// Wraps shape data in the Python class of its kind.
pub fn wrap(py: Python<'_>, data: Arc<ShapeData>) -> PyResult<Bound<'_, PyAny>> {
    let base = PyClassInitializer::from(PyShape { data: data.clone() });
    macro_rules! sub {
        ($t:ident) => {
            Ok(Bound::new(py, base.add_subclass($t))?.into_any())
        };
    }
    match data.kind {
        "points" => sub!(PyPoints),
        "box" => sub!(PyBox),
        "sphere" => sub!(PySphere),
        "circle" => sub!(PyCircle),
        "capsule" => sub!(PyCapsule),
        "segment" => sub!(PySegment),
        "triangle" => sub!(PyTriangle),
        "cylinder" => sub!(PyCylinder),
        "cone" => sub!(PyCone),
        "polygon" => sub!(PyPolygon),
        "rounded" => sub!(PyRounded),
        "halfspaces" => sub!(PyHalfspaces),
        "transformed" => sub!(PyTransformed),
        _ => Ok(Bound::new(py, base)?.into_any()),
    }
}

type Init<T> = PyResult<PyClassInitializer<T>>;

fn init<T: pyo3::PyClass<BaseType = PyShape>>(data: Arc<ShapeData>, t: T) -> Init<T> {
    Ok(PyClassInitializer::from(PyShape { data }).add_subclass(t))
}

/// Convex hull of points: `Points(points)` with `points` of shape (n, 2), (n, 3) or (n, d).
///
/// Duplicates, collinear and flat sets are fine. `dim` (optional) insists on a dimension.
/// `index=True` builds the hull once and answers each support query from its cell map of
/// candidate vertices instead of scanning every point (3D sets of more than 64 points; no effect elsewhere):
/// for a big set queried many times, e.g. a 1,000-point hull goes from ~110,000 to ~8,700
/// instructions per distance query. The answers are the same to within the hull's build
/// tolerance (about 1e-15 of the coordinates). The build (a few ms at 1,000 points) costs as
/// much as hundreds to thousands of queries, so leave it off for a set used once.
/// `index_vertices` tells how many hull vertices the queries read.
///
/// >>> import convexity as cx
/// >>> tetra = cx.Points([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
/// >>> tetra.dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Points")]
pub struct PyPoints;

#[pymethods]
impl PyPoints {
    #[new]
    #[pyo3(signature = (points, dim = None, index = false))]
    fn new(points: &Bound<'_, PyAny>, dim: Option<usize>, index: bool) -> Init<Self> {
        guard(|| init(build_points(points, dim, index, "")?, PyPoints))
    }

    /// The number of hull vertices the support queries read, for a set built with
    /// `index=True` (3D, more than 64 points); `None` otherwise.
    #[getter]
    fn index_vertices(slf: PyRef<'_, Self>) -> Option<usize> {
        match &slf.as_super().data.geom {
            Geom::D3(Shape3::Points(p)) => p.hull_index_vertices(),
            _ => None,
        }
    }
}

/// Axis-aligned box centred at the origin: `Box(half_extents)` with 2 (2D) or 3 (3D) numbers.
///
/// >>> import convexity as cx
/// >>> cx.Box([0.5, 0.5, 0.5]).dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Box")]
pub struct PyBox;

#[pymethods]
impl PyBox {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_box(half_extents, "")?, PyBox))
    }
}

/// Sphere centred at the origin (3D): `Sphere(radius)`.
///
/// >>> import convexity as cx
/// >>> cx.distance(cx.Sphere(1.0), None, cx.Sphere(1.0), [3, 0, 0, 0, 0, 0, 1]).distance
/// 1.0
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Sphere")]
pub struct PySphere;

#[pymethods]
impl PySphere {
    #[new]
    fn new(radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_ball(radius, true, "")?, PySphere))
    }
}

/// Disc centred at the origin (2D): `Circle(radius)`.
///
/// >>> import convexity as cx
/// >>> cx.Circle(1.0).dim
/// 2
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Circle")]
pub struct PyCircle;

#[pymethods]
impl PyCircle {
    #[new]
    fn new(radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_ball(radius, false, "")?, PyCircle))
    }
}

/// Segment `a`–`b` grown by `radius` (2D or 3D, from the length of `a`).
///
/// >>> import convexity as cx
/// >>> cx.Capsule([0, 0, -1], [0, 0, 1], 0.2).dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Capsule")]
pub struct PyCapsule;

#[pymethods]
impl PyCapsule {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_capsule(a, b, Some(radius), "")?, PyCapsule))
    }
}

/// Segment from `a` to `b` (2D or 3D).
///
/// >>> import convexity as cx
/// >>> cx.Segment([0, 0], [1, 0]).dim
/// 2
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Segment")]
pub struct PySegment;

#[pymethods]
impl PySegment {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_capsule(a, b, None, "")?, PySegment))
    }
}

/// Triangle with corners `a`, `b`, `c` (2D or 3D).
///
/// >>> import convexity as cx
/// >>> cx.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]).dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Triangle")]
pub struct PyTriangle;

#[pymethods]
impl PyTriangle {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, c: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_triangle(a, b, c, "")?, PyTriangle))
    }
}

/// Cylinder along the local z axis, centred at the origin (3D).
///
/// >>> import convexity as cx
/// >>> cx.Cylinder(1.0, 0.5).dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Cylinder")]
pub struct PyCylinder;

#[pymethods]
impl PyCylinder {
    #[new]
    fn new(half_height: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| {
            init(
                build_cylinder_or_cone(half_height, radius, false, "")?,
                PyCylinder,
            )
        })
    }
}

/// Cone with its base disc at z = -half_height and apex at z = +half_height (3D).
///
/// >>> import convexity as cx
/// >>> cx.Cone(1.0, 0.5).kind
/// 'cone'
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Cone")]
pub struct PyCone;

#[pymethods]
impl PyCone {
    #[new]
    fn new(half_height: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| {
            init(
                build_cylinder_or_cone(half_height, radius, true, "")?,
                PyCone,
            )
        })
    }
}

/// Convex polygon from its vertices in order, shape (n, 2) (either winding).
///
/// >>> import convexity as cx
/// >>> cx.Polygon([[0, 0], [2, 0], [1, 1]]).dim
/// 2
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Polygon")]
pub struct PyPolygon;

#[pymethods]
impl PyPolygon {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_polygon(points, "")?, PyPolygon))
    }
}

/// A shape grown by a ball of `radius`.
///
/// >>> import convexity as cx
/// >>> cx.Rounded(cx.Box([1, 1, 1]), 0.1).kind
/// 'rounded'
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Rounded")]
pub struct PyRounded;

#[pymethods]
impl PyRounded {
    #[new]
    fn new(shape: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| {
            let inner = shape_arg(shape, "shape")?;
            let r = convert::number(radius, "radius")?;
            init(build_rounded(inner, r, "")?, PyRounded)
        })
    }
}

/// Bounded intersection of half-spaces {x : normals[i]·x <= offsets[i]} (2D or 3D).
///
/// >>> import convexity as cx
/// >>> cx.Halfspaces([[1, 0], [-1, 0], [0, 1], [0, -1]], [1, 1, 1, 1]).dim
/// 2
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Halfspaces")]
pub struct PyHalfspaces;

#[pymethods]
impl PyHalfspaces {
    #[new]
    fn new(normals: &Bound<'_, PyAny>, offsets: &Bound<'_, PyAny>) -> Init<Self> {
        guard(|| init(build_halfspaces(normals, offsets, "")?, PyHalfspaces))
    }
}

/// A shape placed at a fixed pose in its own frame.
///
/// >>> import convexity as cx
/// >>> cx.Transformed(cx.Sphere(1.0), [1, 0, 0, 0, 0, 0, 1]).dim
/// 3
#[pyclass(frozen, extends = PyShape, module = "convexity", name = "Transformed")]
pub struct PyTransformed;

#[pymethods]
impl PyTransformed {
    #[new]
    #[pyo3(signature = (shape, pose = None))]
    fn new(shape: &Bound<'_, PyAny>, pose: Option<&Bound<'_, PyAny>>) -> Init<Self> {
        guard(|| {
            let inner = shape_arg(shape, "shape")?;
            let py = shape.py();
            let none = py.None().into_bound(py);
            init(
                build_transformed(inner, pose.unwrap_or(&none), "")?,
                PyTransformed,
            )
        })
    }
}

/// The shape data of a `Shape` argument (a `TypeError`-free `ValueError` naming it otherwise).
pub fn shape_arg(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Arc<ShapeData>> {
    match obj.cast::<PyShape>() {
        Ok(s) => Ok(s.get().data.clone()),
        Err(_) => Err(value_error(
            field,
            format!(
                "expected a convexity shape, found {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        )),
    }
}

/// Builds a shape from a CLI scene-format shape object (a dict), so a scene file's shapes load
/// unchanged. Field names and the NaN/infinity strings are those of the scene format.
///
/// >>> import convexity as cx
/// >>> cx.shape_from_dict({"type": "capsule", "a": [0, 0, -1], "b": [0, 0, 1], "radius": 0.2})
/// Capsule(a=[0.0, 0.0, -1.0], b=[0.0, 0.0, 1.0], radius=0.2)
#[pyfunction]
pub fn shape_from_dict<'py>(py: Python<'py>, d: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    guard(|| wrap(py, from_dict(d, "")?))
}
