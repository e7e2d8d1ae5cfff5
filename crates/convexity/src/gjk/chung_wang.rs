//! Chung–Wang separating-vector iteration, with a proved termination test for intersecting
//! pairs and a warm-start cache.
//!
//! What it computes: a boolean answer with certificate for two convex shapes given by support
//! maps (any [`SupportMap`]: `Points`, `ConvexPolyhedron`, boxes, balls, …): a separating axis
//! with a positive gap, or a common point.
//!
//! Source: K. Chung and W. Wang, "Quick collision detection of polytopes in virtual
//! environments", ACM VRST 1996. Their iteration: with `s` the current candidate, `p` the
//! support point of A along `s` and `q` the support point of B along `−s`, `s` separates when
//! `s·p < s·q`; otherwise `r = (q − p)/|q − p|` and `s ← s − 2(r·s) r`, the reflection of `s`
//! in the plane orthogonal to `r`. The reflection flips the sign of `s·(q − p)`: the new
//! candidate separates the pair of points that defeated the old one. In coherent motion the
//! last frame's `s` usually still separates, so a query costs one pair of support calls.
//!
//! Conventions: everything runs on the cores in A's frame ([`MinkowskiDifference`]), with
//! `w = p − q ∈ core(A) − core(B)`. Along `s` (from A toward B) the certified gap is
//! `−s·w/|s| − (r_A + r_B)`; the verdict is `Separated` when it exceeds the rounding floor
//! `4ε × magnitude` (a proof up to the rounding of the input).
//!
//! Termination for intersecting pairs (what Chung and Wang leave to an iteration cap):
//! * The test. Every `w_k` is a point of `A − B`. If the origin lies in the convex hull of some
//!   of them, it lies in `A − B` (convexity), so A and B intersect. This is exactly Chung–Wang's
//!   geometric condition on the vectors `r_k = −w_k/|w_k|`: the origin is in the conic hull of
//!   the `r_k` with a non-trivial combination (`Σ λ_k r_k = 0`, `λ ≥ 0`, not all zero) iff
//!   `Σ μ_k w_k = 0` with `μ_k = λ_k/|w_k| ≥ 0`, iff (dividing by `Σ μ_k > 0`) the origin is a
//!   convex combination of the `w_k`. The `w_k` are kept in a GJK simplex (Johnson's
//!   sub-algorithm, [`Simplex`]) that retains the face of their hull nearest the origin;
//!   `DIM + 1` points with positive weights prove containment, and a nearest point within
//!   `r_A + r_B + tol` proves touching within the tolerance (closed sets: intersecting).
//! * Why it fires. Chung–Wang's reflections do not aim at the origin, so for intersecting
//!   pairs they need not bring it inside any four of the `w_k` (two concentric cubes cycle).
//!   After [`ChungWangOptions::reflections`] reflections without a proof the search direction becomes
//!   `−v`, `v` the simplex's nearest point: from there the iteration *is* GJK, warm-started with
//!   the points already found, and GJK terminates finitely on polytopes (Gilbert, Johnson &
//!   Keerthi 1988, Theorem 3) with either a separating direction or the origin enclosed. The
//!   GJK phase also stops on its duality gap (`|v| − best lower bound ≤ tol`) and on a repeated
//!   support point, deciding from the bounds; the iteration cap is a last resort reported as
//!   `IterationLimit` with an `Undetermined` verdict unless a bound proves one.
//!
//! Warm start: the cache keeps the last separating vector (Chung–Wang's frame coherence) and,
//! after an intersecting answer, the simplex that proved it (its points are re-placed with the
//! new relative pose; they remain points of `A − B`, so if they still enclose the origin the
//! intersection is proved with no support call, as in GJK's warm start).
//!
//! Complexity: O(k · support) for k iterations (about 0.8 per query warm on a coherent
//! trajectory, half of it intersecting); no allocation.
//! Preconditions: shapes and poses validated by their constructors. Failure modes: a support
//! map returning non-finite points gives status `Degenerate` and an `Undetermined` verdict.

