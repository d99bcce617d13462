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

#include <assert.h>

#include <algorithm>
#include <atomic>
#include <execution>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

namespace {

/* The forms, in the order of the rows (STL_MORE_ALGOS: maker by maker). */
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
  INPLACE_MERGE,
  NTH_ELEMENT,
  PARTIAL_SORT,
  TRANSFORM_INCLUSIVE_SCAN,
  FORMS
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
    STL_BY_NAME_NO_GNU(m, c, copy, [=](auto copy) { copy(in, in + n, out); });
    m.f[STL_TBB] = c.in_arena(
        [=] { stl_tbb_map(n, [=](size_t b, size_t e) { std::copy(in + b, in + e, out + b); }); });
    break;
  case FILL_N:
    STL_BY_NAME_NO_GNU(m, c, fill_n, [=](auto fill_n) { fill_n(out, n, 1.5); });
    m.f[STL_TBB] = c.in_arena(
        [=] { stl_tbb_map(n, [=](size_t b, size_t e) { std::fill_n(out + b, e - b, 1.5); }); });
    break;
  case MIN_ELEMENT:
    m.kind = OUT_INDEX;
    STL_BY_NAME(m, c, min_element,
                [=](auto min_element) { got->index = pos(x, min_element(x, x + n)); });
    m.f[STL_TBB] = c.in_arena([=] { got->index = tbb_extreme<false>(x, n); });
    break;
  default: { /* MINMAX_ELEMENT */
    m.kind = OUT_INDEX;
    auto both = [=](std::pair<const double *, const double *> r) {
      return pos(x, r.first) * (n + 1) + pos(x, r.second);
    };
    STL_BY_NAME_NO_GNU(m, c, minmax_element,
                       [=](auto minmax_element) { got->index = both(minmax_element(x, x + n)); });
    m.f[STL_TBB] = c.in_arena(
        [=] { got->index = tbb_extreme<false>(x, n) * (n + 1) + tbb_extreme<true, true>(x, n); });
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
    STL_BY_NAME(m, c, equal, [=](auto equal) { got->flag = equal(in, in + n, cp->data()); });
    m.f[STL_TBB] = c.in_arena([=] {
      const double *y = cp->data();
      got->flag = tbb_first(n, [=](size_t i) { return !(in[i] == y[i]); }) == n;
    });
    break;
  }
  case MISMATCH:
    m.kind = OUT_INDEX;
    STL_BY_NAME(m, c, mismatch,
                [=](auto mismatch) { got->index = pos(in, mismatch(in, in + n, fnd).first); });
    m.f[STL_TBB] = c.in_arena(
        [=] { got->index = tbb_first(n, [=](size_t i) { return !(in[i] == fnd[i]); }); });
    break;
  case ADJACENT_FIND:
    m.kind = OUT_INDEX;
    STL_BY_NAME(m, c, adjacent_find,
                [=](auto adjacent_find) { got->index = pos(rnd, adjacent_find(rnd, rnd + n)); });
    m.f[STL_TBB] = c.in_arena([=] {
      size_t i = n ? tbb_first(n - 1, [=](size_t j) { return rnd[j] == rnd[j + 1]; }) : 0;
      got->index = i == n - 1 ? n : i;
    });
    break;
  default: /* IS_SORTED */
    m.kind = OUT_BOOL;
    STL_BY_NAME_NO_GNU(m, c, is_sorted,
                       [=](auto is_sorted) { got->flag = is_sorted(ramp, ramp + n); });
    m.f[STL_TBB] = c.in_arena([=] {
      got->flag =
          n < 2 || tbb_first(n - 1, [=](size_t j) { return ramp[j + 1] < ramp[j]; }) == n - 1;
    });
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
    STL_BY_NAME(m, c, unique_copy, [=](auto unique_copy) {
      got->index = (size_t)(unique_copy(in, in + n, out) - out);
    });
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
    STL_BY_NAME_NO_GNU(m, c, remove_if, [=](auto remove_if) {
      got->index = (size_t)(remove_if(io, io + n, negative) - io);
    });
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
  STL_BY_NAME(m, c, partition,
              [=](auto partition) { got->index = (size_t)(partition(io, io + n, negative) - io); });
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
    STL_BY_NAME(m, c, merge, [=](auto merge) { (void)h, merge(a, mid, mid, e, out); });
  } else if (c.form == SET_UNION) {
    m.kind = OUT_COPY;
    STL_BY_NAME(m, c, set_union, [=](auto set_union) {
      (void)h, got->index = (size_t)(set_union(a, mid, mid, e, out) - out);
    });
  } else { /* INPLACE_MERGE */
    double *io = c.io;
    m.kind = OUT_IO;
    m.io_src = a;
    STL_BY_NAME_NO_GNU(m, c, inplace_merge,
                       [=](auto inplace_merge) { (void)h, inplace_merge(io, io + k, io + n); });
  }
  return m;
}

