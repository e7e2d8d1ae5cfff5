//! Fuzz target: a closed triangle mesh (the solid it bounds) against a convex shape,
//! `compound::mesh_convex_intersects` with its checker `verify_mesh_intersection`, and
//! `compound::mesh_convex_distance` — the queries the Python `mesh_shape_*` functions and the
//! CLI's mesh pairs run — then compounds of the same shapes (`compound::intersects`,
//! `distance`).
//!
//! Input: a mesh from one of three families with drawn dimensions — an L-shaped prism (its
//! notch inside its convex hull), a star prism of 3 to 8 spikes (inner radius down to 0.1% of
//! the outer: thin spikes), two separate octahedra of different sizes — placed at an offset
//! of 0 to 1e6 with a drawn rotation; a shape (ball, box incl. flat, capsule incl. zero
//! length, hull of 1 to 12 points incl. flat and collinear sets) of size 1e-2 to 1e2 near it.
//!
//! Oracle: brute force over every triangle with `gjk::distance` / `gjk::intersects`, and exact
//! point location of the shape's centre. Properties:
//! * no panic; a finite distance ≥ 0;
//! * a decided boolean answer passes `verify_mesh_intersection`;
//! * centre inside the solid: intersecting, distance 0 (or a touch for a centre on the
//!   surface up to rounding); else the distance is the least triangle distance (within 1e-9
//!   relative: the tree must not prune the closest triangle);
//! * intersecting answers have a distance within four tolerances of 0; separated ones a
//!   positive distance, and no triangle's own boolean test says intersecting;
//! * the same shape and two more as compounds (`compound::intersects`, `distance`): the answer
//!   passes `verify_intersection`, agrees with brute force over the part pairs, and the
//!   distance is the least pair distance.
#![no_main]

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{self, Options};
use convexity::polytope::compound::{
    self, mesh_convex_distance, mesh_convex_intersects, verify_intersection,
    verify_mesh_intersection, Compound, Part,
};
use convexity::primitives::mesh::{MeshLocation, TriMesh};
use convexity::{Ball, Capsule, Cuboid, DVec3, Points, Pose3, Shape3, SupportMap, Triangle};
use libfuzzer_sys::fuzz_target;

#[path = "../common/bytes.rs"]
mod bytes;
use bytes::Bytes;

/// The polygon (counter-clockwise, star-shaped from `fan_from`) extruded over z in [0, h],
/// outward-oriented, the caps fanned from vertex `fan_from`.
fn prism(poly: &[(f64, f64)], h: f64, fan_from: usize) -> Option<TriMesh> {
    let n = poly.len();
    let mut v: Vec<DVec3> = poly.iter().map(|&(x, y)| DVec3::new(x, y, 0.0)).collect();
    v.extend(poly.iter().map(|&(x, y)| DVec3::new(x, y, h)));
    let mut t = Vec::new();
    for k in 1..n - 1 {
        let (a, b, c) = (fan_from, (fan_from + k) % n, (fan_from + k + 1) % n);
        t.push([a, c, b]);
        t.push([n + a, n + b, n + c]);
    }
    for i in 0..n {
        let j = (i + 1) % n;
        t.push([i, j, n + j]);
        t.push([i, n + j, n + i]);
    }
    TriMesh::new(v, t).ok()
}

