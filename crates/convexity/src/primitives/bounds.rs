//! Bounding volumes for broad-phase culling: spheres (circles) and axis-aligned boxes, per
//! body and per pose, in 2D and 3D.
//!
//! * [`BoundingSphere::about_origin`]: radius `max ‖sᵢ‖` about the body's local origin,
//!   computed once. A posed check needs no vertex transform: the world centre is the pose's
//!   translation. O(n) once, O(1) per check.
//! * [`welzl`] ([`welzl_sphere`], [`welzl_circle`]): the minimal enclosing sphere (circle),
//!   by Welzl's randomised incremental algorithm in Gärtner's move-to-front form (E. Welzl,
//!   "Smallest enclosing disks (balls and ellipsoids)", LNCS 555, 1991; B. Gärtner, "Fast and
//!   robust smallest enclosing balls", ESA 1999). Expected O(n) for a fixed dimension; the
//!   input order is shuffled by a fixed-seed generator, so results are deterministic.
//!
//!   Trade-off: the origin-centred radius is free to compute and check, but the local origin
//!   (the centroid, say) is not the best centre: for a skewed point set it can be up to twice
//!   the minimal radius (it is at least the minimal radius, and at most the diameter). The
//!   Welzl sphere is the tightest sphere but its centre is an extra local point that each
//!   posed check must rotate (one rotation instead of none), and it costs expected O(n) with a
//!   larger constant once per body. Use Welzl for bodies whose origin is far from their
//!   middle, or when culling quality dominates; the origin radius otherwise.
//! * [`Aabb`]: per body (local) and per pose. [`Aabb::transformed`] is the fast bound from the
//!   local box and the rotation (`centre' = R c + t`, `half'ᵢ = Σⱼ |Rᵢⱼ| hⱼ`; Arvo, "Transforming
//!   axis-aligned bounding boxes", Graphics Gems, 1990), exact for the box but looser than the
//!   body; [`Aabb::from_points_posed`] is the exact bound of the transformed vertices, O(n).
//!
//! Conventions: boxes and spheres are closed; touching counts as overlapping. Every bound is
//! conservative: floating-point rounding is covered by a relative padding of a few ulps
//! ([`PAD`]), so a bound computed here never excludes a vertex as transformed by
//! [`Pose::transform_point`](crate::Pose::transform_point).
//!
//! Preconditions: constructors validate finiteness and magnitude ([`InputError`]). Failure
//! modes: an empty point set is an error; Welzl's support-set solve falls back to the
//! farthest pair when the support points are (nearly) affinely dependent, and the final
//! radius is always re-measured over all points, so the sphere always encloses the input.

use crate::error::{InputError, Problem, MAX_MAGNITUDE};
use crate::math::pose::Pose;
use crate::math::vector::finite_vec;
use crate::math::vector::{Rotation, Vector};

/// Relative padding applied to computed bounds to cover rounding (a few ulps).
pub const PAD: f64 = 8.0 * f64::EPSILON;

fn build<V: Vector>(c: &[f64; 3]) -> V {
    V::from_slice(&c[..V::DIM.min(3)]).unwrap_or(V::ZERO)
}

fn coords<V: Vector>(v: V) -> [f64; 3] {
    let mut c = [0.0; 3];
    for (i, x) in c.iter_mut().enumerate().take(V::DIM.min(3)) {
        *x = v.coord(i);
    }
    c
}

