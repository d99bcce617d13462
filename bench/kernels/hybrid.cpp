/* The hybrid-loop paper's iterative microbenchmark (hybrid.hpp). */
#include "hybrid.hpp"

std::vector<size_t> hy_offsets(size_t n, size_t elems, bool unbalanced) {
  std::vector<size_t> off(n + 1, 0);
  for (size_t i = 0; i < n; i++) {
    size_t m =
        unbalanced
            ? (size_t)((2.0 * (double)elems * (double)(i + 1)) / ((double)n * (double)(n + 1)))
            : elems / n;
    if (m < 14) m = 14;
    if (m % 13 == 0) m++;
    off[i + 1] = off[i] + m;
  }
  return off;
}

static inline void hy_iter(const hy_data &d, size_t i, int me) {
  size_t o = d.off[i], m = d.off[i + 1] - o;
  double *a = d.a + o;
  size_t j = 0;
  for (size_t k = 0; k < m; k++) {
    a[j] = a[j] * 0.999999 + 1e-6;
    j += 13;
    if (j >= m) j -= m;
  }
  if (d.owner[i] == me) d.hits[me].v++;
  d.owner[i] = me;
}

static int id_ok(int me) { return me >= 0 && me < HY_MAX_IDS ? me : 0; }

static void hy_body(size_t b, size_t e, void *p) {
  const hy_data *d = (const hy_data *)p;
  int me = id_ok(adapt_worker_id());
  for (size_t i = b; i < e; i++) hy_iter(*d, i, me);
}

__attribute__((noinline)) void hy_seq(const hy_data &d, int steps) {
  for (int s = 0; s < steps; s++)
    for (size_t i = 0; i < d.n; i++) hy_iter(d, i, 0);
}

int hy_adapt(const hy_data &d, int steps, const adapt_attr *attr) {
  for (int k = 0; k < steps; k++) {
    int rc = adapt_for(0, d.n, hy_body, (void *)&d, attr);
    if (rc != 0) return rc;
  }
  return 0;
}

void hy_omp(omp_kind kind, int chunk, int threads, const hy_data &d, int steps) {
  for (int s = 0; s < steps; s++) {
    const hy_data *dp = &d;
    size_t n = d.n;
    OMP_PARALLEL_FOR(kind, chunk, threads, firstprivate(dp, n),
                     for (size_t i = 0; i < n; i++) hy_iter(*dp, i, id_ok(omp_get_thread_num())););
  }
}

void hy_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, const hy_data &d,
            int steps, size_t grain) {
  arena.execute([&] {
    for (int s = 0; s < steps; s++)
      tbb_for(
          kind, tbb::blocked_range<size_t>(0, d.n, grain),
          [&](const tbb::blocked_range<size_t> &r) {
            int me = id_ok(tbb::this_task_arena::current_thread_index());
            for (size_t i = r.begin(); i != r.end(); i++) hy_iter(d, i, me);
          },
          ap);
  });
}

double hy_affinity(const hy_data &d, int steps) {
  long long h = 0;
  for (int w = 0; w < HY_MAX_IDS; w++) h += d.hits[w].v;
  return (double)h / ((double)d.n * (double)(steps - 1));
}
