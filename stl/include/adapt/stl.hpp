/* libadapt's C++17 front end: the algorithms of <algorithm> and <numeric>
 * on the adaptive runtime, with std's signatures, without a policy or with
 * an adapt::policy first (docs/stl.md is the guide):
 *
 *   std::vector<double> v(1 << 24, 1.0);
 *   adapt::transform(v.begin(), v.end(), v.begin(), [](double x) { return 2 * x; });
 *   double s = adapt::reduce(adapt::par.window(adapt::window::sliding), v.begin(), v.end());
 *
 * Scans: adapt::inclusive_scan and exclusive_scan, in
 * <adapt/stl/scan.hpp>.
 * Tasks: adapt::task_group (run, wait) and adapt::parallel_invoke, in
 * <adapt/stl/task_group.hpp>, on the runtime's spawn/sync.
 * Index loop: adapt::for_index(first, last, f), f(i) for i in [first,
 * last), in <adapt/stl/index.hpp>.
 *
 * Common contract of every algorithm below:
 * - Effect: std's, each element function called once per element
 *   (find/find_if/any_of/all_of/none_of: at most once) and possibly
 *   concurrently on several workers, in no guaranteed order, on the element
 *   function object you passed (shared by reference: make it thread-safe).
 *   The calling thread takes part; calls made from inside a body of another
 *   parallel call are nested.
 * - Element functions see the elements as lvalues, as std's loops pass
 *   them: parameters by value, by (non-const) reference or generic work as
 *   with std. An operation's accumulator is an lvalue too, or an rvalue
 *   where the operation accepts one (moved, not copied).
 * - Iterators: random-access iterators (all of them: inputs and outputs)
 *   run in parallel; other iterators call the sequential std algorithm, and
 *   so do the algorithms that write through a proxy reference
 *   (std::vector<bool>: neighbouring elements share a word).
 * - Elements: no copies beyond std's (no memcpy of objects); move-only
 *   types where std accepts them.
 * - Accumulation: reductions and scans accumulate in std's type (init's;
 *   an inclusive scan without init: the element type): a block's first two
 *   elements are combined as op(T(x0), x1) when op(x0, x1) is not a T (ints
 *   summed into a long long never add in int).
 * - Exceptions: the first exception thrown by an element function, on any
 *   worker, is rethrown on the calling thread after every worker has left
 *   the call; the rest of the call is cancelled (at most about one grain per
 *   worker still runs after the throw; sort and stable_sort: the
 *   partitions, leaf sorts and merges already running finish). Outputs
 *   then hold unspecified (valid) values. The runtime stays usable from
 *   every thread. adapt_cancel() from an element function cancels the call
 *   (adapt::error, ECANCELED), except in sort and stable_sort (see there)
 *   and in a reduction or scan of one block (ADAPT_STL_BLOCK elements or
 *   fewer), which runs on the calling thread outside any region: there
 *   adapt_cancel() returns -EPERM and the call completes. The policy's
 *   cancel token (policy::cancel_with, cancel_token: from any thread, sorts
 *   included) cancels a call too. Runtime failures throw
 *   adapt::error (std::system_error: EINVAL bad policy or environment value,
 *   ENOTSUP a non-adaptive scheduler with a window mode, ENOMEM, ...).
 * - Determinism: reduce and transform_reduce always give the same result
 *   for a given n whatever the workers, mode, grain and schedule (fixed
 *   blocks of ADAPT_STL_BLOCK elements, longer ones on long sequences,
 *   combined along a fixed tree); the scans do under a deterministic policy
 *   (the default, adapt::par).
 * - Calling context: any thread; the runtime starts lazily (adapt_init).
 * - Not guaranteed: which worker runs which element, the chunk sizes, the
 *   grouping of reduce's operations (any grouping std::reduce allows). */
#if !defined(ADAPT_STL_HPP) && __cplusplus < 201703L &&                                            \
    !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "<adapt/stl.hpp> needs C++17 or later (-std=c++17)"
