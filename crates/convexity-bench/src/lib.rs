//! # convexity-bench
//!
//! Deterministic data sets for benchmarking `convexity` side by side with `parry3d-f64` (and
//! `parry3d`, f32, for reference) on identical inputs, plus the untimed statistics the
//! benchmark tables need (overlap fraction, average iterations, agreement with parry).
//!
//! ## Data sets
//! Every set has [`SHAPES`] = 64 shapes and [`PAIRS`] = 100 000 pose pairs.
//!
//! * `hullN` (N = 8, 32, 128, 1024): the convex hull of N points uniform on the unit sphere.
//!   `convexity` gets a [`Points`] of the N points (its support function scans the points; no
//!   hull is built). parry gets `ConvexPolyhedron::from_convex_hull` of the same points (f64,
//!   and the points rounded to f32 for `parry3d`). parry 0.31's `ConvexPolyhedron` support
//!   function is also a linear scan of the hull's vertices (`utils::point_cloud_support_point`),
//!   and since every point of a sphere sample is a hull vertex both libraries scan N points.
//!   If parry cannot build a hull (f64 or f32) the shape is regenerated with the next seed, for
//!   both libraries identically ([`DataSet::hull_retries`] counts that).
//! * `box`: half extents uniform in [0.3, 1] per axis (`convexity::Cuboid` / parry `Cuboid`).
//! * `sphere`: radius uniform in [0.3, 1] (`convexity::Ball` / parry `Ball`).
//!
//! ## Pose pairs
//! Pair `k` takes shapes `ia`, `ib` uniform in `0..64` (possibly equal), a uniform random
//! rotation for each (Shoemake's uniform quaternions), A's translation uniform in
//! `[-4, 4]³`, and B's translation `t_a + s · u^{1/3} · n` with `n` uniform on the unit sphere
//! and `u` uniform in [0, 1): B's centre is uniform in the ball of radius `s` about A's centre.
//! The offset scale `s` is chosen per set ([`Kind::offset_scale`]) so that about half of the
//! pairs overlap; [`SetStats::overlap_fraction`] counts it with convexity's GJK.
//! Our poses are built with `Pose3::new` (which renormalises the quaternion) and parry's f64
//! poses are made from exactly the same (renormalised) quaternion and translation, so the
//! f64 inputs are bit-identical. parry3d (f32) gets them rounded to f32.
//!
//! ## Seeds
//! Everything derives from [`SEED`] through [`seed_for`]: shape `i` of a set uses stream
//! `(set, 1, i, attempt)`, the pose pairs `(set, 2, 0, 0)`, the warm-start trajectories
//! `(set, 3, t, 0)`. The generators are ChaCha8 (`rand_chacha`), so data are identical on
//! every machine and run.

pub mod harness;
pub mod tables;

use convexity::gjk;
use convexity::gjk::epa;
use convexity::{Ball, Cuboid, DQuat, DVec3, Points, Pose3, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Number of shapes per data set.
pub const SHAPES: usize = 64;
/// Number of pose pairs per data set.
pub const PAIRS: usize = 100_000;
/// Root seed of every data set.
pub const SEED: u64 = 0x00C0_17E7_B3C4_2025;
/// Hull sizes of the `hullN` sets.
pub const HULL_SIZES: [usize; 4] = [8, 32, 128, 1024];

/// The data sets, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Hull(usize),
    Box,
    Sphere,
}

impl Kind {
    /// All sets in table order: hull8, hull32, hull128, hull1024, box, sphere.
    pub const ALL: [Kind; 6] = [
        Kind::Hull(8),
        Kind::Hull(32),
        Kind::Hull(128),
        Kind::Hull(1024),
        Kind::Box,
        Kind::Sphere,
    ];

    /// Short name used in benchmark ids and tables.
    pub fn name(&self) -> String {
        match self {
            Kind::Hull(n) => format!("hull{n}"),
            Kind::Box => "box".into(),
            Kind::Sphere => "sphere".into(),
        }
    }

    /// Parses a name produced by [`Kind::name`].
    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == s)
    }

    /// A small integer identifying the set in the seed derivation.
    fn id(&self) -> u64 {
        match self {
            Kind::Hull(n) => *n as u64,
            Kind::Box => 1 << 20,
            Kind::Sphere => 2 << 20,
        }
    }

    /// Radius `s` of the ball in which B's centre is placed about A's centre, chosen so that
    /// about 50 % of the pairs overlap (the fraction is counted, not assumed; see
    /// [`SetStats::overlap_fraction`]). With B uniform in the ball, the overlap fraction is
    /// `E[min(1, r*/s)³]` where `r*` is the touching distance of the pair along the offset
    /// direction, so `s ≈ 1.26 · r*` for a typical `r*`. Calibrated once on these seeds with
    /// `src/bin/calibrate.rs` (4000 pairs per set; it solves that equation for `s`).
    pub fn offset_scale(&self) -> f64 {
        match self {
            Kind::Hull(8) => 1.71,
            Kind::Hull(32) => 2.30,
            Kind::Hull(128) => 2.46,
            Kind::Hull(_) => 2.51,
            Kind::Box => 2.23,
            Kind::Sphere => 1.645,
        }
    }
}

