//! Shapes: constructor validation, support-function invariants, wrapper and enum dispatch,
//! the SoA support scan, and GJK on curved shapes against closed-form distances.

use convexity::gjk::{distance, intersects, Options};
use convexity::math::vector::Vector;
use convexity::shape::SupportMap;
use convexity::{
    Ball, Capsule, Cone, ConvexPolygon, Cuboid, Custom, Cylinder, DQuat, DVec2, DVec3, InputError,
    Points, Pose, Pose2, Pose3, Problem, Rot2, Rounded, Segment, Shape2, Shape3, Status,
    Transformed, Triangle,
};
use convexity_testkit::analytic::{
    box_box_axis_aligned, capsule_capsule, point_aabb, point_cone, point_convex_polygon,
    point_cylinder, point_segment, segment_segment, sphere_box, sphere_sphere,
};
use convexity_testkit::gen2::{circle_points, in_unit_disc, random_pose2, unit_vector2};
use convexity_testkit::gen3::{
    in_unit_ball3, random_pose3, random_quat, sphere_points, translation3, unit_vector3,
};
use convexity_testkit::rng::{case_rng, rng, ChaCha8Rng, Rng};
use convexity_testkit::{hull_distance_v, point_hull_distance};

// ---------------------------------------------------------------------------------------------
// Constructor validation
// ---------------------------------------------------------------------------------------------

/// The error names `field`, its Display names the field and shows `value`.
fn expect_err<T: core::fmt::Debug>(
    r: Result<T, InputError>,
    field: &str,
    problem: Problem,
    value: &str,
) {
    let e = r.expect_err("constructor must reject this input");
    assert_eq!(e.field, field, "{e:?}");
    assert_eq!(e.problem, problem, "{e:?}");
    let shown = e.to_string();
    assert!(shown.contains(field), "display {shown:?} must name {field}");
    assert!(shown.contains(value), "display {shown:?} must show {value}");
}

#[test]
fn points_reject_non_finite_and_empty() {
    let v = |x: f64| DVec3::new(0.0, 1.0, x);
    expect_err(
        Points::new(&[DVec3::ZERO, DVec3::ONE, v(f64::INFINITY)]),
        "points[2][2]",
        Problem::NotFinite(f64::INFINITY),
        "inf",
    );
    expect_err(
        Points::new(&[DVec3::new(f64::NEG_INFINITY, 0.0, 0.0)]),
        "points[0][0]",
        Problem::NotFinite(f64::NEG_INFINITY),
        "-inf",
    );
    expect_err(Points::<DVec3>::new(&[]), "points", Problem::Empty, "empty");
    expect_err(
        Points::<DVec2>::new(&[DVec2::new(1e61, 0.0)]),
        "points[0][0]",
        Problem::OutOfRange(1e61),
        "value 1e61 exceeds",
    );
}

#[test]
fn nan_errors_name_the_coordinate() {
    // NotFinite(NaN) compares unequal to itself: check the parts one by one.
    let e = Points::new(&[DVec3::ZERO, DVec3::new(0.0, f64::NAN, 0.0)]).unwrap_err();
    assert_eq!(e.field, "points[1][1]");
    assert!(
        matches!(e.problem, Problem::NotFinite(x) if x.is_nan()),
        "{e:?}"
    );
    assert!(e.to_string().contains("points[1][1]") && e.to_string().contains("NaN"));
    let e = Ball::<DVec3>::new(f64::NAN).unwrap_err();
    assert_eq!(e.field, "radius");
    assert!(
        matches!(e.problem, Problem::NotFinite(x) if x.is_nan()),
        "{e:?}"
    );
    assert!(e.to_string().contains("radius") && e.to_string().contains("NaN"));
    let e = Pose3::from_parts([0.0, 0.0, 0.0], [0.0, f64::NAN, 0.0, 1.0]).unwrap_err();
    assert_eq!(e.field, "rotation[1]");
    let e = Pose3::from_translation(DVec3::new(0.0, 0.0, f64::NAN)).unwrap_err();
    assert_eq!(e.field, "translation[2]");
    let e = Segment::new(DVec3::ZERO, DVec3::new(f64::NAN, 0.0, 0.0)).unwrap_err();
    assert_eq!(e.field, "b[0]");
    let e = Triangle::new(DVec3::ZERO, DVec3::X, DVec3::new(0.0, f64::NAN, 0.0)).unwrap_err();
    assert_eq!(e.field, "c[1]");
}

#[test]
fn points_from_rows_reject_mixed_dimensions() {
    let rows: Vec<Vec<f64>> = vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0]];
    expect_err(
        Points::<DVec3>::from_rows(&rows),
        "points[1]",
        Problem::DimensionMismatch {
            expected: 3,
            found: 2,
        },
        "expected 3 coordinates, found 2",
    );
    let rows: Vec<Vec<f64>> = vec![vec![1.0, 2.0], vec![4.0, 5.0, 6.0]];
    expect_err(
        Points::<DVec2>::from_rows(&rows),
        "points[1]",
        Problem::DimensionMismatch {
            expected: 2,
            found: 3,
        },
        "found 3",
    );
    let rows: Vec<Vec<f64>> = vec![vec![1.0, 2.0, 3.0], vec![4.0, f64::INFINITY, 6.0]];
    expect_err(
        Points::<DVec3>::from_rows(&rows),
        "points[1][1]",
        Problem::NotFinite(f64::INFINITY),
        "inf",
    );
    assert!(Points::<DVec3>::from_rows(&[[1.0, 2.0, 3.0]]).is_ok());
}

