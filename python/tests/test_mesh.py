"""Mesh files (`load_mesh`, the scene format's `mesh` shape) and the shape dict's field checks.

Oracles: the vertices written into the files (analytic hulls and distances), the CLI on the
repository's mesh scene (the same files read by the same library through the scene format),
and the `Points` shape of the same vertices.
"""

from __future__ import annotations

import json
import math
import pathlib
import subprocess

import numpy as np
import pytest

import convexity as cx
from conftest import ROOT, pose_from_dict

MESHES = ROOT / "fixtures" / "meshes"

TET_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
TET = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)


def _rows(shape: cx.Shape) -> set[tuple[float, ...]]:
    return {tuple(r) for r in shape.to_dict()["points"]}


def _write(tmp_path: pathlib.Path, name: str, text: str) -> pathlib.Path:
    f = tmp_path / name
    f.write_text(text)
    return f


def test_hull_is_the_points_of_the_file(tmp_path: pathlib.Path) -> None:
    f = _write(tmp_path, "tet.obj", TET_OBJ)
    for path in (f, str(f)):
        h = cx.load_mesh(path, as_="hull")
        assert isinstance(h, cx.Points)
        assert _rows(h) == {tuple(r) for r in TET}
    # The same answers as the Points shape of the vertices: a ball at (2, 0, 0), radius 0.5,
    # is 0.5 from the vertex (1, 0, 0).
    h = cx.load_mesh(f, as_="hull")
    pb = [2, 0, 0, 0, 0, 0, 1]
    d = cx.distance(h, None, cx.Sphere(0.5), pb)
    assert d.distance == pytest.approx(0.5, abs=1e-12)
    assert d.intersecting is False
    assert cx.verify(h, None, cx.Sphere(0.5), pb, d.certificate) is True
    same = cx.distance(cx.Points(TET), None, cx.Sphere(0.5), pb)
    assert d.distance == same.distance


def test_every_format_reads_the_same_octahedron() -> None:
    unit = {(s * e[0], s * e[1], s * e[2]) for e in np.eye(3) for s in (-1.0, 1.0)}
    for name in ("octahedron_ascii.stl", "octahedron_binary.ply"):
        h = cx.load_mesh(MESHES / name, as_="hull")
        got = {tuple(float(x) for x in r) for r in h.to_dict()["points"]}
        assert got == unit, name


def test_parts_are_named_convex_pieces() -> None:
    parts = cx.load_mesh(MESHES / "multi.obj", as_="parts")
    names = [n for n, _ in parts]
    assert names[:2] == ["cube", "tetra"], names
    assert len(parts) == 3
    cube = dict(parts)["cube"]
    assert _rows(cube) == {(x, y, z) for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)}
    # A ball 0.25 above the cube's top face centre is 0.25 away; the tetrahedron is far.
    pb = [0.5, 0.5, 1.5, 0, 0, 0, 1]
    assert cx.distance(cube, None, cx.Sphere(0.25), pb).distance == pytest.approx(0.25, abs=1e-12)
    tetra = dict(parts)["tetra"]
    assert cx.distance(tetra, None, cx.Sphere(0.25), pb).distance > 1.0
    # Components ignore the groups: still three pieces here (the parts are disjoint).
    assert len(cx.load_mesh(MESHES / "multi.obj", as_="components")) == 3


def test_the_hull_of_the_parts_is_the_hull_of_the_file() -> None:
    h = cx.load_mesh(MESHES / "multi.obj", as_="hull")
    parts = cx.load_mesh(MESHES / "multi.obj", as_="parts")
    union = set().union(*(_rows(p) for _, p in parts))
    assert _rows(h) == union


def test_unknown_readings_are_refused(tmp_path: pathlib.Path) -> None:
    f = _write(tmp_path, "tet.obj", TET_OBJ)
    with pytest.raises(ValueError, match=r'did you mean "hull"'):
        cx.load_mesh(f, as_="hul")
    with pytest.raises(ValueError, match="as_"):
        cx.load_mesh(f, as_=3)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        cx.load_mesh(f)  # type: ignore[call-overload]


