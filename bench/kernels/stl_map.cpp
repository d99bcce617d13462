/* bench_stl's element-wise family (stl_impls.hpp): for_each, for_each_n,
 * transform, fill, generate. GNU parallel mode has no for_each_n (its
 * for_each stands in) and no fill (its generate stands in). */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <execution>

/* for_each, or with by_count for_each_n (GNU: for_each). */
template <class Op>
static stl_impls for_each_with(const stl_call &c, Op op, bool by_count) {
  stl_impls m;
  double *io = c.d->io;
  const size_t n = c.d->n;
  auto body = [op](double &v) { v = op(v); };
  auto par = std::execution::par;
  m.kind = OUT_IO;
  m.io_src = c.in();
  if (by_count) {
    m.f[STL_SEQ] = [=] { std::for_each_n(io, n, body); };
    m.f[STL_ADAPT] = [=] { adapt::for_each_n(io, n, body); };
    m.f[STL_PSTL] = c.in_arena([=] { std::for_each_n(par, io, n, body); });
    m.note = "gnu: for_each";
  } else {
    m.f[STL_SEQ] = [=] { std::for_each(io, io + n, body); };
    m.f[STL_ADAPT] = [=] { adapt::for_each(io, io + n, body); };
    m.f[STL_PSTL] = c.in_arena([=] { std::for_each(par, io, io + n, body); });
  }
  m.f[STL_GNU] = [=] { __gnu_parallel::for_each(io, io + n, body); };
  m.f[STL_TBB] = c.in_arena([=] {
    stl_tbb_map(n, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) io[i] = op(io[i]);
    });
  });
  return m;
}

template <class Op>
static stl_impls transform_with(const stl_call &c, Op op) {
  stl_impls m;
  const double *in = c.in();
  double *out = c.d->out;
  const size_t n = c.d->n;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::transform(in, in + n, out, op); };
  m.f[STL_ADAPT] = [=] { adapt::transform(in, in + n, out, op); };
  m.f[STL_GNU] = [=] { __gnu_parallel::transform(in, in + n, out, op); };
  m.f[STL_TBB] = c.in_arena([=] {
    stl_tbb_map(n, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; i++) out[i] = op(in[i]);
    });
  });
  m.f[STL_PSTL] = c.in_arena([=] { std::transform(par, in, in + n, out, op); });
  return m;
}

stl_impls stl_for_each(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return for_each_with(c, op, false); });
}

stl_impls stl_for_each_n(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return for_each_with(c, op, true); });
}

stl_impls stl_transform(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return transform_with(c, op); });
}

/* The peers' part of fill and generate (the value v everywhere): GNU's
 * generate, a TBB map of std::fill. */
static void fill_peers(stl_impls &m, const stl_call &c, double v) {
  double *out = c.d->out;
  const size_t n = c.d->n;
  auto gen = [v] { return v; };
  m.f[STL_GNU] = [=] { __gnu_parallel::generate(out, out + n, gen); };
  m.f[STL_TBB] = c.in_arena(
      [=] { stl_tbb_map(n, [=](size_t lo, size_t hi) { std::fill(out + lo, out + hi, v); }); });
}

stl_impls stl_fill(const stl_call &c) {
  stl_impls m;
  double *out = c.d->out;
  const size_t n = c.d->n;
  const double v = 1.5;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::fill(out, out + n, v); };
  m.f[STL_ADAPT] = [=] { adapt::fill(out, out + n, v); };
  m.f[STL_PSTL] = c.in_arena([=] { std::fill(par, out, out + n, v); });
  m.note = "gnu: generate";
  fill_peers(m, c, v);
  return m;
}

stl_impls stl_generate(const stl_call &c) {
  stl_impls m;
  double *out = c.d->out;
  const size_t n = c.d->n;
  const double v = 2.5;
  auto gen = [v] { return v; };
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::generate(out, out + n, gen); };
  m.f[STL_ADAPT] = [=] { adapt::generate(out, out + n, gen); };
  m.f[STL_PSTL] = c.in_arena([=] { std::generate(par, out, out + n, gen); });
  fill_peers(m, c, v);
  return m;
}
