/* ADAPT_SCHED_LAZY_DF, _DF2 and _BF: lazy splitting (A. Tzannes, G. C.
 * Caragea, U. Vishkin and R. Barua, "Lazy Scheduling: A Runtime Adaptive
 * Scheduler for Declarative Parallelism", ACM TOPLAS 36(3), 2014).
 * A worker runs its range G indices at a time and exposes work only when
 * its deque looks hungry: holding fewer than `threshold` entries (1: DF,
 * 2: DF2). DF and DF2 then push the upper half of the range being run (the
 * innermost postponed range). BF keeps every range being run in a private
 * deque, oldest first, and pushes from the oldest one (Algorithm 3): half
 * of it if it is larger than G, else all of it. Indices are taken off a
 * range before the body runs, so a nested loop that pushes part of an
 * enclosing range never hands out an index already running. */
#include <errno.h>

#include "error.h"
#include "lazy.h"
#include "region.h"
#include "scope.h"
#include "schedulers.h"
#include "worker.h"

/* A range being run by this worker (BF: linked in its private deque). */
typedef struct adapt__lazy_td {
  size_t lo, hi;
  const adapt__loop *l;
  adapt__scope *scope; /* counts what is pushed from this range */
  struct adapt__lazy_td *older, *newer;
  int linked;
} adapt__lazy_td;

typedef struct lazy_mode {
  unsigned threshold;
  int breadth_first;
} lazy_mode;

static const lazy_mode modes[] = {{1, 0}, {2, 0}, {1, 1}};

static void lazy_range(adapt__worker *w, const adapt__loop *l, const lazy_mode *m, size_t lo,
                       size_t hi);

static void lazy_piece_run(adapt__worker *w, const adapt__spawned *t) {
  lazy_range(w, t->obj, t->arg, t->lo, t->hi);
}

static void push_range(adapt__scope *s, const adapt__loop *l, const lazy_mode *m, size_t lo,
                       size_t hi) {
  adapt__spawned e = {
      .run = lazy_piece_run, .arg = (void *)m, .obj = (void *)l, .lo = lo, .hi = hi};
  adapt__scope_push(s, &e);
}

/* Private deque of postponed ranges (owner only, no synchronisation). */
static void td_link(adapt__worker *w, adapt__lazy_td *td) {
  td->newer = NULL;
  td->older = w->postponed_newest;
  if (td->older)
    td->older->newer = td;
  else
    w->postponed_oldest = td;
  w->postponed_newest = td;
  td->linked = 1;
}

static void td_unlink(adapt__worker *w, adapt__lazy_td *td) {
  if (td->older)
    td->older->newer = td->newer;
  else
    w->postponed_oldest = td->newer;
  if (td->newer)
    td->newer->older = td->older;
  else
    w->postponed_newest = td->older;
  td->linked = 0;
}

/* BF: expose work from the oldest postponed range of this worker. */
static void push_oldest(adapt__worker *w, const lazy_mode *m) {
  adapt__lazy_td *old = w->postponed_oldest;
  size_t n = old->hi - old->lo;
  /* Take the range off the postponed one before pushing it: the push may
   * run it at once (deque full), and its nested loops look at this deque. */
  size_t lo = old->lo, hi = old->hi;
  if (n > old->l->grain) {
    old->hi = lo + n / 2;
    push_range(old->scope, old->l, m, old->hi, hi);
  } else {
    td_unlink(w, old);
    old->lo = hi; /* its loop finds nothing left */
    push_range(old->scope, old->l, m, lo, hi);
  }
}

/* A range's grain, chunk call and cancel flag, read once from its loop:
 * locals the compiler keeps across the body's calls (it cannot tell that
 * they leave l alone). */
typedef struct {
  size_t g;
  void (*body)(size_t, size_t, void *);
  void *ctx;
  atomic_int *cancelled;
} lazy_call;

static inline lazy_call lazy_call_of(const adapt__loop *l) {
  return (lazy_call){.g = l->grain, .body = l->body, .ctx = l->ctx, .cancelled = l->cancelled};
}

