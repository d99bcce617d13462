#!/usr/bin/env bash
# The VTK filter's figures of docs/benchmarks-isosurface.md ("The VTK filter
# in a pipeline"), from bench/isosurface/bench_vtk_filter.cpp:
#   timed:     vtk_filter.csv        one process per mesh: ROUNDS alternated
#                                    rounds of the filter, the core and
#                                    vtkContour3DLinearGrid (TBB) at 1 and 2
#                                    threads and vtkContourGrid, with 0 and 3
#                                    extra point arrays (the driver's CSV)
#              vtk_filter_memory.csv one process per mesh, variant and array
#                                    count at 2 threads: the RSS high-water
#                                    mark's growth over the input
#              vtk_filter_summary.csv  one row per mesh and array count: the
#                                    filter's rows of both, 1 and 2 workers
#                                    side by side (the page's table)
#   callgrind: vtk_filter_callgrind.csv  instructions of one run of the filter,
#                                    the core and vtkContour3DLinearGrid on
#                                    CALLGRIND's mesh, 1 worker (thread), 0 and
#                                    3 arrays (valgrind --tool=callgrind)
#
# usage: vtk_filter.sh timed|callgrind BENCH_BIN ISO_BIN OUT_DIR
#        vtk_filter.sh summary - - OUT_DIR   (the summary of OUT_DIR's CSV files)
#   env: VTKF_BENCH_MESHES  mesh names of the table of bench/scripts/isosurface.sh
#                           (default: its eight), or FIELD-DIMS (--generate DIMS
#                           --field FIELD of adapt-isosurface)
#        VTKF_BENCH_ROUNDS  rounds per mesh (default 5)
#        VTKF_BENCH_APPEND  1: append the meshes' rows to OUT_DIR's CSV files (a
#                           run split in parts; the summary covers them all)
#        VTKF_BENCH_CALLGRIND  the mesh counted (default gyroid-60)
#        ISO_BENCH_DATA     the meshes' directory: make_meshes.sh's files (built
#                           there when missing), the generated meshes written
#                           there once as .vtu by ISO_BIN --save-mesh
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 timed|callgrind|summary BENCH_BIN ISO_BIN OUT_DIR" >&2; exit 1; }
what=$1 bench=$2 isobin=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
read -r -a meshes <<<"${VTKF_BENCH_MESHES:-waves100 gyroid100 skull2x liver armadillo armadillo-gyroid bunny bunny-gyroid}"
rounds=${VTKF_BENCH_ROUNDS:-5}
counted=${VTKF_BENCH_CALLGRIND:-gyroid-60}
data=${ISO_BENCH_DATA:-$out/../isosurface-meshes}
die() { echo "bench-vtk-filter: $*" >&2; exit 1; }
mkdir -p "$data" "$out"
[ "$what" = summary ] || bench=$(realpath "$bench") isobin=$(realpath "$isobin")
data=$(realpath "$data")

# generate NAME DIMS FIELD: the generated mesh as a .vtu, written once.
generate() {
  [ -e "$data/$1.vtu" ] || "$isobin" --generate "$2" --field "$3" --save-mesh "$data/$1.vtu" \
    --mode seq --reps 1 --quiet >/dev/null || die "$isobin --generate $2 --field $3 --save-mesh failed"
}

# The driver's options of a mesh name (file, array, isovalue), the files
# built where missing.
mesh_args() {
  local m=$1
  case $m in
    waves100) generate "$m" 100x100x84 waves; echo "--input $data/$m.vtu --array waves --iso 0" ;;
    gyroid100) generate "$m" 100 gyroid; echo "--input $data/$m.vtu --array gyroid --iso 0" ;;
    skull2x | liver)
      bash "$here/../../apps/isosurface/data/make_meshes.sh" "$data" "$m" >&2
      [ "$m" = skull2x ] && echo "--input $data/skull2x.vti --array density --iso 2.9" ||
        echo "--input $data/liver.vti --array labels --iso 100" ;;
    armadillo* | bunny*)
      bash "$here/../../apps/isosurface/data/make_meshes.sh" "$data" "${m%-gyroid}" >&2
      case $m in
        armadillo) echo "--input $data/armadillo.vtu --array distance --iso -1" ;;
        bunny) echo "--input $data/bunny.vtu --array distance --iso -0.005" ;;
        *) echo "--input $data/${m%-gyroid}.vtu --array gyroid --iso 0" ;;
      esac ;;
    sphere-* | waves-* | flat-* | gyroid-*)
      local f=${m%%-*} iso=0
      [ "$f" = sphere ] && iso=0.6
      generate "$m" "${m#*-}" "$f"
      echo "--input $data/$m.vtu --array $f --iso $iso" ;;
    *) die "unknown mesh '$m' (a name of the table of bench/scripts/isosurface.sh, or FIELD-DIMS)" ;;
  esac
}

