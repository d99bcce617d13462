/* Kernels shared by the fault driver (tests/fault) and the soak test
 * (tests/soak): the range forms of the sequence algorithms built from
 * per-element callbacks over uint64_t elements, the affine maps whose scans
 * and adaptive tasks show the order of composition, and the reduction
 * values that check adapt_reduce's documented grouping. Needs only the
 * public headers (no cmocka). */
#ifndef TESTS_COMMON_KERNELS_H
#define TESTS_COMMON_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <adapt/adaptive.h>

/* --- Range forms: the per-element callback on each of the n elements ----- */

/* adapt_transform_range from op (in and out: n uint64_t each). */
static inline void range_transform(void (*op)(const void *in, void *out, void *ctx), const void *in,
                                   void *out, size_t n, void *ctx) {
  for (size_t i = 0; i < n; i++) op((const uint64_t *)in + i, (uint64_t *)out + i, ctx);
}

/* adapt_count_if_range from pred: how many of the n elements satisfy it. */
static inline size_t range_count(int (*pred)(const void *elem, void *ctx), const void *first,
                                 size_t n, void *ctx) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += (size_t)pred((const uint64_t *)first + i, ctx);
  return k;
}

/* adapt_find_if_range from pred: the offset of the first element that
 * satisfies it, n if none. */
static inline size_t range_find(int (*pred)(const void *elem, void *ctx), const void *first,
                                size_t n, void *ctx) {
  for (size_t i = 0; i < n; i++)
    if (pred((const uint64_t *)first + i, ctx)) return i;
  return n;
}

/* adapt_transform_var_range from op: the outputs of the n elements one
 * after the other at out; their count. */
static inline size_t range_var(size_t (*op)(const void *in, void *out, void *ctx), const void *in,
                               size_t n, void *out, void *ctx) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += op((const uint64_t *)in + i, (uint64_t *)out + k, ctx);
  return k;
}

/* adapt_copy_if_range from pred: the elements that satisfy it copied in
 * order to out; their count. */
static inline size_t range_copy_if(int (*pred)(const void *elem, void *ctx), const void *in,
                                   size_t n, void *out, void *ctx) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (pred((const uint64_t *)in + i, ctx)) ((uint64_t *)out)[k++] = ((const uint64_t *)in)[i];
  return k;
}

/* --- Affine maps x -> a x + b (mod 2^64) --------------------------------- */
/* Composition is associative and not commutative, so a scan or a reduction
 * in the wrong order shows. */
typedef struct affine {
  uint64_t a, b;
} affine;

/* x -> e(p(x)): first p, then e. */
static inline affine compose(affine p, affine e) { return (affine){e.a * p.a, e.a * p.b + e.b}; }

/* The scans' op. */
static inline void op_scan(const void *prev, const void *elem, void *res, void *ctx) {
  (void)ctx;
  *(affine *)res = compose(*(const affine *)prev, *(const affine *)elem);
}

/* adapt_inclusive_scan_range's scan: the n local prefixes, from carry's
 * (NULL: the piece's first chunk). */
static inline void scan_range(const void *carry, const void *in, void *out, size_t n, void *ctx) {
  (void)ctx;
  const affine *x = in;
  affine *y = out, p = carry ? compose(*(const affine *)carry, x[0]) : x[0];
  y[0] = p;
  for (size_t i = 1; i < n; i++) y[i] = p = compose(p, x[i]);
}

/* adapt_exclusive_scan_range's scan: out[i] = the carry, then the carry
 * composed with in[i]. */
static inline void xscan_range(void *carry, const void *in, void *out, size_t n, void *ctx) {
  (void)ctx;
  const affine *x = in;
  affine *y = out, *c = carry;
  for (size_t i = 0; i < n; i++) {
    affine e = x[i];
    y[i] = *c;
    *c = compose(*c, e);
  }
}

/* The range scans' add: carry composed before each of the n outputs. */
static inline void scan_add(const void *carry, void *first, size_t n, void *ctx) {
  (void)ctx;
  affine *y = first;
  for (size_t i = 0; i < n; i++) y[i] = compose(*(const affine *)carry, y[i]);
}

/* --- The adaptive API: a task over affine maps --------------------------- */

typedef struct aff_work {
  size_t start, begin, end; /* processed [start, begin), owned [begin, end) */
  affine acc;               /* composition of the processed elements, in order */
} aff_work;

/* The reducer's merge of thief t into v: t's composition after v's, and
 * t's rest (a preempted thief's) is v's now. 0 when t does not directly
 * follow v's processed elements (out of sequence order). */
