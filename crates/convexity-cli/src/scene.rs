//! The JSON scene format: shapes by name and the pairs to query (documented in the README, "The scene format").
//!
//! Shapes are parsed once, up front, each into a `Result`: a bad shape fails only the pairs
//! that use it. Pairs are resolved one at a time ([`Scene::resolve`]); the dimension of a pair
//! (2D, 3D or n-dimensional) comes from its shapes and decides how its poses are read.
//! Nothing here panics on any input; every error names the shape or pair, the field path and
//! the offending value.

use crate::fields::{self, describe, quote, Object};
use convexity::{nd::points::PointsN, InputError, Pose2, Pose3, Problem, Shape2, Shape3};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

mod mesh;
mod pose;
mod shape;

pub use mesh::{Files, Solid, SolidBody, AS_VALUES};
pub use pose::{parse_pose2, parse_pose3};
pub use shape::parse_shape;

/// Every shape `type` the format knows, with the fields it takes (besides `type` and the
/// free-form `"meta"`): the library's table, shared with the Python binding. The one table of
/// shape type names: messages and key checks read it; the names are the library's
/// `Shape2`/`Shape3::kind()` (pinned by a test in `scene/shape_tests.rs`), plus `mesh`, which
/// names a file rather than a shape kind (read as a hull it is a `points` shape; as parts or a
/// mesh, a [`Solid`]).
pub use convexity::shape::SCENE_FIELDS as SHAPE_FIELDS;

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
    /// A mesh file read as convex parts or as a closed mesh (3D, not convex).
    Solid(Arc<Solid>),
}

impl SceneShape {
    pub fn dim(&self) -> usize {
        match self {
            SceneShape::D2(_) => 2,
            SceneShape::D3(_) | SceneShape::Solid(_) => 3,
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
    /// Where the mesh files of inline shapes are read from.
    pub files: Files,
}

/// A whole-file problem (the scene is not an object, `shapes` or `pairs` is missing).
#[derive(Debug)]
pub struct SceneError(pub String);

/// Reads and parses a scene file (or standard input for `-`).
pub fn load(path: &str) -> Result<Scene, crate::Fatal> {
    let value = crate::input::read_json(path)?;
    Scene::from_value(value, Files::relative_to(path))
        .map_err(|e| crate::Fatal::input(format!("{}: {}", crate::input::display_name(path), e.0)))
}

/// Parses a `shapes` object: each shape into a `Result`, so that a bad shape fails only the
/// pairs that use it.
pub fn parse_shapes(
    shapes_o: &Object,
    files: &Files,
) -> BTreeMap<String, Result<SceneShape, String>> {
    shapes_o
        .iter()
        .map(|(name, sv)| {
            let parsed = parse_shape(sv, files).map_err(|e| shape_error(name, &e));
            (name.clone(), parsed)
        })
        .collect()
}

impl Scene {
    /// Reads the top level of a scene and validates every shape; mesh files are read
    /// through `files`.
    pub fn from_value(v: Value, files: Files) -> Result<Scene, SceneError> {
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
        let shapes = parse_shapes(shapes_o, &files);
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
        Ok(Scene {
            shapes,
            pairs,
            files,
        })
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
            let s = parse_shape(inline, &self.files)
                .map_err(|e| e.within(&format!("{here}.{key}")).to_string())?;
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
pub(crate) fn shape_error(name: &str, e: &InputError) -> String {
    let msg = e.to_string();
    let msg = msg.strip_prefix(": ").unwrap_or(&msg);
    format!("shape {}: {msg}", quote(name))
}

pub(crate) fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}
