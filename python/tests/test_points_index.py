"""`Points(..., index=True)`: the hull built once, support from its cell map of candidates.

Oracles: the same points without the index (the plain scan), certificates verified on the
plain shape, and a cloud whose hull is known (the 8 corners of a cube among interior points).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import convexity as cx
from conftest import hull_points, random_poses

I7 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def cube_cloud(rng: np.random.Generator, n: int) -> np.ndarray:
    """n points inside [-0.9, 0.9]^3 plus the 8 corners of [-1, 1]^3 (the hull)."""
    inner = rng.uniform(-0.9, 0.9, size=(n, 3))
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return np.vstack([inner[: n // 2], corners, inner[n // 2 :]])


def test_index_reads_the_hull_vertices_only_and_only_where_it_applies() -> None:
    rng = np.random.default_rng(3)
    assert cx.Points(cube_cloud(rng, 3000), index=True).index_vertices == 8
    assert cx.Points(hull_points(rng, 500), index=True).index_vertices == 500
    # Off by default, and no effect at 64 points or fewer, in 2D or in other dimensions.
    assert cx.Points(hull_points(rng, 500)).index_vertices is None
    assert cx.Points(hull_points(rng, 64), index=True).index_vertices is None
    disc = rng.normal(size=(300, 2))
    assert cx.Points(disc, index=True).index_vertices is None
    assert cx.Points(rng.normal(size=(300, 4)), index=True).index_vertices is None


@pytest.mark.parametrize("name", ["sphere", "cube cloud", "offset 1e6"])
def test_indexed_points_answer_as_the_plain_points(name: str) -> None:
    rng = np.random.default_rng(11)
    pts = {
        "sphere": hull_points(rng, 1500),
        "cube cloud": cube_cloud(rng, 3000),
        "offset 1e6": hull_points(rng, 800) + 1e6,
    }[name]
    centre = pts.mean(axis=0)
    plain, indexed = cx.Points(pts), cx.Points(pts, index=True)
    assert indexed.index_vertices is not None
    other, other_idx = cx.Points(hull_points(rng, 300, 0.7)), cx.Points(hull_points(rng, 300, 0.7), index=True)
    # A's centre at the origin; B around it, about half of the pairs overlapping.
    pose_a = np.array([*(-centre), 0.0, 0.0, 0.0, 1.0])
    reach = float(np.linalg.norm(pts - centre, axis=1).max())
    poses = random_poses(rng, 200, 1.3 * reach + 0.7)
    overlapping = 0
    for pb in poses:
        want = cx.distance(plain, pose_a, other, pb)
        got = cx.distance(indexed, pose_a, other, pb)
        assert got.intersecting is want.intersecting
        assert got.distance == pytest.approx(want.distance, abs=1e-12 + got.tolerance)
        # Checked on the plain shape: the index is not trusted by the check.
        assert cx.verify(plain, pose_a, other, pb, got.certificate, tol=got.tolerance) is True
        b = cx.intersects(indexed, pose_a, other, pb)
        assert b.intersecting is want.intersecting
        assert cx.verify(plain, pose_a, other, pb, b.certificate, tol=b.tolerance) is True
        if want.intersecting:
            overlapping += 1
            dw = cx.penetration(plain, pose_a, other, pb)
            dg = cx.penetration(indexed, pose_a, other, pb)
            assert dg.depth == pytest.approx(dw.depth, abs=1e-9)
    assert 40 <= overlapping <= 160, overlapping
    # The batch path answers indexed shapes as the pair-by-pair call does.
    n = len(poses)
    batch = cx.distance_batch([indexed] * n, np.tile(pose_a, (n, 1)), [other_idx] * n, poses, threads=1)
    for i, pb in enumerate(poses):
        one = cx.distance(indexed, pose_a, other_idx, pb)
        assert batch.distance[i] == pytest.approx(one.distance, abs=1e-12)
        assert bool(batch.intersecting[i]) is one.intersecting


def test_index_survives_to_dict_repr_and_pickle() -> None:
    rng = np.random.default_rng(5)
    pts = hull_points(rng, 200)
    s = cx.Points(pts, index=True)
    d = s.to_dict()
    assert d["index"] is True
    assert "index=True" in repr(s)
    for back in (cx.shape_from_dict(d), pickle.loads(pickle.dumps(s))):
        assert back.index_vertices == 200
        assert back.to_dict()["index"] is True
    # Without the index the dict is as before: no key.
    assert "index" not in cx.Points(pts).to_dict()
    assert cx.shape_from_dict({"type": "points", "points": pts.tolist(), "index": False}).index_vertices is None


def test_index_field_refusals_name_the_field() -> None:
    pts = hull_points(np.random.default_rng(6), 100).tolist()
    with pytest.raises(ValueError, match=r"index: expected True or False, found a str"):
        cx.shape_from_dict({"type": "points", "points": pts, "index": "yes"})
    with pytest.raises(ValueError, match=r"index: expected True or False, found a int"):
        cx.shape_from_dict({"type": "points", "points": pts, "index": 1})
    with pytest.raises(ValueError, match=r'did you mean "index"'):
        cx.shape_from_dict({"type": "points", "points": pts, "indx": True})
    with pytest.raises(TypeError):
        cx.Points(pts, index="yes")  # type: ignore[arg-type]


def test_mesh_hulls_take_the_index_field(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`load_mesh` builds the index; a scene-format mesh object builds it only with
    `"index": true`, as the CLI does; both answer as the plain hull."""
    pts = hull_points(np.random.default_rng(8), 300)
    f = tmp_path / "ball.obj"
    f.write_text("".join(f"v {float(x)!r} {float(y)!r} {float(z)!r}\n" for x, y, z in pts))
    monkeypatch.chdir(tmp_path)
    loaded = cx.load_mesh(f, as_="hull")
    assert loaded.index_vertices == 300
    plain = cx.shape_from_dict({"type": "mesh", "file": "ball.obj", "as": "hull"})
    assert plain.index_vertices is None
    indexed = cx.shape_from_dict({"type": "mesh", "file": "ball.obj", "as": "hull", "index": True})
    assert indexed.index_vertices == 300
    assert indexed.to_dict()["index"] is True and "index" not in plain.to_dict()
    for pb in random_poses(np.random.default_rng(9), 50, 1.5):
        want = cx.distance(plain, None, cx.Sphere(0.4), pb)
        for s in (loaded, indexed):
            got = cx.distance(s, None, cx.Sphere(0.4), pb)
            assert got.intersecting is want.intersecting
            assert got.distance == pytest.approx(want.distance, abs=1e-12)
    with pytest.raises(ValueError, match=r"index: expected True or False"):
        cx.shape_from_dict({"type": "mesh", "file": "ball.obj", "as": "hull", "index": "yes"})
