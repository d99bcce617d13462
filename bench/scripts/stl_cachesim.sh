#!/usr/bin/env bash
# Simulated last-level-cache misses of one windowed algorithm of the C++
# front end, by window mode, for machines without a usable PMU (the team's
# VMs): bench_stl --cachesim MODE runs the binary transform
#   b[i] = a[i] + 0.5 * a[i - R],  i in [R, n)   (adapt::transform with
#   adapt::par.window(mode, m), 2 workers; seq: std::transform)
# whose reuse distance 16 R bytes is 5/8 of the shared cache (between
# cache / 2 and cache): sequentially the second read of a[j] hits the last
# level; two workers far apart double the distance and miss; a window of m
# elements adds only 16 m bytes.
#
# Each mode runs in its own process under valgrind's callgrind with the cache
# simulator on only around the call (CALLGRIND_START/STOP_INSTRUMENTATION)
# and --fair-sched=yes: valgrind runs the threads one at a time, round-robin,
# on ONE simulated hierarchy, so the two workers share the simulated LL as
# they share the L3; the interleaving is valgrind's time slicing, not the
# hardware's. The steal count printed by each run shows that the work was
# split. LRU caches, no prefetcher, no L2 level (callgrind models I1/D1/LL).
#
# Usage: bench/scripts/stl_cachesim.sh BENCH_STL [OUT_DIR]
#   env: STL_SIM_LL (default 33554432,16,64: the 32 MiB shared L3),
#        STL_SIM_D1 (default 49152,12,64), STL_SIM_MODES (default
#        seq none static sliding), STL_SIM_ARGS (more bench_stl options, e.g.
#        --cachesim-m 262144 --cachesim-n 8388608)
# Output: $OUT_DIR/stl_cachesim.csv and stl_cachesim.txt (the table).
#
# bench/scripts/stl_cachesim.sh --ir BENCH_STL [OUT_DIR]: instruction counts
# instead (the 1-worker overhead target of issue 10, measured without
# hardware counters): bench_stl --ir under callgrind (no cache simulation),
# every case of the timed tables on one worker, the sequential std
# algorithm and adapt each once with the counters on only around the call.
#   env: STL_IR_N (elements, default 1000000; sort_string sorts N / 10
#        strings), STL_IR_ARGS (more bench_stl options, e.g. --algos
#        for_each,sort --ops cheap)
# Output: $OUT_DIR/stl_ir.csv and stl_ir.txt: Ir per element of std and
# adapt, and adapt / std.
set -euo pipefail
# shellcheck source=bench/scripts/valgrind_setup.sh
. "$(dirname "$0")/valgrind_setup.sh"

if [ "${1:-}" = "--ir" ]; then
  shift
  bin="${1:?usage: stl_cachesim.sh --ir BENCH_STL [OUT_DIR]}"
  out="${2:-build/release/bench-results}"
  me=stl_ir
  valgrind_setup "$me" "$bin" "$out"
  n=${STL_IR_N:-1000000}
  # Native pass: the grain each case's calibration reaches without valgrind.
  # shellcheck disable=SC2086
  "$bin" --ir --sizes "$n" ${STL_IR_ARGS:-} >"$tmp/grains" 2>&1 || {
    echo "$me: bench_stl --ir (native pass) failed; its log:" >&2
    cat "$tmp/grains" >&2
    exit 1
  }
  grains=$(sed -n 's/^STL_IR_GRAIN //p' "$tmp/grains" | paste -sd, -)
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/ir.out" \
    "$bin" --ir --sizes "$n" --ir-grains "$grains" ${STL_IR_ARGS:-} >"$tmp/log" 2>"$tmp/err" || {
    echo "$me: bench_stl --ir failed; its log:" >&2
    cat "$tmp/log" "$tmp/err" >&2
    exit 1
  }
  # stdout alone (valgrind's and the runtime's stderr apart): whole lines
  # One dump per call, named "ir ALGO OP IMPL" (the client request).
  for f in "$tmp"/ir.out*; do
    awk '/^desc: Trigger: Client Request: ir / {name = $6 " " $7 " " $8}
         /^totals:/ {tot = $2}
         END {if (name != "") print name, tot}' "$f"
  done | sort >"$tmp/ir.txt"
  csv="$out/$me.csv"
  txt="$out/$me.txt"
  echo "algorithm,op,n,grain,seq_Ir,adapt_Ir,seq_Ir_per_elem,adapt_Ir_per_elem,adapt_vs_seq" >"$csv"
  {
    echo "== instructions (valgrind --tool=callgrind), 1 worker, n = $n: Ir per element" \
      "(grain: the native calibration's, in units)"
    printf '   %-18s %-10s %6s %10s %10s %12s\n' algorithm op grain std adapt "adapt/std"
  } | tee "$txt"
  grep '^STL_IR ' "$tmp/log" |
    sed -n 's/.* algo=\([^ ]*\) op=\([^ ]*\) impl=adapt n=\([0-9]*\) grain=\([0-9]*\).*/\1 \2 \3 \4/p' |
    while read -r algo op cnt g; do
      s=$(awk -v a="$algo" -v o="$op" '$1 == a && $2 == o && $3 == "seq" {print $4}' "$tmp/ir.txt")
      d=$(awk -v a="$algo" -v o="$op" '$1 == a && $2 == o && $3 == "adapt" {print $4}' "$tmp/ir.txt")
      [ -n "$s" ] && [ -n "$d" ] || { echo "$me: no counts for $algo $op" >&2; exit 1; }
      read -r sp dp rel < <(awk -v s="$s" -v d="$d" -v c="$cnt" \
        'BEGIN {printf "%.3f %.3f %.4f\n", s / c, d / c, d / s}')
      echo "$algo,$op,$cnt,$g,$s,$d,$sp,$dp,$rel" >>"$csv"
      printf '   %-18s %-10s %6s %10s %10s %12s\n' "$algo" "$op" "$g" "$sp" "$dp" "$rel" | tee -a "$txt"
    done
  cases=$(grep -c '^STL_IR .* impl=seq ' "$tmp/log" || true)
  rows=$(($(wc -l <"$csv") - 1))
  if [ "$rows" != "$cases" ]; then
    echo "$me: $cases cases ran but $rows have both counts" >&2
    exit 1
  fi
  if grep -q 'FAILED=' "$tmp/log"; then
    echo "$me: a wrong result (see FAILED= below)" >&2
    grep 'FAILED=' "$tmp/log" >&2
    exit 1
  fi
  echo "   (CSV: $csv)" | tee -a "$txt"
  exit 0
