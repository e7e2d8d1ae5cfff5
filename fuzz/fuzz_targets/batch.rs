//! Fuzz target: the batch API (`convexity::batch`) against the scalar calls it stands for.
//!
//! Input: a shape table (3D: boxes, some flat or zero; point hulls of 1–20 points, random,
//! repeated, coplanar or collinear, so that both the ≤ 16-point lane path and the scalar path
//! run; spheres; capsules; rounded boxes — or 2D: rectangles, circles, stadiums, polygons,
//! point sets) and rows whose raw poses are mostly valid but sometimes carry NaN, ±inf, a
//! magnitude past 1e60, a non-unit or barely-unit quaternion, and shape indices out of range.
//! Valid rows are placed freely, concentric, or moved onto the lanes' decline band (gap = k ·
//! tolerance). One input in eight repeats its rows past one chunk (256 rows).
//!
//! Oracle, for `batch::distance`, `batch::intersects` and `batch::penetration`:
//! * the call never panics and returns `Ok` with `rows` = number of rows and `error_rows` =
//!   number of rows the fuzz target's own reading of the contract calls bad;
//! * a bad row's error names exactly the first bad field (`pairs[i].a`, `pairs[i].b`,
//!   `pairs[i].pose_a.translation[j]`, `….rotation[j]`, `….rotation`, `….angle`), its message
//!   starts with it, and the row holds status `Degenerate`, an undetermined verdict, finite
//!   zeros;
//! * every good row equals the scalar call (`gjk::distance` / `gjk::intersects` /
//!   `epa::penetration` on `Pose3::from_parts` / `Pose2::from_angle` of the same raw pose):
//!   same status, same verdict kind, distance and depth within 1e-12 relative (to the
//!   shapes' size or the value, whichever is larger) plus the pair's rounding floor
//!   `4ε · (|t_a| + |t_b| + reach)` (`rel_close`); certificates verify; a distance row of two
//!   boxes (the box lanes, `gjk/batch/box_lanes.rs`) equals it bit for bit;
//! * past one chunk, the parallel run and the single-threaded run agree bit for bit;
//! * the lane path's kernels (`lanes::run_on`: AVX2 and AVX-512VL, which the batch takes
//!   when the CPU has them, and the baseline) give the same bits on every good row whose
//!   shapes the lanes take — box pairs too, whose batch distance takes the box lanes instead —
//!   in both modes.
#![no_main]

use convexity::batch::lanes::{self, Kernel, LaneRow, LaneShape, Mode};
use convexity::batch::{
    self, BatchOptions, BatchSpace, DistanceOut, IntersectOut, Pair, PenetrationOut,
};
use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{self, epa};
use convexity::{
    verify, Ball, Capsule, ConvexPolygon, Cuboid, DQuat, DVec2, DVec3, InputError, Points, Pose,
    Pose2, Pose3, Rounded, Shape2, Shape3, Status, SupportMap, Vector, Verdict,
};
use libfuzzer_sys::fuzz_target;

#[path = "../common/bytes.rs"]
mod bytes;
use bytes::Bytes;

const MAX_MAGNITUDE: f64 = 1e60;
const UNIT_TOLERANCE: f64 = 1e-6;

/// This target's draws, on top of the shared reader.
trait Draw {
    fn size(&mut self) -> f64;
    fn coord(&mut self, offset: f64) -> f64;
    fn quat(&mut self) -> [f64; 4];
}

