//! A contact manifold: a box resting (slightly sunk) on a larger box, with its four contact
//! points and their depths, as a stacking solver needs them.
//!
//! `polytope::box_box::box_box_contact` runs the separating-axis test and clips the incident
//! face against the reference face (Box2D / ODE style); the SAT answer's certificate is checked
//! with `convexity::verify`.
//!
//! Run: `cargo run -p convexity --example contact_manifold`.

use convexity::polytope::box_box::box_box_contact;
use convexity::{verify, Cuboid, DQuat, DVec3, Pose3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ground = Cuboid::new(DVec3::new(5.0, 5.0, 0.5))?;
    let crate_ = Cuboid::new(DVec3::splat(0.5))?;
    let pose_ground = Pose3::IDENTITY;
    // The crate's bottom face at z = 0.49: sunk 0.01 into the ground's top face (z = 0.5),
    // turned about the vertical.
    let pose_crate = Pose3::new(DVec3::new(0.3, -0.2, 0.99), DQuat::from_rotation_z(0.4))?;

    let (sat, manifold) = box_box_contact(&ground, &pose_ground, &crate_, &pose_crate);
    verify(
        &ground,
        &pose_ground,
        &crate_,
        &pose_crate,
        &sat.verdict,
        1e-9,
    )?;
    let m = manifold.ok_or("the boxes touch, so there is a manifold")?;
    println!("normal (ground → crate): {:?}", m.normal);
    for (i, c) in m.points().iter().enumerate() {
        println!(
            "contact {i}: on ground {:?}, on crate {:?}, depth {:.4}",
            c.point_a, c.point_b, c.depth
        );
    }
    assert_eq!(m.len(), 4, "a face resting on a face: four corners");
    assert!((m.normal - DVec3::Z).length() < 1e-9);
    assert!(m.points().iter().all(|c| (c.depth - 0.01).abs() < 1e-9));
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
