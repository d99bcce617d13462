/* adapt_count_if and adapt_find_if and their range forms: equal to the
 * sequential loops for every window mode, splitter, worker count, grain and
 * size; find_if returns the first match and evaluates far fewer elements
 * than a full scan when the match is early; error paths. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo_test.h"

typedef struct pctx {
  uint32_t key;        /* elements equal to key match */
  atomic_size_t evals; /* predicate calls */
  unsigned char *seen; /* find_if: evaluations per element (<= 1) */
} pctx;

static int is_key(const void *elem, void *ctx) {
  pctx *p = ctx;
  const uint32_t *e = elem;
  atomic_fetch_add_explicit(&p->evals, 1, memory_order_relaxed);
  return *e == p->key;
}

typedef struct fctx {
  const uint32_t *base;
  uint32_t key;
  atomic_size_t evals;
  atomic_size_t twice; /* elements evaluated more than once */
  atomic_uchar *seen;
} fctx;

static int find_key(const void *elem, void *ctx) {
  fctx *f = ctx;
  const uint32_t *e = elem;
  atomic_fetch_add_explicit(&f->evals, 1, memory_order_relaxed);
  if (atomic_exchange_explicit(&f->seen[e - f->base], 1, memory_order_relaxed))
    atomic_fetch_add_explicit(&f->twice, 1, memory_order_relaxed);
  return *e == f->key;
}

/* The range forms of the two predicates above. */
static size_t count_key_range(const void *first, size_t n, void *ctx) {
  pctx *p = ctx;
  const uint32_t *e = first;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += e[i] == p->key;
  atomic_fetch_add_explicit(&p->evals, n, memory_order_relaxed);
  return k;
}

static size_t find_key_range(const void *first, size_t n, void *ctx) {
  const uint32_t *e = first;
  for (size_t i = 0; i < n; i++)
    if (find_key(&e[i], ctx)) return i;
  return n;
}

/* Returns one more than its range (a caller's bug). */
static size_t over_range(const void *first, size_t n, void *ctx) { return n + 1; }

static int case_search(const algo_case *c, void *arg) {
  size_t n = c->n;
  uint32_t *a = malloc((n + 1) * sizeof *a);
  atomic_uchar *seen = malloc((n + 1) * sizeof *seen);
  assert_true(a && seen);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(algo_mix(i) % 1000) + 10;
  int bad = 0;
  /* count_if */
  pctx p = {.key = 17, .seen = NULL};
  atomic_init(&p.evals, 0);
  size_t ref = 0, got = SIZE_MAX;
  for (size_t i = 0; i < n; i++) ref += a[i] == 17;
  int rc = adapt_count_if(a, n, sizeof *a, &got, is_key, &p, &c->attr);
  if (rc || got != ref || atomic_load(&p.evals) != n) {
    algo_case_print(c, "count_if");
    bad = 1;
  }
  /* count_if_range */
  atomic_store(&p.evals, 0);
  got = SIZE_MAX;
  rc = adapt_count_if_range(a, n, sizeof *a, &got, count_key_range, &p, &c->attr);
  if (rc || got != ref || atomic_load(&p.evals) != n) {
    algo_case_print(c, "count_if_range");
    bad = 1;
  }
  /* find_if: matches planted at several places; the first one wins */
  const size_t where[] = {0, 1, n / 3, n / 2, n ? n - 1 : 0, SIZE_MAX /* none */};
  for (size_t wi = 0; wi < sizeof where / sizeof *where; wi++) {
    size_t at = where[wi];
    if (at != SIZE_MAX && at >= n) continue;
    if (at != SIZE_MAX) a[at] = 5;
    if (at != SIZE_MAX && at + 7 < n) a[at + 7] = 5; /* a later match too */
    size_t first = n;
    for (size_t i = 0; i < n; i++)
      if (a[i] == 5) {
        first = i;
        break;
      }
    fctx f = {.base = a, .key = 5, .seen = seen};
    atomic_init(&f.evals, 0);
    atomic_init(&f.twice, 0);
    for (size_t i = 0; i < n; i++) atomic_init(&seen[i], 0);
    size_t idx = 12345;
    rc = adapt_find_if(a, n, sizeof *a, &idx, find_key, &f, &c->attr);
    size_t missed = 0;
    for (size_t i = 0; i < first; i++) missed += !atomic_load(&seen[i]);
    if (rc || idx != first || missed || atomic_load(&f.twice)) {
      algo_case_print(c, "find_if");
      fprintf(stderr,
              "  rc=%d planted=%zu got %zu expected %zu, %zu before it not evaluated, "
              "%zu evaluated twice\n",
              rc, at, idx, first, missed, atomic_load(&f.twice));
      bad = 1;
    }
    /* the range form: the same index, each element examined at most once */
    atomic_store(&f.evals, 0);
    for (size_t i = 0; i < n; i++) atomic_store(&seen[i], 0);
    idx = 12345;
    rc = adapt_find_if_range(a, n, sizeof *a, &idx, find_key_range, &f, &c->attr);
    missed = 0;
    for (size_t i = 0; i < first; i++) missed += !atomic_load(&seen[i]);
    if (rc || idx != first || missed || atomic_load(&f.twice)) {
      algo_case_print(c, "find_if_range");
      fprintf(stderr, "  rc=%d got %zu expected %zu, %zu missed, %zu twice\n", rc, idx, first,
              missed, atomic_load(&f.twice));
      bad = 1;
    }
    if (at != SIZE_MAX) a[at] = 10;
    if (at != SIZE_MAX && at + 7 < n) a[at + 7] = 10;
  }
  free(a);
  free(seen);
  return bad;
}