#define ADAPT_STL_HPP /* skip the rest: one error, not one per C++17 construct */
#endif

#ifndef ADAPT_STL_HPP
#define ADAPT_STL_HPP

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <adapt/seq.h>
#include <adapt/tasks.h>
#include <adapt/stl/config.hpp>
#include <adapt/stl/detail.hpp>
#include <adapt/stl/policy.hpp>
#include <adapt/stl/sort.hpp>
#include <adapt/stl/task_group.hpp>

namespace adapt {
namespace detail {

template <class It>
It adv(It it, std::size_t i) {
  return it + static_cast<typename std::iterator_traits<It>::difference_type>(i);
}

template <class It>
std::size_t dist(It first, It last) {
  return static_cast<std::size_t>(last - first);
}

/* The _n form of an algorithm: whole(first + n), the whole form's call on
 * [first, first + n) returning the _n form's result, when n > 0; else none
 * (nothing called). */
template <class It, class Size, class R, class Whole>
R first_n(It first, Size n, R none, Whole &&whole) {
  if (n <= 0) return none;
  return whole(adv(first, static_cast<std::size_t>(n)));
}

/* The _n form of an algorithm on one range that returns first + n (first
 * when n <= 0): std_n() (the std _n form's call) when It is not writable
 * (writable_v), else whole(first + n), the whole form's call on
 * [first, first + n), when n > 0. */
template <class It, class Size, class StdN, class Whole>
It in_place_n(It first, Size n, StdN &&std_n, Whole &&whole) {
  if constexpr (!writable_v<It>)
    return std_n();
  else
    return first_n(first, n, first, [&](It last) {
      whole(last);
      return last;
    });
}

/* A map over [first, last): body(it, end, b) on disjoint chunks [b, e), it
 * and end their iterators, as par_map does (elem_bytes: the bytes one
 * element touches); iterators that are not random access, or whose
 * elements are proxies (writable_v): body(first, last, 0), sequentially. */
template <class It, class Body>
void par_map_range(const policy &pol, const char *name, It first, It last, std::size_t elem_bytes,
                   Body &&body) {
  if constexpr (!writable_v<It>)
    body(first, last, std::size_t{0});
  else
    par_map(
        pol, name, dist(first, last), elem_bytes,
        [&](adapt_seq *, std::size_t b, std::size_t e) { body(adv(first, b), adv(first, e), b); });
}

/* The function object behind a std::reference_wrapper (generate). */
template <class G>
struct unref {
  using type = G;
  static const G &get(const G &g) { return g; }
};
template <class U>
struct unref<std::reference_wrapper<U>> {
  using type = std::remove_const_t<U>;
  static U &get(const std::reference_wrapper<U> &g) { return g.get(); }
};

/* --- Deterministic reduction: fixed blocks, fixed tree ------------------ */
/* Block k's value comes from blockv(lo, hi) (one sequential pass, std's)
 * and goes to its own slot vals[k]: the chunks, whoever runs them, write
 * disjoint slots and merge nothing. The caller then folds the slots along
 * the aligned power-of-two groups (as adapt_reduce): level by level, the
 * two halves of each complete group of width 2w; the groups of count's
 * binary decomposition left over, left to right. The tree depends on n
 * only. */
template <class T, class Op>
T fold_blocks(std::optional<T> *vals, std::size_t count, Op &op) {
  std::size_t w = 1;
  for (; 2 * w <= count; w *= 2)
    for (std::size_t i = 0; i + 2 * w <= count; i += 2 * w)
      vals[i] = fold_op(op, *vals[i], *vals[i + w]);
  /* w: the largest power of two <= count, the first group's width */
  T acc = std::move(*vals[0]);
  for (std::size_t pos = w; pos < count;) {
    while (pos + w > count) w /= 2;
    acc = fold_op(op, acc, *vals[pos]);
    pos += w;
  }
  return acc;
}

/* op(init, fold of the blocks of n >= 2 elements). */
template <class T, class Op, class BlockFn>
T reduce_blocks(const policy &pol, const char *name, std::size_t n, std::size_t elem_bytes, T init,
                Op &op, BlockFn &&blockv) {
  blocks bl(n, reduce_block(n));
  if (bl.count == 1) {
    T v = blockv(bl.lo(0), bl.hi(0));
    return fold_op(op, init, v);
  }
  /* Plain slots, each written by the one chunk that runs its block; the
   * caller reads them after par_map returned, which the runtime's join
   * orders after every chunk (no atomics needed). */
  std::unique_ptr<std::optional<T>[]> vals(new std::optional<T>[bl.count]);
  std::optional<T> *v = vals.get();
  par_map(pol.attr(bl.size, false), name, bl.count, bl.size * elem_bytes,
          [&](adapt_seq *, std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; k++) v[k].emplace(blockv(bl.lo(k), bl.hi(k)));
          });
  T acc = fold_blocks(v, bl.count, op);
  return fold_op(op, init, acc);
}

/* v (+) get(i) for i in [i, e), accumulated in T where std::reduce's loop
 * would pair two elements in op's own result type (a narrower one): the
 * same grouping as that loop (four elements: two pairs, their sum, into
 * v; one dependent operation on v per four elements), each pair formed in
 * T (fold_first). get(i): the element, or its transform. */
template <class T, class Op, class Get>
T fold_rest(T v, std::size_t i, std::size_t e, Op &op, Get &&get) {
  for (; e - i >= 4; i += 4) {
    T v1 = fold_first<T>(op, get(i), get(i + 1));
    T v2 = fold_first<T>(op, get(i + 2), get(i + 3));
    T v3 = fold_op(op, v1, v2);
    v = fold_op(op, v, v3);
  }
  for (; i < e; ++i) v = fold_op(op, v, get(i));
  return v;
}

/* --- count_if, count ----------------------------------------------------- */
/* The kernel of count_if and count: count(b, e) counts the matches in the
 * elements [b, e); the pieces' counts add up. */
template <class Count>
struct count_ops {
  using master_type = std::size_t;
  using piece_type = std::size_t;
  Count count;
  void run_master(std::size_t &c, adapt_seq *, std::size_t b, std::size_t e) { c += count(b, e); }
  void run_piece(std::size_t &c, adapt_seq *s, std::size_t b, std::size_t e) {
    run_master(c, s, b, e);
  }
  void merge_master(std::size_t &v, std::size_t &t, std::size_t, std::size_t) { v += t; }
  void merge_piece(std::size_t &v, std::size_t &t, std::size_t, std::size_t) { v += t; }
};

/* The matches of pred in [b, e) of the sequence at first. */
template <class It, class Pred>
std::size_t count_matches(It first, std::size_t b, std::size_t e, Pred &pred) {
  std::size_t k = 0;
  for (It it = adv(first, b), end = adv(first, e); it != end; ++it)
    k += pred(*it) ? 1u : 0u; /* branch-free: vectorised for cheap predicates */
  return k;
}

/* --- count of a value --------------------------------------------------- */
/* count(value) on an arithmetic V of 4 or 8 bytes (not bool), the value of
 * the same type: the equality masks of 16 bytes of elements at a time
 * subtracted from vectors of counters (GCC's vector extension, SSE2 on
 * x86-64: a compare and a subtraction per 16 bytes, 2.25 instructions an
 * element in the loop, 2.5 with the chunks; std::count takes 6, GCC does
 * not vectorise it at -O2). Equality is ==: a NaN equals nothing, -0.0
 * equals 0.0. Any random-access iterator (the elements of a vector are
 * read as one load by the compiler, a deque's one by one). */
template <class V>
inline constexpr bool count_lane_type_v =
    std::is_arithmetic_v<V> && !std::is_same_v<V, bool> && (sizeof(V) == 4 || sizeof(V) == 8);
template <class V, class T>
inline constexpr bool count_lanes_v = std::conjunction_v<std::is_same<std::remove_cv_t<T>, V>,
                                                         std::bool_constant<count_lane_type_v<V>>>;

template <class It, class V>
std::size_t count_equal(It first, std::size_t b, std::size_t e, V v) {
  constexpr std::size_t L = 16 / sizeof(V);
  typedef V Vec __attribute__((vector_size(16)));
  using Mask = decltype(Vec{} == Vec{});
  /* Vectors of a block at most: a 32-bit lane counts up to 2^30. */
  constexpr std::size_t kMaxPairs = std::size_t{1} << 30;
  Vec want;
  for (std::size_t k = 0; k < L; k++) want[k] = v;
  std::size_t c = 0, i = b;
  while (e - i >= 2 * L) {
    const std::size_t pairs = std::min((e - i) / (2 * L), kMaxPairs), stop = i + pairs * 2 * L;
    Mask a0 = {}, a1 = {};
    for (; i < stop; i += 2 * L) {
      It x = adv(first, i);
      Vec x0, x1;
      if constexpr (L == 2) {
        x0 = Vec{x[0], x[1]};
        x1 = Vec{x[2], x[3]};
      } else {
        x0 = Vec{x[0], x[1], x[2], x[3]};
        x1 = Vec{x[4], x[5], x[6], x[7]};
      }
      a0 -= x0 == want;
      a1 -= x1 == want;
    }
    a0 += a1;
    for (std::size_t k = 0; k < L; k++) c += static_cast<std::size_t>(a0[k]);
  }
  for (; i < e; i++) c += *adv(first, i) == v ? 1u : 0u;
  return c;
}

/* --- find_if ------------------------------------------------------------ */
template <class It, class Pred>
It find_if(const policy &pol, It first, It last, Pred &pred) {
  if constexpr (!random_access_v<It>) {
    return std::find_if(first, last, pred);
  } else {
    std::size_t n = dist(first, last);
    /* Smallest match found so far (n: none). relaxed: chunks use it only to
     * skip work; the caller reads it after the call, ordered by the
     * runtime's join. */
    std::atomic<std::size_t> found{n};
    par_map(pol, "adapt::find_if", n, sizeof(value_t<It>),
            [&](adapt_seq *s, std::size_t b, std::size_t e) {
              std::size_t lim = found.load(std::memory_order_relaxed);
              if (b >= lim) return;
              if (e > lim) e = lim;
              /* std's own loop on the chunk (unrolled by libstdc++), pred by
               * reference */
              It end = adv(first, e), it = std::find_if(adv(first, b), end, std::ref(pred));
              if (it == end) return;
              std::size_t i = dist(first, it), cur = found.load(std::memory_order_relaxed);
              while (i < cur && !found.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {}
              adapt_seq_stop(s, i, 0);
            });
    return adv(first, found.load(std::memory_order_relaxed));
  }
}

} // namespace detail

/* ===== Maps ============================================================== */

/* std::for_each (returns nothing, as std's policy form). */
template <class It, class F>
void for_each(const policy &pol, It first, It last, F f) {
  static_assert(std::is_invocable_v<F &, detail::ref_t<It>>,
                "adapt::for_each: f must be callable with an element, f(*first)");
  detail::par_map_range(pol, "adapt::for_each", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) {
                          for (; it != end; ++it) f(*it);
                        });
}
/* std::for_each: returns f (the object every worker called). */
template <class It, class F, detail::not_policy<It> = 0>
F for_each(It first, It last, F f) {
  adapt::for_each(par, first, last, std::ref(f));
  return f;
}

