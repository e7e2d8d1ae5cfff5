//! The 2D section of `convexity demo`: general polygons, segment intersections, SAT against
//! GJK/EPA, contact classification and time of impact, each case checked against an answer
//! known by construction (or, for the quartic TOI, by dense sampling of the vertex's side of
//! the moving edge, which shares no code with the Sturm-sequence root finder).
//!
//! [`section`] returns the report text and whether every check passed, and writes one SVG
//! picture: the contact-classification cases in a row (filled convex polygons, contact points
//! in purple with the SAT axis, separating lines dashed), and under them the L-shaped polygon
//! with its query points coloured by location and a polyline overlapping its bottom edge.

use crate::svg::{Mark, Svg};

use convexity::polytope::contact2d::{classify, ContactKind};
use convexity::polytope::sat2d::sat;
use convexity::primitives::polygon::{
    polyline_intersections, FillRule, HitKind, Location, Polygon,
};
use convexity::toi::{
    swept_toi, toi2, vertex_edge_toi, Body2, Kinematic2, SweptOptions, TimeOfImpact,
};
use convexity::{gjk, gjk::epa, ConvexPolygon, DVec2, Pose2, Shape2};
use std::fmt::Write as _;
use std::path::Path;

mod toi;
use toi::time_of_impact;

fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
    vec![v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)]
}

/// Collects check results and the report.
struct Report {
    text: String,
    ok: bool,
    checks: usize,
}

impl Report {
    fn check(&mut self, name: &str, ok: bool, detail: String) {
        self.checks += 1;
        self.ok &= ok;
        let _ = writeln!(
            self.text,
            "  {:<52} {}  {detail}",
            name,
            if ok { "ok  " } else { "FAIL" }
        );
    }
}

fn loc(l: Location) -> &'static str {
    match l {
        Location::Inside => "inside",
        Location::Boundary => "boundary",
        Location::Outside => "outside",
    }
}

fn point_in_polygon(r: &mut Report, svg: &mut Svg, origin: DVec2) {
    let _ = writeln!(
        r.text,
        "\npoint in polygon (exact predicates, both fill rules):"
    );
    let l_shape = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 4.0),
        v(0.0, 4.0),
    ];
    let moved: Vec<DVec2> = l_shape.iter().map(|&p| p + origin).collect();
    svg.rings(std::slice::from_ref(&moved), "#1f77b4", "#1f77b4", true);
    // (point, expected even-odd = non-zero location, what it exercises)
    let cases = [
        (v(0.5, 0.5), Location::Inside, "interior"),
        (v(4.0, 1.0), Location::Boundary, "on a vertex"),
        (v(2.0, 0.0), Location::Boundary, "on an edge"),
        (v(0.5, 1.0), Location::Inside, "ray along a horizontal edge"),
        (v(-1.0, 1.0), Location::Outside, "ray through two vertices"),
        (v(2.0, 2.0), Location::Outside, "in the notch"),
        (
            v(-1.0, 4.0),
            Location::Outside,
            "ray through the top vertices",
        ),
    ];
    match Polygon::new(&l_shape) {
        Ok(poly) => {
            for (p, want, what) in cases {
                let eo = poly.locate(p, FillRule::EvenOdd);
                let nz = poly.locate(p, FillRule::NonZero);
                let ok = eo.as_ref().ok() == Some(&want) && nz.as_ref().ok() == Some(&want);
                r.check(
                    &format!("L-shape ({}, {}): {what}", p.x, p.y),
                    ok,
                    format!(
                        "{} (expected {})",
                        eo.map(loc).unwrap_or("error"),
                        loc(want)
                    ),
                );
                let color = match want {
                    Location::Inside => "#2ca02c",
                    Location::Boundary => "#ff7f0e",
                    Location::Outside => "#d62728",
                };
                svg.dot(p + origin, color, 5.0);
            }
        }
        Err(e) => r.check("L-shape", false, e.to_string()),
    }
    // A ring inside a ring wound the same way: a hole for even-odd, filled for non-zero.
    let mut nested = rect(0.0, 0.0, 10.0, 10.0);
    nested.push(DVec2::NAN);
    nested.extend(rect(3.0, 3.0, 7.0, 7.0));
    match Polygon::new(&nested) {
        Ok(poly) => {
            let p = v(5.0, 5.0);
            let eo = poly.locate(p, FillRule::EvenOdd).ok();
            let nz = poly.locate(p, FillRule::NonZero).ok();
            let w = poly.winding_number(p).ok().flatten();
            r.check(
                "same-way nested rings, centre",
                eo == Some(Location::Outside) && nz == Some(Location::Inside) && w == Some(2),
                format!(
                    "even-odd {}, non-zero {}, winding {} (expected outside, inside, 2)",
                    eo.map(loc).unwrap_or("error"),
                    nz.map(loc).unwrap_or("error"),
                    w.map_or("none".to_string(), |w| w.to_string())
                ),
            );
        }
        Err(e) => r.check("same-way nested rings", false, e.to_string()),
    }
}

