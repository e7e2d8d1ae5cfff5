//! Ground-floor mathematics: imports nothing from the crate above [`crate::error`].
//!
//! * [`vector`]: the small [`Vector`](vector::Vector) trait that lets one algorithm serve 2D and
//!   3D (glam `DVec2`/`DVec3`), and rotations.
//! * [`pose`]: rigid poses (`pose_ab` is the pose of B in A's frame).
//! * [`slice`](mod@slice): helpers on n-dimensional coordinate slices.
//! * [`hull2d`]: the one planar convex hull (Andrew's monotone chain), generic over the turn test.
//! * `wide_scan`: the small point-set support scan on AVX2, chosen at run time.
//! * `test_rng` (tests only): the unit tests' seeded generator.
//! * `arr3`: a three-element array from a function of the index.
//! * [`pair_key`]: the key that ties a warm-start cache to one pair of shapes.
//! * [`halfspaces`]: systems of half-spaces and Farkas certificates, in any dimension.
//! * [`seidel_lp`]: Seidel's small-dimension LP solver over such systems. It sits here, not in
//!   [`crate::lp`], because a shape ([`crate::shape::BoundedHalfspaces`]) needs it to enumerate
//!   its vertices, and a shape may not import an upper floor.

pub mod halfspaces;
pub mod hull2d;
pub mod pair_key;
pub mod pose;
pub mod seidel_lp;
pub mod slice;
#[cfg(test)]
pub(crate) mod test_rng;
pub mod vector;
pub(crate) mod wide_scan;

/// `[f(0), f(1), f(2)]`, spelt out. `core::array::from_fn` hides the loop in `try_from_fn`,
/// which LLVM stops inlining once enough callers share a closure type's instance: the
/// box–box closed forms then ran an out-of-line loop per small vector (callgrind, box
/// distance +10% instructions), and inside the box lanes' AVX2 function an out-of-line copy
/// ran on SSE2.
#[inline(always)]
pub(crate) fn arr3<T>(f: impl Fn(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}
