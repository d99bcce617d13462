/* C++20 adapt::ranges:: sorts, selections and merges (part of
 * <adapt/stl/ranges.hpp>, whose common contract and form macros apply;
 * include <adapt/stl.hpp>). */
#ifndef ADAPT_STL_RANGES_ORDER_HPP
#define ADAPT_STL_RANGES_ORDER_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* std::ranges::sort / stable_sort: sorts under comp(proj(a), proj(b))
 * (adapt::sort's parallel quicksort / adapt::stable_sort's merge sort,
 * equivalent elements keeping their order); returns last. */
ADAPT_RANGES_CMP(sort, std::random_access_iterator, std::ranges::random_access_range,
                 std::ranges::less, (std::sortable<I, Comp, Proj>), (I), (detail::bit<R>),
                 (adapt::sort(pol, first, end, c); return end;))
ADAPT_RANGES_CMP(stable_sort, std::random_access_iterator, std::ranges::random_access_range,
                 std::ranges::less, (std::sortable<I, Comp, Proj>), (I), (detail::bit<R>),
                 (adapt::stable_sort(pol, first, end, c); return end;))

/* std::ranges::nth_element / partial_sort: the element sorted order puts
 * at middle there, none before it greater, none after it less / the
 * smallest middle - first elements sorted in [first, middle); return
 * last. */
#define ADAPT_RANGES_SELECT(NAME, CI, CR)                                                          \
  ADAPT_RANGES_M(                                                                                  \
      NAME, CI, CR, (class Comp = std::ranges::less, class Proj = std::identity),                  \
      (std::sortable<I, Comp, Proj>), (I), (detail::bit<R>), (Comp comp = {}, Proj proj = {}),     \
      (std::move(comp), std::move(proj)), (true),                                                  \
      (adapt::NAME(pol, first, middle, end, detail::on2(comp, proj, proj)); return end;))
ADAPT_RANGES_SELECT(nth_element, std::random_access_iterator, std::ranges::random_access_range)
ADAPT_RANGES_SELECT(partial_sort, std::random_access_iterator, std::ranges::random_access_range)

/* std::ranges::inplace_merge: merges the sorted [first, middle) and
 * [middle, last), stably; returns last. */
ADAPT_RANGES_SELECT(inplace_merge, std::bidirectional_iterator, std::ranges::bidirectional_range)
#undef ADAPT_RANGES_SELECT

/* std::ranges::partial_sort_copy: the smallest min(n1, n2) elements of the
 * first range, sorted, into the second; returns {last1, result_first + k}.
 * It compares both ways: parallel when proj1 and proj2 are the same
 * projection (detail::same_proj), else std's. */
ADAPT_RANGES_BOTHWAYS(partial_sort_copy, std::random_access_iterator,
                      std::ranges::random_access_range,
                      (std::indirectly_copyable<I1, I2> && std::sortable<I2, Comp, Proj2>),
                      (std::ranges::partial_sort_copy_result<I1, I2>),
                      (std::ranges::partial_sort_copy_result<detail::bit<R1>, detail::bit<R2>>),
                      ({end1, out}))

/* The merges and set operations of two sorted ranges into o: they compare
 * both ways, parallel when proj1 and proj2 are the same projection
 * (detail::same_proj), else std's. RET: their result, {in1, in2, out} but
 * set_difference's {in1, out}. */
#define ADAPT_RANGES_MERGE(NAME, RETI, RETR, RET)                                                  \
  ADAPT_RANGES_2(                                                                                  \
      NAME, std::input_iterator, std::input_iterator, std::ranges::input_range,                    \
      std::ranges::input_range,                                                                    \
      (std::weakly_incrementable O, class Comp = std::ranges::less, class Proj1 = std::identity,   \
       class Proj2 = std::identity),                                                               \
      (std::mergeable<I1, I2, O, Comp, Proj1, Proj2>), RETI, RETR,                                 \
      (O result, Comp comp = {}, Proj1 proj1 = {}, Proj2 proj2 = {}),                              \
      (std::move(result), std::move(comp), std::move(proj1), std::move(proj2)),                    \
      (std::random_access_iterator<O>),                                                            \
      (if (!detail::same_proj(proj1, proj2)) return std::ranges::NAME(                             \
           first1, end1, first2, end2, result, std::ref(comp), std::ref(proj1), std::ref(proj2));  \
       O out =                                                                                     \
           adapt::NAME(pol, first1, end1, first2, end2, result, detail::on2(comp, proj1, proj1));  \
       return ADAPT_RANGES_U RET;))

/* std::ranges::merge: both, stably (the first's before the second's). */
ADAPT_RANGES_MERGE(merge, (std::ranges::merge_result<I1, I2, O>),
                   (std::ranges::merge_result<detail::bit<R1>, detail::bit<R2>, O>),
                   ({end1, end2, out}))
/* std::ranges::set_union, set_intersection, set_difference (the first's
 * elements not in the second), set_symmetric_difference. */
ADAPT_RANGES_MERGE(set_union, (std::ranges::set_union_result<I1, I2, O>),
                   (std::ranges::set_union_result<detail::bit<R1>, detail::bit<R2>, O>),
                   ({end1, end2, out}))
ADAPT_RANGES_MERGE(set_intersection, (std::ranges::set_intersection_result<I1, I2, O>),
                   (std::ranges::set_intersection_result<detail::bit<R1>, detail::bit<R2>, O>),
                   ({end1, end2, out}))
ADAPT_RANGES_MERGE(set_difference, (std::ranges::set_difference_result<I1, O>),
                   (std::ranges::set_difference_result<detail::bit<R1>, O>), ({end1, out}))
ADAPT_RANGES_MERGE(
    set_symmetric_difference, (std::ranges::set_symmetric_difference_result<I1, I2, O>),
    (std::ranges::set_symmetric_difference_result<detail::bit<R1>, detail::bit<R2>, O>),
    ({end1, end2, out}))

#undef ADAPT_RANGES_MERGE

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_ORDER_HPP */
