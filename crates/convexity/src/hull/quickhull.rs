//! Quickhull in 3D with a thick-plane tolerance, then merging of coplanar triangles into
//! polygonal faces.
//!
//! Source: C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull algorithm for convex
//! hulls", ACM TOMS 22(4), 1996 (outside sets, furthest point first, horizon by depth-first
//! search, the "thick plane" of width `tol` within which a point counts as coplanar and is
//! dropped). The horizon walk follows the recursive formulation of J. Lloyd's `quickhull3d`
//! and A. Kuukka's `QuickHull` (made iterative here); like the latter, a point whose visible
//! region is not a disk (only possible when rounding makes visibility inconsistent) is skipped
//! and counted instead of corrupting the mesh.
//!
//! Near-degeneracies handled explicitly: (1) a new point within `tol` of the line of a
//! horizon edge would make a needle face with a meaningless normal; if an end of that edge lies
//! between the other end and the point, every face around that end is forced visible (the end
//! stops being a vertex), and if the point lies over the edge it is set aside. (2) The thick
//! plane makes "more than tol outside" non-monotone where faces meet at tiny dihedral angles
//! (thin slabs): points dropped near the surface, and vertices of deleted faces, are checked
//! against every final face and re-inserted (bounded rounds, bounded work). (3) `mod.rs`
//! re-checks the result; if it is not valid within 4 tol (a fold of needle faces left by (1)
//! on points within rounding of hull edges) or a point was set aside, it builds the exact hull
//! (`exact.rs`) and groups its triangles into faces there instead.
//!
//! Numerics: coordinates are shifted to the bounding-box centre before any arithmetic (so an
//! offset of 1e8 costs nothing beyond the rounding of the shift itself), and every
//! point-to-plane test uses the caller's `tol`, which `mod.rs` scales to the data as qhull's
//! `DISTround` does (a few ε times the sum of the largest absolute coordinates). Exact
//! predicates are not used at run time: inside the thick plane every decision is allowed to go
//! either way, and the result is repaired (merged) until it is convex within `tol`.
//!
//! Complexity: expected O(n log n) for points in general position (each point is partitioned
//! into the outside set of one new face per level); O(n²) worst case (all points on the hull
//! with adversarial order). Merging is O(T) in the number of triangles plus O(T) hashing.
//!
//! Merging groups edge-connected triangles within `tol` of the plane of the group's largest
//! triangle, then merges any two faces across an edge that is concave by more than `tol` (a
//! vertex of one above the other's Newell-fitted plane), refitting the plane; at most 8
//! rounds, each of which merges or ends the pass.
//!
//! Failure modes: none that panic; degenerate inputs (all points within `tol` of a point,
//! a line or a plane) are reported as such by [`quickhull`]; an invalid result is caught by
//! the check in `mod.rs`.

use glam::DVec3;
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// What quickhull found.
pub(super) enum Raw {
    /// A full-dimensional hull: a closed triangle mesh (outward, CCW), and how many points were
    /// skipped because rounding made their horizon inconsistent.
    Solid { mesh: TriMesh, skipped: usize },
    /// All points within `tol` of the plane through these three indices (normal `n`).
    Flat { normal: DVec3 },
    /// All points within `tol` of the line; the two extreme indices.
    Segment(usize, usize),
    /// All points within `tol` of this one.
    Point(usize),
}

/// A closed triangle mesh: triangle `t` has vertices `tris[t]` (CCW seen from outside) and
/// half-edge `3t + i` runs from `tris[t][i]` to `tris[t][(i + 1) % 3]`; `twin[h]` is the
/// opposite half-edge. Vertex indices are input indices.
pub(super) struct TriMesh {
    pub tris: Vec<[u32; 3]>,
    pub twin: Vec<u32>,
}

impl TriMesh {
    /// The live triangles of a builder (`alive[t]`), renumbered densely, with each twin
    /// half-edge index (`3·triangle + edge`) mapped to the new numbering (`NONE` where the twin
    /// is not alive).
    pub(super) fn from_alive(all: &[[u32; 3]], alive: &[bool], all_twin: &[u32]) -> TriMesh {
        let mut new_id = vec![NONE; all.len()];
        let mut tris = Vec::new();
        for (t, tri) in all.iter().enumerate() {
            if alive.get(t).copied().unwrap_or(false) {
                new_id[t] = tris.len() as u32;
                tris.push(*tri);
            }
        }
        let mut twin = vec![NONE; 3 * tris.len()];
        for (t, &id) in new_id.iter().enumerate() {
            if id == NONE {
                continue;
            }
            for e in 0..3 {
                let tw = all_twin.get(3 * t + e).copied().unwrap_or(NONE) as usize;
                let g = new_id.get(tw / 3).copied().unwrap_or(NONE);
                if g != NONE {
                    twin[3 * id as usize + e] = 3 * g + (tw % 3) as u32;
                }
            }
        }
        TriMesh { tris, twin }
    }
}

