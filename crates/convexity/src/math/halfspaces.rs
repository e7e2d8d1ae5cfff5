//! Systems of half-spaces `{x : nᵢ·x ≤ oᵢ}` in any dimension n ≥ 1, and Farkas certificates
//! of their infeasibility.
//!
//! * [`Halfspaces`]: a validated system of rows (the JSON form
//!   `{"type": "halfspaces", "normals": [[..]], "offsets": [..]}`). It may be empty or
//!   unbounded; the LP and Fourier–Motzkin code accept it as it is. The bounded 2D/3D shape
//!   built from it is [`crate::shape::BoundedHalfspaces`].
//! * [`Farkas`]: a non-negative combination of rows proving a system infeasible, with its
//!   arithmetic check.
//!
//! This is ground-floor arithmetic (it imports no shape): the shape floor builds on it, and so
//! does Seidel's LP kernel ([`crate::math::seidel_lp`]).
//!
//! [`Halfspaces::from_hull`] goes the other way (V → H) for full-dimensional point sets:
//! Andrew's monotone chain in 2D ([`crate::math::hull2d`], O(n log n)); in 3D every plane through
//! three points that has all points on one side (O(n⁴), so limited to [`MAX_HULL3_POINTS`] points).
//!
//! Failure modes: non-finite or too large values, zero normals, ragged rows and a count mismatch
//! between normals and offsets are [`InputError`]s naming `normals[i][j]`, `normals[i]` or
//! `offsets`.

use crate::error::{finite, InputError, Problem, MAX_MAGNITUDE};
use crate::math::hull2d::hull2d;
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use glam::DVec2;

/// A system of half-spaces `nᵢ·x ≤ oᵢ` in Rⁿ, rows stored as given (not normalised).
#[derive(Clone, Debug, PartialEq)]
pub struct Halfspaces {
    dim: usize,
    normals: Vec<f64>,
    offsets: Vec<f64>,
    norms: Vec<f64>,
}

impl Halfspaces {
    /// Builds a system from row-major normals (`normals.len() == dim · offsets.len()`).
    pub fn new(dim: usize, normals: Vec<f64>, offsets: Vec<f64>) -> Result<Self, InputError> {
        if dim == 0 {
            return Err(InputError::new(
                "dim",
                Problem::Invalid("dimension must be at least 1".into()),
            ));
        }
        if offsets.is_empty() {
            return Err(InputError::new("normals", Problem::Empty));
        }
        if normals.len() != dim * offsets.len() {
            return Err(InputError::new(
                "offsets",
                Problem::DimensionMismatch {
                    expected: normals.len() / dim,
                    found: offsets.len(),
                },
            ));
        }
        let mut norms = Vec::with_capacity(offsets.len());
        for (i, row) in normals.chunks_exact(dim).enumerate() {
            for (j, &c) in row.iter().enumerate() {
                if !c.is_finite() || c.abs() > MAX_MAGNITUDE {
                    finite(&format!("normals[{i}][{j}]"), c)?;
                }
            }
            // Scale before squaring so that 1e-200 or 1e60 components neither underflow nor
            // overflow.
            let m = row.iter().fold(0.0f64, |m, c| m.max(c.abs()));
            if !(m > 0.0) {
                return Err(InputError::new(
                    format!("normals[{i}]"),
                    Problem::Invalid("normal is zero".into()),
                ));
            }
            let n = m * row.iter().map(|c| (c / m) * (c / m)).sum::<f64>().sqrt();
            norms.push(n);
        }
        for (i, &o) in offsets.iter().enumerate() {
            finite(&format!("offsets[{i}]"), o)?;
        }
        Ok(Halfspaces {
            dim,
            normals,
            offsets,
            norms,
        })
    }

