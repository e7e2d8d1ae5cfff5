//! The two collision questions Seidel's LP answers: do two H-polytopes intersect, and what
//! plane separates two V-polytopes; with posed-pair wrappers for the query interface.
//!
//! Source: R. Seidel, "Small-dimensional linear programming and convex hulls made easy",
//! Discrete Comput. Geom. 6 (1991) 423–434. The solver itself is [`crate::math::seidel_lp`]
//! (expected O(d!·m) for m rows in dimension d); this module builds the programs:
//! * intersection of two half-space systems: feasibility of their union; an infeasible union is
//!   proved by a Farkas combination, split into a separating hyperplane between the two
//!   systems (`split_farkas`);
//! * separating plane between two vertex sets: maximise the margin t subject to
//!   `w·aᵢ + t ≤ c ≤ w·bⱼ`, `|w|∞ ≤ 1`, so the gap found is at least distance/√d.
//!
//! Failure modes: dimension mismatches are [`InputError`]s; an answer the solver cannot certify
//! is reported as undetermined (status [`Status::Numerical`]), never guessed.

use crate::error::InputError;
use crate::gjk;
use crate::gjk::certificate::tolerance_for;
use crate::math::halfspaces::{Farkas, Halfspaces};
use crate::math::pose::Pose;
use crate::math::seidel_lp::{solve, LpOutcome, LpResult, SeidelOptions};
use crate::math::slice::dot;
use crate::math::vector::Vector;
use crate::shape::{BoundedHalfspaces, Points, SupportMap};
use crate::verdict::{CommonPoint, SeparatingAxis, Status, Verdict};

/// Which input of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first system (A).
    A,
    /// The second system (B).
    B,
}

/// The answer for two half-space systems, in any dimension.
#[derive(Clone, Debug, PartialEq)]
pub enum HalfspaceVerdict {
    /// A point satisfying every row of both systems (within the tolerance).
    Intersecting {
        /// The common point (one coordinate per dimension).
        point: Vec<f64>,
    },
    /// A Farkas combination split between the two systems: with `w = Σ_A λᵢ nᵢ`,
    /// `A ⊂ {w·x ≤ α}` and `B ⊂ {w·x ≥ −β}` with `α + β < 0`. `normal` is `w/|w|` (from A
    /// toward B) and `gap = −(α + β)/|w|`, a lower bound on the distance.
    Separated {
        /// Unit normal `w/|w|`, pointing from A toward B.
        normal: Vec<f64>,
        /// `−(α + β)/|w|`: a lower bound on the distance between the two sets (> 0).
        gap: f64,
        /// The combination of the rows of both systems that proves the separation.
        farkas: Farkas,
    },
    /// One system is infeasible on its own (the certificate uses its rows only).
    Empty {
        /// The system that is empty.
        side: Side,
        /// The combination of its rows that proves it empty.
        farkas: Farkas,
    },
    /// Infeasible only within the bounding box, or the certificate did not check.
    Undetermined,
}

/// Result of [`halfspaces_intersect`].
#[derive(Clone, Debug, PartialEq)]
pub struct HalfspaceIntersection {
    /// The answer with its certificate.
    pub verdict: HalfspaceVerdict,
    /// The LP's own result (outcome, violation at the point, box).
    pub lp: LpResult,
}

impl HalfspaceIntersection {
    /// `Some(true)` for intersecting, `Some(false)` for separated or empty.
    pub fn intersecting(&self) -> Option<bool> {
        match self.verdict {
            HalfspaceVerdict::Intersecting { .. } => Some(true),
            HalfspaceVerdict::Separated { .. } | HalfspaceVerdict::Empty { .. } => Some(false),
            HalfspaceVerdict::Undetermined => None,
        }
    }
}

