/* Regions (region.h): entering and leaving one, and the solo workers of
 * regions started while the pool is busy. */
#include "region.h"

#include <errno.h>
#include <stdio.h>

#include "error.h"
#include "frame.h"
#include "idle.h"
#include "lazy.h"
#include "runtime.h"
#include "scope.h"
#include "worker.h"

/* The calling thread's solo worker (adapt__region_enter), created at its
 * first use and freed when the thread exits. */
static _Thread_local adapt__worker *tls_solo;
static pthread_key_t solo_key;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;
static int solo_key_ok;

/* The calling thread's top-level region: the public call that opened it
 * and its kind (ADAPT__REGION_POOL or _SOLO), for the check at thread
 * exit; exit_key's value is non-NULL once the thread has started a region,
 * so that its destructor runs when the thread exits. */
static _Thread_local const char *tls_region_fn;
static _Thread_local int tls_region_kind;
static _Thread_local int tls_exit_armed;
static pthread_key_t exit_key;
static int exit_key_ok;

static void solo_free(void *w) { adapt__worker_free(w); }
static void thread_exit_check(void *unused);
static void keys_init(void) {
  solo_key_ok = pthread_key_create(&solo_key, solo_free) == 0;
  exit_key_ok = pthread_key_create(&exit_key, thread_exit_check) == 0;
}

static adapt__worker *solo_worker(void) {
  if (tls_solo) {
    /* Kept across runtimes: the current one's lazy spawns (its thread
     * alone touches it between regions). */
    tls_solo->dq.keep = adapt__spawn_keep(1);
    return tls_solo;
  }
  pthread_once(&keys_once, keys_init);
  /* id 0 for the schedulers' partitions; one request slot, never posted. */
  adapt__worker *w = solo_key_ok ? adapt__worker_new(0, 1) : NULL;
  if (!w) return NULL;
  if (pthread_setspecific(solo_key, w) != 0) {
    adapt__worker_free(w);
    return NULL;
  }
  w->solo = 1;
  tls_solo = w;
  return w;
}

/* A region that found a finalize closing the runtime: wait until the
 * finalize tears it down (0), lets the waiting regions in (1), or refuses
 * them (-ESHUTDOWN: its timeouts after its one admission, wait_regions in
 * runtime.c). */
static int wait_closing(const char *fn) {
  int in = 0;
  pthread_mutex_lock(&adapt__rt.region_lock);
  unsigned gen = adapt__rt.admit_gen, refuse = adapt__rt.refuse_gen;
  adapt__rt.closing_waiters++;
  /* relaxed: CLOSING is cleared (finalize's compare-and-swap) before the
   * broadcast of admitted under region_lock, which this wait sees. */
  while (atomic_load_explicit(&adapt__rt.regions, memory_order_relaxed) & ADAPT__REGIONS_CLOSING) {
    if (adapt__rt.admit_gen != gen) {
      in = 1;
      break;
    }
    if (adapt__rt.refuse_gen != refuse) {
      in = -ESHUTDOWN;
      break;
    }
    pthread_cond_wait(&adapt__rt.admitted, &adapt__rt.region_lock);
  }
  adapt__rt.closing_waiters--;
  pthread_mutex_unlock(&adapt__rt.region_lock);
  if (in < 0)
    return adapt__fail(in,
                       "%s: adapt_finalize is under way and its running regions did not end "
                       "(start the region again once it has returned)",
                       fn);
  return in;
}

/* The slow path of adapt__region_enter: a top-level region. One compare-and-swap on adapt__rt.regions counts it and, if worker 0's place
 * is free, takes it (a pool region); otherwise the region runs solo on the
 * thread's own worker. While the runtime is not open (not started, being
 * started or torn down), adapt__ensure_wait waits for the init or finalize
 * under way and starts the runtime if it is down. */
int adapt__region_start(adapt__worker **wp, int *region, const char *fn) {
  /* acquire: pairs with the release store of OPEN in adapt_init (the
   * configuration and the workers) and with the release subtraction of the
   * previous region's leave (its writes to worker 0). */
  unsigned s = atomic_load_explicit(&adapt__rt.regions, memory_order_acquire);
  adapt__worker *w, *solo = NULL;
  int kind, admitted = 0;
  for (;;) {
    if ((s & ADAPT__REGIONS_CLOSING) && !admitted) {
      admitted = wait_closing(fn);
      if (admitted < 0) return admitted;
      /* acquire: as above. */
      s = atomic_load_explicit(&adapt__rt.regions, memory_order_acquire);
      continue;
    }
    if (!(s & ADAPT__REGIONS_OPEN)) {
      int rc = adapt__ensure_wait();
      if (rc) return rc;
      /* acquire: as above. */
      s = atomic_load_explicit(&adapt__rt.regions, memory_order_acquire);
      continue;
    }
    if (!(s & ADAPT__REGIONS_POOL)) {
      /* acquire: as the load above (on failure s is reloaded the same way). */
      if (atomic_compare_exchange_weak_explicit(&adapt__rt.regions, &s,
                                                s + ADAPT__REGIONS_ONE + ADAPT__REGIONS_POOL,
                                                memory_order_acquire, memory_order_acquire)) {
        w = adapt__rt.workers[0];
        kind = ADAPT__REGION_POOL;
        break;
      }
      continue;
    }
    if (!solo && !(solo = solo_worker()))
      return adapt__fail(-ENOMEM, "libadapt: out of memory for the worker of a region run on "
                                  "its own thread (the workers were busy)");
    /* acquire: as above. */
    if (atomic_compare_exchange_weak_explicit(&adapt__rt.regions, &s, s + ADAPT__REGIONS_ONE,
                                              memory_order_acquire, memory_order_acquire)) {
      w = solo;
      kind = ADAPT__REGION_SOLO;
      break;
    }
  }
  adapt__set_self(w);
  adapt__tls_frames = 1;
  /* adapt_for's inline nested path (<adapt/loop.h>). Both stay until the
   * region ends. */
  adapt__tls_loop = adapt__loop_bits(w);
  adapt__tls_loop_grain = adapt__rt.seq.grain;
  tls_region_fn = fn;
  tls_region_kind = kind;
  if (!tls_exit_armed) {
    pthread_once(&keys_once, keys_init);
    /* Without the key (pthread_key_create failed), a thread that exits
     * inside its region is not detected. */
    tls_exit_armed = exit_key_ok && pthread_setspecific(exit_key, &tls_exit_armed) == 0;
  }
  *wp = w;
  *region = kind;
  return 0;
}