/* An early match: far fewer evaluations than a full scan, with every worker
 * count and mode. */
static void test_find_stops_early(void **state) {
  size_t n = adapt_test_scale(1000000, 250000);
  uint32_t *a = calloc(n, sizeof *a);
  atomic_uchar *seen = calloc(n, sizeof *seen);
  assert_true(a && seen);
  a[1000] = 5;
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
      for (size_t i = 0; i < n; i++) atomic_store_explicit(&seen[i], 0, memory_order_relaxed);
      fctx f = {.base = a, .key = 5, .seen = seen};
      atomic_init(&f.evals, 0);
      atomic_init(&f.twice, 0);
      adapt_attr at = algo_attr(&algo_modes[mi], 100000, 0);
      size_t idx = 0;
      assert_int_equal(adapt_find_if(a, n, sizeof *a, &idx, find_key, &f, &at), 0);
      assert_int_equal(idx, 1000);
      size_t ev = atomic_load(&f.evals);
      fprintf(stderr, "  workers=%d %-16s: %zu of %zu elements evaluated\n", algo_workers[wi],
              algo_modes[mi].name, ev, n);
      assert_true(ev >= 1001);
      /* Early: well under n. With more workers than CPUs the finder may be
       * descheduled right after its match while the others run on to
       * their next poll (under TSan, 8 workers on 2 CPUs: up to 29% of n
       * seen, in the sliding modes): a looser bound there. */
      assert_true(ev < (algo_workers[wi] > ncpu ? n / 2 : n / 4));
    }
  }
  free(a);
  free(seen);
}

/* find_if runs under every scheduler (its result is the engine's limit):
 * lowest match, each element at most once, early stop. count_if merges:
 * adaptive only. */
static void test_find_schedulers(void **state) {
  /* 250000: at the default grain (at most 2048) still some 120 chunks, and
   * on 8 workers 15 per worker; the sanitizer variants have run this size
   * from the start */
  size_t n = 250000;
  uint32_t *a = calloc(n, sizeof *a);
  atomic_uchar *seen = calloc(n, sizeof *seen);
  assert_true(a && seen);
  const size_t at_pos[] = {0, 1000, n / 2 + 7, n - 1, n /* none */};
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
      for (size_t k = 0; k < sizeof at_pos / sizeof *at_pos; k++) {
        size_t pos = at_pos[k];
        if (pos < n) a[pos] = 5;
        for (size_t i = 0; i < n; i++) atomic_store_explicit(&seen[i], 0, memory_order_relaxed);
        fctx f = {.base = a, .key = 5, .seen = seen};
        atomic_init(&f.evals, 0);
        atomic_init(&f.twice, 0);
        adapt_attr at = {0};
        at.sched = (adapt_sched)s;
        size_t idx = 0;
        assert_int_equal(adapt_find_if(a, n, sizeof *a, &idx, find_key, &f, &at), 0);
        if (idx != pos)
          fprintf(stderr, "find_if %s workers=%d: %zu, expected %zu\n", adapt_sched_name(s),
                  algo_workers[wi], idx, pos);
        assert_int_equal(idx, pos);
        assert_int_equal(atomic_load(&f.twice), 0);
        /* Early stop, checked where it does not depend on timing: one
         * worker runs the chunks in index order, and every chunk after
         * the match is cut at the limit (without the cut, about n). */
        if (algo_workers[wi] == 1 && pos < n) assert_int_equal(atomic_load(&f.evals), pos + 1);
        /* the range form under the same scheduler */
        for (size_t i = 0; i < n; i++) atomic_store_explicit(&seen[i], 0, memory_order_relaxed);
        atomic_store(&f.evals, 0);
        idx = 0;
        assert_int_equal(adapt_find_if_range(a, n, sizeof *a, &idx, find_key_range, &f, &at), 0);
        assert_int_equal(idx, pos);
        assert_int_equal(atomic_load(&f.twice), 0);
        if (algo_workers[wi] == 1 && pos < n) assert_int_equal(atomic_load(&f.evals), pos + 1);
        if (pos < n) a[pos] = 0;
      }
    }
  }
  size_t cnt = 0;
  adapt_attr at = {0};
  at.sched = ADAPT_SCHED_LOOPFRAME;
  assert_int_equal(adapt_count_if(a, n, sizeof *a, &cnt, is_key, NULL, &at), -ENOTSUP);
  assert_int_equal(adapt_count_if_range(a, n, sizeof *a, &cnt, count_key_range, NULL, &at),
                   -ENOTSUP);
  free(a);
  free(seen);
}