/// Decides whether two H-polytopes (or any half-space systems) of the same dimension intersect,
/// as the feasibility of the union of their rows.
pub fn halfspaces_intersect(
    a: &Halfspaces,
    b: &Halfspaces,
    opts: &SeidelOptions,
) -> Result<HalfspaceIntersection, InputError> {
    let union = a.concat(b)?;
    let lp = solve(&union, &vec![0.0; a.dim()], opts)?;
    let verdict = match &lp.outcome {
        LpOutcome::Optimal { x, .. } => HalfspaceVerdict::Intersecting { point: x.clone() },
        LpOutcome::Unbounded { .. } | LpOutcome::Infeasible { farkas: None } => {
            HalfspaceVerdict::Undetermined
        }
        LpOutcome::Infeasible { farkas: Some(f) } => split_farkas(&union, a.len(), f),
    };
    Ok(HalfspaceIntersection { verdict, lp })
}

/// Turns a Farkas combination over `A ∪ B` (A's rows first, `na` of them) into a separating
/// plane, or into a proof that one side is empty on its own.
pub(crate) fn split_farkas(union: &Halfspaces, na: usize, f: &Farkas) -> HalfspaceVerdict {
    let d = union.dim();
    let mut w = vec![0.0; d];
    let (mut alpha, mut beta, mut wsum_a, mut wsum_b) = (0.0, 0.0, 0.0, 0.0);
    for &(i, l) in &f.weights {
        if i < na {
            for (wj, nj) in w.iter_mut().zip(union.normal(i)) {
                *wj += l * nj;
            }
            alpha += l * union.offset(i);
            wsum_a += l * union.normal_length(i);
        } else {
            beta += l * union.offset(i);
            wsum_b += l * union.normal_length(i);
        }
    }
    let wl = dot(&w, &w).sqrt();
    let only = |side: Side| {
        let keep = |i: usize| if side == Side::A { i < na } else { i >= na };
        Farkas {
            weights: f
                .weights
                .iter()
                .copied()
                .filter(|(i, _)| keep(*i))
                .collect(),
        }
    };
    // |w| at rounding level relative to the weights: the combination cancels within one side.
    if !(wl > 1e-12 * wsum_a.max(wsum_b)) {
        return if alpha < 0.0 && (beta >= 0.0 || alpha <= beta) {
            HalfspaceVerdict::Empty {
                side: Side::A,
                farkas: only(Side::A),
            }
        } else if beta < 0.0 {
            HalfspaceVerdict::Empty {
                side: Side::B,
                farkas: only(Side::B),
            }
        } else {
            HalfspaceVerdict::Undetermined
        };
    }
    let gap = -(alpha + beta) / wl;
    if !(gap > 0.0) {
        return HalfspaceVerdict::Undetermined;
    }
    HalfspaceVerdict::Separated {
        normal: w.iter().map(|v| v / wl).collect(),
        gap,
        farkas: f.clone(),
    }
}

/// A 2D/3D pair answer with a certificate the project's checker accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairAnswer<V> {
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// `certificate::tolerance_for` the pair: the tolerance to check the certificate with.
    pub tolerance: f64,
}

/// World support of a posed shape along a world direction.
fn world_extent<V: Vector, S: SupportMap<V> + ?Sized>(s: &S, pose: &Pose<V>, dir: V) -> f64 {
    dir.dot(pose.transform_point(s.support(pose.inverse_transform_vector(dir))))
}

/// Turns an n-D half-space verdict for a posed 2D/3D pair into a [`Verdict`], recomputing a
/// separating gap from the shapes' own support functions (vertices).
pub(crate) fn typed_verdict<V: Vector>(
    verdict: &HalfspaceVerdict,
    a: &BoundedHalfspaces<V>,
    pose_a: &Pose<V>,
    b: &BoundedHalfspaces<V>,
    pose_b: &Pose<V>,
) -> PairAnswer<V> {
    let tolerance = tolerance_for(a, pose_a, b, pose_b);
    let undetermined = PairAnswer {
        verdict: Verdict::Undetermined,
        status: Status::Numerical,
        tolerance,
    };
    match verdict {
        HalfspaceVerdict::Intersecting { point } => match V::from_slice(point) {
            Some(p) => PairAnswer {
                verdict: Verdict::Intersecting(CommonPoint { point: p }),
                status: Status::Converged,
                tolerance,
            },
            None => undetermined,
        },
        HalfspaceVerdict::Separated { normal, .. } => {
            let Some(axis) = V::from_slice(normal).and_then(|n| n.try_normalize()) else {
                return undetermined;
            };
            let gap = -world_extent(b, pose_b, -axis) - world_extent(a, pose_a, axis);
            if gap > 0.0 {
                PairAnswer {
                    verdict: Verdict::Separated(SeparatingAxis { axis, gap }),
                    status: Status::Converged,
                    tolerance,
                }
            } else {
                undetermined
            }
        }
        HalfspaceVerdict::Empty { .. } | HalfspaceVerdict::Undetermined => undetermined,
    }
}

