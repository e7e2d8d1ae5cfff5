//! Bounding spheres, Welzl, AABBs and sort-and-sweep candidates, against analytic answers and
//! brute force: the minimal circle/sphere by exhaustive search over pairs, triples (and
//! quadruples in 3D), transformed points against posed boxes, and O(n²) pair lists.

use convexity::primitives::bounds::{welzl_circle, welzl_sphere, Aabb, BoundingSphere};
use convexity::primitives::sweep_prune::{
    brute_force_pairs, candidate_pairs, sphere_candidate_pairs,
};
use convexity::{DQuat, DVec2, DVec3, Pose2, Pose3, Problem};
use convexity_testkit::rng::{rng, Rng};

fn rand3(r: &mut impl Rng, s: f64) -> DVec3 {
    DVec3::new(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s))
}

fn rand2(r: &mut impl Rng, s: f64) -> DVec2 {
    DVec2::new(r.gen_range(-s..s), r.gen_range(-s..s))
}

// ------------------------------------------------------------------------------------------
// Brute-force minimal balls.

fn circumcircle(a: DVec2, b: DVec2, c: DVec2) -> Option<(DVec2, f64)> {
    let d = 2.0 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    if d.abs() < 1e-14 {
        return None;
    }
    let (a2, b2, c2) = (a.length_squared(), b.length_squared(), c.length_squared());
    let ux = (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d;
    let uy = (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d;
    let u = DVec2::new(ux, uy);
    Some((u, (a - u).length()))
}

fn brute_circle(p: &[DVec2]) -> f64 {
    let mut cands: Vec<(DVec2, f64)> = vec![(p[0], 0.0)];
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let c = (p[i] + p[j]) * 0.5;
            cands.push((c, (p[i] - c).length()));
            for k in j + 1..p.len() {
                if let Some(cc) = circumcircle(p[i], p[j], p[k]) {
                    cands.push(cc);
                }
            }
        }
    }
    cands
        .into_iter()
        .filter(|(c, r)| {
            p.iter()
                .all(|q| (*q - *c).length() <= r * (1.0 + 1e-9) + 1e-12)
        })
        .map(|(_, r)| r)
        .fold(f64::INFINITY, f64::min)
}

