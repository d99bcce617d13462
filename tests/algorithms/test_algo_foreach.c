/* adapt_for_each, adapt_transform and their range forms: every element
 * exactly once and equal to the sequential loop, for every window mode,
 * splitter, worker count, grain and size; error paths; the worker limit
 * (adapt_attr.max_workers) of for_each and reduce. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo_test.h"

/* --- for_each: each element counts its visits ---------------------------- */

static void inc_op(void *elem, void *ctx) { (*(uint32_t *)elem)++; }

typedef struct range_ctx {
  atomic_size_t calls, empty;
} range_ctx;

static void inc_range(void *first, size_t n, void *ctx) {
  range_ctx *r = ctx;
  atomic_fetch_add_explicit(&r->calls, 1, memory_order_relaxed);
  if (n == 0) atomic_fetch_add_explicit(&r->empty, 1, memory_order_relaxed);
  uint32_t *p = first;
  for (size_t i = 0; i < n; i++) p[i]++;
}

static int case_for_each(const algo_case *c, void *arg) {
  uint32_t *a = calloc(c->n + 1, sizeof *a);
  assert_non_null(a);
  int rc = adapt_for_each(a, c->n, sizeof *a, inc_op, NULL, &c->attr);
  size_t bad = 0;
  for (size_t i = 0; i < c->n; i++) bad += a[i] != 1;
  range_ctx r;
  atomic_init(&r.calls, 0);
  atomic_init(&r.empty, 0);
  int rc2 = adapt_for_each_range(a, c->n, sizeof *a, inc_range, &r, &c->attr);
  for (size_t i = 0; i < c->n; i++) bad += a[i] != 2;
  bad += a[c->n] != 0; /* nothing past the end */
  free(a);
  if (rc || rc2 || bad || atomic_load(&r.empty) || (c->n == 0) != (atomic_load(&r.calls) == 0)) {
    algo_case_print(c, "for_each");
    fprintf(stderr, "  rc=%d rc2=%d bad=%zu empty=%zu\n", rc, rc2, bad, atomic_load(&r.empty));
    return 1;
  }
  return 0;
}

/* --- transform: different in and out sizes, and in place ---------------- */

static void sq_op(const void *in, void *out, void *ctx) {
  uint32_t x = *(const uint32_t *)in;
  *(uint64_t *)out = algo_mix(x) + 1;
}

static void sq_range(const void *in, void *out, size_t n, void *ctx) {
  const uint32_t *p = in;
  uint64_t *q = out;
  for (size_t i = 0; i < n; i++) q[i] = algo_mix(p[i]) + 1;
}

static void neg_op(const void *in, void *out, void *ctx) {
  *(int64_t *)out = -*(const int64_t *)in * 3;
}

static int case_transform(const algo_case *c, void *arg) {
  size_t n = c->n;
  uint32_t *in = malloc((n + 1) * sizeof *in);
  uint64_t *out = calloc(n + 1, sizeof *out);
  int64_t *io = malloc((n + 1) * sizeof *io);
  assert_true(in && out && io);
  for (size_t i = 0; i < n; i++) {
    in[i] = (uint32_t)algo_mix(i);
    io[i] = (int64_t)i - 5;
  }
  out[n] = 77;
  int rc = adapt_transform(in, n, sizeof *in, out, sizeof *out, sq_op, NULL, &c->attr);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += out[i] != algo_mix(in[i]) + 1;
  for (size_t i = 0; i < n; i++) out[i] = 0;
  int rc2 = adapt_transform_range(in, n, sizeof *in, out, sizeof *out, sq_range, NULL, &c->attr);
  for (size_t i = 0; i < n; i++) bad += out[i] != algo_mix(in[i]) + 1;
  bad += out[n] != 77;
  int rc3 = adapt_transform(io, n, sizeof *io, io, sizeof *io, neg_op, NULL, &c->attr);
  for (size_t i = 0; i < n; i++) bad += io[i] != -((int64_t)i - 5) * 3;
  free(in);
  free(out);
  free(io);
  if (rc || rc2 || rc3 || bad) {
    algo_case_print(c, "transform");
    fprintf(stderr, "  rc=%d,%d,%d bad=%zu\n", rc, rc2, rc3, bad);
    return 1;
  }
  return 0;
}

