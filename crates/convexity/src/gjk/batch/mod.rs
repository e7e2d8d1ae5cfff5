//! Batch queries: distance, boolean intersection and penetration over many pairs at once.
//!
//! What it computes: for every row `(shape index A, pose A, shape index B, pose B)` of a slice
//! of [`Pair`]s into a shape table, the answer of the scalar call — [`crate::gjk::distance`],
//! [`crate::gjk::intersects`] or [`crate::gjk::epa::penetration`] — written into
//! caller-provided output slices ([`DistanceOut`], [`IntersectOut`], [`PenetrationOut`]).
//!
//! Poses arrive raw, as the CLI and the Python binding hold them: `[tx, ty, tz, qx, qy, qz, qw]`
//! in 3D (quaternion scalar-last) and `[tx, ty, angle]` in 2D. A bad row — a non-finite value,
//! a quaternion whose norm is off 1 by more than [`UNIT_TOLERANCE`], a shape index out of
//! range — gets an [`InputError`] naming the field (`pairs[3].pose_b.rotation: …`) in the
//! `error` slice; every other row is answered. Only a call that cannot be answered at all (an
//! empty `pairs`, an output slice of the wrong length) returns `Err`, before writing anything.
//!
//! How: rows are cut into chunks of [`CHUNK`]; with the feature `parallel` (on by default) the
//! calling thread and rayon tasks (one fewer than the pool's threads) take chunks from one
//! shared counter, so the caller never waits idle for the pool. Within a chunk, 3D rows whose
//! two shapes are small polytopes (boxes, point hulls of at most [`lanes::MAX_VERTS`] points)
//! go four at a time through a lane-wise GJK ([`lanes`]), except two boxes: their distance rows
//! go four at a time through the box–box closed form in lanes (`box_lanes`, bit-identical to
//! the scalar closed form), their boolean and penetration rows through the scalar closed form
//! (the 15 SAT axes), which is faster than GJK in lanes; every other row, and every lane the
//! lane paths decline (near the touch tolerance, a stall, the iteration cap), goes through the
//! scalar call. Each row's answer depends on its own inputs only — never on the chunking or on
//! its lane neighbours — so the parallel and the single-threaded runs agree bit for bit.
//!
//! Source: GJK as in [`crate::gjk`]; the lane path is a structure-of-arrays GJK with one query
//! per SIMD lane and per-lane termination masks (see [`lanes`] for its design and its measured
//! speed).
//!
//! Complexity: O(rows · GJK) work, O(shapes) set-up per call; no allocation per row (one
//! [`crate::gjk::epa::Context`] per chunk for penetration).
//!
//! Failure modes: none reach the caller as a panic; a row whose query hits the iteration cap
//! reports it in its `status`, as the scalar call does. Rows with an error hold zeros, status
//! `Degenerate` and an undetermined verdict.

mod box_lanes;
mod f64x4;
pub mod lanes;

use crate::error::{InputError, Problem};
use crate::gjk::epa::{self, EpaSpace};
use crate::gjk::{self, Options};
use crate::math::pose::{Pose, Pose2, Pose3};
use crate::math::vector::Vector;
use crate::shape::{Shape2, Shape3, SupportMap};
use crate::verdict::{Status, Verdict};
use glam::{DVec2, DVec3};
use std::borrow::Borrow;

pub use crate::math::pose::UNIT_TOLERANCE;

/// Rows per chunk: the unit of work handed to a thread.
pub const CHUNK: usize = 256;

/// One query: shape `a` of the table at `pose_a`, shape `b` at `pose_b` (world frame, raw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair<P> {
    /// Index of shape A in the shape table.
    pub a: usize,
    /// Raw world pose of A (validated per row).
    pub pose_a: P,
    /// Index of shape B in the shape table.
    pub b: usize,
    /// Raw world pose of B (validated per row).
    pub pose_b: P,
}

/// A 3D row: poses `[tx, ty, tz, qx, qy, qz, qw]` (quaternion scalar-last).
pub type Pair3 = Pair<[f64; 7]>;
/// A 2D row: poses `[tx, ty, angle]` (radians).
pub type Pair2 = Pair<[f64; 3]>;

/// Settings of a batch call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchOptions {
    /// GJK settings (distance, boolean, and the GJK run inside penetration).
    pub gjk: Options,
    /// EPA settings for [`penetration`] (its `gjk` field is overridden by `gjk` above).
    pub epa: epa::EpaOptions,
    /// Use the lane-wise path where it applies (`false`: every row through the scalar call).
    /// On by default: measured at least as fast as the scalar call on boxes and 8-point hulls.
    pub lanes: bool,
    /// Spread chunks over the cores (only with the feature `parallel`; otherwise ignored).
    pub parallel: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            gjk: Options::default(),
            epa: epa::EpaOptions::default(),
            lanes: true,
            parallel: true,
        }
    }
}

/// What a call did: rows answered by the lane path, rows rejected with an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Rows processed.
    pub rows: usize,
    /// Rows answered by the lane-wise (SIMD) path; the others went through
    /// the scalar call.
    pub lane_rows: usize,
    /// Rows rejected with an input error (bad shape index or pose).
    pub error_rows: usize,
}

