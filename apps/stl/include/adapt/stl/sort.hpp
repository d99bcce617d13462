/* Internals of adapt::sort and adapt::stable_sort (<adapt/stl.hpp>): a
 * parallel merge sort on spawn/sync tasks (<adapt/tasks.h>). Not part of
 * the API.
 *
 * The range [0, n) is halved down to 2^d leaves (d odd, leaves of at least
 * ADAPT_STL_SORT_LEAF_MIN elements, at most ADAPT_STL_SORT_LEAVES_PER_WORKER
 * per worker); halves run as spawned tasks, so idle workers steal subtrees.
 * A leaf sorts its part of the input with std::sort (std::stable_sort) and
 * move-constructs it into the same part of a buffer of n elements (raw
 * storage: the leaves construct every buffer element exactly once). Levels
 * then merge alternately buffer -> input and input -> buffer (d odd: the
 * top merge writes the input); a merge of ADAPT_STL_MERGE_MIN elements or
 * more splits at the middle of its longer run and the binary-search point
 * of the other (lower_bound / upper_bound: ties keep the left run first, so
 * stable_sort is stable) and runs both halves as tasks. Elements are only
 * moved, never copied. The first exception (comparator, move assignment) is
 * kept; the other tasks stop at their next leaf or merge; the buffer's
 * constructed parts are destroyed; the input holds valid but unspecified
 * values (std's basic guarantee). */
#ifndef ADAPT_STL_SORT_HPP
#define ADAPT_STL_SORT_HPP

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

#include <adapt/tasks.h>
#include <adapt/stl/detail.hpp>

namespace adapt {
namespace detail {

template <bool Stable, class It, class Cmp>
struct merge_sorter {
  using T = value_t<It>;
  using diff = typename std::iterator_traits<It>::difference_type;
  It a;
  T *b;
  Cmp &cmp;
  int leaf_depth;
  std::vector<unsigned char> built; /* leaf k constructed its buffer part */
  std::vector<std::pair<std::size_t, std::size_t>> leaf_range;
  failure fail;

  It at(std::size_t i) const { return a + static_cast<diff>(i); }

  struct sort_job {
    merge_sorter *s;
    std::size_t lo, hi, leaf;
    int depth;
  };
  static void sort_task(void *p) noexcept {
    auto *j = static_cast<sort_job *>(p);
    j->s->sort_rec(j->lo, j->hi, j->depth, j->leaf);
  }

  /* Run job fn(arg) as a spawned task beside `inline_part` on this thread;
   * without a scope (runtime error) both run here. */
  template <class F>
  static void fork2(void (*fn)(void *), void *arg, F &&inline_part) noexcept {
    adapt_scope sc;
    int rc = adapt_scope_begin(&sc);
    if (rc != 0 || adapt_spawn(&sc, fn, arg) != 0) fn(arg);
    inline_part();
    if (rc == 0) (void)adapt_sync(&sc);
  }

  void leaf(std::size_t lo, std::size_t hi, std::size_t k) noexcept {
    try {
      if constexpr (Stable)
        std::stable_sort(at(lo), at(hi), cmp);
      else
        std::sort(at(lo), at(hi), cmp);
    } catch (...) {
      fail.capture(false);
      return;
    }
    /* nothrow: the parallel path needs a nothrow move constructor. */
    std::uninitialized_move(at(lo), at(hi), b + lo);
    leaf_range[k] = {lo, hi};
    built[k] = 1;
  }

  /* Sorted [lo, hi) ends in the buffer when depth is odd, in a when even. */
  void sort_rec(std::size_t lo, std::size_t hi, int depth, std::size_t k) noexcept {
    if (fail.stopped()) return;
    if (depth == leaf_depth) return leaf(lo, hi, k);
    std::size_t mid = lo + (hi - lo) / 2;
    sort_job left{this, lo, mid, 2 * k, depth + 1};
    fork2(&sort_task, &left, [&] { sort_rec(mid, hi, depth + 1, 2 * k + 1); });
    if (fail.stopped()) return;
    if (depth & 1) /* children (even depth) in a, result in the buffer */
      pmerge(at(lo), at(mid), at(mid), at(hi), b + lo);
    else
      pmerge(b + lo, b + mid, b + mid, b + hi, at(lo));
  }