/* std::for_each_n: f on [first, first + n); returns first + n (first when
 * n <= 0). */
template <class It, class Size, class F>
It for_each_n(const policy &pol, It first, Size n, F f) {
  static_assert(std::is_invocable_v<F &, detail::ref_t<It>>,
                "adapt::for_each_n: f must be callable with an element, f(*first)");
  if constexpr (!detail::random_access_v<It>)
    return std::for_each_n(first, n, f);
  else
    return detail::first_n(first, n, first, [&](It last) {
      adapt::for_each(pol, first, last, std::ref(f));
      return last;
    });
}

/* std::fill: every element = value (copy assignment). */
template <class It, class T>
void fill(const policy &pol, It first, It last, const T &value) {
  /* std's loop per chunk (value read once per chunk, memset for bytes) */
  detail::par_map_range(pol, "adapt::fill", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) { std::fill(it, end, value); });
}

/* std::generate: every element = g(); g is called concurrently (a
 * trivially copyable g callable as const: on a copy made per chunk, which
 * it cannot tell from g; others: on g itself). */
template <class It, class G>
void generate(const policy &pol, It first, It last, G g) {
  static_assert(std::is_invocable_v<G &>,
                "adapt::generate: g must be callable without arguments, g()");
  detail::par_map_range(pol, "adapt::generate", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) {
                          using U = typename detail::unref<G>::type;
                          if constexpr (std::is_trivially_copyable_v<U> &&
                                        std::is_invocable_v<const U &>) {
                            /* A local copy per chunk: the stores to the
                             * range cannot alias its state, which the loop
                             * then keeps in registers (through g itself
                             * every element re-reads it: 25% more
                             * instructions than std for a constant).
                             * Called as const, it cannot tell. */
                            const U lg = detail::unref<G>::get(g);
                            for (; it != end; ++it) *it = lg();
                          } else {
                            for (; it != end; ++it) *it = g();
                          }
                        });
}

