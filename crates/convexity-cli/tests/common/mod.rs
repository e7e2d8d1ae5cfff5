//! Helpers shared by the CLI test files: run the binary, parse its JSON lines, compare numbers.
// Each test file compiles this module separately and uses a different subset of it.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

pub mod solids;

pub const BIN: &str = env!("CARGO_BIN_EXE_convexity");

pub fn fixture(name: &str) -> String {
    format!("{}/../../fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn check_no_panic(r: &Run) {
    assert!(
        !r.stderr.contains("panicked") && !r.stderr.contains("internal error (please report)"),
        "panic: {}",
        r.stderr
    );
    assert_ne!(r.code, 70, "internal error: {}", r.stderr);
}

pub fn run_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary starts");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(input)
            .expect("stdin is written");
    }
    let out = child.wait_with_output().expect("the binary runs");
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    check_no_panic(&r);
    if args.first() == Some(&"query") {
        check_query_run(args, stdin, &r);
    }
    if args.first() == Some(&"polygon") {
        check_polygon_run(args, &r);
    }
    r
}

pub fn run(args: &[&str]) -> Run {
    run_with_stdin(args, None)
}

pub fn lines(r: &Run) -> Vec<Value> {
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

pub fn vec_of(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap_or_else(|| panic!("not a number: {x}")))
        .collect()
}

pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

pub fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

// ---- independent certificate checks (issue 14) ------------------------------------------
//
// Every certificate a test reads is re-checked here on shapes and poses rebuilt from the scene
// the test fed in, through the library's own constructors and `convexity::verify`, with the
// tolerance the line reports. Nothing here reads the CLI's "verified" field.

use convexity::{
    nd::points::PointsN, Ball, BoundedHalfspaces, CommonPoint, Cone, ConvexPolygon, Cuboid,
    Cylinder, DVec2, DVec3, Points, Pose2, Pose3, Rounded, SeparatingAxis, Shape2, Shape3,
    Transformed, Triangle, Verdict,
};

/// A shape rebuilt from its scene JSON: 2D or 3D (n-dimensional shapes are not rebuilt).
pub enum TestShape {
    D2(Shape2),
    D3(Shape3),
    /// An n-dimensional vertex set and the radius it is rounded by.
    Nd(PointsN, f64),
    /// A mesh file read as parts or a closed mesh, at a local pose (`transformed`).
    Solid(solids::Side, Pose3),
}

/// A pair rebuilt from a scene: shapes and world poses.
pub enum TestPair {
    D2(Shape2, Pose2, Shape2, Pose2),
    D3(Shape3, Pose3, Shape3, Pose3),
    Nd(PointsN, f64, PointsN, f64),
    /// A pair with a mesh file read as parts or a mesh: sides at their world poses.
    Solid(solids::Side, Pose3, solids::Side, Pose3),
}

/// The numbers of a JSON array; `None` if it is not an array of numbers (bad inputs).
fn nums(v: &Value) -> Option<Vec<f64>> {
    v.as_array()?.iter().map(Value::as_f64).collect()
}

fn rows(v: &Value) -> Option<Vec<Vec<f64>>> {
    v.as_array()?.iter().map(nums).collect()
}

fn d2(c: &[f64]) -> DVec2 {
    DVec2::new(c[0], c[1])
}

fn d3(c: &[f64]) -> DVec3 {
    DVec3::new(c[0], c[1], c[2])
}

