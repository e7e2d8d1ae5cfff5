//! 3D expansion: blow GJK's simplex up to a tetrahedron, then expand a triangulated convex
//! polytope toward the boundary of `K = core(A) − core(B)`.
//!
//! Data structure: vertices are append-only (`Context::verts`); faces live in a slot store
//! with a free list (`Context::faces`, `Context::free`), each with its three neighbours, so
//! the faces visible from a new point are found by a flood fill from the closest face
//! (van den Bergen 2003, §4.3.5; the same "silhouette" walk as Bullet and Jolt), which
//! records the horizon in loop order. The closest face is found by a linear scan of one
//! offset per face slot (`Context::keys`, `+∞` for dead faces and for faces known not to
//! hold the origin's projection): F ≤ 2V − 4 ≤ a few hundred for the default cap, cheaper
//! and simpler than a heap with lazy deletion at that size. Whether a face holds the origin's
//! projection is only computed for the face that the scan finds least.
//!
//! Warm start: with an [`EpaCache`](super::EpaCache), the polytope the previous query ended
//! with is re-placed ([`super::warm`]), re-checked ([`rebuild`]: lazily, each face bounded by
//! a half-space through its stored normal, planes built only for the faces that can hold the
//! least offset; or every plane rebuilt) and expanded by the same loop ([`expand`] with
//! `warm`), whose converged answer is then certified by the least offset of all faces;
//! otherwise the expansion starts cold from GJK's simplex.
//!
//! Orientation: every face is stored counter-clockwise seen from outside, so
//! `n = (b − a) × (c − a)` is outward, and two neighbours traverse their shared edge in
//! opposite directions. A horizon edge `s → e` (as the deleted face ran it) gets the new face
//! `(s, e, w)`, which keeps that orientation.

use super::sealed::{Expansion, Params, Sealed};
use super::warm::Cached;
use super::{
    balanced, broken, checked_support, farthest, finite, flat_answer, point_answer, settle,
    Context, Face, HorizonEdge, Upper,
};
use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::shape::SupportMap;
use crate::verdict::Status;
use glam::DVec3;

/// Cap on the polytope's vertices (4 initial + one per iteration).
const MAX_VERTICES: usize = 1024;
/// Cap on face slots. A closed triangulation has `F = 2V − 4` faces and dead slots are
/// reused before new ones are made, so this is never reached by a consistent polytope.
const MAX_FACES: usize = 2 * MAX_VERTICES + 16;

impl Sealed for DVec3 {
    fn expand<A, B>(
        mink: &MinkowskiDifference<'_, DVec3, A, B>,
        start: &Simplex<DVec3>,
        params: &Params<DVec3>,
        ctx: &mut Context<DVec3>,
        warm: Option<&mut Cached<DVec3>>,
    ) -> Expansion<DVec3>
    where
        A: SupportMap<DVec3> + ?Sized,
        B: SupportMap<DVec3> + ?Sized,
    {
        let Some(cache) = warm else {
            return cold(mink, start, params, ctx).0;
        };
        if let Some(e) = Self::warm(mink, params, ctx, cache) {
            return e;
        }
        let (e, intact) = cold(mink, start, params, ctx);
        if intact {
            cache.store(mink, ctx);
        }
        e
    }

    fn warm<A, B>(
        mink: &MinkowskiDifference<'_, DVec3, A, B>,
        params: &Params<DVec3>,
        ctx: &mut Context<DVec3>,
        cache: &mut Cached<DVec3>,
    ) -> Option<Expansion<DVec3>>
    where
        A: SupportMap<DVec3> + ?Sized,
        B: SupportMap<DVec3> + ?Sized,
    {
        if cache.load(mink, ctx) && rebuild(ctx, params) {
            if let Ok(e) = expand(mink, None, params, ctx, true) {
                // Only a converged, verified answer gets here; the polytope is intact.
                cache.reused = true;
                cache.lazy = ctx.stale;
                cache.store(mink, ctx);
                return Some(e.0);
            }
        }
        cache.reused = false;
        // None of the vertices a cold start makes has its `b` in B's frame yet.
        cache.invalidate();
        None
    }
}

/// The expansion from GJK's simplex, and whether the polytope it leaves is intact.
fn cold<A, B>(
    mink: &MinkowskiDifference<'_, DVec3, A, B>,
    start: &Simplex<DVec3>,
    params: &Params<DVec3>,
    ctx: &mut Context<DVec3>,
) -> (Expansion<DVec3>, bool)
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    // A cold expansion always answers (`Err` is only for warm ones).
    expand(mink, Some(start), params, ctx, false).unwrap_or_else(|()| (broken(params, 0), false))
}

/// Re-checks the previous query's polytope, re-placed in `ctx` (vertices current, planes
/// stale), and sets the closest-face keys. Returns false (the caller starts cold) when it is
/// rejected.
///
/// The cached polytope was stored closed and consistently oriented (its adjacency is checked
/// by [`Cached::store`] whenever the faces changed), and with every face's `(n, dist)` a
/// half-space `n·x ≥ dist` holding its three vertices: the plane itself for an exact face (to
/// rounding, far below `vis_eps`), a bound from an earlier lazy load for a stale one. Two
/// ways to accept it:
///
/// 1. Lazy (no plane built): each face's bound becomes `lb = min n·w'` over its three new
///    vertex positions `w'` (kept as the face's `dist`, stale) and must exceed `vis_eps`.
///    Along the straight-line motion of the vertices from their old positions to the new
///    ones, `n·x` is linear, so the moving face stays in `n·x ≥ min(dist, lb) > 0`: no face
///    meets the origin during the motion, and the degree of the surface's central projection
///    onto the unit sphere around the origin does not change. It was ≥ 1: by 2 for the
///    polytope a cold or full expansion stored (every face exact with `dist > vis_eps`; one
///    with a face at `dist ≤ vis_eps` fails the check above, as `lb ≤ dist`), and by
///    induction for one a lazy query stored. The planes that can hold the least offset are
///    built at once ([`exact_candidates`]: the face of least bound and every face bounded below
///    its offset), any other stale face's when the closest-face scan reaches it ([`closest`];
///    past [`LAZY_REBUILDS`] of them, every plane), and every plane before the first carve
///    ([`refresh`]). On a coherent trajectory the bound is close to the new plane's offset (a
///    translation moves both alike), so one or two planes per query are built.
/// 2. Full ([`refresh`], when some `lb ≤ vis_eps`): every plane rebuilt, each with the origin
///    strictly on its inner side (`dist > vis_eps`). By that each face's central projection
///    onto the unit sphere is a positively oriented spherical triangle, so the projection of
///    the closed surface has degree ≥ 1.
///
/// Either way the projection is onto: every direction `u` meets the surface at a point `t·u`
/// of some face `f`, and `t ≥ dist_f` (the face lies in its half-space `n_f·x ≥ dist_f > 0`,
/// and `n_f·(t·u) ≥ dist_f` needs `t ≥ dist_f`). Those points lie in `K` (the vertices do), so
/// the ball of radius `L = min_f dist_f` does too (a unit `m` separating a point `y`,
/// `|y| < L`, from their hull would have `m·(t_m m) = t_m ≥ L > m·y`). The warm expansion
/// therefore accepts an answer only when its support value is within the tolerance of the
/// least `dist` of *all* faces at that moment (`Context::least`, or [`least_offset`] after a
/// carve), and the expansion steps (which keep the surface closed, or report failure, and run
/// only after a full refresh) need no convexity for that argument. Cost O(F) with three dot
/// products per face in the lazy case; O(F) plane builds in the full one; no support call.
fn rebuild(ctx: &mut Context<DVec3>, params: &Params<DVec3>) -> bool {
    let eps = params.vis_eps;
    ctx.dropped = f64::INFINITY;
    let Context {
        verts, faces, keys, ..
    } = ctx;
    keys.clear();
    let mut lazy = true;
    for f in faces.iter_mut() {
        if !f.alive {
            keys.push(f64::INFINITY);
            continue;
        }
        let (Some(a), Some(b), Some(c)) = (
            verts.get(f.v[0] as usize),
            verts.get(f.v[1] as usize),
            verts.get(f.v[2] as usize),
        ) else {
            return false;
        };
        let (da, db, dc) = (f.n.dot(a.w), f.n.dot(b.w), f.n.dot(c.w));
        // (Comparisons rather than `f64::min`, which would pass a NaN over.)
        if !(da > eps && db > eps && dc > eps) {
            lazy = false;
            break;
        }
        let lb = if da < db { da } else { db };
        let lb = if lb < dc { lb } else { dc };
        (f.dist, f.exact, f.inside, f.checked) = (lb, false, false, false);
        keys.push(lb);
    }
    if lazy {
        ctx.stale = true;
        return exact_candidates(ctx, eps);
    }
    refresh(ctx, params.vis_eps)
}

