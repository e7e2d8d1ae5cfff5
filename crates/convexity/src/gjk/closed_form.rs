//! Closed forms for pairs of primitives, dispatched from the top of [`crate::gjk::distance`],
//! [`crate::gjk::intersects`] and [`crate::gjk::epa::penetration`].
//!
//! What it computes: the same results as GJK / EPA (distance, closest points, normal,
//! certificate, status, tolerance) for the pairs of [`Primitive`]s that have a closed form:
//! * two capsules (which covers ball–ball, ball–capsule, capsule–capsule, segment–segment,
//!   ball–segment and rounded segments/points, in 2D and 3D): the closest points of two
//!   segments (Ericson, *Real-Time Collision Detection*, 2005, §5.1.9), radii subtracted;
//! * a ball (a capsule whose segment is one point) against a box (§5.1.3, clamping), a
//!   triangle (§5.1.5, Voronoi regions of the triangle) or a 2D convex polygon (inside test by
//!   the edges' turn, else the nearest edge); a ball centre outside a box's core takes a
//!   shorter path with two rotations instead of four (`BallBox`: speed bench sphere–box
//!   distance 66 → 44 ns, parry 0.8× → 1.2×; boolean 60 → 41 ns, 1.1× → 1.6×);
//! * two boxes, boolean: the separating axis test on the 15 axes in 3D (4 in 2D) of
//!   Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996 (Ericson §4.4.1), stopping at the
//!   first axis that separates by more than the tolerance (face axes first; any such axis is a
//!   certificate, so the boolean needs no best axis). In 3D it runs in `gjk/obb.rs`
//!   on the rotation matrix with `|R|` precomputed and unnormalised edge axes, and finds the
//!   common point of overlapping boxes by vertex tests and edge clipping (speed bench's box
//!   set: 324 → 118–126 ns per query, parry 0.84× → 2.4–2.5×); alternating projections
//!   (clamping into one box, then the other) remain as the last try before GJK, and are the
//!   2D path's search;
//! * two boxes in 3D, distance: the best of the same 15 axes is the closest points' direction
//!   when they lie on a vertex–face or edge–edge pair; the start pair comes from the winning
//!   features, alternating projections reach the other configurations, and the answer is
//!   taken only when `|q − p|` and the separation along `q − p` agree to rounding (see
//!   `box_box_distance`; callgrind 3,405 → 1,638 instructions per query on the profile
//!   driver's box distance run, speed bench 1.02× → 2.35× parry);
//! * two boxes in 3D, penetration: the largest separation over the same 15 axes is the exact
//!   penetration depth of two polytopes (each facet normal of `A − B` is among them, and any
//!   other axis only separates less; computed by `Obb3::deepest` in `gjk/obb.rs`:
//!   callgrind 18.5 → 13.3 M Ir on the profile driver's box penetration run); the witness pair
//!   comes from the support edges (edge
//!   axes) or from the touching placement (face axes), the certificate from the same
//!   common-point search (see `box_penetration`).
//!
//! Every other pair returns `None` and the caller runs GJK / EPA, as do the cases a closed form
//! would answer less well than EPA: penetration of cores that touch or cross (other than two
//! points and a point inside a box), a box pair whose best axis separates by less than the
//! touch tolerance (the distance might still exceed it at a vertex; for the distance query,
//! less than twice the tolerance, or bounds that do not meet after the projection rounds),
//! and overlapping boxes where
//! the common-point search finds nothing (an overlap thinner than a quarter of the tolerance).
//!
//! Decisions match GJK's exactly: the touch tolerance is GJK's (`absolute_tolerance`, or
//! `max(abs_tol, rel_tol · core distance)`; the ball paths, which form no relative pose, take
//! its `|t_ab|` as `|t_b − t_a|`, equal to rounding), the verdict is intersecting when the core distance
//! minus the radii is within it (touching counts), otherwise separated with the unit axis from
//! A's closest core point to B's and the exact gap (so `verify` accepts it). Status
//! `Converged`, 1 iteration. A warm-start cache passed to the public functions is left
//! untouched (it stays valid for the GJK path).
//!
//! Preconditions: validated shapes and poses (finite). Failure modes: none reach the caller —
//! degenerate input (concentric balls, zero-length segments, zero radii, parallel segments,
//! collinear or point triangles) takes branches without division by zero, and a non-finite
//! intermediate (coordinates near the f64 limit) hands the query back to GJK.
//!
//! Complexity: O(1) per pair (O(n) for an n-gon), no allocation.

use super::epa::{EpaSpace, Options as EpaOptions, Penetration};
use super::minkowski::MinkowskiDifference;
use super::obb::{Feature, Obb3, Sat};
use super::{absolute_tolerance, common_point, Distance, Intersection, Options};
use crate::math::arr3;
use crate::math::pose::Pose;
use crate::math::vector::{Rotation, Vector};
use crate::shape::{Primitive, SupportMap};
use crate::verdict::{CommonPoint, SeparatingAxis, Status, Verdict};

/// Cores closer than this fraction of `size_A + size_B` leave penetration to EPA (the same
/// threshold as EPA's own hand-over; a tiny closest-point direction is poorly determined).
const NEAR_CONTACT: f64 = 1e-6;

/// Cores closer than this fraction of the coordinates' size have their separating axis checked
/// by support calls (see `closest`).
const NEAR_AXIS: f64 = 1e-4;

/// How far the upper and lower bounds of `box_box_distance` may differ, relative to the
/// boxes' size (beyond the rounding floor), for its answer to count as exact.
pub(crate) const BOX_DISTANCE_SLACK: f64 = 1e-13;

/// Alternating-projection rounds tried for a common point of two overlapping boxes.
const PROJECTION_ROUNDS: usize = 4;

/// The closest points of two cores in the working frame, with the radii.
#[derive(Clone, Copy, Debug)]
struct Closest<V> {
    ca: V,
    cb: V,
    /// `|cb − ca|`, the core distance.
    dist: f64,
    ra: f64,
    rb: f64,
    /// Both cores are single points (two balls).
    points: bool,
    /// A point core inside a box core: the penetration answer on the cores (unit normal A→B,
    /// core depth ≥ 0, contact points on A's and B's core).
    inside: Option<(V, f64, V, V)>,
    /// A more precise unit direction from A toward B than `cb − ca` (orthogonal to the
    /// closest features' directions), when the features give one.
    axis: Option<V>,
    /// For cores close to each other: the core gap measured along [`Closest::normal`] by the
    /// support functions (`min_B n·y − max_A n·x`), the certified gap of a separating axis.
    axis_gap: Option<f64>,
}

impl<V: Vector> Closest<V> {
    #[inline(always)]
    fn new(ca: V, cb: V, ra: f64, rb: f64) -> Self {
        Closest {
            ca,
            cb,
            dist: (cb - ca).length(),
            ra,
            rb,
            points: false,
            inside: None,
            axis: None,
            axis_gap: None,
        }
    }

    /// Unit normal from A toward B: the closest-point direction, else the inside answer's,
    /// else the first axis.
    #[inline(always)]
    fn normal(&self) -> V {
        let unit = || {
            // `dist = |cb − ca|` already: one division instead of a second square root.
            (self.dist > 0.0 && self.dist.is_finite())
                .then(|| (self.cb - self.ca) * (1.0 / self.dist))
        };
        self.axis
            .or_else(unit)
            .or(self.inside.map(|i| i.0))
            .unwrap_or(V::AXIS)
    }

    #[inline(always)]
    fn finite(&self) -> bool {
        self.ca.is_finite() && self.cb.is_finite() && self.dist.is_finite()
    }
}

/// Maps the working frame to the world: `None` when the working frame is the world.
#[derive(Clone, Copy)]
struct Frame<'p, V: Vector>(Option<&'p Pose<V>>);

impl<V: Vector> Frame<'_, V> {
    #[inline(always)]
    fn point(&self, p: V) -> V {
        self.0.map_or(p, |f| f.transform_point(p))
    }
    #[inline(always)]
    fn vector(&self, v: V) -> V {
        self.0.map_or(v, |f| f.transform_vector(v))
    }
}

/// GJK's touch verdict on exact closest points (working frame); `None` when the pair is
/// separated but the closest-point direction is too imprecise to certify it (GJK answers).
#[inline(always)]
fn verdict<V: Vector>(c: &Closest<V>, tol: f64) -> Option<Verdict<V>> {
    let rsum = c.ra + c.rb;
    let gap = c.dist - rsum;
    if gap <= tol {
        return Some(Verdict::Intersecting(CommonPoint {
            point: common_point(c.ca, c.cb, c.ra, c.rb),
        }));
    }
    // The certified gap: the exact one unless the direction was checked by support calls.
    let certified = c.axis_gap.map_or(gap, |g| g - rsum);
    (certified > 0.0).then(|| {
        Verdict::Separated(SeparatingAxis {
            axis: c.normal(),
            gap: certified.min(gap),
        })
    })
}

