/* adapt_for: every index exactly once, nesting, back-to-back regions,
 * foreign threads, error paths. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "adapt_test.h"

typedef struct cover {
  unsigned char *hits;
  size_t first;
  atomic_int bad_worker; /* a body saw adapt_worker_id() out of range */
  int nworkers;
  int solo_ok; /* -1 allowed: a region run alone while the workers are busy */
} cover;

static void cover_body(size_t b, size_t e, void *ctx) {
  cover *c = ctx;
  int id = adapt_worker_id();
  if ((id < 0 && !(id == -1 && c->solo_ok)) || id >= c->nworkers)
    atomic_store_explicit(&c->bad_worker, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) c->hits[i - c->first]++;
}

static void check_cover(size_t first, size_t n, size_t grain, int workers) {
  cover c = {calloc(n ? n : 1, 1), first, 0, workers, 0};
  assert_non_null(c.hits);
  adapt_attr a = {0};
  a.grain = grain;
  assert_int_equal(adapt_for(first, first + n, cover_body, &c, &a), 0);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += c.hits[i] != 1;
  if (bad)
    fprintf(stderr, "cover: workers=%d n=%zu grain=%zu first=%zu: %zu indices not run once\n",
            workers, n, grain, first, bad);
  assert_int_equal(bad, 0);
  assert_int_equal(atomic_load(&c.bad_worker), 0);
  free(c.hits);
}

static void test_exactly_once(void **state) {
  static const int workers[] = {1, 2, 3, 8};
  static const size_t grains[] = {0, 1, 7, 64, 4096};
  size_t big = adapt_test_scale(10000000, 1000000);
  const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 10007, 100003, big};
  for (size_t wi = 0; wi < 4; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    assert_int_equal(adapt_num_workers(), workers[wi]);
    for (size_t gi = 0; gi < 5; gi++)
      for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        /* grain 1 on the largest size only once per worker count: it is the
         * slowest case and adds nothing the others do not cover */
        if (sizes[si] == big && grains[gi] != 1 && grains[gi] != 0 && grains[gi] != 4096) continue;
        check_cover(0, sizes[si], grains[gi], workers[wi]);
      }
    /* ranges that do not start at 0, and that end at SIZE_MAX */
    check_cover(12345, 99991, 3, workers[wi]);
    check_cover(SIZE_MAX - 5000, 5000, 1, workers[wi]);
    /* a grain past the range: one claim bounded by the end (b + g would wrap) */
    check_cover(SIZE_MAX - 5000, 5000, SIZE_MAX, workers[wi]);
  }
}

/* adapt_for at a set grain runs its owner loop compiled into the caller
 * (<adapt/loop.h>, adapt__for_top): the same cover as the function
 * (adapt_for), with thieves (each index spins), at grain 1 and 7, top-level
 * and nested (an adaptive loop inside each body: opened in the body's
 * region), and a body's cancel stops it. */
typedef struct owner_ctx {
  atomic_uchar *hits;
  size_t n_inner;
  atomic_uchar *inner; /* [outer index][inner index] */
  atomic_int thieves;  /* a body ran on a worker other than the caller's */
  int caller;
} owner_ctx;

static void owner_inner(size_t b, size_t e, void *ctx) {
  atomic_uchar *row = ctx;
  for (size_t i = b; i < e; i++) atomic_fetch_add_explicit(&row[i], 1, memory_order_relaxed);
}

static void owner_body(size_t b, size_t e, void *ctx) {
  owner_ctx *c = ctx;
  if (adapt_worker_id() != c->caller) atomic_store_explicit(&c->thieves, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) {
    adapt_test_spin_ns(2000);
    atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
    if (c->n_inner) {
      adapt_attr a = {0};
      a.sched = ADAPT_SCHED_ADAPTIVE;
      a.grain = 1;
      assert_int_equal(adapt_for(0, c->n_inner, owner_inner, c->inner + i * c->n_inner, &a), 0);
    }
  }
}

