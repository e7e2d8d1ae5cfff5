//! End-to-end tests of `convexity separate` and `convexity contains` (and the demo's n-D
//! section) on the fixtures in `fixtures/` and on generated input.
//!
//! Every certificate printed is re-checked here by plain arithmetic over the input points
//! (dot products, weighted sums), independently of the library's `verify_n`. Expected
//! answers come from the construction of each input (margins and distances known exactly).

use serde_json::Value;

mod common;
use common::*;

/// Slack of the arithmetic re-checks (inputs are O(1)–O(10)).
const TOL: f64 = 1e-8;

fn rows_of(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(vec_of)
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `[[index, weight], ...]` checked convex over `set`; returns the weighted sum.
fn combination(weights: &Value, set: &[Vec<f64>]) -> Vec<f64> {
    let w = weights.as_array().expect("weights are an array");
    let mut sum = 0.0;
    let mut p = vec![0.0; set[0].len()];
    for pair in w {
        let i = pair[0].as_u64().expect("index") as usize;
        let x = pair[1].as_f64().expect("weight");
        assert!(x >= -TOL, "negative weight {x}");
        sum += x;
        for (pk, vk) in p.iter_mut().zip(&set[i]) {
            *pk += x * vk;
        }
    }
    assert!((sum - 1.0).abs() <= 1e-9, "weights sum to {sum}");
    p
}

fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    let d = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(a.len() == b.len() && d <= tol, "{a:?} vs {b:?}");
}

