//! One pair at a time: `distance`, `intersects`, `penetration`, `query(method, ...)`,
//! `verify` and `certificate_error`. Poses are read for the pair's dimension; n-dimensional
//! point sets take no pose.

use crate::convert::{guard, input_error, value_error};
use crate::pose;
use crate::results::{inline_coords, PyCertificate, PyQueryResult};
use crate::shapes::{shape_arg, Geom, ShapeData};
use convexity::gjk::{self, epa};
use convexity::nd::points::{verify_n, PointsN};
use convexity::query::{self as cq, Method, Outcome};
use convexity::shape::Polytope;
use convexity::{DVec2, DVec3, Pose, Pose2, Pose3, Shape2, Shape3, Vector};
use pyo3::prelude::*;
use std::cell::RefCell;

/// A pair ready to query.
pub enum Pair<'a> {
    D2(&'a Shape2, Pose2, &'a Shape2, Pose2),
    D3(&'a Shape3, Pose3, &'a Shape3, Pose3),
    Nd(&'a PointsN, &'a PointsN),
}

pub fn dim_name(d: usize) -> String {
    match d {
        2 => "2D".into(),
        3 => "3D".into(),
        n => format!("{n}-dimensional"),
    }
}

pub fn pair<'a>(
    a: &'a ShapeData,
    pose_a: &Bound<'_, PyAny>,
    b: &'a ShapeData,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Pair<'a>> {
    if a.dim() != b.dim() {
        return Err(value_error(
            "b",
            format!(
                "shape b is {} but shape a is {}; both shapes of a pair must have the same \
                 dimension",
                dim_name(b.dim()),
                dim_name(a.dim())
            ),
        ));
    }
    match (&a.geom, &b.geom) {
        (Geom::D2(sa), Geom::D2(sb)) => Ok(Pair::D2(
            sa,
            pose::pose2(pose_a, "pose_a")?,
            sb,
            pose::pose2(pose_b, "pose_b")?,
        )),
        (Geom::D3(sa), Geom::D3(sb)) => Ok(Pair::D3(
            sa,
            pose::pose3(pose_a, "pose_a")?,
            sb,
            pose::pose3(pose_b, "pose_b")?,
        )),
        (Geom::Nd(pa), Geom::Nd(pb)) => {
            for (p, f) in [(pose_a, "pose_a"), (pose_b, "pose_b")] {
                if !p.is_none() {
                    return Err(value_error(
                        f,
                        "n-dimensional point sets take no pose (pass None; their coordinates \
                         are world coordinates)",
                    ));
                }
            }
            Ok(Pair::Nd(pa, pb))
        }
        _ => Err(value_error("b", "shapes a and b cannot be paired")),
    }
}

fn args<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<(std::sync::Arc<ShapeData>, std::sync::Arc<ShapeData>)> {
    Ok((shape_arg(a, "a")?, shape_arg(b, "b")?))
}

/// The answer as a Python object, made inside the guarded call: the result struct (about 300
/// bytes) is then moved into the object without also passing through `catch_unwind`'s and the
/// wrapper's return values (callgrind, `distance` on two balls: `memcpy` 179 → 75
/// instructions a call).
fn object(py: Python<'_>, r: PyQueryResult) -> PyResult<Py<PyQueryResult>> {
    Py::new(py, r)
}

fn gjk_distance<V: Vector, S: convexity::SupportMap<V>>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
) -> PyQueryResult {
    let d = gjk::distance(a, pa, b, pb, &gjk::Options::default(), None);
    let mut r = PyQueryResult::new("gjk", d.status, d.iterations, d.tolerance);
    r.distance = Some(d.distance);
    r.lower_bound = Some(d.lower_bound);
    r.intersecting = d.verdict.intersecting();
    r.point_a = Some(inline_coords(d.point_a));
    r.point_b = Some(inline_coords(d.point_b));
    r.normal = Some(inline_coords(d.normal));
    r.certificate = PyCertificate::from_verdict(&d.verdict);
    r
}

fn nd_distance(a: &PointsN, b: &PointsN) -> PyResult<PyQueryResult> {
    let d = convexity::nd::distance_n(a, b, &convexity::nd::NdOptions::default())
        .map_err(|e| input_error("", e))?;
    let mut r = PyQueryResult::new("gjk-nd", d.status, d.iterations, d.tolerance);
    r.distance = Some(d.distance);
    r.lower_bound = Some(d.lower_bound);
    r.intersecting = d.verdict.intersecting();
    r.point_a = Some(d.point_a.into());
    r.point_b = Some(d.point_b.into());
    r.normal = Some(d.normal.into());
    r.certificate = PyCertificate::from_verdict_n(&d.verdict);
    Ok(r)
}