#[test]
fn radii_and_extents_reject_negative_and_nan() {
    expect_err(
        Ball::<DVec3>::new(-1.5),
        "radius",
        Problem::Negative(-1.5),
        "-1.5",
    );
    expect_err(
        Ball::<DVec2>::new(f64::INFINITY),
        "radius",
        Problem::NotFinite(f64::INFINITY),
        "inf",
    );
    expect_err(
        Capsule::new(DVec3::ZERO, DVec3::X, -0.25),
        "radius",
        Problem::Negative(-0.25),
        "-0.25",
    );
    expect_err(
        Cylinder::new(-2.0, 1.0),
        "half_height",
        Problem::Negative(-2.0),
        "-2",
    );
    expect_err(
        Cylinder::new(1.0, -3.0),
        "radius",
        Problem::Negative(-3.0),
        "-3",
    );
    expect_err(
        Cone::new(1.0, -0.5),
        "radius",
        Problem::Negative(-0.5),
        "-0.5",
    );
    expect_err(
        Cone::new(f64::NEG_INFINITY, 1.0),
        "half_height",
        Problem::NotFinite(f64::NEG_INFINITY),
        "-inf",
    );
    expect_err(
        Cuboid::new(DVec3::new(1.0, -0.125, 1.0)),
        "half_extents[1]",
        Problem::Negative(-0.125),
        "-0.125",
    );
    expect_err(
        Cuboid::new(DVec2::new(f64::INFINITY, 1.0)),
        "half_extents[0]",
        Problem::NotFinite(f64::INFINITY),
        "inf",
    );
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    expect_err(
        Rounded::new(cube, -1e-3),
        "radius",
        Problem::Negative(-1e-3),
        "-0.001",
    );
    expect_err(
        Custom::new(|d: DVec3| d, DVec3::ZERO, -1.0),
        "size",
        Problem::Negative(-1.0),
        "-1",
    );
    let e = Custom::new(|_d: DVec3| DVec3::splat(f64::NAN), DVec3::ZERO, 1.0).unwrap_err();
    assert_eq!(e.field, "support");
    assert!(e.to_string().starts_with("support"));
    // Zero radii and extents are valid (points, flat boxes).
    assert!(Ball::<DVec3>::new(0.0).is_ok() && Cuboid::new(DVec3::new(1.0, 0.0, 1.0)).is_ok());
}

#[test]
fn poses_reject_non_unit_rotations() {
    let e = Pose3::new(DVec3::ZERO, DQuat::from_xyzw(0.0, 0.0, 0.0, 2.0)).unwrap_err();
    assert_eq!(e.field, "rotation");
    assert!(
        matches!(e.problem, Problem::NotUnit(n) if (n - 2.0).abs() < 1e-12),
        "{e:?}"
    );
    let shown = e.to_string();
    assert!(shown.contains("rotation") && shown.contains('2'), "{shown}");
    let e = Pose3::from_parts([0.0; 3], [0.5, 0.5, 0.5, 0.4]).unwrap_err();
    assert_eq!(e.field, "rotation");
    let e = Pose2::new(DVec2::ZERO, Rot2 { cos: 1.0, sin: 0.5 }).unwrap_err();
    assert_eq!(e.field, "rotation");
    // Within 1e-6 of unit is accepted and renormalised.
    let p = Pose3::new(DVec3::ZERO, DQuat::from_xyzw(0.0, 0.0, 0.0, 1.0 + 1e-8)).unwrap();
    assert!((p.rotation().length() - 1.0).abs() < 1e-15);
}

#[test]
fn non_convex_polygons_are_rejected() {
    // A reflex vertex at index 2.
    let dart = [
        DVec2::new(0.0, 0.0),
        DVec2::new(2.0, 0.0),
        DVec2::new(1.0, 0.5),
        DVec2::new(2.0, 2.0),
        DVec2::new(0.0, 2.0),
    ];
    let e = ConvexPolygon::new(&dart).unwrap_err();
    assert_eq!(e.field, "points");
    assert!(matches!(e.problem, Problem::NotConvex(_)), "{e:?}");
    let shown = e.to_string();
    assert!(
        shown.contains("points") && shown.contains("not convex"),
        "{shown}"
    );
    // A pentagram: every turn has the same sign, but it winds twice.
    let star: Vec<DVec2> = (0..5)
        .map(|k| {
            let a = std::f64::consts::TAU * (2 * k) as f64 / 5.0;
            DVec2::new(a.cos(), a.sin())
        })
        .collect();
    let e = ConvexPolygon::new(&star).unwrap_err();
    assert_eq!(e.field, "points", "{e:?}");
    // Either winding of a convex polygon is accepted and stored counter-clockwise.
    let mut sq = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(1.0, 0.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(0.0, 1.0),
    ];
    assert!(ConvexPolygon::new(&sq).is_ok());
    sq.reverse();
    let p = ConvexPolygon::new(&sq).unwrap();
    let v = p.vertices();
    let area2: f64 = (0..v.len())
        .map(|i| v[i].perp_dot(v[(i + 1) % v.len()]))
        .sum();
    assert!(area2 > 0.0);
    expect_err(ConvexPolygon::new(&[]), "points", Problem::Empty, "empty");
}

// ---------------------------------------------------------------------------------------------
// Support-function invariants
// ---------------------------------------------------------------------------------------------

/// A shape with a sampler of its points (local frame).
struct Sampled<V: Vector> {
    name: &'static str,
    shape: Box<dyn SupportMap<V>>,
    sample: Box<dyn Fn(&mut ChaCha8Rng) -> V>,
    /// Distance from a point to the shape, when there is a closed form (membership check).
    dist: Option<Box<dyn Fn(V) -> f64>>,
}

fn in_box(r: &mut ChaCha8Rng, h: DVec3) -> DVec3 {
    DVec3::new(
        r.gen_range(-1.0..=1.0) * h.x,
        r.gen_range(-1.0..=1.0) * h.y,
        r.gen_range(-1.0..=1.0) * h.z,
    )
}

fn convex_combination<V: Vector>(r: &mut ChaCha8Rng, pts: &[V]) -> V {
    let k = r.gen_range(1..=4);
    let idx: Vec<usize> = (0..k).map(|_| r.gen_range(0..pts.len())).collect();
    let w: Vec<f64> = (0..k).map(|_| r.gen::<f64>() + 1e-3).collect();
    let s: f64 = w.iter().sum();
    let mut x = V::ZERO;
    for (i, wi) in idx.iter().zip(&w) {
        x += pts[*i] * (wi / s);
    }
    x
}

