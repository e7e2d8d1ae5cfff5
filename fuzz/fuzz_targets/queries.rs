//! Fuzz target: arbitrary (finite or not) points, radii and poses through every 3D query.
//!
//! Properties checked: constructors never panic on any input; queries on valid shapes never
//! panic, never return NaN, report a unit normal, and every proved verdict's certificate
//! verifies. Every exact method of `query::Method` (V-Clip, SAT, the boundary test, LP,
//! Seidel, ...) runs on the point-set pairs too: no panic, no NaN, certificates verify, and
//! the verdict agrees with GJK's outside the touching band. A big set made of both sets'
//! points runs with and without the support index (`Points::with_hull_index`).
#![no_main]

use convexity::gjk::certificate::tolerance_for;
use convexity::gjk::{distance, intersects, Options};
use convexity::query::{self, Method};
use convexity::shape::Polytope;
use convexity::{gjk::epa, verify, Ball, DQuat, DVec3, Points, Pose3, Rounded, SupportMap};
use libfuzzer_sys::fuzz_target;

fn f64s(data: &[u8]) -> Vec<f64> {
    data.chunks_exact(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            // Map to a bounded range most of the time so that geometry is exercised, but keep the
            // raw bits (NaN, inf, huge) when the top byte says so.
            let raw = f64::from_le_bytes(b);
            if c[7] & 0x80 != 0 && c[0] == 0xff {
                raw
            } else {
                (u64::from_le_bytes(b) % 2_000_001) as f64 / 1000.0 - 1000.0
            }
        })
        .collect()
}

fn check(a: &dyn SupportMap<DVec3>, pa: &Pose3, b: &dyn SupportMap<DVec3>, pb: &Pose3) {
    let o = Options::default();
    let d = distance(a, pa, b, pb, &o, None);
    assert!(d.distance.is_finite() && d.distance >= 0.0, "{d:?}");
    assert!((d.normal.length() - 1.0).abs() < 1e-6, "{d:?}");
    let tol = tolerance_for(a, pa, b, pb);
    if d.intersecting().is_some() {
        let v = verify(a, pa, b, pb, &d.verdict, tol);
        assert!(v.is_ok(), "{v:?} tol {tol} {d:?}");
    }
    let i = intersects(a, pa, b, pb, &o, None);
    if let (Some(x), Some(y)) = (i.intersecting(), d.intersecting()) {
        // Both proved answers must agree unless the pair sits inside the tolerance band.
        if x != y {
            assert!(d.distance <= 4.0 * d.tolerance, "{d:?} {i:?}");
        }
    }
    let mut ctx = epa::Context::new();
    let p = epa::penetration(a, pa, b, pb, &epa::Options::default(), &mut ctx);
    assert!(p.depth.is_finite(), "{p:?}");
    assert!((p.normal.length() - 1.0).abs() < 1e-6, "{p:?}");
}