use crate::gjk::common_point;
use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use crate::shape::SupportMap;
use crate::verdict::Status;
use crate::verdict::{CommonPoint, SeparatingAxis, Verdict};

/// Settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChungWangOptions {
    /// Total iteration cap (reflection and GJK phases together).
    pub max_iterations: u32,
    /// Chung–Wang reflections allowed before the direction switches to GJK's `−v`. Default 2:
    /// on a coherent hull128 trajectory (half the steps intersecting) 0, 1, 2, 4, 8, 16 gave
    /// 2.29, 2.16, 2.27, 2.56, 2.81, 2.94 iterations per query cold; separated pairs rarely
    /// need more than two reflections, intersecting ones only pay for them.
    pub reflections: u32,
    /// Relative touch tolerance, as GJK's (`rel × (size_A + size_B) + 4ε × magnitude`).
    pub rel_tolerance: f64,
}

impl Default for ChungWangOptions {
    fn default() -> Self {
        ChungWangOptions {
            max_iterations: 128,
            reflections: 2,
            rel_tolerance: 1e-10,
        }
    }
}

/// The last separating vector (A's frame) for the next frame and, after an intersecting
/// answer, the simplex of support points that proved it (re-placed with the next relative pose,
/// as in [`crate::gjk::GjkCache`], it often proves the next frame's intersection at once). Keyed
/// to the pair of shapes (ignored when passed with other shapes). The storage is GJK's cache:
/// the same direction, simplex and pair key.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChungWangCache<V> {
    inner: crate::gjk::GjkCache<V>,
}

impl<V: Vector> ChungWangCache<V> {
    /// An empty cache: the first query with it starts cold.
    pub fn new() -> Self {
        ChungWangCache {
            inner: crate::gjk::GjkCache::new(),
        }
    }
    /// The cached vector (A's frame), if any.
    pub fn direction(&self) -> Option<V> {
        self.inner.direction()
    }
}

/// The answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChungWangResult<V> {
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// Support-pair evaluations.
    pub iterations: u32,
    /// How many of them followed a Chung–Wang reflection (the rest followed GJK's `−v`).
    pub reflections: u32,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// The absolute touch tolerance used.
    pub tolerance: f64,
}

impl<V> ChungWangResult<V> {
    /// `Some(true)` when the verdict proves the shapes intersect (closed sets: touching counts),
    /// `Some(false)` when it proves them separated, `None` when undetermined.
    pub fn intersecting(&self) -> Option<bool> {
        self.verdict.intersecting()
    }
}

/// Chung–Wang separating-vector search (see the module documentation).
pub fn separate<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &ChungWangOptions,
    cache: Option<&mut ChungWangCache<V>>,
) -> ChungWangResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    let own = cache
        .as_deref()
        .map(|c| &c.inner)
        .filter(|c| c.belongs_to(&mink));
    let mut s = own
        .and_then(|c| c.direction())
        .unwrap_or_else(|| -mink.center());
    if !(s.length_squared() > 0.0) || !s.is_finite() {
        s = V::AXIS;
    }
    let mut start = Simplex::<V>::new();
    if let Some(c) = own {
        for p in c.placed(&mink) {
            start.push(p);
        }
    }
    let (out, last, simplex) = iterate(&mink, s, start, opts);
    if let Some(c) = cache {
        if !c.inner.belongs_to(&mink) {
            *c = ChungWangCache::new();
        }
        // A separating vector is kept for the next frame; after an intersecting step the last
        // one that separated stays (the final direction of an intersecting query points nowhere
        // useful), and the proving simplex is kept instead.
        if let Verdict::Separated(_) = out.verdict {
            c.inner.keep_direction_only(&mink, last);
        } else {
            c.inner.store(&mink, &simplex);
        }
    }
    ChungWangResult {
        verdict: match out.verdict {
            Verdict::Separated(sa) => Verdict::Separated(SeparatingAxis {
                axis: pose_a.transform_vector(sa.axis),
                gap: sa.gap,
            }),
            Verdict::Intersecting(c) => Verdict::Intersecting(CommonPoint {
                point: pose_a.transform_point(c.point),
            }),
            Verdict::Undetermined => Verdict::Undetermined,
        },
        ..out
    }
}

