//! Closed forms for primitive pairs (`gjk::closed_form`), dispatched from `gjk::distance`,
//! `gjk::intersects` and `epa::penetration`.
//!
//! Oracles: the GJK / EPA path on the same shapes behind a wrapper whose `primitive()` is the
//! default (so the hook cannot fire), analytic answers, `convexity::verify` on every
//! certificate, and parry3d-f64 as a cross-check.

use convexity::gjk;
use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::epa::{self, EpaSpace, Penetration};
use convexity::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn v3(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn rand_v3<R: Rng>(r: &mut R, s: f64) -> DVec3 {
    v3(
        r.gen_range(-s..=s),
        r.gen_range(-s..=s),
        r.gen_range(-s..=s),
    )
}

fn rand_unit<R: Rng>(r: &mut R) -> DVec3 {
    loop {
        let v = rand_v3(r, 1.0);
        if let Some(u) = v.try_normalize() {
            return u;
        }
    }
}

fn rand_v2<R: Rng>(r: &mut R, s: f64) -> DVec2 {
    DVec2::new(r.gen_range(-s..=s), r.gen_range(-s..=s))
}

fn rand_quat<R: Rng>(r: &mut R) -> DQuat {
    loop {
        let q = glam::DVec4::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let l = q.length();
        if l > 0.1 && l < 1.0 {
            let q = q / l;
            return DQuat::from_xyzw(q.x, q.y, q.z, q.w);
        }
    }
}

/// A radius: zero one time in eight.
fn radius<R: Rng>(r: &mut R) -> f64 {
    if r.gen_ratio(1, 8) {
        0.0
    } else {
        r.gen_range(0.05..1.0)
    }
}

/// The 3D primitive kinds under test.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind3 {
    Ball,
    Capsule,
    Segment,
    Cuboid,
    Triangle,
    /// `Rounded(Segment)` (a capsule) or `Rounded(Ball)`.
    RoundedSegment,
    /// A capsule under a `Transformed` pose.
    TransformedCapsule,
    /// `Rounded(Cuboid)` (flat boxes included).
    RoundedCuboid,
    /// `Rounded(Ball)`.
    RoundedBall,
}

fn shape3<R: Rng>(r: &mut R, k: Kind3) -> Shape3 {
    let seg = |r: &mut R| {
        let a = rand_v3(r, 1.0);
        match r.gen_range(0..8) {
            // Zero-length segment.
            0 => (a, a),
            // Axis-parallel segment (parallel pairs are frequent).
            1 => (v3(0.0, 0.0, -0.7), v3(0.0, 0.0, 0.7)),
            _ => (a, rand_v3(r, 1.0)),
        }
    };
    match k {
        Kind3::Ball => Shape3::Sphere(Ball::new(radius(r)).unwrap()),
        Kind3::Capsule => {
            let (a, b) = seg(r);
            Shape3::Capsule(Capsule::new(a, b, radius(r)).unwrap())
        }
        Kind3::Segment => {
            let (a, b) = seg(r);
            Shape3::Segment(Segment::new(a, b).unwrap())
        }
        Kind3::Cuboid => {
            let mut h = v3(
                r.gen_range(0.05..1.0),
                r.gen_range(0.05..1.0),
                r.gen_range(0.05..1.0),
            );
            if r.gen_ratio(1, 10) {
                h.y = 0.0; // a flat box
            }
            Shape3::Cuboid(Cuboid::new(h).unwrap())
        }
        Kind3::Triangle => {
            let a = rand_v3(r, 1.0);
            let (b, c) = match r.gen_range(0..10) {
                0 => (a, a),                                         // a point
                1 => (a + v3(0.5, 0.2, 0.1), a + v3(1.0, 0.4, 0.2)), // collinear
                2 => (a, rand_v3(r, 1.0)),                           // two equal vertices
                _ => (rand_v3(r, 1.0), rand_v3(r, 1.0)),
            };
            Shape3::Triangle(Triangle::new(a, b, c).unwrap())
        }
        Kind3::RoundedSegment => {
            let inner = if r.gen_ratio(1, 3) {
                Shape3::Sphere(Ball::new(radius(r)).unwrap())
            } else {
                let (a, b) = seg(r);
                Shape3::Segment(Segment::new(a, b).unwrap())
            };
            Shape3::Rounded(Box::new(Rounded::new(inner, radius(r)).unwrap()))
        }
        Kind3::RoundedCuboid => {
            let inner = shape3(r, Kind3::Cuboid);
            Shape3::Rounded(Box::new(Rounded::new(inner, radius(r)).unwrap()))
        }
        Kind3::RoundedBall => {
            let inner = shape3(r, Kind3::Ball);
            Shape3::Rounded(Box::new(Rounded::new(inner, radius(r)).unwrap()))
        }
        Kind3::TransformedCapsule => {
            let (a, b) = seg(r);
            let inner = Shape3::Capsule(Capsule::new(a, b, radius(r)).unwrap());
            let pose = Pose3::new(rand_v3(r, 1.0), rand_quat(r)).unwrap();
            Shape3::Transformed(Box::new(Transformed::new(inner, pose)))
        }
    }
}

/// Tallies of one agreement run.
#[derive(Debug, Default)]
struct Tally {
    pairs: usize,
    separated: usize,
    intersecting: usize,
    /// Verdicts that differ from GJK's, all within the band around the touch tolerance.
    band: usize,
    /// Penetration answered by the closed form (the rest went to EPA).
    pen_closed: usize,
    /// Separated pairs so close that the closest-point direction could not certify an axis:
    /// handed to GJK.
    handed_to_gjk: usize,
}

/// `max_{x ∈ S} n·x` of a posed shape (world frame).
fn h<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, n: V) -> f64 {
    n.dot(pose.transform_point(s.support(pose.inverse_transform_vector(n))))
}

/// Whether two verdicts may differ: GJK undetermined, or the exact signed distance within a
/// fifth of the tolerance of the touch threshold (rounding of the inputs at large offsets).
fn in_band(lower: f64, tol: f64, gjk_verdict: Option<bool>) -> bool {
    gjk_verdict.is_none() || (lower - tol).abs() <= 0.2 * tol
}

