"""Batches agree with the single calls (bit for bit outside the SIMD lane path), on every thread
count and layout."""

from __future__ import annotations

import numpy as np
import pytest

import convexity as cx
from conftest import hull_points, random_poses


def _sets(rng: np.random.Generator):
    return {
        "box": (cx.Box([0.5, 0.3, 0.2]), cx.Box([0.4, 0.4, 0.1])),
        "sphere": (cx.Sphere(0.5), cx.Sphere(0.3)),
        "hull32": (cx.Points(hull_points(rng, 32, 0.6)), cx.Points(hull_points(rng, 32, 0.5))),
        "capsule": (cx.Capsule([0, 0, -0.5], [0, 0, 0.5], 0.2), cx.Cylinder(0.4, 0.3)),
    }


@pytest.mark.parametrize("name", ["box", "sphere", "hull32", "capsule"])
def test_batch_equals_single_calls_bit_for_bit(name: str) -> None:
    """Pairs of boxes (and of hulls of at most 16 points) run through the library's SIMD lanes
    (`convexity::batch`), which give the scalar call's verdict and status and its numbers to
    rounding (iterations: their own count); every other pair runs the scalar call itself, bit
    for bit."""
    rng = np.random.default_rng(11)
    a, b = _sets(rng)[name]
    lanes = name == "box"

    def same(x, y, exact: bool) -> bool:
        if not exact:
            return bool(np.allclose(x, y, rtol=1e-12, atol=1e-12))
        return bool(np.all(np.asarray(x) == np.asarray(y)))

    pa, pb = random_poses(rng, 300, 1.0), random_poses(rng, 300, 1.0)
    for batch, single in [
        (cx.distance_batch, cx.distance),
        (cx.intersects_batch, cx.intersects),
        (cx.penetration_batch, cx.penetration),
    ]:
        r = batch(a, pa, b, pb)
        assert len(r) == 300 and r.errors == []
        exact = not lanes or batch is cx.penetration_batch  # EPA: always the scalar call
        inter = 0
        for i in range(300):
            s = single(a, pa[i], b, pb[i])
            assert bool(r.intersecting[i]) == (s.intersecting is True)
            inter += s.intersecting is True
            assert r.status[i] == s.status
            # Lane rows count the lane GJK's own steps (no early bounding-sphere exit).
            assert r.iterations[i] == s.iterations if exact else 0 < r.iterations[i] <= 128
            if batch is not cx.intersects_batch:
                assert s.point_a is not None and s.normal is not None
                assert same(r.distance[i], s.distance, exact), (i, r.distance[i], s.distance)
                assert same(r.point_a[i], s.point_a, exact), (i, r.point_a[i], s.point_a)
                assert same(r.normal[i], s.normal, exact), (i, r.normal[i], s.normal)
            if batch is cx.penetration_batch:
                assert r.depth[i] == s.depth
        assert 0 < inter < 300  # both outcomes are exercised