#[inline]
fn plane_of(q: &[DVec3], t: [u32; 3]) -> (DVec3, f64) {
    let a = q[t[0] as usize];
    let b = q[t[1] as usize];
    let c = q[t[2] as usize];
    // The cross product of the two edges out of the vertex opposite the longest edge is the
    // best conditioned of the three choices.
    let (ab, bc, ca) = (b - a, c - b, a - c);
    let (la, lb, lc) = (
        bc.length_squared(),
        ca.length_squared(),
        ab.length_squared(),
    );
    let n = if la >= lb && la >= lc {
        ab.cross(a - c) * -1.0 // edges out of a: ab and ac
    } else if lb >= lc {
        bc.cross(b - a) * -1.0 // edges out of b: bc and ba
    } else {
        ca.cross(c - b) * -1.0 // edges out of c: ca and cb
    };
    match n.try_normalize() {
        Some(n) => (n, n.dot(a).max(n.dot(b)).max(n.dot(c))),
        None => (DVec3::ZERO, 0.0),
    }
}

/// Builds the hull of `points` (already validated finite). `center` is subtracted from every
/// point first. `tol` is the thick-plane half width.
pub(super) fn quickhull(points: &[DVec3], center: DVec3, tol: f64) -> Raw {
    let q: Vec<DVec3> = points.iter().map(|p| *p - center).collect();
    if q.is_empty() {
        return Raw::Point(0);
    }
    let (s, nrm) = match initial_simplex(&q, tol) {
        Ok(seed) => seed,
        Err(lower_dimensional) => return lower_dimensional,
    };
    let mut hull = Builder {
        q: &q,
        tol,
        tris: Vec::new(),
        twin: Vec::new(),
        plane: Vec::new(),
        alive: Vec::new(),
        outside: Vec::new(),
        mark: Vec::new(),
        stamp: 0,
        mark2: Vec::new(),
        stamp2: 0,
        recheck: Vec::new(),
    };
    if !hull.seed_tetrahedron(s) {
        return Raw::Flat { normal: nrm };
    }
    hull.partition(s);
    let skipped = hull.run();
    Raw::Solid {
        mesh: hull.into_mesh(),
        skipped,
    }
}

/// Four affinely independent seed points (and the normal of the first three's plane), or the
/// lower-dimensional answer: the farthest pair of axis extremes, the point farthest from their
/// line, the point farthest from that plane, each required to be more than `tol` away.
pub(super) fn initial_simplex(q: &[DVec3], tol: f64) -> Result<([u32; 4], DVec3), Raw> {
    // Extremes along the axes; the farthest pair of them seeds the simplex.
    let mut ext = [0usize; 6];
    for (i, p) in q.iter().enumerate() {
        for k in 0..3 {
            if p[k] < q[ext[2 * k]][k] {
                ext[2 * k] = i;
            }
            if p[k] > q[ext[2 * k + 1]][k] {
                ext[2 * k + 1] = i;
            }
        }
    }
    let (mut i0, mut i1, mut best) = (ext[0], ext[1], -1.0);
    for a in 0..6 {
        for b in a + 1..6 {
            let d = (q[ext[a]] - q[ext[b]]).length_squared();
            if d > best {
                best = d;
                i0 = ext[a];
                i1 = ext[b];
            }
        }
    }
    if !(best.sqrt() > tol) {
        return Err(Raw::Point(i0));
    }
    let a = q[i0];
    let u = (q[i1] - a).normalize();
    let (mut i2, mut best) = (i0, -1.0);
    for (i, p) in q.iter().enumerate() {
        let d = (*p - a).cross(u).length_squared();
        if d > best {
            best = d;
            i2 = i;
        }
    }
    if !(best.sqrt() > tol) {
        let (mut lo, mut hi) = (i0, i0);
        for (i, p) in q.iter().enumerate() {
            let t = (*p - a).dot(u);
            if t < (q[lo] - a).dot(u) {
                lo = i;
            }
            if t > (q[hi] - a).dot(u) {
                hi = i;
            }
        }
        return Err(Raw::Segment(lo, hi));
    }
    let nrm = match u.cross(q[i2] - a).try_normalize() {
        Some(v) => v,
        None => return Err(Raw::Segment(i0, i1)),
    };
    let (mut i3, mut best) = (i0, -1.0);
    for (i, p) in q.iter().enumerate() {
        let d = (*p - a).dot(nrm).abs();
        if d > best {
            best = d;
            i3 = i;
        }
    }
    if !(best > tol) {
        return Err(Raw::Flat { normal: nrm });
    }
    Ok(([i0 as u32, i1 as u32, i2 as u32, i3 as u32], nrm))
}

