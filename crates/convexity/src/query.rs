//! Every method behind one interface.
//!
//! [`Method`] is an exhaustive list of the algorithms that answer a pair query; [`run`] runs
//! one on a pair and returns an [`Outcome`] with the common fields (verdict with certificate,
//! distance or depth, witness points, status). The CLI's `--algorithm`/`--all` and the demo
//! are built on this; later issues add variants (and the compiler then lists every place that
//! must handle them).

use crate::certificate::Verdict;
use crate::epa::{self, EpaSpace};
use crate::gjk::{self, Status};
use crate::pose::Pose;
use crate::shape::SupportMap;

/// A pair-query algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// GJK distance (closest points, separating axis or common point).
    Gjk,
    /// GJK boolean test with early exit.
    GjkBoolean,
    /// GJK followed by EPA: signed distance, penetration depth and contact points.
    Epa,
}

impl Method {
    pub const ALL: &'static [Method] = &[Method::Gjk, Method::GjkBoolean, Method::Epa];

    pub fn name(&self) -> &'static str {
        match self {
            Method::Gjk => "gjk",
            Method::GjkBoolean => "gjk-boolean",
            Method::Epa => "epa",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Whether this method answers pairs of shapes of dimension `dim`.
    pub fn applies_to_dim(&self, dim: usize) -> bool {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::Epa => dim == 2 || dim == 3,
        }
    }
}

/// What a method answered. Points and vectors are in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome<V> {
    pub method: Method,
    pub status: Status,
    pub iterations: u32,
    pub verdict: Verdict<V>,
    /// Distance (0 when intersecting); `None` for a boolean-only method.
    pub distance: Option<f64>,
    /// Penetration depth when intersecting and the method computes one.
    pub penetration_depth: Option<f64>,
    pub point_a: Option<V>,
    pub point_b: Option<V>,
    /// Unit normal from A toward B (for a penetration: moving B by depth·normal separates).
    pub normal: Option<V>,
    /// The absolute touch tolerance the method used: gaps up to it count as touching.
    pub tolerance: f64,
}

/// Runs `method` on a pair.
pub fn run<V, A, B>(method: Method, a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> Outcome<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    match method {
        Method::Gjk => {
            let d = gjk::distance(a, pose_a, b, pose_b, &gjk::Options::default(), None);
            let hit = d.intersecting() == Some(true);
            Outcome {
                method,
                status: d.status,
                iterations: d.iterations,
                verdict: d.verdict,
                distance: Some(if hit { 0.0 } else { d.distance }),
                penetration_depth: None,
                point_a: Some(d.point_a),
                point_b: Some(d.point_b),
                normal: Some(d.normal),
                tolerance: d.tolerance,
            }
        }
        Method::GjkBoolean => {
            let r = gjk::intersects(a, pose_a, b, pose_b, &gjk::Options::default(), None);
            Outcome {
                method,
                status: r.status,
                iterations: r.iterations,
                verdict: r.verdict,
                distance: None,
                penetration_depth: None,
                point_a: None,
                point_b: None,
                normal: None,
                tolerance: r.tolerance,
            }
        }
        Method::Epa => {
            let mut ctx = epa::Context::new();
            let p = epa::penetration(a, pose_a, b, pose_b, &epa::Options::default(), &mut ctx);
            let hit = p.verdict.intersecting() == Some(true);
            Outcome {
                method,
                status: p.status,
                iterations: p.iterations,
                verdict: p.verdict,
                distance: Some(if hit { 0.0 } else { (-p.depth).max(0.0) }),
                penetration_depth: if hit { Some(p.depth.max(0.0)) } else { None },
                point_a: Some(p.point_a),
                point_b: Some(p.point_b),
                normal: Some(p.normal),
                tolerance: p.tolerance,
            }
        }
    }
}
