//! The lane path's four-`f64` vector, as a trait ([`Lanes`]) with two implementations: `F64x4`,
//! a plain array whose element-wise `#[inline(always)]` operations LLVM vectorises for the
//! features of the function they are inlined into (the AVX2 kernel: 256-bit `ymm`
//! arithmetic), and `wide::f64x4` (the baseline kernel: SSE2 pairs on a default x86-64 build,
//! `wide`'s own choice elsewhere).
//!
//! Why two: on SSE2 the array type came out slower than `wide` (callgrind, the box stream:
//! 42.2 M against 33.1 M instructions; hull8: 45.4 M against 43.7 M) — LLVM's SLP vectoriser
//! moved the masks through boolean vectors and lane shuffles — while with AVX2 enabled it
//! vectorises cleanly and `wide`, fixed at compile time to SSE2, cannot use `ymm` at all.
//!
//! Both implement the same IEEE operations with the same semantics, so the two kernels give
//! bit-identical answers: masks are lanes whose bits are all ones (true) or all zeros
//! (false); comparisons are ordered (false on NaN); `max` picks `self` when `rhs` is NaN, else
//! `self > rhs ? self : rhs` (`maxpd`, as `wide` spells it on SSE2); `abs` clears the sign
//! bit, `neg` flips it. No FMA: Rust never contracts `a * b + c`, and nothing calls `mul_add`.

// Only the x86 AVX2 kernel uses `F64x4` (and the tests, everywhere).
#![cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]

use core::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Div, Mul, Neg, Not, Sub,
};

/// Four `f64` lanes (a mask when every lane is all ones or all zeros), for the AVX2 kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct F64x4([f64; 4]);

const ONES: u64 = u64::MAX;

#[inline(always)]
fn map(a: F64x4, f: impl Fn(f64) -> f64) -> F64x4 {
    let a = a.0;
    F64x4([f(a[0]), f(a[1]), f(a[2]), f(a[3])])
}

#[inline(always)]
fn zip(a: F64x4, b: F64x4, f: impl Fn(f64, f64) -> f64) -> F64x4 {
    let (a, b) = (a.0, b.0);
    F64x4([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
}

#[inline(always)]
fn bits(a: F64x4, b: F64x4, f: impl Fn(u64, u64) -> u64) -> F64x4 {
    zip(a, b, |x, y| f64::from_bits(f(x.to_bits(), y.to_bits())))
}

#[inline(always)]
fn mask(b: bool) -> f64 {
    f64::from_bits(if b { ONES } else { 0 })
}

/// The operations the lane kernel uses, on four `f64` lanes (a mask when every lane is all
/// ones or all zeros).
pub trait Lanes:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + AddAssign
    + BitAndAssign
    + BitOrAssign
{
    /// All lanes zero (also the all-false mask).
    const ZERO: Self;
    /// All lanes one.
    const ONE: Self;
    /// `x` in every lane.
    fn splat(x: f64) -> Self;
    /// The lanes as an array.
    fn to_array(self) -> [f64; 4];
    /// The lanes as an array, in place (reading one lane through it is one load, where
    /// `to_array()[l]` copied the whole vector to the stack first).
    fn as_array(&self) -> &[f64; 4];
    /// The lanes, writable.
    fn as_mut_array(&mut self) -> &mut [f64; 4];
    /// Mask of `self > rhs` (ordered: false on NaN, as the four below).
    fn simd_gt(self, rhs: Self) -> Self;
    /// Mask of `self < rhs`.
    fn simd_lt(self, rhs: Self) -> Self;
    /// Mask of `self >= rhs`.
    fn simd_ge(self, rhs: Self) -> Self;
    /// Mask of `self <= rhs`.
    fn simd_le(self, rhs: Self) -> Self;
    /// Mask of `self == rhs`.
    fn simd_eq(self, rhs: Self) -> Self;
    /// `if_one` where the bits of `self` are set, `if_zero` elsewhere.
    fn bitselect(self, if_one: Self, if_zero: Self) -> Self;
    /// `bitselect` for a mask (every lane all ones or all zeros), chosen by each lane's sign
    /// bit: one `vblendvpd` on AVX2 where `bitselect` takes three logic operations. (The
    /// box lanes gain by it, 8% of their instructions; the GJK lanes, whose selects LLVM
    /// folds into their logic, lost 12%, so they keep `bitselect`.)
    fn blend(self, if_one: Self, if_zero: Self) -> Self;
    /// `self` where `rhs` is NaN, else `self > rhs ? self : rhs` (`maxpd`).
    fn max(self, rhs: Self) -> Self;
    /// The lanes with their sign bits cleared.
    fn abs(self) -> Self;
    /// Correctly rounded square roots.
    fn sqrt(self) -> Self;
    /// The sign bits, lane `l` in bit `l`.
    fn to_bitmask(self) -> u32;
}

impl Lanes for F64x4 {
    const ZERO: F64x4 = F64x4([0.0; 4]);
    const ONE: F64x4 = F64x4([1.0; 4]);

    #[inline(always)]
    fn splat(x: f64) -> F64x4 {
        F64x4([x; 4])
    }

    #[inline(always)]
    fn to_array(self) -> [f64; 4] {
        self.0
    }

    #[inline(always)]
    fn as_array(&self) -> &[f64; 4] {
        &self.0
    }

    #[inline(always)]
    fn as_mut_array(&mut self) -> &mut [f64; 4] {
        &mut self.0
    }

    #[inline(always)]
    fn simd_gt(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a > b))
    }

    #[inline(always)]
    fn simd_lt(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a < b))
    }

    #[inline(always)]
    fn simd_ge(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a >= b))
    }

    #[inline(always)]
    fn simd_le(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a <= b))
    }

    #[inline(always)]
    fn simd_eq(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a == b))
    }

    #[inline(always)]
    fn bitselect(self, if_one: F64x4, if_zero: F64x4) -> F64x4 {
        (self & if_one) | (!self & if_zero)
    }

    #[inline(always)]
    fn blend(self, if_one: F64x4, if_zero: F64x4) -> F64x4 {
        let (m, a, b) = (self.0, if_one.0, if_zero.0);
        let pick = |l: usize| {
            if (m[l].to_bits() as i64) < 0 {
                a[l]
            } else {
                b[l]
            }
        };
        F64x4([pick(0), pick(1), pick(2), pick(3)])
    }

    /// `self` where `rhs` is NaN, else `self > rhs ? self : rhs`.
    #[inline(always)]
    fn max(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| if b.is_nan() || a > b { a } else { b })
    }

    #[inline(always)]
    fn abs(self) -> F64x4 {
        map(self, |a| f64::from_bits(a.to_bits() & !(1 << 63)))
    }

    #[inline(always)]
    fn sqrt(self) -> F64x4 {
        map(self, f64::sqrt)
    }

    #[inline(always)]
    fn to_bitmask(self) -> u32 {
        let s = |l: usize| ((self.0[l].to_bits() >> 63) as u32) << l;
        s(0) | s(1) | s(2) | s(3)
    }
}

