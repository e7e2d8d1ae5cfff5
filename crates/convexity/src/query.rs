//! Every method behind one interface.
//!
//! [`Method`] is an exhaustive list of the algorithms that answer a pair query; [`run`] runs
//! one on a pair and returns an [`Outcome`] with the common fields (verdict with certificate,
//! distance or depth, witness points, status), or a [`Skip`] saying why the method does not
//! apply to these shapes (a curved shape for a vertex-based method, a 2D pair for a 3D-only
//! method); lower-dimensional hulls (points, segments, flat polygons) are answered by every
//! polytope method, and an internal failure is reported with its cause. The CLI's
//! `--algorithm`/`--all` and the demo are built on this.
//!
//! Methods that need topology (SAT, V-Clip, the boundary test) build the hull of the shape's
//! vertex set on each call; callers that query the same shapes repeatedly should build a
//! [`ConvexPolyhedron`] once and call the module directly.

use crate::gjk;
use crate::gjk::batch::{self, BatchSpace};
use crate::gjk::certificate::{self, Check};
use crate::gjk::chung_wang;
use crate::gjk::epa::{self, EpaSpace};
use crate::hull::{hull2d, ConvexPolyhedron};
use crate::lp;
use crate::lp::fourier_motzkin;
use crate::lp::seidel;
use crate::math::pose::{Pose, Pose3};
use crate::math::vector::Vector;
use crate::nd;
use crate::nd::points::{PointsN, VerdictN};
use crate::polytope::boundary;
use crate::polytope::box_box;
use crate::polytope::sat2d;
use crate::polytope::sat3d;
use crate::polytope::vclip;
use crate::primitives::tri_tri;
use crate::shape::{BoundedHalfspaces, ConvexPolygon, Cuboid, Polytope, SupportMap};
use crate::verdict::Status;
use crate::verdict::Verdict;
use core::fmt;
use glam::{DVec2, DVec3};

/// A pair-query algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// GJK distance (closest points, separating axis or common point).
    Gjk,
    /// GJK boolean test with early exit.
    GjkBoolean,
    /// GJK followed by EPA: signed distance, penetration depth and contact points.
    Epa,
    /// V-Clip closest features (3D polytopes).
    VClip,
    /// Exact vertex/face and edge/face boundary test (3D polytopes).
    Boundary,
    /// Separating-axis test: convex polygons in 2D; boxes (specialised) and convex
    /// polyhedra (Gauss-map pruned edge pairs) in 3D.
    Sat,
    /// Chung–Wang separating-vector iteration (any support maps, 2D and 3D).
    ChungWang,
    /// GJK in any dimension on vertex sets (Wolfe's nearest point on the simplex).
    GjkNd,
    /// Particle-swarm distance on vertex sets (approximate, stochastic, seeded), polished.
    Pso,
    /// Exterior-penalty distance on vertex sets (the baseline for PSO).
    Penalty,
    /// LP feasibility on vertex sets (revised simplex on the exact L1-distance LP), any
    /// dimension.
    Lp,
    /// The textbook LP formulation (dense tableau, Bland's rule), any dimension.
    LpReference,
    /// Exact triangle–triangle test (3D, both shapes triangles).
    TriTri,
    /// Seidel's randomised LP: feasibility of the union of two half-space systems, or the
    /// separating-plane LP for vertex sets (2D and 3D).
    Seidel,
    /// Fourier–Motzkin elimination on the union of two half-space systems (vertex sets are
    /// converted to half-spaces first; 2D and 3D, small systems).
    FourierMotzkin,
}

