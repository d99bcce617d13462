/* Worker placement (topology.c): the runtime keeps to the CPUs that the
 * thread starting it may run on (taskset, numactl, an MPI launcher's or a
 * batch system's binding). The default worker count is their number, each
 * worker is bound to one of them (or, unbound, inherits them), and the
 * caller's binding is given back at finalize. The machine's topology is
 * loaded once per HWLOC_* environment. */
#include <adapt/loop.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_test.h" /* cmocka */

/* The CPUs this process started with. */
static cpu_set_t start_set;

static int last_cpu(const cpu_set_t *s) {
  int c = -1;
  for (int i = 0; i < CPU_SETSIZE; i++)
    if (CPU_ISSET(i, s)) c = i;
  return c;
}

static void set_self(const cpu_set_t *s) {
  assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof *s, s), 0);
}

/* Restricts the calling thread to the last starting CPU; *one: that set.
 * Returns the CPU. */
static int pin_to_last(cpu_set_t *one) {
  int c = last_cpu(&start_set);
  CPU_ZERO(one);
  CPU_SET(c, one);
  set_self(one);
  return c;
}

/* Teardown: the shared one, then the starting CPUs back. */
static int teardown(void **state) {
  int rc = adapt_test_teardown(state);
  set_self(&start_set);
  return rc;
}

/* Checks that every live worker thread may run on `only` and nowhere else.
 * Returns how many worker threads it checked. */
static int check_worker_threads(const cpu_set_t *only) {
  int tids[64];
  int n = adapt_test_worker_tids(tids, 64);
  assert_true(n <= 64);
  for (int i = 0; i < n; i++) {
    cpu_set_t s;
    CPU_ZERO(&s);
    assert_int_equal(sched_getaffinity((pid_t)tids[i], sizeof s, &s), 0);
    assert_true(CPU_EQUAL(&s, only));
  }
  return n;
}

/* Each CPU a body ran on, as bits. */
typedef struct seen {
  _Atomic unsigned long long cpus;
  atomic_int bad; /* a CPU beyond the 64 the mask holds */
} seen;

static void record_cpu(size_t b, size_t e, void *ctx) {
  seen *s = ctx;
  for (size_t i = b; i < e; i++) {
    int c = sched_getcpu();
    if (c < 0 || c >= 64)
      atomic_store_explicit(&s->bad, 1, memory_order_relaxed);
    else
      atomic_fetch_or_explicit(&s->cpus, 1ull << c, memory_order_relaxed);
    adapt_test_spin_ns(2000);
  }
}

/* Runs a loop whose bodies record their CPU; returns the CPUs. */
static unsigned long long cpus_of_bodies(void) {
  seen s = {0};
  adapt_attr a = {0};
  a.grain = 4;
  assert_int_equal(adapt_for(0, adapt_test_scale(20000, 4000), record_cpu, &s, &a), 0);
  assert_int_equal(atomic_load(&s.bad), 0);
  return atomic_load(&s.cpus);
}

/* With the whole starting set: one worker per CPU of it, on distinct CPUs
 * of it. */
static void test_whole_set(void **state) {
  (void)state;
  assert_int_equal(adapt_init(NULL), 0);
  int n = adapt_num_workers(), ncpus = CPU_COUNT(&start_set);
  assert_int_equal(n, ncpus < 256 ? ncpus : 256);
  cpu_set_t used;
  CPU_ZERO(&used);
  for (int w = 0; w < n; w++) {
    int pu = adapt_worker_pu(w);
    assert_true(pu >= 0 && pu < CPU_SETSIZE);
    assert_true(CPU_ISSET(pu, &start_set));
    assert_false(CPU_ISSET(pu, &used));
    CPU_SET(pu, &used);
  }
}

/* Restricted to one CPU, the last one (the runtime used to take CPU 0
 * whatever the caller's binding): one worker, on it; the caller runs on it
 * during the runtime and keeps its binding after finalize. */
