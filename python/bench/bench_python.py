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
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--out", default=str(HERE.parents[1] / "bench-results" / "python.md"))
    args = ap.parse_args()
    n = args.pairs
    rng = np.random.default_rng(2026)
    sets = {
        "box": (Spec("box", half=[0.5, 0.3, 0.2]), Spec("box", half=[0.4, 0.4, 0.1])),
        "sphere": (Spec("sphere", radius=0.5), Spec("sphere", radius=0.3)),
        "hull32": (Spec("hull", points=hull_points(rng, 32, 0.6)), Spec("hull", points=hull_points(rng, 32, 0.5))),
    }
    speed, agree, brackets = [], [], []
    for name, (sa, sb) in sets.items():
        pa, pb = random_poses(rng, n, 0.9), random_poses(rng, n, 0.9)
        a, b = sa.ours(), sb.ours()
        ours = cx.distance_batch(a, pa, b, pb)
        ga, gb = sa.coal(), sb.coal()
        ta = [coal_transform(p) for p in pa]
        tb = [coal_transform(p) for p in pb]
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        fa, fb = sa.fcl(), sb.fcl()
        oa = [fcl.CollisionObject(fa, fcl_transform(p)) for p in pa]
        ob = [fcl.CollisionObject(fb, fcl_transform(p)) for p in pb]
        freq, fres = fcl.DistanceRequest(), fcl.DistanceResult()
        dc, df = np.empty(n), np.empty(n)
        pa_l, pb_l = pa.tolist(), pb.tolist()

        # Interleaved rounds: every contender runs on the same chunk of pairs, back to back,
        # round after round; the median per-query time over the rounds cancels most of the
        # drift of a shared machine's load.
        chunk = max(1, n // args.rounds)
        times: dict = {k: [] for k in ("batch", "rust", "loop", "loop_l", "coal", "fcl")}
        for lo in range(0, n, chunk):
            hi = min(n, lo + chunk)
            m = hi - lo
            ca_, cb_ = pa[lo:hi], pb[lo:hi]
            times["batch"].append(best(lambda: cx.distance_batch(a, ca_, b, cb_), args.repeats) / m)
            times["rust"].append(best(lambda: cx.distance_batch(a, ca_, b, cb_, threads=1), args.repeats) / m)
            t0 = time.perf_counter()
            for i in range(lo, hi):
                cx.distance(a, pa[i], b, pb[i])
            times["loop"].append((time.perf_counter() - t0) / m)
            t0 = time.perf_counter()
            for i in range(lo, hi):
                cx.distance(a, pa_l[i], b, pb_l[i])
            times["loop_l"].append((time.perf_counter() - t0) / m)
            f = coal.distance
            t0 = time.perf_counter()
            for i in range(lo, hi):
                # coal keeps the smallest distance seen in a reused result: clear it per call.
                res.clear()
                dc[i] = f(ga, ta[i], gb, tb[i], req, res)
            times["coal"].append((time.perf_counter() - t0) / m)
            g = fcl.distance
            t0 = time.perf_counter()
            for i in range(lo, hi):
                df[i] = g(oa[i], ob[i], freq, fres)
            times["fcl"].append((time.perf_counter() - t0) / m)
        med = {k: float(np.median(v)) for k, v in times.items()}
        overhead = float(np.median(np.array(times["loop"]) - np.array(times["rust"])))
        overhead_l = float(np.median(np.array(times["loop_l"]) - np.array(times["rust"])))
        speed.append((name, med["batch"], med["rust"], med["loop"], med["loop_l"], overhead, overhead_l,
                      med["coal"], med["fcl"]))

        d = ours.distance
        hit = ours.intersecting
        sep = (~hit) & (d > 1e-5)
        clear_hit = hit.copy()
        pen = cx.penetration_batch(a, pa, b, pb)
        clear_hit &= pen.depth > 1e-5
        coal_wrong = (dc < -1e300).sum()
        # Where a peer differs from us by more than its 1e-6 tolerance, our own answer is
        # bracketed: the certificate's gap is a proved lower bound and our closest points are
        # points of the shapes, so the distance lies in [gap, distance]. A peer outside that
        # bracket is wrong.
        outside = {"coal": 0, "fcl": 0}
        off = {"coal": 0, "fcl": 0}
        width = 0.0
        for peer, dd in (("coal", dc), ("fcl", df)):
            for i in np.nonzero(sep & (np.abs(dd - d) > 1e-6))[0]:
                off[peer] += 1
                r = cx.distance(a, pa[i], b, pb[i])
                assert r.certificate is not None and r.certificate.gap is not None and r.distance is not None
                width = max(width, r.distance - r.certificate.gap)
                if dd[i] < r.certificate.gap - 1e-12 or dd[i] > r.distance + 1e-12:
                    outside[peer] += 1
        brackets.append((name, off["coal"], outside["coal"], off["fcl"], outside["fcl"], width))
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
        f"(load average {os.getloadavg()[0]:.1f} at the end; every column is the median over {args.rounds} interleaved",
        f"rounds on the same chunk of pairs, batches best of {args.repeats} per round). Python",
        f"{platform.python_version()}, numpy {np.__version__}, coal {getattr(coal, '__version__', '?')},",
        f"python-fcl {getattr(fcl, '__version__', '?') if hasattr(fcl, '__version__') else '0.7'}.",
        "Peers' transforms and collision objects are built before their timed loops (in their favour).",
        "",
        "## Speed (ns per query)",
        "",
        "| set | our batch (all cores) | Rust, 1 thread (batch threads=1) | our per-pair loop (numpy rows) | our per-pair loop (lists) | per-pair overhead above Rust | coal loop | python-fcl loop | batch vs coal loop | batch vs fcl loop |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, tb, tr, tl, tll, ov, ovl, tc, tf in speed:
        lines.append(
            f"| {name} | {ns(tb)} | {ns(tr)} | {ns(tl)} | {ns(tll)} | {ns(ov)} / {ns(ovl)} | {ns(tc)} | {ns(tf)} | "
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
    lines += [
        "",
        "Pairs where a peer is off by more than 1e-6, checked against our certified bracket",
        "[certificate gap, distance] (the gap is a proved lower bound, the distance that of two",
        "points of the shapes, an upper bound): a peer outside the bracket is wrong.",
        "",
        "| set | coal off by > 1e-6 | of which outside our bracket | fcl off by > 1e-6 | of which outside our bracket | widest bracket of ours there |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, oc, xc, of, xf, w in brackets:
        lines.append(f"| {name} | {oc} | {xc} | {of} | {xf} | {w:.1e} |")
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
