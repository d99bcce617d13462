/* daxpy, y[i] += a * x[i], for bench_core (one worker: T1/Ts) and
 * bench_sched (the loop-frame thesis's microbenchmark at grain 1): the
 * sequential loop and its adapt, OpenMP and TBB versions. Two bodies per
 * runtime where the benchmarks measure different things: the "outlined"
 * ones call the sequential kernel on each chunk, so T1/Ts compares the same
 * machine code (bench_core); the others run the loop inline in the chunk
 * body, as the thesis's code does (bench_sched).
 *
 * Thread-safety: as the runtimes; one call at a time per y.
 */
#ifndef BENCH_KERNELS_DAXPY_HPP
#define BENCH_KERNELS_DAXPY_HPP

#include "peers.hpp"

#include <adapt/loop.h>

#include <stddef.h>

/* The sequential loop over [b, e), out of line. */
void daxpy_seq(double *__restrict y, const double *__restrict x, double a, size_t b, size_t e);

int daxpy_adapt(double *y, const double *x, double a, size_t n, const adapt_attr *attr);
int daxpy_adapt_outlined(double *y, const double *x, double a, size_t n, const adapt_attr *attr);

void daxpy_omp(omp_kind kind, int chunk, int threads, double *y, const double *x, double a,
               size_t n);

/* Grain 1; ap: the affinity partitioner for TBB_AFFINITY. */
void daxpy_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, double *y,
               const double *x, double a, size_t n);
/* The automatic partitioner, chunks through daxpy_seq. */
void daxpy_tbb_outlined(tbb::task_arena &arena, double *y, const double *x, double a, size_t n);

#endif /* BENCH_KERNELS_DAXPY_HPP */
