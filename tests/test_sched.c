/* Loop schedulers through adapt_for (adapt_attr.sched, ADAPT_SCHED): every
 * scheduler runs each index exactly once and equals the sequential loop
 * (sizes 0..large, grains 1, 7 and default, ranges not starting at 0 and
 * ending at SIZE_MAX, 1, 2, 3 and 8 workers); the grain bound; static's
 * blocks; three levels of nested loops with schedulers mixed across levels;
 * loops inside spawned tasks and tasks inside loops; fib and nqueens through
 * nested parallel loops; bad input; the hybrid claiming heuristic
 * (Algorithms 2-3) against the paper's pseudocode and under random arrival
 * orders and delays on plain threads; hybrid partitions kept on one worker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapt_test.h"
#include "../libadapt/src/config.h" /* white-box */
#include "../libadapt/src/schedulers.h" /* white-box */

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

static void reset_body_errors(void) { atomic_store(&body_errors, 0); }
static void assert_no_body_errors(void) { assert_int_equal(atomic_load(&body_errors), 0); }

static unsigned lcg(unsigned *s) { return (*s = *s * 1103515245u + 12345u) >> 8; }

static const char *sname(adapt_sched s) {
  const char *n = adapt_sched_name(s);
  return n ? n : "?";
}

/* --- Exactly once and equal to the sequential loop -------------------- */

