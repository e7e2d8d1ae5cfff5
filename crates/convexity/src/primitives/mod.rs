//! Geometric primitives with exact predicates, and bounding volumes.
//!
//! * [`polygon`]: point in polygon (convex, general, holes, both fill rules) and segment
//!   intersection; [`point_in_polyhedron`].
//! * [`tri_tri`]: the triangle–triangle test; [`facet`]: facet–facet intersection.
//! * [`mesh`]: closed triangle meshes with an AABB tree, point location and mesh–mesh tests.
//! * [`io`] (feature `io`, on by default): OBJ, STL and PLY files as vertex sets, closed
//!   meshes or convex parts.
//! * Broad phase: [`bounds`] (bounding spheres and AABBs), [`sweep_prune`] (sort and sweep).
//!
//! Floor: imports only the ground floor ([`crate::error`], [`crate::verdict`], [`crate::math`]).

pub mod bounds;
pub mod facet;
#[cfg(feature = "io")]
pub mod io;
pub mod mesh;
pub mod point_in_polyhedron;
pub mod polygon;
pub mod sweep_prune;
pub mod tri_tri;