impl Report {
    fn add(self, o: Report) -> Report {
        Report {
            rows: self.rows + o.rows,
            lane_rows: self.lane_rows + o.lane_rows,
            error_rows: self.error_rows + o.error_rows,
        }
    }
}

/// Outputs of [`distance`], one entry per pair (world frame). See [`crate::gjk::Distance`].
pub struct DistanceOut<'o, V> {
    /// Distance between the shapes (at most the tolerance when intersecting).
    pub distance: &'o mut [f64],
    /// Closest point on A (the common point when intersecting).
    pub point_a: &'o mut [V],
    /// Closest point on B (the common point when intersecting).
    pub point_b: &'o mut [V],
    /// Unit vector from A toward B.
    pub normal: &'o mut [V],
    /// How each row's run ended.
    pub status: &'o mut [Status],
    /// GJK iterations (0 for a rejected row).
    pub iterations: &'o mut [u32],
    /// The verdict with its certificate (check it with [`crate::verify`]).
    pub verdict: &'o mut [Verdict<V>],
    /// `None` for an answered row; the reason for a rejected one.
    pub error: &'o mut [Option<InputError>],
}

/// Outputs of [`intersects`], one entry per pair.
pub struct IntersectOut<'o, V> {
    /// How each row's run ended.
    pub status: &'o mut [Status],
    /// GJK iterations (0 for a rejected row).
    pub iterations: &'o mut [u32],
    /// The verdict with its certificate (check it with [`crate::verify`]).
    pub verdict: &'o mut [Verdict<V>],
    /// `None` for an answered row; the reason for a rejected one.
    pub error: &'o mut [Option<InputError>],
}

/// Outputs of [`penetration`], one entry per pair. See [`crate::gjk::epa::Penetration`].
pub struct PenetrationOut<'o, V> {
    /// Depth (≥ 0), or minus the distance when separated.
    pub depth: &'o mut [f64],
    /// Deepest point on A (closest point when separated).
    pub point_a: &'o mut [V],
    /// Deepest point on B (closest point when separated).
    pub point_b: &'o mut [V],
    /// Unit contact normal from A toward B.
    pub normal: &'o mut [V],
    /// How each row's run ended.
    pub status: &'o mut [Status],
    /// GJK + EPA iterations, as [`crate::gjk::epa::Penetration::iterations`] (0 for a
    /// rejected row).
    pub iterations: &'o mut [u32],
    /// The verdict with its certificate (check it with [`crate::verify`]).
    pub verdict: &'o mut [Verdict<V>],
    /// `None` for an answered row; the reason for a rejected one.
    pub error: &'o mut [Option<InputError>],
}

/// The pose type of a row: a raw pose ([`BatchSpace::RawPose`], validated per row and renamed
/// in the error as `pairs[i].pose_a.…`), or a [`Pose`] the caller already holds (taken as it
/// is: the row's answer is then the scalar call's on that very pose).
pub trait RowPose<V: Vector>: Copy + Send + Sync {
    /// The validated pose; the error names the sub-field (`translation[1]`, `rotation`).
    fn pose(&self) -> Result<Pose<V>, InputError>;
}

impl RowPose<DVec3> for [f64; 7] {
    #[inline(always)]
    fn pose(&self) -> Result<Pose3, InputError> {
        let raw = self;
        // All seven numbers are tested at once without an early exit (`|x| ≤ MAX` fails for
        // NaN and ±∞ too); only a bad pose looks for the first bad field, out of line, so that
        // this check inlines into the batch loop (callgrind: the call, its frame and the
        // `Result` it returned through memory were a third of a box row's validation).
        let good = raw
            .iter()
            .fold(true, |ok, x| ok & (x.abs() <= crate::error::MAX_MAGNITUDE));
        let q = glam::DQuat::from_xyzw(raw[3], raw[4], raw[5], raw[6]);
        let norm = q.length();
        if !(good && (norm - 1.0).abs() <= UNIT_TOLERANCE) {
            return Err(bad_pose3(raw, norm));
        }
        // `Pose::new`'s checks are the ones above; its renormalisation `q.normalize()` is
        // `q · (1 / |q|)`, formed here from the norm already taken (bit-identical poses).
        Ok(Pose3::from_checked(
            DVec3::new(raw[0], raw[1], raw[2]),
            q * (1.0 / norm),
        ))
    }
}

/// The error of a rejected 3D raw pose: its first non-finite or out-of-range field
/// (translation before rotation), else the quaternion's norm (`Pose::new` reports
/// `1 + |norm − 1|`; the message gives the norm itself).
#[cold]
#[inline(never)]
fn bad_pose3(raw: &[f64; 7], norm: f64) -> InputError {
    first_bad_field("translation", &raw[..3])
        .or_else(|| first_bad_field("rotation", &raw[3..]))
        .unwrap_or_else(|| InputError::new("rotation", Problem::NotUnit(norm)))
}

