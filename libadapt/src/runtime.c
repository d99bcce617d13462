/* Runtime life cycle (runtime.h): init (with the settings of settings.c),
 * finalize, the lazy start, and a fork's child. */
#include "runtime.h"

#include <adapt/adapt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "idle.h"
#include "pool.h"
#include "records.h"
#include "settings.h"
#include "topology.h"
#include "worker.h"

/* Apply the settings resolved from cfg, the environment and the defaults
 * (settings.c) to the runtime. Under the init lock, before up is published. */
static int configure(const adapt_config *cfg, int npus, int lazy) {
  adapt__settings st;
  int rc = adapt__settings_resolve(cfg, npus, lazy, &st);
  if (rc) return rc;
  char *tf = NULL;
  if (st.trace_file && !(tf = strdup(st.trace_file)))
    return adapt__fail(-ENOMEM, "adapt_init: out of memory copying the trace file name");
  int n = st.workers;
  adapt__rt.nworkers = n;
  adapt__rt.npus = npus;
  adapt__rt.oversubscribed = n > npus;
  adapt__rt.yield_spins = adapt__rt.oversubscribed ? ADAPT_YIELD_SPINS : 16u * ADAPT_YIELD_SPINS;
  adapt__rt.bind = st.bind;
  adapt__rt.victim_cache = st.victim_cache;
  adapt__rt.steal_outer = st.steal_outer;
  adapt__rt.spin_us = st.spin_us;
  adapt__rt.steal_timeout_us = st.steal_timeout_us;
  adapt__rt.membarrier = n <= ADAPT_MEMBARRIER_MAX_WORKERS && adapt__idle_setup();
  adapt__rt.stats_at_exit = st.stats;
  adapt__rt.seq = st.seq;
  adapt__rt.nested_sched = st.nested_sched;
  adapt__rt.spawn_keep = st.spawn_keep;
  free(adapt__rt.trace_file);
  adapt__rt.trace_file = tf;
  adapt__trace_mask = st.trace_mask;
  adapt__rt.tracing = adapt__trace_mask != 0;
  return 0;
}

/* -EBUSY with the detail of a field of cfg that differs from the running
 * runtime's value. */
static int busy(const char *field, const char *want, const char *have) {
  return adapt__fail(-EBUSY,
                     "adapt_init: %s %s differs from the running runtime's %s "
                     "(adapt_finalize first)",
                     field, want, have);
}

static int busy_int(const char *field, long long want, long long have) {
  char a[24], b[24];
  snprintf(a, sizeof a, "%lld", want);
  snprintf(b, sizeof b, "%lld", have);
  return busy(field, a, b);
}

/* adapt_init while the runtime runs: 0 when cfg is NULL or each of its
 * non-zero fields equals the running configuration, else -EINVAL (a bad
 * field) or -EBUSY. The caller guarantees that the configuration is stable:
 * it holds the init lock, or runs inside the runtime (a worker thread, or a
 * region, which adapt_try_finalize waits for before changing anything). */
static int check_running(const adapt_config *cfg) {
  if (!cfg) return 0;
  int rc = adapt__settings_check_config(cfg);
  if (rc) return rc;
  const adapt__runtime *r = &adapt__rt;
  if (cfg->workers && cfg->workers != r->nworkers)
    return busy_int("workers", cfg->workers, r->nworkers);
  if (cfg->bind && (cfg->bind == 1) != (r->bind != 0))
    return busy_int("bind", cfg->bind, r->bind ? 1 : -1);
  if (cfg->victim && (cfg->victim == ADAPT_VICTIM_CACHE) != (r->victim_cache != 0))
    return busy("victim", cfg->victim == ADAPT_VICTIM_CACHE ? "cache" : "random",
                r->victim_cache ? "cache" : "random");
  if (cfg->steal_order && (cfg->steal_order == ADAPT_STEAL_OUTER) != (r->steal_outer != 0))
    return busy("steal_order", cfg->steal_order == ADAPT_STEAL_OUTER ? "outer" : "inner",
                r->steal_outer ? "outer" : "inner");
  if (cfg->spin_us && cfg->spin_us != r->spin_us)
    return busy_int("spin_us", cfg->spin_us, r->spin_us);
  if (cfg->steal_timeout_us && cfg->steal_timeout_us != r->steal_timeout_us)
    return busy_int("steal_timeout_us", cfg->steal_timeout_us, r->steal_timeout_us);
  if (cfg->stats && !r->stats_at_exit) return busy_int("stats", cfg->stats, 0);
  if (cfg->trace_file) {
    const char *have = r->trace_file ? r->trace_file : "";
    if (strcmp(cfg->trace_file, have) != 0) {
      char a[96], b[96];
      snprintf(a, sizeof a, "\"%s\"", cfg->trace_file);
      snprintf(b, sizeof b, "\"%s\"", have);
      return busy("trace_file", a, b);
    }
  }
  return 0;
}

