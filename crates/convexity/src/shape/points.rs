//! `Points`: the convex hull of a finite point set, represented by its points.
//!
//! The hull is never built; the support function scans every point (O(n) per call). Points are
//! also stored structure-of-arrays in chunks of four (`V::Lanes`), padded with copies of the
//! last point, so the scan of a large set is four independent lanes of multiply-add and
//! compare-select that the compiler vectorises. The `support` benchmark decides which scan runs:
//! the plain array-of-structures loop up to 64 points, the chunked one beyond.
//!
//! Preconditions: at least one point, all coordinates finite (checked by the constructors).
//! Duplicates, collinear and coplanar sets are all valid hulls.

use super::SupportMap;
use crate::error::{InputError, Problem};
use crate::math::vector::Vector;

/// The convex hull of a finite, non-empty point set (2D or 3D), as a closed shape in its local
/// frame. Its support function scans the points; the hull itself is never built. For the
/// faces, use [`crate::hull`].
///
/// ```
/// use convexity::{DVec3, Points};
///
/// // A tetrahedron; the duplicate corner is harmless.
/// let tet = Points::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::Z])?;
/// assert_eq!(tet.len(), 5);
/// // An empty set is rejected, naming the field.
/// assert_eq!(Points::<DVec3>::new(&[]).unwrap_err().field, "points");
/// # Ok::<(), convexity::InputError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Points<V: Vector> {
    points: Vec<V>,
    lanes: Vec<V::Lanes>,
    center: V,
    size: f64,
    radius: f64,
}

impl<V: Vector> Points<V> {
    /// A hull from its points. Errors on an empty set or a non-finite coordinate, naming
    /// `points[i][k]`.
    pub fn new(points: &[V]) -> Result<Self, InputError> {
        if points.is_empty() {
            return Err(InputError::new("points", Problem::Empty));
        }
        for (i, p) in points.iter().enumerate() {
            if !p.is_finite() || p.max_abs() > crate::error::MAX_MAGNITUDE {
                crate::math::vector::finite_vec(&format!("points[{i}]"), *p)?;
            }
        }
        // The vertex centroid lies in the hull (the bounding-box centre need not: for the
        // triangle X, Y, Z it is 0.29 outside), and `center` promises a point of the shape.
        let mut sum = V::ZERO;
        for p in points {
            sum += *p - points[0];
        }
        let center = points[0] + sum * (1.0 / points.len() as f64);
        let size = points
            .iter()
            .map(|p| (*p - center).length())
            .fold(0.0, f64::max);
        let radius = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        let last = points[points.len() - 1];
        let lanes = points
            .chunks(4)
            .map(|c| {
                let mut q = [last; 4];
                q[..c.len()].copy_from_slice(c);
                V::pack(q)
            })
            .collect();
        Ok(Points {
            points: points.to_vec(),
            lanes,
            center,
            size,
            radius,
        })
    }

    /// A hull from rows of coordinates, as read from JSON or CSV. Every row must have `V::DIM`
    /// coordinates; the error names the row (`points[i]`) or the coordinate (`points[i][k]`).
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Self, InputError> {
        let mut pts = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            let v = V::from_slice(r).ok_or_else(|| {
                InputError::new(
                    format!("points[{i}]"),
                    Problem::DimensionMismatch {
                        expected: V::DIM,
                        found: r.len(),
                    },
                )
            })?;
            pts.push(v);
        }
        Self::new(&pts)
    }

    /// The points as given (local frame, duplicates kept).
    pub fn points(&self) -> &[V] {
        &self.points
    }

    /// Number of points (at least 1; duplicates count).
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Always false: an empty set is rejected at construction.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Index of a point maximising `dir·x` (the first of the lane-wise maxima; ties keep the
    /// lowest chunk within each lane).
    #[inline]
    pub fn support_index(&self, dir: V) -> usize {
        // Each chunk of four is reduced to its maximum (vertical multiply-adds, then two
        // compare-selects that compile to `maxpd`); only the best chunk index is carried, through
        // a branch that is rarely taken once a good candidate is found. The winning lane is
        // resolved once at the end by recomputing that chunk's four dot products (bit-identical).
        let mut best = f64::NEG_INFINITY;
        let mut best_chunk = 0;
        for (c, lane) in self.lanes.iter().enumerate() {
            let d = V::dot4(lane, dir);
            let m01 = if d[0] > d[1] { d[0] } else { d[1] };
            let m23 = if d[2] > d[3] { d[2] } else { d[3] };
            let m = if m01 > m23 { m01 } else { m23 };
            if m > best {
                best = m;
                best_chunk = c;
            }
        }
        let d = match self.lanes.get(best_chunk) {
            Some(lane) => V::dot4(lane, dir),
            None => return 0,
        };
        let mut k = 0;
        for j in 1..4 {
            if d[j] > d[k] {
                k = j;
            }
        }
        (best_chunk * 4 + k).min(self.points.len() - 1)
    }

    /// The array-of-structures scan: faster for small sets (see `AOS_MAX_POINTS`), and the
    /// layout benchmark's reference.
    pub fn support_index_aos(&self, dir: V) -> usize {
        let mut best = f64::NEG_INFINITY;
        let mut idx = 0;
        for (i, p) in self.points.iter().enumerate() {
            let d = p.dot(dir);
            if d > best {
                best = d;
                idx = i;
            }
        }
        idx
    }
}

/// Up to this many points the plain array-of-structures scan is faster: `bench support`
/// measured AoS/SoA at 0.56× for 8 points and 0.79× for 32, 1.20× for 128 and 1.35× for 1024.
const AOS_MAX_POINTS: usize = 64;
// A branch-free lane scan (per-lane running maximum by compare-select) for sets of at most
// 16 points was tried: callgrind +7% instructions per hull8 distance query, wall time 5–25%
// slower than this scan in `profile_driver`; not kept.

impl<V: Vector> SupportMap<V> for Points<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        let i = if self.points.len() <= AOS_MAX_POINTS {
            self.support_index_aos(dir)
        } else {
            self.support_index(dir)
        };
        self.points[i]
    }
    fn center(&self) -> V {
        self.center
    }
    fn size(&self) -> f64 {
        self.size
    }
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
}
