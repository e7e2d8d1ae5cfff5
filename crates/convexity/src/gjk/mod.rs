//! GJK: boolean intersection and distance between two convex shapes given by support maps.
//!
//! Source: Gilbert, Johnson & Keerthi, "A fast procedure for computing the distance between
//! complex objects in three-dimensional space", IEEE J. Robotics & Automation 4(2), 1988;
//! termination and the core/radius split after van den Bergen (2003), §4.3.
//!
//! What it computes: the distance between A and B, the closest points, the direction, and a
//! certificate (separating axis with gap, or common point). Runs on the shapes' cores in A's
//! frame (see [`crate::gjk::minkowski`]) and subtracts the radii, so spheres and capsules are exact.
//!
//! Termination, in order of precedence each iteration:
//! * the simplex contains the origin (`DIM + 1` points with positive weights): intersecting;
//! * duality gap: the upper bound `|v|` minus the best lower bound `max_k (v_k·w_k)/|v_k|` is at
//!   most `max(abs_tol, rel_tol · |v|)`: converged;
//! * the new support point repeats a simplex vertex: converged (no progress is possible);
//! * `|v|` did not decrease in 4 consecutive iterations: numerical stall, status `Degenerate`
//!   (bounds are still valid). A single non-improving step is normal near flat faces, where
//!   GJK alternates between a useless far-side support point and a real step;
//! * iteration cap: status `IterationLimit`.
//!
//! The verdict is decided by proof only: `Separated` when the certified gap (lower bound minus
//! radii) is positive and the upper bound exceeds the touch tolerance, `Intersecting` when the
//! upper bound minus radii is within the touch tolerance (touching counts as intersecting),
//! otherwise `Undetermined`. Hitting the cap never turns into a separated answer without a
//! positive certified gap.
//!
//! Precision: the returned distance is within `max(abs_tol, rel_tol·d)` of the distance of
//! the shapes as given, where `abs_tol = rel_tol · (size_A + size_B) + 4ε · magnitude`,
//! `rel_tol = 1e-10` by default and the magnitude sums the world translations (`‖t‖₁`), the
//! centres and the sizes. Poses enter the geometry only through `pose_a⁻¹ ∘ pose_b`, formed
//! from the difference of the translations, so a common offset of 1e6 adds no error beyond the
//! rounding of the input translations themselves (≈ 1.2e-10 per coordinate at 1e6, which the
//! `4ε · magnitude` floor of ≈ 9e-10 covers). Gaps below that floor cannot be represented in
//! the input and are reported as touching.
//!
//! Complexity: O(k · support) with k iterations (typically 3–12 for polytopes; the cap,
//! default 128, bounds curved shapes). No allocation.
//!
//! # Result layout
//!
//! [`Distance`], [`Intersection`] and [`crate::gjk::epa::Penetration`] are `repr(C,
//! align(16))`, their fields ordered so that in 3D every vector starts at a multiple of 16
//! bytes, the verdict's too (its 8-byte tag then its vector: the verdict sits 8 past a
//! multiple of 16). Compilers move the `x, y` pair of a `DVec3` with one 16-byte load or store;
//! 8 past a multiple of 16 that access crosses a cache line one time in four and a 4 KiB page
//! one time in 256, and a store across a page stalls what follows it. The results are written
//! on the caller's stack, so with 8-byte alignment a few stack depths in every 256 put such a
//! store across a page: the ball–ball distance then took 18–23 ns a query instead of 13–14
//! (`profile_driver sphere distance convexity 20000 20`, the stack shifted 16 bytes at a time
//! through a 4 KiB period by the size of the environment, fastest of three runs per depth: 9
//! of 256 depths slow; none of those nine after the change, whose ball–ball path has no
//! unaligned 16-byte stack access left in its machine code). This was one reason why the
//! `speed` table's ball–ball row came out slow in some runs;
//! `crates/convexity-bench/stack_scan.sh sphere distance` repeats the scan. Aligning the
//! certificates themselves to 16 bytes instead made the compiler widen the verdict's tag to 16
//! bytes, written as two 8-byte stores and read back by one 16-byte compare that cannot be
//! forwarded from them: every ball–ball boolean query 13 → 24 ns. In 2D the order cannot suit
//! both 16-byte vectors and 8-byte scalars; 3D is the one measured.