/// A shape object of the scene format, rebuilt with the library's constructors; `None` for
/// shapes this helper does not rebuild (n-dimensional ones) or that the library rejects.
pub fn test_shape(v: &Value) -> Option<TestShape> {
    use TestShape::{D2, D3};
    let ty = v["type"].as_str()?;
    let r = || v["radius"].as_f64();
    Some(match ty {
        "points" => {
            let p = rows(&v["points"])?;
            match p.first()?.len() {
                2 => D2(Shape2::Points(Points::from_rows(&p).ok()?)),
                3 => D3(Shape3::Points(Points::from_rows(&p).ok()?)),
                0 => return None,
                _ => TestShape::Nd(PointsN::from_rows(&p).ok()?, 0.0),
            }
        }
        "mesh" => match solids::read(v)? {
            Ok(hull) => D3(hull),
            Err(side) => TestShape::Solid(side, Pose3::IDENTITY),
        },
        "sphere" => D3(Shape3::Sphere(Ball::new(r()?).ok()?)),
        "circle" => D2(Shape2::Circle(Ball::new(r()?).ok()?)),
        "box" => {
            let h = nums(&v["half_extents"])?;
            match h.len() {
                2 => D2(Shape2::Rect(Cuboid::new(d2(&h)).ok()?)),
                3 => D3(Shape3::Cuboid(Cuboid::new(d3(&h)).ok()?)),
                _ => return None,
            }
        }
        "capsule" | "segment" => {
            let (a, b) = (nums(&v["a"])?, nums(&v["b"])?);
            if a.len() != b.len() {
                return None;
            }
            match (a.len(), ty) {
                (2, "capsule") => D2(Shape2::Capsule(
                    convexity::Capsule::new(d2(&a), d2(&b), r()?).ok()?,
                )),
                (3, "capsule") => D3(Shape3::Capsule(
                    convexity::Capsule::new(d3(&a), d3(&b), r()?).ok()?,
                )),
                (2, _) => D2(Shape2::Segment(
                    convexity::Segment::new(d2(&a), d2(&b)).ok()?,
                )),
                (3, _) => D3(Shape3::Segment(
                    convexity::Segment::new(d3(&a), d3(&b)).ok()?,
                )),
                _ => return None,
            }
        }
        "triangle" => {
            let (a, b, c) = (nums(&v["a"])?, nums(&v["b"])?, nums(&v["c"])?);
            if a.len() != b.len() || a.len() != c.len() {
                return None;
            }
            match a.len() {
                3 => D3(Shape3::Triangle(
                    Triangle::new(d3(&a), d3(&b), d3(&c)).ok()?,
                )),
                2 => D2(Shape2::Points(Points::new(&[d2(&a), d2(&b), d2(&c)]).ok()?)),
                _ => return None,
            }
        }
        "cylinder" => D3(Shape3::Cylinder(
            Cylinder::new(v["half_height"].as_f64()?, r()?).ok()?,
        )),
        "cone" => D3(Shape3::Cone(
            Cone::new(v["half_height"].as_f64()?, r()?).ok()?,
        )),
        "polygon" => {
            let p: Vec<DVec2> = rows(&v["points"])?
                .iter()
                .filter(|c| c.len() == 2)
                .map(|c| d2(c))
                .collect();
            D2(Shape2::Polygon(ConvexPolygon::new(&p).ok()?))
        }
        "halfspaces" => {
            let n = rows(&v["normals"])?;
            let o = nums(&v["offsets"])?;
            match n.first()?.len() {
                2 => D2(Shape2::Halfspaces(
                    BoundedHalfspaces::from_rows(&n, &o).ok()?,
                )),
                3 => D3(Shape3::Halfspaces(
                    BoundedHalfspaces::from_rows(&n, &o).ok()?,
                )),
                _ => return None,
            }
        }
        "rounded" => match test_shape(&v["shape"])? {
            D2(s) => D2(Shape2::Rounded(Box::new(Rounded::new(s, r()?).ok()?))),
            D3(s) => D3(Shape3::Rounded(Box::new(Rounded::new(s, r()?).ok()?))),
            TestShape::Nd(p, r0) => TestShape::Nd(p, r0 + r()?),
            TestShape::Solid(..) => return None,
        },
        "transformed" => match test_shape(&v["shape"])? {
            D2(s) => D2(Shape2::Transformed(Box::new(Transformed::new(
                s,
                test_pose2(&v["pose"])?,
            )))),
            D3(s) => D3(Shape3::Transformed(Box::new(Transformed::new(
                s,
                test_pose3(&v["pose"])?,
            )))),
            TestShape::Solid(side, local) => {
                TestShape::Solid(side, test_pose3(&v["pose"])?.compose(&local))
            }
            TestShape::Nd(..) => return None,
        },
        _ => return None,
    })
}

/// A 3D pose of the scene format (`translation`, quaternion `rotation` [x, y, z, w]).
pub fn test_pose3(v: &Value) -> Option<Pose3> {
    if v.is_null() {
        return Some(Pose3::IDENTITY);
    }
    let t = if v["translation"].is_null() {
        vec![0.0; 3]
    } else {
        nums(&v["translation"])?
    };
    let q = if v["rotation"].is_null() {
        vec![0.0, 0.0, 0.0, 1.0]
    } else {
        nums(&v["rotation"])?
    };
    if t.len() != 3 || q.len() != 4 {
        return None;
    }
    Pose3::from_parts([t[0], t[1], t[2]], [q[0], q[1], q[2], q[3]]).ok()
}