/// Distance between `a` at `pose_a` and `b` at `pose_b` (GJK), with closest points, the
/// normal from A toward B and a certificate.
///
/// Poses: a (7,) array `[tx, ty, tz, qx, qy, qz, qw]` (scalar-last), a (4, 4) matrix, or None
/// (identity); in 2D `[tx, ty, angle]`. n-dimensional point sets take None.
///
/// >>> import convexity as cx
/// >>> r = cx.distance(cx.Box([1, 1, 1]), None, cx.Sphere(0.5), [3, 0, 0, 0, 0, 0, 1])
/// >>> round(r.distance, 12), r.intersecting
/// (1.5, False)
#[pyfunction]
pub fn distance(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Py<PyQueryResult>> {
    let py = a.py();
    guard(|| {
        let (sa, sb) = args(a, b)?;
        match pair(&sa, pose_a, &sb, pose_b)? {
            Pair::D2(a, pa, b, pb) => object(py, gjk_distance(a, &pa, b, &pb)),
            Pair::D3(a, pa, b, pb) => object(py, gjk_distance(a, &pa, b, &pb)),
            Pair::Nd(a, b) => object(py, nd_distance(a, b)?),
        }
    })
}

fn gjk_intersects<V: Vector, S: convexity::SupportMap<V>>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
) -> PyQueryResult {
    let d = gjk::intersects(a, pa, b, pb, &gjk::Options::default(), None);
    let mut r = PyQueryResult::new("gjk-boolean", d.status, d.iterations, d.tolerance);
    r.intersecting = d.verdict.intersecting();
    r.certificate = PyCertificate::from_verdict(&d.verdict);
    r
}

/// Boolean intersection test with early exit (GJK) and a certificate. Touching counts as
/// intersecting; `intersecting` is None only when neither answer could be proved.
///
/// >>> import convexity as cx
/// >>> cx.intersects(cx.Sphere(1), None, cx.Sphere(1), [2, 0, 0, 0, 0, 0, 1]).intersecting
/// True
#[pyfunction]
pub fn intersects(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Py<PyQueryResult>> {
    let py = a.py();
    guard(|| {
        let (sa, sb) = args(a, b)?;
        match pair(&sa, pose_a, &sb, pose_b)? {
            Pair::D2(a, pa, b, pb) => object(py, gjk_intersects(a, &pa, b, &pb)),
            Pair::D3(a, pa, b, pb) => object(py, gjk_intersects(a, &pa, b, &pb)),
            Pair::Nd(a, b) => {
                let mut r = nd_distance(a, b)?;
                r.distance = None;
                object(py, r)
            }
        }
    })
}

thread_local! {
    static EPA2: RefCell<epa::Context<DVec2>> = RefCell::new(epa::Context::new());
    static EPA3: RefCell<epa::Context<DVec3>> = RefCell::new(epa::Context::new());
}

pub fn penetration_result<V: Vector>(p: &epa::Penetration<V>) -> PyQueryResult {
    let mut r = PyQueryResult::new("epa", p.status, p.iterations, p.tolerance);
    r.depth = Some(p.depth);
    r.distance = Some((-p.depth).max(0.0));
    r.intersecting = p.verdict.intersecting();
    r.point_a = Some(inline_coords(p.point_a));
    r.point_b = Some(inline_coords(p.point_b));
    r.normal = Some(inline_coords(p.normal));
    r.certificate = PyCertificate::from_verdict(&p.verdict);
    r
}

pub fn epa2(a: &Shape2, pa: &Pose2, b: &Shape2, pb: &Pose2) -> epa::Penetration<DVec2> {
    EPA2.with(|c| match c.try_borrow_mut() {
        Ok(mut ctx) => epa::penetration(a, pa, b, pb, &epa::Options::default(), &mut ctx),
        Err(_) => epa::penetration(
            a,
            pa,
            b,
            pb,
            &epa::Options::default(),
            &mut epa::Context::new(),
        ),
    })
}

pub fn epa3(a: &Shape3, pa: &Pose3, b: &Shape3, pb: &Pose3) -> epa::Penetration<DVec3> {
    EPA3.with(|c| match c.try_borrow_mut() {
        Ok(mut ctx) => epa::penetration(a, pa, b, pb, &epa::Options::default(), &mut ctx),
        Err(_) => epa::penetration(
            a,
            pa,
            b,
            pb,
            &epa::Options::default(),
            &mut epa::Context::new(),
        ),
    })
}

/// Penetration depth, normal and contact points (GJK + EPA); for a separated pair the depth
/// is minus the distance. Moving B by `depth * normal` makes the shapes touch.
///
/// >>> import convexity as cx
/// >>> r = cx.penetration(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), [1.5, 0, 0, 0, 0, 0, 1])
/// >>> round(r.depth, 12)
/// 0.5
#[pyfunction]
pub fn penetration(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
) -> PyResult<Py<PyQueryResult>> {
    let py = a.py();
    guard(|| {
        let (sa, sb) = args(a, b)?;
        match pair(&sa, pose_a, &sb, pose_b)? {
            Pair::D2(a, pa, b, pb) => object(py, penetration_result(&epa2(a, &pa, b, &pb))),
            Pair::D3(a, pa, b, pb) => object(py, penetration_result(&epa3(a, &pa, b, &pb))),
            Pair::Nd(..) => Err(value_error(
                "a",
                "penetration needs 2D or 3D shapes (use distance or distance_nd for point sets)",
            )),
        }
    })
}

fn outcome_result<V: Vector>(o: Outcome<V>) -> PyQueryResult {
    let mut r = PyQueryResult::new(o.method.name(), o.status, o.iterations, o.tolerance);
    // As the CLI reports it: an intersecting verdict has distance 0 whatever the method
    // computed (a touching pair within the tolerance may have computed a tiny gap).
    r.distance = if o.verdict.intersecting() == Some(true) {
        Some(0.0)
    } else {
        o.distance
    };
    r.depth = o.penetration_depth;
    r.intersecting = o.verdict.intersecting();
    r.point_a = o.point_a.map(inline_coords);
    r.point_b = o.point_b.map(inline_coords);
    // As the CLI reports it: an intersecting pair without a penetration depth has no
    // meaningful normal (GJK's last direction there is an artefact of the run), so none.
    r.normal = if r.intersecting == Some(true) && o.penetration_depth.is_none() {
        None
    } else {
        o.normal.map(inline_coords)
    };
    r.certificate = PyCertificate::from_verdict(&o.verdict);
    r.check = Some(o.check.describe());
    r
}

pub fn method_arg(name: &str) -> PyResult<Method> {
    Method::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        value_error(
            "method",
            format!(
                "unknown method {name:?}; valid methods are: {}",
                names.join(", ")
            ),
        )
    })
}

