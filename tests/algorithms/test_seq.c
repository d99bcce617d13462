/* adapt_seq_run (<adapt/seq.h>): pieces are merged in sequence order (a
 * non-commutative state: the range a piece has processed), every unit runs
 * exactly once, stolen pieces start from a zero state, every piece's
 * resources are merged or discarded (no leak under ASan), maps run under
 * every scheduler, split ratios (thief_parts), early stop and errors. */
#include <adapt/seq.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo_test.h"

/* The state of a piece: the range [first, last) it stands for, and a
 * malloc'd cell that merge or discard must free. */
typedef struct range_state {
  size_t first, last;
  int has;
  size_t *cell; /* counts the units of the range; freed by merge/discard */
} range_state;

typedef struct range_ctx {
  atomic_uchar *seen;
  atomic_size_t errors, discards, pieces;
} range_ctx;

static void bad(range_ctx *x) { atomic_fetch_add_explicit(&x->errors, 1, memory_order_relaxed); }

static void r_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  range_state *st = sv;
  range_ctx *x = ctx;
  if (!st->has) {
    if (st->first || st->last || st->cell) bad(x); /* a new piece's state is zero */
    st->has = 1;
    st->first = st->last = b;
    st->cell = calloc(1, sizeof *st->cell);
    atomic_fetch_add_explicit(&x->pieces, 1, memory_order_relaxed);
  }
  if (b != st->last || b >= e) bad(x); /* chunks follow each other */
  for (size_t i = b; i < e; i++) atomic_fetch_add_explicit(&x->seen[i], 1, memory_order_relaxed);
  st->last = e;
  if (st->cell) *st->cell += e - b;
}

static void r_merge(adapt_seq *s, void *sv, void *tv, size_t tb, size_t te, void *ctx) {
  range_state *v = sv, *t = tv;
  range_ctx *x = ctx;
  if (!t->has) { /* a thief that ran nothing */
    if (tb != te) bad(x);
    return;
  }
  /* In sequence order: the thief's range follows the victim's. */
  if (t->first != tb || t->last != te || (v->has && v->last != tb)) bad(x);
  if (!t->cell || *t->cell != te - tb) bad(x);
  if (!v->has) {
    *v = *t;
  } else {
    v->last = te;
    if (v->cell) *v->cell += *t->cell;
    free(t->cell);
  }
  memset(t, 0, sizeof *t);
}

static void r_discard(adapt_seq *s, void *tv, void *ctx) {
  range_state *t = tv;
  free(t->cell);
  memset(t, 0, sizeof *t);
  atomic_fetch_add_explicit(&((range_ctx *)ctx)->discards, 1, memory_order_relaxed);
}

static const adapt_seq_kernel range_kernel = {r_run, r_merge, r_discard, sizeof(range_state), 0};

static void range_ctx_init(range_ctx *x, atomic_uchar *seen, size_t n) {
  for (size_t i = 0; i < n; i++) atomic_init(&seen[i], 0);
  x->seen = seen;
  atomic_init(&x->errors, 0);
  atomic_init(&x->discards, 0);
  atomic_init(&x->pieces, 0);
}

/* The same kernel with split ratios: a thief gets 2 parts, and the most. */
static const adapt_seq_kernel range_kernel_2 = {r_run, r_merge, r_discard, sizeof(range_state), 2};
static const adapt_seq_kernel range_kernel_max = {r_run, r_merge, r_discard, sizeof(range_state),
                                                  ADAPT_SEQ_THIEF_PARTS_MAX};

static int ordered_with(const algo_case *c, const adapt_seq_kernel *k) {
  atomic_uchar *seen = malloc(c->n + 1);
  range_ctx x;
  range_ctx_init(&x, seen, c->n + 1);
  range_state st = {0};
  int rc = adapt_seq_run("test_seq", c->n, 8, k, &x, &st, &c->attr);
  size_t wrong = 0;
  for (size_t i = 0; i <= c->n; i++) wrong += atomic_load(&seen[i]) != (i < c->n);
  int ok = rc == 0 && wrong == 0 && atomic_load(&x.errors) == 0 && atomic_load(&x.discards) == 0 &&
           (c->n == 0 ? !st.has
                      : st.has && st.first == 0 && st.last == c->n && st.cell && *st.cell == c->n);
  if (!ok) {
    algo_case_print(c, "seq ordered");
    fprintf(stderr, "  thief_parts=%u rc=%d wrong=%zu errors=%zu first=%zu last=%zu\n",
            k->thief_parts, rc, wrong, atomic_load(&x.errors), st.first, st.last);
  }
  free(st.cell);
  free(seen);
  return !ok;
}

