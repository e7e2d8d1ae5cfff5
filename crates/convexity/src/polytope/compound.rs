//! Compound shapes (a set of convex parts, each a [`Shape3`] at a local pose, with an AABB tree
//! over the parts' boxes) and closed triangle meshes against convex shapes: distance, the
//! boolean test and contacts, answered part pair by part pair with GJK and EPA, each pair with
//! its own certificate.
//!
//! Source: the broad phase / narrow phase split of every collision library (Ericson,
//! "Real-Time Collision Detection", 2005, ch. 6 (BVHs) and 9 (convex pieces)); the distance is
//! a branch and bound over part pairs.
//!
//! * [`distance`]: seeded with the pair whose boxes' centres are nearest; then each part of B
//!   queries A's tree with its box grown by the best distance so far, and GJK runs only on the
//!   pairs whose boxes are closer than that. The pair achieving the minimum is always tested
//!   (its boxes are no farther apart than it is), so the answer is the minimum over all part
//!   pairs of the same GJK distances, up to GJK's own tolerance.
//! * [`intersects`]: GJK's boolean test on the pairs whose boxes overlap once grown by a bound
//!   on the pair's touch tolerance (parts touching within it are tested even when rounding at
//!   large coordinates leaves their boxes a hair apart); the first pair proved intersecting
//!   answers with its common point. Separated means every such pair was proved separated (each
//!   with its separating axis) and every other pair's boxes are disjoint;
//!   [`verify_intersection`] re-checks all of that with the independent checker.
//! * [`contacts`]: EPA on every such pair; the pairs that intersect, each with its
//!   depth, normal, witness points and contact manifold: for two polytope parts (point hulls,
//!   boxes, triangles, segments) the SAT manifold of up to four points by face clipping
//!   ([`crate::polytope::sat3d::polyhedron_manifold_with`], on hulls built once, on the first
//!   `contacts` call), otherwise EPA's one point.
//! * [`mesh_convex_intersects`], [`mesh_convex_distance`]: the same over the triangles of a
//!   [`TriMesh`] (through its AABB tree, the shape's box grown by the touch tolerance as
//!   above), plus exact point location for a shape wholly inside the solid;
//!   [`verify_mesh_intersection`] re-checks the boolean answer.
//!
//! Complexity: building O(n log n) for n parts; a query O(m log n + k) GJK calls for the k
//! candidate pairs (k ≤ n·m, small when parts are spread out).
//! Preconditions: parts are convex (a [`Shape3`]); poses are rigid.
//! Failure modes: a pair whose GJK answer is undetermined makes the boolean undetermined
//! (never "separated"); the distance then reports the worst status met.

use std::sync::OnceLock;

use glam::DVec3;

use crate::error::{InputError, Problem};
use crate::gjk::certificate::{tolerance_for, verify};
use crate::gjk::{self, epa, Distance, Options};
use crate::hull::ConvexPolyhedron;
use crate::math::pose::Pose3;
use crate::math::vector::Vector;
use crate::polytope::manifold::{ContactPoint, Feature, Manifold};
use crate::polytope::sat3d::{polyhedron_manifold_with, SatContext};
use crate::primitives::bounds::Aabb;
use crate::primitives::mesh::{AabbTree, MeshLocation, TriMesh};
use crate::shape::{Points, Shape3, SupportMap, Triangle};
use crate::verdict::{CertificateError, CommonPoint, Status, Verdict};

/// A convex part: a shape at a pose in the compound's frame.
#[derive(Clone, Debug)]
pub struct Part {
    /// The convex shape, in its own frame.
    pub shape: Shape3,
    /// Where the shape sits in the compound's frame.
    pub pose: Pose3,
}

/// A set of convex parts with an AABB tree over their boxes (in the compound's frame).
#[derive(Clone, Debug)]
pub struct Compound {
    parts: Vec<Part>,
    boxes: Vec<Aabb<DVec3>>,
    tree: AabbTree,
    /// Each polytope part as a polyhedron in its own frame, for contact manifolds (`None` for
    /// curved parts); built on the first [`contacts`] call, so that compounds used only for
    /// distance and boolean queries (a mesh's triangles, for one) never pay for them.
    hulls: OnceLock<Vec<Option<ConvexPolyhedron>>>,
}

