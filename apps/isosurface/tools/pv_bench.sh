#!/usr/bin/env bash
# make bench-paraview (bench/mk/paraview.mk, docs/benchmarks-mpi.md, "Inside
# pvbatch"): the ParaView plugin's AdaptiveContour against ParaView's own
# Contour in the same pvbatch pipeline (pv_bench.py), 1 and 2 ranks, on the
# benchmark mesh of make bench-mpi, side by side: read, contour (wall and
# CPU), peak RSS per rank, triangles.
#   pv_bench.sh BIN PLUGIN OUTDIR
# BIN: adapt-isosurface (writes the mesh). BENCH_PV_MESH (default
# 80x80x64, waves field, Hilbert order), BENCH_PV_PIECES (12),
# BENCH_PV_RANKS ("1 2"), BENCH_PV_REPS (3). Every run under mpirun
# --bind-to none (ParaView's threads and ours may use every core; ours
# take the rank's share, docs/paraview.md). Results: $OUTDIR/pv_summary.csv,
# $OUTDIR/pv_report.md, the raw outputs in $OUTDIR/pv/.
set -eu
set -o pipefail

bin=$(readlink -f "$1")
plugin=$(readlink -f "$2")
out=$(readlink -f "$3")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=apps/isosurface/tools/bench_mpi_common.sh
. "$here/bench_mpi_common.sh"
bench_sizes BENCH_PV "1 2"
bench_enter "$out/pv"
pvpy=$(bench_pvpy "$here")

bench_mesh bench-paraview "$bin" "$mesh" "$pieces"
summary=$out/pv_summary.csv
echo "filter,ranks,read_max_s,read_cpu_max_s,contour_max_s,contour_cpu_max_s,contour_cpu_sum_s,rss_max_mib,\
rss_growth_max_mib,triangles" >"$summary"
for r in $ranks; do
  for f in Contour AdaptiveContour; do
    echo "bench-paraview: $f, $r rank(s)" >&2
    PYTHONPATH=$pvpy mpirun "${root[@]}" --oversubscribe --bind-to none -np "$r" \
      pvbatch --symmetric "$here/pv_bench.py" "$plugin" mesh.pvtu waves 0 "$f" "$reps" \
      >"${f}_$r.txt" 2>&1
    awk -v f="$f" -v r="$r" '$1 == "pv_bench" && $2 == f {
        rd = $8 > rd ? $8 : rd; rc = $10 > rc ? $10 : rc; ex = $12 > ex ? $12 : ex
        c = $14 > c ? $14 : c; cs += $14
        rss = $18 > rss ? $18 : rss; g = $18 - $16; gr = g > gr ? g : gr; t += $20; n++ }
      END { if (n != r) { print "pv_bench: " n " rank lines, want " r > "/dev/stderr"; exit 1 }
            printf "%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%d\n", f, r, rd, rc, ex, c, cs,
            rss / 1024, gr / 1024, t }' "${f}_$r.txt" >>"$summary"
  done
done

{
  echo "# make bench-paraview: AdaptiveContour (the plugin) vs Contour inside pvbatch"
  echo
  echo "Mesh: --generate $mesh (waves, Hilbert order, $(grep -o '[0-9]* tetrahedra' gen.txt | head -1)),"
  echo "$pieces pieces; iso 0; scalars and normals off; $(nproc) cores; mpirun --bind-to none;"
  echo "ParaView $(dpkg-query -W -f='${Version}' paraview). Times in seconds, the maximum over the"
  echo "ranks (contour: median of $reps runs; cpu: the process's, every thread); RSS: peak per rank,"
  echo "growth: over the RSS after reading."
  echo
  echo "| filter | ranks | read | read cpu | contour | contour cpu | cpu, all ranks | RSS MiB | growth MiB | triangles |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$summary" | tr ',' ' ' | while read -r f r rd rc ex c cs rss g t; do
    echo "| $f | $r | $rd | $rc | $ex | $c | $cs | $rss | $g | $t |"
  done
} >"$out/pv_report.md"
cat "$out/pv_report.md"
