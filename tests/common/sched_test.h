/* Helpers shared by the tests of the loop schedulers through adapt_for
 * (test_sched.c, test_sched_env.c): the schedulers and worker counts they
 * sweep, checks inside bodies, and check_run, which runs one loop and checks
 * that every index ran exactly once, that the result equals the sequential
 * loop, the grain bound and static's blocks. */
#ifndef TESTS_SCHED_TEST_H
#define TESTS_SCHED_TEST_H

#include <adapt/algorithms.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "adapt_test.h"

/* The schedulers (all but DEFAULT) and the worker counts (8:
 * oversubscribed) the tests sweep. */
enum { NSCHED = 8 };
static const adapt_sched scheds[NSCHED] = {
    ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_DAC,     ADAPT_SCHED_HYBRID,
    ADAPT_SCHED_LAZY_DF,  ADAPT_SCHED_LAZY_DF2,  ADAPT_SCHED_LAZY_BF, ADAPT_SCHED_STATIC};
static const int worker_counts[] = {1, 2, 3, 8};
enum { NWC = 4 };

/* Checks inside bodies count failures here (a cmocka assert must not
 * longjmp out of a worker thread); the test asserts the count is 0. */
static atomic_int body_errors;
#define BODY_CHECK(c)                                                                              \
  do {                                                                                             \
    if (!(c) && atomic_fetch_add_explicit(&body_errors, 1, memory_order_relaxed) < 5)              \
      fprintf(stderr, "%s:%d: check failed in a body: %s\n", __FILE__, __LINE__, #c);              \
  } while (0)

static inline void reset_body_errors(void) { atomic_store(&body_errors, 0); }
static inline void assert_no_body_errors(void) { assert_int_equal(atomic_load(&body_errors), 0); }

static inline const char *sname(adapt_sched s) {
  const char *n = adapt_sched_name(s);
  return n ? n : "?";
}

/* --- One loop, run and checked ------------------------------------------ */

/* The value the loop's body stores for index i. */
static inline uint64_t f_of(size_t i) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

enum { REC_MAX = 64 };
typedef struct run_rec {
  size_t first, n;
  int nworkers;
  atomic_uchar *hits;
  uint64_t *slot;
  atomic_size_t calls, maxlen;
  atomic_int bad; /* calls outside [first, last), b > e, or on a bad worker id */
  size_t rec_b[REC_MAX], rec_e[REC_MAX]; /* the first REC_MAX calls */
} run_rec;

/* Body calls on workers other than the caller (worker 0): shows that the
 * parallel paths ran (printed, not asserted: scheduling decides). */
static atomic_size_t helper_calls, all_calls;
/* > 0: each index also spins up to this many ns (set by the main thread
 * between loops only) */
static unsigned body_spin_ns;

static inline void rec_body(size_t b, size_t e, void *ctx) {
  run_rec *r = ctx;
  int id = adapt_worker_id();
  if (b > e || b < r->first || e - r->first > r->n || id < 0 || id >= r->nworkers) {
    /* a scheduler that wrapped around past SIZE_MAX would call on for
     * ~2^64 indices: stop the test binary rather than hang */
    int k = atomic_fetch_add_explicit(&r->bad, 1, memory_order_relaxed);
    if (k == 0)
      fprintf(stderr, "body called on [%zu,%zu) (worker %d), outside [%zu,%zu)\n", b, e, id,
              r->first, r->first + r->n);
    if (k == 1000) {
      fprintf(stderr, "runaway loop: body called on [%zu,%zu) (worker %d), outside [%zu,%zu)\n", b,
              e, id, r->first, r->first + r->n);
      abort();
    }
    return;
  }
  if (id != 0) atomic_fetch_add_explicit(&helper_calls, 1, memory_order_relaxed);
  size_t k = atomic_fetch_add_explicit(&r->calls, 1, memory_order_relaxed);
  if (k < REC_MAX) {
    r->rec_b[k] = b;
    r->rec_e[k] = e;
  }
  size_t len = e - b, m = atomic_load_explicit(&r->maxlen, memory_order_relaxed);
  while (len > m && !atomic_compare_exchange_weak_explicit(
                        &r->maxlen, &m, len, memory_order_relaxed, memory_order_relaxed)) {}
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&r->hits[i - r->first], 1, memory_order_relaxed);
    r->slot[i - r->first] = f_of(i);
    if (body_spin_ns) adapt_test_spin_ns(f_of(i) % body_spin_ns);
  }
}

/* The default grain of the non-adaptive schedulers as <adapt/loop.h>
 * documents it: min(2048, n / (8 P)), at least 1. */
static inline size_t sched_default_grain(size_t n, int p) {
  size_t g = n / (8 * (size_t)p);
  if (g > 2048) g = 2048;
  return g ? g : 1;
}

