//! The demo's built-in collection of pairs, generated deterministically from a fixed seed.
//!
//! Every pair carries its *truth*, known by construction:
//! * deep: B is placed so that a convex combination of B's support points lands on a convex
//!   combination of A's, so the shapes share that point (intersecting, distance 0);
//! * touching, near-touching, far: for a random unit `u`, B is placed so that
//!   `support_B(−u) = support_A(u) + g·u`. The hyperplanes `u·x = u·support_A(u)` and
//!   `u·x = u·support_A(u) + g` then separate the shapes and the two support points are `g`
//!   apart, so the distance is exactly `g` (touching: `g = 0`; near-touching: `g` between 0.5
//!   and 2 times the GJK tolerance, where either verdict is correct; far: `g` of the order of
//!   the shapes' size);
//! * analytic: pairs with a closed-form penetration depth (spheres, circles, aligned boxes,
//!   a sphere resting into a box face);
//! * reference: the two tetrahedron pairs with their exact answers.

use crate::rng::Rng;
use convexity::gjk::epa::EpaSpace;
use convexity::{
    gjk, Ball, Capsule, Cone, ConvexPolygon, Cuboid, Cylinder, DQuat, DVec2, DVec3, InputError,
    Points, Pose, Pose2, Pose3, Rot2, Rounded, Segment, Shape2, Shape3, SupportMap, Transformed,
    Triangle,
};

/// How a pair was constructed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    Deep,
    Touching,
    NearTouching,
    Far,
    Analytic,
    Reference,
}

impl Regime {
    pub fn name(&self) -> &'static str {
        match self {
            Regime::Deep => "deep",
            Regime::Touching => "touching",
            Regime::NearTouching => "near-touching",
            Regime::Far => "far",
            Regime::Analytic => "analytic",
            Regime::Reference => "reference",
        }
    }
}

/// What is known about a pair by construction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Truth {
    /// The verdict; `None` inside the tolerance band, where both verdicts are correct.
    pub intersecting: Option<bool>,
    /// The exact distance (0 when intersecting).
    pub distance: Option<f64>,
    /// The exact penetration depth.
    pub depth: Option<f64>,
    /// The exact closest points (A's, B's); equal for a unique touching point.
    pub points: Option<(Vec<f64>, Vec<f64>)>,
}

/// A posed pair in 2D or 3D.
#[derive(Clone, Debug)]
pub enum Geometry {
    D2 {
        a: Shape2,
        pose_a: Pose2,
        b: Shape2,
        pose_b: Pose2,
    },
    D3 {
        a: Shape3,
        pose_a: Pose3,
        b: Shape3,
        pose_b: Pose3,
    },
}

impl Geometry {
    /// `|t_a| + |t_b|`: the size of the coordinates, which bounds their rounding.
    pub fn magnitude(&self) -> f64 {
        match self {
            Geometry::D2 { pose_a, pose_b, .. } => {
                pose_a.translation().length() + pose_b.translation().length()
            }
            Geometry::D3 { pose_a, pose_b, .. } => {
                pose_a.translation().length() + pose_b.translation().length()
            }
        }
    }

    /// `size(A) + size(B)`: the length GJK's tolerances are relative to.
    pub fn scale(&self) -> f64 {
        match self {
            Geometry::D2 { a, b, .. } => a.size() + b.size(),
            Geometry::D3 { a, b, .. } => a.size() + b.size(),
        }
        .max(f64::MIN_POSITIVE)
    }
}

/// One pair of the collection.
#[derive(Clone, Debug)]
pub struct Case {
    pub family: &'static str,
    pub name: String,
    pub regime: Regime,
    pub geometry: Geometry,
    pub truth: Truth,
}

/// Pairs per generated family (a multiple of the four regimes).
pub const PER_FAMILY: usize = 24;
const SEED: u64 = 0x00C0_17E8_1CA5_E5ED;

/// The 3D shape kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K3 {
    Points,
    Sphere,
    Box,
    Capsule,
    Cylinder,
    Cone,
    Segment,
    Triangle,
    Rounded,
    Transformed,
    Degenerate,
}

const K3_ALL: &[K3] = &[
    K3::Points,
    K3::Sphere,
    K3::Box,
    K3::Capsule,
    K3::Cylinder,
    K3::Cone,
    K3::Segment,
    K3::Triangle,
    K3::Rounded,
    K3::Transformed,
    K3::Degenerate,
];

