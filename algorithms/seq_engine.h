/* The adaptive sequence engine: the paper's Fig. 1 (dowork, splitter,
 * reducer) with the no-window, static-window and sliding-window modes of its
 * §2.2 and §3.3, shared by every algorithm of <adapt/algorithms.h>.
 *
 * The engine processes the units [0, n) (a unit is one element, or one block
 * for adapt_reduce) by calling the algorithm's kernel on contiguous chunks.
 * The calling thread is the *master*: it owns the whole sequence, processes
 * it from the front and always holds the oldest unfinished unit. Idle
 * workers steal pieces, which are themselves splittable; pieces are reduced
 * into their victim in sequence order, each reduction merging the thief's
 * partial result (kernel->merge) and giving the victim the thief's
 * unprocessed rest, so a victim's processed units are always one contiguous
 * range [start, ibeg).
 *
 * Modes (m = params->window units):
 * - NONE: the master's range is [0, n); thieves take the far end.
 * - STATIC: the master opens windows [k m, (k+1) m) one after the other; a
 *   window opens when the previous one is finished (all its thieves
 *   reduced), and thieves only get pieces of the open window.
 * - SLIDING: with base = the first unit of the master's chunk in progress
 *   (the oldest unfinished unit), work is given only below base + m: the
 *   master's own tail [ibeg, iend) (local side) or the free units
 *   [ilast, base + m) after the stolen area (distant side); the splitter
 *   variant chooses (§3.3). Without thieves the master's range slides:
 *   iend = ilast = min(base + m, n).
 * In STATIC and SLIDING every unit being processed lies in
 * [oldest unfinished, oldest unfinished + m).
 *
 * Early stop: adapt__seq_stop lowers a shared limit; every worker checks it
 * before each chunk and abandons the units at or after it. adapt_cancel from
 * a kernel's callback stops the call at 0 with -ECANCELED. */
#ifndef ALGORITHMS_SEQ_ENGINE_H
#define ALGORITHMS_SEQ_ENGINE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <adapt/adaptive.h>

#include "algo_config.h"
#include "seq_params.h"

typedef struct adapt__seq_ctx adapt__seq_ctx;

/* A work descriptor (the runtime copies it into theft records). */
typedef struct adapt__seq_work {
  size_t start;     /* first unit of the piece: processed units are [start, ibeg) */
  size_t ibeg;      /* first unit not yet claimed */
  size_t iend;      /* end of the owned range */
  size_t ilast;     /* master: end of the area given to thieves (>= iend) */
  size_t base;      /* master: first unit of the chunk in progress */
  size_t grain;     /* units per chunk */
  int master;       /* 1 on the caller's descriptor */
  int calibrate;    /* > 0 while the automatic grain grows: slow chunks left */
  unsigned recheck; /* automatic grain, calibrated: chunks until one is timed */
  int strikes;      /* its slow timed chunk not yet believed (adapt__grain_rescale) */
  /* Algorithm state; all zero on a new piece (an empty partial result). */
  alignas(16) unsigned char acc[ADAPT_SEQ_ACC_BYTES];
} adapt__seq_work;

_Static_assert(sizeof(adapt__seq_work) <= ADAPT_WORK_MAX, "work descriptor too large");

typedef struct adapt__seq_kernel {
  /* Process units [b, e) of w's piece (b == w's previous ibeg, so units
   * [w->start, b) are already processed by w). May call adapt__seq_stop.
   * Required. */
  void (*run)(adapt__seq_ctx *c, adapt__seq_work *w, size_t b, size_t e);
  /* Merge the partial result of thief t (units [t->start, t->ibeg)) after
   * victim v's (units [v->start, t->start)), then leave t empty. Called on
   * the victim's thread. NULL: nothing to merge. */
  void (*merge)(adapt__seq_ctx *c, adapt__seq_work *v, adapt__seq_work *t);
  /* Release what t holds without merging it (after a stop). NULL: nothing. */
  void (*discard)(adapt__seq_ctx *c, adapt__seq_work *t);
} adapt__seq_kernel;

struct adapt__seq_ctx {
  const adapt__seq_kernel *kernel;
  void *kctx; /* the algorithm's call context */
  adapt__seq_params p;
  /* Units >= limit need not be processed (n: none). Lowered by
   * adapt__seq_stop; read before each chunk. */
  alignas(64) atomic_size_t limit;
  atomic_int err;       /* first error reported by adapt__seq_stop, 0 */
  atomic_int cancelled; /* adapt_cancel from a kernel's callback */
};

/* Run kernel k (call context kctx, parameters p) over the whole sequence on
 * the calling thread and the idle workers: prepares *c and the master's
 * descriptor *w, whose acc starts as a copy of acc_init (acc_bytes <=
 * ADAPT_SEQ_ACC_BYTES; NULL: zeroed), then runs. After the call w->acc holds
 * the master's final state. Returns 0, the first error given to
 * adapt__seq_stop, or adapt_begin's error (then nothing was processed).
 * Schedulers: a kernel without merge and discard (a 1:1 map, or find_if,
 * whose result is the limit) in the no-window mode runs under the
 * scheduler of the call (params sched, else ADAPT_SCHED) through adapt_for,
 * its run() getting the master's w, which it must not write; chunks are cut
 * at the limit (early stop). Other kernels need the adaptive protocol
 * (ordered merges, windows): an explicit non-adaptive sched gives -ENOTSUP
 * before anything runs, and ADAPT_SCHED does not apply to them. */
int adapt__seq_run(adapt__seq_ctx *c, adapt__seq_work *w, const adapt__seq_kernel *k, void *kctx,
                   const adapt__seq_params *p, const void *acc_init, size_t acc_bytes);

/* A call over `count` elements, one unit each: adapt__seq_params_resolve
 * for the public function fn (footprint: the bytes one element touches),
 * the calibrated grain remembered under key, then, when count > 0,
 * adapt__seq_run of kernel k with call context kctx. *acc (acc_bytes <=
 * ADAPT_SEQ_ACC_BYTES; NULL with 0: zeroed) is the master's initial state
 * and, after a run, its final one. Returns as those two. */
int adapt__seq_run_elems(const char *fn, const adapt__seq_kernel *k, void *kctx, size_t count,
                         size_t footprint, void (*key)(void), void *acc, size_t acc_bytes,
                         const adapt_attr *attr);

/* Resizes the heap array *buf of *cap elements of `size` bytes to `cap`
 * elements (realloc: the elements kept stay). 0, or -ENOMEM (cap * size
 * overflows, or no memory: *buf and *cap unchanged). */
int adapt__seq_realloc(char **buf, size_t *cap_now, size_t cap, size_t size);

/* From a kernel, any worker: units >= at need not be processed any more;
 * err != 0 records an error (the first one wins). Thread-safe. */
void adapt__seq_stop(adapt__seq_ctx *c, size_t at, int err);

/* Current limit (relaxed: a hint, see adapt__seq_stop). */
static inline size_t adapt__seq_limit(const adapt__seq_ctx *c) {
  /* relaxed: a stale value only delays the stop by one chunk; results that
   * depend on it travel through the runtime's reductions. */
  return atomic_load_explicit(&c->limit, memory_order_relaxed);
}

#endif /* ALGORITHMS_SEQ_ENGINE_H */
