//! EPA: penetration depth, normal and contact points of two convex shapes, or their signed
//! distance when they are apart.
//!
//! # What it computes
//! [`penetration`] returns a *signed depth*: `depth ≥ 0` when the shapes intersect (moving B
//! by `depth · normal` makes them just touch), and `depth = −distance` when they are
//! separated (the fields are then GJK's closest points and normal). In both cases
//! `point_a = point_b + depth · normal` up to rounding, `normal` is a unit vector in the world
//! frame pointing from A toward B, and `point_a` lies on A's supporting plane along `normal`,
//! `point_b` on B's along `−normal`. Each is on its shape's surface up to half the error of
//! the closest face's barycentric weights (see `balanced`: tiny except on sliver faces, where
//! it was measured at 1e-7 on a 36-unit needle).
//!
//! For a convex `K = core(A) − core(B)` containing the origin, the core depth is
//! `min_{|n|=1} h_K(n)` (`h_K` the support function): the distance from the origin to the
//! boundary of `K`, attained on a facet of `K` for a polytope. The full shapes are
//! `core ⊕ ball(r)`, so their depth is that plus `r_A + r_B` along the same normal.
//!
//! # Source
//! G. van den Bergen, *Collision Detection in Interactive 3D Environments* (2003), §4.3.5
//! ("penetration depth", the expanding polytope algorithm); C. Ericson, *Real-Time Collision
//! Detection* (2005), §9.5; the simplex blow-up follows Bullet's `btGjkEpa2` and Jolt's
//! `EPAPenetrationDepth`.
//!
//! # Algorithm
//! 1. GJK (`gjk::Run::drive`) on the cores, in A's frame (see [`crate::gjk::minkowski`]).
//! 2. Cores apart by `d > tol` (tol = GJK's absolute touch tolerance), and either GJK proved
//!    the shapes separated or `d > 1e-6 · (size_A + size_B)`: no EPA. The depth is
//!    `r_A + r_B − d` (negative when separated), the normal is GJK's closest-point direction
//!    and the points are the core closest points pushed out by the radii.
//! 3. Cores overlapping or touching within `tol`, or GJK proved no separation and its upper
//!    bound on the core distance is below `1e-6 · (size_A + size_B)` (the direction of such a
//!    tiny closest point is poorly determined): EPA on the cores, starting from GJK's final
//!    simplex. A simplex with fewer than `DIM + 1` affinely independent points is *blown up*
//!    by support points along directions orthogonal to it (both signs); if every such
//!    direction finds nothing farther than `ε` from the simplex, `K` is flat and the answer
//!    is the defined one below. Then (3D) the closest face of the polytope is repeatedly
//!    replaced: take the support point `w` along its outward normal `n`; stop when
//!    `n·w − dist ≤ max(abs_tol, rel_tol · |dist|)`, or when the least support value `n'·w'`
//!    over every normal queried so far is within that tolerance of `dist` (the support-point
//!    gap bound: `dist ≤ depth ≤ min n'·w'`, which pins a curved `K`'s depth down long before
//!    any face is final, and then answers along that `n'`); otherwise delete every face `w` sees
//!    (a flood fill over face adjacency starting at the closest face), and fan the horizon
//!    loop to `w`. 2D is the polygon version: insert `w` into the closest edge.
//!    Contact points: the barycentric coordinates of the origin's projection on the closest
//!    face, applied to the `a` and `b` parts of its support points.
//! 4. Add `r_A + r_B` to the core depth and push the contact points out along the normal by
//!    the radii; transform to the world frame.
//!
//! # Warm start ([`penetration_cached`], 3D)
//! The idea of incremental penetration-depth methods (reuse the previous frame's polytope
//! instead of rebuilding it; van den Bergen 2003 §4.3.5 for the polytope, the frame-to-frame
//! reuse as in incremental/"warm" EPA variants of physics engines): [`EpaCache`] keeps GJK's
//! last simplex and the final polytope of the previous query on the pair, its vertices as
//! support points of A (A's frame) and of B (B's own frame). The next query first re-places
//! the cached GJK simplex under the new relative pose: when its barycentric coordinates of the
//! origin are all `≥ 0` (a GJK run would stop there with no support call), they give the
//! common-point certificate and no GJK run is made. It then re-places the polytope's vertices
//! (points of `K` again) and accepts the polytope if every face, under the new pose, still lies
//! in a half-space `n·x ≥ dist > vis_eps` not containing the origin: its stored normal with
//! the least new vertex value as `dist` (lazy: no plane rebuilt), or else its rebuilt plane
//! (full). Such a surface need not be convex any more (a vertex of the old `K` may have stopped
//! being extreme), but it still certifies its least `dist` `L` as a lower bound on the core
//! depth: the central projection of the surface onto the unit sphere has degree ≥ 1 (full:
//! every face positively oriented; lazy: no face met the origin while the vertices moved, so
//! the degree is the stored polytope's), so every direction meets a face at distance ≥ `L`,
//! and those points are in `K` (proof in `epa3::rebuild`). The expansion then runs the same
//! loop as a cold one from that polytope (building a lazy face's plane when the closest-face
//! scan reaches it, every plane before the first new vertex, and checking every closest
//! face's projection, as its shortcut assumes convexity), and an answer is accepted only when
//! its support value is within the stopping tolerance of the least `dist` of *all* faces at
//! that moment: the certified interval `[L, n·w]` is as narrow as a cold one's, so the answer
//! is as exact. Any other exit (the simplex not holding the origin, a failed check, a
//! non-converged stop, a carve that breaks, a repeated vertex) falls back to the cold path (a
//! GJK run from the cached simplex, then EPA from GJK's simplex). On a coherent trajectory
//! the closest face is usually final already: one support call and about one plane build
//! prove it.
//!
//! Tolerances: `abs_tol = opts.rel_tolerance · (size_A + size_B) + 4ε_mach · magnitude` (the
//! rounding floor GJK uses too, see `MinkowskiDifference::magnitude`), `rel_tol =
//! opts.rel_tolerance`; the flatness threshold `ε = max(abs_tol, GJK touch tolerance)`.
//! With the origin inside the polytope, `face dist ≤ depth_core ≤ n·w` holds at every
//! iteration (the polytope is inside `K`, and `h_K(n) ≥ min h_K`), so at convergence the core
//! depth is within the stopping gap. With the origin just outside (touching, or a hair
//! apart), the chosen face has `dist ≤ 0` and at convergence `dist ≈ h_K(n) ≥ −dist(0, K)`:
//! the signed answer is within the gap of `[−dist(0, K), 0]`.
//!
//! # Complexity
//! GJK as documented there, then per EPA iteration one support call plus O(F) for the
//! closest-face scan and the horizon (F ≤ 2V − 4 faces, V ≤ 4 + iterations vertices). The
//! iterations are capped by `opts.max_iterations` and the polytope by 1024 vertices. All
//! buffers live in [`Context`] (cleared, never shrunk), so a warmed-up context allocates
//! nothing. A warm start adds O(V + F) to re-place and check the cached polytope (no support
//! call; lazy: three dot products per face and no square root) and O(1) to keep the final one
//! (buffers swapped, not copied; O(V + F) to check the adjacency and compact it when the query
//! added vertices); a warm expansion that gives up is followed by a cold one, so a query costs
//! at most two capped expansions. The cache keeps polytopes of up to 512 vertices. Measured
//! (callgrind, instructions per query on the benchmark trajectories, `profile_driver SET
//! traj-cold` ÷ `traj-warm`, 2000 steps): hull8 13.2k ÷ 5.0k (2.6×), hull32 21.9k ÷ 6.9k
//! (3.2×), poly128 46.7k ÷ 12.1k (3.9×), poly1024 91.0k ÷ 27.1k (3.4×); wall time (`speed`,
//! medians, before the last instruction trims) hull8 3.0×, hull32 3.7×. Of a warm hull8 query
//! about 0.86k instructions go to the lazy re-check of ~12 faces, 0.8k to the closest-face
//! scans (2.25 scans, 1.7 planes built), 0.3k to the one support call and 0.3k to the
//! certificate from the cached GJK simplex. A cold hull8 query (`profile_driver hull8
//! penetration`: 13.5k, GJK included) spends 3.4k building new faces (`epa3::stitch`, ~180
//! instructions a face, ~3.8 faces an iteration), 1.2k carving, 0.9k on the tetrahedron,
//! 0.8k on the closest-face scans and 2.3k in support calls (GJK's too).
//!
//! # Preconditions
//! Shapes and poses as validated by their constructors (finite; support maps returning
//! points that maximise `d·x`). A `Custom` support function that breaks its contract can
//! only produce a poor answer, never a panic or NaN.
//!
//! # Failure modes (never a panic, a NaN or a non-unit normal)
//! * `IterationLimit`: the cap on iterations or vertices was hit; the answer carries the
//!   certified interval `[depth_lower, depth_upper]` (closest face, least support value) and
//!   its depth is the upper end, attained along its normal, so that moving B by
//!   `depth · normal` leaves the shapes touching or apart by at most the interval's width
//!   (the closest face's answer when it is within the tolerance of the upper end). A cylinder
//!   against itself (half-height 1, radius 0.5) reaches the cap with depth 1 exactly and
//!   interval width 8e-5; a cone against itself with 4/√17 and 1.2e-4. Polytopes
//!   converge in a few dozen iterations for small hulls; pairs of 1024-vertex hulls needed
//!   more than 128 on 11 of 49,980 benchmark pairs, hence the default cap of 512. Curved
//!   cores converge fast when the depth has a clear minimum, but slowly when it is nearly the
//!   same over a wide range of directions (a small body near the axis of a cylinder: the
//!   polytope must then resolve the whole circle, and the gap falls like `r·π²/(2N²)` with
//!   `N` vertices: ≈ 1e-4 relative after 128 iterations, about 16 times less at the default
//!   cap of 512).
//! * `Degenerate`: a support point was not finite, or rounding broke the polytope (the new
//!   point repeats a vertex, a new face has no normal, or the horizon is not one loop); the
//!   answer comes from the closest face before the failing step. A GJK run that ends
//!   without a separation proof with the cores more than `1e-6 · scale` apart (a stall far
//!   from contact) is passed through with GJK's status; the depth is then
//!   `r_A + r_B − (GJK's upper bound on the core distance)`.
//! * No GJK point at all (a `Custom` support returning non-finite points): `Degenerate`,
//!   depth 0, normal = A's x axis, both points = A's centre, verdict undetermined.
//!
//! # Defined answers
//! `ε` is the flatness threshold above; "sign rule": the normal `n` of a flat set is
//! oriented so that `n · (centre_B − centre_A) > 0` when that product exceeds `1e-9 ·
//! |centre_B − centre_A|` in magnitude, otherwise so that its largest-magnitude coordinate
//! in A's frame is positive (first such coordinate on ties). The flat rows assume the origin
//! lies on the flat set to `ε` (shapes that overlap); if GJK left it farther off (only possible
//! with no separation proof and a core distance below `1e-6 · scale`), the depth is minus that
//! offset and the normal points across it, which is then the exact answer.
//!
//! | case | depth | normal | points | status |
//! |---|---|---|---|---|
//! | separated (cores apart by `d > r_A + r_B`) | `−distance` | GJK's, A→B | GJK's closest points | GJK's |
//! | rounded shapes whose cores are apart by `d ≤ r_A + r_B` | `r_A + r_B − d` | core closest-point direction (EPA's face normal when `d ≤ 1e-6 · scale`) | core closest points ± radii | GJK's (EPA's) |
//! | touching (distance 0, or within the touch tolerance) | `0` (clamped: verdict intersecting) | a valid contact normal (`h_A(n) + h_B(−n) ≈ 0`) | the contact point | Converged |
//! | flat `K` (3D: coplanar triangles/flat hulls in one plane; 2D: collinear segments) | `r_A + r_B` (0 for polytopes) | the plane's (2D: line's) normal, sign rule | GJK's common point ± radii | Converged |
//! | `K` a segment in 3D (e.g. collinear segments) | `r_A + r_B` | `any_orthonormal(direction)`, sign rule | common point ± radii | Converged |
//! | `K` a point (concentric spheres, coincident points) | `r_A + r_B` | A's local x axis, in world | common point ± radii along x | Converged |
//! | identical shapes at identical poses | their full depth (two unit cubes: 2) | a face normal of `K` (deterministic) | on the surfaces | Converged |
//! | huge size ratios (1e-3 box vs 1e4 box) | exact for polytopes (support points are exact vertices) | face normal | on the surfaces | Converged |
//! | duplicate hull vertices, segments, single points | as for their convex hulls | | | |

