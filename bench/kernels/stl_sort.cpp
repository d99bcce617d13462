/* bench_stl's sorts (stl_impls.hpp): sort and stable_sort of random
 * doubles (operator<), sort_cmp and stable_sort_cmp (the same with a
 * comparator lambda, descending), sort_int (random ints) and sort_string
 * (n / 10 random strings). TBB has no stable sort. */
#include "stl_impls.hpp"

#include <adapt/stl.hpp>

#include <oneapi/tbb/parallel_sort.h>
#include <parallel/algorithm>

#include <algorithm>
#include <execution>

using std::execution::par;

/* The form of stl_sort (stl_algo::form): bits. */
enum { STABLE = 1, CMP = 2, INTS = 4, STRINGS = 8 };

/* Every library's sort of [x, x + n), stable or not, by cmp if given.
 * Spelled out rather than through STL_BY_NAME (stl_impls.hpp), with which
 * GCC inlines the two stable sorts differently: std's 204.1 and adapt's
 * 205.3 instructions per element instead of 205.3 and 204.1 (n = 2e5, one
 * worker, bench/scripts/stl_cachesim.sh --ir). */
template <class T, class... Cmp>
static stl_impls sorts(const stl_call &c, bool stable, T *x, size_t n, Cmp... cmp) {
  stl_impls m;
  if (stable) {
    m.f[STL_SEQ] = [=] { std::stable_sort(x, x + n, cmp...); };
    m.f[STL_ADAPT] = [=] { adapt::stable_sort(x, x + n, cmp...); };
    m.f[STL_GNU] = [=] { __gnu_parallel::stable_sort(x, x + n, cmp...); };
    m.f[STL_PSTL] = c.in_arena([=] { std::stable_sort(par, x, x + n, cmp...); });
    return m;
  }
  m.f[STL_SEQ] = [=] { std::sort(x, x + n, cmp...); };
  m.f[STL_ADAPT] = [=] { adapt::sort(x, x + n, cmp...); };
  m.f[STL_GNU] = [=] { __gnu_parallel::sort(x, x + n, cmp...); };
  m.f[STL_TBB] = c.in_arena([=] { tbb::parallel_sort(x, x + n, cmp...); });
  m.f[STL_PSTL] = c.in_arena([=] { std::sort(par, x, x + n, cmp...); });
  return m;
}

/* Not doubles: the input vector copied to io before every run, the
 * sequential result kept in ref, the others compared with it. */
template <class T>
static stl_impls on_vectors(stl_impls m, const std::vector<T> *in, std::vector<T> *io,
                            std::vector<T> *ref, const char *why) {
  m.kind = OUT_CUSTOM;
  m.reset = [=] { *io = *in; };
  m.save_ref = [=] { *ref = *io; };
  m.check = [=] { return *io == *ref ? std::string() : std::string(why); };
  return m;
}

static stl_impls stl_sort(const stl_call &c) {
  stl_data *d = c.d;
  const bool stable = c.form & STABLE;
  if (c.form & INTS)
    return on_vectors(sorts(c, stable, d->iio.data(), d->n), &d->iin, &d->iio, &d->iref,
                      "wrong sorted ints");
  if (c.form & STRINGS) {
    stl_impls m = on_vectors(sorts(c, stable, d->sio.data(), d->sio.size()), &d->sin, &d->sio,
                             &d->sref, "wrong sorted strings");
    m.note = "n/10 strings";
    return m;
  }
  /* The doubles: the random ones copied to io before every run; sort_cmp,
   * stable_sort_cmp: a comparator (descending), a capturing-free lambda as
   * a user's. */
  stl_impls m = c.form & CMP ? sorts(c, stable, c.io, c.n, [](double a, double b) { return a > b; })
                             : sorts(c, stable, c.io, c.n);
  m.kind = OUT_IO;
  m.io_src = d->rnd;
  return m;
}

const std::vector<stl_algo> STL_SORT_ALGOS = {
    {"sort", STL_CHEAP, stl_sort, 0},        {"stable_sort", STL_CHEAP, stl_sort, STABLE},
    {"sort_cmp", STL_CHEAP, stl_sort, CMP},  {"stable_sort_cmp", STL_CHEAP, stl_sort, STABLE | CMP},
    {"sort_int", STL_CHEAP, stl_sort, INTS}, {"sort_string", STL_CHEAP, stl_sort, STRINGS},
};
