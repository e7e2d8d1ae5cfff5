//! Four `f64` lanes as a plain array, element-wise and `#[inline(always)]`, for the lane path.
//!
//! The type fixes no instruction set: LLVM vectorises its element loops for the features of
//! the function they are inlined into, so [`super::lanes`] compiles its kernel once with AVX2
//! enabled (256-bit `ymm` arithmetic) and once for the build's baseline (SSE2 pairs on x86-64),
//! and both copies run the same IEEE operations in the same order: bit-identical results.
//! No FMA: Rust never contracts `a * b + c`, and nothing here calls `mul_add`.
//!
//! Masks are lanes whose bits are all ones (true) or all zeros (false), as `wide` had them;
//! comparisons are ordered (false on NaN) and [`F64x4::max`] picks `self` when `rhs` is NaN,
//! else `self > rhs ? self : rhs` — `wide`'s semantics on SSE2, so the answers of the lane
//! path did not change with the move off `wide`.

use core::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, Div, Mul, Neg, Not, Sub,
};

/// Four `f64` lanes (a mask when every lane is all ones or all zeros).
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

impl F64x4 {
    /// All lanes zero (also the all-false mask).
    pub const ZERO: F64x4 = F64x4([0.0; 4]);
    /// All lanes one.
    pub const ONE: F64x4 = F64x4([1.0; 4]);

    /// `x` in every lane.
    #[inline(always)]
    pub fn splat(x: f64) -> F64x4 {
        F64x4([x; 4])
    }

    /// The lanes as an array.
    #[inline(always)]
    pub fn to_array(self) -> [f64; 4] {
        self.0
    }

    /// The lanes, writable.
    #[inline(always)]
    pub fn as_mut_array(&mut self) -> &mut [f64; 4] {
        &mut self.0
    }

    /// Mask of `self > rhs`.
    #[inline(always)]
    pub fn simd_gt(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a > b))
    }

    /// Mask of `self < rhs`.
    #[inline(always)]
    pub fn simd_lt(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a < b))
    }

    /// Mask of `self >= rhs`.
    #[inline(always)]
    pub fn simd_ge(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a >= b))
    }

    /// Mask of `self <= rhs`.
    #[inline(always)]
    pub fn simd_le(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a <= b))
    }

    /// Mask of `self == rhs`.
    #[inline(always)]
    pub fn simd_eq(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| mask(a == b))
    }

    /// `if_one` where the bits of `self` are set, `if_zero` elsewhere.
    #[inline(always)]
    pub fn bitselect(self, if_one: F64x4, if_zero: F64x4) -> F64x4 {
        (self & if_one) | (!self & if_zero)
    }

    /// `self` where `rhs` is NaN, else `self > rhs ? self : rhs`.
    #[inline(always)]
    pub fn max(self, rhs: F64x4) -> F64x4 {
        zip(self, rhs, |a, b| if b.is_nan() || a > b { a } else { b })
    }

    /// The lanes with their sign bits cleared.
    #[inline(always)]
    pub fn abs(self) -> F64x4 {
        map(self, |a| f64::from_bits(a.to_bits() & !(1 << 63)))
    }

    /// Correctly rounded square roots.
    #[inline(always)]
    pub fn sqrt(self) -> F64x4 {
        map(self, f64::sqrt)
    }

    /// The sign bits, lane `l` in bit `l`.
    #[inline(always)]
    pub fn to_bitmask(self) -> u32 {
        let s = |l: usize| ((self.0[l].to_bits() >> 63) as u32) << l;
        s(0) | s(1) | s(2) | s(3)
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
}
