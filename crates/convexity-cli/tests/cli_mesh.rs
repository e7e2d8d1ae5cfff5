//! Mesh files in the scene format (`{"type": "mesh", "file": ..., "as": ...}`): hulls answer
//! exactly like the same points given inline, parts and meshes agree with a brute-force
//! minimum over their elements, other methods refuse them, broken files fail only their pairs
//! with the file and line named, and relative paths follow the scene file.
//!
//! Every `query` run also has its certificates re-checked independently by `common`
//! (`common::solids` for parts and meshes).

mod common;

use common::{fixture, lines, run, run_with_stdin, solids, TestPair};
use convexity::gjk::{self, Options};
use convexity::primitives::io::{self, LoadAs, Loaded};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn meshes_dir() -> PathBuf {
    PathBuf::from(fixture("meshes"))
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("convexity-cli-mesh-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("the scratch directory is created");
    d
}

/// `v` with every `as: hull` mesh shape replaced by a `points` shape holding the file's
/// vertices, read with the library.
fn inline_hulls(v: &Value, dir: &Path) -> Value {
    match v {
        Value::Object(o) if o.get("type") == Some(&json!("mesh")) => {
            assert_eq!(o["as"], "hull", "only hulls are inlined");
            let path = dir.join(o["file"].as_str().expect("a file name"));
            let Ok(Loaded::Hull(p)) = io::load(&path, LoadAs::Hull) else {
                panic!("{} loads as a hull", path.display());
            };
            let rows: Vec<[f64; 3]> = p.iter().map(|q| q.to_array()).collect();
            json!({"type": "points", "points": rows})
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), inline_hulls(x, dir)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| inline_hulls(x, dir)).collect()),
        other => other.clone(),
    }
}

/// The acceptance test of issue 12: a hull read from a file answers exactly like the same
/// points given as JSON, for every method (same verdicts, distances within 1e-12, the same
/// skipped methods), over OBJ (multi-object), ASCII and binary STL, ASCII and binary PLY.
#[test]
fn hull_meshes_answer_like_the_same_points_inline() {
    let scene_path = fixture("meshes/scene_hull.json");
    let text = std::fs::read_to_string(&scene_path).expect("the fixture reads");
    let scene: Value = serde_json::from_str(&text).expect("the fixture is JSON");
    let inline = inline_hulls(&scene, &meshes_dir());
    let dir = scratch("inline");
    let inline_path = dir.join("inline.json");
    std::fs::write(&inline_path, inline.to_string()).expect("the inline scene is written");

    let from_files = run(&["query", &scene_path, "--all"]);
    let from_json = run(&["query", inline_path.to_str().expect("utf-8 path"), "--all"]);
    assert_eq!(from_files.code, 0, "{}", from_files.stderr);
    assert_eq!(from_json.code, 0, "{}", from_json.stderr);
    let (f, j) = (lines(&from_files), lines(&from_json));
    assert_eq!(f.len(), j.len());
    let mut answered = 0;
    for (x, y) in f.iter().zip(&j) {
        assert_eq!(x["pair"], y["pair"]);
        assert_eq!(x["algorithm"], y["algorithm"]);
        assert_eq!(x["skipped"], y["skipped"], "{x} vs {y}");
        assert_eq!(x["intersecting"], y["intersecting"], "{x} vs {y}");
        assert_eq!(x["check"], y["check"], "{x} vs {y}");
        match (x["distance"].as_f64(), y["distance"].as_f64()) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12, "{x} vs {y}"),
            (a, b) => assert_eq!(a, b, "{x} vs {y}"),
        }
        answered += usize::from(x["intersecting"].is_boolean());
    }
    let pairs = scene["pairs"].as_array().map_or(0, Vec::len);
    assert!(
        answered >= 5 * pairs,
        "{answered} answers for {pairs} pairs"
    );
    // Both verdicts occur, and the certificates of the inline run check out independently.
    assert!(f.iter().any(|l| l["intersecting"] == true));
    assert!(f.iter().any(|l| l["intersecting"] == false));
    assert!(common::check_scene_lines(&inline.to_string(), &j) >= answered);
}

/// The library's answer for a pair with parts or a mesh, by brute force: the least GJK
/// distance over every element pair (0 when a piece of one side is inside the other's mesh).
fn brute_force(pair: &TestPair) -> f64 {
    let TestPair::Solid(a, pa, b, pb) = pair else {
        panic!("not a pair with a mesh file");
    };
    if solids::inside(a, pa, b, pb) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for x in a.elements() {
        for y in b.elements() {
            let d = gjk::distance(&x, pa, &y, pb, &Options::default(), None);
            best = best.min(d.distance);
        }
    }
    best
}

