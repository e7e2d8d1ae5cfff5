//! Time of impact: when, within one time step `[0, h]`, two moving shapes first touch.
//!
//! * [`roots`]: real roots of polynomials of degree ≤ 4 on `[0, h]` (Sturm sequences and
//!   bisection; no complex solver).
//! * [`vertex_edge`]: the 2D vertex–edge contact time under constant velocity (a quadratic)
//!   or constant acceleration (a quartic).
//! * [`swept`]: translation only. The swept hull of a moving shape as a [`SupportMap`]
//!   (`support(d) = max` over start and end positions), a boolean "did they collide during the
//!   step" test with GJK's certificate, and the exact first contact time by GJK ray casting on
//!   the Minkowski difference (conservative advancement along the relative translation).
//! * [`advancement`]: conservative advancement under linear and angular velocity (Mirtich).
//! * [`dispatch`]: picks the method that answers a body pair's motion exactly ([`toi2`],
//!   [`toi3`]); refuses an acceleration it cannot honour.
//!
//! Every query returns a [`TimeOfImpact`]. The statuses mean the same in every path, so the
//! ray cast and conservative advancement (with zero angular velocity) give the same status
//! for the same geometry, and [`swept::swept_intersects`] is true exactly when the ray cast
//! reports `Hit` or `InitiallyOverlapping` (up to the contact tolerance; the tests check all
//! three on random pairs).
//!
//! Closed sets: shapes that touch at `t = 0` are reported as `InitiallyOverlapping` (there is
//! no "first" contact inside the step to find). A contact exactly at `t = h` is a `Hit`.
//!
//! [`SupportMap`]: crate::shape::SupportMap

pub mod advancement;
pub mod dispatch;
pub mod roots;
pub mod swept;
pub mod vertex_edge;

pub use advancement::{conservative_advancement, AdvancementOptions, Motion, Spin};
pub use dispatch::{toi2, toi3, Body2, Body3, ToiAnswer, ToiMethod};
pub use swept::{swept_intersects, swept_toi, Swept, SweptOptions};
pub use vertex_edge::{vertex_edge_toi, Kinematic2};

/// The outcome of a time-of-impact query over a step `[0, h]`. Points and vectors are in the
/// world frame at the time of impact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeOfImpact<V> {
    /// First contact at `toi ∈ [0, h]` (`toi = 0` only from a path that cannot tell touching
    /// from approaching, see the module docs). `normal` is a unit vector from A toward B;
    /// `points` are the contact points on A and on B (equal to within the tolerance).
    Hit {
        /// Time of first contact, in the units of the velocities' time (`0 ≤ toi ≤ h`).
        toi: f64,
        /// Unit contact normal from A toward B (world frame, at `toi`).
        normal: V,
        /// `[point on A, point on B]` at `toi` (world frame).
        points: [V; 2],
    },
    /// No contact during `[0, h]`.
    Separated,
    /// The shapes touch or overlap at `t = 0`.
    InitiallyOverlapping,
    /// The iteration cap was hit. The shapes are proved disjoint on `[0, reached]`.
    IterationLimit {
        /// The time up to which the shapes are proved disjoint (`0 ≤ reached ≤ h`).
        reached: f64,
    },
}

impl<V> TimeOfImpact<V> {
    /// The status name, for reports and for comparing two paths.
    pub fn status(&self) -> &'static str {
        match self {
            TimeOfImpact::Hit { .. } => "hit",
            TimeOfImpact::Separated => "separated",
            TimeOfImpact::InitiallyOverlapping => "initially_overlapping",
            TimeOfImpact::IterationLimit { .. } => "iteration_limit",
        }
    }
    /// The time of impact, if there was a hit.
    pub fn toi(&self) -> Option<f64> {
        match self {
            TimeOfImpact::Hit { toi, .. } => Some(*toi),
            _ => None,
        }
    }
}
