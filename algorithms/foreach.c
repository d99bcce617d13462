/* adapt_for_each, adapt_transform and their range forms: 1:1 maps on the
 * sequence engine, no partial result to merge. */
#include <errno.h>
#include <stdint.h>

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

static int run_map(const char *fn, const adapt__seq_kernel *k, map_ctx *x, size_t count,
                   size_t footprint, void (*key)(void), const adapt_attr *attr) {
  adapt__seq_params p;
  int rc = adapt__seq_params_resolve(fn, attr, count, 1, footprint, &p);
  if (rc || count == 0) return rc;
  p.grain_key = key;
  adapt__seq_ctx c;
  adapt__seq_work w;
  return adapt__seq_run(&c, &w, k, x, &p, NULL, 0);
}

static int check_each(const char *fn, void *base, size_t count, size_t size, const void *op) {
  size_t bytes;
  adapt__error_clear();
  if (!op) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !base) return adapt__fail(-EINVAL, "%s: base is NULL with count > 0", fn);
  return 0;
}

int adapt_for_each(void *base, size_t count, size_t size, void (*op)(void *elem, void *ctx),
                   void *ctx, const adapt_attr *attr) {
  static const char fn[] = "adapt_for_each";
  int rc = check_each(fn, base, count, size, (const void *)(uintptr_t)op);
  if (rc) return rc;
  map_ctx x = {.out = base, .out_size = size, .user = ctx, .each = op};
  return run_map(fn, &k_each, &x, count, size, (void (*)(void))op, attr);
}

int adapt_for_each_range(void *base, size_t count, size_t size,
                         void (*op)(void *first, size_t n, void *ctx), void *ctx,
                         const adapt_attr *attr) {
  static const char fn[] = "adapt_for_each_range";
  int rc = check_each(fn, base, count, size, (const void *)(uintptr_t)op);
  if (rc) return rc;
  map_ctx x = {.out = base, .out_size = size, .user = ctx, .each_range = op};
  return run_map(fn, &k_each_range, &x, count, size, (void (*)(void))op, attr);
}

static int check_transform(const char *fn, const void *in, size_t count, size_t in_size, void *out,
                           size_t out_size, const void *op) {
  size_t ib, ob;
  adapt__error_clear();
  if (!op) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "in_size", count, in_size, &ib);
  if (!rc) rc = adapt__seq_bytes(fn, "count", "out_size", count, out_size, &ob);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (adapt__seq_overlap(in, ib, out, ob) && !(in == out && in_size == out_size))
    return adapt__fail(-EINVAL, "%s: output overlaps input", fn);
  return 0;
}

int adapt_transform(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
                    void (*op)(const void *in_elem, void *out_elem, void *ctx), void *ctx,
                    const adapt_attr *attr) {
  static const char fn[] = "adapt_transform";
  int rc = check_transform(fn, in, count, in_size, out, out_size, (const void *)(uintptr_t)op);
  if (rc) return rc;
  map_ctx x = {
      .in = in, .out = out, .in_size = in_size, .out_size = out_size, .user = ctx, .tr = op};
  return run_map(fn, &k_tr, &x, count, in_size + out_size, (void (*)(void))op, attr);
}

int adapt_transform_range(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
                          void (*op)(const void *in_first, void *out_first, size_t n, void *ctx),
                          void *ctx, const adapt_attr *attr) {
  static const char fn[] = "adapt_transform_range";
  int rc = check_transform(fn, in, count, in_size, out, out_size, (const void *)(uintptr_t)op);
  if (rc) return rc;
  map_ctx x = {
      .in = in, .out = out, .in_size = in_size, .out_size = out_size, .user = ctx, .tr_range = op};
  return run_map(fn, &k_tr_range, &x, count, in_size + out_size, (void (*)(void))op, attr);
}
