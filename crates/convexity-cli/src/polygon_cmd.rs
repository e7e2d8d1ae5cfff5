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
//! `--svg OUT` draws the polygons (filled under `--fill-rule`, even–odd by default), the
//! polylines, the query points coloured by their location under that rule (green inside,
//! orange boundary, red outside; points outside the polygons' bounding box as diamonds at the
//! border, the view fits the polygons and polylines), with a legend and numbered axes, intersection
//! points (black; overlaps as thick black segments), contact points (purple) with the SAT
//! axis as an arrow, and for separated convex pairs the separating line (dashed gray) half
//! way across the gap.

use crate::fields::{self, describe, quote};
use crate::input::read_json;
use crate::output::to_line;
use crate::svg::{Mark, Svg};
use crate::{emit, exit, Fatal};
use convexity::polytope::contact2d::classify;
use convexity::polytope::sat2d::sat;
use convexity::primitives::polygon::{
    polygon_intersections, polygon_polyline_intersections, polyline_intersections, FillRule,
    Location,
};
use convexity::{DVec2, InputError, Pose2, Status};
use serde_json::Value;
use std::collections::BTreeMap;

mod lines;
mod parse;

pub use lines::kind_name;
use lines::*;
pub use parse::FORMAT_HELP;
use parse::*;

/// A named item of a pair.
enum Item<'a> {
    Polygon(&'a Poly),
    Polyline(&'a [DVec2]),
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
pub fn answer_all(v: &Value, title: &str, rule: FillRule) -> Result<Report, String> {
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

    let even_odd = rule == FillRule::EvenOdd;
    let rule_name = if even_odd { "even-odd" } else { "non-zero" };
    draw_scene(&mut svg, &polygons, &polylines, even_odd);

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
                    let chosen = if even_odd { l.even_odd } else { l.non_zero };
                    let loc = match chosen {
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
        let meaning = match shown {
            Location::Inside => "inside",
            Location::Boundary => "on the boundary",
            Location::Outside => "outside",
        };
        svg.dot(p, color, 5.0);
        svg.legend(Mark::Dot, color, &format!("point {meaning} ({rule_name})"));
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
            fields::check_keys(po, &["a", "b"], "a pair")
                .map_err(|e| e.within(&here).to_string())?;
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

/// Runs the command; returns the exit status.
pub fn run(file: &str, svg: Option<&str>, rule: FillRule) -> Result<i32, Fatal> {
    let v = read_json(file)?;
    let title = format!("convexity polygon {file}");
    let report = answer_all(&v, &title, rule).map_err(Fatal::input)?;
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
