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
 * stolen processed element (docs/algorithms.md). */
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

/* Finalisation of a range of local prefixes with the victim's value. */
typedef struct fix_ctx {
  const scan_ctx *x;
  const char *prev;
} fix_ctx;

static void fix_range(void *first, size_t n, void *ctx) {
  const fix_ctx *f = ctx;
  const scan_ctx *x = f->x;
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

int adapt_inclusive_scan(const void *in, size_t count, size_t size, void *out,
                         void (*op)(const void *prev, const void *elem, void *out, void *ctx),
                         void *ctx, const adapt_attr *attr) {
  static const char fn[] = "adapt_inclusive_scan";
  size_t bytes;
  adapt__error_clear();
  if (!op) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (in != out && adapt__seq_overlap(in, bytes, out, bytes))
    return adapt__fail(-EINVAL, "%s: output overlaps input (only in == out is allowed)", fn);
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, 1, 2 * size, &p);
  if (rc) return rc;
  p.grain_key = (void (*)(void))op;
  scan_ctx x = {.in = in, .out = out, .size = size, .user = ctx, .op = op};
  adapt__seq_ctx c;
  adapt__seq_work w;
  return adapt__seq_run(&c, &w, &k_scan, &x, &p, NULL, 0);
}
