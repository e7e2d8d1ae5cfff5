//! The JSON scene format: shapes by name and the pairs to query (documented in the README, "The scene format").
//!
//! Shapes are parsed once, up front, each into a `Result`: a bad shape fails only the pairs
//! that use it. Pairs are resolved one at a time ([`Scene::resolve`]); the dimension of a pair
//! (2D, 3D or n-dimensional) comes from its shapes and decides how its poses are read.
//! Nothing here panics on any input; every error names the shape or pair, the field path and
//! the offending value.

use crate::fields::{self, describe, quote, Object};
use convexity::{
    nd::points::PointsN, Ball, BoundedHalfspaces, Capsule, Cone, ConvexPolygon, Cuboid, Cylinder,
    DVec2, DVec3, InputError, Points, Pose2, Pose3, Problem, Rounded, Segment, Shape2, Shape3,
    Transformed, Triangle,
};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Every shape `type` the format knows, with the fields it takes (besides `type` and the
/// free-form `"meta"`). The one table of shape type names: messages and key checks read it.
pub const SHAPE_FIELDS: &[(&str, &[&str])] = &[
    ("points", &["points"]),
    ("sphere", &["radius"]),
    ("circle", &["radius"]),
    ("box", &["half_extents"]),
    ("capsule", &["a", "b", "radius"]),
    ("cylinder", &["half_height", "radius"]),
    ("cone", &["half_height", "radius"]),
    ("segment", &["a", "b"]),
    ("triangle", &["a", "b", "c"]),
    ("polygon", &["points"]),
    ("halfspaces", &["normals", "offsets"]),
    ("rounded", &["shape", "radius"]),
    ("transformed", &["shape", "pose"]),
];

/// The shape type names, in table order.
pub fn type_names() -> Vec<&'static str> {
    SHAPE_FIELDS.iter().map(|(t, _)| *t).collect()
}

/// The fields of a pair in a scene (besides `"meta"`).
pub const PAIR_FIELDS: &[&str] = &["a", "b", "pose_a", "pose_b"];

/// A point set of a dimension other than 2 or 3, validated by the library
/// (`convexity::nd::points::PointsN`), answered by the vertex-set methods that work in any
/// dimension.
#[derive(Clone, Debug)]
pub struct NdPoints {
    pub dim: usize,
    pub points: PointsN,
    /// Radius added by `rounded` wrappers (vertex methods cannot answer a rounded set).
    pub radius: f64,
}

/// A validated shape of the scene.
#[derive(Clone, Debug)]
pub enum SceneShape {
    D2(Shape2),
    D3(Shape3),
    Nd(NdPoints),
}

impl SceneShape {
    pub fn dim(&self) -> usize {
        match self {
            SceneShape::D2(_) => 2,
            SceneShape::D3(_) => 3,
            SceneShape::Nd(p) => p.dim,
        }
    }
}

/// A pose of the pair's dimension (n-dimensional sets take none).
#[derive(Clone, Copy, Debug)]
pub enum PoseAny {
    D2(Pose2),
    D3(Pose3),
    Nd,
}

/// A pair ready to query: its shapes (named in the scene, or inline), their names for
/// messages (`inline` for an inline shape) and poses of the pair's dimension. The shapes and
/// the poses always have the same dimension.
pub struct Pair<'s> {
    pub names: [Cow<'s, str>; 2],
    pub a: Cow<'s, SceneShape>,
    pub b: Cow<'s, SceneShape>,
    pub pose_a: PoseAny,
    pub pose_b: PoseAny,
}

/// A parsed scene.
pub struct Scene {
    pub shapes: BTreeMap<String, Result<SceneShape, String>>,
    pub pairs: Vec<Value>,
}

/// A whole-file problem (the scene is not an object, `shapes` or `pairs` is missing).
#[derive(Debug)]
pub struct SceneError(pub String);

/// Reads and parses a scene file (or standard input for `-`).
pub fn load(path: &str) -> Result<Scene, crate::Fatal> {
    let value = crate::input::read_json(path)?;
    Scene::from_value(value)
        .map_err(|e| crate::Fatal::input(format!("{}: {}", crate::input::display_name(path), e.0)))
}

