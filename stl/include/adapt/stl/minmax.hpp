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
#include <type_traits>
#include <utility>

namespace adapt {
namespace detail {

/* True when Cmp (or the Cmp a std::reference_wrapper holds) is std::less
 * on an arithmetic V: the comparisons cannot be observed, and the fast
 * block below applies. */
template <class Cmp>
struct unwrap_ref {
  using type = Cmp;
};
template <class Cmp>
struct unwrap_ref<std::reference_wrapper<Cmp>> {
  using type = Cmp;
};
template <class V, class Cmp, class C = std::remove_cv_t<typename unwrap_ref<Cmp>::type>>
inline constexpr bool plain_less_v = std::is_arithmetic_v<V> && (std::is_same_v<C, std::less<>> ||
                                                                 std::is_same_v<C, std::less<V>>);

/* The position of std::min_element (Max: std::max_element) over [lo, hi)
 * of an arithmetic type under <: the extreme value by runs of 512
 * elements, each folded by four independent branch-free chains (no
 * branch a element, no loop-carried chain of compares), the first run
 * that reaches it kept, then the first element of that run equal to it.
 * The chains start from first[lo], and x < m ? x : m never takes a NaN x:
 * as in std's fold a NaN is never chosen, except first[lo] itself (nothing
 * compares below it: lo, as std). Equal values (0.0 and -0.0 too): the
 * first, as std. */
template <bool Max, class It>
std::size_t extreme_block(It first, std::size_t lo, std::size_t hi) {
  using V = value_t<It>;
  constexpr std::size_t run = 512;
  auto better = [](V x, V m) { return Max ? m < x : x < m; };
  auto pick = [&](V x, V m) { return better(x, m) ? x : m; };
  const V x0 = *adv(first, lo);
  if (!(x0 == x0)) return lo; /* NaN: nothing is < it */
  V best = x0;
  std::size_t at = lo;
  for (std::size_t r = lo; r < hi; r += run) {
    std::size_t re = hi - r < run ? hi : r + run, i = r;
    V m0 = x0, m1 = x0, m2 = x0, m3 = x0;
    for (; i + 4 <= re; i += 4) {
      It x = adv(first, i);
      m0 = pick(x[0], m0);
      m1 = pick(x[1], m1);
      m2 = pick(x[2], m2);
      m3 = pick(x[3], m3);
    }
    for (; i < re; i++) m0 = pick(*adv(first, i), m0);
    m0 = pick(m1, m0);
    m2 = pick(m3, m2);
    m0 = pick(m2, m0);
    if (better(m0, best)) {
      best = m0;
      at = r;
    }
  }
  while (!(*adv(first, at) == best)) at++;
  return at;
}

/* adapt::min_element (Max: adapt::max_element): the first smallest element
 * of [first, last) under cmp (Max: the first largest): each block's
 * extreme (extreme_block under a plain <, else std's), then the blocks'
 * ones in reduce's fixed tree, the left one kept on ties. max(n - 1, 0)
 * comparisons. Iterators that are not random access: std's, sequentially. */
template <bool Max, class It, class Cmp>
It extreme_element(const policy &pol, It first, It last, Cmp &cmp) {
  if constexpr (!random_access_v<It>) {
    if constexpr (Max)
      return std::max_element(first, last, cmp);
    else
      return std::min_element(first, last, cmp);
  } else {
    std::size_t n = dist(first, last);
    if (n < 2) return first;
    auto comb = [&](std::size_t l, std::size_t r) {
      auto &&x = *adv(first, l), &&y = *adv(first, r);
      return (Max ? cmp(x, y) : cmp(y, x)) ? r : l;
    };
    std::size_t i = fold_positions<std::size_t>(
        pol, Max ? "adapt::max_element" : "adapt::min_element", n, sizeof(value_t<It>),
        [&](std::size_t lo, std::size_t hi) {
          if constexpr (plain_less_v<value_t<It>, Cmp>)
            return extreme_block<Max>(first, lo, hi);
          else if constexpr (Max)
            return dist(first, std::max_element(adv(first, lo), adv(first, hi), std::ref(cmp)));
          else
            return dist(first, std::min_element(adv(first, lo), adv(first, hi), std::ref(cmp)));
        },
        comb);
    return adv(first, i);
  }
}

} // namespace detail

/* std::min_element: the first smallest element under cmp (<); last when
 * empty. Exactly max(n - 1, 0) comparisons, as std (std::less on an
 * arithmetic type: branch-free runs, extreme_block, whose comparisons
 * cannot be observed). */
template <class It, class Cmp = std::less<>>
It min_element(const policy &pol, It first, It last, Cmp cmp = {}) {
  return detail::extreme_element<false>(pol, first, last, cmp);
}

/* std::max_element: the first largest element under cmp (<); last when
 * empty. As min_element. */
template <class It, class Cmp = std::less<>>
It max_element(const policy &pol, It first, It last, Cmp cmp = {}) {
  return detail::extreme_element<true>(pol, first, last, cmp);
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

} // namespace adapt

#endif /* ADAPT_STL_MINMAX_HPP */
