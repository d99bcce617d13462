/* Workers and the runtime's global state. */
#ifndef LIBADAPT_SRC_WORKER_H
#define LIBADAPT_SRC_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "../ext/adapt_ext.h"
#include "config.h"
#include "deque.h"
#include "frame.h"
#include "request.h"
#include "stats.h"
#include "trace.h"

typedef struct adapt__worker {
  /* --- Owner only: frame stack, pool, random state (hot, one thread) --- */
  _Alignas(ADAPT_CACHE_LINE) int id;
  unsigned depth;   /* published frames */
  unsigned serving; /* inside adapt__serve: no re-entry */
  unsigned floor;   /* frames[0 .. floor-1] are being reduced: not split */
  unsigned nest;    /* stolen or spawned work running on this stack */
  uint64_t rng;
  adapt__theft *pool; /* free theft records */
  int *near;          /* workers sharing this one's closest shared cache */
  int nnear;
  pthread_t thread;
  int has_thread;      /* 1 for workers 1..n-1 */
  int solo;            /* 1: a thread's own worker for regions started while the
                          pool is busy (never a victim, never a thief) */
  uint64_t idle_since; /* idle loop: start of the current idle period, 0 if none */
  struct adapt__lazy_td *postponed_oldest; /* lazy-bf: private deque of postponed */
  struct adapt__lazy_td *postponed_newest; /* ranges, on this worker's stack */
  adapt__frame *frames[ADAPT_MAX_DEPTH];
  adapt__trace_buf trace;

  /* --- Written by thieves (post and cancel), read by the owner's poll --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_uint nreq;

  /* --- Written by the owner, read by thieves choosing a victim and by
   * sleepers: number of published frames. seq_cst (see adapt__idle_sleep). */
  _Alignas(ADAPT_CACHE_LINE) atomic_int has_work;

  /* --- Counters: written by the owner (relaxed), read by anyone --- */
  _Alignas(ADAPT_CACHE_LINE) adapt__stats stats;

  /* --- Request slots, one per thief, each on its own line --- */
  adapt__req *req;

  /* --- Spawned tasks (THE deque: own cache-line groups inside) --- */
  adapt__deque dq;
} adapt__worker;

typedef struct adapt__runtime {
  /* --- Read-mostly configuration, set by init (settings.c) before its
   * release store of up; read after an acquire load of up, or by the
   * workers, which init starts afterwards --- */
  int nworkers;
  int npus;
  int oversubscribed;
  int bind;
  int victim_cache;
  int steal_outer;
  unsigned spin_us;
  unsigned steal_timeout_us;
  adapt__seq_defaults seq; /* ADAPT_GRAIN, ADAPT_SCHED, ADAPT_WINDOW*, ADAPT_SPLITTER */
  int stats_at_exit;
  int tracing;
  char *trace_file;
  unsigned yield_spins;
  adapt__worker **workers;
  pthread_t init_thread; /* the thread that is worker 0 outside regions */
  /* Bumped at each init (init lock held, up == 0); guards stale
   * thread-locals. Atomic: adapt__self_id reads it on any thread (relaxed). */
  atomic_uint generation;

  /* --- Life cycle --- */
  atomic_int up;             /* 1 while running: release by init, acquire by users */
  atomic_int shutdown;       /* 1: workers exit (release by finalize, acquire by workers) */
  pthread_mutex_t init_lock; /* init and finalize */

  /* --- Top-level regions. While a region runs (counted in regions) or
   * region_lock is held with up == 1, the runtime is not finalized: its
   * configuration and workers stay as they are. --- */
  pthread_mutex_t region_lock; /* adapt__pin; finalize's teardown; regions_done */
  pthread_cond_t regions_done; /* finalize waits here for no running region */
  atomic_int finalize_waiting; /* finalizes waiting on regions_done */

  /* --- Sleep/wake and regions: written by everyone, own lines --- */
  /* ADAPT__REGIONS_OPEN | ADAPT__REGIONS_POOL | running regions *
   * ADAPT__REGIONS_ONE: a region starts by one compare-and-swap and ends by
   * one subtraction (no lock on the path of a short loop). */
  _Alignas(ADAPT_CACHE_LINE) atomic_uint regions;
  _Alignas(ADAPT_CACHE_LINE) atomic_uint epoch; /* futex word */
  _Alignas(ADAPT_CACHE_LINE) atomic_int sleepers;
} adapt__runtime;

extern adapt__runtime adapt__rt;

/* The bits of adapt__rt.regions. OPEN: the runtime runs and admits regions
 * (set by init once every worker runs, cleared by finalize when no region
 * runs, before its teardown). POOL: a region holds worker 0's place. */
