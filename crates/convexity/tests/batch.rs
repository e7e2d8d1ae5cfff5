//! The batch API (`convexity::batch`) against the scalar calls it stands for.
//!
//! Oracle: `gjk::distance`, `gjk::intersects` and `epa::penetration` called row by row on the
//! same validated poses; every certificate goes through `convexity::verify`.

use convexity::batch::{
    self, BatchOptions, DistanceOut, IntersectOut, Pair, Pair2, Pair3, PenetrationOut, Report,
};
use convexity::gjk::{self, epa};
use convexity::{
    Ball, Capsule, ConvexPolygon, Cuboid, Cylinder, DQuat, DVec2, DVec3, InputError, Points, Pose2,
    Pose3, Shape2, Shape3, Status, Verdict,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn unit(rng: &mut ChaCha8Rng) -> DVec3 {
    loop {
        let v = DVec3::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        let l = v.length();
        if l > 0.1 && l <= 1.0 {
            return v / l;
        }
    }
}

fn quat(rng: &mut ChaCha8Rng) -> DQuat {
    loop {
        let q = DQuat::from_xyzw(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        if q.length() > 0.1 {
            return q.normalize();
        }
    }
}

/// A box with half extents in [0.3, 1].
fn random_box(rng: &mut ChaCha8Rng) -> Shape3 {
    let h = DVec3::new(
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.3..1.0),
        rng.gen_range(0.3..1.0),
    );
    Shape3::Cuboid(Cuboid::new(h).unwrap())
}

fn hull(rng: &mut ChaCha8Rng, n: usize) -> Shape3 {
    let r = rng.gen_range(0.3..1.0);
    let pts: Vec<DVec3> = (0..n).map(|_| unit(rng) * r).collect();
    Shape3::Points(Points::new(&pts).unwrap())
}

/// Boxes, spheres, capsules, hulls of 8, 12 and 32 points, cylinders.
fn table(rng: &mut ChaCha8Rng) -> Vec<Shape3> {
    let mut t = Vec::new();
    for _ in 0..4 {
        t.push(random_box(rng));
        t.push(Shape3::Sphere(Ball::new(rng.gen_range(0.3..1.0)).unwrap()));
        t.push(Shape3::Capsule(
            Capsule::new(-unit(rng) * 0.5, unit(rng) * 0.5, rng.gen_range(0.1..0.5)).unwrap(),
        ));
        t.push(hull(rng, 8));
        t.push(hull(rng, 12));
        t.push(hull(rng, 32));
        t.push(Shape3::Cylinder(
            Cylinder::new(rng.gen_range(0.2..1.0), rng.gen_range(0.2..1.0)).unwrap(),
        ));
    }
    t
}

fn raw(p: &Pose3) -> [f64; 7] {
    let t = p.translation();
    let q = p.rotation();
    [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
}

fn pose(r: &[f64; 7]) -> Pose3 {
    Pose3::from_parts([r[0], r[1], r[2]], [r[3], r[4], r[5], r[6]]).unwrap()
}

/// `n` rows: a third overlapping, a third touching (moved onto contact along the scalar
/// normal), a third separated.
fn rows(rng: &mut ChaCha8Rng, shapes: &[Shape3], n: usize) -> Vec<Pair3> {
    let opts = gjk::Options::default();
    (0..n)
        .map(|i| {
            let a = rng.gen_range(0..shapes.len());
            let b = rng.gen_range(0..shapes.len());
            let pa = Pose3::new(unit(rng) * rng.gen_range(0.0..3.0), quat(rng)).unwrap();
            let r = match i % 3 {
                0 => rng.gen_range(0.0..0.8),
                _ => rng.gen_range(1.5..4.0),
            };
            let mut pb = Pose3::new(pa.translation() + unit(rng) * r, quat(rng)).unwrap();
            if i % 3 == 1 {
                let d = gjk::distance(&shapes[a], &pa, &shapes[b], &pb, &opts, None);
                if d.verdict.intersecting() == Some(false) {
                    pb = Pose3::new(pb.translation() - d.normal * d.distance, pb.rotation())
                        .unwrap();
                }
            }
            Pair {
                a,
                pose_a: raw(&pa),
                b,
                pose_b: raw(&pb),
            }
        })
        .collect()
}

/// Owned outputs of a distance batch.
struct Dist {
    d: Vec<f64>,
    pa: Vec<DVec3>,
    pb: Vec<DVec3>,
    n: Vec<DVec3>,
    s: Vec<Status>,
    it: Vec<u32>,
    v: Vec<Verdict<DVec3>>,
    e: Vec<Option<InputError>>,
}

impl Dist {
    fn new(n: usize) -> Self {
        Dist {
            d: vec![-1.0; n],
            pa: vec![DVec3::NAN; n],
            pb: vec![DVec3::NAN; n],
            n: vec![DVec3::NAN; n],
            s: vec![Status::Numerical; n],
            it: vec![u32::MAX; n],
            v: vec![Verdict::Undetermined; n],
            e: vec![None; n],
        }
    }
    fn out(&mut self) -> DistanceOut<'_, DVec3> {
        DistanceOut {
            distance: &mut self.d,
            point_a: &mut self.pa,
            point_b: &mut self.pb,
            normal: &mut self.n,
            status: &mut self.s,
            iterations: &mut self.it,
            verdict: &mut self.v,
            error: &mut self.e,
        }
    }
}

fn run_distance(shapes: &[Shape3], pairs: &[Pair3], opts: &BatchOptions) -> (Dist, Report) {
    let mut o = Dist::new(pairs.len());
    let rep = batch::distance(shapes, pairs, opts, o.out()).unwrap();
    (o, rep)
}

fn kind(v: &Verdict<DVec3>) -> Option<bool> {
    v.intersecting()
}

fn scale_of(shapes: &[Shape3], p: &Pair3) -> f64 {
    use convexity::SupportMap;
    shapes[p.a].size() + shapes[p.b].size()
}

/// The distance batch equals the scalar call row by row on 12,000 mixed rows.
#[test]
fn distance_batch_equals_scalar_calls() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 4);
    let shapes = table(&mut rng);
    let pairs = rows(&mut rng, &shapes, 12_000);
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert_eq!(rep.rows, pairs.len());
    assert_eq!(rep.error_rows, 0);
    assert!(
        rep.lane_rows > 1000,
        "lane path used on {} rows",
        rep.lane_rows
    );
    let opts = gjk::Options::default();
    let (mut worst_d, mut worst_p) = (0.0f64, 0.0f64);
    let mut counts = [0usize; 3];
    for (i, p) in pairs.iter().enumerate() {
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
        let s = gjk::distance(a, &pa, b, &pb, &opts, None);
        assert!(o.e[i].is_none());
        assert_eq!(kind(&o.v[i]), kind(&s.verdict), "row {i}: verdicts differ");
        assert_eq!(o.s[i], s.status, "row {i}: statuses differ");
        // The lane path counts its own GJK steps (it may take another number than the scalar
        // call, e.g. no early bounding-sphere exit); `scalar_rows_report_the_scalar_iterations`
        // pins the scalar rows.
        assert!(
            o.it[i] <= opts.max_iterations,
            "row {i}: {} iterations",
            o.it[i]
        );
        let scale = scale_of(&shapes, p);
        let dd = (o.d[i] - s.distance).abs() / scale.max(s.distance);
        worst_d = worst_d.max(dd);
        assert!(
            dd <= 1e-12,
            "row {i}: distance {} vs scalar {}",
            o.d[i],
            s.distance
        );
        match kind(&s.verdict) {
            Some(false) => {
                counts[0] += 1;
                let e = (o.pa[i] - s.point_a)
                    .length()
                    .max((o.pb[i] - s.point_b).length());
                worst_p = worst_p.max(e / scale);
            }
            Some(true) => counts[1] += 1,
            None => counts[2] += 1,
        }
        if o.v[i] != Verdict::Undetermined {
            convexity::verify(a, &pa, b, &pb, &o.v[i], 1e-9 * scale)
                .unwrap_or_else(|e| panic!("row {i}: certificate rejected: {e}"));
        }
    }
    assert!(counts[0] > 2000 && counts[1] > 2000, "mix {counts:?}");
    // Closest points agree with the scalar call's (both reach the same closest features).
    assert!(worst_p <= 1e-9, "witness deviation {worst_p:e}");
    eprintln!(
        "rows {} lane {} separated/intersecting/undetermined {counts:?} worst distance {worst_d:e} worst witness {worst_p:e}",
        rep.rows, rep.lane_rows
    );
}