mod epa2;
mod epa3;
mod warm;

use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::gjk::{self, Mode};
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use crate::shape::{Leaf, SupportMap};
use crate::verdict::Status;
use crate::verdict::{CommonPoint, SeparatingAxis, Verdict};

/// A GJK run without a separation proof whose upper bound on the core distance is below
/// this fraction of `size_A + size_B` hands over to EPA.
const NEAR_CONTACT: f64 = 1e-6;

/// Dimensions EPA is implemented for (2D and 3D); sealed, implemented exactly for `DVec2`
/// and `DVec3`.
pub trait EpaSpace: Vector + sealed::Sealed {}
impl EpaSpace for glam::DVec2 {}
impl EpaSpace for glam::DVec3 {}

/// The dimension-specific expansion, out of reach of other crates.
mod sealed {
    use super::warm::Cached;
    use super::Context;
    use crate::gjk::minkowski::MinkowskiDifference;
    use crate::gjk::simplex::Simplex;
    use crate::math::vector::Vector;
    use crate::shape::SupportMap;
    use crate::verdict::Status;

    /// Settings of one expansion (A's frame, cores).
    #[derive(Clone, Copy, Debug)]
    pub struct Params<V> {
        /// Absolute stopping tolerance on `n·w − dist`.
        pub abs_tol: f64,
        /// Relative stopping tolerance (times `|dist|`).
        pub rel_tol: f64,
        /// Flatness threshold: support points closer than this to the current simplex's
        /// affine hull do not extend it.
        pub eps: f64,
        /// Margin of the visibility test and of the duplicate-vertex test (≪ `abs_tol`).
        pub vis_eps: f64,
        pub max_iterations: u32,
        /// `centre_B − centre_A` in A's frame, for the sign rule of flat answers.
        pub toward_b: V,
        /// GJK's core witness points (A's frame): the answer's points for flat `K`.
        pub witness_a: V,
        pub witness_b: V,
        /// GJK's closest point of `K` (A's frame): a projection, as accurate as `K`'s own
        /// coordinates allow, unlike `witness_a − witness_b`, which carries the weights' error.
        pub closest: V,
    }

