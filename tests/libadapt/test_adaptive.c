/* The low-level adaptive API: a user splitter and reducer whose result
 * proves the reduction order (concatenated labels equal the sequential
 * string), with preemption forced, with many thieves and with nested tasks;
 * errors; the statistics and topology queries; idle thieves that sleep
 * on refusals, and ask again once their bounded sleep ends; the count of
 * idle workers. */
#include <adapt/adaptive.h>
#include <adapt/loop.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "adapt_test.h"
#include "../../libadapt/src/config.h" /* white-box: ADAPT_REFUSED_SLEEP */

/* Work: labels of [begin, end) to append to out (malloc'd, len chars). */
typedef struct label_work {
  size_t begin, end;
  char *out;
  size_t len, cap;
} label_work;

typedef struct label_ctx {
  size_t n;
  int preempt;      /* 1: owner preempts thieves; 0: waits in adapt_end */
  unsigned slow_ns; /* per element, on workers other than 0 */
  atomic_int oom;
  void (*nested)(size_t i, struct label_ctx *c); /* NULL, or run after element i */
} label_ctx;

static char label_of(size_t i) { return (char)('a' + (i * 7 + i / 26) % 26); }

static int append(label_work *w, const char *s, size_t n) {
  if (w->len + n + 1 > w->cap) {
    size_t cap = (w->len + n + 1) * 2;
    char *p = realloc(w->out, cap);
    if (!p) return -1;
    w->out = p;
    w->cap = cap;
  }
  memcpy(w->out + w->len, s, n);
  w->len += n;
  w->out[w->len] = '\0';
  return 0;
}

static void label_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  label_work *w = wv;
  size_t r = w->end - w->begin;
  if (r < 2) return;
  size_t pieces = (size_t)count + 1 < r ? (size_t)count + 1 : r;
  size_t piece = r / pieces;
  size_t e = w->end;
  for (size_t i = 1; i < pieces; i++) {
    label_work *t = adapt_reply(rs, e - piece);
    if (!t) break;
    t->begin = e - piece;
    t->end = e;
    e -= piece;
  }
  w->end = e;
}

/* Sequence order: the thief's labels come right after the owner's; the
 * owner continues with the thief's unprocessed range. */
static void label_reducer(void *vw, void *tw, void *cv) {
  label_work *v = vw, *t = tw;
  label_ctx *c = cv;
  if (t->len && append(v, t->out, t->len)) atomic_store(&c->oom, 1);
  free(t->out);
  t->out = NULL;
  if (v->begin == v->end) { /* only when the owner is done: preemption */
    v->begin = t->begin;
    v->end = t->end;
  } else {
    assert_int_equal(t->begin, t->end); /* adapt_end: thieves finished */
  }
}

static void label_entry(adapt_frame *f, void *wv, void *cv) {
  label_work *w = wv;
  label_ctx *c = cv;
  int slow = adapt_worker_id() != 0;
  for (;;) {
    while (w->begin < w->end) {
      adapt_steal_point(f);
      size_t i = w->begin++;
      char ch = label_of(i);
      if (append(w, &ch, 1)) atomic_store(&c->oom, 1);
      if (slow && c->slow_ns) adapt_test_spin_ns(c->slow_ns);
      if (c->nested) c->nested(i, c);
      if (adapt_preempt_point(f)) return;
    }
    if (!c->preempt || !adapt_preempt_next_thief(f)) return;
  }
}

static const adapt_task *label_task(label_ctx *c) {
  static _Thread_local adapt_task t;
  t = (adapt_task){label_entry, label_splitter, label_reducer, sizeof(label_work), c};
  return &t;
}

static void run_labels(size_t n, int preempt, unsigned slow_ns, char *expect) {
  label_ctx c = {n, preempt, slow_ns, 0, NULL};
  label_work w = {0, n, NULL, 0, 0};
  const adapt_task *task = label_task(&c);
  adapt_frame f;
  assert_int_equal(adapt_begin(&f, task, &w), 0);
  label_entry(&f, &w, &c);
  assert_int_equal(adapt_end(&f), 0);
  assert_int_equal(atomic_load(&c.oom), 0);
  assert_int_equal(w.len, n);
  if (n) assert_memory_equal(w.out, expect, n); /* expect: labels 0..N, N >= n */
  free(w.out);
}

