//! `convexity query` on pairs with a mesh file read as parts or as a closed mesh (a
//! [`Solid`](crate::scene::Solid)): only `gjk` answers them, part pair by part pair (or triangle by triangle)
//! through `convexity::polytope::compound`; every other method is refused with the reason, never
//! answered on a different shape.
//!
//! * parts (or a convex shape) against parts: [`compound::intersects`] for the verdict (its
//!   certificate: a common point of one part pair, or every box-overlapping part pair with
//!   its separating axis), [`compound::distance`] for the distance and closest points, and
//!   [`compound::verify_intersection`] to check the certificate before printing.
//! * a closed mesh against a convex shape: [`mesh_convex`] (the library's
//!   `mesh_convex_intersects` and `mesh_convex_distance`).
//! * a closed mesh against parts or another mesh: the mesh's triangles as a compound (one
//!   part per triangle) through the same compound code, which answers for the surfaces; when
//!   the surfaces are apart, each element of the other side (a part, or a connected piece of
//!   the other mesh) lies wholly inside or outside the solid, and one probe point per element
//!   (a part's centre, a triangle's first vertex) decides which by exact location
//!   ([`TriMesh::locate`]). A probe inside makes the pair intersect, with that point as the
//!   common point; the distance is then 0, else the surfaces' distance.
//!
//! `--contact` adds no penetration depth for these pairs: its absence is stated in
//! `contact_status` (`"not available for mesh files"`), never left silent.

use super::{Line, Plan};
use crate::output::{Answer, Certificate, ElementAxis, SkipLine};
use crate::scene::{Pair, PoseAny, SceneShape, SolidBody};
use convexity::gjk::Options;
use convexity::polytope::compound::{self, Compound};
use convexity::primitives::mesh::{MeshLocation, TriMesh};
use convexity::query::Method;
use convexity::{DVec3, Pose3, Shape3, SupportMap, Verdict};
use std::borrow::Cow;

mod mesh_convex;
use mesh_convex::mesh_convex;

/// One side of a pair: a convex shape, convex parts, or a closed mesh, at its world pose.
enum Side<'a> {
    Convex(&'a Shape3),
    Parts(&'a Compound),
    /// The mesh and its triangles as a compound (part `k` is triangle `k`).
    Mesh(&'a TriMesh, &'a Compound),
}

/// The side of a pair and its world pose (the pair's pose composed with a `transformed`
/// wrapper's).
fn side<'a>(s: &'a SceneShape, pose: PoseAny) -> Option<(Side<'a>, Pose3)> {
    let PoseAny::D3(p) = pose else {
        return None;
    };
    match s {
        SceneShape::D3(c) => Some((Side::Convex(c), p)),
        SceneShape::Solid(sol) => {
            let world = p.compose(&sol.local);
            match &sol.body {
                SolidBody::Parts(c) => Some((Side::Parts(c), world)),
                SolidBody::Mesh(m, c) => Some((Side::Mesh(m, c), world)),
            }
        }
        _ => None,
    }
}

/// Why `m` cannot answer this pair (any method but gjk).
fn refusal(m: Method, pair: &Pair<'_>) -> String {
    let (name, s) = match (&*pair.a, &*pair.b) {
        (SceneShape::Solid(s), _) => (&pair.names[0], s),
        (_, SceneShape::Solid(s)) => (&pair.names[1], s),
        _ => return format!("{} cannot answer this pair", m.name()),
    };
    format!(
        "{} answers convex shapes; shape \"{name}\" is the mesh file \"{}\" read as \"{}\" (not \
         convex): only gjk answers it, part by part, or read the file with \"as\": \"hull\"",
        m.name(),
        s.file,
        s.reading()
    )
}

/// The lines of a pair with at least one [`Solid`](crate::scene::Solid) side.
pub(super) fn answer(plan: &Plan, i: usize, pair: &Pair<'_>) -> Vec<Line> {
    let mut lines = Vec::new();
    for &m in &plan.methods {
        if !(m.applies_to_dim(3) || plan.methods.len() == 1) {
            continue;
        }
        let skip = |skipped: String| {
            Line::Skipped(SkipLine {
                pair: i,
                algorithm: m.name(),
                skipped,
            })
        };
        if m != Method::Gjk {
            lines.push(skip(refusal(m, pair)));
            continue;
        }
        let (Some((a, pa)), Some((b, pb))) =
            (side(&pair.a, pair.pose_a), side(&pair.b, pair.pose_b))
        else {
            lines.push(Line::Error(format!(
                "pairs[{i}]: a mesh file pairs with 3D shapes only"
            )));
            continue;
        };
        let answer = match (&a, &b) {
            (Side::Mesh(m, _), Side::Convex(s)) => Ok(mesh_convex(i, m, &pa, s, &pb, false)),
            (Side::Convex(s), Side::Mesh(m, _)) => Ok(mesh_convex(i, m, &pb, s, &pa, true)),
            _ => compounds(i, &a, &pa, &b, &pb).map(|ans| contained(ans, &a, &pa, &b, &pb)),
        };
        lines.push(match answer {
            Ok(mut ans) => {
                if plan.contact && ans.intersecting == Some(true) {
                    ans.penetration_depth = Some(None);
                    ans.contact_status = Some("not available for mesh files");
                }
                Line::Answer(Box::new(ans))
            }
            Err(why) => skip(why),
        });
    }
    lines
}

fn coords(v: DVec3) -> Vec<f64> {
    v.to_array().to_vec()
}

