//! Convex-hull queries in any dimension n ≥ 1, on [`PointsN`](crate::nd::points::PointsN) sets.
//!
//! * [`gjk`]: distance between `conv(A)` and `conv(B)` with closest points, convex weights and
//!   a certificate: GJK on the Minkowski difference with Wolfe's nearest-point method as the
//!   simplex sub-problem (polynomial in n, so n = 100 and beyond work).
//! * [`separate`](mod@separate): linear separability of two point sets with the maximum-margin hyperplane,
//!   or a common point when the hulls overlap; also for one labelled cloud.
//! * [`pso`]: the improved particle-swarm optimisation of the same distance, and an
//!   exterior-penalty baseline. Approximate and stochastic; never the default method.

pub mod gjk;
pub mod points;
pub mod pso;
pub mod separate;

pub use gjk::{distance_n, NdDistance, NdOptions};
pub use pso::{penalty_distance, pso_distance, PenaltyOptions, PsoOptions, PsoResult};
pub use separate::{separate, separate_labelled, Separation};