static uint64_t total(size_t off) {
  uint64_t s = 0;
  for (int i = 0; i < adapt_num_workers(); i++) {
    adapt_worker_stats st;
    assert_int_equal(adapt_stats_get(i, &st), 0);
    s += *(uint64_t *)((char *)&st + off);
  }
  return s;
}

static void test_order_with_preemption(void **state) {
  static const int workers[] = {1, 2, 3, 8};
  size_t n = adapt_test_scale(20000, 4000);
  char *expect = malloc(n + 1);
  for (size_t i = 0; i < n; i++) expect[i] = label_of(i);
  expect[n] = '\0';
  for (size_t wi = 0; wi < 4; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    adapt_stats_reset();
    /* Thieves are slowed down so the owner finishes first and must preempt
     * them; repeat until preemption really happened (workers start lazily
     * on a loaded machine), checking the string every time. */
    int rounds = 0;
    do {
      run_labels(n, 1, 2000, expect);
      run_labels(n / 7, 1, 0, expect);
    } while (workers[wi] > 1 && total(offsetof(adapt_worker_stats, preemptions)) == 0 &&
             ++rounds < 200);
    if (workers[wi] > 1) {
      assert_true(total(offsetof(adapt_worker_stats, preemptions)) > 0);
      assert_true(total(offsetof(adapt_worker_stats, steals)) > 0);
    }
    assert_int_equal(total(offsetof(adapt_worker_stats, steals)),
                     total(offsetof(adapt_worker_stats, reductions)));
  }
  free(expect);
}

static void test_order_join_many_thieves(void **state) {
  size_t n = adapt_test_scale(50000, 8000);
  char *expect = malloc(n + 1);
  for (size_t i = 0; i < n; i++) expect[i] = label_of(i);
  expect[n] = '\0';
  assert_int_equal(adapt_test_workers(8), 0);
  adapt_stats_reset();
  int rounds = 0;
  do {
    run_labels(n, 0, 300, expect);
  } while (total(offsetof(adapt_worker_stats, steals)) < 4 && ++rounds < 200);
  assert_true(total(offsetof(adapt_worker_stats, steals)) >= 4);
  for (size_t k = 0; k < 20; k++) run_labels(k, 0, 0, expect);
  free(expect);
}

/* Nested user tasks inside label elements (frames at two levels): every
 * 97th element runs a nested task, whose result must be 50 labels. */
static void nested_task(size_t i, label_ctx *c) {
  if (i % 97 != 0) return;
  label_ctx ic = {50, 1, 0, 0, NULL};
  label_work iw = {0, 50, NULL, 0, 0};
  adapt_task it = {label_entry, label_splitter, label_reducer, sizeof(label_work), &ic};
  adapt_frame inner;
  if (adapt_begin(&inner, &it, &iw) == 0) {
    label_entry(&inner, &iw, &ic);
    adapt_end(&inner);
  }
  if (iw.len != 50) atomic_store(&c->oom, 2);
  for (size_t k = 0; k < 50 && iw.out; k++)
    if (iw.out[k] != label_of(k)) atomic_store(&c->oom, 3);
  free(iw.out);
}

static void test_nested_tasks(void **state) {
  size_t n = adapt_test_scale(30000, 5000);
  for (int wk = 2; wk <= 3; wk++) {
    assert_int_equal(adapt_test_workers(wk), 0);
    label_ctx c = {n, 1, 0, 0, nested_task};
    label_work w = {0, n, NULL, 0, 0};
    adapt_frame f;
    assert_int_equal(adapt_begin(&f, label_task(&c), &w), 0);
    label_entry(&f, &w, &c);
    assert_int_equal(adapt_end(&f), 0);
    assert_int_equal(atomic_load(&c.oom), 0);
    assert_int_equal(w.len, n);
    for (size_t i = 0; i < n; i++) assert_int_equal(w.out[i], label_of(i));
    free(w.out);
  }
}

static void noop_entry(adapt_frame *f, void *w, void *c) {}
static void noop_split(adapt_frame *f, void *w, int n, adapt_reply_set *r, void *c) {}

