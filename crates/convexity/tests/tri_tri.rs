//! Triangle–triangle intersection: constructed boundary cases, an independent brute-force
//! exact oracle on random pairs (continuous, integer-grid with exact degeneracies, shared
//! features, near-coplanar at ±1e-12), metamorphic properties, and a parry3d-f64 cross-check
//! outside a tolerance band.
//!
//! The oracle never calls the library: two closed triangles meet iff some edge of one meets
//! the other (an interval of the line L = πA ∩ πB has its endpoints on the triangles'
//! boundaries; coplanar containment makes an edge lie inside), with segment–triangle decided by
//! `orient3d` sign patterns and coplanar or degenerate cases by 2D tests in every coordinate
//! projection.

use convexity::gjk::certificate::{tolerance_for, verify};
use convexity::primitives::tri_tri::{
    point_on_triangle, tri_tri, tri_tri_test, tri_tri_verdict, TriTri,
};
use convexity::DVec3;
use convexity::Verdict;
use convexity::{Pose3, Triangle};
use convexity_testkit::predicates::{collinear3, orient2d, orient3d, Sign};
use convexity_testkit::rng::{rng, Rng};
use glam::DVec2;

// ------------------------------------------------------------------------------------------
// Oracle.

fn proj(p: DVec3, k: usize) -> DVec2 {
    match k {
        0 => DVec2::new(p.y, p.z),
        1 => DVec2::new(p.x, p.z),
        _ => DVec2::new(p.x, p.y),
    }
}

fn on_seg2(x: DVec2, a: DVec2, b: DVec2) -> bool {
    orient2d(a, b, x) == Sign::Zero
        && x.x >= a.x.min(b.x)
        && x.x <= a.x.max(b.x)
        && x.y >= a.y.min(b.y)
        && x.y <= a.y.max(b.y)
}

fn seg_seg2(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = orient2d(a, b, c);
    let o2 = orient2d(a, b, d);
    let o3 = orient2d(c, d, a);
    let o4 = orient2d(c, d, b);
    let strictly = |x: Sign, y: Sign| {
        (x == Sign::Positive && y == Sign::Negative) || (x == Sign::Negative && y == Sign::Positive)
    };
    (strictly(o1, o2) && strictly(o3, o4))
        || on_seg2(c, a, b)
        || on_seg2(d, a, b)
        || on_seg2(a, c, d)
        || on_seg2(b, c, d)
}

/// Two closed 3D segments: coplanar and meeting in every coordinate projection (one of which
/// is one-to-one on their common affine hull).
fn seg_seg3(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> bool {
    orient3d(a, b, c, d) == Sign::Zero
        && (0..3).all(|k| seg_seg2(proj(a, k), proj(b, k), proj(c, k), proj(d, k)))
}

fn degenerate(t: [DVec3; 3]) -> bool {
    collinear3(t[0], t[1], t[2])
}

fn in_tri2(x: DVec2, t: [DVec2; 3]) -> bool {
    let s = [
        orient2d(t[0], t[1], x),
        orient2d(t[1], t[2], x),
        orient2d(t[2], t[0], x),
    ];
    !s.contains(&Sign::Positive) || !s.contains(&Sign::Negative)
}

/// Closed segment pq against closed triangle t (any triangle).
fn seg_tri(p: DVec3, q: DVec3, t: [DVec3; 3]) -> bool {
    if degenerate(t) {
        return seg_seg3(p, q, t[0], t[1])
            || seg_seg3(p, q, t[1], t[2])
            || seg_seg3(p, q, t[2], t[0]);
    }
    let sp = orient3d(t[0], t[1], t[2], p);
    let sq = orient3d(t[0], t[1], t[2], q);
    if sp == sq && sp != Sign::Zero {
        return false;
    }
    if sp == Sign::Zero && sq == Sign::Zero {
        // Coplanar: a projection where the triangle stays a triangle.
        let k = (0..3)
            .find(|&k| orient2d(proj(t[0], k), proj(t[1], k), proj(t[2], k)) != Sign::Zero)
            .unwrap();
        let t2 = t.map(|v| proj(v, k));
        let (p2, q2) = (proj(p, k), proj(q, k));
        return in_tri2(p2, t2)
            || in_tri2(q2, t2)
            || seg_seg2(p2, q2, t2[0], t2[1])
            || seg_seg2(p2, q2, t2[1], t2[2])
            || seg_seg2(p2, q2, t2[2], t2[0]);
    }
    if sp == Sign::Zero || sq == Sign::Zero {
        // One endpoint on the plane: is it in the triangle?
        let x = if sp == Sign::Zero { p } else { q };
        let k = (0..3)
            .find(|&k| orient2d(proj(t[0], k), proj(t[1], k), proj(t[2], k)) != Sign::Zero)
            .unwrap();
        return in_tri2(proj(x, k), t.map(|v| proj(v, k)));
    }
    let s = [
        orient3d(p, q, t[0], t[1]),
        orient3d(p, q, t[1], t[2]),
        orient3d(p, q, t[2], t[0]),
    ];
    !s.contains(&Sign::Positive) || !s.contains(&Sign::Negative)
}

fn oracle(a: [DVec3; 3], b: [DVec3; 3]) -> bool {
    (0..3).any(|i| seg_tri(a[i], a[(i + 1) % 3], b))
        || (0..3).any(|i| seg_tri(b[i], b[(i + 1) % 3], a))
}

// ------------------------------------------------------------------------------------------
// Geometry helpers for checking constructed points.

fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let l = ab.length_squared();
    if l == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l).clamp(0.0, 1.0)
}

