/* tests/soak: what the parts of the soak test share, C and C++ alike: the
 * counters of the run, the failure report, the random numbers, and the
 * jobs each part runs (docs/reliability.md, "Soak"). */
#ifndef TESTS_SOAK_SOAK_H
#define TESTS_SOAK_SOAK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The run's counters (soak_util.c), totals over every thread. */
enum soak_counter {
  SOAK_CYCLES,     /* runtime started and stopped */
  SOAK_TOP,        /* top-level regions and jobs */
  SOAK_REGIONS,    /* C regions, nested ones included */
  SOAK_NESTED,     /* nested C regions */
  SOAK_JOINED,     /* nested C regions run on a thread the body joins */
  SOAK_FOREIGN,    /* foreign threads started by a C job */
  SOAK_STL,        /* <adapt/stl.hpp> calls */
  SOAK_ISO,        /* isosurface extractions (parallel, each with its reference) */
  SOAK_ITERS,      /* elements and cells processed */
  SOAK_CANCELS,    /* calls cancelled or stopped as the job asked, result checked */
  SOAK_EXCEPTIONS, /* exceptions thrown by C++ bodies and rethrown as documented */
  SOAK_FAILURES,   /* checks that failed */
  SOAK_COUNTERS
};

/* Adds d to counter c (relaxed: totals read once the threads are joined).
 * Any thread. */
void soak_count(enum soak_counter c, unsigned long d);
/* The counter's value. Any thread; exact once the threads that count are
 * joined. */
unsigned long soak_get(enum soak_counter c);

/* Counts a failure and prints it ("soak: FAILURE: ...", stderr; the first
 * 20 only). Any thread. */
void soak_failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* soak_failf with adapt_strerror and adapt_last_error when rc != 0. */
void soak_check_rc(const char *what, int rc);

/* Random numbers: one state per caller, never shared between threads. */
typedef struct rng {
  uint64_t s;
} rng;

static inline uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
static inline uint64_t next(rng *r) { return mix(r->s++ * 0x2545f4914f6cdd1dull); }
static inline size_t rnd(rng *r, size_t n) { return n ? (size_t)(next(r) % n) : 0; }

/* The largest top-level size (2^17, divided by 8 under the sanitizers);
 * set by main before any job. */
extern size_t soak_size_cap;
/* Log-uniform size in [0, soak_size_cap >> (5 * depth)]. */
size_t soak_rnd_size(rng *r, int depth);

/* The jobs, each choosing its work from r and checking its results:
 * a C region of nesting level depth (soak_regions.c), a <adapt/stl.hpp>
 * call (soak_stl.cpp), an isosurface extraction (soak_iso.cpp). Any thread
 * while the runtime runs or may start lazily. */
void soak_region(rng *r, int depth);
void soak_stl_job(rng *r);
void soak_iso_job(rng *r);

#ifdef __cplusplus
}
#endif

#endif /* TESTS_SOAK_SOAK_H */
