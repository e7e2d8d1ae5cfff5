//! Time of impact of two moving bodies: picks the method that answers exactly the motion given.
//!
//! * [`ToiMethod::VertexEdgeQuartic`]: some body accelerates, both are polygonal 2D shapes and
//!   neither rotates. Every vertex moves on the parabola `x₀ + v t + ½ a t²`; the first contact
//!   of two convex polygons is a vertex of one on an edge of the other, so the answer is the
//!   earliest root over all vertex–edge pairs (both ways) of the quartic of
//!   [`vertex_edge_toi`], after a GJK test at `t = 0` for initial overlap.
//!   Cost `O(n·m)` quartic solves for hulls of `n` and `m` vertices.
//! * [`ToiMethod::SweptRayCast`]: no rotation, no acceleration: [`swept_toi`] (GJK ray cast on
//!   the Minkowski difference), exact for translation.
//! * [`ToiMethod::ConservativeAdvancement`]: some body rotates:
//!   [`conservative_advancement`] (Mirtich 1996).
//!
//! Failure mode, by design: an acceleration that no method here can honour (a curved shape,
//! a rotating body) is an error naming the `acceleration` field. The dispatcher never
//! answers a different question (constant velocity) in its place. 3D bodies carry no
//! acceleration at all.

use super::{
    conservative_advancement, swept_toi, vertex_edge_toi, AdvancementOptions, Kinematic2, Motion,
    SweptOptions, TimeOfImpact,
};
use crate::error::{InputError, Problem};
use crate::gjk;
use crate::math::hull2d::hull2d;
use crate::math::pose::{Pose2, Pose3};
use crate::shape::{Polytope, Shape2, Shape3};
use glam::{DVec2, DVec3};

/// The method that produced a [`ToiAnswer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiMethod {
    /// Vertex–edge quartics (constant acceleration, polygonal, non-rotating 2D bodies).
    VertexEdgeQuartic,
    /// GJK ray cast on the Minkowski difference (translation only).
    SweptRayCast,
    /// Conservative advancement (rotation).
    ConservativeAdvancement,
}

impl ToiMethod {
    /// The method's name in reports (`vertex_edge_quartic`, `swept_ray_cast`,
    /// `conservative_advancement`).
    pub fn name(self) -> &'static str {
        match self {
            ToiMethod::VertexEdgeQuartic => "vertex_edge_quartic",
            ToiMethod::SweptRayCast => "swept_ray_cast",
            ToiMethod::ConservativeAdvancement => "conservative_advancement",
        }
    }
}

/// A time-of-impact answer with the method that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiAnswer<V> {
    /// Which method answered.
    pub method: ToiMethod,
    /// Its answer.
    pub toi: TimeOfImpact<V>,
}

/// A moving 2D body: a shape at `pose`, moving with constant `velocity`, `angular_velocity`
/// (radians per unit time about the body origin) and constant linear `acceleration`.
#[derive(Clone, Copy, Debug)]
pub struct Body2<'s> {
    /// The shape, in body coordinates.
    pub shape: &'s Shape2,
    /// The pose at `t = 0`.
    pub pose: Pose2,
    /// Linear velocity of the body origin.
    pub velocity: DVec2,
    /// Angular velocity in radians per unit time.
    pub angular_velocity: f64,
    /// Constant linear acceleration.
    pub acceleration: DVec2,
}

/// A moving 3D body: a shape at `pose` with constant `velocity` and `angular_velocity`
/// (axis × rate, about the body origin).
#[derive(Clone, Copy, Debug)]
pub struct Body3<'s> {
    /// The shape, in body coordinates.
    pub shape: &'s Shape3,
    /// The pose at `t = 0`.
    pub pose: Pose3,
    /// Linear velocity of the body origin.
    pub velocity: DVec3,
    /// Angular velocity (axis × rate).
    pub angular_velocity: DVec3,
}

/// Polygonal 2D shapes: the convex hull of the shape's vertices in the world frame, CCW.
fn world_hull(shape: &Shape2, pose: &Pose2) -> Option<Vec<DVec2>> {
    let v: Vec<DVec2> = shape
        .vertex_set()?
        .into_iter()
        .map(|p| pose.transform_point(p))
        .collect();
    let hull: Vec<DVec2> = hull2d(&v)
        .iter()
        .filter_map(|&i| v.get(i).copied())
        .collect();
    (!hull.is_empty()).then_some(hull)
}