/// Seidel on a posed pair of bounded 2D/3D half-space shapes: the entry for `--algorithm
/// seidel`. The common point is the LP's feasible point (world frame); a separating axis is the
/// Farkas plane with its gap recomputed from the vertices.
pub fn intersect_pair<V: Vector>(
    a: &BoundedHalfspaces<V>,
    pose_a: &Pose<V>,
    b: &BoundedHalfspaces<V>,
    pose_b: &Pose<V>,
    opts: &SeidelOptions,
) -> Result<PairAnswer<V>, InputError> {
    let (ha, hb, centre) = centred_systems(a, pose_a, b, pose_b)?;
    let r = halfspaces_intersect(&ha, &hb, opts)?;
    Ok(typed_verdict(
        &shifted(r.verdict, centre),
        a,
        pose_a,
        b,
        pose_b,
    ))
}

/// The two systems placed relative to A's world position (B by the difference of the world
/// translations), and that position. Far from the origin the offsets of the world systems are
/// of the order of the offset, and the solvers' rounding with them (issue 14: boxes 0.01
/// apart at 1e9 were found "intersecting"); relative to A they are of the order of the shapes.
pub(crate) fn centred_systems<V: Vector>(
    a: &BoundedHalfspaces<V>,
    pose_a: &Pose<V>,
    b: &BoundedHalfspaces<V>,
    pose_b: &Pose<V>,
) -> Result<(Halfspaces, Halfspaces, V), InputError> {
    let centre = pose_a.translation();
    let local_a = Pose::new(V::ZERO, pose_a.rotation())?;
    let local_b = Pose::new(pose_b.translation() - centre, pose_b.rotation())?;
    let ha = a.halfspaces().transformed(&local_a)?;
    let hb = b.halfspaces().transformed(&local_b)?;
    Ok((ha, hb, centre))
}

/// A verdict of the centred systems moved back to the world frame (only a point moves).
pub(crate) fn shifted<V: Vector>(verdict: HalfspaceVerdict, centre: V) -> HalfspaceVerdict {
    match verdict {
        HalfspaceVerdict::Intersecting { point } => HalfspaceVerdict::Intersecting {
            point: point
                .iter()
                .enumerate()
                .map(|(k, x)| x + centre.coord(k))
                .collect(),
        },
        other => other,
    }
}

/// Result of [`separating_plane`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneSeparation<V> {
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The LP optimum: the largest gap over planes with `|w|∞ ≤ 1` (≤ 0 when none separates).
    pub lp_gap: f64,
    /// `certificate::tolerance_for` the pair: a plane must separate by more than this for a
    /// `Separated` verdict; the tolerance to check the certificate with.
    pub tolerance: f64,
}

