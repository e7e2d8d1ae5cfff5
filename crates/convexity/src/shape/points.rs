//! `Points`: the convex hull of a finite point set, represented by its points.
//!
//! By default the hull is never built; the support function scans every point (O(n) per
//! call). Points are also stored structure-of-arrays in chunks of four (`V::Lanes`), padded
//! with copies of the last point (a set of up to 64 points to the chunk count its scan reads),
//! so the scan of a large set is four independent lanes of multiply-add and compare-select
//! that the compiler vectorises. Measurements decide which scan runs (see `AOS_MAX_POINTS`):
//! up to 64 points every chunk's dot products, their maximum and the first index attaining
//! it, with no data-dependent branch (3D on x86-64, `math::wide_scan`: inlined SSE2 up to 8
//! points, AVX2 from 9 when the CPU has it; otherwise the portable version up to 32 points
//! and the plain array-of-structures loop from 33 to 64); the chunked scan with a
//! best-chunk branch beyond. All return the first index of the maximum, so they agree bit for
//! bit.
//!
//! Support index (opt-in, [`Points::with_hull_index`], 3D sets of more than 64 points): the
//! hull is built once and support queries read its cell map of candidate vertices
//! ([`crate::hull::hill_climb::HullSupport`]) or scan its vertices alone. Callgrind
//! (`profile_driver ptsN` / `idxN distance`, points on a sphere, instructions per query):
//! 128 points 19,068 → 8,548; 1024 points 112,088 → 8,696; 4000 points 428,500 → 9,054 (the
//! same hulls as `ConvexPolyhedron`: 8,431 and 8,581). Opt-in because the build costs as much
//! as several hundred to a few thousand queries (bench-results/python.md: 0.7 ms at 256
//! points, 4.6 ms at 1,024, 15 ms at 4,096), which a shape used once never earns back.
//!
//! Preconditions: at least one point, all coordinates finite (checked by the constructors).
//! Duplicates, collinear and coplanar sets are all valid hulls.

use super::SupportMap;
use crate::error::{InputError, Problem};
use crate::math::vector::Vector;
use std::sync::Arc;

/// A faster support function for a point set, answering for the set's hull: the point it
/// returns is one of the set's and its value is the scan's maximum to within the index's own
/// stated tolerance. Built by the hull module ([`Points::with_hull_index`], 3D); a trait so
/// that the shape floor does not depend on the hull floor above it.
pub(crate) trait SupportIndex<V>: Send + Sync + core::fmt::Debug {
    /// A point of the set maximising `dir · x` (to the index's tolerance).
    fn support(&self, dir: V) -> V;
    /// Starts fetching what [`SupportIndex::support`] along `dir` will read (a hint).
    fn prefetch(&self, _dir: V) {}
    /// The number of points the queries read (the hull's vertices).
    fn num_vertices(&self) -> usize;
}

/// The convex hull of a finite, non-empty point set (2D or 3D), as a closed shape in its local
/// frame. Its support function scans the points (or, after [`Points::with_hull_index`],
/// climbs their hull). For the faces, use [`crate::hull`].
///
/// ```
/// use convexity::{DVec3, Points};
///
/// // A tetrahedron; the duplicate corner is harmless.
/// let tet = Points::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::Z])?;
/// assert_eq!(tet.len(), 5);
/// // An empty set is rejected, naming the field.
/// assert_eq!(Points::<DVec3>::new(&[]).unwrap_err().field, "points");
/// # Ok::<(), convexity::InputError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Points<V: Vector> {
    points: Vec<V>,
    lanes: Vec<V::Lanes>,
    center: V,
    size: f64,
    radius: f64,
    /// A support index ([`Points::with_hull_index`]), shared by clones.
    hull: Option<Arc<dyn SupportIndex<V>>>,
}

