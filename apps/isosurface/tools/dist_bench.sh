#!/usr/bin/env bash
# make bench-mpi (bench/mk/mpi.mk, docs/benchmarks-mpi.md): the distributed
# run against ParaView's own distributed contour (pvbatch, Contour on the same
# .pvtu), R ranks each, side by side: per-rank phase times, the job's time,
# memory per rank.
#   dist_bench.sh BIN OUTDIR
# BENCH_MPI_MESH (default 80x80x64 hexahedra, waves field, Hilbert order, 5
# tetrahedra each), BENCH_MPI_PIECES (default 12), BENCH_MPI_RANKS (default
# "1 2 3"), BENCH_MPI_REPS (our extraction's repetitions, default 3),
# BENCH_MPI_PVBATCH (default 1; 0: ours only, ParaView neither installed nor
# run).
# Results: $OUTDIR/mpi_summary.csv, $OUTDIR/mpi_report.md, the raw outputs in
# OUTDIR/mpi/.
#
# pvbatch: Debian 12's python3-paraview conflicts with python3-vtk9, which
# libvtk9-dev (the app's build) depends on: installing it removes VTK's
# headers. So only the paraview package is installed (without its
# recommends), and python3-paraview's modules are unpacked beside VTK's
# (scripts/paraview_python.sh, not installed) for pvbatch's PYTHONPATH.
set -eu
set -o pipefail

bin=$(readlink -f "$1")
out=$(readlink -f "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=apps/isosurface/tools/bench_mpi_common.sh
. "$here/bench_mpi_common.sh"
bench_sizes BENCH_MPI "1 2 3"
pvbatch=${BENCH_MPI_PVBATCH:-1}
bench_enter "$out/mpi"

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
if [ "$pvbatch" = 1 ] && ! command -v pvbatch >/dev/null; then
  echo "bench-mpi: installing paraview (without python3-paraview, see this script)" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    paraview >/dev/null
fi
pvpy=""
pvver=""
if [ "$pvbatch" = 1 ]; then
  pvpy=$(bench_pvpy "$here" --unpack)
  pvver=$(dpkg-query -W -f='${Version}' paraview)
fi

bench_mesh bench-mpi "$bin" "$mesh" "$pieces"
cores=$(nproc)

summary=$out/mpi_summary.csv
echo "tool,ranks,workers_per_rank,read_max_s,extract_max_s,global_merge_max_s,write_max_s,job_s,\
extract_imbalance,rss_max_mib,rss_growth_max_mib,triangles,read_cpu_max_s,extract_cpu_max_s,\
write_cpu_max_s,rss_growth_over_data_max,paraview_opened_cells" >"$summary"

for r in $ranks; do
  w=$((cores / r))
  [ "$w" -lt 1 ] && w=1
  echo "bench-mpi: ours, $r rank(s), $w worker(s) each" >&2
  start=$(date +%s.%N)
  mpirun "${root[@]}" --oversubscribe -np "$r" "$bin" --input mesh.pvtu --iso 0 --mode sliding \
    --workers "$w" --reps "$reps" --events none --output "ours_$r.pvtp" --csv "ours_$r.csv" \
    >"ours_$r.txt" 2>&1
  end=$(date +%s.%N)
  # The per-rank CSV's columns by their names (its header).
  awk -F, -v r="$r" -v w="$w" -v job="$(echo "$end - $start" | bc)" 'NR == 1 {
      for (i = 1; i <= NF; i++) c[$i] = i; next }
    { rd = $c["read_s"] > rd ? $c["read_s"] : rd; e = $c["extract_s"]; ex = e > ex ? e : ex; exs += e
      gm = $c["global_merge_s"] > gm ? $c["global_merge_s"] : gm
      wr = $c["write_s"] > wr ? $c["write_s"] : wr
      p = $c["rss_peak_b"]; rss = p > rss ? p : rss; g = p - $c["rss_base_b"]; gr = g > gr ? g : gr
      t += $c["triangles"]; n++
      cr = $c["read_cpu_s"] > cr ? $c["read_cpu_s"] : cr
      ce = $c["extract_cpu_s"] > ce ? $c["extract_cpu_s"] : ce
      cw = $c["write_cpu_s"] > cw ? $c["write_cpu_s"] : cw
      d = $c["data_b"]; ra = d > 0 && g / d > ra ? g / d : ra }
    END { printf "libadapt,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.1f,%.1f,%d,%.3f,%.3f,%.3f,%.3f,",
          r, w, rd, ex, gm, wr, job, (exs > 0 ? ex / (exs / n) : 0), rss / 1048576, gr / 1048576,
          t, cr, ce, cw, ra }' "ours_$r.csv" >>"$summary"
  if [ "$pvbatch" != 1 ]; then
    echo >>"$summary"
    continue
  fi
  # ParaView opens our surface: its cell count ends the row.
  PYTHONPATH=$pvpy pvbatch "$here/dist_bench_pv.py" --open "ours_$r.pvtp" >"open_$r.txt" 2>&1
  awk '/^pvbatch opened/ { print $4 }' "open_$r.txt" >>"$summary"

  echo "bench-mpi: pvbatch, $r rank(s)" >&2
  start=$(date +%s.%N)
  PYTHONPATH=$pvpy mpirun "${root[@]}" --oversubscribe -np "$r" pvbatch --symmetric \
    "$here/dist_bench_pv.py" mesh.pvtu waves 0 "pv_$r.pvtp" >"pv_$r.txt" 2>&1
  end=$(date +%s.%N)
  awk -v r="$r" -v job="$(echo "$end - $start" | bc)" '/^pvbatch rank/ {
      rd = $7 > rd ? $7 : rd; ex = $9 > ex ? $9 : ex; exs += $9; wr = $11 > wr ? $11 : wr
      rss = $15 > rss ? $15 : rss; g = $15 - $13; gr = g > gr ? g : gr; t += $17; n++
      cr = $19 > cr ? $19 : cr; ce = $20 > ce ? $20 : ce; cw = $21 > cw ? $21 : cw }
    END { if (n != r) { print "pvbatch: " n " rank lines, want " r > "/dev/stderr"; exit 1 }
          printf "pvbatch,%d,1,%.3f,%.3f,,%.3f,%.3f,%.2f,%.1f,%.1f,%d,%.3f,%.3f,%.3f,,\n", r, rd,
          ex, wr, job, (exs > 0 ? ex / (exs / n) : 0), rss / 1024, gr / 1024, t, cr, ce,
          cw }' "pv_$r.txt" >>"$summary"
