//! Box–box: the specialised separating-axis test (15 axes) and the box–box contact manifold.
//!
//! What it computes: for two oriented boxes, [`box_box`] returns a [`SatResult`]: either a
//! separating axis with a certified gap, or the minimum-penetration axis with its depth and
//! the features that realise it (a face of A, a face of B, or an edge of each), with a
//! common point as the certificate. [`box_box_manifold`] adds the contact manifold (up to four
//! points, see [`crate::polytope::manifold`]).
//!
//! Source: S. Gottschalk, M. Lin, D. Manocha, "OBBTree: a hierarchical structure for rapid
//! interference detection", SIGGRAPH 1996 (the 15 axes and the projected radii); R. Smith's
//! ODE `dBoxBox` (penetration axis selection and reference/incident face clipping);
//! C. Ericson, *Real-Time Collision Detection* (2005) §4.4.1.
//!
//! Algorithm (in A's frame; `R` = B's axes `b_j` in A's frame, `t` = B's centre, `a`, `b` the half
//! extents): along a candidate axis `L`, A projects to `[−r_A, r_A]` with
//! `r_A = Σ a_i |L_i|`, B to `t·L ± r_B` with `r_B = Σ b_j |L·b_j|`, so the signed separation is
//! `(|t·L| − r_A − r_B)/|L|`. The candidates are A's three face normals, B's three, and the nine
//! cross products `e_i × b_j`. The boxes are disjoint iff some candidate has a positive
//! separation (the separating axis theorem for polytopes: the face normals of A, of B and the
//! cross products of their edge directions contain a normal of every facet of A − B), and when
//! they overlap the penetration depth is `−max_L separation(L)` over the same 15 axes (the depth
//! of a polytope pair is the distance from the origin to the nearest facet of A − B, whose
//! normal is one of the candidates).
//!
//! Near-parallel edge pairs: `|e_i × b_j| = sin θ`. Pairs with `sin θ < 1e-8` (≈ √ε) are skipped
//! before normalising. Skipping is exact for exactly parallel edges (the facets of A − B that
//! such a pair would generate have zero area; the face axes cover them), and for `θ` below the
//! threshold the facets it generates are slivers of width `≤ θ·edge length`, so the reported
//! depth is off by at most `≈ 1e-8 × size`; normalising a cross product of length `sin θ` has
//! relative error `≈ ε / sin θ`, which the threshold bounds by the same `≈ 1e-8`.
//! Ties: a face axis is kept unless an edge axis is better by more than the touch tolerance, and
//! A's faces are preferred to B's on ties (stable manifolds for resting contact).
//!
//! Separated pairs: the test stops at the first axis whose separation exceeds the touch tolerance
//! (`gjk`'s default: `1e-10 × (size_A + size_B) + 4ε × magnitude`); that axis and its gap are the
//! certificate (the gap is a lower bound on the distance, not the distance). Separations within
//! the tolerance count as touching (closed sets): intersecting.
//!
//! Intersecting pairs: the certificate is a common point, taken from the manifold (the midpoint
//! of a contact pair, or either of its points, checked to lie in both boxes within a quarter of the
//! tolerance); when none qualifies (deep, unusual overlaps), from [`crate::gjk::intersects`].
//!
//! Complexity: O(1): 15 axes, one quad clipped by four planes, no allocation.
//! Preconditions: boxes and poses as validated by their constructors (finite, non-negative half
//! extents). Flat boxes (a zero half extent) are valid. Failure modes: none (no iteration); the
//! status is always `Converged` except when the GJK fallback for the common point did not
//! converge.

use crate::gjk;
use crate::gjk::minkowski::MinkowskiDifference;
use crate::math::pose::Pose3;
use crate::math::vector::Rotation;
use crate::polytope::manifold::{
    clip_to_reference, face_contacts, segment_closest_points, ContactPoint, Feature, FixedPoly,
    Manifold, PolyBuf,
};
use crate::polytope::sat3d::SatResult;
use crate::shape::Cuboid;
use crate::verdict::Status;
use crate::verdict::{CommonPoint, SeparatingAxis, Verdict};
use glam::DVec3;