fn shapes3(seed: u64) -> Vec<Sampled<DVec3>> {
    let mut r = rng(seed);
    let rad = r.gen_range(0.1..2.0);
    let h = DVec3::new(
        r.gen_range(0.1..2.0),
        r.gen_range(0.0..2.0),
        r.gen_range(0.1..2.0),
    );
    let (sa, sb) = (unit_vector3(&mut r), unit_vector3(&mut r) * 2.0);
    let (hh, cr) = (r.gen_range(0.1..2.0), r.gen_range(0.1..2.0));
    let tri = [
        unit_vector3(&mut r),
        unit_vector3(&mut r),
        unit_vector3(&mut r) * 1.5,
    ];
    let n = r.gen_range(1..30);
    let pts = sphere_points(&mut r, n, 1.3);
    let pose = random_pose3(&mut r, 3.0);
    let radii = DVec3::new(
        r.gen_range(0.2..2.0),
        r.gen_range(0.2..2.0),
        r.gen_range(0.2..2.0),
    );
    let pts2 = pts.clone();
    let pts3 = pts.clone();
    vec![
        Sampled {
            name: "ball",
            shape: Box::new(Ball::<DVec3>::new(rad).unwrap()),
            sample: Box::new(move |r| in_unit_ball3(r) * rad),
            dist: Some(Box::new(move |x| (x.length() - rad).max(0.0))),
        },
        Sampled {
            name: "cuboid",
            shape: Box::new(Cuboid::new(h).unwrap()),
            sample: Box::new(move |r| in_box(r, h)),
            dist: Some(Box::new(move |x| point_aabb(x, h).0)),
        },
        Sampled {
            name: "segment",
            shape: Box::new(Segment::new(sa, sb).unwrap()),
            sample: Box::new(move |r| sa + (sb - sa) * r.gen::<f64>()),
            dist: Some(Box::new(move |x| point_segment(x, sa, sb).0)),
        },
        Sampled {
            name: "capsule",
            shape: Box::new(Capsule::new(sa, sb, rad).unwrap()),
            sample: Box::new(move |r| sa + (sb - sa) * r.gen::<f64>() + in_unit_ball3(r) * rad),
            dist: Some(Box::new(move |x| {
                (point_segment(x, sa, sb).0 - rad).max(0.0)
            })),
        },
        Sampled {
            name: "triangle",
            shape: Box::new(Triangle::new(tri[0], tri[1], tri[2]).unwrap()),
            sample: Box::new(move |r| convex_combination(r, &tri)),
            dist: None,
        },
        Sampled {
            name: "cylinder",
            shape: Box::new(Cylinder::new(hh, cr).unwrap()),
            sample: Box::new(move |r| {
                let d = in_unit_disc(r) * cr;
                DVec3::new(d.x, d.y, r.gen_range(-hh..=hh))
            }),
            dist: Some(Box::new(move |x| point_cylinder(x, hh, cr))),
        },
        Sampled {
            name: "cone",
            shape: Box::new(Cone::new(hh, cr).unwrap()),
            sample: Box::new(move |r| {
                let z = r.gen_range(-hh..=hh);
                let d = in_unit_disc(r) * (cr * (hh - z) / (2.0 * hh));
                DVec3::new(d.x, d.y, z)
            }),
            dist: Some(Box::new(move |x| point_cone(x, hh, cr))),
        },
        Sampled {
            name: "points",
            shape: Box::new(Points::new(&pts).unwrap()),
            sample: Box::new(move |r| convex_combination(r, &pts2)),
            dist: Some(Box::new(move |x| {
                point_hull_distance(x, &pts3).unwrap().distance
            })),
        },
        Sampled {
            name: "rounded cuboid",
            shape: Box::new(Rounded::new(Cuboid::new(h).unwrap(), rad).unwrap()),
            sample: Box::new(move |r| in_box(r, h) + in_unit_ball3(r) * rad),
            dist: Some(Box::new(move |x| (point_aabb(x, h).0 - rad).max(0.0))),
        },
        Sampled {
            name: "transformed cylinder",
            shape: Box::new(Transformed::new(Cylinder::new(hh, cr).unwrap(), pose)),
            sample: Box::new(move |r| {
                let d = in_unit_disc(r) * cr;
                pose.transform_point(DVec3::new(d.x, d.y, r.gen_range(-hh..=hh)))
            }),
            dist: Some(Box::new(move |x| {
                point_cylinder(pose.inverse_transform_point(x), hh, cr)
            })),
        },
        Sampled {
            name: "custom ellipsoid",
            shape: Box::new(
                Custom::new(
                    move |d: DVec3| {
                        let rd = d * radii * radii;
                        let n = (d * radii).length();
                        if n > 0.0 {
                            rd / n
                        } else {
                            DVec3::ZERO
                        }
                    },
                    DVec3::ZERO,
                    radii.max_element(),
                )
                .unwrap(),
            ),
            sample: Box::new(move |r| in_unit_ball3(r) * radii),
            dist: None,
        },
    ]
}

fn check_support_invariants<V: Vector>(s: &Sampled<V>, r: &mut ChaCha8Rng, dirs: &[V]) {
    let samples: Vec<V> = (0..200).map(|_| (s.sample)(r)).collect();
    let size = s.shape.size().max(1e-300);
    for d in dirs {
        let p = s.shape.support(*d);
        assert!(p.is_finite(), "{}: support({d:?}) = {p:?}", s.name);
        // Maximality over sampled points.
        let h = p.dot(*d);
        for x in &samples {
            assert!(
                h >= x.dot(*d) - 1e-12 * (size + p.length()) * d.length(),
                "{}: support({d:?}) = {p:?} is beaten by {x:?}",
                s.name
            );
        }
        // support = core_support + radius · d/|d|.
        let core = s.shape.core_support(*d);
        let expect = match d.try_normalize() {
            Some(n) => core + n * s.shape.core_radius(),
            None => core,
        };
        assert!(
            (p - expect).length() <= 1e-14 * (size + p.length()),
            "{}: support {p:?} vs core {core:?} + radius",
            s.name
        );
        // The support point belongs to the shape.
        if let Some(dist) = &s.dist {
            let e = dist(p);
            assert!(
                e <= 1e-12 * (size + p.length()),
                "{}: support point {p:?} is {e:e} outside",
                s.name
            );
        }
        // Positive scaling of the direction does not change the answer.
        let p2 = s.shape.support(*d * 1024.0);
        assert!((p2 - p).length() <= 1e-12 * (size + p.length()) || d.length() == 0.0);
    }
    // The centre is a point of the shape (`Points` is excluded here: its bounding-box centre
    // can lie outside the hull, pinned by `points_center_of_the_unit_axis_triangle_...`).
    if let (Some(dist), false) = (&s.dist, s.name == "points") {
        let c = s.shape.center();
        assert!(
            dist(c) <= 1e-12 * size,
            "{}: centre {c:?} is outside",
            s.name
        );
    }
}

