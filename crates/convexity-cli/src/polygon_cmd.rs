//! `convexity polygon FILE [--svg OUT]`: point location in general polygons, segment
//! intersections of polylines and polygons, and SAT plus contact classification for pairs of
//! convex polygons.
//!
//! Input (JSON; `-` reads standard input):
//!
//! ```json
//! {
//!   "polygons": {
//!     "L": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]],
//!     "frame": [[0, 0], [10, 0], [10, 10], [0, 10], null, [3, 3], [3, 7], [7, 7], [7, 3]]
//!   },
//!   "polylines": {"zigzag": [[-1, 2], [5, 2], "NaN", [2, -1], [2, 5]]},
//!   "points": [[0.5, 0.5], [4, 1], [5, 5]],
//!   "pairs": [{"a": "L", "b": "zigzag"}, {"a": "L", "b": "frame"}]
//! }
//! ```
//!
//! * `polygons`: name → vertex list. Rings (outer boundaries, holes, islands; either
//!   orientation; self-intersections allowed) are separated by a separator entry: `null`, the
//!   string `"NaN"`, or a vertex whose two coordinates are both NaN (`["NaN", "NaN"]`), as in
//!   MATLAB/Octave `inpolygon` and GIS exports. Each ring closes itself; a last vertex equal
//!   to the first is ignored. A vertex with one NaN coordinate is an error.
//! * `polylines`: name → vertex list, parts separated the same way (open chains).
//! * `points`: query points, `[x, y]` (located in every polygon) or `{"at": [x, y], "in":
//!   ["L", ...]}` (located in the named polygons only).
//! * `pairs`: `{"a": name, "b": name}`; a name is a polygon or a polyline (names must not be
//!   used in both maps). Every pair gets its segment intersections; a pair of polygons that
//!   are both single convex rings also gets SAT and the contact classification.
//!
//! Output, one JSON line per result, in this order:
//! * per point and polygon: `{"point": i, "at": [x, y], "polygon": name, "even_odd":
//!   "inside"|"boundary"|"outside", "non_zero": ..., "crossing_number": n|null,
//!   "winding_number": w|null}` (the numbers are `null` on the boundary, where no count is
//!   meaningful);
//! * per pair: `{"pair": i, "a", "b", "intersections": [...], "sat": {...}|null, "contact":
//!   {...}|null, "note"?}`. An intersection is `{"a_segment": i, "b_segment": j, "point":
//!   [x, y]}` or, for collinear overlaps, `{"a_segment", "b_segment", "overlap": true,
//!   "points": [[x, y], [x, y]]}`; segment `i` runs from vertex `i` of the input list
//!   (separators counted) to the next vertex of its part or ring. `sat` has `intersecting`,
//!   `separation` (gap if positive, minus the depth otherwise), `depth`, `axis` (unit, A → B),
//!   `reference` (`{"body": "a"|"b", "edge": i}` with `i` an input edge index), `status`,
//!   `tolerance`, `certificate` (`{"common_point"}` or `{"separating_axis", "gap"}`) and
//!   `certificate_verified` (the independent checker `convexity::verify`). `contact` has
//!   `kind`, `body`, `counts` and the contact `points` and `crossing_points`.
//!
//! Errors name the field (`polygons.L[3][1]: value NaN is not finite`, `pairs[2].b: unknown
//! name ...`) on lines `{"polygon"|"polyline": name, "error"}`, `{"point": i, "error"}` or
//! `{"pair": i, "error"}`; everything else is still answered and the exit status is 2.
//!
//! `--svg OUT` draws the polygons (filled, even–odd), the polylines, the query points coloured
//! by their even–odd location (green inside, orange boundary, red outside), intersection
//! points (black; overlaps as thick black segments), contact points (purple) with the SAT
//! axis as an arrow, and for separated convex pairs the separating line (dashed gray) half
//! way across the gap.

