//! Mesh files (feature `io`): the fixtures in `fixtures/meshes/` (made by its
//! `make_fixtures.py`) read as hulls, meshes and parts agree with the same points given
//! directly, and every broken file gives its named error (kind, file, line or face).
#![cfg(feature = "io")]

use std::path::PathBuf;

use convexity::gjk::{distance, Options};
use convexity::primitives::io::{
    load, read, read_bytes, Format, IoError, IoErrorKind, LoadAs, Loaded, Location,
};
use convexity::primitives::mesh::MeshLocation;
use convexity::{ConvexPolyhedron, DQuat, DVec3, Points, Pose3};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/meshes")
        .join(name)
}

fn sorted(mut v: Vec<DVec3>) -> Vec<[f64; 3]> {
    let mut a: Vec<[f64; 3]> = v.drain(..).map(|p| p.to_array()).collect();
    a.sort_by(|x, y| x.partial_cmp(y).unwrap());
    a
}

fn cube(offset: DVec3, s: f64) -> Vec<DVec3> {
    let mut v = Vec::new();
    for x in [0.0, 1.0] {
        for y in [0.0, 1.0] {
            for z in [0.0, 1.0] {
                v.push(DVec3::new(x, y, z) * s + offset);
            }
        }
    }
    v
}

fn octahedron(c: DVec3, r: f64) -> Vec<DVec3> {
    [
        DVec3::X,
        -DVec3::X,
        DVec3::Y,
        -DVec3::Y,
        DVec3::Z,
        -DVec3::Z,
    ]
    .iter()
    .map(|&d| c + d * r)
    .collect()
}

fn tetra() -> Vec<DVec3> {
    vec![
        DVec3::new(3.0, 0.0, 0.0),
        DVec3::new(4.0, 0.0, 0.0),
        DVec3::new(3.0, 1.0, 0.0),
        DVec3::new(3.0, 0.0, 1.0),
    ]
}

fn hull(loaded: Loaded) -> Vec<DVec3> {
    match loaded {
        Loaded::Hull(p) => p,
        other => panic!("expected a hull, got {other:?}"),
    }
}

/// The hull of the file's points and the hull of the same points given directly: the same
/// hull vertices, and the same GJK distance to probes all around.
fn assert_same_hull(from_file: &[DVec3], direct: &[DVec3]) {
    let hf = ConvexPolyhedron::from_points(from_file).unwrap();
    let hd = ConvexPolyhedron::from_points(direct).unwrap();
    assert_eq!(
        sorted(hf.vertices().to_vec()),
        sorted(hd.vertices().to_vec())
    );
    assert_eq!(hf.num_faces(), hd.num_faces());
    let (pf, pd) = (
        Points::new(from_file).unwrap(),
        Points::new(direct).unwrap(),
    );
    let probe = Points::new(&[DVec3::ZERO, DVec3::new(0.1, 0.2, 0.3)]).unwrap();
    let id = Pose3::default();
    for k in 0..26 {
        let dir = DVec3::new(
            (k % 3) as f64 - 1.0,
            ((k / 3) % 3) as f64 - 1.0,
            (k / 9) as f64 - 1.0,
        );
        let dir = if dir == DVec3::ZERO { DVec3::ONE } else { dir };
        let pose = Pose3::new(dir * 20.0, DQuat::from_rotation_y(0.3 * k as f64)).unwrap();
        let a = distance(&pf, &id, &probe, &pose, &Options::default(), None);
        let b = distance(&pd, &id, &probe, &pose, &Options::default(), None);
        assert!(
            (a.distance - b.distance).abs() <= 1e-12 * a.distance.max(1.0),
            "{a:?} {b:?}"
        );
    }
}

#[test]
fn multi_object_obj_as_hull_agrees_with_the_points_given_directly() {
    let pts = hull(load(&fixture("multi.obj"), LoadAs::Hull).unwrap());
    let mut direct = cube(DVec3::ZERO, 1.0);
    direct.extend(tetra());
    direct.extend(cube(DVec3::new(0.5, 3.0, 0.0), 0.5));
    // The welded vertex set is exactly the file's distinct positions (no scaling, no shift).
    assert_eq!(sorted(pts.clone()), sorted(direct.clone()));
    assert_same_hull(&pts, &direct);
}

