#!/usr/bin/env python3
"""Big hulls from Python: `Points(..., index=True)` (hill climbing over the hull) against the
plain `Points` (a scan of every point) and coal's `Convex` (built by `convexHull`); prints a
Markdown table for bench-results/python.md.

    .venv/bin/python python/bench/bench_points_index.py [--pairs 2000] [--rounds 7]

Sets (seeded): two hulls of N points on spheres of radius 0.6 and 0.5, N = 256, 1024, 4096;
poses with translations uniform in [-0.9, 0.9]^3 and random rotations for B, A at the
identity (about half the pairs overlap). Distance queries. Each column is the median over
`--rounds` interleaved rounds of the same pairs: a Python loop over our per-pair `distance`
(plain, indexed), our `distance_batch` with `threads=1` (plain, indexed), and a Python loop over
coal's `distance` with transforms and requests built before the loop (in its favour). Also the
time to build one indexed shape, and the largest distance difference between plain and indexed
(they must agree to ~1e-15).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import coal  # noqa: E402

import convexity as cx  # noqa: E402
from conftest import hull_points, random_poses  # noqa: E402
from peers import Spec, coal_transform  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print("| points per hull | hull vertices | plain per-pair µs | indexed per-pair µs | plain batch (1 thread) µs | indexed batch (1 thread) µs | coal loop µs | index build ms | max \\|Δdistance\\| |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in (256, 1024, 4096):
        rng = np.random.default_rng(n)
        pa_pts, pb_pts = hull_points(rng, n, 0.6), hull_points(rng, n, 0.5)
        plain = (cx.Points(pa_pts), cx.Points(pb_pts))
        t0 = time.perf_counter()
        indexed = (cx.Points(pa_pts, index=True), cx.Points(pb_pts, index=True))
        build_ms = (time.perf_counter() - t0) / 2 * 1e3
        ca, cb = Spec("points", points=pa_pts).coal(), Spec("points", points=pb_pts).coal()
        poses = random_poses(rng, args.pairs, 0.9)
        ident = np.tile([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], (args.pairs, 1))
        ta = coal_transform(ident[0])
        tbs = [coal_transform(p) for p in poses]
        req = coal.DistanceRequest()
        res = coal.DistanceResult()
        cols: dict[str, list[float]] = {k: [] for k in ("pp", "ip", "pb", "ib", "coal")}
        for _ in range(args.rounds):
            for key, (a, b) in (("pp", plain), ("ip", indexed)):
                t0 = time.perf_counter()
                for p in poses:
                    cx.distance(a, None, b, p)
                cols[key].append((time.perf_counter() - t0) / args.pairs * 1e6)
            for key, (a, b) in (("pb", plain), ("ib", indexed)):
                t0 = time.perf_counter()
                cx.distance_batch(a, ident, b, poses, threads=1)
                cols[key].append((time.perf_counter() - t0) / args.pairs * 1e6)
            t0 = time.perf_counter()
            for tb in tbs:
                res.clear()
                coal.distance(ca, ta, cb, tb, req, res)
            cols["coal"].append((time.perf_counter() - t0) / args.pairs * 1e6)
        d_plain = cx.distance_batch(plain[0], ident, plain[1], poses).distance
        d_idx = cx.distance_batch(indexed[0], ident, indexed[1], poses).distance
        diff = float(np.max(np.abs(d_plain - d_idx)))
        med = {k: statistics.median(v) for k, v in cols.items()}
        print(
            f"| {n} | {indexed[0].index_vertices} | {med['pp']:.1f} | {med['ip']:.1f} | {med['pb']:.1f} | "
            f"{med['ib']:.1f} | {med['coal']:.1f} | {build_ms:.1f} | {diff:.1e} |"
        )


if __name__ == "__main__":
    main()
