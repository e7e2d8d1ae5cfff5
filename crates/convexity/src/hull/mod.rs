//! `ConvexPolyhedron`: the convex hull of a 3D point set as a half-edge mesh with polygonal
//! (merged coplanar) faces, outward plane equations and vertex adjacency, plus support
//! functions that beat a linear scan on large hulls.
//!
//! * Building: [`ConvexPolyhedron::build`] runs quickhull (`quickhull`, Barber, Dobkin and
//!   Huhdanpaa 1996) with a thick-plane tolerance scaled to the data, merges coplanar
//!   triangles into polygons and repairs any concave edge by merging; degenerate input is a
//!   reported [`HullResult`] (flat polygon, segment, point), never a panic.
//! * Lower-dimensional hulls as polytopes: [`ConvexPolyhedron::from_points_any`] gives a flat
//!   set as a two-sided polygon (faces `n` and `−n` sharing every edge), a collinear set as a
//!   segment (two twin half-edges on no face) and a single point as one vertex, so that SAT,
//!   V-Clip and the boundary test walk them like solids; `validate` checks them as such.
//! * Checking: [`ConvexPolyhedron::validate`] (watertight half-edges, Euler's formula, planar
//!   faces, locally convex edges, CCW outward faces, positive volume) and
//!   [`ConvexPolyhedron::contains_points`].
//! * Support: linear scan, hill climbing over the vertex graph ([`hill_climb`]) from any vertex
//!   or from the precomputed start of the direction's cell on a cube map;
//!   [`ConvexPolyhedron::support_index`] picks by size.
//!
//! Build versus depend: the library's only runtime dependency is glam, and the hull is small
//! enough (≈600 lines) to own. Depending on parry or qhull bindings would pull in nalgebra or a
//! C library and would not give us polygonal faces with a validated half-edge structure, nor
//! control of the tolerance. parry's hull is used as an independent oracle in the tests only.
//!
//! Tolerance: the thick-plane half width is `tol = 16 ε Σ_k max_i |p_i[k]|` by default
//! (ε = 2⁻⁵², the sum over the three axes of the largest absolute coordinate; qhull's
//! `DISTround` is `3 ε (Σ max|coord|)` per distance computation, and the factor covers the
//! plane fit and the shift to the bounding-box centre), or the caller's
//! [`HullOptions::tolerance`]. Points within `tol` of a face plane count as on it.
//! [`ConvexPolyhedron::tolerance`] reports the `tol` a hull was built with.
//!
//! Building never refuses a finite full-dimensional input; three stages, each checked:
//! 1. Thick-plane quickhull (`quickhull`; fast, no exact predicates), then merging of
//!    coplanar triangles into polygons and of faces across concave edges. Accepted if it
//!    passes its own check at `4 tol` (structure, Euler, planarity, convexity across every
//!    edge, every vertex against every face when V·F ≤ 4·10⁶, every input point against every
//!    face when n·F ≤ 4·10⁶) and set no point aside. Inside the thick plane its decisions
//!    may go either way; on inputs with points within rounding of hull edges (the "jittered
//!    cylinder": 7 in 100 of the nasty sets, ~10% of a 1000-cylinder sweep) that can leave a
//!    fold of needle faces with meaningless normals, which the check catches.
//! 2. Otherwise the exact hull (`exact`: the same quickhull with every visibility decision
//!    Shewchuk's exact `orient3d` on the input coordinates): a triangulation whose every edge
//!    is exactly convex or flat, whose vertices are input points and which contains every
//!    input point exactly. Its triangles are then merged into faces (`exact::merge_exact`):
//!    each triangle gets an accurate plane (exact coordinate differences, cross product in
//!    double-double, so the normal is right to a few ulps even for a needle); triangles are
//!    taken largest first as seeds, and a seed's face floods across edges to every triangle
//!    whose three vertices are within `t` of the seed's plane. A needle (a vertex within
//!    rounding of the opposite edge) is within `t` of its neighbour's plane and is absorbed
//!    into that face. The face's plane is the seed's normal through the face's highest
//!    vertex. A face whose boundary is not one simple cycle is split back into triangles.
//!    This terminates in O(T): every triangle joins exactly one face, and there are at most
//!    3 split rounds, then all triangles (which always close). The result is checked at
//!    `4 t` for `t = tol, 4 tol, …` ([`MAX_BUILD_ATTEMPTS`] groupings of the same exact mesh;
//!    a caller's tolerance below the default, for which the derivation below does not hold,
//!    is raised to the default after the first try, and `tolerance()` reports it).
//! 3. Otherwise (reached by no input we know of) quickhull with a four times thicker plane
//!    per attempt; and if every attempt fails, `Problem::Invalid` — never an unchecked hull.
//!
//! Why stage 2 is valid (derivation). Let `(n*, d*)` be the true plane of a face's seed
//! triangle with vertex `a`, and `(n, d)` the computed one: `|n − n*| ≤ 3 ε` (double-double
//! cross product, one rounding, normalisation). The exact mesh is convex, so every hull vertex
//! `w` has `n* · (w − a) ≤ 0`; hence `n · w − d ≤ 3 ε |w − a| + 6 ε M ≤ 12 ε M` with
//! `M = Σ_k max_i |p_i[k]|` (`|w − a| ≤ 2 M`; two rounded dot products of size ≤ M):
//! below the default `tol = 16 ε M`. So no vertex — and, being convex combinations of the
//! vertices, no input point — is more than `tol` above any face plane; every face vertex is
//! within `2 t` of its plane (within `t` of the seed's, offset at the highest). What is not
//! proved is the sign of a face's vector area for a face thinner than ≈ ε × its length: such
//! a face is within `t` of a neighbour and merges at the latest at `t = 4 tol`.
//!
//! Guarantee for every solid returned: `validate(4 · tolerance())` holds (it is the check
//! above; its global part runs when V·F ≤ 4·10⁶), and every input point `x` satisfies
//! `n · x − d ≤ 4 · tolerance()` for every face `(n, d)`: checked directly when n·F ≤ 4·10⁶
//! (skipping vertices, and faces whose plane is farther from the vertex centroid than the
//! point: no cost measurable on 2000 ball points), and for a stage-2 hull proved above for
//! any n (the derivation assumes the cross product does not cancel below double-double
//! precision, i.e. no seed triangle thinner than ≈ ε² × its length). Measured
//! (tests/hull.rs): stage 2 is reached by 7 of the 700 nasty sets (the jittered cylinders
//! stage 1 used to fail on), 105 of 1150 jittered cylinders and 608 of 1200 boxes with
//! jittered edge points, and always passes at `t = tol`; stage 3 is never reached; the worst
//! input point is 1.01 `tol` above a face plane.
//!
//! Complexity: building is expected O(n log n) (100 000 points on a sphere: 0.45 s of CPU in
//! release on a quiet machine). Stage 2 alone costs about what stage 1 does on 100 000 sphere
//! points and about twice on 100 000 ball points (tests/hull_timing.rs: 0.73 s and 69 ms
//! against 0.76–0.81 s and 31 ms on a loaded machine). `validate` is O(V + E + F) for the
//! local checks plus O(V F) for a global convexity check when V·F ≤ 4·10⁶; the build's input
//! check is O(n F) at worst, when n·F ≤ 4·10⁶.

