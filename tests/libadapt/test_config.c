/* The configuration and the error reports: every environment variable read
 * and checked once by adapt_init, one message per bad value (each case in a
 * fresh process, stderr captured); values read once; adapt_init against a
 * running runtime (-EBUSY); attribute fields that do not apply to a call;
 * the thread-local detail of adapt_last_error; adapt_strerror for every
 * code the library returns. */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapt_test.h" /* cmocka */

/* Every variable the library reads (docs/guide.md, "Configuration"). */
static const char *const all_vars[] = {
    "ADAPT_WORKERS",     "ADAPT_BIND",     "ADAPT_VICTIM",
    "ADAPT_STEAL_ORDER", "ADAPT_SPIN_US",  "ADAPT_STEAL_TIMEOUT_US",
    "ADAPT_STATS",       "ADAPT_TRACE",    "ADAPT_TRACE_EVENTS",
    "ADAPT_GRAIN",       "ADAPT_SCHED",    "ADAPT_WINDOW",
    "ADAPT_WINDOW_SIZE", "ADAPT_SPLITTER", "ADAPT_SPAWN_KEEP"};
enum { NVARS = sizeof all_vars / sizeof *all_vars };

static void unset_all(void) {
  for (int i = 0; i < NVARS; i++) unsetenv(all_vars[i]);
}

/* A variable, a value and (for a bad one) what the message expects. */
typedef struct env_case {
  const char *var, *value, *expected;
} env_case;

#define UINT_MAX_S "18446744073709551615"
#define SCHEDS "default|adaptive|loopframe|dac|hybrid|lazy-df|lazy-df2|lazy-bf|static"
static const env_case bad_cases[] = {
    {"ADAPT_WORKERS", "0", "an integer 1..256"},
    {"ADAPT_WORKERS", "two", "an integer 1..256"},
    {"ADAPT_WORKERS", "-1", "an integer 1..256"},
    {"ADAPT_WORKERS", "257", "an integer 1..256"},
    {"ADAPT_WORKERS", " 2", "an integer 1..256"},
    {"ADAPT_WORKERS", "+2", "an integer 1..256"},
    {"ADAPT_BIND", "2", "an integer 0..1"},
    {"ADAPT_BIND", "yes", "an integer 0..1"},
    {"ADAPT_VICTIM", "nearest", "one of random|cache"},
    {"ADAPT_VICTIM", "Random", "one of random|cache"},
    {"ADAPT_STEAL_ORDER", "sideways", "one of outer|inner"},
    {"ADAPT_SPIN_US", "-5", "an integer 0..10000000"},
    {"ADAPT_SPIN_US", "10000001", "an integer 0..10000000"},
    {"ADAPT_STEAL_TIMEOUT_US", "0", "an integer 1..10000000"},
    {"ADAPT_STEAL_TIMEOUT_US", "50us", "an integer 1..10000000"},
    {"ADAPT_STATS", "2", "an integer 0..1"},
    {"ADAPT_STATS", "on", "an integer 0..1"},
    {"ADAPT_TRACE_EVENTS", "bogus", "a comma-separated list of range|steal|preempt|sleep|all"},
    {"ADAPT_TRACE_EVENTS", "range,bogus",
     "a comma-separated list of range|steal|preempt|sleep|all"},
    {"ADAPT_TRACE_EVENTS", "range,", "a comma-separated list of range|steal|preempt|sleep|all"},
    {"ADAPT_GRAIN", "0", "an integer 1.." UINT_MAX_S},
    {"ADAPT_GRAIN", "abc", "an integer 1.." UINT_MAX_S},
    {"ADAPT_GRAIN", "-2", "an integer 1.." UINT_MAX_S},
    {"ADAPT_GRAIN", "3x", "an integer 1.." UINT_MAX_S},
    {"ADAPT_GRAIN", "18446744073709551616", "an integer 1.." UINT_MAX_S},
    {"ADAPT_SCHED", "bogus", "one of " SCHEDS},
    {"ADAPT_SCHED", "dac ", "one of " SCHEDS},
    {"ADAPT_WINDOW", "diagonal", "one of none|static|sliding"},
    {"ADAPT_WINDOW_SIZE", "0", "an integer 1.." UINT_MAX_S},
    {"ADAPT_WINDOW_SIZE", "12x", "an integer 1.." UINT_MAX_S},
    {"ADAPT_SPLITTER", "far", "one of local|distant|balanced"},
    {"ADAPT_SPAWN_KEEP", "8192", "an integer 0..8191"},
    {"ADAPT_SPAWN_KEEP", "two", "an integer 0..8191"},
};
enum { NBAD = sizeof bad_cases / sizeof *bad_cases };

