/* Fault injection (docs/reliability.md): every public entry point runs with
 * its k-th allocation failing, k = 1..50, once (a transient failure: the
 * k-th, and in longer runs the (k+50)-th, (k+100)-th... so that every
 * allocation fails) and from k on (memory exhausted), and adapt_init runs
 * with the creation of
 * its k-th worker thread failing (docs/reliability.md has the scenarios
 * and the counts). Each run starts the runtime (or lets the calls start
 * it, under the fault), makes the calls, stops it, and checks that
 * - every call returned 0 with an exact result, or one of its documented
 *   error codes with its outputs as documented (untouched);
 * - the runtime is usable afterwards (a loop without faults runs each index
 *   once);
 * - nothing leaked: the blocks allocated through the wrappers and not freed
 *   are as many as before the run (LeakSanitizer checks the rest at exit in
 *   the asan variant);
 * - no thread is left: /proc/self/task has as many entries as before the
 *   runtime ever started.
 * The allocation functions and pthread_create are wrapped at link time
 * (fault_inject.c). */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapt_test.h"
#include "kernels.h"
#include "fault_inject.h"

enum {
  K_MAX = 50,  /* k = 1..K_MAX */
  WORKERS = 4, /* on 2 cores: thieves are always around */
  N_MAX = 1 << 16,
  VAR_MAX_OUT = 3,
};

/* --- Process state: threads and the run being checked --------------------- */

static int base_tasks; /* entries of /proc/self/task before the runtime started */

static int task_count(void) {
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n;
}

/* The task count once joined threads have left /proc/self/task: a joined
 * thread's entry may outlive pthread_join by a few instructions of its exit.
 * Gives up after 10 s (then the count is wrong and the check fails). */
static int settled_task_count(void) {
  int n = task_count();
  for (int i = 0; i < 10000 && n != base_tasks; i++) {
    usleep(1000);
    n = task_count();
  }
  return n;
}

/* The task count once it has stayed the same for 10 ms (the baseline). */
static int settled_task_count_any(void) {
  int n = task_count(), same = 0;
  while (same < 10) {
    usleep(1000);
    int m = task_count();
    same = m == n ? same + 1 : 0;
    n = m;
  }
  return n;
}

/* The run in progress, for the messages. */
static const char *cur_name;
static unsigned long cur_k;
static fault_mode cur_mode;

static void fail_run(const char *what, int rc) {
  fail_msg("%s, k=%lu (%s): %s: rc %d (%s) [%s]", cur_name, cur_k,
           cur_mode == FAULT_FROM ? "from k on" : "once", what, rc, adapt_strerror(rc),
           adapt_last_error());
}

/* Errors returned by the calls of one run (documented ones). */
static unsigned long run_errors;

/* rc must be 0 or one of the codes ok (0-terminated list). Returns rc. */
static int expect_rc(const char *what, int rc, const int *ok) {
  if (rc == 0) return 0;
  for (; *ok; ok++)
    if (rc == *ok) {
      run_errors++;
      if (adapt_last_error()[0] == '\0') fail_run("no adapt_last_error detail", rc);
      return rc;
    }
  fail_run(what, rc);
  return rc;
}

static const int ok_none[] = {0};
static const int ok_nomem[] = {-ENOMEM, 0};
static const int ok_latency[] = {-ENOMEM, -ENODATA, 0};

/* Problems found inside bodies and callbacks (counted, reported by the main
 * thread: cmocka's asserts are for the main thread only). relaxed: read
 * after the calls returned (their joins order the increments). */
static atomic_ulong body_bad;
static void bad(void) { atomic_fetch_add_explicit(&body_bad, 1, memory_order_relaxed); }

/* --- Inputs and per-index visit counts ------------------------------------ */

static size_t n_elems; /* elements per call (scaled for the sanitizers) */
static atomic_uchar marks[N_MAX];
static uint64_t in[N_MAX];
static uint64_t out[N_MAX];

/* relaxed: counts, read after the call's join. */
static void mark(size_t i) { atomic_fetch_add_explicit(&marks[i], 1, memory_order_relaxed); }

static void clear_marks(void) {
  for (size_t i = 0; i < n_elems; i++) atomic_store_explicit(&marks[i], 0, memory_order_relaxed);
}

/* Every index of [0, n) visited `want` times. */
static void check_marks(const char *what, size_t n, unsigned want) {
  for (size_t i = 0; i < n; i++) {
    unsigned v = atomic_load_explicit(&marks[i], memory_order_relaxed);
    if (v != want) {
      fail_msg("%s, k=%lu: %s: index %zu visited %u times, expected %u", cur_name, cur_k, what, i,
               v, want);
    }
  }
}

