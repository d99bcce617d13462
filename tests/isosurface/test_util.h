/* apps/isosurface: helpers shared by the app's cmocka tests (include after
 * <cmocka.h>). */
#ifndef APPS_ISOSURFACE_TEST_UTIL_H
#define APPS_ISOSURFACE_TEST_UTIL_H

#include <adapt/adapt.h>

#include <cstring>

/* (Re)start the runtime with w unbound workers. */
inline void start_workers(int w) {
  adapt_finalize();
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = w;
  cfg.bind = -1;
  assert_int_equal(adapt_init(&cfg), 0);
}

#endif /* APPS_ISOSURFACE_TEST_UTIL_H */
