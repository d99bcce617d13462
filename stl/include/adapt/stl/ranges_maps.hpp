/* C++20 adapt::ranges:: maps, fills and copies (part of
 * <adapt/stl/ranges.hpp>, whose common contract and form macros apply;
 * include <adapt/stl.hpp>). The outputs are parallel only when random
 * access; the ranges must not overlap unless said. */
#ifndef ADAPT_STL_RANGES_MAPS_HPP
#define ADAPT_STL_RANGES_MAPS_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* std::ranges::for_each: f(proj(x)) on every element; returns {last, f}. */
ADAPT_RANGES_1(for_each, std::input_iterator, std::ranges::input_range,
               (class Proj = std::identity, class Fun),
               (std::indirectly_unary_invocable<Fun, std::projected<I, Proj>>),
               (std::ranges::for_each_result<I, Fun>),
               (std::ranges::for_each_result<detail::bit<R>, Fun>), (Fun f, Proj proj = {}),
               (std::move(f), std::move(proj)), (true),
               (adapt::for_each(pol, first, end, detail::on1(f, proj));
                return {end, std::move(f)};))

/* std::ranges::for_each_n: f(proj(x)) on [first, first + n); returns
 * {first + n, f} (first when n <= 0). No range forms (as std). */
ADAPT_RANGES_ITER(for_each_n, (std::input_iterator I, class Proj = std::identity, class Fun),
                  (std::indirectly_unary_invocable<Fun, std::projected<I, Proj>>),
                  (std::ranges::for_each_n_result<I, Fun>),
                  (I first, std::iter_difference_t<I> n, Fun f, Proj proj = {}),
                  (std::move(first), n, std::move(f), std::move(proj)),
                  (std::random_access_iterator<I>),
                  (if (n <= 0) return {first, std::move(f)};
                   adapt::for_each(pol, first, first + n, detail::on1(f, proj));
                   return {first + n, std::move(f)};))

/* std::ranges::transform, unary: *o++ = op(proj(x)); returns {last, o}.
 * The output may be the input (in place). */
ADAPT_RANGES_1(transform, std::input_iterator, std::ranges::input_range,
               (std::weakly_incrementable O, std::copy_constructible F, class Proj = std::identity),
               (std::indirectly_writable<O, std::indirect_result_t<F &, std::projected<I, Proj>>>),
               (std::ranges::unary_transform_result<I, O>),
               (std::ranges::unary_transform_result<detail::bit<R>, O>),
               (O result, F op, Proj proj = {}),
               (std::move(result), std::move(op), std::move(proj)),
               (std::random_access_iterator<O>),
               (return {end, adapt::transform(pol, first, end, result, detail::on1(op, proj))};))

/* std::ranges::transform, binary: *o++ = op(proj1(x), proj2(y)) over the
 * shorter of the two ranges; returns {end1, end2, o} of what was read. */
ADAPT_RANGES_2(transform, std::input_iterator, std::input_iterator, std::ranges::input_range,
               std::ranges::input_range,
               (std::weakly_incrementable O, std::copy_constructible F, class Proj1 = std::identity,
                class Proj2 = std::identity),
               (std::indirectly_writable<O, std::indirect_result_t<F &, std::projected<I1, Proj1>,
                                                                   std::projected<I2, Proj2>>>),
               (std::ranges::binary_transform_result<I1, I2, O>),
               (std::ranges::binary_transform_result<detail::bit<R1>, detail::bit<R2>, O>),
               (O result, F op, Proj1 proj1 = {}, Proj2 proj2 = {}),
               (std::move(result), std::move(op), std::move(proj1), std::move(proj2)),
               (std::random_access_iterator<O>),
               (auto n = std::min<std::iter_difference_t<I1>>(
                    end1 - first1, static_cast<std::iter_difference_t<I1>>(end2 - first2));
                O out = adapt::transform(pol, first1, first1 + n, first2, result,
                                         detail::on2(op, proj1, proj2));
                return {first1 + n, first2 + static_cast<std::iter_difference_t<I2>>(n), out};))

/* std::ranges::fill: every element = value; returns last. */
ADAPT_RANGES_1(fill, std::input_or_output_iterator, std::ranges::range, (class T),
               (std::output_iterator<I, const T &>), (I), (detail::bit<R>), (const T &value),
               (value), (true), (adapt::fill(pol, first, end, value); return end;))

/* std::ranges::fill_n: value into [first, first + n); returns first + n
 * (first when n <= 0). */
ADAPT_RANGES_ITER(fill_n, (class T, std::output_iterator<const T &> I), (true), (I),
                  (I first, std::iter_difference_t<I> n, const T &value),
                  (std::move(first), n, value), (std::random_access_iterator<I>),
                  (return n <= 0 ? first : adapt::fill_n(pol, first, n, value);))

/* std::ranges::generate: every element = gen() (gen shared by the
 * workers: make it thread-safe; the order of the calls is not std's);
 * returns last. */
