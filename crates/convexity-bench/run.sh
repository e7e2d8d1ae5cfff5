#!/usr/bin/env bash
# Runs one or more benchmark groups and writes their tables to bench-results/ (the one
# entry point of the suite; the table generator is src/bin/tables.rs).
#
# Groups (benches → tables):
#   gjk         gjk, support, warm_start              → gjk.md, support.md   (~10 min)
#   polyhedra   polyhedron_support, gjk_polyhedron,
#               contact                                → polyhedra.md         (~8 min)
#   nd          nd                                     → nd.md                (~3 min)
#   lp          lp, halfspace                          → lp.md                (~15 min)
#   polygons    polygon                                → polygons.md          (~6 min)
#   primitives  tri_tri                                → primitives.md        (~2 min)
#   toi         toi                                    → toi.md               (~1 min)
#   speed       the `speed` binary (user-level calls vs parry3d-f64, interleaved)
#                                                      → speed.md             (~5 min)
#   all         every group above, in that order
# (times: 2 shared cores, warm target directory)
#
# Usage (from anywhere):
#   crates/convexity-bench/run.sh GROUP... [-- CRITERION ARGS]   run, then write the tables
#   crates/convexity-bench/run.sh --quick GROUP...               short criterion settings
#   crates/convexity-bench/run.sh --tables GROUP...              only rewrite the tables from
#                                                                bench-results/raw
#   crates/convexity-bench/run.sh speed [-- SPEED ARGS]          e.g. -- --rounds 5 --pairs 5000
#
# A run of a group first deletes that group's raw files (bench-results/raw/GROUP-*) and its
# criterion directory ($CARGO_TARGET_DIR/criterion-GROUP), runs its benches (output in
# raw/GROUP-bench.log), exports criterion's medians to raw/GROUP-criterion.json, records the
# commit, date, exact command and machine in raw/GROUP-run.txt, and writes the tables. The
# tables are generated from bench-results/raw alone, so `--tables` reproduces them exactly.
#
# Environment read by the benches (recorded in the command when set): BENCH_SETS (gjk: some
# sets only, e.g. hull8,box), BENCH_PAIRED_SECS (gjk, polyhedra: interleaved seconds per
# group, default 1.5; 0.3 with --quick), BENCH_ND_SEEDS (nd, default here 50), BENCH_ND_DIMS,
# BENCH_ND_SKIP_PSO, BENCH_LP_DIMS, BENCH_CONCAVE_BATCH_MAX_N (polygons, default here 10000:
# the 100,000-vertex concave batch costs about a minute per iteration; set 100000 to include
# it), BENCH_MAX_N.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
RAW=bench-results/raw
ORIG_ARGS="$*"
MODE=run
QUICK=0
SEL=()
EXTRA=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --tables) MODE=tables ;;
        --quick) QUICK=1 ;;
        --) shift; EXTRA=("$@"); break ;;
        gjk|polyhedra|nd|lp|polygons|primitives|toi|speed) SEL+=("$1") ;;
        all) SEL+=(gjk polyhedra nd lp polygons primitives toi speed) ;;
        *) echo "unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
    esac
    shift
done
if [[ ${#SEL[@]} -eq 0 ]]; then
    echo "name at least one group (see the header of $0)" >&2
    exit 2
fi

benches_of() {
    case "$1" in
        gjk) echo gjk support warm_start ;;
        polyhedra) echo polyhedron_support gjk_polyhedron contact ;;
        nd) echo nd ;;
        lp) echo lp halfspace ;;
        polygons) echo polygon ;;
        primitives) echo tri_tri ;;
        toi) echo toi ;;
    esac
}

tables() {
    cargo run --release -q -p convexity-bench --bin tables -- "$@"
}

commit_of_tree() {
    local c
    c="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [[ -n "$(git status --porcelain -- crates/convexity crates/convexity-bench 2>/dev/null)" ]]; then
        c="$c + uncommitted changes"
    fi
    echo "$c"
}

