//! Fourier–Motzkin elimination against exact cases, Seidel's LP (with the FM LP pruning off, so
//! the two are independent), brute-force feasibility by vertex enumeration, certificate checks
//! and the size limit.

use std::time::Instant;

use convexity::lp::fourier_motzkin::{feasible, FmError, FmOptions, FmOutcome};
use convexity::math::seidel_lp::{solve, LpOutcome, SeidelOptions};
use convexity::Halfspaces;
use convexity_testkit::rng::{case_rng, Rng};

fn tri(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let v = [p, q, r];
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    for i in 0..3 {
        let (a, b) = (v[i], v[(i + 1) % 3]);
        let n = vec![b[1] - a[1], a[0] - b[0]];
        offsets.push(n[0] * a[0] + n[1] * a[1]);
        normals.push(n);
    }
    (normals, offsets)
}

fn no_lp() -> FmOptions {
    FmOptions {
        lp_prune: false,
        ..FmOptions::default()
    }
}

#[test]
fn reference_triangles_are_feasible_together() {
    let (mut n, mut o) = tri([1.0, 0.0], [5.0, -1.0], [4.0, 3.0]);
    let (nb, ob) = tri([0.0, 0.0], [4.0, 1.0], [1.0, 4.0]);
    n.extend(nb);
    o.extend(ob);
    let h = Halfspaces::from_rows(&n, &o).unwrap();
    for limits in [FmOptions::default(), no_lp()] {
        let r = feasible(&h, &limits).unwrap();
        match r.outcome {
            FmOutcome::Feasible {
                point,
                max_violation,
            } => {
                assert!(max_violation <= 1e-12, "{max_violation}");
                assert!(h.contains(&point, 1e-12));
            }
            o => panic!("{o:?}"),
        }
    }
    // Touching at (2, 1) on A's edge y = x − 1: still feasible (closed sets).
    let (mut n, mut o) = tri([1.0, 0.0], [5.0, -1.0], [4.0, 3.0]);
    let (nb, ob) = tri([2.0, 1.0], [1.0, 3.0], [0.0, 1.0]);
    n.extend(nb);
    o.extend(ob);
    let h = Halfspaces::from_rows(&n, &o).unwrap();
    match feasible(&h, &no_lp()).unwrap().outcome {
        FmOutcome::Feasible { point, .. } => {
            assert!(
                (point[0] - 2.0).abs() < 1e-9 && (point[1] - 1.0).abs() < 1e-9,
                "{point:?}"
            )
        }
        o => panic!("{o:?}"),
    }
    // Moved 1e-3 away along that edge's normal: infeasible, with a Farkas combination.
    let s = 1e-3 / 2f64.sqrt();
    let (nb, ob) = tri([2.0 - s, 1.0 + s], [1.0 - s, 3.0 + s], [0.0 - s, 1.0 + s]);
    let (mut n, mut o) = tri([1.0, 0.0], [5.0, -1.0], [4.0, 3.0]);
    n.extend(nb);
    o.extend(ob);
    let h = Halfspaces::from_rows(&n, &o).unwrap();
    match feasible(&h, &no_lp()).unwrap().outcome {
        FmOutcome::Infeasible { combination } => {
            let c = combination.check(&h).unwrap();
            assert!(c.value < 0.0 && c.radius > 1e9, "{c:?}");
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn infeasible_single_system_has_a_certificate() {
    // x + y ≤ 1, −x ≤ 0, −y ≤ 0, x + y ≥ 1.5 (as −x − y ≤ −1.5), in 3D with a free z.
    let h = Halfspaces::from_rows(
        &[
            [1.0, 1.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, -1.0, 0.0],
            [-1.0, -1.0, 0.0],
        ],
        &[1.0, 0.0, 0.0, -1.5],
    )
    .unwrap();
    match feasible(&h, &FmOptions::default()).unwrap().outcome {
        FmOutcome::Infeasible { combination } => {
            let c = combination.check(&h).unwrap();
            assert!(
                c.residual < 1e-15 && (c.value + 0.5 * c.value.abs()) < 0.0,
                "{c:?}"
            );
        }
        o => panic!("{o:?}"),
    }
}

/// Feasibility by brute force: a bounded system is feasible iff some d-subset of its rows meets
/// in a point satisfying all rows (rows here always include a box).
fn brute_feasible(h: &Halfspaces) -> bool {
    let d = h.dim();
    let m = h.len();
    let mut idx: Vec<usize> = (0..d).collect();
    loop {
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
                return true;
            }
        }
        let mut i = d;
        loop {
            if i == 0 {
                return false;
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

/// The largest common slack `t` (max t s.t. nᵢ·x/|nᵢ| + t ≤ oᵢ/|nᵢ|): how far the system is
/// from the feasibility boundary, for the tolerance band.
fn depth(h: &Halfspaces) -> f64 {
    let d = h.dim();
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    for i in 0..h.len() {
        let l = h.normal_length(i);
        let mut n: Vec<f64> = h.normal(i).iter().map(|c| c / l).collect();
        n.push(1.0);
        normals.push(n);
        offsets.push(h.offset(i) / l);
    }
    let mut top = vec![0.0; d + 1];
    top[d] = 1.0;
    normals.push(top.clone());
    offsets.push(10.0);
    let lifted = Halfspaces::from_rows(&normals, &offsets).unwrap();
    match solve(&lifted, &top, &SeidelOptions::default())
        .unwrap()
        .outcome
    {
        LpOutcome::Optimal { value, .. } => value,
        s => panic!("{s:?}"),
    }
}

#[test]
fn random_systems_agree_with_seidel_and_brute_force() {
    let mut counts = [0usize; 2];
    for case in 0..800u64 {
        let mut r = case_rng(0xf4, case);
        let d = 2 + (case % 3) as usize;
        let m = r.gen_range(3..=9);
        let mut normals = Vec::new();
        let mut offsets = Vec::new();
        for _ in 0..m {
            normals.push((0..d).map(|_| r.gen_range(-1.0..1.0)).collect::<Vec<f64>>());
            offsets.push(r.gen_range(-0.5..0.6));
        }
        for j in 0..d {
            for s in [1.0, -1.0] {
                let mut n = vec![0.0; d];
                n[j] = s;
                normals.push(n);
                offsets.push(3.0);
            }
        }
        let h = Halfspaces::from_rows(&normals, &offsets).unwrap();
        let t = depth(&h);
        if t.abs() < 1e-7 {
            continue;
        }
        let truth = t > 0.0;
        assert_eq!(
            brute_feasible(&h),
            truth,
            "case {case}: brute force vs depth {t}"
        );
        let seidel = solve(&h, &vec![0.0; d], &SeidelOptions::default()).unwrap();
        assert_eq!(
            matches!(seidel.outcome, LpOutcome::Optimal { .. }),
            truth,
            "case {case}: seidel"
        );
        for limits in [no_lp(), FmOptions::default()] {
            let fm = feasible(&h, &limits).unwrap();
            match fm.outcome {
                FmOutcome::Feasible {
                    point,
                    max_violation,
                } => {
                    assert!(truth, "case {case}: fm feasible, depth {t}");
                    assert!(max_violation <= 1e-10, "case {case}: {max_violation}");
                    assert!(h.contains(&point, 1e-10));
                }
                FmOutcome::Infeasible { combination } => {
                    assert!(!truth, "case {case}: fm infeasible, depth {t}");
                    let c = combination.check(&h).unwrap();
                    assert!(c.radius > 1e6, "case {case}: {c:?}");
                }
            }
        }
        counts[truth as usize] += 1;
    }
    assert!(counts[0] > 150 && counts[1] > 150, "{counts:?}");
}

#[test]
fn size_limit_refuses_quickly() {
    // 200 random rows in 6 variables: the first step alone would build ~10⁴ rows.
    let mut r = case_rng(0x5123, 0);
    let normals: Vec<Vec<f64>> = (0..200)
        .map(|_| (0..6).map(|_| r.gen_range(-1.0..1.0)).collect())
        .collect();
    let offsets: Vec<f64> = (0..200).map(|_| r.gen_range(0.5..1.0)).collect();
    let h = Halfspaces::from_rows(&normals, &offsets).unwrap();
    let limits = FmOptions {
        max_rows: 1000,
        ..FmOptions::default()
    };
    let t = Instant::now();
    let e = feasible(&h, &limits).unwrap_err();
    assert!(t.elapsed().as_millis() < 100, "{:?}", t.elapsed());
    match &e {
        FmError::TooLarge {
            variable,
            rows,
            limit,
        } => {
            assert_eq!((*variable, *limit), (5, 1000));
            assert!(*rows > 1000);
        }
        e => panic!("{e:?}"),
    }
    assert!(e.to_string().contains("more than the limit 1000"), "{e}");
    // Too many variables.
    let wide = Halfspaces::from_rows(&[vec![1.0; 20]], &[1.0]).unwrap();
    assert!(matches!(
        feasible(&wide, &FmOptions::default()),
        Err(FmError::TooManyVariables { dim: 20, .. })
    ));
}

#[test]
fn pruning_keeps_projections_small_and_counts_are_reported() {
    // A cube with every row repeated three times (twice scaled): duplicates are pruned, and the
    // projection of a cube stays a square, then an interval.
    let mut normals = Vec::new();
    let mut offsets = Vec::new();
    for s in [1.0, 2.0, 0.5] {
        for j in 0..3 {
            for sign in [1.0, -1.0] {
                let mut n = vec![0.0; 3];
                n[j] = sign * s;
                normals.push(n);
                offsets.push(s);
            }
        }
    }
    let h = Halfspaces::from_rows(&normals, &offsets).unwrap();
    let r = feasible(&h, &no_lp()).unwrap();
    assert_eq!(r.stats.pruned_duplicates, 12);
    assert_eq!(r.stats.rows_per_stage, vec![6, 4, 2, 0]);
    assert!(matches!(r.outcome, FmOutcome::Feasible { .. }));
}

/// Fuzz regression: two posed tetrahedra 455 apart, which the LP pruning made "feasible" at a
/// back-substituted point x ≈ 2e9 that violated a row by 1.4e9. A feasible answer is now
/// returned only when its point satisfies the original rows.
#[test]
fn regression_lp_pruning_made_separated_tetrahedra_feasible() {
    use convexity::query::{self, Method};
    use convexity::{DQuat, DVec3, Points, Pose3};
    let a = Points::new(&[
        DVec3::new(442.64699999999993, 442.64699999999993, 442.64699999999993),
        DVec3::new(442.64699999999993, 442.64699999999993, -190.20600000000002),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(398.1859999999999, 442.64699999999993, 442.64699999999993),
    ])
    .unwrap();
    let b = Points::new(&[
        DVec3::new(-53.01400000000001, -1000.0, 919.7149999999999),
        DVec3::new(-1000.0, -1000.0, 48.57600000000002),
        DVec3::new(-1000.0, -1000.0, -1000.0),
        DVec3::new(-34.85299999999995, 973.239, -1000.0),
    ])
    .unwrap();
    let pa = Pose3::new(
        DVec3::new(-1000.0, -999.953, -1000.0),
        DQuat::from_xyzw(-0.5, -0.5, -0.5, -0.5),
    )
    .unwrap();
    let pb = Pose3::new(
        DVec3::new(-367.14700000000005, 442.64699999999993, -593.274),
        DQuat::from_xyzw(
            -0.5000001249999844,
            -0.5000001249999844,
            -0.4999996249998594,
            -0.5000001249999844,
        ),
    )
    .unwrap();
    let fm = query::run(Method::FourierMotzkin, &a, &pa, &b, &pb).unwrap();
    let gjk = query::run(Method::Gjk, &a, &pa, &b, &pb).unwrap();
    assert_eq!(gjk.verdict.intersecting(), Some(false));
    assert_eq!(fm.verdict.intersecting(), Some(false), "{fm:?}");
    let tol = convexity::gjk::certificate::tolerance_for(&a, &pa, &b, &pb);
    convexity::verify(&a, &pa, &b, &pb, &fm.verdict, tol).unwrap();
}
