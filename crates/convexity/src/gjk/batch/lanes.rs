//! Lane-wise GJK: four 3D queries between small polytopes at once, one per SIMD lane.
//!
//! What it computes: for each lane, the distance between two polytopes given by at most
//! [`MAX_VERTS`] vertices each (boxes as their 8 corners, `Points` hulls), closest points,
//! and a certificate — the answer of [`crate::gjk::distance`] / [`crate::gjk::intersects`]
//! on the same pair, or `None` (declined) when it cannot vouch for that.
//!
//! Source: GJK (Gilbert, Johnson & Keerthi 1988) with van den Bergen's duality-gap
//! termination, the same tests in the same order as [`crate::gjk`]'s `Run::drive`. The simplex step
//! is written without branches so that four lanes run in lock step: every face of the kept
//! points plus the newest support point that contains the newest point (1 vertex, 3 edges,
//! 3 triangles, the tetrahedron — GJK's new simplex always holds the newest point) gets its
//! affine closest point to the origin, and the nearest one whose barycentric weights are all
//! positive wins. Every candidate is a convex combination of simplex points, so a rounding
//! error can only pick a slightly worse point of the hull, never one outside it (a lane that
//! then stops improving is declined). Structure of arrays of four-`f64` vectors (`Lanes`).
//!
//! Dispatch: the kernel (the three streams below) is compiled twice. The AVX2 kernel runs on
//! `F64x4` (`batch/f64x4.rs`, a plain `[f64; 4]` with `#[inline(always)]` element-wise
//! operations) inside a `#[target_feature(enable = "avx2")]` function, where LLVM turns every
//! operation into one 256-bit `ymm` instruction; the baseline kernel runs on `wide::f64x4`,
//! which `wide` fixes at compile time (SSE2 pairs on a default x86-64 build). [`run`] takes
//! the AVX2 kernel when `is_x86_feature_detected!("avx2")` holds (std caches the probe), so a
//! default build gets 256-bit lanes without `-C target-cpu`; other targets build the baseline
//! only. On a CPU with AVX-512F and AVX-512VL, [`run`] takes a third copy of the AVX2 kernel,
//! compiled with those features as well: the same `F64x4` lanes in 256-bit registers, with
//! EVEX encodings (three-input logic for the masks' and/andn/or triples, 32 registers, compares
//! into mask registers). The two types have the same semantics operation by operation
//! (`batch/f64x4.rs`) and the kernels perform the same IEEE operations in the same order,
//! without FMA (Rust never contracts unasked), so their answers are bit-identical:
//! `lane_kernels_agree_bit_for_bit` in tests/batch.rs and the `batch` fuzz target compare
//! them ([`run_on`] forces a kernel).
//!
//! Streams: rows flow through the four lanes and a lane that finishes is answered and reloaded
//! at once, so no lane idles behind a slower neighbour. Two boxes run with sign-selection
//! supports (the arithmetic of `Cuboid::core_support` inside
//! `MinkowskiDifference::support`) when [`run`] is given them, but the batch API sends them
//! to the box–box closed form, which is faster; other pairs scan vertex lists padded to 8 or to
//! [`MAX_VERTS`], with B's vertices placed in A's frame once per row (`R_ab v + t_ab`, the
//! scalar support's own arithmetic). Tolerances, the start direction and the termination tests
//! are those of the scalar run, term for term.
//!
//! When the lane path declines (the caller then runs the scalar call): a stall of four
//! non-improving steps, the iteration cap, an undetermined verdict, a separated answer within
//! a factor 2 of the touch tolerance, where the two implementations' last-ulp differences could
//! flip the verdict, and an intersecting answer whose origin is not enclosed (the distance it
//! reports is wherever the run stopped in the touch band, which the scalar run need not share);
//! and a lane whose path took a turn that rounding may decide otherwise in the scalar run (see
//! `RISK`): a duality gap within the tolerance but not closed to the contract (or a stop on a
//! repeated support point with the gap open), a gap test within
//! rounding of its threshold, a path through the touch band's neighbourhood. The two
//! implementations compute `v` by different formulas, so a tie in exact arithmetic (common: a
//! direction perpendicular to a simplex edge) may go either way, and the runs may then stop at
//! different points inside the gap tolerance (1e-10 relative), 100 times the batch contract.
//! Likewise an enclosed origin within twice the touch tolerance of a face of its tetrahedron
//! (a penetration within the touch band, where the scalar run may stop touching at a distance
//! in (0, tol]), the intersecting twin of the separated band above. Declined by these rules:
//! 0.2% of the rows of the `lane_path_equals_scalar_path` set by the gap rules (5,026 → 5,015
//! of 6,000 through the lanes) and its touching third by the enclosure rule (1,015 → 38 of
//! 2,000; the overlapping and separated thirds all stay in the lanes), 0.01% / 0.04% of the
//! speed binary's hull8 / box sets, 47% of the adversarial near-parallel sweep in
//! tests/batch.rs. What remains agrees with the
//! scalar call to 1e-12 relative (tests/batch.rs measures ≤ 2e-14 on that sweep, ≤ 1e-15 on
//! random rows):
//! both converge to the same closest features.
//!
//! Measured (2 shared cores under load; callgrind counts are exact, times move with the load).
//! Instructions per 6,000 queries (`profile_driver <set> <query> convexity 2000 3` under
//! `valgrind --tool=callgrind --toggle-collect='*profile_driver*drive*'`): the lane path alone
//! on hull8, 43.7 M on `wide` SSE2 before the dispatch, 43.9 M on the baseline kernel, 24.2 M
//! on the AVX2 kernel; two boxes in the sign-selection stream 33.1 M, 33.7 M, 18.9 M;
//! `batch::distance` on hull8, one core, 47.2 M before and 27.5 M with the AVX2 kernel.
//! Time per query (`speed --sets hull8,box --pairs 20000 --rounds 9`, 21 runs interleaved
//! with as many of the code before the dispatch, in three sessions): the batch on hull8, one
//! core, went from 1.14× to 1.51× parry3d-f64 (medians; per session 1.17 → 1.58, 1.19 →
//! 1.44, 1.00 → 1.50 as the load varied). In a fourth session (6 runs each), 1.16× before,
//! 1.50× with the dispatch, 1.61× for a `-C target-cpu=native` build of the code before and
//! 1.50× for one of this code (which runs the same AVX2 kernel): on this CPU, which has
//! AVX-512, the native build blends masks with `vpternlogq` (one instruction where AVX2
//! takes `and`, `andn`, `or`). Hence the AVX-512VL copy of the kernel: the lane path alone
//! (`profile_driver hull8 lanes-avx2` / `lanes-avx512`, 20,000 rows, ten alternated runs)
//! 420 → 397 ns a row, median per-run ratio 1.05; `batch::distance` on hull8, one core
//! (`speed --sets hull8,box --rounds 9`, alternated with the build before, twice: four and six
//! runs), 1.67 → 1.75× and 1.65 → 1.68× parry3d-f64. Eight lanes in 512-bit registers
//! (an `[f64; 8]` type under the same features) were no faster than this copy (1.70 against
//! 1.69×, six runs): this CPU (AMD family 25, Zen 4) splits a 512-bit operation into two
//! 256-bit halves. On an Intel Xeon with AVX-512 the same copy was 11% slower than the AVX2 kernel
//! (378 against 421 ns a row, eight alternated runs), so `Kernel::best` takes it on AMD CPUs only
//! (on the Intel Xeon that took `batch::distance` on hull8, one core, from 1.52× to 1.72×
//! parry3d-f64: `speed --sets hull8,box --rounds 9`, four alternated runs). Callgrind cannot run
//! AVX-512 code; under it `Kernel::best` finds no AVX-512 and the figures above are the AVX2
//! kernel's. Box pairs go to the box–box closed form (in lanes of its own, `batch/box_lanes.rs`),
//! not to this GJK.
//! FMA is not used: it would change the last bits
//! against the baseline kernel.
//!
//! Complexity: per step and per four lanes, the two supports (a 2·n-vertex scan, or 24 flops
//! for boxes) and ~350 flops for the simplex; O(k) steps per row as GJK. No allocation.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use super::f64x4::F64x4;
use super::f64x4::Lanes;
use crate::gjk::{Distance, Options};
use crate::math::pose::Pose;
use crate::math::vector::{Rotation, Vector};
use crate::shape::{Shape3, SupportMap};
use crate::verdict::{CommonPoint, SeparatingAxis, Status, Verdict};
use glam::DVec3;