/// Buffers of one point insertion.
#[derive(Default)]
struct Scratch {
    visible: Vec<u32>,
    horizon: Vec<u32>,
    frames: Vec<(u32, u8, u8)>,
    orphans: Vec<u32>,
    forced: Vec<u32>,
}

struct Builder<'a> {
    q: &'a [DVec3],
    tol: f64,
    tris: Vec<[u32; 3]>,
    twin: Vec<u32>,
    plane: Vec<(DVec3, f64)>,
    alive: Vec<bool>,
    outside: Vec<Vec<u32>>,
    mark: Vec<u32>,
    stamp: u32,
    mark2: Vec<u32>,
    stamp2: u32,
    /// Points dropped within the thick plane of some face, and vertices of deleted faces: the
    /// candidates of the final containment pass.
    recheck: Vec<u32>,
}

impl Builder<'_> {
    /// The initial tetrahedron on seeds `s`, each face oriented away from the centroid, with
    /// its twins; false if they do not close (a flat seed).
    fn seed_tetrahedron(&mut self, s: [u32; 4]) -> bool {
        let q = self.q;
        let centroid = s.iter().map(|&i| q[i as usize]).sum::<DVec3>() * 0.25;
        let mut faces = [
            [s[0], s[1], s[2]],
            [s[0], s[1], s[3]],
            [s[0], s[2], s[3]],
            [s[1], s[2], s[3]],
        ];
        for f in faces.iter_mut() {
            let (nn, d) = plane_of(q, *f);
            if nn.dot(centroid) > d {
                f.swap(1, 2);
            }
        }
        let mut edge_map: HashMap<(u32, u32), u32> = HashMap::new();
        for (t, f) in faces.iter().enumerate() {
            self.push_tri(*f);
            for i in 0..3 {
                edge_map.insert((f[i], f[(i + 1) % 3]), (3 * t + i) as u32);
            }
        }
        for (t, f) in faces.iter().enumerate() {
            for i in 0..3 {
                let tw = edge_map
                    .get(&(f[(i + 1) % 3], f[i]))
                    .copied()
                    .unwrap_or(NONE);
                self.twin[3 * t + i] = tw;
            }
        }
        !self.twin.contains(&NONE)
    }

    /// Each point goes to the outside set of the first face it is above; points within the
    /// thick plane of a face go to the recheck list.
    fn partition(&mut self, s: [u32; 4]) {
        let tol = self.tol;
        for i in 0..self.q.len() {
            if s.contains(&(i as u32)) {
                continue;
            }
            let mut near = false;
            let mut placed = false;
            for f in 0..4 {
                let d = self.dist(f, i);
                if d > tol {
                    self.outside[f].push(i as u32);
                    placed = true;
                    break;
                }
                near |= d > -tol;
            }
            if !placed && near {
                self.recheck.push(i as u32);
            }
        }
    }

    fn push_tri(&mut self, t: [u32; 3]) -> usize {
        let id = self.tris.len();
        self.plane.push(plane_of(self.q, t));
        self.tris.push(t);
        self.twin.extend_from_slice(&[NONE; 3]);
        self.alive.push(true);
        self.outside.push(Vec::new());
        self.mark.push(0);
        self.mark2.push(0);
        id
    }

    #[inline]
    fn dist(&self, f: usize, i: usize) -> f64 {
        let (n, d) = self.plane[f];
        n.dot(self.q[i]) - d
    }

    /// Adds points until no outside set is left; returns the number of skipped points.
    fn run(&mut self) -> usize {
        let mut stack: Vec<u32> = (0..self.tris.len() as u32).collect();
        let mut skipped = self.run_loop(&mut stack);
        // Final containment pass. The thick plane makes "outside the current hull by more than
        // tol" a non-monotone test: where faces meet at tiny dihedral angles (thin slabs), a
        // point dropped within tol of one face can end up well above a face created later. The
        // candidates (dropped near the surface, or vertices of deleted faces) are checked
        // against every face and re-inserted; bounded rounds and work.
        const MAX_WORK: usize = 100_000_000;
        for _round in 0..4 {
            let mut cand = std::mem::take(&mut self.recheck);
            cand.sort_unstable();
            cand.dedup();
            let mut is_vertex = vec![false; self.q.len()];
            let faces: Vec<usize> = (0..self.tris.len()).filter(|&f| self.alive[f]).collect();
            for &f in &faces {
                for &v in &self.tris[f] {
                    is_vertex[v as usize] = true;
                }
            }
            cand.retain(|&i| !is_vertex[i as usize]);
            if cand.is_empty() || cand.len().saturating_mul(faces.len()) > MAX_WORK {
                break;
            }
            let mut any = false;
            for &i in &cand {
                for &f in &faces {
                    if self.dist(f, i as usize) > self.tol {
                        self.outside[f].push(i);
                        stack.push(f as u32);
                        any = true;
                        break;
                    }
                }
            }
            if !any {
                break;
            }
            skipped += self.run_loop(&mut stack);
        }
        skipped
    }

    /// Adds the farthest outside point of each stacked face until the stack is empty; returns
    /// the number of points set aside (skipped).
    fn run_loop(&mut self, stack: &mut Vec<u32>) -> usize {
        let mut skipped = 0;
        let mut w = Scratch::default();
        // Every iteration removes one point from the outside sets for good (added or skipped),
        // and faces are only pushed when they hold points: the loop is bounded by n + faces.
        while let Some(f) = stack.pop() {
            let f = f as usize;
            if !self.alive[f] || self.outside[f].is_empty() {
                continue;
            }
            let k_best = self.farthest_outside(f);
            let p = self.outside[f][k_best] as usize;
            let degenerate = self.horizon_of(f, p, &mut w);
            if degenerate || !self.horizon_is_simple_cycle(&w.horizon) {
                // Inconsistent visibility (rounding inside the thick plane) or a needle face:
                // set the point aside for the final containment pass.
                self.outside[f].swap_remove(k_best);
                self.recheck.push(p as u32);
                skipped += 1;
                stack.push(f as u32);
                continue;
            }
            let first = self.cone(p, &mut w);
            self.place_orphans(p, first, &mut w, stack);
        }
        skipped
    }

    /// The index in face `f`'s outside set of its farthest point.
    fn farthest_outside(&self, f: usize) -> usize {
        let (mut k_best, mut d_best) = (0, f64::NEG_INFINITY);
        for (k, &i) in self.outside[f].iter().enumerate() {
            let d = self.dist(f, i as usize);
            if d > d_best {
                d_best = d;
                k_best = k;
            }
        }
        k_best
    }

    /// The faces visible from `p` (starting at `f`) and their horizon in `w`; returns whether
    /// the horizon stayed degenerate (a needle face) after forcing faces visible.
    fn horizon_of(&mut self, f: usize, p: usize, w: &mut Scratch) -> bool {
        // Faces forced visible: the outer neighbour of a degenerate horizon edge (the new
        // point within tol of the edge's line, which would make a needle cone face).
        w.forced.clear();
        let mut degenerate = false;
        for _attempt in 0..8 {
            self.visible_region(f, p, w);
            // A point within tol of a horizon edge's line would make a needle face. If one end
            // of the edge lies between the other end and the point, that end is no longer a
            // vertex: force every face around it visible and search again. If the point lies
            // over the edge itself, it is within tol of the hull.
            degenerate = false;
            let mut on_edge = false;
            let before = w.forced.len();
            for &h in &w.horizon {
                let (t, e) = (h as usize / 3, h as usize % 3);
                let a = self.q[self.tris[t][e] as usize];
                let b = self.q[self.tris[t][(e + 1) % 3] as usize];
                let ab = b - a;
                let ap = self.q[p] - a;
                let height = ab.cross(ap).length();
                if !(height > self.tol * ab.length()) {
                    degenerate = true;
                    let along = ap.dot(ab);
                    let fan_from = if along > ab.length_squared() {
                        Some(3 * t + (e + 1) % 3) // b is between a and p
                    } else if along < 0.0 {
                        Some(h as usize) // a is between b and p
                    } else {
                        None
                    };
                    match fan_from {
                        Some(x) => self.fan_faces(x, &mut w.forced),
                        None => on_edge = true,
                    }
                }
            }
            if !degenerate || on_edge || w.forced.len() == before {
                break;
            }
        }
        degenerate
    }

    /// Visible region and its horizon, by depth-first search from face `f`; entering face g
    /// through half-edge t, the edges of g are visited starting after t, which lists the
    /// horizon in order (CCW seen from outside) when the region is a disk.
    fn visible_region(&mut self, f: usize, p: usize, w: &mut Scratch) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        w.visible.clear();
        w.horizon.clear();
        w.frames.clear();
        self.mark[f] = stamp;
        w.visible.push(f as u32);
        w.frames.push((f as u32, 0, 0));
        while let Some(top) = w.frames.last_mut() {
            if top.2 == 3 {
                w.frames.pop();
                continue;
            }
            let (face, e) = (top.0 as usize, (top.1 + top.2) % 3);
            top.2 += 1;
            let h = 3 * face + e as usize;
            let t = self.twin[h] as usize;
            let g = t / 3;
            if self.mark[g] == stamp {
                continue;
            }
            if self.dist(g, p) > 0.0 || w.forced.contains(&(g as u32)) {
                self.mark[g] = stamp;
                w.visible.push(g as u32);
                w.frames.push((g as u32, ((t % 3 + 1) % 3) as u8, 0));
            } else {
                w.horizon.push(h as u32);
            }
        }
    }

    /// Deletes the visible faces (their points become orphans) and adds the cone of new faces
    /// from the horizon to `p`; returns the first new face.
    fn cone(&mut self, p: usize, w: &mut Scratch) -> usize {
        w.orphans.clear();
        for &g in &w.visible {
            let g = g as usize;
            self.alive[g] = false;
            self.recheck.extend_from_slice(&self.tris[g]);
            w.orphans.append(&mut self.outside[g]);
        }
        let first = self.tris.len();
        let hn = w.horizon.len();
        for &h in &w.horizon {
            let (t, e) = (h as usize / 3, h as usize % 3);
            let a = self.tris[t][e];
            let b = self.tris[t][(e + 1) % 3];
            let nf = self.push_tri([a, b, p as u32]);
            let tw = self.twin[h as usize];
            self.twin[3 * nf] = tw;
            self.twin[tw as usize] = (3 * nf) as u32;
        }
        for k in 0..hn {
            let cur = first + k;
            let nxt = first + (k + 1) % hn;
            self.twin[3 * cur + 1] = (3 * nxt + 2) as u32;
            self.twin[3 * nxt + 2] = (3 * cur + 1) as u32;
        }
        first
    }

    /// Assigns the orphans to the new faces `first..` (or, within a thick plane, to a face
    /// found by flooding) and stacks the new faces that hold points.
    fn place_orphans(&mut self, p: usize, first: usize, w: &mut Scratch, stack: &mut Vec<u32>) {
        let hn = w.horizon.len();
        for &i in &w.orphans {
            if i as usize == p {
                continue;
            }
            let mut best = (f64::NEG_INFINITY, first);
            let mut placed = false;
            for nf in first..first + hn {
                let d = self.dist(nf, i as usize);
                if d > self.tol {
                    self.outside[nf].push(i);
                    placed = true;
                    break;
                }
                if d > best.0 {
                    best = (d, nf);
                }
            }
            // Barber et al.'s lemma only says a point outside the new hull is above some new
            // face, not by more than tol: when faces meet at tiny dihedral angles (thin slabs),
            // a point in a new face's thick plane can be well above a nearby face. Search the
            // faces around the best new face whose thick plane holds the point.
            if !placed && best.0 > -self.tol {
                if let Some(g) = self.find_above(best.1, i as usize, &mut w.frames) {
                    self.outside[g].push(i);
                    stack.push(g as u32);
                } else {
                    self.recheck.push(i);
                }
            }
        }
        for nf in first..first + hn {
            if !self.outside[nf].is_empty() {
                stack.push(nf as u32);
            }
        }
    }

    /// Flood from face `start` over faces whose thick plane holds point `i` (distance above
    /// −tol), at most `FLOOD_CAP` faces; returns a face the point is more than tol above.
    fn find_above(
        &mut self,
        start: usize,
        i: usize,
        work: &mut Vec<(u32, u8, u8)>,
    ) -> Option<usize> {
        const FLOOD_CAP: usize = 256;
        self.stamp2 = self.stamp2.wrapping_add(1);
        if self.stamp2 == 0 {
            self.mark2.iter_mut().for_each(|m| *m = 0);
            self.stamp2 = 1;
        }
        let stamp = self.stamp2;
        work.clear();
        work.push((start as u32, 0, 0));
        self.mark2[start] = stamp;
        let mut head = 0;
        while head < work.len() && head < FLOOD_CAP {
            let f = work[head].0 as usize;
            head += 1;
            for e in 0..3 {
                let g = self.twin[3 * f + e] as usize / 3;
                if g >= self.tris.len() || self.mark2[g] == stamp || !self.alive[g] {
                    continue;
                }
                self.mark2[g] = stamp;
                let d = self.dist(g, i);
                if d > self.tol {
                    return Some(g);
                }
                if d > -self.tol {
                    work.push((g as u32, 0, 0));
                }
            }
        }
        None
    }

    /// Appends the faces around the origin of half-edge `x` to `out`.
    fn fan_faces(&self, x: usize, out: &mut Vec<u32>) {
        let mut cur = x;
        for _ in 0..4096 {
            out.push((cur / 3) as u32);
            let prev = 3 * (cur / 3) + (cur % 3 + 2) % 3;
            cur = self.twin[prev] as usize;
            if cur == x || cur >= self.twin.len() {
                break;
            }
        }
    }

    /// The horizon must be one closed chain through distinct vertices (then the visible
    /// region is a disk and the cone from the new point closes the mesh).
    fn horizon_is_simple_cycle(&self, horizon: &[u32]) -> bool {
        let hn = horizon.len();
        if hn < 3 {
            return false;
        }
        let ends = |h: u32| {
            let (t, e) = (h as usize / 3, h as usize % 3);
            (self.tris[t][e], self.tris[t][(e + 1) % 3])
        };
        let mut starts: Vec<u32> = Vec::with_capacity(hn);
        for k in 0..hn {
            let (a, b) = ends(horizon[k]);
            let (c, _) = ends(horizon[(k + 1) % hn]);
            if b != c {
                return false;
            }
            starts.push(a);
        }
        starts.sort_unstable();
        starts.windows(2).all(|w| w[0] != w[1])
    }

    fn into_mesh(self) -> TriMesh {
        TriMesh::from_alive(&self.tris, &self.alive, &self.twin)
    }
}

