//! Seidel's LP, half-space shapes and the pair entries, against independent oracles: exact
//! integer reference cases, brute-force vertex enumeration of small LPs, the clarabel hull
//! distance oracle, GJK on the enumerated vertices, Fourier–Motzkin, and the certificate checker.

use convexity::lp::fourier_motzkin::{self, FmOptions};
use convexity::lp::seidel::{self, halfspaces_intersect, separating_plane, HalfspaceVerdict};
use convexity::math::seidel_lp::{solve, LpOutcome, SeidelOptions};
use convexity::{gjk, BoundedHalfspaces, DVec2, DVec3, Halfspaces, Pose, Problem, Vector};
use convexity::{verify, Verdict};
use convexity_testkit::gen2::random_hull2;
use convexity_testkit::gen3::{random_hull3, unit_vector3};
use convexity_testkit::hull_oracle::hull_distance;
use convexity_testkit::rng::{case_rng, Rng};

/// The three edge half-spaces of a triangle, with integer (unnormalised) normals: for the
/// counter-clockwise edge p→q the outward normal is (e_y, −e_x), offset n·p.
fn tri(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> Halfspaces {
    let ccw = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]) > 0.0;
    let v = if ccw { [p, q, r] } else { [p, r, q] };
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    for i in 0..3 {
        let (a, b) = (v[i], v[(i + 1) % 3]);
        let n = [b[1] - a[1], a[0] - b[0]];
        normals.push(n.to_vec());
        offsets.push(n[0] * a[0] + n[1] * a[1]);
    }
    Halfspaces::from_rows(&normals, &offsets).unwrap()
}

const A: [[f64; 2]; 3] = [[1.0, 0.0], [5.0, -1.0], [4.0, 3.0]];
const B: [[f64; 2]; 3] = [[0.0, 0.0], [4.0, 1.0], [1.0, 4.0]];

fn tri_of(t: [[f64; 2]; 3], shift: [f64; 2]) -> Halfspaces {
    let s = |p: [f64; 2]| [p[0] + shift[0], p[1] + shift[1]];
    tri(s(t[0]), s(t[1]), s(t[2]))
}

fn points2(t: &[[f64; 2]], shift: [f64; 2]) -> Vec<DVec2> {
    t.iter()
        .map(|p| DVec2::new(p[0] + shift[0], p[1] + shift[1]))
        .collect()
}

/// Runs every method on a 2D pair of triangles and returns the common verdict, checking each
/// certificate.
fn all_methods_2d(ta: &[[f64; 2]; 3], tb: &[[f64; 2]; 3], shift: [f64; 2]) -> bool {
    let ha = tri_of(*ta, shift);
    let hb = tri_of(*tb, shift);
    let opts = SeidelOptions::default();
    let r = halfspaces_intersect(&ha, &hb, &opts).unwrap();
    let seidel_says = r.intersecting().expect("seidel decided");
    match &r.verdict {
        HalfspaceVerdict::Intersecting { point } => {
            let mag = ta
                .iter()
                .chain(tb)
                .fold(0.0f64, |m, p| m.max(p[0].abs()).max(p[1].abs()));
            let tol = 1e-12 * (1.0 + mag + shift[0].abs() + shift[1].abs());
            assert!(
                ha.contains(point, tol) && hb.contains(point, tol),
                "{point:?}"
            );
        }
        HalfspaceVerdict::Separated {
            normal,
            gap,
            farkas,
        } => {
            let u = ha.concat(&hb).unwrap();
            let c = farkas.check(&u).unwrap();
            let mag = ta
                .iter()
                .chain(tb)
                .fold(0.0f64, |m, p| m.max(p[0].abs()).max(p[1].abs()));
            assert!(
                c.radius > 1e3 * (1.0 + mag + shift[0].abs() + shift[1].abs()),
                "{c:?}"
            );
            // The plane holds over the vertices (exact check over the data).
            let n = DVec2::new(normal[0], normal[1]);
            let max_a = points2(ta, shift)
                .iter()
                .map(|p| n.dot(*p))
                .fold(f64::MIN, f64::max);
            let min_b = points2(tb, shift)
                .iter()
                .map(|p| n.dot(*p))
                .fold(f64::MAX, f64::min);
            assert!(min_b - max_a >= gap * (1.0 - 1e-6) && *gap > 0.0);
        }
        v => panic!("unexpected {v:?}"),
    }
    let ba = BoundedHalfspaces::<DVec2>::new(ha.clone()).unwrap();
    let bb = BoundedHalfspaces::<DVec2>::new(hb.clone()).unwrap();
    let id = Pose::IDENTITY;
    let s = seidel::intersect_pair(&ba, &id, &bb, &id, &opts).unwrap();
    verify(&ba, &id, &bb, &id, &s.verdict, s.tolerance).unwrap();
    let f = fourier_motzkin::intersect_pair(&ba, &id, &bb, &id, &FmOptions::default()).unwrap();
    verify(&ba, &id, &bb, &id, &f.verdict, f.tolerance).unwrap();
    let p = separating_plane(&points2(ta, shift), &points2(tb, shift), &opts).unwrap();
    let pa = convexity::Points::new(&points2(ta, shift)).unwrap();
    let pb = convexity::Points::new(&points2(tb, shift)).unwrap();
    verify(&pa, &id, &pb, &id, &p.verdict, p.tolerance).unwrap();
    let g = gjk::distance(&ba, &id, &bb, &id, &gjk::Options::default(), None);
    for (name, v) in [
        ("seidel pair", s.verdict.intersecting()),
        ("fm pair", f.verdict.intersecting()),
        ("plane", p.verdict.intersecting()),
        ("gjk", g.intersecting()),
    ] {
        assert_eq!(v, Some(seidel_says), "{name} disagrees");
    }
    seidel_says
}