impl Method {
    /// Every method, in a fixed order (the order the CLI lists them in).
    pub const ALL: &'static [Method] = &[
        Method::Gjk,
        Method::GjkBoolean,
        Method::Epa,
        Method::VClip,
        Method::Boundary,
        Method::Sat,
        Method::ChungWang,
        Method::GjkNd,
        Method::Lp,
        Method::LpReference,
        Method::Pso,
        Method::Penalty,
        Method::TriTri,
        Method::Seidel,
        Method::FourierMotzkin,
    ];

    /// The stable kebab-case name used by the CLI and in JSON output (`"gjk"`,
    /// `"chung-wang"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Method::Gjk => "gjk",
            Method::GjkBoolean => "gjk-boolean",
            Method::Epa => "epa",
            Method::VClip => "vclip",
            Method::Boundary => "boundary",
            Method::Sat => "sat",
            Method::ChungWang => "chung-wang",
            Method::GjkNd => "gjk-nd",
            Method::Pso => "pso",
            Method::Penalty => "penalty",
            Method::Lp => "lp",
            Method::LpReference => "lp-reference",
            Method::TriTri => "tri-tri",
            Method::Seidel => "seidel",
            Method::FourierMotzkin => "fourier-motzkin",
        }
    }

    /// The method with this [`name`](Method::name); `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Whether this method answers pairs of shapes of dimension `dim`.
    pub fn applies_to_dim(&self, dim: usize) -> bool {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::Epa => dim == 2 || dim == 3,
            Method::VClip | Method::Boundary => dim == 3,
            Method::Sat | Method::ChungWang => dim == 2 || dim == 3,
            Method::GjkNd | Method::Pso | Method::Penalty => dim >= 1,
            Method::Lp | Method::LpReference => dim >= 1,
            Method::TriTri => dim == 3,
            Method::Seidel | Method::FourierMotzkin => dim == 2 || dim == 3,
        }
    }

    /// Whether the method needs both shapes to be polytopes (a finite vertex set).
    pub fn needs_vertices(&self) -> bool {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::Epa | Method::ChungWang => false,
            Method::VClip | Method::Boundary | Method::Sat => true,
            Method::GjkNd | Method::Pso | Method::Penalty => true,
            Method::Lp | Method::LpReference | Method::TriTri => true,
            Method::Seidel | Method::FourierMotzkin => true,
        }
    }

    /// Whether the method is approximate (stochastic or penalty-based): its distance carries
    /// no guaranteed accuracy and it is never a default.
    pub fn is_approximate(&self) -> bool {
        matches!(self, Method::Pso | Method::Penalty)
    }

    /// The method's cost in the vertex counts `n` and `m` of the two shapes (or `k` support
    /// calls for support-map methods), as a sentence for messages.
    pub fn complexity(&self) -> &'static str {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::ChungWang => {
                "O(k) support calls (k iterations, capped); O(n + m) per call on vertex sets"
            }
            Method::Epa => "O(k log k) for k polytope faces plus O(k) support calls (capped)",
            Method::VClip => "O(n log n + m log m) hulls, then feature walking (typically O(√n))",
            Method::Boundary => {
                "O(n log n + m log m) hulls, then every vertex-face and edge-face pair: O(n·m)"
            }
            Method::Sat => "O(n log n + m log m) hulls, then edge pairs by a Gauss-map walk",
            Method::GjkNd => "O(k·d·(n + m)) for k iterations in dimension d",
            Method::Pso => "O(g·p·(n + m)) for g generations of p particles, plus polishing",
            Method::Penalty => "O(g·(n + m)) for g descent steps",
            Method::Lp => "O(d(n + m) + d²) per pivot; pivots typically a small multiple of d",
            Method::LpReference => "O(d·(n + m)) per pivot on a dense tableau, O(n + m) pivots",
            Method::TriTri => "O(1)",
            Method::Seidel => "expected O(d!·(n + m)) after the hulls' half-spaces",
            Method::FourierMotzkin => "doubly exponential in d in the worst case (row limit)",
        }
    }

    /// The largest vertex count of either shape the method is run on without `force`
    /// ([`Method::check_size`]), or `None` for no limit. Measured (issue 14): the boundary test
    /// took 577 s on a 100,000-point hull against a box, PSO 66 s on a 100k-point cloud.
    pub fn size_limit(&self) -> Option<usize> {
        match self {
            Method::Boundary => Some(5_000),
            Method::Pso | Method::Penalty => Some(20_000),
            Method::LpReference => Some(5_000),
            Method::Sat => Some(50_000),
            _ => None,
        }
    }

    /// `Err(Skip::TooLarge)` with the reason when a shape has more vertices than
    /// [`Method::size_limit`] (the caller may force the run).
    pub fn check_size(&self, vertices_a: usize, vertices_b: usize) -> Result<(), Skip> {
        match self.size_limit() {
            Some(limit) if vertices_a.max(vertices_b) > limit => Err(Skip::TooLarge(format!(
                "{} costs {}; a shape with {} vertices exceeds its practical limit of {limit} \
                 (force the run to try anyway)",
                self.name(),
                self.complexity(),
                vertices_a.max(vertices_b)
            ))),
            _ => Ok(()),
        }
    }

    /// Whether the method answers n-dimensional vertex sets ([`run_n`]).
    pub fn works_in_n_dimensions(&self) -> bool {
        matches!(
            self,
            Method::GjkNd | Method::Pso | Method::Penalty | Method::Lp | Method::LpReference
        )
    }
}

/// Why a method was not run on a pair.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    /// The method does not work in this dimension.
    Dimension {
        /// The method asked for.
        method: Method,
        /// The shapes' dimension.
        dim: usize,
    },
    /// The method needs vertices and shape `which` ("a" or "b") is curved or custom.
    NotAPolytope {
        /// The method asked for.
        method: Method,
        /// The offending shape: `"a"` or `"b"`.
        which: &'static str,
    },
    /// The method needs a solid polyhedron and shape `which` is flat, a segment or a point.
    /// No method of [`run`] returns it any more (every polytope method answers
    /// lower-dimensional hulls); kept for callers that match on it.
    DegenerateHull {
        /// The method asked for.
        method: Method,
        /// The offending shape: `"a"` or `"b"`.
        which: &'static str,
    },
    /// The method needs two triangles and shape `which` is not one (3 vertices).
    NotATriangle {
        /// The offending shape: `"a"` or `"b"`.
        which: &'static str,
    },
    /// The system is beyond the method's size limit (Fourier–Motzkin), with the reason.
    TooLarge(String),
    /// The two vertex sets have different dimensions.
    MixedDimensions {
        /// Dimension of shape A's vertices.
        a: usize,
        /// Dimension of shape B's vertices.
        b: usize,
    },
    /// A solver rejected input that had already been validated (a bug; never a panic).
    Internal(String),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Dimension { method, dim } => {
                write!(f, "{} does not apply to {dim}-dimensional shapes", method.name())
            }
            Skip::NotAPolytope { method, which } => write!(
                f,
                "{} needs polytopes (vertex sets); shape {which} is curved or custom",
                method.name()
            ),
            Skip::DegenerateHull { method, which } => write!(
                f,
                "{} needs a solid polyhedron; the hull of shape {which} is flat or lower-dimensional",
                method.name()
            ),
            Skip::NotATriangle { which } => {
                write!(f, "tri-tri needs two triangles; shape {which} is not a triangle")
            }
            Skip::TooLarge(why) => write!(f, "too large for this method: {why}"),
            Skip::MixedDimensions { a, b } => {
                write!(f, "shape a is {a}-dimensional but shape b is {b}-dimensional")
            }
            Skip::Internal(e) => write!(f, "internal error (please report): {e}"),
        }
    }
}