/// Groups of edge-connected triangles within `tol` of the plane of the group's largest
/// triangle (seeded largest first, flooding across edges); returns each triangle's group and
/// the group count.
fn coplanar_groups(mesh: &TriMesh, q: &impl Fn(u32) -> DVec3, tol: f64) -> (Vec<u32>, u32) {
    let nt = mesh.tris.len();
    let planes: Vec<(DVec3, f64)> = mesh
        .tris
        .iter()
        .map(|t| {
            let (a, b, c) = (q(t[0]), q(t[1]), q(t[2]));
            let cr = (b - a).cross(c - a);
            let n = cr.try_normalize().unwrap_or(DVec3::ZERO);
            (n, n.dot((a + b + c) * (1.0 / 3.0)))
        })
        .collect();
    let area: Vec<f64> = mesh
        .tris
        .iter()
        .map(|t| (q(t[1]) - q(t[0])).cross(q(t[2]) - q(t[0])).length())
        .collect();
    let mut order: Vec<usize> = (0..nt).collect();
    order.sort_by(|a, b| area[*b].total_cmp(&area[*a]));
    let mut group = vec![NONE; nt];
    let mut ng = 0u32;
    let mut queue = Vec::new();
    for &s in &order {
        if group[s] != NONE {
            continue;
        }
        let (ns, ds) = planes[s];
        group[s] = ng;
        queue.clear();
        queue.push(s);
        while let Some(t) = queue.pop() {
            for e in 0..3 {
                let u = mesh.twin[3 * t + e] as usize / 3;
                if u >= nt || group[u] != NONE || !(planes[u].0.dot(ns) > 0.0) {
                    continue;
                }
                if mesh.tris[u]
                    .iter()
                    .all(|&v| (ns.dot(q(v)) - ds).abs() <= tol)
                {
                    group[u] = ng;
                    queue.push(u);
                }
            }
        }
        ng += 1;
    }
    (group, ng)
}