static void test_begin_errors(void **state) {
  adapt_frame f;
  char work[ADAPT_WORK_MAX + 1];
  adapt_task ok = {noop_entry, noop_split, NULL, 16, NULL};
  assert_int_equal(adapt_begin(NULL, &ok, work), -EINVAL);
  assert_int_equal(adapt_begin(&f, NULL, work), -EINVAL);
  assert_int_equal(adapt_begin(&f, &ok, NULL), -EINVAL);
  adapt_task t = ok;
  t.entry = NULL;
  assert_int_equal(adapt_begin(&f, &t, work), -EINVAL);
  t = ok;
  t.splitter = NULL;
  assert_int_equal(adapt_begin(&f, &t, work), -EINVAL);
  t = ok;
  t.work_size = 0;
  assert_int_equal(adapt_begin(&f, &t, work), -EINVAL);
  t.work_size = ADAPT_WORK_MAX + 1;
  assert_int_equal(adapt_begin(&f, &t, work), -E2BIG);
  /* end of a frame never begun */
  memset(&f, 0, sizeof f);
  assert_int_equal(adapt_end(&f), -EINVAL);
  assert_int_equal(adapt_end(NULL), -EINVAL);
  assert_int_equal(adapt_preempt_next_thief(&f), 0);
  assert_null(adapt_reply(NULL, 0));
  /* a valid empty task */
  assert_int_equal(adapt_begin(&f, &ok, work), 0);
  assert_int_equal(adapt_preempt_next_thief(&f), 0);
  assert_int_equal(adapt_end(&f), 0);
  assert_int_equal(adapt_end(&f), -EINVAL); /* twice */
}

static void test_stats_and_topology(void **state) {
  adapt_worker_stats s;
  assert_int_equal(adapt_stats_get(-1, &s), -EINVAL);
  assert_int_equal(adapt_stats_get(2, &s), -EINVAL);
  assert_int_equal(adapt_stats_get(0, NULL), -EINVAL);
  double m, p;
  assert_int_equal(adapt_stats_steal_latency(NULL, &p), -EINVAL);
  adapt_stats_reset();
  assert_int_equal(adapt_stats_steal_latency(&m, &p), -ENODATA);
  /* hwloc: the two workers share some cache on any multicore; on one PU
   * the shared cache is that PU's */
  assert_true(adapt_cache_shared_by(0, 0) > 0 || adapt_shared_cache_size() == 0);
  assert_int_equal(adapt_cache_shared_by(0, 5), 0);
  FILE *f = tmpfile();
  adapt_stats_print(f);
  assert_true(ftell(f) > 0);
  fclose(f);
  adapt_finalize();
  assert_int_equal(adapt_stats_get(0, &s), -ESRCH);
}

/* A reducer's own parallel loop is stolen from (idle workers help a long
 * merge), while the frame being reduced is never split during the reducer.
 * Work: [begin, end) of slow elements; each reduction runs an adapt_for of
 * slow iterations and counts those run by another worker than the
 * reducer's. */
typedef struct red_work {
  size_t begin, end;
  int reducing; /* the owner is inside the reducer on this descriptor */
} red_work;

typedef struct red_ctx {
  atomic_int split_while_reducing;
  atomic_size_t helped, iters;
} red_ctx;

/* One reduction's loop: reducers of different frames may run at once. */
typedef struct red_loop {
  red_ctx *c;
  int reducer_id;
} red_loop;

static void red_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  red_work *w = wv;
  red_ctx *c = cv;
  if (w->reducing) atomic_store(&c->split_while_reducing, 1);
  size_t r = w->end - w->begin;
  if (r < 2) return;
  red_work *t = adapt_reply(rs, w->begin + r / 2);
  if (!t) return;
  t->begin = w->begin + r / 2;
  t->end = w->end;
  t->reducing = 0;
  w->end = t->begin;
}

static void red_iter(size_t b, size_t e, void *lv) {
  const red_loop *l = lv;
  for (size_t i = b; i < e; i++) {
    adapt_test_spin_ns(20000);
    atomic_fetch_add(&l->c->iters, 1);
    if (adapt_worker_id() != l->reducer_id) atomic_fetch_add(&l->c->helped, 1);
  }
}

static void red_reducer(void *vw, void *tw, void *cv) {
  red_work *v = vw, *t = tw;
  red_ctx *c = cv;
  v->reducing = 1;
  red_loop l = {c, adapt_worker_id()};
  adapt_attr a = {0};
  a.grain = 1;
  assert_int_equal(adapt_for(0, 200, red_iter, &l, &a), 0);
  v->reducing = 0;
  if (v->begin == v->end) { /* preemption: go on with the thief's rest */
    v->begin = t->begin;
    v->end = t->end;
  }
}

