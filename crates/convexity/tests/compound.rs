//! Compound shapes and mesh–convex queries (`polytope::compound`) against brute force over part
//! pairs (or triangles), with every certificate checked by `convexity::verify`.

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{self, epa, Options};
use convexity::polytope::compound::{
    contacts, distance, intersects, mesh_convex_distance, mesh_convex_intersects,
    verify_intersection, verify_mesh_intersection, Compound, MeshCheckError, MeshIntersection,
    Part,
};
use convexity::primitives::mesh::{MeshLocation, TriMesh};
use convexity::{verify, Ball, Capsule, Cuboid, DVec3, Points, Pose3, Shape3, Triangle, Verdict};
use convexity_testkit::gen3::{ellipsoid_blob, random_pose3, random_quat, unit_vector3};
use convexity_testkit::rng::case_rng;
use rand::Rng;

fn random_shape<R: Rng>(rng: &mut R, scale: f64) -> Shape3 {
    match rng.gen_range(0..5) {
        0 => {
            let n = rng.gen_range(1..12);
            let r = DVec3::new(
                rng.gen_range(0.05..1.0),
                rng.gen_range(0.05..1.0),
                rng.gen_range(0.05..1.0),
            ) * scale;
            Shape3::Points(Points::new(&ellipsoid_blob(rng, n, r)).unwrap())
        }
        1 => Shape3::Sphere(Ball::new(rng.gen_range(0.05..0.8) * scale).unwrap()),
        2 => Shape3::Cuboid(
            Cuboid::new(
                DVec3::new(
                    rng.gen_range(0.05..0.8),
                    rng.gen_range(0.0..0.8),
                    rng.gen_range(0.05..0.8),
                ) * scale,
            )
            .unwrap(),
        ),
        3 => {
            let d = unit_vector3(rng) * rng.gen_range(0.0..0.8) * scale;
            Shape3::Capsule(Capsule::new(-d, d, rng.gen_range(0.02..0.5) * scale).unwrap())
        }
        _ => {
            let v = |rng: &mut R| unit_vector3(rng) * scale;
            Shape3::Triangle(Triangle::new(v(rng), v(rng), v(rng)).unwrap())
        }
    }
}

fn random_compound<R: Rng>(rng: &mut R, scale: f64) -> Compound {
    let n = rng.gen_range(1..7);
    let parts = (0..n)
        .map(|_| Part {
            shape: random_shape(rng, scale),
            pose: random_pose3(rng, 2.0 * scale),
        })
        .collect();
    Compound::new(parts).unwrap()
}

struct Brute {
    min_distance: f64,
    any_intersecting: bool,
    all_separated: bool,
    epa_pairs: Vec<(usize, usize)>,
}

fn brute(a: &Compound, pa: &Pose3, b: &Compound, pb: &Pose3) -> Brute {
    let o = Options::default();
    let mut out = Brute {
        min_distance: f64::INFINITY,
        any_intersecting: false,
        all_separated: true,
        epa_pairs: Vec::new(),
    };
    let mut ctx = epa::Context::new();
    for (i, x) in a.parts().iter().enumerate() {
        for (j, y) in b.parts().iter().enumerate() {
            let (qa, qb) = (pa.compose(&x.pose), pb.compose(&y.pose));
            let d = gjk::distance(&x.shape, &qa, &y.shape, &qb, &o, None);
            out.min_distance = out.min_distance.min(d.distance);
            match gjk::intersects(&x.shape, &qa, &y.shape, &qb, &o, None).verdict {
                Verdict::Intersecting(_) => out.any_intersecting = true,
                Verdict::Separated(_) => {}
                Verdict::Undetermined => out.all_separated = false,
            }
            let p = epa::penetration(
                &x.shape,
                &qa,
                &y.shape,
                &qb,
                &epa::Options::default(),
                &mut ctx,
            );
            if p.verdict.intersecting() == Some(true) {
                out.epa_pairs.push((i, j));
            }
        }
    }
    out
}

