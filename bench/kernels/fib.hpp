/* Fibonacci for bench_sched's lazy table: a declarative code without a
 * cut-off, through a 2-iteration parallel loop at every level (OpenMP: task
 * + taskwait). The sequential recursion and its adapt, OpenMP and TBB
 * versions; each returns fib(n).
 *
 * Thread-safety: as the runtimes.
 */
#ifndef BENCH_KERNELS_FIB_HPP
#define BENCH_KERNELS_FIB_HPP

#include "peers.hpp"

#include <adapt/loop.h>

long fib_seq(int n);
/* Errors of the nested adapt_for go to note_nested_rc (harness.hpp). */
long fib_adapt(int n, const adapt_attr *attr);
/* Tasks in a parallel region of `threads`. */
long fib_omp_tasks(int threads, int n);
/* Grain 1; TBB_AUTO or TBB_SIMPLE. */
long fib_tbb(tbb_kind kind, tbb::task_arena &arena, int n);

#endif /* BENCH_KERNELS_FIB_HPP */
