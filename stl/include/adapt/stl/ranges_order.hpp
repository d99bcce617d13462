/* C++20 adapt::ranges:: sorts and in-place modifications (part of
 * <adapt/stl/ranges.hpp>, whose common contract applies; include
 * <adapt/stl.hpp>). */
#ifndef ADAPT_STL_RANGES_ORDER_HPP
#define ADAPT_STL_RANGES_ORDER_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* The overloads of a sort NAME(first, last, comp, proj) beside its
 * policy-first iterator form (defined first); they forward to it. */
#define ADAPT_RANGES_SORT_FORMS(NAME)                                                              \
  template <std::random_access_iterator I, std::sentinel_for<I> S, class Comp = std::ranges::less, \
            class Proj = std::identity>                                                            \
  requires std::sortable<I, Comp, Proj> I NAME(I first, S last, Comp comp = {}, Proj proj = {}) {  \
    return ranges::NAME(par, std::move(first), last, std::move(comp), std::move(proj));            \
  }                                                                                                \
  template <std::ranges::random_access_range R, class Comp = std::ranges::less,                    \
            class Proj = std::identity>                                                            \
  requires std::sortable<std::ranges::iterator_t<R>, Comp, Proj> detail::bit<R> NAME(              \
      const policy &pol, R &&r, Comp comp = {}, Proj proj = {}) {                                  \
    return ranges::NAME(pol, std::ranges::begin(r), std::ranges::end(r), std::move(comp),          \
                        std::move(proj));                                                          \
  }                                                                                                \
  template <std::ranges::random_access_range R, class Comp = std::ranges::less,                    \
            class Proj = std::identity>                                                            \
  requires std::sortable<std::ranges::iterator_t<R>, Comp, Proj> detail::bit<R> NAME(              \
      R &&r, Comp comp = {}, Proj proj = {}) {                                                     \
    return ranges::NAME(par, std::forward<R>(r), std::move(comp), std::move(proj));                \
  }

/* std::ranges::sort: sorts under comp(proj(a), proj(b)) (adapt::sort's
 * parallel quicksort); returns last. */
template <std::random_access_iterator I, std::sentinel_for<I> S, class Comp = std::ranges::less,
          class Proj = std::identity>
requires std::sortable<I, Comp, Proj> I sort(const policy &pol, I first, S last, Comp comp = {},
                                             Proj proj = {}) {
  I end = std::ranges::next(first, last);
  adapt::sort(pol, first, end, detail::on2(comp, proj, proj));
  return end;
}
ADAPT_RANGES_SORT_FORMS(sort)

/* std::ranges::stable_sort: sorts, equivalent elements keeping their order
 * (adapt::stable_sort's parallel merge sort); returns last. */
template <std::random_access_iterator I, std::sentinel_for<I> S, class Comp = std::ranges::less,
          class Proj = std::identity>
requires std::sortable<I, Comp, Proj> I stable_sort(const policy &pol, I first, S last,
                                                    Comp comp = {}, Proj proj = {}) {
  I end = std::ranges::next(first, last);
  adapt::stable_sort(pol, first, end, detail::on2(comp, proj, proj));
  return end;
}
ADAPT_RANGES_SORT_FORMS(stable_sort)

#undef ADAPT_RANGES_SORT_FORMS

/* std::ranges::reverse: reverses the order of the elements; returns last. */
template <std::bidirectional_iterator I, std::sentinel_for<I> S>
requires std::permutable<I> I reverse(const policy &pol, I first, S last) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::reverse(std::move(first), last);
  } else {
    I end = std::ranges::next(first, last);
    adapt::reverse(pol, first, end);
    return end;
  }
}
template <std::bidirectional_iterator I, std::sentinel_for<I> S>
requires std::permutable<I> I reverse(I first, S last) {
  return ranges::reverse(par, std::move(first), last);
}
template <std::ranges::bidirectional_range R>
requires std::permutable<std::ranges::iterator_t<R>> detail::bit<R> reverse(const policy &pol,
                                                                            R &&r) {
  return ranges::reverse(pol, std::ranges::begin(r), std::ranges::end(r));
}
template <std::ranges::bidirectional_range R>
requires std::permutable<std::ranges::iterator_t<R>> detail::bit<R> reverse(R &&r) {
  return ranges::reverse(par, std::forward<R>(r));
}