/// The error of the first non-finite or out-of-range number of `xs`, named `name[i]` (the
/// name formatted only for it); `None` when all are good.
fn first_bad_field(name: &str, xs: &[f64]) -> Option<InputError> {
    let bad = |x: &f64| !(x.abs() <= crate::error::MAX_MAGNITUDE);
    let i = xs.iter().position(bad)?;
    crate::error::finite(&format!("{name}[{i}]"), xs[i]).err()
}

impl RowPose<DVec2> for [f64; 3] {
    fn pose(&self) -> Result<Pose2, InputError> {
        let raw = self;
        if let Some(e) = first_bad_field("translation", &raw[..2]) {
            return Err(e);
        }
        Pose2::from_angle([raw[0], raw[1]], raw[2])
    }
}

impl<V: Vector> RowPose<V> for Pose<V>
where
    Pose<V>: Send + Sync,
{
    fn pose(&self) -> Result<Pose<V>, InputError> {
        Ok(*self)
    }
}

/// A dimension the batch API runs in: its shape enum and its raw pose.
pub trait BatchSpace: EpaSpace + Send + Sync {
    /// The shape enum of the table ([`Shape3`] or [`Shape2`]).
    type Shape: SupportMap<Self> + Sync;
    /// A pose as the caller stores it (`[f64; 7]` in 3D, `[f64; 3]` in 2D).
    type RawPose: RowPose<Self>;
    /// The lane-path view of a shape, if it has one.
    fn lane_shape(shape: &Self::Shape) -> Option<lanes::LaneShape>;
    /// Whether the pair has a closed form faster than the GJK lanes (two boxes in 3D), so that
    /// the row skips them: its distance goes to [`BatchSpace::closed_form_distances`], its
    /// boolean and penetration to the scalar call.
    fn closed_form_pair(a: &Self::Shape, b: &Self::Shape) -> bool;
    /// The scalar distance call on a row (with two boxes in 3D, on the boxes themselves: the
    /// enum's per-call dispatch of sizes and radii is skipped, the answer is the same).
    fn scalar_distance(
        (a, pose_a): (&Self::Shape, &Pose<Self>),
        (b, pose_b): (&Self::Shape, &Pose<Self>),
        opts: &Options,
    ) -> gjk::Distance<Self> {
        gjk::distance(a, pose_a, b, pose_b, opts, None)
    }
    /// The scalar boolean call on a row (as [`BatchSpace::scalar_distance`]).
    fn scalar_intersects(
        (a, pose_a): (&Self::Shape, &Pose<Self>),
        (b, pose_b): (&Self::Shape, &Pose<Self>),
        opts: &Options,
    ) -> gjk::Intersection<Self> {
        gjk::intersects(a, pose_a, b, pose_b, opts, None)
    }
    /// The scalar penetration call on a row (as [`BatchSpace::scalar_distance`]).
    fn scalar_penetration(
        (a, pose_a): (&Self::Shape, &Pose<Self>),
        (b, pose_b): (&Self::Shape, &Pose<Self>),
        opts: &epa::Options,
        ctx: &mut epa::Context<Self>,
    ) -> epa::Penetration<Self> {
        epa::penetration(a, pose_a, b, pose_b, opts, ctx)
    }
    /// A closed-form pair as [`BatchSpace::closed_form_distances`] reads it, built straight
    /// from the validated row (two boxes in 3D: their half extents, sizes and poses).
    #[doc(hidden)]
    type Closed: Copy + Send + Sync;
    /// The closed-form view of a row for [`BatchSpace::closed_form_distances`]; `None` (the
    /// default) when the pair has none.
    #[doc(hidden)]
    fn closed_row(
        (a, pose_a): (&Self::Shape, &Pose<Self>),
        (b, pose_b): (&Self::Shape, &Pose<Self>),
    ) -> Option<Self::Closed> {
        let _ = (a, pose_a, b, pose_b);
        None
    }
    /// The distances of closed-form pairs ([`BatchSpace::closed_row`]) answered four at a time
    /// where a lane path exists (two boxes in 3D: `box_lanes`): `answer(i, Some(d))` for
    /// `rows[i]`, or `answer(i, None)` (the default, and every declined pair) for the caller
    /// to run [`BatchSpace::scalar_distance`].
    #[doc(hidden)]
    fn closed_form_distances(
        rows: &[Self::Closed],
        opts: &Options,
        answer: &mut dyn FnMut(usize, Option<&gjk::Distance<Self>>),
    ) {
        let _ = opts;
        for i in 0..rows.len() {
            answer(i, None);
        }
    }
    /// Runs the lane path on `rows`, one answer per row (`None`: declined, use the scalar call).
    fn run_lanes(
        rows: &[lanes::LaneRow<'_, Self>],
        mode: lanes::Mode,
        opts: &Options,
        answers: &mut Vec<Option<lanes::Answer<Self>>>,
    );
}

impl BatchSpace for DVec3 {
    type Shape = Shape3;
    type RawPose = [f64; 7];
    fn lane_shape(shape: &Shape3) -> Option<lanes::LaneShape> {
        lanes::LaneShape::of(shape)
    }
    fn closed_form_pair(a: &Shape3, b: &Shape3) -> bool {
        matches!((a, b), (Shape3::Cuboid(_), Shape3::Cuboid(_)))
    }
    fn scalar_distance(
        (a, pose_a): (&Shape3, &Pose3),
        (b, pose_b): (&Shape3, &Pose3),
        opts: &Options,
    ) -> gjk::Distance<DVec3> {
        match (a, b) {
            (Shape3::Cuboid(a), Shape3::Cuboid(b)) => {
                gjk::distance(a, pose_a, b, pose_b, opts, None)
            }
            _ => gjk::distance(a, pose_a, b, pose_b, opts, None),
        }
    }
    fn scalar_penetration(
        (a, pose_a): (&Shape3, &Pose3),
        (b, pose_b): (&Shape3, &Pose3),
        opts: &epa::Options,
        ctx: &mut epa::Context<DVec3>,
    ) -> epa::Penetration<DVec3> {
        match (a, b) {
            (Shape3::Cuboid(a), Shape3::Cuboid(b)) => {
                epa::penetration(a, pose_a, b, pose_b, opts, ctx)
            }
            _ => epa::penetration(a, pose_a, b, pose_b, opts, ctx),
        }
    }
    fn scalar_intersects(
        (a, pose_a): (&Shape3, &Pose3),
        (b, pose_b): (&Shape3, &Pose3),
        opts: &Options,
    ) -> gjk::Intersection<DVec3> {
        match (a, b) {
            (Shape3::Cuboid(a), Shape3::Cuboid(b)) => {
                gjk::intersects(a, pose_a, b, pose_b, opts, None)
            }
            _ => gjk::intersects(a, pose_a, b, pose_b, opts, None),
        }
    }
    type Closed = box_lanes::BoxInput;
    #[inline(always)]
    fn closed_row(
        (a, pose_a): (&Shape3, &Pose3),
        (b, pose_b): (&Shape3, &Pose3),
    ) -> Option<box_lanes::BoxInput> {
        match (a, b) {
            (Shape3::Cuboid(a), Shape3::Cuboid(b)) => {
                Some(box_lanes::BoxInput::of(a, pose_a, b, pose_b))
            }
            _ => None,
        }
    }
    fn closed_form_distances(
        rows: &[box_lanes::BoxInput],
        opts: &Options,
        answer: &mut dyn FnMut(usize, Option<&gjk::Distance<DVec3>>),
    ) {
        box_lanes::distances(rows, opts, answer);
    }
    fn run_lanes(
        rows: &[lanes::LaneRow<'_, DVec3>],
        mode: lanes::Mode,
        opts: &Options,
        answers: &mut Vec<Option<lanes::Answer<DVec3>>>,
    ) {
        lanes::run(rows, mode, opts, answers);
    }
}

impl BatchSpace for DVec2 {
    type Shape = Shape2;
    type RawPose = [f64; 3];
    type Closed = ();
    fn lane_shape(_: &Shape2) -> Option<lanes::LaneShape> {
        None
    }
    fn closed_form_pair(_: &Shape2, _: &Shape2) -> bool {
        false
    }
    fn run_lanes(
        rows: &[lanes::LaneRow<'_, DVec2>],
        _: lanes::Mode,
        _: &Options,
        answers: &mut Vec<Option<lanes::Answer<DVec2>>>,
    ) {
        answers.clear();
        answers.extend(rows.iter().map(|_| None));
    }
}

/// A validated row: the two shapes and their poses.
pub(crate) struct Row<'s, V: BatchSpace> {
    pub a: &'s V::Shape,
    pub b: &'s V::Shape,
    pub ia: usize,
    pub ib: usize,
    pub pose_a: Pose<V>,
    pub pose_b: Pose<V>,
}

/// Validates row `i`, naming the failing field `pairs[i].…`. Inlined into the chunk loops,
/// with the error paths out of line.
#[inline(always)]
pub(crate) fn validate<'s, V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &'s [S],
    i: usize,
    p: &Pair<impl RowPose<V>>,
) -> Result<Row<'s, V>, InputError> {
    let (Some(a), Some(b)) = (shapes.get(p.a), shapes.get(p.b)) else {
        return Err(bad_index(shapes.len(), i, p));
    };
    let pose_a = match p.pose_a.pose() {
        Ok(x) => x,
        Err(e) => return Err(within_row(e, i, "pose_a")),
    };
    let pose_b = match p.pose_b.pose() {
        Ok(x) => x,
        Err(e) => return Err(within_row(e, i, "pose_b")),
    };
    Ok(Row {
        a: a.borrow(),
        b: b.borrow(),
        ia: p.a,
        ib: p.b,
        pose_a,
        pose_b,
    })
}