/// Edge pairs with `|e_a × e_b| < EDGE_PARALLEL` (unit edges) are skipped (see the module docs).
pub const EDGE_PARALLEL: f64 = 1e-8;

/// The best axis found, in A's frame.
#[derive(Clone, Copy, Debug)]
struct Axis {
    /// Unit, from A toward B.
    n: DVec3,
    sep: f64,
    /// 0..3 face of A, 3..6 face of B, 6..15 edge pair `3·i + j`.
    code: usize,
}

/// Box data in A's frame.
struct Frame {
    ha: DVec3,
    hb: DVec3,
    /// B's unit axes in A's frame.
    bx: [DVec3; 3],
    /// B's centre in A's frame.
    t: DVec3,
    tol: f64,
}

#[inline]
fn e(i: usize) -> DVec3 {
    match i {
        0 => DVec3::X,
        1 => DVec3::Y,
        _ => DVec3::Z,
    }
}

#[inline]
fn sgn(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else {
        1.0
    }
}

impl Frame {
    fn new(a: &Cuboid<DVec3>, pose_a: &Pose3, b: &Cuboid<DVec3>, pose_b: &Pose3) -> Frame {
        let pose_ab = pose_a.relative(pose_b);
        let m = pose_ab.rotation().to_matrix();
        let tol = MinkowskiDifference::new(a, pose_a, b, pose_b)
            .tolerance(gjk::GjkOptions::default().rel_tolerance);
        Frame {
            ha: a.half_extents(),
            hb: b.half_extents(),
            bx: [m.x_axis, m.y_axis, m.z_axis],
            t: pose_ab.translation(),
            tol,
        }
    }

    #[inline]
    fn rb(&self, l: DVec3) -> f64 {
        self.hb.x * l.dot(self.bx[0]).abs()
            + self.hb.y * l.dot(self.bx[1]).abs()
            + self.hb.z * l.dot(self.bx[2]).abs()
    }

    #[inline]
    fn ra(&self, l: DVec3) -> f64 {
        self.ha.dot(l.abs())
    }

    /// The 15-axis test. Returns the best axis and whether it proves separation.
    fn sat(&self) -> (Axis, u32) {
        let mut best = Axis {
            n: DVec3::X,
            sep: f64::NEG_INFINITY,
            code: 0,
        };
        let mut tested = 0;
        // Faces of A then B: candidates in order, the first beating the best by > bias wins.
        for code in 0..6 {
            let l = if code < 3 { e(code) } else { self.bx[code - 3] };
            let d = self.t.dot(l);
            let sep = d.abs() - self.ra(l) - self.rb(l);
            tested += 1;
            let bias = if code < 3 { 0.0 } else { self.tol };
            if sep > best.sep + bias || best.sep == f64::NEG_INFINITY {
                best = Axis {
                    n: l * sgn(d),
                    sep,
                    code,
                };
                if sep > self.tol {
                    return (best, tested);
                }
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                let l = e(i).cross(self.bx[j]);
                let len2 = l.length_squared();
                if !(len2 >= EDGE_PARALLEL * EDGE_PARALLEL) {
                    continue;
                }
                let l = l * (1.0 / len2.sqrt());
                let d = self.t.dot(l);
                let sep = d.abs() - self.ra(l) - self.rb(l);
                tested += 1;
                if sep > best.sep + self.tol {
                    best = Axis {
                        n: l * sgn(d),
                        sep,
                        code: 6 + 3 * i + j,
                    };
                    if sep > self.tol {
                        return (best, tested);
                    }
                }
            }
        }
        (best, tested)
    }