/// Derives an independent seed for one stream of one set (SplitMix64 finaliser).
pub fn seed_for(kind: Kind, stream: u64, index: u64, attempt: u64) -> u64 {
    seed_for_id(kind.id(), stream, index, attempt)
}

/// [`seed_for`] for a set identified by a bare number (sets outside [`Kind`], such as the
/// capsule and ball–box sets of the `speed` binary; their ids must differ from every
/// [`Kind`]'s).
pub fn seed_for_id(id: u64, stream: u64, index: u64, attempt: u64) -> u64 {
    let mut z = SEED
        ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ stream.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ index.wrapping_mul(0x94D0_49BB_1331_11EB)
        ^ attempt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A point uniform on the unit sphere (rejection from the cube, then normalised).
pub fn unit_vector(rng: &mut impl Rng) -> DVec3 {
    loop {
        let p = DVec3::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        let l2 = p.length_squared();
        if l2 > 1e-6 && l2 <= 1.0 {
            return p / l2.sqrt();
        }
    }
}

/// A uniform random rotation (Shoemake, "Uniform random rotations", Graphics Gems III).
pub fn uniform_quat(rng: &mut impl Rng) -> DQuat {
    let u1: f64 = rng.gen();
    let u2: f64 = rng.gen();
    let u3: f64 = rng.gen();
    let tau = std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    DQuat::from_xyzw(
        a * (tau * u2).sin(),
        a * (tau * u2).cos(),
        b * (tau * u3).sin(),
        b * (tau * u3).cos(),
    )
    .normalize()
}

/// One pose pair for each library, built from the same numbers.
#[derive(Clone, Debug)]
pub struct Pairs {
    /// Shape indices (A, B) of each pair.
    pub idx: Vec<(u32, u32)>,
    /// convexity poses.
    pub ours: Vec<(Pose3, Pose3)>,
    /// parry3d-f64 poses (bit-identical to `ours`).
    pub parry64: Vec<(parry3d_f64::math::Pose, parry3d_f64::math::Pose)>,
    /// parry3d (f32) poses (`ours` rounded to f32).
    pub parry32: Vec<(parry3d::math::Pose, parry3d::math::Pose)>,
}

impl Pairs {
    fn with_capacity(n: usize) -> Self {
        Pairs {
            idx: Vec::with_capacity(n),
            ours: Vec::with_capacity(n),
            parry64: Vec::with_capacity(n),
            parry32: Vec::with_capacity(n),
        }
    }

    /// Appends a pair, converting the poses for parry.
    pub fn push(&mut self, ia: u32, ib: u32, pa: Pose3, pb: Pose3) {
        self.idx.push((ia, ib));
        self.ours.push((pa, pb));
        self.parry64.push((to_parry64(&pa), to_parry64(&pb)));
        self.parry32.push((to_parry32(&pa), to_parry32(&pb)));
    }

    pub fn len(&self) -> usize {
        self.idx.len()
    }

    pub fn is_empty(&self) -> bool {
        self.idx.is_empty()
    }

    /// The pairs at the given indices (in that order).
    pub fn subset(&self, which: &[usize]) -> Pairs {
        let mut out = Pairs::with_capacity(which.len());
        for &k in which {
            out.idx.push(self.idx[k]);
            out.ours.push(self.ours[k]);
            out.parry64.push(self.parry64[k]);
            out.parry32.push(self.parry32[k]);
        }
        out
    }
}

/// Our pose as a parry3d-f64 pose (same bits).
pub fn to_parry64(p: &Pose3) -> parry3d_f64::math::Pose {
    parry3d_f64::math::Pose::from_parts(p.translation(), p.rotation())
}

/// Our pose as a parry3d (f32) pose.
pub fn to_parry32(p: &Pose3) -> parry3d::math::Pose {
    let t = p.translation().as_vec3();
    let q = p.rotation();
    let q = parry3d::math::Rotation::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32)
        .normalize();
    parry3d::math::Pose::from_parts(t, q)
}

/// One data set: the same shapes for the three libraries and the same pose pairs.
pub struct DataSet<S> {
    pub kind: Kind,
    pub shapes: Vec<S>,
    pub parry64: Vec<Box<dyn parry3d_f64::shape::Shape>>,
    pub parry32: Vec<Box<dyn parry3d::shape::Shape>>,
    pub pairs: Pairs,
    /// Number of hulls regenerated because parry could not build them.
    pub hull_retries: usize,
}

impl<S> DataSet<S> {
    pub fn name(&self) -> String {
        self.kind.name()
    }
}

fn pairs_for(kind: Kind, n: usize) -> Pairs {
    pose_pairs(kind.id(), kind.offset_scale(), n)
}