#[test]
fn multi_object_obj_as_parts_gives_one_part_per_object_and_group() {
    let Loaded::Parts(parts) = load(&fixture("multi.obj"), LoadAs::Parts).unwrap() else {
        panic!("parts expected");
    };
    let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["cube", "tetra", "half_cube"]);
    let expected = [
        cube(DVec3::ZERO, 1.0),
        tetra(),
        cube(DVec3::new(0.5, 3.0, 0.0), 0.5),
    ];
    for (p, e) in parts.iter().zip(&expected) {
        assert_eq!(sorted(p.points.clone()), sorted(e.clone()), "{}", p.name);
        assert_same_hull(&p.points, e);
    }
    // Components of the same file: the same three point sets (the objects do not touch).
    let Loaded::Parts(comps) = load(&fixture("multi.obj"), LoadAs::Components).unwrap() else {
        panic!("parts expected");
    };
    assert_eq!(comps.len(), 3);
    for (p, e) in comps.iter().zip(&expected) {
        assert_eq!(sorted(p.points.clone()), sorted(e.clone()));
    }
}

#[test]
fn multi_object_obj_as_mesh_locates_points_in_each_object() {
    let Loaded::Mesh(m) = load(&fixture("multi.obj"), LoadAs::Mesh).unwrap() else {
        panic!("mesh expected");
    };
    // 6 quads + 4 triangles + 6 quads, quads fanned into two triangles.
    assert_eq!(m.triangles().len(), 12 + 4 + 12);
    assert_eq!(m.locate(DVec3::splat(0.5)), MeshLocation::Inside);
    assert_eq!(m.locate(DVec3::new(3.2, 0.2, 0.2)), MeshLocation::Inside);
    assert_eq!(m.locate(DVec3::new(0.75, 3.25, 0.25)), MeshLocation::Inside);
    assert_eq!(m.locate(DVec3::new(2.0, 2.0, 2.0)), MeshLocation::Outside);
    assert_eq!(m.locate(DVec3::new(1.0, 0.5, 0.5)), MeshLocation::Boundary);
}

#[test]
fn ascii_stl_octahedron_as_hull_and_mesh() {
    let pts = hull(load(&fixture("octahedron_ascii.stl"), LoadAs::Hull).unwrap());
    let direct = octahedron(DVec3::ZERO, 1.0);
    assert_eq!(sorted(pts.clone()), sorted(direct.clone()));
    assert_same_hull(&pts, &direct);
    let Loaded::Mesh(m) = load(&fixture("octahedron_ascii.stl"), LoadAs::Mesh).unwrap() else {
        panic!("mesh expected");
    };
    assert_eq!(m.triangles().len(), 8);
    assert_eq!(m.locate(DVec3::splat(0.3)), MeshLocation::Inside);
    assert_eq!(m.locate(DVec3::splat(0.34)), MeshLocation::Outside);
}

#[test]
fn binary_stl_two_octahedra_as_components_and_hull() {
    let data = read(&fixture("two_octahedra_binary.stl")).unwrap();
    assert_eq!(data.triangles.len(), 16);
    assert_eq!(data.vertices.len(), 12);
    let Loaded::Parts(parts) = data.clone().into_loaded(LoadAs::Parts).unwrap() else {
        panic!("parts expected");
    };
    assert_eq!(parts.len(), 2);
    assert_same_hull(&parts[0].points, &octahedron(DVec3::ZERO, 1.0));
    assert_same_hull(
        &parts[1].points,
        &octahedron(DVec3::new(10.0, 0.0, 0.0), 2.0),
    );
    let mut all = octahedron(DVec3::ZERO, 1.0);
    all.extend(octahedron(DVec3::new(10.0, 0.0, 0.0), 2.0));
    assert_same_hull(&hull(data.into_loaded(LoadAs::Hull).unwrap()), &all);
}

#[test]
fn binary_stl_whose_header_starts_with_solid_is_read_as_binary() {
    let data = read(&fixture("solid_header_binary.stl")).unwrap();
    assert_eq!(data.triangles.len(), 8);
    assert_eq!(
        sorted(data.vertices.clone()),
        sorted(octahedron(DVec3::ZERO, 1.0))
    );
    data.check_solid().unwrap();
}

