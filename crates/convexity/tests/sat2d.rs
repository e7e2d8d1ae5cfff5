//! SAT for convex polygons: agreement with GJK (verdict, gap ≤ distance) and EPA (depth and
//! axis), certificate checks, the separating-edge cache, degenerate polygons, metamorphic
//! properties (swap, rigid motion, offset 1e6, size ratio 1e4) and exact touching.

use convexity::gjk::epa::{penetration, Context, Options as EpaOptions};
use convexity::polytope::sat2d::{sat, SatCache};
use convexity::query;
use convexity::*;
use convexity_testkit::gen2::{circle_points, random_hull2, random_pose2, rect_corners};
use convexity_testkit::hull_oracle::{contact_points_hold, world_points};
use convexity_testkit::rng::rng;

fn poly(v: &[DVec2]) -> ConvexPolygon {
    ConvexPolygon::new(v).unwrap()
}

fn hull_poly(pts: &[DVec2]) -> ConvexPolygon {
    // Monotone chain with exact orientation (independent of the library).
    let mut p: Vec<DVec2> = pts.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return poly(&p);
    }
    let cross = |o: DVec2, a: DVec2, b: DVec2| {
        robust::orient2d(
            robust::Coord { x: o.x, y: o.y },
            robust::Coord { x: a.x, y: a.y },
            robust::Coord { x: b.x, y: b.y },
        )
    };
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let it: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in it {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    poly(&h)
}

fn pose(t: [f64; 2], a: f64) -> Pose2 {
    Pose2::from_angle(t, a).unwrap()
}

#[test]
fn sat_agrees_with_gjk_and_epa_on_random_pairs() {
    let mut r = rng(0x5a72d);
    let mut ctx = Context::new();
    let (mut sep, mut ovl) = (0, 0);
    let mut worst_depth: f64 = 0.0;
    for _ in 0..2000 {
        let a = hull_poly(&random_hull2(&mut r, 3..=12, 0.5..=2.0));
        let b = hull_poly(&random_hull2(&mut r, 3..=12, 0.5..=2.0));
        let pa = random_pose2(&mut r, 2.0);
        let pb = random_pose2(&mut r, 2.0);
        let s = sat(&a, &pa, &b, &pb, None);
        let g = gjk::distance(&a, &pa, &b, &pb, &gjk::Options::default(), None);
        let tol = s.tolerance;
        verify(&a, &pa, &b, &pb, &s.verdict, tol).unwrap();
        match s.verdict {
            Verdict::Separated(c) => {
                sep += 1;
                assert_eq!(g.intersecting(), Some(false));
                assert!(c.gap <= g.distance + tol, "{} > {}", c.gap, g.distance);
                assert!((s.axis.length() - 1.0).abs() < 1e-12);
            }
            Verdict::Intersecting(_) => {
                ovl += 1;
                assert_eq!(g.intersecting(), Some(true));
                let e = penetration(&a, &pa, &b, &pb, &EpaOptions::default(), &mut ctx);
                let err = (e.depth - s.depth()).abs();
                worst_depth = worst_depth.max(err);
                assert!(
                    err <= 1e-9 * (a.size() + b.size()),
                    "epa {} sat {}",
                    e.depth,
                    s.depth()
                );
                if s.depth() > 1e-6 {
                    assert!(e.normal.dot(s.axis) > 1.0 - 1e-6 || err < 1e-9);
                }
            }
            Verdict::Undetermined => panic!("undetermined"),
        }
    }
    assert!(sep > 200 && ovl > 200, "{sep} {ovl}");
    eprintln!("sat vs epa: worst depth difference {worst_depth:e}");
}

