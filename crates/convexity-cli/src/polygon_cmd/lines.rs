//! The polygon command's output lines (JSON) and the picture of one pair.

use super::*;
use crate::output::Certificate;
use crate::svg::{Mark, Svg};
use convexity::polytope::contact2d::{ContactClass, ContactKind};
use convexity::polytope::sat2d::{Body, SatResult};
use convexity::primitives::polygon::{HitKind, Location, SegmentHit};
use convexity::DVec2;
use serde::Serialize;
use serde_json::{json, Value};

pub(super) fn loc_name(l: Location) -> &'static str {
    match l {
        Location::Inside => "inside",
        Location::Boundary => "boundary",
        Location::Outside => "outside",
    }
}

pub(super) fn pt(p: DVec2) -> [f64; 2] {
    [p.x, p.y]
}

#[derive(Serialize)]
pub(super) struct PointLine<'a> {
    pub(super) point: usize,
    pub(super) at: [f64; 2],
    pub(super) polygon: &'a str,
    pub(super) even_odd: &'static str,
    pub(super) non_zero: &'static str,
    pub(super) crossing_number: Option<u64>,
    pub(super) winding_number: Option<i64>,
}

/// An error line: the item (`polygon`/`polyline` name, `point`/`pair` index) and the message.
#[derive(Serialize, Default)]
pub(super) struct ErrLine {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) polygon: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) polyline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) point: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) pair: Option<usize>,
    pub(super) error: String,
}

impl ErrLine {
    pub(super) fn named(what: &str, name: &str, error: String) -> ErrLine {
        let name = Some(name.to_string());
        match what {
            "polygon" => ErrLine {
                polygon: name,
                error,
                ..ErrLine::default()
            },
            _ => ErrLine {
                polyline: name,
                error,
                ..ErrLine::default()
            },
        }
    }
    pub(super) fn indexed(what: &str, i: usize, error: String) -> ErrLine {
        match what {
            "point" => ErrLine {
                point: Some(i),
                error,
                ..ErrLine::default()
            },
            _ => ErrLine {
                pair: Some(i),
                error,
                ..ErrLine::default()
            },
        }
    }
}

/// One intersection as JSON.
pub fn hit_json(h: &SegmentHit) -> Value {
    match h.kind {
        HitKind::Point(p) => {
            json!({"a_segment": h.a_index, "b_segment": h.b_index, "point": pt(p)})
        }
        HitKind::Overlap(p, q) => json!({"a_segment": h.a_index, "b_segment": h.b_index,
                                          "overlap": true, "points": [pt(p), pt(q)]}),
    }
}

pub(super) fn body_name(b: Body) -> &'static str {
    match b {
        Body::A => "a",
        Body::B => "b",
    }
}

pub fn kind_name(k: ContactKind) -> &'static str {
    match k {
        ContactKind::Separated => "separated",
        ContactKind::VertexEdge => "vertex_edge",
        ContactKind::EdgeEdge => "edge_edge",
        ContactKind::MultipleVertexEdge => "multiple_vertex_edge",
        ContactKind::MultipleEdgeEdge => "multiple_edge_edge",
        ContactKind::Crossing => "crossing",
        ContactKind::Contained => "contained",
    }
}

pub(super) fn sat_json(r: &SatResult, pa: &Poly, pb: &Poly, verified: Result<(), String>) -> Value {
    let reference = r.reference.map(|e| {
        let p = if e.body == Body::A { pa } else { pb };
        json!({"body": body_name(e.body), "edge": p.input_edge(e.index), "along_edge": e.along_edge})
    });
    json!({
        "intersecting": r.verdict.intersecting(),
        "separation": r.separation,
        "depth": r.depth(),
        "axis": pt(r.axis),
        "reference": reference,
        "status": match r.status {
            Status::CachedAxis => "cached_axis",
            Status::Degenerate => "degenerate",
            _ => "exhaustive",
        },
        "tolerance": r.tolerance,
        "certificate": Certificate::from_verdict(&r.verdict),
        "certificate_verified": verified.is_ok(),
        "certificate_error": verified.err(),
    })
}

pub(super) fn contact_json(c: &ContactClass) -> Value {
    json!({
        "kind": kind_name(c.kind),
        "body": body_name(c.body),
        "counts": {
            "vertices_a_in_b": c.counts.vertices_a_in_b,
            "edges_a_hit": c.counts.edges_a_hit,
            "vertices_b_in_a": c.counts.vertices_b_in_a,
            "edges_b_hit": c.counts.edges_b_hit,
            "crossings": c.counts.crossings,
        },
        "points": c.points.iter().map(|&p| pt(p)).collect::<Vec<_>>(),
        "crossing_points": c.crossing_points.iter().map(|&p| pt(p)).collect::<Vec<_>>(),
    })
}