static int case_ordered(const algo_case *c, void *arg) { return ordered_with(c, &range_kernel); }

/* Every unit once, merges in order, with unequal splits (every mode and
 * splitter of the matrix: the local side takes the ratio, the distant side
 * and the balanced splitter's share follow). */
static int case_ordered_parts(const algo_case *c, void *arg) {
  return ordered_with(c, &range_kernel_2) | ordered_with(c, &range_kernel_max);
}

/* --- split ratio: a thief's first piece ------------------------------------ */
/* The caller runs one unit per chunk, 1 ms each, until a thief has run:
 * the thief's request is pending at one of the caller's steal points, where
 * it takes the caller's position p; the thief's piece is the tail of
 * [p, n) of tp * floor((n - p) / (tp + 1)) units (tp = thief_parts; 1:
 * half). pos: the start of the caller's chunk in progress (the thief may
 * read the previous one). */
typedef struct ratio_ctx {
  atomic_size_t pos, first_b, split_pos;
  atomic_int stolen;
} ratio_ctx;

static void ratio_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  ratio_ctx *x = ctx;
  int *master = sv;
  if (*master) {
    atomic_store_explicit(&x->pos, b, memory_order_relaxed);
    if (!atomic_load_explicit(&x->stolen, memory_order_relaxed)) {
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL);
    }
    return;
  }
  size_t none = SIZE_MAX;
  /* relaxed: a test record, read after the call (joined by the runtime) */
  if (atomic_compare_exchange_strong_explicit(&x->first_b, &none, b, memory_order_relaxed,
                                              memory_order_relaxed)) {
    atomic_store_explicit(&x->split_pos, atomic_load_explicit(&x->pos, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&x->stolen, 1, memory_order_relaxed);
  }
}

static void ratio_merge(adapt_seq *s, void *sv, void *tv, size_t tb, size_t te, void *ctx) {}

static void test_seq_thief_parts(void **state) {
  assert_int_equal(adapt_test_workers(2), 0);
  const size_t n = 3001;
  for (unsigned tp = 0; tp <= 3; tp++) {
    const adapt_seq_kernel k = {ratio_run, ratio_merge, NULL, sizeof(int), tp};
    const size_t parts = tp ? tp : 1;
    ratio_ctx x;
    atomic_init(&x.pos, 0);
    atomic_init(&x.first_b, SIZE_MAX);
    atomic_init(&x.split_pos, 0);
    atomic_init(&x.stolen, 0);
    int master = 1;
    adapt_attr a = {0};
    a.grain = 1;
    a.window = ADAPT_WINDOW_NONE;
    assert_int_equal(adapt_seq_run("ratio", n, 8, &k, &x, &master, &a), 0);
    size_t b = atomic_load(&x.first_b), p = atomic_load(&x.split_pos);
    assert_true(b < n); /* a thief ran within the caller's n ms */
    /* The caller was at p + 1 at most when it split: the thief reads p at
     * its first unit, which may come some units after the split (the
     * caller keeps running its 1 ms units until `stolen` is set: under
     * TSan the thief started 3 units late once). p stays small, so that
     * the pieces of the different ratios (1/2, 2/3, 3/4 of the rest) do
     * not overlap. */
    assert_true(p < 100);
    int ok = 0;
    for (size_t at = 0; at <= p + 1 && at < n; at++)
      ok |= n - b == parts * ((n - at) / (parts + 1));
    if (!ok) fprintf(stderr, "thief_parts %u: piece [%zu, %zu), caller at %zu\n", tp, b, n, p);
    assert_true(ok);
  }
}

/* --- early stop: units past the limit are discarded, never merged -------- */

