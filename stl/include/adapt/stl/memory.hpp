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

/* d_first[i] constructed from first[i] as an R (a copy or a move) for i
 * in [0, n), n = last - first: each(b, e, out) is std's algorithm on the
 * part [b, e) into out, run by par_construct; returns d_first + n. */
template <class R, class It, class Out, class Each>
Out construct_from(const policy &pol, const char *name, It first, It last, Out d_first, Each each) {
  std::size_t n = dist(first, last);
  par_construct<may_throw_v<Out, R>>(
      pol, name, d_first, n, sizeof(value_t<It>) + sizeof(value_t<Out>),
      [&](std::size_t b, std::size_t e) { each(adv(first, b), adv(first, e), adv(d_first, b)); });
  return adv(d_first, n);
}

/* The elements of [first, last) moved into the raw storage buf by an
 * algorithm that reads them back at once (inplace_merge, stable_partition):
 * ordinary stores, which leave the buffer's last part in the caches.
 * adapt::uninitialized_move of a large trivial range streams its stores
 * past the caches, as a memmove of that size does, which made
 * inplace_merge of 1e7 doubles on 2 workers 1.12-1.16 of
 * std::execution::par's time, against 0.93-0.97 this way. */
template <class It, class V>
void move_to_buffer(const policy &pol, const char *name, It first, It last, V *buf) {
  construct_from<decltype(std::move(*first))>(
      pol, name, first, last, buf, [](It b, It e, V *o) { std::uninitialized_move(b, e, o); });
}

} // namespace detail

/* std::uninitialized_copy: constructs d_first[i] from first[i]; returns
 * d_first + n. A trivial type between contiguous ranges: adapt::copy, as
 * std uses std::copy (streaming stores from ADAPT_STL_STREAM_MIN). */
template <class It, class Out>
Out uninitialized_copy(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>)
    return std::uninitialized_copy(first, last, d_first);
  else if constexpr (detail::streamable_v<It, Out> && std::is_trivial_v<detail::value_t<It>>)
    return adapt::copy(pol, first, last, d_first);
  else
    return detail::construct_from<typename std::iterator_traits<It>::reference>(
        pol, "adapt::uninitialized_copy", first, last, d_first,
        [](It b, It e, Out o) { std::uninitialized_copy(b, e, o); });
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
 * from (as std). A trivial type between contiguous ranges: adapt::copy. */
template <class It, class Out>
Out uninitialized_move(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>)
    return std::uninitialized_move(first, last, d_first);
  else if constexpr (detail::streamable_v<It, Out> && std::is_trivial_v<detail::value_t<It>>)
    return adapt::copy(pol, first, last, d_first); /* as uninitialized_copy */
  else
    return detail::construct_from<decltype(std::move(*first))>(
        pol, "adapt::uninitialized_move", first, last, d_first,
        [](It b, It e, Out o) { std::uninitialized_move(b, e, o); });
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

/* An in-place construct NAME and its _n form: NAME(pol, first, last)
 * constructs every object as std::NAME does (no work when NO_WORK, a
 * constant expression of It); NAME_n(pol, first, n) returns first + n
 * (first when n <= 0). */
#define ADAPT_STL_CONSTRUCT(NAME, NO_WORK)                                                         \
  template <class It>                                                                              \
  void NAME(const policy &pol, It first, It last) {                                                \
    detail::construct_in_place<NO_WORK>(pol, "adapt::" #NAME, first, last,                         \
                                        [](It b, It e) { std::NAME(b, e); });                      \
  }                                                                                                \
  template <class It, class Size>                                                                  \
  It NAME##_n(const policy &pol, It first, Size n) {                                               \
    return detail::in_place_n(                                                                     \
        first, n, [&] { return std::NAME##_n(first, n); },                                         \
        [&](It last) { adapt::NAME(pol, first, last); });                                          \
  }

/* std::uninitialized_default_construct(_n): default-initialises every
 * object (trivial types: left indeterminate, no work). */
ADAPT_STL_CONSTRUCT(uninitialized_default_construct,
                    std::is_trivially_default_constructible_v<detail::value_t<It>>)

/* std::uninitialized_value_construct(_n): value-initialises every object
 * (zero for trivial types). */
ADAPT_STL_CONSTRUCT(uninitialized_value_construct, false)

#undef ADAPT_STL_CONSTRUCT

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
