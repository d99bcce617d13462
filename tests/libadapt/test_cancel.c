/* adapt_cancel and adapt_cancelled: a body stops its loop (every scheduler)
 * or its sequence algorithm; each index runs at most once, at most one chunk
 * per worker starts after the cancel, the call returns -ECANCELED, nested
 * and spawned contexts are not confused with the enclosing call, and the
 * runtime stays usable from every thread. */
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_test.h"

/* --- a loop that cancels itself at index `at` ---------------------------- */

typedef struct cancel_loop {
  atomic_uchar *seen;   /* visits per index */
  size_t at;            /* the index whose body cancels */
  atomic_int done;      /* 1 once adapt_cancel has returned */
  atomic_size_t late;   /* chunks started after that */
  atomic_int rc_cancel; /* adapt_cancel's result */
  atomic_int seen_flag; /* adapt_cancelled() right after the cancel */
} cancel_loop;

static void cancel_body(size_t b, size_t e, void *ctx) {
  cancel_loop *c = ctx;
  /* acquire: pairs with the release store of done below: a chunk that sees
   * it started after adapt_cancel returned. */
  if (atomic_load_explicit(&c->done, memory_order_acquire))
    atomic_fetch_add_explicit(&c->late, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&c->seen[i], 1, memory_order_relaxed);
    if (i == c->at) {
      atomic_store_explicit(&c->rc_cancel, adapt_cancel(), memory_order_relaxed);
      atomic_store_explicit(&c->seen_flag, adapt_cancelled(), memory_order_relaxed);
      /* release: pairs with the acquire load at the top of cancel_body. */
      atomic_store_explicit(&c->done, 1, memory_order_release);
    }
  }
}

static void cancel_loop_init(cancel_loop *c, atomic_uchar *seen, size_t n, size_t at) {
  for (size_t i = 0; i < n; i++) atomic_init(&seen[i], 0);
  c->seen = seen;
  c->at = at;
  atomic_init(&c->done, 0);
  atomic_init(&c->late, 0);
  atomic_init(&c->rc_cancel, 1);
  atomic_init(&c->seen_flag, 0);
}

/* Every scheduler, 1, 2, 3 and 8 workers, the cancel at the first, a middle
 * and the last index. */
static void test_cancel_every_scheduler(void **state) {
  const size_t n = adapt_test_scale(200000, 20000);
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  const int workers[] = {1, 2, 3, 8};
  const size_t ats[] = {0, n / 2, n - 1};
  for (size_t wi = 0; wi < 4; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++)
      for (size_t ai = 0; ai < 3; ai++) {
        cancel_loop c;
        cancel_loop_init(&c, seen, n, ats[ai]);
        int rc = adapt_test_for((adapt_sched)s, 16, n, cancel_body, &c);
        size_t twice = 0;
        for (size_t i = 0; i < n; i++) twice += atomic_load(&seen[i]) > 1;
        if (rc != -ECANCELED || twice || atomic_load(&seen[ats[ai]]) != 1 ||
            atomic_load(&c.rc_cancel) != 0 || atomic_load(&c.seen_flag) != 1 ||
            atomic_load(&c.late) > (size_t)workers[wi])
          fail_msg("sched %s workers %d at %zu: rc=%d twice=%zu cancel=%d flag=%d late=%zu",
                   adapt_sched_name((adapt_sched)s), workers[wi], ats[ai], rc, twice,
                   atomic_load(&c.rc_cancel), atomic_load(&c.seen_flag), atomic_load(&c.late));
        assert_non_null(strstr(adapt_last_error(), "adapt_for: cancelled by a body"));
      }
  }
  free(seen);
}

/* With one worker the loop is sequential: exactly the indices up to the
 * end of the cancelling chunk ran. Grain 1 and a grain past the range take
 * the owner's fast paths (a claim of b + 1; a claim bounded by the end). */
static void test_cancel_one_worker_exact(void **state) {
  const size_t n = 10000, at = 1000;
  const size_t grains[] = {1, 64, SIZE_MAX};
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  assert_int_equal(adapt_test_workers(1), 0);
  for (size_t gi = 0; gi < 3; gi++) {
    const size_t g = grains[gi];
    cancel_loop c;
    cancel_loop_init(&c, seen, n, at);
    assert_int_equal(adapt_test_for(ADAPT_SCHED_DEFAULT, g, n, cancel_body, &c), -ECANCELED);
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) ran += atomic_load(&seen[i]);
    assert_int_equal(ran, g > n ? n : (at / g + 1) * g);
    assert_int_equal(atomic_load(&c.late), 0);
  }
  free(seen);
}