/// Fuzz finding (`fuzz/batch`): two copies of a 16-point hull (duplicates, a near-flat corner)
/// touching at offset 1e6. The lanes enclose the origin (distance 0) where the scalar call
/// stops in the touch band at 6.3e-12 (tolerance 2.1e-9): the same verdict, distances equal to
/// within the pair's rounding floor `4ε · (|t_a| + |t_b| + reach)` = 1.8e-9, not to 1e-12 of
/// the shapes' size. Pins both the agreement and the lane path taking the row.
#[test]
fn lane_and_scalar_distances_agree_to_the_rounding_floor_at_offset_1e6() {
    use convexity::SupportMap;
    let pts: Vec<DVec3> = [
        [0.21568627450980382, 0.21568627450980382, 0.2166628519111924],
        [1.0, 1.0, 1.0],
        [0.21568627450980382, 0.21568627450980382, 0.9969481956206607],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [0.9921873807888915, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 1.0, -0.6250247959105821],
        [1.0, 1.0, 1.0],
        [-1.0, 0.9922178988326849, 1.0],
        [1.0, 1.0, 1.0],
    ]
    .iter()
    .map(|p| DVec3::from_array(*p))
    .collect();
    let s = Shape3::Points(Points::new(&pts).unwrap());
    let shapes = vec![s.clone()];
    let pa = [
        -0.4728618295567254,
        0.4745098039215687,
        992523.0792706187,
        -0.5,
        -0.5,
        -0.5,
        -0.5,
    ];
    let pb = [
        -0.7377637177731422,
        0.20960791570515197,
        992522.8143687305,
        -0.5,
        -0.5,
        -0.5,
        -0.5,
    ];
    let pairs = vec![Pair3 {
        a: 0,
        pose_a: pa,
        b: 0,
        pose_b: pb,
    }];
    let opts = BatchOptions {
        parallel: false,
        ..Default::default()
    };
    let (o, rep) = run_distance(&shapes, &pairs, &opts);
    assert_eq!(rep.lane_rows, 1);
    let (qa, qb) = (pose(&pa), pose(&pb));
    let r = gjk::distance(&s, &qa, &s, &qb, &gjk::Options::default(), None);
    assert_eq!(kind(&o.v[0]), Some(true));
    assert_eq!(kind(&r.verdict), Some(true));
    assert!(o.d[0] <= r.tolerance && r.distance <= r.tolerance);
    let floor = 4.0
        * f64::EPSILON
        * (qa.translation().length() + qb.translation().length() + 2.0 * s.bounding_radius());
    assert!(
        (o.d[0] - r.distance).abs() <= floor,
        "lanes {} vs scalar {} (floor {floor:e})",
        o.d[0],
        r.distance
    );
    convexity::verify(&s, &qa, &s, &qb, &o.v[0], r.tolerance).unwrap();
}

/// The boolean batch equals `gjk::intersects` row by row; certificates verified.
#[test]
fn intersects_batch_equals_scalar_calls() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 5);
    let shapes = table(&mut rng);
    let pairs = rows(&mut rng, &shapes, 10_000);
    let n = pairs.len();
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; n],
        vec![Verdict::Undetermined; n],
        vec![None; n],
    );
    let mut it = vec![u32::MAX; s.len()];
    let out = IntersectOut {
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::intersects(&shapes, &pairs, &BatchOptions::default(), out).unwrap();
    assert!(rep.lane_rows > 1000, "lane rows {}", rep.lane_rows);
    let opts = gjk::Options::default();
    for (i, p) in pairs.iter().enumerate() {
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
        let r = gjk::intersects(a, &pa, b, &pb, &opts, None);
        assert_eq!(kind(&v[i]), kind(&r.verdict), "row {i}");
        assert_eq!(s[i], r.status, "row {i}");
        assert!(
            it[i] <= opts.max_iterations,
            "row {i}: {} iterations",
            it[i]
        );
        if v[i] != Verdict::Undetermined {
            convexity::verify(a, &pa, b, &pb, &v[i], 1e-9 * scale_of(&shapes, p))
                .unwrap_or_else(|e| panic!("row {i}: certificate rejected: {e}"));
        }
    }
}

/// Penetration rows are the scalar call's answers, bit for bit.
#[test]
fn penetration_batch_equals_scalar_calls() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 6);
    let shapes = table(&mut rng);
    let pairs = rows(&mut rng, &shapes, 1_500);
    let n = pairs.len();
    let mut depth = vec![0.0; n];
    let (mut pa_, mut pb_, mut nr) = (
        vec![DVec3::ZERO; n],
        vec![DVec3::ZERO; n],
        vec![DVec3::ZERO; n],
    );
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; n],
        vec![Verdict::Undetermined; n],
        vec![None; n],
    );
    let mut it = vec![0u32; s.len()];
    let out = PenetrationOut {
        depth: &mut depth,
        point_a: &mut pa_,
        point_b: &mut pb_,
        normal: &mut nr,
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    batch::penetration(&shapes, &pairs, &BatchOptions::default(), out).unwrap();
    let opts = epa::EpaOptions::default();
    let mut ctx = epa::Context::new();
    for (i, p) in pairs.iter().enumerate() {
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
        let r = epa::penetration(a, &pa, b, &pb, &opts, &mut ctx);
        assert_eq!(depth[i].to_bits(), r.depth.to_bits(), "row {i}");
        assert_eq!(nr[i], r.normal, "row {i}");
        assert_eq!(pa_[i], r.point_a, "row {i}");
        assert_eq!(v[i], r.verdict, "row {i}");
        assert_eq!(s[i], r.status, "row {i}");
        assert_eq!(it[i], r.iterations, "row {i}: iteration counts differ");
        assert!(e[i].is_none());
    }
}

/// The lane path against the scalar path of the same batch (lanes off): same verdicts and
/// statuses, distances within 1e-12 relative.
#[test]
fn lane_path_equals_scalar_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 7);
    // Only lane shapes: boxes and hulls of 8, 12 and 16 points.
    let mut shapes = Vec::new();
    for _ in 0..6 {
        shapes.push(random_box(&mut rng));
        shapes.push(hull(&mut rng, 8));
        shapes.push(hull(&mut rng, 12));
        shapes.push(hull(&mut rng, 16));
    }
    let pairs = rows(&mut rng, &shapes, 6_000);
    let (lane, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    let (plain, rep0) = run_distance(
        &shapes,
        &pairs,
        &BatchOptions {
            lanes: false,
            ..BatchOptions::default()
        },
    );
    assert_eq!(rep0.lane_rows, 0);
    // Nearly every row fits the lanes; the declined ones are the touching band.
    assert!(
        rep.lane_rows * 10 >= pairs.len() * 6,
        "lane rows {} of {}",
        rep.lane_rows,
        pairs.len()
    );
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(kind(&lane.v[i]), kind(&plain.v[i]), "row {i}");
        assert_eq!(lane.s[i], plain.s[i], "row {i}");
        let scale = scale_of(&shapes, p);
        assert!(
            (lane.d[i] - plain.d[i]).abs() <= 1e-12 * scale.max(plain.d[i]),
            "row {i}: {} vs {}",
            lane.d[i],
            plain.d[i]
        );
    }
}

