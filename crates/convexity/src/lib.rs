//! # convexity
//!
//! Collision detection between convex shapes, with answers that can be checked.
//!
//! * [`shape`]: support-mapped shapes in 2D and 3D (`Points` hulls, balls, boxes, capsules,
//!   cylinders, cones, segments, triangles, rounded, transformed and custom shapes) and the
//!   exhaustive [`Shape3`]/[`Shape2`] enums for runtime dispatch.
//! * [`gjk`]: boolean and distance queries with warm start and certificates.
//! * [`epa`]: penetration depth, normal and contact points.
//! * [`certificate`]: separating axes and common points, and a checker that uses support
//!   functions only.
//! * [`query`]: every method behind one interface, for the CLI and for comparisons.
//! * Polyhedra: [`polyhedron`] (quickhull, half-edge topology, hill-climbing support), [`dk`],
//!   [`vclip`], [`sat3d`], [`box_box`], [`manifold`], [`chung_wang`], [`boundary`].
//! * Optimisation and n dimensions: [`ndim`], [`nd`] (n-D GJK, separability, PSO), [`lp`],
//!   [`seidel`], [`fourier_motzkin`], half-space shapes in [`shape`].
//! * Polygons and primitives: [`polygon`], [`point_in_polyhedron`], [`tri_tri`], [`facet`],
//!   [`mesh`], [`bounds`], [`sweep_prune`], [`sat2d`], [`contact2d`], [`toi`].
//!
//! Conventions: f64 throughout; closed sets (touching counts as intersecting); normals point
//! from A toward B; `pose_ab` is the pose of B in A's frame.

// `!(x > 0.0)` is used on purpose throughout: it is true for NaN, which is the fail-safe
// direction for every such guard. Rewriting it as `x <= 0.0` would silently accept NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod boundary;
pub mod bounds;
pub mod box_box;
pub mod certificate;
pub mod chung_wang;
pub mod contact2d;
pub mod dk;
pub mod epa;
pub mod error;
pub mod facet;
pub mod fourier_motzkin;
pub mod gjk;
pub mod lp;
pub mod manifold;
pub mod mesh;
pub mod minkowski;
pub mod nd;
pub mod ndim;
pub mod point_in_polyhedron;
pub mod polygon;
pub mod polyhedron;
pub mod pose;
pub mod query;
pub mod sat2d;
pub mod sat3d;
pub mod seidel;
pub mod shape;
pub mod simplex;
pub mod sweep_prune;
pub mod toi;
pub mod tri_tri;
pub mod vclip;
pub mod vector;

pub use certificate::{verify, CommonPoint, SeparatingAxis, Verdict};
pub use error::{InputError, Problem};
pub use gjk::Status;
pub use glam::{DQuat, DVec2, DVec3};
pub use polygon::{FillRule, Location, Polygon};
pub use polyhedron::{ConvexPolyhedron, HullOptions, HullResult};
pub use pose::{Pose, Pose2, Pose3};
pub use shape::{
    Ball, Capsule, Cone, ConvexPolygon, Cuboid, Custom, Cylinder, Points, Rounded, Segment, Shape2,
    Shape3, SupportMap, Transformed, Triangle,
};
pub use shape::{BoundedHalfspaces, Halfspaces};
pub use vector::{Rot2, Rotation, Vector};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
