/* bench_stl's element-wise family (stl_impls.hpp): for_each, for_each_n,
 * transform, fill, generate. GNU parallel mode has no for_each_n (its
 * for_each stands in) and no fill (its generate stands in). */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <execution>

/* The forms of the makers (stl_algo::form). */
enum { FOR_EACH, FOR_EACH_N };

static stl_impls stl_for_each(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    auto body = [op](double &v) { v = op(v); };
    m.kind = OUT_IO;
    m.io_src = c.in;
    if (c.form == FOR_EACH_N) {
      STL_BY_NAME_NO_GNU(m, c, for_each_n, [=](auto for_each_n) { for_each_n(c.io, c.n, body); });
      m.f[STL_GNU] = [=] { __gnu_parallel::for_each(c.io, c.io + c.n, body); };
      m.note = "gnu: for_each";
    } else
      STL_BY_NAME(m, c, for_each, [=](auto for_each) { for_each(c.io, c.io + c.n, body); });
    m.f[STL_TBB] = c.in_arena([=] {
      double *io = c.io;
      stl_tbb_map(c.n, [=](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) io[i] = op(io[i]);
      });
    });
    return m;
  });
}

static stl_impls stl_transform(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    STL_BY_NAME(m, c, transform, [=](auto transform) { transform(c.in, c.in + c.n, c.out, op); });
    m.f[STL_TBB] = c.in_arena([=] {
      const double *in = c.in;
      double *out = c.out;
      stl_tbb_map(c.n, [=](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) out[i] = op(in[i]);
      });
    });
    return m;
  });
}

/* The peers' fill of the value v: GNU's generate, a TBB map of std::fill. */
static void fill_peers(stl_impls &m, const stl_call &c, double v) {
  auto gen = [v] { return v; };
  m.f[STL_GNU] = [=] { __gnu_parallel::generate(c.out, c.out + c.n, gen); };
  m.f[STL_TBB] = c.in_arena([=] {
    double *out = c.out;
    stl_tbb_map(c.n, [=](size_t lo, size_t hi) { std::fill(out + lo, out + hi, v); });
  });
}

static stl_impls stl_fill(const stl_call &c) {
  stl_impls m;
  const double v = 1.5;
  STL_BY_NAME_NO_GNU(m, c, fill, [=](auto fill) { fill(c.out, c.out + c.n, v); });
  m.note = "gnu: generate";
  fill_peers(m, c, v);
  return m;
}

static stl_impls stl_generate(const stl_call &c) {
  stl_impls m;
  const double v = 2.5;
  auto gen = [v] { return v; };
  STL_BY_NAME_NO_GNU(m, c, generate, [=](auto generate) { generate(c.out, c.out + c.n, gen); });
  fill_peers(m, c, v);
  return m;
}

const std::vector<stl_algo> STL_MAP_ALGOS = {
    {"for_each", STL_UNBALANCED, stl_for_each, FOR_EACH},
    {"for_each_n", STL_COSTLY, stl_for_each, FOR_EACH_N},
    {"transform", STL_UNBALANCED, stl_transform, 0},
    {"fill", STL_CHEAP, stl_fill, 0},
    {"generate", STL_CHEAP, stl_generate, 0},
};
