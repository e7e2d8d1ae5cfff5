//! The JSON lines `convexity query` prints: one answer or one error per line.
//!
//! Field order is fixed by the struct definitions (serde keeps declaration order), `pair`
//! first. Optional fields that a method does not compute, or that mean nothing for the
//! answer (`normal` of an intersecting pair without a penetration depth), are `null`, except
//! `penetration_depth` and `contact_status`, which appear only when a penetration was
//! computed. −0 is written as 0 here, once, for every coordinate (`coords`).

use convexity::nd::points::{verify_n, PointsN, VerdictN};
use convexity::query::{Outcome, OutcomeN};
use convexity::verdict::CertificateError;
use convexity::{Vector, Verdict};
use serde::Serialize;

/// Coordinates of a vector (−0 is written as 0 by [`to_line`]).
fn coords<V: Vector>(v: V) -> Vec<f64> {
    v.to_vec()
}

/// The certificate of an answer: `{"common_point": p}` or `{"separating_axis": n, "gap": g}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Certificate {
    Common {
        common_point: Vec<f64>,
    },
    Separating {
        separating_axis: Vec<f64>,
        gap: f64,
    },
    /// A common point of shapes read from mesh files as parts or a mesh: `element_a`/`_b`
    /// is the part or triangle of that side holding the point (`null` for a convex shape, or
    /// for a point strictly inside a mesh's solid).
    ElementCommon {
        common_point: Vec<f64>,
        element_a: Option<usize>,
        element_b: Option<usize>,
    },
    /// Separated shapes read from mesh files: every element pair (part or triangle) whose
    /// bounding boxes overlap, each with its own separating axis; every other pair's boxes
    /// are disjoint, and facing a mesh, every piece of the other side (a convex shape, a
    /// part, a triangle's first vertex) lies outside the solid (exact point location).
    ElementsSeparated {
        separated: Vec<ElementAxis>,
    },
}

/// One element pair of an [`Certificate::ElementsSeparated`] certificate, with the tolerance
/// its axis was found with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementAxis {
    pub element_a: Option<usize>,
    pub element_b: Option<usize>,
    pub separating_axis: Vec<f64>,
    pub gap: f64,
    pub tolerance: f64,
}

impl Certificate {
    pub fn from_verdict<V: Vector>(v: &Verdict<V>) -> Option<Certificate> {
        match v {
            Verdict::Intersecting(c) => Some(Certificate::Common {
                common_point: coords(c.point),
            }),
            Verdict::Separated(s) => Some(Certificate::Separating {
                separating_axis: coords(s.axis),
                gap: s.gap,
            }),
            Verdict::Undetermined => None,
        }
    }
}

/// One answer: a pair under one algorithm.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    pub pair: usize,
    pub algorithm: &'static str,
    pub intersecting: Option<bool>,
    pub distance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penetration_depth: Option<Option<f64>>,
    pub point_a: Option<Vec<f64>>,
    pub point_b: Option<Vec<f64>>,
    pub normal: Option<Vec<f64>>,
    pub status: &'static str,
    pub iterations: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_status: Option<&'static str>,
    pub certificate: Option<Certificate>,
    /// The pair's touch tolerance: gaps up to it count as touching.
    pub tolerance: f64,
    /// Whether the certificate passed the independent checker (`verify`) before printing.
    pub verified: bool,
    /// `"verified"`, `"no certificate"`, or `"rejected: <the failed check>"` (the answer was
    /// then withdrawn: `intersecting` is null).
    pub check: String,
}

impl Answer {
    /// The answer for `outcome`. An intersecting verdict always reports distance 0, whatever
    /// the method computes.
    pub fn new<V: Vector>(pair: usize, o: &Outcome<V>) -> Answer {
        let intersecting = o.verdict.intersecting();
        let distance = if intersecting == Some(true) {
            Some(0.0)
        } else {
            o.distance
        };
        Answer {
            pair,
            algorithm: o.method.name(),
            intersecting,
            distance,
            penetration_depth: o.penetration_depth.map(Some),
            point_a: o.point_a.map(coords),
            point_b: o.point_b.map(coords),
            // Without a penetration depth, an intersecting pair has no meaningful normal.
            normal: if intersecting == Some(true) && o.penetration_depth.is_none() {
                None
            } else {
                o.normal.map(coords)
            },
            status: o.status.as_str(),
            iterations: o.iterations,
            contact_status: None,
            certificate: Certificate::from_verdict(&o.verdict),
            tolerance: o.tolerance,
            verified: o.check.verified(),
            check: o.check.describe(),
        }
    }