/// The parallel run and the single-threaded run write the same bits.
#[test]
fn parallel_and_single_thread_agree_bit_for_bit() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 8);
    let shapes = table(&mut rng);
    let pairs = rows(&mut rng, &shapes, 5_000);
    let (par, _) = run_distance(&shapes, &pairs, &BatchOptions::default());
    let (one, _) = run_distance(
        &shapes,
        &pairs,
        &BatchOptions {
            parallel: false,
            ..BatchOptions::default()
        },
    );
    for i in 0..pairs.len() {
        assert_eq!(par.d[i].to_bits(), one.d[i].to_bits(), "row {i}");
        for (x, y) in [
            (par.pa[i], one.pa[i]),
            (par.pb[i], one.pb[i]),
            (par.n[i], one.n[i]),
        ] {
            assert_eq!(
                x.to_array().map(f64::to_bits),
                y.to_array().map(f64::to_bits)
            );
        }
        assert_eq!(par.v[i], one.v[i], "row {i}");
        assert_eq!(par.s[i], one.s[i], "row {i}");
    }
}

/// A shape table of references (`&[&Shape3]`, as the CLI holds its scene's shapes) answers
/// every row with the same bits as the table of values, for the three queries.
#[test]
fn table_of_references_answers_as_the_table_of_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 21);
    let shapes = table(&mut rng);
    let refs: Vec<&Shape3> = shapes.iter().collect();
    let pairs = rows(&mut rng, &shapes, 1_500);
    let opts = BatchOptions::default();
    let (by_value, rep_v) = run_distance(&shapes, &pairs, &opts);
    let mut by_ref = Dist::new(pairs.len());
    let rep_r = batch::distance(&refs, &pairs, &opts, by_ref.out()).unwrap();
    assert_eq!(rep_v, rep_r);
    assert!(rep_v.lane_rows > 0, "the lanes ran");
    let bits = |v: DVec3| v.to_array().map(f64::to_bits);
    for i in 0..pairs.len() {
        assert_eq!(by_value.d[i].to_bits(), by_ref.d[i].to_bits(), "row {i}");
        assert_eq!(bits(by_value.pa[i]), bits(by_ref.pa[i]), "row {i}");
        assert_eq!(bits(by_value.n[i]), bits(by_ref.n[i]), "row {i}");
        assert_eq!(by_value.v[i], by_ref.v[i], "row {i}");
    }
    let n = pairs.len();
    let out = |shapes_ref: bool| {
        let (mut s, mut it, mut v, mut e) = (
            vec![Status::Numerical; n],
            vec![0u32; n],
            vec![Verdict::<DVec3>::Undetermined; n],
            vec![None; n],
        );
        let o = IntersectOut {
            status: &mut s,
            iterations: &mut it,
            verdict: &mut v,
            error: &mut e,
        };
        if shapes_ref {
            batch::intersects(&refs, &pairs, &opts, o).unwrap();
        } else {
            batch::intersects(&shapes, &pairs, &opts, o).unwrap();
        }
        (s, it, v)
    };
    assert_eq!(out(true), out(false));
}

/// The parallel path hands chunks to the caller and to pool tasks through one counter: called
/// from outside a pool and from inside pools of 1 to 3 threads (the caller then is a pool
/// thread; with one thread no helper is spawned), the rows and the report are the same bits
/// as the single-threaded run. 2,000 rows = 8 chunks, the last one short.
#[test]
fn parallel_rows_do_not_depend_on_the_pool_or_the_caller() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 28);
    let shapes = table(&mut rng);
    let mut pairs = rows(&mut rng, &shapes, 2_000 - 11);
    pairs[1_900].pose_a[0] = f64::NAN;
    let one_opts = BatchOptions {
        parallel: false,
        ..BatchOptions::default()
    };
    let (one, one_rep) = run_distance(&shapes, &pairs, &one_opts);
    assert_eq!(one_rep.error_rows, 1);
    let bits = |o: &Dist, i: usize| {
        let v = |x: DVec3| x.to_array().map(f64::to_bits);
        (o.d[i].to_bits(), v(o.pa[i]), v(o.pb[i]), v(o.n[i]), o.s[i])
    };
    let check = |label: &str, (par, rep): (Dist, Report)| {
        assert_eq!(rep, one_rep, "{label}");
        for i in 0..pairs.len() {
            assert_eq!(bits(&par, i), bits(&one, i), "{label}: row {i}");
            assert_eq!(par.v[i], one.v[i], "{label}: row {i}");
        }
    };
    check(
        "outside a pool",
        run_distance(&shapes, &pairs, &BatchOptions::default()),
    );
    for threads in 1..=3 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| run_distance(&shapes, &pairs, &BatchOptions::default()));
        check(&format!("inside a pool of {threads}"), got);
    }
}

/// Bad rows get an error naming the field; every other row is answered as the scalar call.
#[test]
fn bad_rows_are_named_and_the_rest_answered() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 9);
    let shapes = table(&mut rng);
    let mut pairs = rows(&mut rng, &shapes, 1_000);
    let nan = f64::NAN;
    pairs[3].pose_a[1] = nan;
    pairs[10].pose_b[0] = f64::INFINITY;
    pairs[17].pose_b[3..7].copy_from_slice(&[0.0, 0.0, 0.0, 0.5]);
    pairs[300].pose_a[5] = nan;
    pairs[400].b = shapes.len();
    pairs[999].a = usize::MAX;
    let expect = [
        (3, "pairs[3].pose_a.translation[1]"),
        (10, "pairs[10].pose_b.translation[0]"),
        (17, "pairs[17].pose_b.rotation"),
        (300, "pairs[300].pose_a.rotation[2]"),
        (400, "pairs[400].b"),
        (999, "pairs[999].a"),
    ];
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert_eq!(rep.error_rows, expect.len());
    for (i, field) in expect {
        let e = o.e[i]
            .as_ref()
            .unwrap_or_else(|| panic!("row {i} has no error"));
        assert_eq!(e.field, field);
        let msg = e.to_string();
        assert!(msg.starts_with(field), "{msg}");
        assert_eq!(o.v[i], Verdict::Undetermined);
        assert!(o.d[i].is_finite());
    }
    assert!(o.e[17].as_ref().unwrap().to_string().contains("0.5"));
    let opts = gjk::Options::default();
    for (i, p) in pairs.iter().enumerate() {
        if expect.iter().any(|&(j, _)| j == i) {
            continue;
        }
        assert!(o.e[i].is_none(), "row {i}");
        let s = gjk::distance(
            &shapes[p.a],
            &pose(&p.pose_a),
            &shapes[p.b],
            &pose(&p.pose_b),
            &opts,
            None,
        );
        assert_eq!(kind(&o.v[i]), kind(&s.verdict), "row {i}");
    }
    // The boolean and penetration batches name the same rows.
    let n = pairs.len();
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; n],
        vec![Verdict::<DVec3>::Undetermined; n],
        vec![None; n],
    );
    let mut it = vec![0u32; s.len()];
    let out = IntersectOut {
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::intersects(&shapes, &pairs, &BatchOptions::default(), out).unwrap();
    assert_eq!(rep.error_rows, expect.len());
    for (i, field) in expect {
        assert_eq!(e[i].as_ref().map(|e| e.field.as_str()), Some(field));
    }
}

