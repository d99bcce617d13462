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

stl_impls stl_reduce(const stl_call &c) {
  stl_impls m;
  const double *in = c.in();
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  m.kind = OUT_SUM;
  m.f[STL_SEQ] = [=] { got->sum = std::reduce(in, in + n, 0.0); };
  m.f[STL_ADAPT] = [=] { got->sum = adapt::reduce(in, in + n, 0.0); };
  m.f[STL_GNU] = [=] { got->sum = __gnu_parallel::accumulate(in, in + n, 0.0); };
  m.f[STL_TBB] = c.in_arena([=] { got->sum = stl_tbb_sum(in, n, [](double x) { return x; }); });
  m.f[STL_PSTL] = c.in_arena([=] { got->sum = std::reduce(par, in, in + n, 0.0); });
  m.note = "gnu: accumulate";
  return m;
}

/* GNU's inner_product of [x, x + n) and y with operations: its sequential
 * fallback (one thread, or n < accumulate_minimal_n) drops the operations
 * and returns the plain inner product (libstdc++ 12, parallel/numeric);
 * there the call is what the fallback means, std::inner_product. */
template <class Mul>
static std::function<void()> gnu_inner_product(const stl_call &c, const double *x, const double *y,
                                               Mul mul) {
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  std::plus<double> plus;
  return [=] {
    got->sum = omp_get_max_threads() > 1
                   ? __gnu_parallel::inner_product(x, x + n, y, 0.0, plus, mul)
                   : std::inner_product(x, x + n, y, 0.0, plus, mul);
  };
}

template <class Op>
static stl_impls transform_reduce_with(const stl_call &c, Op op) {
  stl_impls m;
  const double *in = c.in();
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  std::plus<double> plus;
  m.kind = OUT_SUM;
  m.f[STL_SEQ] = [=] { got->sum = std::transform_reduce(in, in + n, 0.0, plus, op); };
  m.f[STL_ADAPT] = [=] { got->sum = adapt::transform_reduce(in, in + n, 0.0, plus, op); };
  m.f[STL_GNU] = gnu_inner_product(c, in, in, [op](double a, double) { return op(a); });
  m.f[STL_TBB] = c.in_arena([=] { got->sum = stl_tbb_sum(in, n, op); });
  m.f[STL_PSTL] =
      c.in_arena([=] { got->sum = std::transform_reduce(par, in, in + n, 0.0, plus, op); });
  m.note = "gnu: inner_product";
  return m;
}

stl_impls stl_transform_reduce(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return transform_reduce_with(c, op); });
}

/* Binary: the dot product of in and rnd (cheap: std's default + and *;
 * costly: op(x) * y). */
template <class Op>
static stl_impls transform_reduce2_with(const stl_call &c, Op op) {
  stl_impls m;
  const double *in = c.in(), *y = c.d->rnd;
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  const bool plain = std::is_same_v<Op, stl_cheap>;
  std::plus<double> plus;
  auto mul = [op](double a, double b) { return op(a) * b; };
  m.kind = OUT_SUM;
  if (plain) {
    m.f[STL_SEQ] = [=] { got->sum = std::transform_reduce(in, in + n, y, 0.0); };
    m.f[STL_ADAPT] = [=] { got->sum = adapt::transform_reduce(in, in + n, y, 0.0); };
    m.f[STL_GNU] = [=] { got->sum = __gnu_parallel::inner_product(in, in + n, y, 0.0); };
    m.f[STL_PSTL] = c.in_arena([=] { got->sum = std::transform_reduce(par, in, in + n, y, 0.0); });
  } else {
    m.f[STL_SEQ] = [=] { got->sum = std::transform_reduce(in, in + n, y, 0.0, plus, mul); };
    m.f[STL_ADAPT] = [=] { got->sum = adapt::transform_reduce(in, in + n, y, 0.0, plus, mul); };
    m.f[STL_GNU] = gnu_inner_product(c, in, y, mul);
    m.f[STL_PSTL] =
        c.in_arena([=] { got->sum = std::transform_reduce(par, in, in + n, y, 0.0, plus, mul); });
  }
  m.f[STL_TBB] = c.in_arena([=] {
    got->sum = tbb::parallel_reduce(
        stl_range(0, n), 0.0,
        [=](const stl_range &r, double acc) {
          for (size_t i = r.begin(); i < r.end(); i++)
            acc += plain ? in[i] * y[i] : mul(in[i], y[i]);
          return acc;
        },
        std::plus<double>());
  });
  m.note = "gnu: inner_product";
  return m;
}

stl_impls stl_transform_reduce2(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return transform_reduce2_with(c, op); });
}

/* count_if (half match) and count (a value, 1/1000 of the elements). */
template <class Pred>
static stl_impls count_with(const stl_call &c, Pred p, bool by_value, double v) {
  stl_impls m;
  const double *in = c.in();
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  m.kind = OUT_INDEX;
  if (by_value) {
    m.f[STL_SEQ] = [=] { got->index = (size_t)std::count(in, in + n, v); };
    m.f[STL_ADAPT] = [=] { got->index = (size_t)adapt::count(in, in + n, v); };
    m.f[STL_GNU] = [=] { got->index = (size_t)__gnu_parallel::count(in, in + n, v); };
    m.f[STL_PSTL] = c.in_arena([=] { got->index = (size_t)std::count(par, in, in + n, v); });
  } else {
    m.f[STL_SEQ] = [=] { got->index = (size_t)std::count_if(in, in + n, p); };
    m.f[STL_ADAPT] = [=] { got->index = (size_t)adapt::count_if(in, in + n, p); };
    m.f[STL_GNU] = [=] { got->index = (size_t)__gnu_parallel::count_if(in, in + n, p); };
    m.f[STL_PSTL] = c.in_arena([=] { got->index = (size_t)std::count_if(par, in, in + n, p); });
  }
  m.f[STL_TBB] = c.in_arena([=] { got->index = stl_tbb_count_if(in, n, p); });
  return m;
}

stl_impls stl_count_if(const stl_call &c) {
  return stl_with_op(c.op,
                     [&](auto op) { return count_with(c, stl_make_above(op, 0.0), false, 0.0); });
}

stl_impls stl_count(const stl_call &c) {
  const double v = 7.0;
  return count_with(
      c, [v](double e) { return e == v; }, true, v);
}
