//! proptest strategies built on the seeded generators.
//!
//! What: strategies for point sets, poses, directions and regimes. Each draws a `u64` seed
//! and maps it through the generators of [`crate::gen3`] / [`crate::gen2`], so a failing case
//! is reproducible from the seed proptest prints (shrinking a seed is not meaningful: a
//! shrunk seed is just another case).
//!
//! Source: `proptest` 1.x. Complexity: as the underlying generators. Preconditions: ranges as
//! in the generators. Failure modes: none.

use crate::placement::Regime;
use crate::rng::rng;
use crate::{gen2, gen3};
use convexity::{DVec2, DVec3, Pose2, Pose3};
use core::ops::RangeInclusive;
use proptest::prelude::*;

/// Any seed.
pub fn seed() -> impl Strategy<Value = u64> {
    any::<u64>()
}

/// A random 3D point set ([`gen3::random_hull3`]).
pub fn hull3(
    n: RangeInclusive<usize>,
    size: RangeInclusive<f64>,
) -> impl Strategy<Value = Vec<DVec3>> {
    any::<u64>().prop_map(move |s| gen3::random_hull3(&mut rng(s), n.clone(), size.clone()))
}

/// A random 2D point set ([`gen2::random_hull2`]).
pub fn hull2(
    n: RangeInclusive<usize>,
    size: RangeInclusive<f64>,
) -> impl Strategy<Value = Vec<DVec2>> {
    any::<u64>().prop_map(move |s| gen2::random_hull2(&mut rng(s), n.clone(), size.clone()))
}

/// A random 3D pose with translation in `[-half_box, half_box]³`.
pub fn pose3(half_box: f64) -> impl Strategy<Value = Pose3> {
    any::<u64>().prop_map(move |s| gen3::random_pose3(&mut rng(s), half_box))
}

/// A random 2D pose with translation in `[-half_box, half_box]²`.
pub fn pose2(half_box: f64) -> impl Strategy<Value = Pose2> {
    any::<u64>().prop_map(move |s| gen2::random_pose2(&mut rng(s), half_box))
}

/// A unit vector uniform on the sphere.
pub fn unit3() -> impl Strategy<Value = DVec3> {
    any::<u64>().prop_map(|s| gen3::unit_vector3(&mut rng(s)))
}

/// A unit vector uniform on the circle.
pub fn unit2() -> impl Strategy<Value = DVec2> {
    any::<u64>().prop_map(|s| gen2::unit_vector2(&mut rng(s)))
}

/// One of the placement regimes.
pub fn regime() -> impl Strategy<Value = Regime> {
    proptest::sample::select(Regime::ALL.to_vec())
}
