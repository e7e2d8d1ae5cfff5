//! Box–box distance four pairs at a time: the closed form of `gjk::closed_form`'s
//! `box_box_distance` in SIMD lanes, for the batch API's box rows.
//!
//! What it computes: for each row (two boxes and their world poses), what `box_box_distance`
//! computes — the relative pose and the tolerances (`BoxSetup::new`), the best of the 15
//! separating axes (`Obb3::deepest`), and then either the closest points of separated boxes
//! from the winning features (face of A, face of B, or the two support edges) with the
//! separation along their direction, or a common point of overlapping ones — with the points
//! and the normal placed in the world frame. The caller builds the answer with the scalar
//! function's own `box_separated_answer` / `box_overlap_answer`, so an answered row is the
//! scalar call's, bit for bit.
//!
//! Source: the 15 axes of Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996, in the form of
//! Ericson, *Real-Time Collision Detection* (2005) §4.4.1, and the segment–segment closest
//! points of §5.1.9, exactly as `gjk/obb.rs` and `gjk/closed_form.rs` state them; the
//! quaternion arithmetic is glam's (`DQuat::mul_quat`, `mul_vec3`, `DMat3::from_quat`).
//!
//! Why bit for bit: each lane performs the scalar code's IEEE operations in its order (no FMA;
//! compare-selects for `f64::clamp`, `sign`, `f64::max` and the running maximum, which keeps the
//! first of equal maxima as the scalar `>` does). Branches become selects: every lane computes
//! all three start pairs and keeps its feature's. `box_lane_setup_equals_the_scalar_setup_bit_for_bit`
//! pins the set-up, `box_lane_kernels_agree_bit_for_bit` the two kernels, and
//! `box_lanes_equal_the_scalar_closed_form` (tests/batch.rs) the whole rows against the
//! scalar call on random, touching (gaps of 0.5–2× the tolerance), parallel, flat, far-offset
//! (1e6) and 1e4-ratio pairs; the `batch` fuzz target compares box rows bit for bit too.
//!
//! Not answered in the lanes: overlapping boxes whose common point is none of
//! `Obb3::common_point`'s six cheap candidates (the centres, A's centre's nearest point in B,
//! the two corners deepest along the best axis, the support edges' closest point of an edge
//! pair) take `closed_form::box_overlap_distance`'s vertex tests and edge clips on the scalar
//! set-up (none of the speed set's rows nor of 400,000 random ones in the unit tests: it takes
//! an absolute tolerance below the coordinates' rounding or a zero-length support edge; 10%
//! of the speed set's rows with the centres alone); and the caller runs the whole scalar call
//! (`Declined`)
//! for a best separation in `(0, 2·tol]` (GJK decides), separated boxes whose start pair does
//! not meet the agreement `exact` at once (the scalar code then runs alternating projections),
//! an edge pair with a zero-length edge (a flat box), and any non-finite intermediate —
//! together 12 of the speed set's 20,000 rows.
//!
//! Measured (callgrind, `profile_driver box batch convexity 2000 1`, instructions per row of
//! `batch::distance` on one core): 1,815 with every box row through the scalar closed form,
//! 1,295 with these lanes (about 500 of them the lanes' vector work); `speed --sets box
//! --rounds 9`, five interleaved runs each, parry3d-f64 ÷ the batch on one core: 2.26× →
//! 4.06× (medians; 3.98–4.12×). The AVX2 kernel gains from `Lanes::blend` (one `vblendvpd`
//! per select, 8% of the instructions) and from spelling three-element arrays out
//! (`crate::math::arr3`: an out-of-line `array::from_fn` ran on SSE2). The three candidates
//! after the centres: 1,298 → 1,251 instructions a row (`profile_driver`, 2,000 rows), and
//! 3.97× → 4.13× on one core (`speed --sets box --rounds 9`, the builds before and after
//! alternated ten times, medians). The batch building each row's `BoxInput` straight from the
//! validated row (`BatchSpace::closed_row`) rather than from a list of shapes and poses:
//! 1,251 → 1,182 instructions, 4.20× → 4.41× (the same way). The support edges' point as the
//! sixth candidate: 1,182 → 1,139, 4.10–4.16× → 4.48–4.50× (two such sets of ten runs).
//! On a Zen 3 EPYC, with rustc 1.95, two code-generation traps (see `solve_group`: masked
//! stores, the per-lane answers out of line): 1,268 → 1,184 instructions a row, and parry ÷
//! the batch on one core 2.53–3.02× → 2.69–4.21× (`speed --sets box,hull8 --rounds 9`, four
//! alternated runs each, medians 2.77 → 3.25×; the machine was noisy).
//!
//! Complexity: O(1) per row, about 2,000 instructions per four rows on AVX2; no allocation
//! beyond the row list. Preconditions: validated boxes and poses. Failure modes: none; every
//! doubtful lane is handed back.

