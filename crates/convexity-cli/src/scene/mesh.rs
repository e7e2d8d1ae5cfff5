//! The `mesh` shape of the scene format: a mesh file (OBJ, STL or PLY, read by
//! `convexity::primitives::io`) taken as a convex hull, a closed triangle mesh or a set of
//! convex parts.
//!
//! `{"type": "mesh", "file": "part.obj", "as": "hull" | "mesh" | "parts"}`:
//! * `hull`: every vertex of the file; the shape is their convex hull, exactly the `points`
//!   shape with those points, so every method answers it. With `"index": true`, as for a
//!   `points` shape, the hull is built once and indexed (`Points::with_hull_index`); `index`
//!   with another reading is an error.
//! * `parts`: one convex part (the hull of its vertices) per OBJ object/group, or per
//!   connected component when the file has no groups: a [`Compound`].
//! * `mesh`: a closed, consistently oriented triangle mesh (a solid, possibly non-convex): a
//!   [`TriMesh`].
//!
//! `as` is required: the three readings answer different questions, so none is picked
//! silently. A relative `file` is resolved against the scene file's directory ([`Files`]), or
//! the current directory when the scene comes from standard input. Every file problem is an
//! error naming the file and, when it has one, the line or face.

use super::{invalid, SceneShape};
use crate::fields::{self, describe, quote, Object};
use convexity::polytope::compound::Compound;
use convexity::primitives::io::{self, LoadAs, Loaded};
use convexity::primitives::mesh::TriMesh;
use convexity::{DVec3, InputError, Points, Pose3, Shape3};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The values of `as`, with what each means (for messages).
pub const AS_VALUES: &[(&str, &str)] = &[
    (
        "hull",
        "the convex hull of the file's vertices; every method answers it",
    ),
    (
        "parts",
        "one convex part per OBJ object/group (else per connected component); answered by gjk",
    ),
    (
        "mesh",
        "a closed triangle mesh (a solid, may be non-convex); answered by gjk",
    ),
];

/// Where mesh files are read from: relative paths are joined to `base`. `None` when mesh
/// files may not be read at all (with the reason, for the message).
#[derive(Clone, Debug)]
pub struct Files {
    base: Result<PathBuf, &'static str>,
}

impl Files {
    /// Files named relative to the directory of the input file `path` (the current directory
    /// for `-`, standard input).
    pub fn relative_to(path: &str) -> Files {
        let base = if path == "-" {
            PathBuf::new()
        } else {
            Path::new(path)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        };
        Files { base: Ok(base) }
    }

    /// Files named relative to the current directory.
    pub fn current_dir() -> Files {
        Files {
            base: Ok(PathBuf::new()),
        }
    }

    /// No mesh files: a `mesh` shape is an error saying `why`.
    pub fn refused(why: &'static str) -> Files {
        Files { base: Err(why) }
    }

    /// The path of `file` (as written in the scene) to open.
    fn resolve(&self, file: &str) -> Result<PathBuf, InputError> {
        let base = self
            .base
            .as_ref()
            .map_err(|why| invalid("file", why.to_string()))?;
        Ok(if Path::new(file).is_absolute() {
            PathBuf::from(file)
        } else {
            base.join(file)
        })
    }
}

/// A shape read from a mesh file as parts or as a closed mesh, at a local pose (set by a
/// `transformed` wrapper; the identity otherwise).
#[derive(Clone, Debug)]
pub struct Solid {
    /// The `file` field as written, for messages.
    pub file: String,
    pub body: SolidBody,
    pub local: Pose3,
}

/// The two non-convex readings of a mesh file.
#[derive(Clone, Debug)]
pub enum SolidBody {
    /// Convex parts (part `k` is the file's `k`-th object/group or component).
    Parts(Compound),
    /// A closed triangle mesh, and its triangles as a compound (part `k` is triangle `k`),
    /// built once for the pairs against parts or other meshes.
    Mesh(TriMesh, Compound),
}

