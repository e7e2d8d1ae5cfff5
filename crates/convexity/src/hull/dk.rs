//! The Dobkin–Kirkpatrick hierarchy of a convex polyhedron: extreme vertices in O(log n)
//! levels, and point containment and closest points through that support function.
//!
//! Build: level 0 is the polyhedron. Level i+1 is the hull of level i minus a maximal
//! independent set of vertices of degree ≤ 8 (chosen greedily), until at most
//! [`TOP_MAX_VERTICES`] vertices remain or no vertex can be removed. On a convex polyhedron at
//! least a constant fraction of the vertices have degree ≤ 8 (Euler: the average degree is
//! below 6), and a greedy independent set among them keeps a constant fraction, so there are
//! O(log n) levels and O(n) vertices in all (Dobkin & Kirkpatrick 1990; O'Rourke,
//! *Computational Geometry in C*, §7.10). Each level is rebuilt with the quickhull builder,
//! which costs O(n log n) over all levels (the sizes decrease geometrically).
//!
//! Extreme vertex in direction d: scan the top level, then walk down. If `a` is extreme on
//! level i+1, the extreme vertex of level i is `a` or a removed vertex adjacent to `a`'s
//! neighbourhood; rather than rely on the bookkeeping of that lemma, each level runs the
//! hill climb of [`crate::hull::hill_climb`] from `a` (a vertex of level i too), which
//! returns the true extreme vertex of the convex polytope from any start and here takes O(1)
//! steps on average because `a` is adjacent to the answer or is the answer. So the query is
//! correct whatever the independent sets were, and O(log n) levels × O(degree) per level.
//!
//! Containment and closest point: GJK between the query point and the hierarchy's support
//! map (the usual route in a support-map library; DK's original descent for distance needs
//! the same O(log n) support calls per iteration).
//!
//! Preconditions: a solid `ConvexPolyhedron`. Failure modes: if a level cannot be rebuilt
//! (the remaining vertices are flat within the hull tolerance) the hierarchy stops there;
//! queries stay correct, only the level count grows.

use crate::gjk;
use crate::hull::ConvexPolyhedron;
use crate::math::pose::Pose3;
use crate::shape::{Points, SupportMap};
use glam::DVec3;

/// Levels stop shrinking below this many vertices (the top is scanned linearly).
pub const TOP_MAX_VERTICES: usize = 16;

/// Largest degree of a removable vertex.
const MAX_DEGREE: usize = 8;

/// The hierarchy: `levels[0]` is the input polyhedron.
#[derive(Clone, Debug)]
pub struct DkHierarchy {
    levels: Vec<ConvexPolyhedron>,
    /// `down[i][k]`: the index on level i of vertex k of level i + 1.
    down: Vec<Vec<usize>>,
}

impl DkHierarchy {
    /// Builds the hierarchy of `p` (a copy of `p` is kept as level 0).
    pub fn build(p: &ConvexPolyhedron) -> DkHierarchy {
        let mut levels = vec![p.clone()];
        let mut down = Vec::new();
        while let Some(cur) = levels.last() {
            let n = cur.num_vertices();
            if n <= TOP_MAX_VERTICES {
                break;
            }
            let mut removed = vec![false; n];
            let mut blocked = vec![false; n];
            for v in 0..n {
                let nb = cur.vertex_neighbors(v);
                if blocked[v] || nb.len() > MAX_DEGREE {
                    continue;
                }
                removed[v] = true;
                for &w in nb {
                    if let Some(b) = blocked.get_mut(w) {
                        *b = true;
                    }
                }
            }
            let keep: Vec<usize> = (0..n).filter(|&v| !removed[v]).collect();
            if keep.len() == n || keep.len() < 4 {
                break;
            }
            let pts: Vec<DVec3> = keep.iter().map(|&v| cur.vertices()[v]).collect();
            let Ok(next) = ConvexPolyhedron::from_points(&pts) else {
                break;
            };
            if next.num_vertices() >= n {
                break;
            }
            let map: Vec<usize> = next
                .input_indices()
                .iter()
                .map(|&k| keep.get(k).copied().unwrap_or(0))
                .collect();
            down.push(map);
            levels.push(next);
        }
        DkHierarchy { levels, down }
    }

    /// Number of levels (1 when the input is already small).
    pub fn levels(&self) -> usize {
        self.levels.len()
    }

    /// Vertex count of each level, from the input up.
    pub fn level_sizes(&self) -> Vec<usize> {
        self.levels.iter().map(|l| l.num_vertices()).collect()
    }

    /// The input polyhedron.
    pub fn polyhedron(&self) -> &ConvexPolyhedron {
        &self.levels[0]
    }

    /// Index (in the input polyhedron) of a vertex maximising `dir · v`, and the total number
    /// of hill-climbing steps taken on the way down.
    pub fn support_index_steps(&self, dir: DVec3) -> (usize, usize) {
        let top = self.levels.len() - 1;
        let mut idx = self.levels[top].support_linear(dir);
        let mut steps = 0;
        for lvl in (0..top).rev() {
            let start = self.down[lvl].get(idx).copied().unwrap_or(0);
            let (i, s) = self.levels[lvl].support_hill_climb(dir, start);
            idx = i;
            steps += s;
        }
        (idx, steps)
    }

    /// Index (in the input polyhedron) of a vertex maximising `dir · v`.
    pub fn support_index(&self, dir: DVec3) -> usize {
        self.support_index_steps(dir).0
    }

    /// Whether `p` (local frame) lies in the polyhedron, within GJK's touch tolerance.
    pub fn contains(&self, p: DVec3) -> Option<bool> {
        self.closest_point(p).map(|(_, d)| d == 0.0)
    }

    /// The closest point of the polyhedron to `p` (local frame) and its distance (0 inside),
    /// or `None` if GJK did not converge.
    pub fn closest_point(&self, p: DVec3) -> Option<(DVec3, f64)> {
        let q = Points::new(&[p]).ok()?;
        let id = Pose3::IDENTITY;
        let d = gjk::distance(self, &id, &q, &id, &gjk::GjkOptions::default(), None);
        if d.status != crate::verdict::Status::Converged && d.intersecting().is_none() {
            return None;
        }
        if d.intersecting() == Some(true) {
            Some((p, 0.0))
        } else {
            Some((d.point_a, d.distance))
        }
    }
}

impl SupportMap<DVec3> for DkHierarchy {
    #[inline]
    fn core_support(&self, dir: DVec3) -> DVec3 {
        let l0 = &self.levels[0];
        l0.vertices()
            .get(self.support_index(dir))
            .copied()
            .unwrap_or(DVec3::ZERO)
    }
    fn center(&self) -> DVec3 {
        self.levels[0].center()
    }
    fn size(&self) -> f64 {
        self.levels[0].size()
    }
    fn bounding_radius(&self) -> f64 {
        self.levels[0].bounding_radius()
    }
}