    /// The answer for an n-dimensional outcome.
    pub fn from_n(pair: usize, o: &OutcomeN, a: &PointsN, b: &PointsN) -> Answer {
        let check_n = verify_n(&o.verdict, a, b, o.tolerance);
        let intersecting = o.verdict.intersecting();
        let clean = |v: &Vec<f64>| v.clone();
        let normal = match (&o.point_a, &o.point_b, intersecting) {
            (Some(pa), Some(pb), Some(false)) => {
                let d: Vec<f64> = pb.iter().zip(pa).map(|(y, x)| y - x).collect();
                let len = d.iter().map(|x| x * x).sum::<f64>().sqrt();
                (len > 0.0).then(|| d.iter().map(|x| x / len).collect())
            }
            _ => None,
        };
        Answer {
            pair,
            algorithm: o.method.name(),
            intersecting,
            distance: if intersecting == Some(true) {
                Some(0.0)
            } else {
                o.distance
            },
            penetration_depth: None,
            point_a: o.point_a.as_ref().map(clean),
            point_b: o.point_b.as_ref().map(clean),
            normal,
            status: o.status.as_str(),
            iterations: o.iterations,
            contact_status: None,
            certificate: match &o.verdict {
                VerdictN::Separated(h) => Some(Certificate::Separating {
                    separating_axis: clean(&h.normal),
                    gap: h.gap,
                }),
                VerdictN::Intersecting(c) => Some(Certificate::Common {
                    common_point: clean(&c.point),
                }),
                VerdictN::Undetermined => None,
            },
            tolerance: o.tolerance,
            verified: check_n.is_ok(),
            check: match check_n {
                Ok(()) => "verified".to_string(),
                Err(CertificateError::NoCertificate) => "no certificate".to_string(),
                Err(e) => format!("rejected: {e}"),
            },
        }
    }

    /// Replaces the contact fields by those of a penetration query (`--contact`).
    pub fn with_contact<V: Vector>(mut self, pen: &Outcome<V>) -> Answer {
        self.penetration_depth = Some(pen.penetration_depth);
        if pen.penetration_depth.is_some() {
            self.point_a = pen.point_a.map(coords);
            self.point_b = pen.point_b.map(coords);
            self.normal = pen.normal.map(coords);
        }
        self.contact_status = Some(pen.status.as_str());
        self
    }
}

/// A pair that could not be answered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorLine<'a> {
    pub pair: usize,
    pub error: &'a str,
}

/// A method that does not apply to a pair (a curved shape for a vertex method, a 2D pair
/// for a 3D-only method, a flat hull for a topology method).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkipLine {
    pub pair: usize,
    pub algorithm: &'static str,
    pub skipped: String,
}

/// The JSON writer's number format: compact, with −0 written as 0 (the one place where −0 is
/// cleaned, for every command's output).
struct CleanZero;

impl serde_json::ser::Formatter for CleanZero {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        serde_json::ser::CompactFormatter.write_f64(w, v + 0.0)
    }
}

/// One line of JSON (no trailing newline), −0 written as 0. Serialising these plain structs
/// cannot fail; the fallback keeps the output valid JSON even so.
pub fn to_line<T: Serialize + ?Sized>(v: &T) -> String {
    let mut buf = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, CleanZero);
    match v.serialize(&mut ser) {
        Ok(()) => String::from_utf8(buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(e) => format!("{{\"error\": {}}}", crate::fields::quote(&e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_zero_is_written_as_zero_everywhere() {
        let v = serde_json::json!({"a": -0.0, "b": [0.0, -0.0, -1.5], "c": {"d": -0.0}});
        assert_eq!(to_line(&v), r#"{"a":0.0,"b":[0.0,0.0,-1.5],"c":{"d":0.0}}"#);
        assert_eq!(to_line(&vec![-0.0_f64, 2.0]), "[0.0,2.0]");
    }
}