/* ===== Reductions ======================================================== */

/* std::reduce(first, last, init, op): op must be associative and
 * commutative as for std::reduce; the grouping is fixed by n (docs/stl.md),
 * so the result is reproducible. */
template <class It, class T, class Op>
T reduce(const policy &pol, It first, It last, T init, Op op) {
  static_assert(std::is_invocable_v<Op &, T &, detail::ref_t<It>>,
                "adapt::reduce: op must be callable as op(init, *first)");
  if constexpr (!detail::random_access_v<It>) {
    return std::reduce(first, last, std::move(init), op);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(op, init, *first);
    using R = detail::ref_t<It>;
    return detail::reduce_blocks(pol, "adapt::reduce", n, sizeof(detail::value_t<It>),
                                 std::move(init), op, [&](std::size_t lo, std::size_t hi) -> T {
                                   It a = detail::adv(first, lo), e = detail::adv(first, hi);
                                   T v = detail::fold_first<T>(op, a[0], a[1]);
                                   if constexpr (detail::pair_gives_v<T, Op, R, R>)
                                     return std::reduce(a + 2, e, std::move(v), op);
                                   else
                                     return detail::fold_rest(
                                         std::move(v), 2, hi - lo, op,
                                         [a](std::size_t i) -> R { return *detail::adv(a, i); });
                                 });
  }
}
template <class It, class T>
T reduce(const policy &pol, It first, It last, T init) {
  return adapt::reduce(pol, first, last, std::move(init), std::plus<>());
}
template <class It>
detail::value_t<It> reduce(const policy &pol, It first, It last) {
  return adapt::reduce(pol, first, last, detail::value_t<It>{}, std::plus<>());
}

