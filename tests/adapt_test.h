/* Helpers shared by the cmocka tests. */
#ifndef TESTS_ADAPT_TEST_H
#define TESTS_ADAPT_TEST_H

#include <adapt/adapt.h>
#include <stdlib.h>
#include <string.h>

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