impl std::error::Error for Skip {}

/// What a method answered. Points and vectors are in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome<V> {
    /// The method that answered.
    pub method: Method,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The method's own iteration count (GJK iterations, LP pivots, feature updates...).
    pub iterations: u32,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: Verdict<V>,
    /// Distance (0 when intersecting); `None` for a boolean-only method.
    pub distance: Option<f64>,
    /// Penetration depth when intersecting and the method computes one.
    pub penetration_depth: Option<f64>,
    /// Closest point on A (a common point when intersecting; the deepest point with a
    /// penetration); `None` when the method does not compute one.
    pub point_a: Option<V>,
    /// Closest point on B (a common point when intersecting; the deepest point with a
    /// penetration); `None` when the method does not compute one.
    pub point_b: Option<V>,
    /// Unit normal from A toward B (for a penetration: moving B by depth·normal separates).
    pub normal: Option<V>,
    /// The absolute touch tolerance the method used: gaps up to it count as touching.
    pub tolerance: f64,
    /// What the independent checker said about the certificate ([`run`] checks every answer
    /// before returning it; a rejected certificate is withdrawn).
    pub check: Check,
}

impl<V: Vector> Outcome<V> {
    /// A boolean-only outcome.
    fn boolean(
        method: Method,
        status: Status,
        iterations: u32,
        verdict: Verdict<V>,
        tol: f64,
    ) -> Self {
        Outcome {
            method,
            status,
            iterations,
            verdict,
            distance: None,
            penetration_depth: None,
            point_a: None,
            point_b: None,
            normal: None,
            tolerance: tol,
            check: Check::Unchecked,
        }
    }
}

/// The dimensions the query layer answers, with their dimension-specific methods.
pub trait QuerySpace: EpaSpace {
    /// Runs a method that needs topology on posed vertex sets; `boxes` holds each shape's
    /// half extents when it is a box ([`Polytope::box_half_extents`]).
    fn run_polytope(
        method: Method,
        a: &[Self],
        pose_a: &Pose<Self>,
        b: &[Self],
        pose_b: &Pose<Self>,
        boxes: (Option<Self>, Option<Self>),
    ) -> Result<Outcome<Self>, Skip>;
}

