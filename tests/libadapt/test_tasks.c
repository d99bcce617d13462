/* spawn/sync: fib and nqueens through spawn/sync and nested loops, every
 * task exactly once under the THE races (one task left, thief and owner
 * together), loops inside tasks and tasks inside loops, a victim's spawned
 * task before its adaptive work (also for a request posted before the
 * spawn), the owner's inline fast path (slot reuse, cancellation
 * barrier), adapt_fork/adapt_join, errors. */
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "adapt_test.h"
#include "../../libadapt/src/rt.h"     /* white-box: adapt__rt.membarrier, sleepers */
#include "../../libadapt/src/worker.h" /* white-box: a deque's thieves' word */

static const int worker_counts[] = {1, 2, 3, 8};

/* fib, no cut-off: through spawn/sync (a scope) or, with fork, through
 * adapt_fork/adapt_join */
typedef struct fib_arg {
  int n, fork;
  long r;
} fib_arg;
static long fib(int n, int fork);
static void fib_task(void *p) {
  fib_arg *a = p;
  a->r = fib(a->n, a->fork);
}
static long fib(int n, int fork) {
  if (n < 2) return n;
  fib_arg a = {n - 1, fork, 0};
  long b;
  if (fork) {
    adapt_child c;
    assert_int_equal(adapt_fork(&c, fib_task, &a), 0);
    b = fib(n - 2, fork);
    assert_int_equal(adapt_join(&c), 0);
  } else {
    adapt_scope s;
    assert_int_equal(adapt_scope_begin(&s), 0);
    assert_int_equal(adapt_spawn(&s, fib_task, &a), 0);
    b = fib(n - 2, fork);
    assert_int_equal(adapt_sync(&s), 0);
  }
  return a.r + b;
}

/* fib(n) by the sequential loop */
static long fib_expected(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long next = a + b;
    a = b;
    b = next;
  }
  return a;
}

static void test_fib(void **state) {
  int n = (int)adapt_test_scale(30, 24);
  for (int k = 0; k < 4; k++) {
    assert_int_equal(adapt_test_workers(worker_counts[k]), 0);
    assert_int_equal(fib(n, 0), fib_expected(n));
  }
}

/* nqueens: board as an array of columns; spawn per candidate column. */
typedef struct nq {
  int n, row;
  signed char cols[16];
  long count;
} nq;
static void nq_task(void *p);
static long nq_spawn(int n, int row, const signed char *cols) {
  if (row == n) return 1;
  nq sub[16];
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  for (int c = 0; c < n; c++) {
    sub[c].count = 0;
    if (!adapt_test_queen_next(cols, row, c, sub[c].cols)) continue;
    sub[c].n = n;
    sub[c].row = row + 1;
    assert_int_equal(adapt_spawn(&s, nq_task, &sub[c]), 0);
  }
  assert_int_equal(adapt_sync(&s), 0);
  long total = 0;
  for (int c = 0; c < n; c++) total += sub[c].count;
  return total;
}
static void nq_task(void *p) {
  nq *q = p;
  q->count = nq_spawn(q->n, q->row, q->cols);
}

/* the same through a parallel loop per row (nested adapt_for) */
typedef struct nq_loop {
  int n, row;
  const signed char *cols;
  atomic_long *count;
} nq_loop;
static void nq_row(size_t b, size_t e, void *ctx);
static void nq_loops(int n, int row, const signed char *cols, atomic_long *count) {
  if (row == n) {
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    return;
  }
  nq_loop l = {n, row, cols, count};
  adapt_attr a = {0};
  a.grain = 1;
  assert_int_equal(adapt_for(0, (size_t)n, nq_row, &l, &a), 0);
}
static void nq_row(size_t b, size_t e, void *ctx) {
  nq_loop *l = ctx;
  for (size_t c = b; c < e; c++) {
    signed char cols[16];
    if (adapt_test_queen_next(l->cols, l->row, (int)c, cols))
      nq_loops(l->n, l->row + 1, cols, l->count);
  }
}

static void test_nqueens(void **state) {
  int n = (int)adapt_test_scale(10, 8);
  long expect = n == 10 ? 724 : 92;
  signed char cols[16] = {0};
  for (int k = 0; k < 4; k++) {
    assert_int_equal(adapt_test_workers(worker_counts[k]), 0);
    assert_int_equal(nq_spawn(n, 0, cols), expect);
    atomic_long count = 0;
    nq_loops(n, 0, cols, &count);
    assert_int_equal(atomic_load(&count), expect);
  }
}

/* Every task exactly once: bursts of k tiny tasks synced at once, so that
 * the owner's pops and the thieves' steals meet on the last task. */
static void mark(void *p) { (*(unsigned char *)p)++; }

