//! Point in polygon (convex and general) and point in convex polyhedron.
//!
//! Oracles, all independent of the code under test:
//! * `geo`'s `CoordinatePosition` on simple polygons with holes (validated with geo's own
//!   `Validation`), even-odd rule;
//! * an exact winding number computed by a different method in this file (quadrant
//!   counting, Hormann & Agathos §4: the signed number of quarter turns of the vector from the
//!   point to the boundary, diagonal jumps resolved by `robust::orient2d`), for
//!   self-intersecting polygons and both fill rules (the crossing number's parity equals the
//!   winding number's);
//! * hand-built boundary cases (point on an edge, on a vertex, ray through a vertex,
//!   horizontal edges), analytic cubes for the polyhedron.
//!
//! Coordinates are small integers in the random tests so that points fall exactly on edges
//! and vertices and rays pass through vertices, which is where the boundary rules matter.

use convexity::primitives::point_in_polyhedron::{
    point_in_convex_polyhedron, point_in_convex_polyhedron_exact,
};
use convexity::primitives::polygon::{
    convex_polygon_contains, ConvexPolygonLocator, FillRule, Location, Polygon, PolygonLocator,
};
use convexity::{DVec2, DVec3, Problem};
use convexity_testkit::rng::{case_rng, Rng};
use geo::coordinate_position::{CoordPos, CoordinatePosition};
use geo::Validation;

fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// Exact test for `p` on the closed segment `[a, b]`, by a parametric check different from
/// the library's: collinear, and both dot products `(p - a)·(b - a)` and `(p - b)·(a - b)`
/// non-negative. The dot products are exact for the small integers used here.
fn oracle_on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    if a == b {
        return p == a;
    }
    orient(a, b, p) == 0.0 && (p - a).dot(b - a) >= 0.0 && (p - b).dot(a - b) >= 0.0
}

/// Quadrant of `q` around `p` (0..4, counter-clockwise), for `q != p`; each quadrant holds
/// the axis ray at its clockwise end. Exact comparisons.
fn quadrant(p: DVec2, q: DVec2) -> i64 {
    if q.x > p.x && q.y >= p.y {
        0
    } else if q.x <= p.x && q.y > p.y {
        1
    } else if q.x < p.x && q.y <= p.y {
        2
    } else {
        3
    }
}

/// `None` on the boundary, else the winding number by quadrant counting.
fn oracle_winding(rings: &[Vec<DVec2>], p: DVec2) -> Option<i64> {
    let mut quarter_turns = 0i64;
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            if oracle_on_segment(a, b, p) {
                return None;
            }
            let (qa, qb) = (quadrant(p, a), quadrant(p, b));
            let d = (qb - qa).rem_euclid(4);
            quarter_turns += match d {
                0 => 0,
                1 => 1,
                3 => -1,
                // Opposite quadrants: the side of p decides the direction of the half turn.
                _ => {
                    if orient(a, b, p) > 0.0 {
                        2
                    } else {
                        -2
                    }
                }
            };
        }
    }
    assert_eq!(quarter_turns % 4, 0, "quarter turns must close up");
    Some(quarter_turns / 4)
}

fn oracle_locate(rings: &[Vec<DVec2>], p: DVec2, rule: FillRule) -> Location {
    match oracle_winding(rings, p) {
        None => Location::Boundary,
        Some(w) => {
            let inside = match rule {
                FillRule::EvenOdd => w % 2 != 0,
                FillRule::NonZero => w != 0,
            };
            if inside {
                Location::Inside
            } else {
                Location::Outside
            }
        }
    }
}

fn flat(rings: &[Vec<DVec2>]) -> Vec<DVec2> {
    let mut out = Vec::new();
    for (i, r) in rings.iter().enumerate() {
        if i > 0 {
            out.push(DVec2::NAN);
        }
        out.extend_from_slice(r);
    }
    out
}