fi

bin="${1:?usage: stl_cachesim.sh BENCH_STL [OUT_DIR]}"
out="${2:-build/release/bench-results}"
ll=${STL_SIM_LL:-33554432,16,64}
d1=${STL_SIM_D1:-49152,12,64}
modes=${STL_SIM_MODES:-seq none static sliding}
args=${STL_SIM_ARGS:-}
me=stl_cachesim
valgrind_setup "$me" "$bin" "$out"

csv="$out/$me.csv"
txt="$out/$me.txt"
echo "mode,workers,n,reuse_bytes,m,steals,LL,Ir,D1_misses,LL_misses,D1_rel,LL_rel" >"$csv"
{
  echo "== simulated caches (valgrind --tool=callgrind --cache-sim=yes --fair-sched=yes," \
    "LL $ll, D1 $d1)"
  printf '   %-8s %8s %8s %14s %14s %8s %14s %8s\n' mode workers steals Ir "D1 misses" "/ seq" \
    "LL misses" "/ seq"
} | tee "$txt"
seq_d1="" seq_ll=""
for m in $modes; do
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --fair-sched=yes --cache-sim=yes --instr-atstart=no \
    --LL="$ll" --D1="$d1" --I1=32768,8,64 --callgrind-out-file="$tmp/cg.$m" \
    "$bin" --cachesim "$m" $args >"$tmp/log.$m" 2>&1 || {
    echo "$me: mode $m failed; its log:" >&2
    cat "$tmp/log.$m" >&2
    exit 1
  }
  line=$(grep '^STL_CACHESIM ' "$tmp/log.$m") || {
    echo "$me: mode $m printed no STL_CACHESIM line; its log:" >&2
    cat "$tmp/log.$m" >&2
    exit 1
  }
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
  # events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
  read -r ir d1m llm < <(awk '/^totals:/ {print $2, $6 + $7, $9 + $10}' "$tmp/cg.$m")
  if [ -z "$seq_ll" ]; then
    seq_d1=$d1m
    seq_ll=$llm
  fi
  read -r d1rel llrel < <(awk -v a="$d1m" -v b="$seq_d1" -v c="$llm" -v d="$seq_ll" \
    'BEGIN {printf "%.4f %.4f\n", a / b, c / d}')
  echo "$m,$(field workers),$(field n),$(field reuse_bytes),$(field m),$(field steals),${ll//,//},$ir,$d1m,$llm,$d1rel,$llrel" >>"$csv"
  printf '   %-8s %8s %8s %14s %14s %8s %14s %8s\n' "$m" "$(field workers)" "$(field steals)" \
    "$ir" "$d1m" "$d1rel" "$llm" "$llrel" | tee -a "$txt"
done
echo "   (n=$(field n) doubles, reuse distance $(field reuse_bytes) bytes, window m=$(grep -h '^STL_CACHESIM' "$tmp"/log.* | sed -n 's/.* m=\([1-9][0-9]*\).*/\1/p' | head -1) elements; / seq: relative to the first mode; CSV: $csv)" |
  tee -a "$txt"