#[test]
fn reference_triangles_intersect() {
    let ha = tri_of(A, [0.0, 0.0]);
    let hb = tri_of(B, [0.0, 0.0]);
    // (3, 1) lies in both; (2, 1) on A's boundary counts as inside (closed sets).
    assert!(ha.contains(&[3.0, 1.0], 0.0) && hb.contains(&[3.0, 1.0], 0.0));
    assert_eq!(ha.violation(&[2.0, 1.0]), 0.0);
    assert!(ha.contains(&[2.0, 1.0], 0.0));
    assert!(all_methods_2d(&A, &B, [0.0, 0.0]));
}

#[test]
fn reference_triangles_separated_and_touching_variants() {
    // A's edge (4,3)→(1,0) lies on y = x − 1, A below it. B2 touches it at (2,1) only.
    let touch_vertex_edge = [[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]];
    assert!(all_methods_2d(&A, &touch_vertex_edge, [0.0, 0.0]));
    // Vertex on vertex at (4,3).
    let touch_vertex_vertex = [[4.0, 3.0], [5.0, 5.0], [3.0, 5.0]];
    assert!(all_methods_2d(&A, &touch_vertex_vertex, [0.0, 0.0]));
    // Part of an edge shared.
    let touch_edge = [[3.0, 2.0], [2.0, 1.0], [1.0, 3.0]];
    assert!(all_methods_2d(&A, &touch_edge, [0.0, 0.0]));
    // B moved away: separated (exact shifts along the outward normal of that edge).
    for gap in [1e-3, 0.5, 3.0] {
        let s = gap / 2f64.sqrt();
        let moved: Vec<[f64; 2]> = touch_vertex_edge
            .iter()
            .map(|p| [p[0] - s, p[1] + s])
            .collect();
        let moved = [moved[0], moved[1], moved[2]];
        assert!(!all_methods_2d(&A, &moved, [0.0, 0.0]), "gap {gap}");
        // B itself translated far away.
        let far: Vec<[f64; 2]> = B.iter().map(|p| [p[0] - 10.0 * gap - 4.0, p[1]]).collect();
        assert!(!all_methods_2d(&A, &[far[0], far[1], far[2]], [0.0, 0.0]));
    }
}

#[test]
fn reference_triangles_at_offset_1e6() {
    for shift in [[1e6, 1e6], [-1e6, 3e5]] {
        assert!(all_methods_2d(&A, &B, shift));
        assert!(all_methods_2d(
            &A,
            &[[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]],
            shift
        ));
        let s = 0.01 / 2f64.sqrt();
        assert!(!all_methods_2d(
            &A,
            &[[2.0 - s, 1.0 + s], [1.0 - s, 3.0 + s], [0.0 - s, 1.0 + s]],
            shift
        ));
    }
}