impl<V: Vector> Points<V> {
    /// A hull from its points. Errors on an empty set or a non-finite coordinate, naming
    /// `points[i][k]`.
    pub fn new(points: &[V]) -> Result<Self, InputError> {
        if points.is_empty() {
            return Err(InputError::new("points", Problem::Empty));
        }
        for (i, p) in points.iter().enumerate() {
            if !p.is_finite() || p.max_abs() > crate::error::MAX_MAGNITUDE {
                crate::math::vector::finite_vec(&format!("points[{i}]"), *p)?;
            }
        }
        // The vertex centroid lies in the hull (the bounding-box centre need not: for the
        // triangle X, Y, Z it is 0.29 outside), and `center` promises a point of the shape.
        let mut sum = V::ZERO;
        for p in points {
            sum += *p - points[0];
        }
        let center = points[0] + sum * (1.0 / points.len() as f64);
        let size = points
            .iter()
            .map(|p| (*p - center).length())
            .fold(0.0, f64::max);
        let radius = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        let last = points[points.len() - 1];
        let mut lanes: Vec<V::Lanes> = points
            .chunks(4)
            .map(|c| {
                let mut q = [last; 4];
                q[..c.len()].copy_from_slice(c);
                V::pack(q)
            })
            .collect();
        // A small set's scan reads a fixed number of chunks (`support_index_any`): padded to
        // it with copies of the last point (higher indices, so never the first maximum), the
        // scan reads them in place instead of clamping each chunk index.
        lanes.resize(
            scan_chunks(points.len()).max(lanes.len()),
            V::pack([last; 4]),
        );
        Ok(Points {
            points: points.to_vec(),
            lanes,
            center,
            size,
            radius,
            hull: None,
        })
    }

    /// A hull from rows of coordinates, as read from JSON or CSV. Every row must have `V::DIM`
    /// coordinates; the error names the row (`points[i]`) or the coordinate (`points[i][k]`).
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Self, InputError> {
        let mut pts = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let r = r.as_ref();
            let v = V::from_slice(r).ok_or_else(|| {
                InputError::new(
                    format!("points[{i}]"),
                    Problem::DimensionMismatch {
                        expected: V::DIM,
                        found: r.len(),
                    },
                )
            })?;
            pts.push(v);
        }
        Self::new(&pts)
    }

    /// The same set with `index` answering its support queries (see [`SupportIndex`]; the
    /// hull module's [`Points::with_hull_index`] builds one).
    pub(crate) fn with_support_index(mut self, index: Arc<dyn SupportIndex<V>>) -> Self {
        self.hull = Some(index);
        self
    }

    /// The number of hull vertices the support queries read when the set has an index
    /// ([`Points::with_hull_index`]); `None` without one.
    pub fn hull_index_vertices(&self) -> Option<usize> {
        self.hull.as_deref().map(|h| h.num_vertices())
    }

    /// The points as given (local frame, duplicates kept).
    pub fn points(&self) -> &[V] {
        &self.points
    }

    /// Number of points (at least 1; duplicates count).
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Always false: an empty set is rejected at construction.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Index of a point maximising `dir·x` (the first of the lane-wise maxima; ties keep the
    /// lowest chunk within each lane).
    #[inline]
    pub fn support_index(&self, dir: V) -> usize {
        // Each chunk of four is reduced to its maximum (vertical multiply-adds, then two
        // compare-selects that compile to `maxpd`); only the best chunk index is carried, through
        // a branch that is rarely taken once a good candidate is found. The winning lane is
        // resolved once at the end by recomputing that chunk's four dot products (bit-identical).
        let mut best = f64::NEG_INFINITY;
        let mut best_chunk = 0;
        for (c, lane) in self.lanes.iter().enumerate() {
            let d = V::dot4(lane, dir);
            let m01 = if d[0] > d[1] { d[0] } else { d[1] };
            let m23 = if d[2] > d[3] { d[2] } else { d[3] };
            let m = if m01 > m23 { m01 } else { m23 };
            if m > best {
                best = m;
                best_chunk = c;
            }
        }
        let d = match self.lanes.get(best_chunk) {
            Some(lane) => V::dot4(lane, dir),
            None => return 0,
        };
        let mut k = 0;
        for j in 1..4 {
            if d[j] > d[k] {
                k = j;
            }
        }
        (best_chunk * 4 + k).min(self.points.len() - 1)
    }

    /// The scan of a set of at most `4·C` points: every chunk's dot products, their maximum,
    /// and the first index that attains it (bit-identical to [`Points::support_index_aos`]: the
    /// same products, and the first of equal maxima). No data-dependent branch: a small set's
    /// scan is short enough that the AoS loop's mispredicted "new best" branches dominate it.
    #[inline]
    fn support_index_chunks<const C: usize>(&self, dir: V) -> usize {
        let mask = match V::max_mask_wide::<C>(&self.lanes, dir) {
            Some(mask) => mask,
            None => self.max_mask_portable::<C>(dir),
        };
        self.first_of(mask)
    }

    /// The point of the lowest bit of a first-maximum mask.
    #[inline(always)]
    fn first_of(&self, mask: u64) -> usize {
        // No lane equals the maximum only when a product is NaN; the AoS scan then answers 0.
        if mask == 0 {
            return 0;
        }
        (mask.trailing_zeros() as usize).min(self.points.len() - 1)
    }

    /// The mask of the chunked scan (bit `4c + k`: point `k` of chunk `c` attains the maximum)
    /// in portable code; [`Vector::max_mask_wide`] computes the same bits on AVX2.
    #[inline(always)]
    fn max_mask_portable<const C: usize>(&self, dir: V) -> u64 {
        let Some(last) = self.lanes.last() else {
            return 0;
        };
        // Chunks past the end repeat the last one: higher indices, so never the first maximum.
        let mut d = [[0.0; 4]; C];
        for (c, dc) in d.iter_mut().enumerate() {
            *dc = V::dot4(self.lanes.get(c).unwrap_or(last), dir);
        }
        crate::math::wide_scan::max_mask_of(&d)
    }

    /// The array-of-structures scan: faster for small sets (see `AOS_MAX_POINTS`), and the
    /// layout benchmark's reference.
    pub fn support_index_aos(&self, dir: V) -> usize {
        let mut best = f64::NEG_INFINITY;
        let mut idx = 0;
        for (i, p) in self.points.iter().enumerate() {
            let d = p.dot(dir);
            if d > best {
                best = d;
                idx = i;
            }
        }
        idx
    }
}