static void red_entry(adapt_frame *f, void *wv, void *cv) {
  red_work *w = wv;
  for (;;) {
    while (w->begin < w->end) {
      adapt_steal_point(f);
      w->begin++;
      adapt_test_spin_ns(2000);
      if (adapt_preempt_point(f)) return;
    }
    if (!adapt_preempt_next_thief(f)) return;
  }
}

static void test_reducer_loop_helped(void **state) {
  static const int workers[] = {2, 3};
  for (size_t wi = 0; wi < 2; wi++) {
    assert_int_equal(adapt_test_workers(workers[wi]), 0);
    red_ctx c = {0};
    adapt_task task = {red_entry, red_splitter, red_reducer, sizeof(red_work), &c};
    /* Repeat until a reduction happened and was helped (workers start
     * lazily on a loaded machine); every reduction runs 200 iterations. */
    int rounds = 0;
    do {
      size_t before = atomic_load(&c.iters);
      red_work w = {0, 2000, 0};
      adapt_frame f;
      assert_int_equal(adapt_begin(&f, &task, &w), 0);
      red_entry(&f, &w, &c);
      assert_int_equal(adapt_end(&f), 0);
      assert_int_equal((atomic_load(&c.iters) - before) % 200, 0);
    } while (atomic_load(&c.helped) == 0 && ++rounds < 100);
    assert_true(atomic_load(&c.helped) > 0);
    assert_int_equal(atomic_load(&c.split_while_reducing), 0);
  }
}

/* Idle thieves when workers outnumber CPUs: a frame whose splitter has
 * nothing to split (its gate closed) while its owner keeps polling. */
typedef struct gate_work {
  size_t begin, end;
  int open; /* 0: the splitter answers "nothing to split" */
} gate_work;

typedef struct gate_ctx {
  atomic_uchar *hits;
  atomic_int stolen;    /* pieces entered by thieves */
  atomic_int elsewhere; /* iterations of the nested loop run by other workers */
} gate_ctx;

static void gate_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  gate_work *w = wv;
  if (!w->open || w->end - w->begin < 2) return;
  size_t piece = (w->end - w->begin) / 2;
  gate_work *t = adapt_reply(rs, w->end - piece);
  if (!t) return;
  *t = (gate_work){w->end - piece, w->end, 1};
  w->end -= piece;
}

static void gate_run(adapt_frame *f, gate_work *w, gate_ctx *c) {
  while (w->begin < w->end) {
    size_t i = w->begin++;
    atomic_fetch_add(&c->hits[i], 1);
    adapt_test_spin_ns(2000);
    if (adapt_preempt_point(f)) return;
    adapt_steal_point(f);
  }
}

static void gate_entry(adapt_frame *f, void *wv, void *cv) {
  gate_ctx *c = cv;
  atomic_fetch_add(&c->stolen, 1);
  gate_run(f, wv, c);
}