fn validate_points<V: Vector>(points: &[V]) -> Result<(), InputError> {
    if points.is_empty() {
        return Err(InputError::new("points", Problem::Empty));
    }
    for (i, p) in points.iter().enumerate() {
        // The field name is only built on failure: this runs once per input point.
        if !p.is_finite() || p.max_abs() > MAX_MAGNITUDE {
            finite_vec(&format!("points[{i}]"), *p)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Spheres.

/// A closed ball (a disc in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingSphere<V: Vector> {
    /// Centre, in the frame of the points it was built from (local, or parent after
    /// [`BoundingSphere::posed`]).
    pub center: V,
    /// Radius (≥ 0, same length unit as the points), padded to cover rounding.
    pub radius: f64,
}

impl<V: Vector> BoundingSphere<V> {
    /// The sphere about the local origin with radius `max ‖pᵢ‖` (padded by [`PAD`]).
    pub fn about_origin(points: &[V]) -> Result<Self, InputError> {
        validate_points(points)?;
        let r = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        Ok(BoundingSphere {
            center: V::ZERO,
            radius: r * (1.0 + PAD),
        })
    }

    /// The minimal enclosing sphere (Welzl); see [`welzl`].
    pub fn minimal(points: &[V]) -> Result<Self, InputError> {
        welzl(points)
    }

    /// The sphere in the parent frame of `pose`. For an origin-centred sphere this is only the
    /// translation; otherwise one rotation of the centre.
    pub fn posed(&self, pose: &Pose<V>) -> Self {
        let center = if self.center == V::ZERO {
            pose.translation()
        } else {
            pose.transform_point(self.center)
        };
        let m = center.max_abs() + self.center.max_abs();
        BoundingSphere {
            center,
            radius: self.radius + PAD * m,
        }
    }

    /// Closed overlap test: `‖c₁ − c₂‖ ≤ r₁ + r₂` (false when a radius is negative or NaN).
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        let d2 = (self.center - other.center).length_squared();
        let r = self.radius + other.radius;
        self.radius >= 0.0 && other.radius >= 0.0 && d2 <= r * r
    }

    /// Whether the closed ball contains `p`.
    #[inline]
    pub fn contains(&self, p: V) -> bool {
        self.radius >= 0.0 && (p - self.center).length_squared() <= self.radius * self.radius
    }

    /// The smallest axis-aligned box containing the ball.
    pub fn aabb(&self) -> Aabb<V> {
        let r = build::<V>(&[self.radius; 3]);
        Aabb {
            min: self.center - r,
            max: self.center + r,
        }
    }
}

/// Minimal enclosing circle of 2D points.
pub fn welzl_circle(points: &[glam::DVec2]) -> Result<BoundingSphere<glam::DVec2>, InputError> {
    welzl(points)
}

/// Minimal enclosing sphere of 3D points.
pub fn welzl_sphere(points: &[glam::DVec3]) -> Result<BoundingSphere<glam::DVec3>, InputError> {
    welzl(points)
}

/// Minimal enclosing ball (Welzl, move-to-front), in 2D or 3D. The returned radius is
/// re-measured as the largest distance from the computed centre to any input point and padded
/// by [`PAD`], so the ball always contains every point; it exceeds the true minimal radius by
/// rounding only (relative 1e-12 or better on well-scaled input; see the tests).
pub fn welzl<V: Vector>(points: &[V]) -> Result<BoundingSphere<V>, InputError> {
    validate_points(points)?;
    // Work relative to the first point: smaller magnitudes, better-conditioned solves.
    let origin = points[0];
    let mut pts: Vec<V> = points.iter().map(|&p| p - origin).collect();
    // Fixed-seed Fisher–Yates shuffle (SplitMix64): expected-linear time without randomness.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..pts.len()).rev() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        pts.swap(i, (z % (i as u64 + 1)) as usize);
    }
    let mut support: Vec<V> = Vec::with_capacity(V::DIM + 1);
    let n = pts.len();
    let ball = mtf(&mut pts, n, &mut support);
    let center = ball.center;
    let r = pts
        .iter()
        .map(|&p| (p - center).length())
        .fold(0.0, f64::max);
    let world = center + origin;
    Ok(BoundingSphere {
        center: world,
        radius: r * (1.0 + PAD) + PAD * world.max_abs(),
    })
}

/// Tolerance of the membership test inside Welzl's recursion (relative to the radius): points
/// this close to the boundary are not allowed to trigger a new support set, which would only
/// chase rounding.
const INSIDE_REL: f64 = 1e-12;