/* --- nested: a for_each inside a for_each op ----------------------------- */

typedef struct row {
  uint32_t cells[300];
} row;

static void row_op(void *elem, void *ctx) {
  row *r = elem;
  int rc = adapt_for_each(r->cells, 300, sizeof(uint32_t), inc_op, NULL, ctx);
  if (rc) r->cells[0] = 1000; /* reported as a wrong count */
}

static void test_nested(void **state) {
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    for (size_t mi = 0; mi < ALGO_NMODES; mi++) {
      row *rows = calloc(200, sizeof *rows);
      assert_non_null(rows);
      adapt_attr a = algo_attr(&algo_modes[mi], 50, 3);
      assert_int_equal(adapt_for_each(rows, 200, sizeof *rows, row_op, &a, &a), 0);
      for (size_t i = 0; i < 200; i++)
        for (size_t j = 0; j < 300; j++) assert_int_equal(rows[i].cells[j], 1);
      free(rows);
    }
  }
}

/* --- top-level calls from several foreign threads at once (serialised by
 * the runtime): each gets its own exact result ----------------------------- */

typedef struct foreign {
  size_t n;
  int mode;
  int rc;
  size_t bad;
} foreign;

static void *foreign_main(void *v) {
  foreign *f = v;
  uint32_t *a = calloc(f->n, sizeof *a);
  if (!a) {
    f->rc = -ENOMEM;
    return NULL;
  }
  adapt_attr at = algo_attr(&algo_modes[f->mode], 1000, 0);
  for (int r = 0; r < 20 && !f->rc; r++)
    f->rc = adapt_for_each(a, f->n, sizeof *a, inc_op, NULL, &at);
  for (size_t i = 0; i < f->n; i++) f->bad += a[i] != 20;
  free(a);
  return NULL;
}

static void test_foreign_threads(void **state) {
  enum { T = 4 };
  pthread_t th[T];
  foreign f[T];
  for (int i = 0; i < T; i++) {
    f[i] = (foreign){adapt_test_scale(100000, 20000), i % (int)ALGO_NMODES, 0, 0};
    assert_int_equal(pthread_create(&th[i], NULL, foreign_main, &f[i]), 0);
  }
  for (int i = 0; i < T; i++) {
    assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(f[i].rc, 0);
    assert_int_equal(f[i].bad, 0);
  }
}

/* --- errors: no callback runs, outputs untouched -------------------------- */

static atomic_int calls;
static void count_op(void *elem, void *ctx) { atomic_fetch_add(&calls, 1); }
static void count_range(void *first, size_t n, void *ctx) { atomic_fetch_add(&calls, 1); }
static void count_tr(const void *in, void *out, void *ctx) { atomic_fetch_add(&calls, 1); }

