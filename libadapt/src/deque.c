/* THE-protocol deque of spawned tasks (see deque.h for the protocol). */
#include "deque.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "debug.h"
#include "idle.h"
#include "rt.h"
#include "scope.h"

/* Announced thieves (docs/design.md, "Spawned tasks"). The owner's pop
 * (adapt__deque_take, <adapt/tasks.h>) loads its deque's thieves' word (on
 * the head's cache line), stores tail, loads head and loads the word
 * again, with no fence; it keeps that result only if the word showed no
 * announced thief and did not change, else it takes the THE protocol's
 * seq_cst pair. A thief announces itself (a seq_cst add of
 * ADAPT__THIEVES_ENTER: the count and the number of announcements) and
 * calls membarrier(2) before it touches the head, and withdraws (a release
 * subtract of 1) after its last access to the deque. For a pop that kept
 * its result, either
 *  - the announcement came after the second load of the word: each CPU
 *    running the owner passed a full barrier after that load (membarrier's
 *    guarantee) and before the thief's increment of head, so the thief's
 *    load of tail sees the pop and the pop's load of head came first: the
 *    thief backs off from slot t;
 *  - or every announcement had been withdrawn by the first load (count 0,
 *    word unchanged): that acquire load reads the withdrawal, so the
 *    load of head sees every increment and restore those thieves made.
 * model/announce.pml checks it with a store buffer. Where membarrier is
 * not used (adapt__rt.membarrier 0) the word keeps a permanent count of 1
 * and every pop fences. One membarrier per steal attempt on a deque that
 * looked non-empty: a theft of a spawned task is rare beside its owner's
 * pops (fib(30) on 2 workers: about 8 thefts against 1.3 million pops). */

/* 1 once the calling thief may touch heads; 0 if the membarrier failed
 * (the thief then takes nothing). */
static int thieves_enter(adapt__deque *d) {
  if (!adapt__rt.membarrier) return 1;
  /* seq_cst: the increment is visible before the membarrier below starts,
   * so every owner load of the word after the barrier it causes sees it. */
  atomic_fetch_add_explicit(&d->thieves, ADAPT__THIEVES_ENTER, memory_order_seq_cst);
  if (adapt__membarrier() == 0) return 1;
  /* release: as in thieves_leave (nothing touched). */
  atomic_fetch_sub_explicit(&d->thieves, 1, memory_order_release);
  return 0;
}

static void thieves_leave(adapt__deque *d) {
  if (!adapt__rt.membarrier) return;
  /* release: pairs with the acquire first load of the word in
   * adapt__deque_take (this thief's stores of head are visible after it). */
  atomic_fetch_sub_explicit(&d->thieves, 1, memory_order_release);
}

int adapt__deque_init(adapt__deque *d) {
  atomic_init(&d->head, 0);
  atomic_init(&d->tail, 0);
  atomic_init(&d->lock, 0);
  d->limit = adapt__deque_limit(0);
  d->sleepers = &adapt__rt.sleepers;
  /* Without membarrier, a permanent count of one: every pop fences. */
  atomic_init(&d->thieves, adapt__rt.membarrier ? 0u : 1u);
  d->slots = malloc(sizeof(adapt__spawned) * ADAPT_DEQUE_CAP);
  return d->slots ? 0 : -ENOMEM;
}

void adapt__deque_fini(adapt__deque *d) {
  free(d->slots);
  d->slots = NULL;
}

