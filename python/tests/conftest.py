"""Shared helpers: the repository root, the `convexity` CLI binary, seeded shapes and poses."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
from typing import Any, Dict, List

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The CLI binary of this checkout: `cargo build -p convexity-cli` (a no-op after
    `cargo test --workspace`), copied away at once so that a target directory shared with
    other checkouts cannot swap it for another version meanwhile."""
    out = subprocess.run(
        ["cargo", "build", "-p", "convexity-cli", "--message-format=json-render-diagnostics"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    exe = None
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["target"]["name"] == "convexity":
            exe = pathlib.Path(msg["executable"])
    assert exe is not None, "cargo did not report the convexity binary"
    dest = tmp_path_factory.mktemp("cli") / "convexity"
    shutil.copy2(exe, dest)
    return dest


def run_cli(cli: pathlib.Path, scene: Dict[str, Any], *args: str) -> List[Dict[str, Any]]:
    out = subprocess.run(
        [str(cli), "query", "-", *args],
        input=json.dumps(scene),
        capture_output=True,
        text=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def pose_from_dict(d: Any, dim: int) -> Any:
    """A scene-format pose object as the array the Python API takes."""
    if d is None:
        return None
    if dim == 3:
        t = d.get("translation") or [0.0, 0.0, 0.0]
        q = d.get("rotation") or [0.0, 0.0, 0.0, 1.0]
        return np.array([*t, *q], dtype=float)
    t = d.get("translation") or [0.0, 0.0]
    return np.array([*t, d.get("angle", 0.0) or 0.0], dtype=float)


def random_quat(rng: np.random.Generator, n: int) -> np.ndarray:
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def random_poses(rng: np.random.Generator, n: int, spread: float) -> np.ndarray:
    """(n, 7) poses with translations uniform in [-spread, spread]^3 and random rotations."""
    return np.hstack([rng.uniform(-spread, spread, size=(n, 3)), random_quat(rng, n)])


def hull_points(rng: np.random.Generator, n: int, radius: float = 1.0) -> np.ndarray:
    """n points on a sphere of `radius` (a convex hull with n vertices)."""
    p = rng.normal(size=(n, 3))
    return radius * p / np.linalg.norm(p, axis=1, keepdims=True)