#[test]
fn support_invariants_for_every_3d_shape() {
    for seed in 0..20 {
        let mut r = rng(1000 + seed);
        let mut dirs: Vec<DVec3> = (0..100)
            .map(|_| unit_vector3(&mut r) * r.gen_range(0.01..10.0))
            .collect();
        dirs.extend([
            DVec3::X,
            -DVec3::Y,
            DVec3::Z,
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::ZERO,
        ]);
        for s in shapes3(seed) {
            check_support_invariants(&s, &mut r, &dirs);
        }
    }
}

#[test]
fn support_invariants_for_every_2d_shape() {
    for seed in 0..20 {
        let mut r = rng(2000 + seed);
        let rad = r.gen_range(0.1..2.0);
        let h = DVec2::new(r.gen_range(0.1..2.0), r.gen_range(0.0..2.0));
        let n = r.gen_range(3..20);
        let poly = circle_points(&mut r, n, 1.5);
        let (sa, sb) = (unit_vector2(&mut r), unit_vector2(&mut r) * 2.0);
        let pose = random_pose2(&mut r, 3.0);
        let (p2, p3, p4) = (poly.clone(), poly.clone(), poly.clone());
        let shapes: Vec<Sampled<DVec2>> = vec![
            Sampled {
                name: "circle",
                shape: Box::new(Ball::<DVec2>::new(rad).unwrap()),
                sample: Box::new(move |r| in_unit_disc(r) * rad),
                dist: Some(Box::new(move |x| (x.length() - rad).max(0.0))),
            },
            Sampled {
                name: "rect",
                shape: Box::new(Cuboid::new(h).unwrap()),
                sample: Box::new(move |r| {
                    DVec2::new(r.gen_range(-1.0..=1.0) * h.x, r.gen_range(-1.0..=1.0) * h.y)
                }),
                dist: Some(Box::new(move |x| point_aabb(x, h).0)),
            },
            Sampled {
                name: "polygon",
                shape: Box::new(ConvexPolygon::new(&poly).unwrap()),
                sample: Box::new(move |r| convex_combination(r, &p2)),
                dist: Some(Box::new(move |x| point_convex_polygon(x, &p3))),
            },
            Sampled {
                name: "capsule2",
                shape: Box::new(Capsule::new(sa, sb, rad).unwrap()),
                sample: Box::new(move |r| sa + (sb - sa) * r.gen::<f64>() + in_unit_disc(r) * rad),
                dist: Some(Box::new(move |x| {
                    (point_segment(x, sa, sb).0 - rad).max(0.0)
                })),
            },
            Sampled {
                name: "transformed polygon",
                shape: Box::new(Transformed::new(ConvexPolygon::new(&p4).unwrap(), pose)),
                sample: Box::new(move |r| pose.transform_point(convex_combination(r, &poly))),
                dist: None,
            },
        ];
        let mut dirs: Vec<DVec2> = (0..100)
            .map(|_| unit_vector2(&mut r) * r.gen_range(0.01..10.0))
            .collect();
        dirs.extend([DVec2::X, -DVec2::Y, DVec2::ONE, DVec2::ZERO]);
        for s in &shapes {
            check_support_invariants(s, &mut r, &dirs);
        }
    }
}

/// Regression: `SupportMap::center` is documented as a point of the core, but `Points` uses
/// the centre of the bounding box, which need not lie in the hull. For the triangle on the
/// three unit axis points the box centre (½, ½, ½) is at distance 1/(2√3) ≈ 0.29 from it.
#[test]
fn points_center_of_the_unit_axis_triangle_lies_in_the_hull() {
    let tri = [DVec3::X, DVec3::Y, DVec3::Z];
    let p = Points::new(&tri).unwrap();
    let d = point_hull_distance(p.center(), &tri).unwrap().distance;
    assert!(
        d <= 1e-12,
        "center {:?} is {d} away from the hull",
        p.center()
    );
}

// ---------------------------------------------------------------------------------------------
// Wrappers and enum dispatch
// ---------------------------------------------------------------------------------------------

fn same<V: Vector>(a: &dyn SupportMap<V>, b: &dyn SupportMap<V>, dirs: &[V], what: &str) {
    for d in dirs {
        assert_eq!(a.support(*d), b.support(*d), "{what}: support({d:?})");
        assert_eq!(
            a.core_support(*d),
            b.core_support(*d),
            "{what}: core_support({d:?})"
        );
    }
    assert_eq!(a.core_radius(), b.core_radius(), "{what}: core_radius");
    assert_eq!(a.center(), b.center(), "{what}: center");
    assert_eq!(a.size(), b.size(), "{what}: size");
}