static uint64_t f_of(size_t i) {
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

static void rec_body(size_t b, size_t e, void *ctx) {
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

/* Run [first, first + n) with {sched, grain} (attr NULL if null_attr) and
 * check it: eff is the scheduler that runs (sched DEFAULT: ADAPT_SCHED). */
static void check_run(adapt_sched sched, adapt_sched eff, int null_attr, size_t first, size_t n,
                      size_t grain, int p) {
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
    if (!bound && eff != ADAPT_SCHED_ADAPTIVE) bound = adapt__default_grain(n, p);
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

static size_t large_size(void) { return adapt_test_scale(1000003, 100003); /* odd */ }

/* Every size x grain x start, on 1, 2, 3 and 8 workers (8: oversubscribed). */
static void test_exactly_once(void **state) {
  adapt_sched s = *(const adapt_sched *)*state;
  const size_t sizes[] = {0, 1, 2, 3, 17, 1000, large_size()};
  atomic_store(&helper_calls, 0);
  atomic_store(&all_calls, 0);
  static const size_t grains[] = {1, 7, 0};
  for (int wi = 0; wi < NWC; wi++) {
    int p = worker_counts[wi];
    assert_int_equal(adapt_test_workers(p), 0);
    for (size_t gi = 0; gi < 3; gi++)
      for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        check_run(s, s, 0, 0, n, grains[gi], p);
        check_run(s, s, 0, SIZE_MAX - n, n, grains[gi], p); /* ends at SIZE_MAX */
        if (n <= 1000) check_run(s, s, 0, 12345, n, grains[gi], p);
      }
  }
  fprintf(stderr, "  %s: %zu of %zu body calls ran on helper workers\n", sname(s),
          atomic_load(&helper_calls), atomic_load(&all_calls));
}

/* Many short loops back to back with slow, uneven bodies: the owner and
 * the thieves meet on the last iterations of each loop, and loops start
 * while the previous one's helpers are still leaving. */
static void test_short_loops(void **state) {
  adapt_sched s = *(const adapt_sched *)*state;
  static const int pw[] = {2, 3, 8};
  size_t rounds = adapt_test_scale(1500, 300);
  unsigned seed = 12345;
  body_spin_ns = 3000;
  for (int wi = 0; wi < 3; wi++) {
    assert_int_equal(adapt_test_workers(pw[wi]), 0);
    for (size_t k = 0; k < rounds; k++) {
      size_t n = lcg(&seed) % 41, g = 1 + lcg(&seed) % 3;
      size_t first = k % 4 == 3 ? SIZE_MAX - n : lcg(&seed) % 1000;
      check_run(s, s, 0, first, n, k % 5 == 4 ? 0 : g, pw[wi]);
    }
  }
  body_spin_ns = 0;
}

/* DEFAULT resolved through ADAPT_SCHED (read by adapt_init, so set before
 * the restart), with a zeroed attribute and with a NULL one. */
static void test_env_default(void **state) {
  const size_t sizes[] = {0, 1, 3, 17, 1000, large_size()};
  for (int s = 0; s < ADAPT_SCHED_COUNT; s++) {
    const char *name = adapt_sched_name((adapt_sched)s);
    assert_non_null(name);
    adapt_sched eff = s == ADAPT_SCHED_DEFAULT ? ADAPT_SCHED_ADAPTIVE : (adapt_sched)s;
    for (int wi = 0; wi < NWC; wi++) {
      int p = worker_counts[wi];
      adapt_finalize();
      setenv("ADAPT_SCHED", name, 1);
      int rc = adapt_test_workers(p);
      unsetenv("ADAPT_SCHED");
      assert_int_equal(rc, 0);
      for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        check_run(ADAPT_SCHED_DEFAULT, eff, 0, 0, sizes[si], 7, p);
        check_run(ADAPT_SCHED_DEFAULT, eff, 0, 99, sizes[si], 0, p);
        check_run(ADAPT_SCHED_DEFAULT, eff, 1, 5, sizes[si], 0, p); /* NULL attr */
      }
    }
  }
}

/* --- Three levels of nested loops, schedulers mixed across levels ----- */

enum { NI = 13, NJ = 29, NK = 67 };
static atomic_uchar cells[NI][NJ][NK];
typedef struct nest_cfg {
  adapt_sched s[3];
  size_t g[3];
} nest_cfg;
typedef struct nest {
  const nest_cfg *c;
  size_t i;
} nest;
typedef struct nest2 {
  const nest_cfg *c;
  size_t i, j;
} nest2;

static void level3(size_t b, size_t e, void *ctx) {
  nest2 *n = ctx;
  for (size_t k = b; k < e; k++)
    atomic_fetch_add_explicit(&cells[n->i][n->j][k], 1, memory_order_relaxed);
}
static void level2(size_t b, size_t e, void *ctx) {
  nest *o = ctx;
  for (size_t j = b; j < e; j++) {
    nest2 n = {o->c, o->i, j};
    adapt_attr a = {0};
    a.sched = o->c->s[2];
    a.grain = o->c->g[2];
    BODY_CHECK(adapt_for(0, NK, level3, &n, &a) == 0);
  }
}
static void level1(size_t b, size_t e, void *ctx) {
  const nest_cfg *c = ctx;
  for (size_t i = b; i < e; i++) {
    nest n = {c, i};
    adapt_attr a = {0};
    a.sched = c->s[1];
    a.grain = c->g[1];
    BODY_CHECK(adapt_for(0, NJ, level2, &n, &a) == 0);
  }
}

/* Every ordered pair of schedulers on levels 1-2, and (through the third
 * scheduler, which varies with both) on levels 2-3. */
static void test_nested_mixed(void **state) {
  for (int wi = 0; wi < NWC; wi++) {
    assert_int_equal(adapt_test_workers(worker_counts[wi]), 0);
    for (int s0 = 0; s0 < NSCHED; s0++)
      for (int s1 = 0; s1 < NSCHED; s1++) {
        int v = (s0 + s1 + wi) % 3;
        nest_cfg c = {{scheds[s0], scheds[s1], scheds[(s0 + 3 * s1 + wi) % NSCHED]},
                      {1, v == 2 ? 3 : 1, v == 1 ? 0 : 1}};
        memset(cells, 0, sizeof cells);
        reset_body_errors();
        adapt_attr a = {0};
        a.sched = c.s[0];
        a.grain = c.g[0];
        assert_int_equal(adapt_for(0, NI, level1, &c, &a), 0);
        assert_no_body_errors();
        size_t bad = 0;
        for (size_t i = 0; i < NI; i++)
          for (size_t j = 0; j < NJ; j++)
            for (size_t k = 0; k < NK; k++) bad += atomic_load(&cells[i][j][k]) != 1;
        if (bad)
          fprintf(stderr, "nested %s/%s/%s workers=%d: %zu cells not visited once\n", sname(c.s[0]),
                  sname(c.s[1]), sname(c.s[2]), worker_counts[wi], bad);
        assert_int_equal(bad, 0);
      }
  }
}

/* --- Loops inside spawned tasks, tasks inside loop bodies -------------- */

typedef struct lt {
  adapt_sched s;
  size_t n, grain;
  atomic_uchar *hits;
} lt;
static void lt_body(size_t b, size_t e, void *ctx) {
  lt *l = ctx;
  for (size_t i = b; i < e; i++) atomic_fetch_add_explicit(&l->hits[i], 1, memory_order_relaxed);
}
static void lt_task(void *p) {
  lt *l = p;
  adapt_attr a = {0};
  a.sched = l->s;
  a.grain = l->grain;
  BODY_CHECK(adapt_for(0, l->n, lt_body, l, &a) == 0);
}
static void mark_task(void *p) {
  atomic_fetch_add_explicit((atomic_uchar *)p, 1, memory_order_relaxed);
}
static void spawn_body(size_t b, size_t e, void *ctx) {
  lt *l = ctx;
  adapt_scope sc;
  BODY_CHECK(adapt_scope_begin(&sc) == 0);
  for (size_t i = b; i < e; i++) BODY_CHECK(adapt_spawn(&sc, mark_task, &l->hits[i]) == 0);
  BODY_CHECK(adapt_sync(&sc) == 0);
}
/* a task whose loop's body spawns tasks: loop in task in loop in task */
static void lt_spawning_task(void *p) {
  lt *l = p;
  adapt_attr a = {0};
  a.sched = l->s;
  a.grain = 5;
  BODY_CHECK(adapt_for(0, l->n, spawn_body, l, &a) == 0);
}

static size_t count_not_once(atomic_uchar *h, size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += atomic_load_explicit(&h[i], memory_order_relaxed) != 1;
  return bad;
}

static void test_loops_in_tasks(void **state) {
  size_t n = adapt_test_scale(20000, 3000);
  lt l[2 * NSCHED];
  for (int k = 0; k < 2 * NSCHED; k++) {
    l[k].hits = calloc(n, 1);
    assert_non_null(l[k].hits);
  }
  for (int wi = 0; wi < NWC; wi++) {
    assert_int_equal(adapt_test_workers(worker_counts[wi]), 0);
    for (int rep = 0; rep < 2; rep++) {
      reset_body_errors();
      adapt_scope sc;
      assert_int_equal(adapt_scope_begin(&sc), 0);
      for (int k = 0; k < 2 * NSCHED; k++) {
        l[k].s = scheds[k % NSCHED];
        l[k].n = n;
        l[k].grain = rep ? 0 : 1;
        memset(l[k].hits, 0, n);
        assert_int_equal(adapt_spawn(&sc, k < NSCHED ? lt_task : lt_spawning_task, &l[k]), 0);
      }
      assert_int_equal(adapt_sync(&sc), 0);
      assert_no_body_errors();
      for (int k = 0; k < 2 * NSCHED; k++) {
        size_t bad = count_not_once(l[k].hits, n);
        if (bad)
          fprintf(stderr, "%s in a spawned task%s, workers=%d: %zu indices not run once\n",
                  sname(l[k].s), k < NSCHED ? "" : " (body spawning)", worker_counts[wi], bad);
        assert_int_equal(bad, 0);
      }
    }
    /* tasks spawned inside the bodies of each scheduler, at top level */
    for (int s = 0; s < NSCHED; s++) {
      reset_body_errors();
      memset(l[0].hits, 0, n);
      l[0].s = scheds[s];
      adapt_attr a = {0};
      a.sched = scheds[s];
      a.grain = 16;
      assert_int_equal(adapt_for(0, n, spawn_body, &l[0], &a), 0);
      assert_no_body_errors();
      assert_int_equal(count_not_once(l[0].hits, n), 0);
    }
  }
  for (int k = 0; k < 2 * NSCHED; k++) free(l[k].hits);
}

/* --- fib and nqueens through nested parallel loops (grain 1, no cut-off) */

/* sel < NSCHED: scheds[sel] at every level; sel == NSCHED: the scheduler
 * changes with the depth. */
typedef struct fib_ctx {
  int n, depth, sel;
  long r[2];
} fib_ctx;
static long fib_loop(int n, int depth, int sel);
static void fib_body(size_t b, size_t e, void *ctx) {
  fib_ctx *c = ctx;
  for (size_t i = b; i < e; i++) c->r[i] = fib_loop(c->n - 1 - (int)i, c->depth + 1, c->sel);
}
static long fib_loop(int n, int depth, int sel) {
  if (n < 2) return n;
  fib_ctx c = {n, depth, sel, {0, 0}};
  adapt_attr a = {0};
  a.grain = 1;
  a.sched = scheds[sel < NSCHED ? sel : depth % NSCHED];
  BODY_CHECK(adapt_for(0, 2, fib_body, &c, &a) == 0);
  return c.r[0] + c.r[1];
}

static int sched_index(void **state) {
  return *state ? (int)((const adapt_sched *)*state - scheds) : NSCHED;
}

static void test_fib_loops(void **state) {
  int sel = sched_index(state);
  int n = (int)adapt_test_scale(30, 25);
  long expect[31] = {0, 1};
  for (int i = 2; i <= 30; i++) expect[i] = expect[i - 1] + expect[i - 2];
  for (int wi = 0; wi < NWC; wi++) {
    assert_int_equal(adapt_test_workers(worker_counts[wi]), 0);
    reset_body_errors();
    long got = fib_loop(n, 0, sel);
    assert_no_body_errors();
    if (got != expect[n])
      fprintf(stderr, "fib(%d) with %s, workers=%d: %ld, expected %ld\n", n,
              sel < NSCHED ? sname(scheds[sel]) : "mixed", worker_counts[wi], got, expect[n]);
    assert_int_equal(got, expect[n]);
  }
}

static int queen_ok(const signed char *cols, int row, int c) {
  for (int r = 0; r < row; r++) {
    int d = cols[r] - c;
    if (d == 0 || d == row - r || d == r - row) return 0;
  }
  return 1;
}
typedef struct nq {
  int n, row, sel;
  const signed char *cols;
  atomic_long *count;
} nq;
static void nq_rec(int n, int row, const signed char *cols, atomic_long *count, int sel);
static void nq_body(size_t b, size_t e, void *ctx) {
  nq *q = ctx;
  for (size_t c = b; c < e; c++) {
    if (!queen_ok(q->cols, q->row, (int)c)) continue;
    signed char cols[16];
    memcpy(cols, q->cols, (size_t)q->row);
    cols[q->row] = (signed char)c;
    nq_rec(q->n, q->row + 1, cols, q->count, q->sel);
  }
}
static void nq_rec(int n, int row, const signed char *cols, atomic_long *count, int sel) {
  if (row == n) {
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    return;
  }
  nq q = {n, row, sel, cols, count};
  adapt_attr a = {0};
  a.grain = 1;
  a.sched = scheds[sel < NSCHED ? sel : row % NSCHED];
  BODY_CHECK(adapt_for(0, (size_t)n, nq_body, &q, &a) == 0);
}

static void test_nqueens_loops(void **state) {
  int sel = sched_index(state);
  int n = (int)adapt_test_scale(10, 9);
  long expect = n == 10 ? 724 : 352;
  signed char cols[16] = {0};
  for (int wi = 0; wi < NWC; wi++) {
    assert_int_equal(adapt_test_workers(worker_counts[wi]), 0);
    reset_body_errors();
    atomic_long count = 0;
    nq_rec(n, 0, cols, &count, sel);
    assert_no_body_errors();
    if (atomic_load(&count) != expect)
      fprintf(stderr, "nqueens(%d) with %s, workers=%d: %ld, expected %ld\n", n,
              sel < NSCHED ? sname(scheds[sel]) : "mixed", worker_counts[wi],
              (long)atomic_load(&count), expect);
    assert_int_equal(atomic_load(&count), expect);
  }
}

/* --- Top-level loops from several threads that are not workers -------- */

/* Each thread runs every scheduler; top-level regions are serialised (the
 * caller takes worker 0's place), and their results stay intact. */
static void *foreign_main(void *arg) {
  size_t n = adapt_test_scale(20000, 5000);
  atomic_uchar *hits = calloc(n, 1);
  intptr_t ok = hits != NULL && adapt_worker_id() == -1;
  for (int rep = 0; rep < 3 && ok; rep++)
    for (int s = 0; s < NSCHED && ok; s++) {
      lt l = {scheds[s], n, (size_t)(rep * 3), hits};
      memset(hits, 0, n);
      adapt_attr a = {0};
      a.sched = scheds[s];
      a.grain = l.grain;
      if (adapt_for(0, n, lt_body, &l, &a) != 0) ok = 0;
      if (count_not_once(hits, n)) {
        fprintf(stderr, "foreign thread, %s: %zu indices not run once\n", sname(scheds[s]),
                count_not_once(hits, n));
        ok = 0;
      }
    }
  if (adapt_worker_id() != -1) ok = 0; /* gave worker 0's place back */
  free(hits);
  return (void *)ok;
}

static void test_foreign_threads(void **state) {
  assert_int_equal(adapt_test_workers(3), 0);
  pthread_t t[3];
  for (int i = 0; i < 3; i++) assert_int_equal(pthread_create(&t[i], NULL, foreign_main, NULL), 0);
  for (int i = 0; i < 3; i++) {
    void *ok;
    pthread_join(t[i], &ok);
    assert_int_equal((intptr_t)ok, 1);
  }
}

/* --- Bad input, names ------------------------------------------------- */

static void count_calls(size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit((atomic_int *)ctx, 1, memory_order_relaxed);
}

static atomic_int finalize_rc;
static void finalize_in_body(size_t b, size_t e, void *ctx) {
  int rc = adapt_try_finalize();
  /* keep a failure: a later call must not hide it */
  if (rc != -EBUSY || atomic_load(&finalize_rc) == 1) atomic_store(&finalize_rc, rc);
}

static void test_errors(void **state) {
  atomic_int calls = 0;
  const int bad_values[] = {-1, ADAPT_SCHED_COUNT, ADAPT_SCHED_COUNT + 1, 99, INT_MAX, INT_MIN};
  for (int pass = 0; pass < 2; pass++) { /* runtime stopped, then running */
    for (size_t k = 0; k < sizeof bad_values / sizeof *bad_values; k++) {
      adapt_attr a = {0};
      a.sched = (adapt_sched)bad_values[k];
      assert_int_equal(adapt_for(0, 10, count_calls, &calls, &a), -EINVAL);
      a.grain = 3;
      assert_int_equal(adapt_for(5, 1000, count_calls, &calls, &a), -EINVAL);
    }
    assert_int_equal(atomic_load(&calls), 0);
    assert_int_equal(adapt_test_workers(2), 0);
  }
  /* every scheduler: NULL body, first > last, empty range */
  for (int s = 0; s < NSCHED; s++) {
    adapt_attr a = {0};
    a.sched = scheds[s];
    assert_int_equal(adapt_for(0, 10, NULL, NULL, &a), -EINVAL);
    assert_int_equal(adapt_for(10, 9, count_calls, &calls, &a), -EINVAL);
    assert_int_equal(adapt_for(7, 7, count_calls, &calls, &a), 0);
    assert_int_equal(adapt_for(SIZE_MAX, SIZE_MAX, count_calls, &calls, &a), 0);
  }
  assert_int_equal(atomic_load(&calls), 0);
  /* finalize inside a body of any scheduler refuses, the runtime stays */
  for (int s = 0; s < NSCHED; s++) {
    adapt_attr a = {0};
    a.sched = scheds[s];
    a.grain = 1;
    atomic_store(&finalize_rc, 1);
    assert_int_equal(adapt_for(0, 4, finalize_in_body, NULL, &a), 0);
    assert_int_equal(atomic_load(&finalize_rc), -EBUSY);
    assert_int_equal(adapt_num_workers(), 2);
  }
  /* bad ADAPT_SCHED: adapt_init reads it, so the runtime must start anew */
  static const char *bad_env[] = {"bogus", "lazy", "lazy-df3", "dac ", " dac", "static,dac", "8"};
  for (size_t k = 0; k < sizeof bad_env / sizeof *bad_env; k++) {
    adapt_finalize();
    setenv("ADAPT_SCHED", bad_env[k], 1);
    adapt_attr a = {0};
    int rc1 = adapt_for(0, 10, count_calls, &calls, NULL);
    int rc2 = adapt_for(0, 10, count_calls, &calls, &a);
    unsetenv("ADAPT_SCHED");
    if (rc1 != -EINVAL || rc2 != -EINVAL)
      fprintf(stderr, "ADAPT_SCHED=\"%s\": adapt_for returned %d / %d\n", bad_env[k], rc1, rc2);
    assert_int_equal(rc1, -EINVAL);
    assert_int_equal(rc2, -EINVAL);
    assert_int_equal(atomic_load(&calls), 0);
  }
  assert_int_equal(adapt_for(0, 10, count_calls, &calls, NULL), 0); /* starts again */
  assert_true(atomic_load(&calls) >= 1);
  /* an explicit attribute wins over ADAPT_SCHED: static from the
   * environment would make P blocks of 50, dac with grain 1 makes calls of
   * one index */
  adapt_finalize();
  setenv("ADAPT_SCHED", "static", 1);
  int rc = adapt_test_workers(2);
  unsetenv("ADAPT_SCHED");
  assert_int_equal(rc, 0);
  check_run(ADAPT_SCHED_DAC, ADAPT_SCHED_DAC, 0, 0, 100, 1, 2);
  check_run(ADAPT_SCHED_DEFAULT, ADAPT_SCHED_STATIC, 0, 0, 100, 1, 2);
}

static void test_names(void **state) {
  static const char *expect[ADAPT_SCHED_COUNT] = {
      [ADAPT_SCHED_DEFAULT] = "default",     [ADAPT_SCHED_ADAPTIVE] = "adaptive",
      [ADAPT_SCHED_LOOPFRAME] = "loopframe", [ADAPT_SCHED_DAC] = "dac",
      [ADAPT_SCHED_HYBRID] = "hybrid",       [ADAPT_SCHED_LAZY_DF] = "lazy-df",
      [ADAPT_SCHED_LAZY_DF2] = "lazy-df2",   [ADAPT_SCHED_LAZY_BF] = "lazy-bf",
      [ADAPT_SCHED_STATIC] = "static"};
  for (int s = 0; s < ADAPT_SCHED_COUNT; s++) {
    const char *name = adapt_sched_name((adapt_sched)s);
    assert_non_null(name);
    assert_string_equal(name, expect[s]);
    adapt_sched out = (adapt_sched)-1;
    assert_int_equal(adapt_sched_parse(name, &out), 0);
    assert_int_equal(out, s); /* round trip */
  }
  assert_null(adapt_sched_name((adapt_sched)-1));
  assert_null(adapt_sched_name((adapt_sched)ADAPT_SCHED_COUNT));
  assert_null(adapt_sched_name((adapt_sched)1000));
  assert_null(adapt_sched_name((adapt_sched)INT_MIN));
  adapt_sched out = ADAPT_SCHED_DAC;
  static const char *unknown[] = {"", "bogus", "lazy", "lazy-df3", "dac ", "staticx", "hybri"};
  for (size_t k = 0; k < sizeof unknown / sizeof *unknown; k++) {
    assert_int_equal(adapt_sched_parse(unknown[k], &out), -EINVAL);
    assert_int_equal(out, ADAPT_SCHED_DAC); /* untouched */
  }
  assert_int_equal(adapt_sched_parse(NULL, &out), -EINVAL);
  assert_int_equal(adapt_sched_parse("dac", NULL), -EINVAL);
  /* the default grain of the non-adaptive schedulers: min(max, n/(8P)), >= 1 */
  for (int p = 1; p <= 8; p++)
    for (size_t n = 0; n < 200000; n = n * 3 + 1) {
      size_t g = adapt__default_grain(n, p), want = n / (8 * (size_t)p);
      if (want > ADAPT_SCHED_GRAIN_MAX) want = ADAPT_SCHED_GRAIN_MAX;
      assert_int_equal(g, want ? want : 1);
    }
}

/* ADAPT_GRAIN is read once per process: each case runs in a fresh copy of
 * this binary (main's --env-grain-child mode) with the variable set. */
static int env_grain_child(const char *value) {
  int fails = 0;
  atomic_int calls = 0;
  if (strcmp(value, "3") == 0) { /* every scheduler but static: calls of <= 3 */
    for (int s = 0; s < NSCHED; s++) {
      if (scheds[s] == ADAPT_SCHED_STATIC) continue;
      run_rec *r = calloc(1, sizeof *r);
      size_t n = 10007;
      r->n = n;
      r->nworkers = 2;
      r->hits = calloc(n, 1);
      r->slot = malloc(n * sizeof *r->slot);
      adapt_attr a = {0};
      a.sched = scheds[s];
      if (adapt_test_workers(2) || adapt_for(0, n, rec_body, r, &a) || count_not_once(r->hits, n) ||
          atomic_load(&r->bad) || atomic_load(&r->maxlen) > 3) {
        fprintf(stderr, "ADAPT_GRAIN=3, %s: a call covered %zu indices, or not exactly once\n",
                sname(scheds[s]), atomic_load(&r->maxlen));
        fails++;
      }
      free(r->slot);
      free(r->hits);
      free(r);
    }
  } else { /* a bad value: -EINVAL, nothing called (algorithms.h) */
    for (int s = 0; s < NSCHED; s++) {
      adapt_attr a = {0};
      a.sched = scheds[s];
      int rc = adapt_for(0, 100, count_calls, &calls, &a);
      if (rc != -EINVAL) {
        fprintf(stderr, "ADAPT_GRAIN=\"%s\", %s: adapt_for returned %d, expected -EINVAL\n", value,
                sname(scheds[s]), rc);
        fails++;
      }
    }
    if (atomic_load(&calls)) {
      fprintf(stderr, "ADAPT_GRAIN=\"%s\": the body was called\n", value);
      fails++;
    }
  }
  adapt_finalize();
  return fails ? 1 : 0;
}

static void test_env_grain(void **state) {
  static const char *values[] = {"3", "abc", "0", "-2", "3x"};
  adapt_finalize(); /* no worker thread across fork */
  int failed = 0;
  for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      setenv("ADAPT_GRAIN", values[k], 1);
      execl("/proc/self/exe", "test_sched", "--env-grain-child", values[k], (char *)NULL);
      _exit(127);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      fprintf(stderr, "ADAPT_GRAIN=\"%s\": child failed (status %d)\n", values[k], st);
      failed++;
    }
  }
  assert_int_equal(failed, 0);
}