/// The error of a row whose shape index is out of range (A's checked first).
#[cold]
#[inline(never)]
fn bad_index<P>(n: usize, i: usize, p: &Pair<P>) -> InputError {
    let (name, idx) = if p.a >= n { ("a", p.a) } else { ("b", p.b) };
    InputError::new(
        format!("pairs[{i}].{name}"),
        Problem::Invalid(format!(
            "shape index {idx} is out of range (the table has {n} shapes)"
        )),
    )
}

/// A pose error renamed within row `i` (`pairs[i].pose_a.…`).
#[cold]
#[inline(never)]
fn within_row(e: InputError, i: usize, name: &str) -> InputError {
    e.within(&format!("pairs[{i}].{name}"))
}

fn check_len(name: &str, len: usize, n: usize) -> Result<(), InputError> {
    if len == n {
        Ok(())
    } else {
        Err(InputError::new(
            name,
            Problem::Invalid(format!(
                "output slice has length {len}, expected {n} (one per pair)"
            )),
        ))
    }
}

fn check_pairs<P>(pairs: &[P]) -> Result<usize, InputError> {
    if pairs.is_empty() {
        Err(InputError::new("pairs", Problem::Empty))
    } else {
        Ok(pairs.len())
    }
}

/// Runs `work(first_row, chunk_pairs, chunk_out)` over the chunks, in parallel when asked.
fn for_chunks<P, O, F>(pairs: &[P], outs: Vec<O>, parallel: bool, work: F) -> Report
where
    P: Sync,
    O: Send,
    F: Fn(usize, &[P], O) -> Report + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if parallel && pairs.len() > CHUNK {
        return spread(pairs, outs, &work);
    }
    let _ = parallel;
    pairs
        .chunks(CHUNK)
        .zip(outs)
        .enumerate()
        .map(|(c, (p, o))| work(c * CHUNK, p, o))
        .fold(Report::default(), Report::add)
}