machine=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
header() { # the comment lines of a CSV: command, figures
  echo "# machine: $(hostname), $(nproc) CPUs online, ${machine:-unknown CPU}, $(uname -sr)"
  echo "# command: make bench-vtk-filter$([ "$what" = timed ] || echo -callgrind) (bench/scripts/vtk_filter.sh): $1"
  echo "# figures: $2"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timed() {
  local csv=$out/vtk_filter.csv mem=$out/vtk_filter_memory.csv m args v a first=
  if [ "${VTKF_BENCH_APPEND:-0}" = 0 ] || [ ! -e "$csv" ]; then
    header "per mesh: bench_vtk_filter --mesh M MESH --rounds $rounds --workers 1,2" \
      "medians and minima of $rounds alternated rounds per mesh (one process); vs_X: the row's over X's at the same workers and arrays; speedup: the filter's at 1 worker over the row's; load: load average before-after" >"$csv"
    header "per mesh, variant and arrays (0, 3): bench_vtk_filter --mesh M MESH --memory VARIANT --workers 2 --arrays A" \
      "input_mib: RSS with the input built; peak_mib: growth of the RSS high-water mark over it in two runs; faults: minor page faults of the second run; vs_c3dlg: peak_mib over vtkContour3DLinearGrid's" >"$mem"
    first=1
  fi
  for m in "${meshes[@]}"; do
    args=$(mesh_args "$m")
    echo "bench-vtk-filter: $m: $rounds rounds (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    # shellcheck disable=SC2086
    "$bench" --mesh "$m" $args --rounds "$rounds" --workers 1,2 --csv "$tmp/run.csv" ||
      die "$m: $bench failed"
    if [ -n "$first" ]; then cat "$tmp/run.csv"; else sed 1d "$tmp/run.csv"; fi >>"$csv"
    echo "bench-vtk-filter: $m: peak memory"
    echo "mesh,variant,workers,arrays,input_mib,peak_mib,faults" >"$tmp/mem.rows"
    for a in 0 3; do
      for v in filter core c3dlg cg; do
        # shellcheck disable=SC2086
        "$bench" --mesh "$m" $args --memory "$v" --workers 2 --arrays "$a" >>"$tmp/mem.rows" ||
          die "$m: $bench --memory $v failed"
      done
    done
    awk -F, -v first="${first:-}" 'NR == 1 { if (first) print $0 ",vs_c3dlg"; next }
      { row[NR] = $0; key[NR] = $4; if ($2 == "c3dlg") ref[$4] = $6; peak[NR] = $6 }
      END { for (i = 2; i <= NR; i++) printf "%s,%.2f\n", row[i], peak[i] / ref[key[i]] }' \
      "$tmp/mem.rows" >>"$mem"
    first=
  done
  summary
  echo "bench-vtk-filter: vtk_filter.csv, vtk_filter_memory.csv, vtk_filter_summary.csv in $out/"
}

# The filter's rows of vtk_filter.csv and vtk_filter_memory.csv, per mesh and
# array count: f1_/f2_ at 1 and 2 workers (median ms, over
# vtkContour3DLinearGrid's median and minimum, over the core's median and
# minimum), speedup2 (1 worker's median over 2 workers'), cg_x (vtkContourGrid's
# median over the filter's at 1 worker), peak_mib, peak_vs_c3dlg and the minor
# page faults of a run (faults; core_ and c3dlg_faults: theirs), at 2 workers.
summary() {
  local csv=$out/vtk_filter.csv mem=$out/vtk_filter_memory.csv sum=$tmp/vtk_filter_summary.csv
  [ -e "$csv" ] && [ -e "$mem" ] || die "no $csv or $mem"
  sed -n '/^# machine/p; /^# command/p' "$csv" >"$sum"
  echo "# figures: the filter's rows of vtk_filter.csv and vtk_filter_memory.csv per mesh and arrays (bench/scripts/vtk_filter.sh, summary)" >>"$sum"
  awk -F, 'FNR == 1 && /^#/ { next } /^#/ || $1 == "mesh" { next }
    FILENAME ~ /memory/ { k = $1 "," $4; if ($2 == "filter") { peak[k] = $6; pv[k] = $8; ff[k] = $7 }
      if ($2 == "core") cf[k] = $7; if ($2 == "c3dlg") lf[k] = $7; next }
    { k = $1 "," $4 }
    !(k in seen) { seen[k] = 1; order[++n] = k; tris[k] = $6; load[k] = $16 }
    $5 == "cg" { cg[k] = $9 }
    $5 == "filter" { w = $3; ms[k, w] = 1000 * $9; vl[k, w] = $11; vlm[k, w] = $12; vc[k, w] = $13; vcm[k, w] = $14 }
    END {
      print "mesh,arrays,triangles,f1_ms,f1_vs_c3dlg,f1_vs_c3dlg_min,f1_vs_core,f1_vs_core_min,f2_ms,f2_vs_c3dlg,f2_vs_c3dlg_min,f2_vs_core,f2_vs_core_min,speedup2,cg_x,peak_mib,peak_vs_c3dlg,faults,core_faults,c3dlg_faults,load"
      for (i = 1; i <= n; i++) { k = order[i]
        printf "%s,%s,%.2f,%s,%s,%s,%s,%.2f,%s,%s,%s,%s,%.2f,%.2f,%s,%s,%s,%s,%s,%s\n", k, tris[k],
          ms[k, 1], vl[k, 1], vlm[k, 1], vc[k, 1], vcm[k, 1], ms[k, 2], vl[k, 2], vlm[k, 2], vc[k, 2], vcm[k, 2],
          ms[k, 1] / ms[k, 2], 1000 * cg[k] / ms[k, 1], peak[k], pv[k], ff[k], cf[k], lf[k], load[k] } }' \
    "$mem" "$csv" >>"$sum"
  cp "$sum" "$out"/
}

callgrind() {
  local csv=$tmp/vtk_filter_callgrind.csv args v a ir
  command -v valgrind >/dev/null || die "valgrind missing (bash scripts/deps.sh)"
  args=$(mesh_args "$counted")
  header "bench_vtk_filter --mesh $counted MESH --callgrind VARIANT --workers 1 --arrays A under valgrind --tool=callgrind" \
    "instructions (Ir) of one run after an untimed one; vs_core, vs_c3dlg: the row's over the core's, over vtkContour3DLinearGrid's at the same arrays" >"$csv"
  echo "mesh,variant,workers,arrays,Ir" >"$tmp/rows"
  for a in 0 3; do
    for v in filter core c3dlg; do
      echo "bench-vtk-filter: callgrind, $counted, $v, $a arrays"
      # shellcheck disable=SC2086
      (cd "$tmp" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out.%p" \
        "$bench" --mesh "$counted" $args --callgrind "$v" --workers 1 --arrays "$a") \
        >"$tmp/vg.log" 2>&1 || { cat "$tmp/vg.log" >&2; die "callgrind $v failed"; }
      ir=$(grep -l "^desc: Trigger: Client Request: $v" "$tmp"/cg.out.* | head -1 |
        xargs sed -n 's/^summary: \([0-9]*\).*/\1/p')
      [ -n "$ir" ] || die "no dump labelled $v"
      echo "$counted,$v,1,$a,$ir" >>"$tmp/rows"
      rm -f "$tmp"/cg.out.*
    done
  done
  awk -F, 'NR == 1 { print $0 ",vs_core,vs_c3dlg"; next }
    { row[NR] = $0; if ($2 == "core") core[$4] = $5; if ($2 == "c3dlg") lin[$4] = $5; ir[NR] = $5; a[NR] = $4 }
    END { for (i = 2; i <= NR; i++) printf "%s,%.4f,%.4f\n", row[i], ir[i] / core[a[i]], ir[i] / lin[a[i]] }' \
    "$tmp/rows" >>"$csv"
  cp "$csv" "$out"/
  echo "bench-vtk-filter: vtk_filter_callgrind.csv in $out/"
}

case $what in
  timed) timed ;;
  callgrind) callgrind ;;
  summary) summary ;;
  *) die "unknown step '$what' (timed, callgrind)" ;;
esac
