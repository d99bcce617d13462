/* merge and inplace_merge of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>). Both split on the output: the output
 * positions are processed in parallel (merge: by the sequence engine, the
 * calling thread from the front), and the chunk [pb, pe) merges the parts of
 * the two sorted runs that the stable merge puts there, found by a binary
 * search on each run's share of the first k outputs (the co-rank of k: the
 * merge path), so every output is written once and the result is std's
 * (stable: on ties the first run's elements come first). */
#ifndef ADAPT_STL_MERGE_HPP
#define ADAPT_STL_MERGE_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace adapt {
namespace detail {

/* How many elements of the run a (n1 elements) are among the first k
 * outputs of the stable merge of a and b (n2 elements) under cmp: the
 * first i at which a[i] no longer goes before b[k - i - 1]. O(log) calls
 * of cmp. [lo_hint, hi_hint]: bounds known to hold the answer (the
 * co-rank of j <= k is at most the co-rank of k, which is at most the
 * co-rank of j plus k - j), which keep the search within them. */
template <class It1, class It2, class Cmp>
std::size_t co_rank(It1 a, std::size_t n1, It2 b, std::size_t n2, std::size_t k, Cmp &cmp,
                    std::size_t lo_hint = 0, std::size_t hi_hint = static_cast<std::size_t>(-1)) {
  std::size_t lo = std::max(k > n2 ? k - n2 : 0, lo_hint), hi = std::min({k, n1, hi_hint});
  lo = std::min(lo, hi);
  while (lo < hi) {
    std::size_t i = lo + (hi - lo) / 2; /* i < n1 and k - i >= 1 */
    if (!cmp(*adv(b, k - i - 1), *adv(a, i)))
      lo = i + 1;
    else
      hi = i;
  }
  return lo;
}

/* The outputs [pb, pe) of the stable merge of a and b, of which the first
 * pb hold i elements of a and the first pe i1 (co_rank): put(x) for each
 * one, in order (x: an lvalue of a or b; cmp sees lvalues). */
template <class It1, class It2, class Cmp, class Put>
void merge_part(It1 a, It2 b, std::size_t pb, std::size_t pe, std::size_t i, std::size_t i1,
                Cmp &cmp, Put &&put) {
  It1 x = adv(a, i), xe = adv(a, i1);
  It2 y = adv(b, pb - i), ye = adv(b, pe - i1);
  while (x != xe && y != ye) {
    if (cmp(*y, *x)) {
      put(*y);
      ++y;
    } else {
      put(*x);
      ++x;
    }
  }
  for (; x != xe; ++x) put(*x);
  for (; y != ye; ++y) put(*y);
}

/* merge's kernel over the output positions: the master, and each stolen
 * piece, remember the co-rank where their last chunk ended, so that a
 * chunk searches only its own end's co-rank, within the chunk's reach. */
template <class It1, class It2, class Out, class Cmp>
struct merge_ops : two_ranges<It1, It2, Out, Cmp> {
  struct state {
    bool known = false;
    std::size_t next = 0, i = 0; /* the co-rank of output position next */
  };
  using master_type = state;
  using piece_type = state;
  using base = two_ranges<It1, It2, Out, Cmp>;
  using base::cmp, base::d, base::first1, base::first2, base::n1, base::n2;

  void run(state &st, std::size_t pb, std::size_t pe) {
    std::size_t i = st.known && st.next == pb ? st.i : co_rank(first1, n1, first2, n2, pb, cmp);
    std::size_t i1 = co_rank(first1, n1, first2, n2, pe, cmp, i, i + (pe - pb));
    Out o = adv(d, pb);
    merge_part(first1, first2, pb, pe, i, i1, cmp, [&o](const auto &x) {
      *o = x;
      ++o;
    });
    st = state{true, pe, i1};
  }
  void run_master(state &m, adapt_seq *, std::size_t pb, std::size_t pe) { run(m, pb, pe); }
  void run_piece(state &p, adapt_seq *, std::size_t pb, std::size_t pe) { run(p, pb, pe); }
  void merge_master(state &m, state &t, std::size_t, std::size_t) { m = t; }
  void merge_piece(state &v, state &t, std::size_t, std::size_t) { v = t; }
};

} // namespace detail