static void free_workers(void) {
  if (!adapt__rt.workers) return;
  for (int i = 0; i < adapt__rt.nworkers; i++) adapt__worker_free(adapt__rt.workers[i]);
  free(adapt__rt.workers);
  adapt__rt.workers = NULL;
}

/* Stop and join the threads of workers [1, upto). */
static void stop_threads(int upto) {
  /* release: pairs with the acquire loads of shutdown in the idle loop. */
  atomic_store_explicit(&adapt__rt.shutdown, 1, memory_order_release);
  adapt__wake_all();
  for (int i = 1; i < upto; i++)
    if (adapt__rt.workers[i]->has_thread) {
      pthread_join(adapt__rt.workers[i]->thread, NULL);
      adapt__rt.workers[i]->has_thread = 0;
    }
}

static void at_exit(void) {
  /* acquire: pairs with the release store of up in init. */
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) adapt_try_finalize();
}

/* In the child of a fork, which has only the forking thread: the copy of
 * the runtime has no worker threads, and a region, init or finalize that
 * another thread of the parent was running never ends here (the child's
 * exit would wait for it in at_exit forever). Unless the forking thread is
 * itself inside a region (the child may then only exec or _exit, as POSIX
 * says of a multithreaded fork), abandon the copy: its memory stays
 * allocated (it describes threads that do not exist; kept reachable in
 * abandoned_workers for leak checkers), its locks are made anew, and the
 * next entry point starts a new runtime, with the CPUs the forking thread
 * had before it was bound as worker 0. */
static adapt__worker **volatile abandoned_workers; /* volatile: stored, never read */

static void after_fork_child(void) {
  if (adapt__in_region() || adapt__pool_thread()) return;
  pthread_mutex_init(&adapt__rt.init_lock, NULL);
  pthread_mutex_init(&adapt__rt.region_lock, NULL);
  pthread_cond_init(&adapt__rt.regions_done, NULL);
  pthread_cond_init(&adapt__rt.admitted, NULL);
  adapt__rt.closing_waiters = 0;
  adapt__rt.admit_gen = 0;
  adapt__rt.refuse_gen = 0;
  adapt__rt.admit_done = 0;
  /* relaxed, all: one thread runs in the child, and until it returns from
   * fork nothing else reads the runtime. */
  adapt__topology_after_fork(atomic_load_explicit(&adapt__rt.up, memory_order_relaxed) &&
                             pthread_equal(pthread_self(), adapt__rt.init_thread));
  atomic_store_explicit(&adapt__rt.up, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.shutdown, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.regions, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.finalize_waiting, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.sleepers, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.idle, 0, memory_order_relaxed); /* no pool thread here */
  atomic_fetch_add_explicit(&adapt__rt.generation, 1, memory_order_relaxed);
  if (adapt__rt.workers) abandoned_workers = adapt__rt.workers;
  adapt__rt.workers = NULL;
  adapt__set_self(NULL);
  adapt__tls_loop = 0;
  adapt__theft_after_fork();
}

/* Workers 0..n-1, each with the list of the workers near it. 0, or -ENOMEM
 * (what was allocated stays in adapt__rt.workers for free_workers). */
static int create_workers(int n) {
  adapt__rt.workers = calloc((size_t)n, sizeof(adapt__worker *));
  if (!adapt__rt.workers)
    return adapt__fail(-ENOMEM, "adapt_init: out of memory for %d workers", n);
  for (int i = 0; i < n; i++)
    if (!(adapt__rt.workers[i] = adapt__worker_new(i, n)))
      return adapt__fail(-ENOMEM, "adapt_init: out of memory for worker %d", i);
  for (int i = 0; i < n; i++) {
    int k = adapt__topology_near(i, &adapt__rt.workers[i]->near);
    if (k < 0)
      return adapt__fail(k, "adapt_init: cannot list the workers near worker %d: %s", i,
                         adapt_strerror(k));
    adapt__rt.workers[i]->nnear = k;
  }
  return 0;
}

/* Publish up, make the calling thread worker 0 and start the threads of
 * workers 1..n-1. 0, or -EAGAIN with up cleared and the threads started
 * joined. */