/// Checks every general-polygon entry point against the expected location.
fn check_all(rings: &[Vec<DVec2>], p: DVec2, rule: FillRule, expected: Location, what: &str) {
    let poly = Polygon::new(&flat(rings)).unwrap();
    let loc = PolygonLocator::new(&poly);
    assert_eq!(
        poly.locate(p, rule).unwrap(),
        expected,
        "{what}: Polygon::locate at {p}"
    );
    assert_eq!(
        loc.locate(p, rule).unwrap(),
        expected,
        "{what}: PolygonLocator at {p}"
    );
    assert_eq!(
        loc.locate_batch(&[p], rule).unwrap()[0],
        expected,
        "{what}: locate_batch at {p}"
    );
}

fn square() -> Vec<DVec2> {
    vec![v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)]
}

#[test]
fn point_on_edge_and_vertex_is_boundary() {
    let sq = square();
    for p in [v(2.0, 0.0), v(4.0, 1.0), v(1.5, 4.0), v(0.0, 3.0)] {
        for rule in [FillRule::EvenOdd, FillRule::NonZero] {
            check_all(
                std::slice::from_ref(&sq),
                p,
                rule,
                Location::Boundary,
                "edge",
            );
        }
        assert_eq!(convex_polygon_contains(&sq, p).unwrap(), Location::Boundary);
    }
    for p in sq.clone() {
        check_all(
            std::slice::from_ref(&sq),
            p,
            FillRule::EvenOdd,
            Location::Boundary,
            "vertex",
        );
        assert_eq!(convex_polygon_contains(&sq, p).unwrap(), Location::Boundary);
        let cl = ConvexPolygonLocator::new(&sq).unwrap();
        assert_eq!(cl.locate(p).unwrap(), Location::Boundary);
    }
    // Just off an edge by one ulp either way.
    let eps = f64::EPSILON;
    check_all(
        std::slice::from_ref(&sq),
        v(2.0, eps),
        FillRule::EvenOdd,
        Location::Inside,
        "ulp in",
    );
    check_all(
        std::slice::from_ref(&sq),
        v(2.0, -eps),
        FillRule::EvenOdd,
        Location::Outside,
        "ulp out",
    );
    check_all(
        std::slice::from_ref(&sq),
        v(4.0 + 8.0 * eps, 2.0),
        FillRule::EvenOdd,
        Location::Outside,
        "ulp out x",
    );
}

#[test]
fn ray_through_vertex_is_counted_once_or_not_at_all() {
    // Diamond: the ray from (-1, 0) passes through the vertices (0, 0) and (4, 0), where the
    // boundary crosses the ray's line, and from (1, 2) it grazes the top vertex (2, 2).
    let diamond = vec![v(0.0, 0.0), v(2.0, -2.0), v(4.0, 0.0), v(2.0, 2.0)];
    let poly = Polygon::new(&diamond).unwrap();
    assert_eq!(poly.crossing_number(v(-1.0, 0.0)).unwrap(), Some(2));
    assert_eq!(poly.crossing_number(v(1.0, 0.0)).unwrap(), Some(1));
    assert_eq!(
        poly.crossing_number(v(1.0, 2.0)).unwrap().map(|c| c % 2),
        Some(0)
    );
    for (p, want) in [
        (v(-1.0, 0.0), Location::Outside),
        (v(1.0, 0.0), Location::Inside),
        (v(3.0, 0.0), Location::Inside),
        (v(5.0, 0.0), Location::Outside),
        (v(1.0, 2.0), Location::Outside),
        (v(0.0, 2.0), Location::Outside),
        (v(1.0, -2.0), Location::Outside),
        (v(1.0, 1.0), Location::Boundary),
    ] {
        for rule in [FillRule::EvenOdd, FillRule::NonZero] {
            check_all(std::slice::from_ref(&diamond), p, rule, want, "diamond");
        }
        assert_eq!(convex_polygon_contains(&diamond, p).unwrap(), want, "{p}");
        let cl = ConvexPolygonLocator::new(&diamond).unwrap();
        assert_eq!(cl.locate(p).unwrap(), want, "{p}");
    }
    // A concave vertex on the ray: the "V" notch at (2, 1) of this pentagon.
    let notch = vec![
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 3.0),
        v(2.0, 1.0),
        v(0.0, 3.0),
    ];
    for (p, want) in [
        (v(-1.0, 1.0), Location::Outside),
        (v(1.0, 1.0), Location::Inside),
        (v(3.0, 1.0), Location::Inside),
        (v(2.0, 1.0), Location::Boundary),
        (v(2.0, 2.0), Location::Outside),
        (v(5.0, 3.0), Location::Outside),
        (v(-3.0, 3.0), Location::Outside),
    ] {
        check_all(
            std::slice::from_ref(&notch),
            p,
            FillRule::EvenOdd,
            want,
            "notch",
        );
        assert_eq!(
            oracle_locate(std::slice::from_ref(&notch), p, FillRule::EvenOdd),
            want,
            "oracle {p}"
        );
    }
}

