/* Predicate algorithms: adapt_count_if (a count per piece, summed in
 * sequence order) and adapt_find_if (the engine's shared limit is the
 * lowest match found so far: every worker abandons the elements at or after
 * it before each chunk, so an early match stops all workers early). */
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

static const adapt__seq_kernel k_count = {run_count, merge_count, NULL};
static const adapt__seq_kernel k_find = {run_find, NULL, NULL};

static int check(const char *fn, const char *out_name, const void *base, size_t count, size_t size,
                 const void *pred, const void *out) {
  size_t bytes;
  adapt__error_clear();
  if (!pred) return adapt__fail(-EINVAL, "%s: pred is NULL", fn);
  if (!out) return adapt__fail(-EINVAL, "%s: %s is NULL", fn, out_name);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !base) return adapt__fail(-EINVAL, "%s: base is NULL with count > 0", fn);
  return 0;
}

/* Check the call, then run kernel k over the elements with c and w (the
 * caller reads its result from them). */
static int run_pred(const char *fn, const char *out_name, const adapt__seq_kernel *k,
                    const void *base, size_t count, size_t size, void *out,
                    int (*pred)(const void *, void *), void *ctx, const adapt_attr *attr,
                    pred_ctx *x, adapt__seq_ctx *c, adapt__seq_work *w) {
  int rc = check(fn, out_name, base, count, size, (const void *)(uintptr_t)pred, out);
  if (rc) return rc;
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, 1, size, &p);
  if (rc) return rc;
  p.grain_key = (void (*)(void))pred;
  *x = (pred_ctx){.base = base, .size = size, .user = ctx, .pred = pred};
  return adapt__seq_run(c, w, k, x, &p, NULL, 0);
}

int adapt_count_if(const void *base, size_t count, size_t size, size_t *result,
                   int (*pred)(const void *elem, void *ctx), void *ctx, const adapt_attr *attr) {
  pred_ctx x;
  adapt__seq_ctx c;
  adapt__seq_work w;
  int rc = run_pred("adapt_count_if", "result", &k_count, base, count, size, result, pred, ctx,
                    attr, &x, &c, &w);
  if (rc == 0) *result = *count_of(&w);
  return rc;
}

int adapt_find_if(const void *base, size_t count, size_t size, size_t *index,
                  int (*pred)(const void *elem, void *ctx), void *ctx, const adapt_attr *attr) {
  pred_ctx x;
  adapt__seq_ctx c;
  adapt__seq_work w;
  int rc = run_pred("adapt_find_if", "index", &k_find, base, count, size, index, pred, ctx, attr,
                    &x, &c, &w);
  /* the limit only drops to matches: the lowest one, or count (n) if none */
  if (rc == 0) *index = adapt__seq_limit(&c);
  return rc;
}
