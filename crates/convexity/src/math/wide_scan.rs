//! The small point-set support scan on vector units: for `4·C` points packed four to a chunk
//! (`[[x0..x3], [y0..y3], [z0..z3]]`), the bit mask of the points whose product with a
//! direction equals the maximum product; on 256-bit AVX2 registers (out of line, chosen at run
//! time) from 9 points on, on inlined 128-bit SSE2 up to 8 points.
//!
//! Why: a default x86-64 build compiles the portable scan (`shape::points`) to SSE2 pairs, and
//! LLVM's SLP vectoriser interleaves them with lane shuffles (about 420 instructions for a
//! 32-point scan). Compiled for AVX2 with explicit 256-bit operations one chunk is three loads,
//! three multiplies, two adds, one `vmaxpd` and one compare. The kernel is chosen at run time
//! (`is_x86_feature_detected!`, cached by std), so a default build uses it without
//! `-C target-cpu`.
//!
//! Bit-identical to the portable scan: the same IEEE products and sums in the same order (no
//! FMA), the same pairwise tree of maxima (`vmaxpd` is `a > b ? a : b`, as the portable
//! compare-select), the same chunks (past the end, the last chunk again), the same ordered
//! equality. `chunked_scan_kernels_equal_the_portable_mask` in `shape::points` checks both
//! kernels.
//!
//! SSE2 up to 8 points: the portable scan's mask tail compiled to a compare, a flag move and a
//! shift per point; packed compares and `movmskpd` do two points at a time (callgrind,
//! `profile_driver hull8` per query: distance 4,680 → 4,429 instructions, boolean 2,943 →
//! 2,768, penetration 13,740 → 13,282; `speed --sets hull8,sphere-hull8 --rounds 9`, four
//! interleaved runs each, parry ÷ ours: hull8 distance 1.30–1.32 → 1.34–1.37×, boolean
//! 1.45–1.51 → 1.49–1.53×, sphere–hull8 distance 0.99–1.01 → 1.04–1.06×).
//!
//! `Points` pads a small set's chunks to the scan's `C`, so the kernel reads them in place;
//! clamping each chunk index to the last chunk (for shorter inputs) cost a compare and a move
//! per chunk, 27 of ~123 instructions of a 32-point scan (callgrind, `profile_driver hull32`
//! per query: boolean 2,968 → 2,770 instructions, distance 5,959 → 5,595, penetration
//! 24,758 → 23,871; 48 points, distance 7,340 → 6,541).
//!
//! Complexity: O(C) vector operations, no data-dependent branch. Preconditions: `lanes` is not
//! empty. Failure modes: none (a NaN product gives a mask without that point, as the portable
//! scan does).

use glam::DVec3;

/// The pairwise tree of maxima over `C` values (`C` a power of two): level by level,
/// `t[i] = max(t[2i], t[2i + 1])`, log₂C dependent steps. Every kernel of this module reduces
/// its products by it, so they combine the same values in the same order.
#[inline(always)]
fn pairwise<T: Copy, const C: usize>(d: &[T; C], max: impl Fn(T, T) -> T) -> T {
    let mut t = *d;
    let mut w = C;
    while w > 1 {
        w /= 2;
        for i in 0..w {
            t[i] = max(t[2 * i], t[2 * i + 1]);
        }
    }
    t[0]
}

/// The portable tail of a scan: given the products `d` (chunk `c`, lane `k`), the bit mask of
/// those equal to the largest (bit `4c + k`), by a pairwise tree of compare-selects
/// (`a > b ? a : b`, log₂C dependent steps; `C` a power of two) and an ordered equality. A NaN
/// product is in no bit; all NaN gives 0. The lowest bit is the first maximum. Shared by
/// `Points`' portable scan and the cell map's four candidates (`hull::hill_climb`).
#[inline(always)]
pub(crate) fn max_mask_of<const C: usize>(d: &[[f64; 4]; C]) -> u64 {
    let mx = |a: f64, b: f64| if a > b { a } else { b };
    let m4 = pairwise(d, |a: [f64; 4], b: [f64; 4]| {
        [
            mx(a[0], b[0]),
            mx(a[1], b[1]),
            mx(a[2], b[2]),
            mx(a[3], b[3]),
        ]
    });
    let m = mx(mx(m4[0], m4[1]), mx(m4[2], m4[3]));
    let mut mask = 0u64;
    for (c, dc) in d.iter().enumerate() {
        for (k, x) in dc.iter().enumerate() {
            mask |= u64::from(*x == m) << (4 * c + k);
        }
    }
    mask
}

/// The mask of `support_index_chunks::<C>` (bit `4c + k`: point `k` of chunk `c` attains the
/// maximum): for `C ≥ 4` on AVX2 when the CPU has it, for `C = 2` on inlined SSE2 when `lanes`
/// holds two chunks (`Points` pads its small sets to that); `None` otherwise (the caller's
/// portable scan). (SSE2 for larger `C` without AVX2 is unmeasured, so not taken.)
#[inline(always)]
pub(crate) fn max_mask<const C: usize>(lanes: &[[[f64; 4]; 3]], dir: DVec3) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if C >= 4 && std::arch::is_x86_feature_detected!("avx2") && !lanes.is_empty() {
        // SAFETY: the CPU has AVX2 (checked on the line above).
        return Some(unsafe { max_mask_avx2::<C>(lanes, dir) });
    }
    // At most 8 points: inlined even with AVX2, where an out-of-line call cost more than the
    // 256-bit registers saved.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(full) = lanes.first_chunk::<C>().filter(|_| C < 4) {
        return Some(max_mask_sse2(full, dir));
    }
    let _ = (lanes, dir);
    None
}

