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
 * once or is woken).
 *
 * A push to a deque (adapt_spawn, adapt_fork: one per task, the hot path)
 * pays no fence for its half: its store of tail is a release store and its
 * load of sleepers a relaxed one, kept in program order by a compiler
 * barrier only. The sleeper pays for both (an asymmetric Dekker pair):
 *   sleeper: sleepers += 1; sleeping = 1; membarrier(PRIVATE_EXPEDITED);
 *            check the deques; sleep
 *   pusher:  tail = t + 1 (release); compiler barrier; if (sleepers > 0) wake
 * membarrier(2) returns once every running thread of the process has passed
 * a full barrier: a pusher whose load of sleepers preceded that point had
 * its store of tail visible before it, so the sleeper's check sees the
 * entry; one whose load followed it sees the sleeper. A sleeper that finds
 * no region running skips the membarrier (sleep_fence). Each membarrier
 * interrupts every core running a thread of the process: with more than
 * ADAPT_MEMBARRIER_MAX_WORKERS workers, or without membarrier (a kernel
 * before 4.14, a seccomp filter), adapt__rt.membarrier is 0, the deques'
 * limit 0 sends every push through the library's (adapt__deque_publish),
 * whose store of tail is seq_cst, and the pair is the seq_cst one above.
 * Should a registered membarrier fail, that sleep is timed
 * (ADAPT_SLEEP_UNFENCED_US). Frames keep the seq_cst pair above: a
 * publication is rare next to a push.
 *
 * Worker limit (adapt_attr.max_workers): a frame or deque entry of a call
 * whose team is full is no work for a worker outside the team, which would
 * otherwise find has_work, ask, be refused and ask again for as long as the
 * call runs. The victim says so in its answer (adapt__req.refused: its
 * has_work value when every published frame refused the thief), and a
 * thief refused by a deque entry notes the head index; the thief keeps
 * these per victim for its idle round. The sleeper's check skips a victim
 * whose has_work (or deque head) is still the one that refused it: a new
 * publication changes has_work's generation, a theft the head. The waker
 * of work with a team (a full one may admit only its members) wakes only
 * if a sleeper may join it:
 *   sleeper: sleepers += 1; sleeping = 1; check has_work, head, tail
 *   waker:   has_work = d or tail += 1; if (sleepers > 0 and some worker j
 *            with sleeping[j] is a member or fits) { epoch += 1; futex_wake }
 * all seq_cst: either the sleeper sees the publication, or the waker sees
 * its flag. Work that refused a sleeper and never changes is run by its
 * owner (every owner runs its own frames and entries to the end), so a
 * refusal misread (a deque emptied and refilled to the same head) costs
 * parallelism until the next wake-up, never progress.
 *
 * Refusals "nothing to split" (thief.c) are noted the same way, but a
 * splitter may change its mind with no new publication (its answer depends
 * on user state or time): a sleeper whose check skipped such a refusal
 * sleeps with a timeout (recheck_ns), then asks those victims again. */
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "idle.h"

#include "debug.h"
#include "frame.h"
#include "scope.h"
#include "worker.h"

static void futex_wait(atomic_uint *addr, unsigned expected) {
  syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* As futex_wait, returning after `ns` at the latest. */
static void futex_wait_ns(atomic_uint *addr, unsigned expected, uint64_t ns) {
  struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
  syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
}

static void futex_wake(atomic_uint *addr) {
  syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* 1 if some worker has published frames or deque entries that did not
 * refuse w in its current idle round (seq_cst loads). Else *soft is 1 if
 * some worker's frames are skipped for refusing w "nothing to split". */
static int any_work_for(const adapt__worker *w, int *soft) {
  *soft = 0;
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    adapt__worker *v = adapt__rt.workers[i];
    /* seq_cst: pairs with the seq_cst stores in adapt__publish and
     * adapt__regrown (see above). */
    int hw = atomic_load_explicit(&v->has_work, memory_order_seq_cst);
    if (ADAPT__HW_DEPTH(hw) > 0) {
      if (!adapt__refused_hw(w, i, hw)) return 1;
      *soft |= w->refused[i].hw_soft;
    }
    /* seq_cst: pairs with the seq_cst store of tail in adapt__deque_publish
     * and the thieves' seq_cst stores of head. */
    size_t t = atomic_load_explicit(&v->dq.tail, memory_order_seq_cst);
    size_t h = atomic_load_explicit(&v->dq.head, memory_order_seq_cst);
    if (t > h && !adapt__refused_head(w, i, h)) return 1;
  }
  return 0;
}

void adapt__wake_for(const adapt__team *t) {
  if (t) {
    int n = adapt__rt.nworkers, j = 0;
    for (; j < n; j++)
      /* seq_cst: the waker half of the Dekker pair with the sleeper's
       * seq_cst store of sleeping before its check (see above); a stale 1
       * only wakes in vain. */
      if (atomic_load_explicit(&adapt__rt.workers[j]->sleeping, memory_order_seq_cst) &&
          (adapt__team_member(t, j) || adapt__team_room(t, j, 0)))
        break;
    if (j == n) return; /* every sleeper is outside the team, which is full */
  }
  adapt__wake_all();
}

void adapt__wake_all(void) {
  /* release: pairs with the sleeper's acquire load of epoch; the futex
   * value check makes a wait that started before this increment return. */
  atomic_fetch_add_explicit(&adapt__rt.epoch, 1, memory_order_release);
  futex_wake(&adapt__rt.epoch);
}

/* The timed sleep's bound after w->rechecks timed-out ones, ns:
 * ADAPT_BACKOFF_MAX_US doubling up to ADAPT_REFUSED_RECHECK_MAX_US. */
static uint64_t recheck_ns(const adapt__worker *w) {
  uint64_t us = ADAPT_REFUSED_RECHECK_MAX_US;
  if (w->rechecks < 32u && ((uint64_t)ADAPT_BACKOFF_MAX_US << w->rechecks) < us)
    us = (uint64_t)ADAPT_BACKOFF_MAX_US << w->rechecks;
  return us * 1000u;
}

static long sys_membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0u, 0); }

