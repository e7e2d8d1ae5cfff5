//! Independent re-checks of the certificates `convexity query` prints for mesh files read as
//! parts or as a closed mesh. The files are read again here with `convexity::primitives::io`;
//! each element pair's certificate is checked with `convexity::verify`, and the claim that
//! the pairs not listed are apart is checked by running GJK on every one of them (not by the
//! bounding boxes the CLI uses), and a point inside a mesh by exact location.

use super::vec_of;
use convexity::gjk::{self, Options};
use convexity::primitives::io::{self, LoadAs, Loaded};
use convexity::primitives::mesh::{MeshLocation, TriMesh};
use convexity::{CommonPoint, DVec3, Points, Pose3, SeparatingAxis, Shape3, Triangle, Verdict};
use serde_json::Value;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

thread_local! {
    /// The directory relative mesh paths are read from (the scene file's directory).
    static BASE: RefCell<PathBuf> = RefCell::new(PathBuf::new());
}

/// Sets the directory relative mesh file paths are resolved against (for this thread).
pub fn set_base(dir: &Path) {
    BASE.with(|b| *b.borrow_mut() = dir.to_path_buf());
}

/// One side of a pair with a mesh file: a convex shape, parts, or a closed mesh.
pub enum Side {
    Convex(Shape3),
    Parts(Vec<Shape3>),
    Mesh(TriMesh),
}

/// A `mesh` shape object read again: `Ok(hull)` for `as: hull`, `Err(side)` for the others.
pub fn read(v: &Value) -> Option<Result<Shape3, Side>> {
    let file = v["file"].as_str()?;
    let path = BASE.with(|b| b.borrow().join(file));
    let how = match v["as"].as_str()? {
        "hull" => LoadAs::Hull,
        "parts" => LoadAs::Parts,
        "mesh" => LoadAs::Mesh,
        _ => return None,
    };
    Some(match io::load(&path, how).ok()? {
        Loaded::Hull(p) => Ok(Shape3::Points(Points::new(&p).ok()?)),
        Loaded::Parts(parts) => Err(Side::Parts(
            parts
                .iter()
                .map(|p| Points::new(&p.points).map(Shape3::Points))
                .collect::<Result<_, _>>()
                .ok()?,
        )),
        Loaded::Mesh(m) => Err(Side::Mesh(m)),
    })
}

impl Side {
    /// The convex elements: the shape itself, the parts, or the triangles.
    pub fn elements(&self) -> Vec<Shape3> {
        match self {
            Side::Convex(s) => vec![s.clone()],
            Side::Parts(p) => p.clone(),
            Side::Mesh(m) => (0..m.triangles().len())
                .filter_map(|t| m.triangle(t))
                .filter_map(|[a, b, c]| Triangle::new(a, b, c).ok().map(Shape3::Triangle))
                .collect(),
        }
    }

    fn element(&self, k: &Value) -> Shape3 {
        let k = k.as_u64().map_or(0, |k| k as usize);
        self.elements()
            .into_iter()
            .nth(k)
            .unwrap_or_else(|| panic!("no element {k}"))
    }
}

fn d3(c: &[f64]) -> DVec3 {
    DVec3::new(c[0], c[1], c[2])
}

/// Re-checks a line's certificate on a pair with a mesh file side; `None` without one.
pub fn recheck(
    a: &Side,
    pa: &Pose3,
    b: &Side,
    pb: &Pose3,
    line: &Value,
) -> Option<Result<(), String>> {
    let c = &line["certificate"];
    let tol = line["tolerance"].as_f64().unwrap_or(0.0);
    if let Some(p) = c.get("common_point") {
        let p = d3(&vec_of(p));
        let holds = |s: &Side, pose: &Pose3, k: &Value| -> Result<(), String> {
            if let (Side::Mesh(m), true) = (s, k.is_null()) {
                let at = m.locate(pose.inverse_transform_point(p));
                return (at != MeshLocation::Outside)
                    .then_some(())
                    .ok_or_else(|| format!("{p} is outside the mesh"));
            }
            let e = s.element(k);
            let v = Verdict::Intersecting(CommonPoint { point: p });
            convexity::verify(&e, pose, &e, pose, &v, tol).map_err(|e| format!("{e:?}"))
        };
        return Some(holds(a, pa, &c["element_a"]).and_then(|()| holds(b, pb, &c["element_b"])));
    }
    let listed = c.get("separated")?.as_array()?;
    let (ea, eb) = (a.elements(), b.elements());
    let idx = |k: &Value| k.as_u64().map_or(0, |k| k as usize);
    let mut covered = Vec::new();
    for e in listed {
        let (i, j) = (idx(&e["element_a"]), idx(&e["element_b"]));
        let v = Verdict::Separated(SeparatingAxis {
            axis: d3(&vec_of(&e["separating_axis"])),
            gap: e["gap"].as_f64().unwrap_or(f64::NAN),
        });
        let t = e["tolerance"].as_f64().unwrap_or(0.0);
        if let Err(err) = convexity::verify(&ea[i], pa, &eb[j], pb, &v, t) {
            return Some(Err(format!("element pair ({i}, {j}): {err:?}")));
        }
        covered.push((i, j));
    }
    for (i, x) in ea.iter().enumerate() {
        for (j, y) in eb.iter().enumerate() {
            if covered.contains(&(i, j)) {
                continue;
            }
            let d = gjk::distance(x, pa, y, pb, &Options::default(), None);
            if d.distance <= 0.0 {
                return Some(Err(format!(
                    "element pair ({i}, {j}) not listed but touching"
                )));
            }
        }
    }
    if inside(a, pa, b, pb) {
        return Some(Err(
            "a piece of one side lies inside the other's mesh".into()
        ));
    }
    Some(Ok(()))
}

/// Whether, for a mesh side, a piece of the other side lies inside its solid, judged by exact
/// location of a point of each piece: a convex shape's centre, each part's centre, every
/// vertex of a mesh. (When the surfaces are apart each piece is wholly inside or outside.)
pub fn inside(a: &Side, pa: &Pose3, b: &Side, pb: &Pose3) -> bool {
    let center = |s: &Shape3, p: &Pose3| p.transform_point(convexity::SupportMap::center(s));
    [(a, pa, b, pb), (b, pb, a, pa)]
        .into_iter()
        .any(|(m, pm, o, po)| {
            let Side::Mesh(m) = m else {
                return false;
            };
            let points: Vec<DVec3> = match o {
                Side::Convex(s) => vec![center(s, po)],
                Side::Parts(parts) => parts.iter().map(|s| center(s, po)).collect(),
                Side::Mesh(x) => x
                    .vertices()
                    .iter()
                    .map(|v| po.transform_point(*v))
                    .collect(),
            };
            points
                .iter()
                .any(|p| m.locate(pm.inverse_transform_point(*p)) != MeshLocation::Outside)
        })
}