/// Up to this many points the plain array-of-structures scan beats the four-lane scan with a
/// data-dependent best-chunk branch (`support_index`): `bench support` measured AoS/SoA at 0.56×
/// for 8 points and 0.79× for 32, 1.20× for 128 and 1.35× for 1024. Up to 32 points the
/// branch-free `support_index_chunks` beats both: callgrind 5,046 → 4,794 instructions per hull8
/// distance query and 9,128 → 8,527 per hull32 query; `speed`, parry ÷ ours on hull8
/// (three interleaved runs each, before → after): distance 0.95–0.96 → 1.11–1.13×, boolean
/// 1.02–1.05 → 1.20–1.23×, EPA 1.53–1.55 → 1.62–1.67×; hull32: 0.98 → 1.04–1.05×,
/// 1.25–1.28 → 1.31–1.36×, 1.57 → 1.59–1.65×. (An earlier branch-free attempt that carried a
/// per-lane running index by compare-select cost 7% more instructions and was slower.) The
/// same scan with `wide`'s packed compare and bit mask saved another 9% of instructions but
/// was slower in wall time (store-to-load round trips through the vector type).
///
/// On AVX2 (`math::wide_scan`, chosen at run time) the branch-free chunked scan also covers 9
/// to 64 points: hull32 distance 8,424 → 5,881 instructions, 905 → 839 ns; 40, 48 and 64
/// points (`profile_driver ptsN distance`, medians of 7 interleaved runs) 1,203 → 1,025,
/// 1,181 → 1,062 and 1,316 → 1,022 ns against the AoS loop. Not for 8 points or fewer: the
/// out-of-line AVX2 call made hull8 25% slower than the inlined portable scan; those take the
/// inlined SSE2 kernel (packed compares for the mask: 5–6% fewer instructions per hull8 query).
const AOS_MAX_POINTS: usize = 64;

/// The chunks of four that [`Points::support_index_any`]'s scan reads for a set of `n` points
/// (its `C`), and the count a set is padded to; 0 above [`AOS_MAX_POINTS`], where the scans
/// walk the chunks there are.
#[inline(always)]
fn scan_chunks(n: usize) -> usize {
    match n {
        0..=8 => 2,
        9..=16 => 4,
        17..=32 => 8,
        33..=AOS_MAX_POINTS => 16,
        _ => 0,
    }
}

