# bench/mk/isosurface.mk: adapt-isosurface's modes against its seq mode and
# VTK 9.1's contour filters on the benchmark meshes, and the simulated cache
# misses by mode (bench/scripts/isosurface.sh); docs/benchmarks-isosurface.md.
#   make bench-isosurface  release build with VTK, then the runs (tens of
#                          minutes with the defaults, cachesim.sh about a minute
#                          a mode); the file meshes are built first when
#                          missing, which takes longer (tetgen: apps/isosurface/
#                          apps/isosurface/data/make_meshes.sh needs `bash scripts/deps.sh data`)
# Results: $(B)/bench-results/isosurface_{speedup,vtk,cachesim}.csv
# ISO_BENCH_MESHES (mesh names, or FIELD-DIMS for --generate DIMS --field FIELD),
# ISO_BENCH_ROUNDS (processes per mesh), ISO_BENCH_REPS, ISO_BENCH_CACHESIM (the
# simulated mesh's options, or none), ISO_BENCH_DATA (the meshes' directory):
# see the script. A smoke run of seconds:
#   make bench-isosurface ISO_BENCH_MESHES=gyroid-20 ISO_BENCH_ROUNDS=1 ISO_BENCH_REPS=1 \
#     ISO_BENCH_CACHESIM="--generate 16 --field sphere"
# Not part of `make bench` (BENCH_RUNS): it needs VTK and the meshes.

.PHONY: bench-isosurface bench-isosurface-run
ISO_BENCH_MESHES ?= waves100 gyroid100 skull2x liver armadillo armadillo-gyroid bunny bunny-gyroid
ISO_BENCH_ROUNDS ?= 3
ISO_BENCH_REPS ?=
ISO_BENCH_CACHESIM ?= --generate 320x320x16 --field sphere
ISO_BENCH_DATA ?= $(B)/isosurface-meshes

bench-isosurface:
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 bench-isosurface-run

# The binary's path is spelled out: apps/isosurface/module.mk (ISO_BIN) is
# included after bench/module.mk.
bench-isosurface-run: $(B)/apps/isosurface/adapt-isosurface
	@mkdir -p $(B)/bench-results
	ISO_BENCH_MESHES="$(ISO_BENCH_MESHES)" ISO_BENCH_ROUNDS="$(ISO_BENCH_ROUNDS)" \
	  ISO_BENCH_REPS="$(ISO_BENCH_REPS)" ISO_BENCH_CACHESIM="$(ISO_BENCH_CACHESIM)" \
	  ISO_BENCH_DATA="$(ISO_BENCH_DATA)" bash bench/scripts/isosurface.sh $< $(B)/bench-results
