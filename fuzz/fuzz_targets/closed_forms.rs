//! Fuzz target: the closed forms (`gjk::closed_form`) against the generic GJK / EPA path on the
//! same pair.
//!
//! Input: a 3D or 2D pair of primitives (balls, capsules, segments, boxes, triangles, rounded
//! and transformed wrappers; circles, stadiums, rectangles, polygons) with sizes from 0 to 1e2
//! (ratios up to 1e4), poses at offsets 0 to 1e6, and B placed freely, concentric, as a copy
//! of A, or moved along GJK's normal onto the touch band (gap = k · tolerance).
//!
//! Oracle: the same shapes behind `NoHook`, whose `primitive()` is the default `Other`, so
//! `gjk::distance`, `gjk::intersects` and `epa::penetration` on them always run GJK / EPA
//! (as `tests/closed_form.rs` does). Properties:
//! * no panic, no NaN: distance, bounds, witnesses finite; unit normals;
//! * distances agree within `2 · tolerance + 1e-12 · size` (inside GJK's bracket
//!   `[lower_bound, distance]` when GJK did not converge);
//! * every certificate (distance, boolean, penetration) passes `convexity::verify`, and a
//!   closed-form answer (1 iteration) is never undetermined;
//! * verdicts agree with GJK's except within a fifth of the tolerance of the touch threshold;
//! * penetration answered in closed form: `point_a = point_b + depth · n` and the overlap of
//!   the projections on `n` equals the depth; depth equals EPA's when EPA converged.
#![no_main]

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::epa::{self, EpaSpace, Penetration};
use convexity::gjk::{self, Options};
use convexity::{
    verify, Ball, Capsule, ConvexPolygon, Cuboid, DQuat, DVec2, DVec3, Pose, Pose2, Pose3, Rounded,
    Segment, Shape2, Shape3, Status, SupportMap, Transformed, Triangle, Vector, Verdict,
};
use libfuzzer_sys::fuzz_target;

#[path = "../common/bytes.rs"]
mod bytes;
use bytes::Bytes;

/// The same shape with the default `primitive()`: queries on it always run GJK / EPA.
struct NoHook<S>(S);

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for NoHook<S> {
    fn core_support(&self, dir: V) -> V {
        self.0.core_support(dir)
    }
    fn core_radius(&self) -> f64 {
        self.0.core_radius()
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn size(&self) -> f64 {
        self.0.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.0.bounding_radius()
    }
}

/// This target's draws, on top of the shared reader.
trait Draw {
    fn size(&mut self) -> f64;
    fn quat(&mut self) -> DQuat;
    fn offset(&mut self) -> f64;
}

impl Draw for Bytes<'_> {
    /// A length scale: exactly 0 sometimes, else one of 1e-2 … 1e2 (ratios up to 1e4).
    fn size(&mut self) -> f64 {
        let s = self.pick(&[0.0, 1e-2, 0.1, 1.0, 1.0, 1.0, 10.0, 1e2]);
        s * (0.25 + 0.75 * self.frac())
    }
    fn quat(&mut self) -> DQuat {
        match self.u8() % 6 {
            0 => DQuat::IDENTITY,
            // Quarter turns keep boxes axis-aligned (parallel edges, equal face axes).
            1 => {
                let axis = [DVec3::X, DVec3::Y, DVec3::Z][self.u8() as usize % 3];
                DQuat::from_axis_angle(axis, std::f64::consts::FRAC_PI_2 * (self.u8() % 4) as f64)
            }
            _ => self.unit_quat(),
        }
    }
    fn offset(&mut self) -> f64 {
        self.pick(&[0.0, 1.0, 1e3, 1e6])
    }
}

/// A segment's ends at scale `s`: random, zero-length, symmetric, nearly zero-length, or on
/// an axis (parallel pairs).
fn seg3(r: &mut Bytes, s: f64) -> (DVec3, DVec3) {
    let a = r.v3() * s;
    let b = match r.u8() % 6 {
        0 => a,
        1 => -a,
        2 => a + r.v3() * (1e-9 * s),
        3 => a + DVec3::Z * s,
        _ => r.v3() * s,
    };
    (a, b)
}