#[test]
fn horizontal_edges_on_the_ray() {
    // Staircase with horizontal edges at y = 1 and y = 2.
    let stairs = vec![
        v(0.0, 0.0),
        v(6.0, 0.0),
        v(6.0, 1.0),
        v(4.0, 1.0),
        v(4.0, 2.0),
        v(2.0, 2.0),
        v(2.0, 3.0),
        v(0.0, 3.0),
    ];
    for (p, want) in [
        (v(-1.0, 1.0), Location::Outside),
        (v(1.0, 1.0), Location::Inside),
        (v(3.0, 1.0), Location::Inside),
        (v(5.0, 1.0), Location::Boundary),
        (v(7.0, 1.0), Location::Outside),
        (v(-1.0, 2.0), Location::Outside),
        (v(1.0, 2.0), Location::Inside),
        (v(3.0, 2.0), Location::Boundary),
        (v(5.0, 2.0), Location::Outside),
        (v(4.0, 1.0), Location::Boundary),
        (v(1.0, 3.0), Location::Boundary),
        (v(3.0, 3.0), Location::Outside),
    ] {
        for rule in [FillRule::EvenOdd, FillRule::NonZero] {
            check_all(std::slice::from_ref(&stairs), p, rule, want, "stairs");
            assert_eq!(
                oracle_locate(std::slice::from_ref(&stairs), p, rule),
                want,
                "oracle {p}"
            );
        }
    }
}

#[test]
fn pentagram_centre_differs_between_fill_rules() {
    let star: Vec<DVec2> = (0..5)
        .map(|k| {
            let t =
                core::f64::consts::FRAC_PI_2 + (2 * k) as f64 * 2.0 * core::f64::consts::PI / 5.0;
            v(10.0 * t.cos(), 10.0 * t.sin())
        })
        .collect();
    let poly = Polygon::new(&star).unwrap();
    assert_eq!(poly.winding_number(v(0.0, 0.0)).unwrap(), Some(2));
    check_all(
        std::slice::from_ref(&star),
        v(0.0, 0.0),
        FillRule::EvenOdd,
        Location::Outside,
        "star",
    );
    check_all(
        std::slice::from_ref(&star),
        v(0.0, 0.0),
        FillRule::NonZero,
        Location::Inside,
        "star",
    );
    // A point in one of the tips is covered once: inside under both rules.
    check_all(
        std::slice::from_ref(&star),
        v(0.0, 8.0),
        FillRule::EvenOdd,
        Location::Inside,
        "tip",
    );
    check_all(
        std::slice::from_ref(&star),
        v(0.0, 8.0),
        FillRule::NonZero,
        Location::Inside,
        "tip",
    );
    // The pentagram is rejected as a convex polygon although all its turns agree.
    let err = ConvexPolygonLocator::new(&star).unwrap_err();
    assert!(matches!(err.problem, Problem::NotConvex(_)), "{err:?}");
}