/// `n` pose pairs of the set with seed id `id` (stream 2), B's centre uniform in the ball of
/// radius `s` about A's (see the crate docs); shape indices uniform in `0..SHAPES`.
pub fn pose_pairs(id: u64, s: f64, n: usize) -> Pairs {
    let mut rng = ChaCha8Rng::seed_from_u64(seed_for_id(id, 2, 0, 0));
    let mut out = Pairs::with_capacity(n);
    for _ in 0..n {
        let ia = rng.gen_range(0..SHAPES as u32);
        let ib = rng.gen_range(0..SHAPES as u32);
        let ta = DVec3::new(
            rng.gen_range(-4.0..4.0),
            rng.gen_range(-4.0..4.0),
            rng.gen_range(-4.0..4.0),
        );
        let qa = uniform_quat(&mut rng);
        let qb = uniform_quat(&mut rng);
        let dir = unit_vector(&mut rng);
        let u: f64 = rng.gen();
        let tb = ta + dir * (s * u.cbrt());
        let pa = Pose3::new(ta, qa).expect("valid pose");
        let pb = Pose3::new(tb, qb).expect("valid pose");
        out.push(ia, ib, pa, pb);
    }
    out
}

/// The `hullN` set: 64 hulls of `n` points uniform on the unit sphere, [`PAIRS`] pairs.
pub fn hull_set(n: usize) -> DataSet<Points<DVec3>> {
    hull_set_with_pairs(n, PAIRS)
}

/// [`hull_set`] with a custom number of pairs (the first `pairs` pairs of the full set).
pub fn hull_set_with_pairs(n: usize, pairs: usize) -> DataSet<Points<DVec3>> {
    let kind = Kind::Hull(n);
    let mut shapes = Vec::with_capacity(SHAPES);
    let mut parry64: Vec<Box<dyn parry3d_f64::shape::Shape>> = Vec::with_capacity(SHAPES);
    let mut parry32: Vec<Box<dyn parry3d::shape::Shape>> = Vec::with_capacity(SHAPES);
    let mut retries = 0;
    for i in 0..SHAPES {
        let mut attempt = 0;
        loop {
            let mut rng = ChaCha8Rng::seed_from_u64(seed_for(kind, 1, i as u64, attempt));
            let pts: Vec<DVec3> = (0..n).map(|_| unit_vector(&mut rng)).collect();
            let pts32: Vec<glam::Vec3> = pts.iter().map(|p| p.as_vec3()).collect();
            let h64 = parry3d_f64::shape::ConvexPolyhedron::from_convex_hull(&pts);
            let h32 = parry3d::shape::ConvexPolyhedron::from_convex_hull(&pts32);
            match (h64, h32) {
                (Some(h64), Some(h32)) => {
                    shapes.push(Points::new(&pts).expect("finite points"));
                    parry64.push(Box::new(h64));
                    parry32.push(Box::new(h32));
                    break;
                }
                _ => {
                    retries += 1;
                    attempt += 1;
                    assert!(
                        attempt < 100,
                        "parry cannot build hull {i} of {}",
                        kind.name()
                    );
                }
            }
        }
    }
    DataSet {
        kind,
        shapes,
        parry64,
        parry32,
        pairs: pairs_for(kind, pairs),
        hull_retries: retries,
    }
}

/// The `box` set: half extents uniform in [0.3, 1], [`PAIRS`] pairs.
pub fn box_set() -> DataSet<Cuboid<DVec3>> {
    box_set_with_pairs(PAIRS)
}

/// [`box_set`] with a custom number of pairs.
pub fn box_set_with_pairs(pairs: usize) -> DataSet<Cuboid<DVec3>> {
    primitive_set(Kind::Box, pairs, |rng| {
        let h = DVec3::new(
            rng.gen_range(0.3..=1.0),
            rng.gen_range(0.3..=1.0),
            rng.gen_range(0.3..=1.0),
        );
        (
            Cuboid::new(h).expect("valid box"),
            Box::new(parry3d_f64::shape::Cuboid::new(h)),
            Box::new(parry3d::shape::Cuboid::new(h.as_vec3())),
        )
    })
}

/// The `sphere` set: radius uniform in [0.3, 1], [`PAIRS`] pairs.
pub fn sphere_set() -> DataSet<Ball<DVec3>> {
    sphere_set_with_pairs(PAIRS)
}

/// [`sphere_set`] with a custom number of pairs.
pub fn sphere_set_with_pairs(pairs: usize) -> DataSet<Ball<DVec3>> {
    primitive_set(Kind::Sphere, pairs, |rng| {
        let r: f64 = rng.gen_range(0.3..=1.0);
        (
            Ball::new(r).expect("valid ball"),
            Box::new(parry3d_f64::shape::Ball::new(r)),
            Box::new(parry3d::shape::Ball::new(r as f32)),
        )
    })
}

/// A set of [`SHAPES`] primitives, each made by `make` from its own seeded generator, in our
/// form and parry's two, with `pairs` pose pairs.
fn primitive_set<S>(
    kind: Kind,
    pairs: usize,
    make: impl Fn(
        &mut ChaCha8Rng,
    ) -> (
        S,
        Box<dyn parry3d_f64::shape::Shape>,
        Box<dyn parry3d::shape::Shape>,
    ),
) -> DataSet<S> {
    let mut shapes = Vec::with_capacity(SHAPES);
    let mut parry64 = Vec::with_capacity(SHAPES);
    let mut parry32 = Vec::with_capacity(SHAPES);
    for i in 0..SHAPES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed_for(kind, 1, i as u64, 0));
        let (ours, p64, p32) = make(&mut rng);
        shapes.push(ours);
        parry64.push(p64);
        parry32.push(p32);
    }
    DataSet {
        kind,
        shapes,
        parry64,
        parry32,
        pairs: pairs_for(kind, pairs),
        hull_retries: 0,
    }
}

