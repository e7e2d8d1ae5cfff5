//! Bounded half-space intersections as shapes.
//!
//! [`BoundedHalfspaces`]: a 2D/3D system ([`Halfspaces`]) checked to be non-empty and bounded,
//! with its vertices enumerated once at construction, so that its support function is a scan of
//! those vertices (an internal [`Points`]). Enumeration is chosen over an LP per support call
//! because GJK asks for tens of support points per query and a scan of k vertices is far cheaper
//! than a Seidel LP over m rows each time; the price is the construction cost below.
//!
//! Construction: 2d Seidel LPs (maximise ±eⱼ·x, [`crate::math::seidel_lp`]) give the bounding
//! box and detect an empty or unbounded set; then every facet is cut out of a square in its plane
//! by the other rows (Sutherland–Hodgman clipping, O(m·k) per facet), and the union of the facet
//! polygons' corners is the vertex set (in 2D the bounding box itself is clipped). Cost O(m²·k)
//! for m rows and k vertices per facet. Rows that touch the set only at a vertex or an edge, and
//! redundant rows, contribute degenerate or empty polygons, which is harmless.
//!
//! Failure modes: an empty or unbounded set is an [`InputError`] naming `halfspaces` (with the
//! direction in which it is unbounded); a dimension other than the shape's names `normals`.

use super::{Points, SupportMap};
use crate::error::{InputError, Problem};
use crate::math::halfspaces::Halfspaces;
use crate::math::seidel_lp as seidel;
use crate::math::vector::Vector;

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
        let opts = seidel::SeidelOptions::default();
        let mut lower = vec![0.0; d];
        let mut upper = vec![0.0; d];
        for axis in 0..d {
            for sign in [1.0, -1.0] {
                let mut c = vec![0.0; d];
                c[axis] = sign;
                let r = seidel::solve(&halfspaces, &c, &opts)?;
                match r.outcome {
                    seidel::LpOutcome::Optimal { x, .. } => {
                        if sign > 0.0 {
                            upper[axis] = x[axis];
                        } else {
                            lower[axis] = x[axis];
                        }
                    }
                    seidel::LpOutcome::Infeasible { .. } => {
                        return Err(InputError::new(
                            "halfspaces",
                            Problem::Invalid(
                                "the intersection of the half-spaces is empty (infeasible); \
                                 a support function needs a non-empty set"
                                    .into(),
                            ),
                        ))
                    }
                    seidel::LpOutcome::Unbounded { .. } => {
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

    /// The half-space system as validated (rows not normalised, redundant rows kept).
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
        let dc = crate::math::slice::dot(&n, &centre) - o;
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
            let a = [
                crate::math::slice::dot(&nj, &u),
                crate::math::slice::dot(&nj, &v),
            ];
            let b = h.offset(j) / mj - crate::math::slice::dot(&nj, &p0);
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