#[test]
fn holes_as_nan_separated_rings() {
    let outer = vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
    let hole_cw = vec![v(3.0, 3.0), v(3.0, 7.0), v(7.0, 7.0), v(7.0, 3.0)];
    let hole_ccw: Vec<DVec2> = hole_cw.iter().rev().copied().collect();
    let c = v(5.0, 5.0);
    check_all(
        &[outer.clone(), hole_cw.clone()],
        c,
        FillRule::EvenOdd,
        Location::Outside,
        "cw hole",
    );
    check_all(
        &[outer.clone(), hole_cw.clone()],
        c,
        FillRule::NonZero,
        Location::Outside,
        "cw hole",
    );
    check_all(
        &[outer.clone(), hole_ccw.clone()],
        c,
        FillRule::EvenOdd,
        Location::Outside,
        "ccw hole",
    );
    // Same orientation as the outer ring: winding 2, filled under the non-zero rule.
    check_all(
        &[outer.clone(), hole_ccw.clone()],
        c,
        FillRule::NonZero,
        Location::Inside,
        "ccw hole",
    );
    check_all(
        &[outer.clone(), hole_cw.clone()],
        v(3.0, 5.0),
        FillRule::EvenOdd,
        Location::Boundary,
        "hole edge",
    );
    check_all(
        &[outer.clone(), hole_cw.clone()],
        v(1.0, 5.0),
        FillRule::EvenOdd,
        Location::Inside,
        "between",
    );
    // Leading, trailing and doubled separators, and an explicit closing vertex, change nothing.
    let mut messy = vec![DVec2::NAN];
    messy.extend_from_slice(&outer);
    messy.push(outer[0]);
    messy.extend([DVec2::NAN, DVec2::NAN]);
    messy.extend_from_slice(&hole_cw);
    messy.push(DVec2::NAN);
    let poly = Polygon::new(&messy).unwrap();
    assert_eq!(poly.rings().len(), 2);
    assert_eq!(poly.edge_count(), 8);
    assert_eq!(
        poly.locate(c, FillRule::EvenOdd).unwrap(),
        Location::Outside
    );
    assert_eq!(
        poly.locate(v(1.0, 1.0), FillRule::EvenOdd).unwrap(),
        Location::Inside
    );
}

#[test]
fn bad_input_is_rejected_with_the_field() {
    assert_eq!(Polygon::new(&[]).unwrap_err().problem, Problem::Empty);
    assert_eq!(
        Polygon::new(&[DVec2::NAN, DVec2::NAN]).unwrap_err().problem,
        Problem::Empty
    );
    let e = Polygon::new(&[v(0.0, 0.0), v(1.0, f64::NAN), v(0.0, 1.0)]).unwrap_err();
    assert_eq!(e.field, "vertices[1][1]");
    let e = Polygon::new(&[v(0.0, 0.0), v(f64::INFINITY, 0.0)]).unwrap_err();
    assert_eq!(e.field, "vertices[1][0]");
    let e = Polygon::new(&[v(0.0, 0.0), v(1e61, 0.0)]).unwrap_err();
    assert!(matches!(e.problem, Problem::OutOfRange(_)));
    let poly = Polygon::new(&square()).unwrap();
    assert!(poly.locate(v(f64::NAN, 0.0), FillRule::EvenOdd).is_err());
    let loc = PolygonLocator::new(&poly);
    let e = loc
        .locate_batch(&[v(1.0, 1.0), v(0.0, f64::NEG_INFINITY)], FillRule::EvenOdd)
        .unwrap_err();
    assert_eq!(e.field, "points[1][1]");
    assert_eq!(
        convex_polygon_contains(&[], v(0.0, 0.0))
            .unwrap_err()
            .problem,
        Problem::Empty
    );
    assert!(convex_polygon_contains(&square(), v(f64::NAN, 0.0)).is_err());
    let concave = vec![
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(2.0, 1.0),
        v(4.0, 4.0),
        v(0.0, 4.0),
    ];
    assert_eq!(
        ConvexPolygonLocator::new(&concave).unwrap_err().problem,
        Problem::NotConvex(2)
    );
    // A spike (the boundary doubles back along itself) is not convex either.
    let spike = vec![
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(6.0, 0.0),
        v(4.0, 0.0),
        v(2.0, 3.0),
    ];
    assert!(ConvexPolygonLocator::new(&spike).is_err());
}