/// The 2D shape kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K2 {
    Points,
    Polygon,
    Circle,
    Box,
    Capsule,
    Segment,
    Rounded,
    Transformed,
    Degenerate,
}

const K2_ALL: &[K2] = &[
    K2::Points,
    K2::Polygon,
    K2::Circle,
    K2::Box,
    K2::Capsule,
    K2::Segment,
    K2::Rounded,
    K2::Transformed,
    K2::Degenerate,
];

fn k3_family(k: K3) -> &'static str {
    match k {
        K3::Points => "points 3D",
        K3::Sphere => "sphere",
        K3::Box => "box 3D",
        K3::Capsule => "capsule 3D",
        K3::Cylinder => "cylinder",
        K3::Cone => "cone",
        K3::Segment => "segment 3D",
        K3::Triangle => "triangle",
        K3::Rounded => "rounded 3D",
        K3::Transformed => "transformed 3D",
        K3::Degenerate => "degenerate 3D",
    }
}

fn k2_family(k: K2) -> &'static str {
    match k {
        K2::Points => "points 2D",
        K2::Polygon => "polygon",
        K2::Circle => "circle",
        K2::Box => "box 2D",
        K2::Capsule => "capsule 2D",
        K2::Segment => "segment 2D",
        K2::Rounded => "rounded 2D",
        K2::Transformed => "transformed 2D",
        K2::Degenerate => "degenerate 2D",
    }
}

/// The degenerate point sets, cycled through by `variant`.
const DEGENERATE: &[&str] = &[
    "single point",
    "two points",
    "collinear",
    "flat",
    "duplicates",
];

fn make3(k: K3, rng: &mut Rng, variant: usize) -> Result<Shape3, InputError> {
    Ok(match k {
        K3::Points => {
            let n = 4 + rng.below(24);
            let s = DVec3::new(
                rng.range(0.3, 1.5),
                rng.range(0.3, 1.5),
                rng.range(0.3, 1.5),
            );
            let pts: Vec<DVec3> = (0..n).map(|_| rng.vec3(1.0) * s).collect();
            Shape3::Points(Points::new(&pts)?)
        }
        K3::Sphere => Shape3::Sphere(Ball::new(rng.range(0.2, 1.5))?),
        K3::Box => Shape3::Cuboid(Cuboid::new(DVec3::new(
            rng.range(0.1, 1.5),
            rng.range(0.1, 1.5),
            rng.range(0.1, 1.5),
        ))?),
        K3::Capsule => Shape3::Capsule(Capsule::new(
            rng.vec3(1.0),
            rng.vec3(1.0),
            rng.range(0.1, 0.8),
        )?),
        K3::Cylinder => Shape3::Cylinder(Cylinder::new(rng.range(0.1, 1.5), rng.range(0.1, 1.2))?),
        K3::Cone => Shape3::Cone(Cone::new(rng.range(0.1, 1.5), rng.range(0.1, 1.2))?),
        K3::Segment => Shape3::Segment(Segment::new(rng.vec3(1.5), rng.vec3(1.5))?),
        K3::Triangle => {
            Shape3::Triangle(Triangle::new(rng.vec3(1.5), rng.vec3(1.5), rng.vec3(1.5))?)
        }
        K3::Rounded => {
            let inner = [
                K3::Box,
                K3::Points,
                K3::Segment,
                K3::Triangle,
                K3::Cylinder,
                K3::Cone,
            ][rng.below(6)];
            let s = make3(inner, rng, variant)?;
            Shape3::Rounded(Box::new(Rounded::new(s, rng.range(0.05, 0.5))?))
        }
        K3::Transformed => {
            let inner = [
                K3::Points,
                K3::Box,
                K3::Cylinder,
                K3::Cone,
                K3::Capsule,
                K3::Rounded,
            ][rng.below(6)];
            let s = make3(inner, rng, variant)?;
            let pose = Pose3::new(rng.vec3(1.0), rng.quat())?;
            Shape3::Transformed(Box::new(Transformed::new(s, pose)))
        }
        K3::Degenerate => {
            let p = rng.vec3(1.0);
            let pts: Vec<DVec3> = match variant % DEGENERATE.len() {
                0 => vec![p],
                1 => vec![p, rng.vec3(1.0)],
                2 => {
                    let d = rng.unit3();
                    (0..6).map(|_| p + d * rng.range(-1.0, 1.0)).collect()
                }
                3 => {
                    let n = rng.unit3();
                    let e1 = n.any_orthonormal_vector();
                    let e2 = n.cross(e1);
                    (0..8)
                        .map(|_| p + e1 * rng.range(-1.0, 1.0) + e2 * rng.range(-1.0, 1.0))
                        .collect()
                }
                _ => {
                    let base: Vec<DVec3> = (0..4).map(|_| rng.vec3(1.0)).collect();
                    (0..12).map(|i| base[(i * 7) % 4]).collect()
                }
            };
            Shape3::Points(Points::new(&pts)?)
        }
    })
}

