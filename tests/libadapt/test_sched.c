/* Loop schedulers through adapt_for (adapt_attr.sched), black-box: every
 * scheduler runs each index exactly once and equals the sequential loop
 * (sizes 0..large, grains 1, 7 and default, ranges not starting at 0 and
 * ending at SIZE_MAX, 1, 2, 3 and 8 workers); the grain bound; static's
 * blocks; three levels of nested loops with schedulers mixed across levels;
 * loops inside spawned tasks and tasks inside loops; fib and nqueens through
 * nested parallel loops; a thief taking part of a nested lazy loop while
 * its owner is inside a body; a nested lazy loop run inline on a worker
 * thieves can reach, handing its rest over once a theft leaves the deque
 * hungry; nested loops on a solo worker; loops from
 * threads that are not workers; the per-call worker limit
 * (adapt_attr.max_workers); bad input and the names. The environment
 * (ADAPT_SCHED, ADAPT_GRAIN) is covered by test_sched_env.c, the hybrid claim heuristic by test_hybrid.c (white-box),
 * the default grain's formula by test_sched_grain.c (white-box). */
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "sched_test.h"

static unsigned lcg(unsigned *s) { return (*s = *s * 1103515245u + 12345u) >> 8; }

/* --- Exactly once and equal to the sequential loop -------------------- */

/* Every size x grain x start, on 1, 2, 3 and 8 workers (8: oversubscribed);
 * the large size starts at 0 or ends at SIZE_MAX by turns, so that each
 * worker count and each grain meets both (the small sizes run both). */
static void test_exactly_once(void **state) {
  adapt_sched s = *(const adapt_sched *)*state;
  const size_t sizes[] = {0, 1, 2, 3, 17, 1000, large_size()};
  atomic_store(&helper_calls, 0);
  atomic_store(&all_calls, 0);
  static const size_t grains[] = {1, 7, 0};
  for (int wi = 0; wi < NWC; wi++) {
    int p = worker_counts[wi];
    if (adapt_test_skip_workers(p)) continue;
    assert_int_equal(adapt_test_workers(p), 0);
    for (size_t gi = 0; gi < 3; gi++)
      for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        const int large = si + 1 == sizeof sizes / sizeof *sizes, turn = (wi + (int)gi) % 2;
        if (!large || turn == 0) check_run(s, s, 0, 0, n, grains[gi], p);
        if (!large || turn == 1)
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
    if (adapt_test_skip_workers(pw[wi])) continue;
    assert_int_equal(adapt_test_workers(pw[wi]), 0);
    for (size_t k = 0; k < rounds; k++) {
      size_t n = lcg(&seed) % 41, g = 1 + lcg(&seed) % 3;
      size_t first = k % 4 == 3 ? SIZE_MAX - n : lcg(&seed) % 1000;
      check_run(s, s, 0, first, n, k % 5 == 4 ? 0 : g, pw[wi]);
    }
  }
  body_spin_ns = 0;
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
  size_t i, j; /* level 1's index; level 2's (in level 3's context) */
} nest;