/* --- Hybrid claiming heuristic: Algorithms 2 and 3 -------------------- */

static void test_hybrid_partitions_claim(void **state) {
  for (int p = 1; p <= ADAPT_MAX_WORKERS; p++) {
    unsigned r = adapt__hybrid_partitions(p);
    assert_true(r >= (unsigned)p && r < 2u * (unsigned)p + (p == 1)); /* smallest */
    assert_int_equal(r & (r - 1), 0);                                 /* power of 2 */
  }
  assert_int_equal(adapt__hybrid_partitions(1), 1);
  assert_int_equal(adapt__hybrid_partitions(3), 4);
  /* Claim(i, w) sets flag i XOR w: once 1, then 0; nothing else changes */
  for (unsigned w = 0; w < 16; w++)
    for (unsigned i = 0; i < 16; i++) {
      atomic_uchar A[16];
      for (int k = 0; k < 16; k++) atomic_init(&A[k], 0);
      assert_int_equal(adapt__hybrid_claim(A, i, w), 1);
      assert_int_equal(adapt__hybrid_claim(A, i, w), 0);
      assert_int_equal(adapt__hybrid_claim(A, w, i), 0); /* the same partition */
      for (unsigned k = 0; k < 16; k++) assert_int_equal(atomic_load(&A[k]) != 0, k == (i ^ w));
    }
}