done

{
  echo "# make bench-mpi: adapt-isosurface under mpirun vs ParaView's pvbatch"
  echo
  echo "Mesh: --generate $mesh (waves, Hilbert order, $(grep -o '[0-9]* tetrahedra' gen.txt | head -1)),"
  echo "$pieces pieces; iso 0; $cores cores; ours: mode sliding, median of $reps extractions;"
  if [ "$pvbatch" = 1 ]; then
    echo "pvbatch: ParaView $pvver, Contour (one run). Times in seconds, the maximum over the ranks"
  else
    echo "pvbatch: not run (BENCH_MPI_PVBATCH=0). Times in seconds, the maximum over the ranks"
  fi
  echo "(wall; cpu: the process's CPU time, robust to a loaded machine); job: mpirun's wall time"
  echo "(start-up included). RSS: peak per rank; growth: peak minus the RSS before reading;"
  echo "growth / data: over the rank's mesh share and surface in the app's layout (target 1.3)."
  echo "ParaView opened: the cells pvbatch reads back from our .pvtp."
  echo
  echo "| tool | ranks | workers/rank | read | read cpu | extract/contour | its cpu | global merge | write | write cpu | job | extract imbalance | RSS MiB | growth MiB | growth / data | triangles | ParaView opened |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$summary" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
    $1, $2, $3, $4, $13, $5, $14, ($6 == "" ? "-" : $6), $7, $15, $8, $9, $10, $11,
    ($16 == "" ? "-" : $16), $12, ($17 == "" ? "-" : $17) }'
} >"$out/mpi_report.md"
cat "$out/mpi_report.md"
