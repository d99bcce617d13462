#!/usr/bin/env bash
# `make demo` (target demo-run): a real dataset from a Debian package (the
# skull image of libcgal-demo, resampled to 10 M tetrahedra by
# apps/isosurface/data/make_meshes.sh), every extraction mode and the VTK peers on the same
# thread count, verification against VTK, the rendering (the surface shaded
# and coloured by the volume's gradient magnitude, titled with the numbers)
# and the chart.
#
# usage: demo.sh BIN OUTDIR
#   env: ISO_DEMO_ARGS  mesh options instead of the skull (e.g. --generate 320x320x16
#                       --field sphere, or --input FILE --array NAME --iso V)
#        ISO_DEMO_COLOR point array of the --input file colouring the picture
#                       (default: gradient_magnitude for the skull, none otherwise)
#        ISO_DEMO_WORKERS (default 2), ISO_DEMO_REPS (default 7)
#        ISO_DEMO_WINDOW window of workers.png's runs, cells (default 98304)
#        ISO_DEMO_CACHESIM=1 adds the simulated caches (../tools/cachesim.sh, about a minute per mode)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 1; }
bin=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
iso=$(cd "$here/.." && pwd) # apps/isosurface: data/ and tools/ beside cli/
mkdir -p "$out"
workers=${ISO_DEMO_WORKERS:-2}
reps=${ISO_DEMO_REPS:-7}
start=$SECONDS
phase() { echo "== [$((SECONDS - start)) s] $*"; }

if [ -n "${ISO_DEMO_ARGS:-}" ]; then
  args=$ISO_DEMO_ARGS
  color=${ISO_DEMO_COLOR:-}
  label="adapt-isosurface $args"
  color_source=""
  read -r -a words <<<"$args"
  for i in "${!words[@]}"; do
    [ "${words[$i]}" = --input ] && color_source=${words[$((i + 1))]:-}
  done
  if [ -n "$color" ] && [ -z "$color_source" ]; then
    echo "demo: ISO_DEMO_COLOR needs an --input FILE (.vti or .vtu) in ISO_DEMO_ARGS" >&2
    exit 1
  fi
else
  # skull_2.9.inr (libcgal-demo): a 64^3 float volume, iso 2.9 its bone
  # surface; resampled x2 (cubic) it is 127^3 points, 10.0 M tetrahedra,
  # 371 k triangles.
  phase "benchmark mesh: skull_2.9.inr of libcgal-demo, resampled x2 (data/make_meshes.sh)"
  bash "$iso/data/make_meshes.sh" "$out/meshes" skull2x
  args="--input $out/meshes/skull2x.vti --array density --iso 2.9"
  color=${ISO_DEMO_COLOR-gradient_magnitude}
  color_source=$out/meshes/skull2x.vti
  label="skull_2.9.inr (libcgal-demo) x2"
fi

phase "adapt-isosurface $args --mode all --peers --verify --smp-check" \
  "--workers $workers --reps $reps"
# shellcheck disable=SC2086
"$bin" $args --mode all --peers --verify --smp-check --workers "$workers" --reps "$reps" \
  --csv "$out/table.csv" --output "$out/surface.vtp"

sim=()
if [ "${ISO_DEMO_CACHESIM:-0}" = 1 ]; then
  phase "simulated caches (callgrind), one process per mode"
  # shellcheck disable=SC2086
  bash "$iso/tools/cachesim.sh" "$bin" "$out/cachesim.csv" $args
  sim=("$out/cachesim.csv")
fi

# The title's numbers, from the table: triangles, tetrahedra, seq, the
# fastest of our modes and of VTK's peers.
title=$(/usr/bin/python3 - "$out/table.csv" "$label" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["time_s"]]
ms = lambda r: 1e3 * float(r["time_s"])
ours = [r for r in rows if r["kind"] == "libadapt"]
vtk = [r for r in rows if r["kind"] == "vtk"]
print("%s: %s tetrahedra, %s triangles" % (sys.argv[2], f"{int(rows[0]['tets']):,}",
                                           f"{int(rows[0]['triangles']):,}"))
print("libadapt, %s workers: " % rows[0]["workers"]
      + ", ".join("%s %.0f" % (r["name"], ms(r)) for r in ours) + " ms (median)")
if vtk and ours:
    b, v = min(ours, key=ms), min(vtk, key=ms)
    print("VTK's fastest: %s %.0f ms, %.1fx our fastest (%s)" % (v["name"], ms(v), ms(v) / ms(b),
                                                              b["name"]))
EOF
)

phase "rendering under xvfb-run (VTK renders through GLX)"
color_args=()
[ -n "$color" ] && color_args=(--color-array "$color" --color-source "$color_source")
if command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x1024x24" \
    "$bin" --render "$out/surface.vtp" --png "$out/isosurface.png" --title "$title" \
    "${color_args[@]}"
else
  echo "demo: xvfb-run missing (Debian package xvfb): no rendering" >&2
fi
phase "chart"
/usr/bin/python3 "$here/chart.py" "$out/table.csv" "$out/chart.png" "${sim[@]}" \
  --title "${title%%$'\n'*}"

# The workers in the sequence (docs/locality.md): a mesh of its own, so that
# the picture does not depend on ISO_DEMO_ARGS; untimed runs of the cell
# phase recording which worker ran which cells when. The window is pinned
# (ISO_DEMO_WINDOW, default 98,304 cells: 15 windows over the 1,474,560
# cells): the default one (a quarter of the shared cache) may exceed the
# whole mesh on a large cache, and the windows would not show.
trace_window=${ISO_DEMO_WINDOW:-98304}
phase "workers in the sequence: nowin, static, sliding on 192x192x8, window $trace_window" \
  "cells (workers.png)"
"$bin" --generate 192x192x8 --field sphere --mode nowin,static,sliding --workers "$workers" \
  --window "$trace_window" --reps 1 --events none --quiet --positions "$out/positions.csv" \
  >/dev/null
/usr/bin/python3 "$iso/tools/trace_plot.py" "$out/positions.csv" "$out/workers.png" \
  "Each worker's position in the cell sequence: 192x192x8 sphere, 1,474,560 cells, window \
$trace_window cells (static, sliding)"
echo
phase "done: outputs in $out/"
ls -l "$out"