impl Draw for Bytes<'_> {
    fn size(&mut self) -> f64 {
        let s = self.pick(&[0.0, 1e-2, 1.0, 1.0, 1.0, 1e2]);
        s * (0.25 + 0.75 * self.frac())
    }
    /// A translation coordinate: bounded mostly, deliberately bad one time in 16.
    fn coord(&mut self, offset: f64) -> f64 {
        match self.u8() {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 2.0 * MAX_MAGNITUDE,
            4 => -MAX_MAGNITUDE, // the largest accepted magnitude
            5..=15 => self.unit() * 1e6,
            _ => self.unit() * offset,
        }
    }
    /// A raw quaternion `[x, y, z, w]`: unit mostly, else off by a little or a lot, or bad.
    fn quat(&mut self) -> [f64; 4] {
        let q = DQuat::from_xyzw(self.unit(), self.unit(), self.unit(), self.unit());
        let n = q.length();
        let u = if n > 1e-3 { q / n } else { DQuat::IDENTITY };
        let u = [u.x, u.y, u.z, u.w];
        match self.u8() {
            0 => [q.x, q.y, q.z, q.w],
            1 => [0.0; 4],
            2 => {
                let mut r = u;
                r[self.u8() as usize % 4] = self.pick(&[f64::NAN, f64::INFINITY, 2e60]);
                r
            }
            3 => {
                // Norm 1 + k·1e-7, k in -20..=20: inside and outside the unit tolerance.
                let k = (self.u8() % 41) as f64 - 20.0;
                u.map(|c| c * (1.0 + k * 1e-7))
            }
            4 => [0.0, 0.0, 0.0, 1.0],
            _ => u,
        }
    }
}

fn points3(r: &mut Bytes, s: f64) -> Option<Points<DVec3>> {
    let n = 1 + r.u8() as usize % 20;
    let mode = r.u8() % 6;
    let base = r.v3() * s;
    let dir = r.v3();
    let pts: Vec<DVec3> = (0..n)
        .map(|i| match mode {
            0 => base,                                    // all one point
            1 => dir * (s * r.unit()),                    // collinear
            2 => DVec3::new(r.unit(), r.unit(), 0.0) * s, // coplanar
            3 if i % 2 == 1 => base,                      // repeated points
            _ => r.v3() * s,
        })
        .collect();
    Points::new(&pts).ok()
}

fn shape3(r: &mut Bytes) -> Option<Shape3> {
    let s = r.size();
    Some(match r.u8() % 7 {
        0 | 1 => {
            let mut h = (r.v3().abs() * s).to_array();
            let k = r.u8() as usize % 6;
            if k < 3 {
                h[k] = 0.0;
            }
            Shape3::Cuboid(Cuboid::new(DVec3::from_array(h)).ok()?)
        }
        2 | 3 => Shape3::Points(points3(r, s)?),
        4 => Shape3::Sphere(Ball::new(s).ok()?),
        5 => Shape3::Capsule(Capsule::new(r.v3() * s, r.v3() * s, r.size()).ok()?),
        _ => {
            let c = Shape3::Cuboid(Cuboid::new(r.v3().abs() * s).ok()?);
            Shape3::Rounded(Box::new(Rounded::new(c, r.size()).ok()?))
        }
    })
}

fn shape2(r: &mut Bytes) -> Option<Shape2> {
    let s = r.size();
    Some(match r.u8() % 5 {
        0 => Shape2::Rect(Cuboid::new(r.v2().abs() * s).ok()?),
        1 => Shape2::Circle(Ball::new(s).ok()?),
        2 => Shape2::Capsule(Capsule::new(r.v2() * s, r.v2() * s, r.size()).ok()?),
        3 => {
            let n = 1 + r.u8() as usize % 8;
            let mut ang: Vec<f64> = (0..n).map(|_| r.frac() * std::f64::consts::TAU).collect();
            ang.sort_by(f64::total_cmp);
            let pts: Vec<DVec2> = ang
                .iter()
                .map(|t| DVec2::new(s * t.cos(), s * r.frac() * t.sin()))
                .collect();
            Shape2::Polygon(ConvexPolygon::new(&pts).ok()?)
        }
        _ => {
            let n = 1 + r.u8() as usize % 12;
            let pts: Vec<DVec2> = (0..n).map(|_| r.v2() * s).collect();
            Shape2::Points(Points::new(&pts).ok()?)
        }
    })
}

/// A shape index: in range mostly, one past the end or `usize::MAX` sometimes.
fn index(r: &mut Bytes, n: usize) -> usize {
    match r.u8() {
        255 => usize::MAX,
        b => b as usize % (n + 1),
    }
}