fn make2(k: K2, rng: &mut Rng, variant: usize) -> Result<Shape2, InputError> {
    Ok(match k {
        K2::Points => {
            let n = 3 + rng.below(20);
            let s = DVec2::new(rng.range(0.3, 1.5), rng.range(0.3, 1.5));
            let pts: Vec<DVec2> = (0..n).map(|_| rng.vec2(1.0) * s).collect();
            Shape2::Points(Points::new(&pts)?)
        }
        K2::Polygon => {
            let n = 3 + rng.below(9);
            let (ax, ay) = (rng.range(0.3, 1.5), rng.range(0.3, 1.5));
            let mut angles: Vec<f64> = (0..n).map(|_| rng.angle()).collect();
            angles.sort_by(f64::total_cmp);
            angles.dedup_by(|x, y| (*x - *y).abs() < 1e-3);
            let c = rng.vec2(0.5);
            let mut pts: Vec<DVec2> = angles
                .iter()
                .map(|t| c + DVec2::new(ax * t.cos(), ay * t.sin()))
                .collect();
            if pts.len() < 3 {
                pts = vec![c, c + DVec2::X, c + DVec2::Y];
            }
            if variant % 2 == 1 {
                pts.reverse(); // clockwise input is accepted too
            }
            Shape2::Polygon(ConvexPolygon::new(&pts)?)
        }
        K2::Circle => Shape2::Circle(Ball::new(rng.range(0.2, 1.5))?),
        K2::Box => Shape2::Rect(Cuboid::new(DVec2::new(
            rng.range(0.1, 1.5),
            rng.range(0.1, 1.5),
        ))?),
        K2::Capsule => Shape2::Capsule(Capsule::new(
            rng.vec2(1.0),
            rng.vec2(1.0),
            rng.range(0.1, 0.8),
        )?),
        K2::Segment => Shape2::Segment(Segment::new(rng.vec2(1.5), rng.vec2(1.5))?),
        K2::Rounded => {
            let inner = [K2::Box, K2::Points, K2::Segment, K2::Polygon][rng.below(4)];
            let s = make2(inner, rng, variant)?;
            Shape2::Rounded(Box::new(Rounded::new(s, rng.range(0.05, 0.5))?))
        }
        K2::Transformed => {
            let inner = [K2::Points, K2::Box, K2::Polygon, K2::Capsule, K2::Rounded][rng.below(5)];
            let s = make2(inner, rng, variant)?;
            let pose = Pose2::from_angle(rng.vec2(1.0).to_array(), rng.angle())?;
            Shape2::Transformed(Box::new(Transformed::new(s, pose)))
        }
        K2::Degenerate => {
            let p = rng.vec2(1.0);
            let pts: Vec<DVec2> = match variant % DEGENERATE.len() {
                0 => vec![p],
                1 => vec![p, rng.vec2(1.0)],
                // 2D has no "flat" case beyond collinear: use collinear for both.
                2 | 3 => {
                    let d = rng.unit2();
                    (0..6).map(|_| p + d * rng.range(-1.0, 1.0)).collect()
                }
                _ => {
                    let base: Vec<DVec2> = (0..3).map(|_| rng.vec2(1.0)).collect();
                    (0..9).map(|i| base[(i * 5) % 3]).collect()
                }
            };
            Shape2::Points(Points::new(&pts)?)
        }
    })
}

/// Dimension-specific pieces of the generic construction.
trait Space: EpaSpace {
    type Shape: SupportMap<Self> + Clone;
    fn random_rotation(rng: &mut Rng) -> Self::Rotation;
    fn random_unit(rng: &mut Rng) -> Self;
    fn random_point(rng: &mut Rng, half: f64) -> Self;
    fn geometry(a: Self::Shape, pose_a: Pose<Self>, b: Self::Shape, pose_b: Pose<Self>)
        -> Geometry;
}

