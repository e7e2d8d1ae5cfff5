//! End-to-end tests of `convexity polygon` and `convexity toi` on `fixtures/polygons*.json`
//! and `fixtures/toi*.json`. Expected values are worked out by hand from the constructions
//! (crossing points of axis-parallel segments, gaps between boxes, contact times of uniform
//! and uniformly accelerated motion), not by the code under test.

use serde_json::Value;

mod common;
use common::*;

fn point_line<'a>(out: &'a [Value], point: u64, polygon: &str) -> &'a Value {
    out.iter()
        .find(|l| l["point"] == point && l["polygon"] == polygon)
        .unwrap_or_else(|| panic!("no line for point {point} in {polygon}"))
}

fn pair_line(out: &[Value], pair: u64) -> &Value {
    out.iter()
        .find(|l| l["pair"] == pair)
        .unwrap_or_else(|| panic!("no line for pair {pair}"))
}

/// (a_segment, b_segment, point) of every point hit of a pair line.
fn point_hits(l: &Value) -> Vec<(u64, u64, Vec<f64>)> {
    let mut v: Vec<_> = l["intersections"]
        .as_array()
        .expect("intersections")
        .iter()
        .filter(|h| h.get("point").is_some())
        .map(|h| {
            (
                h["a_segment"].as_u64().expect("a_segment"),
                h["b_segment"].as_u64().expect("b_segment"),
                vec_of(&h["point"]),
            )
        })
        .collect();
    v.sort_by_key(|h| (h.0, h.1));
    v
}

