/* min_element, max_element, minmax_element of <adapt/stl.hpp> (included
 * by it, through <adapt/stl/algorithms.hpp>). Each block of the sequence
 * (reduce's blocks) runs std's algorithm and gives the position of its
 * result; the positions are combined along reduce's fixed tree, the left
 * block's kept on ties, so the result is std's (the first smallest, the
 * first largest; minmax_element: the first smallest and the last largest)
 * whatever the workers and the schedule. */
#ifndef ADAPT_STL_MINMAX_HPP
#define ADAPT_STL_MINMAX_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>

namespace adapt {

/* std::min_element: the first smallest element under cmp (<); last when
 * empty. Exactly max(n - 1, 0) comparisons, as std. */
template <class It, class Cmp = std::less<>>
It min_element(const policy &pol, It first, It last, Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::min_element(first, last, cmp);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n < 2) return first;
    auto comb = [&](std::size_t l, std::size_t r) {
      return cmp(*detail::adv(first, r), *detail::adv(first, l)) ? r : l;
    };
    std::size_t i = detail::fold_positions<std::size_t>(
        pol, "adapt::min_element", n, sizeof(detail::value_t<It>),
        [&](std::size_t lo, std::size_t hi) {
          return detail::dist(first, std::min_element(detail::adv(first, lo),
                                                      detail::adv(first, hi), std::ref(cmp)));
        },
        comb);
    return detail::adv(first, i);
  }
}
template <class It, class Cmp = std::less<>, detail::not_policy<It> = 0>
It min_element(It first, It last, Cmp cmp = {}) {
  return adapt::min_element(par, first, last, std::ref(cmp));
}

/* std::max_element: the first largest element under cmp (<); last when
 * empty. Exactly max(n - 1, 0) comparisons, as std. */
template <class It, class Cmp = std::less<>>
It max_element(const policy &pol, It first, It last, Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::max_element(first, last, cmp);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n < 2) return first;
    auto comb = [&](std::size_t l, std::size_t r) {
      return cmp(*detail::adv(first, l), *detail::adv(first, r)) ? r : l;
    };
    std::size_t i = detail::fold_positions<std::size_t>(
        pol, "adapt::max_element", n, sizeof(detail::value_t<It>),
        [&](std::size_t lo, std::size_t hi) {
          return detail::dist(first, std::max_element(detail::adv(first, lo),
                                                      detail::adv(first, hi), std::ref(cmp)));
        },
        comb);
    return detail::adv(first, i);
  }
}
template <class It, class Cmp = std::less<>, detail::not_policy<It> = 0>
It max_element(It first, It last, Cmp cmp = {}) {
  return adapt::max_element(par, first, last, std::ref(cmp));
}

/* std::minmax_element: {the first smallest, the last largest} under cmp
 * (<); {first, first} when empty. std::minmax_element's
 * floor(3 (n - 1) / 2) comparisons on each block, 2 per combination of two
 * blocks: at most floor(3 (n - 1) / 2) + (blocks - 1) / 2, blocks of at
 * least ADAPT_STL_BLOCK elements. */
template <class It, class Cmp = std::less<>>
std::pair<It, It> minmax_element(const policy &pol, It first, It last, Cmp cmp = {}) {
  if constexpr (!detail::random_access_v<It>) {
    return std::minmax_element(first, last, cmp);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n < 2) return {first, first};
    using P = std::pair<std::size_t, std::size_t>;
    auto at = [&](std::size_t i) -> decltype(auto) { return *detail::adv(first, i); };
    auto comb = [&](P l, P r) {
      return P{cmp(at(r.first), at(l.first)) ? r.first : l.first,
               cmp(at(r.second), at(l.second)) ? l.second : r.second};
    };
    P p = detail::fold_positions<P>(
        pol, "adapt::minmax_element", n, sizeof(detail::value_t<It>),
        [&](std::size_t lo, std::size_t hi) {
          auto r =
              std::minmax_element(detail::adv(first, lo), detail::adv(first, hi), std::ref(cmp));
          return P{detail::dist(first, r.first), detail::dist(first, r.second)};
        },
        comb);
    return {detail::adv(first, p.first), detail::adv(first, p.second)};
  }
}
template <class It, class Cmp = std::less<>, detail::not_policy<It> = 0>
std::pair<It, It> minmax_element(It first, It last, Cmp cmp = {}) {
  return adapt::minmax_element(par, first, last, std::ref(cmp));
}

} // namespace adapt

#endif /* ADAPT_STL_MINMAX_HPP */
