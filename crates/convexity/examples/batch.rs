//! A batch of pairs: one shape against many poses, every answer's certificate checked.
//!
//! This is a plain loop over `query::run`. A dedicated batch API (`convexity::batch`, with
//! shared warm-start state) is being written; when it lands, this example should use it.
//!
//! Run: `cargo run -p convexity --example batch`.

use convexity::query::{self, Method};
use convexity::{verify, Cuboid, DQuat, DVec3, Pose3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = Cuboid::new(DVec3::splat(1.0))?;
    let b = Cuboid::new(DVec3::new(0.5, 0.25, 0.75))?;
    let pose_a = Pose3::IDENTITY;
    let (mut hits, mut checked) = (0, 0);
    let n = 2_000;
    for i in 0..n {
        // A deterministic spiral of poses from overlapping to far apart.
        let t = i as f64 / n as f64;
        let angle = 40.0 * t;
        let r = 4.0 * t;
        let pose_b = Pose3::new(
            DVec3::new(r * angle.cos(), r * angle.sin(), 0.5 * (3.0 * angle).sin()),
            DQuat::from_euler(glam::EulerRot::XYZ, angle, 0.5 * angle, 0.25 * angle),
        )?;
        let o = query::run(Method::Gjk, &a, &pose_a, &b, &pose_b)?;
        verify(&a, &pose_a, &b, &pose_b, &o.verdict, o.tolerance)?;
        checked += 1;
        hits += usize::from(o.verdict.intersecting() == Some(true));
    }
    println!("{checked} pairs answered and verified; {hits} intersecting");
    assert_eq!(checked, n);
    assert!(hits > 0 && hits < n);
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