/// After a lazy [`rebuild`]: builds the planes of the faces that can hold the least offset —
/// the face of least bound, then every face whose bound lies below that face's offset — so
/// that [`closest`] finds an exact least key in its first scan. The same planes `closest`
/// would build one per round (scan, build, compare, scan again); built here they do not wait
/// on one another. False when one of them has the origin within `vis_eps` of its plane (as
/// `closest` would then report).
fn exact_candidates(ctx: &mut Context<DVec3>, eps: f64) -> bool {
    fn exact(ctx: &mut Context<DVec3>, i: usize, eps: f64) -> Option<f64> {
        let Context {
            verts, faces, keys, ..
        } = ctx;
        let (f, key) = (faces.get_mut(i)?, keys.get_mut(i)?);
        let g = make_face(verts, f.v).filter(|g| g.dist > eps)?;
        (f.n, f.dist, f.exact) = (g.n, g.dist, true);
        *key = g.dist;
        Some(g.dist)
    }
    let mut first = usize::MAX;
    let mut least = f64::INFINITY;
    for (i, &k) in ctx.keys.iter().enumerate() {
        if k < least {
            (first, least) = (i, k);
        }
    }
    if first == usize::MAX {
        return true;
    }
    let Some(d0) = exact(ctx, first, eps) else {
        return false;
    };
    for i in 0..ctx.keys.len() {
        if i != first && ctx.keys.get(i).is_some_and(|&k| k < d0) && exact(ctx, i, eps).is_none() {
            return false;
        }
    }
    true
}

/// Rebuilds every face's plane from its current vertices and checks that the origin is
/// strictly on its inner side (`dist > vis_eps`); sets the keys. See [`rebuild`].
fn refresh(ctx: &mut Context<DVec3>, eps: f64) -> bool {
    ctx.stale = false;
    ctx.dropped = f64::INFINITY;
    let Context {
        verts, faces, keys, ..
    } = ctx;
    keys.clear();
    for f in faces.iter_mut() {
        if !f.alive {
            keys.push(f64::INFINITY);
            continue;
        }
        let Some(g) = make_face(verts, f.v) else {
            return false;
        };
        if !(g.dist > eps) {
            return false;
        }
        (f.n, f.dist, f.inside, f.checked, f.exact) = (g.n, g.dist, false, false, true);
        keys.push(g.dist);
    }
    true
}

/// The least offset over every live face (`+∞` if there is none).
fn least_offset(faces: &[Face<DVec3>]) -> f64 {
    faces
        .iter()
        .filter(|f| f.alive)
        .fold(f64::INFINITY, |m, f| m.min(f.dist))
}

/// Builds the initial tetrahedron in `ctx`, or returns the defined answer for a flat `K`.
///
/// The tetrahedron contains the hull of GJK's simplex when that is non-degenerate, hence the
/// origin up to GJK's touch tolerance. Otherwise each missing vertex is the support point
/// farthest from the current affine hull along orthogonal directions (both signs); if none
/// is farther than `ε`, `K` lies within `ε` (√3 ε for the six-direction searches) of that
/// hull, whose `min_n h_K(n)` is then 0 up to `ε`, and the flat answer is exact to `ε`. A
/// four-point simplex that is clearly not flat is taken as it is (see [`tetrahedron`]).
fn initial<A, B>(
    mink: &MinkowskiDifference<'_, DVec3, A, B>,
    start: &Simplex<DVec3>,
    params: &Params<DVec3>,
    ctx: &mut Context<DVec3>,
) -> Result<(), Expansion<DVec3>>
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    let eps = params.eps;
    let pts = start.points();
    if let &[p0, p1, p2, p3] = pts {
        if tetrahedron(ctx, [p0, p1, p2, p3], eps) {
            return Ok(());
        }
        ctx.clear();
    }
    let s0 = match pts.first() {
        Some(p) => *p,
        None => checked_support(mink, DVec3::X, params)?,
    };

    // Second vertex: farthest from s0 (searching ±x, ±y, ±z if the simplex is a point).
    let axes = [
        DVec3::X,
        DVec3::NEG_X,
        DVec3::Y,
        DVec3::NEG_Y,
        DVec3::Z,
        DVec3::NEG_Z,
    ];
    let (s1, l1) = farthest(mink, pts, || axes, |w| (w - s0.w).length(), params)?;
    if l1.is_nan() || l1 <= eps {
        return Err(point_answer(s0.w, params));
    }
    let dn = match (s1.w - s0.w).try_normalize() {
        Some(d) => d,
        None => return Err(broken(params, 0)),
    };

    // Third vertex: farthest from the line s0 s1, searching six directions at 60° steps
    // around it (both signs) if the simplex is a segment.
    let e1 = dn.any_orthonormal_vector();
    let perp = || {
        let e2 = dn.cross(e1);
        let mut perp = [DVec3::ZERO; 6];
        for (k, pair) in perp.chunks_exact_mut(2).enumerate() {
            let (s, c) = (k as f64 * core::f64::consts::FRAC_PI_3).sin_cos();
            let u = e1 * c + e2 * s;
            pair[0] = u;
            pair[1] = -u;
        }
        perp
    };
    let line_dist = |w: DVec3| {
        let r = w - s0.w;
        (r - dn * r.dot(dn)).length()
    };
    let (s2, l2) = farthest(mink, pts, perp, line_dist, params)?;
    if l2.is_nan() || l2 <= eps {
        // K is a segment: the normal across the origin's offset from its line, if any. The
        // offset is a difference of two vectors of `|s0|`'s size, so when it is short its
        // direction carries a relative error of `ε·|s0|/|off|` along `dn` too; projected off
        // `dn` a second time it is orthogonal to the line to working precision. A tilt toward
        // `dn` would move the support onto the far end of a long `K` (fuzz finding: an 11-unit
        // rounded segment 4.5e-8 from a rounded point, a 5e-8 rad tilt, the overlap along the
        // normal 4.9e-7 above the reported depth and its upper bound).
        let off = s0.w - dn * dn.dot(s0.w);
        let off = off - dn * dn.dot(off);
        let n = match off.try_normalize() {
            Some(n) if off.length() > eps => n,
            _ => e1,
        };
        return Err(flat_answer(mink, n, s0.w, params));
    }
    let normal_raw = (s1.w - s0.w).cross(s2.w - s0.w);
    let n = match normal_raw.try_normalize() {
        Some(n) => n,
        None => return Err(broken(params, 0)),
    };

    // Fourth vertex: farthest from the plane, searching ±n if the simplex is a triangle.
    let plane_dist = |w: DVec3| n.dot(w - s0.w).abs();
    let (s3, l3) = farthest(mink, pts, || [n, -n], plane_dist, params)?;
    if l3.is_nan() || l3 <= eps {
        return Err(flat_answer(mink, n, s0.w, params));
    }

    // Orient so that s3 lies on the positive side of (s0, s1, s2); the outward faces are then
    // (0,2,1), (0,1,3), (1,2,3), (0,3,2).
    let (s1, s2) = if normal_raw.dot(s3.w - s0.w) < 0.0 {
        (s2, s1)
    } else {
        (s1, s2)
    };
    ctx.verts.extend_from_slice(&[s0, s1, s2, s3]);
    for (k, v) in TETRA_FACES.into_iter().enumerate() {
        match make_face(&ctx.verts, v) {
            Some(mut f) => {
                (f.adj, f.adj_edge) = TETRA_ADJ[k];
                ctx.keys.push(f.dist);
                ctx.faces.push(f);
            }
            None => return Err(broken(params, 0)),
        }
    }
    Ok(())
}

