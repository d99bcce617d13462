/* Spawn/sync kernels for bench_tasks (tasks.hpp). */
#include "tasks.hpp"

#include "harness.hpp"

#include <adapt/tasks.h>
#include <oneapi/tbb/task_group.h>

__attribute__((noinline)) long tasks_fib_seq(int n) {
  if (n < 2) return n;
  return tasks_fib_seq(n - 1) + tasks_fib_seq(n - 2);
}

__attribute__((noinline)) long tasks_sum_seq(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  return tasks_sum_seq(a, h) + tasks_sum_seq(a + h, n - h);
}

/* --- adapt_spawn / adapt_sync ------------------------------------------ */

struct fib_arg {
  int n;
  long r;
};

static long fib_adapt(int n);

static void fib_task(void *p) {
  fib_arg *a = (fib_arg *)p;
  a->r = fib_adapt(a->n);
}

/* One scope per level: spawn fib(n - 1), run fib(n - 2), sync. */
static long fib_adapt(int n) {
  if (n < 2) return n;
  fib_arg a = {n - 1, 0};
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  if (rc == 0) rc = adapt_spawn(&s, fib_task, &a);
  long b = fib_adapt(n - 2);
  if (rc == 0) rc = adapt_sync(&s);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return a.r + b;
}

long tasks_fib_adapt(int n) { return fib_adapt(n); }

struct sum_arg {
  const long *a;
  size_t n;
  long r;
};

static long sum_adapt(const long *a, size_t n);

static void sum_task(void *p) {
  sum_arg *s = (sum_arg *)p;
  s->r = sum_adapt(s->a, s->n);
}

static long sum_adapt(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  sum_arg left = {a, h, 0};
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  if (rc == 0) rc = adapt_spawn(&s, sum_task, &left);
  long right = sum_adapt(a + h, n - h);
  if (rc == 0) rc = adapt_sync(&s);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return left.r + right;
}

long tasks_sum_adapt(const long *a, size_t n) { return sum_adapt(a, n); }

/* --- adapt_fork / adapt_join (a child frame per level) ----------------- */

static long fib_fork(int n);

static void fib_fork_task(void *p) {
  fib_arg *a = (fib_arg *)p;
  a->r = fib_fork(a->n);
}

static long fib_fork(int n) {
  if (n < 2) return n;
  fib_arg a = {n - 1, 0};
  adapt_child c;
  int rc = adapt_fork(&c, fib_fork_task, &a);
  long b = fib_fork(n - 2);
  if (rc == 0) rc = adapt_join(&c);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return a.r + b;
}

long tasks_fib_fork(int n) { return fib_fork(n); }

static long sum_fork(const long *a, size_t n);

static void sum_fork_task(void *p) {
  sum_arg *s = (sum_arg *)p;
  s->r = sum_fork(s->a, s->n);
}

static long sum_fork(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  sum_arg left = {a, h, 0};
  adapt_child c;
  int rc = adapt_fork(&c, sum_fork_task, &left);
  long right = sum_fork(a + h, n - h);
  if (rc == 0) rc = adapt_join(&c);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return left.r + right;
}

long tasks_sum_fork(const long *a, size_t n) { return sum_fork(a, n); }

/* --- OpenMP tasks ------------------------------------------------------ */

static long sum_omp(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  long l, r;
  OMP(task shared(l) firstprivate(a, h))
  l = sum_omp(a, h);
  r = sum_omp(a + h, n - h);
  OMP(taskwait)
  return l + r;
}

long tasks_sum_omp(int threads, const long *a, size_t n) {
  return omp_in_single(threads, [=] { return sum_omp(a, n); });
}

/* --- TBB task_group ---------------------------------------------------- */

static long fib_tbb(int n) {
  if (n < 2) return n;
  long a;
  tbb::task_group g;
  g.run([&] { a = fib_tbb(n - 1); });
  long b = fib_tbb(n - 2);
  g.wait();
  return a + b;
}

long tasks_fib_tbb(tbb::task_arena &arena, int n) {
  long r = 0;
  arena.execute([&] { r = fib_tbb(n); });
  return r;
}

static long sum_tbb(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  long l;
  tbb::task_group g;
  g.run([&] { l = sum_tbb(a, h); });
  long r = sum_tbb(a + h, n - h);
  g.wait();
  return l + r;
}

long tasks_sum_tbb(tbb::task_arena &arena, const long *a, size_t n) {
  long r = 0;
  arena.execute([&] { r = sum_tbb(a, n); });
  return r;
}