fn dist_point_tri(p: DVec3, t: [DVec3; 3]) -> f64 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let mut best = f64::INFINITY;
    for i in 0..3 {
        best = best.min((closest_on_segment(p, t[i], t[(i + 1) % 3]) - p).length());
    }
    let nl = n.length();
    if nl > 0.0 {
        let u = n / nl;
        let h = (p - t[0]).dot(u);
        let x = p - u * h;
        let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(x - t[i]).dot(n) >= 0.0);
        if inside {
            best = best.min(h.abs());
        }
    }
    best
}

fn result_points(r: &TriTri) -> Vec<DVec3> {
    match r {
        TriTri::Disjoint => vec![],
        TriTri::Point(p) => vec![*p],
        TriTri::Segment(p, q) => vec![*p, *q],
        TriTri::Coplanar(v) => v.clone(),
    }
}

fn scale(a: [DVec3; 3], b: [DVec3; 3]) -> f64 {
    a.iter()
        .chain(b.iter())
        .map(|p| p.abs().max_element())
        .fold(1e-300, f64::max)
}

fn kind(r: &TriTri) -> u8 {
    match r {
        TriTri::Disjoint => 0,
        TriTri::Point(_) => 1,
        TriTri::Segment(..) => 2,
        TriTri::Coplanar(_) => 3,
    }
}

/// Checks one pair against the oracle, the point bounds and the metamorphic properties
/// (swap, vertex rotation, reversal: same kind). Returns the oracle's answer and the largest
/// distance of a returned point from either triangle, relative to the coordinate scale.
fn check_err(a: [DVec3; 3], b: [DVec3; 3], tag: &str) -> (bool, f64) {
    let mut worst = 0.0f64;
    let want = oracle(a, b);
    let got_test = tri_tri_test(a, b);
    let r = tri_tri(a, b);
    assert_eq!(
        got_test, want,
        "{tag}: tri_tri_test vs oracle for {a:?} {b:?}"
    );
    assert_eq!(
        r.is_intersecting(),
        want,
        "{tag}: tri_tri vs oracle for {a:?} {b:?}: {r:?}"
    );
    let s = scale(a, b);
    for p in result_points(&r) {
        let da = dist_point_tri(p, a);
        let db = dist_point_tri(p, b);
        worst = worst.max(da.max(db) / s);
        assert!(
            da <= 1e-9 * s && db <= 1e-9 * s,
            "{tag}: point {p:?} off the triangles ({da:e}, {db:e}) for {a:?} {b:?}: {r:?}"
        );
    }
    let k = kind(&r);
    let swapped = tri_tri(b, a);
    assert_eq!(
        kind(&swapped),
        k,
        "{tag}: swap changed kind {a:?} {b:?}: {r:?} / {swapped:?}"
    );
    let rot = tri_tri([a[1], a[2], a[0]], [b[2], b[1], b[0]]);
    assert_eq!(
        kind(&rot),
        k,
        "{tag}: permutation changed kind {a:?} {b:?}: {r:?} / {rot:?}"
    );
    (want, worst)
}

