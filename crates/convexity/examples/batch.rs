//! A batch of pairs through `convexity::batch`: one shape table, many raw poses, answers in
//! caller-owned slices, one bad row answered with its error while every other row is answered,
//! and every certificate checked with `verify`.
//!
//! Run: `cargo run -p convexity --example batch`.

use convexity::batch::{self, BatchOptions, DistanceOut, Pair3};
use convexity::{verify, Cuboid, DQuat, DVec3, Pose3, Shape3, Status, Verdict};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shapes = [
        Shape3::Cuboid(Cuboid::new(DVec3::splat(1.0))?),
        Shape3::Cuboid(Cuboid::new(DVec3::new(0.5, 0.25, 0.75))?),
    ];
    let n = 2_000;
    // A deterministic spiral of poses for B, from overlapping to far apart; A at the origin.
    let mut pairs: Vec<Pair3> = (0..n)
        .map(|i| {
            let t = i as f64 / n as f64;
            let angle = 40.0 * t;
            let r = 4.0 * t;
            let q = DQuat::from_euler(glam::EulerRot::XYZ, angle, 0.5 * angle, 0.25 * angle);
            Pair3 {
                a: 0,
                pose_a: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                b: 1,
                pose_b: [
                    r * angle.cos(),
                    r * angle.sin(),
                    0.5 * (3.0 * angle).sin(),
                    q.x,
                    q.y,
                    q.z,
                    q.w,
                ],
            }
        })
        .collect();
    // One bad row: a quaternion of norm 0.5. It gets its own error; the others are answered.
    pairs[7].pose_b[3..7].copy_from_slice(&[0.5, 0.0, 0.0, 0.0]);

    let mut distance = vec![0.0; n];
    let (mut point_a, mut point_b, mut normal) = (
        vec![DVec3::ZERO; n],
        vec![DVec3::ZERO; n],
        vec![DVec3::ZERO; n],
    );
    let mut status = vec![Status::Converged; n];
    let mut iterations = vec![0u32; n];
    let mut verdict = vec![Verdict::Undetermined; n];
    let mut error = vec![None; n];
    let report = batch::distance(
        &shapes,
        &pairs,
        &BatchOptions::default(),
        DistanceOut {
            distance: &mut distance,
            point_a: &mut point_a,
            point_b: &mut point_b,
            normal: &mut normal,
            status: &mut status,
            iterations: &mut iterations,
            verdict: &mut verdict,
            error: &mut error,
        },
    )?;

    let (mut hits, mut checked) = (0, 0);
    for (i, p) in pairs.iter().enumerate() {
        if let Some(e) = &error[i] {
            println!("row {i}: {e}");
            continue;
        }
        let pose = |r: &[f64; 7]| {
            Pose3::new(
                DVec3::new(r[0], r[1], r[2]),
                DQuat::from_xyzw(r[3], r[4], r[5], r[6]),
            )
        };
        let (pa, pb) = (pose(&p.pose_a)?, pose(&p.pose_b)?);
        let tol = convexity::gjk::certificate::tolerance_for(&shapes[0], &pa, &shapes[1], &pb);
        verify(&shapes[0], &pa, &shapes[1], &pb, &verdict[i], tol)?;
        checked += 1;
        hits += usize::from(verdict[i].intersecting() == Some(true));
    }
    println!(
        "{checked} pairs answered and verified ({} through the SIMD lanes); {hits} intersecting; \
         {} row rejected",
        report.lane_rows, report.error_rows
    );
    assert_eq!(report.error_rows, 1);
    assert!(error[7]
        .as_ref()
        .is_some_and(|e| e.field.contains("pose_b")));
    assert_eq!(checked, n - 1);
    assert!(hits > 0 && hits < n);
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
