//! Quickhull with exact visibility: the fallback of [`super::ConvexPolyhedron::build`] when
//! the thick-plane build (`quickhull.rs`) fails its own check.
//!
//! Source: the same outside-set algorithm as `quickhull.rs` (Barber, Dobkin and Huhdanpaa
//! 1996), but every visibility decision is Shewchuk's adaptive exact `orient3d` (J. R.
//! Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
//! predicates", DCG 18, 1997; the `robust` crate) on the input coordinates themselves (no
//! shift, so no rounding before the predicate). A face is visible from `p` when `p` is
//! strictly above its plane; coplanar counts as not visible.
//!
//! Why this cannot go wrong (up to underflow, see below): with exact predicates the triangle
//! mesh after each insertion is the exact convex hull of the points inserted so far,
//! triangulated (every edge convex or flat, exactly). The faces strictly visible from a point
//! outside a convex polytope form a disk, so the horizon is one simple cycle; the point
//! cannot be collinear with a horizon edge (the edge lies in the plane of a visible face, so
//! the point would be coplanar with that face), so no cone face is exactly degenerate. A
//! point of a deleted face's outside set that is outside the new hull is strictly above one of
//! the new faces (Barber et al.'s lemma), so a point found above no new face is inside or on
//! the hull and is dropped for good. Hence the output's vertices are input points and every
//! input point is a convex combination of them. Turning the exact triangles into faces with
//! float planes that pass `validate` is [`merge_exact`]'s job: accurate planes
//! ([`accurate_plane`]) and grouping of near-coplanar triangles, needles included (the
//! derivation is in `mod.rs`'s header).
//!
//! Complexity: as quickhull (expected O(n log n), O(n²) worst), each predicate a few
//! nanoseconds unless the float filter fails; only run after the fast build has failed.
//! Grouping: O(T log T) for the sort by area plus O(T) for the floods and polygons.
//! Preconditions: finite coordinates of magnitude at most `MAX_MAGNITUDE` (1e60, so the cubic
//! terms of `orient3d` cannot overflow); products below ~1e-300 underflow and the predicate
//! is then only as exact as floating point. Failure modes: `None` (no panic) if the four seed
//! points are exactly coplanar or the horizon is not a simple cycle (impossible with exact
//! predicates; checked anyway).

use super::quickhull::TriMesh;
use glam::DVec3;

const NONE: u32 = u32::MAX;

/// True when `d` is strictly above the plane of the CCW triangle `t` (on the side its
/// outward normal points to), decided exactly.
#[inline]
fn above(p: &[DVec3], t: [u32; 3], d: usize) -> bool {
    let c = |i: usize| robust::Coord3D {
        x: p[i].x,
        y: p[i].y,
        z: p[i].z,
    };
    // `orient3d(a, b, c, d)` = det[a − d; b − d; c − d] = −(d − a)·((b − a) × (c − a)):
    // negative exactly when d is above the CCW triangle (a, b, c).
    robust::orient3d(c(t[0] as usize), c(t[1] as usize), c(t[2] as usize), c(d)) < 0.0
}

struct Exact<'a> {
    p: &'a [DVec3],
    tris: Vec<[u32; 3]>,
    twin: Vec<u32>,
    alive: Vec<bool>,
    outside: Vec<Vec<u32>>,
    mark: Vec<u32>,
    stamp: u32,
}

/// The exact hull of `points` (a closed, outward CCW triangle mesh on input indices) grown
/// from the tetrahedron `seeds`, or `None` (see the module header).
pub(super) fn exact_hull(points: &[DVec3], seeds: [u32; 4]) -> Option<TriMesh> {
    let mut h = Exact {
        p: points,
        tris: Vec::new(),
        twin: Vec::new(),
        alive: Vec::new(),
        outside: Vec::new(),
        mark: Vec::new(),
        stamp: 0,
    };
    h.seed(seeds)?;
    let mut stack: Vec<u32> = (0..4).collect();
    let mut visible = Vec::new();
    let mut horizon = Vec::new();
    let mut frames = Vec::new();
    // Each processed pop removes one point from the outside sets for good; stale pops are
    // bounded by the faces created. The cap only guards against a logic error.
    let cap = points.len().saturating_mul(64).saturating_add(64);
    let mut pops = 0usize;
    while let Some(f) = stack.pop() {
        pops += 1;
        if pops > cap {
            return None;
        }
        let f = f as usize;
        if !h.alive[f] || h.outside[f].is_empty() {
            continue;
        }
        let k = h.farthest(f);
        let p = h.outside[f].swap_remove(k) as usize;
        h.visible_region(f, p, &mut visible, &mut horizon, &mut frames);
        if !h.simple_cycle(&horizon) {
            return None;
        }
        h.cone(p, &visible, &horizon, &mut stack);
    }
    Some(h.into_mesh())
}

