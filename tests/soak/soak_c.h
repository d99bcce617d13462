/* tests/soak: what the C parts of the soak test share (soak_util.c):
 * visit counts, nested regions, the probe of what a body may ask of the
 * runtime, and the affine maps whose composition shows the order. */
#ifndef TESTS_SOAK_SOAK_C_H
#define TESTS_SOAK_SOAK_C_H

#include <adapt/adapt.h>
#include <stdatomic.h>

#include "kernels.h"
#include "soak.h"

enum {
  MAX_DEPTH = 2,           /* nesting levels below a top-level region */
  REDUCER_NEST_ONE_IN = 8, /* reductions that start a nested region, one in ... */
};

/* Visit counts of the n indices of one region. */
typedef struct visits {
  atomic_uchar *v;
  size_t n;
  unsigned cost; /* extra work per visit (rounds of mix): thieves get time to steal */
} visits;

/* Zeroed counts for n indices and a random cost; 0, or -1 (failure
 * counted) out of memory. */
int soak_visits_new(visits *m, size_t n, rng *r);
/* Counts a visit of index i (relaxed) and does the extra work. */
void soak_visit(const visits *m, size_t i);
unsigned soak_visits_of(const visits *m, size_t i);
/* Each index below exact_below visited once, the others at most once
 * (a failure names the first that is not); frees the counts. */
void soak_visits_check(visits *m, const char *what, size_t exact_below, size_t n);

/* From a body or callback of a region of nesting level depth that covers
 * the indices [b, e): for each multiple m of 1024 in it, one time in 4 (by
 * seed and m), run a nested region chosen by (seed, m), one in 8 of them
 * on a thread that the body creates and joins. */
void soak_maybe_nest(uint64_t seed, int depth, size_t b, size_t e);

/* The configuration the cycle started the runtime with (NULL: lazily, with
 * the defaults). Written by the main thread between cycles only. */
extern const adapt_config *soak_running_cfg;

/* From a body: its worker id in range, adapt_init with the running
 * configuration 0 and with another one -EBUSY, adapt_try_finalize -EBUSY. */
void soak_probe_runtime(const char *where);

/* affine and compose: kernels.h. */
static inline affine affine_of(uint64_t i) { return (affine){2 * i + 1, mix(i)}; }
static inline int affine_eq(affine x, affine y) { return x.a == y.a && x.b == y.b; }

/* The sequence algorithms' region (soak_algo.c). */
void soak_region_algo(rng *r, int depth);

#endif /* TESTS_SOAK_SOAK_C_H */
