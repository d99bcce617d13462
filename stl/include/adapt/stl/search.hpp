/* Searches of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): find_if_not, adjacent_find, mismatch, equal,
 * find_first_of, search, find_end, search_n, lexicographical_compare.
 * Each one is a search for the first position that satisfies a test,
 * run on disjoint chunks in parallel (detail::first_hit): chunks before
 * the first hit found so far still run, chunks past it stop (at most about
 * one grain per worker is tested past it), so the result is std's. Each
 * chunk runs std's own algorithm on its part when std has one. The
 * schedulers of the policy apply (.sched), as for find_if. */
#ifndef ADAPT_STL_SEARCH_HPP
#define ADAPT_STL_SEARCH_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <utility>

namespace adapt {

/* std::find_if_not: the first element for which pred is false (last if
 * none); as find_if. */
template <class It, class Pred>
It find_if_not(const policy &pol, It first, It last, Pred pred) {
  auto neg = [&pred](auto &&x) { return !pred(x); };
  return detail::find_if(pol, first, last, neg);
}

/* std::adjacent_find: the first i with pred(first[i], first[i + 1]) (last
 * if none). */
template <class It, class Pred = std::equal_to<>>
It adjacent_find(const policy &pol, It first, It last, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::adjacent_find(first, last, pred);
  } else {
    return detail::first_window(pol, "adapt::adjacent_find", first, last, 2, 1, [&](It b, It e) {
      return std::adjacent_find(b, e, std::ref(pred));
    });
  }
}

namespace detail {
/* mismatch on the first n positions of two random-access ranges. */
template <class It1, class It2, class Pred>
std::pair<It1, It2> mismatch(const policy &pol, It1 first1, It2 first2, std::size_t n, Pred &pred) {
  std::size_t i =
      first_hit(pol.attr(), "adapt::mismatch", n, 1, sizeof(value_t<It1>) + sizeof(value_t<It2>),
                [&](std::size_t b, std::size_t e) {
                  auto r =
                      std::mismatch(adv(first1, b), adv(first1, e), adv(first2, b), std::ref(pred));
                  return dist(first1, r.first);
                });
  return {adv(first1, i), adv(first2, i)};
}
} // namespace detail

/* std::mismatch: the first position where pred (==) is false, over
 * [first1, last1) and the range from first2 (as long as [first1, last1))
 * or [first2, last2) (the shorter of the two). */
template <class It1, class It2, class Pred = std::equal_to<>>
std::pair<It1, It2> mismatch(const policy &pol, It1 first1, It1 last1, It2 first2, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It1, It2>)
    return std::mismatch(first1, last1, first2, pred);
  else
    return detail::mismatch(pol, first1, first2, detail::dist(first1, last1), pred);
}
template <class It1, class It2, class Pred = std::equal_to<>>
std::pair<It1, It2> mismatch(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2,
                             Pred pred = {}) {
  if constexpr (!detail::random_access_v<It1, It2>)
    return std::mismatch(first1, last1, first2, last2, pred);
  else
    return detail::mismatch(pol, first1, first2,
                            std::min(detail::dist(first1, last1), detail::dist(first2, last2)),
                            pred);
}

/* std::equal: pred (==) true at every position; with last2, false at once
 * when the lengths differ (random access). */
template <class It1, class It2, class Pred = std::equal_to<>>
bool equal(const policy &pol, It1 first1, It1 last1, It2 first2, Pred pred = {}) {
  return adapt::mismatch(pol, first1, last1, first2, std::ref(pred)).first == last1;
}
template <class It1, class It2, class Pred = std::equal_to<>>
bool equal(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It1, It2>) {
    return std::equal(first1, last1, first2, last2, pred);
  } else {
    if (detail::dist(first1, last1) != detail::dist(first2, last2)) return false;
    return adapt::mismatch(pol, first1, last1, first2, std::ref(pred)).first == last1;
  }
}

/* std::find_first_of: the first element x with pred(x, s) (==) for some s
 * of [s_first, s_last) (read front to back for each x, as std). Only
 * [first, last) needs random access. */