/// Every exact method on a pair of point sets.
fn check_methods<A: Polytope<DVec3>, B: Polytope<DVec3>>(a: &A, pa: &Pose3, b: &B, pb: &Pose3) {
    let g = distance(a, pa, b, pb, &Options::default(), None);
    let tol = tolerance_for(a, pa, b, pb);
    for &m in Method::ALL {
        if m.is_approximate() {
            continue;
        }
        let Ok(o) = query::run(m, a, pa, b, pb) else {
            continue;
        };
        if let Some(d) = o.distance {
            assert!(d.is_finite() && d >= 0.0, "{m:?} {o:?}");
        }
        if let Some(x) = o.verdict.intersecting() {
            let v = verify(a, pa, b, pb, &o.verdict, tol.max(4.0 * o.tolerance));
            assert!(v.is_ok(), "{m:?}: {v:?} tol {tol} {o:?}");
            if let Some(y) = g.intersecting() {
                if x != y {
                    let band = 4.0 * (g.tolerance + o.tolerance) + tol;
                    assert!(g.distance <= band, "{m:?} says {x}, GJK {y}: {g:?} {o:?}");
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let v = f64s(data);
    if v.len() < 16 {
        return;
    }
    let (head, rest) = v.split_at(14);
    let q1 = DQuat::from_xyzw(head[0], head[1], head[2], head[3]);
    let q2 = DQuat::from_xyzw(head[4], head[5], head[6], head[7]);
    let t1 = DVec3::new(head[8], head[9], head[10]);
    let t2 = DVec3::new(head[11], head[12], head[13]);
    // Normalised quaternions usually pass validation; raw ones exercise the error path.
    let unit = |q: DQuat| {
        let n = q.length();
        if n > 1e-3 && n.is_finite() {
            q / n
        } else {
            q
        }
    };
    let pa = Pose3::new(t1, unit(q1)).ok();
    let pb = Pose3::new(t2, unit(q2)).ok();
    let _ = Pose3::new(t1, q1);
    let split = rest.len() / 2;
    let pts = |s: &[f64]| -> Vec<DVec3> {
        s.chunks_exact(3)
            .map(|c| DVec3::new(c[0], c[1], c[2]))
            .collect()
    };
    let a = Points::new(&pts(&rest[..split]));
    let b = Points::new(&pts(&rest[split..]));
    let r = Ball::<DVec3>::new(head[0].abs() / 100.0);
    if let (Ok(a), Ok(b), Some(pa), Some(pb)) = (a, b, pa, pb) {
        check_scans(&a, &b, &head);
        check(&a, &pa, &b, &pb);
        if a.len() <= 24 && b.len() <= 24 {
            check_methods(&a, &pa, &b, &pb);
        }
        if let Ok(rounded) = Rounded::new(b.clone(), head[1].abs() / 100.0) {
            check(&a, &pa, &rounded, &pb);
        }
        if let Ok(ball) = r {
            check(&ball, &pa, &b, &pb);
        }
        check_index(&a, &pa, &b, &pb);
    }
});

/// The scan a set's support uses (SSE2 up to 8 points, AVX2 from 9 on, padded chunks) picks
/// the first maximiser of the plain loop, exactly, along directions made of the header's
/// numbers and of each set's points (ties on the fuzzer's grid), wherever every product is
/// finite.
fn check_scans(a: &Points<DVec3>, b: &Points<DVec3>, head: &[f64]) {
    let mut dirs = vec![DVec3::X, -DVec3::Z, DVec3::ONE];
    dirs.extend(head.chunks_exact(3).map(|c| DVec3::new(c[0], c[1], c[2])));
    dirs.extend(a.points().iter().chain(b.points()).take(6).copied());
    for s in [a, b] {
        for &d in &dirs {
            if s.points().iter().all(|p| p.dot(d).is_finite()) {
                assert_eq!(s.support_index_any(d), s.support_index_aos(d), "{d:?}");
            }
        }
    }
}

/// The support index (`Points::with_hull_index`, sets of more than 64 points) on one big set:
/// every point of both sets, their halves and the midpoints of consecutive ones (coplanar and
/// tied points galore on the fuzzer's grid). It answers every query (`check`), and its distance
/// is the plain set's to within the tolerance.
fn check_index(a: &Points<DVec3>, pa: &Pose3, b: &Points<DVec3>, pb: &Pose3) {
    let mut all: Vec<DVec3> = a.points().iter().chain(b.points()).copied().collect();
    let n = all.len();
    for i in 0..n {
        all.push(all[i] * 0.5);
        all.push((all[i] + all[(i + 1) % n]) * 0.5);
    }
    if all.len() <= 64 {
        return;
    }
    let Ok(big) = Points::new(&all) else {
        return;
    };
    let idx = big.clone().with_hull_index();
    assert!(idx.hull_index_vertices().is_some_and(|v| v <= all.len()));
    check(&idx, pa, b, pb);
    let o = Options::default();
    let plain = distance(&big, pa, b, pb, &o, None);
    let got = distance(&idx, pa, b, pb, &o, None);
    let band = 4.0 * plain.tolerance.max(got.tolerance);
    assert!(
        (plain.distance - got.distance).abs() <= band,
        "{plain:?} vs {got:?}"
    );
    if let (Some(x), Some(y)) = (plain.intersecting(), got.intersecting()) {
        assert!(x == y || plain.distance <= band, "{plain:?} vs {got:?}");
    }
}