impl Exact<'_> {
    fn push_tri(&mut self, t: [u32; 3]) -> usize {
        self.tris.push(t);
        self.twin.extend_from_slice(&[NONE; 3]);
        self.alive.push(true);
        self.outside.push(Vec::new());
        self.mark.push(0);
        self.tris.len() - 1
    }

    /// The seed tetrahedron, each face with its opposite vertex below it, and the first
    /// assignment of points to outside sets; `None` if the seeds are exactly coplanar.
    fn seed(&mut self, s: [u32; 4]) -> Option<()> {
        let mut faces = [
            ([s[0], s[1], s[2]], s[3]),
            ([s[0], s[1], s[3]], s[2]),
            ([s[0], s[2], s[3]], s[1]),
            ([s[1], s[2], s[3]], s[0]),
        ];
        let c = |i: u32| {
            let v = self.p[i as usize];
            robust::Coord3D {
                x: v.x,
                y: v.y,
                z: v.z,
            }
        };
        if robust::orient3d(c(s[0]), c(s[1]), c(s[2]), c(s[3])) == 0.0 {
            return None;
        }
        for (t, opp) in faces.iter_mut() {
            if above(self.p, *t, *opp as usize) {
                t.swap(1, 2);
            }
        }
        for (t, _) in &faces {
            self.push_tri(*t);
        }
        // Twins: the half-edge b → a of another face.
        for f in 0..4 {
            for e in 0..3 {
                let (a, b) = (self.tris[f][e], self.tris[f][(e + 1) % 3]);
                for g in 0..4 {
                    for k in 0..3 {
                        if self.tris[g][k] == b && self.tris[g][(k + 1) % 3] == a {
                            self.twin[3 * f + e] = (3 * g + k) as u32;
                        }
                    }
                }
            }
        }
        if self.twin.contains(&NONE) {
            return None;
        }
        for i in 0..self.p.len() {
            if s.contains(&(i as u32)) {
                continue;
            }
            if let Some(f) = (0..4).find(|&f| above(self.p, self.tris[f], i)) {
                self.outside[f].push(i as u32);
            }
        }
        Some(())
    }

    /// The index in face `f`'s outside set of its farthest point by the float plane (only a
    /// heuristic for the insertion order; any choice is correct).
    fn farthest(&self, f: usize) -> usize {
        let t = self.tris[f];
        let a = self.p[t[0] as usize];
        let n = (self.p[t[1] as usize] - a).cross(self.p[t[2] as usize] - a);
        let mut best = (0, f64::NEG_INFINITY);
        for (k, &i) in self.outside[f].iter().enumerate() {
            let d = n.dot(self.p[i as usize] - a);
            if d > best.1 {
                best = (k, d);
            }
        }
        best.0
    }

    /// Faces strictly visible from `p` (depth-first from `f`) and their horizon, listed in
    /// order (entering face g through half-edge t, g's edges are visited starting after t).
    fn visible_region(
        &mut self,
        f: usize,
        p: usize,
        visible: &mut Vec<u32>,
        horizon: &mut Vec<u32>,
        frames: &mut Vec<(u32, u8, u8)>,
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        visible.clear();
        horizon.clear();
        frames.clear();
        self.mark[f] = stamp;
        visible.push(f as u32);
        frames.push((f as u32, 0, 0));
        while let Some(top) = frames.last_mut() {
            if top.2 == 3 {
                frames.pop();
                continue;
            }
            let (face, e) = (top.0 as usize, (top.1 + top.2) % 3);
            top.2 += 1;
            let h = 3 * face + e as usize;
            let t = self.twin[h] as usize;
            let g = t / 3;
            if g >= self.tris.len() || self.mark[g] == stamp {
                continue;
            }
            if above(self.p, self.tris[g], p) {
                self.mark[g] = stamp;
                visible.push(g as u32);
                frames.push((g as u32, ((t % 3 + 1) % 3) as u8, 0));
            } else {
                horizon.push(h as u32);
            }
        }
    }

    /// The horizon is one closed chain through distinct vertices.
    fn simple_cycle(&self, horizon: &[u32]) -> bool {
        let hn = horizon.len();
        if hn < 3 {
            return false;
        }
        let ends = |h: u32| {
            let (t, e) = (h as usize / 3, h as usize % 3);
            (self.tris[t][e], self.tris[t][(e + 1) % 3])
        };
        let mut starts = Vec::with_capacity(hn);
        for k in 0..hn {
            let (a, b) = ends(horizon[k]);
            if b != ends(horizon[(k + 1) % hn]).0 {
                return false;
            }
            starts.push(a);
        }
        starts.sort_unstable();
        starts.windows(2).all(|w| w[0] != w[1])
    }

    /// Replaces the visible faces by the cone from `p` over the horizon, reassigns their
    /// outside points to the new faces (dropping those above none: they are inside) and stacks
    /// the new faces that hold points.
    fn cone(&mut self, p: usize, visible: &[u32], horizon: &[u32], stack: &mut Vec<u32>) {
        let mut orphans = Vec::new();
        for &g in visible {
            self.alive[g as usize] = false;
            orphans.append(&mut self.outside[g as usize]);
        }
        let first = self.tris.len();
        let hn = horizon.len();
        for &h in horizon {
            let (t, e) = (h as usize / 3, h as usize % 3);
            let (a, b) = (self.tris[t][e], self.tris[t][(e + 1) % 3]);
            let nf = self.push_tri([a, b, p as u32]);
            let tw = self.twin[h as usize];
            self.twin[3 * nf] = tw;
            self.twin[tw as usize] = (3 * nf) as u32;
        }
        for k in 0..hn {
            let (cur, nxt) = (first + k, first + (k + 1) % hn);
            self.twin[3 * cur + 1] = (3 * nxt + 2) as u32;
            self.twin[3 * nxt + 2] = (3 * cur + 1) as u32;
        }
        for i in orphans {
            if i as usize == p {
                continue;
            }
            if let Some(nf) =
                (first..first + hn).find(|&nf| above(self.p, self.tris[nf], i as usize))
            {
                self.outside[nf].push(i);
            }
        }
        for nf in first..first + hn {
            if !self.outside[nf].is_empty() {
                stack.push(nf as u32);
            }
        }
    }

    fn into_mesh(self) -> TriMesh {
        TriMesh::from_alive(&self.tris, &self.alive, &self.twin)
    }
}

