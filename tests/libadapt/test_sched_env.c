/* The schedulers' environment, through adapt_for: DEFAULT resolved by
 * ADAPT_SCHED (every name, zeroed and NULL attributes, 1, 2, 3 and 8
 * workers); bad ADAPT_SCHED values, and an explicit attribute winning over
 * ADAPT_SCHED; ADAPT_GRAIN's bound on every scheduler and its bad values
 * (each in a fresh process with the variable set before adapt_init);
 * DEFAULT nested in a region: lazy-df2 without ADAPT_SCHED. */
#include <adapt/algorithms.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_test.h"

/* DEFAULT resolved through ADAPT_SCHED (read by adapt_init, so set before
 * the restart), with a zeroed attribute and with a NULL one. */
static void test_env_default(void **state) {
  const size_t sizes[] = {0, 1, 3, 17, 1000, large_size()};
  for (int s = 0; s < ADAPT_SCHED_COUNT; s++) {
    const char *name = adapt_sched_name((adapt_sched)s);
    assert_non_null(name);
    adapt_sched eff = s == ADAPT_SCHED_DEFAULT ? ADAPT_SCHED_ADAPTIVE : (adapt_sched)s;
    for (int wi = 0; wi < NWC; wi++) {
      int p = worker_counts[wi];
      adapt_finalize();
      setenv("ADAPT_SCHED", name, 1);
      int rc = adapt_test_workers(p);
      unsetenv("ADAPT_SCHED");
      assert_int_equal(rc, 0);
      for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        check_run(ADAPT_SCHED_DEFAULT, eff, 0, 0, sizes[si], 7, p);
        check_run(ADAPT_SCHED_DEFAULT, eff, 0, 99, sizes[si], 0, p);
        check_run(ADAPT_SCHED_DEFAULT, eff, 1, 5, sizes[si], 0, p); /* NULL attr */
      }
    }
  }
}

/* Bad ADAPT_SCHED values, and an explicit attribute against ADAPT_SCHED. */
static void test_env_errors(void **state) {
  atomic_int calls = 0;
  /* bad ADAPT_SCHED: adapt_init reads it, so the runtime must start anew */
  static const char *bad_env[] = {"bogus", "lazy", "lazy-df3", "dac ", " dac", "static,dac", "8"};
  for (size_t k = 0; k < sizeof bad_env / sizeof *bad_env; k++) {
    adapt_finalize();
    setenv("ADAPT_SCHED", bad_env[k], 1);
    adapt_attr a = {0};
    int rc1 = adapt_for(0, 10, count_calls, &calls, NULL);
    int rc2 = adapt_for(0, 10, count_calls, &calls, &a);
    unsetenv("ADAPT_SCHED");
    if (rc1 != -EINVAL || rc2 != -EINVAL)
      fprintf(stderr, "ADAPT_SCHED=\"%s\": adapt_for returned %d / %d\n", bad_env[k], rc1, rc2);
    assert_int_equal(rc1, -EINVAL);
    assert_int_equal(rc2, -EINVAL);
    assert_int_equal(atomic_load(&calls), 0);
  }
  assert_int_equal(adapt_for(0, 10, count_calls, &calls, NULL), 0); /* starts again */
  assert_true(atomic_load(&calls) >= 1);
  /* an explicit attribute wins over ADAPT_SCHED: static from the
   * environment would make P blocks of 50, dac with grain 1 makes calls of
   * one index */
  adapt_finalize();
  setenv("ADAPT_SCHED", "static", 1);
  int rc = adapt_test_workers(2);
  unsetenv("ADAPT_SCHED");
  assert_int_equal(rc, 0);
  check_run(ADAPT_SCHED_DAC, ADAPT_SCHED_DAC, 0, 0, 100, 1, 2);
  check_run(ADAPT_SCHED_DEFAULT, ADAPT_SCHED_STATIC, 0, 0, 100, 1, 2);
}

/* A nested loop with no attribute (the inline plain loop on one worker:
 * its grain is ADAPT_GRAIN's) over r, from an outer loop's body. */
