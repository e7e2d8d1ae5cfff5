//! Small helpers on coordinate slices (n-dimensional vectors stored as `&[f64]`).
//!
//! Ground floor: imports nothing from the crate. O(n) each; no preconditions beyond equal
//! lengths (a shorter slice truncates the sum, as `zip` does).

/// Dot product of two equal-length slices.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
