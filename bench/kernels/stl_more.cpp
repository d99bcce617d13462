/* bench_stl's rows for the other algorithms of C++17 (stl_impls.hpp), a
 * representative set, the cheap operation only: copy, fill_n,
 * min_element, minmax_element (random doubles), equal (the input against a copy: full
 * scan), mismatch (the input against `find`: the difference at 3n/4),
 * adjacent_find (random doubles: no match, full scan), is_sorted (the
 * increasing ramp: full scan), remove_if (in place, half removed),
 * unique_copy, partition (half), merge (the two sorted halves of the
 * input), set_union (the two sorted halves of the random doubles), nth_element (the median), partial_sort (the smallest
 * tenth), inplace_merge (the sorted halves) and transform_inclusive_scan
 * (the cheap operation, +). Peers: GNU parallel mode where it has the
 * algorithm (min_element, equal, mismatch, adjacent_find, unique_copy,
 * partition, merge, set_union, nth_element, partial_sort);
 * std::execution::par everywhere; TBB where it has a parallel form of the
 * algorithm: copy and fill_n (parallel_for), min_element and
 * minmax_element (parallel_reduce), equal, mismatch, adjacent_find and
 * is_sorted (a parallel_for that skips ranges past the first hit, as
 * find_if's), transform_inclusive_scan (parallel_scan); none for the
 * others (n/a: TBB has no remove_if, unique_copy, partition, merge,
 * set_union, nth_element, partial_sort or inplace_merge). */
#include "stl_impls.hpp"
#include "stl_kernels.hpp"

#include <adapt/stl.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <atomic>
#include <execution>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

using std::execution::par;

