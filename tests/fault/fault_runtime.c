/* Fault injection, the runtime's cases (fault_cases.h; the harness and
 * the checks made around each run are in fault_driver.c): starts, lazy
 * starts, loops with every scheduler, tasks, the adaptive API, the queries
 * and regions run alone. */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "adapt_test.h"
#include "fault_cases.h"

/* --- adapt_for with every scheduler, each with another one nested --------- */

enum { INNER = 64 };

static void nested_body(size_t b, size_t e, void *ctx) {
  const adapt_attr *inner = ctx;
  for (size_t i = b; i < e; i++)
    if (adapt_for(i * INNER, (i + 1) * INNER, fault_mark_body, NULL, inner) != 0) fault_bad();
}

static void run_for_sched(adapt_sched s) {
  adapt_attr outer = {0}, inner = {0};
  outer.sched = s;
  inner.sched = (adapt_sched)(s % (ADAPT_SCHED_COUNT - 1) + 1); /* another explicit one */
  inner.grain = 8;
  fault_clear_marks();
  int rc = adapt_for(0, fault_n_elems / INNER, nested_body, &inner, &outer);
  if (fault_expect_rc("adapt_for", rc, fault_ok_none) == 0)
    fault_check_marks("adapt_for", fault_n_elems, 1);
  fault_clear_marks();
  outer.grain = 16;
  rc = adapt_for(0, fault_n_elems, fault_mark_body, NULL, &outer);
  if (fault_expect_rc("adapt_for", rc, fault_ok_none) == 0)
    fault_check_marks("adapt_for", fault_n_elems, 1);
}

void sc_for_all(void) {
  for (int s = 0; s < ADAPT_SCHED_COUNT; s++) run_for_sched((adapt_sched)s);
}

/* --- spawn/sync: a binary tree of tasks, loops at some leaves ------------- */

typedef struct span {
  size_t lo, hi;
} span;

static void tree(size_t lo, size_t hi);
static void tree_task(void *p) {
  const span *r = p;
  tree(r->lo, r->hi);
}

static void tree(size_t lo, size_t hi) {
  if (hi - lo <= INNER) {
    if ((lo / INNER) % 4 == 0) {
      adapt_attr a = {0};
      a.sched = ADAPT_SCHED_LOOPFRAME;
      if (adapt_for(lo, hi, fault_mark_body, NULL, &a) != 0) fault_bad();
    } else {
      fault_mark_body(lo, hi, NULL);
    }
    return;
  }
  size_t mid = lo + (hi - lo) / 2;
  span upper = {mid, hi};
  adapt_scope s;
  if (adapt_scope_begin(&s) != 0) {
    fault_bad();
    return;
  }
  if (adapt_spawn(&s, tree_task, &upper) != 0) fault_bad();
  tree(lo, mid);
  if (adapt_sync(&s) != 0) fault_bad();
}

void sc_tasks(void) {
  fault_clear_marks();
  adapt_scope s;
  if (FAULT_CALL(fault_ok_none, adapt_scope_begin, &s)) return;
  span all = {0, fault_n_elems};
  FAULT_CALL(fault_ok_none, adapt_spawn, &s, tree_task, &all);
  FAULT_CALL(fault_ok_none, adapt_sync, &s);
  fault_check_marks("spawn/sync", fault_n_elems, 1);
}

/* --- The adaptive API: a user task whose reducer checks sequence order ---- */

typedef struct aff_ctx {
  int preempt; /* 1: the owner preempts its thieves; 0: adapt_end joins them */
} aff_ctx;

static void aff_splitter(adapt_frame *f, void *wv, int count, adapt_reply_set *rs, void *cv) {
  aff_work *w = wv;
  size_t r = w->end - w->begin, g = 16;
  if (r < 2 * g) return;
  size_t pieces = (size_t)count + 1 < r / g ? (size_t)count + 1 : r / g;
  size_t piece = r / pieces, e = w->end;
  while (adapt_reply_remaining(rs) > 0 && e - piece > w->begin + g) {
    aff_work *t = adapt_reply(rs, e - piece);
    if (!t) break; /* out of memory for the record: the request fails */
    *t = (aff_work){e - piece, e - piece, e, {1, 0}};
    e -= piece;
  }
  w->end = e;
}

