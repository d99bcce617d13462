# bench/mk/mpi.mk: the distributed isosurface (issue 13) against ParaView's
# own distributed contour (pvbatch, Contour on the same .pvtu), R ranks each
# (apps/isosurface/tools/dist_bench.sh); docs/benchmarks-mpi.md.
#   make bench-mpi       deps, release build, then the runs (a few minutes)
# Results: $(B)/bench-results/mpi_summary.csv, mpi_report.md, raw outputs in
# $(B)/bench-results/mpi/. BENCH_MPI_MESH, BENCH_MPI_PIECES, BENCH_MPI_RANKS,
# BENCH_MPI_REPS, BENCH_MPI_PVBATCH (0: ours only, without ParaView): see the
# script. Not part of `make bench` (BENCH_RUNS): it
# installs ParaView's paraview package and needs mpirun.

.PHONY: bench-mpi bench-mpi-run

bench-mpi:
	@bash scripts/deps.sh all
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 bench-mpi-run

# The binary's path is spelled out: apps/isosurface/module.mk (ISO_BIN) is
# included after bench/module.mk.
bench-mpi-run: $(B)/apps/isosurface/adapt-isosurface
	@mkdir -p $(B)/bench-results
	bash apps/isosurface/tools/dist_bench.sh $< $(B)/bench-results