/* Good values of every variable (ADAPT_TRACE is any non-empty path). */
static const env_case good_cases[] = {
    {"ADAPT_WORKERS", "2", NULL},
    {"ADAPT_BIND", "0", NULL},
    {"ADAPT_VICTIM", "random", NULL},
    {"ADAPT_STEAL_ORDER", "inner", NULL},
    {"ADAPT_SPIN_US", "0", NULL},
    {"ADAPT_STEAL_TIMEOUT_US", "20", NULL},
    {"ADAPT_STATS", "0", NULL},
    {"ADAPT_TRACE", "/dev/null", NULL},
    {"ADAPT_TRACE_EVENTS", "range,steal", NULL},
    {"ADAPT_GRAIN", "5", NULL},
    {"ADAPT_SCHED", "lazy-df2", NULL},
    {"ADAPT_WINDOW", "sliding", NULL},
    {"ADAPT_WINDOW_SIZE", "64", NULL},
    {"ADAPT_SPLITTER", "distant", NULL},
    {"ADAPT_SPAWN_KEEP", "0", NULL},
};
enum { NGOOD = sizeof good_cases / sizeof *good_cases };

/* --- Child processes ---------------------------------------------------- */

static atomic_size_t calls;

static void count_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  atomic_fetch_add(&calls, e - b);
}

static void inc_op(void *elem, void *ctx) {
  (void)ctx;
  (*(int *)elem)++;
}

/* A child's check; prints on stdout (its stderr is captured). */
static int child_check(int ok, const char *what) {
  if (!ok) printf("child: %s\n", what);
  return ok ? 0 : 1;
}

/* Child modes (the environment is set by the parent before the exec):
 * init: one adapt_init, -EINVAL with the detail argv[3] as prefix, or 0.
 * lazy: three lazy starts and one adapt_init, all failing.
 * trace: a loop with an unwritable ADAPT_TRACE, then adapt_finalize. */
static int child_main(int argc, char **argv) {
  const char *mode = argv[2];
  int fails = 0;
  if (!strcmp(mode, "init-bad")) {
    fails += child_check(adapt_init(NULL) == -EINVAL, "adapt_init did not return -EINVAL");
    fails += child_check(strncmp(adapt_last_error(), argv[3], strlen(argv[3])) == 0,
                         "adapt_last_error does not start as expected");
    if (fails) printf("child: detail \"%s\", expected \"%s...\"\n", adapt_last_error(), argv[3]);
  } else if (!strcmp(mode, "init-good")) {
    int a[100] = {0};
    fails += child_check(adapt_init(NULL) == 0, "adapt_init failed");
    fails += child_check(adapt_for(0, 100, count_body, NULL, NULL) == 0, "adapt_for failed");
    fails += child_check(adapt_for_each(a, 100, sizeof *a, inc_op, NULL, NULL) == 0,
                         "adapt_for_each failed");
    fails += child_check(atomic_load(&calls) == 100 && a[99] == 1, "not every index ran");
  } else if (!strcmp(mode, "lazy")) {
    int a[10] = {0};
    fails += child_check(adapt_for(0, 10, count_body, NULL, NULL) == -EINVAL, "adapt_for");
    fails += child_check(adapt_for(0, 10, count_body, NULL, NULL) == -EINVAL, "adapt_for 2");
    fails += child_check(adapt_for_each(a, 10, sizeof *a, inc_op, NULL, NULL) == -EINVAL,
                         "adapt_for_each");
    fails += child_check(strstr(adapt_last_error(), "adapt_init: ADAPT_GRAIN=") != NULL,
                         "lazy start: detail");
    fflush(stderr);
    fprintf(stderr, "-- explicit\n");
    fails += child_check(adapt_init(NULL) == -EINVAL, "adapt_init");
    fails += child_check(atomic_load(&calls) == 0 && a[0] == 0, "a callback ran");
  } else if (!strcmp(mode, "trace")) {
    fails += child_check(adapt_init(NULL) == 0, "adapt_init failed");
    fails += child_check(adapt_for(0, 100, count_body, NULL, NULL) == 0, "adapt_for failed");
    adapt_finalize();
  } else {
    return 2;
  }
  (void)argc;
  adapt_finalize();
  fflush(stdout);
  fflush(stderr);
  return fails ? 1 : 0;
}