static void test_errors(void **state) {
  uint32_t a[16] = {0};
  uint64_t b[16] = {0};
  atomic_store(&calls, 0);
  assert_int_equal(adapt_for_each(a, 16, sizeof *a, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_for_each(a, 16, 0, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_for_each(NULL, 16, 4, count_op, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_for_each(a, SIZE_MAX / 2, 4, count_op, NULL, NULL), -EOVERFLOW);
  assert_int_equal(adapt_for_each_range(a, SIZE_MAX / 3, 4, count_range, NULL, NULL), -EOVERFLOW);
  assert_int_equal(adapt_for_each_range(a, 16, 4, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(a, 16, 4, b, 8, NULL, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(a, 16, 0, b, 8, count_tr, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(a, 16, 4, b, 0, count_tr, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(a, SIZE_MAX / 4, 4, b, 8, count_tr, NULL, NULL), -EOVERFLOW);
  assert_int_equal(adapt_transform(a, 16, 4, NULL, 8, count_tr, NULL, NULL), -EINVAL);
  /* overlapping in and out: shifted, or same base with other sizes */
  assert_int_equal(adapt_transform(a, 8, 4, a + 1, 4, count_tr, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(b, 4, 8, b, 4, count_tr, NULL, NULL), -EINVAL);
  assert_int_equal(adapt_transform(b, 4, 8, (char *)b + 8, 8, count_tr, NULL, NULL), -EINVAL);
  /* bad attributes */
  adapt_attr at = {0};
  at.window = (adapt_window_mode)42;
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, &at), -EINVAL);
  at.window = ADAPT_WINDOW_SLIDING;
  at.splitter = (adapt_window_splitter)42;
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, &at), -EINVAL);
  at.splitter = ADAPT_SPLITTER_DEFAULT;
  at.sched = (adapt_sched)42;
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, &at), -EINVAL);
  /* bad environment: adapt_init reads it (the lazy start of the call
   * fails), also when the attribute sets the field */
  adapt_finalize();
  setenv("ADAPT_WINDOW", "diagonal", 1);
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, NULL), -EINVAL);
  unsetenv("ADAPT_WINDOW");
  setenv("ADAPT_WINDOW_SIZE", "12x", 1);
  adapt_attr st = {0};
  st.window = ADAPT_WINDOW_STATIC;
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, &st), -EINVAL);
  setenv("ADAPT_WINDOW_SIZE", "0", 1);
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, &st), -EINVAL);
  unsetenv("ADAPT_WINDOW_SIZE");
  setenv("ADAPT_SPLITTER", "far", 1);
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, NULL), -EINVAL);
  unsetenv("ADAPT_SPLITTER");
  setenv("ADAPT_GRAIN", "-3", 1);
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, NULL), -EINVAL);
  unsetenv("ADAPT_GRAIN");
  assert_int_equal(atomic_load(&calls), 0);
  for (int i = 0; i < 16; i++) assert_int_equal(a[i], 0);
  /* count 0: no call, NULL arrays allowed */
  assert_int_equal(adapt_for_each(NULL, 0, 4, count_op, NULL, NULL), 0);
  assert_int_equal(adapt_transform(NULL, 0, 4, NULL, 8, count_tr, NULL, NULL), 0);
  assert_int_equal(atomic_load(&calls), 0);
  /* valid environment values are used (read by the lazy start) */
  adapt_finalize();
  setenv("ADAPT_WINDOW", "sliding", 1);
  setenv("ADAPT_WINDOW_SIZE", "5", 1);
  setenv("ADAPT_SPLITTER", "distant", 1);
  setenv("ADAPT_GRAIN", "2", 1);
  assert_int_equal(adapt_for_each(a, 16, 4, count_op, NULL, NULL), 0);
  assert_int_equal(atomic_load(&calls), 16);
  unsetenv("ADAPT_WINDOW");
  unsetenv("ADAPT_WINDOW_SIZE");
  unsetenv("ADAPT_SPLITTER");
  unsetenv("ADAPT_GRAIN");
}

/* --- Schedulers: the maps run under every scheduler of adapt_for; the
 * algorithms that merge in order need the adaptive protocol. ------------- */

static int sum_op(const void *elem, void *ctx) { return *(const uint32_t *)elem != 0; }

