/* The ground floor (rt.h): the runtime's global state, the calling thread's
 * identity, time, wait-loop pauses and pinning. Calls nothing above it. */
#include "rt.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

adapt__runtime adapt__rt = {
    .init_lock = PTHREAD_MUTEX_INITIALIZER,
    .region_lock = PTHREAD_MUTEX_INITIALIZER,
    .regions_done = PTHREAD_COND_INITIALIZER,
    .admitted = PTHREAD_COND_INITIALIZER,
};

_Thread_local struct adapt__worker *adapt__tls_worker ADAPT__TLS_FAST;
_Thread_local int adapt__tls_pool_thread ADAPT__TLS_FAST;
/* adapt__tls_frames, adapt__tls_dq, adapt__team_cur, adapt__cancel_top,
 * adapt__tls_tasks (<adapt/tasks.h>). */
__thread adapt__tls_block adapt__tls ADAPT__TLS_PUBLIC;
static _Thread_local unsigned tls_generation;
static _Thread_local int tls_id = -1; /* adapt_worker_id of adapt__tls_worker */

int adapt__self_id(void) {
  /* relaxed: a thread-local left by an earlier runtime is recognised by its
   * generation (the current one's was set by this thread). No dereference:
   * worker 0 may be freed by a finalize on another thread meanwhile. */
  if (adapt__tls_worker &&
      tls_generation == atomic_load_explicit(&adapt__rt.generation, memory_order_relaxed) &&
      atomic_load_explicit(&adapt__rt.up, memory_order_relaxed))
    return tls_id;
  return -1;
}

void adapt__set_identity(struct adapt__worker *w, int id) {
  adapt__tls_worker = w;
  tls_id = id;
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

int adapt__pin(void) {
  pthread_mutex_lock(&adapt__rt.region_lock);
  /* acquire: pairs with the release store of up in adapt_init. Under
   * region_lock, up == 1 means that no finalize has begun its teardown (it
   * holds the lock from before it stops the workers to after it clears up). */
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) return 0;
  pthread_mutex_unlock(&adapt__rt.region_lock);
  return -ESRCH;
}

void adapt__unpin(void) { pthread_mutex_unlock(&adapt__rt.region_lock); }