pub mod dk;
mod exact;
pub mod hill_climb;
mod quickhull;

pub use crate::math::hull2d::hull2d;

use crate::error::{InputError, Problem, MAX_MAGNITUDE};
use crate::shape::{Points, SupportMap};
use glam::{DVec2, DVec3};

/// Options for [`ConvexPolyhedron::build`].
#[derive(Clone, Debug, Default)]
pub struct HullOptions {
    /// Thick-plane half width; `None` scales it to the data (see the module header).
    pub tolerance: Option<f64>,
}

/// The hull of a point set, whatever its dimension.
// `Solid` is large, but a hull is built once and then moved out of the result: boxing it
// would only add an allocation and a less direct API.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum HullResult {
    /// A full-dimensional polyhedron.
    Solid(ConvexPolyhedron),
    /// All points within the tolerance of a plane: the convex polygon, CCW seen from the side
    /// `normal` points to (`normal · x ≈ offset`), with the input index of each vertex.
    Flat {
        /// Unit normal of the plane (the polygon is CCW seen from the side it points to).
        normal: DVec3,
        /// Plane offset (the mean of `normal · v` over the vertices): every input point lies
        /// within the tolerance of `normal · x = offset`.
        offset: f64,
        /// The polygon's vertices in CCW order: input points, each within the tolerance of the
        /// plane (not projected onto it).
        vertices: Vec<DVec3>,
        /// The input index of each vertex in `vertices`.
        indices: Vec<usize>,
    },
    /// All points within the tolerance of a line: its two extreme input points.
    Segment {
        /// One extreme input point.
        a: DVec3,
        /// The other extreme input point.
        b: DVec3,
    },
    /// All points within the tolerance of one point.
    Point(DVec3),
}

/// What [`ConvexPolyhedron::validate`] or [`ConvexPolyhedron::contains_points`] found wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum HullDefect {
    /// Array sizes or indices are inconsistent (described in words).
    Structure(String),
    /// A half-edge without a proper twin (twin of twin is not itself, or the endpoints do not
    /// match).
    MissingTwin {
        /// Index of the offending half-edge.
        half_edge: usize,
    },
    /// V − E + F ≠ 2.
    Euler {
        /// Vertex count V.
        vertices: usize,
        /// Edge count E.
        edges: usize,
        /// Face count F.
        faces: usize,
    },
    /// A face vertex is farther than the tolerance from the face plane.
    NotPlanar {
        /// Index of the face.
        face: usize,
        /// Index of the vertex off its plane.
        vertex: usize,
        /// Its signed distance to the face plane (positive: outside).
        distance: f64,
    },
    /// A vertex lies above a face plane by more than the tolerance.
    NotConvex {
        /// Index of the face whose plane is violated.
        face: usize,
        /// Index of the vertex above it.
        vertex: usize,
        /// How far above the plane the vertex lies.
        distance: f64,
    },
    /// A face's vertex order is not counter-clockwise about its outward normal.
    Winding {
        /// Index of the mis-wound face.
        face: usize,
    },
    /// The enclosed volume is not positive (normals point inward).
    NonPositiveVolume(f64),
    /// A point lies above a face plane by more than the tolerance.
    PointOutside {
        /// Index of the point in the tested slice.
        point: usize,
        /// Index of the face it lies above.
        face: usize,
        /// How far above the face plane it lies.
        distance: f64,
    },
}

/// One half-edge: it leaves `origin`, bounds `face` (CCW seen from outside), continues with
/// `next` and runs opposite to `twin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfEdge {
    /// Index of the vertex the half-edge leaves.
    pub origin: usize,
    /// Index of the opposite half-edge (same edge, other face).
    pub twin: usize,
    /// Index of the next half-edge around `face` (CCW seen from outside).
    pub next: usize,
    /// Index of the face this half-edge bounds.
    pub face: usize,
}

/// A convex polyhedron with a half-edge mesh. Faces are convex polygons with unit outward
/// normals; vertices are copies of input points.
#[derive(Clone, Debug)]
pub struct ConvexPolyhedron {
    vertices: Vec<DVec3>,
    input_index: Vec<usize>,
    half_edges: Vec<HalfEdge>,
    face_first: Vec<usize>,
    face_normal: Vec<DVec3>,
    face_offset: Vec<f64>,
    vertex_out: Vec<usize>,
    nbr_start: Vec<usize>,
    nbr: Vec<usize>,
    /// The edge to each neighbour in `nbr` (parallel to it).
    nbr_edge: Vec<usize>,
    edge_he: Vec<usize>,
    /// The edge (index into `edge_he`) of every half-edge.
    he_edge: Vec<usize>,
    /// The hill climb's lists and cell map (see [`hill_climb`]).
    climber: hill_climb::Climber,
    /// The SAT's pruning constants (`None` below three dimensions).
    prune: Option<PruneData>,
    /// The vertices as a `Points` for the four-lane linear scan (`None` only for the empty
    /// placeholder that an impossible `cuboid` failure would return).
    scan: Option<Points<DVec3>>,
    tolerance: f64,
    skipped: usize,
    /// 3 for a solid; 2, 1, 0 for the lower-dimensional forms of
    /// [`ConvexPolyhedron::from_points_any`].
    dim: u8,
}

/// Constants of a solid that let the SAT ([`crate::polytope::sat3d`]) skip axes without support
/// calls: a centre `c` (the vertex mean), a ball about it inside every face plane (`r_in`), one
/// holding every vertex (`r_out`), and the smallest cosine between the two face normals of an
/// edge. They bound the separation along any unit axis: `c·n − r_out ≤ min_y n·y ≤ c·n − r_in`
/// (the left side holds for the vertices, the right for the face planes, which a hull's
/// vertices satisfy to within its thick-plane tolerance, far below the touch tolerance the SAT
/// adds as slack). [`ConvexPolyhedron`] computes them once when it is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PruneData {
    /// The vertex mean (local frame).
    pub centre: DVec3,
    /// Distance from the centre to the nearest face plane.
    pub r_in: f64,
    /// Distance from the centre to the farthest vertex.
    pub r_out: f64,
    /// `min n1·n2` over the edges (normals of the two faces of the edge); 1 without edges.
    pub edge_cos_min: f64,
}

