/* Helpers shared by the cmocka tests (tests/libadapt, tests/algorithms): the shared setup and
 * teardown, the registration macros, the runner every file uses and its main, bodies
 * of known duration, the size scale of the sanitizer variants, the count
 * of live worker threads (worker_threads.h), and the N queens board of the nqueens tests. */
#ifndef TESTS_ADAPT_TEST_H
#define TESTS_ADAPT_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <adapt/adapt.h>
#include <adapt/adaptive.h>
#include <adapt/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker_threads.h"

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

/* 1 in the ThreadSanitizer variant: where a race test runs fewer trials
 * (each trial a handoff between threads, 5-15x slower under TSan; TSan sees
 * a race on the first trial that runs both sides of it). */
static inline int adapt_test_tsan(void) {
  const char *v = getenv("ADAPT_TEST_VARIANT");
  return v && strcmp(v, "tsan") == 0;
}

/* The trial count of a race test: n_release in release, n_asan under
 * AddressSanitizer, n_tsan under ThreadSanitizer. */
static inline size_t adapt_test_trials(size_t n_release, size_t n_asan, size_t n_tsan) {
  return adapt_test_tsan() ? n_tsan : adapt_test_scale(n_release, n_asan);
}

/* 1 when a matrix of cases may leave out its runs on n workers in this
 * variant. Under ThreadSanitizer the matrices (whose worker lists are
 * {1, 2, 3, 8} or {2, 3, 8}) run 2 workers (a pair: one thief) and 8 (four
 * per CPU: several thieves at once, requests answered together), where the
 * races live; they leave out 1 (nothing runs concurrently) and 3 (uneven
 * splits: a question of results, which the release and asan variants check
 * on every count). Every other variant runs every case. */
static inline int adapt_test_skip_workers(int n) { return (n == 1 || n == 3) && adapt_test_tsan(); }

/* (Re)start the runtime with n workers; returns adapt_init's code. */
static inline int adapt_test_workers(int n) {
  adapt_finalize();
  adapt_config cfg = {0};
  cfg.workers = n;
  return adapt_init(&cfg);
}

/* adapt_test_workers(n) with lazy spawns (eager 0: ADAPT_SPAWN_KEEP unset,
 * the default) or with every spawned task pushed (eager 1:
 * ADAPT_SPAWN_KEEP=0: the deque's capacity and its full path reachable,
 * tasks that wait for one another possible with as many workers). */
static inline int adapt_test_workers_spawn(int n, int eager) {
  if (eager) setenv("ADAPT_SPAWN_KEEP", "0", 1);
  int rc = adapt_test_workers(n);
  unsetenv("ADAPT_SPAWN_KEEP");
  return rc;
}

/* adapt_for(0, n, body, ctx) under scheduler s (ADAPT_SCHED_DEFAULT: the
 * default) with grain g (0: the default); returns its code. */
static inline int adapt_test_for(adapt_sched s, size_t g, size_t n,
                                 void (*body)(size_t b, size_t e, void *ctx), void *ctx) {
  adapt_attr a = {0};
  a.sched = s;
  a.grain = g;
  return adapt_for(0, n, body, ctx, &a);
}

/* N queens, a board being the column of the queen of each row: 1 if a
 * queen fits at column c of row `row` under the queens of cols[0..row),
 * and then next[0..row] is the board with it; 0 if it does not. */
static inline int adapt_test_queen_next(const signed char *cols, int row, int c,
                                        signed char *next) {
  for (int r = 0; r < row; r++) {
    int d = cols[r] - c;
    if (d == 0 || d == row - r || d == r - row) return 0;
  }
  memcpy(next, cols, (size_t)row);
  next[row] = (signed char)c;
  return 1;
}

/* The teardown of every test: stop the runtime, then check that no worker
 * thread is left behind (a joined one may linger in /proc for a moment:
 * worker_threads.h). */
static inline int adapt_test_teardown(void **state) {
  adapt_finalize();
  assert_int_equal(adapt_test_worker_threads_settled(1000), 0);
  return 0;
}

/* The setup of a test that starts on a fixed number of workers: the
 * runtime (re)started with the count the test's initial state holds (see
 * ADAPT_TEST_WORKERS). */
static inline int adapt_test_setup_workers(void **state) {
  return adapt_test_workers((int)(intptr_t)*state) == 0 ? 0 : -1;
}

/* Registration: a test with the shared teardown; the same started on n
 * workers by the shared setup. */
#define ADAPT_TEST(f) cmocka_unit_test_teardown(f, adapt_test_teardown)
#define ADAPT_TEST_WORKERS(f, n)                                                                   \
  cmocka_unit_test_prestate_setup_teardown(f, adapt_test_setup_workers, adapt_test_teardown,       \
                                           (void *)(intptr_t)(n))

/* A range [begin, end) and a task over it whose entry and splitter do
 * nothing: frames that only begin and end (the misuse and reliability
 * tests of frame handling). */
typedef struct adapt_test_range {
  size_t begin, end;
} adapt_test_range;

static inline void adapt_test_inert_entry(adapt_frame *f, void *w, void *c) {
  (void)f, (void)w, (void)c;
}
static inline void adapt_test_inert_split(adapt_frame *f, void *w, int n, adapt_reply_set *r,
                                          void *c) {
  (void)f, (void)w, (void)n, (void)r, (void)c;
}
static inline adapt_task adapt_test_inert_task(void) {
  const adapt_task t = {adapt_test_inert_entry, adapt_test_inert_split, NULL,
                        sizeof(adapt_test_range), NULL};
  return t;
}

/* Runs a file's n tests as the group `name`. ADAPT_TEST_FILTER="*pattern*"
 * runs the matching tests only (while debugging, e.g. one scheduler's
 * cases; make test sets no filter and runs them all). */
static inline int adapt_test_run_n(const char *name, const struct CMUnitTest *tests, size_t n) {
  const char *filter = getenv("ADAPT_TEST_FILTER");
  if (filter && *filter) cmocka_set_test_filter(filter);
  return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
}
#define adapt_test_run(name, tests) adapt_test_run_n(name, tests, sizeof tests / sizeof *tests)

/* The main of a test file: runs the tests given (ADAPT_TEST,
 * ADAPT_TEST_WORKERS entries) as the group `name`. */
#define ADAPT_TEST_MAIN(name, ...)                                                                 \
  int main(void) {                                                                                 \
    const struct CMUnitTest tests[] = {__VA_ARGS__};                                               \
    return adapt_test_run(name, tests);                                                            \
  }

#endif /* TESTS_ADAPT_TEST_H */
