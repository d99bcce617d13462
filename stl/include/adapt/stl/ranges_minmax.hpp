/* C++20 adapt::ranges:: extrema, order checks and comparisons of two
 * ranges (part of <adapt/stl/ranges.hpp>, whose common contract applies;
 * include <adapt/stl.hpp>). */
#ifndef ADAPT_STL_RANGES_MINMAX_HPP
#define ADAPT_STL_RANGES_MINMAX_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* The overloads of an ordering algorithm NAME(first, last, comp, proj)
 * beside its policy-first iterator form (defined first): they return
 * RET_I (in terms of I) and RET_R (in terms of R) and forward to it. */
#define ADAPT_RANGES_CMP_FORMS(NAME, RET_I, RET_R)                                                 \
  template <std::forward_iterator I, std::sentinel_for<I> S, class Proj = std::identity,           \
            std::indirect_strict_weak_order<std::projected<I, Proj>> Comp = std::ranges::less>     \
  RET_I NAME(I first, S last, Comp comp = {}, Proj proj = {}) {                                    \
    return ranges::NAME(par, std::move(first), last, std::move(comp), std::move(proj));            \
  }                                                                                                \
  template <std::ranges::forward_range R, class Proj = std::identity,                              \
            std::indirect_strict_weak_order<std::projected<std::ranges::iterator_t<R>, Proj>>      \
                Comp = std::ranges::less>                                                          \
  RET_R NAME(const policy &pol, R &&r, Comp comp = {}, Proj proj = {}) {                           \
    return ranges::NAME(pol, std::ranges::begin(r), std::ranges::end(r), std::move(comp),          \
                        std::move(proj));                                                          \
  }                                                                                                \
  template <std::ranges::forward_range R, class Proj = std::identity,                              \
            std::indirect_strict_weak_order<std::projected<std::ranges::iterator_t<R>, Proj>>      \
                Comp = std::ranges::less>                                                          \
  RET_R NAME(R &&r, Comp comp = {}, Proj proj = {}) {                                              \
    return ranges::NAME(par, std::forward<R>(r), std::move(comp), std::move(proj));                \
  }

/* std::ranges::min_element: the first smallest element under
 * comp(proj(a), proj(b)); last when empty. */
template <std::forward_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_strict_weak_order<std::projected<I, Proj>> Comp = std::ranges::less>
I min_element(const policy &pol, I first, S last, Comp comp = {}, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::min_element(first, last, std::ref(comp), std::ref(proj));
  else
    return adapt::min_element(pol, first, std::ranges::next(first, last),
                              detail::on2(comp, proj, proj));
}
ADAPT_RANGES_CMP_FORMS(min_element, I, detail::bit<R>)

/* std::ranges::max_element: the first largest element; last when empty. */
template <std::forward_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_strict_weak_order<std::projected<I, Proj>> Comp = std::ranges::less>
I max_element(const policy &pol, I first, S last, Comp comp = {}, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::max_element(first, last, std::ref(comp), std::ref(proj));
  else
    return adapt::max_element(pol, first, std::ranges::next(first, last),
                              detail::on2(comp, proj, proj));
}
ADAPT_RANGES_CMP_FORMS(max_element, I, detail::bit<R>)

/* std::ranges::minmax_element: {the first smallest, the last largest};
 * {last, last} when empty. */
template <std::forward_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_strict_weak_order<std::projected<I, Proj>> Comp = std::ranges::less>
std::ranges::minmax_element_result<I> minmax_element(const policy &pol, I first, S last,
                                                     Comp comp = {}, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::minmax_element(first, last, std::ref(comp), std::ref(proj));
  } else {
    auto mm = adapt::minmax_element(pol, first, std::ranges::next(first, last),
                                    detail::on2(comp, proj, proj));
    return {mm.first, mm.second};
  }
}
ADAPT_RANGES_CMP_FORMS(minmax_element, std::ranges::minmax_element_result<I>,
                       std::ranges::minmax_element_result<detail::bit<R>>)

/* std::ranges::is_sorted: no element is less (comp) than the one before. */
template <std::forward_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_strict_weak_order<std::projected<I, Proj>> Comp = std::ranges::less>
bool is_sorted(const policy &pol, I first, S last, Comp comp = {}, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::is_sorted(first, last, std::ref(comp), std::ref(proj));
  else
    return adapt::is_sorted(pol, first, std::ranges::next(first, last),
                            detail::on2(comp, proj, proj));
}
ADAPT_RANGES_CMP_FORMS(is_sorted, bool, bool)

#undef ADAPT_RANGES_CMP_FORMS

