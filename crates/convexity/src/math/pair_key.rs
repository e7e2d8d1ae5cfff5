//! The key that ties a warm-start cache to one ordered pair of shapes: the two shapes'
//! addresses.
//!
//! Used by every warm-started method (GJK and Chung–Wang's `GjkCache`, SAT 2D's `SatCache`,
//! V-Clip's `VClipCache`): a cache passed with another pair is ignored, which costs speed, never
//! correctness. Complexity O(1); no failure modes. Precondition for the speed-up only: a shape
//! is not rebuilt in place while its cache is kept (the address would match a new shape; the
//! methods then still answer correctly, they only start from a poor guess).

/// The addresses of two shapes (A, B). The default key (both 0) matches no live pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PairKey(usize, usize);

impl PairKey {
    /// The key of the pair (`a`, `b`).
    pub fn of<A: ?Sized, B: ?Sized>(a: &A, b: &B) -> PairKey {
        PairKey(
            a as *const A as *const () as usize,
            b as *const B as *const () as usize,
        )
    }
}