/* std::merge: the stable merge of the sorted ranges [first1, last1) and
 * [first2, last2) under cmp (<) into d_first (one copy assignment per
 * element); returns d_first + n1 + n2. The output must not overlap the
 * inputs. At most n1 + n2 - 1 comparisons plus a binary search per chunk
 * within the chunk's length, and one over the whole runs for each stolen
 * piece's first chunk. Alone (detail::alone: no thief can take part),
 * std::merge. */
template <class It1, class It2, class Out, class Cmp = std::less<>>
Out merge(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
          Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It1, It2, Out>) {
    return std::merge(first1, last1, first2, last2, d_first, std::move(cmp));
  } else {
    if (detail::alone(pol)) /* no chunk boundaries, no co-ranks: std's cost */
      return std::merge(first1, last1, first2, last2, d_first, std::move(cmp));
    std::size_t n1 = detail::dist(first1, last1), n2 = detail::dist(first2, last2);
    detail::merge_ops<It1, It2, Out, Cmp> ops{{first1, n1, first2, n2, d_first, cmp}};
    typename detail::merge_ops<It1, It2, Out, Cmp>::state m;
    detail::par_ordered(pol.attr(1, false), "adapt::merge", n1 + n2,
                        sizeof(detail::value_t<It1>) + sizeof(detail::value_t<Out>), ops, m);
    return detail::adv(d_first, n1 + n2);
  }
}

/* std::inplace_merge: the stable merge of the sorted [first, middle) and
 * [middle, last) in place. Alone (one worker or workers(1): detail::alone), or a range of ADAPT_STL_BLOCK
 * elements or fewer: std::inplace_merge. Otherwise the range is moved into a buffer of n elements
 * (raw storage, move-constructed in parallel), the co-ranks of the output
 * blocks (ADAPT_STL_BLOCK elements) are found, then each block is merged
 * back from the buffer (one move assignment per element) and the buffer
 * destroyed: n - 1 comparisons at most plus a binary search per block.
 * When the buffer cannot be allocated, or the element's move constructor
 * may throw, std::inplace_merge runs (it degrades without memory as std's
 * does). On an exception the range holds valid unspecified values. */
template <class It, class Cmp = std::less<>>
void inplace_merge(const policy &pol, It first, It middle, It last, Cmp cmp = {}) {
  using V = detail::value_t<It>;
  if constexpr (!detail::writable_v<It> || !std::is_nothrow_move_constructible_v<V>) {
    std::inplace_merge(first, middle, last, cmp);
  } else {
    std::size_t n = detail::dist(first, last), k = detail::dist(first, middle);
    if (k == 0 || k == n) return;
    if (n <= ADAPT_STL_BLOCK || detail::alone(pol))
      return std::inplace_merge(first, middle, last, std::ref(cmp));
    std::allocator<V> al;
    V *buf = nullptr;
    try {
      buf = al.allocate(n);
    } catch (const std::bad_alloc &) {
      return std::inplace_merge(first, middle, last, std::ref(cmp));
    }
    detail::scratch_buffer<V> rel{al, buf, n, false};
    detail::move_to_buffer(pol, "adapt::inplace_merge", first, last, buf);
    rel.built = true;
    /* The co-ranks of the block boundaries first: the merge moves from the
     * buffer, whose moved-from elements a binary search must not read. */
    detail::blocks bl(n);
    std::vector<std::size_t> at(bl.count + 1);
    detail::par_map(pol, "adapt::inplace_merge", bl.count + 1, sizeof(V),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      for (std::size_t j = b; j < e; j++)
                        at[j] = detail::co_rank(buf, k, buf + k, n - k,
                                                j == bl.count ? n : bl.lo(j), cmp);
                    });
    detail::par_map(pol.attr(bl.size), "adapt::inplace_merge", bl.count, bl.size * 2 * sizeof(V),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      It o = detail::adv(first, bl.lo(b));
                      detail::merge_part(buf, buf + k, bl.lo(b), bl.hi(e - 1), at[b], at[e], cmp,
                                         [&o](V &x) {
                                           *o = std::move(x);
                                           ++o;
                                         });
                    });
  }
}

} // namespace adapt

#endif /* ADAPT_STL_MERGE_HPP */