    /// The result of an expansion on the cores, in A's frame.
    #[derive(Clone, Copy, Debug)]
    pub struct Expansion<V> {
        pub status: Status,
        pub iterations: u32,
        /// Core depth (may be slightly negative when the cores only touch within tolerance).
        pub depth: f64,
        /// Unit normal from A toward B.
        pub normal: V,
        /// Contact point on A's core and on B's core.
        pub pa: V,
        pub pb: V,
        /// Certified bounds on the core depth `min h_K`: the closest face's offset when the
        /// origin is inside the polytope (else `−∞`), and the least support value `n·w` found
        /// (else `+∞`). Defined answers are exact: both equal `depth`.
        pub lower: f64,
        pub upper: f64,
    }

    pub trait Sealed: Vector {
        /// EPA on `core(A) − core(B)` from GJK's final simplex, which must contain the origin
        /// up to GJK's touch tolerance; or (3D, `warm` given) from the polytope `warm` holds
        /// when it passes the checks of `epa3::rebuild`, `warm` then updated with the final
        /// polytope (or emptied).
        fn expand<A, B>(
            mink: &MinkowskiDifference<'_, Self, A, B>,
            start: &Simplex<Self>,
            params: &Params<Self>,
            ctx: &mut Context<Self>,
            warm: Option<&mut Cached<Self>>,
        ) -> Expansion<Self>
        where
            A: SupportMap<Self> + ?Sized,
            B: SupportMap<Self> + ?Sized;

        /// The warm expansion alone (3D): from the polytope `cache` holds, when it passes the
        /// checks of `epa3::rebuild` and the expansion converges to a verified answer (the
        /// cache then holds the final polytope); otherwise `None`, the cache emptied. 2D:
        /// always `None`, the cache untouched.
        fn warm<A, B>(
            mink: &MinkowskiDifference<'_, Self, A, B>,
            params: &Params<Self>,
            ctx: &mut Context<Self>,
            cache: &mut Cached<Self>,
        ) -> Option<Expansion<Self>>
        where
            A: SupportMap<Self> + ?Sized,
            B: SupportMap<Self> + ?Sized;
    }
}

use sealed::{Expansion, Params};

/// The answer when a support point is not finite before the polytope exists.
fn broken<V: Vector>(params: &Params<V>, iterations: u32) -> Expansion<V> {
    Expansion {
        status: Status::Degenerate,
        iterations,
        depth: 0.0,
        normal: V::AXIS,
        pa: params.witness_a,
        pb: params.witness_b,
        lower: f64::NEG_INFINITY,
        upper: f64::INFINITY,
    }
}

/// The least support value found along the polytope's face normals: `value = n·w = h_K(n)`
/// for the unit `n`, an upper bound on the core depth `min h_K`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Upper<V> {
    pub value: f64,
    pub n: V,
    pub w: SupportPoint<V>,
}

impl<V: Vector> Upper<V> {
    /// Keeps `(n, w)` in `best` if its support value is the least so far.
    #[inline]
    pub fn record(best: &mut Option<Upper<V>>, n: V, w: SupportPoint<V>) {
        let value = n.dot(w.w);
        if best.is_none_or(|b| value < b.value) {
            *best = Some(Upper { value, n, w });
        }
    }

    /// The answer along this direction: depth `value`, and the support points of A and B
    /// with the tangential part `w − value·n` split evenly ([`balanced`]), so that
    /// `pa − pb = value · n` while each stays on its shape's supporting plane.
    pub fn answer(&self, status: Status, iterations: u32, lower: f64) -> Expansion<V> {
        let (pa, pb) = balanced(self.w.a, self.w.b, self.n, self.value);
        Expansion {
            status,
            iterations,
            depth: self.value,
            normal: self.n,
            pa,
            pb,
            lower,
            upper: self.value,
        }
    }
}

/// The final answer of an expansion that stopped on face answer `face` (depth = the face's
/// offset) with least support value `best`: the face answer when it is within `tol` of the
/// upper bound (moving B by its depth leaves an overlap of at most `tol`), else the upper
/// bound's answer (moving B by it leaves a gap of at most `upper − lower`, as the ball of
/// radius `lower` lies in `K`). The bounds are filled in either way.
pub(crate) fn settle<V: Vector>(
    face: Expansion<V>,
    best: Option<Upper<V>>,
    tol: f64,
) -> Expansion<V> {
    let lower = if face.depth >= 0.0 {
        face.depth
    } else {
        f64::NEG_INFINITY
    };
    match best {
        Some(b) if b.value > face.depth + tol => b.answer(face.status, face.iterations, lower),
        _ => Expansion {
            lower,
            upper: best.map_or(f64::INFINITY, |b| b.value),
            ..face
        },
    }
}

/// The contact points `(pa, pb)` of a face, with `pa − pb = n·dist` restored. Clamped weights
/// (the origin's projection outside the face: the origin on or just outside the polytope near
/// an edge), or the weights' own error on a sliver face (cond·ε, far above the plane's), move
/// `pa` and `pb` along the face by different amounts, so `pa − pb` misses `n·dist` by a
/// residual lying in the face's plane (its component along `n` is rounding, as `pa − pb` is a
/// point of the face). Half of it is taken from each point: the convention holds to rounding,
/// the support values along `n` are unchanged, and each point moves by half the residual.
/// (Fuzz findings: a ball 1.6e-7 outside a sliver hull 670 units out, a residual of 1.1e-9 at
/// size 0.2; two rounded needle triangles touching 740 units out, 1.0e-7 at size 36.)
pub(crate) fn balanced<V: Vector>(pa: V, pb: V, n: V, dist: f64) -> (V, V) {
    let half = ((pa - pb) - n * dist) * 0.5;
    (pa - half, pb + half)
}

/// Whether a support point is usable (every coordinate finite).
///
/// Every point tested here comes from `MinkowskiDifference::support`, whose `w` is `a − b` as
/// computed; a coordinate of a difference is finite only if both operands are (an infinite or
/// NaN operand gives an infinite or NaN result), so testing `w` tests all nine coordinates.
/// And `w·0` is ±0 exactly when every coordinate of `w` is finite (`0·±∞` and `0·NaN` are
/// NaN, and NaN survives the sum): two float operations a coordinate instead of the integer
/// class test `is_finite` compiles to.
fn finite<V: Vector>(p: &SupportPoint<V>) -> bool {
    debug_assert!(!p.w.is_finite() || (p.a.is_finite() && p.b.is_finite()));
    debug_assert_eq!(p.w.is_finite(), p.w.dot(V::ZERO) == 0.0);
    p.w.dot(V::ZERO) == 0.0
}

