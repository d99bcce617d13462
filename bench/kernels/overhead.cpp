/* The overhead loop of bench_core (overhead.hpp). */
#include "overhead.hpp"

#include "harness.hpp"

static const size_t OVH_MASK = OVH_ARRAY - 1;

static inline void ovh_op(double *a, size_t i) {
  size_t k = i & OVH_MASK;
  a[k] = a[k] * 0.999999 + 1e-6;
}

struct ovh_ctx {
  double *a;
};

static void ovh_body(size_t b, size_t e, void *ctx) {
  double *a = ((ovh_ctx *)ctx)->a;
  for (size_t i = b; i < e; i++) ovh_op(a, i);
}

void ovh_plain(double *a, size_t n) {
  for (size_t i = 0; i < n; i++) ovh_op(a, i);
}

int ovh_adapt(double *a, size_t lo, size_t hi, size_t grain) {
  ovh_ctx c = {a};
  adapt_attr attr = make_attr(grain);
  return adapt_for(lo, hi, ovh_body, &c, &attr);
}

/* firstprivate: the outlined loop keeps `a` in a register rather than
 * reloading it from the shared-variable block after every store. */
void ovh_omp(omp_kind kind, double *a, size_t lo, size_t hi, int threads) {
  OMP_PARALLEL_FOR(kind, 1, threads, firstprivate(a),
                   for (size_t i = lo; i < hi; i++) ovh_op(a, i););
}

void ovh_tbb(tbb_kind kind, tbb::task_arena &arena, double *a, size_t lo, size_t hi) {
  arena.execute([&] {
    tbb_for(kind, tbb::blocked_range<size_t>(lo, hi, 1), [a](const tbb::blocked_range<size_t> &r) {
      for (size_t i = r.begin(); i != r.end(); i++) ovh_op(a, i);
    });
  });
}
