/* Regions (region.h): entering and leaving one, and the solo workers of
 * regions started while the pool is busy. */
#include "region.h"

#include <errno.h>

#include "error.h"
#include "runtime.h"
#include "worker.h"

/* The calling thread's solo worker (adapt__region_enter), created at its
 * first use and freed when the thread exits. */
static _Thread_local adapt__worker *tls_solo;
static pthread_key_t solo_key;
static pthread_once_t solo_once = PTHREAD_ONCE_INIT;
static int solo_key_ok;

static void solo_free(void *w) { adapt__worker_free(w); }
static void solo_key_init(void) { solo_key_ok = pthread_key_create(&solo_key, solo_free) == 0; }

static adapt__worker *solo_worker(void) {
  if (tls_solo) return tls_solo;
  pthread_once(&solo_once, solo_key_init);
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

/* The slow path of adapt__region_enter: a top-level region. One
 * compare-and-swap on adapt__rt.regions counts it and, if worker 0's place
 * is free, takes it (a pool region); otherwise the region runs solo on the
 * thread's own worker. While the runtime is not open (not started, being
 * started or torn down), adapt__ensure_wait waits for the init or finalize
 * under way and starts the runtime if it is down. */
static int region_start(adapt__worker **wp, int *region) {
  /* acquire: pairs with the release store of OPEN in adapt_init (the
   * configuration and the workers) and with the release subtraction of the
   * previous region's leave (its writes to worker 0). */
  unsigned s = atomic_load_explicit(&adapt__rt.regions, memory_order_acquire);
  adapt__worker *w, *solo = NULL;
  int kind;
  for (;;) {
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
  *wp = w;
  *region = kind;
  return 0;
}

int adapt__region_enter(adapt__worker **wp, int *region) {
  if (adapt__tls_frames == 0 && !adapt__tls_pool_thread) return region_start(wp, region);
  adapt__tls_frames++;
  *wp = adapt__tls_worker;
  *region = ADAPT__REGION_NESTED;
  return 0;
}

void adapt__region_leave(int region) {
  adapt__tls_frames--;
  if (region == ADAPT__REGION_NESTED) return;
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