/// A support point of the core difference, or the `broken` answer when it is not finite.
fn checked_support<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    d: V,
    params: &Params<V>,
) -> Result<SupportPoint<V>, Expansion<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let p = mink.support(d);
    if finite(&p) {
        Ok(p)
    } else {
        Err(broken(params, 0))
    }
}

/// The point among `pts` (then among the supports along the directions `dirs` makes, which
/// are only formed when no point of `pts` is farther than `ε`) maximising `metric`; used to
/// blow a degenerate start simplex up to full dimension.
#[inline]
fn farthest<V, A, B, const N: usize>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    pts: &[SupportPoint<V>],
    dirs: impl FnOnce() -> [V; N],
    metric: impl Fn(V) -> f64,
    params: &Params<V>,
) -> Result<(SupportPoint<V>, f64), Expansion<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut bi = usize::MAX;
    let mut bm = f64::NEG_INFINITY;
    for (i, p) in pts.iter().enumerate() {
        let m = metric(p.w);
        if m > bm {
            bm = m;
            bi = i;
        }
    }
    let mut best = (pts.get(bi).copied().unwrap_or_default(), bm);
    if best.1 > params.eps {
        return Ok(best);
    }
    for d in dirs() {
        let p = checked_support(mink, d, params)?;
        let m = metric(p.w);
        if m > best.1 {
            best = (p, m);
        }
    }
    Ok(best)
}

/// EPA settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOptions {
    /// Cap on EPA iterations (support calls after the initial polytope).
    pub max_iterations: u32,
    /// Relative tolerance of the stopping test; the absolute one is this times
    /// `size_A + size_B`.
    pub rel_tolerance: f64,
    /// Settings of the GJK run that precedes EPA.
    pub gjk: gjk::Options,
}

/// The short name of [`EpaOptions`] (as [`gjk::Options`] is of [`gjk::GjkOptions`]).
pub type Options = EpaOptions;

impl Default for EpaOptions {
    fn default() -> Self {
        EpaOptions {
            max_iterations: 512,
            rel_tolerance: 1e-10,
            gjk: gjk::Options::default(),
        }
    }
}

/// One face (3D) or edge (2D) of the polytope. `v` are indices into the vertex buffer,
/// `adj[i]` the face across edge `i = (v[i], v[i+1])` and `adj_edge[i]` that edge's index in
/// the neighbour. 2D keeps only `n` and `dist` (its vertices are the ring order).
#[derive(Clone, Copy, Debug, Default)]
struct Face<V> {
    v: [u32; 3],
    adj: [u32; 3],
    adj_edge: [u8; 3],
    /// Outward unit normal.
    n: V,
    /// `n · vertex`: the signed distance of the face's plane from the origin.
    dist: f64,
    /// The origin's projection on the face's plane lies in the face (to a relative `1e-9`).
    /// Only such faces can hold the closest boundary point when the origin is inside, and
    /// among coplanar faces (equal `dist`) only they give the right contact point. 3D
    /// computes it lazily, only for a face that is the least-offset one left (`checked`).
    inside: bool,
    /// `inside` has been computed (always true in 2D).
    checked: bool,
    alive: bool,
    /// 3D: `n` and `dist` are the plane of the face's current vertices. Otherwise (a face of a
    /// warm polytope not rebuilt yet, see `epa3::rebuild`) `n` is a unit vector and `dist` a
    /// lower bound with `n · vertex ≥ dist` for its three vertices (up to rounding).
    exact: bool,
}

/// A horizon edge: edge `edge` of the surviving face `face`, running `s → e` as seen from the
/// deleted side. The flood fill records the horizon in loop order (each edge starts where the
/// previous one ends).
#[derive(Clone, Copy, Debug, Default)]
struct HorizonEdge {
    face: u32,
    edge: u8,
    s: u32,
    e: u32,
}

/// Reusable buffers so that a query allocates nothing once warmed up.
#[derive(Clone, Debug, Default)]
pub struct Context<V> {
    /// Polytope vertices (3D: append-only store; 2D: the polygon in counter-clockwise order).
    verts: Vec<SupportPoint<V>>,
    /// Face store (3D, with free list) or edge data aligned with `verts` (2D).
    faces: Vec<Face<V>>,
    /// Dead face slots for reuse (3D).
    free: Vec<u32>,
    /// Flood-fill stack: (face, edge we entered through).
    stack: Vec<(u32, u8)>,
    horizon: Vec<HorizonEdge>,
    /// Per face slot (3D): the face's offset while it may still be the closest candidate
    /// (alive, and its origin projection inside or not yet checked, or the origin beyond it),
    /// `+∞` otherwise; the closest-face scan reads only this array.
    keys: Vec<f64>,
    /// Per vertex (3D): the stamp of the last horizon that started an edge there.
    marks: Vec<u32>,
    /// The current horizon's stamp (3D).
    stamp: u32,
    /// Some faces are stale (3D: a warm polytope accepted without rebuilding every plane).
    stale: bool,
    /// 3D: the least offset of the live faces the closest-face scan dropped from `keys` since
    /// the planes were last set, and the least offset of all live faces as of the last scan
    /// (the least key and `dropped`; exact until a carve deletes faces).
    dropped: f64,
    least: f64,
}

impl<V: Vector> Context<V> {
    /// Empty buffers; they grow on first use and are reused by later queries.
    pub fn new() -> Self {
        Context {
            verts: Vec::new(),
            faces: Vec::new(),
            free: Vec::new(),
            stack: Vec::new(),
            horizon: Vec::new(),
            keys: Vec::new(),
            marks: Vec::new(),
            stamp: 0,
            stale: false,
            dropped: f64::INFINITY,
            least: f64::INFINITY,
        }
    }

    /// Total capacity of the buffers, in elements (for allocation tests).
    pub fn capacity(&self) -> usize {
        self.verts.capacity()
            + self.faces.capacity()
            + self.free.capacity()
            + self.stack.capacity()
            + self.horizon.capacity()
            + self.keys.capacity()
            + self.marks.capacity()
    }

    fn clear(&mut self) {
        self.verts.clear();
        self.faces.clear();
        self.free.clear();
        self.stack.clear();
        self.horizon.clear();
        self.keys.clear();
        self.stale = false;
        self.dropped = f64::INFINITY;
    }
}

