"""Closed triangle meshes (`TriMesh`, `load_mesh(as_="mesh")`, `mesh_intersection`).

Oracles: analytic membership of an L-shaped prism (a non-convex solid whose notch lies inside
its convex hull) and of boxes; the convex-hull LP (`contains`) where the solid is convex and
where it is not; metamorphic properties (the same rigid motion applied to everything, swapping
the meshes, vertex order of the file).
"""

from __future__ import annotations

import pathlib
import pickle

import numpy as np
import pytest

import convexity as cx

# The L: [0, 2] x [0, 1] joined with [0, 1] x [0, 2], counter-clockwise; extruded over z in [0, 1].
L_POLY = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]
# A fan from vertex 0: each triangle lies in one bar of the L.
L_FAN = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]


def prism(poly: list[tuple[float, float]], fan: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """A closed, outward-oriented mesh of the polygon (counter-clockwise) extruded over z in [0, 1]."""
    n = len(poly)
    verts = [(x, y, 0.0) for x, y in poly] + [(x, y, 1.0) for x, y in poly]
    tris = []
    for a, b, c in fan:
        tris.append((a, c, b))  # bottom: normal -z
        tris.append((n + a, n + b, n + c))  # top: normal +z
    for i in range(n):
        j = (i + 1) % n
        tris.append((i, j, n + j))
        tris.append((i, n + j, n + i))
    return np.array(verts), np.array(tris)


def box(lo: tuple[float, float, float], hi: tuple[float, float, float]) -> cx.TriMesh:
    (x0, y0, z0), (x1, y1, _) = lo, hi
    v, t = prism([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], [(0, 1, 2), (0, 2, 3)])
    v[:, 2] = np.where(v[:, 2] == 0.0, z0, hi[2])
    return cx.TriMesh(v, t)


def in_l(p: np.ndarray) -> np.ndarray:
    x, y, z = p[:, 0], p[:, 1], p[:, 2]
    in_bar = ((x > 0) & (x < 2) & (y > 0) & (y < 1)) | ((x > 0) & (x < 1) & (y > 0) & (y < 2))
    # The open L: the union of the open bars plus the shared open segment x = 1 … (covered by
    # [0, 1] x [0, 2] for y < 1); random points never fall on the bars' seams.
    return in_bar & (z > 0) & (z < 1)


L_VERTS, L_TRIS = prism(L_POLY, L_FAN)


@pytest.fixture()
def l_mesh() -> cx.TriMesh:
    return cx.TriMesh(L_VERTS, L_TRIS)


def test_locate_matches_the_analytic_l(l_mesh: cx.TriMesh) -> None:
    rng = np.random.default_rng(7)
    pts = rng.uniform([-0.5, -0.5, -0.5], [2.5, 2.5, 1.5], size=(4000, 3))
    expected = in_l(pts)
    got = np.array([l_mesh.locate(p) for p in pts])
    assert set(got) <= {"inside", "outside"}
    assert np.array_equal(got == "inside", expected)
    assert np.array_equal(l_mesh.contains(pts), expected)
    assert expected.sum() > 500 and (~expected).sum() > 500


def test_the_notch_is_outside_the_solid_but_inside_its_hull(l_mesh: cx.TriMesh) -> None:
    notch = np.array([[1.5, 1.5, 0.5], [1.9, 1.1, 0.1], [1.1, 1.9, 0.9]])
    assert [l_mesh.locate(p) for p in notch] == ["outside"] * 3
    assert not l_mesh.contains(notch).any()
    # The convex hull of the same vertices holds them: the two readings answer different questions.
    assert cx.contains(L_VERTS, notch).all()


def test_surface_points_are_boundary_exactly(l_mesh: cx.TriMesh) -> None:
    surface = [
        [0.5, 0.5, 0.0],  # bottom face
        [0.5, 1.5, 1.0],  # top face, upper bar
        [1.0, 1.5, 0.5],  # the reflex side face
        [1.5, 1.0, 0.25],  # the other notch face
        [1.0, 1.0, 0.5],  # the reflex edge
        [2.0, 0.0, 0.0],  # a vertex
    ]
    assert [l_mesh.locate(p) for p in surface] == ["boundary"] * len(surface)
    assert l_mesh.contains(np.array(surface)).all()  # the closed solid holds its surface
    # Just off the surface, on either side.
    eps = 1e-12
    assert l_mesh.locate([1.0 - eps, 1.5, 0.5]) == "inside"
    assert l_mesh.locate([1.0 + eps, 1.5, 0.5]) == "outside"


def test_a_convex_mesh_agrees_with_the_hull_lp() -> None:
    v, t = prism([(0.0, 0.0), (1.0, 0.0), (1.3, 0.8), (0.2, 1.1)], [(0, 1, 2), (0, 2, 3)])
    m = cx.TriMesh(v, t)
    pts = np.random.default_rng(3).uniform(-0.3, 1.5, size=(2000, 3))
    assert np.array_equal(m.contains(pts), cx.contains(v, pts))


def test_rigid_motion_and_vertex_order_do_not_change_the_answers(l_mesh: cx.TriMesh) -> None:
    rng = np.random.default_rng(11)
    pts = rng.uniform([-0.5, -0.5, -0.5], [2.5, 2.5, 1.5], size=(1000, 3))
    # An exact motion: a quarter turn about z and an integer shift keep every coordinate exact.
    rot = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    shift = np.array([3.0, -2.0, 5.0])
    moved = cx.TriMesh(L_VERTS @ rot.T + shift, L_TRIS)
    assert np.array_equal(moved.contains(pts @ rot.T + shift), l_mesh.contains(pts))
    # The same solid with its vertices renumbered.
    perm = rng.permutation(len(L_VERTS))
    inv = np.argsort(perm)
    renumbered = cx.TriMesh(L_VERTS[perm], inv[L_TRIS])
    assert np.array_equal(renumbered.contains(pts), l_mesh.contains(pts))
    assert [renumbered.locate(p) for p in pts[:50]] == [l_mesh.locate(p) for p in pts[:50]]


def test_mesh_intersection_cases(l_mesh: cx.TriMesh) -> None:
    # A small cube in the notch: the hulls overlap, the solids do not.
    notch = box((1.2, 1.2, 0.2), (1.8, 1.8, 0.8))
    r = cx.mesh_intersection(l_mesh, notch)
    assert r == {"intersecting": False, "pairs": [], "containment": None}
    # The same cube inside the lower bar: containment, no triangle pairs.
    inner = box((0.2, 0.2, 0.2), (0.8, 0.8, 0.8))
    assert cx.mesh_intersection(l_mesh, inner) == {"intersecting": True, "pairs": [], "containment": "b_inside_a"}
    assert cx.mesh_intersection(inner, l_mesh) == {"intersecting": True, "pairs": [], "containment": "a_inside_b"}
    # Crossing the reflex face: triangle pairs, and swapping the meshes swaps them.
    crossing = box((0.8, 1.2, 0.2), (1.4, 1.8, 0.8))
    ab = cx.mesh_intersection(l_mesh, crossing)
    ba = cx.mesh_intersection(crossing, l_mesh)
    assert ab["intersecting"] and ab["pairs"] and ab["containment"] is None
    assert sorted((j, i) for i, j in ab["pairs"]) == ba["pairs"]
    # Touching the notch face x = 1 exactly counts as intersecting.
    touching = box((1.0, 1.2, 0.2), (1.5, 1.8, 0.8))
    assert cx.mesh_intersection(l_mesh, touching)["intersecting"]


def test_poses_place_the_meshes(l_mesh: cx.TriMesh) -> None:
    inner = box((0.2, 0.2, 0.2), (0.8, 0.8, 0.8))
    # Moving the cube by +1 in y puts it in the upper bar (still inside), by +1 in x into the
    # notch's neighbour (inside the lower bar), by (1, 1, 0) into the notch (apart).
    assert cx.mesh_intersection(l_mesh, inner, pose_b=[0, 1, 0, 0, 0, 0, 1])["containment"] == "b_inside_a"
    assert not cx.mesh_intersection(l_mesh, inner, pose_b=[1, 1, 0, 0, 0, 0, 1])["intersecting"]
    # The same motion applied to both: the same answer (a 4x4 matrix pose this time).
    m = np.eye(4)
    m[:3, :3] = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    m[:3, 3] = [10.0, 20.0, 30.0]
    m2 = m.copy()
    m2[:3, 3] += m[:3, :3] @ np.array([1.0, 1.0, 0.0])
    assert not cx.mesh_intersection(l_mesh, inner, pose_a=m, pose_b=m2)["intersecting"]
    with pytest.raises(ValueError, match="pose_b"):
        cx.mesh_intersection(l_mesh, inner, pose_b=[0, 0, 0, 0, 0, 0, 2])


def test_load_mesh_as_mesh_reads_the_solid(tmp_path: pathlib.Path, l_mesh: cx.TriMesh) -> None:
    lines = [f"v {x} {y} {z}" for x, y, z in L_VERTS]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in L_TRIS]
    f = tmp_path / "l.obj"
    f.write_text("\n".join(lines) + "\n")
    m = cx.load_mesh(f, as_="mesh")
    assert isinstance(m, cx.TriMesh) and len(m) == len(L_TRIS)
    assert np.array_equal(m.vertices, L_VERTS) and np.array_equal(m.triangles, L_TRIS)
    pts = np.random.default_rng(5).uniform(-0.5, 2.5, size=(500, 3))
    assert np.array_equal(m.contains(pts), l_mesh.contains(pts))
    # An open mesh (one face dropped) is refused, naming what is wrong.
    open_f = tmp_path / "open.obj"
    open_f.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ValueError, match=r"open\.obj: line 20.*open \(a hole\)"):
        cx.load_mesh(open_f, as_="mesh")