/// Edges of a CCW hull (one degenerate edge for a single point, one for a segment).
fn hull_edges(h: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    match h.len() {
        0 => Vec::new(),
        1 => vec![(h[0], h[0])],
        2 => vec![(h[0], h[1])],
        n => (0..n).map(|i| (h[i], h[(i + 1) % n])).collect(),
    }
}

/// The earliest vertex–edge contact of two CCW hulls moving on parabolas (both directions:
/// vertices of B on edges of A, then vertices of A on edges of B with the normal flipped so
/// that it points A → B). `Separated` when no contact happens in `[0, h]`.
pub fn quartic_toi(
    (ha, va, aa): (&[DVec2], DVec2, DVec2),
    (hb, vb, ab): (&[DVec2], DVec2, DVec2),
    h: f64,
) -> Result<TimeOfImpact<DVec2>, InputError> {
    let mut best: Option<TimeOfImpact<DVec2>> = None;
    let mut earliest = |from: &[DVec2], vf, af, on: &[DVec2], vo, ao, flip: bool| {
        for (p, q) in hull_edges(on) {
            let (kp, kq) = (
                Kinematic2::with_acceleration(p, vo, ao),
                Kinematic2::with_acceleration(q, vo, ao),
            );
            for &x in from {
                let r = vertex_edge_toi(&Kinematic2::with_acceleration(x, vf, af), &kp, &kq, h)?;
                if let TimeOfImpact::Hit {
                    toi,
                    normal,
                    points,
                } = r
                {
                    if best.and_then(|b| b.toi()).is_none_or(|t| toi < t) {
                        let normal = if flip { -normal } else { normal };
                        best = Some(TimeOfImpact::Hit {
                            toi,
                            normal,
                            points,
                        });
                    }
                }
            }
        }
        Ok::<(), InputError>(())
    };
    earliest(hb, vb, ab, ha, va, aa, false)?;
    earliest(ha, va, aa, hb, vb, ab, true)?;
    Ok(best.unwrap_or(TimeOfImpact::Separated))
}

/// The time of impact of two 2D bodies over `[0, h]`.
///
/// Errors: the solvers' input errors, and an acceleration that cannot be honoured (a curved
/// shape or a rotating body), reported on the field `acceleration`.
pub fn toi2(a: &Body2, b: &Body2, h: f64) -> Result<ToiAnswer<DVec2>, InputError> {
    let accelerates = a.acceleration != DVec2::ZERO || b.acceleration != DVec2::ZERO;
    let rotates = a.angular_velocity != 0.0 || b.angular_velocity != 0.0;
    if accelerates {
        if rotates {
            return Err(InputError::new(
                "acceleration",
                Problem::Invalid(
                    "cannot be honoured for a rotating body (constant acceleration is solved \
                     exactly only for non-rotating polygonal 2D bodies); remove the angular \
                     velocity or the acceleration"
                        .into(),
                ),
            ));
        }
        let (Some(ha), Some(hb)) = (world_hull(a.shape, &a.pose), world_hull(b.shape, &b.pose))
        else {
            let curved = if a.shape.vertex_set().is_none() {
                a.shape.kind()
            } else {
                b.shape.kind()
            };
            return Err(InputError::new(
                "acceleration",
                Problem::Invalid(format!(
                    "cannot be honoured for a curved shape (a {curved}): constant acceleration \
                     is solved exactly only for polygonal 2D bodies; approximate the shape by a \
                     polygon or remove the acceleration"
                )),
            ));
        };
        let r = gjk::intersects(
            a.shape,
            &a.pose,
            b.shape,
            &b.pose,
            &gjk::Options::default(),
            None,
        );
        let toi = if r.intersecting() == Some(true) {
            TimeOfImpact::InitiallyOverlapping
        } else {
            quartic_toi(
                (&ha, a.velocity, a.acceleration),
                (&hb, b.velocity, b.acceleration),
                h,
            )?
        };
        return Ok(ToiAnswer {
            method: ToiMethod::VertexEdgeQuartic,
            toi,
        });
    }
    if rotates {
        let ma = Motion::new(a.pose, a.velocity, a.angular_velocity);
        let mb = Motion::new(b.pose, b.velocity, b.angular_velocity);
        let opts = AdvancementOptions::default();
        let toi = conservative_advancement(a.shape, &ma, b.shape, &mb, h, &opts)?;
        return Ok(ToiAnswer {
            method: ToiMethod::ConservativeAdvancement,
            toi,
        });
    }
    let opts = SweptOptions::default();
    let toi = swept_toi(
        a.shape, &a.pose, a.velocity, b.shape, &b.pose, b.velocity, h, &opts,
    )?;
    Ok(ToiAnswer {
        method: ToiMethod::SweptRayCast,
        toi,
    })
}