/* The paper's Algorithm 3, as a model. */
static unsigned model_run(unsigned char *A, unsigned R, unsigned w, unsigned *seq) {
  if (A[w]) return 0;
  A[w] = 1;
  unsigned n = 0, i = 1;
  seq[n++] = w;
  while (i < R) {
    if (!A[i ^ w]) {
      A[i ^ w] = 1;
      seq[n++] = i ^ w;
      i++;
    } else {
      i += i & (0u - i);
    }
  }
  return n;
}

typedef struct seq_rec {
  unsigned n, seq[64];
} seq_rec;
static void seq_work(unsigned r, void *arg) {
  seq_rec *s = arg;
  if (s->n < 64) s->seq[s->n] = r;
  s->n++;
}

/* Single thread, against the model, from random sets of partitions already
 * claimed. */
static void test_hybrid_run_model(void **state) {
  unsigned seed = 7;
  for (unsigned R = 1; R <= 32; R *= 2)
    for (unsigned w = 0; w < R; w++)
      for (int t = 0; t < 200; t++) {
        unsigned char B[32];
        atomic_uchar A[32];
        unsigned density = t % 4; /* 0: none claimed .. 3: about 3/4 claimed */
        for (unsigned k = 0; k < R; k++) {
          B[k] = t > 0 && lcg(&seed) % 4 < density;
          atomic_init(&A[k], B[k]);
        }
        unsigned want[32];
        seq_rec got = {0};
        unsigned nw = model_run(B, R, w, want);
        unsigned n = adapt__hybrid_run(A, R, w, seq_work, &got);
        if (n != nw || got.n != nw)
          fprintf(stderr, "hybrid_run R=%u w=%u trial %d: %u claims (%u work calls), model %u\n", R,
                  w, t, n, got.n, nw);
        assert_int_equal(n, nw);
        assert_int_equal(got.n, nw);
        for (unsigned k = 0; k < nw; k++) assert_int_equal(got.seq[k], want[k]);
        for (unsigned k = 0; k < R; k++) assert_int_equal(atomic_load(&A[k]) != 0, B[k] != 0);
        if (t == 0) assert_int_equal(n, R); /* alone: every partition, in claim order */
      }
}

