/* adapt_reduce: deterministic reduction along a fixed binary tree.
 *
 * The elements are cut into blocks of ADAPT_REDUCE_BLOCK (the last one may
 * be shorter); block k's value is identity accumulated by ONE call of
 * accumulate(acc, block k). Block values are combined along the tree of
 * aligned power-of-two groups of blocks: the value of the group [a, a+2s)
 * is combine(value[a, a+s), value[a+s, a+2s)); the result folds, left to
 * right, the maximal complete groups that cover [0, nblocks) (the binary
 * decomposition of nblocks). The tree depends only on count and the block
 * size, never on the schedule, so the result is bitwise reproducible for
 * floating point, whatever the workers, window mode and grain.
 *
 * Each piece keeps a stack of complete groups ([lo, hi) blocks + value):
 * pushing a block merges the two top groups while they are siblings. A
 * victim absorbs a thief by pushing the thief's groups in order, which gives
 * the same stack as pushing the thief's blocks (a group's blocks can only
 * merge among themselves before the group is complete). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <adapt/algorithms.h>

#include "adapt_ext.h"
#include "seq_engine.h"

typedef struct node_hdr {
  size_t lo, hi; /* blocks [lo, hi) */
} node_hdr;

/* Stack of groups in a descriptor's acc: entries of `stride` bytes, the
 * header then the value at offset 16. */
typedef struct red_acc {
  char *stk;
  size_t depth;
  size_t cap;
} red_acc;

_Static_assert(sizeof(red_acc) <= ADAPT_SEQ_ACC_BYTES, "red_acc too large");
_Static_assert(sizeof(node_hdr) <= 16, "node header must fit before the value");

typedef struct red_ctx {
  const char *base;
  size_t count, size, block;
  size_t rsize, stride;
  const void *identity;
  void *user;
  void (*accumulate)(void *acc, const void *first, size_t n, void *ctx);
  void (*combine)(void *acc, const void *other, void *ctx);
} red_ctx;

static red_acc *acc_of(adapt__seq_work *w) { return (red_acc *)(void *)w->acc; }
static node_hdr *hdr(const red_ctx *x, red_acc *a, size_t i) {
  return (node_hdr *)(void *)(a->stk + i * x->stride);
}
static void *val(const red_ctx *x, red_acc *a, size_t i) { return a->stk + i * x->stride + 16; }

/* Room for one more entry: the new top. 0 or -ENOMEM. */
static int grow(const red_ctx *x, red_acc *a) {
  if (a->depth < a->cap) return 0;
  return adapt__seq_realloc(&a->stk, &a->cap, a->cap ? a->cap * 2 : 8, x->stride);
}

/* The top entry has just been filled with group [lo, hi): push it, merging
 * siblings. */
static void push_top(const red_ctx *x, red_acc *a, size_t lo, size_t hi) {
  node_hdr *h = hdr(x, a, a->depth);
  h->lo = lo;
  h->hi = hi;
  a->depth++;
  while (a->depth >= 2) {
    node_hdr *l = hdr(x, a, a->depth - 2), *r = hdr(x, a, a->depth - 1);
    size_t s = l->hi - l->lo;
    /* siblings: equal sizes (powers of two), adjacent, left aligned on 2s */
    if (r->hi - r->lo != s || r->lo != l->hi || l->lo % (2 * s) != 0) break;
    x->combine(val(x, a, a->depth - 2), val(x, a, a->depth - 1), x->user);
    l->hi = r->hi;
    a->depth--;
  }
}

static void run_reduce(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const red_ctx *x = c->kctx;
  red_acc *a = acc_of(w);
  for (size_t k = b; k < e; k++) {
    if (grow(x, a)) {
      adapt__seq_stop(c, 0, -ENOMEM);
      return;
    }
    size_t first = k * x->block;
    size_t n = x->count - first < x->block ? x->count - first : x->block;
    void *v = val(x, a, a->depth);
    memcpy(v, x->identity, x->rsize);
    x->accumulate(v, x->base + first * x->size, n, x->user);
    push_top(x, a, k, k + 1);
  }
}

static void discard_reduce(adapt__seq_ctx *c, adapt__seq_work *t) {
  (void)c;
  red_acc *ta = acc_of(t);
  free(ta->stk);
  memset(ta, 0, sizeof *ta);
}

static void merge_reduce(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  const red_ctx *x = c->kctx;
  red_acc *va = acc_of(v), *ta = acc_of(t);
  for (size_t i = 0; i < ta->depth; i++) {
    if (grow(x, va)) {
      adapt__seq_stop(c, 0, -ENOMEM);
      break;
    }
    node_hdr *h = hdr(x, ta, i);
    memcpy(val(x, va, va->depth), val(x, ta, i), x->rsize);
    push_top(x, va, h->lo, h->hi);
  }
  discard_reduce(c, t);
}

static const adapt__seq_kernel k_reduce = {run_reduce, merge_reduce, discard_reduce};

int adapt_reduce(const void *base, size_t count, size_t size, void *result, size_t result_size,
                 const void *identity,
                 void (*accumulate)(void *acc, const void *first, size_t n, void *ctx),
                 void (*combine)(void *acc, const void *other, void *ctx), void *ctx,
                 const adapt_attr *attr) {
  static const char fn[] = "adapt_reduce";
  size_t bytes;
  adapt__error_clear();
  if (!result) return adapt__fail(-EINVAL, "%s: result is NULL", fn);
  if (!identity) return adapt__fail(-EINVAL, "%s: identity is NULL", fn);
  if (!accumulate) return adapt__fail(-EINVAL, "%s: accumulate is NULL", fn);
  if (!combine) return adapt__fail(-EINVAL, "%s: combine is NULL", fn);
  if (result_size == 0) return adapt__fail(-EINVAL, "%s: result_size is 0", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !base) return adapt__fail(-EINVAL, "%s: base is NULL with count > 0", fn);
  if (result_size > SIZE_MAX - 32)
    return adapt__fail(-EOVERFLOW, "%s: result_size %zu too large", fn, result_size);
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, ADAPT_REDUCE_BLOCK, size, &p);
  if (rc) return rc;
  if (count == 0) {
    memmove(result, identity, result_size);
    return 0;
  }
  red_ctx x = {.base = base,
               .count = count,
               .size = size,
               .block = ADAPT_REDUCE_BLOCK,
               .rsize = result_size,
               .stride = 16 + (result_size + 15) / 16 * 16,
               .identity = identity,
               .user = ctx,
               .accumulate = accumulate,
               .combine = combine};
  p.grain_key = (void (*)(void))accumulate;
  adapt__seq_ctx c;
  adapt__seq_work w;
  rc = adapt__seq_run(&c, &w, &k_reduce, &x, &p, NULL, 0);
  red_acc *a = acc_of(&w);
  if (rc == 0) {
    /* fold the remaining groups left to right (the binary decomposition) */
    for (size_t i = 1; i < a->depth; i++) combine(val(&x, a, 0), val(&x, a, i), ctx);
    memmove(result, val(&x, a, 0), result_size);
  }
  free(a->stk);
  return rc;
}
