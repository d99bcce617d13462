/* Loop frames (libadapt/src/loopframe.h, OpenCilk thesis ch. 3), driven
 * directly on a standalone deque: the owner's strip-mined claims (lf_next)
 * cover [lo, hi) exactly, last partial chunk included; a thief's split under
 * the deque lock takes the upper part and the owner stops at the split
 * point; empty frames and one-iteration-left frames; ranges that end at
 * SIZE_MAX; then the races of thesis Fig. 3-2 with real threads (owner
 * claiming while one or two thieves split, one iteration left with owner and
 * thief together), every index exactly once. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "adapt_test.h"
#include "../../libadapt/src/deque.h"     /* white-box */
#include "../../libadapt/src/loopframe.h" /* white-box */

static adapt__deque dq;

/* Each test gets a fresh deque; then the shared teardown. */
static int setup(void **state) { return adapt__deque_init(&dq) == 0 ? 0 : -1; }
static int teardown(void **state) {
  adapt__deque_fini(&dq);
  return adapt_test_teardown(state);
}

/* Thief's split of f, under the deque lock as the protocol requires. */
static int split_locked(adapt__loopframe *f, size_t *lo, size_t *hi) {
  adapt__deque_lock(f->dq);
  int r = adapt__lf_split(f, lo, hi);
  adapt__deque_unlock(f->dq);
  return r;
}

static const char *split_name(int r) {
  switch (r) {
  case ADAPT__SPLIT_FAIL: return "FAIL";
  case ADAPT__SPLIT_KEEP: return "KEEP";
  case ADAPT__SPLIT_LAST: return "LAST";
  case ADAPT__SPLIT_DROP: return "DROP";
  default: return "?";
  }
}

/* Single thread: lf_next alone claims [lo, lo+G), [lo+G, lo+2G), ... and a
 * last partial chunk, in order, then reports the frame empty. */
static void check_next_only(size_t lo, size_t n, size_t g) {
  adapt__loopframe f;
  adapt__lf_init(&f, lo, lo + n, g, &dq);
  size_t expect = lo, b, e, chunks = 0;
  while (adapt__lf_next(&f, &b, &e)) {
    size_t want_e = lo + n - expect < g ? lo + n : expect + g;
    if (b != expect || e != want_e)
      fprintf(stderr, "lf_next lo=%zu n=%zu G=%zu: chunk %zu is [%zu,%zu), expected [%zu,%zu)\n",
              lo, n, g, chunks, b, e, expect, want_e);
    assert_int_equal(b, expect);
    assert_int_equal(e, want_e);
    expect = e;
    assert_true(++chunks <= n); /* no endless claims past the end */
  }
  if (expect != lo + n)
    fprintf(stderr, "lf_next lo=%zu n=%zu G=%zu: stopped at %zu, %zu iterations left out\n", lo, n,
            g, expect, lo + n - expect);
  assert_int_equal(expect, lo + n);
  assert_int_equal(chunks, (n + g - 1) / g);
  /* nothing left for a thief either */
  size_t plo, phi;
  assert_int_equal(split_locked(&f, &plo, &phi), ADAPT__SPLIT_DROP);
}

static const size_t g_list[] = {1, 2, 3, 7, 100};
static const size_t n_list[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 17, 100, 1001};

static void test_next_covers(void **state) {
  for (size_t gi = 0; gi < sizeof g_list / sizeof *g_list; gi++)
    for (size_t ni = 0; ni < sizeof n_list / sizeof *n_list; ni++) {
      size_t n = n_list[ni], g = g_list[gi];
      check_next_only(0, n, g);
      check_next_only(12345, n, g);
      check_next_only(SIZE_MAX - n, n, g); /* claims must not wrap around */
    }
}

/* Single thread: a split of a fresh frame takes the upper part [m, hi) with
 * m = lo + max(G, n/2) when n > G (loopframe.h), everything when n <= G; the
 * owner then stops at m. */
