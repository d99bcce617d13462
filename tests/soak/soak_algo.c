/* tests/soak: the sequence algorithms' region (soak_region_algo): each
 * algorithm of <adapt/algorithms.h>, per-element and range forms, with a
 * random window mode, window size, splitter, grain and scheduler, its
 * result checked against the sequential definition. */
#include <adapt/algorithms.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "soak_c.h"

enum { VAR_MAX_OUT = 3 }; /* transform_var: outputs per element at most */

typedef struct algo_ctx {
  visits m;
  uint64_t seed;
  int depth;
  const uint64_t *in;
  size_t target; /* find_if */
  atomic_ulong bad;
} algo_ctx;

static void bad(algo_ctx *c) { atomic_fetch_add_explicit(&c->bad, 1, memory_order_relaxed); }

static uint64_t f3(uint64_t v) { return v * 3 + 1; }

/* Visit the element at v (an index, since in[i] == i) and maybe nest. */
static void touch(algo_ctx *c, uint64_t v) {
  soak_visit(&c->m, (size_t)v);
  soak_maybe_nest(c->seed, c->depth, (size_t)v, (size_t)v + 1);
}

static void op_each(void *e, void *cv) { touch(cv, *(uint64_t *)e); }
static void op_each_range(void *e, size_t n, void *cv) {
  for (size_t i = 0; i < n; i++) op_each((uint64_t *)e + i, cv);
}
static void op_f3(const void *i, void *o, void *cv) {
  touch(cv, *(const uint64_t *)i);
  *(uint64_t *)o = f3(*(const uint64_t *)i);
}
static void op_f3_range(const void *i, void *o, size_t n, void *cv) {
  range_transform(op_f3, i, o, n, cv);
}
static size_t op_var(const void *i, void *o, void *cv) {
  uint64_t v = *(const uint64_t *)i;
  touch(cv, v);
  size_t k = (size_t)(mix(v) % (VAR_MAX_OUT + 1));
  for (size_t j = 0; j < k; j++) ((uint64_t *)o)[j] = v * 8 + j;
  return k;
}
static int pred3(const void *e, void *cv) {
  touch(cv, *(const uint64_t *)e);
  return *(const uint64_t *)e % 3 == 0;
}
static int pred_target(const void *e, void *cv) {
  algo_ctx *c = cv;
  touch(c, *(const uint64_t *)e);
  return *(const uint64_t *)e == c->target;
}
/* The range forms of op_var, pred3 and pred_target (the scans':
 * kernels.h). */
static size_t op_var_range(const void *i, size_t n, void *o, void *cv) {
  return range_var(op_var, i, n, o, cv);
}
static size_t copy3_range(const void *e, size_t n, void *o, void *cv) {
  return range_copy_if(pred3, e, n, o, cv);
}
static size_t count3_range(const void *e, size_t n, void *cv) {
  return range_count(pred3, e, n, cv);
}
static size_t find_target_range(const void *e, size_t n, void *cv) {
  return range_find(pred_target, e, n, cv);
}

/* adapt_reduce: the values of kernels.h, with visits (one per 64
 * elements) and nested regions. */
static void red_acc(void *acc, const void *first, size_t n, void *cv) {
  const uint64_t *e = first;
  if (!red_block(acc, e, n)) bad(cv); /* the identity, a block's start */
  for (size_t i = 0; i < n; i += 64)
    soak_visit(&((algo_ctx *)cv)->m, (size_t)e[i]); /* one per 64 */
  soak_maybe_nest(((algo_ctx *)cv)->seed, ((algo_ctx *)cv)->depth, (size_t)e[0], (size_t)e[0] + n);
}

static void red_combine(void *acc, const void *other, void *cv) {
  if (!red_join(acc, other)) bad(cv);
}

enum algo {
  A_FOR_EACH,
  A_FOR_EACH_RANGE,
  A_TRANSFORM,
  A_TRANSFORM_RANGE,
  A_TRANSFORM_VAR,
  A_COPY_IF,
  A_COUNT_IF,
  A_FIND_IF,
  A_REDUCE,
  A_SCAN,
  A_TRANSFORM_VAR_RANGE,
  A_COPY_IF_RANGE,
  A_COUNT_IF_RANGE,
  A_FIND_IF_RANGE,
  A_SCAN_RANGE,
  A_XSCAN,
  A_XSCAN_RANGE,
  A_COUNT
};
static const char *const algo_names[A_COUNT] = {"for_each",
                                                "for_each_range",
                                                "transform",
                                                "transform_range",
                                                "transform_var",
                                                "copy_if",
                                                "count_if",
                                                "find_if",
                                                "reduce",
                                                "inclusive_scan",
                                                "transform_var_range",
                                                "copy_if_range",
                                                "count_if_range",
                                                "find_if_range",
                                                "inclusive_scan_range",
                                                "exclusive_scan",
                                                "exclusive_scan_range"};