/* DF and DF2 over [lo, hi) at a constant threshold thr (inlined once per
 * mode: the check is a compare with an immediate; thr 0: a worker that no
 * thief can reach, see adapt__worker_alone, never exposes work and reads no
 * deque). l is the loop the pushed halves refer to; fill: *l is written
 * from c and [lo, hi) at the first push only (adapt_for's nested path: a
 * loop that pushes nothing never builds it). The scope is opened at the
 * first push too: until then this level has pushed nothing, and the
 * deque's tail is where it was when the range began (every nested loop's
 * wait pops back down to its floor, and thieves move only the head), so
 * the floor is the same. A range that pushed nothing has nothing to wait
 * for. Per chunk: the hunger check, the cancel flag, the claim, the call. */
static inline __attribute__((always_inline)) void df_range(adapt__worker *w, adapt__loop *l,
                                                           const lazy_call c, unsigned thr,
                                                           int fill, size_t lo, size_t hi) {
  adapt__cancel_scope cs = {.flag = c.cancelled};
  adapt__cancel_push(&cs);
  if (!thr && c.g == 1) {
    /* Alone at grain 1: per index the cancel flag, the call. */
    for (; lo < hi && !ADAPT_UNLIKELY(adapt__cancel_seen(c.cancelled)); lo++)
      c.body(lo, lo + 1, c.ctx);
    adapt__cancel_pop(&cs);
    return;
  }
  adapt__scope s;
  int opened = 0;
  while (hi - lo > c.g) {
    if (thr && ADAPT_UNLIKELY(adapt__deque_size(&w->dq) < thr)) {
      if (!opened) {
        if (fill) *l = (adapt__loop){c.body, c.ctx, c.cancelled, lo, hi, c.g};
        adapt__scope_open(&s, w);
      }
      opened = 1;
      size_t mid = lo + (hi - lo) / 2, top = hi;
      hi = mid;
      push_range(&s, l, &modes[thr - 1], mid, top);
      continue;
    }
    if (ADAPT_UNLIKELY(adapt__cancel_seen(c.cancelled))) break;
    size_t b = lo;
    lo += c.g;
    c.body(b, lo, c.ctx);
  }
  if (lo < hi && !adapt__cancel_seen(c.cancelled)) c.body(lo, hi, c.ctx);
  if (opened) adapt__scope_wait(&s);
  adapt__cancel_pop(&cs);
}

/* A pushed piece of l (or a loop run by adapt__for_lazy) at threshold thr. */
static __attribute__((noinline)) void df_piece(adapt__worker *w, const adapt__loop *l, unsigned thr,
                                               size_t lo, size_t hi) {
  const lazy_call c = lazy_call_of(l);
  if (thr == 0)
    df_range(w, (adapt__loop *)l, c, 0, 0, lo, hi);
  else if (thr == 1)
    df_range(w, (adapt__loop *)l, c, 1, 0, lo, hi);
  else
    df_range(w, (adapt__loop *)l, c, 2, 0, lo, hi);
}

/* BF over [lo, hi) of l: the range is linked in the worker's private deque
 * (nested loops push from it when it is the oldest), so its scope is open
 * from the start. */
static void bf_range(adapt__worker *w, const adapt__loop *l, const lazy_mode *m, size_t lo,
                     size_t hi) {
  const lazy_call c = lazy_call_of(l);
  adapt__cancel_scope cs;
  adapt__loop_range_begin(l, &cs);
  adapt__scope s;
  adapt__scope_open(&s, w);
  adapt__lazy_td td = {.lo = lo, .hi = hi, .l = l, .scope = &s};
  td_link(w, &td);
  /* td.hi may shrink and td.lo jump to td.hi while the body runs: nested
   * loops of this worker push from td when it is the oldest range. */
  while (td.hi - td.lo > c.g) {
    if (adapt__deque_size(&w->dq) < m->threshold) {
      push_oldest(w, m);
      continue;
    }
    if (adapt__loop_cancelled(l)) break;
    size_t b = td.lo;
    td.lo += c.g;
    c.body(b, b + c.g, c.ctx);
  }
  if (td.linked) td_unlink(w, &td);
  if (td.lo < td.hi && !adapt__loop_cancelled(l)) c.body(td.lo, td.hi, c.ctx);
  /* Skipped when nothing was pushed in s and nothing of an enclosing range
   * sits above its floor: the wait would find the same and return. */
  if (s.pushed || adapt__deque_tail(&w->dq) != s.floor) adapt__scope_wait(&s);
  adapt__loop_range_end(&cs);
}