/* Run this binary in child mode `mode` (arg: its argument or NULL) with
 * the variables env[0..2n) set (name, value pairs) and every other ADAPT_*
 * variable unset; its stderr in out (cap bytes). Returns the exit status. */
static int run_child(const char *mode, const char *arg, const char *const *env, int n, char *out,
                     size_t cap) {
  adapt_finalize(); /* no worker thread across fork */
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], 2);
    close(fd[1]);
    unset_all();
    for (int i = 0; i < n; i++) setenv(env[2 * i], env[2 * i + 1], 1);
    execl("/proc/self/exe", "test_config", "--child", mode, arg, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  size_t len = 0;
  char sink[256];
  for (;;) {
    ssize_t k =
        len + 1 < cap ? read(fd[0], out + len, cap - 1 - len) : read(fd[0], sink, sizeof sink);
    if (k <= 0) break;
    if (len + 1 < cap) len += (size_t)k;
  }
  out[len] = '\0';
  close(fd[0]);
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* Every bad value: adapt_init fails with -EINVAL, the detail names it, and
 * exactly one line is printed, in the one format. */
static void test_env_bad_values(void **state) {
  (void)state;
  char out[4096], want[512], detail[512];
  int failed = 0;
  for (int k = 0; k < NBAD; k++) {
    const env_case *c = &bad_cases[k];
    const char *env[] = {c->var, c->value};
    snprintf(detail, sizeof detail, "adapt_init: %s=\"%s\": expected %s", c->var, c->value,
             c->expected);
    int st = run_child("init-bad", detail, env, 1, out, sizeof out);
    snprintf(want, sizeof want, "libadapt: bad value %s=\"%s\" (expected %s)\n", c->var, c->value,
             c->expected);
    if (st != 0 || strcmp(out, want) != 0) {
      fprintf(stderr, "%s=\"%s\": status %d, stderr:\n%s-- expected:\n%s", c->var, c->value, st,
              out, want);
      failed++;
    }
  }
  assert_int_equal(failed, 0);
}

/* Every variable has good values: accepted, nothing printed. */
static void test_env_good_values(void **state) {
  (void)state;
  char out[4096];
  int failed = 0;
  const char *env[2 * NGOOD];
  for (int k = 0; k < NGOOD; k++) {
    env[0] = good_cases[k].var;
    env[1] = good_cases[k].value;
    int st = run_child("init-good", "", env, 1, out, sizeof out);
    if (st != 0 || out[0]) {
      fprintf(stderr, "%s=\"%s\": status %d, stderr:\n%s", env[0], env[1], st, out);
      failed++;
    }
  }
  for (int k = 0; k < NGOOD; k++) { /* all at once (windows need the adaptive scheduler) */
    env[2 * k] = good_cases[k].var;
    env[2 * k + 1] = strcmp(good_cases[k].var, "ADAPT_SCHED") ? good_cases[k].value : "adaptive";
  }
  int st = run_child("init-good", "", env, NGOOD, out, sizeof out);
  if (st != 0 || out[0]) {
    fprintf(stderr, "every variable set: status %d, stderr:\n%s", st, out);
    failed++;
  }
  assert_int_equal(failed, 0);
}

/* Two bad values: one line each from one adapt_init; the detail names the
 * first of the table. */
static void test_env_two_bad(void **state) {
  (void)state;
  char out[4096];
  const char *env[] = {"ADAPT_SPLITTER", "far", "ADAPT_WORKERS", "x"};
  int st = run_child("init-bad", "adapt_init: ADAPT_WORKERS=\"x\": expected an integer 1..256", env,
                     2, out, sizeof out);
  if (st) fprintf(stderr, "stderr:\n%s", out);
  assert_int_equal(st, 0);
  assert_int_equal(count_lines(out), 2);
  assert_non_null(strstr(out, "libadapt: bad value ADAPT_WORKERS=\"x\""));
  assert_non_null(strstr(out, "libadapt: bad value ADAPT_SPLITTER=\"far\""));
}

/* Lazy starts that fail again with the same bad value print it once; an
 * explicit adapt_init prints it again. */
static void test_env_lazy_once(void **state) {
  (void)state;
  char out[4096];
  const char *env[] = {"ADAPT_GRAIN", "0"};
  int st = run_child("lazy", "", env, 1, out, sizeof out);
  const char *line =
      "libadapt: bad value ADAPT_GRAIN=\"0\" (expected an integer 1.." UINT_MAX_S ")\n";
  char want[512];
  snprintf(want, sizeof want, "%s-- explicit\n%s", line, line);
  if (st != 0 || strcmp(out, want) != 0) fprintf(stderr, "status %d, stderr:\n%s", st, out);
  assert_int_equal(st, 0);
  assert_string_equal(out, want);
}

/* A trace that cannot be written: the errno text, not a generic one. */
static void test_trace_unwritable(void **state) {
  (void)state;
  char out[4096];
  const char *env[] = {"ADAPT_TRACE", "/nonexistent-libadapt-dir/t.csv"};
  int st = run_child("trace", "", env, 1, out, sizeof out);
  if (st) fprintf(stderr, "stderr:\n%s", out);
  assert_int_equal(st, 0);
  assert_string_equal(out, "libadapt: cannot write trace /nonexistent-libadapt-dir/t.csv: No such "
                           "file or directory\n");
}

/* --- Read once ------------------------------------------------------------ */

static atomic_size_t max_len;

static void len_body(size_t b, size_t e, void *ctx) {
  (void)ctx;
  size_t cur = atomic_load(&max_len);
  while (e - b > cur && !atomic_compare_exchange_weak(&max_len, &cur, e - b)) {}
}

static size_t longest_call(adapt_sched s, size_t n) {
  adapt_attr a = {0};
  a.sched = s;
  atomic_store(&max_len, 0);
  assert_int_equal(adapt_for(0, n, len_body, NULL, &a), 0);
  return atomic_load(&max_len);
}

static void range_op(void *first, size_t n, void *ctx) {
  (void)first;
  (void)ctx;
  len_body(0, n, NULL);
}

/* Values are read by adapt_init only: the environment changed afterwards
 * has no effect on the running runtime, even a bad value. */
static void test_read_once(void **state) {
  (void)state;
  setenv("ADAPT_GRAIN", "3", 1);
  assert_int_equal(adapt_test_workers(2), 0);
  setenv("ADAPT_GRAIN", "1000", 1);
  assert_true(longest_call(ADAPT_SCHED_DAC, 10000) <= 3);
  int *a = calloc(10000, sizeof *a);
  assert_non_null(a);
  atomic_store(&max_len, 0);
  assert_int_equal(adapt_for_each_range(a, 10000, sizeof *a, range_op, NULL, NULL), 0);
  assert_true(atomic_load(&max_len) <= 3);
  /* a restart reads the new value */
  assert_int_equal(adapt_test_workers(2), 0);
  assert_true(longest_call(ADAPT_SCHED_DAC, 10000) > 3);
  assert_true(longest_call(ADAPT_SCHED_DAC, 10000) <= 1000);
  unsetenv("ADAPT_GRAIN");
  /* bad values set while running: ignored until the next start */
  assert_int_equal(adapt_test_workers(2), 0);
  for (int i = 0; i < NBAD; i++) setenv(bad_cases[i].var, bad_cases[i].value, 1);
  atomic_store(&calls, 0);
  assert_int_equal(adapt_for(0, 100, count_body, NULL, NULL), 0);
  assert_int_equal(atomic_load(&calls), 100);
  assert_int_equal(adapt_for_each(a, 100, sizeof *a, inc_op, NULL, NULL), 0);
  assert_int_equal(a[99], 1);
  assert_int_equal(adapt_init(NULL), 0); /* running: nothing is read */
  assert_int_equal(adapt_num_workers(), 2);
  assert_string_equal(adapt_last_error(), "");
  adapt_finalize();
  unset_all();
  setenv("ADAPT_WINDOW", "diagonal", 1);
  assert_int_equal(adapt_init(NULL), -EINVAL); /* now read (one line on stderr) */
  unset_all();
  free(a);
}

/* --- adapt_init while running --------------------------------------------- */

static atomic_int body_fails;

static void init_in_body(size_t b, size_t e, void *ctx) {
  (void)b;
  (void)e;
  (void)ctx;
  adapt_config c4 = {0}, c2 = {0};
  c4.workers = 4;
  c2.workers = 2;
  c2.spin_us = 0;
  if (adapt_init(&c4) != -EBUSY) atomic_fetch_add(&body_fails, 1);
  if (!strstr(adapt_last_error(), "workers 4 differs")) atomic_fetch_add(&body_fails, 1);
  if (adapt_init(&c2) != 0 || adapt_init(NULL) != 0) atomic_fetch_add(&body_fails, 1);
  if (adapt_last_error()[0]) atomic_fetch_add(&body_fails, 1);
  adapt_test_spin_ns(20000);
}

static void test_init_running(void **state) {
  (void)state;
  assert_int_equal(adapt_test_workers(2), 0);
  adapt_config cfg = {0};
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_init(&cfg), 0); /* every field 0: compatible */
  cfg.workers = 2;
  assert_int_equal(adapt_init(&cfg), 0);
  assert_string_equal(adapt_last_error(), "");
  cfg.workers = 4;
  assert_int_equal(adapt_init(&cfg), -EBUSY);
  assert_string_equal(adapt_last_error(),
                      "adapt_init: workers 4 differs from the running runtime's 2 "
                      "(adapt_finalize first)");
  assert_int_equal(adapt_num_workers(), 2); /* nothing changed */
  cfg.workers = 0;
  cfg.steal_timeout_us = 50; /* the default: equal */
  assert_int_equal(adapt_init(&cfg), 0);
  cfg.spin_us = 7;
  assert_int_equal(adapt_init(&cfg), -EBUSY);
  assert_non_null(strstr(adapt_last_error(), "spin_us 7 differs"));
  cfg.spin_us = 0;
  cfg.victim = ADAPT_VICTIM_RANDOM;
  assert_int_equal(adapt_init(&cfg), -EBUSY);
  assert_non_null(
      strstr(adapt_last_error(), "victim random differs from the running runtime's cache"));
  cfg.victim = ADAPT_VICTIM_DEFAULT;
  cfg.trace_file = "t.csv";
  assert_int_equal(adapt_init(&cfg), -EBUSY);
  cfg.trace_file = ""; /* no trace, as running */
  assert_int_equal(adapt_init(&cfg), 0);
  cfg.trace_file = NULL;
  cfg.workers = -3; /* a bad field is -EINVAL, also while running */
  assert_int_equal(adapt_init(&cfg), -EINVAL);
  assert_string_equal(adapt_last_error(),
                      "adapt_init: cfg->workers -3: expected an integer 0..256");
  cfg.workers = 0;
  cfg.stats = 2;
  assert_int_equal(adapt_init(&cfg), -EINVAL);
  assert_non_null(strstr(adapt_last_error(), "cfg->stats 2"));
  /* inside a region: worker 0 and the other workers, the same rule */
  atomic_store(&body_fails, 0);
  adapt_attr one = {0};
  one.grain = 1;
  assert_int_equal(adapt_for(0, 64, init_in_body, NULL, &one), 0);
  assert_int_equal(atomic_load(&body_fails), 0);
  assert_int_equal(adapt_num_workers(), 2);
  /* after adapt_finalize another configuration is accepted */
  adapt_finalize();
  cfg = (adapt_config){0};
  cfg.workers = 3;
  assert_int_equal(adapt_init(&cfg), 0);
  assert_int_equal(adapt_num_workers(), 3);
}