/// [`verdict`] in the world: the axis mapped as a vector, the common point formed from the
/// cores' closest points mapped to the world (an affine combination commutes with the rigid
/// map up to rounding; the mapped points are the ones [`world_points`] forms too).
#[inline(always)]
fn world_verdict<V: Vector>(f: Frame<'_, V>, c: &Closest<V>, tol: f64) -> Option<Verdict<V>> {
    verdict_from(
        c,
        tol,
        || (f.point(c.ca), f.point(c.cb)),
        || f.vector(c.normal()),
    )
}

/// [`verdict`] in the world from the world images of the cores' closest points and of the
/// normal `c.normal()`, formed only when the verdict needs them (a caller that has them already
/// passes them, and the result is bit-identical to [`world_verdict`]'s).
#[inline(always)]
fn verdict_from<V: Vector>(
    c: &Closest<V>,
    tol: f64,
    points: impl FnOnce() -> (V, V),
    normal: impl FnOnce() -> V,
) -> Option<Verdict<V>> {
    Some(match verdict(c, tol)? {
        Verdict::Separated(s) => Verdict::Separated(SeparatingAxis {
            axis: normal(),
            gap: s.gap,
        }),
        Verdict::Intersecting(_) => {
            let (wa, wb) = points();
            Verdict::Intersecting(CommonPoint {
                point: common_point(wa, wb, c.ra, c.rb),
            })
        }
        Verdict::Undetermined => Verdict::Undetermined,
    })
}

/// The touch verdict of two rounded points (centre, radius) whose cores are at signed gap `gap`
/// (full shapes) along the unit `axis`: a common point when `gap ≤ tol`, else the axis with the
/// gap. `pick`: the vector (common point or axis) picked without a branch (ball–ball: the
/// branch was mispredicted on half of a mix of overlapping and separated pairs, 0.50 a query
/// by callgrind branch-sim, about a third of a ball–ball query's time); otherwise a branch
/// (see `BallBox::verdict`). Both variants hold the vector at the same place, so the compiler
/// writes it once, into the result; picking between two whole verdicts instead built both on
/// the stack and copied one with 16-byte moves at whatever alignment the stack gave (see
/// "Result layout" in `crate::gjk`).
#[inline(always)]
fn touch_verdict<V: Vector>(
    (ca, ra): (V, f64),
    (cb, rb): (V, f64),
    axis: V,
    gap: f64,
    tol: f64,
    pick: bool,
) -> Verdict<V> {
    let touching = gap <= tol;
    let v = if pick {
        core::hint::select_unpredictable(touching, common_point(ca, cb, ra, rb), axis)
    } else if touching {
        common_point(ca, cb, ra, rb)
    } else {
        axis
    };
    if touching {
        Verdict::Intersecting(CommonPoint { point: v })
    } else {
        Verdict::Separated(SeparatingAxis { axis: v, gap })
    }
}

/// The full shapes' contact points and the normal in the world, from the cores' points `ca`,
/// `cb` and the unit normal `n` in the working frame: three rigid maps.
#[inline(always)]
fn world_points<V: Vector>(f: Frame<'_, V>, ca: V, cb: V, n: V, ra: f64, rb: f64) -> (V, V, V) {
    let wn = f.vector(n);
    (f.point(ca) + wn * ra, f.point(cb) - wn * rb, wn)
}

#[inline(always)]
fn verdict_to_world<V: Vector>(f: Frame<'_, V>, v: Verdict<V>) -> Verdict<V> {
    match v {
        Verdict::Separated(s) => Verdict::Separated(SeparatingAxis {
            axis: f.vector(s.axis),
            gap: s.gap,
        }),
        Verdict::Intersecting(c) => Verdict::Intersecting(CommonPoint {
            point: f.point(c.point),
        }),
        Verdict::Undetermined => Verdict::Undetermined,
    }
}

/// The closest points of the pair (primitives `pa`, `pb`), in the frame given by [`Frame`],
/// and GJK's absolute tolerance; `None` when the pair has no closed form.
#[inline(always)]
fn closest_of<'p, V, A, B>(
    pa: Primitive<'_, V>,
    pb: Primitive<'_, V>,
    a: &A,
    pose_a: &'p Pose<V>,
    b: &B,
    pose_b: &'p Pose<V>,
    opts: &Options,
) -> Option<(Closest<V>, f64, Frame<'p, V>)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if matches!(pa, Primitive::Other) || matches!(pb, Primitive::Other) || opts.max_iterations == 0
    {
        return None;
    }
    if let Some(balls) = Balls::of(pa, pb, pose_a, pose_b, opts) {
        // Two balls: in the world frame, where the centres' difference is one subtraction.
        let mut c = Closest::new(balls.ca, balls.cb, balls.ra, balls.rb);
        c.points = true;
        return Some((c, balls.abs_tol, Frame(None)));
    }
    if !has_pair(pa, pb) {
        // Decided before the relative pose is formed: a box pair's distance (GJK's) would
        // otherwise pay for it twice.
        return None;
    }
    if let Some(fast) = ball_against(pa, pb, (a, pose_a), (b, pose_b), opts) {
        return Some(fast);
    }
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let mut c = pair(pa, pb, mink.pose_ab())?;
    let abs_tol = absolute_tolerance(&mink, opts);
    // The direction of `cb − ca` carries an error of about ε·L/dist (L the size of the
    // coordinates in A's frame); projected over the shapes' extent it can break the axis
    // certificate when the cores nearly touch. There the gap along it is measured instead.
    let reach = mink.scale() + mink.pose_ab().translation().length();
    if !c.points && c.dist <= NEAR_AXIS * reach {
        let n = c.normal();
        c.axis_gap = Some(-mink.support(n).w.dot(n));
    }
    c.finite().then_some((c, abs_tol, Frame(Some(pose_a))))
}

