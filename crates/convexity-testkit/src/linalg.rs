//! Small dense linear algebra for the oracle's polish step (private).
//!
//! Modified Gram–Schmidt with one re-orthogonalisation pass ("twice is enough", Giraud et al.
//! 2005), which keeps the computed bases orthonormal to a few ulps. Vectors whose norm after
//! projection falls below `rel_drop` times their original norm are treated as dependent.
//! Everything is O(k² n) for k vectors of length n.

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(crate) fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Orthogonalises `v` against `basis` (twice); returns the coefficients along the basis.
fn orthogonalize(v: &mut [f64], basis: &[Vec<f64>]) -> Vec<f64> {
    let mut coef = vec![0.0; basis.len()];
    for _pass in 0..2 {
        for (s, q) in basis.iter().enumerate() {
            let c = dot(v, q);
            coef[s] += c;
            for (x, qi) in v.iter_mut().zip(q) {
                *x -= c * qi;
            }
        }
    }
    coef
}

/// An orthonormal basis of the span of `vs` (dependent vectors dropped).
pub(crate) fn orthonormal_basis(vs: &[Vec<f64>], rel_drop: f64) -> Vec<Vec<f64>> {
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for v in vs {
        let n0 = norm(v);
        if n0.is_nan() || n0 <= 0.0 {
            continue;
        }
        let mut u = v.clone();
        orthogonalize(&mut u, &basis);
        let n1 = norm(&u);
        if n1 > rel_drop * n0 {
            u.iter_mut().for_each(|x| *x /= n1);
            basis.push(u);
        }
    }
    basis
}

/// `v` minus its orthogonal projection onto the span of the orthonormal `basis`.
pub(crate) fn reject(v: &[f64], basis: &[Vec<f64>]) -> Vec<f64> {
    let mut u = v.to_vec();
    orthogonalize(&mut u, basis);
    u
}

/// The minimum-norm `x` with `rows[r]·x = rhs[r]` for every row that is linearly independent
/// of the rows before it (dependent rows are assumed consistent and skipped).
pub(crate) fn min_norm_solve(rows: &[Vec<f64>], rhs: &[f64], rel_drop: f64) -> Vec<f64> {
    let n = rows.first().map_or(0, |r| r.len());
    let mut basis: Vec<Vec<f64>> = Vec::new();
    // For every kept row: its coefficients on the basis vectors before it, and its own norm.
    let mut kept: Vec<(Vec<f64>, f64, f64)> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let n0 = norm(row);
        if n0.is_nan() || n0 <= 0.0 {
            continue;
        }
        let mut u = row.clone();
        let coef = orthogonalize(&mut u, &basis);
        let n1 = norm(&u);
        if n1 > rel_drop * n0 {
            u.iter_mut().for_each(|x| *x /= n1);
            basis.push(u);
            kept.push((coef, n1, rhs[r]));
        }
    }
    // Forward substitution: row r = Σ_{s<k} coef_s q_s + n1 q_k, x = Σ y_s q_s.
    let mut y = vec![0.0; basis.len()];
    for (k, (coef, n1, b)) in kept.iter().enumerate() {
        let mut s = *b;
        for j in 0..k {
            s -= coef[j] * y[j];
        }
        y[k] = s / n1;
    }
    let mut x = vec![0.0; n];
    for (q, yk) in basis.iter().zip(&y) {
        for (xi, qi) in x.iter_mut().zip(q) {
            *xi += yk * qi;
        }
    }
    x
}

/// The `z` minimising `|Σ z_k cols[k] − rhs|`, or `None` when the columns are dependent (to
/// `rel_drop`).
pub(crate) fn lstsq_full_rank(cols: &[Vec<f64>], rhs: &[f64], rel_drop: f64) -> Option<Vec<f64>> {
    let p = cols.len();
    let mut basis: Vec<Vec<f64>> = Vec::with_capacity(p);
    let mut r = vec![vec![0.0; p]; p];
    for (k, c) in cols.iter().enumerate() {
        let n0 = norm(c);
        if n0.is_nan() || n0 <= 0.0 {
            return None;
        }
        let mut u = c.clone();
        let coef = orthogonalize(&mut u, &basis);
        let n1 = norm(&u);
        if n1.is_nan() || n1 <= rel_drop * n0 {
            return None;
        }
        for (j, cj) in coef.into_iter().enumerate() {
            r[j][k] = cj;
        }
        r[k][k] = n1;
        u.iter_mut().for_each(|x| *x /= n1);
        basis.push(u);
    }
    let qtb: Vec<f64> = basis.iter().map(|q| dot(q, rhs)).collect();
    let mut z = vec![0.0; p];
    for k in (0..p).rev() {
        let mut s = qtb[k];
        for j in k + 1..p {
            s -= r[k][j] * z[j];
        }
        z[k] = s / r[k][k];
    }
    Some(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_norm_solution_of_underdetermined_system() {
        // x + y + z = 3 → min-norm (1, 1, 1); duplicate row is skipped.
        let rows = vec![vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]];
        let x = min_norm_solve(&rows, &[3.0, 6.0], 1e-12);
        for xi in x {
            assert!((xi - 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn least_squares_recovers_coefficients() {
        let cols = vec![vec![1.0, 0.0, 1.0], vec![0.0, 2.0, 1.0]];
        let rhs = vec![3.0, 4.0, 5.0]; // = 3 c0 + 2 c1
        let z = lstsq_full_rank(&cols, &rhs, 1e-12).unwrap();
        assert!((z[0] - 3.0).abs() < 1e-14 && (z[1] - 2.0).abs() < 1e-14);
        assert!(lstsq_full_rank(&[vec![1.0, 1.0], vec![2.0, 2.0]], &[1.0, 1.0], 1e-12).is_none());
    }
}
