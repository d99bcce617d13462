/* Crash and hang cases at the edges of the runtime (issue 11, items 1-8):
 * grains near SIZE_MAX, finalize racing a region that starts, a region
 * started by a thread that a body creates and joins, spawn and sync from
 * another thread, preemption while the owner still has work, frames ended
 * out of order, a statistics reset racing a worker's update, a steal point
 * inside a reducer. White-box where an interleaving must be forced: the
 * pending-request count and the counters of worker 0. */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "adapt_test.h"
#include "timed_join.h"

#include "../../libadapt/src/worker.h" /* white-box */

/* A hang is a failure too: every test here completes within a few seconds
 * when it passes. */
enum { WATCHDOG_S = 300 };

typedef struct cover {
  atomic_uchar *hits;
  size_t n;
} cover;

static void cover_body(size_t b, size_t e, void *ctx) {
  cover *c = ctx;
  for (size_t i = b; i < e; i++) atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
}

/* adapt_for(0, n) with attr; 1 if every index ran exactly once. */
static int run_cover(size_t n, const adapt_attr *attr) {
  cover c = {calloc(n, 1), n};
  if (!c.hits) return 0;
  int ok = adapt_for(0, n, cover_body, &c, attr) == 0;
  for (size_t i = 0; i < n; i++) ok &= atomic_load(&c.hits[i]) == 1;
  free(c.hits);
  return ok;
}

/* --- Item 1: grains above SIZE_MAX / 2 --------------------------------- */

static atomic_int stolen;

static void inner_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  if (adapt_worker_id() != 0) atomic_store(&stolen, 1);
  adapt_test_spin_ns(200 * (e - b));
}

/* The outer loop's only chunk: inner loops whose steal points answer the
 * other worker's requests, the outer frame's splitter first. */
static void outer_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  adapt_attr a = {0};
  a.grain = 1;
  for (int k = 0; k < 20000 && !atomic_load(&stolen); k++) adapt_for(0, 64, inner_body, NULL, &a);
}

static void test_huge_grain(void **state) {
  const size_t grains[] = {SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 2, SIZE_MAX - 1, SIZE_MAX};
  for (size_t i = 0; i < sizeof grains / sizeof *grains; i++) {
    adapt_attr a = {0};
    a.grain = grains[i];
    atomic_store(&stolen, 0);
    assert_int_equal(adapt_for(0, 100, outer_body, NULL, &a), 0);
    for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
      a.sched = (adapt_sched)s;
      assert_true(run_cover(1000, &a));
    }
  }
}

/* --- Item 2: finalize racing a region that starts ----------------------- */

static atomic_int finalizer_started, starter_started, held;

static void hold_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  if (atomic_exchange(&held, 1)) return;
  /* Keep the region until both threads are (most likely) blocked on it. */
  while (!atomic_load(&finalizer_started) || !atomic_load(&starter_started)) sched_yield();
  for (int k = 0; k < 200; k++) sched_yield();
}

static void *finalizer_main(void *arg) {
  (void)arg;
  atomic_store(&finalizer_started, 1);
  adapt_finalize();
  return NULL;
}

static void *starter_main(void *arg) {
  (void)arg;
  atomic_store(&starter_started, 1);
  adapt_attr a = {0};
  a.grain = 7;
  return (void *)(intptr_t)run_cover(5000, &a);
}

static void test_finalize_races_region_start(void **state) {
  for (int rep = 0; rep < 10; rep++) {
    assert_int_equal(adapt_test_workers(2), 0);
    atomic_store(&finalizer_started, 0);
    atomic_store(&starter_started, 0);
    atomic_store(&held, 0);
    pthread_t f, s;
    assert_int_equal(pthread_create(&f, NULL, finalizer_main, NULL), 0);
    assert_int_equal(pthread_create(&s, NULL, starter_main, NULL), 0);
    adapt_attr a = {0};
    a.grain = 1;
    assert_int_equal(adapt_for(0, 4, hold_body, NULL, &a), 0);
    void *ok;
    pthread_join(f, NULL);
    pthread_join(s, &ok);
    assert_int_equal((intptr_t)ok, 1);
  }
}

/* --- Item 3: a body starts a thread that runs a loop, and joins it ------ */

