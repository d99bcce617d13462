/* Loop frames (OpenCilk thesis, ch. 3): a loop's remaining iterations
 * [start, end) sit in a frame whose deque entry thieves split on the fly.
 *
 * Protocol (thesis Fig. 3-2, strip-mined by the grain G). start is written
 * only by the owner, end only by thieves holding the owner's deque lock.
 *   owner next:  s = start; start = s + G (seq_cst); if s + G > end (seq_cst
 *                load) { lock own deque; e = end; if s >= e { unlock; done }
 *                start = e; run [s, e) after unlock } else run [s, s + G)
 *   thief split (deque lock held, head committed by the THE protocol):
 *                s = start; e = end; if s >= e: drop the exhausted entry;
 *                m = s + max(G, (e - s) / 2) if e - s > G, else s (take all);
 *                end = m (seq_cst); if start > m (seq_cst load) { end = e;
 *                fail } else take [m, e), and drop the entry if start == m.
 * The seq_cst store-then-load on each side is a Dekker pair: either the
 * thief sees the owner's claim and backs off, or the owner sees the new end
 * and re-reads it under the lock. The last, partial chunk runs in the loop,
 * like every other chunk (no serial remainder after the sync). */
#ifndef LIBADAPT_SRC_LOOPFRAME_H
#define LIBADAPT_SRC_LOOPFRAME_H

#include <stdatomic.h>
#include <stddef.h>
#include "config.h"
#include "deque.h"

typedef struct adapt__loopframe {
  /* --- Owner writes (speculative claims), thieves read --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_size_t start;
  /* --- Thieves write under the owner's deque lock, the owner reads --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_size_t end;
  /* --- Read-only after set-up --- */
  _Alignas(ADAPT_CACHE_LINE) size_t grain;
  adapt__deque *dq; /* the owner's deque: its lock guards end */
} adapt__loopframe;

/* Owner: set up f over [lo, hi) with grain g on deque dq. */
void adapt__lf_init(adapt__loopframe *f, size_t lo, size_t hi, size_t g, adapt__deque *dq);
/* Owner: claim the next chunk into [*b, *e); 0 when the frame is empty. */
int adapt__lf_next(adapt__loopframe *f, size_t *b, size_t *e);
/* Thief, holding f->dq's lock: take the upper part of what is left into
 * [*lo, *hi). Returns ADAPT__SPLIT_KEEP (piece taken, frame still has
 * iterations), ADAPT__SPLIT_LAST (piece taken, frame now empty),
 * ADAPT__SPLIT_DROP (frame already empty, no piece) or ADAPT__SPLIT_FAIL
 * (lost the race with the owner's claim, nothing changed). */
int adapt__lf_split(adapt__loopframe *f, size_t *lo, size_t *hi);

#endif /* LIBADAPT_SRC_LOOPFRAME_H */
