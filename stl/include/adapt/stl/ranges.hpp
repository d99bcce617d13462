/* C++20: adapt::ranges::, the overloads of std::ranges' algorithms
 * (iterator + sentinel, or a range; projections; std::ranges' result
 * types, borrowed_iterator_t / borrowed_subrange_t for ranges), without a
 * policy or with an adapt::policy first, on the algorithms of
 * <adapt/stl.hpp>. Included by <adapt/stl.hpp> when compiled as C++20
 * with <ranges>; include <adapt/stl.hpp>, not this header. Under C++17 it
 * defines nothing.
 *
 *   std::vector<point> v = ...;
 *   adapt::ranges::sort(adapt::par, v, {}, &point::x);
 *   auto n = adapt::ranges::count_if(v, [](double x) { return x > 0; }, &point::y);
 *
 * Common contract (beyond <adapt/stl.hpp>'s, which applies):
 * - Effect and result: std::ranges' algorithm of the same name, with its
 *   constraints (concepts: a misuse names the unsatisfied concept) and its
 *   result type. The function and predicate objects see the projected
 *   elements, std::invoke(proj, *it), as lvalues where *it is one.
 * - Parallel when the iterators are std::random_access_iterator and the
 *   sentinels std::sized_sentinel_for them (the end iterator is then
 *   computed in O(1), ranges::next): the adapt:: algorithm runs on
 *   [first, end). sort and stable_sort always run adapt::'s (random-access
 *   iterators are required; an unsized sentinel costs one pass to find the
 *   end). Otherwise the call is std::ranges' sequential algorithm.
 * - Without a policy: adapt::par. The returned function object of
 *   for_each/for_each_n is the one every worker called (shared by
 *   reference: make it thread-safe).
 * - Not guaranteed: the order of the calls; which calls run concurrently. */
#ifndef ADAPT_STL_RANGES_HPP
#define ADAPT_STL_RANGES_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#if __cplusplus >= 202002L && __has_include(<ranges>)
#include <ranges>
#endif

#if defined(__cpp_lib_ranges)

#include <concepts>
#include <functional>
#include <iterator>
#include <utility>

