//! End-to-end tests of the `convexity` binary on the scenes in `fixtures/`.
//!
//! Every run is checked for the absence of panics (no "panicked" on stderr, never exit 70).

use convexity::query::Method;
use serde_json::Value;

mod common;
use common::*;

const ANSWER_KEYS: &[&str] = &[
    "pair",
    "algorithm",
    "intersecting",
    "distance",
    "point_a",
    "point_b",
    "normal",
    "status",
    "iterations",
    "certificate",
    "tolerance",
    "verified",
    "check",
];

/// The invariants every answer line satisfies.
fn check_answer(v: &Value) {
    for k in ANSWER_KEYS {
        assert!(v.get(k).is_some(), "missing {k} in {v}");
    }
    let status = v["status"].as_str().unwrap_or("");
    assert!(
        ["converged", "iteration_limit", "degenerate"].contains(&status),
        "{v}"
    );
    assert!(v["iterations"].as_u64().is_some(), "{v}");
    if !v["normal"].is_null() {
        let n = vec_of(&v["normal"]);
        assert!((norm(&n) - 1.0).abs() < 1e-9, "normal not unit: {v}");
    }
    let cert = &v["certificate"];
    // Every printed certificate passed the checker (issue 14: check before you speak).
    let tol = v["tolerance"].as_f64().unwrap_or(-1.0);
    assert!(tol > 0.0 && tol.is_finite(), "{v}");
    let verified = v["verified"].as_bool();
    if v["intersecting"].is_null() {
        assert_eq!(verified, Some(false), "{v}");
    } else {
        assert_eq!(verified, Some(true), "{v}");
        assert_eq!(v["check"].as_str(), Some("verified"), "{v}");
    }
    match v["intersecting"].as_bool() {
        Some(true) => {
            assert_eq!(v["distance"].as_f64(), Some(0.0), "{v}");
            assert!(cert.get("common_point").is_some(), "{v}");
            assert!(cert.get("separating_axis").is_none(), "{v}");
        }
        Some(false) => {
            let axis = vec_of(&cert["separating_axis"]);
            assert!((norm(&axis) - 1.0).abs() < 1e-9, "{v}");
            let gap = cert["gap"].as_f64().unwrap_or(-1.0);
            assert!(gap > 0.0, "{v}");
            if let Some(d) = v["distance"].as_f64() {
                assert!(gap <= d * (1.0 + 1e-9) + 1e-12, "gap above distance: {v}");
            }
        }
        None => {
            assert!(v["intersecting"].is_null(), "{v}");
            assert!(cert.is_null(), "{v}");
        }
    }
}

