# bench/mk/core.mk: the runtime's own costs (bench/bench_core.cpp), against
# the sequential loop, OpenMP and TBB; docs/benchmarks-core.md.
#   make bench-core            timed figures (table + CSV + Markdown report), about 20 s
#   make bench-core-callgrind  instructions per iteration under callgrind
#   make bench-core-spread     CORE_RUNS=3 runs in a row, spread of the medians
# Results: $(B)/bench-results/core_*.csv, core_report.md, core_callgrind.txt

BENCH_RUNS += bench-core bench-core-callgrind

.PHONY: bench-core bench-core-callgrind

bench-core: $(B)/bench/bench_core
	@mkdir -p $(B)/bench-results
	$(B)/bench/bench_core --out $(B)/bench-results --report

bench-core-callgrind: $(B)/bench/bench_core
	@mkdir -p $(B)/bench-results
	bash bench/scripts/callgrind.sh $(B)/bench/bench_core $(B)/bench-results

# Not part of `make bench`: K (default 3) runs in a row and their spread.
.PHONY: bench-core-spread
CORE_RUNS ?= 3
bench-core-spread: $(B)/bench/bench_core
	bash bench/scripts/core_spread.sh $(B)/bench/bench_core $(CORE_RUNS) $(B)/bench-results