/// Largest vertex count of a shape taken by the lane path.
pub const MAX_VERTS: usize = 16;

/// Stalls (non-improving steps in a row) after which a lane is declined, as the scalar run.
const MAX_STALLS: f64 = 4.0;

/// The agreement the batch promises with the scalar call: `1e-12` relative to the pair's
/// size (issue 10).
const AGREE: f64 = 1e-12;

/// Safety factor of the rounding-decided turns a lane declines on, in units of `ε·mag`
/// (`mag = r_A + r_B + |t_ab|` bounds every point the run forms).
///
/// The lane's `v` and the scalar run's are the closest point of the same simplex computed by
/// different formulas (Cramer's rule here, projections and Voronoi tests there), each within a
/// few `ε·mag` of the exact one. Wherever exact arithmetic has a tie — a support direction
/// perpendicular to an edge of A or B, which GJK produces whenever the simplex holds that
/// edge (measured: on 11% of separated hull rows), or a closest point on the boundary of a
/// sub-simplex — the two runs may take different turns and follow different paths. That is
/// harmless when both paths close their duality gaps on the same closest features; it breaks
/// the contract when a path can stop with its gap within the tolerance (`1e-10` relative) but
/// not closed to [`AGREE`]: the two stops are then up to the tolerance apart, 100 times the
/// contract. Measured on the zig-zag finding (`tests/batch.rs`): at `|v|` = 1.5e-5 the two `v`
/// differed by 3e-16, a tie between two vertices of A went the other way, and the runs stopped
/// 2.1e-11 apart (gaps 8e-14 and 2.9e-11, tolerance 2.4e-10). So a lane is declined when:
/// * its duality gap `upper − lower`, at a gap test or after a step (against the tolerance the
///   next test uses), lies in `(AGREE·scale/4, 8·tol]`: the geometry has simplices whose
///   closest points are within the tolerance of the answer but not within the contract, where
///   a run on a path that differs by rounding may stop (or, the gap test having passed here,
///   this lane did stop). Polytope runs normally close the gap to rounding in the step that
///   finds the closest features, so this declines few rows (0.2% of the random lane rows of
///   `tests/batch.rs`); requiring a tie first (tracked as a support runner-up within
///   `RISK·ε·mag²`) declined exactly the same rows on the test sets and cost 8–12% of the lane
///   time, so it was dropped;
/// * it stopped on a repeated support point with its gap above `AGREE·scale/4` (a repeat
///   closes the gap in exact arithmetic; an open one means `v` is off by rounding);
/// * the gap test fell within `RISK·ε·mag·(1 + mag/|v|)` of its threshold (`lower` is a dot
///   product with `v/|v|`, whose direction is known to `ε·mag/|v|`): the scalar run may stop a
///   step apart;
/// * its path came within twice the touch tolerance of the origin: the scalar run may stop
///   there, touching, where the lane goes on to enclose the origin.
const RISK: f64 = 16.0;

/// A polytope as the lane path sees it: its vertices in its own frame and the three numbers
/// the tolerances need.
#[derive(Clone, Copy, Debug)]
pub struct LaneShape {
    /// A box's half extents (its support is then a sign selection).
    half: Option<DVec3>,
    verts: [DVec3; MAX_VERTS],
    n: usize,
    center: DVec3,
    size: f64,
    radius: f64,
}

impl LaneShape {
    /// The lane view of a box or of a `Points` hull with at most [`MAX_VERTS`] points.
    pub fn of(shape: &Shape3) -> Option<Self> {
        let mut verts = [DVec3::ZERO; MAX_VERTS];
        let mut half = None;
        let n = match shape {
            Shape3::Cuboid(c) => {
                let h = c.half_extents();
                half = Some(h);
                for (i, v) in verts.iter_mut().take(8).enumerate() {
                    let s = |bit: usize| if i & bit != 0 { -1.0 } else { 1.0 };
                    *v = DVec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z);
                }
                8
            }
            Shape3::Points(p) if p.len() <= MAX_VERTS && !p.is_empty() => {
                verts[..p.len()].copy_from_slice(p.points());
                p.len()
            }
            _ => return None,
        };
        if shape.core_radius() != 0.0 {
            return None;
        }
        Some(LaneShape {
            half,
            verts,
            n,
            center: shape.center(),
            size: shape.size(),
            radius: shape.bounding_radius(),
        })
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false: a lane shape has at least one vertex.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// Which query a lane runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Full distance query (closest points, bounds).
    Distance,
    /// Early exit as soon as the verdict is proved.
    Boolean,
}

