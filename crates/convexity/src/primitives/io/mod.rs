//! Mesh files: Wavefront OBJ (`tobj`), STL binary and ASCII (`stl_io`) and PLY ASCII and binary
//! (`ply-rs`), read as a vertex set (for hulls), a closed [`TriMesh`], or a set of convex parts
//! (one per OBJ object/group, or one per connected component).
//!
//! The one entry point is [`load`]: `load(path, LoadAs::Hull | Mesh | Parts | Components)`.
//! [`read`] and [`read_bytes`] give the welded [`MeshData`] for anything else. Coordinates are
//! taken as they are in the file: units and transforms stay the caller's.
//!
//! * Parsing is the crates' job; a light scan of our own runs first (OBJ: every `v` and `f`
//!   line; STL: the facet lines; PLY: the header) so that every error names the file and the
//!   line or face, and so that inputs the parsers would choke on (element counts past the file
//!   size, numbers overflowing the counter type) are refused before they reach them.
//! * Vertices are welded by exact coordinates (STL stores each triangle's corners separately,
//!   OBJ may repeat a position under several texture indices). Polygons are fanned into
//!   triangles (exact for convex faces, which is what exporters write).
//! * Checks: every coordinate finite and within [`MAX_MAGNITUDE`]; face indices in range; as a
//!   solid ([`LoadAs::Mesh`]) every triangle has three distinct vertices and the mesh is closed
//!   and consistently oriented (each directed edge once, its reverse once). A hull or a part
//!   only needs points, so open or non-manifold meshes are fine there.
//!
//! Complexity: O(n log n) in the file size (welding sorts; the rest is linear).
//! Failure modes: every problem is an [`IoError`] naming the file, the line or face, and what
//! is wrong; nothing panics on file contents (fuzzed: `fuzz/fuzz_targets/mesh_*.rs`).

mod obj;
mod ply;
mod stl;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use glam::DVec3;

use crate::error::MAX_MAGNITUDE;
use crate::primitives::mesh::TriMesh;

/// The file formats read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Wavefront OBJ (text).
    Obj,
    /// STL, ASCII or binary.
    Stl,
    /// PLY, ASCII or binary.
    Ply,
}

impl Format {
    /// The format named by a file's extension (case-insensitive `obj`, `stl`, `ply`).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(Format::Obj),
            "stl" => Some(Format::Stl),
            "ply" => Some(Format::Ply),
            _ => None,
        }
    }
}

/// What to make of a mesh file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadAs {
    /// Every vertex of the file, for a convex hull (open or non-manifold meshes are fine).
    Hull,
    /// A closed, consistently oriented triangle mesh (a solid; may be non-convex).
    Mesh,
    /// Convex parts: one per OBJ object/group when the file has several, otherwise one per
    /// connected component.
    Parts,
    /// Convex parts: one per connected component (triangles sharing a vertex).
    Components,
}

/// A convex part read from a file: its name and its vertices (its hull is the part).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The OBJ object/group name, or `component K`.
    pub name: String,
    /// The part's vertices (world frame of the file); the part is their convex hull.
    pub points: Vec<DVec3>,
}

/// What [`load`] returns.
#[derive(Clone, Debug)]
pub enum Loaded {
    /// Every vertex of the file ([`LoadAs::Hull`]).
    Hull(Vec<DVec3>),
    /// A closed, oriented triangle mesh ([`LoadAs::Mesh`]).
    Mesh(TriMesh),
    /// Convex parts ([`LoadAs::Parts`], [`LoadAs::Components`]).
    Parts(Vec<Part>),
}

/// Where in a file a problem is: a 1-based line (text formats) and/or a 0-based face index
/// (faces in file order; for STL a facet, for PLY an element of `face`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// 1-based line number (text formats only).
    pub line: Option<usize>,
    /// 0-based face index in file order.
    pub face: Option<usize>,
}

impl Location {
    /// A location given by a 1-based line only.
    pub fn line(line: usize) -> Location {
        Location {
            line: Some(line),
            face: None,
        }
    }

    /// A location given by a 0-based face index only.
    pub fn face(face: usize) -> Location {
        Location {
            line: None,
            face: Some(face),
        }
    }
}