static void *loop_thread(void *arg) {
  (void)arg;
  adapt_attr a = {0};
  a.grain = 3;
  int ok = run_cover(3000, &a);
  for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
    a.sched = (adapt_sched)s;
    ok &= run_cover(2000, &a);
  }
  if (adapt_worker_id() != -1) ok = 0;
  return (void *)(intptr_t)ok;
}

static atomic_int thread_failures;

static void thread_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  for (size_t i = b; i < e; i++) {
    pthread_t t;
    void *ok = NULL;
    if (pthread_create(&t, NULL, loop_thread, NULL) != 0 || pthread_join(t, &ok) != 0 ||
        (intptr_t)ok != 1)
      atomic_fetch_add(&thread_failures, 1);
  }
}

static void thread_task(void *arg) { thread_body(0, 1, arg); }

static void test_body_starts_loop_thread(void **state) {
  atomic_store(&thread_failures, 0);
  adapt_attr a = {0};
  a.grain = 1;
  for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
    a.sched = (adapt_sched)s;
    assert_int_equal(adapt_for(0, 3, thread_body, NULL, &a), 0);
  }
  adapt_scope sc;
  assert_int_equal(adapt_scope_begin(&sc), 0);
  for (int k = 0; k < 3; k++) assert_int_equal(adapt_spawn(&sc, thread_task, NULL), 0);
  assert_int_equal(adapt_sync(&sc), 0);
  assert_int_equal(atomic_load(&thread_failures), 0);
}

/* A region of another thread runs while the pool is busy: it completes on
 * its own thread, and finalize waits for both. */
static atomic_int pool_held, other_done;

static void busy_body(size_t b, size_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
  if (atomic_exchange(&pool_held, 1)) return;
  while (!atomic_load(&other_done)) sched_yield();
}

static void *other_main(void *arg) {
  (void)arg;
  while (!atomic_load(&pool_held)) sched_yield();
  intptr_t ok = run_cover(4000, NULL);
  atomic_store(&other_done, 1);
  return (void *)ok;
}

static void test_region_while_pool_busy(void **state) {
  atomic_store(&pool_held, 0);
  atomic_store(&other_done, 0);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, other_main, NULL), 0);
  adapt_attr a = {0};
  a.grain = 1;
  assert_int_equal(adapt_for(0, 2, busy_body, NULL, &a), 0);
  void *ok;
  pthread_join(t, &ok);
  assert_int_equal((intptr_t)ok, 1);
}

/* --- Item 4: spawn and sync check the thread, not the worker ------------- */

static atomic_int scope_open, other_checked;
static adapt_scope foreign_scope;

static void nop(void *arg) { (void)arg; }

static void *scope_owner_main(void *arg) {
  (void)arg;
  intptr_t ok = adapt_scope_begin(&foreign_scope) == 0;
  atomic_store(&scope_open, 1);
  while (!atomic_load(&other_checked)) sched_yield();
  ok &= adapt_spawn(&foreign_scope, nop, NULL) == 0;
  ok &= adapt_sync(&foreign_scope) == 0;
  return (void *)ok;
}

static void test_scope_other_thread(void **state) {
  assert_int_equal(adapt_test_workers(2), 0); /* this thread is worker 0 between regions */
  atomic_store(&scope_open, 0);
  atomic_store(&other_checked, 0);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, scope_owner_main, NULL), 0);
  while (!atomic_load(&scope_open)) sched_yield();
  int rc_spawn = adapt_spawn(&foreign_scope, nop, NULL);
  int rc_sync = adapt_sync(&foreign_scope);
  atomic_store(&other_checked, 1);
  void *ok;
  pthread_join(t, &ok);
  assert_int_equal(rc_spawn, -EINVAL);
  assert_int_equal(rc_sync, -EINVAL);
  assert_int_equal((intptr_t)ok, 1);
}

/* --- Item 5: preemption while the owner still has work ------------------- */

typedef struct pw {
  size_t begin, end;
  int done;  /* set by the piece's entry when it returns */
  int piece; /* 1: the first thief's, 2: a piece given during the wait */
} pw;

static struct {
  atomic_int phase; /* 0: give one piece; 2: give pieces; else none */
  atomic_int first_started, owner_returned;
  atomic_ullong served_base;
  atomic_int bad_reduce;
  pw *owner;
} p5;