#[test]
fn help_and_usage() {
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let r = run(args);
        assert_eq!(r.code, 0);
        assert!(r.stdout.contains("query"), "{}", r.stdout);
        assert!(r.stdout.contains("demo"));
        assert!(r.stdout.contains("EXIT STATUS"));
    }
    let r = run(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("Usage:"), "{}", r.stderr);
    let r = run(&["frobnicate"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unrecognized subcommand 'frobnicate'"),
        "{}",
        r.stderr
    );
    let r = run(&["query"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("<FILE>"), "{}", r.stderr);
}

#[test]
fn readme_scene() {
    let r = run(&["query", &fixture("scene.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(out.len(), 2);
    for v in &out {
        check_answer(v);
        assert_eq!(v["algorithm"], "gjk");
    }
    // Tetrahedron against a sphere of radius 0.5 at (2, 0, 0): the vertex (1, 0, 0) is closest.
    let a = &out[0];
    assert_eq!(a["pair"], 0);
    assert_eq!(a["intersecting"], false);
    assert!((a["distance"].as_f64().unwrap_or(0.0) - 0.5).abs() < 1e-12);
    assert!(close(&vec_of(&a["point_a"]), &[1.0, 0.0, 0.0], 1e-12));
    assert!(close(&vec_of(&a["point_b"]), &[1.5, 0.0, 0.0], 1e-12));
    assert!(close(&vec_of(&a["normal"]), &[1.0, 0.0, 0.0], 1e-12));
    // The triangle's corner (2, 0) touches the unit circle centred at (3, 0).
    let b = &out[1];
    assert_eq!(b["pair"], 1);
    assert_eq!(b["intersecting"], true);
    assert!(close(
        &vec_of(&b["certificate"]["common_point"]),
        &[2.0, 0.0],
        1e-9
    ));
}

#[test]
fn reference_tetrahedra_exact() {
    let r = run(&["query", &fixture("reference_tetrahedra.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(out.len(), 2);
    out.iter().for_each(check_answer);
    assert_eq!(out[0]["intersecting"], true);
    assert_eq!(out[0]["distance"].as_f64(), Some(0.0));
    assert!(close(
        &vec_of(&out[0]["certificate"]["common_point"]),
        &[1.0, 0.0, 0.0],
        1e-12
    ));
    assert_eq!(out[1]["intersecting"], false);
    assert_eq!(out[1]["distance"].as_f64(), Some(1.0));
    assert!(close(&vec_of(&out[1]["point_a"]), &[1.0, 0.0, 0.0], 1e-12));
    assert!(close(&vec_of(&out[1]["point_b"]), &[1.0, -1.0, 0.0], 1e-12));
    assert!(close(&vec_of(&out[1]["normal"]), &[0.0, -1.0, 0.0], 1e-12));
}

#[test]
fn posed_pairs_answer_in_the_world_frame() {
    let r = run(&["query", &fixture("analytic.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(out.len(), 4);
    out.iter().for_each(check_answer);
    // Spheres of radii 1 and 0.5, rotated, centred at (10, 5, -3) and (10, 8, -3).
    let s = &out[0];
    assert!((s["distance"].as_f64().unwrap_or(0.0) - 1.5).abs() < 1e-12);
    assert!(close(&vec_of(&s["point_a"]), &[10.0, 6.0, -3.0], 1e-12));
    assert!(close(&vec_of(&s["point_b"]), &[10.0, 7.5, -3.0], 1e-12));
    assert!(close(&vec_of(&s["normal"]), &[0.0, 1.0, 0.0], 1e-12));
    // A 2×4 rectangle turned by 90° about (1, 1) and a circle of radius 0.5 at (1, 4).
    let c = &out[2];
    assert!((c["distance"].as_f64().unwrap_or(0.0) - 1.5).abs() < 1e-12);
    assert!(close(&vec_of(&c["point_a"]), &[1.0, 2.0], 1e-12));
    assert!(close(&vec_of(&c["point_b"]), &[1.0, 3.5], 1e-12));
    assert!(close(&vec_of(&c["normal"]), &[0.0, 1.0], 1e-12));
    // Overlapping pairs.
    assert_eq!(out[1]["intersecting"], true);
    assert_eq!(out[3]["intersecting"], true);
    // No penetration fields without --contact for GJK.
    assert!(out[1].get("penetration_depth").is_none());
}

#[test]
fn contact_gives_penetration_depth() {
    let r = run(&["query", &fixture("analytic.json"), "--contact"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    out.iter().for_each(check_answer);
    // Separated pairs get no penetration.
    assert!(out[0].get("penetration_depth").is_none());
    // Unit spheres 1.5 apart along x: depth 0.5, normal +x, moving B by 0.5 x separates.
    let s = &out[1];
    let depth = s["penetration_depth"].as_f64().unwrap_or(f64::NAN);
    assert!((depth - 0.5).abs() < 1e-9, "{s}");
    let n = vec_of(&s["normal"]);
    assert!(close(&n, &[1.0, 0.0, 0.0], 1e-9), "{s}");
    let (pa, pb) = (vec_of(&s["point_a"]), vec_of(&s["point_b"]));
    assert!(close(&pa, &[1.0, 0.0, 0.0], 1e-9), "{s}");
    assert!(close(&pb, &[0.5, 0.0, 0.0], 1e-9), "{s}");
    // Unit cubes offset by (1.75, 0.5, -0.25): shallowest exit along +x, depth 0.25.
    let c = &out[3];
    let depth = c["penetration_depth"].as_f64().unwrap_or(f64::NAN);
    assert!((depth - 0.25).abs() < 1e-9, "{c}");
    assert!(close(&vec_of(&c["normal"]), &[1.0, 0.0, 0.0], 1e-9), "{c}");
    let (pa, pb) = (vec_of(&c["point_a"]), vec_of(&c["point_b"]));
    let moved: Vec<f64> = pb
        .iter()
        .zip([0.25, 0.0, 0.0])
        .map(|(p, d)| p + d)
        .collect();
    assert!(
        close(&pa, &moved, 1e-9),
        "point_a = point_b + depth·normal: {c}"
    );
}

/// A method's line on a pair: an answer, or (for a method that needs vertices or a solid
/// hull) a `skipped` line saying why it does not apply.
fn check_line(v: &Value, m: Method) -> bool {
    assert_eq!(v["algorithm"], m.name(), "{v}");
    if v.get("skipped").is_some() {
        assert!(m.needs_vertices(), "{} skipped a pair: {v}", m.name());
        assert!(
            v["skipped"].as_str().is_some_and(|s| s.contains(m.name())),
            "{v}"
        );
        false
    } else {
        check_answer(v);
        true
    }
}

#[test]
fn every_algorithm_by_name() {
    for m in Method::ALL {
        let r = run(&[
            "query",
            &fixture("all_shapes.json"),
            "--algorithm",
            m.name(),
        ]);
        let out = lines(&r);
        assert_eq!(out.len(), 12);
        let mut answered = 0;
        for (i, v) in out.iter().enumerate() {
            assert_eq!(v["pair"], i);
            answered += usize::from(check_line(v, *m));
        }
        // A method asked for by name that cannot answer a pair makes the exit status 2.
        let expect = if answered == 12 { 0 } else { 2 };
        assert_eq!(r.code, expect, "{}: {}", m.name(), r.stderr);
        if !m.needs_vertices() {
            assert_eq!(answered, 12, "{}", m.name());
        }
    }
    let r = run(&["query", &fixture("scene.json"), "--algorithm=gjk-boolean"]);
    assert_eq!(r.code, 0);
    assert!(lines(&r).iter().all(|v| v["algorithm"] == "gjk-boolean"));
}

#[test]
fn unknown_algorithm_lists_valid_names() {
    let r = run(&[
        "query",
        &fixture("scene.json"),
        "--algorithm",
        "simplex-magic",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    for m in Method::ALL {
        assert!(r.stderr.contains(m.name()), "{}", r.stderr);
    }
    assert!(r.stderr.contains("\"simplex-magic\""));
}

#[test]
fn all_methods_one_line_each_with_summary() {
    let r = run(&["query", &fixture("all_shapes.json"), "--all"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    // Per pair, one line per method of its dimension in Method::ALL order (skipped lines
    // included); every answer agrees with the others on the pair.
    let mut k = 0;
    for pair in 0..12 {
        let start = k;
        while k < out.len() && out[k]["pair"] == pair {
            k += 1;
        }
        let lines = &out[start..k];
        let methods: Vec<Method> = lines
            .iter()
            .map(|v| Method::from_name(v["algorithm"].as_str().unwrap_or("")).unwrap())
            .collect();
        let dim = if methods.contains(&Method::Boundary) {
            3
        } else {
            2
        };
        let want: Vec<Method> = Method::ALL
            .iter()
            .copied()
            .filter(|m| m.applies_to_dim(dim))
            .collect();
        assert_eq!(methods, want, "pair {pair}");
        for (v, m) in lines.iter().zip(&methods) {
            check_line(v, *m);
        }
        let answers: Vec<&Value> = lines
            .iter()
            .filter(|v| v.get("skipped").is_none())
            .collect();
        assert!(answers.len() >= 3);
        assert!(answers
            .iter()
            .all(|v| v["intersecting"] == answers[0]["intersecting"]));
    }
    assert_eq!(k, out.len());
    assert!(
        r.stderr
            .contains("agreement: 12/12 pairs, all methods agree on intersecting"),
        "{}",
        r.stderr
    );
}

#[test]
fn all_shape_types_are_answered() {
    let r = run(&["query", &fixture("all_shapes.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines(&r);
    let expect = [
        Some(false),
        Some(true),
        Some(true),
        Some(false),
        Some(false),
        Some(false),
        Some(true),
        Some(false),
        Some(true),
        Some(false),
        Some(true),
        Some(true),
    ];
    for (v, e) in out.iter().zip(expect) {
        check_answer(v);
        assert_eq!(v["intersecting"].as_bool(), e, "{v}");
    }
    // Rounded box (reaches z = 1.1) against a cone flipped apex-down by the transformed shape's
    // pose and lifted to z = 3: the apex sits at z = 3, 1.9 above.
    assert!((out[4]["distance"].as_f64().unwrap_or(0.0) - 1.9).abs() < 1e-9);
    // A 2D segment on the y axis against a triangle shifted to x ∈ [-3, -2]: distance 2.
    assert!((out[7]["distance"].as_f64().unwrap_or(0.0) - 2.0).abs() < 1e-12);
}

/// The error line expected for each bad pair of `bad_inputs.json`.
const BAD: &[(usize, &[&str])] = &[
    (
        1,
        &["shape \"nan_points\": points[2][1]: value NaN is not finite"],
    ),
    (
        2,
        &["shape \"inf_radius\": radius: value inf is not finite"],
    ),
    (
        3,
        &["pairs[3].pose_b.translation[1]: value -inf is not finite"],
    ),
    (4, &["shape \"empty\": points: must not be empty"]),
    (
        5,
        &["shape \"negative\": radius: value -1 must not be negative"],
    ),
    (
        6,
        &["shape \"mixed_rows\": points[1]: expected 3 coordinates, found 2"],
    ),
    (
        7,
        &[
            "shape \"ball\" is 3D",
            "shape \"disc\" is 2D",
            "same dimension",
        ],
    ),
    (
        8,
        &["pairs[8].pose_a.rotation: rotation must be a unit quaternion, its norm is 2"],
    ),
    (9, &["pairs[9].b: unknown shape \"nope\"", "\"ball\""]),
    (
        10,
        &[
            "shape \"typo\": type: unknown type \"spehre\"",
            "did you mean \"sphere\"",
            "valid types are: points, sphere",
        ],
    ),
    (
        11,
        &[
            "shape \"no_extents\": half_extent: unknown field in a \"box\" shape; did you mean \"half_extents\"?",
        ],
    ),
    (
        12,
        &["shape \"dart\": points: polygon is not convex at vertex 2 [0.0, 0.5]"],
    ),
    (15, &["pairs[15].pose_b.angle: value NaN is not finite"]),
    (16, &["pairs[16].b: missing field"]),
];

#[test]
fn bad_inputs_give_per_pair_errors() {
    let r = run(&["query", &fixture("bad_inputs.json"), "--all"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = lines(&r);
    let good = [0usize, 13, 14, 17];
    let mut k = 0;
    for pair in 0..18 {
        if good.contains(&pair) {
            let mut seen = 0;
            while k < out.len() && out[k]["pair"] == pair {
                let m = Method::from_name(out[k]["algorithm"].as_str().unwrap_or("")).unwrap();
                check_line(&out[k], m);
                k += 1;
                seen += 1;
            }
            assert!(seen >= 3, "pair {pair}: {seen} lines");
            continue;
        }
        let v = &out[k];
        k += 1;
        assert_eq!(v["pair"], pair, "{v}");
        assert_eq!(
            v.as_object().map(|o| o.len()),
            Some(2),
            "error lines have pair and error only: {v}"
        );
        let msg = v["error"].as_str().unwrap_or_default();
        let (_, expected) = BAD
            .iter()
            .find(|(i, _)| *i == pair)
            .unwrap_or_else(|| panic!("no expectation for pair {pair}"));
        for e in *expected {
            assert!(msg.contains(e), "pair {pair}: {msg:?} lacks {e:?}");
        }
    }
    assert_eq!(k, out.len());
    assert!(r.stderr.contains("14 of 18 pairs could not be answered"));
    assert!(r.stderr.contains("agreement: 4/4 pairs"), "{}", r.stderr);
}

#[test]
fn non_finite_words_are_accepted_only_as_numbers() {
    for word in ["NaN", "inf", "-inf", "Infinity", "-Infinity"] {
        let scene = format!(
            r#"{{"shapes": {{"s": {{"type": "points", "points": [[0, 0, 0], [1, "{word}", 0]]}}}},
                "pairs": [{{"a": "s", "b": "s"}}]}}"#
        );
        let r = run_with_stdin(&["query", "-"], Some(scene.as_bytes()));
        assert_eq!(r.code, 2);
        let out = lines(&r);
        let msg = out[0]["error"].as_str().unwrap_or_default();
        assert!(
            msg.starts_with("shape \"s\": points[1][1]: value ") && msg.ends_with("is not finite"),
            "{msg}"
        );
    }
    let scene = r#"{"shapes": {"s": {"type": "points", "points": [[0, 0, 0], [1e61, 0, 0]]}},
                    "pairs": [{"a": "s", "b": "s"}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene.as_bytes()));
    assert_eq!(r.code, 2);
    let msg = lines(&r)[0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        msg.starts_with("shape \"s\": points[1][0]: value 1"),
        "{msg}"
    );
    let scene = r#"{"shapes": {"s": {"type": "sphere", "radius": "one"}},
                    "pairs": [{"a": "s", "b": "s"}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene.as_bytes()));
    assert_eq!(r.code, 2);
    let msg = lines(&r)[0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        msg.contains("radius: expected a number, found the string \"one\""),
        "{msg}"
    );
}

#[test]
fn malformed_json_reports_line_and_column() {
    let r = run(&["query", &fixture("malformed.json")]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("line 4, column 5"), "{}", r.stderr);
    assert!(r.stderr.contains("malformed.json"), "{}", r.stderr);
    let r = run_with_stdin(&["query", "-"], Some(b"{\"shapes\": {}, \"pairs\": [1,]}"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("line 1, column"), "{}", r.stderr);
}

#[test]
fn missing_file_and_bad_structure_exit_2() {
    let r = run(&["query", &fixture("does_not_exist.json")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("does_not_exist.json"), "{}", r.stderr);
    assert!(r.stderr.contains("no such file"), "{}", r.stderr);
    for (input, expect) in [
        (&b"[]"[..], "must be a JSON object"),
        (b"{\"pairs\": []}", "no \"shapes\""),
        (b"{\"shapes\": {}}", "no \"pairs\""),
        (
            b"{\"shapes\": [], \"pairs\": []}",
            "\"shapes\" must be an object",
        ),
    ] {
        let r = run_with_stdin(&["query", "-"], Some(input));
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains(expect), "{}", r.stderr);
    }
}

#[test]
fn unknown_pose_fields_are_errors_with_a_suggestion() {
    let scene = br#"{"shapes": {"c": {"type": "circle", "radius": 1}},
        "pairs": [{"a": "c", "b": "c", "pose_b": {"translation": [3, 0], "angel": 1}}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene));
    assert_eq!(r.code, 2);
    let msg = lines(&r)[0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        msg.contains("pairs[0].pose_b.angel") && msg.contains("did you mean \"angle\""),
        "{msg}"
    );
    // A quaternion on a 2D pose is an error, not a silent identity.
    let scene = br#"{"shapes": {"c": {"type": "circle", "radius": 1}},
        "pairs": [{"a": "c", "b": "c", "pose_b": {"rotation": [0, 0, 0, 1]}}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene));
    assert_eq!(r.code, 2);
    let msg = lines(&r)[0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(msg.contains("pairs[0].pose_b.rotation"), "{msg}");
}

#[test]
fn demo_cross_checks_every_method() {
    let r = run(&["demo"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    for m in Method::ALL {
        let rows = r
            .stdout
            .lines()
            .filter(|l| l.split_whitespace().any(|w| w == m.name()))
            .count();
        // Support-map methods answer every family; vertex methods the polytope families;
        // approximate methods (PSO, penalty) have their own section instead of table rows.
        let want = if m.is_approximate() {
            0
        } else if m.needs_vertices() {
            1
        } else {
            20
        };
        assert!(rows >= want, "{} rows for {}", rows, m.name());
    }
    for family in [
        "points 3D",
        "cylinder",
        "polygon",
        "degenerate 2D",
        "reference",
    ] {
        assert!(r.stdout.contains(family), "{family}");
    }
    assert!(r.stdout.contains("reference tetrahedra"));
    assert!(r.stdout.contains("A vs B2: separated, distance 1"));
    assert!(!r.stdout.contains("FAIL"));
    assert!(r
        .stdout
        .lines()
        .last()
        .unwrap_or("")
        .starts_with("demo: OK"));
}

#[test]
fn unused_bad_shape_is_reported_and_fails_the_run() {
    let scene = br#"{"shapes": {"c": {"type": "circle", "radius": 1},
                                 "bad": {"type": "circle", "radius": -2}},
        "pairs": [{"a": "c", "b": "c", "pose_b": {"translation": [3, 0]}}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene));
    assert_eq!(r.code, 2);
    let out = lines(&r);
    assert_eq!(out.len(), 1);
    check_answer(&out[0]);
    assert!(
        r.stderr
            .contains("shape \"bad\": radius: value -2 must not be negative"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("not used by any pair"), "{}", r.stderr);
}

/// Issue 14: every certificate `query --all` prints for the fixtures is re-checked on pairs the
/// test rebuilds itself (not on the CLI's "verified" field), and a tampered certificate fails.
#[test]
fn every_printed_certificate_is_rechecked_independently() {
    for name in [
        "all_shapes.json",
        "scene.json",
        "analytic.json",
        "reference_tetrahedra.json",
    ] {
        let out = lines(&run(&["query", &fixture(name), "--all"]));
        let decided = out
            .iter()
            .filter(|v| v["intersecting"].is_boolean())
            .count();
        assert!(decided > 0, "{name}");
        assert_eq!(check_fixture_lines(name, &out), decided, "{name}");
        // Moving a common point 1e3 off, or widening a gap by 1e3, is caught.
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        let pairs = scene_pairs(&text);
        for v in out.iter().filter(|v| v["intersecting"].is_boolean()) {
            let mut bad = v.clone();
            let c = &mut bad["certificate"];
            if let Some(p) = c.get_mut("common_point") {
                p[0] = serde_json::json!(p[0].as_f64().unwrap() + 1e3);
            } else {
                c["gap"] = serde_json::json!(c["gap"].as_f64().unwrap() + 1e3);
            }
            let pair = pairs[v["pair"].as_u64().unwrap() as usize]
                .as_ref()
                .unwrap();
            let r = recheck(pair, &bad);
            assert!(
                matches!(r, Some(Err(_))),
                "tampered certificate passed: {bad}"
            );
        }
    }
}

/// Unknown keys are errors in every input, not only scenes: a time-of-impact input's top
/// level and pairs, a polygon pair and a query point object (a pair's `"horizon"` and a
/// point's misspelt `"inn"` were ignored: the point was then located in every polygon). A
/// missing field is named without guessing that another valid field was meant.
#[test]
fn unknown_keys_in_toi_and_polygon_inputs_are_errors() {
    let dir = std::env::temp_dir().join(format!("convexity-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("temp file");
        p.to_string_lossy().into_owned()
    };
    let error_of = |args: &[&str]| {
        let r = run(args);
        assert_ne!(r.code, 0, "{args:?}: {}", r.stdout);
        let line = lines(&r)
            .into_iter()
            .find_map(|v| v["error"].as_str().map(str::to_string));
        line.unwrap_or(r.stderr)
    };
    let bodies = r#""bodies": {"A": {"shape": {"type": "sphere", "radius": 1}},
        "B": {"shape": {"type": "sphere", "radius": 1}, "pose": {"translation": [5, 0, 0]},
              "velocity": [-1, 0, 0]}}"#;
    let f = write(
        "pair.json",
        &format!(r#"{{"h": 1, {bodies}, "pairs": [{{"a": "A", "b": "B", "horizon": 1}}]}}"#),
    );
    let e = error_of(&["toi", &f]);
    assert!(
        e.contains("pairs[0].horizon: unknown field in a pair"),
        "{e}"
    );
    let f = write(
        "top.json",
        &format!(r#"{{"h": 1, "hh": 2, {bodies}, "pairs": []}}"#),
    );
    let e = error_of(&["toi", &f]);
    assert!(
        e.contains("hh: unknown field") && e.contains("did you mean \"h\""),
        "{e}"
    );
    let square = r#""polygons": {"L": [[0, 0], [4, 0], [4, 4], [0, 4]]}"#;
    let f = write(
        "point.json",
        &format!(r#"{{{square}, "points": [{{"at": [1, 1], "inn": ["L"]}}]}}"#),
    );
    let e = error_of(&["polygon", &f]);
    assert!(
        e.contains("points[0].inn: unknown field") && e.contains("did you mean \"in\""),
        "{e}"
    );
    let f = write(
        "noat.json",
        &format!(r#"{{{square}, "points": [{{"in": ["L"]}}]}}"#),
    );
    let e = error_of(&["polygon", &f]);
    assert!(
        e.contains("points[0].at: missing field (required for a query point object)"),
        "{e}"
    );
    let f = write(
        "ppair.json",
        &format!(r#"{{{square}, "pairs": [{{"a": "L", "b": "L", "bogus": 1}}]}}"#),
    );
    let e = error_of(&["polygon", &f]);
    assert!(e.contains("pairs[0].bogus: unknown field in a pair"), "{e}");
    let scene = br#"{"shapes": {"t": {"type": "sphere", "radius": 1}}, "pairs": [{"a": "t"}]}"#;
    let r = run_with_stdin(&["query", "-"], Some(scene));
    let e = lines(&r)[0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        e.ends_with("pairs[0].b: missing field (required for a pair)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stream of many 3D and 2D pairs (hulls of 8 and 12 points, boxes, spheres; a third of the
/// 3D pairs moved onto contact) answered by one GJK-family method goes through the library's
/// batch API (`query::run_many`); `--methods` with the same one method answers pair by pair
/// (`query::run`). Both print the same verdicts and checks, distances within 1e-12, for `gjk`,
/// `gjk-boolean` and `epa --contact`, and every certificate rechecks (`run_with_stdin`).
#[test]
fn batched_stream_answers_as_the_pair_by_pair_path() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut hull = |n: usize| {
        let pts: Vec<String> = (0..n)
            .map(|_| format!("[{}, {}, {}]", rnd(), rnd(), rnd()))
            .collect();
        format!("{{\"type\": \"points\", \"points\": [{}]}}", pts.join(", "))
    };
    let (h8, h12, h8b) = (hull(8), hull(8 + 4), hull(8));
    let mut input = format!(
        "{{\"shapes\": {{\"h8\": {h8}, \"h12\": {h12}, \"g8\": {h8b}, \
         \"box\": {{\"type\": \"box\", \"half_extents\": [0.5, 0.3, 0.7]}}, \
         \"ball\": {{\"type\": \"sphere\", \"radius\": 0.4}}, \
         \"sq\": {{\"type\": \"box\", \"half_extents\": [0.5, 0.2]}}, \
         \"disc\": {{\"type\": \"circle\", \"radius\": 0.3}}}}}}\n"
    );
    let names = ["h8", "h12", "g8", "box", "ball"];
    let mut rnd2 = {
        let mut s = 7u64;
        move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    };
    for k in 0..600 {
        if k % 5 == 4 {
            input += &format!(
                "{{\"a\": \"sq\", \"b\": \"{}\", \"pose_b\": {{\"translation\": [{}, {}], \"angle\": {}}}}}\n",
                ["sq", "disc"][k % 2],
                rnd2() * 1.2,
                rnd2() * 1.2,
                rnd2() * 3.0
            );
            continue;
        }
        let q = [rnd2(), rnd2(), rnd2(), rnd2() + 1.5];
        let qn = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        input += &format!(
            "{{\"a\": \"{}\", \"b\": \"{}\", \"pose_b\": {{\"translation\": [{}, {}, {}], \
             \"rotation\": [{}, {}, {}, {}]}}}}\n",
            names[k % 5],
            names[(k / 5) % 5],
            rnd2() * 1.5,
            rnd2() * 1.5,
            rnd2() * 1.5,
            q[0] / qn,
            q[1] / qn,
            q[2] / qn,
            q[3] / qn
        );
    }
    for args in [
        vec!["-a", "gjk"],
        vec!["-a", "gjk-boolean"],
        vec!["-a", "epa", "--contact"],
        vec!["-a", "gjk", "--contact"],
    ] {
        let mut batched = vec!["query", "--ndjson", "-"];
        batched.extend(&args);
        let one = args[1];
        let mut single = vec!["query", "--ndjson", "-", "--methods", one];
        single.extend(&args[2..]);
        let (rb, rs) = (
            run_with_stdin(&batched, Some(input.as_bytes())),
            run_with_stdin(&single, Some(input.as_bytes())),
        );
        assert_eq!(rb.code, 0, "{args:?}: {}", rb.stderr);
        assert_eq!(rs.code, 0, "{args:?}: {}", rs.stderr);
        let (lb, ls) = (lines(&rb), lines(&rs));
        assert_eq!(lb.len(), 600, "{args:?}");
        assert_eq!(lb.len(), ls.len(), "{args:?}");
        let mut hits = 0;
        for (x, y) in lb.iter().zip(&ls) {
            check_answer(x);
            assert_eq!(x["pair"], y["pair"], "{args:?}");
            assert_eq!(x["intersecting"], y["intersecting"], "{args:?}: {x} {y}");
            assert_eq!(x["check"], y["check"], "{args:?}: {x} {y}");
            for key in ["distance", "penetration_depth"] {
                match (x[key].as_f64(), y[key].as_f64()) {
                    (Some(p), Some(q)) => {
                        assert!((p - q).abs() <= 1e-12, "{args:?} {key}: {x} {y}")
                    }
                    (p, q) => assert_eq!(p.is_some(), q.is_some(), "{args:?} {key}: {x} {y}"),
                }
            }
            hits += usize::from(x["intersecting"] == Value::Bool(true));
        }
        assert!(
            hits > 60 && hits < 540,
            "{args:?}: {hits} intersecting of 600"
        );
    }
}

/// A `points` shape with `"index": true` (hill-climbing support over its hull) answers every
/// pair as the same points without it; `index` takes only a boolean, and a misspelt key gets a
/// suggestion.
#[test]
fn indexed_points_answer_as_plain_points_and_index_takes_a_boolean() {
    // 400 points on a sphere of radius 0.8 (golden-angle spiral: deterministic, all on the hull).
    let pts: Vec<[f64; 3]> = (0..400)
        .map(|i| {
            let z = 1.0 - (2 * i + 1) as f64 / 400.0;
            let r = (1.0 - z * z).sqrt();
            let t = i as f64 * 2.399_963_229_728_653;
            [0.8 * r * t.cos(), 0.8 * r * t.sin(), 0.8 * z]
        })
        .collect();
    let pts = serde_json::to_string(&pts).unwrap();
    let mut pairs = Vec::new();
    for k in 0..40 {
        let x = -1.5 + 3.0 * k as f64 / 39.0;
        let pose = format!(
            r#"{{"translation": [{x}, {}, 0.3], "rotation": [0.1, 0.2, 0.3, 0.927362]}}"#,
            0.5 - x / 4.0
        );
        for a in ["big", "plain"] {
            pairs.push(format!(r#"{{"a": "{a}", "b": "cap", "pose_b": {pose}}}"#));
        }
    }
    let scene = format!(
        r#"{{"shapes": {{"big": {{"type": "points", "points": {pts}, "index": true}},
        "plain": {{"type": "points", "points": {pts}, "index": false}},
        "cap": {{"type": "capsule", "a": [0, 0, -0.3], "b": [0, 0, 0.3], "radius": 0.2}}}},
        "pairs": [{}]}}"#,
        pairs.join(",")
    );
    for method in ["gjk", "epa"] {
        let r = run_with_stdin(
            &["query", "-", "--methods", method, "--contact"],
            Some(scene.as_bytes()),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let out = lines(&r);
        assert_eq!(out.len(), 80);
        let mut both = 0;
        for w in out.chunks(2) {
            let (i, p) = (&w[0], &w[1]);
            assert_eq!(i["intersecting"], p["intersecting"], "{i} / {p}");
            for key in ["distance", "depth"] {
                if let (Some(a), Some(b)) = (i[key].as_f64(), p[key].as_f64()) {
                    assert!((a - b).abs() <= 1e-12, "{key}: {a} vs {b}");
                }
            }
            both += usize::from(i["intersecting"] == true);
        }
        assert!(
            (8..=32).contains(&both),
            "{method}: {both} of 40 overlapping"
        );
    }
    let bad = |index: &str| {
        let scene = format!(
            r#"{{"shapes": {{"big": {{"type": "points", "points": {pts}, {index}}},
            "cap": {{"type": "sphere", "radius": 1}}}}, "pairs": [{{"a": "big", "b": "cap"}}]}}"#
        );
        let r = run_with_stdin(&["query", "-"], Some(scene.as_bytes()));
        assert_eq!(r.code, 2);
        lines(&r)[0]["error"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let msg = bad(r#""index": "yes""#);
    assert!(
        msg.contains("index: expected true or false, found the string \"yes\""),
        "{msg}"
    );
    let msg = bad(r#""index": 1"#);
    assert!(
        msg.contains("index: expected true or false, found the number 1"),
        "{msg}"
    );
    let msg = bad(r#""indx": true"#);
    assert!(
        msg.contains("indx: unknown field") && msg.contains("did you mean \"index\""),
        "{msg}"
    );
}