/* std::ranges::mismatch: the first position, in both ranges, where
 * pred(proj1(x), proj2(y)) fails, or the end of the shorter range. */
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<I1, I2, Pred, Proj1, Proj2> std::ranges::mismatch_result<I1, I2>
mismatch(const policy &pol, I1 first1, S1 last1, I2 first2, S2 last2, Pred pred = {},
         Proj1 proj1 = {}, Proj2 proj2 = {}) {
  if constexpr (!detail::par_v<I1, S1> || !detail::par_v<I2, S2>) {
    return std::ranges::mismatch(std::move(first1), last1, std::move(first2), last2, std::ref(pred),
                                 std::ref(proj1), std::ref(proj2));
  } else {
    auto m = adapt::mismatch(pol, first1, std::ranges::next(first1, last1), first2,
                             std::ranges::next(first2, last2), detail::on2(pred, proj1, proj2));
    return {m.first, m.second};
  }
}
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<I1, I2, Pred, Proj1, Proj2> std::ranges::mismatch_result<I1, I2>
mismatch(I1 first1, S1 last1, I2 first2, S2 last2, Pred pred = {}, Proj1 proj1 = {},
         Proj2 proj2 = {}) {
  return ranges::mismatch(par, std::move(first1), last1, std::move(first2), last2, std::move(pred),
                          std::move(proj1), std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2,
          class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<std::ranges::iterator_t<R1>, std::ranges::iterator_t<R2>, Pred,
                                    Proj1, Proj2>
    std::ranges::mismatch_result<detail::bit<R1>, detail::bit<R2>>
    mismatch(const policy &pol, R1 &&r1, R2 &&r2, Pred pred = {}, Proj1 proj1 = {},
             Proj2 proj2 = {}) {
  return ranges::mismatch(pol, std::ranges::begin(r1), std::ranges::end(r1), std::ranges::begin(r2),
                          std::ranges::end(r2), std::move(pred), std::move(proj1),
                          std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2,
          class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<std::ranges::iterator_t<R1>, std::ranges::iterator_t<R2>, Pred,
                                    Proj1, Proj2>
    std::ranges::mismatch_result<detail::bit<R1>, detail::bit<R2>>
    mismatch(R1 &&r1, R2 &&r2, Pred pred = {}, Proj1 proj1 = {}, Proj2 proj2 = {}) {
  return ranges::mismatch(par, std::forward<R1>(r1), std::forward<R2>(r2), std::move(pred),
                          std::move(proj1), std::move(proj2));
}

/* std::ranges::equal: the same length and pred(proj1(x), proj2(y)) at
 * every position (different sizes: false without a comparison). */
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<I1, I2, Pred, Proj1, Proj2> bool
equal(const policy &pol, I1 first1, S1 last1, I2 first2, S2 last2, Pred pred = {}, Proj1 proj1 = {},
      Proj2 proj2 = {}) {
  if constexpr (!detail::par_v<I1, S1> || !detail::par_v<I2, S2>) {
    return std::ranges::equal(std::move(first1), last1, std::move(first2), last2, std::ref(pred),
                              std::ref(proj1), std::ref(proj2));
  } else {
    if (last1 - first1 != last2 - first2) return false;
    return adapt::equal(pol, first1, std::ranges::next(first1, last1), first2,
                        detail::on2(pred, proj1, proj2));
  }
}
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<I1, I2, Pred, Proj1, Proj2> bool
equal(I1 first1, S1 last1, I2 first2, S2 last2, Pred pred = {}, Proj1 proj1 = {},
      Proj2 proj2 = {}) {
  return ranges::equal(par, std::move(first1), last1, std::move(first2), last2, std::move(pred),
                       std::move(proj1), std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2,
          class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<std::ranges::iterator_t<R1>, std::ranges::iterator_t<R2>, Pred,
                                    Proj1, Proj2> bool
equal(const policy &pol, R1 &&r1, R2 &&r2, Pred pred = {}, Proj1 proj1 = {}, Proj2 proj2 = {}) {
  return ranges::equal(pol, std::ranges::begin(r1), std::ranges::end(r1), std::ranges::begin(r2),
                       std::ranges::end(r2), std::move(pred), std::move(proj1), std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2,
          class Pred = std::ranges::equal_to, class Proj1 = std::identity,
          class Proj2 = std::identity>
requires std::indirectly_comparable<std::ranges::iterator_t<R1>, std::ranges::iterator_t<R2>, Pred,
                                    Proj1, Proj2> bool
equal(R1 &&r1, R2 &&r2, Pred pred = {}, Proj1 proj1 = {}, Proj2 proj2 = {}) {
  return ranges::equal(par, std::forward<R1>(r1), std::forward<R2>(r2), std::move(pred),
                       std::move(proj1), std::move(proj2));
}

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_MINMAX_HPP */
