//! The answer vocabulary shared by every method: verdicts with their certificates, the one
//! status enum of iterative methods, and the certificate checker's error type.
//!
//! Ground floor: imports nothing from the crate. The checker itself (which needs support
//! maps) lives in [`crate::gjk::certificate`].
//!
//! * Separated: a unit axis `n` (world frame, pointing from A toward B) and a gap `g > 0` with
//!   `max_{x∈A} n·x + g ≤ min_{y∈B} n·y`.
//! * Intersecting: a point of both shapes (closed sets: touching counts).
//! * Undetermined: neither was proved; never silently turned into "separated".

/// Evidence that two shapes are disjoint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparatingAxis<V> {
    /// Unit axis in the world frame, pointing from A toward B.
    pub axis: V,
    /// The gap between the two shapes' projections on the axis (> 0). A lower bound on the
    /// distance.
    pub gap: f64,
}

/// Evidence that two shapes intersect: a point of both (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommonPoint<V> {
    /// A point lying in both closed shapes, up to the query's tolerance (world frame).
    pub point: V,
}

/// A boolean answer with its certificate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict<V> {
    /// The shapes are disjoint; the axis and gap prove it.
    Separated(SeparatingAxis<V>),
    /// The shapes share a point (touching counts); the point proves it.
    Intersecting(CommonPoint<V>),
    /// Neither was proved (the iteration limit was hit in the tolerance band, or the input
    /// was degenerate). Never silently turned into "separated".
    Undetermined,
}

impl<V> Verdict<V> {
    /// `Some(true)` for intersecting, `Some(false)` for separated.
    pub fn intersecting(&self) -> Option<bool> {
        match self {
            Verdict::Separated(_) => Some(false),
            Verdict::Intersecting(_) => Some(true),
            Verdict::Undetermined => None,
        }
    }
}

/// Why a certificate was rejected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CertificateError {
    /// The certificate contains NaN or infinity.
    NotFinite,
    /// The axis is not of unit length (its length).
    AxisNotUnit(f64),
    /// The gap is not positive.
    GapNotPositive(f64),
    /// `max_A n·x + g − min_B n·y` exceeds the tolerance by this much.
    AxisViolated(f64),
    /// The point is this far outside A (beyond the tolerance).
    OutsideA(f64),
    /// The point is this far outside B (beyond the tolerance).
    OutsideB(f64),
    /// An undetermined verdict carries no certificate.
    NoCertificate,
}

impl core::fmt::Display for CertificateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CertificateError::NotFinite => write!(f, "certificate is not finite"),
            CertificateError::AxisNotUnit(l) => write!(f, "axis has length {l}, not 1"),
            CertificateError::GapNotPositive(g) => write!(f, "gap {g} is not positive"),
            CertificateError::AxisViolated(e) => {
                write!(f, "projections overlap the claimed gap by {e}")
            }
            CertificateError::OutsideA(d) => write!(f, "point lies {d} outside shape A"),
            CertificateError::OutsideB(d) => write!(f, "point lies {d} outside shape B"),
            CertificateError::NoCertificate => write!(f, "undetermined verdict has no certificate"),
        }
    }
}

impl std::error::Error for CertificateError {}

/// How an iterative method ended: the one status of every method in the crate.
///
/// The first four variants are the general outcomes; the last four are the few reasons only
/// one method reports (each says which). [`Status::general`] folds those into the first four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The termination criterion was met (for an exact method: it ran to completion).
    Converged,
    /// The iteration cap was hit before convergence.
    IterationLimit,
    /// Degenerate input (a point pair, a polynomial with a non-finite coefficient), or a
    /// numerical stall or non-finite support output; the bounds returned are still valid.
    Degenerate,
    /// Numerical trouble: a singular basis or failed ratio test (LP), or a certificate that did
    /// not survive its recomputation from the data; the verdict is `Undetermined`.
    Numerical,
    /// LP methods: stopped before optimality because a certificate was already proved (early
    /// exit).
    Certified,
    /// SAT 2D: the cached edge still separates; no other axis was tested.
    CachedAxis,
    /// Seidel / Fourier–Motzkin pair queries: the LP only proved that no plane separates the
    /// pair, and the common point came from GJK on the vertex sets.
    PointFromGjk,
    /// Polynomial roots: the polynomial is identically zero (every point is a root).
    Identical,
}

impl Status {
    /// The stable snake_case name used in JSON output and by the CLI (`"converged"`,
    /// `"iteration_limit"`, ...).
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Converged => "converged",
            Status::IterationLimit => "iteration_limit",
            Status::Degenerate => "degenerate",
            Status::Numerical => "numerical",
            Status::Certified => "certified",
            Status::CachedAxis => "cached_axis",
            Status::PointFromGjk => "point_from_gjk",
            Status::Identical => "identical",
        }
    }

    /// The general outcome: a method-specific success (early exit with a certificate, a cached
    /// axis, a point from GJK, an identically zero polynomial) is `Converged`.
    pub fn general(self) -> Status {
        match self {
            Status::Certified | Status::CachedAxis | Status::PointFromGjk | Status::Identical => {
                Status::Converged
            }
            s => s,
        }
    }
}
