//! Shapes given as intersections of half-spaces: `{x : nᵢ·x ≤ oᵢ}`.
//!
//! * [`Halfspaces`]: a validated system of rows in any dimension n ≥ 1 (the JSON form
//!   `{"type": "halfspaces", "normals": [[..]], "offsets": [..]}`). It may be empty or
//!   unbounded; the LP and Fourier–Motzkin code accept it as it is.
//! * [`BoundedHalfspaces`]: a 2D/3D system checked to be non-empty and bounded, with its
//!   vertices enumerated once at construction, so that its support function is a scan of those
//!   vertices (an internal [`Points`]). Enumeration is chosen over an LP per support call because
//!   GJK asks for tens of support points per query and a scan of k vertices is far cheaper than
//!   a Seidel LP over m rows each time; the price is the construction cost below.
//! * [`Farkas`]: a non-negative combination of rows proving a system infeasible, with its
//!   arithmetic check.
//!
//! Construction of a [`BoundedHalfspaces`]: 2d Seidel LPs (maximise ±eⱼ·x) give the bounding box
//!  and detect an empty or unbounded set; then every facet is cut out of a square in its plane
//! by the other rows (Sutherland–Hodgman clipping, O(m·k) per facet), and the union of the facet
//! polygons' corners is the vertex set (in 2D the bounding box itself is clipped). Cost O(m²·k)
//! for m rows and k vertices per facet. Rows that touch the set only at a vertex or an edge, and
//! redundant rows, contribute degenerate or empty polygons, which is harmless.
//!
//! [`Halfspaces::from_hull`] goes the other way (V → H) for full-dimensional point sets:
//! Andrew's monotone chain in 2D (O(n log n)); in 3D every plane through three points that has
//! all points on one side (O(n⁴), so limited to [`MAX_HULL3_POINTS`] points).
//!
//! Failure modes: non-finite or too large values, zero normals, ragged rows and a count mismatch
//! between normals and offsets are [`InputError`]s naming `normals[i][j]`, `normals[i]` or
//! `offsets`. An empty or unbounded set is an error only where a support function is needed
//! ([`BoundedHalfspaces::new`]).

use super::{Points, SupportMap};
use crate::error::{finite, InputError, Problem, MAX_MAGNITUDE};
use crate::pose::Pose;
use crate::seidel;
use crate::vector::Vector;

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
        (crate::ndim::dot(self.normal(i), x) - self.offsets[i]) / self.norms[i]
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
        let pts = Points::new(points)?;
        let rows: Vec<Vec<f64>> = pts.points().iter().map(|p| p.to_vec()).collect();
        let scale = pts.bounding_radius().max(f64::MIN_POSITIVE);
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

