#!/usr/bin/env bash
# Times one query of `profile_driver` at every stack depth modulo 4 KiB, to find depths where
# a 16-byte store crosses a page (see "Result layout" in convexity::gjk).
#
# How: address-space randomisation off (`setarch -R`), and the stack moved 16 bytes at a time
# by the size of one environment variable, through one 4 KiB period (256 depths); each depth
# is run RUNS times (default 3) and its fastest time kept, so that a burst of load from
# another process does not mark a depth slow. Prints "depth ns" per line, then the median and
# the depths at least 25% slower than it.
#
# Usage: crates/convexity-bench/stack_scan.sh SET QUERY [QUERIES [RUNS]]
#   e.g. crates/convexity-bench/stack_scan.sh sphere distance 20000 3
# The machine should be otherwise idle: a shared core slows every depth alike and hides the
# effect (on the 2-vCPU test VM another tenant did so in stretches of seconds to minutes).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SET=${1:?set, e.g. sphere}
QUERY=${2:?query, e.g. distance}
N=${3:-20000}
RUNS=${4:-3}
command -v setarch > /dev/null || { echo "stack_scan: needs setarch (util-linux)" >&2; exit 1; }
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
cargo build --quiet --release -p convexity-bench --bin profile_driver --manifest-path "$ROOT/Cargo.toml"
BIN=$CARGO_TARGET_DIR/release/profile_driver
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
for depth in $(seq 0 16 4080); do
  pad=$(head -c "$depth" /dev/zero | tr '\0' a)
  best=
  for _ in $(seq 1 "$RUNS"); do
    ns=$(env -i PAD="x$pad" setarch -R "$BIN" "$SET" "$QUERY" convexity "$N" 20 |
      grep -o '[0-9]* ns/query' | cut -d' ' -f1)
    if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
  done
  echo "$depth $best" | tee -a "$OUT"
done
median=$(cut -d' ' -f2 "$OUT" | sort -n | sed -n 128p)
echo "median $median ns; depths at least 25% slower:"
awk -v m="$median" '$2 >= 1.25 * m { printf "%s:%s ", $1, $2 } END { print "" }' "$OUT"