static void test_one_cpu(void **state) {
  (void)state;
  cpu_set_t one;
  int c = pin_to_last(&one);
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_num_workers(), 1);
  assert_int_equal(adapt_worker_pu(0), c);
  if (c < 64) assert_true(cpus_of_bodies() == 1ull << c);
  adapt_finalize();
  cpu_set_t now;
  assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof now, &now), 0);
  assert_true(CPU_EQUAL(&now, &one));
}

/* More workers than the CPUs allowed: all bound there, every worker thread
 * confined to it, and the bodies ran nowhere else. */
static void test_one_cpu_three_workers(void **state) {
  (void)state;
  cpu_set_t one;
  int c = pin_to_last(&one);
  assert_int_equal(adapt_test_workers(3), 0);
  assert_int_equal(adapt_num_workers(), 3);
  for (int w = 0; w < 3; w++) assert_int_equal(adapt_worker_pu(w), c);
  if (c < 64) assert_true(cpus_of_bodies() == 1ull << c);
  assert_int_equal(check_worker_threads(&one), 2);
}

/* Unbound (bind = -1): one worker by default, no PU reported, and the
 * workers inherit the caller's CPUs instead of the whole machine's. */
static void test_one_cpu_unbound(void **state) {
  (void)state;
  cpu_set_t one;
  int c = pin_to_last(&one);
  adapt_config cfg = {0};
  cfg.bind = -1;
  assert_int_equal(adapt_init(&cfg), 0);
  assert_int_equal(adapt_num_workers(), 1);
  adapt_finalize();
  cfg.workers = 2;
  assert_int_equal(adapt_init(&cfg), 0);
  assert_int_equal(adapt_worker_pu(0), -1);
  assert_int_equal(adapt_worker_pu(1), -1);
  if (c < 64) assert_true(cpus_of_bodies() == 1ull << c);
  assert_int_equal(check_worker_threads(&one), 1);
}

/* The binding is read at each start: widened again after a restricted
 * runtime, the next runtime has every CPU back. */
static void test_restart_widens(void **state) {
  (void)state;
  cpu_set_t one;
  pin_to_last(&one);
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_num_workers(), 1);
  adapt_finalize();
  set_self(&start_set);
  assert_int_equal(adapt_init(NULL), 0);
  int ncpus = CPU_COUNT(&start_set);
  assert_int_equal(adapt_num_workers(), ncpus < 256 ? ncpus : 256);
}

/* The machine's topology is loaded once and copied at each start, but a
 * change of the HWLOC_* environment loads it again: a synthetic machine of
 * 6 PUs gives 6 workers (not this system: nothing bound), and the real one
 * is back once the variable is gone. */
static void test_hwloc_env_reloads(void **state) {
  (void)state;
  int ncpus = CPU_COUNT(&start_set);
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_num_workers(), ncpus < 256 ? ncpus : 256);
  adapt_finalize();
  setenv("HWLOC_SYNTHETIC", "pack:2 core:3 pu:1", 1);
  int rc = adapt_init(NULL);
  unsetenv("HWLOC_SYNTHETIC");
  assert_int_equal(rc, 0);
  assert_int_equal(adapt_num_workers(), 6);
  adapt_finalize();
  assert_int_equal(adapt_init(NULL), 0);
  assert_int_equal(adapt_num_workers(), ncpus < 256 ? ncpus : 256);
}

int main(void) {
  unsetenv("ADAPT_WORKERS");
  unsetenv("ADAPT_BIND");
  CPU_ZERO(&start_set);
  if (pthread_getaffinity_np(pthread_self(), sizeof start_set, &start_set) != 0) {
    fprintf(stderr, "test_topology: pthread_getaffinity_np failed\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_whole_set, teardown),
      cmocka_unit_test_teardown(test_one_cpu, teardown),
      cmocka_unit_test_teardown(test_one_cpu_three_workers, teardown),
      cmocka_unit_test_teardown(test_one_cpu_unbound, teardown),
      cmocka_unit_test_teardown(test_restart_widens, teardown),
      cmocka_unit_test_teardown(test_hwloc_env_reloads, teardown),
  };
  return adapt_test_run("topology", tests);
}
