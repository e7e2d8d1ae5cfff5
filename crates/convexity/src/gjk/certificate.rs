//! Certificates: checkable evidence for every boolean answer, and their checker.
//!
//! * Separated: a unit axis `n` (world frame, pointing from A toward B) and a gap `g > 0` with
//!   `max_{x∈A} n·x + g ≤ min_{y∈B} n·y`. Checked with two support calls.
//! * Intersecting: a point `p` in both shapes. Checked with support calls only: for each shape
//!   a point-to-shape GJK produces support points `sᵢ` and weights `λᵢ ≥ 0, Σλᵢ = 1`; the
//!   checker recomputes `c = Σ λᵢ sᵢ` itself and accepts when `|c − p| ≤ radius + tol`.
//!   The search can only fail to find a witness, never accept a bad one.
//!
//! Complexity: O(support) for an axis; O(iterations · support) for a point. Tolerances are
//! absolute lengths; callers usually pass `1e-9 × size`.

use crate::gjk::minkowski::MinkowskiDifference;
use crate::gjk::{run, Mode, Options};
use crate::math::pose::Pose;
use crate::math::vector::Vector;
use crate::shape::{Ball, SupportMap};
use crate::verdict::{CertificateError, CommonPoint, SeparatingAxis, Verdict};

/// A checking tolerance suited to a pair: `1e-9 × (size_A + size_B)` for the solver's own
/// tolerance, plus `1e-13 ×` the magnitude of the coordinates involved
/// ([`MinkowskiDifference::magnitude`]: world translations and the shapes' bounding radii about
/// their own origins), which bounds the rounding of the support values themselves. (Measured
/// from the shapes' resulting positions instead, it missed a point 4e13 from its own origin,
/// placed near the world origin by a 4e13 translation: fuzzing found it.)
pub fn tolerance_for<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> f64
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mink = MinkowskiDifference::new(a, pose_a, b, pose_b);
    (1e-9 * mink.scale() + 1e-13 * mink.magnitude()).max(f64::MIN_POSITIVE)
}

/// Checks a separating-axis certificate with two support calls, in A's frame.
pub fn verify_separating_axis<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    cert: &SeparatingAxis<V>,
    tol: f64,
) -> Result<(), CertificateError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !cert.axis.is_finite() || !cert.gap.is_finite() {
        return Err(CertificateError::NotFinite);
    }
    let len = cert.axis.length();
    if (len - 1.0).abs() > 1e-9 {
        return Err(CertificateError::AxisNotUnit(len));
    }
    if cert.gap <= 0.0 {
        return Err(CertificateError::GapNotPositive(cert.gap));
    }
    let n = pose_a.inverse_transform_vector(cert.axis);
    let pose_ab = pose_a.relative(pose_b);
    let max_a = n.dot(a.support(n));
    let nb = pose_ab.inverse_transform_vector(-n);
    let min_b = n.dot(pose_ab.transform_point(b.support(nb)));
    let excess = max_a + cert.gap - min_b;
    if excess > tol {
        Err(CertificateError::AxisViolated(excess))
    } else {
        Ok(())
    }
}

/// Distance from `p` (in the shape's frame) to the shape, as witnessed by a convex
/// combination of the shape's own support points that this function recomputes.
/// Returns `None` when no witness was found.
fn witnessed_distance<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S, p: V) -> Option<f64> {
    let point = Ball::<V>::new(0.0).ok()?;
    let pose_p = Pose::from_translation(p).ok()?;
    let mink = MinkowskiDifference::new(shape, &Pose::IDENTITY, &point, &pose_p);
    let opts = Options::default();
    let r = run(&mink, &opts, None, Mode::Distance);
    let s = &r.simplex;
    let mut c = V::ZERO;
    let mut sum = 0.0;
    for i in 0..s.len {
        let l = s.weights[i];
        if !(l >= -1e-12) {
            return None;
        }
        c += s.pts[i].a * l;
        sum += l;
    }
    if s.len == 0 || (sum - 1.0).abs() > 1e-9 {
        return None;
    }
    Some(((c - p).length() - shape.core_radius()).max(0.0))
}

/// Checks a common-point certificate using support functions only.
pub fn verify_common_point<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    cert: &CommonPoint<V>,
    tol: f64,
) -> Result<(), CertificateError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !cert.point.is_finite() {
        return Err(CertificateError::NotFinite);
    }
    let da = witnessed_distance(a, pose_a.inverse_transform_point(cert.point));
    match da {
        Some(d) if d <= tol => {}
        Some(d) => return Err(CertificateError::OutsideA(d)),
        None => return Err(CertificateError::OutsideA(f64::INFINITY)),
    }
    let db = witnessed_distance(b, pose_b.inverse_transform_point(cert.point));
    match db {
        Some(d) if d <= tol => Ok(()),
        Some(d) => Err(CertificateError::OutsideB(d)),
        None => Err(CertificateError::OutsideB(f64::INFINITY)),
    }
}

/// Checks whichever certificate a verdict carries.
pub fn verify<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    verdict: &Verdict<V>,
    tol: f64,
) -> Result<(), CertificateError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    match verdict {
        Verdict::Separated(c) => verify_separating_axis(a, pose_a, b, pose_b, c, tol),
        Verdict::Intersecting(c) => verify_common_point(a, pose_a, b, pose_b, c, tol),
        Verdict::Undetermined => Err(CertificateError::NoCertificate),
    }
}
