//! Vertex–edge time of impact in 2D: the first `Δt ∈ [0, h]` at which a moving vertex lies on
//! a moving edge (on its line and within the segment).
//!
//! Each point moves as `x(t) = x₀ + v t + ½ a t²`. With `e(t) = b(t) − a(t)` and
//! `q(t) = p(t) − a(t)`, the vertex is on the edge's line when `f(t) = e(t) × q(t) = 0`: a
//! product of two quadratics, so a quartic (a quadratic when all accelerations are zero, a
//! linear function when in addition the edge does not rotate). Its roots in `[0, h]` come from
//! [`roots`](super::roots) (Sturm sequences and bisection), in ascending order; the first one
//! at which `0 ≤ q·e ≤ e·e` (the vertex within the segment) is the time of impact.
//!
//! Numerics: positions are taken relative to the edge's first end point at `t = 0` and scaled
//! by the largest coefficient, and time by `h`, so the polynomial is `O(1)` on `s ∈ [0, 1]`
//! whatever the units (no overflow for inputs up to [`MAX_MAGNITUDE`]). The sign of `f(0)` is
//! decided exactly with `robust::orient2d`, so "touching at the start" is exact.
//!
//! Special cases: zero relative motion gives a constant `f` (no hit unless touching at the
//! start; no division anywhere); `f ≡ 0` (the vertex slides along the edge's line) is handled
//! by solving for the times it enters the segment (`q·e = 0` or `q·e = e·e`); a grazing
//! double root is found by bisection on `f'` and is a hit; a hit at exactly `h` is reported
//! with `toi = h`.
//!
//! Complexity: O(1) (one Sturm chain of length ≤ 5 and ≤ 4 bisections of ≤ 60 steps).
//!
//! [`MAX_MAGNITUDE`]: crate::error::MAX_MAGNITUDE

use super::roots::roots_in;
use super::TimeOfImpact;
use crate::error::{non_negative, InputError};
use crate::math::vector::finite_vec;
use crate::verdict::Status;
use glam::DVec2;

/// A point's motion over the step: `x(t) = position + velocity t + ½ acceleration t²`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Kinematic2 {
    /// Position at the start of the step (t = 0).
    pub position: DVec2,
    /// Velocity at t = 0.
    pub velocity: DVec2,
    /// Constant acceleration over the step.
    pub acceleration: DVec2,
}

impl Kinematic2 {
    /// Constant velocity.
    pub fn new(position: DVec2, velocity: DVec2) -> Self {
        Kinematic2 {
            position,
            velocity,
            acceleration: DVec2::ZERO,
        }
    }
    /// Constant acceleration.
    pub fn with_acceleration(position: DVec2, velocity: DVec2, acceleration: DVec2) -> Self {
        Kinematic2 {
            position,
            velocity,
            acceleration,
        }
    }
    /// Position at time `t`.
    pub fn at(&self, t: f64) -> DVec2 {
        self.position + self.velocity * t + self.acceleration * (0.5 * t * t)
    }
    fn check(&self, field: &str) -> Result<(), InputError> {
        finite_vec(&format!("{field}.position"), self.position)?;
        finite_vec(&format!("{field}.velocity"), self.velocity)?;
        finite_vec(&format!("{field}.acceleration"), self.acceleration)?;
        Ok(())
    }
}

/// A quadratic vector polynomial in `s`, coefficients ascending.
type VPoly = [DVec2; 3];

fn veval(p: &VPoly, s: f64) -> DVec2 {
    (p[2] * s + p[1]) * s + p[0]
}

/// Coefficients of `x × y` for two vector quadratics (degree ≤ 4).
fn cross_poly(x: &VPoly, y: &VPoly) -> [f64; 5] {
    let mut c = [0.0; 5];
    for i in 0..3 {
        for j in 0..3 {
            c[i + j] += x[i].perp_dot(y[j]);
        }
    }
    c
}

/// Coefficients of `x · y` for two vector quadratics (degree ≤ 4).
fn dot_poly(x: &VPoly, y: &VPoly) -> [f64; 5] {
    let mut c = [0.0; 5];
    for i in 0..3 {
        for j in 0..3 {
            c[i + j] += x[i].dot(y[j]);
        }
    }
    c
}

/// The first time in `[0, h]` at which `vertex` lies on the segment `[edge_a, edge_b]`.
///
/// A is the edge's body and B the vertex's: the normal of a hit is the edge's unit normal on
/// the side where the vertex was at `t = 0`, and both contact points are the vertex's position
/// at the time of impact. Touching at `t = 0` is `InitiallyOverlapping`. Errors on a
/// non-finite or out-of-range input or a negative `h`.
pub fn vertex_edge_toi(
    vertex: &Kinematic2,
    edge_a: &Kinematic2,
    edge_b: &Kinematic2,
    h: f64,
) -> Result<TimeOfImpact<DVec2>, InputError> {
    vertex.check("vertex")?;
    edge_a.check("edge_a")?;
    edge_b.check("edge_b")?;
    non_negative("h", h)?;

    let (e, q) = match scaled_motion(vertex, edge_a, edge_b, h) {
        Ok(eq) => eq,
        Err(answer) => return Ok(answer),
    };
    let mut f = cross_poly(&e, &q);
    // Exact side of the vertex at t = 0.
    let side0 = robust::orient2d(
        coord(edge_a.position),
        coord(edge_b.position),
        coord(vertex.position),
    );
    if side0 == 0.0 {
        f[0] = 0.0;
    } else if f[0] == 0.0 || (f[0] > 0.0) != (side0 > 0.0) {
        f[0] = side0.signum() * f64::MIN_POSITIVE;
    }
    let sweep = Sweep {
        e,
        q,
        side0,
        vertex,
        h,
    };
    let roots = roots_in(&f, 1.0);
    match roots.status {
        Status::Degenerate => return Ok(TimeOfImpact::Separated),
        Status::Identical => return Ok(sweep.collinear()),
        _ => {}
    }
    for s in roots.times() {
        if let Some(p) = sweep.within(s) {
            if s == 0.0 {
                return Ok(TimeOfImpact::InitiallyOverlapping);
            }
            return Ok(sweep.hit(s, p));
        }
    }
    Ok(TimeOfImpact::Separated)
}