/// A polytope part as a (possibly lower-dimensional) polyhedron; `None` for curved shapes.
fn part_hull(shape: &Shape3) -> Option<ConvexPolyhedron> {
    match shape {
        Shape3::Points(p) => ConvexPolyhedron::from_points_any(p.points()).ok(),
        Shape3::Cuboid(c) => Some(ConvexPolyhedron::cuboid(c.half_extents())),
        Shape3::Triangle(t) => ConvexPolyhedron::from_points_any(&t.vertices()).ok(),
        Shape3::Segment(g) => ConvexPolyhedron::from_points_any(&[g.a(), g.b()]).ok(),
        _ => None,
    }
}

/// The box of a support-mapped shape at `pose`, from six support calls, padded for rounding.
pub fn support_box<S: SupportMap<DVec3> + ?Sized>(shape: &S, pose: &Pose3) -> Aabb<DVec3> {
    let mut lo = DVec3::splat(f64::INFINITY);
    let mut hi = DVec3::splat(f64::NEG_INFINITY);
    for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
        for d in [axis, -axis] {
            let p = pose.transform_point(shape.support(pose.inverse_transform_vector(d)));
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    let m = pose.translation().abs().max_element() + shape.bounding_radius();
    Aabb { min: lo, max: hi }.padded(1e-12 * m + f64::MIN_POSITIVE)
}

/// Euclidean distance between two boxes (0 when they overlap).
fn box_distance(a: &Aabb<DVec3>, b: &Aabb<DVec3>) -> f64 {
    let gap = (a.min - b.max).max(b.min - a.max).max(DVec3::ZERO);
    gap.length()
}

impl Compound {
    /// A compound of `parts` (at least one; every pose and shape already validated).
    pub fn new(parts: Vec<Part>) -> Result<Compound, InputError> {
        if parts.is_empty() {
            return Err(InputError::new("parts", Problem::Empty));
        }
        let boxes: Vec<Aabb<DVec3>> = parts
            .iter()
            .map(|p| support_box(&p.shape, &p.pose))
            .collect();
        for (i, b) in boxes.iter().enumerate() {
            if !(b.min.is_finite() && b.max.is_finite()) {
                return Err(InputError::new(
                    format!("parts[{i}]"),
                    Problem::Invalid("the part's bounds are not finite".to_string()),
                ));
            }
        }
        let tree = AabbTree::new(&boxes);
        Ok(Compound {
            parts,
            boxes,
            tree,
            hulls: OnceLock::new(),
        })
    }

    /// One [`Points`] part (its hull) per point set, at the identity pose: what
    /// `primitives::io` returns as parts.
    pub fn from_point_sets<'a>(
        sets: impl IntoIterator<Item = &'a [DVec3]>,
    ) -> Result<Compound, InputError> {
        let parts = sets
            .into_iter()
            .enumerate()
            .map(|(i, pts)| {
                Ok(Part {
                    shape: Shape3::Points(
                        Points::new(pts).map_err(|e| e.within(&format!("parts[{i}]")))?,
                    ),
                    pose: Pose3::IDENTITY,
                })
            })
            .collect::<Result<Vec<_>, InputError>>()?;
        Compound::new(parts)
    }

    /// The parts as polyhedra for contact manifolds, built once on first use.
    fn part_hulls(&self) -> &[Option<ConvexPolyhedron>] {
        self.hulls
            .get_or_init(|| self.parts.iter().map(|p| part_hull(&p.shape)).collect())
    }

    /// A one-part compound: a convex shape where a compound is expected.
    pub fn single(shape: Shape3) -> Result<Compound, InputError> {
        Compound::new(vec![Part {
            shape,
            pose: Pose3::IDENTITY,
        }])
    }

    /// The parts, in the order given to [`Compound::new`] (part indices in results refer
    /// to this order).
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Part `i`'s box in the compound's frame.
    pub fn part_box(&self, i: usize) -> Option<Aabb<DVec3>> {
        self.boxes.get(i).copied()
    }

    /// Part `i`'s pose in the world when the compound is at `pose`.
    pub fn part_pose(&self, i: usize, pose: &Pose3) -> Option<Pose3> {
        Some(pose.compose(&self.parts.get(i)?.pose))
    }

    /// The box of the whole compound (its frame).
    pub fn aabb(&self) -> Aabb<DVec3> {
        self.boxes
            .iter()
            .copied()
            .reduce(|a, b| a.merge(&b))
            .unwrap_or(Aabb {
                min: DVec3::ZERO,
                max: DVec3::ZERO,
            })
    }
}