/* Run [first, first + n) with {sched, grain} (attr NULL if null_attr) and
 * check it: eff is the scheduler that runs (sched DEFAULT: ADAPT_SCHED). */
static inline void check_run(adapt_sched sched, adapt_sched eff, int null_attr, size_t first,
                             size_t n, size_t grain, int p) {
  run_rec *r = calloc(1, sizeof *r);
  assert_non_null(r);
  r->first = first;
  r->n = n;
  r->nworkers = p;
  r->hits = calloc(n ? n : 1, sizeof *r->hits);
  r->slot = malloc((n ? n : 1) * sizeof *r->slot);
  uint64_t *expect = malloc((n ? n : 1) * sizeof *expect);
  assert_true(r->hits && r->slot && expect);
  for (size_t i = 0; i < n; i++) expect[i] = f_of(first + i); /* the sequential loop */
  adapt_attr a = {0};
  a.sched = sched;
  a.grain = grain;
  if (null_attr) grain = 0;
  int rc = adapt_for(first, first + n, rec_body, r, null_attr ? NULL : &a);
#define REPORT(...)                                                                                \
  do {                                                                                             \
    fprintf(stderr, "sched=%s%s workers=%d first=%zu n=%zu grain=%zu: ", sname(eff),               \
            sched == ADAPT_SCHED_DEFAULT ? " (ADAPT_SCHED)" : "", p, first, n, grain);             \
    fprintf(stderr, __VA_ARGS__);                                                                  \
  } while (0)
  if (rc) REPORT("adapt_for returned %d\n", rc);
  assert_int_equal(rc, 0);
  if (atomic_load(&r->bad)) REPORT("a call outside the range, or on a bad worker id\n");
  assert_int_equal(atomic_load(&r->bad), 0);
  size_t bad = 0, first_bad = 0, wrong = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned h = atomic_load_explicit(&r->hits[i], memory_order_relaxed);
    if (h != 1 && bad++ == 0) first_bad = i;
    if (h == 1 && r->slot[i] != expect[i]) wrong++;
  }
  if (bad)
    REPORT("%zu indices not run exactly once (first: index first+%zu, run %u times)\n", bad,
           first_bad, (unsigned)atomic_load(&r->hits[first_bad]));
  assert_int_equal(bad, 0);
  assert_int_equal(wrong, 0); /* equals the sequential loop */
  size_t calls = atomic_load(&r->calls), maxlen = atomic_load(&r->maxlen);
  atomic_fetch_add(&all_calls, calls);
  if (n == 0) assert_int_equal(calls, 0);
  if (eff == ADAPT_SCHED_STATIC && n > 0) {
    /* P contiguous blocks of floor(n/P) or ceil(n/P) indices, one call
     * each; empty blocks (n < P) are not called */
    size_t P = (size_t)p, want = n < P ? n : P, lo = n / P ? n / P : 1, hi = (n + P - 1) / P;
    if (calls != want) REPORT("static: %zu calls, expected %zu blocks\n", calls, want);
    assert_int_equal(calls, want);
    for (size_t k = 0; k < calls && k < REC_MAX; k++) {
      size_t len = r->rec_e[k] - r->rec_b[k];
      if (len < lo || len > hi)
        REPORT("static: block [%zu,%zu) has %zu indices, expected %zu..%zu\n", r->rec_b[k],
               r->rec_e[k], len, lo, hi);
      assert_true(len >= lo && len <= hi);
    }
  } else if (n > 0) {
    /* the grain bound: attr's grain, else the documented default of the
     * non-adaptive schedulers (the adaptive one calibrates its own) */
    size_t bound = grain;
    if (!bound && eff != ADAPT_SCHED_ADAPTIVE) bound = sched_default_grain(n, p);
    if (bound && maxlen > bound)
      REPORT("a call covered %zu indices, grain bound %zu\n", maxlen, bound);
    if (bound) assert_true(maxlen <= bound);
  }
#undef REPORT
  free(expect);
  free(r->slot);
  free(r->hits);
  free(r);
}

/* The large loop size of the sweeps (smaller under the sanitizers). */
static inline size_t large_size(void) { return adapt_test_scale(1000003, 100003); /* odd */ }

/* Indices of h[0..n) not hit exactly once. */
static inline size_t count_not_once(atomic_uchar *h, size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += atomic_load_explicit(&h[i], memory_order_relaxed) != 1;
  return bad;
}

/* A body that counts its calls in the atomic_int ctx. */
static inline void count_calls(size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit((atomic_int *)ctx, 1, memory_order_relaxed);
}

#endif /* TESTS_SCHED_TEST_H */
