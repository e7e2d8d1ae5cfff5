//! Point sets and certificates in any dimension n ≥ 1.
//!
//! The 2D/3D code uses glam vectors through the [`Vector`] trait, whose dimension is a
//! compile-time constant. The n-dimensional methods (LP, n-D GJK, separability, PSO) take a
//! [`PointsN`]: a validated, row-major set of points whose dimension is known only at run
//! time. Certificates here are checked by plain arithmetic over the vertex sets, so they do not
//! depend on any solver: a separating hyperplane is checked against every vertex, a common
//! point against the convex weights it carries.
//!
//! Complexity: validation O(n·m); [`verify_n`] O(n·(|A|+|B|)).
//! Failure modes: constructors reject NaN, infinity, magnitudes above [`MAX_MAGNITUDE`], empty
//! sets, zero dimension and ragged rows, naming the field (`points[i][j]`).

use crate::error::{finite, InputError, Problem, MAX_MAGNITUDE};
use crate::math::pose::Pose;
use crate::math::slice::dot;
use crate::math::vector::Vector;
use crate::shape::Points;
use crate::verdict::{CertificateError, CommonPoint, SeparatingAxis, Verdict};

/// A non-empty finite set of points in Rⁿ, stored row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct PointsN {
    dim: usize,
    coords: Vec<f64>,
}

impl PointsN {
    /// Builds a set from row-major coordinates (`coords.len()` must be a multiple of `dim`).
    pub fn new(dim: usize, coords: Vec<f64>) -> Result<Self, InputError> {
        if dim == 0 {
            return Err(InputError::new(
                "dim",
                Problem::Invalid("dimension must be at least 1".into()),
            ));
        }
        if coords.is_empty() {
            return Err(InputError::new("points", Problem::Empty));
        }
        if !coords.len().is_multiple_of(dim) {
            return Err(InputError::new(
                format!("points[{}]", coords.len() / dim),
                Problem::DimensionMismatch {
                    expected: dim,
                    found: coords.len() % dim,
                },
            ));
        }
        for (k, &c) in coords.iter().enumerate() {
            if !c.is_finite() || c.abs() > MAX_MAGNITUDE {
                finite(&format!("points[{}][{}]", k / dim, k % dim), c)?;
            }
        }
        Ok(PointsN { dim, coords })
    }

    /// Builds a set from rows; every row must have the first row's length.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Self, InputError> {
        let Some(first) = rows.first() else {
            return Err(InputError::new("points", Problem::Empty));
        };
        let dim = first.as_ref().len();
        let mut coords = Vec::with_capacity(dim * rows.len());
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != dim {
                return Err(InputError::new(
                    format!("points[{i}]"),
                    Problem::DimensionMismatch {
                        expected: dim,
                        found: r.len(),
                    },
                ));
            }
            coords.extend_from_slice(r);
        }
        PointsN::new(dim, coords)
    }

    /// Vertices of a 2D/3D shape placed at `pose` (the world frame), as an n-D set: the one
    /// conversion every vertex method uses (LP, n-D GJK, the query layer). Errors as
    /// [`PointsN::new`] (a world coordinate beyond [`MAX_MAGNITUDE`], or no vertices).
    pub fn posed<V: Vector>(vertices: &[V], pose: &Pose<V>) -> Result<Self, InputError> {
        let mut coords = Vec::with_capacity(V::DIM * vertices.len());
        for p in vertices {
            let w = pose.transform_point(*p);
            for i in 0..V::DIM {
                coords.push(w.coord(i));
            }
        }
        PointsN::new(V::DIM, coords)
    }

    /// The vertices of a 2D/3D [`Points`] shape as an n-D set (already validated).
    pub fn from_points<V: Vector>(points: &Points<V>) -> Self {
        let mut coords = Vec::with_capacity(V::DIM * points.len());
        for p in points.points() {
            for i in 0..V::DIM {
                coords.push(p.coord(i));
            }
        }
        PointsN {
            dim: V::DIM,
            coords,
        }
    }

    /// The dimension n of the space (at least 1): the number of coordinates of every point.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of points (at least 1).
    pub fn len(&self) -> usize {
        self.coords.len() / self.dim
    }

    /// Always false: an empty set is rejected at construction.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Point `i` (panics if `i >= len()`, like slice indexing).
    pub fn point(&self, i: usize) -> &[f64] {
        &self.coords[i * self.dim..(i + 1) * self.dim]
    }

    /// The points in order, each as a slice of `dim()` coordinates.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[f64]> + '_ {
        self.coords.chunks_exact(self.dim)
    }

    /// Row-major coordinates.
    pub fn coords(&self) -> &[f64] {
        &self.coords
    }

    /// Index of a point maximising `dir · p` (the first one on ties).
    pub fn support_index(&self, dir: &[f64]) -> usize {
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        for (i, p) in self.iter().enumerate() {
            let v = dot(p, dir);
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }

    /// `(min, max)` of `dir · p` over the set.
    pub fn extent(&self, dir: &[f64]) -> (f64, f64) {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for p in self.iter() {
            let v = dot(p, dir);
            lo = lo.min(v);
            hi = hi.max(v);
        }
        (lo, hi)
    }

    /// Mean of the points.
    pub fn centroid(&self) -> Vec<f64> {
        let mut c = vec![0.0; self.dim];
        for p in self.iter() {
            for (ci, pi) in c.iter_mut().zip(p) {
                *ci += pi;
            }
        }
        let inv = 1.0 / self.len() as f64;
        c.iter_mut().for_each(|x| *x *= inv);
        c
    }

    /// Length of the bounding box diagonal (a size scale for tolerances).
    pub fn size(&self) -> f64 {
        let mut s = 0.0;
        for j in 0..self.dim {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for p in self.iter() {
                lo = lo.min(p[j]);
                hi = hi.max(p[j]);
            }
            s += (hi - lo) * (hi - lo);
        }
        s.sqrt()
    }

    /// Largest absolute coordinate (a magnitude scale for rounding tolerances).
    pub fn magnitude(&self) -> f64 {
        self.coords.iter().fold(0.0, |m, c| m.max(c.abs()))
    }
}