impl<V: Vector> Points<V> {
    /// Index of a point maximising `dir·x` (the first maximum) by the scan fastest for this
    /// set's size, the one [`SupportMap::core_support`] uses (see `AOS_MAX_POINTS`).
    #[inline]
    pub fn support_index_any(&self, dir: V) -> usize {
        // The scan's chunk count is the padding's (`scan_chunks`, one table for both).
        match scan_chunks(self.points.len()) {
            2 => self.support_index_chunks::<2>(dir),
            4 => self.support_index_chunks::<4>(dir),
            8 => self.support_index_chunks::<8>(dir),
            16 => match V::max_mask_wide::<16>(&self.lanes, dir) {
                Some(mask) => self.first_of(mask),
                None => self.support_index_aos(dir),
            },
            _ => self.support_index(dir),
        }
    }
}

impl<V: Vector> Points<V> {
    /// The support point of a set of more than [`AOS_MAX_POINTS`]: the index's when there is
    /// one, else the chunked scan's. Out of line, so that the small sets' scans stay as small
    /// as they were (inlined, this branch cost hull8 10% more instructions: the Minkowski
    /// support stopped being inlined). With rustc 1.95 GJK no longer inlines the small scans
    /// either (`core_support` is a call); forcing them in saved 0.6–0.9% of hull8 instructions
    /// and no measurable time (round 29), so they stay as the compiler chooses.
    #[inline(never)]
    fn large_support(&self, dir: V) -> V {
        match &self.hull {
            Some(h) => h.support(dir),
            None => self.points[self.support_index_any(dir)],
        }
    }

    #[inline(never)]
    fn large_prefetch(&self, dir: V) {
        if let Some(h) = &self.hull {
            h.prefetch(dir);
        }
    }
}

