/* adapt_inclusive_scan, adapt_exclusive_scan and their range forms: equal
 * to the sequential prefix for every window mode, splitter, worker count,
 * grain and size, with a commutative op (64-bit sums), a non-commutative
 * associative op (affine maps), elements too large for the inline carry,
 * in place; adapt_cancel from a stolen piece's finalisation; error paths. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Exclusive range form: out[j] = carry, carry = carry (+) in[j]. */
static void aff_xscan(void *carry, const void *in_first, void *out_first, size_t n, void *ctx) {
  const affine *in = in_first;
  affine *out = out_first, acc = *(affine *)carry;
  for (size_t j = 0; j < n; j++) {
    affine x = in[j]; /* before out[j] is written: in place they are one */
    out[j] = acc;
    aff_op(&acc, &x, &acc, NULL);
  }
  *(affine *)carry = acc;
}

static void add_xscan(void *carry, const void *in_first, void *out_first, size_t n, void *ctx) {
  const int64_t *in = in_first;
  int64_t *out = out_first, acc = *(int64_t *)carry;
  for (size_t j = 0; j < n; j++) {
    int64_t x = in[j];
    out[j] = acc;
    acc += x;
  }
  *(int64_t *)carry = acc;
}

/* 72-byte elements: the carries go to the heap. An affine map and sums. */
typedef struct big {
  affine f;
  uint64_t s[7];
} big;

static void big_op(const void *prev, const void *elem, void *res, void *ctx) {
  const big *p = prev, *e = elem;
  big r;
  aff_op(&p->f, &e->f, &r.f, NULL);
  for (int k = 0; k < 7; k++) r.s[k] = p->s[k] + e->s[k];
  *(big *)res = r;
}

static int big_eq(const big *a, const big *b) { return memcmp(a, b, sizeof *a) == 0; }

/* The sequential exclusive definition. */
static void aff_xref(const affine *f, size_t n, affine init, affine *out) {
  affine c = init;
  for (size_t i = 0; i < n; i++) {
    out[i] = c;
    aff_op(&c, &f[i], &c, NULL);
  }
}

static int case_xscan(const algo_case *c) {
  size_t n = c->n;
  int bad = 0;
  affine *f = malloc((n + 1) * sizeof *f), *g = malloc((n + 1) * sizeof *g);
  affine *ref = malloc((n + 1) * sizeof *ref);
  int64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
  const size_t nb = n <= 100003 ? n : 0; /* 72-byte elements */
  big *bi = malloc((nb + 1) * sizeof *bi), *bo = malloc((nb + 1) * sizeof *bo);
  assert_true(f && g && ref && x && y && bi && bo);
  for (size_t i = 0; i < n; i++) {
    f[i] = (affine){algo_mix(i + 3) | 1, algo_mix(i + 5)};
    x[i] = (int64_t)(algo_mix(i) % 2001) - 1000;
  }
  for (size_t i = 0; i < nb; i++) {
    bi[i].f = f[i];
    for (int k = 0; k < 7; k++) bi[i].s[k] = algo_mix(i * 7 + (size_t)k);
  }
  const affine init = {3, 4};
  aff_xref(f, n, init, ref);
  g[n] = (affine){42, 42};
  int rc = adapt_exclusive_scan(f, n, sizeof *f, g, &init, aff_op, NULL, &c->attr);
  if (rc || memcmp(g, ref, n * sizeof *g) || g[n].a != 42) {
    algo_case_print(c, "exclusive scan affine");
    bad = 1;
  }
  memset(g, 0, n * sizeof *g);
  rc = adapt_exclusive_scan_range(f, n, sizeof *f, g, &init, aff_xscan, aff_add, NULL, &c->attr);
  if (rc || memcmp(g, ref, n * sizeof *g)) {
    algo_case_print(c, "exclusive scan_range affine");
    bad = 1;
  }
  memcpy(g, f, n * sizeof *g); /* in place, range form */
  rc = adapt_exclusive_scan_range(g, n, sizeof *g, g, &init, aff_xscan, aff_add, NULL, &c->attr);
  if (rc || memcmp(g, ref, n * sizeof *g)) {
    algo_case_print(c, "exclusive scan_range affine in place");
    bad = 1;
  }
  if (n) { /* in place, init inside the array (read before anything is written) */
    memcpy(g, f, n * sizeof *g);
    affine in_init = g[n / 2];
    aff_xref(f, n, in_init, ref);
    rc = adapt_exclusive_scan(g, n, sizeof *g, g, &g[n / 2], aff_op, NULL, &c->attr);
    if (rc || memcmp(g, ref, n * sizeof *g)) {
      algo_case_print(c, "exclusive scan affine in place, init in the array");
      bad = 1;
    }
  }
  /* int64 sums, range form */
  int64_t zero = 0, acc = 0;
  rc = adapt_exclusive_scan_range(x, n, sizeof *x, y, &zero, add_xscan, add_add, NULL, &c->attr);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (y[i] != acc) {
      rc = -1;
      break;
    }
    acc += x[i];
  }
  if (rc) {
    algo_case_print(c, "exclusive scan_range add");
    bad = 1;
  }
  /* elements larger than the inline carries (up to 100003 of them: the
   * largest size would add time, not cases) */
  big binit = {{5, 6}, {1, 2, 3, 4, 5, 6, 7}}, bc = binit;
  rc = adapt_exclusive_scan(bi, nb, sizeof *bi, bo, &binit, big_op, NULL, &c->attr);
  for (size_t i = 0; rc == 0 && i < nb; i++) {
    if (!big_eq(&bo[i], &bc)) {
      rc = -1;
      break;
    }
    big_op(&bc, &bi[i], &bc, NULL);
  }
  if (rc) {
    algo_case_print(c, "exclusive scan 72-byte elements");
    bad = 1;
  }
  free(f);
  free(g);
  free(ref);
  free(x);
  free(y);
  free(bi);
  free(bo);
  return bad;
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
  return bad | case_xscan(c);
}