fn mtf<V: Vector>(pts: &mut [V], end: usize, support: &mut Vec<V>) -> BoundingSphere<V> {
    let mut ball = ball_from_support(support);
    if support.len() == V::DIM + 1 {
        return ball;
    }
    for i in 0..end.min(pts.len()) {
        let p = pts[i];
        let inside = ball.radius >= 0.0 && {
            let d = (p - ball.center).length();
            d <= ball.radius * (1.0 + INSIDE_REL) + INSIDE_REL * p.max_abs()
        };
        if !inside {
            support.push(p);
            ball = mtf(pts, i, support);
            support.pop();
            pts[..=i].rotate_right(1);
        }
    }
    ball
}

/// The smallest ball with every support point on its boundary (the circumscribed ball within
/// the support's affine hull). Empty support: radius −1 (contains nothing). Affinely dependent
/// support (a singular Gram system): the ball on the farthest pair.
fn ball_from_support<V: Vector>(s: &[V]) -> BoundingSphere<V> {
    match s {
        [] => BoundingSphere {
            center: V::ZERO,
            radius: -1.0,
        },
        [p] => BoundingSphere {
            center: *p,
            radius: 0.0,
        },
        [p0, rest @ ..] => {
            // centre = p0 + Σ λⱼ eⱼ with eⱼ = pⱼ − p0 and eᵢ·(centre − p0) = |eᵢ|²/2.
            let k = rest.len();
            let e: Vec<V> = rest.iter().map(|&p| p - *p0).collect();
            let mut m = [[0.0f64; 4]; 3];
            for i in 0..k {
                for j in 0..k {
                    m[i][j] = e[i].dot(e[j]);
                }
                m[i][k] = 0.5 * e[i].length_squared();
            }
            match solve(&mut m, k) {
                Some(lambda) => {
                    let mut c = *p0;
                    for (j, ej) in e.iter().enumerate() {
                        c += *ej * lambda[j];
                    }
                    let r = s.iter().map(|&p| (p - c).length()).fold(0.0, f64::max);
                    BoundingSphere {
                        center: c,
                        radius: r,
                    }
                }
                None => farthest_pair_ball(s),
            }
        }
    }
}

fn farthest_pair_ball<V: Vector>(s: &[V]) -> BoundingSphere<V> {
    let mut best = (0.0, s.first().copied().unwrap_or(V::ZERO), V::ZERO);
    best.2 = best.1;
    for (i, &a) in s.iter().enumerate() {
        for &b in &s[i + 1..] {
            let d = (a - b).length_squared();
            if d > best.0 {
                best = (d, a, b);
            }
        }
    }
    let c = (best.1 + best.2) * 0.5;
    let r = s.iter().map(|&p| (p - c).length()).fold(0.0, f64::max);
    BoundingSphere {
        center: c,
        radius: r,
    }
}