/// How the fuzz target reads the contract: the first bad field of a row, if any.
fn first_bad<P>(
    i: usize,
    n: usize,
    p: &Pair<P>,
    pose_bad: impl Fn(&P) -> Option<String>,
) -> Option<String> {
    if p.a >= n {
        return Some(format!("pairs[{i}].a"));
    }
    if p.b >= n {
        return Some(format!("pairs[{i}].b"));
    }
    if let Some(f) = pose_bad(&p.pose_a) {
        return Some(format!("pairs[{i}].pose_a.{f}"));
    }
    pose_bad(&p.pose_b).map(|f| format!("pairs[{i}].pose_b.{f}"))
}

fn bad(x: f64) -> bool {
    !x.is_finite() || x.abs() > MAX_MAGNITUDE
}

fn pose3_bad(p: &[f64; 7]) -> Option<String> {
    if let Some(j) = p[..3].iter().position(|&x| bad(x)) {
        return Some(format!("translation[{j}]"));
    }
    if let Some(j) = p[3..].iter().position(|&x| bad(x)) {
        return Some(format!("rotation[{j}]"));
    }
    let norm = p[3..].iter().map(|q| q * q).sum::<f64>().sqrt();
    // Within the tolerance by a margin: the batch and the fuzz target round the norm alike
    // to an ulp or two, not more.
    if (norm - 1.0).abs() > UNIT_TOLERANCE * (1.0 + 1e-9) {
        return Some("rotation".into());
    }
    None
}

fn pose2_bad(p: &[f64; 3]) -> Option<String> {
    if let Some(j) = p[..2].iter().position(|&x| bad(x)) {
        return Some(format!("translation[{j}]"));
    }
    bad(p[2]).then(|| "angle".into())
}

/// Whether the norm is so close to the unit tolerance that rounding decides (skipped).
fn borderline3(p: &[f64; 7]) -> bool {
    let norm = p[3..].iter().map(|q| q * q).sum::<f64>().sqrt();
    ((norm - 1.0).abs() - UNIT_TOLERANCE).abs() <= 1e-9 * UNIT_TOLERANCE
}

/// Within 1e-12 relative (to the shapes' size or the value) plus the pair's rounding floor
/// `4ε · (|t_a| + |t_b| + reach_a + reach_b)` (`MinkowskiDifference::rounding_floor` without
/// its `|t_ab|` term, so a little tighter than the library's own floor): two paths that round
/// differently may land anywhere below it (fuzz finding: at offset 1e6 the lanes enclosed the
/// origin, distance 0, where the scalar call stopped at 6.3e-12 in the touch band, tolerance
/// 2.1e-9; floor 1.8e-9).
fn rel_close(x: f64, y: f64, scale: f64, floor: f64) -> bool {
    (x - y).abs() <= 1e-12 * scale.max(x.abs()).max(y.abs()) + floor
}

fn rounding_floor<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
) -> f64 {
    let reach = pa.translation().length()
        + pb.translation().length()
        + a.bounding_radius()
        + b.bounding_radius();
    4.0 * f64::EPSILON * reach
}

