//! The n-D section's random-cloud checks: LP intersection against n-D GJK in d = 5 and 20,
//! and the L1-distance LP's bracket d₂ ∈ [d₁/√n, d₁] against GJK's exact d₂ (on the random
//! pairs and on shifted unit cubes whose distances are known exactly).

use super::*;

/// A random pair: two clouds in [−1, 1)^dim, B shifted by `shift` along a random unit vector.
fn random_pair(rng: &mut Rng, dim: usize, shift: f64) -> Option<(PointsN, PointsN)> {
    let a = cloud(rng, 30, dim, |r| r.range(-1.0, 1.0));
    let mut u: Vec<f64> = (0..dim).map(|_| rng.range(-1.0, 1.0)).collect();
    let len = dot(&u, &u).sqrt().max(1e-12);
    u.iter_mut().for_each(|x| *x /= len);
    let b: Vec<Vec<f64>> = cloud(rng, 30, dim, |r| r.range(-1.0, 1.0))
        .into_iter()
        .map(|p| p.iter().zip(&u).map(|(x, d)| x + shift * d).collect())
        .collect();
    Some((PointsN::from_rows(&a).ok()?, PointsN::from_rows(&b).ok()?))
}

/// LP intersection against n-D GJK on random pairs; returns the pairs for the L1 rows.
pub(super) fn lp_against_gjk(s: &mut Section) -> Vec<(String, PointsN, PointsN)> {
    s.line("  LP intersection against n-D GJK on random clouds (30 + 30 points):".into());
    let mut rng = Rng::new(0x1b);
    let mut pairs = Vec::new();
    for dim in [5usize, 20] {
        let scale = (dim as f64).sqrt();
        for shift in [0.0, 0.5, 1.0, 2.0] {
            let Some((a, b)) = random_pair(&mut rng, dim, shift * scale) else {
                s.error("random pair", "could not build the clouds");
                continue;
            };
            let label = format!("d={dim} shift {:.1}", shift * scale);
            let (Ok(g), Ok(l)) = (
                distance_n(&a, &b, &NdOptions::default()),
                lp::intersect(&a, &b, &LpOptions::default()),
            ) else {
                s.error(&label, "input error");
                continue;
            };
            let (gc, _) = verify_text(&g.verdict, &a, &b, g.tolerance);
            let (lc, _) = verify_text(&l.verdict, &a, &b, l.tolerance);
            // Inside the touching band either verdict is right if its certificate checks.
            let band = g.distance <= g.tolerance.max(l.tolerance) * 2.0;
            let agree = g.intersecting().is_some()
                && l.intersecting().is_some()
                && (band || g.intersecting() == l.intersecting());
            s.check(
                &label,
                format!(
                    "GJK {} (distance {:.4}), LP {} ({} pivots); certificates {}",
                    word(g.intersecting()),
                    g.distance,
                    word(l.intersecting()),
                    l.iterations,
                    if gc && lc { "ok" } else { "REJECTED" }
                ),
                agree && gc && lc,
            );
            pairs.push((label, a, b));
        }
    }
    pairs
}

/// The unit cube in `dim` dimensions shifted by `shift`.
fn cube(dim: usize, shift: &[f64]) -> Option<PointsN> {
    let rows: Vec<Vec<f64>> = (0..1usize << dim)
        .map(|m| (0..dim).map(|k| ((m >> k) & 1) as f64 + shift[k]).collect())
        .collect();
    PointsN::from_rows(&rows).ok()
}

/// A labelled pair with its exact `(d1, d2)` when known by construction.
type L1Case = (String, PointsN, PointsN, Option<(f64, f64)>);

pub(super) fn l1_bracket(s: &mut Section, random: &[(String, PointsN, PointsN)]) {
    const DIM: usize = 5;
    s.line("  L1-distance LP: d1 and the bracket d2 in [d1/√n, d1] against GJK's exact d2:".into());
    let mut cases: Vec<L1Case> = Vec::new();
    let zero = [0.0; DIM];
    let along = {
        let mut v = [0.0; DIM];
        v[0] = 3.0;
        v
    };
    let diagonal = [3.0; DIM];
    for (name, shift, exact) in [
        ("cubes, shift 3·e0", along, (2.0, 2.0)),
        (
            "cubes, shift 3·(1,…,1)",
            diagonal,
            (2.0 * DIM as f64, 2.0 * (DIM as f64).sqrt()),
        ),
    ] {
        if let (Some(a), Some(b)) = (cube(DIM, &zero), cube(DIM, &shift)) {
            cases.push((name.to_string(), a, b, Some(exact)));
        }
    }
    for (label, a, b) in random {
        cases.push((label.clone(), a.clone(), b.clone(), None));
    }
    for (label, a, b, exact) in &cases {
        let (Ok(l1), Ok(g)) = (
            lp::l1_distance(a, b, &LpOptions::default()),
            distance_n(a, b, &NdOptions::default()),
        ) else {
            s.error(label, "input error");
            continue;
        };
        let n = a.dim() as f64;
        let tol = g.tolerance.max(l1.tolerance) * 4.0;
        let d2 = g.distance;
        let in_bracket = l1.d1 / n.sqrt() - tol <= d2 && d2 <= l1.d1 + tol;
        let in_lp_bounds = l1.d2_lower - tol <= d2 && d2 <= l1.d2_upper + tol;
        let (exact_ok, exact_text) = match exact {
            Some((d1, e2)) => (
                (l1.d1 - d1).abs() <= 1e-9 && (d2 - e2).abs() <= 1e-9,
                format!(" (exact d1 {d1}, d2 {e2:.6})"),
            ),
            None => (true, String::new()),
        };
        s.check(
            label,
            format!(
                "d1 {:.6}, d2 in [{:.6}, {:.6}], GJK d2 {:.6}{exact_text}; the LP's own d2 bounds [{:.6}, {:.6}]",
                l1.d1,
                l1.d1 / n.sqrt(),
                l1.d1,
                d2,
                l1.d2_lower,
                l1.d2_upper
            ),
            in_bracket && in_lp_bounds && exact_ok && l1.status == convexity::Status::Converged,
        );
    }
}