/* transform_var (per-element or range form): outputs in order. */
static int run_var(enum algo k, algo_ctx *c, size_t n, const adapt_attr *a, const char *desc) {
  const uint64_t *in = c->in;
  int rc;
  adapt_vec v = {0};
  v.elem_size = 8;
  rc = k == A_TRANSFORM_VAR
           ? adapt_transform_var(in, n, 8, &v, VAR_MAX_OUT, op_var, c, a)
           : adapt_transform_var_range(in, n, 8, &v, VAR_MAX_OUT, op_var_range, c, a);
  size_t j = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    for (size_t q = 0; q < mix(in[i]) % (VAR_MAX_OUT + 1); q++, j++)
      if (j >= v.count || ((uint64_t *)v.data)[j] != in[i] * 8 + q) {
        soak_failf("%s: output %zu wrong", desc, j);
        i = n;
        break;
      }
  if (rc == 0 && j != v.count) soak_failf("%s: %zu outputs, expected %zu", desc, v.count, j);
  free(v.data);
  return rc;
}

/* adapt_reduce: the documented grouping; *exact 0 (the visits, one per 64
 * elements, are checked here). */
static int run_reduce(algo_ctx *c, size_t n, const adapt_attr *a, const char *desc, size_t *exact) {
  const uint64_t *in = c->in;
  int rc;
  red_val res = {1, 2, 3};
  rc = adapt_reduce(in, n, 8, &res, sizeof res, &red_identity, red_acc, red_combine, c, a);
  if (rc == 0 && n == 0 && res.lo != UINT64_MAX) soak_failf("%s: not the identity", desc);
  red_val want = n ? red_expected(in, n) : red_identity;
  if (rc == 0 && n && (res.lo != 0 || res.hi != want.hi || res.h != want.h))
    soak_failf("%s: grouping differs from the documented one", desc);
  *exact = 0; /* one visit per 64 elements: checked below */
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (soak_visits_of(&c->m, i) != (i % RED_BLOCK % 64 == 0)) {
      soak_failf("%s: block of element %zu accumulated %u times", desc, i,
                 soak_visits_of(&c->m, i));
      break;
    }
  return rc;
}

/* The scans, inclusive and exclusive, per-element and range forms: the
 * affine maps composed in sequence order. */
static int run_scan(enum algo k, algo_ctx *c, size_t n, const adapt_attr *a, const char *desc) {
  int rc = 0;
  affine *ai = malloc((n ? n : 1) * sizeof *ai), *ao = malloc((n ? n : 1) * sizeof *ao);
  if (ai && ao) {
    for (size_t i = 0; i < n; i++) ai[i] = affine_of(i);
    const affine init = affine_of(n + 17);
    int incl = k == A_SCAN || k == A_SCAN_RANGE;
    rc = k == A_SCAN ? adapt_inclusive_scan(ai, n, sizeof *ai, ao, op_scan, c, a)
         : k == A_SCAN_RANGE
             ? adapt_inclusive_scan_range(ai, n, sizeof *ai, ao, scan_range, scan_add, c, a)
         : k == A_XSCAN ? adapt_exclusive_scan(ai, n, sizeof *ai, ao, &init, op_scan, c, a)
                        : adapt_exclusive_scan_range(ai, n, sizeof *ai, ao, &init, xscan_range,
                                                     scan_add, c, a);
    affine p = incl ? (affine){1, 0} : init;
    for (size_t i = 0; rc == 0 && i < n; i++) {
      affine want = incl ? compose(p, ai[i]) : p;
      p = compose(p, ai[i]);
      if (!affine_eq(ao[i], want)) {
        soak_failf("%s: out[%zu] wrong", desc, i);
        break;
      }
    }
  } else {
    soak_failf("out of memory for %zu scan elements", n);
  }
  for (size_t i = 0; i < n; i++) soak_visit(&c->m, i); /* the scan's op has no index */
  free(ai);
  free(ao);
  return rc;
}

/* Run algorithm k on c->in[0..n) with attributes a; check the result.
 * Returns the index below which every element was visited exactly once. */