static void level3(size_t b, size_t e, void *ctx) {
  nest *n = ctx;
  for (size_t k = b; k < e; k++)
    atomic_fetch_add_explicit(&cells[n->i][n->j][k], 1, memory_order_relaxed);
}
static void level2(size_t b, size_t e, void *ctx) {
  nest *o = ctx;
  for (size_t j = b; j < e; j++) {
    nest n = {o->c, o->i, j};
    adapt_attr a = {0};
    a.sched = o->c->s[2];
    a.grain = o->c->g[2];
    BODY_CHECK(adapt_for(0, NK, level3, &n, &a) == 0);
  }
}
static void level1(size_t b, size_t e, void *ctx) {
  const nest_cfg *c = ctx;
  for (size_t i = b; i < e; i++) {
    nest n = {c, i, 0};
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
    if (adapt_test_skip_workers(worker_counts[wi])) continue;
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

static void test_loops_in_tasks(void **state) {
  size_t n = adapt_test_scale(20000, 3000);
  lt l[2 * NSCHED];
  for (int k = 0; k < 2 * NSCHED; k++) {
    l[k].hits = calloc(n, 1);
    assert_non_null(l[k].hits);
  }
  for (int wi = 0; wi < NWC; wi++) {
    if (adapt_test_skip_workers(worker_counts[wi])) continue;
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
  int n = (int)adapt_test_scale(27, 22);
  long expect[31] = {0, 1};
  for (int i = 2; i <= 30; i++) expect[i] = expect[i - 1] + expect[i - 2];
  for (int wi = 0; wi < NWC; wi++) {
    if (adapt_test_skip_workers(worker_counts[wi])) continue;
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

typedef struct nq {
  int n, row, sel;
  const signed char *cols;
  atomic_long *count;
} nq;
static void nq_rec(int n, int row, const signed char *cols, atomic_long *count, int sel);
static void nq_body(size_t b, size_t e, void *ctx) {
  nq *q = ctx;
  for (size_t c = b; c < e; c++) {
    signed char cols[16];
    if (adapt_test_queen_next(q->cols, q->row, (int)c, cols))
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
    if (adapt_test_skip_workers(worker_counts[wi])) continue;
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

/* --- A thief arriving in the middle of a nested lazy loop -------------- */

/* The nested loop's first index waits (up to 2 s) until another worker has
 * run one of its indices: a thief took the half the loop pushed while the
 * owner was inside a body. Every index still runs exactly once. */
enum { MID_N = 64 };
typedef struct mid {
  adapt_sched s;
  int owner;
  atomic_uchar hits[MID_N];
  atomic_int by_thief;
} mid;

static void mid_inner(size_t b, size_t e, void *ctx) {
  mid *m = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&m->hits[i], 1, memory_order_relaxed);
    if (adapt_worker_id() != m->owner) atomic_store(&m->by_thief, 1);
    for (int k = 0; i == 0 && k < 2000 && !atomic_load(&m->by_thief); k++)
      adapt_test_spin_ns(1000000);
  }
}

static void mid_outer(size_t b, size_t e, void *ctx) {
  mid *m = ctx;
  m->owner = adapt_worker_id();
  adapt_attr a = {0};
  a.sched = m->s;
  a.grain = 1;
  BODY_CHECK(adapt_for(0, MID_N, mid_inner, m, &a) == 0);
}

static void test_lazy_thief_mid_nested(void **state) {
  const adapt_sched ss[] = {ADAPT_SCHED_LAZY_DF, ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_DEFAULT};
  assert_int_equal(adapt_test_workers(2), 0);
  for (int i = 0; i < 3; i++) {
    mid m = {.s = ss[i]};
    for (int j = 0; j < MID_N; j++) atomic_init(&m.hits[j], 0);
    atomic_init(&m.by_thief, 0);
    reset_body_errors();
    adapt_attr a = {0};
    a.sched = ADAPT_SCHED_LAZY_DF;
    assert_int_equal(adapt_for(0, 1, mid_outer, &m, &a), 0);
    assert_no_body_errors();
    size_t bad = 0;
    for (int j = 0; j < MID_N; j++) bad += atomic_load(&m.hits[j]) != 1;
    assert_int_equal(bad, 0);
  }
}

/* --- A nested lazy loop run inline on a worker thieves can reach ------ */

/* The outer loop (lazy DF, DF2 or BF, HAND_OUT indices) leaves the
 * threshold's entries in its owner's deque when its index 0 begins a
 * nested loop of the same scheduler: that loop runs inline (<adapt/loop.h>:
 * it leaves adapt_last_error() as it was, which the library's path
 * clears). Its index 0 waits (up to 2 s) until a thief has taken an outer
 * piece; then the deque looks hungry, and the inline loop hands its rest
 * to the library (BF first exposes the rest of the outer range, in
 * progress in the library, and hands its own over at the next hunger).
 * Each of its later indices the owner runs waits (up to 100 ms) until a
 * thief has run one of its indices. Every index of both loops runs
 * exactly once. A second round cancels the inline loop at
 * its index 2: -ECANCELED with its detail, indices 0..2 ran once, none
 * twice (a thief may have run some of a handed-over rest), the outer loop
 * not cancelled. */
enum { HAND_N = 64, HAND_OUT = 4 };
typedef struct handoff {
  adapt_sched s;
  int owner, cancel_at; /* cancel_at < 0: no cancel */
  atomic_uchar hits[HAND_N], outer_hits[HAND_OUT];
  atomic_int outer_elsewhere, inner_elsewhere;
  int rc, kept_error, cancel_detail, outer_cancelled;
} handoff;

/* Wait until *flag is set, for at most ms milliseconds. */
static void wait_flag(atomic_int *flag, int ms) {
  for (int k = 0; k < ms && !atomic_load(flag); k++) adapt_test_spin_ns(1000000);
}

static void handoff_inner(size_t b, size_t e, void *ctx) {
  handoff *h = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&h->hits[i], 1, memory_order_relaxed);
    if (adapt_worker_id() != h->owner) atomic_store(&h->inner_elsewhere, 1);
    if (h->cancel_at >= 0) {
      if (i == (size_t)h->cancel_at) adapt_cancel();
      continue;
    }
    if (i == 0) wait_flag(&h->outer_elsewhere, 2000);
    if (i >= 1 && adapt_worker_id() == h->owner) wait_flag(&h->inner_elsewhere, 100);
  }
}

static void handoff_outer(size_t b, size_t e, void *ctx) {
  handoff *h = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&h->outer_hits[i], 1, memory_order_relaxed);
    if (i != 0) {
      if (adapt_worker_id() != h->owner) atomic_store(&h->outer_elsewhere, 1);
      continue;
    }
    adapt_attr bad = {0};
    BODY_CHECK(adapt_for(0, 1, NULL, NULL, &bad) == -EINVAL); /* sets the detail */
    adapt_attr a = {0};
    a.sched = h->s;
    a.grain = 1;
    h->rc = adapt_for(0, HAND_N, handoff_inner, h, &a);
    h->kept_error = strstr(adapt_last_error(), "body is NULL") != NULL;
    h->cancel_detail = strstr(adapt_last_error(), "adapt_for: cancelled by a body") != NULL;
    h->outer_cancelled = adapt_cancelled();
  }
}

static void handoff_run(handoff *h, adapt_sched s, int cancel_at) {
  memset(h, 0, sizeof *h);
  h->s = s;
  h->cancel_at = cancel_at;
  h->owner = adapt_worker_id();
  reset_body_errors();
  adapt_attr a = {0};
  a.sched = s;
  a.grain = 1;
  assert_int_equal(adapt_for(0, HAND_OUT, handoff_outer, h, &a), 0);
  assert_no_body_errors();
  for (int j = 0; j < HAND_OUT; j++) assert_int_equal(atomic_load(&h->outer_hits[j]), 1);
  assert_int_equal(h->outer_cancelled, 0);
}

static void test_lazy_inline_handoff(void **state) {
  const adapt_sched ss[] = {ADAPT_SCHED_LAZY_DF, ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_LAZY_BF};
  assert_int_equal(adapt_test_workers(2), 0);
  for (int i = 0; i < 3; i++) {
    handoff h;
    handoff_run(&h, ss[i], -1);
    assert_int_equal(h.rc, 0);
    assert_int_equal(h.kept_error, 1);
    size_t bad = 0;
    for (int j = 0; j < HAND_N; j++) bad += atomic_load(&h.hits[j]) != 1;
    assert_int_equal(bad, 0);
    assert_int_equal(atomic_load(&h.outer_elsewhere), 1);
    assert_int_equal(atomic_load(&h.inner_elsewhere), 1);

    handoff_run(&h, ss[i], 2);
    assert_int_equal(h.rc, -ECANCELED);
    assert_int_equal(h.cancel_detail, 1);
    for (int j = 0; j < HAND_N; j++) assert_true(atomic_load(&h.hits[j]) <= 1);
    for (int j = 0; j < 3; j++) assert_int_equal(atomic_load(&h.hits[j]), 1);
  }
}

/* --- Nested loops in a region run on a solo worker -------------------- */

/* A thread started by a body while the pool is busy runs its region on its
 * own (solo) worker, which no thief reaches: its nested lazy loops run as
 * plain loops. Every index of every nested loop runs exactly once. */
enum { SOLO_NI = 8, SOLO_NJ = 16 };
typedef struct solo_nest {
  atomic_uchar hits[SOLO_NI][SOLO_NJ];
  atomic_int bad;
  size_t i;
} solo_nest;

static void solo_inner(size_t b, size_t e, void *ctx) {
  solo_nest *x = ctx;
  for (size_t j = b; j < e; j++)
    atomic_fetch_add_explicit(&x->hits[x->i][j], 1, memory_order_relaxed);
}

static void solo_outer(size_t b, size_t e, void *ctx) {
  solo_nest *x = ctx;
  for (size_t i = b; i < e; i++) {
    x->i = i; /* one thread: the levels run one after the other */
    if (adapt_worker_id() != -1 || adapt_for(0, SOLO_NJ, solo_inner, x, NULL) != 0)
      atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  }
}

static void *solo_main(void *arg) {
  solo_nest *x = arg;
  adapt_attr a = {0};
  a.sched = ADAPT_SCHED_LAZY_DF;
  a.grain = 1;
  if (adapt_for(0, SOLO_NI, solo_outer, x, &a) != 0)
    atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  return NULL;
}

static void solo_starter(size_t b, size_t e, void *ctx) {
  pthread_t t;
  if (pthread_create(&t, NULL, solo_main, ctx) != 0) {
    atomic_fetch_add_explicit(&((solo_nest *)ctx)->bad, 1, memory_order_relaxed);
    return;
  }
  pthread_join(t, NULL);
}

static void test_solo_nested(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  static solo_nest x;
  memset(&x, 0, sizeof x);
  assert_int_equal(adapt_for(0, 1, solo_starter, &x, NULL), 0);
  assert_int_equal(atomic_load(&x.bad), 0);
  size_t bad = 0;
  for (int i = 0; i < SOLO_NI; i++)
    for (int j = 0; j < SOLO_NJ; j++) bad += atomic_load(&x.hits[i][j]) != 1;
  assert_int_equal(bad, 0);
}

/* --- Bad input, names ------------------------------------------------- */

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
}

