/* The window constraint, checked by an instrumented op: in the static and
 * sliding modes no element is processed while an element m or more places
 * before it is unfinished, so no two workers are ever more than m elements
 * apart. Also: the default window size formula and the parameter
 * resolution from attributes and the environment read by adapt_init. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../algorithms/algo_config.h" /* white-box */
#include "algo_test.h"
#include "../../algorithms/seq_params.h" /* white-box */

/* The checker. done[i] is set when element i is finished; low is a lower
 * bound of the oldest unfinished element, advanced by whoever finishes an
 * element (seq_cst: a finisher either sees low reach its element or the
 * thread that moves low there sees done[i], so low catches up with every
 * finished prefix). Before processing i, i - low >= m is a violation: the
 * element is m or more places after an element that may be unfinished. As
 * low never exceeds the true oldest unfinished element (and the engine's
 * hand-offs order the finisher's update before the piece is given), a
 * reported violation is real. */
typedef struct checker {
  atomic_uchar *done;
  atomic_size_t low;
  size_t n, m;
  atomic_size_t violations;
  atomic_size_t max_dist; /* largest i - low seen */
  atomic_int workers_seen[64];
} checker;

static void checker_init(checker *k, size_t n, size_t m) {
  k->done = calloc(n + 1, sizeof *k->done);
  assert_non_null(k->done);
  atomic_init(&k->low, 0);
  k->n = n;
  k->m = m;
  atomic_init(&k->violations, 0);
  atomic_init(&k->max_dist, 0);
  for (int i = 0; i < 64; i++) atomic_init(&k->workers_seen[i], 0);
}

static void checker_visit(checker *k, size_t i) {
  size_t low = atomic_load(&k->low);
  size_t d = i - low;
  if (i < low || d >= k->m) atomic_fetch_add(&k->violations, 1);
  size_t cur = atomic_load_explicit(&k->max_dist, memory_order_relaxed);
  while (i >= low && d > cur &&
         !atomic_compare_exchange_weak_explicit(&k->max_dist, &cur, d, memory_order_relaxed,
                                                memory_order_relaxed)) {}
  int w = adapt_worker_id();
  if (w >= 0 && w < 64) atomic_store_explicit(&k->workers_seen[w], 1, memory_order_relaxed);
  atomic_store(&k->done[i], 1);
  size_t l = atomic_load(&k->low);
  while (l < k->n && atomic_load(&k->done[l])) {
    if (atomic_compare_exchange_strong(&k->low, &l, l + 1)) l++;
  }
}

typedef struct elem {
  checker *k;
  size_t i;
} elem;

static void visit_op(void *e, void *ctx) {
  elem *x = e;
  checker_visit(x->k, x->i);
}

/* The checker itself: a sequential out-of-order visit is reported. */
static void test_checker_detects(void **state) {
  checker k;
  checker_init(&k, 100, 10);
  checker_visit(&k, 0);
  checker_visit(&k, 5);
  assert_int_equal(atomic_load(&k.violations), 0);
  checker_visit(&k, 11); /* 1 is unfinished: 11 - 1 >= 10 */
  assert_int_equal(atomic_load(&k.violations), 1);
  for (size_t i = 1; i < 11; i++)
    if (i != 5) checker_visit(&k, i);
  assert_int_equal(atomic_load(&k.low), 12);
  checker_visit(&k, 21); /* 21 - 12 < 10 */
  assert_int_equal(atomic_load(&k.violations), 1);
  free(k.done);
}

static size_t run_checked(size_t n, size_t m, size_t grain, const algo_mode *mode, size_t *maxd,
                          int *nseen) {
  checker k;
  checker_init(&k, n, m);
  elem *a = malloc(n * sizeof *a);
  assert_non_null(a);
  for (size_t i = 0; i < n; i++) a[i] = (elem){&k, i};
  adapt_attr at = algo_attr(mode, m, grain);
  assert_int_equal(adapt_for_each(a, n, sizeof *a, visit_op, NULL, &at), 0);
  for (size_t i = 0; i < n; i++) assert_int_equal(atomic_load(&k.done[i]), 1);
  *maxd = atomic_load(&k.max_dist);
  *nseen = 0;
  for (int i = 0; i < 64; i++) *nseen += atomic_load(&k.workers_seen[i]);
  size_t v = atomic_load(&k.violations);
  free(a);
  free(k.done);
  return v;
}

