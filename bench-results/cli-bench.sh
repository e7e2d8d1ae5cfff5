#!/bin/bash
# 1,000,000 box pairs as NDJSON through `convexity query --ndjson`: peak resident memory
# (/usr/bin/time -v) and throughput with --threads 1 and --threads 2.
# usage: bench-results/cli-bench.sh [BIN] (default: target/release/convexity)
set -euo pipefail
BIN=${1:-target/release/convexity}
N=${N:-1000000}
F=${TMPDIR:-/tmp}/convexity-boxes.ndjson
python3 - "$N" "$F" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(42)
with open(path, "w") as f:
    f.write('{"shapes": {"box": {"type": "box", "half_extents": [1, 1, 1]}}}\n')
    for i in range(n):
        t = [rng.uniform(-3, 3) for _ in range(3)]
        q = [rng.gauss(0, 1) for _ in range(4)]
        s = sum(x * x for x in q) ** 0.5
        q = [x / s for x in q]
        if i % 2:
            a = '{"type": "box", "half_extents": [%.3f, %.3f, %.3f]}' % tuple(rng.uniform(0.2, 1.5) for _ in range(3))
        else:
            a = '"box"'
        f.write('{"a": %s, "b": "box", "pose_b": {"translation": [%.6f, %.6f, %.6f], "rotation": [%.17g, %.17g, %.17g, %.17g]}}\n' % (a, *t, *q))
PY
ls -l "$F"
for t in 1 2; do
  # One thread on one core (pinned: the output writer runs beside the workers) vs two threads
  # on both cores.
  pin=""; [ "$t" = 1 ] && command -v taskset >/dev/null && pin="taskset -c 0"
  /usr/bin/time -v $pin "$BIN" query "$F" --ndjson --threads $t > /tmp/convexity-out-$t.ndjson 2> /tmp/convexity-time-$t.txt || true
  echo "threads $t: $(grep -E 'Elapsed \(wall' /tmp/convexity-time-$t.txt | sed 's/.*: //') wall, $(grep 'Maximum resident' /tmp/convexity-time-$t.txt | sed 's/.*: //') kB peak RSS, $(wc -l < /tmp/convexity-out-$t.ndjson) lines"
done
cmp /tmp/convexity-out-1.ndjson /tmp/convexity-out-2.ndjson && echo "outputs identical"
