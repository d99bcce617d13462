/* The ground floor of the runtime: its global state (adapt__rt), the
 * calling thread's place in it (its worker and id, its open frames), time,
 * the pause of wait loops, and pinning the running runtime. Every other
 * file of libadapt/src builds on it; it calls nothing of theirs (a worker
 * is an opaque pointer here: worker.h has its layout). */
#ifndef LIBADAPT_SRC_RT_H
#define LIBADAPT_SRC_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "../ext/adapt_ext.h"
#include "config.h"

struct adapt__worker;

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
  /* 1: pushes to deques pay no fence and a sleeper in a region calls
   * membarrier(2) (the process is registered for its private expedited
   * command, and nworkers <= ADAPT_MEMBARRIER_MAX_WORKERS); 0: pushes
   * fence (idle.c). Set by init before the workers are created. */
  int membarrier;
  adapt__seq_defaults seq;  /* ADAPT_GRAIN, ADAPT_SCHED, ADAPT_WINDOW*, ADAPT_SPLITTER */
  adapt_sched nested_sched; /* adapt_for's default inside a region (settings.h) */
  unsigned spawn_keep;      /* ADAPT_SPAWN_KEEP (settings.h; worker.c applies it) */
  int stats_at_exit;
  int tracing;
  char *trace_file;
  unsigned yield_spins;
  struct adapt__worker **workers;
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
  pthread_mutex_t region_lock; /* adapt__pin; finalize's teardown; the fields below */
  pthread_cond_t regions_done; /* finalize waits here for no running region */
  atomic_int finalize_waiting; /* finalizes waiting on regions_done */
  /* New regions waiting while a finalize closes (ADAPT__REGIONS_CLOSING):
   * they wait on admitted until the teardown, until a finalize bumps
   * admit_gen to let the waiting ones in (once per closing: admit_done),
   * or until it bumps refuse_gen to fail them (-ESHUTDOWN). Under
   * region_lock. */
  pthread_cond_t admitted;
  unsigned closing_waiters;
  unsigned admit_gen;
  unsigned refuse_gen;
  int admit_done; /* this closing's admission happened (cleared by the teardown) */

  /* --- Sleep/wake and regions: written by everyone, own lines --- */
  /* ADAPT__REGIONS_OPEN | ADAPT__REGIONS_POOL | running regions *
   * ADAPT__REGIONS_ONE: a region starts by one compare-and-swap and ends by
   * one subtraction (no lock on the path of a short loop). */
  _Alignas(ADAPT_CACHE_LINE) atomic_uint regions;
  _Alignas(ADAPT_CACHE_LINE) atomic_uint epoch; /* futex word */
  _Alignas(ADAPT_CACHE_LINE) atomic_int sleepers;
  /* Pool workers in their idle loop, not running work (adapt_idle_workers;
   * worker.h `looking`): counted from the thread's start, out while it
   * runs a piece or an entry it stole, back after. Relaxed: a hint. */
  _Alignas(ADAPT_CACHE_LINE) atomic_int idle;
} adapt__runtime;

extern adapt__runtime adapt__rt;

/* The bits of adapt__rt.regions. OPEN: the runtime runs and admits regions
 * (set by init once every worker runs, cleared by finalize when no region
 * runs, before its teardown). POOL: a region holds worker 0's place.
 * CLOSING: a finalize has begun (set under the init lock, cleared with
 * OPEN): new top-level regions wait for it (region.c). */
enum {
  ADAPT__REGIONS_OPEN = 1u,
  ADAPT__REGIONS_POOL = 2u,
  ADAPT__REGIONS_CLOSING = 4u,
  ADAPT__REGIONS_ONE = 8u /* one running region */
};

/* Kinds of region adapt__region_enter (region.h) opens. */
enum {
  ADAPT__REGION_NESTED = 0, /* inside a region, or on a worker thread */
  ADAPT__REGION_POOL = 1,   /* top-level, on worker 0's place (the workers help) */
  ADAPT__REGION_SOLO = 2    /* top-level while the pool is busy: the calling
                               thread's own worker, alone */
};

/* The calling thread's worker (NULL: none; see adapt__self_id for when it
 * is current), and 1 on the threads of workers 1..n-1 (always inside the
 * runtime). Static TLS: one load to read each. */
extern _Thread_local struct adapt__worker *adapt__tls_worker ADAPT__TLS_FAST;
extern _Thread_local int adapt__tls_pool_thread ADAPT__TLS_FAST;

/* adapt_worker_id: the calling thread's worker id, -1 if none (or solo).
 * Does not dereference the worker. */
int adapt__self_id(void);
/* 1 on the threads of workers 1..n-1 (always inside the runtime). */
static inline int adapt__pool_thread(void) { return adapt__tls_pool_thread; }

/* adapt__tls_frames (declared in <adapt/tasks.h>: the inline adapt_sync
 * reads it): frames and scopes begun by the calling thread and not yet
 * ended (a stolen piece does not count). Static TLS: one load to read it. */
/* 1 if the calling thread has begun a frame or scope not yet ended. */
static inline int adapt__in_region(void) { return adapt__tls_frames > 0; }
/* The calling thread's identity (unique among live threads), recorded by
 * frames and scopes for the checks of adapt_end, adapt_spawn, adapt_sync. */
static inline const void *adapt__thread_token(void) { return &adapt__tls_frames; }
/* Make the calling thread act as worker w (NULL: none) whose adapt_worker_id
 * is id (-1 for none or a solo worker); adapt__set_self (worker.h) passes
 * both. */
void adapt__set_identity(struct adapt__worker *w, int id);

/* Monotonic time in ns. */
uint64_t adapt__now_ns(void);

/* Wait-loop pause: cpu_relax, and sched_yield every few spins. */
void adapt__pause(unsigned *spins);

/* Outside regions: hold the region lock if the runtime runs, so that its
 * configuration and workers can be read: 0 (then call adapt__unpin), or
 * -ESRCH when it is not running (the lock is then not held). Never while
 * finalize runs on the same thread. adapt__pin_start (runtime.h) starts
 * the runtime first. */
int adapt__pin(void);
void adapt__unpin(void);

#endif /* LIBADAPT_SRC_RT_H */