/* A nested loop on one worker (lazy DF, DF2 and the default: the nested
 * call's short path, run as a plain loop when no thief can exist) that
 * cancels itself: exactly the indices up to the end of the cancelling
 * chunk ran, it returns -ECANCELED, and the enclosing loop is not
 * cancelled (it runs its next index). */
typedef struct nested_exact {
  cancel_loop c;
  adapt_sched s;
  size_t n, g;
  atomic_int rc, outer_runs, outer_cancelled;
} nested_exact;

static void nested_exact_body(size_t b, size_t e, void *ctx) {
  nested_exact *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->outer_runs, 1, memory_order_relaxed);
    if (i != 0) continue;
    atomic_store_explicit(&x->rc, adapt_test_for(x->s, x->g, x->n, cancel_body, &x->c),
                          memory_order_relaxed);
    atomic_store_explicit(&x->outer_cancelled, adapt_cancelled(), memory_order_relaxed);
  }
}

static void test_cancel_nested_one_worker_exact(void **state) {
  enum { N = 100, AT = 40 };
  const adapt_sched scheds[] = {ADAPT_SCHED_LAZY_DF, ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_DEFAULT};
  const size_t grains[] = {1, 3};
  atomic_uchar seen[N];
  assert_int_equal(adapt_test_workers(1), 0);
  for (size_t si = 0; si < 3; si++)
    for (size_t gi = 0; gi < 2; gi++) {
      nested_exact x = {.s = scheds[si], .n = N, .g = grains[gi]};
      cancel_loop_init(&x.c, seen, N, AT);
      atomic_init(&x.rc, 1);
      atomic_init(&x.outer_runs, 0);
      atomic_init(&x.outer_cancelled, 1);
      assert_int_equal(adapt_test_for(ADAPT_SCHED_ADAPTIVE, 1, 2, nested_exact_body, &x), 0);
      assert_int_equal(atomic_load(&x.rc), -ECANCELED);
      assert_int_equal(atomic_load(&x.outer_cancelled), 0);
      assert_int_equal(atomic_load(&x.outer_runs), 2);
      assert_int_equal(atomic_load(&x.c.rc_cancel), 0);
      size_t ran = 0;
      for (size_t i = 0; i < N; i++) ran += atomic_load(&seen[i]);
      assert_int_equal(ran, (AT / grains[gi] + 1) * grains[gi]);
      assert_int_equal(atomic_load(&x.c.late), 0);
    }
}

/* Three levels on one worker, the two nested ones on the short path: the
 * innermost loop (run from the middle loop's first index) cancels itself;
 * exactly its indices up to the cancelling one ran, the middle and outer
 * loops run all of theirs and are not cancelled. */
typedef struct depth3 {
  atomic_int inner_runs, middle_runs, outer_runs, bad;
} depth3;

static void depth3_inner(size_t b, size_t e, void *ctx) {
  depth3 *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->inner_runs, 1, memory_order_relaxed);
    if (i == 5 && adapt_cancel() != 0) atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  }
}

static void depth3_middle(size_t b, size_t e, void *ctx) {
  depth3 *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->middle_runs, 1, memory_order_relaxed);
    if (i == 0 && adapt_test_for(ADAPT_SCHED_DEFAULT, 1, 10, depth3_inner, x) != -ECANCELED)
      atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
    if (adapt_cancelled()) atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  }
}

static void depth3_outer(size_t b, size_t e, void *ctx) {
  depth3 *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->outer_runs, 1, memory_order_relaxed);
    if (adapt_test_for(ADAPT_SCHED_LAZY_DF, 1, 4, depth3_middle, x) != 0)
      atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  }
}

static void test_cancel_nested_depth_one_worker(void **state) {
  assert_int_equal(adapt_test_workers(1), 0);
  depth3 x;
  atomic_init(&x.inner_runs, 0);
  atomic_init(&x.middle_runs, 0);
  atomic_init(&x.outer_runs, 0);
  atomic_init(&x.bad, 0);
  assert_int_equal(adapt_test_for(ADAPT_SCHED_LAZY_DF2, 1, 3, depth3_outer, &x), 0);
  assert_int_equal(atomic_load(&x.bad), 0);
  assert_int_equal(atomic_load(&x.outer_runs), 3);
  assert_int_equal(atomic_load(&x.middle_runs), 3 * 4);
  assert_int_equal(atomic_load(&x.inner_runs), 3 * 6);
}