/// A side as a compound: the parts, a convex shape as one part, a mesh's triangles as parts
/// (part `k` is triangle `k`).
fn as_compound<'a>(s: &'a Side<'a>) -> Result<Cow<'a, Compound>, String> {
    match s {
        Side::Parts(c) | Side::Mesh(_, c) => Ok(Cow::Borrowed(*c)),
        Side::Convex(c) => Compound::single((*c).clone())
            .map(Cow::Owned)
            .map_err(|e| e.to_string()),
    }
}

/// One probe point per element of a side (world frame) with the element it belongs to: a
/// convex shape's centre, each part's centre, each triangle's first vertex.
fn probes(s: &Side<'_>, pose: &Pose3) -> Vec<(Option<usize>, DVec3)> {
    match s {
        Side::Convex(c) => vec![(None, pose.transform_point(c.center()))],
        Side::Parts(c) => (0..c.parts().len())
            .filter_map(|k| {
                let p = c.part_pose(k, pose)?;
                Some((Some(k), p.transform_point(c.parts()[k].shape.center())))
            })
            .collect(),
        Side::Mesh(m, _) => (0..m.triangles().len())
            .filter_map(|t| Some((Some(t), pose.transform_point(m.triangle(t)?[0]))))
            .collect(),
    }
}

/// A pair with a mesh side whose surfaces were proved apart: intersecting after all when a
/// probe of the other side lies in the mesh's solid (see the module notes).
fn contained(mut ans: Answer, a: &Side<'_>, pa: &Pose3, b: &Side<'_>, pb: &Pose3) -> Answer {
    if ans.intersecting != Some(false) {
        return ans;
    }
    for (m, pm, other, po, m_is_a) in [(a, pa, b, pb, true), (b, pb, a, pa, false)] {
        let Side::Mesh(mesh, _) = m else {
            continue;
        };
        let inside = probes(other, po)
            .into_iter()
            .find(|(_, p)| mesh.locate(pm.inverse_transform_point(*p)) != MeshLocation::Outside);
        if let Some((k, p)) = inside {
            let (element_a, element_b) = if m_is_a { (None, k) } else { (k, None) };
            ans.intersecting = Some(true);
            ans.distance = Some(0.0);
            ans.point_a = Some(coords(p));
            ans.point_b = Some(coords(p));
            ans.normal = None;
            ans.certificate = Some(Certificate::ElementCommon {
                common_point: coords(p),
                element_a,
                element_b,
            });
            ans.tolerance = 0.0;
            // Exact location put the probe in the solid; the probe is a point of its element.
            ans.verified = true;
            ans.check = "verified".to_string();
            return ans;
        }
    }
    ans
}

/// An element index for a side (`None` for a convex shape, which is a single element).
fn element(s: &Side<'_>, k: usize) -> Option<usize> {
    (!matches!(s, Side::Convex(_))).then_some(k)
}

/// Two sides as compounds (parts, a convex shape, a mesh's triangles): the surfaces' answer.
fn compounds(
    i: usize,
    a: &Side<'_>,
    pa: &Pose3,
    b: &Side<'_>,
    pb: &Pose3,
) -> Result<Answer, String> {
    let (ca, cb) = (as_compound(a)?, as_compound(b)?);
    let opts = Options::default();
    let inter = compound::intersects(&ca, pa, &cb, pb, &opts);
    let dist = compound::distance(&ca, pa, &cb, pb, &opts);
    let check = compound::verify_intersection(&ca, pa, &cb, pb, &inter);
    let tolerance = inter.pairs.iter().map(|p| p.tolerance).fold(0.0, f64::max);
    let certificate = match inter.intersecting {
        Some(true) => inter.pairs.first().and_then(|p| match p.verdict {
            Verdict::Intersecting(c) => Some(Certificate::ElementCommon {
                common_point: coords(c.point),
                element_a: element(a, p.part_a),
                element_b: element(b, p.part_b),
            }),
            _ => None,
        }),
        Some(false) => Some(Certificate::ElementsSeparated {
            separated: inter
                .pairs
                .iter()
                .filter_map(|p| match p.verdict {
                    Verdict::Separated(s) => Some(ElementAxis {
                        element_a: element(a, p.part_a),
                        element_b: element(b, p.part_b),
                        separating_axis: coords(s.axis),
                        gap: s.gap,
                        tolerance: p.tolerance,
                    }),
                    _ => None,
                })
                .collect(),
        }),
        None => None,
    };
    let closest = dist.closest.as_ref().map(|c| &c.result);
    let (point_a, point_b, normal) = match (&certificate, closest) {
        (Some(Certificate::ElementCommon { common_point, .. }), _) => {
            (Some(common_point.clone()), Some(common_point.clone()), None)
        }
        (_, Some(r)) => (
            Some(coords(r.point_a)),
            Some(coords(r.point_b)),
            Some(coords(r.normal)),
        ),
        _ => (None, None, None),
    };
    let intersecting = if check.is_ok() {
        inter.intersecting
    } else {
        None
    };
    Ok(Answer {
        pair: i,
        algorithm: Method::Gjk.name(),
        intersecting,
        distance: match intersecting {
            Some(true) => Some(0.0),
            _ => dist.distance.is_finite().then_some(dist.distance),
        },
        penetration_depth: None,
        point_a,
        point_b,
        normal,
        status: dist.status.as_str(),
        iterations: inter.iterations.saturating_add(dist.iterations),
        contact_status: None,
        certificate,
        tolerance,
        verified: check.is_ok(),
        check: match check {
            Ok(()) => "verified".to_string(),
            Err(compound::CompoundCheckError::NoCertificate) => "no certificate".to_string(),
            Err(e) => format!("rejected: {e:?}"),
        },
    })
}
