/* Fault injection (docs/reliability.md): every public entry point runs with
 * its k-th allocation failing, k = 1..50, once (a transient failure: the
 * k-th, and in longer runs the (k+50)-th, (k+100)-th... so that every
 * allocation fails) and from k on (memory exhausted), and adapt_init runs
 * with the creation of
 * its k-th worker thread failing (docs/reliability.md has the scenarios
 * and the counts). Each run starts the runtime (or lets the calls start
 * it, under the fault), makes the calls, stops it, and checks that
 * - every call returned 0 with an exact result, or one of its documented
 *   error codes with its outputs as documented (untouched);
 * - the runtime is usable afterwards (a loop without faults runs each index
 *   once);
 * - nothing leaked: the blocks allocated through the wrappers and not freed
 *   are as many as before the run (LeakSanitizer checks the rest at exit in
 *   the asan variant);
 * - no thread is left: /proc/self/task has as many entries as before the
 *   runtime ever started.
 * The allocation functions and pthread_create are wrapped at link time
 * (fault_inject.c). This file is the harness; the cases are in
 * fault_runtime.c and fault_algos.c (fault_cases.h). */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapt_test.h"
#include "fault_cases.h"
#include "fault_inject.h"

/* --- Process state: threads and the run being checked --------------------- */

static int base_tasks; /* entries of /proc/self/task before the runtime started */

static int task_count(void) {
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n;
}

/* The task count once joined threads have left /proc/self/task: a joined
 * thread's entry may outlive pthread_join by a few instructions of its exit.
 * Gives up after 10 s (then the count is wrong and the check fails). */
static int settled_task_count(void) {
  int n = task_count();
  for (int i = 0; i < 10000 && n != base_tasks; i++) {
    usleep(1000);
    n = task_count();
  }
  return n;
}

/* The task count once it has stayed the same for 10 ms (the baseline). */
static int settled_task_count_any(void) {
  int n = task_count(), same = 0;
  while (same < 10) {
    usleep(1000);
    int m = task_count();
    same = m == n ? same + 1 : 0;
    n = m;
  }
  return n;
}

/* The run in progress, for the messages. */
const char *fault_cur_name;
unsigned long fault_cur_k;
static fault_mode cur_mode;

void fault_fail_run(const char *what, int rc) {
  fail_msg("%s, k=%lu (%s): %s: rc %d (%s) [%s]", fault_cur_name, fault_cur_k,
           cur_mode == FAULT_FROM ? "from k on" : "once", what, rc, adapt_strerror(rc),
           adapt_last_error());
}

/* Errors returned by the calls of one run (documented ones). */
unsigned long fault_run_errors;

/* rc must be 0 or one of the codes ok (0-terminated list). Returns rc. */
int fault_expect_rc(const char *what, int rc, const int *ok) {
  if (rc == 0) return 0;
  for (; *ok; ok++)
    if (rc == *ok) {
      fault_run_errors++;
      if (adapt_last_error()[0] == '\0') fault_fail_run("no adapt_last_error detail", rc);
      return rc;
    }
  fault_fail_run(what, rc);
  return rc;
}

const int fault_ok_none[] = {0};
const int fault_ok_nomem[] = {-ENOMEM, 0};
const int fault_ok_latency[] = {-ENOMEM, -ENODATA, 0};

/* Problems found inside bodies and callbacks (counted, reported by the main
 * thread: cmocka's asserts are for the main thread only). relaxed: read
 * after the calls returned (their joins order the increments). */
static atomic_ulong body_bad;
void fault_bad(void) { atomic_fetch_add_explicit(&body_bad, 1, memory_order_relaxed); }

/* --- Inputs and per-index visit counts ------------------------------------ */

size_t fault_n_elems; /* elements per call (scaled for the sanitizers) */
atomic_uchar fault_marks[N_MAX];
uint64_t fault_in[N_MAX];
uint64_t fault_out[N_MAX];

/* relaxed: counts, read after the call's join. */
void fault_mark(size_t i) { atomic_fetch_add_explicit(&fault_marks[i], 1, memory_order_relaxed); }

void fault_clear_marks(void) {
  for (size_t i = 0; i < fault_n_elems; i++)
    atomic_store_explicit(&fault_marks[i], 0, memory_order_relaxed);
}

/* Every index of [0, n) visited `want` times. */
void fault_check_marks(const char *what, size_t n, unsigned want) {
  for (size_t i = 0; i < n; i++) {
    unsigned v = atomic_load_explicit(&fault_marks[i], memory_order_relaxed);
    if (v != want) {
      fail_msg("%s, k=%lu: %s: index %zu visited %u times, expected %u", fault_cur_name,
               fault_cur_k, what, i, v, want);
    }
  }
}

