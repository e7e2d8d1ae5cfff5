//! The unit tests' seeded generator: a 64-bit linear congruential generator (Knuth's MMIX
//! constants) giving floats in `[−1, 1)` from its top 53 bits. Deterministic, dependency-free,
//! not for anything but tests.

/// The next float in `[−1, 1)`, advancing `state`.
pub(crate) fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}
