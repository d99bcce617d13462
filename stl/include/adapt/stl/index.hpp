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
namespace detail {

/* adapt_for's body for a chunk loop: body(b, e) on [b, e), the first
 * exception kept and the loop cancelled (as map_call). */
template <class Body>
struct index_call {
  Body &body;
  failure fail;

  static void run(std::size_t b, std::size_t e, void *ctx) noexcept {
    auto *c = static_cast<index_call *>(ctx);
    if (c->fail.stopped()) return;
    try {
      c->body(b, e);
    } catch (...) {
      c->fail.capture();
    }
  }
};

/* body(b, e) on disjoint chunks covering [0, n): adapt_for under the
 * policy's grain and scheduler when it sets no window mode (none or
 * default_), else the sequence engine (par_map) with its window. */
template <class Body>
void par_index(const policy &pol, std::size_t n, std::size_t unit_bytes, Body &&body) {
  if (pol.window_mode() == adapt::window::default_ || pol.window_mode() == adapt::window::none) {
    using B = std::remove_reference_t<Body>;
    index_call<B> c{body, {}};
    c.fail.token = pol.token();
    adapt_attr a{};
    a.grain = pol.grain_size();
    a.sched = static_cast<adapt_sched>(pol.scheduler());
    a.max_workers = pol.max_workers();
    int rc = adapt_for(0, n, &index_call<B>::run, &c, &a);
    finish(rc, c.fail);
  } else {
    par_map(pol, "adapt::for_index", n, unit_bytes,
            [&](adapt_seq *, std::size_t b, std::size_t e) { body(b, e); });
  }
}

} // namespace detail

/* f(i) for every i in [first, last), first and last converted to their
 * common type I (std::common_type_t, the type `i < last` compares in; an
 * integer type other than bool), each i once, possibly concurrently on
 * several workers, in no guaranteed order; nothing when first >= last.
 * f is called as an lvalue of the caller's object (shared by reference
 * across workers: make it thread-safe) and its result is ignored.
 * The loop is adapt_for's (<adapt/loop.h>) with a chunk loop
 * `for (i = b; i != e; ++i) f(i)` as its body, f inlined into it, under
 * the policy's grain (in indices) and scheduler; a policy with a window
 * mode (static_, sliding) runs it on the sequence engine instead, as
 * for_each, with that window (in indices; the bytes one index touches:
 * the policy's footprint, else sizeof(I)). ADAPT_WINDOW does not apply.
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
  detail::par_index(pol, n, sizeof(I), [&](std::size_t b, std::size_t e) {
    const I end = static_cast<I>(static_cast<U>(ulo + static_cast<U>(e)));
    for (I i = static_cast<I>(static_cast<U>(ulo + static_cast<U>(b))); i != end; ++i) f(i);
  });
}

} // namespace adapt

#endif /* ADAPT_STL_INDEX_HPP */