/// The initial tetrahedron straight from a four-point GJK simplex whose every vertex lies more
/// than `2ε` below the plane of the opposite face: the searches of [`initial`] would then find
/// the same four points (each distance they compare with `ε` is at least one of these), so
/// they are skipped. Returns false, with `ctx` partly filled, when the test fails.
fn tetrahedron(ctx: &mut Context<DVec3>, p: [SupportPoint<DVec3>; 4], eps: f64) -> bool {
    let [s0, s1, s2, s3] = p;
    let det = (s1.w - s0.w).cross(s2.w - s0.w).dot(s3.w - s0.w);
    if !(det.abs() > 0.0) {
        return false;
    }
    let (s1, s2) = if det < 0.0 { (s2, s1) } else { (s1, s2) };
    ctx.verts.extend_from_slice(&[s0, s1, s2, s3]);
    for (k, v) in TETRA_FACES.into_iter().enumerate() {
        let Some(mut f) = make_face(&ctx.verts, v) else {
            return false;
        };
        let Some(opposite) = ctx.verts.get(TETRA_OPPOSITE[k]) else {
            return false;
        };
        if !(f.n.dot(opposite.w) - f.dist < -2.0 * eps) {
            return false;
        }
        (f.adj, f.adj_edge) = TETRA_ADJ[k];
        ctx.keys.push(f.dist);
        ctx.faces.push(f);
    }
    true
}

/// The outward faces of the initial tetrahedron (vertex 3 on the positive side of 0, 1, 2).
const TETRA_FACES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];
/// The vertex opposite each of [`TETRA_FACES`].
const TETRA_OPPOSITE: [usize; 4] = [3, 2, 0, 1];
/// Their adjacency (neighbour across edge i and that edge's index there), as [`link`] finds
/// it (a test checks that), so that the start costs no O(F²) matching.
const TETRA_ADJ: [([u32; 3], [u8; 3]); 4] = [
    ([3, 2, 1], [2, 0, 0]),
    ([0, 2, 3], [2, 2, 0]),
    ([0, 3, 1], [1, 1, 1]),
    ([1, 2, 0], [2, 1, 0]),
];

/// Sets the adjacency of a small closed triangulation by matching each edge `(a, b)` with the
/// reversed edge `(b, a)` of another face. O(F²): the reference for [`TETRA_ADJ`].
#[cfg(test)]
fn link(faces: &mut [Face<DVec3>]) {
    for f in 0..faces.len() {
        for i in 0..3 {
            let (a, b) = (faces[f].v[i], faces[f].v[(i + 1) % 3]);
            for g in (0..faces.len()).filter(|&g| g != f) {
                for j in 0..3 {
                    if faces[g].v[j] == b && faces[g].v[(j + 1) % 3] == a {
                        faces[f].adj[i] = g as u32;
                        faces[f].adj_edge[i] = j as u8;
                    }
                }
            }
        }
    }
}

/// A face on vertices `v` (counter-clockwise from outside), or `None` if it has no normal.
///
/// The normal is the cross product of the two edges at the vertex opposite the longest edge
/// (the best-conditioned choice); all three choices are equal in exact arithmetic. The plane
/// offset is the mean over the three vertices. `inside` is left unchecked (see [`closest`]).
#[inline(always)]
fn make_face(verts: &[SupportPoint<DVec3>], v: [u32; 3]) -> Option<Face<DVec3>> {
    let a = verts.get(v[0] as usize)?.w;
    let b = verts.get(v[1] as usize)?.w;
    let c = verts.get(v[2] as usize)?.w;
    face_at(a, b, c, v)
}

/// [`make_face`] from the vertices' positions `a`, `b`, `c` (those of the indices `v`).
#[inline(always)]
fn face_at(a: DVec3, b: DVec3, c: DVec3, v: [u32; 3]) -> Option<Face<DVec3>> {
    let (eab, ebc, eca) = (b - a, c - b, a - c);
    let (ab, bc, ca) = (
        eab.length_squared(),
        ebc.length_squared(),
        eca.length_squared(),
    );
    // (b − a) × (c − a), (c − b) × (a − b), (a − c) × (b − c), written with the edge vectors
    // (negation and swapping the factors of a cross product are exact).
    let raw = if bc >= ab && bc >= ca {
        eca.cross(eab)
    } else if ca >= ab {
        eab.cross(ebc)
    } else {
        ebc.cross(eca)
    };
    // `raw.try_normalize()` bit for bit: its test `rcp.is_finite() && rcp > 0.0` written as
    // float arithmetic (`0·x` is ±0 exactly for finite `x`, NaN otherwise) that LLVM does not
    // merge into an integer class test of `rcp` (about 17 instructions a face).
    let rcp = 1.0 / raw.length();
    if !(rcp > 0.0 && rcp * 0.0 == 0.0) {
        return None;
    }
    let n = raw * rcp;
    let dist = (n.dot(a) + n.dot(b) + n.dot(c)) * (1.0 / 3.0);
    if !dist.is_finite() {
        return None;
    }
    Some(Face {
        v,
        adj: [0; 3],
        adj_edge: [0; 3],
        n,
        dist,
        inside: false,
        checked: false,
        alive: true,
        exact: true,
    })
}