pub mod batch;
pub mod certificate;
pub mod chung_wang;
pub mod closed_form;
pub mod epa;
pub mod minkowski;
mod obb;
pub mod simplex;

use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::math::pair_key::PairKey;
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use crate::shape::SupportMap;
use crate::verdict::{CommonPoint, SeparatingAxis, Status, Verdict};

/// GJK settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOptions {
    /// Cap on GJK iterations; when hit, the result has status `IterationLimit` and the
    /// bounds found so far.
    pub max_iterations: u32,
    /// Relative tolerance on the duality gap and on touching.
    pub rel_tolerance: f64,
    /// Absolute tolerance; defaults to `rel_tolerance × (size_A + size_B) + 4ε × magnitude`,
    /// where the magnitude sums the world translations, the shapes' centres in A's frame and
    /// their sizes (see [`MinkowskiDifference::magnitude`]): input rounding is below it.
    pub abs_tolerance: Option<f64>,
}

/// The short name of [`GjkOptions`], kept because most callers (tests, benches, the README)
/// spell it `gjk::Options`.
pub type Options = GjkOptions;

impl Default for GjkOptions {
    fn default() -> Self {
        GjkOptions {
            max_iterations: 128,
            rel_tolerance: 1e-10,
            abs_tolerance: None,
        }
    }
}

/// Warm-start cache for coherent queries: the last search direction in A's frame and the last
/// simplex (re-placed with the new relative pose, its points are still points of A − B).
///
/// A cache belongs to one pair of shapes. It records the two shapes' addresses and is ignored
/// (the query starts cold) when it is passed with other shapes, so reusing it by mistake costs
/// speed, never correctness. Do not rebuild a shape in place while keeping its cache.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkCache<V> {
    dir: Option<V>,
    /// The pair the cache was filled for.
    owner: PairKey,
    /// The last simplex's support points: A's in A's frame, B's in B's own frame, so that the
    /// next query can re-place them with its relative pose (they stay points of A and of B).
    pts: [(V, V); 4],
    len: usize,
}

/// The short name of [`GjkCache`] (see [`Options`]).
pub type Cache<V> = GjkCache<V>;

impl<V: Vector> GjkCache<V> {
    /// An empty cache: the first query with it starts cold.
    pub fn new() -> Self {
        Cache {
            dir: None,
            owner: PairKey::default(),
            pts: [(V::ZERO, V::ZERO); 4],
            len: 0,
        }
    }

    /// Whether the cache was filled for this pair of shapes.
    pub(crate) fn belongs_to<A: ?Sized, B: ?Sized>(
        &self,
        mink: &MinkowskiDifference<'_, V, A, B>,
    ) -> bool {
        self.owner == PairKey::of(mink.a, mink.b)
    }

    /// Keeps `s` for the next query on this pair (B's points in B's own frame).
    pub(crate) fn store<A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(
        &mut self,
        mink: &MinkowskiDifference<'_, V, A, B>,
        s: &Simplex<V>,
    ) {
        self.owner = PairKey::of(mink.a, mink.b);
        self.len = s.len;
        for (slot, p) in self.pts.iter_mut().zip(s.points()) {
            *slot = (p.a, mink.pose_ab().inverse_transform_point(p.b));
        }
    }

    /// The stored simplex as its four `(a, b)` pairs (`b` in B's own frame), when it is a full
    /// 3D simplex (four points).
    pub(crate) fn full_simplex(&self) -> Option<[(V, V); 4]> {
        match self.pts.get(..self.len) {
            Some(&[p0, p1, p2, p3]) => Some([p0, p1, p2, p3]),
            _ => None,
        }
    }