/* --- Attribute fields that do not apply ----------------------------------- */

static void test_attr_not_applicable(void **state) {
  (void)state;
  assert_int_equal(adapt_test_workers(2), 0);
  static const char *fields[] = {"window", "window_size", "splitter", "footprint"};
  atomic_store(&calls, 0);
  for (int k = 0; k < 4; k++) {
    adapt_attr a = {0};
    if (k == 0) a.window = ADAPT_WINDOW_NONE;
    if (k == 1) a.window_size = 100;
    if (k == 2) a.splitter = ADAPT_SPLITTER_LOCAL;
    if (k == 3) a.footprint = 8;
    assert_int_equal(adapt_for(0, 10, count_body, NULL, &a), -EINVAL);
    char want[160];
    snprintf(want, sizeof want,
             "adapt_for: attr.%s does not apply to loops (sequence algorithms only)", fields[k]);
    assert_string_equal(adapt_last_error(), want);
    assert_int_equal(adapt_for(5, 5, count_body, NULL, &a), -EINVAL); /* also when empty */
  }
  assert_int_equal(atomic_load(&calls), 0);
  /* window modes where the scheduler cannot keep them: -ENOTSUP, as before */
  int a[16] = {0};
  adapt_attr w = {0};
  w.window = ADAPT_WINDOW_STATIC;
  w.sched = ADAPT_SCHED_DAC;
  assert_int_equal(adapt_for_each(a, 16, sizeof *a, inc_op, NULL, &w), -ENOTSUP);
  assert_string_equal(adapt_last_error(),
                      "adapt_for_each: window mode static needs the adaptive scheduler "
                      "(attr.sched is dac)");
}