/// B's part boxes in A's frame (conservative: the box of each rotated box).
fn boxes_in_a(a_pose: &Pose3, b: &Compound, b_pose: &Pose3) -> Vec<Aabb<DVec3>> {
    let pose_ab = a_pose.relative(b_pose);
    b.boxes.iter().map(|bx| bx.transformed(&pose_ab)).collect()
}

/// Part pairs `(i of A, j of B)` whose boxes overlap once B's are grown by a bound on the
/// pairs' touch tolerance ([`compound_touch_pad`]: parts that touch within it are tested even
/// when their boxes miss each other by less, as they may by rounding at large coordinates),
/// sorted.
fn overlapping_pairs(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    opts: &Options,
) -> Vec<(usize, usize)> {
    let pad = compound_touch_pad(a, pose_a, b, pose_b, opts);
    let bb = boxes_in_a(pose_a, b, pose_b);
    let mut pairs = Vec::new();
    for (j, q) in bb.iter().enumerate() {
        a.tree.query(&q.padded(pad), |i| pairs.push((i, j)));
    }
    pairs.sort_unstable();
    pairs
}

/// An upper bound on GJK's touch tolerance over the part pairs (`MinkowskiDifference::
/// tolerance`: `rel · (size_A + size_B) + 4ε · magnitude`, each term bounded by its largest
/// part: a part's world translation `t + R·t_part` by `‖t‖₁ + √3·|t_part|` in the magnitude's
/// ‖·‖₁ and by `|t| + |t_part|` in length, its bounding radius, the relative translation by
/// the sum of the two world ones), doubled for the rounding of the boxes.
fn compound_touch_pad(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    opts: &Options,
) -> f64 {
    let side = |c: &Compound, pose: &Pose3| {
        c.parts.iter().fold((0.0f64, 0.0f64), |(size, mag), p| {
            let part = p.pose.translation().length();
            let reach = pose.translation().length() + part;
            let l1 = pose.translation().abs_sum() + 3f64.sqrt() * part;
            (
                size.max(p.shape.size()),
                mag.max(reach + l1 + p.shape.bounding_radius()),
            )
        })
    };
    let ((sa, ma), (sb, mb)) = (side(a, pose_a), side(b, pose_b));
    let tol = opts
        .abs_tolerance
        .unwrap_or(opts.rel_tolerance * (sa + sb) + 4.0 * f64::EPSILON * (ma + mb));
    2.0 * tol
}

/// The GJK distance of one part pair.
#[derive(Clone, Debug)]
pub struct PairDistance {
    /// Index of the part of compound A.
    pub part_a: usize,
    /// Index of the part of compound B.
    pub part_b: usize,
    /// Points, normal and verdict in the world frame.
    pub result: Distance<DVec3>,
}

/// The distance between two compounds: the closest part pair.
#[derive(Clone, Debug)]
pub struct CompoundDistance {
    /// Converged unless some tested pair's GJK did not converge (then the worst status).
    pub status: Status,
    /// GJK iterations over all tested pairs.
    pub iterations: u32,
    /// Distance between the two compounds (the minimum over part pairs; at most the
    /// tolerance when some pair intersects). `+∞` when no pair was tested.
    pub distance: f64,
    /// The closest pair tested.
    pub closest: Option<PairDistance>,
    /// How many part pairs ran GJK (of `parts_a × parts_b`).
    pub pairs_tested: usize,
}

fn worse(a: Status, b: Status) -> Status {
    if a == Status::Converged {
        b
    } else {
        a
    }
}