/// Untimed statistics of a data set, recorded next to the timings.
#[derive(Clone, Debug)]
pub struct SetStats {
    pub name: String,
    pub pairs: usize,
    /// Fraction of pairs our GJK boolean query proves intersecting.
    pub overlap_fraction: f64,
    /// Pairs whose boolean verdict was undetermined.
    pub undetermined: usize,
    /// Average GJK iterations (= support calls) of the distance query, all pairs.
    pub avg_iters_distance: f64,
    /// Average GJK iterations of the boolean query, all pairs.
    pub avg_iters_boolean: f64,
    /// Average GJK + EPA iterations of the penetration query, overlapping pairs.
    pub avg_iters_penetration: f64,
    /// max |d_ours − d_parry64| over all pairs (distances clamped at 0).
    pub max_diff_distance_parry64: f64,
    /// The pair where it occurs.
    pub worst_pair_parry64: usize,
    /// max |d_ours − d_parry32| over all pairs.
    pub max_diff_distance_parry32: f64,
    /// Pairs where our boolean verdict and parry-f64's `intersection_test` differ.
    pub boolean_mismatches_parry64: usize,
    /// max |depth_ours − depth_parry64| over overlapping pairs (parry `contact`, prediction 0;
    /// pairs for which parry returns no contact are skipped and counted).
    pub max_diff_depth_parry64: f64,
    pub no_contact_parry64: usize,
    /// Depth quality, judged with exact support functions: for a unit normal `n` (A toward
    /// B) the overlap of the shapes' projections, `max_A n·x − min_B n·y`, is the translation
    /// along `n` that separates them, so it is ≥ the true depth, with equality at the optimal
    /// normal. `max(overlap(n_ours) − overlap(n_parry))` > 0 means parry found a shallower
    /// separating direction than we did on some pair (our depth is too large there) …
    pub max_excess_ours_over_parry64: f64,
    /// … and `max(overlap(n_parry) − overlap(n_ours))` > 0 means we found a shallower one.
    pub max_excess_parry64_over_ours: f64,
    /// Self-consistency: max |depth − overlap(normal)| of our answer and of parry's.
    pub max_inconsistency_ours: f64,
    pub max_inconsistency_parry64: f64,
    /// Our max |depth − overlap(normal)| over the penetration results with status
    /// `Converged` only.
    pub max_inconsistency_ours_converged: f64,
    /// Status counts of our queries: `[converged, iteration_limit, degenerate or other]` (GJK
    /// and EPA report only the first three statuses).
    pub status_distance: [usize; 3],
    pub status_penetration: [usize; 3],
    pub hull_retries: usize,
}

fn status_slot(s: convexity::Status) -> usize {
    match s {
        convexity::Status::Converged => 0,
        convexity::Status::IterationLimit => 1,
        _ => 2,
    }
}

impl SetStats {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "pairs": self.pairs,
            "overlap_fraction": self.overlap_fraction,
            "undetermined": self.undetermined,
            "avg_iters_distance": self.avg_iters_distance,
            "avg_iters_boolean": self.avg_iters_boolean,
            "avg_iters_penetration": self.avg_iters_penetration,
            "max_diff_distance_parry64": self.max_diff_distance_parry64,
            "worst_pair_parry64": self.worst_pair_parry64,
            "max_diff_distance_parry32": self.max_diff_distance_parry32,
            "boolean_mismatches_parry64": self.boolean_mismatches_parry64,
            "max_diff_depth_parry64": self.max_diff_depth_parry64,
            "no_contact_parry64": self.no_contact_parry64,
            "max_excess_ours_over_parry64": self.max_excess_ours_over_parry64,
            "max_excess_parry64_over_ours": self.max_excess_parry64_over_ours,
            "max_inconsistency_ours": self.max_inconsistency_ours,
            "max_inconsistency_parry64": self.max_inconsistency_parry64,
            "max_inconsistency_ours_converged": self.max_inconsistency_ours_converged,
            "status_distance": self.status_distance,
            "status_penetration": self.status_penetration,
            "hull_retries": self.hull_retries,
        })
    }
}

/// Indices of the pairs our GJK boolean query proves intersecting.
pub fn overlapping<S: SupportMap<DVec3>>(set: &DataSet<S>) -> Vec<usize> {
    let opts = gjk::Options::default();
    (0..set.pairs.len())
        .filter(|&k| {
            let (ia, ib) = set.pairs.idx[k];
            let (pa, pb) = &set.pairs.ours[k];
            let r = gjk::intersects(
                &set.shapes[ia as usize],
                pa,
                &set.shapes[ib as usize],
                pb,
                &opts,
                None,
            );
            r.intersecting() == Some(true)
        })
        .collect()
}

