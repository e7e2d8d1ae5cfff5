//! Contact classification: one constructed case per row of the lecture-notes table (and of the
//! rows it lacks), the counts and contact points checked against hand-derived values, the
//! invariance of the counts under rigid motions, and agreement with SAT on overlap.
//!
//! What the cases found (documented in `contact2d.rs`): the rows vertex–edge (1, 2, 0, 1 → 1)
//! and edge–edge (1, 2, 1, 2 → 2) are right; multiple vertex–edge is (k, 2, 0, 1 → k); multiple
//! edge–edge is (1, 2, k, 2 → 1 + k), so the table's "5 contact points" is the k = 4 case
//! only (constructed below), not a general value.

use convexity::polytope::contact2d::{classify, ContactClass, ContactCounts, ContactKind};
use convexity::polytope::sat2d::{sat, Body};
use convexity::*;
use convexity_testkit::gen2::rect_corners;
use convexity_testkit::rng::rng;
use rand::Rng;

fn poly(v: &[(f64, f64)]) -> ConvexPolygon {
    let v: Vec<DVec2> = v.iter().map(|&(x, y)| DVec2::new(x, y)).collect();
    ConvexPolygon::new(&v).unwrap()
}

fn square() -> ConvexPolygon {
    ConvexPolygon::new(&rect_corners(DVec2::ONE)).unwrap()
}

fn run(a: &ConvexPolygon, b: &ConvexPolygon) -> ContactClass {
    classify(a, &Pose2::IDENTITY, b, &Pose2::IDENTITY)
}

fn counts(vi: usize, ei: usize, vj: usize, ej: usize, x: usize) -> ContactCounts {
    ContactCounts {
        vertices_a_in_b: vi,
        edges_a_hit: ei,
        vertices_b_in_a: vj,
        edges_b_hit: ej,
        crossings: x,
    }
}

fn assert_points(c: &ContactClass, expected: &[(f64, f64)]) {
    assert_eq!(c.points.len(), expected.len(), "{c:?}");
    for (p, e) in c.points.iter().zip(expected) {
        assert!((*p - DVec2::new(e.0, e.1)).length() < 1e-15, "{p} vs {e:?}");
    }
}

/// A diamond whose bottom vertex pokes 0.05 into the unit square's top edge.
fn diamond(tip_y: f64, tip_x: f64) -> ConvexPolygon {
    poly(&[
        (tip_x, tip_y),
        (tip_x + 0.5, tip_y + 0.55),
        (tip_x, tip_y + 1.1),
        (tip_x - 0.5, tip_y + 0.55),
    ])
}

#[test]
fn row_vertex_edge() {
    let c = run(&diamond(0.95, 0.0), &square());
    assert_eq!(c.kind, ContactKind::VertexEdge);
    assert_eq!(c.body, Body::A);
    assert_eq!(c.counts, counts(1, 2, 0, 1, 2));
    assert_points(&c, &[(0.0, 0.95)]);
    // Mirror: the square's vertex in the diamond's role exchanged.
    let c = run(&square(), &diamond(0.95, 0.0));
    assert_eq!((c.kind, c.body), (ContactKind::VertexEdge, Body::B));
    assert_eq!(c.counts, counts(0, 1, 1, 2, 2));
}