impl PruneData {
    /// The constants from a solid's vertices, face planes `(n, d)` (`n·x ≤ d` inside) and the
    /// two face normals of each edge, O(V + F + E). `None` without vertices or faces, or when
    /// the vertex mean lies outside a face plane (a topology the bounds cannot trust).
    pub fn from_parts(
        vertices: impl Iterator<Item = DVec3> + Clone,
        planes: impl Iterator<Item = (DVec3, f64)>,
        edge_normals: impl Iterator<Item = (DVec3, DVec3)>,
    ) -> Option<PruneData> {
        let (sum, n) = vertices
            .clone()
            .fold((DVec3::ZERO, 0usize), |(s, n), v| (s + v, n + 1));
        if n == 0 {
            return None;
        }
        let c = sum / n as f64;
        let r_out = vertices
            .map(|v| (v - c).length_squared())
            .fold(0.0, f64::max)
            .sqrt();
        let r_in = planes
            .map(|(n, d)| d - n.dot(c))
            .fold(f64::INFINITY, f64::min);
        let edge_cos_min = edge_normals.map(|(n1, n2)| n1.dot(n2)).fold(1.0, f64::min);
        let ok = r_in >= 0.0 && r_in.is_finite() && r_out.is_finite() && edge_cos_min.is_finite();
        ok.then_some(PruneData {
            centre: c,
            r_in,
            r_out,
            edge_cos_min,
        })
    }
}

/// The face index of the half-edges of a segment (a wire with no faces).
pub const NO_FACE: usize = usize::MAX;

/// Default thick-plane half width for a point set (see the module header).
pub fn default_tolerance(points: &[DVec3]) -> f64 {
    let mut m = DVec3::ZERO;
    for p in points {
        m = m.max(p.abs());
    }
    16.0 * f64::EPSILON * (m.x + m.y + m.z)
}

impl ConvexPolyhedron {
    /// The hull of a full-dimensional point set. Flat, collinear or single-point input is an
    /// error (`Problem::Invalid` naming the degeneracy); use [`ConvexPolyhedron::build`] to
    /// get those as results.
    pub fn from_points(points: &[DVec3]) -> Result<ConvexPolyhedron, InputError> {
        match Self::build(points, &HullOptions::default())? {
            HullResult::Solid(p) => Ok(p),
            HullResult::Flat { .. } => Err(InputError::new(
                "points",
                Problem::Invalid("the points are flat (coplanar within tolerance)".into()),
            )),
            HullResult::Segment { .. } => Err(InputError::new(
                "points",
                Problem::Invalid("the points are collinear within tolerance".into()),
            )),
            HullResult::Point(_) => Err(InputError::new(
                "points",
                Problem::Invalid("the points coincide within tolerance".into()),
            )),
        }
    }