static unsigned long long served0(void) {
  adapt_worker_stats s;
  return adapt_stats_get(0, &s) == 0 ? s.requests_served : 0;
}

static void p5_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  (void)f, (void)count, (void)cv;
  pw *w = wv;
  int ph = atomic_load(&p5.phase);
  if (w != p5.owner || (ph != 0 && ph != 2) || w->end - w->begin < 2) return;
  size_t m = w->begin + (w->end - w->begin) / 2;
  pw *t = adapt_reply(rs, m);
  if (!t) return;
  *t = (pw){m, w->end, 0, ph == 0 ? 1 : 2};
  w->end = m;
  if (ph == 0) atomic_store(&p5.phase, 1);
}

static void p5_entry(adapt_frame *f, void *wv, void *cv) {
  (void)cv;
  pw *t = wv;
  t->begin = t->end; /* nothing left to split */
  if (t->piece == 1) {
    atomic_store(&p5.first_started, 1);
    while (!adapt_preempt_point(f)) sched_yield();
    /* Stop after the owner answered a request during its wait, or after
     * 2 s: the third worker may have slept since the splitter's refusals
     * of phase 1 (a thief refused ADAPT_REFUSED_SLEEP times sleeps until
     * the frame changes or its timed sleep ends, within
     * ADAPT_REFUSED_RECHECK_MAX_US: idle.c), and a loaded machine may
     * delay it further. */
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
      sched_yield();
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while (served0() <= atomic_load(&p5.served_base) && now.tv_sec - t0.tv_sec < 2);
  } else {
    while (!atomic_load(&p5.owner_returned)) sched_yield();
  }
  t->done = 1;
}

static void p5_reducer(void *vw, void *tw, void *cv) {
  (void)vw, (void)cv;
  if (!((pw *)tw)->done) atomic_store(&p5.bad_reduce, 1);
}

static void test_preempt_with_work_left(void **state) {
  for (int rep = 0; rep < 3; rep++) {
    assert_int_equal(adapt_test_workers(3), 0);
    pw w = {0, 1 << 20, 0, 0};
    atomic_store(&p5.phase, 0);
    atomic_store(&p5.first_started, 0);
    atomic_store(&p5.owner_returned, 0);
    atomic_store(&p5.bad_reduce, 0);
    p5.owner = &w;
    const adapt_task task = {p5_entry, p5_splitter, p5_reducer, sizeof(pw), NULL};
    adapt_frame f;
    assert_int_equal(adapt_begin(&f, &task, &w), 0);
    while (!atomic_load(&p5.first_started)) {
      adapt_steal_point(&f);
      sched_yield();
    }
    atomic_store(&p5.served_base, served0());
    atomic_store(&p5.phase, 2);
    int r = adapt_preempt_next_thief(&f); /* misuse: [begin, end) is not done */
    atomic_store(&p5.phase, 3);
    atomic_store(&p5.owner_returned, 1);
    assert_int_equal(r, 1);
    w.begin = w.end;
    assert_int_equal(adapt_end(&f), 0);
    assert_int_equal(atomic_load(&p5.bad_reduce), 0);
  }
}

/* --- Item 6: frames ended out of order ----------------------------------- */

typedef adapt_test_range ow;

static void test_end_out_of_order(void **state) {
  const adapt_task task = adapt_test_inert_task();
  ow wa = {0, 0}, wb = {0, 0};
  adapt_frame a, b;
  assert_int_equal(adapt_begin(&a, &task, &wa), 0);
  assert_int_equal(adapt_begin(&b, &task, &wb), 0);
  assert_int_equal(adapt_end(&a), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "order"));
  assert_int_equal(adapt_end(&b), 0);
  assert_int_equal(adapt_end(&a), 0);
  /* A scope begun after a frame is synced before the frame ends. */
  adapt_scope s;
  assert_int_equal(adapt_begin(&a, &task, &wa), 0);
  assert_int_equal(adapt_scope_begin(&s), 0);
  assert_int_equal(adapt_end(&a), -EINVAL);
  assert_int_equal(adapt_sync(&s), 0);
  assert_int_equal(adapt_end(&a), 0);
  /* The runtime is usable afterwards. */
  assert_true(run_cover(10000, NULL));
}

/* --- Item 7: a reset racing a worker's counter update -------------------- */

