/* Per-worker deque of spawned tasks, synchronised with the THE protocol
 * (Cilk-5; cilk-runtime-lecture.txt, thesis §3.2): the owner pushes and pops
 * at the tail T without a lock in the common case; thieves take from the
 * head H under the deque's lock; owner and thief resolve a race on the last
 * task through the lock.
 *
 *   owner pop:  T = T-1 (seq_cst); if H > T (seq_cst load) { T = T+1;
 *               lock; T = T-1; if H > T { T = T+1; unlock; fail } unlock }
 *   thief:      lock; H = H+1 (seq_cst); if H > T (seq_cst load) { H = H-1;
 *               unlock; fail }; take slot H-1; unlock
 * The seq_cst store-then-load on each side is the Dekker pair: the owner
 * and a thief cannot both take the last task. Slots are written by the owner
 * before its release store of T (push) and read by a thief after its load of
 * T, or by the owner itself. Indices only grow (slot = index mod capacity);
 * push fails when the deque is full and the task then runs at once. */
#ifndef LIBADAPT_SRC_DEQUE_H
#define LIBADAPT_SRC_DEQUE_H

#include <stdatomic.h>
#include <stddef.h>
#include "config.h"

struct adapt__scope;

typedef struct adapt__spawned {
  void (*fn)(void *);
  void *arg;
  struct adapt__scope *scope;
} adapt__spawned;

typedef struct adapt__deque {
  /* --- Thieves: head and the lock (owner takes it only on a conflict) --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_size_t head;
  atomic_int lock;
  /* --- Owner: tail --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_size_t tail;
  adapt__spawned *slots; /* ADAPT_DEQUE_CAP entries */
} adapt__deque;

int adapt__deque_init(adapt__deque *d);
void adapt__deque_fini(adapt__deque *d);
/* Owner: push; 0, or -ENOSPC when full. */
int adapt__deque_push(adapt__deque *d, const adapt__spawned *t);
/* Owner: pop the newest task into *out if the tail is above `floor`; 1 on
 * success, 0 if there is none above floor (or a thief took the last one). */
int adapt__deque_pop(adapt__deque *d, size_t floor, adapt__spawned *out);
/* Thief: take the oldest task; 1 on success. */
int adapt__deque_steal(adapt__deque *d, adapt__spawned *out);
/* Anyone: does the deque look non-empty (hint)? */
static inline int adapt__deque_nonempty(adapt__deque *d, memory_order mo) {
  return atomic_load_explicit(&d->tail, mo) > atomic_load_explicit(&d->head, mo);
}
/* Owner: current tail (the scope's floor at its start). */
static inline size_t adapt__deque_tail(adapt__deque *d) {
  return atomic_load_explicit(&d->tail, memory_order_relaxed);
}

#endif /* LIBADAPT_SRC_DEQUE_H */
