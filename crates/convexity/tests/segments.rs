//! Intersections between polylines and polygons.
//!
//! Oracles: `geo::line_intersection` on every pair of segments (geo's own exact-predicate
//! implementation, independent of ours), with the documented "report once at a shared
//! vertex" rule applied here; and hand-built cases (crossing, touching, collinear overlap,
//! vertical and horizontal segments, NaN separators). The grid sweep and the double loop are
//! also compared with each other on large random walks.
//!
//! Integer coordinates make touching, collinear and overlapping pairs frequent.

use convexity::primitives::polygon::{
    polygon_intersections, polyline_intersections, polyline_intersections_brute, HitKind, Polygon,
    SegmentHit,
};
use convexity::{DVec2, Problem};
use convexity_testkit::rng::{case_rng, Rng};
use geo::line_intersection::{line_intersection, LineIntersection};

fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn hits(a: &[DVec2], b: &[DVec2]) -> Vec<SegmentHit> {
    let sweep = polyline_intersections(a, b).unwrap();
    let brute = polyline_intersections_brute(a, b).unwrap();
    assert_eq!(sweep, brute, "sweep and double loop differ");
    sweep
}

fn point(a: usize, b: usize, p: DVec2) -> SegmentHit {
    SegmentHit {
        a_index: a,
        b_index: b,
        kind: HitKind::Point(p),
    }
}

fn overlap(a: usize, b: usize, p: DVec2, q: DVec2) -> SegmentHit {
    SegmentHit {
        a_index: a,
        b_index: b,
        kind: HitKind::Overlap(p, q),
    }
}

#[test]
fn crossing_touching_and_disjoint() {
    // X crossing, computed point.
    assert_eq!(
        hits(&[v(0.0, 0.0), v(2.0, 2.0)], &[v(0.0, 2.0), v(2.0, 0.0)]),
        vec![point(0, 0, v(1.0, 1.0))]
    );
    // T: an end point on the other's interior (exact point).
    assert_eq!(
        hits(&[v(0.0, 0.0), v(4.0, 0.0)], &[v(1.0, 3.0), v(1.0, 0.0)]),
        vec![point(0, 0, v(1.0, 0.0))]
    );
    // End to end.
    assert_eq!(
        hits(&[v(0.0, 0.0), v(1.0, 1.0)], &[v(1.0, 1.0), v(3.0, 0.0)]),
        vec![point(0, 0, v(1.0, 1.0))]
    );
    // Parallel, disjoint; collinear, disjoint; near miss by one ulp.
    assert!(hits(&[v(0.0, 0.0), v(4.0, 0.0)], &[v(0.0, 1.0), v(4.0, 1.0)]).is_empty());
    assert!(hits(&[v(0.0, 0.0), v(1.0, 1.0)], &[v(2.0, 2.0), v(3.0, 3.0)]).is_empty());
    assert!(hits(
        &[v(0.0, 0.0), v(4.0, 0.0)],
        &[v(1.0, f64::EPSILON), v(1.0, 3.0)]
    )
    .is_empty());
    // Vertical against horizontal, and vertical collinear overlap.
    assert_eq!(
        hits(&[v(2.0, -1.0), v(2.0, 5.0)], &[v(0.0, 3.0), v(4.0, 3.0)]),
        vec![point(0, 0, v(2.0, 3.0))]
    );
    assert_eq!(
        hits(&[v(2.0, -1.0), v(2.0, 5.0)], &[v(2.0, 7.0), v(2.0, 3.0)]),
        vec![overlap(0, 0, v(2.0, 3.0), v(2.0, 5.0))]
    );
}