/// Runs every query once on every pair (untimed) and compares with parry.
pub fn stats<S: SupportMap<DVec3>>(set: &DataSet<S>) -> SetStats {
    let opts = gjk::Options::default();
    let eopts = epa::Options::default();
    let mut ctx = epa::Context::new();
    let n = set.pairs.len();
    let mut st = SetStats {
        name: set.name(),
        pairs: n,
        overlap_fraction: 0.0,
        undetermined: 0,
        avg_iters_distance: 0.0,
        avg_iters_boolean: 0.0,
        avg_iters_penetration: 0.0,
        max_diff_distance_parry64: 0.0,
        worst_pair_parry64: 0,
        max_diff_distance_parry32: 0.0,
        boolean_mismatches_parry64: 0,
        max_diff_depth_parry64: 0.0,
        no_contact_parry64: 0,
        max_excess_ours_over_parry64: 0.0,
        max_excess_parry64_over_ours: 0.0,
        max_inconsistency_ours: 0.0,
        max_inconsistency_parry64: 0.0,
        max_inconsistency_ours_converged: 0.0,
        status_distance: [0; 3],
        status_penetration: [0; 3],
        hull_retries: set.hull_retries,
    };
    let (mut it_d, mut it_b, mut it_p) = (0u64, 0u64, 0u64);
    let mut hits = 0usize;
    for k in 0..n {
        let (ia, ib) = set.pairs.idx[k];
        let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
        let (pa, pb) = &set.pairs.ours[k];
        let (qa, qb) = &set.pairs.parry64[k];
        let (ra, rb) = &set.pairs.parry32[k];
        let (a64, b64) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
        let (a32, b32) = (&*set.parry32[ia as usize], &*set.parry32[ib as usize]);

        let d = gjk::distance(a, pa, b, pb, &opts, None);
        it_d += d.iterations as u64;
        st.status_distance[status_slot(d.status)] += 1;
        let ours = if d.intersecting() == Some(true) {
            0.0
        } else {
            d.distance
        };
        let p64 = parry3d_f64::query::distance(qa, a64, qb, b64).expect("supported");
        let diff = (ours - p64.distance.max(0.0)).abs();
        if diff > st.max_diff_distance_parry64 {
            st.max_diff_distance_parry64 = diff;
            st.worst_pair_parry64 = k;
        }
        let p32 = parry3d::query::distance(ra, a32, rb, b32).expect("supported");
        st.max_diff_distance_parry32 = st
            .max_diff_distance_parry32
            .max((ours - (p32.distance as f64).max(0.0)).abs());

        let bo = gjk::intersects(a, pa, b, pb, &opts, None);
        it_b += bo.iterations as u64;
        let hit = match bo.intersecting() {
            Some(h) => h,
            None => {
                st.undetermined += 1;
                false
            }
        };
        let pi = parry3d_f64::query::intersection_test(qa, a64, qb, b64)
            .expect("supported")
            .intersecting;
        if bo.intersecting().is_some() && pi != hit {
            st.boolean_mismatches_parry64 += 1;
        }
        if hit {
            hits += 1;
            let p = epa::penetration(a, pa, b, pb, &eopts, &mut ctx);
            it_p += p.iterations as u64;
            st.status_penetration[status_slot(p.status)] += 1;
            match parry3d_f64::query::contact(qa, a64, qb, b64, 0.0).expect("supported") {
                Some(c) => {
                    let diff = (p.depth - (-c.dist)).abs();
                    st.max_diff_depth_parry64 = st.max_diff_depth_parry64.max(diff);
                    let ov_ours = projection_overlap(a, pa, b, pb, p.normal);
                    let ov_parry = projection_overlap(a, pa, b, pb, c.normal1);
                    st.max_excess_ours_over_parry64 =
                        st.max_excess_ours_over_parry64.max(ov_ours - ov_parry);
                    st.max_excess_parry64_over_ours =
                        st.max_excess_parry64_over_ours.max(ov_parry - ov_ours);
                    st.max_inconsistency_ours =
                        st.max_inconsistency_ours.max((p.depth - ov_ours).abs());
                    if p.status == convexity::Status::Converged {
                        st.max_inconsistency_ours_converged = st
                            .max_inconsistency_ours_converged
                            .max((p.depth - ov_ours).abs());
                    }
                    st.max_inconsistency_parry64 =
                        st.max_inconsistency_parry64.max((-c.dist - ov_parry).abs());
                }
                None => st.no_contact_parry64 += 1,
            }
        }
    }
    st.overlap_fraction = hits as f64 / n.max(1) as f64;
    st.avg_iters_distance = it_d as f64 / n.max(1) as f64;
    st.avg_iters_boolean = it_b as f64 / n.max(1) as f64;
    st.avg_iters_penetration = it_p as f64 / hits.max(1) as f64;
    st
}

/// The three timed queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Query {
    /// convexity `gjk::distance` / parry `query::distance`.
    Distance,
    /// convexity `gjk::intersects` / parry `query::intersection_test`.
    Boolean,
    /// convexity `epa::penetration` / parry `query::contact(.., prediction 0)`.
    Penetration,
}

impl Query {
    pub const ALL: [Query; 3] = [Query::Distance, Query::Boolean, Query::Penetration];