/// The calling thread and up to one rayon task per pool thread take chunks from one shared
/// counter until none is left.
///
/// Why not `into_par_iter`: a caller outside the pool then blocks while the pool's threads,
/// woken from sleep, do all the work; on the 2-core test machine the scheduler often woke
/// both on the same core, and a 20,000-row batch ran at 1.0× one core in about half of the
/// calls (1.8× in the others). Here the caller works from the first chunk, so a late or
/// misplaced helper costs nothing but its own share.
#[cfg(feature = "parallel")]
fn spread<P, O, F>(pairs: &[P], outs: Vec<O>, work: &F) -> Report
where
    P: Sync,
    O: Send,
    F: Fn(usize, &[P], O) -> Report + Sync + Send,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};
    // One slot per chunk; each is taken exactly once (the counter hands out every index once),
    // so the locks are never contended.
    type Slot<'p, P, O> = Mutex<Option<(&'p [P], O)>>;
    let slots: Vec<Slot<P, O>> = pairs
        .chunks(CHUNK)
        .zip(outs)
        .map(|job| Mutex::new(Some(job)))
        .collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Report::default());
    let drain = || {
        let mut report = Report::default();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = slots.get(c) else { break };
            let job = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some((p, o)) = job {
                report = report.add(work(c * CHUNK, p, o));
            }
        }
        let mut t = total.lock().unwrap_or_else(PoisonError::into_inner);
        *t = t.add(report);
    };
    let helpers = (rayon::current_num_threads() - 1).min(slots.len() - 1);
    rayon::in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| drain());
        }
        drain();
    });
    total.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// Distance, closest points, normal, status and certificate of every pair.
///
/// ```
/// use convexity::batch::{self, DistanceOut, Pair3, BatchOptions};
/// use convexity::{Cuboid, DVec3, Shape3, Status, Verdict};
/// let shapes = [Shape3::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap())];
/// let id = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
/// let pairs = [
///     Pair3 { a: 0, pose_a: id, b: 0, pose_b: [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] },
///     Pair3 { a: 0, pose_a: id, b: 0, pose_b: [f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] },
/// ];
/// let n = pairs.len();
/// let (mut d, mut pa, mut pb, mut nr) = (vec![0.0; n], vec![DVec3::ZERO; n], vec![DVec3::ZERO; n], vec![DVec3::ZERO; n]);
/// let (mut st, mut it) = (vec![Status::Converged; n], vec![0u32; n]);
/// let (mut v, mut e) = (vec![Verdict::Undetermined; n], vec![None; n]);
/// let out = DistanceOut { distance: &mut d, point_a: &mut pa, point_b: &mut pb, normal: &mut nr,
///     status: &mut st, iterations: &mut it, verdict: &mut v, error: &mut e };
/// batch::distance(&shapes, &pairs, &BatchOptions::default(), out).unwrap();
/// assert!((d[0] - 2.0).abs() < 1e-12);
/// assert!(e[1].as_ref().unwrap().to_string().starts_with("pairs[1].pose_b.translation[0]"));
/// ```
pub fn distance<V: BatchSpace>(
    shapes: &[impl Borrow<V::Shape> + Sync],
    pairs: &[Pair<impl RowPose<V>>],
    opts: &BatchOptions,
    out: DistanceOut<'_, V>,
) -> Result<Report, InputError> {
    let n = check_pairs(pairs)?;
    check_len("out.distance", out.distance.len(), n)?;
    check_len("out.point_a", out.point_a.len(), n)?;
    check_len("out.point_b", out.point_b.len(), n)?;
    check_len("out.normal", out.normal.len(), n)?;
    check_len("out.status", out.status.len(), n)?;
    check_len("out.iterations", out.iterations.len(), n)?;
    check_len("out.verdict", out.verdict.len(), n)?;
    check_len("out.error", out.error.len(), n)?;
    let lane_shapes = lane_table::<V, _>(shapes, opts.lanes);
    let outs: Vec<DistanceOut<'_, V>> = out
        .distance
        .chunks_mut(CHUNK)
        .zip(out.point_a.chunks_mut(CHUNK))
        .zip(out.point_b.chunks_mut(CHUNK))
        .zip(out.normal.chunks_mut(CHUNK))
        .zip(out.status.chunks_mut(CHUNK))
        .zip(out.iterations.chunks_mut(CHUNK))
        .zip(out.verdict.chunks_mut(CHUNK))
        .zip(out.error.chunks_mut(CHUNK))
        .map(
            |(
                ((((((distance, point_a), point_b), normal), status), iterations), verdict),
                error,
            )| {
                DistanceOut {
                    distance,
                    point_a,
                    point_b,
                    normal,
                    status,
                    iterations,
                    verdict,
                    error,
                }
            },
        )
        .collect();
    Ok(for_chunks(pairs, outs, opts.parallel, |first, p, o| {
        distance_chunk::<V, _>(shapes, &lane_shapes, first, p, &opts.gjk, o)
    }))
}

