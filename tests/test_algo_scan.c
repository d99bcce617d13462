/* adapt_inclusive_scan and its range form: equal to the sequential prefix
 * for every window mode, splitter, worker count, grain and size, with a
 * commutative op (64-bit sums), a non-commutative associative op (affine
 * maps), in place; error paths. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_test.h"

static void add_op(const void *prev, const void *elem, void *res, void *ctx) {
  int64_t s = *(const int64_t *)prev + *(const int64_t *)elem;
  *(int64_t *)res = s;
}

typedef struct affine {
  uint64_t a, b;
} affine;

/* res = elem o prev (apply prev, then elem) */
static void aff_op(const void *prev, const void *elem, void *res, void *ctx) {
  const affine *f = prev, *g = elem;
  affine r = {g->a * f->a, g->a * f->b + g->b};
  *(affine *)res = r;
}

/* The range form of aff_op: scan and add (carry outside the range). */
static void aff_scan(const void *carry, const void *in_first, void *out_first, size_t n,
                     void *ctx) {
  const affine *in = in_first;
  affine *out = out_first;
  affine acc = carry ? *(const affine *)carry : in[0];
  size_t j = 0;
  if (!carry) out[j++] = acc;
  for (; j < n; j++) {
    aff_op(&acc, &in[j], &acc, NULL);
    out[j] = acc;
  }
}

static void aff_add(const void *carry, void *first, size_t n, void *ctx) {
  affine *o = first;
  for (size_t j = 0; j < n; j++) aff_op(carry, &o[j], &o[j], NULL);
}

static void add_scan(const void *carry, const void *in_first, void *out_first, size_t n,
                     void *ctx) {
  const int64_t *in = in_first;
  int64_t *out = out_first, acc = carry ? *(const int64_t *)carry : 0;
  for (size_t j = 0; j < n; j++) out[j] = acc += in[j];
}

static void add_add(const void *carry, void *first, size_t n, void *ctx) {
  int64_t *o = first, c = *(const int64_t *)carry;
  for (size_t j = 0; j < n; j++) o[j] += c;
}

static int case_scan(const algo_case *c, void *arg) {
  size_t n = c->n;
  int64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
  int64_t *ref = malloc((n + 1) * sizeof *ref);
  affine *f = malloc((n + 1) * sizeof *f), *g = malloc((n + 1) * sizeof *g);
  affine *fref = malloc((n + 1) * sizeof *fref);
  assert_true(x && y && ref && f && g && fref);
  for (size_t i = 0; i < n; i++) {
    x[i] = (int64_t)(algo_mix(i) % 2001) - 1000;
    f[i] = (affine){algo_mix(i + 7) | 1, algo_mix(i + 9)};
    ref[i] = i ? ref[i - 1] + x[i] : x[i];
    if (i)
      aff_op(&fref[i - 1], &f[i], &fref[i], NULL);
    else
      fref[0] = f[0];
  }
  y[n] = 4242;
  int bad = 0;
  int rc = adapt_inclusive_scan(x, n, sizeof *x, y, add_op, NULL, &c->attr);
  if (rc || memcmp(y, ref, n * sizeof *y) || y[n] != 4242) {
    algo_case_print(c, "scan add");
    bad = 1;
  }
  rc = adapt_inclusive_scan(f, n, sizeof *f, g, aff_op, NULL, &c->attr);
  if (rc || memcmp(g, fref, n * sizeof *g)) {
    algo_case_print(c, "scan affine");
    bad = 1;
  }
  memset(y, 0, n * sizeof *y);
  rc = adapt_inclusive_scan_range(x, n, sizeof *x, y, add_scan, add_add, NULL, &c->attr);
  if (rc || memcmp(y, ref, n * sizeof *y) || y[n] != 4242) {
    algo_case_print(c, "scan_range add");
    bad = 1;
  }
  memset(g, 0, n * sizeof *g);
  rc = adapt_inclusive_scan_range(f, n, sizeof *f, g, aff_scan, aff_add, NULL, &c->attr);
  if (rc || memcmp(g, fref, n * sizeof *g)) {
    algo_case_print(c, "scan_range affine");
    bad = 1;
  }
  memcpy(g, f, n * sizeof *g);
  rc = adapt_inclusive_scan_range(g, n, sizeof *g, g, aff_scan, aff_add, NULL, &c->attr);
  if (rc || memcmp(g, fref, n * sizeof *g)) {
    algo_case_print(c, "scan_range affine in place");
    bad = 1;
  }
  rc = adapt_inclusive_scan(f, n, sizeof *f, f, aff_op, NULL, &c->attr); /* in place */
  if (rc || memcmp(f, fref, n * sizeof *f)) {
    algo_case_print(c, "scan affine in place");
    bad = 1;
  }
  free(x);
  free(y);
  free(ref);
  free(f);
  free(g);
  free(fref);
  return bad;
}

static atomic_int calls;
static void count_op(const void *prev, const void *elem, void *res, void *ctx) {
  atomic_fetch_add(&calls, 1);
}

static void test_scan_errors(void **state) {
  int64_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {0};
  atomic_store(&calls, 0);
  assert_int_equal(adapt_inclusive_scan(a, 8, 8, b, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan(a, 8, 0, b, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan(NULL, 8, 8, b, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan(a, 8, 8, NULL, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan(a, SIZE_MAX / 4, 8, b, count_op, NULL, NULL), -EOVERFLOW);
  assert_int_equal(adapt_inclusive_scan(a, 6, 8, a + 2, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan(a + 2, 6, 8, a, count_op, NULL, NULL), -EINVAL);
  adapt_attr bad = {0};
  bad.window = (adapt_window_mode)5;
  assert_int_equal(adapt_inclusive_scan(a, 8, 8, b, count_op, NULL, &bad), -EINVAL);
  assert_int_equal(atomic_load(&calls), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(b[i], 0);
  assert_int_equal(adapt_inclusive_scan(NULL, 0, 8, NULL, count_op, NULL, NULL), 0);
  assert_int_equal(atomic_load(&calls), 0);
  assert_int_equal(adapt_inclusive_scan_range(a, 8, 8, b, NULL, add_add, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan_range(a, 8, 8, b, add_scan, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan_range(a, 8, 0, b, add_scan, add_add, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_inclusive_scan_range(a, SIZE_MAX / 4, 8, b, add_scan, add_add, NULL, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_inclusive_scan_range(a, 6, 8, a + 2, add_scan, add_add, NULL, NULL),
                   -EINVAL);
  for (int i = 0; i < 8; i++) assert_int_equal(b[i], 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_scan_matrix, case_scan),
      ADAPT_TEST_WORKERS(test_scan_errors, 2),
  };
  return adapt_test_run("algo_scan", tests);
}
