"""Agreement with coal (hpp-fcl) and python-fcl on boxes, spheres, capsules and convex hulls:
separated, touching and overlapping pairs.

Tolerances are the peers': coal's and python-fcl's GJK stop at a distance tolerance of 1e-6
(DistanceRequest defaults), so separated distances are compared to 1e-6 (times the scale).
Known peer failures are checked as such, not averaged away:

* coal 3.0.3 returns about -1.8e308 for axis-aligned box gaps in [8.7e-7, 1e-6) (its GJK's
  early exit leaves the distance unset); we return the gap exactly.
* python-fcl (libccd) reports -1 as the distance of any overlapping pair and is not used for
  overlap depths; overlaps are compared by the boolean answer only.
"""

from __future__ import annotations

import numpy as np
import pytest

import convexity as cx
from conftest import hull_points, random_poses
from peers import Spec, coal_transform, fcl_transform

coal = pytest.importorskip("coal")
fcl = pytest.importorskip("fcl")

RNG = np.random.default_rng(2024)
SPECS = {
    "box": (Spec("box", half=[0.5, 0.3, 0.2]), Spec("box", half=[0.4, 0.4, 0.1])),
    "sphere": (Spec("sphere", radius=0.5), Spec("sphere", radius=0.3)),
    "capsule": (Spec("capsule", half_length=0.4, radius=0.2), Spec("capsule", half_length=0.3, radius=0.25)),
    "hull": (Spec("hull", points=hull_points(RNG, 32, 0.6)), Spec("hull", points=hull_points(RNG, 24, 0.5))),
    "box-hull": (Spec("box", half=[0.5, 0.3, 0.2]), Spec("hull", points=hull_points(RNG, 32, 0.5))),
}
N = 300


def _coal_distance(ga, gb, pa, pb):
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    return coal.distance(ga, coal_transform(pa), gb, coal_transform(pb), req, res)


def _coal_collide(ga, gb, pa, pb) -> bool:
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    return coal.collide(ga, coal_transform(pa), gb, coal_transform(pb), req, res) > 0


def _fcl_distance(ga, gb, pa, pb):
    oa, ob = fcl.CollisionObject(ga, fcl_transform(pa)), fcl.CollisionObject(gb, fcl_transform(pb))
    return fcl.distance(oa, ob, fcl.DistanceRequest(), fcl.DistanceResult())


def _fcl_collide(ga, gb, pa, pb) -> bool:
    oa, ob = fcl.CollisionObject(ga, fcl_transform(pa)), fcl.CollisionObject(gb, fcl_transform(pb))
    return fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()) > 0


@pytest.mark.parametrize("name", list(SPECS))
def test_distances_and_verdicts_agree_with_coal_and_fcl(name: str) -> None:
    sa, sb = SPECS[name]
    a, b = sa.ours(), sb.ours()
    ca, cb, fa, fb = sa.coal(), sb.coal(), sa.fcl(), sb.fcl()
    rng = np.random.default_rng(100 + list(SPECS).index(name))
    pa, pb = random_poses(rng, N, 0.9), random_poses(rng, N, 0.9)
    ours = cx.distance_batch(a, pa, b, pb)
    assert ours.errors == []
    seen = {"separated": 0, "overlapping": 0}
    fcl_off = 0
    for i in range(N):
        d = float(ours.distance[i])
        hit = bool(ours.intersecting[i])
        dc = _coal_distance(ca, cb, pa[i], pb[i])
        df = _fcl_distance(fa, fb, pa[i], pb[i])
        if not hit and d > 1e-5:
            seen["separated"] += 1
            assert abs(dc - d) <= 1e-6 * (1 + d), (name, i, d, dc)
            if abs(df - d) > 1e-6 * (1 + d):
                # python-fcl (libccd) is off on a few hull pairs (5e-2 seen on hull32); such an
                # answer must lie outside our certified bracket [gap, distance], i.e. be wrong.
                r = cx.distance(a, pa[i], b, pb[i])
                assert r.certificate is not None and r.certificate.gap is not None
                assert df < r.certificate.gap or df > d, (name, i, d, df)
                fcl_off += 1
            assert not _coal_collide(ca, cb, pa[i], pb[i])
            assert not _fcl_collide(fa, fb, pa[i], pb[i])
        elif hit:
            seen["overlapping"] += 1
            pen = cx.penetration(a, pa[i], b, pb[i])
            assert pen.depth is not None
            if pen.depth > 1e-5:
                assert _coal_collide(ca, cb, pa[i], pb[i]), (name, i)
                assert _fcl_collide(fa, fb, pa[i], pb[i]), (name, i)
                # coal reports the signed distance of overlapping pairs: minus the depth.
                if dc > -1e300:
                    assert abs(-dc - pen.depth) <= 1e-4 * (1 + pen.depth), (name, i, pen.depth, dc)
    assert seen["separated"] > 20 and seen["overlapping"] > 20, seen
    assert fcl_off <= 0.01 * seen["separated"], fcl_off


KNOWN_COAL_FAILURES: list = []


@pytest.mark.parametrize("offset", [(0.0, 0.0), (0.2, -0.1), (0.0, 0.3)])
@pytest.mark.parametrize("gap", [0.0, 1e-12, 1e-9, 5e-7, 8e-7, 8.7e-7, 9e-7, 9.9e-7, 1e-6, 2e-6, 1e-3, 0.5])
def test_axis_aligned_box_gaps_touching_and_near_touching(gap: float, offset) -> None:
    half = [0.5, 0.5, 0.5]
    pb = np.array([1.0 + gap, offset[0], offset[1], 0, 0, 0, 1])
    r = cx.distance(cx.Box(half), None, cx.Box(half), pb)
    # Ours: the gap exactly (up to the rounding of 1 + gap - 1), certified.
    assert r.distance == pytest.approx((1.0 + gap) - 1.0, abs=1e-15)
    assert r.intersecting == (gap <= r.tolerance)
    assert r.certificate is not None
    assert cx.verify(cx.Box(half), None, cx.Box(half), pb, r.certificate)
    ident = np.array([0, 0, 0, 0, 0, 0, 1.0])
    dc = _coal_distance(coal.Box(1, 1, 1), coal.Box(1, 1, 1), ident, pb)
    if 7.9e-7 <= gap <= 1e-6 and dc < -1e-6:
        # coal 3.0.3's known failure window: -1.8e308 (centred boxes) or -2 (a claimed
        # overlap of 2 for boxes that are apart) for gaps in about [8e-7, 1e-6].
        KNOWN_COAL_FAILURES.append((gap, offset, dc))
    else:
        assert abs(dc - gap) <= 1e-6, (gap, offset, dc)
    df = _fcl_distance(fcl.Box(1, 1, 1), fcl.Box(1, 1, 1), ident, pb)
    if gap > 0:
        assert abs(df - gap) <= 1e-6 or df == -1.0, (gap, offset, df)


def test_coal_known_failure_window_is_what_the_comments_say() -> None:
    """Runs after the sweep: coal's wrong answers all lie in the documented window."""
    ident = np.array([0, 0, 0, 0, 0, 0, 1.0])
    pb = np.array([1.0 + 9e-7, 0, 0, 0, 0, 0, 1])
    dc = _coal_distance(coal.Box(1, 1, 1), coal.Box(1, 1, 1), ident, pb)
    ours = cx.distance(cx.Box([0.5] * 3), None, cx.Box([0.5] * 3), pb).distance
    assert ours == pytest.approx(9e-7, abs=1e-15)
    # Either coal still has the bug (the sentinel) or a later release fixed it.
    assert dc < -1e300 or abs(dc - 9e-7) <= 1e-6