/// `a − b` as an unevaluated sum `x + y`, exactly (Shewchuk's Two-Diff).
#[inline]
fn two_diff(a: f64, b: f64) -> (f64, f64) {
    let x = a - b;
    let bv = a - x;
    let av = x + bv;
    (x, (a - av) + (bv - b))
}

/// `u1 v2 − u2 v1` for double-double `u`, `v` (each an exact difference of input
/// coordinates), in double-double arithmetic rounded once at the end. The dropped terms
/// (low × low products, rounding of the low-order sums) are a few ε² |u| |v|, so the result
/// is accurate to a few ulps unless it is below ε |u| |v| (a face thinner than ε times its
/// length, which the grouping absorbs).
fn cross_term(u1: (f64, f64), v2: (f64, f64), u2: (f64, f64), v1: (f64, f64)) -> f64 {
    let mul = |a: (f64, f64), b: (f64, f64)| {
        let p = a.0 * b.0;
        (p, a.0.mul_add(b.0, -p) + (a.0 * b.1 + a.1 * b.0))
    };
    let (p, pe) = mul(u1, v2);
    let (q, qe) = mul(u2, v1);
    let (s, se) = two_sum(p, -q);
    s + (se + (pe - qe))
}

#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let x = a + b;
    let bv = x - a;
    let av = x - bv;
    (x, (a - av) + (b - bv))
}

/// The plane of triangle `t` on the input coordinates: unit normal of `(b − a) × (c − a)`
/// with the differences exact and the cross product in double-double (so the normal is
/// accurate to a few ulps even for needles), offset `max(n · a, n · b, n · c)`; and twice the
/// area.
///
/// Why this makes a valid hull (derivation): the exact mesh is convex, so every hull vertex
/// `w` satisfies `n* · (w − a) ≤ 0` for the true unit normal `n*`. With `|n − n*| ≤ c ε`
/// (c a small constant) and the float dot products rounded by `≈ 3 ε |w|`,
/// `n · w − d ≤ c ε |w − a| + 6 ε max|coord| ≤ 16 ε Σ_k max_i |p_i[k]|`, the default
/// tolerance: no vertex is above a face plane by more than `tol`, whatever the face's shape.
pub(super) fn accurate_plane(p: &[DVec3], t: [u32; 3]) -> ((DVec3, f64), f64) {
    let (a, b, c) = (p[t[0] as usize], p[t[1] as usize], p[t[2] as usize]);
    let u = [two_diff(b.x, a.x), two_diff(b.y, a.y), two_diff(b.z, a.z)];
    let v = [two_diff(c.x, a.x), two_diff(c.y, a.y), two_diff(c.z, a.z)];
    let n = DVec3::new(
        cross_term(u[1], v[2], u[2], v[1]),
        cross_term(u[2], v[0], u[0], v[2]),
        cross_term(u[0], v[1], u[1], v[0]),
    );
    let len = n.length();
    match n.try_normalize() {
        Some(n) => ((n, n.dot(a).max(n.dot(b)).max(n.dot(c))), len),
        None => ((DVec3::ZERO, 0.0), 0.0),
    }
}