use crate::fields::{self, describe, quote};
use crate::input::read_json;
use crate::output::{to_line, Certificate};
use crate::svg::Svg;
use crate::{emit, exit, Fatal};
use convexity::error::MAX_MAGNITUDE;
use convexity::polytope::contact2d::{classify, ContactClass, ContactKind};
use convexity::polytope::sat2d::{sat, Body, SatResult};
use convexity::primitives::polygon::{
    polygon_intersections, polygon_polyline_intersections, polyline_intersections, FillRule,
    HitKind, Location, Polygon, SegmentHit,
};
use convexity::{ConvexPolygon, DVec2, InputError, Pose2, Problem, Status};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn invalid(field: &str, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

/// A NaN-separated vertex list: `null`, `"NaN"` and `[NaN, NaN]` are separators (stored as
/// `DVec2::NAN`); any other entry must be a finite point within the supported magnitude.
pub fn vertex_list(v: &Value, field: &str) -> Result<Vec<DVec2>, InputError> {
    let arr = v.as_array().ok_or_else(|| {
        invalid(
            field,
            format!(
                "expected an array of [x, y] vertices (with null or \"NaN\" separators), found {}",
                describe(v)
            ),
        )
    })?;
    let mut out = Vec::with_capacity(arr.len());
    for (i, e) in arr.iter().enumerate() {
        let here = format!("{field}[{i}]");
        match e {
            Value::Null => out.push(DVec2::NAN),
            Value::String(s) if fields::non_finite_word(s).is_some_and(f64::is_nan) => {
                out.push(DVec2::NAN)
            }
            _ => {
                let c = fields::numbers(e, &here)?;
                if c.len() != 2 {
                    return Err(InputError::new(
                        here,
                        Problem::DimensionMismatch {
                            expected: 2,
                            found: c.len(),
                        },
                    ));
                }
                if c[0].is_nan() && c[1].is_nan() {
                    out.push(DVec2::NAN);
                    continue;
                }
                fields::finite_coords(&here, &c)?;
                if let Some(k) = c.iter().position(|x| x.abs() > MAX_MAGNITUDE) {
                    return Err(InputError::new(
                        format!("{here}[{k}]"),
                        Problem::OutOfRange(c[k]),
                    ));
                }
                out.push(DVec2::new(c[0], c[1]));
            }
        }
    }
    Ok(out)
}

/// The parts of a NaN-separated list as index ranges (empty parts dropped).
fn parts(v: &[DVec2]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, p) in v.iter().enumerate() {
        if p.x.is_nan() {
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
        }
    }
    if v.len() > start {
        out.push(start..v.len());
    }
    out
}

/// A polygon of the input with its rings, and its convex form when it is one convex ring.
pub struct Poly {
    pub polygon: Polygon,
    pub rings: Vec<Vec<DVec2>>,
    /// The convex polygon and the input index of its first vertex, with `reversed` when the
    /// input ring was clockwise (ConvexPolygon stores counter-clockwise).
    pub convex: Result<(ConvexPolygon, usize, bool), String>,
}

impl Poly {
    pub fn new(vertices: &[DVec2], field: &str) -> Result<Poly, InputError> {
        let polygon = Polygon::new(vertices).map_err(|e| rename(e, "vertices", field))?;
        let rings: Vec<Vec<DVec2>> = polygon
            .rings()
            .iter()
            .map(|r| polygon.vertices()[r.clone()].to_vec())
            .collect();
        let convex = match polygon.rings() {
            [r] => {
                let ring = &polygon.vertices()[r.clone()];
                ConvexPolygon::new(ring)
                    .map(|c| {
                        let reversed = ring.len() > 2 && c.vertices().first() != ring.first();
                        (c, r.start, reversed)
                    })
                    .map_err(|e| format!("not convex ({})", e.to_string().trim_start_matches(": ")))
            }
            rs => Err(format!("{} rings", rs.len())),
        };
        Ok(Poly {
            polygon,
            rings,
            convex,
        })
    }

