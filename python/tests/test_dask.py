"""Labelling 200,000 pose pairs on a LocalCluster of 2 worker processes gives the single-process
batch answer bit for bit; the example script runs end to end and documents --scheduler."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import convexity as cx
from conftest import ROOT, hull_points, random_poses

distributed = pytest.importorskip("distributed")
SCRIPT = ROOT / "examples" / "python" / "dask_label.py"


def _example():
    spec = importlib.util.spec_from_file_location("dask_label", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["dask_label"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_local_cluster_labels_200k_pairs_bit_for_bit() -> None:
    ex = _example()
    rng = np.random.default_rng(99)
    a = cx.Points(hull_points(rng, 32, 0.6))
    b = cx.Box([0.4, 0.3, 0.2])
    poses = np.hstack([random_poses(rng, 200_000, 1.0), random_poses(rng, 200_000, 1.0)])
    poses[12345, 3] = np.nan  # a bad row travels through as a marked row
    single = ex.label_block(poses, a, b)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        client.upload_file(str(SCRIPT))  # the workers import `dask_label` like this process
        lazy = ex.label(poses, a, b, chunk=25_000)
        assert lazy.npartitions == 8
        out = client.compute(lazy).result()
    assert out.shape == (200_000, 4)
    assert out.tobytes() == single.tobytes()
    assert out[12345, 0] == -1 and out[12345, 3] == 8  # status code 8 is "error"
    assert 10_000 < (out[:, 0] == 1).sum() < 190_000


def test_example_help_documents_the_scheduler_option() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=True)
    assert "--scheduler tcp://HOST:PORT" in out.stdout
    assert "LocalCluster" in out.stdout


def test_example_script_end_to_end_on_parquet(tmp_path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    ex = _example()
    rng = np.random.default_rng(3)
    poses = np.hstack([random_poses(rng, 5000, 1.0), random_poses(rng, 5000, 1.0)])
    pq.write_table(pa.table({c: poses[:, k] for k, c in enumerate(ex.COLUMNS)}), tmp_path / "in.parquet")
    subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "in.parquet"), str(tmp_path / "out.parquet"),
         "--shape-a", '{"type": "box", "half_extents": [0.5, 0.3, 0.2]}',
         "--shape-b", '{"type": "sphere", "radius": 0.4}', "--workers", "2", "--chunk", "1000"],
        check=True, capture_output=True, text=True,
    )
    t = pq.read_table(tmp_path / "out.parquet")
    r = cx.distance_batch(cx.Box([0.5, 0.3, 0.2]), poses[:, :7], cx.Sphere(0.4), poses[:, 7:])
    assert t.column("distance").to_numpy().tobytes() == r.distance.tobytes()