/* One scope spawning mark on hits[0, m), synced; each hit exactly once. */
static void spawn_marks(unsigned char *hits, size_t m) {
  memset(hits, 0, m);
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  for (size_t i = 0; i < m; i++) assert_int_equal(adapt_spawn(&s, mark, &hits[i]), 0);
  assert_int_equal(adapt_sync(&s), 0);
  for (size_t i = 0; i < m; i++) assert_int_equal(hits[i], 1);
}

static void test_exactly_once_races(void **state) {
  unsigned char hits[64];
  size_t rounds = adapt_test_scale(20000, 3000);
  for (int k = 1; k < 4; k++) {
    assert_int_equal(adapt_test_workers(worker_counts[k]), 0);
    for (size_t r = 0; r < rounds; r++)
      spawn_marks(hits, 1 + r % 5); /* often one or two tasks: the THE race */
  }
}

/* More tasks than ADAPT_DEQUE_CAP: pushed, the ones past the capacity run
 * at once (eager); lazy, most run at once. */
static void test_many_tasks(void **state) {
  size_t n = 20000;
  unsigned char *hits = calloc(n, 1);
  for (int eager = 0; eager < 2; eager++) {
    assert_int_equal(adapt_test_workers_spawn(2, eager), 0);
    spawn_marks(hits, n);
  }
  free(hits);
}

/* Loops inside spawned tasks and tasks inside loop bodies. */
typedef struct lt {
  unsigned char *hits;
  size_t n;
} lt;
static void lt_body(size_t b, size_t e, void *ctx) {
  lt *l = ctx;
  for (size_t i = b; i < e; i++) l->hits[i]++;
}
static void lt_task(void *p) {
  lt *l = p;
  assert_int_equal(adapt_for(0, l->n, lt_body, l, NULL), 0);
}
static void spawn_body(size_t b, size_t e, void *ctx) {
  unsigned char *hits = ctx;
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  for (size_t i = b; i < e; i++) assert_int_equal(adapt_spawn(&s, mark, &hits[i]), 0);
  assert_int_equal(adapt_sync(&s), 0);
}

static void test_mixed_nesting(void **state) {
  for (int k = 0; k < 4; k++) {
    assert_int_equal(adapt_test_workers(worker_counts[k]), 0);
    enum { T = 8, N = 5000 };
    lt l[T];
    adapt_scope s;
    assert_int_equal(adapt_scope_begin(&s), 0);
    for (int t = 0; t < T; t++) {
      l[t].hits = calloc(N, 1);
      l[t].n = N;
      assert_int_equal(adapt_spawn(&s, lt_task, &l[t]), 0);
    }
    assert_int_equal(adapt_sync(&s), 0);
    for (int t = 0; t < T; t++) {
      for (size_t i = 0; i < N; i++) assert_int_equal(l[t].hits[i], 1);
      free(l[t].hits);
    }
    unsigned char *hits = calloc(100000, 1);
    adapt_attr a = {0};
    a.grain = 64;
    assert_int_equal(adapt_for(0, 100000, spawn_body, hits, &a), 0);
    for (size_t i = 0; i < 100000; i++) assert_int_equal(hits[i], 1);
    free(hits);
  }
}

/* Spawned tasks first, also for a request posted before the spawn: the
 * caller's first chunk of an adaptive loop sleeps while the idle worker
 * runs whatever piece it got (its chunks return at once) and posts a
 * request, then spawns a task (in a scope begun before the loop) and goes
 * on. The pending request must fail (the oldest deque entry is a task), so
 * that no chunk runs on the thief between the spawn and the task. */
typedef struct first_ctx {
  pthread_t caller;
  adapt_scope *scope;
  atomic_int spawned, task_ran, pieces_before;
} first_ctx;

static void first_task(void *p) {
  first_ctx *x = p;
  /* relaxed: test records, read after adapt_sync (which joins the task) */
  atomic_store_explicit(&x->task_ran, 1, memory_order_relaxed);
}

static void first_body(size_t b, size_t e, void *ctx) {
  first_ctx *x = ctx;
  if (!pthread_equal(pthread_self(), x->caller)) {
    if (atomic_load_explicit(&x->spawned, memory_order_relaxed) &&
        !atomic_load_explicit(&x->task_ran, memory_order_relaxed))
      atomic_fetch_add_explicit(&x->pieces_before, 1, memory_order_relaxed);
    return;
  }
  struct timespec ts = {0, 200000}; /* 0.2 ms a chunk: the loop lasts */
  if (!atomic_load_explicit(&x->spawned, memory_order_relaxed)) {
    ts.tv_nsec = 50000000; /* 50 ms: the idle worker posts its request */
    nanosleep(&ts, NULL);
    assert_int_equal(adapt_spawn(x->scope, first_task, x), 0);
    atomic_store_explicit(&x->spawned, 1, memory_order_relaxed);
    return;
  }
  nanosleep(&ts, NULL);
}

