/* Helpers shared by the tests of the sequence algorithms (test_algo_*.c):
 * the matrix of window modes x splitters x workers x grains x sizes and its
 * test, the attributes of one case, and the hash that makes their data. */
#ifndef TESTS_ALGO_TEST_H
#define TESTS_ALGO_TEST_H

#include <adapt/algorithms.h>
#include <stdint.h>
#include <stdio.h>

#include "adapt_test.h"

typedef struct algo_mode {
  adapt_window_mode window;
  adapt_window_splitter splitter;
  const char *name;
} algo_mode;

static const algo_mode algo_modes[] = {
    {ADAPT_WINDOW_NONE, ADAPT_SPLITTER_DEFAULT, "none"},
    {ADAPT_WINDOW_STATIC, ADAPT_SPLITTER_DEFAULT, "static"},
    {ADAPT_WINDOW_SLIDING, ADAPT_SPLITTER_LOCAL, "sliding-local"},
    {ADAPT_WINDOW_SLIDING, ADAPT_SPLITTER_DISTANT, "sliding-distant"},
    {ADAPT_WINDOW_SLIDING, ADAPT_SPLITTER_BALANCED, "sliding-balanced"},
};
#define ALGO_NMODES (sizeof algo_modes / sizeof *algo_modes)

static const int algo_workers[] = {1, 2, 3, 8};
#define ALGO_NWORKERS (sizeof algo_workers / sizeof *algo_workers)

/* 0: automatic grain. */
static const size_t algo_grains[] = {0, 1, 7, 64, 4096};
#define ALGO_NGRAINS (sizeof algo_grains / sizeof *algo_grains)

/* Window sizes cycled over the cases (elements). */
static const size_t algo_windows[] = {97, 1, 4096, 0 /* default formula */};
#define ALGO_NWINDOWS (sizeof algo_windows / sizeof *algo_windows)

/* A 64-bit mixing function (MurmurHash3's finalizer): the test data. */
static inline uint64_t algo_mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

/* The attributes of a mode with window size m (elements) and grain (0:
 * the defaults). */
static inline adapt_attr algo_attr(const algo_mode *mode, size_t m, size_t grain) {
  adapt_attr a = {0};
  a.window = mode->window;
  a.splitter = mode->splitter;
  a.window_size = m;
  a.grain = grain;
  return a;
}

/* One case of the matrix. */
typedef struct algo_case {
  adapt_attr attr;
  size_t n;
  int workers;
  const algo_mode *mode;
} algo_case;

static inline void algo_case_print(const algo_case *c, const char *what) {
  fprintf(stderr, "%s: workers=%d mode=%s grain=%zu window=%zu n=%zu\n", what, c->workers,
          c->mode->name, c->attr.grain, c->attr.window_size, c->n);
}

/* The grains of the large size: the automatic one, the finest and a coarse
 * one (indexes into algo_grains). */
static const size_t algo_big_grains[] = {0, 1, 4};
#define ALGO_NBIG_GRAINS (sizeof algo_big_grains / sizeof *algo_big_grains)

/* Whether the large size runs for workers wi, mode mi and grain gi: for one
 * grain of algo_big_grains per (workers, mode), chosen so that every pair of
 * the three factors meets at the large size (workers x mode, workers x grain,
 * mode x grain: a pairwise covering array, 20 cases instead of 60). Every
 * triple still meets at the smaller sizes. */
static inline int algo_big_case(size_t wi, size_t mi, size_t gi) {
  return gi == algo_big_grains[(wi + mi) % ALGO_NBIG_GRAINS];
}

/* Every workers x mode x grain triple runs at the sizes up to this one; the
 * sizes between it and mid (100003 in release) run where algo_mid_case says. */
#define ALGO_TRIPLE_MAX 10007

/* Whether a size above ALGO_TRIPLE_MAX (and up to mid) runs for workers wi,
 * mode mi and grain gi: two grains of the five per (workers, mode), chosen
 * so that every pair of the three factors meets (workers x mode: both
 * grains; workers x grain: 2 mi mod 5 runs over every residue as mi does;
 * mode x grain: wi + {0, 1} runs over 0..4 as wi runs over 0..3): 40 cases
 * instead of 100. These sizes differ from 10007 only in the number of
 * steals and window slides, which the pairs cover. */
static inline int algo_mid_case(size_t wi, size_t mi, size_t gi) {
  return (gi + ALGO_NGRAINS - (wi + 2 * mi) % ALGO_NGRAINS) % ALGO_NGRAINS < 2;
}

/* Calls fn(case, arg) for every workers x mode x grain x size of the list
 * up to ALGO_TRIPLE_MAX, for the sizes up to mid where algo_mid_case says,
 * and for the large size (big) where algo_big_case says. The runtime is
 * restarted for each worker count. Returns the number of failing cases (fn
 * returns non-zero on failure and prints the case). */
static inline size_t algo_matrix(size_t mid, size_t big, int (*fn)(const algo_case *c, void *arg),
                                 void *arg) {
  const size_t sizes[] = {0, 1, 2, 3, 17, 1009, 10007, 100003, big};
  const size_t nsizes = sizeof sizes / sizeof *sizes;
  size_t fails = 0, k = 0;
  for (size_t wi = 0; wi < ALGO_NWORKERS; wi++) {
    if (adapt_test_skip_workers(algo_workers[wi])) continue;
    if (adapt_test_workers(algo_workers[wi]) != 0) return 1;
    for (size_t mi = 0; mi < ALGO_NMODES; mi++)
      for (size_t gi = 0; gi < ALGO_NGRAINS; gi++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
          if (si + 1 == nsizes
                  ? !algo_big_case(wi, mi, gi)
                  : sizes[si] > mid || (sizes[si] > ALGO_TRIPLE_MAX && !algo_mid_case(wi, mi, gi)))
            continue;
          const size_t m = algo_windows[k++ % ALGO_NWINDOWS];
          algo_case c = {algo_attr(&algo_modes[mi], m, algo_grains[gi]), sizes[si],
                         algo_workers[wi], &algo_modes[mi]};
          if (fn(&c, arg)) fails++;
        }
  }
  return fails;
}

/* The sizes of the matrix: every triple up to ALGO_TRIPLE_MAX, the pairs of
 * algo_mid_case up to mid (100003 elements in release, 10007 under the
 * sanitizers, 5-15x slower), those of algo_big_case at big (1000003 in
 * release, 100003 under the sanitizers). */
static inline size_t algo_mid(void) { return adapt_test_scale(100003, 10007); }
static inline size_t algo_big(void) { return adapt_test_scale(1000003, 100003); }

/* The test of one algorithm over the whole matrix, registered by
 * ALGO_MATRIX_TEST(name, fn) with the shared teardown: its initial state
 * points to the case function fn. */
typedef int (*algo_case_fn)(const algo_case *c, void *arg);
static inline void algo_matrix_test(void **state) {
  assert_int_equal(algo_matrix(algo_mid(), algo_big(), *(const algo_case_fn *)*state, NULL), 0);
}
#define ALGO_MATRIX_TEST(name, fn)                                                                 \
  {                                                                                                \
#name, algo_matrix_test, NULL, adapt_test_teardown, (void *)&(const algo_case_fn) { fn }       \
  }

#endif /* TESTS_ALGO_TEST_H */