typedef struct stop_ctx {
  range_ctx r;
  size_t at;
  int err;
} stop_ctx;

static void s_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  stop_ctx *x = ctx;
  r_run(s, sv, b, e, &x->r);
  if (b <= x->at && x->at < e) adapt_seq_stop(s, x->at + 1, x->err);
}

static void s_merge(adapt_seq *s, void *sv, void *tv, size_t tb, size_t te, void *ctx) {
  r_merge(s, sv, tv, tb, te, &((stop_ctx *)ctx)->r);
}

static void s_discard(adapt_seq *s, void *tv, void *ctx) {
  r_discard(s, tv, &((stop_ctx *)ctx)->r);
}

static const adapt_seq_kernel stop_kernel = {s_run, s_merge, s_discard, sizeof(range_state), 0};

/* body(seen, n) on each worker count of the matrix (algo_workers); seen:
 * room for n visit counts (range_ctx_init zeroes them). */
static void on_each_worker_count(size_t n, void (*body)(atomic_uchar *seen, size_t n)) {
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    body(seen, n);
  }
  free(seen);
}

static void stop_cases(atomic_uchar *seen, size_t n) {
  for (int err = 0; err >= -ERANGE; err -= ERANGE) {
    stop_ctx x;
    range_ctx_init(&x.r, seen, n);
    x.at = n / 3;
    x.err = err;
    range_state st = {0};
    adapt_attr a = {0};
    a.grain = 64;
    int rc = adapt_seq_run(NULL, n, 8, &stop_kernel, &x, &st, &a);
    assert_int_equal(rc, err);
    if (err) assert_non_null(strstr(adapt_last_error(), "adapt_seq_run"));
    assert_int_equal(atomic_load(&x.r.errors), 0);
    /* Everything up to the limit ran exactly once, nothing twice. */
    for (size_t i = 0; i < n; i++) {
      unsigned v = atomic_load(&seen[i]);
      if (i <= x.at) assert_int_equal(v, 1);
      assert_true(v <= 1);
    }
    assert_int_equal(st.first, 0);
    assert_true(st.last >= x.at + 1);
    free(st.cell);
  }
}

static void test_seq_stop(void **state) {
  on_each_worker_count(adapt_test_scale(400000, 40000), stop_cases);
}

/* --- maps: the master's state shared read-only, every scheduler ----------- */

typedef struct map_state {
  uint64_t magic;
} map_state;

static void m_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  range_ctx *x = ctx;
  if (((const map_state *)sv)->magic != 0xfeedu) bad(x);
  for (size_t i = b; i < e; i++) atomic_fetch_add_explicit(&x->seen[i], 1, memory_order_relaxed);
}

static const adapt_seq_kernel map_kernel = {m_run, NULL, NULL, sizeof(map_state), 0};

static void map_cases(atomic_uchar *seen, size_t n) {
  for (int s = ADAPT_SCHED_DEFAULT; s < ADAPT_SCHED_COUNT; s++) {
    range_ctx x;
    range_ctx_init(&x, seen, n);
    map_state st = {0xfeedu};
    adapt_attr a = {0};
    a.sched = (adapt_sched)s;
    assert_int_equal(adapt_seq_run("map", n, 8, &map_kernel, &x, &st, &a), 0);
    assert_int_equal(atomic_load(&x.errors), 0);
    for (size_t i = 0; i < n; i++) assert_int_equal(atomic_load(&seen[i]), 1);
    assert_int_equal(st.magic, 0xfeedu);
  }
}

static void test_seq_map_schedulers(void **state) {
  const size_t n = adapt_test_scale(100003, 10007);
  on_each_worker_count(n, map_cases);
  /* A merging kernel needs the adaptive protocol. */
  range_state st = {0};
  adapt_attr a = {0};
  a.sched = ADAPT_SCHED_STATIC;
  assert_int_equal(adapt_seq_run("ordered", n, 8, &range_kernel, NULL, &st, &a), -ENOTSUP);
  assert_non_null(strstr(adapt_last_error(), "ordered"));
}

/* --- cancel from a callback ------------------------------------------------ */

