/* adapt_inclusive_scan, adapt_exclusive_scan and their range forms: the
 * adaptive prefix.
 *
 * The master computes the prefix from the front. A thief of the piece
 * [s, e) computes the local prefix of its piece in place in the output
 * (out[s] = in[s], out[j] = op(out[j-1], in[j])). When the victim reaches s
 * (the reduction, in sequence order), it finalises the thief's processed
 * outputs with its own last value p = out[s-1]: out[j] = op(p, out[j]), and
 * goes on from the thief's unprocessed rest; it costs one op per stolen
 * processed element (docs/algorithms.md). The master finalises the last
 * output at once (it goes on from it) and spawns a task for the others,
 * which an idle worker takes before any new piece (the preempted thief,
 * typically) while the master goes on with its own elements; the tasks end
 * before the call returns. A split gives a thief two parts for the
 * master's one (thief_parts): on 2 workers the master reaches a lone
 * thief's piece when about half of it is done and takes the rest back, so
 * that a third of the input is stolen and finalised, rather than half
 * (GNU's partial_sum has the same three parts). A thief's own merges (a
 * piece stolen from a thief) finalise at once, on the victim, as a nested
 * parallel map when large (ADAPT_SCAN_PAR_FIXUP): the master's later
 * finalisation of that piece must follow theirs. The range form does the
 * same with one call of the user's scan per chunk and one call of its add
 * per finalised range.
 *
 * The exclusive scan carries the running value c in the work descriptor
 * (out[i] = c, then c = c (+) in[i]). A thief's piece [s, e) starts with
 * c = in[s] and leaves out[s] alone, so its outputs out[j], s < j < ibeg,
 * are the local prefixes in[s] (+) ... (+) in[j-1]; the victim, with its
 * own carry p at s, writes out[s] = p, finalises the others (p (+) out[j],
 * as above) and goes on with p (+) the thief's carry. */
#include <errno.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <adapt/algorithms.h>
#include <adapt/tasks.h>

#include "adapt_ext.h"
#include "seq_engine.h"

struct fix_task;