/// `wide`'s type: SSE2 pairs on a default x86-64 build, whatever `wide` compiles to elsewhere.
impl Lanes for wide::f64x4 {
    const ZERO: Self = wide::f64x4::ZERO;
    const ONE: Self = wide::f64x4::ONE;
    #[inline(always)]
    fn splat(x: f64) -> Self {
        wide::f64x4::splat(x)
    }
    #[inline(always)]
    fn to_array(self) -> [f64; 4] {
        wide::f64x4::to_array(self)
    }
    #[inline(always)]
    fn as_array(&self) -> &[f64; 4] {
        wide::f64x4::as_array(self)
    }
    #[inline(always)]
    fn as_mut_array(&mut self) -> &mut [f64; 4] {
        wide::f64x4::as_mut_array(self)
    }
    #[inline(always)]
    fn simd_gt(self, rhs: Self) -> Self {
        wide::f64x4::simd_gt(self, rhs)
    }
    #[inline(always)]
    fn simd_lt(self, rhs: Self) -> Self {
        wide::f64x4::simd_lt(self, rhs)
    }
    #[inline(always)]
    fn simd_ge(self, rhs: Self) -> Self {
        wide::f64x4::simd_ge(self, rhs)
    }
    #[inline(always)]
    fn simd_le(self, rhs: Self) -> Self {
        wide::f64x4::simd_le(self, rhs)
    }
    #[inline(always)]
    fn simd_eq(self, rhs: Self) -> Self {
        wide::f64x4::simd_eq(self, rhs)
    }
    #[inline(always)]
    fn bitselect(self, if_one: Self, if_zero: Self) -> Self {
        wide::f64x4::bitselect(self, if_one, if_zero)
    }
    #[inline(always)]
    fn blend(self, if_one: Self, if_zero: Self) -> Self {
        wide::f64x4::bitselect(self, if_one, if_zero)
    }
    #[inline(always)]
    fn max(self, rhs: Self) -> Self {
        wide::f64x4::max(self, rhs)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        wide::f64x4::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        wide::f64x4::sqrt(self)
    }
    #[inline(always)]
    fn to_bitmask(self) -> u32 {
        wide::f64x4::to_bitmask(self)
    }
}

macro_rules! arith {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for F64x4 {
            type Output = F64x4;
            #[inline(always)]
            fn $f(self, rhs: F64x4) -> F64x4 {
                zip(self, rhs, |a, b| a $op b)
            }
        }
    };
}
arith!(Add, add, +);
arith!(Sub, sub, -);
arith!(Mul, mul, *);
arith!(Div, div, /);