static void test_window_constraint(void **state) {
  size_t n = adapt_test_scale(200000, 40000);
  static const size_t ms[] = {1, 64, 1000, 4096};
  static const size_t grains[] = {0, 1, 16, 4096};
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
      const algo_mode *mode = &algo_modes[mi];
      if (mode->window == ADAPT_WINDOW_NONE) continue; /* no constraint: test_report_drift */
      for (size_t j = 0; j < 4; j++)
        for (size_t g = 0; g < 4; g++) {
          size_t maxd;
          int seen;
          /* Small windows run one element per chunk: their sequence
           * holds 64 windows and more, not n elements. */
          size_t nm = 64 * ms[j] + 4096 < n ? 64 * ms[j] + 4096 : n;
          size_t v = run_checked(nm, ms[j], grains[g], mode, &maxd, &seen);
          if (v)
            fprintf(stderr,
                    "window violated: workers=%d mode=%s m=%zu grain=%zu: %zu times, "
                    "max distance %zu\n",
                    algo_workers[wi], mode->name, ms[j], grains[g], v, maxd);
          assert_int_equal(v, 0);
          assert_true(maxd < ms[j]);
        }
    }
  }
}

/* Informational: in no-window mode the workers do drift apart, which is
 * what the windows prevent (printed, not asserted: it depends on steals). */
static void test_report_drift(void **state) {
  size_t n = adapt_test_scale(200000, 40000);
  for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
    size_t maxd;
    int seen;
    adapt_stats_reset();
    run_checked(n, 1000, 64, &algo_modes[mi], &maxd, &seen);
    adapt_worker_stats s0, s1;
    assert_int_equal(adapt_stats_get(0, &s0), 0);
    assert_int_equal(adapt_stats_get(1, &s1), 0);
    fprintf(stderr,
            "  %-16s m=1000: max distance to oldest unfinished %zu, workers seen %d, "
            "steals %llu, preemptions %llu\n",
            algo_modes[mi].name, maxd, seen, (unsigned long long)(s0.steals + s1.steals),
            (unsigned long long)(s0.preemptions + s1.preemptions));
  }
}