/// One random pair of compounds, checked against brute force. Returns whether it intersected.
fn check_pair(case: u64, scale: f64, offset: f64) -> bool {
    let mut rng = case_rng(0xC0_4D, case);
    let a = random_compound(&mut rng, scale);
    let b = random_compound(&mut rng, scale);
    let shift = DVec3::splat(offset);
    let pa = Pose3::new(shift + DVec3::new(0.0, 0.0, 0.0), random_quat(&mut rng)).unwrap();
    let gap = rng.gen_range(0.0..4.0) * scale;
    let pb = Pose3::new(shift + unit_vector3(&mut rng) * gap, random_quat(&mut rng)).unwrap();
    let bf = brute(&a, &pa, &b, &pb);
    let o = Options::default();

    // Distance: the minimum over part pairs.
    let d = distance(&a, &pa, &b, &pb, &o);
    let tol = 1e-9 * scale.max(bf.min_distance) + 1e-12 * offset;
    assert!(
        (d.distance - bf.min_distance).abs() <= tol,
        "case {case}: compound {} vs brute {} (tested {} pairs)",
        d.distance,
        bf.min_distance,
        d.pairs_tested
    );
    let c = d.closest.as_ref().unwrap();
    assert!(c.part_a < a.parts().len() && c.part_b < b.parts().len());
    // The closest pair's own certificate verifies.
    if c.result.intersecting().is_some() {
        let (x, y) = (&a.parts()[c.part_a], &b.parts()[c.part_b]);
        let (qa, qb) = (pa.compose(&x.pose), pb.compose(&y.pose));
        let t = tolerance_for(&x.shape, &qa, &y.shape, &qb);
        verify(&x.shape, &qa, &y.shape, &qb, &c.result.verdict, t)
            .unwrap_or_else(|e| panic!("case {case}: closest pair certificate {e:?}"));
    }

    // Boolean: agrees with brute force, and its certificates verify.
    let i = intersects(&a, &pa, &b, &pb, &o);
    if bf.any_intersecting {
        assert_eq!(i.intersecting, Some(true), "case {case}");
    } else if bf.all_separated {
        assert_eq!(i.intersecting, Some(false), "case {case}");
    }
    if i.intersecting.is_some() {
        verify_intersection(&a, &pa, &b, &pb, &i).unwrap_or_else(|e| panic!("case {case}: {e:?}"));
    }
    // Distance and boolean agree outside the touching band.
    if d.distance > 1e-6 * scale {
        assert_ne!(
            i.intersecting,
            Some(true),
            "case {case}: d = {}",
            d.distance
        );
    }

    // Contacts: exactly the part pairs EPA finds intersecting, each verified.
    let cs = contacts(&a, &pa, &b, &pb, &epa::Options::default());
    let got: Vec<(usize, usize)> = cs.iter().map(|c| (c.part_a, c.part_b)).collect();
    assert_eq!(got, bf.epa_pairs, "case {case}");
    for c in &cs {
        let (x, y) = (&a.parts()[c.part_a], &b.parts()[c.part_b]);
        let (qa, qb) = (pa.compose(&x.pose), pb.compose(&y.pose));
        let t = tolerance_for(&x.shape, &qa, &y.shape, &qb);
        verify(&x.shape, &qa, &y.shape, &qb, &c.penetration.verdict, t)
            .unwrap_or_else(|e| panic!("case {case}: contact certificate {e:?}"));
        assert!(
            c.penetration.depth.is_finite() && c.penetration.depth >= -t,
            "case {case}"
        );
        assert!(
            (c.penetration.normal.length() - 1.0).abs() < 1e-9,
            "case {case}"
        );
        check_manifold(case, c, (&x.shape, &qa), (&y.shape, &qb), t);
    }
    i.intersecting == Some(true)
}

/// A part pair's manifold: not empty, a unit normal, every point pair on its own part (within
/// the touch tolerance, by GJK from the point), `point_a − point_b = depth · normal`, and no
/// depth beyond EPA's certified upper bound.
fn check_manifold(
    case: u64,
    c: &convexity::polytope::compound::PartContact,
    (sa, qa): (&Shape3, &Pose3),
    (sb, qb): (&Shape3, &Pose3),
    t: f64,
) {
    let m = &c.manifold;
    assert!(!m.is_empty(), "case {case}: empty manifold");
    assert!((m.normal.length() - 1.0).abs() < 1e-9, "case {case}");
    let to_part = |p: DVec3, s: &Shape3, q: &Pose3| {
        let pt = Points::new(&[p]).unwrap();
        gjk::distance(&pt, &Pose3::IDENTITY, s, q, &Options::default(), None).distance
    };
    for (k, cp) in m.points().iter().enumerate() {
        let ctx = format!("case {case} parts ({}, {}) point {k}", c.part_a, c.part_b);
        assert!(
            to_part(cp.point_a, sa, qa) <= 4.0 * t,
            "{ctx}: point_a off A"
        );
        assert!(
            to_part(cp.point_b, sb, qb) <= 4.0 * t,
            "{ctx}: point_b off B"
        );
        let gap = (cp.point_a - cp.point_b - m.normal * cp.depth).length();
        assert!(
            gap <= 4.0 * t,
            "{ctx}: point_a − point_b − depth·n = {gap:e}\n{m:?}\n{sa:?}\n{sb:?}"
        );
        assert!(
            cp.depth <= c.penetration.depth_upper + 4.0 * t && cp.depth >= -4.0 * t,
            "{ctx}: depth {} outside [0, {}]",
            cp.depth,
            c.penetration.depth_upper
        );
    }
}