/// The faces of the exact mesh, on the input coordinates: edge-connected triangles whose
/// vertices are all within `tol` of the accurate plane of the group's largest triangle (its
/// "seed"; seeded largest first) form one polygon, whose plane is the seed's normal with the
/// offset through the group's highest vertex. Every group vertex is then within `2 tol` of
/// its face plane, and (see [`accurate_plane`]) no hull vertex is above any face plane by more
/// than the rounding `tol` covers. A group whose boundary is not one simple cycle of at least
/// three vertices is split into its triangles (at most 3 rounds; then every face is a
/// triangle, which always closes).
pub(super) fn merge_exact(
    mesh: &TriMesh,
    points: &[DVec3],
    tol: f64,
) -> Vec<(super::quickhull::Polygon, (DVec3, f64))> {
    let nt = mesh.tris.len();
    let (planes, area): (Vec<(DVec3, f64)>, Vec<f64>) =
        mesh.tris.iter().map(|t| accurate_plane(points, *t)).unzip();
    let (group, seed) = seeded_groups(mesh, points, &planes, &area, tol);
    let ng = seed.len() as u32;
    let mut split = vec![false; nt];
    for _round in 0..3 {
        let gid: Vec<u32> = (0..nt)
            .map(|t| if split[t] { ng + t as u32 } else { group[t] })
            .collect();
        let (polys, face_of_tri, failed) = super::quickhull::polygons(mesh, &gid);
        if failed.is_empty() {
            let mut fplanes = vec![(DVec3::ZERO, f64::NEG_INFINITY); polys.len()];
            for (t, &f) in face_of_tri.iter().enumerate() {
                let n = if split[t] {
                    planes[t].0
                } else {
                    planes[seed[group[t] as usize] as usize].0
                };
                if let Some(pl) = fplanes.get_mut(f as usize) {
                    pl.0 = n;
                    for &v in &mesh.tris[t] {
                        pl.1 = pl.1.max(n.dot(points[v as usize]));
                    }
                }
            }
            return polys.into_iter().zip(fplanes).collect();
        }
        for t in 0..nt {
            if failed.contains(&gid[t]) {
                split[t] = true;
            }
        }
    }
    mesh.tris.iter().map(|t| t.to_vec()).zip(planes).collect()
}

/// Groups of edge-connected triangles within `tol` of the plane of the group's seed (its
/// largest triangle, seeded largest first); returns each triangle's group and each group's
/// seed triangle.
fn seeded_groups(
    mesh: &TriMesh,
    points: &[DVec3],
    planes: &[(DVec3, f64)],
    area: &[f64],
    tol: f64,
) -> (Vec<u32>, Vec<u32>) {
    let nt = mesh.tris.len();
    let mut order: Vec<usize> = (0..nt).collect();
    order.sort_by(|a, b| area[*b].total_cmp(&area[*a]));
    let mut group = vec![NONE; nt];
    let mut seed = Vec::new();
    let mut queue = Vec::new();
    for &s in &order {
        if group[s] != NONE {
            continue;
        }
        let (ns, ds) = planes[s];
        let g = seed.len() as u32;
        seed.push(s as u32);
        group[s] = g;
        queue.clear();
        queue.push(s);
        while let Some(t) = queue.pop() {
            for e in 0..3 {
                let u = mesh.twin[3 * t + e] as usize / 3;
                if u >= nt || group[u] != NONE || !(planes[u].0.dot(ns) > 0.0) {
                    continue;
                }
                let near = mesh.tris[u]
                    .iter()
                    .all(|&v| (ns.dot(points[v as usize]) - ds).abs() <= tol);
                if near {
                    group[u] = g;
                    queue.push(u);
                }
            }
        }
    }
    (group, seed)
}
