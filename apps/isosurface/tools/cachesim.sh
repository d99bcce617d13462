#!/usr/bin/env bash
# Simulated cache misses of each extraction mode, for machines where PAPI
# finds no PMU (VMs without PMU pass-through, like the team machines).
#
# Each mode runs in its own process under valgrind's callgrind with the
# cache simulator on only during the extraction (CALLGRIND_START/STOP
# around extract() in cli_phases.cpp). Valgrind runs the worker threads one at a
# time on ONE simulated cache hierarchy, so the workers share the simulated
# last-level cache as they share the real L3; the thread interleaving is
# valgrind's time slicing, not the hardware's.
#
# usage: cachesim.sh BIN OUT.csv [adapt-isosurface mesh options...]
#   env: ISO_SIM_LL (default 33554432,16,64: the 32 MiB shared L3),
#        ISO_SIM_D1 (default 49152,12,64), ISO_SIM_MODES (default seq nowin static sliding),
#        ISO_SIM_WORKERS (default 2)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BIN OUT.csv [mesh options]" >&2; exit 1; }
bin=$1; out=$2; shift 2
command -v valgrind >/dev/null ||
  { echo "cachesim: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
ll=${ISO_SIM_LL:-33554432,16,64}
d1=${ISO_SIM_D1:-49152,12,64}
modes=${ISO_SIM_MODES:-seq nowin static sliding}
workers=${ISO_SIM_WORKERS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "name,workers,LL,Ir,D1_misses,LL_misses,D1_rel,LL_rel" > "$out"
seq_d1=""; seq_ll=""
for m in $modes; do
  valgrind --tool=callgrind --fair-sched=yes --cache-sim=yes --instr-atstart=no \
    --LL="$ll" --D1="$d1" --I1=32768,8,64 --callgrind-out-file="$tmp/cg.$m" \
    "$bin" "$@" --mode "$m" --reps 1 --events none --workers "$workers" --quiet \
    > "$tmp/log.$m" 2>&1 || { cat "$tmp/log.$m" >&2; exit 1; }
  # events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
  read -r ir d1m llm < <(awk '/^totals:/ {print $2, $6 + $7, $9 + $10}' "$tmp/cg.$m")
  if [ "$m" = seq ]; then seq_d1=$d1m; seq_ll=$llm; fi
  if [ -n "$seq_ll" ]; then
    rel=$(awk -v a="$d1m" -v b="$seq_d1" -v c="$llm" -v d="$seq_ll" \
      'BEGIN {printf "%.4f,%.4f", a / b, c / d}')
  else
    rel=","
  fi
  echo "$m,$workers,${ll//,/\/},$ir,$d1m,$llm,$rel" >> "$out"
  printf 'cachesim: %-8s D1 misses %12s  LL misses %12s  (rel. to seq: %s)\n' \
    "$m" "$d1m" "$llm" "$rel"
done
