/* adapt_reduce: bitwise equal to the documented fixed-tree definition (a
 * floating-point sum), equal to the plain left fold for an associative,
 * non-commutative combine (affine maps), results larger than a word; error
 * paths. Every window mode, splitter, worker count, grain and size. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algorithms/algo_config.h" /* white-box */
#include "algo_test.h"

/* --- floating-point sum -------------------------------------------------- */

static void dsum_acc(void *acc, const void *first, size_t n, void *ctx) {
  double s = *(double *)acc;
  const double *x = first;
  for (size_t i = 0; i < n; i++) s += x[i];
  *(double *)acc = s;
}

static void dsum_comb(void *acc, const void *other, void *ctx) {
  *(double *)acc += *(const double *)other;
}

/* The documented definition, written independently of the library: block
 * values, aligned power-of-two groups, left fold of the groups. */
static double group(const double *v, size_t a, size_t s) {
  if (s == 1) return v[a];
  double l = group(v, a, s / 2), r = group(v, a + s / 2, s / 2);
  dsum_comb(&l, &r, NULL);
  return l;
}

static double dsum_ref(const double *x, size_t n) {
  const size_t B = ADAPT_REDUCE_BLOCK;
  size_t nb = (n + B - 1) / B;
  double *v = malloc((nb + 1) * sizeof *v);
  assert_non_null(v);
  for (size_t k = 0; k < nb; k++) {
    v[k] = 0.0;
    dsum_acc(&v[k], x + k * B, n - k * B < B ? n - k * B : B, NULL);
  }
  double r = 0.0;
  int first = 1;
  for (size_t a = 0; a < nb;) {
    size_t s = 1;
    while (a % (2 * s) == 0 && a + 2 * s <= nb) s *= 2;
    double g = group(v, a, s);
    if (first)
      r = g;
    else
      dsum_comb(&r, &g, NULL);
    first = 0;
    a += s;
  }
  free(v);
  return r;
}

/* --- affine maps x -> a x + b (mod 2^64): associative, not commutative ---- */

typedef struct affine {
  uint64_t a, b;
} affine;

static void aff_then(affine *f, const affine *g) { /* f <- g o f */
  affine r = {g->a * f->a, g->a * f->b + g->b};
  *f = r;
}

static void aff_acc(void *acc, const void *first, size_t n, void *ctx) {
  const affine *x = first;
  for (size_t i = 0; i < n; i++) aff_then(acc, &x[i]);
}

static void aff_comb(void *acc, const void *other, void *ctx) { aff_then(acc, other); }

/* --- a 36-byte result: histogram of 9 bins ------------------------------- */

typedef struct hist {
  uint32_t bin[9];
} hist;

static void hist_acc(void *acc, const void *first, size_t n, void *ctx) {
  hist *h = acc;
  const affine *x = first;
  for (size_t i = 0; i < n; i++) h->bin[x[i].b % 9]++;
}

static void hist_comb(void *acc, const void *other, void *ctx) {
  hist *h = acc;
  const hist *o = other;
  for (int i = 0; i < 9; i++) h->bin[i] += o->bin[i];
}

typedef struct data {
  size_t n;
  double *x;
  affine *f;
  double dref;
  affine aref;
  hist href;
} data;

static data *data_get(size_t n) {
  static data d;
  if (d.x && d.n == n) return &d;
  free(d.x);
  free(d.f);
  d.n = n;
  d.x = malloc((n + 1) * sizeof *d.x);
  d.f = malloc((n + 1) * sizeof *d.f);
  assert_true(d.x && d.f);
  memset(&d.href, 0, sizeof d.href);
  d.aref = (affine){1, 0};
  for (size_t i = 0; i < n; i++) {
    uint64_t h = algo_mix(i + 1);
    /* magnitudes from 1e-8 to 1e8, both signs: grouping changes the bits */
    d.x[i] = ((double)(h % 1000003) - 500000.0) * pow(10.0, (double)(int)(h % 17) - 8.0);
    d.f[i] = (affine){algo_mix(h) | 1, h};
    aff_then(&d.aref, &d.f[i]);
    d.href.bin[d.f[i].b % 9]++;
  }
  d.dref = dsum_ref(d.x, n);
  return &d;
}

static int case_reduce(const algo_case *c, void *arg) {
  data *d = data_get(c->n);
  int bad = 0;
  double zero = 0.0, r = -1.0;
  int rc = adapt_reduce(d->x, c->n, sizeof(double), &r, sizeof r, &zero, dsum_acc, dsum_comb, NULL,
                        &c->attr);
  if (rc || memcmp(&r, &d->dref, sizeof r) != 0) {
    algo_case_print(c, "reduce double");
    fprintf(stderr, "  rc=%d got %.17g expected %.17g\n", rc, r, d->dref);
    bad = 1;
  }
  affine id = {1, 0}, ra = {0, 0};
  rc = adapt_reduce(d->f, c->n, sizeof(affine), &ra, sizeof ra, &id, aff_acc, aff_comb, NULL,
                    &c->attr);
  if (rc || ra.a != d->aref.a || ra.b != d->aref.b) {
    algo_case_print(c, "reduce affine");
    bad = 1;
  }
  hist hz = {{0}}, hr;
  memset(&hr, 0xff, sizeof hr);
  rc = adapt_reduce(d->f, c->n, sizeof(affine), &hr, sizeof hr, &hz, hist_acc, hist_comb, NULL,
                    &c->attr);
  if (rc || memcmp(&hr, &d->href, sizeof hr) != 0) {
    algo_case_print(c, "reduce histogram");
    bad = 1;
  }
  return bad;
}

