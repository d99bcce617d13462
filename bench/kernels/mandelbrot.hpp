/* Mandelbrot for bench_sched's micro table (the loop-frame thesis's
 * microbenchmark): one loop over the pixels of a side x side image, each
 * pixel at most maxit iterations; the sequential loop and its adapt, OpenMP
 * and TBB versions. out[p] is the iteration count of pixel p.
 *
 * Thread-safety: as the runtimes; one call at a time per out.
 */
#ifndef BENCH_KERNELS_MANDELBROT_HPP
#define BENCH_KERNELS_MANDELBROT_HPP

#include "peers.hpp"

#include <adapt/loop.h>

void mb_seq(int *out, int side, int maxit);
int mb_adapt(int *out, int side, int maxit, const adapt_attr *attr);
void mb_omp(omp_kind kind, int chunk, int threads, int *out, int side, int maxit);
/* Grain 1; ap: the affinity partitioner for TBB_AFFINITY. */
void mb_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, int *out,
            int side, int maxit);

#endif /* BENCH_KERNELS_MANDELBROT_HPP */