#[test]
fn shape3_dispatch_agrees_with_the_direct_shapes() {
    let mut r = rng(31);
    let mut dirs: Vec<DVec3> = (0..50).map(|_| unit_vector3(&mut r) * 3.0).collect();
    dirs.push(DVec3::ZERO);
    let ball = Ball::<DVec3>::new(0.7).unwrap();
    let cube = Cuboid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap();
    let caps = Capsule::new(DVec3::ZERO, DVec3::X, 0.3).unwrap();
    let cyl = Cylinder::new(0.5, 0.8).unwrap();
    let cone = Cone::new(1.0, 0.6).unwrap();
    let seg = Segment::new(DVec3::Y, DVec3::Z).unwrap();
    let tri = Triangle::new(DVec3::X, DVec3::Y, DVec3::Z).unwrap();
    let pts = Points::new(&sphere_points(&mut r, 17, 1.0)).unwrap();
    let pose = random_pose3(&mut r, 2.0);
    same(&Shape3::Sphere(ball), &ball, &dirs, "sphere");
    same(&Shape3::Cuboid(cube), &cube, &dirs, "cuboid");
    same(&Shape3::Capsule(caps), &caps, &dirs, "capsule");
    same(&Shape3::Cylinder(cyl), &cyl, &dirs, "cylinder");
    same(&Shape3::Cone(cone), &cone, &dirs, "cone");
    same(&Shape3::Segment(seg), &seg, &dirs, "segment");
    same(&Shape3::Triangle(tri), &tri, &dirs, "triangle");
    same(&Shape3::Points(pts.clone()), &pts, &dirs, "points");
    let rounded = Rounded::new(Shape3::Cuboid(cube), 0.2).unwrap();
    same(
        &Shape3::Rounded(Box::new(rounded.clone())),
        &rounded,
        &dirs,
        "rounded",
    );
    let tr = Transformed::new(Shape3::Cone(cone), pose);
    same(
        &Shape3::Transformed(Box::new(tr.clone())),
        &tr,
        &dirs,
        "transformed",
    );
    let custom = Custom::new(move |d| cube.support(d), DVec3::ZERO, cube.size()).unwrap();
    same(&Shape3::Custom(custom.clone()), &custom, &dirs, "custom");
    // A custom shape wrapping a support function is that shape.
    for d in &dirs {
        assert_eq!(custom.support(*d), cube.support(*d));
    }
    // GJK through the enum is GJK on the shape.
    let o = Options::default();
    let p1 = Pose3::IDENTITY;
    let p2 = Pose3::new(DVec3::new(2.5, 0.3, -0.2), random_quat(&mut r)).unwrap();
    let direct = distance(&cube, &p1, &cone, &p2, &o, None);
    let via_enum = distance(
        &Shape3::Cuboid(cube),
        &p1,
        &Shape3::Cone(cone),
        &p2,
        &o,
        None,
    );
    assert_eq!(direct, via_enum);
}

#[test]
fn shape2_dispatch_agrees_with_the_direct_shapes() {
    let mut r = rng(32);
    let mut dirs: Vec<DVec2> = (0..50).map(|_| unit_vector2(&mut r) * 3.0).collect();
    dirs.push(DVec2::ZERO);
    let circle = Ball::<DVec2>::new(0.7).unwrap();
    let rect = Cuboid::new(DVec2::new(1.0, 0.5)).unwrap();
    let caps = Capsule::new(DVec2::ZERO, DVec2::X, 0.3).unwrap();
    let poly = ConvexPolygon::new(&circle_points(&mut r, 9, 1.0)).unwrap();
    let seg = Segment::new(DVec2::Y, DVec2::X).unwrap();
    let pts = Points::new(&circle_points(&mut r, 11, 1.0)).unwrap();
    same(&Shape2::Circle(circle), &circle, &dirs, "circle");
    same(&Shape2::Rect(rect), &rect, &dirs, "rect");
    same(&Shape2::Capsule(caps), &caps, &dirs, "capsule");
    same(&Shape2::Polygon(poly.clone()), &poly, &dirs, "polygon");
    same(&Shape2::Segment(seg), &seg, &dirs, "segment");
    same(&Shape2::Points(pts.clone()), &pts, &dirs, "points");
    same(poly.as_points(), &poly, &dirs, "polygon as points");
    let rounded = Rounded::new(Shape2::Rect(rect), 0.1).unwrap();
    same(
        &Shape2::Rounded(Box::new(rounded.clone())),
        &rounded,
        &dirs,
        "rounded",
    );
    let tr = Transformed::new(Shape2::Polygon(poly.clone()), random_pose2(&mut r, 1.0));
    same(
        &Shape2::Transformed(Box::new(tr.clone())),
        &tr,
        &dirs,
        "transformed",
    );
    let custom = Custom::new(move |d| rect.support(d), DVec2::ZERO, rect.size()).unwrap();
    same(&Shape2::Custom(custom.clone()), &custom, &dirs, "custom");
}

#[test]
fn rounded_and_transformed_match_their_definitions() {
    let mut r = rng(33);
    for _ in 0..50 {
        let h = DVec3::new(
            r.gen_range(0.1..1.0),
            r.gen_range(0.1..1.0),
            r.gen_range(0.1..1.0),
        );
        let (r1, r2) = (r.gen_range(0.0..0.5), r.gen_range(0.0..0.5));
        let cube = Cuboid::new(h).unwrap();
        let ball = Ball::<DVec3>::new(r1).unwrap();
        let rc = Rounded::new(cube, r2).unwrap();
        let rb = Rounded::new(ball, r2).unwrap();
        let twice = Rounded::new(Rounded::new(cube, r1).unwrap(), r2).unwrap();
        assert_eq!(rb.core_radius(), r1 + r2);
        assert_eq!(twice.core_radius(), r1 + r2);
        let pose = random_pose3(&mut r, 5.0);
        let tr = Transformed::new(cube, pose);
        for _ in 0..20 {
            let d = unit_vector3(&mut r) * r.gen_range(0.1..10.0);
            let n = d.normalize();
            assert!((rc.support(d) - (cube.support(d) + n * r2)).length() <= 1e-15 * 4.0);
            assert!((rb.support(d) - n * (r1 + r2)).length() <= 1e-15 * 4.0);
            let expect = pose.transform_point(cube.support(pose.inverse_transform_vector(d)));
            assert!(
                (tr.support(d) - expect).length() <= 1e-14 * (1.0 + pose.translation().length()),
                "transformed: {:?} vs {expect:?}",
                tr.support(d)
            );
        }
        assert_eq!(tr.center(), pose.translation());
        assert_eq!(tr.size(), cube.size());
    }
}

// ---------------------------------------------------------------------------------------------
// Structure-of-arrays support scan
// ---------------------------------------------------------------------------------------------

fn check_soa_vs_aos<V: Vector>(pts: &[V], dirs: &[V], what: &str) {
    let p = Points::new(pts).unwrap();
    for d in dirs {
        let soa = p.support_index(*d);
        let aos = p.support_index_aos(*d);
        assert!(soa < pts.len(), "{what}: index {soa} out of range");
        assert_eq!(
            pts[soa].dot(*d),
            pts[aos].dot(*d),
            "{what}: SoA picked a non-maximal point (n = {}, dir {d:?})",
            pts.len()
        );
        assert_eq!(
            soa,
            aos,
            "{what}: tie broken differently (n = {}, dir {d:?})",
            pts.len()
        );
        assert_eq!(p.core_support(*d), pts[soa]);
    }
}