use super::f64x4::Lanes;
use super::lanes::{add, cross, dot, scale, sub, Kernel, V3};
use crate::gjk::closed_form::{
    box_overlap_answer, box_overlap_distance, box_separated_answer, BoxSetup, BOX_DISTANCE_SLACK,
};
use crate::gjk::minkowski::MinkowskiDifference;
use crate::gjk::{Distance, Options};
use crate::math::arr3;
use crate::math::pose::Pose3;
use crate::shape::{Cuboid, SupportMap};
use glam::DVec3;

/// What a lane found for its row: world-frame points and normals (`Pose::transform_point`
/// and `transform_vector` of A's pose, in lanes), the best axis in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BoxLane {
    /// Separated: closest points `point_a ∈ A`, `point_b ∈ B`, the unit normal from A to B,
    /// `dist = |q − p|` and the separation `lower` along the normal (`dist − lower ≤ exact`).
    Separated {
        point_a: [f64; 3],
        point_b: [f64; 3],
        normal: [f64; 3],
        dist: f64,
        lower: f64,
        abs_tol: f64,
    },
    /// Overlapping: the best axis `n` (A's frame, and `normal` in the world's) and its
    /// separation `sep ≤ 0`, and a common point `x` when one of the two centre candidates is
    /// one (`None`: the scalar search goes on from the vertices,
    /// `closed_form::box_overlap_distance`).
    Overlap {
        x: Option<[f64; 3]>,
        sep: f64,
        n: [f64; 3],
        normal: [f64; 3],
        abs_tol: f64,
    },
    /// The scalar call answers this row.
    Declined,
}

/// A row as the lanes read it: the two world poses (quaternion `[x, y, z, w]`, translation),
/// the half extents, and each box's `size` and `bounding_radius` (the tolerances' inputs).
/// (Public only as `BatchSpace::Closed` of 3D; its fields are the crate's.)
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BoxInput {
    pub(crate) qa: [f64; 4],
    pub(crate) ta: [f64; 3],
    pub(crate) qb: [f64; 4],
    pub(crate) tb: [f64; 3],
    pub(crate) ha: [f64; 3],
    pub(crate) hb: [f64; 3],
    /// `size` and `bounding_radius` of A, then of B.
    pub(crate) radii: [f64; 4],
}

impl BoxInput {
    /// The two boxes and poses the row was built from (the same numbers: a quaternion and a
    /// translation read back, the half extents checked again).
    fn boxes(&self) -> Option<(Cuboid<DVec3>, Pose3, Cuboid<DVec3>, Pose3)> {
        let pose = |q: [f64; 4], t: [f64; 3]| {
            Pose3::from_checked(DVec3::from_array(t), glam::DQuat::from_array(q))
        };
        Some((
            Cuboid::new(DVec3::from_array(self.ha)).ok()?,
            pose(self.qa, self.ta),
            Cuboid::new(DVec3::from_array(self.hb)).ok()?,
            pose(self.qb, self.tb),
        ))
    }

    #[inline(always)]
    pub(crate) fn of(
        a: &Cuboid<DVec3>,
        pose_a: &Pose3,
        b: &Cuboid<DVec3>,
        pose_b: &Pose3,
    ) -> BoxInput {
        let (qa, qb) = (pose_a.rotation(), pose_b.rotation());
        BoxInput {
            qa: [qa.x, qa.y, qa.z, qa.w],
            ta: pose_a.translation().to_array(),
            qb: [qb.x, qb.y, qb.z, qb.w],
            tb: pose_b.translation().to_array(),
            ha: a.half_extents().to_array(),
            hb: b.half_extents().to_array(),
            radii: [a.size(), a.bounding_radius(), b.size(), b.bounding_radius()],
        }
    }
}

/// The tolerance settings the lanes need (`Options::rel_tolerance`, `abs_tolerance`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tolerances {
    rel: f64,
    abs: Option<f64>,
}

impl Tolerances {
    pub(crate) fn of(opts: &Options) -> Tolerances {
        Tolerances {
            rel: opts.rel_tolerance,
            abs: opts.abs_tolerance,
        }
    }
}