impl Space for DVec3 {
    type Shape = Shape3;
    fn random_rotation(rng: &mut Rng) -> DQuat {
        rng.quat()
    }
    fn random_unit(rng: &mut Rng) -> DVec3 {
        rng.unit3()
    }
    fn random_point(rng: &mut Rng, half: f64) -> DVec3 {
        rng.vec3(half)
    }
    fn geometry(a: Shape3, pose_a: Pose3, b: Shape3, pose_b: Pose3) -> Geometry {
        Geometry::D3 {
            a,
            pose_a,
            b,
            pose_b,
        }
    }
}

impl Space for DVec2 {
    type Shape = Shape2;
    fn random_rotation(rng: &mut Rng) -> Rot2 {
        Rot2::from_angle(rng.angle())
    }
    fn random_unit(rng: &mut Rng) -> DVec2 {
        rng.unit2()
    }
    fn random_point(rng: &mut Rng, half: f64) -> DVec2 {
        rng.vec2(half)
    }
    fn geometry(a: Shape2, pose_a: Pose2, b: Shape2, pose_b: Pose2) -> Geometry {
        Geometry::D2 {
            a,
            pose_a,
            b,
            pose_b,
        }
    }
}

/// The world-frame support point of a posed shape.
fn world_support<V: Space>(s: &V::Shape, pose: &Pose<V>, u: V) -> V {
    pose.transform_point(s.support(pose.inverse_transform_vector(u)))
}

/// A point of the posed shape: the mean of support points in four random directions.
fn inner_point<V: Space>(s: &V::Shape, pose: &Pose<V>, rng: &mut Rng) -> V {
    let mut sum = V::ZERO;
    for _ in 0..4 {
        sum += world_support::<V>(s, pose, V::random_unit(rng));
    }
    sum * 0.25
}

/// Places B (with a random rotation) against A according to `regime`.
fn place<V: Space>(
    a: &V::Shape,
    pose_a: &Pose<V>,
    b: &V::Shape,
    regime: Regime,
    rng: &mut Rng,
) -> Result<(Pose<V>, Truth), InputError> {
    let rotation = Pose::new(V::ZERO, V::random_rotation(rng))?;
    let scale = a.size() + b.size();
    let tol = gjk::Options::default().rel_tolerance * scale.max(f64::MIN_POSITIVE);
    let (pose_b, g, mut intersecting) = if regime == Regime::Deep {
        let p = inner_point::<V>(a, pose_a, rng);
        let q = inner_point::<V>(b, &rotation, rng);
        (Pose::new(p - q, rotation.rotation())?, 0.0, Some(true))
    } else {
        let (g, intersecting) = match regime {
            Regime::Touching => (0.0, Some(true)),
            Regime::NearTouching => (tol * rng.range(0.5, 2.0), None),
            _ => (
                scale.max(0.5) * 10f64.powf(rng.range(-1.0, 1.0)),
                Some(false),
            ),
        };
        let u = V::random_unit(rng);
        let sa = world_support::<V>(a, pose_a, u);
        let sb = world_support::<V>(b, &rotation, -u);
        (
            Pose::new(sa + u * g - sb, rotation.rotation())?,
            g,
            intersecting,
        )
    };
    // The construction is exact up to rounding of the coordinates; when the shapes are so small
    // that GJK's tolerance is below that rounding (two single points), a pair built to share a
    // point may really be apart by an ulp, and either verdict is right.
    let magnitude = pose_a.translation().length() + pose_b.translation().length() + scale;
    if g == 0.0 && tol < 64.0 * f64::EPSILON * magnitude {
        intersecting = None;
    }
    let truth = Truth {
        intersecting,
        distance: Some(g),
        ..Truth::default()
    };
    Ok((pose_b, truth))
}

const REGIMES: [Regime; 4] = [
    Regime::Deep,
    Regime::Touching,
    Regime::NearTouching,
    Regime::Far,
];

