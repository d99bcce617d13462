/* Workers: thread-local identity, the idle loop of workers 1..n-1, frame
 * publication, wait-loop pauses and time. */
#include "worker.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "debug.h"

adapt__runtime adapt__rt = {
    .init_lock = PTHREAD_MUTEX_INITIALIZER,
    .region_lock = PTHREAD_MUTEX_INITIALIZER,
};

static _Thread_local adapt__worker *tls_worker;
static _Thread_local unsigned tls_generation;
static _Thread_local int tls_frames; /* frames begun by this thread and not ended */

int adapt__in_region(void) { return tls_frames > 0; }

adapt__worker *adapt__self(void) {
  adapt__worker *w = tls_worker;
  if (w && tls_generation == adapt__rt.generation &&
      atomic_load_explicit(&adapt__rt.up, memory_order_relaxed))
    return w;
  return NULL;
}

void adapt__set_self(adapt__worker *w) {
  tls_worker = w;
  tls_generation = adapt__rt.generation;
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

int adapt__region_enter(adapt__worker **wp) {
  adapt__worker *w = adapt__self();
  int region = 0;
  if (!(w && w->has_thread) && tls_frames == 0) {
    /* Serialised with the regions of other threads. A thread that is not a
     * worker takes worker 0's place while its region runs. */
    pthread_mutex_lock(&adapt__rt.region_lock);
    w = adapt__rt.workers[0];
    adapt__set_self(w);
    region = 1;
  }
  tls_frames++;
  *wp = w;
  return region;
}

void adapt__region_leave(int region) {
  tls_frames--;
  if (!region) return;
  /* A foreign thread gives worker 0's place back; the thread that
   * initialised the runtime stays worker 0. */
  if (!pthread_equal(pthread_self(), adapt__rt.init_thread)) adapt__set_self(NULL);
  pthread_mutex_unlock(&adapt__rt.region_lock);
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
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0) adapt__wake_all();
}

int adapt__push_entry(adapt__worker *w, const adapt__spawned *e) {
  int rc = adapt__deque_push(&w->dq, e);
  /* seq_cst: with the seq_cst store of tail in push, the waker half of the
   * Dekker pair of the idle protocol (idle.c). */
  if (rc == 0 && atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0)
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
