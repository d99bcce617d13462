# Sourced by dist_bench.sh (make bench-mpi) and pv_bench.sh (make
# bench-paraview): what both benchmarks set up the same way.

# mpirun's arguments for the user running the benchmark: root needs
# --allow-run-as-root.
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)

# bench_enter DIR: create the working folder DIR and enter it.
bench_enter() {
  mkdir -p "$1"
  cd "$1"
}

# bench_sizes PREFIX RANKS: the benchmark's sizes, from the environment:
# mesh (PREFIX_MESH, 80x80x64), pieces (PREFIX_PIECES, 12), ranks
# (PREFIX_RANKS, RANKS) and reps (PREFIX_REPS, 3).
bench_sizes() {
  local m=${1}_MESH p=${1}_PIECES r=${1}_RANKS n=${1}_REPS
  # shellcheck disable=SC2034 # the caller's settings
  mesh=${!m:-80x80x64} pieces=${!p:-12} ranks=${!r:-$2} reps=${!n:-3}
}

# bench_mesh TAG BIN MESH PIECES: write the benchmark mesh (MESH hexahedra,
# waves field, Hilbert order, no renumbering) as mesh.pvtu in PIECES pieces
# in the current folder, BIN's output in gen.txt; TAG names the benchmark
# in the progress line.
bench_mesh() {
  echo "$1: mesh $3 in $4 pieces" >&2
  "$2" --generate "$3" --field waves --order hilbert --reorder none --reps 1 --events none \
    --quiet --save-mesh mesh.pvtu --pieces "$4" >gen.txt
}

# bench_pvpy HERE [ARGS]: print the PYTHONPATH of python3-paraview's
# modules (scripts/paraview_python.sh ARGS, from the tools folder HERE),
# nothing when they are installed in the system's path.
bench_pvpy() {
  local here=$1 pvroot
  shift
  pvroot=$(bash "$here/../../../scripts/paraview_python.sh" "$@") || return
  [ "$pvroot" = / ] || echo "$pvroot/usr/lib/python3/dist-packages"
}