/// A row for the lane path: its index in the chunk, its shapes and validated poses.
#[derive(Clone, Copy, Debug)]
pub struct LaneRow<'s, V: Vector> {
    /// Index of the row in its chunk (where the answer is written).
    pub k: usize,
    /// Shape A.
    pub a: &'s LaneShape,
    /// Shape B.
    pub b: &'s LaneShape,
    /// Validated world pose of A.
    pub pose_a: Pose<V>,
    /// Validated world pose of B.
    pub pose_b: Pose<V>,
}

/// The answer of one lane, as the scalar call states it (world frame). In boolean mode only
/// `status`, `iterations`, `verdict` and `tolerance` are meaningful.
#[derive(Clone, Copy, Debug)]
pub struct Answer<V> {
    /// The result in the scalar call's form.
    pub distance: Distance<V>,
}

pub(super) type V3<L> = [L; 3];

#[inline(always)]
fn sel<L: Lanes>(m: L, a: L, b: L) -> L {
    m.bitselect(a, b)
}
#[inline(always)]
fn sel3<L: Lanes>(m: L, a: &V3<L>, b: &V3<L>) -> V3<L> {
    [sel(m, a[0], b[0]), sel(m, a[1], b[1]), sel(m, a[2], b[2])]
}
#[inline(always)]
pub(super) fn dot<L: Lanes>(a: &V3<L>, b: &V3<L>) -> L {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline(always)]
pub(super) fn sub<L: Lanes>(a: &V3<L>, b: &V3<L>) -> V3<L> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline(always)]
pub(super) fn add<L: Lanes>(a: &V3<L>, b: &V3<L>) -> V3<L> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
#[inline(always)]
pub(super) fn scale<L: Lanes>(a: &V3<L>, s: L) -> V3<L> {
    [a[0] * s, a[1] * s, a[2] * s]
}
#[inline(always)]
pub(super) fn cross<L: Lanes>(a: &V3<L>, b: &V3<L>) -> V3<L> {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The vertices of one side of a group, structure of arrays, padded with each lane's last
/// vertex (a repeated vertex never changes a support point: ties keep the first).
struct Verts<L> {
    p: [V3<L>; MAX_VERTS],
    n: usize,
}

/// The simplex of four lanes: slots 0–2 hold the kept points (used or free per lane), slot 3
/// the newest support point while the step runs. `a` is A's support point of each slot (B's
/// is `a − w`).
#[derive(Clone, Copy)]
struct Simplex<L> {
    used: [L; 3],
    w: [V3<L>; 4],
    a: [V3<L>; 4],
}

/// The group state of four lanes.
struct State<L> {
    v: V3<L>,
    upper: L,
    lower: L,
    lower_dir: V3<L>,
    iters: L,
    stalls: L,
    /// Lanes still iterating.
    active: L,
    /// Lanes that stopped for a reason the scalar run shares (their answer stands).
    done: L,
    /// Lanes whose simplex contains the origin.
    inside: L,
    /// Lanes whose path took a rounding-decided turn (see [`RISK`]): declined at the end.
    risky: L,
    /// `|a| + |b|` bound of every support point and simplex point: `r_A + r_B + |t_ab|`
    /// (bounding radii about the shapes' origins, B placed in A's frame).
    mag: L,
    /// `AGREE · scale / 4`: a duality gap above it is not closed for the batch contract.
    open_gap: L,
}

/// Runs the lane path on `rows`; `answers[i]` is row `i`'s answer or `None` (declined).
///
/// Rows are streamed through four lanes: a lane that finishes is answered and reloaded with the
/// next row at once, so no lane idles while a slower neighbour iterates. Rows whose shapes
/// have at most 8 vertices run in a stream padded to 8, the others in one padded to 16. A
/// row's arithmetic is its lane's alone, so its answer does not depend on its neighbours.
pub fn run(
    rows: &[LaneRow<'_, DVec3>],
    mode: Mode,
    opts: &Options,
    answers: &mut Vec<Option<Answer<DVec3>>>,
) {
    run_on(Kernel::best(), rows, mode, opts, answers);
}

/// The instruction set a lane kernel is compiled for.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// 256-bit vectors: x86 with AVX2, detected at run time.
    Avx2,
    /// The AVX2 kernel compiled with AVX-512F and AVX-512VL as well (256-bit vectors with
    /// EVEX encodings), detected at run time. The box lanes run their AVX2 kernel under it.
    Avx512,
    /// The build's baseline (SSE2 pairs on a default x86-64 build).
    Baseline,
}

impl Kernel {
    /// The fastest kernel this CPU runs: the AVX-512VL copy on AMD CPUs that have it, the AVX2
    /// kernel on other x86 CPUs with AVX2 (see [`evex_pays`]), else the baseline.
    pub fn best() -> Kernel {
        if Kernel::Avx512.available() && evex_pays() {
            Kernel::Avx512
        } else if Kernel::Avx2.available() {
            Kernel::Avx2
        } else {
            Kernel::Baseline
        }
    }

    /// Whether this CPU runs the kernel (std caches the CPUID probe).
    pub fn available(self) -> bool {
        match self {
            Kernel::Baseline => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
            Kernel::Avx2 | Kernel::Avx512 => false,
        }
    }
}

/// Whether the AVX-512VL copy of the kernel beats the AVX2 one on this CPU, by vendor: the
/// same 256-bit lanes with EVEX encodings (mask registers, `vpternlogq` blends) ran 5% faster
/// on an AMD Zen 4 (`profile_driver hull8 lanes-avx2` / `lanes-avx512`, 20,000 rows, ten
/// alternated runs: 420 → 397 ns a row) and 11% slower on an Intel Xeon with AVX-512 (eight
/// alternated runs: 378 → 421 ns a row, medians; the answers bit-identical, the same
/// checksum). The vendor string is read once (CPUID leaf 0 traps to the hypervisor in a VM).
fn evex_pays() -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        // 0: not read yet; 1: AMD; 2: another vendor.
        static VENDOR: AtomicU8 = AtomicU8::new(0);
        let mut v = VENDOR.load(Ordering::Relaxed);
        if v == 0 {
            #[cfg(target_arch = "x86")]
            use std::arch::x86::__cpuid;
            #[cfg(target_arch = "x86_64")]
            use std::arch::x86_64::__cpuid;
            // SAFETY: CPUID leaf 0 exists on every x86 CPU that has AVX2, which the caller
            // checked first. (`__cpuid` is a safe function on newer toolchains.)
            #[allow(unused_unsafe)]
            let r = unsafe { __cpuid(0) };
            // "AuthenticAMD": EBX "Auth", EDX "enti", ECX "cAMD" (little-endian).
            let amd = r.ebx == u32::from_le_bytes(*b"Auth")
                && r.edx == u32::from_le_bytes(*b"enti")
                && r.ecx == u32::from_le_bytes(*b"cAMD");
            v = if amd { 1 } else { 2 };
            VENDOR.store(v, Ordering::Relaxed);
        }
        v == 1
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        false
    }
}

