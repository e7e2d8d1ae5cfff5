//! Fuzz target: warm-started penetration (`epa::penetration_cached`) against the cold call
//! (`epa::penetration`) along short coherent trajectories.
//!
//! Input: a pair of 3D shapes (point hulls of 1 to 16 points, flat and collinear sets among
//! them; the same points as a `ConvexPolyhedron`, or a polyhedron of 49 to 559 generated points
//! that reads its cell map, flat and collinear ones included; boxes, flat ones
//! included; rounded hulls; balls) with sizes from 1e-2 to 1e2, A at an offset 0 to 1e6, B near A, then up to 24 steps
//! of small rotations and translations of B (and sometimes A), with an occasional jump, a
//! step back to an earlier pose, or a swap of the cache onto another pair.
//!
//! Oracle: the cold call on the same poses; for every polyhedron, the linear scan of its
//! vertices (its support along drawn and degenerate directions attains their maximum).
//! Properties at every step:
//! * no panic, no NaN: depth, bounds, points finite; a unit normal;
//! * the warm verdict's certificate passes `convexity::verify`, and it agrees with the cold
//!   verdict outside the touch band;
//! * both converged: the depths agree within twice the tolerance plus the intervals' widths,
//!   and the cold depth lies in the warm `[depth_lower, depth_upper]` up to that slack;
//! * a warm intersecting answer that converged is a contact: `point_a ≈ point_b + depth·n`
//!   and the projections on `n` overlap by the depth (within the same slack).
#![no_main]

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::epa::{self, Penetration};
use convexity::{
    verify, Ball, ConvexPolyhedron, Cuboid, DQuat, DVec3, Points, Pose3, Rounded, Shape3, Status,
    SupportMap,
};
use libfuzzer_sys::fuzz_target;

#[path = "../common/bytes.rs"]
mod bytes;
use bytes::Bytes;

fn points(r: &mut Bytes, s: f64) -> Vec<DVec3> {
    let n = 1 + r.u8() as usize % 16;
    let flat = r.u8() % 5;
    (0..n)
        .map(|_| {
            let mut p = r.v3() * s;
            match flat {
                0 => p.z = 0.0,
                1 => p = DVec3::new(p.x, 0.5 * p.x, -p.x),
                _ => {}
            }
            p
        })
        .collect()
}