    /// The stored simplex re-placed under `mink`'s relative pose (still points of A − B).
    pub(crate) fn placed<'c, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(
        &'c self,
        mink: &'c MinkowskiDifference<'_, V, A, B>,
    ) -> impl Iterator<Item = crate::gjk::minkowski::SupportPoint<V>> + 'c {
        self.pts[..self.len.min(4)]
            .iter()
            .map(move |&(a, b_local)| {
                let b = mink.pose_ab().transform_point(b_local);
                crate::gjk::minkowski::SupportPoint { w: a - b, a, b }
            })
    }

    /// Sets the cached direction (A's frame) and forgets the simplex.
    pub(crate) fn keep_direction_only<A: ?Sized, B: ?Sized>(
        &mut self,
        mink: &MinkowskiDifference<'_, V, A, B>,
        dir: V,
    ) {
        self.owner = PairKey::of(mink.a, mink.b);
        self.dir = Some(dir);
        self.len = 0;
    }
    /// The cached direction (A's frame), if any.
    pub fn direction(&self) -> Option<V> {
        self.dir
    }
}

/// Result of a distance query. Points and vectors are in the world frame.
///
/// Field order and alignment put every vector, and the verdict's vector, at a multiple of 16
/// bytes (3D): see [the module's layout note](crate::gjk#result-layout).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct Distance<V> {
    /// Closest point on A (for an intersecting verdict: the common point).
    pub point_a: V,
    /// Best upper bound on the distance between the full shapes, clamped at 0 and never below
    /// `lower_bound` (they can cross by an ulp at convergence). When the verdict is
    /// intersecting it is at most `tolerance`. `+∞` only when a custom support function
    /// returned a non-finite point on the first call (status `Degenerate`).
    pub distance: f64,
    /// Closest point on B (for an intersecting verdict: the common point).
    pub point_b: V,
    /// Certified lower bound on the distance (may be negative when the shapes overlap).
    pub lower_bound: f64,
    /// Unit vector from A toward B (for an intersecting verdict: the last search direction).
    pub normal: V,
    /// The absolute touch tolerance used.
    pub tolerance: f64,
    /// Main-loop iterations performed (bounded by the options' iteration cap).
    pub iterations: u32,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
}

impl<V> Distance<V> {
    /// `Some(true)` when the verdict proves the shapes intersect (closed sets: touching counts),
    /// `Some(false)` when it proves them separated, `None` when undetermined.
    pub fn intersecting(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// Result of a boolean query (exits as soon as the answer is proved). Laid out like
/// [`Distance`]: the verdict's vector at a multiple of 16 bytes (3D).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct Intersection<V> {
    /// Main-loop iterations performed (bounded by the options' iteration cap).
    pub iterations: u32,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// The absolute touch tolerance used: a gap up to it counts as touching.
    pub tolerance: f64,
}

impl<V> Intersection<V> {
    /// `Some(true)` when the verdict proves the shapes intersect (closed sets: touching counts),
    /// `Some(false)` when it proves them separated, `None` when undetermined.
    pub fn intersecting(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// Consecutive iterations without a decrease of `|v|` tolerated before the run is declared
/// degenerate (see the zig-zag note in `Run::descend`).
const MAX_STALLS: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Distance,
    Boolean,
}

/// The raw state at the end of a run, in A's frame, on the cores.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<V> {
    pub simplex: Simplex<V>,
    /// Closest point of the core difference to the origin (upper bound is |v|).
    pub v: V,
    pub upper: f64,
    /// Best certified lower bound on the core distance and the direction it was found along.
    pub lower: f64,
    pub lower_dir: V,
    pub status: Status,
    pub iterations: u32,
    pub contains_origin: bool,
    pub abs_tol: f64,
    pub rel_tol: f64,
}

impl<V: Vector> Run<V> {
    /// Runs GJK from the state [`Run::begin`] made. A method on a state the caller owns rather
    /// than a function returning it: returning the state cost a 330-byte `memcpy` per query
    /// even inlined (callgrind: 71 of 4,800 instructions of a hull8 distance query).
    #[inline(always)]
    pub(crate) fn drive<A, B>(
        &mut self,
        mink: &MinkowskiDifference<'_, V, A, B>,
        opts: &Options,
        cache: Option<&Cache<V>>,
        mode: Mode,
    ) where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        // A cache filled for other shapes is ignored entirely (see `Cache`).
        if let Some(c) = cache.filter(|c| c.belongs_to(mink)) {
            if self.warm_start(mink, c) {
                return;
            }
        }
        let rsum = mink.radius_sum();
        let mut stalls = 0;
        while self.iterations < opts.max_iterations {
            self.iterations += 1;
            let p = mink.support(-self.v);
            let verdict = match self.bound(&p, mode, rsum) {
                Some(status) => Some(status),
                None => self.descend(p, mode, rsum, &mut stalls),
            };
            if let Some(status) = verdict {
                self.status = status;
                return;
            }
        }
    }
}