/// [`run`] on the given kernel (the baseline if the CPU lacks it); returns the kernel that ran.
/// Both kernels perform the same IEEE operations in the same order, so their answers are
/// bit-identical; this entry exists to test that.
#[doc(hidden)]
pub fn run_on(
    kernel: Kernel,
    rows: &[LaneRow<'_, DVec3>],
    mode: Mode,
    opts: &Options,
    answers: &mut Vec<Option<Answer<DVec3>>>,
) -> Kernel {
    let kernel = if kernel.available() {
        kernel
    } else {
        Kernel::Baseline
    };
    answers.clear();
    answers.resize(rows.len(), None);
    if opts.max_iterations == 0 {
        return kernel;
    }
    let boxes = |r: &LaneRow<'_, DVec3>| r.a.half.is_some() && r.b.half.is_some();
    let (mut box_rows, mut small, mut large) = (Vec::new(), Vec::new(), Vec::new());
    for (i, r) in rows.iter().enumerate() {
        if boxes(r) {
            box_rows.push(i);
        } else if r.a.n.max(r.b.n) <= 8 {
            small.push(i);
        } else {
            large.push(i);
        }
    }
    // n = 0: the box stream (sign-selection supports, no vertex scan).
    for (idx, n) in [(box_rows, 0), (small, 8), (large, MAX_VERTS)] {
        if idx.is_empty() {
            continue;
        }
        match kernel {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: `kernel.available()` detected AVX2 on this CPU.
            Kernel::Avx2 => unsafe { streams_avx2(rows, &idx, n, mode, opts, answers) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: `kernel.available()` detected AVX2, AVX-512F and AVX-512VL on this CPU.
            Kernel::Avx512 => unsafe { streams_avx512(rows, &idx, n, mode, opts, answers) },
            _ => streams_baseline(rows, &idx, n, mode, opts, answers),
        }
    }
    kernel
}

/// Defines a copy of [`streams`] on the lane type `$lanes`, compiled with the given target
/// features (x86 only) or for the build's baseline.
macro_rules! streams_for {
    ($(#[$doc:meta])* $name:ident, $lanes:ty $(, $features:literal)?) => {
        $(#[$doc])*
        $(
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            #[target_feature(enable = $features)]
        )?
        fn $name(
            rows: &[LaneRow<'_, DVec3>],
            idx: &[usize],
            n: usize,
            mode: Mode,
            opts: &Options,
            answers: &mut [Option<Answer<DVec3>>],
        ) {
            streams::<$lanes>(rows, idx, n, mode, opts, answers);
        }
    };
}

streams_for!(
    /// [`streams`] compiled for AVX2: LLVM vectorises [`F64x4`]'s element loops into `ymm`.
    streams_avx2,
    F64x4,
    "avx2"
);

streams_for!(
    /// [`streams`] compiled for AVX-512VL: the same 256-bit `F64x4` lanes as
    /// [`streams_avx2`], with EVEX encodings.
    streams_avx512,
    F64x4,
    "avx2,avx512f,avx512vl"
);

streams_for!(
    /// [`streams`] compiled for the build's baseline.
    streams_baseline,
    wide::f64x4
);

/// Runs the stream for `n`: 0 for two boxes, else vertex lists padded to `n`.
#[inline(always)]
fn streams<L: Lanes>(
    rows: &[LaneRow<'_, DVec3>],
    idx: &[usize],
    n: usize,
    mode: Mode,
    opts: &Options,
    answers: &mut [Option<Answer<DVec3>>],
) {
    if n == 0 {
        let zero3 = [L::ZERO; 3];
        let sup = BoxPair {
            ha: zero3,
            hb: zero3,
            rot: [zero3; 3],
            t: zero3,
        };
        stream(sup, rows, idx, mode, opts, answers);
    } else {
        let zero3 = [L::ZERO; 3];
        let sup = VertPair {
            a: Verts {
                p: [zero3; MAX_VERTS],
                n,
            },
            b: Verts {
                p: [zero3; MAX_VERTS],
                n,
            },
        };
        stream(sup, rows, idx, mode, opts, answers);
    }
}

const TRUE: f64 = f64::from_bits(u64::MAX);

#[inline(always)]
fn put<L: Lanes>(x: &mut L, l: usize, v: f64) {
    x.as_mut_array()[l] = v;
}

/// The per-lane numbers that stay outside the SIMD state.
#[derive(Clone, Copy)]
struct Slot {
    row: usize,
    pose_a: Pose<DVec3>,
    abs_tol: f64,
}

/// Loads row `r` into lane `l`: B's vertices placed in A's frame, the scalar run's tolerance
/// (`MinkowskiDifference::tolerance`) and start direction, a fresh state.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn load<L: Lanes, S: Supports<L>>(
    r: &LaneRow<'_, DVec3>,
    l: usize,
    opts: &Options,
    sup: &mut S,
    st: &mut State<L>,
    s: &mut Simplex<L>,
    abs_tol: &mut L,
) -> f64 {
    let pose_ab = r.pose_a.relative(&r.pose_b);
    let rot = pose_ab.rotation().to_matrix();
    let t = pose_ab.translation();
    sup.load(r, l, &rot, t);
    let reach = r.pose_a.translation().abs_sum() + r.pose_b.translation().abs_sum();
    let scale = (r.a.size + r.b.size).max(f64::MIN_POSITIVE);
    let magnitude = reach + r.a.radius + t.length() + r.b.radius;
    let tol = opts
        .abs_tolerance
        .unwrap_or(opts.rel_tolerance * scale + 4.0 * f64::EPSILON * magnitude);
    put(abs_tol, l, tol);
    let mut d = r.a.center - (DVec3::mat_mul(&rot, r.b.center) + t);
    if !(d.length_squared() > 0.0) || !d.is_finite() {
        d = DVec3::AXIS;
    }
    for c in 0..3 {
        put(&mut st.v[c], l, d[c]);
        put(&mut st.lower_dir[c], l, d[c]);
    }
    put(&mut st.upper, l, f64::INFINITY);
    put(&mut st.lower, l, f64::NEG_INFINITY);
    put(&mut st.iters, l, 0.0);
    put(&mut st.stalls, l, 0.0);
    put(&mut st.active, l, TRUE);
    put(&mut st.done, l, 0.0);
    put(&mut st.inside, l, 0.0);
    put(&mut st.risky, l, 0.0);
    let mag = r.a.radius + r.b.radius + t.length();
    put(&mut st.mag, l, mag);
    put(&mut st.open_gap, l, 0.25 * AGREE * scale);
    for k in 0..3 {
        put(&mut s.used[k], l, 0.0);
    }
    tol
}

/// Streams the rows `idx` through four lanes with the supports `sup`.
#[inline(always)]
fn stream<L: Lanes, S: Supports<L>>(
    mut sup: S,
    rows: &[LaneRow<'_, DVec3>],
    idx: &[usize],
    mode: Mode,
    opts: &Options,
    answers: &mut [Option<Answer<DVec3>>],
) {
    let zero3 = [L::ZERO; 3];
    let mut st = State {
        v: zero3,
        upper: L::ZERO,
        lower: L::ZERO,
        lower_dir: zero3,
        iters: L::ZERO,
        stalls: L::ZERO,
        active: L::ZERO,
        done: L::ZERO,
        inside: L::ZERO,
        risky: L::ZERO,
        mag: L::ZERO,
        open_gap: L::ZERO,
    };
    let mut s = Simplex {
        used: [L::ZERO; 3],
        w: [zero3; 4],
        a: [zero3; 4],
    };
    let mut abs_tol = L::ZERO;
    let rel = L::splat(opts.rel_tolerance);
    let cap = L::splat(opts.max_iterations as f64);
    let mut slots: [Option<Slot>; 4] = [None; 4];
    let mut next = 0;
    for (l, slot) in slots.iter_mut().enumerate() {
        if let Some(&i) = idx.get(next) {
            next += 1;
            let r = &rows[i];
            let tol = load(r, l, opts, &mut sup, &mut st, &mut s, &mut abs_tol);
            *slot = Some(Slot {
                row: i,
                pose_a: r.pose_a,
                abs_tol: tol,
            });
        }
    }
    while slots.iter().any(Option::is_some) {
        step(&mut st, &mut s, &sup, abs_tol, rel, mode);
        // The iteration cap: the scalar run reports it; decline.
        st.active &= !st.iters.simd_ge(cap);
        let running = st.active.to_bitmask();
        for (l, slot) in slots.iter_mut().enumerate() {
            let Some(sl) = *slot else { continue };
            if running & (1 << l) != 0 {
                continue;
            }
            answers[sl.row] = finish_lane(&st, &s, l, &sl, opts);
            *slot = None;
            if let Some(&i) = idx.get(next) {
                next += 1;
                let r = &rows[i];
                let tol = load(r, l, opts, &mut sup, &mut st, &mut s, &mut abs_tol);
                *slot = Some(Slot {
                    row: i,
                    pose_a: r.pose_a,
                    abs_tol: tol,
                });
            }
        }
    }
}

/// The two support functions of a stream, four lanes at a time (A's frame).
trait Supports<L: Lanes> {
    /// Sets lane `l` for row `r`, with B placed by `(rot, t)` in A's frame.
    fn load(&mut self, r: &LaneRow<'_, DVec3>, l: usize, rot: &glam::DMat3, t: DVec3);
    /// A's support point in direction `d`.
    fn a(&self, d: &V3<L>) -> V3<L>;
    /// B's support point (in A's frame) in direction `v`, i.e. the B part of the support of
    /// `A − B` in direction `−v`.
    fn b(&self, v: &V3<L>) -> V3<L>;
}

/// Vertex scans: B's vertices placed in A's frame at load.
struct VertPair<L> {
    a: Verts<L>,
    b: Verts<L>,
}

impl<L: Lanes> Supports<L> for VertPair<L> {
    #[inline(always)]
    fn load(&mut self, r: &LaneRow<'_, DVec3>, l: usize, rot: &glam::DMat3, t: DVec3) {
        for j in 0..self.a.n {
            let p = r.a.verts[j.min(r.a.n - 1)];
            for c in 0..3 {
                put(&mut self.a.p[j][c], l, p[c]);
            }
        }
        for j in 0..self.b.n {
            let p = DVec3::mat_mul(rot, r.b.verts[j.min(r.b.n - 1)]) + t;
            for c in 0..3 {
                put(&mut self.b.p[j][c], l, p[c]);
            }
        }
    }
    #[inline(always)]
    fn a(&self, d: &V3<L>) -> V3<L> {
        support(&self.a, d)
    }
    #[inline(always)]
    fn b(&self, v: &V3<L>) -> V3<L> {
        support(&self.b, v)
    }
}

/// Two boxes: sign selections, B's direction rotated into its frame and the corner back, the
/// very arithmetic of `Cuboid::core_support` inside `MinkowskiDifference::support`.
struct BoxPair<L> {
    ha: V3<L>,
    hb: V3<L>,
    /// Columns of `R_ab`.
    rot: [V3<L>; 3],
    t: V3<L>,
}

impl<L: Lanes> Supports<L> for BoxPair<L> {
    #[inline(always)]
    fn load(&mut self, r: &LaneRow<'_, DVec3>, l: usize, rot: &glam::DMat3, t: DVec3) {
        let (ha, hb) = (r.a.half.unwrap_or_default(), r.b.half.unwrap_or_default());
        let cols = [rot.x_axis, rot.y_axis, rot.z_axis];
        for c in 0..3 {
            put(&mut self.ha[c], l, ha[c]);
            put(&mut self.hb[c], l, hb[c]);
            put(&mut self.t[c], l, t[c]);
            for (k, col) in cols.iter().enumerate() {
                put(&mut self.rot[k][c], l, col[c]);
            }
        }
    }
    #[inline(always)]
    fn a(&self, d: &V3<L>) -> V3<L> {
        let z = L::ZERO;
        let h = &self.ha;
        [
            sel(d[0].simd_lt(z), -h[0], h[0]),
            sel(d[1].simd_lt(z), -h[1], h[1]),
            sel(d[2].simd_lt(z), -h[2], h[2]),
        ]
    }
    #[inline(always)]
    fn b(&self, v: &V3<L>) -> V3<L> {
        let z = L::ZERO;
        let h = &self.hb;
        let m = &self.rot;
        let u = [dot(&m[0], v), dot(&m[1], v), dot(&m[2], v)];
        let bl = [
            sel(u[0].simd_lt(z), -h[0], h[0]),
            sel(u[1].simd_lt(z), -h[1], h[1]),
            sel(u[2].simd_lt(z), -h[2], h[2]),
        ];
        let mut out = self.t;
        for (c, o) in out.iter_mut().enumerate() {
            *o = m[0][c] * bl[0] + m[1][c] * bl[1] + m[2][c] * bl[2] + self.t[c];
        }
        out
    }
}

/// The vertex of `vs` maximising `d·x` in each lane (first of equal maxima).
#[inline(always)]
fn support<L: Lanes>(vs: &Verts<L>, d: &V3<L>) -> V3<L> {
    let mut best = dot(&vs.p[0], d);
    let mut p = vs.p[0];
    for q in vs.p[1..vs.n].iter() {
        let x = dot(q, d);
        let m = x.simd_gt(best);
        best = sel(m, x, best);
        p = sel3(m, q, &p);
    }
    p
}

/// One GJK iteration on every active lane (the body of the scalar `Run::drive`'s loop).
#[inline(always)]
fn step<L: Lanes, S: Supports<L>>(
    st: &mut State<L>,
    s: &mut Simplex<L>,
    sup: &S,
    abs_tol: L,
    rel: L,
    mode: Mode,
) {
    let act = st.active;
    st.iters += act & L::ONE;
    let v = st.v;
    let pa = sup.a(&[-v[0], -v[1], -v[2]]);
    let pb = sup.b(&v);
    let w = sub(&pa, &pb);
    let vlen = dot(&v, &v).sqrt();
    // `v` is known to about `ε·mag` against the scalar run's, so `upper − lower` to about
    // `ε·mag·(1 + mag/|v|)` (see [`RISK`]).
    let risk = L::splat(RISK * f64::EPSILON) * st.mag;
    let lb = dot(&w, &v) / vlen;
    let better = act & lb.simd_gt(st.lower);
    st.lower = sel(better, lb, st.lower);
    st.lower_dir = sel3(better, &scale(&v, L::ONE / vlen), &st.lower_dir);
    let mut active = act;
    if mode == Mode::Boolean {
        let sep = active & st.lower.simd_gt(abs_tol);
        st.done |= sep;
        active &= !sep;
    }
    let nonempty = s.used[0] | s.used[1] | s.used[2];
    let gap_tol = abs_tol.max(rel * st.upper);
    let mut dup = !nonempty & nonempty;
    for k in 0..3 {
        let same = w[0].simd_eq(s.w[k][0]) & w[1].simd_eq(s.w[k][1]) & w[2].simd_eq(s.w[k][2]);
        dup |= s.used[k] & same;
    }
    let gap = st.upper - st.lower;
    let conv = active & nonempty & (gap.simd_le(gap_tol) | dup);
    // The gap test within rounding of its threshold: the scalar run may stop a step apart.
    let near = (gap - gap_tol).abs().simd_le(risk + risk * st.mag / vlen);
    st.risky |= active & nonempty & near;
    st.done |= conv;
    active &= !conv;
    // A duality gap within the tolerance but not closed to the contract (see [`RISK`]).
    let window =
        |gap: L, tol: L, st: &State<L>| gap.simd_gt(st.open_gap) & gap.simd_le(tol * L::splat(8.0));
    st.risky |= act & nonempty & window(gap, gap_tol, st);
    // A repeated support point stops the run with the gap open: in exact arithmetic it closes
    // the gap, so an open one means this lane's `v` is off by rounding (a sliver's Cramer
    // solve; fuzzing found one tilted by 2.9e-10 at |v| = 1.1e-8, stopped with gap 1.1e-8
    // where the scalar run's projection went on to 1.8e-12).
    st.risky |= act & nonempty & dup & gap.simd_gt(st.open_gap);
    // Only lanes that ran this step overwrite slot 3 (an inside lane keeps its tetrahedron).
    s.w[3] = sel3(act, &w, &s.w[3]);
    s.a[3] = sel3(act, &pa, &s.a[3]);
    let (used, nv, tetra) = reduce(s);
    let inside = active & tetra;
    st.inside |= inside;
    st.done |= inside;
    st.v = sel3(inside, &[L::ZERO; 3], &st.v);
    st.upper = sel(inside, L::ZERO, st.upper);
    // The kept simplex of an inside lane stays the full tetrahedron: `finish` reads it.
    let keep = active;
    active &= !inside;
    // The newest point is in every candidate: move it into the first free kept slot.
    let mut placed = !keep;
    for (k, &uk) in used.iter().enumerate() {
        let u = sel(keep, uk, s.used[k]);
        let put = !placed & !u & keep & !tetra;
        s.w[k] = sel3(put, &s.w[3], &s.w[k]);
        s.a[k] = sel3(put, &s.a[3], &s.a[k]);
        s.used[k] = u | put;
        placed |= put;
    }
    let d2 = dot(&nv, &nv);
    let progressed = d2.simd_lt(st.upper * st.upper);
    st.upper = sel(active, d2.sqrt(), st.upper);
    // (The tolerance the next gap test will use, with the new upper bound.)
    let next_tol = abs_tol.max(rel * st.upper);
    st.risky |= active & window(st.upper - st.lower, next_tol, st);
    st.v = sel3(active, &nv, &st.v);
    st.stalls = sel(
        active,
        sel(progressed, L::ZERO, st.stalls + L::ONE),
        st.stalls,
    );
    // Four stalls: the scalar run's own verdict on them is subtle; decline (not `done`).
    let stalled = active & st.stalls.simd_ge(L::splat(MAX_STALLS));
    active &= !stalled;
    // A path through the touch band's neighbourhood: the scalar run may stop there (touching,
    // at a distance within the band) where this lane goes on to enclose the origin.
    st.risky |= active & st.upper.simd_le(abs_tol + abs_tol);
    // The cores touch to within the tolerance (boolean mode: rsum is 0, the same test).
    let touch = active & st.upper.simd_le(abs_tol);
    st.done |= touch;
    active &= !touch;
    st.active = active;
}

/// The nearest point to the origin of the hull of the kept points and the newest (slot 3),
/// among the faces that contain the newest point (GJK's new simplex always does): which kept
/// slots stay, the point, and whether the tetrahedron contains the origin.
#[inline(always)]
fn reduce<L: Lanes>(s: &Simplex<L>) -> ([L; 3], V3<L>, L) {
    let w = &s.w;
    let u = &s.used;
    let zero = L::ZERO;
    let one = L::ONE;
    let nothing = !u[0] & u[0];
    let everything = !nothing;
    let n = &w[3];
    let mut acc = Best {
        d2: dot(n, n),
        p: *n,
        used: [nothing; 3],
        tetra: nothing,
    };
    for i in 0..3 {
        let e = sub(&w[i], n);
        let t = -dot(n, &e) / dot(&e, &e);
        let ok = u[i] & t.simd_gt(zero) & t.simd_lt(one);
        let p = add(n, &scale(&e, t));
        let mut mem = [false; 3];
        mem[i] = true;
        take(ok, dot(&p, &p), p, mem, false, &mut acc);
    }
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        let e1 = sub(&w[i], n);
        let e2 = sub(&w[j], n);
        let a11 = dot(&e1, &e1);
        let a12 = dot(&e1, &e2);
        let a22 = dot(&e2, &e2);
        let b1 = -dot(n, &e1);
        let b2 = -dot(n, &e2);
        let det = a11 * a22 - a12 * a12;
        let si = (b1 * a22 - b2 * a12) / det;
        let sj = (a11 * b2 - a12 * b1) / det;
        let sn = one - si - sj;
        let ok = u[i] & u[j] & si.simd_gt(zero) & sj.simd_gt(zero) & sn.simd_gt(zero);
        let p = add(n, &add(&scale(&e1, si), &scale(&e2, sj)));
        let mut mem = [false; 3];
        mem[i] = true;
        mem[j] = true;
        take(ok, dot(&p, &p), p, mem, false, &mut acc);
    }
    {
        let l = tetra_weights(&[w[0], w[1], w[2], w[3]]);
        let ok = u[0] & u[1] & u[2] & l.iter().fold(everything, |m, x| m & x.simd_gt(zero));
        // A flat tetrahedron can give positive garbage weights: the combination must really
        // be the origin (to rounding) before the origin counts as inside.
        let p = add(
            &add(&scale(&w[0], l[0]), &scale(&w[1], l[1])),
            &add(&scale(&w[2], l[2]), &scale(&w[3], l[3])),
        );
        let d2 = dot(&p, &p);
        // Spelt out, not a fold over `0..4`: LLVM left that fold out of line, as baseline
        // (SSE2) code called from the AVX2 kernel in every iteration.
        let m2 = zero
            .max(dot(&w[0], &w[0]))
            .max(dot(&w[1], &w[1]))
            .max(dot(&w[2], &w[2]))
            .max(dot(&w[3], &w[3]));
        let tiny = d2.simd_le(m2 * L::splat(1e-24));
        take(ok & tiny, zero, [zero; 3], [true; 3], true, &mut acc);
    }
    (acc.used, acc.p, acc.tetra)
}

/// Barycentric weights of the origin in a tetrahedron (signed volumes).
#[inline(always)]
fn tetra_weights<L: Lanes>(w: &[V3<L>; 4]) -> [L; 4] {
    let e1 = sub(&w[1], &w[0]);
    let e2 = sub(&w[2], &w[0]);
    let e3 = sub(&w[3], &w[0]);
    let o = [-w[0][0], -w[0][1], -w[0][2]];
    let vol = dot(&e1, &cross(&e2, &e3));
    let l1 = dot(&o, &cross(&e2, &e3)) / vol;
    let l2 = dot(&e1, &cross(&o, &e3)) / vol;
    let l3 = dot(&e1, &cross(&e2, &o)) / vol;
    [L::ONE - l1 - l2 - l3, l1, l2, l3]
}

/// The best candidate of [`reduce`] so far, per lane.
struct Best<L> {
    d2: L,
    p: V3<L>,
    used: [L; 3],
    tetra: L,
}

/// Keeps candidate `(d2, p, members)` in the lanes where it is valid (`ok`) and nearer.
#[inline(always)]
fn take<L: Lanes>(ok: L, d2: L, p: V3<L>, members: [bool; 3], is_tet: bool, acc: &mut Best<L>) {
    let m = ok & d2.simd_lt(acc.d2);
    let nothing = !m & m;
    acc.d2 = sel(m, d2, acc.d2);
    acc.p = sel3(m, &p, &acc.p);
    for (u, &member) in acc.used.iter_mut().zip(members.iter()) {
        *u = sel(m, if member { m } else { nothing }, *u);
    }
    if is_tet {
        acc.tetra |= m;
    }
}

/// Barycentric weights of the point of `w`'s affine hull nearest the origin (the formulas of
/// [`reduce`], newest point last), for the witnesses.
fn weights(w: &[DVec3]) -> [f64; 4] {
    let n = w[w.len() - 1];
    match w.len() {
        2 => {
            let e = w[0] - n;
            let t = -n.dot(e) / e.dot(e);
            [t, 1.0 - t, 0.0, 0.0]
        }
        3 => {
            let (e1, e2) = (w[0] - n, w[1] - n);
            let (a11, a12, a22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
            let (b1, b2) = (-n.dot(e1), -n.dot(e2));
            let det = a11 * a22 - a12 * a12;
            let si = (b1 * a22 - b2 * a12) / det;
            let sj = (a11 * b2 - a12 * b1) / det;
            [si, sj, 1.0 - si - sj, 0.0]
        }
        4 => {
            let e1 = w[1] - w[0];
            let e2 = w[2] - w[0];
            let e3 = w[3] - w[0];
            let vol = e1.dot(e2.cross(e3));
            let l1 = (-w[0]).dot(e2.cross(e3)) / vol;
            let l2 = e1.dot((-w[0]).cross(e3)) / vol;
            let l3 = e1.dot(e2.cross(-w[0])) / vol;
            [1.0 - l1 - l2 - l3, l1, l2, l3]
        }
        _ => [1.0, 0.0, 0.0, 0.0],
    }
}

/// Whether the origin lies within `d` of the plane of a face of the tetrahedron `w` (or the
/// tetrahedron is too flat to tell).
fn near_face(w: &[DVec3; 4], d: f64) -> bool {
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    FACES.iter().any(|&[i, j, k]| {
        let n = (w[j] - w[i]).cross(w[k] - w[i]);
        let h = w[i].dot(n);
        !(h * h > d * d * n.length_squared())
    })
}

/// Lane `l` of `x`, read in place. (By value, `to_array()[l]` copied each vector to the stack
/// first: with `is_set` below also by reference, callgrind `profile_driver hull8 batch
/// convexity 2000 1` went from 8,851,198 to 8,525,985 instructions; `speed --sets hull8
/// --rounds 9`, six alternated runs, batch on one core 1.75 → 1.79× parry3d-f64.)
fn lane<L: Lanes>(x: &L, l: usize) -> f64 {
    x.as_array()[l]
}
fn lane3<L: Lanes>(x: &V3<L>, l: usize) -> DVec3 {
    DVec3::new(lane(&x[0], l), lane(&x[1], l), lane(&x[2], l))
}
/// Whether mask `m` is set in lane `l` (its sign bit, the lane's bit of `to_bitmask`).
fn is_set<L: Lanes>(m: &L, l: usize) -> bool {
    m.as_array()[l].is_sign_negative()
}

/// Turns lane `l`'s bounds into the scalar call's answer (the scalar `summarize`), or
/// declines it (`None`).
fn finish_lane<L: Lanes>(
    st: &State<L>,
    s: &Simplex<L>,
    l: usize,
    slot: &Slot,
    opts: &Options,
) -> Option<Answer<DVec3>> {
    if !is_set(&st.done, l) || is_set(&st.risky, l) {
        return None;
    }
    {
        let abs_tol = slot.abs_tol;
        let upper = lane(&st.upper, l);
        let lower = lane(&st.lower, l);
        let v = lane3(&st.v, l);
        let lower_dir = lane3(&st.lower_dir, l);
        let tol = if upper.is_finite() {
            abs_tol.max(opts.rel_tolerance * upper)
        } else {
            abs_tol
        };
        // The kept points, in slot order; an inside lane kept all four (the newest last).
        let inside = is_set(&st.inside, l);
        let mut ws = [DVec3::ZERO; 4];
        let mut as_ = [DVec3::ZERO; 4];
        let mut m = 0;
        for k in 0..4 {
            if (k < 3 && is_set(&s.used[k], l)) || (k == 3 && inside) {
                ws[m] = lane3(&s.w[k], l);
                as_[m] = lane3(&s.a[k], l);
                m += 1;
            }
        }
        let nonempty = m > 0;
        // `finish` sees the simplex after the newest point was moved in, so its last slot in
        // order need not be the newest: the weights do not depend on which point is last.
        let lam = weights(&ws[..m.max(1)]);
        let (mut ca, mut cb) = (DVec3::ZERO, DVec3::ZERO);
        for k in 0..m {
            ca += as_[k] * lam[k];
            cb += (as_[k] - ws[k]) * lam[k];
        }
        let normal = (-v)
            .try_normalize()
            .or_else(|| (-lower_dir).try_normalize())
            .unwrap_or(DVec3::AXIS);
        let (verdict, pa, pb);
        if nonempty && upper <= tol {
            // Only an enclosed origin (distance exactly 0) is the scalar run's answer to
            // rounding: a run that stops with 0 < upper ≤ tol reports wherever it stopped in
            // the touch band, and the scalar run, whose steps may differ (no bounding-sphere
            // exit here), stops elsewhere — fuzzing found a flat hull against itself at 1.9e-11
            // here and 0 in the scalar call. (This also covers "within a factor two of the
            // tolerance, the scalar run's last ulps could decide otherwise".)
            if upper > 0.0 {
                return None;
            }
            // The origin within twice the touch tolerance of a face of the enclosing
            // tetrahedron: the pair penetrates by at most that (the tetrahedron lies in the
            // Minkowski difference), and a run on a path that differs by rounding may stop at
            // a face that near the origin, touching, at a distance in (0, tol] — fuzzing found
            // two flat boxes enclosed here and 2.6e-14 apart in the scalar call.
            if inside && near_face(&ws, 2.0 * abs_tol) {
                return None;
            }
            let p = (ca + cb) * 0.5;
            verdict = Verdict::Intersecting(CommonPoint { point: p });
            pa = p;
            pb = p;
        } else if lower > 0.0 && upper > tol {
            if upper < 2.0 * tol || lower < 2.0 * abs_tol {
                return None;
            }
            verdict = Verdict::Separated(SeparatingAxis {
                axis: -lower_dir,
                gap: lower,
            });
            pa = ca;
            pb = cb;
        } else {
            return None;
        }
        let pose_a = &slot.pose_a;
        let lower_bound = if lower.is_finite() { lower } else { -0.0 };
        let up = if upper.is_finite() {
            upper.max(0.0)
        } else {
            f64::INFINITY
        };
        let verdict = match verdict {
            Verdict::Separated(sa) => Verdict::Separated(SeparatingAxis {
                axis: pose_a.transform_vector(sa.axis),
                gap: sa.gap,
            }),
            Verdict::Intersecting(c) => Verdict::Intersecting(CommonPoint {
                point: pose_a.transform_point(c.point),
            }),
            Verdict::Undetermined => Verdict::Undetermined,
        };
        Some(Answer {
            distance: Distance {
                status: Status::Converged,
                iterations: lane(&st.iters, l) as u32,
                distance: up.max(lower_bound),
                lower_bound,
                point_a: pose_a.transform_point(pa),
                point_b: pose_a.transform_point(pb),
                normal: pose_a.transform_vector(normal),
                verdict,
                tolerance: tol,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Kernel;

    /// `Kernel::best` on this CPU: a kernel it runs, never the baseline where AVX2 is there,
    /// the same choice on every call (the vendor is read once), and the AVX-512VL copy only
    /// where `evex_pays` says so.
    #[test]
    fn best_kernel_is_available_and_stable() {
        let k = Kernel::best();
        assert!(k.available(), "{k:?}");
        assert_eq!(k, Kernel::best());
        if Kernel::Avx2.available() {
            assert_ne!(k, Kernel::Baseline);
        }
        assert_eq!(
            k == Kernel::Avx512,
            Kernel::Avx512.available() && super::evex_pays()
        );
    }
}