static int start_workers(int n) {
  /* relaxed: up is 0 and the init lock held; adapt__self_id compares it with
   * the value its thread recorded. */
  atomic_fetch_add_explicit(&adapt__rt.generation, 1, memory_order_relaxed);
  adapt__rt.init_thread = pthread_self();
  atomic_store_explicit(&adapt__rt.shutdown, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.sleepers, 0, memory_order_relaxed);
  /* release: pairs with the acquire loads of up in adapt__ensure,
   * adapt__seq_defaults_get and the public entry points: the configuration
   * (configure, adapt__rt.seq included) and the workers are then visible. */
  atomic_store_explicit(&adapt__rt.up, 1, memory_order_release);
  adapt__set_self(adapt__rt.workers[0]);
  if (adapt__rt.bind) adapt__topology_bind(0);
  for (int i = 1; i < n; i++) {
    int rc = adapt__worker_start(adapt__rt.workers[i]);
    if (rc) {
      stop_threads(i);
      /* release: as in finalize (no region has started: regions is not
       * open yet). */
      atomic_store_explicit(&adapt__rt.up, 0, memory_order_release);
      adapt__set_self(NULL);
      return adapt__fail(-EAGAIN, "adapt_init: cannot create the thread of worker %d: %s", i,
                         adapt__errno_text(-rc));
    }
  }
  return 0;
}

/* Start the runtime (init lock held, up == 0). 0, or the error with
 * everything undone. */
static int start(const adapt_config *cfg, int lazy) {
  int npus = 1, rc = adapt__topology_init(&npus);
  if (rc)
    return adapt__fail(rc, rc == -ENODEV ? "adapt_init: hwloc cannot load the topology"
                                         : "adapt_init: out of memory for the topology");
  rc = configure(cfg, npus, lazy);
  if (rc) goto fail_topo;
  rc = create_workers(adapt__rt.nworkers);
  if (!rc) rc = start_workers(adapt__rt.nworkers);
  if (rc) goto fail_workers;
  /* release: pairs with the acquire load and compare-and-swap of regions
   * in adapt__region_start: regions start once every worker runs (an init that
   * fails above never admitted one, so its teardown frees nothing in use).
   * No region runs: they wait for the init lock, held here (regions is 0).
   * A read-modify-write, not a store: a sleeper's seq_cst regions + 0
   * (idle.c, sleep_fence) heads a release sequence that the first region's
   * compare-and-swap must stay in. */
  atomic_fetch_or_explicit(&adapt__rt.regions, ADAPT__REGIONS_OPEN, memory_order_release);
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(at_exit);
    pthread_atfork(NULL, NULL, after_fork_child);
  }
  return 0;

fail_workers:
  free_workers();
fail_topo:
  adapt__topology_fini();
  free(adapt__rt.trace_file); /* configure's copy, if it succeeded */
  adapt__rt.trace_file = NULL;
  adapt__trace_mask = 0;
  adapt__rt.tracing = 0;
  return rc;
}

/* adapt_init; lazy: a start by another entry point (adapt__ensure), whose
 * repeated failures print the same bad values only once. */
static int init(const adapt_config *cfg, int lazy) {
  adapt__error_clear();
  /* On a worker thread or inside a region the runtime runs and stays up
   * (see check_running); the init lock must not be taken there: a finalize
   * holding it waits for this region, or joins this worker. */
  if (adapt__pool_thread() || adapt__in_region()) return check_running(cfg);
  pthread_mutex_lock(&adapt__rt.init_lock);
  /* acquire: pairs with the release store of up in start_workers (another
   * thread's init): the running configuration compared by check_running is
   * visible. */
  int rc = atomic_load_explicit(&adapt__rt.up, memory_order_acquire) ? check_running(cfg)
                                                                     : start(cfg, lazy);
  pthread_mutex_unlock(&adapt__rt.init_lock);
  return rc;
}

int adapt_init(const adapt_config *cfg) { return init(cfg, 0); }

int adapt__ensure(void) {
  /* acquire: pairs with the release store of up in adapt_init. */
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) return 0;
  return init(NULL, 1);
}

int adapt__ensure_wait(void) { return init(NULL, 1); }

int adapt__pin_start(void) {
  for (;;) {
    if (adapt__pin() == 0) return 0;
    int rc = adapt__ensure();
    if (rc) return rc;
  }
}

/* Wait until no region runs. seq_cst increment and load: the other half of
 * the Dekker pair with the subtraction from regions and the load of
 * finalize_waiting in adapt__region_leave (region.c): either the leaving
 * region sees this finalize waiting and broadcasts under region_lock (which
 * this thread holds from its check to its wait), or this load sees the
 * region gone. */