/// Whether the origin's projection lies in face `f` (see [`projection_inside`]); false when a
/// vertex index is out of range.
fn face_inside(verts: &[SupportPoint<DVec3>], f: &Face<DVec3>) -> bool {
    match (
        verts.get(f.v[0] as usize),
        verts.get(f.v[1] as usize),
        verts.get(f.v[2] as usize),
    ) {
        (Some(a), Some(b), Some(c)) => projection_inside(a.w, b.w, c.w, f.n, f.dist),
        _ => false,
    }
}

/// Whether the origin's projection `p = dist · n` lies in the triangle to a relative `1e-9`:
/// [`barycentric`]'s test `l ≥ −1e-9` without its divisions (`num ≥ −1e-9 · den`, `den > 0`).
#[inline]
fn projection_inside(a: DVec3, b: DVec3, c: DVec3, n: DVec3, dist: f64) -> bool {
    let p = n * dist;
    let den = (b - a).cross(c - a).dot(n);
    let (pa, pb, pc) = (a - p, b - p, c - p);
    let m = -1e-9 * den;
    den > 0.0
        && den.is_finite()
        && pb.cross(pc).dot(n) >= m
        && pc.cross(pa).dot(n) >= m
        && pa.cross(pb).dot(n) >= m
}

/// Barycentric coordinates of the origin's projection `p = dist · n` on the plane of the
/// triangle `(a, b, c)` with unit normal `n`: the signed areas of the sub-triangles opposite
/// each vertex, measured along `n`, over the whole area. NaN-free: a zero or non-finite area
/// gives `[−1; 3]` ("not inside").
fn barycentric(a: DVec3, b: DVec3, c: DVec3, n: DVec3, dist: f64) -> [f64; 3] {
    let p = n * dist;
    let den = (b - a).cross(c - a).dot(n);
    let l = [
        (b - p).cross(c - p).dot(n) / den,
        (c - p).cross(a - p).dot(n) / den,
        (a - p).cross(b - p).dot(n) / den,
    ];
    if den > 0.0 && l.iter().all(|x| x.is_finite()) {
        l
    } else {
        [-1.0; 3]
    }
}

/// How many stale faces [`closest`] builds one by one before it rebuilds every plane.
const LAZY_REBUILDS: u32 = 8;

/// Index of the live face with the least plane offset among the candidates: faces whose
/// projection of the origin is inside (van den Bergen's rule) and faces the origin lies
/// beyond (`dist < 0`); among all live faces if there is none. Lowest index on ties.
///
/// The scan reads `keys` (the offsets of the faces not yet known to be non-candidates); when
/// the least one is a face with `dist ≥ 0` whose projection was not checked yet, it is
/// checked now, and a non-candidate is dropped from `keys` and the scan repeated.
///
/// The check is skipped when the least key of the first scan is below every other key by
/// more than `margin` (the stopping tolerance's absolute part, far above the rounding of the
/// offsets): that face then has the least offset of all faces, and with the origin inside
/// the polytope (every offset ≥ 0) the least-offset face holds the origin's projection, up
/// to faces of the same plane (the projection `p` is at distance `dist` ≤ every offset, so
/// the ball through `p` lies in the polytope; `p`, on the face's supporting plane, is then on
/// the facet that plane cuts out, whose faces all have the same offset). Such a face is the
/// scan's answer with or without the check, and its offset is the inscribed-ball radius.
///
/// With the origin inside the polytope the candidates hold the closest facet, and among
/// coplanar faces of equal offset only the one holding the projection gives the right contact
/// point. With the origin outside (cores touching within tolerance or apart by a hair), some
/// face has `dist < 0`, so the chosen offset is ≤ 0; at convergence it equals `h_K(n)` up to
/// the tolerance, hence lies in `[−dist(0, K) − tol, 0]`. (Van den Bergen's rule alone could
/// pick a far face there: near an edge of the polytope no adjacent face holds the projection.)
fn closest(ctx: &mut Context<DVec3>, margin: f64, vis_eps: f64) -> Option<usize> {
    // Each round either returns, turns one key to +∞, or makes one stale face exact, so this
    // ends within `2 · keys.len() + 1` rounds; the cap is only a guard.
    let mut rebuilt = 0;
    for round in 0..=2 * ctx.keys.len() {
        let mut best = usize::MAX;
        let mut bd = f64::INFINITY;
        let mut second = f64::INFINITY;
        // Selects, not branches: whether a key is a new least is data (callgrind branch-sim:
        // the branchy scan mispredicted 16 times per hull8 query, 40 per poly128 query). The
        // second least is `min(second, max(bd, k))` (`bd ≤ second` throughout), each a plain
        // compare-and-pick that compiles to `minsd`/`maxsd` (keys are never NaN).
        for (i, &k) in ctx.keys.iter().enumerate() {
            let lt = k < bd;
            let hi = if bd > k { bd } else { k };
            second = if hi < second { hi } else { second };
            best = if lt { i } else { best };
            bd = if lt { k } else { bd };
        }
        let Some(f) = ctx.faces.get_mut(best) else {
            break;
        };
        if f.alive && !f.exact {
            // A stale face of a warm polytope (its key a lower bound): build its plane now,
            // or, past a few (each may cost a rescan), every plane at once.
            rebuilt += 1;
            if rebuilt > LAZY_REBUILDS {
                if !refresh(ctx, vis_eps) {
                    return None;
                }
                continue;
            }
            let g = make_face(&ctx.verts, f.v).filter(|g| g.dist > vis_eps)?;
            (f.n, f.dist, f.exact) = (g.n, g.dist, true);
            *ctx.keys.get_mut(best)? = g.dist;
            if g.dist > second {
                continue;
            }
            // Still the least key: no rescan.
            bd = g.dist;
        }
        if f.alive && f.dist == bd {
            if round == 0 && second - bd > margin {
                ctx.least = bd.min(ctx.dropped);
                return Some(best);
            }
            if !f.checked {
                f.inside = f.dist < 0.0 || face_inside(&ctx.verts, f);
                f.checked = true;
            }
            if f.inside || f.dist < 0.0 {
                ctx.least = bd.min(ctx.dropped);
                return Some(best);
            }
        }
        let dist = if f.alive { f.dist } else { f64::INFINITY };
        ctx.dropped = ctx.dropped.min(dist);
        if let Some(k) = ctx.keys.get_mut(best) {
            *k = f64::INFINITY;
        }
    }
    // No candidate: the least offset among all live faces (none if that one is stale).
    let mut best = None;
    let mut bd = f64::INFINITY;
    for (i, f) in ctx.faces.iter().enumerate() {
        if f.alive && f.dist < bd {
            bd = f.dist;
            best = Some(i);
        }
    }
    ctx.least = bd;
    best.filter(|&i| ctx.faces.get(i).is_some_and(|f| f.exact))
}

