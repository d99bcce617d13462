/* The compute-bound loops of bench_core (2-worker speedup, idle CPU, steal
 * round trip): the sequential loop and its adapt, OpenMP and TBB versions.
 * Iteration i runs steps(i) multiply-adds in one dependency chain (about 6
 * cycles each, no memory traffic) and writes out[i]. Balanced: every
 * iteration CB_STEPS steps. Triangular: 1 + 2 * CB_STEPS * i / n steps, the
 * same total.
 *
 * Thread-safety: as the runtimes; one call at a time per out.
 */
#ifndef BENCH_KERNELS_COMPUTE_HPP
#define BENCH_KERNELS_COMPUTE_HPP

#include "peers.hpp"

#include <stddef.h>

enum { CB_STEPS = 256 };

void cb_seq(double *out, size_t n, int triangular);
/* grain 0: automatic. */
int cb_adapt(double *out, size_t n, int triangular, size_t grain);
/* Static, or dynamic/guided with chunk 1. */
void cb_omp(omp_kind kind, int threads, double *out, size_t n, int triangular);
/* Grain 1. */
void cb_tbb(tbb_kind kind, tbb::task_arena &arena, double *out, size_t n, int triangular);

/* The steal probe: one adapt_for over n short iterations (8 chained
 * multiply-adds, about 20 ns) at grain 1, so that the victim polls every
 * iteration and a steal round trip measures the protocol rather than the
 * wait for a steal point. */
int short_iterations_adapt(double *out, size_t n);

#endif /* BENCH_KERNELS_COMPUTE_HPP */