static void check_owner(size_t n, size_t n_inner, size_t grain, int inline_path) {
  owner_ctx c = {calloc(n, 1), n_inner, calloc(n * (n_inner ? n_inner : 1), 1), 0, 0};
  assert_true(c.hits && c.inner);
  c.caller = adapt_worker_id() < 0 ? 0 : adapt_worker_id();
  adapt_attr a = {0};
  a.grain = grain;
  int rc =
      inline_path ? adapt_for(0, n, owner_body, &c, &a) : (adapt_for)(0, n, owner_body, &c, &a);
  assert_int_equal(rc, 0);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += atomic_load(&c.hits[i]) != 1;
  for (size_t i = 0; i < n * n_inner; i++) bad += atomic_load(&c.inner[i]) != 1;
  if (bad)
    fprintf(stderr, "owner loop: %s grain %zu n %zu inner %zu: %zu cells not run once\n",
            inline_path ? "inline" : "function", grain, n, n_inner, bad);
  assert_int_equal(bad, 0);
  if (adapt_num_workers() > 1 && n >= 2000) assert_int_equal(atomic_load(&c.thieves), 1);
  free(c.hits);
  free(c.inner);
}

typedef struct owner_cancel {
  atomic_size_t ran;  /* indices run */
  atomic_int done;    /* 1 once adapt_cancel has returned */
  atomic_size_t late; /* chunks started after that */
} owner_cancel;

static void owner_cancel_body(size_t b, size_t e, void *ctx) {
  owner_cancel *c = ctx;
  /* acquire: pairs with the release store of done below: a chunk that sees
   * it started after adapt_cancel returned. */
  if (atomic_load_explicit(&c->done, memory_order_acquire))
    atomic_fetch_add_explicit(&c->late, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++)
    if (atomic_fetch_add_explicit(&c->ran, 1, memory_order_relaxed) == 100) {
      adapt_cancel();
      /* release: pairs with the acquire load at the top. */
      atomic_store_explicit(&c->done, 1, memory_order_release);
    }
}

static void test_owner_loop_inline(void **state) {
  static const int workers[] = {1, 2, 8};
  for (size_t wi = 0; wi < 3; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    for (int path = 0; path < 2; path++) {
      check_owner(20000, 0, 1, path);
      check_owner(20000, 0, 7, path);
      check_owner(200, 50, 1, path);
    }
    /* cancelled at the 101st index run: -ECANCELED, the rest abandoned,
     * at most one chunk per worker started after the cancel returned */
    owner_cancel oc;
    atomic_init(&oc.ran, 0);
    atomic_init(&oc.done, 0);
    atomic_init(&oc.late, 0);
    adapt_attr a = {0};
    a.grain = 1;
    assert_int_equal(adapt_for(0, 100000, owner_cancel_body, &oc, &a), -ECANCELED);
    if (atomic_load(&oc.late) > (size_t)workers[wi] || atomic_load(&oc.ran) >= 100000)
      fail_msg("workers %d: %zu chunks started after the cancel, %zu indices ran", workers[wi],
               atomic_load(&oc.late), atomic_load(&oc.ran));
    assert_non_null(strstr(adapt_last_error(), "adapt_for: cancelled by a body"));
  }
}

/* Three levels of nested loops: cell (i, j, k) visited exactly once. */
enum { NI = 13, NJ = 29, NK = 67 };
static unsigned char cells[NI][NJ][NK];
typedef struct nest {
  size_t i, j;
} nest;

static void level3(size_t b, size_t e, void *ctx) {
  nest *n = ctx;
  for (size_t k = b; k < e; k++) cells[n->i][n->j][k]++;
}
static void level2(size_t b, size_t e, void *ctx) {
  for (size_t j = b; j < e; j++) {
    nest n = {*(size_t *)ctx, j};
    adapt_attr a = {0};
    a.grain = 1;
    assert_int_equal(adapt_for(0, NK, level3, &n, &a), 0);
  }
}
static void level1(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    size_t ii = i;
    adapt_attr a = {0};
    a.grain = 2;
    assert_int_equal(adapt_for(0, NJ, level2, &ii, &a), 0);
  }
}

