//! Tests of the shape parser (`scene/shape.rs`): dimensions, messages, and the type table
//! against the library's shape kinds.

use super::*;
use crate::scene::shape_error;
use crate::scene::Files;
use serde_json::json;

fn err(v: Value) -> String {
    match parse_shape(&v, &Files::current_dir()) {
        Ok(_) => String::new(),
        Err(e) => shape_error("S", &e),
    }
}

#[test]
fn dimensions() {
    let d = |v: Value| parse_shape(&v, &Files::current_dir()).map(|s| s.dim()).ok();
    assert_eq!(d(json!({"type": "points", "points": [[0, 0]]})), Some(2));
    assert_eq!(d(json!({"type": "points", "points": [[0, 0, 0]]})), Some(3));
    assert_eq!(
        d(json!({"type": "points", "points": [[0, 0, 0, 1]]})),
        Some(4)
    );
    assert_eq!(d(json!({"type": "box", "half_extents": [1, 1]})), Some(2));
    assert_eq!(
        d(json!({"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 1})),
        Some(2)
    );
    assert_eq!(
        d(json!({"type": "triangle", "a": [0, 0], "b": [1, 0], "c": [0, 1]})),
        Some(2)
    );
    assert_eq!(
        d(json!({"type": "rounded", "radius": 0.1,
                  "shape": {"type": "transformed", "shape": {"type": "circle", "radius": 1},
                            "pose": {"translation": [1, 2], "angle": 1}}})),
        Some(2)
    );
}

#[test]
fn messages() {
    assert_eq!(
        err(json!({"type": "points", "points": [[0, 0, 0], [1, 0, 0], [0, "NaN", 0]]})),
        "shape \"S\": points[2][1]: value NaN is not finite"
    );
    assert_eq!(
        err(json!({"type": "points", "points": [[0, 0, 0, 0], [1, 0, 0]]})),
        "shape \"S\": points[1]: expected 4 coordinates, found 3"
    );
    assert!(err(json!({"type": "spehre", "radius": 1})).contains("did you mean \"sphere\""));
    assert!(err(
        json!({"type": "rounded", "radius": 1, "shape": {"type": "box",
        "half_extents": [1, "-inf", 1]}})
    )
    .contains("shape.half_extents[1]: value -inf is not finite"));
    assert!(
        err(json!({"type": "polygon", "points": [[0, 0], [2, 0], [1, 0.2], [2, 2]]}))
            .contains("not convex at vertex")
    );
    assert!(err(json!({"type": "sphere"})).contains("radius: missing field"));
}

/// The type names of the scene format are the library's (`Shape2`/`Shape3::kind()`): every
/// entry of `SHAPE_FIELDS` parses to a shape whose `kind()` is that name, so the table cannot
/// drift from the library's list. `mesh` is the one entry that names a file, not a kind.
#[test]
fn table_names_are_the_library_kinds() {
    use crate::scene::{SceneShape, SHAPE_FIELDS};
    let meshes = Files::relative_to(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/meshes/scene.json"
    ));
    let boxed = json!({"type": "box", "half_extents": [1, 1, 1]});
    let samples = [
        json!({"type": "points", "points": [[0, 0, 0], [1, 0, 0]]}),
        json!({"type": "sphere", "radius": 1}),
        json!({"type": "circle", "radius": 1}),
        boxed.clone(),
        json!({"type": "capsule", "a": [0, 0, 0], "b": [1, 0, 0], "radius": 1}),
        json!({"type": "cylinder", "half_height": 1, "radius": 1}),
        json!({"type": "cone", "half_height": 1, "radius": 1}),
        json!({"type": "segment", "a": [0, 0, 0], "b": [1, 0, 0]}),
        json!({"type": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]}),
        json!({"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]}),
        json!({"type": "halfspaces", "normals": [[1, 0], [-1, 0], [0, 1], [0, -1]],
               "offsets": [1, 1, 1, 1]}),
        json!({"type": "rounded", "shape": boxed, "radius": 0.5}),
        json!({"type": "transformed", "shape": boxed, "pose": {"translation": [1, 0, 0]}}),
        json!({"type": "mesh", "file": "multi.obj", "as": "parts"}),
    ];
    assert_eq!(
        samples.len(),
        SHAPE_FIELDS.len(),
        "one sample per table entry"
    );
    for ((name, _), v) in SHAPE_FIELDS.iter().zip(&samples) {
        assert_eq!(v["type"], *name);
        let kind = match parse_shape(v, &meshes) {
            Ok(SceneShape::D2(s)) => s.kind(),
            Ok(SceneShape::D3(s)) => s.kind(),
            Ok(SceneShape::Nd(_)) => "n-D points",
            // The one name that is not a library shape kind: a file, read as parts here.
            Ok(SceneShape::Solid(_)) => "mesh",
            Err(e) => panic!("{name}: {}", shape_error("S", &e)),
        };
        assert_eq!(kind, *name);
    }
}

/// The `mesh` shape: `as` is required (no silent default) and a misspelt value, an unknown
/// field or a bad file is an error naming the field, with a suggestion or the file's line.
#[test]
fn mesh_shape_messages() {
    let files = Files::relative_to(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/meshes/scene.json"
    ));
    let e = |v: Value| match parse_shape(&v, &files) {
        Ok(_) => String::new(),
        Err(e) => shape_error("M", &e),
    };
    let no_as = e(json!({"type": "mesh", "file": "cube.ply"}));
    assert!(
        no_as.starts_with("shape \"M\": as: missing field"),
        "{no_as}"
    );
    assert!(
        no_as.contains("\"hull\"") && no_as.contains("\"parts\""),
        "{no_as}"
    );
    let typo = e(json!({"type": "mesh", "file": "cube.ply", "as": "hul"}));
    assert!(
        typo.contains("as: unknown value \"hul\" (did you mean \"hull\"?)"),
        "{typo}"
    );
    let field = e(json!({"type": "mesh", "flie": "cube.ply", "as": "hull"}));
    assert!(
        field.contains("flie: unknown field") && field.contains("did you mean \"file\""),
        "{field}"
    );
    let bad = e(json!({"type": "mesh", "file": "bad_number.obj", "as": "hull"}));
    assert!(bad.contains("bad_number.obj: line 4"), "{bad}");
    let missing = e(json!({"type": "mesh", "file": "nope.obj", "as": "hull"}));
    assert!(
        missing.contains("file: ") && missing.contains("nope.obj"),
        "{missing}"
    );
    let refused = parse_shape(
        &json!({"type": "mesh", "file": "cube.ply", "as": "hull"}),
        &Files::refused("no files here"),
    );
    assert!(refused.is_err_and(|e| e.to_string().contains("no files here")));
    let rounded = e(json!({"type": "rounded", "radius": 1,
                          "shape": {"type": "mesh", "file": "multi.obj", "as": "parts"}}));
    assert!(rounded.contains("cannot be rounded"), "{rounded}");
}
