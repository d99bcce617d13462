/* The element operations of bench_stl and the peers' versions of the
 * algorithms that oneTBB has no ready-made call for (header-only: the
 * operation must be inlined into every implementation's loop, as a user's
 * lambda is).
 *
 * Operations on doubles (the inputs are integers in [-500, 500)):
 *   stl_cheap   0.5 x + 1: one multiply-add, memory-bound loops;
 *   stl_costly  STL_COSTLY_STEPS chained multiply-adds (~13 ns): compute-bound;
 *   stl_ramp    0 to 2 STL_COSTLY_STEPS - 1 chained steps growing with x:
 *               on the increasing input of the unbalanced cases the first
 *               elements take no step and the last ones 15 (a triangular
 *               load: the second half of the array holds 3/4 of the work).
 * Each is increasing in x, so `op(x) > op(t)` selects the elements above t.
 *
 * TBB versions (call them inside a task_arena's execute): map, reduce,
 * find_if (first match, ranges past a known match are skipped), count_if,
 * copy_if (parallel_scan: count, then write), inclusive and exclusive scans
 * (parallel_scan), all with the default auto_partitioner.
 *
 * Thread-safety: the operations are pure; the TBB functions as TBB.
 */
#ifndef BENCH_KERNELS_STL_KERNELS_HPP
#define BENCH_KERNELS_STL_KERNELS_HPP

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/parallel_scan.h>

#include <stddef.h>

#include <algorithm>
#include <atomic>
#include <functional>

enum { STL_COSTLY_STEPS = 8 };

struct stl_cheap {
  double operator()(double x) const { return 0.5 * x + 1.0; }
};

struct stl_costly {
  double operator()(double x) const {
    for (int k = 0; k < STL_COSTLY_STEPS; k++) x = x * 0.999 + 0.25;
    return x;
  }
};

struct stl_ramp {
  double operator()(double x) const {
    int steps = (int)((x + 500.0) * (2 * STL_COSTLY_STEPS) / 1000.0);
    for (int k = 0; k < steps; k++) x = x * 0.999 + 0.25;
    return x;
  }
};

/* op(x) > op(t), for any of the operations above. */
template <class Op>
struct stl_above {
  Op op;
  double t;
  bool operator()(double x) const { return op(x) > t; }
};
template <class Op>
stl_above<Op> stl_make_above(Op op, double t) {
  return stl_above<Op>{op, op(t)};
}

typedef tbb::blocked_range<size_t> stl_range;

/* body(lo, hi) over [0, n). */
template <class Body>
void stl_tbb_map(size_t n, const Body &body) {
  tbb::parallel_for(stl_range(0, n), [&](const stl_range &r) { body(r.begin(), r.end()); });
}

/* The sum of op(x[i]). */
template <class Op>
double stl_tbb_sum(const double *x, size_t n, Op op) {
  return tbb::parallel_reduce(
      stl_range(0, n), 0.0,
      [&](const stl_range &r, double acc) {
        for (size_t i = r.begin(); i < r.end(); i++) acc += op(x[i]);
        return acc;
      },
      std::plus<double>());
}

/* The first i with pred(x[i]), n if none. */
template <class Pred>
size_t stl_tbb_find_if(const double *x, size_t n, Pred pred) {
  std::atomic<size_t> found{n};
  tbb::parallel_for(stl_range(0, n), [&](const stl_range &r) {
    size_t end = std::min(r.end(), found.load(std::memory_order_relaxed));
    for (size_t i = r.begin(); i < end; i++)
      if (pred(x[i])) {
        size_t cur = found.load(std::memory_order_relaxed);
        while (i < cur && !found.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {}
        return;
      }
  });
  return found.load(std::memory_order_relaxed);
}

template <class Pred>
size_t stl_tbb_count_if(const double *x, size_t n, Pred pred) {
  return tbb::parallel_reduce(
      stl_range(0, n), (size_t)0,
      [&](const stl_range &r, size_t c) {
        for (size_t i = r.begin(); i < r.end(); i++) c += pred(x[i]) ? 1 : 0;
        return c;
      },
      std::plus<size_t>());
}

/* Stable copy_if into out; returns the number copied. */
template <class Pred>
size_t stl_tbb_copy_if(const double *x, size_t n, double *out, Pred pred) {
  return tbb::parallel_scan(
      stl_range(0, n), (size_t)0,
      [&](const stl_range &r, size_t k, bool final) {
        for (size_t i = r.begin(); i < r.end(); i++)
          if (pred(x[i])) {
            if (final) out[k] = x[i];
            k++;
          }
        return k;
      },
      std::plus<size_t>());
}

/* y[i] = x[0] + ... + x[i] (inclusive) or x[0] + ... + x[i-1] (exclusive, y[0] = 0). */
inline void stl_tbb_scan(const double *x, size_t n, double *y, bool inclusive) {
  tbb::parallel_scan(
      stl_range(0, n), 0.0,
      [&](const stl_range &r, double sum, bool final) {
        for (size_t i = r.begin(); i < r.end(); i++) {
          double next = sum + x[i];
          if (final) y[i] = inclusive ? next : sum;
          sum = next;
        }
        return sum;
      },
      std::plus<double>());
}

#endif /* BENCH_KERNELS_STL_KERNELS_HPP */