static _Thread_local volatile uint64_t sink;
void fault_burn(size_t i) {
  uint64_t x = i;
  for (int k = 0; k < 16; k++) x = x * 0x9e3779b97f4a7c15ull + 1;
  sink = x;
}

void fault_mark_body(size_t b, size_t e, void *ctx) {
  for (size_t i = b; i < e; i++) {
    fault_mark(i);
    fault_burn(i);
  }
}

void fault_op_mark(void *elem, void *ctx) {
  atomic_fetch_add_explicit((atomic_uchar *)elem, 1, memory_order_relaxed); /* a count */
}
void fault_op_mark_range(void *first, size_t n, void *ctx) {
  for (size_t i = 0; i < n; i++) fault_op_mark((atomic_uchar *)first + i, ctx);
}
static uint64_t f3(uint64_t v) { return v * 3 + 1; }
void fault_op_f3(const void *a, void *b, void *ctx) { *(uint64_t *)b = f3(*(const uint64_t *)a); }
affine fault_affine_of(uint64_t i) { return (affine){2 * i + 1, i ^ 0x5bd1e995u}; }
affine fault_scan_in[N_MAX];

void fault_check_out_f3(const char *what) {
  for (size_t i = 0; i < fault_n_elems; i++)
    if (fault_out[i] != f3(fault_in[i])) {
      fail_msg("%s, k=%lu: %s: out[%zu] wrong", fault_cur_name, fault_cur_k, what, i);
    }
}

char fault_trace_path[128];

/* --- The harness ------------------------------------------------------------ */

typedef struct scenario {
  const char *name;
  /* 1: the run starts the runtime (WORKERS workers) before arming the
   * fault, so k counts the calls' own allocations (the init and lazy
   * scenarios fail the starts); 0: the calls start it, armed. */
  int start;
  void (*run)(void);
} scenario;

typedef struct tally {
  unsigned long runs, injected, errors, clean_allocs;
} tally;

static void run_once(const scenario *s, fault_mode mode, unsigned long k, tally *t) {
  fault_cur_name = s->name;
  fault_cur_k = k;
  cur_mode = mode;
  long live0 = fault_live_blocks();
  fault_run_errors = 0;
  atomic_store_explicit(&body_bad, 0, memory_order_relaxed);
  if (s->start) {
    adapt_config cfg = {0};
    cfg.workers = WORKERS;
    assert_int_equal(adapt_init(&cfg), 0);
  }
  if (mode == FAULT_EVERY)
    fault_alloc_arm_every(k, K_MAX);
  else
    fault_alloc_arm(k, mode);
  s->run();
  fault_disarm();
  unsigned long injected = fault_injected(), seen = fault_allocs_seen();
  unsigned long nbad = atomic_load_explicit(&body_bad, memory_order_relaxed);
  if (nbad) fail_msg("%s, k=%lu: %lu bad results inside callbacks", s->name, k, nbad);
  /* The runtime, if still up (this thread is then worker 0), is usable
   * afterwards; a start after a failed one is checked by the next run. */
  if (adapt_worker_id() == 0) {
    fault_clear_marks();
    assert_int_equal(adapt_for(0, fault_n_elems, fault_mark_body, NULL, NULL), 0);
    fault_check_marks("adapt_for after the run", fault_n_elems, 1);
  }
  adapt_finalize();
  if (settled_task_count() != base_tasks)
    fail_msg("%s, k=%lu: %d threads after adapt_finalize, %d before the runtime started", s->name,
             k, task_count(), base_tasks);
  if (fault_live_blocks() != live0)
    fail_msg("%s, k=%lu: %ld blocks leaked", s->name, k, fault_live_blocks() - live0);
  t->runs++;
  t->injected += injected > 0;
  t->errors += fault_run_errors > 0;
  if (!injected && seen > t->clean_allocs) t->clean_allocs = seen;
}

/* k = 0: a run without fault (it counts the allocations); then k = 1..K_MAX
 * failing once (FAULT_EVERY: the k-th, (k+K_MAX)-th... allocation, so that
 * the K_MAX runs reach every allocation of a longer run), then from k on.
 * Each mode stops early after IDLE_STOP
 * consecutive runs in which no failure was injected: k is past the last
 * allocation of the run, and every later k would repeat a run without
 * fault (a start costs a copy of the topology and the threads). */
enum { IDLE_STOP = 3 };