static void test_stats_reset_not_lost(void **state) {
  assert_int_equal(adapt_test_workers(1), 0);
  adapt__worker *w = adapt__rt.workers[0]; /* this thread's worker: it owns the counters */
  ADAPT_STAT_ADD(w, sleeps, 1000000);
  ADAPT_STAT_ADD(w, idle_ns, 1000000);
  /* The owner's update interleaved with the reset: load, reset, store. */
  uint64_t sleeps = atomic_load_explicit(&w->stats.sleeps, memory_order_relaxed);
  uint64_t idle = atomic_load_explicit(&w->stats.idle_ns, memory_order_relaxed);
  adapt_stats_reset();
  atomic_store_explicit(&w->stats.sleeps, sleeps + 1, memory_order_relaxed);
  atomic_store_explicit(&w->stats.idle_ns, idle + 5, memory_order_relaxed);
  adapt_worker_stats s;
  assert_int_equal(adapt_stats_get(0, &s), 0);
  assert_int_equal(s.sleeps, 1);
  assert_int_equal(s.idle_ns, 5);
  adapt_stats_reset();
  assert_int_equal(adapt_stats_get(0, &s), 0);
  assert_int_equal(s.sleeps, 0);
}

/* --- Item 8: a steal point inside a reducer does nothing ----------------- */

static struct {
  atomic_int phase; /* 0: give one piece; else none */
  atomic_int started, in_reducer, split_in_reducer;
  adapt_frame *frame;
} p8;

static void p8_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  (void)f, (void)count, (void)cv;
  ow *w = wv;
  if (atomic_load(&p8.in_reducer)) atomic_fetch_add(&p8.split_in_reducer, 1);
  if (atomic_load(&p8.phase) != 0 || w->end - w->begin < 2) return;
  size_t m = w->begin + (w->end - w->begin) / 2;
  ow *t = adapt_reply(rs, m);
  if (!t) return;
  *t = (ow){m, w->end};
  w->end = m;
  atomic_store(&p8.phase, 1);
}

static void p8_entry(adapt_frame *f, void *wv, void *cv) {
  (void)cv;
  ow *t = wv;
  t->begin = t->end;
  atomic_store(&p8.started, 1);
  while (!adapt_preempt_point(f)) sched_yield();
}

static void p8_reducer(void *vw, void *tw, void *cv) {
  (void)vw, (void)tw, (void)cv;
  atomic_store(&p8.in_reducer, 1);
  adapt__worker *w0 = adapt__rt.workers[0];
  /* The idle thief asks ADAPT_REFUSED_SLEEP times: each answer says
   * "nothing to split" (the frame is below the reducer's floor), and after
   * that many it waits for the frame to be split again. */
  for (unsigned k = 0; k < ADAPT_REFUSED_SLEEP; k++) {
    /* relaxed: a hint, as in the steal point. */
    while (!atomic_load_explicit(&w0->nreq, memory_order_relaxed)) sched_yield();
    adapt_steal_point(p8.frame);
  }
  atomic_store(&p8.in_reducer, 0);
}

static void test_steal_point_in_reducer(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  ow w = {0, 1 << 20};
  atomic_store(&p8.phase, 0);
  atomic_store(&p8.started, 0);
  atomic_store(&p8.split_in_reducer, 0);
  const adapt_task task = {p8_entry, p8_splitter, p8_reducer, sizeof(ow), NULL};
  adapt_frame f;
  p8.frame = &f;
  assert_int_equal(adapt_begin(&f, &task, &w), 0);
  while (!atomic_load(&p8.started)) {
    adapt_steal_point(&f);
    sched_yield();
  }
  w.begin = w.end;
  assert_int_equal(adapt_preempt_next_thief(&f), 1);
  assert_int_equal(adapt_end(&f), 0);
  assert_int_equal(atomic_load(&p8.split_in_reducer), 0);
}

/* --- Finalize waits without the init lock ------------------------------ */

/* While finalizes wait for a region, a thread that its body creates and
 * joins calls adapt_init (the runtime is up: 0) and runs a loop. Before the
 * fix, finalize held the init lock while it waited: adapt_init blocked on
 * it, the body on the join, finalize on the region. */
static atomic_int fin_region_in, fin_started, fin_done, fin_joined_ok;

