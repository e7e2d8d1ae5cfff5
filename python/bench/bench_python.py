#!/usr/bin/env python3
"""Benchmark of the Python package against coal and python-fcl from Python; writes
bench-results/python.md.

    .venv/bin/python python/bench/bench_python.py [--pairs 100000] [--out bench-results/python.md]

Sets (seeded): box (half extents 0.5 x 0.3 x 0.2 vs 0.4 x 0.4 x 0.1), sphere (radii 0.5, 0.3),
hull32 (32 points on spheres of radius 0.6 and 0.5); poses with translations uniform in
[-0.9, 0.9]^3 and uniform random rotations for both shapes (about half the pairs overlap).

For each set: our batch call (all cores; threads=1 for the single-core Rust time), a Python
loop over our per-pair `distance`, and Python loops over coal's and python-fcl's per-pair
`distance` (their transforms and collision objects are built before the timed loop, which
favours them). Times are wall-clock per query, best of `--repeats` for the batches.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import coal  # noqa: E402
import fcl  # noqa: E402

import convexity as cx  # noqa: E402
from conftest import hull_points, random_poses  # noqa: E402
from peers import Spec, coal_transform, fcl_transform  # noqa: E402


def best(f, repeats: int) -> float:
    t = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default=str(HERE.parents[1] / "bench-results" / "python.md"))
    args = ap.parse_args()
    n = args.pairs
    rng = np.random.default_rng(2026)
    sets = {
        "box": (Spec("box", half=[0.5, 0.3, 0.2]), Spec("box", half=[0.4, 0.4, 0.1])),
        "sphere": (Spec("sphere", radius=0.5), Spec("sphere", radius=0.3)),
        "hull32": (Spec("hull", points=hull_points(rng, 32, 0.6)), Spec("hull", points=hull_points(rng, 32, 0.5))),
    }
    speed, agree = [], []
    for name, (sa, sb) in sets.items():
        pa, pb = random_poses(rng, n, 0.9), random_poses(rng, n, 0.9)
        a, b = sa.ours(), sb.ours()
        t_batch = best(lambda: cx.distance_batch(a, pa, b, pb), args.repeats) / n
        t_rust = best(lambda: cx.distance_batch(a, pa, b, pb, threads=1), args.repeats) / n
        ours = cx.distance_batch(a, pa, b, pb)

        def loop_ours():
            d = cx.distance
            for i in range(n):
                d(a, pa[i], b, pb[i])

        pa_l, pb_l = pa.tolist(), pb.tolist()

        def loop_ours_lists():
            d = cx.distance
            for i in range(n):
                d(a, pa_l[i], b, pb_l[i])

        t_loop = best(loop_ours, 1) / n
        t_loop_l = best(loop_ours_lists, 1) / n

        ga, gb = sa.coal(), sb.coal()
        ta = [coal_transform(p) for p in pa]
        tb = [coal_transform(p) for p in pb]
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        dc = np.empty(n)

        def loop_coal():
            f = coal.distance
            for i in range(n):
                # coal keeps the smallest distance seen in a reused result: clear it per call.
                res.clear()
                dc[i] = f(ga, ta[i], gb, tb[i], req, res)

        t_coal = best(loop_coal, 1) / n

        fa, fb = sa.fcl(), sb.fcl()
        oa = [fcl.CollisionObject(fa, fcl_transform(p)) for p in pa]
        ob = [fcl.CollisionObject(fb, fcl_transform(p)) for p in pb]
        freq, fres = fcl.DistanceRequest(), fcl.DistanceResult()
        df = np.empty(n)

        def loop_fcl():
            f = fcl.distance
            for i in range(n):
                df[i] = f(oa[i], ob[i], freq, fres)

        t_fcl = best(loop_fcl, 1) / n
        speed.append((name, t_batch, t_rust, t_loop, t_loop_l, t_coal, t_fcl))

        d = ours.distance
        hit = ours.intersecting
        sep = (~hit) & (d > 1e-5)
        clear_hit = hit.copy()
        pen = cx.penetration_batch(a, pa, b, pb)
        clear_hit &= pen.depth > 1e-5
        coal_wrong = (dc < -1e300).sum()
        agree.append((
            name, int(sep.sum()), int(clear_hit.sum()),
            float(np.abs(dc[sep] - d[sep]).max()), float(np.abs(df[sep] - d[sep]).max()),
            int((dc[clear_hit] > 0).sum() + (dc[sep] <= 0).sum()),
            int((df[clear_hit] > 0).sum() + (df[sep] <= 0).sum()),
            float(np.abs(-dc[clear_hit] - pen.depth[clear_hit]).max()),
            int(coal_wrong),
        ))
        print(name, "done", flush=True)

    ns = lambda t: f"{t * 1e9:,.0f}"  # noqa: E731
    lines = [
        "# Python package: batch and per-pair calls vs coal and python-fcl",
        "",
        "Produced by:",
        "",
        "```sh",
        f"scripts/test   # builds .venv with the extension, coal and python-fcl",
        f".venv/bin/python python/bench/bench_python.py --pairs {n}",
        "```",
        "",
        f"{n:,} seeded pose pairs per set (translations uniform in [-0.9, 0.9]^3, random rotations for",
        "both shapes; about half overlap); box: half extents 0.5 x 0.3 x 0.2 vs 0.4 x 0.4 x 0.1, sphere:",
        "radii 0.5 and 0.3, hull32: 32 points on spheres of radius 0.6 and 0.5. Distance queries.",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, shared with other jobs while measured",
        f"(timings are noisy: best of {args.repeats} for batches, one pass for Python loops). Python",
        f"{platform.python_version()}, numpy {np.__version__}, coal {getattr(coal, '__version__', '?')},",
        f"python-fcl {getattr(fcl, '__version__', '?') if hasattr(fcl, '__version__') else '0.7'}.",
        "Peers' transforms and collision objects are built before their timed loops (in their favour).",
        "",
        "## Speed (ns per query)",
        "",
        "| set | our batch (all cores) | Rust, 1 thread (batch threads=1) | our per-pair loop (numpy rows) | our per-pair loop (lists) | per-pair overhead above Rust | coal loop | python-fcl loop | batch vs coal loop | batch vs fcl loop |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, tb, tr, tl, tll, tc, tf in speed:
        lines.append(
            f"| {name} | {ns(tb)} | {ns(tr)} | {ns(tl)} | {ns(tll)} | {ns(tl - tr)} / {ns(tll - tr)} | {ns(tc)} | {ns(tf)} | "
            f"{tc / tb:.1f}x | {tf / tb:.1f}x |"
        )
    lines += [
        "",
        "Targets: batch >= 20x faster than the coal Python loop; batch faster per query than coal's",
        "C++ (873 ns per box distance on this machine class, from the issue); per-pair overhead",
        "from Python <= 1 us above the Rust time (overhead = per-pair loop minus the 1-thread batch",
        "time per query; numpy rows / plain lists as poses).",
        "",
        "## Agreement",
        "",
        "Separated pairs: our distance > 1e-5 and not intersecting; overlapping: our penetration",
        "depth > 1e-5. Pairs inside the peers' 1e-6 tolerance band are not counted.",
        "",
        "| set | separated | overlapping | max abs diff vs coal (separated) | max abs diff vs fcl (separated) | coal verdict disagreements | fcl verdict disagreements | max abs diff of depth vs coal's signed distance | coal -1.8e308 answers |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in agree:
        name, ns_, no, mc, mf, vc, vf, dd, cw = row
        lines.append(f"| {name} | {ns_:,} | {no:,} | {mc:.2e} | {mf:.2e} | {vc} | {vf} | {dd:.2e} | {cw} |")
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