/// The iteration in A's frame, from a (possibly empty) simplex of points of `A − B`. Returns
/// the result (A's frame), the vector to cache and the final simplex.
fn iterate<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    s: V,
    start: Simplex<V>,
    opts: &ChungWangOptions,
) -> (ChungWangResult<V>, V, Simplex<V>)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut st = Search::new(mink, s, start, opts);
    if st.warm() {
        let d = st.s;
        return st.done(d);
    }
    while st.out.iterations < opts.max_iterations {
        st.out.iterations += 1;
        let p = mink.support(st.s);
        if let Some(d) = st.separating(&p) {
            return st.done(d);
        }
        match st.gjk_step(p, opts) {
            Step::Exit(d) => return st.done(d),
            Step::Next => continue,
            Step::Reflect => {}
        }
        if let Some(d) = st.reflect_or_descend(&p, opts) {
            return st.done(d);
        }
    }
    st.out.verdict = st.decide();
    let d = st.lower_dir;
    st.done(d)
}

/// What the GJK part of an iteration leaves to do.
enum Step<V> {
    /// The search is over; hand back this vector.
    Exit(V),
    /// GJK's next direction is set.
    Next,
    /// Reflect (or, reflections spent, switch to GJK's direction).
    Reflect,
}

/// The state of one search in A's frame: the pair's constants, the result so far, the simplex,
/// the bounds on the core distance and the current direction `s`.
struct Search<V> {
    tol: f64,
    floor: f64,
    ra: f64,
    rb: f64,
    rsum: f64,
    out: ChungWangResult<V>,
    simplex: Simplex<V>,
    upper: f64,
    lower: f64,
    lower_dir: V,
    gjk_phase: bool,
    stalls: u32,
    s: V,
}

