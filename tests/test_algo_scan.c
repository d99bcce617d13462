/* adapt_inclusive_scan: equal to the sequential prefix for every window
 * mode, splitter, worker count, grain and size, with a commutative op
 * (64-bit sums), a non-commutative associative op (affine maps), in place;
 * error paths. */
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
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_scan_matrix, case_scan),
      ADAPT_TEST_WORKERS(test_scan_errors, 2),
  };
  return adapt_test_run("algo_scan", tests);
}