namespace {

enum {
  COPY,
  FILL_N,
  MIN_ELEMENT,
  MINMAX_ELEMENT,
  EQUAL,
  MISMATCH,
  ADJACENT_FIND,
  IS_SORTED,
  REMOVE_IF,
  UNIQUE_COPY,
  PARTITION,
  MERGE,
  SET_UNION,
  NTH_ELEMENT,
  PARTIAL_SORT,
  INPLACE_MERGE,
  TRANSFORM_INCLUSIVE_SCAN
};

using vec = std::shared_ptr<std::vector<double>>;

/* src with each half sorted (merge, set_union, inplace_merge). */
vec sorted_halves(const stl_call &c, const double *src) {
  auto v = std::make_shared<std::vector<double>>(src, src + c.n);
  std::sort(v->begin(), v->begin() + (long)(c.n / 2));
  std::sort(v->begin() + (long)(c.n / 2), v->end());
  return v;
}

/* The predicate of remove_if and partition: a function object, as the
 * other rows' operations (a plain function passed by pointer is inlined
 * into std's call, whose pointer argument the compiler propagates, but
 * called through the pointer inside adapt's: 1.7 x std's instructions on
 * one worker for that alone). */
struct negative_fn {
  bool operator()(double x) const { return x < 0; }
};
constexpr negative_fn negative{};

/* TBB: the first i < n with hit(i), n if none (stl_tbb_find_if on
 * indices). */
template <class Hit>
size_t tbb_first(size_t n, Hit hit) {
  std::atomic<size_t> found{n};
  tbb::parallel_for(stl_range(0, n), [&](const stl_range &r) {
    size_t end = std::min(r.end(), found.load(std::memory_order_relaxed));
    for (size_t i = r.begin(); i < end; i++)
      if (hit(i)) {
        size_t cur = found.load(std::memory_order_relaxed);
        while (i < cur && !found.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {}
        return;
      }
  });
  return found.load(std::memory_order_relaxed);
}

/* TBB: std::min_element's position (the first smallest; Max: the first
 * largest, or with Last the last largest) by parallel_reduce, n for none. */
template <bool Max, bool Last = false>
size_t tbb_extreme(const double *x, size_t n) {
  auto better = [=](size_t a, size_t b) { /* a strictly better than b, or a tie won */
                                          if (b == n) return true;
                                          if (a == n) return false;
                                          if (Max ? x[b] < x[a] : x[a] < x[b]) return true;
                                          if (Max ? x[a] < x[b] : x[b] < x[a]) return false;
                                          return Last ? a > b : a < b;
  };
  return tbb::parallel_reduce(
      stl_range(0, n), n,
      [=](const stl_range &r, size_t acc) {
        size_t j = (size_t)((Max ? (Last ? std::minmax_element(x + r.begin(), x + r.end()).second
                                         : std::max_element(x + r.begin(), x + r.end()))
                                 : std::min_element(x + r.begin(), x + r.end())) -
                            x);
        return better(j, acc) ? j : acc;
      },
      [=](size_t a, size_t b) { return better(a, b) ? a : b; });
}

/* The single-pass rows that read every element: copy, fill_n and the
 * min/max elements. */
stl_impls passes(const stl_call &c) {
  stl_impls m;
  const double *in = c.in;
  double *out = c.out;
  const size_t n = c.n;
  stl_outcome *got = c.got;
  auto pos = [](const double *b, const double *it) { return (size_t)(it - b); };
  /* min_element, minmax_element: random doubles, one smallest and one
   * largest (GNU parallel mode's min_element returns a smallest element,
   * not the first: 999900 for std's 545 on the integer input). */
  const double *x = c.d->rnd;
  switch (c.form) {
  case COPY:
    m.f[STL_SEQ] = [=] { std::copy(in, in + n, out); };
    m.f[STL_ADAPT] = [=] { adapt::copy(in, in + n, out); };
    m.f[STL_TBB] = c.in_arena(
        [=] { stl_tbb_map(n, [=](size_t b, size_t e) { std::copy(in + b, in + e, out + b); }); });
    m.f[STL_PSTL] = c.in_arena([=] { std::copy(par, in, in + n, out); });
    break;
  case FILL_N:
    m.f[STL_SEQ] = [=] { std::fill_n(out, n, 1.5); };
    m.f[STL_ADAPT] = [=] { adapt::fill_n(out, n, 1.5); };
    m.f[STL_TBB] = c.in_arena(
        [=] { stl_tbb_map(n, [=](size_t b, size_t e) { std::fill_n(out + b, e - b, 1.5); }); });
    m.f[STL_PSTL] = c.in_arena([=] { std::fill_n(par, out, n, 1.5); });
    break;
  case MIN_ELEMENT:
    m.kind = OUT_INDEX;
    m.f[STL_SEQ] = [=] { got->index = pos(x, std::min_element(x, x + n)); };
    m.f[STL_ADAPT] = [=] { got->index = pos(x, adapt::min_element(x, x + n)); };
    m.f[STL_GNU] = [=] { got->index = pos(x, __gnu_parallel::min_element(x, x + n)); };
    m.f[STL_TBB] = c.in_arena([=] { got->index = tbb_extreme<false>(x, n); });
    m.f[STL_PSTL] = c.in_arena([=] { got->index = pos(x, std::min_element(par, x, x + n)); });
    break;
  default: { /* MINMAX_ELEMENT */
    m.kind = OUT_INDEX;
    auto both = [=](std::pair<const double *, const double *> r) {
      return pos(x, r.first) * (n + 1) + pos(x, r.second);
    };
    m.f[STL_SEQ] = [=] { got->index = both(std::minmax_element(x, x + n)); };
    m.f[STL_ADAPT] = [=] { got->index = both(adapt::minmax_element(x, x + n)); };
    m.f[STL_TBB] = c.in_arena(
        [=] { got->index = tbb_extreme<false>(x, n) * (n + 1) + tbb_extreme<true, true>(x, n); });
    m.f[STL_PSTL] = c.in_arena([=] { got->index = both(std::minmax_element(par, x, x + n)); });
    break;
  }
  }
  return m;
}

/* The searches, which stop at their first hit: equal, mismatch,
 * adjacent_find and is_sorted. */
stl_impls searches(const stl_call &c) {
  stl_impls m;
  const double *in = c.in, *fnd = c.d->find, *rnd = c.d->rnd, *ramp = c.d->ramp;
  const size_t n = c.n;
  stl_outcome *got = c.got;
  auto pos = [](const double *b, const double *it) { return (size_t)(it - b); };
  switch (c.form) {
  case EQUAL: {
    m.kind = OUT_BOOL;
    vec cp = std::make_shared<std::vector<double>>(in, in + n);
    m.f[STL_SEQ] = [=] { got->flag = std::equal(in, in + n, cp->data()); };
    m.f[STL_ADAPT] = [=] { got->flag = adapt::equal(in, in + n, cp->data()); };
    m.f[STL_GNU] = [=] { got->flag = __gnu_parallel::equal(in, in + n, cp->data()); };
    m.f[STL_TBB] = c.in_arena([=] {
      const double *y = cp->data();
      got->flag = tbb_first(n, [=](size_t i) { return !(in[i] == y[i]); }) == n;
    });
    m.f[STL_PSTL] = c.in_arena([=] { got->flag = std::equal(par, in, in + n, cp->data()); });
    break;
  }
  case MISMATCH:
    m.kind = OUT_INDEX;
    m.f[STL_SEQ] = [=] { got->index = pos(in, std::mismatch(in, in + n, fnd).first); };
    m.f[STL_ADAPT] = [=] { got->index = pos(in, adapt::mismatch(in, in + n, fnd).first); };
    m.f[STL_GNU] = [=] { got->index = pos(in, __gnu_parallel::mismatch(in, in + n, fnd).first); };
    m.f[STL_TBB] = c.in_arena(
        [=] { got->index = tbb_first(n, [=](size_t i) { return !(in[i] == fnd[i]); }); });
    m.f[STL_PSTL] =
        c.in_arena([=] { got->index = pos(in, std::mismatch(par, in, in + n, fnd).first); });
    break;
  case ADJACENT_FIND:
    m.kind = OUT_INDEX;
    m.f[STL_SEQ] = [=] { got->index = pos(rnd, std::adjacent_find(rnd, rnd + n)); };
    m.f[STL_ADAPT] = [=] { got->index = pos(rnd, adapt::adjacent_find(rnd, rnd + n)); };
    m.f[STL_GNU] = [=] { got->index = pos(rnd, __gnu_parallel::adjacent_find(rnd, rnd + n)); };
    m.f[STL_TBB] = c.in_arena([=] {
      size_t i = n ? tbb_first(n - 1, [=](size_t j) { return rnd[j] == rnd[j + 1]; }) : 0;
      got->index = i == n - 1 ? n : i;
    });
    m.f[STL_PSTL] =
        c.in_arena([=] { got->index = pos(rnd, std::adjacent_find(par, rnd, rnd + n)); });
    break;
  default: /* IS_SORTED */
    m.kind = OUT_BOOL;
    m.f[STL_SEQ] = [=] { got->flag = std::is_sorted(ramp, ramp + n); };
    m.f[STL_ADAPT] = [=] { got->flag = adapt::is_sorted(ramp, ramp + n); };
    m.f[STL_TBB] = c.in_arena([=] {
      got->flag =
          n < 2 || tbb_first(n - 1, [=](size_t j) { return ramp[j + 1] < ramp[j]; }) == n - 1;
    });
    m.f[STL_PSTL] = c.in_arena([=] { got->flag = std::is_sorted(par, ramp, ramp + n); });
    break;
  }
  return m;
}

/* The variable outputs and partition: remove_if in place (the kept prefix
 * checked), unique_copy, partition (checked partitioned at the same
 * point; the order within each side is free). */
stl_impls selections(const stl_call &c) {
  stl_impls m;
  const double *in = c.in;
  double *io = c.io, *out = c.out;
  const size_t n = c.n;
  stl_outcome *got = c.got;
  if (c.form == UNIQUE_COPY) {
    m.kind = OUT_COPY;
    m.f[STL_SEQ] = [=] { got->index = (size_t)(std::unique_copy(in, in + n, out) - out); };
    m.f[STL_ADAPT] = [=] { got->index = (size_t)(adapt::unique_copy(in, in + n, out) - out); };
    m.f[STL_GNU] = [=] {
      got->index = (size_t)(__gnu_parallel::unique_copy(in, in + n, out) - out);
    };
    m.f[STL_PSTL] =
        c.in_arena([=] { got->index = (size_t)(std::unique_copy(par, in, in + n, out) - out); });
    return m;
  }
  m.kind = OUT_CUSTOM;
  m.reset = [=] { std::copy(in, in + n, io); };
  if (c.form == REMOVE_IF) {
    vec kept = std::make_shared<std::vector<double>>();
    m.save_ref = [=] { kept->assign(io, io + got->index); };
    m.check = [=]() -> std::string {
      if (got->index != kept->size()) return "wrong number kept";
      return std::equal(kept->begin(), kept->end(), io) ? "" : "wrong kept elements";
    };
    m.f[STL_SEQ] = [=] { got->index = (size_t)(std::remove_if(io, io + n, negative) - io); };
    m.f[STL_ADAPT] = [=] { got->index = (size_t)(adapt::remove_if(io, io + n, negative) - io); };
    m.f[STL_PSTL] =
        c.in_arena([=] { got->index = (size_t)(std::remove_if(par, io, io + n, negative) - io); });
    return m;
  }
  /* PARTITION */
  const size_t want = (size_t)std::count_if(in, in + n, negative);
  m.check = [=]() -> std::string {
    if (got->index != want) return "wrong partition point";
    return std::is_partitioned(io, io + n, negative) &&
                   std::partition_point(io, io + n, negative) == io + want
               ? ""
               : "not partitioned";
  };
  m.f[STL_SEQ] = [=] { got->index = (size_t)(std::partition(io, io + n, negative) - io); };
  m.f[STL_ADAPT] = [=] { got->index = (size_t)(adapt::partition(io, io + n, negative) - io); };
  m.f[STL_GNU] = [=] {
    got->index = (size_t)(__gnu_parallel::partition(io, io + n, negative) - io);
  };
  m.f[STL_PSTL] =
      c.in_arena([=] { got->index = (size_t)(std::partition(par, io, io + n, negative) - io); });
  return m;
}

/* merge and set_union of the sorted halves into out; inplace_merge of
 * them in io. */
stl_impls merges(const stl_call &c) {
  stl_impls m;
  /* set_union: random doubles, no repeats (GNU parallel mode's set_union
   * miscounts repeated elements: 513151 outputs for std's 512776 on the
   * integer input); the others: the input, with repeats. */
  vec h = sorted_halves(c, c.form == SET_UNION ? c.d->rnd : c.in);
  double *out = c.out;
  const size_t n = c.n, k = c.n / 2;
  stl_outcome *got = c.got;
  /* not const: GNU parallel mode's merge takes no const input */
  double *a = h->data(), *mid = a + k, *e = a + n;
  if (c.form == MERGE) {
    m.f[STL_SEQ] = [=] { (void)h, std::merge(a, mid, mid, e, out); };
    m.f[STL_ADAPT] = [=] { adapt::merge(a, mid, mid, e, out); };
    m.f[STL_GNU] = [=] { __gnu_parallel::merge(a, mid, mid, e, out); };
    m.f[STL_PSTL] = c.in_arena([=] { std::merge(par, a, mid, mid, e, out); });
  } else if (c.form == SET_UNION) {
    m.kind = OUT_COPY;
    m.f[STL_SEQ] = [=] {
      (void)h, got->index = (size_t)(std::set_union(a, mid, mid, e, out) - out);
    };
    m.f[STL_ADAPT] = [=] { got->index = (size_t)(adapt::set_union(a, mid, mid, e, out) - out); };
    m.f[STL_GNU] = [=] {
      got->index = (size_t)(__gnu_parallel::set_union(a, mid, mid, e, out) - out);
    };
    m.f[STL_PSTL] =
        c.in_arena([=] { got->index = (size_t)(std::set_union(par, a, mid, mid, e, out) - out); });
  } else { /* INPLACE_MERGE */
    double *io = c.io;
    m.kind = OUT_IO;
    m.io_src = a;
    m.f[STL_SEQ] = [=] { (void)h, std::inplace_merge(io, io + k, io + n); };
    m.f[STL_ADAPT] = [=] { adapt::inplace_merge(io, io + k, io + n); };
    m.f[STL_PSTL] = c.in_arena([=] { std::inplace_merge(par, io, io + k, io + n); });
  }
  return m;
}

/* nth_element at the median (the answer: the median), partial_sort of the
 * smallest tenth (the answer: their sum; the first one of them checked
 * sorted by the sum of the first half of that tenth). */
stl_impls selects(const stl_call &c) {
  stl_impls m;
  const double *in = c.in;
  double *io = c.io;
  const size_t n = c.n;
  stl_outcome *got = c.got;
  m.kind = OUT_SUM;
  m.reset = [=] { std::copy(in, in + n, io); };
  if (c.form == NTH_ELEMENT) {
    const size_t k = n / 2;
    m.f[STL_SEQ] = [=] { std::nth_element(io, io + k, io + n), got->sum = io[k]; };
    m.f[STL_ADAPT] = [=] { adapt::nth_element(io, io + k, io + n), got->sum = io[k]; };
    m.f[STL_GNU] = [=] { __gnu_parallel::nth_element(io, io + k, io + n), got->sum = io[k]; };
    m.f[STL_PSTL] =
        c.in_arena([=] { std::nth_element(par, io, io + k, io + n), got->sum = io[k]; });
    return m;
  }
  const size_t k = n / 10;
  auto answer = [=] {
    return std::accumulate(io, io + k, 0.0) + 1e6 * std::accumulate(io, io + k / 2, 0.0);
  };
  m.f[STL_SEQ] = [=] { std::partial_sort(io, io + k, io + n), got->sum = answer(); };
  m.f[STL_ADAPT] = [=] { adapt::partial_sort(io, io + k, io + n), got->sum = answer(); };
  m.f[STL_GNU] = [=] { __gnu_parallel::partial_sort(io, io + k, io + n), got->sum = answer(); };
  m.f[STL_PSTL] =
      c.in_arena([=] { std::partial_sort(par, io, io + k, io + n), got->sum = answer(); });
  return m;
}

/* transform_inclusive_scan: out[i] = sum of cheap(in[j]), j <= i. */
stl_impls tscan(const stl_call &c) {
  stl_impls m;
  const double *in = c.in;
  double *out = c.out;
  const size_t n = c.n;
  const stl_cheap op;
  const std::plus<> add;
  m.f[STL_SEQ] = [=] { std::transform_inclusive_scan(in, in + n, out, add, op); };
  m.f[STL_ADAPT] = [=] { adapt::transform_inclusive_scan(in, in + n, out, add, op); };
  m.f[STL_TBB] = c.in_arena([=] {
    tbb::parallel_scan(
        stl_range(0, n), 0.0,
        [=](const stl_range &r, double sum, bool final) {
          for (size_t i = r.begin(); i < r.end(); i++) {
            sum += op(in[i]);
            if (final) out[i] = sum;
          }
          return sum;
        },
        std::plus<double>());
  });
  m.f[STL_PSTL] = c.in_arena([=] { std::transform_inclusive_scan(par, in, in + n, out, add, op); });
  return m;
}

} // namespace

const std::vector<stl_algo> STL_MORE_ALGOS = {
    {"copy", STL_CHEAP, passes, COPY},
    {"fill_n", STL_CHEAP, passes, FILL_N},
    {"min_element", STL_CHEAP, passes, MIN_ELEMENT},
    {"minmax_element", STL_CHEAP, passes, MINMAX_ELEMENT},
    {"equal", STL_CHEAP, searches, EQUAL},
    {"mismatch", STL_CHEAP, searches, MISMATCH},
    {"adjacent_find", STL_CHEAP, searches, ADJACENT_FIND},
    {"is_sorted", STL_CHEAP, searches, IS_SORTED},
    {"remove_if", STL_CHEAP, selections, REMOVE_IF},
    {"unique_copy", STL_CHEAP, selections, UNIQUE_COPY},
    {"partition", STL_CHEAP, selections, PARTITION},
    {"merge", STL_CHEAP, merges, MERGE},
    {"set_union", STL_CHEAP, merges, SET_UNION},
    {"nth_element", STL_CHEAP, selects, NTH_ELEMENT},
    {"partial_sort", STL_CHEAP, selects, PARTIAL_SORT},
    {"inplace_merge", STL_CHEAP, merges, INPLACE_MERGE},
    {"transform_inclusive_scan", STL_CHEAP, tscan, TRANSFORM_INCLUSIVE_SCAN},
};