static void aff_reducer(void *vw, void *tw, void *cv) {
  if (!aff_merge(vw, tw)) fault_bad(); /* out of sequence order */
}

static void aff_chunk(aff_work *w, size_t b, size_t e, const void *cv) {
  for (size_t i = b; i < e; i++) {
    fault_mark(i);
    fault_burn(i);
    w->acc = compose(w->acc, fault_affine_of(i));
  }
}

static void aff_entry(adapt_frame *f, void *wv, void *cv) {
  aff_run(f, wv, 8, ((const aff_ctx *)cv)->preempt, aff_chunk, cv);
}

void sc_adaptive(void) {
  affine want = {1, 0};
  for (size_t i = 0; i < fault_n_elems; i++) want = compose(want, fault_affine_of(i));
  for (int preempt = 0; preempt < 2; preempt++) {
    fault_clear_marks();
    aff_ctx c = {preempt};
    aff_work w = {0, 0, fault_n_elems, {1, 0}};
    adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
    adapt_frame f;
    if (FAULT_CALL(fault_ok_none, adapt_begin, &f, &task, &w)) return;
    aff_entry(&f, &w, &c);
    FAULT_CALL(fault_ok_none, adapt_end, &f);
    if (w.begin != fault_n_elems || w.acc.a != want.a || w.acc.b != want.b)
      fail_msg("%s, k=%lu: adaptive task: result out of sequence order", fault_cur_name,
               fault_cur_k);
    fault_check_marks("adaptive task", fault_n_elems, 1);
  }
}

/* --- Statistics, topology, identity, cancellation ------------------------- */

static void cancel_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    fault_mark(i);
    if (i == fault_n_elems / 2 && adapt_cancel() != 0) fault_bad();
  }
}

void sc_queries(void) {
  fault_clear_marks();
  FAULT_CALL(fault_ok_none, adapt_for, 0, fault_n_elems, fault_mark_body, NULL, NULL);
  int nw = adapt_num_workers();
  assert_int_equal(nw, WORKERS);
  assert_int_equal(adapt_worker_id(), 0);
  int idle = adapt_idle_workers(); /* a snapshot: only its range is known */
  assert_true(idle >= 0 && idle <= nw - 1);
  for (int i = 0; i < nw; i++) {
    adapt_worker_stats st;
    FAULT_CALL(fault_ok_none, adapt_stats_get, i, &st);
    (void)adapt_worker_pu(i);
    (void)adapt_cache_shared_by(0, i);
  }
  (void)adapt_shared_cache_size();
  adapt_worker_stats none;
  int bad_id = adapt_stats_get(nw, &none);
  if (bad_id != -EINVAL) fault_fail_run("adapt_stats_get (id out of range)", bad_id);
  assert_int_equal(adapt_version(), ADAPT_VERSION_HEX);
  assert_non_null(adapt_version_string());
  for (int sc = 0; sc < ADAPT_SCHED_COUNT; sc++) {
    adapt_sched back;
    assert_int_equal(adapt_sched_parse(adapt_sched_name((adapt_sched)sc), &back), 0);
    assert_int_equal(back, sc);
  }
  assert_int_equal(adapt_cancelled(), 0);
  assert_int_equal(adapt_cancel(), -EPERM); /* not in a body */
  double med, p90;
  FAULT_CALL(fault_ok_latency, adapt_stats_steal_latency, &med, &p90);
  FILE *devnull = fopen("/dev/null", "w");
  adapt_stats_print(devnull);
  if (devnull) fclose(devnull);
  adapt_stats_reset();
  fault_clear_marks();
  int rc = adapt_for(0, fault_n_elems, cancel_body, NULL, NULL);
  if (rc != -ECANCELED) fault_fail_run("adapt_for with adapt_cancel", rc);
  for (size_t i = 0; i < fault_n_elems; i++)
    if (atomic_load_explicit(&fault_marks[i], memory_order_relaxed) > 1)
      fail_msg("%s, k=%lu: cancelled adapt_for: index %zu ran twice", fault_cur_name, fault_cur_k,
               i);
  fault_expect_rc("adapt_try_finalize", adapt_try_finalize(), fault_ok_none);
}