/* The adaptive loop at grain 1 on 2 and 3 workers (thieves' pieces run the
 * same fast path): each index at most once, at most one chunk per worker
 * after the cancel, -ECANCELED. */
static void test_cancel_grain1_workers(void **state) {
  const size_t n = adapt_test_scale(20000, 4000);
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  for (int workers = 2; workers <= 3; workers++) {
    assert_int_equal(adapt_test_workers(workers), 0);
    cancel_loop c;
    cancel_loop_init(&c, seen, n, n / 2);
    assert_int_equal(adapt_test_for(ADAPT_SCHED_ADAPTIVE, 1, n, cancel_body, &c), -ECANCELED);
    size_t twice = 0;
    for (size_t i = 0; i < n; i++) twice += atomic_load(&seen[i]) > 1;
    assert_int_equal(twice, 0);
    assert_int_equal(atomic_load(&seen[n / 2]), 1);
    assert_true(atomic_load(&c.late) <= (size_t)workers);
  }
  free(seen);
}

/* --- outside a body, nested loops, spawned tasks ------------------------- */

static void test_cancel_outside(void **state) {
  assert_int_equal(adapt_cancel(), -EPERM);
  assert_non_null(strstr(adapt_last_error(), "adapt_cancel"));
  assert_int_equal(adapt_cancelled(), 0);
}

typedef struct nested_ctx {
  atomic_size_t outer_runs, inner_rc_bad, inner_runs;
} nested_ctx;

static void inner_body(size_t b, size_t e, void *ctx) {
  nested_ctx *x = ctx;
  atomic_fetch_add_explicit(&x->inner_runs, e - b, memory_order_relaxed);
  if (b == 0) adapt_cancel(); /* cancels the inner loop only */
}

static void outer_body(size_t b, size_t e, void *ctx) {
  nested_ctx *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->outer_runs, 1, memory_order_relaxed);
    if (adapt_test_for(ADAPT_SCHED_DEFAULT, 1, 64, inner_body, x) != -ECANCELED)
      atomic_fetch_add_explicit(&x->inner_rc_bad, 1, memory_order_relaxed);
    if (adapt_cancelled()) /* the outer loop is not cancelled */
      atomic_fetch_add_explicit(&x->inner_rc_bad, 1, memory_order_relaxed);
  }
}

static void test_cancel_nested_inner_only(void **state) {
  for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
    nested_ctx x;
    atomic_init(&x.outer_runs, 0);
    atomic_init(&x.inner_rc_bad, 0);
    atomic_init(&x.inner_runs, 0);
    assert_int_equal(adapt_test_for((adapt_sched)s, 0, 200, outer_body, &x), 0);
    assert_int_equal(atomic_load(&x.outer_runs), 200);
    assert_int_equal(atomic_load(&x.inner_rc_bad), 0);
    assert_true(atomic_load(&x.inner_runs) < 200 * 64);
  }
}

/* A body that cancels its loop after a nested loop of the same scheduler
 * returned: the outer loop is again the target (each range a worker runs
 * is one cancel scope; the nested loop's scopes are gone). Whether indices
 * are left when the cancel comes is the scheduling's (another worker may
 * have run all of them first, e.g. while the canceller was descheduled):
 * what is asserted is that no index starts after the cancel, but for one
 * per other worker whose check of the flag came just before it. */
typedef struct after_ctx {
  adapt_sched sched;
  atomic_size_t outer_runs, inner_runs, bad, late;
  atomic_int cancelled; /* set after adapt_cancel returned */
} after_ctx;

static void inner_count_body(size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit(&((after_ctx *)ctx)->inner_runs, e - b, memory_order_relaxed);
}

static void cancel_after_nested_body(size_t b, size_t e, void *ctx) {
  after_ctx *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->outer_runs, 1, memory_order_relaxed);
    if (atomic_load(&x->cancelled)) atomic_fetch_add_explicit(&x->late, 1, memory_order_relaxed);
    if (adapt_test_for(x->sched, 1, 16, inner_count_body, x) != 0)
      atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
    if (i == 3) {
      if (adapt_cancel() != 0) atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
      atomic_store(&x->cancelled, 1);
    }
  }
}