/// Intersections, contact points with the SAT axis, or the separating line of one pair.
pub(super) fn draw_pair(svg: &mut Svg, d: &PairDrawing) {
    for h in &d.hits {
        match h.kind {
            HitKind::Point(p) => {
                svg.dot(p, "black", 3.5);
                svg.legend(Mark::Dot, "black", "crossing");
            }
            HitKind::Overlap(p, q) => {
                svg.segment(p, q, "black", 5.0);
                svg.legend(Mark::Segment, "black", "collinear overlap");
            }
        }
    }
    let Some((r, va)) = &d.sat else { return };
    let size = va.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    let len = ((size.1 - size.0).length() * 0.25).max(1e-9);
    if r.verdict.intersecting() == Some(true) {
        if let Some(c) = &d.contact {
            for &p in &c.points {
                svg.dot(p, "#9400d3", 5.0);
                svg.arrow(p, p + r.axis * len, "#9400d3");
                svg.legend(Mark::Dot, "#9400d3", "contact point");
                svg.legend(Mark::Arrow, "#9400d3", "SAT axis (A to B)");
            }
        }
    } else {
        // The line {x : axis·x = max_A axis·x + gap / 2}, half way across the gap.
        let m = va
            .iter()
            .fold(f64::NEG_INFINITY, |m, p| m.max(r.axis.dot(*p)));
        let through = r.axis * (m + 0.5 * r.separation);
        svg.line(through, r.axis.perp(), "gray");
        svg.arrow(through, through + r.axis * len, "gray");
        svg.legend(Mark::Line, "gray", "separating line");
        svg.legend(Mark::Arrow, "gray", "separating axis (A to B)");
    }
}

/// What a pair produced, for the picture.
#[derive(Default)]
pub(super) struct PairDrawing {
    pub(super) hits: Vec<SegmentHit>,
    pub(super) sat: Option<(SatResult, Vec<DVec2>)>,
    pub(super) contact: Option<ContactClass>,
}

/// The answer for one pair.
#[derive(Serialize, Default)]
pub(super) struct PairLine {
    pub(super) pair: usize,
    pub(super) a: String,
    pub(super) b: String,
    pub(super) intersections: Vec<Value>,
    pub(super) sat: Option<Value>,
    pub(super) contact: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) note: Option<String>,
}

/// Draws the polygons (filled under the chosen rule, underneath) and the polylines, with their
/// legend entries, and fits the view to them: query points outside it are drawn at its border
/// as outliers rather than shrinking the scene.
pub(super) fn draw_scene(
    svg: &mut Svg,
    polygons: &BTreeMap<String, Result<Poly, String>>,
    polylines: &BTreeMap<String, Result<Vec<DVec2>, String>>,
    even_odd: bool,
) {
    // Drawing: polygons first (underneath), then polylines.
    const COLORS: &[&str] = &[
        "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#bcbd22",
    ];
    let rule_name = if even_odd { "even-odd" } else { "non-zero" };
    // The view fits the polygons and polylines; query points outside it are drawn at its
    // border as outliers rather than shrinking the scene.
    let mut view = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    let mut grow = |pts: &[DVec2]| {
        for &q in pts.iter().filter(|q| q.is_finite()) {
            view = (view.0.min(q), view.1.max(q));
        }
    };
    for p in polygons.values().flatten() {
        for r in &p.rings {
            grow(r);
        }
    }
    for l in polylines.values().flatten() {
        grow(l);
    }
    svg.fit_to(view.0, view.1);
    let mut names_by_color: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (k, (name, p)) in polygons.iter().enumerate() {
        if p.is_ok() {
            names_by_color
                .entry(COLORS[k % COLORS.len()])
                .or_default()
                .push(name.as_str());
        }
    }
    for (c, names) in &names_by_color {
        svg.legend(
            Mark::Area,
            c,
            &format!("polygon {} ({rule_name})", names.join(", ")),
        );
    }
    for (k, (name, p)) in polygons.iter().enumerate() {
        if let Ok(p) = p {
            let c = COLORS[k % COLORS.len()];
            svg.rings(&p.rings, c, c, even_odd);
            if let Some(v) = p.rings.first().and_then(|r| r.first()) {
                svg.label(*v, name, c);
            }
        }
    }
    for (name, l) in polylines {
        if let Ok(l) = l {
            for r in parts(l) {
                svg.polyline(&l[r.clone()], "#d62728", false);
                svg.legend(Mark::Path, "#d62728", "polyline");
                svg.label(l[r.start], name, "#d62728");
            }
        }
    }
}