/// A hyperplane separating A from B: `max_A n·x + gap ≤ min_B n·y`, `n` unit, `gap > 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct SeparatingHyperplane {
    /// Unit normal pointing from A toward B.
    pub normal: Vec<f64>,
    /// Gap between the projections (a lower bound on the Euclidean distance).
    pub gap: f64,
}

impl SeparatingHyperplane {
    /// The offset `c` of the mid-plane `n·x = c` between the two projections.
    pub fn mid_offset(&self, a: &PointsN) -> f64 {
        a.extent(&self.normal).1 + 0.5 * self.gap
    }
}

/// A point of both hulls, with convex weights over each vertex set that reproduce it.
#[derive(Clone, Debug, PartialEq)]
pub struct CommonPointN {
    /// The common point, `dim()` coordinates; both weighted sums lie within the query's
    /// tolerance of it.
    pub point: Vec<f64>,
    /// `(vertex index in A, weight)`; weights are ≥ 0 and sum to 1.
    pub weights_a: Vec<(usize, f64)>,
    /// `(vertex index in B, weight)`; weights are ≥ 0 and sum to 1.
    pub weights_b: Vec<(usize, f64)>,
}

/// A boolean answer in n dimensions with its certificate.
#[derive(Clone, Debug, PartialEq)]
pub enum VerdictN {
    /// The hulls are disjoint; the hyperplane (normal from A toward B, positive gap) proves it.
    Separated(SeparatingHyperplane),
    /// The hulls share a point (touching counts); the weights over both vertex sets prove it.
    Intersecting(CommonPointN),
    /// Neither was proved; never silently turned into "separated".
    Undetermined,
}

impl VerdictN {
    /// `Some(true)` for intersecting, `Some(false)` for separated.
    pub fn intersecting(&self) -> Option<bool> {
        match self {
            VerdictN::Separated(_) => Some(false),
            VerdictN::Intersecting(_) => Some(true),
            VerdictN::Undetermined => None,
        }
    }

    /// The 2D/3D verdict with the same certificate (`Undetermined` if the dimension does not
    /// fit): the one conversion from n-D answers back to typed vectors.
    pub fn typed<V: Vector>(&self) -> Verdict<V> {
        match self {
            VerdictN::Separated(h) => match V::from_slice(&h.normal) {
                Some(axis) => Verdict::Separated(SeparatingAxis { axis, gap: h.gap }),
                None => Verdict::Undetermined,
            },
            VerdictN::Intersecting(c) => match V::from_slice(&c.point) {
                Some(point) => Verdict::Intersecting(CommonPoint { point }),
                None => Verdict::Undetermined,
            },
            VerdictN::Undetermined => Verdict::Undetermined,
        }
    }
}

