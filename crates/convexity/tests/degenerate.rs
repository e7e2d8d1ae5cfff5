//! GJK on degenerate and exactly touching inputs, against the hull oracle.
//!
//! Single points, two points, segments, collinear and coplanar (flat) hulls, duplicated
//! vertices, identical shapes at the same pose, exact touching (vertex–vertex, vertex–face,
//! edge–edge, face–face, proved exact with `robust` predicates), offsets to 1e6 (through
//! the coordinates and through the poses), and size ratios of 1e4 and 1e6. Every pair goes
//! through `convexity_testkit::check_gjk_pair`, which also asserts that no query on a polytope
//! ends at the iteration limit. The two reference tetrahedron cases are checked exactly.

use convexity::gjk::{distance, intersects, Options};
use convexity::{verify, DQuat, DVec3, Points, Pose3, Status, SupportMap, Verdict};
use convexity_testkit::analytic::segment_segment;
use convexity_testkit::degenerate::{
    all_equal, collinear, collinear_axis, coplanar, shuffle, single_point, two_points,
    with_duplicates,
};
use convexity_testkit::gen3::{
    box_corners3, random_hull3, random_pose3, random_quat, sphere_points, unit_vector3,
};
use convexity_testkit::predicates::{collinear3, coplanar as exactly_coplanar, orient3d, Sign};
use convexity_testkit::rng::{case_rng, Rng};
use convexity_testkit::{check_gjk_pair, place_in_regime, CheckOptions, CheckReport, Regime};

fn pts(v: &[DVec3]) -> Points<DVec3> {
    Points::new(v).unwrap()
}