impl QuerySpace for DVec3 {
    fn run_polytope(
        method: Method,
        a: &[DVec3],
        pose_a: &Pose3,
        b: &[DVec3],
        pose_b: &Pose3,
        boxes: (Option<DVec3>, Option<DVec3>),
    ) -> Result<Outcome<DVec3>, Skip> {
        // Any hull (solid, two-sided polygon, segment, point); a failure keeps its cause.
        let solid = |v: &[DVec3], which: &str| {
            ConvexPolyhedron::from_points_any(v)
                .map_err(|e| Skip::Internal(format!("hull of shape {which}: {e}")))
        };
        match method {
            Method::VClip => {
                let (pa, pb) = (solid(a, "a")?, solid(b, "b")?);
                let r = vclip::closest_features(
                    &pa,
                    pose_a,
                    &pb,
                    pose_b,
                    &vclip::VClipOptions::default(),
                    None,
                );
                let hit = r.verdict.intersecting() == Some(true);
                Ok(Outcome {
                    method,
                    status: r.status,
                    iterations: r.iterations,
                    verdict: r.verdict,
                    distance: Some(if hit { 0.0 } else { r.distance }),
                    penetration_depth: None,
                    point_a: Some(r.point_a),
                    point_b: Some(r.point_b),
                    normal: (!hit)
                        .then(|| (r.point_b - r.point_a).try_normalize())
                        .flatten(),
                    tolerance: r.tolerance,
                    check: Check::Unchecked,
                })
            }
            Method::TriTri => {
                let tri = |v: &[DVec3], pose: &Pose3, which| match v {
                    [p, q, r] => Ok([
                        pose.transform_point(*p),
                        pose.transform_point(*q),
                        pose.transform_point(*r),
                    ]),
                    _ => Err(Skip::NotATriangle { which }),
                };
                let verdict = tri_tri::tri_tri_verdict(tri(a, pose_a, "a")?, tri(b, pose_b, "b")?);
                let status = if verdict == Verdict::Undetermined {
                    Status::Degenerate
                } else {
                    Status::Converged
                };
                Ok(Outcome::boolean(method, status, 0, verdict, 0.0))
            }
            Method::Sat => {
                let boxed = |h: Option<DVec3>| h.and_then(|h| Cuboid::new(h).ok());
                // The SAT answer and, for shapes not apart, its contact manifold (built by the
                // same run: `sat` and `box_box` drop it).
                let (r, manifold) = match (boxed(boxes.0), boxed(boxes.1)) {
                    (Some(ba), Some(bb)) => box_box::box_box_contact(&ba, pose_a, &bb, pose_b),
                    _ => sat3d::sat_with(
                        &solid(a, "a")?,
                        pose_a,
                        &solid(b, "b")?,
                        pose_b,
                        &mut sat3d::SatContext::new(),
                    ),
                };
                let hit = r.verdict.intersecting() == Some(true);
                // The contact points: the manifold's deepest pair, `point_a − point_b` along the
                // SAT axis by its depth (see `polytope::manifold`), taken only when the
                // manifold's normal is the answer's axis.
                let contact = manifold
                    .filter(|m| hit && m.normal == r.axis)
                    .and_then(|m| m.deepest().copied());
                Ok(Outcome {
                    method,
                    status: r.status,
                    iterations: r.iterations,
                    verdict: r.verdict,
                    distance: None,
                    penetration_depth: hit.then(|| r.depth()),
                    point_a: contact.map(|c| c.point_a),
                    point_b: contact.map(|c| c.point_b),
                    normal: Some(r.axis),
                    tolerance: r.tolerance,
                    check: Check::Unchecked,
                })
            }
            Method::Boundary => {
                let (pa, pb) = (solid(a, "a")?, solid(b, "b")?);
                let r = boundary::intersect(&pa, pose_a, &pb, pose_b);
                Ok(Outcome::boolean(
                    method,
                    r.status,
                    0,
                    r.verdict,
                    r.tolerance,
                ))
            }
            _ => Err(Skip::Dimension { method, dim: 3 }),
        }
    }
}

impl QuerySpace for DVec2 {
    fn run_polytope(
        method: Method,
        a: &[DVec2],
        pose_a: &Pose<DVec2>,
        b: &[DVec2],
        pose_b: &Pose<DVec2>,
        _boxes: (Option<DVec2>, Option<DVec2>),
    ) -> Result<Outcome<DVec2>, Skip> {
        // The convex polygon of a vertex set (segments and points are kept: SAT handles them).
        let polygon = |v: &[DVec2], which| {
            let hull: Vec<DVec2> = hull2d(v)
                .into_iter()
                .filter_map(|i| v.get(i).copied())
                .collect();
            ConvexPolygon::new(&hull)
                .map_err(|e| Skip::Internal(format!("polygon of shape {which}: {e}")))
        };
        match method {
            Method::Sat => {
                let (pa, pb) = (polygon(a, "a")?, polygon(b, "b")?);
                let r = sat2d::sat(&pa, pose_a, &pb, pose_b, None);
                let hit = r.verdict.intersecting() == Some(true);
                let contact = hit
                    .then(|| contact_points_2d(&r, (&pa, pose_a), (&pb, pose_b)))
                    .flatten();
                Ok(Outcome {
                    method,
                    status: Status::Converged,
                    iterations: r.iterations,
                    verdict: r.verdict,
                    distance: None,
                    penetration_depth: hit.then(|| r.depth()),
                    point_a: contact.map(|c| c.0),
                    point_b: contact.map(|c| c.1),
                    normal: Some(r.axis),
                    tolerance: r.tolerance,
                    check: Check::Unchecked,
                })
            }
            _ => Err(Skip::Dimension { method, dim: 2 }),
        }
    }
}

/// The contact points of an overlapping 2D SAT answer (world frame): the deepest vertex of the
/// polygon that does not own the reference edge, and its translate by the depth along the
/// axis onto the reference edge's line, so that `point_a − point_b = depth · axis`. For the
/// minimum-penetration axis that translate lies on the reference edge itself (the origin's
/// nearest boundary point of `A − B` is `depth · axis`, on the facet that edge minus the
/// deepest vertex spans), hence on the other polygon's surface. `None` for an axis that is
/// not an edge normal (points, parallel segments).
fn contact_points_2d(
    r: &sat2d::SatResult,
    (a, pose_a): (&ConvexPolygon, &Pose<DVec2>),
    (b, pose_b): (&ConvexPolygon, &Pose<DVec2>),
) -> Option<(DVec2, DVec2)> {
    let edge = r.reference.filter(|e| !e.along_edge)?;
    let (n, depth) = (r.axis, r.depth());
    // The world point of `shape` (placed by `pose`) farthest along the world direction `u`.
    let extreme = |shape: &ConvexPolygon, pose: &Pose<DVec2>, u: DVec2| {
        pose.transform_point(shape.support(pose.inverse_transform_vector(u)))
    };
    Some(match edge.body {
        sat2d::Body::A => {
            let q = extreme(b, pose_b, -n);
            (q + n * depth, q)
        }
        sat2d::Body::B => {
            let p = extreme(a, pose_a, n);
            (p, p - n * depth)
        }
    })
}

