//! `ConvexPolygon`: a convex polygon in 2D with its vertex order kept (for SAT and contact
//! clipping in later issues).
//!
//! Either winding is accepted and stored counter-clockwise. Collinear and repeated vertices are
//! allowed; a reflex turn, or a boundary that winds around more than once (a star), is
//! rejected with `Problem::NotConvex`. Support is the linear scan of [`Points`]; O(n).

use super::{Points, Primitive, SupportMap};
use crate::error::{InputError, Problem};
use glam::DVec2;

/// A closed convex polygon in 2D (its interior included), vertices stored counter-clockwise
/// in its local frame.
///
/// ```
/// use convexity::{ConvexPolygon, DVec2, Problem};
///
/// // Clockwise input is accepted and stored counter-clockwise.
/// let sq = ConvexPolygon::new(&[DVec2::ZERO, DVec2::Y, DVec2::ONE, DVec2::X])?;
/// assert_eq!(sq.vertices(), [DVec2::X, DVec2::ONE, DVec2::Y, DVec2::ZERO]);
/// // An arrowhead turns the wrong way at vertex 2.
/// let arrow = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(1.0, 0.5), DVec2::new(1.0, 2.0)];
/// assert_eq!(ConvexPolygon::new(&arrow).unwrap_err().problem, Problem::NotConvex(2));
/// # Ok::<(), convexity::InputError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ConvexPolygon {
    points: Points<DVec2>,
}

impl ConvexPolygon {
    /// A polygon from its vertices in order, either winding. Collinear and repeated vertices
    /// are allowed. Errors (field `points`): empty, a non-finite coordinate
    /// (`points[i][k]`), a reflex turn ([`Problem::NotConvex`] with the vertex index) or a
    /// boundary winding around more than once ([`Problem::Invalid`]).
    pub fn new(vertices: &[DVec2]) -> Result<Self, InputError> {
        let pts = Points::new(vertices)?;
        let scale = pts.size().max(f64::MIN_POSITIVE);
        // The turns are checked on the vertices with consecutive repeats removed (cyclically):
        // a repeated vertex makes a zero-length edge, whose turn is zero, and so hid a reflex
        // turn between the edges on either side of it (fuzzing found a 52° right turn behind
        // a doubled vertex, accepted, and the closed forms answered for the wrong shape).
        let mut distinct: Vec<DVec2> = Vec::with_capacity(vertices.len());
        let mut index: Vec<usize> = Vec::with_capacity(vertices.len());
        for (i, &v) in vertices.iter().enumerate() {
            if distinct.last() != Some(&v) {
                distinct.push(v);
                index.push(i);
            }
        }
        while distinct.len() > 1 && distinct.first() == distinct.last() {
            distinct.pop();
            index.pop();
        }
        let check = &distinct[..];
        let n = check.len();
        // Signed area decides the winding; a reflex turn has the opposite sign beyond rounding.
        let area2: f64 = (0..n).map(|i| check[i].perp_dot(check[(i + 1) % n])).sum();
        let sign = if area2 < 0.0 { -1.0 } else { 1.0 };
        let tol = 1e-12 * scale * scale;
        let mut turning = 0.0;
        for i in 0..n {
            let p = check[(i + n - 1) % n];
            let q = check[i];
            let r = check[(i + 1) % n];
            let (e0, e1) = (q - p, r - q);
            let cross = sign * e0.perp_dot(e1);
            if cross < -tol {
                return Err(InputError::new("points", Problem::NotConvex(index[i])));
            }
            if e0.length_squared() > 0.0 && e1.length_squared() > 0.0 {
                turning += (sign * e0.perp_dot(e1)).atan2(e0.dot(e1)).abs();
            }
        }
        if n >= 3 && turning > 2.0 * core::f64::consts::PI + 1e-6 {
            return Err(InputError::new(
                "points",
                Problem::Invalid("polygon winds around more than once".into()),
            ));
        }
        let ccw: Vec<DVec2> = if sign < 0.0 {
            vertices.iter().rev().copied().collect()
        } else {
            vertices.to_vec()
        };
        Ok(ConvexPolygon {
            points: Points::new(&ccw)?,
        })
    }

    /// Vertices in counter-clockwise order.
    pub fn vertices(&self) -> &[DVec2] {
        self.points.points()
    }

    /// The vertices as a point-hull shape (same support function).
    pub fn as_points(&self) -> &Points<DVec2> {
        &self.points
    }
}

impl SupportMap<DVec2> for ConvexPolygon {
    #[inline]
    fn core_support(&self, dir: DVec2) -> DVec2 {
        self.points.core_support(dir)
    }
    fn center(&self) -> DVec2 {
        self.points.center()
    }
    fn size(&self) -> f64 {
        self.points.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.points.bounding_radius()
    }
    #[inline]
    fn primitive(&self) -> Primitive<'_, DVec2> {
        Primitive::Polygon {
            vertices: self.points.points(),
            radius: 0.0,
        }
    }
}
