# bench/mk/sched.mk: the adapt_for scheduler family (adaptive, loopframe,
# dac, hybrid, lazy-df, lazy-df2, lazy-bf, static) against OpenMP and TBB
# (bench/bench_sched.cpp); docs/benchmarks-sched.md.
#   make bench-sched    three tables (micro, hybrid, lazy) on 1 and 2
#                       workers, text + CSV + PNG, about 1.5 minutes
#   make bench-sched-callgrind  Table 3's kernels (fib(20), nqueens 9,
#                       grain 1) on one worker under callgrind: Ts/T1 in
#                       instructions (sched_callgrind.{csv,txt}), seconds
# Results: $(B)/bench-results/sched_{micro,hybrid,lazy}.{txt,csv,png},
#          sched_samples.csv, sched_report.md
# SCHED_ARGS passes options to bench_sched (e.g. --tables hybrid --reps 9,
# --nqueens 12); its --report draws the plots and writes the Markdown
# tables with bench/scripts/sched_plot.py (/usr/bin/python3 with
# python3-matplotlib). A variant giving a wrong result or an error is marked
# FAILED in the tables and the target fails (after the plots are drawn).

BENCH_RUNS += bench-sched bench-sched-callgrind

.PHONY: bench-sched bench-sched-callgrind
SCHED_ARGS ?=

bench-sched: $(B)/bench/bench_sched
	@mkdir -p $(B)/bench-results
	@commit="$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"; \
	git diff --quiet HEAD -- libadapt algorithms bench 2>/dev/null || \
	  commit="$$commit+local-changes"; \
	set -x; $(B)/bench/bench_sched --out $(B)/bench-results --commit "$$commit" --report $(SCHED_ARGS)

bench-sched-callgrind: $(B)/bench/bench_sched
	@mkdir -p $(B)/bench-results
	bash bench/scripts/kernels_callgrind.sh sched $(B)/bench/bench_sched $(B)/bench-results