/// The answer from face `f`: the origin's projection `dist · n` in barycentric coordinates,
/// applied to the `a` and `b` parts of the face's support points.
fn answer(
    verts: &[SupportPoint<DVec3>],
    f: &Face<DVec3>,
    status: Status,
    iterations: u32,
    params: &Params<DVec3>,
) -> Expansion<DVec3> {
    let (Some(a), Some(b), Some(c)) = (
        verts.get(f.v[0] as usize),
        verts.get(f.v[1] as usize),
        verts.get(f.v[2] as usize),
    ) else {
        return broken(params, iterations);
    };
    let n = f.n;
    // Clamped to the triangle (the projection is inside it up to rounding, except when the
    // origin is on or just outside the polytope) and renormalised.
    let mut l = barycentric(a.w, b.w, c.w, n, f.dist);
    let mut sum = 0.0;
    for x in &mut l {
        *x = x.max(0.0);
        sum += *x;
    }
    if sum > 0.0 && sum.is_finite() {
        for x in &mut l {
            *x /= sum;
        }
    } else {
        l = [1.0 / 3.0; 3];
    }
    let pa = a.a * l[0] + b.a * l[1] + c.a * l[2];
    let pb = a.b * l[0] + b.b * l[1] + c.b * l[2];
    // Clamped weights, or weights of a sliver face (their error is cond·ε, far above that of
    // the face's plane), leave `pa − pb` off `n·dist` along the face: balanced either way.
    let (pa, pb) = balanced(pa, pb, n, f.dist);
    Expansion {
        status,
        iterations,
        depth: f.dist,
        normal: n,
        pa,
        pb,
        lower: f.dist,
        upper: f64::INFINITY,
    }
}

/// The expansion: from GJK's simplex (`warm` false), or from the polytope already in `ctx`
/// (accepted by [`rebuild`]). Returns the answer and whether the polytope left in `ctx` is
/// intact (closed, linked, every face built from the current vertices), so that it may be kept
/// for the next query.
///
/// A warm expansion runs the same loop, but checks every closest face's projection (the
/// shortcut of [`closest`] assumes a convex polytope), accepts a converged answer only when its
/// support value is within the tolerance of the least offset of all faces (the lower bound of
/// [`rebuild`], which is also the answer's `lower`), and gives up (`Err`: the caller starts
/// cold) wherever a cold expansion would stop without converging.
fn expand<A, B>(
    mink: &MinkowskiDifference<'_, DVec3, A, B>,
    start: Option<&Simplex<DVec3>>,
    params: &Params<DVec3>,
    ctx: &mut Context<DVec3>,
    warm: bool,
) -> Result<(Expansion<DVec3>, bool), ()>
where
    A: SupportMap<DVec3> + ?Sized,
    B: SupportMap<DVec3> + ?Sized,
{
    if !warm {
        ctx.clear();
        let Some(start) = start else {
            return Err(());
        };
        if let Err(e) = initial(mink, start, params, ctx) {
            return Ok((e, false));
        }
    }
    let margin = if warm { f64::INFINITY } else { params.abs_tol };
    // A warm answer with support value `value`: certified by the least face offset.
    // Until the first carve, the least offset of all faces is the one the last closest-face
    // scan found (see `Context::least`); after it, a scan of the faces.
    let mut carved = false;
    let verified = |e: Expansion<DVec3>, value: f64, ctx: &Context<DVec3>, carved: bool, tol| {
        let lower = if carved {
            least_offset(&ctx.faces)
        } else {
            ctx.least
        };
        if lower > params.vis_eps && value - lower <= tol {
            Ok((
                Expansion {
                    lower: lower.min(e.depth),
                    ..e
                },
                true,
            ))
        } else {
            Err(())
        }
    };
    let dup2 = params.vis_eps * params.vis_eps;
    let mut iterations = 0u32;
    let mut best: Option<Upper<DVec3>> = None;
    // Exits other than convergence: the answer as it stands (cold), or give up (warm).
    let fail = |e: Expansion<DVec3>, intact: bool| if warm { Err(()) } else { Ok((e, intact)) };
    loop {
        let Some((fi, f)) =
            closest(ctx, margin, params.vis_eps).and_then(|i| Some((i, *ctx.faces.get(i)?)))
        else {
            return fail(broken(params, iterations), false);
        };
        let tol = params.abs_tol.max(params.rel_tol * f.dist.abs());
        let stop = |status, iterations, best| {
            settle(
                answer(&ctx.verts, &f, status, iterations, params),
                best,
                tol,
            )
        };
        if iterations >= params.max_iterations {
            return fail(stop(Status::IterationLimit, iterations, best), true);
        }
        iterations += 1;
        let w = mink.support(f.n);
        if !finite(&w) {
            return fail(stop(Status::Degenerate, iterations, best), false);
        }
        Upper::record(&mut best, f.n, w);
        // Stopping test: the face's plane is a lower bound and n·w an upper bound on the core
        // depth along this normal.
        let value = f.n.dot(w.w);
        if value - f.dist <= tol {
            let e = stop(Status::Converged, iterations, best);
            // (A warm answer from a face not known to hold the projection would have clamped
            // contact points: give up instead.)
            return if warm && !(f.checked && f.inside) {
                Err(())
            } else if warm {
                verified(e, value, ctx, carved, tol)
            } else {
                Ok((e, true))
            };
        }
        // The support-point gap bound: the least support value over every normal queried so
        // far is within the tolerance of the closest face, so the depth is pinned down even
        // though this face is not final (curved `K`, whose depth is attained along a whole
        // circle of directions, gets here long before any face is).
        if let Some(b) = best.filter(|b| b.value - f.dist <= tol && f.dist >= 0.0) {
            let e = b.answer(Status::Converged, iterations, f.dist);
            return if warm {
                verified(e, b.value, ctx, carved, tol)
            } else {
                Ok((e, true))
            };
        }
        if ctx.verts.len() >= MAX_VERTICES {
            return fail(stop(Status::IterationLimit, iterations, best), true);
        }
        // A support point beyond the closest face that repeats a vertex means rounding made
        // the polytope non-convex: nothing more can be learnt. (A fold without an early exit:
        // the test is almost always false, and the branch-free loop is shorter per vertex than
        // `any`'s; callgrind hull8 penetration −97 instructions per query, poly1024 −2,000.)
        if ctx
            .verts
            .iter()
            .fold(false, |hit, v| hit | ((v.w - w.w).length_squared() <= dup2))
        {
            return fail(stop(Status::Degenerate, iterations, best), false);
        }
        if ctx.stale {
            // The carve tests faces against their planes, and the surface it leaves is
            // certified face by face (see `rebuild`): every plane exact first. Rebuilding
            // reproduces the exact faces, `f` among them, bit for bit.
            if !refresh(ctx, params.vis_eps) {
                return Err(());
            }
        }
        let wi = ctx.verts.len() as u32;
        ctx.verts.push(w);
        carved = true;
        if !carve(ctx, fi, w.w, params.vis_eps) || !stitch(ctx, wi) {
            let e = settle(
                answer(&ctx.verts, &f, Status::Degenerate, iterations, params),
                best,
                tol,
            );
            return fail(e, false);
        }
    }
}

/// The next and the previous edge (vertex) of a face, counter-clockwise.
const NEXT: [usize; 3] = [1, 2, 0];
const PREV: [usize; 3] = [2, 0, 1];