static void test_nested_three_levels(void **state) {
  static const int workers[] = {1, 2, 3, 8};
  for (size_t wi = 0; wi < 4; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    for (int rep = 0; rep < 3; rep++) {
      memset(cells, 0, sizeof cells);
      adapt_attr a = {0};
      a.grain = 1;
      assert_int_equal(adapt_for(0, NI, level1, NULL, &a), 0);
      size_t bad = 0;
      for (size_t i = 0; i < NI; i++)
        for (size_t j = 0; j < NJ; j++)
          for (size_t k = 0; k < NK; k++) bad += cells[i][j][k] != 1;
      assert_int_equal(bad, 0);
    }
  }
}

/* Many short regions back to back with random body durations. */
typedef struct rnd_ctx {
  atomic_size_t sum;
  unsigned seed;
} rnd_ctx;

static void rnd_body(size_t b, size_t e, void *ctx) {
  rnd_ctx *c = ctx;
  for (size_t i = b; i < e; i++) {
    adapt_test_spin_ns((i * 2654435761u + c->seed) % 3000u);
    atomic_fetch_add_explicit(&c->sum, i + 1, memory_order_relaxed);
  }
}

static void test_back_to_back_regions(void **state) {
  unsigned seed = 12345;
  size_t regions = adapt_test_scale(10000, 10000);
  for (size_t r = 0; r < regions; r++) {
    seed = seed * 1103515245u + 12345u;
    size_t n = (seed >> 16) % 40;
    rnd_ctx c = {0, seed};
    adapt_attr a = {0};
    a.grain = 1 + (seed >> 8) % 3;
    assert_int_equal(adapt_for(0, n, rnd_body, &c, &a), 0);
    assert_int_equal(atomic_load(&c.sum), n * (n + 1) / 2);
  }
}

/* Top-level regions from several foreign threads at once: one at a time
 * holds the workers, the others run alone on their own thread. */
static void *foreign_main(void *arg) {
  (void)arg;
  size_t n = 200000;
  unsigned char *hits = calloc(n, 1);
  int ok = hits != NULL;
  if (adapt_worker_id() != -1) ok = 0;
  for (int rep = 0; rep < 5 && ok; rep++) {
    cover c = {hits, 0, 0, adapt_num_workers(), 1};
    memset(hits, 0, n);
    if (adapt_for(0, n, cover_body, &c, NULL) != 0) ok = 0;
    for (size_t i = 0; i < n; i++)
      if (hits[i] != 1) ok = 0;
    if (atomic_load(&c.bad_worker)) ok = 0;
  }
  if (adapt_worker_id() != -1) ok = 0; /* gave worker 0's place back */
  free(hits);
  return (void *)(intptr_t)ok;
}

static void test_foreign_threads(void **state) {
  assert_int_equal(adapt_test_worker_threads(), 2); /* the teardown check can see them */
  pthread_t t[4];
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, foreign_main, NULL), 0);
  /* and the initialising thread too, at the same time */
  void *mine = foreign_main(NULL);
  (void)mine; /* worker_id is 0 here, not -1: checked separately below */
  for (int i = 0; i < 4; i++) {
    void *ok;
    pthread_join(t[i], &ok);
    assert_int_equal((intptr_t)ok, 1);
  }
  assert_int_equal(adapt_worker_id(), 0);
}

/* Finalize from a foreign thread while the main thread runs a region: it
 * waits for the region; the region's result is intact. */
