/* apps/isosurface tests: (re)starting the runtime between cases, shared by
 * test_util.h and iso_api_test.h (include after <cmocka.h>). */
#ifndef TESTS_ISOSURFACE_START_WORKERS_H
#define TESTS_ISOSURFACE_START_WORKERS_H

#include <adapt/adapt.h>

#include <cstring>

/* (Re)start the runtime with w unbound workers; fails the test if
 * adapt_init does. Call between runs, from the test's thread. */
inline void start_workers(int w) {
  adapt_finalize();
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = w;
  cfg.bind = -1;
  assert_int_equal(adapt_init(&cfg), 0);
}

#endif /* TESTS_ISOSURFACE_START_WORKERS_H */