static void test_search_errors(void **state) {
  uint32_t a[8] = {0};
  pctx p = {.key = 0};
  atomic_init(&p.evals, 0);
  size_t r = 99;
  assert_int_equal(adapt_count_if(a, 8, 4, &r, NULL, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if(a, 8, 4, NULL, is_key, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if(a, 8, 0, &r, is_key, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if(NULL, 8, 4, &r, is_key, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if(a, SIZE_MAX / 2, 4, &r, is_key, &p, NULL), -EOVERFLOW);
  assert_int_equal(adapt_find_if(a, 8, 4, &r, NULL, &p, NULL), -EINVAL);
  assert_int_equal(adapt_find_if(a, 8, 4, NULL, is_key, &p, NULL), -EINVAL);
  assert_int_equal(adapt_find_if(a, 8, 0, &r, is_key, &p, NULL), -EINVAL);
  assert_int_equal(adapt_find_if(a, SIZE_MAX / 2, 4, &r, is_key, &p, NULL), -EOVERFLOW);
  adapt_attr bad = {0};
  bad.splitter = (adapt_window_splitter)7;
  assert_int_equal(adapt_find_if(a, 8, 4, &r, is_key, &p, &bad), -EINVAL);
  assert_int_equal(r, 99);
  assert_int_equal(atomic_load(&p.evals), 0);
  assert_int_equal(adapt_find_if(NULL, 0, 4, &r, is_key, &p, NULL), 0);
  assert_int_equal(r, 0);
  r = 99;
  assert_int_equal(adapt_count_if(NULL, 0, 4, &r, is_key, &p, NULL), 0);
  assert_int_equal(r, 0);
  assert_int_equal(atomic_load(&p.evals), 0);

  /* the range forms: the same checks, and a result beyond the range */
  r = 99;
  assert_int_equal(adapt_count_if_range(a, 8, 4, &r, NULL, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if_range(a, 8, 4, NULL, count_key_range, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if_range(a, 8, 0, &r, count_key_range, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if_range(NULL, 8, 4, &r, count_key_range, &p, NULL), -EINVAL);
  assert_int_equal(adapt_count_if_range(a, SIZE_MAX / 2, 4, &r, count_key_range, &p, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_find_if_range(a, 8, 4, &r, NULL, &p, NULL), -EINVAL);
  assert_int_equal(adapt_find_if_range(a, 8, 4, NULL, find_key_range, &p, NULL), -EINVAL);
  assert_int_equal(adapt_find_if_range(a, SIZE_MAX / 2, 4, &r, find_key_range, &p, NULL),
                   -EOVERFLOW);
  assert_int_equal(adapt_find_if_range(a, 8, 4, &r, find_key_range, &p, &bad), -EINVAL);
  assert_int_equal(r, 99);
  assert_int_equal(atomic_load(&p.evals), 0);
  assert_int_equal(adapt_count_if_range(a, 8, 4, &r, over_range, NULL, NULL), -ERANGE);
  assert_int_equal(adapt_find_if_range(a, 8, 4, &r, over_range, NULL, NULL), -ERANGE);
  assert_int_equal(r, 99);
  assert_int_equal(adapt_find_if_range(NULL, 0, 4, &r, find_key_range, &p, NULL), 0);
  assert_int_equal(r, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_search_matrix, case_search),
      ADAPT_TEST(test_find_stops_early),
      ADAPT_TEST(test_find_schedulers),
      ADAPT_TEST_WORKERS(test_search_errors, 2),
  };
  return adapt_test_run("algo_search", tests);
}
