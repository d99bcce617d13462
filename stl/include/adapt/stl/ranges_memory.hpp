/* C++20 adapt::ranges:: algorithms of <memory> on uninitialized storage
 * (part of <adapt/stl/ranges.hpp>, whose common contract and form macros
 * apply; include <adapt/stl.hpp>). Parallel as adapt::'s: when a
 * construction throws, the objects constructed by every worker are
 * destroyed before the exception leaves, as std's. The destination
 * iterators are std's "no-throw" ones: their references are lvalues of
 * the value type (detail::nothrow_*). */
#ifndef ADAPT_STL_RANGES_MEMORY_HPP
#define ADAPT_STL_RANGES_MEMORY_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <memory>

namespace adapt {
namespace ranges {
namespace detail {

/* std's exposition-only no-throw-input-iterator, no-throw-forward-iterator
 * and no-throw-forward-range (the no-throw of their operations is the
 * caller's promise, as in std). */
template <class I>
concept nothrow_input_iterator =
    std::input_iterator<I> &&std::is_lvalue_reference_v<std::iter_reference_t<I>>
        &&std::same_as<std::remove_cvref_t<std::iter_reference_t<I>>, std::iter_value_t<I>>;
template <class I>
concept nothrow_forward_iterator =
    nothrow_input_iterator<I> &&std::forward_iterator<I> &&std::sentinel_for<I, I>;
template <class R>
concept nothrow_input_range =
    std::ranges::input_range<R> &&nothrow_input_iterator<std::ranges::iterator_t<R>>;
template <class R>
concept nothrow_forward_range =
    nothrow_input_range<R> &&nothrow_forward_iterator<std::ranges::iterator_t<R>>;

} // namespace detail

/* std::ranges::uninitialized_copy / uninitialized_move: constructs copies /
 * moves of the first range's elements in the second's storage, over the
 * shorter length; returns {end1, end2} of what was used. */
#define ADAPT_RANGES_UNINIT2(NAME, REF)                                                            \
  ADAPT_RANGES_2(NAME, std::input_iterator, detail::nothrow_forward_iterator,                      \
                 std::ranges::input_range, detail::nothrow_forward_range, (),                      \
                 (std::constructible_from<std::iter_value_t<I2>, REF<I1>>),                        \
                 (std::ranges::in_out_result<I1, I2>),                                             \
                 (std::ranges::in_out_result<detail::bit<R1>, detail::bit<R2>>), (), (), (true),   \
                 (auto n = std::min<std::iter_difference_t<I1>>(                                   \
                      end1 - first1, static_cast<std::iter_difference_t<I1>>(end2 - first2));      \
                  return {first1 + n, adapt::NAME(pol, first1, first1 + n, first2)};))
ADAPT_RANGES_UNINIT2(uninitialized_copy, std::iter_reference_t)
ADAPT_RANGES_UNINIT2(uninitialized_move, std::iter_rvalue_reference_t)
#undef ADAPT_RANGES_UNINIT2

/* std::ranges::uninitialized_copy_n / uninitialized_move_n: the same from
 * [ifirst, ifirst + count) into [ofirst, olast), over the shorter length;
 * returns {ifirst + used, ofirst + used}. */
#define ADAPT_RANGES_UNINIT_N(NAME, BASE, REF)                                                     \
  ADAPT_RANGES_ITER(                                                                               \
      NAME, (std::input_iterator I, detail::nothrow_forward_iterator O, std::sentinel_for<O> S),   \
      (std::constructible_from<std::iter_value_t<O>, REF<I>>), (std::ranges::in_out_result<I, O>), \
      (I ifirst, std::iter_difference_t<I> count, O ofirst, S olast),                              \
      (std::move(ifirst), count, std::move(ofirst), std::move(olast)),                             \
      (std::random_access_iterator<I> && std::random_access_iterator<O> &&                         \
       std::sized_sentinel_for<S, O>),                                                             \
      (auto n = std::min<std::iter_difference_t<I>>(                                               \
           count, static_cast<std::iter_difference_t<I>>(olast - ofirst));                         \
       if (n <= 0) return {std::move(ifirst), std::move(ofirst)};                                  \
       return {ifirst + n, adapt::BASE(pol, ifirst, ifirst + n, ofirst)};))
ADAPT_RANGES_UNINIT_N(uninitialized_copy_n, uninitialized_copy, std::iter_reference_t)
ADAPT_RANGES_UNINIT_N(uninitialized_move_n, uninitialized_move, std::iter_rvalue_reference_t)
#undef ADAPT_RANGES_UNINIT_N

/* std::ranges::uninitialized_fill: constructs copies of value in
 * [first, last); returns last. */
ADAPT_RANGES_1(uninitialized_fill, detail::nothrow_forward_iterator, detail::nothrow_forward_range,
               (class T), (std::constructible_from<std::iter_value_t<I>, const T &>), (I),
               (detail::bit<R>), (const T &value), (value), (true),
               (adapt::uninitialized_fill(pol, first, end, value); return end;))

/* std::ranges::uninitialized_default_construct / value_construct:
 * default- / value-initializes objects in [first, last); returns last. */
ADAPT_RANGES_1(uninitialized_default_construct, detail::nothrow_forward_iterator,
               detail::nothrow_forward_range, (),
               (std::default_initializable<std::iter_value_t<I>>), (I), (detail::bit<R>), (), (),
               (true), (adapt::uninitialized_default_construct(pol, first, end); return end;))
ADAPT_RANGES_1(uninitialized_value_construct, detail::nothrow_forward_iterator,
               detail::nothrow_forward_range, (),
               (std::default_initializable<std::iter_value_t<I>>), (I), (detail::bit<R>), (), (),
               (true), (adapt::uninitialized_value_construct(pol, first, end); return end;))

/* std::ranges::destroy: destroys the objects in [first, last); returns
 * last. */
ADAPT_RANGES_1(destroy, detail::nothrow_input_iterator, detail::nothrow_input_range, (),
               (std::destructible<std::iter_value_t<I>>), (I), (detail::bit<R>), (), (), (true),
               (adapt::destroy(pol, first, end); return end;))

/* std::ranges::uninitialized_fill_n, uninitialized_default_construct_n,
 * uninitialized_value_construct_n, destroy_n: the same on
 * [first, first + n); return first + n (first when n <= 0). */
ADAPT_RANGES_ITER(uninitialized_fill_n, (detail::nothrow_forward_iterator I, class T),
                  (std::constructible_from<std::iter_value_t<I>, const T &>), (I),
                  (I first, std::iter_difference_t<I> n, const T &value),
                  (std::move(first), n, value), (std::random_access_iterator<I>),
                  (return n <= 0 ? first : adapt::uninitialized_fill_n(pol, first, n, value);))
ADAPT_RANGES_ITER(uninitialized_default_construct_n, (detail::nothrow_forward_iterator I),
                  (std::default_initializable<std::iter_value_t<I>>), (I),
                  (I first, std::iter_difference_t<I> n), (std::move(first), n),
                  (std::random_access_iterator<I>),
                  (return n <= 0 ? first
                                 : adapt::uninitialized_default_construct_n(pol, first, n);))
ADAPT_RANGES_ITER(uninitialized_value_construct_n, (detail::nothrow_forward_iterator I),
                  (std::default_initializable<std::iter_value_t<I>>), (I),
                  (I first, std::iter_difference_t<I> n), (std::move(first), n),
                  (std::random_access_iterator<I>),
                  (return n <= 0 ? first : adapt::uninitialized_value_construct_n(pol, first, n);))
ADAPT_RANGES_ITER(destroy_n, (detail::nothrow_input_iterator I),
                  (std::destructible<std::iter_value_t<I>>), (I),
                  (I first, std::iter_difference_t<I> n), (std::move(first), n),
                  (std::random_access_iterator<I>),
                  (return n <= 0 ? first : adapt::destroy_n(pol, first, n);))

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_MEMORY_HPP */
