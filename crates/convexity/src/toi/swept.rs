//! Swept GJK for translation: "did they collide during the step", and when.
//!
//! A convex shape translating by `d` sweeps `conv(S ∪ (S + d))`, whose support function is
//! `max(s(u), s(u) + d)` in direction `u` ([`Swept`]). In the frame moving with A, B translates
//! by `(v_B − v_A) h`, so A and B collide during the step exactly when A meets the swept B:
//! one GJK boolean query with its certificate ([`swept_intersects`]; van den Bergen,
//! *Collision Detection in Interactive 3D Environments*, 2003, §5.2).
//!
//! The first contact time ([`swept_toi`]) is GJK ray casting on the Minkowski difference
//! `A − B` along the relative translation, run as conservative advancement (van den Bergen
//! 2004, "Ray casting against general convex objects", and Mirtich 1996 §2.3 for the bound):
//! with the distance `d(t)` and the unit normal `n` from A to B at time `t`, the distance of
//! two translating convex sets is a convex function of `t` whose slope at `t` is
//! `n · (v_B − v_A)`, so `t + d(t) / (n · (v_A − v_B))` never passes the contact; when the
//! closing speed `n · (v_A − v_B)` is ≤ 0 the distance never decreases and the step ends
//! `Separated`. Vertex–face contacts converge in one or two steps; edge–edge and curved ones
//! linearly.
//!
//! Precision: a hit is declared when GJK's distance is within the tolerance (default
//! `max(1e-9 × (size_A + size_B), GJK's touch tolerance)`), so the reported time is early by at
//! most `tolerance / closing speed`, never late. Complexity: O(k) GJK queries, `k ≤
//! max_iterations` (warm-started from each other).

use super::TimeOfImpact;
use crate::error::{non_negative, InputError};
use crate::gjk::{self, Intersection};
use crate::math::pose::Pose;
use crate::math::vector::finite_vec;
use crate::math::vector::Vector;
use crate::shape::SupportMap;
use crate::verdict::Verdict;

/// The hull of a shape and its copy translated by `displacement` (in the shape's own frame).
#[derive(Clone, Copy, Debug)]
pub struct Swept<'s, V, S: ?Sized> {
    /// The shape at the start of the step.
    pub shape: &'s S,
    /// The translation over the step, in the shape's own frame (length units, not a velocity).
    pub displacement: V,
}

impl<'s, V: Vector, S: SupportMap<V> + ?Sized> Swept<'s, V, S> {
    /// The hull swept by `shape` translating by `displacement` (shape's own frame).
    pub fn new(shape: &'s S, displacement: V) -> Self {
        Swept {
            shape,
            displacement,
        }
    }
}

impl<V: Vector, S: SupportMap<V> + ?Sized> SupportMap<V> for Swept<'_, V, S> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        let p = self.shape.core_support(dir);
        if dir.dot(self.displacement) > 0.0 {
            p + self.displacement
        } else {
            p
        }
    }
    #[inline]
    fn core_radius(&self) -> f64 {
        self.shape.core_radius()
    }
    fn center(&self) -> V {
        self.shape.center() + self.displacement * 0.5
    }
    fn size(&self) -> f64 {
        self.shape.size() + 0.5 * self.displacement.length()
    }
    fn bounding_radius(&self) -> f64 {
        self.shape.bounding_radius() + self.displacement.length()
    }
}

/// Settings of [`swept_toi`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptOptions {
    /// Cap on the advancement steps (each one GJK distance query).
    pub max_iterations: u32,
    /// Distance at which the shapes count as touching; `None` for
    /// `max(1e-9 × (size_A + size_B), GJK's touch tolerance)`.
    pub tolerance: Option<f64>,
    /// Options of the GJK distance query run at each advancement step.
    pub gjk: gjk::GjkOptions,
}

impl Default for SweptOptions {
    fn default() -> Self {
        SweptOptions {
            max_iterations: 64,
            tolerance: None,
            gjk: gjk::GjkOptions::default(),
        }
    }
}

pub(crate) fn check_motion<V: Vector>(
    pose_a: &Pose<V>,
    vel_a: V,
    pose_b: &Pose<V>,
    vel_b: V,
    h: f64,
) -> Result<(), InputError> {
    non_negative("h", h)?;
    finite_vec("vel_a", vel_a)?;
    finite_vec("vel_b", vel_b)?;
    finite_vec("pose_a.translation(h)", pose_a.translation() + vel_a * h)?;
    finite_vec("pose_b.translation(h)", pose_b.translation() + vel_b * h)?;
    Ok(())
}