#[test]
fn collinear_overlap_reports_two_end_points() {
    // Partial overlap, containment, identical, reversed, and touching at one point.
    let a = [v(0.0, 0.0), v(4.0, 2.0)];
    assert_eq!(
        hits(&a, &[v(2.0, 1.0), v(6.0, 3.0)]),
        vec![overlap(0, 0, v(2.0, 1.0), v(4.0, 2.0))]
    );
    assert_eq!(
        hits(&a, &[v(-2.0, -1.0), v(6.0, 3.0)]),
        vec![overlap(0, 0, v(0.0, 0.0), v(4.0, 2.0))]
    );
    assert_eq!(hits(&a, &a), vec![overlap(0, 0, v(0.0, 0.0), v(4.0, 2.0))]);
    assert_eq!(
        hits(&a, &[v(4.0, 2.0), v(0.0, 0.0)]),
        vec![overlap(0, 0, v(0.0, 0.0), v(4.0, 2.0))]
    );
    assert_eq!(
        hits(&a, &[v(4.0, 2.0), v(8.0, 4.0)]),
        vec![point(0, 0, v(4.0, 2.0))]
    );
    // A polyline running along another for two segments: one overlap per segment pair.
    assert_eq!(
        hits(
            &[v(0.0, 0.0), v(2.0, 0.0), v(4.0, 0.0)],
            &[v(1.0, 0.0), v(5.0, 0.0)]
        ),
        vec![
            overlap(0, 0, v(1.0, 0.0), v(2.0, 0.0)),
            overlap(1, 0, v(2.0, 0.0), v(4.0, 0.0)),
        ]
    );
}

#[test]
fn touching_at_a_shared_vertex_is_reported_once() {
    // A zigzag whose interior vertex (2, 0) lies on B: segments 0 and 1 of A both contain it;
    // it is reported once, for segment 0 (the one ending there).
    let a = [v(0.0, 2.0), v(2.0, 0.0), v(4.0, 2.0)];
    let b = [v(0.0, 0.0), v(4.0, 0.0)];
    assert_eq!(hits(&a, &b), vec![point(0, 0, v(2.0, 0.0))]);
    // The same vertex shared by both polylines' interior vertices: reported once.
    let b2 = [v(0.0, -2.0), v(2.0, 0.0), v(4.0, -2.0)];
    assert_eq!(hits(&a, &b2), vec![point(0, 0, v(2.0, 0.0))]);
    // A crossing exactly at a vertex of A where A really crosses B: still once.
    let a3 = [v(0.0, -2.0), v(2.0, 0.0), v(4.0, 2.0)];
    assert_eq!(hits(&a3, &b), vec![point(0, 0, v(2.0, 0.0))]);
    // But a NaN separator makes the two segments belong to different parts: both reported.
    let a4 = [
        v(0.0, 2.0),
        v(2.0, 0.0),
        DVec2::NAN,
        v(2.0, 0.0),
        v(4.0, 2.0),
    ];
    assert_eq!(
        hits(&a4, &b),
        vec![point(0, 0, v(2.0, 0.0)), point(3, 0, v(2.0, 0.0))]
    );
}

#[test]
fn nan_separators_split_parts_and_indices_follow_the_input() {
    let a = [
        DVec2::NAN,
        v(0.0, 0.0),
        v(4.0, 4.0),
        DVec2::NAN,
        DVec2::NAN,
        v(0.0, 4.0),
        v(4.0, 0.0),
        DVec2::NAN,
        v(9.0, 9.0),
    ];
    let b = [v(0.0, 1.0), v(4.0, 1.0)];
    // The separator would otherwise join (4, 4) to (0, 4): that segment does not exist.
    assert_eq!(
        hits(&a, &b),
        vec![point(1, 0, v(1.0, 1.0)), point(5, 0, v(3.0, 1.0))]
    );
    let e = polyline_intersections(&[v(0.0, 0.0), v(f64::NAN, 1.0)], &b).unwrap_err();
    assert_eq!(e.field, "a[1][0]");
    let e = polyline_intersections(&b, &[v(0.0, 0.0), v(1.0, f64::INFINITY)]).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.problem),
        ("b[1][1]", Problem::NotFinite(f64::INFINITY))
    );
    assert!(polyline_intersections(&[], &b).unwrap().is_empty());
}

