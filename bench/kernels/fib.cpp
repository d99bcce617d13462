/* Fibonacci for bench_sched (fib.hpp). */
#include "fib.hpp"

#include "harness.hpp"

__attribute__((noinline)) long fib_seq(int n) {
  if (n < 2) return n;
  return fib_seq(n - 1) + fib_seq(n - 2);
}

struct fib_ctx {
  int n;
  long r[2];
  const adapt_attr *attr;
};

static long fib_level(int n, const adapt_attr *attr);

static void fib_body(size_t b, size_t e, void *p) {
  fib_ctx *c = (fib_ctx *)p;
  for (size_t i = b; i < e; i++) c->r[i] = fib_level(c->n - 1 - (int)i, c->attr);
}

static long fib_level(int n, const adapt_attr *attr) {
  if (n < 2) return n;
  fib_ctx c = {n, {0, 0}, attr};
  int rc = adapt_for(0, 2, fib_body, &c, attr);
  if (rc != 0) {
    note_nested_rc(rc);
    return -1;
  }
  return c.r[0] + c.r[1];
}

long fib_adapt(int n, const adapt_attr *attr) { return fib_level(n, attr); }

/* Call inside parallel + single. */
static long fib_task(int n) {
  if (n < 2) return n;
  long a, b;
  OMP(task shared(a) firstprivate(n))
  a = fib_task(n - 1);
  b = fib_task(n - 2);
  OMP(taskwait)
  return a + b;
}

long fib_omp_tasks(int threads, int n) {
  return omp_in_single(threads, [=] { return fib_task(n); });
}

template <class Part>
static long fib_tbb_level(int n) {
  if (n < 2) return n;
  long r[2];
  tbb::parallel_for(
      tbb::blocked_range<int>(0, 2, 1),
      [&](const tbb::blocked_range<int> &rg) {
        for (int i = rg.begin(); i != rg.end(); i++) r[i] = fib_tbb_level<Part>(n - 1 - i);
      },
      Part());
  return r[0] + r[1];
}

long fib_tbb(tbb_kind kind, tbb::task_arena &arena, int n) {
  long r = 0;
  arena.execute([&] {
    r = kind == TBB_SIMPLE ? fib_tbb_level<tbb::simple_partitioner>(n)
                           : fib_tbb_level<tbb::auto_partitioner>(n);
  });
  return r;
}