fn intersections(r: &mut Report, svg: &mut Svg, origin: DVec2) {
    let _ = writeln!(r.text, "\npolyline intersections:");
    let a = [v(-2.0, 0.0), v(6.0, 0.0)];
    let b = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        DVec2::NAN,
        v(2.0, -1.0),
        v(2.0, 1.0),
    ];
    let moved = |pts: &[DVec2]| -> Vec<DVec2> { pts.iter().map(|&p| p + origin).collect() };
    svg.polyline(&moved(&a), "#d62728", true);
    svg.polyline(&moved(&b[..3]), "#8c564b", false);
    svg.polyline(&moved(&b[4..]), "#8c564b", false);
    match polyline_intersections(&a, &b) {
        Ok(hits) => {
            let want_overlap = hits.iter().any(|h| {
                h.a_index == 0
                    && h.b_index == 0
                    && h.kind == HitKind::Overlap(v(0.0, 0.0), v(4.0, 0.0))
            });
            let want_point = hits
                .iter()
                .any(|h| h.a_index == 0 && h.b_index == 4 && h.kind == HitKind::Point(v(2.0, 0.0)));
            for h in &hits {
                match h.kind {
                    HitKind::Point(p) => svg.dot(p + origin, "black", 3.5),
                    HitKind::Overlap(p, q) => svg.segment(p + origin, q + origin, "black", 5.0),
                }
            }
            r.check(
                "collinear overlap and a crossing",
                want_overlap && want_point && hits.len() == 2,
                format!(
                    "{} hits: overlap (0,0)-(4,0) on segments 0/0, point (2,0) on 0/4 \
                     (the end vertex (4,0) is reported once, by the overlap)",
                    hits.len()
                ),
            );
        }
        Err(e) => r.check("collinear overlap", false, e.to_string()),
    }
}

/// A classification case: polygons, expected kind, counts (vᵢ, eᵢ, vⱼ, eⱼ), contact points.
struct ContactCase {
    name: &'static str,
    a: Vec<DVec2>,
    b: Vec<DVec2>,
    kind: ContactKind,
    counts: [usize; 4],
    points: usize,
}