/// A rotation within the stated tolerance of unit norm is accepted (and renormalised).
#[test]
fn nearly_unit_quaternion_is_accepted() {
    let shapes = [Shape3::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap())];
    let s = 1.0 + 0.5 * batch::UNIT_TOLERANCE;
    let pairs = [Pair3 {
        a: 0,
        pose_a: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, s],
        b: 0,
        pose_b: [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
    }];
    let (o, _) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert!(o.e[0].is_none());
    assert!((o.d[0] - 2.0).abs() < 1e-12, "{}", o.d[0]);
}

/// An empty batch and output slices of the wrong length are errors, not panics.
#[test]
fn empty_input_and_wrong_output_lengths_are_errors() {
    let shapes = [Shape3::Sphere(Ball::new(1.0).unwrap())];
    let mut o = Dist::new(0);
    let err =
        batch::distance(&shapes, &[] as &[Pair3], &BatchOptions::default(), o.out()).unwrap_err();
    assert_eq!(err.field, "pairs");
    let pairs = vec![
        Pair3 {
            a: 0,
            pose_a: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            b: 0,
            pose_b: [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        };
        3
    ];
    let mut o = Dist::new(3);
    o.n.pop();
    let err = batch::distance(&shapes, &pairs, &BatchOptions::default(), o.out()).unwrap_err();
    assert_eq!(err.field, "out.normal");
    assert!(err.to_string().contains("length 2, expected 3"), "{err}");
    assert!(o.d.iter().all(|&d| d == -1.0), "nothing written on error");
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; 3],
        vec![Verdict::<DVec3>::Undetermined; 4],
        vec![None; 3],
    );
    let mut it = vec![0u32; s.len()];
    let out = IntersectOut {
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let err = batch::intersects(&shapes, &pairs, &BatchOptions::default(), out).unwrap_err();
    assert_eq!(err.field, "out.verdict");
    let mut depth = vec![0.0; 5];
    let (mut pa, mut pb, mut nr) = (
        vec![DVec3::ZERO; 3],
        vec![DVec3::ZERO; 3],
        vec![DVec3::ZERO; 3],
    );
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; 3],
        vec![Verdict::Undetermined; 3],
        vec![None; 3],
    );
    let mut it = vec![0u32; s.len()];
    let out = PenetrationOut {
        depth: &mut depth,
        point_a: &mut pa,
        point_b: &mut pb,
        normal: &mut nr,
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let err = batch::penetration(&shapes, &pairs, &BatchOptions::default(), out).unwrap_err();
    assert_eq!(err.field, "out.depth");
}

/// The 2D variant: poses `[tx, ty, angle]`, answers of the scalar 2D call, a bad angle and bad
/// translation coordinates named.
#[test]
fn planar_batch_equals_scalar_calls() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 10);
    let shapes = vec![
        Shape2::Rect(Cuboid::new(DVec2::new(0.5, 0.3)).unwrap()),
        Shape2::Circle(Ball::new(0.4).unwrap()),
        Shape2::Polygon(
            ConvexPolygon::new(&[
                DVec2::new(0.0, 0.0),
                DVec2::new(1.0, 0.0),
                DVec2::new(0.3, 0.8),
            ])
            .unwrap(),
        ),
    ];
    let mut pairs: Vec<Pair2> = (0..2_000)
        .map(|_| Pair2 {
            a: rng.gen_range(0..3),
            pose_a: [
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-3.0..3.0),
            ],
            b: rng.gen_range(0..3),
            pose_b: [
                rng.gen_range(-2.0..2.0),
                rng.gen_range(-2.0..2.0),
                rng.gen_range(-3.0..3.0),
            ],
        })
        .collect();
    pairs[5].pose_b[2] = f64::NAN;
    // A bad translation is named by coordinate, the first bad one (an infinity, then a value
    // past the largest accepted magnitude).
    pairs[9].pose_a[1] = f64::INFINITY;
    pairs[12].pose_b[0] = 1e300;
    pairs[12].pose_b[1] = f64::NAN;
    let n = pairs.len();
    let mut d = vec![0.0; n];
    let (mut pa, mut pb, mut nr) = (
        vec![DVec2::ZERO; n],
        vec![DVec2::ZERO; n],
        vec![DVec2::ZERO; n],
    );
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; n],
        vec![Verdict::Undetermined; n],
        vec![None; n],
    );
    let mut it = vec![0u32; s.len()];
    let out = DistanceOut {
        distance: &mut d,
        point_a: &mut pa,
        point_b: &mut pb,
        normal: &mut nr,
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    let rep = batch::distance(&shapes, &pairs, &BatchOptions::default(), out).unwrap();
    assert_eq!(rep.error_rows, 3);
    assert_eq!(e[5].as_ref().unwrap().field, "pairs[5].pose_b.angle");
    assert_eq!(
        e[9].as_ref().unwrap().field,
        "pairs[9].pose_a.translation[1]"
    );
    assert_eq!(
        e[12].as_ref().unwrap().field,
        "pairs[12].pose_b.translation[0]"
    );
    let opts = gjk::Options::default();
    for (i, p) in pairs.iter().enumerate() {
        if [5, 9, 12].contains(&i) {
            continue;
        }
        let pa2 = Pose2::from_angle([p.pose_a[0], p.pose_a[1]], p.pose_a[2]).unwrap();
        let pb2 = Pose2::from_angle([p.pose_b[0], p.pose_b[1]], p.pose_b[2]).unwrap();
        let r = gjk::distance(&shapes[p.a], &pa2, &shapes[p.b], &pb2, &opts, None);
        assert_eq!(d[i].to_bits(), r.distance.to_bits(), "row {i}");
        assert_eq!(v[i], r.verdict, "row {i}");
    }
}