#[test]
fn gap_equals_distance_for_parallel_edges() {
    let a = poly(&rect_corners(DVec2::new(1.0, 1.0)));
    let b = poly(&rect_corners(DVec2::new(0.5, 2.0)));
    for gap in [1.0, 1e-3, 1e-8, 2e-9, 5e-10] {
        let s = sat(&a, &Pose2::IDENTITY, &b, &pose([1.5 + gap, 0.3], 0.0), None);
        let tol = s.tolerance;
        if gap > tol {
            assert!(matches!(s.verdict, Verdict::Separated(_)), "gap {gap}");
            assert!(
                (s.separation - gap).abs() < 1e-15 + 1e-15 * gap * 4.0,
                "{}",
                s.separation
            );
            assert_eq!(s.axis, DVec2::X);
        } else {
            assert!(
                matches!(s.verdict, Verdict::Intersecting(_)),
                "gap {gap} tol {tol}"
            );
        }
    }
}

#[test]
fn exact_touching_is_intersecting_with_zero_depth() {
    let a = poly(&rect_corners(DVec2::ONE));
    let b = poly(&rect_corners(DVec2::ONE));
    let s = sat(&a, &Pose2::IDENTITY, &b, &pose([2.0, 0.5], 0.0), None);
    assert!(matches!(s.verdict, Verdict::Intersecting(_)));
    assert_eq!(s.separation, 0.0);
    verify(
        &a,
        &Pose2::IDENTITY,
        &b,
        &pose([2.0, 0.5], 0.0),
        &s.verdict,
        s.tolerance,
    )
    .unwrap();
}

#[test]
fn swap_negates_axis_and_keeps_separation() {
    let mut r = rng(77);
    for _ in 0..300 {
        let a = hull_poly(&random_hull2(&mut r, 3..=8, 0.5..=2.0));
        let b = hull_poly(&random_hull2(&mut r, 3..=8, 0.5..=2.0));
        let pa = random_pose2(&mut r, 2.0);
        let pb = random_pose2(&mut r, 2.0);
        let s1 = sat(&a, &pa, &b, &pb, None);
        let s2 = sat(&b, &pb, &a, &pa, None);
        assert!(
            (s1.separation - s2.separation).abs() < 1e-12,
            "{} {}",
            s1.separation,
            s2.separation
        );
    }
}

#[test]
fn offset_1e6_and_size_ratio_1e4() {
    let mut r = rng(9);
    for _ in 0..200 {
        let a = hull_poly(&random_hull2(&mut r, 3..=8, 0.5..=2.0));
        let b_pts: Vec<DVec2> = random_hull2(&mut r, 3..=8, 0.5..=2.0)
            .iter()
            .map(|p| *p * 1e-4)
            .collect();
        let b = hull_poly(&b_pts);
        let pa = random_pose2(&mut r, 0.5);
        let pb = random_pose2(&mut r, 1.5);
        let off = DVec2::new(1e6, -1e6);
        let pa2 = Pose2::new(pa.translation() + off, pa.rotation()).unwrap();
        let pb2 = Pose2::new(pb.translation() + off, pb.rotation()).unwrap();
        let s1 = sat(&a, &pa, &b, &pb, None);
        let s2 = sat(&a, &pa2, &b, &pb2, None);
        verify(&a, &pa2, &b, &pb2, &s2.verdict, s2.tolerance).unwrap();
        let g = gjk::intersects(&a, &pa, &b, &pb, &gjk::Options::default(), None);
        assert_eq!(s1.verdict.intersecting(), g.intersecting());
        assert!((s1.separation - s2.separation).abs() < 1e-9);
    }
}

#[test]
fn cache_returns_the_same_answer_with_one_axis() {
    let a = poly(&rect_corners(DVec2::new(1.0, 0.5)));
    let b = poly(&[
        DVec2::new(0.0, 0.0),
        DVec2::new(1.0, 0.0),
        DVec2::new(0.2, 0.9),
    ]);
    let mut cache = SatCache::new();
    let mut cached = 0;
    for k in 0..50 {
        let pb = pose([3.0 - 0.04 * k as f64, 0.1], 0.01 * k as f64);
        let c = sat(&a, &Pose2::IDENTITY, &b, &pb, Some(&mut cache));
        let f = sat(&a, &Pose2::IDENTITY, &b, &pb, None);
        assert_eq!(
            c.verdict.intersecting(),
            f.verdict.intersecting(),
            "frame {k}"
        );
        verify(&a, &Pose2::IDENTITY, &b, &pb, &c.verdict, c.tolerance).unwrap();
        if c.status == Status::CachedAxis {
            cached += 1;
            assert_eq!(c.iterations, 1);
        } else {
            assert_eq!(c.separation, f.separation);
        }
    }
    assert!(cached > 20, "{cached}");
    // A cache filled for another pair is ignored.
    let other = poly(&rect_corners(DVec2::ONE));
    let s = sat(
        &other,
        &Pose2::IDENTITY,
        &b,
        &pose([0.5, 0.0], 0.0),
        Some(&mut cache),
    );
    assert_eq!(s.status, Status::Converged);
}