/// Contact manifolds between polytope parts carry the whole patch: a box part resting 0.01
/// deep on a wider box part gives four points at the small box's bottom corners, each 0.01
/// deep; a ball part (curved) gives EPA's one point.
#[test]
fn compound_contacts_carry_face_manifolds_for_polytope_parts() {
    use convexity::polytope::manifold::Feature;
    let floor = Compound::new(vec![Part {
        shape: Shape3::Cuboid(Cuboid::new(DVec3::new(5.0, 5.0, 0.5)).unwrap()),
        pose: Pose3::IDENTITY,
    }])
    .unwrap();
    let crate_and_ball = Compound::new(vec![
        Part {
            shape: Shape3::Cuboid(Cuboid::new(DVec3::splat(0.25)).unwrap()),
            pose: Pose3::IDENTITY,
        },
        Part {
            shape: Shape3::Sphere(Ball::new(0.25).unwrap()),
            pose: Pose3::from_translation(DVec3::new(2.0, 0.0, 0.0)).unwrap(),
        },
    ])
    .unwrap();
    let pb = Pose3::from_translation(DVec3::new(0.3, -0.2, 0.74)).unwrap();
    let cs = contacts(
        &floor,
        &Pose3::IDENTITY,
        &crate_and_ball,
        &pb,
        &epa::Options::default(),
    );
    assert_eq!(cs.len(), 2);
    let boxes = &cs[0];
    assert_eq!((boxes.part_a, boxes.part_b), (0, 0));
    assert_ne!(boxes.manifold.feature, Feature::Supports);
    assert!((boxes.manifold.normal - DVec3::Z).length() < 1e-12);
    assert_eq!(boxes.manifold.len(), 4);
    let mut corners: Vec<(f64, f64)> = boxes
        .manifold
        .points()
        .iter()
        .map(|p| {
            assert!((p.depth - 0.01).abs() < 1e-12, "depth {}", p.depth);
            assert!((p.point_b.z - 0.49).abs() < 1e-12);
            (p.point_b.x, p.point_b.y)
        })
        .collect();
    corners.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let want = [(0.05, -0.45), (0.05, 0.05), (0.55, -0.45), (0.55, 0.05)];
    for (got, want) in corners.iter().zip(want) {
        assert!((got.0 - want.0).abs() < 1e-12 && (got.1 - want.1).abs() < 1e-12);
    }
    let ball = &cs[1];
    assert_eq!((ball.part_a, ball.part_b), (0, 1));
    assert_eq!(ball.manifold.feature, Feature::Supports);
    assert_eq!(ball.manifold.len(), 1);
    assert!((ball.manifold.points()[0].depth - 0.01).abs() < 1e-9);
}

#[test]
fn compound_distance_is_the_brute_force_minimum_over_part_pairs_on_1000_random_compounds() {
    let mut hits = 0;
    for case in 0..1000 {
        hits += usize::from(check_pair(case, 1.0, 0.0));
    }
    // Both outcomes are exercised in bulk.
    assert!((100..900).contains(&hits), "{hits} intersecting of 1000");
}

#[test]
fn compound_queries_far_from_the_origin_and_at_large_and_small_scales() {
    for case in 0..100 {
        check_pair(10_000 + case, 1.0, 1e6);
        check_pair(20_000 + case, 1e4, 0.0);
        check_pair(30_000 + case, 1e-4, 0.0);
    }
}