/// A ball against a box, triangle or polygon, worked in the other shape's own frame: the
/// ball's centre goes there by one inverse rotation, and no relative pose is formed (the
/// general path composes `pose_a⁻¹ ∘ pose_b`, then maps back through `pose_a`). The tolerance
/// is GJK's, with `|t_ab| = |t_b − t_a|` (rotation-invariant). `None` when the pair is not
/// of that kind, or (triangle, polygon) the cores come within `NEAR_AXIS` of touching, where
/// the general path measures the axis's gap by support calls.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn ball_against<'p, V, A, B>(
    pa: Primitive<'_, V>,
    pb: Primitive<'_, V>,
    (a, pose_a): (&A, &'p Pose<V>),
    (b, pose_b): (&B, &'p Pose<V>),
    opts: &Options,
) -> Option<(Closest<V>, f64, Frame<'p, V>)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let capsule = |p: Primitive<'_, V>| matches!(p, Primitive::Capsule { .. });
    let (ball_is_a, (centre, radius), other) = match (as_ball(pa), as_ball(pb)) {
        (Some(x), None) if !capsule(pb) => (true, x, pb),
        (None, Some(x)) if !capsule(pa) => (false, x, pa),
        _ => return None,
    };
    let (pose_ball, pose_other) = if ball_is_a {
        (pose_a, pose_b)
    } else {
        (pose_b, pose_a)
    };
    let p = pose_other.inverse_transform_point(world_point(pose_ball, centre));
    let (q, r_other, inside, face) = point_against(other, p)?;
    let mut c = if ball_is_a {
        // The other shape's face normal points toward the ball; from A toward B it flips.
        let mut c = Closest::new(p, q, radius, r_other);
        c.axis = face.map(|n| -n);
        c.inside = inside.map(|(n, depth, foot)| (-n, depth, p, foot));
        c
    } else {
        let mut c = Closest::new(q, p, r_other, radius);
        c.axis = face;
        c.inside = inside.map(|(n, depth, foot)| (n, depth, foot, p));
        c
    };
    let scale = (a.size() + b.size()).max(f64::MIN_POSITIVE);
    // The direction `p − q` is taken in the other shape's frame, where it is as precise as
    // the local coordinates allow, not as the world offset allows: for a box, `q` clamps `p`,
    // so `p − q` is exactly zero on the unclamped coordinates and `q − p` points into the
    // box's normal cone at `q` exactly (its gap is the distance itself, however near); for a
    // triangle or polygon, `q` carries rounding of ε times the local coordinates, so within
    // `NEAR_AXIS` of those the general path answers, and beyond it the axis's gap is measured
    // from the vertices ([`vertex_gap`]).
    let (reach_a, reach_b) = (a.bounding_radius(), b.bounding_radius());
    let other_reach = if ball_is_a { reach_b } else { reach_a };
    let exact_axis = matches!(other, Primitive::Cuboid { .. });
    if !c.finite() || (!exact_axis && c.dist <= NEAR_AXIS * (scale + other_reach)) {
        return None;
    }
    c.axis_gap = vertex_gap(other, p, c.normal(), ball_is_a);
    let abs_tol = world_tolerance((a, pose_a), (b, pose_b), opts);
    Some((c, abs_tol, Frame(Some(pose_other))))
}

/// The core gap along the unit axis `n` (from A toward B) between the point `p` and a triangle
/// or polygon, from the vertices' projections (`p` and the vertices in the polygon's frame;
/// the point is A when `point_is_a`): the gap a separating axis along `n` certifies. `None`
/// for other primitives (a box's axis is exact: its closest point clamps `p`).
///
/// The closest point's direction is exact only up to which feature holds it: a foot on an
/// edge a hair from its end and the end vertex are at distances equal to rounding, and the
/// vertex's direction is off the edge's normal by that hair over the distance, which the edge
/// turns into an overlap of the claimed gap (a polygon edge 0.56 long, 2e-9 along: 2.4e-9
/// against a tolerance of 4e-11; fuzz target `closed_forms`). Measured, the gap is what the
/// axis certifies, whichever feature was taken. O(vertices).
#[inline]
fn vertex_gap<V: Vector>(prim: Primitive<'_, V>, p: V, n: V, point_is_a: bool) -> Option<f64> {
    // The least `m·(v − p)` over the vertices, `m` the axis from the point toward the shape.
    let m = if point_is_a { n } else { -n };
    let least = |vs: &[V]| vs.iter().fold(f64::INFINITY, |g, v| g.min(m.dot(*v - p)));
    match prim {
        Primitive::Triangle { v, .. } => Some(least(&v)),
        Primitive::Polygon { vertices, .. } if !vertices.is_empty() => Some(least(vertices)),
        _ => None,
    }
}

/// GJK's absolute tolerance (`MinkowskiDifference::tolerance`) formed without the relative
/// pose, for the ball paths: the option's value, else `rel · (size_A + size_B) + 4ε · (‖t_a‖₁ +
/// ‖t_b‖₁ + reach_A + |t_b − t_a| + reach_B)` (`|t_b − t_a|` is the relative pose's `|t_ab|`,
/// rotation-invariant, equal to rounding).
#[inline(always)]
fn world_tolerance<V, A, B>(
    (a, pose_a): (&A, &Pose<V>),
    (b, pose_b): (&B, &Pose<V>),
    opts: &Options,
) -> f64
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    opts.abs_tolerance.unwrap_or_else(|| {
        let (ta, tb) = (pose_a.translation(), pose_b.translation());
        let scale = (a.size() + b.size()).max(f64::MIN_POSITIVE);
        let magnitude = ta.abs_sum()
            + tb.abs_sum()
            + a.bounding_radius()
            + (tb - ta).length()
            + b.bounding_radius();
        opts.rel_tolerance * scale + 4.0 * f64::EPSILON * magnitude
    })
}

/// A ball against a box (either order) whose centre lies outside the box's core, answered in
/// the box's frame with two rotations: the centre into the box's frame, and the normal back
/// (the general path, [`ball_against`] and the world images of [`distance`], rotates four
/// times). The world image of the box's closest point is the ball's world centre moved back
/// along the normal by the core distance (equal to `pose_box · q` up to rounding, as that
/// one is to the exact point). `None` for any other pair and for a centre inside the core (the
/// general path's nearest-face answer).
struct BallBox<V> {
    /// World images of A's and B's core closest points, and the unit normal from A toward B.
    wa: V,
    wb: V,
    wn: V,
    ra: f64,
    rb: f64,
    /// The core distance (the box's core to the ball's centre), `> 0`.
    dist: f64,
    /// GJK's touch tolerance (from [`world_tolerance`], as [`ball_against`]'s).
    tol: f64,
}

impl<V: Vector> BallBox<V> {
    #[inline(always)]
    fn of<A, B>(
        pa: Primitive<'_, V>,
        pb: Primitive<'_, V>,
        (a, pose_a): (&A, &Pose<V>),
        (b, pose_b): (&B, &Pose<V>),
        opts: &Options,
    ) -> Option<Self>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let (ball_is_a, (centre, r_ball), h, r_box) = match (pa, pb) {
            (
                _,
                Primitive::Cuboid {
                    half_extents,
                    radius,
                },
            ) => (true, as_ball(pa)?, half_extents, radius),
            (
                Primitive::Cuboid {
                    half_extents,
                    radius,
                },
                _,
            ) => (false, as_ball(pb)?, half_extents, radius),
            _ => return None,
        };
        if opts.max_iterations == 0 {
            return None;
        }
        let (pose_ball, pose_box) = if ball_is_a {
            (pose_a, pose_b)
        } else {
            (pose_b, pose_a)
        };
        let wc = world_point(pose_ball, centre);
        let p = pose_box.inverse_transform_point(wc);
        // `p − q` is exactly zero on the coordinates the clamp leaves, so its direction is
        // the exact normal-cone direction at `q` however near the ball's centre is (see
        // [`ball_against`]).
        let d = p - clamp_box(p, h);
        let dist = d.length();
        if !(dist > 0.0 && dist.is_finite()) {
            return None;
        }
        let out = pose_box.transform_vector(d * (1.0 / dist));
        let wq = wc - out * dist;
        let abs_tol = world_tolerance((a, pose_a), (b, pose_b), opts);
        let tol = abs_tol.max(opts.rel_tolerance * dist);
        (abs_tol.is_finite() && wq.is_finite()).then(|| {
            if ball_is_a {
                BallBox {
                    wa: wc,
                    wb: wq,
                    wn: -out,
                    ra: r_ball,
                    rb: r_box,
                    dist,
                    tol,
                }
            } else {
                BallBox {
                    wa: wq,
                    wb: wc,
                    wn: out,
                    ra: r_box,
                    rb: r_ball,
                    dist,
                    tol,
                }
            }
        })
    }

    /// GJK's touch verdict: a common point within the tolerance, else the normal with the
    /// exact gap. By a branch for every query (picking by select, as ball–ball distance does,
    /// made LLVM branch on this type's option handling instead: 1.6 mispredictions a
    /// sphere–box distance query against 0.7).
    #[inline(always)]
    fn verdict(&self) -> Verdict<V> {
        let (wa, wb) = ((self.wa, self.ra), (self.wb, self.rb));
        let gap = self.dist - (self.ra + self.rb);
        touch_verdict(wa, wb, self.wn, gap, self.tol, false)
    }

    #[inline(always)]
    fn distance(&self) -> Distance<V> {
        let signed = self.dist - (self.ra + self.rb);
        Distance {
            status: Status::Converged,
            iterations: 1,
            distance: signed.max(0.0),
            lower_bound: signed,
            point_a: self.wa + self.wn * self.ra,
            point_b: self.wb - self.wn * self.rb,
            normal: self.wn,
            verdict: self.verdict(),
            tolerance: self.tol,
        }
    }

    /// The penetration answer of cores apart by more than `NEAR_CONTACT` (the general path's
    /// first case): depth `ra + rb − dist` (at least 0 when intersecting), exact to rounding.
    #[inline(always)]
    fn penetration(&self) -> Penetration<V> {
        let verdict = self.verdict();
        let mut depth = self.ra + self.rb - self.dist;
        if matches!(verdict, Verdict::Intersecting(_)) {
            depth = depth.max(0.0);
        }
        Penetration {
            status: Status::Converged,
            iterations: 1,
            depth,
            normal: self.wn,
            point_a: self.wa + self.wn * self.ra,
            point_b: self.wb - self.wn * self.rb,
            verdict,
            tolerance: self.tol,
            depth_lower: depth,
            depth_upper: depth,
        }
    }

    #[inline(always)]
    fn intersects(&self) -> Intersection<V> {
        Intersection {
            status: Status::Converged,
            iterations: 1,
            verdict: self.verdict(),
            tolerance: self.tol,
        }
    }
}

/// `pose · p`, skipping the rotation of the origin (a ball's centre).
#[inline(always)]
fn world_point<V: Vector>(pose: &Pose<V>, p: V) -> V {
    if p == V::ZERO {
        pose.translation()
    } else {
        pose.transform_point(p)
    }
}

/// Whether [`pair`] may have a closed form for these primitives: two capsules, or a ball
/// against anything.
#[inline(always)]
fn has_pair<V: Vector>(pa: Primitive<'_, V>, pb: Primitive<'_, V>) -> bool {
    matches!(
        (pa, pb),
        (Primitive::Capsule { .. }, Primitive::Capsule { .. })
    ) || as_ball(pa).is_some()
        || as_ball(pb).is_some()
}

