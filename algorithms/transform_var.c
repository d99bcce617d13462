/* Variable-output algorithms: adapt_transform_var, adapt_copy_if and their
 * range forms.
 *
 * The paper's Fig. 1: the master appends its outputs to the final array; a
 * thief appends to a private buffer; when a thief is reduced (preempted or
 * finished) its victim appends the thief's buffer after its own outputs and
 * frees it. Reductions happen in sequence order and each victim's outputs
 * always cover the contiguous inputs [start, ibeg), so the final array is
 * byte-identical to the sequential run. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <adapt/algorithms.h>

#include "adapt_ext.h"
#include "seq_engine.h"

/* Output state in a descriptor's acc. */
typedef struct var_acc {
  char *buf;  /* master: the caller's array; thief: its private buffer */
  size_t n;   /* elements in buf */
  size_t cap; /* elements allocated */
} var_acc;

_Static_assert(sizeof(var_acc) <= ADAPT_SEQ_ACC_BYTES, "var_acc too large");

typedef struct var_ctx {
  const char *in;
  size_t in_size;
  size_t out_size; /* bytes per output element */
  size_t max_out;
  int fixed; /* the master's array cannot grow (copy_if) */
  void *user;
  size_t (*op)(const void *in_elem, void *out_elems, void *ctx);
  int (*pred)(const void *elem, void *ctx);
  /* the range forms (copy_if_range: max_out 1) */
  size_t (*op_range)(const void *in_first, size_t n, void *out_first, void *ctx);
} var_ctx;

static var_acc *acc_of(adapt__seq_work *w) { return (var_acc *)(void *)w->acc; }

/* Room for `need` elements in a's buffer. 0, or -ENOMEM. */
static int reserve(const var_ctx *x, adapt__seq_work *w, var_acc *a, size_t need) {
  if (need <= a->cap) return 0;
  if (w->master && x->fixed) return -EPROTO; /* copy_if never outgrows count */
  size_t cap = a->cap > SIZE_MAX / 2 ? SIZE_MAX : a->cap * 2;
  if (cap < need) cap = need;
  if (cap < ADAPT_VAR_BUF_MIN) cap = ADAPT_VAR_BUF_MIN;
  if (cap > SIZE_MAX / x->out_size) cap = need;
  return adapt__seq_realloc(&a->buf, &a->cap, cap, x->out_size);
}

static void run_var(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const var_ctx *x = c->kctx;
  var_acc *a = acc_of(w);
  const char *p = x->in + b * x->in_size;
  for (size_t i = b; i < e; i++, p += x->in_size) {
    if (a->cap - a->n < x->max_out) {
      int rc = reserve(x, w, a, a->n + x->max_out);
      if (rc) {
        adapt__seq_stop(c, 0, rc);
        return;
      }
    }
    size_t k = x->op(p, a->buf + a->n * x->out_size, x->user);
    if (k > x->max_out) {
      adapt__seq_stop(c, 0, -ERANGE);
      return;
    }
    a->n += k;
  }
}

static void run_copy_if(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const var_ctx *x = c->kctx;
  var_acc *a = acc_of(w);
  const size_t sz = x->in_size;
  const char *p = x->in + b * sz;
  for (size_t i = b; i < e; i++, p += sz) {
    if (!x->pred(p, x->user)) continue;
    if (a->n == a->cap) {
      int rc = reserve(x, w, a, a->n + 1);
      if (rc) {
        adapt__seq_stop(c, 0, rc);
        return;
      }
    }
    memcpy(a->buf + a->n * sz, p, sz);
    a->n++;
  }
}

/* Range forms: one call per chunk of n inputs, with room for n * max_out
 * outputs after the piece's last one. */
static void run_var_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const var_ctx *x = c->kctx;
  var_acc *a = acc_of(w);
  const size_t n = e - b;
  if (x->max_out && n > (SIZE_MAX - a->n) / x->max_out) {
    adapt__seq_stop(c, 0, -ENOMEM); /* no buffer can hold the chunk's room */
    return;
  }
  const size_t room = n * x->max_out;
  if (a->cap - a->n < room || !a->buf) {
    int rc = reserve(x, w, a, a->n + (room ? room : 1));
    if (rc) {
      adapt__seq_stop(c, 0, rc);
      return;
    }
  }
  size_t k = x->op_range(x->in + b * x->in_size, n, a->buf + a->n * x->out_size, x->user);
  if (k > room) {
    adapt__seq_stop(c, 0, -ERANGE);
    return;
  }
  a->n += k;
}

static void merge_var(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  const var_ctx *x = c->kctx;
  var_acc *va = acc_of(v), *ta = acc_of(t);
  if (ta->n) {
    int rc = reserve(x, v, va, va->n + ta->n);
    if (rc) {
      adapt__seq_stop(c, 0, rc);
    } else {
      memcpy(va->buf + va->n * x->out_size, ta->buf, ta->n * x->out_size);
      va->n += ta->n;
    }
  }
  free(ta->buf);
  ta->buf = NULL;
  ta->n = ta->cap = 0;
}

static void discard_var(adapt__seq_ctx *c, adapt__seq_work *t) {
  (void)c;
  var_acc *ta = acc_of(t);
  free(ta->buf);
  ta->buf = NULL;
  ta->n = ta->cap = 0;
}