/// The closed form (`a`, `b` with the hook) against GJK / EPA (the same shapes, no hook):
/// distance, verdicts, certificates, witness points, penetration depth and its normal.
fn check_pair<V, S>(a: &S, pa: &Pose<V>, b: &S, pb: &Pose<V>, t: &mut Tally, what: &str)
where
    V: EpaSpace,
    S: SupportMap<V> + Clone + std::fmt::Debug,
{
    let na = NoHook(a.clone());
    let nb = NoHook(b.clone());
    let opts = gjk::Options::default();
    let ctx_msg = || format!("{what}: {a:?} at {pa:?} vs {b:?} at {pb:?}");
    let cf = gjk::distance(a, pa, b, pb, &opts, None);
    let g = gjk::distance(&na, pa, &nb, pb, &opts, None);
    let scale = a.size() + b.size();
    let vtol = tolerance_for(a, pa, b, pb);
    t.pairs += 1;

    // Distance.
    assert!(
        cf.distance.is_finite() && cf.lower_bound.is_finite(),
        "{}",
        ctx_msg()
    );
    assert!(cf.point_a.is_finite() && cf.point_b.is_finite() && cf.normal.is_finite());
    assert!((cf.normal.length() - 1.0).abs() < 1e-12, "{}", ctx_msg());
    if cf.iterations > 1 {
        // Handed to GJK: only a separated pair whose cores nearly touch.
        t.handed_to_gjk += 1;
        assert!(
            cf.lower_bound > 0.0 && cf.lower_bound < 1e-6 * scale,
            "{}",
            ctx_msg()
        );
    } else {
        assert_eq!(cf.status, Status::Converged);
    }
    let slack = 2.0 * cf.tolerance.max(g.tolerance) + 1e-12 * scale;
    assert!(
        (cf.distance - g.distance).abs() <= slack,
        "{}: closed form {} vs GJK {} ({:?})",
        ctx_msg(),
        cf.distance,
        g.distance,
        g.status
    );
    // The closed forms report GJK's own tolerance: the same terms, summed in another order,
    // with `|t_b − t_a|` for `|t_ab|` and, for a `Transformed` ball, a bounding radius of its
    // own (so the radii's share of the floor may differ). A floor that takes the translations
    // otherwise (lengths where GJK takes absolute-coordinate sums, say: 4ε · 0.7e3 apart at
    // the 1e3 offsets of `rand_pose3`, up to 40% of the tolerance at 1e6) fails this.
    let radii = 4.0 * f64::EPSILON * (a.bounding_radius() + b.bounding_radius());
    assert!(
        cf.tolerance > 0.0 && (cf.tolerance - g.tolerance).abs() <= 1e-12 * g.tolerance + radii,
        "{}: tolerance {:e} vs GJK's {:e}",
        ctx_msg(),
        cf.tolerance,
        g.tolerance
    );
    verify(a, pa, b, pb, &cf.verdict, vtol)
        .unwrap_or_else(|e| panic!("{}: certificate {:?} rejected: {e}", ctx_msg(), cf.verdict));
    match cf.verdict {
        Verdict::Separated(s) => {
            t.separated += 1;
            assert!(s.gap <= cf.distance + 1e-12 * scale);
            let sep = (cf.point_b - cf.point_a).length();
            assert!((sep - cf.distance).abs() <= vtol, "{}", ctx_msg());
            // The witnesses are on the surfaces, along the normal.
            assert!((h(a, pa, cf.normal) - cf.normal.dot(cf.point_a)).abs() <= vtol);
            assert!((h(b, pb, -cf.normal) + cf.normal.dot(cf.point_b)).abs() <= vtol);
        }
        Verdict::Intersecting(_) => t.intersecting += 1,
        Verdict::Undetermined => panic!("closed form undetermined: {}", ctx_msg()),
    }
    if cf.intersecting() != g.intersecting() {
        assert!(
            in_band(cf.lower_bound, cf.tolerance, g.intersecting()),
            "{}: closed form {:?} vs GJK {:?}, signed {} tol {}",
            ctx_msg(),
            cf.verdict,
            g.verdict,
            cf.lower_bound,
            cf.tolerance
        );
        t.band += 1;
    }

    // Boolean.
    let ci = gjk::intersects(a, pa, b, pb, &opts, None);
    let gi = gjk::intersects(&na, pa, &nb, pb, &opts, None);
    if ci.iterations <= 1 && cf.iterations <= 1 {
        assert_eq!(ci.intersecting(), cf.intersecting(), "{}", ctx_msg());
        assert_eq!(ci.status, Status::Converged);
    }
    verify(a, pa, b, pb, &ci.verdict, vtol).unwrap_or_else(|e| panic!("{}: {e}", ctx_msg()));
    if ci.intersecting() != gi.intersecting() {
        assert!(
            in_band(cf.lower_bound, cf.tolerance, gi.intersecting()),
            "{}",
            ctx_msg()
        );
    }

    // Penetration.
    let mut ctx = epa::Context::new();
    let eopts = epa::Options::default();
    let cp = epa::penetration(a, pa, b, pb, &eopts, &mut ctx);
    let ep = epa::penetration(&na, pa, &nb, pb, &eopts, &mut ctx);
    if cp.iterations <= 1 && cp.status == Status::Converged {
        // Answered in closed form (EPA's own answers are tested in tests/epa.rs).
        check_penetration(a, pa, b, pb, &cp, vtol, &ctx_msg);
        t.pen_closed += 1;
    }
    let dslack = 2.0 * cp.tolerance.max(ep.tolerance) + 1e-9 * scale;
    assert!(
        (cp.depth - ep.depth).abs() <= dslack,
        "{}: depth closed form {} vs EPA {} ({:?})",
        ctx_msg(),
        cp.depth,
        ep.depth,
        ep.status
    );
}

/// Penetration answers: finite, unit normal, `point_a = point_b + depth·n`, and the overlap of
/// the projections on `n` equal to the depth.
fn check_penetration<V: Vector, S: SupportMap<V> + ?Sized>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    p: &Penetration<V>,
    tol: f64,
    msg: &dyn Fn() -> String,
) {
    assert!(
        p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite(),
        "{}",
        msg()
    );
    assert!((p.normal.length() - 1.0).abs() < 1e-12, "{}", msg());
    let n = p.normal;
    assert!(
        (p.point_b + n * p.depth - p.point_a).length() <= 4.0 * tol,
        "{}: {p:?}",
        msg()
    );
    let overlap = h(a, pa, n) + h(b, pb, -n);
    assert!(
        (overlap - p.depth).abs() <= 4.0 * tol,
        "{}: overlap {overlap} vs depth {}",
        msg(),
        p.depth
    );
}

/// A random pose at one of the offsets 0, 1, 1e3, 1e6.
fn rand_pose3<R: Rng>(r: &mut R) -> Pose3 {
    let offset = [0.0, 1.0, 1e3, 1e6][r.gen_range(0..4)];
    Pose3::new(rand_v3(r, 1.0) * offset, rand_quat(r)).unwrap()
}

/// B's pose: near A, then one time in two moved along the normal so that the gap is
/// `k · tolerance` with `k` in {0, 0.5, 0.9, 1.1, 2} (touching and the tolerance sweep).
fn place3<R: Rng>(r: &mut R, a: &Shape3, pa: &Pose3, b: &Shape3) -> Pose3 {
    let pb = Pose3::new(pa.translation() + rand_v3(r, 2.5), rand_quat(r)).unwrap();
    if r.gen_bool(0.5) {
        return pb;
    }
    let d = gjk::distance(a, pa, b, &pb, &gjk::Options::default(), None);
    if d.lower_bound <= 0.0 {
        return pb;
    }
    let k = [0.0, 0.5, 0.9, 1.1, 2.0][r.gen_range(0..5)];
    let shift = d.normal * (k * d.tolerance - d.lower_bound);
    Pose3::new(pb.translation() + shift, pb.rotation()).unwrap()
}

fn agreement3(ka: Kind3, kb: Kind3, seed: u64) -> Tally {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for _ in 0..10_000 {
        let a = shape3(&mut r, ka);
        let b = shape3(&mut r, kb);
        let pa = rand_pose3(&mut r);
        let pb = place3(&mut r, &a, &pa, &b);
        check_pair(&a, &pa, &b, &pb, &mut t, &format!("{ka:?}-{kb:?}"));
    }
    assert!(t.separated > 1000 && t.intersecting > 1000, "{t:?}");
    assert!(t.band <= t.pairs / 100, "{t:?}");
    assert!(t.handed_to_gjk <= t.pairs / 10, "{t:?}");
    eprintln!("{ka:?}-{kb:?}: {t:?}");
    t
}

#[test]
fn ball_ball_agrees_with_gjk() {
    let t = agreement3(Kind3::Ball, Kind3::Ball, 1);
    assert!(t.pen_closed > t.pairs * 9 / 10, "{t:?}");
}

#[test]
fn ball_box_agrees_with_gjk() {
    agreement3(Kind3::Ball, Kind3::Cuboid, 2);
    agreement3(Kind3::Cuboid, Kind3::Ball, 3);
}

#[test]
fn ball_capsule_agrees_with_gjk() {
    agreement3(Kind3::Ball, Kind3::Capsule, 4);
    agreement3(Kind3::Capsule, Kind3::Ball, 5);
}

#[test]
fn capsule_capsule_agrees_with_gjk() {
    agreement3(Kind3::Capsule, Kind3::Capsule, 6);
}

#[test]
fn segment_segment_agrees_with_gjk() {
    agreement3(Kind3::Segment, Kind3::Segment, 7);
}

#[test]
fn ball_segment_agrees_with_gjk() {
    agreement3(Kind3::Ball, Kind3::Segment, 8);
    agreement3(Kind3::Segment, Kind3::Ball, 9);
}

#[test]
fn ball_triangle_agrees_with_gjk() {
    agreement3(Kind3::Ball, Kind3::Triangle, 10);
    agreement3(Kind3::Triangle, Kind3::Ball, 11);
}

#[test]
fn rounded_and_transformed_agree_with_gjk() {
    agreement3(Kind3::RoundedSegment, Kind3::TransformedCapsule, 12);
    agreement3(Kind3::TransformedCapsule, Kind3::Ball, 13);
}

/// The ball–box shortcut (`BallBox`) on rounded boxes and rounded balls, both orders: the box's
/// and the ball's radii both enter the gap, the normal and the witness points.
#[test]
fn rounded_ball_and_rounded_box_agree_with_gjk() {
    agreement3(Kind3::RoundedCuboid, Kind3::Ball, 30);
    agreement3(Kind3::RoundedBall, Kind3::RoundedCuboid, 31);
    agreement3(Kind3::RoundedBall, Kind3::Cuboid, 32);
}

#[test]
fn box_box_boolean_agrees_with_gjk() {
    let mut r = rng(14);
    let opts = gjk::Options::default();
    let (mut sep, mut int, mut closed, mut band) = (0, 0, 0, 0);
    for _ in 0..10_000 {
        let a = shape3(&mut r, Kind3::Cuboid);
        let b = shape3(&mut r, Kind3::Cuboid);
        let pa = rand_pose3(&mut r);
        let pb = place3(&mut r, &a, &pa, &b);
        let msg = || format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
        let ci = gjk::intersects(&a, &pa, &b, &pb, &opts, None);
        let gi = gjk::intersects(
            &NoHook(a.clone()),
            &pa,
            &NoHook(b.clone()),
            &pb,
            &opts,
            None,
        );
        let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &ci.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", msg()));
        if ci.iterations == 1 {
            closed += 1;
        }
        match ci.intersecting() {
            Some(true) => int += 1,
            Some(false) => sep += 1,
            None => panic!("undetermined {}", msg()),
        }
        if ci.intersecting() != gi.intersecting() {
            assert!(
                in_band(d.lower_bound, d.tolerance, gi.intersecting()),
                "{}",
                msg()
            );
            band += 1;
        }
    }
    assert!(sep > 1000 && int > 1000, "{sep} {int}");
    assert!(band < 100, "{band}");
    // SAT answers most pairs itself; the rest (a best axis inside the tolerance band, where
    // half the pairs are placed, or an overlap too thin for the common-point search) run GJK.
    assert!(closed > 7_000, "{closed}");
}

