//! Seeded n-dimensional generators for the n-D distance, separability and PSO tests and the
//! `nd` benchmark: Gaussian vectors, point clouds, random orthogonal matrices, and pairs of
//! clouds that are separated, overlapping or touching by construction.
//!
//! Sources: Box–Muller for normal deviates; Haar-distributed orthogonal matrices by
//! Gram–Schmidt (twice, for orthogonality to rounding) of a Gaussian matrix (Mezzadri,
//! "How to generate random matrices from the classical compact groups", Notices AMS 2007).
//! Complexity: O(n²·n) for an orthogonal matrix, O(m·n) for a cloud. No failure modes.

use crate::rng::Rng;

/// A standard normal deviate (Box–Muller).
pub fn normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    let v: f64 = rng.gen::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A uniformly distributed unit vector in Rⁿ.
pub fn unit_vector<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Vec<f64> {
    loop {
        let v: Vec<f64> = (0..n).map(|_| normal(rng)).collect();
        let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if l > 1e-12 {
            return v.into_iter().map(|x| x / l).collect();
        }
    }
}

/// `m` Gaussian points with standard deviation `sigma` about `center` (rows).
pub fn gaussian_cloud<R: Rng + ?Sized>(
    rng: &mut R,
    m: usize,
    center: &[f64],
    sigma: f64,
) -> Vec<Vec<f64>> {
    (0..m)
        .map(|_| center.iter().map(|c| c + sigma * normal(rng)).collect())
        .collect()
}

/// `m` points uniform on the sphere of radius `radius` about `center` (all are vertices).
pub fn sphere_cloud<R: Rng + ?Sized>(
    rng: &mut R,
    m: usize,
    center: &[f64],
    radius: f64,
) -> Vec<Vec<f64>> {
    (0..m)
        .map(|_| {
            let u = unit_vector(rng, center.len());
            center.iter().zip(u).map(|(c, x)| c + radius * x).collect()
        })
        .collect()
}

/// A Haar-random n×n orthogonal matrix (rows).
pub fn orthogonal<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Vec<Vec<f64>> {
    let mut q: Vec<Vec<f64>> = Vec::with_capacity(n);
    while q.len() < n {
        let mut v: Vec<f64> = (0..n).map(|_| normal(rng)).collect();
        for _ in 0..2 {
            for u in &q {
                let d: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
                v.iter_mut().zip(u).for_each(|(x, y)| *x -= d * y);
            }
        }
        let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if l > 1e-8 {
            q.push(v.into_iter().map(|x| x / l).collect());
        }
    }
    q
}

/// `m · p` for a matrix `m` given by rows.
pub fn mat_vec(m: &[Vec<f64>], p: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|r| r.iter().zip(p).map(|(a, b)| a * b).sum())
        .collect()
}

/// A pair of point sets touching exactly at the origin: A lies in `x₀ ≤ 0`, B in `x₀ ≥ 0`,
/// both contain the origin as a vertex, and every other point is at least `clearance` away
/// from the hyperplane `x₀ = 0`, so the distance is exactly 0 and the origin is the only
/// common point when `clearance > 0`. Shifting B by `g·e₀` (exactly representable for the
/// origin vertex) gives distance exactly `g`: the hyperplane `x₀ = 0` bounds it from below
/// and the two origin vertices attain it.
pub fn touching_pair<R: Rng + ?Sized>(
    rng: &mut R,
    n: usize,
    m: usize,
    clearance: f64,
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let side = |rng: &mut R, sign: f64| -> Vec<Vec<f64>> {
        let mut pts = vec![vec![0.0; n]];
        for _ in 1..m.max(1) {
            let mut p: Vec<f64> = (0..n).map(|_| normal(rng)).collect();
            p[0] = sign * (clearance + p[0].abs());
            pts.push(p);
        }
        pts
    };
    let a = side(rng, -1.0);
    let b = side(rng, 1.0);
    (a, b)
}