impl<V: Vector> SupportMap<V> for Points<V> {
    #[inline]
    fn core_support(&self, dir: V) -> V {
        if self.points.len() > AOS_MAX_POINTS {
            return self.large_support(dir);
        }
        self.points[self.support_index_any(dir)]
    }
    #[inline(always)]
    fn prefetch_support(&self, dir: V) {
        if self.points.len() > AOS_MAX_POINTS {
            self.large_prefetch(dir);
        }
    }
    fn center(&self) -> V {
        self.center
    }
    fn size(&self) -> f64 {
        self.size
    }
    fn bounding_radius(&self) -> f64 {
        self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    use crate::math::test_rng::lcg;

    /// The chunked scans (and the scan `core_support` picks by size, up to 64 points) and the
    /// AoS scan pick the same index, ties included: sets of 1 to 64 points with duplicates and
    /// coordinates on a coarse grid (so that many products tie exactly), along random, axis and
    /// zero directions.
    #[test]
    fn chunked_scan_picks_the_first_maximum_like_the_aos_scan() {
        let mut st = 7u64;
        let grid = |st: &mut u64| (lcg(st) * 3.0).round();
        for n in 1..=64usize {
            for trial in 0..40 {
                let mut pts: Vec<DVec3> = (0..n)
                    .map(|_| DVec3::new(grid(&mut st), grid(&mut st), grid(&mut st)))
                    .collect();
                if trial % 3 == 0 && n > 1 {
                    pts[n - 1] = pts[0];
                }
                let p = Points::new(&pts).unwrap();
                let mut dirs = vec![DVec3::X, -DVec3::Y, DVec3::Z, DVec3::ZERO, DVec3::ONE];
                for _ in 0..20 {
                    dirs.push(DVec3::new(lcg(&mut st), lcg(&mut st), lcg(&mut st)));
                    dirs.push(DVec3::new(grid(&mut st), grid(&mut st), grid(&mut st)));
                }
                for d in dirs {
                    let want = p.support_index_aos(d);
                    let got = match n {
                        0..=8 => p.support_index_chunks::<2>(d),
                        9..=16 => p.support_index_chunks::<4>(d),
                        17..=32 => p.support_index_chunks::<8>(d),
                        _ => p.support_index_chunks::<16>(d),
                    };
                    assert_eq!(got, want, "n = {n}, dir = {d:?}");
                    assert_eq!(p.support_index_any(d), want, "n = {n}, dir = {d:?}");
                    assert_eq!(p.core_support(d), pts[want]);
                }
            }
        }
    }

    /// A NaN direction gives index 0 on every path, as the AoS scan does (no product beats
    /// −∞), and the 2D instantiation agrees with its AoS scan.
    #[test]
    fn chunked_scan_kernels_equal_the_portable_mask() {
        // Grid coordinates (exact ties) and, in one set in four, coordinates up to the largest
        // accepted magnitude with directions up to 1e300: products overflow to ±∞ and sums of
        // opposite infinities are NaN, so the kernels' NaN handling (the tree of maxima,
        // ordered equality) is compared too, not only the finite case.
        let mut st = 23u64;
        let mut wide_runs = 0;
        // Counted on x86-64 only (the SSE2 kernel below); `mut` unused elsewhere.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut sse_runs = 0;
        for n in 1..=64usize {
            for trial in 0..60 {
                let (big, dbig) = if trial % 4 == 0 {
                    (crate::error::MAX_MAGNITUDE / 3.0, 1e300)
                } else {
                    (1.0, 1.0)
                };
                let c = |st: &mut u64, s: f64| (lcg(st) * 3.0).round() * s;
                let pts: Vec<DVec3> = (0..n)
                    .map(|_| DVec3::new(c(&mut st, big), c(&mut st, big), c(&mut st, big)))
                    .collect();
                let p = Points::new(&pts).unwrap();
                for _ in 0..20 {
                    let d = DVec3::new(c(&mut st, dbig), lcg(&mut st), c(&mut st, dbig));
                    let masks = [
                        (n <= 8).then(|| {
                            (
                                DVec3::max_mask_wide::<2>(&p.lanes, d),
                                p.max_mask_portable::<2>(d),
                            )
                        }),
                        (n <= 16).then(|| {
                            (
                                DVec3::max_mask_wide::<4>(&p.lanes, d),
                                p.max_mask_portable::<4>(d),
                            )
                        }),
                        (n <= 32).then(|| {
                            (
                                DVec3::max_mask_wide::<8>(&p.lanes, d),
                                p.max_mask_portable::<8>(d),
                            )
                        }),
                        Some((
                            DVec3::max_mask_wide::<16>(&p.lanes, d),
                            p.max_mask_portable::<16>(d),
                        )),
                    ];
                    for (wide, portable) in masks.into_iter().flatten() {
                        if let Some(w) = wide {
                            wide_runs += 1;
                            assert_eq!(w, portable, "n = {n}, dir = {d:?}, points {pts:?}");
                        }
                    }
                    // The SSE2 kernel directly, at every chunk count the set holds (the scan
                    // takes it for `C = 2` only; larger `C` test the same generic code further).
                    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                    {
                        use crate::math::wide_scan::max_mask_sse2;
                        let l = &p.lanes;
                        let sse = [
                            l.first_chunk::<2>()
                                .map(|f| (max_mask_sse2(f, d), p.max_mask_portable::<2>(d))),
                            l.first_chunk::<4>()
                                .map(|f| (max_mask_sse2(f, d), p.max_mask_portable::<4>(d))),
                            l.first_chunk::<8>()
                                .map(|f| (max_mask_sse2(f, d), p.max_mask_portable::<8>(d))),
                            l.first_chunk::<16>()
                                .map(|f| (max_mask_sse2(f, d), p.max_mask_portable::<16>(d))),
                        ];
                        for (s, portable) in sse.into_iter().flatten() {
                            sse_runs += 1;
                            assert_eq!(s, portable, "SSE2, n = {n}, dir = {d:?}, points {pts:?}");
                        }
                    }
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(wide_runs > 80_000, "the AVX2 kernel ran {wide_runs} times");
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        assert!(sse_runs > 100_000, "the SSE2 kernel ran {sse_runs} times");
        let _ = (wide_runs, sse_runs);
    }

    #[test]
    fn chunked_scan_nan_direction_and_2d() {
        let pts: Vec<DVec3> = (0..12).map(|i| DVec3::splat(i as f64)).collect();
        let p = Points::new(&pts).unwrap();
        let nan = DVec3::new(f64::NAN, 1.0, 0.0);
        assert_eq!(p.support_index_aos(nan), 0);
        assert_eq!(p.support_index_chunks::<4>(nan), 0);
        let mut st = 11u64;
        for n in 1..=8usize {
            let pts: Vec<DVec2> = (0..n)
                .map(|_| DVec2::new((lcg(&mut st) * 2.0).round(), lcg(&mut st)))
                .collect();
            let p = Points::new(&pts).unwrap();
            for _ in 0..50 {
                let d = DVec2::new((lcg(&mut st) * 2.0).round(), 0.0);
                assert_eq!(p.support_index_chunks::<2>(d), p.support_index_aos(d));
            }
        }
    }
}
