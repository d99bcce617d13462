/* The machine's memory bandwidth with one and two threads: the bound of any
 * library's 2-worker speed-up on memory-bound loops (docs/benchmarks-stl.md,
 * "The memory bandwidth with one and two cores"); and its room for two
 * threads on compute-bound work (compute_room).
 *
 * measure_bandwidth() streams two arrays of `bytes` each (far beyond the
 * shared cache) with plain loops on std::threads bound to the PUs adapt
 * binds its first two workers to (adapt_worker_pu; initialises adapt), one
 * thread then two (each a half; one only when adapt runs one worker),
 * alternately for `rounds` rounds, and answers the
 * medians: a read (a sum, four accumulators) and a map (b[i] = 0.5 a[i] + 1,
 * the cheap transform of bench_stl; 16 bytes moved per element, plus the
 * write-allocate the hardware may add, not counted). No library is
 * involved: adapt's workers and the peers' pools must be idle meanwhile.
 *
 * Not thread-safe (call it from the thread driving the benchmark). Exits
 * through fatal() (harness.hpp) when a thread or the arrays cannot be had.
 */
#ifndef BENCH_COMMON_BANDWIDTH_HPP
#define BENCH_COMMON_BANDWIDTH_HPP

#include <stddef.h>

#include <string>

struct bandwidth {
  double read1 = 0, read2 = 0; /* GB/s (1e9 bytes/s), one and two threads */
  double map1 = 0, map2 = 0;
  int threads = 0; /* 2, or 1 when adapt runs one worker (then read2 = map2 = 0) */
};

bandwidth measure_bandwidth(size_t bytes, int rounds);

/* The machine's room for two threads at this moment, for compute-bound
 * work: kernel(a, out, n), a map of n doubles (bench_stl's costly
 * operation), on one thread, then on two at once (each all n, into its own
 * output), bound as measure_bandwidth's threads: 2 T(one) / T(two), 2 on
 * two free CPUs (bench_tasks' room, docs/benchmarks-core.md); NaN when
 * adapt runs one worker. Same contract as measure_bandwidth. */
double compute_room(size_t n, void (*kernel)(const double *a, double *out, size_t n));

/* One line for the report: the figures and the two-thread ratios. */
std::string bandwidth_line(const bandwidth &b, size_t bytes, int rounds);

#endif /* BENCH_COMMON_BANDWIDTH_HPP */