#[test]
fn identical_compounds_intersect_at_distance_zero() {
    let mut rng = case_rng(7, 0);
    for _ in 0..50 {
        let a = random_compound(&mut rng, 1.0);
        let p = random_pose3(&mut rng, 5.0);
        let d = distance(&a, &p, &a, &p, &Options::default());
        assert!(d.distance <= 1e-12, "{}", d.distance);
        let i = intersects(&a, &p, &a, &p, &Options::default());
        assert_eq!(i.intersecting, Some(true));
        verify_intersection(&a, &p, &a, &p, &i).unwrap();
    }
}

#[test]
fn exactly_touching_boxes_in_two_compounds_count_as_intersecting() {
    let cube = |x: f64| Part {
        shape: Shape3::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap()),
        pose: Pose3::from_translation(DVec3::new(x, 0.0, 0.0)).unwrap(),
    };
    let a = Compound::new(vec![cube(0.0), cube(5.0)]).unwrap();
    let b = Compound::new(vec![cube(0.0), cube(-9.0)]).unwrap();
    let pb = Pose3::from_translation(DVec3::new(6.0, 0.0, 0.0)).unwrap();
    let id = Pose3::IDENTITY;
    let d = distance(&a, &id, &b, &pb, &Options::default());
    assert!(d.distance <= 1e-12, "{}", d.distance);
    let c = d.closest.unwrap();
    assert_eq!((c.part_a, c.part_b), (1, 0));
    let i = intersects(&a, &id, &b, &pb, &Options::default());
    assert_eq!(i.intersecting, Some(true));
    verify_intersection(&a, &id, &b, &pb, &i).unwrap();
    // Moved apart by 1e-3: separated, with the gap as the distance.
    let pb = Pose3::from_translation(DVec3::new(6.001, 0.0, 0.0)).unwrap();
    let d = distance(&a, &id, &b, &pb, &Options::default());
    assert!((d.distance - 1e-3).abs() < 1e-12, "{}", d.distance);
    let i = intersects(&a, &id, &b, &pb, &Options::default());
    assert_eq!(i.intersecting, Some(false));
    verify_intersection(&a, &id, &b, &pb, &i).unwrap();
}

#[test]
fn a_tampered_separation_answer_is_refused_by_the_checker() {
    let cube = |x: f64| Part {
        shape: Shape3::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap()),
        pose: Pose3::from_translation(DVec3::new(x, 0.0, 0.0)).unwrap(),
    };
    let a = Compound::new(vec![cube(0.0), cube(3.0)]).unwrap();
    let b = Compound::single(Shape3::Sphere(Ball::new(0.4).unwrap())).unwrap();
    let pb = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap();
    let id = Pose3::IDENTITY;
    let mut i = intersects(&a, &id, &b, &pb, &Options::default());
    assert_eq!(i.intersecting, Some(true));
    assert_eq!((i.pairs[0].part_a, i.pairs[0].part_b), (1, 0));
    // Claiming "separated" with no pair listed leaves the overlapping pair uncovered.
    i.intersecting = Some(false);
    i.pairs.clear();
    assert!(verify_intersection(&a, &id, &b, &pb, &i).is_err());
}

fn octahedron_mesh(r: f64) -> TriMesh {
    let v = vec![
        DVec3::X * r,
        -DVec3::X * r,
        DVec3::Y * r,
        -DVec3::Y * r,
        DVec3::Z * r,
        -DVec3::Z * r,
    ];
    let mut t = Vec::new();
    for (sx, ix) in [(1.0, 0), (-1.0, 1)] {
        for (sy, iy) in [(1.0, 2), (-1.0, 3)] {
            for (sz, iz) in [(1.0, 4), (-1.0, 5)] {
                t.push(if sx * sy * sz > 0.0 {
                    [ix, iy, iz]
                } else {
                    [ix, iz, iy]
                });
            }
        }
    }
    TriMesh::new(v, t).unwrap()
}

/// A non-convex closed mesh: two octahedra far apart (two components).
fn two_octahedra() -> TriMesh {
    let a = octahedron_mesh(1.0);
    let mut v = a.vertices().to_vec();
    v.extend(
        a.vertices()
            .iter()
            .map(|p| *p * 2.0 + DVec3::new(5.0, 0.0, 0.0)),
    );
    let mut t = a.triangles().to_vec();
    t.extend(a.triangles().iter().map(|tri| tri.map(|i| i + 6)));
    TriMesh::new(v, t).unwrap()
}

