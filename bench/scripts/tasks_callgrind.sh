#!/usr/bin/env bash
# Instructions of spawn/sync recursions without a cut-off on ONE worker
# (bench_tasks: fib(N) and the sum of 2^N longs halved down to single
# elements; adapt_spawn/adapt_sync, OpenMP tasks, TBB task_group and the
# sequential recursion), counted by valgrind --tool=callgrind: T1/Ts in
# instructions, the figure a loaded VM does not blur.
#
# bench_tasks --callgrind N runs each implementation three times, the last
# two between callgrind client requests (labels "tasks-<kernel>:<impl>:n=1"
# and "n=2"); this script keeps the second (n=2: lazy initialisation and
# first-touch out of it) and divides by the sequential count.
#
# Usage: bench/scripts/tasks_callgrind.sh BENCH_TASKS [OUT_DIR] [N]
#   OUT_DIR  default build/release/bench-results; writes tasks_callgrind.{csv,txt}
#   N        default 18 (fib(18): 4180 spawns; 2^18 elements)
set -eu
set -o pipefail

bin="${1:?usage: tasks_callgrind.sh BENCH_TASKS [OUT_DIR] [N]}"
out="${2:-build/release/bench-results}"
n="${3:-18}"
me=tasks_callgrind

# shellcheck source=bench/scripts/valgrind_setup.sh
. "$(dirname "$0")/valgrind_setup.sh"
valgrind_setup "$me" "$bin" "$out" "the counts"

ADAPT_WORKERS=1 OMP_NUM_THREADS=1 callgrind_run "$me" -- "$bin" --callgrind "$n"

callgrind_counts | while IFS="$(printf '\t')" read -r label ir; do
  case "$label" in tasks-*:n=2) printf '%s\t%s\n' "${label%:n=2}" "$ir" ;; esac
done >"$tmp/counts.tsv"
[ -s "$tmp/counts.tsv" ] || { echo "$me: no labelled dump; valgrind log:" >&2;
  cat "$tmp/valgrind.log" >&2; exit 1; }

awk -F'\t' -v n="$n" -v csv="$out/$me.csv" -v me="$me" \
  -v when="$(date -u '+%Y-%m-%d %H:%M:%S UTC')" -v host="$(uname -n)" '
  {
    split($1, p, ":"); k = substr(p[1], 7); impl = p[2];
    if (!(k in nk)) { nk[k] = 1; ks[++kc] = k }
    key = k SUBSEP impl; ir[key] = $2;
    if (!(key in seen)) { seen[key] = 1; order[++c] = key }
  }
  END {
    print "date,host,kernel,n,implementation,ir,ir_per_node,ir_over_seq" > csv;
    printf "\n== callgrind instructions, ONE worker: fib(%d), sum of 2^%d longs (no cut-off)\n",
      n, n;
    printf "   %-5s %-18s %14s %12s %10s\n", "case", "implementation", "Ir", "Ir/node",
      "Ir/Ir(seq)";
    for (i = 1; i <= c; i++) {
      split(order[i], q, SUBSEP); k = q[1]; m = q[2];
      seq = ir[k SUBSEP "sequential"];
      # inner nodes of the recursion (one spawn each): fib(n) has fib(n+1)-1, the sum 2^n-1
      if (k == "fib") { a = 0; b = 1; for (j = 0; j < n + 1; j++) { t = a + b; a = b; b = t } nodes = a - 1 }
      else nodes = 2 ^ n - 1;
      printf "   %-5s %-18s %14d %12.1f %10.2f\n", k, m, ir[order[i]], ir[order[i]] / nodes,
        ir[order[i]] / seq;
      printf "\"%s\",\"%s\",%s,%d,\"%s\",%d,%.1f,%.3f\n", when, host, k, n, m, ir[order[i]],
        ir[order[i]] / nodes, ir[order[i]] / seq >> csv;
    }
    printf "   target (adapt spawn/sync): Ir/Ir(seq) <= 3\nCSV: %s\n", csv;
  }' "$tmp/counts.tsv" | tee "$out/$me.txt"
