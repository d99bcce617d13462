/* Per-worker deque of spawned tasks, synchronised with the THE protocol
 * (Cilk-5: M. Frigo, C. E. Leiserson and K. H. Randall, "The
 * Implementation of the Cilk-5 Multithreaded Language", PLDI 1998; T. B.
 * Schardl, "The Cilk Runtime System", MIT 6.172 lecture 13; L. Govedič,
 * "Improving the Performance of Parallel Loops in OpenCilk", MIT M.Eng.
 * thesis, 2023, §3.2): the owner pushes and pops at the tail T without a
 * lock in the common case; thieves take from the head H under the deque's
 * lock; owner and thief resolve a race on the last task through the lock.
 *
 *   owner pop:  T = T-1 (seq_cst); if H > T (seq_cst load) { T = T+1;
 *               lock; T = T-1; if H > T { T = T+1; unlock; fail } unlock }
 *   thief:      lock; H = H+1 (seq_cst); if H > T (seq_cst load) { H = H-1;
 *               unlock; fail }; take slot H-1; unlock
 * The seq_cst store-then-load on each side is the Dekker pair: the owner
 * and a thief cannot both take the last task. The owner's half pays no
 * fence while no thief is announced (deque.c, "Announced thieves"). Slots
 * are written by the owner before its release store of T (push) and read
 * by a thief after its load of T, or by the owner itself (a child frame's
 * entry: the slot and the frame it points to, which the thief reads under
 * the lock, scope.h). Indices only grow (slot = index mod capacity); push
 * fails when the deque is full and the task then runs at once. */
#ifndef LIBADAPT_SRC_DEQUE_H
#define LIBADAPT_SRC_DEQUE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <adapt/tasks.h>
#include "config.h"
#include "rt.h"

struct adapt__scope;
struct adapt__worker;

/* What a thief's split callback did with the entry at the head (it runs
 * with the deque lock held and the head already committed past the entry).
 * Splittable entries are runtime entries: loop frames, hybrid and static
 * loops; they stay in place while they have work to hand out. */
enum {
  ADAPT__SPLIT_FAIL = 0, /* nothing taken, entry stays (head restored) */
  ADAPT__SPLIT_KEEP,     /* *piece filled, entry stays (head restored) */
  ADAPT__SPLIT_LAST,     /* *piece filled, entry removed (head stays past it) */
  ADAPT__SPLIT_DROP      /* nothing taken, entry removed (it has no more work) */
};

/* A deque entry (adapt__spawned, <adapt/tasks.h>: the inline adapt_spawn
 * writes user tasks, run NULL): a spawned user task, a piece of a loop, or
 * a splittable loop entry. 64 bytes, copied by value. A child frame's
 * entry is its scope field alone (the frame's address | ADAPT__ENTRY_CHILD:
 * adapt__entry_child, scope.h); readers check it first. */
_Static_assert(sizeof(adapt__spawned) == 64, "a deque entry is 64 bytes");
_Static_assert(ADAPT_DEQUE_CAP == ADAPT__DEQUE_CAP,
               "ADAPT_DEQUE_CAP must be <adapt/tasks.h>'s ADAPT__DEQUE_CAP (the inline spawn)");

typedef struct adapt__deque {
  /* --- Thieves: head and the lock (owner takes it only on a conflict) --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_size_t head;
  /* The thieves' word (<adapt/tasks.h>, ADAPT__THIEVES_*): the thieves
   * announced to the owner's unfenced pops, and the announcements so far
   * (deque.c, "Announced thieves"). Written by thieves only: a seq_cst add
   * before their membarrier, a release subtract after their steal; read by
   * the owner's pop, acquire before its store of tail, relaxed after its
   * load of head. */
  atomic_size_t thieves;
  atomic_int lock;
  /* tail is ADAPT__DEQUE_HEAD_GAP (64) bytes after head, where the inline
   * pops of <adapt/tasks.h> read head and the thieves' word (a cache line
   * of 64 bytes or less keeps them apart; a larger ADAPT_CACHE_LINE puts
   * them on one). */
  char gap_[ADAPT__DEQUE_HEAD_GAP - 2 * sizeof(atomic_size_t) - sizeof(atomic_int)];
  /* --- Owner: tail (read by thieves), then owner-only fields; from tail
   * on, the layout of adapt__deque_end (<adapt/tasks.h>) --- */
  atomic_size_t tail;
  adapt__spawned *slots; /* ADAPT_DEQUE_CAP entries */
  /* Pushes of indices below it are safe without reading head: a value of
   * head read (acquire) + ADAPT_DEQUE_CAP - 1 (see adapt__deque_next_slot;
   * head only grows, but for a failing thief's one-step excursion). */
  size_t limit;
  atomic_int *sleepers;        /* &adapt__rt.sleepers */
  struct adapt__worker *owner; /* the worker holding it (adapt__worker_new) */
  /* The lazy spawns' threshold (adapt__spawn_keep; written by
   * adapt__worker_new before the worker's thread starts, or by a solo
   * worker's own thread): a spawn or fork runs its task at once while
   * tail - head >= keep (0: always, on a worker no thief can reach;
   * SIZE_MAX: never, ADAPT_SPAWN_KEEP=0). Owner only. */
  size_t keep;
} adapt__deque;