    /// The input index of the first vertex of convex edge `k` (counter-clockwise order).
    fn input_edge(&self, k: usize) -> Option<usize> {
        let (c, start, reversed) = self.convex.as_ref().ok()?;
        let n = c.vertices().len();
        Some(if *reversed {
            // ccw[k] = ring[n-1-k]: edge ccw[k] → ccw[k+1] is input edge ring[n-2-k] → ring[n-1-k].
            start + (2 * n - 2 - k) % n
        } else {
            start + k
        })
    }
}

fn rename(e: InputError, from: &str, to: &str) -> InputError {
    let field = match e.field.strip_prefix(from) {
        Some(rest) => format!("{to}{rest}"),
        None if e.field.is_empty() => to.to_string(),
        None => format!("{to}.{}", e.field),
    };
    InputError::new(field, e.problem)
}

fn loc_name(l: Location) -> &'static str {
    match l {
        Location::Inside => "inside",
        Location::Boundary => "boundary",
        Location::Outside => "outside",
    }
}

fn pt(p: DVec2) -> [f64; 2] {
    [p.x, p.y]
}

#[derive(Serialize)]
struct PointLine<'a> {
    point: usize,
    at: [f64; 2],
    polygon: &'a str,
    even_odd: &'static str,
    non_zero: &'static str,
    crossing_number: Option<u64>,
    winding_number: Option<i64>,
}

/// An error line: the item (`polygon`/`polyline` name, `point`/`pair` index) and the message.
#[derive(Serialize, Default)]
struct ErrLine {
    #[serde(skip_serializing_if = "Option::is_none")]
    polygon: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    polyline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pair: Option<usize>,
    error: String,
}

