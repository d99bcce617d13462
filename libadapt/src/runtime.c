/* Runtime life cycle: configuration, init, finalize, identity, errors. */
#include <adapt/adapt.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <adapt/loop.h>

#include "worker.h"

static int parse_uint(const char *name, const char *s, unsigned long max, unsigned long *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || end == s || *end != '\0' || v > max || s[0] == '-') {
    fprintf(stderr, "libadapt: bad value %s=\"%s\" (expected an integer 0..%lu)\n", name, s, max);
    return -EINVAL;
  }
  *out = v;
  return 0;
}

/* An environment value among two names: *out = v1 or v2; -EINVAL with a
 * message otherwise. */
static int parse_choice(const char *name, const char *s, const char *n1, int v1, const char *n2,
                        int v2, int *out) {
  if (!strcmp(s, n1))
    *out = v1;
  else if (!strcmp(s, n2))
    *out = v2;
  else {
    fprintf(stderr, "libadapt: bad value %s=\"%s\" (%s|%s)\n", name, s, n1, n2);
    return -EINVAL;
  }
  return 0;
}

/* Configuration: cfg fields, else the environment, else the defaults. */
static int configure(const adapt_config *cfg, int npus) {
  const adapt_config zero = {0};
  if (!cfg) cfg = &zero;
  const char *s;
  unsigned long v;

  int n = cfg->workers;
  if (n < 0 || n > ADAPT_MAX_WORKERS) return -EINVAL;
  if (n == 0 && (s = getenv("ADAPT_WORKERS")) && *s) {
    if (parse_uint("ADAPT_WORKERS", s, ADAPT_MAX_WORKERS, &v) || v == 0) {
      if (v == 0) fprintf(stderr, "libadapt: ADAPT_WORKERS must be at least 1\n");
      return -EINVAL;
    }
    n = (int)v;
  }
  if (n == 0) n = npus < ADAPT_MAX_WORKERS ? npus : ADAPT_MAX_WORKERS;
  adapt__rt.nworkers = n;
  adapt__rt.npus = npus;
  adapt__rt.oversubscribed = n > npus;
  adapt__rt.yield_spins = adapt__rt.oversubscribed ? ADAPT_YIELD_SPINS : 16u * ADAPT_YIELD_SPINS;

  if (cfg->bind < -1 || cfg->bind > 1) return -EINVAL;
  int bind = cfg->bind;
  if (bind == 0 && (s = getenv("ADAPT_BIND")) && *s) {
    if (parse_uint("ADAPT_BIND", s, 1, &v)) return -EINVAL;
    bind = v ? 1 : -1;
  }
  adapt__rt.bind = bind != -1;

  adapt_victim_policy vp = cfg->victim;
  if (vp < ADAPT_VICTIM_DEFAULT || vp > ADAPT_VICTIM_CACHE) return -EINVAL;
  if (vp == ADAPT_VICTIM_DEFAULT && (s = getenv("ADAPT_VICTIM")) && *s) {
    int c;
    if (parse_choice("ADAPT_VICTIM", s, "random", ADAPT_VICTIM_RANDOM, "cache", ADAPT_VICTIM_CACHE,
                     &c))
      return -EINVAL;
    vp = (adapt_victim_policy)c;
  }
  adapt__rt.victim_cache = vp != ADAPT_VICTIM_RANDOM;

  adapt_steal_order so = cfg->steal_order;
  if (so < ADAPT_STEAL_DEFAULT || so > ADAPT_STEAL_INNER) return -EINVAL;
  if (so == ADAPT_STEAL_DEFAULT && (s = getenv("ADAPT_STEAL_ORDER")) && *s) {
    int c;
    if (parse_choice("ADAPT_STEAL_ORDER", s, "outer", ADAPT_STEAL_OUTER, "inner", ADAPT_STEAL_INNER,
                     &c))
      return -EINVAL;
    so = (adapt_steal_order)c;
  }
  adapt__rt.steal_outer = so != ADAPT_STEAL_INNER;

  adapt__rt.grain = 0;
  if ((s = getenv("ADAPT_GRAIN")) && *s) {
    if (parse_uint("ADAPT_GRAIN", s, ULONG_MAX, &v)) return -EINVAL;
    if (v == 0) {
      fprintf(stderr, "libadapt: ADAPT_GRAIN must be at least 1\n");
      return -EINVAL;
    }
    adapt__rt.grain = (size_t)v;
  }

  adapt__rt.sched = ADAPT_SCHED_ADAPTIVE;
  if ((s = getenv("ADAPT_SCHED")) && *s) {
    adapt_sched sc;
    if (adapt_sched_parse(s, &sc)) {
      fprintf(stderr,
              "libadapt: bad value ADAPT_SCHED=\"%s\" (adaptive|loopframe|dac|hybrid|lazy-df|"
              "lazy-df2|lazy-bf|static)\n",
              s);
      return -EINVAL;
    }
    if (sc != ADAPT_SCHED_DEFAULT) adapt__rt.sched = sc;
  }

  unsigned spin = cfg->spin_us;
  if (!spin && (s = getenv("ADAPT_SPIN_US")) && *s) {
    if (parse_uint("ADAPT_SPIN_US", s, 10000000ul, &v)) return -EINVAL;
    spin = (unsigned)v;
  } else if (!spin) {
    spin = ADAPT_SPIN_US_DEFAULT;
  }
  adapt__rt.spin_us = spin;

  unsigned to = cfg->steal_timeout_us;
  if (!to && (s = getenv("ADAPT_STEAL_TIMEOUT_US")) && *s) {
    if (parse_uint("ADAPT_STEAL_TIMEOUT_US", s, 10000000ul, &v) || v == 0) return -EINVAL;
    to = (unsigned)v;
  } else if (!to) {
    to = ADAPT_STEAL_TIMEOUT_US_DEFAULT;
  }
  adapt__rt.steal_timeout_us = to;

  int stats = cfg->stats;
  if (!stats && (s = getenv("ADAPT_STATS")) && *s) {
    if (parse_uint("ADAPT_STATS", s, 1, &v)) return -EINVAL;
    stats = (int)v;
  }
  adapt__rt.stats_at_exit = stats == 1;

  const char *tf = cfg->trace_file;
  if (!tf) tf = getenv("ADAPT_TRACE");
  free(adapt__rt.trace_file);
  adapt__rt.trace_file = NULL;
  adapt__trace_mask = 0;
  if (tf && *tf) {
    adapt__rt.trace_file = strdup(tf);
    if (!adapt__rt.trace_file) return -ENOMEM;
    adapt__trace_mask = adapt__trace_parse(getenv("ADAPT_TRACE_EVENTS"));
  }
  adapt__rt.tracing = adapt__trace_mask != 0;
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
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) adapt_try_finalize();
}