/// Result of a penetration query (world frame). Laid out like [`crate::gjk::Distance`]: every
/// vector, and the verdict's vector, at a multiple of 16 bytes (3D; see
/// [the layout note](crate::gjk#result-layout)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct Penetration<V> {
    /// Deepest point of A inside B (on A's surface); `point_b + depth · normal`.
    pub point_a: V,
    /// Penetration depth (≥ 0) or minus the distance when separated.
    pub depth: f64,
    /// Deepest point of B inside A (on B's surface).
    pub point_b: V,
    /// Certified lower bound on the signed depth (up to rounding): the polytope EPA built lies
    /// in the Minkowski difference, so the depth is at least its closest face's offset; for
    /// separated pairs minus GJK's upper bound on the distance. `−∞` when nothing bounds it.
    pub depth_lower: f64,
    /// Unit vector from A toward B.
    pub normal: V,
    /// Certified upper bound on the signed depth: the least `h_A(n) + h_B(−n)` over the unit
    /// directions EPA queried (the true depth is the minimum over all `n`). `+∞` when nothing
    /// bounds it. `depth` lies in `[depth_lower, depth_upper]`; on a converged answer the
    /// interval is within the stopping tolerance, and when the iteration cap is reached
    /// (curved shapes whose depth is attained along a whole circle of directions) `depth` is
    /// `depth_upper`, so that moving B by `depth · normal` leaves the shapes touching or apart
    /// by at most `depth_upper − depth_lower`.
    pub depth_upper: f64,
    /// GJK plus EPA iterations.
    pub iterations: u32,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// GJK's touch tolerance for this pair (gaps up to it count as touching).
    pub tolerance: f64,
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

/// Orients the unit normal `n` of a flat set by the sign rule of the module header.
pub(crate) fn orient_flat<V: Vector>(n: V, toward_b: V) -> V {
    let t = n.dot(toward_b);
    if t.abs() > 1e-9 * toward_b.length() {
        return if t < 0.0 { -n } else { n };
    }
    let mut k = 0;
    for i in 1..V::DIM {
        if n.coord(i).abs() > n.coord(k).abs() {
            k = i;
        }
    }
    if n.coord(k) < 0.0 {
        -n
    } else {
        n
    }
}

/// The answer when `K` lies within `ε` of an affine set `F` through `s0` (a line in 2D, a
/// plane or a line in 3D) and `n` is a unit vector orthogonal to `F` (for a line in 3D: along
/// the origin's offset from it, when that exceeds `ε`).
///
/// `h_K(±n) = ±n·s0` up to `ε`, and every other direction has a component along `F`, where
/// `K` extends on both sides of the origin's projection; so `min h_K = −|n·s0|`. When the
/// origin is on `F` (to `ε`) the depth is exactly 0 and `n` follows the sign rule; otherwise
/// the normal points so that `n·s0 < 0` (from A toward B) and the depth is `n·s0`.
///
/// That needs the origin's projection on `F` inside `K`. When GJK's closest point `v` is
/// farther than `|n·s0|` by more than `ε`, the projection may
/// miss `K` (the origin just outside it, beside an edge), where `min h_K = −dist(0, K)` lies
/// below the plane's `−|n·s0|`. Both are upper bounds of `min h_K` measured along their own
/// normals, so the direction `−v̂` is tried with one support call and taken when its support
/// value is lower by more than `ε` (then the support points are split as
/// [`Upper::answer`] splits them, by [`balanced`]); either way the interval's lower end reaches `−|v|`.
/// `v` is GJK's projection, not the witnesses' difference: on a 20-unit `K` a direction off
/// by 1e-8 rad moves the support value by 2e-7. Fuzz findings: a rounded point 1.8e-7 beside
/// a rounded triangle's edge, where the plane's answer was 2.4e-8 too deep; and a point near a
/// needle triangle, where the witnesses' difference (its weights are poor on a needle)
/// overstated the distance by 2.6e-8 and the plane's answer is the right one.
pub(crate) fn flat_answer<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    n: V,
    s0: V,
    params: &Params<V>,
) -> Expansion<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let c = n.dot(s0);
    let gap = params.closest.length();
    // The origin may be beside `K` (dist(0, K) = |v| > |c|): the interval's lower end must
    // then reach −|v|, whichever normal answers.
    let beside = gap - c.abs() > params.eps && gap.is_finite();
    if beside {
        let u = params.closest * (-1.0 / gap);
        let w = mink.support(u);
        let value = u.dot(w.w);
        if finite(&w) && value < -c.abs() - params.eps {
            return Upper { value, n: u, w }.answer(Status::Converged, 0, -gap - params.eps);
        }
    }
    let (normal, depth) = if c.is_nan() || c.abs() <= params.eps {
        (orient_flat(n, params.toward_b), 0.0)
    } else if c > 0.0 {
        (-n, -c)
    } else {
        (n, c)
    };
    // GJK's witnesses carry its weights' error, which on a needle simplex is far above that of
    // its closest point (a projection): balanced, as a clamped face's are (fuzz finding: a
    // needle triangle 8 long against a point 7.7e-9 from it, witnesses off by 7.6e-8 across
    // the needle).
    let (pa, pb) = balanced(params.witness_a, params.witness_b, normal, depth);
    Expansion {
        status: Status::Converged,
        iterations: 0,
        depth,
        normal,
        pa,
        pb,
        lower: if beside {
            depth.min(-gap) - params.eps
        } else {
            depth - params.eps
        },
        upper: depth + params.eps,
    }
}

/// The answer when `K` lies within `ε` of the point `s0`: A's x axis and depth 0 when
/// `|s0| ≤ ε` (concentric spheres), otherwise the exact `−s0/|s0|` and `−|s0|`.
pub(crate) fn point_answer<V: Vector>(s0: V, params: &Params<V>) -> Expansion<V> {
    let l = s0.length();
    let (normal, depth) = match (-s0).try_normalize() {
        Some(n) if l > params.eps => (n, -l),
        _ => (V::AXIS, 0.0),
    };
    Expansion {
        status: Status::Converged,
        iterations: 0,
        depth,
        normal,
        pa: params.witness_a,
        pb: params.witness_b,
        lower: depth - params.eps,
        upper: depth + params.eps,
    }
}

/// Penetration depth, normal and contact points, or the signed distance when separated.
///
/// See the module documentation for the contract, the defined answers of degenerate cases
/// and the failure modes. `ctx` holds the polytope buffers; reuse it across calls to avoid
/// allocating.
///
/// # Example
///
/// Two boxes `[-1, 1]³`, B shifted by 1.5 along x: they overlap by 0.5 along x. The normal
/// points from A toward B, and moving B by `depth · normal` separates the pair.
///
/// ```
/// use convexity::gjk::epa::{self, Context, Options};
/// use convexity::{Cuboid, DVec3, Pose3, Status};
///
/// let cube = Cuboid::new(DVec3::splat(1.0))?;
/// let pose_a = Pose3::IDENTITY;
/// let pose_b = Pose3::from_translation(DVec3::new(1.5, 0.0, 0.0))?;
///
/// let mut ctx = Context::new(); // reuse across calls to avoid allocating
/// let p = epa::penetration(&cube, &pose_a, &cube, &pose_b, &Options::default(), &mut ctx);
/// assert_eq!(p.status, Status::Converged);
/// assert!((p.depth - 0.5).abs() < 1e-9);
/// assert!(p.normal.distance(DVec3::X) < 1e-9);
/// assert_eq!(p.verdict.intersecting(), Some(true));
///
/// // Separated pairs answer minus the distance.
/// let apart = Pose3::from_translation(DVec3::new(2.5, 0.0, 0.0))?;
/// let s = epa::penetration(&cube, &pose_a, &cube, &apart, &Options::default(), &mut ctx);
/// assert!((s.depth + 0.5).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn penetration<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    ctx: &mut Context<V>,
) -> Penetration<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    solve(a, pose_a, b, pose_b, opts, ctx, None)
}

