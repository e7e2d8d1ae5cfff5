//! The previous query's polytope, kept for the next query on the same pair (3D).
//!
//! Every vertex is stored as its two support points: `a` in A's frame and `b` in B's own frame
//! (as [`crate::gjk::GjkCache`] keeps its simplex), so that under the next relative pose
//! `a − pose_ab(b)` is again a point of `K = core(A) − core(B)`. The faces are kept as they were
//! (slot store with neighbours and free list) with the planes they last had; `epa3::rebuild`
//! re-validates the polytope under the new pose (lazily: each stored plane shifted to a
//! half-space still holding the face's vertices) before the expansion continues from it. The
//! adjacency, which re-placing does not change, is checked when the polytope is stored after
//! the faces changed, not on every load.
//!
//! The buffers are swapped with the [`Context`]'s, not copied: loading hands the stored
//! polytope to the context, storing hands the context's final polytope back (the context keeps
//! the cache's old buffers as scratch). Neither allocates once the buffers have grown. A vertex
//! that survives several queries keeps the `b` it was first stored with, so re-placing does not
//! accumulate rounding from query to query.

use super::{Context, Face};
use crate::gjk::minkowski::{MinkowskiDifference, SupportPoint};
use crate::math::pair_key::PairKey;
use crate::math::vector::Vector;
use crate::shape::SupportMap;

/// Largest polytope kept (live vertices); a bigger one is dropped and the next query on the
/// pair starts from GJK's simplex.
pub(crate) const MAX_CACHED_VERTICES: usize = 512;

/// A stored polytope (see the module header).
#[derive(Clone, Debug, Default)]
pub struct Cached<V> {
    /// The pair the polytope belongs to.
    owner: PairKey,
    /// Whether `verts`, `faces`, `free` and `locals` hold a polytope.
    valid: bool,
    /// Vertices (only `a` is meaningful while stored) and faces (slot store) as the expansion
    /// left them, and the free face slots.
    verts: Vec<SupportPoint<V>>,
    faces: Vec<Face<V>>,
    free: Vec<u32>,
    /// Per stored vertex: its `b` in B's own frame.
    locals: Vec<V>,
    /// How many vertices the current query loaded (those have `locals` already).
    loaded: usize,
    /// Scratch: old vertex index → compacted index (`u32::MAX`: dropped).
    remap: Vec<u32>,
    /// Whether the last query on this cache started from the stored polytope.
    pub(crate) reused: bool,
    /// Whether that query's answer was certified with some faces still stale.
    pub(crate) lazy: bool,
}

impl<V: Vector> Cached<V> {
    /// Whether the stored polytope (if any) was made for the pair (`a`, `b`).
    pub(crate) fn belongs_to<A: ?Sized, B: ?Sized>(&self, a: &A, b: &B) -> bool {
        self.owner == PairKey::of(a, b)
    }

    /// Whether a polytope is stored for the pair (`a`, `b`).
    pub(crate) fn holds<A: ?Sized, B: ?Sized>(&self, a: &A, b: &B) -> bool {
        self.valid && self.belongs_to(a, b)
    }

    /// The stored polytope's vertices, face slots and live faces (zeros when none is stored).
    pub(crate) fn size(&self) -> (usize, usize, usize) {
        if !self.valid {
            return (0, 0, 0);
        }
        let live = self.faces.iter().filter(|f| f.alive).count();
        (self.verts.len(), self.faces.len(), live)
    }