/* std::transform_reduce, unary: reduce_op over transform_op(x). */
template <class It, class T, class ROp, class TOp>
T transform_reduce(const policy &pol, It first, It last, T init, ROp rop, TOp top) {
  static_assert(std::is_invocable_v<TOp &, detail::ref_t<It>>,
                "adapt::transform_reduce: the transform must be callable with an element");
  if constexpr (!detail::random_access_v<It>) {
    return std::transform_reduce(first, last, std::move(init), rop, top);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(rop, init, top(*first));
    using R = std::invoke_result_t<TOp &, detail::ref_t<It>>;
    return detail::reduce_blocks(
        pol, "adapt::transform_reduce", n, sizeof(detail::value_t<It>), std::move(init), rop,
        [&](std::size_t lo, std::size_t hi) -> T {
          It a = detail::adv(first, lo), e = detail::adv(first, hi);
          T v = detail::fold_first<T>(rop, top(a[0]), top(a[1]));
          if constexpr (detail::pair_gives_v<T, ROp, R, R>) /* as in reduce */
            return std::transform_reduce(a + 2, e, std::move(v), rop, top);
          else
            return detail::fold_rest(std::move(v), 2, hi - lo, rop, [a, &top](std::size_t i) -> R {
              return top(*detail::adv(a, i));
            });
        });
  }
}