#[test]
fn soa_support_index_agrees_with_the_aos_scan() {
    for n in 1..=41usize {
        let mut r = case_rng(0x50A, n as u64);
        // Random points.
        let pts3 = sphere_points(&mut r, n, 1.0);
        let pts2: Vec<DVec2> = (0..n).map(|_| unit_vector2(&mut r)).collect();
        // Integer lattice points: many exact ties in axis directions.
        let lat3: Vec<DVec3> = (0..n)
            .map(|_| {
                DVec3::new(
                    r.gen_range(-2..=2) as f64,
                    r.gen_range(-2..=2) as f64,
                    r.gen_range(-1..=1) as f64,
                )
            })
            .collect();
        let lat2: Vec<DVec2> = (0..n)
            .map(|_| DVec2::new(r.gen_range(-2..=2) as f64, r.gen_range(-1..=1) as f64))
            .collect();
        // All equal, and duplicates of the maximiser at the end (in the padding chunk).
        let same3 = vec![DVec3::new(0.5, 0.25, 1.0); n];
        let mut dup_end = sphere_points(&mut r, n, 1.0);
        dup_end.push(DVec3::X * 2.0);
        dup_end.push(DVec3::X * 2.0);
        let mut dirs3: Vec<DVec3> = (0..30).map(|_| unit_vector3(&mut r)).collect();
        dirs3.extend([
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            -DVec3::X,
            -DVec3::Z,
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::ZERO,
        ]);
        let mut dirs2: Vec<DVec2> = (0..30).map(|_| unit_vector2(&mut r)).collect();
        dirs2.extend([DVec2::X, DVec2::Y, -DVec2::X, DVec2::ONE, DVec2::ZERO]);
        check_soa_vs_aos(&pts3, &dirs3, "random 3D");
        check_soa_vs_aos(&lat3, &dirs3, "lattice 3D");
        check_soa_vs_aos(&same3, &dirs3, "all equal 3D");
        check_soa_vs_aos(&dup_end, &dirs3, "duplicated maximiser 3D");
        check_soa_vs_aos(&pts2, &dirs2, "random 2D");
        check_soa_vs_aos(&lat2, &dirs2, "lattice 2D");
    }
}

// ---------------------------------------------------------------------------------------------
// Curved and primitive shapes against closed forms
// ---------------------------------------------------------------------------------------------

struct CurvedStats {
    worst: f64,
    statuses: std::collections::BTreeMap<&'static str, u32>,
}

/// GJK distance against a closed form, to 1e-9 × (size_A + size_B); the verdict must follow
/// when the exact distance is outside the tolerance band.
#[allow(clippy::too_many_arguments)]
fn against<V: Vector, A: SupportMap<V>, B: SupportMap<V>>(
    what: &str,
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    exact: f64,
    stats: &mut CurvedStats,
) {
    let o = Options::default();
    let d = distance(a, pa, b, pb, &o, None);
    let scale = a.size() + b.size();
    let err = (d.distance - exact).abs();
    stats.worst = stats.worst.max(err / scale);
    *stats.statuses.entry(d.status.as_str()).or_default() += 1;
    assert!(
        err <= 1e-9 * scale,
        "{what}: gjk {} vs exact {exact} ({d:?})",
        d.distance
    );
    let tol = o.rel_tolerance * scale;
    if exact > 2.0 * tol {
        assert_eq!(d.intersecting(), Some(false), "{what}: {d:?}");
    }
    if exact == 0.0 {
        assert_eq!(d.intersecting(), Some(true), "{what}: {d:?}");
    }
    let i = intersects(a, pa, b, pb, &o, None);
    if exact > 2.0 * tol {
        assert_eq!(i.intersecting(), Some(false), "{what}: {i:?}");
    }
    if exact == 0.0 {
        assert_eq!(i.intersecting(), Some(true), "{what}: {i:?}");
    }
}

fn stats() -> CurvedStats {
    CurvedStats {
        worst: 0.0,
        statuses: Default::default(),
    }
}

fn report(name: &str, s: &CurvedStats) {
    if std::env::var_os("CONVEXITY_TEST_STATS").is_some() {
        eprintln!(
            "{name}: worst |d - exact| / scale = {:e}, statuses {:?}",
            s.worst, s.statuses
        );
    }
}

#[test]
fn spheres_boxes_points_and_segments_against_closed_forms() {
    let mut st = stats();
    for case in 0..500u64 {
        let mut r = case_rng(0xC10, case);
        let (r1, r2) = (r.gen_range(0.05..1.5), r.gen_range(0.05..1.5));
        let c1 = translation3(&mut r, 3.0);
        let c2 = translation3(&mut r, 3.0);
        let p1 = Pose3::new(c1, random_quat(&mut r)).unwrap();
        let p2 = Pose3::new(c2, random_quat(&mut r)).unwrap();
        let (b1, b2) = (
            Ball::<DVec3>::new(r1).unwrap(),
            Ball::<DVec3>::new(r2).unwrap(),
        );
        against(
            "sphere-sphere",
            &b1,
            &p1,
            &b2,
            &p2,
            sphere_sphere(c1, r1, c2, r2),
            &mut st,
        );

        let h = DVec3::new(
            r.gen_range(0.1..1.5),
            r.gen_range(0.1..1.5),
            r.gen_range(0.1..1.5),
        );
        let cube = Cuboid::new(h).unwrap();
        against(
            "sphere-box",
            &b1,
            &p1,
            &cube,
            &p2,
            sphere_box(c1, r1, h, &p2),
            &mut st,
        );
        let point = Ball::<DVec3>::new(0.0).unwrap();
        against(
            "point-box",
            &point,
            &p1,
            &cube,
            &p2,
            sphere_box(c1, 0.0, h, &p2),
            &mut st,
        );

        let h2 = DVec3::new(
            r.gen_range(0.1..1.5),
            r.gen_range(0.1..1.5),
            r.gen_range(0.1..1.5),
        );
        let t1 = Pose3::from_translation(c1).unwrap();
        let t2 = Pose3::from_translation(c2).unwrap();
        let exact = box_box_axis_aligned(c1, h, c2, h2);
        against(
            "box-box",
            &cube,
            &t1,
            &Cuboid::new(h2).unwrap(),
            &t2,
            exact,
            &mut st,
        );

        let (a1, e1) = (translation3(&mut r, 2.0), translation3(&mut r, 2.0));
        let (a2, e2) = (translation3(&mut r, 2.0), translation3(&mut r, 2.0));
        let s1 = Segment::new(a1, e1).unwrap();
        let s2 = Segment::new(a2, e2).unwrap();
        let id = Pose3::IDENTITY;
        against(
            "segment-segment",
            &s1,
            &id,
            &s2,
            &id,
            segment_segment(a1, e1, a2, e2).0,
            &mut st,
        );
        let k1 = Capsule::new(a1, e1, r1 * 0.3).unwrap();
        let k2 = Capsule::new(a2, e2, r2 * 0.3).unwrap();
        let exact = capsule_capsule(a1, e1, r1 * 0.3, a2, e2, r2 * 0.3);
        against("capsule-capsule", &k1, &id, &k2, &id, exact, &mut st);
    }
    report("primitives", &st);
}