static atomic_int region_running;
static void slow_body(size_t b, size_t e, void *ctx) {
  atomic_store(&region_running, 1);
  cover_body(b, e, ctx);
  adapt_test_spin_ns(2000);
}
static void *finalizer_main(void *arg) {
  while (!atomic_load(&region_running)) sched_yield();
  adapt_finalize();
  return NULL;
}

/* The main thread's CPUs before any runtime start (main). */
static cpu_set_t initial_cpus;

static void test_finalize_while_busy(void **state) {
  atomic_store(&region_running, 0);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, finalizer_main, NULL), 0);
  size_t n = 20000;
  cover c = {calloc(n, 1), 0, 0, 2, 0};
  adapt_attr a = {0};
  a.grain = 16;
  assert_int_equal(adapt_for(0, n, slow_body, &c, &a), 0);
  pthread_join(t, NULL);
  for (size_t i = 0; i < n; i++) assert_int_equal(c.hits[i], 1);
  free(c.hits);
  /* this thread, worker 0, has its own CPUs back although another thread
   * finalized */
  cpu_set_t now;
  assert_int_equal(sched_getaffinity(0, sizeof now, &now), 0);
  assert_true(CPU_EQUAL(&now, &initial_cpus));
  /* the runtime restarts lazily */
  assert_true(adapt_num_workers() >= 1);
}

/* Errors. */
static void count_calls(size_t b, size_t e, void *ctx) { (*(int *)ctx)++; }

static atomic_int nested_finalize_rc;
static void finalize_in_body(size_t b, size_t e, void *ctx) {
  atomic_store(&nested_finalize_rc, adapt_try_finalize());
}

static void test_errors(void **state) {
  int calls = 0;
  assert_int_equal(adapt_for(0, 10, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_for(10, 9, count_calls, &calls, NULL), -EINVAL);
  assert_int_equal(adapt_for(5, 5, count_calls, &calls, NULL), 0);
  assert_int_equal(calls, 0);
  adapt_attr bad = {0};
  bad.sched = (adapt_sched)99;
  assert_int_equal(adapt_for(0, 10, count_calls, &calls, &bad), -EINVAL);
  assert_int_equal(calls, 0);
  /* finalize inside a region refuses */
  assert_int_equal(adapt_test_workers(2), 0);
  atomic_store(&nested_finalize_rc, 1);
  adapt_attr one = {0};
  one.grain = 1;
  assert_int_equal(adapt_for(0, 4, finalize_in_body, NULL, &one), 0);
  assert_int_equal(atomic_load(&nested_finalize_rc), -EBUSY);
  assert_int_equal(adapt_num_workers(), 2); /* still running */
  /* bad configuration */
  adapt_finalize();
  adapt_config cfg = {0};
  cfg.workers = -3;
  assert_int_equal(adapt_init(&cfg), -EINVAL);
  cfg.workers = 0;
  cfg.bind = 7;
  assert_int_equal(adapt_init(&cfg), -EINVAL);
  setenv("ADAPT_WORKERS", "two", 1);
  assert_int_equal(adapt_init(NULL), -EINVAL);
  assert_int_equal(adapt_for(0, 10, count_calls, &calls, NULL), -EINVAL);
  assert_int_equal(calls, 0);
  unsetenv("ADAPT_WORKERS");
  setenv("ADAPT_VICTIM", "nearest", 1);
  assert_int_equal(adapt_init(NULL), -EINVAL);
  setenv("ADAPT_VICTIM", "random", 1);
  setenv("ADAPT_STEAL_ORDER", "sideways", 1);
  assert_int_equal(adapt_init(NULL), -EINVAL);
  unsetenv("ADAPT_STEAL_ORDER");
  unsetenv("ADAPT_VICTIM");
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_init(NULL), 0); /* idempotent */
  assert_string_equal(adapt_strerror(-EINVAL) != NULL ? "ok" : "null", "ok");
  assert_non_null(strstr(adapt_strerror(-EOVERFLOW), "overflow"));
  assert_non_null(adapt_strerror(-12345));
  adapt_finalize();
  adapt_finalize(); /* idempotent */
  assert_int_equal(adapt_worker_id(), -1);
}

