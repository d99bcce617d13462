/* Workers: thread-local identity, the idle loop of workers 1..n-1, frame
 * publication, wait-loop pauses and time. */
#include "worker.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "debug.h"
#include "error.h"

adapt__runtime adapt__rt = {
    .init_lock = PTHREAD_MUTEX_INITIALIZER,
    .region_lock = PTHREAD_MUTEX_INITIALIZER,
    .regions_done = PTHREAD_COND_INITIALIZER,
};

static _Thread_local adapt__worker *tls_worker;
static _Thread_local unsigned tls_generation;
static _Thread_local int tls_id = -1;     /* adapt_worker_id of tls_worker */
static _Thread_local int tls_pool_thread; /* 1 on the threads of workers 1..n-1 */
_Thread_local unsigned adapt__tls_frames ADAPT__TLS_FAST;

int adapt__self_id(void) {
  /* relaxed: a thread-local left by an earlier runtime is recognised by its
   * generation (the current one's was set by this thread). No dereference:
   * worker 0 may be freed by a finalize on another thread meanwhile. */
  if (tls_worker &&
      tls_generation == atomic_load_explicit(&adapt__rt.generation, memory_order_relaxed) &&
      atomic_load_explicit(&adapt__rt.up, memory_order_relaxed))
    return tls_id;
  return -1;
}

int adapt__pool_thread(void) { return tls_pool_thread; }

void adapt__set_self(adapt__worker *w) {
  tls_worker = w;
  tls_id = w && !w->solo ? w->id : -1;
  /* relaxed: read by this thread only, against the same counter. */
  tls_generation = atomic_load_explicit(&adapt__rt.generation, memory_order_relaxed);
}

uint64_t adapt__now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

void adapt__pause(unsigned *spins) {
  cpu_relax();
  if (++*spins >= adapt__rt.yield_spins) {
    *spins = 0;
    sched_yield();
  }
}

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
  if (adapt__tls_frames == 0 && !tls_pool_thread) return region_start(wp, region);
  adapt__tls_frames++;
  *wp = tls_worker;
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

int adapt__pin(int start) {
  pthread_mutex_lock(&adapt__rt.region_lock);
  /* acquire: pairs with the release store of up in adapt_init. Under
   * region_lock, up == 1 means that no finalize has begun its teardown (it
   * holds the lock from before it stops the workers to after it clears up). */
  while (!atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) {
    pthread_mutex_unlock(&adapt__rt.region_lock);
    if (!start) return -ESRCH;
    int rc = adapt__ensure();
    if (rc) return rc;
    pthread_mutex_lock(&adapt__rt.region_lock);
  }
  return 0;
}

void adapt__unpin(void) { pthread_mutex_unlock(&adapt__rt.region_lock); }

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
  /* seq_cst: with the seq_cst store of tail in push, the waker half of the
   * Dekker pair of the idle protocol (idle.c). */
  if (rc == 0 && atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0 && !w->solo)
    adapt__wake_all();
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

/* Idle loop of workers 1..n-1: answer requests (fail them: no frames), steal,
 * spin for spin_us, then sleep until work is published. */
static void *worker_main(void *arg) {
  adapt__worker *w = arg;
  adapt__set_self(w);
  tls_pool_thread = 1;
  if (adapt__rt.bind) adapt__topology_bind(w->id);
  unsigned spins = 0;
  w->idle_since = adapt__now_ns();
  uint64_t spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
  /* acquire: pairs with the release store of shutdown in adapt_finalize. */
  while (!atomic_load_explicit(&adapt__rt.shutdown, memory_order_acquire)) {
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (adapt__steal_and_run(w, -1)) { /* it closes the idle period before running */
      w->idle_since = adapt__now_ns();
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
      continue;
    }
    uint64_t now = adapt__now_ns();
    if (now >= spin_until) {
      ADAPT_STAT_ADD(w, idle_ns, now - w->idle_since);
      adapt__idle_sleep(w);
      w->idle_since = adapt__now_ns();
      spin_until = w->idle_since + (uint64_t)adapt__rt.spin_us * 1000u;
    } else {
      adapt__pause(&spins);
    }
  }
  w->idle_since = 0;
  return NULL;
}

adapt__worker *adapt__worker_new(int id, int n) {
  adapt__worker *w = aligned_alloc(ADAPT_CACHE_LINE, sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->id = id;
  w->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1) ^ adapt__now_ns();
  size_t bytes = sizeof(adapt__req) * (size_t)n;
  w->req = aligned_alloc(ADAPT_CACHE_LINE,
                         (bytes + ADAPT_CACHE_LINE - 1) / ADAPT_CACHE_LINE * ADAPT_CACHE_LINE);
  if (!w->req) {
    free(w);
    return NULL;
  }
  memset(w->req, 0, bytes);
  if (adapt__deque_init(&w->dq) != 0) {
    free(w->req);
    free(w);
    return NULL;
  }
  for (int i = 0; i < n; i++) atomic_init(&w->req[i].state, ADAPT__REQ_IDLE);
  atomic_init(&w->nreq, 0);
  atomic_init(&w->has_work, 0);
  adapt__stats_clear(&w->stats);
  return w;
}

void adapt__worker_free(adapt__worker *w) {
  if (!w) return;
  adapt__trace_free(w);
  adapt__deque_fini(&w->dq);
  free(w->near);
  free(w->req);
  free(w);
}

int adapt__worker_start(adapt__worker *w) {
  int rc = pthread_create(&w->thread, NULL, worker_main, w);
  if (rc != 0) return -rc;
  pthread_setname_np(w->thread, "adapt-worker"); /* visible to ps, gdb, tests */
  w->has_thread = 1;
  return 0;
}
