# bench/mk/window.mk: the window algorithms (bench/bench_window.cpp) against
# the sequential loop and the PThread baselines of the paper's §2.4, on 2
# workers, plus the per-element overhead of adapt_for_each/adapt_transform;
# docs/benchmarks-window.md.
#   make bench-window            timed figures (+ PAPI counters when the PMU
#                                is usable), about 1 minute
#   make bench-window-callgrind  instructions per element under callgrind
# Results: $(B)/bench-results/window*.csv, window_callgrind.txt
# WINDOW_ARGS passes options to bench_window (e.g. --n 8388608 --reps 3).

BENCH_RUNS += bench-window bench-window-callgrind

.PHONY: bench-window bench-window-callgrind
WINDOW_ARGS ?=

bench-window: $(B)/bench/bench_window
	@mkdir -p $(B)/bench-results
	$(B)/bench/bench_window --out $(B)/bench-results $(WINDOW_ARGS) | tee $(B)/bench-results/window.txt

bench-window-callgrind: $(B)/bench/bench_window
	@mkdir -p $(B)/bench-results
	bash bench/scripts/callgrind.sh $(B)/bench/bench_window $(B)/bench-results
