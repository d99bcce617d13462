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
 * - Parallel when the iterators are std::random_access_iterator, the
 *   sentinels std::sized_sentinel_for them (the end iterator is then
 *   computed in O(1), ranges::next) and the outputs random access: the
 *   adapt:: algorithm runs on [first, end). Otherwise the call is
 *   std::ranges' sequential algorithm. Algorithms comparing two ranges both
 *   ways (merges, set operations, includes, lexicographical_compare,
 *   partial_sort_copy) are parallel only with the same projection on both
 *   (detail::same_proj).
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

/* std::invoke(p1, x) and std::invoke(p2, y) are the same function of
 * their argument: an algorithm comparing elements of two ranges both ways
 * (merges, set operations, includes, lexicographical_compare) runs adapt::'s
 * with one projection only then (the same stateless type, or equal
 * values, as two pointers to the same member). */
template <class P1, class P2>
bool same_proj([[maybe_unused]] const P1 &p1, [[maybe_unused]] const P2 &p2) {
  if constexpr (!std::is_same_v<P1, P2>)
    return false;
  else if constexpr (std::is_empty_v<P1>)
    return true;
  else if constexpr (std::equality_comparable<P1>)
    return p1 == p2;
  else
    return false;
}

/* x == value on a projected element (std::ranges::equal_to). */
template <class T>
auto eq(const T &value) {
  return [&value](const auto &x) -> bool { return x == value; };
}

/* The iterator a range overload returns (std::ranges::dangling for a
 * temporary that does not borrow), and the subrange. */
template <class R>
using bit = std::ranges::borrowed_iterator_t<R>;
template <class R>
using bsub = std::ranges::borrowed_subrange_t<R>;

} // namespace detail

/* The forms of every algorithm are written once, by the macros below
 * (#undef at the end of this header). ADAPT_RANGES_ITER writes the two
 * iterator forms: template <TI> requires RQ, returning RET, taking PI
 * after the policy or without it (adapt::par); the policy-first one is the
 * dispatch: std::ranges::NAME(AI) unless PARIF, a constant expression
 * (the parallel path), else the statements BODY. ADAPT_RANGES_RANGE writes
 * the two range forms, forwarding AR to the iterator forms; they see
 * I = std::ranges::iterator_t<R> (I1, I2 of R1, R2) as a defaulted template
 * parameter, so that one constraint RQ serves both. ADAPT_RANGES_1, _2
 * and _M write the four of an algorithm on one range [first, last), two
 * ranges, or [first, middle, last), followed by the parameters PX
 * (template parameters TX), passed on as AX: parallel when the iterators
 * are random access with sized sentinels and PARIF holds; BODY sees pol,
 * the parameters and the end iterators (end, or end1 and end2).
 * Parenthesized arguments keep their commas. */
#define ADAPT_RANGES_U(...) __VA_ARGS__
#define ADAPT_RANGES_X(...) __VA_OPT__(, ) __VA_ARGS__

#define ADAPT_RANGES_ITER(NAME, TI, RQ, RET, PI, AI, PARIF, BODY)                                  \
  template <ADAPT_RANGES_U TI>                                                                     \
  requires(ADAPT_RANGES_U RQ) ADAPT_RANGES_U RET NAME([[maybe_unused]] const policy &pol,          \
                                                      ADAPT_RANGES_U PI) {                         \
    if constexpr (!(ADAPT_RANGES_U PARIF)) {                                                       \
      return std::ranges::NAME(ADAPT_RANGES_U AI);                                                 \
    } else {                                                                                       \
      ADAPT_RANGES_U BODY                                                                          \
    }                                                                                              \
  }                                                                                                \
  template <ADAPT_RANGES_U TI>                                                                     \
  requires(ADAPT_RANGES_U RQ) ADAPT_RANGES_U RET NAME(ADAPT_RANGES_U PI) {                         \
    return ranges::NAME(par, ADAPT_RANGES_U AI);                                                   \
  }

