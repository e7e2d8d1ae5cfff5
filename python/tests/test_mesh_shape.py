"""A closed mesh (the solid it bounds) against a convex shape: `mesh_shape_distance` and
`mesh_shape_intersects`.

Oracles: the analytic distance from a point to the L-shaped prism (the union of two boxes) for
spheres; for other shapes, the same union through `cx.distance` on two `cx.Box` bars (another
code path: no mesh, no tree); brute force over every triangle with `cx.distance` (the pruning
of the tree must not change the minimum); metamorphic properties (one rigid motion applied to
both sides, offsets of 1e6); the independent check of every boolean answer.
"""

from __future__ import annotations

import numpy as np
import pytest

import convexity as cx
from conftest import random_quat
from test_compound import compose
from test_trimesh import L_TRIS, L_VERTS, in_l

# The L as two boxes: [0, 2] x [0, 1] x [0, 1] and [0, 1] x [0, 2] x [0, 1].
BARS = [((1.0, 0.5, 0.5), (1.0, 0.5, 0.5)), ((0.5, 1.0, 0.5), (0.5, 1.0, 0.5))]


@pytest.fixture(scope="module")
def l_mesh() -> cx.TriMesh:
    return cx.TriMesh(L_VERTS, L_TRIS)


def point_to_l(p: np.ndarray) -> float:
    """Euclidean distance from `p` to the closed L solid (0 inside)."""
    d = []
    for centre, half in BARS:
        q = np.maximum(np.abs(p - np.array(centre)) - np.array(half), 0.0)
        d.append(float(np.linalg.norm(q)))
    return min(d)


def random_shape(rng: np.random.Generator) -> cx.Shape:
    k = rng.integers(4)
    if k == 0:
        return cx.Box(rng.uniform(0.05, 0.6, size=3))
    if k == 1:
        d = rng.normal(size=3)
        d *= rng.uniform(0.0, 0.5) / np.linalg.norm(d)
        return cx.Capsule(-d, d, rng.uniform(0.02, 0.4))
    if k == 2:
        return cx.Points(rng.normal(size=(int(rng.integers(1, 10)), 3)) * 0.3)
    return cx.Sphere(rng.uniform(0.02, 0.6))


def triangles_of(mesh: cx.TriMesh) -> list[cx.Triangle]:
    v = mesh.vertices
    return [cx.Triangle(v[a], v[b], v[c]) for a, b, c in mesh.triangles]


def test_sphere_distance_matches_the_analytic_l(l_mesh: cx.TriMesh) -> None:
    rng = np.random.default_rng(7)
    inside = outside = notch = 0
    for _ in range(400):
        c = rng.uniform(-1.0, 3.0, size=3)
        r = float(rng.uniform(0.01, 0.5))
        d = cx.mesh_shape_distance(l_mesh, None, cx.Sphere(r), [*c, 0, 0, 0, 1])
        want = max(point_to_l(c) - r, 0.0)
        if in_l(c[None, :])[0]:
            inside += 1
            assert d.distance == 0.0 and d.intersecting is True and d.triangle is None
            assert d.certificate is not None and d.certificate.kind == "common_point"
            np.testing.assert_allclose(d.certificate.point, c, rtol=0, atol=1e-12)
            continue
        if want > 1e-6:
            outside += 1
            assert d.intersecting is False, (c, r)
            assert abs(d.distance - want) <= 1e-9, (c, r, d.distance, want)
            # The witness points are r apart along the normal, on the surface and the sphere.
            assert abs(point_to_l(d.point_mesh)) <= 1e-9
            assert abs(np.linalg.norm(d.point_shape - c) - r) <= 1e-9
            np.testing.assert_allclose(d.point_shape - d.point_mesh, d.normal * d.distance, atol=1e-9)
            assert d.certificate.kind == "separating_axis" and d.certificate.gap > 0
            if 1 < c[0] < 2 and 1 < c[1] < 2 and 0 < c[2] < 1:
                notch += 1
        else:
            assert d.intersecting is True and d.distance <= 1e-9
    assert inside > 20 and outside > 200 and notch > 5, (inside, outside, notch)