/// A ball's centre and radius: a capsule whose segment is one point.
#[inline(always)]
fn as_ball<V: Vector>(p: Primitive<'_, V>) -> Option<(V, f64)> {
    match p {
        Primitive::Capsule { a, b, radius } if a == b => Some((a, radius)),
        _ => None,
    }
}

/// The closest points of two primitives in A's frame (`pose_ab` places B).
#[inline]
fn pair<V: Vector>(
    pa: Primitive<'_, V>,
    pb: Primitive<'_, V>,
    pose_ab: &Pose<V>,
) -> Option<Closest<V>> {
    match (pa, pb) {
        (
            Primitive::Capsule {
                a: a0,
                b: a1,
                radius: ra,
            },
            Primitive::Capsule {
                a: b0,
                b: b1,
                radius: rb,
            },
        ) => {
            let (b0, b1) = (pose_ab.transform_point(b0), pose_ab.transform_point(b1));
            let (s, t) = segment_segment(a0, a1, b0, b1);
            let (d1, d2) = (a1 - a0, b1 - b0);
            let (ca, cb) = (a0 + d1 * s, b0 + d2 * t);
            let mut c = Closest::new(ca, cb, ra, rb);
            c.points = a0 == a1 && b0 == b1;
            c.axis = refined_axis(cb - ca, d1, d2, s, t);
            Some(c)
        }
        (Primitive::Capsule { a, b, radius }, other) if a == b => {
            // A ball against B: work in B's frame, map back.
            let p = pose_ab.inverse_transform_point(a);
            let (q, rb, inside, face) = point_against(other, p)?;
            let mut c = Closest::new(a, pose_ab.transform_point(q), radius, rb);
            // B's face normal points toward A's point; from A toward B it flips.
            c.axis = face.map(|n| -pose_ab.transform_vector(n));
            c.inside = inside.map(|(n, depth, face)| {
                // B's face normal points out of B toward A's point; from A toward B it flips.
                (
                    -pose_ab.transform_vector(n),
                    depth,
                    a,
                    pose_ab.transform_point(face),
                )
            });
            Some(c)
        }
        (other, Primitive::Capsule { a, b, radius }) if a == b => {
            let p = pose_ab.transform_point(a);
            let (q, ra, inside, face) = point_against(other, p)?;
            let mut c = Closest::new(q, p, ra, radius);
            c.axis = face;
            c.inside = inside.map(|(n, depth, face)| (n, depth, face, p));
            Some(c)
        }
        _ => None,
    }
}

/// The closest point of a primitive's core to `p` (the primitive's frame), its radius, for a
/// point inside a box the nearest face (outward unit normal, distance, foot point), and for a
/// point over a triangle's face the face's unit normal on `p`'s side (the exact direction from
/// the closest point to `p`).
#[allow(clippy::type_complexity)]
fn point_against<V: Vector>(
    prim: Primitive<'_, V>,
    p: V,
) -> Option<(V, f64, Option<(V, f64, V)>, Option<V>)> {
    match prim {
        Primitive::Cuboid {
            half_extents,
            radius,
        } => {
            let (q, r, inside) = point_box(p, half_extents, radius);
            Some((q, r, inside, None))
        }
        Primitive::Triangle { v, radius } => {
            let (q, face) = point_triangle(p, v);
            Some((q, radius, None, face))
        }
        Primitive::Polygon { vertices, radius } if !vertices.is_empty() => {
            let (q, edge) = point_polygon(p, vertices);
            Some((q, radius, None, edge))
        }
        _ => None,
    }
}

/// `e_i`, the i-th unit vector.
#[inline]
fn unit<V: Vector>(i: usize) -> V {
    let mut c = [0.0; 3];
    c[i] = 1.0;
    V::from_slice(&c[..V::DIM]).unwrap_or(V::AXIS)
}

/// Clamps `p` into the box `[-h, h]`.
#[inline]
fn clamp_box<V: Vector>(p: V, h: V) -> V {
    let mut c = [0.0; 3];
    for (i, x) in c.iter_mut().enumerate().take(V::DIM) {
        *x = p.coord(i).clamp(-h.coord(i), h.coord(i));
    }
    V::from_slice(&c[..V::DIM]).unwrap_or(p)
}

#[allow(clippy::type_complexity)]
fn point_box<V: Vector>(p: V, h: V, radius: f64) -> (V, f64, Option<(V, f64, V)>) {
    let q = clamp_box(p, h);
    if q != p {
        return (q, radius, None);
    }
    // Inside: the nearest face (first on ties).
    let mut best = (0, f64::INFINITY);
    for i in 0..V::DIM {
        let room = h.coord(i) - p.coord(i).abs();
        if room < best.1 {
            best = (i, room);
        }
    }
    let (i, room) = best;
    let n = if p.coord(i) < 0.0 {
        -unit::<V>(i)
    } else {
        unit::<V>(i)
    };
    (q, radius, Some((n, room, p + n * room)))
}

/// The point of segment `a`–`b` closest to `p`.
#[inline]
fn point_segment<V: Vector>(p: V, a: V, b: V) -> V {
    point_segment_t(p, a, b).0
}

/// The point of segment `a`–`b` closest to `p` and its parameter `t` (`a + t·(b − a)`).
#[inline]
fn point_segment_t<V: Vector>(p: V, a: V, b: V) -> (V, f64) {
    let d = b - a;
    let dd = d.length_squared();
    if dd > 0.0 {
        let t = ((p - a).dot(d) / dd).clamp(0.0, 1.0);
        (a + d * t, t)
    } else {
        (a, 0.0)
    }
}

/// The unit direction `n ≈ diff/|diff|` made orthogonal to the segments whose closest point is
/// interior (`0 < s < 1`): for two interior points the cross product of the directions (3D),
/// otherwise one Gram–Schmidt step against the interior one. `diff = cb − ca` carries an
/// absolute error of a few ε·|coordinates|, so for nearly touching segments its direction is
/// off by ε·|coordinates|/|diff|, which the long segment turns into a violated axis; the
/// refined direction is exact to ε.
#[inline]
fn refined_axis<V: Vector>(diff: V, d1: V, d2: V, s: f64, t: f64) -> Option<V> {
    let (e1, e2) = (d1.length_squared(), d2.length_squared());
    let inner1 = s > 0.0 && s < 1.0 && e1 > 0.0;
    let inner2 = t > 0.0 && t < 1.0 && e2 > 0.0;
    let mut n = diff;
    if inner1 && inner2 {
        if let Some(x) = V::plane_normal(d1, d2).filter(|x| x.length_squared() > 1e-12 * e1 * e2) {
            n = if x.dot(diff) < 0.0 { -x } else { x };
            return n.try_normalize();
        }
    }
    if inner1 {
        n -= d1 * (n.dot(d1) / e1);
    }
    if inner2 {
        n -= d2 * (n.dot(d2) / e2);
    }
    n.try_normalize().filter(|m| m.dot(diff) > 0.0)
}

/// The closest points of segments `p1`–`q1` and `p2`–`q2` (Ericson §5.1.9): the unconstrained
/// minimiser of `|s(q1 − p1) + p1 − t(q2 − p2) − p2|²` clamped to the square, re-solving each
/// parameter after the other is clamped. Parallel (or point) segments take the branches with
/// no division by zero. Returns the parameters `(s, t)` of the closest points
/// `p1 + s(q1 − p1)` and `p2 + t(q2 − p2)`.
#[inline]
fn segment_segment<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> (f64, f64) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a <= 0.0 && e <= 0.0 {
        return (0.0, 0.0);
    }
    let (s, t);
    if a <= 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (s, t)
}