/// A 2D pose of the scene format (`translation`, `angle` in radians).
pub fn test_pose2(v: &Value) -> Option<Pose2> {
    if v.is_null() {
        return Some(Pose2::IDENTITY);
    }
    let t = if v["translation"].is_null() {
        vec![0.0; 2]
    } else {
        nums(&v["translation"])?
    };
    if t.len() != 2 {
        return None;
    }
    Pose2::from_angle([t[0], t[1]], v["angle"].as_f64().unwrap_or(0.0)).ok()
}

/// The pair object `p` of a scene whose named shapes are `shapes`, rebuilt.
pub fn test_pair(shapes: &Value, p: &Value) -> Option<TestPair> {
    let shape = |k: &str| match &p[k] {
        Value::String(name) => test_shape(&shapes[name.as_str()]),
        inline => test_shape(inline),
    };
    match (shape("a")?, shape("b")?) {
        (TestShape::D3(a), TestShape::D3(b)) => Some(TestPair::D3(
            a,
            test_pose3(&p["pose_a"])?,
            b,
            test_pose3(&p["pose_b"])?,
        )),
        (TestShape::D2(a), TestShape::D2(b)) => Some(TestPair::D2(
            a,
            test_pose2(&p["pose_a"])?,
            b,
            test_pose2(&p["pose_b"])?,
        )),
        // n-dimensional pairs take no poses.
        (TestShape::Nd(a, ra), TestShape::Nd(b, rb))
            if a.dim() == b.dim() && p["pose_a"].is_null() && p["pose_b"].is_null() =>
        {
            Some(TestPair::Nd(a, ra, b, rb))
        }
        (TestShape::Solid(a, la), TestShape::Solid(b, lb)) => Some(TestPair::Solid(
            a,
            test_pose3(&p["pose_a"])?.compose(&la),
            b,
            test_pose3(&p["pose_b"])?.compose(&lb),
        )),
        (TestShape::Solid(a, la), TestShape::D3(b)) => Some(TestPair::Solid(
            a,
            test_pose3(&p["pose_a"])?.compose(&la),
            solids::Side::Convex(b),
            test_pose3(&p["pose_b"])?,
        )),
        (TestShape::D3(a), TestShape::Solid(b, lb)) => Some(TestPair::Solid(
            solids::Side::Convex(a),
            test_pose3(&p["pose_a"])?,
            b,
            test_pose3(&p["pose_b"])?.compose(&lb),
        )),
        _ => None,
    }
}

/// Every pair of a scene (JSON document), rebuilt; `None` where a pair cannot be.
pub fn scene_pairs(scene: &str) -> Vec<Option<TestPair>> {
    let s: Value = serde_json::from_str(scene).expect("the scene is JSON");
    s["pairs"]
        .as_array()
        .map(|ps| ps.iter().map(|p| test_pair(&s["shapes"], p)).collect())
        .unwrap_or_default()
}

/// The verdict an answer line's certificate states, in `D` dimensions; `None` if the line
/// carries no certificate.
fn line_verdict<V>(line: &Value, mk: impl Fn(&[f64]) -> V) -> Option<Verdict<V>> {
    let c = &line["certificate"];
    if let Some(p) = c.get("common_point") {
        return Some(Verdict::Intersecting(CommonPoint {
            point: mk(&vec_of(p)),
        }));
    }
    let axis = c.get("separating_axis")?;
    Some(Verdict::Separated(SeparatingAxis {
        axis: mk(&vec_of(axis)),
        gap: c["gap"].as_f64().unwrap_or(f64::NAN),
    }))
}

/// The outcome of re-checking the certificate of `line` on `pair` at the tolerance the line
/// reports: `None` if the line carries no certificate, `Some(Err(why))` if it fails.
pub fn recheck(pair: &TestPair, line: &Value) -> Option<Result<(), String>> {
    let tol = line["tolerance"].as_f64().unwrap_or(0.0);
    let r = match pair {
        TestPair::D3(a, pa, b, pb) => {
            convexity::verify(a, pa, b, pb, &line_verdict(line, d3)?, tol)
        }
        TestPair::D2(a, pa, b, pb) => {
            convexity::verify(a, pa, b, pb, &line_verdict(line, d2)?, tol)
        }
        TestPair::Nd(a, ra, b, rb) => return check_nd(a, *ra, b, *rb, line, tol),
        TestPair::Solid(a, pa, b, pb) => return solids::recheck(a, pa, b, pb, line),
    };
    Some(r.map_err(|e| format!("{e:?}")))
}