/* A nested adapt_for on one worker (no thief can exist) runs inline as a
 * plain loop (<adapt/loop.h>); what it does not cover goes to the
 * function. From a body: the argument and attribute errors with their
 * detail, an empty range, every index once under each scheduler that
 * takes the inline path or not, a grain bounding every call, a worker
 * limit, a scope with a spawned task in a plain loop's body, and a
 * cancelled plain loop's -ECANCELED and detail. */
typedef struct inline_nest {
  int bad, step;
} inline_nest;

typedef struct chunk_log {
  unsigned char hits[10];
  size_t calls, widest;
} chunk_log;

static void chunk_body(size_t b, size_t e, void *ctx) {
  chunk_log *c = ctx;
  c->calls++;
  if (e - b > c->widest) c->widest = e - b;
  for (size_t i = b; i < e; i++) c->hits[i]++;
}

static int chunks_once(const chunk_log *c) {
  for (size_t i = 0; i < 10; i++)
    if (c->hits[i] != 1) return 0;
  return 1;
}

static void spawned_task(void *arg) { (*(int *)arg)++; }

static void scope_body(size_t b, size_t e, void *ctx) {
  int *runs = ctx;
  for (size_t i = b; i < e; i++) {
    adapt_scope s;
    if (adapt_scope_begin(&s) != 0 || adapt_spawn(&s, spawned_task, runs) != 0 ||
        adapt_sync(&s) != 0)
      *runs = -1000;
  }
}

static void cancel_at_3(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    (*(int *)ctx)++;
    if (i == 3) adapt_cancel();
  }
}

/* Check cond in inline_body: the first failing step is recorded. */
#define INLINE_CHECK(x, cond)                                                                      \
  do {                                                                                             \
    (x)->step++;                                                                                   \
    if (!(cond) && !(x)->bad) (x)->bad = (x)->step;                                                \
  } while (0)

static void inline_body(size_t b, size_t e, void *ctx) {
  inline_nest *x = ctx;
  int calls = 0;
  INLINE_CHECK(x, adapt_for(0, 10, NULL, NULL, NULL) == -EINVAL &&
                      strstr(adapt_last_error(), "body is NULL"));
  INLINE_CHECK(x, adapt_for(10, 9, count_calls, &calls, NULL) == -EINVAL);
  INLINE_CHECK(x, adapt_for(5, 5, count_calls, &calls, NULL) == 0 && calls == 0);
  adapt_attr bad = {0};
  bad.sched = (adapt_sched)99;
  INLINE_CHECK(x, adapt_for(0, 10, count_calls, &calls, &bad) == -EINVAL);
  bad.sched = ADAPT_SCHED_LAZY_DF2;
  bad.window = ADAPT_WINDOW_STATIC;
  INLINE_CHECK(x, adapt_for(0, 10, count_calls, &calls, &bad) == -EINVAL &&
                      strstr(adapt_last_error(), "attr.window") && calls == 0);
  const adapt_sched scheds[] = {ADAPT_SCHED_DEFAULT, ADAPT_SCHED_LAZY_DF,  ADAPT_SCHED_LAZY_DF2,
                                ADAPT_SCHED_LAZY_BF, ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_DAC};
  for (size_t si = 0; si < 6; si++) {
    chunk_log c = {{0}, 0, 0};
    adapt_attr a = {0};
    a.sched = scheds[si];
    a.grain = 3;
    INLINE_CHECK(x, adapt_for(0, 10, chunk_body, &c, &a) == 0 && chunks_once(&c) && c.widest <= 3 &&
                        adapt_worker_id() == 0);
  }
  chunk_log c = {{0}, 0, 0};
  INLINE_CHECK(x, adapt_for(0, 10, chunk_body, &c, NULL) == 0 && chunks_once(&c));
  chunk_log limited = {{0}, 0, 0};
  adapt_attr lim = {0};
  lim.max_workers = 1;
  lim.grain = 1;
  INLINE_CHECK(x, adapt_for(0, 10, chunk_body, &limited, &lim) == 0 && chunks_once(&limited) &&
                      limited.widest == 1);
  int runs = 0;
  adapt_attr one = {0};
  one.grain = 1;
  INLINE_CHECK(x, adapt_for(0, 4, scope_body, &runs, &one) == 0 && runs == 4);
  int ran = 0;
  INLINE_CHECK(x, adapt_for(0, 10, cancel_at_3, &ran, &one) == -ECANCELED && ran == 4 &&
                      strstr(adapt_last_error(), "adapt_for: cancelled by a body") &&
                      !adapt_cancelled());
}