/// The time of impact of two 3D bodies over `[0, h]`: conservative advancement when some body
/// rotates, the swept ray cast otherwise.
pub fn toi3(a: &Body3, b: &Body3, h: f64) -> Result<ToiAnswer<DVec3>, InputError> {
    if a.angular_velocity != DVec3::ZERO || b.angular_velocity != DVec3::ZERO {
        let ma = Motion::new(a.pose, a.velocity, a.angular_velocity);
        let mb = Motion::new(b.pose, b.velocity, b.angular_velocity);
        let opts = AdvancementOptions::default();
        let toi = conservative_advancement(a.shape, &ma, b.shape, &mb, h, &opts)?;
        return Ok(ToiAnswer {
            method: ToiMethod::ConservativeAdvancement,
            toi,
        });
    }
    let opts = SweptOptions::default();
    let toi = swept_toi(
        a.shape, &a.pose, a.velocity, b.shape, &b.pose, b.velocity, h, &opts,
    )?;
    Ok(ToiAnswer {
        method: ToiMethod::SweptRayCast,
        toi,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Ball, ConvexPolygon, Cuboid};

    fn still<'s>(shape: &'s Shape2, at: DVec2) -> Body2<'s> {
        Body2 {
            shape,
            pose: Pose2::new(at, crate::math::vector::Rot2::from_angle(0.0)).unwrap(),
            velocity: DVec2::ZERO,
            angular_velocity: 0.0,
            acceleration: DVec2::ZERO,
        }
    }

    #[test]
    fn accelerating_triangle_lands_on_the_ground_at_the_analytic_time() {
        // Apex-down triangle dropped from y = 2 (lowest vertex at y = 2) with a = -4: lands
        // on the ground's top face (y = 0) when 2 - 2 t² = 0, t = 1.
        let ground = Shape2::Rect(Cuboid::new(DVec2::new(5.0, 0.5)).unwrap());
        let tri = Shape2::Polygon(
            ConvexPolygon::new(&[
                DVec2::new(0.0, 0.0),
                DVec2::new(0.5, 1.0),
                DVec2::new(-0.5, 1.0),
            ])
            .unwrap(),
        );
        let g = still(&ground, DVec2::new(0.0, -0.5));
        let mut t = still(&tri, DVec2::new(0.0, 2.0));
        t.acceleration = DVec2::new(0.0, -4.0);
        let ans = toi2(&g, &t, 2.0).unwrap();
        assert_eq!(ans.method, ToiMethod::VertexEdgeQuartic);
        let toi = ans.toi.toi().unwrap();
        assert!((toi - 1.0).abs() < 1e-9, "{toi}");
    }

    #[test]
    fn acceleration_on_a_curved_shape_is_refused_not_ignored() {
        let ground = Shape2::Rect(Cuboid::new(DVec2::new(5.0, 0.5)).unwrap());
        let ball = Shape2::Circle(Ball::new(0.5).unwrap());
        let g = still(&ground, DVec2::new(0.0, -0.5));
        let mut b = still(&ball, DVec2::new(0.0, 3.0));
        b.velocity = DVec2::new(0.0, -1.0);
        b.acceleration = DVec2::new(0.0, -4.0);
        let e = toi2(&g, &b, 2.0).unwrap_err();
        assert_eq!(e.field, "acceleration");
        assert!(e.to_string().contains("curved"), "{e}");
        // A rotating accelerating body is refused too.
        b.shape = &ground;
        b.angular_velocity = 1.0;
        let e = toi2(&g, &b, 2.0).unwrap_err();
        assert!(e.to_string().contains("rotating"), "{e}");
    }
}