/* The tree really groups: for these values the plain left fold differs, so
 * the equality above is not an accident of the data. */
static void test_grouping_matters(void **state) {
  data *d = data_get(algo_big());
  double s = 0.0;
  dsum_acc(&s, d->x, d->n, NULL);
  fprintf(stderr, "  left fold %.17g, fixed tree %.17g\n", s, d->dref);
  assert_true(memcmp(&s, &d->dref, sizeof s) != 0);
}

static atomic_int calls;
static void count_acc(void *acc, const void *first, size_t n, void *ctx) {
  atomic_fetch_add(&calls, 1);
}

static void test_reduce_errors(void **state) {
  double x[4] = {1, 2, 3, 4}, zero = 0.0, r = 42.0;
  atomic_store(&calls, 0);
  assert_int_equal(adapt_reduce(x, 4, 8, NULL, 8, &zero, dsum_acc, dsum_comb, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 8, NULL, dsum_acc, dsum_comb, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 8, &zero, NULL, dsum_comb, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 8, &zero, count_acc, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 0, &zero, count_acc, dsum_comb, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(x, 4, 0, &r, 8, &zero, count_acc, dsum_comb, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_reduce(NULL, 4, 8, &r, 8, &zero, count_acc, dsum_comb, NULL, NULL),
                   -EINVAL);
  assert_int_equal(adapt_reduce(x, SIZE_MAX / 4, 8, &r, 8, &zero, count_acc, dsum_comb, NULL, NULL),
                   -EOVERFLOW);
  adapt_attr a = {0};
  a.window = (adapt_window_mode)9;
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 8, &zero, count_acc, dsum_comb, NULL, &a), -EINVAL);
  assert_int_equal(atomic_load(&calls), 0);
  assert_true(r == 42.0);
  /* count 0: the identity */
  double one = 1.0;
  assert_int_equal(adapt_reduce(NULL, 0, 8, &r, 8, &one, count_acc, dsum_comb, NULL, NULL), 0);
  assert_true(r == 1.0);
  assert_int_equal(atomic_load(&calls), 0);
  assert_int_equal(adapt_reduce(x, 4, 8, &r, 8, &zero, dsum_acc, dsum_comb, NULL, NULL), 0);
  assert_true(r == 10.0);
}

/* The shared teardown, and the data cache freed. */
static int teardown(void **state) {
  data *d = data_get(1);
  free(d->x);
  free(d->f);
  d->x = NULL;
  d->f = NULL;
  return adapt_test_teardown(state);
}

/* The matrix's large size (algo_test.h, algo_big_case) and its middle sizes
 * (algo_mid_case) cover every pair of workers x mode x grain: no interaction
 * of two factors goes untested at the sizes where runs are long enough for
 * many steals and window slides. */
static void test_matrix_big_pairs(void **state) {
  (void)state;
  unsigned char wm[ALGO_NWORKERS][ALGO_NMODES] = {{0}};
  unsigned char wg[ALGO_NWORKERS][ALGO_NGRAINS] = {{0}};
  unsigned char mg[ALGO_NMODES][ALGO_NGRAINS] = {{0}};
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++)
    for (size_t mi = 0; mi < ALGO_NMODES; mi++)
      for (size_t gi = 0; gi < ALGO_NGRAINS; gi++)
        if (algo_big_case(wi, mi, gi)) wm[wi][mi] = wg[wi][gi] = mg[mi][gi] = 1;
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++)
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) assert_true(wm[wi][mi]);
  for (size_t b = 0; b < ALGO_NBIG_GRAINS; b++) {
    const size_t gi = algo_big_grains[b];
    for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) assert_true(wg[wi][gi]);
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) assert_true(mg[mi][gi]);
  }
  /* the middle sizes (algo_mid_case): every pair over all five grains, in
   * 40 of the 100 triples */
  memset(wm, 0, sizeof wm);
  memset(wg, 0, sizeof wg);
  memset(mg, 0, sizeof mg);
  size_t ncases = 0;
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++)
    for (size_t mi = 0; mi < ALGO_NMODES; mi++)
      for (size_t gi = 0; gi < ALGO_NGRAINS; gi++)
        if (algo_mid_case(wi, mi, gi)) {
          wm[wi][mi] = wg[wi][gi] = mg[mi][gi] = 1;
          ncases++;
        }
  assert_int_equal(ncases, 2 * ALGO_NWORKERS * ALGO_NMODES);
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++)
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) assert_true(wm[wi][mi]);
  for (size_t gi = 0; gi < ALGO_NGRAINS; gi++) {
    for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) assert_true(wg[wi][gi]);
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) assert_true(mg[mi][gi]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix_big_pairs),
      ALGO_MATRIX_TEST(test_reduce_matrix, case_reduce),
      cmocka_unit_test_teardown(test_grouping_matters, teardown),
      cmocka_unit_test_prestate_setup_teardown(test_reduce_errors, adapt_test_setup_workers,
                                               teardown, (void *)2),
  };
  return adapt_test_run("algo_reduce", tests);
}