/* std::ranges::replace_if: new_value into every element with
 * pred(proj(x)); returns last. */
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
requires std::indirectly_writable<I, const T &> I replace_if(const policy &pol, I first, S last,
                                                             Pred pred, const T &new_value,
                                                             Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::replace_if(std::move(first), last, std::ref(pred), new_value,
                                   std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    adapt::replace_if(pol, first, end, detail::on1(pred, proj), new_value);
    return end;
  }
}
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
requires std::indirectly_writable<I, const T &> I replace_if(I first, S last, Pred pred,
                                                             const T &new_value, Proj proj = {}) {
  return ranges::replace_if(par, std::move(first), last, std::move(pred), new_value,
                            std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::indirectly_writable<std::ranges::iterator_t<R>, const T &> detail::bit<R>
replace_if(const policy &pol, R &&r, Pred pred, const T &new_value, Proj proj = {}) {
  return ranges::replace_if(pol, std::ranges::begin(r), std::ranges::end(r), std::move(pred),
                            new_value, std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::indirectly_writable<std::ranges::iterator_t<R>, const T &> detail::bit<R>
replace_if(R &&r, Pred pred, const T &new_value, Proj proj = {}) {
  return ranges::replace_if(par, std::forward<R>(r), std::move(pred), new_value, std::move(proj));
}

/* std::ranges::replace: new_value into every element with
 * proj(x) == old_value; returns last. */
template <std::input_iterator I, std::sentinel_for<I> S, class T1, class T2,
          class Proj = std::identity>
requires std::indirectly_writable<I, const T2 &> &&
    std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T1 *>
        I replace(const policy &pol, I first, S last, const T1 &old_value, const T2 &new_value,
                  Proj proj = {}) {
  return ranges::replace_if(
      pol, std::move(first), last, [&old_value](const auto &x) { return x == old_value; },
      new_value, std::move(proj));
}
template <std::input_iterator I, std::sentinel_for<I> S, class T1, class T2,
          class Proj = std::identity>
requires std::indirectly_writable<I, const T2 &> &&
    std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T1 *>
        I replace(I first, S last, const T1 &old_value, const T2 &new_value, Proj proj = {}) {
  return ranges::replace(par, std::move(first), last, old_value, new_value, std::move(proj));
}
template <std::ranges::input_range R, class T1, class T2, class Proj = std::identity>
requires std::indirectly_writable<std::ranges::iterator_t<R>, const T2 &> &&
    std::indirect_binary_predicate<std::ranges::equal_to,
                                   std::projected<std::ranges::iterator_t<R>, Proj>, const T1 *>
        detail::bit<R> replace(const policy &pol, R &&r, const T1 &old_value, const T2 &new_value,
                               Proj proj = {}) {
  return ranges::replace(pol, std::ranges::begin(r), std::ranges::end(r), old_value, new_value,
                         std::move(proj));
}
template <std::ranges::input_range R, class T1, class T2, class Proj = std::identity>
requires std::indirectly_writable<std::ranges::iterator_t<R>, const T2 &> &&
    std::indirect_binary_predicate<std::ranges::equal_to,
                                   std::projected<std::ranges::iterator_t<R>, Proj>, const T1 *>
        detail::bit<R> replace(R &&r, const T1 &old_value, const T2 &new_value, Proj proj = {}) {
  return ranges::replace(par, std::forward<R>(r), old_value, new_value, std::move(proj));
}

} // namespace ranges
} // namespace adapt

#include <adapt/stl/ranges_remove.hpp>

#endif /* ADAPT_STL_RANGES_ORDER_HPP */