fn contact_cases() -> Vec<ContactCase> {
    vec![
        ContactCase {
            name: "vertex-edge",
            a: vec![v(0.0, 0.9), v(1.0, 2.0), v(-1.0, 2.0)],
            b: rect(-2.0, -1.0, 2.0, 1.0),
            kind: ContactKind::VertexEdge,
            counts: [1, 2, 0, 1],
            points: 1,
        },
        ContactCase {
            name: "edge-edge",
            a: rect(0.0, 0.0, 2.0, 2.0),
            b: rect(1.5, 0.5, 3.5, 2.5),
            kind: ContactKind::EdgeEdge,
            counts: [1, 2, 1, 2],
            points: 2,
        },
        ContactCase {
            name: "multiple vertex-edge (k = 2)",
            a: vec![v(-1.0, 0.9), v(1.0, 0.9), v(1.5, 3.0), v(-1.5, 3.0)],
            b: rect(-2.0, -1.0, 2.0, 1.0),
            kind: ContactKind::MultipleVertexEdge,
            counts: [2, 2, 0, 1],
            points: 2,
        },
        ContactCase {
            name: "multiple edge-edge (k = 2)",
            a: vec![v(0.0, 0.5), v(-2.0, -1.6), v(2.0, -1.6)],
            b: vec![v(-0.2, 0.0), v(0.2, 0.0), v(2.0, 2.0), v(-2.0, 2.0)],
            kind: ContactKind::MultipleEdgeEdge,
            counts: [1, 2, 2, 2],
            points: 3,
        },
        ContactCase {
            name: "crossing (thin bar)",
            a: rect(-3.0, -0.1, 3.0, 0.1),
            b: rect(-1.0, -1.0, 1.0, 1.0),
            kind: ContactKind::Crossing,
            counts: [0, 2, 0, 2],
            points: 4,
        },
        ContactCase {
            name: "contained",
            a: rect(-0.5, -0.5, 0.5, 0.5),
            b: rect(-1.0, -1.0, 1.0, 1.0),
            kind: ContactKind::Contained,
            counts: [4, 0, 0, 0],
            points: 4,
        },
        ContactCase {
            name: "separated",
            a: rect(-1.0, -1.0, 0.0, 0.0),
            b: rect(0.5, 0.25, 1.5, 1.25),
            kind: ContactKind::Separated,
            counts: [0, 0, 0, 0],
            points: 0,
        },
        ContactCase {
            name: "touching corners (closed sets)",
            a: rect(-1.0, -1.0, 0.0, 0.0),
            b: rect(0.0, 0.0, 1.0, 1.0),
            kind: ContactKind::EdgeEdge,
            counts: [1, 2, 1, 2],
            points: 2,
        },
    ]
}

fn contacts_and_sat(r: &mut Report, svg: &mut Svg) {
    let _ = writeln!(
        r.text,
        "\ncontact classification (each table row) and SAT against GJK/EPA:"
    );
    let id = Pose2::IDENTITY;
    for (k, c) in contact_cases().iter().enumerate() {
        let (Ok(a), Ok(b)) = (ConvexPolygon::new(&c.a), ConvexPolygon::new(&c.b)) else {
            r.check(c.name, false, "invalid polygon".into());
            continue;
        };
        let cl = classify(&a, &id, &b, &id);
        let counts = [
            cl.counts.vertices_a_in_b,
            cl.counts.edges_a_hit,
            cl.counts.vertices_b_in_a,
            cl.counts.edges_b_hit,
        ];
        r.check(
            c.name,
            cl.kind == c.kind && counts == c.counts && cl.points.len() == c.points,
            format!(
                "{} counts {counts:?}, {} points (expected {} {:?}, {})",
                crate::polygon_cmd::kind_name(cl.kind),
                cl.points.len(),
                crate::polygon_cmd::kind_name(c.kind),
                c.counts,
                c.points
            ),
        );
        // SAT, GJK and EPA on the same pair.
        let s = sat(&a, &id, &b, &id, None);
        let g = gjk::distance(&a, &id, &b, &id, &gjk::Options::default(), None);
        let e = epa::penetration(
            &a,
            &id,
            &b,
            &id,
            &epa::Options::default(),
            &mut epa::Context::new(),
        );
        let same_verdict = s.verdict.intersecting() == g.intersecting();
        let agree = if s.verdict.intersecting() == Some(true) {
            (s.depth() - e.depth).abs() <= 1e-9 * (1.0 + e.depth.abs())
        } else {
            // SAT's gap is measured along an edge normal: at most the Euclidean distance, and
            // at least 1/√2 of it (facing corners); EPA reports minus the distance.
            s.gap() <= g.distance + 1e-12
                && g.distance <= std::f64::consts::SQRT_2 * s.gap() + 1e-12
                && (g.distance + e.depth).abs() <= 1e-9
        };
        r.check(
            &format!("  SAT vs GJK/EPA: {}", c.name),
            same_verdict && agree,
            format!(
                "SAT separation {:.6}, GJK distance {:.6}, EPA depth {:.6}",
                s.separation, g.distance, e.depth
            ),
        );
        // Drawing: cases side by side along x, above the L-shape.
        let shift = v(7.0 * k as f64, 9.0);
        let moved = |p: &[DVec2]| -> Vec<DVec2> { p.iter().map(|&q| q + shift).collect() };
        svg.polygon(&moved(a.vertices()), "#1f77b4", "#1f77b4");
        svg.polygon(&moved(b.vertices()), "#2ca02c", "#2ca02c");
        // Labels alternate between two heights so that neighbours do not overlap.
        let y = if k % 2 == 0 { 3.0 } else { 4.3 };
        svg.label(shift + v(-2.5, y), c.name, "black");
        if s.verdict.intersecting() == Some(true) {
            for &p in &cl.points {
                svg.dot(p + shift, "#9400d3", 4.5);
                svg.arrow(p + shift, p + shift + s.axis * 0.8, "#9400d3");
            }
        } else {
            let m = a
                .vertices()
                .iter()
                .fold(f64::NEG_INFINITY, |m, p| m.max(s.axis.dot(*p)));
            let through = s.axis * (m + 0.5 * s.separation) + shift;
            svg.line(through, s.axis.perp(), "gray");
        }
    }
}