static void nested_rec_body(size_t b, size_t e, void *ctx) {
  run_rec *r = ctx;
  if (adapt_for(0, r->n, rec_body, r, NULL) != 0) atomic_fetch_add(&r->bad, 1);
}

/* ADAPT_GRAIN is read once, by adapt_init: each case runs in a fresh copy
 * of this binary (main's --env-grain-child mode) with the variable set. */
static int env_grain_child(const char *value) {
  int fails = 0;
  atomic_int calls = 0;
  if (strcmp(value, "3") == 0) { /* every scheduler but static: calls of <= 3 */
    for (int s = 0; s < NSCHED; s++) {
      if (scheds[s] == ADAPT_SCHED_STATIC) continue;
      run_rec *r = calloc(1, sizeof *r);
      size_t n = 10007;
      r->n = n;
      r->nworkers = 2;
      r->hits = calloc(n, 1);
      r->slot = malloc(n * sizeof *r->slot);
      adapt_attr a = {0};
      a.sched = scheds[s];
      if (adapt_test_workers(2) || adapt_for(0, n, rec_body, r, &a) || count_not_once(r->hits, n) ||
          atomic_load(&r->bad) || atomic_load(&r->maxlen) > 3) {
        fprintf(stderr, "ADAPT_GRAIN=3, %s: a call covered %zu indices, or not exactly once\n",
                sname(scheds[s]), atomic_load(&r->maxlen));
        fails++;
      }
      free(r->slot);
      free(r->hits);
      free(r);
    }
    /* nested on one worker (inline): calls of <= 3 too */
    run_rec *r = calloc(1, sizeof *r);
    r->n = 1001;
    r->nworkers = 1;
    r->hits = calloc(r->n, 1);
    r->slot = malloc(r->n * sizeof *r->slot);
    if (adapt_test_workers(1) || adapt_for(0, 1, nested_rec_body, r, NULL) ||
        count_not_once(r->hits, r->n) || atomic_load(&r->bad) || atomic_load(&r->maxlen) != 3) {
      fprintf(stderr, "ADAPT_GRAIN=3, nested on one worker: widest call %zu, or not exactly once\n",
              atomic_load(&r->maxlen));
      fails++;
    }
    free(r->slot);
    free(r->hits);
    free(r);
  } else { /* a bad value: -EINVAL, nothing called (algorithms.h) */
    for (int s = 0; s < NSCHED; s++) {
      adapt_attr a = {0};
      a.sched = scheds[s];
      int rc = adapt_for(0, 100, count_calls, &calls, &a);
      if (rc != -EINVAL || !strstr(adapt_last_error(), "adapt_init: ADAPT_GRAIN=")) {
        fprintf(stderr, "ADAPT_GRAIN=\"%s\", %s: adapt_for returned %d (%s), expected -EINVAL\n",
                value, sname(scheds[s]), rc, adapt_last_error());
        fails++;
      }
    }
    if (atomic_load(&calls)) {
      fprintf(stderr, "ADAPT_GRAIN=\"%s\": the body was called\n", value);
      fails++;
    }
  }
  adapt_finalize();
  return fails ? 1 : 0;
}

static void test_env_grain(void **state) {
  static const char *values[] = {"3", "abc", "0", "-2", "3x"};
  adapt_finalize(); /* no worker thread across fork */
  int failed = 0;
  for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      setenv("ADAPT_GRAIN", values[k], 1);
      execl("/proc/self/exe", "test_sched", "--env-grain-child", values[k], (char *)NULL);
      _exit(127);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      fprintf(stderr, "ADAPT_GRAIN=\"%s\": child failed (status %d)\n", values[k], st);
      failed++;
    }
  }
  assert_int_equal(failed, 0);
}

/* The shared teardown, and no ADAPT_SCHED left to the next test. */
/* --- adapt_for's default inside a region -------------------------------- */

enum { N_OUTER = 6, N_INNER = 300 };