/// Whether A (translating by `vel_a`) and B (by `vel_b`) touch at some time in `[0, h]`, with
/// GJK's certificate: for `Separated`, an axis separating A (at its start pose) from the hull
/// swept by B relative to A; for `Intersecting`, a point common to both in that frame.
#[allow(clippy::too_many_arguments)]
pub fn swept_intersects<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    vel_a: V,
    b: &B,
    pose_b: &Pose<V>,
    vel_b: V,
    h: f64,
    opts: &gjk::GjkOptions,
) -> Result<Intersection<V>, InputError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    check_motion(pose_a, vel_a, pose_b, vel_b, h)?;
    let d_local = pose_b.inverse_transform_vector((vel_b - vel_a) * h);
    let swept = Swept::new(b, d_local);
    Ok(gjk::intersects(a, pose_a, &swept, pose_b, opts, None))
}

/// Default touch tolerance of the TOI queries.
pub(crate) fn default_tolerance<V, A, B>(a: &A, b: &B, gjk_tol: f64) -> f64
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    (1e-9 * (a.size() + b.size())).max(gjk_tol)
}

/// First time in `[0, h]` at which A and B, translating with constant velocities, touch.
/// See the module docs for the method and the guarantees.
#[allow(clippy::too_many_arguments)]
pub fn swept_toi<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    vel_a: V,
    b: &B,
    pose_b: &Pose<V>,
    vel_b: V,
    h: f64,
    opts: &SweptOptions,
) -> Result<TimeOfImpact<V>, InputError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    check_motion(pose_a, vel_a, pose_b, vel_b, h)?;
    let vrel = vel_b - vel_a;
    let mut cache = gjk::GjkCache::new();
    let mut t = 0.0;
    let mut last_normal: Option<V> = None;
    for _ in 0..opts.max_iterations.max(1) {
        let pa = Pose::new(pose_a.translation() + vel_a * t, pose_a.rotation())?;
        let pb = Pose::new(pose_b.translation() + vel_b * t, pose_b.rotation())?;
        let r = gjk::distance(a, &pa, b, &pb, &opts.gjk, Some(&mut cache));
        let tol = opts
            .tolerance
            .unwrap_or_else(|| default_tolerance(a, b, r.tolerance));
        if r.intersecting() == Some(true) || r.distance <= tol {
            if t == 0.0 {
                return Ok(TimeOfImpact::InitiallyOverlapping);
            }
            let normal = last_normal.unwrap_or(r.normal);
            return Ok(TimeOfImpact::Hit {
                toi: t,
                normal,
                points: [r.point_a, r.point_b],
            });
        }
        // Advance along one axis with the gap certified along that same axis: the gap of a
        // fixed axis changes at exactly `axis · v_rel`, so the shapes cannot touch before it
        // closes. (Pairing GJK's lower bound with the closing speed along its approximate
        // normal was late: far away GJK stops on a vertex–corner pair whose normal is tilted by
        // 5e-6 rad, and at 2e6 m/s the time came out 7.6e-12 late, the shapes 1.5e-5 deep;
        // issue 14.) Without a separating axis, the lower bound and the normal, as before.
        let (axis, step_dist) = match r.verdict {
            Verdict::Separated(c) => (c.axis, c.gap),
            _ if r.lower_bound > 0.0 => (r.normal, r.lower_bound),
            _ => (r.normal, r.distance),
        };
        let closing = -axis.dot(vrel);
        if !(closing > 0.0) {
            // The gap along this axis never shrinks: they never touch.
            return Ok(TimeOfImpact::Separated);
        }
        last_normal = Some(r.normal);
        let next = t + step_dist / closing;
        if next > h {
            // The distance at h is at least d(t) − closing (h − t) > 0 unless the last step
            // lands within the tolerance of h: test h itself.
            if t == h {
                return Ok(TimeOfImpact::Separated);
            }
            let pa = Pose::new(pose_a.translation() + vel_a * h, pose_a.rotation())?;
            let pb = Pose::new(pose_b.translation() + vel_b * h, pose_b.rotation())?;
            let r = gjk::distance(a, &pa, b, &pb, &opts.gjk, Some(&mut cache));
            if r.intersecting() == Some(true) || r.distance <= tol {
                return Ok(TimeOfImpact::Hit {
                    toi: h,
                    normal: last_normal.unwrap_or(r.normal),
                    points: [r.point_a, r.point_b],
                });
            }
            return Ok(TimeOfImpact::Separated);
        }
        if !(next > t) {
            // The step underflowed: the distance is at the rounding floor of t.
            return Ok(TimeOfImpact::IterationLimit { reached: t });
        }
        t = next;
    }
    Ok(TimeOfImpact::IterationLimit { reached: t })
}