    /// Builds a system from rows of normals and their offsets.
    pub fn from_rows<R: AsRef<[f64]>>(normals: &[R], offsets: &[f64]) -> Result<Self, InputError> {
        let Some(first) = normals.first() else {
            return Err(InputError::new("normals", Problem::Empty));
        };
        let dim = first.as_ref().len();
        if dim == 0 {
            return Err(InputError::new(
                "normals[0]",
                Problem::Invalid("dimension must be at least 1".into()),
            ));
        }
        if normals.len() != offsets.len() {
            return Err(InputError::new(
                "offsets",
                Problem::DimensionMismatch {
                    expected: normals.len(),
                    found: offsets.len(),
                },
            ));
        }
        let mut flat = Vec::with_capacity(dim * normals.len());
        for (i, r) in normals.iter().enumerate() {
            let r = r.as_ref();
            if r.len() != dim {
                return Err(InputError::new(
                    format!("normals[{i}]"),
                    Problem::DimensionMismatch {
                        expected: dim,
                        found: r.len(),
                    },
                ));
            }
            flat.extend_from_slice(r);
        }
        Halfspaces::new(dim, flat, offsets.to_vec())
    }

    /// Builds a 2D/3D system from glam normals.
    pub fn from_vectors<V: Vector>(normals: &[V], offsets: &[f64]) -> Result<Self, InputError> {
        let rows: Vec<Vec<f64>> = normals.iter().map(|n| n.to_vec()).collect();
        if rows.is_empty() {
            return Err(InputError::new("normals", Problem::Empty));
        }
        Halfspaces::from_rows(&rows, offsets)
    }

    /// The dimension n of the space: the number of coordinates of every normal.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of rows (at least 1).
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Always false: a system without rows is rejected at construction.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Normal of row `i` (panics if `i >= len()`, like slice indexing).
    pub fn normal(&self, i: usize) -> &[f64] {
        &self.normals[i * self.dim..(i + 1) * self.dim]
    }

    /// Offset of row `i` (panics if `i >= len()`).
    pub fn offset(&self, i: usize) -> f64 {
        self.offsets[i]
    }

    /// Euclidean length of normal `i` (> 0).
    pub fn normal_length(&self, i: usize) -> f64 {
        self.norms[i]
    }

    /// The offsets `oᵢ` of every row, in row order (in the units of the normals as given:
    /// rows are not normalised).
    pub fn offsets(&self) -> &[f64] {
        &self.offsets
    }