/* A few ns of work per index, so that idle workers find something to steal
 * (steals allocate theft records) before the owner is done. */
static _Thread_local volatile uint64_t sink;
static void burn(size_t i) {
  uint64_t x = i;
  for (int k = 0; k < 16; k++) x = x * 0x9e3779b97f4a7c15ull + 1;
  sink = x;
}

static void mark_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    mark(i);
    burn(i);
  }
}

/* --- adapt_for with every scheduler, each with another one nested --------- */

enum { INNER = 64 };

static void nested_body(size_t b, size_t e, void *ctx) {
  const adapt_attr *inner = ctx;
  for (size_t i = b; i < e; i++)
    if (adapt_for(i * INNER, (i + 1) * INNER, mark_body, NULL, inner) != 0) bad();
}

static void run_for_sched(adapt_sched s) {
  adapt_attr outer = {0}, inner = {0};
  outer.sched = s;
  inner.sched = (adapt_sched)(s % (ADAPT_SCHED_COUNT - 1) + 1); /* another explicit one */
  inner.grain = 8;
  clear_marks();
  int rc = adapt_for(0, n_elems / INNER, nested_body, &inner, &outer);
  if (expect_rc("adapt_for", rc, ok_none) == 0) check_marks("adapt_for", n_elems, 1);
  clear_marks();
  outer.grain = 16;
  rc = adapt_for(0, n_elems, mark_body, NULL, &outer);
  if (expect_rc("adapt_for", rc, ok_none) == 0) check_marks("adapt_for", n_elems, 1);
}

static void sc_for_all(void) {
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
      if (adapt_for(lo, hi, mark_body, NULL, &a) != 0) bad();
    } else {
      mark_body(lo, hi, NULL);
    }
    return;
  }
  size_t mid = lo + (hi - lo) / 2;
  span upper = {mid, hi};
  adapt_scope s;
  if (adapt_scope_begin(&s) != 0) {
    bad();
    return;
  }
  if (adapt_spawn(&s, tree_task, &upper) != 0) bad();
  tree(lo, mid);
  if (adapt_sync(&s) != 0) bad();
}

static void sc_tasks(void) {
  clear_marks();
  adapt_scope s;
  if (expect_rc("adapt_scope_begin", adapt_scope_begin(&s), ok_none)) return;
  span all = {0, n_elems};
  expect_rc("adapt_spawn", adapt_spawn(&s, tree_task, &all), ok_none);
  expect_rc("adapt_sync", adapt_sync(&s), ok_none);
  check_marks("spawn/sync", n_elems, 1);
}

/* --- The sequence algorithms ---------------------------------------------- */

static const adapt_window_mode modes[] = {ADAPT_WINDOW_NONE, ADAPT_WINDOW_STATIC,
                                          ADAPT_WINDOW_SLIDING};

static adapt_attr mode_attr(adapt_window_mode m) {
  adapt_attr a = {0};
  a.window = m;
  a.window_size = m == ADAPT_WINDOW_NONE ? 0 : 1024;
  a.grain = 32;
  return a;
}

static void op_mark(void *elem, void *ctx) {
  atomic_fetch_add_explicit((atomic_uchar *)elem, 1, memory_order_relaxed); /* a count */
}
static void op_mark_range(void *first, size_t n, void *ctx) {
  for (size_t i = 0; i < n; i++) op_mark((atomic_uchar *)first + i, ctx);
}
static uint64_t f3(uint64_t v) { return v * 3 + 1; }
static void op_f3(const void *a, void *b, void *ctx) { *(uint64_t *)b = f3(*(const uint64_t *)a); }
static void op_f3_range(const void *a, void *b, size_t n, void *ctx) {
  range_transform(op_f3, a, b, n, ctx);
}
static int pred3(const void *e, void *ctx) { return *(const uint64_t *)e % 3 == 0; }
static int pred_is(const void *e, void *ctx) { return *(const uint64_t *)e == *(size_t *)ctx; }

/* The scans' data: affine maps (kernels.h). */
static affine affine_of(uint64_t i) { return (affine){2 * i + 1, i ^ 0x5bd1e995u}; }
static affine scan_in[N_MAX], scan_out[N_MAX];

/* The range forms of pred3 and pred_is. */
static size_t count3_range(const void *f, size_t n, void *ctx) {
  return range_count(pred3, f, n, ctx);
}
static size_t find_range(const void *f, size_t n, void *ctx) {
  return range_find(pred_is, f, n, ctx);
}
/* out[i] = init, then each element composed in order */
static void check_xscan_out(const char *what, affine init) {
  affine p = init;
  for (size_t i = 0; i < n_elems; i++) {
    if (scan_out[i].a != p.a || scan_out[i].b != p.b) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", cur_name, cur_k, what, i);
    }
    p = compose(p, scan_in[i]);
  }
}
/* 72-byte sums: the exclusive scan's carries go to the heap (-ENOMEM may
 * be returned, and nothing may leak). */