/// A polygonal face of the merged hull: vertex indices (input indices, CCW from outside).
pub(super) type Polygon = Vec<u32>;

/// Merges coplanar triangles (every vertex within `tol` of the plane of the group's largest
/// triangle, normals on the same side) into polygons, drops vertices that end up between only
/// two faces (they lie on the faces' common edge within `tol`), then merges any two faces
/// whose common edge is concave by more than `tol` until none is (bounded rounds). Falls back
/// to unmerged triangles for a group whose boundary is not a simple cycle.
pub(super) fn merge(
    mesh: &TriMesh,
    points: &[DVec3],
    center: DVec3,
    tol: f64,
) -> Vec<(Polygon, (DVec3, f64))> {
    let q = |i: u32| points[i as usize] - center;
    let nt = mesh.tris.len();
    let (group, ng) = coplanar_groups(mesh, &q, tol);
    // Union-find over groups for the concavity repair.
    let mut parent: Vec<u32> = (0..ng).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[parent[x as usize] as usize];
            parent[x as usize] = p;
            x = p;
        }
        x
    }
    let mut split: Vec<bool> = vec![false; nt];
    let mut last_valid: Option<Vec<(Polygon, (DVec3, f64))>> = None;
    for _round in 0..8 {
        let gid: Vec<u32> = (0..nt)
            .map(|t| {
                if split[t] {
                    ng + t as u32
                } else {
                    find(&mut parent, group[t])
                }
            })
            .collect();
        let (polys, face_of_tri, failed) = polygons(mesh, &gid);
        if !failed.is_empty() {
            let mut is_failed = vec![false; gid.iter().map(|&g| g as usize + 1).max().unwrap_or(0)];
            for g in failed {
                is_failed[g as usize] = true;
            }
            for t in 0..nt {
                if is_failed[gid[t] as usize] {
                    split[t] = true;
                }
            }
            continue;
        }
        // Concavity check across every final edge: a vertex of one face above the other's
        // plane by more than tol → merge the two groups.
        // Newell normal of the boundary; offset through the highest vertex of the whole group
        // (interior vertices included), so that every merged vertex is on or below the face.
        let mut fplanes: Vec<(DVec3, f64)> = polys
            .iter()
            .map(|p| (fit_plane(p, &q).0, f64::NEG_INFINITY))
            .collect();
        for (t, &f) in face_of_tri.iter().enumerate() {
            if let Some(pl) = fplanes.get_mut(f as usize) {
                for &v in &mesh.tris[t] {
                    pl.1 = pl.1.max(pl.0.dot(q(v)));
                }
            }
        }
        let mut merged_any = false;
        for h in 0..3 * nt {
            let t = h / 3;
            let u = mesh.twin[h] as usize / 3;
            let (fa, fb) = (face_of_tri[t], face_of_tri[u.min(nt - 1)]);
            if fa == fb || fa as usize >= polys.len() || fb as usize >= polys.len() {
                continue;
            }
            let (n, d) = fplanes[fa as usize];
            let concave = polys[fb as usize].iter().any(|&v| n.dot(q(v)) - d > tol);
            if concave && !split[t] && !split[u] {
                let (ra, rb) = (find(&mut parent, group[t]), find(&mut parent, group[u]));
                if ra != rb {
                    parent[ra as usize] = rb;
                    merged_any = true;
                }
            }
        }
        let result: Vec<(Polygon, (DVec3, f64))> = polys.into_iter().zip(fplanes).collect();
        if !merged_any {
            return result;
        }
        last_valid = Some(result);
    }
    // Not converged: the last topologically valid merge (its residual concavity is what
    // `validate` measures), else the triangles themselves (always a valid closed mesh).
    last_valid.unwrap_or_else(|| triangles(mesh, points, center))
}