def test_thread_counts_and_layouts_give_identical_arrays() -> None:
    rng = np.random.default_rng(12)
    a = cx.Points(hull_points(rng, 16))
    b = cx.Box([0.5, 0.5, 0.5])
    pb = random_poses(rng, 2000, 2.0)
    r_all = cx.distance_batch(a, None, b, pb)
    r_one = cx.distance_batch(a, None, b, pb, threads=1)
    assert r_all.distance.tobytes() == r_one.distance.tobytes()
    assert r_all.point_b.tobytes() == r_one.point_b.tobytes()
    # threads=1 runs on the calling thread, other counts on a pool kept between calls: the same
    # arrays either way, call after call, for every query kind (with a bad row among them).
    bad = pb.copy()
    bad[7, 0] = np.nan
    for f in (cx.distance_batch, cx.intersects_batch, cx.penetration_batch):
        want = f(a, None, b, bad, threads=1)
        assert want.error[7] is not None and want.error[6] is None
        for t in (1, 3, 3, 2, None):
            got = f(a, None, b, bad, threads=t)
            assert got.status.tobytes() == want.status.tobytes(), (f, t)
            assert got.error == want.error, (f, t)
            for name in ("distance", "depth", "intersecting", "point_a"):
                if hasattr(want, name) and isinstance(getattr(want, name), np.ndarray):
                    assert getattr(got, name).tobytes() == getattr(want, name).tobytes(), (f, t, name)
    # A list of N shapes, (N, 4, 4) matrices, and an explicit identity pose for A.
    mats = np.zeros((2000, 4, 4))
    for i, p in enumerate(pb):
        x, y, z, w = p[3:]
        mats[i, :3, :3] = [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
        mats[i, :3, 3] = p[:3]
        mats[i, 3, 3] = 1.0
    r_list = cx.distance_batch([a] * 2000, [0, 0, 0, 0, 0, 0, 1.0], [b] * 2000, mats)
    assert r_list.errors == []
    np.testing.assert_allclose(r_list.distance, r_all.distance, atol=1e-12)
    assert (r_list.intersecting == r_all.intersecting).mean() > 0.999


def test_2d_batches() -> None:
    poses = np.array([[3.0, 0.0, 0.0], [1.0, 0.0, 0.5], [0.0, 5.0, 1.0]])
    r = cx.distance_batch(cx.Circle(1.0), None, cx.Box([1, 1]), poses)
    assert r.point_a.shape == (3, 2)
    for i in range(3):
        s = cx.distance(cx.Circle(1.0), None, cx.Box([1, 1]), poses[i])
        assert r.distance[i] == s.distance


def test_empty_batch_is_empty() -> None:
    r = cx.distance_batch(cx.Sphere(1), None, cx.Sphere(1), np.zeros((0, 7)))
    assert len(r) == 0 and r.distance.shape == (0,) and r.point_a.shape == (0, 3)


def test_batch_releases_the_gil() -> None:
    """A Python thread keeps running while a long batch runs in another thread."""
    import threading
    import time

    rng = np.random.default_rng(13)
    a = cx.Points(hull_points(rng, 64))
    pb = random_poses(rng, 400_000, 2.0)
    done = threading.Event()
    ticks = []

    def work() -> None:
        cx.distance_batch(a, None, a, pb, threads=1)
        done.set()

    t = threading.Thread(target=work)
    t0 = time.perf_counter()
    t.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    elapsed = time.perf_counter() - t0
    # With the GIL held, the loop could not tick during the batch.
    assert elapsed > 0.05
    assert len(ticks) > 10


def test_mixed_shape_lists_go_through_one_table_row_by_row() -> None:
    """A list of shapes of several kinds (some objects repeated, some equal but distinct) with a
    bad row among them: each row equals the single call on its own shapes (lane rows to
    rounding), the bad row alone is marked."""
    rng = np.random.default_rng(14)
    box = cx.Box([0.5, 0.3, 0.2])
    kinds = [
        box,
        cx.Sphere(0.4),
        cx.Points(hull_points(rng, 8, 0.5)),
        cx.Points(hull_points(rng, 32, 0.5)),
        cx.Capsule([0, 0, -0.3], [0, 0, 0.3], 0.2),
    ]
    n = 600
    pick_a, pick_b = rng.integers(len(kinds), size=n), rng.integers(len(kinds), size=n)
    shapes_a = [kinds[k] for k in pick_a]
    shapes_b = [kinds[k] if i % 3 else cx.Box([0.5, 0.3, 0.2]) for i, k in enumerate(pick_b)]
    pa, pb = random_poses(rng, n, 1.0), random_poses(rng, n, 1.0)
    pb[17, 3:] = [0.0, 0.0, 0.0, 3.0]
    for batch, single in [(cx.distance_batch, cx.distance), (cx.intersects_batch, cx.intersects)]:
        r = batch(shapes_a, pa, shapes_b, pb)
        assert [i for i, _ in r.errors] == [17]
        assert r.error[17] is not None and r.error[17].startswith("poses_b[17][3:7]")
        inter = 0
        for i in range(n):
            if i == 17:
                continue
            s = single(shapes_a[i], pa[i], shapes_b[i], pb[i])
            assert bool(r.intersecting[i]) == (s.intersecting is True), i
            inter += s.intersecting is True
            assert r.status[i] == s.status, i
            if pick_a[i] not in (0, 2) and pick_b[i] not in (0, 2) and i % 3:  # not lane rows
                assert r.iterations[i] == s.iterations, i
            if batch is cx.distance_batch:
                assert s.distance is not None and s.point_b is not None
                assert abs(r.distance[i] - s.distance) <= 1e-12, (i, r.distance[i], s.distance)
                np.testing.assert_allclose(r.point_b[i], s.point_b, rtol=1e-12, atol=1e-12)
        assert 50 < inter < n - 50


def test_2d_batches_with_matrix_poses_equal_single_calls() -> None:
    rng = np.random.default_rng(15)
    n = 200
    angles = rng.uniform(-np.pi, np.pi, n)
    mats = np.zeros((n, 3, 3))
    mats[:, 0, 0], mats[:, 0, 1] = np.cos(angles), -np.sin(angles)
    mats[:, 1, 0], mats[:, 1, 1] = np.sin(angles), np.cos(angles)
    mats[:, :2, 2] = rng.uniform(-2.5, 2.5, (n, 2))
    mats[:, 2, 2] = 1.0
    a, b = cx.Polygon([[0, 0], [1, 0], [0.2, 0.9]]), cx.Box([0.5, 0.25])
    for batch, single in [(cx.distance_batch, cx.distance), (cx.penetration_batch, cx.penetration)]:
        r = batch(a, None, b, mats)
        assert r.errors == [] and r.point_a.shape == (n, 2)
        for i in range(n):
            s = single(a, None, b, mats[i])
            assert r.distance[i] == s.distance and r.iterations[i] == s.iterations
            assert (r.normal[i] == s.normal).all() and r.status[i] == s.status
        assert 0 < r.intersecting.sum() < n
