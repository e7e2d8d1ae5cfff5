//! The seeded random number generator used by every generator in this crate.
//!
//! What: [`rng`] turns a `u64` seed into a [`ChaCha8Rng`]. ChaCha8 is portable and its output
//! for a given seed is fixed across platforms and `rand_chacha` 0.3 releases, so a failing
//! case can be reproduced from its seed alone.
//!
//! Source: `rand_chacha` 0.3 (`SeedableRng::seed_from_u64`). Complexity: O(1).
//! Preconditions: none. Failure modes: none.
//!
//! Every generator takes `&mut R` with `R: Rng + ?Sized`, so callers may pass any generator;
//! tests should pass `&mut rng(seed)` and report the seed on failure.

pub use rand::Rng;
use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng;

/// A ChaCha8 generator seeded from `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A generator for case `case` of a test identified by `test_seed`: distinct, reproducible
/// streams for every `(test_seed, case)` pair.
pub fn case_rng(test_seed: u64, case: u64) -> ChaCha8Rng {
    // SplitMix64 finaliser to decorrelate neighbouring cases.
    let mut z = test_seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    rng(z)
}