/// Andrew's monotone chain; `None` for a collinear set.
fn hull2_facets(pts: &[Vec<f64>], scale: f64) -> Option<Facets> {
    let mut p: Vec<[f64; 2]> = pts.iter().map(|r| [r[0], r[1]]).collect();
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    p.dedup();
    if p.len() < 3 {
        return None;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<[f64; 2]> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = hull.len();
        let it: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in it {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    if hull.len() < 3 {
        return None;
    }
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
        let residual = crate::ndim::dot(&r, &r).sqrt();
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

/// A non-empty, bounded 2D/3D half-space system with its vertices, usable as a shape.
#[derive(Clone, Debug)]
pub struct BoundedHalfspaces<V: Vector> {
    halfspaces: Halfspaces,
    hull: Points<V>,
    lower: V,
    upper: V,
}

impl<V: Vector> BoundedHalfspaces<V> {
    /// Checks that the set is non-empty and bounded and enumerates its vertices.
    ///
    /// Errors: a dimension other than `V::DIM` (`normals`), an empty intersection or an
    /// unbounded set (`halfspaces`, with the direction in which it is unbounded).
    pub fn new(halfspaces: Halfspaces) -> Result<Self, InputError> {
        if halfspaces.dim() != V::DIM {
            return Err(InputError::new(
                "normals",
                Problem::DimensionMismatch {
                    expected: V::DIM,
                    found: halfspaces.dim(),
                },
            ));
        }
        let d = V::DIM;
        let opts = seidel::Options::default();
        let mut lower = vec![0.0; d];
        let mut upper = vec![0.0; d];
        for axis in 0..d {
            for sign in [1.0, -1.0] {
                let mut c = vec![0.0; d];
                c[axis] = sign;
                let r = seidel::solve(&halfspaces, &c, &opts)?;
                match r.status {
                    seidel::LpStatus::Optimal { x, .. } => {
                        if sign > 0.0 {
                            upper[axis] = x[axis];
                        } else {
                            lower[axis] = x[axis];
                        }
                    }
                    seidel::LpStatus::Infeasible { .. } => {
                        return Err(InputError::new(
                            "halfspaces",
                            Problem::Invalid(
                                "the intersection of the half-spaces is empty (infeasible); \
                                 a support function needs a non-empty set"
                                    .into(),
                            ),
                        ))
                    }
                    seidel::LpStatus::Unbounded { .. } => {
                        let dir = if sign > 0.0 { "+" } else { "-" };
                        return Err(InputError::new(
                            "halfspaces",
                            Problem::Invalid(format!(
                                "the set is unbounded in direction {dir}x{axis}; \
                                 a support function needs a bounded set"
                            )),
                        ));
                    }
                }
            }
        }
        let verts = vertices(&halfspaces, &lower, &upper);
        let verts: Vec<V> = verts.iter().filter_map(|p| V::from_slice(p)).collect();
        let verts = if verts.is_empty() {
            // The set is within the tolerance of a point the clipping lost: use the box centre.
            let c: Vec<f64> = lower
                .iter()
                .zip(&upper)
                .map(|(l, u)| 0.5 * (l + u))
                .collect();
            vec![V::from_slice(&c).unwrap_or(V::ZERO)]
        } else {
            verts
        };
        let hull = Points::new(&verts).map_err(|e| e.within("vertices"))?;
        Ok(BoundedHalfspaces {
            halfspaces,
            hull,
            lower: V::from_slice(&lower).unwrap_or(V::ZERO),
            upper: V::from_slice(&upper).unwrap_or(V::ZERO),
        })
    }

    /// Validates rows and checks boundedness in one call.
    pub fn from_rows<R: AsRef<[f64]>>(normals: &[R], offsets: &[f64]) -> Result<Self, InputError> {
        Self::new(Halfspaces::from_rows(normals, offsets)?)
    }

    pub fn halfspaces(&self) -> &Halfspaces {
        &self.halfspaces
    }

    /// The enumerated vertices (duplicates merged within a relative 1e-12).
    pub fn vertices(&self) -> &[V] {
        self.hull.points()
    }

    /// The vertices as a point-hull shape.
    pub fn as_points(&self) -> &Points<V> {
        &self.hull
    }

    /// Axis-aligned bounding box `(lower, upper)` from the LPs.
    pub fn bounds(&self) -> (V, V) {
        (self.lower, self.upper)
    }
}

impl<V: Vector> SupportMap<V> for BoundedHalfspaces<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        self.hull.core_support(dir)
    }
    fn center(&self) -> V {
        self.hull.center()
    }
    fn size(&self) -> f64 {
        self.hull.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.hull.bounding_radius()
    }
}

/// Clips the convex polygon `poly` by `a·p ≤ b` (points with `a·p − b ≤ tol` count as inside).
fn clip(poly: &[[f64; 2]], a: [f64; 2], b: f64, tol: f64) -> Vec<[f64; 2]> {
    let n = poly.len();
    let mut out = Vec::with_capacity(n + 1);
    for i in 0..n {
        let p = poly[i];
        let q = poly[(i + 1) % n];
        let dp = a[0] * p[0] + a[1] * p[1] - b;
        let dq = a[0] * q[0] + a[1] * q[1] - b;
        let pin = dp <= tol;
        let qin = dq <= tol;
        if pin {
            out.push(p);
        }
        if pin != qin {
            // The crossing of the plane d = 0 along p→q, clamped onto the segment.
            let t = if dp != dq {
                (dp / (dp - dq)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
    }
    out
}

/// Vertices of a bounded system inside the box `[lower, upper]` (2D or 3D).
fn vertices(h: &Halfspaces, lower: &[f64], upper: &[f64]) -> Vec<Vec<f64>> {
    let d = h.dim();
    let ext: f64 = lower
        .iter()
        .zip(upper)
        .map(|(l, u)| (u - l) * (u - l))
        .sum::<f64>()
        .sqrt();
    let mag = lower
        .iter()
        .chain(upper)
        .fold(0.0f64, |m, c| m.max(c.abs()));
    // Points within `tol` of a row's plane are kept without being cut. This must stay at
    // rounding level: a vertex kept 1e-12 outside made separations of 1e-12 uncertifiable.
    let tol = 1e-15 * (ext + mag);
    // Pad the box so that clipping by the rows, not by the box, makes every vertex.
    let pad = 0.01 * ext + tol;
    let mut out: Vec<Vec<f64>> = Vec::new();
    let push = |p: Vec<f64>, out: &mut Vec<Vec<f64>>| {
        let near = out.iter().any(|q| {
            q.iter()
                .zip(&p)
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
                <= 1e-12 * (ext + mag)
        });
        if !near && p.iter().all(|c| c.is_finite()) {
            out.push(p);
        }
    };
    if d == 2 {
        let (l0, l1, u0, u1) = (
            lower[0] - pad,
            lower[1] - pad,
            upper[0] + pad,
            upper[1] + pad,
        );
        let mut poly = vec![[l0, l1], [u0, l1], [u0, u1], [l0, u1]];
        for i in 0..h.len() {
            let nl = h.normal_length(i);
            let n = h.normal(i);
            poly = clip(&poly, [n[0] / nl, n[1] / nl], h.offset(i) / nl, tol);
            if poly.is_empty() {
                break;
            }
        }
        for p in poly {
            push(p.to_vec(), &mut out);
        }
        return out;
    }
    if d != 3 {
        return out;
    }
    let centre: Vec<f64> = lower
        .iter()
        .zip(upper)
        .map(|(l, u)| 0.5 * (l + u))
        .collect();
    let half = 0.5 * ext + pad;
    for f in 0..h.len() {
        let nl = h.normal_length(f);
        let n: Vec<f64> = h.normal(f).iter().map(|c| c / nl).collect();
        let o = h.offset(f) / nl;
        let (u, v) = plane_basis(&n);
        // The plane point nearest the box centre, and the square about it in (u, v).
        let dc = crate::ndim::dot(&n, &centre) - o;
        if dc.abs() > half + tol {
            continue;
        }
        let p0: Vec<f64> = centre.iter().zip(&n).map(|(c, ni)| c - dc * ni).collect();
        let mut poly = vec![[-half, -half], [half, -half], [half, half], [-half, half]];
        for j in 0..h.len() {
            if j == f {
                continue;
            }
            let mj = h.normal_length(j);
            let nj: Vec<f64> = h.normal(j).iter().map(|c| c / mj).collect();
            let a = [crate::ndim::dot(&nj, &u), crate::ndim::dot(&nj, &v)];
            let b = h.offset(j) / mj - crate::ndim::dot(&nj, &p0);
            poly = clip(&poly, a, b, tol);
            if poly.is_empty() {
                break;
            }
        }
        for q in poly {
            let p: Vec<f64> = (0..3).map(|k| p0[k] + q[0] * u[k] + q[1] * v[k]).collect();
            push(p, &mut out);
        }
    }
    out
}

/// An orthonormal basis of the plane orthogonal to the unit 3-vector `n`.
fn plane_basis(n: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let nv = glam::DVec3::new(n[0], n[1], n[2]);
    let u = nv.any_orthonormal_vector();
    let v = nv.cross(u);
    (u.to_array().to_vec(), v.to_array().to_vec())
}
