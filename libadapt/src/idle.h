/* Idle protocol: workers that found no work sleep on a futex; publishing a
 * frame or pushing a deque entry wakes them (the Dekker pair is described
 * in idle.c). */
#ifndef LIBADAPT_SRC_IDLE_H
#define LIBADAPT_SRC_IDLE_H

#include <stdint.h>
#include "deque.h"
#include "rt.h"

struct adapt__frame;
struct adapt__team;
struct adapt__worker;

/* Register the process for membarrier(2)'s private expedited command (the
 * sleeper's barrier of the idle protocol, idle.c): 1 if it is usable, 0
 * if not (pushes then fence: adapt__rt.membarrier). Called by adapt_init;
 * registering again is harmless. */
int adapt__idle_setup(void);
/* membarrier(2)'s private expedited command: every running thread of the
 * process passes a full barrier before it returns. 0, or -1 (errno set)
 * when it fails (the process is not registered: adapt__idle_setup). */
int adapt__membarrier(void);
/* Sleeper side: sleep until work may have been published (or shutdown),
 * unless some worker has published work that did not refuse w in its
 * current idle round (w->refused). If frames that refused w "nothing to
 * split" are in sight, the sleep is timed (ADAPT_BACKOFF_MAX_US doubling
 * with w->rechecks up to ADAPT_REFUSED_RECHECK_MAX_US). Returns 0 if it
 * did not sleep, 1 if it slept and was woken (or the wait was cut short),
 * 2 if the timed sleep timed out with no wake-up (w->rechecks + 1: the
 * caller asks the refusing victims again, adapt__idle_recheck). */
int adapt__idle_sleep(struct adapt__worker *w);
/* Owner of w, after a timed sleep that timed out: the "nothing to split"
 * refusals noted in w->refused expire (the victims are asked again, once:
 * their answer counts stay, so one more such answer with the same has_work
 * value refuses w again, and so does a request that times out, thief.c).
 * Worker limits stay noted. */
void adapt__idle_recheck(struct adapt__worker *w);
/* Sleeper side: a nap of at most ns nanoseconds (a thief backing off
 * after failed requests, pool.c), ended early by any wake-up; none if w
 * has requests to answer or the runtime shuts down. Owner of w. */
void adapt__idle_nap(struct adapt__worker *w, uint64_t ns);
/* Sleeper side, owner of w waiting at a spawn join whose stolen entries
 * run elsewhere (adapt__scope_wait) after `fails` failed steals in a row:
 * none for the first ADAPT_BACKOFF_FAILS, then a nap as the idle loop's
 * back-off (ADAPT_BACKOFF_MIN_US doubling up to ADAPT_BACKOFF_MAX_US),
 * ended early by any wake-up and by adapt__join_wake; none if done(arg)
 * (checked after w is marked joining), w has requests to answer or the
 * runtime shuts down. */
void adapt__join_nap(struct adapt__worker *w, unsigned fails, int (*done)(void *), void *arg);
/* Waker side, after a release increment that may complete a join of
 * owner (a stolen entry of its scope ran): wake it if it naps at a join. */
void adapt__join_wake(struct adapt__worker *owner);
/* Waker side, owner of w: w's frames may give work they answered "nothing
 * to split" before, with no new publication (a reduction gave a range
 * back, a frame is split again, a splitter's window moved). If w refused
 * such a request since its last call, bump has_work's generation (the
 * refusals noted by thieves expire) and wake the sleepers; else nothing
 * (one load and a branch). */
void adapt__regrown(struct adapt__worker *w);
/* Wake every sleeper. */
void adapt__wake_all(void);
/* Waker side, after publishing work of team t (NULL: no limit) and seeing
 * sleepers: wake them all, unless t is full and no sleeper is a member. */
void adapt__wake_for(const struct adapt__team *t);

/* Waker side. Push e on w's deque (owner) and wake sleepers if there are
 * any: 0, or -ENOSPC when the deque is full (nothing pushed). */
int adapt__push_entry(struct adapt__worker *w, const adapt__spawned *e);
/* Waker side after a push published by the caller (adapt__deque_publish)
 * on a worker whose `solo` is solo, of an entry of team t (NULL: no
 * limit): wake sleepers if there are any that may take it. */
static inline void adapt__wake_after_push(int solo, const struct adapt__team *t) {
  /* seq_cst: after adapt__deque_publish's store of tail, the pusher half
   * of the idle protocol's Dekker pair: seq_cst with pushes that fence, or
   * asymmetric with the sleeper's membarrier (idle.c; there relaxed would
   * do, and a seq_cst load costs no fence on x86). */
  if (ADAPT__UNLIKELY(atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0) && !solo)
    adapt__wake_for(t);
}
/* Publishing a frame on w's frame stack / unpublishing it: wakes sleepers
 * when needed. */
void adapt__publish(struct adapt__worker *w, struct adapt__frame *f);
void adapt__unpublish(struct adapt__worker *w, struct adapt__frame *f);

#endif /* LIBADAPT_SRC_IDLE_H */