    /// The hull of any finite point set; degenerate sets are reported as [`HullResult`]
    /// variants. A solid satisfies `validate(4 · tolerance())` and holds every input point
    /// within `4 · tolerance()` of every face plane (see the module header for the stages
    /// and the argument). Errors: empty set, non-finite or out-of-range coordinates (naming
    /// `points[i][k]`), a negative or non-finite tolerance, and `Problem::Invalid` if all
    /// three stages fail their check (no known input does; never an unchecked hull).
    pub fn build(points: &[DVec3], opts: &HullOptions) -> Result<HullResult, InputError> {
        if points.is_empty() {
            return Err(InputError::new("points", Problem::Empty));
        }
        for (i, p) in points.iter().enumerate() {
            if !p.is_finite() || p.abs().max_element() > MAX_MAGNITUDE {
                crate::math::vector::finite_vec(&format!("points[{i}]"), *p)?;
            }
        }
        let tol = match opts.tolerance {
            Some(t) => crate::error::non_negative("opts.tolerance", t)?,
            None => default_tolerance(points),
        };
        let (mut lo, mut hi) = (points[0], points[0]);
        for p in points {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        let center = (lo + hi) * 0.5;
        // Stage 1, the fast path: thick-plane quickhull, accepted when it passes its own
        // check at 4 tol and set no point aside (see the module header).
        let r = Self::build_once(points, center, tol)?;
        let (defect, fast) = match r {
            HullResult::Solid(p) => match p.check_with_input(points, 4.0 * tol) {
                Ok(()) if p.skipped == 0 => return Ok(HullResult::Solid(p)),
                Ok(()) => (None, Some(p)),
                Err(e) => (Some(e), None),
            },
            other => return Ok(other),
        };
        // Stage 2: the exact hull, merged (the module header's guarantee).
        if let Some(p) = Self::build_exact(points, center, tol) {
            return Ok(HullResult::Solid(p));
        }
        if let Some(p) = fast {
            return Ok(HullResult::Solid(p));
        }
        // Stage 3 (not reached on any input we know of): a four times thicker plane per build.
        let mut attempt_tol = tol;
        for _attempt in 1..MAX_BUILD_ATTEMPTS {
            attempt_tol = (4.0 * attempt_tol).max(default_tolerance(points));
            let r = Self::build_once(points, center, attempt_tol)?;
            match r {
                HullResult::Solid(ref p)
                    if p.check_with_input(points, 4.0 * attempt_tol).is_err() => {}
                _ => return Ok(r),
            }
        }
        // Never hand out a hull that failed its own check.
        Err(InputError::new(
            "points",
            Problem::Invalid(format!(
                "the hull failed its own check (exact hull merged within up to \
                 {MAX_BUILD_ATTEMPTS} tolerances, thick plane up to {attempt_tol:e}): \
                 {defect:?}"
            )),
        ))
    }

    /// Stage 2 of [`ConvexPolyhedron::build`] alone (exact hull, merged) with the default
    /// tolerance, so that tests can exercise it on inputs the fast path handles; `None` for
    /// empty, non-finite or lower-dimensional input or if its check fails.
    #[doc(hidden)]
    pub fn build_exact_only(points: &[DVec3]) -> Option<ConvexPolyhedron> {
        if points.is_empty()
            || points
                .iter()
                .any(|p| !p.is_finite() || p.abs().max_element() > MAX_MAGNITUDE)
        {
            return None;
        }
        let (mut lo, mut hi) = (points[0], points[0]);
        for p in points {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        Self::build_exact(points, (lo + hi) * 0.5, default_tolerance(points))
    }

    /// Stage 2 (module header): the exact hull ([`exact`]), its triangles grouped into faces
    /// within `t = tol, 4 tol, …` until it passes its own check at `4 t`.
    fn build_exact(points: &[DVec3], center: DVec3, tol: f64) -> Option<ConvexPolyhedron> {
        let q: Vec<DVec3> = points.iter().map(|p| *p - center).collect();
        let (seeds, _) = quickhull::initial_simplex(&q, tol).ok()?;
        let mesh = exact::exact_hull(points, seeds)?;
        // A caller's tolerance below the rounding floor of the derivation in the module header
        // is tried first, then raised to it.
        let floor = default_tolerance(points);
        let mut t = tol;
        for _ in 0..MAX_BUILD_ATTEMPTS {
            let polys = exact::merge_exact(&mesh, points, t);
            if let Some(p) = Self::from_polygons(points, DVec3::ZERO, &polys, t, 0) {
                if p.check_with_input(points, 4.0 * t).is_ok() {
                    return Some(p);
                }
            }
            t = (4.0 * t).max(floor);
        }
        None
    }

    fn build_once(points: &[DVec3], center: DVec3, tol: f64) -> Result<HullResult, InputError> {
        match quickhull::quickhull(points, center, tol) {
            quickhull::Raw::Point(i) => Ok(HullResult::Point(points[i.min(points.len() - 1)])),
            quickhull::Raw::Segment(a, b) => Ok(HullResult::Segment {
                a: points[a],
                b: points[b],
            }),
            quickhull::Raw::Flat { normal } => Ok(flat(points, center, normal)),
            quickhull::Raw::Solid { mesh, skipped } => {
                let polys = quickhull::merge(&mesh, points, center, tol);
                let poly =
                    Self::from_polygons(points, center, &polys, tol, skipped).or_else(|| {
                        let tris = quickhull::triangles(&mesh, points, center);
                        Self::from_polygons(points, center, &tris, tol, skipped)
                    });
                match poly {
                    Some(p) => Ok(HullResult::Solid(p)),
                    None => Err(InputError::new(
                        "points",
                        Problem::Invalid("hull construction failed to close the mesh".into()),
                    )),
                }
            }
        }
    }

    /// The box `[-half, half]` with 8 vertices and 6 quadrilateral faces (exact planes).
    /// Negative half extents are taken by magnitude.
    pub fn cuboid(half: DVec3) -> ConvexPolyhedron {
        let h = half.abs();
        let vertices: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect();
        // Faces CCW seen from outside.
        let faces: [([usize; 4], DVec3, f64); 6] = [
            ([0, 4, 6, 2], DVec3::NEG_X, h.x),
            ([1, 3, 7, 5], DVec3::X, h.x),
            ([0, 1, 5, 4], DVec3::NEG_Y, h.y),
            ([2, 6, 7, 3], DVec3::Y, h.y),
            ([0, 2, 3, 1], DVec3::NEG_Z, h.z),
            ([4, 5, 7, 6], DVec3::Z, h.z),
        ];
        let polys: Vec<Vec<usize>> = faces.iter().map(|f| f.0.to_vec()).collect();
        let planes: Vec<(DVec3, f64)> = faces.iter().map(|f| (f.1, f.2)).collect();
        let tol = default_tolerance(&vertices);
        // The box is always well formed; `assemble` cannot fail on it.
        Self::assemble(vertices, (0..8).collect(), &polys, planes, tol, 0)
            .unwrap_or_else(unreachable_box)
    }

    fn from_polygons(
        points: &[DVec3],
        center: DVec3,
        polys: &[(Vec<u32>, (DVec3, f64))],
        tol: f64,
        skipped: usize,
    ) -> Option<ConvexPolyhedron> {
        // Renumber the used input indices as vertices 0..V.
        let mut map = vec![usize::MAX; points.len()];
        let mut input_index = Vec::new();
        let mut faces = Vec::with_capacity(polys.len());
        for (p, _) in polys {
            let mut f = Vec::with_capacity(p.len());
            for &i in p {
                let slot = map.get_mut(i as usize)?;
                if *slot == usize::MAX {
                    *slot = input_index.len();
                    input_index.push(i as usize);
                }
                f.push(*slot);
            }
            faces.push(f);
        }
        let vertices: Vec<DVec3> = input_index.iter().map(|&i| points[i]).collect();
        let planes = polys
            .iter()
            .map(|(_, (n, d))| (*n, d + n.dot(center)))
            .collect();
        Self::assemble(vertices, input_index, &faces, planes, tol, skipped)
    }

    /// Builds the half-edge structure from CCW polygons; `None` if a directed edge repeats or
    /// lacks its opposite.
    fn assemble(
        vertices: Vec<DVec3>,
        input_index: Vec<usize>,
        faces: &[Vec<usize>],
        planes: Vec<(DVec3, f64)>,
        tol: f64,
        skipped: usize,
    ) -> Option<ConvexPolyhedron> {
        let nv = vertices.len();
        let mut half_edges = Vec::new();
        let mut face_first = Vec::with_capacity(faces.len());
        for (f, poly) in faces.iter().enumerate() {
            let m = poly.len();
            if m < 3 {
                return None;
            }
            let base = half_edges.len();
            face_first.push(base);
            for (k, &origin) in poly.iter().enumerate() {
                if origin >= nv {
                    return None;
                }
                half_edges.push(HalfEdge {
                    origin,
                    twin: usize::MAX,
                    next: base + (k + 1) % m,
                    face: f,
                });
            }
        }
        // Outgoing half-edges per vertex (CSR); the twin of a → b is the b → a among b's.
        let mut deg = vec![0usize; nv];
        for e in &half_edges {
            deg[e.origin] += 1;
        }
        let mut out_start = Vec::with_capacity(nv + 1);
        let mut acc = 0;
        for d in &deg {
            out_start.push(acc);
            acc += d;
        }
        out_start.push(acc);
        let mut fill = out_start.clone();
        let mut out = vec![0usize; acc];
        for (h, e) in half_edges.iter().enumerate() {
            out[fill[e.origin]] = h;
            fill[e.origin] += 1;
        }
        let dest = |h: usize| half_edges[half_edges[h].next].origin;
        let mut twins = vec![usize::MAX; half_edges.len()];
        for h in 0..half_edges.len() {
            let (a, b) = (half_edges[h].origin, dest(h));
            let mut found = usize::MAX;
            for &g in &out[out_start[b]..out_start[b + 1]] {
                if dest(g) == a {
                    if found != usize::MAX {
                        return None; // a directed edge repeats
                    }
                    found = g;
                }
            }
            if found == usize::MAX || a == b {
                return None;
            }
            twins[h] = found;
        }
        for (e, t) in half_edges.iter_mut().zip(twins) {
            e.twin = t;
        }
        let mut vertex_out = vec![usize::MAX; nv];
        for (h, e) in half_edges.iter().enumerate() {
            vertex_out[e.origin] = h;
        }
        if vertex_out.contains(&usize::MAX) {
            return None;
        }
        let mut nbr_start = Vec::with_capacity(nv + 1);
        let mut acc = 0;
        for d in &deg {
            nbr_start.push(acc);
            acc += d;
        }
        nbr_start.push(acc);
        let mut fill = nbr_start.clone();
        let mut nbr = vec![0usize; acc];
        let mut nbr_he = vec![0usize; acc];
        for (h, e) in half_edges.iter().enumerate() {
            let b = half_edges[e.next].origin;
            nbr[fill[e.origin]] = b;
            nbr_he[fill[e.origin]] = h;
            fill[e.origin] += 1;
        }
        let edge_he: Vec<usize> = (0..half_edges.len())
            .filter(|&h| h < half_edges[h].twin)
            .collect();
        let he_edge = edge_of_half_edge(&half_edges, &edge_he);
        let nbr_edge = nbr_he.iter().map(|&h| he_edge[h]).collect();
        let (face_normal, face_offset) = planes.into_iter().unzip();
        let scan = Some(Points::new(&vertices).ok()?);
        let mut poly = ConvexPolyhedron {
            vertices,
            input_index,
            half_edges,
            face_first,
            face_normal,
            face_offset,
            vertex_out,
            nbr_start,
            nbr,
            nbr_edge,
            edge_he,
            he_edge,
            climber: hill_climb::Climber::default(),
            prune: None,
            scan,
            tolerance: tol,
            skipped,
            dim: 3,
        };
        poly.climber = hill_climb::Climber::new(&poly);
        poly.prune = poly.compute_prune_data();
        Some(poly)
    }

    /// The hull of any non-empty finite point set as a polytope every polyhedron method can
    /// walk: a solid as [`ConvexPolyhedron::from_points`]; a flat set as a two-sided polygon
    /// (two faces with opposite normals sharing every edge: V − E + F = 2 still holds); a
    /// collinear set as a segment (two vertices, two twin half-edges on no face, [`NO_FACE`]);
    /// a single point as one vertex with no edges. [`ConvexPolyhedron::dimension`] tells
    /// them apart. Errors: as [`ConvexPolyhedron::build`] (empty or non-finite input).
    pub fn from_points_any(points: &[DVec3]) -> Result<ConvexPolyhedron, InputError> {
        Ok(match Self::build(points, &HullOptions::default())? {
            HullResult::Solid(p) => p,
            HullResult::Flat {
                normal,
                offset,
                vertices,
                indices,
            } => match vertices.len() {
                0 => Self::point(points[0], 0),
                1 | 2 => Self::segment(
                    vertices[0],
                    vertices[vertices.len() - 1],
                    (indices[0], indices[indices.len() - 1]),
                ),
                _ => Self::two_sided(vertices, indices, normal, offset).ok_or_else(|| {
                    InputError::new(
                        "points",
                        Problem::Invalid("the flat hull's polygon did not close".into()),
                    )
                })?,
            },
            HullResult::Segment { a, b } => {
                let ia = points.iter().position(|p| *p == a).unwrap_or(0);
                let ib = points.iter().position(|p| *p == b).unwrap_or(0);
                Self::segment(a, b, (ia, ib))
            }
            HullResult::Point(p) => {
                Self::point(p, points.iter().position(|q| *q == p).unwrap_or(0))
            }
        })
    }

    /// A flat convex polygon (CCW about `normal`) as a polyhedron with two faces.
    fn two_sided(
        vertices: Vec<DVec3>,
        input_index: Vec<usize>,
        normal: DVec3,
        offset: f64,
    ) -> Option<ConvexPolyhedron> {
        let k = vertices.len();
        let top: Vec<usize> = (0..k).collect();
        let bottom: Vec<usize> = (0..k).rev().collect();
        let tol = default_tolerance(&vertices);
        let planes = vec![(normal, offset), (-normal, -offset)];
        let mut p = Self::assemble(vertices, input_index, &[top, bottom], planes, tol, 0)?;
        p.dim = 2;
        Some(p)
    }

    /// A segment: two vertices joined by two twin half-edges on no face.
    fn segment(a: DVec3, b: DVec3, input: (usize, usize)) -> ConvexPolyhedron {
        let half = |origin, twin| HalfEdge {
            origin,
            twin,
            next: twin,
            face: NO_FACE,
        };
        Self::wire(
            vec![a, b],
            vec![input.0, input.1],
            vec![half(0, 1), half(1, 0)],
            1,
        )
    }

    /// A single point: one vertex, no edges.
    fn point(p: DVec3, input: usize) -> ConvexPolyhedron {
        Self::wire(vec![p], vec![input], Vec::new(), 0)
    }

    fn wire(
        vertices: Vec<DVec3>,
        input_index: Vec<usize>,
        half_edges: Vec<HalfEdge>,
        dim: u8,
    ) -> ConvexPolyhedron {
        let nv = vertices.len();
        let vertex_out = (0..nv)
            .map(|v| {
                half_edges
                    .iter()
                    .position(|e| e.origin == v)
                    .unwrap_or(usize::MAX)
            })
            .collect();
        let (nbr_start, nbr, nbr_edge) = if half_edges.is_empty() {
            (vec![0; nv + 1], Vec::new(), Vec::new())
        } else {
            (vec![0, 1, 2], vec![1, 0], vec![0, 0])
        };
        let tolerance = default_tolerance(&vertices);
        let scan = Points::new(&vertices).ok();
        let mut p = ConvexPolyhedron {
            edge_he: if half_edges.is_empty() {
                vec![]
            } else {
                vec![0]
            },
            he_edge: vec![0; half_edges.len()],
            vertices,
            input_index,
            half_edges,
            face_first: Vec::new(),
            face_normal: Vec::new(),
            face_offset: Vec::new(),
            vertex_out,
            nbr_start,
            nbr,
            nbr_edge,
            climber: hill_climb::Climber::default(),
            prune: None,
            scan,
            tolerance,
            skipped: 0,
            dim,
        };
        p.climber = hill_climb::Climber::new(&p);
        p.prune = p.compute_prune_data();
        p
    }

    /// The dimension of the polytope: 3 for a solid, 2 for a two-sided polygon, 1 for a
    /// segment, 0 for a point.
    pub fn dimension(&self) -> usize {
        usize::from(self.dim)
    }

    /// The vertices (copies of input points).
    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    /// The input index of each vertex (for [`ConvexPolyhedron::cuboid`], 0..8).
    pub fn input_indices(&self) -> &[usize] {
        &self.input_index
    }

    /// Number of hull vertices.
    pub fn num_vertices(&self) -> usize {
        self.vertices.len()
    }

    /// Number of faces (each a convex polygon, not necessarily a triangle).
    pub fn num_faces(&self) -> usize {
        self.face_first.len()
    }

    /// Number of undirected edges (half the number of half-edges).
    pub fn num_edges(&self) -> usize {
        self.edge_he.len()
    }

    /// Number of half-edges (twice the number of edges).
    pub fn num_half_edges(&self) -> usize {
        self.half_edges.len()
    }

    /// The thick-plane tolerance the hull was built with.
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }

    /// Input points dropped during the build because rounding made their visible region
    /// inconsistent (they lie within a few tolerances of the hull). Normally 0.
    pub fn skipped_points(&self) -> usize {
        self.skipped
    }

    /// Unit outward normal `n` and offset `d` of face `f` (`n · x = d` on the face). Out of
    /// range: `(0, 0)`.
    pub fn face_plane(&self, f: usize) -> (DVec3, f64) {
        match (self.face_normal.get(f), self.face_offset.get(f)) {
            (Some(n), Some(d)) => (*n, *d),
            _ => (DVec3::ZERO, 0.0),
        }
    }

    /// The vertex indices of face `f`, counter-clockwise seen from outside (empty if out of
    /// range).
    pub fn face_vertices(&self, f: usize) -> impl Iterator<Item = usize> + '_ {
        self.face_half_edges(f).map(|h| self.half_edges[h].origin)
    }