static void test_cancel_outer_after_nested(void **state) {
  for (int s = ADAPT_SCHED_DEFAULT; s < ADAPT_SCHED_COUNT; s++) {
    after_ctx x = {.sched = (adapt_sched)s};
    atomic_init(&x.outer_runs, 0);
    atomic_init(&x.inner_runs, 0);
    atomic_init(&x.bad, 0);
    atomic_init(&x.late, 0);
    atomic_init(&x.cancelled, 0);
    assert_int_equal(adapt_test_for((adapt_sched)s, 1, 200, cancel_after_nested_body, &x),
                     -ECANCELED);
    assert_int_equal(atomic_load(&x.bad), 0);
    size_t runs = atomic_load(&x.outer_runs);
    assert_true(runs >= 4 && runs <= 200);
    if (s != ADAPT_SCHED_STATIC) /* static: one call per block runs it whole */
      assert_true(atomic_load(&x.late) <= (size_t)(adapt_num_workers() - 1));
    assert_int_equal(atomic_load(&x.inner_runs), 16 * runs);
  }
}

static atomic_int task_cancel_rc;

static void task_cancels(void *arg) {
  atomic_store_explicit(&task_cancel_rc, adapt_cancel(), memory_order_relaxed);
}

static void spawning_body(size_t b, size_t e, void *ctx) {
  adapt_scope s;
  if (adapt_scope_begin(&s) != 0) return;
  adapt_spawn(&s, task_cancels, NULL);
  adapt_sync(&s);
}

/* A spawned task is its own context: its adapt_cancel reaches no loop. */
static void test_cancel_spawned_task_is_barrier(void **state) {
  atomic_init(&task_cancel_rc, 1);
  assert_int_equal(adapt_for(0, 100, spawning_body, NULL, NULL), 0);
  assert_int_equal(atomic_load(&task_cancel_rc), -EPERM);
}

/* Spawned and forked tasks inside a loop's bodies, some run by the inline
 * sync, some by the library's (a scope of several pushed tasks), some by a
 * thief: none reaches the loop (adapt_cancel -EPERM, adapt_cancelled 0, in
 * the task and in a child it forks), and after the sync the body's
 * adapt_cancel reaches its loop again (the barrier is lifted). */
typedef struct shield_ctx {
  atomic_int bad;       /* a task that reached the loop, or a failed call */
  atomic_int tasks;     /* tasks run */
  atomic_int after_rc;  /* adapt_cancel's result after the sync, at index 40 */
  atomic_size_t visits; /* indices run */
} shield_ctx;

static void shield_check(shield_ctx *x) {
  if (adapt_cancel() != -EPERM || adapt_cancelled() != 0)
    atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&x->tasks, 1, memory_order_relaxed);
}

static void shield_child(void *arg) { shield_check(arg); }

static void shield_task(void *arg) {
  shield_ctx *x = arg;
  adapt_child c;
  if (adapt_fork(&c, shield_child, x) != 0 || adapt_join(&c) != 0)
    atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
  shield_check(x);
}

static void shield_body(size_t b, size_t e, void *ctx) {
  shield_ctx *x = ctx;
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&x->visits, 1, memory_order_relaxed);
    adapt_scope s;
    int rc = adapt_scope_begin(&s);
    for (int k = 0; k < 4 && rc == 0; k++) rc = adapt_spawn(&s, shield_task, x);
    if (rc == 0) rc = adapt_sync(&s);
    if (rc != 0) atomic_fetch_add_explicit(&x->bad, 1, memory_order_relaxed);
    if (i == 40) atomic_store_explicit(&x->after_rc, adapt_cancel(), memory_order_relaxed);
  }
}

static void test_cancel_tasks_shielded_then_lifted(void **state) {
  for (int s = ADAPT_SCHED_DEFAULT; s < ADAPT_SCHED_COUNT; s++) {
    shield_ctx x;
    atomic_init(&x.bad, 0);
    atomic_init(&x.tasks, 0);
    atomic_init(&x.after_rc, 1);
    atomic_init(&x.visits, 0);
    assert_int_equal(adapt_test_for((adapt_sched)s, 1, 64, shield_body, &x), -ECANCELED);
    assert_int_equal(atomic_load(&x.bad), 0);
    assert_int_equal(atomic_load(&x.after_rc), 0);
    size_t visits = atomic_load(&x.visits); /* index 40 among them (after_rc) */
    assert_true(visits >= 1 && visits <= 64);
    assert_int_equal((size_t)atomic_load(&x.tasks), 8 * visits);
  }
}

/* --- sequence algorithms -------------------------------------------------- */

static void tr_cancel(const void *in, void *out, void *ctx) {
  uint32_t x = *(const uint32_t *)in;
  if (x == *(const uint32_t *)ctx) adapt_cancel();
  *(uint32_t *)out = x + 1;
}