/* --- Per-call worker limit (adapt_attr.max_workers) ------------------ */

/* A loop run with a limit: each index marks its cell and the worker's bit,
 * directly or (inner > 0) through a nested loop without a limit of its own,
 * which keeps to the outer call's workers. */
typedef struct limit_run {
  atomic_uchar *hits;
  atomic_uint ids; /* bit w: worker w ran a body */
  size_t inner;    /* > 0: each index runs a nested loop of this many cells */
} limit_run;
typedef struct limit_nest {
  limit_run *r;
  size_t base; /* the first cell of the nested loop */
} limit_nest;

static void limit_mark(limit_run *r, size_t cell) {
  int id = adapt_worker_id();
  BODY_CHECK(id >= 0 && id < 32);
  if (id >= 0 && id < 32) atomic_fetch_or_explicit(&r->ids, 1u << id, memory_order_relaxed);
  atomic_fetch_add_explicit(&r->hits[cell], 1, memory_order_relaxed);
  adapt_test_spin_ns(300); /* long enough for the idle workers to ask */
}

static void limit_inner(size_t b, size_t e, void *ctx) {
  limit_nest *x = ctx;
  for (size_t j = b; j < e; j++) limit_mark(x->r, x->base + j);
}

static void limit_body(size_t b, size_t e, void *ctx) {
  limit_run *r = ctx;
  for (size_t i = b; i < e; i++) {
    if (!r->inner) {
      limit_mark(r, i);
      continue;
    }
    limit_nest x = {r, i * r->inner};
    BODY_CHECK(adapt_for(0, r->inner, limit_inner, &x, NULL) == 0);
  }
}