#[test]
fn ply_ascii_cube_and_binary_octahedron() {
    let pts = hull(load(&fixture("cube.ply"), LoadAs::Hull).unwrap());
    assert_same_hull(&pts, &cube(DVec3::ZERO, 1.0));
    let Loaded::Mesh(m) = load(&fixture("cube.ply"), LoadAs::Mesh).unwrap() else {
        panic!("mesh expected");
    };
    assert_eq!(m.triangles().len(), 12);
    let pts = hull(load(&fixture("octahedron_binary.ply"), LoadAs::Hull).unwrap());
    assert_eq!(sorted(pts.clone()), sorted(octahedron(DVec3::ZERO, 1.0)));
    assert!(matches!(
        load(&fixture("octahedron_binary.ply"), LoadAs::Mesh),
        Ok(Loaded::Mesh(_))
    ));
}

/// Loads `name` as `load_as` and checks the error's kind, that its message names the file,
/// and its location.
fn broken(name: &str, load_as: LoadAs, kind: IoErrorKind, at: Option<Location>) -> IoError {
    let e = match load(&fixture(name), load_as) {
        Err(e) => e,
        Ok(l) => panic!("{name} loaded: {l:?}"),
    };
    assert_eq!(e.kind, kind, "{e}");
    assert_eq!(e.at, at, "{e}");
    let msg = e.to_string();
    assert!(msg.contains(name), "{msg}");
    if let Some(Location { line: Some(l), .. }) = at {
        assert!(msg.contains(&format!("line {l}")), "{msg}");
    }
    if let Some(Location { face: Some(f), .. }) = at {
        assert!(msg.contains(&format!("face {f}")), "{msg}");
    }
    e
}

fn at(line: Option<usize>, face: Option<usize>) -> Option<Location> {
    Some(Location { line, face })
}

#[test]
fn obj_with_a_word_for_a_coordinate_names_its_line() {
    let e = broken(
        "bad_number.obj",
        LoadAs::Hull,
        IoErrorKind::Parse,
        at(Some(4), None),
    );
    assert!(e.problem.contains("three numbers"), "{e}");
}

#[test]
fn obj_face_index_out_of_range_names_line_and_face() {
    broken(
        "bad_index.obj",
        LoadAs::Hull,
        IoErrorKind::BadIndex,
        at(Some(5), Some(1)),
    );
}

#[test]
fn obj_nan_coordinate_names_its_line() {
    broken(
        "nan.obj",
        LoadAs::Hull,
        IoErrorKind::BadValue,
        at(Some(3), None),
    );
}

#[test]
fn open_obj_used_as_a_solid_names_the_face_at_the_hole() {
    // Face 0 (the x = 0 quad, line 9) borders the missing z = 1 quad.
    let e = broken(
        "open_cube.obj",
        LoadAs::Mesh,
        IoErrorKind::Open,
        at(Some(9), Some(0)),
    );
    assert!(e.problem.contains("open"), "{e}");
    // As a hull or as parts the open mesh is fine: only its points are used.
    let pts = hull(load(&fixture("open_cube.obj"), LoadAs::Hull).unwrap());
    assert_same_hull(&pts, &cube(DVec3::ZERO, 1.0));
    assert!(load(&fixture("open_cube.obj"), LoadAs::Parts).is_ok());
}

#[test]
fn ascii_stl_with_a_bad_vertex_names_its_facet_and_line() {
    // Facet 2 starts on line 16 (1 + 7 lines per facet).
    broken(
        "bad_vertex_ascii.stl",
        LoadAs::Hull,
        IoErrorKind::Parse,
        at(Some(16), Some(2)),
    );
}

#[test]
fn non_manifold_stl_used_as_a_solid_names_the_repeated_facet() {
    // The octahedron plus a copy of facet 3: the copy (facet 8, line 58) reuses its edges.
    broken(
        "nonmanifold_ascii.stl",
        LoadAs::Mesh,
        IoErrorKind::NonManifold,
        at(Some(58), Some(8)),
    );
    // Its points are still a fine hull.
    let pts = hull(load(&fixture("nonmanifold_ascii.stl"), LoadAs::Hull).unwrap());
    assert_same_hull(&pts, &octahedron(DVec3::ZERO, 1.0));
}

#[test]
fn truncated_binary_stl_names_the_first_missing_facet() {
    let e = broken(
        "truncated_binary.stl",
        LoadAs::Hull,
        IoErrorKind::Parse,
        at(None, Some(5)),
    );
    assert!(e.problem.contains("truncated"), "{e}");
}

