# bench/mk/tasks.mk: spawn/sync (<adapt/tasks.h>) on recursions without a
# cut-off (bench/bench_tasks.cpp: fib and a recursive sum), against the
# sequential recursion, OpenMP tasks and TBB task_group;
# docs/benchmarks-core.md, "Spawn and sync".
#   make bench-tasks            timed T1/Ts and T1/T2 (table + CSV), about 1 min
#   make bench-tasks-callgrind  instructions on one worker under callgrind
# Results: $(B)/bench-results/tasks_summary.csv, tasks_callgrind.{csv,txt}

BENCH_RUNS += bench-tasks bench-tasks-callgrind

.PHONY: bench-tasks bench-tasks-callgrind

bench-tasks: $(B)/bench/bench_tasks
	@mkdir -p $(B)/bench-results
	$(B)/bench/bench_tasks --out $(B)/bench-results

bench-tasks-callgrind: $(B)/bench/bench_tasks
	@mkdir -p $(B)/bench-results
	bash bench/scripts/kernels_callgrind.sh tasks $(B)/bench/bench_tasks $(B)/bench-results