/// The batch's closed-form distance rows: `answer(i, Some(d))` for a pair of boxes the lanes
/// (on the best kernel) answer, `answer(i, None)` for every other pair and every declined row
/// (the caller runs the scalar call).
pub(crate) fn distances(
    rows: &[BoxInput],
    opts: &Options,
    answer: &mut dyn FnMut(usize, Option<&Distance<DVec3>>),
) {
    if opts.max_iterations == 0 {
        // (`box_box_distance` hands a query without iterations to GJK.)
        for i in 0..rows.len() {
            answer(i, None);
        }
        return;
    }
    solve(
        Kernel::best(),
        rows,
        Tolerances::of(opts),
        &mut |i, lane| {
            let d = match *lane {
                BoxLane::Separated {
                    point_a,
                    point_b,
                    normal,
                    dist,
                    lower,
                    abs_tol,
                } => box_separated_answer(
                    (DVec3::from_array(point_a), DVec3::from_array(point_b)),
                    DVec3::from_array(normal),
                    (dist, lower),
                    abs_tol,
                    opts,
                ),
                BoxLane::Overlap {
                    x: Some(x),
                    sep,
                    normal,
                    abs_tol,
                    ..
                } => Some(box_overlap_answer(
                    DVec3::from_array(x),
                    sep,
                    DVec3::from_array(normal),
                    abs_tol,
                )),
                BoxLane::Overlap {
                    x: None, sep, n, ..
                } => {
                    // The scalar set-up again (the lanes' equals it bit for bit), for the search,
                    // and the best axis's family from the scalar scan (whose axis is `n`).
                    let Some((ca, pose_a, cb, pose_b)) = rows[i].boxes() else {
                        return answer(i, None);
                    };
                    let mink = MinkowskiDifference::new(&ca, &pose_a, &cb, &pose_b);
                    let setup = BoxSetup::new(ca.half_extents(), cb.half_extents(), &mink, opts);
                    let (_, _, feature) = setup.obb.deepest();
                    box_overlap_distance(&setup, &pose_a, mink.pose_ab(), sep, (n, feature))
                }
                BoxLane::Declined => None,
            };
            answer(i, d.as_ref());
        },
    );
}

/// Runs `rows` four at a time on `kernel` (the baseline if the CPU lacks it), handing row `i`'s
/// lane to `each(i, lane)`.
pub(crate) fn solve(
    kernel: Kernel,
    rows: &[BoxInput],
    tols: Tolerances,
    each: &mut dyn FnMut(usize, &BoxLane),
) {
    match kernel {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Kernel::Avx2 if kernel.available() => {
            // SAFETY: `kernel.available()` detected AVX2 on this CPU.
            unsafe { solve_avx2(rows, tols, each) }
        }
        // The AVX2 kernel: compiled with AVX-512VL as well, these lanes were slower
        // (`speed --sets box --rounds 9`, five alternated runs: batch on one core 4.60 →
        // 3.53× parry3d-f64), unlike the GJK lanes (see `lanes`).
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Kernel::Avx512 if kernel.available() => {
            // SAFETY: `kernel.available()` detected AVX2 (with AVX-512F and AVX-512VL) on this
            // CPU.
            unsafe { solve_avx2(rows, tols, each) }
        }
        _ => solve_on::<wide::f64x4>(rows, tols, each),
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
fn solve_avx2(rows: &[BoxInput], tols: Tolerances, each: &mut dyn FnMut(usize, &BoxLane)) {
    solve_on::<super::f64x4::F64x4>(rows, tols, each);
}

/// Rows four at a time; `each(i, lane)` for row `i` (no buffer of answers).
#[inline(always)]
fn solve_on<L: Lanes>(rows: &[BoxInput], tols: Tolerances, each: &mut dyn FnMut(usize, &BoxLane)) {
    for (g, group) in rows.chunks(4).enumerate() {
        // A short last group repeats its last row (its extra lanes are not read).
        let row = |l: usize| &group[l.min(group.len() - 1)];
        let lanes = solve_group::<L>(&setup::<L>(&core::array::from_fn(row), tols));
        for (l, lane) in lanes.iter().take(group.len()).enumerate() {
            each(4 * g + l, lane);
        }
    }
}

/// Four rows set up: the box pair in A's frame, the tolerances, A's world pose.
struct Group<L> {
    pair: Pair<L>,
    abs_tol: L,
    exact: L,
    qa: [L; 4],
    ta: V3<L>,
}

/// The box pair of four rows, structure of arrays (the fields of `Obb3`).
struct Pair<L> {
    ha: V3<L>,
    hb: V3<L>,
    r: [V3<L>; 3],
    ar: [V3<L>; 3],
    t: V3<L>,
}

impl<L: Lanes> Pair<L> {
    #[inline(always)]
    fn col(&self, j: usize) -> V3<L> {
        [self.r[0][j], self.r[1][j], self.r[2][j]]
    }

    /// `Obb3::b_to_a`.
    #[inline(always)]
    fn b_to_a(&self, y: &V3<L>) -> V3<L> {
        arr3(|i| dot(&self.r[i], y) + self.t[i])
    }

    /// `Obb3::in_b`.
    #[inline(always)]
    fn in_b(&self, p: &V3<L>) -> V3<L> {
        let q = sub(p, &self.t);
        arr3(|j| dot(&q, &self.col(j)))
    }

    /// The edge pair (i, j) (`Obb3::edge_terms`): its separation (−∞ when skipped), `t·L`,
    /// `|L|`, and `L`'s two non-zero components before scaling, `−r[i2][j]` and `r[i1][j]`.
    #[inline(always)]
    fn edge(&self, i: usize, j: usize) -> (L, L, L, L, L) {
        let (r, ar, t, ha, hb) = (&self.r, &self.ar, &self.t, &self.ha, &self.hb);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let len2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let num = tl.abs()
            - (ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j])
            - (hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1]);
        let len = len2.sqrt();
        // Nearly parallel edges are skipped: never a new maximum.
        let s = sel(
            len2.simd_gt(L::splat(1e-12)),
            num / len,
            L::splat(f64::NEG_INFINITY),
        );
        (s, tl, len, -r[i2][j], r[i1][j])
    }

    /// `Obb3::separation`.
    #[inline(always)]
    fn separation(&self, n: &V3<L>) -> L {
        let ha = &self.ha;
        let ra = ha[0] * n[0].abs() + ha[1] * n[1].abs() + ha[2] * n[2].abs();
        let rb = self.hb[0] * dot(&self.col(0), n).abs()
            + self.hb[1] * dot(&self.col(1), n).abs()
            + self.hb[2] * dot(&self.col(2), n).abs();
        dot(&self.t, n) - ra - rb
    }

    /// `Obb3::corner_a`.
    #[inline(always)]
    fn corner_a(&self, n: &V3<L>) -> V3<L> {
        arr3(|k| sign(n[k]) * self.ha[k])
    }

    /// `Obb3::corner_b` (B's frame).
    #[inline(always)]
    fn corner_b(&self, n: &V3<L>) -> V3<L> {
        arr3(|j| -sign(dot(&self.col(j), n)) * self.hb[j])
    }
}

