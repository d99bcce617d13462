/* Idle protocol: sleeping workers, and their wake-up by whoever publishes
 * work (a frame, a deque entry).
 *
 * A worker that found no work for spin_us sleeps on the futex word `epoch`.
 * Lost wake-ups are excluded by a Dekker pair of seq_cst operations:
 *   sleeper: e = epoch; sleepers += 1; if (no worker has_work) futex_wait(epoch, e)
 *   waker:   has_work = d (publish) or tail += 1 (spawn);
 *            if (sleepers > 0) { epoch += 1; futex_wake }
 * In the single total order of seq_cst operations either the sleeper's
 * has_work loads see the publication (it does not sleep) or the waker's load
 * of sleepers sees the sleeper (it bumps epoch, so the futex_wait returns at
 * once or is woken). */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "idle.h"

#include "debug.h"
#include "frame.h"
#include "worker.h"

static void futex_wait(atomic_uint *addr, unsigned expected) {
  syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr) {
  syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

int adapt__any_work(void) {
  for (int i = 0; i < adapt__rt.nworkers; i++)
    /* seq_cst: pairs with the seq_cst store in adapt__publish (see above). */
    if (atomic_load_explicit(&adapt__rt.workers[i]->has_work, memory_order_seq_cst) > 0 ||
        /* seq_cst: pairs with the seq_cst store of tail in adapt__deque_push. */
        adapt__deque_nonempty(&adapt__rt.workers[i]->dq, memory_order_seq_cst))
      return 1;
  return 0;
}

void adapt__wake_all(void) {
  /* release: pairs with the sleeper's acquire load of epoch; the futex
   * value check makes a wait that started before this increment return. */
  atomic_fetch_add_explicit(&adapt__rt.epoch, 1, memory_order_release);
  futex_wake(&adapt__rt.epoch);
}

void adapt__idle_sleep(adapt__worker *w) {
  /* acquire: pairs with the release increment in adapt__wake_all. */
  unsigned e = atomic_load_explicit(&adapt__rt.epoch, memory_order_acquire);
  /* seq_cst: the sleeper half of the Dekker pair with adapt__publish. */
  atomic_fetch_add_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
  if (!adapt__any_work() && !atomic_load_explicit(&w->nreq, memory_order_relaxed) &&
      /* acquire: pairs with the release store of shutdown in adapt_finalize. */
      !atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    uint64_t t0 = adapt__now_ns();
    ADAPT_STAT_INC(w, sleeps);
    futex_wait(&adapt__rt.epoch, e);
    uint64_t t1 = adapt__now_ns();
    ADAPT_STAT_ADD(w, idle_ns, t1 - t0);
    if (adapt__trace_mask & ADAPT__TRACE_SLEEP) adapt__trace(w, ADAPT__TRACE_SLEEP, t0, t1, 0, 0);
  }
  atomic_fetch_sub_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
}

void adapt__publish(adapt__worker *w, adapt__frame *f) {
  if (w->depth >= ADAPT_MAX_DEPTH) return; /* too deep: runs unpublished */
  f->level = w->depth;
  w->frames[w->depth++] = f;
  f->flags |= ADAPT__FRAME_PUBLISHED;
  /* seq_cst: this store and the load of sleepers below pair with a sleeper's
   * seq_cst increment of sleepers and its loads of has_work (Dekker): either
   * it sees our frame or we see it asleep and wake it. */
  atomic_store_explicit(&w->has_work, (int)w->depth, memory_order_seq_cst);
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0 && !w->solo)
    adapt__wake_all(); /* (nobody can take a solo worker's frames) */
}

int adapt__push_entry(adapt__worker *w, const adapt__spawned *e) {
  int rc = adapt__deque_push(&w->dq, e);
  if (rc == 0) adapt__wake_after_push(w->solo);
  return rc;
}

void adapt__unpublish(adapt__worker *w, adapt__frame *f) {
  if (!(f->flags & ADAPT__FRAME_PUBLISHED)) return;
  ADAPT_ASSERT_EQ(f->level + 1, w->depth);
  ADAPT_ASSERT_PTR_EQ(w->frames[f->level], f);
  w->frames[--w->depth] = NULL;
  f->flags &= ~ADAPT__FRAME_PUBLISHED;
  /* relaxed: a hint for victim selection; a stale nonzero only costs a
   * failed request. */
  atomic_store_explicit(&w->has_work, (int)w->depth, memory_order_relaxed);
}