ADAPT_RANGES_1(generate, std::input_or_output_iterator, std::ranges::range,
               (std::copy_constructible F),
               (std::invocable<F &> && std::indirectly_writable<I, std::invoke_result_t<F &>>), (I),
               (detail::bit<R>), (F gen), (std::move(gen)), (true),
               (adapt::generate(pol, first, end, std::ref(gen)); return end;))

/* std::ranges::generate_n: gen() into [first, first + n); returns
 * first + n (first when n <= 0). */
ADAPT_RANGES_ITER(generate_n, (std::input_or_output_iterator I, std::copy_constructible F),
                  (std::invocable<F &> && std::indirectly_writable<I, std::invoke_result_t<F &>>),
                  (I), (I first, std::iter_difference_t<I> n, F gen),
                  (std::move(first), n, std::move(gen)), (std::random_access_iterator<I>),
                  (return n <= 0 ? first : adapt::generate_n(pol, first, n, std::ref(gen));))

/* std::ranges::copy / move: *o++ = x (copy / move assignment); returns
 * {last, o}. */
ADAPT_RANGES_1(copy, std::input_iterator, std::ranges::input_range, (std::weakly_incrementable O),
               (std::indirectly_copyable<I, O>), (std::ranges::copy_result<I, O>),
               (std::ranges::copy_result<detail::bit<R>, O>), (O result), (std::move(result)),
               (std::random_access_iterator<O>),
               (return {end, adapt::copy(pol, first, end, result)};))
ADAPT_RANGES_1(move, std::input_iterator, std::ranges::input_range, (std::weakly_incrementable O),
               (std::indirectly_movable<I, O>), (std::ranges::move_result<I, O>),
               (std::ranges::move_result<detail::bit<R>, O>), (O result), (std::move(result)),
               (std::random_access_iterator<O>),
               (return {end, adapt::move(pol, first, end, result)};))

/* std::ranges::copy_n: [first, first + n) into o; returns {first + n, o}. */
ADAPT_RANGES_ITER(copy_n, (std::input_iterator I, std::weakly_incrementable O),
                  (std::indirectly_copyable<I, O>), (std::ranges::copy_n_result<I, O>),
                  (I first, std::iter_difference_t<I> n, O result),
                  (std::move(first), n, std::move(result)),
                  (std::random_access_iterator<I> && std::random_access_iterator<O>),
                  (if (n <= 0) return {first, result};
                   return {first + n, adapt::copy_n(pol, first, n, result)};))

/* std::ranges::copy_if / remove_copy_if: copies the elements with /
 * without pred(proj(x)), in order; returns {last, o}. */