/* --- adapt_cancel from add: the call returns -ECANCELED ------------------ */
/* The finalisation of a stolen piece (add) may run after the engine's run
 * (the master's are spawned tasks): its cancel must still reach the call.
 * The master's chunks sleep 1 ms until a thief has run one, so a piece is
 * stolen, then merged and finalised; the first add of more than one output
 * (not the master's immediate fix of a merged piece's last one) sleeps 20
 * ms before it cancels, after the master's last chunk. */
typedef struct cancel_ctx {
  const int64_t *base;
  atomic_int stolen, adds, cancel_rc;
} cancel_ctx;

static void slow_scan(const void *carry, const void *in_first, void *out_first, size_t n,
                      void *ctx) {
  cancel_ctx *x = ctx;
  if (!carry && in_first != x->base)
    atomic_store_explicit(&x->stolen, 1, memory_order_relaxed);
  else if (!atomic_load_explicit(&x->stolen, memory_order_relaxed)) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  add_scan(carry, in_first, out_first, n, NULL);
}

static void slow_xscan(void *carry, const void *in_first, void *out_first, size_t n, void *ctx) {
  cancel_ctx *x = ctx;
  if (in_first != x->base && !atomic_load_explicit(&x->stolen, memory_order_relaxed))
    atomic_store_explicit(&x->stolen, 1, memory_order_relaxed);
  add_xscan(carry, in_first, out_first, n, NULL);
}

static void cancel_add(const void *carry, void *first, size_t n, void *ctx) {
  cancel_ctx *x = ctx;
  if (n == 1) { /* the master's last output of a merged piece, at once */
    add_add(carry, first, n, NULL);
    return;
  }
  /* relaxed: test records, read after the call (joined) */
  if (atomic_fetch_add_explicit(&x->adds, 1, memory_order_relaxed) == 0) {
    /* late: the master's own part ends first, the cancel comes after the
     * engine's run when this is a spawned finalisation */
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
  }
  atomic_store_explicit(&x->cancel_rc, adapt_cancel(), memory_order_relaxed);
  add_add(carry, first, n, NULL);
}

static void test_scan_cancel_in_add(void **state) {
  enum { N = 40000 };
  int64_t *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out), zero = 0;
  for (size_t i = 0; i < N; i++) in[i] = (int64_t)i;
  adapt_attr a = {0};
  a.grain = 1024;
  a.window = ADAPT_WINDOW_NONE;
  for (int form = 0; form < 2; form++) {
    cancel_ctx x = {.base = in};
    atomic_init(&x.stolen, 0);
    atomic_init(&x.adds, 0);
    atomic_init(&x.cancel_rc, 1);
    int rc = form == 0
                 ? adapt_inclusive_scan_range(in, N, sizeof *in, out, slow_scan, cancel_add, &x, &a)
                 : adapt_exclusive_scan_range(in, N, sizeof *in, out, &zero, slow_xscan, cancel_add,
                                              &x, &a);
    if (form == 1 && atomic_load(&x.adds) == 0) continue; /* no sleep there: maybe no steal */
    assert_true(atomic_load(&x.adds) > 0);
    assert_int_equal(atomic_load(&x.cancel_rc), 0);
    assert_int_equal(rc, -ECANCELED);
    assert_non_null(strstr(adapt_last_error(), "cancelled"));
  }
  /* the runtime is usable afterwards */
  assert_int_equal(adapt_inclusive_scan_range(in, N, sizeof *in, out, add_scan, add_add, NULL, &a),
                   0);
  assert_int_equal(out[N - 1], (int64_t)N * (N - 1) / 2);
  free(in);
  free(out);
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

  /* the exclusive scans */
  int64_t zero = 0;
  assert_int_equal(adapt_exclusive_scan(a, 8, 8, b, &zero, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(a, 8, 8, b, NULL, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(a, 8, 0, b, &zero, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(NULL, 8, 8, b, &zero, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(a, 8, 8, NULL, &zero, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(a, SIZE_MAX / 4, 8, b, &zero, count_op, NULL, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_exclusive_scan(a, 6, 8, a + 2, &zero, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_exclusive_scan(a, 8, 8, b, &zero, count_op, NULL, &bad), -EINVAL);
  assert_int_equal(adapt_exclusive_scan_range(a, 8, 8, b, &zero, NULL, add_add, NULL, NULL),
                   -EINVAL);
  assert_int_equal(adapt_exclusive_scan_range(a, 8, 8, b, &zero, add_xscan, NULL, NULL, NULL),
                   -EINVAL);
  assert_int_equal(adapt_exclusive_scan_range(a, 8, 8, b, NULL, add_xscan, add_add, NULL, NULL),
                   -EINVAL);
  assert_int_equal(atomic_load(&calls), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(b[i], 0);
  assert_int_equal(adapt_exclusive_scan(NULL, 0, 8, NULL, &zero, count_op, NULL, NULL), 0);
  assert_int_equal(atomic_load(&calls), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_scan_matrix, case_scan),
      ADAPT_TEST_WORKERS(test_scan_errors, 2),
      ADAPT_TEST_WORKERS(test_scan_cancel_in_add, 2),
  };
  return adapt_test_run("algo_scan", tests);
}