fn shape3(r: &mut Bytes, depth: u32) -> Option<Shape3> {
    let s = r.size();
    Some(match r.u8() % 9 {
        0 => Shape3::Sphere(Ball::new(s).ok()?),
        1 => {
            let (a, b) = seg3(r, s);
            Shape3::Capsule(Capsule::new(a, b, r.size()).ok()?)
        }
        2 => {
            let (a, b) = seg3(r, s);
            Shape3::Segment(Segment::new(a, b).ok()?)
        }
        3 => {
            let mut h = (r.v3().abs() * s).to_array();
            // Flat or degenerate boxes.
            let k = r.u8() as usize % 6;
            if k < 3 {
                h[k] = 0.0;
            }
            Shape3::Cuboid(Cuboid::new(DVec3::from_array(h)).ok()?)
        }
        4 => {
            let a = r.v3() * s;
            let (b, c) = match r.u8() % 5 {
                0 => (a, a),
                1 => {
                    let d = r.v3() * s;
                    (a + d, a + d * 2.0)
                }
                2 => (a, r.v3() * s),
                _ => (r.v3() * s, r.v3() * s),
            };
            Shape3::Triangle(Triangle::new(a, b, c).ok()?)
        }
        5 if depth == 0 => Shape3::Rounded(Box::new(Rounded::new(shape3(r, 1)?, r.size()).ok()?)),
        6 if depth == 0 => {
            let inner = shape3(r, 1)?;
            let pose = Pose3::new(r.v3() * r.offset().min(1e3), r.quat()).ok()?;
            Shape3::Transformed(Box::new(Transformed::new(inner, pose)))
        }
        _ => Shape3::Sphere(Ball::new(s).ok()?),
    })
}

fn shape2(r: &mut Bytes, depth: u32) -> Option<Shape2> {
    let s = r.size();
    Some(match r.u8() % 7 {
        0 => Shape2::Circle(Ball::new(s).ok()?),
        1 | 2 => {
            let a = r.v2() * s;
            let b = match r.u8() % 4 {
                0 => a,
                1 => -a,
                _ => r.v2() * s,
            };
            if r.u8() % 2 == 0 {
                Shape2::Capsule(Capsule::new(a, b, r.size()).ok()?)
            } else {
                Shape2::Segment(Segment::new(a, b).ok()?)
            }
        }
        3 => {
            let mut h = r.v2().abs() * s;
            if r.u8() % 4 == 0 {
                h.y = 0.0;
            }
            Shape2::Rect(Cuboid::new(h).ok()?)
        }
        4 | 5 => {
            // Sorted angles on an ellipse: convex, sometimes 1–2 vertices or collinear.
            let n = 1 + r.u8() as usize % 8;
            let (rx, ry) = (s, s * r.frac());
            let mut ang: Vec<f64> = (0..n).map(|_| r.frac() * std::f64::consts::TAU).collect();
            ang.sort_by(f64::total_cmp);
            let pts: Vec<DVec2> = ang
                .iter()
                .map(|t| DVec2::new(rx * t.cos(), ry * t.sin()))
                .collect();
            Shape2::Polygon(ConvexPolygon::new(&pts).ok()?)
        }
        _ if depth == 0 => Shape2::Rounded(Box::new(Rounded::new(shape2(r, 1)?, r.size()).ok()?)),
        _ => Shape2::Circle(Ball::new(s).ok()?),
    })
}

/// `max_{x ∈ S} n·x` of a posed shape (world frame).
fn h<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, n: V) -> f64 {
    n.dot(pose.transform_point(s.support(pose.inverse_transform_vector(n))))
}

/// Whether an exact answer (signed distance `lower`, touch tolerance `tol`) may disagree with
/// GJK's verdict `gjk`: GJK undetermined; GJK intersecting while the exact distance is within
/// a fifth of the tolerance of the threshold; or GJK separated with a positive gap no larger
/// than the exact distance while the exact distance is within the tolerance — GJK decides on
/// its upper bound, which stops anywhere within its duality gap (≤ the tolerance) above the
/// distance, so it may call a pair at distance in (0, tol] separated, with a valid axis.
/// `floor`: the coordinates' rounding (a few ε times their magnitude; for zero-size shapes
/// the tolerance is that floor itself, and the closed form and GJK round differently).
fn may_differ<V>(lower: f64, tol: f64, floor: f64, gjk: &Verdict<V>) -> bool {
    let slack = 0.2 * tol + floor;
    match gjk {
        Verdict::Undetermined => true,
        Verdict::Intersecting(_) => (lower - tol).abs() <= slack,
        Verdict::Separated(s) => lower >= -slack && lower <= tol + slack && s.gap <= lower + slack,
    }
}

/// `verify` on a proved verdict (an undetermined one carries no certificate).
fn certified<V: Vector, S: SupportMap<V>>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    v: &Verdict<V>,
    tol: f64,
) -> Result<(), String> {
    if v.intersecting().is_none() {
        return Ok(());
    }
    verify(a, pa, b, pb, v, tol).map_err(|e| e.to_string())
}

fn unit_len<V: Vector>(n: V) -> bool {
    (n.length() - 1.0).abs() < 1e-12
}

