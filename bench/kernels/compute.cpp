/* The compute-bound loops of bench_core (compute.hpp). */
#include "compute.hpp"

#include "harness.hpp"

#include <stdint.h>

struct cb_ctx {
  double *out;
  size_t n;
  int triangular;
};

static inline int cb_steps(size_t i, size_t n, int triangular) {
  return triangular ? 1 + (int)(((uint64_t)2 * CB_STEPS * i) / n) : CB_STEPS;
}

static inline double cb_op(size_t i, size_t n, int triangular) {
  double v = 1.0 + (double)(i & 1023) * 1e-6;
  int k = cb_steps(i, n, triangular);
  for (int j = 0; j < k; j++) v = v * 0.9999999 + 1e-7;
  return v;
}

static void cb_body(size_t b, size_t e, void *ctx) {
  cb_ctx *c = (cb_ctx *)ctx;
  for (size_t i = b; i < e; i++) c->out[i] = cb_op(i, c->n, c->triangular);
}

void cb_seq(double *out, size_t n, int tri) {
  for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri);
}

int cb_adapt(double *out, size_t n, int tri, size_t grain) {
  cb_ctx c = {out, n, tri};
  adapt_attr attr = make_attr(grain);
  return adapt_for(0, n, cb_body, &c, &attr);
}

void cb_omp(omp_kind kind, int threads, double *out, size_t n, int tri) {
  OMP_PARALLEL_FOR(kind, 1, threads, , for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri););
}

void cb_tbb(tbb_kind kind, tbb::task_arena &arena, double *out, size_t n, int tri) {
  arena.execute([&] {
    tbb_for(kind, tbb::blocked_range<size_t>(0, n, 1), [=](const tbb::blocked_range<size_t> &r) {
      for (size_t i = r.begin(); i != r.end(); i++) out[i] = cb_op(i, n, tri);
    });
  });
}

static void short_body(size_t b, size_t e, void *ctx) {
  double *o = (double *)ctx;
  for (size_t i = b; i < e; i++) {
    double v = 1.0 + (double)i * 1e-9;
    for (int j = 0; j < 8; j++) v = v * 0.9999999 + 1e-7;
    o[i] = v;
  }
}

int short_iterations_adapt(double *out, size_t n) {
  adapt_attr attr = make_attr(1);
  return adapt_for(0, n, short_body, out, &attr);
}