static double ms_now(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The owner polls its closed frame for 100 ms: the 7 idle workers, after a
 * few refusals and naps, sleep (their requests stay few, the process's CPU
 * time near the owner's alone). Without the back-off they posted about
 * 5,000 requests in that time; with it 27-174 (release, a loaded 2-CPU
 * machine: the requests that time out while the owner is descheduled are
 * the rest). GATE_DEBUG=1 prints the figures. */
static void gate_closed_phase(adapt_frame *f) {
  adapt_stats_reset();
  double t0 = ms_now(CLOCK_MONOTONIC), c0 = ms_now(CLOCK_PROCESS_CPUTIME_ID);
  while (ms_now(CLOCK_MONOTONIC) - t0 < 100) adapt_steal_point(f);
  double wall = ms_now(CLOCK_MONOTONIC) - t0, cpu = ms_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  uint64_t posted = 0;
  for (int k = 1; k < 8; k++) {
    adapt_worker_stats s;
    assert_int_equal(adapt_stats_get(k, &s), 0);
    posted += s.requests_posted;
  }
  if (getenv("GATE_DEBUG") || posted >= 7 * 80 || cpu > 1.3 * wall + 20)
    fprintf(stderr, "idle thieves: %llu requests, %.0f ms of CPU in %.0f ms\n",
            (unsigned long long)posted, cpu, wall);
  assert_true(posted < 7 * 80);
  assert_true(cpu <= 1.3 * wall + 20);
}

/* The owner waits (polling) until *counter > 0, at most 20 s. */
static void wait_positive(adapt_frame *f, atomic_int *counter) {
  double t0 = ms_now(CLOCK_MONOTONIC);
  while (atomic_load(counter) == 0 && ms_now(CLOCK_MONOTONIC) - t0 < 20000)
    if (f) adapt_steal_point(f);
  assert_true(atomic_load(counter) > 0);
}

static void nested_body(size_t b, size_t e, void *cv) {
  gate_ctx *c = cv;
  if (adapt_worker_id() != 0) atomic_fetch_add(&c->elsewhere, 1);
  adapt_test_spin_ns(2000 * (e - b));
}

static void test_idle_thieves_sleep(void **state) {
  assert_int_equal(adapt_test_workers(8), 0);
  size_t n = adapt_test_scale(4000, 1000);
  gate_ctx c = {calloc(n, 1), 0, 0};
  assert_non_null(c.hits);
  adapt_task task = {gate_entry, gate_splitter, NULL, sizeof(gate_work), &c};
  /* The range grows back (the gate opens): adapt_work_grew wakes them. */
  gate_work w = {0, n, 0};
  adapt_frame f;
  assert_int_equal(adapt_begin(&f, &task, &w), 0);
  gate_closed_phase(&f);
  w.open = 1;
  adapt_work_grew(&f);
  wait_positive(&f, &c.stolen);
  gate_run(&f, &w, &c);
  assert_int_equal(adapt_end(&f), 0);
  for (size_t i = 0; i < n; i++) assert_int_equal(atomic_load(&c.hits[i]), 1);
  /* A new frame is published (a nested loop): it wakes them too. */
  gate_work w2 = {0, 1, 0};
  assert_int_equal(adapt_begin(&f, &task, &w2), 0);
  gate_closed_phase(&f);
  for (int k = 0; k < 1000 && atomic_load(&c.elsewhere) == 0; k++)
    assert_int_equal(adapt_for(0, 64, nested_body, &c, &(adapt_attr){.grain = 1}), 0);
  assert_true(atomic_load(&c.elsewhere) > 0);
  gate_run(&f, &w2, &c);
  assert_int_equal(adapt_end(&f), 0);
  free(c.hits);
}

/* A splitter that changes its mind with no publication and no
 * adapt_work_grew (its answer depends on user state): it refuses until the
 * owner opens it. */
typedef struct mind_ctx {
  atomic_int open;     /* set by the owner: the splitter gives a piece */
  atomic_int refusals; /* "nothing to split" answers so far */
  atomic_int stolen;   /* pieces entered by the thief */
} mind_ctx;

static void mind_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  mind_ctx *c = cv;
  gate_work *w = wv;
  if (!atomic_load(&c->open) || w->end - w->begin < 2) {
    atomic_fetch_add(&c->refusals, 1);
    return;
  }
  gate_work *t = adapt_reply(rs, w->end - 1);
  if (!t) return;
  *t = (gate_work){w->end - 1, w->end, 1};
  w->end--;
}

static void mind_entry(adapt_frame *f, void *wv, void *cv) {
  mind_ctx *c = cv;
  gate_work *t = wv;
  atomic_fetch_add(&c->stolen, 1);
  t->begin = t->end;
}

/* The thief, refused ADAPT_REFUSED_SLEEP times in a row, counts the frame
 * as refusing it and sleeps; its sleep is bounded, so once the splitter
 * opens silently the thief asks again and takes a piece (within 5 s: a
 * generous bound, ADAPT_REFUSED_RECHECK_MAX_US is 10 ms by default). */
static void test_splitter_changes_its_mind(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  mind_ctx c = {0, 0, 0};
  adapt_task task = {mind_entry, mind_splitter, NULL, sizeof(gate_work), &c};
  gate_work w = {0, 1000, 1};
  adapt_frame f;
  assert_int_equal(adapt_begin(&f, &task, &w), 0);
  double t0 = ms_now(CLOCK_MONOTONIC);
  while (atomic_load(&c.refusals) < (int)ADAPT_REFUSED_SLEEP &&
         ms_now(CLOCK_MONOTONIC) - t0 < 20000)
    adapt_steal_point(&f);
  assert_true(atomic_load(&c.refusals) >= (int)ADAPT_REFUSED_SLEEP);
  /* The thief goes to sleep: the owner keeps polling for 50 ms. */
  t0 = ms_now(CLOCK_MONOTONIC);
  while (ms_now(CLOCK_MONOTONIC) - t0 < 50) adapt_steal_point(&f);
  atomic_store(&c.open, 1); /* no publication, no adapt_work_grew */
  t0 = ms_now(CLOCK_MONOTONIC);
  while (atomic_load(&c.stolen) == 0 && ms_now(CLOCK_MONOTONIC) - t0 < 5000) adapt_steal_point(&f);
  double waited = ms_now(CLOCK_MONOTONIC) - t0;
  if (getenv("GATE_DEBUG"))
    fprintf(stderr, "refusals %d, thief after %.1f ms\n", atomic_load(&c.refusals), waited);
  assert_true(atomic_load(&c.stolen) > 0);
  w.begin = w.end;
  assert_int_equal(adapt_end(&f), 0);
}

/* adapt_idle_workers: one task per worker, each waiting until every
 * worker runs one, then each reads the count (none is idle: 0); they
 * leave once all have read it. */
typedef struct busy_ctx {
  int workers;
  atomic_int in, sampled, all_in;
  atomic_int seen[8];
} busy_ctx;

static void busy_task(void *arg) {
  busy_ctx *c = arg;
  double t0 = ms_now(CLOCK_MONOTONIC);
  atomic_fetch_add(&c->in, 1);
  while (atomic_load(&c->in) < c->workers && ms_now(CLOCK_MONOTONIC) - t0 < 20000) sched_yield();
  if (atomic_load(&c->in) == c->workers) atomic_store(&c->all_in, 1);
  /* read before counted in sampled: a worker that sees every sample taken
   * leaves and is idle again, which a later read would count */
  int idle = adapt_idle_workers();
  int k = atomic_fetch_add(&c->sampled, 1);
  atomic_store(&c->seen[k], idle);
  while (atomic_load(&c->sampled) < c->workers && ms_now(CLOCK_MONOTONIC) - t0 < 20000)
    sched_yield();
}

/* The owner waits for the count to read `want` in its frame (the workers
 * back in their idle loop), at most 5 s; returns the last value read. */
static int idle_settles(int want) {
  double t0 = ms_now(CLOCK_MONOTONIC);
  int got;
  while ((got = adapt_idle_workers()) != want && ms_now(CLOCK_MONOTONIC) - t0 < 5000) sched_yield();
  return got;
}

static void test_idle_workers(void **state) {
  /* One worker: nobody is ever idle, outside a region or inside. */
  assert_int_equal(adapt_test_workers(1), 0);
  assert_int_equal(adapt_idle_workers(), 0);
  const adapt_task inert = adapt_test_inert_task();
  adapt_test_range r = {0, 0};
  adapt_frame f;
  assert_int_equal(adapt_begin(&f, &inert, &r), 0);
  assert_int_equal(adapt_idle_workers(), 0);
  assert_int_equal(adapt_end(&f), 0);
  const int n = 4;
  /* Every task pushed (no lazy spawns): the n tasks below wait for each
   * other, which only n tasks running at the same time can do. */
  assert_int_equal(adapt_test_workers_spawn(n, 1), 0);
  /* Outside regions: what a call would get, the whole pool. */
  assert_int_equal(adapt_idle_workers(), n - 1);
  /* In a region whose workers are all busy: 0. */
  busy_ctx c = {.workers = n};
  adapt_scope s;
  assert_int_equal(adapt_scope_begin(&s), 0);
  for (int i = 0; i < n; i++) assert_int_equal(adapt_spawn(&s, busy_task, &c), 0);
  assert_int_equal(adapt_sync(&s), 0);
  assert_int_equal(atomic_load(&c.all_in), 1);
  for (int k = 0; k < n; k++) assert_int_equal(atomic_load(&c.seen[k]), 0);
  /* In a region whose workers are idle: all the others, once back. */
  assert_int_equal(adapt_begin(&f, &inert, &r), 0);
  assert_int_equal(idle_settles(n - 1), n - 1);
  assert_int_equal(adapt_end(&f), 0);
}

ADAPT_TEST_MAIN("adaptive", ADAPT_TEST(test_begin_errors), ADAPT_TEST(test_order_with_preemption),
                ADAPT_TEST(test_order_join_many_thieves), ADAPT_TEST(test_nested_tasks),
                ADAPT_TEST(test_reducer_loop_helped),
                ADAPT_TEST_WORKERS(test_stats_and_topology, 2), ADAPT_TEST(test_idle_thieves_sleep),
                ADAPT_TEST(test_splitter_changes_its_mind), ADAPT_TEST(test_idle_workers))