/// Deletes the faces visible from `w` that are connected to face `f0` (which is deleted
/// unconditionally: `w` lies beyond it by more than the tolerance) and records the horizon:
/// the edges of surviving faces whose neighbour was deleted.
fn carve(ctx: &mut Context<DVec3>, f0: usize, w: DVec3, eps: f64) -> bool {
    ctx.stack.clear();
    ctx.horizon.clear();
    let Some(face) = ctx.faces.get_mut(f0) else {
        return false;
    };
    face.alive = false;
    let (adj, adj_edge) = (face.adj, face.adj_edge);
    ctx.free.push(f0 as u32);
    if let Some(k) = ctx.keys.get_mut(f0) {
        *k = f64::INFINITY;
    }
    // Pushed in reverse so that the edges are visited in order 0, 1, 2 and, inside each
    // deleted face, in order after the edge it was entered through: a depth-first walk in
    // counter-clockwise order, which meets the horizon edges in loop order.
    ctx.stack.extend_from_slice(&[
        (adj[2], adj_edge[2]),
        (adj[1], adj_edge[1]),
        (adj[0], adj_edge[0]),
    ]);
    while let Some((g, j)) = ctx.stack.pop() {
        let Some(face) = ctx.faces.get_mut(g as usize) else {
            return false;
        };
        if !face.alive {
            continue;
        }
        // The edges after `j` in counter-clockwise order (`j` < 3 for a consistent polytope).
        let (Some(&jn), Some(&jp)) = (NEXT.get(usize::from(j)), PREV.get(usize::from(j))) else {
            return false;
        };
        if face.n.dot(w) - face.dist > eps {
            face.alive = false;
            let (adj, adj_edge) = (face.adj, face.adj_edge);
            ctx.free.push(g);
            if let Some(k) = ctx.keys.get_mut(g as usize) {
                *k = f64::INFINITY;
            }
            ctx.stack
                .extend_from_slice(&[(adj[jp], adj_edge[jp]), (adj[jn], adj_edge[jn])]);
        } else {
            ctx.horizon.push(HorizonEdge {
                face: g,
                edge: j,
                s: face.v[jn],
                e: face.v[usize::from(j)],
            });
        }
    }
    true
}

/// Fans the horizon to the new vertex `wi`. Checks that the horizon is one simple loop in
/// order (each edge starts where the previous one ends, the last one where the first one
/// starts, and no vertex starts two edges): rounding can make the deleted region something
/// other than a disc, and then the polytope cannot be patched. The check runs edge by edge in
/// the same pass that builds the faces, so a failure may leave some faces written: the caller
/// then drops the polytope (it is not intact), and reads only its vertices.
///
/// Slots: the `k`-th horizon edge's face goes to the `k`-th dead slot from the end of the
/// free list (the order `free.pop()` would give), then to new slots appended in order, so
/// every slot is known before the faces are written and each face is written once, with its
/// neighbours: edge 0 (s → e) borders the surviving face, edge 1 (e → w) the next new face's
/// edge 2 (w → e), edge 2 (w → s) the previous new face's edge 1.
fn stitch(ctx: &mut Context<DVec3>, wi: u32) -> bool {
    let h = ctx.horizon.len();
    if h < 3 {
        return false;
    }
    if ctx.marks.len() < ctx.verts.len() {
        ctx.marks.resize((2 * ctx.verts.len()).max(64), 0);
    }
    ctx.stamp = ctx.stamp.wrapping_add(1);
    if ctx.stamp == 0 {
        ctx.marks.fill(0);
        ctx.stamp = 1;
    }
    let Context {
        verts,
        faces,
        free,
        horizon,
        keys,
        marks,
        stamp,
        ..
    } = ctx;
    let (Some(first), Some(last)) = (horizon.first(), horizon.last()) else {
        return false;
    };
    let (Some(w), Some(ps)) = (verts.get(wi as usize), verts.get(first.s as usize)) else {
        return false;
    };
    let (w, mut ps) = (w.w, ps.w);
    let nfree = free.len();
    let reused = h.min(nfree);
    let base = faces.len();
    if base + (h - reused) > MAX_FACES {
        return false;
    }
    // The slot of the `k`-th new face (`k < h`).
    let slot = |k: usize| match k.checked_sub(nfree) {
        Some(j) => Some((base + j) as u32),
        None => free.get(nfree - 1 - k).copied(),
    };
    let (Some(first_new), Some(mut prev)) = (slot(0), slot(h - 1)) else {
        return false;
    };
    let mut cur = first_new;
    let mut prev_end = last.e;
    for (k, he) in horizon.iter().enumerate() {
        if he.s != prev_end {
            return false;
        }
        match marks.get_mut(he.s as usize) {
            Some(m) if *m != *stamp => *m = *stamp,
            _ => return false,
        }
        prev_end = he.e;
        let next = if k + 1 < h {
            match slot(k + 1) {
                Some(s) => s,
                None => return false,
            }
        } else {
            first_new
        };
        // Each edge starts where the previous one ends: one new position per face.
        let Some(pe) = verts.get(he.e as usize) else {
            return false;
        };
        let pe = pe.w;
        let Some(mut face) = face_at(ps, pe, w, [he.s, he.e, wi]) else {
            return false;
        };
        ps = pe;
        face.adj = [he.face, next, prev];
        face.adj_edge = [he.edge, 2, 1];
        let dist = face.dist;
        let c = cur as usize;
        if c < faces.len() {
            match (faces.get_mut(c), keys.get_mut(c)) {
                (Some(f), Some(key)) => {
                    *key = dist;
                    *f = face;
                }
                _ => return false,
            }
        } else if c == faces.len() && c == keys.len() {
            faces.push(face);
            keys.push(dist);
        } else {
            return false;
        }
        let Some(g) = faces.get_mut(he.face as usize) else {
            return false;
        };
        let (Some(j), Some(je)) = (
            g.adj.get_mut(usize::from(he.edge)),
            g.adj_edge.get_mut(usize::from(he.edge)),
        ) else {
            return false;
        };
        *j = cur;
        *je = 0;
        prev = cur;
        cur = next;
    }
    free.truncate(nfree - reused);
    true
}

#[cfg(test)]
mod tests {
    //! White-box tests of the failure paths that black-box inputs essentially never reach
    //! (they need a polytope that rounding has made non-convex): each must report failure
    //! instead of panicking or corrupting memory.
    use super::*;

    fn sp(w: DVec3) -> SupportPoint<DVec3> {
        SupportPoint {
            w,
            a: w,
            b: DVec3::ZERO,
        }
    }

    /// A context holding the outward tetrahedron on the unit axes and the origin's opposite.
    fn tetra() -> Context<DVec3> {
        let mut ctx = Context::new();
        ctx.verts.extend_from_slice(&[
            sp(DVec3::new(-1.0, -1.0, -1.0)),
            sp(DVec3::new(3.0, -1.0, -1.0)),
            sp(DVec3::new(-1.0, 3.0, -1.0)),
            sp(DVec3::new(-1.0, -1.0, 3.0)),
        ]);
        for v in TETRA_FACES {
            let f = make_face(&ctx.verts, v).expect("a proper face");
            ctx.keys.push(f.dist);
            ctx.faces.push(f);
        }
        link(&mut ctx.faces);
        ctx
    }