    pub fn name(self) -> &'static str {
        match self {
            Query::Distance => "distance",
            Query::Boolean => "boolean",
            Query::Penetration => "penetration",
        }
    }
}

/// Runs `query` with convexity on pair `k` (default options); returns a number derived from the
/// answer so that callers can keep it alive (distance, 0/1, or depth).
#[inline]
pub fn run_ours<S: SupportMap<DVec3>>(
    set: &DataSet<S>,
    pairs: &Pairs,
    query: Query,
    k: usize,
    ctx: &mut epa::Context<DVec3>,
) -> f64 {
    let (ia, ib) = pairs.idx[k];
    let (a, b) = (&set.shapes[ia as usize], &set.shapes[ib as usize]);
    let (pa, pb) = &pairs.ours[k];
    match query {
        Query::Distance => gjk::distance(a, pa, b, pb, &gjk::Options::default(), None).distance,
        Query::Boolean => {
            let r = gjk::intersects(a, pa, b, pb, &gjk::Options::default(), None);
            checksum_of(r.intersecting() == Some(true))
        }
        Query::Penetration => epa::penetration(a, pa, b, pb, &epa::Options::default(), ctx).depth,
    }
}

/// A boolean answer as the checksum value every timing loop adds up, the same way for every
/// library: through `black_box`, so that the compiler cannot fold the comparison that made the
/// `bool` into a branch on the checksum's `0.0`/`1.0`. Without it our `Option<bool>` test
/// (`== Some(true)`) compiled to a branch, mispredicted on half of a mixed set of pairs (0.50
/// a ball–ball query, callgrind branch-sim), while parry's `bool` field was converted without
/// one: a cost of the harness, not of either library.
#[inline(always)]
pub fn checksum_of(hit: bool) -> f64 {
    f64::from(u8::from(std::hint::black_box(hit)))
}

/// Runs `query` with parry3d-f64 on pair `k`.
#[inline]
pub fn run_parry64<S>(set: &DataSet<S>, pairs: &Pairs, query: Query, k: usize) -> f64 {
    use parry3d_f64::query;
    let (ia, ib) = pairs.idx[k];
    let (a, b) = (&*set.parry64[ia as usize], &*set.parry64[ib as usize]);
    let (pa, pb) = &pairs.parry64[k];
    match query {
        Query::Distance => query::distance(pa, a, pb, b).expect("supported").distance,
        Query::Boolean => checksum_of(
            query::intersection_test(pa, a, pb, b)
                .expect("supported")
                .intersecting,
        ),
        Query::Penetration => query::contact(pa, a, pb, b, 0.0)
            .expect("supported")
            .map_or(0.0, |c| c.dist),
    }
}

/// Runs `query` with parry3d (f32) on pair `k`.
#[inline]
pub fn run_parry32<S>(set: &DataSet<S>, pairs: &Pairs, query: Query, k: usize) -> f64 {
    use parry3d::query;
    let (ia, ib) = pairs.idx[k];
    let (a, b) = (&*set.parry32[ia as usize], &*set.parry32[ib as usize]);
    let (pa, pb) = &pairs.parry32[k];
    (match query {
        Query::Distance => query::distance(pa, a, pb, b).expect("supported").distance,
        Query::Boolean => checksum_of(
            query::intersection_test(pa, a, pb, b)
                .expect("supported")
                .intersecting,
        ) as f32,
        Query::Penetration => query::contact(pa, a, pb, b, 0.0)
            .expect("supported")
            .map_or(0.0, |c| c.dist),
    }) as f64
}

/// Result of an interleaved (paired) timing: medians over rounds.
#[derive(Clone, Debug)]
pub struct Paired {
    pub rounds: usize,
    pub chunk: usize,
    /// Median ns per query of each library over the rounds.
    pub ns_ours: f64,
    pub ns_parry64: f64,
    pub ns_parry32: f64,
    /// Median over rounds of (parry time / our time) on the same chunk in the same round.
    pub ratio_parry64: f64,
    pub ratio_parry32: f64,
}

impl Paired {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "rounds": self.rounds,
            "chunk": self.chunk,
            "ns_ours": self.ns_ours,
            "ns_parry64": self.ns_parry64,
            "ns_parry32": self.ns_parry32,
            "ratio_parry64": self.ratio_parry64,
            "ratio_parry32": self.ratio_parry32,
        })
    }
}

/// Interleaved timing, robust to a machine whose load changes over time (other jobs on
/// shared cores): each round times the same `chunk` consecutive pairs with convexity,
/// parry3d-f64 and parry3d (f32) back to back (the order rotates every round), and the ratio
/// of the round is taken; the medians over rounds are reported. Runs for about `budget`
/// (at least 11 rounds), cycling through `pairs` ([`harness::interleave`]).
pub fn paired<S: SupportMap<DVec3>>(
    set: &DataSet<S>,
    pairs: &Pairs,
    query: Query,
    chunk: usize,
    budget: std::time::Duration,
) -> Paired {
    let mut ctx = epa::Context::new();
    let mut comps: Vec<harness::Competitor<'_>> = vec![
        (
            "convexity",
            Box::new(|k| run_ours(set, pairs, query, k, &mut ctx)),
        ),
        (
            "parry3d-f64",
            Box::new(|k| run_parry64(set, pairs, query, k)),
        ),
        (
            "parry3d-f32",
            Box::new(|k| run_parry32(set, pairs, query, k)),
        ),
    ];
    let stop = harness::Stop {
        min_rounds: 11,
        budget,
    };
    let r = harness::interleave(pairs.len(), chunk, stop, true, &mut comps);
    Paired {
        rounds: r.rounds,
        chunk,
        ns_ours: r.ns[0],
        ns_parry64: r.ns[1],
        ns_parry32: r.ns[2],
        ratio_parry64: r.ratio[1],
        ratio_parry32: r.ratio[2],
    }
}

