//! A closed mesh against a convex shape, through [`compound::mesh_convex_intersects`] and
//! [`compound::mesh_convex_distance`]: the certificate is a common point (on a triangle, or
//! the shape's centre inside the solid) or every candidate triangle's separating axis, checked
//! before printing by [`compound::verify_mesh_intersection`].

use super::coords;
use crate::output::{Answer, Certificate, ElementAxis};
use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::Options;
use convexity::polytope::compound::{self, MeshCheckError};
use convexity::primitives::mesh::TriMesh;
use convexity::query::Method;
use convexity::{DVec3, Pose3, Shape3, Triangle, Verdict};

/// A closed mesh against a convex shape; `swapped` when the shape is the pair's A (then the
/// points, normal and axes are turned to read A → B).
pub(super) fn mesh_convex(
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
    let check =
        compound::verify_mesh_intersection(mesh, pm, shape, ps, &inter).map_err(|e| match e {
            MeshCheckError::NoCertificate => e.to_string(),
            _ => format!("rejected: {e}"),
        });
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