template <class It1, class It2, class Pred = std::equal_to<>>
It1 find_first_of(const policy &pol, It1 first, It1 last, It2 s_first, It2 s_last, Pred pred = {}) {
  auto any = [&](auto &&x) {
    for (It2 s = s_first; s != s_last; ++s)
      if (pred(x, *s)) return true;
    return false;
  };
  return detail::find_if(pol, first, last, any);
}

/* std::search: the first occurrence of [s_first, s_last) in [first, last)
 * (first if the pattern is empty, last if none); each chunk of starting
 * positions runs std::search. Only [first, last) needs random access. */
template <class It1, class It2, class Pred = std::equal_to<>>
It1 search(const policy &pol, It1 first, It1 last, It2 s_first, It2 s_last, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It1>) {
    return std::search(first, last, s_first, s_last, pred);
  } else {
    std::size_t m = static_cast<std::size_t>(std::distance(s_first, s_last));
    if (m == 0) return first;
    return detail::first_window(pol, "adapt::search", first, last, m, 1, [&](It1 b, It1 e) {
      return std::search(b, e, s_first, s_last, std::ref(pred));
    });
  }
}

/* std::find_end: the last occurrence of [s_first, s_last) (last if the
 * pattern is empty or absent): the search for the first hit runs over the
 * starting positions from the end. */
template <class It1, class It2, class Pred = std::equal_to<>>
It1 find_end(const policy &pol, It1 first, It1 last, It2 s_first, It2 s_last, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It1>) {
    return std::find_end(first, last, s_first, s_last, pred);
  } else {
    std::size_t n = detail::dist(first, last);
    std::size_t m = static_cast<std::size_t>(std::distance(s_first, s_last));
    if (m == 0 || m > n) return last;
    const std::size_t top = n - m; /* position j: the occurrence at top - j */
    std::size_t j =
        detail::first_hit(pol.attr(), "adapt::find_end", top + 1, 1, sizeof(detail::value_t<It1>),
                          [&](std::size_t b, std::size_t e) {
                            for (std::size_t k = b; k < e; k++) {
                              It1 at = detail::adv(first, top - k);
                              if (std::equal(s_first, s_last, at, std::ref(pred))) return k;
                            }
                            return e;
                          });
    return j <= top ? detail::adv(first, top - j) : last;
  }
}

/* std::search_n: the first run of count elements x with pred(x, value)
 * (==); first when count <= 0, last if none. The starting positions go in
 * units of count, and each chunk runs std::search_n on its positions plus
 * the count - 1 elements after them, so at most about 2 n comparisons
 * (std's O(n)). */
template <class It, class Size, class T, class Pred = std::equal_to<>>
It search_n(const policy &pol, It first, It last, Size count, const T &value, Pred pred = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::search_n(first, last, count, value, pred);
  } else {
    if (count <= 0) return first;
    const std::size_t c = static_cast<std::size_t>(count);
    return detail::first_window(pol, "adapt::search_n", first, last, c, c, [&](It b, It e) {
      return std::search_n(b, e, count, value, std::ref(pred));
    });
  }
}

/* std::lexicographical_compare: [first1, last1) < [first2, last2) under
 * cmp (<). Positions before the first difference are compared twice, as
 * std; the decision at that position costs one more comparison than std's
 * (at most 2 min(n1, n2) + 1). */
template <class It1, class It2, class Cmp = std::less<>>
bool lexicographical_compare(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2,
                             Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It1, It2>) {
    return std::lexicographical_compare(first1, last1, first2, last2, cmp);
  } else {
    std::size_t n1 = detail::dist(first1, last1), n2 = detail::dist(first2, last2);
    std::size_t n = std::min(n1, n2);
    std::size_t i = detail::first_hit(pol.attr(), "adapt::lexicographical_compare", n, 1,
                                      sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>),
                                      [&](std::size_t b, std::size_t e) {
                                        It1 a = detail::adv(first1, b);
                                        It2 c = detail::adv(first2, b);
                                        for (std::size_t k = b; k < e; ++k, ++a, ++c)
                                          if (cmp(*a, *c) || cmp(*c, *a)) return k;
                                        return e;
                                      });
    if (i < n) return static_cast<bool>(cmp(*detail::adv(first1, i), *detail::adv(first2, i)));
    return n1 < n2;
  }
}

} // namespace adapt

#endif /* ADAPT_STL_SEARCH_HPP */