    /// `(normal, offset)` of every row.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&[f64], f64)> + '_ {
        self.normals
            .chunks_exact(self.dim)
            .zip(self.offsets.iter().copied())
    }

    /// Signed distance of `x` beyond row `i`'s plane: `(nᵢ·x − oᵢ)/|nᵢ|` (≤ 0 inside).
    pub fn row_violation(&self, i: usize, x: &[f64]) -> f64 {
        (crate::math::slice::dot(self.normal(i), x) - self.offsets[i]) / self.norms[i]
    }

    /// The largest [`Halfspaces::row_violation`] over all rows (≤ 0 when `x` is inside).
    pub fn violation(&self, x: &[f64]) -> f64 {
        (0..self.len())
            .map(|i| self.row_violation(i, x))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Whether `x` satisfies every row within the distance `tol` (closed set).
    pub fn contains(&self, x: &[f64], tol: f64) -> bool {
        x.len() == self.dim && self.violation(x) <= tol
    }

    /// Largest distance `|oᵢ|/|nᵢ|` of a row's plane from the origin: a magnitude scale.
    pub fn magnitude(&self) -> f64 {
        self.offsets
            .iter()
            .zip(&self.norms)
            .fold(0.0, |m, (o, n)| m.max(o.abs() / n))
    }

    /// The rows of `self` followed by those of `other` (row `i` of `other` becomes row
    /// `self.len() + i`).
    pub fn concat(&self, other: &Halfspaces) -> Result<Halfspaces, InputError> {
        if other.dim != self.dim {
            return Err(InputError::new(
                "normals",
                Problem::DimensionMismatch {
                    expected: self.dim,
                    found: other.dim,
                },
            ));
        }
        let mut normals = self.normals.clone();
        normals.extend_from_slice(&other.normals);
        let mut offsets = self.offsets.clone();
        offsets.extend_from_slice(&other.offsets);
        let mut norms = self.norms.clone();
        norms.extend_from_slice(&other.norms);
        Ok(Halfspaces {
            dim: self.dim,
            normals,
            offsets,
            norms,
        })
    }

    /// The same set moved by `pose` (local → world): `n·x ≤ o` becomes `(Rn)·y ≤ o + (Rn)·t`.
    pub fn transformed<V: Vector>(&self, pose: &Pose<V>) -> Result<Halfspaces, InputError> {
        if self.dim != V::DIM {
            return Err(InputError::new(
                "normals",
                Problem::DimensionMismatch {
                    expected: V::DIM,
                    found: self.dim,
                },
            ));
        }
        let t = pose.translation();
        let mut normals = Vec::with_capacity(self.normals.len());
        let mut offsets = Vec::with_capacity(self.len());
        for (n, o) in self.iter() {
            let n = V::from_slice(n).unwrap_or(V::ZERO);
            let nw = pose.transform_vector(n);
            normals.extend(nw.to_vec());
            offsets.push(o + nw.dot(t));
        }
        Halfspaces::new(self.dim, normals, offsets)
    }

    /// The facets of the convex hull of a full-dimensional 2D or 3D point set, as half-spaces
    /// with unit outward normals. Flat sets (collinear in 2D, coplanar in 3D) are rejected, and
    /// so are 3D sets with more than [`MAX_HULL3_POINTS`] points (the search is O(n⁴)).
    pub fn from_hull<V: Vector>(points: &[V]) -> Result<Halfspaces, InputError> {
        if points.is_empty() {
            return Err(InputError::new("points", Problem::Empty));
        }
        for (i, p) in points.iter().enumerate() {
            crate::math::vector::finite_vec(&format!("points[{i}]"), *p)?;
        }
        let rows: Vec<Vec<f64>> = points.iter().map(|p| p.to_vec()).collect();
        // The same scale as a `Points` set's bounding radius: the largest |p|.
        let scale = points
            .iter()
            .map(|p| p.length())
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        let flat = || {
            InputError::new(
                "points",
                Problem::Invalid("the points are not full-dimensional (flat hull)".into()),
            )
        };
        let (normals, offsets) = match V::DIM {
            2 => hull2_facets(&rows, scale).ok_or_else(flat)?,
            3 => {
                if rows.len() > MAX_HULL3_POINTS {
                    return Err(InputError::new(
                        "points",
                        Problem::Invalid(format!(
                            "{} points: the 3D half-space conversion is limited to {MAX_HULL3_POINTS}",
                            rows.len()
                        )),
                    ));
                }
                hull3_facets(&rows, scale).ok_or_else(flat)?
            }
            d => {
                return Err(InputError::new(
                    "points",
                    Problem::Invalid(format!("dimension {d} is not supported")),
                ))
            }
        };
        Halfspaces::from_rows(&normals, &offsets)
    }
}

/// Largest point count accepted by the 3D branch of [`Halfspaces::from_hull`].
pub const MAX_HULL3_POINTS: usize = 128;

type Facets = (Vec<Vec<f64>>, Vec<f64>);

/// The edges of the planar hull ([`hull2d`]) as unit outward normals and offsets; `None` for a
/// collinear set.
fn hull2_facets(pts: &[Vec<f64>], scale: f64) -> Option<Facets> {
    let p: Vec<DVec2> = pts.iter().map(|r| DVec2::new(r[0], r[1])).collect();
    let idx = hull2d(&p);
    if idx.len() < 3 {
        return None;
    }
    let hull: Vec<[f64; 2]> = idx.iter().map(|&i| [p[i].x, p[i].y]).collect();
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    for i in 0..hull.len() {
        let a = hull[i];
        let b = hull[(i + 1) % hull.len()];
        let e = [b[0] - a[0], b[1] - a[1]];
        let l = (e[0] * e[0] + e[1] * e[1]).sqrt();
        if !(l > 1e-14 * scale) {
            continue;
        }
        // Counter-clockwise hull: the outward normal of edge a→b is (e_y, −e_x)/|e|.
        let n = [e[1] / l, -e[0] / l];
        normals.push(n.to_vec());
        offsets.push(n[0] * a[0] + n[1] * a[1]);
    }
    (normals.len() >= 3).then_some((normals, offsets))
}

