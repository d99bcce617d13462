/* Per-worker statistics. Each counter is written only by its worker (relaxed
 * load + store, no read-modify-write) and may be read by any thread. A
 * reset never writes a counter (the owner's load + store would undo it): it
 * records the current values as the base that adapt_stats_get subtracts. */
#ifndef LIBADAPT_SRC_STATS_H
#define LIBADAPT_SRC_STATS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "config.h"

typedef struct adapt__stats {
  atomic_uint_fast64_t requests_posted, requests_served, requests_timeout, steals, splits,
      preemptions, reductions, regions, idle_ns, sleeps;
  atomic_uint rtt_next;                  /* next sample slot */
  atomic_uint rtt_ns[ADAPT_RTT_SAMPLES]; /* steal round trips, ns (0: empty) */
  /* Counter values at the last adapt_stats_reset: under the region lock. */
  adapt_worker_stats base;
} adapt__stats;

/* Owner-only increment: relaxed, no RMW (counters are single-writer). */
#define ADAPT_STAT_ADD(w, field, v)                                                                \
  atomic_store_explicit(&(w)->stats.field,                                                         \
                        atomic_load_explicit(&(w)->stats.field, memory_order_relaxed) + (v),       \
                        memory_order_relaxed)
#define ADAPT_STAT_INC(w, field) ADAPT_STAT_ADD(w, field, 1)

struct adapt__worker;
void adapt__stats_rtt(struct adapt__worker *w, uint64_t ns);
void adapt__stats_clear(adapt__stats *s);
/* adapt_stats_print for finalize, which holds the region lock already. */
void adapt__stats_print_pinned(FILE *f);

#endif /* LIBADAPT_SRC_STATS_H */