/// A separating plane of two V-polytopes (convex hulls of point sets, world frame), found as an
/// LP over the plane: maximise `g` over `(w, s, g)` subject to `w·a ≤ s` for a ∈ A,
/// `w·b ≥ s + g` for b ∈ B and `|wⱼ| ≤ 1` (d + 2 variables, |A| + |B| + 2d rows).
///
/// The LP measures the gap with `|w|∞ ≤ 1`, so the recomputed Euclidean gap `g*/|w|₂` is a valid
/// lower bound on the distance and at least `distance/√d` (the unit closest-point normal is one
/// feasible `w`), not the distance itself.
///
/// Separated when the plane's gap, recomputed from the points along `w/|w|`, exceeds the pair's
/// tolerance (`certificate::tolerance_for`); otherwise the hulls touch or overlap, and the
/// common point comes from GJK on the two hulls (status [`Status::PointFromGjk`]); the LP
/// proves only that no plane separates them.
pub fn separating_plane<V: Vector>(
    a: &[V],
    b: &[V],
    opts: &SeidelOptions,
) -> Result<PlaneSeparation<V>, InputError> {
    let pa = Points::new(a).map_err(|e| e.within("a"))?;
    let pb = Points::new(b).map_err(|e| e.within("b"))?;
    let d = V::DIM;
    let k = d + 2;
    // The plane LP is translation invariant: it runs on coordinates relative to the centroid of
    // all the points, so its rounding scales with the shapes, not with their distance
    // from the origin (issue 14: undetermined at offset 1e9 for gaps 1e-3 and 1e-2). The gap is
    // recomputed on the original points below.
    let count = (a.len() + b.len()).max(1) as f64;
    let centre = a.iter().chain(b).fold(V::ZERO, |c, &p| c + p) * (1.0 / count);
    let mut normals = Vec::with_capacity((a.len() + b.len() + 2 * d) * k);
    let mut offsets = Vec::new();
    for &p in a {
        normals.extend((p - centre).to_vec());
        normals.extend([-1.0, 0.0]);
        offsets.push(0.0);
    }
    for &q in b {
        normals.extend((q - centre).to_vec().iter().map(|v| -v));
        normals.extend([1.0, 1.0]);
        offsets.push(0.0);
    }
    for j in 0..d {
        for sign in [1.0, -1.0] {
            let mut row = vec![0.0; k];
            row[j] = sign;
            normals.extend(row);
            offsets.push(1.0);
        }
    }
    let system = Halfspaces::new(k, normals, offsets)?;
    let maxabs = a
        .iter()
        .chain(b)
        .fold(0.0f64, |m, &p| m.max((p - centre).max_abs()));
    let mut o = *opts;
    o.bound = Some(4.0 * d as f64 * (1.0 + maxabs));
    let mut objective = vec![0.0; k];
    objective[d + 1] = 1.0;
    let lp = solve(&system, &objective, &o)?;
    let id = Pose::<V>::IDENTITY;
    let tolerance = tolerance_for(&pa, &id, &pb, &id);
    let (lp_gap, w) = match &lp.outcome {
        LpOutcome::Optimal { x, .. } => (x[d + 1], V::from_slice(&x[..d])),
        _ => {
            return Ok(PlaneSeparation {
                verdict: Verdict::Undetermined,
                status: Status::Numerical,
                lp_gap: 0.0,
                tolerance,
            })
        }
    };
    if let Some(axis) = w.and_then(|w| w.try_normalize()) {
        let max_a = axis.dot(pa.support(axis));
        let min_b = axis.dot(pb.support(-axis));
        let gap = min_b - max_a;
        if lp_gap > 0.0 && gap > tolerance {
            return Ok(PlaneSeparation {
                verdict: Verdict::Separated(SeparatingAxis { axis, gap }),
                status: Status::Converged,
                lp_gap,
                tolerance,
            });
        }
    }
    // No plane separates by more than the tolerance: a common point from GJK.
    let g = gjk::distance(&pa, &id, &pb, &id, &gjk::GjkOptions::default(), None);
    let verdict = match g.verdict {
        Verdict::Intersecting(c) => Verdict::Intersecting(c),
        _ if g.distance <= tolerance => Verdict::Intersecting(CommonPoint {
            point: (g.point_a + g.point_b) * 0.5,
        }),
        _ => Verdict::Undetermined,
    };
    let status = if matches!(verdict, Verdict::Undetermined) {
        Status::Numerical
    } else {
        Status::PointFromGjk
    };
    Ok(PlaneSeparation {
        verdict,
        status,
        lp_gap,
        tolerance,
    })
}
