/* Loop schedulers behind adapt_for (one file each: loopframe.c, dac.c,
 * lazy.c, hybrid.c; adaptive is loop.c). adapt_for validates the call,
 * resolves the scheduler and the grain, enters the region and calls one of
 * these on the calling worker. Each returns when every index of
 * [l->first, l->last) has been run exactly once. */
#ifndef LIBADAPT_SRC_SCHEDULERS_H
#define LIBADAPT_SRC_SCHEDULERS_H

#include <stdatomic.h>
#include <stddef.h>
#include <adapt/loop.h>

#include "../ext/adapt_ext.h"
#include "debug.h"

struct adapt__worker;

/* One loop, shared read-only by every worker that runs part of it; lives on
 * the caller's stack until the scheduler returns. The schedulers call the
 * user's body directly; each range of the loop a worker runs (the loop's
 * own call, a piece taken from a deque, a partition) is one cancel scope
 * (adapt__loop_range_begin/_end), and the cancel flag is read before each
 * chunk: after adapt_cancel the chunks not yet started are skipped. */
typedef struct adapt__loop {
  void (*body)(size_t begin, size_t end, void *ctx);
  void *ctx;
  atomic_int *cancelled; /* set by adapt_cancel from a body of this loop */
  size_t first, last;
  size_t grain; /* G >= 1, resolved by adapt_for */
} adapt__loop;

/* Make l the target of adapt_cancel on the calling thread while one of its
 * ranges runs: cs lives until the matching adapt__loop_range_end. Work of
 * other calls run meanwhile (a popped or stolen entry) pushes its own
 * scope or a barrier over it. */
static inline void adapt__loop_range_begin(const adapt__loop *l, adapt__cancel_scope *cs) {
  cs->flag = l->cancelled;
  cs->hook = NULL;
  cs->hook_arg = NULL;
  adapt__cancel_push(cs);
}

static inline void adapt__loop_range_end(adapt__cancel_scope *cs) { adapt__cancel_pop(cs); }

/* 1 when a body cancelled l: its chunks not yet started are skipped. */
static inline int adapt__loop_cancelled(const adapt__loop *l) {
  return ADAPT_UNLIKELY(adapt__cancel_seen(l->cancelled));
}

/* Default grain of the non-adaptive schedulers: min(ADAPT_SCHED_GRAIN_MAX,
 * n / (8 P)), at least 1. */
size_t adapt__default_grain(size_t n, int nworkers);

/* Run l with scheduler s (not DEFAULT nor ADAPTIVE) on w, inside a region. */
void adapt__for_sched(adapt_sched s, struct adapt__worker *w, const adapt__loop *l);

void adapt__for_loopframe(struct adapt__worker *w, const adapt__loop *l);
void adapt__for_dac(struct adapt__worker *w, const adapt__loop *l);
/* Divide and conquer over [lo, hi) of l (hybrid runs its partitions so). */
void adapt__dac_range(struct adapt__worker *w, const adapt__loop *l, size_t lo, size_t hi);
/* threshold: deque size below which a range is split (1: DF, 2: DF2);
 * breadth_first: push the oldest postponed range (BF, threshold 1). */
void adapt__for_lazy(struct adapt__worker *w, const adapt__loop *l, unsigned threshold,
                     int breadth_first);
void adapt__for_hybrid(struct adapt__worker *w, const adapt__loop *l);
void adapt__for_static(struct adapt__worker *w, const adapt__loop *l);

/* --- Hybrid claiming heuristic (Handleman et al., IPDPS 2021, Alg. 2-3) --- */

/* Number of partitions for P workers: the smallest power of 2 >= P. */
unsigned adapt__hybrid_partitions(int nworkers);

/* Algorithm 2: claim partition r = i XOR w; 1 if this call claimed it, 0 if
 * it was already claimed. A has R flags, all 0 at the start of the loop. */
int adapt__hybrid_claim(atomic_uchar *A, unsigned i, unsigned w);

/* Algorithm 3 (the claim sequence of worker w): claim w's own partition,
 * and if that succeeds go on with i = 1, 2, ... < R, skipping by the least
 * significant set bit of i after a failed claim; calls work(r, arg) for each
 * partition r claimed. Returns the number of partitions claimed (0 if the
 * own partition was taken). */
unsigned adapt__hybrid_run(atomic_uchar *A, unsigned R, unsigned w,
                           void (*work)(unsigned r, void *arg), void *arg);

#endif /* LIBADAPT_SRC_SCHEDULERS_H */