/// `a` where the mask `m` is set, else `b`.
#[inline(always)]
fn sel<L: Lanes>(m: L, a: L, b: L) -> L {
    m.blend(a, b)
}

/// [`sel`] on each coordinate.
#[inline(always)]
fn sel3<L: Lanes>(m: L, a: &V3<L>, b: &V3<L>) -> V3<L> {
    [sel(m, a[0], b[0]), sel(m, a[1], b[1]), sel(m, a[2], b[2])]
}

/// `−1` for a negative lane, else `1` (`obb::sign`).
#[inline(always)]
fn sign<L: Lanes>(x: L) -> L {
    sel(x.simd_lt(L::ZERO), L::splat(-1.0), L::ONE)
}

/// `f64::clamp(x, lo, hi)` (`x < lo` → `lo`, then `x > hi` → `hi`; NaN stays NaN).
#[inline(always)]
fn clamp<L: Lanes>(x: L, lo: L, hi: L) -> L {
    let x = sel(x.simd_lt(lo), lo, x);
    sel(x.simd_gt(hi), hi, x)
}

/// `obb::clamp`: the point of the box `[-h, h]` nearest `p`.
#[inline(always)]
fn clamp_box<L: Lanes>(p: &V3<L>, h: &V3<L>) -> V3<L> {
    arr3(|k| clamp(p[k], -h[k], h[k]))
}

/// `obb::outside2`: the squared distance from `p` to the box `[-h, h]`.
#[inline(always)]
fn outside2<L: Lanes>(p: &V3<L>, h: &V3<L>) -> L {
    let mut s = L::ZERO;
    for k in 0..3 {
        // `f64::max(x, 0)`: 0 for a NaN or a negative `x`.
        let x = p[k].abs() - h[k];
        let e = sel(x.simd_gt(L::ZERO), x, L::ZERO);
        s += e * e;
    }
    s
}

/// Lane `l` of a 3-vector.
#[inline(always)]
fn lane3<L: Lanes>(v: &V3<L>, l: usize) -> [f64; 3] {
    [v[0].to_array()[l], v[1].to_array()[l], v[2].to_array()[l]]
}

/// `q · v` for unit quaternions `q` (`DQuat::mul_vec3`: `v (w² − b·b) + b 2(v·b) + (b × v) 2w`
/// with `b` the vector part, in glam's order of operations).
#[inline(always)]
fn rotate<L: Lanes>(q: &[L; 4], v: &V3<L>) -> V3<L> {
    let (b, w) = ([q[0], q[1], q[2]], q[3]);
    let s1 = w * w - dot(&b, &b);
    let s2 = dot(v, &b) * L::splat(2.0);
    let s3 = w * L::splat(2.0);
    let c = cross(&b, v);
    arr3(|k| v[k] * s1 + b[k] * s2 + c[k] * s3)
}