/// The kind of a mesh-file problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IoErrorKind {
    /// The file could not be opened or read.
    NotFound,
    /// The extension is none of obj, stl, ply.
    UnknownFormat,
    /// The text or bytes do not follow the format.
    Parse,
    /// A coordinate is NaN, infinite or beyond [`MAX_MAGNITUDE`].
    BadValue,
    /// A face refers to a vertex that does not exist.
    BadIndex,
    /// The file has no vertices (or, as a mesh, no faces).
    Empty,
    /// As a solid: a triangle with a repeated vertex (after welding).
    Degenerate,
    /// As a solid: an edge without its opposite (the mesh has a hole).
    Open,
    /// As a solid: an edge used twice in the same direction (more than two faces at an edge,
    /// or inconsistent orientation).
    NonManifold,
}

/// A mesh-file problem: the file, where in it, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct IoError {
    /// The file's path as given.
    pub file: String,
    /// What kind of problem (for programs that react to it).
    pub kind: IoErrorKind,
    /// Where in the file, when the problem has a place.
    pub at: Option<Location>,
    /// The problem in words, for a person.
    pub problem: String,
}

impl IoError {
    pub(crate) fn new(
        file: &str,
        kind: IoErrorKind,
        at: Option<Location>,
        problem: impl Into<String>,
    ) -> IoError {
        IoError {
            file: file.to_string(),
            kind,
            at,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        match self.at {
            Some(Location {
                line: Some(l),
                face: Some(k),
            }) => write!(f, ": line {l} (face {k})")?,
            Some(Location {
                line: Some(l),
                face: None,
            }) => write!(f, ": line {l}")?,
            Some(Location {
                line: None,
                face: Some(k),
            }) => write!(f, ": face {k}")?,
            _ => {}
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for IoError {}

/// An OBJ object or group: a name and a range of [`MeshData::triangles`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The OBJ `o`/`g` name.
    pub name: String,
    /// Indices into [`MeshData::triangles`] of the group's triangles.
    pub triangles: Vec<usize>,
}

/// A mesh file's contents, welded: vertices, triangles (polygons fanned), groups, and where
/// each triangle came from.
#[derive(Clone, Debug)]
pub struct MeshData {
    /// The file's path as given.
    pub file: String,
    /// The welded vertices.
    pub vertices: Vec<DVec3>,
    /// Triangles as vertex-index triples (polygons fanned), in file order.
    pub triangles: Vec<[usize; 3]>,
    /// OBJ objects/groups (empty for STL and PLY).
    pub groups: Vec<Group>,
    /// Per triangle, the face (and line) it came from.
    pub sources: Vec<Location>,
}

/// Raw (unwelded) contents a reader hands over: positions with the line or element they came
/// from, polygons (vertex indices) with their location, groups as ranges of polygons.
pub(crate) struct Raw {
    pub positions: Vec<DVec3>,
    pub position_at: Vec<Location>,
    pub faces: Vec<Vec<usize>>,
    pub face_at: Vec<Location>,
    /// (name, face indices)
    pub groups: Vec<(String, Vec<usize>)>,
}

/// Reads and welds a mesh file (format from the extension).
pub fn read(path: &Path) -> Result<MeshData, IoError> {
    let name = path.display().to_string();
    let format = Format::from_path(path).ok_or_else(|| {
        IoError::new(
            &name,
            IoErrorKind::UnknownFormat,
            None,
            "unknown mesh format: the extension must be obj, stl or ply",
        )
    })?;
    let bytes = std::fs::read(path).map_err(|e| {
        IoError::new(
            &name,
            IoErrorKind::NotFound,
            None,
            format!("cannot read: {e}"),
        )
    })?;
    read_bytes(&bytes, format, &name)
}

/// Reads and welds a mesh held in memory; `name` is used in error messages.
pub fn read_bytes(bytes: &[u8], format: Format, name: &str) -> Result<MeshData, IoError> {
    let raw = match format {
        Format::Obj => obj::read(bytes, name)?,
        Format::Stl => stl::read(bytes, name)?,
        Format::Ply => ply::read(bytes, name)?,
    };
    weld(raw, name)
}

/// Loads a mesh file as a vertex set, a closed mesh or convex parts (see [`LoadAs`]).
pub fn load(path: &Path, load_as: LoadAs) -> Result<Loaded, IoError> {
    read(path)?.into_loaded(load_as)
}

fn check_position(name: &str, p: DVec3, at: Location) -> Result<(), IoError> {
    for c in p.to_array() {
        if !c.is_finite() {
            return Err(IoError::new(
                name,
                IoErrorKind::BadValue,
                Some(at),
                format!("coordinate {c} is not finite"),
            ));
        }
        if c.abs() > MAX_MAGNITUDE {
            return Err(IoError::new(
                name,
                IoErrorKind::BadValue,
                Some(at),
                format!("coordinate {c:e} exceeds the supported magnitude {MAX_MAGNITUDE:e}"),
            ));
        }
    }
    Ok(())
}

/// Validates positions, welds equal ones, fans polygons into triangles.
fn weld(raw: Raw, name: &str) -> Result<MeshData, IoError> {
    if raw.positions.is_empty() {
        return Err(IoError::new(
            name,
            IoErrorKind::Empty,
            None,
            "the file has no vertices",
        ));
    }
    for (i, p) in raw.positions.iter().enumerate() {
        let at = raw.position_at.get(i).copied().unwrap_or_default();
        check_position(name, *p, at)?;
    }
    // Exact weld: -0.0 and 0.0 are the same point (bits differ), so key on value + 0.0.
    let key = |p: DVec3| (p + DVec3::ZERO).to_array().map(f64::to_bits);
    let mut map: HashMap<[u64; 3], usize> = HashMap::with_capacity(raw.positions.len());
    let mut vertices = Vec::new();
    let mut remap = Vec::with_capacity(raw.positions.len());
    for p in &raw.positions {
        let id = *map.entry(key(*p)).or_insert_with(|| {
            vertices.push(*p);
            vertices.len() - 1
        });
        remap.push(id);
    }
    let mut triangles = Vec::new();
    let mut sources = Vec::new();
    let mut first_triangle = Vec::with_capacity(raw.faces.len() + 1);
    for (f, face) in raw.faces.iter().enumerate() {
        first_triangle.push(triangles.len());
        let at = raw.face_at.get(f).copied().unwrap_or_default();
        let mut ids = Vec::with_capacity(face.len());
        for &i in face {
            let Some(&w) = remap.get(i) else {
                return Err(IoError::new(
                    name,
                    IoErrorKind::BadIndex,
                    Some(at),
                    format!(
                        "vertex index {i} out of range (there are {} vertices)",
                        raw.positions.len()
                    ),
                ));
            };
            ids.push(w);
        }
        for k in 1..ids.len().saturating_sub(1) {
            triangles.push([ids[0], ids[k], ids[k + 1]]);
            sources.push(at);
        }
    }
    first_triangle.push(triangles.len());
    let groups = raw
        .groups
        .into_iter()
        .map(|(gname, faces)| Group {
            name: gname,
            triangles: faces
                .iter()
                .filter_map(|&f| Some(*first_triangle.get(f)?..*first_triangle.get(f + 1)?))
                .flatten()
                .collect(),
        })
        .collect();
    Ok(MeshData {
        file: name.to_string(),
        vertices,
        triangles,
        groups,
        sources,
    })
}

impl MeshData {
    fn at(&self, t: usize) -> Option<Location> {
        self.sources.get(t).copied()
    }

    /// Checks that the triangles bound a solid: non-empty, three distinct vertices each,
    /// closed and consistently oriented (every directed edge once, its reverse once).
    pub fn check_solid(&self) -> Result<(), IoError> {
        let name = &self.file;
        if self.triangles.is_empty() {
            return Err(IoError::new(
                name,
                IoErrorKind::Empty,
                None,
                "the file has no faces: it cannot be read as a solid mesh",
            ));
        }
        let mut edges: HashMap<(usize, usize), usize> =
            HashMap::with_capacity(self.triangles.len() * 3);
        for (t, tri) in self.triangles.iter().enumerate() {
            if tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] {
                return Err(IoError::new(
                    name,
                    IoErrorKind::Degenerate,
                    self.at(t),
                    format!(
                        "triangle with a repeated vertex (vertices {:?} after welding equal \
                         positions): a solid's faces must have three distinct corners",
                        tri
                    ),
                ));
            }
            for k in 0..3 {
                let e = (tri[k], tri[(k + 1) % 3]);
                if let Some(&other) = edges.get(&e) {
                    let other_at = self.at(other).map(describe).unwrap_or_default();
                    return Err(IoError::new(
                        name,
                        IoErrorKind::NonManifold,
                        self.at(t),
                        format!(
                            "edge {:?} → {:?} is used in the same direction by {other_at}: the \
                             mesh is not a consistently oriented 2-manifold",
                            self.vertices[e.0].to_array(),
                            self.vertices[e.1].to_array()
                        ),
                    ));
                }
                edges.insert(e, t);
            }
        }
        // Report the first open edge in face order (deterministic).
        for (t, tri) in self.triangles.iter().enumerate() {
            for k in 0..3 {
                let (i, j) = (tri[k], tri[(k + 1) % 3]);
                if !edges.contains_key(&(j, i)) {
                    return Err(IoError::new(
                        name,
                        IoErrorKind::Open,
                        self.at(t),
                        format!(
                            "edge {:?} → {:?} has no opposite face: the mesh is open (a hole) \
                             and cannot be used as a solid",
                            self.vertices[i].to_array(),
                            self.vertices[j].to_array()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The closed mesh ([`check_solid`](Self::check_solid) first, then [`TriMesh::new`]).
    pub fn to_trimesh(&self) -> Result<TriMesh, IoError> {
        self.check_solid()?;
        TriMesh::new(self.vertices.clone(), self.triangles.clone())
            .map_err(|e| IoError::new(&self.file, IoErrorKind::NonManifold, None, e.to_string()))
    }

    /// One part per connected component of the triangles (sharing a vertex); vertices used by
    /// no triangle form one more part. Parts are ordered by their first triangle.
    pub fn components(&self) -> Vec<Part> {
        let n = self.vertices.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut used = vec![false; n];
        for tri in &self.triangles {
            for &v in tri {
                used[v] = true;
            }
            let r0 = find(&mut parent, tri[0]);
            for &v in &tri[1..] {
                let r = find(&mut parent, v);
                parent[r] = r0;
            }
        }
        let mut part_of_root: HashMap<usize, usize> = HashMap::new();
        let mut parts: Vec<Part> = Vec::new();
        let mut loose = Vec::new();
        // Walk triangles in order so that parts come in file order.
        let mut seen = vec![false; n];
        for tri in &self.triangles {
            for &v in tri {
                if seen[v] {
                    continue;
                }
                seen[v] = true;
                let r = find(&mut parent, v);
                let k = *part_of_root.entry(r).or_insert_with(|| {
                    parts.push(Part {
                        name: format!("component {}", parts.len()),
                        points: Vec::new(),
                    });
                    parts.len() - 1
                });
                parts[k].points.push(self.vertices[v]);
            }
        }
        for (v, &u) in used.iter().enumerate() {
            if !u {
                loose.push(self.vertices[v]);
            }
        }
        if !loose.is_empty() {
            parts.push(Part {
                name: format!("component {} (vertices in no face)", parts.len()),
                points: loose,
            });
        }
        parts
    }

    /// One part per OBJ object/group (groups of the same name merged), or
    /// [`components`](Self::components) when the file has fewer than two groups with faces.
    pub fn parts(&self) -> Vec<Part> {
        let mut order: Vec<String> = Vec::new();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for g in &self.groups {
            if g.triangles.is_empty() {
                continue;
            }
            if !by_name.contains_key(g.name.as_str()) {
                order.push(g.name.clone());
            }
            by_name
                .entry(g.name.as_str())
                .or_default()
                .extend(g.triangles.iter().copied());
        }
        if order.len() < 2 {
            return self.components();
        }
        order
            .iter()
            .map(|gname| {
                let mut seen = vec![false; self.vertices.len()];
                let mut points = Vec::new();
                for &t in by_name
                    .get(gname.as_str())
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                {
                    for &v in self.triangles.get(t).map(|t| &t[..]).unwrap_or(&[]) {
                        if !seen[v] {
                            seen[v] = true;
                            points.push(self.vertices[v]);
                        }
                    }
                }
                Part {
                    name: gname.clone(),
                    points,
                }
            })
            .collect()
    }

    /// What [`load`] makes of it.
    pub fn into_loaded(self, load_as: LoadAs) -> Result<Loaded, IoError> {
        Ok(match load_as {
            LoadAs::Hull => Loaded::Hull(self.vertices),
            LoadAs::Mesh => Loaded::Mesh(self.to_trimesh()?),
            LoadAs::Parts => Loaded::Parts(self.parts()),
            LoadAs::Components => Loaded::Parts(self.components()),
        })
    }
}

fn describe(l: Location) -> String {
    match (l.line, l.face) {
        (Some(line), Some(f)) => format!("face {f} (line {line})"),
        (Some(line), None) => format!("the face on line {line}"),
        (None, Some(f)) => format!("face {f}"),
        (None, None) => "another face".to_string(),
    }
}