fn run<V, S>(
    m: Method,
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    force: bool,
) -> PyResult<PyQueryResult>
where
    V: cq::QuerySpace,
    S: Polytope<V>,
{
    if !force {
        let count = |s: &S| s.vertex_set().map_or(0, |v| v.len());
        m.check_size(count(a), count(b)).map_err(|e| {
            value_error("method", format!("{e} (pass force=True to run it anyway)"))
        })?;
    }
    let o = cq::run(m, a, pa, b, pb).map_err(|e| value_error("method", e))?;
    Ok(outcome_result(o))
}

/// Runs any method of the CLI (`gjk`, `gjk-boolean`, `epa`, `vclip`, `boundary`, `sat`,
/// `chung-wang`, `gjk-nd`, `lp`, `lp-reference`, `pso`, `penalty`, `tri-tri`, `seidel`,
/// `fourier-motzkin`) on one pair; its certificate is checked independently before it is
/// returned (`check`). A method that does not apply raises ValueError naming `method`;
/// `force=True` runs the costly methods beyond their size limits.
///
/// >>> import convexity as cx
/// >>> r = cx.query("vclip", cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), [3, 0, 0, 0, 0, 0, 1])
/// >>> r.intersecting, r.check
/// (False, 'verified')
#[pyfunction]
#[pyo3(signature = (method, a, pose_a, b, pose_b, force = false))]
pub fn query(
    method: &str,
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
    force: bool,
) -> PyResult<PyQueryResult> {
    guard(|| {
        let m = method_arg(method)?;
        let (sa, sb) = args(a, b)?;
        match pair(&sa, pose_a, &sb, pose_b)? {
            Pair::D2(a, pa, b, pb) => run(m, a, &pa, b, &pb, force),
            Pair::D3(a, pa, b, pb) => run(m, a, &pa, b, &pb, force),
            Pair::Nd(a, b) => {
                if !force {
                    m.check_size(a.len(), b.len()).map_err(|e| {
                        value_error("method", format!("{e} (pass force=True to run it anyway)"))
                    })?;
                }
                let o = cq::run_n(m, a, b).map_err(|e| value_error("method", e))?;
                let mut r =
                    PyQueryResult::new(o.method.name(), o.status, o.iterations, o.tolerance);
                r.intersecting = o.verdict.intersecting();
                r.distance = if r.intersecting == Some(true) {
                    Some(0.0)
                } else {
                    o.distance
                };
                if let (Some(pa), Some(pb), Some(false)) = (&o.point_a, &o.point_b, r.intersecting)
                {
                    let d: Vec<f64> = pb.iter().zip(pa).map(|(y, x)| y - x).collect();
                    let len = d.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if len > 0.0 {
                        r.normal = Some(d.iter().map(|x| x / len).collect());
                    }
                }
                r.point_a = o.point_a.map(Into::into);
                r.point_b = o.point_b.map(Into::into);
                r.certificate = PyCertificate::from_verdict_n(&o.verdict);
                r.check = Some(match verify_n(&o.verdict, a, b, o.tolerance) {
                    Ok(()) => "verified".to_string(),
                    Err(convexity::verdict::CertificateError::NoCertificate) => {
                        "no certificate".to_string()
                    }
                    Err(e) => format!("rejected: {e}"),
                });
                Ok(r)
            }
        }
    })
}

