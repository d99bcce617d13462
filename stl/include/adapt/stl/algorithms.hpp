/* The parallel algorithms of C++17 beyond the ones <adapt/stl.hpp> defines
 * itself, one header per family, and the internals they share. Included
 * by <adapt/stl.hpp> at its end (the headers below use its internals);
 * include <adapt/stl.hpp>, not these headers. The common contract of
 * <adapt/stl.hpp> applies to every algorithm (random-access iterators run
 * in parallel, others call std's algorithm; exceptions; element copies);
 * docs/stl.md lists each one with its strategy and complexity. */
#ifndef ADAPT_STL_ALGORITHMS_HPP
#define ADAPT_STL_ALGORITHMS_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>

namespace adapt {
namespace detail {

/* The inputs of a kernel over two sorted ranges (merge_ops, set_ops): the
 * ranges' starts and lengths, the output and the comparison. */
template <class It1, class It2, class Out, class Cmp>
struct two_ranges {
  It1 first1;
  std::size_t n1;
  It2 first2;
  std::size_t n2;
  Out d;
  Cmp &cmp;
};

/* The smallest position p in [0, np) at which chunk finds a hit, np when
 * none. Positions are grouped in units of `per_unit` (the last unit takes
 * the remainder); chunk(pb, pe) returns the first hit in the positions
 * [pb, pe), or pe when none, and is called on disjoint pieces of [0, np)
 * in parallel (attributes a: in units). Once a hit is known, chunks past
 * it are skipped or cut (at most about one more chunk per worker starts
 * past it: adapt_seq_stop), chunks before it still run, so the result is
 * the first hit whatever the schedule. Rethrows the first exception of
 * chunk. */
template <class Chunk>
std::size_t first_hit(const call_attr &a, const char *name, std::size_t np, std::size_t per_unit,
                      std::size_t unit_bytes, Chunk &&chunk) {
  std::size_t units = (np + per_unit - 1) / per_unit;
  /* The smallest hit so far (np: none). relaxed: chunks use it only to
   * skip work; the caller reads it after par_map returned, ordered by the
   * runtime's join. */
  std::atomic<std::size_t> found{np};
  par_map(a, name, units, unit_bytes, [&](adapt_seq *s, std::size_t b, std::size_t e) {
    std::size_t lim = found.load(std::memory_order_relaxed);
    std::size_t pb = b * per_unit, pe = e * per_unit < np ? e * per_unit : np;
    if (pb >= lim) return;
    if (pe > lim) pe = lim;
    std::size_t i = chunk(pb, pe);
    if (i >= pe) return;
    std::size_t cur = found.load(std::memory_order_relaxed);
    while (i < cur && !found.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {}
    adapt_seq_stop(s, i / per_unit, 0);
  });
  return found.load(std::memory_order_relaxed);
}

/* The first window of m >= 1 elements of [first, last) at which find
 * hits, last when none (or m > n): find(it, end) is std's search over
 * [it, end), returning the start of its first window or end. The starting
 * positions [0, n - m + 1) go in units of per_unit to first_hit; a chunk
 * searches its positions and the m - 1 elements after them. */
template <class It, class Find>
It first_window(const policy &pol, const char *name, It first, It last, std::size_t m,
                std::size_t per_unit, Find &&find) {
  std::size_t n = dist(first, last);
  if (m > n) return last;
  std::size_t i = first_hit(pol.attr(per_unit), name, n - m + 1, per_unit,
                            per_unit * sizeof(value_t<It>), [&](std::size_t b, std::size_t e) {
                              It end = adv(first, e + m - 1), r = find(adv(first, b), end);
                              return r == end ? e : dist(first, r);
                            });
  return i <= n - m ? adv(first, i) : last;
}

/* A fold of n >= 1 positions: blockv(lo, hi) gives the value of the block
 * [lo, hi) (blocks of reduce_block(n), as reduce), the block values are
 * combined by comb(left, right) along reduce's fixed tree (fold_blocks),
 * left always before right in the sequence. comb must give what blockv
 * gives on the union of the two blocks (positions: the first smallest, the
 * last largest), so that alone (no thief can take part) one blockv over
 * [0, n) is the same fold without the blocks' boundaries. */
template <class T, class BlockFn, class Comb>
T fold_positions(const policy &pol, const char *name, std::size_t n, std::size_t elem_bytes,
                 BlockFn &&blockv, Comb &comb) {
  blocks bl(n, reduce_block(n));
  if (bl.count == 1 || alone(pol)) return blockv(0, n);
  /* Each slot written by the one chunk that runs its block, read after
   * par_map returned (the runtime's join orders them). */
  std::unique_ptr<std::optional<T>[]> vals(new std::optional<T>[bl.count]);
  std::optional<T> *v = vals.get();
  par_map(pol.attr(bl.size, false), name, bl.count, bl.size * elem_bytes,
          [&](adapt_seq *, std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; k++) v[k].emplace(blockv(bl.lo(k), bl.hi(k)));
          });
  return fold_blocks(v, bl.count, comb);
}

} // namespace detail
} // namespace adapt

#include <adapt/stl/search.hpp>
#include <adapt/stl/order.hpp>
#include <adapt/stl/minmax.hpp>
#include <adapt/stl/modify.hpp>
#include <adapt/stl/numeric.hpp>
#include <adapt/stl/select.hpp>
#include <adapt/stl/memory.hpp>
#include <adapt/stl/merge.hpp>
#include <adapt/stl/partition.hpp>
#include <adapt/stl/nth.hpp>
#include <adapt/stl/set.hpp>
#include <adapt/stl/index.hpp>
#include <adapt/stl/without_policy.hpp>

#endif /* ADAPT_STL_ALGORITHMS_HPP */
