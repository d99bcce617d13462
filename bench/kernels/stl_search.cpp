/* bench_stl's searches (stl_impls.hpp): find_if (first match at 3n/4), find
 * (the same element by value), any_of / none_of (no match: full scan),
 * all_of (all match). GNU parallel mode and TBB have no any/all/none_of:
 * their find_if stands in. */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <execution>

/* The forms of the makers (stl_algo::form). */
enum { FIND_IF, FIND };
enum { ANY_OF, ALL_OF, NONE_OF };

/* find_if, or find by value: on the input with the match at 3n/4. */
static stl_impls stl_find(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    const double *x = c.d->find;
    const size_t n = c.n;
    stl_outcome *got = c.got;
    const double v = 1000.0;
    auto p = stl_make_above(op, 900.0);
    auto pos = [x](const double *it) { return (size_t)(it - x); };
    m.kind = OUT_INDEX;
    if (c.form == FIND) {
      STL_BY_NAME(m, c, find, [=](auto find) { got->index = pos(find(x, x + n, v)); });
      m.f[STL_TBB] =
          c.in_arena([=] { got->index = stl_tbb_find_if(x, n, [v](double e) { return e == v; }); });
      return m;
    }
    STL_BY_NAME(m, c, find_if, [=](auto find_if) { got->index = pos(find_if(x, x + n, p)); });
    m.f[STL_TBB] = c.in_arena([=] { got->index = stl_tbb_find_if(x, n, p); });
    return m;
  });
}

/* The peers' any_of, all_of, none_of: whether their find_if of q finds an
 * element, equal to `found`. */
template <class Q>
static void quantifier_peers(stl_impls &m, const stl_call &c, Q q, bool found) {
  m.f[STL_GNU] = [=] {
    c.got->flag = (__gnu_parallel::find_if(c.in, c.in + c.n, q) != c.in + c.n) == found;
  };
  m.f[STL_TBB] = c.in_arena([=] { c.got->flag = (stl_tbb_find_if(c.in, c.n, q) != c.n) == found; });
}

/* any_of and none_of (no element above 2000: full scan), all_of (every
 * element above -1000); the peers: find_if of the predicate (all_of: of
 * its negation). */
static stl_impls stl_quantifier(const stl_call &c) {
  return stl_with_op(c.op, [&](auto op) {
    stl_impls m;
    auto p = stl_make_above(op, c.form == ALL_OF ? -1000.0 : 2000.0);
    m.kind = OUT_BOOL;
    m.note = "gnu, tbb: find_if";
    if (c.form == ALL_OF) {
      STL_BY_NAME_NO_GNU(m, c, all_of,
                         [=](auto all_of) { c.got->flag = all_of(c.in, c.in + c.n, p); });
      quantifier_peers(
          m, c, [p](double x) { return !p(x); }, false);
    } else if (c.form == NONE_OF) {
      STL_BY_NAME_NO_GNU(m, c, none_of,
                         [=](auto none_of) { c.got->flag = none_of(c.in, c.in + c.n, p); });
      quantifier_peers(m, c, p, false);
    } else {
      STL_BY_NAME_NO_GNU(m, c, any_of,
                         [=](auto any_of) { c.got->flag = any_of(c.in, c.in + c.n, p); });
      quantifier_peers(m, c, p, true);
    }
    return m;
  });
}

const std::vector<stl_algo> STL_SEARCH_ALGOS = {
    {"find_if", STL_COSTLY, stl_find, FIND_IF},
    {"find", STL_CHEAP, stl_find, FIND},
    {"any_of", STL_COSTLY, stl_quantifier, ANY_OF},
    {"all_of", STL_COSTLY, stl_quantifier, ALL_OF},
    {"none_of", STL_COSTLY, stl_quantifier, NONE_OF},
};