/* With 8 workers and max_workers k = 1, 2, 3, at grain 1 and the default
 * grain, flat and with a nested loop: at most k distinct workers run the
 * bodies, every index exactly once. */
static void test_max_workers(void **state) {
  adapt_sched s = *(const adapt_sched *)*state;
  assert_int_equal(adapt_test_workers(8), 0);
  const size_t ncells = adapt_test_scale(4096, 512);
  reset_body_errors();
  for (unsigned k = 1; k <= 3; k++)
    for (int v = 0; v < 4; v++) {
      limit_run r = {calloc(ncells, 1), 0, v & 1 ? 8 : 0};
      assert_non_null(r.hits);
      adapt_attr a = {0};
      a.sched = s;
      a.grain = v & 2 ? 0 : 1;
      a.max_workers = k;
      assert_int_equal(adapt_for(0, r.inner ? ncells / r.inner : ncells, limit_body, &r, &a), 0);
      unsigned ids = atomic_load(&r.ids);
      int seen = __builtin_popcount(ids);
      if (seen > (int)k || count_not_once(r.hits, ncells))
        fprintf(stderr, "%s k=%u grain=%zu%s: workers 0x%x, %zu ncells not run once\n", sname(s), k,
                a.grain, r.inner ? " nested" : "", ids, count_not_once(r.hits, ncells));
      assert_true(seen >= 1 && seen <= (int)k);
      assert_int_equal(count_not_once(r.hits, ncells), 0);
      free(r.hits);
    }
  assert_no_body_errors();
}

