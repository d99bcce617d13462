/* C++20 adapt::ranges:: in-place modifications: reversal, rotation,
 * replacements, order-keeping removals and partitions (part of
 * <adapt/stl/ranges.hpp>, whose common contract and form macros apply;
 * include <adapt/stl.hpp>). The removals and partitions return a
 * subrange: removals [new end, last) of the elements left behind (valid,
 * unspecified values), partitions [the partition point, last). */
#ifndef ADAPT_STL_RANGES_REMOVE_HPP
#define ADAPT_STL_RANGES_REMOVE_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* std::ranges::reverse: reverses the order of the elements; returns last. */
ADAPT_RANGES_1(reverse, std::bidirectional_iterator, std::ranges::bidirectional_range, (),
               (std::permutable<I>), (I), (detail::bit<R>), (), (), (true),
               (adapt::reverse(pol, first, end); return end;))

/* std::ranges::rotate: [middle, last) then [first, middle); returns
 * {first + (last - middle), last}. */
ADAPT_RANGES_M(rotate, std::permutable, std::ranges::forward_range, (), (std::permutable<I>),
               (std::ranges::subrange<I>), (detail::bsub<R>), (), (), (true),
               (return {adapt::rotate(pol, first, middle, end), end};))

/* std::ranges::replace_if / replace: new_value into every element with
 * pred(proj(x)) / proj(x) == old_value; returns last. */
ADAPT_RANGES_1(replace_if, std::input_iterator, std::ranges::input_range,
               (class T, class Proj = std::identity, class Pred),
               (std::indirect_unary_predicate<Pred, std::projected<I, Proj>> &&
                std::indirectly_writable<I, const T &>),
               (I), (detail::bit<R>), (Pred pred, const T &new_value, Proj proj = {}),
               (std::move(pred), new_value, std::move(proj)), (true),
               (adapt::replace_if(pol, first, end, detail::on1(pred, proj), new_value);
                return end;))
ADAPT_RANGES_1(
    replace, std::input_iterator, std::ranges::input_range,
    (class T1, class T2, class Proj = std::identity),
    (std::indirectly_writable<I, const T2 &> &&
     std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T1 *>),
    (I), (detail::bit<R>), (const T1 &old_value, const T2 &new_value, Proj proj = {}),
    (old_value, new_value, std::move(proj)), (true),
    (auto f = detail::eq(old_value);
     adapt::replace_if(pol, first, end, detail::on1(f, proj), new_value); return end;))

/* std::ranges::remove_if / remove: moves the elements without pred(proj(x))
 * / with proj(x) != value to the front, in order. */
ADAPT_RANGES_PRED(remove_if, std::permutable, std::ranges::forward_range, std::permutable<I>,
                  (std::ranges::subrange<I>), (detail::bsub<R>),
                  (return {adapt::remove_if(pol, first, end, f), end};))
ADAPT_RANGES_1(
    remove, std::permutable, std::ranges::forward_range, (class T, class Proj = std::identity),
    (std::permutable<I> &&
     std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>),
    (std::ranges::subrange<I>), (detail::bsub<R>), (const T &value, Proj proj = {}),
    (value, std::move(proj)), (true),
    (auto f = detail::eq(value);
     return {adapt::remove_if(pol, first, end, detail::on1(f, proj)), end};))

/* std::ranges::unique: keeps the first element of every run of
 * neighbours equivalent under comp(proj(a), proj(b)) (==), in order. */
ADAPT_RANGES_CMP(unique, std::permutable, std::ranges::forward_range, std::ranges::equal_to,
                 (std::permutable<I> &&
                  std::indirect_equivalence_relation<Comp, std::projected<I, Proj>>),
                 (std::ranges::subrange<I>), (detail::bsub<R>),
                 (return {adapt::unique(pol, first, end, c), end};))

/* std::ranges::partition / stable_partition: the elements with
 * pred(proj(x)) before the others (stable_partition: both in order). */
ADAPT_RANGES_PRED(partition, std::permutable, std::ranges::forward_range, std::permutable<I>,
                  (std::ranges::subrange<I>), (detail::bsub<R>),
                  (return {adapt::partition(pol, first, end, f), end};))
ADAPT_RANGES_PRED(stable_partition, std::bidirectional_iterator, std::ranges::bidirectional_range,
                  std::permutable<I>, (std::ranges::subrange<I>), (detail::bsub<R>),
                  (return {adapt::stable_partition(pol, first, end, f), end};))

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_REMOVE_HPP */
