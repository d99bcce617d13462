/* daxpy for bench_core and bench_sched (daxpy.hpp). */
#include "daxpy.hpp"

struct daxpy_ctx {
  double *y;
  const double *x;
  double a;
};

__attribute__((noinline)) void daxpy_seq(double *__restrict y, const double *__restrict x, double a,
                                         size_t b, size_t e) {
  for (size_t i = b; i < e; i++) y[i] += a * x[i];
}

static void daxpy_body(size_t b, size_t e, void *p) {
  daxpy_ctx *c = (daxpy_ctx *)p;
  double *__restrict y = c->y;
  const double *__restrict x = c->x;
  double a = c->a;
  for (size_t i = b; i < e; i++) y[i] += a * x[i];
}

static void daxpy_body_outlined(size_t b, size_t e, void *p) {
  daxpy_ctx *c = (daxpy_ctx *)p;
  daxpy_seq(c->y, c->x, c->a, b, e);
}

int daxpy_adapt(double *y, const double *x, double a, size_t n, const adapt_attr *attr) {
  daxpy_ctx c = {y, x, a};
  return adapt_for(0, n, daxpy_body, &c, attr);
}

int daxpy_adapt_outlined(double *y, const double *x, double a, size_t n, const adapt_attr *attr) {
  daxpy_ctx c = {y, x, a};
  return adapt_for(0, n, daxpy_body_outlined, &c, attr);
}

void daxpy_omp(omp_kind kind, int chunk, int threads, double *y, const double *x, double a,
               size_t n) {
  OMP_PARALLEL_FOR(kind, chunk, threads, firstprivate(x, y, a),
                   for (size_t i = 0; i < n; i++) y[i] += a * x[i];);
}

void daxpy_tbb(tbb_kind kind, tbb::task_arena &arena, tbb::affinity_partitioner *ap, double *y,
               const double *x, double a, size_t n) {
  arena.execute([&] {
    tbb_for(
        kind, tbb::blocked_range<size_t>(0, n, 1),
        [=](const tbb::blocked_range<size_t> &r) {
          for (size_t i = r.begin(); i != r.end(); i++) y[i] += a * x[i];
        },
        ap);
  });
}

void daxpy_tbb_outlined(tbb::task_arena &arena, double *y, const double *x, double a, size_t n) {
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n), [&](const tbb::blocked_range<size_t> &r) {
      daxpy_seq(y, x, a, r.begin(), r.end());
    });
  });
}
