/* partition and stable_partition of <adapt/stl.hpp> (included by it,
 * through <adapt/stl/algorithms.hpp>), pred called once per element.
 *
 * partition: alone (one worker or workers(1): detail::alone), or a range of ADAPT_STL_BLOCK elements or
 * fewer, std::partition. Otherwise fixed blocks (ADAPT_STL_BLOCK elements) are partitioned in
 * parallel (detail::split_block: without a branch per element for small
 * trivially copyable types, else std::partition); the elements then on the wrong side of the
 * global boundary (the false part of a block before it, the true part of a
 * block after it) are swapped pairwise, the k-th of one side with the k-th
 * of the other, by a parallel map over the pairs. At most n swaps (std's
 * policy form allows O(n log n)); swaps only, so on an exception the range
 * is a permutation of the input.
 *
 * stable_partition: pred's results are stored (one byte per element) with
 * the count of true elements of each block, in parallel; then the range is
 * moved into a buffer (raw storage) and each element moved back to its
 * place (a parallel map; the place from its block's prefix and its rank in
 * the block). pred runs before anything moves, so on its exception the
 * range is untouched. Element types whose move constructor or assignment
 * may throw, and a buffer that cannot be allocated: std::stable_partition. */
#ifndef ADAPT_STL_PARTITION_HPP
#define ADAPT_STL_PARTITION_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace adapt {
namespace detail {

/* Parts of the range by their positions: pos[k] where part k starts, and
 * at[k] the count of elements before it over all parts (at.back(): the
 * total). */
struct spans {
  std::vector<std::size_t> pos, at{0};
  void add(std::size_t p, std::size_t len) {
    if (len == 0) return;
    pos.push_back(p);
    at.push_back(at.back() + len);
  }
  /* The part holding element number i (i < total). */
  std::size_t part(std::size_t i) const {
    return static_cast<std::size_t>(std::upper_bound(at.begin(), at.end(), i) - at.begin()) - 1;
  }
};

/* Whether partition's blocks are split through two buffers (split_block). */
template <class V>
constexpr bool
    split_by_copy_v = std::is_trivially_copyable_v<V> &&std::is_trivially_copy_constructible_v<V> &&
                          std::is_copy_assignable_v<V> &&
                      sizeof(V) <= ADAPT_STL_PARTITION_COPY_MAX;

/* Partitions the block [x, x + len) (pred called once per element, on the
 * element itself, in order); returns the count of its elements satisfying
 * pred, now its front. With split_by_copy_v: each element's result sends a
 * copy of it to one of two buffers (both written, one pointer advanced:
 * no branch to mispredict, as std::partition's on unsorted data), then the
 * block is rewritten from them, the true ones first; yes and no (raw
 * storage) hold len elements each. Nothing of the block is written before
 * every pred has returned: on an exception it is untouched. Else, or
 * without buffers (yes NULL), std::partition. */
template <class It, class Pred, class V>
std::size_t split_block(It x, std::size_t len, Pred &pred, V *yes, V *no) {
  if constexpr (split_by_copy_v<V>) {
    if (yes) {
      V *t = yes, *f = no;
      It y = x;
      for (std::size_t i = 0; i < len; ++i, ++y) {
        const bool p = static_cast<bool>(pred(*y));
        ::new (static_cast<void *>(t)) V(*y);
        ::new (static_cast<void *>(f)) V(*y);
        t += p;
        f += !p;
      }
      const std::size_t c = static_cast<std::size_t>(t - yes);
      std::copy(no, f, std::copy(yes, t, x));
      return c;
    }
  }
  return dist(x, std::partition(x, adv(x, len), std::ref(pred)));
}

} // namespace detail

/* std::partition: the elements satisfying pred before the others (order
 * not kept); returns the first element of the second group. */
