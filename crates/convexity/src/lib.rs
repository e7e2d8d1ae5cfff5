//! # convexity
//!
//! Collision detection between convex shapes, with answers that can be checked.
//!
//! The crate is laid out in floors; a module imports only from its own floor or lower ones
//! (ARCHITECTURE.md at the repository root has the table, and `tests/floors.rs` enforces it):
//!
//! * Ground floor: [`error`] (input errors naming the field), [`verdict`] (verdicts,
//!   certificates and the one [`Status`] of iterative methods), [`math`] (vectors, poses, slice
//!   helpers, the planar hull, half-space systems, Seidel's LP kernel).
//! * [`shape`]: support-mapped shapes in 2D and 3D and the exhaustive [`Shape3`]/[`Shape2`]
//!   enums for runtime dispatch.
//! * [`gjk`]: the support-map wing — GJK (boolean and distance), [`gjk::epa`] (penetration),
//!   [`gjk::chung_wang`], the Minkowski difference and simplex solver, and the independent
//!   certificate checker [`gjk::certificate`].
//! * [`hull`]: convex hulls with half-edge topology (quickhull), hill-climbing support and the
//!   Dobkin–Kirkpatrick hierarchy ([`hull::dk`]).
//! * [`polytope`]: SAT in 2D and 3D, box–box, V-Clip, the boundary test, contact manifolds and
//!   2D contact classification.
//! * [`nd`]: point sets in any dimension ([`nd::points::PointsN`]), n-D GJK, separability, PSO.
//! * [`lp`]: linear-programming methods — the simplex tests, Seidel's pair queries,
//!   Fourier–Motzkin elimination, containment.
//! * [`primitives`]: polygons, point in polyhedron, triangle–triangle, facets, meshes, and the
//!   broad phase (bounding volumes, sweep and prune).
//! * [`toi`]: time of impact.
//! * [`query`]: every method behind one interface.
//!
//! Conventions: f64 throughout; closed sets (touching counts as intersecting); normals point
//! from A toward B; `pose_ab` is the pose of B in A's frame.
//!
//! # Example
//!
//! Two unit boxes 3 apart along x: GJK proves them separated by a gap of 1 and returns a
//! separating axis that anyone can check with [`verify`], using support functions only.
//!
//! ```
//! use convexity::gjk::{self, Options};
//! use convexity::{verify, Cuboid, DVec3, Pose3, Status, Verdict};
//!
//! let cube = Cuboid::new(DVec3::splat(1.0))?; // half extents: the box [-1, 1]³
//! let pose_a = Pose3::IDENTITY;
//! let pose_b = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0))?;
//!
//! let d = gjk::distance(&cube, &pose_a, &cube, &pose_b, &Options::default(), None);
//! assert_eq!(d.status, Status::Converged);
//! assert!((d.distance - 1.0).abs() < 1e-9);
//! assert!(matches!(d.verdict, Verdict::Separated(_)));
//! verify(&cube, &pose_a, &cube, &pose_b, &d.verdict, 1e-9)?;
//!
//! // Touching counts as intersecting (closed sets).
//! let touching = Pose3::from_translation(DVec3::new(2.0, 0.0, 0.0))?;
//! let t = gjk::distance(&cube, &pose_a, &cube, &touching, &Options::default(), None);
//! assert_eq!(t.intersecting(), Some(true));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
// `!(x > 0.0)` is used on purpose throughout: it is true for NaN, which is the fail-safe
// direction for every such guard. Rewriting it as `x <= 0.0` would silently accept NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod error;
pub mod gjk;
pub mod hull;
pub mod lp;
pub mod math;
pub mod nd;
pub mod polytope;
pub mod primitives;
pub mod query;
pub mod shape;
pub mod toi;
pub mod verdict;

pub use error::{InputError, Problem};
pub use gjk::batch;
pub use gjk::certificate::verify;
pub use glam::{DQuat, DVec2, DVec3};
pub use hull::{ConvexPolyhedron, HullOptions, HullResult};
pub use math::pose::{Pose, Pose2, Pose3};
pub use math::vector::{Rot2, Rotation, Vector};
pub use primitives::polygon::{FillRule, Location, Polygon};
pub use shape::{
    Ball, Capsule, Cone, ConvexPolygon, Cuboid, Custom, Cylinder, Points, Rounded, Segment, Shape2,
    Shape3, SupportMap, Transformed, Triangle,
};
pub use shape::{BoundedHalfspaces, Halfspaces};
pub use verdict::{CommonPoint, SeparatingAxis, Status, Verdict};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