/// Distance between compound `a` at `pose_a` and `b` at `pose_b` (see the module notes).
pub fn distance(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    opts: &Options,
) -> CompoundDistance {
    let bb = boxes_in_a(pose_a, b, pose_b);
    let mut out = CompoundDistance {
        status: Status::Converged,
        iterations: 0,
        distance: f64::INFINITY,
        closest: None,
        pairs_tested: 0,
    };
    let test = |i: usize, j: usize, out: &mut CompoundDistance| {
        let (Some(pa), Some(pb)) = (a.part_pose(i, pose_a), b.part_pose(j, pose_b)) else {
            return;
        };
        let d = gjk::distance(&a.parts[i].shape, &pa, &b.parts[j].shape, &pb, opts, None);
        out.pairs_tested += 1;
        out.iterations = out.iterations.saturating_add(d.iterations);
        out.status = worse(out.status, d.status);
        if d.distance < out.distance || out.closest.is_none() {
            out.distance = d.distance;
            out.closest = Some(PairDistance {
                part_a: i,
                part_b: j,
                result: d,
            });
        }
    };
    // Seed: B's first part against the A part whose box centre is nearest to it.
    let seed_j = 0;
    let seed_i = (0..a.boxes.len())
        .min_by(|&x, &y| {
            let dx = a.boxes[x].center().distance_squared(bb[seed_j].center());
            let dy = a.boxes[y].center().distance_squared(bb[seed_j].center());
            dx.total_cmp(&dy)
        })
        .unwrap_or(0);
    test(seed_i, seed_j, &mut out);
    for (j, bj) in bb.iter().enumerate() {
        if out.distance <= 0.0 {
            break;
        }
        let mut cand = Vec::new();
        a.tree.query(&bj.padded(out.distance), |i| cand.push(i));
        cand.sort_by(|&x, &y| {
            box_distance(&a.boxes[x], bj).total_cmp(&box_distance(&a.boxes[y], bj))
        });
        for i in cand {
            if (i, j) == (seed_i, seed_j) || box_distance(&a.boxes[i], bj) > out.distance {
                continue;
            }
            test(i, j, &mut out);
        }
    }
    out
}

/// One part pair's boolean answer with its certificate (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairVerdict {
    /// Index of the part of compound A.
    pub part_a: usize,
    /// Index of the part of compound B.
    pub part_b: usize,
    /// That pair's verdict with its certificate (world frame).
    pub verdict: Verdict<DVec3>,
    /// The tolerance the pair was decided with.
    pub tolerance: f64,
}

/// The boolean answer for two compounds.
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundIntersection {
    /// `Some(true)`: `pairs` holds one intersecting pair with its common point.
    /// `Some(false)`: `pairs` holds every pair whose boxes overlap (grown by the touch
    /// tolerance), each proved separated; every other pair has disjoint boxes. `None`: some
    /// pair was undetermined and none intersected.
    pub intersecting: Option<bool>,
    /// The part pairs that back the answer (see `intersecting`).
    pub pairs: Vec<PairVerdict>,
    /// GJK iterations over all tested pairs.
    pub iterations: u32,
}

/// Boolean test between two compounds (touching counts as intersecting).
pub fn intersects(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    opts: &Options,
) -> CompoundIntersection {
    let mut out = CompoundIntersection {
        intersecting: Some(false),
        pairs: Vec::new(),
        iterations: 0,
    };
    for (i, j) in overlapping_pairs(a, pose_a, b, pose_b, opts) {
        let (Some(pa), Some(pb)) = (a.part_pose(i, pose_a), b.part_pose(j, pose_b)) else {
            continue;
        };
        let r = gjk::intersects(&a.parts[i].shape, &pa, &b.parts[j].shape, &pb, opts, None);
        out.iterations = out.iterations.saturating_add(r.iterations);
        let pv = PairVerdict {
            part_a: i,
            part_b: j,
            verdict: r.verdict,
            tolerance: r.tolerance,
        };
        match r.verdict {
            Verdict::Intersecting(_) => {
                out.intersecting = Some(true);
                out.pairs = vec![pv];
                return out;
            }
            Verdict::Separated(_) => out.pairs.push(pv),
            Verdict::Undetermined => {
                out.intersecting = None;
                out.pairs.push(pv);
            }
        }
    }
    out
}

/// Why a compound answer failed its check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CompoundCheckError {
    /// A pair's certificate failed the independent checker.
    Pair {
        /// Index of the part of compound A.
        part_a: usize,
        /// Index of the part of compound B.
        part_b: usize,
        /// What the certificate checker rejected.
        error: CertificateError,
    },
    /// "Separated" but this pair has overlapping boxes and no certificate.
    Uncovered {
        /// Index of the part of compound A.
        part_a: usize,
        /// Index of the part of compound B.
        part_b: usize,
    },
    /// A part index out of range, or an undetermined answer.
    NoCertificate,
}