template <class It, class Pred>
It partition(const policy &pol, It first, It last, Pred pred) {
  if constexpr (!detail::writable_v<It>) {
    return std::partition(first, last, pred);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n <= ADAPT_STL_BLOCK || detail::alone(pol))
      return std::partition(first, last, std::move(pred));
    using V = detail::value_t<It>;
    detail::blocks bl(n);
    std::vector<std::size_t> split(bl.count);
    detail::par_map(pol.attr(bl.size), "adapt::partition", bl.count, bl.size * sizeof(V),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      /* Two buffers of the longest block (the last: up to
                       * 2 ADAPT_STL_BLOCK - 1 elements), raw storage; none
                       * (std::partition) when they cannot be had. */
                      const std::size_t most = detail::split_by_copy_v<V> ? 2 * bl.size : 0;
                      std::allocator<V> al;
                      auto release = [&al, most](V *q) { al.deallocate(q, 2 * most); };
                      std::unique_ptr<V, decltype(release)> buf(nullptr, release);
                      if (most) try {
                          buf.reset(al.allocate(2 * most));
                        } catch (const std::bad_alloc &) {}
                      V *yes = buf.get(), *no = yes ? yes + most : nullptr;
                      for (std::size_t k = b; k < e; k++)
                        split[k] =
                            bl.lo(k) + detail::split_block(detail::adv(first, bl.lo(k)),
                                                           bl.hi(k) - bl.lo(k), pred, yes, no);
                    });
    std::size_t left = 0; /* elements satisfying pred */
    for (std::size_t k = 0; k < bl.count; k++) left += split[k] - bl.lo(k);
    detail::spans wl, wr; /* false elements before left, true ones after */
    for (std::size_t k = 0; k < bl.count; k++) {
      std::size_t lo = bl.lo(k), hi = bl.hi(k), s = split[k];
      if (s < std::min(hi, left)) wl.add(s, std::min(hi, left) - s);
      if (s > std::max(lo, left)) wr.add(std::max(lo, left), s - std::max(lo, left));
    }
    detail::par_map(pol, "adapt::partition", wl.at.back(), 2 * sizeof(detail::value_t<It>),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      std::size_t il = wl.part(b), ir = wr.part(b);
                      while (b < e) { /* pairs b.. in part il of wl and ir of wr */
                        std::size_t ol = b - wl.at[il], orr = b - wr.at[ir];
                        std::size_t c = std::min({e - b, wl.at[il + 1] - b, wr.at[ir + 1] - b});
                        std::swap_ranges(detail::adv(first, wl.pos[il] + ol),
                                         detail::adv(first, wl.pos[il] + ol + c),
                                         detail::adv(first, wr.pos[ir] + orr));
                        b += c;
                        if (b == wl.at[il + 1]) il++;
                        if (b == wr.at[ir + 1]) ir++;
                      }
                    });
    return detail::adv(first, left);
  }
}

/* std::stable_partition: as partition, each group in its input order. */
template <class It, class Pred>
It stable_partition(const policy &pol, It first, It last, Pred pred) {
  using V = detail::value_t<It>;
  if constexpr (!detail::writable_v<It> || !std::is_nothrow_move_constructible_v<V> ||
                !std::is_nothrow_move_assignable_v<V>) {
    return std::stable_partition(first, last, pred);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return first;
    detail::blocks bl(n);
    std::unique_ptr<bool[]> keep(new bool[n]);
    std::vector<std::size_t> trues(bl.count + 1); /* then: prefix of the trues */
    detail::par_map(pol.attr(bl.size), "adapt::stable_partition", bl.count,
                    bl.size * (sizeof(V) + 1), [&](adapt_seq *, std::size_t b, std::size_t e) {
                      for (std::size_t k = b; k < e; k++) {
                        std::size_t c = 0;
                        It x = detail::adv(first, bl.lo(k));
                        for (std::size_t i = bl.lo(k); i < bl.hi(k); ++i, ++x)
                          c += (keep[i] = static_cast<bool>(pred(*x)));
                        trues[k + 1] = c;
                      }
                    });
    for (std::size_t k = 0; k < bl.count; k++) trues[k + 1] += trues[k];
    const std::size_t left = trues[bl.count];
    std::allocator<V> al;
    V *buf = nullptr;
    try {
      buf = al.allocate(n);
    } catch (const std::bad_alloc &) {
      return std::stable_partition(first, last, std::ref(pred));
    }
    detail::scratch_buffer<V> rel{al, buf, n, false};
    detail::move_to_buffer(pol, "adapt::stable_partition", first, last, buf);
    rel.built = true;
    detail::par_map(pol.attr(bl.size), "adapt::stable_partition", bl.count, bl.size * 2 * sizeof(V),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      for (std::size_t k = b; k < e; k++) {
                        std::size_t t = trues[k], f = left + bl.lo(k) - trues[k];
                        for (std::size_t i = bl.lo(k); i < bl.hi(k); i++)
                          *detail::adv(first, keep[i] ? t++ : f++) = std::move(buf[i]);
                      }
                    });
    return detail::adv(first, left);
  }
}

} // namespace adapt

#endif /* ADAPT_STL_PARTITION_HPP */
