/* bench_stl's reductions (stl_impls.hpp): reduce, transform_reduce (unary
 * and binary), count_if, count. GNU parallel mode's accumulate and
 * inner_product stand in for reduce and transform_reduce. */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <omp.h>
#include <parallel/algorithm>
#include <parallel/numeric>

#include <algorithm>
#include <execution>
#include <numeric>
#include <type_traits>

/* The forms of stl_count (stl_algo::form). */
enum { COUNT_IF, COUNT };

static stl_impls stl_reduce(const stl_call &c) {
  stl_impls m;
  m.kind = OUT_SUM;
  STL_BY_NAME_NO_GNU(m, c, reduce,
                     [=](auto reduce) { c.got->sum = reduce(c.in, c.in + c.n, 0.0); });
  m.f[STL_GNU] = [=] { c.got->sum = __gnu_parallel::accumulate(c.in, c.in + c.n, 0.0); };
  m.f[STL_TBB] =
      c.in_arena([=] { c.got->sum = stl_tbb_sum(c.in, c.n, [](double x) { return x; }); });
  m.note = "gnu: accumulate";
  return m;
}

/* GNU's inner_product of [c.in, c.in + n) and y with operations: its
 * sequential fallback (one thread, or n < accumulate_minimal_n) drops the
 * operations and returns the plain inner product (libstdc++ 12,
 * parallel/numeric); there the call is what the fallback means,
 * std::inner_product. */
template <class Mul>
static std::function<void()> gnu_inner_product(const stl_call &c, const double *y, Mul mul) {
  std::plus<double> plus;
  return [=] {
    c.got->sum = omp_get_max_threads() > 1
                     ? __gnu_parallel::inner_product(c.in, c.in + c.n, y, 0.0, plus, mul)
                     : std::inner_product(c.in, c.in + c.n, y, 0.0, plus, mul);
  };
}

static stl_impls stl_transform_reduce(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    std::plus<double> plus;
    m.kind = OUT_SUM;
    STL_BY_NAME_NO_GNU(m, c, transform_reduce, [=](auto transform_reduce) {
      c.got->sum = transform_reduce(c.in, c.in + c.n, 0.0, plus, op);
    });
    m.f[STL_GNU] = gnu_inner_product(c, c.in, [op](double a, double) { return op(a); });
    m.f[STL_TBB] = c.in_arena([=] { c.got->sum = stl_tbb_sum(c.in, c.n, op); });
    m.note = "gnu: inner_product";
    return m;
  });
}

/* The binary transform_reduce's TBB version: the sum of x[i] * y[i]
 * (plain) or mul(x[i], y[i]). */
template <class Mul>
static double tbb_dot(const double *x, const double *y, size_t n, bool plain, Mul mul) {
  return tbb::parallel_reduce(
      stl_range(0, n), 0.0,
      [=](const stl_range &r, double acc) {
        for (size_t i = r.begin(); i < r.end(); i++) acc += plain ? x[i] * y[i] : mul(x[i], y[i]);
        return acc;
      },
      std::plus<double>());
}

/* Binary: the dot product of in and rnd (cheap: std's default + and *;
 * costly: op(x) * y). */
static stl_impls stl_transform_reduce2(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    const double *x = c.in, *y = c.d->rnd;
    const size_t n = c.n;
    stl_outcome *got = c.got;
    const bool plain = std::is_same_v<decltype(op), stl_cheap>;
    std::plus<double> plus;
    auto mul = [op](double a, double b) { return op(a) * b; };
    m.kind = OUT_SUM;
    if (plain) {
      STL_BY_NAME_NO_GNU(m, c, transform_reduce, [=](auto transform_reduce) {
        got->sum = transform_reduce(x, x + n, y, 0.0);
      });
      m.f[STL_GNU] = [=] { got->sum = __gnu_parallel::inner_product(x, x + n, y, 0.0); };
    } else {
      STL_BY_NAME_NO_GNU(m, c, transform_reduce, [=](auto transform_reduce) {
        got->sum = transform_reduce(x, x + n, y, 0.0, plus, mul);
      });
      m.f[STL_GNU] = gnu_inner_product(c, y, mul);
    }
    m.f[STL_TBB] = c.in_arena([=] { got->sum = tbb_dot(x, y, n, plain, mul); });
    m.note = "gnu: inner_product";
    return m;
  });
}

/* count_if (half match) or count (a value, 1/1000 of the elements). */
static stl_impls stl_count(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    const double v = 7.0;
    auto p = stl_make_above(op, 0.0);
    m.kind = OUT_INDEX;
    if (c.form == COUNT) {
      STL_BY_NAME(m, c, count,
                  [=](auto count) { c.got->index = (size_t)count(c.in, c.in + c.n, v); });
      m.f[STL_TBB] = c.in_arena(
          [=] { c.got->index = stl_tbb_count_if(c.in, c.n, [v](double e) { return e == v; }); });
      return m;
    }
    STL_BY_NAME(m, c, count_if,
                [=](auto count_if) { c.got->index = (size_t)count_if(c.in, c.in + c.n, p); });
    m.f[STL_TBB] = c.in_arena([=] { c.got->index = stl_tbb_count_if(c.in, c.n, p); });
    return m;
  });
}

const std::vector<stl_algo> STL_REDUCE_ALGOS = {
    {"reduce", STL_CHEAP, stl_reduce, 0},
    {"transform_reduce", STL_UNBALANCED, stl_transform_reduce, 0},
    {"transform_reduce2", STL_COSTLY, stl_transform_reduce2, 0},
    {"count_if", STL_UNBALANCED, stl_count, COUNT_IF},
    {"count", STL_CHEAP, stl_count, COUNT},
};