/// `max_{x∈A} n·x − min_{y∈B} n·y` for a world-frame direction `n` (normalised here): how far
/// B must move along `n` to separate from A. Exact, from the support functions.
pub fn projection_overlap<S: SupportMap<DVec3>>(
    a: &S,
    pose_a: &Pose3,
    b: &S,
    pose_b: &Pose3,
    n: DVec3,
) -> f64 {
    let n = n.normalize_or(DVec3::X);
    let ha = n.dot(pose_a.transform_point(a.support(pose_a.inverse_transform_vector(n))));
    let lb = n.dot(pose_b.transform_point(b.support(pose_b.inverse_transform_vector(-n))));
    ha - lb
}

/// A coherent trajectory for the warm-start benchmark: B orbits A in small steps.
#[derive(Clone, Debug)]
pub struct Trajectory {
    pub idx: (u32, u32),
    pub poses: Vec<(Pose3, Pose3)>,
}

/// `count` closed (periodic) trajectories of `steps` poses each for a set.
///
/// A stays at a random pose; B's centre circles A's once per period in a random plane at a
/// distance oscillating (4 periods per circle) between `0.55 s` and `1.05 s` (`s` the set's
/// offset scale), so B alternately overlaps and separates, and B spins twice about a random
/// axis. With 1000 steps a step moves B by about 0.006 s and turns it by 0.0126 rad. The last
/// pose joins the first smoothly, so a trajectory can be replayed cyclically.
pub fn trajectories(kind: Kind, count: usize, steps: usize) -> Vec<Trajectory> {
    let s = kind.offset_scale();
    let tau = std::f64::consts::TAU;
    (0..count)
        .map(|t| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed_for(kind, 3, t as u64, 0));
            let ia = rng.gen_range(0..SHAPES as u32);
            let ib = rng.gen_range(0..SHAPES as u32);
            let ta = DVec3::new(
                rng.gen_range(-4.0..4.0),
                rng.gen_range(-4.0..4.0),
                rng.gen_range(-4.0..4.0),
            );
            let qa = uniform_quat(&mut rng);
            let qb = uniform_quat(&mut rng);
            let n = unit_vector(&mut rng);
            let u = n.any_orthonormal_vector();
            let v = n.cross(u);
            let spin = unit_vector(&mut rng);
            let pa = Pose3::new(ta, qa).expect("valid pose");
            let poses = (0..steps)
                .map(|k| {
                    let f = k as f64 / steps as f64;
                    let th = tau * f;
                    let rho = s * (0.8 + 0.25 * (4.0 * th).sin());
                    let tb = ta + (u * th.cos() + v * th.sin()) * rho;
                    let q = (DQuat::from_axis_angle(spin, 2.0 * th) * qb).normalize();
                    (pa, Pose3::new(tb, q).expect("valid pose"))
                })
                .collect();
            Trajectory {
                idx: (ia, ib),
                poses,
            }
        })
        .collect()
}

/// Where the bench targets write their untimed statistics: `<workspace>/bench-results/raw`.
pub fn raw_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results/raw")
}

/// Writes `value` as pretty JSON to `raw_dir()/file`, creating the directory.
pub fn write_raw(file: &str, value: &serde_json::Value) {
    let dir = raw_dir();
    std::fs::create_dir_all(&dir).expect("create bench-results/raw");
    let text = serde_json::to_string_pretty(value).expect("json");
    std::fs::write(dir.join(file), text + "\n").expect("write raw stats");
}

/// Random unit directions for support-call benchmarks.
pub fn directions(count: usize, seed: u64) -> Vec<DVec3> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| unit_vector(&mut rng)).collect()
}

/// `n` points uniform on the unit sphere (the support-layout benchmark's clouds).
pub fn sphere_points(n: usize, seed: u64) -> Vec<DVec3> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| unit_vector(&mut rng)).collect()
}