/// The edge vector `e(s)` and the vertex's offset `q(s)` from the edge's start, as quadratics
/// in the scaled time `s = t / h`, divided by their largest coefficient (everything O(1) and
/// finite). `Err` with the answer when everything stays at the edge's start point
/// (`InitiallyOverlapping`) or the scale is not finite (`Separated`).
fn scaled_motion(
    vertex: &Kinematic2,
    edge_a: &Kinematic2,
    edge_b: &Kinematic2,
    h: f64,
) -> Result<(VPoly, VPoly), TimeOfImpact<DVec2>> {
    let origin = edge_a.position;
    let poly = |k: &Kinematic2| -> VPoly {
        [
            k.position - origin,
            k.velocity * h,
            k.acceleration * (0.5 * h * h),
        ]
    };
    let (pa, pb, pp) = (poly(edge_a), poly(edge_b), poly(vertex));
    let mut e: VPoly = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    let mut q: VPoly = [pp[0] - pa[0], pp[1] - pa[1], pp[2] - pa[2]];
    let scale = e
        .iter()
        .chain(q.iter())
        .fold(0.0f64, |m, v| m.max(v.x.abs()).max(v.y.abs()));
    if !(scale > 0.0) || !scale.is_finite() {
        // Everything coincides with the edge's start point for the whole step (or the step
        // overflowed, which the validation bounds exclude): a degenerate touching contact.
        return Err(if scale == 0.0 {
            TimeOfImpact::InitiallyOverlapping
        } else {
            TimeOfImpact::Separated
        });
    }
    for v in e.iter_mut().chain(q.iter_mut()) {
        *v *= 1.0 / scale;
    }
    Ok((e, q))
}

/// One vertex–edge sweep in scaled time: the edge `e(s)`, the vertex offset `q(s)`, the exact
/// side of the vertex at `s = 0`.
struct Sweep<'k> {
    e: VPoly,
    q: VPoly,
    side0: f64,
    vertex: &'k Kinematic2,
    h: f64,
}

impl Sweep<'_> {
    /// The vertex's position when at scaled time `s` it lies within the segment (to a relative
    /// 1e-12), else `None`.
    fn within(&self, s: f64) -> Option<DVec2> {
        let es = veval(&self.e, s);
        let qs = veval(&self.q, s);
        let ee = es.dot(es);
        let u = qs.dot(es);
        let tol = 1e-12 * (ee + qs.length() * es.length()) + 1e-300;
        let ok = if ee > 1e-24 {
            u >= -tol && u <= ee + tol
        } else {
            qs.length() <= 1e-12
        };
        ok.then(|| {
            if s >= 1.0 {
                self.vertex.at(self.h)
            } else {
                self.vertex.at(s * self.h)
            }
        })
    }

    /// The edge's unit normal at `s`, on the side where the vertex was at `s = 0`.
    fn normal_at(&self, s: f64) -> DVec2 {
        let es = veval(&self.e, s);
        let n = DVec2::new(-es.y, es.x);
        let n = n.try_normalize().unwrap_or(DVec2::Y);
        if self.side0 < 0.0 {
            -n
        } else {
            n
        }
    }

    fn hit(&self, s: f64, p: DVec2) -> TimeOfImpact<DVec2> {
        TimeOfImpact::Hit {
            toi: if s >= 1.0 { self.h } else { s * self.h },
            normal: self.normal_at(s),
            points: [p, p],
        }
    }

    /// The vertex stays on the edge's line (or the edge is a point): the first `s` at which it
    /// is within the segment is 0 or a time at which it reaches an end point.
    fn collinear(&self) -> TimeOfImpact<DVec2> {
        if self.within(0.0).is_some() {
            return TimeOfImpact::InitiallyOverlapping;
        }
        let (e, q) = (&self.e, &self.q);
        let g0 = dot_poly(q, e);
        let ee = dot_poly(e, e);
        let mut g1 = g0;
        for (x, y) in g1.iter_mut().zip(ee) {
            *x -= y;
        }
        // |q|² = 0: the vertex meets the first end point (the only way to meet an edge that
        // has collapsed to a point for the whole step).
        let qq = dot_poly(q, q);
        let mut best: Option<f64> = None;
        for g in [g0, g1, qq] {
            let r = roots_in(&g, 1.0);
            for s in r.times() {
                if self.within(s).is_some() {
                    best = Some(best.map_or(s, |b: f64| b.min(s)));
                    break;
                }
            }
        }
        match best.and_then(|s| self.within(s).map(|p| (s, p))) {
            Some((s, p)) => self.hit(s, p),
            None => TimeOfImpact::Separated,
        }
    }
}

fn coord(p: DVec2) -> robust::Coord<f64> {
    robust::Coord { x: p.x, y: p.y }
}
