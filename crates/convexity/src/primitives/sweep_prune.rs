//! All-pairs broad-phase candidates for n bodies: the pairs whose bounding boxes (or spheres)
//! overlap.
//!
//! [`candidate_pairs`] sorts the boxes by their lower bound on one axis (the axis with the
//! largest spread of box centres) and sweeps: each box is compared only with the boxes whose
//! interval on that axis is still open (sort and sweep, Baraff 1992; Cohen et al., I-COLLIDE,
//! 1995). O(n log n + k) for k overlapping pairs on the sweep axis, against O(n²) for
//! [`brute_force_pairs`], which is kept for small n and as the reference in tests.
//! [`sphere_candidate_pairs`] does the same for bounding spheres (sweeping their boxes, then
//! the exact sphere test).
//!
//! Conventions: closed sets (touching boxes are candidates). Output pairs are `(i, j)` with
//! `i < j`, sorted, each once; identical for both methods.
//! Preconditions: finite boxes with `min ≤ max` (from [`Aabb`] constructors). A box with NaN
//! coordinates never overlaps anything (every comparison with NaN is false) and does not
//! disturb the others (the sort uses a total order).
//! Failure modes: none.

use crate::math::vector::Vector;
use crate::primitives::bounds::{Aabb, BoundingSphere};

/// Below this many boxes the O(n²) loop is used (it is faster than sorting).
pub const BRUTE_FORCE_BELOW: usize = 32;

/// Pairs `(i, j)`, `i < j`, whose closed boxes overlap. Sort and sweep for
/// `n ≥ BRUTE_FORCE_BELOW`, brute force below.
pub fn candidate_pairs<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(usize, usize)> {
    if boxes.len() < BRUTE_FORCE_BELOW {
        return brute_force_pairs(boxes);
    }
    let axis = sweep_axis(boxes);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        boxes[a]
            .min
            .coord(axis)
            .total_cmp(&boxes[b].min.coord(axis))
    });
    let mut pairs = Vec::new();
    // Active boxes: their max on the axis has not been passed yet.
    let mut active: Vec<usize> = Vec::new();
    for &i in &order {
        let lo = boxes[i].min.coord(axis);
        active.retain(|&j| boxes[j].max.coord(axis) >= lo);
        for &j in &active {
            if boxes[i].intersects(&boxes[j]) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
        active.push(i);
    }
    pairs.sort_unstable();
    pairs
}

/// The O(n²) reference: every pair tested.
pub fn brute_force_pairs<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if boxes[i].intersects(&boxes[j]) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Pairs `(i, j)`, `i < j`, whose closed spheres overlap: sweep on the spheres' boxes, then the
/// sphere test.
pub fn sphere_candidate_pairs<V: Vector>(spheres: &[BoundingSphere<V>]) -> Vec<(usize, usize)> {
    let boxes: Vec<Aabb<V>> = spheres.iter().map(|s| s.aabb()).collect();
    let mut pairs = candidate_pairs(&boxes);
    pairs.retain(|&(i, j)| spheres[i].intersects(&spheres[j]));
    pairs
}

/// The axis with the largest variance of box centres (fewest overlaps to sweep past).
fn sweep_axis<V: Vector>(boxes: &[Aabb<V>]) -> usize {
    let n = boxes.len().max(1) as f64;
    let mut best = (0, f64::NEG_INFINITY);
    for axis in 0..V::DIM {
        let (mut s, mut s2) = (0.0, 0.0);
        for b in boxes {
            let c = 0.5 * (b.min.coord(axis) + b.max.coord(axis));
            if c.is_finite() {
                s += c;
                s2 += c * c;
            }
        }
        let var = s2 / n - (s / n) * (s / n);
        if var > best.1 {
            best = (axis, var);
        }
    }
    best.0
}
