//! Certificates: checkable evidence for every boolean answer, and their checker.
//!
//! * Separated: a unit axis `n` (world frame, pointing from A toward B) and a gap `g > 0` with
//!   `max_{x∈A} n·x + g ≤ min_{y∈B} n·y`. Checked with two support calls.
//! * Intersecting: a point `p` in both shapes. Checked with support calls only: for each shape
//!   an untrusted search (a point-to-shape GJK on the shape seen through a log of its support
//!   queries) yields a [`MembershipWitness`] — directions `dᵢ` and weights `λᵢ ≥ 0`; the
//!   checker calls the shape's support function again in each `dᵢ`, forms
//!   `c = Σ λᵢ s(dᵢ) / Σ λᵢ` itself and accepts when `|c − p| ≤ radius + tol`. No support
//!   point or weight sum of GJK's simplex is trusted (issue 14), so the search can only fail to
//!   find a witness, never make a bad one pass.
//!
//! Complexity: O(support) for an axis; O(iterations · support) for a point. Tolerances are
//! absolute lengths; callers usually pass `1e-9 × size`.

use crate::gjk::minkowski::MinkowskiDifference;
use crate::gjk::{Mode, Options, Run};
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

/// Evidence that a point lies in a shape, checkable against the shape alone: directions
/// `dᵢ` and weights `λᵢ ≥ 0`. The checker calls the shape's own support function in each
/// direction and forms `c = Σ λᵢ s(dᵢ) / Σ λᵢ`, a point of the core whatever the weights are;
/// the point is in the shape when `|c − p| ≤ core radius + tol`. Nothing of the search that
/// found the witness (GJK's simplex, its support points) enters the check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MembershipWitness<V> {
    /// `(direction, weight)` pairs.
    pub terms: Vec<(V, f64)>,
}

/// Distance from `p` (shape frame) to the shape as shown by `witness`: `|c − p| − r` for the
/// point `c` the witness rebuilds from fresh support calls, or `None` when the witness is not
/// one (a negative, NaN or infinite weight, or no positive weight at all).
pub fn witnessed_distance<V: Vector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    p: V,
    witness: &MembershipWitness<V>,
) -> Option<f64> {
    let mut c = V::ZERO;
    let mut sum = 0.0;
    for &(d, l) in &witness.terms {
        if !(l >= 0.0) || !l.is_finite() || !d.is_finite() {
            return None;
        }
        if l > 0.0 {
            c += shape.core_support(d) * l;
            sum += l;
        }
    }
    if !(sum > 0.0) {
        return None;
    }
    let c = c * (1.0 / sum);
    c.is_finite()
        .then(|| ((c - p).length() - shape.core_radius()).max(0.0))
}

/// A shape seen through a log of the support queries made on it (direction, answer).
struct Logged<'s, V, S: ?Sized> {
    shape: &'s S,
    log: core::cell::RefCell<Vec<(V, V)>>,
}

impl<V: Vector, S: SupportMap<V> + ?Sized> SupportMap<V> for Logged<'_, V, S> {
    fn core_support(&self, dir: V) -> V {
        let p = self.shape.core_support(dir);
        self.log.borrow_mut().push((dir, p));
        p
    }
    fn core_radius(&self) -> f64 {
        self.shape.core_radius()
    }
    fn center(&self) -> V {
        self.shape.center()
    }
    fn size(&self) -> f64 {
        self.shape.size()
    }
    fn bounding_radius(&self) -> f64 {
        self.shape.bounding_radius()
    }
}

/// Searches for a membership witness of `p` (shape frame): a point-to-shape GJK on the shape
/// seen through a log of its support queries, whose final simplex is turned into directions
/// and weights. The search is untrusted: a simplex point that no logged query returned
/// (bookkeeping gone wrong) is dropped, and [`witnessed_distance`] judges the rest.
pub fn find_witness<V: Vector, S: SupportMap<V> + ?Sized>(
    shape: &S,
    p: V,
) -> Option<MembershipWitness<V>> {
    let point = Ball::<V>::new(0.0).ok()?;
    let pose_p = Pose::from_translation(p).ok()?;
    let logged = Logged {
        shape,
        log: core::cell::RefCell::new(Vec::new()),
    };
    let mink = MinkowskiDifference::new(&logged, &Pose::IDENTITY, &point, &pose_p);
    let opts = Options::default();
    let mut r = Run::begin(&mink, &opts);
    r.drive(&mink, &opts, None, Mode::Distance);
    let log = logged.log.borrow();
    let s = &r.simplex;
    let terms: Vec<(V, f64)> = (0..s.len.min(4))
        .filter_map(|i| {
            let q = s.pts[i].a;
            log.iter()
                .rev()
                .find(|(_, x)| *x == q)
                .map(|&(d, _)| (d, s.weights[i].max(0.0)))
        })
        .collect();
    (!terms.is_empty()).then_some(MembershipWitness { terms })
}

/// Distance from `p` to the shape as witnessed independently (see [`find_witness`]).
fn checked_distance<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S, p: V) -> Option<f64> {
    find_witness(shape, p).and_then(|w| witnessed_distance(shape, p, &w))
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
    let da = checked_distance(a, pose_a.inverse_transform_point(cert.point));
    match da {
        Some(d) if d <= tol => {}
        Some(d) => return Err(CertificateError::OutsideA(d)),
        None => return Err(CertificateError::OutsideA(f64::INFINITY)),
    }
    let db = checked_distance(b, pose_b.inverse_transform_point(cert.point));
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

/// What the check before speaking ([`checked`]) found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// Not checked (a method's raw answer before `query::run` checks it).
    Unchecked,
    /// The certificate verified at the pair's touch tolerance.
    Verified,
    /// The method answered undetermined: there was nothing to check.
    NoCertificate,
    /// The method's certificate failed this check, and its answer was withdrawn (turned into
    /// undetermined).
    Rejected(CertificateError),
}

impl Check {
    /// Whether the answer carries a certificate that verified.
    pub fn verified(&self) -> bool {
        matches!(self, Check::Verified)
    }

    /// `"verified"`, `"no certificate"`, or `"rejected: <the failed check>"`.
    pub fn describe(&self) -> String {
        match self {
            Check::Unchecked => "not checked".to_string(),
            Check::Verified => "verified".to_string(),
            Check::NoCertificate => "no certificate".to_string(),
            Check::Rejected(e) => format!("rejected: {e}"),
        }
    }
}

/// Check before you speak: verifies a method's verdict with the independent checker at the
/// pair's touch tolerance ([`tolerance_for`]) and withdraws a certificate that fails (the verdict
/// becomes undetermined, the [`Check`] names the failed check). Returns the verdict to report,
/// the check, and the tolerance. `query::run` calls it on every answer.
pub fn checked<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    verdict: Verdict<V>,
) -> (Verdict<V>, Check, f64)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let tol = tolerance_for(a, pose_a, b, pose_b);
    match verdict {
        Verdict::Undetermined => (verdict, Check::NoCertificate, tol),
        _ => match verify(a, pose_a, b, pose_b, &verdict, tol) {
            Ok(()) => (verdict, Check::Verified, tol),
            Err(e) => (Verdict::Undetermined, Check::Rejected(e), tol),
        },
    }
}
