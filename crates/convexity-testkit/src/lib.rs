//! # convexity-testkit
//!
//! Seeded generators and independent oracles for testing `convexity` (and for benchmarks and
//! later algorithm tests). The oracles never call the library's GJK, EPA or simplex code:
//! they are written from scratch so that comparing against them is a real check.
//!
//! * [`rng`](mod@rng): the seeded random generator every generator uses (ChaCha8).
//! * [`gen3`]: 3D point sets (sphere, box, ellipsoid, perturbed), boxes, unit quaternions
//!   uniform on SO(3), rigid poses.
//! * [`gen2`]: the 2D counterparts (circle point sets, convex polygons, angles, poses).
//! * [`placement`]: puts shape B at an exactly known distance from shape A (far, near
//!   touching, touching, deep).
//! * [`degenerate`]: single points, pairs, collinear, coplanar, duplicated and all-equal sets.
//! * [`hull_oracle`]: exact distance between two point hulls in any dimension: a second-order
//!   cone program solved with clarabel, then polished and certified by a duality check.
//! * [`analytic`]: closed-form distances (spheres, boxes, segments, capsules, cylinders,
//!   cones, polygons).
//! * [`predicates`]: exact orientation predicates (Shewchuk's, via `robust`) and exact sums.
//! * [`harness`]: runs convexity's GJK on a pair and checks every output against the
//!   oracles (the one module that calls the library under test).
//! * [`strategies`]: proptest strategies built on the seeded generators.
//!
//! Conventions follow `convexity`: f64 throughout, closed sets, normals from A toward B.
//!
//! ```
//! use convexity::{DVec3, Points, Pose3};
//! use convexity_testkit::gen3::{box_corners3, random_hull3, random_pose3, random_quat};
//! use convexity_testkit::{check_gjk_pair, hull_distance3, place_at_distance, rng, world_points};
//!
//! // Two unit cubes 0.5 apart along x: the oracle agrees with the closed form.
//! let a = box_corners3(DVec3::splat(0.5));
//! let b: Vec<DVec3> = a.iter().map(|p| *p + DVec3::new(1.5, 0.25, 0.0)).collect();
//! let o = hull_distance3(&a, &b).unwrap();
//! assert!(o.verified && (o.distance - 0.5).abs() < 1e-15);
//!
//! // A random pair placed exactly 0.25 apart, then GJK checked against the oracle.
//! let mut r = rng(7);
//! let ha = Points::new(&random_hull3(&mut r, 4..=32, 0.5..=1.5)).unwrap();
//! let hb = Points::new(&random_hull3(&mut r, 4..=32, 0.5..=1.5)).unwrap();
//! let pose_a = random_pose3(&mut r, 10.0);
//! let pl = place_at_distance(&ha, &pose_a, &hb, random_quat(&mut r), DVec3::Z, 0.25);
//! let o = hull_distance3(&world_points(&ha, &pose_a), &world_points(&hb, &pl.pose_b)).unwrap();
//! assert!((o.distance - 0.25).abs() < 1e-12);
//! let report = check_gjk_pair(&ha, &pose_a, &hb, &pl.pose_b, &Default::default()).unwrap();
//! assert_eq!(report.intersecting, Some(false));
//! # let _ = Pose3::IDENTITY;
//! ```

pub mod analytic;
pub mod degenerate;
pub mod gen2;
pub mod gen3;
pub mod gen_nd;
pub mod harness;
pub mod hull_oracle;
mod linalg;
pub mod lp_oracle;
pub mod placement;
pub mod predicates;
pub mod rng;
pub mod strategies;

pub use harness::{check_gjk_pair, CheckOptions, CheckReport};
pub use hull_oracle::{
    hull_distance, hull_distance2, hull_distance3, hull_distance_v, hull_distance_with,
    point_hull_distance, world_points, HullDistance, OracleError, OracleOptions, Polish,
    TypedHullDistance,
};
pub use placement::{gjk_tolerance, place_at_distance, place_in_regime, Placement, Regime};
pub use rng::{rng, ChaCha8Rng};