/// Why a certificate fails, or None when it holds (n-D common points are checked by LP
/// membership in both hulls).
fn certificate_problem(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
    certificate: &Bound<'_, PyAny>,
    tol: f64,
) -> PyResult<Option<String>> {
    if !tol.is_finite() || tol < 0.0 {
        return Err(value_error(
            "tol",
            format!("value {tol} must be finite and >= 0"),
        ));
    }
    let cert = certificate
        .cast::<PyCertificate>()
        .map_err(|_| value_error("certificate", "expected a convexity.Certificate"))?
        .get()
        .clone();
    let (sa, sb) = args(a, b)?;
    let r = match pair(&sa, pose_a, &sb, pose_b)? {
        Pair::D2(a, pa, b, pb) => convexity::verify(a, &pa, b, &pb, &cert.verdict::<DVec2>()?, tol),
        Pair::D3(a, pa, b, pb) => convexity::verify(a, &pa, b, &pb, &cert.verdict::<DVec3>()?, tol),
        Pair::Nd(a, b) => {
            let v = cert.verdict_n();
            let n = match &v {
                convexity::nd::points::VerdictN::Separated(h) => h.normal.len(),
                convexity::nd::points::VerdictN::Intersecting(c) => c.point.len(),
                _ => 0,
            };
            if n != a.dim() {
                return Err(value_error(
                    "certificate",
                    format!(
                        "has {n} coordinates but the shapes are {}-dimensional",
                        a.dim()
                    ),
                ));
            }
            match v {
                convexity::nd::points::VerdictN::Intersecting(c) => {
                    let opts = convexity::lp::LpOptions::default();
                    for (hull, which) in [(a, "A"), (b, "B")] {
                        let inside = convexity::lp::point_in_hull(&c.point, hull, &opts)
                            .map_err(|e| input_error("certificate", e))?;
                        if inside.inside() != Some(true) {
                            return Ok(Some(format!("the common point is not in {which}")));
                        }
                    }
                    Ok(())
                }
                v => verify_n(&v, a, b, tol),
            }
        }
    };
    Ok(r.err().map(|e| e.to_string()))
}

/// Checks a certificate with the shapes' support functions only (no algorithm trusted):
/// True when it holds within `tol`.
///
/// >>> import convexity as cx
/// >>> a, b = cx.Sphere(1), cx.Sphere(1)
/// >>> r = cx.distance(a, None, b, [3, 0, 0, 0, 0, 0, 1])
/// >>> cx.verify(a, None, b, [3, 0, 0, 0, 0, 0, 1], r.certificate)
/// True
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, certificate, tol = 1e-9))]
pub fn verify(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
    certificate: &Bound<'_, PyAny>,
    tol: f64,
) -> PyResult<bool> {
    guard(|| Ok(certificate_problem(a, pose_a, b, pose_b, certificate, tol)?.is_none()))
}

/// Like `verify`, but returns why the certificate fails (None when it holds).
///
/// >>> import convexity as cx
/// >>> bad = cx.Certificate.separating_axis([1, 0, 0], 5.0)
/// >>> cx.certificate_error(cx.Sphere(1), None, cx.Sphere(1), [3, 0, 0, 0, 0, 0, 1], bad) is None
/// False
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, certificate, tol = 1e-9))]
pub fn certificate_error(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
    certificate: &Bound<'_, PyAny>,
    tol: f64,
) -> PyResult<Option<String>> {
    guard(|| certificate_problem(a, pose_a, b, pose_b, certificate, tol))
}
