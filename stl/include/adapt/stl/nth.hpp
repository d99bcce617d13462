/* nth_element, partial_sort, partial_sort_copy of <adapt/stl.hpp>
 * (included by it, through <adapt/stl/algorithms.hpp>).
 *
 * nth_element is a quickselect whose partitions are adapt::partition (all
 * workers): the pseudo-median of nine samples is swapped to the front of
 * the current range [lo, hi) and the rest partitioned against it (the
 * pivot itself never moves meanwhile), the pivot swapped to the cut, and
 * the side holding nth kept; a pivot that is the smallest element of its
 * range also gathers the elements equal to it (a second partition), so
 * ranges of equal keys end at once. Ranges shorter than
 * 2 * ADAPT_STL_SORT_LEAF_MIN, a call alone (one worker or workers(1)), and ranges still
 * wide after 2 log2(n) rounds (bad pivots) go to std::nth_element, whose
 * bounds then hold. Swaps only: on an exception the range is a
 * permutation of the input. */
#ifndef ADAPT_STL_NTH_HPP
#define ADAPT_STL_NTH_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

namespace adapt {
namespace detail {

/* Index (from lo) of the median of *(lo + i), *(lo + j), *(lo + k). */
template <class It, class Cmp>
std::size_t median3(It lo, std::size_t i, std::size_t j, std::size_t k, Cmp &cmp) {
  if (cmp(*adv(lo, i), *adv(lo, j)))
    return cmp(*adv(lo, j), *adv(lo, k)) ? j : cmp(*adv(lo, i), *adv(lo, k)) ? k : i;
  return cmp(*adv(lo, i), *adv(lo, k)) ? i : cmp(*adv(lo, j), *adv(lo, k)) ? k : j;
}

} // namespace detail

/* std::nth_element: *nth becomes the element a sort would put there,
 * none after it is less and none before it greater (cmp, <). */
template <class It, class Cmp = std::less<>>
void nth_element(const policy &pol, It first, It nth, It last, Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It>) {
    std::nth_element(first, nth, last, cmp);
  } else {
    std::size_t lo = 0, hi = detail::dist(first, last), k = detail::dist(first, nth);
    if (k >= hi) return;
    int budget = 2;
    for (std::size_t m = hi; m > 1; m /= 2) budget += 2;
    while (hi - lo >= 2 * ADAPT_STL_SORT_LEAF_MIN && budget-- > 0 && !detail::alone(pol)) {
      It l = detail::adv(first, lo);
      std::size_t m = hi - lo, s = m / 8;
      std::size_t p = detail::median3(l, detail::median3(l, 0, s, 2 * s, cmp),
                                      detail::median3(l, 3 * s, 4 * s, 5 * s, cmp),
                                      detail::median3(l, 6 * s, 7 * s, m - 1, cmp), cmp);
      std::iter_swap(l, detail::adv(l, p));
      auto less = [&](const auto &x) { return cmp(x, *l); };
      std::size_t cut = detail::dist(
          first, adapt::partition(pol, detail::adv(l, 1), detail::adv(first, hi), less));
      std::iter_swap(l, detail::adv(first, cut - 1)); /* the pivot at cut - 1 */
      if (k + 1 == cut) return;
      if (k < cut - 1) {
        hi = cut - 1;
        continue;
      }
      if (cut - 1 == lo) { /* the smallest: gather its equals after it */
        auto same = [&](const auto &x) { return !cmp(*l, x); };
        cut = detail::dist(first,
                           adapt::partition(pol, detail::adv(l, 1), detail::adv(first, hi), same));
        if (k < cut) return;
      }
      lo = cut;
    }
    std::nth_element(detail::adv(first, lo), nth, detail::adv(first, hi), std::ref(cmp));
  }
}

/* std::partial_sort: [first, middle) becomes the middle - first smallest
 * elements, sorted (cmp, <); the others in unspecified order. nth_element
 * at middle, then adapt::sort of [first, middle): O(n + m log m)
 * comparisons on average (std: n log m). */
template <class It, class Cmp = std::less<>>
void partial_sort(const policy &pol, It first, It middle, It last, Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It>) {
    std::partial_sort(first, middle, last, cmp);
  } else {
    if (first == middle) return;
    if (middle != last) adapt::nth_element(pol, first, middle, last, std::ref(cmp));
    adapt::sort(pol, first, middle, std::ref(cmp));
  }
}

/* std::partial_sort_copy: the min(n, d_last - d_first) smallest elements
 * of [first, last), sorted, copied to d_first (one copy assignment each);
 * returns the end of the copies. When the output is shorter than the
 * input, an array of n iterators (allocated for the call) is selected and
 * sorted instead of the elements. */
template <class It, class Out, class Cmp = std::less<>>
Out partial_sort_copy(const policy &pol, It first, It last, Out d_first, Out d_last, Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::partial_sort_copy(first, last, d_first, d_last, cmp);
  } else {
    std::size_t n = detail::dist(first, last), m = detail::dist(d_first, d_last);
    if (m >= n) {
      Out end = adapt::copy(pol, first, last, d_first);
      adapt::sort(pol, d_first, end, std::ref(cmp));
      return end;
    }
    if (m == 0) return d_first;
    std::vector<It> its(n);
    adapt::for_each(pol, its.begin(), its.end(), [&](It &x) { x = first + (&x - its.data()); });
    auto by = [&](const It &x, const It &y) { return cmp(*x, *y); };
    adapt::partial_sort(pol, its.begin(), its.begin() + static_cast<std::ptrdiff_t>(m), its.end(),
                        by);
    adapt::transform(pol, its.begin(), its.begin() + static_cast<std::ptrdiff_t>(m), d_first,
                     [](const It &x) -> decltype(auto) { return *x; });
    return detail::adv(d_first, m);
  }
}

} // namespace adapt

#endif /* ADAPT_STL_NTH_HPP */