  template <class S, class D>
  struct merge_job {
    merge_sorter *s;
    S a1, e1, a2, e2;
    D out;
    static void run(void *p) noexcept {
      auto *j = static_cast<merge_job *>(p);
      j->s->pmerge(j->a1, j->e1, j->a2, j->e2, j->out);
    }
  };

  /* Stable merge of the sorted runs [a1, e1) and [a2, e2) into out (moves). */
  template <class S, class D>
  void pmerge(S a1, S e1, S a2, S e2, D out) noexcept {
    if (fail.stopped()) return;
    auto n1 = e1 - a1, n2 = e2 - a2;
    try {
      if (static_cast<std::size_t>(n1 + n2) < ADAPT_STL_MERGE_MIN) {
        std::merge(std::make_move_iterator(a1), std::make_move_iterator(e1),
                   std::make_move_iterator(a2), std::make_move_iterator(e2), out, cmp);
        return;
      }
      S p1, p2;
      if (n1 >= n2) {
        p1 = a1 + n1 / 2;
        p2 = std::lower_bound(a2, e2, *p1, cmp);
      } else {
        p2 = a2 + n2 / 2;
        p1 = std::upper_bound(a1, e1, *p2, cmp);
      }
      merge_job<S, D> left{this, a1, p1, a2, p2, out};
      D right_out = out + ((p1 - a1) + (p2 - a2));
      fork2(&merge_job<S, D>::run, &left, [&] { pmerge(p1, e1, p2, e2, right_out); });
    } catch (...) {
      fail.capture(false);
    }
  }
};

/* Sort [first, last) with cmp; Stable: std::stable_sort's order. */
template <bool Stable, class It, class Cmp>
void sort(It first, It last, Cmp &cmp) {
  using T = value_t<It>;
  auto seq = [&] {
    if constexpr (Stable)
      std::stable_sort(first, last, cmp);
    else
      std::sort(first, last, cmp);
  };
  if constexpr (!std::is_nothrow_move_constructible_v<T>) {
    seq();
  } else {
    std::size_t n = static_cast<std::size_t>(last - first);
    std::size_t workers = n < 2 * std::size_t{ADAPT_STL_SORT_LEAF_MIN}
                              ? 1
                              : static_cast<std::size_t>(adapt_num_workers());
    if (workers <= 1) return seq();
    int d = 0;
    while ((n >> (d + 1)) >= ADAPT_STL_SORT_LEAF_MIN &&
           (std::size_t{1} << (d + 1)) <= ADAPT_STL_SORT_LEAVES_PER_WORKER * workers)
      d++;
    if (d % 2 == 0) d--; /* d >= 1 here: n >= 2 leaf_min and at least 2 workers */
    std::allocator<T> alloc;
    T *buf = alloc.allocate(n);
    std::size_t leaves = std::size_t{1} << d;
    merge_sorter<Stable, It, Cmp> s{first,
                                    buf,
                                    cmp,
                                    d,
                                    std::vector<unsigned char>(leaves, 0),
                                    std::vector<std::pair<std::size_t, std::size_t>>(leaves),
                                    {}};
    s.sort_rec(0, n, 0, 0);
    for (std::size_t k = 0; k < leaves; k++)
      if (s.built[k]) std::destroy(buf + s.leaf_range[k].first, buf + s.leaf_range[k].second);
    alloc.deallocate(buf, n);
    if (s.fail.exc) std::rethrow_exception(s.fail.exc);
  }
}

} // namespace detail
} // namespace adapt

#endif /* ADAPT_STL_SORT_HPP */