/// Parses a `shapes` object: each shape into a `Result`, so that a bad shape fails only the
/// pairs that use it.
pub fn parse_shapes(shapes_o: &Object) -> BTreeMap<String, Result<SceneShape, String>> {
    shapes_o
        .iter()
        .map(|(name, sv)| {
            let parsed = parse_shape(sv).map_err(|e| shape_error(name, &e));
            (name.clone(), parsed)
        })
        .collect()
}

impl Scene {
    /// Reads the top level of a scene and validates every shape.
    pub fn from_value(v: Value) -> Result<Scene, SceneError> {
        let Value::Object(mut obj) = v else {
            return Err(SceneError(format!(
                "the scene must be a JSON object with \"shapes\" and \"pairs\", found {}",
                describe(&v)
            )));
        };
        let shapes_v = obj
            .get("shapes")
            .ok_or_else(|| SceneError("the scene has no \"shapes\" object".into()))?;
        let shapes_o = shapes_v.as_object().ok_or_else(|| {
            SceneError(format!(
                "\"shapes\" must be an object mapping names to shapes, found {}",
                describe(shapes_v)
            ))
        })?;
        if !obj.contains_key("pairs") {
            return Err(SceneError("the scene has no \"pairs\" array".into()));
        }
        fields::check_keys(&obj, &["shapes", "pairs"], "a scene")
            .map_err(|e| SceneError(e.to_string()))?;
        let shapes = parse_shapes(shapes_o);
        let pairs = match obj.remove("pairs") {
            Some(Value::Array(p)) => p,
            Some(other) => {
                return Err(SceneError(format!(
                    "\"pairs\" must be an array of pairs, found {}",
                    describe(&other)
                )))
            }
            None => return Err(SceneError("the scene has no \"pairs\" array".into())),
        };
        Ok(Scene { shapes, pairs })
    }

    /// Names of shapes that failed validation and that no pair refers to, with their errors.
    pub fn unused_bad_shapes(&self) -> Vec<&str> {
        let used: std::collections::HashSet<&str> = self
            .pairs
            .iter()
            .filter_map(|p| p.as_object())
            .flat_map(|o| [o.get("a"), o.get("b")])
            .filter_map(|v| v.and_then(Value::as_str))
            .collect();
        self.shapes
            .iter()
            .filter(|(n, s)| s.is_err() && !used.contains(n.as_str()))
            .filter_map(|(_, s)| s.as_ref().err().map(String::as_str))
            .collect()
    }

