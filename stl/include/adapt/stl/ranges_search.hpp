/* C++20 adapt::ranges:: searches, counts and comparisons of two ranges
 * (part of <adapt/stl/ranges.hpp>, whose common contract and form macros
 * apply; include <adapt/stl.hpp>). Searches stop early as adapt::'s do;
 * their result is the first hit (find_end: the last) whatever the
 * schedule. */
#ifndef ADAPT_STL_RANGES_SEARCH_HPP
#define ADAPT_STL_RANGES_SEARCH_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* std::ranges::find_if / find_if_not: the first element with / without
 * pred(proj(x)); last when none. */
ADAPT_RANGES_PRED(find_if, std::input_iterator, std::ranges::input_range, true, (I),
                  (detail::bit<R>), (return adapt::find_if(pol, first, end, f);))
ADAPT_RANGES_PRED(find_if_not, std::input_iterator, std::ranges::input_range, true, (I),
                  (detail::bit<R>), (return adapt::find_if_not(pol, first, end, f);))

/* std::ranges::any_of / all_of / none_of on pred(proj(x)); they stop at
 * the first element that decides. */
ADAPT_RANGES_PRED(any_of, std::input_iterator, std::ranges::input_range, true, (bool), (bool),
                  (return adapt::any_of(pol, first, end, f);))
ADAPT_RANGES_PRED(all_of, std::input_iterator, std::ranges::input_range, true, (bool), (bool),
                  (return adapt::all_of(pol, first, end, f);))
ADAPT_RANGES_PRED(none_of, std::input_iterator, std::ranges::input_range, true, (bool), (bool),
                  (return adapt::none_of(pol, first, end, f);))

/* std::ranges::count_if: the number of elements with pred(proj(x)). */
ADAPT_RANGES_PRED(count_if, std::input_iterator, std::ranges::input_range, true,
                  (std::iter_difference_t<I>), (std::iter_difference_t<I>),
                  (return static_cast<std::iter_difference_t<I>>(adapt::count_if(pol, first, end,
                                                                                 f));))

/* std::ranges::find / count: the first element / the number of elements
 * with proj(x) == value. */
ADAPT_RANGES_1(
    find, std::input_iterator, std::ranges::input_range, (class T, class Proj = std::identity),
    (std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>),
    (I), (detail::bit<R>), (const T &value, Proj proj = {}), (value, std::move(proj)), (true),
    (auto f = detail::eq(value); return adapt::find_if(pol, first, end, detail::on1(f, proj));))
ADAPT_RANGES_1(
    count, std::input_iterator, std::ranges::input_range, (class T, class Proj = std::identity),
    (std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>),
    (std::iter_difference_t<I>), (std::iter_difference_t<I>), (const T &value, Proj proj = {}),
    (value, std::move(proj)), (true),
    (auto f = detail::eq(value);
     return static_cast<std::iter_difference_t<I>>(adapt::count_if(pol, first, end,
                                                                   detail::on1(f, proj)));))

/* std::ranges::adjacent_find: the first element x followed by y with
 * pred(proj(x), proj(y)); last when none. */
ADAPT_RANGES_CMP(
    adjacent_find, std::forward_iterator, std::ranges::forward_range, std::ranges::equal_to,
    (std::indirect_binary_predicate<Comp, std::projected<I, Proj>, std::projected<I, Proj>>), (I),
    (detail::bit<R>), (return adapt::adjacent_find(pol, first, end, c);))

/* std::ranges::search_n: the first run of count elements with
 * pred(proj(x), value); returns it as a subrange ({last, last} when none;
 * {first, first} when count <= 0). */
ADAPT_RANGES_1(search_n, std::forward_iterator, std::ranges::forward_range,
               (class T, class Pred = std::ranges::equal_to, class Proj = std::identity),
               (std::indirectly_comparable<I, const T *, Pred, Proj>), (std::ranges::subrange<I>),
               (detail::bsub<R>),
               (std::iter_difference_t<I> count, const T &value, Pred pred = {}, Proj proj = {}),
               (count, value, std::move(pred), std::move(proj)), (true),
               (if (count <= 0) return {first, first};
                auto f = [&pred, &proj](auto &&x, const T &v) -> bool {
                  return std::invoke(pred, std::invoke(proj, std::forward<decltype(x)>(x)), v);
                };
                I hit = adapt::search_n(pol, first, end, count, value, f);
                return {hit, hit == end ? end : hit + count};))

/* std::ranges::mismatch: the first position, in both ranges, where
 * pred(proj1(x), proj2(y)) fails, or the end of the shorter range. */
ADAPT_RANGES_CMP2(mismatch, std::input_iterator, std::input_iterator, std::ranges::input_range,
                  std::ranges::input_range, std::ranges::equal_to,
                  (std::indirectly_comparable<I1, I2, Comp, Proj1, Proj2>),
                  (std::ranges::mismatch_result<I1, I2>),
                  (std::ranges::mismatch_result<detail::bit<R1>, detail::bit<R2>>),
                  (auto m = adapt::mismatch(pol, first1, end1, first2, end2, c);
                   return {m.first, m.second};))

/* std::ranges::equal: the same length and pred(proj1(x), proj2(y)) at
 * every position (different sizes: false without a comparison). */
ADAPT_RANGES_CMP2(equal, std::input_iterator, std::input_iterator, std::ranges::input_range,
                  std::ranges::input_range, std::ranges::equal_to,
                  (std::indirectly_comparable<I1, I2, Comp, Proj1, Proj2>), (bool), (bool),
                  (return end1 - first1 == end2 - first2 &&
                              adapt::equal(pol, first1, end1, first2, c);))

/* std::ranges::search / find_end: the first / last occurrence of the
 * second range in the first, as a subrange ({last1, last1} when none;
 * an empty second range: {first1, first1} / {last1, last1}). */
#define ADAPT_RANGES_SEARCH(NAME)                                                                  \
  ADAPT_RANGES_CMP2(NAME, std::forward_iterator, std::forward_iterator,                            \
                    std::ranges::forward_range, std::ranges::forward_range, std::ranges::equal_to, \
                    (std::indirectly_comparable<I1, I2, Comp, Proj1, Proj2>),                      \
                    (std::ranges::subrange<I1>), (detail::bsub<R1>),                               \
                    (I1 hit = adapt::NAME(pol, first1, end1, first2, end2, c);                     \
                     return {hit, hit == end1 ? end1 : hit + (end2 - first2)};))
ADAPT_RANGES_SEARCH(search)
ADAPT_RANGES_SEARCH(find_end)
#undef ADAPT_RANGES_SEARCH

/* std::ranges::find_first_of: the first element of the first range
 * equal (pred) to one of the second; last1 when none. */
ADAPT_RANGES_CMP2(find_first_of, std::input_iterator, std::forward_iterator,
                  std::ranges::input_range, std::ranges::forward_range, std::ranges::equal_to,
                  (std::indirectly_comparable<I1, I2, Comp, Proj1, Proj2>), (I1), (detail::bit<R1>),
                  (return adapt::find_first_of(pol, first1, end1, first2, end2, c);))

/* std::ranges::lexicographical_compare: the first range before the second
 * under comp. It compares both ways: parallel when proj1 and proj2 are
 * the same projection (detail::same_proj), else std's. */
ADAPT_RANGES_BOTHWAYS(lexicographical_compare, std::input_iterator, std::ranges::input_range,
                      (true), (bool), (bool), (out))

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_SEARCH_HPP */