static void acc_cancel(void *acc, const void *first, size_t n, void *ctx) {
  const uint32_t *p = first;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == *(const uint32_t *)ctx) adapt_cancel();
    *(uint64_t *)acc += p[i];
  }
}

static void comb(void *acc, const void *other, void *ctx) {
  *(uint64_t *)acc += *(const uint64_t *)other;
}

static void test_cancel_algorithms(void **state) {
  const size_t n = adapt_test_scale(300000, 30000);
  uint32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
  assert_non_null(in);
  assert_non_null(out);
  for (size_t i = 0; i < n; i++) in[i] = (uint32_t)i;
  const adapt_window_mode modes[] = {ADAPT_WINDOW_NONE, ADAPT_WINDOW_STATIC, ADAPT_WINDOW_SLIDING};
  const int workers[] = {1, 2, 3};
  for (size_t wi = 0; wi < 3; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    for (size_t mi = 0; mi < 3; mi++) {
      uint32_t at = (uint32_t)(n / 3);
      adapt_attr a = {0};
      a.window = modes[mi];
      a.window_size = 4096;
      a.grain = 32;
      assert_int_equal(adapt_transform(in, n, sizeof *in, out, sizeof *out, tr_cancel, &at, &a),
                       -ECANCELED);
      assert_non_null(strstr(adapt_last_error(), "adapt_transform: cancelled by a body"));
      uint64_t result = 12345, zero = 0;
      assert_int_equal(
          adapt_reduce(in, n, sizeof *in, &result, sizeof result, &zero, acc_cancel, comb, &at, &a),
          -ECANCELED);
      assert_int_equal(result, 12345); /* untouched */
      /* Usable at once: the same call without a cancel completes. */
      uint32_t never = UINT32_MAX;
      assert_int_equal(adapt_transform(in, n, sizeof *in, out, sizeof *out, tr_cancel, &never, &a),
                       0);
      for (size_t i = 0; i < n; i += 997) assert_int_equal(out[i], in[i] + 1);
    }
    /* Maps under every scheduler, through adapt_for. */
    for (int s = ADAPT_SCHED_LOOPFRAME; s < ADAPT_SCHED_COUNT; s++) {
      uint32_t at = (uint32_t)(n / 2);
      adapt_attr a = {0};
      a.sched = (adapt_sched)s;
      assert_int_equal(adapt_transform(in, n, sizeof *in, out, sizeof *out, tr_cancel, &at, &a),
                       -ECANCELED);
      assert_non_null(strstr(adapt_last_error(), "adapt_transform: cancelled by a body"));
    }
  }
  free(in);
  free(out);
}

/* --- the runtime stays usable from other threads -------------------------- */

static void count_body(size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit((atomic_size_t *)ctx, e - b, memory_order_relaxed);
}

static void *other_thread(void *arg) {
  atomic_size_t *count = arg;
  for (int k = 0; k < 10; k++)
    if (adapt_for(0, 10000, count_body, count, NULL) != 0) return NULL;
  return arg;
}

static void test_cancel_then_other_threads(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  const size_t n = 50000;
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  for (int k = 0; k < 20; k++) {
    cancel_loop c;
    cancel_loop_init(&c, seen, n, (size_t)k * 997 % n);
    assert_int_equal(adapt_for(0, n, cancel_body, &c, NULL), -ECANCELED);
  }
  free(seen);
  atomic_size_t count;
  atomic_init(&count, 0);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&t[i], NULL, other_thread, &count), 0);
  for (int i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    assert_non_null(r);
  }
  assert_int_equal(atomic_load(&count), 2 * 10 * 10000);
}

ADAPT_TEST_MAIN("cancel", ADAPT_TEST(test_cancel_outside), ADAPT_TEST(test_cancel_every_scheduler),
                ADAPT_TEST(test_cancel_one_worker_exact),
                ADAPT_TEST(test_cancel_nested_one_worker_exact),
                ADAPT_TEST(test_cancel_nested_depth_one_worker),
                ADAPT_TEST(test_cancel_grain1_workers),
                ADAPT_TEST_WORKERS(test_cancel_nested_inner_only, 2),
                ADAPT_TEST_WORKERS(test_cancel_outer_after_nested, 2),
                ADAPT_TEST_WORKERS(test_cancel_spawned_task_is_barrier, 2),
                ADAPT_TEST_WORKERS(test_cancel_tasks_shielded_then_lifted, 2),
                ADAPT_TEST(test_cancel_algorithms), ADAPT_TEST(test_cancel_then_other_threads))