impl<V: Vector> Search<V> {
    fn new<A, B>(
        mink: &MinkowskiDifference<'_, V, A, B>,
        s: V,
        start: Simplex<V>,
        opts: &ChungWangOptions,
    ) -> Self
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let tol = mink.tolerance(opts.rel_tolerance);
        let (ra, rb) = (mink.a.core_radius(), mink.b.core_radius());
        Search {
            tol,
            floor: mink.rounding_floor(),
            ra,
            rb,
            rsum: ra + rb,
            out: ChungWangResult {
                status: Status::IterationLimit,
                iterations: 0,
                reflections: 0,
                verdict: Verdict::Undetermined,
                tolerance: tol,
            },
            simplex: start,
            upper: f64::INFINITY,
            lower: f64::NEG_INFINITY,
            lower_dir: s,
            gjk_phase: false,
            stalls: 0,
            s,
        }
    }

    fn done(self, d: V) -> (ChungWangResult<V>, V, Simplex<V>) {
        (self.out, d, self.simplex)
    }

    fn intersecting(&self) -> Verdict<V> {
        let (pa, pb) = self.simplex.witnesses();
        Verdict::Intersecting(CommonPoint {
            point: common_point(pa, pb, self.ra, self.rb),
        })
    }

    /// The final decision from the bounds, as GJK's: a positive certified gap (and an upper
    /// bound beyond the touch tolerance) separates; an upper bound within it intersects.
    fn decide(&self) -> Verdict<V> {
        if self.lower > 0.0 && self.upper - self.rsum > self.tol {
            Verdict::Separated(SeparatingAxis {
                axis: self.lower_dir,
                gap: self.lower,
            })
        } else if self.upper - self.rsum <= self.tol {
            self.intersecting()
        } else {
            Verdict::Undetermined
        }
    }

    /// A warm simplex: its points are points of A − B under the current pose, so the same
    /// containment and touching proofs apply before any support call. Returns whether they
    /// decided the query.
    fn warm(&mut self) -> bool {
        if self.simplex.len == 0 {
            return false;
        }
        let v = self.simplex.reduce();
        let vlen = v.length();
        if self.simplex.len == V::DIM + 1 || (vlen.is_finite() && vlen - self.rsum <= self.tol) {
            self.out.status = Status::Converged;
            self.out.verdict = self.intersecting();
            return true;
        }
        if vlen.is_finite() {
            self.upper = vlen;
        } else {
            self.simplex = Simplex::new();
        }
        false
    }

    /// The certified gap along `s` (`max_A s·x − min_B s·y = s·w` on the cores, less the
    /// radii); a gap beyond the rounding floor separates. `Some` ends the search.
    fn separating(&mut self, p: &SupportPoint<V>) -> Option<V> {
        if !p.w.is_finite() {
            self.out.status = Status::Degenerate;
            return Some(self.lower_dir);
        }
        let slen = self.s.length();
        let gap = -p.w.dot(self.s) / slen - self.rsum;
        if gap > self.lower {
            self.lower = gap;
            self.lower_dir = self.s * (1.0 / slen);
        }
        if self.lower > self.floor {
            self.out.status = Status::Converged;
            self.out.verdict = Verdict::Separated(SeparatingAxis {
                axis: self.lower_dir,
                gap: self.lower,
            });
            return Some(self.lower_dir);
        }
        None
    }

    /// Adds `p` to the simplex (unless it repeats a vertex) and applies GJK's exits: origin
    /// enclosed, cores touching, and in the GJK phase the closed duality gap or a stall.
    fn gjk_step(&mut self, p: SupportPoint<V>, opts: &ChungWangOptions) -> Step<V> {
        let repeated = self.simplex.contains(p.w);
        if repeated && self.gjk_phase {
            // GJK cannot progress: decide from the bounds.
            self.out.status = Status::Converged;
            self.out.verdict = self.decide();
            return Step::Exit(self.s);
        }
        if repeated {
            return Step::Reflect;
        }
        self.simplex.push(p);
        let v = self.simplex.reduce();
        if self.simplex.len == V::DIM + 1 {
            // The origin is a convex combination of points of A − B.
            self.out.status = Status::Converged;
            self.out.verdict = self.intersecting();
            return Step::Exit(self.s);
        }
        let vlen = v.length();
        if self.gjk_phase {
            if vlen < self.upper {
                self.stalls = 0;
            } else {
                self.stalls += 1;
            }
        }
        self.upper = self.upper.min(vlen);
        if vlen - self.rsum <= self.tol {
            self.out.status = Status::Converged;
            self.out.verdict = self.intersecting();
            return Step::Exit(self.s);
        }
        if !self.gjk_phase {
            return Step::Reflect;
        }
        if vlen - (self.lower + self.rsum) <= self.tol.max(opts.rel_tolerance * vlen)
            || self.stalls >= 4
        {
            // Duality gap closed (or rounding stall): the verdict from the bounds.
            self.out.status = if self.stalls >= 4 {
                Status::Degenerate
            } else {
                Status::Converged
            };
            self.out.verdict = self.decide();
            return Step::Exit(self.s);
        }
        self.s = -v;
        Step::Next
    }

    /// Chung–Wang reflection of `s` in the plane orthogonal to `p.w`, while allowed; then
    /// GJK's direction (towards the origin from the simplex). `Some` ends the search.
    fn reflect_or_descend(&mut self, p: &SupportPoint<V>, opts: &ChungWangOptions) -> Option<V> {
        let wlen = p.w.length();
        if self.out.reflections < opts.reflections && wlen > 0.0 {
            let r = p.w * (1.0 / wlen);
            let next = self.s - r * (2.0 * r.dot(self.s));
            if next.is_finite() && next.length_squared() > 0.0 {
                self.s = next;
                self.out.reflections += 1;
                return None;
            }
        }
        self.gjk_phase = true;
        let v = self.simplex.closest();
        if !(v.length_squared() > 0.0) {
            self.out.status = Status::Converged;
            self.out.verdict = self.intersecting();
            return Some(self.s);
        }
        self.s = -v;
        None
    }
}