/// The triangles of the mesh as faces, each with its own plane.
pub(super) fn triangles(
    mesh: &TriMesh,
    points: &[DVec3],
    center: DVec3,
) -> Vec<(Polygon, (DVec3, f64))> {
    let q = |i: u32| points[i as usize] - center;
    mesh.tris
        .iter()
        .map(|t| {
            let (n, _) = fit_plane(t, &q);
            let d = t
                .iter()
                .map(|&v| n.dot(q(v)))
                .fold(f64::NEG_INFINITY, f64::max);
            (t.to_vec(), (n, d))
        })
        .collect()
}

/// Newell's plane of a polygon, offset through its vertex centroid.
pub(super) fn fit_plane(poly: &[u32], q: &impl Fn(u32) -> DVec3) -> (DVec3, f64) {
    let mut nrm = DVec3::ZERO;
    let mut c = DVec3::ZERO;
    let m = poly.len();
    let o = poly.first().map_or(DVec3::ZERO, |&i| q(i));
    for k in 0..m {
        let a = q(poly[k]);
        let b = q(poly[(k + 1) % m]);
        // Twice the vector area, summed about the first vertex (Newell's normal).
        nrm += (a - o).cross(b - o);
        c += a;
    }
    let nrm = nrm.try_normalize().unwrap_or(DVec3::ZERO);
    let c = c * (1.0 / m.max(1) as f64);
    (nrm, nrm.dot(c))
}