/// Re-checks a `separate` answer on the classes `a`, `b` by arithmetic.
fn check_separation(v: &Value, a: &[Vec<f64>], b: &[Vec<f64>]) {
    assert_eq!(v["certificate_checked"], true, "{v}");
    match v["result"].as_str() {
        Some("separable") => {
            assert_eq!(v["separable"], true);
            let w = vec_of(&v["hyperplane"]["w"]);
            let c = v["hyperplane"]["c"].as_f64().unwrap();
            let m = v["margin"].as_f64().unwrap();
            assert!(m > 0.0);
            assert!((dot(&w, &w).sqrt() - 1.0).abs() <= 1e-9);
            for p in a {
                assert!(
                    dot(&w, p) <= c - m + TOL,
                    "A point {p:?} violates the margin"
                );
            }
            for p in b {
                assert!(
                    dot(&w, p) >= c + m - TOL,
                    "B point {p:?} violates the margin"
                );
            }
            // The margin is half the distance of the printed closest points.
            let pa = vec_of(&v["point_a"]);
            let pb = vec_of(&v["point_b"]);
            let d: f64 = pa
                .iter()
                .zip(&pb)
                .map(|(x, y)| (x - y).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((d - 2.0 * m).abs() <= TOL);
            let h = &v["certificate"];
            let n = vec_of(&h["separating_axis"]);
            let gap = h["gap"].as_f64().unwrap();
            assert!(gap > 0.0);
            let hi_a = a
                .iter()
                .map(|p| dot(&n, p))
                .fold(f64::NEG_INFINITY, f64::max);
            let lo_b = b.iter().map(|p| dot(&n, p)).fold(f64::INFINITY, f64::min);
            assert!(hi_a + gap <= lo_b + TOL, "{hi_a} + {gap} > {lo_b}");
        }
        Some("overlapping") => {
            assert_eq!(v["separable"], false);
            let cert = &v["certificate"];
            let p = vec_of(&cert["common_point"]);
            assert_close(&combination(&cert["weights_a"], a), &p, TOL);
            assert_close(&combination(&cert["weights_b"], b), &p, TOL);
        }
        other => panic!("unexpected result {other:?}: {v}"),
    }
}

#[test]
fn separate_csv_with_string_labels_and_quoted_fields() {
    let r = run(&["separate", &fixture("separate.csv")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = &lines(&r)[0];
    assert_eq!(v["labels"][0], "setosa, small");
    assert_eq!(v["labels"][1], "virginica \"v\"");
    assert_eq!(v["columns"][0], "x, cm");
    assert_eq!(v["counts"][0], 5);
    assert_eq!(v["dim"], 3);
    // Construction: A has x ≤ 1 with (1,0,0) its only point at x = 1; B has x ≥ 3 with
    // (3,0,0) its only point at x = 3: distance 2, margin 1, w = e0, c = 2.
    assert!((v["margin"].as_f64().unwrap() - 1.0).abs() <= 1e-9);
    assert!((v["hyperplane"]["c"].as_f64().unwrap() - 2.0).abs() <= 1e-9);
    assert_close(&vec_of(&v["hyperplane"]["w"]), &[1.0, 0.0, 0.0], 1e-9);
    // Columns x, y, z (the label column sits between y and z in the file).
    let a = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.5, 1.0, -1.0],
        [-1.0, 2.0, 1.0],
        [0.0, -2.0, 0.5],
    ]
    .map(|p| p.to_vec());
    let b = [
        [3.0, 0.0, 0.0],
        [4.0, 1.0, 0.0],
        [3.5, -1.0, 1.0],
        [5.0, 2.0, -1.0],
        [3.0, 0.5, -0.5],
    ]
    .map(|p| p.to_vec());
    check_separation(v, &a, &b);
    assert!(r.stderr.contains("separable:"), "{}", r.stderr);
    assert!(r.stderr.contains("certificate checked by verify_n"));
}

#[test]
fn separate_json_overlapping_with_weights() {
    let r = run(&["separate", &fixture("separate.json")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = &lines(&r)[0];
    assert_eq!(v["result"], "overlapping");
    assert_eq!(v["labels"], serde_json::json!(["red", "blue"]));
    let text = std::fs::read_to_string(fixture("separate.json")).unwrap();
    let f: Value = serde_json::from_str(&text).unwrap();
    let pts = rows_of(&f["points"]);
    let labels = f["labels"].as_array().unwrap();
    let a: Vec<Vec<f64>> = pts
        .iter()
        .zip(labels)
        .filter(|(_, l)| *l == "red")
        .map(|(p, _)| p.clone())
        .collect();
    let b: Vec<Vec<f64>> = pts
        .iter()
        .zip(labels)
        .filter(|(_, l)| *l == "blue")
        .map(|(p, _)| p.clone())
        .collect();
    check_separation(v, &a, &b);
    assert!(r.stderr.contains("overlapping:"));
}

/// Two classes in `dim` dimensions at distance `2·half_gap` along the diagonal direction.
fn diagonal_classes(dim: usize, half_gap: f64) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    // Points p with u·p ≤ −half_gap (A) and ≥ half_gap (B), u = (1,…,1)/√dim; the extreme
    // points ∓half_gap·u are members, and every other point is strictly farther out, so the
    // margin is exactly half_gap.
    let s = (dim as f64).sqrt();
    let mut a = vec![vec![-half_gap / s; dim]];
    let mut b = vec![vec![half_gap / s; dim]];
    for k in 0..dim {
        let mut p = vec![-half_gap / s; dim];
        p[k] -= 1.0 + k as f64 * 0.1;
        a.push(p.clone());
        let q: Vec<f64> = p.iter().map(|x| -x).collect();
        b.push(q);
        // Off-axis spread that keeps u·p fixed: a pure difference of two coordinates.
        let mut r = vec![-half_gap / s - 0.5; dim];
        r[k] += 0.7;
        r[(k + 1) % dim] -= 0.7;
        a.push(r.clone());
        b.push(r.iter().map(|x| -x).collect());
    }
    (a, b)
}

#[test]
fn separate_csv_from_stdin_in_12_dimensions() {
    let dim = 12;
    let (a, b) = diagonal_classes(dim, 0.75);
    let mut csv = String::new();
    let header: Vec<String> = (0..dim).map(|k| format!("\"f{k}\"")).collect();
    csv.push_str(&format!("{},kind\n", header.join(",")));
    for (rows, label) in [(&a, "\"left side\""), (&b, "right")] {
        for p in rows.iter() {
            let f: Vec<String> = p.iter().map(|x| format!("{x:e}")).collect();
            csv.push_str(&format!("{},{label}\n", f.join(",")));
        }
    }
    let r = run_with_stdin(&["separate", "-"], Some(csv.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = &lines(&r)[0];
    assert_eq!(v["labels"], serde_json::json!(["left side", "right"]));
    assert_eq!(v["dim"], dim);
    assert!(
        (v["margin"].as_f64().unwrap() - 0.75).abs() <= 1e-9,
        "{}",
        v["margin"]
    );
    check_separation(v, &a, &b);
}

#[test]
fn separate_json_a_b_form_touching_counts_as_overlapping() {
    // The squares share the edge x = 1: closed sets, so overlapping.
    let input = br#"{"a": [[0,0],[1,0],[0,1],[1,1]], "b": [[1,0.5],[2,0],[2,1],[1,2]]}"#;
    let r = run_with_stdin(&["separate", "-"], Some(input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = &lines(&r)[0];
    assert_eq!(v["result"], "overlapping", "{v}");
    let a = [[0., 0.], [1., 0.], [0., 1.], [1., 1.]].map(|p| p.to_vec());
    let b = [[1., 0.5], [2., 0.], [2., 1.], [1., 2.]].map(|p| p.to_vec());
    check_separation(v, &a, &b);
    // Offset by 1e6 and separated by 1e-3: still exact to the tolerance.
    let input =
        br#"{"a": [[1000000,0],[1000001,0],[1000000,1]], "b": [[1000001.001,0],[1000002,1]]}"#;
    let r = run_with_stdin(&["separate", "-"], Some(input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = &lines(&r)[0];
    assert_eq!(v["result"], "separable", "{v}");
    assert!((v["margin"].as_f64().unwrap() - 0.0005).abs() <= 1e-9);
}

#[test]
fn separate_bad_inputs_name_line_and_field() {
    let cases = [
        ("separate_bad_label.csv", "line 5"),
        ("separate_bad_label.csv", "third distinct label \"bird\""),
        (
            "separate_bad_value.csv",
            "line 3: column \"b\" holds \"1.5x\"",
        ),
        (
            "separate_bad_nan.csv",
            "line 3: column \"b\": value \"nan\" is not finite",
        ),
        ("separate_bad_ragged.json", "b[1]: expected 3 coordinates"),
        (
            "separate_bad_fields.csv",
            "line 3: 4 fields, but the header has 3",
        ),
    ];
    for (file, needle) in cases {
        let r = run(&["separate", &fixture(file)]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{file}: {}", r.stdout);
        assert!(r.stderr.contains(needle), "{file}: {}", r.stderr);
    }
    let inline: [(&[u8], &str); 6] = [
        (b"a,b\n", "no data rows"),
        (b"", "empty file"),
        (br#"{"a": [[0, "NaN"]], "b": [[1, 1]]}"#, "a[0][1]"),
        (br#"{"a": [[0, 1e300]], "b": [[1, 1]]}"#, "a[0][1]"),
        (
            br#"{"points": [[0], [1]], "labels": ["x", "x"]}"#,
            "two distinct labels",
        ),
        (
            br#"{"a": [[0, 1]], "b": [[1, 1]"#,
            "malformed JSON at line 1",
        ),
    ];
    for (input, needle) in inline {
        let r = run_with_stdin(&["separate", "-"], Some(input));
        assert_eq!(r.code, 2, "{needle}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    assert_eq!(run(&["separate"]).code, 2);
    assert_eq!(run(&["separate", "x.csv", "y.csv"]).code, 2);
    assert_eq!(run(&["separate", "--frobnicate", "x.csv"]).code, 2);
    let r = run(&["separate", &fixture("no_such_file.csv")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot read"));
}

/// Re-checks one `contains` answer by arithmetic on the printed world-frame vertex sets.
fn check_containment(v: &Value) {
    assert_eq!(v["certificate_checked"], true, "{v}");
    let a = rows_of(&v["vertices_a"]);
    let b = rows_of(&v["vertices_b"]);
    let cert = &v["certificate"];
    match v["contained"].as_bool() {
        Some(true) => {
            let w = cert["weights"].as_array().expect("weights");
            assert_eq!(w.len(), a.len());
            for (p, wi) in a.iter().zip(w) {
                assert_close(&combination(wi, &b), p, TOL);
            }
        }
        Some(false) => {
            let k = cert["vertex"].as_u64().unwrap() as usize;
            let p = vec_of(&cert["point"]);
            assert_close(&p, &a[k], 0.0);
            let n = vec_of(&cert["separating_axis"]);
            let gap = cert["gap"].as_f64().unwrap();
            assert!(gap > 0.0);
            assert!((dot(&n, &n).sqrt() - 1.0).abs() <= 1e-9);
            for y in &b {
                assert!(dot(&n, &p) + gap <= dot(&n, y) + TOL, "vertex {y:?}");
            }
        }
        None => panic!("undetermined: {v}"),
    }
}

#[test]
fn contains_fixture_answers_and_certificates() {
    let r = run(&["contains", &fixture("contains.json")]);
    assert_eq!(
        r.code, 2,
        "error pairs make the exit status 2: {}",
        r.stderr
    );
    let lines = lines(&r);
    assert_eq!(lines.len(), 10);
    let expected = [
        Some(true),
        Some(false),
        Some(false),
        Some(true),
        Some(false),
        Some(true),
        Some(false),
    ];
    for (i, (v, e)) in lines.iter().zip(expected).enumerate() {
        assert_eq!(v["pair"], i);
        assert_eq!(v["contained"].as_bool(), e, "pair {i}: {v}");
        check_containment(v);
    }
    // Pair 1: the tetrahedron moved by +0.5 in x pokes out of the cube at (1.5, 0, 0).
    assert_eq!(
        lines[1]["certificate"]["point"],
        serde_json::json!([1.5, 0.0, 0.0])
    );
    // Pair 3: world vertices of the rotated, translated triangle, computed here.
    let (s, c) = 0.3f64.sin_cos();
    let world = |x: f64, y: f64| vec![0.5 + c * x - s * y, 0.5 + s * x + c * y];
    let got = rows_of(&lines[3]["vertices_a"]);
    for (g, e) in got
        .iter()
        .zip([world(0., 0.), world(1., 0.), world(0., 1.)])
    {
        assert_close(g, &e, 1e-12);
    }
    assert!(lines[7]["error"]
        .as_str()
        .unwrap()
        .contains("containment needs vertex sets"));
    assert!(lines[8]["error"]
        .as_str()
        .unwrap()
        .contains("same dimension"));
    assert!(lines[9]["error"]
        .as_str()
        .unwrap()
        .contains("pairs[9].b: unknown shape \"nosuch\""));
    assert!(
        r.stderr.contains("3 contained, 4 not contained"),
        "{}",
        r.stderr
    );
}

#[test]
fn contains_boundary_and_identical_shapes_count_as_contained() {
    let scene = br#"{
      "shapes": {
        "cube": {"type": "box", "half_extents": [1, 1, 1]},
        "corner": {"type": "points", "points": [[1, 1, 1], [0, 0, 0], [1, -1, 1]]},
        "seg": {"type": "segment", "a": [1, 1, 1], "b": [1, -1, -1]},
        "s6": {"type": "points", "points": [[0,0,0,0,0,0],[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]},
        "s6dup": {"type": "points", "points": [[0,0,0,0,0,1],[0,0,0,0,0,1],[0.5,0.5,0,0,0,0]]},
        "r": {"type": "rounded", "radius": 0, "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}}
      },
      "pairs": [
        {"a": "cube", "b": "cube"},
        {"a": "corner", "b": "cube"},
        {"a": "seg", "b": "cube"},
        {"a": "s6dup", "b": "s6"},
        {"a": "s6", "b": "s6"},
        {"a": "r", "b": "cube", "pose_a": {"translation": [0.5, 0.5, 0.5]}},
        {"a": "r", "b": "cube", "pose_a": {"translation": [0.5, 0.5, 0.5000001]}}
      ]
    }"#;
    let r = run_with_stdin(&["contains", "-"], Some(scene));
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let lines = lines(&r);
    let expected = [true, true, true, true, true, true, false];
    assert_eq!(lines.len(), expected.len());
    for (v, e) in lines.iter().zip(expected) {
        assert_eq!(v["contained"].as_bool(), Some(e), "{v}");
        check_containment(v);
    }
    // The box moved by 1e-7 past the face: the gap is a lower bound on that excess.
    let gap = lines[6]["certificate"]["gap"].as_f64().unwrap();
    assert!(gap > 0.0 && gap <= 1e-7 + 1e-12, "{gap}");
}

#[test]
fn contains_bad_input() {
    let r = run(&["contains", &fixture("contains_bad.json")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("malformed JSON"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let scene = br#"{"shapes": {"p": {"type": "points", "points": [[0, 0], [1, 0]]},
                                 "q": {"type": "points", "points": [[0, 0, 0, 0], [1, 0, 0, "inf"]]}},
                     "pairs": [{"a": "p", "b": "p", "pose_a": {"translation": [0, "x"]}},
                               {"a": "q", "b": "q"},
                               {"b": "p"},
                               {"a": "p", "b": "p"}]}"#;
    let r = run_with_stdin(&["contains", "-"], Some(scene));
    assert_eq!(r.code, 2);
    let lines = lines(&r);
    assert_eq!(lines.len(), 4);
    let err = |i: usize| lines[i]["error"].as_str().unwrap_or("").to_string();
    assert!(
        err(0).contains("pairs[0].pose_a.translation[1]"),
        "{}",
        err(0)
    );
    assert!(err(1).contains("points[1][3]"), "{}", err(1));
    assert!(err(2).contains("pairs[2].a"), "{}", err(2));
    assert_eq!(lines[3]["contained"], true);
    check_containment(&lines[3]);
    assert_eq!(run(&["contains"]).code, 2);
    assert_eq!(run(&["contains", "a.json", "b.json"]).code, 2);
}

#[test]
fn help_lists_the_new_commands() {
    let r = run(&["help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("separate"));
    assert!(r.stdout.contains("contains"));
    assert_eq!(run(&["separate", "--help"]).code, 0);
    assert_eq!(run(&["contains", "-h"]).code, 0);
}

#[test]
fn demo_runs_the_n_dimensional_section() {
    let r = run(&["demo"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("n-dimensional methods"));
    assert!(r.stdout.contains("PSO polished"));
    assert!(r.stdout.contains("separability in 10-D"));
    let summary = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("n-D:"))
        .expect("an n-D summary line");
    assert!(summary.ends_with("all ok"), "{summary}");
    assert!(!r
        .stdout
        .lines()
        .any(|l| l.contains("n-D") && l.contains("FAIL")));
}

#[test]
fn contains_nd_rounded_and_nd_pose_are_errors() {
    let scene = br#"{"shapes": {
        "s": {"type": "points", "points": [[0,0,0,0],[4,0,0,0],[0,4,0,0],[0,0,4,0],[0,0,0,4]]},
        "t": {"type": "points", "points": [[1,1,1,1],[0.5,0.5,0.5,0.5]]},
        "rt": {"type": "rounded", "radius": 0.25, "shape": {"type": "points", "points": [[1,1,1,1]]}}},
      "pairs": [{"a": "t", "b": "s", "pose_a": {"translation": [9, 9, 9, 9]}},
                {"a": "rt", "b": "s"}, {"a": "t", "b": "s"}]}"#;
    let r = run_with_stdin(&["contains", "-"], Some(scene));
    assert_eq!(r.code, 2);
    let lines = lines(&r);
    // (1,1,1,1) has coordinate sum 4: on the facet x1+x2+x3+x4 = 4, so contained.
    assert_eq!(lines[2]["contained"], true, "{}", lines[2]);
    check_containment(&lines[2]);
    // A pose on an n-dimensional pair would be ignored: it is an error (issue 13).
    let e = lines[0]["error"].as_str().unwrap_or("");
    assert!(
        e.contains("pairs[0].pose_a") && e.contains("takes no pose"),
        "{e}"
    );
    assert!(lines[1]["error"]
        .as_str()
        .unwrap_or("")
        .contains("needs vertex sets"));
}
