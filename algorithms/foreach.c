/* adapt_for_each, adapt_transform and their range forms: 1:1 maps on the
 * sequence engine, no partial result to merge. */
#include <errno.h>

#include <adapt/algorithms.h>

#include "adapt_ext.h"
#include "seq_engine.h"

typedef struct map_ctx {
  const char *in;
  char *out;
  size_t in_size, out_size;
  void *user;
  void (*each)(void *elem, void *ctx);
  void (*each_range)(void *first, size_t n, void *ctx);
  void (*tr)(const void *in_elem, void *out_elem, void *ctx);
  void (*tr_range)(const void *in_first, void *out_first, size_t n, void *ctx);
} map_ctx;

static void run_each(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const map_ctx *x = c->kctx;
  char *p = x->out + b * x->out_size;
  for (size_t i = b; i < e; i++, p += x->out_size) x->each(p, x->user);
}

static void run_each_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const map_ctx *x = c->kctx;
  x->each_range(x->out + b * x->out_size, e - b, x->user);
}

static void run_tr(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const map_ctx *x = c->kctx;
  const char *p = x->in + b * x->in_size;
  char *q = x->out + b * x->out_size;
  for (size_t i = b; i < e; i++, p += x->in_size, q += x->out_size) x->tr(p, q, x->user);
}

static void run_tr_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  (void)w;
  const map_ctx *x = c->kctx;
  x->tr_range(x->in + b * x->in_size, x->out + b * x->out_size, e - b, x->user);
}

static const adapt__seq_kernel k_each = {run_each, NULL, NULL};
static const adapt__seq_kernel k_each_range = {run_each_range, NULL, NULL};
static const adapt__seq_kernel k_tr = {run_tr, NULL, NULL};
static const adapt__seq_kernel k_tr_range = {run_tr_range, NULL, NULL};

/* adapt_for_each and its range form: x holds the callback. */
static int each_common(const char *fn, const adapt__seq_kernel *k, map_ctx *x, void (*cb)(void),
                       void *base, size_t count, size_t size, const adapt_attr *attr) {
  size_t bytes;
  adapt__error_clear();
  if (!cb) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !base) return adapt__fail(-EINVAL, "%s: base is NULL with count > 0", fn);
  x->out = base;
  x->out_size = size;
  return adapt__seq_run_elems(fn, k, x, count, size, cb, NULL, 0, attr);
}

int adapt_for_each(void *base, size_t count, size_t size, void (*op)(void *elem, void *ctx),
                   void *ctx, const adapt_attr *attr) {
  map_ctx x = {.user = ctx, .each = op};
  return each_common("adapt_for_each", &k_each, &x, (void (*)(void))op, base, count, size, attr);
}

int adapt_for_each_range(void *base, size_t count, size_t size,
                         void (*op)(void *first, size_t n, void *ctx), void *ctx,
                         const adapt_attr *attr) {
  map_ctx x = {.user = ctx, .each_range = op};
  return each_common("adapt_for_each_range", &k_each_range, &x, (void (*)(void))op, base, count,
                     size, attr);
}

/* adapt_transform and its range form: x holds the callback. */
static int transform_common(const char *fn, const adapt__seq_kernel *k, map_ctx *x,
                            void (*cb)(void), const void *in, size_t count, size_t in_size,
                            void *out, size_t out_size, const adapt_attr *attr) {
  size_t ib, ob;
  adapt__error_clear();
  if (!cb) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "in_size", count, in_size, &ib);
  if (!rc) rc = adapt__seq_bytes(fn, "count", "out_size", count, out_size, &ob);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (adapt__seq_overlap(in, ib, out, ob) && !(in == out && in_size == out_size))
    return adapt__fail(-EINVAL, "%s: output overlaps input", fn);
  x->in = in;
  x->out = out;
  x->in_size = in_size;
  x->out_size = out_size;
  return adapt__seq_run_elems(fn, k, x, count, in_size + out_size, cb, NULL, 0, attr);
}

int adapt_transform(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
                    void (*op)(const void *in_elem, void *out_elem, void *ctx), void *ctx,
                    const adapt_attr *attr) {
  map_ctx x = {.user = ctx, .tr = op};
  return transform_common("adapt_transform", &k_tr, &x, (void (*)(void))op, in, count, in_size, out,
                          out_size, attr);
}

int adapt_transform_range(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
                          void (*op)(const void *in_first, void *out_first, size_t n, void *ctx),
                          void *ctx, const adapt_attr *attr) {
  map_ctx x = {.user = ctx, .tr_range = op};
  return transform_common("adapt_transform_range", &k_tr_range, &x, (void (*)(void))op, in, count,
                          in_size, out, out_size, attr);
}
