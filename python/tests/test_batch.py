"""Batches agree bit for bit with the single calls, on every thread count and layout."""

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
    rng = np.random.default_rng(11)
    a, b = _sets(rng)[name]
    pa, pb = random_poses(rng, 300, 1.0), random_poses(rng, 300, 1.0)
    for batch, single in [
        (cx.distance_batch, cx.distance),
        (cx.intersects_batch, cx.intersects),
        (cx.penetration_batch, cx.penetration),
    ]:
        r = batch(a, pa, b, pb)
        assert len(r) == 300 and r.errors == []
        inter = 0
        for i in range(300):
            s = single(a, pa[i], b, pb[i])
            assert bool(r.intersecting[i]) == (s.intersecting is True)
            inter += s.intersecting is True
            assert r.status[i] == s.status
            assert r.iterations[i] == s.iterations
            if batch is not cx.intersects_batch:
                assert s.point_a is not None and s.normal is not None
                assert r.distance[i] == s.distance
                assert (r.point_a[i] == s.point_a).all()
                assert (r.normal[i] == s.normal).all()
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