/// Checks a [`CompoundIntersection`] independently: every listed pair's certificate with
/// [`verify`] at the pair's [`tolerance_for`]; for "separated", also that every pair not listed
/// has disjoint boxes (recomputed here, with a quadratic scan over the boxes: a checker, not a
/// query).
pub fn verify_intersection(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    answer: &CompoundIntersection,
) -> Result<(), CompoundCheckError> {
    let Some(intersecting) = answer.intersecting else {
        return Err(CompoundCheckError::NoCertificate);
    };
    if intersecting && answer.pairs.is_empty() {
        return Err(CompoundCheckError::NoCertificate);
    }
    for p in &answer.pairs {
        let (Some(pa), Some(pb)) = (a.part_pose(p.part_a, pose_a), b.part_pose(p.part_b, pose_b))
        else {
            return Err(CompoundCheckError::NoCertificate);
        };
        let (sa, sb) = (&a.parts[p.part_a].shape, &b.parts[p.part_b].shape);
        let tol = tolerance_for(sa, &pa, sb, &pb);
        verify(sa, &pa, sb, &pb, &p.verdict, tol).map_err(|error| CompoundCheckError::Pair {
            part_a: p.part_a,
            part_b: p.part_b,
            error,
        })?;
        if p.verdict.intersecting() != Some(intersecting) {
            return Err(CompoundCheckError::NoCertificate);
        }
    }
    if !intersecting {
        let bb = boxes_in_a(pose_a, b, pose_b);
        for (i, ba) in a.boxes.iter().enumerate() {
            for (j, bj) in bb.iter().enumerate() {
                let listed = answer.pairs.iter().any(|p| (p.part_a, p.part_b) == (i, j));
                if !listed && ba.intersects(bj) {
                    return Err(CompoundCheckError::Uncovered {
                        part_a: i,
                        part_b: j,
                    });
                }
            }
        }
    }
    Ok(())
}

/// One overlapping part pair with its EPA contact and its contact manifold.
#[derive(Clone, Debug)]
pub struct PartContact {
    /// Index of the part of compound A.
    pub part_a: usize,
    /// Index of the part of compound B.
    pub part_b: usize,
    /// EPA's depth, normal (A → B) and deepest points for that pair (world frame).
    pub penetration: epa::Penetration<DVec3>,
    /// The contact patch (world frame): for two polytope parts, the SAT manifold (up to four
    /// points by face clipping; its normal is the SAT's minimum-penetration axis, its deepest
    /// point at EPA's depth); otherwise EPA's one point, with feature
    /// [`Feature::Supports`].
    pub manifold: Manifold,
}

/// The manifold of one intersecting part pair: SAT's for two polytopes, else EPA's point.
fn part_manifold(
    hulls: (Option<&ConvexPolyhedron>, Option<&ConvexPolyhedron>),
    poses: (&Pose3, &Pose3),
    pen: &epa::Penetration<DVec3>,
    ctx: &mut SatContext,
) -> Manifold {
    if let (Some(ha), Some(hb)) = hulls {
        if let Some(m) = polyhedron_manifold_with(ha, poses.0, hb, poses.1, ctx) {
            if !m.is_empty() {
                return m;
            }
        }
    }
    let mut m = Manifold::new(pen.normal, Feature::Supports);
    m.push(ContactPoint {
        point_a: pen.point_a,
        point_b: pen.point_b,
        depth: pen.depth,
    });
    m
}

/// Every part pair that intersects (touching included), each with its EPA depth, normal (A →
/// B), witness points, common-point certificate and contact manifold.
pub fn contacts(
    a: &Compound,
    pose_a: &Pose3,
    b: &Compound,
    pose_b: &Pose3,
    opts: &epa::Options,
) -> Vec<PartContact> {
    let mut ctx = epa::Context::new();
    let mut sat_ctx = SatContext::new();
    let mut out = Vec::new();
    for (i, j) in overlapping_pairs(a, pose_a, b, pose_b, &opts.gjk) {
        let (Some(pa), Some(pb)) = (a.part_pose(i, pose_a), b.part_pose(j, pose_b)) else {
            continue;
        };
        let p = epa::penetration(
            &a.parts[i].shape,
            &pa,
            &b.parts[j].shape,
            &pb,
            opts,
            &mut ctx,
        );
        if p.verdict.intersecting() == Some(true) {
            let hulls = (
                a.part_hulls().get(i).and_then(Option::as_ref),
                b.part_hulls().get(j).and_then(Option::as_ref),
            );
            let manifold = part_manifold(hulls, (&pa, &pb), &p, &mut sat_ctx);
            out.push(PartContact {
                part_a: i,
                part_b: j,
                penetration: p,
                manifold,
            });
        }
    }
    out
}