/// The closed-form answer ([`gjk::closed_form::penetration`]), on the concrete types when both
/// shapes are leaves of a dispatch enum (see `shape::Leaf`): the same answer without the
/// enum's dispatch (callgrind, `profile_driver enum-sphere penetration`: 714 → 576
/// instructions a query).
#[inline(always)]
fn closed_form<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
) -> Option<Penetration<V>>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    crate::shape::on_leaves!(a.leaf(), b.leaf(), |a, b| gjk::closed_form::penetration(
        a, pose_a, b, pose_b, opts
    ));
    gjk::closed_form::penetration(a, pose_a, b, pose_b, opts)
}

/// [`penetration`], warm-started from `cache` when one is given: GJK from its simplex, the
/// expansion (3D) from its polytope; the cache is updated with both.
fn solve<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    ctx: &mut Context<V>,
    mut cache: Option<&mut EpaCache<V>>,
) -> Penetration<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    // Two point sets through an enum (the common hull pair): the whole query on `Points`,
    // whose EPA is compiled for direct callers anyway (callgrind, `profile_driver enum-hull8
    // penetration`: 14,106 → 13,199 instructions a query; hull32 24,934 → 23,789). Other leaf
    // pairs dispatch only their closed forms (below): EPA per pair of leaves was ~400 KB of
    // machine code. (A cache then belongs to the leaf shapes' addresses, the same every call.)
    if let (Leaf::Points(a), Leaf::Points(b)) = (a.leaf(), b.leaf()) {
        return solve(a, pose_a, b, pose_b, opts, ctx, cache);
    }
    if let Some(c) = cache.as_deref_mut() {
        // Forgotten unless this query's expansion runs (and stores the polytope it ends with):
        // after a separation or a closed-form answer, the next overlap starts cold.
        c.poly.reused = false;
        if !c.poly.belongs_to(a, b) {
            c.poly.invalidate();
        }
    }
    if let Some(p) = closed_form(a, pose_a, b, pose_b, opts) {
        if let Some(c) = cache {
            c.poly.invalidate();
        }
        return p;
    }
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    if let Some(c) = cache.as_deref_mut() {
        if let Some((local, verdict, tolerance)) = warm_solve(&mink, pose_a, opts, ctx, c) {
            // Finished here rather than in `warm_solve`: an `Option<Penetration>` handed back
            // was copied into the answer with 8-byte loads over its just-stored status byte
            // and iteration count, which the store buffer cannot forward (perf annotate: 7% of
            // `solve`'s samples on a warm hull8 query).
            let out = finish(local, pose_a, true, verdict, tolerance);
            if out.depth.is_finite() && out.point_a.is_finite() && out.point_b.is_finite() {
                return out;
            }
        }
    }
    let mut gopts = opts.gjk;
    // At least one GJK iteration, so that there is a simplex to answer from.
    gopts.max_iterations = gopts.max_iterations.max(1);
    let mut r = gjk::Run::begin(&mink, &gopts);
    r.drive(
        &mink,
        &gopts,
        cache.as_deref().map(|c| &c.gjk),
        Mode::Distance,
    );
    let mut poly = None;
    if let Some(c) = cache {
        c.gjk.dir = Some(if r.v.length_squared() > 0.0 {
            r.v
        } else {
            r.lower_dir
        });
        c.gjk.store(&mink, &r.simplex);
        poly = Some(&mut c.poly);
    }
    // The verdict and tolerance as `gjk::summarize` gives them, without the closest points
    // and normal it would form too (the normal is only read for cores apart).
    let (gjk_verdict, tolerance) = gjk::decide(&mink, &r);
    let verdict = to_world(pose_a, gjk_verdict);
    let intersecting = verdict.intersecting() == Some(true);
    let ra = a.core_radius();
    let rb = b.core_radius();

    if r.simplex.len == 0 || !r.upper.is_finite() {
        if let Some(p) = poly {
            p.invalidate();
        }
        return fallback(a, pose_a, r.iterations, verdict, tolerance);
    }
    let (wa, wb) = r.simplex.witnesses();

    let scale = mink.scale();
    // The cores are within a hair of each other and GJK proved no separation: the direction
    // of its tiny `v` is then poorly determined (the difference of two nearly equal points),
    // while EPA from the simplex answers with a face normal of `K`, its signed depth
    // accurate to the tolerance.
    let near_contact =
        !matches!(gjk_verdict, Verdict::Separated(_)) && r.upper <= NEAR_CONTACT * scale;

    let local = if r.contains_origin || r.upper <= r.abs_tol || near_contact {
        core_epa(&mink, &r, opts, ctx, poly, (ra, rb), (wa, wb))
    } else {
        if let Some(p) = poly {
            p.invalidate();
        }
        cores_apart(&mink, &r, gjk::closest_normal(&r), (ra, rb), (wa, wb))
    };
    let iterations = local.iterations;
    let out = finish(local, pose_a, intersecting, verdict, tolerance);
    if out.depth.is_finite() && out.point_a.is_finite() && out.point_b.is_finite() {
        out
    } else {
        fallback(a, pose_a, iterations, verdict, tolerance)
    }
}

/// An answer in A's frame, before the touch clamp and the move to the world frame.
struct Local<V> {
    status: Status,
    iterations: u32,
    depth: f64,
    normal: V,
    pa: V,
    pb: V,
    lower: f64,
    upper: f64,
}

/// The cores overlap or touch (or are within a hair): EPA on the cores from GJK's simplex,
/// the radii `(ra, rb)` added back; `(wa, wb)` are GJK's witness points.
fn core_epa<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    r: &gjk::Run<V>,
    opts: &Options,
    ctx: &mut Context<V>,
    warm: Option<&mut warm::Cached<V>>,
    (ra, rb): (f64, f64),
    (wa, wb): (V, V),
) -> Local<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let params = params(mink, opts, r.abs_tol, (wa, wb), r.v);
    let e = V::expand(mink, &r.simplex, &params, ctx, warm);
    add_radii(e, r.iterations, r.upper, (ra, rb))
}

/// The expansion's settings for a pair whose GJK run has absolute tolerance `gjk_tol`,
/// witness points `(wa, wb)` and closest point `closest` (A's frame, cores).
fn params<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    opts: &Options,
    gjk_tol: f64,
    (wa, wb): (V, V),
    closest: V,
) -> Params<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    // The same mechanism as GJK's tolerance, with EPA's relative tolerance.
    let abs_tol = mink.tolerance(opts.rel_tolerance);
    Params {
        abs_tol,
        rel_tol: opts.rel_tolerance,
        eps: abs_tol.max(gjk_tol),
        vis_eps: 1e-13 * mink.scale() + mink.rounding_floor(),
        max_iterations: opts.max_iterations,
        toward_b: -mink.center(),
        witness_a: wa,
        witness_b: wb,
        closest,
    }
}