    /// Forgets the stored polytope.
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
        self.loaded = 0;
    }

    /// Moves the stored polytope into `ctx`, re-placed under `mink`'s relative pose (vertices
    /// only; the faces' planes are stale). Returns false, leaving `ctx` untouched and the cache
    /// empty, when there is no polytope for this pair.
    pub(crate) fn load<A, B>(
        &mut self,
        mink: &MinkowskiDifference<'_, V, A, B>,
        ctx: &mut Context<V>,
    ) -> bool
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        self.loaded = 0;
        if !self.valid || self.owner != PairKey::of(mink.a, mink.b) {
            self.valid = false;
            return false;
        }
        self.valid = false;
        if self.locals.len() != self.verts.len() {
            return false;
        }
        ctx.clear();
        core::mem::swap(&mut ctx.verts, &mut self.verts);
        core::mem::swap(&mut ctx.faces, &mut self.faces);
        core::mem::swap(&mut ctx.free, &mut self.free);
        let rot = mink.rot_ab();
        let t = mink.pose_ab().translation();
        for (v, &b_local) in ctx.verts.iter_mut().zip(&self.locals) {
            let b = V::mat_mul(rot, b_local) + t;
            v.b = b;
            v.w = v.a - b;
        }
        self.loaded = ctx.verts.len();
        true
    }

    /// Keeps `ctx`'s polytope (an intact one: closed, linked, as the expansion left it) for the
    /// next query on this pair: drops the vertices no live face uses, records `b` in B's frame
    /// for the vertices this query added, and swaps the buffers in. A polytope with more than
    /// [`MAX_CACHED_VERTICES`] live vertices is not kept.
    pub(crate) fn store<A, B>(
        &mut self,
        mink: &MinkowskiDifference<'_, V, A, B>,
        ctx: &mut Context<V>,
    ) where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        self.valid = false;
        let n = ctx.verts.len();
        let loaded = self.loaded.min(n).min(self.locals.len());
        self.loaded = 0;
        if n > loaded {
            // The expansion added vertices (and may have buried old ones): the faces changed,
            // so their adjacency is checked once here rather than on every load.
            if !linked(&ctx.faces) {
                return;
            }
            // Compact.
            self.remap.clear();
            self.remap.resize(n, u32::MAX);
            for f in ctx.faces.iter().filter(|f| f.alive) {
                for &v in &f.v {
                    match self.remap.get_mut(v as usize) {
                        Some(r) => *r = 0,
                        None => return,
                    }
                }
            }
            let mut kept = 0u32;
            for r in self.remap.iter_mut() {
                if *r == 0 {
                    *r = kept;
                    kept += 1;
                }
            }
            if kept as usize > MAX_CACHED_VERTICES {
                return;
            }
            for f in ctx.faces.iter_mut().filter(|f| f.alive) {
                for v in &mut f.v {
                    // In range: every index was marked above.
                    *v = self.remap.get(*v as usize).copied().unwrap_or(0);
                }
            }
            self.locals.truncate(loaded);
            self.locals.resize(loaded.max(kept as usize), V::ZERO);
            let rot = mink.rot_ab();
            let t = mink.pose_ab().translation();
            // Forward in place: the new index of a kept vertex never exceeds its old one.
            for (i, &r) in self.remap.iter().enumerate() {
                let (Some(&p), r) = (ctx.verts.get(i), r as usize) else {
                    return;
                };
                if r == u32::MAX as usize {
                    continue;
                }
                let local = if i < loaded {
                    match self.locals.get(i) {
                        Some(&l) => l,
                        None => return,
                    }
                } else {
                    V::mat_transpose_mul(rot, p.b - t)
                };
                match (ctx.verts.get_mut(r), self.locals.get_mut(r)) {
                    (Some(v), Some(l)) => {
                        *v = p;
                        *l = local;
                    }
                    _ => return,
                }
            }
            ctx.verts.truncate(kept as usize);
            self.locals.truncate(kept as usize);
        } else if ctx.verts.len() != self.locals.len() {
            return;
        }
        core::mem::swap(&mut ctx.verts, &mut self.verts);
        core::mem::swap(&mut ctx.faces, &mut self.faces);
        core::mem::swap(&mut ctx.free, &mut self.free);
        ctx.clear();
        self.owner = PairKey::of(mink.a, mink.b);
        self.valid = true;
    }
}

/// Whether the live faces' adjacency is consistent: each edge's neighbour is alive, points
/// back, and runs the edge the other way, so the surface is closed and consistently oriented.
/// O(F).
fn linked<V>(faces: &[Face<V>]) -> bool {
    const NEXT: [usize; 3] = [1, 2, 0];
    for (i, f) in faces.iter().enumerate().filter(|(_, f)| f.alive) {
        for (e, (&gi, &j)) in f.adj.iter().zip(&f.adj_edge).enumerate() {
            let j = usize::from(j);
            let (Some(g), Some(&jn), Some(&en)) =
                (faces.get(gi as usize), NEXT.get(j), NEXT.get(e))
            else {
                return false;
            };
            // Edge e runs v[e] → v[e + 1]; the neighbour runs it back as its edge j.
            let ok = g.alive
                && g.adj.get(j).is_some_and(|&b| b as usize == i)
                && g.adj_edge.get(j).is_some_and(|&b| usize::from(b) == e)
                && g.v.get(j) == f.v.get(en)
                && g.v.get(jn) == f.v.get(e);
            if !ok {
                return false;
            }
        }
    }
    true
}
