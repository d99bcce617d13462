/* bench_stl's scans (stl_impls.hpp): copy_if (half match), inclusive_scan
 * and exclusive_scan (+; op nondet: adapt with
 * adapt::par.deterministic(false)). GNU parallel mode has no copy_if and no
 * exclusive_scan; its partial_sum stands in for inclusive_scan. */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>
#include <parallel/numeric>

#include <algorithm>
#include <execution>
#include <numeric>

template <class Op>
static stl_impls copy_if_with(const stl_call &c, Op op) {
  stl_impls m;
  const double *in = c.in();
  double *out = c.d->out;
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  auto p = stl_make_above(op, 0.0);
  m.kind = OUT_COPY;
  m.f[STL_SEQ] = [=] { got->index = (size_t)(std::copy_if(in, in + n, out, p) - out); };
  m.f[STL_ADAPT] = [=] { got->index = (size_t)(adapt::copy_if(in, in + n, out, p) - out); };
  m.f[STL_TBB] = c.in_arena([=] { got->index = stl_tbb_copy_if(in, n, out, p); });
  m.f[STL_PSTL] =
      c.in_arena([=] { got->index = (size_t)(std::copy_if(par, in, in + n, out, p) - out); });
  return m;
}

stl_impls stl_copy_if(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return copy_if_with(c, op); });
}

stl_impls stl_inclusive_scan(const stl_call &c) {
  stl_impls m;
  const double *in = c.in();
  double *out = c.d->out;
  const size_t n = c.d->n;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::inclusive_scan(in, in + n, out); };
  if (c.op == STL_OP_NONDET)
    m.f[STL_ADAPT] = [=] {
      adapt::inclusive_scan(adapt::par.deterministic(false), in, in + n, out);
    };
  else
    m.f[STL_ADAPT] = [=] { adapt::inclusive_scan(in, in + n, out); };
  m.f[STL_GNU] = [=] { __gnu_parallel::partial_sum(in, in + n, out); };
  m.f[STL_TBB] = c.in_arena([=] { stl_tbb_scan(in, n, out, true); });
  m.f[STL_PSTL] = c.in_arena([=] { std::inclusive_scan(par, in, in + n, out); });
  m.note = "gnu: partial_sum";
  return m;
}

stl_impls stl_exclusive_scan(const stl_call &c) {
  stl_impls m;
  const double *in = c.in();
  double *out = c.d->out;
  const size_t n = c.d->n;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::exclusive_scan(in, in + n, out, 0.0); };
  if (c.op == STL_OP_NONDET)
    m.f[STL_ADAPT] = [=] {
      adapt::exclusive_scan(adapt::par.deterministic(false), in, in + n, out, 0.0);
    };
  else
    m.f[STL_ADAPT] = [=] { adapt::exclusive_scan(in, in + n, out, 0.0); };
  m.f[STL_TBB] = c.in_arena([=] { stl_tbb_scan(in, n, out, false); });
  m.f[STL_PSTL] = c.in_arena([=] { std::exclusive_scan(par, in, in + n, out, 0.0); });
  return m;
}