void adapt__deque_lock(adapt__deque *d) {
  for (;;) {
    /* acquire: pairs with the release store in unlock (the previous holder's
     * updates of head/tail and of scope split counts are visible). */
    if (!atomic_exchange_explicit(&d->lock, 1, memory_order_acquire)) return;
    /* A bounded spin, then yield: the holder may be preempted (more
     * workers than cores). */
    unsigned spins = 0;
    while (atomic_load_explicit(&d->lock, memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      if (++spins >= ADAPT_LOCK_SPINS) {
        spins = 0;
        sched_yield();
      }
    }
  }
}

void adapt__deque_unlock(adapt__deque *d) {
  /* release: pairs with the acquire exchange in lock. */
  atomic_store_explicit(&d->lock, 0, memory_order_release);
}

int adapt__deque_push(adapt__deque *d, const adapt__spawned *t) {
  adapt__spawned *slot = adapt__deque_next_slot(d);
  if (!slot) return -ENOSPC;
  *slot = *t;
  adapt__deque_publish(d);
  return 0;
}

int adapt__deque_pop_conflict(adapt__deque *d, size_t t) {
  /* A thief may be taking the same task: decide under the lock. The
   * restores of tail are release stores: a thief's acquire (seq_cst) load
   * that reads a restored value then synchronises with it, and slot t,
   * written before the push's store, is visible (under the C11 release-
   * sequence rules of C17/C23 a plain store does not continue the push's
   * release sequence). */
  atomic_store_explicit(&d->tail, t + 1, memory_order_release);
  adapt__deque_lock(d);
  /* seq_cst store then seq_cst load: the owner half of the THE Dekker pair,
   * as in adapt__deque_pop_slot (pairs with the thief's). */
  atomic_store_explicit(&d->tail, t, memory_order_seq_cst);
  if (atomic_load_explicit(&d->head, memory_order_seq_cst) > t) {
    /* release: as above. */
    atomic_store_explicit(&d->tail, t + 1, memory_order_release);
    adapt__deque_unlock(d);
    return 0;
  }
  adapt__deque_unlock(d);
  return 1;
}

int adapt__deque_pop(adapt__deque *d, size_t floor, adapt__spawned *out) {
  const adapt__spawned *slot = adapt__deque_pop_slot(d, floor);
  if (!slot) return 0;
  *out = *slot;
  return 1;
}

int adapt__deque_pop_locked(adapt__deque *d, size_t floor, adapt__spawned *out) {
  adapt__deque_lock(d);
  int got = adapt__deque_pop(d, floor, out);
  adapt__deque_unlock(d);
  return got;
}

static int steal_locked(adapt__deque *d, int thief, adapt__spawned *out, int *restored,
                        size_t *refused);

int adapt__deque_steal(adapt__deque *d, int thief, adapt__spawned *out, int *restored,
                       size_t *refused) {
  *restored = 0;
  *refused = 0;
  /* relaxed pre-check without the lock (hint). */
  if (!adapt__deque_nonempty(d, memory_order_relaxed) || !thieves_enter(d)) return 0;
  int got = steal_locked(d, thief, out, restored, refused);
  thieves_leave(d);
  return got;
}

/* adapt__deque_steal's THE steps, announced. */
static int steal_locked(adapt__deque *d, int thief, adapt__spawned *out, int *restored,
                        size_t *refused) {
  adapt__deque_lock(d);
  size_t h = atomic_load_explicit(&d->head, memory_order_relaxed);
  /* seq_cst store then seq_cst load: the thief half of the THE Dekker pair
   * (pairs with the owner's seq_cst store of tail and load of head). */
  atomic_store_explicit(&d->head, h + 1, memory_order_seq_cst);
  if (h + 1 > atomic_load_explicit(&d->tail, memory_order_seq_cst)) {
    /* release: pairs with the owner's acquire load of head in push (a
     * restored head is read there as any other store of head). */
    atomic_store_explicit(&d->head, h, memory_order_release);
    adapt__deque_unlock(d);
    return 0;
  }
  const adapt__spawned *e = &d->slots[h % ADAPT_DEQUE_CAP];
  /* A child frame's entry is a tagged pointer to the frame (scope.h): its
   * team, function and argument are read from the frame, here under the
   * lock (its join rewrites them only after taking the lock, when it
   * finds the task gone: adapt_join). The frame's team is at the scope's
   * offset. */
  adapt__child *c = adapt__entry_child(e);
  adapt__scope *es = c ? (adapt__scope *)(void *)c : e->scope;
  /* Worker limit: an entry of a call whose team does not admit the thief
   * stays in place (head restored as on a failed split, without waking
   * sleepers: its owner runs it, and waking workers that may not take it
   * would only make them spin). */
  if (es && es->team && !adapt__team_join(es->team, thief)) {
    /* seq_cst: as the restores below. */
    atomic_store_explicit(&d->head, h, memory_order_seq_cst);
    *refused = h + 1;
    adapt__deque_unlock(d);
    return 0;
  }
  int got = 1;
  if (c) {
    /* Run as a task of the frame's scope of one (remote counts it). The
     * fork left the scope's w, remote and splits to us: written before
     * the unlock below, whose release pairs with the acquire of the lock
     * by the frame's join (adapt_join takes it to find the task gone)
     * before it reads them. */
    c->w = d->owner;
    atomic_store_explicit(&c->remote, 0, memory_order_relaxed);
    atomic_store_explicit(&c->splits, 0, memory_order_relaxed);
    *out = (adapt__spawned){.scope = es, .fn = c->fn, .arg = c->arg};
  } else if (e->split) {
    /* Splittable entry: the owner cannot pop it while we hold head past it
     * (its pop sees head > tail and waits for the lock). */
    /* Restores of head: seq_cst, at least release (as above); seq_cst
     * also makes the restore the waker half of a Dekker pair with a
     * sleeper that saw the deque empty meanwhile (*restored: the caller
     * then loads sleepers, seq_cst, as after a push). */
    switch (e->split(e, thief, out)) {
    case ADAPT__SPLIT_KEEP:
      atomic_store_explicit(&d->head, h, memory_order_seq_cst);
      *restored = 1;
      break;
    case ADAPT__SPLIT_LAST: break;
    case ADAPT__SPLIT_DROP: got = 0; break;
    default: /* ADAPT__SPLIT_FAIL */
      atomic_store_explicit(&d->head, h, memory_order_seq_cst);
      *restored = 1;
      got = 0;
      break;
    }
    /* relaxed: read by the scope's wait after the owner's
     * adapt__deque_pop_locked (its lock acquire pairs with our unlock) or
     * after the completion of the entry split here (see scope.h). */
    if (got && out->scope) atomic_fetch_add_explicit(&out->scope->splits, 1, memory_order_relaxed);
  } else {
    *out = *e;
  }
  adapt__deque_unlock(d);
  return got;
}