/// A triangle of a mesh as a shape (the mesh validated its coordinates).
fn triangle(mesh: &TriMesh, t: usize) -> Option<Triangle> {
    let [a, b, c] = mesh.triangle(t)?;
    Triangle::new(a, b, c).ok()
}

/// The boolean answer for a closed mesh against a convex shape.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshIntersection {
    /// `Some(true)` when the shape meets the mesh's solid (surface or inside),
    /// `Some(false)` when proved separated from every triangle, `None` when undetermined.
    pub intersecting: Option<bool>,
    /// The triangle that intersects the shape, with its certificate (a point of both); `None`
    /// when the shape is wholly inside the solid (then `inside_point` is set).
    pub witness: Option<(usize, Verdict<DVec3>)>,
    /// A point of the shape (world frame) that the mesh's exact point location puts inside
    /// the solid, when no triangle meets the shape.
    pub inside_point: Option<DVec3>,
    /// The candidate triangles (boxes overlapping the shape's, grown by the touch tolerance)
    /// proved separated, when the answer is separated.
    pub separated: Vec<(usize, Verdict<DVec3>)>,
}

/// Closed mesh at `pose_m` against a convex shape at `pose_s`: intersecting when a triangle
/// meets the shape or the shape lies inside the solid (touching counts).
pub fn mesh_convex_intersects<S: SupportMap<DVec3> + ?Sized>(
    mesh: &TriMesh,
    pose_m: &Pose3,
    shape: &S,
    pose_s: &Pose3,
    opts: &Options,
) -> MeshIntersection {
    let pose_ms = pose_m.relative(pose_s);
    // The shape's box grown by the touch tolerance: a triangle within it of the shape but whose
    // box misses the shape's box must still be tested (touching counts as intersecting).
    let q = support_box(shape, &pose_ms).padded(touch_pad(mesh, pose_m, shape, pose_s, opts));
    let mut cand = Vec::new();
    mesh.tree().query(&q, |t| cand.push(t));
    cand.sort_unstable();
    let mut out = MeshIntersection {
        intersecting: Some(false),
        witness: None,
        inside_point: None,
        separated: Vec::new(),
    };
    for t in cand {
        let Some(tri) = triangle(mesh, t) else {
            continue;
        };
        let r = gjk::intersects(&tri, pose_m, shape, pose_s, opts, None);
        match r.verdict {
            Verdict::Intersecting(_) => {
                out.intersecting = Some(true);
                out.witness = Some((t, r.verdict));
                out.separated.clear();
                return out;
            }
            Verdict::Separated(_) => out.separated.push((t, r.verdict)),
            Verdict::Undetermined => out.intersecting = None,
        }
    }
    if out.intersecting == Some(false) {
        // No triangle meets the shape: the shape is wholly inside or wholly outside, and its
        // centre farther than the touch tolerance from the surface (more than the rounding
        // of its placement, so the side does not depend on how it is computed).
        let c = centre_in_mesh(pose_m, shape, pose_s);
        if mesh.locate(c) != MeshLocation::Outside {
            out.intersecting = Some(true);
            out.inside_point = Some(pose_m.transform_point(c));
            out.separated.clear();
        }
    }
    out
}

/// The shape's centre in the mesh's frame: the world point mapped back (as the checker
/// [`verify_mesh_intersection`] maps it).
fn centre_in_mesh<S: SupportMap<DVec3> + ?Sized>(
    pose_m: &Pose3,
    shape: &S,
    pose_s: &Pose3,
) -> DVec3 {
    pose_m.inverse_transform_point(pose_s.transform_point(shape.center()))
}

/// An upper bound on GJK's touch tolerance between the shape and any triangle of the mesh
/// (`MinkowskiDifference::tolerance`: `rel · (size_A + size_B) + 4ε · magnitude`, with each
/// triangle's size and bounding radius bounded by the mesh's box — its diagonal, its farthest
/// corner plus the diagonal), doubled for the rounding of the boxes themselves. A triangle
/// that touches the shape within its tolerance lies within this of the shape.
fn touch_pad<S: SupportMap<DVec3> + ?Sized>(
    mesh: &TriMesh,
    pose_m: &Pose3,
    shape: &S,
    pose_s: &Pose3,
    opts: &Options,
) -> f64 {
    let b = mesh.aabb();
    let diag = (b.max - b.min).length();
    let far = b.min.abs().max(b.max.abs()).length() + diag;
    let tol = opts.abs_tolerance.unwrap_or_else(|| {
        let magnitude = pose_m.translation().abs_sum()
            + pose_s.translation().abs_sum()
            + far
            + pose_m.relative(pose_s).translation().length()
            + shape.bounding_radius();
        opts.rel_tolerance * (diag + shape.size()) + 4.0 * f64::EPSILON * magnitude
    });
    2.0 * tol
}

