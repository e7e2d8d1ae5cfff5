"""The same shapes and poses in coal (hpp-fcl) and python-fcl, for the agreement tests and the
benchmark. Box and capsule constructors there take full lengths; hulls are triangulated by
coal's qhull (python-fcl takes those triangles as its faces)."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

import convexity as cx


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrix of a unit quaternion [x, y, z, w]."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def hull_triangles(points: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Vertices and triangles of the hull of `points` (coal's qhull)."""
    import coal

    v = coal.StdVec_Vec3s()
    for p in points:
        v.append(np.asarray(p, dtype=float))
    c = coal.Convex.convexHull(v, True, "Qt")
    verts = np.array([c.points(i) for i in range(c.num_points)]) if callable(c.points) else np.array(c.points)
    tris = []
    for k in range(c.num_polygons):
        t = c.polygons(k)
        tris.append([t[j] for j in range(t.size())])
    return verts, np.array(tris, dtype=int)


class Spec:
    """One shape described once and built for each library."""

    def __init__(self, kind: str, **kw: Any) -> None:
        self.kind = kind
        self.kw = kw

    def ours(self) -> cx.Shape:
        k = self.kw
        if self.kind == "box":
            return cx.Box(k["half"])
        if self.kind == "sphere":
            return cx.Sphere(k["radius"])
        if self.kind == "capsule":
            return cx.Capsule([0, 0, -k["half_length"]], [0, 0, k["half_length"]], k["radius"])
        return cx.Points(k["points"])

    def coal(self) -> Any:
        import coal

        k = self.kw
        if self.kind == "box":
            return coal.Box(*(2.0 * np.asarray(k["half"], dtype=float)))
        if self.kind == "sphere":
            return coal.Sphere(k["radius"])
        if self.kind == "capsule":
            return coal.Capsule(k["radius"], 2.0 * k["half_length"])
        v = coal.StdVec_Vec3s()
        for p in k["points"]:
            v.append(np.asarray(p, dtype=float))
        return coal.Convex.convexHull(v, False, None)

    def fcl(self) -> Any:
        import fcl

        k = self.kw
        if self.kind == "box":
            return fcl.Box(*(2.0 * np.asarray(k["half"], dtype=float)))
        if self.kind == "sphere":
            return fcl.Sphere(k["radius"])
        if self.kind == "capsule":
            return fcl.Capsule(k["radius"], 2.0 * k["half_length"])
        verts, tris = hull_triangles(k["points"])
        faces = np.hstack([np.full((len(tris), 1), 3), tris]).ravel()
        return fcl.Convex(verts, len(tris), faces)


def coal_transform(p: np.ndarray) -> Any:
    import coal

    return coal.Transform3s(quat_to_matrix(p[3:]), np.asarray(p[:3], dtype=float))


def fcl_transform(p: np.ndarray) -> Any:
    import fcl

    x, y, z, w = p[3:]
    return fcl.Transform(np.array([w, x, y, z]), np.asarray(p[:3], dtype=float))
