/* adapt_inclusive_scan: the adaptive prefix.
 *
 * The master computes the prefix from the front. A thief of the piece
 * [s, e) computes the local prefix of its piece in place in the output
 * (out[s] = in[s], out[j] = op(out[j-1], in[j])). When the victim reaches s
 * (the reduction, in sequence order), it finalises the thief's processed
 * outputs with its own last value p = out[s-1]: out[j] = op(p, out[j]), and
 * goes on from the thief's unprocessed rest. That finalisation runs on the
 * victim, as a nested parallel map when it is large enough
 * (ADAPT_SCAN_PAR_FIXUP) so that idle workers help; it costs one op per
 * stolen processed element (docs/algorithms.md). The range form does the
 * same with one call of the user's scan per chunk and one call of its add
 * per finalised range. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <adapt/algorithms.h>

#include "adapt_ext.h"
#include "seq_engine.h"

typedef struct scan_ctx {
  const char *in;
  char *out;
  size_t size;
  void *user;
  void (*op)(const void *prev, const void *elem, void *out, void *ctx);
  /* the range form */
  void (*scan)(const void *carry, const void *in_first, void *out_first, size_t n, void *ctx);
  void (*add)(const void *carry, void *first, size_t n, void *ctx);
} scan_ctx;

static void run_scan(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  size_t i = b;
  if (b == w->start) { /* first element of the piece */
    if (x->in != x->out) memcpy(x->out + b * sz, x->in + b * sz, sz);
    i++;
  }
  char *o = x->out + i * sz;
  const char *p = x->in + i * sz;
  for (; i < e; i++, o += sz, p += sz) x->op(o - sz, p, o, x->user);
}

static void run_scan_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  /* the piece's first chunk starts its local prefix; later ones carry on */
  const char *carry = b == w->start ? NULL : x->out + (b - 1) * sz;
  x->scan(carry, x->in + b * sz, x->out + b * sz, e - b, x->user);
}

/* Finalisation of a range of local prefixes with the victim's value. */
typedef struct fix_ctx {
  const scan_ctx *x;
  const char *prev;
} fix_ctx;

static void fix_range(void *first, size_t n, void *ctx) {
  const fix_ctx *f = ctx;
  const scan_ctx *x = f->x;
  if (x->add) {
    x->add(f->prev, first, n, x->user);
    return;
  }
  char *o = first;
  for (size_t j = 0; j < n; j++, o += x->size) x->op(f->prev, o, o, x->user);
}

static void merge_scan(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  size_t n = t->ibeg - t->start;
  if (n == 0) return;
  /* t->start > v->start >= 0: the victim's last output is final for it */
  fix_ctx f = {x, x->out + (t->start - 1) * sz};
  char *first = x->out + t->start * sz;
  if (n >= ADAPT_SCAN_PAR_FIXUP && adapt_num_workers() > 1) {
    /* a nested parallel map: idle workers help the victim finalise */
    adapt_attr a = {0};
    a.window = ADAPT_WINDOW_NONE;
    a.grain = v->grain;
    if (adapt_for_each_range(first, n, sz, fix_range, &f, &a) == 0) return;
  }
  fix_range(first, n, &f);
}

static const adapt__seq_kernel k_scan = {run_scan, merge_scan, NULL};
static const adapt__seq_kernel k_scan_range = {run_scan_range, merge_scan, NULL};

/* adapt_inclusive_scan and its range form: x holds the callbacks (op, or
 * scan and add). */
static int scan_common(const char *fn, const void *in, size_t count, size_t size, void *out,
                       scan_ctx *x, const adapt__seq_kernel *k, void (*key)(void),
                       const adapt_attr *attr) {
  size_t bytes;
  adapt__error_clear();
  if (k == &k_scan && !x->op) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  if (k == &k_scan_range && !x->scan) return adapt__fail(-EINVAL, "%s: scan is NULL", fn);
  if (k == &k_scan_range && !x->add) return adapt__fail(-EINVAL, "%s: add is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (in != out && adapt__seq_overlap(in, bytes, out, bytes))
    return adapt__fail(-EINVAL, "%s: output overlaps input (only in == out is allowed)", fn);
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, 1, size > SIZE_MAX / 2 ? SIZE_MAX : 2 * size, &p);
  if (rc) return rc;
  p.grain_key = key;
  x->in = in;
  x->out = out;
  x->size = size;
  adapt__seq_ctx c;
  adapt__seq_work w;
  return adapt__seq_run(&c, &w, k, x, &p, NULL, 0);
}

int adapt_inclusive_scan(const void *in, size_t count, size_t size, void *out,
                         void (*op)(const void *prev, const void *elem, void *out, void *ctx),
                         void *ctx, const adapt_attr *attr) {
  scan_ctx x = {.user = ctx, .op = op};
  return scan_common("adapt_inclusive_scan", in, count, size, out, &x, &k_scan, (void (*)(void))op,
                     attr);
}

int adapt_inclusive_scan_range(const void *in, size_t count, size_t size, void *out,
                               void (*scan)(const void *carry, const void *in_first,
                                            void *out_first, size_t n, void *ctx),
                               void (*add)(const void *carry, void *first, size_t n, void *ctx),
                               void *ctx, const adapt_attr *attr) {
  scan_ctx x = {.user = ctx, .scan = scan, .add = add};
  return scan_common("adapt_inclusive_scan_range", in, count, size, out, &x, &k_scan_range,
                     (void (*)(void))scan, attr);
}