def test_any_shape_agrees_with_the_two_bars_and_with_every_triangle(l_mesh: cx.TriMesh) -> None:
    rng = np.random.default_rng(11)
    tris = triangles_of(l_mesh)
    # One rigid motion for everything: the answers must not depend on where the L stands.
    pose_m = [*rng.uniform(-5, 5, size=3), *random_quat(rng, 1)[0]]
    apart = hit = 0
    for case in range(200):
        shape = random_shape(rng)
        local = np.array([*rng.uniform(-0.5, 2.5, size=3), *random_quat(rng, 1)[0]])
        # B's world pose: pose_m ∘ local (rotate the translation, compose the quaternions).
        world = compose(pose_m, local)
        d = cx.mesh_shape_distance(l_mesh, pose_m, shape, world)
        i = cx.mesh_shape_intersects(l_mesh, pose_m, shape, world)
        assert i.verified, (case, i.check_error)
        bars = [cx.distance(cx.Box(h), compose(pose_m, [*c, 0, 0, 0, 1]), shape, world) for c, h in BARS]
        near = min(b.distance for b in bars)
        if all(b.intersecting is False for b in bars) and near > 1e-6:
            apart += 1
            assert i.intersecting is False and d.intersecting is False, case
            assert abs(d.distance - near) <= 1e-9 * max(1.0, near), (case, d.distance, near)
            brute = min(cx.distance(t, pose_m, shape, world).distance for t in tris)
            assert abs(d.distance - brute) <= 1e-12 * max(1.0, brute), (case, d.distance, brute)
        elif any(b.intersecting is True for b in bars):
            hit += 1
            assert i.intersecting is True and d.intersecting is True, case
            assert d.distance <= 1e-9, case
            assert i.certificate is not None and i.certificate.kind == "common_point"
    assert apart > 40 and hit > 40, (apart, hit)


def test_touching_and_gaps_across_the_tolerance(l_mesh: cx.TriMesh) -> None:
    r = 0.25
    # Above the top face (z = 1) of the long bar, at a point of the face's interior.
    base = np.array([1.5, 0.5, 1.0 + r])
    touching = cx.mesh_shape_intersects(l_mesh, None, cx.Sphere(r), [*base, 0, 0, 0, 1])
    assert touching.intersecting is True and touching.verified
    assert cx.mesh_shape_distance(l_mesh, None, cx.Sphere(r), [*base, 0, 0, 0, 1]).intersecting is True
    previous = -1.0
    for gap in [1e-12, 1e-10, 5e-9, 1e-8, 2e-8, 1e-6, 1e-3]:
        d = cx.mesh_shape_distance(l_mesh, None, cx.Sphere(r), [*(base + [0, 0, gap]), 0, 0, 0, 1])
        i = cx.mesh_shape_intersects(l_mesh, None, cx.Sphere(r), [*(base + [0, 0, gap]), 0, 0, 0, 1])
        assert i.verified, (gap, i.check_error)
        assert d.distance >= previous  # monotone in the gap
        previous = d.distance
        assert abs(d.distance - gap) <= 1e-12 + 1e-9 * gap or d.intersecting, (gap, d.distance)
        if gap >= 1e-6:
            assert i.intersecting is False and d.intersecting is False
            assert abs(d.distance - gap) <= 1e-12


def test_offsets_of_1e6_and_a_shape_holding_the_whole_mesh(l_mesh: cx.TriMesh) -> None:
    far = [1e6, -1e6, 1e6, 0, 0, 0, 1]
    for c, r in [((3.0, 3.0, 0.5), 0.5), ((1.5, 1.5, 0.5), 0.2), ((0.5, 0.5, 0.5), 0.1)]:
        here = cx.mesh_shape_distance(l_mesh, None, cx.Sphere(r), [*c, 0, 0, 0, 1])
        there = cx.mesh_shape_distance(l_mesh, far, cx.Sphere(r), [c[0] + 1e6, c[1] - 1e6, c[2] + 1e6, 0, 0, 0, 1])
        assert abs(here.distance - there.distance) <= 1e-9, (c, here.distance, there.distance)
        assert here.intersecting == there.intersecting
        assert cx.mesh_shape_intersects(l_mesh, far, cx.Sphere(r), [c[0] + 1e6, c[1] - 1e6, c[2] + 1e6, 0, 0, 0, 1]).verified
    # A ball 1e4 times the L's size around it: every triangle inside the ball.
    big = cx.mesh_shape_intersects(l_mesh, None, cx.Sphere(2e4), [1.0, 1.0, 0.5, 0, 0, 0, 1])
    assert big.intersecting is True and big.verified and big.triangle is not None
    assert cx.mesh_shape_distance(l_mesh, None, cx.Sphere(2e4), [1.0, 1.0, 0.5, 0, 0, 0, 1]).distance <= 1e-6


def test_bad_arguments_are_named_errors(l_mesh: cx.TriMesh) -> None:
    ball = cx.Sphere(1.0)
    with pytest.raises(ValueError, match=r"^pose_mesh\[2\]: value NaN is not finite"):
        cx.mesh_shape_distance(l_mesh, [0, 0, float("nan"), 0, 0, 0, 1], ball, None)
    with pytest.raises(ValueError, match=r"^pose_shape\[3:7\]: the quaternion"):
        cx.mesh_shape_intersects(l_mesh, None, ball, [0, 0, 0, 0, 0, 0, 2])
    with pytest.raises(ValueError, match=r"^shape: meshes are 3D, found a 2D shape$"):
        cx.mesh_shape_distance(l_mesh, None, cx.Circle(1.0), None)
    with pytest.raises(ValueError, match=r"^shape: expected a convexity shape, found TriMesh"):
        cx.mesh_shape_intersects(l_mesh, None, l_mesh, None)
    with pytest.raises(TypeError, match="mesh"):
        cx.mesh_shape_distance(ball, None, ball, None)  # type: ignore[arg-type]