/// Parts (OBJ groups, STL components) and closed meshes answer with gjk through the
/// library's compound code; the distance and verdict agree with a brute-force minimum over
/// every element pair, and every certificate is re-checked element by element.
#[test]
fn parts_and_meshes_agree_with_brute_force_over_elements() {
    let scene_path = fixture("meshes/scene_solids.json");
    let r = run(&["query", &scene_path]);
    let out = lines(&r);
    solids::set_base(&meshes_dir());
    let text = std::fs::read_to_string(&scene_path).expect("the fixture reads");
    let pairs = common::scene_pairs(&text);
    let mut compared = 0;
    for line in &out {
        let i = line["pair"].as_u64().expect("a pair index") as usize;
        let pair = pairs[i].as_ref().expect("the pair is rebuilt");
        let expected = brute_force(pair);
        let got = line["distance"].as_f64().expect("a distance");
        let tol = 1e-9 * (1.0 + expected);
        assert!(
            (got - expected).abs() <= tol.max(line["tolerance"].as_f64().unwrap_or(0.0)),
            "pair {i}: {got} vs brute force {expected}: {line}"
        );
        assert_eq!(line["intersecting"], expected <= tol, "pair {i}: {line}");
        assert_eq!(line["check"], "verified", "{line}");
        compared += 1;
    }
    assert_eq!(compared, pairs.len());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(common::check_scene_lines(&text, &out), pairs.len());
    // Containment without touching surfaces: a mesh in a mesh (both ways round) and a part
    // in a mesh are intersecting, with the inner piece's point as the common point.
    let inner = [
        (15, Value::Null, json!(0)),
        (16, json!(0), Value::Null),
        (17, Value::Null, json!(2)),
    ];
    for (i, a, b) in inner {
        assert_eq!(out[i]["intersecting"], true, "{}", out[i]);
        assert_eq!(out[i]["certificate"]["element_a"], a, "{}", out[i]);
        assert_eq!(out[i]["certificate"]["element_b"], b, "{}", out[i]);
    }
}

/// Every method but gjk refuses a pair with parts or a mesh, saying why (the shape, the file,
/// the reading) and what to do: `--all` notes it, `--algorithm` makes it an error.
#[test]
fn other_methods_refuse_mesh_files_with_the_reason() {
    let scene_path = fixture("meshes/scene_solids.json");
    let all = lines(&run(&["query", &scene_path, "--all"]));
    let pair0: Vec<&Value> = all.iter().filter(|l| l["pair"] == 0).collect();
    assert!(pair0.len() > 3, "{pair0:?}");
    for l in &pair0 {
        if l["algorithm"] == "gjk" {
            assert_eq!(l["intersecting"], false, "{l}");
        } else {
            let why = l["skipped"]
                .as_str()
                .unwrap_or_else(|| panic!("skipped: {l}"));
            assert!(
                why.contains("shape \"parts\" is the mesh file \"multi.obj\" read as \"parts\""),
                "{why}"
            );
            assert!(why.contains("only gjk answers it"), "{why}");
        }
    }
    let epa = run(&["query", &scene_path, "--algorithm", "epa"]);
    assert_eq!(epa.code, 2);
    let e = lines(&epa);
    assert!(e.iter().all(|l| l["skipped"].is_string()), "{:?}", e);
}

/// With `--contact`, an intersecting pair with a mesh file says the penetration depth is not
/// available instead of dropping the option silently.
#[test]
fn contact_on_mesh_files_is_stated_unavailable() {
    let r = run(&["query", &fixture("meshes/scene_solids.json"), "--contact"]);
    let out = lines(&r);
    let hit = out
        .iter()
        .find(|l| l["pair"] == 1)
        .expect("pair 1 is answered");
    assert_eq!(hit["intersecting"], true, "{hit}");
    assert_eq!(hit["contact_status"], "not available for mesh files");
    assert!(hit["penetration_depth"].is_null());
}

/// Broken and missing files fail only the pairs that use them, each error naming the file and
/// (where it has one) the line or face; the other pairs are answered.
#[test]
fn broken_mesh_files_fail_only_their_pairs_naming_file_and_line() {
    let r = run(&["query", &fixture("meshes/scene_broken.json")]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = lines(&r);
    assert_eq!(out.len(), 12);
    assert_eq!(out[0]["intersecting"], false, "{}", out[0]);
    assert_eq!(out[11]["intersecting"], true, "{}", out[11]);
    let expect = [
        (1, "bad_number.obj: line 4"),
        (2, "bad_index.obj: line 5"),
        (3, "truncated_binary.stl"),
        (4, "bad_vertex_ascii.stl: line 16 (face 2)"),
        (5, "bad_count.ply: line 8"),
        (6, "open_cube.obj"),
        (7, "nonmanifold_ascii.stl"),
        (8, "not_a_mesh.txt"),
        (9, "no_such_file.obj"),
        (10, "nan.obj: line 3"),
    ];
    for (i, needle) in expect {
        let e = out[i]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("error: {}", out[i]));
        assert!(e.contains(needle), "pair {i}: {e}");
        assert!(e.contains(": file: "), "pair {i} names the field: {e}");
    }
}

fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(common::BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(input) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(input)
            .expect("written");
    } else {
        drop(child.stdin.take());
    }
    let o = child.wait_with_output().expect("the binary runs");
    let out = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (
        o.status.code().unwrap_or(-1),
        out,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Relative file paths are read from the scene file's directory whatever the current
/// directory; a scene on standard input reads them from the current directory.
#[test]
fn relative_paths_follow_the_scene_file_not_the_cwd() {
    let elsewhere = scratch("cwd");
    let scene = std::fs::canonicalize(fixture("meshes/scene_solids.json")).expect("exists");
    let (code, out, err) = run_in(&elsewhere, &["query", scene.to_str().expect("utf-8")], None);
    assert_eq!(code, 0, "{err}");
    let answered = out
        .iter()
        .filter(|l| l["intersecting"].is_boolean())
        .count();
    assert_eq!(answered, 20);

    let text = br#"{"shapes": {"c": {"type": "mesh", "file": "cube.ply", "as": "hull"}},
                    "pairs": [{"a": "c", "b": {"type": "sphere", "radius": 0.5},
                               "pose_b": {"translation": [3, 0, 0]}}]}"#;
    let (code, out, err) = run_in(&meshes_dir(), &["query", "-"], Some(text));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out[0]["intersecting"], false);
    let (code, out, _) = run_in(&elsewhere, &["query", "-"], Some(text));
    assert_eq!(code, 2);
    let e = out[0]["error"].as_str().unwrap_or("");
    assert!(
        e.contains("cube.ply") && e.contains("shape \"c\": file:"),
        "{e}"
    );
}

/// A misspelt `as` value or field name is an error with a suggestion; `as` has no default.
#[test]
fn misspelt_as_and_unknown_fields_are_errors_with_suggestions() {
    let scene = json!({"shapes": {
        "typo": {"type": "mesh", "file": "cube.ply", "as": "prats"},
        "field": {"type": "mesh", "file": "cube.ply", "as": "hull", "scale": 2},
        "no_as": {"type": "mesh", "file": "cube.ply"}},
        "pairs": [{"a": "typo", "b": "typo"}, {"a": "field", "b": "field"},
                  {"a": "no_as", "b": "no_as"}]});
    let r = run_with_stdin(&["query", "-"], Some(scene.to_string().as_bytes()));
    assert_eq!(r.code, 2);
    let out = lines(&r);
    let err = |i: usize| out[i]["error"].as_str().unwrap_or("").to_string();
    assert!(
        err(0).contains("as: unknown value \"prats\" (did you mean \"parts\"?)"),
        "{}",
        err(0)
    );
    assert!(
        err(1).contains("scale: unknown field in a \"mesh\" shape"),
        "{}",
        err(1)
    );
    assert!(err(1).contains("fields are: type, file, as"), "{}", err(1));
    assert!(err(2).contains("as: missing field"), "{}", err(2));
}

/// `contains` and `toi` take no parts or meshes: each says so instead of answering
/// something else.
#[test]
fn contains_and_toi_refuse_parts_and_meshes() {
    let r = run(&["contains", &fixture("meshes/scene_solids.json")]);
    assert_eq!(r.code, 2);
    let out = lines(&r);
    let e = out[0]["error"].as_str().unwrap_or("");
    assert!(
        e.contains("\"multi.obj\" read as \"parts\"") && e.contains("\"as\": \"hull\""),
        "{e}"
    );
    let toi = json!({"h": 1.0, "bodies": {
        "m": {"shape": {"type": "mesh", "file": "cube.ply", "as": "hull"}},
        "s": {"shape": {"type": "sphere", "radius": 1}}},
        "pairs": [{"a": "m", "b": "s"}]});
    let r = run_with_stdin(&["toi", "-"], Some(toi.to_string().as_bytes()));
    assert!(
        r.stdout.contains("mesh files are read by") || r.stderr.contains("mesh files are read by"),
        "{} {}",
        r.stdout,
        r.stderr
    );
}