#[test]
fn degenerate_polygons() {
    let seg1 = poly(&[DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0)]);
    let seg2 = poly(&[DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0)]);
    // Collinear disjoint segments: separated along the segment direction.
    let s = sat(&seg1, &Pose2::IDENTITY, &seg2, &pose([1.5, 0.0], 0.0), None);
    match s.verdict {
        Verdict::Separated(c) => assert!((c.gap - 0.5).abs() < 1e-15 && c.axis == DVec2::X),
        v => panic!("{v:?}"),
    }
    // Collinear overlapping segments.
    let s = sat(&seg1, &Pose2::IDENTITY, &seg2, &pose([0.5, 0.0], 0.0), None);
    assert!(matches!(s.verdict, Verdict::Intersecting(_)));
    verify(
        &seg1,
        &Pose2::IDENTITY,
        &seg2,
        &pose([0.5, 0.0], 0.0),
        &s.verdict,
        s.tolerance,
    )
    .unwrap();
    // Crossing segments.
    let s = sat(
        &seg1,
        &Pose2::IDENTITY,
        &seg2,
        &pose([0.5, -0.5], std::f64::consts::FRAC_PI_2),
        None,
    );
    assert!(matches!(s.verdict, Verdict::Intersecting(_)));
    // Two points.
    let p = poly(&[DVec2::new(0.0, 0.0)]);
    let s = sat(&p, &Pose2::IDENTITY, &p, &pose([3.0, 4.0], 0.0), None);
    match s.verdict {
        Verdict::Separated(c) => assert!((c.gap - 5.0).abs() < 1e-14),
        v => panic!("{v:?}"),
    }
    let s = sat(&p, &Pose2::IDENTITY, &p, &Pose2::IDENTITY, None);
    assert_eq!(s.status, Status::Degenerate);
    assert!(matches!(s.verdict, Verdict::Intersecting(_)));
    // Point inside a square, and outside.
    let sq = poly(&rect_corners(DVec2::ONE));
    let s = sat(&sq, &Pose2::IDENTITY, &p, &pose([0.3, 0.2], 0.0), None);
    assert!((s.depth() - 0.7).abs() < 1e-15);
    let s = sat(&sq, &Pose2::IDENTITY, &p, &pose([1.3, 1.4], 0.0), None);
    assert!(matches!(s.verdict, Verdict::Separated(_)));
    // Duplicate vertices.
    let dup = poly(&[
        DVec2::new(-1.0, -1.0),
        DVec2::new(-1.0, -1.0),
        DVec2::new(1.0, -1.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(-1.0, 1.0),
    ]);
    let s = sat(&dup, &Pose2::IDENTITY, &sq, &pose([1.5, 0.0], 0.0), None);
    assert!((s.depth() - 0.5).abs() < 1e-15);
    // Identical shapes at the same pose.
    let s = sat(&sq, &Pose2::IDENTITY, &sq, &Pose2::IDENTITY, None);
    assert!((s.depth() - 2.0).abs() < 1e-15);
    verify(
        &sq,
        &Pose2::IDENTITY,
        &sq,
        &Pose2::IDENTITY,
        &s.verdict,
        s.tolerance,
    )
    .unwrap();
}

