"""Compounds of convex parts (`Compound`, `compound_distance`, `compound_intersects`,
`compound_contacts`, `load_mesh(as_="compound")`).

Oracles: brute force over every part pair with the one-pair queries (`distance`, `intersects`,
`penetration`) on the parts placed by poses composed here in numpy (quaternion products, not
the library's composition); the independent certificate checker (`verify`) on the pair a
result names; exact arithmetic for touching parts (integer offsets, half turns); the analytic
extents of boxes, spheres, capsules and point hulls for `aabb`.
"""

from __future__ import annotations

import pathlib
from typing import Any, List, Tuple

import numpy as np
import pytest

import convexity as cx
from conftest import ROOT, hull_points, random_poses

MESHES = ROOT / "fixtures" / "meshes"
IDENTITY = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])
TOL = 1e-9

# ---- poses in numpy (scalar-last quaternions) ---------------------------------------------


def quat_mul(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    (x1, y1, z1, w1), (x2, y2, z2, w2) = p, q
    return np.array([
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
    ])


def rot(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def compose(outer: Any, inner: Any) -> np.ndarray:
    """The pose of `inner` (in the frame placed by `outer`) in the world."""
    o = IDENTITY if outer is None else np.asarray(outer, dtype=float)
    i = IDENTITY if inner is None else np.asarray(inner, dtype=float)
    q = quat_mul(o[3:], i[3:])
    return np.concatenate([o[:3] + rot(o[3:]) @ i[:3], q / np.linalg.norm(q)])


# ---- random compounds ---------------------------------------------------------------------

Part = Tuple[cx.Shape, np.ndarray]


def random_part(rng: np.random.Generator) -> Part:
    kind = rng.integers(4)
    if kind == 0:
        shape: cx.Shape = cx.Box(rng.uniform(0.1, 0.8, size=3))
    elif kind == 1:
        shape = cx.Sphere(float(rng.uniform(0.1, 0.7)))
    elif kind == 2:
        a = rng.uniform(-0.6, 0.6, size=3)
        shape = cx.Capsule(a, -a, float(rng.uniform(0.05, 0.4)))
    else:
        shape = cx.Points(hull_points(rng, int(rng.integers(4, 12)), float(rng.uniform(0.2, 0.8))))
    return shape, random_poses(rng, 1, 1.5)[0]


def random_compound(rng: np.random.Generator) -> Tuple[cx.Compound, List[Part]]:
    """A compound of 2-6 parts; some items are given as bare shapes (at the identity)."""
    parts = [random_part(rng) for _ in range(int(rng.integers(2, 7)))]
    items: List[Any] = []
    for k, (s, p) in enumerate(parts):
        if rng.random() < 0.25:
            parts[k] = (s, IDENTITY)
            items.append(s)
        else:
            items.append((s, p))
    return cx.Compound(items), parts


def brute(fn: Any, a: List[Part], pose_a: Any, b: List[Part], pose_b: Any) -> List[List[Any]]:
    """`fn` on every part pair, each part placed by the numpy-composed pose."""
    return [[fn(sa, compose(pose_a, pa), sb, compose(pose_b, pb)) for sb, pb in b] for sa, pa in a]


def trials(seed: int, n: int) -> Any:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        ca, pa = random_compound(rng)
        cb, pb = random_compound(rng)
        pose_a = random_poses(rng, 1, 1.0)[0]
        pose_b = random_poses(rng, 1, 2.0)[0]
        yield ca, pa, pose_a, cb, pb, pose_b


# ---- queries against brute force ------------------------------------------------------------


def test_distance_is_the_least_part_pair_distance_and_names_that_pair() -> None:
    separated = overlapping = 0
    for ca, pa, pose_a, cb, pb, pose_b in trials(1, 200):
        r = cx.compound_distance(ca, pose_a, cb, pose_b)
        res = brute(cx.distance, pa, pose_a, pb, pose_b)
        d = np.array([[x.distance for x in row] for row in res])
        any_hit = any(x.intersecting for row in res for x in row)
        assert abs(r.distance - d.min()) <= TOL, (r.distance, d.min())
        assert r.part_a is not None and r.part_b is not None
        assert abs(d[r.part_a, r.part_b] - d.min()) <= TOL
        assert r.intersecting is any_hit
        assert 1 <= r.pairs_tested <= len(pa) * len(pb)
        assert r.status in ("converged", "iteration_limit", "degenerate", "numerical")
        # The certificate holds on the pair it names.
        (sa, qa), (sb, qb) = pa[r.part_a], pb[r.part_b]
        assert r.certificate is not None
        assert cx.verify(sa, compose(pose_a, qa), sb, compose(pose_b, qb), r.certificate), (
            cx.certificate_error(sa, compose(pose_a, qa), sb, compose(pose_b, qb), r.certificate)
        )
        assert r.point_a is not None and r.point_b is not None and r.normal is not None
        if any_hit:
            overlapping += 1
            assert r.certificate.kind == "common_point"
        else:
            separated += 1
            assert r.certificate.kind == "separating_axis"
            assert abs(np.linalg.norm(r.point_b - r.point_a) - r.distance) <= TOL
            assert np.allclose(r.normal, (r.point_b - r.point_a) / r.distance, atol=1e-7)
    assert separated >= 40 and overlapping >= 40, (separated, overlapping)


def test_intersects_agrees_with_brute_force_and_is_verified() -> None:
    counts = {True: 0, False: 0}
    for ca, pa, pose_a, cb, pb, pose_b in trials(2, 200):
        r = cx.compound_intersects(ca, pose_a, cb, pose_b)
        res = brute(cx.intersects, pa, pose_a, pb, pose_b)
        hit = {(i, j) for i, row in enumerate(res) for j, x in enumerate(row) if x.intersecting}
        assert r.intersecting is bool(hit)
        assert r.verified is True and r.check_error is None, r.check_error
        counts[bool(hit)] += 1
        for i, j, cert in r.pairs:
            assert cert is not None
            (sa, qa), (sb, qb) = pa[i], pb[j]
            assert cx.verify(sa, compose(pose_a, qa), sb, compose(pose_b, qb), cert)
            assert ((i, j) in hit) is (cert.kind == "common_point")
        if hit:
            assert len(r.pairs) == 1 and r.pairs[0][2] is not None
            assert r.pairs[0][2].kind == "common_point"
        else:
            # Every listed pair is distinct and proved separated.
            assert len({(i, j) for i, j, _ in r.pairs}) == len(r.pairs)
    assert counts[True] >= 40 and counts[False] >= 40, counts


def test_contacts_are_the_intersecting_pairs_with_their_depths() -> None:
    with_contacts = 0
    for ca, pa, pose_a, cb, pb, pose_b in trials(3, 150):
        got = cx.compound_contacts(ca, pose_a, cb, pose_b)
        res = brute(cx.intersects, pa, pose_a, pb, pose_b)
        hit = sorted((i, j) for i, row in enumerate(res) for j, x in enumerate(row) if x.intersecting)
        assert [(c.part_a, c.part_b) for c in got] == hit
        with_contacts += bool(got)
        for c in got:
            (sa, qa), (sb, qb) = pa[c.part_a], pb[c.part_b]
            wa, wb = compose(pose_a, qa), compose(pose_b, qb)
            pen = cx.penetration(sa, wa, sb, wb)
            assert c.depth >= 0.0
            assert pen.depth is not None and abs(c.depth - pen.depth) <= 1e-6, (c.depth, pen.depth)
            assert abs(np.linalg.norm(c.normal) - 1.0) <= 1e-9
            assert np.allclose(c.point_a - c.point_b, c.depth * c.normal, atol=1e-7)
            assert c.certificate is not None and cx.verify(sa, wa, sb, wb, c.certificate)
            k = len(c.manifold)
            assert 1 <= k <= 4 and c.manifold.shape == (k, 3) == c.manifold_points_b.shape
            assert c.manifold_depths.shape == (k,)
            # The deepest manifold point carries the pair's depth; each point pair is
            # separated by its depth along the manifold's normal.
            assert abs(c.manifold_depths.max() - c.depth) <= 1e-6, (c.manifold_depths, c.depth)
            diff = c.manifold - c.manifold_points_b
            assert np.allclose(diff, c.manifold_depths[:, None] * c.manifold_normal, atol=1e-7)
    assert with_contacts >= 30, with_contacts


def test_touching_parts_count_as_intersecting() -> None:
    # Part 1 of A spans x in [1, 2] locally; A is turned half a turn about z and moved to
    # x = 10, so part 1 spans x in [8, 9]. A unit box B at x = 7 spans [6, 8]: they touch.
    a = cx.Compound([cx.Box([1, 1, 1]), (cx.Box([0.5, 0.5, 0.5]), [1.5, 0, 0, 0, 0, 0, 1])])
    pose_a = [10, 0, 0, 0, 0, 1, 0]
    b = cx.Box([1, 1, 1])
    touching = [7, 0, 0, 0, 0, 0, 1]
    r = cx.compound_intersects(a, pose_a, b, touching)
    assert r.intersecting is True and r.verified is True
    assert [(i, j) for i, j, _ in r.pairs] == [(1, 0)]
    d = cx.compound_distance(a, pose_a, b, touching)
    assert d.intersecting is True and d.distance <= TOL and (d.part_a, d.part_b) == (1, 0)
    (c,) = cx.compound_contacts(a, pose_a, b, touching)
    assert (c.part_a, c.part_b) == (1, 0) and 0.0 <= c.depth <= TOL
    # A micron further: separated, with every box-overlapping pair certified.
    apart = [7 - 1e-6, 0, 0, 0, 0, 0, 1]
    r = cx.compound_intersects(a, pose_a, b, apart)
    assert r.intersecting is False and r.verified is True
    assert abs(cx.compound_distance(a, pose_a, b, apart).distance - 1e-6) <= 1e-12
    assert cx.compound_contacts(a, pose_a, b, apart) == []


def test_a_single_shape_answers_as_the_pair_queries() -> None:
    rng = np.random.default_rng(4)
    hits = 0
    for _ in range(60):
        (sa, _), (sb, _) = random_part(rng), random_part(rng)
        pa, pb = random_poses(rng, 2, 0.7)
        d, ref = cx.compound_distance(sa, pa, sb, pb), cx.distance(sa, pa, sb, pb)
        assert abs(d.distance - ref.distance) <= 1e-12 and d.intersecting is ref.intersecting
        assert (d.part_a, d.part_b) == (0, 0) and d.pairs_tested == 1
        i = cx.compound_intersects(sa, pa, sb, pb)
        assert i.intersecting is cx.intersects(sa, pa, sb, pb).intersecting and i.verified
        hits += bool(i.intersecting)
        # A one-part Compound and the bare shape give the same answer, on either side.
        one = cx.Compound([sa])
        assert cx.compound_distance(one, pa, sb, pb).distance == d.distance
        assert cx.compound_distance(sb, pb, one, pa).distance == pytest.approx(d.distance, abs=TOL)
        contacts = cx.compound_contacts(sa, pa, sb, pb)
        assert len(contacts) == int(bool(i.intersecting))
    assert 10 <= hits <= 50, hits


# ---- the Compound class -------------------------------------------------------------------


def extents(shape: cx.Shape, pose: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The exact axis-aligned extents of a posed box, sphere, capsule or point hull."""
    r, t = rot(pose[3:]), pose[:3]
    d = shape.to_dict()
    if d["type"] == "sphere":
        return t - d["radius"], t + d["radius"]
    if d["type"] == "capsule":
        ends = np.array([d["a"], d["b"]]) @ r.T + t
        return ends.min(axis=0) - d["radius"], ends.max(axis=0) + d["radius"]
    v = shape.vertices()
    assert v is not None
    w = v @ r.T + t
    return w.min(axis=0), w.max(axis=0)


def test_len_repr_and_aabb() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        c, parts = random_compound(rng)
        assert len(c) == len(parts) and repr(c) == f"Compound({len(parts)} parts)"
        lo, hi = c.aabb()
        ex = [extents(s, p) for s, p in parts]
        assert np.allclose(lo, np.min([e[0] for e in ex], axis=0), atol=1e-9)
        assert np.allclose(hi, np.max([e[1] for e in ex], axis=0), atol=1e-9)
        assert lo.shape == hi.shape == (3,)
    assert repr(cx.Compound([cx.Sphere(1)])) == "Compound(1 part)"
    # Other pose forms: a 4x4 matrix, a scene-format dict, None.
    m = np.eye(4)
    m[:3, 3] = [5, 0, 0]
    c = cx.Compound([(cx.Sphere(1), m), (cx.Sphere(1), {"translation": [0, 5, 0]}), (cx.Sphere(1), None)])
    lo, hi = c.aabb()
    assert np.allclose(lo, [-1, -1, -1]) and np.allclose(hi, [6, 6, 1])


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ([], r"^parts: must not be empty$"),
        ((), r"^parts: must not be empty$"),
        (cx.Box([1, 1, 1]), r"^parts: expected a sequence of 3D shapes or \(shape, pose\) pairs, found Box$"),
        ("box", r"^parts: expected a sequence .* found str$"),
        (None, r"^parts: expected a sequence .* found NoneType$"),
        ([cx.Box([1, 1, 1]), cx.Circle(1)], r"^parts\[1\]\.shape: compounds are 3D, found a 2D shape$"),
        ([(cx.Polygon([[0, 0], [1, 0], [0, 1]]), None)], r"^parts\[0\]\.shape: compounds are 3D, found a 2D shape$"),
        ([cx.Points(np.eye(4))], r"^parts\[0\]\.shape: compounds are 3D, found a 4-dimensional shape$"),
        ([cx.Box([1, 1, 1]), cx.Box([1, 1, 1]), 3], r"^parts\[2\]: expected a 3D convexity shape or a \(shape, pose\) pair, found int$"),
        ([{"type": "sphere", "radius": 1}], r"^parts\[0\]: expected a 3D convexity shape .* found dict$"),
        ([(cx.Sphere(1),)], r"^parts\[0\]: expected a \(shape, pose\) pair, found a tuple of 1 items$"),
        ([cx.Sphere(1), [cx.Sphere(1), None, None]], r"^parts\[1\]: expected a \(shape, pose\) pair, found a list of 3 items$"),
        ([("sphere", None)], r"^parts\[0\]\.shape: expected a convexity shape, found str$"),
        ([cx.Sphere(1), (cx.Sphere(1), [0, 0, 0, 0, 0, 0, 2])], r"^parts\[1\]\.pose\[3:7\]: the quaternion .* unit norm"),
        ([(cx.Sphere(1), [1, 2, 3])], r"^parts\[0\]\.pose: expected a 3D pose"),
        ([(cx.Sphere(1), [0, np.nan, 0, 0, 0, 0, 1])], r"^parts\[0\]\.pose\[1\]: value NaN is not finite$"),
        ([(cx.Sphere(1), {"angle": 1.0})], r"^parts\[0\]\.pose\.angle: a 3D pose takes"),
    ],
)
def test_bad_parts_are_value_errors_naming_the_field(parts: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cx.Compound(parts)


@pytest.mark.parametrize("fn", [cx.compound_distance, cx.compound_intersects, cx.compound_contacts])
def test_bad_query_arguments_name_the_argument(fn: Any) -> None:
    c = cx.Compound([cx.Sphere(1)])
    with pytest.raises(ValueError, match=r"^a: compounds are 3D, found a 2D shape"):
        fn(cx.Circle(1), None, c, None)
    with pytest.raises(ValueError, match=r"^b: compounds are 3D, found a 2D shape"):
        fn(c, None, cx.Box([1, 1]), None)
    with pytest.raises(ValueError, match=r"^b: compounds are 3D, found a 5-dimensional shape"):
        fn(c, None, cx.Points(np.eye(5)), None)
    with pytest.raises(ValueError, match=r"^a: expected a convexity\.Compound or a 3D convexity shape, found list$"):
        fn([cx.Sphere(1)], None, c, None)
    with pytest.raises(ValueError, match=r"^pose_b\[3:7\]: the quaternion"):
        fn(c, None, c, [0, 0, 0, 0, 0, 0, 3])
    with pytest.raises(ValueError, match=r"^pose_a: expected a 3D pose"):
        fn(c, [0, 0, 0.5], c, None)


# ---- mesh files ---------------------------------------------------------------------------


def test_load_mesh_as_compound_is_the_parts_as_one_body() -> None:
    f = MESHES / "multi.obj"
    parts = cx.load_mesh(f, as_="parts")
    c = cx.load_mesh(f, as_="compound")
    assert isinstance(c, cx.Compound) and len(c) == len(parts) == 3
    verts = np.vstack([p.vertices() for _, p in parts])
    lo, hi = c.aabb()
    assert np.allclose(lo, verts.min(axis=0), atol=1e-9) and np.allclose(hi, verts.max(axis=0), atol=1e-9)
    rng = np.random.default_rng(6)
    probe = cx.Capsule([0, 0, -0.3], [0, 0, 0.3], 0.2)
    hits = 0
    for pose in random_poses(rng, 80, 1.0):
        # Near a vertex of some part: about half the probes touch the file's parts.
        pose[:3] = verts[rng.integers(len(verts))] + rng.normal(scale=0.4, size=3)
        ref = [cx.distance(p, None, probe, pose) for _, p in parts]
        r = cx.compound_distance(c, None, probe, pose)
        assert abs(r.distance - min(x.distance for x in ref)) <= TOL
        hit = any(x.intersecting for x in ref)
        assert cx.compound_intersects(c, None, probe, pose).intersecting is hit
        hits += hit
    assert 5 <= hits <= 75, hits


def test_compound_is_a_valid_as_value_only_for_load_mesh(tmp_path: pathlib.Path) -> None:
    f = MESHES / "multi.obj"
    with pytest.raises(ValueError, match=r"^as_: unknown value \"compund\" \(did you mean \"compound\"\?\); values are: hull, parts, components, mesh, compound$"):
        cx.load_mesh(f, as_="compund")
    with pytest.raises(ValueError, match=r"^as_: expected a string: hull, parts, components, mesh or compound$"):
        cx.load_mesh(f, as_=None)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match=r'^as: "compound" .*load_mesh\(file, as_="compound"\)'):
        cx.shape_from_dict({"type": "mesh", "file": str(f), "as": "compound"})
    with pytest.raises(ValueError, match=r"^as: unknown value \"hul\" .*values are: hull, parts, mesh$"):
        cx.shape_from_dict({"type": "mesh", "file": str(f), "as": "hul"})
    # A file that does not parse is the same error as for "parts".
    with pytest.raises(ValueError, match="face"):
        cx.load_mesh(MESHES / "bad_index.obj", as_="compound")
    with pytest.raises(FileNotFoundError):
        cx.load_mesh(tmp_path / "missing.obj", as_="compound")


def test_parts_read_back_and_pickling_rebuilds_the_same_compound() -> None:
    """`parts` returns the shape objects given, with their validated poses (a bare shape at the
    identity); a pickled compound (as dask ships it to workers) answers every query as the
    original does: the same part pairs and verdicts, numbers within 1e-12 (the poses are
    validated and renormalised again on load, which may move their last bits)."""
    import pickle

    for ca, pa, pose_a, cb, pb, pose_b in trials(31, 40):
        got = ca.parts
        assert len(got) == len(pa)
        for (s, p), (s0, p0) in zip(got, pa):
            assert type(s) is type(s0) and s.to_dict() == s0.to_dict()
            # The same rotation (q or −q) and translation, renormalised by the library.
            q0 = np.asarray(p0[3:], dtype=float) / np.linalg.norm(p0[3:])
            assert p.shape == (7,)
            assert np.allclose(p[:3], p0[:3], atol=1e-12)
            assert min(np.abs(p[3:] - q0).max(), np.abs(p[3:] + q0).max()) <= 1e-12
        back = pickle.loads(pickle.dumps(ca))
        assert isinstance(back, cx.Compound) and len(back) == len(ca)
        d0 = cx.compound_distance(ca, pose_a, cb, pose_b)
        d1 = cx.compound_distance(back, pose_a, cb, pose_b)
        assert (d1.part_a, d1.part_b) == (d0.part_a, d0.part_b)
        assert abs(d1.distance - d0.distance) <= 1e-12
        assert np.allclose(d1.point_a, d0.point_a, rtol=0, atol=1e-12)
        i0 = cx.compound_intersects(ca, pose_a, cb, pose_b)
        i1 = cx.compound_intersects(back, pose_a, cb, pose_b)
        assert (i1.intersecting, i1.verified) == (i0.intersecting, i0.verified)
        assert [p[:2] for p in i1.pairs] == [p[:2] for p in i0.pairs]


def test_a_bare_shape_answers_the_same_on_every_call() -> None:
    """A bare shape is wrapped as a one-part compound once and reused (the wrap is cached on the
    shape): the first, second and later calls, and calls with the shape on either side, give
    the same bits, and match `distance` on the pair."""
    rng = np.random.default_rng(41)
    pts = rng.normal(size=(400, 3))
    hull = cx.Points(pts / np.linalg.norm(pts, axis=1)[:, None])
    arm = cx.Compound([cx.Box([0.2, 0.2, 1.0]), (cx.Sphere(0.3), [0, 0, 1.2, 0, 0, 0, 1])])
    for x in [3.0, 1.5, 1.1, 0.5]:
        pose = [x, 0, 0, 0, 0, 0, 1]
        first = cx.compound_distance(arm, pose, hull, None)
        for _ in range(3):
            again = cx.compound_distance(arm, pose, hull, None)
            assert (again.distance, again.part_a, again.part_b) == (
                first.distance, first.part_a, first.part_b)
        flipped = cx.compound_distance(hull, None, arm, pose)
        assert abs(flipped.distance - first.distance) <= 1e-12
        one = cx.distance(hull, None, hull, [0, 0, 5 + x, 0, 0, 0, 1]).distance
        both = cx.compound_distance(hull, None, hull, [0, 0, 5 + x, 0, 0, 0, 1]).distance
        assert abs(one - both) <= 1e-12