fn v3(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// Checks the pair as given, with both hulls' coordinates shifted by each offset, and with
/// both poses translated by each offset. Offsets are integers, so dyadic inputs stay exact.
fn check_offsets(name: &str, a: &[DVec3], b: &[DVec3]) -> Vec<CheckReport> {
    let opts = CheckOptions::default();
    let mut out = Vec::new();
    for off in [0.0, 1e3, 1e6, -1e6] {
        let o = DVec3::splat(off);
        let sa: Vec<DVec3> = a.iter().map(|p| *p + o).collect();
        let sb: Vec<DVec3> = b.iter().map(|p| *p + o).collect();
        let id = Pose3::IDENTITY;
        let r = check_gjk_pair(&pts(&sa), &id, &pts(&sb), &id, &opts)
            .unwrap_or_else(|e| panic!("{name}, coordinates offset {off:e}: {e}"));
        out.push(r);
        let p = Pose3::from_translation(o).unwrap();
        let r = check_gjk_pair(&pts(a), &p, &pts(b), &p, &opts)
            .unwrap_or_else(|e| panic!("{name}, poses offset {off:e}: {e}"));
        out.push(r);
    }
    out
}

/// `check_offsets`, and the result must be intersecting every time.
fn check_touching(name: &str, a: &[DVec3], b: &[DVec3]) {
    for r in check_offsets(name, a, b) {
        assert_eq!(r.intersecting, Some(true), "{name}: {r:?}");
    }
}

fn tetra_a() -> Vec<DVec3> {
    vec![
        v3(0., 1., 0.),
        v3(1., 0., 0.),
        v3(0., 0., 1.),
        v3(0., 0., 0.),
    ]
}

#[test]
fn reference_tetrahedra_touching_at_vertex_1_0_0() {
    let a = pts(&tetra_a());
    let b1 = pts(&[
        v3(1., 0., 0.),
        v3(2., -2., 0.),
        v3(0., -2., 2.),
        v3(0., -2., 0.),
    ]);
    let id = Pose3::IDENTITY;
    let o = Options::default();
    let d = distance(&a, &id, &b1, &id, &o, None);
    assert_eq!(d.status, Status::Converged, "{d:?}");
    assert_eq!(d.distance, 0.0, "{d:?}");
    match d.verdict {
        Verdict::Intersecting(c) => assert!((c.point - DVec3::X).length() <= 1e-12, "{d:?}"),
        v => panic!("expected intersecting, got {v:?}"),
    }
    assert!((d.point_a - DVec3::X).length() <= 1e-12 && (d.point_b - DVec3::X).length() <= 1e-12);
    verify(&a, &id, &b1, &id, &d.verdict, 1e-12).unwrap();
    let i = intersects(&a, &id, &b1, &id, &o, None);
    assert_eq!(i.intersecting(), Some(true), "{i:?}");
    verify(&a, &id, &b1, &id, &i.verdict, 1e-12).unwrap();
    // The same with the roles swapped.
    let d = distance(&b1, &id, &a, &id, &o, None);
    assert_eq!(d.distance, 0.0, "{d:?}");
    assert_eq!(d.intersecting(), Some(true));
    assert!((d.point_a - DVec3::X).length() <= 1e-12, "{d:?}");
}

#[test]
fn reference_tetrahedra_separated_by_exactly_1() {
    let a = pts(&tetra_a());
    let b2 = pts(&[
        v3(1., -1., 0.),
        v3(2., -2., 0.),
        v3(0., -2., 2.),
        v3(0., -2., 0.),
    ]);
    let id = Pose3::IDENTITY;
    let o = Options::default();
    let d = distance(&a, &id, &b2, &id, &o, None);
    assert_eq!(d.status, Status::Converged, "{d:?}");
    assert!((d.distance - 1.0).abs() <= 1e-12, "{d:?}");
    assert!((d.point_a - v3(1., 0., 0.)).length() <= 1e-12, "{d:?}");
    assert!((d.point_b - v3(1., -1., 0.)).length() <= 1e-12, "{d:?}");
    assert!((d.normal - v3(0., -1., 0.)).length() <= 1e-12, "{d:?}");
    match d.verdict {
        Verdict::Separated(s) => assert!(s.gap <= 1.0 + 1e-12 && s.gap >= 1.0 - 1e-12, "{s:?}"),
        v => panic!("expected separated, got {v:?}"),
    }
    verify(&a, &id, &b2, &id, &d.verdict, 1e-12).unwrap();
    let i = intersects(&a, &id, &b2, &id, &o, None);
    assert_eq!(i.intersecting(), Some(false), "{i:?}");
    verify(&a, &id, &b2, &id, &i.verdict, 1e-12).unwrap();
    let d = distance(&b2, &id, &a, &id, &o, None);
    assert!((d.distance - 1.0).abs() <= 1e-12, "{d:?}");
    assert!((d.point_a - v3(1., -1., 0.)).length() <= 1e-12, "{d:?}");
    assert!((d.point_b - v3(1., 0., 0.)).length() <= 1e-12, "{d:?}");
}

#[test]
fn reference_tetrahedra_at_offsets_and_rigid_motions() {
    let b1 = vec![
        v3(1., 0., 0.),
        v3(2., -2., 0.),
        v3(0., -2., 2.),
        v3(0., -2., 0.),
    ];
    let b2 = vec![
        v3(1., -1., 0.),
        v3(2., -2., 0.),
        v3(0., -2., 2.),
        v3(0., -2., 0.),
    ];
    check_touching("tetrahedra touching", &tetra_a(), &b1);
    for r in check_offsets("tetrahedra separated", &tetra_a(), &b2) {
        assert_eq!(r.intersecting, Some(false));
        assert!((r.gjk_distance - 1.0).abs() <= 1e-12, "{r:?}");
    }
    let mut rng = case_rng(7, 0);
    for case in 0..50 {
        let pose = random_pose3(&mut rng, 1e3);
        let opts = CheckOptions::default();
        let r = check_gjk_pair(&pts(&tetra_a()), &pose, &pts(&b2), &pose, &opts)
            .unwrap_or_else(|e| panic!("rigid motion {case}: {e}"));
        assert!((r.gjk_distance - 1.0).abs() <= 1e-9, "{r:?}");
        let r = check_gjk_pair(&pts(&tetra_a()), &pose, &pts(&b1), &pose, &opts)
            .unwrap_or_else(|e| panic!("rigid motion {case}: {e}"));
        assert_eq!(r.intersecting, Some(true));
    }
}

#[test]
fn single_points() {
    let p = v3(0.5, -0.25, 2.0);
    let q = v3(3.5, 3.75, 2.0);
    for r in check_offsets("point vs point", &single_point(p), &single_point(q)) {
        assert!((r.gjk_distance - 5.0).abs() <= 1e-12, "{r:?}");
    }
    check_touching("point vs same point", &single_point(p), &single_point(p));
    check_touching("all-equal vs point", &all_equal(p, 9), &single_point(p));
    check_touching("all-equal vs all-equal", &all_equal(p, 5), &all_equal(p, 7));
    let t = tetra_a();
    check_touching("point at a vertex", &single_point(v3(0., 0., 1.)), &t);
    check_touching("point on a face", &single_point(v3(0.25, 0.25, 0.5)), &t);
    check_touching("point on an edge", &single_point(v3(0.5, 0.5, 0.)), &t);
    check_touching("point inside", &single_point(v3(0.125, 0.125, 0.125)), &t);
    for r in check_offsets("point outside a face", &single_point(v3(1., 1., 1.)), &t) {
        assert!((r.gjk_distance - 2.0 / 3f64.sqrt()).abs() <= 1e-12, "{r:?}");
    }
    for r in check_offsets("all-equal outside", &all_equal(v3(-1., -2., 0.), 6), &t) {
        assert!((r.gjk_distance - 5f64.sqrt()).abs() <= 1e-12, "{r:?}");
    }
}

#[test]
fn two_point_hulls_match_segment_segment() {
    let mut rng = case_rng(0x5E6, 0);
    let opts = CheckOptions::default();
    for case in 0..300 {
        let c = DVec3::new(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0), 0.0);
        let (la, lb) = (rng.gen_range(0.1..3.0), rng.gen_range(0.1..3.0));
        let a = two_points(&mut rng, DVec3::ZERO, la);
        let mut b = two_points(&mut rng, c, lb);
        if case % 4 == 0 {
            // Parallel segments.
            let d = a[1] - a[0];
            b = vec![c, c + d * rng.gen_range(-1.5..1.5)];
        }
        let (exact, _, _) = segment_segment(a[0], a[1], b[0], b[1]);
        let r = check_gjk_pair(
            &pts(&a),
            &Pose3::IDENTITY,
            &pts(&b),
            &Pose3::IDENTITY,
            &opts,
        )
        .unwrap_or_else(|e| panic!("segments {case}: {e}"));
        let scale = pts(&a).size() + pts(&b).size();
        assert!(
            (r.gjk_distance - exact).abs() <= 1e-9 * scale,
            "segments {case}: gjk {} analytic {exact}",
            r.gjk_distance
        );
        assert!(
            (r.oracle_distance - exact).abs() <= 1e-12 * scale,
            "oracle vs analytic {case}"
        );
    }
}