#define ADAPT_RANGES_COPY_PRED(NAME)                                                               \
  ADAPT_RANGES_1(                                                                                  \
      NAME, std::input_iterator, std::ranges::input_range,                                         \
      (std::weakly_incrementable O, class Proj = std::identity, class Pred),                       \
      (std::indirect_unary_predicate<Pred, std::projected<I, Proj>> &&                             \
       std::indirectly_copyable<I, O>),                                                            \
      (std::ranges::NAME##_result<I, O>), (std::ranges::NAME##_result<detail::bit<R>, O>),         \
      (O result, Pred pred, Proj proj = {}),                                                       \
      (std::move(result), std::move(pred), std::move(proj)), (std::random_access_iterator<O>),     \
      (return {end, adapt::NAME(pol, first, end, result, detail::on1(pred, proj))};))
ADAPT_RANGES_COPY_PRED(copy_if)
ADAPT_RANGES_COPY_PRED(remove_copy_if)
#undef ADAPT_RANGES_COPY_PRED

/* std::ranges::remove_copy: copies the elements with proj(x) != value, in
 * order; returns {last, o}. */
ADAPT_RANGES_1(
    remove_copy, std::input_iterator, std::ranges::input_range,
    (std::weakly_incrementable O, class T, class Proj = std::identity),
    (std::indirectly_copyable<I, O> &&
     std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>),
    (std::ranges::remove_copy_result<I, O>), (std::ranges::remove_copy_result<detail::bit<R>, O>),
    (O result, const T &value, Proj proj = {}), (std::move(result), value, std::move(proj)),
    (std::random_access_iterator<O>),
    (auto f = detail::eq(value);
     return {end, adapt::remove_copy_if(pol, first, end, result, detail::on1(f, proj))};))

/* std::ranges::replace_copy_if / replace_copy: copies, new_value in place
 * of the elements with pred(proj(x)) / proj(x) == old_value; returns
 * {last, o}. */
ADAPT_RANGES_1(replace_copy_if, std::input_iterator, std::ranges::input_range,
               (class T, std::output_iterator<const T &> O, class Proj = std::identity, class Pred),
               (std::indirect_unary_predicate<Pred, std::projected<I, Proj>> &&
                std::indirectly_copyable<I, O>),
               (std::ranges::replace_copy_if_result<I, O>),
               (std::ranges::replace_copy_if_result<detail::bit<R>, O>),
               (O result, Pred pred, const T &new_value, Proj proj = {}),
               (std::move(result), std::move(pred), new_value, std::move(proj)),
               (std::random_access_iterator<O>),
               (return {end, adapt::replace_copy_if(pol, first, end, result,
                                                    detail::on1(pred, proj), new_value)};))
ADAPT_RANGES_1(
    replace_copy, std::input_iterator, std::ranges::input_range,
    (class T1, class T2, std::output_iterator<const T2 &> O, class Proj = std::identity),
    (std::indirectly_copyable<I, O> &&
     std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T1 *>),
    (std::ranges::replace_copy_result<I, O>), (std::ranges::replace_copy_result<detail::bit<R>, O>),
    (O result, const T1 &old_value, const T2 &new_value, Proj proj = {}),
    (std::move(result), old_value, new_value, std::move(proj)), (std::random_access_iterator<O>),
    (auto f = detail::eq(old_value); return {
        end, adapt::replace_copy_if(pol, first, end, result, detail::on1(f, proj), new_value)};))

/* std::ranges::unique_copy: copies the first element of every run of
 * neighbours equivalent under comp(proj(a), proj(b)); returns {last, o}. */
ADAPT_RANGES_1(
    unique_copy, std::input_iterator, std::ranges::input_range,
    (std::weakly_incrementable O, class Proj = std::identity, class C = std::ranges::equal_to),
    (std::indirect_equivalence_relation<C, std::projected<I, Proj>> &&
     std::indirectly_copyable<I, O> &&
     (std::forward_iterator<I> ||
      (std::input_iterator<O> && std::same_as<std::iter_value_t<I>, std::iter_value_t<O>>) ||
      std::indirectly_copyable_storable<I, O>)),
    (std::ranges::unique_copy_result<I, O>), (std::ranges::unique_copy_result<detail::bit<R>, O>),
    (O result, C comp = {}, Proj proj = {}), (std::move(result), std::move(comp), std::move(proj)),
    (std::random_access_iterator<O>),
    (return {end, adapt::unique_copy(pol, first, end, result, detail::on2(comp, proj, proj))};))

/* std::ranges::partition_copy: the elements with pred(proj(x)) to out_true,
 * the others to out_false, in order; returns {last, out_true', out_false'}. */
ADAPT_RANGES_1(partition_copy, std::input_iterator, std::ranges::input_range,
               (std::weakly_incrementable O1, std::weakly_incrementable O2,
                class Proj = std::identity, class Pred),
               (std::indirect_unary_predicate<Pred, std::projected<I, Proj>> &&
                std::indirectly_copyable<I, O1> && std::indirectly_copyable<I, O2>),
               (std::ranges::partition_copy_result<I, O1, O2>),
               (std::ranges::partition_copy_result<detail::bit<R>, O1, O2>),
               (O1 out_true, O2 out_false, Pred pred, Proj proj = {}),
               (std::move(out_true), std::move(out_false), std::move(pred), std::move(proj)),
               (std::random_access_iterator<O1> && std::random_access_iterator<O2>),
               (auto o = adapt::partition_copy(pol, first, end, out_true, out_false,
                                               detail::on1(pred, proj));
                return {end, o.first, o.second};))

/* std::ranges::reverse_copy: the elements in reverse order into o;
 * returns {last, o}. */
ADAPT_RANGES_1(reverse_copy, std::bidirectional_iterator, std::ranges::bidirectional_range,
               (std::weakly_incrementable O), (std::indirectly_copyable<I, O>),
               (std::ranges::reverse_copy_result<I, O>),
               (std::ranges::reverse_copy_result<detail::bit<R>, O>), (O result),
               (std::move(result)), (std::random_access_iterator<O>),
               (return {end, adapt::reverse_copy(pol, first, end, result)};))

/* std::ranges::rotate_copy: [middle, last) then [first, middle) into o;
 * returns {last, o}. */
ADAPT_RANGES_M(rotate_copy, std::forward_iterator, std::ranges::forward_range,
               (std::weakly_incrementable O), (std::indirectly_copyable<I, O>),
               (std::ranges::rotate_copy_result<I, O>),
               (std::ranges::rotate_copy_result<detail::bit<R>, O>), (O result),
               (std::move(result)), (std::random_access_iterator<O>),
               (return {end, adapt::rotate_copy(pol, first, middle, end, result)};))

/* std::ranges::swap_ranges: swaps the elements of the shorter length;
 * returns {end1, end2} of what was swapped. */
ADAPT_RANGES_2(swap_ranges, std::input_iterator, std::input_iterator, std::ranges::input_range,
               std::ranges::input_range, (), (std::indirectly_swappable<I1, I2>),
               (std::ranges::swap_ranges_result<I1, I2>),
               (std::ranges::swap_ranges_result<detail::bit<R1>, detail::bit<R2>>), (), (), (true),
               (auto n = std::min<std::iter_difference_t<I1>>(
                    end1 - first1, static_cast<std::iter_difference_t<I1>>(end2 - first2));
                return {first1 + n, adapt::swap_ranges(pol, first1, first1 + n, first2)};))

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_MAPS_HPP */
