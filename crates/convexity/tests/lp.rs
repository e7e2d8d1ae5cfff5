//! LP intersection, L1 distance and containment (`convexity::lp`) against independent oracles:
//! clarabel (Euclidean SOCP `hull_distance`, L1 LP `lp_oracle`), GJK in 2D/3D, closed forms,
//! and the arithmetic certificate checker `verify_n`.

use convexity::lp::{
    contains, intersect, intersect_points, intersect_points_reference, intersect_reference,
    l1_distance, point_in_hull, points_in_hull, ContainmentOutcome, LpOptions,
};
use convexity::math::slice::dot;
use convexity::nd::points::{verify_n, PointsN, VerdictN};
use convexity::{gjk, DVec2, DVec3, Points, Pose2, Pose3, Problem, Status};
use convexity_testkit::lp_oracle::l1_distance_oracle;
use convexity_testkit::{hull_distance, rng, ChaCha8Rng};
use rand::Rng;

fn pts(rows: &[&[f64]]) -> PointsN {
    PointsN::from_rows(rows).unwrap()
}

fn opts() -> LpOptions {
    LpOptions::default()
}

fn gaussian(r: &mut ChaCha8Rng) -> f64 {
    // Box–Muller.
    let u: f64 = r.gen_range(1e-12..1.0);
    let v: f64 = r.gen();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn unit(r: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    loop {
        let v: Vec<f64> = (0..n).map(|_| gaussian(r)).collect();
        let l = dot(&v, &v).sqrt();
        if l > 1e-6 {
            return v.iter().map(|x| x / l).collect();
        }
    }
}

/// `m` points in the ball of radius `rad` about `c`.
fn cloud(r: &mut ChaCha8Rng, n: usize, m: usize, c: &[f64], rad: f64) -> Vec<Vec<f64>> {
    (0..m)
        .map(|_| {
            let d = unit(r, n);
            let s = rad * r.gen::<f64>().powf(1.0 / n as f64);
            c.iter().zip(&d).map(|(ci, di)| ci + s * di).collect()
        })
        .collect()
}

/// Points on a random `k`-flat through `c` (k = 1: a segment-like set).
fn flat(r: &mut ChaCha8Rng, n: usize, m: usize, k: usize, c: &[f64], rad: f64) -> Vec<Vec<f64>> {
    let basis: Vec<Vec<f64>> = (0..k).map(|_| unit(r, n)).collect();
    (0..m)
        .map(|_| {
            let mut p = c.to_vec();
            for b in &basis {
                let t = r.gen_range(-rad..rad);
                p.iter_mut().zip(b).for_each(|(x, y)| *x += t * y);
            }
            p
        })
        .collect()
}

/// A random pair for case `case` (cycling through the degenerate kinds).
fn random_pair(
    r: &mut ChaCha8Rng,
    n: usize,
    case: usize,
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>, &'static str) {
    let ra = r.gen_range(0.2..2.0);
    let rb = r.gen_range(0.2..2.0);
    let dist = r.gen_range(0.0..1.6) * (ra + rb);
    let dir = unit(r, n);
    let cb: Vec<f64> = dir.iter().map(|d| d * dist).collect();
    let c0 = vec![0.0; n];
    let ma = r.gen_range(1..=30);
    let mb = r.gen_range(1..=30);
    match case % 9 {
        0 => (
            cloud(r, n, ma, &c0, ra),
            cloud(r, n, mb, &cb, rb),
            "generic",
        ),
        1 => (
            cloud(r, n, 1, &c0, ra),
            cloud(r, n, mb, &cb, rb),
            "single-point",
        ),
        2 => (
            cloud(r, n, 1, &c0, ra),
            cloud(r, n, 1, &cb, rb),
            "two-points",
        ),
        3 => (
            flat(r, n, ma, 1, &c0, ra),
            cloud(r, n, mb, &cb, rb),
            "segment",
        ),
        4 => (
            flat(r, n, ma, 2.min(n - 1).max(1), &c0, ra),
            flat(r, n, mb, (n - 1).max(1), &cb, rb),
            "flat",
        ),
        5 => {
            let mut a = cloud(r, n, ma, &c0, ra);
            let extra: Vec<Vec<f64>> = a.iter().take(5).cloned().collect();
            a.extend(extra);
            (a, cloud(r, n, mb, &cb, rb), "duplicates")
        }
        6 => {
            let a = cloud(r, n, ma, &c0, ra);
            (a.clone(), a, "identical")
        }
        7 => {
            let off: Vec<f64> = (0..n).map(|k| 1e6 * (1.0 + k as f64)).collect();
            let shift = |v: Vec<Vec<f64>>| -> Vec<Vec<f64>> {
                v.into_iter()
                    .map(|p| p.iter().zip(&off).map(|(x, o)| x + o).collect())
                    .collect()
            };
            let a = cloud(r, n, ma, &c0, ra);
            let b = cloud(r, n, mb, &cb, rb);
            (shift(a), shift(b), "offset-1e6")
        }
        _ => {
            let tiny = 1e-4 * ra;
            let dist = r.gen_range(0.0..1.6) * (tiny + rb);
            let cb: Vec<f64> = dir.iter().map(|d| d * dist).collect();
            (
                cloud(r, n, ma, &c0, tiny),
                cloud(r, n, mb, &cb, rb),
                "ratio-1e4",
            )
        }
    }
}

/// GJK's boolean answer for 2D/3D sets (identity poses).
fn gjk_answer(a: &[Vec<f64>], b: &[Vec<f64>]) -> Option<bool> {
    match a[0].len() {
        2 => {
            let pa: Vec<DVec2> = a.iter().map(|p| DVec2::new(p[0], p[1])).collect();
            let pb: Vec<DVec2> = b.iter().map(|p| DVec2::new(p[0], p[1])).collect();
            let (ha, hb) = (Points::new(&pa).unwrap(), Points::new(&pb).unwrap());
            let id = Pose2::IDENTITY;
            gjk::intersects(&ha, &id, &hb, &id, &Default::default(), None).intersecting()
        }
        3 => {
            let pa: Vec<DVec3> = a.iter().map(|p| DVec3::new(p[0], p[1], p[2])).collect();
            let pb: Vec<DVec3> = b.iter().map(|p| DVec3::new(p[0], p[1], p[2])).collect();
            let (ha, hb) = (Points::new(&pa).unwrap(), Points::new(&pb).unwrap());
            let id = Pose3::IDENTITY;
            gjk::intersects(&ha, &id, &hb, &id, &Default::default(), None).intersecting()
        }
        _ => None,
    }
}

#[test]
fn defect1_reference_objective_is_not_a_distance() {
    // K = {(0.1, −0.1)}, L = {(0, 0)}: the textbook objective is 1, the L1 distance 0.2.
    let k = pts(&[&[0.1, -0.1]]);
    let l = pts(&[&[0.0, 0.0]]);
    let r = intersect_reference(&k, &l, &opts()).unwrap();
    assert!(
        (r.infeasibility_objective - 1.0).abs() < 1e-12,
        "objective {}",
        r.infeasibility_objective
    );
    assert_eq!(r.intersecting(), Some(false));
    verify_n(&r.verdict, &k, &l, r.tolerance).unwrap();
    let d = l1_distance(&k, &l, &opts()).unwrap();
    assert_eq!(d.status, Status::Converged);
    assert!((d.d1 - 0.2).abs() < 1e-15, "d1 {}", d.d1);
    let d2 = 0.02f64.sqrt();
    assert!(d.d2_lower <= d2 + 1e-15 && d2 <= d.d2_upper + 1e-15);
    assert!(
        (d.d2_lower - d2).abs() < 1e-12,
        "hyperplane gap gives d2 exactly here"
    );
    let p = intersect(&k, &l, &opts()).unwrap();
    assert_eq!(p.intersecting(), Some(false));
    verify_n(&p.verdict, &k, &l, p.tolerance).unwrap();
}

#[test]
fn defect2_single_points_compare_absolute_differences() {
    // The signed differences cancel (1 − 1 = 0), the absolute ones do not.
    let a = pts(&[&[1.0, -1.0]]);
    let b = pts(&[&[0.0, 0.0]]);
    for f in [intersect, |a: &PointsN, b: &PointsN, o: &LpOptions| {
        intersect_reference(a, b, o).map(|r| convexity::lp::LpIntersection {
            status: r.status,
            iterations: r.iterations,
            verdict: r.verdict,
            tolerance: r.tolerance,
            l1_residual: f64::NAN,
        })
    }] {
        let r = f(&a, &b, &opts()).unwrap();
        assert_eq!(r.intersecting(), Some(false));
        verify_n(&r.verdict, &a, &b, r.tolerance).unwrap();
        let r = f(&b, &a, &opts()).unwrap();
        assert_eq!(r.intersecting(), Some(false));
        // Equal points (closed sets) intersect, including a difference below the tolerance.
        let r = f(&a, &a, &opts()).unwrap();
        assert_eq!(r.intersecting(), Some(true));
        verify_n(&r.verdict, &a, &a, r.tolerance).unwrap();
    }
    let near = pts(&[&[1.0 + 1e-17, -1.0 - 1e-17]]);
    let r = intersect(&a, &near, &opts()).unwrap();
    assert_eq!(r.intersecting(), Some(true));
    let d = l1_distance(&a, &b, &opts()).unwrap();
    assert_eq!(d.d1, 2.0);
    assert!((d.d2_upper - 2f64.sqrt()).abs() < 1e-15);
}

#[test]
fn agreement_with_clarabel_gjk_and_reference_on_random_pairs() {
    let mut r = rng(0x1b);
    let (mut total, mut band, mut ref_undetermined) = (0, 0, 0);
    let mut gjk_checked = 0;
    let mut worst_bracket: f64 = 0.0;
    for &n in &[2usize, 3, 5, 10] {
        for case in 0..540 {
            let (a, b, kind) = random_pair(&mut r, n, case);
            let (pa, pb) = (
                PointsN::from_rows(&a).unwrap(),
                PointsN::from_rows(&b).unwrap(),
            );
            let prod = intersect(&pa, &pb, &opts()).unwrap();
            let refr = intersect_reference(&pa, &pb, &opts()).unwrap();
            let tol = prod.tolerance;
            let ctx = format!("n={n} case={case} kind={kind}");
            // Every certificate verifies on the data.
            verify_n(&prod.verdict, &pa, &pb, tol).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            if refr.verdict != VerdictN::Undetermined {
                verify_n(&refr.verdict, &pa, &pb, tol).unwrap_or_else(|e| panic!("{ctx} ref: {e}"));
            } else {
                // Only the unscaled data far from the origin defeats the reference.
                assert_eq!(kind, "offset-1e6", "{ctx}: reference undetermined");
                ref_undetermined += 1;
            }
            // Exact L1 distance: the d₂ bracket must contain clarabel's Euclidean distance.
            let d = l1_distance(&pa, &pb, &opts()).unwrap();
            assert_eq!(d.status, Status::Converged, "{ctx}");
            let o = hull_distance(&a, &b).unwrap();
            let slack = 1e-9 * (1.0 + o.scale) + 1e-15 * pa.magnitude().max(pb.magnitude());
            assert!(
                d.d2_lower <= o.upper_bound + slack && o.lower_bound.max(0.0) <= d.d2_upper + slack,
                "{ctx}: d2 in [{}, {}], oracle [{}, {}]",
                d.d2_lower,
                d.d2_upper,
                o.lower_bound,
                o.upper_bound
            );
            if kind != "offset-1e6" {
                worst_bracket = worst_bracket.max(d.d2_lower - o.upper_bound);
            }
            total += 1;
            // Boolean agreement outside the band (tol/(4√n), 4 tol] of the Euclidean distance.
            let expect = if o.lower_bound > 4.0 * tol {
                Some(false)
            } else if o.upper_bound < tol / (4.0 * (n as f64).sqrt()) {
                Some(true)
            } else {
                band += 1;
                None
            };
            if let Some(e) = expect {
                assert_eq!(
                    prod.intersecting(),
                    Some(e),
                    "{ctx}: production, oracle {:?}",
                    o.distance
                );
                if refr.verdict != VerdictN::Undetermined {
                    assert_eq!(refr.intersecting(), Some(e), "{ctx}: reference");
                }
                if let Some(g) = gjk_answer(&a, &b) {
                    assert_eq!(g, e, "{ctx}: gjk");
                    gjk_checked += 1;
                }
            }
            // Symmetry: swapping the sets gives the same answer.
            let swapped = intersect(&pb, &pa, &opts()).unwrap();
            if expect.is_some() {
                assert_eq!(swapped.intersecting(), prod.intersecting(), "{ctx}: swap");
            }
        }
    }
    eprintln!(
        "pairs {total}, in band {band}, reference undetermined {ref_undetermined}, gjk checked \
         {gjk_checked}, worst d2_lower − oracle upper (no offset) {worst_bracket:e}"
    );
    assert!(total >= 2000);
    assert!(band * 50 < total, "too many band cases: {band}");
    assert!(
        ref_undetermined * 20 < total,
        "reference undetermined {ref_undetermined}"
    );
}

#[test]
fn l1_distance_matches_clarabel_l1_lp() {
    let mut r = rng(0x11);
    let mut worst: f64 = 0.0;
    for &n in &[1usize, 2, 3, 5, 10] {
        for case in 0..60 {
            let (a, b, kind) = random_pair(&mut r, n, case);
            if kind == "offset-1e6" {
                continue;
            }
            let (pa, pb) = (
                PointsN::from_rows(&a).unwrap(),
                PointsN::from_rows(&b).unwrap(),
            );
            let d = l1_distance(&pa, &pb, &opts()).unwrap();
            let o = l1_distance_oracle(&a, &b).unwrap();
            let scale = pa.size() + pb.size() + d.d1;
            // Ours is feasible (≥ true d₁ − rounding); the oracle's objective is within its
            // interior-point tolerance of the true d₁ and its weights give an upper bound.
            assert!(
                d.d1 <= o.upper + 1e-12 * (1.0 + scale),
                "n={n} {case} {kind}: {} vs {:?}",
                d.d1,
                o
            );
            assert!(
                (d.d1 - o.objective).abs() <= 1e-7 * (1.0 + scale),
                "n={n} {case} {kind}: {} vs {:?}",
                d.d1,
                o
            );
            worst = worst.max((d.d1 - o.objective).abs() / (1.0 + scale));
            // The weights reproduce the closest points.
            let pa2 = weighted(&pa, &d.weights_a);
            assert!(dist(&pa2, &d.point_a) < 1e-12 * (1.0 + pa.magnitude()));
            assert!(d.d2_lower <= d.d2_upper && d.d2_upper <= d.d1 + 1e-15);
        }
    }
    eprintln!("worst |d1 − clarabel| / (1 + scale) = {worst:e}");
}

#[test]
fn l1_distance_point_to_point_and_point_to_box_closed_form() {
    let a = pts(&[&[3.0, -4.0, 0.5]]);
    let b = pts(&[&[-1.0, 2.0, 0.5]]);
    let d = l1_distance(&a, &b, &opts()).unwrap();
    assert_eq!(d.d1, 10.0);
    // Unit square [0,1]² and point (2, 3): L1 distance 1 + 2 = 3.
    let sq = pts(&[&[0.0, 0.0], &[1.0, 0.0], &[0.0, 1.0], &[1.0, 1.0]]);
    let p = pts(&[&[2.0, 3.0]]);
    let d = l1_distance(&p, &sq, &opts()).unwrap();
    assert!((d.d1 - 3.0).abs() < 1e-14);
    // Cross-polytope point: (2, 2) against the diamond |x| + |y| ≤ 1: L1 distance 3, and the
    // Euclidean distance 3/√2 attained, so d2_lower = d1/√2 is tight.
    let diamond = pts(&[&[1.0, 0.0], &[-1.0, 0.0], &[0.0, 1.0], &[0.0, -1.0]]);
    let q = pts(&[&[2.0, 2.0]]);
    let d = l1_distance(&q, &diamond, &opts()).unwrap();
    assert!((d.d1 - 3.0).abs() < 1e-14);
    assert!((d.d2_lower - 3.0 / 2f64.sqrt()).abs() < 1e-12);
}

fn weighted(set: &PointsN, w: &[(usize, f64)]) -> Vec<f64> {
    let mut out = vec![0.0; set.dim()];
    for &(i, wi) in w {
        for (o, x) in out.iter_mut().zip(set.point(i)) {
            *o += wi * x;
        }
    }
    out
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// Corners of the cube [0, 1]ⁿ shifted by `x0` along the first axis (and by `off` overall).
fn cube(n: usize, x0: f64, off: f64) -> PointsN {
    let mut rows = Vec::new();
    for mask in 0..(1usize << n) {
        rows.push(
            (0..n)
                .map(|k| off + ((mask >> k) & 1) as f64 + if k == 0 { x0 } else { 0.0 })
                .collect::<Vec<f64>>(),
        );
    }
    PointsN::from_rows(&rows).unwrap()
}

#[test]
fn exact_touching_is_intersecting_and_gaps_around_the_tolerance() {
    for n in [1usize, 2, 3, 5] {
        for off in [0.0, 1e6] {
            let a = cube(n, 0.0, off);
            let touching = cube(n, 1.0, off);
            let r = intersect(&a, &touching, &opts()).unwrap();
            assert_eq!(r.intersecting(), Some(true), "n={n} off={off}");
            verify_n(&r.verdict, &a, &touching, r.tolerance).unwrap();
            // The unscaled reference may fail to reproduce a common point within the
            // tolerance far from the origin (its weights absorb rounding of 1e6-sized
            // entries); it must then say Undetermined, never Separated.
            let r = intersect_reference_as_prod(&a, &touching, &opts()).unwrap();
            if off == 0.0 || r.verdict != VerdictN::Undetermined {
                assert_eq!(r.intersecting(), Some(true), "n={n} off={off} reference");
                verify_n(&r.verdict, &a, &touching, r.tolerance).unwrap();
            }
            let tol = intersect(&a, &touching, &opts()).unwrap().tolerance;
            // Gaps of 0.5× and 2× the tolerance (representable: off + 1 + g).
            for (g, expect) in [(0.5 * tol, true), (2.0 * tol, false), (10.0 * tol, false)] {
                let b = cube(n, 1.0 + g, off);
                let r = intersect(&a, &b, &opts()).unwrap();
                let real_gap = b.extent(&unit_x(n)).0 - a.extent(&unit_x(n)).1;
                // The decision is d₁ ≤ tol with d₁ the real gap along x.
                assert_eq!(
                    r.intersecting(),
                    Some(real_gap <= r.tolerance),
                    "n={n} off={off} g={g}"
                );
                if off == 0.0 {
                    assert_eq!(r.intersecting(), Some(expect), "n={n} g={g}");
                }
                verify_n(&r.verdict, &a, &b, r.tolerance).unwrap();
            }
        }
    }
}

fn unit_x(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[0] = 1.0;
    v
}

fn intersect_reference_as_prod(
    a: &PointsN,
    b: &PointsN,
    o: &LpOptions,
) -> Result<convexity::lp::LpIntersection, convexity::InputError> {
    intersect_reference(a, b, o).map(|r| convexity::lp::LpIntersection {
        status: r.status,
        iterations: r.iterations,
        verdict: r.verdict,
        tolerance: r.tolerance,
        l1_residual: f64::NAN,
    })
}

#[test]
fn containment_weights_reproduce_points_and_outside_points_are_separated() {
    let mut r = rng(0xc0);
    for &n in &[2usize, 3, 5, 10] {
        let c0 = vec![0.0; n];
        let hull_rows = cloud(&mut r, n, 40, &c0, 1.0);
        let hull = PointsN::from_rows(&hull_rows).unwrap();
        let mut queries = Vec::new();
        let mut expected = Vec::new();
        for q in 0..60 {
            if q % 2 == 0 {
                // A random convex combination of hull vertices: inside.
                let w: Vec<f64> = (0..hull.len()).map(|_| r.gen::<f64>().powi(4)).collect();
                let s: f64 = w.iter().sum();
                let p: Vec<f64> = (0..n)
                    .map(|k| (0..hull.len()).map(|i| w[i] / s * hull.point(i)[k]).sum())
                    .collect();
                queries.push(p);
                expected.push(Some(true));
            } else {
                // Outside unless clarabel says otherwise (a point at radius 1.2–3).
                let d = unit(&mut r, n);
                let p: Vec<f64> = d.iter().map(|x| x * r.gen_range(1.2..3.0)).collect();
                let o = hull_distance(std::slice::from_ref(&p), &hull_rows).unwrap();
                expected.push(if o.lower_bound > 1e-6 {
                    Some(false)
                } else if o.upper_bound < 1e-12 {
                    Some(true)
                } else {
                    None
                });
                queries.push(p);
            }
        }
        let qset = PointsN::from_rows(&queries).unwrap();
        let batch = points_in_hull(&qset, &hull, &opts()).unwrap();
        for (i, p) in queries.iter().enumerate() {
            let single = point_in_hull(p, &hull, &opts()).unwrap();
            let ps = PointsN::from_rows(std::slice::from_ref(p)).unwrap();
            verify_n(&single.verdict, &ps, &hull, single.tolerance).unwrap();
            verify_n(&batch[i].verdict, &ps, &hull, batch[i].tolerance).unwrap();
            assert_eq!(
                batch[i].inside(),
                single.inside(),
                "n={n} q={i}: batch = individual"
            );
            if let Some(e) = expected[i] {
                assert_eq!(single.inside(), Some(e), "n={n} q={i}");
            }
            if let VerdictN::Intersecting(c) = &single.verdict {
                let back = weighted(&hull, &c.weights_b);
                assert!(
                    dist(&back, p) <= single.tolerance,
                    "weights reproduce the point"
                );
            }
        }
        // Hull-in-hull: inner = some of the inside points: contained, with weights.
        let inner_rows: Vec<Vec<f64>> = queries.iter().step_by(2).take(8).cloned().collect();
        let inner = PointsN::from_rows(&inner_rows).unwrap();
        let rep = contains(&hull, &inner, &opts()).unwrap();
        match &rep.outcome {
            ContainmentOutcome::Contained { weights } => {
                assert_eq!(weights.len(), inner.len());
                for (i, w) in weights.iter().enumerate() {
                    assert!(dist(&weighted(&hull, w), inner.point(i)) <= rep.tolerance);
                    assert!(w.iter().all(|e| e.1 >= 0.0));
                }
            }
            o => panic!("n={n}: expected contained, got {o:?}"),
        }
        // Push vertex 3 outside: not contained, vertex 3 named, hyperplane verifies.
        let mut bad = inner_rows.clone();
        bad[3] = vec![5.0; n];
        let bad = PointsN::from_rows(&bad).unwrap();
        let rep = contains(&hull, &bad, &opts()).unwrap();
        assert_eq!(rep.contained(), Some(false));
        match rep.outcome {
            ContainmentOutcome::NotContained { vertex, hyperplane } => {
                assert_eq!(vertex, 3);
                let v = PointsN::from_rows(&[bad.point(3).to_vec()]).unwrap();
                verify_n(&VerdictN::Separated(hyperplane), &v, &hull, rep.tolerance).unwrap();
            }
            o => panic!("{o:?}"),
        }
        // A hull contains itself (every vertex on the boundary).
        assert_eq!(
            contains(&hull, &hull, &opts()).unwrap().contained(),
            Some(true)
        );
    }
}

#[test]
fn iteration_cap_reports_status() {
    let mut r = rng(0xca);
    let n = 10;
    let a = PointsN::from_rows(&cloud(&mut r, n, 300, &vec![0.0; n], 1.0)).unwrap();
    let b = PointsN::from_rows(&cloud(&mut r, n, 300, &vec![0.3; n], 1.0)).unwrap();
    let capped = LpOptions {
        max_iterations: 1,
        ..LpOptions::default()
    };
    let p = intersect(&a, &b, &capped).unwrap();
    assert_eq!(p.status, Status::IterationLimit);
    assert!(p.iterations <= 1);
    if p.verdict != VerdictN::Undetermined {
        verify_n(&p.verdict, &a, &b, p.tolerance).unwrap();
    }
    let q = intersect_reference(&a, &b, &capped).unwrap();
    assert_eq!(q.status, Status::IterationLimit);
    let d = l1_distance(&a, &b, &capped).unwrap();
    assert_eq!(d.status, Status::IterationLimit);
    assert!(d.d1.is_finite() && d.d2_lower <= d.d2_upper);
    // Uncapped, the same problem is solved and certified.
    let full = intersect(&a, &b, &opts()).unwrap();
    assert_eq!(full.intersecting(), Some(true));
    verify_n(&full.verdict, &a, &b, full.tolerance).unwrap();
}

#[test]
fn bad_input_is_rejected_by_name() {
    let e = PointsN::from_rows(&[vec![0.0, 1.0], vec![0.0, f64::NAN]]).unwrap_err();
    assert_eq!(e.field, "points[1][1]");
    let a = pts(&[&[0.0, 0.0]]);
    let b3 = pts(&[&[0.0, 0.0, 0.0]]);
    for e in [
        intersect(&a, &b3, &opts()).unwrap_err(),
        intersect_reference(&a, &b3, &opts()).unwrap_err(),
        l1_distance(&a, &b3, &opts()).unwrap_err(),
    ] {
        assert_eq!(e.field, "b");
        assert!(matches!(
            e.problem,
            Problem::DimensionMismatch {
                expected: 2,
                found: 3
            }
        ));
    }
    assert_eq!(contains(&a, &b3, &opts()).unwrap_err().field, "inner");
    assert_eq!(
        points_in_hull(&b3, &a, &opts()).unwrap_err().field,
        "points"
    );
    assert_eq!(point_in_hull(&[0.0], &a, &opts()).unwrap_err().field, "p");
    assert_eq!(
        point_in_hull(&[0.0, f64::NAN], &a, &opts())
            .unwrap_err()
            .field,
        "p[1]"
    );
    let bad = LpOptions {
        rel_tolerance: f64::NAN,
        ..LpOptions::default()
    };
    assert_eq!(
        intersect(&a, &a, &bad).unwrap_err().field,
        "opts.rel_tolerance"
    );
    // Huge but valid coordinates: no NaN, a verified answer.
    let h1 = pts(&[&[1e59, -1e59], &[1e59, 1e59]]);
    let h2 = pts(&[&[-1e59, 0.0], &[-1e59, 1.0]]);
    let r = intersect(&h1, &h2, &opts()).unwrap();
    assert_eq!(r.intersecting(), Some(false));
    verify_n(&r.verdict, &h1, &h2, r.tolerance).unwrap();
    let d = l1_distance(&h1, &h2, &opts()).unwrap();
    assert!(d.d1.is_finite() && (d.d1 - 2e59).abs() < 1e45);
}

#[test]
fn posed_points_agree_with_gjk_in_3d_and_2d() {
    let mut r = rng(0x3d);
    let mut checked = 0;
    for i in 0..200 {
        let a: Vec<DVec3> = (0..12)
            .map(|_| DVec3::new(gaussian(&mut r), gaussian(&mut r), gaussian(&mut r)))
            .collect();
        let b: Vec<DVec3> = (0..12)
            .map(|_| DVec3::new(gaussian(&mut r), gaussian(&mut r), gaussian(&mut r)))
            .collect();
        let (ha, hb) = (Points::new(&a).unwrap(), Points::new(&b).unwrap());
        let pose_a = convexity_testkit::gen3::random_pose3(&mut r, 3.0);
        let pose_b = convexity_testkit::gen3::random_pose3(&mut r, 3.0);
        let g = gjk::distance(&ha, &pose_a, &hb, &pose_b, &Default::default(), None);
        let lp = intersect_points(&ha, &pose_a, &hb, &pose_b, &opts()).unwrap();
        let lr = intersect_points_reference(&ha, &pose_a, &hb, &pose_b, &opts()).unwrap();
        convexity::gjk::certificate::verify(&ha, &pose_a, &hb, &pose_b, &lp.verdict, 1e-7)
            .unwrap_or_else(|e| panic!("case {i}: {e}"));
        if g.distance > 1e-6 || g.distance == 0.0 && g.intersecting() == Some(true) {
            let e = g.distance == 0.0;
            assert_eq!(lp.verdict.intersecting(), Some(e), "case {i}");
            assert_eq!(lr.verdict.intersecting(), Some(e), "case {i} reference");
            checked += 1;
        }
    }
    assert!(checked > 150);
    // 2D: two unit squares, touching along an edge after a rotation of B by 90° (exact).
    let sq: Vec<DVec2> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
        .iter()
        .map(|p| DVec2::new(p[0], p[1]))
        .collect();
    let h = Points::new(&sq).unwrap();
    let pose_b = Pose2::from_angle([2.0, 0.0], std::f64::consts::FRAC_PI_2).unwrap();
    let lp = intersect_points(&h, &Pose2::IDENTITY, &h, &pose_b, &opts()).unwrap();
    assert_eq!(lp.verdict.intersecting(), Some(true));
}

#[test]
fn metamorphic_translation_scaling_and_vertex_order() {
    let mut r = rng(0x3e7a);
    for case in 0..200 {
        let n = [2usize, 3, 5, 10][case % 4];
        let (a, b, kind) = random_pair(&mut r, n, case);
        if kind == "offset-1e6" {
            continue;
        }
        let (pa, pb) = (
            PointsN::from_rows(&a).unwrap(),
            PointsN::from_rows(&b).unwrap(),
        );
        let base = l1_distance(&pa, &pb, &opts()).unwrap();
        let ans = intersect(&pa, &pb, &opts()).unwrap();
        // Scale by 8 (exact in binary), translate by an integer vector, reverse the order.
        let shift: Vec<f64> = (0..n).map(|k| (k as f64) * 3.0 - 7.0).collect();
        let map = |v: &[Vec<f64>]| -> PointsN {
            let rows: Vec<Vec<f64>> = v
                .iter()
                .rev()
                .map(|p| p.iter().zip(&shift).map(|(x, s)| 8.0 * x + s).collect())
                .collect();
            PointsN::from_rows(&rows).unwrap()
        };
        let (qa, qb) = (map(&a), map(&b));
        let moved = l1_distance(&qa, &qb, &opts()).unwrap();
        let scale = 8.0 * (pa.size() + pb.size() + base.d1);
        assert!(
            (moved.d1 - 8.0 * base.d1).abs() <= 1e-10 * (1.0 + scale),
            "case {case} {kind}: {} vs 8 × {}",
            moved.d1,
            base.d1
        );
        let moved_ans = intersect(&qa, &qb, &opts()).unwrap();
        verify_n(&moved_ans.verdict, &qa, &qb, moved_ans.tolerance).unwrap();
        // Outside the band (d1 within 10 tol of the threshold), the answers agree.
        if (base.d1 - ans.tolerance).abs() > 10.0 * ans.tolerance {
            assert_eq!(
                moved_ans.intersecting(),
                ans.intersecting(),
                "case {case} {kind}"
            );
        }
    }
}