/// The core expansion `e` as a full-shape answer: the radii `(ra, rb)` added back, GJK's
/// iterations (`gjk_iterations`) counted, and the lower bound raised to minus GJK's upper bound
/// `gjk_upper` on the core distance (0 when its simplex held the origin).
fn add_radii<V: Vector>(
    e: Expansion<V>,
    gjk_iterations: u32,
    gjk_upper: f64,
    (ra, rb): (f64, f64),
) -> Local<V> {
    let rsum = ra + rb;
    let normal = e.normal;
    Local {
        status: e.status,
        iterations: gjk_iterations.saturating_add(e.iterations),
        // The core depth is signed: the origin may lie just outside `K` (cores touching
        // within tolerance, or apart by up to `NEAR_CONTACT · scale` for rounded shapes).
        depth: e.depth + rsum,
        normal,
        pa: e.pa + normal * ra,
        pb: e.pb - normal * rb,
        lower: e.lower.max(-gjk_upper) + rsum,
        upper: e.upper + rsum,
    }
}

/// The warm path of [`penetration_cached`] (3D), which needs no GJK run: the cached GJK
/// simplex, re-placed, must hold the origin ([`enclosed`]: that is the common-point
/// certificate, as a GJK run would find it with no support call), and the cached polytope must
/// pass the warm expansion's checks and converge (`Sealed::warm`). `None` otherwise (the
/// polytope cache then empty, the GJK cache untouched): the caller runs the full path. The
/// answer is returned before [`finish`] (the caller's), with its verdict and tolerance.
///
/// What the GJK run's result would feed is taken from the same facts: its verdict (intersecting,
/// the same common point, its touch tolerance `abs_tol` as `upper` = 0), its iterations (0)
/// and its witnesses (only read by flat answers, which a warm expansion never gives). The GJK
/// cache keeps its simplex, which is still the one that holds the origin.
fn warm_solve<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    pose_a: &Pose<V>,
    opts: &Options,
    ctx: &mut Context<V>,
    cache: &mut EpaCache<V>,
) -> Option<(Local<V>, Verdict<V>, f64)>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::DIM != 3 || !cache.poly.holds(mink.a, mink.b) || !cache.gjk.belongs_to(mink) {
        return None;
    }
    let gjk_tol = gjk::absolute_tolerance(mink, &opts.gjk);
    let (wa, wb) = enclosed(mink, &cache.gjk, gjk_tol)?;
    let params = params(mink, opts, gjk_tol, (wa, wb), V::ZERO);
    let e = V::warm(mink, &params, ctx, &mut cache.poly)?;
    let (ra, rb) = (mink.a.core_radius(), mink.b.core_radius());
    let verdict = Verdict::Intersecting(CommonPoint {
        point: pose_a.transform_point(gjk::common_point(wa, wb, ra, rb)),
    });
    Some((add_radii(e, 0, 0.0, (ra, rb)), verdict, gjk_tol))
}

/// The witness points of GJK's cached simplex re-placed under `mink`'s pose, when it is a full
/// simplex (four points, 3D) holding the origin: the origin's barycentric coordinates `λ` are
/// all `≥ 0`. `Σ λᵢ aᵢ` is then a point of A's core and `Σ λᵢ bᵢ` one of B's, which differ by
/// the residual `Σ λᵢ wᵢ` (the weights' rounding). When that exceeds `1e-3 · tol`, the weights
/// are refined as a GJK run's enclosing simplex's are ([`Simplex::enclosing_witnesses`];
/// sliver simplices). `None` in 2D (the warm path is 3D only).
///
/// Cramer's rule on the edges `eₖ = pₖ − p₃` to the last point, `Σ λₖ eₖ = o` with `o = −p₃`:
/// `λ₀ = o·(e₁×e₂)/D`, `λ₁ = o·(e₂×e₀)/D`, `λ₂ = o·(e₀×e₁)/D` (each numerator the determinant
/// with column `k` replaced by `o`, by the cyclic symmetry of the triple product), `D = e₀·(e₁×e₂)`,
/// `λ₃ = 1 − Σ λₖ`: three cross products in all. B's points are placed with `pose_ab`'s matrix,
/// as a support call places them. (Callgrind/speed: the generic form, four 3×3 determinants
/// and quaternion placements, cost 14% of a warm hull8 query.)
fn enclosed<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    cache: &gjk::GjkCache<V>,
    tol: f64,
) -> Option<(V, V)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let [q0, q1, q2, q3] = cache.full_simplex()?;
    let (rot, t) = (mink.rot_ab(), mink.pose_ab().translation());
    let place = |(a, b_local): (V, V)| {
        let b = V::mat_mul(rot, b_local) + t;
        SupportPoint { w: a - b, a, b }
    };
    let pts = [place(q0), place(q1), place(q2), place(q3)];
    let [p0, p1, p2, p3] = pts;
    let (e0, e1, e2) = (p0.w - p3.w, p1.w - p3.w, p2.w - p3.w);
    let (c12, c20, c01) = (
        V::plane_normal(e1, e2)?,
        V::plane_normal(e2, e0)?,
        V::plane_normal(e0, e1)?,
    );
    let det = e0.dot(c12);
    if !(det.abs() > 0.0 && det.is_finite()) {
        return None;
    }
    let inv = 1.0 / det;
    let o = -p3.w;
    let (l0, l1, l2) = (o.dot(c12) * inv, o.dot(c20) * inv, o.dot(c01) * inv);
    let l3 = 1.0 - l0 - l1 - l2;
    if !(l0 >= 0.0 && l1 >= 0.0 && l2 >= 0.0 && l3 >= 0.0) {
        return None;
    }
    let a = p0.a * l0 + p1.a * l1 + p2.a * l2 + p3.a * l3;
    let b = p0.b * l0 + p1.b * l1 + p2.b * l2 + p3.b * l3;
    let r = p0.w * l0 + p1.w * l1 + p2.w * l2 + p3.w * l3;
    if r.length_squared() <= (1e-3 * tol) * (1e-3 * tol) {
        return Some((a, b));
    }
    let s = Simplex::from_parts(pts, [l0, l1, l2, l3], 4);
    Some(s.enclosing_witnesses())
}