/// Degenerate lane shapes (flat, collinear, single-point and duplicated hulls, flat and
/// zero boxes), offsets to 1e6 and size ratios of 1e4: the lane path gives the scalar
/// path's verdicts and distances, or declines to it.
#[test]
fn degenerate_lane_shapes_match_the_scalar_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(111);
    let mut pts = |f: &dyn Fn(&mut ChaCha8Rng) -> DVec3, n: usize| -> Shape3 {
        let v: Vec<DVec3> = (0..n).map(|_| f(&mut rng)).collect();
        Shape3::Points(Points::new(&v).unwrap())
    };
    let flat = pts(
        &|r| DVec3::new(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0), 0.0),
        8,
    );
    let line = pts(&|r| DVec3::X * r.gen_range(-1.0..1.0), 6);
    let point = pts(&|_| DVec3::new(0.1, 0.2, 0.3), 1);
    let dup = pts(
        &|r| {
            if r.gen_bool(0.5) {
                DVec3::ONE * 0.5
            } else {
                -DVec3::ONE * 0.5
            }
        },
        16,
    );
    let tiny = pts(&|r| unit(r) * 1e-4, 8);
    let shapes = vec![
        flat,
        line,
        point,
        dup,
        tiny,
        Shape3::Cuboid(Cuboid::new(DVec3::new(1.0, 1.0, 0.0)).unwrap()),
        Shape3::Cuboid(Cuboid::new(DVec3::ZERO).unwrap()),
        Shape3::Cuboid(Cuboid::new(DVec3::splat(1.0)).unwrap()),
    ];
    let mut pairs = Vec::new();
    for i in 0..4_000 {
        let a = rng.gen_range(0..shapes.len());
        let b = rng.gen_range(0..shapes.len());
        let offset = if i % 4 == 0 {
            DVec3::splat(1e6)
        } else {
            DVec3::ZERO
        };
        // Axis-aligned poses now and then: parallel faces and exact ties.
        let (qa, qb) = if i % 5 == 0 {
            (DQuat::IDENTITY, DQuat::IDENTITY)
        } else {
            (quat(&mut rng), quat(&mut rng))
        };
        let pa = Pose3::new(offset + unit(&mut rng) * rng.gen_range(0.0..1.0), qa).unwrap();
        let pb = Pose3::new(
            pa.translation() + unit(&mut rng) * rng.gen_range(0.0..3.0),
            qb,
        )
        .unwrap();
        pairs.push(Pair {
            a,
            pose_a: raw(&pa),
            b,
            pose_b: raw(&pb),
        });
    }
    let (lane, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    let (plain, _) = run_distance(
        &shapes,
        &pairs,
        &BatchOptions {
            lanes: false,
            ..BatchOptions::default()
        },
    );
    assert!(rep.lane_rows > 1000, "lane rows {}", rep.lane_rows);
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(kind(&lane.v[i]), kind(&plain.v[i]), "row {i}");
        assert_eq!(lane.s[i], plain.s[i], "row {i}");
        let scale = scale_of(&shapes, p);
        assert!(
            (lane.d[i] - plain.d[i]).abs() <= 1e-12 * scale.max(plain.d[i]),
            "row {i}: {} vs {}",
            lane.d[i],
            plain.d[i]
        );
        if lane.v[i] != Verdict::Undetermined {
            let (a, b) = (&shapes[p.a], &shapes[p.b]);
            convexity::verify(
                a,
                &pose(&p.pose_a),
                b,
                &pose(&p.pose_b),
                &lane.v[i],
                1e-9 * scale.max(1e-3) + 1e-9,
            )
            .unwrap_or_else(|e| panic!("row {i}: certificate rejected: {e}"));
        }
    }
    eprintln!(
        "degenerate: {} of {} rows through the lanes",
        rep.lane_rows,
        pairs.len()
    );
}

/// With the lane path off, every row reports the scalar call's iteration count (distance and
/// boolean), and a rejected row reports 0.
#[test]
fn scalar_rows_report_the_scalar_iterations() {
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 12);
    let shapes = table(&mut rng);
    let mut pairs = rows(&mut rng, &shapes, 2_000);
    pairs[7].pose_a[0] = f64::NAN;
    let opts = BatchOptions {
        lanes: false,
        ..BatchOptions::default()
    };
    let (o, rep) = run_distance(&shapes, &pairs, &opts);
    assert_eq!((rep.lane_rows, rep.error_rows), (0, 1));
    let n = pairs.len();
    let (mut s, mut v, mut e) = (
        vec![Status::Numerical; n],
        vec![Verdict::<DVec3>::Undetermined; n],
        vec![None; n],
    );
    let mut it = vec![u32::MAX; s.len()];
    let out = IntersectOut {
        status: &mut s,
        iterations: &mut it,
        verdict: &mut v,
        error: &mut e,
    };
    batch::intersects(&shapes, &pairs, &opts, out).unwrap();
    let g = gjk::Options::default();
    for (i, p) in pairs.iter().enumerate() {
        if i == 7 {
            assert!(o.e[i].is_some() && e[i].is_some());
            assert_eq!((o.it[i], it[i]), (0, 0));
            continue;
        }
        let (a, b) = (&shapes[p.a], &shapes[p.b]);
        let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
        let d = gjk::distance(a, &pa, b, &pb, &g, None);
        assert_eq!(o.it[i], d.iterations, "row {i}: distance iterations");
        let r = gjk::intersects(a, &pa, b, &pb, &g, None);
        assert_eq!(it[i], r.iterations, "row {i}: boolean iterations");
    }
}

/// A flat 3-point hull against itself at the same place, rotated by 1e-5: the lane run
/// stopped inside the touch band at distance 1.9e-11 (its origin not enclosed: the Minkowski
/// difference of two coplanar triangles is flat), the scalar call at 0, so the batch distance
/// differed from the scalar one by far more than 1e-12 relative. Found by the `batch` fuzz
/// target; the lane path now declines an intersecting answer whose origin is not enclosed.
#[test]
fn fuzz_flat_hull_against_itself_distance_equals_scalar() {
    let tri = Shape3::Points(
        Points::new(&[
            DVec3::new(0.5313356928412329, 0.5356870374608989, 0.5356870374608989),
            DVec3::new(0.5356870374608989, -0.9969295671454853, -0.9970817120622568),
            DVec3::new(0.5356870374608989, -0.30561349431898305, 0.5356870374608989),
        ])
        .unwrap(),
    );
    let shapes = [tri];
    let q = 0.49998900821088643;
    let pairs = [Pair3 {
        a: 0,
        pose_a: [0.0, 0.0, 0.0, q, q, q, 0.5000329739176034],
        b: 0,
        pose_b: [0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5],
    }];
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert_eq!(rep.error_rows, 0);
    let s = gjk::distance(
        &shapes[0],
        &pose(&pairs[0].pose_a),
        &shapes[0],
        &pose(&pairs[0].pose_b),
        &gjk::Options::default(),
        None,
    );
    assert_eq!(kind(&o.v[0]), kind(&s.verdict));
    assert_eq!(kind(&o.v[0]), Some(true));
    assert_eq!(o.s[0], s.status);
    let scale = scale_of(&shapes, &pairs[0]);
    assert!(
        (o.d[0] - s.distance).abs() <= 1e-12 * scale,
        "batch {} vs scalar {}",
        o.d[0],
        s.distance
    );
}

/// A flat 3-point hull against itself rotated by 0.25°, 3.4e-9 apart (fuzz finding 8). GJK
/// zig-zags between the nearly parallel faces; at the fifth step the search direction (|v| =
/// 1.5e-5) is perpendicular to an edge of A in exact arithmetic, and the last bits of `v`,
/// computed by different formulas in the two implementations (3e-16 apart), pick opposite ends
/// of that edge. The scalar call then stops by its duality-gap test at 3.4125e-9 (gap 2.9e-11,
/// tolerance 2.4e-10), the lane run at 3.3912e-9: both within tolerance of the truth, 9e-12
/// apart relative to the size against the contract's 1e-12. The lane path now declines a lane
/// whose duality gap came within the tolerance without closing to the contract (here 2.6e-11
/// after its sixth step; `lanes::RISK`), where a path that differs by rounding may stop, and the
/// row is answered by the scalar call.
#[test]
fn fuzz_flat_hulls_zigzag_tie_is_declined() {
    let tri = Shape3::Points(
        Points::new(&[
            DVec3::new(0.5358696113610247, 0.5356870374608989, 0.5356870374608989),
            DVec3::new(0.5356870374608989, -0.9969295671454853, -0.9970817120622568),
            DVec3::new(0.5356870374608989, 0.5356870374608989, -0.7478379094071277),
        ])
        .unwrap(),
    );
    let shapes = [tri];
    let q = 0.5010922563849803;
    let pairs = [Pair3 {
        a: 0,
        pose_a: [0.0, -0.0, 0.0, 0.5, 0.5, 0.5, 0.5],
        b: 0,
        pose_b: [0.0, -0.0, 0.0, q, q, q, 0.4967088199066204],
    }];
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    let s = gjk::distance(
        &shapes[0],
        &pose(&pairs[0].pose_a),
        &shapes[0],
        &pose(&pairs[0].pose_b),
        &gjk::Options::default(),
        None,
    );
    // The row went through the scalar call, so it is the scalar answer bit for bit.
    assert_eq!(rep.lane_rows, 0);
    assert_eq!(kind(&o.v[0]), Some(false));
    assert_eq!(kind(&o.v[0]), kind(&s.verdict));
    assert_eq!(o.s[0], s.status);
    assert_eq!(o.d[0].to_bits(), s.distance.to_bits());
    assert!((s.distance - 3.4125e-9).abs() < 1e-12, "{}", s.distance);
    convexity::verify(
        &shapes[0],
        &pose(&pairs[0].pose_a),
        &shapes[0],
        &pose(&pairs[0].pose_b),
        &o.v[0],
        1e-9,
    )
    .unwrap();
}

