//! 2D expansion: blow GJK's simplex up to a triangle, then expand a convex polygon toward the
//! boundary of `K = core(A) − core(B)`.
//!
//! The polygon is kept counter-clockwise in `Context::verts`, with the data of edge
//! `i = (verts[i], verts[i+1])` (outward unit normal `(e.y, −e.x)/|e|` and plane offset) in
//! `Context::faces[i]`. Each iteration inserts the support point along the closest edge's
//! normal between that edge's endpoints. In exact arithmetic no other edge can see it:
//! polygon vertices are support points of `K`, hence extreme, and an extreme point cannot
//! become reflex. Rounding can only make such a vertex reflex by a few ulps, which is harmless.

use super::sealed::{Expansion, Params, Sealed};
use super::warm::Cached;
use super::{
    balanced, broken, farthest, finite, flat_answer, point_answer, settle, Context, Face, Upper,
};
use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::shape::SupportMap;
use crate::verdict::Status;
use glam::DVec2;

/// Cap on the polygon's vertices (3 initial + one per iteration).
const MAX_VERTICES: usize = 1024;

impl Sealed for DVec2 {
    fn expand<A, B>(
        mink: &MinkowskiDifference<'_, DVec2, A, B>,
        start: &Simplex<DVec2>,
        params: &Params<DVec2>,
        ctx: &mut Context<DVec2>,
        _warm: Option<&mut Cached<DVec2>>,
    ) -> Expansion<DVec2>
    where
        A: SupportMap<DVec2> + ?Sized,
        B: SupportMap<DVec2> + ?Sized,
    {
        // 2D keeps GJK's simplex only (the polytope cache stays empty).
        expand(mink, start, params, ctx)
    }

    fn warm<A, B>(
        _mink: &MinkowskiDifference<'_, DVec2, A, B>,
        _params: &Params<DVec2>,
        _ctx: &mut Context<DVec2>,
        _cache: &mut Cached<DVec2>,
    ) -> Option<Expansion<DVec2>>
    where
        A: SupportMap<DVec2> + ?Sized,
        B: SupportMap<DVec2> + ?Sized,
    {
        None
    }
}

/// Edge data for `a → b` of a counter-clockwise polygon, or `None` for a zero-length edge.
fn make_edge(a: DVec2, b: DVec2) -> Option<Face<DVec2>> {
    let e = b - a;
    let n = DVec2::new(e.y, -e.x).try_normalize()?;
    let dist = 0.5 * (n.dot(a) + n.dot(b));
    if !dist.is_finite() {
        return None;
    }
    // The origin's projection a + t·e, t = −a·e/|e|², inside the edge (relative 1e-9)?
    let t = -a.dot(e) / e.length_squared();
    Some(Face {
        n,
        dist,
        inside: t.is_finite() && (-1e-9..=1.0 + 1e-9).contains(&t),
        checked: true,
        exact: true,
        alive: true,
        ..Face::default()
    })
}

/// Builds the initial counter-clockwise triangle in `ctx`, or returns the defined answer for a
/// point or collinear `K` (see the 3D version for why the answer is then exact to `ε`).
fn initial<A, B>(
    mink: &MinkowskiDifference<'_, DVec2, A, B>,
    start: &Simplex<DVec2>,
    params: &Params<DVec2>,
    ctx: &mut Context<DVec2>,
) -> Result<(), Expansion<DVec2>>
where
    A: SupportMap<DVec2> + ?Sized,
    B: SupportMap<DVec2> + ?Sized,
{
    let eps = params.eps;
    let pts = start.points();
    let s0 = match pts.first() {
        Some(p) => *p,
        None => {
            let p = mink.support(DVec2::X);
            if !finite(&p) {
                return Err(broken(params, 0));
            }
            p
        }
    };
    let axes = [DVec2::X, DVec2::NEG_X, DVec2::Y, DVec2::NEG_Y];
    let (s1, l1) = farthest(mink, pts, || axes, |w| (w - s0.w).length(), params)?;
    if l1.is_nan() || l1 <= eps {
        return Err(point_answer(s0.w, params));
    }
    let u = match (s1.w - s0.w).perp().try_normalize() {
        Some(u) => u,
        None => return Err(broken(params, 0)),
    };
    let (s2, l2) = farthest(mink, pts, || [u, -u], |w| u.dot(w - s0.w).abs(), params)?;
    if l2.is_nan() || l2 <= eps {
        return Err(flat_answer(mink, u, s0.w, params));
    }
    let (s1, s2) = if (s1.w - s0.w).perp_dot(s2.w - s0.w) < 0.0 {
        (s2, s1)
    } else {
        (s1, s2)
    };
    ctx.verts.extend_from_slice(&[s0, s1, s2]);
    for (a, b) in [(s0, s1), (s1, s2), (s2, s0)] {
        match make_edge(a.w, b.w) {
            Some(f) => ctx.faces.push(f),
            None => return Err(broken(params, 0)),
        }
    }
    Ok(())
}