static void wait_regions(void) {
  pthread_mutex_lock(&adapt__rt.region_lock);
  atomic_fetch_add_explicit(&adapt__rt.finalize_waiting, 1, memory_order_seq_cst);
  while (atomic_load_explicit(&adapt__rt.regions, memory_order_seq_cst) >= ADAPT__REGIONS_ONE) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += ADAPT_FINALIZE_ADMIT_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    /* Regions still run after a while: at the first such timeout with
     * regions waiting in wait_closing (region.c), let them in, one region
     * each, since a running body may wait for one of them (a thread it
     * joins); at each later one, fail those waiting then (-ESHUTDOWN). So
     * after one admission no region joins the count, which reaches 0 once
     * the running and admitted regions end. */
    if (pthread_cond_timedwait(&adapt__rt.regions_done, &adapt__rt.region_lock, &until) ==
            ETIMEDOUT &&
        adapt__rt.closing_waiters > 0) {
      if (adapt__rt.admit_done)
        adapt__rt.refuse_gen++;
      else
        adapt__rt.admit_gen++;
      adapt__rt.admit_done = 1;
      pthread_cond_broadcast(&adapt__rt.admitted);
    }
  }
  atomic_fetch_sub_explicit(&adapt__rt.finalize_waiting, 1, memory_order_relaxed);
  pthread_mutex_unlock(&adapt__rt.region_lock);
}

static int finalize(const char *fn) {
  adapt__error_clear();
  if (adapt__pool_thread() || adapt__in_region())
    return adapt__fail(-EBUSY,
                       "%s: called inside a parallel region (a body, a task or an open scope)", fn);
  /* Close the runtime to new top-level regions (CLOSING: they wait in
   * region.c), then wait for the running ones to end, without the init
   * lock: a thread that a running body creates and joins may call
   * adapt_init (which then finds the runtime up) or start a region, which
   * wait_regions lets in after a while, once per closing; later ones it
   * fails (so that regions that other threads keep starting cannot delay
   * the finalize without bound). Once no region
   * runs, one compare-and-swap clears OPEN and CLOSING (new regions then
   * wait for the init lock, and start a new runtime after the teardown);
   * the init lock, then region_lock (the lock order) are held to the end.
   * Two finalizes may wait together; the first to close tears down, the
   * other then finds up == 0. */
  for (;;) {
    pthread_mutex_lock(&adapt__rt.init_lock);
    /* acquire: pairs with the release store of up in adapt_init. */
    if (!atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) {
      pthread_mutex_unlock(&adapt__rt.init_lock);
      return 0;
    }
    /* relaxed: a region sees CLOSING at its compare-and-swap (which then
     * fails) or its next load; nothing is published with it. */
    atomic_fetch_or_explicit(&adapt__rt.regions, ADAPT__REGIONS_CLOSING, memory_order_relaxed);
    unsigned open = ADAPT__REGIONS_OPEN | ADAPT__REGIONS_CLOSING;
    /* acquire: pairs with the seq_cst (release) subtraction of the last
     * region's leave: its writes come before the teardown. */
    if (atomic_compare_exchange_strong_explicit(&adapt__rt.regions, &open, 0, memory_order_acquire,
                                                memory_order_relaxed))
      break;
    pthread_mutex_unlock(&adapt__rt.init_lock);
    wait_regions();
  }
  pthread_mutex_lock(&adapt__rt.region_lock);
  stop_threads(adapt__rt.nworkers);
  if (adapt__rt.stats_at_exit) adapt__stats_print_pinned(stderr);
  if (adapt__rt.trace_file) {
    int rc = adapt__trace_write(adapt__rt.trace_file);
    if (rc)
      fprintf(stderr, "libadapt: cannot write trace %s: %s\n", adapt__rt.trace_file,
              adapt_strerror(rc));
  }
  atomic_store_explicit(&adapt__rt.up, 0, memory_order_release); /* pairs with adapt__ensure */
  adapt__set_self(NULL);
  free_workers();
  adapt__theft_free_all();
  adapt__topology_fini();
  free(adapt__rt.trace_file);
  adapt__rt.trace_file = NULL;
  adapt__trace_mask = 0;
  adapt__rt.admit_done = 0;                    /* the next closing admits once again */
  pthread_cond_broadcast(&adapt__rt.admitted); /* the regions in wait_closing (region.c) */
  pthread_mutex_unlock(&adapt__rt.region_lock);
  pthread_mutex_unlock(&adapt__rt.init_lock);
  return 0;
}

int adapt_try_finalize(void) { return finalize("adapt_try_finalize"); }

void adapt_finalize(void) {
  if (finalize("adapt_finalize") == -EBUSY)
    fprintf(stderr, "libadapt: adapt_finalize called inside a parallel region: ignored\n");
}