#[test]
fn cylinders_and_cones_against_closed_forms() {
    let mut st = stats();
    for case in 0..400u64 {
        let mut r = case_rng(0xC11, case);
        let (hh, cr) = (r.gen_range(0.2..1.5), r.gen_range(0.2..1.5));
        let pose = random_pose3(&mut r, 3.0);
        let c = translation3(&mut r, 4.0);
        let rad = r.gen_range(0.0..0.8);
        let ball = Ball::<DVec3>::new(rad).unwrap();
        let pc = Pose3::from_translation(c).unwrap();
        let local = pose.inverse_transform_point(c);
        let cyl = Cylinder::new(hh, cr).unwrap();
        let exact = (point_cylinder(local, hh, cr) - rad).max(0.0);
        against("sphere-cylinder", &ball, &pc, &cyl, &pose, exact, &mut st);
        let cone = Cone::new(hh, cr).unwrap();
        let exact = (point_cone(local, hh, cr) - rad).max(0.0);
        against("sphere-cone", &ball, &pc, &cone, &pose, exact, &mut st);
        // Capsule (a segment core) against a cylinder: compare with the hull oracle on a
        // finely sampled cylinder? Not exact; instead check the capsule against a sphere.
        let (a, e) = (translation3(&mut r, 2.0), translation3(&mut r, 2.0));
        let caps = Capsule::new(a, e, rad).unwrap();
        let id = Pose3::IDENTITY;
        let exact = (point_segment(c, a, e).0 - rad - 0.25).max(0.0);
        let small = Ball::<DVec3>::new(0.25).unwrap();
        against("capsule-sphere", &caps, &id, &small, &pc, exact, &mut st);
    }
    report("cylinders and cones", &st);
}

#[test]
fn circles_polygons_and_capsules_2d_against_closed_forms() {
    let mut st = stats();
    for case in 0..400u64 {
        let mut r = case_rng(0xC12, case);
        let (n, size) = (r.gen_range(3..16), r.gen_range(0.3..1.5));
        let poly = circle_points(&mut r, n, size);
        let pose = random_pose2(&mut r, 2.0);
        let c = DVec2::new(r.gen_range(-4.0..4.0), r.gen_range(-4.0..4.0));
        let rad = r.gen_range(0.0..0.8);
        let local = pose.inverse_transform_point(c);
        let exact = (point_convex_polygon(local, &poly) - rad).max(0.0);
        let circle = Ball::<DVec2>::new(rad).unwrap();
        let pc = Pose2::from_translation(c).unwrap();
        against(
            "circle-polygon",
            &circle,
            &pc,
            &ConvexPolygon::new(&poly).unwrap(),
            &pose,
            exact,
            &mut st,
        );
        let (a1, e1) = (
            DVec2::new(r.gen_range(-2.0..2.0), r.gen_range(-2.0..2.0)),
            unit_vector2(&mut r),
        );
        let (a2, e2) = (
            DVec2::new(r.gen_range(-2.0..2.0), r.gen_range(-2.0..2.0)),
            unit_vector2(&mut r) * 2.0,
        );
        let id = Pose2::IDENTITY;
        let exact = capsule_capsule(a1, e1, 0.1, a2, e2, 0.2);
        let k1 = Capsule::new(a1, e1, 0.1).unwrap();
        let k2 = Capsule::new(a2, e2, 0.2).unwrap();
        against("capsule-capsule 2D", &k1, &id, &k2, &id, exact, &mut st);
    }
    report("2D", &st);
}

/// Cylinders and cones against polytopes: the hull oracle on the polytope and a dense
/// polygonal approximation of the curved shape gives bounds (the inscribed approximation is
/// inside the shape, so its distance is an upper bound; the distance to the circumscribed one
/// is a lower bound).
#[test]
fn cylinder_against_box_within_polygonal_bounds() {
    let k = 256usize;
    let ring = |radius: f64, z: f64| -> Vec<DVec3> {
        (0..k)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / k as f64;
                DVec3::new(radius * a.cos(), radius * a.sin(), z)
            })
            .collect()
    };
    for case in 0..20u64 {
        let mut r = case_rng(0xC13, case);
        let (hh, cr) = (r.gen_range(0.2..1.0), r.gen_range(0.2..1.0));
        let h = DVec3::new(
            r.gen_range(0.2..1.0),
            r.gen_range(0.2..1.0),
            r.gen_range(0.2..1.0),
        );
        let pose_b = Pose3::new(translation3(&mut r, 2.5), random_quat(&mut r)).unwrap();
        let cyl = Cylinder::new(hh, cr).unwrap();
        let cube = Cuboid::new(h).unwrap();
        let d = distance(
            &cyl,
            &Pose3::IDENTITY,
            &cube,
            &pose_b,
            &Options::default(),
            None,
        );
        assert_ne!(d.status, Status::IterationLimit, "{d:?}");
        let corners: Vec<DVec3> = convexity_testkit::gen3::box_corners3(h)
            .iter()
            .map(|p| pose_b.transform_point(*p))
            .collect();
        let outer_r = cr / (std::f64::consts::PI / k as f64).cos();
        let mut inner = ring(cr, hh);
        inner.extend(ring(cr, -hh));
        let mut outer = ring(outer_r, hh);
        outer.extend(ring(outer_r, -hh));
        let hi = hull_distance_v(&inner, &corners).unwrap().upper_bound;
        let lo = hull_distance_v(&outer, &corners)
            .unwrap()
            .lower_bound
            .max(0.0);
        let eps = 1e-9 * (cyl.size() + cube.size());
        assert!(
            d.distance >= lo - eps && d.distance <= hi + eps,
            "case {case}: gjk {} not in [{lo}, {hi}]",
            d.distance
        );
    }
}