machine() {
    echo "$(nproc) cores (nproc), CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
}

run_group() {
    local g=$1
    # The settings each group's benches read; the defaults of the published runs.
    local vars=()
    case "$g" in
        gjk) vars=(BENCH_SETS BENCH_PAIRED_SECS) ;;
        polyhedra) vars=(BENCH_PAIRED_SECS) ;;
        nd) vars=(BENCH_ND_SEEDS BENCH_ND_DIMS BENCH_ND_SKIP_PSO)
            local -x BENCH_ND_SEEDS=${BENCH_ND_SEEDS:-50} ;;
        lp) vars=(BENCH_LP_DIMS) ;;
        polygons) vars=(BENCH_CONCAVE_BATCH_MAX_N BENCH_MAX_N)
            local -x BENCH_CONCAVE_BATCH_MAX_N=${BENCH_CONCAVE_BATCH_MAX_N:-10000} ;;
    esac
    local crit_args=()
    if [[ $QUICK == 1 ]]; then
        crit_args=(--warm-up-time 0.5 --measurement-time 1)
        local -x BENCH_PAIRED_SECS=${BENCH_PAIRED_SECS:-0.3}
    elif [[ $g != gjk ]]; then
        crit_args=(--warm-up-time 1 --measurement-time 3)
    fi
    crit_args+=(${EXTRA[@]+"${EXTRA[@]}"})
    local env_used=""
    for v in ${vars[@]+"${vars[@]}"}; do
        if [[ -n "${!v:-}" ]]; then env_used="$env_used$v=${!v} "; fi
    done
    local benches=($(benches_of "$g"))
    local bench_flags=()
    for b in "${benches[@]}"; do bench_flags+=(--bench "$b"); done
    local date
    date="$(date -u '+%Y-%m-%d %H:%M UTC')"
    local command="${env_used}crates/convexity-bench/run.sh $ORIG_ARGS (= ${env_used}cargo bench -p convexity-bench ${bench_flags[*]} -- ${crit_args[*]})"
    rm -rf "$TARGET/criterion-$g" "$RAW/$g"-*
    mkdir -p "$RAW"
    printf '%s\n%s\n%s\n%s\n' "$(commit_of_tree) (benches built at $date)" "$date" "$command" \
        "$(machine)" >"$RAW/$g-run.txt"
    local log="$RAW/$g-bench.log"
    : >"$log"
    local start
    start=$(date +%s)
    # One cargo invocation per bench, so a failing bench does not stop the others.
    for b in "${benches[@]}"; do
        echo "=== bench $b ($(date -u '+%H:%M:%S UTC'))" | tee -a "$log"
        if ! CRITERION_HOME="$TARGET/criterion-$g" cargo bench -p convexity-bench --bench "$b" \
            -- ${crit_args[@]+"${crit_args[@]}"} 2>&1 | tee -a "$log"; then
            echo "=== bench $b FAILED" | tee -a "$log"
        fi
    done
    echo "bench wall time: $(( $(date +%s) - start )) s" | tee -a "$log"
    tables --import-criterion "$TARGET/criterion-$g" "$g"
}

run_speed() {
    local args=(${EXTRA[@]+"${EXTRA[@]}"})
    if [[ $QUICK == 1 ]]; then args=(--rounds 5 --pairs 4000 "${args[@]}"); fi
    cargo run --release -p convexity-bench --bin speed -- \
        --command "crates/convexity-bench/run.sh $ORIG_ARGS" ${args[@]+"${args[@]}"}
}

status=0
for g in "${SEL[@]}"; do
    if [[ $g == speed ]]; then
        if [[ $MODE == tables ]]; then
            echo "speed.md is written by the speed run itself; nothing to regenerate" >&2
        else
            run_speed || status=1
        fi
    elif [[ $MODE == tables ]]; then
        tables "$g" || status=1
    else
        run_group "$g" || status=1
    fi
done
exit $status
