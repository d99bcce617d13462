/* Helpers shared by the cmocka tests. */
#ifndef TESTS_ADAPT_TEST_H
#define TESTS_ADAPT_TEST_H

#include <adapt/adapt.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Busy-wait for ns nanoseconds (a body of known duration). */
static inline void adapt_test_spin_ns(unsigned long long ns) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((unsigned long long)(t.tv_sec - t0.tv_sec) * 1000000000ull +
             (unsigned long long)(t.tv_nsec - t0.tv_nsec) <
         ns);
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

/* Worker threads of this process (Linux): threads named "adapt-worker"
 * (teardowns check that none is left behind). */
static inline int adapt_test_worker_threads(void) {
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[300], name[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE *f = fopen(path, "r");
    if (f) {
      if (fgets(name, sizeof name, f) && strncmp(name, "adapt-worker", 12) == 0) n++;
      fclose(f);
    }
  }
  if (d) closedir(d);
  return n;
}

#endif /* TESTS_ADAPT_TEST_H */