void adapt__region_end(int region) {
  adapt__tls_frames--;
  adapt__tls_loop = 0;
  /* The thread that initialised the runtime is worker 0 again between
   * regions; any other thread is no worker. Read while the region still
   * counts in regions: the runtime is not finalized meanwhile. */
  adapt__set_self(pthread_equal(pthread_self(), adapt__rt.init_thread) ? adapt__rt.workers[0]
                                                                       : NULL);
  const unsigned dec =
      ADAPT__REGIONS_ONE + (region == ADAPT__REGION_POOL ? ADAPT__REGIONS_POOL : 0);
  /* seq_cst: releases this region's writes to the next region start's
   * acquire and to finalize's compare-and-swap; and with the seq_cst load
   * of finalize_waiting below, one half of a Dekker pair with finalize's
   * seq_cst increment of finalize_waiting and load of regions (wait_regions
   * in runtime.c): either this thread sees the finalize waiting and wakes
   * it, or the finalize sees this region gone. */
  const unsigned s = atomic_fetch_sub_explicit(&adapt__rt.regions, dec, memory_order_seq_cst) - dec;
  if (s < ADAPT__REGIONS_ONE &&
      atomic_load_explicit(&adapt__rt.finalize_waiting, memory_order_seq_cst) > 0) {
    pthread_mutex_lock(&adapt__rt.region_lock);
    pthread_cond_broadcast(&adapt__rt.regions_done);
    pthread_mutex_unlock(&adapt__rt.region_lock);
  }
}

/* Worker 0's state left by a region whose thread exited inside it: its
 * frames and scopes were on that thread's stack. Unpublish them, fail the
 * pending requests (depth 0: no splitter is called), drop the spawned
 * entries not yet stolen. On the exiting thread, worker 0's owner. */
static void reset_pool_worker(adapt__worker *w) {
  /* Other workers' work it was running: publish each stolen piece as final
   * (its owner reduces the descriptor as the thief left it, as after a
   * preemption; the piece's own thieves are dropped) and count each stolen
   * entry done in its scope, innermost first. */
  for (unsigned i = w->nest < ADAPT_MAX_NEST ? w->nest : ADAPT_MAX_NEST; i-- > 0;) {
    uintptr_t r = w->running[i];
    if (r & 1u) {
      adapt__scope *s = (adapt__scope *)(r - 1u);
      adapt__worker *owner = s->w; /* s may be gone once remote is counted */
      /* release: pairs with the acquire load of remote in adapt__scope_wait. */
      atomic_fetch_add_explicit(&s->remote, 1, memory_order_release);
      adapt__join_wake(owner); /* it may nap at the join (adapt__join_nap) */
    } else if (r) {
      adapt__theft *rec = (adapt__theft *)r;
      rec->handover = NULL;
      /* release: pairs with the owner's acquire load in adapt__wait_final. */
      atomic_store_explicit(&rec->state, ADAPT__THEFT_FINAL, memory_order_release);
    }
  }
  for (unsigned i = 0; i < w->depth; i++) w->frames[i] = NULL;
  w->depth = 0;
  w->floor = 0;
  w->nest = 0;
  w->serving = 0;
  w->postponed_oldest = NULL;
  w->postponed_newest = NULL;
  /* relaxed: a hint for victim selection, as in adapt__unpublish. */
  atomic_store_explicit(&w->has_work, 0, memory_order_relaxed);
  adapt__spawned t;
  while (adapt__deque_pop(&w->dq, 0, &t)) {}
  adapt__serve(w);
}

/* exit_key's destructor, on a thread that exits (pthread_exit, or a return
 * from its start routine) after starting a region: if the region is still
 * open, say so on stderr, naming the call that opened it, and give its
 * place back, so that later regions get the workers and adapt_finalize
 * does not wait for it forever. Work already stolen from it keeps running
 * on the workers and its results are lost. */
static void thread_exit_check(void *unused) {
  (void)unused;
  tls_exit_armed = 0; /* a region started by a later destructor re-arms */
  if (adapt__tls_frames == 0 || adapt__tls_pool_thread) return;
  fprintf(stderr,
          "libadapt: a thread exited inside %s (%u frame(s) or scope(s) never ended: "
          "adapt_end/adapt_sync missing, or pthread_exit in a body); its region is closed "
          "and its work lost\n",
          tls_region_fn ? tls_region_fn : "a parallel region", adapt__tls_frames);
  if (tls_region_kind == ADAPT__REGION_POOL) reset_pool_worker(adapt__tls_worker);
  adapt__tls_frames = 1;
  adapt__region_leave(tls_region_kind);
}