/// The lane-path view of every shape (empty when the lane path is off).
fn lane_table<V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &[S],
    on: bool,
) -> Vec<Option<lanes::LaneShape>> {
    if on {
        shapes.iter().map(|s| V::lane_shape(s.borrow())).collect()
    } else {
        Vec::new()
    }
}

/// Sorts a chunk's rows: errors are written at once, lane rows are collected, closed-form
/// pairs with lane shapes too when `closed` is given, the rest are answered by
/// `scalar(k, row)`. Returns the lane rows and the report so far.
fn triage<'s, 'l, V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &'s [S],
    lane_shapes: &'l [Option<lanes::LaneShape>],
    first: usize,
    pairs: &[Pair<impl RowPose<V>>],
    mut reject: impl FnMut(usize, InputError),
    mut scalar: impl FnMut(usize, &Row<'s, V>),
    mut closed: Option<&mut (Vec<usize>, Vec<V::Closed>)>,
) -> (Vec<lanes::LaneRow<'l, V>>, Report) {
    let mut report = Report {
        rows: pairs.len(),
        ..Report::default()
    };
    let mut lane_rows = Vec::new();
    for (k, p) in pairs.iter().enumerate() {
        match validate::<V, _>(shapes, first + k, p) {
            Err(e) => {
                report.error_rows += 1;
                reject(k, e);
            }
            Ok(row) => {
                let la = lane_shapes.get(row.ia).and_then(Option::as_ref);
                let lb = lane_shapes.get(row.ib).and_then(Option::as_ref);
                match (la, lb) {
                    (Some(a), Some(b)) if !V::closed_form_pair(row.a, row.b) => {
                        lane_rows.push(lanes::LaneRow {
                            k,
                            a,
                            b,
                            pose_a: row.pose_a,
                            pose_b: row.pose_b,
                        })
                    }
                    (Some(_), Some(_)) if closed.is_some() => {
                        let view = V::closed_row((row.a, &row.pose_a), (row.b, &row.pose_b));
                        match (closed.as_deref_mut(), view) {
                            (Some((ks, c)), Some(view)) => {
                                // Sized once, at the first such row (growing by `realloc` cost
                                // a box row 60 instructions).
                                if c.is_empty() {
                                    ks.reserve(pairs.len() - k);
                                    c.reserve(pairs.len() - k);
                                }
                                ks.push(k);
                                c.push(view);
                            }
                            _ => scalar(k, &row),
                        }
                    }
                    _ => scalar(k, &row),
                }
            }
        }
    }
    (lane_rows, report)
}

