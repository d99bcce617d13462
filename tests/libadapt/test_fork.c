/* fork() while the runtime runs (runtime.c, after_fork_child): the child,
 * which has only the forking thread, exits without waiting for a region
 * that another thread of the parent was running, starts a runtime of its
 * own (new worker threads, every scheduler correct), and its thread has
 * the CPUs back that it had before the runtime bound it as worker 0.
 * Each child reports through its exit status; the parent waits at most
 * CHILD_WAIT_S for it and kills it when it hangs. */
#include <adapt/adaptive.h>
#include <adapt/loop.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapt_test.h" /* cmocka */

enum { CHILD_WAIT_S = 20 };

/* Under ThreadSanitizer a child of a multithreaded process may not create
 * threads (its die_after_fork): there the child's runtime has one worker. */
static int child_workers(void) {
  const char *v = getenv("ADAPT_TEST_VARIANT");
  return v && strcmp(v, "tsan") == 0 ? 1 : 0;
}

/* Waits for pid; its exit status, or -1 if it was killed (by a signal, or
 * by this function after CHILD_WAIT_S seconds). */
static int wait_child(pid_t pid) {
  for (int i = 0; i < CHILD_WAIT_S * 100; i++) {
    int st;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    assert_int_equal(r, 0);
    struct timespec t = {0, 10 * 1000 * 1000};
    nanosleep(&t, NULL);
  }
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  return -1;
}

static atomic_int started;

static void sleepy(size_t b, size_t e, void *ctx) {
  (void)ctx;
  atomic_store_explicit(&started, 1, memory_order_relaxed);
  for (size_t i = b; i < e; i++) adapt_test_spin_ns(200000);
}

static void *run_region(void *arg) {
  (void)arg;
  adapt_attr a = {0};
  a.grain = 1;
  return (void *)(intptr_t)adapt_for(0, 1000, sleepy, NULL, &a);
}

/* Set in the child of test_fork_during_region before it calls exit(). */
static volatile sig_atomic_t child_exiting;

/* Registered by main before the runtime's own atexit handler, so it runs
 * after it: once the runtime's finalize has returned, the child ends with
 * _exit(0), before the libraries' destructors. In the asan variant those
 * run LeakSanitizer's check, which takes the allocator's lock: another
 * thread of the parent may have held it at the fork, and the child then
 * waits forever (GCC 12's libasan takes no lock around fork). The runtime's
 * finalize, the behaviour under test, has run by then. */
static void child_end(void) {
  if (child_exiting) _exit(0);
}

/* A thread of the parent is inside a region when another forks: the child
 * exits through exit() (its atexit finalize) instead of waiting forever. */
static void test_fork_during_region(void **state) {
  (void)state;
  assert_int_equal(adapt_test_workers(2), 0);
  atomic_store(&started, 0);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, run_region, NULL), 0);
  while (!atomic_load_explicit(&started, memory_order_relaxed)) sched_yield();
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    child_exiting = 1;
    exit(0);
  }
  int st = wait_child(pid);
  void *rc;
  pthread_join(t, &rc);
  assert_int_equal((int)(intptr_t)rc, 0);
  assert_int_equal(st, 0);
}

static _Atomic unsigned long long total;

static void add(size_t b, size_t e, void *ctx) {
  (void)ctx;
  unsigned long long s = 0;
  for (size_t i = b; i < e; i++) s += i;
  atomic_fetch_add_explicit(&total, s, memory_order_relaxed);
}

/* In a child: every scheduler sums 0..n-1 on the child's runtime. 0 or the
 * failing check's number. */
static int child_loops(void) {
  const size_t n = 200000;
  for (int s = 1; s < ADAPT_SCHED_COUNT; s++) {
    adapt_attr a = {0};
    a.sched = (adapt_sched)s;
    a.grain = 64;
    atomic_store(&total, 0);
    if (adapt_for(0, n, add, NULL, &a) != 0) return 10 + s;
    if (atomic_load(&total) != (unsigned long long)n * (n - 1) / 2) return 30 + s;
  }
  return 0;
}

/* In a child's region: adapt_idle_workers once its workers are back in
 * their idle loop (at most 2 s); the parent's idle workers, which do not
 * exist here, are not counted. */
static int child_idle_count(void) {
  const adapt_task inert = adapt_test_inert_task();
  adapt_test_range r = {0, 0};
  adapt_frame f;
  if (adapt_begin(&f, &inert, &r) != 0) return -1;
  int want = adapt_num_workers() - 1, got = -1;
  for (int i = 0; i < 2000 && (got = adapt_idle_workers()) != want; i++) {
    struct timespec t = {0, 1000 * 1000};
    nanosleep(&t, NULL);
  }
  adapt_end(&f);
  return got;
}

/* The child of a process whose runtime runs starts its own: its worker
 * threads exist (the parent's do not, in the child), and its loops run on
 * them. */
static void test_child_new_runtime(void **state) {
  (void)state;
  assert_int_equal(adapt_test_workers(2), 0);
  assert_int_equal(adapt_for(0, 1000, add, NULL, NULL), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    adapt_config cfg = {0};
    cfg.workers = child_workers() ? child_workers() : 2;
    if (adapt_init(&cfg) != 0) _exit(1);
    if (adapt_test_worker_threads() != cfg.workers - 1) _exit(2);
    if (child_idle_count() != cfg.workers - 1) _exit(4);
    int r = child_loops();
    if (r) _exit(r);
    adapt_finalize();
    if (adapt_test_worker_threads_settled(1000) != 0) _exit(3);
    _exit(0);
  }
  assert_int_equal(wait_child(pid), 0);
  /* The parent's runtime is untouched. */
  assert_int_equal(adapt_num_workers(), 2);
  atomic_store(&total, 0);
  assert_int_equal(adapt_for(0, 1000, add, NULL, NULL), 0);
  assert_int_equal(atomic_load(&total), 999ull * 1000 / 2);
}

/* The forking thread is worker 0, bound to one CPU by the runtime: in the
 * child it has its CPUs from before the runtime back, and the child's
 * runtime counts them all. */
static void test_child_binding(void **state) {
  (void)state;
  cpu_set_t before;
  assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  assert_int_equal(adapt_init(NULL), 0); /* bound: ADAPT_BIND unset, main unsets it */
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    cpu_set_t now;
    if (pthread_getaffinity_np(pthread_self(), sizeof now, &now) != 0) _exit(1);
    if (!CPU_EQUAL(&now, &before)) _exit(2);
    adapt_config cfg = {0};
    cfg.workers = child_workers();
    if (adapt_init(&cfg) != 0) _exit(3);
    int want = cfg.workers ? cfg.workers : CPU_COUNT(&before) < 256 ? CPU_COUNT(&before) : 256;
    if (adapt_num_workers() != want) _exit(4);
    int r = child_loops();
    if (r) _exit(r);
    adapt_finalize();
    _exit(0);
  }
  assert_int_equal(wait_child(pid), 0);
}

int main(void) {
  if (atexit(child_end) != 0) return 1;
  unsetenv("ADAPT_WORKERS");
  unsetenv("ADAPT_BIND");
  const struct CMUnitTest tests[] = {
      ADAPT_TEST(test_fork_during_region),
      ADAPT_TEST(test_child_new_runtime),
      ADAPT_TEST(test_child_binding),
  };
  return adapt_test_run("fork", tests);
}
