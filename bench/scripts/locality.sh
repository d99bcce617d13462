#!/usr/bin/env bash
# make bench-locality (bench/mk/locality.mk): docs/locality.md.
#  1. measured: the isosurface modes at P = 1, 2, 4, ... up to the cores
#     (and the core count itself), timed (alternating modes, median of
#     LOCALITY_REPS) with PAPI counters where a PMU exists and the model's
#     predicted misses beside them (the machine's shared cache, the app's
#     default window); where PAPI counts nothing, valgrind's simulated cache
#     (cachesim.sh, LL = the shared cache) for P <= LOCALITY_SIM_MAX_P.
#     Two point numberings: first use (the generator's) and random.
#  2. the regime map, model only (locality_map): cell order x point
#     numbering x P x cache size x kernel -> misses of nowin and static
#     over seq (sliding = static in the model).
#  3. the window-size sweep: static's misses against m, the model and the
#     simulator (locality_sim: the paper's kernel run for real) on a small
#     mesh with a scaled cache (the paper's Fig. 3).
# Writes CSVs, locality.md and locality.png into OUTDIR.
#
# usage: locality.sh BIN OUTDIR MAPBIN
#   env: LOCALITY_ARGS (default --generate 128x128x16 --field sphere),
#        LOCALITY_EVENTS (PAPI events; default: PAPI_TOT_CYC,PAPI_L3_TCM where
#        papi_avail lists PAPI_L3_TCM, else the app's default),
#        LOCALITY_REPS (default 5), LOCALITY_SIM_MAX_P (default 2),
#        LOCALITY_CACHE (bytes; default: the shared cache the app finds),
#        LOCALITY_MAP_MESH (default 48x48x17: a prime layer count, see
#        docs/locality.md), LOCALITY_MAP_CACHES (default 65536,262144,1048576),
#        LOCALITY_MAP_ORDERS (cell orders, default "lex morton"), LOCALITY_MODEL_P (default 1,2,4,8,16,32,64),
#        LOCALITY_SWEEP_MESH (default 64x64x12), LOCALITY_SWEEP_CACHE
#        (default 1048576), LOCALITY_SWEEP_SIM (point numberings whose sweep
#        is simulated too, default "keep"; "" for none)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BIN OUTDIR MAPBIN" >&2; exit 1; }
bin=$1; out=$2; map=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
rm -f "$out"/*.csv "$out"/*.txt
# Run copies: a rebuild in the same tree must not delete them mid-run.
tmpbin=$(mktemp -d)
trap 'rm -rf "$tmpbin"' EXIT
cp "$bin" "$tmpbin/adapt-isosurface"; cp "$map" "$tmpbin/locality_map"
bin=$tmpbin/adapt-isosurface; map=$tmpbin/locality_map
start=$(date +%s)

base=${LOCALITY_ARGS:---generate 128x128x16 --field sphere}
reps=${LOCALITY_REPS:-5}
sim_max=${LOCALITY_SIM_MAX_P:-2}
map_mesh=${LOCALITY_MAP_MESH:-48x48x17}
map_caches=${LOCALITY_MAP_CACHES:-65536,262144,1048576}
map_orders=${LOCALITY_MAP_ORDERS:-lex morton}
model_p=${LOCALITY_MODEL_P:-1,2,4,8,16,32,64}
sweep_mesh=${LOCALITY_SWEEP_MESH:-64x64x12}
sweep_cache=${LOCALITY_SWEEP_CACHE:-1048576}
cores=$(nproc)
events=()
if [ -n "${LOCALITY_EVENTS:-}" ]; then
  events=(--events "$LOCALITY_EVENTS")
elif command -v papi_avail > /dev/null; then
  # The shared-cache misses: PAPI's preset where the PMU maps it (Intel),
  # else the app's default events (on Zen the native
  # ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL).
  avail=$(papi_avail -a 2> /dev/null || true)
  grep -q "PAPI_L3_TCM" <<< "$avail" && events=(--events "PAPI_TOT_CYC,PAPI_L3_TCM")
fi
# The shared cache the app models (hwloc; the app's fallback otherwise).
cache=${LOCALITY_CACHE:-$("$bin" --generate 4x4x2 --mode seq --reps 1 --events none \
  --predict-misses 2>/dev/null | sed -n 's/^model: LRU cache of \([0-9]*\) bytes.*/\1/p')}
cache=${cache:-33554432}
echo "bench-locality: $cores cores, shared cache $cache bytes, load $(cut -d' ' -f1-3 /proc/loadavg)" |
  tee "$out/machine.txt"
# Keep the numberings as generated when the binary would renumber them.
# (grep on a variable: with pipefail, `bin --help | grep -q` fails on SIGPIPE.)
help=$("$bin" --help)
keep=""
grep -q -- "--reorder" <<< "$help" && keep="--reorder none"
meshes=(lex)
grep -q -- "--point-order" <<< "$help" && meshes+=(lex-randpts)