/// Why a mesh–convex boolean answer failed its check ([`verify_mesh_intersection`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MeshCheckError {
    /// A listed triangle's certificate failed the independent checker (`error`), or the index
    /// is not a proper triangle of the mesh (`None`).
    Triangle {
        /// Index of the triangle in the mesh.
        triangle: usize,
        /// What the certificate checker rejected.
        error: Option<CertificateError>,
    },
    /// "Separated", but this triangle's box overlaps the shape's and no certificate covers it.
    Uncovered {
        /// Index of the triangle in the mesh.
        triangle: usize,
    },
    /// "Separated", but the shape's centre lies in the solid.
    CentreInside,
    /// "Intersecting" by a point inside the solid that is not the shape's centre, or not inside.
    NotInside,
    /// An undetermined answer, or one whose certificates do not back its verdict.
    NoCertificate,
}

impl core::fmt::Display for MeshCheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MeshCheckError::Triangle {
                triangle,
                error: Some(e),
            } => write!(f, "triangle {triangle}: {e}"),
            MeshCheckError::Triangle {
                triangle,
                error: None,
            } => write!(f, "no triangle {triangle}"),
            MeshCheckError::Uncovered { triangle } => {
                write!(f, "triangle {triangle} is not covered")
            }
            MeshCheckError::CentreInside => f.write_str("the shape's centre is inside the solid"),
            MeshCheckError::NotInside => {
                f.write_str("the point is not the shape's centre inside the solid")
            }
            MeshCheckError::NoCertificate => f.write_str("no certificate"),
        }
    }
}

/// Checks a [`MeshIntersection`] independently. Intersecting: the witness triangle's common
/// point with [`verify`] at its [`tolerance_for`], or, for a shape wholly inside, that the
/// point is the shape's centre and exact point location puts it in the solid. Separated:
/// every listed triangle's separating axis with [`verify`], every unlisted triangle's box
/// disjoint from the shape's (a scan over all triangles: a checker, not a query), and the
/// shape's centre outside the solid (a closed surface the shape does not cross bounds a
/// solid that holds all of the shape or none of it).
pub fn verify_mesh_intersection<S: SupportMap<DVec3> + ?Sized>(
    mesh: &TriMesh,
    pose_m: &Pose3,
    shape: &S,
    pose_s: &Pose3,
    answer: &MeshIntersection,
) -> Result<(), MeshCheckError> {
    let one = |t: usize, v: &Verdict<DVec3>, intersecting: bool| {
        let tri = triangle(mesh, t).ok_or(MeshCheckError::Triangle {
            triangle: t,
            error: None,
        })?;
        verify(
            &tri,
            pose_m,
            shape,
            pose_s,
            v,
            tolerance_for(&tri, pose_m, shape, pose_s),
        )
        .map_err(|e| MeshCheckError::Triangle {
            triangle: t,
            error: Some(e),
        })?;
        if v.intersecting() == Some(intersecting) {
            Ok(())
        } else {
            Err(MeshCheckError::NoCertificate)
        }
    };
    let centre = pose_s.transform_point(shape.center());
    let in_mesh = centre_in_mesh(pose_m, shape, pose_s);
    match answer.intersecting {
        None => Err(MeshCheckError::NoCertificate),
        Some(true) => match (&answer.witness, answer.inside_point) {
            (Some((t, v)), _) => one(*t, v, true),
            (None, Some(p)) => {
                let inside =
                    mesh.locate(pose_m.inverse_transform_point(p)) != MeshLocation::Outside;
                if inside && centre.distance(p) <= 1e-12 * (1.0 + centre.abs().max_element()) {
                    Ok(())
                } else {
                    Err(MeshCheckError::NotInside)
                }
            }
            (None, None) => Err(MeshCheckError::NoCertificate),
        },
        Some(false) => {
            for (t, v) in &answer.separated {
                one(*t, v, false)?;
            }
            let q = support_box(shape, &pose_m.relative(pose_s));
            for t in 0..mesh.triangles().len() {
                let listed = answer.separated.iter().any(|(u, _)| *u == t);
                let [x, y, z] = mesh.triangle(t).unwrap_or([DVec3::ZERO; 3]);
                let (lo, hi) = (x.min(y).min(z), x.max(y).max(z));
                if !listed && lo.cmple(q.max).all() && q.min.cmple(hi).all() {
                    return Err(MeshCheckError::Uncovered { triangle: t });
                }
            }
            if mesh.locate(in_mesh) == MeshLocation::Outside {
                Ok(())
            } else {
                Err(MeshCheckError::CentreInside)
            }
        }
    }
}