impl Solid {
    /// `"parts"` or `"mesh"`: the `as` value the shape was read with.
    pub fn reading(&self) -> &'static str {
        match self.body {
            SolidBody::Parts(_) => "parts",
            SolidBody::Mesh(..) => "mesh",
        }
    }
}

/// Parses a `mesh` shape object (its keys already checked) and reads its file.
pub fn parse_mesh(obj: &Object, what: &str, files: &Files) -> Result<SceneShape, InputError> {
    let file = fields::string_field(obj, "file", what)?;
    if file.is_empty() {
        return Err(invalid("file", "the file name is empty".into()));
    }
    let how = read_as(obj)?;
    // `index` (support from the hull's cell map, `Points::with_hull_index`) is a property of the
    // one hull `as: "hull"` makes; the other readings build their own parts.
    let index = fields::optional_bool(obj, "index")?;
    if index && how != LoadAs::Hull {
        return Err(invalid(
            "index",
            "applies to \"as\": \"hull\" only (the parts of \"parts\" and \"mesh\" are \
             built by the reading itself)"
                .into(),
        ));
    }
    let path = files.resolve(file)?;
    let loaded = io::load(&path, how).map_err(|e| invalid("file", e.to_string()))?;
    match loaded {
        Loaded::Hull(points) => {
            let p = Points::new(&points)
                .map_err(|e| invalid("file", format!("{}: {e}", path_str(&path))))?;
            let p = if index { p.with_hull_index() } else { p };
            Ok(SceneShape::D3(Shape3::Points(p)))
        }
        Loaded::Parts(parts) => {
            let compound = Compound::from_point_sets(parts.iter().map(|p| p.points.as_slice()))
                .map_err(|e| invalid("file", format!("{}: {e}", path_str(&path))))?;
            Ok(solid(file, SolidBody::Parts(compound)))
        }
        Loaded::Mesh(mesh) => {
            let tris: Vec<[DVec3; 3]> = (0..mesh.triangles().len())
                .filter_map(|t| mesh.triangle(t))
                .collect();
            let compound = Compound::from_point_sets(tris.iter().map(|t| t.as_slice()))
                .map_err(|e| invalid("file", format!("{}: {e}", path_str(&path))))?;
            Ok(solid(file, SolidBody::Mesh(mesh, compound)))
        }
    }
}

fn solid(file: &str, body: SolidBody) -> SceneShape {
    SceneShape::Solid(Arc::new(Solid {
        file: file.to_string(),
        body,
        local: Pose3::IDENTITY,
    }))
}

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

/// The `as` field: required, one of [`AS_VALUES`], with a suggestion when misspelt.
fn read_as(obj: &Object) -> Result<LoadAs, InputError> {
    let names: Vec<&str> = AS_VALUES.iter().map(|(n, _)| *n).collect();
    let choices = || {
        AS_VALUES
            .iter()
            .map(|(n, m)| format!("\"{n}\" ({m})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(v) = obj.get("as") else {
        return Err(invalid(
            "as",
            format!(
                "missing field: say how to read the file (no default, the readings answer \
                 different questions): {}",
                choices()
            ),
        ));
    };
    let s = v.as_str().ok_or_else(|| {
        invalid(
            "as",
            format!(
                "expected a string, found {}; valid values: {}",
                describe(v),
                choices()
            ),
        )
    })?;
    match s {
        "hull" => Ok(LoadAs::Hull),
        "parts" => Ok(LoadAs::Parts),
        "mesh" => Ok(LoadAs::Mesh),
        other => {
            let hint = fields::suggestion(other, &names)
                .map(|s| format!(" (did you mean \"{s}\"?)"))
                .unwrap_or_default();
            Err(invalid(
                "as",
                format!(
                    "unknown value {}{hint}; valid values: {}",
                    quote(other),
                    choices()
                ),
            ))
        }
    }
}