fn check(a: [DVec3; 3], b: [DVec3; 3], tag: &str) -> bool {
    check_err(a, b, tag).0
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

// ------------------------------------------------------------------------------------------
// Constructed boundary cases.

const A: [DVec3; 3] = [
    DVec3::new(0.0, 0.0, 0.0),
    DVec3::new(4.0, 0.0, 0.0),
    DVec3::new(0.0, 4.0, 0.0),
];

#[test]
fn shared_vertex_non_coplanar_is_that_point() {
    let b = [A[1], v(5.0, 1.0, 3.0), v(6.0, -1.0, 2.0)];
    assert_eq!(tri_tri(A, b), TriTri::Point(A[1]));
    assert!(check(A, b, "shared vertex"));
}

#[test]
fn shared_vertex_coplanar_is_that_point() {
    let b = [A[1], v(6.0, 1.0, 0.0), v(6.0, -1.0, 0.0)];
    assert_eq!(tri_tri(A, b), TriTri::Point(A[1]));
}

#[test]
fn shared_edge_non_coplanar_is_the_edge() {
    let b = [A[0], A[1], v(1.0, 1.0, 3.0)];
    match tri_tri(A, b) {
        TriTri::Segment(p, q) => {
            assert!(
                (p == A[0] && q == A[1]) || (p == A[1] && q == A[0]),
                "{p:?} {q:?}"
            );
        }
        r => panic!("expected the shared edge, got {r:?}"),
    }
}

#[test]
fn shared_edge_coplanar_opposite_sides_is_the_edge() {
    let b = [A[0], A[1], v(2.0, -3.0, 0.0)];
    match tri_tri(A, b) {
        TriTri::Segment(p, q) => {
            assert!(
                (p == A[0] && q == A[1]) || (p == A[1] && q == A[0]),
                "{p:?} {q:?}"
            );
        }
        r => panic!("expected the shared edge, got {r:?}"),
    }
}

#[test]
fn coplanar_overlap_is_a_polygon_with_the_right_area() {
    // A shifted copy: the overlap is the triangle (1,1),(3,1),(1,3), area 2.
    let b = A.map(|p| p + v(1.0, 1.0, 0.0));
    match tri_tri(A, b) {
        TriTri::Coplanar(poly) => {
            let mut area = 0.0;
            for i in 1..poly.len() - 1 {
                area += 0.5 * (poly[i] - poly[0]).cross(poly[i + 1] - poly[0]).length();
            }
            assert!((area - 2.0).abs() < 1e-12, "area {area}, {poly:?}");
        }
        r => panic!("expected a polygon, got {r:?}"),
    }
    // A hexagram: two triangles overlapping in a hexagon.
    let t1 = [v(0.0, 0.0, 1.0), v(6.0, 0.0, 1.0), v(3.0, 6.0, 1.0)];
    let t2 = [v(0.0, 4.0, 1.0), v(6.0, 4.0, 1.0), v(3.0, -2.0, 1.0)];
    match tri_tri(t1, t2) {
        TriTri::Coplanar(poly) => assert_eq!(poly.len(), 6, "{poly:?}"),
        r => panic!("expected a hexagon, got {r:?}"),
    }
}

#[test]
fn coplanar_disjoint_and_coplanar_contained() {
    let b = A.map(|p| p + v(5.0, 0.0, 0.0));
    assert_eq!(tri_tri(A, b), TriTri::Disjoint);
    let inner = [v(1.0, 1.0, 0.0), v(2.0, 1.0, 0.0), v(1.0, 2.0, 0.0)];
    match tri_tri(A, inner) {
        TriTri::Coplanar(poly) => {
            assert_eq!(poly.len(), 3);
            for p in inner {
                assert!(poly.contains(&p));
            }
        }
        r => panic!("{r:?}"),
    }
    // Just touching along a diagonal edge (hypotenuse x + y = 4).
    let c = [v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0), v(4.0, 4.0, 0.0)];
    assert!(matches!(tri_tri(A, c), TriTri::Segment(..)));
}