#[test]
fn polygon_boundaries_close_their_rings() {
    // Two overlapping squares: the closing edge (3 -> 0) of each counts.
    let a = Polygon::new(&[v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)]).unwrap();
    let b = Polygon::new(&[v(2.0, 2.0), v(6.0, 2.0), v(6.0, 6.0), v(2.0, 6.0)]).unwrap();
    assert_eq!(
        polygon_intersections(&a, &b),
        vec![point(1, 0, v(4.0, 2.0)), point(2, 3, v(2.0, 4.0))]
    );
    // Sharing an edge and a vertex: the shared edge is one overlap; the vertices at its ends
    // are inside the overlap and not reported again.
    let c = Polygon::new(&[v(4.0, 0.0), v(8.0, 0.0), v(8.0, 4.0), v(4.0, 4.0)]).unwrap();
    let h = polygon_intersections(&a, &c);
    assert!(
        h.contains(&overlap(1, 3, v(4.0, 0.0), v(4.0, 4.0))),
        "{h:?}"
    );
    for x in &h {
        if let HitKind::Point(p) = x.kind {
            assert!(p == v(4.0, 0.0) || p == v(4.0, 4.0), "{h:?}");
        }
    }
}

/// Our hits for one segment pair, computed through geo; `None` if geo sees no intersection.
fn geo_pair(s: (DVec2, DVec2), t: (DVec2, DVec2)) -> Option<HitKind> {
    let line = |(a, b): (DVec2, DVec2)| geo::Line::new((a.x, a.y), (b.x, b.y));
    let to = |c: geo::Coord<f64>| v(c.x, c.y);
    match line_intersection(line(s), line(t))? {
        LineIntersection::SinglePoint { intersection, .. } => {
            Some(HitKind::Point(to(intersection)))
        }
        LineIntersection::Collinear { intersection } => {
            let (p, q) = (to(intersection.start), to(intersection.end));
            if p == q {
                Some(HitKind::Point(p))
            } else if (p.x, p.y) < (q.x, q.y) {
                Some(HitKind::Overlap(p, q))
            } else {
                Some(HitKind::Overlap(q, p))
            }
        }
    }
}

/// Reference: geo on every pair, then the reporting rule of the module documentation.
fn reference(a: &[DVec2], b: &[DVec2]) -> Vec<SegmentHit> {
    let segs = |pts: &[DVec2]| -> Vec<(usize, DVec2, DVec2, bool)> {
        (0..pts.len().saturating_sub(1))
            .filter(|&i| !pts[i].x.is_nan() && !pts[i + 1].x.is_nan())
            .map(|i| (i, pts[i], pts[i + 1], i > 0 && !pts[i - 1].x.is_nan()))
            .collect()
    };
    let mut out = Vec::new();
    for &(i, a0, a1, a_prev) in &segs(a) {
        for &(j, b0, b1, b_prev) in &segs(b) {
            // geo does not handle zero-length segments as points; do it here.
            let kind = if a0 == a1 || b0 == b1 {
                let (p, (c, d)) = if a0 == a1 {
                    (a0, (b0, b1))
                } else {
                    (b0, (a0, a1))
                };
                let on = robust::orient2d(
                    robust::Coord { x: c.x, y: c.y },
                    robust::Coord { x: d.x, y: d.y },
                    robust::Coord { x: p.x, y: p.y },
                ) == 0.0
                    && p.x >= c.x.min(d.x)
                    && p.x <= c.x.max(d.x)
                    && p.y >= c.y.min(d.y)
                    && p.y <= c.y.max(d.y);
                on.then_some(HitKind::Point(p))
            } else {
                geo_pair((a0, a1), (b0, b1))
            };
            let Some(kind) = kind else { continue };
            if let HitKind::Point(p) = kind {
                if (a_prev && p == a0) || (b_prev && p == b0) {
                    continue;
                }
            }
            out.push(SegmentHit {
                a_index: i,
                b_index: j,
                kind,
            });
        }
    }
    out
}

