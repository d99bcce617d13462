#!/usr/bin/env bash
# `make demo` (target demo-run): one mesh, every extraction mode and the VTK
# peers on the same thread count, verification against VTK, the rendering
# and the chart.
#
# usage: demo.sh BIN OUTDIR
#   env: ISO_DEMO_ARGS  mesh options (default below: 8.2M tetrahedra, 301 MiB)
#        ISO_DEMO_WORKERS (default 2), ISO_DEMO_REPS (default 7)
#        ISO_DEMO_CACHESIM=0 skips the simulated caches (cachesim.sh, ~10 s per mode)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 1; }
bin=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# Lexicographic order: a point is reused one z-slab of cells later. A slab
# of 320x320 hexahedra touches 320*320*(5*32 + 32) B = 19.7 MB: it fits in
# the 32 MiB L3 for one worker, but two workers at distant places need twice
# that (the paper's no-window regime), while a window keeps them close.
# Sphere field: a small surface, so the marching over the cells (where the
# window algorithms act) dominates the vertex merge.
args=${ISO_DEMO_ARGS:---generate 320x320x16 --field sphere}
workers=${ISO_DEMO_WORKERS:-2}
reps=${ISO_DEMO_REPS:-7}

echo "== adapt-isosurface $args --mode all --peers --verify --smp-check" \
  "--workers $workers --reps $reps"
# shellcheck disable=SC2086
"$bin" $args --mode all --peers --verify --smp-check --workers "$workers" --reps "$reps" \
  --csv "$out/table.csv" --output "$out/surface.vtp"

sim=()
if [ "${ISO_DEMO_CACHESIM:-1}" = 1 ]; then
  echo "== simulated caches (callgrind), one process per mode"
  # shellcheck disable=SC2086
  bash "$here/cachesim.sh" "$bin" "$out/cachesim.csv" $args
  sim=("$out/cachesim.csv")
fi

echo "== rendering under xvfb-run (VTK renders through GLX)"
if command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x1024x24" \
    "$bin" --render "$out/surface.vtp" --png "$out/isosurface.png"
else
  echo "demo: xvfb-run missing (Debian package xvfb): no rendering" >&2
fi
/usr/bin/python3 "$here/chart.py" "$out/table.csv" "$out/chart.png" "${sim[@]}"
echo
echo "demo: outputs in $out/"
ls -l "$out"