#[test]
fn collinear_hulls() {
    let mut rng = case_rng(0xC011, 0);
    // Overlapping collinear sets on one line: touching (1D overlap).
    let a = collinear_axis(&mut rng, 9, 2.0, DVec3::ZERO);
    let b = collinear_axis(&mut rng, 7, 2.0, v3(0.5, 0., 0.));
    check_offsets("collinear on one line", &a, &b);
    // Collinear end to end, exactly touching.
    check_touching(
        "collinear end to end",
        &[v3(-1., 0., 0.), v3(0., 0., 0.), v3(-0.5, 0., 0.)],
        &[v3(0., 0., 0.), v3(2., 0., 0.), v3(1.5, 0., 0.)],
    );
    // Parallel lines at distance 0.5.
    let b = collinear_axis(&mut rng, 7, 2.0, v3(0.25, 0.5, 0.));
    for r in check_offsets("parallel collinear", &a, &b) {
        assert!((r.gjk_distance - 0.5).abs() <= 1e-12, "{r:?}");
    }
    // Random collinear sets against solids and each other.
    let opts = CheckOptions::default();
    for case in 0..100 {
        let p = DVec3::new(
            rng.gen_range(-2.0..2.0),
            rng.gen_range(-2.0..2.0),
            rng.gen_range(-2.0..2.0),
        );
        let q = p + unit_vector3(&mut rng) * rng.gen_range(0.1..3.0);
        let n = rng.gen_range(2..12);
        let a = collinear(&mut rng, n, p, q);
        let b = if case % 2 == 0 {
            random_hull3(&mut rng, 4..=30, 0.5..=2.0)
        } else {
            let p2 = DVec3::new(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0), 0.0);
            let u = unit_vector3(&mut rng);
            collinear(&mut rng, 5, p2, p2 + u)
        };
        check_gjk_pair(
            &pts(&a),
            &Pose3::IDENTITY,
            &pts(&b),
            &Pose3::IDENTITY,
            &opts,
        )
        .unwrap_or_else(|e| panic!("collinear {case}: {e}"));
    }
}