def test_bad_meshes_and_points_are_named_errors() -> None:
    v, t = L_VERTS.copy(), L_TRIS.copy()
    bad = v.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"vertices\[3\]\[1\]"):
        cx.TriMesh(bad, t)
    with pytest.raises(ValueError, match=r"triangles\[0\]\[1\].*vertex index"):
        cx.TriMesh(v, t + np.array([[0, 0.5, 0]] + [[0, 0, 0]] * (len(t) - 1)))
    with pytest.raises(ValueError, match=r"triangles\[2\]\[0\].*found -1"):
        cx.TriMesh(v, np.where(np.arange(len(t))[:, None] == 2, -1, t))
    with pytest.raises(ValueError, match="vertices"):
        cx.TriMesh(v[:, :2], t)
    with pytest.raises(ValueError, match="triangles"):
        cx.TriMesh(v, t[:, :2])
    # Flipping one triangle breaks the orientation: refused.
    flipped = t.copy()
    flipped[0] = flipped[0][::-1]
    with pytest.raises(ValueError, match="oriented"):
        cx.TriMesh(v, flipped)
    m = cx.TriMesh(v, t)
    with pytest.raises(ValueError, match="point"):
        m.locate([[0.5, 0.5, 0.5]])
    with pytest.raises(ValueError, match=r"points\[1\]\[2\]"):
        m.contains([[0.5, 0.5, 0.5], [0.5, 0.5, np.inf]])
    with pytest.raises(ValueError, match=r"points"):
        m.contains([[0.5, 0.5]])
    assert m.contains(np.zeros((0, 3))).shape == (0,)
    assert isinstance(m.contains([0.5, 0.5, 0.5]), bool)


