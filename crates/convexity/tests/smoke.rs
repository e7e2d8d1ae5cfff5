use convexity::gjk::{distance, intersects, Options};
use convexity::*;

#[test]
fn smoke() {
    let a = Points::new(&[DVec3::new(0., 1., 0.), DVec3::X, DVec3::Z, DVec3::ZERO]).unwrap();
    let b1 = Points::new(&[
        DVec3::X,
        DVec3::new(2., -2., 0.),
        DVec3::new(0., -2., 2.),
        DVec3::new(0., -2., 0.),
    ])
    .unwrap();
    let b2 = Points::new(&[
        DVec3::new(1., -1., 0.),
        DVec3::new(2., -2., 0.),
        DVec3::new(0., -2., 2.),
        DVec3::new(0., -2., 0.),
    ])
    .unwrap();
    let id = Pose3::IDENTITY;
    let o = Options::default();
    let r1 = distance(&a, &id, &b1, &id, &o, None);
    println!("{r1:?}");
    let r2 = distance(&a, &id, &b2, &id, &o, None);
    println!("{r2:?}");
    let s = Ball::<DVec3>::new(1.0).unwrap();
    let p = Pose3::from_translation(DVec3::new(3.0, 0.0, 0.0)).unwrap();
    let r3 = distance(&s, &id, &s, &p, &o, None);
    println!("{r3:?}");
    let c = Cuboid::new(DVec3::ONE).unwrap();
    let r4 = intersects(
        &c,
        &id,
        &c,
        &Pose3::from_translation(DVec3::new(1.5, 0.3, 0.1)).unwrap(),
        &o,
        None,
    );
    println!("{r4:?}");
    println!("{:?}", verify(&a, &id, &b2, &id, &r2.verdict, 1e-9));
    println!("{:?}", verify(&a, &id, &b1, &id, &r1.verdict, 1e-9));
    println!(
        "{:?}",
        verify(
            &c,
            &id,
            &c,
            &Pose3::from_translation(DVec3::new(1.5, 0.3, 0.1)).unwrap(),
            &r4.verdict,
            1e-9
        )
    );
}