#[test]
fn gaps_half_to_twice_the_tolerance() {
    let a = poly(&rect_corners(DVec2::new(1.0, 1.0)));
    let b = poly(&rect_corners(DVec2::new(0.5, 2.0)));
    let tol = sat(&a, &Pose2::IDENTITY, &b, &pose([5.0, 0.0], 0.0), None).tolerance;
    for k in [0.5, 0.9, 1.1, 2.0] {
        let g = k * tol;
        let pb = pose([1.5 + g, 0.0], 0.0);
        let s = sat(&a, &Pose2::IDENTITY, &b, &pb, None);
        let gap = s.separation;
        assert_eq!(
            s.verdict.intersecting(),
            Some(gap <= s.tolerance),
            "k = {k}: gap {gap}, tol {}",
            s.tolerance
        );
        verify(&a, &Pose2::IDENTITY, &b, &pb, &s.verdict, s.tolerance).unwrap();
        let gj = gjk::intersects(
            &a,
            &Pose2::IDENTITY,
            &b,
            &pb,
            &gjk::Options::default(),
            None,
        );
        if k >= 2.0 {
            assert_eq!(gj.intersecting(), Some(false));
            assert_eq!(s.verdict.intersecting(), Some(false));
        }
        if k <= 0.5 {
            assert_eq!(s.verdict.intersecting(), Some(true));
        }
    }
}

#[test]
fn corners_facing_diagonally_within_the_tolerance_band() {
    // Edge-normal gap s, Euclidean distance s √2: SAT must decide on the distance as GJK does.
    let a = poly(&rect_corners(DVec2::ONE));
    let tol = sat(&a, &Pose2::IDENTITY, &a, &pose([5.0, 5.0], 0.0), None).tolerance;
    for k in [0.3, 0.6, 0.8, 0.95] {
        let s = k * tol;
        let pb = pose([2.0 + s, 2.0 + s], 0.0);
        let r = sat(&a, &Pose2::IDENTITY, &a, &pb, None);
        verify(&a, &Pose2::IDENTITY, &a, &pb, &r.verdict, r.tolerance).unwrap();
        let g = gjk::intersects(
            &a,
            &Pose2::IDENTITY,
            &a,
            &pb,
            &gjk::Options::default(),
            None,
        );
        assert_eq!(r.verdict.intersecting(), g.intersecting(), "k = {k}");
        if let Verdict::Separated(c) = r.verdict {
            assert!((c.gap - s * 2f64.sqrt()).abs() < 1e-15, "{}", c.gap);
        }
    }
}

/// `query::run(Method::Sat, ..)` in 2D answers an overlapping pair with contact points: the
/// deepest vertex of the polygon that does not own the reference edge and its translate onto
/// that edge, each on its polygon's boundary and apart by the depth along the axis (hull
/// oracle). Random polygons of 3–12 circle points and rectangles, sizes 1e-2 … 1e2, offsets
/// to 1e6.
#[test]
fn sat_query_contact_points_lie_on_both_polygons_apart_by_the_depth() {
    let mut r = rng(0x5a72d);
    let mut checked = 0;
    for case in 0..600 {
        let size = [1e-2, 1.0, 1e2][case % 3];
        let offset = if case % 5 == 0 { 1e6 } else { 0.0 };
        let at = |p: Pose2| {
            Pose2::new(p.translation() * size + DVec2::splat(offset), p.rotation()).unwrap()
        };
        let (pa, pb) = (at(random_pose2(&mut r, 0.3)), at(random_pose2(&mut r, 0.3)));
        let shape = |r: &mut _| {
            let v = if case % 2 == 0 {
                let n = rand::Rng::gen_range(r, 3..=12);
                circle_points(r, n, size)
            } else {
                let h = DVec2::new(
                    rand::Rng::gen_range(r, 0.2..1.0),
                    rand::Rng::gen_range(r, 0.2..1.0),
                );
                rect_corners(h * size)
            };
            Points::new(&v).unwrap()
        };
        let (a, b) = (shape(&mut r), shape(&mut r));
        let o = query::run(query::Method::Sat, &a, &pa, &b, &pb).unwrap();
        let name = format!("case {case} (size {size}, offset {offset})");
        let (wa, wb) = (world_points(&a, &pa), world_points(&b, &pb));
        checked += usize::from(contact_points_hold(&name, &o, &wa, &wb));
    }
    assert!(checked >= 300, "only {checked} of 600 pairs overlapped");
}