def test_file_problems_name_the_file_and_line(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.obj"):
        cx.load_mesh(tmp_path / "missing.obj", as_="hull")
    with pytest.raises(ValueError, match=r"bad_number\.obj: line 4"):
        cx.load_mesh(MESHES / "bad_number.obj", as_="hull")
    with pytest.raises(ValueError, match=r"nan\.obj"):
        cx.load_mesh(MESHES / "nan.obj", as_="hull")
    with pytest.raises(ValueError, match="extension"):
        cx.load_mesh(MESHES / "not_a_mesh.txt", as_="hull")
    with pytest.raises(ValueError, match="face"):
        cx.load_mesh(MESHES / "bad_index.obj", as_="parts")


def test_scene_dict_mesh_hull_and_refusals(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = _write(tmp_path, "tet.obj", TET_OBJ)
    s = cx.shape_from_dict({"type": "mesh", "file": str(f), "as": "hull"})
    assert _rows(s) == {tuple(r) for r in TET}
    # A relative file is read from the current directory.
    monkeypatch.chdir(tmp_path)
    assert _rows(cx.shape_from_dict({"type": "mesh", "file": "tet.obj", "as": "hull"})) == _rows(s)
    # The loaded shape keeps its points, not the file: it round-trips without the file.
    assert _rows(cx.shape_from_dict(s.to_dict())) == _rows(s)
    with pytest.raises(ValueError, match=r"as: .*load_mesh"):
        cx.shape_from_dict({"type": "mesh", "file": "tet.obj", "as": "parts"})
    with pytest.raises(ValueError, match=r'as: "mesh" .*not a convex shape.*load_mesh\(file, as_="mesh"\)'):
        cx.shape_from_dict({"type": "mesh", "file": "tet.obj", "as": "mesh"})
    with pytest.raises(ValueError, match=r"as: unknown value \"components\""):
        cx.shape_from_dict({"type": "mesh", "file": "tet.obj", "as": "components"})
    with pytest.raises(ValueError, match=r"^as: missing field"):
        cx.shape_from_dict({"type": "mesh", "file": "tet.obj"})
    with pytest.raises(ValueError, match=r"flie: unknown field .*did you mean \"file\""):
        cx.shape_from_dict({"type": "mesh", "flie": "tet.obj", "as": "hull"})


def test_mesh_scene_agrees_with_the_cli(cli: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repository's mesh scene: the CLI reads the files relative to the scene file, Python
    from the current directory (set to the scene's); every gjk answer agrees."""
    scene_file = MESHES / "scene_hull.json"
    scene = json.loads(scene_file.read_text())
    out = subprocess.run([str(cli), "query", str(scene_file), "--methods", "gjk"], capture_output=True, text=True)
    lines = [json.loads(ln) for ln in out.stdout.splitlines() if ln.strip()]
    by_pair = {ln["pair"]: ln for ln in lines if ln.get("algorithm") == "gjk" and "error" not in ln}
    monkeypatch.chdir(MESHES)
    named = {k: cx.shape_from_dict(v) for k, v in scene["shapes"].items()}
    compared = 0
    for i, p in enumerate(scene["pairs"]):
        a = named[p["a"]] if isinstance(p["a"], str) else cx.shape_from_dict(p["a"])
        b = named[p["b"]] if isinstance(p["b"], str) else cx.shape_from_dict(p["b"])
        d = cx.distance(a, pose_from_dict(p.get("pose_a"), 3), b, pose_from_dict(p.get("pose_b"), 3))
        line = by_pair[i]
        assert line["intersecting"] is d.intersecting, (i, line)
        assert math.isclose(line["distance"], d.distance, rel_tol=1e-12, abs_tol=1e-12), (i, line, d.distance)
        compared += 1
    assert compared == len(scene["pairs"]) == 11


# ---- the shape dict's fields -------------------------------------------------------------

VALID = {
    "points": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]},
    "sphere": {"radius": 1},
    "circle": {"radius": 1},
    "box": {"half_extents": [1, 1, 1]},
    "capsule": {"a": [0, 0, 0], "b": [0, 0, 1], "radius": 0.5},
    "cylinder": {"half_height": 1, "radius": 0.5},
    "cone": {"half_height": 1, "radius": 0.5},
    "segment": {"a": [0, 0, 0], "b": [0, 0, 1]},
    "triangle": {"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]},
    "polygon": {"points": [[0, 0], [1, 0], [0, 1]]},
    "halfspaces": {"normals": [[1, 0], [-1, 0], [0, 1], [0, -1]], "offsets": [1, 1, 1, 1]},
    "rounded": {"shape": {"type": "box", "half_extents": [1, 1, 1]}, "radius": 0.1},
    "transformed": {"shape": {"type": "sphere", "radius": 1}, "pose": {"translation": [1, 0, 0]}},
}


@pytest.mark.parametrize("ty", sorted(VALID))
def test_an_unknown_field_is_an_error_never_ignored(ty: str) -> None:
    base = {"type": ty, **VALID[ty]}
    cx.shape_from_dict(base)
    cx.shape_from_dict({**base, "meta": {"note": "free-form, never read"}})
    # A field that would change the answer if it were read (a centre, a rounding radius).
    for extra in ("center", "pose" if ty != "transformed" else "scale", "radius" if "radius" not in base else "height"):
        with pytest.raises(ValueError, match=rf"^{extra}: unknown field in a \"{ty}\" shape"):
            cx.shape_from_dict({**base, extra: 1})
    # Nested shapes are checked too, with the path in the message.
    if ty in ("rounded", "transformed"):
        inner = {**base["shape"], "centre": [1, 2, 3]}
        with pytest.raises(ValueError, match=r"^shape\.centre: unknown field"):
            cx.shape_from_dict({**base, "shape": inner})


def test_misspelt_fields_and_types_get_a_suggestion() -> None:
    with pytest.raises(ValueError, match=r'raduis: unknown field .*did you mean "radius"'):
        cx.shape_from_dict({"type": "capsule", "a": [0, 0, 0], "b": [0, 0, 1], "raduis": 0.5})
    with pytest.raises(ValueError, match=r'half_extent: unknown field .*did you mean "half_extents"'):
        cx.shape_from_dict({"type": "box", "half_extent": [1, 1, 1]})
    with pytest.raises(ValueError, match=r'unknown type "spehre" \(did you mean "sphere"\?\)'):
        cx.shape_from_dict({"type": "spehre", "radius": 1})
    # A missing field is named without guessing that another valid field was meant.
    with pytest.raises(ValueError, match=r"^a: missing field$"):
        cx.shape_from_dict({"type": "segment", "b": [0, 0, 1]})
    with pytest.raises(ValueError, match="keys are strings"):
        cx.shape_from_dict({"type": "sphere", "radius": 1, 3: 4})