/// Distance between a closed mesh (its solid) and a convex shape: 0 when they intersect,
/// otherwise the smallest GJK distance to a triangle (branch and bound through the tree).
#[derive(Clone, Debug)]
pub struct MeshDistance {
    /// Converged unless some tested triangle's GJK did not converge (then the worst status).
    pub status: Status,
    /// Distance from the shape to the solid (0 when they intersect).
    pub distance: f64,
    /// The closest triangle and its GJK result (`None` when the shape is inside the solid).
    pub closest: Option<(usize, Distance<DVec3>)>,
    /// How many triangles ran GJK (the rest were pruned by the tree).
    pub triangles_tested: usize,
    /// Set when the shape lies inside the solid (its centre, world frame).
    pub inside_point: Option<DVec3>,
}

/// See [`MeshDistance`].
pub fn mesh_convex_distance<S: SupportMap<DVec3> + ?Sized>(
    mesh: &TriMesh,
    pose_m: &Pose3,
    shape: &S,
    pose_s: &Pose3,
    opts: &Options,
) -> MeshDistance {
    let pose_ms = pose_m.relative(pose_s);
    let q = support_box(shape, &pose_ms);
    let mut out = MeshDistance {
        status: Status::Converged,
        distance: f64::INFINITY,
        closest: None,
        triangles_tested: 0,
        inside_point: None,
    };
    let c = centre_in_mesh(pose_m, shape, pose_s);
    if mesh.locate(c) != MeshLocation::Outside {
        out.distance = 0.0;
        out.inside_point = Some(pose_m.transform_point(c));
        return out;
    }
    let n = mesh.triangles().len();
    let tri_box = |t: usize| {
        mesh.triangle(t)
            .map(|v| Aabb {
                min: v[0].min(v[1]).min(v[2]),
                max: v[0].max(v[1]).max(v[2]),
            })
            .unwrap_or(q)
    };
    let test = |t: usize, out: &mut MeshDistance| {
        let Some(tri) = triangle(mesh, t) else {
            return;
        };
        let d = gjk::distance(&tri, pose_m, shape, pose_s, opts, None);
        out.triangles_tested += 1;
        out.status = worse(out.status, d.status);
        if d.distance < out.distance || out.closest.is_none() {
            out.distance = d.distance;
            out.closest = Some((t, d));
        }
    };
    // Seed with the triangle whose box is nearest the shape's box.
    let mut seed = Vec::new();
    let mut r = q.half_extents().max_element().max(1e-300);
    while seed.is_empty() && r.is_finite() {
        mesh.tree().query(&q.padded(r), |t| seed.push(t));
        r *= 4.0;
    }
    if let Some(&s) = seed
        .iter()
        .min_by(|&&x, &&y| box_distance(&tri_box(x), &q).total_cmp(&box_distance(&tri_box(y), &q)))
    {
        test(s, &mut out);
    }
    let mut cand = Vec::new();
    mesh.tree().query(&q.padded(out.distance), |t| cand.push(t));
    cand.sort_by(|&x, &y| box_distance(&tri_box(x), &q).total_cmp(&box_distance(&tri_box(y), &q)));
    for t in cand {
        if out.distance <= 0.0 || t >= n {
            break;
        }
        if out.closest.as_ref().is_some_and(|c| c.0 == t) {
            continue;
        }
        if box_distance(&tri_box(t), &q) > out.distance {
            break;
        }
        test(t, &mut out);
    }
    out
}

/// The common point of an intersecting pair, if any (a convenience for callers reporting a
/// contact location).
pub fn common_point(v: &Verdict<DVec3>) -> Option<CommonPoint<DVec3>> {
    match v {
        Verdict::Intersecting(c) => Some(*c),
        _ => None,
    }
}