static size_t run_algo(enum algo k, algo_ctx *c, size_t n, const adapt_attr *a, const char *desc) {
  const uint64_t *in = c->in;
  uint64_t *out = malloc((n ? n : 1) * sizeof *out);
  if (!out) {
    soak_failf("out of memory for %zu outputs", n);
    return 0;
  }
  size_t exact = n, got = 0;
  int rc = 0;
  switch (k) {
  case A_FOR_EACH: rc = adapt_for_each((void *)in, n, 8, op_each, c, a); break;
  case A_FOR_EACH_RANGE: rc = adapt_for_each_range((void *)in, n, 8, op_each_range, c, a); break;
  case A_TRANSFORM:
  case A_TRANSFORM_RANGE:
    rc = k == A_TRANSFORM ? adapt_transform(in, n, 8, out, 8, op_f3, c, a)
                          : adapt_transform_range(in, n, 8, out, 8, op_f3_range, c, a);
    for (size_t i = 0; rc == 0 && i < n; i++)
      if (out[i] != f3(in[i])) {
        soak_failf("%s: out[%zu] wrong", desc, i);
        break;
      }
    break;
  case A_TRANSFORM_VAR:
  case A_TRANSFORM_VAR_RANGE: rc = run_var(k, c, n, a, desc); break;
  case A_COPY_IF:
  case A_COPY_IF_RANGE:
    rc = k == A_COPY_IF ? adapt_copy_if(in, n, 8, out, &got, pred3, c, a)
                        : adapt_copy_if_range(in, n, 8, out, &got, copy3_range, c, a);
    if (rc == 0 && got != (n + 2) / 3)
      soak_failf("%s: %zu copied, expected %zu", desc, got, (n + 2) / 3);
    for (size_t i = 0; rc == 0 && i < got; i++)
      if (out[i] != 3 * i) {
        soak_failf("%s: out[%zu] wrong", desc, i);
        break;
      }
    break;
  case A_COUNT_IF:
  case A_COUNT_IF_RANGE:
    rc = k == A_COUNT_IF ? adapt_count_if(in, n, 8, &got, pred3, c, a)
                         : adapt_count_if_range(in, n, 8, &got, count3_range, c, a);
    if (rc == 0 && got != (n + 2) / 3)
      soak_failf("%s: counted %zu, expected %zu", desc, got, (n + 2) / 3);
    break;
  case A_FIND_IF:
  case A_FIND_IF_RANGE:
    rc = k == A_FIND_IF ? adapt_find_if(in, n, 8, &got, pred_target, c, a)
                        : adapt_find_if_range(in, n, 8, &got, find_target_range, c, a);
    if (rc == 0 && got != (c->target < n ? c->target : n))
      soak_failf("%s: found %zu, expected %zu", desc, got, c->target < n ? c->target : n);
    exact = got < n ? got + 1 : n; /* once up to the match, at most once after */
    break;
  case A_REDUCE: rc = run_reduce(c, n, a, desc, &exact); break;
  case A_SCAN:
  case A_SCAN_RANGE:
  case A_XSCAN:
  case A_XSCAN_RANGE: rc = run_scan(k, c, n, a, desc); break;
  default: break;
  }
  soak_check_rc(desc, rc);
  if (atomic_load_explicit(&c->bad, memory_order_relaxed)) soak_failf("%s: bad grouping", desc);
  free(out);
  return exact;
}

void soak_region_algo(rng *r, int depth) {
  algo_ctx c = {.seed = next(r), .depth = depth};
  atomic_init(&c.bad, 0);
  enum algo k = (enum algo)rnd(r, A_COUNT);
  size_t n = soak_rnd_size(r, depth);
  if (k == A_REDUCE) n *= 4; /* blocks of 1024: a few hundred */
  adapt_attr a = {0};
  a.window = (adapt_window_mode)rnd(r, 4);
  a.window_size = rnd(r, 2) ? 1 + rnd(r, 4096) : 0;
  a.splitter = (adapt_window_splitter)rnd(r, 4);
  a.grain = rnd(r, 2) ? 1 + rnd(r, 512) : 0;
  /* A scheduler other than adaptive applies to the maps in the no-window
   * mode only (-ENOTSUP otherwise: not what is soaked here). */
  int map = k == A_FOR_EACH || k == A_FOR_EACH_RANGE || k == A_TRANSFORM ||
            k == A_TRANSFORM_RANGE || k == A_FIND_IF || k == A_FIND_IF_RANGE;
  if (map && (a.window == ADAPT_WINDOW_NONE || a.window == ADAPT_WINDOW_DEFAULT) && rnd(r, 2))
    a.sched = (adapt_sched)rnd(r, ADAPT_SCHED_COUNT);
  c.target = rnd(r, n + n / 4 + 1);
  uint64_t *in = malloc((n ? n : 1) * sizeof *in);
  if (!in || soak_visits_new(&c.m, n, r)) {
    soak_failf("out of memory for %zu elements", n);
    free(in);
    return;
  }
  for (size_t i = 0; i < n; i++) in[i] = i;
  c.in = in;
  char desc[160];
  snprintf(desc, sizeof desc, "%s (n %zu, window %d/%zu, splitter %d, grain %zu, sched %s)",
           algo_names[k], n, (int)a.window, a.window_size, (int)a.splitter, a.grain,
           adapt_sched_name(a.sched));
  size_t exact = run_algo(k, &c, n, &a, desc);
  if (k == A_REDUCE) {
    free(c.m.v);
  } else {
    soak_visits_check(&c.m, desc, exact, n);
  }
  free(in);
  soak_count(SOAK_ITERS, n);
}