/// An NDJSON stream reads mesh files relative to the stream file, named (on a shapes line)
/// or inline; a missing file fails only its line's pair.
#[test]
fn ndjson_streams_read_mesh_files_next_to_the_stream() {
    let elsewhere = scratch("ndjson");
    let stream = std::fs::canonicalize(fixture("meshes/pairs.ndjson")).expect("exists");
    let (code, out, err) = run_in(
        &elsewhere,
        &["query", "--ndjson", stream.to_str().expect("utf-8")],
        None,
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.len(), 4);
    assert_eq!(out[0]["intersecting"], true, "{}", out[0]);
    assert_eq!(
        out[1]["intersecting"], true,
        "a ball inside the solid: {}",
        out[1]
    );
    assert_eq!(
        out[1]["certificate"]["element_a"],
        Value::Null,
        "{}",
        out[1]
    );
    assert_eq!(out[2]["intersecting"], false, "{}", out[2]);
    let e = out[3]["error"].as_str().unwrap_or("");
    assert!(
        e.starts_with("line 5.a.file: ") && e.contains("missing.stl"),
        "{e}"
    );
    // The same stream through the checked runner (certificates re-checked independently).
    let r = run(&["query", stream.to_str().expect("utf-8"), "--ndjson"]);
    let checked = lines(&r);
    assert_eq!(checked.len(), 4);
    assert_eq!(
        common::ndjson_pairs(&std::fs::read_to_string(&stream).expect("reads")).len(),
        4
    );
}

/// `"index": true` on a hull read from a file (300 vertices on a sphere) answers every pair as
/// the same file without it; `index` with `"as": "parts"` or `"mesh"` is an error naming
/// `index`, and so is a non-boolean.
#[test]
fn indexed_mesh_hulls_answer_as_plain_ones_and_index_is_for_hulls_only() {
    let dir = scratch("index");
    let mut obj = String::new();
    for i in 0..300 {
        let z = 1.0 - (2 * i + 1) as f64 / 300.0;
        let r = (1.0 - z * z).sqrt();
        let t = i as f64 * 2.399_963_229_728_653;
        obj.push_str(&format!("v {} {} {}\n", r * t.cos(), r * t.sin(), z));
    }
    std::fs::write(dir.join("ball.obj"), obj).expect("written");
    let mut pairs = Vec::new();
    for k in 0..30 {
        let x = -2.0 + 4.0 * k as f64 / 29.0;
        for a in ["idx", "plain"] {
            pairs.push(json!({"a": a, "b": "cap",
                "pose_b": {"translation": [x, 0.4, -0.2], "rotation": [0.2, 0.1, 0.0, 0.974679]}}));
        }
    }
    let scene = json!({"shapes": {
        "idx": {"type": "mesh", "file": "ball.obj", "as": "hull", "index": true},
        "plain": {"type": "mesh", "file": "ball.obj", "as": "hull", "index": false},
        "cap": {"type": "capsule", "a": [0, 0, -0.4], "b": [0, 0, 0.4], "radius": 0.3}},
        "pairs": pairs});
    let (code, out, err) = run_in(
        &dir,
        &["query", "-", "--contact"],
        Some(scene.to_string().as_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.len(), 60);
    let mut overlapping = 0;
    for w in out.chunks(2) {
        assert_eq!(
            w[0]["intersecting"], w[1]["intersecting"],
            "{} / {}",
            w[0], w[1]
        );
        for key in ["distance", "depth"] {
            if let (Some(a), Some(b)) = (w[0][key].as_f64(), w[1][key].as_f64()) {
                assert!((a - b).abs() <= 1e-12, "{key}: {a} vs {b}");
            }
        }
        overlapping += usize::from(w[0]["intersecting"] == true);
    }
    assert!(
        (5..=25).contains(&overlapping),
        "{overlapping} of 30 overlapping"
    );
    let refused = json!({"shapes": {
        "parts": {"type": "mesh", "file": "ball.obj", "as": "parts", "index": true},
        "word": {"type": "mesh", "file": "ball.obj", "as": "hull", "index": "yes"}},
        "pairs": [{"a": "parts", "b": "parts"}, {"a": "word", "b": "word"}]});
    let (code, out, _) = run_in(&dir, &["query", "-"], Some(refused.to_string().as_bytes()));
    assert_eq!(code, 2);
    let e0 = out[0]["error"].as_str().unwrap_or("");
    assert!(
        e0.contains("index: applies to \"as\": \"hull\" only"),
        "{e0}"
    );
    let e1 = out[1]["error"].as_str().unwrap_or("");
    assert!(e1.contains("index: expected true or false"), "{e1}");
}