/// 49 to 559 points (above the linear-scan limit, so the polyhedron climbs from its start
/// map) from a seeded generator: a noisy ellipsoid shell, duplicates, sometimes flat or
/// collinear (`from_points_any` keeps those as polygons and segments).
fn many_points(r: &mut Bytes, s: f64) -> Vec<DVec3> {
    let n = 49 + 2 * r.u8() as usize;
    let mut st = u64::from_le_bytes([r.u8(), r.u8(), r.u8(), r.u8(), 1, 0, 0, 0]);
    let mut next = move || {
        st = st
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((st >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let axes = DVec3::new(0.2 + r.frac(), 0.2 + r.frac(), 0.2 + r.frac()) * s;
    let noise = [0.0, 1e-9, 1e-3, 0.2][r.u8() as usize % 4];
    let flat = r.u8() % 6;
    let mut pts: Vec<DVec3> = (0..n)
        .map(|_| {
            let d = DVec3::new(next(), next(), next()).normalize_or(DVec3::Z);
            let mut p = d * axes * (1.0 + noise * next());
            match flat {
                0 => p.z = 0.0,
                1 => p = DVec3::new(p.x, 0.5 * p.x, -p.x),
                _ => {}
            }
            p
        })
        .collect();
    if r.u8() % 4 == 0 {
        let k = pts.len() / 3;
        pts.extend_from_within(..k);
    }
    pts
}

/// The polyhedron's support (cell map, or the linear scan below 49 vertices)
/// attains the maximum of `d·v` over its vertices, along drawn directions, axes, diagonals
/// and degenerate ones (no panic there).
fn check_support(r: &mut Bytes, p: &ConvexPolyhedron) {
    let mut dirs = vec![
        DVec3::ZERO,
        DVec3::splat(f64::NAN),
        DVec3::new(f64::INFINITY, -1.0, 0.0),
        DVec3::X,
        -DVec3::Y,
        DVec3::ONE,
    ];
    for _ in 0..8 {
        dirs.push(r.v3());
    }
    for d in dirs {
        let v = p.support_index(d, None);
        assert!(v < p.num_vertices().max(1), "{v}");
        if d.is_finite() && d.length_squared() > 0.0 && p.num_vertices() > 0 {
            let want = p
                .vertices()
                .iter()
                .map(|x| d.dot(*x))
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(d.dot(p.vertices()[v]), want, "{d:?}");
        }
    }
}

/// A `Shape3`, or a hull with hill-climbing support (not a `Shape3` variant).
#[derive(Debug)]
enum S {
    Shape(Shape3),
    Poly(ConvexPolyhedron),
}

impl SupportMap<DVec3> for S {
    fn core_support(&self, d: DVec3) -> DVec3 {
        match self {
            S::Shape(s) => s.core_support(d),
            S::Poly(p) => p.core_support(d),
        }
    }
    fn core_radius(&self) -> f64 {
        match self {
            S::Shape(s) => s.core_radius(),
            S::Poly(p) => p.core_radius(),
        }
    }
    fn center(&self) -> DVec3 {
        match self {
            S::Shape(s) => s.center(),
            S::Poly(p) => p.center(),
        }
    }
    fn size(&self) -> f64 {
        match self {
            S::Shape(s) => s.size(),
            S::Poly(p) => p.size(),
        }
    }
    fn bounding_radius(&self) -> f64 {
        match self {
            S::Shape(s) => s.bounding_radius(),
            S::Poly(p) => p.bounding_radius(),
        }
    }
    fn primitive(&self) -> convexity::shape::Primitive<'_, DVec3> {
        match self {
            S::Shape(s) => s.primitive(),
            S::Poly(p) => p.primitive(),
        }
    }
}

fn shape(r: &mut Bytes) -> Option<S> {
    let s = r.log_size();
    if r.u8() % 6 == 2 {
        let p = if r.u8() % 3 == 0 {
            ConvexPolyhedron::from_points_any(&many_points(r, s)).ok()?
        } else {
            ConvexPolyhedron::from_points(&points(r, s)).ok()?
        };
        check_support(r, &p);
        return Some(S::Poly(p));
    }
    Some(S::Shape(match r.u8() % 5 {
        0 | 1 => Shape3::Points(Points::new(&points(r, s)).ok()?),
        3 => {
            let mut h = r.v3().abs() * s;
            if r.u8() % 4 == 0 {
                h.y = 0.0;
            }
            Shape3::Cuboid(Cuboid::new(h).ok()?)
        }
        4 => {
            let inner = Shape3::Points(Points::new(&points(r, s)).ok()?);
            Shape3::Rounded(Box::new(
                Rounded::new(inner, 0.2 * s * (1.0 + r.unit())).ok()?,
            ))
        }
        _ => Shape3::Sphere(Ball::new(s).ok()?),
    }))
}

fn check(
    a: &S,
    pa: &Pose3,
    b: &S,
    pb: &Pose3,
    warm: &Penetration<DVec3>,
    cold: &Penetration<DVec3>,
) {
    let msg = || format!("{a:?} at {pa:?} vs {b:?} at {pb:?}\nwarm {warm:?}\ncold {cold:?}");
    for p in [warm, cold] {
        assert!(
            p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite(),
            "{}",
            msg()
        );
        assert!(
            !p.depth_lower.is_nan() && !p.depth_upper.is_nan(),
            "{}",
            msg()
        );
        assert!((p.normal.length() - 1.0).abs() < 1e-9, "{}", msg());
    }
    let vtol = tolerance_for(a, pa, b, pb);
    verify(a, pa, b, pb, &warm.verdict, vtol).unwrap_or_else(|e| panic!("{}: {e}", msg()));
    let scale = a.size() + b.size();
    let tol = warm.tolerance.max(cold.tolerance);
    let widths = (warm.depth_upper - warm.depth_lower).max(0.0)
        + (cold.depth_upper - cold.depth_lower).max(0.0);
    let slack = 2.0 * tol + 1e-9 * scale;
    let (wi, ci) = (warm.verdict.intersecting(), cold.verdict.intersecting());
    if wi.is_some() && ci.is_some() && wi != ci {
        assert!(cold.depth.abs() <= 4.0 * tol, "verdicts differ: {}", msg());
    }
    if warm.status == Status::Converged && cold.status == Status::Converged {
        assert!(
            (warm.depth - cold.depth).abs() <= slack + widths,
            "depths differ: {}",
            msg()
        );
        assert!(
            cold.depth >= warm.depth_lower - slack && cold.depth <= warm.depth_upper + slack,
            "cold depth outside the warm interval: {}",
            msg()
        );
        if wi == Some(true) {
            let n = warm.normal;
            let h = |s: &S, p: &Pose3, d: DVec3| {
                d.dot(p.transform_point(s.support(p.inverse_transform_vector(d))))
            };
            let overlap = h(a, pa, n) + h(b, pb, -n);
            let width = (warm.depth_upper - warm.depth_lower).max(0.0);
            assert!(
                (overlap - warm.depth).abs() <= slack + width,
                "overlap {overlap}: {}",
                msg()
            );
            assert!(
                (warm.point_b + n * warm.depth - warm.point_a).length() <= slack + width,
                "contact convention: {}",
                msg()
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Bytes::new(data);
    let (Some(a), Some(b)) = (shape(&mut r), shape(&mut r)) else {
        return;
    };
    let (Some(c), Some(d)) = (shape(&mut r), shape(&mut r)) else {
        return;
    };
    let offset = [0.0, 1.0, 1e3, 1e6][r.u8() as usize % 4];
    let reach = a.size() + b.size();
    let Ok(mut pa) = Pose3::new(r.v3() * offset, r.unit_quat()) else {
        return;
    };
    let Ok(mut pb) = Pose3::new(pa.translation() + r.v3() * reach, r.unit_quat()) else {
        return;
    };
    let opts = epa::Options::default();
    let (mut ctx_w, mut ctx_c) = (epa::Context::new(), epa::Context::new());
    let mut cache = epa::EpaCache::new();
    let first = (pa, pb);
    let steps = 1 + r.u8() as usize % 24;
    for _ in 0..steps {
        let warm = epa::penetration_cached(&a, &pa, &b, &pb, &opts, &mut ctx_w, &mut cache);
        let cold = epa::penetration(&a, &pa, &b, &pb, &opts, &mut ctx_c);
        check(&a, &pa, &b, &pb, &warm, &cold);
        let kind = r.u8();
        let step = 0.02 * reach;
        let next_b = match kind % 16 {
            // A jump.
            0 => Pose3::new(pa.translation() + r.v3() * reach, r.unit_quat()),
            // Back to the first poses.
            1 => {
                pa = first.0;
                Ok(first.1)
            }
            // The cache used on another pair once (it must be ignored, and stay usable).
            2 => {
                let w = epa::penetration_cached(&c, &pa, &d, &pb, &opts, &mut ctx_w, &mut cache);
                let k = epa::penetration(&c, &pa, &d, &pb, &opts, &mut ctx_c);
                check(&c, &pa, &d, &pb, &w, &k);
                Ok(pb)
            }
            // A moves too.
            3 => {
                let q = DQuat::from_scaled_axis(r.v3() * 0.02) * pa.rotation();
                pa = Pose3::new(pa.translation() + r.v3() * step, q.normalize()).unwrap_or(pa);
                Ok(pb)
            }
            _ => {
                let q = DQuat::from_scaled_axis(r.v3() * 0.05) * pb.rotation();
                Pose3::new(pb.translation() + r.v3() * step, q.normalize())
            }
        };
        pb = next_b.unwrap_or(pb);
    }
});