typedef struct nested_rec {
  atomic_uint hits[N_OUTER * N_INNER];
  atomic_int inner_rc[N_OUTER];
  int cancel_outer; /* this outer index's inner loop cancels itself; -1: none */
} nested_rec;

typedef struct inner_ctx {
  nested_rec *r;
  size_t outer;
} inner_ctx;

static void inner_body(size_t b, size_t e, void *p) {
  const inner_ctx *c = p;
  for (size_t i = b; i < e; i++) {
    BODY_CHECK(i < N_INNER);
    atomic_fetch_add_explicit(&c->r->hits[c->outer * N_INNER + i], 1, memory_order_relaxed);
    if ((int)c->outer == c->r->cancel_outer && i == 0) adapt_cancel();
  }
}

static void outer_body(size_t b, size_t e, void *p) {
  nested_rec *r = p;
  for (size_t o = b; o < e; o++) {
    inner_ctx c = {r, o};
    /* relaxed: adapt_for's join orders this store before the test's read */
    atomic_store_explicit(&r->inner_rc[o], adapt_for(0, N_INNER, inner_body, &c, NULL),
                          memory_order_relaxed);
  }
}

/* Runs the nested loops (both with the default scheduler) on p workers and
 * checks every inner index ran once (all of them but those of the cancelled
 * inner loop, which returned -ECANCELED); returns the splittable frames
 * begun (adapt_stats, summed over the workers). */
static uint64_t run_nested_default(int p, int cancel_outer) {
  nested_rec *r = calloc(1, sizeof *r);
  assert_non_null(r);
  r->cancel_outer = cancel_outer;
  reset_body_errors();
  adapt_stats_reset();
  assert_int_equal(adapt_for(0, N_OUTER, outer_body, r, NULL), 0);
  uint64_t regions = 0;
  for (int w = 0; w < p; w++) {
    adapt_worker_stats st;
    assert_int_equal(adapt_stats_get(w, &st), 0);
    regions += st.regions;
  }
  for (int o = 0; o < N_OUTER; o++) {
    int cancelled = o == cancel_outer;
    assert_int_equal(atomic_load(&r->inner_rc[o]), cancelled ? -ECANCELED : 0);
    for (int i = 0; i < N_INNER; i++) {
      unsigned h = atomic_load(&r->hits[o * N_INNER + i]);
      if (cancelled)
        assert_true(h <= 1);
      else
        assert_int_equal(h, 1);
    }
  }
  assert_no_body_errors();
  free(r);
  return regions;
}

/* Without ADAPT_SCHED a nested adapt_for runs lazy-df2: on one worker the
 * top-level adaptive loop begins the only splittable frame, where adaptive
 * nested loops begin one each; with ADAPT_SCHED=adaptive they do. Every
 * index once on 1 and 2 workers, and a nested default loop cancelled by its
 * body returns -ECANCELED while its siblings complete. */
static void test_nested_default(void **state) {
  unsetenv("ADAPT_SCHED");
  assert_int_equal(adapt_test_workers(1), 0);
  assert_int_equal(run_nested_default(1, -1), 1);
  assert_int_equal(run_nested_default(1, 2), 1);
  assert_int_equal(adapt_test_workers(2), 0);
  run_nested_default(2, -1);
  run_nested_default(2, 3);
  setenv("ADAPT_SCHED", "adaptive", 1);
  assert_int_equal(adapt_test_workers(1), 0);
  unsetenv("ADAPT_SCHED");
  assert_int_equal(run_nested_default(1, -1), 1 + N_OUTER);
}

static int teardown(void **state) {
  unsetenv("ADAPT_SCHED");
  return adapt_test_teardown(state);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--env-grain-child") == 0) return env_grain_child(argv[2]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_env_default, teardown),
      cmocka_unit_test_teardown(test_env_errors, teardown),
      cmocka_unit_test_teardown(test_env_grain, teardown),
      cmocka_unit_test_teardown(test_nested_default, teardown),
  };
  return adapt_test_run("sched_env", tests);
}