#[test]
fn mesh_convex_queries_agree_with_brute_force_over_triangles() {
    let mesh = two_octahedra();
    let o = Options::default();
    let mut rng = case_rng(0x3E54, 0);
    let (mut inside, mut crossing, mut apart) = (0, 0, 0);
    for case in 0..500 {
        let shape = random_shape(&mut rng, 0.5);
        let pm = random_pose3(&mut rng, 3.0);
        let ps = Pose3::new(
            pm.transform_point(DVec3::new(rng.gen_range(-3.0..9.0), 0.0, 0.0))
                + unit_vector3(&mut rng) * rng.gen_range(0.0..3.0),
            random_quat(&mut rng),
        )
        .unwrap();
        // Brute force: the smallest triangle distance, and whether the shape's centre is inside.
        let mut min_d = f64::INFINITY;
        let mut any_hit = false;
        for t in 0..mesh.triangles().len() {
            let [p, q, r] = mesh.triangle(t).unwrap();
            let tri = Triangle::new(p, q, r).unwrap();
            min_d = min_d.min(gjk::distance(&tri, &pm, &shape, &ps, &o, None).distance);
            any_hit |=
                gjk::intersects(&tri, &pm, &shape, &ps, &o, None).intersecting() == Some(true);
        }
        let centre = pm
            .relative(&ps)
            .transform_point(convexity::SupportMap::center(&shape));
        let centre_in = mesh.locate(centre) != MeshLocation::Outside;

        let i = mesh_convex_intersects(&mesh, &pm, &shape, &ps, &o);
        let d = mesh_convex_distance(&mesh, &pm, &shape, &ps, &o);
        assert_eq!(
            verify_mesh_intersection(&mesh, &pm, &shape, &ps, &i),
            Ok(()),
            "case {case}"
        );
        if any_hit {
            crossing += 1;
            assert_eq!(i.intersecting, Some(true), "case {case}");
            let (t, v) = i.witness.unwrap();
            let [p, q, r] = mesh.triangle(t).unwrap();
            let tri = Triangle::new(p, q, r).unwrap();
            let tol = tolerance_for(&tri, &pm, &shape, &ps);
            verify(&tri, &pm, &shape, &ps, &v, tol).unwrap();
            assert!(d.distance <= tol, "case {case}: {}", d.distance);
        } else if centre_in {
            inside += 1;
            assert_eq!(i.intersecting, Some(true), "case {case}");
            assert!(i.witness.is_none());
            let p = pm.inverse_transform_point(i.inside_point.unwrap());
            assert_ne!(mesh.locate(p), MeshLocation::Outside);
            assert_eq!(d.distance, 0.0);
        } else {
            apart += 1;
            assert_eq!(i.intersecting, Some(false), "case {case}");
            for (t, v) in &i.separated {
                let [p, q, r] = mesh.triangle(*t).unwrap();
                let tri = Triangle::new(p, q, r).unwrap();
                let tol = tolerance_for(&tri, &pm, &shape, &ps);
                verify(&tri, &pm, &shape, &ps, v, tol).unwrap();
            }
            assert!(
                (d.distance - min_d).abs() <= 1e-9 * min_d.max(1.0),
                "case {case}: {} vs brute {min_d}",
                d.distance
            );
        }
    }
    assert!(
        inside > 5 && crossing > 50 && apart > 50,
        "{inside} {crossing} {apart}"
    );
}