/* --- adapt_last_error ------------------------------------------------------ */

static void copy_op(const void *in, void *out, void *ctx) {
  (void)ctx;
  memcpy(out, in, sizeof(int));
}

static int nonzero(const void *elem, void *ctx) {
  (void)ctx;
  return *(const int *)elem != 0;
}

static void acc_sum(void *acc, const void *first, size_t n, void *ctx) {
  (void)ctx;
  for (size_t i = 0; i < n; i++) *(long *)acc += ((const int *)first)[i];
}

static void comb_sum(void *acc, const void *other, void *ctx) {
  (void)ctx;
  *(long *)acc += *(const long *)other;
}

static size_t too_many(const void *in, void *out, void *ctx) {
  (void)in;
  (void)out;
  (void)ctx;
  return 3; /* more than max_out = 2 */
}

static char region_detail[256];
static atomic_int region_rc;

static void finalize_in_body(size_t b, size_t e, void *ctx) {
  (void)e;
  (void)ctx;
  if (b != 0) return;
  atomic_store(&region_rc, adapt_try_finalize());
  snprintf(region_detail, sizeof region_detail, "%s", adapt_last_error());
}

static void nop_task(void *arg) { (void)arg; }
static void nop_entry(adapt_frame *f, void *work, void *ctx) {}
static void nop_splitter(adapt_frame *f, void *work, int count, adapt_reply_set *rs, void *ctx) {}

