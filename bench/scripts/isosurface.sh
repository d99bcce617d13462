#!/usr/bin/env bash
# The figures of docs/benchmarks-isosurface.md: adapt-isosurface on the
# benchmark meshes ("Benchmark meshes with large surfaces"), written as the
# CSV files of docs/figures/ (`make docs-figures` copies them there):
#   isosurface_speedup.csv  ROUNDS processes per mesh (the meshes alternate),
#                           --mode seq,nowin,static,sliding --reps 9 --workers 2:
#                           every row of the app's --csv, the mesh and the
#                           process (run) in front
#   isosurface_vtk.csv      one process per mesh and W in 1 2, --mode all --peers
#                           --verify --reps 5: the mesh in front of two rows of the
#                           app's --csv, our fastest mode and vtkC3DLinearGrid/TBB
#   isosurface_cachesim.csv apps/isosurface/tools/cachesim.sh on CACHESIM_MESH (valgrind,
#                           about a minute per mode on the default mesh)
# Every run has --events none: the columns are the app's without PAPI's.
#
# usage: isosurface.sh BIN OUT_DIR
#   env: ISO_BENCH_MESHES   mesh names (default: the eight of the page); besides
#                           those, FIELD-DIMS is --generate DIMS --field FIELD
#                           (gyroid-20, waves-40x40x20: a smoke run)
#        ISO_BENCH_DATA     make_meshes.sh's directory for the file meshes (built
#                           there when missing; default OUT_DIR/../isosurface-meshes)
#        ISO_BENCH_ROUNDS   processes per mesh of the speed-up table (default 3)
#        ISO_BENCH_REPS     repetitions per process (default 9; the VTK table: 5)
#        ISO_BENCH_CACHESIM mesh options of the simulated caches (default
#                           --generate 320x320x16 --field sphere; none: skipped)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN OUT_DIR" >&2; exit 1; }
bin=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
iso=$here/../../apps/isosurface
read -r -a meshes <<<"${ISO_BENCH_MESHES:-waves100 gyroid100 skull2x liver armadillo armadillo-gyroid bunny bunny-gyroid}"
data=${ISO_BENCH_DATA:-$out/../isosurface-meshes}
rounds=${ISO_BENCH_ROUNDS:-3}
reps=${ISO_BENCH_REPS:-9}
vtk_reps=${ISO_BENCH_REPS:-5}
cachesim=${ISO_BENCH_CACHESIM:---generate 320x320x16 --field sphere}
die() { echo "bench-isosurface: $*" >&2; exit 1; }

# The mesh options of a name (the table of docs/benchmarks-isosurface.md).
mesh_args() {
  case $1 in
    waves100) echo "--generate 100x100x84 --field waves" ;;
    gyroid100) echo "--generate 100 --field gyroid" ;;
    skull2x) echo "--input $data/skull2x.vti --array density --iso 2.9" ;;
    liver) echo "--input $data/liver.vti --array labels --iso 100" ;;
    armadillo) echo "--input $data/armadillo.vtu --array distance --iso -1" ;;
    armadillo-gyroid) echo "--input $data/armadillo.vtu --array gyroid --iso 0" ;;
    bunny) echo "--input $data/bunny.vtu --array distance --iso -0.005" ;;
    bunny-gyroid) echo "--input $data/bunny.vtu --array gyroid --iso 0" ;;
    sphere-* | waves-* | flat-* | gyroid-*) echo "--generate ${1#*-} --field ${1%%-*}" ;;
    *) die "unknown mesh '$1' (a name of the page's table, or FIELD-DIMS)" ;;
  esac
}

# The file meshes, built by make_meshes.sh where missing.
files=()
for m in "${meshes[@]}"; do
  mesh_args "$m" >/dev/null
  case $m in
    skull2x | liver) files+=("$m") ;;
    armadillo* | bunny*) files+=("${m%-gyroid}") ;;
  esac