static inline int aff_merge(aff_work *v, const aff_work *t) {
  int ok = v->begin == v->end && t->start == v->begin;
  v->acc = compose(v->acc, t->acc);
  v->begin = t->begin;
  v->end = t->end;
  return ok;
}

/* The entry's loop: chunks of at most `grain` elements of w, each claimed
 * (w->begin moved past it) before chunk(w, b, e, ctx) runs it, after a
 * steal point and before a preempt point; then, with preempt, the thieves
 * preempted one by one (their rest is w's), else adapt_end joins them. */
static inline void aff_run(adapt_frame *f, aff_work *w, size_t grain, int preempt,
                           void (*chunk)(aff_work *w, size_t b, size_t e, const void *ctx),
                           const void *ctx) {
  for (;;) {
    while (w->begin < w->end) {
      adapt_steal_point(f);
      size_t b = w->begin, e = w->end - b > grain ? b + grain : w->end;
      w->begin = e; /* claim before running: a nested region polls */
      chunk(w, b, e, ctx);
      if (adapt_preempt_point(f)) return;
    }
    if (!preempt || !adapt_preempt_next_thief(f)) return;
  }
}

/* --- adapt_reduce's documented grouping ---------------------------------- */
/* A value covers the blocks [lo, hi) of RED_BLOCK elements (in[i] == i, so
 * an element tells its block) and hashes its grouping; joining two values
 * checks that they are adjacent and grouped as documented (siblings of an
 * aligned power-of-two group, or the left fold of the maximal groups). */

enum { RED_BLOCK = 1024 }; /* ADAPT_REDUCE_BLOCK's default (algorithms.h) */

typedef struct red_val {
  uint64_t lo, hi, h;
} red_val;

static const red_val red_identity = {UINT64_MAX, UINT64_MAX, 0};

static inline uint64_t red_mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ull;
  return x ^ (x >> 29);
}
static inline uint64_t red_join_hash(uint64_t l, uint64_t r) {
  return red_mix(l * 31 + red_mix(r + 7));
}
static inline uint64_t red_block_hash(const uint64_t *e, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) s = s * 3 + e[i];
  return red_mix(s);
}
static inline int red_pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* accumulate: *v = the value of the block of the n elements at e. 0 when
 * *v was not the identity or e is not a block's start. */
static inline int red_block(red_val *v, const uint64_t *e, size_t n) {
  int ok = v->lo == UINT64_MAX && e[0] % RED_BLOCK == 0;
  *v = (red_val){e[0] / RED_BLOCK, e[0] / RED_BLOCK + 1, red_block_hash(e, n)};
  return ok;
}

/* combine: *x = x (+) y. 0 when they are not adjacent or not grouped as
 * documented. */
static inline int red_join(red_val *x, const red_val *y) {
  uint64_t sx = x->hi - x->lo, sy = y->hi - y->lo;
  int sibling = sx == sy && red_pow2(sx) && x->lo % (2 * sx) == 0;
  /* the left fold: [0, p) (+) a smaller maximal group after it */
  int fold = x->lo == 0 && red_pow2(sy) && x->hi % (2 * sy) == 0;
  int ok = x->hi == y->lo && (sibling || fold);
  *x = (red_val){x->lo, y->hi, red_join_hash(x->h, y->h)};
  return ok;
}

/* The hash of the aligned group of s blocks from block lo of in[0..n). */
static inline uint64_t red_group(const uint64_t *in, size_t n, uint64_t lo, uint64_t s) {
  if (s == 1) {
    size_t first = (size_t)lo * RED_BLOCK;
    return red_block_hash(in + first, n - first < RED_BLOCK ? n - first : RED_BLOCK);
  }
  return red_join_hash(red_group(in, n, lo, s / 2), red_group(in, n, lo + s / 2, s / 2));
}

/* The documented grouping's value for in[0..n), n > 0 (lo 0, hi the number
 * of blocks). */
static inline red_val red_expected(const uint64_t *in, size_t n) {
  uint64_t nb = (n + RED_BLOCK - 1) / RED_BLOCK, lo = 0, h = 0;
  for (uint64_t s = (uint64_t)1 << 62; s; s >>= 1)
    if (nb - lo >= s) {
      uint64_t g = red_group(in, n, lo, s);
      h = lo == 0 ? g : red_join_hash(h, g);
      lo += s;
    }
  return (red_val){0, nb, h};
}

#endif /* TESTS_COMMON_KERNELS_H */
