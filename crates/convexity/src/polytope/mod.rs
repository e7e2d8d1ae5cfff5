//! Methods on polytopes (vertex sets with topology) and on polygons.
//!
//! * [`sat2d`]: separating axes for convex polygons with a separating-edge cache;
//!   [`contact2d`]: the classification of 2D contacts.
//! * [`sat3d`]: separating axes for polyhedra (Gauss-map pruning); [`box_box`]: the 15-axis box
//!   test; [`manifold`]: contact manifolds by reference/incident face clipping.
//! * [`vclip`]: V-Clip closest features with a warm start.
//! * [`boundary`]: the vertex/face and edge/face test with exact predicates.
//! * [`compound`]: compound shapes (convex parts with an AABB tree) and closed meshes against
//!   convex shapes, part pair by part pair with GJK and EPA, and a SAT manifold per pair of
//!   polytope parts.
//!
//! Floor: above [`crate::hull`] (topology) and [`crate::gjk`] (tolerances, EPA depths).

pub mod boundary;
pub mod box_box;
pub mod compound;
pub mod contact2d;
pub mod manifold;
pub mod sat2d;
pub mod sat3d;
pub mod vclip;