/// Around the zig-zag finding: the flat 3-point hull of `fuzz_flat_hulls_zigzag_tie_is_declined`
/// against itself, scaled by 1e-2, 1 and 1e2, B rotated about five axes by 0 to 0.1 rad and
/// moved along A's face normal by gaps from −1e-2 to 1e-2 of the scale (through the touch band
/// and the tiny gaps where the runs zig-zag), at the origin and far from it. Every row: the
/// batch distance equals the scalar call's within 1e-12 relative, same verdict kind and status,
/// certificates verify; and the lane path still answers part of the rows.
#[test]
fn flat_hulls_near_parallel_sweep_equals_scalar() {
    let base = [
        DVec3::new(0.5358696113610247, 0.5356870374608989, 0.5356870374608989),
        DVec3::new(0.5356870374608989, -0.9969295671454853, -0.9970817120622568),
        DVec3::new(0.5356870374608989, 0.5356870374608989, -0.7478379094071277),
    ];
    let qa = DQuat::from_xyzw(0.5, 0.5, 0.5, 0.5);
    let normal = qa * (base[1] - base[0]).cross(base[2] - base[0]).normalize();
    let axes = [
        DVec3::ONE.normalize(),
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        DVec3::new(0.3, -0.7, 0.2).normalize(),
    ];
    let angles = [0.0, 1e-7, 1e-5, 1e-3, 4.363e-3, 1e-2, 0.1];
    let gaps = [
        0.0, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 3.4e-9, 1e-8, 1e-7, 1e-6, 1e-4, 1e-2,
    ];
    let mut shapes = Vec::new();
    let mut pairs = Vec::new();
    for (k, s) in [1e-2, 1.0, 1e2].into_iter().enumerate() {
        let pts: Vec<DVec3> = base.iter().map(|p| *p * s).collect();
        shapes.push(Shape3::Points(Points::new(&pts).unwrap()));
        for offset in [DVec3::ZERO, DVec3::new(1e3, -2e3, 5e2) * s] {
            for axis in axes {
                for angle in angles {
                    for g in gaps {
                        for sign in [1.0, -1.0] {
                            let pa = Pose3::new(offset, qa).unwrap();
                            let qb = DQuat::from_axis_angle(axis, angle) * qa;
                            let pb = Pose3::new(offset + normal * (sign * g * s), qb).unwrap();
                            pairs.push(Pair {
                                a: k,
                                pose_a: raw(&pa),
                                b: k,
                                pose_b: raw(&pb),
                            });
                        }
                    }
                }
            }
        }
    }
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert_eq!(rep.error_rows, 0);
    let opts = gjk::Options::default();
    let mut worst = 0.0f64;
    for (i, p) in pairs.iter().enumerate() {
        let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
        let s = gjk::distance(&shapes[p.a], &pa, &shapes[p.b], &pb, &opts, None);
        assert_eq!(kind(&o.v[i]), kind(&s.verdict), "row {i}: verdicts differ");
        assert_eq!(o.s[i], s.status, "row {i}: statuses differ");
        let scale = scale_of(&shapes, p);
        let e = (o.d[i] - s.distance).abs() / scale.max(s.distance);
        worst = worst.max(e);
        assert!(
            e <= 1e-12,
            "row {i}: batch {} vs scalar {} ({e:e} relative)",
            o.d[i],
            s.distance
        );
        if o.v[i] != Verdict::Undetermined {
            convexity::verify(&shapes[p.a], &pa, &shapes[p.b], &pb, &o.v[i], 1e-9 * scale)
                .unwrap_or_else(|e| panic!("row {i}: certificate rejected: {e}"));
        }
    }
    assert!(
        rep.lane_rows * 5 >= pairs.len(),
        "lane rows {} of {}",
        rep.lane_rows,
        pairs.len()
    );
    eprintln!(
        "rows {} lane {} worst {worst:e}",
        pairs.len(),
        rep.lane_rows
    );
}

/// The two flat boxes of the fuzz findings below (0.0026 × 0.0026 × 4e-8 half extents) at raw
/// poses `pose_a`, `pose_b`: the batch answer against the scalar call — no error, the same
/// verdict kind and status, distances within 1e-12 relative, the certificate verified when
/// there is one. Returns the batch verdict.
fn flat_boxes_batch_equals_scalar(pose_a: [f64; 7], pose_b: [f64; 7]) -> Verdict<DVec3> {
    let h = DVec3::new(
        0.0026130693522545207,
        0.0026130693522545207,
        3.987288246363793e-8,
    );
    let shapes = [Shape3::Cuboid(Cuboid::new(h).unwrap())];
    let pairs = [Pair3 {
        a: 0,
        pose_a,
        b: 0,
        pose_b,
    }];
    let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions::default());
    assert_eq!(rep.error_rows, 0);
    let (pa, pb) = (pose(&pairs[0].pose_a), pose(&pairs[0].pose_b));
    let s = gjk::distance(
        &shapes[0],
        &pa,
        &shapes[0],
        &pb,
        &gjk::Options::default(),
        None,
    );
    assert_eq!(kind(&o.v[0]), kind(&s.verdict));
    assert_eq!(o.s[0], s.status);
    let scale = scale_of(&shapes, &pairs[0]);
    assert!(
        (o.d[0] - s.distance).abs() <= 1e-12 * scale,
        "batch {} vs scalar {} (lane rows {})",
        o.d[0],
        s.distance,
        rep.lane_rows
    );
    if o.v[0] != Verdict::Undetermined {
        convexity::verify(&shapes[0], &pa, &shapes[0], &pb, &o.v[0], 1e-9 * scale).unwrap();
    }
    o.v[0]
}

/// Two flat boxes (0.0026 × 0.0026 × 4e-8 half extents) crossing at a tilt: the lane run
/// enclosed the origin (distance 0) in a tetrahedron whose face passes 2.6e-14 from it, while
/// the scalar call, on a path that rounding made differ, stopped touching at 2.6e-14 — 3.4e-12
/// relative to the size. Found by the `batch` fuzz target; the lane path now declines an
/// enclosed origin within twice the touch tolerance of a face of its tetrahedron.
#[test]
fn fuzz_flat_boxes_shallow_enclosure_distance_equals_scalar() {
    let verdict = flat_boxes_batch_equals_scalar(
        [
            0.0,
            0.0,
            0.0,
            0.5516525948717284,
            0.2897242434645165,
            -0.5535107219615512,
            0.5525985504810927,
        ],
        [
            0.005500213328893493,
            -0.0006360337101859999,
            0.0009573955381919088,
            -0.573568154981535,
            0.5335711641578466,
            0.43950050305450056,
            0.43950050305450056,
        ],
    );
    assert_eq!(kind(&verdict), Some(true));
}