/// The box pair of four rows in A's frame and its tolerances: `BoxSetup::new` on
/// `MinkowskiDifference::new`, operation for operation (`Pose::relative`: `q̄_a q_b` by
/// `DQuat::mul_quat` and `q̄_a (t_b − t_a)`; `DMat3::from_quat`; B's axes as the matrix
/// times the unit vectors, `Vector::mat_mul`; `MinkowskiDifference::tolerance`).
#[inline(always)]
fn setup<L: Lanes>(rows: &[&BoxInput; 4], tols: Tolerances) -> Group<L> {
    // Each number of the four rows as one vector (no zeroed buffer in between).
    let lanes = |x: [f64; 4]| {
        let mut v = L::ZERO;
        *v.as_mut_array() = x;
        v
    };
    macro_rules! gather {
        ($field:ident [$k:expr]) => {
            lanes([
                rows[0].$field[$k],
                rows[1].$field[$k],
                rows[2].$field[$k],
                rows[3].$field[$k],
            ])
        };
    }
    let qa = [
        gather!(qa[0]),
        gather!(qa[1]),
        gather!(qa[2]),
        gather!(qa[3]),
    ];
    let qb = [
        gather!(qb[0]),
        gather!(qb[1]),
        gather!(qb[2]),
        gather!(qb[3]),
    ];
    let (ta, tb) = (arr3(|k| gather!(ta[k])), arr3(|k| gather!(tb[k])));
    let (ha, hb) = (arr3(|k| gather!(ha[k])), arr3(|k| gather!(hb[k])));
    let (size_a, br_a) = (gather!(radii[0]), gather!(radii[1]));
    let (size_b, br_b) = (gather!(radii[2]), gather!(radii[3]));
    // `Pose::relative`.
    let c = [-qa[0], -qa[1], -qa[2], qa[3]];
    let (x0, y0, z0, w0) = (c[0], c[1], c[2], c[3]);
    let (x1, y1, z1, w1) = (qb[0], qb[1], qb[2], qb[3]);
    let q = [
        w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
        w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
        w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1,
        w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
    ];
    let t = rotate(&c, &sub(&tb, &ta));
    // `DMat3::from_quat`.
    let (x2, y2, z2) = (q[0] + q[0], q[1] + q[1], q[2] + q[2]);
    let (xx, xy, xz) = (q[0] * x2, q[0] * y2, q[0] * z2);
    let (yy, yz, zz) = (q[1] * y2, q[1] * z2, q[2] * z2);
    let (wx, wy, wz) = (q[3] * x2, q[3] * y2, q[3] * z2);
    let one = L::ONE;
    let m = [
        [one - (yy + zz), xy + wz, xz - wy],
        [xy - wz, one - (xx + zz), yz + wx],
        [xz + wy, yz - wx, one - (xx + yy)],
    ];
    // `Obb3::new` on the columns `mat_mul(m, e_j)`: `r[i][j]` is column j's entry i.
    let e = |j: usize, k: usize| if j == k { L::ONE } else { L::ZERO };
    let r: [V3<L>; 3] =
        arr3(|i| arr3(|j| m[0][i] * e(j, 0) + m[1][i] * e(j, 1) + m[2][i] * e(j, 2)));
    let ar = arr3(|i| arr3(|j| r[i][j].abs()));
    // `MinkowskiDifference::{scale, magnitude, tolerance}`.
    let len = |x: &V3<L>| dot(x, x).sqrt();
    let l1 = |x: &V3<L>| x[0].abs() + x[1].abs() + x[2].abs();
    let reach = l1(&ta) + l1(&tb);
    let magnitude = reach + br_a + len(&t) + br_b;
    let floor = L::splat(4.0 * f64::EPSILON) * magnitude;
    let sum = size_a + size_b;
    let tiny = L::splat(f64::MIN_POSITIVE);
    let scale = sel(sum.simd_gt(tiny), sum, tiny);
    let abs_tol = match tols.abs {
        Some(x) => L::splat(x),
        None => L::splat(tols.rel) * scale + floor,
    };
    let exact = L::splat(BOX_DISTANCE_SLACK) * scale + floor;
    Group {
        pair: Pair { ha, hb, r, ar, t },
        abs_tol,
        exact,
        qa,
        ta,
    }
}

