/* adapt_inclusive_scan: the adaptive prefix.
 *
 * The master computes the prefix from the front. A thief of the piece
 * [s, e) computes the local prefix of its piece in place in the output
 * (out[s] = in[s], out[j] = op(out[j-1], in[j])). When the victim reaches s
 * (the reduction, in sequence order), it finalises the thief's processed
 * outputs with its own last value p = out[s-1]: out[j] = op(p, out[j]), and
 * goes on from the thief's unprocessed rest. That finalisation runs on the
 * victim: it costs one op per stolen processed element (docs/algorithms.md
 * discusses the speed-up this leaves). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <adapt/algorithms.h>

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

static void merge_scan(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  (void)v;
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  const char *prev = x->out + (t->start - 1) * sz; /* t->start > v->start >= 0 */
  char *o = x->out + t->start * sz;
  for (size_t j = t->start; j < t->ibeg; j++, o += sz) x->op(prev, o, o, x->user);
}

static const adapt__seq_kernel k_scan = {run_scan, merge_scan, NULL};

int adapt_inclusive_scan(const void *in, size_t count, size_t size, void *out,
                         void (*op)(const void *prev, const void *elem, void *out, void *ctx),
                         void *ctx, const adapt_attr *attr) {
  size_t bytes;
  if (!op) return -EINVAL;
  int rc = adapt__seq_bytes(count, size, &bytes);
  if (rc) return rc;
  if (count && (!in || !out)) return -EINVAL;
  if (in != out && adapt__seq_overlap(in, bytes, out, bytes)) return -EINVAL;
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(attr, count, 1, 2 * size, &p);
  if (rc) return rc;
  scan_ctx x = {.in = in, .out = out, .size = size, .user = ctx, .op = op};
  adapt__seq_ctx c;
  adapt__seq_ctx_init(&c, &k_scan, &x, &p);
  adapt__seq_work w;
  adapt__seq_master_init(&c, &w);
  return adapt__seq_exec(&c, &w);
}