fn same(ours: &[SegmentHit], want: &[SegmentHit]) -> bool {
    ours.len() == want.len()
        && ours.iter().zip(want).all(|(x, y)| {
            x.a_index == y.a_index
                && x.b_index == y.b_index
                && match (x.kind, y.kind) {
                    (HitKind::Point(p), HitKind::Point(q)) => {
                        (p - q).abs().max_element() <= 1e-12 * (1.0 + p.abs().max_element())
                    }
                    (HitKind::Overlap(p0, p1), HitKind::Overlap(q0, q1)) => p0 == q0 && p1 == q1,
                    _ => false,
                }
        })
}

fn random_polyline(rng: &mut impl Rng, n: usize, range: i32) -> Vec<DVec2> {
    (0..n)
        .map(|_| {
            if rng.gen_bool(0.03) {
                DVec2::NAN
            } else {
                v(
                    rng.gen_range(-range..=range) as f64,
                    rng.gen_range(-range..=range) as f64,
                )
            }
        })
        .collect()
}

#[test]
fn agrees_with_geo_on_random_integer_polylines() {
    // 2,000 pairs of polylines of up to 16 vertices on a 9 x 9 lattice: over 100,000 segment
    // pairs, with many touching, collinear and overlapping ones.
    let (mut pairs, mut found, mut overlaps) = (0usize, 0usize, 0usize);
    for case in 0..2000u64 {
        let mut rng = case_rng(0x5e9, case);
        let (n, m) = (rng.gen_range(2..=16), rng.gen_range(2..=16));
        let a = random_polyline(&mut rng, n, 4);
        let b = random_polyline(&mut rng, m, 4);
        let want = reference(&a, &b);
        let ours = hits(&a, &b);
        assert!(
            same(&ours, &want),
            "case {case}\nours {ours:?}\nwant {want:?}\na {a:?}\nb {b:?}"
        );
        pairs += (n - 1) * (m - 1);
        found += ours.len();
        overlaps += ours
            .iter()
            .filter(|h| matches!(h.kind, HitKind::Overlap(..)))
            .count();
    }
    assert!(pairs >= 100_000, "only {pairs} pairs");
    assert!(
        found > 10_000 && overlaps > 200,
        "{found} hits, {overlaps} overlaps"
    );
}

#[test]
fn agrees_with_geo_on_random_float_polylines_offset() {
    // Float coordinates far from the origin (offset 1e6): crossings are computed points.
    for case in 0..200u64 {
        let mut rng = case_rng(0xf10a7, case);
        let mk = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<DVec2> {
            (0..30)
                .map(|_| {
                    v(
                        1e6 + rng.gen_range(-1.0..1.0),
                        -1e6 + rng.gen_range(-1.0..1.0),
                    )
                })
                .collect()
        };
        let (a, b) = (mk(&mut rng), mk(&mut rng));
        let ours = hits(&a, &b);
        let want = reference(&a, &b);
        assert!(same(&ours, &want), "case {case}");
    }
}

#[test]
fn sweep_equals_double_loop_on_long_random_walks() {
    // Random walks of 3,000 steps (short segments, the grid's good case) and sets of long
    // segments (the grid coarsens), with lattice steps so that degeneracies occur.
    for case in 0..6u64 {
        let mut rng = case_rng(0x3a1c, case);
        let walk = |rng: &mut rand_chacha::ChaCha8Rng, step: i32| {
            let mut p = v(0.0, 0.0);
            (0..3000)
                .map(|_| {
                    p += v(
                        rng.gen_range(-step..=step) as f64,
                        rng.gen_range(-step..=step) as f64,
                    );
                    p
                })
                .collect::<Vec<_>>()
        };
        let step = if case < 3 { 2 } else { 60 };
        let (a, b) = (walk(&mut rng, step), walk(&mut rng, step));
        let sweep = polyline_intersections(&a, &b).unwrap();
        let brute = polyline_intersections_brute(&a, &b).unwrap();
        assert_eq!(sweep, brute, "case {case}");
        assert!(!sweep.is_empty());
    }
}