/// Two flat boxes (0.0026 × 0.0026 × 4e-8 half extents), nearly touching: the batch distance
/// was 1.1e-8 against the scalar call's 1.8e-12. The lane's closest point on a needle triangle
/// (5e-3 long, 1e-8 wide; Cramer's rule) was tilted by 2.9e-10 at |v| = 1.1e-8, its next
/// support repeated a simplex point, and the lane stopped with its gap open (1.1e-8), where
/// the scalar run's projection went on. Found by the `batch` fuzz target; the lane path now
/// declines a repeated-point stop whose gap is not closed to the contract.
#[test]
fn fuzz_flat_boxes_near_touch_distance_equals_scalar() {
    flat_boxes_batch_equals_scalar(
        [
            -0.0,
            -0.0,
            -0.0,
            -0.1769596704297079,
            -0.5696649312719932,
            0.5638252534318758,
            0.5711989361971584,
        ],
        [
            -0.002625330049876243,
            0.0036057561849690625,
            0.004259034928268833,
            0.6415045187085069,
            0.6415045187085069,
            0.36980848725549215,
            -0.20046343234350364,
        ],
    );
}

/// The AVX2 and AVX-512VL kernels of the lane path (each where the CPU has it) against the
/// baseline kernel (SSE2 pairs on x86-64): the same IEEE operations in the same order, so the
/// same bits — every answer field, declines included, in both modes — on boxes and hulls of 8
/// and 16 points (box pairs too, which `lanes::run` takes although the batch API sends them to
/// the scalar closed form), overlapping, touching and separated.
#[test]
fn lane_kernels_agree_bit_for_bit() {
    use convexity::batch::lanes::{self, Kernel, LaneRow, LaneShape, Mode};
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 21);
    let mut shapes = Vec::new();
    for _ in 0..5 {
        shapes.push(random_box(&mut rng));
        shapes.push(hull(&mut rng, 8));
        shapes.push(hull(&mut rng, 16));
    }
    let lane_shapes: Vec<LaneShape> = shapes.iter().map(|s| LaneShape::of(s).unwrap()).collect();
    let pairs = rows(&mut rng, &shapes, 3_000);
    let rows: Vec<LaneRow<'_, DVec3>> = pairs
        .iter()
        .enumerate()
        .map(|(k, p)| LaneRow {
            k,
            a: &lane_shapes[p.a],
            b: &lane_shapes[p.b],
            pose_a: pose(&p.pose_a),
            pose_b: pose(&p.pose_b),
        })
        .collect();
    let opts = gjk::Options::default();
    let avx2 = Kernel::Avx2.available();
    if !avx2 {
        eprintln!("lane_kernels_agree_bit_for_bit: no AVX2 on this CPU, baseline kernel only");
    } else if !Kernel::Avx512.available() {
        eprintln!("lane_kernels_agree_bit_for_bit: no AVX-512VL on this CPU, AVX2 kernel only");
    }
    for mode in [Mode::Distance, Mode::Boolean] {
        let mut base = Vec::new();
        assert_eq!(
            lanes::run_on(Kernel::Baseline, &rows, mode, &opts, &mut base),
            Kernel::Baseline
        );
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            let mut fast = Vec::new();
            let ran = lanes::run_on(kernel, &rows, mode, &opts, &mut fast);
            assert_eq!(ran == kernel, kernel.available());
            assert_eq!(fast.len(), rows.len());
            let (mut answered, mut inter, mut sep) = (0, 0, 0);
            for (i, (f, b)) in fast.iter().zip(&base).enumerate() {
                // `Debug` prints every f64 in its shortest round-trip form (and −0 as -0.0).
                assert_eq!(
                    format!("{f:?}"),
                    format!("{b:?}"),
                    "{kernel:?} {mode:?} row {i}"
                );
                if let Some(a) = f {
                    answered += 1;
                    match a.distance.verdict.intersecting() {
                        Some(true) => inter += 1,
                        Some(false) => sep += 1,
                        None => {}
                    }
                }
            }
            // The comparison covers real answers of both kinds, not only declines.
            assert!(answered * 2 >= rows.len(), "{mode:?}: {answered} answered");
            assert!(
                inter * 5 >= rows.len() && sep * 5 >= rows.len(),
                "{mode:?}: {inter} / {sep}"
            );
        }
    }
}

/// `query::run_many` (the batch API plus one certificate check per row, the CLI's path for many
/// pairs) answers every row as `query::run` does on the same poses: the same method, verdict
/// and check, distances and depths within 1e-12 of the pair's size, for `gjk`, `gjk-boolean`
/// and `epa` on mixed 3D rows (a third touching) and on 2D rows; in parallel and not, with the
/// same outcomes; and another method falls back to `run` row by row.
#[test]
fn run_many_answers_as_run_row_by_row() {
    use convexity::gjk::certificate::Check;
    use convexity::query::{self, Method};
    let mut rng = ChaCha8Rng::seed_from_u64(100 + 22);
    let shapes = table(&mut rng);
    let pairs = rows(&mut rng, &shapes, 900);
    let posed: Vec<(Pose3, Pose3)> = pairs
        .iter()
        .map(|p| (pose(&p.pose_a), pose(&p.pose_b)))
        .collect();
    let many: Vec<query::Row<'_, DVec3>> = pairs
        .iter()
        .zip(&posed)
        .map(|(p, (pa, pb))| (&shapes[p.a], *pa, &shapes[p.b], *pb))
        .collect();
    for method in [
        Method::Gjk,
        Method::GjkBoolean,
        Method::Epa,
        Method::ChungWang,
    ] {
        let got = query::run_many(method, &many, true);
        assert_eq!(got, query::run_many(method, &many, false), "{method:?}");
        assert_eq!(got.len(), many.len());
        let mut verified = 0;
        for (k, ((a, pa, b, pb), g)) in many.iter().zip(&got).enumerate() {
            let want = query::run(method, *a, pa, *b, pb);
            let (Ok(g), Ok(w)) = (g, &want) else {
                assert_eq!(g.is_ok(), want.is_ok(), "{method:?} row {k}");
                continue;
            };
            let scale = scale_of(&shapes, &pairs[k]);
            assert_eq!(g.method, method);
            assert_eq!(
                g.verdict.intersecting(),
                w.verdict.intersecting(),
                "{method:?} row {k}"
            );
            assert_eq!(g.check, w.check, "{method:?} row {k}");
            assert_eq!(g.status, w.status, "{method:?} row {k}");
            for (x, y) in [
                (g.distance, w.distance),
                (g.penetration_depth, w.penetration_depth),
            ] {
                match (x, y) {
                    (Some(x), Some(y)) => {
                        assert!(
                            (x - y).abs() <= 1e-12 * scale,
                            "{method:?} row {k}: {x} {y}"
                        )
                    }
                    (x, y) => assert_eq!(x.is_some(), y.is_some(), "{method:?} row {k}"),
                }
            }
            verified += usize::from(g.check == Check::Verified);
        }
        assert!(
            verified > many.len() * 9 / 10,
            "{method:?}: {verified} verified"
        );
    }

    let shapes2 = [
        Shape2::Rect(Cuboid::new(DVec2::new(0.5, 0.3)).unwrap()),
        Shape2::Circle(Ball::new(0.4).unwrap()),
        Shape2::Polygon(
            ConvexPolygon::new(&[
                DVec2::new(0.0, 0.0),
                DVec2::new(1.0, 0.0),
                DVec2::new(0.3, 0.8),
            ])
            .unwrap(),
        ),
    ];
    let mut p2 = || {
        Pose2::from_angle(
            [rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5)],
            rng.gen_range(-3.0..3.0),
        )
        .unwrap()
    };
    let many2: Vec<query::Row<'_, DVec2>> = (0..600)
        .map(|k| (&shapes2[k % 3], p2(), &shapes2[(k / 3) % 3], p2()))
        .collect();
    for method in [Method::Gjk, Method::GjkBoolean, Method::Epa] {
        let got = query::run_many(method, &many2, true);
        for (k, ((a, pa, b, pb), g)) in many2.iter().zip(&got).enumerate() {
            let w = query::run(method, *a, pa, *b, pb).unwrap();
            let g = g.as_ref().unwrap();
            assert_eq!(
                g.verdict.intersecting(),
                w.verdict.intersecting(),
                "2D {method:?} row {k}"
            );
            assert_eq!(g.check, w.check, "2D {method:?} row {k}");
            match (g.distance, w.distance) {
                (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-12, "2D {method:?} row {k}"),
                (x, y) => assert_eq!(x.is_some(), y.is_some(), "2D {method:?} row {k}"),
            }
        }
    }
    assert!(query::run_many::<DVec3>(Method::Gjk, &[], true).is_empty());
}

