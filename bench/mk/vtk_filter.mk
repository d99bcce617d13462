# bench/mk/vtk_filter.mk: the VTK filter vtkAdaptiveContourFilter in a VTK
# pipeline against vtkContour3DLinearGrid (TBB) and vtkContourGrid, and
# against the core extraction it wraps (<adapt/iso.hpp> called directly);
# docs/benchmarks-vtk-filter.md.
#   make bench-vtk-filter            the timed rounds and the peak memory on
#                                    the benchmark meshes (a few minutes; the
#                                    file meshes are built first when missing,
#                                    as for bench-isosurface)
#   make bench-vtk-filter-callgrind  instructions of the filter, the core and
#                                    vtkContour3DLinearGrid at 1 thread on one
#                                    mesh (valgrind, a few minutes)
# Results: $(B)/bench-results/vtk_filter{,_memory,_callgrind}.csv
# VTKF_BENCH_MESHES (names of the table of bench/scripts/isosurface.sh),
# VTKF_BENCH_ROUNDS (rounds per mesh), VTKF_BENCH_APPEND=1 (add the meshes' rows
# to the last run's CSV files: a run in parts), VTKF_BENCH_CALLGRIND (the counted mesh):
# see bench/scripts/vtk_filter.sh. A smoke run of seconds:
#   make bench-vtk-filter VTKF_BENCH_MESHES=gyroid-40 VTKF_BENCH_ROUNDS=1
# Not part of `make bench` (BENCH_RUNS): it needs VTK and the meshes.
#
# The driver (bench/isosurface/bench_vtk_filter.cpp) is a plain VTK program
# linked as the filter's tests are (apps/isosurface/vtk/module.mk, whose
# variables the recipes use; it is included after this file, so the paths
# of the prerequisites are spelled out), always in the release variant.

.PHONY: bench-vtk-filter bench-vtk-filter-run bench-vtk-filter-callgrind \
        bench-vtk-filter-callgrind-run
VTKF_BENCH_MESHES ?= waves100 gyroid100 skull2x liver armadillo armadillo-gyroid bunny bunny-gyroid
VTKF_BENCH_ROUNDS ?= 5
VTKF_BENCH_CALLGRIND ?= gyroid-60
VTKF_BENCH_BIN := build/release/bench/bench_vtk_filter
VTKF_BENCH_ENV = VTKF_BENCH_MESHES="$(VTKF_BENCH_MESHES)" VTKF_BENCH_ROUNDS="$(VTKF_BENCH_ROUNDS)" \
  VTKF_BENCH_CALLGRIND="$(VTKF_BENCH_CALLGRIND)" VTKF_BENCH_APPEND="$(VTKF_BENCH_APPEND)" ISO_BENCH_DATA="$(ISO_BENCH_DATA)"

bench-vtk-filter:
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 bench-vtk-filter-run
bench-vtk-filter-callgrind:
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 bench-vtk-filter-callgrind-run

bench-vtk-filter-run: $(VTKF_BENCH_BIN) build/release/apps/isosurface/adapt-isosurface
	@mkdir -p $(B)/bench-results
	$(VTKF_BENCH_ENV) bash bench/scripts/vtk_filter.sh timed $^ $(B)/bench-results
bench-vtk-filter-callgrind-run: $(VTKF_BENCH_BIN) build/release/apps/isosurface/adapt-isosurface
	@mkdir -p $(B)/bench-results
	$(VTKF_BENCH_ENV) bash bench/scripts/vtk_filter.sh callgrind $^ $(B)/bench-results

$(VTKF_BENCH_BIN): bench/isosurface/bench_vtk_filter.cpp build/release/apps/isosurface/vtk/built \
                   build/release/libadapt-iso.so build/release/libadapt.so
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra $(INC_RUNTIME_PUBLIC) -I$(VTKF_ISO_INC) \
	  $(VTKF_TEST_FLAGS) -o $@ $< $(VTKF_TEST_LINK) -Lbuild/release -ladapt-iso -ladapt \
	  -lvtkIOXML-$(VTK_VER) -lvtkIOCore-$(VTK_VER) -lvtkFiltersGeneral-$(VTK_VER) -ltbb