#[test]
fn flat_hulls() {
    let mut rng = case_rng(0xF1A7, 0);
    let id = DQuat::IDENTITY;
    // Two squares in parallel planes z = 0 and z = 0.25: face–face at distance 0.25.
    let a = coplanar(&mut rng, 12, 1.0, id, DVec3::ZERO);
    let b = coplanar(&mut rng, 12, 1.0, id, v3(0.125, -0.25, 0.25));
    assert!(exactly_coplanar(&a) && exactly_coplanar(&b));
    for r in check_offsets("parallel flat hulls", &a, &b) {
        assert!((r.gjk_distance - 0.25).abs() <= 1e-12, "{r:?}");
    }
    // The same plane, overlapping: touching in 2D.
    let b = coplanar(&mut rng, 12, 1.0, id, v3(0.5, 0.25, 0.0));
    check_touching("coplanar overlapping flat hulls", &a, &b);
    // A flat hull lying exactly on a box face.
    let bx = box_corners3(v3(1.0, 1.0, 0.5));
    let on_top = coplanar(&mut rng, 8, 0.75, id, v3(0.5, 0.0, 0.5));
    check_touching("flat hull on a box face", &bx, &on_top);
    // Random rotated flat hulls against each other and against solids.
    let opts = CheckOptions::default();
    for case in 0..150 {
        let ra = random_quat(&mut rng);
        let rb = if case % 3 == 0 {
            ra
        } else {
            random_quat(&mut rng)
        };
        let (na, nb) = (rng.gen_range(3..20), rng.gen_range(3..20));
        let a = coplanar(&mut rng, na, 1.0, ra, DVec3::ZERO);
        let off = unit_vector3(&mut rng) * rng.gen_range(0.0..2.5);
        let b = if case % 2 == 0 {
            coplanar(&mut rng, nb, 1.0, rb, off)
        } else {
            random_hull3(&mut rng, 4..=30, 0.5..=1.5)
                .iter()
                .map(|p| *p + off)
                .collect()
        };
        check_gjk_pair(
            &pts(&a),
            &Pose3::IDENTITY,
            &pts(&b),
            &Pose3::IDENTITY,
            &opts,
        )
        .unwrap_or_else(|e| panic!("flat {case}: {e}"));
    }
}

#[test]
fn duplicated_vertices_do_not_change_the_answer() {
    let mut rng = case_rng(0xD0B, 0);
    let opts = CheckOptions::default();
    for case in 0..150 {
        let a = random_hull3(&mut rng, 4..=30, 0.5..=2.0);
        let b = random_hull3(&mut rng, 4..=30, 0.5..=2.0);
        let pose_a = random_pose3(&mut rng, 5.0);
        let regime = Regime::ALL[case % Regime::ALL.len()];
        let (pa, pb) = (pts(&a), pts(&b));
        let (rot, u) = (random_quat(&mut rng), unit_vector3(&mut rng));
        let pl = place_in_regime(&mut rng, &pa, &pose_a, &pb, rot, u, regime);
        let (ka, kb) = (rng.gen_range(1..40), rng.gen_range(1..40));
        let da = with_duplicates(&mut rng, &a, ka);
        let db = with_duplicates(&mut rng, &b, kb);
        let plain = check_gjk_pair(&pa, &pose_a, &pb, &pl.pose_b, &opts)
            .unwrap_or_else(|e| panic!("plain {case}: {e}"));
        let dup = check_gjk_pair(&pts(&da), &pose_a, &pts(&db), &pl.pose_b, &opts)
            .unwrap_or_else(|e| panic!("duplicated {case}: {e}"));
        let scale = pa.size() + pb.size();
        assert!(
            (plain.gjk_distance - dup.gjk_distance).abs() <= 2e-9 * scale,
            "{case}"
        );
    }
}

