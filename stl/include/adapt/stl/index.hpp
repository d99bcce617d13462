/* The index loop of <adapt/stl.hpp>: adapt::for_index, the parallel form of
 *   for (i = first; i < last; i++) f(i);
 * Included by <adapt/stl/algorithms.hpp>; include <adapt/stl.hpp>. */
#ifndef ADAPT_STL_INDEX_HPP
#define ADAPT_STL_INDEX_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <cstddef>
#include <type_traits>

namespace adapt {

/* f(i) for every i in [first, last), first and last converted to their
 * common type I (std::common_type_t, the type `i < last` compares in; an
 * integer type other than bool), each i once, possibly concurrently on
 * several workers, in no guaranteed order; nothing when first >= last.
 * f is called as an lvalue of the caller's object (shared by reference
 * across workers: make it thread-safe) and its result is ignored.
 * The loop runs as for_each does (one chunk loop `for (i = b; i != e; ++i)
 * f(i)` per chunk of the sequence engine, the body inlined into it): every
 * policy attribute applies, the scheduler included, and the policy's grain
 * and window are in indices. The bytes one index touches, for the default
 * window size: the policy's footprint, else sizeof(I).
 * Exceptions and cancellation: the common contract of <adapt/stl.hpp> (the
 * first exception of f rethrown once every worker has left; adapt_cancel()
 * from f: adapt::error ECANCELED; either way, indices not yet run are
 * skipped, each index ran at most once). Calling context: any thread; may
 * be nested in a body of another parallel call. Not guaranteed: which
 * worker runs which index, the chunk sizes. */
template <class I1, class I2, class F>
void for_index(const policy &pol, I1 first, I2 last, F f) {
  using I = std::common_type_t<I1, I2>;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "adapt::for_index: first and last must be integers, for_index(0, n, f)");
  static_assert(std::is_invocable_v<F &, I>, "adapt::for_index: f must be callable as f(i)");
  using U = std::make_unsigned_t<I>;
  const I lo = static_cast<I>(first), hi = static_cast<I>(last);
  if (!(lo < hi)) return;
  /* In U: modular, so hi - lo never overflows, and lo + k stays in range
   * (k < n lands in [lo, hi)). */
  const U ulo = static_cast<U>(lo);
  const auto n = static_cast<std::size_t>(static_cast<U>(static_cast<U>(hi) - ulo));
  detail::par_map(
      pol, "adapt::for_index", n, sizeof(I), [&](adapt_seq *, std::size_t b, std::size_t e) {
        const I end = static_cast<I>(static_cast<U>(ulo + static_cast<U>(e)));
        for (I i = static_cast<I>(static_cast<U>(ulo + static_cast<U>(b))); i != end; ++i) f(i);
      });
}
/* The same with adapt::par. */
template <class I1, class I2, class F, detail::not_policy<I1> = 0>
void for_index(I1 first, I2 last, F f) {
  adapt::for_index(par, first, last, std::ref(f));
}

} // namespace adapt

#endif /* ADAPT_STL_INDEX_HPP */
