#!/usr/bin/env python3
"""Label a file of pose pairs with convexity's batch queries, on one machine or a Dask cluster.

Each row of the input is one pair: the pose of shape A then the pose of shape B, each
[tx, ty, tz, qx, qy, qz, qw] (scalar-last). The rows are cut into chunks, and every chunk is
answered by one `convexity.distance_batch` (or `intersects_batch`, `penetration_batch`) call on
a worker through `dask.array.map_blocks`; the shapes travel to the workers by pickle. The output
has one row per pair: [verdict, distance, depth, status_code] with verdict 1 (intersecting),
0 (separated) or -1 (undetermined or a bad row), as float64.

Input formats:
  .npy      an (N, 14) float64 array
  .parquet  14 float columns a_tx a_ty a_tz a_qx a_qy a_qz a_qw b_tx ... b_qw
Output: .npy (N, 4) or .parquet with columns verdict, distance, depth, status_code.

Examples:
  # local cluster of 2 worker processes
  python examples/python/dask_label.py poses.npy labels.npy \\
      --shape-a '{"type": "box", "half_extents": [0.5, 0.3, 0.2]}' \\
      --shape-b '{"type": "sphere", "radius": 0.4}' --workers 2
  # the same script against a running cluster (dask scheduler + dask worker on each machine;
  # every worker needs `pip install ./python` and numpy)
  python examples/python/dask_label.py poses.parquet labels.parquet \\
      --shape-a @robot_link.json --shape-b @obstacle.json --scheduler tcp://10.0.0.5:8786
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

import convexity as cx

COLUMNS = [f"{s}_{k}" for s in "ab" for k in ("tx", "ty", "tz", "qx", "qy", "qz", "qw")]
QUERIES = {
    "distance": cx.distance_batch,
    "intersects": cx.intersects_batch,
    "penetration": cx.penetration_batch,
}


def label_block(block: np.ndarray, shape_a: cx.Shape, shape_b: cx.Shape, query: str = "distance") -> np.ndarray:
    """Answers one chunk of rows (N, 14) -> (N, 4): verdict, distance, depth, status code."""
    if block.shape[0] == 0:
        return np.zeros((0, 4))
    r = QUERIES[query](shape_a, np.ascontiguousarray(block[:, :7]), shape_b, np.ascontiguousarray(block[:, 7:14]))
    return np.column_stack([
        r.verdict.astype(np.float64),
        r.distance,
        r.depth,
        r.status_code.astype(np.float64),
    ])


def label(poses: Any, shape_a: cx.Shape, shape_b: cx.Shape, query: str = "distance", chunk: int = 50_000) -> Any:
    """A lazy dask array (N, 4) of labels for an (N, 14) array (numpy or dask) of pose pairs."""
    import dask.array as da

    # Run as a script, `label_block` lives in __main__ and Dask ships it by value; imported
    # as a module, the workers need the file too (`client.upload_file(__file__)`).
    arr = poses if isinstance(poses, da.Array) else da.from_array(poses, chunks=(chunk, 14))
    if arr.ndim != 2 or arr.shape[1] != 14:
        raise ValueError(f"poses: expected shape (N, 14), found {arr.shape}")
    arr = arr.rechunk({1: 14})
    return arr.map_blocks(
        label_block,
        shape_a=shape_a,
        shape_b=shape_b,
        query=query,
        chunks=(arr.chunks[0], (4,)),
        dtype=np.float64,
    )


def read_poses(path: str) -> np.ndarray:
    if path.endswith(".npy"):
        return np.load(path, mmap_mode="r")
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        table = pq.read_table(path, columns=COLUMNS)
        return np.column_stack([table.column(c).to_numpy() for c in COLUMNS]).astype(np.float64)
    raise ValueError(f"input: expected a .npy or .parquet file, found {path!r}")


def write_labels(path: str, labels: np.ndarray) -> None:
    if path.endswith(".npy"):
        np.save(path, labels)
    elif path.endswith(".parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        names = ["verdict", "distance", "depth", "status_code"]
        pq.write_table(pa.table({n: labels[:, k] for k, n in enumerate(names)}), path)
    else:
        raise ValueError(f"output: expected a .npy or .parquet file, found {path!r}")


def shape_arg(text: str) -> cx.Shape:
    """A scene-format shape object as JSON text, or @FILE holding one."""
    if text.startswith("@"):
        with open(text[1:]) as f:
            text = f.read()
    return cx.shape_from_dict(json.loads(text))


def main(argv: Any = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", help="pose pairs: .npy (N, 14) or .parquet (columns a_tx ... b_qw)")
    p.add_argument("output", help="labels: .npy (N, 4) or .parquet")
    p.add_argument("--shape-a", required=True, type=shape_arg,
                   help="shape A as a scene-format JSON object (as in `convexity query` scenes), or @FILE")
    p.add_argument("--shape-b", required=True, type=shape_arg, help="shape B, as --shape-a")
    p.add_argument("--query", choices=sorted(QUERIES), default="distance", help="which batch query (default distance)")
    p.add_argument("--chunk", type=int, default=50_000, help="rows per task (default 50000)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="address of a running Dask scheduler (a real cluster: `dask scheduler` on one "
                        "machine, `dask worker tcp://HOST:PORT` on each worker, convexity installed on "
                        "every worker); without it a LocalCluster is started on this machine")
    p.add_argument("--workers", type=int, default=2, help="worker processes of the LocalCluster (default 2)")
    args = p.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        poses = read_poses(args.input)
        labels = label(poses, args.shape_a, args.shape_b, args.query, args.chunk).compute()
        write_labels(args.output, labels)
        print(f"labelled {labels.shape[0]} pairs: {int((labels[:, 0] == 1).sum())} intersecting, "
              f"{int((labels[:, 0] == 0).sum())} separated, {int((labels[:, 0] == -1).sum())} other -> {args.output}")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