/// The enum with its leaf hidden: every trait method forwarded except `leaf`, so that a query
/// on it runs the enum's own dispatch path (the path every query took before the leaf
/// dispatch), against which the leaf-dispatched queries must agree bit for bit.
struct NoLeaf<'s, S>(&'s S);

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for NoLeaf<'_, S> {
    fn core_support(&self, dir: V) -> V {
        self.0.core_support(dir)
    }
    fn prefetch_support(&self, dir: V) {
        self.0.prefetch_support(dir)
    }
    fn core_radius(&self) -> f64 {
        self.0.core_radius()
    }
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn size(&self) -> f64 {
        self.0.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.0.bounding_radius()
    }
    fn primitive(&self) -> convexity::shape::Primitive<'_, V> {
        self.0.primitive()
    }
}

/// Distance, boolean and penetration (cold and warm) on the pair through the leaf dispatch and
/// through [`NoLeaf`]: the same answers bit for bit (`Debug` prints every float exactly).
fn same_through_leaves<V, S>(a: &S, pa: &Pose<V>, b: &S, pb: &Pose<V>, case: &str)
where
    V: convexity::gjk::epa::EpaSpace,
    S: SupportMap<V> + core::fmt::Debug,
{
    use convexity::gjk::epa::{penetration, penetration_cached, Context, EpaCache};
    let o = Options::default();
    let eo = convexity::gjk::epa::Options::default();
    let (na, nb) = (NoLeaf(a), NoLeaf(b));
    let (d1, d2) = (
        distance(a, pa, b, pb, &o, None),
        distance(&na, pa, &nb, pb, &o, None),
    );
    assert_eq!(format!("{d1:?}"), format!("{d2:?}"), "distance, {case}");
    let (i1, i2) = (
        intersects(a, pa, b, pb, &o, None),
        intersects(&na, pa, &nb, pb, &o, None),
    );
    assert_eq!(format!("{i1:?}"), format!("{i2:?}"), "boolean, {case}");
    let mut ctx = Context::new();
    let (p1, p2) = (
        penetration(a, pa, b, pb, &eo, &mut ctx),
        penetration(&na, pa, &nb, pb, &eo, &mut ctx),
    );
    assert_eq!(format!("{p1:?}"), format!("{p2:?}"), "penetration, {case}");
    // Warm: the same query twice on one cache each (the second starts from the first).
    let (mut c1, mut c2) = (EpaCache::new(), EpaCache::new());
    for round in 0..2 {
        let (w1, w2) = (
            penetration_cached(a, pa, b, pb, &eo, &mut ctx, &mut c1),
            penetration_cached(&na, pa, &nb, pb, &eo, &mut ctx, &mut c2),
        );
        assert_eq!(format!("{w1:?}"), format!("{w2:?}"), "warm {round}, {case}");
    }
}

#[test]
fn enum_queries_dispatched_on_leaf_types_equal_the_enum_path_bit_for_bit() {
    let mut r = rng(77);
    let o = Options::default();
    let mut leaf_pairs = 0;
    let mut overlapping = 0;
    for k in 0..600 {
        let mut shape = |j: usize| match (k / 6 + j) % 6 {
            0 => Shape3::Points(Points::new(&sphere_points(&mut r, 3 + k % 9, 0.8)).unwrap()),
            1 => Shape3::Sphere(Ball::new(r.gen_range(0.0..1.0)).unwrap()),
            2 => Shape3::Cuboid(Cuboid::new(in_unit_ball3(&mut r).abs() + 0.1).unwrap()),
            3 => Shape3::Capsule(
                Capsule::new(in_unit_ball3(&mut r), in_unit_ball3(&mut r), 0.3).unwrap(),
            ),
            // Two shapes that are not leaves: the enum path itself.
            4 => Shape3::Cylinder(Cylinder::new(0.5, 0.4).unwrap()),
            _ => Shape3::Rounded(Box::new(
                Rounded::new(Shape3::Cuboid(Cuboid::new(DVec3::splat(0.4)).unwrap()), 0.1).unwrap(),
            )),
        };
        let (a, b) = (shape(0), shape(k % 5));
        let (pa, pb) = (random_pose3(&mut r, 1.0), random_pose3(&mut r, 1.0));
        leaf_pairs += usize::from(
            !matches!(a.leaf(), convexity::shape::Leaf::Other)
                && !matches!(b.leaf(), convexity::shape::Leaf::Other),
        );
        overlapping +=
            usize::from(intersects(&a, &pa, &b, &pb, &o, None).intersecting() == Some(true));
        same_through_leaves(&a, &pa, &b, &pb, &format!("3D pair {k}: {a:?} / {b:?}"));
    }
    // Both outcomes and both paths exercised.
    assert!(leaf_pairs > 200 && leaf_pairs < 600, "{leaf_pairs}");
    assert!(overlapping > 100 && overlapping < 500, "{overlapping}");
    for k in 0..300 {
        let mut shape = |j: usize| match (k / 4 + j) % 4 {
            0 => Shape2::Points(Points::new(&circle_points(&mut r, 2 + k % 7, 0.8)).unwrap()),
            1 => Shape2::Circle(Ball::new(r.gen_range(0.0..1.0)).unwrap()),
            2 => Shape2::Rect(Cuboid::new(in_unit_disc(&mut r).abs() + 0.1).unwrap()),
            _ => Shape2::Capsule(
                Capsule::new(in_unit_disc(&mut r), in_unit_disc(&mut r), 0.2).unwrap(),
            ),
        };
        let (a, b) = (shape(0), shape(k % 3));
        let (pa, pb) = (random_pose2(&mut r, 1.0), random_pose2(&mut r, 1.0));
        same_through_leaves(&a, &pa, &b, &pb, &format!("2D pair {k}: {a:?} / {b:?}"));
    }
}