/* std::transform_reduce, binary: reduce_op over transform_op(x1, x2);
 * without the operations: init + sum of x1 * x2. */
template <class It1, class It2, class T, class ROp, class TOp>
T transform_reduce(const policy &pol, It1 first1, It1 last1, It2 first2, T init, ROp rop, TOp top) {
  static_assert(std::is_invocable_v<TOp &, detail::ref_t<It1>, detail::ref_t<It2>>,
                "adapt::transform_reduce: the transform must be callable with two elements");
  if constexpr (!detail::random_access_v<It1, It2>) {
    return std::transform_reduce(first1, last1, first2, std::move(init), rop, top);
  } else {
    std::size_t n = detail::dist(first1, last1);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(rop, init, top(*first1, *first2));
    using R = std::invoke_result_t<TOp &, detail::ref_t<It1>, detail::ref_t<It2>>;
    return detail::reduce_blocks(
        pol, "adapt::transform_reduce", n,
        sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>), std::move(init), rop,
        [&](std::size_t lo, std::size_t hi) -> T {
          It1 a = detail::adv(first1, lo), e = detail::adv(first1, hi);
          It2 c = detail::adv(first2, lo);
          T v = detail::fold_first<T>(rop, top(a[0], c[0]), top(a[1], c[1]));
          if constexpr (detail::pair_gives_v<T, ROp, R, R>) /* as in reduce */
            return std::transform_reduce(a + 2, e, c + 2, std::move(v), rop, top);
          else
            return detail::fold_rest(std::move(v), 2, hi - lo, rop,
                                     [a, c, &top](std::size_t i) -> R {
                                       return top(*detail::adv(a, i), *detail::adv(c, i));
                                     });
        });
  }
}
template <class It1, class It2, class T>
T transform_reduce(const policy &pol, It1 first1, It1 last1, It2 first2, T init) {
  return adapt::transform_reduce(pol, first1, last1, first2, std::move(init), std::plus<>(),
                                 std::multiplies<>());
}

/* ===== Searches and counts =============================================== */

/* std::find_if: the first element satisfying pred (last if none). Elements
 * before the result are tested once, after it at most once; once a match
 * is known, at most about one grain per worker is tested past it. */
template <class It, class Pred>
It find_if(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::find_if: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred);
}

/* std::find: the first element == value. */
template <class It, class T>
It find(const policy &pol, It first, It last, const T &value) {
  auto eq = [&value](const auto &x) { return x == value; };
  return detail::find_if(pol, first, last, eq);
}

/* std::any_of, all_of, none_of (early exit as find_if). */
template <class It, class Pred>
bool any_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::any_of: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred) != last;
}
template <class It, class Pred>
bool all_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::all_of: pred must be callable with an element, pred(*first)");
  auto neg = [&pred](auto &&x) { return !pred(x); };
  return detail::find_if(pol, first, last, neg) == last;
}
template <class It, class Pred>
bool none_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::none_of: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred) == last;
}

/* std::count_if: the number of elements satisfying pred. */
template <class It, class Pred>
typename std::iterator_traits<It>::difference_type count_if(const policy &pol, It first, It last,
                                                            Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::count_if: pred must be callable with an element, pred(*first)");
  using D = typename std::iterator_traits<It>::difference_type;
  if constexpr (!detail::random_access_v<It>) {
    return std::count_if(first, last, pred);
  } else {
    auto counted = [first, &pred](std::size_t b, std::size_t e) {
      return detail::count_matches(first, b, e, pred);
    };
    detail::count_ops<decltype(counted)> ops{counted};
    std::size_t c = 0;
    detail::par_ordered(pol.attr(1, false), "adapt::count_if", detail::dist(first, last),
                        sizeof(detail::value_t<It>), ops, c);
    return static_cast<D>(c);
  }
}

