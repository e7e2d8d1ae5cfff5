#!/usr/bin/env bash
# Runs the convexity-vs-parry benchmark suite, then writes bench-results/gjk.md and
# bench-results/support.md from criterion's results.
#
# Usage (from anywhere):
#   crates/convexity-bench/run.sh              # full suite (~10 min on 2 cores)
#   crates/convexity-bench/run.sh --quick      # short measurement times, to check it works
#   BENCH_SETS=hull8,box crates/convexity-bench/run.sh   # some sets only (keeps other results)
# Extra arguments are passed to criterion (e.g. `--measurement-time 5`).
# The target directory defaults to /work/target-bench (override with CARGO_TARGET_DIR).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-bench}
COMMAND="crates/convexity-bench/run.sh${*:+ $*}"
if [[ -n "${BENCH_SETS:-}" ]]; then COMMAND="BENCH_SETS=$BENCH_SETS $COMMAND"; fi
CRIT_ARGS=()
if [[ "${1:-}" == "--quick" ]]; then
    shift
    CRIT_ARGS=(--warm-up-time 0.5 --measurement-time 1)
    export BENCH_PAIRED_SECS=${BENCH_PAIRED_SECS:-0.3}
fi
CRIT_ARGS+=("$@")
# A full run starts from a clean slate so the tables hold this run's numbers only.
if [[ -z "${BENCH_SETS:-}" ]]; then
    rm -rf "$CARGO_TARGET_DIR/criterion" bench-results/raw/gjk-*.json bench-results/raw/warm-*.json bench-results/raw/bench.log
fi
mkdir -p bench-results/raw
# Record what is measured now: the library may change in the working tree during the run.
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain -- crates/convexity 2>/dev/null)" ]]; then
    COMMIT="$COMMIT + uncommitted changes in crates/convexity"
fi
DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
COMMIT="$COMMIT (benches built at $DATE)"
START=$(date +%s)
cargo bench -p convexity-bench --bench gjk --bench support --bench warm_start \
    -- ${CRIT_ARGS[@]+"${CRIT_ARGS[@]}"} 2>&1 | tee bench-results/raw/bench.log
echo "bench wall time: $(( $(date +%s) - START )) s" | tee -a bench-results/raw/bench.log
cargo run --release -p convexity-bench --bin bench_table -- \
    --criterion "$CARGO_TARGET_DIR/criterion" --out bench-results --command "$COMMAND" \
    --commit "$COMMIT" --date "$DATE"