/// A pose as the batch API's raw row: translation xyz, then the quaternion xyzw.
pub fn raw_pose(p: &Pose3) -> [f64; 7] {
    let t = p.translation();
    let q = p.rotation();
    [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
}

/// Owned output slices for `convexity::batch::distance` over `n` rows.
pub struct BatchDistanceBuffers {
    pub distance: Vec<f64>,
    pub point_a: Vec<DVec3>,
    pub point_b: Vec<DVec3>,
    pub normal: Vec<DVec3>,
    pub status: Vec<convexity::Status>,
    pub iterations: Vec<u32>,
    pub verdict: Vec<convexity::Verdict<DVec3>>,
    pub error: Vec<Option<convexity::InputError>>,
}

impl BatchDistanceBuffers {
    /// Buffers for `n` rows.
    pub fn new(n: usize) -> Self {
        BatchDistanceBuffers {
            distance: vec![0.0; n],
            point_a: vec![DVec3::ZERO; n],
            point_b: vec![DVec3::ZERO; n],
            normal: vec![DVec3::ZERO; n],
            status: vec![convexity::Status::Converged; n],
            iterations: vec![0; n],
            verdict: vec![convexity::Verdict::Undetermined; n],
            error: vec![None; n],
        }
    }

    /// The slices a batch call writes into.
    pub fn out(&mut self) -> convexity::batch::DistanceOut<'_, DVec3> {
        convexity::batch::DistanceOut {
            distance: &mut self.distance,
            point_a: &mut self.point_a,
            point_b: &mut self.point_b,
            normal: &mut self.normal,
            status: &mut self.status,
            iterations: &mut self.iterations,
            verdict: &mut self.verdict,
            error: &mut self.error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs used by the overlap test: enough for ±1 % sampling error, cheap in a test build.
    const SAMPLE: usize = 20_000;

    #[test]
    fn counts() {
        let h = hull_set(8);
        assert_eq!(h.shapes.len(), SHAPES);
        assert_eq!(h.parry64.len(), SHAPES);
        assert_eq!(h.parry32.len(), SHAPES);
        assert_eq!(h.pairs.len(), PAIRS);
        assert_eq!(h.pairs.ours.len(), PAIRS);
        assert_eq!(h.pairs.parry64.len(), PAIRS);
        assert_eq!(h.pairs.parry32.len(), PAIRS);
        assert!(h.shapes.iter().all(|s| s.len() == 8));
        let b = box_set();
        assert_eq!((b.shapes.len(), b.pairs.len()), (SHAPES, PAIRS));
        let s = sphere_set();
        assert_eq!((s.shapes.len(), s.pairs.len()), (SHAPES, PAIRS));
        assert!(s.shapes.iter().all(|b| (0.3..=1.0).contains(&b.radius())));
        assert!(b.shapes.iter().all(|c| {
            let h = c.half_extents();
            h.min_element() >= 0.3 && h.max_element() <= 1.0
        }));
    }

    #[test]
    fn poses_are_identical_across_libraries() {
        let s = box_set_with_pairs(1000);
        for k in 0..1000 {
            let (pa, pb) = &s.pairs.ours[k];
            let (qa, qb) = &s.pairs.parry64[k];
            assert_eq!(pa.translation(), qa.translation);
            assert_eq!(pa.rotation(), qa.rotation);
            assert_eq!(pb.translation(), qb.translation);
            assert_eq!(pb.rotation(), qb.rotation);
        }
    }

    #[test]
    fn deterministic() {
        let a = hull_set_with_pairs(32, 500);
        let b = hull_set_with_pairs(32, 500);
        for (x, y) in a.shapes.iter().zip(&b.shapes) {
            assert_eq!(x.points(), y.points());
        }
        assert_eq!(a.pairs.idx, b.pairs.idx);
        assert_eq!(a.pairs.ours, b.pairs.ours);
        let c = sphere_set_with_pairs(500);
        let d = sphere_set_with_pairs(500);
        assert_eq!(c.pairs.ours, d.pairs.ours);
        let ta = trajectories(Kind::Box, 2, 100);
        let tb = trajectories(Kind::Box, 2, 100);
        assert_eq!(ta[1].poses, tb[1].poses);
        // Different sets draw from different streams.
        assert_ne!(
            hull_set_with_pairs(8, 10).pairs.ours,
            box_set_with_pairs(10).pairs.ours
        );
    }

    fn check_fraction<S: SupportMap<DVec3>>(set: &DataSet<S>) {
        let f = overlapping(set).len() as f64 / set.pairs.len() as f64;
        println!("{}: overlap fraction {f:.3}", set.name());
        assert!((0.4..=0.6).contains(&f), "{}: {f}", set.name());
    }

    #[test]
    fn overlap_fraction_is_about_half() {
        for n in HULL_SIZES {
            check_fraction(&hull_set_with_pairs(n, SAMPLE));
        }
        check_fraction(&box_set_with_pairs(SAMPLE));
        check_fraction(&sphere_set_with_pairs(SAMPLE));
    }

    #[test]
    fn trajectories_are_coherent_and_mixed() {
        let opts = gjk::Options::default();
        let set = box_set_with_pairs(1);
        for t in trajectories(Kind::Box, 4, 1000) {
            let (a, b) = (&set.shapes[t.idx.0 as usize], &set.shapes[t.idx.1 as usize]);
            let mut hits = 0;
            for w in t.poses.windows(2) {
                let step = (w[1].1.translation() - w[0].1.translation()).length();
                assert!(step < 0.02, "step {step}");
            }
            for (pa, pb) in &t.poses {
                if gjk::intersects(a, pa, b, pb, &opts, None).intersecting() == Some(true) {
                    hits += 1;
                }
            }
            assert!(hits > 0 && hits < 1000, "hits {hits}");
        }
    }
}