impl<V: Vector> Run<V> {
    /// The state before the first iteration: the tolerances and the first search direction
    /// (the centres' difference, or any axis when that is zero or not finite).
    #[inline(always)]
    pub(crate) fn begin<A, B>(mink: &MinkowskiDifference<'_, V, A, B>, opts: &Options) -> Self
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let mut dir = mink.center();
        if !(dir.length_squared() > 0.0) || !dir.is_finite() {
            dir = V::AXIS;
        }
        Run {
            simplex: Simplex::new(),
            v: dir,
            upper: f64::INFINITY,
            lower: f64::NEG_INFINITY,
            lower_dir: dir,
            status: Status::IterationLimit,
            iterations: 0,
            contains_origin: false,
            abs_tol: absolute_tolerance(mink, opts),
            rel_tol: opts.rel_tolerance,
        }
    }

    /// Starts from the cached direction and simplex (re-placed under the new pose). Returns
    /// whether the cached simplex already holds the origin (the run is then over).
    fn warm_start<A, B>(&mut self, mink: &MinkowskiDifference<'_, V, A, B>, c: &Cache<V>) -> bool
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        if let Some(d) = c.dir.filter(|d| d.length_squared() > 0.0 && d.is_finite()) {
            self.v = d;
            self.lower_dir = d;
        }
        for p in c.placed(mink) {
            self.simplex.push(p);
        }
        if self.simplex.len == 0 {
            return false;
        }
        let nv = self.simplex.reduce();
        if self.simplex.len == V::DIM + 1 {
            self.found_origin();
            return true;
        }
        let d2 = nv.length_squared();
        if d2 > 0.0 && d2.is_finite() {
            self.upper = d2.sqrt();
            self.v = nv;
        } else {
            self.simplex = Simplex::new();
        }
        false
    }

    #[inline]
    fn found_origin(&mut self) {
        self.contains_origin = true;
        self.v = V::ZERO;
        self.upper = 0.0;
        self.status = Status::Converged;
    }

    /// Takes the lower bound `p·v/|v|` of the new support point `p` (along `−v`), and decides
    /// the exits that need no simplex update: a boolean query proved separated, the duality
    /// gap closed, or `p` repeating a simplex vertex.
    #[inline(always)]
    fn bound(&mut self, p: &SupportPoint<V>, mode: Mode, rsum: f64) -> Option<Status> {
        // `p.w.is_finite()` as float arithmetic: `w·0` is ±0 exactly when every coordinate is
        // finite (`0·±∞` and `0·NaN` are NaN), cheaper than an integer class test of each.
        if p.w.dot(V::ZERO) != 0.0 {
            return Some(Status::Degenerate);
        }
        // `upper` is `|v|` once a simplex exists (the same rounding: both are `√(v·v)`).
        let vlen = if self.simplex.len > 0 {
            self.upper
        } else {
            self.v.length()
        };
        let lb = p.w.dot(self.v) / vlen;
        if lb > self.lower {
            self.lower = lb;
            self.lower_dir = self.v * (1.0 / vlen);
        }
        if mode == Mode::Boolean && self.lower - rsum > self.abs_tol {
            return Some(Status::Converged);
        }
        if self.simplex.len > 0 {
            let gap_tol = self.abs_tol.max(self.rel_tol * self.upper);
            if self.upper - self.lower <= gap_tol || self.simplex.contains(p.w) {
                return Some(Status::Converged);
            }
        }
        None
    }

