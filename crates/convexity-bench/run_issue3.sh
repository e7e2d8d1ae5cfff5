#!/usr/bin/env bash
# Runs the issue-3 ("Polyhedra") benchmarks, then writes bench-results/issue3.md.
#
# Benches (criterion, each with parry3d-f64 on the same seeded inputs in the same run):
#   polyhedron_support  support query vs hull size: linear, hill climbing, far starts, hint, DK
#   gjk_polyhedron      GJK distance/boolean on hull1024 and hull10000, coherent hull1024
#   contact             box-box and hull128 SAT+clipping contact; coherent hull128 trajectory
#
# Usage (from anywhere):
#   crates/convexity-bench/run_issue3.sh                 # benches + tables (~8 min on 2 cores)
#   crates/convexity-bench/run_issue3.sh --tables-only   # regenerate issue3.md from the last run
# Extra arguments are passed to criterion after the default settings below.
# The target directory defaults to /work/target-bench (override with CARGO_TARGET_DIR);
# criterion's output goes to $CARGO_TARGET_DIR/criterion-issue3 (cleared before a run).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-bench}
export CRITERION_HOME="$CARGO_TARGET_DIR/criterion-issue3"
CRIT_ARGS=(--warm-up-time 1 --measurement-time 3)
BENCHES=(--bench polyhedron_support --bench gjk_polyhedron --bench contact)
TABLES_ONLY=0
if [[ "${1:-}" == "--tables-only" ]]; then
    TABLES_ONLY=1
    shift
fi
CRIT_ARGS+=("$@")
COMMAND="crates/convexity-bench/run_issue3.sh${*:+ $*}  (= cargo bench -p convexity-bench ${BENCHES[*]} -- ${CRIT_ARGS[*]}; BENCH_PAIRED_SECS=${BENCH_PAIRED_SECS:-1.5})"
mkdir -p bench-results/raw
STAMP=bench-results/raw/issue3-run.txt
if [[ $TABLES_ONLY == 0 ]]; then
    rm -rf "$CRITERION_HOME" bench-results/raw/issue3-*.json
    COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [[ -n "$(git status --porcelain -- crates/convexity crates/convexity-bench 2>/dev/null)" ]]; then
        COMMIT="$COMMIT + uncommitted changes"
    fi
    DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf '%s\n%s\n' "$COMMIT (benches built at $DATE)" "$DATE" > "$STAMP"
    START=$(date +%s)
    cargo bench -p convexity-bench "${BENCHES[@]}" -- "${CRIT_ARGS[@]}" 2>&1 \
        | tee bench-results/raw/issue3-bench.log
    echo "bench wall time: $(( $(date +%s) - START )) s" | tee -a bench-results/raw/issue3-bench.log
fi
COMMIT=$(sed -n 1p "$STAMP")
DATE=$(sed -n 2p "$STAMP")
cargo run --release -p convexity-bench --bin issue3_table -- \
    --criterion "$CRITERION_HOME" --out bench-results --command "$COMMAND" \
    --commit "$COMMIT" --date "$DATE"