/* nth_element at the median (the answer: the median), partial_sort of the
 * smallest tenth (the answer: their sum; the first one of them checked
 * sorted by the sum of the first half of that tenth). */
stl_impls selects(const stl_call &c) {
  stl_impls m;
  m.kind = OUT_SUM;
  m.reset = [=] { std::copy(c.in, c.in + c.n, c.io); };
  double *io = c.io;
  const size_t n = c.n;
  if (c.form == NTH_ELEMENT) {
    const size_t k = n / 2;
    STL_BY_NAME(m, c, nth_element,
                [=](auto nth_element) { nth_element(io, io + k, io + n), c.got->sum = io[k]; });
    return m;
  }
  const size_t k = n / 10;
  auto answer = [=] {
    return std::accumulate(io, io + k, 0.0) + 1e6 * std::accumulate(io, io + k / 2, 0.0);
  };
  STL_BY_NAME(m, c, partial_sort,
              [=](auto partial_sort) { partial_sort(io, io + k, io + n), c.got->sum = answer(); });
  return m;
}

/* transform_inclusive_scan: out[i] = sum of cheap(in[j]), j <= i. */
stl_impls tscan(const stl_call &c) {
  stl_impls m;
  const stl_cheap op;
  const std::plus<> add;
  STL_BY_NAME_NO_GNU(m, c, transform_inclusive_scan,
                     [=](auto scan) { scan(c.in, c.in + c.n, c.out, add, op); });
  const double *in = c.in;
  double *out = c.out;
  m.f[STL_TBB] = c.in_arena([=] {
    tbb::parallel_scan(
        stl_range(0, c.n), 0.0,
        [=](const stl_range &r, double sum, bool final) {
          for (size_t i = r.begin(); i < r.end(); i++) {
            sum += op(in[i]);
            if (final) out[i] = sum;
          }
          return sum;
        },
        std::plus<double>());
  });
  return m;
}

/* A maker and the names of its forms. */
struct maker_forms {
  stl_impls (*make)(const stl_call &c);
  std::vector<const char *> names;
};

/* The rows of the makers' forms, each on the cheap operation only, the
 * forms numbered in the order of the names, maker after maker (the enum's
 * order). */
std::vector<stl_algo> cheap_rows(const std::vector<maker_forms> &makers) {
  std::vector<stl_algo> rows;
  for (const maker_forms &m : makers)
    for (const char *name : m.names) rows.push_back({name, STL_CHEAP, m.make, (int)rows.size()});
  assert(rows.size() == FORMS);
  return rows;
}

} // namespace

const std::vector<stl_algo> STL_MORE_ALGOS =
    cheap_rows({{passes, {"copy", "fill_n", "min_element", "minmax_element"}},
                {searches, {"equal", "mismatch", "adjacent_find", "is_sorted"}},
                {selections, {"remove_if", "unique_copy", "partition"}},
                {merges, {"merge", "set_union", "inplace_merge"}},
                {selects, {"nth_element", "partial_sort"}},
                {tscan, {"transform_inclusive_scan"}}});
