/* Statistics: per-worker counters, steal latency samples, the exit table. */
#include <adapt/adapt.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "worker.h"

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)

void adapt__stats_rtt(adapt__worker *w, uint64_t ns) {
  unsigned i = LOAD(w->stats.rtt_next);
  /* relaxed: single writer; readers want any recent sample. */
  atomic_store_explicit(&w->stats.rtt_ns[i & (ADAPT_RTT_SAMPLES - 1)],
                        ns > 0xffffffffu ? 0xffffffffu : (unsigned)(ns ? ns : 1),
                        memory_order_relaxed);
  atomic_store_explicit(&w->stats.rtt_next, i + 1, memory_order_relaxed);
}

/* The counters of adapt_worker_stats, each a field of adapt__stats too. */
#define COUNTERS(X)                                                                                \
  X(requests_posted)                                                                               \
  X(requests_served)                                                                               \
  X(requests_timeout)                                                                              \
  X(steals) X(splits) X(preemptions) X(reductions) X(regions) X(idle_ns) X(sleeps)

void adapt__stats_clear(adapt__stats *s) {
#define CLEAR(f) atomic_store_explicit(&s->f, 0, memory_order_relaxed);
  COUNTERS(CLEAR)
#undef CLEAR
  atomic_store_explicit(&s->rtt_next, 0, memory_order_relaxed);
  for (unsigned i = 0; i < ADAPT_RTT_SAMPLES; i++)
    atomic_store_explicit(&s->rtt_ns[i], 0, memory_order_relaxed);
  memset(&s->base, 0, sizeof s->base);
}

/* Worker w's counters since the last reset. The region lock is held with
 * the runtime running: the base values, written under it, are stable, and
 * every counter is at least its base (a counter only grows; the lock orders
 * the reset's load before ours). */
static void get_pinned(int w, adapt_worker_stats *out) {
  adapt__stats *s = &adapt__rt.workers[w]->stats;
#define GET(f)                                                                                     \
  {                                                                                                \
    uint64_t v = LOAD(s->f);                                                                       \
    out->f = v > s->base.f ? v - s->base.f : 0;                                                    \
  }
  COUNTERS(GET)
#undef GET
}

int adapt_stats_get(int w, adapt_worker_stats *out) {
  adapt__error_clear();
  if (!out) return adapt__fail(-EINVAL, "adapt_stats_get: out is NULL");
  if (adapt__pin() != 0) return adapt__fail(-ESRCH, "adapt_stats_get: the runtime is not running");
  if (w < 0 || w >= adapt__rt.nworkers) {
    int n = adapt__rt.nworkers;
    adapt__unpin();
    return adapt__fail(-EINVAL, "adapt_stats_get: worker %d out of 0..%d", w, n - 1);
  }
  get_pinned(w, out);
  adapt__unpin();
  return 0;
}

void adapt_stats_reset(void) {
  if (adapt__pin() != 0) return;
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    adapt__stats *s = &adapt__rt.workers[i]->stats;
#define BASE(f) s->base.f = LOAD(s->f);
    COUNTERS(BASE)
#undef BASE
    /* relaxed: samples are single values; one being stored meanwhile by
     * its worker may survive the reset. */
    for (unsigned k = 0; k < ADAPT_RTT_SAMPLES; k++)
      atomic_store_explicit(&s->rtt_ns[k], 0, memory_order_relaxed);
  }
  adapt__unpin();
}

static int cmp_u32(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* adapt_stats_steal_latency with the region lock held. */
static int latency_pinned(double *median_ns, double *p90_ns) {
  size_t cap = (size_t)adapt__rt.nworkers * ADAPT_RTT_SAMPLES, n = 0;
  unsigned *v = malloc(cap * sizeof *v);
  if (!v) return adapt__fail(-ENOMEM, "adapt_stats_steal_latency: out of memory for the samples");
  for (int i = 0; i < adapt__rt.nworkers; i++)
    for (unsigned k = 0; k < ADAPT_RTT_SAMPLES; k++) {
      unsigned x = LOAD(adapt__rt.workers[i]->stats.rtt_ns[k]);
      if (x) v[n++] = x;
    }
  if (n == 0) {
    free(v);
    return adapt__fail(-ENODATA, "adapt_stats_steal_latency: no sample (no steal since the reset)");
  }
  qsort(v, n, sizeof *v, cmp_u32);
  *median_ns = n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
  *p90_ns = v[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1];
  free(v);
  return 0;
}

int adapt_stats_steal_latency(double *median_ns, double *p90_ns) {
  adapt__error_clear();
  if (!median_ns) return adapt__fail(-EINVAL, "adapt_stats_steal_latency: median_ns is NULL");
  if (!p90_ns) return adapt__fail(-EINVAL, "adapt_stats_steal_latency: p90_ns is NULL");
  if (adapt__pin() != 0)
    return adapt__fail(-ENODATA, "adapt_stats_steal_latency: the runtime is not running");
  int rc = latency_pinned(median_ns, p90_ns);
  adapt__unpin();
  return rc;
}

void adapt__stats_print_pinned(FILE *f) {
  fprintf(f, "libadapt statistics (%d workers)\n", adapt__rt.nworkers);
  fprintf(f, "%6s %10s %10s %8s %8s %8s %8s %8s %8s %12s %7s\n", "worker", "posted", "served",
          "timeout", "steals", "splits", "preempt", "reduce", "regions", "idle_ms", "sleeps");
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    adapt_worker_stats s;
    get_pinned(i, &s);
    fprintf(f, "%6d %10llu %10llu %8llu %8llu %8llu %8llu %8llu %8llu %12.3f %7llu\n", i,
            (unsigned long long)s.requests_posted, (unsigned long long)s.requests_served,
            (unsigned long long)s.requests_timeout, (unsigned long long)s.steals,
            (unsigned long long)s.splits, (unsigned long long)s.preemptions,
            (unsigned long long)s.reductions, (unsigned long long)s.regions, s.idle_ns / 1e6,
            (unsigned long long)s.sleeps);
  }
  double med, p90;
  if (latency_pinned(&med, &p90) == 0)
    fprintf(f, "steal round trip: median %.0f ns, p90 %.0f ns\n", med, p90);
}

void adapt_stats_print(FILE *f) {
  if (!f) f = stderr;
  if (adapt__pin() != 0) {
    fprintf(f, "libadapt: runtime not running, no statistics\n");
    return;
  }
  adapt__stats_print_pinned(f);
  adapt__unpin();
}