static void test_schedulers(void **state) {
  const size_t n = adapt_test_scale(200003, 20011);
  uint32_t *a = calloc(n, sizeof *a);
  uint64_t *o = calloc(n, sizeof *o);
  assert_non_null(a);
  assert_non_null(o);
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    assert_int_equal(adapt_test_workers(algo_workers[wi]), 0);
    for (int s = ADAPT_SCHED_ADAPTIVE; s < ADAPT_SCHED_COUNT; s++) {
      for (size_t gi = 0; gi < 3; gi++) {
        adapt_attr at = {0};
        at.sched = (adapt_sched)s;
        at.grain = algo_grains[gi];
        memset(a, 0, n * sizeof *a);
        assert_int_equal(adapt_for_each(a, n, sizeof *a, inc_op, NULL, &at), 0);
        range_ctx r;
        atomic_init(&r.calls, 0);
        atomic_init(&r.empty, 0);
        assert_int_equal(adapt_for_each_range(a, n, sizeof *a, inc_range, &r, &at), 0);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += a[i] != 2;
        if (bad)
          fprintf(stderr, "for_each %s grain %zu: %zu bad\n", adapt_sched_name(s), at.grain, bad);
        assert_int_equal(bad, 0);
        assert_int_equal(atomic_load(&r.empty), 0);
        for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
        memset(o, 0, n * sizeof *o);
        assert_int_equal(adapt_transform(a, n, sizeof *a, o, sizeof *o, sq_op, NULL, &at), 0);
        for (size_t i = 0; i < n; i++) bad += o[i] != algo_mix((uint32_t)i) + 1;
        assert_int_equal(bad, 0);
      }
    }
  }
  /* Ordered merges and windows: the adaptive protocol only. */
  size_t cnt = 0;
  adapt_attr at = {0};
  at.sched = ADAPT_SCHED_DAC;
  assert_int_equal(adapt_count_if(a, n, sizeof *a, &cnt, sum_op, NULL, &at), -ENOTSUP);
  at.window = ADAPT_WINDOW_STATIC;
  memset(a, 0, n * sizeof *a);
  assert_int_equal(adapt_for_each(a, n, sizeof *a, inc_op, NULL, &at), -ENOTSUP);
  for (size_t i = 0; i < n; i++) assert_int_equal(a[i], 0); /* nothing ran */
  /* ADAPT_SCHED is the default of the maps, read at adapt_init; the
   * merging algorithms keep the adaptive protocol under it. */
  setenv("ADAPT_SCHED", "static", 1);
  assert_int_equal(adapt_test_workers(2), 0);
  assert_int_equal(adapt_for_each(a, n, sizeof *a, inc_op, NULL, NULL), 0);
  for (size_t i = 0; i < n; i++) assert_int_equal(a[i], 1);
  assert_int_equal(adapt_count_if(a, n, sizeof *a, &cnt, sum_op, NULL, NULL), 0);
  assert_int_equal(cnt, n);
  setenv("ADAPT_SCHED", "round-robin", 1);
  assert_int_equal(adapt_test_workers(2), -EINVAL);
  unsetenv("ADAPT_SCHED");
  free(a);
  free(o);
}

/* --- ADAPT_TRACE records the algorithms' ranges -------------------------- */

typedef struct trace_range {
  unsigned long long a, b;
} trace_range;

static int by_start(const void *x, const void *y) {
  const trace_range *p = x, *q = y;
  return p->a < q->a ? -1 : p->a > q->a;
}

static void spin_range(void *first, size_t n, void *ctx) {
  double *x = first;
  for (size_t i = 0; i < n; i++) x[i] = x[i] * 0.5 + 1.0;
  adapt_test_spin_ns(20 * n); /* thieves find something to steal */
}

/* The "range" events of one call tile [0, n): every element in exactly one
 * event, whatever the workers and the window mode. */
static void test_trace_ranges(void **state) {
  size_t n = adapt_test_scale(200000, 50000);
  double *x = calloc(n, sizeof *x);
  assert_non_null(x);
  char path[] = "/tmp/adapt-trace-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  const adapt_window_mode modes[] = {ADAPT_WINDOW_NONE, ADAPT_WINDOW_STATIC, ADAPT_WINDOW_SLIDING};
  for (int workers = 1; workers <= 3; workers++)
    for (size_t mi = 0; mi < 3; mi++) {
      adapt_finalize();
      adapt_config cfg = {0};
      cfg.workers = workers;
      cfg.trace_file = path;
      assert_int_equal(adapt_init(&cfg), 0);
      adapt_attr a = {0};
      a.window = modes[mi];
      a.window_size = n / 7;
      assert_int_equal(adapt_for_each_range(x, n, sizeof *x, spin_range, NULL, &a), 0);
      adapt_finalize(); /* writes the trace */
      FILE *f = fopen(path, "r");
      assert_non_null(f);
      size_t cap = 1024, k = 0;
      trace_range *r = malloc(cap * sizeof *r);
      assert_non_null(r);
      char line[256], ev[32];
      int worker;
      unsigned long long ra, rb;
      while (fgets(line, sizeof line, f))
        if (sscanf(line, "%d,%31[^,],%llu,%llu", &worker, ev, &ra, &rb) == 4 &&
            !strcmp(ev, "range")) {
          if (k == cap) {
            r = realloc(r, (cap *= 2) * sizeof *r);
            assert_non_null(r);
          }
          r[k++] = (trace_range){ra, rb};
        }
      fclose(f);
      qsort(r, k, sizeof *r, by_start);
      unsigned long long end = 0;
      for (size_t i = 0; i < k; i++) {
        if (r[i].a != end || r[i].b <= r[i].a)
          fprintf(stderr, "workers=%d mode=%d: range [%llu, %llu) after %llu\n", workers,
                  (int)modes[mi], r[i].a, r[i].b, end);
        assert_int_equal(r[i].a, end);
        assert_true(r[i].b > r[i].a);
        end = r[i].b;
      }
      assert_int_equal(end, n);
      free(r);
    }
  unlink(path);
  free(x);
}