/// `verify_mesh_intersection` rejects each way a mesh–convex answer can be wrong: a verdict
/// flipped, a separated triangle dropped from the list, a witness replaced by another
/// triangle's, an inside point moved, a triangle index out of range, an undetermined answer.
#[test]
fn mesh_check_rejects_tampered_answers() {
    let mesh = two_octahedra();
    let o = Options::default();
    let pm = Pose3::new(
        DVec3::new(0.3, -0.2, 0.1),
        random_quat(&mut case_rng(0x3E55, 0)),
    )
    .unwrap();
    let at = |p: DVec3| {
        Pose3::new(pm.transform_point(p), random_quat(&mut case_rng(0x3E55, 1))).unwrap()
    };
    let check = |s: &Shape3, ps: &Pose3, r: &MeshIntersection| {
        verify_mesh_intersection(&mesh, &pm, s, ps, r)
    };
    let ball = |r: f64| Shape3::Sphere(Ball::new(r).unwrap());

    // Apart, 0.29 off the first octahedron's (+x, +y, +z) face: the triangles whose boxes
    // overlap the ball's listed as separated.
    let (s, ps) = (ball(0.1), at(DVec3::new(0.9, 0.3, 0.3)));
    let apart = mesh_convex_intersects(&mesh, &pm, &s, &ps, &o);
    assert_eq!(apart.intersecting, Some(false));
    assert!(!apart.separated.is_empty());
    assert_eq!(check(&s, &ps, &apart), Ok(()));
    let mut dropped = apart.clone();
    let (t0, _) = dropped.separated.remove(0);
    assert_eq!(
        check(&s, &ps, &dropped),
        Err(MeshCheckError::Uncovered { triangle: t0 })
    );
    let mut flipped = apart.clone();
    flipped.intersecting = Some(true);
    assert_eq!(check(&s, &ps, &flipped), Err(MeshCheckError::NoCertificate));
    let mut out_of_range = apart.clone();
    out_of_range.separated[0].0 = 99;
    assert_eq!(
        check(&s, &ps, &out_of_range),
        Err(MeshCheckError::Triangle {
            triangle: 99,
            error: None
        })
    );
    let mut undetermined = apart.clone();
    undetermined.intersecting = None;
    assert_eq!(
        check(&s, &ps, &undetermined),
        Err(MeshCheckError::NoCertificate)
    );

    // Crossing the surface: a witness triangle with a common point.
    let (s, ps) = (ball(0.3), at(DVec3::new(0.9, 0.3, 0.3)));
    let crossing = mesh_convex_intersects(&mesh, &pm, &s, &ps, &o);
    assert_eq!(crossing.intersecting, Some(true));
    let (tw, _) = crossing.witness.unwrap();
    assert_eq!(check(&s, &ps, &crossing), Ok(()));
    let mut flipped = crossing.clone();
    flipped.intersecting = Some(false);
    assert!(check(&s, &ps, &flipped).is_err());
    // Another triangle's separation certificate passed off as the witness.
    let (ts, vs) = apart.separated[0];
    let mut swapped = crossing.clone();
    swapped.witness = Some((ts, vs));
    assert!(
        check(&s, &ps, &swapped).is_err(),
        "witness {tw} replaced by {ts}"
    );

    // Wholly inside: the shape's centre is the certificate.
    let (s, ps) = (ball(0.1), at(DVec3::new(0.1, 0.05, 0.0)));
    let inside = mesh_convex_intersects(&mesh, &pm, &s, &ps, &o);
    assert_eq!(inside.intersecting, Some(true));
    assert!(inside.witness.is_none() && inside.inside_point.is_some());
    assert_eq!(check(&s, &ps, &inside), Ok(()));
    let mut moved = inside.clone();
    moved.inside_point = Some(inside.inside_point.unwrap() + DVec3::splat(1e-3));
    assert_eq!(check(&s, &ps, &moved), Err(MeshCheckError::NotInside));
    // The shape inside is separated from every triangle, each with a valid certificate: only
    // the centre's location tells "inside" from "apart".
    let separated = (0..mesh.triangles().len())
        .map(|t| {
            let [p, q, r] = mesh.triangle(t).unwrap();
            let tri = Triangle::new(p, q, r).unwrap();
            (t, gjk::intersects(&tri, &pm, &s, &ps, &o, None).verdict)
        })
        .collect();
    let claimed_apart = MeshIntersection {
        intersecting: Some(false),
        witness: None,
        inside_point: None,
        separated,
    };
    assert_eq!(
        check(&s, &ps, &claimed_apart),
        Err(MeshCheckError::CentreInside)
    );
}

#[cfg(feature = "io")]
#[test]
fn parts_from_a_mesh_file_form_a_compound() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/meshes/multi.obj");
    let Ok(convexity::primitives::io::Loaded::Parts(parts)) =
        convexity::primitives::io::load(&path, convexity::primitives::io::LoadAs::Parts)
    else {
        panic!("parts expected");
    };
    let c = Compound::from_point_sets(parts.iter().map(|p| p.points.as_slice())).unwrap();
    assert_eq!(c.parts().len(), 3);
    // A small ball just above the tetrahedron's apex (3, 0, 1): distance 0.5 - 0.25.
    let ball = Compound::single(Shape3::Sphere(Ball::new(0.25).unwrap())).unwrap();
    let pb = Pose3::from_translation(DVec3::new(3.0, 0.0, 1.5)).unwrap();
    let d = distance(&c, &Pose3::IDENTITY, &ball, &pb, &Options::default());
    assert!((d.distance - 0.25).abs() < 1e-12, "{}", d.distance);
    assert_eq!(d.closest.unwrap().part_a, 1);
}