typedef struct scan_ctx {
  const char *in;
  char *out;
  size_t size;
  void *user;
  void (*op)(const void *prev, const void *elem, void *out, void *ctx);
  /* the range form */
  void (*scan)(const void *carry, const void *in_first, void *out_first, size_t n, void *ctx);
  void (*add)(const void *carry, void *first, size_t n, void *ctx);
  /* the exclusive range form (with add) */
  void (*xscan)(void *carry, const void *in_first, void *out_first, size_t n, void *ctx);
  /* The master's deferred finalisations: spawned in scope (NULL: none,
   * finalise at once), listed for the call to free. Master thread only. */
  adapt_scope *scope;
  struct fix_task *tasks;
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

/* out[j] = prev (+) out[j] for the n outputs at first; a nested parallel
 * map (chunks of `grain`) when they are many, so that idle workers help.
 * An adapt_cancel from op or add inside that map cancels the map only: it
 * stops the call c (the outputs are then unspecified); the map's other
 * errors come before any chunk ran, and the finalisation runs here. */
static void finalise(adapt__seq_ctx *c, size_t grain, char *first, size_t n, const char *prev) {
  const scan_ctx *x = c->kctx;
  fix_ctx f = {x, prev};
  if (n >= ADAPT_SCAN_PAR_FIXUP && adapt_num_workers() > 1) {
    adapt_attr a = {0};
    a.window = ADAPT_WINDOW_NONE;
    a.grain = grain;
    int rc = adapt_for_each_range(first, n, x->size, fix_range, &f, &a);
    if (rc == -ECANCELED) { /* as adapt_cancel does for the call itself */
      /* relaxed: read after the region's join or after adapt_sync, which
       * order this store before the read (scan_common) */
      atomic_store_explicit(&c->cancelled, 1, memory_order_relaxed);
      adapt__seq_stop(c, 0, -ECANCELED);
    }
    if (rc == 0 || rc == -ECANCELED) return;
  }
  fix_range(first, n, &f);
}

/* A deferred finalisation: finalise(c, grain, first, n, prev), where prev
 * is a final output of the master or the copy of its carry kept here. */
typedef struct fix_task {
  struct fix_task *next;
  adapt__seq_ctx *c; /* the call, for adapt_cancel from op or add */
  char *first;
  const char *prev;
  size_t n, grain;
  _Alignas(max_align_t) unsigned char carry[];
} fix_task;

/* adapt_cancel from a deferred finalisation: stop the call (its result is
 * read after the tasks, in scan_common). */
static void fix_cancel(void *cv) { adapt__seq_stop(cv, 0, -ECANCELED); }

static void fix_task_run(void *arg) {
  fix_task *t = arg;
  adapt__cancel_scope scope = {.flag = &t->c->cancelled, .hook = fix_cancel, .hook_arg = t->c};
  adapt__cancel_push(&scope);
  if (!adapt__cancel_seen(&t->c->cancelled)) finalise(t->c, t->grain, t->first, t->n, t->prev);
  adapt__cancel_pop(&scope);
}

/* On the master, in a merge: spawn finalise(first, n, prev) (prev copied
 * when copy is set). Returns 0 when it must be done at once (no scope, no
 * memory). */
static int defer(adapt__seq_ctx *c, const adapt__seq_work *v, char *first, size_t n,
                 const char *prev, int copy) {
  scan_ctx *x = c->kctx;
  if (!x->scope) return 0;
  fix_task *t = malloc(sizeof *t + (copy ? x->size : 0));
  if (!t) return 0;
  t->c = c;
  t->first = first;
  t->n = n;
  t->grain = v->grain;
  t->prev = prev;
  if (copy) {
    memcpy(t->carry, prev, x->size);
    t->prev = (const char *)t->carry;
  }
  if (adapt_spawn(x->scope, fix_task_run, t) != 0) {
    free(t);
    return 0;
  }
  /* not read by the task: linked after the spawn */
  t->next = x->tasks;
  x->tasks = t;
  return 1;
}

static void merge_scan(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  size_t n = t->ibeg - t->start;
  if (n == 0) return;
  /* t->start > v->start >= 0: the victim's last output is final for it */
  char *first = x->out + t->start * sz;
  const char *prev = first - sz;
  if (v->master && n >= 2 && x->scope) {
    /* the master goes on from the last output: finalised now */
    fix_ctx f = {x, prev};
    fix_range(first + (n - 1) * sz, 1, &f);
    if (defer(c, v, first, n - 1, prev, 0)) return;
    n--;
  }
  finalise(c, v->grain, first, n, prev);
}

static const adapt__seq_kernel k_scan = {run_scan, merge_scan, NULL};
static const adapt__seq_kernel k_scan_range = {run_scan_range, merge_scan, NULL};

/* --- Exclusive scan ------------------------------------------------------ */

/* The carry in a work descriptor's acc: two slots of size bytes (the
 * per-element form computes the next value into the other slot, so that
 * op's result never aliases its operands), inline when they fit, else on
 * the heap (freed by the merge or the discard, the master's by the call). */
typedef struct xscan_acc {
  char *heap; /* the slots, when 2 * size > sizeof buf */
  int has;    /* the carry is set: the piece's first element has been read */
  int cur;    /* slot holding the carry */
  alignas(16) unsigned char buf[ADAPT_SEQ_ACC_BYTES - 16];
} xscan_acc;

_Static_assert(sizeof(xscan_acc) <= ADAPT_SEQ_ACC_BYTES, "xscan_acc too large");

static xscan_acc *xacc_of(adapt__seq_work *w) { return (xscan_acc *)(void *)w->acc; }

static char *slot(xscan_acc *a, size_t size, int k) {
  return (a->heap ? a->heap : (char *)a->buf) + (size_t)k * size;
}

/* The piece's first chunk: its first element becomes the carry (the
 * output there is the victim's to write). Returns the next unit, or e + 1
 * after a failed allocation (the call stops with -ENOMEM). */
static size_t xscan_start(adapt__seq_ctx *c, xscan_acc *a, size_t b, size_t e) {
  const scan_ctx *x = c->kctx;
  if (2 * x->size > sizeof a->buf && !a->heap && !(a->heap = malloc(2 * x->size))) {
    adapt__seq_stop(c, 0, -ENOMEM);
    return e + 1;
  }
  memcpy(slot(a, x->size, 0), x->in + b * x->size, x->size);
  a->has = 1;
  a->cur = 0;
  return b + 1;
}

static void run_xscan(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  xscan_acc *a = xacc_of(w);
  size_t i = a->has ? b : xscan_start(c, a, b, e);
  char *cur = slot(a, sz, a->cur), *nxt = slot(a, sz, !a->cur);
  for (; i < e; i++) {
    x->op(cur, x->in + i * sz, nxt, x->user); /* reads in[i] before out[i] is written */
    memcpy(x->out + i * sz, cur, sz);
    char *t = cur;
    cur = nxt;
    nxt = t;
  }
  a->cur = cur != slot(a, sz, 0);
}

static void run_xscan_range(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e) {
  const scan_ctx *x = c->kctx;
  xscan_acc *a = xacc_of(w);
  size_t i = a->has ? b : xscan_start(c, a, b, e);
  if (i < e)
    x->xscan(slot(a, x->size, a->cur), x->in + i * x->size, x->out + i * x->size, e - i, x->user);
}

static void discard_xscan(adapt__seq_ctx *c, adapt__seq_work *t) {
  (void)c;
  xscan_acc *ta = xacc_of(t);
  free(ta->heap);
  ta->heap = NULL;
}

static void merge_xscan(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t) {
  const scan_ctx *x = c->kctx;
  const size_t sz = x->size;
  xscan_acc *va = xacc_of(v), *ta = xacc_of(t);
  if (ta->has) {
    if (!va->has) { /* a victim always holds its piece's first unit */
      adapt__seq_stop(c, 0, -EPROTO);
    } else {
      const char *p = slot(va, sz, va->cur);
      memcpy(x->out + t->start * sz, p, sz);
      size_t n = t->ibeg - t->start - 1;
      char *first = x->out + (t->start + 1) * sz;
      if (n && !(v->master && defer(c, v, first, n, p, 1))) finalise(c, v->grain, first, n, p);
      /* the victim goes on with p (+) the thief's carry */
      if (x->op) {
        x->op(p, slot(ta, sz, ta->cur), slot(va, sz, !va->cur), x->user);
        va->cur = !va->cur;
      } else {
        char *tc = slot(ta, sz, ta->cur);
        x->add(p, tc, 1, x->user);
        memcpy(slot(va, sz, va->cur), tc, sz);
      }
    }
  }
  discard_xscan(c, t);
}

static const adapt__seq_kernel k_xscan = {run_xscan, merge_xscan, discard_xscan};
static const adapt__seq_kernel k_xscan_range = {run_xscan_range, merge_xscan, discard_xscan};

/* The four scans: x holds the callbacks (op, or scan or xscan and add);
 * init: the exclusive scans' initial value (NULL for the inclusive ones). */
static int scan_common(const char *fn, const void *in, size_t count, size_t size, void *out,
                       const void *init, scan_ctx *x, const adapt__seq_kernel *k,
                       const adapt_attr *attr) {
  void (*key)(void) = k == &k_scan || k == &k_xscan ? (void (*)(void))x->op
                      : k == &k_scan_range          ? (void (*)(void))x->scan
                                                    : (void (*)(void))x->xscan;
  size_t bytes;
  adapt__error_clear();
  if (key == NULL)
    return adapt__fail(-EINVAL, "%s: %s is NULL", fn,
                       k == &k_scan || k == &k_xscan ? "op" : "scan");
  if ((k == &k_scan_range || k == &k_xscan_range) && !x->add)
    return adapt__fail(-EINVAL, "%s: add is NULL", fn);
  if ((k == &k_xscan || k == &k_xscan_range) && !init)
    return adapt__fail(-EINVAL, "%s: init is NULL", fn);
  int rc = adapt__seq_bytes(fn, "count", "size", count, size, &bytes);
  if (rc) return rc;
  if (count && !in) return adapt__fail(-EINVAL, "%s: in is NULL with count > 0", fn);
  if (count && !out) return adapt__fail(-EINVAL, "%s: out is NULL with count > 0", fn);
  if (in != out && adapt__seq_overlap(in, bytes, out, bytes))
    return adapt__fail(-EINVAL, "%s: output overlaps input (only in == out is allowed)", fn);
  adapt__seq_params p;
  rc = adapt__seq_params_resolve(fn, attr, count, 1, size > SIZE_MAX / 2 ? SIZE_MAX : 2 * size, &p);
  if (rc || count == 0) return rc;
  p.grain_key = key;
  p.thief_parts = 2; /* see the top of this file */
  x->in = in;
  x->out = out;
  x->size = size;
  x->scope = NULL;
  x->tasks = NULL;
  adapt__seq_ctx c;
  adapt__seq_work w;
  /* the master's carry starts as init (copied first: init may lie in out) */
  xscan_acc a = {0};
  if (init) {
    if (size > SIZE_MAX / 2) return adapt__fail(-EOVERFLOW, "%s: 2 * size overflows size_t", fn);
    if (2 * size > sizeof a.buf && !(a.heap = malloc(2 * size)))
      return adapt__fail(-ENOMEM, "%s: no memory for the carry (%zu bytes)", fn, 2 * size);
    memcpy(slot(&a, size, 0), init, size);
    a.has = 1;
  }
  /* The deferred finalisations' scope (none: they run at once). */
  adapt_scope scope;
  if (adapt_num_workers() > 1 && adapt_scope_begin(&scope) == 0) x->scope = &scope;
  rc = init ? adapt__seq_run(&c, &w, k, x, &p, &a, sizeof a)
            : adapt__seq_run(&c, &w, k, x, &p, NULL, 0);
  if (x->scope) {
    /* adapt_sync clears the thread's error detail: keep the run's */
    char detail[256];
    if (rc) snprintf(detail, sizeof detail, "%s", adapt_last_error());
    (void)adapt_sync(x->scope); /* cannot fail: begun here, frames closed */
    if (rc)
      adapt__fail(rc, "%s", detail);
    else if (adapt__cancel_seen(&c.cancelled)) /* a task's op or add, after the run */
      rc = adapt__fail(-ECANCELED, "%s: cancelled by a body", fn);
  }
  while (x->tasks) {
    fix_task *t = x->tasks;
    x->tasks = t->next;
    free(t);
  }
  /* the master's final carry (the total) is not returned: free its slots,
   * which the run may have moved only within its own acc */
  if (init) free(xacc_of(&w)->heap);
  return rc;
}

int adapt_inclusive_scan(const void *in, size_t count, size_t size, void *out,
                         void (*op)(const void *prev, const void *elem, void *out, void *ctx),
                         void *ctx, const adapt_attr *attr) {
  return scan_common("adapt_inclusive_scan", in, count, size, out, NULL,
                     &(scan_ctx){.user = ctx, .op = op}, &k_scan, attr);
}

int adapt_inclusive_scan_range(const void *in, size_t count, size_t size, void *out,
                               void (*scan)(const void *carry, const void *in_first,
                                            void *out_first, size_t n, void *ctx),
                               void (*add)(const void *carry, void *first, size_t n, void *ctx),
                               void *ctx, const adapt_attr *attr) {
  return scan_common("adapt_inclusive_scan_range", in, count, size, out, NULL,
                     &(scan_ctx){.user = ctx, .scan = scan, .add = add}, &k_scan_range, attr);
}

int adapt_exclusive_scan(const void *in, size_t count, size_t size, void *out, const void *init,
                         void (*op)(const void *prev, const void *elem, void *res, void *ctx),
                         void *ctx, const adapt_attr *attr) {
  return scan_common("adapt_exclusive_scan", in, count, size, out, init,
                     &(scan_ctx){.user = ctx, .op = op}, &k_xscan, attr);
}

int adapt_exclusive_scan_range(const void *in, size_t count, size_t size, void *out,
                               const void *init,
                               void (*scan)(void *carry, const void *in_first, void *out_first,
                                            size_t n, void *ctx),
                               void (*add)(const void *carry, void *first, size_t n, void *ctx),
                               void *ctx, const adapt_attr *attr) {
  return scan_common("adapt_exclusive_scan_range", in, count, size, out, init,
                     &(scan_ctx){.user = ctx, .xscan = scan, .add = add}, &k_xscan_range, attr);
}