namespace adapt {
namespace ranges {
namespace detail {

/* The parallel path: random access and an O(1) end. */
template <class I, class S>
inline constexpr bool par_v = std::random_access_iterator<I> &&std::sized_sentinel_for<S, I>;

/* f(proj(x)): a unary function or predicate on the projected element. */
template <class F, class P>
auto on1(F &f, P &p) {
  return [&f, &p](auto &&x) -> decltype(auto) {
    return std::invoke(f, std::invoke(p, std::forward<decltype(x)>(x)));
  };
}
/* f(p1(x), p2(y)): a binary operation or comparison on projected elements. */
template <class F, class P1, class P2>
auto on2(F &f, P1 &p1, P2 &p2) {
  return [&f, &p1, &p2](auto &&x, auto &&y) -> decltype(auto) {
    return std::invoke(f, std::invoke(p1, std::forward<decltype(x)>(x)),
                       std::invoke(p2, std::forward<decltype(y)>(y)));
  };
}

/* The iterator a range overload returns (std::ranges::dangling for a
 * temporary that does not borrow). */
template <class R>
using bit = std::ranges::borrowed_iterator_t<R>;

} // namespace detail

/* ===== Maps ============================================================== */

/* std::ranges::for_each: f(proj(x)) on every element; returns {last, f}. */
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<I, Proj>> Fun>
std::ranges::for_each_result<I, Fun> for_each(const policy &pol, I first, S last, Fun f,
                                              Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::for_each(std::move(first), last, std::move(f), std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    adapt::for_each(pol, first, end, detail::on1(f, proj));
    return {end, std::move(f)};
  }
}
template <std::input_iterator I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<I, Proj>> Fun>
std::ranges::for_each_result<I, Fun> for_each(I first, S last, Fun f, Proj proj = {}) {
  return ranges::for_each(par, std::move(first), last, std::move(f), std::move(proj));
}
template <std::ranges::input_range R, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<std::ranges::iterator_t<R>, Proj>> Fun>
std::ranges::for_each_result<detail::bit<R>, Fun> for_each(const policy &pol, R &&r, Fun f,
                                                           Proj proj = {}) {
  return ranges::for_each(pol, std::ranges::begin(r), std::ranges::end(r), std::move(f),
                          std::move(proj));
}
template <std::ranges::input_range R, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<std::ranges::iterator_t<R>, Proj>> Fun>
std::ranges::for_each_result<detail::bit<R>, Fun> for_each(R &&r, Fun f, Proj proj = {}) {
  return ranges::for_each(par, std::forward<R>(r), std::move(f), std::move(proj));
}

/* std::ranges::for_each_n: f(proj(x)) on [first, first + n); returns
 * {first + n, f} (first when n <= 0). */
template <std::input_iterator I, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<I, Proj>> Fun>
std::ranges::for_each_n_result<I, Fun>
for_each_n(const policy &pol, I first, std::iter_difference_t<I> n, Fun f, Proj proj = {}) {
  if constexpr (!std::random_access_iterator<I>) {
    return std::ranges::for_each_n(std::move(first), n, std::move(f), std::ref(proj));
  } else {
    if (n <= 0) return {first, std::move(f)};
    adapt::for_each(pol, first, first + n, detail::on1(f, proj));
    return {first + n, std::move(f)};
  }
}
template <std::input_iterator I, class Proj = std::identity,
          std::indirectly_unary_invocable<std::projected<I, Proj>> Fun>
std::ranges::for_each_n_result<I, Fun> for_each_n(I first, std::iter_difference_t<I> n, Fun f,
                                                  Proj proj = {}) {
  return ranges::for_each_n(par, std::move(first), n, std::move(f), std::move(proj));
}

/* std::ranges::transform, unary: *o++ = op(proj(x)); returns {last, o}.
 * The output may be the input (in place). */
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O,
          std::copy_constructible F, class Proj = std::identity>
requires std::indirectly_writable<O, std::indirect_result_t<F &, std::projected<I, Proj>>>
    std::ranges::unary_transform_result<I, O> transform(const policy &pol, I first, S last,
                                                        O result, F op, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S> || !std::random_access_iterator<O>) {
    return std::ranges::transform(std::move(first), last, std::move(result), std::ref(op),
                                  std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    return {end, adapt::transform(pol, first, end, result, detail::on1(op, proj))};
  }
}
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O,
          std::copy_constructible F, class Proj = std::identity>
requires std::indirectly_writable<O, std::indirect_result_t<F &, std::projected<I, Proj>>>
    std::ranges::unary_transform_result<I, O> transform(I first, S last, O result, F op,
                                                        Proj proj = {}) {
  return ranges::transform(par, std::move(first), last, std::move(result), std::move(op),
                           std::move(proj));
}
template <std::ranges::input_range R, std::weakly_incrementable O, std::copy_constructible F,
          class Proj = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<std::ranges::iterator_t<R>, Proj>>>
    std::ranges::unary_transform_result<detail::bit<R>, O>
    transform(const policy &pol, R &&r, O result, F op, Proj proj = {}) {
  return ranges::transform(pol, std::ranges::begin(r), std::ranges::end(r), std::move(result),
                           std::move(op), std::move(proj));
}
template <std::ranges::input_range R, std::weakly_incrementable O, std::copy_constructible F,
          class Proj = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<std::ranges::iterator_t<R>, Proj>>>
    std::ranges::unary_transform_result<detail::bit<R>, O> transform(R &&r, O result, F op,
                                                                     Proj proj = {}) {
  return ranges::transform(par, std::forward<R>(r), std::move(result), std::move(op),
                           std::move(proj));
}

/* std::ranges::transform, binary: *o++ = op(proj1(x), proj2(y)) over the
 * shorter of the two ranges; returns {end1, end2, o} of what was read. */
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, std::weakly_incrementable O, std::copy_constructible F,
          class Proj1 = std::identity, class Proj2 = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<I1, Proj1>, std::projected<I2, Proj2>>>
    std::ranges::binary_transform_result<I1, I2, O>
    transform(const policy &pol, I1 first1, S1 last1, I2 first2, S2 last2, O result, F op,
              Proj1 proj1 = {}, Proj2 proj2 = {}) {
  if constexpr (!detail::par_v<I1, S1> || !detail::par_v<I2, S2> ||
                !std::random_access_iterator<O>) {
    return std::ranges::transform(std::move(first1), last1, std::move(first2), last2,
                                  std::move(result), std::ref(op), std::ref(proj1),
                                  std::ref(proj2));
  } else {
    auto n = std::min<std::iter_difference_t<I1>>(
        last1 - first1, static_cast<std::iter_difference_t<I1>>(last2 - first2));
    O out =
        adapt::transform(pol, first1, first1 + n, first2, result, detail::on2(op, proj1, proj2));
    return {first1 + n, first2 + static_cast<std::iter_difference_t<I2>>(n), out};
  }
}
template <std::input_iterator I1, std::sentinel_for<I1> S1, std::input_iterator I2,
          std::sentinel_for<I2> S2, std::weakly_incrementable O, std::copy_constructible F,
          class Proj1 = std::identity, class Proj2 = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<I1, Proj1>, std::projected<I2, Proj2>>>
    std::ranges::binary_transform_result<I1, I2, O> transform(I1 first1, S1 last1, I2 first2,
                                                              S2 last2, O result, F op,
                                                              Proj1 proj1 = {}, Proj2 proj2 = {}) {
  return ranges::transform(par, std::move(first1), last1, std::move(first2), last2,
                           std::move(result), std::move(op), std::move(proj1), std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2, std::weakly_incrementable O,
          std::copy_constructible F, class Proj1 = std::identity, class Proj2 = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<std::ranges::iterator_t<R1>, Proj1>,
                              std::projected<std::ranges::iterator_t<R2>, Proj2>>>
    std::ranges::binary_transform_result<detail::bit<R1>, detail::bit<R2>, O>
    transform(const policy &pol, R1 &&r1, R2 &&r2, O result, F op, Proj1 proj1 = {},
              Proj2 proj2 = {}) {
  return ranges::transform(pol, std::ranges::begin(r1), std::ranges::end(r1),
                           std::ranges::begin(r2), std::ranges::end(r2), std::move(result),
                           std::move(op), std::move(proj1), std::move(proj2));
}
template <std::ranges::input_range R1, std::ranges::input_range R2, std::weakly_incrementable O,
          std::copy_constructible F, class Proj1 = std::identity, class Proj2 = std::identity>
requires std::indirectly_writable<
    O, std::indirect_result_t<F &, std::projected<std::ranges::iterator_t<R1>, Proj1>,
                              std::projected<std::ranges::iterator_t<R2>, Proj2>>>
    std::ranges::binary_transform_result<detail::bit<R1>, detail::bit<R2>, O>
    transform(R1 &&r1, R2 &&r2, O result, F op, Proj1 proj1 = {}, Proj2 proj2 = {}) {
  return ranges::transform(par, std::forward<R1>(r1), std::forward<R2>(r2), std::move(result),
                           std::move(op), std::move(proj1), std::move(proj2));
}

/* std::ranges::fill: every element = value; returns last. */
template <class T, std::output_iterator<const T &> O, std::sentinel_for<O> S>
O fill(const policy &pol, O first, S last, const T &value) {
  if constexpr (!detail::par_v<O, S>) {
    return std::ranges::fill(std::move(first), last, value);
  } else {
    O end = std::ranges::next(first, last);
    adapt::fill(pol, first, end, value);
    return end;
  }
}
template <class T, std::output_iterator<const T &> O, std::sentinel_for<O> S>
O fill(O first, S last, const T &value) {
  return ranges::fill(par, std::move(first), last, value);
}
template <class T, std::ranges::output_range<const T &> R>
detail::bit<R> fill(const policy &pol, R &&r, const T &value) {
  return ranges::fill(pol, std::ranges::begin(r), std::ranges::end(r), value);
}
template <class T, std::ranges::output_range<const T &> R>
detail::bit<R> fill(R &&r, const T &value) {
  return ranges::fill(par, std::forward<R>(r), value);
}

/* std::ranges::copy: *o++ = x (copy assignment); returns {last, o}. */
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O>
requires std::indirectly_copyable<I, O> std::ranges::copy_result<I, O>
copy(const policy &pol, I first, S last, O result) {
  if constexpr (!detail::par_v<I, S> || !std::random_access_iterator<O>) {
    return std::ranges::copy(std::move(first), last, std::move(result));
  } else {
    I end = std::ranges::next(first, last);
    return {end, adapt::copy(pol, first, end, result)};
  }
}
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O>
requires std::indirectly_copyable<I, O> std::ranges::copy_result<I, O> copy(I first, S last,
                                                                            O result) {
  return ranges::copy(par, std::move(first), last, std::move(result));
}
template <std::ranges::input_range R, std::weakly_incrementable O>
requires std::indirectly_copyable<std::ranges::iterator_t<R>, O>
    std::ranges::copy_result<detail::bit<R>, O> copy(const policy &pol, R &&r, O result) {
  return ranges::copy(pol, std::ranges::begin(r), std::ranges::end(r), std::move(result));
}
template <std::ranges::input_range R, std::weakly_incrementable O>
requires std::indirectly_copyable<std::ranges::iterator_t<R>, O>
    std::ranges::copy_result<detail::bit<R>, O> copy(R &&r, O result) {
  return ranges::copy(par, std::forward<R>(r), std::move(result));
}

/* std::ranges::copy_if: copies the elements with pred(proj(x)), in order;
 * returns {last, o}. The ranges must not overlap. */
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O,
          class Proj = std::identity, std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
requires std::indirectly_copyable<I, O> std::ranges::copy_if_result<I, O>
copy_if(const policy &pol, I first, S last, O result, Pred pred, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S> || !std::random_access_iterator<O>) {
    return std::ranges::copy_if(std::move(first), last, std::move(result), std::ref(pred),
                                std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    return {end, adapt::copy_if(pol, first, end, result, detail::on1(pred, proj))};
  }
}
template <std::input_iterator I, std::sentinel_for<I> S, std::weakly_incrementable O,
          class Proj = std::identity, std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
requires std::indirectly_copyable<I, O> std::ranges::copy_if_result<I, O>
copy_if(I first, S last, O result, Pred pred, Proj proj = {}) {
  return ranges::copy_if(par, std::move(first), last, std::move(result), std::move(pred),
                         std::move(proj));
}
template <std::ranges::input_range R, std::weakly_incrementable O, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::indirectly_copyable<std::ranges::iterator_t<R>, O>
    std::ranges::copy_if_result<detail::bit<R>, O> copy_if(const policy &pol, R &&r, O result,
                                                           Pred pred, Proj proj = {}) {
  return ranges::copy_if(pol, std::ranges::begin(r), std::ranges::end(r), std::move(result),
                         std::move(pred), std::move(proj));
}
template <std::ranges::input_range R, std::weakly_incrementable O, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::indirectly_copyable<std::ranges::iterator_t<R>, O>
    std::ranges::copy_if_result<detail::bit<R>, O> copy_if(R &&r, O result, Pred pred,
                                                           Proj proj = {}) {
  return ranges::copy_if(par, std::forward<R>(r), std::move(result), std::move(pred),
                         std::move(proj));
}

} // namespace ranges
} // namespace adapt

#include <adapt/stl/ranges_search.hpp>
#include <adapt/stl/ranges_minmax.hpp>
#include <adapt/stl/ranges_order.hpp>

#endif /* __cpp_lib_ranges */

#endif /* ADAPT_STL_RANGES_HPP */