    #[test]
    fn tetrahedron_adjacency_table_matches_link() {
        let mut ctx = tetra();
        let table: Vec<_> = ctx.faces.iter().map(|f| (f.adj, f.adj_edge)).collect();
        for f in ctx.faces.iter_mut() {
            (f.adj, f.adj_edge) = ([9; 3], [9; 3]);
        }
        link(&mut ctx.faces);
        let linked: Vec<_> = ctx.faces.iter().map(|f| (f.adj, f.adj_edge)).collect();
        assert_eq!(table, linked);
        assert_eq!(table, TETRA_ADJ.to_vec());
    }

    #[test]
    fn tetrahedron_is_outward_and_linked() {
        let ctx = tetra();
        for (i, f) in ctx.faces.iter().enumerate() {
            assert!(f.dist > 0.0, "origin inside: {f:?}");
            for e in 0..3 {
                let g = &ctx.faces[f.adj[e] as usize];
                let j = usize::from(f.adj_edge[e]);
                assert_eq!(g.adj[j] as usize, i);
                assert_eq!((g.v[j], g.v[(j + 1) % 3]), (f.v[(e + 1) % 3], f.v[e]));
            }
        }
    }

    #[test]
    fn tetrahedron_from_a_gjk_simplex_is_outward_and_linked_and_flat_ones_are_declined() {
        let p = [
            sp(DVec3::new(-1.0, -1.0, -1.0)),
            sp(DVec3::new(3.0, -1.0, -1.0)),
            sp(DVec3::new(-1.0, 3.0, -1.0)),
            sp(DVec3::new(-1.0, -1.0, 3.0)),
        ];
        // Both orientations of the same points.
        for order in [[0, 1, 2, 3], [0, 2, 1, 3], [3, 1, 0, 2]] {
            let mut ctx = Context::new();
            assert!(tetrahedron(&mut ctx, order.map(|i| p[i]), 1e-9));
            assert_eq!(ctx.keys.len(), 4);
            for (i, f) in ctx.faces.iter().enumerate() {
                assert!(f.dist > 0.0, "origin inside: {f:?}");
                assert_eq!(ctx.keys[i], f.dist);
                for e in 0..3 {
                    let g = &ctx.faces[f.adj[e] as usize];
                    let j = usize::from(f.adj_edge[e]);
                    assert_eq!(g.adj[j] as usize, i);
                    assert_eq!((g.v[j], g.v[(j + 1) % 3]), (f.v[(e + 1) % 3], f.v[e]));
                }
            }
        }
        // A fourth point within 2ε of the plane of the other three: left to the searches.
        let flat = [p[0], p[1], p[2], sp(DVec3::new(0.0, 0.0, -1.0 + 1e-10))];
        assert!(!tetrahedron(&mut Context::new(), flat, 1e-9));
        let repeated = [p[0], p[1], p[2], p[2]];
        assert!(!tetrahedron(&mut Context::new(), repeated, 1e-9));
    }

    #[test]
    fn carve_and_stitch_grow_a_consistent_polytope() {
        let mut ctx = tetra();
        // Beyond the bottom face only: one face out, three in (F = 2V − 4 with V = 5).
        let w = DVec3::new(0.0, 0.0, -5.0);
        ctx.verts.push(sp(w));
        assert!(carve(&mut ctx, 0, w, 0.0));
        assert_eq!(ctx.horizon.len(), 3);
        assert!(stitch(&mut ctx, 4));
        assert_eq!(ctx.faces.iter().filter(|f| f.alive).count(), 6);
        // Beyond the three faces around vertex 0 = (−1, −1, −1) now: it leaves the polytope.
        let w = DVec3::new(-9.0, -9.0, -9.0);
        ctx.verts.push(sp(w));
        // (carve deletes its start face unconditionally: in the loop it is the closest face,
        // which w is beyond by more than the tolerance; here take the face w sees most.)
        let f0 = (0..ctx.faces.len())
            .filter(|&i| ctx.faces[i].alive)
            .max_by(|&i, &j| {
                let h = |k: usize| ctx.faces[k].n.dot(w) - ctx.faces[k].dist;
                h(i).total_cmp(&h(j))
            })
            .expect("a face");
        assert!(carve(&mut ctx, f0, w, 0.0));
        assert!(stitch(&mut ctx, 5));
        // Every live face is outward (origin inside) and linked both ways.
        for (i, f) in ctx.faces.iter().enumerate().filter(|(_, f)| f.alive) {
            assert!(f.dist > 0.0);
            for e in 0..3 {
                let g = &ctx.faces[f.adj[e] as usize];
                assert!(g.alive);
                assert_eq!(g.adj[usize::from(f.adj_edge[e])] as usize, i);
            }
        }
    }

    #[test]
    fn broken_adjacency_is_reported() {
        let mut ctx = tetra();
        ctx.faces[1].adj = [99, 99, 99];
        let w = DVec3::new(0.0, -5.0, 0.0);
        // Face 1 (normal −y) sees w; its neighbours are out of range.
        assert!(!carve(&mut ctx, 1, w, 0.0));
    }

    #[test]
    fn a_horizon_that_is_not_one_loop_is_reported() {
        let mut ctx = tetra();
        ctx.verts.push(sp(DVec3::ZERO));
        // Too short.
        ctx.horizon.clear();
        ctx.horizon.push(HorizonEdge {
            s: 0,
            e: 1,
            ..HorizonEdge::default()
        });
        ctx.horizon.push(HorizonEdge {
            s: 1,
            e: 0,
            ..HorizonEdge::default()
        });
        assert!(!stitch(&mut ctx, 4));
        // Two loops (0→1→2→0 and 3→3): every end starts an edge, but the walk from the first
        // edge does not visit them all.
        ctx.horizon.clear();
        for (s, e) in [(0, 1), (1, 2), (2, 0), (3, 3)] {
            ctx.horizon.push(HorizonEdge {
                s,
                e,
                ..HorizonEdge::default()
            });
        }
        assert!(!stitch(&mut ctx, 4));
        // A vertex starting two edges.
        ctx.horizon.clear();
        for (s, e) in [(0, 1), (1, 2), (1, 0), (2, 0)] {
            ctx.horizon.push(HorizonEdge {
                s,
                e,
                ..HorizonEdge::default()
            });
        }
        assert!(!stitch(&mut ctx, 4));
        // A new face without a normal (w on the line of its horizon edge).
        ctx.horizon.clear();
        ctx.verts.push(sp(DVec3::new(1.0, -1.0, -1.0))); // on the edge 0 → 1
        for (s, e) in [(0, 1), (1, 2), (2, 0)] {
            ctx.horizon.push(HorizonEdge {
                s,
                e,
                ..HorizonEdge::default()
            });
        }
        assert!(!stitch(&mut ctx, 5));
    }

    /// A context holding the given faces (vertex triples of `pts`), unlinked.
    fn faces_of(pts: &[DVec3], tris: &[[u32; 3]]) -> Context<DVec3> {
        let mut ctx = Context::new();
        ctx.verts.extend(pts.iter().map(|&p| sp(p)));
        for &v in tris {
            let f = make_face(&ctx.verts, v).expect("a proper face");
            ctx.keys.push(f.dist);
            ctx.faces.push(f);
        }
        ctx
    }