    /// The face of a box (centre `c`, unit axes `ax`, half extents `h`) whose outward normal is
    /// `sign · ax[k]`, as four vertices counter-clockwise seen from outside.
    fn face(c: DVec3, ax: &[DVec3; 3], h: DVec3, k: usize, sign: f64) -> [DVec3; 4] {
        let n = ax[k] * sign;
        let j = (k + 1) % 3;
        let l = (k + 2) % 3;
        let u = ax[j];
        let hu = h[j];
        // w = n × u is ±ax[l]; its half extent is h[l].
        let w = n.cross(u);
        let hw = h[l];
        let fc = c + n * h[k];
        [
            fc + u * hu + w * hw,
            fc - u * hu + w * hw,
            fc - u * hu - w * hw,
            fc + u * hu - w * hw,
        ]
    }

    /// The manifold for a non-separating axis (A's frame computations, world output).
    fn manifold(&self, axis: &Axis, pose_a: &Pose3) -> Manifold {
        let ax_a = [DVec3::X, DVec3::Y, DVec3::Z];
        let n = axis.n;
        if axis.code >= 6 {
            let i = (axis.code - 6) / 3;
            let j = (axis.code - 6) % 3;
            // A's support edge along n (parallel to e_i), B's along −n (parallel to b_j).
            let mut p0 = DVec3::ZERO;
            let mut q0 = self.t;
            for k in 0..3 {
                if k != i {
                    p0 += ax_a[k] * (self.ha[k] * sgn(n[k]));
                }
                if k != j {
                    q0 -= self.bx[k] * (self.hb[k] * sgn(n.dot(self.bx[k])));
                }
            }
            let (pa, pb) =
                segment_closest_points(p0, ax_a[i], self.ha[i], q0, self.bx[j], self.hb[j]);
            let mut m = Manifold::new(
                pose_a.transform_vector(n),
                Feature::Edges {
                    edge_a: i,
                    edge_b: j,
                },
            );
            m.push(ContactPoint {
                point_a: pose_a.transform_point(pa),
                point_b: pose_a.transform_point(pb),
                depth: -axis.sep,
            });
            return m;
        }
        let mut buf_a = FixedPoly::<16>::new();
        let mut buf_b = FixedPoly::<16>::new();
        if axis.code < 3 {
            let k = axis.code;
            let s = sgn(n[k]);
            let reference = Self::face(DVec3::ZERO, &ax_a, self.ha, k, s);
            let (kb, sb) = incident(&self.bx, n);
            let inc = Self::face(self.t, &self.bx, self.hb, kb, sb);
            clip_to_reference(&reference, n, &inc, &mut buf_a, &mut buf_b);
            let d = n.dot(reference[0]);
            let deepest = (0..3).fold(self.t, |q, j| {
                q - self.bx[j] * (self.hb[j] * sgn(n.dot(self.bx[j])))
            });
            face_contacts(
                buf_a.as_slice(),
                deepest,
                n,
                d,
                true,
                self.tol,
                Feature::FaceA(2 * k + usize::from(s < 0.0)),
                pose_a,
            )
        } else {
            let k = axis.code - 3;
            // B's reference face has outward normal −n.
            let nb = -n;
            let s = sgn(nb.dot(self.bx[k]));
            let reference = Self::face(self.t, &self.bx, self.hb, k, s);
            let (ka, sa) = incident(&ax_a, nb);
            let inc = Self::face(DVec3::ZERO, &ax_a, self.ha, ka, sa);
            clip_to_reference(&reference, nb, &inc, &mut buf_a, &mut buf_b);
            let d = nb.dot(reference[0]);
            let deepest = DVec3::new(
                -self.ha.x * sgn(nb.x),
                -self.ha.y * sgn(nb.y),
                -self.ha.z * sgn(nb.z),
            );
            face_contacts(
                buf_a.as_slice(),
                deepest,
                nb,
                d,
                false,
                self.tol,
                Feature::FaceB(2 * k + usize::from(s < 0.0)),
                pose_a,
            )
        }
    }

    /// Whether `p` (A's frame) lies in both boxes within `slack`.
    fn in_both(&self, p: DVec3, slack: f64) -> bool {
        let q = p - self.t;
        (0..3).all(|k| p[k].abs() <= self.ha[k] + slack)
            && (0..3).all(|k| q.dot(self.bx[k]).abs() <= self.hb[k] + slack)
    }
}