fn check<V, S>(a: &S, pa: &Pose<V>, b: &S, pb: &Pose<V>)
where
    V: EpaSpace,
    S: SupportMap<V> + Clone + std::fmt::Debug,
{
    let (na, nb) = (NoHook(a.clone()), NoHook(b.clone()));
    let opts = Options::default();
    let msg = || format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
    let scale = a.size() + b.size();
    let vtol = tolerance_for(a, pa, b, pb);
    let magnitude = pa.translation().length()
        + pb.translation().length()
        + a.bounding_radius()
        + b.bounding_radius();
    let floor = 8.0 * f64::EPSILON * magnitude;

    // Distance.
    let cf = gjk::distance(a, pa, b, pb, &opts, None);
    let g = gjk::distance(&na, pa, &nb, pb, &opts, None);
    assert!(
        cf.distance.is_finite() && cf.lower_bound.is_finite() && cf.tolerance > 0.0,
        "{cf:?} {}",
        msg()
    );
    assert!(
        cf.point_a.is_finite() && cf.point_b.is_finite() && unit_len(cf.normal),
        "{cf:?} {}",
        msg()
    );
    let closed = cf.iterations <= 1;
    if closed {
        assert_eq!(cf.status, Status::Converged, "{}", msg());
        assert_ne!(cf.verdict, Verdict::Undetermined, "{}", msg());
    }
    let slack = 2.0 * cf.tolerance.max(g.tolerance) + 1e-12 * scale;
    if g.status == Status::Converged {
        assert!(
            (cf.distance - g.distance).abs() <= slack,
            "closed form {} vs GJK {} (slack {slack}): {cf:?} {g:?} {}",
            cf.distance,
            g.distance,
            msg()
        );
    } else {
        assert!(
            cf.distance <= g.distance + slack && cf.distance >= g.lower_bound - slack,
            "closed form {} outside GJK's bracket [{}, {}]: {}",
            cf.distance,
            g.lower_bound,
            g.distance,
            msg()
        );
    }
    if let Err(e) = certified(a, pa, b, pb, &cf.verdict, vtol) {
        panic!(
            "distance certificate {:?} rejected: {e}: {}",
            cf.verdict,
            msg()
        );
    }
    if let Verdict::Separated(s) = cf.verdict {
        assert!(
            s.gap <= cf.distance + 1e-12 * scale + vtol,
            "{cf:?} {}",
            msg()
        );
    }
    if cf.intersecting() != g.intersecting() {
        assert!(
            may_differ(cf.lower_bound, cf.tolerance, floor, &g.verdict),
            "closed form {:?} vs GJK {:?}, signed {} tol {}: {}",
            cf.verdict,
            g.verdict,
            cf.lower_bound,
            cf.tolerance,
            msg()
        );
    }

    // Boolean.
    let ci = gjk::intersects(a, pa, b, pb, &opts, None);
    let gi = gjk::intersects(&na, pa, &nb, pb, &opts, None);
    if ci.iterations <= 1 {
        assert_eq!(ci.status, Status::Converged, "{}", msg());
        assert_ne!(ci.verdict, Verdict::Undetermined, "{}", msg());
        if closed {
            assert_eq!(ci.intersecting(), cf.intersecting(), "{}", msg());
        }
    }
    if let Err(e) = certified(a, pa, b, pb, &ci.verdict, vtol) {
        panic!(
            "boolean certificate {:?} rejected: {e}: {}",
            ci.verdict,
            msg()
        );
    }
    if ci.intersecting() != gi.intersecting() && gi.intersecting().is_some() {
        // Both proved: acceptable only inside the touch band. The closed form's exact signed
        // distance says so when the distance query was closed form; otherwise (box pairs,
        // whose distance runs GJK, and GJK's `lower_bound` of an intersecting pair is no
        // signed distance) both certificates must verify and the separating one's gap must be
        // within the tolerances — a verified common point bounds the true distance by `vtol`.
        let exact_band = closed && may_differ(cf.lower_bound, cf.tolerance, floor, &gi.verdict);
        let gap = match (ci.verdict, gi.verdict) {
            (Verdict::Separated(s), _) | (_, Verdict::Separated(s)) => s.gap,
            _ => f64::INFINITY,
        };
        let tol = ci.tolerance.max(gi.tolerance);
        let cert_band =
            certified(a, pa, b, pb, &gi.verdict, vtol).is_ok() && gap <= 2.0 * tol + vtol;
        assert!(
            exact_band || cert_band,
            "boolean {:?} vs GJK {:?}, signed {} tol {tol}: {}",
            ci.verdict,
            gi.verdict,
            cf.lower_bound,
            msg()
        );
    }

    // Penetration.
    let mut ctx = epa::Context::new();
    let eopts = epa::Options::default();
    let cp = epa::penetration(a, pa, b, pb, &eopts, &mut ctx);
    let ep = epa::penetration(&na, pa, &nb, pb, &eopts, &mut ctx);
    assert!(
        cp.depth.is_finite() && cp.point_a.is_finite() && cp.point_b.is_finite(),
        "{cp:?} {}",
        msg()
    );
    assert!(unit_len(cp.normal), "{cp:?} {}", msg());
    if let Err(e) = certified(a, pa, b, pb, &cp.verdict, vtol) {
        panic!(
            "penetration certificate {:?} rejected: {e}: {}",
            cp.verdict,
            msg()
        );
    }
    if cp.iterations <= 1 && cp.status == Status::Converged {
        check_penetration(a, pa, b, pb, &cp, vtol.max(cp.tolerance), &msg);
        if ep.status == Status::Converged {
            let dslack = 2.0 * cp.tolerance.max(ep.tolerance) + 1e-9 * scale;
            assert!(
                (cp.depth - ep.depth).abs() <= dslack,
                "depth closed form {} vs EPA {} (slack {dslack}): {cp:?} {ep:?} {}",
                cp.depth,
                ep.depth,
                msg()
            );
        }
    }
}