    /// The half-edges of face `f`, in order.
    pub fn face_half_edges(&self, f: usize) -> impl Iterator<Item = usize> + '_ {
        let first = self.face_first.get(f).copied();
        let cap = self.half_edges.len();
        let mut cur = first;
        let mut count = 0;
        std::iter::from_fn(move || {
            let h = cur?;
            count += 1;
            let nx = self.half_edges.get(h)?.next;
            cur = if Some(nx) == first || count >= cap {
                None
            } else {
                Some(nx)
            };
            Some(h)
        })
    }

    /// First half-edge of face `f`.
    pub fn face_half_edge(&self, f: usize) -> usize {
        self.face_first.get(f).copied().unwrap_or(0)
    }

    /// One half-edge leaving vertex `v`.
    pub fn vertex_half_edge(&self, v: usize) -> usize {
        self.vertex_out.get(v).copied().unwrap_or(0)
    }

    /// Half-edge `h` (out of range: half-edge 0).
    pub fn half_edge(&self, h: usize) -> HalfEdge {
        self.half_edges
            .get(h)
            .or_else(|| self.half_edges.first())
            .copied()
            .unwrap_or(HalfEdge {
                origin: 0,
                twin: 0,
                next: 0,
                face: 0,
            })
    }

    /// The vertices joined to `v` by an edge, and those edges (two parallel slices).
    pub fn vertex_neighbor_edges(&self, v: usize) -> (&[usize], &[usize]) {
        match (self.nbr_start.get(v), self.nbr_start.get(v + 1)) {
            (Some(&a), Some(&b)) => match (self.nbr.get(a..b), self.nbr_edge.get(a..b)) {
                (Some(n), Some(e)) => (n, e),
                _ => (&[], &[]),
            },
            _ => (&[], &[]),
        }
    }

    /// The vertices joined to `v` by an edge.
    pub fn vertex_neighbors(&self, v: usize) -> &[usize] {
        match (self.nbr_start.get(v), self.nbr_start.get(v + 1)) {
            (Some(&a), Some(&b)) => &self.nbr[a..b],
            _ => &[],
        }
    }

    /// Each undirected edge once, as `(origin, destination)` of its lower-numbered half-edge.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.edge_he.iter().map(move |&h| {
            let e = self.half_edges[h];
            (e.origin, self.half_edges[e.next].origin)
        })
    }

    /// The half-edge of edge `e` (same indexing as [`ConvexPolyhedron::edges`]).
    pub fn edge_half_edge(&self, e: usize) -> usize {
        self.edge_he.get(e).copied().unwrap_or(0)
    }

    /// The edge (same indexing as [`ConvexPolyhedron::edges`]) that half-edge `h` belongs to
    /// (out of range: 0).
    pub fn half_edge_edge(&self, h: usize) -> usize {
        self.he_edge.get(h).copied().unwrap_or(0)
    }

    /// The two faces of edge `e`: the face of its half-edge (on whose boundary the edge runs
    /// from `edges()`'s origin to destination) and the face of the twin.
    pub fn edge_faces(&self, e: usize) -> (usize, usize) {
        let h = self.half_edge(self.edge_half_edge(e));
        (h.face, self.half_edge(h.twin).face)
    }

    /// Checks the structure and geometry within `tol`: every half-edge has a proper twin,
    /// every face cycle closes, V − E + F = 2, every face is planar, no vertex of a face is
    /// above the plane of a neighbouring face (local convexity, which on a closed
    /// genus-0 surface with positive volume implies global convexity), faces are wound CCW
    /// about their outward normals and the volume is positive. When V·F ≤ 4·10⁶ the global
    /// condition (every vertex below every face plane) is checked directly as well.
    pub fn validate(&self, tol: f64) -> Result<(), HullDefect> {
        self.check(tol, true)
    }

    fn check(&self, tol: f64, global: bool) -> Result<(), HullDefect> {
        if self.dim <= 1 {
            return self.check_wire();
        }
        self.check_half_edges()?;
        self.check_face_cycles()?;
        self.check_euler()?;
        self.check_face_geometry(tol)?;
        self.check_local_convexity(tol)?;
        if global
            && self.vertices.len().saturating_mul(self.face_first.len()) <= GLOBAL_CHECK_BUDGET
        {
            self.contains_points(&self.vertices, tol)
                .map_err(|e| match e {
                    HullDefect::PointOutside {
                        point,
                        face,
                        distance,
                    } => HullDefect::NotConvex {
                        face,
                        vertex: point,
                        distance,
                    },
                    other => other,
                })?;
        }
        Ok(())
    }

    /// The build's own check: [`ConvexPolyhedron::validate`] at `tol`, and every input point
    /// against every face plane when n·F ≤ 4·10⁶ ([`GLOBAL_CHECK_BUDGET`]).
    ///
    /// Vertices were checked by `validate`, and a point `x` needs no test against a face
    /// whose plane is at least `|x − c|` from the vertex centroid `c`:
    /// `n · x − d = n · (x − c) − (d − n · c) ≤ |x − c| − (d − n · c) ≤ 0`. Faces are
    /// scanned nearest plane first, so the scan stops at the first such face.
    fn check_with_input(&self, points: &[DVec3], tol: f64) -> Result<(), HullDefect> {
        self.check(tol, true)?;
        let nf = self.face_first.len();
        if points.len().saturating_mul(nf) > GLOBAL_CHECK_BUDGET || self.vertices.is_empty() {
            return Ok(());
        }
        let c = self.vertices.iter().sum::<DVec3>() / self.vertices.len() as f64;
        // Faces by the distance `h_f = d_f − n_f · c` of their plane from c, nearest first.
        let mut by_h: Vec<(f64, usize)> = (0..nf)
            .map(|f| (self.face_offset[f] - self.face_normal[f].dot(c), f))
            .collect();
        by_h.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut is_vertex = vec![false; points.len()];
        for &i in &self.input_index {
            if let Some(v) = is_vertex.get_mut(i) {
                *v = true;
            }
        }
        for (i, x) in points.iter().enumerate() {
            if is_vertex[i] {
                continue;
            }
            let rho = (*x - c).length();
            for &(h, f) in &by_h {
                if !(h < rho) {
                    break; // n_f · x − d_f ≤ |x − c| − h_f ≤ 0 for this face and the rest
                }
                let dist = self.face_normal[f].dot(*x) - self.face_offset[f];
                if !(dist <= tol) {
                    return Err(HullDefect::PointOutside {
                        point: i,
                        face: f,
                        distance: dist,
                    });
                }
            }
        }
        Ok(())
    }

    /// A segment or a point: the vertex count matches the dimension, no faces, and the
    /// segment's two half-edges are each other's twin and successor.
    fn check_wire(&self) -> Result<(), HullDefect> {
        let nv = self.vertices.len();
        let ok = match (self.dim, self.half_edges.as_slice()) {
            (0, []) => nv == 1,
            (1, [e, f]) => {
                nv == 2
                    && e.twin == 1
                    && f.twin == 0
                    && e.next == 1
                    && f.next == 0
                    && e.origin != f.origin
                    && e.origin < 2
                    && f.origin < 2
            }
            _ => false,
        };
        if !ok || !self.face_first.is_empty() {
            return Err(HullDefect::Structure(format!(
                "a {}-dimensional wire with {nv} vertices and {} half-edges",
                self.dim,
                self.half_edges.len()
            )));
        }
        Ok(())
    }

    /// Every half-edge is in range, has a proper twin on another face and a successor on its
    /// own face.
    fn check_half_edges(&self) -> Result<(), HullDefect> {
        let nh = self.half_edges.len();
        let nv = self.vertices.len();
        let nf = self.face_first.len();
        if self.face_normal.len() != nf || self.face_offset.len() != nf {
            return Err(HullDefect::Structure("face arrays differ in length".into()));
        }
        for (h, e) in self.half_edges.iter().enumerate() {
            if e.origin >= nv || e.twin >= nh || e.next >= nh || e.face >= nf {
                return Err(HullDefect::Structure(format!("half-edge {h} out of range")));
            }
            let t = self.half_edges[e.twin];
            let dest = self.half_edges[e.next].origin;
            if e.twin == h || t.twin != h || t.origin != dest || t.face == e.face {
                return Err(HullDefect::MissingTwin { half_edge: h });
            }
            if self.half_edges[e.next].face != e.face {
                return Err(HullDefect::Structure(format!(
                    "half-edge {h}: next is on another face"
                )));
            }
        }
        Ok(())
    }

    /// Every face cycle closes with at least three half-edges, every half-edge is on one
    /// cycle, and every vertex has an outgoing half-edge.
    fn check_face_cycles(&self) -> Result<(), HullDefect> {
        let nh = self.half_edges.len();
        let mut seen = vec![false; nh];
        for f in 0..self.face_first.len() {
            let mut count = 0;
            for h in self.face_half_edges(f) {
                if seen[h] || self.half_edges[h].face != f {
                    return Err(HullDefect::Structure(format!("face {f} cycle is broken")));
                }
                seen[h] = true;
                count += 1;
            }
            if count < 3 {
                return Err(HullDefect::Structure(format!("face {f} has {count} edges")));
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(HullDefect::Structure(
                "a half-edge is on no face cycle".into(),
            ));
        }
        for v in 0..self.vertices.len() {
            match self.half_edges.get(self.vertex_out[v]) {
                Some(e) if e.origin == v => {}
                _ => {
                    return Err(HullDefect::Structure(format!(
                        "vertex {v} has no outgoing half-edge"
                    )))
                }
            }
        }
        Ok(())
    }

    /// V − E + F = 2.
    fn check_euler(&self) -> Result<(), HullDefect> {
        let (nh, nv, nf) = (
            self.half_edges.len(),
            self.vertices.len(),
            self.face_first.len(),
        );
        let ne = nh / 2;
        if nh % 2 != 0 || nv + nf != ne + 2 {
            return Err(HullDefect::Euler {
                vertices: nv,
                edges: ne,
                faces: nf,
            });
        }
        Ok(())
    }

    /// Unit normals, planar faces, CCW winding, and (for a solid) positive volume.
    fn check_face_geometry(&self, tol: f64) -> Result<(), HullDefect> {
        let mut volume6 = 0.0;
        let c0 = self.vertices[0];
        for f in 0..self.face_first.len() {
            let (n, d) = (self.face_normal[f], self.face_offset[f]);
            if !((n.length() - 1.0).abs() < 1e-9) || !d.is_finite() {
                return Err(HullDefect::Structure(format!(
                    "face {f} normal is not unit"
                )));
            }
            let mut area = DVec3::ZERO;
            let vs: Vec<usize> = self.face_vertices(f).collect();
            // The vector area about the face's own first vertex (the same vector about any
            // point, since the polygon is closed): its rounding is ε times the face's size
            // squared, not the hull's, so a small face's winding is judged by its own shape.
            let f0 = self.vertices[vs[0]];
            for k in 0..vs.len() {
                let a = self.vertices[vs[k]] - f0;
                let b = self.vertices[vs[(k + 1) % vs.len()]] - f0;
                area += a.cross(b);
                let dist = n.dot(self.vertices[vs[k]]) - d;
                if !(dist.abs() <= tol) {
                    return Err(HullDefect::NotPlanar {
                        face: f,
                        vertex: vs[k],
                        distance: dist,
                    });
                }
            }
            // Twice the vector area; its triple product with c0 gives six times the volume.
            let pa = self.vertices[vs[0]] - c0;
            volume6 += pa.dot(area);
            if !(area.dot(n) > 0.0) {
                return Err(HullDefect::Winding { face: f });
            }
        }
        // A two-sided polygon encloses no volume by construction.
        if self.dim == 3 && !(volume6 > 0.0) {
            return Err(HullDefect::NonPositiveVolume(volume6 / 6.0));
        }
        Ok(())
    }

    /// No vertex of a face lies above the plane of a neighbouring face.
    fn check_local_convexity(&self, tol: f64) -> Result<(), HullDefect> {
        for e in &self.half_edges {
            let (n, d) = (self.face_normal[e.face], self.face_offset[e.face]);
            let other = self.half_edges[e.twin].face;
            for v in self.face_vertices(other) {
                let dist = n.dot(self.vertices[v]) - d;
                if !(dist <= tol) {
                    return Err(HullDefect::NotConvex {
                        face: e.face,
                        vertex: v,
                        distance: dist,
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks that every point satisfies `n · p − d ≤ tol` for every face (O(n F)).
    pub fn contains_points(&self, pts: &[DVec3], tol: f64) -> Result<(), HullDefect> {
        for (i, p) in pts.iter().enumerate() {
            for f in 0..self.face_first.len() {
                let dist = self.face_normal[f].dot(*p) - self.face_offset[f];
                if !(dist <= tol) {
                    return Err(HullDefect::PointOutside {
                        point: i,
                        face: f,
                        distance: dist,
                    });
                }
            }
        }
        Ok(())
    }

    /// Index of a vertex maximising `dir · v`. Up to [`LINEAR_MAX_VERTICES`] vertices this is
    /// a linear scan; above, hill climbing from `hint` (a vertex index from a previous, nearby
    /// query) or, without a hint, the best of the cell map's candidates (see [`hill_climb`]).
    /// The returned value `dir · v` equals the linear scan's maximum (see [`hill_climb`] for
    /// the argument and its floating-point caveat).
    pub fn support_index(&self, dir: DVec3, hint: Option<usize>) -> usize {
        if self.vertices.len() <= LINEAR_MAX_VERTICES {
            return self.support_linear(dir);
        }
        match hint {
            Some(h) if h < self.vertices.len() => self.support_hill_climb(dir, h).0,
            _ => self.support_from_map(dir),
        }
    }

    /// Linear scan over the vertices (four-lane scan of [`Points::support_index`]).
    pub fn support_linear(&self, dir: DVec3) -> usize {
        match &self.scan {
            Some(s) => s.support_index(dir),
            None => 0,
        }
    }

    /// Hill climbing from vertex `start`; returns the vertex and the number of moves.
    pub fn support_hill_climb(&self, dir: DVec3, start: usize) -> (usize, usize) {
        if self.climber.is_empty() {
            return (self.support_linear(dir), 0);
        }
        self.climber.climb(&self.vertices, dir, start)
    }

    /// The SAT's pruning constants, computed once at construction.
    pub(crate) fn cached_prune_data(&self) -> Option<PruneData> {
        self.prune
    }

    fn compute_prune_data(&self) -> Option<PruneData> {
        if self.dim != 3 {
            return None;
        }
        PruneData::from_parts(
            self.vertices.iter().copied(),
            self.face_normal
                .iter()
                .copied()
                .zip(self.face_offset.iter().copied()),
            (0..self.num_edges()).map(|e| {
                let (f1, f2) = self.edge_faces(e);
                (self.face_plane(f1).0, self.face_plane(f2).0)
            }),
        )
    }

    /// The best of the cell map's candidates for `dir` (the vertices whose normal cones meet
    /// `dir`'s cell, see [`hill_climb`]), or a climb from the cell's start vertex when the
    /// cell has too many.
    pub fn support_from_map(&self, dir: DVec3) -> usize {
        if self.climber.is_empty() {
            return self.support_linear(dir);
        }
        self.climber.support_from_map(&self.vertices, dir)
    }
}

/// Up to this many vertices [`ConvexPolyhedron::support_index`] scans linearly. From the
/// `polyhedron_support` benchmark: linear 181 ns vs far-start climbing 224 ns at 32 vertices,
/// 388 ns vs 180 ns at 128; the lines cross near 50.
pub const LINEAR_MAX_VERTICES: usize = 48;

/// Largest V·F (or n·F) for which the build checks every vertex (every input point) against
/// every face plane.
const GLOBAL_CHECK_BUDGET: usize = 4_000_000;

/// Merge tolerances tried on the exact hull (`t = tol, 4 tol, …`) and thick-plane builds
/// tried last by [`ConvexPolyhedron::build`], each four times thicker.
pub const MAX_BUILD_ATTEMPTS: usize = 5;

/// The inverse of `edge_he`: each half-edge and its twin map to their edge.
fn edge_of_half_edge(half_edges: &[HalfEdge], edge_he: &[usize]) -> Vec<usize> {
    let mut out = vec![0; half_edges.len()];
    for (e, &h) in edge_he.iter().enumerate() {
        if let Some(he) = half_edges.get(h) {
            out[h] = e;
            if let Some(slot) = out.get_mut(he.twin) {
                *slot = e;
            }
        }
    }
    out
}

#[cold]
fn unreachable_box() -> ConvexPolyhedron {
    // Only reachable if `assemble` rejected the fixed box topology, which it cannot; return an
    // empty (invalid) polyhedron rather than panic.
    ConvexPolyhedron {
        vertices: Vec::new(),
        input_index: Vec::new(),
        half_edges: Vec::new(),
        face_first: Vec::new(),
        face_normal: Vec::new(),
        face_offset: Vec::new(),
        vertex_out: Vec::new(),
        nbr_start: vec![0],
        nbr: Vec::new(),
        nbr_edge: Vec::new(),
        edge_he: Vec::new(),
        he_edge: Vec::new(),
        climber: hill_climb::Climber::default(),
        prune: None,
        scan: None,
        tolerance: 0.0,
        skipped: 0,
        dim: 3,
    }
}

fn flat(points: &[DVec3], center: DVec3, normal: DVec3) -> HullResult {
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let p2: Vec<DVec2> = points
        .iter()
        .map(|p| {
            let q = *p - center;
            DVec2::new(q.dot(u), q.dot(v))
        })
        .collect();
    let indices = hull2d(&p2);
    let vertices: Vec<DVec3> = indices.iter().map(|&i| points[i]).collect();
    let offset = if vertices.is_empty() {
        normal.dot(center)
    } else {
        vertices.iter().map(|p| normal.dot(*p)).sum::<f64>() / vertices.len() as f64
    };
    HullResult::Flat {
        normal,
        offset,
        vertices,
        indices,
    }
}

impl SupportMap<DVec3> for ConvexPolyhedron {
    #[inline]
    fn core_support(&self, dir: DVec3) -> DVec3 {
        self.vertices
            .get(self.support_index(dir, None))
            .copied()
            .unwrap_or(DVec3::ZERO)
    }
    #[inline(always)]
    fn prefetch_support(&self, dir: DVec3) {
        if self.vertices.len() > LINEAR_MAX_VERTICES {
            self.climber.prefetch(dir);
        }
    }
    fn center(&self) -> DVec3 {
        self.scan.as_ref().map_or(DVec3::ZERO, SupportMap::center)
    }
    fn size(&self) -> f64 {
        self.scan.as_ref().map_or(0.0, SupportMap::size)
    }
    fn bounding_radius(&self) -> f64 {
        self.scan.as_ref().map_or(0.0, SupportMap::bounding_radius)
    }
}
