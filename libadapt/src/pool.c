/* The pool (pool.h): the threads of workers 1..n-1, each running the idle
 * loop of its worker. */
#include "pool.h"

#include "frame.h"
#include "idle.h"
#include "thief.h"
#include "topology.h"
#include "worker.h"

/* Idle loop of workers 1..n-1: answer requests (fail them: no frames), steal,
 * spin for spin_us, then sleep until work is published. */
static void *worker_main(void *arg) {
  adapt__worker *w = arg;
  adapt__set_self(w);
  adapt__tls_pool_thread = 1;
  if (adapt__rt.bind) adapt__topology_bind(w->id);
  unsigned spins = 0;
  w->idle_since = adapt__now_ns();
  uint64_t spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
  /* acquire: pairs with the release store of shutdown in adapt_finalize. */
  while (!atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (adapt__steal_and_run(w, -1)) { /* it closes the idle period before running */
      w->round++;                      /* a new idle round: the refusals noted so far expire */
      w->idle_since = adapt__now_ns();
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
      continue;
    }
    uint64_t now = adapt__now_ns();
    if (now >= spin_until) {
      ADAPT_STAT_ADD(w, idle_ns, now - w->idle_since);
      if (adapt__idle_sleep(w)) w->round++; /* woken: the refusals expire */
      w->idle_since = adapt__now_ns();
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
    } else {
      adapt__pause(&spins);
    }
  }
  w->idle_since = 0;
  return NULL;
}

int adapt__worker_start(adapt__worker *w) {
  int rc = pthread_create(&w->thread, NULL, worker_main, w);
  if (rc != 0) return -rc;
  pthread_setname_np(w->thread, "adapt-worker"); /* visible to ps, gdb, tests */
  w->has_thread = 1;
  return 0;
}