/// Runs `method` on a pair and checks its certificate before returning it
/// ([`certificate::checked`]): a certificate the independent checker rejects is withdrawn (the
/// verdict becomes undetermined, the status degenerate, and [`Outcome::check`] names the failed
/// check). The reported tolerance is the pair's one touch tolerance.
///
/// # Example
///
/// A tetrahedron against a box, by three methods; each answer carries a certificate that was
/// already verified by the independent checker, and they agree.
///
/// ```
/// use convexity::gjk::certificate::Check;
/// use convexity::query::{self, Method};
/// use convexity::{Cuboid, DVec3, Points, Pose3};
///
/// let tetra = Points::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z])?;
/// let cube = Cuboid::new(DVec3::splat(0.5))?;
/// let pose_a = Pose3::IDENTITY;
/// let pose_b = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0))?;
///
/// for m in [Method::Gjk, Method::Sat, Method::VClip] {
///     let o = query::run(m, &tetra, &pose_a, &cube, &pose_b)?;
///     assert_eq!(o.check, Check::Verified, "{}", m.name());
///     assert_eq!(o.verdict.intersecting(), Some(false), "{}", m.name());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<V, A, B>(
    method: Method,
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Result<Outcome<V>, Skip>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let o = run_unchecked(method, a, pose_a, b, pose_b)?;
    Ok(checked(a, pose_a, b, pose_b, o))
}

/// `o` with its certificate checked by the independent checker: a rejected one is withdrawn
/// (status `Degenerate`), and the tolerance is the checker's.
fn checked<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    mut o: Outcome<V>,
) -> Outcome<V>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let (verdict, check, tolerance) = certificate::checked(a, pose_a, b, pose_b, o.verdict);
    if matches!(check, Check::Rejected(_)) {
        o.status = Status::Degenerate;
    }
    o.verdict = verdict;
    o.check = check;
    o.tolerance = tolerance;
    o
}

/// One row of [`run_many`]: shape A at its pose, shape B at its pose (world frame).
pub type Row<'s, V> = (
    &'s <V as BatchSpace>::Shape,
    Pose<V>,
    &'s <V as BatchSpace>::Shape,
    Pose<V>,
);