#[test]
fn vertex_touching_face_and_edge() {
    // B's apex touches the interior of A's face: a point, exact.
    let b = [v(1.0, 1.0, 0.0), v(0.0, 0.0, 2.0), v(2.0, 0.0, 2.0)];
    assert_eq!(tri_tri(A, b), TriTri::Point(v(1.0, 1.0, 0.0)));
    // B's vertex touches the interior of A's edge.
    let b = [v(2.0, 0.0, 0.0), v(2.0, -1.0, 2.0), v(3.0, -1.0, 2.0)];
    assert_eq!(tri_tri(A, b), TriTri::Point(v(2.0, 0.0, 0.0)));
    // Edge crossing edge, non-coplanar: a point (not a zero-length segment).
    let b = [v(2.0, -1.0, -1.0), v(2.0, 1.0, 1.0), v(2.0, -2.0, 3.0)];
    match tri_tri(A, b) {
        TriTri::Point(p) => assert!((p - v(2.0, 0.0, 0.0)).length() < 1e-15, "{p:?}"),
        r => panic!("{r:?}"),
    }
}

#[test]
fn near_coplanar_at_1e_12() {
    for dz in [1e-12, -1e-12] {
        // B lies in z = dz (parallel): disjoint, exactly.
        let b = [v(1.0, 1.0, dz), v(3.0, 1.0, dz), v(1.0, 3.0, dz)];
        assert_eq!(tri_tri(A, b), TriTri::Disjoint, "dz {dz}");
        // B tilted so one vertex dips 1e-12 through A: a tiny segment.
        let b = [v(1.0, 1.0, -dz), v(3.0, 1.0, dz), v(1.0, 3.0, dz)];
        assert!(matches!(tri_tri(A, b), TriTri::Segment(..)), "dz {dz}");
        assert!(check(A, b, "near coplanar"));
        // Tilted so one vertex sits exactly on A's plane: a point.
        let b = [v(1.0, 1.0, 0.0), v(3.0, 1.0, dz), v(1.0, 3.0, dz)];
        assert_eq!(tri_tri(A, b), TriTri::Point(v(1.0, 1.0, 0.0)));
    }
}

#[test]
fn zero_area_and_collinear_triangles() {
    // A segment piercing A's face.
    let s = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0), v(1.0, 1.0, 0.5)];
    assert_eq!(tri_tri(A, s), TriTri::Point(v(1.0, 1.0, 0.0)));
    // A segment lying in A's plane, crossing its boundary.
    let s = [v(-1.0, 1.0, 0.0), v(5.0, 1.0, 0.0), v(2.0, 1.0, 0.0)];
    match tri_tri(A, s) {
        TriTri::Segment(p, q) => {
            let (lo, hi) = if p.x < q.x { (p, q) } else { (q, p) };
            assert_eq!(lo, v(0.0, 1.0, 0.0));
            assert!((hi - v(3.0, 1.0, 0.0)).length() < 1e-15);
        }
        r => panic!("{r:?}"),
    }
    // A point triangle on A's edge, and off it.
    let p = [v(2.0, 0.0, 0.0); 3];
    assert_eq!(tri_tri(A, p), TriTri::Point(v(2.0, 0.0, 0.0)));
    let p = [v(2.0, -1e-300, 0.0); 3];
    assert_eq!(tri_tri(A, p), TriTri::Disjoint);
    // Two collinear segments overlapping, and two skew segments.
    let s1 = [v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0), v(1.0, 1.0, 1.0)];
    let s2 = [v(1.0, 1.0, 1.0), v(3.0, 3.0, 3.0), v(3.0, 3.0, 3.0)];
    assert_eq!(
        tri_tri(s1, s2),
        TriTri::Segment(v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0))
    );
    let s3 = [v(0.0, 2.0, 0.0), v(2.0, 0.0, 0.0), v(1.0, 1.0, 0.0)];
    let s4 = [v(1.0, 1.0, 1.0), v(1.0, 1.0, 2.0), v(1.0, 1.0, 2.0)];
    assert_eq!(tri_tri(s3, s4), TriTri::Disjoint);
    let s5 = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 2.0), v(1.0, 1.0, 2.0)];
    assert_eq!(tri_tri(s3, s5), TriTri::Point(v(1.0, 1.0, 0.0)));
    // Identical triangles: the triangle itself.
    match tri_tri(A, A) {
        TriTri::Coplanar(poly) => assert_eq!(poly.len(), 3),
        r => panic!("{r:?}"),
    }
}