/* Checks common to the arrival tests: per worker, what it claimed. */
typedef struct claimer {
  unsigned w, n, first, last_i, ret, order_bad;
  unsigned seed;
  unsigned delay_ns; /* max spin in each work call */
  struct claim_shared *sh;
} claimer;
typedef struct claim_shared {
  atomic_uchar A[64];
  atomic_uint count[64];
  unsigned R, P;
  atomic_int go; /* threaded arrivals: start */
  /* nested arrivals (single thread) */
  unsigned next, order[64], seed;
  claimer c[64];
} claim_shared;

static void claimed(claimer *me, unsigned r) {
  atomic_fetch_add_explicit(&me->sh->count[r], 1, memory_order_relaxed);
  unsigned i = r ^ me->w; /* the claim sequence's index: strictly increasing */
  if (me->n++ == 0)
    me->first = r;
  else if (i <= me->last_i)
    me->order_bad = 1;
  me->last_i = i;
}

static void check_claims(claim_shared *sh, const char *what, unsigned trial) {
  unsigned total = 0;
  for (unsigned r = 0; r < sh->R; r++) {
    unsigned c = atomic_load(&sh->count[r]);
    if (c != 1)
      fprintf(stderr, "hybrid %s R=%u P=%u trial %u: partition %u run %u times\n", what, sh->R,
              sh->P, trial, r, c);
    assert_int_equal(c, 1);
    assert_true(atomic_load(&sh->A[r]) != 0);
  }
  for (unsigned w = 0; w < sh->P; w++) {
    claimer *c = &sh->c[w];
    assert_int_equal(c->ret, c->n);          /* return value = partitions it ran */
    if (c->n) assert_int_equal(c->first, w); /* own partition first */
    assert_int_equal(c->order_bad, 0);
    total += c->n;
  }
  assert_int_equal(total, sh->R);
}