static void *other_thread(void *arg) {
  (void)arg;
  const char *before = adapt_last_error(); /* this thread's own: empty */
  int rc = adapt_for(1, 0, count_body, NULL, NULL);
  static char seen[2][256];
  snprintf(seen[0], sizeof seen[0], "%s", before);
  snprintf(seen[1], sizeof seen[1], "%d %s", rc, adapt_last_error());
  return seen;
}

static void test_last_error(void **state) {
  (void)state;
  assert_non_null(adapt_last_error());
  assert_int_equal(adapt_test_workers(2), 0);
  int a[64] = {0}, b[64] = {0};
  long sum = 0, zero = 0;
  adapt_attr bad = {0};
  bad.sched = (adapt_sched)99;

  assert_int_equal(adapt_for(0, 10, NULL, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_for: body is NULL");
  /* adapt_strerror leaves it alone */
  assert_non_null(adapt_strerror(-EINVAL));
  assert_string_equal(adapt_last_error(), "adapt_for: body is NULL");
  assert_int_equal(adapt_for(10, 0, count_body, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_for: first > last");
  assert_int_equal(adapt_for(0, 10, count_body, NULL, &bad), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_for: attr.sched 99 is not an adapt_sched");
  /* cleared by a call that succeeds */
  assert_int_equal(adapt_for(0, 10, count_body, NULL, NULL), 0);
  assert_string_equal(adapt_last_error(), "");

  assert_int_equal(adapt_transform(a, 32, sizeof *a, a + 1, sizeof *a, copy_op, NULL, NULL),
                   -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_transform: output overlaps input");
  assert_int_equal(adapt_for_each(a, SIZE_MAX / 2, 4, inc_op, NULL, NULL), -EOVERFLOW);
  assert_string_equal(adapt_last_error(), "adapt_for_each: count * size overflows size_t");
  assert_int_equal(adapt_for_each(a, 4, 0, inc_op, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_for_each: size is 0");
  assert_int_equal(adapt_for_each(NULL, 4, 4, inc_op, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_for_each: base is NULL with count > 0");
  size_t cnt = 0;
  assert_int_equal(adapt_count_if(a, 64, sizeof *a, &cnt, nonzero, NULL, &bad), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_count_if: attr.sched 99 is not an adapt_sched");
  adapt_attr dac = {0};
  dac.sched = ADAPT_SCHED_DAC;
  assert_int_equal(adapt_count_if(a, 64, sizeof *a, &cnt, nonzero, NULL, &dac), -ENOTSUP);
  assert_non_null(strstr(adapt_last_error(), "adapt_count_if: attr.sched dac does not apply"));
  adapt_attr win = {0};
  win.window = (adapt_window_mode)42;
  assert_int_equal(adapt_find_if(a, 64, sizeof *a, &cnt, nonzero, NULL, &win), -EINVAL);
  assert_string_equal(adapt_last_error(),
                      "adapt_find_if: attr.window 42 is not an adapt_window_mode");
  assert_int_equal(adapt_reduce(a, 64, sizeof *a, &sum, 0, &zero, acc_sum, comb_sum, NULL, NULL),
                   -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_reduce: result_size is 0");
  assert_int_equal(adapt_inclusive_scan(a, 64, sizeof *a, a + 1, NULL, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_inclusive_scan: op is NULL");
  size_t n_out = 0;
  assert_int_equal(adapt_copy_if(a, 64, sizeof *a, a + 8, &n_out, nonzero, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_copy_if: output overlaps input");
  /* an error found while running (on any worker) is reported to the caller */
  adapt_vec v = {0};
  v.elem_size = sizeof(int);
  assert_int_equal(adapt_transform_var(b, 64, sizeof *b, &v, 2, too_many, NULL, NULL), -ERANGE);
  assert_string_equal(adapt_last_error(),
                      "adapt_transform_var: op returned more than max_out outputs");
  free(v.data);
  /* -EBUSY: finalize inside a region */
  atomic_store(&region_rc, 1);
  assert_int_equal(adapt_for(0, 4, finalize_in_body, NULL, NULL), 0);
  assert_int_equal(atomic_load(&region_rc), -EBUSY);
  assert_string_equal(region_detail, "adapt_try_finalize: called inside a parallel region (a "
                                     "body, a task or an open scope)");
  assert_string_equal(adapt_last_error(), ""); /* the loop itself succeeded */
  /* the low-level API, tasks, schedulers' names, statistics */
  adapt_task big = {0};
  adapt_frame f;
  big.entry = nop_entry;
  big.splitter = nop_splitter;
  big.work_size = ADAPT_WORK_MAX + 1;
  assert_int_equal(adapt_begin(&f, &big, a), -E2BIG);
  assert_string_equal(adapt_last_error(),
                      "adapt_begin: task->work_size 257 > ADAPT_WORK_MAX (256)");
  assert_int_equal(adapt_end(NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_end: frame is NULL");
  adapt_scope sc;
  assert_int_equal(adapt_scope_begin(&sc), 0);
  assert_int_equal(adapt_spawn(&sc, NULL, NULL), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_spawn: fn is NULL");
  assert_int_equal(adapt_spawn(&sc, nop_task, NULL), 0);
  /* the inline fast path leaves the detail as it was (<adapt/tasks.h>) */
  assert_string_equal(adapt_last_error(), "adapt_spawn: fn is NULL");
  assert_int_equal(adapt_sync(&sc), 0);
  assert_int_equal(adapt_sync(&sc), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_sync: scope was not begun (or is already synced)");
  adapt_sched s;
  assert_int_equal(adapt_sched_parse("fastest", &s), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_sched_parse: unknown scheduler name \"fastest\"");
  adapt_worker_stats ws;
  assert_int_equal(adapt_stats_get(7, &ws), -EINVAL);
  assert_string_equal(adapt_last_error(), "adapt_stats_get: worker 7 out of 0..1");
  adapt_finalize();
  assert_int_equal(adapt_stats_get(0, &ws), -ESRCH);
  assert_string_equal(adapt_last_error(), "adapt_stats_get: the runtime is not running");
  /* thread-local: another thread has its own */
  pthread_t t;
  void *res;
  assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
  assert_int_equal(pthread_join(t, &res), 0);
  char(*seen)[256] = res;
  assert_string_equal(seen[0], "");
  assert_string_equal(seen[1], "-22 adapt_for: first > last");
  assert_string_equal(adapt_last_error(), "adapt_stats_get: the runtime is not running");
}

/* --- adapt_strerror -------------------------------------------------------- */

static void test_strerror(void **state) {
  (void)state;
  /* every code the library returns (grep "return -E" in libadapt/ and
   * algorithms/) has its own text, not the system's nor a generic one */
  static const int codes[] = {-EINVAL,  -ENOMEM, -EOVERFLOW, -E2BIG,   -EBUSY,  -EAGAIN, -ESRCH,
                              -ENODATA, -ERANGE, -ENODEV,    -ENOTSUP, -ENOSPC, -EPROTO};
  enum { N = sizeof codes / sizeof *codes };
  for (int i = 0; i < N; i++) {
    const char *m = adapt_strerror(codes[i]);
    assert_non_null(m);
    if (!strcmp(m, strerror(-codes[i])) || strstr(m, "nknown"))
      fail_msg("adapt_strerror(%d) is generic: \"%s\"", codes[i], m);
    for (int j = 0; j < i; j++) assert_string_not_equal(m, adapt_strerror(codes[j]));
  }
  assert_string_equal(adapt_strerror(0), "success");
  assert_non_null(strstr(adapt_strerror(-EPROTO), "protocol"));
  /* other errno values (a trace file that cannot be written): the system's */
  assert_string_equal(adapt_strerror(-ENOENT), strerror(ENOENT));
  assert_string_equal(adapt_strerror(-EACCES), strerror(EACCES));
  assert_non_null(adapt_strerror(-123456));
  assert_non_null(strstr(adapt_strerror(5), "not an error code"));
  assert_non_null(adapt_strerror(-2147483647 - 1));
}

static int teardown(void **state) {
  unset_all();
  return adapt_test_teardown(state);
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--child") == 0) return child_main(argc, argv);
  unset_all();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_env_bad_values, teardown),
      cmocka_unit_test_teardown(test_env_good_values, teardown),
      cmocka_unit_test_teardown(test_env_two_bad, teardown),
      cmocka_unit_test_teardown(test_env_lazy_once, teardown),
      cmocka_unit_test_teardown(test_trace_unwritable, teardown),
      cmocka_unit_test_teardown(test_read_once, teardown),
      cmocka_unit_test_teardown(test_init_running, teardown),
      cmocka_unit_test_teardown(test_attr_not_applicable, teardown),
      cmocka_unit_test_teardown(test_last_error, teardown),
      cmocka_unit_test_teardown(test_strerror, teardown),
  };
  return adapt_test_run("config", tests);
}
