/* The parallel algorithms of <memory> in <adapt/stl.hpp> (included by it,
 * through <adapt/stl/algorithms.hpp>): uninitialized_copy(_n),
 * uninitialized_move(_n), uninitialized_fill(_n),
 * uninitialized_default_construct(_n), uninitialized_value_construct(_n),
 * destroy(_n). Each one a parallel map whose chunks run std's algorithm on
 * their part of the destination (raw storage), constructing or destroying
 * each object once.
 *
 * Exceptions: as std, the objects already constructed are destroyed before
 * the first exception is rethrown. A chunk that throws destroys its own
 * (std's algorithm does); the chunks that finished are recorded (a list
 * under a mutex, only for element types whose construction may throw) and
 * destroyed by the calling thread after the region. The schedulers
 * apply. */
#ifndef ADAPT_STL_MEMORY_HPP
#define ADAPT_STL_MEMORY_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace adapt {
namespace detail {

/* body(b, e) constructs the objects [b, e) of the n from d on, on disjoint
 * chunks in parallel (and destroys its own on an exception); MayThrow: the
 * construction may throw, so the finished chunks are recorded and
 * destroyed if another one throws. */
template <bool MayThrow, class Dest, class Body>
void par_construct(const policy &pol, const char *name, Dest d, std::size_t n,
                   std::size_t unit_bytes, Body &&body) {
  if constexpr (!MayThrow) {
    par_map(pol, name, n, unit_bytes,
            [&](adapt_seq *, std::size_t b, std::size_t e) { body(b, e); });
  } else {
    std::mutex mu;
    std::vector<std::pair<std::size_t, std::size_t>> done; /* under mu */
    try {
      par_map(pol, name, n, unit_bytes, [&](adapt_seq *, std::size_t b, std::size_t e) {
        body(b, e);
        try {
          std::lock_guard<std::mutex> g(mu);
          done.emplace_back(b, e);
        } catch (...) {
          std::destroy(adv(d, b), adv(d, e));
          throw;
        }
      });
    } catch (...) {
      /* every chunk has returned (par_map's join): done is complete */
      for (auto &c : done) std::destroy(adv(d, c.first), adv(d, c.second));
      throw;
    }
  }
}

template <class Dest, class... Args>
inline constexpr bool may_throw_v = !std::is_nothrow_constructible_v<value_t<Dest>, Args...>;

/* The objects of [first, last) constructed in place: each(it, end)
 * constructs those of one part (std's algorithm on it). par_construct of
 * the chunks, or each(first, last) on this thread when Seq (a type whose
 * construction does no work) or when the iterators cannot be written in
 * parallel. Args: the constructor's arguments, for may_throw_v. */
template <bool Seq, class... Args, class It, class Each>
void construct_in_place(const policy &pol, const char *name, It first, It last, Each &&each) {
  if constexpr (Seq || !writable_v<It>)
    each(first, last);
  else
    par_construct<may_throw_v<It, Args...>>(
        pol, name, first, dist(first, last), sizeof(value_t<It>),
        [&](std::size_t b, std::size_t e) { each(adv(first, b), adv(first, e)); });
}

} // namespace detail

/* std::uninitialized_copy: constructs d_first[i] from first[i]; returns
 * d_first + n. */
template <class It, class Out>
Out uninitialized_copy(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::uninitialized_copy(first, last, d_first);
  } else {
    using R = typename std::iterator_traits<It>::reference;
    std::size_t n = detail::dist(first, last);
    detail::par_construct<detail::may_throw_v<Out, R>>(
        pol, "adapt::uninitialized_copy", d_first, n,
        sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
        [&](std::size_t b, std::size_t e) {
          std::uninitialized_copy(detail::adv(first, b), detail::adv(first, e),
                                  detail::adv(d_first, b));
        });
    return detail::adv(d_first, n);
  }
}

/* std::uninitialized_copy_n: uninitialized_copy of [first, first + n)
 * (nothing when n <= 0); returns d_first + n. */
template <class It, class Size, class Out>
Out uninitialized_copy_n(const policy &pol, It first, Size n, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>)
    return std::uninitialized_copy_n(first, n, d_first);
  else
    return detail::first_n(first, n, d_first, [&](It last) {
      return adapt::uninitialized_copy(pol, first, last, d_first);
    });
}