static void lazy_range(adapt__worker *w, const adapt__loop *l, const lazy_mode *m, size_t lo,
                       size_t hi) {
  if (m->breadth_first)
    bf_range(w, l, m, lo, hi);
  else
    df_piece(w, l, adapt__worker_alone(w) ? 0 : m->threshold, lo, hi);
}

void adapt__for_lazy(adapt__worker *w, const adapt__loop *l, unsigned threshold,
                     int breadth_first) {
  const lazy_mode *m = breadth_first ? &modes[2] : threshold >= 2 ? &modes[1] : &modes[0];
  lazy_range(w, l, m, l->first, l->last);
}

/* adapt__for_lazy_nested at a constant threshold (see df_range), the
 * nested region entered. */
static inline __attribute__((always_inline)) int nested_df(unsigned thr, size_t first, size_t last,
                                                           void (*body)(size_t, size_t, void *),
                                                           void *ctx, size_t grain) {
  adapt__worker *w = adapt__tls_worker;
  if (ADAPT_UNLIKELY(!grain)) grain = adapt__default_grain(last - first, adapt__rt.nworkers);
  atomic_int cancelled = 0;
  adapt__loop l; /* written by df_range at its first push */
  df_range(w, &l, (lazy_call){grain, body, ctx, &cancelled}, thr, 1, first, last);
  adapt__region_leave(ADAPT__REGION_NESTED);
  /* relaxed: every range of the loop has returned (df_range waits for what
   * it pushed), so every store to the flag is ordered before this read. */
  if (ADAPT_UNLIKELY(adapt__cancel_seen(&cancelled))) return adapt__lazy_cancelled();
  return 0;
}

static __attribute__((noinline)) int nested_df1(size_t first, size_t last,
                                                void (*body)(size_t, size_t, void *), void *ctx,
                                                size_t grain) {
  return nested_df(1, first, last, body, ctx, grain);
}

static __attribute__((noinline)) int nested_df2(size_t first, size_t last,
                                                void (*body)(size_t, size_t, void *), void *ctx,
                                                size_t grain) {
  return nested_df(2, first, last, body, ctx, grain);
}

int adapt__for_lazy_nested(size_t first, size_t last, void (*body)(size_t, size_t, void *),
                           void *ctx, size_t grain, unsigned threshold) {
  if (threshold >= 2) return nested_df2(first, last, body, ctx, grain);
  return nested_df1(first, last, body, ctx, grain);
}

int adapt__for_lazy_rest(size_t first, size_t last, void (*body)(size_t, size_t, void *), void *ctx,
                         size_t g, unsigned code) {
  adapt__worker *w = adapt__tls_worker;
  const unsigned thr = code == ADAPT__LOOP_BF ? 1u : code;
  /* relaxed sizes, as df_range's: the inline check's tail may be stale
   * (below the real one, never above), so look again. */
  if (adapt__deque_size(&w->dq) >= thr) return ADAPT__LOOP_GO_ON;
  if (code == ADAPT__LOOP_BF && w->postponed_oldest) {
    /* An older range is linked: BF exposes work from it (Algorithm 3). */
    push_oldest(w, &modes[2]);
    return ADAPT__LOOP_GO_ON;
  }
  adapt__region_enter_nested();
  if (code != ADAPT__LOOP_BF) return adapt__for_lazy_nested(first, last, body, ctx, g, thr);
  atomic_int cancelled = 0;
  const adapt__loop l = {body, ctx, &cancelled, first, last, g};
  bf_range(w, &l, &modes[2], first, last);
  adapt__region_leave(ADAPT__REGION_NESTED);
  /* relaxed: bf_range waited for every piece of l. */
  return ADAPT_UNLIKELY(adapt__cancel_seen(&cancelled)) ? adapt__lazy_cancelled() : 0;
}

int adapt__lazy_cancelled(void) {
  return adapt__fail(-ECANCELED, "adapt_for: cancelled by a body");
}