/* --- A region run alone: another thread's region holds the workers ------- */

/* While the main thread's region holds the workers, a thread of the driver
 * runs a loop, a scope and an adaptive task: each is a region run alone on
 * a worker of the thread's own (adapt_begin in adaptive.h), whose
 * allocation may fail (-ENOMEM, nothing run). */
static atomic_int solo_inside, solo_done;
static int solo_rc[3];
static int solo_detail[3];     /* adapt_last_error() was set (it is per thread) */
static unsigned solo_marks[3]; /* visits per index expected after each call */

static void *solo_thread(void *arg) {
  /* acquire: pairs with the release store in hold_body: the main thread's
   * region holds the workers. */
  while (!atomic_load_explicit(&solo_inside, memory_order_acquire)) sched_yield();
  fault_clear_marks();
  solo_rc[0] = adapt_for(0, fault_n_elems, fault_mark_body, NULL, NULL);
  solo_detail[0] = adapt_last_error()[0] != '\0';
  solo_marks[0] = solo_rc[0] ? 0 : 1;
  adapt_scope s;
  span all = {0, fault_n_elems};
  solo_rc[1] = adapt_scope_begin(&s);
  solo_detail[1] = adapt_last_error()[0] != '\0';
  if (!solo_rc[1] && (adapt_spawn(&s, tree_task, &all) != 0 || adapt_sync(&s) != 0)) fault_bad();
  solo_marks[1] = solo_marks[0] + (solo_rc[1] ? 0 : 1);
  aff_ctx c = {1};
  aff_work w = {0, 0, fault_n_elems, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  solo_rc[2] = adapt_begin(&f, &task, &w);
  solo_detail[2] = adapt_last_error()[0] != '\0';
  if (!solo_rc[2]) {
    aff_entry(&f, &w, &c);
    if (adapt_end(&f) != 0 || w.begin != fault_n_elems) fault_bad();
  }
  solo_marks[2] = solo_marks[1] + (solo_rc[2] ? 0 : 1);
  /* release: pairs with the acquire load in hold_body (and the join orders
   * the results for the main thread). */
  atomic_store_explicit(&solo_done, 1, memory_order_release);
  return arg;
}

static void hold_body(size_t b, size_t e, void *ctx) {
  /* release: pairs with the acquire load in solo_thread. */
  atomic_store_explicit(&solo_inside, 1, memory_order_release);
  /* acquire: pairs with the release store at the end of solo_thread. */
  while (!atomic_load_explicit(&solo_done, memory_order_acquire)) sched_yield();
}

void sc_solo(void) {
  atomic_store_explicit(&solo_inside, 0, memory_order_relaxed);
  atomic_store_explicit(&solo_done, 0, memory_order_relaxed);
  pthread_t t;
  if (pthread_create(&t, NULL, solo_thread, NULL) != 0) {
    fail_msg("%s, k=%lu: cannot create the thread", fault_cur_name, fault_cur_k);
  }
  adapt_attr a = {0};
  a.sched = ADAPT_SCHED_STATIC; /* one body call, on this thread */
  int rc = adapt_for(0, 1, hold_body, NULL, &a);
  pthread_join(t, NULL);
  fault_expect_rc("adapt_for (holding the workers)", rc, fault_ok_none);
  static const char *const what[3] = {"adapt_for run alone", "adapt_scope_begin run alone",
                                      "adapt_begin run alone"};
  for (int i = 0; i < 3; i++) {
    if (solo_rc[i] != 0 && solo_rc[i] != -ENOMEM) fault_fail_run(what[i], solo_rc[i]);
    if (solo_rc[i] && !solo_detail[i]) fault_fail_run("no adapt_last_error detail", solo_rc[i]);
    fault_run_errors += solo_rc[i] != 0;
  }
  fault_check_marks("calls run alone", fault_n_elems, solo_marks[2]);
}

/* --- Starting the runtime: explicitly (with a trace), lazily -------------- */

void sc_init(void) {
  adapt_config cfg = {0};
  cfg.workers = WORKERS;
  cfg.trace_file = fault_trace_path; /* the name is copied, events are buffered */
  if (FAULT_CALL(fault_ok_nomem, adapt_init, &cfg)) return;
  fault_expect_rc("adapt_init (same configuration)", adapt_init(&cfg), fault_ok_none);
  fault_clear_marks();
  if (!FAULT_CALL(fault_ok_none, adapt_for, 0, fault_n_elems, fault_mark_body, NULL, NULL))
    fault_check_marks("adapt_for", fault_n_elems, 1);
  fault_expect_rc("adapt_try_finalize", adapt_try_finalize(), fault_ok_none);
}

/* adapt_with_workers's fn: a loop over every element (its code in *ctx). */
static void limited_marks(void *ctx) {
  *(int *)ctx = adapt_for(0, fault_n_elems, fault_mark_body, NULL, NULL);
}

/* Each entry point starts the runtime lazily while the previous ones could
 * not: a failed start has no effect. */
void sc_lazy(void) {
  fault_clear_marks();
  int rc = FAULT_CALL(fault_ok_nomem, adapt_for, 0, fault_n_elems, fault_mark_body, NULL, NULL);
  fault_check_marks("adapt_for", fault_n_elems, rc ? 0 : 1);

  fault_clear_marks();
  int inner = 1;
  rc = FAULT_CALL(fault_ok_nomem, adapt_with_workers, 2, limited_marks, &inner);
  if (!rc) fault_expect_rc("adapt_for (in adapt_with_workers)", inner, fault_ok_none);
  fault_check_marks("adapt_with_workers", fault_n_elems, rc ? 0 : 1);

  fault_clear_marks();
  adapt_scope s;
  if (!FAULT_CALL(fault_ok_nomem, adapt_scope_begin, &s)) {
    span all = {0, fault_n_elems};
    FAULT_CALL(fault_ok_none, adapt_spawn, &s, tree_task, &all);
    FAULT_CALL(fault_ok_none, adapt_sync, &s);
    fault_check_marks("spawn/sync", fault_n_elems, 1);
  }

  aff_ctx c = {1};
  aff_work w = {0, 0, fault_n_elems, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  fault_clear_marks();
  if (!FAULT_CALL(fault_ok_nomem, adapt_begin, &f, &task, &w)) {
    aff_entry(&f, &w, &c);
    FAULT_CALL(fault_ok_none, adapt_end, &f);
    fault_check_marks("adaptive task", fault_n_elems, 1);
  }

  memset(fault_out, 0, fault_n_elems * sizeof *fault_out);
  rc = FAULT_CALL(fault_ok_nomem, adapt_transform, fault_in, fault_n_elems, 8, fault_out, 8,
                  fault_op_f3, NULL, NULL);
  if (rc == 0) fault_check_out_f3("adapt_transform");
  for (size_t i = 0; rc && i < fault_n_elems; i++)
    if (fault_out[i] != 0)
      fail_msg("%s, k=%lu: adapt_transform: output written on error", fault_cur_name, fault_cur_k);

  int nw = adapt_num_workers(); /* 1 when it cannot start the runtime */
  if (nw != 1 && nw != WORKERS) fault_fail_run("adapt_num_workers", nw);
}