/// The face of a box (axes `ax`) most anti-parallel to `n`: its axis index and sign.
fn incident(ax: &[DVec3; 3], n: DVec3) -> (usize, f64) {
    let mut k = 0;
    let mut best = -1.0;
    for (j, a) in ax.iter().enumerate() {
        let c = a.dot(n).abs();
        if c > best {
            best = c;
            k = j;
        }
    }
    (k, -sgn(ax[k].dot(n)))
}

/// The full result of a box–box query: the SAT answer and, unless separated, the manifold.
fn run(
    a: &Cuboid<DVec3>,
    pose_a: &Pose3,
    b: &Cuboid<DVec3>,
    pose_b: &Pose3,
) -> (SatResult, Option<Manifold>) {
    let f = Frame::new(a, pose_a, b, pose_b);
    let (axis, tested) = f.sat();
    let feature = match axis.code {
        c @ 0..=2 => Feature::FaceA(2 * c + usize::from(axis.n[c] < 0.0)),
        c @ 3..=5 => Feature::FaceB(2 * (c - 3) + usize::from(axis.n.dot(f.bx[c - 3]) > 0.0)),
        c => Feature::Edges {
            edge_a: (c - 6) / 3,
            edge_b: (c - 6) % 3,
        },
    };
    let world_axis = pose_a.transform_vector(axis.n);
    let mut out = SatResult {
        status: Status::Converged,
        verdict: Verdict::Undetermined,
        axis: world_axis,
        separation: axis.sep,
        feature,
        tolerance: f.tol,
        iterations: tested,
    };
    if axis.sep > f.tol {
        out.verdict = Verdict::Separated(SeparatingAxis {
            axis: world_axis,
            gap: axis.sep,
        });
        return (out, None);
    }
    let m = f.manifold(&axis, pose_a);
    out.feature = m.feature;
    // A common point from the manifold (checked in both boxes), else from GJK.
    let slack = 0.25 * f.tol;
    let mut common = None;
    'search: for c in m.points() {
        let pa = pose_a.inverse_transform_point(c.point_a);
        let pb = pose_a.inverse_transform_point(c.point_b);
        for p in [(pa + pb) * 0.5, pb, pa] {
            if f.in_both(p, slack) {
                common = Some(pose_a.transform_point(p));
                break 'search;
            }
        }
    }
    out.verdict = match common {
        Some(point) => Verdict::Intersecting(CommonPoint { point }),
        None => {
            let g = gjk::intersects(a, pose_a, b, pose_b, &gjk::GjkOptions::default(), None);
            if g.status != Status::Converged {
                out.status = g.status;
            }
            g.verdict
        }
    };
    (out, Some(m))
}

/// Separating-axis test of two boxes (see the module documentation).
pub fn box_box(a: &Cuboid<DVec3>, pose_a: &Pose3, b: &Cuboid<DVec3>, pose_b: &Pose3) -> SatResult {
    run(a, pose_a, b, pose_b).0
}

/// The SAT answer and the contact manifold of two boxes; the manifold is `None` when the boxes
/// are separated by more than the touch tolerance.
pub fn box_box_contact(
    a: &Cuboid<DVec3>,
    pose_a: &Pose3,
    b: &Cuboid<DVec3>,
    pose_b: &Pose3,
) -> (SatResult, Option<Manifold>) {
    run(a, pose_a, b, pose_b)
}

/// The contact manifold of two boxes, or `None` when they are separated by more than the touch
/// tolerance. Skips the common-point search of [`box_box`] (the fast path for physics).
pub fn box_box_manifold(
    a: &Cuboid<DVec3>,
    pose_a: &Pose3,
    b: &Cuboid<DVec3>,
    pose_b: &Pose3,
) -> Option<Manifold> {
    let f = Frame::new(a, pose_a, b, pose_b);
    let (axis, _) = f.sat();
    if axis.sep > f.tol {
        None
    } else {
        Some(f.manifold(&axis, pose_a))
    }
}