def test_pickle_round_trip(l_mesh: cx.TriMesh) -> None:
    back = pickle.loads(pickle.dumps(l_mesh))
    assert isinstance(back, cx.TriMesh)
    assert np.array_equal(back.vertices, l_mesh.vertices) and np.array_equal(back.triangles, l_mesh.triangles)
    pts = np.random.default_rng(9).uniform(-0.5, 2.5, size=(300, 3))
    assert np.array_equal(back.contains(pts), l_mesh.contains(pts))


def test_offsets_and_scales_keep_every_location(l_mesh: cx.TriMesh) -> None:
    # Points on a 1/8 grid (many exactly on the surface, edges and vertices), the mesh and the
    # points moved by 1e6 and scaled by 2^13 and 2^-13 (a ratio of 6.7e7), where every
    # coordinate stays exact: the exact predicates must give the same location everywhere.
    rng = np.random.default_rng(1)
    pts = np.round(rng.uniform(-0.5, 2.5, size=(1500, 3)) * 8) / 8
    base = [l_mesh.locate(p) for p in pts]
    assert base.count("boundary") > 50 and base.count("inside") > 50
    for offset, scale in [(1e6, 1.0), (0.0, 8192.0), (0.0, 2.0**-13), (-3e6, 1024.0)]:
        moved = cx.TriMesh(L_VERTS * scale + offset, L_TRIS)
        assert [moved.locate(p) for p in pts * scale + offset] == base, (offset, scale)


def test_identical_meshes_touch_everywhere_and_unused_vertices_are_fine(l_mesh: cx.TriMesh) -> None:
    r = cx.mesh_intersection(l_mesh, l_mesh)
    assert r["intersecting"] and r["containment"] is None
    # Every triangle meets its own copy.
    assert {(i, i) for i in range(len(l_mesh))} <= set(r["pairs"])
    extra = cx.TriMesh(np.vstack([L_VERTS, L_VERTS[:1], [[9.0, 9.0, 9.0]]]), L_TRIS)
    pts = np.random.default_rng(2).uniform(-0.5, 2.5, size=(300, 3))
    assert np.array_equal(extra.contains(pts), l_mesh.contains(pts))