int adapt_init(const adapt_config *cfg) {
  adapt__worker *self = adapt__self();
  if (self && self->has_thread) return 0; /* a worker: the runtime is running */
  pthread_mutex_lock(&adapt__rt.init_lock);
  /* acquire: pairs with the release store of up below (another thread's init). */
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) {
    pthread_mutex_unlock(&adapt__rt.init_lock);
    return 0;
  }
  int npus = 1, rc = adapt__topology_init(&npus);
  if (rc) goto fail_unlock;
  rc = configure(cfg, npus);
  if (rc) goto fail_topo;
  int n = adapt__rt.nworkers;
  adapt__rt.workers = calloc((size_t)n, sizeof(adapt__worker *));
  if (!adapt__rt.workers) {
    rc = -ENOMEM;
    goto fail_topo;
  }
  for (int i = 0; i < n; i++)
    if (!(adapt__rt.workers[i] = adapt__worker_new(i, n))) {
      rc = -ENOMEM;
      goto fail_workers;
    }
  for (int i = 0; i < n; i++) {
    int k = adapt__topology_near(i, &adapt__rt.workers[i]->near);
    if (k < 0) {
      rc = k;
      goto fail_workers;
    }
    adapt__rt.workers[i]->nnear = k;
  }
  adapt__rt.generation++;
  adapt__rt.init_thread = pthread_self();
  atomic_store_explicit(&adapt__rt.shutdown, 0, memory_order_relaxed);
  atomic_store_explicit(&adapt__rt.sleepers, 0, memory_order_relaxed);
  /* release: pairs with the acquire loads of up in adapt__ensure and the
   * public entry points: the configuration and workers are then visible. */
  atomic_store_explicit(&adapt__rt.up, 1, memory_order_release);
  adapt__set_self(adapt__rt.workers[0]);
  if (adapt__rt.bind) adapt__topology_bind(0);
  for (int i = 1; i < n; i++) {
    rc = adapt__worker_start(adapt__rt.workers[i]);
    if (rc) {
      stop_threads(i);
      atomic_store_explicit(&adapt__rt.up, 0, memory_order_release);
      adapt__set_self(NULL);
      rc = -EAGAIN;
      goto fail_workers;
    }
  }
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(at_exit);
  }
  pthread_mutex_unlock(&adapt__rt.init_lock);
  return 0;