#[test]
fn identical_shapes_at_the_same_pose() {
    let mut rng = case_rng(0x1D, 0);
    let opts = CheckOptions::default();
    for case in 0..100 {
        let a = match case % 3 {
            0 => random_hull3(&mut rng, 4..=64, 0.5..=2.0),
            1 => {
                let q = random_quat(&mut rng);
                coplanar(&mut rng, 10, 1.0, q, DVec3::ZERO)
            }
            _ => two_points(&mut rng, DVec3::ZERO, 1.0),
        };
        let pose = random_pose3(&mut rng, if case % 2 == 0 { 10.0 } else { 1e6 });
        let r = check_gjk_pair(&pts(&a), &pose, &pts(&a), &pose, &opts)
            .unwrap_or_else(|e| panic!("identical {case}: {e}"));
        assert_eq!(r.intersecting, Some(true), "identical {case}: {r:?}");
        assert!(r.gjk_distance <= 1e-12, "identical {case}: {r:?}");
    }
}

/// Regression: a single point and the same point, at the same rotated pose, are one point.
/// `pose_a.relative(pose_b)` of two equal poses is not exactly the identity (`q̄·q` rounds),
/// which moves the copy by ~1e-17; with a zero-size pair (zero tolerance) GJK used to answer
/// `Separated` with a gap of ~1e-17. Fixed by the 4ε × magnitude tolerance floor (503b931).
#[test]
fn identical_single_points_at_the_same_rotated_pose_intersect() {
    let mut rng = case_rng(0x1E, 0);
    let mut bad = Vec::new();
    for case in 0..100 {
        let p = unit_vector3(&mut rng);
        let a = pts(&single_point(p));
        let pose = random_pose3(&mut rng, 10.0);
        let d = distance(&a, &pose, &a, &pose, &Options::default(), None);
        if d.intersecting() != Some(true) || d.distance > d.tolerance {
            bad.push(format!(
                "case {case}: {:?} distance {:e}",
                d.verdict, d.distance
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of 100 wrong; first: {:?}",
        bad.len(),
        &bad[..bad.len().min(3)]
    );
}

#[test]
fn exact_touching_vertex_vertex() {
    let a = tetra_a();
    let b = vec![
        v3(1., 0., 0.),
        v3(2., 0., 0.),
        v3(2., 1., 0.),
        v3(2., 0., 1.),
    ];
    check_touching("vertex-vertex", &a, &b);
}

#[test]
fn exact_touching_vertex_face() {
    // B's apex (0.25, 0.25, 0.5) lies on A's face x + y + z = 1.
    let a = tetra_a();
    let apex = v3(0.25, 0.25, 0.5);
    assert_eq!(orient3d(a[0], a[1], a[2], apex), Sign::Zero);
    let b = vec![apex, v3(1., 1., 1.), v3(2., 0., 1.), v3(0., 2., 2.)];
    check_touching("vertex-face", &a, &b);
}

#[test]
fn exact_touching_edge_edge() {
    // A's edge (1,0,0)–(0,1,0) crosses B's edge (0.5,0.5,−1)–(0.5,0.5,1) at (0.5,0.5,0).
    let a = tetra_a();
    let b = vec![
        v3(0.5, 0.5, -1.),
        v3(0.5, 0.5, 1.),
        v3(2., 2., 0.),
        v3(2., 2., 1.),
    ];
    assert_eq!(orient3d(a[0], a[1], b[0], b[1]), Sign::Zero);
    assert!(!collinear3(a[0], a[1], b[0]));
    check_touching("edge-edge", &a, &b);
}

#[test]
fn exact_touching_face_face() {
    // Two boxes sharing part of the plane x = 1.
    let a = box_corners3(v3(1., 1., 1.));
    let b: Vec<DVec3> = box_corners3(v3(0.5, 0.75, 0.5))
        .iter()
        .map(|p| *p + v3(1.5, 0.5, -0.25))
        .collect();
    let face_a: Vec<DVec3> = a.iter().copied().filter(|p| p.x == 1.0).collect();
    let face_b: Vec<DVec3> = b.iter().copied().filter(|p| p.x == 1.0).collect();
    assert!(face_a.len() == 4 && face_b.len() == 4);
    let mut both = face_a.clone();
    both.extend(&face_b);
    assert!(exactly_coplanar(&both));
    check_touching("face-face", &a, &b);
    // Face to face, separated by 2^-30 (≈ 9.3e-10, about 3 tolerances).
    let g = (2.0f64).powi(-30);
    let b: Vec<DVec3> = b.iter().map(|p| *p + v3(g, 0., 0.)).collect();
    let opts = CheckOptions {
        require_decided: false,
        ..CheckOptions::default()
    };
    let id = Pose3::IDENTITY;
    let r = check_gjk_pair(&pts(&a), &id, &pts(&b), &id, &opts).unwrap();
    assert!((r.gjk_distance - g).abs() <= 1e-9 * 4.0, "{r:?}");
}

/// Regression: face-to-face boxes 2^-30 apart (≈ 3.3× the tolerance) are separated, and the
/// library must say so with a certificate. Failed up to 66a5e0c (verdict `Undetermined`,
/// status `Converged`, lower bound ≈ −3e-7: the closest point of a triangle simplex carried a
/// rounding tilt of ε·|w|/d); fixed by the cross-product normal of 7779ee5.
#[test]
fn face_to_face_boxes_three_tolerances_apart_are_certified_separated() {
    let a = pts(&box_corners3(v3(1., 1., 1.)));
    let b = pts(&box_corners3(v3(0.5, 0.75, 0.5)));
    let g = (2.0f64).powi(-30);
    let id = Pose3::IDENTITY;
    let pb = Pose3::from_translation(v3(1.5 + g, 0.5, -0.25)).unwrap();
    let d = distance(&a, &id, &b, &pb, &Options::default(), None);
    assert!((d.distance - g).abs() <= 1e-15, "{d:?}");
    assert!(d.tolerance < g / 3.0, "{d:?}");
    assert_eq!(d.intersecting(), Some(false), "{d:?}");
    let i = intersects(&a, &id, &b, &pb, &Options::default(), None);
    assert_eq!(i.intersecting(), Some(false), "{i:?}");
}

/// Regression: a box edge against a tetrahedron vertex (a vertex–edge contact, whose closest
/// feature on the Minkowski difference is an edge), 2.9 to 23 tolerances apart, in generic
/// orientations. Fails today (7779ee5): about 45% of the cases end `Undetermined` with status
/// `Converged` and a lower bound of about −1e-7, because the closest point of a segment
/// simplex, `a + t·(b − a)`, keeps a rounding component of ε·|a| along the segment, which
/// tilts the search direction by ε·|a|/d (see the report).
#[test]
fn box_edge_to_tetrahedron_vertex_a_few_tolerances_apart_is_certified_separated() {
    let cube = box_corners3(v3(1., 1., 1.));
    let mut rng = case_rng(0xED6E, 0);
    let mut bad = Vec::new();
    let mut total = 0;
    for rep in 0..100 {
        let q = random_quat(&mut rng);
        let a = pts(&cube.iter().map(|p| q * *p).collect::<Vec<_>>());
        for k in [-31, -30, -29, -28] {
            // The apex sits off the edge x = y = 1 by g along (1, 1, 0): distance g·√2.
            let g = 2f64.powi(k);
            let p = v3(1.0 + g, 1.0 + g, 0.3);
            let tet = [
                p,
                p + v3(0.5, 0.5, 0.4),
                p + v3(0.5, 0.5, -0.4),
                p + v3(0.75, 0.25, 0.),
            ];
            let b = pts(&tet.iter().map(|x| q * *x).collect::<Vec<_>>());
            let id = Pose3::IDENTITY;
            let d = distance(&a, &id, &b, &id, &Options::default(), None);
            let i = intersects(&a, &id, &b, &id, &Options::default(), None);
            total += 1;
            assert!(g * 2f64.sqrt() > 2.5 * d.tolerance, "{d:?}");
            if d.intersecting() != Some(false) || i.intersecting() != Some(false) {
                bad.push(format!(
                    "rotation {rep}, gap 2^{k}: distance {:e}, lower bound {:e}, {:?} / {:?}",
                    d.distance, d.lower_bound, d.verdict, i.verdict
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {total} not certified separated; first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(3)]
    );
}

#[test]
fn size_ratios_1e4_and_1e6() {
    let opts = CheckOptions::default();
    let mut fallbacks = 0;
    for (k, ratio) in [1e4, 1e6].into_iter().enumerate() {
        let mut rng = case_rng(0x512E, k as u64);
        for case in 0..100 {
            let huge = random_hull3(&mut rng, 8..=64, 0.8..=1.2);
            let tiny: Vec<DVec3> = random_hull3(&mut rng, 4..=20, 0.8..=1.2)
                .iter()
                .map(|p| *p / ratio)
                .collect();
            let (ph, pt) = (pts(&huge), pts(&tiny));
            let pose_h = random_pose3(&mut rng, if case % 2 == 0 { 1.0 } else { 1e6 });
            let regime = Regime::ALL[case % Regime::ALL.len()];
            let (rot, u) = (random_quat(&mut rng), unit_vector3(&mut rng));
            let pl = place_in_regime(&mut rng, &ph, &pose_h, &pt, rot, u, regime);
            let (a, pa, b, pb) = if case % 3 == 0 {
                (&pt, pl.pose_b, &ph, pose_h)
            } else {
                (&ph, pose_h, &pt, pl.pose_b)
            };
            match check_gjk_pair(a, &pa, b, &pb, &opts) {
                Ok(_) => {}
                // The SOCP oracle cannot close its bracket for a vertex–vertex touch between a
                // 1e-4 hull and a unit hull at 1e6 (the dual direction of a 2e-12 gap is noise).
                // The placement itself is then the oracle: it states the exact gap up to the
                // rounding of world coordinates.
                Err(e) if e.starts_with("oracle answer not verified") => {
                    let exact = pl
                        .exact_distance
                        .unwrap_or_else(|| panic!("case {case}: {e}"));
                    let d = distance(a, &pa, b, &pb, &Options::default(), None);
                    let magnitude = pa.translation().length() + pb.translation().length() + 2.0;
                    let eps = 1e-9 * (a.size() + b.size()) + 8.0 * f64::EPSILON * magnitude;
                    assert!(
                        (d.distance - exact).abs() <= eps,
                        "ratio {ratio:e}, case {case}: {} vs placement {exact}",
                        d.distance
                    );
                    verify(a, &pa, b, &pb, &d.verdict, d.tolerance)
                        .unwrap_or_else(|err| panic!("ratio {ratio:e}, case {case}: {err:?}"));
                    fallbacks += 1;
                }
                Err(e) => panic!("ratio {ratio:e}, case {case} ({}): {e}", regime.name()),
            }
        }
    }
    // The fallback is for the oracle's rare blind spot, not a way around it.
    // (5 of 200 when written: all touching pairs at offset 1e6.)
    assert!(
        fallbacks <= 10,
        "{fallbacks} of 200 cases without a verified oracle"
    );
}

#[test]
fn tiny_hull_touching_a_huge_one_at_a_vertex_and_a_face() {
    let big = box_corners3(v3(1., 1., 1.));
    for ratio in [1e4, 1e6] {
        let s = 1.0 / ratio;
        // A tiny tetrahedron with its apex on the big box's face x = 1.
        let apex = v3(1., 0.25, -0.5);
        let tiny: Vec<DVec3> = vec![
            apex,
            apex + v3(s, 0., 0.),
            apex + v3(s, s, 0.),
            apex + v3(s, 0., s),
        ];
        check_touching(&format!("tiny on a face, ratio {ratio:e}"), &big, &tiny);
        // A tiny tetrahedron touching the big box's corner (1, 1, 1).
        let c = v3(1., 1., 1.);
        let tiny: Vec<DVec3> = vec![c, c + v3(s, s, 0.), c + v3(s, 0., s), c + v3(0., s, s)];
        check_touching(&format!("tiny at a corner, ratio {ratio:e}"), &big, &tiny);
    }
}

#[test]
fn shuffled_sphere_hulls_at_offsets() {
    let mut rng = case_rng(0x5F, 0);
    for case in 0..20 {
        let mut a = sphere_points(&mut rng, 40, 1.0);
        shuffle(&mut rng, &mut a);
        let b: Vec<DVec3> = sphere_points(&mut rng, 30, 0.5)
            .iter()
            .map(|p| *p + v3(1.75, 0.0, 0.0))
            .collect();
        let reports = check_offsets(&format!("sphere hulls {case}"), &a, &b);
        assert!(reports.iter().all(|r| r.status != Status::IterationLimit));
    }
}
