//! `convexity query` on pairs with a mesh file read as parts or as a closed mesh (a
//! [`Solid`]): only `gjk` answers them, part pair by part pair (or triangle by triangle)
//! through `convexity::gjk::compound`; every other method is refused with the reason, never
//! answered on a different shape.
//!
//! * parts (or a convex shape) against parts: [`compound::intersects`] for the verdict (its
//!   certificate: a common point of one part pair, or every box-overlapping part pair with
//!   its separating axis), [`compound::distance`] for the distance and closest points, and
//!   [`compound::verify_intersection`] to check the certificate before printing.
//! * a closed mesh against a convex shape: [`compound::mesh_convex_intersects`] and
//!   [`compound::mesh_convex_distance`]; the certificate is a common point (on a triangle, or
//!   the shape's centre inside the solid) or every candidate triangle's separating axis,
//!   checked here by [`check_mesh`].
//! * a mesh against parts or another mesh: refused (not answered by the CLI yet).
//!
//! `--contact` adds no penetration depth for these pairs: its absence is stated in
//! `contact_status` (`"not available for mesh files"`), never left silent.

use super::{Line, Plan};
use crate::output::{Answer, Certificate, ElementAxis, SkipLine};
use crate::scene::{Pair, PoseAny, SceneShape, SolidBody};
use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::compound::{self, support_box, Compound};
use convexity::gjk::Options;
use convexity::primitives::mesh::{MeshLocation, TriMesh};
use convexity::query::Method;
use convexity::{verify, DVec3, Pose3, Shape3, SupportMap, Triangle, Verdict};
use std::borrow::Cow;