static void *fin_finalizer(void *arg) {
  (void)arg;
  while (!atomic_load(&fin_region_in)) sched_yield();
  atomic_fetch_add(&fin_started, 1);
  adapt_finalize();
  atomic_fetch_add(&fin_done, 1);
  return NULL;
}

static void *fin_joined(void *arg) {
  (void)arg;
  intptr_t ok = adapt_init(NULL) == 0;
  ok &= run_cover(3000, NULL);
  return (void *)ok;
}

static void fin_body(size_t b, size_t e, void *ctx) {
  pthread_t *late = ctx;
  (void)b, (void)e;
  atomic_store(&fin_region_in, 1);
  while (atomic_load(&fin_started) < 2) sched_yield();
  usleep(20000); /* both finalizes are now (most likely) waiting */
  pthread_t j;
  if (pthread_create(&j, NULL, fin_joined, NULL) != 0) return;
  void *ok = NULL;
  if (adapt_test_join_within(j, &ok, 30) == 0) {
    atomic_store(&fin_joined_ok, (intptr_t)ok == 1 && atomic_load(&fin_done) == 0);
  } else {
    *late = j; /* the deadlock of the old code: joined after the region */
  }
}

static void test_finalize_while_joined_thread_inits(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  atomic_store(&fin_region_in, 0);
  atomic_store(&fin_started, 0);
  atomic_store(&fin_done, 0);
  atomic_store(&fin_joined_ok, 0);
  pthread_t f[2], late = pthread_self();
  for (int k = 0; k < 2; k++) assert_int_equal(pthread_create(&f[k], NULL, fin_finalizer, NULL), 0);
  adapt_attr a = {0};
  a.grain = 1;
  assert_int_equal(adapt_for(0, 1, fin_body, &late, &a), 0);
  for (int k = 0; k < 2; k++) pthread_join(f[k], NULL);
  if (!pthread_equal(late, pthread_self())) pthread_join(late, NULL);
  assert_int_equal(atomic_load(&fin_done), 2);
  assert_int_equal(atomic_load(&fin_joined_ok), 1);
}

/* --- Finalize while other threads keep starting regions (issue 38) ------- */

/* Three threads start short regions back to back; a finalize must end in
 * bounded time (before the fix it waited for an instant when none ran,
 * which could take forever). */
enum { CHURN_THREADS = 3, CHURN_LIMIT_S = 10 };
static atomic_int churn_stop, churn_started, churn_failures;

static void churn_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  adapt_test_spin_ns(500 * (e - b));
}

static void *churn_main(void *arg) {
  (void)arg;
  adapt_attr a = {0};
  a.grain = 8;
  atomic_fetch_add(&churn_started, 1);
  while (!atomic_load(&churn_stop)) {
    /* -ESHUTDOWN: a finalize refused the region (adapt_finalize). */
    int rc = adapt_for(0, 256, churn_body, NULL, &a);
    if (rc != 0 && rc != -ESHUTDOWN) atomic_fetch_add(&churn_failures, 1);
  }
  return NULL;
}

static void test_finalize_bounded_under_churn(void **state) {
  atomic_store(&churn_failures, 0);
  adapt_test_finalize_under_load(CHURN_THREADS, churn_main, &churn_started, &churn_stop, 20000,
                                 CHURN_LIMIT_S);
  assert_int_equal(atomic_load(&churn_failures), 0);
}

int main(void) {
  alarm(WATCHDOG_S);
  const struct CMUnitTest tests[] = {
      ADAPT_TEST_WORKERS(test_huge_grain, 2),
      ADAPT_TEST(test_finalize_races_region_start),
      ADAPT_TEST_WORKERS(test_body_starts_loop_thread, 2),
      ADAPT_TEST_WORKERS(test_region_while_pool_busy, 2),
      ADAPT_TEST(test_scope_other_thread),
      ADAPT_TEST(test_preempt_with_work_left),
      ADAPT_TEST_WORKERS(test_end_out_of_order, 2),
      ADAPT_TEST(test_stats_reset_not_lost),
      ADAPT_TEST(test_steal_point_in_reducer),
      ADAPT_TEST(test_finalize_while_joined_thread_inits),
      ADAPT_TEST_WORKERS(test_finalize_bounded_under_churn, 2),
  };
  return adapt_test_run("reliability", tests);
}
