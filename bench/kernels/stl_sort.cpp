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

/* Every library's sort of [x, x + n), by cmp if given. */
template <class T, class... Cmp>
static stl_impls sorts(const stl_call &c, T *x, size_t n, Cmp... cmp) {
  stl_impls m;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::sort(x, x + n, cmp...); };
  m.f[STL_ADAPT] = [=] { adapt::sort(x, x + n, cmp...); };
  m.f[STL_GNU] = [=] { __gnu_parallel::sort(x, x + n, cmp...); };
  m.f[STL_TBB] = c.in_arena([=] { tbb::parallel_sort(x, x + n, cmp...); });
  m.f[STL_PSTL] = c.in_arena([=] { std::sort(par, x, x + n, cmp...); });
  return m;
}

/* Every library's stable sort of [x, x + n), by cmp if given. */
template <class T, class... Cmp>
static stl_impls stable_sorts(const stl_call &c, T *x, size_t n, Cmp... cmp) {
  stl_impls m;
  auto par = std::execution::par;
  m.f[STL_SEQ] = [=] { std::stable_sort(x, x + n, cmp...); };
  m.f[STL_ADAPT] = [=] { adapt::stable_sort(x, x + n, cmp...); };
  m.f[STL_GNU] = [=] { __gnu_parallel::stable_sort(x, x + n, cmp...); };
  m.f[STL_PSTL] = c.in_arena([=] { std::stable_sort(par, x, x + n, cmp...); });
  return m;
}

/* The doubles: the random ones copied to io before every run. */
static stl_impls on_io(stl_impls m, const stl_call &c) {
  m.kind = OUT_IO;
  m.io_src = c.d->rnd;
  return m;
}

/* A comparator (descending), a capturing-free lambda as a user's. */
static auto descending(void) {
  return [](double a, double b) { return a > b; };
}

stl_impls stl_sort(const stl_call &c) { return on_io(sorts(c, c.d->io, c.d->n), c); }

stl_impls stl_stable_sort(const stl_call &c) { return on_io(stable_sorts(c, c.d->io, c.d->n), c); }

stl_impls stl_sort_cmp(const stl_call &c) {
  return on_io(sorts(c, c.d->io, c.d->n, descending()), c);
}

stl_impls stl_stable_sort_cmp(const stl_call &c) {
  return on_io(stable_sorts(c, c.d->io, c.d->n, descending()), c);
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

stl_impls stl_sort_int(const stl_call &c) {
  stl_data *d = c.d;
  return on_vectors(sorts(c, d->iio.data(), d->n), &d->iin, &d->iio, &d->iref, "wrong sorted ints");
}

stl_impls stl_sort_string(const stl_call &c) {
  stl_data *d = c.d;
  stl_impls m = on_vectors(sorts(c, d->sio.data(), d->sio.size()), &d->sin, &d->sio, &d->sref,
                           "wrong sorted strings");
  m.note = "n/10 strings";
  return m;
}