/// Runs the lane path on `rows`; `accept(k, answer)` for its answers, `scalar(k, row)` for the
/// rows it declined. Returns how many it answered.
#[allow(clippy::too_many_arguments)]
fn lanes_then_scalar<'s, V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &'s [S],
    first: usize,
    pairs: &[Pair<impl RowPose<V>>],
    rows: &[lanes::LaneRow<'_, V>],
    mode: lanes::Mode,
    opts: &Options,
    mut accept: impl FnMut(usize, &lanes::Answer<V>),
    mut scalar: impl FnMut(usize, &Row<'s, V>),
) -> usize {
    if rows.is_empty() {
        return 0;
    }
    let mut answers = Vec::with_capacity(rows.len());
    V::run_lanes(rows, mode, opts, &mut answers);
    let mut answered = 0;
    for (r, a) in rows.iter().zip(answers.iter()) {
        match a {
            Some(a) => {
                answered += 1;
                accept(r.k, a);
            }
            None => {
                if let Ok(row) = validate::<V, _>(shapes, first + r.k, &pairs[r.k]) {
                    scalar(r.k, &row);
                }
            }
        }
    }
    answered
}

fn distance_chunk<V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &[S],
    lane_shapes: &[Option<lanes::LaneShape>],
    first: usize,
    pairs: &[Pair<impl RowPose<V>>],
    opts: &Options,
    out: DistanceOut<'_, V>,
) -> Report {
    let DistanceOut {
        distance,
        point_a,
        point_b,
        normal,
        status,
        iterations,
        verdict,
        error,
    } = out;
    let cell = std::cell::RefCell::new((
        distance, point_a, point_b, normal, status, iterations, verdict,
    ));
    let write = |k: usize, d: &gjk::Distance<V>| {
        let mut o = cell.borrow_mut();
        o.0[k] = d.distance;
        o.1[k] = d.point_a;
        o.2[k] = d.point_b;
        o.3[k] = d.normal;
        o.4[k] = d.status;
        o.5[k] = d.iterations;
        o.6[k] = d.verdict;
    };
    let scalar = |k: usize, row: &Row<'_, V>| {
        write(
            k,
            &V::scalar_distance((row.a, &row.pose_a), (row.b, &row.pose_b), opts),
        )
    };
    let mut closed = (Vec::new(), Vec::new());
    for e in error.iter_mut() {
        *e = None;
    }
    let (rows, mut report) = triage::<V, _>(
        shapes,
        lane_shapes,
        first,
        pairs,
        |k, e| {
            write(k, &blank_distance());
            error[k] = Some(e);
        },
        scalar,
        Some(&mut closed),
    );
    let (ks, closed) = closed;
    if !closed.is_empty() {
        V::closed_form_distances(&closed, opts, &mut |i, d| match d {
            Some(d) => {
                report.lane_rows += 1;
                write(ks[i], d);
            }
            None => {
                let k = ks[i];
                if let Ok(row) = validate::<V, _>(shapes, first + k, &pairs[k]) {
                    scalar(k, &row);
                }
            }
        });
    }
    report.lane_rows += lanes_then_scalar::<V, _>(
        shapes,
        first,
        pairs,
        &rows,
        lanes::Mode::Distance,
        opts,
        |k, a| write(k, &a.distance),
        scalar,
    );
    report
}

/// What a rejected row holds.
fn blank_distance<V: Vector>() -> gjk::Distance<V> {
    gjk::Distance {
        status: Status::Degenerate,
        iterations: 0,
        distance: 0.0,
        lower_bound: 0.0,
        point_a: V::ZERO,
        point_b: V::ZERO,
        normal: V::ZERO,
        verdict: Verdict::Undetermined,
        tolerance: 0.0,
    }
}

/// Boolean intersection with its certificate for every pair (exits early per row, as
/// [`crate::gjk::intersects`] does).
pub fn intersects<V: BatchSpace>(
    shapes: &[impl Borrow<V::Shape> + Sync],
    pairs: &[Pair<impl RowPose<V>>],
    opts: &BatchOptions,
    out: IntersectOut<'_, V>,
) -> Result<Report, InputError> {
    let n = check_pairs(pairs)?;
    check_len("out.status", out.status.len(), n)?;
    check_len("out.iterations", out.iterations.len(), n)?;
    check_len("out.verdict", out.verdict.len(), n)?;
    check_len("out.error", out.error.len(), n)?;
    let lane_shapes = lane_table::<V, _>(shapes, opts.lanes);
    let outs: Vec<IntersectOut<'_, V>> = out
        .status
        .chunks_mut(CHUNK)
        .zip(out.iterations.chunks_mut(CHUNK))
        .zip(out.verdict.chunks_mut(CHUNK))
        .zip(out.error.chunks_mut(CHUNK))
        .map(|(((status, iterations), verdict), error)| IntersectOut {
            status,
            iterations,
            verdict,
            error,
        })
        .collect();
    Ok(for_chunks(pairs, outs, opts.parallel, |first, p, o| {
        intersect_chunk::<V, _>(shapes, &lane_shapes, first, p, &opts.gjk, o)
    }))
}

fn intersect_chunk<V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &[S],
    lane_shapes: &[Option<lanes::LaneShape>],
    first: usize,
    pairs: &[Pair<impl RowPose<V>>],
    opts: &Options,
    out: IntersectOut<'_, V>,
) -> Report {
    let IntersectOut {
        status,
        iterations,
        verdict,
        error,
    } = out;
    let cell = std::cell::RefCell::new((status, iterations, verdict));
    let write = |k: usize, s: Status, it: u32, v: Verdict<V>| {
        let mut o = cell.borrow_mut();
        o.0[k] = s;
        o.1[k] = it;
        o.2[k] = v;
    };
    let scalar = |k: usize, row: &Row<'_, V>| {
        let r = V::scalar_intersects((row.a, &row.pose_a), (row.b, &row.pose_b), opts);
        write(k, r.status, r.iterations, r.verdict)
    };
    for e in error.iter_mut() {
        *e = None;
    }
    let (rows, mut report) = triage::<V, _>(
        shapes,
        lane_shapes,
        first,
        pairs,
        |k, e| {
            write(k, Status::Degenerate, 0, Verdict::Undetermined);
            error[k] = Some(e);
        },
        scalar,
        None,
    );
    report.lane_rows = lanes_then_scalar::<V, _>(
        shapes,
        first,
        pairs,
        &rows,
        lanes::Mode::Boolean,
        opts,
        |k, a| {
            let d = &a.distance;
            write(k, d.status, d.iterations, d.verdict)
        },
        scalar,
    );
    report
}

