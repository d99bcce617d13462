/* Predicate algorithms and their range forms: adapt_count_if (a count per
 * piece, summed in sequence order) and adapt_find_if (the engine's shared
 * limit is the lowest match found so far: every worker abandons the
 * elements at or after it before each chunk, so an early match stops all
 * workers early). */
#include <errno.h>
#include <stdint.h>

#include <adapt/algorithms.h>

#include "adapt_ext.h"
#include "seq_engine.h"

typedef struct pred_ctx {
  const char *base;
  size_t size;
  void *user;
  int (*pred)(const void *elem, void *ctx);
  size_t (*range)(const void *first, size_t n, void *ctx); /* the range forms */
} pred_ctx;

static size_t *count_of(adapt__seq_work *w) { return (size_t *)(void *)w->acc; }

static void run_count(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const pred_ctx *x = c->kctx;
  const char *p = x->base + b * x->size;
  size_t n = 0;
  for (size_t i = b; i < e; i++, p += x->size) n += x->pred(p, x->user) != 0;
  *count_of(w) += n;
}

static void merge_count(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  (void)c;
  *count_of(v) += *count_of(t);
}

static void run_find(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const pred_ctx *x = c->kctx;
  const char *p = x->base + b * x->size;
  for (size_t i = b; i < e; i++, p += x->size) {
    if (x->pred(p, x->user)) {
      adapt__seq_stop(c, i, 0);
      return;
    }
  }
}

/* The range forms: one call per chunk; a result above the chunk's length
 * is the caller's bug (-ERANGE, the call stops). */
static void run_count_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const pred_ctx *x = c->kctx;
  size_t n = x->range(x->base + b * x->size, e - b, x->user);
  if (n > e - b) {
    adapt__seq_stop(c, 0, -ERANGE);
    return;
  }
  *count_of(w) += n;
}

static void run_find_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const pred_ctx *x = c->kctx;
  size_t at = x->range(x->base + b * x->size, e - b, x->user);
  if (at > e - b)
    adapt__seq_stop(c, 0, -ERANGE);
  else if (at < e - b)
    adapt__seq_stop(c, b + at, 0);
}

static const adapt__seq_kernel k_count = {run_count, merge_count, NULL};
static const adapt__seq_kernel k_find = {run_find, NULL, NULL};
static const adapt__seq_kernel k_count_range = {run_count_range, merge_count, NULL};
static const adapt__seq_kernel k_find_range = {run_find_range, NULL, NULL};

static int check(const char *fn, const char *out_name, const void *base, size_t count, size_t size,
                 const char *cb_name, const void *cb, const void *out) {
  size_t bytes;
  adapt__error_clear();
  if (!cb) return adapt__fail(-EINVAL, "%s: %s is NULL", fn, cb_name);
  if (!out) return adapt__fail(-EINVAL, "%s: %s is NULL", fn, out_name);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !base) return adapt__fail(-EINVAL, "%s: base is NULL with count > 0", fn);
  return 0;
}

/* Check the call, run kernel k over the elements, then set *out: the
 * count (the count kernels), or the index of the first match, the final
 * limit (the find kernels: the limit only drops to matches, so it is the
 * lowest one, or count if none). x holds the callback. */
static int run_pred(const char *fn, const char *out_name, const adapt__seq_kernel *k,
                    const char *cb_name, const void *base, size_t count, size_t size, size_t *out,
                    pred_ctx *x, const adapt_attr *attr) {
  void (*key)(void) = x->pred ? (void (*)(void))x->pred : (void (*)(void))x->range;
  int rc = check(fn, out_name, base, count, size, cb_name, (const void *)(uintptr_t)key, out);
  if (rc) return rc;
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, 1, size, &p);
  if (rc) return rc;
  p.grain_key = key;
  x->base = base;
  x->size = size;
  adapt__seq_ctx c;
  adapt__seq_work w;
  rc = adapt__seq_run(&c, &w, k, x, &p, NULL, 0);
  if (rc == 0) *out = k == &k_count || k == &k_count_range ? *count_of(&w) : adapt__seq_limit(&c);
  return rc;
}

int adapt_count_if(const void *base, size_t count, size_t size, size_t *result,
                   int (*pred)(const void *elem, void *ctx), void *ctx, const adapt_attr *attr) {
  pred_ctx x = {.user = ctx, .pred = pred};
  return run_pred("adapt_count_if", "result", &k_count, "pred", base, count, size, result, &x,
                  attr);
}

int adapt_count_if_range(const void *base, size_t count, size_t size, size_t *result,
                         size_t (*count_range)(const void *first, size_t n, void *ctx), void *ctx,
                         const adapt_attr *attr) {
  pred_ctx x = {.user = ctx, .range = count_range};
  return run_pred("adapt_count_if_range", "result", &k_count_range, "count_range", base, count,
                  size, result, &x, attr);
}

int adapt_find_if(const void *base, size_t count, size_t size, size_t *index,
                  int (*pred)(const void *elem, void *ctx), void *ctx, const adapt_attr *attr) {
  pred_ctx x = {.user = ctx, .pred = pred};
  return run_pred("adapt_find_if", "index", &k_find, "pred", base, count, size, index, &x, attr);
}

int adapt_find_if_range(const void *base, size_t count, size_t size, size_t *index,
                        size_t (*find_range)(const void *first, size_t n, void *ctx), void *ctx,
                        const adapt_attr *attr) {
  pred_ctx x = {.user = ctx, .range = find_range};
  return run_pred("adapt_find_if_range", "index", &k_find_range, "find_range", base, count, size,
                  index, &x, attr);
}
