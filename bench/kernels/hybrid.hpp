/* The hybrid-loop paper's iterative microbenchmark for bench_sched's hybrid
 * table: an outer serial loop of `steps` over a parallel loop of n
 * iterations. Iteration i owns elements [off[i], off[i+1]) of one array and
 * updates each of them once per step, visiting them in strides of 13 modulo
 * its length m_i (m_i >= 14 and not a multiple of 13: a permutation); it
 * then records who ran it, owner[i] == me counting a hit for worker `me`
 * (loop affinity). The sequential loop and its adapt, OpenMP and TBB
 * versions.
 *
 * Thread-safety: as the runtimes; one call at a time per hy_data.
 */
#ifndef BENCH_KERNELS_HYBRID_HPP
#define BENCH_KERNELS_HYBRID_HPP

#include "peers.hpp"

#include <adapt/loop.h>

#include <stddef.h>

#include <vector>

enum { HY_MAX_IDS = 64 }; /* worker / thread ids counted, larger ones count as 0 */

struct alignas(64) hit_counter {
  long long v;
};

struct hy_data {
  double *a;
  const size_t *off; /* n + 1 offsets into a */
  size_t n;
  int *owner;        /* [n]: who ran iteration i last, -1 never */
  hit_counter *hits; /* [HY_MAX_IDS] */
};

/* The offsets of n iterations over about `elems` elements: balanced,
 * elems/n each; unbalanced, proportional to i + 1; at least 14 each, never
 * a multiple of 13. */
std::vector<size_t> hy_offsets(size_t n, size_t elems, bool unbalanced);

/* Ts: the same iterations and bookkeeping (as worker 0), no parallel construct. */
void hy_seq(const hy_data &d, int steps);
int hy_adapt(const hy_data &d, int steps, const adapt_attr *attr);
void hy_omp(omp_kind kind, int chunk, int threads, const hy_data &d, int steps);
/* ap: the affinity partitioner for TBB_AFFINITY, kept across steps and runs. */
void hy_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, const hy_data &d,
            int steps, size_t grain);

/* The share (0..1) of the iterations of steps 2..steps that ran on the
 * same worker as in the step before (from the hits). */
double hy_affinity(const hy_data &d, int steps);

#endif /* BENCH_KERNELS_HYBRID_HPP */