typedef struct wide {
  uint64_t s[9];
} wide;
static void wide_op(const void *p, const void *e, void *r, void *ctx) {
  wide t;
  for (int k = 0; k < 9; k++) t.s[k] = ((const wide *)p)->s[k] + ((const wide *)e)->s[k];
  *(wide *)r = t;
}
static wide wide_in[N_MAX / 4], wide_out[N_MAX / 4];
static void check_scan_out(const char *what) {
  affine p = scan_in[0];
  for (size_t i = 0; i < n_elems; i++) {
    if (i) p = compose(p, scan_in[i]);
    if (scan_out[i].a != p.a || scan_out[i].b != p.b) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", cur_name, cur_k, what, i);
    }
  }
}

static void check_out_f3(const char *what) {
  for (size_t i = 0; i < n_elems; i++)
    if (out[i] != f3(in[i])) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", cur_name, cur_k, what, i);
    }
}

static void sc_algo_map(void) {
  for (size_t mi = 0; mi < 3; mi++) {
    adapt_attr a = mode_attr(modes[mi]);
    clear_marks();
    if (!expect_rc("adapt_for_each", adapt_for_each(marks, n_elems, 1, op_mark, NULL, &a), ok_none))
      check_marks("adapt_for_each", n_elems, 1);
    clear_marks();
    if (!expect_rc("adapt_for_each_range",
                   adapt_for_each_range(marks, n_elems, 1, op_mark_range, NULL, &a), ok_none))
      check_marks("adapt_for_each_range", n_elems, 1);
    memset(out, 0, n_elems * sizeof *out);
    if (!expect_rc("adapt_transform", adapt_transform(in, n_elems, 8, out, 8, op_f3, NULL, &a),
                   ok_none))
      check_out_f3("adapt_transform");
    memset(out, 0, n_elems * sizeof *out);
    if (!expect_rc("adapt_transform_range",
                   adapt_transform_range(in, n_elems, 8, out, 8, op_f3_range, NULL, &a), ok_none))
      check_out_f3("adapt_transform_range");
    size_t cnt = 0;
    if (!expect_rc("adapt_count_if", adapt_count_if(in, n_elems, 8, &cnt, pred3, NULL, &a),
                   ok_none))
      assert_int_equal(cnt, (n_elems + 2) / 3);
    size_t target = n_elems * 3 / 4, idx = 0;
    if (!expect_rc("adapt_find_if", adapt_find_if(in, n_elems, 8, &idx, pred_is, &target, &a),
                   ok_none))
      assert_int_equal(idx, target);
    if (!expect_rc(
            "adapt_inclusive_scan",
            adapt_inclusive_scan(scan_in, n_elems, sizeof(affine), scan_out, op_scan, NULL, &a),
            ok_none))
      check_scan_out("adapt_inclusive_scan");
    cnt = 0;
    if (!expect_rc("adapt_count_if_range",
                   adapt_count_if_range(in, n_elems, 8, &cnt, count3_range, NULL, &a), ok_none))
      assert_int_equal(cnt, (n_elems + 2) / 3);
    idx = 0;
    if (!expect_rc("adapt_find_if_range",
                   adapt_find_if_range(in, n_elems, 8, &idx, find_range, &target, &a), ok_none))
      assert_int_equal(idx, target);
    memset(scan_out, 0, n_elems * sizeof *scan_out);
    if (!expect_rc("adapt_inclusive_scan_range",
                   adapt_inclusive_scan_range(scan_in, n_elems, sizeof(affine), scan_out,
                                              scan_range, scan_add, NULL, &a),
                   ok_none))
      check_scan_out("adapt_inclusive_scan_range");
    const affine init = {3, 5};
    memset(scan_out, 0, n_elems * sizeof *scan_out);
    if (!expect_rc("adapt_exclusive_scan",
                   adapt_exclusive_scan(scan_in, n_elems, sizeof(affine), scan_out, &init, op_scan,
                                        NULL, &a),
                   ok_none))
      check_xscan_out("adapt_exclusive_scan", init);
    memset(scan_out, 0, n_elems * sizeof *scan_out);
    if (!expect_rc("adapt_exclusive_scan_range",
                   adapt_exclusive_scan_range(scan_in, n_elems, sizeof(affine), scan_out, &init,
                                              xscan_range, scan_add, NULL, &a),
                   ok_none))
      check_xscan_out("adapt_exclusive_scan_range", init);
    size_t nw = n_elems < N_MAX / 4 ? n_elems : N_MAX / 4;
    for (size_t i = 0; i < nw; i++)
      for (int k = 0; k < 9; k++) wide_in[i].s[k] = (uint64_t)k + 1;
    const wide w0 = {{0}};
    if (!expect_rc(
            "adapt_exclusive_scan (72-byte elements)",
            adapt_exclusive_scan(wide_in, nw, sizeof(wide), wide_out, &w0, wide_op, NULL, &a),
            ok_nomem))
      for (size_t i = 0; i < nw; i++)
        if (wide_out[i].s[8] != 9 * i) {
          fail_msg("%s, k=%lu: adapt_exclusive_scan (72-byte): out[%zu] wrong", cur_name, cur_k, i);
          break;
        }
  }
}