static void test_nested_inline_one_worker(void **state) {
  inline_nest x = {0, 0};
  adapt_attr a = {0};
  a.sched = ADAPT_SCHED_ADAPTIVE;
  a.grain = 1;
  assert_int_equal(adapt_for(0, 1, inline_body, &x, &a), 0);
  assert_int_equal(x.bad, 0);
  assert_int_equal(x.step, 15);
}

/* A victim that does not reach a steal point for a long time: thieves
 * cancel their requests after the timeout instead of waiting for it. */
static void long_body(size_t b, size_t e, void *ctx) {
  if (b == 0) adapt_test_spin_ns(20000000); /* 20 ms without a steal point */
}

static void test_thief_timeout(void **state) {
  adapt_stats_reset();
  adapt_attr a = {0};
  a.grain = 1000000; /* one chunk: the owner never polls during it */
  int rounds = 0;
  adapt_worker_stats s;
  do {
    assert_int_equal(adapt_for(0, 2000000, long_body, NULL, &a), 0);
    assert_int_equal(adapt_stats_get(1, &s), 0);
  } while (s.requests_timeout == 0 && ++rounds < 50);
  assert_true(s.requests_timeout > 0);
}

/* --- Worker limit (adapt_attr.max_workers) among other callers ------ */

/* A limited call: each index marks its cell and its worker's bit. */
typedef struct limited {
  atomic_uchar *hits;
  atomic_uint ids;  /* bit w: worker w ran a body */
  atomic_int bad;   /* a body saw a worker id out of range */
  unsigned long ns; /* each index's time */
} limited;

static void limited_body(size_t b, size_t e, void *ctx) {
  limited *l = ctx;
  int id = adapt_worker_id();
  if (id >= 0 && id < 32)
    atomic_fetch_or_explicit(&l->ids, 1u << id, memory_order_relaxed);
  else if (id != -1) /* -1: a caller that runs alone while the pool is busy */
    atomic_store_explicit(&l->bad, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) {
    atomic_fetch_add_explicit(&l->hits[i], 1, memory_order_relaxed);
    adapt_test_spin_ns(l->ns);
  }
}

/* Run n indices with at most k workers: 1 if every index ran once, on at
 * most k distinct workers. */
static int limited_run(size_t n, unsigned k, unsigned long ns) {
  limited l = {calloc(n, 1), 0, 0, ns};
  if (!l.hits) return 0;
  adapt_attr a = {0};
  a.grain = 1;
  a.max_workers = k;
  int ok = adapt_for(0, n, limited_body, &l, &a) == 0 && !atomic_load(&l.bad) &&
           __builtin_popcount(atomic_load(&l.ids)) <= (int)k;
  for (size_t i = 0; i < n; i++) ok &= l.hits[i] == 1;
  free(l.hits);
  return ok;
}

static atomic_int callers_failed;
static void two_callers_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++)
    if (!limited_run(adapt_test_scale(2000, 400), (unsigned)(i + 2), 300))
      atomic_fetch_add(&callers_failed, 1);
}
static void *limited_main(void *arg) {
  return (void *)(intptr_t)limited_run(adapt_test_scale(2000, 400), (unsigned)(intptr_t)arg, 300);
}

