//! The rollback loop simulators run: step the bodies, detect the overlap, find the time of
//! impact, roll back to it, and report it.
//!
//! A spinning box falls onto a static floor under gravity. Each step integrates with the
//! velocities at the start of the step (constant over the step, so conservative advancement
//! is exact about the motion it assumes), then:
//! 1. SAT (`sat2d::sat`) on the new poses detects the overlap and its depth;
//! 2. conservative advancement (`toi::conservative_advancement`) from the start-of-step poses
//!    finds the first contact time, normal and points;
//! 3. the box is rolled back to the time of impact, the contact is classified
//!    (`contact2d::classify`) just after it, and the normal velocity is reflected (restitution
//!    0.5) before the rest of the step is simulated.
//!
//! For the lowest vertex, the quartic vertex–edge TOI under constant acceleration
//! (`toi::vertex_edge_toi`) is printed next to it: the two differ by the gravity term the
//! step's constant-velocity model leaves out.
//!
//! Run: `cargo run -p convexity --example rollback`.

use convexity::polytope::contact2d::classify;
use convexity::polytope::sat2d::sat;
use convexity::toi::{
    conservative_advancement, vertex_edge_toi, AdvancementOptions, Kinematic2, Motion, TimeOfImpact,
};
use convexity::{ConvexPolygon, DVec2, Pose2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let floor = ConvexPolygon::new(&[
        DVec2::new(-10.0, -1.0),
        DVec2::new(10.0, -1.0),
        DVec2::new(10.0, 0.0),
        DVec2::new(-10.0, 0.0),
    ])?;
    let floor_pose = Pose2::IDENTITY;
    let still = Motion::translating(floor_pose, DVec2::ZERO);
    let half = DVec2::new(0.5, 0.25);
    let boxv = ConvexPolygon::new(&[
        DVec2::new(-half.x, -half.y),
        DVec2::new(half.x, -half.y),
        DVec2::new(half.x, half.y),
        DVec2::new(-half.x, half.y),
    ])?;
    let gravity = DVec2::new(0.0, -9.81);
    let h = 1.0 / 30.0;
    let mut pose = Pose2::from_angle([0.0, 2.0], 0.3)?;
    let mut vel = DVec2::new(0.4, 0.0);
    let mut spin = 2.0;
    let mut time = 0.0;
    let opts = AdvancementOptions::default();
    let mut impacts = 0;
    for step in 0..120 {
        let start = Motion::new(pose, vel, spin);
        let end = start.pose_at(h)?;
        let detect = sat(&floor, &floor_pose, &boxv, &end, None);
        if detect.verdict.intersecting() != Some(true) {
            pose = end;
            vel += gravity * h;
            time += h;
            continue;
        }
        let toi = conservative_advancement(&floor, &still, &boxv, &start, h, &opts)?;
        match toi {
            TimeOfImpact::Hit {
                toi,
                normal,
                points,
            } => {
                impacts += 1;
                let contact_pose = start.pose_at(toi)?;
                // The contact just after the impact (a small step into the overlap) shows its
                // kind; at the impact itself the polygons only touch.
                let after = start.pose_at((toi + 0.1 * (h - toi)).min(h))?;
                let class = classify(&boxv, &after, &floor, &floor_pose);
                println!(
                    "step {step:3}: overlap {:.3e} detected at t = {:.5}; rolled back to \
                     t = {:.6} (Δt = {toi:.6}), normal ({:+.4}, {:+.4}), contact ({:+.4}, {:+.4}), \
                     {:?} with {} point(s)",
                    detect.depth(),
                    time + h,
                    time + toi,
                    normal.x,
                    normal.y,
                    points[1].x,
                    points[1].y,
                    class.kind,
                    class.points.len(),
                );
                // The lowest vertex under constant acceleration: the quartic TOI.
                let lowest = boxv
                    .vertices()
                    .iter()
                    .map(|v| pose.transform_point(*v))
                    .fold(DVec2::new(0.0, f64::INFINITY), |m, p| {
                        if p.y < m.y {
                            p
                        } else {
                            m
                        }
                    });
                let r = lowest - pose.translation();
                let v_point = vel + DVec2::new(-r.y, r.x) * spin;
                let k = Kinematic2::with_acceleration(lowest, v_point, gravity);
                let ground = (
                    Kinematic2::new(DVec2::new(-10.0, 0.0), DVec2::ZERO),
                    Kinematic2::new(DVec2::new(10.0, 0.0), DVec2::ZERO),
                );
                let quartic = vertex_edge_toi(&k, &ground.1, &ground.0, h)?;
                println!(
                    "          lowest vertex under gravity (quartic, no spin curvature): {}",
                    match quartic.toi() {
                        Some(t) => format!("Δt = {t:.6}"),
                        None => quartic.status().to_string(),
                    }
                );
                // Roll back, respond, and carry on with the rest of the step.
                pose = contact_pose;
                time += toi;
                let vn = vel.dot(normal);
                if vn < 0.0 {
                    vel -= normal * (1.5 * vn);
                }
                spin *= 0.5;
                vel += gravity * toi;
                if vel.length() < 0.05 {
                    println!("          at rest");
                    break;
                }
            }
            TimeOfImpact::InitiallyOverlapping => {
                // Touching at the start of the step and still pressing in: a resting contact,
                // which needs a contact solver rather than a time of impact. Stop here.
                println!(
                    "step {step:3}: touching at the start of the step (t = {time:.5}): resting \
                     contact, stopping"
                );
                break;
            }
            other => {
                println!("step {step:3}: {}", other.status());
                pose = end;
                time += h;
            }
        }
    }
    println!(
        "{impacts} impacts, final height {:.4}",
        pose.translation().y
    );
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