#define ADAPT_RANGES_RANGE(NAME, TR, RQ, RET, PR, AR)                                              \
  template <ADAPT_RANGES_U TR>                                                                     \
  requires(ADAPT_RANGES_U RQ) ADAPT_RANGES_U RET NAME(const policy &pol, ADAPT_RANGES_U PR) {      \
    return ranges::NAME(pol, ADAPT_RANGES_U AR);                                                   \
  }                                                                                                \
  template <ADAPT_RANGES_U TR>                                                                     \
  requires(ADAPT_RANGES_U RQ) ADAPT_RANGES_U RET NAME(ADAPT_RANGES_U PR) {                         \
    return ranges::NAME(par, ADAPT_RANGES_U AR);                                                   \
  }

#define ADAPT_RANGES_1(NAME, CI, CR, TX, RQ, RETI, RETR, PX, AX, PARIF, BODY)                      \
  ADAPT_RANGES_ITER(NAME, (CI I, std::sentinel_for<I> S ADAPT_RANGES_X TX), RQ, RETI,              \
                    (I first, S last ADAPT_RANGES_X PX),                                           \
                    (std::move(first), last ADAPT_RANGES_X AX),                                    \
                    (detail::par_v<I, S> && ADAPT_RANGES_U PARIF),                                 \
                    (I end = std::ranges::next(first, last); ADAPT_RANGES_U BODY))                 \
  ADAPT_RANGES_RANGE(NAME, (CR R, class I = std::ranges::iterator_t<R> ADAPT_RANGES_X TX), RQ,     \
                     RETR, (R && r ADAPT_RANGES_X PX),                                             \
                     (std::ranges::begin(r), std::ranges::end(r) ADAPT_RANGES_X AX))

#define ADAPT_RANGES_2(NAME, CI1, CI2, CR1, CR2, TX, RQ, RETI, RETR, PX, AX, PARIF, BODY)          \
  ADAPT_RANGES_ITER(                                                                               \
      NAME,                                                                                        \
      (CI1 I1, std::sentinel_for<I1> S1, CI2 I2, std::sentinel_for<I2> S2 ADAPT_RANGES_X TX), RQ,  \
      RETI, (I1 first1, S1 last1, I2 first2, S2 last2 ADAPT_RANGES_X PX),                          \
      (std::move(first1), last1, std::move(first2), last2 ADAPT_RANGES_X AX),                      \
      (detail::par_v<I1, S1> && detail::par_v<I2, S2> && ADAPT_RANGES_U PARIF),                    \
      (I1 end1 = std::ranges::next(first1, last1);                                                 \
       [[maybe_unused]] I2 end2 = std::ranges::next(first2, last2); ADAPT_RANGES_U BODY))          \
  ADAPT_RANGES_RANGE(NAME,                                                                         \
                     (CR1 R1, CR2 R2, class I1 = std::ranges::iterator_t<R1>,                      \
                      class I2 = std::ranges::iterator_t<R2> ADAPT_RANGES_X TX),                   \
                     RQ, RETR, (R1 && r1, R2 && r2 ADAPT_RANGES_X PX),                             \
                     (std::ranges::begin(r1), std::ranges::end(r1), std::ranges::begin(r2),        \
                      std::ranges::end(r2) ADAPT_RANGES_X AX))

#define ADAPT_RANGES_M(NAME, CI, CR, TX, RQ, RETI, RETR, PX, AX, PARIF, BODY)                      \
  ADAPT_RANGES_ITER(NAME, (CI I, std::sentinel_for<I> S ADAPT_RANGES_X TX), RQ, RETI,              \
                    (I first, I middle, S last ADAPT_RANGES_X PX),                                 \
                    (std::move(first), std::move(middle), last ADAPT_RANGES_X AX),                 \
                    (detail::par_v<I, S> && ADAPT_RANGES_U PARIF),                                 \
                    (I end = std::ranges::next(middle, last); ADAPT_RANGES_U BODY))                \
  ADAPT_RANGES_RANGE(                                                                              \
      NAME, (CR R, class I = std::ranges::iterator_t<R> ADAPT_RANGES_X TX), RQ, RETR,              \
      (R && r, I middle ADAPT_RANGES_X PX),                                                        \
      (std::ranges::begin(r), std::move(middle), std::ranges::end(r) ADAPT_RANGES_X AX))

