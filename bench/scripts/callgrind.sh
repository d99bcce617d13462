#!/usr/bin/env bash
# Instructions per iteration (bench_core: the overhead loop's
# implementations) or per element (bench_window: adapt_for_each /
# adapt_transform, per-element and range forms, grains, windows) on ONE
# worker, against the plain loop, counted by valgrind --tool=callgrind: the
# repeatable overhead figure on a noisy VM.
#
# BENCH --callgrind N runs every implementation once untimed (lazy
# initialisation), then on N and on 2N iterations (elements), each between
# callgrind client requests (zero the counters, dump them labelled
# "<bench>:<implementation>:n=<size>"). Per implementation:
#   Ir/iter        = (Ir(2N) - Ir(N)) / N      marginal cost of one iteration
#   extra Ir/iter  = Ir/iter - Ir/iter of the plain loop
#   fixed Ir/call  = Ir(N) - N * Ir/iter       cost of one call (region start/end)
#   all-in         = Ir(2N) / 2N               fixed cost included (bench_core only)
#
# Usage: bench/scripts/callgrind.sh BENCH_BINARY [OUT_DIR] [N]
#   BENCH_BINARY  a bench_core or bench_window binary; its name picks the
#                 labels and the outputs $OUT_DIR/{core,window}_callgrind.{csv,txt}
#   OUT_DIR       default build/release/bench-results
#   N             default 65536
# Note: under valgrind the program runs ~50x slower, so bench_core's
# automatic grain (chosen from measured time per chunk) may come out smaller
# than natively; bench_window uses explicit grains.
set -eu
set -o pipefail

bin="${1:?usage: callgrind.sh BENCH_BINARY [OUT_DIR] [N]}"
out="${2:-build/release/bench-results}"
n="${3:-65536}"
bench="$(basename "$bin")"
bench="${bench#bench_}"
case "$bench" in
  core)
    unit=iteration short=iter width=22 full=1
    note='   (automatic grain under valgrind: calibrated on ~50x slower chunks, so smaller than'
    note+=' natively;\n    "adapt grain 4096" stands for the native automatic grain)' ;;
  window)
    unit=element short=elem width=26 full=0
    note='   (explicit grains: the automatic grain is calibrated on time, which valgrind'
    note+=' distorts)' ;;
  *) echo "callgrind: $bin is neither bench_core nor bench_window" >&2; exit 2 ;;
esac
me="${bench}_callgrind"

# shellcheck source=bench/scripts/valgrind_setup.sh
. "$(dirname "$0")/valgrind_setup.sh"
valgrind_setup "$me" "$bin" "$out" "the counts"

# One worker for adapt, whatever the environment says (the binary also asks
# for workers=1 explicitly).
ADAPT_WORKERS=1 callgrind_run "$me" --compress-strings=no --compress-pos=no -- \
  "$bin" --callgrind "$n"

# Labels are "<bench>:<impl>:n=<N>".
callgrind_counts | while IFS="$(printf '\t')" read -r label ir; do
  case "$label" in "$bench":*) printf '%s\t%s\n' "$label" "$ir" ;; esac
done >"$tmp/counts.tsv"

if [ ! -s "$tmp/counts.tsv" ]; then
  echo "$me: no labelled dump found; valgrind log:" >&2
  cat "$tmp/valgrind.log" >&2
  exit 1
fi

# CSV columns: bench_window's per "elem", bench_core's per "iteration" with
# the date, the host and the all-in figures.
col="$short"; [ "$full" = 1 ] && col="$unit"
awk -F'\t' -v n="$n" -v csv="$out/$me.csv" -v when="$(date -u '+%Y-%m-%d %H:%M:%S UTC')" \
  -v host="$(uname -n)" -v unit="$unit" -v short="$short" -v col="$col" -v width="$width" \
  -v full="$full" -v note="$note" -v me="$me" '
  {
    split($1, p, ":");            # <bench>, <impl>, n=<N>
    impl = p[2]; sz = substr(p[3], 3) + 0;
    if (!(impl in seen)) { seen[impl] = 1; order[++k] = impl }
    if (sz == n) ir1[impl] = $2; else if (sz == 2 * n) ir2[impl] = $2;
  }
  END {
    if (!("plain loop" in ir2)) { print me ": no plain-loop count" > "/dev/stderr"; exit 1 }
    base = (ir2["plain loop"] - ir1["plain loop"]) / n;
    base_all = ir2["plain loop"] / (2 * n);
    head = "implementation,n,ir_n,ir_2n,ir_per_" col ",extra_ir_per_" col ",fixed_ir_per_call";
    if (full) head = "date,host," head ",ir_per_" col "_all_in_2n,extra_ir_per_" col "_all_in_2n";
    print head > csv;
    printf "\n== callgrind instructions (Ir) per %s, ONE worker, calls of N=%d and 2N %ss\n",
      unit, n, unit;
    if (full)
      printf "   marginal: (Ir(2N)-Ir(N))/N; fixed: Ir(N) - N*marginal; all-in: Ir(2N)/2N"\
        " (fixed cost included)\n";
    row = "   %-" width "s %10.2f %14.2f %14.0f";
    printf "   %-" width "s %10s %14s %14s", "implementation", "Ir/" short, "extra Ir/" short,
      "fixed Ir/call";
    if (full) printf " %12s %14s", "all-in", "extra all-in";
    printf "\n";
    for (i = 1; i <= k; i++) {
      m = order[i];
      per = (ir2[m] - ir1[m]) / n;
      fixed = ir1[m] - n * per;
      all = ir2[m] / (2 * n);
      printf row, m, per, per - base, fixed;
      if (full) {
        printf " %12.2f %14.2f", all, all - base_all;
        printf "\"%s\",\"%s\",", when, host >> csv;
      }
      printf "\"%s\",%d,%d,%d,%.3f,%.3f,%.0f", m, n, ir1[m], ir2[m], per, per - base, fixed >> csv;
      if (full) printf ",%.3f,%.3f", all, all - base_all >> csv;
      printf "\n";
      printf "\n" >> csv;
    }
    print note;
    printf "CSV: %s\n", csv;
  }' "$tmp/counts.tsv" | tee "$out/$me.txt"