/* transform_var: element v writes v % 3 outputs; copy_if keeps the
 * multiples of 3. */
static size_t var_op(const void *e, void *o, void *ctx) {
  uint64_t v = *(const uint64_t *)e;
  size_t k = (size_t)(v % VAR_MAX_OUT);
  for (size_t j = 0; j < k; j++) ((uint64_t *)o)[j] = v * 8 + j;
  return k;
}

/* Their range forms. */
static size_t var_range(const void *e, size_t n, void *o, void *ctx) {
  return range_var(var_op, e, n, o, ctx);
}
static size_t copy3_range(const void *e, size_t n, void *o, void *ctx) {
  return range_copy_if(pred3, e, n, o, ctx);
}

static void sc_algo_var(void) {
  for (size_t fi = 0; fi < 6; fi++) {
    const int range = fi >= 3; /* the per-element forms, then the range forms */
    adapt_attr a = mode_attr(modes[fi % 3]);
    /* Two elements already in the vector, kept whatever happens; data is
     * the driver's own allocation (it may fail too: then the vector starts
     * empty) and the caller's to free, whatever the call returned. */
    adapt_vec v = {0};
    v.elem_size = 8;
    size_t pre = 0;
    if ((v.data = malloc(2 * 8))) {
      ((uint64_t *)v.data)[0] = 7;
      ((uint64_t *)v.data)[1] = 9;
      v.count = v.capacity = pre = 2;
    }
    int rc = range ? adapt_transform_var_range(in, n_elems, 8, &v, VAR_MAX_OUT, var_range, NULL, &a)
                   : adapt_transform_var(in, n_elems, 8, &v, VAR_MAX_OUT, var_op, NULL, &a);
    const char *tv = range ? "adapt_transform_var_range" : "adapt_transform_var";
    const uint64_t *d = v.data;
    if (pre && (d[0] != 7 || d[1] != 9))
      fail_msg("%s, k=%lu: %s: elements before the call lost", cur_name, cur_k, tv);
    if (!expect_rc(tv, rc, ok_nomem)) {
      size_t c = pre;
      for (size_t i = 0; i < n_elems && c <= v.count; i++)
        for (size_t j = 0; j < in[i] % VAR_MAX_OUT; j++, c++)
          if (c >= v.count || d[c] != in[i] * 8 + j)
            fail_msg("%s, k=%lu: %s: output %zu wrong", cur_name, cur_k, tv, c);
      assert_int_equal(c, v.count);
    } else {
      assert_int_equal(v.count, pre); /* unchanged */
    }
    free(v.data);

    size_t out_count = 12345;
    const char *ci = range ? "adapt_copy_if_range" : "adapt_copy_if";
    rc = range ? adapt_copy_if_range(in, n_elems, 8, out, &out_count, copy3_range, NULL, &a)
               : adapt_copy_if(in, n_elems, 8, out, &out_count, pred3, NULL, &a);
    if (!expect_rc(ci, rc, ok_nomem)) {
      assert_int_equal(out_count, (n_elems + 2) / 3);
      for (size_t i = 0; i < out_count; i++) assert_int_equal(out[i], 3 * i);
    } else {
      assert_int_equal(out_count, 12345); /* unchanged */
    }
  }
}

/* adapt_reduce: the values of kernels.h; combine checks the
 * grouping, and the hash of the result is compared with the documented
 * tree's. */
static void red_acc(void *acc, const void *first, size_t n, void *ctx) {
  if (!red_block(acc, first, n)) bad(); /* the identity, a block's start */
}
static void red_combine(void *acc, const void *other, void *ctx) {
  if (!red_join(acc, other)) bad();
}