#[test]
fn point_on_triangle_boundary_cases() {
    assert!(point_on_triangle(v(0.0, 0.0, 0.0), A));
    assert!(point_on_triangle(v(2.0, 2.0, 0.0), A));
    assert!(point_on_triangle(v(1.0, 1.0, 0.0), A));
    assert!(!point_on_triangle(v(1.0, 1.0, 1e-300), A));
    assert!(!point_on_triangle(v(2.0, 2.0 + 1e-15, 0.0), A));
}

#[test]
fn far_offset_and_scale_ratio() {
    // Offset 1e6 and a 1e4 size ratio, shared vertex and touching.
    let o = v(1e6, -1e6, 1e6);
    let big = A.map(|p| p * 1e2 + o);
    let small = [
        big[0],
        big[0] + v(0.01, 0.0, 0.03),
        big[0] + v(0.0, 0.02, 0.01),
    ];
    assert_eq!(tri_tri(big, small), TriTri::Point(big[0]));
    assert!(check(big, small, "offset"));
}

// ------------------------------------------------------------------------------------------
// Random campaigns against the oracle.

fn rand_tri(r: &mut impl Rng, s: f64) -> [DVec3; 3] {
    [(); 3].map(|_| v(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s)))
}

fn grid_tri(r: &mut impl Rng, n: i32) -> [DVec3; 3] {
    [(); 3].map(|_| {
        v(
            r.gen_range(-n..=n) as f64,
            r.gen_range(-n..=n) as f64,
            r.gen_range(-n..=n) as f64,
        )
    })
}

#[test]
fn random_pairs_agree_with_brute_force_oracle() {
    campaign(0x7217_0001, 120_000);
}

/// 2,000,000 more pairs on another seed (about 40 s at opt-level 2 on an idle core).
#[test]
#[ignore]
fn random_pairs_agree_with_brute_force_oracle_long() {
    campaign(0x7217_1001, 2_000_000);
}

fn campaign(seed: u64, count: u32) {
    let mut r = rng(seed);
    let mut hits = 0usize;
    let mut total = 0usize;
    let mut kinds = [0usize; 4];
    let mut worst = 0.0f64;
    for case in 0..count {
        let (a, b) = match case % 8 {
            // Continuous, overlapping boxes.
            0 | 1 => (rand_tri(&mut r, 1.0), rand_tri(&mut r, 1.0)),
            // Integer grid: many exact degeneracies (coplanar, collinear, vertex on edge...).
            2 => (grid_tri(&mut r, 2), grid_tri(&mut r, 2)),
            3 => (grid_tri(&mut r, 1), grid_tri(&mut r, 1)),
            // Shared vertex / shared edge with random rest.
            4 => {
                let a = grid_tri(&mut r, 3);
                let mut b = grid_tri(&mut r, 3);
                b[0] = a[r.gen_range(0..3)];
                if r.gen_bool(0.5) {
                    b[1] = a[(r.gen_range(0..3) + 1) % 3];
                }
                (a, b)
            }
            // Coplanar: both in z = 0.5 (exact), continuous in-plane.
            5 => {
                let mut a = rand_tri(&mut r, 1.0);
                let mut b = rand_tri(&mut r, 1.0);
                for p in a.iter_mut().chain(b.iter_mut()) {
                    p.z = 0.5;
                }
                (a, b)
            }
            // Near-coplanar: B's plane offset ±1e-12 from A's (z-plane), or one vertex.
            6 => {
                let mut a = rand_tri(&mut r, 1.0);
                let mut b = rand_tri(&mut r, 1.0);
                for p in a.iter_mut() {
                    p.z = 0.25;
                }
                let k = r.gen_range(0..3);
                for (i, p) in b.iter_mut().enumerate() {
                    let e = if r.gen_bool(0.5) { 1e-12 } else { -1e-12 };
                    p.z = 0.25 + if i == k || r.gen_bool(0.5) { e } else { 0.0 };
                }
                (a, b)
            }
            // Vertex exactly on an edge midpoint (halves on a grid are exact), zero-area mixes.
            _ => {
                let a = grid_tri(&mut r, 2);
                let i = r.gen_range(0..3);
                let m = (a[i] + a[(i + 1) % 3]) * 0.5;
                let mut b = grid_tri(&mut r, 2);
                b[0] = m;
                if r.gen_bool(0.2) {
                    b[2] = b[1];
                }
                (a, b)
            }
        };
        let tag = format!("case {case}");
        let (hit, err) = check_err(a, b, &tag);
        worst = worst.max(err);
        if hit {
            hits += 1;
        }
        kinds[kind(&tri_tri(a, b)) as usize] += 1;
        total += 1;
    }
    eprintln!(
        "{total} pairs, {hits} intersecting; kinds (disjoint, point, segment, polygon) = \
         {kinds:?}; worst point-to-triangle distance / scale = {worst:e}"
    );
    assert!(worst < 1e-14, "{worst:e}");
    assert!(hits > total / 5 && hits < total * 4 / 5);
    assert!(kinds.iter().all(|&k| k > 1000), "{kinds:?}");
}