static void run_scenario(const scenario *s) {
  tally t = {0};
  run_once(s, FAULT_ONCE, 0, &t);
  for (int m = 0; m < 2; m++) {
    unsigned long idle = 0;
    for (unsigned long k = 1; k <= K_MAX && idle < IDLE_STOP; k++) {
      unsigned long before = t.injected;
      run_once(s, m ? FAULT_FROM : FAULT_EVERY, k, &t);
      idle = t.injected > before ? 0 : idle + 1;
    }
  }
  printf("fault: %-12s %3lu runs: %3lu with a failure injected, %3lu returned an error; "
         "at most %lu allocations in a run without failure\n",
         s->name, t.runs, t.injected, t.errors, t.clean_allocs);
  if (!s->start) { /* the start allocates: these fail for small k */
    assert_true(t.injected > 0);
    assert_true(t.errors > 0);
  }
}

#define SCENARIO_TEST(fn, start)                                                                   \
  static void test_##fn(void **state) {                                                            \
    static const scenario s = {#fn, start, sc_##fn};                                               \
    run_scenario(&s);                                                                              \
  }

SCENARIO_TEST(lazy, 0)
SCENARIO_TEST(for_all, 1)
SCENARIO_TEST(tasks, 1)
SCENARIO_TEST(algo_map, 1)
SCENARIO_TEST(algo_var, 1)
SCENARIO_TEST(algo_reduce, 1)
SCENARIO_TEST(adaptive, 1)
SCENARIO_TEST(queries, 1)
SCENARIO_TEST(solo, 1)

/* adapt_init with a trace (ADAPT_TRACE_EVENTS=all: the trace buffers grow
 * by realloc on the workers while the regions run). */
static void test_init(void **state) {
  static const scenario s = {"init", 0, sc_init};
  setenv("ADAPT_TRACE_EVENTS", "all", 1);
  run_scenario(&s);
  unsetenv("ADAPT_TRACE_EVENTS");
}

/* pthread_create fails for the k-th worker (k = 1..W-1; k = W: no failure)
 * in an explicit and in a lazy start: -EAGAIN, no thread left, no leak, and
 * the next start works. */
static void test_thread_creation(void **state) {
  static const int counts[] = {2, 4, 8};
  unsigned long failed = 0;
  for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
    int nw = counts[ci];
    char env[16];
    snprintf(env, sizeof env, "%d", nw);
    setenv("ADAPT_WORKERS", env, 1);
    for (int k = 1; k <= nw; k++) {
      fault_cur_name = "threads";
      fault_cur_k = (unsigned long)k;
      long live0 = fault_live_blocks();
      adapt_config cfg = {0};
      cfg.workers = nw;
      fault_thread_arm((unsigned long)k);
      int rc = adapt_init(&cfg);
      fault_disarm();
      if (k < nw) {
        if (rc != -EAGAIN) fault_fail_run("adapt_init with a failing pthread_create", rc);
        assert_int_equal(fault_injected(), 1);
        assert_non_null(strstr(adapt_last_error(), "thread"));
        assert_int_equal(settled_task_count(), base_tasks); /* before any finalize */
        assert_int_equal(fault_live_blocks(), live0);
        failed++;
      } else {
        assert_int_equal(rc, 0);
        adapt_finalize();
      }
      fault_clear_marks();
      fault_thread_arm((unsigned long)k);
      rc = adapt_for(0, fault_n_elems, fault_mark_body, NULL, NULL); /* lazy start */
      fault_disarm();
      assert_int_equal(rc, k < nw ? -EAGAIN : 0);
      fault_check_marks("adapt_for (lazy start)", fault_n_elems, k < nw ? 0 : 1);
      failed += k < nw;
      adapt_finalize();
      assert_int_equal(settled_task_count(), base_tasks);
      assert_int_equal(fault_live_blocks(), live0);
      assert_int_equal(adapt_init(&cfg), 0);
      assert_int_equal(adapt_num_workers(), nw);
      fault_clear_marks();
      assert_int_equal(adapt_for(0, fault_n_elems, fault_mark_body, NULL, NULL), 0);
      fault_check_marks("adapt_for after a failed start", fault_n_elems, 1);
      adapt_finalize();
      assert_int_equal(settled_task_count(), base_tasks);
      assert_int_equal(fault_live_blocks(), live0);
    }
  }
  setenv("ADAPT_WORKERS", "4", 1);
  printf("fault: threads      %lu starts (explicit and lazy) with a failing pthread_create, all "
         "-EAGAIN\n",
         failed);
}

/* The thieves' membarrier fails (deque.c, thieves_enter): such a thief
 * withdraws its announcement and takes nothing. sc_tasks's spawn/sync
 * tree on WORKERS workers, every thief's membarrier failing, then every
 * other one: each index exactly once, no error, no bad result; the
 * failures were injected (a kernel without membarrier(2) has no such
 * call: Linux >= 4.14 has it); with all of them failing no theft happens
 * (every theft of this tree is a deque entry's), with every other one the
 * announcements that succeed may steal. */
