//! Issue 13: the six silent wrong answers, each pinned by a named regression test, plus the
//! command-line conventions (clap help, version, suggestions, completions) and NDJSON batches.
//!
//! Every certificate these tests read is re-checked here with `convexity::verify` (2D/3D
//! pairs) or `convexity::nd::points::verify_n` (labelled sets), on shapes the test builds
//! itself, not on the CLI's own "verified" field.

mod common;

use common::{fixture, lines, run, run_with_stdin, vec_of};
use convexity::nd::points::{verify_n, PointsN, SeparatingHyperplane, VerdictN};
use convexity::{
    Ball, CommonPoint, Cuboid, DVec2, DVec3, Pose2, Pose3, SeparatingAxis, Shape2, Shape3,
    Triangle, Verdict,
};
use serde_json::Value;

fn v3(v: &Value) -> DVec3 {
    let c = vec_of(v);
    DVec3::new(c[0], c[1], c[2])
}

fn v2(v: &Value) -> DVec2 {
    let c = vec_of(v);
    DVec2::new(c[0], c[1])
}

/// The verdict an answer line carries.
fn verdict3(line: &Value) -> Verdict<DVec3> {
    let c = &line["certificate"];
    match line["intersecting"].as_bool() {
        Some(true) => Verdict::Intersecting(CommonPoint {
            point: v3(&c["common_point"]),
        }),
        Some(false) => Verdict::Separated(SeparatingAxis {
            axis: v3(&c["separating_axis"]),
            gap: c["gap"].as_f64().unwrap_or(f64::NAN),
        }),
        None => Verdict::Undetermined,
    }
}

fn verdict2(line: &Value) -> Verdict<DVec2> {
    let c = &line["certificate"];
    match line["intersecting"].as_bool() {
        Some(true) => Verdict::Intersecting(CommonPoint {
            point: v2(&c["common_point"]),
        }),
        Some(false) => Verdict::Separated(SeparatingAxis {
            axis: v2(&c["separating_axis"]),
            gap: c["gap"].as_f64().unwrap_or(f64::NAN),
        }),
        None => Verdict::Undetermined,
    }
}

/// Re-checks a 3D answer's certificate with the library's checker at the line's tolerance.
fn check3(a: &Shape3, pa: &Pose3, b: &Shape3, pb: &Pose3, line: &Value) {
    let tol = line["tolerance"].as_f64().unwrap_or(0.0);
    let r = convexity::verify(a, pa, b, pb, &verdict3(line), tol);
    assert!(r.is_ok(), "certificate rejected ({r:?}): {line}");
}

fn check2(a: &Shape2, pa: &Pose2, b: &Shape2, pb: &Pose2, line: &Value) {
    let tol = line["tolerance"].as_f64().unwrap_or(0.0);
    let r = convexity::verify(a, pa, b, pb, &verdict2(line), tol);
    assert!(r.is_ok(), "certificate rejected ({r:?}): {line}");
}

/// Writes a scene to standard input of `convexity query -`.
fn query_stdin(args: &[&str], scene: &str) -> common::Run {
    let mut all = vec!["query", "-"];
    all.extend_from_slice(args);
    run_with_stdin(&all, Some(scene.as_bytes()))
}