#[test]
fn polygon_point_locations_match_the_constructions() {
    let r = run(&["polygon", &fixture("polygons.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    // (point, polygon, even-odd, non-zero, crossing number, winding number)
    type Case<'a> = (u64, &'a str, &'a str, &'a str, Option<u64>, Option<i64>);
    let cases: &[Case] = &[
        (0, "L", "inside", "inside", Some(1), Some(1)),
        (1, "L", "boundary", "boundary", None, None),
        (2, "L", "boundary", "boundary", None, None),
        (3, "L", "inside", "inside", Some(1), Some(1)),
        (4, "L", "outside", "outside", Some(0), Some(0)),
        (4, "frame", "inside", "inside", Some(1), Some(1)),
        (5, "frame", "outside", "outside", Some(2), Some(0)),
        (6, "same_way_hole", "outside", "inside", Some(2), Some(2)),
        (8, "box1", "inside", "inside", Some(1), Some(1)),
        (8, "box2", "outside", "outside", Some(2), Some(0)),
    ];
    for &(p, poly, eo, nz, cn, wn) in cases {
        let l = point_line(&out, p, poly);
        assert_eq!(l["even_odd"], eo, "{l}");
        assert_eq!(l["non_zero"], nz, "{l}");
        assert_eq!(l["crossing_number"].as_u64(), cn, "{l}");
        assert_eq!(l["winding_number"].as_i64(), wn, "{l}");
    }
    // The pentagram's centre: covered twice (winding ±2), so a hole for even-odd only.
    let star = point_line(&out, 7, "star");
    assert_eq!(star["even_odd"], "outside");
    assert_eq!(star["non_zero"], "inside");
    assert_eq!(star["winding_number"].as_i64().map(i64::abs), Some(2));
    // Points that name their polygons are located only there; the bare point everywhere.
    assert_eq!(out.iter().filter(|l| l["point"] == 4).count(), 2);
    assert_eq!(out.iter().filter(|l| l["point"] == 8).count(), 9);
}

#[test]
fn polygon_intersections_match_the_constructions() {
    let out = lines(&run(&["polygon", &fixture("polygons.json")]));
    // L against the cross (y = 2 and x = 2): four crossings, on L's edges 0, 2, 3 and 5,
    // and segments 0 and 3 of the cross (segment 3 starts after the separator at index 2).
    let l0 = pair_line(&out, 0);
    assert_eq!(
        point_hits(l0),
        vec![
            (0, 3, vec![2.0, 0.0]),
            (2, 3, vec![2.0, 1.0]),
            (3, 0, vec![1.0, 2.0]),
            (5, 0, vec![0.0, 2.0]),
        ]
    );
    assert!(l0["sat"].is_null() && l0["note"].is_string());
    // The line y = 0 overlaps L's bottom edge from (0,0) to (4,0).
    let l1 = pair_line(&out, 1);
    let overlap = l1["intersections"]
        .as_array()
        .expect("intersections")
        .iter()
        .find(|h| h["overlap"] == true)
        .expect("an overlap");
    assert_eq!(overlap["a_segment"], 0);
    assert_eq!(overlap["b_segment"], 0);
    let ends: Vec<Vec<f64>> = overlap["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(vec_of)
        .collect();
    assert_eq!(ends, vec![vec![0.0, 0.0], vec![4.0, 0.0]]);
    // Wedge against the zigzag: x = 9 (segment 3, after a [NaN, NaN] separator) meets the
    // wedge's top edge y = -6 and its left edge; the slanted part meets both too.
    let l6 = pair_line(&out, 6);
    let hits = point_hits(l6);
    assert_eq!(hits.len(), 4, "{l6}");
    assert!(hits.contains(&(1, 3, vec![9.0, -6.0])), "{l6}");
    assert!(hits.contains(&(1, 0, vec![10.5, -6.0])), "{l6}");
    assert!(hits
        .iter()
        .any(|h| h.0 == 2 && h.1 == 3 && close(&h.2, &[9.0, -8.0], 1e-12)));
    // The two polylines cross once, at (2, 0).
    assert_eq!(point_hits(pair_line(&out, 7)), vec![(3, 0, vec![2.0, 0.0])]);
}

fn p_x_shift(cert: &Value) -> f64 {
    vec_of(&cert["common_point"])[0] + 1.0
}

#[test]
fn polygon_sat_and_contacts_for_convex_pairs() {
    let out = lines(&run(&["polygon", &fixture("polygons.json")]));
    // box1 [0,2]x[-10,-8] and box2 [1.5,3.5]x[-9.5,-7.5]: overlap 0.5 in x, 1.5 in y.
    let l2 = pair_line(&out, 2);
    let sat = &l2["sat"];
    assert_eq!(sat["intersecting"], true);
    assert!(
        (sat["depth"].as_f64().expect("depth") - 0.5).abs() <= 1e-12,
        "{sat}"
    );
    assert!(close(&vec_of(&sat["axis"]), &[1.0, 0.0], 1e-12), "{sat}");
    assert_eq!(sat["certificate_verified"], true);
    // Re-checked independently (every polygon run is, in `common`); a shifted point fails.
    let (b1, b2) = (
        [[0.0, -10.0], [2.0, -10.0], [2.0, -8.0], [0.0, -8.0]],
        [[1.5, -9.5], [3.5, -9.5], [3.5, -7.5], [1.5, -7.5]],
    );
    assert!(polygon_certificate_holds(
        &b1,
        &b2,
        &sat["certificate"],
        1e-9
    ));
    let bad = serde_json::json!({"common_point": [p_x_shift(&sat["certificate"]), -9.0]});
    assert!(!polygon_certificate_holds(&b1, &b2, &bad, 1e-9));
    let p = vec_of(&sat["certificate"]["common_point"]);
    assert!(
        (1.5..=2.0).contains(&p[0]) && (-9.5..=-8.0).contains(&p[1]),
        "{sat}"
    );
    let c = &l2["contact"];
    assert_eq!(c["kind"], "edge_edge");
    assert_eq!(c["counts"]["vertices_a_in_b"], 1);
    assert_eq!(c["counts"]["vertices_b_in_a"], 1);
    let mut pts: Vec<Vec<f64>> = c["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(vec_of)
        .collect();
    pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
    assert_eq!(pts, vec![vec![1.5, -9.5], vec![2.0, -8.0]]);
    // box1 and box3 [5,7]x[-10,-8]: gap 3 along +x.
    let sat = &pair_line(&out, 3)["sat"];
    assert_eq!(sat["intersecting"], false);
    assert_eq!(sat["certificate"]["gap"], 3.0);
    assert!(close(
        &vec_of(&sat["certificate"]["separating_axis"]),
        &[1.0, 0.0],
        1e-12
    ));
    assert_eq!(pair_line(&out, 3)["contact"]["kind"], "separated");
    // A clockwise triangle above box1: gap 3 along -y; the reference edge is numbered in the
    // input order (edge 2 of either polygon is its bottom/top edge).
    let l4 = pair_line(&out, 4);
    assert_eq!(l4["sat"]["separation"], 3.0);
    assert!(close(&vec_of(&l4["sat"]["axis"]), &[0.0, -1.0], 1e-12));
    assert_eq!(l4["sat"]["reference"]["edge"], 2, "{l4}");
    // Non-convex and multi-ring polygons get intersections only, with the reason.
    let l5 = pair_line(&out, 5);
    assert!(l5["sat"].is_null());
    let note = l5["note"].as_str().expect("note");
    assert!(
        note.contains("not convex") && note.contains("2 rings"),
        "{note}"
    );
}

#[test]
fn polygon_bad_input_names_fields_and_answers_the_rest() {
    let r = run(&["polygon", &fixture("polygons_bad.json")]);
    assert_eq!(r.code, 2);
    let out = lines(&r);
    let err = |key: &str, v: Value| -> String {
        out.iter()
            .find(|l| l[key] == v && l.get("error").is_some())
            .and_then(|l| l["error"].as_str())
            .unwrap_or_else(|| panic!("no error line for {key} {v}"))
            .to_string()
    };
    assert_eq!(
        err("polygon", "bad".into()),
        "polygons.bad[1][1]: value NaN is not finite"
    );
    assert!(err("polygon", "empty".into()).starts_with("polygons.empty:"));
    assert!(err("polygon", "huge".into()).contains("polygons.huge[1][0]"));
    assert!(err("polyline", "wrong_dim".into())
        .contains("polylines.wrong_dim[0]: expected 2 coordinates, found 3"));
    assert!(err("point", 1.into()).contains("points[1][1]: value inf is not finite"));
    assert!(err("point", 2.into()).contains("points[2].in[0]: unknown polygon \"nope\""));
    // `{"point": [0, 0]}`: the wrong key is named (it was reported as a missing `at`).
    assert!(err("point", 3.into())
        .contains("points[3].point: unknown field in a query point object (fields are: at, in;"));
    assert!(err("pair", 1.into()).contains("pairs[1].a"));
    assert!(err("pair", 2.into()).contains("pairs[2].b: unknown name \"missing\""));
    assert!(err("pair", 3.into()).contains("pairs[3].b"));
    // The good items are still answered.
    let p0 = point_line(&out, 0, "ok");
    assert_eq!(p0["even_odd"], "inside");
    let l0 = pair_line(&out, 0);
    assert_eq!(
        point_hits(l0),
        vec![(1, 0, vec![2.0, 1.0]), (3, 0, vec![0.0, 1.0])]
    );
}

/// A crude XML check: tags balance, every element is one the writer uses, and the document is
/// a single `<svg>` element.
fn check_svg(s: &str) {
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    let mut stack: Vec<String> = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("a closed tag") + i;
        let tag = &rest[i + 1..j];
        assert!(!tag.contains('<'), "nested '<' in {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "unbalanced </{name}>");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap_or("").to_string();
            stack.push(name);
        }
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        assert!(
            [
                "svg", "rect", "text", "path", "polygon", "polyline", "circle", "line", "g",
                "clipPath"
            ]
            .contains(&name),
            "unexpected element {name}"
        );
        rest = &rest[j + 1..];
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    // No non-finite coordinates leaked into the picture.
    assert!(!s.contains("NaN") && !s.contains("inf"), "non-finite value");
}

#[test]
fn polygon_svg_is_well_formed_and_shows_the_scene() {
    let dir = std::env::temp_dir().join(format!("convexity-cli-polygon-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("scene.svg");
    let p = path.to_str().expect("utf-8 path");
    let r = run(&["polygon", &fixture("polygons.json"), "--svg", p]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = std::fs::read_to_string(&path).expect("the picture is written");
    check_svg(&s);
    // Nine polygons, each one path with one subpath per ring (frame and same_way_hole
    // have two rings).
    assert_eq!(s.matches("<path").count(), 9);
    assert_eq!(s.matches('M').count(), 11);
    assert_eq!(s.matches(r#"fill-rule="evenodd""#).count(), 9);
    // Query points coloured by location: inside (green), boundary (orange), outside (red).
    for color in ["#2ca02c", "#ff7f0e", "#d62728"] {
        assert!(
            s.contains(&format!(r##"r="5" fill="{color}""##)),
            "no point coloured {color}"
        );
    }
    // Two overlaps drawn as thick segments (pairs 1 and 5 have 1 and 2), and separating lines
    // for the two separated convex pairs.
    // (Counted by mark class: the legend's swatches carry the class only as `data-mark`.)
    assert_eq!(s.matches(r#"class="m-segment-black""#).count(), 3);
    assert_eq!(s.matches(r#"class="m-line-gray""#).count(), 2);
    // Contact points of box1/box2 in purple.
    assert!(s.matches("#9400d3").count() >= 2);
    // Bad input still writes a picture of what is valid.
    let path2 = dir.join("bad.svg");
    let p2 = path2.to_str().expect("utf-8 path");
    let r = run(&["polygon", &fixture("polygons_bad.json"), "--svg", p2]);
    assert_eq!(r.code, 2);
    check_svg(&std::fs::read_to_string(&path2).expect("written"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn polygon_usage_errors() {
    assert_eq!(run(&["polygon"]).code, 2);
    assert_eq!(
        run(&["polygon", &fixture("polygons.json"), "--bogus"]).code,
        2
    );
    assert_eq!(
        run(&["polygon", &fixture("polygons.json"), "--svg"]).code,
        2
    );
    let r = run(&["polygon", "/nonexistent/polygons.json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);
    let r = run_with_stdin(&["polygon", "-"], Some(b"{\"polygons\": 3}"));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("\"polygons\" must be an object"),
        "{}",
        r.stderr
    );
    let r = run_with_stdin(&["polygon", "-"], Some(b"{\"polygns\": {}}"));
    assert!(
        r.stderr.contains("did you mean \"polygons\""),
        "{}",
        r.stderr
    );
}

fn toi_line(out: &[Value], pair: u64) -> &Value {
    pair_line(out, pair)
}

#[test]
fn toi_fixture_answers_match_the_kinematics() {
    let r = run(&["toi", &fixture("toi.json")]);
    // Pair 6 (an accelerating ball) is refused: exit status 2, the others answered.
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(out.len(), 10);
    // (pair, method, status, toi, normal, tolerance on toi)
    type Case<'a> = (u64, &'a str, &'a str, Option<f64>, Option<&'a [f64]>, f64);
    let cases: &[Case] = &[
        // Gap 3 closed at speed 2.
        (
            0,
            "swept_ray_cast",
            "hit",
            Some(1.5),
            Some(&[1.0, 0.0]),
            1e-9,
        ),
        // Lowest vertices at y = 2 − 2t² reach the ground y = 0 at t = 1.
        (
            1,
            "vertex_edge_quartic",
            "hit",
            Some(1.0),
            Some(&[0.0, 1.0]),
            1e-9,
        ),
        // Sliding along the face y = 1: the right side reaches x = −1 at t = 0.3.
        (
            2,
            "swept_ray_cast",
            "hit",
            Some(0.3),
            Some(&[-1.0, 0.0]),
            1e-9,
        ),
        // A spinning circle: rotation does not change it, gap 3 at speed 2.
        (
            3,
            "conservative_advancement",
            "hit",
            Some(1.5),
            Some(&[1.0, 0.0]),
            1e-6,
        ),
        (
            4,
            "swept_ray_cast",
            "initially_overlapping",
            None,
            None,
            0.0,
        ),
        // h = 1 covers only 2 of the gap of 3.
        (5, "swept_ray_cast", "separated", None, None, 0.0),
        (
            7,
            "swept_ray_cast",
            "hit",
            Some(1.5),
            Some(&[1.0, 0.0, 0.0]),
            1e-9,
        ),
        (8, "swept_ray_cast", "separated", None, None, 0.0),
        // The cube spins about the y axis while falling onto the sphere: its bottom face
        // stays at y = 4 − 2t, touching the sphere's top y = 1 at t = 1.5.
        (
            9,
            "conservative_advancement",
            "hit",
            Some(1.5),
            Some(&[0.0, 1.0, 0.0]),
            1e-6,
        ),
    ];
    for &(pair, method, status, toi, normal, tol) in cases {
        let l = toi_line(&out, pair);
        assert_eq!(l["method"], method, "{l}");
        assert_eq!(l["status"], status, "{l}");
        match toi {
            Some(t) => {
                let got = l["toi"].as_f64().expect("toi");
                assert!((got - t).abs() <= tol, "{l}");
                assert!(got <= t + 1e-12, "a TOI never overshoots: {l}");
            }
            None => assert!(l["toi"].is_null(), "{l}"),
        }
        if let Some(n) = normal {
            assert!(close(&vec_of(&l["normal"]), n, 1e-6), "{l}");
        }
    }
    // The ball would land at t ≈ 0.90 under its acceleration; a constant-velocity answer
    // ("separated") would answer a different question, so the pair is an error.
    let e = toi_line(&out, 6)["error"].as_str().unwrap_or_default();
    assert!(e.contains("acceleration") && e.contains("curved"), "{e}");
}

#[test]
fn toi_swapping_the_bodies_negates_the_normal() {
    let input = br#"{"h": 1, "bodies": {
        "a": {"shape": {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]}},
        "b": {"shape": {"type": "box", "half_extents": [0.5, 0.5]},
              "pose": {"translation": [3, 0.2]}, "velocity": [-4, 0], "acceleration": [1, 0]}},
      "pairs": [{"a": "a", "b": "b"}, {"a": "b", "b": "a"}]}"#;
    let r = run_with_stdin(&["toi", "-"], Some(input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    let (l0, l1) = (toi_line(&out, 0), toi_line(&out, 1));
    assert_eq!(l0["method"], "vertex_edge_quartic");
    // The box's left side x = 2.5 − 4t + t²/2 reaches the triangle's vertex x = 1 at
    // t = 4 − √13 (the triangle's corner (1, 0) meets the box's left edge).
    let t = 4.0 - 13f64.sqrt();
    for l in [l0, l1] {
        assert!((l["toi"].as_f64().expect("toi") - t).abs() <= 1e-9, "{l}");
    }
    let (n0, n1) = (vec_of(&l0["normal"]), vec_of(&l1["normal"]));
    assert!(close(&n0, &[1.0, 0.0], 1e-9), "{l0}");
    assert!(close(&n1, &[-1.0, 0.0], 1e-9), "{l1}");
}

#[test]
fn toi_bad_input_names_fields_and_answers_the_rest() {
    let r = run(&["toi", &fixture("toi_bad.json")]);
    assert_eq!(r.code, 2);
    let out = lines(&r);
    let err = |pair: u64| -> String {
        out.iter()
            .find(|l| l["pair"] == pair)
            .and_then(|l| l["error"].as_str())
            .unwrap_or_else(|| panic!("no error for pair {pair}"))
            .to_string()
    };
    assert!(err(0).contains("bodies.nan_velocity.velocity[1]: value NaN is not finite"));
    assert!(err(2).contains("pairs[2].b: unknown body \"missing\""));
    assert!(err(3).contains("pairs[3].h: value -1 must not be negative"));
    assert!(err(4).contains("different dimensions"));
    assert!(err(5).contains("bodies.accelerating_3d.acceleration"));
    let typo = out
        .iter()
        .find(|l| l["body"] == "typo")
        .expect("the unused bad body is reported");
    assert!(typo["error"]
        .as_str()
        .is_some_and(|e| e.contains("did you mean \"velocity\"")));
    // The good pair: gap 1 closed at speed 2.
    let l1 = toi_line(&out, 1);
    assert_eq!(l1["status"], "hit");
    assert!((l1["toi"].as_f64().expect("toi") - 0.5).abs() <= 1e-9);
}

#[test]
fn toi_usage_errors() {
    assert_eq!(run(&["toi"]).code, 2);
    assert_eq!(run(&["toi", "a.json", "b.json"]).code, 2);
    let r = run_with_stdin(&["toi", "-"], Some(b"{\"bodies\": {}}"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no \"pairs\""), "{}", r.stderr);
    let r = run_with_stdin(
        &["toi", "-"],
        Some(b"{\"bodies\": {}, \"pairs\": [{\"a\": \"x\"}]}"),
    );
    assert_eq!(r.code, 2);
    assert!(r.stdout.contains("pairs[0]"), "{}", r.stdout);
}

#[test]
fn polygon_vertex_hits_are_reported_once_and_agree_across_item_kinds() {
    // A diagonal ending inside the square passes through the ring's first vertex (0, 0):
    // one hit, on the edge that ends there (edge 3, from (0, 2) back to (0, 0)), whichever
    // side the polygon is on. The same ring given as a polygon or as a closed polyline gives
    // the same points against a second square.
    let input = br#"{
      "polygons": {"sq": [[0, 0], [2, 0], [2, 2], [0, 2]],
                   "other": [[1, -1], [3, -1], [3, 1], [1, 1]]},
      "polylines": {"diag": [[-1, -1], [1, 1]],
                    "sq_closed": [[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]},
      "pairs": [{"a": "sq", "b": "diag"}, {"a": "diag", "b": "sq"},
                {"a": "sq", "b": "other"}, {"a": "sq_closed", "b": "other"}]}"#;
    let r = run_with_stdin(&["polygon", "-"], Some(input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(point_hits(pair_line(&out, 0)), vec![(3, 0, vec![0.0, 0.0])]);
    assert_eq!(point_hits(pair_line(&out, 1)), vec![(0, 3, vec![0.0, 0.0])]);
    let as_polygon = point_hits(pair_line(&out, 2));
    let as_polyline = point_hits(pair_line(&out, 3));
    assert_eq!(as_polygon, as_polyline);
    // The squares' boundaries cross at (1, 0) and (2, 1).
    let pts: Vec<Vec<f64>> = as_polygon.into_iter().map(|h| h.2).collect();
    assert_eq!(pts, vec![vec![1.0, 0.0], vec![2.0, 1.0]]);
    // Both are convex single rings: overlap 1 × 1, so SAT's depth is 1.
    let sat = &pair_line(&out, 2)["sat"];
    assert!(
        (sat["depth"].as_f64().expect("depth") - 1.0).abs() <= 1e-12,
        "{sat}"
    );
}