static void test_thief_barrier(void **state) {
  adapt_config cfg = {0};
  cfg.workers = WORKERS;
  assert_int_equal(adapt_init(&cfg), 0);
  for (int every_other = 0; every_other < 2; every_other++) {
    fault_cur_name = every_other ? "barrier, every other" : "barrier, all";
    fault_cur_k = 1;
    fault_run_errors = 0;
    atomic_store_explicit(&body_bad, 0, memory_order_relaxed);
    adapt_stats_reset();
    fault_barrier_arm(1, every_other ? FAULT_EVERY : FAULT_FROM, 2);
    /* Again until thieves announced themselves twice (a loaded machine may
     * not schedule them during one tree), at most 500 times. */
    for (int rep = 0; rep < 500 && (rep == 0 || fault_barriers_seen() < 2); rep++) sc_tasks();
    fault_disarm();
    unsigned long steals = 0;
    for (int w = 0; w < WORKERS; w++) {
      adapt_worker_stats st;
      assert_int_equal(adapt_stats_get(w, &st), 0);
      steals += st.steals;
    }
    printf("fault: %-20s %lu thieves' membarriers, %lu failed, %lu steals\n", fault_cur_name,
           fault_barriers_seen(), fault_injected(), steals);
    assert_int_equal(atomic_load_explicit(&body_bad, memory_order_relaxed), 0);
    assert_int_equal(fault_run_errors, 0);
    assert_true(fault_injected() > 0);
    if (!every_other) assert_int_equal(steals, 0); /* no theft without an announcement */
    if (every_other) assert_true(fault_injected() < fault_barriers_seen());
  }
}

static int fault_teardown(void **state) {
  fault_disarm();
  adapt_finalize();
  assert_int_equal(settled_task_count(), base_tasks);
  return 0;
}

#define FAULT_TEST(f) cmocka_unit_test_teardown(f, fault_teardown)

static void *no_op(void *arg) { return arg; }

int main(void) {
  /* ThreadSanitizer starts a thread of its own at the first pthread_create
   * of the process: create one first, so that the baseline includes it. */
  pthread_t t;
  if (pthread_create(&t, NULL, no_op, NULL) == 0) pthread_join(t, NULL);
  base_tasks = settled_task_count_any();
  /* Under ThreadSanitizer N_MAX / 16: 4 windows of 1024 elements, steals in
   * every call, each algorithm's and the runtime's allocations failed as
   * at N_MAX / 8 (ASan's size; release runs N_MAX), and half the time
   * (algo_map: 4.4 s against 8.8 s). The size is the other variants' to
   * check; TSan checks the races of the failure paths. */
  fault_n_elems = adapt_test_trials(N_MAX, N_MAX / 8, N_MAX / 16);
  /* The calling thread's grain caches (a heap table per thread, kept until
   * the thread exits: loop.c, seq_engine.c) are made before the runs count
   * their blocks; the workers' go with their threads at adapt_finalize. */
  if (adapt_for(0, 1000, fault_mark_body, NULL, NULL) != 0 ||
      adapt_for_each_range(fault_marks, 1000, 1, fault_op_mark_range, NULL, NULL) != 0) {
    fprintf(stderr, "fault_driver: the warm-up calls failed\n");
    return 1;
  }
  adapt_finalize();
  memset(fault_marks, 0, sizeof fault_marks);
  for (size_t i = 0; i < N_MAX; i++) {
    fault_in[i] = i;
    fault_scan_in[i] = fault_affine_of(i);
  }
  /* Lazy starts use WORKERS workers, like the explicit ones. */
  setenv("ADAPT_WORKERS", "4", 1);
  const char *tmp = getenv("TMPDIR");
  snprintf(fault_trace_path, sizeof fault_trace_path, "%s/adapt-fault-trace-%ld.csv",
           tmp && *tmp ? tmp : "/tmp", (long)getpid());
  const struct CMUnitTest tests[] = {
      FAULT_TEST(test_init),
      FAULT_TEST(test_lazy),
      FAULT_TEST(test_for_all),
      FAULT_TEST(test_tasks),
      FAULT_TEST(test_algo_map),
      FAULT_TEST(test_algo_var),
      FAULT_TEST(test_algo_reduce),
      FAULT_TEST(test_adaptive),
      FAULT_TEST(test_queries),
      FAULT_TEST(test_solo),
      FAULT_TEST(test_thread_creation),
      FAULT_TEST(test_thief_barrier),
  };
  int rc = adapt_test_run("fault injection", tests);
  unlink(fault_trace_path);
  return rc;
}
