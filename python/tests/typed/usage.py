"""A small typed usage example, checked with `mypy --strict` against the stub."""

from __future__ import annotations

import pathlib
from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

import convexity as cx


def gaps(poses: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    robot: cx.Shape = cx.Capsule([0.0, 0.0, -0.5], [0.0, 0.0, 0.5], 0.1)
    obstacle = cx.Box([0.5, 0.5, 0.5])
    r: cx.BatchResult = cx.distance_batch(robot, poses, obstacle, None)
    bad: List[Optional[str]] = r.error
    assert len(bad) == len(r)
    return r.distance


def one() -> Optional[float]:
    a = cx.Points(np.eye(3))
    b = cx.shape_from_dict({"type": "sphere", "radius": 0.5})
    res: cx.QueryResult = cx.distance(a, None, b, [2.0, 0, 0, 0, 0, 0, 1])
    cert: Optional[cx.Certificate] = res.certificate
    if cert is not None and cx.verify(a, None, b, [2.0, 0, 0, 0, 0, 0, 1], cert):
        return res.distance
    pen = cx.query("epa", a, None, b, None)
    inside: npt.NDArray[np.bool_] = cx.contains(np.eye(3), [[0.3, 0.3, 0.3]])
    both = cx.contains(np.eye(3), [[0.3, 0.3, 0.3]], certified=True)
    _ = both[1].all() and inside.any()
    return pen.depth


def meshes(path: str) -> int:
    hull: cx.Points = cx.load_mesh(path, as_="hull")
    parts: List[Tuple[str, cx.Points]] = cx.load_mesh(pathlib.Path(path), as_="parts")
    solid: cx.TriMesh = cx.load_mesh(path, as_="mesh")
    where: str = solid.locate([0.1, 0.1, 0.1])
    held: npt.NDArray[np.bool_] = solid.contains(np.zeros((4, 3)))
    hit: bool = cx.mesh_intersection(solid, solid, pose_b=[1.0, 0, 0, 0, 0, 0, 1])["intersecting"]
    near: cx.MeshShapeDistance = cx.mesh_shape_distance(solid, None, cx.Sphere(0.5), [3.0, 0, 0, 0, 0, 0, 1])
    meets: cx.MeshShapeIntersection = cx.mesh_shape_intersects(solid, None, cx.Box([1.0, 1.0, 1.0]), None)
    axes: List[Tuple[int, Optional[cx.Certificate]]] = meets.separated
    tri: Optional[int] = near.triangle
    gap = near.distance + len(axes) + (tri or 0) + int(meets.verified)
    return hull.dim + len(parts) + len(solid) + len(where) + int(held.sum()) + int(hit) + int(gap)


def compounds(path: str) -> float:
    arm = cx.Compound([cx.Box([1.0, 1.0, 1.0]), (cx.Sphere(0.5), [2.0, 0, 0, 0, 0, 0, 1])])
    d: cx.CompoundDistance = cx.compound_distance(arm, None, cx.Sphere(1.0), [5.0, 0, 0, 0, 0, 0, 1])
    hit: cx.CompoundIntersection = cx.compound_intersects(arm, None, arm, np.eye(4))
    contacts: List[cx.PartContact] = cx.compound_contacts(arm, None, cx.Box([1.0, 1.0, 1.0]), None)
    lo, hi = arm.aabb()
    loaded: cx.Compound = cx.load_mesh(path, as_="compound")
    first: Optional[int] = d.part_a
    checked: bool = hit.verified and all(c is not None for _, _, c in hit.pairs)
    depths = sum(float(c.manifold_depths.max()) for c in contacts)
    return d.distance + depths + float(hi[0] - lo[0]) + len(loaded) + (first or 0) + int(checked)