/// Penetration depth, normal, witnesses and certificate of every pair (EPA after GJK; minus
/// the distance for separated pairs), as [`crate::gjk::epa::penetration`]. Every row runs the
/// scalar call (one EPA context per chunk): EPA's polytope growth does not fit SIMD lanes.
pub fn penetration<V: BatchSpace>(
    shapes: &[impl Borrow<V::Shape> + Sync],
    pairs: &[Pair<impl RowPose<V>>],
    opts: &BatchOptions,
    out: PenetrationOut<'_, V>,
) -> Result<Report, InputError> {
    let n = check_pairs(pairs)?;
    check_len("out.depth", out.depth.len(), n)?;
    check_len("out.point_a", out.point_a.len(), n)?;
    check_len("out.point_b", out.point_b.len(), n)?;
    check_len("out.normal", out.normal.len(), n)?;
    check_len("out.status", out.status.len(), n)?;
    check_len("out.iterations", out.iterations.len(), n)?;
    check_len("out.verdict", out.verdict.len(), n)?;
    check_len("out.error", out.error.len(), n)?;
    let outs: Vec<PenetrationOut<'_, V>> = out
        .depth
        .chunks_mut(CHUNK)
        .zip(out.point_a.chunks_mut(CHUNK))
        .zip(out.point_b.chunks_mut(CHUNK))
        .zip(out.normal.chunks_mut(CHUNK))
        .zip(out.status.chunks_mut(CHUNK))
        .zip(out.iterations.chunks_mut(CHUNK))
        .zip(out.verdict.chunks_mut(CHUNK))
        .zip(out.error.chunks_mut(CHUNK))
        .map(
            |(((((((depth, point_a), point_b), normal), status), iterations), verdict), error)| {
                PenetrationOut {
                    depth,
                    point_a,
                    point_b,
                    normal,
                    status,
                    iterations,
                    verdict,
                    error,
                }
            },
        )
        .collect();
    let mut eopts = opts.epa;
    eopts.gjk = opts.gjk;
    Ok(for_chunks(pairs, outs, opts.parallel, |first, p, o| {
        penetration_chunk::<V, _>(shapes, first, p, &eopts, o)
    }))
}

fn penetration_chunk<V: BatchSpace, S: Borrow<V::Shape>>(
    shapes: &[S],
    first: usize,
    pairs: &[Pair<impl RowPose<V>>],
    opts: &epa::EpaOptions,
    out: PenetrationOut<'_, V>,
) -> Report {
    let mut report = Report {
        rows: pairs.len(),
        ..Report::default()
    };
    let mut ctx = epa::Context::new();
    for (k, p) in pairs.iter().enumerate() {
        match validate::<V, _>(shapes, first + k, p) {
            Err(e) => {
                report.error_rows += 1;
                out.depth[k] = 0.0;
                out.point_a[k] = V::ZERO;
                out.point_b[k] = V::ZERO;
                out.normal[k] = V::ZERO;
                out.status[k] = Status::Degenerate;
                out.iterations[k] = 0;
                out.verdict[k] = Verdict::Undetermined;
                out.error[k] = Some(e);
            }
            Ok(row) => {
                let r = V::scalar_penetration(
                    (row.a, &row.pose_a),
                    (row.b, &row.pose_b),
                    opts,
                    &mut ctx,
                );
                out.depth[k] = r.depth;
                out.point_a[k] = r.point_a;
                out.point_b[k] = r.point_b;
                out.normal[k] = r.normal;
                out.status[k] = r.status;
                out.iterations[k] = r.iterations;
                out.verdict[k] = r.verdict;
                out.error[k] = None;
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DQuat;

    /// A row's pose is bit for bit the one `Pose3::new` builds from the same numbers
    /// (quaternions off unit by up to twice the tolerance, translations up to 1e6), and a row
    /// rejected by one is rejected by the other.
    #[test]
    fn row_poses_equal_pose_new_bit_for_bit() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || crate::math::test_rng::lcg(&mut s);
        let mut rejected = 0;
        for i in 0..20_000 {
            let q = DQuat::from_xyzw(next(), next(), next(), next()).normalize();
            // Off unit by up to ±2e-6 (inside and beyond the tolerance of 1e-6).
            let f = 1.0 + next() * 2.0 * UNIT_TOLERANCE;
            let t = [next() * 1e6, next(), next() * 1e3];
            let raw = [t[0], t[1], t[2], q.x * f, q.y * f, q.z * f, q.w * f];
            let ours = RowPose::<DVec3>::pose(&raw);
            let theirs = Pose3::new(
                DVec3::new(raw[0], raw[1], raw[2]),
                DQuat::from_xyzw(raw[3], raw[4], raw[5], raw[6]),
            );
            match (ours, theirs) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        a.translation().to_array(),
                        b.translation().to_array(),
                        "{i}"
                    );
                    assert_eq!(a.rotation().to_array(), b.rotation().to_array(), "{i}");
                }
                (Err(_), Err(_)) => rejected += 1,
                (a, b) => panic!("row {i}: {a:?} vs {b:?}"),
            }
        }
        assert!(rejected > 5_000 && rejected < 15_000, "{rejected}");
    }
}