static void check_fresh_split(size_t lo, size_t n, size_t g) {
  adapt__loopframe f;
  adapt__lf_init(&f, lo, lo + n, g, &dq);
  size_t plo = 0, phi = 0;
  int r = split_locked(&f, &plo, &phi);
  size_t m;
  if (n == 0) {
    assert_int_equal(r, ADAPT__SPLIT_DROP);
    m = lo;
  } else if (n <= g) {
    if (r != ADAPT__SPLIT_LAST)
      fprintf(stderr, "fresh split lo=%zu n=%zu G=%zu: %s, expected LAST\n", lo, n, g,
              split_name(r));
    assert_int_equal(r, ADAPT__SPLIT_LAST);
    assert_int_equal(plo, lo);
    assert_int_equal(phi, lo + n);
    m = lo;
  } else {
    m = lo + (g > n / 2 ? g : n / 2);
    if (r != ADAPT__SPLIT_KEEP || plo != m || phi != lo + n)
      fprintf(stderr, "fresh split lo=%zu n=%zu G=%zu: %s [%zu,%zu), expected KEEP [%zu,%zu)\n", lo,
              n, g, split_name(r), plo, phi, m, lo + n);
    assert_int_equal(r, ADAPT__SPLIT_KEEP);
    assert_int_equal(plo, m);
    assert_int_equal(phi, lo + n);
  }
  /* the owner runs [lo, m) in chunks of at most G, and stops there */
  size_t expect = lo, b, e;
  while (adapt__lf_next(&f, &b, &e)) {
    if (b != expect || !(e > b && e - b <= g && e <= m))
      fprintf(
          stderr,
          "after a split at %zu (lo=%zu n=%zu G=%zu): owner chunk [%zu,%zu), expected [%zu,..)\n",
          m, lo, n, g, b, e, expect);
    assert_int_equal(b, expect);
    assert_true(e > b && e - b <= g && e <= m);
    expect = e;
  }
  assert_int_equal(expect, m);
  assert_int_equal(split_locked(&f, &plo, &phi), ADAPT__SPLIT_DROP);
}

static void test_split_fresh(void **state) {
  for (size_t gi = 0; gi < sizeof g_list / sizeof *g_list; gi++)
    for (size_t ni = 0; ni < sizeof n_list / sizeof *n_list; ni++) {
      check_fresh_split(0, n_list[ni], g_list[gi]);
      check_fresh_split(999, n_list[ni], g_list[gi]);
      check_fresh_split(SIZE_MAX - n_list[ni], n_list[ni], g_list[gi]);
    }
}

/* Single thread: the owner claims until exactly one iteration is left, then
 * a thief splits: it takes that iteration (LAST) and the owner finds the
 * frame empty; a second split finds it exhausted (DROP). */
static void test_split_one_left(void **state) {
  for (size_t g = 1; g <= 4; g++)
    for (size_t k = 0; k < 4; k++) {
      size_t n = k * g + 1, lo = 40, b, e, plo, phi;
      adapt__loopframe f;
      adapt__lf_init(&f, lo, lo + n, g, &dq);
      for (size_t c = 0; c < k; c++) {
        assert_int_equal(adapt__lf_next(&f, &b, &e), 1);
        assert_int_equal(b, lo + c * g);
        assert_int_equal(e, lo + (c + 1) * g);
      }
      int r = split_locked(&f, &plo, &phi);
      if (r != ADAPT__SPLIT_LAST)
        fprintf(stderr, "one left G=%zu k=%zu: %s\n", g, k, split_name(r));
      assert_int_equal(r, ADAPT__SPLIT_LAST);
      assert_int_equal(plo, lo + n - 1);
      assert_int_equal(phi, lo + n);
      assert_int_equal(adapt__lf_next(&f, &b, &e), 0);
      assert_int_equal(split_locked(&f, &plo, &phi), ADAPT__SPLIT_DROP);
    }
  /* and the other way round: the owner claims the last iteration, the thief
   * finds nothing */
  for (size_t g = 1; g <= 3; g++) {
    size_t b, e, plo, phi;
    adapt__loopframe f;
    adapt__lf_init(&f, 7, 8, g, &dq);
    assert_int_equal(adapt__lf_next(&f, &b, &e), 1);
    assert_int_equal(b, 7);
    assert_int_equal(e, 8);
    assert_int_equal(split_locked(&f, &plo, &phi), ADAPT__SPLIT_DROP);
    assert_int_equal(adapt__lf_next(&f, &b, &e), 0);
  }
}

/* Single thread, random interleavings of claims and splits (a thief's piece
 * is itself a frame that later thieves split): every index exactly once,
 * owner chunks of at most G, never FAIL (nothing runs concurrently), LAST
 * and DROP only when the frame is really exhausted. */
