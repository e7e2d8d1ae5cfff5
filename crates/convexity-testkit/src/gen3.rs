//! Seeded 3D generators: point sets, boxes, rotations and rigid poses.
//!
//! What: random inputs for 3D tests and benchmarks. Point sets are returned as `Vec<DVec3>`
//! (wrap them with `Points::new`); boxes both as `Cuboid` and as their 8 corners.
//!
//! Sources: uniform directions by Archimedes' hat-box theorem (z uniform in [−1, 1], azimuth
//! uniform); uniform rotations by Shoemake, "Uniform random rotations", Graphics Gems III
//! (1992); uniform points in a ball by rejection from the cube.
//!
//! Complexity: O(n) for n points; rejection sampling takes 1.9 draws per point on average.
//! Preconditions: counts ≥ 1 where a set is returned (0 gives an empty set, which `Points`
//! rejects); ranges with `lo ≤ hi` and finite bounds. Failure modes: panics on an empty or
//! inverted range (from `rand`), never returns a non-finite value for finite arguments.

use crate::rng::Rng;
use convexity::{Cuboid, DQuat, DVec3, Points, Pose3};
use std::f64::consts::TAU;

/// A unit vector uniform on the sphere.
pub fn unit_vector3<R: Rng + ?Sized>(rng: &mut R) -> DVec3 {
    let z: f64 = rng.gen_range(-1.0..=1.0);
    let phi: f64 = rng.gen_range(0.0..TAU);
    let r = (1.0 - z * z).max(0.0).sqrt();
    DVec3::new(r * phi.cos(), r * phi.sin(), z)
}

/// A point uniform in the unit ball.
pub fn in_unit_ball3<R: Rng + ?Sized>(rng: &mut R) -> DVec3 {
    loop {
        let p = DVec3::new(
            rng.gen_range(-1.0..=1.0),
            rng.gen_range(-1.0..=1.0),
            rng.gen_range(-1.0..=1.0),
        );
        if p.length_squared() <= 1.0 {
            return p;
        }
    }
}

/// `n` points uniform on the sphere of `radius` about the origin (every point is a hull
/// vertex).
pub fn sphere_points<R: Rng + ?Sized>(rng: &mut R, n: usize, radius: f64) -> Vec<DVec3> {
    (0..n).map(|_| unit_vector3(rng) * radius).collect()
}

/// Half extents with each coordinate uniform in `[lo, hi]`.
pub fn half_extents3<R: Rng + ?Sized>(rng: &mut R, lo: f64, hi: f64) -> DVec3 {
    DVec3::new(
        rng.gen_range(lo..=hi),
        rng.gen_range(lo..=hi),
        rng.gen_range(lo..=hi),
    )
}

/// The 8 corners of the box `[-h, h]` (in the order of the sign bits x, y, z).
pub fn box_corners3(h: DVec3) -> Vec<DVec3> {
    (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect()
}

/// A random box as a `Cuboid` (half extents uniform in `[lo, hi]`).
pub fn random_cuboid<R: Rng + ?Sized>(rng: &mut R, lo: f64, hi: f64) -> Cuboid<DVec3> {
    Cuboid::new(half_extents3(rng, lo, hi)).expect("finite non-negative half extents")
}

/// A random box as the 8-point hull of its corners (half extents uniform in `[lo, hi]`).
pub fn random_box_points<R: Rng + ?Sized>(rng: &mut R, lo: f64, hi: f64) -> Points<DVec3> {
    Points::new(&box_corners3(half_extents3(rng, lo, hi))).expect("finite corners")
}

/// `n` points uniform in the ellipsoid with semi-axes `radii` (axis-aligned, centred at 0).
pub fn ellipsoid_blob<R: Rng + ?Sized>(rng: &mut R, n: usize, radii: DVec3) -> Vec<DVec3> {
    (0..n).map(|_| in_unit_ball3(rng) * radii).collect()
}

/// `n` points on the sphere of `radius`, each moved radially by a factor uniform in
/// `[1 − jitter, 1 + jitter]` (a "potato": most points are hull vertices, some are inside).
pub fn perturbed_blob<R: Rng + ?Sized>(
    rng: &mut R,
    n: usize,
    radius: f64,
    jitter: f64,
) -> Vec<DVec3> {
    (0..n)
        .map(|_| unit_vector3(rng) * (radius * rng.gen_range(1.0 - jitter..=1.0 + jitter)))
        .collect()
}

/// A unit quaternion uniform on SO(3) (Shoemake's method).
pub fn random_quat<R: Rng + ?Sized>(rng: &mut R) -> DQuat {
    let u1: f64 = rng.gen();
    let u2: f64 = rng.gen_range(0.0..TAU);
    let u3: f64 = rng.gen_range(0.0..TAU);
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    DQuat::from_xyzw(a * u2.sin(), a * u2.cos(), b * u3.sin(), b * u3.cos()).normalize()
}

/// A translation uniform in the cube `[-half_box, half_box]³`.
pub fn translation3<R: Rng + ?Sized>(rng: &mut R, half_box: f64) -> DVec3 {
    if half_box == 0.0 {
        return DVec3::ZERO;
    }
    DVec3::new(
        rng.gen_range(-half_box..=half_box),
        rng.gen_range(-half_box..=half_box),
        rng.gen_range(-half_box..=half_box),
    )
}

/// A rigid pose: uniform rotation, translation uniform in `[-half_box, half_box]³`.
pub fn random_pose3<R: Rng + ?Sized>(rng: &mut R, half_box: f64) -> Pose3 {
    let q = random_quat(rng);
    Pose3::new(translation3(rng, half_box), q).expect("unit quaternion and finite translation")
}

/// The kinds of random hull [`random_hull3`] draws from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HullKind {
    /// Points on a sphere (all vertices).
    Sphere,
    /// The 8 corners of a random box (`n` is ignored).
    Box,
    /// Points uniform in a random ellipsoid (many interior points).
    Ellipsoid,
    /// Points on a sphere with radial jitter.
    Perturbed,
}

impl HullKind {
    pub const ALL: [HullKind; 4] = [
        HullKind::Sphere,
        HullKind::Box,
        HullKind::Ellipsoid,
        HullKind::Perturbed,
    ];
}

/// A random point set of the given kind and about `size` in radius (`n` points, except for
/// boxes, which have 8).
pub fn hull_of_kind3<R: Rng + ?Sized>(
    rng: &mut R,
    kind: HullKind,
    n: usize,
    size: f64,
) -> Vec<DVec3> {
    match kind {
        HullKind::Sphere => sphere_points(rng, n, size),
        HullKind::Box => box_corners3(half_extents3(rng, 0.2 * size, 0.6 * size)),
        HullKind::Ellipsoid => {
            let radii = half_extents3(rng, 0.2 * size, size);
            ellipsoid_blob(rng, n, radii)
        }
        HullKind::Perturbed => perturbed_blob(rng, n, size, 0.3),
    }
}

/// A random point set: a kind drawn uniformly from [`HullKind::ALL`], `n` drawn from `n_range`
/// (inclusive), radius drawn from `size_range`.
pub fn random_hull3<R: Rng + ?Sized>(
    rng: &mut R,
    n_range: core::ops::RangeInclusive<usize>,
    size_range: core::ops::RangeInclusive<f64>,
) -> Vec<DVec3> {
    let kind = HullKind::ALL[rng.gen_range(0..HullKind::ALL.len())];
    let n = rng.gen_range(n_range);
    let size = rng.gen_range(size_range);
    hull_of_kind3(rng, kind, n, size)
}