fn mesh(r: &mut Bytes) -> Option<TriMesh> {
    let s = r.log_size();
    match r.u8() % 3 {
        0 => {
            // The L: a bar [0, a] x [0, w1] and a bar [0, w2] x [0, b].
            let (w1, w2) = (0.1 + r.frac(), 0.1 + r.frac());
            let (a, b) = (w2 + 0.1 + 2.0 * r.frac(), w1 + 0.1 + 2.0 * r.frac());
            let poly = [(0.0, 0.0), (a, 0.0), (a, w1), (w2, w1), (w2, b), (0.0, b)];
            let poly: Vec<(f64, f64)> = poly.iter().map(|&(x, y)| (x * s, y * s)).collect();
            prism(&poly, s * (0.1 + r.frac()), 0)
        }
        1 => {
            // A star: the centre first, then outer and inner tips alternating.
            let k = 3 + r.u8() as usize % 6;
            let inner = [1e-3, 0.05, 0.3, 0.6, 0.9][r.u8() as usize % 5];
            let mut poly = Vec::with_capacity(2 * k);
            for i in 0..2 * k {
                let a = std::f64::consts::PI * i as f64 / k as f64;
                let rad = if i % 2 == 0 { 1.0 } else { inner } * s;
                poly.push((rad * a.cos(), rad * a.sin()));
            }
            // A star prism fanned from a tip is not valid: fan from the centre instead, by
            // putting it in the ring between two tips (a degenerate vertex of the outline).
            let mut ring = vec![(0.0, 0.0)];
            ring.extend(poly.iter().skip(1));
            ring.push(poly[0]);
            prism(&ring, s * (0.1 + r.frac()), 0)
        }
        _ => {
            // Two octahedra, radii s and s·f, apart along x.
            let f = 0.1 + 2.0 * r.frac();
            let gap = s * (2.5 + f + 3.0 * r.frac());
            let mut v = Vec::new();
            let mut t = Vec::new();
            for (c, rad) in [(0.0, s), (gap, s * f)] {
                let o = v.len();
                v.extend([
                    DVec3::new(c + rad, 0.0, 0.0),
                    DVec3::new(c - rad, 0.0, 0.0),
                    DVec3::new(c, rad, 0.0),
                    DVec3::new(c, -rad, 0.0),
                    DVec3::new(c, 0.0, rad),
                    DVec3::new(c, 0.0, -rad),
                ]);
                for (sx, ix) in [(1.0, 0), (-1.0, 1)] {
                    for (sy, iy) in [(1.0, 2), (-1.0, 3)] {
                        for (sz, iz) in [(1.0, 4), (-1.0, 5)] {
                            t.push(if sx * sy * sz > 0.0 {
                                [o + ix, o + iy, o + iz]
                            } else {
                                [o + ix, o + iz, o + iy]
                            });
                        }
                    }
                }
            }
            TriMesh::new(v, t).ok()
        }
    }
}

