//! Closed triangle meshes: validation, exact point-in-mesh (faces, edges, vertices, rays
//! through edges and vertices, a non-convex L-shaped prism against its analytic answer on a
//! grid whose rays hit edges and vertices), facet intersection, and mesh–mesh pairs (against
//! brute force over all triangle pairs) with containment.

use convexity::primitives::facet::{facet_facet, facet_facet_test};
use convexity::primitives::mesh::{mesh_mesh, Containment, MeshLocation, TriMesh};
use convexity::primitives::tri_tri::{tri_tri_test, TriTri};
use convexity::{DQuat, DVec3, Pose3};
use convexity_testkit::rng::{rng, Rng};

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn quads_to_tris(quads: &[[usize; 4]]) -> Vec<[usize; 3]> {
    quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect()
}

/// An axis-aligned box mesh, outward oriented (vertex i has bits x|y<<1|z<<2).
fn box_mesh(lo: DVec3, hi: DVec3) -> TriMesh {
    let verts: Vec<DVec3> = (0..8)
        .map(|i| {
            v(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        })
        .collect();
    let quads = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    TriMesh::new(verts, quads_to_tris(&quads)).unwrap()
}

/// The L-shaped prism {[0,2]×[0,1] ∪ [0,1]×[0,2]} × [0,1], outward oriented.
fn l_prism() -> TriMesh {
    let poly = [
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ];
    let n = poly.len();
    let mut verts = Vec::new();
    for z in [0.0, 1.0] {
        for &(x, y) in &poly {
            verts.push(v(x, y, z));
        }
    }
    let mut tris = Vec::new();
    for i in 0..n {
        let j = (i + 1) % n;
        tris.push([i, j, n + j]);
        tris.push([i, n + j, n + i]);
    }
    // Caps: a fan from vertex 0, which sees the whole L.
    for i in 1..n - 1 {
        tris.push([n, n + i, n + i + 1]);
        tris.push([0, i + 1, i]);
    }
    TriMesh::new(verts, tris).unwrap()
}

fn l_prism_truth(p: DVec3) -> MeshLocation {
    let closed = (0.0..=1.0).contains(&p.z)
        && (((0.0..=2.0).contains(&p.x) && (0.0..=1.0).contains(&p.y))
            || ((0.0..=1.0).contains(&p.x) && (0.0..=2.0).contains(&p.y)));
    let open = p.z > 0.0
        && p.z < 1.0
        && ((p.x > 0.0 && p.x < 2.0 && p.y > 0.0 && p.y < 1.0)
            || (p.x > 0.0 && p.x < 1.0 && p.y > 0.0 && p.y < 2.0));
    if open {
        MeshLocation::Inside
    } else if closed {
        MeshLocation::Boundary
    } else {
        MeshLocation::Outside
    }
}

#[test]
fn cube_faces_edges_vertices_are_boundary() {
    let m = box_mesh(DVec3::ZERO, DVec3::ONE);
    for p in [
        v(0.5, 0.5, 0.0),
        v(1.0, 0.3, 0.7),
        v(1.0, 0.5, 0.5), // on the +x face's diagonal
        v(0.0, 0.0, 0.5),
        v(1.0, 1.0, 1.0),
        v(0.0, 0.0, 0.0),
    ] {
        assert_eq!(m.locate(p), MeshLocation::Boundary, "{p:?}");
    }
    assert_eq!(m.locate(v(0.5, 0.5, 0.5)), MeshLocation::Inside);
    assert_eq!(m.locate(v(0.5, 0.5, 1.0 + 1e-15)), MeshLocation::Outside);
    assert_eq!(m.locate(v(0.5, 0.5, 1.0 - 1e-16)), MeshLocation::Inside);
}

#[test]
fn rays_through_edges_and_vertices_are_not_miscounted() {
    let m = box_mesh(DVec3::ZERO, DVec3::ONE);
    // The +x ray from the centre hits the +x face exactly on its triangulation diagonal.
    assert_eq!(m.locate(v(0.5, 0.5, 0.5)), MeshLocation::Inside);
    // Level with an edge (y = 1, z = 1) and with a vertex row: rays graze edges.
    assert_eq!(m.locate(v(-1.0, 1.0, 1.0)), MeshLocation::Outside);
    assert_eq!(m.locate(v(-1.0, 0.0, 0.0)), MeshLocation::Outside);
    assert_eq!(m.locate(v(-1.0, 1.0, 0.5)), MeshLocation::Outside);
    assert_eq!(m.locate(v(-1.0, 0.5, 0.5)), MeshLocation::Outside);
    assert_eq!(m.locate(v(0.25, 0.25, 0.25)), MeshLocation::Inside);
    assert_eq!(m.locate(v(2.0, 0.5, 0.5)), MeshLocation::Outside);
    // Inside, level with the top-face diagonal from (0,0,1)... (ray along a face's plane).
    assert_eq!(m.locate(v(0.5, 0.0 + 1e-300, 0.5)), MeshLocation::Inside);
}

#[test]
fn l_prism_matches_analytic_on_a_degenerate_grid() {
    let m = l_prism();
    let mut counts = [0usize; 3];
    // Quarter steps: rays run along faces and edges and through vertices.
    for i in -2..=10 {
        for j in -2..=10 {
            for k in -2..=6 {
                let p = v(i as f64 * 0.25, j as f64 * 0.25, k as f64 * 0.25);
                let want = l_prism_truth(p);
                assert_eq!(m.locate(p), want, "{p:?}");
                counts[want as usize] += 1;
            }
        }
    }
    assert!(counts.iter().all(|&c| c > 50), "{counts:?}");
    // Random points, and the same after an exact axis permutation of everything.
    let mut r = rng(0x3E5_0001);
    let perm = |p: DVec3| v(p.z, p.x, p.y);
    let verts: Vec<DVec3> = m.vertices().iter().map(|&p| perm(p)).collect();
    let mp = TriMesh::new(verts, m.triangles().to_vec()).unwrap();
    for _ in 0..20_000 {
        let p = v(
            r.gen_range(-0.5..2.5),
            r.gen_range(-0.5..2.5),
            r.gen_range(-0.5..1.5),
        );
        let want = l_prism_truth(p);
        assert_eq!(m.locate(p), want, "{p:?}");
        assert_eq!(mp.locate(perm(p)), want, "{p:?} permuted");
    }
}

#[test]
fn rotated_cube_against_analytic_far_from_boundary() {
    let m0 = box_mesh(DVec3::splat(-1.0), DVec3::splat(1.0));
    let mut r = rng(0x3E5_0002);
    for _ in 0..20 {
        let q = DQuat::from_euler(
            glam::EulerRot::XYZ,
            r.gen_range(0.0..6.3),
            r.gen_range(0.0..6.3),
            r.gen_range(0.0..6.3),
        );
        let t = v(1e3, -2e3, 5e2);
        let verts: Vec<DVec3> = m0.vertices().iter().map(|&p| q * p + t).collect();
        let m = TriMesh::new(verts, m0.triangles().to_vec()).unwrap();
        for _ in 0..500 {
            let local = v(
                r.gen_range(-1.5..1.5),
                r.gen_range(-1.5..1.5),
                r.gen_range(-1.5..1.5),
            );
            let d = local.abs().max_element();
            if (d - 1.0).abs() < 1e-9 {
                continue;
            }
            let want = if d < 1.0 {
                MeshLocation::Inside
            } else {
                MeshLocation::Outside
            };
            assert_eq!(m.locate(q * local + t), want);
        }
        // Every vertex is on the boundary.
        for &p in m.vertices() {
            assert_eq!(m.locate(p), MeshLocation::Boundary);
        }
    }
}

#[test]
fn validation_rejects_open_flipped_and_bad_meshes() {
    let m = box_mesh(DVec3::ZERO, DVec3::ONE);
    let verts = m.vertices().to_vec();
    let tris = m.triangles().to_vec();
    let mut open = tris.clone();
    open.pop();
    let e = TriMesh::new(verts.clone(), open).unwrap_err();
    assert!(e.to_string().contains("not closed"), "{e}");
    let mut flipped = tris.clone();
    flipped[3].swap(0, 1);
    assert!(TriMesh::new(verts.clone(), flipped).is_err());
    let mut bad = tris.clone();
    bad[0][1] = 99;
    assert_eq!(
        TriMesh::new(verts.clone(), bad).unwrap_err().field,
        "triangles[0][1]"
    );
    let mut rep = tris.clone();
    rep[0][1] = rep[0][0];
    assert!(TriMesh::new(verts.clone(), rep).is_err());
    let mut nan = verts.clone();
    nan[2].y = f64::NAN;
    assert_eq!(
        TriMesh::new(nan, tris.clone()).unwrap_err().field,
        "vertices[2][1]"
    );
    assert!(TriMesh::new(vec![], vec![]).is_err());
    // Non-finite query point: Outside, no panic.
    assert_eq!(m.locate(v(f64::NAN, 0.0, 0.0)), MeshLocation::Outside);
}

fn brute_pairs(a: &TriMesh, pa: &Pose3, b: &TriMesh, pb: &Pose3) -> Vec<(usize, usize)> {
    let pab = pa.relative(pb);
    let mut out = Vec::new();
    for i in 0..a.triangles().len() {
        for j in 0..b.triangles().len() {
            let ta = a.triangle(i).unwrap();
            let tb = b.triangle(j).unwrap().map(|p| pab.transform_point(p));
            if tri_tri_test(ta, tb) {
                out.push((i, j));
            }
        }
    }
    out
}

#[test]
fn cube_inside_cube_is_containment_without_pairs() {
    let big = box_mesh(DVec3::splat(-2.0), DVec3::splat(2.0));
    let small = box_mesh(DVec3::splat(-0.5), DVec3::splat(0.5));
    let id = Pose3::IDENTITY;
    let r = mesh_mesh(&big, &id, &small, &id);
    assert!(r.pairs.is_empty());
    assert_eq!(r.containment, Some(Containment::BInsideA));
    assert!(r.intersects());
    let r = mesh_mesh(&small, &id, &big, &id);
    assert_eq!(r.containment, Some(Containment::AInsideB));
    // Rotated small cube still inside; moved far away: nothing.
    let pose = Pose3::new(v(0.3, -0.2, 0.1), DQuat::from_rotation_x(0.7)).unwrap();
    assert_eq!(
        mesh_mesh(&big, &id, &small, &pose).containment,
        Some(Containment::BInsideA)
    );
    let far = Pose3::from_translation(v(10.0, 0.0, 0.0)).unwrap();
    let r = mesh_mesh(&big, &id, &small, &far);
    assert!(!r.intersects() && r.pairs.is_empty());
}

#[test]
fn mesh_pairs_match_brute_force_and_touching_counts() {
    let a = l_prism();
    let b = box_mesh(DVec3::ZERO, DVec3::ONE);
    let id = Pose3::IDENTITY;
    let mut rg = rng(0x3E5_0003);
    for case in 0..60 {
        let pb = Pose3::new(
            v(
                rg.gen_range(-1.5..2.5),
                rg.gen_range(-1.5..2.5),
                rg.gen_range(-1.0..1.5),
            ),
            DQuat::from_rotation_z(rg.gen_range(0.0..6.3)),
        )
        .unwrap();
        let pa = Pose3::new(v(0.1, 0.2, 0.3), DQuat::from_rotation_y(0.2 * case as f64)).unwrap();
        let r = mesh_mesh(&a, &pa, &b, &pb);
        assert_eq!(r.pairs, brute_pairs(&a, &pa, &b, &pb), "case {case}");
        if !r.pairs.is_empty() {
            assert_eq!(r.containment, None);
        }
    }
    // Face-to-face touching (cube on the L's top face at z = 1): pairs, exact.
    let on_top = Pose3::from_translation(v(0.0, 0.0, 1.0)).unwrap();
    let r = mesh_mesh(&a, &id, &b, &on_top);
    assert!(!r.pairs.is_empty());
    assert_eq!(r.pairs, brute_pairs(&a, &id, &b, &on_top));
    // In the L's notch, touching the two inner walls only along faces.
    let notch = Pose3::from_translation(v(1.0, 1.0, 0.0)).unwrap();
    assert!(!mesh_mesh(&a, &id, &b, &notch).pairs.is_empty());
    // Just off the top: nothing.
    let above = Pose3::from_translation(v(0.0, 0.0, 1.0 + 1e-12)).unwrap();
    assert!(!mesh_mesh(&a, &id, &b, &above).intersects());
}

#[test]
fn facet_intersection_cases() {
    let sq = |z: f64, s: f64, o: DVec3| {
        vec![
            v(0.0, 0.0, z) * 1.0 + o,
            v(s, 0.0, z) + o,
            v(s, s, z) + o,
            v(0.0, s, z) + o,
        ]
    };
    // Coplanar overlapping squares: the overlap square [1,2]².
    let p = sq(0.0, 2.0, DVec3::ZERO);
    let q = sq(0.0, 2.0, v(1.0, 1.0, 0.0));
    match facet_facet(&p, &q).unwrap() {
        TriTri::Coplanar(poly) => {
            assert_eq!(poly.len(), 4, "{poly:?}");
            for c in [
                v(1.0, 1.0, 0.0),
                v(2.0, 1.0, 0.0),
                v(2.0, 2.0, 0.0),
                v(1.0, 2.0, 0.0),
            ] {
                assert!(poly.iter().any(|x| (*x - c).length() < 1e-15), "{poly:?}");
            }
        }
        r => panic!("{r:?}"),
    }
    // A vertical hexagon piercing a square: the crossing segment spans both pieces' fans.
    let hex: Vec<DVec3> = (0..6)
        .map(|i| {
            let t = i as f64 * std::f64::consts::PI / 3.0;
            v(1.0, 1.0 + t.cos(), t.sin())
        })
        .collect();
    match facet_facet(&p, &hex).unwrap() {
        TriTri::Segment(a, b) => {
            let (lo, hi) = if a.y < b.y { (a, b) } else { (b, a) };
            assert!((lo - v(1.0, 0.0, 0.0)).length() < 1e-12, "{lo:?}");
            assert!((hi - v(1.0, 2.0, 0.0)).length() < 1e-12, "{hi:?}");
        }
        r => panic!("{r:?}"),
    }
    // Coplanar, touching at one corner; parallel and disjoint; shared edge.
    let q = sq(0.0, 1.0, v(2.0, 2.0, 0.0));
    assert_eq!(
        facet_facet(&p, &q).unwrap(),
        TriTri::Point(v(2.0, 2.0, 0.0))
    );
    assert!(!facet_facet_test(&p, &sq(1e-12, 2.0, DVec3::ZERO)).unwrap());
    let wall = vec![
        v(0.0, 0.0, 0.0),
        v(2.0, 0.0, 0.0),
        v(2.0, 0.0, 3.0),
        v(0.0, 0.0, 3.0),
    ];
    match facet_facet(&p, &wall).unwrap() {
        TriTri::Segment(a, b) => {
            assert!(
                (a == v(0.0, 0.0, 0.0) && b == v(2.0, 0.0, 0.0))
                    || (b == v(0.0, 0.0, 0.0) && a == v(2.0, 0.0, 0.0)),
                "{a:?} {b:?}"
            );
        }
        r => panic!("{r:?}"),
    }
    assert!(facet_facet(&[], &p).is_err());
}