/// Index of the edge with the least offset among those whose projection of the origin is
/// inside or that the origin lies beyond, else among all edges; lowest index on ties. See the
/// 3D version for why (collinear edges tie on `dist`; only the one holding the projection
/// gives the right contact point).
fn closest(faces: &[Face<DVec2>]) -> Option<usize> {
    let mut best = None;
    let mut best_any = None;
    let (mut bd, mut bd_any) = (f64::INFINITY, f64::INFINITY);
    for (i, f) in faces.iter().enumerate() {
        if (f.inside || f.dist < 0.0) && f.dist < bd {
            bd = f.dist;
            best = Some(i);
        }
        if f.dist < bd_any {
            bd_any = f.dist;
            best_any = Some(i);
        }
    }
    best.or(best_any)
}

/// The answer from edge `a → b` with data `f`: the origin's projection on the edge as a
/// convex combination of its endpoints, applied to their `a` and `b` parts.
fn answer(
    a: &SupportPoint<DVec2>,
    b: &SupportPoint<DVec2>,
    f: &Face<DVec2>,
    status: Status,
    iterations: u32,
) -> Expansion<DVec2> {
    let e = b.w - a.w;
    let l2 = e.length_squared();
    let t = if l2 > 0.0 {
        (-a.w.dot(e) / l2).clamp(0.0, 1.0)
    } else {
        0.5
    };
    let t = if t.is_finite() { t } else { 0.5 };
    let pa = a.a + (b.a - a.a) * t;
    let pb = a.b + (b.b - a.b) * t;
    let (pa, pb) = balanced(pa, pb, f.n, f.dist);
    Expansion {
        status,
        iterations,
        depth: f.dist,
        normal: f.n,
        pa,
        pb,
        lower: f.dist,
        upper: f64::INFINITY,
    }
}

fn expand<A, B>(
    mink: &MinkowskiDifference<'_, DVec2, A, B>,
    start: &Simplex<DVec2>,
    params: &Params<DVec2>,
    ctx: &mut Context<DVec2>,
) -> Expansion<DVec2>
where
    A: SupportMap<DVec2> + ?Sized,
    B: SupportMap<DVec2> + ?Sized,
{
    ctx.clear();
    if let Err(e) = initial(mink, start, params, ctx) {
        return e;
    }
    let dup2 = params.vis_eps * params.vis_eps;
    let mut iterations = 0u32;
    let mut best: Option<Upper<DVec2>> = None;
    loop {
        let len = ctx.verts.len();
        let found = closest(&ctx.faces).and_then(|i| {
            Some((
                i,
                *ctx.faces.get(i)?,
                *ctx.verts.get(i)?,
                *ctx.verts.get((i + 1) % len)?,
            ))
        });
        let Some((i, f, a, b)) = found else {
            return broken(params, iterations);
        };
        let tol = params.abs_tol.max(params.rel_tol * f.dist.abs());
        let stop =
            |status, iterations, best| settle(answer(&a, &b, &f, status, iterations), best, tol);
        if iterations >= params.max_iterations {
            return stop(Status::IterationLimit, iterations, best);
        }
        iterations += 1;
        let w = mink.support(f.n);
        if !finite(&w) {
            return stop(Status::Degenerate, iterations, best);
        }
        Upper::record(&mut best, f.n, w);
        let gap = f.n.dot(w.w) - f.dist;
        if gap <= tol {
            return stop(Status::Converged, iterations, best);
        }
        // The support-point gap bound (see the 3D version).
        if let Some(b) = best.filter(|b| b.value - f.dist <= tol && f.dist >= 0.0) {
            return b.answer(Status::Converged, iterations, f.dist);
        }
        if len >= MAX_VERTICES {
            return stop(Status::IterationLimit, iterations, best);
        }
        if ctx
            .verts
            .iter()
            .any(|v| (v.w - w.w).length_squared() <= dup2)
        {
            return stop(Status::Degenerate, iterations, best);
        }
        let (Some(e1), Some(e2)) = (make_edge(a.w, w.w), make_edge(w.w, b.w)) else {
            return stop(Status::Degenerate, iterations, best);
        };
        // i < len, so both insertion points are in range.
        ctx.verts.insert(i + 1, w);
        if let Some(slot) = ctx.faces.get_mut(i) {
            *slot = e1;
        }
        ctx.faces.insert(i + 1, e2);
    }
}