/// The point of triangle `v` closest to `p` (Ericson §5.1.5, Voronoi regions), and in the face
/// region the face's unit normal on `p`'s side. A degenerate triangle (a zero denominator) is
/// answered by its three edges.
///
/// In the face region the point is `p`'s orthogonal projection on the plane `ab × ac` rather
/// than Ericson's barycentric combination: the weights `va, vb, vc` are differences of
/// products that cancel to `|ab × ac|² = sin²θ·|ab|²|ac|²`, so their relative error is
/// ε/sin²θ, against ε/sinθ for the normal. On a thin triangle (θ ≈ 1e-3) the barycentric point
/// moved the closest-point direction by 1e-5 rad at a gap of 1e-5 (fuzz target
/// `closed_forms`). The normal is used while `sinθ > 1e-6`; below, the triangle is a segment
/// to within 1e-6 of its size and the nearest of the barycentric point and the edges' points
/// answers (exact for collinear vertices).
fn point_triangle<V: Vector>(p: V, v: [V; 3]) -> (V, Option<V>) {
    let [a, b, c] = v;
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, None);
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, None);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0 {
        let q = a + ab * (d1 / (d1 - d3));
        return (q, edge_axis(p, q, ab));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, None);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0 {
        let q = a + ac * (d2 / (d2 - d6));
        return (q, edge_axis(p, q, ac));
    }
    let va = d3 * d6 - d5 * d4;
    let (e1, e2) = (d4 - d3, d5 - d6);
    if va <= 0.0 && e1 >= 0.0 && e2 >= 0.0 && e1 + e2 > 0.0 {
        let q = b + (c - b) * (e1 / (e1 + e2));
        return (q, edge_axis(p, q, c - b));
    }
    let edges = || {
        [
            point_segment(p, a, b),
            point_segment(p, b, c),
            point_segment(p, c, a),
        ]
    };
    let sum = va + vb + vc;
    if sum > 0.0 && va >= 0.0 && vb >= 0.0 && vc >= 0.0 {
        // Face region: project on the plane while the normal is well determined.
        if let Some(n) = V::plane_normal(ab, ac) {
            let nn = n.length_squared();
            if nn > 1e-12 * ab.length_squared() * ac.length_squared() {
                let h = n.dot(ap) / nn;
                let q = p - n * h;
                if q.is_finite() {
                    let side = if h > 0.0 {
                        n.try_normalize()
                    } else if h < 0.0 {
                        (-n).try_normalize()
                    } else {
                        None
                    };
                    return (q, side);
                }
            }
        }
        let q = a + ab * (vb / sum) + ac * (vc / sum);
        if q.is_finite() {
            // A (nearly) collinear triangle: the weights are rounding noise; `q` is still a
            // point of the triangle, but maybe not the closest, so the edges compete too.
            return (nearest(p, q, edges()), None);
        }
    }
    // Degenerate (collinear or coincident vertices, or rounding put p in no region).
    let e = edges();
    (nearest(p, e[0], e), None)
}

/// The candidate nearest to `p` among `first` and `rest` (the first on ties).
#[inline]
fn nearest<V: Vector>(p: V, first: V, rest: [V; 3]) -> V {
    let mut best = (first, (first - p).length_squared());
    for x in rest {
        let d = (x - p).length_squared();
        if d < best.1 {
            best = (x, d);
        }
    }
    best.0
}

/// The point of a convex polygon (2D, counter-clockwise, non-empty) closest to `p`: `p` itself
/// when no edge has it strictly on its outer side and some edge has it strictly on its inner
/// side, else the nearest boundary point. (A polygon of zero area — coincident or collinear
/// vertices — has every point of its line on no edge's outer side; the strict test sends those
/// points to the nearest-edge scan.) With the point on an edge's interior, also the edge's
/// unit normal toward `p` (see [`edge_axis`]).
fn point_polygon<V: Vector>(p: V, vs: &[V]) -> (V, Option<V>) {
    let n = vs.len();
    if n >= 3 {
        let (mut outer, mut inner) = (false, false);
        for i in 0..n {
            let (u, w) = (vs[i], vs[(i + 1) % n]);
            let d = V::det(&[w - u, p - u]);
            outer |= d < 0.0;
            inner |= d > 0.0;
        }
        if inner && !outer {
            return (p, None);
        }
    }
    let mut best = (vs[0], f64::INFINITY, None);
    for i in 0..n {
        let (u, w) = (vs[i], vs[(i + 1) % n]);
        let (q, t) = point_segment_t(p, u, w);
        // `p` over an edge's interior on its outer side (a segment has no inner side): the
        // polygon lies in the edge's inner half-plane, so the foot is the closest point and
        // the edge's normal the exact axis, whatever the squared distances' rounding says.
        // Compared by distance, a foot 2e-9 of the edge along from a vertex lost to that
        // vertex by rounding (the two squared distances differ by 1e-18 at 0.08), and the
        // vertex's direction `p − q`, 4e-9 rad off the edge's normal, was certified with
        // the distance as its gap, which the 0.56-long edge overlapped by 2.4e-9 (fuzz
        // target `closed_forms`).
        if t > 0.0 && t < 1.0 && (n < 3 || V::det(&[w - u, p - u]) < 0.0) {
            return (q, edge_axis(p, q, w - u));
        }
        let d = (q - p).length_squared();
        if d < best.1 {
            // Inside the edge: its normal; at a vertex `p − q` is the direction.
            best = (q, d, (t > 0.0 && t < 1.0).then_some(w - u));
        }
    }
    let (q, _, edge) = best;
    (q, edge.and_then(|e| edge_axis(p, q, e)))
}

/// The unit direction from `q`, a point inside an edge of direction `d`, toward `p`, made
/// orthogonal to the edge. `p − q` carries the rounding of the coordinates, ε·|p|, which for a
/// point `dist` away tilts it by ε·|p|/dist — projected over a long edge, a depth off by many
/// tolerances (fuzz target `closed_forms`: 2.6e-12 at a gap of 2.9e-11). Orthogonal to the
/// edge, the direction is exact in 2D (the edge's normal) and loses the along-edge part of
/// the error in 3D.
#[inline]
fn edge_axis<V: Vector>(p: V, q: V, d: V) -> Option<V> {
    let dd = d.length_squared();
    if !(dd > 0.0) {
        return None;
    }
    let diff = p - q;
    let n = diff - d * (diff.dot(d) / dd);
    n.try_normalize().filter(|m| m.dot(diff) > 0.0)
}

/// Two balls (point cores) in the world frame: the straight-line path of [`distance`] and
/// [`intersects`] for the commonest pair of a physics scene (one subtraction, one square root
/// for the distance, no frame change), with the same tolerance, verdict and witnesses as the
/// general capsule path.
struct Balls<V> {
    ca: V,
    cb: V,
    ra: f64,
    rb: f64,
    /// `cb − ca` and its length.
    d: V,
    dist: f64,
    /// GJK's absolute tolerance, and its touch tolerance `max(abs_tol, rel_tol · dist)`.
    abs_tol: f64,
    tol: f64,
}

impl<V: Vector> Balls<V> {
    /// The pair when both primitives are balls and the tolerance is GJK's default one.
    #[inline(always)]
    fn of(
        pa: Primitive<'_, V>,
        pb: Primitive<'_, V>,
        pose_a: &Pose<V>,
        pose_b: &Pose<V>,
        opts: &Options,
    ) -> Option<Self> {
        let (Some((a0, ra)), Some((b0, rb))) = (as_ball(pa), as_ball(pb)) else {
            return None;
        };
        if opts.abs_tolerance.is_some() || opts.max_iterations == 0 {
            return None;
        }
        let ca = world_point(pose_a, a0);
        let cb = world_point(pose_b, b0);
        let d = cb - ca;
        let dist = d.length();
        // GJK's tolerance (`MinkowskiDifference::tolerance`) with the sizes and bounding radii
        // read off the primitives: a point core has size = radius and bounding radius
        // |centre| + radius (the trait's values for `Ball` and `Rounded`, an equally valid
        // bound for `Transformed`). |t_b − t_a| is the centres' distance when both centres
        // are the local origins.
        let (ta, tb) = (pose_a.translation(), pose_b.translation());
        let reach = |p: V| if p == V::ZERO { 0.0 } else { p.length() };
        let tab = if a0 == V::ZERO && b0 == V::ZERO {
            dist
        } else {
            (tb - ta).length()
        };
        let magnitude = ta.abs_sum() + tb.abs_sum() + tab + reach(a0) + ra + reach(b0) + rb;
        let scale = (ra + rb).max(f64::MIN_POSITIVE);
        let abs_tol = opts.rel_tolerance * scale + 4.0 * f64::EPSILON * magnitude;
        let tol = abs_tol.max(opts.rel_tolerance * dist);
        // |ca|, |cb| ≤ magnitude and dist ≤ 2·magnitude: one finiteness test covers them all
        // (an overflow of the sum only sends a finite pair to GJK).
        (magnitude + dist).is_finite().then_some(Balls {
            ca,
            cb,
            ra,
            rb,
            d,
            dist,
            abs_tol,
            tol,
        })
    }

    /// The unit direction from A's centre to B's (any axis for concentric balls).
    #[inline(always)]
    fn normal(&self) -> V {
        if self.dist > 0.0 {
            self.d * (1.0 / self.dist)
        } else {
            V::AXIS
        }
    }

    /// The verdict: a common point when the gap is within the tolerance, else the centres'
    /// direction with the exact gap.
    #[inline(always)]
    fn verdict(&self, normal: V) -> Verdict<V> {
        let gap = self.dist - (self.ra + self.rb);
        touch_verdict(
            (self.ca, self.ra),
            (self.cb, self.rb),
            normal,
            gap,
            self.tol,
            true,
        )
    }

