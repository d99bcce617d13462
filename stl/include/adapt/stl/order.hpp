/* Order predicates of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): is_sorted_until, is_sorted, is_heap_until,
 * is_heap, is_partitioned, includes. The first five search for the first
 * position that breaks the order (detail::first_hit: parallel chunks,
 * early stop, std's result); includes checks pieces of its second range
 * against the parts of the first that a binary search assigns them. */
#ifndef ADAPT_STL_ORDER_HPP
#define ADAPT_STL_ORDER_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>

namespace adapt {

/* std::is_sorted_until: the end of the longest sorted prefix under cmp
 * (<): the first i >= 1 with cmp(first[i], first[i - 1]), else last. */
template <class It, class Cmp = std::less<>>
It is_sorted_until(const policy &pol, It first, It last, Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::is_sorted_until(first, last, cmp);
  } else {
    /* the first pair (k, k + 1) out of order; the result is k + 1 */
    It k = detail::first_window(pol, "adapt::is_sorted_until", first, last, 2, 1, [&](It b, It e) {
      It r = std::is_sorted_until(b, e, std::ref(cmp));
      return r == e ? e : r - 1;
    });
    return k == last ? last : k + 1;
  }
}

/* std::is_sorted: is_sorted_until == last. */
template <class It, class Cmp = std::less<>>
bool is_sorted(const policy &pol, It first, It last, Cmp cmp = {}) {
  return adapt::is_sorted_until(pol, first, last, std::ref(cmp)) == last;
}

/* std::is_heap_until: the end of the longest prefix that is a max-heap
 * under cmp (<): the first i >= 1 with cmp(first[(i - 1) / 2], first[i]). */
template <class It, class Cmp = std::less<>>
It is_heap_until(const policy &pol, It first, It last, Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::is_heap_until(first, last, cmp);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n < 2) return last;
    /* position k: element k + 1 against its parent k / 2 */
    std::size_t k =
        detail::first_hit(pol.attr(), "adapt::is_heap_until", n - 1, 1, sizeof(detail::value_t<It>),
                          [&](std::size_t b, std::size_t e) {
                            It c = detail::adv(first, b + 1);
                            for (std::size_t i = b; i < e; ++i, ++c)
                              if (cmp(*detail::adv(first, i / 2), *c)) return i;
                            return e;
                          });
    return k < n - 1 ? detail::adv(first, k + 1) : last;
  }
}

/* std::is_heap: is_heap_until == last. */
template <class It, class Cmp = std::less<>>
bool is_heap(const policy &pol, It first, It last, Cmp cmp = {}) {
  return adapt::is_heap_until(pol, first, last, std::ref(cmp)) == last;
}

/* std::is_partitioned: no element satisfying pred follows one that does
 * not. Two searches: the first element p failing pred (find_if_not), then
 * any element after p satisfying pred (find_if); pred is called at most
 * once per element plus about one grain per worker past p. */
template <class It, class Pred>
bool is_partitioned(const policy &pol, It first, It last, Pred pred) {
  if constexpr (!detail::random_access_v<It>) {
    return std::is_partitioned(first, last, pred);
  } else {
    It p = adapt::find_if_not(pol, first, last, std::ref(pred));
    if (p == last) return true;
    return detail::find_if(pol, detail::adv(p, 1), last, pred) == last;
  }
}

namespace detail {
/* includes on random-access ranges (see adapt::includes). */
template <class It1, class It2, class Cmp>
bool includes_ra(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Cmp &cmp) {
  std::size_t n1 = detail::dist(first1, last1), n2 = detail::dist(first2, last2);
  if (n2 == 0) return true;
  if (n2 > n1) return false;
  /* The position of range 1 that element i of range 2 matches (n1 at
   * i == n2). */
  auto pos = [&](std::size_t i) {
    if (i == n2) return n1;
    It2 x = detail::adv(first2, i);
    std::size_t r = detail::dist(std::lower_bound(first2, x, *x, std::ref(cmp)), x);
    std::size_t lb = detail::dist(first1, std::lower_bound(first1, last1, *x, std::ref(cmp)));
    return std::min(lb + r, n1);
  };
  /* relaxed: a hint to skip chunks; read by the caller after the join. */
  std::atomic<bool> fails{false};
  detail::par_map(pol.attr(), "adapt::includes", n2,
                  sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>),
                  [&](adapt_seq *s, std::size_t b, std::size_t e) {
                    if (fails.load(std::memory_order_relaxed)) return;
                    std::size_t lo = pos(b), hi = std::max(pos(e), lo);
                    if (!std::includes(detail::adv(first1, lo), detail::adv(first1, hi),
                                       detail::adv(first2, b), detail::adv(first2, e),
                                       std::ref(cmp))) {
                      fails.store(true, std::memory_order_relaxed);
                      adapt_seq_stop(s, 0, 0);
                    }
                  });
  return !fails.load(std::memory_order_relaxed);
}
} // namespace detail

/* std::includes: every element of the sorted [first2, last2) is matched
 * by its own element of the sorted [first1, last1) (multisets, under cmp,
 * <). Element i of the second range, the r-th of its run of equivalent
 * elements, can only match position lower_bound(range 1, x) + r of the
 * first range (std's merge-like walk matches it there); a chunk [b, e) of
 * the second range is checked with std::includes against the part of
 * range 1 between the positions of b and e (two binary searches each).
 * The first chunk that fails stops the others. O(n1 + n2) comparisons
 * (plus O(log) per chunk). */
template <class It1, class It2, class Cmp = std::less<>>
bool includes(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Cmp cmp = {}) {
  if constexpr (detail::random_access_v<It1, It2>)
    return detail::includes_ra(pol, first1, last1, first2, last2, cmp);
  else
    return std::includes(first1, last1, first2, last2, cmp);
}

} // namespace adapt

#endif /* ADAPT_STL_ORDER_HPP */