static void sc_algo_reduce(void) {
  red_val want = red_expected(in, n_elems);
  for (size_t mi = 0; mi < 3; mi++) {
    adapt_attr a = mode_attr(modes[mi]);
    a.grain = 1; /* units are blocks here */
    red_val r = {1, 2, 3};
    int rc =
        adapt_reduce(in, n_elems, 8, &r, sizeof r, &red_identity, red_acc, red_combine, NULL, &a);
    if (!expect_rc("adapt_reduce", rc, ok_nomem)) {
      if (r.lo != 0 || r.hi != want.hi || r.h != want.h)
        fail_msg("%s, k=%lu: adapt_reduce: grouping differs from the documented one", cur_name,
                 cur_k);
    } else if (r.lo != 1 || r.hi != 2 || r.h != 3) {
      fail_msg("%s, k=%lu: adapt_reduce: result written on error", cur_name, cur_k);
    }
  }
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
  if (!aff_merge(vw, tw)) bad(); /* out of sequence order */
}

static void aff_chunk(aff_work *w, size_t b, size_t e, const void *cv) {
  for (size_t i = b; i < e; i++) {
    mark(i);
    burn(i);
    w->acc = compose(w->acc, affine_of(i));
  }
}

static void aff_entry(adapt_frame *f, void *wv, void *cv) {
  aff_run(f, wv, 8, ((const aff_ctx *)cv)->preempt, aff_chunk, cv);
}

static void sc_adaptive(void) {
  affine want = {1, 0};
  for (size_t i = 0; i < n_elems; i++) want = compose(want, affine_of(i));
  for (int preempt = 0; preempt < 2; preempt++) {
    clear_marks();
    aff_ctx c = {preempt};
    aff_work w = {0, 0, n_elems, {1, 0}};
    adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
    adapt_frame f;
    if (expect_rc("adapt_begin", adapt_begin(&f, &task, &w), ok_none)) return;
    aff_entry(&f, &w, &c);
    expect_rc("adapt_end", adapt_end(&f), ok_none);
    if (w.begin != n_elems || w.acc.a != want.a || w.acc.b != want.b)
      fail_msg("%s, k=%lu: adaptive task: result out of sequence order", cur_name, cur_k);
    check_marks("adaptive task", n_elems, 1);
  }
}

/* --- Statistics, topology, identity, cancellation ------------------------- */

static void cancel_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    mark(i);
    if (i == n_elems / 2 && adapt_cancel() != 0) bad();
  }
}

