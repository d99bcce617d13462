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

__attribute__((noinline)) int ew_odd(const void *elem, void *ctx) {
  (void)ctx;
  return (int)((int64_t) * (const double *)elem & 1);
}

__attribute__((noinline)) size_t ew_count_range(const void *first, size_t n, void *ctx) {
  (void)ctx;
  const double *x = (const double *)first;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += (size_t)((int64_t)x[i] & 1);
  return k;
}

/* The range forms that write a variable count per input, branch-free:
 * step(y + k, x[i]) stores at y + k always and returns how many it keeps. */
template <class Step>
static inline size_t ew_compact(const void *in, size_t n, void *out, Step step) {
  const double *x = (const double *)in;
  double *y = (double *)out;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += step(y + k, x[i]);
  return k;
}

__attribute__((noinline)) size_t ew_copy_range(const void *in, size_t n, void *out, void *ctx) {
  (void)ctx;
  return ew_compact(in, n, out, [](double *y, double x) { /* kept when odd */
                                                          *y = x;
                                                          return (size_t)((int64_t)x & 1);
  });
}

__attribute__((noinline)) int ew_negative(const void *elem, void *ctx) {
  (void)ctx;
  return *(const double *)elem < 0;
}

__attribute__((noinline)) size_t ew_find_negative_range(const void *first, size_t n, void *ctx) {
  (void)ctx;
  const double *x = (const double *)first;
  for (size_t i = 0; i < n; i++)
    if (x[i] < 0) return i;
  return n;
}

__attribute__((noinline)) size_t ew_var(const void *in, void *out, void *ctx) {
  (void)ctx;
  double x = *(const double *)in;
  double *y = (double *)out;
  size_t k = (size_t)((int64_t)x % 3);
  for (size_t j = 0; j < k; j++) y[j] = x * 0.5;
  return k;
}

__attribute__((noinline)) size_t ew_var_range(const void *in, size_t n, void *out, void *ctx) {
  (void)ctx;
  return ew_compact(in, n, out, [](double *y, double x) {
    size_t c = (size_t)((int64_t)x % 3);
    y[0] = y[1] = x * 0.5; /* room: 2 per input */
    return c;
  });
}

__attribute__((noinline)) void ew_sum(const void *prev, const void *elem, void *res, void *ctx) {
  (void)ctx;
  *(double *)res = *(const double *)prev + *(const double *)elem;
}

__attribute__((noinline)) void ew_sum_scan(const void *carry, const void *in, void *out, size_t n,
                                           void *ctx) {
  (void)ctx;
  const double *x = (const double *)in;
  double *y = (double *)out;
  double s = carry ? *(const double *)carry : 0.0;
  size_t i = 0;
  if (!carry) y[i++] = s = x[0];
  for (; i < n; i++) y[i] = s += x[i];
}

__attribute__((noinline)) void ew_sum_add(const void *carry, void *first, size_t n, void *ctx) {
  (void)ctx;
  const double c = *(const double *)carry;
  double *y = (double *)first;
  for (size_t i = 0; i < n; i++) y[i] += c;
}

__attribute__((noinline)) void ew_sum_xscan(void *carry, const void *in, void *out, size_t n,
                                            void *ctx) {
  (void)ctx;
  const double *x = (const double *)in;
  double *y = (double *)out;
  double s = *(double *)carry;
  for (size_t i = 0; i < n; i++) {
    double t = x[i];
    y[i] = s;
    s += t;
  }
  *(double *)carry = s;
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
