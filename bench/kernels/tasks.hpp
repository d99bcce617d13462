/* Spawn/sync kernels for bench_tasks: fib(n) and a recursive sum of an
 * array halved down to single elements, both without a cut-off, as the
 * sequential recursion and through adapt_spawn/adapt_sync and
 * adapt_fork/adapt_join (<adapt/tasks.h>), OpenMP tasks and TBB task_group. Every version makes the same calls in
 * the same tree; each returns the same value as its sequential code.
 *
 * Thread-safety: as the runtimes. Errors of adapt_scope_begin, adapt_spawn,
 * adapt_sync, adapt_fork and adapt_join go to note_nested_rc (harness.hpp); the value is then -1.
 */
#ifndef BENCH_KERNELS_TASKS_HPP
#define BENCH_KERNELS_TASKS_HPP

#include "peers.hpp"

#include <stddef.h>

long tasks_fib_seq(int n);
long tasks_fib_adapt(int n);
long tasks_fib_fork(int n);
/* OpenMP tasks: fib_omp_tasks (fib.hpp). */
long tasks_fib_tbb(tbb::task_arena &arena, int n);

/* The sum of a[0..n), halving the range down to one element. */
long tasks_sum_seq(const long *a, size_t n);
long tasks_sum_adapt(const long *a, size_t n);
long tasks_sum_fork(const long *a, size_t n);
long tasks_sum_omp(int threads, const long *a, size_t n);
long tasks_sum_tbb(tbb::task_arena &arena, const long *a, size_t n);

#endif /* BENCH_KERNELS_TASKS_HPP */