/* Nested arrivals on one thread: worker b's whole claim sequence runs
 * inside one of worker a's work calls (b arrived while a was between two
 * claims), in random orders. */
static void arrive(claim_shared *sh);
static void nested_work(unsigned r, void *arg) {
  claimer *me = arg;
  claimed(me, r);
  while (me->sh->next < me->sh->P && lcg(&me->sh->seed) % 3 == 0) arrive(me->sh);
}
static void arrive(claim_shared *sh) {
  claimer *c = &sh->c[sh->order[sh->next++]];
  c->ret = adapt__hybrid_run(sh->A, sh->R, c->w, nested_work, c);
}
static void shared_reset(claim_shared *sh, unsigned R, unsigned P, unsigned *seed) {
  sh->R = R;
  sh->P = P;
  for (unsigned r = 0; r < 64; r++) {
    atomic_init(&sh->A[r], 0);
    atomic_init(&sh->count[r], 0);
  }
  atomic_init(&sh->go, 0);
  for (unsigned w = 0; w < P; w++) {
    sh->order[w] = w;
    sh->c[w] = (claimer){.w = w, .sh = sh, .seed = lcg(seed) | 1};
  }
  for (unsigned w = P; w-- > 1;) { /* random arrival order */
    unsigned k = lcg(seed) % (w + 1), t = sh->order[w];
    sh->order[w] = sh->order[k];
    sh->order[k] = t;
  }
}