int adapt__idle_setup(void) {
  long cmds = sys_membarrier(MEMBARRIER_CMD_QUERY);
  return cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
         sys_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

int adapt__membarrier(void) { return sys_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED); }

/* The sleeper's barrier of the asymmetric Dekker pair with the pushes
 * (above), after its stores of sleepers and sleeping: 1 if no push can
 * miss the sleeper (pushes fence, no region runs, or every running thread
 * of the process passed a full barrier), 0 if the membarrier call failed
 * (the caller's sleep is then timed). */
static int sleep_fence(void) {
  /* Pushes that fence: the seq_cst pair suffices. */
  if (!adapt__rt.membarrier) return 1;
  /* seq_cst read-modify-write (adding 0), after the increment of sleepers:
   * its release half pairs with the acquire compare-and-swap that counts
   * the next region (adapt__region_start), which reads this write or a
   * later one of its release sequence (every write of regions while the
   * runtime runs is a read-modify-write). A push runs inside a counted
   * region: with none counted here, every push to come happens after the
   * increment of sleepers and its load of sleepers sees this sleeper. This
   * spares the membarrier's IPIs to a thread between two regions each
   * time a worker sleeps. */
  if (atomic_fetch_add_explicit(&adapt__rt.regions, 0u, memory_order_seq_cst) < ADAPT__REGIONS_ONE)
    return 1;
  return adapt__membarrier() == 0;
}

int adapt__idle_sleep(adapt__worker *w) {
  int slept = 0, soft;
  /* acquire: pairs with the release increment in adapt__wake_all. */
  unsigned e = atomic_load_explicit(&adapt__rt.epoch, memory_order_acquire);
  /* seq_cst: the sleeper half of the Dekker pair with adapt__publish. */
  atomic_fetch_add_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
  /* seq_cst: the sleeper half of the Dekker pair with adapt__wake_for. */
  atomic_store_explicit(&w->sleeping, 1, memory_order_seq_cst);
  /* The sleeper half of the asymmetric pair with the pushes' release store
   * of tail and relaxed load of sleepers (adapt__push_end,
   * adapt__deque_publish): after it, the checks below
   * see every entry pushed by a thread that did not see the sleeper. */
  int fenced = sleep_fence();
  if (!any_work_for(w, &soft) && !atomic_load_explicit(&w->nreq, memory_order_relaxed) &&
      /* acquire: pairs with the release store of shutdown in adapt_finalize. */
      !atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    slept = 1;
    uint64_t t0 = adapt__now_ns();
    ADAPT_STAT_INC(w, sleeps);
    if (!soft && fenced) {
      futex_wait(&adapt__rt.epoch, e);
    } else {
      uint64_t ns = soft ? recheck_ns(w) : UINT64_MAX;
      /* no barrier: a push may have missed this sleeper; look again soon */
      if (!fenced && ns > (uint64_t)ADAPT_SLEEP_UNFENCED_US * 1000u)
        ns = (uint64_t)ADAPT_SLEEP_UNFENCED_US * 1000u;
      futex_wait_ns(&adapt__rt.epoch, e, ns);
      /* relaxed: only whether a wake-up came matters; a wake-up missed
       * here costs one more request. */
      if (soft && atomic_load_explicit(&adapt__rt.epoch, memory_order_relaxed) == e) {
        slept = 2; /* timed out: ask the refusing victims again */
        if (w->rechecks < 32u) w->rechecks++;
      }
    }
    uint64_t t1 = adapt__now_ns();
    ADAPT_STAT_ADD(w, idle_ns, t1 - t0);
    if (adapt__trace_mask & ADAPT__TRACE_SLEEP) adapt__trace(w, ADAPT__TRACE_SLEEP, t0, t1, 0, 0);
  }
  /* relaxed: read as a hint by wakers (a late 0 wakes in vain). */
  atomic_store_explicit(&w->sleeping, 0, memory_order_relaxed);
  atomic_fetch_sub_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
  return slept;
}