    /// Adds `p` to the simplex and moves `v` to the closest point of the reduced simplex;
    /// decides the exits that follow: origin enclosed, a run of stalls, the cores touching,
    /// a boolean query proved intersecting. Always inlined, as is [`Run::bound`]: with the
    /// read-back below LLVM left it out of line (hull8 distance 465 → 520 ns a query).
    #[inline(always)]
    fn descend(
        &mut self,
        p: SupportPoint<V>,
        mode: Mode,
        rsum: f64,
        stalls: &mut u32,
    ) -> Option<Status> {
        self.simplex.push(p);
        // Read back one coordinate at a time (`Vector::load_scalars`): the solve has just stored
        // its answer, and a 16-byte load of its `(y, z)` could not be forwarded (perf: the
        // instruction after that load held 12% of this function's samples).
        let nv = V::load_scalars(&self.simplex.reduce());
        if self.simplex.len == V::DIM + 1 {
            self.found_origin();
            return Some(Status::Converged);
        }
        let d2 = nv.length_squared();
        let progressed = d2 < self.upper * self.upper;
        // The new simplex holds the old one's points, so its closest point can only be worse by
        // rounding; keep it (its witnesses match it) even when it did not improve.
        self.upper = d2.sqrt();
        self.v = nv;
        if progressed {
            *stalls = 0;
        } else {
            // Near a flat face GJK zig-zags: a support point from the far side adds nothing, the
            // next one makes real progress. Only a run of stalls means rounding has taken over.
            *stalls += 1;
            if *stalls >= MAX_STALLS {
                let gap_tol = self.abs_tol.max(self.rel_tol * self.upper);
                return Some(if self.upper - self.lower <= 8.0 * gap_tol {
                    Status::Converged
                } else {
                    Status::Degenerate
                });
            }
        }
        if self.upper <= self.abs_tol {
            // The cores touch or overlap to within the tolerance.
            return Some(Status::Converged);
        }
        if mode == Mode::Boolean && self.upper - rsum <= self.abs_tol {
            return Some(Status::Converged);
        }
        None
    }
}

/// The absolute tolerance of a pair: `opts.abs_tolerance`, or `rel_tolerance × scale` plus the
/// rounding floor `4ε × magnitude` (see [`Options::abs_tolerance`]).
pub fn absolute_tolerance<V, A, B>(mink: &MinkowskiDifference<'_, V, A, B>, opts: &Options) -> f64
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    opts.abs_tolerance
        .unwrap_or_else(|| mink.tolerance(opts.rel_tolerance))
}

/// A point of both rounded cores, given the cores' closest points `pa`, `pb` (A's frame).
/// Also Chung–Wang's.
pub(crate) fn common_point<V: Vector>(pa: V, pb: V, ra: f64, rb: f64) -> V {
    let rsum = ra + rb;
    // Split the segment pa→pb in the ratio of the radii (both parts are within their radius);
    // at its midpoint for bare cores. A select, not a branch.
    let t = if rsum > 0.0 { ra / rsum } else { 0.5 };
    pa + (pb - pa) * t
}

pub(crate) struct Summary<V> {
    pub verdict: Verdict<V>,
    pub tolerance: f64,
    /// Normal in A's frame (unit), from A toward B.
    pub normal: V,
    /// Full-shape closest points in A's frame.
    pub pa: V,
    pub pb: V,
}

/// The touch tolerance of a finished run: `max(abs_tol, rel_tol · upper)`.
#[inline]
fn touch_tolerance<V>(r: &Run<V>) -> f64 {
    if r.upper.is_finite() {
        r.abs_tol.max(r.rel_tol * r.upper)
    } else {
        r.abs_tol
    }
}

/// The unit normal from A toward B of a run's closest points, as [`summarize`] gives it: `−v`
/// normalised, else `−lower_dir`, else the first axis.
#[inline]
pub(crate) fn closest_normal<V: Vector>(r: &Run<V>) -> V {
    (-r.v)
        .try_normalize()
        .or_else(|| (-r.lower_dir).try_normalize())
        .unwrap_or(V::AXIS)
}

