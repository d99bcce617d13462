/* The loop of bench_core's overhead section and its implementations: the
 * plain loop (the sequential baseline), adapt_for, OpenMP and TBB on one
 * worker. Per iteration one multiply-add on an element of an L2-resident
 * array (512 KiB); the index is masked so that one call runs many
 * iterations over the same array, which also keeps the compiler from
 * vectorising the plain loop (no gather in baseline x86-64): every
 * implementation runs the same scalar code per iteration and the difference
 * is the scheduler's.
 *
 * Thread-safety: as the runtimes; one call at a time per array.
 */
#ifndef BENCH_KERNELS_OVERHEAD_HPP
#define BENCH_KERNELS_OVERHEAD_HPP

#include "peers.hpp"

#include <stddef.h>

#include <algorithm>

enum { OVH_ARRAY = 1 << 16 }; /* doubles in the array */

/* Iterations [0, n) in one loop. */
void ovh_plain(double *a, size_t n);
/* adapt_for over [lo, hi) at `grain` (0: automatic); returns its result. */
int ovh_adapt(double *a, size_t lo, size_t hi, size_t grain);
/* OpenMP parallel for over [lo, hi): static, or dynamic/guided with chunk 1. */
void ovh_omp(omp_kind kind, double *a, size_t lo, size_t hi, int threads);
/* TBB parallel_for over [lo, hi) at grain 1 in arena. */
void ovh_tbb(tbb_kind kind, tbb::task_arena &arena, double *a, size_t lo, size_t hi);

/* [0, n) as calls loop(lo, hi) of at most m iterations, one after the
 * other: the iterations of one call with the per-call costs of n/m calls.
 * Returns the first non-zero result. */
template <class F>
int in_calls(size_t n, size_t m, F loop) {
  for (size_t lo = 0; lo < n; lo += m) {
    int rc = loop(lo, std::min(n, lo + m));
    if (rc != 0) return rc;
  }
  return 0;
}

#endif /* BENCH_KERNELS_OVERHEAD_HPP */
