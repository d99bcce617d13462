/* Element bodies and the scan of bench_window (elementwise.hpp). */
#include "elementwise.hpp"

__attribute__((noinline)) void ew_each(void *elem, void *ctx) {
  (void)ctx;
  double *x = (double *)elem;
  *x = *x * 0.999 + 0.5;
}

__attribute__((noinline)) void ew_each_range(void *first, size_t n, void *ctx) {
  (void)ctx;
  double *x = (double *)first;
  for (size_t i = 0; i < n; i++) x[i] = x[i] * 0.999 + 0.5;
}

__attribute__((noinline)) void ew_transform(const void *in, void *out, void *ctx) {
  (void)ctx;
  *(double *)out = *(const double *)in * 0.999 + 0.5;
}

__attribute__((noinline)) void ew_transform_range(const void *in, void *out, size_t n, void *ctx) {
  (void)ctx;
  const double *x = (const double *)in;
  double *y = (double *)out;
  for (size_t i = 0; i < n; i++) y[i] = x[i] * 0.999 + 0.5;
}

void scan_add(const void *prev, const void *elem, void *res, void *ctx) {
  (void)ctx;
  *(int64_t *)res = *(const int64_t *)prev + *(const int64_t *)elem;
}

static void (*volatile scan_op)(const void *, const void *, void *, void *) = scan_add;

__attribute__((noinline)) void scan_seq(const int64_t *x, int64_t *y, size_t n) {
  void (*op)(const void *, const void *, void *, void *) = scan_op;
  y[0] = x[0];
  for (size_t i = 1; i < n; i++) op(&y[i - 1], &x[i], &y[i], NULL);
}