/* std::count: the number of elements == value (arithmetic elements of 4
 * or 8 bytes and a value of their type: 16 bytes compared at a time,
 * detail::count_equal). */
template <class It, class T>
typename std::iterator_traits<It>::difference_type count(const policy &pol, It first, It last,
                                                         const T &value) {
  using V = detail::value_t<It>;
  if constexpr (detail::random_access_v<It> && detail::count_lanes_v<V, T>) {
    using D = typename std::iterator_traits<It>::difference_type;
    const V v = value;
    auto counted = [first, v](std::size_t b, std::size_t e) {
      return detail::count_equal(first, b, e, v);
    };
    detail::count_ops<decltype(counted)> ops{counted};
    std::size_t c = 0;
    detail::par_ordered(pol.attr(1, false), "adapt::count", detail::dist(first, last), sizeof(V),
                        ops, c);
    return static_cast<D>(c);
  } else {
    return adapt::count_if(pol, first, last, [&value](const auto &x) { return x == value; });
  }
}

/* ===== Sorting =========================================================== */
/* Parallel sorts (<adapt/stl/sort.hpp>). sort: an in-place parallel
 * quicksort (median-of-nine pivots, std's Hoare partition; the first,
 * largest partitions are split among the workers; std::sort below a leaf
 * size or past a depth bound), no buffer. stable_sort: a parallel merge
 * sort, std::stable_sort on leaves, one buffer of n elements (raw storage,
 * move-constructed; when it cannot be allocated, merges in place with
 * std::inplace_merge, as std::stable_sort degrades). One worker, short
 * ranges, proxy references (std::vector<bool>) or element types whose move
 * constructor may throw: std's sequential sort. Random-access iterators
 * only, as std's. The policy's attributes do not apply (spawn/sync tasks),
 * nor does adapt_cancel() in the comparator (it returns -EPERM, or cancels
 * the parallel call enclosing the sort): throw to stop a sort. On an
 * exception the range holds valid but unspecified values (as std::sort's,
 * not necessarily a permutation of the input). */

namespace detail {

/* adapt::sort (Stable: adapt::stable_sort) on the policy's workers. */
template <bool Stable, class It, class Cmp>
void sort_entry(const policy &pol, It first, It last, Cmp &cmp) {
  static_assert(random_access_v<It>, "adapt::sort and adapt::stable_sort need random-access "
                                     "iterators (std::list: list.sort())");
  static_assert(std::is_invocable_v<Cmp &, ref_t<It>, ref_t<It>>,
                "adapt::sort, adapt::stable_sort: cmp must be callable with two elements, "
                "cmp(*first, *first)");
  with_workers(pol.max_workers(),
               [&] { detail::sort<Stable>(first, last, cmp, pol.token(), pol.max_workers()); });
}

} // namespace detail

template <class It, class Cmp = std::less<>>
void sort(const policy &pol, It first, It last, Cmp cmp = {}) {
  detail::sort_entry<false>(pol, first, last, cmp);
}

template <class It, class Cmp = std::less<>>
void stable_sort(const policy &pol, It first, It last, Cmp cmp = {}) {
  detail::sort_entry<true>(pol, first, last, cmp);
}

} // namespace adapt

#include <adapt/stl/scan.hpp>
#include <adapt/stl/algorithms.hpp>
/* C++20: adapt::ranges:: (<adapt/stl/ranges.hpp>). */
#if __cplusplus >= 202002L && __has_include(<ranges>)
#include <adapt/stl/ranges.hpp>
#endif

#endif /* ADAPT_STL_HPP */
