"""Single queries: analytic answers, certificates, every CLI method, exact agreement with the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import convexity as cx
from conftest import ROOT, hull_points, pose_from_dict, random_poses, run_cli

I7 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def at(x: float, y: float = 0.0, z: float = 0.0) -> list[float]:
    return [x, y, z, 0.0, 0.0, 0.0, 1.0]


def test_sphere_sphere_distance_is_analytic() -> None:
    for gap in [0.0, 1e-9, 0.5, 3.0, 1e4]:
        r = cx.distance(cx.Sphere(1.0), None, cx.Sphere(0.5), at(1.5 + gap))
        assert r.distance == pytest.approx(gap, abs=1e-12)
        assert r.point_a is not None and r.point_b is not None
        np.testing.assert_allclose(r.point_a, [1.0, 0, 0], atol=1e-12)
        np.testing.assert_allclose(r.point_b, [1.0 + gap, 0, 0], atol=1e-12)
        assert r.intersecting == (gap <= r.tolerance)


def test_box_box_distance_rotated_and_matrix_pose_agree() -> None:
    b = cx.Box([1.0, 0.5, 0.25])
    # 90 degrees about z: as a quaternion and as a 4x4 matrix.
    s = math.sqrt(0.5)
    quat = [3.0, 0.0, 0.0, 0.0, 0.0, s, s]
    m = np.eye(4)
    m[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    m[0, 3] = 3.0
    r1 = cx.distance(b, None, b, quat)
    r2 = cx.distance(b, None, b, m)
    # B's extent along x after the rotation is 0.5: the gap is 3 - 1 - 0.5.
    assert r1.distance == pytest.approx(1.5, abs=1e-12)
    assert r2.distance == pytest.approx(1.5, abs=1e-12)


def test_every_spelling_of_a_flat_pose_gives_the_same_answer() -> None:
    """Flat poses are read on a fast path (1-D contiguous float64 arrays, lists and tuples) and
    everything else on the general one: both must give the same pose, bit for bit."""
    s, c = math.sin(0.3), math.cos(0.3)
    raw = [0.7, -0.2, 1.1, 0.0, s, 0.0, c]
    wide = np.zeros((7, 2))
    wide[:, 0] = raw
    spellings = [
        raw,
        tuple(raw),
        np.array(raw),
        wide[:, 0],  # a strided view: not contiguous
        [np.float64(x) for x in raw],
        np.array(raw).reshape(1, 7)[0],
    ]
    a, b = cx.Box([0.5, 0.3, 0.2]), cx.Capsule([0, 0, -0.4], [0, 0, 0.4], 0.1)
    want = cx.distance(a, None, b, raw)
    for p in spellings:
        got = cx.distance(a, None, b, p)
        assert got.distance == want.distance, type(p)
        np.testing.assert_array_equal(got.point_b, want.point_b)
        got = cx.penetration(b, p, a, None)
        assert got.depth == cx.penetration(b, raw, a, None).depth
    # A float32 array takes the general path (converted to float64) and means its own values.
    f32 = np.array(raw, dtype=np.float32)
    assert cx.distance(a, None, b, f32).distance == cx.distance(a, None, b, [float(x) for x in f32]).distance
    # Integers in a list are numbers too; 2D poses take the same paths.
    assert cx.distance(a, None, b, [1, 0, 0, 0, 0, 0, 1]).distance == cx.distance(a, None, b, at(1.0)).distance
    for p in ([1.5, 0.25, 0.4], (1.5, 0.25, 0.4), np.array([1.5, 0.25, 0.4])):
        r = cx.distance(cx.Circle(0.5), None, cx.Circle(0.25), p)
        assert r.distance == pytest.approx(math.hypot(1.5, 0.25) - 0.75, abs=1e-12)


def test_penetration_depth_and_normal() -> None:
    r = cx.penetration(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), at(1.5, 0.1, 0.2))
    assert r.depth == pytest.approx(0.5, abs=1e-12)
    assert r.normal is not None
    np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-12)
    assert r.intersecting is True
    # Separated: depth is minus the distance.
    r = cx.penetration(cx.Sphere(1), None, cx.Sphere(1), at(3))
    assert r.depth == pytest.approx(-1.0, abs=1e-12)
    assert r.distance == pytest.approx(1.0, abs=1e-12)


def test_touching_counts_as_intersecting() -> None:
    r = cx.intersects(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), at(2.0))
    assert r.intersecting is True
    assert r.certificate is not None and r.certificate.kind == "common_point"


def test_2d_queries() -> None:
    r = cx.distance(cx.Circle(1.0), None, cx.Polygon([[0, 0], [2, 0], [1, 1]]), [3, 0, 0.0])
    assert r.distance == pytest.approx(2.0, abs=1e-12)
    r = cx.distance(cx.Box([1, 2]), [1, 1, math.pi / 2], cx.Circle(0.5), [1, 4, 0])
    # The rectangle rotated by 90 degrees reaches y = 2; the disc starts at 3.5.
    assert r.distance == pytest.approx(1.5, abs=1e-12)


def test_certificates_verify_and_bad_ones_fail() -> None:
    rng = np.random.default_rng(1)
    a = cx.Points(hull_points(rng, 32))
    b = cx.Box([0.5, 0.3, 0.2])
    poses = random_poses(rng, 200, 2.5)
    for p in poses:
        for f in (cx.distance, cx.intersects, cx.penetration):
            r = f(a, None, b, p)
            assert r.certificate is not None
            assert cx.verify(a, None, b, p, r.certificate, tol=max(1e-9, r.tolerance))
    bad = cx.Certificate.separating_axis([1, 0, 0], 0.1)
    assert not cx.verify(cx.Sphere(1), None, cx.Sphere(1), at(1.0), bad)
    msg = cx.certificate_error(cx.Sphere(1), None, cx.Sphere(1), at(1.0), bad)
    assert msg is not None and len(msg) > 0
    outside = cx.Certificate.common_point([5, 0, 0])
    assert not cx.verify(cx.Sphere(1), None, cx.Sphere(1), at(1.0), outside)


@pytest.mark.parametrize("method", cx.METHODS)
def test_every_cli_method_answers_and_is_checked(method: str) -> None:
    a: cx.Shape = cx.Points([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    b: cx.Shape = cx.Points([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    if method == "tri-tri":
        a = cx.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0])
        b = cx.Triangle([0, 0, -0.5], [0.5, 0, 0.5], [0, 0.5, 0.5])
    for x, want in [(0.2, True), (3.0, False)]:
        r = cx.query(method, a, None, b, at(x, 0.1, 0.1))
        assert r.method == method
        if r.intersecting is not None:
            assert r.intersecting is want, method
            assert r.check == "verified"
            assert r.certificate is not None
        else:
            # Only the approximate methods may abstain.
            assert method in ("pso", "penalty"), method


def test_query_rejects_unknown_and_inapplicable_methods() -> None:
    with pytest.raises(ValueError, match="method"):
        cx.query("gjkk", cx.Sphere(1), None, cx.Sphere(1), None)
    with pytest.raises(ValueError, match="method"):
        cx.query("vclip", cx.Sphere(1), None, cx.Sphere(1), None)


def _scene_pairs(scene: dict) -> list[tuple[int, cx.Shape, object, cx.Shape, object]]:
    out = []
    shapes = {}
    for name, d in scene["shapes"].items():
        try:
            shapes[name] = cx.shape_from_dict(d)
        except ValueError:
            pass
    for i, p in enumerate(scene["pairs"]):
        a, b = shapes.get(p.get("a")), shapes.get(p.get("b"))
        if a is None or b is None or a.dim != b.dim:
            continue
        if a.dim in (2, 3):
            pa, pb = pose_from_dict(p.get("pose_a"), a.dim), pose_from_dict(p.get("pose_b"), a.dim)
        else:
            pa = pb = None
        out.append((i, a, pa, b, pb))
    return out


def _same(ours: object, theirs: object) -> bool:
    if theirs is None:
        return ours is None
    if isinstance(theirs, list):
        return ours is not None and np.asarray(ours).tolist() == theirs
    return ours == theirs


def _compare(r: cx.QueryResult, line: dict) -> None:
    where = f"pair {line['pair']} {line['algorithm']}"
    assert r.intersecting == line["intersecting"], where
    assert _same(r.distance, line["distance"]), where
    assert _same(r.point_a, line["point_a"]), where
    assert _same(r.point_b, line["point_b"]), where
    assert r.status == line["status"], where
    assert r.iterations == line["iterations"], where
    assert r.tolerance == line["tolerance"], where
    assert _same(r.normal, line["normal"]), where
    if "penetration_depth" in line:
        assert _same(r.depth, line["penetration_depth"]), where
    cert = line["certificate"]
    if cert is None:
        assert r.certificate is None, where
    elif "separating_axis" in cert:
        assert r.certificate is not None and r.certificate.axis is not None, where
        assert r.certificate.axis.tolist() == cert["separating_axis"], where
        assert r.certificate.gap == cert["gap"], where
    else:
        assert r.certificate is not None and r.certificate.point is not None, where
        assert r.certificate.point.tolist() == cert["common_point"], where


def _r(a: np.ndarray) -> list:
    """Values rounded to 8 decimals: the CLI's JSON reader (serde_json without its
    `float_roundtrip` feature) misreads about 3% of 17-digit decimals by one ulp, while numbers
    with at most 15 significant digits it reads exactly (the fast path), like Python."""
    return np.round(a, 8).tolist()


def _seeded_scene(seed: int) -> dict:
    rng = np.random.default_rng(seed)
    shapes = {
        "hull8": {"type": "points", "points": _r(hull_points(rng, 8))},
        "hull32": {"type": "points", "points": _r(hull_points(rng, 32, 0.7))},
        "box": {"type": "box", "half_extents": [0.6, 0.4, 0.3]},
        "sphere": {"type": "sphere", "radius": 0.5},
        "capsule": {"type": "capsule", "a": [0, 0, -0.5], "b": [0, 0, 0.5], "radius": 0.2},
        "cylinder": {"type": "cylinder", "half_height": 0.5, "radius": 0.3},
        "poly": {"type": "polygon", "points": [[1, 0], [0, 1], [-1, 0], [0, -1]]},
        "circle": {"type": "circle", "radius": 0.4},
        "nd": {"type": "points", "points": _r(rng.normal(size=(12, 5)))},
        "nd2": {"type": "points", "points": _r(rng.normal(size=(9, 5)) + 1.5)},
    }
    names3 = ["hull8", "hull32", "box", "sphere", "capsule", "cylinder"]
    pairs = []
    for k in range(60):
        a, b = names3[k % 6], names3[(k // 6) % 6]
        p = random_poses(rng, 2, 1.2)
        pairs.append({
            "a": a, "b": b,
            "pose_a": {"translation": _r(p[0, :3]), "rotation": _r(p[0, 3:])},
            "pose_b": {"translation": _r(p[1, :3]), "rotation": _r(p[1, 3:])},
        })
    for k in range(10):
        t = _r(rng.uniform(-1.5, 1.5, size=2))
        pairs.append({"a": "poly", "b": "circle", "pose_b": {"translation": t, "angle": float(k)}})
    pairs.append({"a": "nd", "b": "nd2"})
    return {"shapes": shapes, "pairs": pairs}


@pytest.mark.parametrize("scene_name", ["all_shapes.json", "analytic.json", "reference_tetrahedra.json", "seeded"])
def test_every_method_agrees_exactly_with_the_cli(cli, scene_name: str) -> None:
    if scene_name == "seeded":
        scene = _seeded_scene(7)
    else:
        scene = json.loads((ROOT / "fixtures" / scene_name).read_text())
    lines = run_cli(cli, scene, "--all")
    by_key = {(ln["pair"], ln["algorithm"]): ln for ln in lines if "algorithm" in ln and "skipped" not in ln and "error" not in ln}
    compared = 0
    for i, a, pa, b, pb in _scene_pairs(scene):
        for m in cx.METHODS:
            line = by_key.get((i, m))
            if line is None:
                continue
            r = cx.query(m, a, pa, b, pb)
            _compare(r, line)
            compared += 1
            if m == "gjk" and a.dim in (2, 3):
                d = cx.distance(a, pa, b, pb)
                assert d.intersecting == line["intersecting"]
                if d.intersecting:
                    # The direct call keeps the computed value (within the touch band).
                    assert d.distance is not None and 0.0 <= d.distance <= d.tolerance
                else:
                    assert d.distance == line["distance"]
            if m == "epa" and a.dim in (2, 3) and line.get("penetration_depth") is not None:
                p = cx.penetration(a, pa, b, pb)
                assert p.depth == line["penetration_depth"]
                assert _same(p.normal, line["normal"])
                assert _same(p.point_a, line["point_a"])
    assert compared >= 10, compared


def test_distance_nd_and_nd_points_in_distance() -> None:
    r = cx.distance_nd([[0, 0, 0, 0]], [[3, 4, 0, 0], [3, 4, 1, 1]])
    assert r.distance == pytest.approx(5.0, abs=1e-12)
    a = cx.Points([[0, 0, 0, 0]])
    b = cx.Points([[3, 4, 0, 0], [3, 4, 1, 1]])
    assert cx.distance(a, None, b, None).distance == pytest.approx(5.0, abs=1e-12)
    assert r.certificate is not None
    assert cx.verify(a, None, b, None, r.certificate)