fn family<V: Space>(
    family: &'static str,
    rng: &mut Rng,
    mut make_a: impl FnMut(&mut Rng, usize) -> Result<V::Shape, InputError>,
    mut make_b: impl FnMut(&mut Rng, usize) -> Result<(V::Shape, &'static str), InputError>,
    out: &mut Vec<Case>,
) -> Result<(), InputError> {
    for j in 0..PER_FAMILY {
        let regime = REGIMES[j % REGIMES.len()];
        let a = make_a(rng, j / REGIMES.len())?;
        let (b, partner) = make_b(rng, j)?;
        let pose_a = Pose::new(V::random_point(rng, 3.0), V::random_rotation(rng))?;
        let (pose_b, truth) = place::<V>(&a, &pose_a, &b, regime, rng)?;
        out.push(Case {
            family,
            name: format!("{family} #{j} vs {partner} ({})", regime.name()),
            regime,
            geometry: V::geometry(a, pose_a, b, pose_b),
            truth,
        });
    }
    Ok(())
}

fn analytic(out: &mut Vec<Case>, rng: &mut Rng) -> Result<(), InputError> {
    const FAMILY: &str = "analytic depth";
    let mut push = |name: &str, geometry: Geometry, depth: f64| {
        out.push(Case {
            family: FAMILY,
            name: format!("{FAMILY}: {name}"),
            regime: Regime::Analytic,
            geometry,
            truth: Truth {
                intersecting: Some(true),
                distance: Some(0.0),
                depth: Some(depth),
                points: None,
            },
        })
    };
    for _ in 0..4 {
        // Spheres: depth = r_a + r_b − |c_b − c_a|.
        let (ra, rb) = (rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let d = (ra + rb) * rng.range(0.2, 0.95);
        let ca = rng.vec3(3.0);
        let pose_a = Pose3::new(ca, rng.quat())?;
        let pose_b = Pose3::new(ca + rng.unit3() * d, rng.quat())?;
        let g = Geometry::D3 {
            a: Shape3::Sphere(Ball::new(ra)?),
            pose_a,
            b: Shape3::Sphere(Ball::new(rb)?),
            pose_b,
        };
        push("sphere-sphere", g, ra + rb - d);

        // Circles.
        let (ra, rb) = (rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let d = (ra + rb) * rng.range(0.2, 0.95);
        let ca = rng.vec2(3.0);
        let pose_a = Pose2::from_angle(ca.to_array(), rng.angle())?;
        let pose_b = Pose2::from_angle((ca + rng.unit2() * d).to_array(), rng.angle())?;
        let g = Geometry::D2 {
            a: Shape2::Circle(Ball::new(ra)?),
            pose_a,
            b: Shape2::Circle(Ball::new(rb)?),
            pose_b,
        };
        push("circle-circle", g, ra + rb - d);

        // Boxes sharing a rotation: A − B is a box, depth = min_i (h_a + h_b − |δ|)_i.
        let ha = DVec3::new(
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
        );
        let hb = DVec3::new(
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
        );
        let sum = ha + hb;
        let delta = DVec3::new(
            sum.x * rng.range(-0.9, 0.9),
            sum.y * rng.range(-0.9, 0.9),
            sum.z * rng.range(-0.9, 0.9),
        );
        let q = rng.quat();
        let ta = rng.vec3(3.0);
        let g = Geometry::D3 {
            a: Shape3::Cuboid(Cuboid::new(ha)?),
            pose_a: Pose3::new(ta, q)?,
            b: Shape3::Cuboid(Cuboid::new(hb)?),
            pose_b: Pose3::new(ta + q * delta, q)?,
        };
        push("aligned boxes 3D", g, (sum - delta.abs()).min_element());

        // Rectangles sharing an angle.
        let ha = DVec2::new(rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let hb = DVec2::new(rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let sum = ha + hb;
        let delta = DVec2::new(sum.x * rng.range(-0.9, 0.9), sum.y * rng.range(-0.9, 0.9));
        let angle = rng.angle();
        let ta = rng.vec2(3.0);
        let rot = Rot2::from_angle(angle);
        let tb = ta
            + DVec2::new(
                rot.cos * delta.x - rot.sin * delta.y,
                rot.sin * delta.x + rot.cos * delta.y,
            );
        let g = Geometry::D2 {
            a: Shape2::Rect(Cuboid::new(ha)?),
            pose_a: Pose2::from_angle(ta.to_array(), angle)?,
            b: Shape2::Rect(Cuboid::new(hb)?),
            pose_b: Pose2::from_angle(tb.to_array(), angle)?,
        };
        push("aligned boxes 2D", g, (sum - delta.abs()).min_element());

        // A sphere sunk into the top face of a box, its centre above the face: depth = r − s.
        let h = DVec3::new(
            rng.range(0.5, 1.5),
            rng.range(0.5, 1.5),
            rng.range(0.3, 1.5),
        );
        let r = rng.range(0.2, 0.5);
        let s = r * rng.range(0.05, 0.95);
        let local = DVec3::new(
            (h.x - r) * rng.range(-1.0, 1.0),
            (h.y - r) * rng.range(-1.0, 1.0),
            h.z + s,
        );
        let q = rng.quat();
        let ta = rng.vec3(3.0);
        let g = Geometry::D3 {
            a: Shape3::Cuboid(Cuboid::new(h)?),
            pose_a: Pose3::new(ta, q)?,
            b: Shape3::Sphere(Ball::new(r)?),
            pose_b: Pose3::new(ta + q * local, rng.quat())?,
        };
        push("sphere into box face", g, r - s);
    }
    Ok(())
}

/// The two reference tetrahedron pairs and their exact answers.
pub fn reference() -> Result<Vec<Case>, InputError> {
    let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    let a = Points::new(&[v(0., 1., 0.), v(1., 0., 0.), v(0., 0., 1.), v(0., 0., 0.)])?;
    let b1 = Points::new(&[
        v(1., 0., 0.),
        v(2., -2., 0.),
        v(0., -2., 2.),
        v(0., -2., 0.),
    ])?;
    let b2 = Points::new(&[
        v(1., -1., 0.),
        v(2., -2., 0.),
        v(0., -2., 2.),
        v(0., -2., 0.),
    ])?;
    let case = |name: &str, b: Points<DVec3>, truth: Truth| Case {
        family: "reference",
        name: name.to_string(),
        regime: Regime::Reference,
        geometry: Geometry::D3 {
            a: Shape3::Points(a.clone()),
            pose_a: Pose3::IDENTITY,
            b: Shape3::Points(b),
            pose_b: Pose3::IDENTITY,
        },
        truth,
    };
    Ok(vec![
        case(
            "A vs B1: touch at (1, 0, 0)",
            b1,
            Truth {
                intersecting: Some(true),
                distance: Some(0.0),
                depth: Some(0.0),
                points: Some((vec![1., 0., 0.], vec![1., 0., 0.])),
            },
        ),
        case(
            "A vs B2: separated, distance 1",
            b2,
            Truth {
                intersecting: Some(false),
                distance: Some(1.0),
                depth: None,
                points: Some((vec![1., 0., 0.], vec![1., -1., 0.])),
            },
        ),
    ])
}

/// The whole collection, in table order.
pub fn collection() -> Result<Vec<Case>, InputError> {
    let mut rng = Rng::new(SEED);
    let mut out = Vec::new();
    for &k in K3_ALL {
        family::<DVec3>(
            k3_family(k),
            &mut rng,
            |rng, variant| make3(k, rng, variant),
            |rng, j| {
                let p = K3_ALL[(j * 5 + rng.below(K3_ALL.len())) % K3_ALL.len()];
                Ok((make3(p, rng, j)?, k3_family(p)))
            },
            &mut out,
        )?;
    }
    for &k in K2_ALL {
        family::<DVec2>(
            k2_family(k),
            &mut rng,
            |rng, variant| make2(k, rng, variant),
            |rng, j| {
                let p = K2_ALL[(j * 5 + rng.below(K2_ALL.len())) % K2_ALL.len()];
                Ok((make2(p, rng, j)?, k2_family(p)))
            },
            &mut out,
        )?;
    }
    analytic(&mut out, &mut rng)?;
    out.extend(reference()?);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_is_deterministic_and_complete() {
        let a = collection().map(|c| c.iter().map(|c| c.name.clone()).collect::<Vec<_>>());
        let b = collection().map(|c| c.iter().map(|c| c.name.clone()).collect::<Vec<_>>());
        assert!(a.is_ok());
        assert_eq!(a, b);
        let cases = collection().unwrap_or_default();
        for r in [
            Regime::Deep,
            Regime::Touching,
            Regime::NearTouching,
            Regime::Far,
            Regime::Analytic,
            Regime::Reference,
        ] {
            assert!(cases.iter().any(|c| c.regime == r), "{r:?}");
        }
        for f in K3_ALL.iter().map(|k| k3_family(*k)) {
            assert!(cases.iter().any(|c| c.family == f), "{f}");
        }
    }
}
