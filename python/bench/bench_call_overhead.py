#!/usr/bin/env python3
"""Fixed costs of one call from Python: per-pair `distance` with each pose spelling, and
`distance_batch` on small batches with default threads and `threads=1` (ball pairs, so the
query itself is a few tens of nanoseconds and the call's own cost shows).

    .venv/bin/python python/bench/bench_call_overhead.py            # timings (best of 5)
    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python python/bench/bench_call_overhead.py --loop numpy 20000

`--loop KIND N` runs N per-pair calls with poses given as KIND (numpy, list or none) and
prints nothing: run it under callgrind with N and with 0 and divide the difference by N for
the instructions of one call (the Python loop's own bytecode included). `OPENBLAS_NUM_THREADS=1`
keeps numpy's BLAS threads from spinning into the count. bench-results/python.md quotes both.
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np

import convexity as cx


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loop", nargs=2, metavar=("KIND", "N"))
    args = ap.parse_args()
    a, b = cx.Sphere(0.5), cx.Sphere(0.3)
    pa = np.array([0.0, 0, 0, 0, 0, 0, 1])
    pb = np.array([0.5, 0.2, 0.1, 0, 0, 0, 1])
    poses = {"numpy": (pa, pb), "list": (pa.tolist(), pb.tolist()), "none": (None, None)}
    if args.loop:
        kind, n = args.loop[0], int(args.loop[1])
        qa, qb = poses[kind]
        f = cx.distance
        for _ in range(n):
            f(a, qa, b, qb)
        return 0
    print("| per-pair call | ns per call |")
    print("| --- | ---: |")
    for kind, (qa, qb) in poses.items():
        n = 100_000
        t = min(timeit.repeat(lambda: cx.distance(a, qa, b, qb), number=n, repeat=5)) / n
        print(f"| distance, {kind} poses | {t * 1e9:,.0f} |")
    print()
    print("| rows | threads=1 µs per call | default threads µs per call |")
    print("| ---: | ---: | ---: |")
    rng = np.random.default_rng(1)
    for rows in (1, 10, 100, 1000):
        ra = np.zeros((rows, 7))
        ra[:, 6] = 1.0
        rb = ra.copy()
        rb[:, :3] = rng.uniform(-1.0, 1.0, (rows, 3))
        k = max(1, 20_000 // rows)
        cells = []
        for th in (1, None):
            t = min(timeit.repeat(lambda: cx.distance_batch(a, ra, b, rb, threads=th), number=k, repeat=5)) / k
            cells.append(f"{t * 1e6:.1f}")
        print(f"| {rows:,} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
