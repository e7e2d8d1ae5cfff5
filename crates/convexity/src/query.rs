//! Every method behind one interface.
//!
//! [`Method`] is an exhaustive list of the algorithms that answer a pair query; [`run`] runs
//! one on a pair and returns an [`Outcome`] with the common fields (verdict with certificate,
//! distance or depth, witness points, status), or a [`Skip`] saying why the method does not
//! apply to these shapes (a curved shape for a vertex-based method, a 2D pair for a 3D-only
//! method, a flat hull for a method that needs a solid polyhedron). The CLI's
//! `--algorithm`/`--all` and the demo are built on this.
//!
//! Methods that need topology (SAT, V-Clip, the boundary test) build the hull of the shape's
//! vertex set on each call; callers that query the same shapes repeatedly should build a
//! [`ConvexPolyhedron`] once and call the module directly.

use crate::boundary;
use crate::certificate::Verdict;
use crate::epa::{self, EpaSpace};
use crate::gjk::{self, Status};
use crate::polyhedron::ConvexPolyhedron;
use crate::pose::{Pose, Pose3};
use crate::shape::Polytope;
use crate::vclip;
use crate::vector::Vector;
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
}

impl Method {
    pub const ALL: &'static [Method] = &[
        Method::Gjk,
        Method::GjkBoolean,
        Method::Epa,
        Method::VClip,
        Method::Boundary,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Method::Gjk => "gjk",
            Method::GjkBoolean => "gjk-boolean",
            Method::Epa => "epa",
            Method::VClip => "vclip",
            Method::Boundary => "boundary",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Whether this method answers pairs of shapes of dimension `dim`.
    pub fn applies_to_dim(&self, dim: usize) -> bool {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::Epa => dim == 2 || dim == 3,
            Method::VClip | Method::Boundary => dim == 3,
        }
    }

    /// Whether the method needs both shapes to be polytopes (a finite vertex set).
    pub fn needs_vertices(&self) -> bool {
        match self {
            Method::Gjk | Method::GjkBoolean | Method::Epa => false,
            Method::VClip | Method::Boundary => true,
        }
    }
}

/// Why a method was not run on a pair.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    /// The method does not work in this dimension.
    Dimension { method: Method, dim: usize },
    /// The method needs vertices and shape `which` ("a" or "b") is curved or custom.
    NotAPolytope { method: Method, which: &'static str },
    /// The method needs a solid polyhedron and shape `which` is flat, a segment or a point.
    DegenerateHull { method: Method, which: &'static str },
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
        }
    }
}

impl std::error::Error for Skip {}

/// What a method answered. Points and vectors are in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome<V> {
    pub method: Method,
    pub status: Status,
    pub iterations: u32,
    pub verdict: Verdict<V>,
    /// Distance (0 when intersecting); `None` for a boolean-only method.
    pub distance: Option<f64>,
    /// Penetration depth when intersecting and the method computes one.
    pub penetration_depth: Option<f64>,
    pub point_a: Option<V>,
    pub point_b: Option<V>,
    /// Unit normal from A toward B (for a penetration: moving B by depth·normal separates).
    pub normal: Option<V>,
    /// The absolute touch tolerance the method used: gaps up to it count as touching.
    pub tolerance: f64,
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
        }
    }
}

/// The dimensions the query layer answers, with their dimension-specific methods.
pub trait QuerySpace: EpaSpace {
    /// Runs a method that needs topology on world-frame-posed vertex sets.
    fn run_polytope(
        method: Method,
        a: &[Self],
        pose_a: &Pose<Self>,
        b: &[Self],
        pose_b: &Pose<Self>,
    ) -> Result<Outcome<Self>, Skip>;
}

impl QuerySpace for DVec3 {
    fn run_polytope(
        method: Method,
        a: &[DVec3],
        pose_a: &Pose3,
        b: &[DVec3],
        pose_b: &Pose3,
    ) -> Result<Outcome<DVec3>, Skip> {
        let solid = |v: &[DVec3], which| {
            ConvexPolyhedron::from_points(v).map_err(|_| Skip::DegenerateHull { method, which })
        };
        match method {
            Method::VClip => {
                let (pa, pb) = (solid(a, "a")?, solid(b, "b")?);
                let r = vclip::closest_features(
                    &pa,
                    pose_a,
                    &pb,
                    pose_b,
                    &vclip::Options::default(),
                    None,
                );
                let hit = r.verdict.intersecting() == Some(true);
                Ok(Outcome {
                    method,
                    status: r.status,
                    iterations: r.steps,
                    verdict: r.verdict,
                    distance: Some(if hit { 0.0 } else { r.distance }),
                    penetration_depth: None,
                    point_a: Some(r.point_a),
                    point_b: Some(r.point_b),
                    normal: (!hit)
                        .then(|| (r.point_b - r.point_a).try_normalize())
                        .flatten(),
                    tolerance: r.tolerance,
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
        _a: &[DVec2],
        _pose_a: &Pose<DVec2>,
        _b: &[DVec2],
        _pose_b: &Pose<DVec2>,
    ) -> Result<Outcome<DVec2>, Skip> {
        Err(Skip::Dimension { method, dim: 2 })
    }
}

/// Runs `method` on a pair.
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
    if !method.applies_to_dim(V::DIM) {
        return Err(Skip::Dimension {
            method,
            dim: V::DIM,
        });
    }
    if method.needs_vertices() {
        let va = a
            .vertex_set()
            .ok_or(Skip::NotAPolytope { method, which: "a" })?;
        let vb = b
            .vertex_set()
            .ok_or(Skip::NotAPolytope { method, which: "b" })?;
        return V::run_polytope(method, &va, pose_a, &vb, pose_b);
    }
    Ok(match method {
        Method::Gjk => {
            let d = gjk::distance(a, pose_a, b, pose_b, &gjk::Options::default(), None);
            let hit = d.intersecting() == Some(true);
            Outcome {
                method,
                status: d.status,
                iterations: d.iterations,
                verdict: d.verdict,
                distance: Some(if hit { 0.0 } else { d.distance }),
                penetration_depth: None,
                point_a: Some(d.point_a),
                point_b: Some(d.point_b),
                normal: Some(d.normal),
                tolerance: d.tolerance,
            }
        }
        Method::GjkBoolean => {
            let r = gjk::intersects(a, pose_a, b, pose_b, &gjk::Options::default(), None);
            Outcome::boolean(method, r.status, r.iterations, r.verdict, r.tolerance)
        }
        Method::Epa => {
            let mut ctx = epa::Context::new();
            let p = epa::penetration(a, pose_a, b, pose_b, &epa::Options::default(), &mut ctx);
            let hit = p.verdict.intersecting() == Some(true);
            Outcome {
                method,
                status: p.status,
                iterations: p.iterations,
                verdict: p.verdict,
                distance: Some(if hit { 0.0 } else { (-p.depth).max(0.0) }),
                penetration_depth: if hit { Some(p.depth.max(0.0)) } else { None },
                point_a: Some(p.point_a),
                point_b: Some(p.point_b),
                normal: Some(p.normal),
                tolerance: p.tolerance,
            }
        }
        Method::VClip | Method::Boundary => unreachable_vertex_method(method, V::DIM)?,
    })
}

/// Vertex methods return above; this keeps the match exhaustive without a panic.
fn unreachable_vertex_method<V>(method: Method, dim: usize) -> Result<Outcome<V>, Skip> {
    Err(Skip::Dimension { method, dim })
}