plist=""
for ((p = 1; p <= cores; p *= 2)); do plist="$plist $p"; done
[ $((cores & (cores - 1))) -eq 0 ] || plist="$plist $cores"

# ---- 1. measured ----------------------------------------------------------
for name in "${meshes[@]}"; do
  args="$base --order lex $keep"
  [ "$name" = lex-randpts ] && args="$args --point-order random"
  for p in $plist; do
    echo "== $name, $p worker(s): time, counters, model ($(cut -d' ' -f1 /proc/loadavg) load)"
    # shellcheck disable=SC2086
    "$bin" $args --mode all --workers "$p" --reps "$reps" --predict-misses --cache-bytes "$cache" \
      "${events[@]}" --csv "$out/measured-$name-P$p.csv" --quiet | tee "$out/measured-$name-P$p.txt"
    if grep -q "no cache counters" "$out/measured-$name-P$p.txt" && [ "$p" -le "$sim_max" ]; then
      if command -v valgrind > /dev/null; then
        echo "== $name, $p worker(s): no PMU reading, simulated caches (LL $cache bytes)"
        # shellcheck disable=SC2086
        ISO_SIM_WORKERS=$p ISO_SIM_MODES="seq nowin static sliding" ISO_SIM_LL="$cache,16,64" \
          bash "$root/apps/isosurface/tools/cachesim.sh" "$bin" "$out/sim-$name-P$p.csv" $args
      else
        echo "== no PMU reading and no valgrind: no misses measured (install valgrind)"
      fi
    fi
  done
done

# ---- 2. the regime map (model only) ---------------------------------------
echo "== regime map: $map_mesh, caches $map_caches, P $model_p ($(( $(date +%s) - start )) s so far)"
hdr=(--header)
for order in $map_orders; do
  for po in keep random; do
    "$map" --generate "$map_mesh" --order "$order" --point-order "$po" \
      --kernels classified,scalars --workers "$model_p" --cache-bytes "$map_caches" \
      --modes nowin,static "${hdr[@]}" >> "$out/map.csv"
    hdr=()
  done
done

# ---- 3. the window-size sweep ---------------------------------------------
echo "== window sweep: $sweep_mesh, cache $sweep_cache ($(( $(date +%s) - start )) s so far)"
# m from 1/64 to 4x the cache in cells (footprint ~38 bytes a cell), in
# whole blocks of 32 cells as the app rounds them.
cells=$((sweep_cache / 38))
wins=""
for w in $((cells / 64)) $((cells / 32)) $((cells / 16)) $((cells / 8)) $((cells / 4)) \
         $((cells / 2)) $cells $((cells * 2)) $((cells * 4)); do
  w=$(( (w + 31) / 32 * 32 )); [ "$w" -ge 32 ] || w=32
  wins="$wins,$w"
done
wins=${wins#,}
hdr=(--header)
for po in keep random; do
  "$map" --generate "$sweep_mesh" --point-order "$po" --kernels scalars,classified --workers 2 \
    --cache-bytes "$sweep_cache" --modes nowin,static --window "$wins" \
    "${hdr[@]}" >> "$out/sweep-model.csv"
  hdr=()
done
sweep_sim=${LOCALITY_SWEEP_SIM-keep}
simbin=$(dirname "$3")/locality_sim
if [ -n "$sweep_sim" ] && command -v valgrind > /dev/null && [ -x "$simbin" ]; then
  # The paper's kernel (scalars) for real under the simulator: locality_sim
  # through locality_simcheck.sh (one process per mode and window).
  cp "$simbin" "$tmpbin/locality_sim"
  echo "mesh,point_order,window,mode,LL_misses,LL_rel" > "$out/sweep-sim.csv"
  for po in $sweep_sim; do
    sargs="--generate $sweep_mesh --order lex --point-order $po"
    # shellcheck disable=SC2086
    SIMCHECK_MODES="seq nowin" bash "$root/apps/isosurface/tools/locality_simcheck.sh" \
      "$tmpbin/locality_sim" "$map" "$sweep_cache" 2 $sargs |
      awk -F, -v po="$po" -v me="$sweep_mesh" 'NR > 1 {print me "," po ",0," $1 "," $6 ","}' \
      >> "$out/sweep-sim.csv"
    for w in ${wins//,/ }; do
      # shellcheck disable=SC2086
      SIMCHECK_MODES=static SIMCHECK_WINDOW=$w bash "$root/apps/isosurface/tools/locality_simcheck.sh" \
        "$tmpbin/locality_sim" "$map" "$sweep_cache" 2 $sargs |
        awk -F, -v po="$po" -v me="$sweep_mesh" 'NR > 1 {print me "," po "," $4 "," $1 "," $6 ","}' \
        >> "$out/sweep-sim.csv"
    done
  done
fi
echo "== report ($(( $(date +%s) - start )) s so far)"
/usr/bin/python3 "$here/locality_report.py" "$out"
echo "bench-locality: $(( $(date +%s) - start )) s"
