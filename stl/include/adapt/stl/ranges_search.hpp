/* C++20 adapt::ranges:: searches, counts, extrema and comparisons (part of
 * <adapt/stl/ranges.hpp>, whose common contract applies; include
 * <adapt/stl.hpp>). Searches stop early as adapt::'s do; their result is
 * the first hit whatever the schedule. */
#ifndef ADAPT_STL_RANGES_SEARCH_HPP
#define ADAPT_STL_RANGES_SEARCH_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* The overloads of a unary-predicate algorithm NAME(first, last, pred,
 * proj) beside its policy-first iterator form (defined first): they
 * return RET_I (in terms of I) and RET_R (in terms of R) and forward to
 * that form. */
#define ADAPT_RANGES_PRED_FORMS(NAME, RET_I, RET_R)                                                \
  template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,             \
            std::indirect_unary_predicate<std::projected<I, Proj>> Pred>                           \
  RET_I NAME(I first, S last, Pred pred, Proj proj = {}) {                                         \
    return ranges::NAME(par, std::move(first), last, std::move(pred), std::move(proj));            \
  }                                                                                                \
  template <std::ranges::input_range R, class Proj = std::identity,                                \
            std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>  \
  RET_R NAME(const policy &pol, R &&r, Pred pred, Proj proj = {}) {                                \
    return ranges::NAME(pol, std::ranges::begin(r), std::ranges::end(r), std::move(pred),          \
                        std::move(proj));                                                          \
  }                                                                                                \
  template <std::ranges::input_range R, class Proj = std::identity,                                \
            std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>  \
  RET_R NAME(R &&r, Pred pred, Proj proj = {}) {                                                   \
    return ranges::NAME(par, std::forward<R>(r), std::move(pred), std::move(proj));                \
  }

/* std::ranges::find_if: the first element with pred(proj(x)); last when
 * none. */
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
I find_if(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::find_if(std::move(first), last, std::ref(pred), std::ref(proj));
  else
    return adapt::find_if(pol, first, std::ranges::next(first, last), detail::on1(pred, proj));
}
ADAPT_RANGES_PRED_FORMS(find_if, I, detail::bit<R>)

/* std::ranges::find_if_not: the first element without pred(proj(x)). */
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
I find_if_not(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::find_if_not(std::move(first), last, std::ref(pred), std::ref(proj));
  else
    return adapt::find_if_not(pol, first, std::ranges::next(first, last), detail::on1(pred, proj));
}
ADAPT_RANGES_PRED_FORMS(find_if_not, I, detail::bit<R>)

/* std::ranges::any_of / all_of / none_of on pred(proj(x)); stop at the
 * first element that decides. */
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
bool any_of(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  return ranges::find_if(pol, std::move(first), last, std::ref(pred), std::ref(proj)) != last;
}
ADAPT_RANGES_PRED_FORMS(any_of, bool, bool)
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
bool all_of(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  return ranges::find_if_not(pol, std::move(first), last, std::ref(pred), std::ref(proj)) == last;
}
ADAPT_RANGES_PRED_FORMS(all_of, bool, bool)
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
bool none_of(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  return ranges::find_if(pol, std::move(first), last, std::ref(pred), std::ref(proj)) == last;
}
ADAPT_RANGES_PRED_FORMS(none_of, bool, bool)

/* std::ranges::count_if: the number of elements with pred(proj(x)). */
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
std::iter_difference_t<I> count_if(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>)
    return std::ranges::count_if(std::move(first), last, std::ref(pred), std::ref(proj));
  else
    return static_cast<std::iter_difference_t<I>>(
        adapt::count_if(pol, first, std::ranges::next(first, last), detail::on1(pred, proj)));
}
ADAPT_RANGES_PRED_FORMS(count_if, std::iter_difference_t<I>, std::ranges::range_difference_t<R>)

#undef ADAPT_RANGES_PRED_FORMS

/* std::ranges::find: the first element with proj(x) == value. */
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    I find(const policy &pol, I first, S last, const T &value, Proj proj = {}) {
  return ranges::find_if(
      pol, std::move(first), last, [&value](const auto &x) { return x == value; }, std::move(proj));
}
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    I find(I first, S last, const T &value, Proj proj = {}) {
  return ranges::find(par, std::move(first), last, value, std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to,
                                        std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
    detail::bit<R> find(const policy &pol, R &&r, const T &value, Proj proj = {}) {
  return ranges::find(pol, std::ranges::begin(r), std::ranges::end(r), value, std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to,
                                        std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
    detail::bit<R> find(R &&r, const T &value, Proj proj = {}) {
  return ranges::find(par, std::forward<R>(r), value, std::move(proj));
}

/* std::ranges::count: the number of elements with proj(x) == value. */
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    std::iter_difference_t<I> count(const policy &pol, I first, S last, const T &value,
                                    Proj proj = {}) {
  return ranges::count_if(
      pol, std::move(first), last, [&value](const auto &x) { return x == value; }, std::move(proj));
}
template <std::input_iterator I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    std::iter_difference_t<I> count(I first, S last, const T &value, Proj proj = {}) {
  return ranges::count(par, std::move(first), last, value, std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to,
                                        std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
    std::ranges::range_difference_t<R> count(const policy &pol, R &&r, const T &value,
                                             Proj proj = {}) {
  return ranges::count(pol, std::ranges::begin(r), std::ranges::end(r), value, std::move(proj));
}
template <std::ranges::input_range R, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to,
                                        std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
    std::ranges::range_difference_t<R> count(R &&r, const T &value, Proj proj = {}) {
  return ranges::count(par, std::forward<R>(r), value, std::move(proj));
}

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_SEARCH_HPP */
