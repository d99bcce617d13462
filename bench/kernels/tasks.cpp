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

/* --- adapt_spawn / adapt_sync and adapt_fork / adapt_join --------------- */

namespace {

/* The two ways a level runs one half as a task and waits for it: a scope
 * per level (adapt_scope_begin, adapt_spawn, adapt_sync) or a child frame
 * (adapt_fork, adapt_join). start returns the first error, 0 when the task
 * is running or queued; wait only after a start that returned 0. Both
 * always inlined, as the calls they wrap are: the kernels measure the
 * calls, not the wrappers. */
#define VIA_INLINE __attribute__((always_inline))
struct via_spawn {
  adapt_scope s;
  VIA_INLINE int start(void (*fn)(void *), void *arg) {
    int rc = adapt_scope_begin(&s);
    return rc == 0 ? adapt_spawn(&s, fn, arg) : rc;
  }
  VIA_INLINE int wait() { return adapt_sync(&s); }
};

struct via_fork {
  adapt_child c;
  VIA_INLINE int start(void (*fn)(void *), void *arg) { return adapt_fork(&c, fn, arg); }
  VIA_INLINE int wait() { return adapt_join(&c); }
};

struct fib_arg {
  int n;
  long r;
};

template <class Via>
long fib_par(int n);

template <class Via>
void fib_task(void *p) {
  fib_arg *a = (fib_arg *)p;
  a->r = fib_par<Via>(a->n);
}

/* Each level: fib(n - 1) as the task, fib(n - 2) here, then the wait. */
template <class Via>
long fib_par(int n) {
  if (n < 2) return n;
  fib_arg a = {n - 1, 0};
  Via v;
  int rc = v.start(fib_task<Via>, &a);
  long b = fib_par<Via>(n - 2);
  if (rc == 0) rc = v.wait();
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return a.r + b;
}

struct sum_arg {
  const long *a;
  size_t n;
  long r;
};

template <class Via>
long sum_par(const long *a, size_t n);

template <class Via>
void sum_task(void *p) {
  sum_arg *s = (sum_arg *)p;
  s->r = sum_par<Via>(s->a, s->n);
}

/* Each level: the first half as the task, the second here, then the wait. */
template <class Via>
long sum_par(const long *a, size_t n) {
  if (n == 1) return a[0];
  size_t h = n / 2;
  sum_arg left = {a, h, 0};
  Via v;
  int rc = v.start(sum_task<Via>, &left);
  long right = sum_par<Via>(a + h, n - h);
  if (rc == 0) rc = v.wait();
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return left.r + right;
}

} // namespace

long tasks_fib_adapt(int n) { return fib_par<via_spawn>(n); }
long tasks_fib_fork(int n) { return fib_par<via_fork>(n); }
long tasks_sum_adapt(const long *a, size_t n) { return sum_par<via_spawn>(a, n); }
long tasks_sum_fork(const long *a, size_t n) { return sum_par<via_fork>(a, n); }

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