/* --- Worker limit (adapt_attr.max_workers): with 8 workers and k = 1, 2,
 * 3, at most k distinct workers run the calls of for_each (no window, the
 * sliding window, the dac scheduler) and of reduce (its merges), every
 * element once, the results right. ------------------------------------- */

/* Bit w: worker w ran an op; bit 31: an op ran off the workers. */
static void limit_note(void *ctx) {
  int id = adapt_worker_id();
  atomic_fetch_or_explicit((atomic_uint *)ctx, id >= 0 && id < 31 ? 1u << id : 1u << 31,
                           memory_order_relaxed);
  adapt_test_spin_ns(300); /* long enough for the idle workers to ask */
}

static void limit_inc(void *elem, void *ctx) {
  (*(uint32_t *)elem)++;
  limit_note(ctx);
}

static void limit_sum(void *acc, const void *first, size_t n, void *ctx) {
  for (size_t i = 0; i < n; i++) {
    *(uint64_t *)acc += ((const uint32_t *)first)[i];
    limit_note(ctx);
  }
}

static void limit_add(void *acc, const void *other, void *ctx) {
  *(uint64_t *)acc += *(const uint64_t *)other;
}

static void test_max_workers(void **state) {
  assert_int_equal(adapt_test_workers(8), 0);
  const size_t n = adapt_test_scale(4096, 512);
  uint32_t *a = malloc(n * sizeof *a);
  assert_non_null(a);
  for (unsigned k = 1; k <= 3; k++)
    for (int v = 0; v < 4; v++) {
      adapt_attr at = {0};
      at.max_workers = k;
      at.window = v == 1 ? ADAPT_WINDOW_SLIDING : ADAPT_WINDOW_DEFAULT;
      at.window_size = v == 1 ? 256 : 0;
      at.sched = v == 2 ? ADAPT_SCHED_DAC : ADAPT_SCHED_DEFAULT;
      atomic_uint ids = 0;
      for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
      if (v < 3) {
        assert_int_equal(adapt_for_each(a, n, sizeof *a, limit_inc, &ids, &at), 0);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += a[i] != i + 1;
        assert_int_equal(bad, 0);
      } else {
        uint64_t sum = 0, zero = 0;
        assert_int_equal(
            adapt_reduce(a, n, sizeof *a, &sum, sizeof sum, &zero, limit_sum, limit_add, &ids, &at),
            0);
        assert_int_equal(sum, (uint64_t)n * (n - 1) / 2);
      }
      unsigned seen = atomic_load(&ids);
      if (__builtin_popcount(seen) > (int)k || (seen >> 31))
        fprintf(stderr, "k=%u case %d: workers 0x%x\n", k, v, seen);
      assert_int_equal(seen >> 31, 0);
      assert_true(__builtin_popcount(seen) >= 1 && __builtin_popcount(seen) <= (int)k);
    }
  free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ALGO_MATRIX_TEST(test_for_each_matrix, case_for_each),
      ALGO_MATRIX_TEST(test_transform_matrix, case_transform),
      ADAPT_TEST(test_nested),
      ADAPT_TEST_WORKERS(test_foreign_threads, 3),
      ADAPT_TEST_WORKERS(test_errors, 2),
      ADAPT_TEST(test_schedulers),
      ADAPT_TEST(test_trace_ranges),
      ADAPT_TEST(test_max_workers),
  };
  return adapt_test_run("algo_foreach", tests);
}