/// One side of a pair: a convex shape, convex parts, or a closed mesh, at its world pose.
enum Side<'a> {
    Convex(&'a Shape3),
    Parts(&'a Compound),
    Mesh(&'a TriMesh),
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
                SolidBody::Parts(c, _) => Some((Side::Parts(c), world)),
                SolidBody::Mesh(m) => Some((Side::Mesh(m), world)),
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
            (Side::Mesh(m), Side::Convex(s)) => Ok(mesh_convex(i, m, &pa, s, &pb, false)),
            (Side::Convex(s), Side::Mesh(m)) => Ok(mesh_convex(i, m, &pb, s, &pa, true)),
            (Side::Mesh(_), _) | (_, Side::Mesh(_)) => Err(
                "gjk: a closed mesh is answered against a convex shape only (not against parts \
                 or another mesh yet); read one of the files with \"as\": \"hull\""
                    .to_string(),
            ),
            _ => parts_parts(i, &a, &pa, &b, &pb),
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

/// A compound for a side that is parts or a convex shape.
fn as_compound<'a>(s: &'a Side<'a>) -> Result<Cow<'a, Compound>, String> {
    match s {
        Side::Parts(c) => Ok(Cow::Borrowed(*c)),
        Side::Convex(c) => Compound::single((*c).clone())
            .map(Cow::Owned)
            .map_err(|e| e.to_string()),
        Side::Mesh(_) => Err("a mesh is not a compound".to_string()),
    }
}

/// An element index for a side (`None` for a convex shape, which is a single element).
fn element(s: &Side<'_>, k: usize) -> Option<usize> {
    (!matches!(s, Side::Convex(_))).then_some(k)
}

/// Parts (or a convex shape) against parts.
fn parts_parts(
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

/// A closed mesh against a convex shape; `swapped` when the shape is the pair's A (then the
/// points, normal and axes are turned to read A → B).
fn mesh_convex(
    i: usize,
    mesh: &TriMesh,
    pm: &Pose3,
    shape: &Shape3,
    ps: &Pose3,
    swapped: bool,
) -> Answer {
    let opts = Options::default();
    let inter = compound::mesh_convex_intersects(mesh, pm, shape, ps, &opts);
    let dist = compound::mesh_convex_distance(mesh, pm, shape, ps, &opts);
    let flip = |v: DVec3| if swapped { -v } else { v };
    let elems = |t: Option<usize>| if swapped { (None, t) } else { (t, None) };
    let tol = |t: usize| {
        mesh.triangle(t)
            .and_then(|[x, y, z]| Triangle::new(x, y, z).ok())
            .map_or(0.0, |tri| tolerance_for(&tri, pm, shape, ps))
    };
    let common = match (&inter.witness, inter.inside_point) {
        (Some((t, Verdict::Intersecting(c))), _) => Some((Some(*t), c.point)),
        (_, Some(p)) => Some((None, p)),
        _ => None,
    };
    let (certificate, tolerance) = match (inter.intersecting, common) {
        (Some(true), Some((t, p))) => {
            let (element_a, element_b) = elems(t);
            let cert = Certificate::ElementCommon {
                common_point: coords(p),
                element_a,
                element_b,
            };
            (Some(cert), t.map_or(0.0, tol))
        }
        (Some(false), _) => {
            let separated: Vec<ElementAxis> = inter
                .separated
                .iter()
                .filter_map(|(t, v)| match v {
                    Verdict::Separated(s) => {
                        let (element_a, element_b) = elems(Some(*t));
                        Some(ElementAxis {
                            element_a,
                            element_b,
                            separating_axis: coords(flip(s.axis)),
                            gap: s.gap,
                            tolerance: tol(*t),
                        })
                    }
                    _ => None,
                })
                .collect();
            let t = separated.iter().map(|e| e.tolerance).fold(0.0, f64::max);
            (Some(Certificate::ElementsSeparated { separated }), t)
        }
        _ => (None, 0.0),
    };
    let check = check_mesh(mesh, pm, shape, ps, &inter);
    let intersecting = if check.is_ok() {
        inter.intersecting
    } else {
        None
    };
    let (point_a, point_b, normal) = match (&common, intersecting, &dist.closest) {
        (Some((_, p)), Some(true), _) => (Some(coords(*p)), Some(coords(*p)), None),
        (_, _, Some((_, d))) if !swapped => (
            Some(coords(d.point_a)),
            Some(coords(d.point_b)),
            Some(coords(d.normal)),
        ),
        (_, _, Some((_, d))) => (
            Some(coords(d.point_b)),
            Some(coords(d.point_a)),
            Some(coords(-d.normal)),
        ),
        _ => (None, None, None),
    };
    Answer {
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
        iterations: 0,
        contact_status: None,
        certificate,
        tolerance,
        verified: check.is_ok(),
        check: match check {
            Ok(()) => "verified".to_string(),
            Err(e) => e,
        },
    }
}

/// Checks a mesh–convex answer: the witness triangle's certificate with `verify`; a point
/// inside the solid by exact location and by being a point of the shape; "separated" by every
/// listed triangle's axis, every other triangle's box being disjoint from the shape's, and
/// the shape's centre lying outside the solid.
fn check_mesh(
    mesh: &TriMesh,
    pm: &Pose3,
    shape: &Shape3,
    ps: &Pose3,
    inter: &compound::MeshIntersection,
) -> Result<(), String> {
    let tri = |t: usize| {
        mesh.triangle(t)
            .and_then(|[x, y, z]| Triangle::new(x, y, z).ok())
            .ok_or_else(|| format!("rejected: no triangle {t}"))
    };
    let one = |t: usize, v: &Verdict<DVec3>| -> Result<(), String> {
        let tr = tri(t)?;
        verify(&tr, pm, shape, ps, v, tolerance_for(&tr, pm, shape, ps))
            .map_err(|e| format!("rejected: triangle {t}: {e}"))
    };
    match inter.intersecting {
        None => Err("no certificate".to_string()),
        Some(true) => match (&inter.witness, inter.inside_point) {
            (Some((t, v)), _) => one(*t, v),
            (None, Some(p)) => {
                let inside = mesh.locate(pm.inverse_transform_point(p)) != MeshLocation::Outside;
                let c = ps.transform_point(shape.center());
                if inside && c.distance(p) <= 1e-12 * (1.0 + c.abs().max_element()) {
                    Ok(())
                } else {
                    Err("rejected: the point is not the shape's centre inside the solid".into())
                }
            }
            _ => Err("no certificate".to_string()),
        },
        Some(false) => {
            for (t, v) in &inter.separated {
                one(*t, v)?;
            }
            let q = support_box(shape, &pm.relative(ps));
            for t in 0..mesh.triangles().len() {
                let listed = inter.separated.iter().any(|(u, _)| *u == t);
                let [x, y, z] = mesh.triangle(t).unwrap_or([DVec3::ZERO; 3]);
                let (lo, hi) = (x.min(y).min(z), x.max(y).max(z));
                let overlap = lo.cmple(q.max).all() && q.min.cmple(hi).all();
                if overlap && !listed {
                    return Err(format!("rejected: triangle {t} is not covered"));
                }
            }
            let c = pm.inverse_transform_point(ps.transform_point(shape.center()));
            if mesh.locate(c) == MeshLocation::Outside {
                Ok(())
            } else {
                Err("rejected: the shape's centre is inside the solid".to_string())
            }
        }
    }
}
