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

using std::execution::par;

/* The forms of stl_scan (stl_algo::form). */
enum { INCLUSIVE, EXCLUSIVE };

static stl_impls stl_copy_if(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    auto p = stl_make_above(op, 0.0);
    const double *in = c.in;
    double *out = c.out;
    const size_t n = c.n;
    stl_outcome *got = c.got;
    m.kind = OUT_COPY;
    STL_BY_NAME_NO_GNU(m, c, copy_if, [=](auto copy_if) {
      got->index = (size_t)(copy_if(in, in + n, out, p) - out);
    });
    m.f[STL_TBB] = c.in_arena([=] { got->index = stl_tbb_copy_if(in, n, out, p); });
    return m;
  });
}

/* inclusive_scan, or exclusive_scan from 0; op nondet: adapt's
 * non-deterministic scan. */
static stl_impls stl_scan(const stl_call &c) {
  stl_impls m;
  const adapt::policy pol = adapt::par.deterministic(false);
  const bool nondet = c.op == STL_OP_NONDET;
  if (c.form == EXCLUSIVE) {
    m.f[STL_SEQ] = [=] { std::exclusive_scan(c.in, c.in + c.n, c.out, 0.0); };
    if (nondet)
      m.f[STL_ADAPT] = [=] { adapt::exclusive_scan(pol, c.in, c.in + c.n, c.out, 0.0); };
    else
      m.f[STL_ADAPT] = [=] { adapt::exclusive_scan(c.in, c.in + c.n, c.out, 0.0); };
    m.f[STL_TBB] = c.in_arena([=] { stl_tbb_scan(c.in, c.n, c.out, false); });
    m.f[STL_PSTL] = c.in_arena([=] { std::exclusive_scan(par, c.in, c.in + c.n, c.out, 0.0); });
    return m;
  }
  m.f[STL_SEQ] = [=] { std::inclusive_scan(c.in, c.in + c.n, c.out); };
  if (nondet)
    m.f[STL_ADAPT] = [=] { adapt::inclusive_scan(pol, c.in, c.in + c.n, c.out); };
  else
    m.f[STL_ADAPT] = [=] { adapt::inclusive_scan(c.in, c.in + c.n, c.out); };
  m.f[STL_GNU] = [=] { __gnu_parallel::partial_sum(c.in, c.in + c.n, c.out); };
  m.f[STL_TBB] = c.in_arena([=] { stl_tbb_scan(c.in, c.n, c.out, true); });
  m.f[STL_PSTL] = c.in_arena([=] { std::inclusive_scan(par, c.in, c.in + c.n, c.out); });
  m.note = "gnu: partial_sum";
  return m;
}

const std::vector<stl_algo> STL_SCAN_ALGOS = {
    {"copy_if", STL_COSTLY, stl_copy_if, 0},
    {"inclusive_scan", STL_NONDET, stl_scan, INCLUSIVE},
    {"exclusive_scan", STL_NONDET, stl_scan, EXCLUSIVE},
};