/* std::uninitialized_move: constructs d_first[i] from std::move(first[i]);
 * returns d_first + n. On an exception some inputs may have been moved
 * from (as std). */
template <class It, class Out>
Out uninitialized_move(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::uninitialized_move(first, last, d_first);
  } else {
    using R = decltype(std::move(*first));
    std::size_t n = detail::dist(first, last);
    detail::par_construct<detail::may_throw_v<Out, R>>(
        pol, "adapt::uninitialized_move", d_first, n,
        sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
        [&](std::size_t b, std::size_t e) {
          std::uninitialized_move(detail::adv(first, b), detail::adv(first, e),
                                  detail::adv(d_first, b));
        });
    return detail::adv(d_first, n);
  }
}

/* std::uninitialized_move_n: returns {first + n, d_first + n} ({first,
 * d_first} when n <= 0). */
template <class It, class Size, class Out>
std::pair<It, Out> uninitialized_move_n(const policy &pol, It first, Size n, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>)
    return std::uninitialized_move_n(first, n, d_first);
  else
    return detail::first_n(first, n, std::pair<It, Out>{first, d_first}, [&](It last) {
      return std::pair<It, Out>{last, adapt::uninitialized_move(pol, first, last, d_first)};
    });
}

/* std::uninitialized_fill: constructs every object from value. */
template <class It, class T>
void uninitialized_fill(const policy &pol, It first, It last, const T &value) {
  detail::construct_in_place<false, const T &>(
      pol, "adapt::uninitialized_fill", first, last,
      [&](It b, It e) { std::uninitialized_fill(b, e, value); });
}

/* std::uninitialized_fill_n: returns first + n (first when n <= 0). */
template <class It, class Size, class T>
It uninitialized_fill_n(const policy &pol, It first, Size n, const T &value) {
  return detail::in_place_n(
      first, n, [&] { return std::uninitialized_fill_n(first, n, value); },
      [&](It last) { adapt::uninitialized_fill(pol, first, last, value); });
}

/* std::uninitialized_default_construct: default-initialises every object
 * (trivial types: left indeterminate, no work). */
template <class It>
void uninitialized_default_construct(const policy &pol, It first, It last) {
  detail::construct_in_place<std::is_trivially_default_constructible_v<detail::value_t<It>>>(
      pol, "adapt::uninitialized_default_construct", first, last,
      [](It b, It e) { std::uninitialized_default_construct(b, e); });
}

/* std::uninitialized_default_construct_n: returns first + n (first when
 * n <= 0). */
template <class It, class Size>
It uninitialized_default_construct_n(const policy &pol, It first, Size n) {
  return detail::in_place_n(
      first, n, [&] { return std::uninitialized_default_construct_n(first, n); },
      [&](It last) { adapt::uninitialized_default_construct(pol, first, last); });
}

/* std::uninitialized_value_construct: value-initialises every object
 * (zero for trivial types). */
template <class It>
void uninitialized_value_construct(const policy &pol, It first, It last) {
  detail::construct_in_place<false>(pol, "adapt::uninitialized_value_construct", first, last,
                                    [](It b, It e) { std::uninitialized_value_construct(b, e); });
}

/* std::uninitialized_value_construct_n: returns first + n (first when
 * n <= 0). */
template <class It, class Size>
It uninitialized_value_construct_n(const policy &pol, It first, Size n) {
  return detail::in_place_n(
      first, n, [&] { return std::uninitialized_value_construct_n(first, n); },
      [&](It last) { adapt::uninitialized_value_construct(pol, first, last); });
}

/* std::destroy: destroys every object (trivially destructible types: no
 * work). Destructors must not throw. */
template <class It>
void destroy(const policy &pol, It first, It last) {
  if constexpr (!detail::writable_v<It> || std::is_trivially_destructible_v<detail::value_t<It>>) {
    std::destroy(first, last);
  } else {
    detail::par_map_range(pol, "adapt::destroy", first, last, sizeof(detail::value_t<It>),
                          [](It it, It end, std::size_t) { std::destroy(it, end); });
  }
}

/* std::destroy_n: returns first + n (first when n <= 0). */
template <class It, class Size>
It destroy_n(const policy &pol, It first, Size n) {
  return detail::in_place_n(
      first, n, [&] { return std::destroy_n(first, n); },
      [&](It last) { adapt::destroy(pol, first, last); });
}

} // namespace adapt

#endif /* ADAPT_STL_MEMORY_HPP */
