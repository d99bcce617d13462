# bench/mk/stl.mk: the C++ front end <adapt/stl.hpp> against the sequential
# std algorithms, GNU parallel mode, oneTBB and std::execution::par
# (bench/bench_stl.cpp, the window paper's Table 1); docs/benchmarks-stl.md.
#   make bench-stl           the timed tables on 1 and 2 workers (about 10
#                            minutes), then bench-stl-cachesim
#   make bench-stl-cachesim  simulated last-level-cache misses of a windowed
#                            transform by window mode (valgrind, about 1 minute)
#   make bench-stl-ir        instructions per element of adapt and std on one
#                            worker, every case (callgrind, a few minutes;
#                            STL_IR_N, STL_IR_ARGS: bench/scripts/stl_cachesim.sh)
# Results: $(B)/bench-results/stl_samples.csv, stl_summary.csv,
#          stl_report.md, stl_cachesim.{csv,txt}, stl_ir.{csv,txt}
# STL_ARGS passes options to bench_stl (e.g. --sizes 1e6 --reps 5, --quick,
# --algos sort,stable_sort, --workers 2). A variant giving a wrong result is
# FAILED in the tables and the target fails.

BENCH_RUNS += bench-stl

# The front end's header (stl/include) besides the public ones; private: not
# passed down to the prerequisites (the library and the bench kit).
$(B)/bench/bench_stl: private LAYER_CPPFLAGS := $(INC_PUBLIC) -Istl/include
# The same for its table of implementations in the bench kit
# (bench/kernels/stl_*.cpp, one file per family of algorithms).
$(B)/obj/bench/kernels/stl_%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) $(BENCH_INC) -Istl/include

.PHONY: bench-stl bench-stl-cachesim bench-stl-ir
STL_ARGS ?=

bench-stl: $(B)/bench/bench_stl
	@mkdir -p $(B)/bench-results
	@commit="$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"; \
	[ -z "$$(git status --porcelain -- libadapt algorithms stl bench 2>/dev/null)" ] || \
	  commit="$$commit+local-changes"; \
	set -x; $(B)/bench/bench_stl --out $(B)/bench-results --commit "$$commit" $(STL_ARGS)
	bash bench/scripts/stl_cachesim.sh $(B)/bench/bench_stl $(B)/bench-results

bench-stl-cachesim: $(B)/bench/bench_stl
	@mkdir -p $(B)/bench-results
	bash bench/scripts/stl_cachesim.sh $(B)/bench/bench_stl $(B)/bench-results

bench-stl-ir: $(B)/bench/bench_stl
	@mkdir -p $(B)/bench-results
	bash bench/scripts/stl_cachesim.sh --ir $(B)/bench/bench_stl $(B)/bench-results
