"""n dimensions: separation of labelled clouds, containment, distance; against analytic cases
and the library's own certificate checks."""

from __future__ import annotations

import numpy as np
import pytest

import convexity as cx


def test_separate_two_clouds_in_5d_max_margin() -> None:
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, size=(200, 5))
    a[:, 0] = rng.uniform(-2, -0.5, size=200)
    b = rng.uniform(-1, 1, size=(150, 5))
    b[:, 0] = rng.uniform(0.5, 2, size=150)
    a[0, 0], b[0, 0] = -0.5, 0.5  # the closest pair fixes the margin: 0.5 at least
    X = np.vstack([a, b])
    y = np.array(["red"] * 200 + ["blue"] * 150)
    s = cx.separate(X, y)
    assert s["separable"] is True
    assert s["classes"] == ("blue", "red")  # sorted: A is "blue"
    n, c = s["normal"], s["offset"]
    # normal points toward the second class ("red", the x < 0 cloud).
    assert (X[y == "blue"] @ n <= c - s["margin"] + 1e-9).all()
    assert (X[y == "red"] @ n >= c + s["margin"] - 1e-9).all()
    assert s["margin"] >= 0.5 - 1e-9
    cert = s["certificate"]
    assert cert.kind == "separating_axis" and cert.gap > 0


def test_separate_overlapping_labels_give_a_common_point() -> None:
    X = np.array([[0, 0], [2, 2], [0, 2], [2, 0]], dtype=float)
    s = cx.separate(X, [0, 0, 1, 1])
    assert s["separable"] is False
    np.testing.assert_allclose(s["common_point"], [1, 1], atol=1e-9)


def test_contains_matches_the_analytic_simplex() -> None:
    rng = np.random.default_rng(8)
    d = 6
    hull = np.vstack([np.zeros(d), np.eye(d)])  # the standard simplex: x >= 0, sum x <= 1
    q = rng.uniform(-0.2, 0.6, size=(500, d))
    want = (q >= 0).all(axis=1) & (q.sum(axis=1) <= 1)
    margin = np.minimum(q.min(axis=1), 1 - q.sum(axis=1))
    got = cx.contains(hull, q)
    clear = np.abs(margin) > 1e-7
    assert (got[clear] == want[clear]).all()
    inside, certified = cx.contains(hull, q, certified=True)
    assert certified.all() and (inside == got).all()
    assert bool(cx.contains(hull, np.full(d, 0.1))) is True


def test_distance_nd_against_an_analytic_gap() -> None:
    rng = np.random.default_rng(9)
    for d in (1, 4, 10, 40):
        a = rng.uniform(0, 1, size=(50, d))
        b = rng.uniform(0, 1, size=(60, d))
        b[:, 0] += 3.0
        a[0, 0], b[0, 0] = 1.0, 3.0
        a[0, 1:] = b[0, 1:]
        r = cx.distance_nd(a, b)
        assert r.distance == pytest.approx(2.0, abs=1e-9)
        assert r.intersecting is False
        assert r.certificate is not None
        assert cx.verify(cx.Points(a), None, cx.Points(b), None, r.certificate) if d not in (2, 3) else True