/// Checks a certificate against the vertex sets with absolute tolerance `tol`.
///
/// * Separated: `normal` has unit length (±1e-9), `gap > 0`, and
///   `max_A n·x + gap − min_B n·y ≤ tol`.
/// * Intersecting: weights are ≥ −tol and sum to 1 ± 1e-9 on each side, indices are in range,
///   and both weighted sums lie within `tol` of `point`.
pub fn verify_n(
    verdict: &VerdictN,
    a: &PointsN,
    b: &PointsN,
    tol: f64,
) -> Result<(), CertificateError> {
    match verdict {
        VerdictN::Undetermined => Err(CertificateError::NoCertificate),
        VerdictN::Separated(h) => {
            if h.normal.len() != a.dim()
                || h.normal.iter().any(|x| !x.is_finite())
                || !h.gap.is_finite()
            {
                return Err(CertificateError::NotFinite);
            }
            let len = dot(&h.normal, &h.normal).sqrt();
            if (len - 1.0).abs() > 1e-9 {
                return Err(CertificateError::AxisNotUnit(len));
            }
            if !(h.gap > 0.0) {
                return Err(CertificateError::GapNotPositive(h.gap));
            }
            let hi_a = a.extent(&h.normal).1;
            let lo_b = b.extent(&h.normal).0;
            let excess = hi_a + h.gap - lo_b;
            if excess > tol {
                return Err(CertificateError::AxisViolated(excess));
            }
            Ok(())
        }
        VerdictN::Intersecting(c) => {
            if c.point.len() != a.dim() || c.point.iter().any(|x| !x.is_finite()) {
                return Err(CertificateError::NotFinite);
            }
            let off_a = weighted_miss(&c.weights_a, a, &c.point, tol);
            if off_a > tol {
                return Err(CertificateError::OutsideA(off_a));
            }
            let off_b = weighted_miss(&c.weights_b, b, &c.point, tol);
            if off_b > tol {
                return Err(CertificateError::OutsideB(off_b));
            }
            Ok(())
        }
    }
}

/// Distance from `p` to the weighted sum, or infinity when the weights are not convex.
fn weighted_miss(weights: &[(usize, f64)], set: &PointsN, p: &[f64], tol: f64) -> f64 {
    let mut sum = 0.0;
    let mut c = vec![0.0; set.dim()];
    for &(i, w) in weights {
        if i >= set.len() || !w.is_finite() || w < -tol {
            return f64::INFINITY;
        }
        sum += w;
        for (cj, xj) in c.iter_mut().zip(set.point(i)) {
            *cj += w * xj;
        }
    }
    if (sum - 1.0).abs() > 1e-9 {
        return f64::INFINITY;
    }
    c.iter()
        .zip(p)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_rows_by_name() {
        let e = PointsN::from_rows(&[vec![0.0, 1.0], vec![f64::NAN, 0.0]]).unwrap_err();
        assert_eq!(e.field, "points[1][0]");
        let e = PointsN::from_rows(&[vec![0.0, 1.0], vec![0.0]]).unwrap_err();
        assert_eq!(e.field, "points[1]");
        assert!(PointsN::from_rows::<Vec<f64>>(&[]).is_err());
    }

    #[test]
    fn verify_checks_both_certificates() {
        let a = PointsN::from_rows(&[[0.0, 0.0], [1.0, 0.0]]).unwrap();
        let b = PointsN::from_rows(&[[3.0, 0.0], [3.0, 1.0]]).unwrap();
        let good = VerdictN::Separated(SeparatingHyperplane {
            normal: vec![1.0, 0.0],
            gap: 2.0,
        });
        assert!(verify_n(&good, &a, &b, 1e-12).is_ok());
        let too_big = VerdictN::Separated(SeparatingHyperplane {
            normal: vec![1.0, 0.0],
            gap: 2.5,
        });
        assert!(verify_n(&too_big, &a, &b, 1e-12).is_err());
        let c = PointsN::from_rows(&[[0.5, -1.0], [0.5, 1.0]]).unwrap();
        let common = VerdictN::Intersecting(CommonPointN {
            point: vec![0.5, 0.0],
            weights_a: vec![(0, 0.5), (1, 0.5)],
            weights_b: vec![(0, 0.5), (1, 0.5)],
        });
        assert!(verify_n(&common, &a, &c, 1e-12).is_ok());
        assert!(verify_n(&common, &a, &b, 1e-12).is_err());
    }
}
