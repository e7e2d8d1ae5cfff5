"""Bad input: a ValueError naming the field (single calls) or a marked row (batches); never a panic."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import convexity as cx

I7 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: cx.Points([[0, 0, 0], [1, NAN, 0]]), "points[1][1]"),
        (lambda: cx.Points([[0, 0, 0], [1, INF, 0]]), "points[1][1]"),
        (lambda: cx.Points(np.zeros((0, 3))), "points"),
        (lambda: cx.Points([]), "points"),
        (lambda: cx.Points(np.zeros((5, 4)), dim=3), "points"),
        (lambda: cx.Points(np.zeros(3)), "points"),
        (lambda: cx.Box([1, NAN, 1]), "half_extents"),
        (lambda: cx.Box([1, -1, 1]), "half_extents[1]"),
        (lambda: cx.Box([1, 1, 1, 1]), "half_extents"),
        (lambda: cx.Box([]), "half_extents"),
        (lambda: cx.Sphere(-1.0), "radius"),
        (lambda: cx.Sphere(NAN), "radius"),
        (lambda: cx.Sphere(INF), "radius"),
        (lambda: cx.Circle(-0.5), "radius"),
        (lambda: cx.Capsule([0, 0, 0], [0, 0, 1], -0.1), "radius"),
        (lambda: cx.Capsule([0, 0, 0, 0], [0, 0, 1, 0], 0.1), "a"),
        (lambda: cx.Capsule([0, 0, 0], [0, 1], 0.1), "b"),
        (lambda: cx.Segment([0, NAN, 0], [0, 0, 1]), "a"),
        (lambda: cx.Triangle([0, 0, 0], [1, 0, 0], [0, INF, 0]), "c"),
        (lambda: cx.Cylinder(-1, 1), "half_height"),
        (lambda: cx.Cone(1, -1), "radius"),
        (lambda: cx.Polygon([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), "points"),
        (lambda: cx.Polygon([[0, 0], [2, 0], [1, 0.2], [2, 2]]), "points"),
        (lambda: cx.Rounded(cx.Box([1, 1, 1]), -1), "radius"),
        (lambda: cx.Rounded("box", 1), "shape"),
        (lambda: cx.Transformed(cx.Sphere(1), [0, 0, 0, 0, 0, 0, 2]), "pose"),
        (lambda: cx.Points([[0, 0, 0], ["x", 0, 0]]), "points"),
        (lambda: cx.Points([[1e70, 0, 0]]), "points[0][0]"),
        (lambda: cx.shape_from_dict({"type": "spehre", "radius": 1}), "type"),
        (lambda: cx.shape_from_dict({"type": "sphere"}), "radius"),
        (lambda: cx.shape_from_dict({"radius": 1}), "type"),
        (lambda: cx.shape_from_dict({"type": "points", "points": [[0, 0, 0], [0, "NaN", 0]]}), "points[1][1]"),
        (lambda: cx.shape_from_dict({"type": "rounded", "radius": 1, "shape": {"type": "box", "half_extents": [1, "-inf", 1]}}), "shape.half_extents"),
        (lambda: cx.shape_from_dict([1, 2]), ""),
    ],
)
def test_bad_shapes_raise_value_error_naming_the_field(make, field: str) -> None:
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value).startswith(field), str(e.value)


@pytest.mark.parametrize(
    "pose_b, field",
    [
        ([NAN, 0, 0, 0, 0, 0, 1], "pose_b[0]"),
        (np.array([NAN, 0, 0, 0, 0, 0, 1]), "pose_b[0]"),
        ((0, 0, INF, 0, 0, 0, 1), "pose_b[2]"),
        (["NaN", 0, 0, 0, 0, 0, 1], "pose_b[0]"),
        ([0, 0, 0, 0, 0, 0, "x"], "pose_b"),
        (np.array([0, 0, 0, 0, 0, 0, 2.0]), "pose_b[3:7]"),
        ((0, 0, 0, 0, 0, 0, 2), "pose_b[3:7]"),
        ([INF, 0, 0, 0, 0, 0, 1], "pose_b[0]"),
        ([0, 0, 0, 0, 0, 0, 2], "pose_b[3:7]"),
        ([0, 0, 0, 0.1, 0, 0, 1], "pose_b[3:7]"),
        ([0, 0, 0, 0, 0, 0], "pose_b"),
        (np.zeros((4, 4)), "pose_b"),
        (np.diag([1.0, 1.0, -1.0, 1.0]), "pose_b"),
        (np.zeros(0), "pose_b"),
        ("identity", "pose_b"),
    ],
)
def test_bad_poses_raise_value_error_naming_the_pose(pose_b, field: str) -> None:
    for f in (cx.distance, cx.intersects, cx.penetration):
        with pytest.raises(ValueError) as e:
            f(cx.Sphere(1), None, cx.Sphere(1), pose_b)
        assert str(e.value).startswith(field), str(e.value)


def test_mismatched_dimensions_name_the_shape() -> None:
    with pytest.raises(ValueError, match="^b"):
        cx.distance(cx.Points(np.zeros((3, 4))), None, cx.Box([1, 1, 1]), None)
    with pytest.raises(ValueError, match="^b"):
        cx.distance(cx.Circle(1), None, cx.Sphere(1), None)
    with pytest.raises(ValueError, match="^pose_a"):
        cx.distance(cx.Circle(1), [0, 0, 0, 0, 0, 0, 1], cx.Circle(1), None)
    with pytest.raises(ValueError, match="^pose_a"):
        cx.distance(cx.Points(np.zeros((3, 4))), I7, cx.Points(np.ones((3, 4))), None)
    with pytest.raises(ValueError, match="^a"):
        cx.distance("sphere", None, cx.Sphere(1), None)  # type: ignore[arg-type]


def test_bad_certificates_and_tolerances() -> None:
    c4 = cx.Certificate.separating_axis([1, 0, 0, 0], 1.0)
    with pytest.raises(ValueError, match="^certificate"):
        cx.verify(cx.Sphere(1), None, cx.Sphere(1), None, c4)
    with pytest.raises(ValueError, match="^tol"):
        cx.verify(cx.Sphere(1), None, cx.Sphere(1), None, cx.Certificate.common_point([0, 0, 0]), tol=NAN)
    with pytest.raises(ValueError, match="^axis"):
        cx.Certificate.separating_axis([], 1.0)


def _poses(n: int) -> np.ndarray:
    p = np.zeros((n, 7))
    p[:, 6] = 1.0
    p[:, 0] = np.linspace(0.0, 4.0, n)
    return p


def test_batch_rows_with_bad_poses_are_marked_and_the_others_answered() -> None:
    p = _poses(10)
    p[2, 1] = NAN
    p[5, 3:] = [0, 0, 0, 2.0]
    p[7, 0] = INF
    for f in (cx.distance_batch, cx.intersects_batch, cx.penetration_batch):
        r = f(cx.Sphere(0.5), None, cx.Sphere(0.5), p)
        assert [i for i, _ in r.errors] == [2, 5, 7]
        assert r.error[2] is not None and r.error[2].startswith("poses_b[2][1]")
        assert r.error[5] is not None and r.error[5].startswith("poses_b[5][3:7]")
        assert r.error[7] is not None and r.error[7].startswith("poses_b[7][0]")
        assert r.status[2] == "error" and not r.ok[2]
        good = [i for i in range(10) if i not in (2, 5, 7)]
        assert all(r.status[i] == "converged" for i in good)
        assert r.ok[good].all()
        if f is not cx.intersects_batch:
            assert np.isnan(r.distance[[2, 5, 7]]).all()
            assert np.isfinite(r.distance[good]).all()


def test_batch_rows_with_shapes_of_another_dimension_are_marked() -> None:
    shapes = [cx.Sphere(0.5), cx.Circle(0.5), cx.Sphere(0.5), cx.Points(np.zeros((2, 4)))]
    r = cx.distance_batch(shapes, None, cx.Sphere(0.5), _poses(4))
    assert [i for i, _ in r.errors] == [1, 3]
    assert r.error[1] is not None and r.error[1].startswith("shapes_a[1]")


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(poses_b=np.zeros((5, 6))), "poses_b"),
        (dict(poses_b=np.zeros((5, 7, 1))), "poses_b"),
        (dict(poses_b=np.zeros(6)), "poses_b"),
        (dict(shapes_a=[cx.Sphere(1)] * 4), "shapes_a"),
        (dict(shapes_a=[cx.Sphere(1), "sphere"] + [cx.Sphere(1)] * 3), "shapes_a[1]"),
        (dict(shapes_a="sphere"), "shapes_a"),
        (dict(poses_a=np.zeros((4, 7))), "poses_a"),
        (dict(poses_a=[0, 0, 0, 0, 0, 0, 2.0]), "poses_a[3:7]"),
        (dict(threads=0), "threads"),
        (dict(shapes_a=cx.Points(np.zeros((3, 5))), poses_b=None), "shapes_a"),
    ],
)
def test_batch_argument_errors_name_the_argument(kwargs, field: str) -> None:
    args = dict(shapes_a=cx.Sphere(1), poses_a=None, shapes_b=cx.Sphere(1), poses_b=_poses(5))
    args.update(kwargs)
    with pytest.raises(ValueError) as e:
        cx.distance_batch(**args)
    assert str(e.value).startswith(field), str(e.value)


def test_nd_bad_inputs() -> None:
    with pytest.raises(ValueError, match="^X"):
        cx.separate(np.array([[0, NAN], [1, 1]]), [0, 1])
    with pytest.raises(ValueError, match="^y"):
        cx.separate(np.zeros((3, 2)), [0, 1])
    with pytest.raises(ValueError, match="^y"):
        cx.separate(np.zeros((3, 2)), [0, 1, 2])
    with pytest.raises(ValueError, match="^y"):
        cx.separate(np.zeros((3, 2)), [1, 1, 1])
    with pytest.raises(ValueError, match="^queries"):
        cx.contains(np.eye(3), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="^queries"):
        cx.contains(np.eye(3), [[0, INF, 0]])
    with pytest.raises(ValueError, match="^hull_points"):
        cx.contains(np.zeros((0, 3)), [[0, 0, 0]])
    with pytest.raises(ValueError, match="^B"):
        cx.distance_nd(np.eye(3), np.eye(4))
    with pytest.raises(ValueError, match="^A"):
        cx.distance_nd([], np.eye(4))


def test_a_rust_panic_becomes_runtime_error_not_panic_exception() -> None:
    with pytest.raises(RuntimeError, match="internal error"):
        cx._convexity._panic_for_tests()  # type: ignore[attr-defined]


def _garbage(rng: np.random.Generator) -> object:
    choices = [
        None, NAN, INF, -INF, -1.0, 0.0, 1e300, 1e-300, "x", "NaN", [], [[]], {}, [1, 2],
        [NAN] * 7, [0] * 7, [0, 0, 0, 0, 0, 0, 1], np.zeros((4, 4)), np.eye(4), np.zeros((2, 3, 4)),
        rng.normal(size=(3, 3)), rng.normal(size=(5, 3)), rng.normal(size=7), object(), True,
        np.array([1, 2, 3], dtype=np.int8), np.array(["a", "b"]), [[1, 2, 3], [4, 5]],
    ]
    return choices[int(rng.integers(len(choices)))]


def test_random_garbage_never_panics() -> None:
    """Garbage raises ValueError (or TypeError for an argument of the wrong Python type), never
    a panic: neither PanicException (a BaseException, which would escape `except Exception`)
    nor the RuntimeError that the last line of defence turns a panic into."""
    rng = np.random.default_rng(5)
    ctors = [cx.Points, cx.Box, cx.Sphere, cx.Circle, cx.Polygon, cx.Cylinder, cx.Cone,
             cx.Capsule, cx.Segment, cx.Triangle, cx.Rounded, cx.Halfspaces, cx.Transformed]
    shapes = [cx.Sphere(1), cx.Box([1, 1, 1]), cx.Circle(1), cx.Points(np.zeros((2, 5)))]
    funcs = [cx.distance, cx.intersects, cx.penetration, cx.distance_batch, cx.intersects_batch,
             cx.penetration_batch]
    calls = 0
    panics: list = []
    for _ in range(20000):
        try:
            k = int(rng.integers(6))
            if k == 0:
                ctor = ctors[int(rng.integers(len(ctors)))]
                nargs = int(rng.integers(1, 4))
                ctor(*[_garbage(rng) for _ in range(nargs)])
            elif k == 1:
                f = funcs[int(rng.integers(len(funcs)))]
                a = shapes[int(rng.integers(len(shapes)))] if rng.random() < 0.8 else _garbage(rng)
                b = shapes[int(rng.integers(len(shapes)))] if rng.random() < 0.8 else _garbage(rng)
                f(a, _garbage(rng), b, _garbage(rng))
            elif k == 2:
                cx.shape_from_dict({"type": ["points", "box", "sphere", "rounded", "polygon"][int(rng.integers(5))],
                                    "points": _garbage(rng), "half_extents": _garbage(rng),
                                    "radius": _garbage(rng), "shape": _garbage(rng)})
            elif k == 3:
                g = [cx.separate, cx.contains, cx.distance_nd][int(rng.integers(3))]
                g(_garbage(rng), _garbage(rng))
            elif k == 4:
                m = cx.METHODS[int(rng.integers(len(cx.METHODS)))]
                a = shapes[int(rng.integers(len(shapes)))]
                b = shapes[int(rng.integers(len(shapes)))]
                pa = None if rng.random() < 0.5 else _garbage(rng)
                cx.query(m, a, pa, b, _garbage(rng))
            else:
                a = shapes[int(rng.integers(len(shapes)))]
                cert = (cx.Certificate.separating_axis(_garbage(rng), _garbage(rng)) if rng.random() < 0.5
                        else cx.Certificate.common_point(_garbage(rng)))
                cx.verify(a, _garbage(rng), a, _garbage(rng), cert, tol=float(rng.choice([1e-9, 0.0, 1.0])))
        except RuntimeError as e:  # a Rust panic caught by the last line of defence
            panics.append(str(e))
        except (ValueError, TypeError):
            pass
        calls += 1
    assert calls == 20000
    assert panics == []


def test_shapes_pickle_and_round_trip_through_dicts() -> None:
    shapes = [
        cx.Points(np.random.default_rng(0).normal(size=(10, 3))), cx.Box([1, 2, 3]), cx.Box([1, 2]),
        cx.Sphere(1), cx.Circle(2), cx.Capsule([0, 0, 0], [0, 0, 1], 0.5), cx.Segment([0, 0], [1, 1]),
        cx.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), cx.Cylinder(1, 0.5), cx.Cone(1, 0.5),
        cx.Polygon([[0, 0], [1, 0], [0, 1]]), cx.Rounded(cx.Box([1, 1, 1]), 0.1),
        cx.Halfspaces([[1, 0], [-1, 0], [0, 1], [0, -1]], [1, 1, 1, 1]),
        cx.Transformed(cx.Cone(1, 0.5), [0, 0, 1, 1, 0, 0, 0]), cx.Points(np.zeros((3, 6))),
    ]
    for s in shapes:
        t = pickle.loads(pickle.dumps(s))
        assert type(t) is type(s)
        assert repr(t) == repr(s)
        assert t.to_dict() == s.to_dict()
        u = cx.shape_from_dict(s.to_dict())
        assert repr(u) == repr(s)
        if s.dim in (2, 3):
            pose = [2.5, 0.1, 0.2, 0, 0, 0, 1] if s.dim == 3 else [2.5, 0.1, 0.3]
            assert cx.distance(s, None, t, pose).distance == cx.distance(s, None, s, pose).distance


def test_batch_row_errors_read_as_the_single_calls_errors() -> None:
    """The library checks `[t, q]` and `[t, angle]` rows; its field names are mapped back to the
    argument's (`poses_b[i][k]`), so a row's message is the single call's with the row added."""
    p = _poses(8)
    p[1, 4] = NAN  # rotation[1] -> column 4
    p[3, 3:] = [0.1, 0.0, 0.0, 1.0]  # norm 1.005
    p[6, 2] = -INF
    r = cx.distance_batch(cx.Sphere(0.5), None, cx.Sphere(0.5), p)
    assert [i for i, _ in r.errors] == [1, 3, 6]
    for i in (1, 3, 6):
        with pytest.raises(ValueError) as e:
            cx.distance(cx.Sphere(0.5), None, cx.Sphere(0.5), p[i])
        single = str(e.value)
        assert single.startswith("pose_b["), single
        assert r.error[i] == single.replace("pose_b", f"poses_b[{i}]", 1), (r.error[i], single)
    huge = _poses(3)
    huge[2, 1] = 1e300
    r = cx.distance_batch(cx.Sphere(0.5), huge, cx.Sphere(0.5), None)
    assert [i for i, _ in r.errors] == [2]
    assert r.error[2] is not None and r.error[2].startswith("poses_a[2][1]: value 1e300 exceeds")
    p2 = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, NAN], [NAN, 0.0, 0.0]])
    r = cx.distance_batch(cx.Circle(0.5), None, cx.Circle(0.5), p2)
    assert [i for i, _ in r.errors] == [1, 2]
    assert r.error[1] is not None and r.error[1].startswith("poses_b[1][2]: value NaN")
    assert r.error[2] is not None and r.error[2].startswith("poses_b[2][0]: value NaN")
