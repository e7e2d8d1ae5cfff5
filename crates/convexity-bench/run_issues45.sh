#!/usr/bin/env bash
# Runs the benches of issues 4 (n-D: LP, distance, PSO/penalty, half-spaces) and 5 (polygon,
# segments, tri-tri, TOI), then writes bench-results/issue4.md and bench-results/issue5.md from
# criterion's results (src/bin/issue_tables.rs).
#
# Usage (from anywhere):
#   crates/convexity-bench/run_issues45.sh            # the whole run: ~15 min of benches on 2
#       shared cores (2026-11-22), plus ~11 min of compilation on a cold target directory
#   crates/convexity-bench/run_issues45.sh --tables   # only regenerate the tables
#   crates/convexity-bench/run_issues45.sh --concave-100k   # after a run: measure the skipped
#       100,000-vertex concave batch group alone (~8 min), then regenerate the tables
# Extra arguments are passed to criterion after the defaults (a later flag wins).
#
# Settings: criterion `--warm-up-time 1 --measurement-time 3`; groups that set their own sample
# size (10) keep it. Environment (overridable): BENCH_ND_SEEDS=50 (PSO/penalty table),
# BENCH_CONCAVE_BATCH_MAX_N=10000 (the 100,000-vertex concave batch of 10^6 points is not
# measured: the slab locator is O(n) per query on the random star, about a minute per
# iteration); every other polygon size up to 100,000 is measured.
# The target directory defaults to /work/target-bench (override with CARGO_TARGET_DIR).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-bench}
export BENCH_ND_SEEDS=${BENCH_ND_SEEDS:-50}
export BENCH_CONCAVE_BATCH_MAX_N=${BENCH_CONCAVE_BATCH_MAX_N:-10000}
CRIT="$CARGO_TARGET_DIR/criterion"
RAW=bench-results/raw
TABLES_ONLY=0
CONCAVE_100K=0
if [[ "${1:-}" == "--tables" ]]; then
    TABLES_ONLY=1
    shift
elif [[ "${1:-}" == "--concave-100k" ]]; then
    TABLES_ONLY=1
    CONCAVE_100K=1
    shift
fi
CRIT_ARGS=(--warm-up-time 1 --measurement-time 3 "$@")
if [[ $CONCAVE_100K == 1 ]]; then
    mkdir -p "$RAW"
    L="$RAW/issues45-concave100k.log"
    C100=(cargo bench -p convexity-bench --bench polygon -- "${CRIT_ARGS[@]}"
        '^pip-batch-concave-100000/')
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'): BENCH_CONCAVE_BATCH_MAX_N=100000 ${C100[*]}" >"$L"
    BENCH_CONCAVE_BATCH_MAX_N=100000 "${C100[@]}" 2>&1 | tee -a "$L"
fi
COMMAND="BENCH_ND_SEEDS=$BENCH_ND_SEEDS BENCH_CONCAVE_BATCH_MAX_N=$BENCH_CONCAVE_BATCH_MAX_N \
crates/convexity-bench/run_issues45.sh${*:+ $*} (criterion ${CRIT_ARGS[*]})"
mkdir -p "$RAW"
META="$RAW/issues45-meta.txt"
if [[ $TABLES_ONLY == 0 ]]; then
    # A clean slate for these benches' groups only (the foundation groups stay).
    for g in lp-hull lp-nd nd-sep nd-ovl halfspace- pip- segments- tri_tri- all-pairs- \
        posed-bound roots vertex-edge swept-; do
        rm -rf "$CRIT/$g"*
    done
    COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [[ -n "$(git status --porcelain -- crates/convexity 2>/dev/null)" ]]; then
        COMMIT="$COMMIT + uncommitted changes in crates/convexity"
    fi
    DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf '%s\n%s\n%s\n' "$COMMIT (benches built at $DATE)" "$DATE" "$COMMAND" >"$META"
    LOG="$RAW/issues45-bench.log"
    : >"$LOG"
    START=$(date +%s)
    # One cargo invocation per bench, so a failing bench does not stop the others.
    for b in lp nd halfspace tri_tri toi polygon; do
        T0=$(date +%s)
        echo "=== bench $b ($(date -u '+%H:%M:%S UTC'))" | tee -a "$LOG"
        if ! cargo bench -p convexity-bench --bench "$b" -- "${CRIT_ARGS[@]}" 2>&1 | tee -a "$LOG"; then
            echo "=== bench $b FAILED" | tee -a "$LOG"
        fi
        echo "=== bench $b: $(( $(date +%s) - T0 )) s" | tee -a "$LOG"
    done
    echo "bench wall time: $(( $(date +%s) - START )) s" | tee -a "$LOG"
fi
{ read -r COMMIT; read -r DATE; read -r COMMAND; } <"$META"
# Built together with a bench target so cargo resolves the dependencies' features as for the
# benches and reuses their artifacts (a plain `cargo run --release` would rebuild parry & co.).
cargo build --profile bench -p convexity-bench --bin issue_tables --bench lp
"$CARGO_TARGET_DIR/release/issue_tables" \
    --criterion "$CRIT" --out bench-results --command "$COMMAND" \
    --commit "$COMMIT" --date "$DATE"
