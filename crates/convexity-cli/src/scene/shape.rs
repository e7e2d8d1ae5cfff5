//! Parsing one shape object of the scene format into a validated [`SceneShape`].

use super::mesh::{parse_mesh, Files, Solid};
use super::{invalid, parse_pose2, parse_pose3, type_names, NdPoints, SceneShape, SHAPE_FIELDS};
use crate::fields::{self, describe, quote, Object};
use convexity::{
    nd::points::PointsN, Ball, BoundedHalfspaces, Capsule, Cone, ConvexPolygon, Cuboid, Cylinder,
    DVec2, DVec3, InputError, Points, Problem, Rounded, Segment, Shape2, Shape3, Transformed,
    Triangle,
};
use serde_json::Value;
use std::sync::Arc;

/// Parses one shape object (recursively for `rounded` and `transformed`). A field the shape's
/// type does not take is an error (with a suggestion), never ignored. Mesh files (`"mesh"`)
/// are read through `files`.
pub fn parse_shape(v: &Value, files: &Files) -> Result<SceneShape, InputError> {
    let obj = v.as_object().ok_or_else(|| {
        invalid(
            "",
            format!(
                "expected a shape object with a \"type\", found {}",
                describe(v)
            ),
        )
    })?;
    let ty_v = obj.get("type").ok_or_else(|| {
        invalid(
            "type",
            format!(
                "missing field; valid types are: {}",
                type_names().join(", ")
            ),
        )
    })?;
    let ty = ty_v.as_str().ok_or_else(|| {
        invalid(
            "type",
            format!(
                "expected a string, found {}; valid types are: {}",
                describe(ty_v),
                type_names().join(", ")
            ),
        )
    })?;
    let what = format!("a {}", quote(ty));
    let what = what.as_str();
    if let Some((_, allowed)) = SHAPE_FIELDS.iter().find(|(t, _)| *t == ty) {
        let mut with_type = vec!["type"];
        with_type.extend_from_slice(allowed);
        fields::check_keys(obj, &with_type, &format!("{what} shape"))?;
    }
    match ty {
        "points" => parse_points(obj, what),
        "mesh" => parse_mesh(obj, what, files),
        "sphere" => Ok(SceneShape::D3(Shape3::Sphere(Ball::new(
            fields::number_field(obj, "radius", what)?,
        )?))),
        "circle" => Ok(SceneShape::D2(Shape2::Circle(Ball::new(
            fields::number_field(obj, "radius", what)?,
        )?))),
        "box" => {
            let h = fields::numbers_field(obj, "half_extents", what)?;
            match h.len() {
                2 => Ok(SceneShape::D2(Shape2::Rect(Cuboid::new(DVec2::new(
                    h[0], h[1],
                ))?))),
                3 => Ok(SceneShape::D3(Shape3::Cuboid(Cuboid::new(DVec3::new(
                    h[0], h[1], h[2],
                ))?))),
                n => Err(invalid(
                    "half_extents",
                    format!("expected 2 numbers (2D) or 3 numbers (3D), found {n}"),
                )),
            }
        }
        "capsule" | "segment" => {
            let (a, b) = endpoints(obj, what)?;
            let radius = if ty == "capsule" {
                Some(fields::number_field(obj, "radius", what)?)
            } else {
                None
            };
            match (a.len(), radius) {
                (2, Some(r)) => Ok(SceneShape::D2(Shape2::Capsule(Capsule::new(
                    v2(&a),
                    v2(&b),
                    r,
                )?))),
                (3, Some(r)) => Ok(SceneShape::D3(Shape3::Capsule(Capsule::new(
                    v3(&a),
                    v3(&b),
                    r,
                )?))),
                (2, None) => Ok(SceneShape::D2(Shape2::Segment(Segment::new(
                    v2(&a),
                    v2(&b),
                )?))),
                (3, None) => Ok(SceneShape::D3(Shape3::Segment(Segment::new(
                    v3(&a),
                    v3(&b),
                )?))),
                (n, _) => Err(invalid(
                    "a",
                    format!("expected 2 coordinates (2D) or 3 coordinates (3D), found {n}"),
                )),
            }
        }
        "triangle" => {
            let (a, b) = endpoints(obj, what)?;
            let c = fields::numbers_field(obj, "c", what)?;
            same_len("c", &a, &c)?;
            match a.len() {
                3 => Ok(SceneShape::D3(Shape3::Triangle(Triangle::new(
                    v3(&a),
                    v3(&b),
                    v3(&c),
                )?))),
                2 => {
                    // A 2D triangle is the hull of its three corners.
                    for (k, p) in [("a", &a), ("b", &b), ("c", &c)] {
                        fields::finite_coords(k, p)?;
                    }
                    let pts = Points::new(&[v2(&a), v2(&b), v2(&c)])?;
                    Ok(SceneShape::D2(Shape2::Points(pts)))
                }
                n => Err(invalid(
                    "a",
                    format!("expected 2 coordinates (2D) or 3 coordinates (3D), found {n}"),
                )),
            }
        }
        "cylinder" => Ok(SceneShape::D3(Shape3::Cylinder(Cylinder::new(
            fields::number_field(obj, "half_height", what)?,
            fields::number_field(obj, "radius", what)?,
        )?))),
        "cone" => Ok(SceneShape::D3(Shape3::Cone(Cone::new(
            fields::number_field(obj, "half_height", what)?,
            fields::number_field(obj, "radius", what)?,
        )?))),
        "polygon" => parse_polygon(obj, what),
        "halfspaces" => {
            let normals = fields::rows(fields::required(obj, "normals", what)?, "normals")?;
            let offsets = fields::numbers_field(obj, "offsets", what)?;
            match normals.first().map(Vec::len) {
                Some(2) => Ok(SceneShape::D2(Shape2::Halfspaces(
                    BoundedHalfspaces::from_rows(&normals, &offsets)?,
                ))),
                Some(3) => Ok(SceneShape::D3(Shape3::Halfspaces(
                    BoundedHalfspaces::from_rows(&normals, &offsets)?,
                ))),
                Some(n) => Err(invalid(
                    "normals[0]",
                    format!(
                        "expected 2 numbers (2D) or 3 numbers (3D), found {n}; n-dimensional \
                         half-space shapes are not supported by the CLI"
                    ),
                )),
                None => Err(InputError::new("normals", Problem::Empty)),
            }
        }
        "rounded" => {
            let inner = parse_shape(fields::required(obj, "shape", what)?, files)
                .map_err(|e| e.within("shape"))?;
            let r = fields::number_field(obj, "radius", what)?;
            match inner {
                SceneShape::D2(s) => Ok(SceneShape::D2(Shape2::Rounded(Box::new(Rounded::new(
                    s, r,
                )?)))),
                SceneShape::D3(s) => Ok(SceneShape::D3(Shape3::Rounded(Box::new(Rounded::new(
                    s, r,
                )?)))),
                SceneShape::Nd(mut p) => {
                    Rounded::new((), r)?;
                    p.radius += r;
                    Ok(SceneShape::Nd(p))
                }
                SceneShape::Solid(s) => Err(invalid(
                    "shape",
                    format!(
                        "a mesh file read as \"{}\" cannot be rounded (only convex shapes; \
                         \"as\": \"hull\" can)",
                        s.reading()
                    ),
                )),
            }
        }
        "transformed" => {
            let inner = parse_shape(fields::required(obj, "shape", what)?, files)
                .map_err(|e| e.within("shape"))?;
            let pose = obj.get("pose");
            let out = match inner {
                SceneShape::D2(s) => {
                    let p = parse_pose2(pose).map_err(|e| e.within("pose"))?;
                    SceneShape::D2(Shape2::Transformed(Box::new(Transformed::new(s, p))))
                }
                SceneShape::D3(s) => {
                    let p = parse_pose3(pose).map_err(|e| e.within("pose"))?;
                    SceneShape::D3(Shape3::Transformed(Box::new(Transformed::new(s, p))))
                }
                SceneShape::Solid(s) => {
                    let p = parse_pose3(pose).map_err(|e| e.within("pose"))?;
                    SceneShape::Solid(Arc::new(Solid {
                        local: p.compose(&s.local),
                        ..(*s).clone()
                    }))
                }
                SceneShape::Nd(p) => {
                    return Err(invalid(
                        "shape",
                        format!(
                            "a {}-dimensional shape cannot be transformed yet (only 2D and 3D)",
                            p.dim
                        ),
                    ))
                }
            };
            Ok(out)
        }
        other => {
            let hint = fields::suggestion(other, &type_names())
                .map(|s| format!(" (did you mean \"{s}\"?)"))
                .unwrap_or_default();
            Err(invalid(
                "type",
                format!(
                    "unknown type {}{hint}; valid types are: {}",
                    quote(other),
                    type_names().join(", ")
                ),
            ))
        }
    }
}

