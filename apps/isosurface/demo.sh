#!/usr/bin/env bash
# `make demo` (target demo-run): one mesh, every extraction mode and the VTK
# peers on the same thread count, verification against VTK, the rendering
# and the chart.
#
# usage: demo.sh BIN OUTDIR
#   env: ISO_DEMO_ARGS  mesh options (default below: ~7.7M tetrahedra, 283 MiB)
#        ISO_DEMO_WORKERS (default 2), ISO_DEMO_REPS (default 5)
#        ISO_DEMO_CACHESIM=1 also run cachesim.sh (slow: ~1 min per mode)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 1; }
bin=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# Hilbert order: locality at every scale; a sphere: a small surface, so the
# marching over the cells (where the window algorithms act) dominates.
args=${ISO_DEMO_ARGS:---generate 160x160x60 --order hilbert --field sphere}
workers=${ISO_DEMO_WORKERS:-2}
reps=${ISO_DEMO_REPS:-5}

echo "== adapt-isosurface $args --mode all --peers --verify --workers $workers --reps $reps"
# shellcheck disable=SC2086
"$bin" $args --mode all --peers --verify --workers "$workers" --reps "$reps" \
  --csv "$out/table.csv" --output "$out/surface.vtp"

sim=()
if [ "${ISO_DEMO_CACHESIM:-0}" = 1 ]; then
  echo "== simulated caches (callgrind), one process per mode"
  # shellcheck disable=SC2086
  bash "$here/cachesim.sh" "$bin" "$out/cachesim.csv" $args
  sim=("$out/cachesim.csv")
fi

echo "== rendering under xvfb-run (VTK renders through GLX)"
if command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x1024x24" "$bin" --render "$out/surface.vtp" --png "$out/isosurface.png"
else
  echo "demo: xvfb-run missing (Debian package xvfb): no rendering" >&2
fi
/usr/bin/python3 "$here/chart.py" "$out/table.csv" "$out/chart.png" "${sim[@]}"
echo
echo "demo: outputs in $out/"
ls -l "$out"