/// The picture's legend: every mark the 2D section draws.
const LEGEND: &[(Mark, &str, &str)] = &[
    (Mark::Area, "#1f77b4", "shape A; the L-shaped polygon"),
    (Mark::Area, "#2ca02c", "shape B"),
    (Mark::Dot, "#2ca02c", "query point inside"),
    (Mark::Dot, "#ff7f0e", "query point on the boundary"),
    (Mark::Dot, "#d62728", "query point outside"),
    (Mark::DashedPath, "#d62728", "polyline a"),
    (Mark::Path, "#8c564b", "polyline b"),
    (Mark::Dot, "black", "crossing"),
    (Mark::Segment, "black", "collinear overlap"),
    (Mark::Dot, "#9400d3", "contact point"),
    (Mark::Arrow, "#9400d3", "SAT axis (A to B)"),
    (Mark::Line, "gray", "separating line"),
];

/// Runs the 2D cases, writes the picture to `svg_path`, and returns the report text and
/// whether every check passed.
pub fn section(svg_path: &Path) -> (String, bool) {
    let mut r = Report {
        text: String::from("\n2D polygons, contacts and time of impact\n"),
        ok: true,
        checks: 0,
    };
    let mut svg = Svg::new("convexity demo: 2D contact classes, SAT axes, point location");
    for (mark, color, text) in LEGEND {
        svg.legend(*mark, color, text);
    }
    point_in_polygon(&mut r, &mut svg, DVec2::ZERO);
    intersections(&mut r, &mut svg, v(10.0, 0.0));
    contacts_and_sat(&mut r, &mut svg);
    time_of_impact(&mut r);
    let write = std::fs::write(svg_path, svg.finish());
    let failed = r.text.matches("FAIL").count();
    let _ = writeln!(
        r.text,
        "2D section: {} checks, {}{}",
        r.checks,
        if failed == 0 {
            "all pass".to_string()
        } else {
            format!("{failed} FAILED")
        },
        match write {
            Ok(()) => String::new(),
            Err(e) => format!("; could not write {}: {e}", svg_path.display()),
        }
    );
    (r.text, r.ok)
}
