//! The 2D section's time-of-impact cases: linear and angular motion with known answers, and
//! the quartic vertex–edge TOI under constant acceleration against dense sampling of the
//! vertex's side of the moving edge.

use super::*;

/// Sign of the vertex against the moving edge's line at time `t` (the cross product, in f64).
fn side(vx: &Kinematic2, ea: &Kinematic2, eb: &Kinematic2, t: f64) -> f64 {
    (eb.at(t) - ea.at(t)).perp_dot(vx.at(t) - ea.at(t))
}

pub(super) fn time_of_impact(r: &mut Report) {
    let _ = writeln!(r.text, "\ntime of impact:");
    // Grazing: a box sliding along the top face of another, first touching at t = 0.3.
    let boxed = |hx: f64, hy: f64| ConvexPolygon::new(&rect(-hx, -hy, hx, hy)).map(Shape2::Polygon);
    if let (Ok(a), Ok(b)) = (boxed(1.0, 1.0), boxed(1.0, 1.0)) {
        let pa = Pose2::IDENTITY;
        let pb = Pose2::from_angle([-5.0, 2.0], 0.0).unwrap_or(Pose2::IDENTITY);
        let t = swept_toi(
            &a,
            &pa,
            DVec2::ZERO,
            &b,
            &pb,
            v(10.0, 0.0),
            1.0,
            &SweptOptions::default(),
        );
        let got = t.as_ref().ok().and_then(|t| t.toi());
        r.check(
            "grazing slide along a face (swept ray cast)",
            got.is_some_and(|x| (x - 0.3).abs() <= 1e-9),
            format!("toi {} (expected 0.3)", opt(got)),
        );
    }
    // Grazing vertex: y(t) = (1 - t)², a double root at t = 1 on the edge [-1, 1] × {0}.
    let ea = Kinematic2::new(v(-1.0, 0.0), DVec2::ZERO);
    let eb = Kinematic2::new(v(1.0, 0.0), DVec2::ZERO);
    let vx = Kinematic2::with_acceleration(v(0.0, 1.0), v(0.0, -2.0), v(0.0, 2.0));
    let t = vertex_edge_toi(&vx, &ea, &eb, 2.0)
        .ok()
        .and_then(|t| t.toi());
    r.check(
        "grazing vertex (double root) on an edge",
        t.is_some_and(|x| (x - 1.0).abs() <= 1e-6),
        format!("toi {} (expected 1, a tangential touch)", opt(t)),
    );
    // A genuine quartic: both edge ends and the vertex accelerate in different directions.
    let ea = Kinematic2::with_acceleration(v(-1.0, -0.2), v(0.0, 0.3), v(0.5, 1.0));
    let eb = Kinematic2::with_acceleration(v(1.0, -0.4), v(-0.2, 0.0), v(-0.3, 2.0));
    let vx = Kinematic2::with_acceleration(v(0.1, 1.0), v(0.0, -0.5), v(0.2, -1.5));
    let h = 1.5;
    let got = vertex_edge_toi(&vx, &ea, &eb, h);
    // Reference: the first sign change of the side function on a fine grid, refined by
    // bisection, with the vertex within the edge there.
    let mut reference = None;
    let n = 20_000;
    let s0 = side(&vx, &ea, &eb, 0.0);
    for i in 1..=n {
        let (t0, t1) = (h * (i - 1) as f64 / n as f64, h * i as f64 / n as f64);
        if side(&vx, &ea, &eb, t1).signum() != s0.signum() {
            let (mut lo, mut hi) = (t0, t1);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if side(&vx, &ea, &eb, mid).signum() == s0.signum() {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let e = eb.at(lo) - ea.at(lo);
            let u = (vx.at(lo) - ea.at(lo)).dot(e) / e.length_squared();
            if (0.0..=1.0).contains(&u) {
                reference = Some(lo);
                break;
            }
        }
    }
    let got_t = got.as_ref().ok().and_then(|t| t.toi());
    r.check(
        "quartic vertex-edge TOI vs dense sampling",
        matches!((got_t, reference), (Some(g), Some(x)) if (g - x).abs() <= 1e-6),
        format!("toi {}, sampled {}", opt(got_t), opt(reference)),
    );
    // A falling triangle on the ground under gravity, through the CLI's polygon path: the
    // lowest vertices reach y = 0 when 2 − 2t² = 0.
    let ground = ConvexPolygon::new(&rect(-5.0, -1.0, 5.0, 0.0)).map(Shape2::Polygon);
    let tri = ConvexPolygon::new(&[v(-0.5, 0.0), v(0.5, 0.0), v(0.0, 1.0)]).map(Shape2::Polygon);
    if let (Ok(g), Ok(tr)) = (ground, tri) {
        let pose_t = Pose2::from_angle([0.0, 2.0], 0.0).unwrap_or(Pose2::IDENTITY);
        let ans = toi2(
            &Body2 {
                shape: &g,
                pose: Pose2::IDENTITY,
                velocity: DVec2::ZERO,
                angular_velocity: 0.0,
                acceleration: DVec2::ZERO,
            },
            &Body2 {
                shape: &tr,
                pose: pose_t,
                velocity: DVec2::ZERO,
                angular_velocity: 0.0,
                acceleration: v(0.0, -4.0),
            },
            2.0,
        );
        let (method, t, normal) = match &ans {
            Ok(a) => match a.toi {
                TimeOfImpact::Hit { toi, normal, .. } => (a.method.name(), Some(toi), Some(normal)),
                _ => (a.method.name(), None, None),
            },
            Err(_) => ("error", None, None),
        };
        r.check(
            "falling triangle under gravity (quartic path)",
            method == "vertex_edge_quartic"
                && t.is_some_and(|x| (x - 1.0).abs() <= 1e-9)
                && normal.is_some_and(|n| (n - v(0.0, 1.0)).length() <= 1e-9),
            format!(
                "{method}: toi {}, normal {} (expected 1, (0, 1))",
                opt(t),
                normal.map_or("none".to_string(), |n| format!("({}, {})", n.x, n.y))
            ),
        );
    }
}

/// An optional number for the report: the number, or `none`.
fn opt(x: Option<f64>) -> String {
    x.map_or("none".to_string(), |x| x.to_string())
}