/// Regression (fuzz `mesh_convex`): a shape within the touch tolerance of a face but whose box
/// misses every triangle's box (a point 1e-13 above the top face of a cube) was answered
/// "separated" with no triangle tested, while its distance, 1e-13, is a touch; touching counts
/// as intersecting, so the boolean answer must say so, with a triangle's common point.
#[test]
fn mesh_convex_touch_within_tolerance_of_a_face_intersects() {
    let v = vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
        DVec3::new(1.0, 0.0, 1.0),
        DVec3::new(1.0, 1.0, 1.0),
        DVec3::new(0.0, 1.0, 1.0),
    ];
    let t = vec![
        [0, 2, 1],
        [0, 3, 2],
        [4, 5, 6],
        [4, 6, 7],
        [0, 1, 5],
        [0, 5, 4],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 0, 4],
        [3, 4, 7],
    ];
    let mesh = TriMesh::new(v, t).unwrap();
    let o = Options::default();
    for (offset, gap) in [(0.0, 1e-13), (0.0, 0.0), (1e6, 1e-10), (0.0, -1e-13)] {
        let pm = Pose3::from_translation(DVec3::splat(offset)).unwrap();
        for shape in [
            Shape3::Sphere(Ball::new(0.0).unwrap()),
            Shape3::Points(Points::new(&[DVec3::ZERO]).unwrap()),
            Shape3::Cuboid(Cuboid::new(DVec3::new(0.1, 0.1, 0.0)).unwrap()),
        ] {
            let ps = Pose3::from_translation(DVec3::new(0.3, 0.6, 1.0 + gap) + offset).unwrap();
            let i = mesh_convex_intersects(&mesh, &pm, &shape, &ps, &o);
            let d = mesh_convex_distance(&mesh, &pm, &shape, &ps, &o);
            assert_eq!(
                i.intersecting,
                Some(true),
                "offset {offset} gap {gap}: {i:?}"
            );
            assert_eq!(
                verify_mesh_intersection(&mesh, &pm, &shape, &ps, &i),
                Ok(()),
                "offset {offset} gap {gap}"
            );
            // The distance agrees: a touching closest triangle, or the centre on the surface.
            match &d.closest {
                Some((_, r)) => assert_eq!(r.verdict.intersecting(), Some(true), "{d:?}"),
                None => assert!(d.inside_point.is_some() && d.distance == 0.0, "{d:?}"),
            }
        }
    }
}

/// Regression (the mesh case's twin): two compounds whose parts touch within the touch
/// tolerance but whose boxes are disjoint by less than it (boxes 1e-10 apart at an offset of
/// 1e6, below the rounding of the coordinates there) were "separated" with no pair tested;
/// touching counts as intersecting, and the pair's own GJK test says so.
#[test]
fn compound_touch_within_tolerance_with_disjoint_boxes_intersects() {
    let part = || Shape3::Cuboid(Cuboid::new(DVec3::ONE).unwrap());
    let a = Compound::single(part()).unwrap();
    let b = Compound::single(part()).unwrap();
    let o = Options::default();
    for (offset, gap) in [(1e6, 1e-10), (0.0, 1e-13), (1e6, 0.0)] {
        let pa = Pose3::from_translation(DVec3::splat(offset)).unwrap();
        let pb = Pose3::from_translation(DVec3::new(2.0 + gap, 0.0, 0.0) + offset).unwrap();
        let direct = gjk::intersects(&part(), &pa, &part(), &pb, &o, None);
        let r = intersects(&a, &pa, &b, &pb, &o);
        assert_eq!(
            r.intersecting,
            direct.intersecting(),
            "offset {offset} gap {gap}: {r:?}"
        );
        assert_eq!(verify_intersection(&a, &pa, &b, &pb, &r), Ok(()));
        let d = distance(&a, &pa, &b, &pb, &o);
        assert!(d.distance <= direct.tolerance, "{d:?}");
    }
}