/* Two calls with their own limits (2 and 3) at once: nested in one pool
 * call (both run by the pool's workers), then from two foreign threads
 * (one holds the pool, the other runs alone): every index once, at most k
 * distinct workers in each call. */
static void test_limit_two_callers(void **state) {
  adapt_attr a = {0};
  a.grain = 1;
  atomic_store(&callers_failed, 0);
  assert_int_equal(adapt_for(0, 2, two_callers_body, NULL, &a), 0);
  assert_int_equal(atomic_load(&callers_failed), 0);
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&t[i], NULL, limited_main, (void *)(i + 2)), 0);
  for (int i = 0; i < 2; i++) {
    void *ok;
    pthread_join(t[i], &ok);
    assert_int_equal((intptr_t)ok, 1);
  }
}

/* --- adapt_with_workers: a limit over everything a function calls ------- */

typedef struct with_k {
  limited l;
  size_t n;       /* indices per loop */
  unsigned inner; /* 0, or the limit of a nested adapt_with_workers */
  int rc[3];      /* the two loops', the nested call's */
  int cancel_rc;  /* adapt_cancel from fn's own code */
} with_k;

static void with_k_fn(void *p) {
  with_k *c = p;
  if (c->inner) {
    unsigned k = c->inner;
    c->inner = 0;
    c->rc[2] = adapt_with_workers(k, with_k_fn, c);
    return;
  }
  adapt_attr a = {0};
  a.grain = 1;
  c->rc[0] = adapt_for(0, c->n, limited_body, &c->l, &a);
  c->rc[1] = adapt_for(c->n, 2 * c->n, limited_body, &c->l, &a);
  c->cancel_rc = adapt_cancel();
}

/* Two loops under adapt_with_workers(k) (nested: under (3) then (inner)):
 * 1 if every index ran once on at most k distinct workers in all, and fn's
 * own adapt_cancel returned want_cancel. */
static int with_k_run(unsigned k, unsigned inner, int want_cancel) {
  with_k c = {{NULL, 0, 0, 300}, adapt_test_scale(1000, 300), inner, {-1, -1, 0}, 1};
  c.l.hits = calloc(2 * c.n, 1);
  if (!c.l.hits) return 0;
  unsigned most = inner && inner < k ? inner : k;
  int ok = adapt_with_workers(k, with_k_fn, &c) == 0 && c.rc[0] == 0 && c.rc[1] == 0 &&
           c.rc[2] == 0 && c.cancel_rc == want_cancel && !atomic_load(&c.l.bad) &&
           __builtin_popcount(atomic_load(&c.l.ids)) <= (int)most;
  for (size_t i = 0; i < 2 * c.n; i++) ok &= c.l.hits[i] == 1;
  free(c.l.hits);
  return ok;
}

static void with_k_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++)
    if (!with_k_run(2, 0, 0)) atomic_fetch_add(&callers_failed, 1);
}

static void set_flag(void *p) { *(int *)p = 1; }

/* adapt_with_workers: errors; k 0 calls fn as is; the loops fn makes keep
 * to k workers in all (nested: the smaller limit); fn's adapt_cancel is
 * -EPERM at top level and cancels the enclosing loop inside one. */
static void test_with_workers(void **state) {
  assert_int_equal(adapt_with_workers(2, NULL, NULL), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "fn is NULL"));
  int called = 0;
  assert_int_equal(adapt_with_workers(0, set_flag, &called), 0);
  assert_int_equal(called, 1);
  for (unsigned k = 1; k <= 3; k++) assert_true(with_k_run(k, 0, -EPERM));
  assert_true(with_k_run(3, 1, -EPERM));
  adapt_attr a = {0};
  a.grain = 1;
  atomic_store(&callers_failed, 0);
  assert_int_equal(adapt_for(0, 1, with_k_body, NULL, &a), -ECANCELED);
  assert_int_equal(atomic_load(&callers_failed), 0);
}

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec * 1e-6; }