static unsigned xorshift(unsigned *s) {
  unsigned x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static void test_split_random_sequential(void **state) {
  enum { NMAX = 300, FMAX = 64 };
  unsigned char hits[NMAX];
  unsigned seed = 2463534242u;
  size_t trials = adapt_test_scale(4000, 1000);
  for (size_t t = 0; t < trials; t++) {
    size_t n = xorshift(&seed) % NMAX, g = 1 + xorshift(&seed) % 5;
    size_t lo = (t & 1) ? SIZE_MAX - n : 100;
    memset(hits, 0, n);
    adapt__loopframe fr[FMAX];
    int live[FMAX] = {0}, nf = 1;
    adapt__lf_init(&fr[0], lo, lo + n, g, &dq);
    live[0] = 1;
    for (;;) {
      int any = 0;
      for (int i = 0; i < nf; i++) any |= live[i];
      if (!any) break;
      int i = (int)(xorshift(&seed) % (unsigned)nf);
      if (!live[i]) continue;
      size_t b, e;
      if (xorshift(&seed) % 3 || nf == FMAX) { /* owner of frame i claims */
        if (!adapt__lf_next(&fr[i], &b, &e)) {
          live[i] = 0;
          continue;
        }
        assert_true(b < e && e - b <= g && b >= lo && e - lo <= n);
        for (size_t x = b; x < e; x++) hits[x - lo]++;
      } else { /* a thief splits frame i; its piece becomes a new frame */
        int r = split_locked(&fr[i], &b, &e);
        assert_int_not_equal(r, ADAPT__SPLIT_FAIL);
        if (r == ADAPT__SPLIT_DROP) continue; /* the owner will find it empty too */
        assert_true(b < e && b >= lo && e - lo <= n);
        adapt__lf_init(&fr[nf], b, e, g, &dq);
        live[nf++] = 1;
        if (r == ADAPT__SPLIT_LAST) { /* the owner has nothing left */
          size_t b2, e2;
          assert_int_equal(adapt__lf_next(&fr[i], &b2, &e2), 0);
          live[i] = 0;
        }
      }
    }
    for (size_t x = 0; x < n; x++) {
      if (hits[x] != 1)
        fprintf(stderr, "random sequential trial %zu n=%zu G=%zu: index %zu run %d times\n", t, n,
                g, x, hits[x]);
      assert_int_equal(hits[x], 1);
    }
  }
}

/* --- Races (thesis Fig. 3-2): one owner, one or two thief threads ------ */

enum { RACE_NMAX = 64, MAX_THIEVES = 2 };

typedef struct race {
  adapt__loopframe f;
  atomic_uchar hits[RACE_NMAX];
  size_t lo, n, g;
  atomic_uint go;      /* trial number the thieves may start */
  atomic_uint arrived; /* thieves that saw this trial's go (count) */
  atomic_uint done;    /* thieves finished with this trial (count) */
  atomic_uint stop;    /* end of the test */
  atomic_int bad;      /* a thief saw an impossible result */
  atomic_ulong fails, keeps, lasts, drops, owner_chunks, thief_pieces;
  unsigned long one_left_owner, one_left_thief; /* n = 1: who ran it */
  unsigned delay_max;                           /* thieves' random delays, spin iterations */
  unsigned owner_delay;                         /* the owner's */
} race;

static void spin(unsigned iters) {
  for (volatile unsigned i = 0; i < iters; i++) {}
}

static void mark(race *r, size_t b, size_t e) {
  for (size_t x = b; x < e; x++)
    atomic_fetch_add_explicit(&r->hits[x - r->lo], 1, memory_order_relaxed);
}

typedef struct thief_arg {
  race *r;
  unsigned seed;
} thief_arg;

static void *thief_main(void *p) {
  thief_arg *ta = p;
  race *r = ta->r;
  unsigned seen = 0;
  for (;;) {
    unsigned t;
    int waits = 0;
    /* acquire: pairs with the owner's release store of go after it set up
     * the frame and cleared the counters */
    while ((t = atomic_load_explicit(&r->go, memory_order_acquire)) == seen) {
      if (atomic_load_explicit(&r->stop, memory_order_acquire)) return NULL;
      if (++waits > 64) sched_yield();
    }
    seen = t;
    /* release: pairs with the owner's acquire load of arrived (nothing to
     * publish: the owner waits for the thieves to run before it claims) */
    atomic_fetch_add_explicit(&r->arrived, 1, memory_order_release);
    spin(xorshift(&ta->seed) % (r->delay_max + 1));
    for (;;) {
      size_t b = 0, e = 0;
      int s = split_locked(&r->f, &b, &e);
      if (s == ADAPT__SPLIT_FAIL) {
        atomic_fetch_add_explicit(&r->fails, 1, memory_order_relaxed);
        continue; /* the owner's claim won: try again */
      }
      if (s == ADAPT__SPLIT_DROP) {
        atomic_fetch_add_explicit(&r->drops, 1, memory_order_relaxed);
        break;
      }
      if (s != ADAPT__SPLIT_KEEP && s != ADAPT__SPLIT_LAST) {
        atomic_store_explicit(&r->bad, 1, memory_order_relaxed);
        break;
      }
      if (!(b < e && b >= r->lo && e - r->lo <= r->n)) {
        atomic_store_explicit(&r->bad, 2, memory_order_relaxed);
        break;
      }
      atomic_fetch_add_explicit(&r->thief_pieces, 1, memory_order_relaxed);
      mark(r, b, e);
      if (s == ADAPT__SPLIT_LAST) {
        atomic_fetch_add_explicit(&r->lasts, 1, memory_order_relaxed);
        break;
      }
      atomic_fetch_add_explicit(&r->keeps, 1, memory_order_relaxed);
      spin(xorshift(&ta->seed) % (r->delay_max + 1));
    }
    /* release: pairs with the owner's acquire load of done before it
     * checks the hits */
    atomic_fetch_add_explicit(&r->done, 1, memory_order_release);
  }
}

/* A case stops after RACE_CASE_SECONDS once it has run a hundredth of its
 * trials: alone a case takes about 0.05 s and is never cut, but on a
 * loaded machine each handoff can wait for a compiler's time slice
 * (sched_yield gives the CPU to any runnable task): a release run beside
 * three compilers once took 374 s for 540,000 trials, and with a twentieth
 * and 0.5 s its 54 cases still took 60 s of wall clock for 6 s of CPU in
 * make test, where the programs run one at a time beside the builds. */
#define RACE_CASE_SECONDS 0.2
#define RACE_CASE_MIN_PART 100 /* at least 1/RACE_CASE_MIN_PART of the trials */

static double seconds_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* 1 while case trial t of trials_per_case (begun at t0) should go on. */
static int race_case_goes_on(size_t t, size_t trials_per_case, const struct timespec *t0,
                             unsigned *cut) {
  if (t >= trials_per_case) return 0;
  if (t < trials_per_case / RACE_CASE_MIN_PART || t % 64 != 0 ||
      seconds_since(t0) < RACE_CASE_SECONDS)
    return 1;
  ++*cut;
  return 0;
}

static void run_races(int nthieves, size_t trials_per_case) {
  static const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 13, 33};
  race *r = calloc(1, sizeof *r);
  assert_non_null(r);
  pthread_t th[MAX_THIEVES];
  thief_arg ta[MAX_THIEVES];
  for (int k = 0; k < nthieves; k++) {
    ta[k].r = r;
    ta[k].seed = 0x9e3779b9u * (unsigned)(k + 1);
    assert_int_equal(pthread_create(&th[k], NULL, thief_main, &ta[k]), 0);
  }
  unsigned seed = 88172645u, trial = 0, cut = 0;
  for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
    for (size_t g = 1; g <= 3; g++) {
      struct timespec t0;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      for (size_t t = 0; race_case_goes_on(t, trials_per_case, &t0, &cut); t++) {
        size_t n = ns[ni];
        r->n = n;
        r->g = g;
        r->lo = (t & 1) ? SIZE_MAX - n : 1000;
        /* random delays on both sides (long, short, none: owner and thief
         * together on the last iterations), or on the owner's side only,
         * so that thieves often arrive first */
        r->delay_max = (t % 4 == 0) ? 2000 : (t % 4 == 1 ? 64 : 0);
        r->owner_delay = t % 4 == 3 ? 3000 : r->delay_max;
        for (size_t x = 0; x < n; x++) atomic_store_explicit(&r->hits[x], 0, memory_order_relaxed);
        atomic_store_explicit(&r->done, 0, memory_order_relaxed);
        atomic_store_explicit(&r->arrived, 0, memory_order_relaxed);
        adapt__lf_init(&r->f, r->lo, r->lo + n, g, &dq);
        /* release: pairs with the thieves' acquire load of go */
        atomic_store_explicit(&r->go, ++trial, memory_order_release);
        /* Every other group of 4 trials, the thieves running before the
         * owner claims: on a loaded machine (or under a sanitizer) a thief
         * still asleep when go is set would find the frame done and race
         * nothing; the other groups leave the start to the scheduler (the
         * side that runs first often finishes before the other starts). */
        if ((t / 4) % 2) {
          int arrive_waits = 0;
          /* acquire: pairs with the thieves' release increments of arrived */
          while (atomic_load_explicit(&r->arrived, memory_order_acquire) != (unsigned)nthieves)
            if (++arrive_waits > 64) sched_yield();
        }
        spin(xorshift(&seed) % (r->owner_delay + 1));
        size_t b, e, bad_chunk = 0, bad_b = 0, bad_e = 0;
        int owner_ran = 0;
        while (adapt__lf_next(&r->f, &b, &e)) {
          owner_ran = 1;
          if (!(b < e && b >= r->lo && e - r->lo <= n)) { /* outside the frame */
            bad_chunk = 1;
            bad_b = b;
            bad_e = e;
            break;
          }
          mark(r, b, e);
          if (e - b > g && !bad_chunk) { /* more than G indices in one chunk */
            bad_chunk = 2;
            bad_b = b;
            bad_e = e;
          }
          atomic_fetch_add_explicit(&r->owner_chunks, 1, memory_order_relaxed);
          spin(xorshift(&seed) % (r->owner_delay + 1));
        }
        int waits = 0;
        /* acquire: pairs with the thieves' release increments of done */
        while (atomic_load_explicit(&r->done, memory_order_acquire) != (unsigned)nthieves)
          if (++waits > 64) sched_yield();
        if (bad_chunk == 1)
          fprintf(
              stderr,
              "race thieves=%d n=%zu G=%zu trial %zu: owner chunk [%zu,%zu) outside [%zu,%zu)\n",
              nthieves, n, g, t, bad_b, bad_e, r->lo, r->lo + n);
        assert_int_not_equal(bad_chunk, 1);
        if (atomic_load(&r->bad))
          fprintf(stderr, "race n=%zu G=%zu trial %zu: thief saw a bad split (%d)\n", n, g, t,
                  atomic_load(&r->bad));
        assert_int_equal(atomic_load(&r->bad), 0);
        if (n == 1) {
          if (owner_ran)
            r->one_left_owner++;
          else
            r->one_left_thief++;
        }
        for (size_t x = 0; x < n; x++) {
          unsigned h = atomic_load_explicit(&r->hits[x], memory_order_relaxed);
          if (h != 1)
            fprintf(stderr, "race thieves=%d n=%zu G=%zu trial %zu: index %zu run %u times\n",
                    nthieves, n, g, t, x, h);
          assert_int_equal(h, 1);
        }
        if (bad_chunk)
          fprintf(stderr, "race thieves=%d n=%zu G=%zu trial %zu: owner chunk [lo+%zu,lo+%zu) %s\n",
                  nthieves, n, g, t, bad_b - r->lo, bad_e - r->lo, "longer than G");
        assert_int_equal(bad_chunk, 0);
      }
    }
  atomic_store_explicit(&r->stop, 1, memory_order_release);
  for (int k = 0; k < nthieves; k++) pthread_join(th[k], NULL);
  fprintf(stderr,
          "  [%d thief/thieves, %u trials, %u of 27 cases cut at %.1f s] owner chunks %lu, thief "
          "pieces %lu (keep %lu, last "
          "%lu), drop %lu, lost races (FAIL) %lu; one iteration: owner ran it %lu times, "
          "a thief %lu times\n",
          nthieves, trial, cut, RACE_CASE_SECONDS, atomic_load(&r->owner_chunks),
          atomic_load(&r->thief_pieces), atomic_load(&r->keeps), atomic_load(&r->lasts),
          atomic_load(&r->drops), atomic_load(&r->fails), r->one_left_owner, r->one_left_thief);
  free(r);
}

static void test_race_one_thief(void **state) {
  run_races(1, adapt_test_trials(20000, 3000, 1000));
}
static void test_race_two_thieves(void **state) {
  run_races(2, adapt_test_trials(6000, 1000, 400));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_next_covers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_split_fresh, setup, teardown),
      cmocka_unit_test_setup_teardown(test_split_one_left, setup, teardown),
      cmocka_unit_test_setup_teardown(test_split_random_sequential, setup, teardown),
      cmocka_unit_test_setup_teardown(test_race_one_thief, setup, teardown),
      cmocka_unit_test_setup_teardown(test_race_two_thieves, setup, teardown),
  };
  return adapt_test_run("loopframe", tests);
}
