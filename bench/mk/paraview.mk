# bench/mk/paraview.mk: the ParaView plugin's AdaptiveContour against
# ParaView's Contour inside pvbatch, 1 and 2 ranks
# (apps/isosurface/tools/pv_bench.sh); docs/benchmarks-mpi.md, "Inside
# pvbatch".
#   make bench-paraview   deps, release build (the app, the plugin), the runs (a few minutes)
# Results: $(B)/bench-results/pv_summary.csv, pv_report.md, raw outputs in
# $(B)/bench-results/pv/. BENCH_PV_MESH, BENCH_PV_PIECES, BENCH_PV_RANKS,
# BENCH_PV_REPS: see the script. Not part of `make bench` (BENCH_RUNS).

.PHONY: bench-paraview bench-paraview-run

bench-paraview:
	@bash scripts/deps.sh all
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 bench-paraview-run

# The paths are spelled out: the makefiles of apps/isosurface are included after
# bench/module.mk.
bench-paraview-run: $(B)/apps/isosurface/adapt-isosurface paraview-plugin
	@mkdir -p $(B)/bench-results
	bash apps/isosurface/tools/pv_bench.sh $< \
	  build/release/apps/isosurface/vtk-paraview/lib/paraview-5.11/plugins/AdaptiveContour/AdaptiveContour.so \
	  $(B)/bench-results
