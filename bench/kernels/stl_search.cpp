/* bench_stl's searches (stl_impls.hpp): find_if (first match at 3n/4), find
 * (the same element by value), any_of / none_of (no match: full scan),
 * all_of (all match). GNU parallel mode and TBB have no any/all/none_of:
 * their find_if stands in. */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <execution>

/* find_if, or with by_value find of v (pred: == v for TBB). */
template <class Pred>
static stl_impls find_with(const stl_call &c, Pred p, bool by_value, double v) {
  stl_impls m;
  const double *x = c.d->find;
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  auto pos = [x](const double *it) { return (size_t)(it - x); };
  m.kind = OUT_INDEX;
  if (by_value) {
    m.f[STL_SEQ] = [=] { got->index = pos(std::find(x, x + n, v)); };
    m.f[STL_ADAPT] = [=] { got->index = pos(adapt::find(x, x + n, v)); };
    m.f[STL_GNU] = [=] { got->index = pos(__gnu_parallel::find(x, x + n, v)); };
    m.f[STL_PSTL] = c.in_arena([=] { got->index = pos(std::find(par, x, x + n, v)); });
  } else {
    m.f[STL_SEQ] = [=] { got->index = pos(std::find_if(x, x + n, p)); };
    m.f[STL_ADAPT] = [=] { got->index = pos(adapt::find_if(x, x + n, p)); };
    m.f[STL_GNU] = [=] { got->index = pos(__gnu_parallel::find_if(x, x + n, p)); };
    m.f[STL_PSTL] = c.in_arena([=] { got->index = pos(std::find_if(par, x, x + n, p)); });
  }
  m.f[STL_TBB] = c.in_arena([=] { got->index = stl_tbb_find_if(x, n, p); });
  return m;
}

stl_impls stl_find_if(const stl_call &c) {
  return stl_with_op(c.op,
                     [&](auto op) { return find_with(c, stl_make_above(op, 900.0), false, 0.0); });
}

stl_impls stl_find(const stl_call &c) {
  const double v = 1000.0;
  return find_with(
      c, [v](double e) { return e == v; }, true, v);
}

/* any_of, all_of, none_of with predicate p; the peers' find_if of q: p for
 * any_of and none_of, !p for all_of; their answer: whether it found one
 * (`found`). */
enum quantifier { ANY, ALL, NONE };

template <class Q>
static void quantifier_peers(stl_impls &m, const stl_call &c, Q q, bool found) {
  const double *in = c.in();
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  m.f[STL_GNU] = [=] { got->flag = (__gnu_parallel::find_if(in, in + n, q) != in + n) == found; };
  m.f[STL_TBB] = c.in_arena([=] { got->flag = (stl_tbb_find_if(in, n, q) != n) == found; });
}

template <class Op>
static stl_impls quantifier_with(const stl_call &c, Op op, quantifier which) {
  stl_impls m;
  const double *in = c.in();
  const size_t n = c.d->n;
  stl_outcome *got = &c.d->got;
  auto par = std::execution::par;
  auto p = stl_make_above(op, which == ALL ? -1000.0 : 2000.0);
  auto np = [p](double x) { return !p(x); };
  m.kind = OUT_BOOL;
  if (which == ALL) {
    m.f[STL_SEQ] = [=] { got->flag = std::all_of(in, in + n, p); };
    m.f[STL_ADAPT] = [=] { got->flag = adapt::all_of(in, in + n, p); };
    m.f[STL_PSTL] = c.in_arena([=] { got->flag = std::all_of(par, in, in + n, p); });
    quantifier_peers(m, c, np, false);
  } else if (which == NONE) {
    m.f[STL_SEQ] = [=] { got->flag = std::none_of(in, in + n, p); };
    m.f[STL_ADAPT] = [=] { got->flag = adapt::none_of(in, in + n, p); };
    m.f[STL_PSTL] = c.in_arena([=] { got->flag = std::none_of(par, in, in + n, p); });
    quantifier_peers(m, c, p, false);
  } else {
    m.f[STL_SEQ] = [=] { got->flag = std::any_of(in, in + n, p); };
    m.f[STL_ADAPT] = [=] { got->flag = adapt::any_of(in, in + n, p); };
    m.f[STL_PSTL] = c.in_arena([=] { got->flag = std::any_of(par, in, in + n, p); });
    quantifier_peers(m, c, p, true);
  }
  m.note = "gnu, tbb: find_if";
  return m;
}

stl_impls stl_any_of(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return quantifier_with(c, op, ANY); });
}

stl_impls stl_all_of(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return quantifier_with(c, op, ALL); });
}

stl_impls stl_none_of(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) { return quantifier_with(c, op, NONE); });
}