/// Circumsphere centre of k ≤ 4 points within their affine hull (Gram system, Cramer-free
/// elimination in the test's own code).
fn circum_sphere(p: &[DVec3]) -> Option<(DVec3, f64)> {
    let e: Vec<DVec3> = p[1..].iter().map(|q| *q - p[0]).collect();
    let k = e.len();
    let mut m = vec![vec![0.0; k + 1]; k];
    for i in 0..k {
        for j in 0..k {
            m[i][j] = e[i].dot(e[j]);
        }
        m[i][k] = 0.5 * e[i].length_squared();
    }
    for c in 0..k {
        let piv = (c..k).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[piv][c].abs() < 1e-10 {
            return None;
        }
        m.swap(c, piv);
        let pivot_row = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot_row[c];
                for (x, p) in row.iter_mut().zip(pivot_row.iter()).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut centre = p[0];
    for i in 0..k {
        centre += e[i] * (m[i][k] / m[i][i]);
    }
    Some((centre, (p[0] - centre).length()))
}

fn brute_sphere(p: &[DVec3]) -> f64 {
    let n = p.len();
    let mut best = f64::INFINITY;
    let mut consider = |c: DVec3, r: f64| {
        if p.iter()
            .all(|q| (*q - c).length() <= r * (1.0 + 1e-9) + 1e-12)
        {
            best = best.min(r);
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            let c = (p[i] + p[j]) * 0.5;
            consider(c, (p[i] - c).length());
            for k in j + 1..n {
                if let Some((c, r)) = circum_sphere(&[p[i], p[j], p[k]]) {
                    consider(c, r);
                }
                for l in k + 1..n {
                    if let Some((c, r)) = circum_sphere(&[p[i], p[j], p[k], p[l]]) {
                        consider(c, r);
                    }
                }
            }
        }
    }
    best
}

#[test]
fn welzl_circle_matches_exhaustive_search() {
    let mut r = rng(0xB0_0001);
    for case in 0..400 {
        let n = 2 + case % 10;
        let pts: Vec<DVec2> = (0..n).map(|_| rand2(&mut r, 1.0)).collect();
        let w = welzl_circle(&pts).unwrap();
        let b = brute_circle(&pts);
        assert!(
            (w.radius - b).abs() <= 1e-9 * b.max(1e-300),
            "case {case}: {} vs {b}",
            w.radius
        );
        for p in &pts {
            assert!(w.contains(*p), "case {case}");
        }
    }
}

#[test]
fn welzl_sphere_matches_exhaustive_search() {
    let mut r = rng(0xB0_0002);
    for case in 0..300 {
        let n = 2 + case % 9;
        let pts: Vec<DVec3> = (0..n).map(|_| rand3(&mut r, 1.0)).collect();
        let w = welzl_sphere(&pts).unwrap();
        let b = brute_sphere(&pts);
        assert!(
            (w.radius - b).abs() <= 1e-9 * b,
            "case {case}: {} vs {b}",
            w.radius
        );
        for p in &pts {
            assert!(w.contains(*p), "case {case}");
        }
    }
}

#[test]
fn welzl_analytic_and_degenerate_sets() {
    // Cube corners: centre 0, radius √3.
    let mut cube = Vec::new();
    for i in 0..8 {
        cube.push(DVec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        ));
    }
    let s = welzl_sphere(&cube).unwrap();
    assert!(
        (s.radius - 3f64.sqrt()).abs() < 1e-12 && s.center.length() < 1e-12,
        "{s:?}"
    );
    // A single point, duplicates, collinear points, coplanar points.
    let s = welzl_sphere(&[DVec3::splat(5.0); 4]).unwrap();
    assert!(s.radius < 1e-12 && (s.center - DVec3::splat(5.0)).length() < 1e-12);
    let line: Vec<DVec3> = (0..20)
        .map(|i| DVec3::new(i as f64, 2.0 * i as f64, 0.0))
        .collect();
    let s = welzl_sphere(&line).unwrap();
    let want = (line[19] - line[0]).length() / 2.0;
    assert!((s.radius - want).abs() < 1e-12 * want, "{s:?}");
    let circle: Vec<DVec3> = (0..50)
        .map(|i| {
            let t = i as f64 * 0.1257;
            DVec3::new(t.cos(), t.sin(), 0.0) * 3.0 + DVec3::new(1e6, 1e6, -1e6)
        })
        .collect();
    let s = welzl_sphere(&circle).unwrap();
    assert!(s.radius <= 3.0 * (1.0 + 1e-9) && s.radius > 2.5, "{s:?}");
    for p in &circle {
        assert!(s.contains(*p));
    }
    // Errors.
    assert_eq!(welzl_sphere(&[]).unwrap_err().problem, Problem::Empty);
    let e = welzl_sphere(&[DVec3::ZERO, DVec3::new(0.0, f64::NAN, 0.0)]).unwrap_err();
    assert_eq!(e.field, "points[1][1]");
}

#[test]
fn origin_sphere_is_never_tighter_than_welzl_and_contains_posed_vertices() {
    let mut r = rng(0xB0_0003);
    for _ in 0..200 {
        // Skewed set: the origin is far from the middle.
        let pts: Vec<DVec3> = (0..30)
            .map(|_| rand3(&mut r, 1.0) + DVec3::new(2.0, 0.0, 0.0))
            .collect();
        let o = BoundingSphere::about_origin(&pts).unwrap();
        let w = welzl_sphere(&pts).unwrap();
        assert!(o.radius >= w.radius * (1.0 - 1e-12));
        let pose = Pose3::new(
            rand3(&mut r, 100.0),
            DQuat::from_rotation_y(r.gen_range(0.0..6.0)),
        )
        .unwrap();
        let (po, pw) = (o.posed(&pose), w.posed(&pose));
        for p in &pts {
            let q = pose.transform_point(*p);
            assert!(po.contains(q) && pw.contains(q));
        }
    }
    // Closed: touching spheres intersect.
    let a = BoundingSphere {
        center: DVec3::ZERO,
        radius: 1.0,
    };
    let b = BoundingSphere {
        center: DVec3::new(3.0, 0.0, 0.0),
        radius: 2.0,
    };
    assert!(a.intersects(&b));
    let c = BoundingSphere {
        center: DVec3::new(3.0 + 1e-15 * 4.0, 0.0, 0.0),
        radius: 2.0,
    };
    assert!(!a.intersects(&c));
}

