/* N-queens for bench_sched (micro and lazy tables): at every row a loop over
 * the n columns, the free-square test inside the body, nested down to the
 * last row; each column's count goes to its own slot of the parent's array
 * (no atomics, a fixed summation order). The sequential recursion and its
 * adapt (nested adapt_for), OpenMP (parallel for at every row, or taskloop)
 * and TBB (nested parallel_for) versions. Every one returns the number of
 * solutions; n <= 31.
 *
 * Thread-safety: as the runtimes.
 */
#ifndef BENCH_KERNELS_NQUEENS_HPP
#define BENCH_KERNELS_NQUEENS_HPP

#include "peers.hpp"

#include <adapt/loop.h>

/* The known count for n, -1 if this file does not know it. */
long nq_known(int n);

long nq_seq(int n);
/* Errors of the nested adapt_for go to note_nested_rc (harness.hpp). */
long nq_adapt(int n, const adapt_attr *attr);
/* parallel for at every row; nested regions run with the team OpenMP gives
 * them (one thread with max-active-levels 1). */
long nq_omp_for(omp_kind kind, int chunk, int threads, int n);
/* taskloop grainsize(1) at every row, in a parallel region of `threads`. */
long nq_omp_taskloop(int threads, int n);
/* Grain 1. The nested affinity variant makes one partitioner per loop (one
 * cannot be shared by concurrent loops), so it behaves as auto. */
long nq_tbb(tbb_kind kind, tbb::task_arena &arena, int n);

#endif /* BENCH_KERNELS_NQUEENS_HPP */