/// Gaussian elimination with partial pivoting on a k×(k+1) augmented system (k ≤ 3). `None`
/// when a pivot is negligible relative to the matrix scale (affinely dependent support).
fn solve(m: &mut [[f64; 4]; 3], k: usize) -> Option<[f64; 3]> {
    let scale = (0..k)
        .flat_map(|i| (0..k).map(move |j| (i, j)))
        .map(|(i, j)| m[i][j].abs())
        .fold(0.0, f64::max);
    if !(scale > 0.0) || !scale.is_finite() {
        return None;
    }
    for col in 0..k {
        let piv = (col..k).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if !(m[piv][col].abs() > 1e-12 * scale) {
            return None;
        }
        m.swap(col, piv);
        let pivot_row = m[col];
        for (row, r) in m.iter_mut().enumerate().take(k) {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r.iter_mut().zip(pivot_row.iter()).take(k + 1).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut x = [0.0; 3];
    for i in 0..k {
        x[i] = m[i][k] / m[i][i];
        if !x[i].is_finite() {
            return None;
        }
    }
    Some(x)
}

// ---------------------------------------------------------------------------------------------
// Boxes.

/// A closed axis-aligned box `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<V: Vector> {
    /// The corner with the smallest coordinate on every axis.
    pub min: V,
    /// The corner with the largest coordinate on every axis (`max ≥ min` coordinate-wise).
    pub max: V,
}

impl<V: Vector> Aabb<V> {
    /// The box of a point set (exact: min and max are input coordinates).
    pub fn from_points(points: &[V]) -> Result<Self, InputError> {
        validate_points(points)?;
        Ok(Self::of_valid(points.iter().copied()))
    }

    /// The box of already-validated points (empty iterator: a box at the origin).
    pub(crate) fn of_valid(points: impl Iterator<Item = V>) -> Self {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        let mut any = false;
        for p in points {
            any = true;
            for i in 0..V::DIM.min(3) {
                let c = p.coord(i);
                lo[i] = lo[i].min(c);
                hi[i] = hi[i].max(c);
            }
        }
        if !any {
            return Aabb {
                min: V::ZERO,
                max: V::ZERO,
            };
        }
        Aabb {
            min: build(&lo),
            max: build(&hi),
        }
    }

    /// The exact box of the posed vertices (each transformed once; padded by [`PAD`] to cover
    /// the rounding of the transform). O(n).
    pub fn from_points_posed(points: &[V], pose: &Pose<V>) -> Result<Self, InputError> {
        validate_points(points)?;
        let b = Self::of_valid(points.iter().map(|&p| pose.transform_point(p)));
        let m =
            pose.translation().max_abs() + points.iter().map(|p| p.max_abs()).fold(0.0, f64::max);
        Ok(b.padded(PAD * m))
    }

    /// The box grown by `r` on every side.
    pub fn padded(&self, r: f64) -> Self {
        let d = build::<V>(&[r; 3]);
        Aabb {
            min: self.min - d,
            max: self.max + d,
        }
    }

    /// The box's centre `(min + max) / 2`.
    pub fn center(&self) -> V {
        (self.min + self.max) * 0.5
    }

    /// Half the side lengths `(max − min) / 2` (≥ 0): the box is `center ± half_extents`.
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * 0.5
    }

    /// The smallest box containing both.
    pub fn merge(&self, o: &Self) -> Self {
        let (a, b, c, d) = (
            coords(self.min),
            coords(o.min),
            coords(self.max),
            coords(o.max),
        );
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for i in 0..3 {
            lo[i] = a[i].min(b[i]);
            hi[i] = c[i].max(d[i]);
        }
        Aabb {
            min: build(&lo),
            max: build(&hi),
        }
    }

    /// Closed overlap test (touching faces overlap).
    #[inline]
    pub fn intersects(&self, o: &Self) -> bool {
        (0..V::DIM)
            .all(|i| self.min.coord(i) <= o.max.coord(i) && o.min.coord(i) <= self.max.coord(i))
    }

    /// Whether the closed box contains `p`.
    #[inline]
    pub fn contains(&self, p: V) -> bool {
        (0..V::DIM).all(|i| self.min.coord(i) <= p.coord(i) && p.coord(i) <= self.max.coord(i))
    }

    /// Fast posed bound from this (local) box and the pose's rotation: the box of the rotated
    /// box, `centre' = R c + t`, `half'ᵢ = Σⱼ |Rᵢⱼ| hⱼ`, padded for rounding. O(DIM²), no vertex
    /// transforms; looser than [`Aabb::from_points_posed`] when the body does not fill its box.
    pub fn transformed(&self, pose: &Pose<V>) -> Self {
        let c = pose.transform_point(self.center());
        let h = coords(self.half_extents());
        let rot = pose.rotation().to_matrix();
        let mut out = [0.0; 3];
        for (j, hj) in h.iter().enumerate().take(V::DIM.min(3)) {
            let mut e = [0.0; 3];
            e[j] = 1.0;
            // Column j of R.
            let col = coords(V::mat_mul(&rot, build::<V>(&e)));
            for i in 0..V::DIM.min(3) {
                out[i] += col[i].abs() * hj;
            }
        }
        let half = build::<V>(&out);
        let m = c.max_abs() + half.max_abs() + pose.translation().max_abs();
        Aabb {
            min: c - half,
            max: c + half,
        }
        .padded(PAD * m)
    }
}