/// Brute force: every d-subset of rows solved as equalities; the best feasible one.
fn brute_force_lp(h: &Halfspaces, c: &[f64]) -> Option<f64> {
    let d = h.dim();
    let m = h.len();
    let mut best: Option<f64> = None;
    let mut idx: Vec<usize> = (0..d).collect();
    loop {
        // Solve the d×d system by Gaussian elimination with partial pivoting.
        let mut mat: Vec<Vec<f64>> = idx
            .iter()
            .map(|&i| {
                let mut r = h.normal(i).to_vec();
                r.push(h.offset(i));
                r
            })
            .collect();
        let mut ok = true;
        for col in 0..d {
            let p = (col..d)
                .max_by(|&a, &b| mat[a][col].abs().total_cmp(&mat[b][col].abs()))
                .unwrap();
            if mat[p][col].abs() < 1e-9 {
                ok = false;
                break;
            }
            mat.swap(col, p);
            let pivot = mat[col].clone();
            for (r, row) in mat.iter_mut().enumerate() {
                if r != col {
                    let f = row[col] / pivot[col];
                    for (x, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                        *x -= f * p;
                    }
                }
            }
        }
        if ok {
            let x: Vec<f64> = (0..d).map(|i| mat[i][d] / mat[i][i]).collect();
            if h.violation(&x) <= 1e-9 {
                let v: f64 = x.iter().zip(c).map(|(a, b)| a * b).sum();
                best = Some(best.map_or(v, |b: f64| b.max(v)));
            }
        }
        // Next combination.
        let mut i = d;
        loop {
            if i == 0 {
                return best;
            }
            i -= 1;
            if idx[i] < m - d + i {
                idx[i] += 1;
                for j in i + 1..d {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
        }
    }
}

#[test]
fn lp_optimum_matches_brute_force_vertex_enumeration() {
    let mut checked = [0usize; 5];
    let mut infeasible = 0;
    for case in 0..600u64 {
        let mut r = case_rng(0x5e1d, case);
        let d = 2 + (case % 3) as usize; // 2, 3, 4
        let m = r.gen_range(d + 1..=14);
        let mut normals = Vec::new();
        let mut offsets = Vec::new();
        for _ in 0..m {
            let n: Vec<f64> = (0..d).map(|_| r.gen_range(-1.0..1.0)).collect();
            normals.push(n);
            offsets.push(r.gen_range(-0.4..1.0));
        }
        // A box keeps the program bounded (and gives brute force its vertices).
        for j in 0..d {
            for s in [1.0, -1.0] {
                let mut n = vec![0.0; d];
                n[j] = s;
                normals.push(n);
                offsets.push(5.0);
            }
        }
        let h = Halfspaces::from_rows(&normals, &offsets).unwrap();
        let c: Vec<f64> = (0..d).map(|_| r.gen_range(-1.0..1.0)).collect();
        let lp = solve(
            &h,
            &c,
            &SeidelOptions {
                seed: case,
                ..SeidelOptions::default()
            },
        )
        .unwrap();
        let brute = brute_force_lp(&h, &c);
        match (&lp.outcome, brute) {
            (LpOutcome::Optimal { x, value }, Some(b)) => {
                assert!(
                    (value - b).abs() <= 1e-9 * (1.0 + b.abs()),
                    "case {case}: {value} vs {b}"
                );
                assert!(h.violation(x) <= 1e-12, "case {case}");
                checked[d] += 1;
            }
            (LpOutcome::Infeasible { farkas }, None) => {
                let f = farkas.as_ref().expect("certificate");
                assert!(f.check(&h).unwrap().radius > 1e6, "case {case}");
                infeasible += 1;
            }
            (s, b) => panic!("case {case}: seidel {s:?}, brute force {b:?}"),
        }
    }
    assert!(
        checked[2] > 60 && checked[3] > 60 && checked[4] > 60,
        "{checked:?}"
    );
    assert!(infeasible > 20, "{infeasible}");
}

#[test]
fn lp_reports_unbounded_and_bounded_faces() {
    // max x subject to y ≤ 1: unbounded.
    let h = Halfspaces::from_rows(&[[0.0, 1.0]], &[1.0]).unwrap();
    let r = solve(&h, &[1.0, 0.0], &SeidelOptions::default()).unwrap();
    assert!(matches!(r.outcome, LpOutcome::Unbounded { .. }), "{r:?}");
    // max y subject to y ≤ 1: bounded value although the optimal face is unbounded.
    let r = solve(&h, &[0.0, 1.0], &SeidelOptions::default()).unwrap();
    match r.outcome {
        LpOutcome::Optimal { value, .. } => assert_eq!(value, 1.0),
        s => panic!("{s:?}"),
    }
}

#[test]
fn same_seed_gives_the_same_answer() {
    let h = tri_of(A, [0.0, 0.0])
        .concat(&tri_of(B, [0.0, 0.0]))
        .unwrap();
    let a = solve(&h, &[0.3, 0.7], &SeidelOptions::default()).unwrap();
    let b = solve(&h, &[0.3, 0.7], &SeidelOptions::default()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn unbounded_and_empty_sets_are_rejected_where_a_support_is_needed() {
    let half_plane =
        Halfspaces::from_rows(&[[1.0, 0.0], [0.0, 1.0], [0.0, -1.0]], &[1.0, 1.0, 1.0]).unwrap();
    let e = BoundedHalfspaces::<DVec2>::new(half_plane).unwrap_err();
    assert_eq!(e.field, "halfspaces");
    assert!(e.to_string().contains("unbounded in direction -x0"), "{e}");
    let empty = Halfspaces::from_rows(
        &[[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]],
        &[0.0, -1.0, 1.0, 1.0],
    )
    .unwrap();
    let e = BoundedHalfspaces::<DVec2>::new(empty.clone()).unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    // The LP itself reports the infeasible single system with a Farkas certificate.
    let r = solve(&empty, &[0.0, 0.0], &SeidelOptions::default()).unwrap();
    match r.outcome {
        LpOutcome::Infeasible { farkas: Some(f) } => {
            let c = f.check(&empty).unwrap();
            assert!(c.residual == 0.0 && c.value < 0.0, "{c:?}");
            assert!(f.weights.iter().all(|(i, _)| *i < 2));
        }
        s => panic!("{s:?}"),
    }
    // Empty side of a pair: reported as such, not as separated.
    let b = tri_of(B, [0.0, 0.0]);
    let r = halfspaces_intersect(&b, &empty, &SeidelOptions::default()).unwrap();
    assert!(
        matches!(
            r.verdict,
            HalfspaceVerdict::Empty {
                side: seidel::Side::B,
                ..
            }
        ),
        "{r:?}"
    );
    // A 3D slab is unbounded.
    let slab = Halfspaces::from_rows(&[[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]], &[1.0, 1.0]).unwrap();
    assert!(BoundedHalfspaces::<DVec3>::new(slab).is_err());
}

#[test]
fn invalid_rows_are_named() {
    let e = Halfspaces::from_rows(&[[1.0, 0.0], [f64::NAN, 0.0]], &[1.0, 1.0]).unwrap_err();
    assert_eq!(e.field, "normals[1][0]");
    let e = Halfspaces::from_rows(&[[1.0, 0.0], [0.0, 0.0]], &[1.0, 1.0]).unwrap_err();
    assert_eq!(e.field, "normals[1]");
    let e = Halfspaces::from_rows(&[[1.0, 0.0], [0.0, 1.0]], &[1.0]).unwrap_err();
    assert_eq!(e.field, "offsets");
    let e = Halfspaces::from_rows(&[vec![1.0, 0.0], vec![0.0]], &[1.0, 1.0]).unwrap_err();
    assert!(matches!(e.problem, Problem::DimensionMismatch { .. }));
    let e = Halfspaces::from_rows(&[[1.0, 0.0]], &[f64::INFINITY]).unwrap_err();
    assert_eq!(e.field, "offsets[0]");
    let e = Halfspaces::from_rows::<[f64; 2]>(&[], &[]).unwrap_err();
    assert_eq!(e.problem, Problem::Empty);
    let h = tri_of(A, [0.0, 0.0]);
    assert!(solve(&h, &[1.0], &SeidelOptions::default()).is_err());
    assert!(solve(&h, &[f64::NAN, 0.0], &SeidelOptions::default()).is_err());
    let h3 = Halfspaces::from_rows(&[[1.0, 0.0, 0.0]], &[1.0]).unwrap();
    assert!(halfspaces_intersect(&h, &h3, &SeidelOptions::default()).is_err());
}

#[test]
fn degenerate_systems() {
    // A single point as two pairs of opposite rows, with duplicates and a scaled duplicate.
    let pt = Halfspaces::from_rows(
        &[
            [1.0, 0.0],
            [-1.0, 0.0],
            [0.0, 1.0],
            [0.0, -1.0],
            [1.0, 0.0],
            [3.0, 0.0],
        ],
        &[1.0, -1.0, 2.0, -2.0, 1.0, 3.0],
    )
    .unwrap();
    let b = BoundedHalfspaces::<DVec2>::new(pt.clone()).unwrap();
    for v in b.vertices() {
        assert!((*v - DVec2::new(1.0, 2.0)).length() < 1e-9, "{v:?}");
    }
    // The point against a triangle containing it, and one missing it.
    let around = tri_of([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]], [0.0, 0.0]);
    let r = halfspaces_intersect(&pt, &around, &SeidelOptions::default()).unwrap();
    assert_eq!(r.intersecting(), Some(true));
    let beside = tri_of([[2.0, 0.0], [4.0, 0.0], [4.0, 4.0]], [0.0, 0.0]);
    let r = halfspaces_intersect(&pt, &beside, &SeidelOptions::default()).unwrap();
    assert_eq!(r.intersecting(), Some(false), "{r:?}");
    // Parallel rows: a strip closed by two more rows; duplicates of every row.
    let strip = Halfspaces::from_rows(
        &[
            [0.0, 1.0],
            [0.0, -1.0],
            [0.0, 2.0],
            [1.0, 0.0],
            [-1.0, 0.0],
            [1.0, 0.0],
        ],
        &[1.0, 1.0, 1.0, 3.0, 3.0, 3.0],
    )
    .unwrap();
    let bs = BoundedHalfspaces::<DVec2>::new(strip).unwrap();
    let (lo, hi) = bs.bounds();
    assert!(
        (lo - DVec2::new(-3.0, -1.0)).length() < 1e-9
            && (hi - DVec2::new(3.0, 0.5)).length() < 1e-9
    );
    assert_eq!(bs.vertices().len(), 4, "{:?}", bs.vertices());
    // Identical shapes intersect.
    let a = tri_of(A, [0.0, 0.0]);
    assert_eq!(
        halfspaces_intersect(&a, &a, &SeidelOptions::default())
            .unwrap()
            .intersecting(),
        Some(true)
    );
    // Separating plane of identical point sets and of single points.
    let p = separating_plane(&[DVec3::ZERO], &[DVec3::ZERO], &SeidelOptions::default()).unwrap();
    assert_eq!(p.verdict.intersecting(), Some(true));
    let p = separating_plane(&[DVec3::ZERO], &[DVec3::X], &SeidelOptions::default()).unwrap();
    match p.verdict {
        // The LP maximises the gap over |w|∞ ≤ 1, which ties here (w = (1, ±1, ±1) all give 1):
        // the recomputed Euclidean gap is within a factor √3 of the distance 1.
        Verdict::Separated(s) => {
            assert!(
                s.gap > 1.0 / 3f64.sqrt() - 1e-12 && s.gap <= 1.0 + 1e-12,
                "{s:?}"
            );
            assert!((s.axis.dot(DVec3::X) - s.gap).abs() < 1e-12);
        }
        v => panic!("{v:?}"),
    }
}

/// Polytopes circumscribing a sphere: tangent planes at random unit normals (plus the six axis
/// planes so that the set is bounded).
fn tangent_polytope<R: Rng>(r: &mut R, centre: DVec3, radius: f64, k: usize) -> Halfspaces {
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    let axes = [
        DVec3::X,
        -DVec3::X,
        DVec3::Y,
        -DVec3::Y,
        DVec3::Z,
        -DVec3::Z,
    ];
    for i in 0..k + 6 {
        let n = axes.get(i).copied().unwrap_or_else(|| unit_vector3(r));
        normals.push(n);
        offsets.push(radius + n.dot(centre));
    }
    Halfspaces::from_vectors(&normals, &offsets).unwrap()
}

/// Every enumerated vertex satisfies all rows and is active on at least `d` of them.
fn check_vertices<V: Vector>(b: &BoundedHalfspaces<V>) {
    let h = b.halfspaces();
    let scale = 1e-9 * (1.0 + h.magnitude());
    for v in b.vertices() {
        let x = Vector::to_vec(*v);
        assert!(
            h.violation(&x) <= scale,
            "vertex {v:?} violates by {}",
            h.violation(&x)
        );
        let active = (0..h.len())
            .filter(|&i| h.row_violation(i, &x).abs() <= scale)
            .count();
        assert!(active >= V::DIM, "vertex {v:?} active on {active}");
    }
}

struct Tally {
    pairs: usize,
    intersecting: usize,
    skipped_band: usize,
}

/// The upper end of the excluded band of oracle distances: a few touch tolerances
/// (`tolerance_for` is about 3e-9 for these shapes of size 1–4; issue 14 shrank it from 1e-6).
/// Below 1e-8 a pair counts as intersecting (the oracle's precision for overlapping hulls).
const BAND: f64 = 3e-8;

/// One pair through every method, each checked against the oracle distance `dist`.
fn compare_pair<V: Vector>(
    ha: &Halfspaces,
    hb: &Halfspaces,
    dist: f64,
    band: f64,
    tally: &mut Tally,
    label: &str,
) {
    let ba = BoundedHalfspaces::<V>::new(ha.clone()).unwrap();
    let bb = BoundedHalfspaces::<V>::new(hb.clone()).unwrap();
    check_vertices(&ba);
    check_vertices(&bb);
    // The oracle's distance for overlapping hulls is its solver precision (≈1e-9), not 0.
    if dist > 1e-8 && dist < band {
        tally.skipped_band += 1;
        return;
    }
    let truth = dist <= 1e-8;
    tally.pairs += 1;
    tally.intersecting += truth as usize;
    let id = Pose::IDENTITY;
    let opts = SeidelOptions::default();
    let s = seidel::intersect_pair(&ba, &id, &bb, &id, &opts).unwrap();
    assert_eq!(
        s.verdict.intersecting(),
        Some(truth),
        "{label}: seidel, distance {dist}"
    );
    verify(&ba, &id, &bb, &id, &s.verdict, s.tolerance).unwrap_or_else(|e| panic!("{label}: {e}"));
    let f = fourier_motzkin::intersect_pair(&ba, &id, &bb, &id, &FmOptions::default()).unwrap();
    assert_eq!(
        f.verdict.intersecting(),
        Some(truth),
        "{label}: fm, distance {dist}"
    );
    verify(&ba, &id, &bb, &id, &f.verdict, f.tolerance)
        .unwrap_or_else(|e| panic!("{label}: fm {e}"));
    let g = gjk::distance(&ba, &id, &bb, &id, &gjk::Options::default(), None);
    assert_eq!(
        g.intersecting(),
        Some(truth),
        "{label}: gjk, distance {dist}"
    );
    let p = separating_plane(ba.vertices(), bb.vertices(), &opts).unwrap();
    assert_eq!(
        p.verdict.intersecting(),
        Some(truth),
        "{label}: plane, distance {dist}"
    );
    verify(
        ba.as_points(),
        &id,
        bb.as_points(),
        &id,
        &p.verdict,
        p.tolerance,
    )
    .unwrap_or_else(|e| panic!("{label}: plane {e}"));
    if let Verdict::Separated(ax) = s.verdict {
        assert!(
            ax.gap <= dist * (1.0 + 1e-9) + 1e-12,
            "{label}: gap {} > distance {dist}",
            ax.gap
        );
    }
}

fn oracle<V: Vector>(a: &[V], b: &[V]) -> f64 {
    let av: Vec<Vec<f64>> = a.iter().map(|p| p.to_vec()).collect();
    let bv: Vec<Vec<f64>> = b.iter().map(|p| p.to_vec()).collect();
    let o = hull_distance(&av, &bv).unwrap();
    assert!(o.verified, "oracle not verified");
    o.distance
}

#[test]
fn random_pairs_2d_agree_with_the_oracle() {
    let mut t = Tally {
        pairs: 0,
        intersecting: 0,
        skipped_band: 0,
    };
    for case in 0..1200u64 {
        let mut r = case_rng(0x2d, case);
        let a = random_hull2(&mut r, 3..=12, 0.5..=2.0);
        let dir = convexity_testkit::gen2::unit_vector2(&mut r);
        let off = dir * r.gen_range(0.0..2.5);
        let b: Vec<DVec2> = random_hull2(&mut r, 3..=12, 0.5..=2.0)
            .into_iter()
            .map(|p| p + off)
            .collect();
        let (Ok(ha), Ok(hb)) = (Halfspaces::from_hull(&a), Halfspaces::from_hull(&b)) else {
            continue;
        };
        let dist = oracle(&a, &b);
        compare_pair::<DVec2>(&ha, &hb, dist, BAND, &mut t, &format!("2d case {case}"));
    }
    eprintln!(
        "2d: {} pairs, {} intersecting, {} in the band",
        t.pairs, t.intersecting, t.skipped_band
    );
    assert!(
        t.pairs >= 1100 && t.intersecting > 300 && t.pairs - t.intersecting > 300,
        "{}/{}/{}",
        t.pairs,
        t.intersecting,
        t.skipped_band
    );
}

#[test]
fn random_pairs_3d_agree_with_the_oracle() {
    let mut t = Tally {
        pairs: 0,
        intersecting: 0,
        skipped_band: 0,
    };
    for case in 0..800u64 {
        let mut r = case_rng(0x3d, case);
        let (ha, hb, va, vb);
        if case % 4 == 3 {
            // Tangent-plane polytopes of two spheres.
            let ca = DVec3::ZERO;
            let cb = unit_vector3(&mut r) * r.gen_range(0.5..4.0);
            ha = tangent_polytope(&mut r, ca, 1.0, 10);
            let rb = r.gen_range(0.3..1.5);
            hb = tangent_polytope(&mut r, cb, rb, 10);
            va = BoundedHalfspaces::<DVec3>::new(ha.clone())
                .unwrap()
                .vertices()
                .to_vec();
            vb = BoundedHalfspaces::<DVec3>::new(hb.clone())
                .unwrap()
                .vertices()
                .to_vec();
        } else {
            va = random_hull3(&mut r, 4..=14, 0.5..=2.0);
            let off = unit_vector3(&mut r) * r.gen_range(0.0..2.5);
            vb = random_hull3(&mut r, 4..=14, 0.5..=2.0)
                .into_iter()
                .map(|p| p + off)
                .collect();
            let (Ok(x), Ok(y)) = (Halfspaces::from_hull(&va), Halfspaces::from_hull(&vb)) else {
                continue;
            };
            ha = x;
            hb = y;
        }
        let dist = oracle(&va, &vb);
        compare_pair::<DVec3>(&ha, &hb, dist, BAND, &mut t, &format!("3d case {case}"));
    }
    eprintln!(
        "3d: {} pairs, {} intersecting, {} in the band",
        t.pairs, t.intersecting, t.skipped_band
    );
    assert!(
        t.pairs >= 750 && t.intersecting > 250 && t.pairs - t.intersecting > 250,
        "{}/{}/{}",
        t.pairs,
        t.intersecting,
        t.skipped_band
    );
}

#[test]
fn hull_conversion_round_trips() {
    let mut r = case_rng(0x4c, 0);
    for _ in 0..50 {
        let pts = random_hull3(&mut r, 4..=20, 0.5..=2.0);
        let h = Halfspaces::from_hull(&pts).unwrap();
        // Every input point is inside, and every row is tight at some input point.
        for p in &pts {
            assert!(h.contains(&p.to_vec(), 1e-9));
        }
        for i in 0..h.len() {
            let tight = pts
                .iter()
                .any(|p| h.row_violation(i, &p.to_vec()).abs() < 1e-9);
            assert!(tight, "row {i} not tight");
        }
        // The enumerated vertices reproduce the hull: same support values.
        let b = BoundedHalfspaces::<DVec3>::new(h).unwrap();
        for _ in 0..20 {
            let d = unit_vector3(&mut r);
            let want = pts.iter().map(|p| p.dot(d)).fold(f64::MIN, f64::max);
            let got = b
                .vertices()
                .iter()
                .map(|p| p.dot(d))
                .fold(f64::MIN, f64::max);
            assert!((want - got).abs() < 1e-9, "{want} vs {got}");
        }
    }
    // Flat sets are rejected with a clear error.
    let flat = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)];
    let e = Halfspaces::from_hull(&flat).unwrap_err();
    assert!(e.to_string().contains("full-dimensional"), "{e}");
}

#[test]
fn posed_pairs_match_world_vertices() {
    // Moving both shapes by poses gives the same verdict as moving their vertices.
    for case in 0..100u64 {
        let mut r = case_rng(0x905e, case);
        let a = random_hull3(&mut r, 4..=10, 0.5..=1.5);
        let b = random_hull3(&mut r, 4..=10, 0.5..=1.5);
        let (Ok(ha), Ok(hb)) = (Halfspaces::from_hull(&a), Halfspaces::from_hull(&b)) else {
            continue;
        };
        let ba = BoundedHalfspaces::<DVec3>::new(ha).unwrap();
        let bb = BoundedHalfspaces::<DVec3>::new(hb).unwrap();
        let pa = convexity_testkit::gen3::random_pose3(&mut r, 2.0);
        let pb = convexity_testkit::gen3::random_pose3(&mut r, 2.0);
        let wa: Vec<DVec3> = a.iter().map(|p| pa.transform_point(*p)).collect();
        let wb: Vec<DVec3> = b.iter().map(|p| pb.transform_point(*p)).collect();
        let dist = oracle(&wa, &wb);
        if dist > 1e-8 && dist < BAND {
            continue;
        }
        let s = seidel::intersect_pair(&ba, &pa, &bb, &pb, &SeidelOptions::default()).unwrap();
        assert_eq!(s.verdict.intersecting(), Some(dist <= 1e-8), "case {case}");
        verify(&ba, &pa, &bb, &pb, &s.verdict, s.tolerance).unwrap();
    }
}

fn scaled(t: &[[f64; 2]; 3], k: f64) -> [[f64; 2]; 3] {
    t.map(|p| [p[0] * k, p[1] * k])
}

#[test]
fn reference_triangles_scaled_by_1e4_and_1e_minus_4() {
    // Scaling the scene scales nothing in the verdicts (a metamorphic check), including the
    // exact touching cases.
    let touch = [[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]];
    let s = 0.01 / 2f64.sqrt();
    let apart = [[2.0 - s, 1.0 + s], [1.0 - s, 3.0 + s], [0.0 - s, 1.0 + s]];
    for k in [1e-4, 1e4] {
        assert!(all_methods_2d(&scaled(&A, k), &scaled(&B, k), [0.0, 0.0]));
        assert!(all_methods_2d(
            &scaled(&A, k),
            &scaled(&touch, k),
            [0.0, 0.0]
        ));
        assert!(!all_methods_2d(
            &scaled(&A, k),
            &scaled(&apart, k),
            [0.0, 0.0]
        ));
    }
    // A triangle 1e4 times smaller than the other, touching it at a vertex and then 1e-3 of its
    // own size away.
    let small = [
        [2.0, 1.0],
        [2.0 - 1e-4, 1.0 + 2e-4],
        [2.0 - 2e-4, 1.0 + 1e-4],
    ];
    assert!(all_methods_2d(&A, &small, [0.0, 0.0]));
    let d = 1e-7 / 2f64.sqrt();
    let small_apart = small.map(|p| [p[0] - d, p[1] + d]);
    assert!(!all_methods_2d(&A, &small_apart, [0.0, 0.0]));
}

#[test]
fn gaps_near_the_tolerance_give_checked_certificates() {
    // B touches A's edge y = x − 1 at (2, 1), then moves out along the edge normal by `gap`.
    // Within the tolerance band either verdict is acceptable, but its certificate must check;
    // far outside it the verdict is fixed.
    let touch = [[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]];
    let id = Pose::IDENTITY;
    for gap in [
        0.0, 1e-16, 1e-14, 1e-13, 1e-12, 1e-10, 1e-9, 2e-9, 1e-8, 1e-6,
    ] {
        let s = gap / 2f64.sqrt();
        let moved = touch.map(|p| [p[0] - s, p[1] + s]);
        let ba = BoundedHalfspaces::<DVec2>::new(tri_of(A, [0.0, 0.0])).unwrap();
        let bb = BoundedHalfspaces::<DVec2>::new(tri_of(moved, [0.0, 0.0])).unwrap();
        let sd = seidel::intersect_pair(&ba, &id, &bb, &id, &SeidelOptions::default()).unwrap();
        let fm =
            fourier_motzkin::intersect_pair(&ba, &id, &bb, &id, &FmOptions::default()).unwrap();
        let pl = separating_plane(
            &points2(&A, [0.0, 0.0]),
            &points2(&moved, [0.0, 0.0]),
            &SeidelOptions::default(),
        )
        .unwrap();
        let pa = convexity::Points::new(&points2(&A, [0.0, 0.0])).unwrap();
        let pb = convexity::Points::new(&points2(&moved, [0.0, 0.0])).unwrap();
        for (name, v, tol) in [
            ("seidel", sd.verdict, sd.tolerance),
            ("fm", fm.verdict, fm.tolerance),
        ] {
            verify(&ba, &id, &bb, &id, &v, tol).unwrap_or_else(|e| panic!("{name} gap {gap}: {e}"));
            if gap == 0.0 {
                assert_eq!(v.intersecting(), Some(true), "{name}");
            }
            if gap >= 1e-8 {
                assert_eq!(v.intersecting(), Some(false), "{name} gap {gap}");
            }
        }
        verify(&pa, &id, &pb, &id, &pl.verdict, pl.tolerance)
            .unwrap_or_else(|e| panic!("plane gap {gap}: {e}"));
        if gap >= 1e-8 {
            assert_eq!(pl.verdict.intersecting(), Some(false), "plane gap {gap}");
        }
    }
}
