/* tests/soak: the counters, failure reports, visit counts, nesting and
 * runtime probe that the soak's parts share (soak.h, soak_c.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "soak_c.h"

enum {
  NEST_EVERY = 1024, /* nested regions start at multiples of ... */
  NEST_ONE_IN = 4,   /* ... one time in ... */
  JOINED_ONE_IN = 8, /* nested regions run on a thread the body joins, one in ... */
  MAX_MESSAGES = 20, /* failures printed in full */
};

/* --- Counters (relaxed: totals read after the joins) ---------------------- */

static atomic_ulong counters[SOAK_COUNTERS];

void soak_count(enum soak_counter c, unsigned long d) {
  atomic_fetch_add_explicit(&counters[c], d, memory_order_relaxed);
}
unsigned long soak_get(enum soak_counter c) {
  return atomic_load_explicit(&counters[c], memory_order_relaxed);
}

void soak_failf(const char *fmt, ...) {
  if (atomic_fetch_add_explicit(&counters[SOAK_FAILURES], 1, memory_order_relaxed) >= MAX_MESSAGES)
    return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "soak: FAILURE: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

void soak_check_rc(const char *what, int rc) {
  if (rc) soak_failf("%s returned %d (%s): %s", what, rc, adapt_strerror(rc), adapt_last_error());
}

/* --- Sizes ------------------------------------------------------------------ */

size_t soak_size_cap = (size_t)1 << 17;

size_t soak_rnd_size(rng *r, int depth) {
  size_t cap = soak_size_cap >> (5 * depth), bits = 0;
  while (((size_t)1 << bits) < cap) bits++;
  size_t hi = (size_t)1 << rnd(r, bits + 1);
  return rnd(r, (hi < cap ? hi : cap) + 1);
}

/* --- Nesting ---------------------------------------------------------------- */

/* The nested regions depend on (seed, m) only, not on how the work was
 * cut. */
typedef struct joined {
  rng r;
  int depth;
} joined;

static void *joined_main(void *p) {
  joined *j = p;
  soak_region(&j->r, j->depth);
  return NULL;
}

/* One nested region in JOINED_ONE_IN runs on a thread that the body
 * creates and joins (a top-level region of that thread: it runs alone
 * while the workers are busy; issue 11, item 3). */
void soak_maybe_nest(uint64_t seed, int depth, size_t b, size_t e) {
  if (depth >= MAX_DEPTH) return;
  for (size_t m = (b + NEST_EVERY - 1) / NEST_EVERY * NEST_EVERY; m < e; m += NEST_EVERY) {
    uint64_t h = mix(seed ^ mix(m));
    if (h % NEST_ONE_IN != 0) continue;
    rng sub = {h};
    soak_count(SOAK_NESTED, 1);
    pthread_t t;
    joined j = {sub, depth + 1};
    if ((h >> 32) % JOINED_ONE_IN == 0 && pthread_create(&t, NULL, joined_main, &j) == 0) {
      soak_count(SOAK_JOINED, 1);
      pthread_join(t, NULL);
    } else {
      soak_region(&sub, depth + 1);
    }
  }
}

/* --- Visit counts ----------------------------------------------------------- */

int soak_visits_new(visits *m, size_t n, rng *r) {
  static const unsigned costs[] = {0, 0, 8, 64};
  m->n = n;
  m->cost = costs[rnd(r, 4)];
  m->v = calloc(n ? n : 1, 1);
  if (!m->v) soak_failf("out of memory for %zu visit counts", n);
  return m->v ? 0 : -1;
}

static _Thread_local volatile uint64_t sink; /* keeps the extra work */

/* relaxed: counts, read after the region's join. */
void soak_visit(const visits *m, size_t i) {
  atomic_fetch_add_explicit(&m->v[i], 1, memory_order_relaxed);
  uint64_t x = i;
  for (unsigned k = 0; k < m->cost; k++) x = mix(x);
  if (m->cost) sink = x;
}
unsigned soak_visits_of(const visits *m, size_t i) {
  return atomic_load_explicit(&m->v[i], memory_order_relaxed);
}
void soak_visits_check(visits *m, const char *what, size_t exact_below, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned c = soak_visits_of(m, i);
    if (i < exact_below ? c != 1 : c > 1) {
      soak_failf("%s: index %zu of %zu visited %u times", what, i, n, c);
      break;
    }
  }
  free(m->v);
  m->v = NULL;
}

/* --- What a body may ask of the runtime ------------------------------------- */

const adapt_config *soak_running_cfg;

void soak_probe_runtime(const char *where) {
  int id = adapt_worker_id(), nw = adapt_num_workers();
  /* -1: a region that a thread runs alone while another one holds the
   * workers (adapt.h). */
  if (id < -1 || id >= nw)
    soak_failf("adapt_worker_id %d in a body of %s, %d workers", id, where, nw);
  soak_check_rc("adapt_init (running configuration) in a body", adapt_init(soak_running_cfg));
  adapt_config other = {0};
  other.workers = nw == 1 ? 2 : 1;
  int rc = adapt_init(&other);
  if (rc != -EBUSY) soak_failf("adapt_init (other configuration) in a body returned %d", rc);
  rc = adapt_try_finalize();
  if (rc != -EBUSY) soak_failf("adapt_try_finalize in a body returned %d", rc);
}
