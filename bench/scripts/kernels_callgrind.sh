#!/usr/bin/env bash
# Instructions of the recursive kernels on ONE worker, counted by valgrind
# --tool=callgrind: the figures a loaded VM does not blur. Two tables:
#   sched  Table 3's declarative kernels (docs/benchmarks-sched.md): fib(F)
#          through nested 2-index loops and nqueens n=Q through a nested loop
#          per row, grain 1, no cut-off (bench/kernels/fib.cpp, nqueens.cpp),
#          sequential and adapt_for under each scheduler: Ts/T1.
#   tasks  spawn/sync recursions without a cut-off (bench_tasks: fib(N) and
#          the sum of 2^N longs halved down to single elements; adapt
#          spawn/sync and fork/join, OpenMP tasks, TBB task_group and the
#          sequential recursion): T1/Ts, and instructions per inner node.
#
# The bench's --callgrind ARG runs each variant three times, the last two
# between callgrind client requests (labels "<table>-<kernel>:<variant>:n=1"
# and "n=2"); the report keeps the second (n=2: lazy initialisation and
# first touch out of it) against the sequential count (the report:
# kernels_callgrind.awk beside this script).
#
# Usage: bench/scripts/kernels_callgrind.sh sched BENCH_SCHED [OUT_DIR] [F] [Q]
#        bench/scripts/kernels_callgrind.sh tasks BENCH_TASKS [OUT_DIR] [N]
#   OUT_DIR  default build/release/bench-results; writes <table>_callgrind.{csv,txt}
#   F, Q     default 20 and 9 (fib(20): 10,945 nested loops; nqueens 9: 8,042)
#   N        default 18 (fib(18): 4180 spawns; 2^18 elements)
set -eu
set -o pipefail

usage="usage: kernels_callgrind.sh sched|tasks BENCH [OUT_DIR] [SIZES]"
table="${1:?$usage}"
bin="${2:?$usage}"
out="${3:-build/release/bench-results}"
case "$table" in
  sched) sizes=(-v f="${4:-20}" -v q="${5:-9}"); arg="${4:-20},${5:-9}" ;;
  tasks) sizes=(-v n="${4:-18}"); arg="${4:-18}" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
me="${table}_callgrind"
here="$(dirname "$0")"

# shellcheck source=bench/scripts/valgrind_setup.sh
. "$here/valgrind_setup.sh"
valgrind_setup "$me" "$bin" "$out" "the counts"
one_worker_counts "$me" "$table-" "$bin" --callgrind "$arg"
awk -F'\t' -v table="$table" "${sizes[@]}" -v csv="$out/$me.csv" -v when="$(date -u '+%Y-%m-%d %H:%M:%S UTC')" \
  -v host="$(uname -n)" -f "$here/kernels_callgrind.awk" "$tmp/counts.tsv" | tee "$out/$me.txt"