/// The cores are apart by d = |v|: depth = rsum − d along GJK's closest-point `normal`.
///
/// When the full shapes overlap, the normal must carry the depth (moving B by `depth · n`
/// leaves them touching). GJK stops once `|v|` is within its tolerance of the distance, and
/// near a flat face of `K` such a `v` may lie off the closest point sideways by up to
/// `√(2·d·tol)`, tilting `v̂` by that over `d` (a rounded segment over a flat box: 5e-6 rad,
/// and the projections along it overlapping by 4.8e-7 more than the depth; found by the
/// `warm_epa` fuzz target). The gap along `v̂` is measured by one support call; when it falls
/// short of `|v|` by more than the tolerance, the answer is taken along the direction of
/// GJK's best lower bound instead, whose gap is that bound (depth at the upper end of the
/// certified interval, the support points split by [`balanced`]).
fn cores_apart<V, A, B>(
    mink: &MinkowskiDifference<'_, V, A, B>,
    r: &gjk::Run<V>,
    normal: V,
    (ra, rb): (f64, f64),
    (wa, wb): (V, V),
) -> Local<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let rsum = ra + rb;
    // Same resolution as `gjk::distance` (the certified lower bound can exceed |v| by an
    // ulp at convergence), so that a separated answer is exactly minus GJK's distance.
    let depth = rsum - r.upper.max(r.lower);
    if depth > 0.0 && r.lower.is_finite() {
        let tol = r.abs_tol.max(r.rel_tol * r.upper);
        let gap_v = -normal.dot(mink.support(normal).w);
        if let Some(n) = (-r.lower_dir)
            .try_normalize()
            .filter(|_| r.upper - gap_v > tol)
        {
            let w = mink.support(n);
            let value = n.dot(w.w);
            if finite(&w) && -value > gap_v {
                let (pa, pb) = balanced(w.a, w.b, n, value);
                return Local {
                    status: r.status,
                    iterations: r.iterations,
                    depth: rsum + value,
                    normal: n,
                    pa: pa + n * ra,
                    pb: pb - n * rb,
                    lower: depth,
                    upper: rsum + value,
                };
            }
        }
    }
    Local {
        status: r.status,
        iterations: r.iterations,
        depth,
        normal,
        pa: wa + normal * ra,
        pb: wb - normal * rb,
        lower: depth,
        upper: if r.lower.is_finite() {
            rsum - r.lower
        } else {
            f64::INFINITY
        },
    }
}

/// The touch clamp, the interval kept around the depth, and the move to the world frame.
fn finish<V: Vector>(
    l: Local<V>,
    pose_a: &Pose<V>,
    intersecting: bool,
    verdict: Verdict<V>,
    tolerance: f64,
) -> Penetration<V> {
    let mut depth = l.depth;
    if intersecting {
        // Touching within tolerance counts as intersecting, whose depth is ≥ 0 (the clamp
        // moves it by at most the touch tolerance).
        depth = depth.max(0.0);
    }
    // Rounding (or the clamp) may move `depth` past a bound by a hair; keep the interval
    // around it.
    let lower = l.lower.min(depth);
    let upper = l.upper.max(depth);
    // A unit normal rotated by a unit rotation is unit to a few ulps; renormalise only beyond
    // that, so that a separated answer carries exactly GJK's normal.
    let rotated = pose_a.transform_vector(l.normal);
    let normal_w = if (rotated.length() - 1.0).abs() <= 1e-14 {
        rotated
    } else {
        rotated
            .try_normalize()
            .unwrap_or_else(|| pose_a.transform_vector(V::AXIS))
    };
    Penetration {
        status: l.status,
        iterations: l.iterations,
        depth,
        normal: normal_w,
        point_a: pose_a.transform_point(l.pa),
        point_b: pose_a.transform_point(l.pb),
        verdict,
        tolerance,
        depth_lower: lower,
        depth_upper: upper,
    }
}

/// The answer when there is nothing to answer from (no finite support point).
fn fallback<V: Vector, A: SupportMap<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    iterations: u32,
    verdict: Verdict<V>,
    tolerance: f64,
) -> Penetration<V> {
    let c = a.center();
    let p = if c.is_finite() {
        pose_a.transform_point(c)
    } else {
        pose_a.translation()
    };
    let verdict = match verdict {
        Verdict::Separated(s) if s.axis.is_finite() && s.gap.is_finite() => verdict,
        Verdict::Intersecting(cp) if cp.point.is_finite() => verdict,
        _ => Verdict::Undetermined,
    };
    Penetration {
        status: Status::Degenerate,
        iterations,
        depth: 0.0,
        normal: pose_a
            .transform_vector(V::AXIS)
            .try_normalize()
            .unwrap_or(V::AXIS),
        point_a: p,
        point_b: p,
        verdict,
        tolerance,
        depth_lower: f64::NEG_INFINITY,
        depth_upper: f64::INFINITY,
    }
}

/// Warm-start state of [`penetration_cached`] for one pair of shapes on a coherent trajectory.
///
/// It keeps GJK's last simplex (re-placed under the new pose, see [`gjk::GjkCache`]), so that
/// the GJK phase usually proves the overlap from it with no support call, and (3D) the last
/// query's final EPA polytope: its vertices as their support points on A (A's frame) and on B
/// (B's own frame), and its faces with their neighbours. The next query re-places the vertices
/// under its relative pose (they are again points of the Minkowski difference), rebuilds the
/// faces' planes and, if the polytope is still convex and holds the origin (see the module
/// header), continues the expansion from it instead of from GJK's simplex: on a coherent
/// trajectory the closest face is usually final already, and one support call proves it.
/// Otherwise the expansion starts cold. Polytopes above 512 vertices are not kept; 2D keeps
/// the simplex only.
///
/// A cache belongs to one pair of shapes (their addresses, as [`gjk::GjkCache`]): passed with
/// other shapes it is ignored, which costs speed, never correctness.
///
/// Not `Copy` (since the polytope was added): it owns buffers, which grow to the largest
/// polytope kept and are then reused (they are swapped with the [`Context`]'s, so a warmed-up
/// cache and context allocate nothing). `Clone` copies them.
#[derive(Clone, Debug, Default)]
pub struct EpaCache<V> {
    gjk: gjk::GjkCache<V>,
    poly: warm::Cached<V>,
}

impl<V: Vector> EpaCache<V> {
    /// An empty cache: the first query with it starts cold.
    pub fn new() -> Self {
        EpaCache {
            gjk: gjk::GjkCache::new(),
            poly: warm::Cached::default(),
        }
    }

    /// Whether the last query made with this cache continued from the previous polytope
    /// (for tests and benchmarks).
    #[doc(hidden)]
    pub fn reused(&self) -> bool {
        self.poly.reused
    }

    /// Whether the last query made with this cache answered from the previous polytope with
    /// some of its planes never rebuilt (the lazy check of `epa3::rebuild`; for tests).
    #[doc(hidden)]
    pub fn lazy(&self) -> bool {
        self.poly.reused && self.poly.lazy
    }

    /// The stored polytope's vertices, face slots and live faces (zeros when none is stored;
    /// for benchmarks' statistics).
    #[doc(hidden)]
    pub fn polytope_size(&self) -> (usize, usize, usize) {
        self.poly.size()
    }
}

/// [`penetration`] warm-started from the previous query on the same pair (see [`EpaCache`]).
///
/// The answer is the cold one's up to the stopping tolerance, with the same certificates: the
/// GJK phase starts from the cached simplex, and the expansion from the cached polytope only
/// when that is still a convex polytope inside the Minkowski difference around the origin, so
/// that the stopping rule certifies the same interval `[depth_lower, depth_upper]`.
pub fn penetration_cached<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    opts: &Options,
    ctx: &mut Context<V>,
    cache: &mut EpaCache<V>,
) -> Penetration<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    solve(a, pose_a, b, pose_b, opts, ctx, Some(cache))
}