/// A closed-form penetration: `point_a = point_b + depth·n`, projections overlap by `depth`.
fn check_penetration<V: Vector, S: SupportMap<V> + ?Sized>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    p: &Penetration<V>,
    tol: f64,
    msg: &dyn Fn() -> String,
) {
    let n = p.normal;
    assert!(
        (p.point_b + n * p.depth - p.point_a).length() <= 4.0 * tol,
        "witnesses off the normal: {p:?} {}",
        msg()
    );
    let overlap = h(a, pa, n) + h(b, pb, -n);
    assert!(
        (overlap - p.depth).abs() <= 4.0 * tol,
        "overlap {overlap} vs depth {}: {p:?} {}",
        p.depth,
        msg()
    );
}

/// B's placement: 0 free near A, 1 concentric, 2 a copy of A, 3 onto the touch band.
fn place<V: EpaSpace, S: SupportMap<V> + Clone>(
    r: &mut Bytes,
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: Pose<V>,
    mode: u8,
) -> Option<Pose<V>> {
    match mode {
        1 => Pose::new(pa.translation(), pb.rotation()).ok(),
        3 => {
            let d = gjk::distance(
                &NoHook(a.clone()),
                pa,
                &NoHook(b.clone()),
                &pb,
                &Options::default(),
                None,
            );
            if d.status != Status::Converged || d.lower_bound <= 0.0 {
                return Some(pb);
            }
            let k = r.pick(&[0.0, 0.5, 0.9, 1.0, 1.1, 2.0, -0.5]);
            let t = pb.translation() + d.normal * (k * d.tolerance - d.lower_bound);
            Pose::new(t, pb.rotation()).ok()
        }
        _ => Some(pb),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Bytes::new(data);
    let head = r.u8();
    let mode = (head >> 1) % 4;
    if head & 1 == 0 {
        let Some(a) = shape3(&mut r, 0) else { return };
        let b = if mode == 2 {
            a.clone()
        } else {
            let Some(b) = shape3(&mut r, 0) else { return };
            b
        };
        let Ok(pa) = Pose3::new(r.v3() * r.offset(), r.quat()) else {
            return;
        };
        let reach = a.bounding_radius() + b.bounding_radius() + 1e-3;
        let pb = if mode == 2 {
            pa
        } else {
            let t = pa.translation() + r.v3() * (1.5 * reach);
            let Ok(pb) = Pose3::new(t, r.quat()) else {
                return;
            };
            pb
        };
        let Some(pb) = place(&mut r, &a, &pa, &b, pb, mode) else {
            return;
        };
        check(&a, &pa, &b, &pb);
    } else {
        let Some(a) = shape2(&mut r, 0) else { return };
        let b = if mode == 2 {
            a.clone()
        } else {
            let Some(b) = shape2(&mut r, 0) else { return };
            b
        };
        let t = r.v2() * r.offset();
        let Ok(pa) = Pose2::from_angle([t.x, t.y], 3.2 * r.unit()) else {
            return;
        };
        let reach = a.bounding_radius() + b.bounding_radius() + 1e-3;
        let pb = if mode == 2 {
            pa
        } else {
            let t = pa.translation() + r.v2() * (1.5 * reach);
            let Ok(pb) = Pose2::from_angle([t.x, t.y], 3.2 * r.unit()) else {
                return;
            };
            pb
        };
        let Some(pb) = place(&mut r, &a, &pa, &b, pb, mode) else {
            return;
        };
        check(&a, &pa, &b, &pb);
    }
});