static void test_task_before_pending_request(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  for (int round = 0; round < 3; round++) {
    adapt_scope s;
    first_ctx x;
    x.caller = pthread_self();
    x.scope = &s;
    atomic_init(&x.spawned, 0);
    atomic_init(&x.task_ran, 0);
    atomic_init(&x.pieces_before, 0);
    assert_int_equal(adapt_scope_begin(&s), 0);
    adapt_attr a = {0};
    a.sched = ADAPT_SCHED_ADAPTIVE;
    a.grain = 1;
    assert_int_equal(adapt_for(0, 200, first_body, &x, &a), 0);
    assert_int_equal(adapt_sync(&s), 0);
    assert_int_equal(atomic_load(&x.task_ran), 1);
    assert_int_equal(atomic_load(&x.pieces_before), 0);
  }
}

/* The owner's fast path (one worker: every sync pops its own task and runs
 * it inline): a task that spawns again reuses the slot just popped; an
 * inline task is its own cancellation context (adapt_cancel in it reaches
 * neither the enclosing loop nor anything else); a loop cancelled inside an
 * inline task reports it to that task alone. */
typedef struct fp {
  unsigned char *hits;
  int depth;
  int cancel_rc, loop_rc;
} fp;
static void fp_task(void *p);
static void fp_spawn(unsigned char *hits, int depth, fp *kids) {
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  for (int i = 0; i < 2; i++) {
    kids[i] = (fp){hits + i * (1 << depth), depth, 1, 1};
    assert_int_equal(adapt_spawn(&s, fp_task, &kids[i]), 0);
  }
  assert_int_equal(adapt_sync(&s), 0);
}
static void fp_cancel_body(size_t b, size_t e, void *ctx) { (void)adapt_cancel(); }
static void fp_task(void *p) {
  fp *a = p;
  a->cancel_rc = adapt_cancel();
  a->loop_rc = adapt_for(0, 4, fp_cancel_body, NULL, NULL);
  if (a->depth == 0) {
    a->hits[0]++;
    return;
  }
  fp kids[2];
  fp_spawn(a->hits, a->depth - 1, kids);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(kids[i].cancel_rc, -EPERM);
    assert_int_equal(kids[i].loop_rc, -ECANCELED);
  }
}
static void fp_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    fp kids[2];
    fp_spawn((unsigned char *)ctx + i * 16, 3, kids);
    for (int k = 0; k < 2; k++) assert_int_equal(kids[k].cancel_rc, -EPERM);
  }
}

static void test_fast_path(void **state) {
  enum { N = 8 };
  unsigned char hits[N * 16];
  for (int k = 0; k < 2; k++) {
    assert_int_equal(adapt_test_workers(worker_counts[k]), 0);
    memset(hits, 0, sizeof hits);
    /* The tasks' adapt_cancel reaches no loop: this one completes. */
    assert_int_equal(adapt_for(0, N, fp_body, hits, NULL), 0);
    for (int i = 0; i < N * 16; i++) assert_int_equal(hits[i], 1);
  }
}

/* The exported functions (what a C caller taking their address or dlsym
 * gets) and the inline fast paths of a call adapt_spawn(...) work on the
 * same scope, in any mix (adapt_scope_begin too, nested); a closed scope is refused by both; on one worker
 * a deque filled past its capacity runs the extra tasks at once; lazy
 * spawns and eager ones alike. */