    #[inline(always)]
    fn distance(&self) -> Option<Distance<V>> {
        let normal = self.normal();
        let signed = self.dist - (self.ra + self.rb);
        Some(Distance {
            status: Status::Converged,
            iterations: 1,
            distance: signed.max(0.0),
            lower_bound: signed,
            point_a: self.ca + normal * self.ra,
            point_b: self.cb - normal * self.rb,
            normal,
            verdict: self.verdict(normal),
            tolerance: self.tol,
        })
    }

    #[inline(always)]
    fn intersects(&self) -> Option<Intersection<V>> {
        Some(Intersection {
            status: Status::Converged,
            iterations: 1,
            verdict: self.verdict(self.normal()),
            tolerance: self.tol,
        })
    }
}

/// The ball–ball distance query, or `None` for any other pair (checked by the public query
/// before anything else, see `gjk::distance_beyond_balls`).
#[inline(always)]
pub(crate) fn balls_distance<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
) -> Option<Distance<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    Balls::of(a.primitive(), b.primitive(), pose_a, pose_b, opts)?.distance()
}

/// The ball–ball boolean query, or `None` for any other pair.
#[inline(always)]
pub(crate) fn balls_intersects<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
) -> Option<Intersection<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    Balls::of(a.primitive(), b.primitive(), pose_a, pose_b, opts)?.intersects()
}

/// The closed-form distance query, or `None` when the pair has none (see the module header);
/// two balls are [`balls_distance`]'s, asked first.
#[inline]
pub(crate) fn distance<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
) -> Option<Distance<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, pb) = (a.primitive(), b.primitive());
    if let (
        Primitive::Cuboid {
            half_extents: ha,
            radius: 0.0,
        },
        Primitive::Cuboid {
            half_extents: hb,
            radius: 0.0,
        },
    ) = (pa, pb)
    {
        return box_box_distance(ha, hb, (a, pose_a), (b, pose_b), opts);
    }
    if let Some(bb) = BallBox::of(pa, pb, (a, pose_a), (b, pose_b), opts) {
        return Some(bb.distance());
    }
    let (c, abs_tol, frame) = closest_of(pa, pb, a, pose_a, b, pose_b, opts)?;
    let tol = abs_tol.max(opts.rel_tolerance * c.dist);
    let signed = c.dist - (c.ra + c.rb);
    // Each world image formed once, for the points and the verdict alike.
    let (wa, wb, wn) = (
        frame.point(c.ca),
        frame.point(c.cb),
        frame.vector(c.normal()),
    );
    Some(Distance {
        status: Status::Converged,
        iterations: 1,
        distance: signed.max(0.0),
        lower_bound: signed,
        point_a: wa + wn * c.ra,
        point_b: wb - wn * c.rb,
        normal: wn,
        verdict: verdict_from(&c, tol, || (wa, wb), || wn)?,
        tolerance: tol,
    })
}

/// The closed-form boolean query, or `None` when the pair has none (see the module header);
/// two balls are [`balls_intersects`]'s, asked first.
#[inline]
pub(crate) fn intersects<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
) -> Option<Intersection<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, pb) = (a.primitive(), b.primitive());
    if let (
        Primitive::Cuboid {
            half_extents: ha,
            radius: ra,
        },
        Primitive::Cuboid {
            half_extents: hb,
            radius: rb,
        },
    ) = (pa, pb)
    {
        if ra != 0.0 || rb != 0.0 || opts.max_iterations == 0 {
            return None;
        }
        let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
        let tol = absolute_tolerance(&mink, opts);
        let verdict = box_box(ha, hb, mink.pose_ab(), mink.rot_ab(), tol)?;
        return Some(Intersection {
            status: Status::Converged,
            iterations: 1,
            verdict: verdict_to_world(Frame(Some(pose_a)), verdict),
            tolerance: tol,
        });
    }
    if let Some(bb) = BallBox::of(pa, pb, (a, pose_a), (b, pose_b), opts) {
        return Some(bb.intersects());
    }
    let (c, abs_tol, frame) = closest_of(pa, pb, a, pose_a, b, pose_b, opts)?;
    let tol = abs_tol.max(opts.rel_tolerance * c.dist);
    Some(Intersection {
        status: Status::Converged,
        iterations: 1,
        verdict: world_verdict(frame, &c, tol)?,
        tolerance: tol,
    })
}

/// The separating axis test of two boxes `[-ha, ha]` (A's frame) and `[-hb, hb]` placed by
/// `pose_ab`: separated when some axis separates by more than `tol`, intersecting when no axis
/// separates at all and a common point is found (3D: vertex tests and edge clipping, then
/// alternating projections; 2D: alternating projections); otherwise `None`.
#[inline(never)]
fn box_box<V: Vector>(
    ha: V,
    hb: V,
    pose_ab: &Pose<V>,
    rot_ab: &V::Matrix,
    tol: f64,
) -> Option<Verdict<V>> {
    if V::DIM == 3 {
        let obb = obb3(ha, hb, rot_ab, pose_ab.translation());
        return match obb.sat(tol) {
            Sat::Separated(axis, gap) => Some(Verdict::Separated(SeparatingAxis {
                axis: from3(axis),
                gap,
            })),
            Sat::Close => None,
            Sat::Overlap => box_common_point(&obb, (ha, hb), pose_ab, tol, None)
                .map(|point| Verdict::Intersecting(CommonPoint { point })),
        };
    }
    let pair = BoxPair::new(ha, hb, pose_ab);
    // The first axis that separates by more than `tol` is a certificate (a boolean needs no
    // best axis), so the test stops there: face axes first, the common case.
    let mut best = f64::NEG_INFINITY;
    let mut test = |l: V| {
        let s = pair.separation(l);
        best = best.max(s);
        (s > tol).then(|| {
            let axis = if pair.t.dot(l) < 0.0 { -l } else { l };
            Verdict::Separated(SeparatingAxis { axis, gap: s })
        })
    };
    for (i, col) in pair.cols().iter().enumerate() {
        for l in [unit::<V>(i), *col] {
            if let Some(v) = test(l) {
                return Some(v);
            }
        }
    }
    // (2D from here on: the four face axes are all the axes.)
    if best > 0.0 {
        return None;
    }
    // No axis separates: the boxes overlap. Alternate projections from B's centre.
    let x = box_touch_point(ha, hb, pose_ab, pair.t, 0.25 * tol, PROJECTION_ROUNDS)?;
    Some(Verdict::Intersecting(CommonPoint { point: x }))
}

/// Rounds of alternating projections tried after the start pair of `box_box_distance`.
const BOX_DISTANCE_ROUNDS: usize = 4;

/// The distance of two boxes in 3D (`None`: GJK answers), from the best of the 15 axes of the
/// separating axis test (`Obb3::deepest`).
///
/// * Best separation ≤ 0: the boxes overlap; distance 0 with a common point from
///   `box_common_point` (none found: GJK).
/// * Best separation in `(0, 2·tol]`: GJK (the verdict is decided there).
/// * Apart: the best axis is the closest points' direction whenever those lie on a vertex–face
///   or edge–edge pair (the distance of two polytopes is attained along a facet normal of
///   `A − B`, and every facet normal of two boxes' difference is one of the 15 axes; any other
///   axis separates less). So the start pair is taken from the winning features: B's corner
///   along −n and its nearest point in A (A's face axis), A's corner and its nearest point in
///   B (B's face axis), or the closest points of the two support edges (an edge axis). The
///   remaining configurations (a vertex against an edge or a vertex) are reached by
///   alternating projections, clamping into one box and then the other.
///
/// Each pair `(p, q)` (`p ∈ A` exactly, `q ∈ B` to the rounding of one rigid map, as GJK's
/// support points) is an upper bound `|q − p|`; the separation of the projections along its
/// unit direction `u` is a lower bound, and is the certificate's gap. The answer is taken only
/// when the two agree to `BOX_DISTANCE_SLACK · scale` plus the rounding floor — much tighter
/// than GJK's duality gap, so that the answer is the exact distance up to rounding (GJK and the
/// batch lanes converge to the same closest features) — otherwise GJK answers.
#[inline(never)]
fn box_box_distance<V, A, B>(
    ha: V,
    hb: V,
    (a, pose_a): (&A, &Pose<V>),
    (b, pose_b): (&B, &Pose<V>),
    opts: &Options,
) -> Option<Distance<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::DIM != 3 || opts.max_iterations == 0 {
        return None;
    }
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let setup = BoxSetup::new(ha, hb, &mink, opts);
    let (obb, abs_tol, exact) = (&setup.obb, setup.abs_tol, setup.exact);
    let (sep, n, feature) = obb.deepest();
    if sep <= 0.0 {
        return box_overlap_distance(&setup, pose_a, mink.pose_ab(), sep, (n, feature));
    }
    if !(sep > 2.0 * abs_tol) {
        return None;
    }
    let (mut p, mut q) = match feature {
        Feature::FaceA => {
            let v = obb.b_to_a(obb.corner_b(n));
            (obb.nearest_in_a(v), v)
        }
        Feature::FaceB => {
            let u = obb.corner_a(n);
            (u, obb.nearest_in_b(u))
        }
        Feature::Edge(i, j) => {
            let (p, q) = support_edges_closest::<V>(obb, n, i, j);
            (to3(p), to3(q))
        }
    };
    for round in 0..=BOX_DISTANCE_ROUNDS {
        if round > 0 {
            p = obb.nearest_in_a(q);
            q = obb.nearest_in_b(p);
        }
        let d: V = from3::<V>(q) - from3::<V>(p);
        let dist = d.length();
        if !(dist > 0.0) || !dist.is_finite() {
            return None;
        }
        let u = d * (1.0 / dist);
        let lower = obb.separation(to3(u));
        if dist - lower > exact {
            continue;
        }
        let points = (
            pose_a.transform_point(from3(p)),
            pose_a.transform_point(from3(q)),
        );
        let normal = pose_a.transform_vector(u);
        return box_separated_answer(points, normal, (dist, lower), abs_tol, opts);
    }
    None
}