impl BitAnd for F64x4 {
    type Output = F64x4;
    #[inline(always)]
    fn bitand(self, rhs: F64x4) -> F64x4 {
        bits(self, rhs, |a, b| a & b)
    }
}

impl BitOr for F64x4 {
    type Output = F64x4;
    #[inline(always)]
    fn bitor(self, rhs: F64x4) -> F64x4 {
        bits(self, rhs, |a, b| a | b)
    }
}

impl Not for F64x4 {
    type Output = F64x4;
    #[inline(always)]
    fn not(self) -> F64x4 {
        map(self, |a| f64::from_bits(!a.to_bits()))
    }
}

impl Neg for F64x4 {
    type Output = F64x4;
    #[inline(always)]
    fn neg(self) -> F64x4 {
        map(self, |a| -a)
    }
}

impl AddAssign for F64x4 {
    #[inline(always)]
    fn add_assign(&mut self, rhs: F64x4) {
        *self = *self + rhs;
    }
}

impl BitAndAssign for F64x4 {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: F64x4) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for F64x4 {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: F64x4) {
        *self = *self | rhs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(a: [f64; 4]) -> F64x4 {
        F64x4(a)
    }

    #[test]
    fn max_keeps_self_on_nan_rhs_and_rhs_on_nan_self() {
        let a = lanes([1.0, f64::NAN, 3.0, -0.0]);
        let b = lanes([f64::NAN, 2.0, 4.0, 0.0]);
        let m = a.max(b).to_array();
        assert_eq!(m[0], 1.0);
        assert_eq!(m[1], 2.0);
        assert_eq!(m[2], 4.0);
        // Equal operands: `rhs`, as `maxpd` (+0 here, not -0).
        assert_eq!(m[3].to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn masks_are_ordered_and_select_by_bits() {
        let a = lanes([1.0, f64::NAN, 3.0, 2.0]);
        let b = lanes([2.0, 1.0, 3.0, 1.0]);
        assert_eq!(a.simd_lt(b).to_bitmask(), 0b0001);
        assert_eq!(a.simd_gt(b).to_bitmask(), 0b1000);
        assert_eq!(a.simd_le(b).to_bitmask(), 0b0101);
        assert_eq!(a.simd_ge(b).to_bitmask(), 0b1100);
        assert_eq!(a.simd_eq(b).to_bitmask(), 0b0100);
        assert_eq!((!a.simd_eq(b)).to_bitmask(), 0b1011);
        let s = a.simd_gt(b).bitselect(a, b).to_array();
        assert_eq!(s, [2.0, 1.0, 3.0, 2.0]);
        assert_eq!((a.simd_ge(b) & F64x4::ONE).to_array(), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(
            lanes([-1.0, 2.0, -0.0, 0.0]).abs().to_array(),
            [1.0, 2.0, 0.0, 0.0]
        );
        assert_eq!((-lanes([0.0; 4])).to_bitmask(), 0b1111);
    }

    /// The bits of every operation of both implementations on every pair of special values:
    /// the two kernels are bit-identical only if these are.
    #[test]
    fn array_type_and_wide_agree_bit_for_bit() {
        fn all<L: Lanes>(a: [f64; 4], b: [f64; 4]) -> Vec<u64> {
            let (mut x, mut y) = (L::ZERO, L::ZERO);
            *x.as_mut_array() = a;
            *y.as_mut_array() = b;
            let m = x.simd_lt(y);
            let outs = [
                x + y,
                x - y,
                x * y,
                x / y,
                -x,
                !x,
                x & y,
                x | y,
                x.simd_gt(y),
                m,
                x.simd_ge(y),
                x.simd_le(y),
                x.simd_eq(y),
                m.bitselect(x, y),
                m.blend(x, y),
                x.simd_ge(y).blend(y, x),
                x.max(y),
                x.abs(),
                x.sqrt(),
                L::splat(a[0]) + L::ONE,
            ];
            let mut bits: Vec<u64> = outs
                .iter()
                .flat_map(|o| o.to_array().map(f64::to_bits))
                .collect();
            bits.extend(x.as_array().map(f64::to_bits));
            bits.push(u64::from(x.to_bitmask()) | u64::from(m.to_bitmask()) << 8);
            bits
        }
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            f64::MIN_POSITIVE / 4.0,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        let n = special.len();
        for i in 0..n * n {
            let a = [0, 1, 2, 3].map(|k| special[(i + k) % n]);
            let b = [0, 1, 2, 3].map(|k| special[(i / n + 3 * k) % n]);
            assert_eq!(all::<F64x4>(a, b), all::<wide::f64x4>(a, b), "{a:?} {b:?}");
        }
    }
}
