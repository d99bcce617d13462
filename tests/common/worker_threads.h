/* The worker threads of this process as /proc shows them (Linux): shared by
 * the cmocka tests (adapt_test.h: the teardown checks that none is left
 * behind) and the soak test. */
#ifndef TESTS_COMMON_WORKER_THREADS_H
#define TESTS_COMMON_WORKER_THREADS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Their count once joined threads have left /proc: pthread_join returns when
 * the kernel clears the thread's id, which comes before it removes
 * /proc/self/task/<tid>, so a joined worker can still be listed for a
 * moment (a loaded ASan run saw one after adapt_finalize). Polls every
 * millisecond for up to max_ms while any is listed; the count then. */
static inline int adapt_test_worker_threads_settled(int max_ms) {
  int n = adapt_test_worker_threads();
  for (int i = 0; n != 0 && i < max_ms; i++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    n = adapt_test_worker_threads();
  }
  return n;
}

#endif /* TESTS_COMMON_WORKER_THREADS_H */