/// [`run`] on many 2D or 3D pairs of the shape enums ([`crate::Shape3`],
/// [`crate::Shape2`]), one outcome per row in order. `gjk`, `gjk-boolean` and `epa` go through
/// the batch API ([`crate::batch`]: several pairs per SIMD lane set where the shapes allow it,
/// and every core when `parallel`), whose rows answer as the scalar call does on the same poses
/// (the same verdict, numbers within 1e-12 relative); each outcome is then checked as `run`
/// checks its own. Every other method runs row by row through `run`.
///
/// Cost: the batch call's, plus one certificate check per row; O(rows) extra memory.
///
/// ```
/// use convexity::query::{self, Method};
/// use convexity::{Ball, Cuboid, DQuat, DVec3, Pose3, Shape3};
///
/// let ball = Shape3::Sphere(Ball::new(0.5).unwrap());
/// let cube = Shape3::Cuboid(Cuboid::new(DVec3::splat(1.0)).unwrap());
/// let at = |x: f64| Pose3::new(DVec3::new(x, 0.0, 0.0), DQuat::IDENTITY).unwrap();
/// let rows = [(&cube, at(0.0), &ball, at(1.25)), (&cube, at(0.0), &ball, at(3.0))];
/// let out = query::run_many(Method::Gjk, &rows, true);
/// let overlapping = out[0].as_ref().unwrap();
/// assert_eq!(overlapping.verdict.intersecting(), Some(true));
/// let apart = out[1].as_ref().unwrap();
/// assert!((apart.distance.unwrap() - 1.5).abs() < 1e-12);
/// assert_eq!(apart.check, convexity::gjk::certificate::Check::Verified);
/// ```
pub fn run_many<V>(
    method: Method,
    rows: &[Row<'_, V>],
    parallel: bool,
) -> Vec<Result<Outcome<V>, Skip>>
where
    V: QuerySpace + BatchSpace,
    V::Shape: Polytope<V>,
{
    let one_by_one = || {
        rows.iter()
            .map(|(a, pa, b, pb)| run(method, *a, pa, *b, pb))
            .collect()
    };
    if !matches!(method, Method::Gjk | Method::GjkBoolean | Method::Epa)
        || !method.applies_to_dim(V::DIM)
        || rows.is_empty()
    {
        return one_by_one();
    }
    let n = rows.len();
    let table: Vec<&V::Shape> = rows.iter().flat_map(|r| [r.0, r.2]).collect();
    let pairs: Vec<batch::Pair<Pose<V>>> = rows
        .iter()
        .enumerate()
        .map(|(k, r)| batch::Pair {
            a: 2 * k,
            pose_a: r.1,
            b: 2 * k + 1,
            pose_b: r.3,
        })
        .collect();
    let opts = batch::BatchOptions {
        parallel,
        ..batch::BatchOptions::default()
    };
    let mut status = vec![Status::Degenerate; n];
    let mut iterations = vec![0u32; n];
    let mut verdict = vec![Verdict::Undetermined; n];
    let mut error = vec![None; n];
    // The boolean query writes no value, points or normal: those buffers stay empty.
    let m = if method == Method::GjkBoolean { 0 } else { n };
    let (mut value, mut point_a, mut point_b, mut normal) = (
        vec![0.0; m],
        vec![V::ZERO; m],
        vec![V::ZERO; m],
        vec![V::ZERO; m],
    );
    let called = match method {
        Method::Gjk => batch::distance(
            &table,
            &pairs,
            &opts,
            batch::DistanceOut {
                distance: &mut value,
                point_a: &mut point_a,
                point_b: &mut point_b,
                normal: &mut normal,
                status: &mut status,
                iterations: &mut iterations,
                verdict: &mut verdict,
                error: &mut error,
            },
        ),
        Method::GjkBoolean => batch::intersects(
            &table,
            &pairs,
            &opts,
            batch::IntersectOut {
                status: &mut status,
                iterations: &mut iterations,
                verdict: &mut verdict,
                error: &mut error,
            },
        ),
        _ => batch::penetration(
            &table,
            &pairs,
            &opts,
            batch::PenetrationOut {
                depth: &mut value,
                point_a: &mut point_a,
                point_b: &mut point_b,
                normal: &mut normal,
                status: &mut status,
                iterations: &mut iterations,
                verdict: &mut verdict,
                error: &mut error,
            },
        ),
    };
    if called.is_err() {
        // (Only an empty input or output slices of the wrong length are refused: neither
        // happens here; the scalar calls answer regardless.)
        return one_by_one();
    }
    let answer = |k: usize| {
        let (a, pa, b, pb) = &rows[k];
        if error[k].is_some() {
            // A validated pose and an index into the table cannot be refused; answered
            // by the scalar call should that ever change.
            return run(method, *a, pa, *b, pb);
        }
        let o = match method {
            Method::Gjk => gjk_outcome(
                status[k],
                iterations[k],
                verdict[k],
                value[k],
                (point_a[k], point_b[k], normal[k]),
                0.0,
            ),
            Method::GjkBoolean => {
                Outcome::boolean(method, status[k], iterations[k], verdict[k], 0.0)
            }
            _ => epa_outcome(
                status[k],
                iterations[k],
                verdict[k],
                value[k],
                (point_a[k], point_b[k], normal[k]),
                0.0,
            ),
        };
        // The tolerance is the checker's (`checked` sets it).
        Ok(checked(*a, pa, *b, pb, o))
    };
    // The checks cost about as much as the queries: spread over the cores as well.
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        return (0..n).into_par_iter().map(answer).collect();
    }
    (0..n).map(answer).collect()
}

/// The outcome of `gjk` from its distance query's fields.
fn gjk_outcome<V>(
    status: Status,
    iterations: u32,
    verdict: Verdict<V>,
    distance: f64,
    (point_a, point_b, normal): (V, V, V),
    tolerance: f64,
) -> Outcome<V> {
    let hit = verdict.intersecting() == Some(true);
    Outcome {
        method: Method::Gjk,
        status,
        iterations,
        verdict,
        distance: Some(if hit { 0.0 } else { distance }),
        penetration_depth: None,
        point_a: Some(point_a),
        point_b: Some(point_b),
        normal: Some(normal),
        tolerance,
        check: Check::Unchecked,
    }
}

/// The outcome of `epa` from its penetration query's fields.
fn epa_outcome<V>(
    status: Status,
    iterations: u32,
    verdict: Verdict<V>,
    depth: f64,
    (point_a, point_b, normal): (V, V, V),
    tolerance: f64,
) -> Outcome<V> {
    let hit = verdict.intersecting() == Some(true);
    Outcome {
        method: Method::Epa,
        status,
        iterations,
        verdict,
        distance: Some(if hit { 0.0 } else { (-depth).max(0.0) }),
        penetration_depth: if hit { Some(depth.max(0.0)) } else { None },
        point_a: Some(point_a),
        point_b: Some(point_b),
        normal: Some(normal),
        tolerance,
        check: Check::Unchecked,
    }
}