#[test]
fn posed_boxes_contain_transformed_vertices_and_fast_bound_contains_exact() {
    let mut r = rng(0xB0_0004);
    for case in 0..500 {
        let n = 1 + case % 40;
        let pts: Vec<DVec3> = (0..n)
            .map(|_| rand3(&mut r, 1.0) * 10f64.powi(case % 5))
            .collect();
        let q = DQuat::from_xyzw(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        )
        .normalize();
        let pose = Pose3::new(rand3(&mut r, 1e6), q).unwrap();
        let local = Aabb::from_points(&pts).unwrap();
        let fast = local.transformed(&pose);
        let exact = Aabb::from_points_posed(&pts, &pose).unwrap();
        for p in &pts {
            let w = pose.transform_point(*p);
            assert!(fast.contains(w) && exact.contains(w), "case {case}");
        }
        // The fast bound contains the exact one (up to the padding).
        let pad = 1e-9 * (1.0 + pose.translation().abs().max_element());
        assert!(fast.padded(pad).contains(exact.min) && fast.padded(pad).contains(exact.max));
    }
    // Analytic: unit cube rotated 45° about z: half extent √2 in x and y, 1 in z.
    let cube = Aabb {
        min: DVec3::splat(-1.0),
        max: DVec3::splat(1.0),
    };
    let pose = Pose3::new(
        DVec3::ZERO,
        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4),
    )
    .unwrap();
    let t = cube.transformed(&pose);
    assert!(
        (t.max.x - 2f64.sqrt()).abs() < 1e-12 && (t.max.z - 1.0).abs() < 1e-12,
        "{t:?}"
    );
    // 2D works too.
    let sq = [DVec2::new(-1.0, -1.0), DVec2::new(1.0, 1.0)];
    let b2 = Aabb::from_points(&sq).unwrap();
    let p2 = Pose2::from_angle([5.0, 0.0], std::f64::consts::FRAC_PI_4).unwrap();
    let t2 = b2.transformed(&p2);
    assert!((t2.max.x - 5.0 - 2f64.sqrt()).abs() < 1e-12, "{t2:?}");
    // Touching boxes overlap.
    let a = Aabb {
        min: DVec3::ZERO,
        max: DVec3::ONE,
    };
    let b = Aabb {
        min: DVec3::new(1.0, 0.0, 0.0),
        max: DVec3::new(2.0, 1.0, 1.0),
    };
    assert!(a.intersects(&b));
}

fn random_boxes(r: &mut impl Rng, n: usize, world: f64, size: f64) -> Vec<Aabb<DVec3>> {
    (0..n)
        .map(|_| {
            let c = rand3(r, world);
            let h = DVec3::new(
                r.gen_range(0.0..size),
                r.gen_range(0.0..size),
                r.gen_range(0.0..size),
            );
            Aabb {
                min: c - h,
                max: c + h,
            }
        })
        .collect()
}

#[test]
fn sweep_candidates_equal_brute_force() {
    let mut r = rng(0xB0_0005);
    for case in 0..60 {
        let n = [0, 1, 2, 5, 31, 32, 33, 100, 700][case % 9];
        let mut boxes = random_boxes(&mut r, n, 10.0, 1.0 + (case % 4) as f64);
        // Exact touching on a grid, duplicates.
        if n > 4 {
            boxes[1] = Aabb {
                min: boxes[0].max,
                max: boxes[0].max + DVec3::ONE,
            };
            boxes[2] = boxes[3];
        }
        assert_eq!(
            candidate_pairs(&boxes),
            brute_force_pairs(&boxes),
            "case {case}"
        );
    }
    // 2D and spheres.
    let boxes2: Vec<Aabb<DVec2>> = (0..300)
        .map(|_| {
            let c = rand2(&mut r, 20.0);
            Aabb {
                min: c,
                max: c + DVec2::new(r.gen_range(0.0..2.0), r.gen_range(0.0..2.0)),
            }
        })
        .collect();
    assert_eq!(candidate_pairs(&boxes2), brute_force_pairs(&boxes2));
    let spheres: Vec<BoundingSphere<DVec3>> = (0..400)
        .map(|_| BoundingSphere {
            center: rand3(&mut r, 10.0),
            radius: r.gen_range(0.0..1.5),
        })
        .collect();
    let mut brute = Vec::new();
    for i in 0..spheres.len() {
        for j in i + 1..spheres.len() {
            if spheres[i].intersects(&spheres[j]) {
                brute.push((i, j));
            }
        }
    }
    assert_eq!(sphere_candidate_pairs(&spheres), brute);
}

#[test]
fn sweep_large_n_is_fast_and_exact() {
    let mut r = rng(0xB0_0006);
    let boxes = random_boxes(&mut r, 10_000, 50.0, 2.0);
    assert!(boxes.len() == 10_000);
    let t = std::time::Instant::now();
    let sweep = candidate_pairs(&boxes);
    let t_sweep = t.elapsed();
    let brute = brute_force_pairs(&boxes);
    assert_eq!(sweep, brute);
    assert!(sweep.len() > 1000, "{}", sweep.len());
    eprintln!("n = 10000: {} pairs, sweep {:?}", sweep.len(), t_sweep);
}
