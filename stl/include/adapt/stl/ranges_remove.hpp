/* C++20 adapt::ranges:: order-keeping removals (part of
 * <adapt/stl/ranges.hpp>, whose common contract applies; include
 * <adapt/stl.hpp>). Each returns the subrange [new end, last) of the
 * elements left behind (valid, unspecified values). */
#ifndef ADAPT_STL_RANGES_REMOVE_HPP
#define ADAPT_STL_RANGES_REMOVE_HPP

#ifndef ADAPT_STL_RANGES_HPP
#error "include <adapt/stl.hpp>"
#endif

namespace adapt {
namespace ranges {

/* std::ranges::remove_if: moves the elements without pred(proj(x)) to the
 * front, in order. */
template <std::permutable I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
std::ranges::subrange<I> remove_if(const policy &pol, I first, S last, Pred pred, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::remove_if(std::move(first), last, std::ref(pred), std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    return {adapt::remove_if(pol, first, end, detail::on1(pred, proj)), end};
  }
}
template <std::permutable I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<I, Proj>> Pred>
std::ranges::subrange<I> remove_if(I first, S last, Pred pred, Proj proj = {}) {
  return ranges::remove_if(par, std::move(first), last, std::move(pred), std::move(proj));
}
template <std::ranges::forward_range R, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::permutable<std::ranges::iterator_t<R>> std::ranges::borrowed_subrange_t<R>
remove_if(const policy &pol, R &&r, Pred pred, Proj proj = {}) {
  return ranges::remove_if(pol, std::ranges::begin(r), std::ranges::end(r), std::move(pred),
                           std::move(proj));
}
template <std::ranges::forward_range R, class Proj = std::identity,
          std::indirect_unary_predicate<std::projected<std::ranges::iterator_t<R>, Proj>> Pred>
requires std::permutable<std::ranges::iterator_t<R>> std::ranges::borrowed_subrange_t<R>
remove_if(R &&r, Pred pred, Proj proj = {}) {
  return ranges::remove_if(par, std::forward<R>(r), std::move(pred), std::move(proj));
}

/* std::ranges::remove: remove_if with proj(x) == value. */
template <std::permutable I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    std::ranges::subrange<I> remove(const policy &pol, I first, S last, const T &value,
                                    Proj proj = {}) {
  return ranges::remove_if(
      pol, std::move(first), last, [&value](const auto &x) { return x == value; }, std::move(proj));
}
template <std::permutable I, std::sentinel_for<I> S, class T, class Proj = std::identity>
requires std::indirect_binary_predicate<std::ranges::equal_to, std::projected<I, Proj>, const T *>
    std::ranges::subrange<I> remove(I first, S last, const T &value, Proj proj = {}) {
  return ranges::remove(par, std::move(first), last, value, std::move(proj));
}
template <std::ranges::forward_range R, class T, class Proj = std::identity>
requires std::permutable<std::ranges::iterator_t<R>> &&
    std::indirect_binary_predicate<std::ranges::equal_to,
                                   std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
        std::ranges::borrowed_subrange_t<R> remove(const policy &pol, R &&r, const T &value,
                                                   Proj proj = {}) {
  return ranges::remove(pol, std::ranges::begin(r), std::ranges::end(r), value, std::move(proj));
}
template <std::ranges::forward_range R, class T, class Proj = std::identity>
requires std::permutable<std::ranges::iterator_t<R>> &&
    std::indirect_binary_predicate<std::ranges::equal_to,
                                   std::projected<std::ranges::iterator_t<R>, Proj>, const T *>
        std::ranges::borrowed_subrange_t<R> remove(R &&r, const T &value, Proj proj = {}) {
  return ranges::remove(par, std::forward<R>(r), value, std::move(proj));
}

/* std::ranges::unique: keeps the first element of every run of
 * neighbours equivalent under comp(proj(a), proj(b)) (==), in order. */
template <std::permutable I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_equivalence_relation<std::projected<I, Proj>> C = std::ranges::equal_to>
std::ranges::subrange<I> unique(const policy &pol, I first, S last, C comp = {}, Proj proj = {}) {
  if constexpr (!detail::par_v<I, S>) {
    return std::ranges::unique(std::move(first), last, std::ref(comp), std::ref(proj));
  } else {
    I end = std::ranges::next(first, last);
    return {adapt::unique(pol, first, end, detail::on2(comp, proj, proj)), end};
  }
}
template <std::permutable I, std::sentinel_for<I> S, class Proj = std::identity,
          std::indirect_equivalence_relation<std::projected<I, Proj>> C = std::ranges::equal_to>
std::ranges::subrange<I> unique(I first, S last, C comp = {}, Proj proj = {}) {
  return ranges::unique(par, std::move(first), last, std::move(comp), std::move(proj));
}
template <std::ranges::forward_range R, class Proj = std::identity,
          std::indirect_equivalence_relation<std::projected<std::ranges::iterator_t<R>, Proj>> C =
              std::ranges::equal_to>
requires std::permutable<std::ranges::iterator_t<R>> std::ranges::borrowed_subrange_t<R>
unique(const policy &pol, R &&r, C comp = {}, Proj proj = {}) {
  return ranges::unique(pol, std::ranges::begin(r), std::ranges::end(r), std::move(comp),
                        std::move(proj));
}
template <std::ranges::forward_range R, class Proj = std::identity,
          std::indirect_equivalence_relation<std::projected<std::ranges::iterator_t<R>, Proj>> C =
              std::ranges::equal_to>
requires std::permutable<std::ranges::iterator_t<R>> std::ranges::borrowed_subrange_t<R>
unique(R &&r, C comp = {}, Proj proj = {}) {
  return ranges::unique(par, std::forward<R>(r), std::move(comp), std::move(proj));
}

} // namespace ranges
} // namespace adapt

#endif /* ADAPT_STL_RANGES_REMOVE_HPP */
