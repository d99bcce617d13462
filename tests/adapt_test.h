/* Helpers shared by the cmocka tests. */
#ifndef TESTS_ADAPT_TEST_H
#define TESTS_ADAPT_TEST_H

#include <adapt/adapt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Busy-wait for ns nanoseconds (a body of known duration). */
static inline void adapt_test_spin_ns(unsigned long long ns) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((unsigned long long)(t.tv_sec - t0.tv_sec) * 1000000000ull +
             (unsigned long long)(t.tv_nsec - t0.tv_nsec) < ns);
}

/* Size scale: the sanitizer variants run the same cases with the large
 * sizes divided (ThreadSanitizer is 5-15x slower); no case is skipped. */
static inline size_t adapt_test_scale(size_t n_release, size_t n_sanitized) {
  const char *v = getenv("ADAPT_TEST_VARIANT");
  return (v && strcmp(v, "release") != 0) ? n_sanitized : n_release;
}

/* (Re)start the runtime with n workers; returns adapt_init's code. */
static inline int adapt_test_workers(int n) {
  adapt_finalize();
  adapt_config cfg = {0};
  cfg.workers = n;
  return adapt_init(&cfg);
}

#endif /* TESTS_ADAPT_TEST_H */