enum {
  ADAPT__REGIONS_OPEN = 1u,
  ADAPT__REGIONS_POOL = 2u,
  ADAPT__REGIONS_ONE = 4u /* one running region */
};

/* adapt_worker_id: the calling thread's worker id, -1 if none (or solo).
 * Does not dereference the worker. */
int adapt__self_id(void);
/* 1 on the threads of workers 1..n-1 (always inside the runtime). */
int adapt__pool_thread(void);

/* Frames and scopes begun by the calling thread and not yet ended (a stolen
 * piece does not count). Static TLS: one load to read it. */
extern _Thread_local unsigned adapt__tls_frames ADAPT__TLS_FAST;
/* 1 if the calling thread has begun a frame or scope not yet ended. */
static inline int adapt__in_region(void) { return adapt__tls_frames > 0; }
/* The calling thread's identity (unique among live threads), recorded by
 * frames and scopes for the checks of adapt_end, adapt_spawn, adapt_sync. */
static inline const void *adapt__thread_token(void) { return &adapt__tls_frames; }
/* Make the calling thread act as w (NULL: none). */
void adapt__set_self(adapt__worker *w);

/* Start the runtime if it is not running (lazy init). 0 or negative errno. */
int adapt__ensure(void);
/* adapt__ensure for a region that found the runtime closed: waits for an
 * init or a finalize under way to end (takes the init lock), then starts
 * the runtime if it is down. 0 or negative errno. Not inside a region. */
int adapt__ensure_wait(void);

/* Monotonic time in ns. */
uint64_t adapt__now_ns(void);

/* Wait-loop pause: cpu_relax, and sched_yield every few spins. */
void adapt__pause(unsigned *spins);

/* Kinds of region adapt__region_enter opens. */
enum {
  ADAPT__REGION_NESTED = 0, /* inside a region, or on a worker thread */
  ADAPT__REGION_POOL = 1,   /* top-level, on worker 0's place (the workers help) */
  ADAPT__REGION_SOLO = 2    /* top-level while the pool is busy: the calling
                               thread's own worker, alone */
};

/* Enter a region (adapt_begin, adapt_scope_begin, adapt_for). Nested (the
 * calling thread is inside a region, or is a worker thread): *w is its
 * worker. Top-level: start the runtime if it is not running, then take
 * worker 0's place if no other region holds it, else run on the thread's
 * own solo worker (a region never waits for another one: a thread started
 * and joined by a body may run loops); finalize waits until the region
 * leaves. Either way the thread's frame count is incremented. 0 and
 * *region, or adapt_init's errors, or -ENOMEM (no solo worker); on error
 * nothing is entered. */
int adapt__region_enter(adapt__worker **w, int *region);
/* Close what adapt__region_enter opened (region: the kind it gave). */
void adapt__region_leave(int region);

/* Outside regions: hold the region lock with the runtime running (started
 * first if start, else -ESRCH when it is not running), so that its
 * configuration and workers can be read. 0 (then call adapt__unpin), or
 * adapt_init's errors. Never while finalize runs on the same thread. */
int adapt__pin(int start);
void adapt__unpin(void);

/* Push e on w's deque (owner) and wake sleepers if there are any: 0, or
 * -ENOSPC when the deque is full (nothing pushed). */
int adapt__push_entry(adapt__worker *w, const adapt__spawned *e);

/* Publishing a frame / unpublishing it: wakes sleepers when needed. */
void adapt__publish(adapt__worker *w, adapt__frame *f);
void adapt__unpublish(adapt__worker *w, adapt__frame *f);

/* Idle protocol (idle.c). */
void adapt__wake_all(void);
void adapt__idle_sleep(adapt__worker *w);
int adapt__any_work(void);

/* Thief (steal.c): one attempt at stealing from a victim chosen by policy,
 * preferring `prefer` (-1: none). Runs the piece if one was received.
 * Returns 1 if work was run. */
int adapt__steal_and_run(adapt__worker *w, int prefer);

/* Worker objects (worker.c). */
adapt__worker *adapt__worker_new(int id, int n);
void adapt__worker_free(adapt__worker *w);
int adapt__worker_start(adapt__worker *w);

/* Topology (topology.c). */
int adapt__topology_init(int *npus);
void adapt__topology_fini(void);
int adapt__topology_bind(int worker);
/* In a fork's child (runtime.c): forget the copied topology; init_thread:
 * the forking thread was worker 0, and gets its binding before init back. */
void adapt__topology_after_fork(int init_thread);
int adapt__topology_near(int worker, int **near);

#endif /* LIBADAPT_SRC_WORKER_H */