fail_workers:
  free_workers();
fail_topo:
  adapt__topology_fini();
fail_unlock:
  pthread_mutex_unlock(&adapt__rt.init_lock);
  return rc;
}

int adapt__ensure(void) {
  /* acquire: pairs with the release store of up in adapt_init. */
  if (atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) return 0;
  return adapt_init(NULL);
}

int adapt_try_finalize(void) {
  adapt__worker *self = adapt__self();
  if ((self && self->has_thread) || adapt__in_region()) return -EBUSY;
  pthread_mutex_lock(&adapt__rt.init_lock);
  /* acquire: pairs with the release store of up in adapt_init. */
  if (!atomic_load_explicit(&adapt__rt.up, memory_order_acquire)) {
    pthread_mutex_unlock(&adapt__rt.init_lock);
    return 0;
  }
  /* Wait for a region run by another thread to end. */
  pthread_mutex_lock(&adapt__rt.region_lock);
  stop_threads(adapt__rt.nworkers);
  if (adapt__rt.stats_at_exit) adapt_stats_print(stderr);
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
  pthread_mutex_unlock(&adapt__rt.region_lock);
  pthread_mutex_unlock(&adapt__rt.init_lock);
  return 0;
}

void adapt_finalize(void) {
  if (adapt_try_finalize() == -EBUSY)
    fprintf(stderr, "libadapt: adapt_finalize called inside a parallel region: ignored\n");
}

int adapt_num_workers(void) {
  if (adapt__ensure() != 0) return 1;
  return adapt__rt.nworkers;
}

int adapt_worker_id(void) {
  adapt__worker *w = adapt__self();
  return w ? w->id : -1;
}

unsigned adapt_version(void) { return ADAPT_VERSION_HEX; }

#define ADAPT_STR2(x) #x
#define ADAPT_STR(x) ADAPT_STR2(x)
const char *adapt_version_string(void) {
  return ADAPT_STR(ADAPT_VERSION_MAJOR) "." ADAPT_STR(ADAPT_VERSION_MINOR) "." ADAPT_STR(
      ADAPT_VERSION_PATCH);
}

const char *adapt_strerror(int err) {
  switch (err) {
  case 0: return "success";
  case -EINVAL:
    return "invalid argument (NULL callback, bad range, bad attribute or configuration)";
  case -ENOMEM: return "out of memory";
  case -EOVERFLOW: return "count * size overflows size_t";
  case -E2BIG: return "work descriptor larger than ADAPT_WORK_MAX";
  case -EBUSY: return "not allowed inside a parallel region";
  case -EAGAIN: return "cannot create worker threads";
  case -ESRCH: return "runtime not running";
  case -ENODATA: return "no data";
  case -ERANGE: return "value out of range (e.g. more outputs than declared)";
  case -ENODEV: return "hwloc cannot read the topology";
  case -ENOTSUP: return "not supported";
  case -ENOSPC: return "output buffer too small";
  default: return err < 0 ? "unknown libadapt error" : "not an error code (expected 0 or negative)";
  }
}