static void test_hybrid_nested_arrivals(void **state) {
  claim_shared *sh = calloc(1, sizeof *sh);
  assert_non_null(sh);
  unsigned seed = 99;
  for (unsigned R = 1; R <= 32; R *= 2)
    for (unsigned P = 1; P <= R; P++)
      for (unsigned t = 0; t < 300; t++) {
        shared_reset(sh, R, P, &seed);
        sh->next = 0;
        sh->seed = lcg(&seed);
        while (sh->next < P) arrive(sh);
        check_claims(sh, "nested arrivals", t);
      }
  free(sh);
}

/* Plain threads (not workers) claim concurrently, arriving in random
 * order after random delays, and stay a random time in each work call. */
static void thread_work(unsigned r, void *arg) {
  claimer *me = arg;
  claimed(me, r);
  unsigned d = lcg(&me->seed) % 3 ? lcg(&me->seed) % (me->delay_ns + 1) : 0;
  if (d) adapt_test_spin_ns(d);
}
static void *claimer_main(void *arg) {
  claimer *c = arg;
  int waits = 0;
  /* acquire: pairs with the main thread's release store of go */
  while (!atomic_load_explicit(&c->sh->go, memory_order_acquire))
    if (++waits > 16) sched_yield();
  unsigned d = lcg(&c->seed) % 4 ? lcg(&c->seed) % (4 * c->delay_ns + 1) : 0;
  if (d) adapt_test_spin_ns(d);
  c->ret = adapt__hybrid_run(c->sh->A, c->sh->R, c->w, thread_work, c);
  return NULL;
}

static void test_hybrid_threads(void **state) {
  claim_shared *sh = calloc(1, sizeof *sh);
  assert_non_null(sh);
  unsigned seed = 4242;
  size_t trials = adapt_test_scale(120, 25);
  pthread_t th[16];
  for (unsigned R = 1; R <= 16; R *= 2)
    for (unsigned P = 1; P <= R; P++)
      for (unsigned t = 0; t < trials; t++) {
        shared_reset(sh, R, P, &seed);
        unsigned delay = t % 3 == 0 ? 0 : (t % 3 == 1 ? 500 : 5000); /* ns */
        for (unsigned k = 0; k < P; k++) { /* created in the random order */
          claimer *c = &sh->c[sh->order[k]];
          c->delay_ns = delay;
          assert_int_equal(pthread_create(&th[k], NULL, claimer_main, c), 0);
        }
        /* release: pairs with the claimers' acquire load of go */
        atomic_store_explicit(&sh->go, 1, memory_order_release);
        for (unsigned k = 0; k < P; k++) pthread_join(th[k], NULL);
        check_claims(sh, "threads", t);
      }
  free(sh);
}

/* --- Hybrid: partitions stay on one worker ------------------------------ */

/* With a grain of at least the partition size, each partition is one body
 * call, hence on one worker: R calls of n/R indices each. Which worker gets
 * which partition, and whether the helper arrives in time, is not
 * guaranteed: the share of indices on the same worker as in the previous
 * loop is printed, not asserted. */
