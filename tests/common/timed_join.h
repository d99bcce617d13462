/* Threads joined with a time limit, and adapt_finalize on a thread of its
 * own waited for so: shared by the tests that check that a finalize or a
 * thread ends in bounded time (test_misuse.c, test_reliability.c). */
#ifndef TESTS_COMMON_TIMED_JOIN_H
#define TESTS_COMMON_TIMED_JOIN_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "adapt_test.h" /* cmocka, <adapt/adapt.h> */

/* Joins t if it ends within limit_s seconds: 0 (its return value in *ret
 * if ret is not NULL), else pthread_timedjoin_np's error (ETIMEDOUT: t is
 * left running, still to be joined). */
static inline int adapt_test_join_within(pthread_t t, void **ret, int limit_s) {
  struct timespec limit;
  clock_gettime(CLOCK_REALTIME, &limit);
  limit.tv_sec += limit_s;
  return pthread_timedjoin_np(t, ret, &limit);
}

typedef struct adapt_test_finalizer {
  pthread_t t;
  double ms; /* how long adapt_finalize took; -1 until it returned */
} adapt_test_finalizer;

static inline double adapt_test_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline void *adapt_test_finalizer_main(void *arg) {
  adapt_test_finalizer *f = arg;
  double t0 = adapt_test_now_ms();
  adapt_finalize();
  f->ms = adapt_test_now_ms() - t0;
  return NULL;
}

/* Starts adapt_finalize on a thread of its own (failing the test if it
 * cannot) and waits at most limit_s seconds for it: 0 once that thread has
 * returned and been joined (f->ms: how long the finalize took), else
 * pthread_timedjoin_np's error: the finalize still runs, and the caller
 * makes it end (stops the threads that keep it waiting) and joins f->t. */
static inline int adapt_test_finalize_within(adapt_test_finalizer *f, int limit_s) {
  f->ms = -1;
  assert_int_equal(pthread_create(&f->t, NULL, adapt_test_finalizer_main, f), 0);
  return adapt_test_join_within(f->t, NULL, limit_s);
}

/* A finalize while other threads keep starting regions: n <= 8 threads
 * run thread_main((void *)k), k < n, each adding 1 to *started once running, then
 * looping until *stop; settle_us after all have started, adapt_finalize
 * runs on a thread of its own, which must return within limit_s seconds
 * (else the test fails, once *stop has made it end). Then *stop is set and
 * every thread joined (each within limit_s). Returns how long the finalize
 * took, in ms. */
static inline double adapt_test_finalize_under_load(int n, void *(*thread_main)(void *),
                                                    atomic_int *started, atomic_int *stop,
                                                    unsigned settle_us, int limit_s) {
  pthread_t t[8];
  assert_true(n >= 1 && n <= 8);
  atomic_store(stop, 0);
  atomic_store(started, 0);
  for (intptr_t k = 0; k < n; k++)
    assert_int_equal(pthread_create(&t[k], NULL, thread_main, (void *)k), 0);
  while (atomic_load(started) < n) sched_yield();
  usleep(settle_us);
  adapt_test_finalizer f;
  int rc = adapt_test_finalize_within(&f, limit_s);
  atomic_store(stop, 1); /* a finalize that still waits then ends too */
  for (int k = 0; k < n; k++) assert_int_equal(adapt_test_join_within(t[k], NULL, limit_s), 0);
  if (rc != 0) assert_int_equal(adapt_test_join_within(f.t, NULL, limit_s), 0);
  assert_int_equal(rc, 0);
  return f.ms;
}

#endif /* TESTS_COMMON_TIMED_JOIN_H */
