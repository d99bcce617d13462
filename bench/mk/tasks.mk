# bench/mk/tasks.mk: spawn/sync (<adapt/tasks.h>) on recursions without a
# cut-off (bench/bench_tasks.cpp: fib and a recursive sum), against the
# sequential recursion, OpenMP tasks and TBB task_group;
# docs/benchmarks-core.md, "Spawn and sync".
#   make bench-tasks            timed T1/Ts and T1/T2, also in pairs of a
#                               1-worker and a 2-worker run with the
#                               machine's room for two threads (tables +
#                               CSV), about 1.5 min
#   make bench-tasks-callgrind  instructions on one worker under callgrind
# Results: $(B)/bench-results/tasks_summary.csv, tasks_paired.csv,
# tasks_callgrind.{csv,txt}

BENCH_RUNS += bench-tasks bench-tasks-callgrind

.PHONY: bench-tasks bench-tasks-callgrind

bench-tasks: $(B)/bench/bench_tasks
	@mkdir -p $(B)/bench-results
	$(B)/bench/bench_tasks --out $(B)/bench-results

bench-tasks-callgrind: $(B)/bench/bench_tasks
	@mkdir -p $(B)/bench-results
	bash bench/scripts/kernels_callgrind.sh tasks $(B)/bench/bench_tasks $(B)/bench-results