#[test]
fn degenerate_polygons_are_their_edges() {
    // One point, a segment given back and forth, collinear vertices, repeated vertices.
    let point = vec![v(1.0, 1.0)];
    let seg = vec![v(0.0, 0.0), v(2.0, 2.0), v(4.0, 4.0), v(2.0, 2.0)];
    for (poly, p, want) in [
        (&point, v(1.0, 1.0), Location::Boundary),
        (&point, v(1.0, 2.0), Location::Outside),
        (&seg, v(3.0, 3.0), Location::Boundary),
        (&seg, v(5.0, 5.0), Location::Outside),
        (&seg, v(3.0, 2.0), Location::Outside),
    ] {
        check_all(
            std::slice::from_ref(poly),
            p,
            FillRule::EvenOdd,
            want,
            "degenerate",
        );
        check_all(
            std::slice::from_ref(poly),
            p,
            FillRule::NonZero,
            want,
            "degenerate",
        );
        assert_eq!(convex_polygon_contains(poly, p).unwrap(), want, "{p}");
        let cl = ConvexPolygonLocator::new(poly).unwrap();
        assert_eq!(cl.locate(p).unwrap(), want, "{p}");
    }
    let dup = vec![
        v(0.0, 0.0),
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 4.0),
        v(4.0, 4.0),
        v(0.0, 4.0),
        v(0.0, 0.0),
    ];
    let cl = ConvexPolygonLocator::new(&dup).unwrap();
    assert_eq!(cl.vertices().len(), 4);
    for p in [
        v(2.0, 0.0),
        v(2.0, 2.0),
        v(0.0, 4.0),
        v(-1.0, 0.0),
        v(3.0, 4.0),
    ] {
        let want = oracle_locate(std::slice::from_ref(&dup), p, FillRule::EvenOdd);
        assert_eq!(cl.locate(p).unwrap(), want, "{p}");
        assert_eq!(convex_polygon_contains(&dup, p).unwrap(), want, "{p}");
    }
}

/// A random star-shaped polygon with integer vertices around the origin: vertex k at a
/// random radius in its own angular sector, rounded. Concave in general.
fn star_polygon(rng: &mut impl Rng, n: usize, rmin: f64, rmax: f64, centre: DVec2) -> Vec<DVec2> {
    (0..n)
        .map(|k| {
            let t = (k as f64 + rng.gen_range(0.1..0.9)) * core::f64::consts::TAU / n as f64;
            let r = rng.gen_range(rmin..rmax);
            (centre + r * v(t.cos(), t.sin())).round()
        })
        .collect()
}

fn to_geo(rings: &[Vec<DVec2>]) -> geo::Polygon<f64> {
    let ls =
        |r: &Vec<DVec2>| geo::LineString::from(r.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>());
    geo::Polygon::new(ls(&rings[0]), rings[1..].iter().map(ls).collect())
}