static void c_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  stop_ctx *x = ctx;
  r_run(s, sv, b, e, &x->r);
  if (b <= x->at && x->at < e) {
    if (adapt_cancel() != 0) bad(&x->r);
    if (!adapt_cancelled()) bad(&x->r);
  }
}

static const adapt_seq_kernel cancel_kernel = {c_run, s_merge, s_discard, sizeof(range_state), 0};

static void test_seq_cancel(void **state) {
  const size_t n = adapt_test_scale(300000, 30000);
  atomic_uchar *seen = malloc(n);
  assert_non_null(seen);
  assert_int_equal(adapt_test_workers(3), 0);
  const adapt_window_mode modes[] = {ADAPT_WINDOW_NONE, ADAPT_WINDOW_STATIC, ADAPT_WINDOW_SLIDING};
  for (size_t mi = 0; mi < 3; mi++) {
    stop_ctx x;
    range_ctx_init(&x.r, seen, n);
    x.at = n / 2;
    x.err = 0;
    range_state st = {0};
    adapt_attr a = {0};
    a.window = modes[mi];
    a.window_size = 1000;
    int rc = adapt_seq_run("cancelled", n, 8, &cancel_kernel, &x, &st, &a);
    assert_int_equal(rc, -ECANCELED);
    assert_non_null(strstr(adapt_last_error(), "cancelled: cancelled by a body"));
    assert_int_equal(atomic_load(&x.r.errors), 0);
    for (size_t i = 0; i < n; i++) assert_true(atomic_load(&seen[i]) <= 1);
    free(st.cell);
  }
  free(seen);
}

/* --- errors ---------------------------------------------------------------- */

static atomic_int calls;
static void count_run(adapt_seq *s, void *sv, size_t b, size_t e, void *ctx) {
  atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

static void test_seq_errors(void **state) {
  atomic_init(&calls, 0);
  unsigned char st[ADAPT_SEQ_STATE_MAX + 16] = {0};
  adapt_seq_kernel k = {count_run, NULL, NULL, 8, 0};
  assert_int_equal(adapt_seq_run(NULL, 10, 8, NULL, NULL, st, NULL), -EINVAL);
  adapt_seq_kernel no_run = {NULL, NULL, NULL, 0, 0};
  assert_int_equal(adapt_seq_run("f", 10, 8, &no_run, NULL, st, NULL), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "f: kernel"));
  adapt_seq_kernel big = {count_run, NULL, NULL, ADAPT_SEQ_STATE_MAX + 1, 0};
  assert_int_equal(adapt_seq_run(NULL, 10, 8, &big, NULL, st, NULL), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "ADAPT_SEQ_STATE_MAX"));
  adapt_seq_kernel parts = {count_run, NULL, NULL, 8, ADAPT_SEQ_THIEF_PARTS_MAX + 1};
  assert_int_equal(adapt_seq_run(NULL, 10, 8, &parts, NULL, st, NULL), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "ADAPT_SEQ_THIEF_PARTS_MAX"));
  assert_int_equal(adapt_seq_run(NULL, 10, 8, &k, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_seq_run(NULL, 10, 0, &k, NULL, st, NULL), -EINVAL);
  adapt_attr a = {0};
  a.window = (adapt_window_mode)42;
  assert_int_equal(adapt_seq_run(NULL, 10, 8, &k, NULL, st, &a), -EINVAL);
  assert_int_equal(atomic_load(&calls), 0);
  /* n == 0: nothing called, success. */
  assert_int_equal(adapt_seq_run(NULL, 0, 8, &k, NULL, st, NULL), 0);
  assert_int_equal(atomic_load(&calls), 0);
  assert_int_equal(adapt_seq_limit(NULL), 0);
  adapt_seq_stop(NULL, 0, -EINVAL); /* ignored */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_seq_ordered_matrix, case_ordered),
      ALGO_MATRIX_TEST(test_seq_thief_parts_matrix, case_ordered_parts),
      ADAPT_TEST(test_seq_thief_parts),
      ADAPT_TEST(test_seq_stop),
      ADAPT_TEST(test_seq_map_schedulers),
      ADAPT_TEST(test_seq_cancel),
      ADAPT_TEST(test_seq_errors),
  };
  return adapt_test_run("seq", tests);
}