/// The verdict alone, by the same rules as [`summarize`] (the boolean query's summary, and
/// EPA's, which needs the normal only for cores apart, see [`closest_normal`]): the
/// witnesses are formed only for a common point, and no normal or closest points.
#[inline]
pub(crate) fn decide<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    r: &Run<V>,
) -> (Verdict<V>, f64)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let tol = touch_tolerance(r);
    let ra = mink.a.core_radius();
    let rb = mink.b.core_radius();
    let rsum = ra + rb;
    let verdict = if r.simplex.len > 0 && r.upper - rsum <= tol {
        let (ca, cb) = r.simplex.enclosing_witnesses();

        Verdict::Intersecting(CommonPoint {
            point: common_point(ca, cb, ra, rb),
        })
    } else if r.lower - rsum > 0.0 && r.upper - rsum > tol {
        Verdict::Separated(SeparatingAxis {
            axis: -r.lower_dir,
            gap: r.lower - rsum,
        })
    } else {
        Verdict::Undetermined
    };
    (verdict, tol)
}

/// Turns a run's bounds into a proved verdict and full-shape witness points (A's frame).
pub(crate) fn summarize<V, A, B>(mink: &MinkowskiDifference<'_, V, A, B>, r: &Run<V>) -> Summary<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let ra = mink.a.core_radius();
    let rb = mink.b.core_radius();
    let rsum = ra + rb;
    let tol = touch_tolerance(r);
    let intersecting = r.simplex.len > 0 && r.upper - rsum <= tol;
    let (ca, cb) = if intersecting {
        r.simplex.enclosing_witnesses()
    } else if r.simplex.len > 0 {
        r.simplex.witnesses()
    } else {
        (V::ZERO, V::ZERO)
    };
    let normal = closest_normal(r);
    let verdict;
    let (pa, pb);
    if intersecting {
        let p = common_point(ca, cb, ra, rb);
        verdict = Verdict::Intersecting(CommonPoint { point: p });
        pa = p;
        pb = p;
    } else if r.lower - rsum > 0.0 && r.upper - rsum > tol {
        verdict = Verdict::Separated(SeparatingAxis {
            axis: -r.lower_dir,
            gap: r.lower - rsum,
        });
        pa = ca + normal * ra;
        pb = cb - normal * rb;
    } else {
        verdict = Verdict::Undetermined;
        pa = ca + normal * ra;
        pb = cb - normal * rb;
    }
    Summary {
        verdict,
        tolerance: tol,
        normal,
        pa,
        pb,
    }
}

fn to_world<V: Vector>(pose_a: &Pose<V>, v: Verdict<V>) -> Verdict<V> {
    match v {
        Verdict::Separated(s) => Verdict::Separated(SeparatingAxis {
            axis: pose_a.transform_vector(s.axis),
            gap: s.gap,
        }),
        Verdict::Intersecting(c) => Verdict::Intersecting(CommonPoint {
            point: pose_a.transform_point(c.point),
        }),
        Verdict::Undetermined => Verdict::Undetermined,
    }
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, with closest points and certificate.
///
/// Pass a [`Cache`] to warm-start coherent queries; it is updated with the final direction.
///
/// # Example
///
/// A ball of radius 1 at the origin and a box `[-1, 1]³` centred at x = 4: the gap is 2, the
/// closest points are `(1, 0, 0)` on A and `(3, 0, 0)` on B (world frame), and the normal
/// points from A toward B.
///
/// ```
/// use convexity::gjk::{self, Options};
/// use convexity::{verify, Ball, Cuboid, DVec3, Pose3};
///
/// let ball = Ball::new(1.0)?;
/// let cube = Cuboid::new(DVec3::splat(1.0))?;
/// let pose_a = Pose3::IDENTITY;
/// let pose_b = Pose3::from_translation(DVec3::new(4.0, 0.0, 0.0))?;
///
/// let d = gjk::distance(&ball, &pose_a, &cube, &pose_b, &Options::default(), None);
/// assert!((d.distance - 2.0).abs() < 1e-9);
/// assert!(d.point_a.distance(DVec3::X) < 1e-6);
/// assert!(d.point_b.distance(DVec3::new(3.0, 0.0, 0.0)) < 1e-6);
/// assert!(d.normal.distance(DVec3::X) < 1e-6);
/// assert!(d.lower_bound <= d.distance);
/// verify(&ball, &pose_a, &cube, &pose_b, &d.verdict, 1e-9)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn distance<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    crate::shape::on_leaves!(a.leaf(), b.leaf(), |a, b| distance(
        a, pose_a, b, pose_b, opts, cache
    ));
    if let Some(d) = closed_form::balls_distance(a, pose_a, b, pose_b, opts) {
        return d;
    }
    distance_beyond_balls(a, pose_a, b, pose_b, opts, cache)
}