#define ADAPT__DEQUE_SAME(f, g)                                                                    \
  _Static_assert(offsetof(adapt__deque, f) - offsetof(adapt__deque, tail) ==                       \
                     offsetof(adapt__deque_end, g),                                                \
                 "adapt__deque_end." #g " (tasks.h) is not adapt__deque's")
ADAPT__DEQUE_SAME(tail, tail);
ADAPT__DEQUE_SAME(slots, slots);
ADAPT__DEQUE_SAME(limit, limit);
ADAPT__DEQUE_SAME(sleepers, sleepers);
ADAPT__DEQUE_SAME(owner, owner);
ADAPT__DEQUE_SAME(keep, keep);
#undef ADAPT__DEQUE_SAME
_Static_assert(offsetof(adapt__deque, tail) - offsetof(adapt__deque, head) == ADAPT__DEQUE_HEAD_GAP,
               "head is not ADAPT__DEQUE_HEAD_GAP (tasks.h) bytes before tail");
_Static_assert(offsetof(adapt__deque, tail) - offsetof(adapt__deque, thieves) ==
                   ADAPT__DEQUE_THIEVES_GAP,
               "the thieves' word is not ADAPT__DEQUE_THIEVES_GAP (tasks.h) bytes before tail");

/* The owner's end of d, as the inline adapt_spawn/adapt_sync see it. */
static inline adapt__deque_end *adapt__deque_end_of(adapt__deque *d) {
  return (adapt__deque_end *)(void *)&d->tail;
}

int adapt__deque_init(adapt__deque *d);
void adapt__deque_fini(adapt__deque *d);
/* Owner: push; 0, or -ENOSPC when full. */
int adapt__deque_push(adapt__deque *d, const adapt__spawned *t);
/* Owner: pop the newest task into *out if the tail is above `floor`; 1 on
 * success, 0 if there is none above floor (or a thief took the last one). */
int adapt__deque_pop(adapt__deque *d, size_t floor, adapt__spawned *out);

/* The inline halves of push and pop (adapt_spawn and adapt_sync use them
 * directly: no copy of the entry, no call on the common path). */

/* The bound of the inline pushes (adapt_spawn, adapt_fork: tail < limit)
 * for a deque whose head is h: h + ADAPT_DEQUE_CAP - 1 (one slot kept
 * free), or 0 when pushes must fence (adapt__rt.membarrier 0): every push
 * then goes through the library's, whose store of tail is seq_cst. */
static inline size_t adapt__deque_limit(size_t h) {
  return adapt__rt.membarrier ? h + ADAPT_DEQUE_CAP - 1 : 0;
}

/* Owner: does d already hold its keep entries for thieves (a lazy spawn
 * or fork then runs its task at once; adapt__spawn_at_once, <adapt/tasks.h>)? */
static inline int adapt__deque_at_once(adapt__deque *d) {
  /* relaxed: only the owner writes tail. */
  return adapt__spawn_at_once(adapt__deque_end_of(d),
                              atomic_load_explicit(&d->tail, memory_order_relaxed));
}

/* Owner: the slot the next push fills, or NULL when the deque is full.
 * Fill it, then adapt__deque_publish. */
static inline adapt__spawned *adapt__deque_next_slot(adapt__deque *d) {
  size_t tl = atomic_load_explicit(&d->tail, memory_order_relaxed);
  /* acquire: pairs with the seq_cst store of head by the thief that made
   * room; that thief took the lock after the previous one released it, so
   * every copy of a slot we may now reuse happened before. One slot is kept
   * free: a thief that has advanced head to h+1 may still be copying slot h
   * (under the lock, so head stays at most h+1 meanwhile), and index h + CAP
   * would be that same slot. */
  size_t h = atomic_load_explicit(&d->head, memory_order_acquire);
  /* A failing thief may hold head one past tail for a moment: empty. */
  if (tl > h && tl - h >= ADAPT_DEQUE_CAP - 1) return NULL;
  /* The same bound for the inline adapt_spawn (tl < limit: room). */
  d->limit = adapt__deque_limit(h);
  adapt__spawned *e = &d->slots[tl % ADAPT_DEQUE_CAP];
  if (!e) __builtin_unreachable(); /* an element of an array: NULL means full */
  return e;
}

/* Owner: make the slot filled after adapt__deque_next_slot visible. */
static inline void adapt__deque_publish(adapt__deque *d) {
  size_t tl = atomic_load_explicit(&d->tail, memory_order_relaxed);
  if (adapt__rt.membarrier) {
    /* release: pairs with the thief's seq_cst load of tail, which then
     * sees the slot. */
    atomic_store_explicit(&d->tail, tl + 1, memory_order_release);
    /* A compiler barrier before the caller's load of sleepers
     * (adapt__wake_after_push): the pusher half of the idle protocol's
     * asymmetric Dekker pair (idle.c), as in adapt__push_end. */
    atomic_signal_fence(memory_order_seq_cst);
  } else {
    /* seq_cst (at least release): as above, and the pusher half of the
     * idle protocol's seq_cst Dekker pair with the sleeper's increment of
     * sleepers and loads of tail (idle.c), with the seq_cst load of
     * sleepers in adapt__wake_after_push. */
    atomic_store_explicit(&d->tail, tl + 1, memory_order_seq_cst);
  }
}

/* Owner: the conflict half of a pop (out of line): the owner has stored
 * tail t and seen head above it; decide under the lock. 1: slot t is the
 * owner's; 0: a thief took it (tail restored to t + 1). */
int adapt__deque_pop_conflict(adapt__deque *d, size_t t);

/* Owner: pop the newest task if the tail is above `floor`: its slot, valid
 * until the owner's next push (read what you need before running it), or
 * NULL if there is none above floor (or a thief took the last one). */
static inline adapt__spawned *adapt__deque_pop_slot(adapt__deque *d, size_t floor) {
  size_t tl = atomic_load_explicit(&d->tail, memory_order_relaxed);
  /* relaxed pre-check: nothing of ours above floor, or visibly empty. */
  if (tl <= floor || tl <= atomic_load_explicit(&d->head, memory_order_relaxed)) return NULL;
  size_t t = tl - 1;
  /* The owner half of the THE Dekker pair, unfenced while no thief is
   * announced (adapt__deque_take, <adapt/tasks.h>; deque.c). */
  if (!adapt__deque_take(adapt__deque_end_of(d), t) && !adapt__deque_pop_conflict(d, t))
    return NULL;
  return &d->slots[t % ADAPT_DEQUE_CAP];
}
/* Owner: adapt__deque_pop_slot for a pop that expects an entry (adapt_sync
 * right after its spawn): no relaxed pre-check of the head, so an empty
 * deque (the entry was stolen) goes through adapt__deque_pop_conflict's
 * lock. The same THE steps otherwise. */
static inline adapt__spawned *adapt__deque_pop_slot_hot(adapt__deque *d, size_t floor) {
  size_t tl = atomic_load_explicit(&d->tail, memory_order_relaxed);
  if (tl <= floor) return NULL;
  size_t t = tl - 1;
  /* As in adapt__deque_pop_slot. */
  if (!adapt__deque_take(adapt__deque_end_of(d), t) && !adapt__deque_pop_conflict(d, t))
    return NULL;
  adapt__spawned *e = &d->slots[t % ADAPT_DEQUE_CAP];
  if (!e) __builtin_unreachable(); /* an element of an array */
  return e;
}
/* Owner: the same, always under the lock: afterwards every split of the
 * entry by a thief happened before (a splittable entry's owner calls it
 * before waiting for the pieces). */
int adapt__deque_pop_locked(adapt__deque *d, size_t floor, adapt__spawned *out);
/* Thief (worker id `thief`): take the oldest task, or a piece of it if it
 * is splittable; 1 with *out to run, 0 if nothing was taken. *restored: 1
 * if a splittable entry stayed in place (its work may have looked gone to a
 * sleeper while head was past it: the caller wakes sleepers). *refused:
 * head + 1 if the oldest entry's team (worker limit) refused the thief,
 * else 0. */
int adapt__deque_steal(adapt__deque *d, int thief, adapt__spawned *out, int *restored,
                       size_t *refused);
/* Owner: entries in the deque (owner's view; thieves may have taken some). */
static inline size_t adapt__deque_size(adapt__deque *d) {
  size_t t = atomic_load_explicit(&d->tail, memory_order_relaxed);
  size_t h = atomic_load_explicit(&d->head, memory_order_relaxed);
  return t > h ? t - h : 0;
}
/* The deque's lock (thieves; the owner on a conflict; loop frames). */
void adapt__deque_lock(adapt__deque *d);
void adapt__deque_unlock(adapt__deque *d);
/* Anyone: does the deque look non-empty (hint)? */
static inline int adapt__deque_nonempty(adapt__deque *d, memory_order mo) {
  return atomic_load_explicit(&d->tail, mo) > atomic_load_explicit(&d->head, mo);
}
/* Owner: is the oldest entry one a thief takes whole (a child frame's
 * tagged pointer, whose split field is not written, or split NULL: a
 * spawned task)? A hint: head is read relaxed (a thief may be taking that
 * entry, or have taken it: its slot still holds it until a push wraps
 * around). */
static inline int adapt__deque_head_whole(adapt__deque *d) {
  size_t t = atomic_load_explicit(&d->tail, memory_order_relaxed);
  size_t h = atomic_load_explicit(&d->head, memory_order_relaxed);
  if (t <= h) return 0;
  const adapt__spawned *e = &d->slots[h % ADAPT_DEQUE_CAP];
  return ((uintptr_t)(void *)e->scope & ADAPT__ENTRY_CHILD) || e->split == NULL;
}
/* Owner: current tail (the scope's floor at its start). */
static inline size_t adapt__deque_tail(adapt__deque *d) {
  return atomic_load_explicit(&d->tail, memory_order_relaxed);
}

#endif /* LIBADAPT_SRC_DEQUE_H */