    #[test]
    fn closest_prefers_the_coplanar_face_holding_the_projection() {
        // Faces 0 and 1 lie in the plane z = 1 (offset 1): the origin projects to (0, 0, 1),
        // outside face 0 and inside face 1. Face 2 (z = 5) is far.
        let pts = [
            DVec3::new(2.0, 0.0, 1.0),
            DVec3::new(3.0, 0.0, 1.0),
            DVec3::new(2.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(1.0, -1.0, 1.0),
            DVec3::new(0.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 5.0),
            DVec3::new(1.0, -1.0, 5.0),
            DVec3::new(0.0, 1.0, 5.0),
        ];
        let mut ctx = faces_of(&pts, &[[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
        assert_eq!(ctx.faces[0].dist, ctx.faces[1].dist);
        assert_eq!(closest(&mut ctx, 1e-10, 0.0), Some(1));
        // Face 0 was checked and dropped from the scan; face 1 holds the projection.
        assert!(ctx.faces[0].checked && !ctx.faces[0].inside);
        assert_eq!(ctx.keys[0], f64::INFINITY);
        assert!(ctx.faces[1].checked && ctx.faces[1].inside);
        // Without face 1 there is no candidate: the least offset among all live faces.
        ctx.faces[1].alive = false;
        ctx.keys[1] = f64::INFINITY;
        ctx.keys[2] = f64::INFINITY;
        ctx.faces[2].checked = true;
        assert_eq!(closest(&mut ctx, 1e-10, 0.0), Some(0));
    }

    #[test]
    fn closest_skips_the_projection_test_for_a_clear_winner() {
        // Face 0 (z = 1) is ahead of face 1 (z = 5) by far more than the margin.
        let pts = [
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(1.0, -1.0, 1.0),
            DVec3::new(0.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 5.0),
            DVec3::new(1.0, -1.0, 5.0),
            DVec3::new(0.0, 1.0, 5.0),
        ];
        let mut ctx = faces_of(&pts, &[[0, 1, 2], [3, 4, 5]]);
        assert_eq!(closest(&mut ctx, 1e-10, 0.0), Some(0));
        assert!(!ctx.faces[0].checked);
        // Within the margin the test is made.
        assert_eq!(closest(&mut ctx, 10.0, 0.0), Some(0));
        assert!(ctx.faces[0].checked && ctx.faces[0].inside);
    }

    fn params(vis_eps: f64) -> Params<DVec3> {
        Params {
            abs_tol: 1e-10,
            rel_tol: 1e-10,
            eps: 1e-10,
            vis_eps,
            max_iterations: 64,
            toward_b: DVec3::X,
            witness_a: DVec3::ZERO,
            witness_b: DVec3::ZERO,
            closest: DVec3::ZERO,
        }
    }

    #[test]
    fn lazy_recheck_shifts_the_stored_planes_and_falls_back_to_rebuilt_ones() {
        let params = params(1e-12);
        // A translation moves every plane by `n·t`: the lazy bound is the new plane itself.
        let mut ctx = tetra();
        let t = DVec3::new(0.1, -0.05, 0.02);
        for v in ctx.verts.iter_mut() {
            v.w += t;
        }
        let exact: Vec<_> = ctx
            .faces
            .iter()
            .map(|f| make_face(&ctx.verts, f.v).expect("a face").dist)
            .collect();
        assert!(rebuild(&mut ctx, &params));
        assert!(ctx.stale);
        for (f, d) in ctx.faces.iter().zip(&exact) {
            assert!((f.dist - d).abs() < 1e-14, "{} vs {d}", f.dist);
        }
        // Only the face of least bound (the slanted one, 1/√3 + t·(1, 1, 1)/√3; the others
        // are at 0.9 and more) has its plane built already (`exact_candidates`).
        let least = exact.iter().copied().fold(f64::INFINITY, f64::min);
        let built: Vec<_> = ctx.faces.iter().filter(|f| f.exact).collect();
        assert_eq!(built.len(), 1);
        assert!((built[0].dist - (1.0 + 0.07) / 3f64.sqrt()).abs() < 1e-14);
        assert_eq!(built[0].dist, least);
        // The scan answers with that face, and the least offset of all faces is the least
        // bound.
        let i = closest(&mut ctx, f64::INFINITY, params.vis_eps).expect("a face");
        assert!(ctx.faces[i].exact);
        assert!((ctx.least - least).abs() < 1e-14);
        assert_eq!(ctx.least, least_offset(&ctx.faces));
        // Before a carve every plane is rebuilt.
        assert!(refresh(&mut ctx, params.vis_eps));
        assert!(!ctx.stale && ctx.faces.iter().all(|f| f.exact));

        // Vertex 0 moved up to the plane z = 0: the stored normal −z of face (0, 2, 1) no
        // longer bounds it away from the origin, so every plane is rebuilt; that face tilts
        // (offset 2/√18) and the origin is still inside, so the polytope is accepted, exactly.
        let mut ctx = tetra();
        ctx.verts[0].w = DVec3::new(-1.0, -1.0, 0.0);
        assert!(rebuild(&mut ctx, &params));
        assert!(!ctx.stale && ctx.faces.iter().all(|f| f.exact));
        assert!((ctx.faces[0].dist - 2.0 / 18f64.sqrt()).abs() < 1e-14);
        // Moved past the origin: rejected.
        let mut ctx = tetra();
        ctx.verts[0].w = DVec3::new(0.3, 0.3, 0.3);
        assert!(!rebuild(&mut ctx, &params));
    }

    #[test]
    fn lazy_recheck_builds_every_face_whose_bound_undercuts_the_least_offset() {
        let params = params(1e-12);
        let mut ctx = tetra();
        // Face 0 is the plane z = −1 (offset 1); a stale normal tilted toward +x bounds it
        // by 0.5/√1.25 ≈ 0.447 only, below the slanted face's offset 1/√3 ≈ 0.577 (the least):
        // both planes are built, the other two faces stay stale.
        ctx.faces[0].n = DVec3::new(0.5, 0.0, -1.0).normalize();
        assert!(rebuild(&mut ctx, &params));
        let exact: Vec<bool> = ctx.faces.iter().map(|f| f.exact).collect();
        assert_eq!(exact, [true, false, true, false]);
        assert!((ctx.faces[0].dist - 1.0).abs() < 1e-15);
        assert!((ctx.faces[2].dist - 1.0 / 3f64.sqrt()).abs() < 1e-15);
        assert!((ctx.faces[1].dist - 1.0).abs() < 1e-15 && ctx.faces[3].dist >= 1.0 - 1e-15);
        assert_eq!(closest(&mut ctx, f64::INFINITY, params.vis_eps), Some(2));
    }

    #[test]
    fn faces_without_normals_are_refused() {
        let verts = [sp(DVec3::ZERO), sp(DVec3::X), sp(DVec3::X * 2.0)];
        assert!(make_face(&verts, [0, 1, 2]).is_none());
        assert!(make_face(&verts, [0, 1, 7]).is_none());
        let nan = [sp(DVec3::ZERO), sp(DVec3::X), sp(DVec3::NAN)];
        assert!(make_face(&nan, [0, 1, 2]).is_none());
    }
}