fn error_of(r: &common::Run, i: usize) -> String {
    lines(r)[i]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn unit_cube() -> Shape3 {
    Shape3::Cuboid(Cuboid::new(DVec3::ONE).unwrap())
}

fn at3(x: f64, y: f64, z: f64) -> Pose3 {
    Pose3::from_parts([x, y, z], [0.0, 0.0, 0.0, 1.0]).unwrap()
}

// ---- case 1: unknown fields in a pair, pose or shape -------------------------------------

#[test]
fn misspelt_pose_b_is_an_error_not_the_identity_pose() {
    let scene = r#"{"shapes": {"A": {"type": "box", "half_extents": [1, 1, 1]}},
        "pairs": [{"a": "A", "b": "A", "poseb": {"translation": [5, 0, 0]}},
                  {"a": "A", "b": "A", "pose_b": {"translaton": [5, 0, 0]}},
                  {"a": "A", "b": "A", "pose_b": {"translation": [5, 0, 0]},
                   "meta": {"note": "free-form metadata is allowed"}}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let e = error_of(&r, 0);
    assert!(
        e.contains("pairs[0].poseb") && e.contains("did you mean \"pose_b\""),
        "{e}"
    );
    let e = error_of(&r, 1);
    assert!(
        e.contains("pairs[1].pose_b.translaton") && e.contains("did you mean \"translation\""),
        "{e}"
    );
    // The pair with "meta" is answered at the pose it gives: separated by 3.
    let l = &lines(&r)[2];
    assert_eq!(l["intersecting"], Value::Bool(false), "{l}");
    assert!(
        (l["distance"].as_f64().unwrap_or(0.0) - 3.0).abs() < 1e-9,
        "{l}"
    );
    check3(
        &unit_cube(),
        &at3(0., 0., 0.),
        &unit_cube(),
        &at3(5., 0., 0.),
        l,
    );
}

#[test]
fn unknown_shape_field_is_an_error_with_a_suggestion() {
    let scene = r#"{"shapes": {"S": {"type": "sphere", "radius": 1, "raduis": 2},
                               "T": {"type": "sphere", "radius": 1, "meta": {"id": 7}}},
        "pairs": [{"a": "S", "b": "T"}, {"a": "T", "b": "T",
                   "pose_b": {"translation": [3, 0, 0]}}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2);
    let e = error_of(&r, 0);
    assert!(
        e.contains("raduis") && e.contains("did you mean \"radius\""),
        "{e}"
    );
    let l = &lines(&r)[1];
    let ball = Shape3::Sphere(Ball::new(1.0).unwrap());
    check3(&ball, &at3(0., 0., 0.), &ball, &at3(3., 0., 0.), l);
}

// ---- case 2: n-D pose fields ---------------------------------------------------------------

#[test]
fn nd_pose_translation_is_an_error_not_ignored() {
    let scene = r#"{"shapes": {"P": {"type": "points", "points": [[0,0,0,0],[1,0,0,0],[0,1,0,0]]}},
        "pairs": [{"a": "P", "b": "P", "pose_b": {"translation": [1, 0, 0, 0]}},
                  {"a": "P", "b": "P", "pose_b": {"rotation": "hello"}}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2);
    for i in 0..2 {
        let e = error_of(&r, i);
        assert!(
            e.contains(&format!("pairs[{i}].pose_b")) && e.contains("takes no pose"),
            "{e}"
        );
    }
}

// ---- case 3: CSV label column ----------------------------------------------------------------

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("convexity-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("temp file");
    p.to_string_lossy().into_owned()
}

/// Re-checks a `separate` certificate with `verify_n` on the classes the test wrote.
fn check_separate(out: &Value, a: &[Vec<f64>], b: &[Vec<f64>]) {
    let h = &out["certificate"];
    let verdict = VerdictN::Separated(SeparatingHyperplane {
        normal: vec_of(&h["separating_axis"]),
        gap: h["gap"].as_f64().unwrap_or(f64::NAN),
    });
    let (pa, pb) = (
        PointsN::from_rows(a).unwrap(),
        PointsN::from_rows(b).unwrap(),
    );
    let tol = out["tolerance"].as_f64().unwrap_or(0.0);
    let r = verify_n(&verdict, &pa, &pb, tol);
    assert!(r.is_ok(), "{r:?}: {out}");
}

#[test]
fn csv_header_x_y_class_takes_class_not_y_as_labels() {
    let f = temp_file("xyclass.csv", "x,y,class\n0,0,0\n1,3,0\n5,0,1\n6,2,1\n");
    let r = run(&["separate", &f]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &lines(&r)[0];
    assert_eq!(out["columns"], serde_json::json!(["x", "y"]), "{out}");
    assert_eq!(out["labels"], serde_json::json!(["0", "1"]), "{out}");
    check_separate(
        out,
        &[vec![0.0, 0.0], vec![1.0, 3.0]],
        &[vec![5.0, 0.0], vec![6.0, 2.0]],
    );
}

#[test]
fn csv_without_header_does_not_lose_its_first_row() {
    let f = temp_file("nohead.csv", "0,0,0\n0,3,0\n5,0,1\n5,2,1\n");
    let r = run(&["separate", &f]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--no-header"), "{}", r.stderr);
    let r = run(&["separate", &f, "--no-header", "--label", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &lines(&r)[0];
    assert_eq!(out["counts"], serde_json::json!([2, 2]), "{out}");
    check_separate(
        out,
        &[vec![0.0, 0.0], vec![0.0, 3.0]],
        &[vec![5.0, 0.0], vec![5.0, 2.0]],
    );
    // An ambiguous guess is an error that lists the candidates.
    let r = run(&["separate", &f, "--no-header"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("(index 0)") && r.stderr.contains("(index 2)"),
        "{}",
        r.stderr
    );
}

#[test]
fn csv_quoted_newline_and_semicolon_delimiter() {
    let f = temp_file(
        "semi.csv",
        "x;y;\"the\nlabel\"\n0;0;\"left\nside\"\n1;3;\"left\nside\"\n5;0;right\n6;2;right\n",
    );
    let r = run(&["separate", &f, "--delimiter", ";"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &lines(&r)[0];
    assert_eq!(
        out["labels"],
        serde_json::json!(["left\nside", "right"]),
        "{out}"
    );
    check_separate(
        out,
        &[vec![0.0, 0.0], vec![1.0, 3.0]],
        &[vec![5.0, 0.0], vec![6.0, 2.0]],
    );
}

// ---- case 4: toi with acceleration -----------------------------------------------------------

#[test]
fn toi_acceleration_on_a_ball_is_refused_not_ignored() {
    let r = run(&["toi", &fixture("toi.json")]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    let ls = lines(&r);
    // ground vs dropped_ball (a circle with acceleration): an error naming acceleration,
    // never "separated" at constant velocity.
    let e = ls[6]["error"].as_str().unwrap_or_default();
    assert!(e.contains("pairs[6]") && e.contains("acceleration"), "{e}");
    assert!(ls.iter().all(|l| l.get("note").is_none()));
    // ground vs falling (a triangle with acceleration): honoured, lands at t = 1.
    let l = &ls[1];
    assert_eq!(l["method"], "vertex_edge_quartic", "{l}");
    assert!((l["toi"].as_f64().unwrap_or(0.0) - 1.0).abs() < 1e-9, "{l}");
}

// ---- case 5: duplicate keys, bad rotation, 1e400, zero quaternion ----------------------------

#[test]
fn duplicate_json_keys_are_errors() {
    let scene = r#"{"shapes": {"A": {"type": "sphere", "radius": 1},
                               "A": {"type": "sphere", "radius": 5}},
        "pairs": [{"a": "A", "b": "A"}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("duplicate key \"A\"") && r.stderr.contains("line 2"),
        "{}",
        r.stderr
    );
    let scene = r#"{"shapes": {"A": {"type": "sphere", "radius": 1}},
        "pairs": [{"a": "A", "b": "A", "pose_b": {"translation": [5, 0, 0], "translation": [0, 0, 0]}}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("duplicate key \"translation\""),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
}

#[test]
fn huge_number_rejects_only_its_pair() {
    let scene = r#"{"shapes": {"A": {"type": "sphere", "radius": 1}},
        "pairs": [{"a": "A", "b": "A", "pose_b": {"translation": [1e400, 0, 0]}},
                  {"a": "A", "b": "A", "pose_b": {"translation": [3, 0, 0]}}]}"#;
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 2);
    let e = error_of(&r, 0);
    assert!(
        e.contains("pairs[0].pose_b.translation[0]") && e.contains("1e400"),
        "{e}"
    );
    let l = &lines(&r)[1];
    assert_eq!(l["intersecting"], Value::Bool(false), "{l}");
    let ball = Shape3::Sphere(Ball::new(1.0).unwrap());
    check3(&ball, &at3(0., 0., 0.), &ball, &at3(3., 0., 0.), l);
}

#[test]
fn zero_quaternion_reports_its_real_norm() {
    let scene = r#"{"shapes": {"A": {"type": "sphere", "radius": 1}},
        "pairs": [{"a": "A", "b": "A", "pose_b": {"rotation": [0, 0, 0, 0]}},
                  {"a": "A", "b": "A", "pose_b": {"rotation": [0, 0, 0, 0.5]}}]}"#;
    let r = query_stdin(&[], scene);
    let e = error_of(&r, 0);
    assert!(e.contains("its norm is 0"), "{e}");
    let e = error_of(&r, 1);
    assert!(e.contains("its norm is 0.5"), "{e}");
}

// ---- case 6: normal is null where it means nothing -------------------------------------------

#[test]
fn intersecting_pair_without_contact_has_null_normal() {
    // A triangle sunk 0.05 into the top face of a unit box.
    let scene = r#"{"shapes": {"box": {"type": "box", "half_extents": [1, 1, 1]},
                               "tri": {"type": "triangle", "a": [-0.5, -0.5, 0.95],
                                       "b": [0.5, -0.5, 0.95], "c": [0, 0.5, 0.95]}},
        "pairs": [{"a": "box", "b": "tri"}]}"#;
    let tri = Shape3::Triangle(
        Triangle::new(
            DVec3::new(-0.5, -0.5, 0.95),
            DVec3::new(0.5, -0.5, 0.95),
            DVec3::new(0.0, 0.5, 0.95),
        )
        .unwrap(),
    );
    let origin = at3(0., 0., 0.);
    let r = query_stdin(&[], scene);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let l = &lines(&r)[0];
    assert_eq!(l["intersecting"], Value::Bool(true), "{l}");
    assert!(l["normal"].is_null(), "{l}");
    check3(&unit_cube(), &origin, &tri, &origin, l);
    let r = query_stdin(&["--contact"], scene);
    let l = &lines(&r)[0];
    let n = vec_of(&l["normal"]);
    assert!(common::close(&n, &[0.0, 0.0, 1.0], 1e-9), "{l}");
    assert!(
        (l["penetration_depth"].as_f64().unwrap_or(0.0) - 0.05).abs() < 1e-9,
        "{l}"
    );
    check3(&unit_cube(), &origin, &tri, &origin, l);
}

// ---- conventions ---------------------------------------------------------------------------

#[test]
fn per_command_help_version_suggestions_completions() {
    let q = run(&["query", "--help"]);
    let s = run(&["separate", "--help"]);
    assert_eq!((q.code, s.code), (0, 0));
    assert_ne!(q.stdout, s.stdout);
    assert!(
        q.stdout.contains("--ndjson") && q.stdout.contains("pose_b"),
        "{}",
        q.stdout
    );
    assert!(
        s.stdout.contains("--no-header") && s.stdout.contains("--label"),
        "{}",
        s.stdout
    );
    let v = run(&["--version"]);
    assert_eq!(v.code, 0);
    assert!(v.stdout.contains(env!("CARGO_PKG_VERSION")), "{}", v.stdout);
    let t = run(&["qurey", "x.json"]);
    assert_eq!(t.code, 2);
    assert!(t.stderr.contains("query"), "{}", t.stderr);
    let t = run(&["query", "x.json", "--contcat"]);
    assert_eq!(t.code, 2);
    assert!(t.stderr.contains("--contact"), "{}", t.stderr);
    let c = run(&["completions", "bash"]);
    assert_eq!(c.code, 0);
    assert!(
        c.stdout.contains("convexity") && c.stdout.contains("complete"),
        "{}",
        c.stdout
    );
}

#[test]
fn svg_write_failure_exits_74() {
    let r = run(&[
        "polygon",
        &fixture("polygons.json"),
        "--svg",
        "/nonexistent-dir/x.svg",
    ]);
    assert_eq!(r.code, 74, "{}", r.stderr);
    assert!(
        r.stderr.contains("cannot write /nonexistent-dir/x.svg"),
        "{}",
        r.stderr
    );
}

// ---- NDJSON batches ------------------------------------------------------------------------

#[test]
fn ndjson_stream_with_named_and_inline_shapes_keeps_order_for_any_thread_count() {
    let mut text = String::from("{\"shapes\": {\"c\": {\"type\": \"circle\", \"radius\": 1}}}\n\n");
    let n = 9000; // more than one parallel chunk
    for i in 0..n {
        let x = 1.0 + (i % 7) as f64 * 0.5;
        if i % 2 == 0 {
            text.push_str(&format!(
                "{{\"a\": \"c\", \"b\": \"c\", \"pose_b\": {{\"translation\": [{x}, 0]}}}}\n"
            ));
        } else {
            text.push_str(&format!(
                "{{\"a\": {{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}}, \"b\": \"c\", \
                 \"pose_b\": {{\"translation\": [{x}, 0]}}}}\n"
            ));
        }
    }
    text.push_str("{\"a\": \"nope\", \"b\": \"c\"}\n");
    // A file, not standard input: the test would otherwise block writing 1 MB of input while
    // the CLI blocks writing output nobody reads yet.
    let f = temp_file("pairs.ndjson", &text);
    let one = run(&["query", &f, "--ndjson", "--threads", "1"]);
    let two = run(&["query", &f, "--ndjson", "--threads", "2"]);
    // Standard input works too (a small stream).
    let small = "{\"a\": {\"type\": \"circle\", \"radius\": 1}, \"b\": {\"type\": \"circle\", \"radius\": 1}}\n";
    let r = run_with_stdin(&["query", "-", "--ndjson"], Some(small.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(lines(&r)[0]["intersecting"], Value::Bool(true));
    assert_eq!(one.code, 2, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
    let ls = lines(&one);
    assert_eq!(ls.len(), n + 1);
    let circle = Shape2::Circle(Ball::new(1.0).unwrap());
    let square = Shape2::Rect(Cuboid::new(DVec2::new(0.5, 0.5)).unwrap());
    for (i, l) in ls.iter().enumerate().take(n) {
        assert_eq!(l["pair"].as_u64(), Some(i as u64), "{l}");
        let x = 1.0 + (i % 7) as f64 * 0.5;
        let a = if i % 2 == 0 { &circle } else { &square };
        let pb = Pose2::from_angle([x, 0.0], 0.0).unwrap();
        check2(a, &Pose2::IDENTITY, &circle, &pb, l);
    }
    let e = ls[n]["error"].as_str().unwrap_or_default();
    assert!(
        e.contains(&format!("line {}", n + 3)) && e.contains("unknown shape"),
        "{e}"
    );
}

#[test]
fn methods_subset_prints_time_summary() {
    let r = run(&["query", &fixture("scene.json"), "--methods", "gjk,epa"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ls = lines(&r);
    assert!(ls
        .iter()
        .all(|l| l["algorithm"] == "gjk" || l["algorithm"] == "epa"));
    assert!(r.stderr.contains("agreement:"), "{}", r.stderr);
    assert!(r.stderr.contains("time per method: epa"), "{}", r.stderr);
}

/// A `shapes` line after a whole chunk of pair lines (the chunk answered while the one before
/// it is written): pairs before it use the old shape, pairs after it the new one, in order.
#[test]
fn ndjson_shapes_redefined_after_a_full_chunk_apply_in_order() {
    let mut text = String::from("{\"shapes\": {\"c\": {\"type\": \"circle\", \"radius\": 1}}}\n");
    let before = 5000; // more than one chunk of pair lines, so the pipelined path runs
    let pair = "{\"a\": \"c\", \"b\": \"c\", \"pose_b\": {\"translation\": [3, 0]}}\n";
    for _ in 0..before {
        text.push_str(pair);
    }
    text.push_str("{\"shapes\": {\"c\": {\"type\": \"circle\", \"radius\": 2}}}\n");
    for _ in 0..10 {
        text.push_str(pair);
    }
    let f = temp_file("redefine.ndjson", &text);
    for threads in ["1", "2"] {
        let r = run(&["query", &f, "--ndjson", "--threads", threads]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let ls = lines(&r);
        assert_eq!(ls.len(), before + 10);
        for (i, l) in ls.iter().enumerate() {
            assert_eq!(l["pair"].as_u64(), Some(i as u64), "{l}");
            // Radius 1: centres 3 apart, gap 1; radius 2: overlapping by 1.
            let hit = i >= before;
            assert_eq!(l["intersecting"], Value::Bool(hit), "pair {i}: {l}");
        }
    }
}