/// Re-checks the certificate of `line` (if any) on `pair` with `convexity::verify` at the
/// tolerance the line reports. Returns whether a certificate was checked; panics if it fails.
pub fn check_certificate(pair: &TestPair, line: &Value) -> bool {
    match recheck(pair, line) {
        None => false,
        Some(Ok(())) => true,
        Some(Err(e)) => panic!("certificate rejected ({e}): {line}"),
    }
}

/// An n-dimensional certificate, checked by arithmetic on the vertex sets: a separating
/// hyperplane by scanning both sets' extents along its normal; a common point (printed
/// without weights) by the distance from the point to each hull, computed afresh by `distance_n`
/// with the point as a one-vertex set (an upper bound realised by explicit weights).
fn check_nd(
    a: &PointsN,
    ra: f64,
    b: &PointsN,
    rb: f64,
    line: &Value,
    tol: f64,
) -> Option<Result<(), String>> {
    let c = &line["certificate"];
    if let Some(p) = c.get("common_point") {
        let p = PointsN::from_rows(&[vec_of(p)]).expect("a finite point");
        for (set, r) in [(a, ra), (b, rb)] {
            let d = convexity::nd::distance_n(&p, set, &convexity::nd::NdOptions::default())
                .expect("distance_n runs");
            if d.distance > r + tol {
                return Some(Err(format!("common point {} outside", d.distance)));
            }
        }
        return Some(Ok(()));
    }
    let n = vec_of(c.get("separating_axis")?);
    let gap = c["gap"].as_f64().unwrap_or(f64::NAN);
    if (norm(&n) - 1.0).abs() > 1e-9 || gap.is_nan() || gap <= 0.0 {
        return Some(Err("bad axis or gap".into()));
    }
    let (_, hi_a) = a.extent(&n);
    let (lo_b, _) = b.extent(&n);
    if hi_a + ra + gap <= lo_b - rb + tol {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "axis does not separate: {hi_a} + {ra} + {gap} > {lo_b} - {rb}"
        )))
    }
}

/// Re-checks every certificate in `out` (lines of `convexity query` on `scene`) against the
/// scene's pairs rebuilt independently. Returns how many certificates were checked; panics
/// on a line with a certificate whose pair cannot be rebuilt, or on a failed check.
pub fn check_scene_lines(scene: &str, out: &[Value]) -> usize {
    let pairs = scene_pairs(scene);
    let mut checked = 0;
    for line in out {
        let Some(i) = line["pair"].as_u64() else {
            continue;
        };
        if !line["certificate"].is_object() {
            continue;
        }
        let pair = pairs
            .get(i as usize)
            .and_then(Option::as_ref)
            .unwrap_or_else(|| panic!("pair {i} cannot be rebuilt for {line}"));
        if check_certificate(pair, line) {
            checked += 1;
        }
    }
    checked
}

/// `check_scene_lines` on a scene file in `fixtures/`.
pub fn check_fixture_lines(name: &str, out: &[Value]) -> usize {
    let text = std::fs::read_to_string(fixture(name)).expect("the fixture is readable");
    check_scene_lines(&text, out)
}