/* Default window: shared cache / (ADAPT_ALGO_WINDOW_DIVISOR * footprint). */
static void test_default_window(void **state) {
  size_t cache = adapt_shared_cache_size();
  if (cache == 0) cache = ADAPT_ALGO_FALLBACK_CACHE;
  assert_int_equal(adapt__seq_default_window(8), cache / ADAPT_ALGO_WINDOW_DIVISOR / 8);
  assert_int_equal(adapt__seq_default_window(24), cache / ADAPT_ALGO_WINDOW_DIVISOR / 24);
  assert_int_equal(adapt__seq_default_window(SIZE_MAX), 1);
  fprintf(stderr, "  shared cache %zu bytes: default m = %zu elements of 8 bytes\n",
          adapt_shared_cache_size(), adapt__seq_default_window(8));

  adapt__seq_params p;
  adapt_attr a = {0};
  const char *fn = "test";
  a.window = ADAPT_WINDOW_STATIC;
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000000, 1, 8, &p), 0);
  assert_int_equal(p.window, adapt__seq_default_window(8));
  a.footprint = 64; /* the caller's footprint wins over the element size */
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000000, 1, 8, &p), 0);
  assert_int_equal(p.window, adapt__seq_default_window(64));
  /* the environment is read by adapt_init: set before the restart */
  setenv("ADAPT_WINDOW_SIZE", "777", 1);
  assert_int_equal(adapt_test_workers(2), 0);
  unsetenv("ADAPT_WINDOW_SIZE");
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000, 1, 8, &p), 0);
  assert_int_equal(p.window, 777);
  a.window_size = 555; /* the attribute wins over the environment */
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000, 1, 8, &p), 0);
  assert_int_equal(p.window, 555);
  assert_int_equal(adapt_test_workers(2), 0);
  /* units (reduce blocks): window and grain are converted, at least 1 */
  a.window_size = 5000;
  a.grain = 3000;
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000, 1000, 8, &p), 0);
  assert_int_equal(p.n, 100);
  assert_int_equal(p.window, 5);
  assert_int_equal(p.grain, 3);
  a.grain = 10;
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000, 1000, 8, &p), 0);
  assert_int_equal(p.grain, 1);
  /* the grain never exceeds the window */
  a.window_size = 10;
  a.grain = 100;
  assert_int_equal(adapt__seq_params_resolve(fn, &a, 100000, 1, 8, &p), 0);
  assert_int_equal(p.grain, 10);
  /* mode, splitter, grain and scheduler defaults from the environment */
  adapt_attr d = {0};
  setenv("ADAPT_WINDOW", "sliding", 1);
  setenv("ADAPT_SPLITTER", "local", 1);
  setenv("ADAPT_GRAIN", "4", 1);
  setenv("ADAPT_SCHED", "dac", 1);
  assert_int_equal(adapt_test_workers(2), 0);
  assert_int_equal(adapt__seq_params_resolve(fn, &d, 10, 1, 8, &p), 0);
  assert_int_equal(p.mode, ADAPT_WINDOW_SLIDING);
  assert_int_equal(p.splitter, ADAPT_SPLITTER_LOCAL);
  assert_int_equal(p.grain, 4);
  assert_int_equal(p.auto_grain, 0);
  assert_int_equal(p.sched, ADAPT_SCHED_DEFAULT);
  assert_int_equal(p.sched_default, ADAPT_SCHED_DAC);
  setenv("ADAPT_WINDOW", "static", 1);
  setenv("ADAPT_SPLITTER", "distant", 1);
  /* read once: the running runtime keeps the values it started with */
  assert_int_equal(adapt__seq_params_resolve(fn, &d, 10, 1, 8, &p), 0);
  assert_int_equal(p.mode, ADAPT_WINDOW_SLIDING);
  assert_int_equal(p.splitter, ADAPT_SPLITTER_LOCAL);
  assert_int_equal(adapt_test_workers(2), 0);
  unsetenv("ADAPT_GRAIN");
  unsetenv("ADAPT_SCHED");
  assert_int_equal(adapt__seq_params_resolve(fn, &d, 10, 1, 8, &p), 0);
  assert_int_equal(p.mode, ADAPT_WINDOW_STATIC);
  assert_int_equal(p.splitter, ADAPT_SPLITTER_DISTANT);
  unsetenv("ADAPT_WINDOW");
  unsetenv("ADAPT_SPLITTER");
  assert_int_equal(adapt_test_workers(2), 0);
  assert_int_equal(adapt__seq_params_resolve(fn, &d, 10, 1, 8, &p), 0);
  assert_int_equal(p.mode, ADAPT_WINDOW_NONE);
  assert_int_equal(p.splitter, ADAPT_SPLITTER_BALANCED);
  assert_int_equal(p.sched_default, ADAPT_SCHED_ADAPTIVE);
  assert_int_equal(p.window, 10);
  assert_int_equal(p.auto_grain, 1);
}

/* A grain remembered from an earlier call of the same op (the engine's
 * grain cache) never makes a chunk larger than a later call's window: the
 * first call, without a window, calibrates on a cheap op over many
 * elements; the second, with a static window of m elements, must run no
 * range longer than m. */
typedef struct range_log {
  atomic_size_t longest, calls;
} range_log;