    /// Resolves pair `i` of the scene.
    pub fn resolve(&self, i: usize) -> Result<Pair<'_>, String> {
        let v = self
            .pairs
            .get(i)
            .ok_or_else(|| format!("pairs[{i}]: no such pair"))?;
        self.resolve_value(&format!("pairs[{i}]"), v)
    }

    /// Resolves one pair object (`here` names it in messages): looks up or parses its shapes,
    /// checks their dimensions and reads its poses. Unknown fields, and poses on
    /// n-dimensional pairs, are errors.
    pub fn resolve_value<'s>(&'s self, here: &str, v: &'s Value) -> Result<Pair<'s>, String> {
        let obj = v.as_object().ok_or_else(|| {
            format!(
                "{here}: expected an object with \"a\" and \"b\", found {}",
                describe(v)
            )
        })?;
        fields::check_keys(obj, PAIR_FIELDS, "a pair").map_err(|e| e.within(here).to_string())?;
        let (name_a, sa) = self.lookup(obj, "a", here)?;
        let (name_b, sb) = self.lookup(obj, "b", here)?;
        if sa.dim() != sb.dim() {
            return Err(format!(
                "{here}: shape {} is {} but shape {} is {}; both shapes of a pair must have the \
                 same dimension",
                quote(&name_a),
                dim_name(sa.dim()),
                quote(&name_b),
                dim_name(sb.dim())
            ));
        }
        let pose = |key: &str| {
            let p = obj.get(key);
            let at = format!("{here}.{key}");
            match sa.dim() {
                2 => parse_pose2(p).map(PoseAny::D2),
                3 => parse_pose3(p).map(PoseAny::D3),
                n if p.is_some_and(|p| !p.is_null()) => Err(invalid(
                    "",
                    format!(
                        "a {n}-dimensional pair takes no pose (its coordinates are world \
                         coordinates); remove {key} or move the points"
                    ),
                )),
                _ => Ok(PoseAny::Nd),
            }
            .map_err(|e| e.within(&at).to_string())
        };
        let pose_a = pose("pose_a")?;
        let pose_b = pose("pose_b")?;
        Ok(Pair {
            names: [name_a, name_b],
            a: sa,
            b: sb,
            pose_a,
            pose_b,
        })
    }

    /// Shape `key` of a pair: a name defined in the scene, or an inline shape object.
    fn lookup<'s>(
        &'s self,
        obj: &'s Object,
        key: &str,
        here: &str,
    ) -> Result<(Cow<'s, str>, Cow<'s, SceneShape>), String> {
        if let Some(inline @ Value::Object(_)) = obj.get(key) {
            let s =
                parse_shape(inline).map_err(|e| e.within(&format!("{here}.{key}")).to_string())?;
            return Ok((Cow::Borrowed("inline"), Cow::Owned(s)));
        }
        let name =
            fields::string_field(obj, key, "a pair").map_err(|e| e.within(here).to_string())?;
        match self.shapes.get(name) {
            Some(Ok(s)) => Ok((Cow::Borrowed(name), Cow::Borrowed(s))),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!(
                "{here}.{key}: unknown shape {}; defined shapes: {}",
                quote(name),
                self.shape_list()
            )),
        }
    }

    fn shape_list(&self) -> String {
        const MAX: usize = 20;
        if self.shapes.is_empty() {
            return "(none)".into();
        }
        let mut names: Vec<String> = self.shapes.keys().take(MAX).map(|n| quote(n)).collect();
        if self.shapes.len() > MAX {
            names.push(format!("… ({} in all)", self.shapes.len()));
        }
        names.join(", ")
    }
}

fn dim_name(d: usize) -> String {
    match d {
        2 => "2D".into(),
        3 => "3D".into(),
        n => format!("{n}-dimensional"),
    }
}

/// `shape "A": points[2][1]: value NaN is not finite`.
fn shape_error(name: &str, e: &InputError) -> String {
    let msg = e.to_string();
    let msg = msg.strip_prefix(": ").unwrap_or(&msg);
    format!("shape {}: {msg}", quote(name))
}

fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

/// Parses one shape object (recursively for `rounded` and `transformed`). A field the shape's
/// type does not take is an error (with a suggestion), never ignored.
pub fn parse_shape(v: &Value) -> Result<SceneShape, InputError> {
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
            let inner = parse_shape(fields::required(obj, "shape", what)?)
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
            }
        }
        "transformed" => {
            let inner = parse_shape(fields::required(obj, "shape", what)?)
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
    let Some(first) = rows.first() else {
        return Err(InputError::new("points", Problem::Empty));
    };
    match first.len() {
        2 => Ok(SceneShape::D2(Shape2::Points(Points::from_rows(&rows)?))),
        3 => Ok(SceneShape::D3(Shape3::Points(Points::from_rows(&rows)?))),
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

/// Reads a pose object; an unknown key is an error with a suggestion.
fn pose_object<'a>(
    v: Option<&'a Value>,
    allowed: &[&str],
    other_dim: (&str, &str),
) -> Result<Option<&'a Object>, InputError> {
    let Some(v) = v else { return Ok(None) };
    if v.is_null() {
        return Ok(None);
    }
    let obj = v.as_object().ok_or_else(|| {
        invalid(
            "",
            format!(
                "expected a pose object ({}), found {}",
                allowed.join(", "),
                describe(v)
            ),
        )
    })?;
    let (wrong_key, advice) = other_dim;
    if obj.contains_key(wrong_key) {
        return Err(invalid(wrong_key, advice.to_string()));
    }
    fields::check_keys(obj, allowed, "a pose")?;
    Ok(Some(obj))
}