/// Runs `method` on a pair, without the check.
fn run_unchecked<V, A, B>(
    method: Method,
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Result<Outcome<V>, Skip>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    if !method.applies_to_dim(V::DIM) {
        return Err(Skip::Dimension {
            method,
            dim: V::DIM,
        });
    }
    if matches!(method, Method::Seidel | Method::FourierMotzkin) {
        return run_halfspace_method(method, a, pose_a, b, pose_b);
    }
    if method.needs_vertices() {
        let va = a
            .vertex_set()
            .ok_or(Skip::NotAPolytope { method, which: "a" })?;
        let vb = b
            .vertex_set()
            .ok_or(Skip::NotAPolytope { method, which: "b" })?;
        if method.works_in_n_dimensions() {
            let (na, nb) = (world_n(&va, pose_a)?, world_n(&vb, pose_b)?);
            return Ok(from_n(run_n(method, &na, &nb)?));
        }
        let boxes = (a.box_half_extents(), b.box_half_extents());
        return V::run_polytope(method, &va, pose_a, &vb, pose_b, boxes);
    }
    Ok(match method {
        Method::Gjk => {
            let d = gjk::distance(a, pose_a, b, pose_b, &gjk::GjkOptions::default(), None);
            gjk_outcome(
                d.status,
                d.iterations,
                d.verdict,
                d.distance,
                (d.point_a, d.point_b, d.normal),
                d.tolerance,
            )
        }
        Method::GjkBoolean => {
            let r = gjk::intersects(a, pose_a, b, pose_b, &gjk::GjkOptions::default(), None);
            Outcome::boolean(method, r.status, r.iterations, r.verdict, r.tolerance)
        }
        Method::ChungWang => {
            let r = chung_wang::separate(
                a,
                pose_a,
                b,
                pose_b,
                &chung_wang::ChungWangOptions::default(),
                None,
            );
            Outcome::boolean(method, r.status, r.iterations, r.verdict, r.tolerance)
        }
        Method::Epa => {
            let mut ctx = epa::Context::new();
            let p = epa::penetration(a, pose_a, b, pose_b, &epa::Options::default(), &mut ctx);
            epa_outcome(
                p.status,
                p.iterations,
                p.verdict,
                p.depth,
                (p.point_a, p.point_b, p.normal),
                p.tolerance,
            )
        }
        Method::VClip
        | Method::Boundary
        | Method::Sat
        | Method::GjkNd
        | Method::Pso
        | Method::Penalty
        | Method::Lp
        | Method::LpReference
        | Method::TriTri
        | Method::Seidel
        | Method::FourierMotzkin => unreachable_vertex_method(method, V::DIM)?,
    })
}

/// Seidel and Fourier–Motzkin: on two half-space shapes, the feasibility of the union of their
/// systems; otherwise Seidel runs the separating-plane LP on the world vertices and
/// Fourier–Motzkin converts each vertex set to half-spaces first.
fn run_halfspace_method<V, A, B>(
    method: Method,
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Result<Outcome<V>, Skip>
where
    V: QuerySpace,
    A: Polytope<V> + ?Sized,
    B: Polytope<V> + ?Sized,
{
    let internal = |e: crate::InputError| Skip::Internal(e.to_string());
    let vertices =
        |s: &dyn Fn() -> Option<Vec<V>>, which| s().ok_or(Skip::NotAPolytope { method, which });
    // Any hull, lower-dimensional ones as equality rows; a failure keeps its cause.
    let as_h = |v: &[V], which: &str| -> Result<BoundedHalfspaces<V>, Skip> {
        fourier_motzkin::hull_halfspaces(v)
            .map_err(|e| Skip::Internal(format!("half-spaces of shape {which}: {e}")))
    };
    let answer = match (method, a.bounded_halfspaces(), b.bounded_halfspaces()) {
        (Method::Seidel, Some(ha), Some(hb)) => {
            let r = seidel::intersect_pair(
                ha,
                pose_a,
                hb,
                pose_b,
                &crate::math::seidel_lp::SeidelOptions::default(),
            )
            .map_err(internal)?;
            (r.verdict, r.status, r.tolerance)
        }
        (Method::Seidel, _, _) => {
            let va = vertices(&|| a.vertex_set(), "a")?;
            let vb = vertices(&|| b.vertex_set(), "b")?;
            let wa: Vec<V> = va.iter().map(|&p| pose_a.transform_point(p)).collect();
            let wb: Vec<V> = vb.iter().map(|&p| pose_b.transform_point(p)).collect();
            let r = seidel::separating_plane(
                &wa,
                &wb,
                &crate::math::seidel_lp::SeidelOptions::default(),
            )
            .map_err(internal)?;
            (r.verdict, r.status, r.tolerance)
        }
        (_, ha, hb) => {
            let own_a;
            let ha = match ha {
                Some(h) => h,
                None => {
                    own_a = as_h(&vertices(&|| a.vertex_set(), "a")?, "a")?;
                    &own_a
                }
            };
            let own_b;
            let hb = match hb {
                Some(h) => h,
                None => {
                    own_b = as_h(&vertices(&|| b.vertex_set(), "b")?, "b")?;
                    &own_b
                }
            };
            match fourier_motzkin::intersect_pair(
                ha,
                pose_a,
                hb,
                pose_b,
                &fourier_motzkin::FmOptions::default(),
            ) {
                Ok(r) => (r.verdict, r.status, r.tolerance),
                // Rounding defeated every elimination: an honest "no answer".
                Err(fourier_motzkin::FmError::Unverified { .. }) => {
                    (Verdict::Undetermined, Status::Numerical, 0.0)
                }
                Err(e) => return Err(Skip::TooLarge(e.to_string())),
            }
        }
    };
    let (verdict, status, tolerance) = answer;
    Ok(Outcome::boolean(
        method,
        status.general(),
        0,
        verdict,
        tolerance,
    ))
}

/// Vertex methods return above; this keeps the match exhaustive without a panic.
fn unreachable_vertex_method<V>(method: Method, dim: usize) -> Result<Outcome<V>, Skip> {
    Err(Skip::Dimension { method, dim })
}

/// What a method answered on n-dimensional vertex sets.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeN {
    /// The method that answered.
    pub method: Method,
    /// How the run ended: `Converged`, or why it stopped early (see [`Status`]).
    pub status: Status,
    /// The method's own iteration count.
    pub iterations: u32,
    /// The answer with its certificate (separating axis or common point); check it with
    /// [`crate::verify`]. `Undetermined` when nothing could be proved.
    pub verdict: VerdictN,
    /// Distance (0 when intersecting); `None` for a boolean-only method.
    pub distance: Option<f64>,
    /// A point of `conv(A)` closest to B (a common point when intersecting); `None` when the
    /// method does not compute one.
    pub point_a: Option<Vec<f64>>,
    /// A point of `conv(B)` closest to A (a common point when intersecting); `None` when the
    /// method does not compute one.
    pub point_b: Option<Vec<f64>>,
    /// The absolute touch tolerance the method used.
    pub tolerance: f64,
}