/// What [`box_box_distance`] (and the batch's box lanes, `gjk/batch/box_lanes.rs`, which must
/// reproduce it bit for bit) starts from: the box pair in A's frame, GJK's touch tolerance for
/// the pair, and the agreement `exact` its bounds need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxSetup {
    pub obb: Obb3,
    pub abs_tol: f64,
    pub exact: f64,
}

impl BoxSetup {
    #[inline(always)]
    pub(crate) fn new<V, A, B>(
        ha: V,
        hb: V,
        mink: &MinkowskiDifference<'_, V, A, B>,
        opts: &Options,
    ) -> BoxSetup
    where
        V: Vector,
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        BoxSetup {
            obb: obb3(ha, hb, mink.rot_ab(), mink.pose_ab().translation()),
            abs_tol: absolute_tolerance(mink, opts),
            exact: BOX_DISTANCE_SLACK * mink.scale() + mink.rounding_floor(),
        }
    }
}

/// [`box_box_distance`]'s answer for overlapping 3D boxes from its set-up and best axis (`n`,
/// separation `sep ≤ 0`): the common point search, `None` (GJK answers) when it finds none.
#[inline(always)]
pub(crate) fn box_overlap_distance<V: Vector>(
    setup: &BoxSetup,
    pose_a: &Pose<V>,
    pose_ab: &Pose<V>,
    sep: f64,
    (n, feature): ([f64; 3], Feature),
) -> Option<Distance<V>> {
    let (ha, hb) = (from3::<V>(setup.obb.ha), from3::<V>(setup.obb.hb));
    let x = box_common_point(
        &setup.obb,
        (ha, hb),
        pose_ab,
        setup.abs_tol,
        Some((n, feature)),
    )?;
    let (x, normal) = (pose_a.transform_point(x), pose_a.transform_vector(from3(n)));
    Some(box_overlap_answer(x, sep, normal, setup.abs_tol))
}

/// The answer of [`box_box_distance`] for overlapping boxes, from the world frame's common
/// point `x` and normal (the best axis, separation `sep ≤ 0`).
#[inline(always)]
pub(crate) fn box_overlap_answer<V: Vector>(
    x: V,
    sep: f64,
    normal: V,
    abs_tol: f64,
) -> Distance<V> {
    Distance {
        status: Status::Converged,
        iterations: 1,
        distance: 0.0,
        lower_bound: sep,
        point_a: x,
        point_b: x,
        normal,
        verdict: Verdict::Intersecting(CommonPoint { point: x }),
        tolerance: abs_tol,
    }
}

/// The answer of [`box_box_distance`] for separated boxes, from the world frame's closest
/// points `point_a ∈ A`, `point_b ∈ B` and unit normal (`q − p` over `dist = |q − p|`, in A's
/// frame, rotated), with the separation `lower` along it; `None` (GJK answers) when `lower`
/// is within the touch tolerance.
#[inline(always)]
pub(crate) fn box_separated_answer<V: Vector>(
    (point_a, point_b): (V, V),
    normal: V,
    (dist, lower): (f64, f64),
    abs_tol: f64,
    opts: &Options,
) -> Option<Distance<V>> {
    let tol = abs_tol.max(opts.rel_tolerance * dist);
    if !(lower > tol) {
        return None;
    }
    Some(Distance {
        status: Status::Converged,
        iterations: 1,
        distance: dist.max(lower),
        lower_bound: lower,
        point_a,
        point_b,
        normal,
        verdict: Verdict::Separated(SeparatingAxis {
            axis: normal,
            gap: lower,
        }),
        tolerance: tol,
    })
}

/// For an edge pair, the closest point of A's support edge to B's: what [`Obb3::common_point`]
/// tries after the deepest corners.
#[inline(always)]
fn edge_point<V: Vector>(obb: &Obb3, n: [f64; 3], feature: Feature) -> Option<[f64; 3]> {
    match feature {
        Feature::Edge(i, j) => Some(to3(support_edges_closest::<V>(obb, n, i, j).0)),
        Feature::FaceA | Feature::FaceB => None,
    }
}

/// The closest points (A's frame) of A's support edge along `n` in direction `i` and B's
/// support edge along `−n` in direction `j`: the feature pair of the edge axis `aᵢ × bⱼ`.
#[inline(always)]
fn support_edges_closest<V: Vector>(obb: &Obb3, n: [f64; 3], i: usize, j: usize) -> (V, V) {
    let [a0, a1, b0, b1] = obb
        .edge_ends(obb.corner_a(n), i, obb.corner_b(n), j)
        .map(from3::<V>);
    let (s, t) = segment_segment(a0, a1, b0, b1);
    (a0 + (a1 - a0) * s, b0 + (b1 - b0) * t)
}

/// A 3D vector's coordinates.
#[inline(always)]
fn to3<V: Vector>(v: V) -> [f64; 3] {
    arr3(|i| if i < V::DIM { v.coord(i) } else { 0.0 })
}

/// The vector with these coordinates (the first `V::DIM`).
#[inline(always)]
fn from3<V: Vector>(c: [f64; 3]) -> V {
    V::from_slice(&c[..V::DIM]).unwrap_or(V::ZERO)
}

/// The 3D box pair of [`crate::gjk::obb`] (`V::DIM == 3`).
#[inline(always)]
fn obb3<V: Vector>(ha: V, hb: V, rot_ab: &V::Matrix, t: V) -> Obb3 {
    let cols = arr3(|j| to3(V::mat_mul(rot_ab, unit::<V>(j))));
    Obb3::new(to3(ha), to3(hb), cols, to3(t))
}

/// A common point of two overlapping 3D boxes (A's frame): [`Obb3::common_point`]'s
/// candidates (with the deepest axis and its family when the caller has them), vertex tests
/// and edge clipping, then alternating projections; `None` when both miss (the caller asks
/// GJK).
#[inline]
fn box_common_point<V: Vector>(
    obb: &Obb3,
    (ha, hb): (V, V),
    pose_ab: &Pose<V>,
    tol: f64,
    deepest: Option<([f64; 3], Feature)>,
) -> Option<V> {
    let deepest = deepest.map(|(n, feature)| (n, move || edge_point::<V>(obb, n, feature)));
    let slack = 0.25 * tol;
    obb.common_point(slack, deepest).map(from3).or_else(|| {
        box_touch_point(
            ha,
            hb,
            pose_ab,
            pose_ab.translation(),
            slack,
            PROJECTION_ROUNDS,
        )
    })
}

/// Two 2D boxes, `[-ha, ha]` in A's frame and `[-hb, hb]` placed by `pose_ab`: B's axes in A's
/// frame (the rotation's columns) and B's centre (3D pairs use [`Obb3`]).
struct BoxPair<V: Vector> {
    ha: V,
    hb: V,
    cols: [V; 3],
    t: V,
}

impl<V: Vector> BoxPair<V> {
    fn new(ha: V, hb: V, pose_ab: &Pose<V>) -> Self {
        let rot = pose_ab.rotation().to_matrix();
        let cols = core::array::from_fn(|j| {
            if j < V::DIM {
                V::mat_mul(&rot, unit::<V>(j))
            } else {
                V::ZERO
            }
        });
        BoxPair {
            ha,
            hb,
            cols,
            t: pose_ab.translation(),
        }
    }

    fn cols(&self) -> &[V] {
        &self.cols[..V::DIM]
    }

    /// Separation of the projections on a unit axis `l`: `|t·l| − r_A(l) − r_B(l)`.
    fn separation(&self, l: V) -> f64 {
        let ra: f64 = (0..V::DIM)
            .map(|i| self.ha.coord(i) * l.coord(i).abs())
            .sum();
        let rb: f64 = (0..V::DIM)
            .map(|j| self.hb.coord(j) * self.cols[j].dot(l).abs())
            .sum();
        self.t.dot(l).abs() - ra - rb
    }
}