/* --- Registration --------------------------------------------------------- */

/* The cases, in order: a test run once (initial state NULL), or once per
 * scheduler, named "<prefix>/<scheduler>" with its entry of scheds[] as the
 * initial state. */
typedef struct sched_case {
  const char *name; /* the test's name, or its prefix when per_sched */
  CMUnitTestFunction fn;
  int per_sched;
} sched_case;

static const sched_case cases[] = {
    {"test_names", test_names, 0},
    {"test_errors", test_errors, 0},
    {"test_exactly_once/sizes", test_exactly_once, 1},
    {"test_short_loops/short", test_short_loops, 1},
    {"test_max_workers/limit", test_max_workers, 1},
    {"test_nested_mixed", test_nested_mixed, 0},
    {"test_loops_in_tasks", test_loops_in_tasks, 0},
    {"test_foreign_threads", test_foreign_threads, 0},
    {"test_lazy_thief_mid_nested", test_lazy_thief_mid_nested, 0},
    {"test_lazy_inline_handoff", test_lazy_inline_handoff, 0},
    {"test_solo_nested", test_solo_nested, 0},
    {"test_fib_loops/fib", test_fib_loops, 1},
    {"test_fib_loops", test_fib_loops, 0}, /* the scheduler changes with the depth */
    {"test_nqueens_loops/nqueens", test_nqueens_loops, 1},
    {"test_nqueens_loops", test_nqueens_loops, 0}, /* likewise, with the row */
};
enum { NCASES = sizeof cases / sizeof *cases, MAX_TESTS = NCASES * NSCHED };

int main(void) {
  static struct CMUnitTest tests[MAX_TESTS];
  static char names[MAX_TESTS][64];
  size_t n = 0;
  for (size_t c = 0; c < NCASES; c++)
    for (int s = 0; s < (cases[c].per_sched ? NSCHED : 1); s++, n++) {
      tests[n] = (struct CMUnitTest){cases[c].name, cases[c].fn, NULL, adapt_test_teardown, NULL};
      if (!cases[c].per_sched) continue;
      snprintf(names[n], sizeof names[n], "%s/%s", cases[c].name, sname(scheds[s]));
      tests[n].name = names[n];
      tests[n].initial_state = (void *)&scheds[s];
    }
  return adapt_test_run_n("sched", tests, n);
}