static const adapt__seq_kernel k_var = {run_var, merge_var, discard_var};
static const adapt__seq_kernel k_copy_if = {run_copy_if, merge_var, discard_var};
static const adapt__seq_kernel k_var_range = {run_var_range, merge_var, discard_var};

/* adapt_transform_var (kernel k_var) and its range form (k_var_range): x
 * holds the callback. */
static int var_common(const char *fn, const adapt__seq_kernel *k, const void *in, size_t count,
                      size_t in_size, adapt_vec *out, size_t max_out, var_ctx *x,
                      const adapt_attr *attr) {
  void (*cb)(void) = k == &k_var ? (void (*)(void))x->op : (void (*)(void))x->op_range;
  size_t ib, ob;
  adapt__error_clear();
  if (!cb) return adapt__fail(-EINVAL, "%s: op is NULL", fn);
  if (!out) return adapt__fail(-EINVAL, "%s: out is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "in_size", count, in_size, &ib);
  if (rc) return rc;
  if (out->elem_size == 0) return adapt__fail(-EINVAL, "%s: out->elem_size is 0", fn);
  if (out->count > out->capacity)
    return adapt__fail(-EINVAL, "%s: out->count %zu > out->capacity %zu", fn, out->count,
                       out->capacity);
  if (!out->data && out->capacity)
    return adapt__fail(-EINVAL, "%s: out->data is NULL with out->capacity > 0", fn);
  rc = adapt__seq_bytes(fn, "max_out", "out->elem_size", max_out, out->elem_size, &ob);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (out->capacity > SIZE_MAX / out->elem_size)
    return adapt__fail(-EOVERFLOW, "%s: out->capacity * out->elem_size overflows size_t", fn);
  if (adapt__seq_overlap(in, ib, out->data, out->capacity * out->elem_size))
    return adapt__fail(-EINVAL, "%s: output (out->data's capacity) overlaps input", fn);
  x->in = in;
  x->in_size = in_size;
  x->out_size = out->elem_size;
  x->max_out = max_out;
  var_acc a = {.buf = out->data, .n = out->count, .cap = out->capacity};
  size_t fp = in_size > SIZE_MAX - ob ? SIZE_MAX : in_size + ob;
  rc = adapt__seq_run_elems(fn, k, x, count, fp, cb, &a, sizeof a, attr);
  out->data = a.buf; /* may have moved (realloc keeps the old elements) */
  out->capacity = a.cap;
  if (rc == 0) out->count = a.n;
  return rc;
}

int adapt_transform_var(const void *in, size_t count, size_t in_size, adapt_vec *out,
                        size_t max_out,
                        size_t (*op)(const void *in_elem, void *out_elems, void *ctx), void *ctx,
                        const adapt_attr *attr) {
  return var_common("adapt_transform_var", &k_var, in, count, in_size, out, max_out,
                    &(var_ctx){.user = ctx, .op = op}, attr);
}

int adapt_transform_var_range(const void *in, size_t count, size_t in_size, adapt_vec *out,
                              size_t max_out,
                              size_t (*op)(const void *in_first, size_t n, void *out_first,
                                           void *ctx),
                              void *ctx, const adapt_attr *attr) {
  return var_common("adapt_transform_var_range", &k_var_range, in, count, in_size, out, max_out,
                    &(var_ctx){.user = ctx, .op_range = op}, attr);
}

/* adapt_copy_if (kernel k_copy_if: pred) and its range form (k_var_range:
 * select): x holds the callback. */
static int copy_common(const char *fn, const adapt__seq_kernel *k, const void *in, size_t count,
                       size_t size, void *out, size_t *out_count, var_ctx *x,
                       const adapt_attr *attr) {
  const int range = k == &k_var_range;
  void (*cb)(void) = range ? (void (*)(void))x->op_range : (void (*)(void))x->pred;
  size_t bytes;
  adapt__error_clear();
  if (!cb) return adapt__fail(-EINVAL, "%s: %s is NULL", fn, range ? "select" : "pred");
  if (!out_count) return adapt__fail(-EINVAL, "%s: out_count is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (adapt__seq_overlap(in, bytes, out, bytes))
    return adapt__fail(-EINVAL, "%s: output overlaps input", fn);
  x->in = in;
  x->in_size = x->out_size = size;
  x->max_out = 1;
  x->fixed = 1;
  var_acc a = {.buf = out, .n = 0, .cap = count};
  size_t fp = size > SIZE_MAX / 2 ? SIZE_MAX : 2 * size;
  rc = adapt__seq_run_elems(fn, k, x, count, fp, cb, &a, sizeof a, attr);
  if (rc == 0) *out_count = a.n;
  return rc;
}

int adapt_copy_if(const void *in, size_t count, size_t size, void *out, size_t *out_count,
                  int (*pred)(const void *elem, void *ctx), void *ctx, const adapt_attr *attr) {
  return copy_common("adapt_copy_if", &k_copy_if, in, count, size, out, out_count,
                     &(var_ctx){.user = ctx, .pred = pred}, attr);
}

int adapt_copy_if_range(const void *in, size_t count, size_t size, void *out, size_t *out_count,
                        size_t (*select)(const void *in_first, size_t n, void *out_first,
                                         void *ctx),
                        void *ctx, const adapt_attr *attr) {
  return copy_common("adapt_copy_if_range", &k_var_range, in, count, size, out, out_count,
                     &(var_ctx){.user = ctx, .op_range = select}, attr);
}
