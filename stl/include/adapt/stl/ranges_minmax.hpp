/* C++20 adapt::ranges:: extrema and order checks (part of
 * <adapt/stl/ranges.hpp>, whose common contract and form macros apply;
 * include <adapt/stl.hpp>). */
#ifndef ADAPT_STL_RANGES_MINMAX_HPP
#define ADAPT_STL_RANGES_MINMAX_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* An order check or extremum NAME(first, last, comp, proj) on iterators
 * of concept CI: adapt::NAME on comp(proj(a), proj(b)). */
#define ADAPT_RANGES_ORDER(NAME, CI, CR, RETI, RETR)                                               \
  ADAPT_RANGES_CMP(NAME, CI, CR, std::ranges::less,                                                \
                   (std::indirect_strict_weak_order<Comp, std::projected<I, Proj>>), RETI, RETR,   \
                   (return adapt::NAME(pol, first, end, c);))

/* std::ranges::min_element / max_element: the first smallest / largest
 * element under comp(proj(a), proj(b)); last when empty. */
ADAPT_RANGES_ORDER(min_element, std::forward_iterator, std::ranges::forward_range, (I),
                   (detail::bit<R>))
ADAPT_RANGES_ORDER(max_element, std::forward_iterator, std::ranges::forward_range, (I),
                   (detail::bit<R>))

/* std::ranges::is_sorted / is_sorted_until: no element is less (comp)
 * than the one before / the end of the longest sorted prefix. */
ADAPT_RANGES_ORDER(is_sorted, std::forward_iterator, std::ranges::forward_range, (bool), (bool))
ADAPT_RANGES_ORDER(is_sorted_until, std::forward_iterator, std::ranges::forward_range, (I),
                   (detail::bit<R>))

/* std::ranges::is_heap / is_heap_until: a max-heap under comp / the end of
 * the longest prefix that is one. */
ADAPT_RANGES_ORDER(is_heap, std::random_access_iterator, std::ranges::random_access_range, (bool),
                   (bool))
ADAPT_RANGES_ORDER(is_heap_until, std::random_access_iterator, std::ranges::random_access_range,
                   (I), (detail::bit<R>))

#undef ADAPT_RANGES_ORDER

/* std::ranges::minmax_element: {the first smallest, the last largest};
 * {last, last} when empty. */
ADAPT_RANGES_CMP(
    minmax_element, std::forward_iterator, std::ranges::forward_range, std::ranges::less,
    (std::indirect_strict_weak_order<Comp, std::projected<I, Proj>>),
    (std::ranges::minmax_element_result<I>), (std::ranges::minmax_element_result<detail::bit<R>>),
    (auto mm = adapt::minmax_element(pol, first, end, c); return {mm.first, mm.second};))

/* std::ranges::is_partitioned: every element with pred(proj(x)) before
 * every element without. */
ADAPT_RANGES_PRED(is_partitioned, std::input_iterator, std::ranges::input_range, true, (bool),
                  (bool), (return adapt::is_partitioned(pol, first, end, f);))

/* std::ranges::includes: every element of the sorted second range is in
 * the sorted first (as many times). Parallel when proj1 and proj2 are the
 * same projection (detail::same_proj), else std's. */
ADAPT_RANGES_BOTHWAYS(includes, std::input_iterator, std::ranges::input_range, (true), (bool),
                      (bool), (out))

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_MINMAX_HPP */