#[test]
fn ply_face_index_out_of_range_names_line_and_face() {
    broken(
        "bad_index.ply",
        LoadAs::Hull,
        IoErrorKind::BadIndex,
        at(Some(23), Some(4)),
    );
}

#[test]
fn ply_element_count_beyond_the_file_names_the_header_line() {
    broken(
        "bad_count.ply",
        LoadAs::Hull,
        IoErrorKind::Parse,
        at(Some(8), None),
    );
}

#[test]
fn missing_file_and_unknown_extension_name_the_file() {
    let e = broken(
        "no_such_file.obj",
        LoadAs::Hull,
        IoErrorKind::NotFound,
        None,
    );
    assert!(e.problem.contains("cannot read"), "{e}");
    broken(
        "not_a_mesh.txt",
        LoadAs::Hull,
        IoErrorKind::UnknownFormat,
        None,
    );
}

#[test]
fn empty_and_tiny_inputs_are_errors_in_every_format() {
    for format in [Format::Obj, Format::Stl, Format::Ply] {
        for bytes in [
            &b""[..],
            b"\n",
            b"solid ",
            b"ply\n",
            b"v 1 2 3\n",
            b"\0\0\0",
        ] {
            let r = read_bytes(bytes, format, "mem");
            if let Err(e) = &r {
                assert!(e.to_string().starts_with("mem"), "{e}");
            }
        }
        assert!(read_bytes(b"", format, "mem").is_err());
    }
    // A lone vertex is a hull but not a solid.
    let d = read_bytes(b"v 1 2 3\n", Format::Obj, "mem").unwrap();
    assert_eq!(d.vertices, vec![DVec3::new(1.0, 2.0, 3.0)]);
    assert_eq!(
        d.into_loaded(LoadAs::Mesh).unwrap_err().kind,
        IoErrorKind::Empty
    );
}

#[test]
fn obj_degenerate_face_used_as_a_solid_is_named() {
    let text = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 0\nf 1 2 3\nf 1 4 2\n";
    let d = read_bytes(text, Format::Obj, "degen.obj").unwrap();
    let e = d.check_solid().unwrap_err();
    assert_eq!(e.kind, IoErrorKind::Degenerate);
    assert_eq!(e.at, at(Some(6), Some(1)));
}

#[test]
fn obj_vertex_weight_and_colours_are_read_as_tobj_does() {
    let text = b"v 2 4 6 2\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let d = read_bytes(text, Format::Obj, "w.obj").unwrap();
    assert_eq!(
        sorted(d.vertices.clone()),
        sorted(vec![DVec3::new(1.0, 2.0, 3.0), DVec3::X, DVec3::Y])
    );
    let e = read_bytes(b"v 1 2 3 0\n", Format::Obj, "w0.obj").unwrap_err();
    assert_eq!((e.kind, e.at), (IoErrorKind::Parse, at(Some(1), None)));
    let c = read_bytes(
        b"v 1 0 0 1 0 0\nv 0 1 0 0 1 0\nv 0 0 1 0 0 1\nf 1 2 3\n",
        Format::Obj,
        "c.obj",
    );
    assert_eq!(c.unwrap().vertices.len(), 3);
    // Colours on some vertices only: tobj refuses; the scan names the first odd line.
    let text = b"v 1 0 0 0.5 0.5 0.5\nv 0 1 0\nv 0 0 1\nf 1 2 3\n";
    let e = read_bytes(text, Format::Obj, "mixed.obj").unwrap_err();
    assert_eq!((e.kind, e.at), (IoErrorKind::Parse, at(Some(2), None)));
}

#[test]
fn huge_obj_coordinate_is_out_of_range() {
    let e = read_bytes(b"v 1e300 0 0\n", Format::Obj, "big.obj").unwrap_err();
    assert_eq!((e.kind, e.at), (IoErrorKind::BadValue, at(Some(1), None)));
}

/// Fuzz finding (mesh_ply): a format version whose digits overflow u64 made ply-rs unwrap a
/// `ParseIntError`; the header scan now refuses it on its line.
#[test]
fn ply_version_overflowing_u64_is_a_parse_error_not_a_panic() {
    let text = b"ply\nformat ascii 1.077777777777777777777777777777\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n";
    let e = read_bytes(text, Format::Ply, "v.ply").unwrap_err();
    assert_eq!((e.kind, e.at), (IoErrorKind::Parse, at(Some(2), None)));
}
