/* lazy.c's short path for adapt_for nested in a region (lazy DF and DF2,
 * the default inside a region): inlined into adapt_for, so that a nested
 * loop on a worker no thief can reach costs a plain loop, one cancel scope
 * and the region count. */
#ifndef LIBADAPT_SRC_LAZY_H
#define LIBADAPT_SRC_LAZY_H

#include <stdatomic.h>
#include <stddef.h>

#include <adapt/loop.h>

#include "region.h"
#include "schedulers.h"
#include "worker.h"

/* The lazy DF/DF2 part of adapt_for's nested path on a worker a thief can
 * reach (adapt__for_lazy_nested_call): the nested region already entered
 * (adapt__region_enter_nested), [first, last) run at grain (0: the default
 * grain) on the calling worker, the region left. 0, or -ECANCELED (error
 * detail set) when a body cancelled the loop. */
int adapt__for_lazy_nested(size_t first, size_t last, void (*body)(size_t, size_t, void *),
                           void *ctx, size_t grain, unsigned threshold);
/* adapt__fail(-ECANCELED) with adapt_for's detail (out of line, cold). */
int adapt__lazy_cancelled(void);

/* 1 when no thief can ever take work from w: a solo worker (never a
 * victim), or the only worker of the pool. Lazy scheduling exposes work
 * only for a worker that could take it: such a worker runs its DF/DF2
 * ranges as plain loops (the cancel flag still read per chunk). */
static inline int adapt__worker_alone(const adapt__worker *w) {
  return adapt__rt.nworkers == 1 || w->solo;
}

/* adapt__tls_loop (<adapt/tasks.h>) for a thread running a region on w, or
 * w's pool thread: on a worker no thief can reach, lazy loops (and the
 * nested default, when lazy) run plain; else lazy loops (and the nested
 * default, when lazy) run inline until the deque looks hungry, each with
 * its threshold code (<adapt/loop.h>), and the default grain's divisor
 * (8 P, capped). */
static inline unsigned adapt__loop_bits(const adapt__worker *w) {
  const adapt_sched d = adapt__rt.nested_sched;
  if (adapt__worker_alone(w))
    return d == ADAPT_SCHED_LAZY_DF || d == ADAPT_SCHED_LAZY_DF2 || d == ADAPT_SCHED_LAZY_BF
               ? ADAPT__LOOP_LAZY | ADAPT__LOOP_DEFAULT
               : ADAPT__LOOP_LAZY;
  _Static_assert(ADAPT__LOOP_THR_SHIFT + 2u * ADAPT_SCHED_COUNT <= ADAPT__LOOP_SPLIT_SHIFT,
                 "adapt__tls_loop: the thresholds overlap the split bits");
  const unsigned def = d == ADAPT_SCHED_LAZY_DF    ? 1u
                       : d == ADAPT_SCHED_LAZY_DF2 ? 2u
                       : d == ADAPT_SCHED_LAZY_BF  ? ADAPT__LOOP_BF
                                                   : 0u;
  const unsigned thr = 1u << 2u * ADAPT_SCHED_LAZY_DF | 2u << 2u * ADAPT_SCHED_LAZY_DF2 |
                       ADAPT__LOOP_BF << 2u * ADAPT_SCHED_LAZY_BF | def << 2u * ADAPT_SCHED_DEFAULT;
  const size_t split = 8u * (size_t)adapt__rt.nworkers;
  return thr << ADAPT__LOOP_THR_SHIFT |
         (unsigned)(split < ADAPT__LOOP_SPLIT_MAX ? split : ADAPT__LOOP_SPLIT_MAX)
             << ADAPT__LOOP_SPLIT_SHIFT;
}

/* adapt_for's path for a nested call (adapt__region_is_nested, no team)
 * resolved to lazy DF (threshold 1) or DF2 (2): the nested region entered;
 * on a worker no thief can reach, [first, last) run here as a plain loop
 * at grain (0: the default grain), one cancel scope around it; else
 * adapt__for_lazy_nested. 0, or -ECANCELED (error detail set) when a body
 * cancelled the loop. first < last, body not NULL. */
static inline __attribute__((always_inline)) int
adapt__for_lazy_nested_call(size_t first, size_t last, void (*body)(size_t, size_t, void *),
                            void *ctx, size_t grain, unsigned threshold) {
  adapt__worker *w = adapt__region_enter_nested();
  if (!adapt__worker_alone(w))
    return adapt__for_lazy_nested(first, last, body, ctx, grain, threshold);
  if (ADAPT_UNLIKELY(!grain)) grain = adapt__default_grain(last - first, adapt__rt.nworkers);
  atomic_int cancelled = 0;
  adapt__cancel_scope cs = {.flag = &cancelled};
  adapt__cancel_push(&cs);
  /* first < last, and no body has run yet to cancel: the flag is read
   * after each chunk, before the next one. */
  adapt__loop_chunks(first, last, grain, body, ctx, &cancelled);
  adapt__cancel_pop(&cs);
  adapt__region_leave(ADAPT__REGION_NESTED);
  /* relaxed: the loop ran on this thread alone. */
  return ADAPT_UNLIKELY(adapt__cancel_seen(&cancelled)) ? adapt__lazy_cancelled() : 0;
}

#endif /* LIBADAPT_SRC_LAZY_H */