void adapt__idle_recheck(adapt__worker *w) {
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    adapt__refusal *r = &w->refused[i];
    /* the answer count stays: one more refusal of that value counts again */
    if (r->hw_soft && r->hw_round == w->round) {
      r->hw_round = 0;
      r->recheck = 1;
    }
  }
}

void adapt__idle_nap(adapt__worker *w, uint64_t ns) {
  /* acquire: pairs with the release increment in adapt__wake_all. */
  unsigned e = atomic_load_explicit(&adapt__rt.epoch, memory_order_acquire);
  /* seq_cst: counted as a sleeper, so that a publication wakes the nap
   * early (the timeout bounds it anyway: no Dekker check is needed). */
  atomic_fetch_add_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
  if (!atomic_load_explicit(&w->nreq, memory_order_relaxed) &&
      /* acquire: pairs with the release store of shutdown in adapt_finalize. */
      !atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    ADAPT_STAT_INC(w, sleeps); /* a nap is a sleep too (adapt_worker_stats) */
    futex_wait_ns(&adapt__rt.epoch, e, ns);
  }
  atomic_fetch_sub_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
}

void adapt__join_nap(adapt__worker *w, unsigned fails, int (*done)(void *), void *arg) {
  if (fails <= ADAPT_BACKOFF_FAILS) return;
  unsigned k = fails - ADAPT_BACKOFF_FAILS - 1u;
  uint64_t us = ADAPT_BACKOFF_MAX_US;
  if (k < 32u && ((uint64_t)ADAPT_BACKOFF_MIN_US << k) < us)
    us = (uint64_t)ADAPT_BACKOFF_MIN_US << k;
  /* acquire: pairs with the release increment in adapt__wake_all. */
  unsigned e = atomic_load_explicit(&adapt__rt.epoch, memory_order_acquire);
  /* seq_cst: counted as a sleeper, so that a publication wakes the nap
   * early, as adapt__idle_nap. */
  atomic_fetch_add_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
  /* seq_cst store, then a seq_cst fence before done's loads: the sleeper
   * half of the Dekker pair with adapt__join_wake's fence and load of
   * joining. Either done sees the completion, or the completer sees
   * joining and increments epoch, which ends the futex wait below (its
   * value e was read before). */
  atomic_store_explicit(&w->joining, 1, memory_order_seq_cst);
  atomic_thread_fence(memory_order_seq_cst);
  if (!done(arg) && !atomic_load_explicit(&w->nreq, memory_order_relaxed) &&
      /* acquire: pairs with the release store of shutdown in adapt_finalize. */
      !atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    ADAPT_STAT_INC(w, sleeps); /* a nap is a sleep too (adapt_worker_stats) */
    futex_wait_ns(&adapt__rt.epoch, e, us * 1000u);
  }
  /* relaxed: a stale 1 read by a completer only wakes in vain. */
  atomic_store_explicit(&w->joining, 0, memory_order_relaxed);
  atomic_fetch_sub_explicit(&adapt__rt.sleepers, 1, memory_order_seq_cst);
}

void adapt__join_wake(adapt__worker *owner) {
  /* seq_cst fence then seq_cst load: the waker half of the Dekker pair
   * with adapt__join_nap's store of joining and fence (the completion,
   * a release increment, is ordered before this load). */
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&owner->joining, memory_order_seq_cst)) adapt__wake_all();
}

void adapt__regrown(adapt__worker *w) {
  if (!w->refused_out) return; /* nobody was told "nothing to split" */
  w->refused_out = 0;
  w->pubgen++;
  /* seq_cst: as in adapt__publish, the waker half of the Dekker pair with a
   * sleeper's increment of sleepers and its loads of has_work: either it
   * sees the new generation (its refusal is stale) or we see it asleep. */
  atomic_store_explicit(&w->has_work, adapt__hw_value(w), memory_order_seq_cst);
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0 && !w->solo)
    adapt__wake_all();
}

void adapt__publish(adapt__worker *w, adapt__frame *f) {
  if (w->depth >= ADAPT_MAX_DEPTH) return; /* too deep: runs unpublished */
  f->level = w->depth;
  w->frames[w->depth++] = f;
  f->flags |= ADAPT__FRAME_PUBLISHED;
  w->pubgen++;
  /* seq_cst: this store and the load of sleepers below pair with a sleeper's
   * seq_cst increment of sleepers and its loads of has_work (Dekker): either
   * it sees our frame or we see it asleep and wake it. */
  atomic_store_explicit(&w->has_work, adapt__hw_value(w), memory_order_seq_cst);
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0 && !w->solo)
    adapt__wake_for(f->team); /* (nobody can take a solo worker's frames) */
}

int adapt__push_entry(adapt__worker *w, const adapt__spawned *e) {
  int rc = adapt__deque_push(&w->dq, e);
  if (rc == 0) adapt__wake_after_push(w->solo, e->scope ? e->scope->team : NULL);
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
  atomic_store_explicit(&w->has_work, adapt__hw_value(w), memory_order_relaxed);
}