/* Workers left out of a call limited to one worker sleep while it runs
 * (they do not keep asking its owner): with 8 workers, the CPU time of
 * every thread but the caller stays a small part of the call's time. */
static void test_limit_excluded_sleep(void **state) {
  struct rusage r0, r1;
  struct timespec c0, c1, t0, t1;
  assert_int_equal(adapt_worker_id(), 0);
  adapt_stats_reset();
  getrusage(RUSAGE_SELF, &r0);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  size_t n = adapt_test_scale(4000, 1000);
  assert_true(limited_run(n, 1, 25000));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  getrusage(RUSAGE_SELF, &r1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  double mine = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
  double all =
      seconds(r1.ru_utime) - seconds(r0.ru_utime) + seconds(r1.ru_stime) - seconds(r0.ru_stime);
  uint64_t posted = 0;
  for (int w = 1; w < adapt_num_workers(); w++) {
    adapt_worker_stats st;
    assert_int_equal(adapt_stats_get(w, &st), 0);
    posted += st.requests_posted;
  }
  fprintf(stderr,
          "  limit 1 of 8 workers: call %.3f s, caller %.3f s of CPU, the others %.3f s "
          "(%llu requests)\n",
          wall, mine, all - mine, (unsigned long long)posted);
  assert_true(all - mine < wall / 4);
  assert_true(posted < n / 2); /* spinning, they ask about twice per index */
}

/* A loop too short to finish the automatic grain's calibration goes on
 * with it in the next call of the same body (loop.c, the grain table): on
 * one worker, 16 iterations take 5 chunks the first time (grains 1, 2, 4,
 * 8, then the last index), then one. A chunk stretched by a preemption may
 * halve the grain once; at most two later calls may run more than one. */
static atomic_size_t short_chunks;

static void short_body(size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit(&short_chunks, 1, memory_order_relaxed);
  size_t *sum = ctx;
  for (size_t i = b; i < e; i++) sum[0] += i;
}

static void test_short_loop_calibration_goes_on(void **state) {
  size_t sum = 0, multi = 0;
  for (int call = 0; call < 12; call++) {
    atomic_store(&short_chunks, 0);
    assert_int_equal(adapt_for(0, 16, short_body, &sum, NULL), 0);
    size_t chunks = atomic_load(&short_chunks);
    if (call == 0) assert_true(chunks >= 2);
    if (call > 0 && chunks > 1) multi++;
  }
  assert_int_equal(sum, 12 * (15 * 16 / 2));
  assert_true(multi <= 2);
}

int main(void) {
  if (sched_getaffinity(0, sizeof initial_cpus, &initial_cpus) != 0) return 1;
  const struct CMUnitTest tests[] = {
      ADAPT_TEST(test_errors),
      ADAPT_TEST(test_exactly_once),
      ADAPT_TEST(test_nested_three_levels),
      ADAPT_TEST(test_owner_loop_inline),
      ADAPT_TEST_WORKERS(test_nested_inline_one_worker, 1),
      ADAPT_TEST_WORKERS(test_short_loop_calibration_goes_on, 1),
      ADAPT_TEST_WORKERS(test_back_to_back_regions, 2),
      ADAPT_TEST_WORKERS(test_foreign_threads, 3),
      ADAPT_TEST_WORKERS(test_limit_two_callers, 8),
      ADAPT_TEST_WORKERS(test_limit_excluded_sleep, 8),
      ADAPT_TEST_WORKERS(test_with_workers, 4),
      ADAPT_TEST_WORKERS(test_finalize_while_busy, 2),
      ADAPT_TEST_WORKERS(test_thief_timeout, 2),
  };
  return adapt_test_run("loop", tests);
}