/// Runs the three batch calls and checks them against the scalar calls.
fn check<V>(
    shapes: &[V::Shape],
    pairs: &[Pair<V::RawPose>],
    expect: &[Option<String>],
    scalar_pose: impl Fn(&V::RawPose) -> Pose<V>,
) where
    V: BatchSpace + std::fmt::Debug,
    V::Shape: std::fmt::Debug,
    V::RawPose: std::fmt::Debug,
{
    let n = pairs.len();
    let opts = BatchOptions::default();
    let gopts = gjk::Options::default();
    let eopts = epa::Options::default();
    let n_bad = expect.iter().filter(|e| e.is_some()).count();
    let msg = |i: usize| {
        let p = &pairs[i];
        format!(
            "row {i} {p:?}: {:?} vs {:?}",
            shapes.get(p.a),
            shapes.get(p.b)
        )
    };
    let check_error = |i: usize, e: &Option<InputError>, field: &str| {
        let e = e
            .as_ref()
            .unwrap_or_else(|| panic!("no error for bad field {field}: {}", msg(i)));
        assert_eq!(e.field, field, "{}", msg(i));
        assert!(e.to_string().starts_with(field), "{e}");
    };

    // Distance.
    let (mut d, mut pa, mut pb, mut nr) = (
        vec![-1.0; n],
        vec![V::ZERO; n],
        vec![V::ZERO; n],
        vec![V::ZERO; n],
    );
    let (mut st, mut it) = (vec![Status::Numerical; n], vec![u32::MAX; n]);
    let (mut v, mut e) = (vec![Verdict::Undetermined; n], vec![None; n]);
    let out = DistanceOut {
        distance: &mut d,
        point_a: &mut pa,
        point_b: &mut pb,
        normal: &mut nr,
        status: &mut st,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::distance::<V>(shapes, pairs, &opts, out).expect("distance batch refused");
    assert_eq!((rep.rows, rep.error_rows), (n, n_bad));
    for (i, p) in pairs.iter().enumerate() {
        if let Some(field) = &expect[i] {
            check_error(i, &e[i], field);
            assert_eq!(st[i], Status::Degenerate);
            assert_eq!(v[i], Verdict::Undetermined);
            assert!(d[i].is_finite());
            continue;
        }
        assert!(e[i].is_none(), "unexpected error {:?}: {}", e[i], msg(i));
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (qa, qb) = (scalar_pose(&p.pose_a), scalar_pose(&p.pose_b));
        let s = gjk::distance(a, &qa, b, &qb, &gopts, None);
        let scale = a.size() + b.size();
        assert_eq!(st[i], s.status, "{}", msg(i));
        assert_eq!(
            v[i].intersecting(),
            s.verdict.intersecting(),
            "batch {:?} vs scalar {:?}: {}",
            v[i],
            s.verdict,
            msg(i)
        );
        assert!(
            rel_close(d[i], s.distance, scale, rounding_floor(a, &qa, b, &qb)),
            "distance {} vs scalar {}: {}",
            d[i],
            s.distance,
            msg(i)
        );
        assert!(it[i] <= gopts.max_iterations, "{}", msg(i));
        assert!(pa[i].is_finite() && pb[i].is_finite() && nr[i].is_finite());
        if V::closed_form_pair(a, b) {
            // Two boxes: the box lanes reproduce the scalar closed form bit for bit.
            let bits = |x: &dyn std::fmt::Debug| format!("{x:?}");
            assert_eq!(d[i].to_bits(), s.distance.to_bits(), "{}", msg(i));
            assert_eq!(bits(&pa[i]), bits(&s.point_a), "{}", msg(i));
            assert_eq!(bits(&pb[i]), bits(&s.point_b), "{}", msg(i));
            assert_eq!(bits(&nr[i]), bits(&s.normal), "{}", msg(i));
            assert_eq!(bits(&v[i]), bits(&s.verdict), "{}", msg(i));
        }
        if v[i].intersecting().is_some() {
            let tol = tolerance_for(a, &qa, b, &qb).max(1e-9 * scale);
            if let Err(err) = verify(a, &qa, b, &qb, &v[i], tol) {
                panic!("certificate {:?} rejected: {err}: {}", v[i], msg(i));
            }
        }
    }

    // Past one chunk: parallel and single-threaded agree bit for bit.
    if n > batch::CHUNK {
        let (mut d2, mut pa2, mut pb2, mut nr2) = (
            vec![-1.0; n],
            vec![V::ZERO; n],
            vec![V::ZERO; n],
            vec![V::ZERO; n],
        );
        let (mut st2, mut it2) = (vec![Status::Numerical; n], vec![u32::MAX; n]);
        let (mut v2, mut e2) = (vec![Verdict::Undetermined; n], vec![None; n]);
        let out = DistanceOut {
            distance: &mut d2,
            point_a: &mut pa2,
            point_b: &mut pb2,
            normal: &mut nr2,
            status: &mut st2,
            iterations: &mut it2,
            verdict: &mut v2,
            error: &mut e2,
        };
        let single = BatchOptions {
            parallel: false,
            ..opts
        };
        batch::distance::<V>(shapes, pairs, &single, out).expect("single-threaded refused");
        for i in 0..n {
            assert_eq!(d[i].to_bits(), d2[i].to_bits(), "{}", msg(i));
            assert!(pa[i] == pa2[i] && pb[i] == pb2[i] && nr[i] == nr2[i]);
            assert_eq!((st[i], it[i], v[i]), (st2[i], it2[i], v2[i]), "{}", msg(i));
            // The message, not `==`: a `NotFinite(NaN)` problem is never equal to itself.
            let text = |e: &Option<InputError>| e.as_ref().map(|e| e.to_string());
            assert_eq!(text(&e[i]), text(&e2[i]), "{}", msg(i));
        }
    }

    // Boolean.
    let (mut st, mut it) = (vec![Status::Numerical; n], vec![u32::MAX; n]);
    let (mut v, mut e) = (vec![Verdict::Undetermined; n], vec![None; n]);
    let out = IntersectOut {
        status: &mut st,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::intersects::<V>(shapes, pairs, &opts, out).expect("boolean batch refused");
    assert_eq!((rep.rows, rep.error_rows), (n, n_bad));
    for (i, p) in pairs.iter().enumerate() {
        if let Some(field) = &expect[i] {
            check_error(i, &e[i], field);
            assert_eq!((st[i], v[i]), (Status::Degenerate, Verdict::Undetermined));
            continue;
        }
        assert!(e[i].is_none(), "unexpected error {:?}: {}", e[i], msg(i));
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (qa, qb) = (scalar_pose(&p.pose_a), scalar_pose(&p.pose_b));
        let s = gjk::intersects(a, &qa, b, &qb, &gopts, None);
        assert_eq!(st[i], s.status, "{}", msg(i));
        assert_eq!(
            v[i].intersecting(),
            s.verdict.intersecting(),
            "batch {:?} vs scalar {:?}: {}",
            v[i],
            s.verdict,
            msg(i)
        );
        if v[i].intersecting().is_some() {
            let tol = tolerance_for(a, &qa, b, &qb).max(1e-9 * (a.size() + b.size()));
            if let Err(err) = verify(a, &qa, b, &qb, &v[i], tol) {
                panic!("boolean certificate {:?} rejected: {err}: {}", v[i], msg(i));
            }
        }
    }

    // Penetration.
    let (mut d, mut pa, mut pb, mut nr) = (
        vec![-1.0; n],
        vec![V::ZERO; n],
        vec![V::ZERO; n],
        vec![V::ZERO; n],
    );
    let (mut st, mut it) = (vec![Status::Numerical; n], vec![u32::MAX; n]);
    let (mut v, mut e) = (vec![Verdict::Undetermined; n], vec![None; n]);
    let out = PenetrationOut {
        depth: &mut d,
        point_a: &mut pa,
        point_b: &mut pb,
        normal: &mut nr,
        status: &mut st,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::penetration::<V>(shapes, pairs, &opts, out).expect("penetration refused");
    assert_eq!((rep.rows, rep.error_rows), (n, n_bad));
    let mut ctx = epa::Context::new();
    for (i, p) in pairs.iter().enumerate() {
        if let Some(field) = &expect[i] {
            check_error(i, &e[i], field);
            assert_eq!((st[i], v[i]), (Status::Degenerate, Verdict::Undetermined));
            assert!(d[i].is_finite());
            continue;
        }
        assert!(e[i].is_none(), "unexpected error {:?}: {}", e[i], msg(i));
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (qa, qb) = (scalar_pose(&p.pose_a), scalar_pose(&p.pose_b));
        let s = epa::penetration(a, &qa, b, &qb, &eopts, &mut ctx);
        assert_eq!(st[i], s.status, "{}", msg(i));
        assert_eq!(v[i].intersecting(), s.verdict.intersecting(), "{}", msg(i));
        assert!(
            rel_close(
                d[i],
                s.depth,
                a.size() + b.size(),
                rounding_floor(a, &qa, b, &qb)
            ),
            "depth {} vs scalar {}: {}",
            d[i],
            s.depth,
            msg(i)
        );
        assert!(d[i].is_finite() && pa[i].is_finite() && pb[i].is_finite());
    }
}

/// B near A (free, concentric, or moved to gap `k · tolerance` along the scalar normal).
fn place<V: BatchSpace>(
    r: &mut Bytes,
    a: &V::Shape,
    qa: &Pose<V>,
    b: &V::Shape,
    qb: &Pose<V>,
) -> Option<V> {
    match r.u8() % 4 {
        0 => Some(qa.translation()),
        1 => {
            let d = gjk::distance(a, qa, b, qb, &gjk::Options::default(), None);
            if d.status != Status::Converged || d.lower_bound <= 0.0 {
                return None;
            }
            let k = r.pick(&[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, -1.0]);
            Some(qb.translation() + d.normal * (k * d.tolerance - d.lower_bound))
        }
        _ => None,
    }
}

fn run3(r: &mut Bytes, big: bool) {
    let shapes: Vec<Shape3> = (0..1 + r.u8() % 5).filter_map(|_| shape3(r)).collect();
    if shapes.is_empty() {
        return;
    }
    let ns = shapes.len();
    let rows = 1 + r.u8() as usize % 24;
    let mut pairs = Vec::with_capacity(rows);
    for _ in 0..rows {
        let (a, b) = (index(r, ns), index(r, ns));
        let off = r.pick(&[0.0, 1.0, 1e3, 1e6]);
        let ta = [r.coord(off), r.coord(off), r.coord(off)];
        let reach = 1.5
            * (shapes.get(a).map_or(1.0, |s| s.bounding_radius())
                + shapes.get(b).map_or(1.0, |s| s.bounding_radius()));
        let mut tb = [0.0; 3];
        for (k, t) in tb.iter_mut().enumerate() {
            *t = if r.u8() == 0 {
                r.coord(off)
            } else {
                ta[k] + reach * r.unit()
            };
        }
        let (qa, qb) = (r.quat(), r.quat());
        let mut p = Pair {
            a,
            pose_a: [ta[0], ta[1], ta[2], qa[0], qa[1], qa[2], qa[3]],
            b,
            pose_b: [tb[0], tb[1], tb[2], qb[0], qb[1], qb[2], qb[3]],
        };
        if let (Some(sa), Some(sb), Ok(pa), Ok(pb)) = (
            shapes.get(a),
            shapes.get(b),
            Pose3::from_parts(ta, qa),
            Pose3::from_parts(tb, qb),
        ) {
            if let Some(t) = place::<DVec3>(r, sa, &pa, sb, &pb) {
                p.pose_b[..3].copy_from_slice(&t.to_array());
            }
        }
        if borderline3(&p.pose_a) || borderline3(&p.pose_b) {
            continue;
        }
        pairs.push(p);
    }
    if pairs.is_empty() {
        return;
    }
    if big {
        let k = pairs.len();
        pairs = (0..batch::CHUNK + 1 + k).map(|i| pairs[i % k]).collect();
    }
    let expect: Vec<Option<String>> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| first_bad(i, ns, p, pose3_bad))
        .collect();
    let pose = |p: &[f64; 7]| {
        Pose3::from_parts([p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]])
            .expect("the scalar pose of a good row")
    };
    check::<DVec3>(&shapes, &pairs, &expect, pose);
    kernels_agree(&shapes, &pairs, &expect, pose);
}

/// The AVX2 and AVX-512VL kernels of the lane path (where the CPU has them) and the baseline
/// kernel write the same bits on the good rows whose two shapes the lanes take, in both modes.
fn kernels_agree(
    shapes: &[Shape3],
    pairs: &[Pair<[f64; 7]>],
    expect: &[Option<String>],
    pose: impl Fn(&[f64; 7]) -> Pose3,
) {
    static SAY: std::sync::Once = std::sync::Once::new();
    SAY.call_once(|| eprintln!("batch fuzz: lane kernel {:?}", Kernel::best()));
    let lane: Vec<Option<LaneShape>> = shapes.iter().map(LaneShape::of).collect();
    let rows: Vec<LaneRow<'_, DVec3>> = pairs
        .iter()
        .zip(expect)
        .enumerate()
        .filter(|(_, (_, e))| e.is_none())
        .filter_map(|(k, (p, _))| {
            Some(LaneRow {
                k,
                a: lane[p.a].as_ref()?,
                b: lane[p.b].as_ref()?,
                pose_a: pose(&p.pose_a),
                pose_b: pose(&p.pose_b),
            })
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let opts = gjk::Options::default();
    for mode in [Mode::Distance, Mode::Boolean] {
        let mut base = Vec::new();
        lanes::run_on(Kernel::Baseline, &rows, mode, &opts, &mut base);
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            let mut fast = Vec::new();
            let ran = lanes::run_on(kernel, &rows, mode, &opts, &mut fast);
            assert_eq!(ran == kernel, kernel.available());
            assert_eq!(fast.len(), rows.len());
            for (i, (f, b)) in fast.iter().zip(&base).enumerate() {
                assert_eq!(
                    format!("{f:?}"),
                    format!("{b:?}"),
                    "{kernel:?} {mode:?}: row {i}"
                );
            }
        }
    }
}

fn run2(r: &mut Bytes, big: bool) {
    let shapes: Vec<Shape2> = (0..1 + r.u8() % 5).filter_map(|_| shape2(r)).collect();
    if shapes.is_empty() {
        return;
    }
    let ns = shapes.len();
    let rows = 1 + r.u8() as usize % 24;
    let mut pairs = Vec::with_capacity(rows);
    for _ in 0..rows {
        let (a, b) = (index(r, ns), index(r, ns));
        let off = r.pick(&[0.0, 1.0, 1e3, 1e6]);
        let ta = [r.coord(off), r.coord(off)];
        let reach = 1.5
            * (shapes.get(a).map_or(1.0, |s| s.bounding_radius())
                + shapes.get(b).map_or(1.0, |s| s.bounding_radius()));
        let tb = [ta[0] + reach * r.unit(), ta[1] + reach * r.unit()];
        let angle = |r: &mut Bytes| match r.u8() {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => 2e60,
            3 => 1e59,
            _ => 3.2 * r.unit(),
        };
        let mut p = Pair {
            a,
            pose_a: [ta[0], ta[1], angle(r)],
            b,
            pose_b: [tb[0], tb[1], angle(r)],
        };
        if let (Some(sa), Some(sb), Ok(pa), Ok(pb)) = (
            shapes.get(a),
            shapes.get(b),
            Pose2::from_angle(ta, p.pose_a[2]),
            Pose2::from_angle(tb, p.pose_b[2]),
        ) {
            if let Some(t) = place::<DVec2>(r, sa, &pa, sb, &pb) {
                p.pose_b[..2].copy_from_slice(&t.to_array());
            }
        }
        pairs.push(p);
    }
    if big {
        let k = pairs.len();
        pairs = (0..batch::CHUNK + 1 + k).map(|i| pairs[i % k]).collect();
    }
    let expect: Vec<Option<String>> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| first_bad(i, ns, p, pose2_bad))
        .collect();
    check::<DVec2>(&shapes, &pairs, &expect, |p| {
        Pose2::from_angle([p[0], p[1]], p[2]).expect("the scalar pose of a good row")
    });
}

fuzz_target!(|data: &[u8]| {
    let mut r = Bytes::new(data);
    let head = r.u8();
    let big = head & 0b1110 == 0;
    if head & 1 == 0 {
        run3(&mut r, big);
    } else {
        run2(&mut r, big);
    }
});