/// Box–box distance by the SAT's best axis and certified closest points, against GJK on the
/// same boxes (behind `NoHook`) on 10,000 pairs at offsets up to 1e6, half of them placed
/// within a few tolerances of touching, one box in ten flat. Where the closed form answers
/// (one iteration), its distance is exact to rounding (its bounds within `1e-13` of the size
/// plus the rounding floor), inside GJK's certified interval, its witness points lie on the
/// surfaces along the normal, and its certificate verifies; the verdicts agree outside the
/// band around the touch tolerance.
#[test]
fn box_box_distance_agrees_with_gjk() {
    let mut r = rng(15);
    let opts = gjk::Options::default();
    let (mut sep, mut int, mut closed, mut far_to_gjk) = (0, 0, 0, 0);
    for _ in 0..10_000 {
        let a = shape3(&mut r, Kind3::Cuboid);
        let b = shape3(&mut r, Kind3::Cuboid);
        let pa = rand_pose3(&mut r);
        let pb = place3(&mut r, &a, &pa, &b);
        let msg = || format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
        let cf = gjk::distance(&a, &pa, &b, &pb, &opts, None);
        let g = gjk::distance(
            &NoHook(a.clone()),
            &pa,
            &NoHook(b.clone()),
            &pb,
            &opts,
            None,
        );
        let vtol = tolerance_for(&a, &pa, &b, &pb);
        let scale = a.size() + b.size();
        verify(&a, &pa, &b, &pb, &cf.verdict, vtol).unwrap_or_else(|e| panic!("{}: {e}", msg()));
        assert!(cf.distance.is_finite() && cf.point_a.is_finite() && cf.point_b.is_finite());
        assert!((cf.normal.length() - 1.0).abs() < 1e-12, "{}", msg());
        if cf.iterations != 1 {
            if g.lower_bound > 3.0 * g.tolerance {
                far_to_gjk += 1;
            }
            continue;
        }
        closed += 1;
        assert_eq!(cf.status, Status::Converged);
        let floor = 8.0 * f64::EPSILON * (pa.translation().length() + pb.translation().length());
        let exact = 1e-12 * scale + floor;
        match cf.verdict {
            Verdict::Separated(s) => {
                sep += 1;
                assert!(cf.distance - cf.lower_bound <= exact, "{}", msg());
                assert!(s.gap <= cf.distance + exact);
                assert!(
                    cf.distance >= g.lower_bound - exact && cf.distance <= g.distance + exact,
                    "{}: closed form {} outside GJK's [{}, {}]",
                    msg(),
                    cf.distance,
                    g.lower_bound,
                    g.distance
                );
                assert!(((cf.point_b - cf.point_a).length() - cf.distance).abs() <= exact);
                assert!((h(&a, &pa, cf.normal) - cf.normal.dot(cf.point_a)).abs() <= exact);
                assert!((h(&b, &pb, -cf.normal) + cf.normal.dot(cf.point_b)).abs() <= exact);
            }
            Verdict::Intersecting(_) => {
                int += 1;
                assert!(cf.distance <= cf.tolerance, "{}", msg());
            }
            Verdict::Undetermined => panic!("undetermined {}", msg()),
        }
        if cf.intersecting() != g.intersecting() {
            assert!(
                in_band(g.lower_bound, g.tolerance, cf.intersecting()),
                "{}: closed form {:?} vs GJK {:?}",
                msg(),
                cf.verdict,
                g.verdict
            );
        }
    }
    eprintln!("box-box distance: {closed} closed ({sep} separated, {int} intersecting), {far_to_gjk} apart by > 3 tol handed to GJK");
    // Half the pairs are placed within 2 tolerances of touching, where GJK decides.
    assert!(sep > 3000 && int > 1000, "{sep} {int}");
    assert!(closed > 6_000, "{closed}");
    assert!(far_to_gjk <= 50, "{far_to_gjk}");
}

/// Box–box distance against the clarabel SOCP oracle on the boxes' corners: 300 separated pairs
/// of random boxes (flat ones included) answered by the closed form, distance within 1e-9 of
/// the oracle's certified bracket.
#[test]
fn box_box_distance_matches_the_socp_oracle() {
    let mut r = rng(16);
    let opts = gjk::Options::default();
    let corners = |s: &Shape3, p: &Pose3| -> Vec<DVec3> {
        let Shape3::Cuboid(c) = s else { unreachable!() };
        convexity_testkit::gen3::box_corners3(c.half_extents())
            .into_iter()
            .map(|v| p.transform_point(v))
            .collect()
    };
    let mut checked = 0;
    while checked < 300 {
        let a = shape3(&mut r, Kind3::Cuboid);
        let b = shape3(&mut r, Kind3::Cuboid);
        let pa = Pose3::new(rand_v3(&mut r, 1.0), rand_quat(&mut r)).unwrap();
        let pb = Pose3::new(pa.translation() + rand_v3(&mut r, 3.0), rand_quat(&mut r)).unwrap();
        let cf = gjk::distance(&a, &pa, &b, &pb, &opts, None);
        if cf.iterations != 1 || cf.intersecting() != Some(false) {
            continue;
        }
        let o =
            convexity_testkit::hull_oracle::hull_distance3(&corners(&a, &pa), &corners(&b, &pb))
                .unwrap();
        assert!(
            cf.distance >= o.lower_bound - 1e-9 && cf.distance <= o.upper_bound + 1e-9,
            "{a:?} at {pa:?} vs {b:?} at {pb:?}: {} vs oracle [{}, {}]",
            cf.distance,
            o.lower_bound,
            o.upper_bound
        );
        checked += 1;
    }
}

/// Box–box penetration by the SAT closed form against EPA on the same boxes (behind `NoHook`)
/// on 10,000 pairs at offsets up to 1e6, half of them placed within a few tolerances of
/// touching: the same verdict, the depth equal to EPA's certified interval (within the
/// tolerance), the contact convention and overlap check of `check_penetration`, and the
/// common point verified.
#[test]
fn box_box_penetration_agrees_with_epa() {
    let mut r = rng(15);
    let opts = epa::Options::default();
    let (mut closed, mut overlapping, mut worst) = (0, 0, 0.0f64);
    for _ in 0..10_000 {
        let a = shape3(&mut r, Kind3::Cuboid);
        let b = shape3(&mut r, Kind3::Cuboid);
        let pa = rand_pose3(&mut r);
        let pb = place3(&mut r, &a, &pa, &b);
        let msg = || format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
        let cf = epa::penetration(&a, &pa, &b, &pb, &opts, &mut epa::Context::new());
        let ep = epa::penetration(
            &NoHook(a.clone()),
            &pa,
            &NoHook(b.clone()),
            &pb,
            &opts,
            &mut epa::Context::new(),
        );
        if ep.verdict.intersecting() != Some(true) {
            continue;
        }
        overlapping += 1;
        if cf.iterations != 1 {
            continue;
        }
        closed += 1;
        assert_eq!(cf.verdict.intersecting(), Some(true), "{}", msg());
        let tol = cf.tolerance;
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &cf.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", msg()));
        check_penetration(&a, &pa, &b, &pb, &cf, tol, &msg);
        // EPA brackets the true depth in [depth_lower, depth_upper]; the SAT depth is exact.
        let err = (cf.depth - ep.depth_lower.max(0.0)).max(0.0)
            + (ep.depth_upper - cf.depth).min(0.0).abs();
        worst = worst.max(err / tol);
        assert!(
            cf.depth >= ep.depth_lower - 4.0 * tol && cf.depth <= ep.depth_upper + 4.0 * tol,
            "{}: SAT depth {} outside EPA's [{}, {}]",
            msg(),
            cf.depth,
            ep.depth_lower,
            ep.depth_upper
        );
    }
    eprintln!(
        "box–box penetration: {closed} of {overlapping} overlapping pairs by SAT, worst \
         excess {worst:e} tolerances"
    );
    assert!(
        overlapping > 3_000 && closed * 10 >= overlapping * 9,
        "{closed} of {overlapping}"
    );
}

// ---------------------------------------------------------------------------------------
// 2D
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind2 {
    Circle,
    Capsule,
    Segment,
    Rect,
    Polygon,
}