typedef struct aff {
  signed char *runner;
  atomic_size_t calls;
  atomic_int bad;
  size_t n, part;
} aff;
static void aff_body(size_t b, size_t e, void *ctx) {
  aff *a = ctx;
  int id = adapt_worker_id();
  if (id < 0 || id > 1 || e - b != a->part || b % a->part) atomic_store(&a->bad, 1);
  atomic_fetch_add_explicit(&a->calls, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) {
    if (a->runner[i] != -1) atomic_store(&a->bad, 2);
    a->runner[i] = (signed char)id;
  }
  adapt_test_spin_ns(20000); /* gives the other worker time to arrive */
}

static void test_hybrid_affinity(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  unsigned R = adapt__hybrid_partitions(2);
  assert_int_equal(R, 2);
  size_t n = 1u << 14, loops = adapt_test_scale(200, 50), both_prev = 0, pairs = 0;
  double share_sum = 0;
  signed char *prev = malloc(n), *cur = malloc(n);
  assert_true(prev && cur);
  int prev_both = 0;
  for (size_t l = 0; l < loops; l++) {
    aff a = {cur, 0, 0, n, n / R};
    memset(cur, -1, n);
    adapt_attr at = {0};
    at.sched = ADAPT_SCHED_HYBRID;
    at.grain = l % 2 ? n / R : n; /* partition size, or larger */
    assert_int_equal(adapt_for(0, n, aff_body, &a, &at), 0);
    if (atomic_load(&a.bad))
      fprintf(stderr, "hybrid affinity loop %zu: bad call (%d)\n", l, atomic_load(&a.bad));
    assert_int_equal(atomic_load(&a.bad), 0);
    assert_int_equal(atomic_load(&a.calls), R);
    size_t on1 = 0;
    for (size_t i = 0; i < n; i++) {
      assert_true(cur[i] == 0 || cur[i] == 1); /* every index once */
      on1 += cur[i] == 1;
    }
    int both = on1 > 0 && on1 < n;
    if (both && prev_both) {
      size_t same = 0;
      for (size_t i = 0; i < n; i++) same += cur[i] == prev[i];
      share_sum += (double)same / (double)n;
      pairs++;
    }
    both_prev += both;
    prev_both = both;
    signed char *t = prev;
    prev = cur;
    cur = t;
  }
  fprintf(stderr,
          "  hybrid affinity, 2 workers: %zu of %zu loops used both workers; "
          "same worker as the previous loop: %.1f%% of indices (%zu pairs)\n",
          both_prev, loops, pairs ? 100.0 * share_sum / (double)pairs : 0.0, pairs);
  free(prev);
  free(cur);
}

/* --- Registration --------------------------------------------------------- */

static int teardown(void **state) {
  adapt_finalize();
  unsetenv("ADAPT_SCHED");
  assert_int_equal(adapt_test_worker_threads(), 0); /* no worker thread left behind */
  return 0;
}

#define PER_SCHED(fn, label)                                                                       \
  {#fn "/" label "/adaptive", fn, NULL, teardown, (void *)&scheds[0]},                             \
      {#fn "/" label "/loopframe", fn, NULL, teardown, (void *)&scheds[1]},                        \
      {#fn "/" label "/dac", fn, NULL, teardown, (void *)&scheds[2]},                              \
      {#fn "/" label "/hybrid", fn, NULL, teardown, (void *)&scheds[3]},                           \
      {#fn "/" label "/lazy-df", fn, NULL, teardown, (void *)&scheds[4]},                          \
      {#fn "/" label "/lazy-df2", fn, NULL, teardown, (void *)&scheds[5]},                         \
      {#fn "/" label "/lazy-bf", fn, NULL, teardown, (void *)&scheds[6]}, {                        \
#fn "/" label "/static", fn, NULL, teardown, (void *)&scheds[7]                                \
  }

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--env-grain-child") == 0) return env_grain_child(argv[2]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_names, teardown),
      cmocka_unit_test_teardown(test_errors, teardown),
      cmocka_unit_test_teardown(test_env_grain, teardown),
      cmocka_unit_test_teardown(test_hybrid_partitions_claim, teardown),
      cmocka_unit_test_teardown(test_hybrid_run_model, teardown),
      cmocka_unit_test_teardown(test_hybrid_nested_arrivals, teardown),
      cmocka_unit_test_teardown(test_hybrid_threads, teardown),
      PER_SCHED(test_exactly_once, "sizes"),
      PER_SCHED(test_short_loops, "short"),
      cmocka_unit_test_teardown(test_env_default, teardown),
      cmocka_unit_test_teardown(test_nested_mixed, teardown),
      cmocka_unit_test_teardown(test_loops_in_tasks, teardown),
      cmocka_unit_test_teardown(test_foreign_threads, teardown),
      PER_SCHED(test_fib_loops, "fib"),
      cmocka_unit_test_teardown(test_fib_loops, teardown), /* mixed by depth */
      PER_SCHED(test_nqueens_loops, "nqueens"),
      cmocka_unit_test_teardown(test_nqueens_loops, teardown),
      cmocka_unit_test_teardown(test_hybrid_affinity, teardown),
  };
  /* ADAPT_TEST_FILTER="*loopframe*" runs the matching tests only (while
   * debugging one scheduler; make test sets no filter and runs them all) */
  const char *filter = getenv("ADAPT_TEST_FILTER");
  if (filter && *filter) cmocka_set_test_filter(filter);
  return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
