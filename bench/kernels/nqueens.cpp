/* N-queens for bench_sched (nqueens.hpp). */
#include "nqueens.hpp"

#include "harness.hpp"

long nq_known(int n) {
  static const long known[] = {1,  1,   0,   0,    2,     10,    4,      40,
                               92, 352, 724, 2680, 14200, 73712, 365596, 2279184};
  return n >= 0 && n < (int)(sizeof known / sizeof known[0]) ? known[n] : -1;
}

static long sum(const long *counts, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += counts[i];
  return s;
}

__attribute__((noinline)) static long nq_seq_row(int n, int row, unsigned cols, unsigned d1,
                                                 unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << i;
    counts[i] =
        (busy & bit) ? 0 : nq_seq_row(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  return sum(counts, n);
}

long nq_seq(int n) { return nq_seq_row(n, 0, 0, 0, 0); }

struct nq_ctx {
  int n, row;
  unsigned cols, d1, d2;
  long *counts;
  const adapt_attr *attr;
};

static long nq_adapt_row(int n, int row, unsigned cols, unsigned d1, unsigned d2,
                         const adapt_attr *attr);

static inline void nq_body(size_t b, size_t e, void *p) {
  const nq_ctx *c = (const nq_ctx *)p;
  unsigned busy = c->cols | c->d1 | c->d2;
  for (size_t i = b; i < e; i++) {
    unsigned bit = 1u << i;
    c->counts[i] = (busy & bit) ? 0
                                : nq_adapt_row(c->n, c->row + 1, c->cols | bit, (c->d1 | bit) << 1,
                                               (c->d2 | bit) >> 1, c->attr);
  }
}

static long nq_adapt_row(int n, int row, unsigned cols, unsigned d1, unsigned d2,
                         const adapt_attr *attr) {
  if (row == n) return 1;
  long counts[32];
  nq_ctx c = {n, row, cols, d1, d2, counts, attr};
  int rc = adapt_for(0, (size_t)n, nq_body, &c, attr);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return sum(counts, n);
}

long nq_adapt(int n, const adapt_attr *attr) { return nq_adapt_row(n, 0, 0, 0, 0, attr); }

static long nq_omp_row(omp_kind kind, int chunk, int P, int n, int row, unsigned cols, unsigned d1,
                       unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  OMP_PARALLEL_FOR(
      kind, chunk, P, shared(counts), for (int i = 0; i < n; i++) {
        unsigned bit = 1u << i;
        counts[i] = (busy & bit) ? 0
                                 : nq_omp_row(kind, chunk, P, n, row + 1, cols | bit,
                                              (d1 | bit) << 1, (d2 | bit) >> 1);
      });
  return sum(counts, n);
}

long nq_omp_for(omp_kind kind, int chunk, int threads, int n) {
  return nq_omp_row(kind, chunk, threads, n, 0, 0, 0, 0);
}

/* Call inside parallel + single. */
static long nq_taskloop_row(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  OMP(taskloop grainsize(1) shared(counts) firstprivate(n, row, cols, d1, d2, busy))
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << i;
    counts[i] = (busy & bit)
                    ? 0
                    : nq_taskloop_row(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  return sum(counts, n);
}

long nq_omp_taskloop(int threads, int n) {
  return omp_in_single(threads, [=] { return nq_taskloop_row(n, 0, 0, 0, 0); });
}

template <class Part>
static long nq_tbb_row(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  Part part;
  tbb::parallel_for(
      tbb::blocked_range<int>(0, n, 1),
      [&](const tbb::blocked_range<int> &r) {
        for (int i = r.begin(); i != r.end(); i++) {
          unsigned bit = 1u << i;
          counts[i] = (busy & bit) ? 0
                                   : nq_tbb_row<Part>(n, row + 1, cols | bit, (d1 | bit) << 1,
                                                      (d2 | bit) >> 1);
        }
      },
      part);
  return sum(counts, n);
}

long nq_tbb(tbb_kind kind, tbb::task_arena &arena, int n) {
  long r = 0;
  arena.execute([&] {
    switch (kind) {
    case TBB_AUTO: r = nq_tbb_row<tbb::auto_partitioner>(n, 0, 0, 0, 0); break;
    case TBB_SIMPLE: r = nq_tbb_row<tbb::simple_partitioner>(n, 0, 0, 0, 0); break;
    case TBB_AFFINITY: r = nq_tbb_row<tbb::affinity_partitioner>(n, 0, 0, 0, 0); break;
    }
  });
  return r;
}