/// Every `query` run goes through here: the scene it read (the file argument or standard
/// input, a JSON scene or an NDJSON batch) is rebuilt and every certificate on its standard
/// output re-checked. Inputs that are not valid scenes (the error tests) have no certificates.
fn check_query_run(args: &[&str], stdin: Option<&[u8]>, r: &Run) {
    // Mesh files are read relative to the scene file (to the current directory for stdin).
    let base = match args.get(1) {
        Some(path) if !path.starts_with('-') => std::path::Path::new(path)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
        _ => std::path::PathBuf::new(),
    };
    solids::set_base(&base);
    let input = match args.get(1) {
        Some(&"-") => stdin.map(|b| String::from_utf8_lossy(b).into_owned()),
        Some(path) if !path.starts_with('-') => std::fs::read_to_string(path).ok(),
        _ => None,
    };
    let Some(input) = input else {
        return;
    };
    let out: Vec<Value> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // A scene that serde_json cannot read as a whole (numbers beyond f64, which the CLI turns
    // into per-pair errors) is not rebuilt here; the tests of such scenes check their
    // certificates themselves (`huge_number_rejects_only_its_pair`).
    let whole = serde_json::from_str::<Value>(&input).ok();
    let ndjson = args.contains(&"--ndjson");
    let pairs = if ndjson {
        ndjson_pairs(&input)
    } else if whole.is_some() {
        scene_pairs(&input)
    } else {
        return;
    };
    for line in &out {
        let Some(i) = line["pair"].as_u64() else {
            continue;
        };
        if !line["certificate"].is_object() {
            continue;
        }
        let pair = pairs
            .get(i as usize)
            .and_then(Option::as_ref)
            .unwrap_or_else(|| panic!("pair {i} cannot be rebuilt for {line}"));
        check_certificate(pair, line);
    }
}

/// The pairs of an NDJSON batch: `{"shapes": ...}` lines define shapes, other lines are pairs.
pub fn ndjson_pairs(input: &str) -> Vec<Option<TestPair>> {
    let mut shapes = serde_json::Map::new();
    let mut pairs = Vec::new();
    for l in input.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(l) else {
            pairs.push(None);
            continue;
        };
        if let Some(s) = v.get("shapes").and_then(Value::as_object) {
            shapes.extend(s.clone());
        } else {
            pairs.push(test_pair(&Value::Object(shapes.clone()), &v));
        }
    }
    pairs
}

/// Every `polygon` run on a file goes through here: each SAT certificate is re-checked by
/// plain arithmetic on the vertex lists of the input file (a separating axis by both
/// polygons' extents along it; a common point by the sign of every edge's cross product, the
/// polygons being convex), at the tolerance the line reports.
fn check_polygon_run(args: &[&str], r: &Run) {
    let Some(text) = args.get(1).and_then(|p| std::fs::read_to_string(p).ok()) else {
        return;
    };
    let Ok(input) = serde_json::from_str::<Value>(&text) else {
        return;
    };
    for line in r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let sat = &line["sat"];
        if !sat["certificate"].is_object() {
            continue;
        }
        let poly = |k: &str| -> Vec<[f64; 2]> {
            let name = line[k].as_str().expect("pair names its polygons");
            rows(&input["polygons"][name])
                .unwrap_or_else(|| panic!("polygon {name} is a plain vertex list"))
                .iter()
                .map(|c| [c[0], c[1]])
                .collect()
        };
        let (a, b) = (poly("a"), poly("b"));
        let tol = sat["tolerance"].as_f64().unwrap_or(0.0);
        assert!(
            polygon_certificate_holds(&a, &b, &sat["certificate"], tol),
            "polygon certificate rejected: {line}"
        );
    }
}

/// Whether a polygon SAT certificate holds for the convex vertex lists `a` and `b`.
pub fn polygon_certificate_holds(a: &[[f64; 2]], b: &[[f64; 2]], cert: &Value, tol: f64) -> bool {
    if let Some(p) = cert.get("common_point") {
        let p = vec_of(p);
        let inside = |poly: &[[f64; 2]]| {
            let n = poly.len();
            let cross = |i: usize| {
                let (u, v) = (poly[i], poly[(i + 1) % n]);
                let len = ((v[0] - u[0]).powi(2) + (v[1] - u[1]).powi(2)).sqrt();
                ((v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0])) / len
            };
            // Either orientation: every signed edge distance ≥ −tol, or every one ≤ tol.
            (0..n).all(|i| cross(i) >= -tol) || (0..n).all(|i| cross(i) <= tol)
        };
        return inside(a) && inside(b);
    }
    let Some(axis) = cert.get("separating_axis") else {
        return false;
    };
    let n = vec_of(axis);
    let gap = cert["gap"].as_f64().unwrap_or(f64::NAN);
    let proj = |q: &[f64; 2]| n[0] * q[0] + n[1] * q[1];
    let hi_a = a.iter().map(proj).fold(f64::NEG_INFINITY, f64::max);
    let lo_b = b.iter().map(proj).fold(f64::INFINITY, f64::min);
    (norm(&n) - 1.0).abs() <= 1e-9 && gap > 0.0 && hi_a + gap <= lo_b + tol
}