static void sc_queries(void) {
  clear_marks();
  expect_rc("adapt_for", adapt_for(0, n_elems, mark_body, NULL, NULL), ok_none);
  int nw = adapt_num_workers();
  assert_int_equal(nw, WORKERS);
  assert_int_equal(adapt_worker_id(), 0);
  int idle = adapt_idle_workers(); /* a snapshot: only its range is known */
  assert_true(idle >= 0 && idle <= nw - 1);
  for (int i = 0; i < nw; i++) {
    adapt_worker_stats st;
    expect_rc("adapt_stats_get", adapt_stats_get(i, &st), ok_none);
    (void)adapt_worker_pu(i);
    (void)adapt_cache_shared_by(0, i);
  }
  (void)adapt_shared_cache_size();
  adapt_worker_stats none;
  int bad_id = adapt_stats_get(nw, &none);
  if (bad_id != -EINVAL) fail_run("adapt_stats_get (id out of range)", bad_id);
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
  expect_rc("adapt_stats_steal_latency", adapt_stats_steal_latency(&med, &p90), ok_latency);
  FILE *devnull = fopen("/dev/null", "w");
  adapt_stats_print(devnull);
  if (devnull) fclose(devnull);
  adapt_stats_reset();
  clear_marks();
  int rc = adapt_for(0, n_elems, cancel_body, NULL, NULL);
  if (rc != -ECANCELED) fail_run("adapt_for with adapt_cancel", rc);
  for (size_t i = 0; i < n_elems; i++)
    if (atomic_load_explicit(&marks[i], memory_order_relaxed) > 1)
      fail_msg("%s, k=%lu: cancelled adapt_for: index %zu ran twice", cur_name, cur_k, i);
  expect_rc("adapt_try_finalize", adapt_try_finalize(), ok_none);
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
  clear_marks();
  solo_rc[0] = adapt_for(0, n_elems, mark_body, NULL, NULL);
  solo_detail[0] = adapt_last_error()[0] != '\0';
  solo_marks[0] = solo_rc[0] ? 0 : 1;
  adapt_scope s;
  span all = {0, n_elems};
  solo_rc[1] = adapt_scope_begin(&s);
  solo_detail[1] = adapt_last_error()[0] != '\0';
  if (!solo_rc[1] && (adapt_spawn(&s, tree_task, &all) != 0 || adapt_sync(&s) != 0)) bad();
  solo_marks[1] = solo_marks[0] + (solo_rc[1] ? 0 : 1);
  aff_ctx c = {1};
  aff_work w = {0, 0, n_elems, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  solo_rc[2] = adapt_begin(&f, &task, &w);
  solo_detail[2] = adapt_last_error()[0] != '\0';
  if (!solo_rc[2]) {
    aff_entry(&f, &w, &c);
    if (adapt_end(&f) != 0 || w.begin != n_elems) bad();
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

static void sc_solo(void) {
  atomic_store_explicit(&solo_inside, 0, memory_order_relaxed);
  atomic_store_explicit(&solo_done, 0, memory_order_relaxed);
  pthread_t t;
  if (pthread_create(&t, NULL, solo_thread, NULL) != 0) {
    fail_msg("%s, k=%lu: cannot create the thread", cur_name, cur_k);
  }
  adapt_attr a = {0};
  a.sched = ADAPT_SCHED_STATIC; /* one body call, on this thread */
  int rc = adapt_for(0, 1, hold_body, NULL, &a);
  pthread_join(t, NULL);
  expect_rc("adapt_for (holding the workers)", rc, ok_none);
  static const char *const what[3] = {"adapt_for run alone", "adapt_scope_begin run alone",
                                      "adapt_begin run alone"};
  for (int i = 0; i < 3; i++) {
    if (solo_rc[i] != 0 && solo_rc[i] != -ENOMEM) fail_run(what[i], solo_rc[i]);
    if (solo_rc[i] && !solo_detail[i]) fail_run("no adapt_last_error detail", solo_rc[i]);
    run_errors += solo_rc[i] != 0;
  }
  check_marks("calls run alone", n_elems, solo_marks[2]);
}

/* --- Starting the runtime: explicitly (with a trace), lazily -------------- */

static char trace_path[128];

static void sc_init(void) {
  adapt_config cfg = {0};
  cfg.workers = WORKERS;
  cfg.trace_file = trace_path; /* the name is copied, events are buffered */
  if (expect_rc("adapt_init", adapt_init(&cfg), ok_nomem)) return;
  expect_rc("adapt_init (same configuration)", adapt_init(&cfg), ok_none);
  clear_marks();
  if (!expect_rc("adapt_for", adapt_for(0, n_elems, mark_body, NULL, NULL), ok_none))
    check_marks("adapt_for", n_elems, 1);
  expect_rc("adapt_try_finalize", adapt_try_finalize(), ok_none);
}

/* adapt_with_workers's fn: a loop over every element (its code in *ctx). */
static void limited_marks(void *ctx) { *(int *)ctx = adapt_for(0, n_elems, mark_body, NULL, NULL); }

/* Each entry point starts the runtime lazily while the previous ones could
 * not: a failed start has no effect. */
static void sc_lazy(void) {
  clear_marks();
  int rc = expect_rc("adapt_for", adapt_for(0, n_elems, mark_body, NULL, NULL), ok_nomem);
  check_marks("adapt_for", n_elems, rc ? 0 : 1);

  clear_marks();
  int inner = 1;
  rc = expect_rc("adapt_with_workers", adapt_with_workers(2, limited_marks, &inner), ok_nomem);
  if (!rc) expect_rc("adapt_for (in adapt_with_workers)", inner, ok_none);
  check_marks("adapt_with_workers", n_elems, rc ? 0 : 1);

  clear_marks();
  adapt_scope s;
  if (!expect_rc("adapt_scope_begin", adapt_scope_begin(&s), ok_nomem)) {
    span all = {0, n_elems};
    expect_rc("adapt_spawn", adapt_spawn(&s, tree_task, &all), ok_none);
    expect_rc("adapt_sync", adapt_sync(&s), ok_none);
    check_marks("spawn/sync", n_elems, 1);
  }

  aff_ctx c = {1};
  aff_work w = {0, 0, n_elems, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  clear_marks();
  if (!expect_rc("adapt_begin", adapt_begin(&f, &task, &w), ok_nomem)) {
    aff_entry(&f, &w, &c);
    expect_rc("adapt_end", adapt_end(&f), ok_none);
    check_marks("adaptive task", n_elems, 1);
  }

  memset(out, 0, n_elems * sizeof *out);
  rc = expect_rc("adapt_transform", adapt_transform(in, n_elems, 8, out, 8, op_f3, NULL, NULL),
                 ok_nomem);
  if (rc == 0) check_out_f3("adapt_transform");
  for (size_t i = 0; rc && i < n_elems; i++)
    if (out[i] != 0)
      fail_msg("%s, k=%lu: adapt_transform: output written on error", cur_name, cur_k);

  int nw = adapt_num_workers(); /* 1 when it cannot start the runtime */
  if (nw != 1 && nw != WORKERS) fail_run("adapt_num_workers", nw);
}

/* --- The harness ------------------------------------------------------------ */

typedef struct scenario {
  const char *name;
  /* 1: the run starts the runtime (WORKERS workers) before arming the
   * fault, so k counts the calls' own allocations (the init and lazy
   * scenarios fail the starts); 0: the calls start it, armed. */
  int start;
  void (*run)(void);
} scenario;

typedef struct tally {
  unsigned long runs, injected, errors, clean_allocs;
} tally;

static void run_once(const scenario *s, fault_mode mode, unsigned long k, tally *t) {
  cur_name = s->name;
  cur_k = k;
  cur_mode = mode;
  long live0 = fault_live_blocks();
  run_errors = 0;
  atomic_store_explicit(&body_bad, 0, memory_order_relaxed);
  if (s->start) {
    adapt_config cfg = {0};
    cfg.workers = WORKERS;
    assert_int_equal(adapt_init(&cfg), 0);
  }
  if (mode == FAULT_EVERY)
    fault_alloc_arm_every(k, K_MAX);
  else
    fault_alloc_arm(k, mode);
  s->run();
  fault_disarm();
  unsigned long injected = fault_injected(), seen = fault_allocs_seen();
  unsigned long nbad = atomic_load_explicit(&body_bad, memory_order_relaxed);
  if (nbad) fail_msg("%s, k=%lu: %lu bad results inside callbacks", s->name, k, nbad);
  /* The runtime, if still up (this thread is then worker 0), is usable
   * afterwards; a start after a failed one is checked by the next run. */
  if (adapt_worker_id() == 0) {
    clear_marks();
    assert_int_equal(adapt_for(0, n_elems, mark_body, NULL, NULL), 0);
    check_marks("adapt_for after the run", n_elems, 1);
  }
  adapt_finalize();
  if (settled_task_count() != base_tasks)
    fail_msg("%s, k=%lu: %d threads after adapt_finalize, %d before the runtime started", s->name,
             k, task_count(), base_tasks);
  if (fault_live_blocks() != live0)
    fail_msg("%s, k=%lu: %ld blocks leaked", s->name, k, fault_live_blocks() - live0);
  t->runs++;
  t->injected += injected > 0;
  t->errors += run_errors > 0;
  if (!injected && seen > t->clean_allocs) t->clean_allocs = seen;
}

/* k = 0: a run without fault (it counts the allocations); then k = 1..K_MAX
 * failing once (FAULT_EVERY: the k-th, (k+K_MAX)-th... allocation, so that
 * the K_MAX runs reach every allocation of a longer run), then from k on.
 * Each mode stops early after IDLE_STOP
 * consecutive runs in which no failure was injected: k is past the last
 * allocation of the run, and every later k would repeat a run without
 * fault (a start costs a copy of the topology and the threads). */
enum { IDLE_STOP = 3 };

static void run_scenario(const scenario *s) {
  tally t = {0};
  run_once(s, FAULT_ONCE, 0, &t);
  for (int m = 0; m < 2; m++) {
    unsigned long idle = 0;
    for (unsigned long k = 1; k <= K_MAX && idle < IDLE_STOP; k++) {
      unsigned long before = t.injected;
      run_once(s, m ? FAULT_FROM : FAULT_EVERY, k, &t);
      idle = t.injected > before ? 0 : idle + 1;
    }
  }
  printf("fault: %-12s %3lu runs: %3lu with a failure injected, %3lu returned an error; "
         "at most %lu allocations in a run without failure\n",
         s->name, t.runs, t.injected, t.errors, t.clean_allocs);
  if (!s->start) { /* the start allocates: these fail for small k */
    assert_true(t.injected > 0);
    assert_true(t.errors > 0);
  }
}

#define SCENARIO_TEST(fn, start)                                                                   \
  static void test_##fn(void **state) {                                                            \
    static const scenario s = {#fn, start, sc_##fn};                                               \
    run_scenario(&s);                                                                              \
  }

SCENARIO_TEST(lazy, 0)
SCENARIO_TEST(for_all, 1)
SCENARIO_TEST(tasks, 1)
SCENARIO_TEST(algo_map, 1)
SCENARIO_TEST(algo_var, 1)
SCENARIO_TEST(algo_reduce, 1)
SCENARIO_TEST(adaptive, 1)
SCENARIO_TEST(queries, 1)
SCENARIO_TEST(solo, 1)

/* adapt_init with a trace (ADAPT_TRACE_EVENTS=all: the trace buffers grow
 * by realloc on the workers while the regions run). */
static void test_init(void **state) {
  static const scenario s = {"init", 0, sc_init};
  setenv("ADAPT_TRACE_EVENTS", "all", 1);
  run_scenario(&s);
  unsetenv("ADAPT_TRACE_EVENTS");
}

/* pthread_create fails for the k-th worker (k = 1..W-1; k = W: no failure)
 * in an explicit and in a lazy start: -EAGAIN, no thread left, no leak, and
 * the next start works. */
static void test_thread_creation(void **state) {
  static const int counts[] = {2, 4, 8};
  unsigned long failed = 0;
  for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
    int nw = counts[ci];
    char env[16];
    snprintf(env, sizeof env, "%d", nw);
    setenv("ADAPT_WORKERS", env, 1);
    for (int k = 1; k <= nw; k++) {
      cur_name = "threads";
      cur_k = (unsigned long)k;
      long live0 = fault_live_blocks();
      adapt_config cfg = {0};
      cfg.workers = nw;
      fault_thread_arm((unsigned long)k);
      int rc = adapt_init(&cfg);
      fault_disarm();
      if (k < nw) {
        if (rc != -EAGAIN) fail_run("adapt_init with a failing pthread_create", rc);
        assert_int_equal(fault_injected(), 1);
        assert_non_null(strstr(adapt_last_error(), "thread"));
        assert_int_equal(settled_task_count(), base_tasks); /* before any finalize */
        assert_int_equal(fault_live_blocks(), live0);
        failed++;
      } else {
        assert_int_equal(rc, 0);
        adapt_finalize();
      }
      clear_marks();
      fault_thread_arm((unsigned long)k);
      rc = adapt_for(0, n_elems, mark_body, NULL, NULL); /* lazy start */
      fault_disarm();
      assert_int_equal(rc, k < nw ? -EAGAIN : 0);
      check_marks("adapt_for (lazy start)", n_elems, k < nw ? 0 : 1);
      failed += k < nw;
      adapt_finalize();
      assert_int_equal(settled_task_count(), base_tasks);
      assert_int_equal(fault_live_blocks(), live0);
      assert_int_equal(adapt_init(&cfg), 0);
      assert_int_equal(adapt_num_workers(), nw);
      clear_marks();
      assert_int_equal(adapt_for(0, n_elems, mark_body, NULL, NULL), 0);
      check_marks("adapt_for after a failed start", n_elems, 1);
      adapt_finalize();
      assert_int_equal(settled_task_count(), base_tasks);
      assert_int_equal(fault_live_blocks(), live0);
    }
  }
  setenv("ADAPT_WORKERS", "4", 1);
  printf("fault: threads      %lu starts (explicit and lazy) with a failing pthread_create, all "
         "-EAGAIN\n",
         failed);
}

static int fault_teardown(void **state) {
  fault_disarm();
  adapt_finalize();
  assert_int_equal(settled_task_count(), base_tasks);
  return 0;
}

#define FAULT_TEST(f) cmocka_unit_test_teardown(f, fault_teardown)

static void *no_op(void *arg) { return arg; }

int main(void) {
  /* ThreadSanitizer starts a thread of its own at the first pthread_create
   * of the process: create one first, so that the baseline includes it. */
  pthread_t t;
  if (pthread_create(&t, NULL, no_op, NULL) == 0) pthread_join(t, NULL);
  base_tasks = settled_task_count_any();
  n_elems = adapt_test_scale(N_MAX, N_MAX / 8);
  /* The calling thread's grain caches (a heap table per thread, kept until
   * the thread exits: loop.c, seq_engine.c) are made before the runs count
   * their blocks; the workers' go with their threads at adapt_finalize. */
  if (adapt_for(0, 1000, mark_body, NULL, NULL) != 0 ||
      adapt_for_each_range(marks, 1000, 1, op_mark_range, NULL, NULL) != 0) {
    fprintf(stderr, "fault_driver: the warm-up calls failed\n");
    return 1;
  }
  adapt_finalize();
  memset(marks, 0, sizeof marks);
  for (size_t i = 0; i < N_MAX; i++) {
    in[i] = i;
    scan_in[i] = affine_of(i);
  }
  /* Lazy starts use WORKERS workers, like the explicit ones. */
  setenv("ADAPT_WORKERS", "4", 1);
  const char *tmp = getenv("TMPDIR");
  snprintf(trace_path, sizeof trace_path, "%s/adapt-fault-trace-%ld.csv",
           tmp && *tmp ? tmp : "/tmp", (long)getpid());
  const struct CMUnitTest tests[] = {
      FAULT_TEST(test_init),
      FAULT_TEST(test_lazy),
      FAULT_TEST(test_for_all),
      FAULT_TEST(test_tasks),
      FAULT_TEST(test_algo_map),
      FAULT_TEST(test_algo_var),
      FAULT_TEST(test_algo_reduce),
      FAULT_TEST(test_adaptive),
      FAULT_TEST(test_queries),
      FAULT_TEST(test_solo),
      FAULT_TEST(test_thread_creation),
  };
  int rc = adapt_test_run("fault injection", tests);
  unlink(trace_path);
  return rc;
}
