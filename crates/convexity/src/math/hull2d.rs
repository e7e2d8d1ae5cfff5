//! Convex hull of a planar point set: Andrew's monotone chain.
//!
//! Source: A. M. Andrew, "Another efficient algorithm for convex hulls in two dimensions",
//! Information Processing Letters 9(5), 1979; as in de Berg et al., *Computational Geometry*,
//! §1.1. Sort by (x, y), then build the lower and upper chains, popping while the last turn
//! is not strictly to the left: collinear points (and duplicates) are removed.
//!
//! Complexity: O(n log n). Preconditions: finite coordinates (NaN sorts last with
//! `total_cmp` and is never a turn, so it cannot loop or panic, but the result is then
//! meaningless). Failure modes: none; fewer than 3 non-collinear points give 1 or 2 indices.
//!
//! The turn test is the floating-point cross product, not an exact predicate: a nearly
//! collinear point may be kept or dropped, which moves the hull by at most the rounding of
//! the cross product (about ε times the coordinate magnitude times the extent).

use glam::DVec2;

/// Indices of the hull vertices of `points`, counter-clockwise, starting from the
/// lexicographically smallest point, with collinear and duplicate points removed. One index
/// for a single (or all-equal) point set, two for a collinear set, none for an empty one.
pub fn hull2d(points: &[DVec2]) -> Vec<usize> {
    let cross =
        |o: usize, a: usize, b: usize| (points[a] - points[o]).perp_dot(points[b] - points[o]);
    hull2d_by(points.len(), |i| points[i], |o, a, b| cross(o, a, b) > 0.0)
}

/// The same chain over `n` points given by `coord(i)`, with the caller's turn test:
/// `left_turn(o, a, b)` is true when `o → a → b` turns strictly counter-clockwise (an exact
/// predicate, for example). Same output convention as [`hull2d`].
pub fn hull2d_by(
    n: usize,
    coord: impl Fn(usize) -> DVec2,
    left_turn: impl Fn(usize, usize, usize) -> bool,
) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| {
        let (pa, pb) = (coord(a), coord(b));
        pa.x.total_cmp(&pb.x).then(pa.y.total_cmp(&pb.y))
    });
    idx.dedup_by(|a, b| coord(*a) == coord(*b));
    if idx.len() < 3 {
        return idx;
    }
    let mut hull: Vec<usize> = Vec::with_capacity(2 * idx.len());
    for pass in 0..2 {
        let base = hull.len();
        let iter: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(idx.iter())
        } else {
            Box::new(idx.iter().rev())
        };
        for &i in iter {
            while hull.len() >= base + 2 {
                let (o, a) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                if left_turn(o, a, i) {
                    break;
                }
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop(); // the last point of each chain starts the other
    }
    if hull.len() < 3 {
        // All collinear: the two extremes.
        return vec![idx[0], idx[idx.len() - 1]];
    }
    hull
}