fn shape2<R: Rng>(r: &mut R, k: Kind2) -> Shape2 {
    match k {
        Kind2::Circle => Shape2::Circle(Ball::new(radius(r)).unwrap()),
        Kind2::Capsule => {
            let a = rand_v2(r, 1.0);
            let b = if r.gen_ratio(1, 8) {
                a
            } else {
                rand_v2(r, 1.0)
            };
            Shape2::Capsule(Capsule::new(a, b, radius(r)).unwrap())
        }
        Kind2::Segment => Shape2::Segment(Segment::new(rand_v2(r, 1.0), rand_v2(r, 1.0)).unwrap()),
        Kind2::Rect => Shape2::Rect(
            Cuboid::new(DVec2::new(r.gen_range(0.05..1.0), r.gen_range(0.0..1.0))).unwrap(),
        ),
        Kind2::Polygon => {
            // A convex polygon: sorted angles on an ellipse (sometimes only 1–2 vertices, or
            // collinear ones).
            let n = [1, 2, 3, 5, 8][r.gen_range(0..5)];
            let (rx, ry) = (r.gen_range(0.1..1.0), r.gen_range(0.0..1.0));
            let mut ang: Vec<f64> = (0..n)
                .map(|_| r.gen_range(0.0..std::f64::consts::TAU))
                .collect();
            ang.sort_by(f64::total_cmp);
            let pts: Vec<DVec2> = ang
                .iter()
                .map(|t| DVec2::new(rx * t.cos(), ry * t.sin()))
                .collect();
            match ConvexPolygon::new(&pts) {
                Ok(p) => Shape2::Polygon(p),
                Err(_) => Shape2::Circle(Ball::new(rx).unwrap()),
            }
        }
    }
}

fn rand_pose2<R: Rng>(r: &mut R) -> Pose2 {
    let offset = [0.0, 1.0, 1e3, 1e6][r.gen_range(0..4)];
    let t = rand_v2(r, 1.0) * offset;
    Pose2::from_angle([t.x, t.y], r.gen_range(-3.2..3.2)).unwrap()
}

fn agreement2(ka: Kind2, kb: Kind2, seed: u64) -> Tally {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for _ in 0..10_000 {
        let a = shape2(&mut r, ka);
        let b = shape2(&mut r, kb);
        let pa = rand_pose2(&mut r);
        let off = pa.translation() + rand_v2(&mut r, 2.5);
        let mut pb = Pose2::from_angle([off.x, off.y], r.gen_range(-3.2..3.2)).unwrap();
        if r.gen_bool(0.5) {
            let d = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
            if d.lower_bound > 0.0 {
                let k = [0.0, 0.5, 0.9, 1.1, 2.0][r.gen_range(0..5)];
                let t = pb.translation() + d.normal * (k * d.tolerance - d.lower_bound);
                pb = Pose2::new(t, pb.rotation()).unwrap();
            }
        }
        check_pair(&a, &pa, &b, &pb, &mut t, &format!("{ka:?}-{kb:?}"));
    }
    assert!(t.separated > 1000 && t.intersecting > 1000, "{t:?}");
    assert!(t.band <= t.pairs / 100, "{t:?}");
    assert!(t.handed_to_gjk <= t.pairs / 10, "{t:?}");
    eprintln!("{ka:?}-{kb:?}: {t:?}");
    t
}

#[test]
fn circle_circle_agrees_with_gjk() {
    agreement2(Kind2::Circle, Kind2::Circle, 21);
}

#[test]
fn circle_segment_and_capsule_agree_with_gjk() {
    agreement2(Kind2::Circle, Kind2::Segment, 22);
    agreement2(Kind2::Capsule, Kind2::Capsule, 23);
}

#[test]
fn circle_rect_agrees_with_gjk() {
    agreement2(Kind2::Circle, Kind2::Rect, 24);
    agreement2(Kind2::Rect, Kind2::Circle, 25);
}

#[test]
fn circle_polygon_agrees_with_gjk() {
    agreement2(Kind2::Circle, Kind2::Polygon, 26);
    agreement2(Kind2::Polygon, Kind2::Circle, 27);
}

#[test]
fn rect_rect_boolean_agrees_with_gjk() {
    let mut r = rng(28);
    let opts = gjk::Options::default();
    let (mut sep, mut int) = (0, 0);
    for _ in 0..10_000 {
        let a = shape2(&mut r, Kind2::Rect);
        let b = shape2(&mut r, Kind2::Rect);
        let pa = rand_pose2(&mut r);
        let off = pa.translation() + rand_v2(&mut r, 2.0);
        let pb = Pose2::from_angle([off.x, off.y], r.gen_range(-3.2..3.2)).unwrap();
        let ci = gjk::intersects(&a, &pa, &b, &pb, &opts, None);
        let gi = gjk::intersects(
            &NoHook(a.clone()),
            &pa,
            &NoHook(b.clone()),
            &pb,
            &opts,
            None,
        );
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &ci.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap();
        assert_eq!(
            ci.intersecting(),
            gi.intersecting(),
            "{a:?} {pa:?} {b:?} {pb:?}"
        );
        match ci.intersecting() {
            Some(true) => int += 1,
            _ => sep += 1,
        }
    }
    assert!(sep > 1000 && int > 1000);
}

// ---------------------------------------------------------------------------------------
// Analytic and degenerate cases
// ---------------------------------------------------------------------------------------

fn at(x: f64, y: f64, z: f64) -> Pose3 {
    Pose3::from_translation(v3(x, y, z)).unwrap()
}