/* The families: a unary predicate (f = pred on the projection), an order or
 * binary predicate on one range (c = comp on the projections, default
 * DEF), and on two ranges (c = comp(proj1(x), proj2(y))). RQX: the
 * constraints beyond the family's. */
#define ADAPT_RANGES_PRED(NAME, CI, CR, RQX, RETI, RETR, BODY)                                     \
  ADAPT_RANGES_1(NAME, CI, CR, (class Proj = std::identity, class Pred),                           \
                 (std::indirect_unary_predicate<Pred, std::projected<I, Proj>> && RQX), RETI,      \
                 RETR, (Pred pred, Proj proj = {}), (std::move(pred), std::move(proj)), (true),    \
                 ([[maybe_unused]] auto f = detail::on1(pred, proj); ADAPT_RANGES_U BODY))

#define ADAPT_RANGES_CMP(NAME, CI, CR, DEF, RQ, RETI, RETR, BODY)                                  \
  ADAPT_RANGES_1(NAME, CI, CR, (class Comp = DEF, class Proj = std::identity), RQ, RETI, RETR,     \
                 (Comp comp = {}, Proj proj = {}), (std::move(comp), std::move(proj)), (true),     \
                 ([[maybe_unused]] auto c = detail::on2(comp, proj, proj); ADAPT_RANGES_U BODY))

#define ADAPT_RANGES_CMP2(NAME, CI1, CI2, CR1, CR2, DEF, RQ, RETI, RETR, BODY)                     \
  ADAPT_RANGES_2(NAME, CI1, CI2, CR1, CR2,                                                         \
                 (class Comp = DEF, class Proj1 = std::identity, class Proj2 = std::identity), RQ, \
                 RETI, RETR, (Comp comp = {}, Proj1 proj1 = {}, Proj2 proj2 = {}),                 \
                 (std::move(comp), std::move(proj1), std::move(proj2)), (true),                    \
                 ([[maybe_unused]] auto c = detail::on2(comp, proj1, proj2); ADAPT_RANGES_U BODY))

/* An algorithm comparing the elements of two ranges both ways (CI2 / CR2:
 * the second's concept; RQX: constraints beyond the order): parallel, as
 * adapt::NAME on comp(proj1(a), proj1(b)), when proj1 and proj2 are the
 * same projection (detail::same_proj), else std's; RET from its result
 * out. */
#define ADAPT_RANGES_BOTHWAYS(NAME, CI2, CR2, RQX, RETI, RETR, RET)                                \
  ADAPT_RANGES_CMP2(                                                                               \
      NAME, std::input_iterator, CI2, std::ranges::input_range, CR2, std::ranges::less,            \
      (std::indirect_strict_weak_order<Comp, std::projected<I1, Proj1>,                            \
                                       std::projected<I2, Proj2>> &&                               \
       ADAPT_RANGES_U RQX),                                                                        \
      RETI, RETR,                                                                                  \
      (if (!detail::same_proj(proj1, proj2)) return std::ranges::NAME(                             \
           first1, end1, first2, end2, std::ref(comp), std::ref(proj1), std::ref(proj2));          \
       auto out = adapt::NAME(pol, first1, end1, first2, end2, detail::on2(comp, proj1, proj1));   \
       return ADAPT_RANGES_U RET;))

} // namespace ranges
} // namespace adapt

#include <adapt/stl/ranges_maps.hpp>
#include <adapt/stl/ranges_search.hpp>
#include <adapt/stl/ranges_minmax.hpp>
#include <adapt/stl/ranges_order.hpp>
#include <adapt/stl/ranges_remove.hpp>
#include <adapt/stl/ranges_memory.hpp>

#undef ADAPT_RANGES_BOTHWAYS
#undef ADAPT_RANGES_CMP2
#undef ADAPT_RANGES_CMP
#undef ADAPT_RANGES_PRED
#undef ADAPT_RANGES_M
#undef ADAPT_RANGES_2
#undef ADAPT_RANGES_1
#undef ADAPT_RANGES_RANGE
#undef ADAPT_RANGES_ITER
#undef ADAPT_RANGES_X
#undef ADAPT_RANGES_U

#endif /* __cpp_lib_ranges */

#endif /* ADAPT_STL_RANGES_HPP */