/// Every plane through three points with all points on one side (within `1e-12 · scale`);
/// duplicate planes are merged. `None` for a coplanar set.
fn hull3_facets(pts: &[Vec<f64>], scale: f64) -> Option<Facets> {
    let v: Vec<[f64; 3]> = pts.iter().map(|r| [r[0], r[1], r[2]]).collect();
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let tol = 1e-12 * scale;
    let mut normals: Vec<Vec<f64>> = Vec::new();
    let mut offsets = Vec::new();
    let n = v.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let e1 = sub(v[j], v[i]);
                let e2 = sub(v[k], v[i]);
                let c = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let l = dot(c, c).sqrt();
                // Skip nearly collinear triples: their plane is ill-determined.
                if !(l > 1e-10 * dot(e1, e1).sqrt() * dot(e2, e2).sqrt()) || !(l > 0.0) {
                    continue;
                }
                let mut nrm = [c[0] / l, c[1] / l, c[2] / l];
                let mut off = dot(nrm, v[i]);
                let (mut above, mut below) = (false, false);
                for p in &v {
                    let s = dot(nrm, *p) - off;
                    above |= s > tol;
                    below |= s < -tol;
                }
                if above && below {
                    continue;
                }
                if above {
                    nrm = [-nrm[0], -nrm[1], -nrm[2]];
                    off = -off;
                }
                let dup = normals
                    .iter()
                    .zip(&offsets)
                    .any(|(m, o): (&Vec<f64>, &f64)| {
                        (m[0] - nrm[0]).abs() + (m[1] - nrm[1]).abs() + (m[2] - nrm[2]).abs() < 1e-9
                            && (o - off).abs() <= 1e-9 * scale
                    });
                if !dup {
                    normals.push(nrm.to_vec());
                    offsets.push(off);
                }
            }
        }
    }
    // A coplanar set yields only the two orientations of its one plane; a solid has ≥ 4.
    (normals.len() >= 4).then_some((normals, offsets))
}

/// A non-negative combination `Σ λᵢ (nᵢ·x − oᵢ) ≤ 0` of rows whose normals cancel
/// (`Σ λᵢ nᵢ ≈ 0`) while `Σ λᵢ oᵢ < 0`: then no `x` satisfies the rows (Farkas' lemma).
#[derive(Clone, Debug, PartialEq)]
pub struct Farkas {
    /// `(row index, weight ≥ 0)`, weights applied to the rows as given (not normalised).
    pub weights: Vec<(usize, f64)>,
}

/// What [`Farkas::check`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FarkasCheck {
    /// `|Σ λᵢ nᵢ|` (0 in exact arithmetic).
    pub residual: f64,
    /// `Σ λᵢ oᵢ` (negative for a valid certificate).
    pub value: f64,
    /// Radius of the ball about the origin proved to contain no feasible point:
    /// `−value / residual` (`+∞` when the residual is 0; 0 when the value is not negative).
    /// From `Σλᵢ(nᵢ·x − oᵢ) ≤ 0` for a feasible `x`: `value ≥ r·x ≥ −|r||x|`.
    pub radius: f64,
}

impl Farkas {
    /// Recomputes the combination over `system`. `None` if an index is out of range or a
    /// weight is negative or not finite.
    pub fn check(&self, system: &Halfspaces) -> Option<FarkasCheck> {
        let mut r = vec![0.0; system.dim()];
        let mut value = 0.0;
        for &(i, w) in &self.weights {
            if i >= system.len() || !(w >= 0.0) || !w.is_finite() {
                return None;
            }
            for (rj, nj) in r.iter_mut().zip(system.normal(i)) {
                *rj += w * nj;
            }
            value += w * system.offset(i);
        }
        let residual = crate::math::slice::dot(&r, &r).sqrt();
        let radius = if !(value < 0.0) {
            0.0
        } else if residual == 0.0 {
            f64::INFINITY
        } else {
            -value / residual
        };
        Some(FarkasCheck {
            residual,
            value,
            radius,
        })
    }

    /// Whether the combination proves that no point within `radius` of the origin is feasible.
    pub fn proves_within(&self, system: &Halfspaces, radius: f64) -> bool {
        self.check(system).is_some_and(|c| c.radius > radius)
    }
}
