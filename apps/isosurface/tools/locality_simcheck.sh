#!/usr/bin/env bash
# The model's `scalars` kernel against valgrind's cache simulator: runs
# locality_sim (the paper's kernel for real, one process per mode, only the
# kernel instrumented) under callgrind with an LL of CACHE bytes, and
# locality_map (the model) with the same cache, mesh, workers and window,
# and prints both with their ratio. docs/locality.md.
#
# usage: locality_simcheck.sh SIMBIN MAPBIN CACHE_BYTES WORKERS [mesh options...]
#   e.g. locality_simcheck.sh build/release/apps/isosurface/locality_{sim,map} \
#          1048576 2 --generate 48x48x16 --point-order random
#   env: SIMCHECK_MODES (default "seq nowin static"), SIMCHECK_WINDOW (cells;
#        default cache / footprint / 4 as the app, footprint 38 bytes)
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 SIMBIN MAPBIN CACHE_BYTES WORKERS [mesh options]" >&2; exit 1; }
sim=$1; map=$2; cache=$3; p=$4; shift 4
modes=${SIMCHECK_MODES:-seq nowin static}
win=${SIMCHECK_WINDOW:-$((cache / 38 / 4))}
win=$(( (win + 31) / 32 * 32 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$map" "$@" --kernels scalars --workers "$p" --cache-bytes "$cache" --window "$win" \
  --modes "$(echo "$modes" | tr ' ' ,)" > "$tmp/model.csv" 2> /dev/null
echo "mode,workers,cache_bytes,window,model_misses,sim_LL_misses,model_over_sim,model_rel,sim_rel"
seq_sim=""; seq_model=""
for m in $modes; do
  valgrind --tool=callgrind --fair-sched=yes --cache-sim=yes --instr-atstart=no \
    --LL="$cache,16,64" --D1=49152,12,64 --I1=32768,8,64 --callgrind-out-file="$tmp/cg.$m" \
    "$sim" "$@" --modes "$m" --workers "$p" --window "$win" > "$tmp/log.$m" 2>&1 ||
    { cat "$tmp/log.$m" >&2; exit 1; }
  s=$(awk '/^totals:/ {print $9 + $10}' "$tmp/cg.$m")
  mo=$(awk -F, -v m="$m" -v p="$p" '$8 == m && ($6 == p || m == "seq") {print $11; exit}' "$tmp/model.csv")
  [ "$m" = seq ] && { seq_sim=$s; seq_model=$mo; }
  awk -v m="$m" -v p="$p" -v c="$cache" -v w="$win" -v a="$mo" -v b="$s" -v sa="$seq_model" \
    -v sb="$seq_sim" 'BEGIN {printf "%s,%s,%s,%s,%d,%d,%.3f,%.3f,%.3f\n", m, p, c, w, a, b, a / b,
                      sa ? a / sa : 0, sb ? b / sb : 0}'
done