/// Polygons of the groups `gid[t]`: returns the polygons, the polygon index of each triangle,
/// and the groups whose boundary is not one simple cycle of at least 3 kept vertices.
pub(super) fn polygons(mesh: &TriMesh, gid: &[u32]) -> (Vec<Polygon>, Vec<u32>, Vec<u32>) {
    let nt = mesh.tris.len();
    let nv = mesh
        .tris
        .iter()
        .flatten()
        .map(|&v| v as usize + 1)
        .max()
        .unwrap_or(0);
    let dest = |h: usize| mesh.tris[h / 3][(h % 3 + 1) % 3];
    let origin = |h: usize| mesh.tris[h / 3][h % 3];
    let boundary = |h: usize| {
        let t = mesh.twin[h] as usize / 3;
        t >= nt || gid[t] != gid[h / 3]
    };
    // Sectors at each vertex = boundary half-edges leaving it. Boundary half-edges are
    // bucketed by group (counting sort; group ids are dense below `ng`).
    let ng = gid.iter().map(|&g| g as usize + 1).max().unwrap_or(0);
    let mut sectors = vec![0u32; nv];
    let mut start = vec![0usize; ng + 1];
    for h in 0..3 * nt {
        if boundary(h) {
            sectors[origin(h) as usize] += 1;
            start[gid[h / 3] as usize + 1] += 1;
        }
    }
    for g in 0..ng {
        start[g + 1] += start[g];
    }
    let mut fill = start.clone();
    let mut bucket = vec![0usize; start[ng]];
    for h in 0..3 * nt {
        if boundary(h) {
            let g = gid[h / 3] as usize;
            bucket[fill[g]] = h;
            fill[g] += 1;
        }
    }
    let mut present = vec![false; ng];
    for &g in gid {
        present[g as usize] = true;
    }
    let mut polys = Vec::new();
    let mut poly_of_group = vec![NONE; ng];
    let mut failed = Vec::new();
    // out_of[v]: the boundary half-edge of the current group leaving v (valid when
    // owner[v] == current group + 1).
    let mut out_of = vec![0usize; nv];
    let mut owner = vec![0u32; nv];
    for g in 0..ng {
        if !present[g] {
            continue;
        }
        let hs = &bucket[start[g]..start[g + 1]];
        if hs.is_empty() {
            failed.push(g as u32);
            continue;
        }
        let tag = g as u32 + 1;
        let mut ok = true;
        for &h in hs {
            let o = origin(h) as usize;
            if owner[o] == tag {
                ok = false; // pinched: two boundary edges leave one vertex
            }
            owner[o] = tag;
            out_of[o] = h;
        }
        let mut poly = Vec::new();
        if ok {
            let first = hs[0];
            let mut h = first;
            let mut count = 0;
            loop {
                let v = origin(h);
                if sectors[v as usize] >= 3 {
                    poly.push(v);
                }
                count += 1;
                let d = dest(h) as usize;
                if owner[d] != tag {
                    ok = false;
                    break;
                }
                h = out_of[d];
                if h == first || count > hs.len() {
                    break;
                }
            }
            if count != hs.len() || poly.len() < 3 {
                ok = false;
            }
        }
        if ok {
            poly_of_group[g] = polys.len() as u32;
            polys.push(poly);
        } else {
            failed.push(g as u32);
        }
    }
    let face_of_tri = gid.iter().map(|&g| poly_of_group[g as usize]).collect();
    (polys, face_of_tri, failed)
}
