/* The worker threads of this process as /proc shows them (Linux): shared by
 * the cmocka tests (adapt_test.h: the teardown checks that none is left
 * behind) and the soak test. */
#ifndef TESTS_COMMON_WORKER_THREADS_H
#define TESTS_COMMON_WORKER_THREADS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Worker threads of this process (Linux): threads named "adapt-worker".
 * Their count; the first cap of their thread ids go to tids (may be NULL
 * with cap 0). */
static inline int adapt_test_worker_tids(int *tids, int cap) {
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[300], name[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE *f = fopen(path, "r");
    if (f) {
      if (fgets(name, sizeof name, f) && strncmp(name, "adapt-worker", 12) == 0) {
        if (n < cap) tids[n] = atoi(e->d_name);
        n++;
      }
      fclose(f);
    }
  }
  if (d) closedir(d);
  return n;
}

/* Their count (the shared teardown checks that none is left behind). */
static inline int adapt_test_worker_threads(void) { return adapt_test_worker_tids(NULL, 0); }

#endif /* TESTS_COMMON_WORKER_THREADS_H */