/// The closed-form penetration query, or `None` when the pair has none or the cores touch or
/// cross (then EPA answers; see the module header).
#[inline]
pub(crate) fn penetration<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &EpaOptions,
) -> Option<Penetration<V>>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, pb) = (a.primitive(), b.primitive());
    if let (
        Primitive::Cuboid {
            half_extents: ha,
            radius: 0.0,
        },
        Primitive::Cuboid {
            half_extents: hb,
            radius: 0.0,
        },
    ) = (pa, pb)
    {
        return box_penetration(ha, hb, (a, pose_a), (b, pose_b), opts);
    }
    if let Some(bb) = BallBox::of(pa, pb, (a, pose_a), (b, pose_b), &opts.gjk) {
        // The first case below, as the distance query answers it (bit for bit).
        if bb.dist > NEAR_CONTACT * (a.size() + b.size()) {
            return Some(bb.penetration());
        }
    }
    let (c, abs_tol, frame) = closest_of(pa, pb, a, pose_a, b, pose_b, &opts.gjk)?;
    let tol = abs_tol.max(opts.gjk.rel_tolerance * c.dist);
    let scale = a.size() + b.size();
    let rsum = c.ra + c.rb;
    let (normal, mut depth, ca, cb);
    if c.dist > NEAR_CONTACT * scale {
        // Near contact far from the working frame's origin, the closest-point direction can
        // be off by ε·|coordinates| / dist; the gap along it was then measured by support
        // calls (`axis_gap`). When that gap disagrees with the distance beyond the tolerance,
        // the direction does not carry the depth: EPA answers. (Fuzz finding: two segments a
        // few 1e-9 long, touching 5 units from the origin, projections overlapping by 2e-11
        // along the normal against a depth of 0.)
        if c.axis_gap.is_some_and(|g| (g - c.dist).abs() > tol) {
            return None;
        }
        normal = c.normal();
        depth = rsum - c.dist;
        (ca, cb) = (c.ca, c.cb);
    } else if let Some((n, core_depth, fa, fb)) = c.inside {
        normal = n;
        depth = rsum + core_depth;
        (ca, cb) = (fa, fb);
    } else if c.points {
        // EPA's answer for a point `K`: A's x axis within its flatness threshold `ε`.
        let eps = (opts.rel_tolerance * scale.max(f64::MIN_POSITIVE)
            + (abs_tol - opts.gjk.rel_tolerance * scale.max(f64::MIN_POSITIVE)).max(0.0))
        .max(abs_tol);
        normal = match (c.cb - c.ca).try_normalize() {
            Some(n) if c.dist > eps => n,
            _ => frame_axis(frame, pose_a),
        };
        depth = if c.dist > eps { rsum - c.dist } else { rsum };
        (ca, cb) = (c.ca, c.cb);
    } else {
        return None;
    }
    let verdict = world_verdict(frame, &c, tol)?;
    if matches!(verdict, Verdict::Intersecting(_)) {
        depth = depth.max(0.0);
    }
    let (point_a, point_b, wn) = world_points(frame, ca, cb, normal, c.ra, c.rb);
    let out = Penetration {
        status: Status::Converged,
        iterations: 1,
        depth,
        normal: wn,
        point_a,
        point_b,
        verdict,
        tolerance: tol,
        // Closed forms are exact to rounding: the interval is the point itself.
        depth_lower: depth,
        depth_upper: depth,
    };
    let ok = out.depth.is_finite() && out.point_a.is_finite() && out.point_b.is_finite();
    ok.then_some(out)
}

/// Two overlapping boxes in 3D: the penetration depth of two polytopes is the largest
/// separation over the axes of the separating axis test (every facet normal of `A − B` is a
/// face normal or an edge cross product of the two boxes, and every other axis only separates
/// less), so the 15 axes give the exact depth `D` and normal `n` (A's frame, toward B). The
/// witness pair realises `D·n`: for an edge–edge axis, the closest points of the two support
/// edges; for a face axis, a common point `x` of A and of B moved by `D·n` (the boxes then
/// touch; alternating projections from the two support corners), paired with `x − D·n`. The
/// certificate is a common point of the boxes themselves (alternating projections, as for the
/// boolean). `None` (EPA answers) for separated boxes, in 2D, or when a projection does not
/// settle or a witness pair misses `D·n` by more than a quarter of the tolerance (ties: a
/// support face where an edge was assumed).
fn box_penetration<V, A, B>(
    ha: V,
    hb: V,
    (a, pose_a): (&A, &Pose<V>),
    (b, pose_b): (&B, &Pose<V>),
    opts: &EpaOptions,
) -> Option<Penetration<V>>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::DIM != 3 || opts.gjk.max_iterations == 0 {
        return None;
    }
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let tol = absolute_tolerance(&mink, &opts.gjk);
    let pose_ab = mink.pose_ab();
    let t = pose_ab.translation();
    let obb = obb3(ha, hb, mink.rot_ab(), t);
    // The best axis: (separation, unit axis toward B, the edge pair of an edge axis).
    let (sep, n3, feature) = obb.deepest();
    let n: V = from3(n3);
    if !(sep <= tol) {
        return None;
    }
    let d = -sep;
    let slack = 0.25 * tol;
    // The certificate: a common point by the search of `box_common_point`, else GJK's boolean
    // (an overlap thinner than the slack can defeat the search).
    let common = match box_common_point(&obb, (ha, hb), pose_ab, tol, Some((n3, feature))) {
        Some(x) => Verdict::Intersecting(CommonPoint {
            point: pose_a.transform_point(x),
        }),
        None => super::gjk_intersects(a, pose_a, b, pose_b, &opts.gjk, None).verdict,
    };
    if !matches!(common, Verdict::Intersecting(_)) {
        return None;
    }
    // A's support corner along n, B's along −n (A's frame).
    let n_b = V::mat_transpose_mul(mink.rot_ab(), n);
    let corner_a = V::sign_select(ha, n);
    let corner_b = V::sign_select(hb, -n_b);
    let (pa, pb) = match feature {
        Feature::Edge(i, j) => support_edges_closest(&obb, to3(n), i, j),
        Feature::FaceA | Feature::FaceB => {
            // B moved by D·n touches A. Its support corner then lies on A's support plane (for
            // an axis of A's faces), or A's support corner on B's (an axis of B's faces): when
            // that corner lies on the other box, it is the contact; otherwise (a support edge or
            // face: ties) projections find one.
            let moved = Pose::new(t + n * d, pose_ab.rotation()).ok()?;
            let cb = moved.transform_point(corner_b);
            let local_a = moved.inverse_transform_point(corner_a);
            let x = if (clamp_box(cb, ha) - cb).length() <= slack {
                cb
            } else if (clamp_box(local_a, hb) - local_a).length() <= slack {
                corner_a
            } else {
                let start = (corner_a + cb) * 0.5;
                box_touch_point(ha, hb, &moved, start, slack, 4 * PROJECTION_ROUNDS)?
            };
            (x, x - n * d)
        }
    };
    if !((pa - pb - n * d).length() <= slack) {
        return None;
    }
    let depth = d.max(0.0);
    let out = Penetration {
        status: Status::Converged,
        iterations: 1,
        depth,
        normal: pose_a.transform_vector(n),
        point_a: pose_a.transform_point(pa),
        point_b: pose_a.transform_point(pb),
        verdict: common,
        tolerance: tol,
        depth_lower: depth,
        depth_upper: depth,
    };
    let ok = out.depth.is_finite() && out.point_a.is_finite() && out.point_b.is_finite();
    ok.then_some(out)
}

/// Alternating projections between box A `[-ha, ha]` and box B `[-hb, hb]` placed by
/// `pose_ab`, from `x`: a point of one box within `slack` of the other, or `None` after
/// `rounds` rounds.
fn box_touch_point<V: Vector>(
    ha: V,
    hb: V,
    pose_ab: &Pose<V>,
    mut x: V,
    slack: f64,
    rounds: usize,
) -> Option<V> {
    for _ in 0..rounds {
        x = clamp_box(x, ha);
        let local = pose_ab.inverse_transform_point(x);
        let in_b = clamp_box(local, hb);
        if (in_b - local).length() <= slack {
            return Some(x);
        }
        x = pose_ab.transform_point(in_b);
        if (clamp_box(x, ha) - x).length() <= slack {
            return Some(x);
        }
    }
    None
}

/// A's local x axis expressed in the working frame.
fn frame_axis<V: Vector>(frame: Frame<'_, V>, pose_a: &Pose<V>) -> V {
    match frame.0 {
        Some(_) => V::AXIS,
        None => pose_a.transform_vector(V::AXIS),
    }
}
