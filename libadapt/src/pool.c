/* The pool (pool.h): the threads of workers 1..n-1, each running the idle
 * loop of its worker. */
#include "pool.h"

#include "frame.h"
#include "idle.h"
#include "lazy.h"
#include "thief.h"
#include "topology.h"
#include "worker.h"

/* Back off after w->fails failed requests in a row, the last one refused:
 * nothing for the first ADAPT_BACKOFF_FAILS, then naps from
 * ADAPT_BACKOFF_MIN_US doubling up to ADAPT_BACKOFF_MAX_US, each ended
 * early by a wake-up (a publication, a range grown back, new work). After
 * a timeout the next request waits longer instead (thief.c). */
static void back_off(adapt__worker *w) {
  if (w->fails <= ADAPT_BACKOFF_FAILS) return;
  unsigned k = w->fails - ADAPT_BACKOFF_FAILS - 1u;
  uint64_t us = ADAPT_BACKOFF_MAX_US;
  if (k < 32u && ((uint64_t)ADAPT_BACKOFF_MIN_US << k) < us)
    us = (uint64_t)ADAPT_BACKOFF_MIN_US << k;
  adapt__idle_nap(w, us * 1000u);
}

/* Idle loop of workers 1..n-1: answer requests (fail them: no frames), steal
 * (backing off after failed requests), spin for spin_us, then sleep until
 * work is published or a refusing victim's range grows back, or, when a
 * victim's frames refused "nothing to split", until a timeout after which
 * it asks them again (and sleeps again at once, with no spin, if they
 * still refuse). */
static void *worker_main(void *arg) {
  adapt__worker *w = arg;
  adapt__set_self(w);
  adapt__tls_pool_thread = 1;
  /* adapt_for's inline nested path (<adapt/loop.h>): every call this
   * thread makes is nested. */
  adapt__tls_loop = adapt__loop_bits(w);
  adapt__tls_loop_grain = adapt__rt.seq.grain;
  if (adapt__rt.bind) adapt__topology_bind(w->id);
  unsigned spins = 0;
  w->fails = 0;
  w->idle_since = adapt__now_ns();
  uint64_t spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
  /* acquire: pairs with the release store of shutdown in adapt_finalize. */
  while (!atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    int got = adapt__steal_and_run(w, -1);
    if (got > 0) { /* it closes the idle period before running */
      w->round++;  /* a new idle round: the refusals noted so far expire */
      w->rechecks = 0;
      w->looking = 1; /* back in the idle loop (end_idle took it out) */
      /* relaxed: a hint (adapt_idle_workers). */
      atomic_fetch_add_explicit(&adapt__rt.idle, 1, memory_order_relaxed);
      w->idle_since = adapt__now_ns();
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
      continue;
    }
    if (got < 0) w->fails++;
    if (got == -1) back_off(w);
    uint64_t now = adapt__now_ns();
    if (now >= spin_until) {
      ADAPT_STAT_ADD(w, idle_ns, now - w->idle_since);
      int slept = adapt__idle_sleep(w);
      w->idle_since = adapt__now_ns();
      if (slept == 2) {         /* timed out: ask the refusing victims again, then */
        adapt__idle_recheck(w); /* sleep again at once if they refuse */
        continue;
      }
      if (slept) { /* woken: the refusals expire */
        w->round++;
        w->fails = 0;
      }
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
    } else {
      adapt__pause(&spins);
    }
  }
  w->idle_since = 0;
  if (w->looking) {
    w->looking = 0;
    /* relaxed: a hint (adapt_idle_workers). */
    atomic_fetch_sub_explicit(&adapt__rt.idle, 1, memory_order_relaxed);
  }
  return NULL;
}

int adapt__worker_start(adapt__worker *w) {
  /* Counted idle from here, so that a call made right after init sees its
   * workers idle (the thread inherits looking from pthread_create). */
  w->looking = 1;
  /* relaxed: a hint (adapt_idle_workers). */
  atomic_fetch_add_explicit(&adapt__rt.idle, 1, memory_order_relaxed);
  int rc = pthread_create(&w->thread, NULL, worker_main, w);
  if (rc != 0) {
    w->looking = 0;
    atomic_fetch_sub_explicit(&adapt__rt.idle, 1, memory_order_relaxed); /* relaxed: as above */
    return -rc;
  }
  pthread_setname_np(w->thread, "adapt-worker"); /* visible to ps, gdb, tests */
  w->has_thread = 1;
  return 0;
}