#[test]
fn rigid_motion_preserves_the_answer_on_integer_lattices() {
    // Axis permutations and sign flips are exact rigid motions (or reflections).
    let mut r = rng(0x7217_0002);
    for _ in 0..5_000 {
        let a = grid_tri(&mut r, 2);
        let b = grid_tri(&mut r, 2);
        let k = kind(&tri_tri(a, b));
        let f = |p: DVec3| v(-p.z, p.x, p.y + 7.0);
        assert_eq!(kind(&tri_tri(a.map(f), b.map(f))), k, "{a:?} {b:?}");
        let g = |p: DVec3| p * 0.125 + v(1e6, 0.0, -1e6);
        assert_eq!(kind(&tri_tri(a.map(g), b.map(g))), k, "{a:?} {b:?}");
    }
}

#[test]
fn agrees_with_parry_gjk_outside_a_tolerance_band() {
    use parry3d_f64::query;
    use parry3d_f64::shape::Triangle;
    let mut r = rng(0x7217_0003);
    let id = parry3d_f64::math::Pose::IDENTITY;
    let mut compared = 0;
    for _ in 0..20_000 {
        let a = rand_tri(&mut r, 1.0);
        let b = rand_tri(&mut r, 1.0);
        let ta = Triangle::new(a[0], a[1], a[2]);
        let tb = Triangle::new(b[0], b[1], b[2]);
        let d = query::distance(&id, &ta, &id, &tb).unwrap().distance;
        let ours = tri_tri(a, b);
        if d > 1e-9 {
            assert!(!ours.is_intersecting(), "parry distance {d}, ours {ours:?}");
            compared += 1;
        } else if let TriTri::Segment(p, q) = ours {
            if (p - q).length() > 1e-6 {
                let hit = query::intersection_test(&id, &ta, &id, &tb)
                    .unwrap()
                    .intersecting;
                assert!(hit, "{a:?} {b:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 15_000);
}

#[test]
fn verdicts_carry_certificates_that_verify() {
    let mut r = rng(0x7217_0004);
    let id = Pose3::IDENTITY;
    let (mut sep, mut int, mut und) = (0, 0, 0);
    for case in 0..20_000u32 {
        let (a, b) = if case % 2 == 0 {
            (rand_tri(&mut r, 1.0), rand_tri(&mut r, 1.0))
        } else {
            (grid_tri(&mut r, 2), grid_tri(&mut r, 2))
        };
        let ta = Triangle::new(a[0], a[1], a[2]).unwrap();
        let tb = Triangle::new(b[0], b[1], b[2]).unwrap();
        let tol = tolerance_for(&ta, &id, &tb, &id);
        let verdict = tri_tri_verdict(a, b);
        match verdict {
            Verdict::Separated(_) => {
                assert!(!tri_tri_test(a, b));
                sep += 1;
            }
            Verdict::Intersecting(_) => {
                assert!(tri_tri_test(a, b));
                int += 1;
            }
            Verdict::Undetermined => {
                und += 1;
                continue;
            }
        }
        verify(&ta, &id, &tb, &id, &verdict, tol)
            .unwrap_or_else(|e| panic!("case {case}: {e:?} for {verdict:?} {a:?} {b:?}"));
    }
    eprintln!("verdicts: separated {sep}, intersecting {int}, undetermined {und}");
    assert!(sep > 5000 && int > 5000 && und < 10, "{sep} {int} {und}");
}