/// [`distance`] for every pair but two balls: the other closed forms, then GJK. Out of line so
/// that the ball–ball answer above needs no stack frame (callgrind: the combined function
/// saved six registers, reserved 760 bytes and spilled both primitives before the balls'
/// test).
#[inline(never)]
fn distance_beyond_balls<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if let Some(d) = closed_form::distance(a, pose_a, b, pose_b, opts) {
        return d;
    }
    gjk_distance(a, pose_a, b, pose_b, opts, cache)
}

/// [`distance`] without the closed forms: GJK itself. Out of line, so that a closed-form pair
/// does not pay for GJK's stack frame (callgrind: 40 instructions of a 240-instruction
/// ball–ball query were the prologue, epilogue and result copy of the combined function).
#[inline(never)]
pub(crate) fn gjk_distance<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let mut r = Run::begin(&mink, opts);
    r.drive(&mink, opts, cache.as_deref(), Mode::Distance);
    if let Some(c) = cache {
        c.dir = Some(if r.v.length_squared() > 0.0 {
            r.v
        } else {
            r.lower_dir
        });
        c.store(&mink, &r.simplex);
    }
    let s = summarize(&mink, &r);
    let rsum = mink.radius_sum();
    let lower_bound = if r.lower.is_finite() {
        r.lower - rsum
    } else {
        -rsum
    };
    let upper = if r.upper.is_finite() {
        (r.upper - rsum).max(0.0)
    } else {
        // Nothing bounds the distance from above (the first support call failed).
        f64::INFINITY
    };
    Distance {
        status: r.status,
        iterations: r.iterations,
        // `lower_bound ≤ distance` always: at convergence the two can cross by an ulp.
        distance: upper.max(lower_bound),
        lower_bound,
        point_a: pose_a.transform_point(s.pa),
        point_b: pose_a.transform_point(s.pb),
        normal: pose_a.transform_vector(s.normal),
        verdict: to_world(pose_a, s.verdict),
        tolerance: s.tolerance,
    }
}

/// Boolean intersection test with early exit and certificate. Touching counts as intersecting.
pub fn intersects<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Intersection<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    crate::shape::on_leaves!(a.leaf(), b.leaf(), |a, b| intersects(
        a, pose_a, b, pose_b, opts, cache
    ));
    if let Some(i) = closed_form::balls_intersects(a, pose_a, b, pose_b, opts) {
        return i;
    }
    intersects_beyond_balls(a, pose_a, b, pose_b, opts, cache)
}

/// [`intersects`] for every pair but two balls (out of line for the reason given at
/// [`distance_beyond_balls`]).
#[inline(never)]
fn intersects_beyond_balls<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Intersection<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if let Some(i) = closed_form::intersects(a, pose_a, b, pose_b, opts) {
        return i;
    }
    gjk_intersects(a, pose_a, b, pose_b, opts, cache)
}

/// [`intersects`] without the closed forms: GJK itself (the closed forms' own fallback; out of
/// line for the reason given at [`gjk_distance`]).
#[inline(never)]
pub(crate) fn gjk_intersects<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    cache: Option<&mut Cache<V>>,
) -> Intersection<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let mut r = Run::begin(&mink, opts);
    r.drive(&mink, opts, cache.as_deref(), Mode::Boolean);
    if let Some(c) = cache {
        c.dir = Some(if r.lower - mink.radius_sum() > 0.0 {
            r.lower_dir
        } else if r.v.length_squared() > 0.0 {
            r.v
        } else {
            r.lower_dir
        });
        c.store(&mink, &r.simplex);
    }
    let (verdict, tolerance) = decide(&mink, &r);
    Intersection {
        status: r.status,
        iterations: r.iterations,
        verdict: to_world(pose_a, verdict),
        tolerance,
    }
}