#[test]
fn ball_ball_analytic_distance_and_certificate() {
    let a = Ball::new(1.0).unwrap();
    let b = Ball::new(0.5).unwrap();
    let d = gjk::distance(
        &a,
        &at(1e6, 0.0, 0.0),
        &b,
        &at(1e6 + 3.0, 4.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(d.iterations, 1);
    assert!((d.distance - 3.5).abs() < 1e-9);
    assert!((d.normal - v3(0.6, 0.8, 0.0)).length() < 1e-12);
    assert!((d.point_a - v3(1e6 + 0.6, 0.8, 0.0)).length() < 1e-9);
    match d.verdict {
        Verdict::Separated(s) => assert!((s.gap - 3.5).abs() < 1e-9),
        v => panic!("{v:?}"),
    }
}

#[test]
fn concentric_balls_have_the_defined_penetration() {
    let a = Ball::new(1.0).unwrap();
    let b = Ball::new(0.25).unwrap();
    let q = DQuat::from_rotation_z(0.5);
    let pa = Pose3::new(v3(2.0, 3.0, 4.0), q).unwrap();
    let pb = at(2.0, 3.0, 4.0);
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
    assert_eq!(p.depth, 1.25);
    // A's local x axis, in the world.
    assert!((p.normal - q * DVec3::X).length() < 1e-15);
    let e = epa::penetration(
        &NoHook(a),
        &pa,
        &NoHook(b),
        &pb,
        &epa::Options::default(),
        &mut ctx,
    );
    assert_eq!(e.depth, p.depth);
    assert!((e.normal - p.normal).length() < 1e-12);
    let d = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
    assert!(d.distance == 0.0 && d.lower_bound == -1.25 && d.normal.is_finite());
    assert_eq!(
        d.verdict,
        Verdict::Intersecting(CommonPoint {
            point: v3(2.0, 3.0, 4.0)
        })
    );
}

#[test]
fn zero_radius_balls_are_points() {
    let a = Ball::new(0.0).unwrap();
    let same = gjk::distance(
        &a,
        &at(1.0, 1.0, 1.0),
        &a,
        &at(1.0, 1.0, 1.0),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(same.distance, 0.0);
    assert_eq!(same.intersecting(), Some(true));
    let apart = gjk::distance(
        &a,
        &at(0.0, 0.0, 0.0),
        &a,
        &at(0.0, 2.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(apart.distance, 2.0);
    assert_eq!(apart.normal, DVec3::Y);
}

#[test]
fn zero_length_capsule_is_a_ball() {
    let c = Capsule::new(v3(0.5, 0.0, 0.0), v3(0.5, 0.0, 0.0), 1.0).unwrap();
    let b = Ball::new(1.0).unwrap();
    let d = gjk::distance(
        &c,
        &Pose3::IDENTITY,
        &b,
        &at(3.5, 0.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert!((d.distance - 1.0).abs() < 1e-15);
    assert_eq!(d.iterations, 1);
}

#[test]
fn parallel_segments_distance_is_their_offset() {
    let s = Segment::new(v3(-1.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)).unwrap();
    for dx in [0.0, 0.5, 1.9, 2.0] {
        let d = gjk::distance(
            &s,
            &Pose3::IDENTITY,
            &s,
            &at(dx, 0.3, 0.0),
            &gjk::Options::default(),
            None,
        );
        assert!((d.distance - 0.3).abs() < 1e-15, "{dx} {d:?}");
        assert_eq!(d.normal, DVec3::Y);
    }
    // Collinear overlapping: touching, the common point is on both.
    let d = gjk::distance(
        &s,
        &Pose3::IDENTITY,
        &s,
        &at(0.5, 0.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(d.distance, 0.0);
    verify(
        &s,
        &Pose3::IDENTITY,
        &s,
        &at(0.5, 0.0, 0.0),
        &d.verdict,
        1e-12,
    )
    .unwrap();
}

#[test]
fn capsules_crossing_touch_tolerance_sweep() {
    let c = Capsule::new(v3(-1.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), 0.5).unwrap();
    let q = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let tol = gjk::distance(
        &c,
        &Pose3::IDENTITY,
        &c,
        &at(0.0, 0.0, 2.0),
        &gjk::Options::default(),
        None,
    )
    .tolerance;
    for (k, expect) in [
        (0.0, true),
        (0.5, true),
        (0.9, true),
        (1.1, false),
        (2.0, false),
    ] {
        let pb = Pose3::new(v3(0.0, 0.0, 1.0 + k * tol), q).unwrap();
        let i = gjk::intersects(
            &c,
            &Pose3::IDENTITY,
            &c,
            &pb,
            &gjk::Options::default(),
            None,
        );
        assert_eq!(i.intersecting(), Some(expect), "{k}");
        verify(
            &c,
            &Pose3::IDENTITY,
            &c,
            &pb,
            &i.verdict,
            tolerance_for(&c, &Pose3::IDENTITY, &c, &pb),
        )
        .unwrap();
    }
}

#[test]
fn ball_inside_box_penetration_is_the_nearest_face() {
    let bx = Cuboid::new(v3(1.0, 2.0, 3.0)).unwrap();
    let ball = Ball::new(0.25).unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(
        &bx,
        &Pose3::IDENTITY,
        &ball,
        &at(0.5, 1.8, 0.0),
        &epa::Options::default(),
        &mut ctx,
    );
    assert!((p.depth - 0.45).abs() < 1e-15);
    assert_eq!(p.normal, DVec3::Y);
    assert_eq!(p.iterations, 1);
    let p = epa::penetration(
        &ball,
        &at(0.5, 1.8, 0.0),
        &bx,
        &Pose3::IDENTITY,
        &epa::Options::default(),
        &mut ctx,
    );
    assert!((p.depth - 0.45).abs() < 1e-15);
    assert_eq!(p.normal, -DVec3::Y);
}

#[test]
fn ball_triangle_analytic() {
    let t = Triangle::new(v3(0.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 2.0, 0.0)).unwrap();
    let b = Ball::new(0.5).unwrap();
    let cases = [
        (v3(0.5, 0.5, 2.0), 1.5),               // above the face
        (v3(-3.0, -4.0, 0.0), 4.5),             // vertex region
        (v3(1.0, -2.0, 0.0), 1.5),              // edge region
        (v3(2.0, 2.0, 0.0), 2f64.sqrt() - 0.5), // hypotenuse region
    ];
    for (c, expect) in cases {
        let d = gjk::distance(
            &t,
            &Pose3::IDENTITY,
            &b,
            &at(c.x, c.y, c.z),
            &gjk::Options::default(),
            None,
        );
        assert!((d.distance - expect).abs() < 1e-14, "{c} {d:?}");
    }
    // A point triangle and a collinear one never give NaN.
    let p = Triangle::new(v3(1.0, 1.0, 1.0), v3(1.0, 1.0, 1.0), v3(1.0, 1.0, 1.0)).unwrap();
    let d = gjk::distance(
        &p,
        &Pose3::IDENTITY,
        &b,
        &at(1.0, 1.0, 3.0),
        &gjk::Options::default(),
        None,
    );
    assert!((d.distance - 1.5).abs() < 1e-15);
    let l = Triangle::new(v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(2.0, 0.0, 0.0)).unwrap();
    let d = gjk::distance(
        &l,
        &Pose3::IDENTITY,
        &b,
        &at(1.5, 1.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert!((d.distance - 0.5).abs() < 1e-15, "{d:?}");
}

#[test]
fn box_box_sat_analytic() {
    let a = Cuboid::new(v3(1.0, 1.0, 1.0)).unwrap();
    let opts = gjk::Options::default();
    // Face-separated along x by 0.5.
    let i = gjk::intersects(&a, &Pose3::IDENTITY, &a, &at(2.5, 0.3, 0.0), &opts, None);
    match i.verdict {
        Verdict::Separated(s) => {
            assert!((s.gap - 0.5).abs() < 1e-15);
            assert!((s.axis - DVec3::X).length() < 1e-15);
        }
        v => panic!("{v:?}"),
    }
    assert_eq!(i.iterations, 1);
    // Edge–edge: B rotated 45° about z and about x, placed diagonally.
    let q = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4)
        * DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4);
    let pb = Pose3::new(v3(2.0, 2.0, 0.0), q).unwrap();
    let i = gjk::intersects(&a, &Pose3::IDENTITY, &a, &pb, &opts, None);
    let g = gjk::intersects(&NoHook(a), &Pose3::IDENTITY, &NoHook(a), &pb, &opts, None);
    assert_eq!(i.intersecting(), g.intersecting());
    verify(&a, &Pose3::IDENTITY, &a, &pb, &i.verdict, 1e-9).unwrap();
    // Overlapping: a common point.
    let i = gjk::intersects(
        &a,
        &Pose3::IDENTITY,
        &a,
        &Pose3::new(v3(1.5, 0.2, 0.0), q).unwrap(),
        &opts,
        None,
    );
    assert_eq!(i.intersecting(), Some(true));
}

#[test]
fn circle_polygon_analytic() {
    let sq = ConvexPolygon::new(&[
        DVec2::new(-1.0, -1.0),
        DVec2::new(1.0, -1.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(-1.0, 1.0),
    ])
    .unwrap();
    let c = Ball::new(0.5).unwrap();
    let p = |x: f64, y: f64| Pose2::from_angle([x, y], 0.0).unwrap();
    let d = gjk::distance(
        &sq,
        &p(0.0, 0.0),
        &c,
        &p(3.0, 0.0),
        &gjk::Options::default(),
        None,
    );
    assert!((d.distance - 1.5).abs() < 1e-15);
    let d = gjk::distance(
        &sq,
        &p(0.0, 0.0),
        &c,
        &p(4.0, 5.0),
        &gjk::Options::default(),
        None,
    );
    assert!((d.distance - 4.5).abs() < 1e-14);
    let d = gjk::distance(
        &sq,
        &p(0.0, 0.0),
        &c,
        &p(0.2, 0.1),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(d.distance, 0.0);
    assert_eq!(d.iterations, 1);
}

#[test]
fn warm_start_cache_stays_usable() {
    let a = Ball::new(1.0).unwrap();
    let h = Points::new(&[v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 1.0, 0.0)]).unwrap();
    let mut cache = gjk::Cache::new();
    let opts = gjk::Options::default();
    let before = gjk::distance(
        &h,
        &at(0.0, 0.0, 0.0),
        &a,
        &at(0.0, 0.0, 3.0),
        &opts,
        Some(&mut cache),
    );
    let _ = gjk::distance(
        &a,
        &at(0.0, 0.0, 0.0),
        &a,
        &at(0.0, 0.0, 3.0),
        &opts,
        Some(&mut cache),
    );
    let after = gjk::distance(
        &h,
        &at(0.0, 0.0, 0.0),
        &a,
        &at(0.0, 0.0, 3.0),
        &opts,
        Some(&mut cache),
    );
    assert!((before.distance - after.distance).abs() < 1e-12);
}

#[test]
fn other_shapes_still_run_gjk() {
    let p = Points::new(&[
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ])
    .unwrap();
    let b = Ball::new(0.5).unwrap();
    let d = gjk::distance(
        &p,
        &Pose3::IDENTITY,
        &b,
        &at(3.0, 3.0, 3.0),
        &gjk::Options::default(),
        None,
    );
    assert!(d.iterations > 1);
    // A capsule against a box has no closed form either.
    let c = Capsule::new(v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), 0.5).unwrap();
    let bx = Cuboid::new(v3(1.0, 1.0, 1.0)).unwrap();
    let d = gjk::distance(
        &c,
        &Pose3::IDENTITY,
        &bx,
        &at(3.0, 3.0, 3.0),
        &gjk::Options::default(),
        None,
    );
    assert!(d.iterations > 1);
}

// ---------------------------------------------------------------------------------------
// parry cross-check
// ---------------------------------------------------------------------------------------

fn parry_pose(p: &Pose3) -> parry3d_f64::math::Pose {
    parry3d_f64::math::Pose::from_parts(p.translation(), p.rotation())
}

#[test]
fn agrees_with_parry_on_primitive_pairs() {
    use parry3d_f64::query;
    use parry3d_f64::shape as ps;
    let mut r = rng(31);
    let opts = gjk::Options::default();
    let mut compared = 0;
    for i in 0..4000 {
        let pa = Pose3::new(rand_v3(&mut r, 10.0), rand_quat(&mut r)).unwrap();
        let pb = Pose3::new(pa.translation() + rand_v3(&mut r, 2.5), rand_quat(&mut r)).unwrap();
        let (ra, rb) = (r.gen_range(0.1..1.0), r.gen_range(0.1..1.0));
        let (s0, s1) = (rand_v3(&mut r, 1.0), rand_v3(&mut r, 1.0));
        let (t0, t1) = (rand_v3(&mut r, 1.0), rand_v3(&mut r, 1.0));
        let h = v3(
            r.gen_range(0.1..1.0),
            r.gen_range(0.1..1.0),
            r.gen_range(0.1..1.0),
        );
        let (ours, theirs, hit) = match i % 5 {
            0 => {
                let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
                let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
                let p = query::distance(
                    &parry_pose(&pa),
                    &ps::Ball::new(ra),
                    &parry_pose(&pb),
                    &ps::Ball::new(rb),
                )
                .unwrap();
                (
                    d.distance,
                    p,
                    gjk::intersects(&a, &pa, &b, &pb, &opts, None).intersecting(),
                )
            }
            1 => {
                let (a, b) = (
                    Capsule::new(s0, s1, ra).unwrap(),
                    Capsule::new(t0, t1, rb).unwrap(),
                );
                let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
                let p = query::distance(
                    &parry_pose(&pa),
                    &ps::Capsule::new(s0, s1, ra),
                    &parry_pose(&pb),
                    &ps::Capsule::new(t0, t1, rb),
                )
                .unwrap();
                (
                    d.distance,
                    p,
                    gjk::intersects(&a, &pa, &b, &pb, &opts, None).intersecting(),
                )
            }
            2 => {
                let (a, b) = (Ball::new(ra).unwrap(), Cuboid::new(h).unwrap());
                let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
                let p = query::distance(
                    &parry_pose(&pa),
                    &ps::Ball::new(ra),
                    &parry_pose(&pb),
                    &ps::Cuboid::new(h),
                )
                .unwrap();
                (
                    d.distance,
                    p,
                    gjk::intersects(&a, &pa, &b, &pb, &opts, None).intersecting(),
                )
            }
            3 => {
                let (a, b) = (Triangle::new(s0, s1, t0).unwrap(), Ball::new(rb).unwrap());
                let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
                let p = query::distance(
                    &parry_pose(&pa),
                    &ps::Triangle::new(s0, s1, t0),
                    &parry_pose(&pb),
                    &ps::Ball::new(rb),
                )
                .unwrap();
                (
                    d.distance,
                    p,
                    gjk::intersects(&a, &pa, &b, &pb, &opts, None).intersecting(),
                )
            }
            _ => {
                let hb = v3(
                    r.gen_range(0.1..1.0),
                    r.gen_range(0.1..1.0),
                    r.gen_range(0.1..1.0),
                );
                let (a, b) = (Cuboid::new(h).unwrap(), Cuboid::new(hb).unwrap());
                let p = query::distance(
                    &parry_pose(&pa),
                    &ps::Cuboid::new(h),
                    &parry_pose(&pb),
                    &ps::Cuboid::new(hb),
                )
                .unwrap();
                let d = gjk::distance(&a, &pa, &b, &pb, &opts, None);
                (
                    d.distance,
                    p,
                    gjk::intersects(&a, &pa, &b, &pb, &opts, None).intersecting(),
                )
            }
        };
        let theirs = theirs.distance;
        // parry answers capsule and triangle pairs with its GJK, whose distances are off by
        // up to a few 1e-6 (our GJK, behind `NoHook`, agrees with the closed form to 1e-9 in
        // the tests above); its ball–ball and ball–box are closed forms.
        let slack = if i % 5 == 1 || i % 5 == 3 { 1e-5 } else { 1e-9 };
        assert!(
            (ours - theirs).abs() < slack,
            "case {i}: ours {ours}, parry {theirs}"
        );
        if theirs > 1e-7 {
            assert_eq!(hit, Some(false), "case {i}");
            compared += 1;
        } else if theirs == 0.0 {
            assert_eq!(hit, Some(true), "case {i}");
            compared += 1;
        }
    }
    assert!(compared > 3900, "{compared}");
}

// ---------------------------------------------------------------------------------------
// Regressions found by the `closed_forms` fuzz target (fuzz/fuzz_targets/closed_forms.rs)
// ---------------------------------------------------------------------------------------

/// A circle against a polygon of zero area (coincident or collinear vertices, which
/// `ConvexPolygon::new` accepts): the edge test `det ≥ 0` holds on every edge for any point of
/// the polygon's line (any point at all when the vertices coincide), so the closed form called
/// the circle's centre inside and answered distance 0 for pairs 0.116 and 2.5 apart.
#[test]
fn fuzz_circle_off_a_zero_area_polygon_is_not_inside_it() {
    let opts = gjk::Options::default();
    let p = |x: f64, y: f64, angle: f64| Pose2::from_angle([x, y], angle).unwrap();
    // The fuzz case: four coincident vertices, a zero-radius circle 0.116 away.
    let x = 0.06998283360036621;
    let dot = ConvexPolygon::new(&[DVec2::new(x, 0.0); 4]).unwrap();
    let (cos, sin) = (-0.9982947757947531f64, 0.058374143427580086f64);
    let angle = sin.atan2(cos);
    let pa = p(-0.0, -0.0, angle);
    let pb = p(-0.10647425040054931, -0.10647425040054931, angle);
    let point = Ball::<DVec2>::new(0.0).unwrap();
    let d = gjk::distance(&dot, &pa, &point, &pb, &opts, None);
    let g = gjk::distance(&NoHook(dot.clone()), &pa, &NoHook(point), &pb, &opts, None);
    let exact = (pb.translation() - pa.transform_point(DVec2::new(x, 0.0))).length();
    assert!((g.distance - exact).abs() < 1e-12, "GJK {g:?}");
    assert!((d.distance - exact).abs() < 1e-12, "closed form {d:?}");
    assert_eq!(d.intersecting(), Some(false));
    verify(&dot, &pa, &point, &pb, &d.verdict, 1e-12).unwrap();
    // Three collinear vertices: a circle on the line beyond the end is 2.5 away, one on the
    // segment touches it.
    let line = ConvexPolygon::new(&[
        DVec2::new(0.0, 0.0),
        DVec2::new(1.0, 0.0),
        DVec2::new(2.0, 0.0),
    ])
    .unwrap();
    let c = Ball::<DVec2>::new(0.5).unwrap();
    let d = gjk::distance(&line, &p(0.0, 0.0, 0.0), &c, &p(5.0, 0.0, 0.0), &opts, None);
    assert!((d.distance - 2.5).abs() < 1e-15, "{d:?}");
    assert_eq!(d.intersecting(), Some(false));
    let d = gjk::distance(&line, &p(0.0, 0.0, 0.0), &c, &p(1.5, 0.0, 0.0), &opts, None);
    assert_eq!(d.distance, 0.0);
    assert_eq!(d.intersecting(), Some(true));
    verify(
        &line,
        &p(0.0, 0.0, 0.0),
        &c,
        &p(1.5, 0.0, 0.0),
        &d.verdict,
        1e-12,
    )
    .unwrap();
}

/// A point on the line of a collinear triangle `a, a + d, a + 2d`, between the second and third
/// vertices: every Voronoi test of Ericson's point–triangle routine fails by a rounding hair
/// and the face weights `va, vb, vc` are rounding noise of `|ab × ac|² = 0`; they picked the
/// middle vertex, 0.264 away, and the closed form called the pair separated while it touches.
#[test]
fn fuzz_point_on_a_collinear_triangle_touches_it() {
    let opts = gjk::Options::default();
    let tri = Triangle::new(
        v3(-4.739592060928936, 2.206472325961627, -4.510657766699824),
        v3(-2.1690287503337795, 4.03715957760415, -11.834193875460294),
        v3(0.4015345602613767, 5.867846829246673, -19.15772998422076),
    )
    .unwrap();
    let point = Ball::<DVec3>::new(0.0).unwrap();
    let pa = Pose3::IDENTITY;
    let pb = at(-2.0839285008977164, 4.097765726113337, -12.076644527051211);
    let d = gjk::distance(&tri, &pa, &point, &pb, &opts, None);
    let g = gjk::distance(&NoHook(tri), &pa, &NoHook(point), &pb, &opts, None);
    assert!(g.distance < 1e-12, "GJK {g:?}");
    assert!(d.distance <= d.tolerance, "closed form {d:?}");
    assert_eq!(d.intersecting(), Some(true), "{d:?}");
    verify(
        &tri,
        &pa,
        &point,
        &pb,
        &d.verdict,
        tolerance_for(&tri, &pa, &point, &pb),
    )
    .unwrap();
    // The same point pushed 0.01 off the line: separated by 0.01 (the nearest edge's answer).
    let off = v3(0.0, 1.0, 0.0).cross(v3(2.57, 1.83, -7.32)).normalize() * 0.01;
    let pb = Pose3::new(pb.translation() + off, pb.rotation()).unwrap();
    let d = gjk::distance(&tri, &pa, &point, &pb, &opts, None);
    let g = gjk::distance(&NoHook(tri), &pa, &NoHook(point), &pb, &opts, None);
    assert!((d.distance - g.distance).abs() < 1e-12, "{d:?} vs {g:?}");
    assert!((d.distance - 0.01).abs() < 1e-4, "{d:?}");
}

/// A point 1.07e-5 from a thin triangle (vertices within 1e-4 of a line, sinθ ≈ 1e-3), over
/// its face: the barycentric weights carry an error of ε/sin²θ, which tilted the closest-point
/// direction by 1.4e-5 rad, so the projections on the reported normal overlapped by −9.34e-6
/// against a depth of −1.07e-5. The face point is now the projection on the plane and the
/// normal the face normal.
#[test]
fn fuzz_point_over_a_thin_triangle_gets_the_face_normal() {
    let tri = Triangle::new(
        v3(
            0.08212040347941324,
            0.08209727626459144,
            0.08212329438126596,
        ),
        v3(
            -0.09460620858132955,
            -0.09466402661838404,
            -0.09472762645914397,
        ),
        v3(
            -0.09472762645914397,
            -0.09472762645914397,
            -0.09472762645914397,
        ),
    )
    .unwrap();
    let point = Ball::<DVec3>::new(0.0).unwrap();
    let t = v3(0.4854352635996033, -0.3463035019455253, 1.0);
    let pa = Pose3::new(t, DQuat::IDENTITY).unwrap();
    let q = DQuat::from_xyzw(
        0.30009002631500287,
        -0.5507407061120084,
        -0.5507407061120084,
        -0.5507407061120084,
    );
    let pb = Pose3::new(t, q.normalize()).unwrap();
    let opts = gjk::Options::default();
    let g = gjk::distance(&NoHook(tri), &pa, &NoHook(point), &pb, &opts, None);
    let d = gjk::distance(&tri, &pa, &point, &pb, &opts, None);
    assert_eq!(d.iterations, 1, "closed form {d:?}");
    assert!((d.distance - g.distance).abs() < 1e-13, "{d:?} vs {g:?}");
    assert!((d.normal - g.normal).length() < 1e-9, "{d:?} vs {g:?}");
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&tri, &pa, &point, &pb, &epa::Options::default(), &mut ctx);
    let tol = tolerance_for(&tri, &pa, &point, &pb);
    assert!((p.depth + g.distance).abs() < 1e-13, "{p:?}");
    // The projections on the normal are apart by exactly the distance: the normal is the
    // closest-point direction.
    let n = p.normal;
    let overlap = h(&tri, &pa, n) + h(&point, &pb, -n);
    assert!(
        (overlap - p.depth).abs() <= tol,
        "overlap {overlap} vs depth {}",
        p.depth
    );
    assert!(
        (p.point_b + n * p.depth - p.point_a).length() <= tol,
        "{p:?}"
    );
    verify(&tri, &pa, &point, &pb, &p.verdict, tol).unwrap();
}

/// A point 2.9e-11 from the long edge of a sliver polygon 0.4 away from the origin: the
/// closest-point direction `p − q` carried the coordinates' rounding (ε·0.4 over a gap of
/// 2.9e-11: 3e-6 rad), so the projections on the reported normal overlapped by −2.69e-11
/// against a depth of −2.94e-11. An edge's closest point now comes with the edge's normal.
#[test]
fn fuzz_point_near_a_polygon_edge_gets_the_edge_normal() {
    let x = 0.40247196154726483;
    let poly = ConvexPolygon::new(&[
        DVec2::new(x, -1.5041916516530489e-21),
        DVec2::new(0.40246869854963857, 2.4729595228300847e-8),
        DVec2::new(x, 0.0),
        DVec2::new(x, 0.0),
        DVec2::new(x, 0.0),
        DVec2::new(x, 0.0),
        DVec2::new(x, 0.0),
        DVec2::new(x, 0.0),
    ])
    .unwrap();
    let point = Ball::<DVec2>::new(0.0).unwrap();
    let pa = Pose2::from_angle(
        [-0.0, -0.0],
        0.058374143427580086f64.atan2(-0.9982947757947531),
    )
    .unwrap();
    let pb = Pose2::from_angle(
        [-0.40178565660633, 0.023493956037774044],
        0.05827665193758023f64.atan2(-0.998300471721288),
    )
    .unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&poly, &pa, &point, &pb, &epa::Options::default(), &mut ctx);
    assert_eq!(p.iterations, 1, "closed form {p:?}");
    assert!(p.depth < 0.0 && p.depth > -1e-10, "{p:?}");
    let n = p.normal;
    let overlap = h(&poly, &pa, n) + h(&point, &pb, -n);
    let tol = tolerance_for(&poly, &pa, &point, &pb);
    assert!(
        (overlap - p.depth).abs() <= tol,
        "overlap {overlap} vs depth {} (tol {tol})",
        p.depth
    );
    verify(&poly, &pa, &point, &pb, &p.verdict, tol).unwrap();
}

/// A point 0.28 below the long bottom edge of a sliver polygon (0.56 by 1.5e-6), over that
/// edge 2e-9 of its length from its left end. The nearest-point search compared squared
/// distances, which differ by 1e-18 at 0.08 between the vertex and the foot: the vertex won by
/// rounding, and its direction, 4e-9 rad off the edge's normal, was certified (distance and
/// boolean) with the distance as the gap; the edge's far end overlapped it by 2.4e-9 against a
/// tolerance of 4e-11. Found by the `closed_forms` fuzz target (pre-existing). The foot of an
/// edge `p` lies over, on the edge's outer side, now wins outright, with the edge's normal.
#[test]
fn fuzz_point_over_a_sliver_polygon_edge_near_its_end_gets_the_edge_normal() {
    let rot = Rot2 {
        cos: -0.9982947757947531,
        sin: 0.058374143427580086,
    };
    let pose = Pose2::new(DVec2::new(-0.0, -0.0), rot).unwrap();
    let c = -0.2823529411764706;
    let point = Shape2::Capsule(Capsule::new(DVec2::new(c, c), DVec2::new(c, c), 0.0).unwrap());
    let sliver = Shape2::Polygon(
        ConvexPolygon::new(&[
            DVec2::new(0.2658472373072403, 1.4514875233631348e-6),
            DVec2::new(-0.2823529408520447, 2.0653591404057954e-10),
            DVec2::new(0.28235287758900535, -2.8915025805968717e-9),
            DVec2::new(0.2823529411764706, -1.0552609312324845e-21),
        ])
        .unwrap(),
    );
    let opts = gjk::Options::default();
    let tol = tolerance_for(&point, &pose, &sliver, &pose);
    for (a, b) in [(&point, &sliver), (&sliver, &point)] {
        let d = gjk::distance(a, &pose, b, &pose, &opts, None);
        assert_eq!(d.iterations, 1, "closed form {d:?}");
        verify(a, &pose, b, &pose, &d.verdict, tol).unwrap_or_else(|e| panic!("{e}: {d:?}"));
        let Verdict::Separated(s) = d.verdict else {
            panic!("{d:?}")
        };
        // The exact gap: the point's distance to the edge's line (its foot is on the edge).
        assert!((s.gap - 0.282352941383).abs() < 1e-11, "{d:?}");
        let i = gjk::intersects(a, &pose, b, &pose, &opts, None);
        verify(a, &pose, b, &pose, &i.verdict, tol).unwrap_or_else(|e| panic!("{e}: {i:?}"));
    }
}

/// A polygon with a 52° right turn hidden behind a doubled vertex (the zero-length edge's turn
/// is zero, so the convexity check never compared the edges on either side): it was accepted,
/// and the circle–polygon closed form, which assumes convexity, certified a separating axis
/// that the shapes overlap by 20.9. Found by the `batch` fuzz target (2D rows).
#[test]
fn fuzz_reflex_turn_behind_a_repeated_vertex_is_not_convex() {
    let v = |x: f64, y: f64| DVec2::new(x, y);
    let pts = [
        v(27.836505625342305, 39.9544665592003),
        v(-62.22730837861736, -16.36793661712347),
        v(-62.22730837861736, -16.36793661712347),
        v(-37.726808049799914, -36.307647567088544),
        v(-37.726808049799914, -36.307647567088544),
        v(-37.726808049799914, -10.103269761498137),
        v(-37.726808049799914, -10.000908910695049),
        v(-37.726808049799914, -10.000908910695049),
    ];
    let err = ConvexPolygon::new(&pts).unwrap_err();
    assert_eq!(err.field, "points");
    assert!(matches!(err.problem, Problem::NotConvex(_)), "{err}");
    // Without the repeats the same turn was always caught; repeats alone stay accepted.
    let square = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(0.0, 0.0),
    ];
    assert!(ConvexPolygon::new(&square).is_ok());
}

/// Two long bars crossing like a plus sign (and thin plates crossing edge-on): no vertex of
/// either box lies in the other, so the common point must come from clipping an edge against
/// the other box's faces. The closed form answers it (1 iteration) with a certificate that
/// verifies, and GJK agrees.
#[test]
fn crossing_bars_common_point_by_edge_clipping() {
    let opts = gjk::Options::default();
    let bar = Cuboid::new(v3(3.0, 0.1, 0.1)).unwrap();
    let plate = Cuboid::new(v3(2.0, 2.0, 1e-3)).unwrap();
    let mut r = rng(77);
    let mut answered = 0;
    for k in 0..2_000 {
        let (a, b) = if k % 2 == 0 {
            (bar, bar)
        } else {
            (plate, plate)
        };
        // Bars: B turned about A's z by at least 0.2 rad and raised by 0.15 (the bars overlap
        // in z ∈ [0.05, 0.1]); neither centre nor any vertex lies in the other bar. Plates: B
        // tilted about x away from the upright (where A's centre would lie in B) and raised
        // by 0.5, so that it cuts A's plane. A random rigid motion of both keeps the pose.
        let angle = r.gen_range(0.3..1.2) + if r.gen_bool(0.5) { 1.6 } else { 0.0 };
        let (q, lift) = if k % 2 == 0 {
            (DQuat::from_rotation_z(angle), 0.15)
        } else {
            (DQuat::from_rotation_x(angle), 0.5)
        };
        let shift = v3(r.gen_range(-0.05..0.05), r.gen_range(-0.05..0.05), lift);
        let local = Pose3::new(shift, q).unwrap();
        let world = rand_pose3(&mut r);
        let (pa, pb) = (world, world.compose(&local));
        let i = gjk::intersects(&a, &pa, &b, &pb, &opts, None);
        assert_eq!(i.intersecting(), Some(true), "{k}: {:?}", i.verdict);
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &i.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap_or_else(|e| panic!("{k}: {e}"));
        let g = gjk::intersects(&NoHook(a), &pa, &NoHook(b), &pb, &opts, None);
        assert_eq!(g.intersecting(), Some(true), "{k}");
        if i.iterations == 1 {
            answered += 1;
        }
    }
    assert!(answered >= 1_990, "closed form answered {answered} of 2000");
}

/// Face–face and edge–edge box pairs whose gap is swept across the touch tolerance (0.5× to
/// 2×) at offsets up to 1e6: every verdict is certified, the touching side (gap ≤ tol) is
/// always intersecting, and a separated verdict's gap is never larger than the true one.
#[test]
fn box_box_gap_swept_across_the_tolerance_at_large_offsets() {
    let opts = gjk::Options::default();
    let a = Cuboid::new(v3(1.0, 0.5, 0.25)).unwrap();
    let b = Cuboid::new(v3(0.3, 0.7, 0.9)).unwrap();
    let mut r = rng(78);
    for k in 0..3_000 {
        let offset = [0.0, 1e3, 1e6][k % 3];
        let pa = Pose3::new(
            rand_v3(&mut r, 1.0) + DVec3::splat(offset),
            rand_quat(&mut r),
        )
        .unwrap();
        let pb0 = Pose3::new(pa.translation() + rand_v3(&mut r, 3.0), rand_quat(&mut r)).unwrap();
        let d = gjk::distance(&NoHook(a), &pa, &NoHook(b), &pb0, &opts, None);
        if d.lower_bound <= 0.0 {
            continue;
        }
        let f = [0.5, 0.9, 1.1, 2.0][k % 4];
        // Move B along the normal so that the distance becomes f × tolerance.
        let pb = Pose3::new(
            pb0.translation() + d.normal * (f * d.tolerance - d.distance),
            pb0.rotation(),
        )
        .unwrap();
        let truth = gjk::distance(&NoHook(a), &pa, &NoHook(b), &pb, &opts, None);
        let i = gjk::intersects(&a, &pa, &b, &pb, &opts, None);
        let msg = || {
            format!(
                "{k}: f {f} offset {offset}: {:?} truth {truth:?}",
                i.verdict
            )
        };
        verify(
            &a,
            &pa,
            &b,
            &pb,
            &i.verdict,
            tolerance_for(&a, &pa, &b, &pb),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", msg()));
        match i.verdict {
            Verdict::Separated(s) => {
                assert!(truth.distance > 0.0, "{}", msg());
                assert!(s.gap <= truth.distance + truth.tolerance, "{}", msg());
            }
            Verdict::Intersecting(_) => {
                assert!(truth.lower_bound <= 2.0 * truth.tolerance, "{}", msg())
            }
            Verdict::Undetermined => panic!("{}", msg()),
        }
        if truth.distance <= 0.5 * truth.tolerance {
            assert_eq!(i.intersecting(), Some(true), "{}", msg());
        }
    }
}

/// Found by the `closed_forms` fuzz target (pre-existing): a point (a radius-0 ball moved to
/// (−1000, −695, −898) by a `Transformed` wrapper) 8.4e-8 from a flat box (half extents 0,
/// 0.027, 0.0034). The closed form took the normal from closest points mapped into A's frame,
/// where the offset of 1e3 tilted it by ~2.6e-6 rad: the projections along it overlapped by
/// −6.6e-8 against a reported depth of −8.4e-8. In the box's own frame the direction is exact.
#[test]
fn fuzz_point_near_a_flat_box_far_out_penetration_normal_is_exact() {
    let point = Shape3::Transformed(Box::new(Transformed::new(
        Shape3::Sphere(Ball::new(0.0).unwrap()),
        Pose3::new(
            v3(-1000.0, -695.3078507667658, -898.4969863431754),
            DQuat::from_xyzw(
                0.8242327366373614,
                -0.061484722543886,
                -0.3980326775209464,
                -0.3980326775209464,
            ),
        )
        .unwrap(),
    )));
    let flat =
        Shape3::Cuboid(Cuboid::new(v3(0.0, 0.026806991324797264, 0.003379590609418405)).unwrap());
    let pa = Pose3::IDENTITY;
    let pb = Pose3::new(
        v3(-999.9896760684737, -695.3316783985765, -898.5044492371119),
        DQuat::from_xyzw(
            -0.9769598305205606,
            -0.19030976997119778,
            -0.04147835282494711,
            0.08724234780011693,
        ),
    )
    .unwrap();
    let mut ctx = epa::Context::new();
    let p = epa::penetration(&point, &pa, &flat, &pb, &epa::Options::default(), &mut ctx);
    assert!(p.depth < 0.0, "{p:?}");
    let tol = tolerance_for(&point, &pa, &flat, &pb).max(p.tolerance);
    check_penetration(&point, &pa, &flat, &pb, &p, tol, &|| {
        "fuzz point near flat box".into()
    });
    let d = gjk::distance(&point, &pa, &flat, &pb, &gjk::Options::default(), None);
    match d.verdict {
        Verdict::Separated(s) => assert!((s.gap - d.distance).abs() <= 4.0 * tol, "{d:?}"),
        v => panic!("{v:?}"),
    }
}

/// Found by the `closed_forms` fuzz target (pre-existing): two bare segments 1.4e-9 and
/// 2.3e-9 long touching about 5 units from the origin. The closed-form penetration took the
/// closest-point direction (dist ≈ 1e-14, so ε·5/dist of rounding) as its normal: depth 0,
/// but the projections along it overlapped by 2.0e-11 (tolerance 1.5e-14). A closed-form
/// answer must carry its depth along its normal (else EPA answers). The fuzz input's exact
/// bits do not survive `Pose::new`'s renormalisation, so the case is swept: 2,000 pairs of
/// segments 1e-9 long, 5 units out, B's end placed within 1e-14 of a point of A.
#[test]
fn fuzz_tiny_touching_segments_far_out_penetration_normal_carries_the_depth() {
    let mut r = rng(79);
    let mut ctx = epa::Context::new();
    let mut closed = 0;
    for k in 0..2_000 {
        let len = 1e-9 * r.gen_range(0.5..3.0);
        let a0 = rand_v3(&mut r, 6.0);
        let a1 = a0 + rand_unit(&mut r) * len;
        let a = Shape3::Segment(Segment::new(a0, a1).unwrap());
        let pa = Pose3::new(rand_v3(&mut r, 1.0), rand_quat(&mut r)).unwrap();
        // B's first end on A (plus a hair), in B's frame at a random pose.
        let on_a = pa.transform_point(a0 + (a1 - a0) * r.gen_range(0.0..1.0));
        let pb = Pose3::new(rand_v3(&mut r, 5.0), rand_quat(&mut r)).unwrap();
        let b0 = pb.inverse_transform_point(on_a + rand_unit(&mut r) * 1e-14);
        let b1 = b0 + rand_unit(&mut r) * 1e-9 * r.gen_range(0.5..3.0);
        let b = Shape3::Segment(Segment::new(b0, b1).unwrap());
        let p = epa::penetration(&a, &pa, &b, &pb, &epa::Options::default(), &mut ctx);
        let tol = tolerance_for(&a, &pa, &b, &pb);
        verify(&a, &pa, &b, &pb, &p.verdict, tol).unwrap_or_else(|e| panic!("{k}: {e}"));
        if p.iterations <= 1 && p.status == Status::Converged {
            closed += 1;
            check_penetration(&a, &pa, &b, &pb, &p, tol.max(p.tolerance), &|| {
                format!("{k}: tiny touching segments")
            });
        }
    }
    assert!(closed > 0);
}
