//! The byte reader the structured fuzz targets (`closed_forms`, `batch`, `warm_epa`,
//! `mesh_convex`) draw their inputs from: one byte or a small grid value at a time, zeros past
//! the end of the input, so every input decodes and a longer input only refines a shorter one.
//! Each target adds its own draws (sizes, rotations, coordinates) through a local extension
//! trait.

// Each target includes this file as its own module and uses part of it.
#![allow(dead_code)]

use convexity::{DQuat, DVec2, DVec3};

/// A cursor over the fuzzer's input.
pub struct Bytes<'a> {
    d: &'a [u8],
    i: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(d: &'a [u8]) -> Self {
        Bytes { d, i: 0 }
    }
    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.d.get(self.i).copied().unwrap_or(0);
        self.i += 1;
        b
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.u8() as usize % xs.len()]
    }
    /// A float in [-1, 1] on a 2^16 grid (exact 0 and ±1 reachable).
    pub fn unit(&mut self) -> f64 {
        let x = u16::from_le_bytes([self.u8(), self.u8()]);
        (x as f64 / 32767.5 - 1.0).clamp(-1.0, 1.0)
    }
    /// A float in [0, 1].
    pub fn frac(&mut self) -> f64 {
        0.5 * (self.unit() + 1.0)
    }
    pub fn v3(&mut self) -> DVec3 {
        DVec3::new(self.unit(), self.unit(), self.unit())
    }
    pub fn v2(&mut self) -> DVec2 {
        DVec2::new(self.unit(), self.unit())
    }
    /// A size from 1e-2 to 1e2 (mostly 1), each decade's value times [0.25, 0.75].
    pub fn log_size(&mut self) -> f64 {
        [1e-2, 0.1, 1.0, 1.0, 1.0, 10.0, 1e2][self.u8() as usize % 7] * (0.5 + 0.25 * self.unit())
    }
    /// A unit quaternion from four grid values (the identity when they are nearly all 0).
    pub fn unit_quat(&mut self) -> DQuat {
        let q = DQuat::from_xyzw(self.unit(), self.unit(), self.unit(), self.unit());
        let n = q.length();
        if n > 1e-3 {
            q / n
        } else {
            DQuat::IDENTITY
        }
    }
}