impl ErrLine {
    fn named(what: &str, name: &str, error: String) -> ErrLine {
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
    fn indexed(what: &str, i: usize, error: String) -> ErrLine {
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

fn body_name(b: Body) -> &'static str {
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

fn sat_json(r: &SatResult, pa: &Poly, pb: &Poly, verified: Result<(), String>) -> Value {
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

fn contact_json(c: &ContactClass) -> Value {
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

/// A named item of a pair.
enum Item<'a> {
    Polygon(&'a Poly),
    Polyline(&'a [DVec2]),
}

/// What a pair produced, for the picture.
#[derive(Default)]
struct PairDrawing {
    hits: Vec<SegmentHit>,
    sat: Option<(SatResult, Vec<DVec2>)>,
    contact: Option<ContactClass>,
}

/// The answer for one pair.
#[derive(Serialize, Default)]
struct PairLine {
    pair: usize,
    a: String,
    b: String,
    intersections: Vec<Value>,
    sat: Option<Value>,
    contact: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn answer_pair(a: &Item, b: &Item) -> Result<(PairLine, PairDrawing), InputError> {
    let hits = match (a, b) {
        (Item::Polygon(p), Item::Polygon(q)) => polygon_intersections(&p.polygon, &q.polygon),
        (Item::Polygon(p), Item::Polyline(l)) => {
            polygon_polyline_intersections(&p.polygon, l, true)?
        }
        (Item::Polyline(l), Item::Polygon(p)) => {
            polygon_polyline_intersections(&p.polygon, l, false)?
        }
        (Item::Polyline(l), Item::Polyline(m)) => polyline_intersections(l, m)?,
    };
    let mut d = PairDrawing {
        hits,
        ..PairDrawing::default()
    };
    let mut v = PairLine {
        intersections: d.hits.iter().map(hit_json).collect(),
        ..PairLine::default()
    };
    match (a, b) {
        (Item::Polygon(p), Item::Polygon(q)) => match (&p.convex, &q.convex) {
            (Ok((ca, ..)), Ok((cb, ..))) => {
                let id = Pose2::IDENTITY;
                let r = sat(ca, &id, cb, &id, None);
                let tol = convexity::gjk::certificate::tolerance_for(ca, &id, cb, &id);
                let verified =
                    convexity::verify(ca, &id, cb, &id, &r.verdict, tol).map_err(|e| e.to_string());
                let c = classify(ca, &id, cb, &id);
                v.sat = Some(sat_json(&r, p, q, verified));
                v.contact = Some(contact_json(&c));
                d.sat = Some((r, ca.vertices().to_vec()));
                d.contact = Some(c);
            }
            (ea, eb) => {
                let why: Vec<String> = [("a", ea), ("b", eb)]
                    .iter()
                    .filter_map(|(n, e)| e.as_ref().err().map(|m| format!("{n}: {m}")))
                    .collect();
                v.note = Some(format!(
                    "SAT and contact classification need two single-ring convex polygons; {}",
                    why.join("; ")
                ));
            }
        },
        _ => {
            v.note = Some("SAT and contact classification apply to polygon pairs only".into());
        }
    }
    Ok((v, d))
}

/// Everything the command prints and draws for a parsed input.
pub struct Report {
    pub lines: Vec<String>,
    pub errors: usize,
    pub svg: String,
}

/// Answers a parsed input. `Err` for an unusable top level.
pub fn answer_all(v: &Value, title: &str) -> Result<Report, String> {
    let obj = v.as_object().ok_or_else(|| {
        format!(
            "the input must be a JSON object with \"polygons\", \"polylines\", \"points\" and \
             \"pairs\", found {}",
            describe(v)
        )
    })?;
    const KEYS: &[&str] = &["polygons", "polylines", "points", "pairs"];
    for k in obj.keys() {
        if !KEYS.contains(&k.as_str()) {
            let hint = fields::suggestion(k, KEYS)
                .map(|s| format!("; did you mean \"{s}\"?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown top-level field {} (expected {}){hint}",
                quote(k),
                KEYS.join(", ")
            ));
        }
    }
    let map = |key: &str| -> Result<Vec<(String, Value)>, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Object(m)) => Ok(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Some(other) => Err(format!(
                "\"{key}\" must be an object mapping names to vertex lists, found {}",
                describe(other)
            )),
        }
    };
    let list = |key: &str| -> Result<Vec<Value>, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => Ok(a.clone()),
            Some(other) => Err(format!(
                "\"{key}\" must be an array, found {}",
                describe(other)
            )),
        }
    };
    let (poly_v, line_v) = (map("polygons")?, map("polylines")?);
    let (points_v, pairs_v) = (list("points")?, list("pairs")?);

    let mut lines = Vec::new();
    let mut errors = 0usize;
    let mut svg = Svg::new(title);
    let mut err_line = |lines: &mut Vec<String>, v: ErrLine| {
        errors += 1;
        lines.push(to_line(&v));
    };

    let mut polygons: BTreeMap<String, Result<Poly, String>> = BTreeMap::new();
    for (name, v) in &poly_v {
        let field = format!("polygons.{name}");
        let p = vertex_list(v, &field)
            .and_then(|vs| Poly::new(&vs, &field))
            .map_err(|e| e.to_string());
        if let Err(e) = &p {
            err_line(&mut lines, ErrLine::named("polygon", name, e.clone()));
        }
        polygons.insert(name.clone(), p);
    }
    let mut polylines: BTreeMap<String, Result<Vec<DVec2>, String>> = BTreeMap::new();
    for (name, v) in &line_v {
        let field = format!("polylines.{name}");
        let p = vertex_list(v, &field).map_err(|e| e.to_string());
        if let Err(e) = &p {
            err_line(&mut lines, ErrLine::named("polyline", name, e.clone()));
        }
        if polygons.contains_key(name) {
            err_line(
                &mut lines,
                ErrLine::named(
                    "polyline",
                    name,
                    format!(
                        "polylines.{name}: the name {} is also a polygon; names must be unique",
                        quote(name)
                    ),
                ),
            );
        }
        polylines.insert(name.clone(), p);
    }

    // Drawing: polygons first (underneath), then polylines.
    const COLORS: &[&str] = &[
        "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#bcbd22",
    ];
    for (k, (name, p)) in polygons.iter().enumerate() {
        if let Ok(p) = p {
            let c = COLORS[k % COLORS.len()];
            svg.rings(&p.rings, c, c, true);
            if let Some(v) = p.rings.first().and_then(|r| r.first()) {
                svg.label(*v, name, c);
            }
        }
    }
    for (name, l) in &polylines {
        if let Ok(l) = l {
            for r in parts(l) {
                svg.polyline(&l[r.clone()], "#d62728", false);
                svg.label(l[r.start], name, "#d62728");
            }
        }
    }

    for (i, pv) in points_v.iter().enumerate() {
        let field = format!("points[{i}]");
        let p = parse_point(pv, &field, &polygons);
        let (p, only) = match p {
            Ok(p) => p,
            Err(e) => {
                err_line(&mut lines, ErrLine::indexed("point", i, e.to_string()));
                continue;
            }
        };
        let mut shown = Location::Outside;
        for (name, poly) in &polygons {
            let Ok(poly) = poly else { continue };
            if only.as_ref().is_some_and(|o| !o.contains(name)) {
                continue;
            }
            let r = (|| -> Result<PointLine, InputError> {
                let eo = poly.polygon.locate(p, FillRule::EvenOdd)?;
                let nz = poly.polygon.locate(p, FillRule::NonZero)?;
                Ok(PointLine {
                    point: i,
                    at: pt(p),
                    polygon: name,
                    even_odd: loc_name(eo),
                    non_zero: loc_name(nz),
                    crossing_number: poly.polygon.crossing_number(p)?,
                    winding_number: poly.polygon.winding_number(p)?,
                })
            })();
            match r {
                Ok(l) => {
                    let loc = match l.even_odd {
                        "inside" => Location::Inside,
                        "boundary" => Location::Boundary,
                        _ => Location::Outside,
                    };
                    // The most "inside" location over all polygons decides the colour.
                    shown = match (shown, loc) {
                        (Location::Boundary, _) | (_, Location::Boundary) => Location::Boundary,
                        (Location::Inside, _) | (_, Location::Inside) => Location::Inside,
                        _ => Location::Outside,
                    };
                    lines.push(to_line(&l));
                }
                Err(e) => {
                    let e = rename(e, "point", &field);
                    err_line(&mut lines, ErrLine::indexed("point", i, e.to_string()));
                }
            }
        }
        let color = match shown {
            Location::Inside => "#2ca02c",
            Location::Boundary => "#ff7f0e",
            Location::Outside => "#d62728",
        };
        svg.dot(p, color, 5.0);
        svg.label(p, &format!("p{i}"), color);
    }

    for (i, pv) in pairs_v.iter().enumerate() {
        let here = format!("pairs[{i}]");
        let r = (|| -> Result<(PairLine, PairDrawing), String> {
            let po = pv.as_object().ok_or_else(|| {
                format!(
                    "{here}: expected an object with \"a\" and \"b\", found {}",
                    describe(pv)
                )
            })?;
            let item = |key: &str| -> Result<(&str, Item), String> {
                let n = fields::string_field(po, key, "a pair")
                    .map_err(|e| e.within(&here).to_string())?;
                match (polygons.get(n), polylines.get(n)) {
                    (Some(Ok(p)), _) => Ok((n, Item::Polygon(p))),
                    (None, Some(Ok(l))) => Ok((n, Item::Polyline(l))),
                    (Some(Err(e)), _) | (None, Some(Err(e))) => {
                        Err(format!("{here}.{key}: {} is invalid: {e}", quote(n)))
                    }
                    (None, None) => Err(format!(
                        "{here}.{key}: unknown name {}; defined: {}",
                        quote(n),
                        polygons
                            .keys()
                            .chain(polylines.keys())
                            .map(|k| quote(k))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            };
            let (na, a) = item("a")?;
            let (nb, b) = item("b")?;
            let (mut line, d) = answer_pair(&a, &b).map_err(|e| e.within(&here).to_string())?;
            line.pair = i;
            line.a = na.to_string();
            line.b = nb.to_string();
            Ok((line, d))
        })();
        match r {
            Ok((v, d)) => {
                lines.push(to_line(&v));
                draw_pair(&mut svg, &d);
            }
            Err(e) => err_line(&mut lines, ErrLine::indexed("pair", i, e)),
        }
    }
    Ok(Report {
        lines,
        errors,
        svg: svg.finish(),
    })
}

/// A query point: `[x, y]` (located in every polygon) or `{"at": [x, y], "in": [names]}`.
fn parse_point(
    v: &Value,
    field: &str,
    polygons: &BTreeMap<String, Result<Poly, String>>,
) -> Result<(DVec2, Option<Vec<String>>), InputError> {
    let (at, at_field, only) = match v {
        Value::Object(o) => {
            let at =
                fields::required(o, "at", "a query point object").map_err(|e| e.within(field))?;
            let only = match o.get("in") {
                None | Some(Value::Null) => None,
                Some(Value::Array(names)) => {
                    let mut out = Vec::new();
                    for (k, n) in names.iter().enumerate() {
                        let here = format!("{field}.in[{k}]");
                        let n = n.as_str().ok_or_else(|| {
                            invalid(
                                &here,
                                format!("expected a polygon name, found {}", describe(n)),
                            )
                        })?;
                        if !polygons.contains_key(n) {
                            return Err(invalid(&here, format!("unknown polygon {}", quote(n))));
                        }
                        out.push(n.to_string());
                    }
                    Some(out)
                }
                Some(other) => {
                    return Err(invalid(
                        &format!("{field}.in"),
                        format!(
                            "expected an array of polygon names, found {}",
                            describe(other)
                        ),
                    ))
                }
            };
            (at, format!("{field}.at"), only)
        }
        _ => (v, field.to_string(), None),
    };
    let c = fields::numbers(at, &at_field)?;
    if c.len() != 2 {
        return Err(InputError::new(
            at_field,
            Problem::DimensionMismatch {
                expected: 2,
                found: c.len(),
            },
        ));
    }
    fields::finite_coords(&at_field, &c)?;
    Ok((DVec2::new(c[0], c[1]), only))
}

/// Intersections, contact points with the SAT axis, or the separating line of one pair.
fn draw_pair(svg: &mut Svg, d: &PairDrawing) {
    for h in &d.hits {
        match h.kind {
            HitKind::Point(p) => svg.dot(p, "black", 3.5),
            HitKind::Overlap(p, q) => svg.segment(p, q, "black", 5.0),
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
    }
}

/// The input format, shown by `convexity polygon --help`.
pub const FORMAT_HELP: &str = "\
INPUT (JSON):
  {\"polygons\": {\"L\": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]],
                \"frame\": [[0, 0], [10, 0], [10, 10], [0, 10], null, [3, 3], [3, 7], [7, 7], [7, 3]]},
   \"polylines\": {\"zigzag\": [[-1, 2], [5, 2], \"NaN\", [2, -1], [2, 5]]},
   \"points\": [[0.5, 0.5], {\"at\": [5, 5], \"in\": [\"L\"]}],
   \"pairs\": [{\"a\": \"L\", \"b\": \"zigzag\"}, {\"a\": \"L\", \"b\": \"frame\"}]}
  Rings and polyline parts are separated by null, \"NaN\" or [\"NaN\", \"NaN\"]; rings may
  have either orientation and self-intersect.

OUTPUT: one JSON line per point and polygon (even_odd, non_zero, crossing_number,
  winding_number), then one per pair (intersections with segment indices; for two convex
  rings also sat, with a verified certificate, and contact).

EXIT STATUS: 0 ok; 2 bad usage or some item could not be answered; 74 the output or the
  --svg file could not be written.";

/// Runs the command; returns the exit status.
pub fn run(file: &str, svg: Option<&str>) -> Result<i32, Fatal> {
    let v = read_json(file)?;
    let title = format!("convexity polygon {file}");
    let report = answer_all(&v, &title).map_err(Fatal::input)?;
    let mut out = String::new();
    for l in &report.lines {
        out.push_str(l);
        out.push('\n');
    }
    emit(&out)?;
    if let Some(path) = svg {
        std::fs::write(path, &report.svg).map_err(|e| Fatal::write_file(path, &e))?;
    }
    Ok(if report.errors > 0 {
        exit::INPUT
    } else {
        exit::OK
    })
}