#[test]
fn row_edge_edge() {
    let a = ConvexPolygon::new(
        &rect_corners(DVec2::ONE)
            .iter()
            .map(|p| *p + DVec2::new(1.5, 1.9))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let c = run(&a, &square());
    assert_eq!(c.kind, ContactKind::EdgeEdge);
    assert_eq!(c.counts, counts(1, 2, 1, 2, 2));
    assert_points(&c, &[(0.5, 0.9), (1.0, 1.0)]);
}

#[test]
fn row_multiple_vertex_edge() {
    // A flat edge sunk into the top edge: two vertices.
    let a = poly(&[(-0.5, 0.95), (0.5, 0.95), (0.5, 2.0), (-0.5, 2.0)]);
    let c = run(&a, &square());
    assert_eq!(c.kind, ContactKind::MultipleVertexEdge);
    assert_eq!(c.counts, counts(2, 2, 0, 1, 2));
    assert_points(&c, &[(-0.5, 0.95), (0.5, 0.95)]);
    // Three vertices of a shallow chain.
    let a = poly(&[
        (-0.5, 0.95),
        (0.0, 0.92),
        (0.5, 0.95),
        (0.5, 2.0),
        (-0.5, 2.0),
    ]);
    let c = run(&a, &square());
    assert_eq!(c.kind, ContactKind::MultipleVertexEdge);
    assert_eq!(c.counts, counts(3, 2, 0, 1, 2));
    assert_eq!(c.points.len(), 3);
}

/// A wide flat wedge whose tip is inside the square and whose lower edges pass below the
/// square's top corners.
fn wedge() -> ConvexPolygon {
    poly(&[(0.0, 0.9), (30.0, 2.0), (-30.0, 2.0)])
}

#[test]
fn row_multiple_edge_edge() {
    // k = 2: contact points 1 + 2 = 3, not the table's 5.
    let c = run(&wedge(), &square());
    assert_eq!(c.kind, ContactKind::MultipleEdgeEdge);
    assert_eq!(c.counts, counts(1, 2, 2, 2, 2));
    assert_eq!(c.points.len(), 3);
    assert_eq!(c.body, Body::B);
    // k = 4: the table's row exactly (1, 2, ≥2, 2, 5).
    let b = poly(&[
        (-1.0, -1.0),
        (1.0, -1.0),
        (1.0, 1.0),
        (0.5, 1.1),
        (-0.5, 1.1),
        (-1.0, 1.0),
    ]);
    let c = run(&wedge(), &b);
    assert_eq!(c.kind, ContactKind::MultipleEdgeEdge);
    assert_eq!(c.counts, counts(1, 2, 4, 2, 2));
    assert_eq!(c.points.len(), 5);
}

#[test]
fn rows_the_table_lacks() {
    // A thin bar through the square: edges cross, no vertex inside.
    let bar = ConvexPolygon::new(&rect_corners(DVec2::new(3.0, 0.1))).unwrap();
    let c = run(&bar, &square());
    assert_eq!(c.kind, ContactKind::Crossing);
    assert_eq!(c.counts, counts(0, 2, 0, 2, 4));
    assert_eq!(c.points.len(), 4);
    // Containment.
    let small = ConvexPolygon::new(&rect_corners(DVec2::splat(0.25))).unwrap();
    let c = run(&small, &square());
    assert_eq!((c.kind, c.body), (ContactKind::Contained, Body::A));
    assert_eq!(c.counts, counts(4, 0, 0, 0, 0));
    // Apart.
    let c = run(&diamond(1.5, 0.0), &square());
    assert_eq!(c.kind, ContactKind::Separated);
    assert!(c.points.is_empty());
}

#[test]
fn exact_touching_cases() {
    // Vertex exactly on the edge: closed sets make it a vertex–edge contact with zero depth.
    let c = run(&diamond(1.0, 0.0), &square());
    assert_eq!(c.kind, ContactKind::VertexEdge);
    assert_eq!(c.counts, counts(1, 2, 0, 1, 2));
    // Vertex exactly on the square's corner: each polygon has a vertex in the other, so the
    // counts are those of edge–edge (1, 2, 1, 2) although the contact is a single point.
    let c = run(&diamond(1.0, 1.0), &square());
    assert_eq!(c.kind, ContactKind::EdgeEdge);
    assert_eq!(c.counts.vertices_a_in_b, 1);
    assert_eq!(c.counts.vertices_b_in_a, 1);
    assert_eq!(c.counts.edges_a_hit, 2);
    assert_eq!(c.counts.edges_b_hit, 2);
    assert_points(&c, &[(1.0, 1.0), (1.0, 1.0)]);
}

#[test]
fn counts_are_invariant_under_rigid_motion_and_agree_with_sat() {
    let cases: Vec<(ConvexPolygon, ConvexPolygon)> = vec![
        (diamond(0.95, 0.0), square()),
        (
            poly(&[(-0.5, 0.95), (0.5, 0.95), (0.5, 2.0), (-0.5, 2.0)]),
            square(),
        ),
        (wedge(), square()),
        (
            ConvexPolygon::new(&rect_corners(DVec2::new(3.0, 0.1))).unwrap(),
            square(),
        ),
        (diamond(1.5, 0.0), square()),
    ];
    let mut r = rng(0xc0_2d);
    for (a, b) in &cases {
        let base = run(a, b);
        for _ in 0..50 {
            let ang: f64 = r.gen_range(-3.0..3.0);
            let t = DVec2::new(r.gen_range(-1e3..1e3), r.gen_range(-1e3..1e3));
            let p = Pose2::from_angle(t.to_array(), ang).unwrap();
            let c = classify(a, &p, b, &p);
            assert_eq!(c.kind, base.kind);
            assert_eq!(c.counts, base.counts);
            for (x, y) in c.points.iter().zip(&base.points) {
                assert!((*x - p.transform_point(*y)).length() < 1e-9);
            }
            let s = sat(a, &p, b, &p, None);
            let overlap = base.kind != ContactKind::Separated;
            assert_eq!(s.verdict.intersecting(), Some(overlap));
        }
    }
}
