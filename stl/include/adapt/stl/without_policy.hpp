/* The algorithms of <adapt/stl.hpp> without a policy (included by it, at
 * the end of <adapt/stl/algorithms.hpp>, once every policy form is
 * declared): adapt::f(first, args...) is adapt::f(adapt::par, first,
 * args...), for every form of f, with that call's return type; a call no
 * policy form takes is no match, and the compiler lists the policy forms
 * and why each failed. One forwarder per name (detail::not_policy keeps it
 * off the calls that pass a policy); the element functions are forwarded
 * as passed, so each one is copied as the policy form's parameter copies
 * it. for_each and adjacent_difference declare their own next to their
 * policy forms (std's return value, f; the in-place case). */
#ifndef ADAPT_STL_WITHOUT_POLICY_HPP
#define ADAPT_STL_WITHOUT_POLICY_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <utility>

namespace adapt {

/* <adapt/stl.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto for_each_n(It first, A &&...a)
    -> decltype(adapt::for_each_n(par, first, std::forward<A>(a)...)) {
  return adapt::for_each_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto transform(It first, A &&...a)
    -> decltype(adapt::transform(par, first, std::forward<A>(a)...)) {
  return adapt::transform(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto fill(It first, A &&...a) -> decltype(adapt::fill(par, first, std::forward<A>(a)...)) {
  return adapt::fill(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto generate(It first, A &&...a) -> decltype(adapt::generate(par, first, std::forward<A>(a)...)) {
  return adapt::generate(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto reduce(It first, A &&...a) -> decltype(adapt::reduce(par, first, std::forward<A>(a)...)) {
  return adapt::reduce(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto transform_reduce(It first, A &&...a)
    -> decltype(adapt::transform_reduce(par, first, std::forward<A>(a)...)) {
  return adapt::transform_reduce(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto find_if(It first, A &&...a) -> decltype(adapt::find_if(par, first, std::forward<A>(a)...)) {
  return adapt::find_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto find(It first, A &&...a) -> decltype(adapt::find(par, first, std::forward<A>(a)...)) {
  return adapt::find(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto any_of(It first, A &&...a) -> decltype(adapt::any_of(par, first, std::forward<A>(a)...)) {
  return adapt::any_of(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto all_of(It first, A &&...a) -> decltype(adapt::all_of(par, first, std::forward<A>(a)...)) {
  return adapt::all_of(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto none_of(It first, A &&...a) -> decltype(adapt::none_of(par, first, std::forward<A>(a)...)) {
  return adapt::none_of(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto count_if(It first, A &&...a) -> decltype(adapt::count_if(par, first, std::forward<A>(a)...)) {
  return adapt::count_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto count(It first, A &&...a) -> decltype(adapt::count(par, first, std::forward<A>(a)...)) {
  return adapt::count(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto copy_if(It first, A &&...a) -> decltype(adapt::copy_if(par, first, std::forward<A>(a)...)) {
  return adapt::copy_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto inclusive_scan(It first, A &&...a)
    -> decltype(adapt::inclusive_scan(par, first, std::forward<A>(a)...)) {
  return adapt::inclusive_scan(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto exclusive_scan(It first, A &&...a)
    -> decltype(adapt::exclusive_scan(par, first, std::forward<A>(a)...)) {
  return adapt::exclusive_scan(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto sort(It first, A &&...a) -> decltype(adapt::sort(par, first, std::forward<A>(a)...)) {
  return adapt::sort(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto stable_sort(It first, A &&...a)
    -> decltype(adapt::stable_sort(par, first, std::forward<A>(a)...)) {
  return adapt::stable_sort(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/search.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto find_if_not(It first, A &&...a)
    -> decltype(adapt::find_if_not(par, first, std::forward<A>(a)...)) {
  return adapt::find_if_not(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto adjacent_find(It first, A &&...a)
    -> decltype(adapt::adjacent_find(par, first, std::forward<A>(a)...)) {
  return adapt::adjacent_find(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto mismatch(It first, A &&...a) -> decltype(adapt::mismatch(par, first, std::forward<A>(a)...)) {
  return adapt::mismatch(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto equal(It first, A &&...a) -> decltype(adapt::equal(par, first, std::forward<A>(a)...)) {
  return adapt::equal(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto find_first_of(It first, A &&...a)
    -> decltype(adapt::find_first_of(par, first, std::forward<A>(a)...)) {
  return adapt::find_first_of(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto search(It first, A &&...a) -> decltype(adapt::search(par, first, std::forward<A>(a)...)) {
  return adapt::search(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto find_end(It first, A &&...a) -> decltype(adapt::find_end(par, first, std::forward<A>(a)...)) {
  return adapt::find_end(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto search_n(It first, A &&...a) -> decltype(adapt::search_n(par, first, std::forward<A>(a)...)) {
  return adapt::search_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto lexicographical_compare(It first, A &&...a)
    -> decltype(adapt::lexicographical_compare(par, first, std::forward<A>(a)...)) {
  return adapt::lexicographical_compare(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/order.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto is_sorted_until(It first, A &&...a)
    -> decltype(adapt::is_sorted_until(par, first, std::forward<A>(a)...)) {
  return adapt::is_sorted_until(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto is_sorted(It first, A &&...a)
    -> decltype(adapt::is_sorted(par, first, std::forward<A>(a)...)) {
  return adapt::is_sorted(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto is_heap_until(It first, A &&...a)
    -> decltype(adapt::is_heap_until(par, first, std::forward<A>(a)...)) {
  return adapt::is_heap_until(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto is_heap(It first, A &&...a) -> decltype(adapt::is_heap(par, first, std::forward<A>(a)...)) {
  return adapt::is_heap(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto is_partitioned(It first, A &&...a)
    -> decltype(adapt::is_partitioned(par, first, std::forward<A>(a)...)) {
  return adapt::is_partitioned(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto includes(It first, A &&...a) -> decltype(adapt::includes(par, first, std::forward<A>(a)...)) {
  return adapt::includes(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/minmax.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto min_element(It first, A &&...a)
    -> decltype(adapt::min_element(par, first, std::forward<A>(a)...)) {
  return adapt::min_element(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto max_element(It first, A &&...a)
    -> decltype(adapt::max_element(par, first, std::forward<A>(a)...)) {
  return adapt::max_element(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto minmax_element(It first, A &&...a)
    -> decltype(adapt::minmax_element(par, first, std::forward<A>(a)...)) {
  return adapt::minmax_element(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/modify.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto copy(It first, A &&...a) -> decltype(adapt::copy(par, first, std::forward<A>(a)...)) {
  return adapt::copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto copy_n(It first, A &&...a) -> decltype(adapt::copy_n(par, first, std::forward<A>(a)...)) {
  return adapt::copy_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto move(It first, A &&...a) -> decltype(adapt::move(par, first, std::forward<A>(a)...)) {
  return adapt::move(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto fill_n(It first, A &&...a) -> decltype(adapt::fill_n(par, first, std::forward<A>(a)...)) {
  return adapt::fill_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto generate_n(It first, A &&...a)
    -> decltype(adapt::generate_n(par, first, std::forward<A>(a)...)) {
  return adapt::generate_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto swap_ranges(It first, A &&...a)
    -> decltype(adapt::swap_ranges(par, first, std::forward<A>(a)...)) {
  return adapt::swap_ranges(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto replace_if(It first, A &&...a)
    -> decltype(adapt::replace_if(par, first, std::forward<A>(a)...)) {
  return adapt::replace_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto replace(It first, A &&...a) -> decltype(adapt::replace(par, first, std::forward<A>(a)...)) {
  return adapt::replace(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto replace_copy_if(It first, A &&...a)
    -> decltype(adapt::replace_copy_if(par, first, std::forward<A>(a)...)) {
  return adapt::replace_copy_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto replace_copy(It first, A &&...a)
    -> decltype(adapt::replace_copy(par, first, std::forward<A>(a)...)) {
  return adapt::replace_copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto reverse(It first, A &&...a) -> decltype(adapt::reverse(par, first, std::forward<A>(a)...)) {
  return adapt::reverse(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto reverse_copy(It first, A &&...a)
    -> decltype(adapt::reverse_copy(par, first, std::forward<A>(a)...)) {
  return adapt::reverse_copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto rotate(It first, A &&...a) -> decltype(adapt::rotate(par, first, std::forward<A>(a)...)) {
  return adapt::rotate(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto rotate_copy(It first, A &&...a)
    -> decltype(adapt::rotate_copy(par, first, std::forward<A>(a)...)) {
  return adapt::rotate_copy(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/numeric.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto transform_inclusive_scan(It first, A &&...a)
    -> decltype(adapt::transform_inclusive_scan(par, first, std::forward<A>(a)...)) {
  return adapt::transform_inclusive_scan(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto transform_exclusive_scan(It first, A &&...a)
    -> decltype(adapt::transform_exclusive_scan(par, first, std::forward<A>(a)...)) {
  return adapt::transform_exclusive_scan(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/select.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto remove_if(It first, A &&...a)
    -> decltype(adapt::remove_if(par, first, std::forward<A>(a)...)) {
  return adapt::remove_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto remove(It first, A &&...a) -> decltype(adapt::remove(par, first, std::forward<A>(a)...)) {
  return adapt::remove(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto remove_copy_if(It first, A &&...a)
    -> decltype(adapt::remove_copy_if(par, first, std::forward<A>(a)...)) {
  return adapt::remove_copy_if(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto remove_copy(It first, A &&...a)
    -> decltype(adapt::remove_copy(par, first, std::forward<A>(a)...)) {
  return adapt::remove_copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto unique(It first, A &&...a) -> decltype(adapt::unique(par, first, std::forward<A>(a)...)) {
  return adapt::unique(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto unique_copy(It first, A &&...a)
    -> decltype(adapt::unique_copy(par, first, std::forward<A>(a)...)) {
  return adapt::unique_copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto partition_copy(It first, A &&...a)
    -> decltype(adapt::partition_copy(par, first, std::forward<A>(a)...)) {
  return adapt::partition_copy(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/memory.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_copy(It first, A &&...a)
    -> decltype(adapt::uninitialized_copy(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_copy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_copy_n(It first, A &&...a)
    -> decltype(adapt::uninitialized_copy_n(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_copy_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_move(It first, A &&...a)
    -> decltype(adapt::uninitialized_move(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_move(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_move_n(It first, A &&...a)
    -> decltype(adapt::uninitialized_move_n(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_move_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_fill(It first, A &&...a)
    -> decltype(adapt::uninitialized_fill(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_fill(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_fill_n(It first, A &&...a)
    -> decltype(adapt::uninitialized_fill_n(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_fill_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_default_construct(It first, A &&...a)
    -> decltype(adapt::uninitialized_default_construct(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_default_construct(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_default_construct_n(It first, A &&...a)
    -> decltype(adapt::uninitialized_default_construct_n(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_default_construct_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_value_construct(It first, A &&...a)
    -> decltype(adapt::uninitialized_value_construct(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_value_construct(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto uninitialized_value_construct_n(It first, A &&...a)
    -> decltype(adapt::uninitialized_value_construct_n(par, first, std::forward<A>(a)...)) {
  return adapt::uninitialized_value_construct_n(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto destroy(It first, A &&...a) -> decltype(adapt::destroy(par, first, std::forward<A>(a)...)) {
  return adapt::destroy(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto destroy_n(It first, A &&...a)
    -> decltype(adapt::destroy_n(par, first, std::forward<A>(a)...)) {
  return adapt::destroy_n(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/merge.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto merge(It first, A &&...a) -> decltype(adapt::merge(par, first, std::forward<A>(a)...)) {
  return adapt::merge(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto inplace_merge(It first, A &&...a)
    -> decltype(adapt::inplace_merge(par, first, std::forward<A>(a)...)) {
  return adapt::inplace_merge(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/partition.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto partition(It first, A &&...a)
    -> decltype(adapt::partition(par, first, std::forward<A>(a)...)) {
  return adapt::partition(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto stable_partition(It first, A &&...a)
    -> decltype(adapt::stable_partition(par, first, std::forward<A>(a)...)) {
  return adapt::stable_partition(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/nth.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto nth_element(It first, A &&...a)
    -> decltype(adapt::nth_element(par, first, std::forward<A>(a)...)) {
  return adapt::nth_element(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto partial_sort(It first, A &&...a)
    -> decltype(adapt::partial_sort(par, first, std::forward<A>(a)...)) {
  return adapt::partial_sort(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto partial_sort_copy(It first, A &&...a)
    -> decltype(adapt::partial_sort_copy(par, first, std::forward<A>(a)...)) {
  return adapt::partial_sort_copy(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/set.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto set_union(It first, A &&...a)
    -> decltype(adapt::set_union(par, first, std::forward<A>(a)...)) {
  return adapt::set_union(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto set_intersection(It first, A &&...a)
    -> decltype(adapt::set_intersection(par, first, std::forward<A>(a)...)) {
  return adapt::set_intersection(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto set_difference(It first, A &&...a)
    -> decltype(adapt::set_difference(par, first, std::forward<A>(a)...)) {
  return adapt::set_difference(par, first, std::forward<A>(a)...);
}
template <class It, class... A, detail::not_policy<It> = 0>
auto set_symmetric_difference(It first, A &&...a)
    -> decltype(adapt::set_symmetric_difference(par, first, std::forward<A>(a)...)) {
  return adapt::set_symmetric_difference(par, first, std::forward<A>(a)...);
}

/* <adapt/stl/index.hpp> */
template <class It, class... A, detail::not_policy<It> = 0>
auto for_index(It first, A &&...a)
    -> decltype(adapt::for_index(par, first, std::forward<A>(a)...)) {
  return adapt::for_index(par, first, std::forward<A>(a)...);
}

} // namespace adapt

#endif /* ADAPT_STL_WITHOUT_POLICY_HPP */