fn v2(c: &[f64]) -> DVec2 {
    DVec2::new(c[0], c[1])
}

fn v3(c: &[f64]) -> DVec3 {
    DVec3::new(c[0], c[1], c[2])
}

fn same_len(field: &str, first: &[f64], other: &[f64]) -> Result<(), InputError> {
    if first.len() == other.len() {
        Ok(())
    } else {
        Err(InputError::new(
            field,
            Problem::DimensionMismatch {
                expected: first.len(),
                found: other.len(),
            },
        ))
    }
}

/// `a` and `b` of a segment, capsule or triangle, of equal length.
fn endpoints(obj: &Object, what: &str) -> Result<(Vec<f64>, Vec<f64>), InputError> {
    let a = fields::numbers_field(obj, "a", what)?;
    let b = fields::numbers_field(obj, "b", what)?;
    same_len("b", &a, &b)?;
    Ok((a, b))
}

fn parse_points(obj: &Object, what: &str) -> Result<SceneShape, InputError> {
    let rows = fields::rows(fields::required(obj, "points", what)?, "points")?;
    // A support index changes the cost of each query, never its question (`Points::with_hull_index`).
    let index = fields::optional_bool(obj, "index")?;
    let Some(first) = rows.first() else {
        return Err(InputError::new("points", Problem::Empty));
    };
    match first.len() {
        2 => Ok(SceneShape::D2(Shape2::Points(Points::from_rows(&rows)?))),
        3 => {
            let p = Points::from_rows(&rows)?;
            let p = if index { p.with_hull_index() } else { p };
            Ok(SceneShape::D3(Shape3::Points(p)))
        }
        0 => Err(invalid(
            "points[0]",
            "a point needs at least one coordinate".into(),
        )),
        dim => Ok(SceneShape::Nd(NdPoints {
            dim,
            points: PointsN::from_rows(&rows)?,
            radius: 0.0,
        })),
    }
}

fn parse_polygon(obj: &Object, what: &str) -> Result<SceneShape, InputError> {
    let rows = fields::rows(fields::required(obj, "points", what)?, "points")?;
    if let Some(r) = rows.first() {
        if r.len() != 2 {
            return Err(InputError::new(
                "points[0]",
                Problem::DimensionMismatch {
                    expected: 2,
                    found: r.len(),
                },
            ));
        }
    }
    let pts = Points::<DVec2>::from_rows(&rows)?;
    match ConvexPolygon::new(pts.points()) {
        Ok(p) => Ok(SceneShape::D2(Shape2::Polygon(p))),
        Err(InputError {
            field,
            problem: Problem::NotConvex(i),
        }) => {
            let at = rows.get(i).map(|r| format!(" {r:?}")).unwrap_or_default();
            Err(invalid(
                &field,
                format!("polygon is not convex at vertex {i}{at}"),
            ))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
#[path = "shape_tests.rs"]
mod tests;