#[test]
fn agrees_with_geo_on_simple_polygons_with_holes() {
    // 1,000 polygons x 120 points = 120,000 cases, about a third of them exactly on the
    // boundary or with the ray through a vertex.
    let mut cases = 0;
    let mut boundary = 0;
    for case in 0..1000u64 {
        let mut rng = case_rng(0x9e0, case);
        let n = rng.gen_range(3..24);
        let mut rings = vec![star_polygon(&mut rng, n, 8.0, 16.0, DVec2::ZERO)];
        if rng.gen_bool(0.5) {
            let m = rng.gen_range(3..8);
            let mut hole = star_polygon(&mut rng, m, 2.0, 5.0, DVec2::ZERO);
            if rng.gen_bool(0.5) {
                hole.reverse();
            }
            rings.push(hole);
        }
        let gp = to_geo(&rings);
        if !gp.is_valid() {
            continue;
        }
        let poly = Polygon::new(&flat(&rings)).unwrap();
        let loc = PolygonLocator::new(&poly);
        let pts: Vec<DVec2> = (0..120)
            .map(|i| {
                if i % 4 == 0 {
                    // A vertex, or a lattice point on an edge's line.
                    let r = &rings[rng.gen_range(0..rings.len())];
                    r[rng.gen_range(0..r.len())]
                } else {
                    v(
                        rng.gen_range(-17..=17) as f64,
                        rng.gen_range(-17..=17) as f64,
                    )
                }
            })
            .collect();
        let batch = loc.locate_batch(&pts, FillRule::EvenOdd).unwrap();
        let (inside, on) = loc.inpolygon(&pts, FillRule::EvenOdd).unwrap();
        for (i, &p) in pts.iter().enumerate() {
            let want = match gp.coordinate_position(&geo::coord! { x: p.x, y: p.y }) {
                CoordPos::Inside => Location::Inside,
                CoordPos::OnBoundary => Location::Boundary,
                CoordPos::Outside => Location::Outside,
            };
            boundary += usize::from(want == Location::Boundary);
            assert_eq!(
                poly.locate(p, FillRule::EvenOdd).unwrap(),
                want,
                "case {case} p {p}"
            );
            assert_eq!(batch[i], want, "batch case {case} p {p}");
            assert_eq!(inside[i], want != Location::Outside);
            assert_eq!(on[i], want == Location::Boundary);
            assert_eq!(
                oracle_locate(&rings, p, FillRule::EvenOdd),
                want,
                "oracle case {case} p {p}"
            );
            cases += 1;
        }
    }
    assert!(cases >= 100_000, "only {cases} cases");
    assert!(boundary >= 10_000, "only {boundary} boundary cases");
}

#[test]
fn agrees_with_exact_winding_oracle_on_self_intersecting_polygons() {
    // Random integer polygons (generally self-intersecting), several rings, both rules,
    // coordinates also offset to 1e6 (exact for integers): 600 x 100 x 2 = 120,000 cases.
    let mut cases = 0;
    for case in 0..600u64 {
        let mut rng = case_rng(0x5e1f, case);
        let rings: Vec<Vec<DVec2>> = (0..rng.gen_range(1..4))
            .map(|_| {
                (0..rng.gen_range(1..12))
                    .map(|_| v(rng.gen_range(-8..=8) as f64, rng.gen_range(-8..=8) as f64))
                    .collect()
            })
            .collect();
        let offset = if case % 2 == 0 {
            DVec2::ZERO
        } else {
            v(1e6, -1e6)
        };
        let shifted: Vec<Vec<DVec2>> = rings
            .iter()
            .map(|r| r.iter().map(|&p| p + offset).collect())
            .collect();
        let poly = Polygon::new(&flat(&shifted)).unwrap();
        let loc = PolygonLocator::new(&poly);
        for _ in 0..100 {
            let p = v(rng.gen_range(-9..=9) as f64, rng.gen_range(-9..=9) as f64);
            let w = oracle_winding(&rings, p);
            assert_eq!(
                poly.winding_number(p + offset).unwrap(),
                w,
                "case {case} p {p}"
            );
            assert_eq!(
                loc.winding_number(p + offset).unwrap(),
                w,
                "case {case} p {p}"
            );
            assert_eq!(
                poly.crossing_number(p + offset).unwrap().map(|c| c % 2),
                w.map(|w| w.rem_euclid(2) as u64),
                "case {case} p {p}"
            );
            for rule in [FillRule::EvenOdd, FillRule::NonZero] {
                let want = oracle_locate(&rings, p, rule);
                assert_eq!(
                    loc.locate(p + offset, rule).unwrap(),
                    want,
                    "case {case} p {p}"
                );
                cases += 1;
            }
        }
    }
    assert!(cases >= 100_000);
}