static void test_exported(void **state) {
  int (*spawn)(adapt_scope *, void (*)(void *), void *) = adapt_spawn;
  int (*sync)(adapt_scope *) = adapt_sync;
  int (*begin)(adapt_scope *) = adapt_scope_begin;
  size_t n = ADAPT__DEQUE_CAP + 16;
  unsigned char *hits = calloc(n, 1);
  assert_non_null(hits);
  for (int k = 0; k < 4; k++) {
    int w = 1 + k % 2;
    assert_int_equal(adapt_test_workers_spawn(w, k / 2), 0);
    memset(hits, 0, n);
    adapt_scope s;
    assert_int_equal(adapt_scope_begin(&s), 0);
    for (size_t i = 0; i < n; i++)
      assert_int_equal(i % 3 ? adapt_spawn(&s, mark, &hits[i]) : spawn(&s, mark, &hits[i]), 0);
    assert_int_equal(w == 1 ? sync(&s) : adapt_sync(&s), 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(hits[i], 1);
    assert_int_equal(sync(&s), -EINVAL); /* closed */
    assert_int_equal(adapt_sync(&s), -EINVAL);
    assert_int_equal(spawn(&s, mark, hits), -EINVAL);
    assert_int_equal(adapt_spawn(&s, mark, hits), -EINVAL);
    assert_int_equal(hits[0], 1);
    /* inline spawn, exported sync after an inline one ran a task */
    assert_int_equal(adapt_scope_begin(&s), 0);
    assert_int_equal(spawn(&s, mark, &hits[0]), 0);
    assert_int_equal(adapt_spawn(&s, mark, &hits[1]), 0);
    assert_int_equal(adapt_spawn(&s, mark, &hits[2]), 0);
    assert_int_equal(sync(&s), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(hits[i], 2);
    /* nested scopes begun inline (in a region) and by the function, each
     * synced by the other kind; out of order refused by both kinds */
    assert_int_equal(adapt_scope_begin(&s), 0);
    adapt_scope a, b;
    assert_int_equal(adapt_scope_begin(&a), 0);
    assert_int_equal(begin(&b), 0);
    assert_int_equal(adapt_spawn(&b, mark, &hits[0]), 0);
    assert_int_equal(spawn(&a, mark, &hits[1]), 0);
    assert_int_equal(adapt_sync(&a), -EINVAL); /* b is still open */
    assert_int_equal(sync(&a), -EINVAL);
    assert_int_equal(adapt_sync(&b), 0);
    assert_int_equal(sync(&a), 0);
    assert_int_equal(begin(&a), 0);
    assert_int_equal(adapt_scope_begin(&b), 0);
    assert_int_equal(spawn(&b, mark, &hits[2]), 0);
    assert_int_equal(sync(&b), 0);
    assert_int_equal(adapt_spawn(&a, mark, &hits[3]), 0);
    assert_int_equal(adapt_sync(&a), 0);
    assert_int_equal(adapt_sync(&s), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(hits[i], 3);
    assert_int_equal(hits[3], 2);
  }
  free(hits);
}

/* adapt_fork/adapt_join: fib and exactly-once marks through children
 * (joined inline, or stolen and waited for), a task stolen for sure (the
 * owner waits for a thief to start it), children nested LIFO past the
 * deque's capacity (the rest run at once), mixed with scopes, the
 * cancellation barrier, the exported functions, errors. */
typedef struct fork_marks {
  unsigned char *hits;
  size_t n;
} fork_marks;
static void fork_marks_task(void *p) {
  fork_marks *m = p;
  if (m->n == 1) {
    m->hits[0]++;
    return;
  }
  fork_marks l = {m->hits, m->n / 2}, r = {m->hits + m->n / 2, m->n - m->n / 2};
  adapt_child c;
  assert_int_equal(adapt_fork(&c, fork_marks_task, &l), 0);
  fork_marks_task(&r);
  assert_int_equal(adapt_join(&c), 0);
}
typedef struct fork_steal {
  atomic_int started;
  const void *thread;
  int done;
} fork_steal;
static void fork_steal_task(void *p) {
  fork_steal *f = p;
  f->thread = (const void *)pthread_self();
  /* release: pairs with the owner's acquire load below (a hint only: the
   * join orders everything) */
  atomic_store_explicit(&f->started, 1, memory_order_release);
  nanosleep(&(struct timespec){0, 2000000}, NULL); /* the join waits meanwhile */
  f->done = 1;
}
static void fork_cancel_task(void *p) {
  fp *a = p;
  a->cancel_rc = adapt_cancel();
  a->loop_rc = adapt_for(0, 4, fp_cancel_body, NULL, NULL);
}
static void fork_cancel_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    fp a = {0};
    adapt_child c;
    assert_int_equal(adapt_fork(&c, fork_cancel_task, &a), 0);
    assert_int_equal(adapt_join(&c), 0);
    assert_int_equal(a.cancel_rc, -EPERM);
    assert_int_equal(a.loop_rc, -ECANCELED);
    ((unsigned char *)ctx)[i]++;
  }
}

static void fork_cancelled_task(void *p) { *(int *)p = adapt_cancelled(); }
/* Cancels its loop, then a child sees no cancellation (barrier) and the
 * body sees it again after the join. */
static void fork_cancelled_body(size_t b, size_t e, void *ctx) {
  assert_int_equal(adapt_cancel(), 0);
  int seen = -1;
  adapt_child c;
  assert_int_equal(adapt_fork(&c, fork_cancelled_task, &seen), 0);
  assert_int_equal(adapt_join(&c), 0);
  assert_int_equal(seen, 0);
  assert_int_equal(adapt_cancelled(), 1);
  atomic_fetch_add_explicit((atomic_int *)ctx, 1, memory_order_relaxed);
}

static void test_fork_join(void **state) {
  int n = (int)adapt_test_scale(24, 18);
  size_t m = adapt_test_scale(1u << 16, 1u << 12), many = ADAPT__DEQUE_CAP + 16;
  unsigned char *hits = calloc(many > m ? many : m, 1);
  adapt_child *kids = calloc(many, sizeof *kids);
  assert_true(hits && kids);
  int (*fork)(adapt_child *, void (*)(void *), void *) = adapt_fork;
  int (*join)(adapt_child *) = adapt_join;
  for (int mode = 0; mode < 4; mode++) {
    int k = mode % 2; /* 1 or 2 workers, lazy spawns, then eager ones */
    assert_int_equal(adapt_test_workers_spawn(worker_counts[k], mode / 2), 0);
    assert_int_equal(fib(n, 1), fib_expected(n)); /* top level: the function */
    memset(hits, 0, m);
    fork_marks all = {hits, m};
    fork_marks_task(&all);
    for (size_t i = 0; i < m; i++) assert_int_equal(hits[i], 1);
    /* In a region: nested LIFO past the capacity, half through pointers. */
    adapt_scope s;
    assert_int_equal(adapt_scope_begin(&s), 0);
    memset(hits, 0, many);
    for (size_t i = 0; i < many; i++)
      assert_int_equal((i % 2 ? fork : adapt_fork)(&kids[i], mark, &hits[i]), 0);
    assert_int_equal(adapt_spawn(&s, mark, &hits[0]), 0);
    assert_int_equal(adapt_sync(&s), -EINVAL); /* the children are open */
    assert_int_equal(adapt_join(&kids[0]), -EINVAL);
    for (size_t i = many; i-- > 0;) assert_int_equal((i % 3 ? join : adapt_join)(&kids[i]), 0);
    assert_int_equal(adapt_join(&kids[1]), -EINVAL); /* joined */
    assert_int_equal(join(&kids[1]), -EINVAL);
    assert_int_equal(adapt_sync(&s), 0);
    assert_int_equal(hits[0], 2);
    for (size_t i = 1; i < many; i++) assert_int_equal(hits[i], 1);
    /* A task of the enclosing scope spawned while a child is open lies
     * above the child's entry: the join runs it first (one worker: no
     * thief may take it), then the child; each exactly once. */
    assert_int_equal(adapt_scope_begin(&s), 0);
    memset(hits, 0, 2);
    assert_int_equal(adapt_fork(&kids[0], mark, &hits[0]), 0);
    assert_int_equal(adapt_spawn(&s, mark, &hits[1]), 0);
    assert_int_equal(adapt_join(&kids[0]), 0);
    assert_int_equal(hits[0], 1);
    if (k == 0) assert_int_equal(hits[1], 1);
    assert_int_equal(adapt_sync(&s), 0);
    assert_int_equal(hits[1], 1);
    /* Stolen for sure with two workers: wait (bounded) for a thief. */
    assert_int_equal(adapt_scope_begin(&s), 0);
    fork_steal f = {0};
    /* The frame's bytes as a stack may hold them: a remote that already
     * balances the one task; the fork leaves it, the thief zeroes it. */
    memset(&kids[0], 0xff, sizeof kids[0]);
    ((adapt__child_layout *)(void *)&kids[0])->remote = 1;
    ((adapt__child_layout *)(void *)&kids[0])->splits = 0;
    assert_int_equal(adapt_fork(&kids[0], fork_steal_task, &f), 0);
    for (int t = 0; k == 1 && t < 20000; t++) {
      if (atomic_load_explicit(&f.started, memory_order_acquire)) break;
      nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    assert_int_equal(adapt_join(&kids[0]), 0);
    assert_int_equal(atomic_load_explicit(&f.started, memory_order_relaxed), 1);
    assert_int_equal(f.done, 1);
    if (k == 0) assert_ptr_equal(f.thread, (const void *)pthread_self());
    assert_int_equal(adapt_sync(&s), 0);
    /* The barrier: adapt_cancel in a child reaches no loop. */
    memset(hits, 0, 8);
    assert_int_equal(adapt_for(0, 8, fork_cancel_body, hits, NULL), 0);
    for (int i = 0; i < 8; i++) assert_int_equal(hits[i], 1);
    atomic_int bodies = 0;
    assert_int_equal(adapt_for(0, 64, fork_cancelled_body, &bodies, NULL), -ECANCELED);
    assert_true(atomic_load_explicit(&bodies, memory_order_relaxed) >= 1);
  }
  free(kids);
  free(hits);
}

/* Lazy spawns (ADAPT_SPAWN_KEEP; docs/design.md, "Spawned tasks"): on one
 * worker every task runs inside its adapt_spawn or adapt_fork, inline or
 * through the functions, and the frames and scopes are checked as before
 * (a child run at once is open until its join: a sync out of order, a
 * join from another thread and a second join are refused); eager
 * (ADAPT_SPAWN_KEEP=0), the task waits for the sync or the join; on two
 * workers the owner's deque never holds more than 2 entries and most
 * tasks run at once, each exactly once. */
typedef struct elsewhere {
  adapt_child *c;
  adapt_scope *s;
  int join_rc, sync_rc;
} elsewhere;
static void *join_elsewhere(void *p) {
  elsewhere *e = p;
  e->join_rc = adapt_join(e->c);
  e->sync_rc = adapt_sync(e->s);
  return NULL;
}
static pthread_t lazy_caller;
static int lazy_in_spawn;
static size_t lazy_depth_max;
static void lazy_task(void *p) {
  unsigned char *hit = p;
  /* 2: run inside the spawn call on its thread; 1: elsewhere or later
   * (only the caller's thread reads lazy_in_spawn) */
  *hit = (unsigned char)(1 + (pthread_equal(pthread_self(), lazy_caller) && lazy_in_spawn));
}
static void test_lazy_spawn(void **state) {
  int (*spawn)(adapt_scope *, void (*)(void *), void *) = adapt_spawn;
  int (*fork)(adapt_child *, void (*)(void *), void *) = adapt_fork;
  int (*join)(adapt_child *) = adapt_join;
  for (int eager = 0; eager < 2; eager++) {
    assert_int_equal(adapt_test_workers_spawn(1, eager), 0);
    unsigned char x[6] = {0};
    adapt_scope top, in;
    assert_int_equal(adapt_scope_begin(&top), 0); /* top level: the function */
    assert_int_equal(adapt_spawn(&top, mark, &x[0]), 0);
    assert_int_equal(x[0], !eager);
    assert_int_equal(adapt_scope_begin(&in), 0); /* nested: inline */
    assert_int_equal(adapt_spawn(&in, mark, &x[1]), 0);
    assert_int_equal(spawn(&in, mark, &x[2]), 0);
    assert_int_equal(x[1] + x[2], eager ? 0 : 2);
    adapt_child c, d;
    assert_int_equal(adapt_fork(&c, mark, &x[3]), 0);
    assert_int_equal(fork(&d, mark, &x[4]), 0);
    assert_int_equal(x[3] + x[4], eager ? 0 : 2);
    assert_int_equal(adapt_sync(&in), -EINVAL); /* c and d are open */
    assert_int_equal(adapt_join(&c), -EINVAL);  /* out of order: d first */
    elsewhere e = {&d, &in, 0, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, join_elsewhere, &e), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(e.join_rc, -EINVAL);
    assert_int_equal(e.sync_rc, -EINVAL);
    assert_int_equal(join(&d), 0);
    assert_int_equal(adapt_join(&d), -EINVAL); /* joined */
    assert_int_equal(adapt_join(&c), 0);
    assert_int_equal(join(&c), -EINVAL);
    assert_int_equal(adapt_sync(&in), 0);
    assert_int_equal(adapt_sync(&top), 0);
    for (int i = 0; i < 5; i++) assert_int_equal(x[i], 1);
  }
  /* Two workers: the thief takes the oldest of at most two entries. */
  assert_int_equal(adapt_test_workers_spawn(2, 0), 0);
  enum { N = 4000 };
  unsigned char *hits = calloc(N, 1);
  assert_non_null(hits);
  lazy_caller = pthread_self();
  lazy_depth_max = 0;
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  const adapt__deque_end *d = adapt__tls_dq;
  for (size_t i = 0; i < N; i++) {
    lazy_in_spawn = 1;
    assert_int_equal(adapt_spawn(&s, lazy_task, &hits[i]), 0);
    lazy_in_spawn = 0;
    /* relaxed: the owner's own tail, and the thieves' head as a bound */
    size_t depth = __atomic_load_n(&d->tail, __ATOMIC_RELAXED) -
                   __atomic_load_n(adapt__deque_head(d), __ATOMIC_RELAXED);
    if (depth < N && depth > lazy_depth_max) lazy_depth_max = depth;
  }
  assert_int_equal(adapt_sync(&s), 0);
  size_t at_once = 0;
  for (size_t i = 0; i < N; i++) {
    assert_true(hits[i] == 1 || hits[i] == 2);
    at_once += hits[i] == 2;
  }
  assert_true(lazy_depth_max <= 2);
  assert_true(at_once > 0);
  free(hits);
}

static void test_errors(void **state) {
  adapt_scope s;
  memset(&s, 0, sizeof s);
  assert_int_equal(adapt_scope_begin(NULL), -EINVAL);
  assert_int_equal(adapt_spawn(NULL, mark, NULL), -EINVAL);
  assert_int_equal(adapt_spawn(&s, mark, NULL), -EINVAL); /* not begun */
  assert_int_equal(adapt_sync(&s), -EINVAL);
  assert_int_equal(adapt_sync(NULL), -EINVAL);
  assert_int_equal(adapt_scope_begin(&s), 0);
  assert_int_equal(adapt_spawn(&s, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_try_finalize(), -EBUSY); /* inside a scope */
  assert_int_equal(adapt_sync(&s), 0);
  assert_int_equal(adapt_sync(&s), -EINVAL); /* closed */
  adapt_child c;
  memset(&c, 0, sizeof c);
  assert_int_equal(adapt_fork(NULL, mark, NULL), -EINVAL);
  assert_int_equal(adapt_join(&c), -EINVAL); /* not forked */
  assert_int_equal(adapt_join(NULL), -EINVAL);
  assert_int_equal(adapt_scope_begin(&s), 0);
  assert_int_equal(adapt_fork(&c, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_sync(&s), 0);
}

/* The idle protocol's pushes (adapt__push_end, adapt__deque_publish): a
 * worker asleep, or falling asleep as the push happens, wakes and takes
 * the entry: fallen asleep inside the region (the sleeper's membarrier)
 * or before it (no region ran: the next region's compare-and-swap
 * synchronizes with the sleeper's regions + 0), and with more
 * workers than ADAPT_MEMBARRIER_MAX_WORKERS (pushes that fence). The
 * owner waits (bounded) for a thief to start its one task: a lost wake-up
 * leaves the thieves asleep and fails the round. */
typedef struct wake_probe {
  atomic_int started;
  pthread_t thread;
} wake_probe;
static void wake_probe_task(void *p) {
  wake_probe *w = p;
  w->thread = pthread_self();
  /* release: pairs with the owner's acquire load in wake_round. */
  atomic_store_explicit(&w->started, 1, memory_order_release);
}
/* The wait before a round's push: `delay_ns`, or (0) until the other
 * worker sleeps. */
static void wake_delay(unsigned long long delay_ns) {
  if (delay_ns) {
    adapt_test_spin_ns(delay_ns);
    return;
  }
  for (int t = 0; t < 100000; t++) {
    /* relaxed: a hint of the other worker's state, nothing read after */
    if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_relaxed) > 0) break;
    nanosleep(&(struct timespec){0, 10000}, NULL);
  }
}
/* One round: a fork (or a spawn) after wake_delay(delay_ns), the wait
 * inside the region (the sleeper's membarrier, or pushes that fence) or
 * before it (no region: the sleeper skips the membarrier); the owner does
 * not run the task before a thief started it. */
static void wake_round(int fork, int in_region, unsigned long long delay_ns) {
  wake_probe w = {0};
  adapt_scope s;
  adapt_child c;
  if (!in_region) wake_delay(delay_ns);
  assert_int_equal(adapt_scope_begin(&s), 0);
  if (in_region) wake_delay(delay_ns);
  if (fork)
    assert_int_equal(adapt_fork(&c, wake_probe_task, &w), 0);
  else
    assert_int_equal(adapt_spawn(&s, wake_probe_task, &w), 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double waited = 0;
  /* acquire: pairs with the task's release store of started. */
  while (!atomic_load_explicit(&w.started, memory_order_acquire) && waited < 10.0) {
    clock_gettime(CLOCK_MONOTONIC, &t1);
    waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  }
  if (fork) assert_int_equal(adapt_join(&c), 0);
  assert_int_equal(adapt_sync(&s), 0);
  assert_int_equal(atomic_load_explicit(&w.started, memory_order_relaxed), 1);
  assert_false(pthread_equal(w.thread, pthread_self())); /* a thief ran it */
}
/* The owner's unfenced pop (adapt__deque_take) against announced thieves:
 * rounds of a fork or a spawn burst joined at once, each task marked with
 * the thread that ran it, on 2 workers (membarrier: pops unfenced while no
 * thief is announced) and past ADAPT_MEMBARRIER_MAX_WORKERS (every pop
 * fences). Every task runs exactly once, thieves take some, and after the
 * pass the thieves' word holds no announcement. */
typedef struct who {
  unsigned char hits;
  const void *thread;
} who;
static void who_task(void *p) {
  who *x = p;
  x->hits++;
  x->thread = (const void *)pthread_self();
}
typedef struct pop_rounds {
  size_t rounds, stolen;
} pop_rounds;
static void pop_rounds_task(void *p) {
  pop_rounds *pr = p;
  const void *self = (const void *)pthread_self();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t r = 0;; r++) {
    who x[3] = {{0}};
    size_t m = 1 + r % 3;
    if (r % 2) {
      adapt_child c;
      assert_int_equal(adapt_fork(&c, who_task, &x[0]), 0);
      /* mostly a short continuation (the pop meets a thief's THE steps);
       * every eighth one outlasts an announcement's membarrier */
      size_t spins = r % 16 == 15 ? 20000 : (r >> 1) % 64;
      for (volatile size_t spin = 0; spin < spins; spin++) continue;
      assert_int_equal(adapt_join(&c), 0);
      m = 1;
    } else {
      adapt_scope s;
      assert_int_equal(adapt_scope_begin(&s), 0);
      for (size_t i = 0; i < m; i++) assert_int_equal(adapt_spawn(&s, who_task, &x[i]), 0);
      assert_int_equal(adapt_sync(&s), 0);
    }
    for (size_t i = 0; i < m; i++) {
      assert_int_equal(x[i].hits, 1);
      pr->stolen += x[i].thread != self;
    }
    if (r + 1 < pr->rounds || (r % 256) != 0) continue;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* enough rounds, and a few thefts or 10 s */
    if (pr->stolen >= 8 || t1.tv_sec - t0.tv_sec >= 10) break;
  }
}
static void test_unfenced_pop_races(void **state) {
  for (int barrier = 1; barrier >= 0; barrier--) {
    adapt_finalize();
    adapt_config cfg = {0};
    cfg.workers = barrier ? 2 : ADAPT_MEMBARRIER_MAX_WORKERS + 1;
    assert_int_equal(adapt_init(&cfg), 0);
    size_t bias = adapt__rt.membarrier ? 0 : 1;
    if (!barrier) assert_int_equal(bias, 1);
    pop_rounds pr = {adapt_test_scale(40000, 4000), 0};
    adapt_child c;
    assert_int_equal(adapt_fork(&c, pop_rounds_task, &pr), 0); /* a region */
    assert_int_equal(adapt_join(&c), 0);
    assert_true(pr.stolen > 0);
    /* The rounds ran on worker 0's deque: its word counts no thief once the
     * last attempt ended (bounded wait: an idle thief may be in one). */
    atomic_size_t *wordp = &adapt__rt.workers[0]->dq.thieves;
    size_t word;
    for (int t = 0;; t++) {
      /* relaxed: a count, read alone */
      word = atomic_load_explicit(wordp, memory_order_relaxed);
      if ((word & ADAPT__THIEVES_COUNT) == bias || t == 100000) break;
      nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    assert_int_equal(word & ADAPT__THIEVES_COUNT, bias);
    if (bias == 0) assert_true(word > ADAPT__THIEVES_COUNT); /* thieves announced */
  }
}

static void test_push_wakes_sleeper(void **state) {
  int rounds = (int)adapt_test_scale(300, 60);
  unsigned seed = 12345;
  for (int barrier = 1; barrier >= 0; barrier--) {
    adapt_finalize();
    adapt_config cfg = {0};
    /* Past ADAPT_MEMBARRIER_MAX_WORKERS pushes fence (the seq_cst pair). */
    cfg.workers = barrier ? 2 : ADAPT_MEMBARRIER_MAX_WORKERS + 1;
    cfg.spin_us = 1; /* the thieves sleep soon after each round */
    assert_int_equal(adapt_init(&cfg), 0);
    if (!barrier)
      assert_int_equal(adapt__rt.membarrier, 0);
    else if (!adapt__rt.membarrier)
      printf("# membarrier(2) not available here: both passes take the fenced pushes\n");
    for (int r = 0; r < rounds; r++) {
      seed = seed * 1103515245u + 12345u;
      /* every fourth round waits for a sleep; the others push as the
       * thieves go to sleep (their spin is 1 µs); half of them wait inside
       * the region */
      wake_round(r % 2, (r >> 1) % 2, r % 4 == 0 ? 0 : 1000ull * ((seed >> 16) % 300u));
    }
  }
}

ADAPT_TEST_MAIN("tasks", ADAPT_TEST(test_errors), ADAPT_TEST(test_fib), ADAPT_TEST(test_nqueens),
                ADAPT_TEST(test_exactly_once_races), ADAPT_TEST(test_many_tasks),
                ADAPT_TEST(test_mixed_nesting), ADAPT_TEST(test_task_before_pending_request),
                ADAPT_TEST(test_fast_path), ADAPT_TEST(test_exported), ADAPT_TEST(test_fork_join),
                ADAPT_TEST(test_unfenced_pop_races), ADAPT_TEST(test_push_wakes_sleeper),
                ADAPT_TEST(test_lazy_spawn))