/// One group of four rows; the statements follow `box_box_distance` and `Obb3`.
#[inline(always)]
fn solve_group<L: Lanes>(g: &Group<L>) -> [BoxLane; 4] {
    let (pr, abs_tol, exact) = (&g.pair, g.abs_tol, g.exact);
    let (ha, hb, ar, t) = (&pr.ha, &pr.hb, &pr.ar, &pr.t);

    // `Obb3::deepest`: the running maximum over A's faces, B's faces, the nine edge pairs.
    let mut best = L::splat(f64::NEG_INFINITY);
    let mut k = L::ZERO;
    let mut take = |s: L, at: f64| {
        let more = s.simd_gt(best);
        best = sel(more, s, best);
        k = sel(more, L::splat(at), k);
    };
    for i in 0..3 {
        take(t[i].abs() - ha[i] - dot(hb, &ar[i]), i as f64);
    }
    let tc: V3<L> = arr3(|j| dot(t, &pr.col(j)));
    let face_b: V3<L> =
        arr3(|j| tc[j].abs() - (ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j]) - hb[j]);
    for (j, &s) in face_b.iter().enumerate() {
        take(s, (3 + j) as f64);
    }
    let edges = [
        pr.edge(0, 0),
        pr.edge(0, 1),
        pr.edge(0, 2),
        pr.edge(1, 0),
        pr.edge(1, 1),
        pr.edge(1, 2),
        pr.edge(2, 0),
        pr.edge(2, 1),
        pr.edge(2, 2),
    ];
    for (e, &(s, ..)) in edges.iter().enumerate() {
        take(s, (6 + e) as f64);
    }

    // The winner's unit axis `n` and separation (an edge axis re-measured along `n`), and
    // for an edge pair its directions `i` (A) and `j` (B) as masks.
    let is_a = k.simd_lt(L::splat(3.0));
    let is_e = k.simd_ge(L::splat(6.0));
    // Written as values, not as updates of arrays in a loop: the compiler kept a loop's arrays
    // on the stack and merged each `x[i] = sel(m, y, x[i])` into a masked store
    // (`vmaskmovpd`), which Zen 3 splits into many micro-ops and cannot forward to the loads
    // that follow it (`profile_driver box batch convexity 2000 1`: 2,535,559 → 2,490,551
    // instructions). The masks are disjoint (one axis per lane), so the order of the selects
    // does not matter.
    let face_a = arr3(|i| sel(k.simd_eq(L::splat(i as f64)), sign(t[i]), L::ZERO));
    let n = (0..3).fold(face_a, |n, i| {
        let m = k.simd_eq(L::splat((3 + i) as f64));
        sel3(m, &scale(&pr.col(i), sign(tc[i])), &n)
    });
    let em: [L; 9] = std::array::from_fn(|e| k.simd_eq(L::splat((6 + e) as f64)));
    let ia = arr3(|i| em[3 * i] | em[3 * i + 1] | em[3 * i + 2]);
    let jb = arr3(|j| em[j] | em[3 + j] | em[6 + j]);
    let (tl_w, len_w, c1_w, c2_w) = edges.iter().zip(em).fold(
        (L::ONE, L::ONE, L::ZERO, L::ZERO),
        |(tl_w, len_w, c1_w, c2_w), (&(_, tl, len, c1, c2), m)| {
            (
                sel(m, tl, tl_w),
                sel(m, len, len_w),
                sel(m, c1, c1_w),
                sel(m, c2, c2_w),
            )
        },
    );
    // `Obb3::edge_unit`: `n[i1] = −r[i2][j]·k`, `n[i2] = r[i1][j]·k`, `n[i] = 0`.
    let kk = sign(tl_w) / len_w;
    let n_e = arr3(|c| {
        let (at_i1, at_i2) = (ia[(c + 2) % 3], ia[(c + 1) % 3]);
        sel(at_i1, c1_w * kk, sel(at_i2, c2_w * kk, L::ZERO))
    });
    let n = sel3(is_e, &n_e, &n);
    let sep = sel(is_e, pr.separation(&n), best);

    // Start pairs of the three features (all computed, one kept per lane).
    let cb = pr.corner_b(&n);
    let ca = pr.corner_a(&n);
    // Face of A: B's corner along −n and its nearest point in A.
    let v = pr.b_to_a(&cb);
    let (pa_f, qa_f) = (clamp_box(&v, ha), v);
    // Face of B: A's corner along n and its nearest point in B.
    let ca_b = pr.in_b(&ca);
    let qb_f = pr.b_to_a(&clamp_box(&ca_b, hb));
    // Edge pair: the support edges' closest points (`segment_segment`).
    let (mut a0, mut a1, mut b0, mut b1) = (ca, ca, cb, cb);
    for c in 0..3 {
        a0[c] = sel(ia[c], -ha[c], a0[c]);
        a1[c] = sel(ia[c], ha[c], a1[c]);
        b0[c] = sel(jb[c], -hb[c], b0[c]);
        b1[c] = sel(jb[c], hb[c], b1[c]);
    }
    let (b0, b1) = (pr.b_to_a(&b0), pr.b_to_a(&b1));
    let d1 = sub(&a1, &a0);
    let d2 = sub(&b1, &b0);
    let rr = sub(&a0, &b0);
    let (a, e, f) = (dot(&d1, &d1), dot(&d2, &d2), dot(&d2, &rr));
    let (c, b) = (dot(&d1, &rr), dot(&d1, &d2));
    let denom = a * e - b * b;
    let s0 = sel(
        denom.simd_gt(L::ZERO),
        clamp((b * f - c * e) / denom, L::ZERO, L::ONE),
        L::ZERO,
    );
    let t0 = (b * s0 + f) / e;
    let below = t0.simd_lt(L::ZERO);
    let above = t0.simd_gt(L::ONE);
    let s_lo = clamp(-c / a, L::ZERO, L::ONE);
    let s_hi = clamp((b - c) / a, L::ZERO, L::ONE);
    let s = sel(below, s_lo, sel(above, s_hi, s0));
    let tt = sel(below, L::ZERO, sel(above, L::ONE, t0));
    let pe = add(&a0, &scale(&d1, s));
    let qe = add(&b0, &scale(&d2, tt));
    let is_b = !(is_a | is_e);
    let p = sel3(is_a, &pa_f, &sel3(is_b, &ca, &pe));
    let q = sel3(is_a, &qa_f, &sel3(is_b, &qb_f, &qe));
    // (`segment_segment` has other branches for a zero-length edge: declined.)
    let edge_ok = !is_e | (a.simd_gt(L::ZERO) & e.simd_gt(L::ZERO));

    // The first round of `box_box_distance`'s check.
    let d = sub(&q, &p);
    let dist = dot(&d, &d).sqrt();
    let u = scale(&d, L::ONE / dist);
    let lower = pr.separation(&u);
    let apart = sep.simd_gt(abs_tol + abs_tol)
        & edge_ok
        & dist.simd_gt(L::ZERO)
        & dist.simd_lt(L::splat(f64::INFINITY))
        & !(dist - lower).simd_gt(exact);

    // Overlapping: `Obb3::common_point`'s first six candidates in its order — B's centre
    // clamped into A, A's centre, A's centre's nearest point in B clamped into A, B's corner
    // along −n clamped into A (the face-of-A start point `pa_f`), A's corner along n, and for
    // an edge pair A's support-edge point `pe` clamped into A (only where it is the scalar
    // `support_edges_closest`'s: both edges of positive length).
    let slack = L::splat(0.25) * abs_tol;
    let s2 = slack * slack;
    let x1 = clamp_box(t, ha);
    let in1 = outside2(&pr.in_b(&x1), hb).simd_le(s2);
    let o_b = pr.in_b(&[L::ZERO; 3]);
    let in0 = outside2(&o_b, hb).simd_le(s2);
    let x2 = clamp_box(&pr.b_to_a(&clamp_box(&o_b, hb)), ha);
    let in2 = outside2(&pr.in_b(&x2), hb).simd_le(s2);
    let in3 = outside2(&pr.in_b(&pa_f), hb).simd_le(s2);
    let in4 = outside2(&ca_b, hb).simd_le(s2);
    let x5 = clamp_box(&pe, ha);
    let in5 = is_e & edge_ok & outside2(&pr.in_b(&x5), hb).simd_le(s2);
    let x = sel3(
        in1,
        &x1,
        &sel3(
            in0,
            &[L::ZERO; 3],
            &sel3(in2, &x2, &sel3(in3, &pa_f, &sel3(in4, &ca, &x5))),
        ),
    );
    let over = sep.simd_le(L::ZERO);
    let common = in1 | in0 | in2 | in3 | in4 | in5;

    // World frame (`transform_point`, `transform_vector`): A's point (or the common point),
    // B's point, the normal.
    let on_a = sel3(apart, &p, &x);
    let wa = add(&rotate(&g.qa, &on_a), &g.ta);
    let wb = add(&rotate(&g.qa, &q), &g.ta);
    let wn = rotate(&g.qa, &sel3(apart, &u, &n));
    let (apart, over, common) = (apart.to_bitmask(), over.to_bitmask(), common.to_bitmask());
    // A loop in this function, not an `array::from_fn` closure: whether LLVM inlined the
    // closure into the AVX2 kernel depended on its heuristics, which code elsewhere tipped,
    // and out of line it ran as baseline code reading the lanes back from memory
    // (`profile_driver box batch convexity 2000 1`: 2,273,944 → 2,534,543 instructions, the
    // batch ~25% slower, when that first happened; out of line again with rustc 1.95: 2,490,551
    // → 2,367,723 instructions with this loop). Forcing it in through an `#[inline(always)]`
    // method on a struct of the outputs, or a macro per lane, ran 3–4× slower still (not
    // understood; the time is not in instructions callgrind counts).
    let mut out = [BoxLane::Declined; 4];
    for (l, o) in out.iter_mut().enumerate() {
        if apart >> l & 1 == 1 {
            *o = BoxLane::Separated {
                point_a: lane3(&wa, l),
                point_b: lane3(&wb, l),
                normal: lane3(&wn, l),
                dist: dist.to_array()[l],
                lower: lower.to_array()[l],
                abs_tol: abs_tol.to_array()[l],
            };
        } else if over >> l & 1 == 1 {
            *o = BoxLane::Overlap {
                x: (common >> l & 1 == 1).then(|| lane3(&wa, l)),
                sep: sep.to_array()[l],
                n: lane3(&n, l),
                normal: lane3(&wn, l),
                abs_tol: abs_tol.to_array()[l],
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::test_rng::lcg;
    use glam::DQuat;

    /// Random box pairs (some flat, some with aligned axes, some far from the origin).
    fn inputs(n: usize, reach: f64) -> Vec<(Cuboid<DVec3>, Pose3, Cuboid<DVec3>, Pose3)> {
        let mut s = 0x5eed_u64;
        let mut r = |lo: f64, hi: f64| lo + (hi - lo) * 0.5 * (lcg(&mut s) + 1.0);
        (0..n)
            .map(|i| {
                let mut h = || DVec3::new(r(0.2, 1.0), r(0.2, 1.0), r(0.2, 1.0));
                let (mut ha, hb) = (h(), h());
                if i % 9 == 0 {
                    ha.y = 0.0;
                }
                let mut q = || {
                    if i % 5 == 0 {
                        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2)
                    } else {
                        DQuat::from_xyzw(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0))
                            .normalize()
                    }
                };
                let (qa, qb) = (q(), q());
                let far = if i % 7 == 0 { 1e6 } else { 0.0 };
                let ta = DVec3::new(r(-1.0, 1.0) + far, r(-1.0, 1.0), 0.0);
                let tb = ta + DVec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)) * reach;
                let (pa, pb) = (Pose3::new(ta, qa).unwrap(), Pose3::new(tb, qb).unwrap());
                (Cuboid::new(ha).unwrap(), pa, Cuboid::new(hb).unwrap(), pb)
            })
            .collect()
    }

    /// The lanes' set-up is `BoxSetup::new` on `MinkowskiDifference::new`, bit for bit, on
    /// both kernels (the relative pose, the rotation matrix's columns, the tolerances).
    #[test]
    fn box_lane_setup_equals_the_scalar_setup_bit_for_bit() {
        let rows = inputs(4001, 3.0);
        for tols in [
            Tolerances::of(&Options::default()),
            Tolerances::of(&Options {
                abs_tolerance: Some(1e-7),
                ..Options::default()
            }),
        ] {
            let opts = Options {
                rel_tolerance: tols.rel,
                abs_tolerance: tols.abs,
                ..Options::default()
            };
            for (g, group) in rows.chunks(4).enumerate() {
                let ins: Vec<BoxInput> = group
                    .iter()
                    .map(|(a, pa, b, pb)| BoxInput::of(a, pa, b, pb))
                    .collect();
                let row = |l: usize| &ins[l.min(ins.len() - 1)];
                let lanes: [&BoxInput; 4] = core::array::from_fn(row);
                let set = setup::<wide::f64x4>(&lanes, tols);
                let (pr, abs_tol, exact) = (&set.pair, set.abs_tol, set.exact);
                for (l, (a, pa, b, pb)) in group.iter().enumerate() {
                    let mink = MinkowskiDifference::new(a, pa, b, pb);
                    let want = BoxSetup::new(a.half_extents(), b.half_extents(), &mink, &opts);
                    let at = |x: wide::f64x4| x.to_array()[l].to_bits();
                    let o = &want.obb;
                    for i in 0..3 {
                        assert_eq!(at(pr.t[i]), o.t[i].to_bits(), "group {g} lane {l}");
                        for j in 0..3 {
                            assert_eq!(at(pr.r[i][j]), o.r[i][j].to_bits(), "group {g}");
                            assert_eq!(at(pr.ar[i][j]), o.abs_r[i][j].to_bits(), "group {g}");
                        }
                    }
                    assert_eq!(at(abs_tol), want.abs_tol.to_bits(), "group {g} lane {l}");
                    assert_eq!(at(exact), want.exact.to_bits(), "group {g} lane {l}");
                }
            }
        }
    }

    /// The AVX2 and the baseline kernels give the same lanes, bit for bit (a CPU without
    /// AVX2 runs the baseline twice), and every kind of answer occurs: overlaps that need the
    /// scalar search only with an absolute tolerance far below the coordinates' rounding,
    /// where the candidates' rounding exceeds the slack (with the default tolerances the six
    /// candidates found a common point for every overlap of 400,000 such rows).
    #[test]
    fn box_lane_kernels_agree_bit_for_bit() {
        let rows: Vec<BoxInput> = inputs(4003, 2.0)
            .iter()
            .map(|(a, pa, b, pb)| BoxInput::of(a, pa, b, pb))
            .collect();
        let tiny = Options {
            abs_tolerance: Some(1e-17),
            ..Options::default()
        };
        for (opts, searched) in [(Options::default(), false), (tiny, true)] {
            let tols = Tolerances::of(&opts);
            let run = |kernel| {
                let mut out = vec![BoxLane::Declined; rows.len()];
                solve(kernel, &rows, tols, &mut |i, l| out[i] = *l);
                out
            };
            let (avx, base) = (run(Kernel::Avx2), run(Kernel::Baseline));
            let key = |l: &BoxLane| format!("{l:?}");
            for (i, (x, y)) in avx.iter().zip(&base).enumerate() {
                assert_eq!(key(x), key(y), "row {i}");
            }
            let count = |f: fn(&BoxLane) -> bool| base.iter().filter(|l| f(l)).count();
            let apart = count(|l| matches!(l, BoxLane::Separated { .. }));
            let common = count(|l| matches!(l, BoxLane::Overlap { x: Some(_), .. }));
            let search = count(|l| matches!(l, BoxLane::Overlap { x: None, .. }));
            let declined = count(|l| matches!(l, BoxLane::Declined));
            assert!(
                apart > 1000 && common > 500 && (search > 0) == searched && declined > 0,
                "{apart} {common} {search} {declined}"
            );
        }
    }
}