/// Convex hull (Andrew's monotone chain) with exact orientation, counter-clockwise.
fn hull(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let it: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in it {
            while h.len() >= start + 2 && orient(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

#[test]
fn convex_variants_agree_with_oracle_in_both_windings() {
    // 1,000 random integer hulls x 50 points x (2 windings) = 100,000 points, each checked
    // by the linear, the O(log n) and the general test against the winding oracle.
    let mut cases = 0;
    for case in 0..1000u64 {
        let mut rng = case_rng(0xc0ec, case);
        let k = rng.gen_range(1..30);
        let pts: Vec<DVec2> = (0..k)
            .map(|_| {
                v(
                    rng.gen_range(-10..=10) as f64,
                    rng.gen_range(-10..=10) as f64,
                )
            })
            .collect();
        let ccw = hull(pts);
        // Add collinear mid-edge vertices and a repeated vertex sometimes.
        let mut poly = Vec::new();
        for i in 0..ccw.len() {
            poly.push(ccw[i]);
            if rng.gen_bool(0.05) {
                poly.push(ccw[i]);
            }
            let next = ccw[(i + 1) % ccw.len()];
            let mid = (ccw[i] + next) * 0.5;
            if rng.gen_bool(0.2) && mid == mid.round() && ccw.len() >= 3 {
                poly.push(mid);
            }
        }
        for winding in 0..2 {
            let mut poly = poly.clone();
            if winding == 1 {
                poly.reverse();
            }
            let cl = ConvexPolygonLocator::new(&poly).unwrap();
            for _ in 0..50 {
                let p = v(
                    rng.gen_range(-11..=11) as f64,
                    rng.gen_range(-11..=11) as f64,
                );
                let want = oracle_locate(std::slice::from_ref(&poly), p, FillRule::EvenOdd);
                assert_eq!(
                    convex_polygon_contains(&poly, p).unwrap(),
                    want,
                    "case {case} p {p}"
                );
                assert_eq!(cl.locate(p).unwrap(), want, "log case {case} p {p}");
                assert_eq!(cl.locate_linear(p).unwrap(), want, "lin case {case} p {p}");
                cases += 1;
            }
        }
    }
    assert!(cases >= 100_000);
}

#[test]
fn locator_handles_long_edges_and_extreme_aspect() {
    // A comb: many thin teeth and one edge spanning the full height, so slabs hold very
    // different numbers of edges; plus a flat polygon (zero height) and a tall thin one.
    let mut comb = vec![v(0.0, 0.0), v(1000.0, 0.0)];
    for t in (0..500).rev() {
        let x = 2.0 * t as f64;
        comb.push(v(x + 1.0, 1000.0));
        comb.push(v(x + 1.0, 10.0));
        comb.push(v(x, 10.0));
        comb.push(v(x, 1000.0));
    }
    let mut rng = case_rng(0xc0b, 0);
    let poly = Polygon::new(&comb).unwrap();
    let loc = PolygonLocator::new(&poly);
    assert!(loc.slab_count() >= 1);
    for _ in 0..20_000 {
        let p = v(
            rng.gen_range(-2..=2004) as f64 * 0.5,
            rng.gen_range(-2..=1002) as f64,
        );
        let want = oracle_locate(std::slice::from_ref(&comb), p, FillRule::EvenOdd);
        assert_eq!(loc.locate(p, FillRule::EvenOdd).unwrap(), want, "{p}");
    }
    let flat_poly = vec![v(0.0, 5.0), v(10.0, 5.0), v(3.0, 5.0)];
    let poly = Polygon::new(&flat_poly).unwrap();
    let loc = PolygonLocator::new(&poly);
    for (p, want) in [
        (v(7.0, 5.0), Location::Boundary),
        (v(11.0, 5.0), Location::Outside),
        (v(7.0, 6.0), Location::Outside),
    ] {
        assert_eq!(loc.locate(p, FillRule::NonZero).unwrap(), want, "{p}");
    }
    // Tiny but not so tiny that orient2d's products underflow (see the module header).
    let tiny = vec![v(0.0, 0.0), v(1e-100, 0.0), v(1e-100, 1e-100)];
    let poly = Polygon::new(&tiny).unwrap();
    let loc = PolygonLocator::new(&poly);
    assert_eq!(
        loc.locate(v(1e-100, 5e-101), FillRule::EvenOdd).unwrap(),
        Location::Boundary
    );
    assert_eq!(
        loc.locate(v(9e-101, 5e-101), FillRule::EvenOdd).unwrap(),
        Location::Inside
    );
}

#[test]
fn polyhedron_cube_by_planes_and_by_faces() {
    // The cube [-1, 1]^3 as six planes (normals deliberately not unit) and as 12 triangles.
    let planes: Vec<(DVec3, f64)> = [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        -DVec3::X,
        -DVec3::Y,
        -DVec3::Z,
    ]
    .iter()
    .map(|&n| (3.0 * n, 3.0))
    .collect();
    let c = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    let corners: Vec<DVec3> = (0..8)
        .map(|i| {
            c(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            )
        })
        .collect();
    // Faces as quads (outward counter-clockwise), split into two triangles each.
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let faces: Vec<[DVec3; 3]> = quads
        .iter()
        .flat_map(|q| {
            [
                [corners[q[0]], corners[q[1]], corners[q[2]]],
                [corners[q[0]], corners[q[2]], corners[q[3]]],
            ]
        })
        .collect();
    for (p, want) in [
        (c(0.0, 0.0, 0.0), Location::Inside),
        (c(1.0, 0.0, 0.0), Location::Boundary),
        (c(1.0, 1.0, 1.0), Location::Boundary),
        (c(-1.0, 0.5, -0.25), Location::Boundary),
        (c(1.5, 0.0, 0.0), Location::Outside),
        (c(0.0, 0.0, -1.0 - 1e-12), Location::Outside),
        (c(0.999, 0.999, 0.999), Location::Inside),
    ] {
        assert_eq!(
            point_in_convex_polyhedron(&planes, p, 0.0).unwrap(),
            want,
            "{p}"
        );
        assert_eq!(
            point_in_convex_polyhedron_exact(&faces, p).unwrap(),
            want,
            "{p}"
        );
    }
    // Tolerance: half and twice a gap of 1e-9 (tolerance is a distance, independent of |n|).
    let p = c(1.0 + 1e-9, 0.0, 0.0);
    assert_eq!(
        point_in_convex_polyhedron(&planes, p, 2e-9).unwrap(),
        Location::Boundary
    );
    assert_eq!(
        point_in_convex_polyhedron(&planes, p, 0.5e-9).unwrap(),
        Location::Outside
    );
    let p = c(1.0 - 1e-9, 0.0, 0.0);
    assert_eq!(
        point_in_convex_polyhedron(&planes, p, 2e-9).unwrap(),
        Location::Boundary
    );
    assert_eq!(
        point_in_convex_polyhedron(&planes, p, 0.5e-9).unwrap(),
        Location::Inside
    );
    // Random lattice points: the plane test with tol 0 and the exact face test agree.
    let mut rng = case_rng(0x9b, 0);
    let mut on = 0;
    for _ in 0..20_000 {
        let p = c(
            rng.gen_range(-4..=4) as f64 * 0.5,
            rng.gen_range(-4..=4) as f64 * 0.5,
            rng.gen_range(-4..=4) as f64 * 0.5,
        );
        let a = point_in_convex_polyhedron(&planes, p, 0.0).unwrap();
        assert_eq!(
            a,
            point_in_convex_polyhedron_exact(&faces, p).unwrap(),
            "{p}"
        );
        let inside_box = p.abs().max_element();
        let want = if inside_box < 1.0 {
            Location::Inside
        } else if inside_box == 1.0 {
            Location::Boundary
        } else {
            Location::Outside
        };
        assert_eq!(a, want, "{p}");
        on += usize::from(a == Location::Boundary);
    }
    assert!(on > 1000);
    // Bad input.
    assert!(point_in_convex_polyhedron(&[], c(0.0, 0.0, 0.0), 0.0).is_err());
    assert!(point_in_convex_polyhedron(&planes, c(0.0, 0.0, 0.0), -1.0).is_err());
    assert!(point_in_convex_polyhedron(&[(DVec3::ZERO, 1.0)], c(0.0, 0.0, 0.0), 0.0).is_err());
    let e = point_in_convex_polyhedron(&planes, c(0.0, f64::NAN, 0.0), 0.0).unwrap_err();
    assert_eq!(e.field, "point[1]");
    assert!(point_in_convex_polyhedron_exact(&faces, c(f64::INFINITY, 0.0, 0.0)).is_err());
}