/// Runs a vertex-set method on two n-dimensional point sets (`a` and `b` are the world-frame
/// vertices).
pub fn run_n(method: Method, a: &PointsN, b: &PointsN) -> Result<OutcomeN, Skip> {
    if !method.works_in_n_dimensions() && method != Method::Gjk {
        return Err(Skip::Dimension {
            method,
            dim: a.dim(),
        });
    }
    if a.dim() != b.dim() {
        return Err(Skip::MixedDimensions {
            a: a.dim(),
            b: b.dim(),
        });
    }
    // Dimensions match and both sets are validated, so the solvers cannot reject the input;
    // an error here would be a bug, reported as a skip rather than a panic.
    let internal = |e: crate::InputError| Skip::Internal(e.to_string());
    Ok(match method {
        Method::Gjk | Method::GjkNd => {
            let d = nd::distance_n(a, b, &nd::NdOptions::default()).map_err(internal)?;
            let hit = d.intersecting() == Some(true);
            OutcomeN {
                method,
                status: d.status,
                iterations: d.iterations,
                distance: Some(if hit { 0.0 } else { d.distance }),
                point_a: Some(d.point_a),
                point_b: Some(d.point_b),
                tolerance: d.tolerance,
                verdict: d.verdict,
            }
        }
        Method::Pso | Method::Penalty => {
            let r = if method == Method::Pso {
                nd::pso_distance(a, b, &nd::PsoOptions::default())
            } else {
                nd::penalty_distance(a, b, &nd::PenaltyOptions::default())
            }
            .map_err(internal)?;
            let hit = r.verdict.intersecting() == Some(true);
            OutcomeN {
                method,
                status: r.status,
                iterations: r.iterations,
                distance: Some(if hit { 0.0 } else { r.distance }),
                point_a: Some(r.point_a),
                point_b: Some(r.point_b),
                tolerance: r.tolerance,
                verdict: r.verdict,
            }
        }
        Method::Lp => {
            let r = lp::intersect(a, b, &lp::LpOptions::default()).map_err(internal)?;
            lp_outcome(method, r.status, r.iterations, r.verdict, r.tolerance)
        }
        Method::LpReference => {
            let r = lp::intersect_reference(a, b, &lp::LpOptions::default()).map_err(internal)?;
            lp_outcome(method, r.status, r.iterations, r.verdict, r.tolerance)
        }
        _ => {
            return Err(Skip::Dimension {
                method,
                dim: a.dim(),
            })
        }
    })
}

/// A boolean LP answer; a common point found by the LP is also its witness pair.
fn lp_outcome(
    method: Method,
    status: Status,
    iterations: u32,
    verdict: VerdictN,
    tolerance: f64,
) -> OutcomeN {
    OutcomeN {
        method,
        status: status.general(),
        iterations,
        verdict,
        distance: None,
        point_a: None,
        point_b: None,
        tolerance,
    }
}

/// The world-frame vertices as an n-D set.
fn world_n<V: Vector>(v: &[V], pose: &Pose<V>) -> Result<PointsN, Skip> {
    // Vertices of validated shapes under validated poses are finite and non-empty.
    PointsN::posed(v, pose).map_err(|e| Skip::Internal(e.to_string()))
}

/// An n-D outcome of a 2D/3D pair, with vectors typed back.
fn from_n<V: Vector>(o: OutcomeN) -> Outcome<V> {
    let typed = |c: &[f64]| V::from_slice(c);
    let verdict = o.verdict.typed();
    let pa = o.point_a.as_deref().and_then(typed);
    let pb = o.point_b.as_deref().and_then(typed);
    Outcome {
        method: o.method,
        status: o.status,
        iterations: o.iterations,
        verdict,
        distance: o.distance,
        penetration_depth: None,
        point_a: pa,
        point_b: pb,
        normal: match (pa, pb, o.distance) {
            (Some(x), Some(y), Some(d)) if d > 0.0 => (y - x).try_normalize(),
            _ => None,
        },
        tolerance: o.tolerance,
        check: Check::Unchecked,
    }
}