static void cheap_range(void *first, size_t n, void *ctx) {
  range_log *r = ctx;
  double *x = first;
  for (size_t i = 0; i < n; i++) x[i] = x[i] * 0.5 + 1.0;
  size_t cur = atomic_load_explicit(&r->longest, memory_order_relaxed);
  /* relaxed: read after the call returns (its join orders the chunks). */
  while (n > cur && !atomic_compare_exchange_weak_explicit(
                        &r->longest, &cur, n, memory_order_relaxed, memory_order_relaxed)) {}
  atomic_fetch_add_explicit(&r->calls, 1, memory_order_relaxed);
}

static void test_remembered_grain_within_window(void **state) {
  (void)state;
  const size_t n = adapt_test_scale((size_t)1 << 20, (size_t)1 << 17), m = 64;
  double *x = calloc(n, sizeof *x);
  assert_non_null(x);
  range_log r;
  atomic_init(&r.longest, 0);
  atomic_init(&r.calls, 0);
  for (int k = 0; k < 3; k++) /* calibrated, then remembered */
    assert_int_equal(adapt_for_each_range(x, n, sizeof *x, cheap_range, &r, NULL), 0);
  adapt_attr a = {0};
  a.window = ADAPT_WINDOW_STATIC;
  a.window_size = m;
  atomic_store_explicit(&r.longest, 0, memory_order_relaxed);
  assert_int_equal(adapt_for_each_range(x, n, sizeof *x, cheap_range, &r, &a), 0);
  assert_true(atomic_load_explicit(&r.longest, memory_order_relaxed) <= m);
  assert_true(atomic_load_explicit(&r.longest, memory_order_relaxed) >= 1);
  free(x);
}

/* The automatic grain follows a cost that grows along the sequence (the
 * calibrated grain's chunks timed again, one in ADAPT_ALGO_GRAIN_RECHECK):
 * on one worker, the elements of the first half cost a few steps, those of
 * the second half 64 times more; the chunks that start in the last quarter
 * are at most a quarter of the longest in the first half. With the grain
 * calibrated once, on the cheap elements, they were as long. */
typedef struct ramp_log {
  const double *base;
  size_t n, longest_cheap, longest_last; /* one worker: plain fields */
} ramp_log;

static void step_range(void *first, size_t n, void *ctx) {
  ramp_log *r = ctx;
  double *x = first;
  const size_t at = (size_t)(x - r->base);
  for (size_t i = 0; i < n; i++) {
    const int steps = at + i < r->n / 2 ? 6 : 6 * 64;
    double v = x[i];
    for (int k = 0; k < steps; k++) v = v * 0.999 + 0.25;
    x[i] = v;
  }
  if (at < r->n / 2 && n > r->longest_cheap) r->longest_cheap = n;
  if (at >= r->n - r->n / 4 && n > r->longest_last) r->longest_last = n;
}

static void test_grain_follows_growing_cost(void **state) {
  (void)state;
  const size_t n = adapt_test_scale((size_t)1 << 17, (size_t)1 << 15);
  double *x = calloc(n, sizeof *x);
  assert_non_null(x);
  ramp_log r = {x, n, 0, 0};
  assert_int_equal(adapt_for_each_range(x, n, sizeof *x, step_range, &r, NULL), 0);
  assert_true(r.longest_cheap >= 16);
  assert_true(r.longest_last >= 1);
  assert_true(r.longest_last * 4 <= r.longest_cheap);
  free(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ADAPT_TEST(test_checker_detects),
      ADAPT_TEST(test_window_constraint),
      ADAPT_TEST_WORKERS(test_report_drift, 2),
      ADAPT_TEST_WORKERS(test_default_window, 2),
      ADAPT_TEST(test_remembered_grain_within_window),
      ADAPT_TEST_WORKERS(test_remembered_grain_within_window, 2),
      ADAPT_TEST_WORKERS(test_grain_follows_growing_cost, 1),
  };
  return adapt_test_run("algo_window", tests);
}