/// [`max_mask_of`] of the chunks' products with `dir`, on 128-bit SSE2 registers: each chunk
/// as two halves of two lanes, the products and sums in the portable `dot4`'s order, the same
/// pairwise tree (`maxpd` is `a > b ? a : b`), the last four lanes reduced as
/// `mx(mx(m0, m1), mx(m2, m3))` with `maxsd`, and the equality mask by packed compares and
/// `movmskpd` (where the portable tail compares and shifts lane by lane).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn max_mask_sse2<const C: usize>(lanes: &[[[f64; 4]; 3]; C], dir: DVec3) -> u64 {
    use core::arch::x86_64::*;
    // SAFETY: the build enables SSE2 (the `cfg` above; every x86-64 CPU has it), and the
    // loads read four-f64 rows at offsets 0 and 2.
    unsafe {
        let (dx, dy, dz) = (_mm_set1_pd(dir.x), _mm_set1_pd(dir.y), _mm_set1_pd(dir.z));
        let mut d = [[_mm_setzero_pd(); 2]; C];
        for (dc, l) in d.iter_mut().zip(lanes) {
            for (h, dh) in dc.iter_mut().enumerate() {
                let (x, y, z) = (
                    _mm_loadu_pd(l[0].as_ptr().add(2 * h)),
                    _mm_loadu_pd(l[1].as_ptr().add(2 * h)),
                    _mm_loadu_pd(l[2].as_ptr().add(2 * h)),
                );
                *dh = _mm_add_pd(
                    _mm_add_pd(_mm_mul_pd(x, dx), _mm_mul_pd(y, dy)),
                    _mm_mul_pd(z, dz),
                );
            }
        }
        let [lo, hi] = pairwise(&d, |a: [__m128d; 2], b: [__m128d; 2]| {
            [_mm_max_pd(a[0], b[0]), _mm_max_pd(a[1], b[1])]
        });
        let m01 = _mm_max_sd(lo, _mm_unpackhi_pd(lo, lo));
        let m23 = _mm_max_sd(hi, _mm_unpackhi_pd(hi, hi));
        let m = _mm_max_sd(m01, m23);
        let m = _mm_unpacklo_pd(m, m);
        let mut mask = 0u64;
        for (c, dc) in d.iter().enumerate() {
            for (h, dh) in dc.iter().enumerate() {
                let eq = _mm_movemask_pd(_mm_cmpeq_pd(*dh, m)) as u64;
                mask |= eq << (4 * c + 2 * h);
            }
        }
        mask
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn max_mask_avx2<const C: usize>(lanes: &[[[f64; 4]; 3]], dir: DVec3) -> u64 {
    // A set padded to `C` chunks (`Points` pads its small sets) reads them in place; a shorter
    // one repeats its last chunk (the clamp costs a compare and a move per chunk).
    match lanes.first_chunk::<C>() {
        Some(full) => mask_avx2::<C>(|c| &full[c], dir),
        None => {
            let last = lanes.len() - 1;
            mask_avx2::<C>(|c| &lanes[c.min(last)], dir)
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn mask_avx2<'l, const C: usize>(chunk: impl Fn(usize) -> &'l [[f64; 4]; 3], dir: DVec3) -> u64 {
    use core::arch::x86_64::*;
    let (dx, dy, dz) = (
        _mm256_set1_pd(dir.x),
        _mm256_set1_pd(dir.y),
        _mm256_set1_pd(dir.z),
    );
    let mut d = [_mm256_setzero_pd(); C];
    for (c, dc) in d.iter_mut().enumerate() {
        let l = chunk(c);
        // SAFETY: each row of a chunk is four contiguous f64 (unaligned loads).
        let (x, y, z) = unsafe {
            (
                _mm256_loadu_pd(l[0].as_ptr()),
                _mm256_loadu_pd(l[1].as_ptr()),
                _mm256_loadu_pd(l[2].as_ptr()),
            )
        };
        // (x·dx + y·dy) + z·dz, the portable `dot4`'s order.
        *dc = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(x, dx), _mm256_mul_pd(y, dy)),
            _mm256_mul_pd(z, dz),
        );
    }
    // The portable scan's pairwise tree.
    let m4 = pairwise(&d, |a, b| _mm256_max_pd(a, b));
    // `mx(mx(m0, m1), mx(m2, m3))` in every lane without leaving the registers (a store and
    // scalar reloads sat on the scan's dependency chain): lanes 0 and 2 of `t` are `mx(m0, m1)`
    // and `mx(m2, m3)` in that operand order, each broadcast, then one `vmaxpd` in the same
    // order as the portable tail.
    let t = _mm256_max_pd(m4, _mm256_permute_pd::<0b0101>(m4));
    let m = _mm256_max_pd(
        _mm256_permute4x64_pd::<0b00_00_00_00>(t),
        _mm256_permute4x64_pd::<0b10_10_10_10>(t),
    );
    let mut mask = 0u64;
    for (c, dc) in d.iter().enumerate() {
        let eq = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_EQ_OQ>(*dc, m)) as u64;
        mask |= eq << (4 * c);
    }
    mask
}