/// Box rows of every kind for the box lanes: random rotations (overlapping and apart),
/// touching along the scalar normal with gaps swept over 0.5–2× the touch tolerance, boxes
/// with aligned or quarter-turned axes (parallel edges, face-to-face contact), flat boxes,
/// coordinates offset by 1e6 and size ratios of 1e4.
fn box_rows(rng: &mut ChaCha8Rng, n: usize) -> (Vec<Shape3>, Vec<Pair3>) {
    let mut shapes = Vec::new();
    for _ in 0..8 {
        shapes.push(random_box(rng));
    }
    // Flat boxes (one zero half extent) and a 1e4 size ratio.
    shapes.push(Shape3::Cuboid(
        Cuboid::new(DVec3::new(0.5, 0.0, 0.7)).unwrap(),
    ));
    shapes.push(Shape3::Cuboid(
        Cuboid::new(DVec3::new(0.0, 0.4, 0.0)).unwrap(),
    ));
    shapes.push(Shape3::Cuboid(Cuboid::new(DVec3::splat(1e-4)).unwrap()));
    shapes.push(Shape3::Cuboid(
        Cuboid::new(DVec3::new(1.0, 0.5, 0.8)).unwrap(),
    ));
    let quarter = |rng: &mut ChaCha8Rng| {
        let axis = [DVec3::X, DVec3::Y, DVec3::Z][rng.gen_range(0..3)];
        DQuat::from_axis_angle(
            axis,
            std::f64::consts::FRAC_PI_2 * rng.gen_range(0..4) as f64,
        )
    };
    let opts = gjk::Options::default();
    let pairs = (0..n)
        .map(|i| {
            let a = rng.gen_range(0..shapes.len());
            let b = rng.gen_range(0..shapes.len());
            let offset = if i % 7 == 0 {
                DVec3::new(1e6, -1e6, 1e6)
            } else {
                DVec3::ZERO
            };
            let (qa, qb) = if i % 5 == 0 {
                (quarter(rng), quarter(rng))
            } else {
                (quat(rng), quat(rng))
            };
            let pa = Pose3::new(offset + unit(rng) * rng.gen_range(0.0..2.0), qa).unwrap();
            let r = rng.gen_range(0.0..3.0);
            let mut pb = Pose3::new(pa.translation() + unit(rng) * r, qb).unwrap();
            if i % 4 == 1 {
                let d = gjk::distance(&shapes[a], &pa, &shapes[b], &pb, &opts, None);
                if d.verdict.intersecting() == Some(false) {
                    let gap = d.tolerance * rng.gen_range(0.5..2.0) * [0.0, 1.0][i % 2];
                    let t = pb.translation() - d.normal * (d.distance - gap);
                    pb = Pose3::new(t, pb.rotation()).unwrap();
                }
            }
            Pair {
                a,
                pose_a: raw(&pa),
                b,
                pose_b: raw(&pb),
            }
        })
        .collect();
    (shapes, pairs)
}

/// Two boxes take the box lanes (`gjk/batch/box_lanes.rs`) in the distance batch: every row
/// equals the scalar call to the bit (distance, points, normal, status, iterations, verdict
/// and certificate), single-threaded and parallel, and the lanes answer most rows.
#[test]
fn box_lanes_equal_the_scalar_closed_form() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb0c5);
    let (shapes, pairs) = box_rows(&mut rng, 8000);
    let opts = BatchOptions::default();
    let bits = |v: DVec3| v.to_array().map(f64::to_bits);
    let mut kinds = [0usize; 3];
    // The default tolerances, then an absolute tolerance far below the coordinates' rounding:
    // there the lanes' common-point candidates miss and the scalar search answers overlapping
    // rows (`box_lane_kernels_agree_bit_for_bit` counts them), still bit for bit.
    let tiny = BatchOptions {
        gjk: gjk::Options {
            abs_tolerance: Some(1e-17),
            ..opts.gjk
        },
        ..opts
    };
    for (parallel, opts) in [(false, opts), (true, opts), (false, tiny)] {
        let (o, rep) = run_distance(&shapes, &pairs, &BatchOptions { parallel, ..opts });
        assert_eq!(rep.error_rows, 0);
        for (i, p) in pairs.iter().enumerate() {
            let (pa, pb) = (pose(&p.pose_a), pose(&p.pose_b));
            let s = gjk::distance(&shapes[p.a], &pa, &shapes[p.b], &pb, &opts.gjk, None);
            assert_eq!(o.d[i].to_bits(), s.distance.to_bits(), "row {i}");
            assert_eq!(bits(o.pa[i]), bits(s.point_a), "row {i}");
            assert_eq!(bits(o.pb[i]), bits(s.point_b), "row {i}");
            assert_eq!(bits(o.n[i]), bits(s.normal), "row {i}");
            assert_eq!((o.s[i], o.it[i]), (s.status, s.iterations), "row {i}");
            assert_eq!(
                format!("{:?}", o.v[i]),
                format!("{:?}", s.verdict),
                "row {i}"
            );
            if parallel {
                continue;
            }
            if opts != tiny {
                kinds[match kind(&o.v[i]) {
                    Some(true) => 0,
                    Some(false) => 1,
                    None => 2,
                }] += 1;
            }
            let tol =
                convexity::gjk::certificate::tolerance_for(&shapes[p.a], &pa, &shapes[p.b], &pb);
            convexity::verify(&shapes[p.a], &pa, &shapes[p.b], &pb, &o.v[i], tol)
                .unwrap_or_else(|e| panic!("row {i}: {e}"));
        }
        // Most rows through the lanes (the rest: touching, flat edge pairs, deep overlaps).
        assert!(
            rep.lane_rows * 10 >= pairs.len() * 6,
            "{} of {} rows through the lanes",
            rep.lane_rows,
            pairs.len()
        );
    }
    assert!(kinds[0] > 1000 && kinds[1] > 1000, "{kinds:?}");
    let opts = BatchOptions::default();
    // The same rows with the lanes off: the scalar path, the same answers.
    let (off, rep) = run_distance(
        &shapes,
        &pairs,
        &BatchOptions {
            lanes: false,
            ..opts
        },
    );
    assert_eq!(rep.lane_rows, 0);
    let (on, _) = run_distance(&shapes, &pairs, &opts);
    assert!(on
        .d
        .iter()
        .zip(&off.d)
        .all(|(x, y)| x.to_bits() == y.to_bits()));
}