fn fixed<const N: usize>(
    obj: &Object,
    key: &str,
    default: [f64; N],
) -> Result<[f64; N], InputError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => {
            let c = fields::numbers(v, key)?;
            <[f64; N]>::try_from(c.as_slice()).map_err(|_| {
                InputError::new(
                    key,
                    Problem::DimensionMismatch {
                        expected: N,
                        found: c.len(),
                    },
                )
            })
        }
    }
}

/// A 3D pose: `translation` [x, y, z] and `rotation` as a unit quaternion [x, y, z, w].
pub fn parse_pose3(v: Option<&Value>) -> Result<Pose3, InputError> {
    let Some(obj) = pose_object(
        v,
        &["translation", "rotation"],
        (
            "angle",
            "a 3D pose takes \"rotation\" as a unit quaternion [x, y, z, w], not \"angle\"",
        ),
    )?
    else {
        return Ok(Pose3::IDENTITY);
    };
    let t = fixed(obj, "translation", [0.0; 3])?;
    let q = fixed(obj, "rotation", [0.0, 0.0, 0.0, 1.0])?;
    Pose3::from_parts(t, q)
}

/// A 2D pose: `translation` [x, y] and `angle` in radians.
pub fn parse_pose2(v: Option<&Value>) -> Result<Pose2, InputError> {
    let Some(obj) = pose_object(
        v,
        &["translation", "angle"],
        (
            "rotation",
            "a 2D pose takes \"angle\" in radians, not a quaternion \"rotation\"",
        ),
    )?
    else {
        return Ok(Pose2::IDENTITY);
    };
    let t = fixed(obj, "translation", [0.0; 2])?;
    let angle = match obj.get("angle") {
        None | Some(Value::Null) => 0.0,
        Some(v) => fields::number(v, "angle")?,
    };
    Pose2::from_angle(t, angle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        match parse_shape(&v) {
            Ok(_) => String::new(),
            Err(e) => shape_error("S", &e),
        }
    }

    #[test]
    fn dimensions() {
        let d = |v: Value| parse_shape(&v).map(|s| s.dim()).ok();
        assert_eq!(d(json!({"type": "points", "points": [[0, 0]]})), Some(2));
        assert_eq!(d(json!({"type": "points", "points": [[0, 0, 0]]})), Some(3));
        assert_eq!(
            d(json!({"type": "points", "points": [[0, 0, 0, 1]]})),
            Some(4)
        );
        assert_eq!(d(json!({"type": "box", "half_extents": [1, 1]})), Some(2));
        assert_eq!(
            d(json!({"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 1})),
            Some(2)
        );
        assert_eq!(
            d(json!({"type": "triangle", "a": [0, 0], "b": [1, 0], "c": [0, 1]})),
            Some(2)
        );
        assert_eq!(
            d(json!({"type": "rounded", "radius": 0.1,
                      "shape": {"type": "transformed", "shape": {"type": "circle", "radius": 1},
                                "pose": {"translation": [1, 2], "angle": 1}}})),
            Some(2)
        );
    }

    #[test]
    fn messages() {
        assert_eq!(
            err(json!({"type": "points", "points": [[0, 0, 0], [1, 0, 0], [0, "NaN", 0]]})),
            "shape \"S\": points[2][1]: value NaN is not finite"
        );
        assert_eq!(
            err(json!({"type": "points", "points": [[0, 0, 0, 0], [1, 0, 0]]})),
            "shape \"S\": points[1]: expected 4 coordinates, found 3"
        );
        assert!(err(json!({"type": "spehre", "radius": 1})).contains("did you mean \"sphere\""));
        assert!(err(
            json!({"type": "rounded", "radius": 1, "shape": {"type": "box",
            "half_extents": [1, "-inf", 1]}})
        )
        .contains("shape.half_extents[1]: value -inf is not finite"));
        assert!(
            err(json!({"type": "polygon", "points": [[0, 0], [2, 0], [1, 0.2], [2, 2]]}))
                .contains("not convex at vertex")
        );
        assert!(err(json!({"type": "sphere"})).contains("radius: missing field"));
    }
}
