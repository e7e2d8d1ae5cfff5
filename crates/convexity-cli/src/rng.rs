//! A small seeded random generator (SplitMix64) for the demo's deterministic collection.
//!
//! Not cryptographic and not meant to be; it only has to be reproducible across platforms,
//! so it uses integer arithmetic and converts to f64 in one well-defined step.

use convexity::{DQuat, DVec2, DVec3};

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn vec3(&mut self, half: f64) -> DVec3 {
        DVec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }

    pub fn vec2(&mut self, half: f64) -> DVec2 {
        DVec2::new(self.range(-half, half), self.range(-half, half))
    }

    /// A uniformly distributed unit vector (rejection sampling in the cube).
    pub fn unit3(&mut self) -> DVec3 {
        loop {
            let v = self.vec3(1.0);
            let l2 = v.length_squared();
            if l2 > 1e-4 && l2 <= 1.0 {
                return v / l2.sqrt();
            }
        }
    }

    pub fn unit2(&mut self) -> DVec2 {
        let a = self.angle();
        DVec2::new(a.cos(), a.sin())
    }

    /// Uniform in [-π, π).
    pub fn angle(&mut self) -> f64 {
        self.range(-std::f64::consts::PI, std::f64::consts::PI)
    }

    /// A uniformly distributed rotation (Shoemake's method).
    pub fn quat(&mut self) -> DQuat {
        let (u1, u2, u3) = (self.f64(), self.f64(), self.f64());
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.f64();
            assert_eq!(x, b.f64());
            assert!((0.0..1.0).contains(&x));
        }
        assert!((a.unit3().length() - 1.0).abs() < 1e-12);
        assert!((a.quat().length() - 1.0).abs() < 1e-12);
        assert!(a.below(5) < 5);
    }
}
