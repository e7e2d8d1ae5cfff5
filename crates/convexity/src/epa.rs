//! EPA: penetration depth, normal and contact points (placeholder contract; the expanding
//! polytope itself is being written).
//!
//! Public contract, fixed for the rest of the crate:
//! * [`penetration`] returns a signed depth: `depth ≥ 0` when the shapes intersect (moving B
//!   by `depth · normal` makes them touch), and `depth = −distance` when they are separated.
//!   In both cases `point_a = point_b + depth · normal`, `normal` is a unit vector from A
//!   toward B, and points are in the world frame.

use crate::certificate::Verdict;
use crate::gjk::{self, Status};
use crate::pose::Pose;
use crate::shape::SupportMap;
use crate::vector::Vector;

/// Dimensions EPA is implemented for (2D and 3D).
pub trait EpaSpace: Vector {}
impl EpaSpace for glam::DVec2 {}
impl EpaSpace for glam::DVec3 {}

/// EPA settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub max_iterations: u32,
    pub rel_tolerance: f64,
    pub gjk: gjk::Options,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_iterations: 128,
            rel_tolerance: 1e-10,
            gjk: gjk::Options::default(),
        }
    }
}

/// Reusable buffers so that a query allocates nothing once warmed up.
#[derive(Clone, Debug, Default)]
pub struct Context<V> {
    _buf: Vec<V>,
}

impl<V: Vector> Context<V> {
    pub fn new() -> Self {
        Context { _buf: Vec::new() }
    }
}

/// Result of a penetration query (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<V> {
    pub status: Status,
    /// GJK plus EPA iterations.
    pub iterations: u32,
    /// Penetration depth (≥ 0) or minus the distance when separated.
    pub depth: f64,
    /// Unit vector from A toward B.
    pub normal: V,
    /// Deepest point of A inside B (on A's surface); `point_b + depth · normal`.
    pub point_a: V,
    /// Deepest point of B inside A (on B's surface).
    pub point_b: V,
    pub verdict: Verdict<V>,
}

/// Penetration depth, normal and contact points, or the signed distance when separated.
pub fn penetration<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    _ctx: &mut Context<V>,
) -> Penetration<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let d = gjk::distance(a, pose_a, b, pose_b, &opts.gjk, None);
    Penetration {
        status: Status::Degenerate,
        iterations: d.iterations,
        depth: -d.distance,
        normal: d.normal,
        point_a: d.point_a,
        point_b: d.point_b,
        verdict: d.verdict,
    }
}