done
if [ ${#files[@]} -gt 0 ]; then
  mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u)
  bash "$iso/data/make_meshes.sh" "$data" "${files[@]}"
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
machine=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
header() { # the comment lines of a CSV: command, figures
  echo "# machine: $(hostname), $(nproc) CPUs online, ${machine:-unknown CPU}, $(uname -sr)"
  echo "# command: make bench-isosurface (bench/scripts/isosurface.sh $bin OUT_DIR): $1"
  echo "# figures: $2"
}
run() { # mesh, csv, adapt-isosurface options...
  local m=$1 csv=$2
  shift 2
  # shellcheck disable=SC2046
  "$bin" $(mesh_args "$m") "$@" --events none --quiet --csv "$csv" ||
    die "$m: $bin $(mesh_args "$m") $* failed"
}

speedup=$tmp/isosurface_speedup.csv
header "per mesh (ISO_BENCH_MESHES: ${meshes[*]}) and process (run, ISO_BENCH_ROUNDS=$rounds):
#   adapt-isosurface MESH --mode seq,nowin,static,sliding --reps $reps --workers 2 --events none --csv F" \
  "every row of each process, speedup: seq's median over the row's in the same process" >"$speedup"
for r in $(seq 1 "$rounds"); do
  for m in "${meshes[@]}"; do
    echo "bench-isosurface: speed-up, $m, process $r of $rounds"
    run "$m" "$tmp/run.csv" --mode seq,nowin,static,sliding --reps "$reps" --workers 2
    [ -e "$speedup.head" ] || sed -n '1s/^/mesh,run,/p' "$tmp/run.csv" >"$speedup.head"
    sed "1d; s/^/$m,$r,/" "$tmp/run.csv" >>"$speedup.rows"
  done
done
cat "$speedup.head" "$speedup.rows" >>"$speedup"

vtk=$tmp/isosurface_vtk.csv
header "per mesh (${meshes[*]}) and W in 1 2:
#   adapt-isosurface MESH --mode all --peers --verify --reps $vtk_reps --workers W --events none --csv F" \
  "our fastest mode and vtkC3DLinearGrid/TBB of each process (speedup: seq's median over the row's)" >"$vtk"
first=1
for m in "${meshes[@]}"; do
  for w in 1 2; do
    echo "bench-isosurface: against VTK, $m, $w worker(s)"
    run "$m" "$tmp/run.csv" --mode all --peers --verify --reps "$vtk_reps" --workers "$w"
    [ -z "$first" ] || sed -n '1s/^/mesh,/p' "$tmp/run.csv" >>"$vtk"
    first=
    awk -F, -v m="$m" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["kind"] == "libadapt" && (best == "" || $col["time_s"] + 0 < t) { best = $0; t = $col["time_s"] + 0 }
      $col["name"] == "vtkC3DLinearGrid/TBB" { peer = $0 }
      END { if (best == "" || peer == "") exit 1; print m "," best; print m "," peer }' \
      "$tmp/run.csv" >>"$vtk" || die "$m: no libadapt row or no vtkC3DLinearGrid/TBB row"
  done
done

sim=$tmp/isosurface_cachesim.csv
if [ "$cachesim" != none ]; then
  echo "bench-isosurface: simulated caches, $cachesim"
  # shellcheck disable=SC2086
  bash "$iso/cachesim.sh" "$bin" "$tmp/sim.csv" $cachesim
  header "apps/isosurface/tools/cachesim.sh $bin F $cachesim
#   (valgrind's callgrind, --fair-sched=yes, LL ${ISO_SIM_LL:-33554432,16,64}, D1 ${ISO_SIM_D1:-49152,12,64}, ${ISO_SIM_WORKERS:-2} workers)" \
    "one process per mode; deterministic but for the thread interleaving (a few % between runs)" >"$sim"
  cat "$tmp/sim.csv" >>"$sim"
fi
rm -f "$tmp"/run.csv "$tmp"/sim.csv "$speedup".head "$speedup".rows
cp "$tmp"/isosurface_*.csv "$out"/
echo "bench-isosurface: isosurface_speedup.csv, isosurface_vtk.csv$([ "$cachesim" = none ] || echo ", isosurface_cachesim.csv") in $out/"
