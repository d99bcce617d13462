#!/usr/bin/env bash
# Instructions of Table 3's declarative kernels (docs/benchmarks-sched.md)
# on ONE worker: fib(F) through nested 2-index loops and nqueens n=Q through
# a nested loop per row, grain 1, no cut-off (bench/kernels/fib.cpp,
# nqueens.cpp), sequential and adapt_for under each scheduler of the
# table, counted by valgrind --tool=callgrind: Ts/T1 in instructions, the
# figure a loaded VM does not blur.
#
# bench_sched --callgrind F,Q runs each variant three times, the last two
# between callgrind client requests (labels "sched-<kernel>:<variant>:n=1"
# and "n=2"); this script keeps the second (n=2: lazy initialisation and
# first-touch out of it) and divides the sequential count by it.
#
# Usage: bench/scripts/sched_callgrind.sh BENCH_SCHED [OUT_DIR] [F] [Q]
#   OUT_DIR  default build/release/bench-results; writes sched_callgrind.{csv,txt}
#   F, Q     default 20 and 9 (fib(20): 10,945 nested loops; nqueens 9: 8,042)
set -eu
set -o pipefail

bin="${1:?usage: sched_callgrind.sh BENCH_SCHED [OUT_DIR] [F] [Q]}"
out="${2:-build/release/bench-results}"
f="${3:-20}"
q="${4:-9}"
me=sched_callgrind

# shellcheck source=bench/scripts/valgrind_setup.sh
. "$(dirname "$0")/valgrind_setup.sh"
valgrind_setup "$me" "$bin" "$out" "the counts"

ADAPT_WORKERS=1 OMP_NUM_THREADS=1 callgrind_run "$me" -- "$bin" --callgrind "$f,$q"

callgrind_counts | while IFS="$(printf '\t')" read -r label ir; do
  case "$label" in sched-*:n=2) printf '%s\t%s\n' "${label%:n=2}" "$ir" ;; esac
done >"$tmp/counts.tsv"
[ -s "$tmp/counts.tsv" ] || { echo "$me: no labelled dump; valgrind log:" >&2;
  cat "$tmp/valgrind.log" >&2; exit 1; }

awk -F'\t' -v f="$f" -v q="$q" -v csv="$out/$me.csv" \
  -v when="$(date -u '+%Y-%m-%d %H:%M:%S UTC')" -v host="$(uname -n)" '
  {
    split($1, p, ":"); k = substr(p[1], 7); impl = p[2];
    key = k SUBSEP impl; ir[key] = $2; order[++c] = key
  }
  END {
    print "date,host,kernel,n,implementation,ir,ir_over_seq,seq_over_ir" > csv;
    printf "\n== callgrind instructions, ONE worker, grain 1: fib(%d), nqueens n=%d (no cut-off)\n",
      f, q;
    printf "   %-8s %-16s %12s %10s %12s\n", "kernel", "implementation", "Ir", "Ir/Ir(seq)",
      "Ts/T1 (Ir)";
    for (i = 1; i <= c; i++) {
      split(order[i], p, SUBSEP); k = p[1]; m = p[2];
      seq = ir[k SUBSEP "sequential"]; n = k == "fib" ? f : q;
      printf "   %-8s %-16s %12d %10.2f %12.3f\n", k, m, ir[order[i]], ir[order[i]] / seq,
        seq / ir[order[i]];
      printf "\"%s\",\"%s\",%s,%d,\"%s\",%d,%.3f,%.3f\n", when, host, k, n, m, ir[order[i]],
        ir[order[i]] / seq, seq / ir[order[i]] >> csv;
    }
    printf "   targets (issue 39, in time): nqueens Ts/T1 >= 0.60, fib >= 0.25\nCSV: %s\n", csv;
  }' "$tmp/counts.tsv" | tee "$out/$me.txt"