fn shape(r: &mut Bytes) -> Option<Shape3> {
    let s = r.log_size();
    Some(match r.u8() % 4 {
        0 => Shape3::Sphere(Ball::new(s * r.frac()).ok()?),
        1 => {
            let mut h = DVec3::new(r.frac(), r.frac(), r.frac()) * s;
            if r.u8() % 4 == 0 {
                h.y = 0.0;
            }
            Shape3::Cuboid(Cuboid::new(h).ok()?)
        }
        2 => {
            let d = r.v3() * s * r.frac();
            Shape3::Capsule(Capsule::new(-d, d, s * r.frac()).ok()?)
        }
        _ => {
            let n = 1 + r.u8() as usize % 12;
            let flat = r.u8() % 4;
            let pts: Vec<DVec3> = (0..n)
                .map(|_| {
                    let mut p = r.v3() * s;
                    if flat == 0 {
                        p.z = 0.0;
                    } else if flat == 1 {
                        p = DVec3::X * p.x;
                    }
                    p
                })
                .collect();
            Shape3::Points(Points::new(&pts).ok()?)
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let mut r = Bytes::new(data);
    let Some(mesh) = mesh(&mut r) else {
        return;
    };
    let Some(shape) = shape(&mut r) else {
        return;
    };
    let far = [0.0, 1.0, 1e3, 1e6][r.u8() as usize % 4];
    let Ok(pm) = Pose3::new(r.v3() * far, r.unit_quat()) else {
        return;
    };
    // The shape's centre somewhere around the mesh's box (in the mesh's frame).
    let lo = mesh
        .vertices()
        .iter()
        .fold(DVec3::INFINITY, |m, v| m.min(*v));
    let hi = mesh
        .vertices()
        .iter()
        .fold(DVec3::NEG_INFINITY, |m, v| m.max(*v));
    let local = lo + (hi - lo) * (DVec3::new(r.frac(), r.frac(), r.frac()) * 1.6 - 0.3);
    let Ok(ps) = Pose3::new(pm.transform_point(local), r.unit_quat()) else {
        return;
    };
    let o = Options::default();
    let inter = mesh_convex_intersects(&mesh, &pm, &shape, &ps, &o);
    let dist = mesh_convex_distance(&mesh, &pm, &shape, &ps, &o);
    assert!(
        dist.distance.is_finite() && dist.distance >= 0.0,
        "{dist:?}"
    );
    if inter.intersecting.is_some() {
        let check = verify_mesh_intersection(&mesh, &pm, &shape, &ps, &inter);
        assert!(check.is_ok(), "{check:?} {inter:?}");
    }
    // Brute force.
    let mut least = f64::INFINITY;
    let mut band = 0.0f64;
    let mut any_hit = false;
    for t in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.triangle(t).expect("a triangle");
        let Ok(tri) = Triangle::new(a, b, c) else {
            continue;
        };
        let d = gjk::distance(&tri, &pm, &shape, &ps, &o, None);
        least = least.min(d.distance);
        band = band.max(4.0 * d.tolerance + tolerance_for(&tri, &pm, &shape, &ps));
        any_hit |= gjk::intersects(&tri, &pm, &shape, &ps, &o, None).intersecting() == Some(true);
    }
    let centre = pm.relative(&ps).transform_point(shape.center());
    if mesh.locate(centre) != MeshLocation::Outside {
        // Distance 0 (the library places the centre inside too), or a touch (a centre on the
        // surface up to the rounding of its placement, which the library may put outside).
        assert_eq!(inter.intersecting, Some(true), "{inter:?}");
        assert!(dist.distance <= band, "{dist:?} band {band}");
    } else {
        let slack = 1e-9 * least.max(1e-300) + 1e-12 * (1.0 + far);
        assert!(
            (dist.distance - least).abs() <= slack,
            "{} vs brute force {least}",
            dist.distance
        );
    }
    match inter.intersecting {
        Some(true) => assert!(dist.distance <= band, "{dist:?} band {band}"),
        Some(false) => {
            assert!(!any_hit, "separated, but a triangle intersects: {inter:?}");
            assert!(dist.distance > 0.0, "{dist:?}");
        }
        None => {}
    }
    compounds(&mut r, shape, &pm, &ps);
});

/// Two compounds, A = the shape and a second one beside it (placed as the mesh was), B = a
/// third shape (placed as the shape was, or moved onto A's first part's surface): the boolean
/// answer passes `verify_intersection` and agrees with brute force over the part pairs (a
/// pair that intersects makes it intersecting; separated means no pair does), and the
/// distance is the least pair distance.
fn compounds(r: &mut Bytes, first: Shape3, pm: &Pose3, ps: &Pose3) {
    let (Some(second), Some(third)) = (shape(r), shape(r)) else {
        return;
    };
    let Ok(off) = Pose3::new(r.v3() * r.log_size(), r.unit_quat()) else {
        return;
    };
    let o = Options::default();
    // Half the time B is moved along the separating direction to a gap of 0 to 1e-8 from the
    // first part (the touch band, where box tests and GJK's tolerance meet).
    let mut ps = *ps;
    if r.u8() % 2 == 0 {
        let g = gjk::distance(&first, pm, &third, &ps, &o, None);
        let gap = [0.0, 1e-13, 1e-10, 1e-8][r.u8() as usize % 4];
        if g.distance > 0.0 && g.distance.is_finite() {
            let t = ps.translation() - g.normal * (g.distance - gap);
            let Ok(moved) = Pose3::new(t, ps.rotation()) else {
                return;
            };
            ps = moved;
        }
    }
    let ps = &ps;
    let Ok(a) = Compound::new(vec![
        Part {
            shape: first,
            pose: Pose3::IDENTITY,
        },
        Part {
            shape: second,
            pose: off,
        },
    ]) else {
        return;
    };
    let Ok(b) = Compound::single(third) else {
        return;
    };
    let i = compound::intersects(&a, pm, &b, ps, &o);
    if i.intersecting.is_some() {
        let check = verify_intersection(&a, pm, &b, ps, &i);
        assert!(check.is_ok(), "{check:?} {i:?}");
    }
    let d = compound::distance(&a, pm, &b, ps, &o);
    let (mut least, mut any_hit, mut band) = (f64::INFINITY, false, 0.0f64);
    for k in 0..a.parts().len() {
        let (Some(pa), Some(pb)) = (a.part_pose(k, pm), b.part_pose(0, ps)) else {
            return;
        };
        let (sa, sb) = (&a.parts()[k].shape, &b.parts()[0].shape);
        let g = gjk::distance(sa, &pa, sb, &pb, &o, None);
        least = least.min(g.distance);
        band = band.max(4.0 * g.tolerance + tolerance_for(sa, &pa, sb, &pb));
        any_hit |= gjk::intersects(sa, &pa, sb, &pb, &o, None).intersecting() == Some(true);
    }
    match i.intersecting {
        Some(true) => assert!(d.distance <= band, "{d:?} band {band}"),
        Some(false) => assert!(!any_hit, "separated, but a part pair intersects: {i:?}"),
        None => {}
    }
    if any_hit {
        assert_ne!(i.intersecting, Some(false), "{i:?}");
    }
    let slack = 1e-9 * least.max(1e-300) + 1e-12 * (1.0 + pm.translation().length());
    assert!(
        (d.distance - least).abs() <= slack,
        "{} vs brute force {least}",
        d.distance
    );
}
