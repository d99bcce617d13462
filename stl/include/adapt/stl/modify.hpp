/* Element-wise algorithms of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): transform, copy, copy_n, move, fill_n,
 * generate_n, swap_ranges, replace, replace_if, replace_copy,
 * replace_copy_if, reverse, reverse_copy, rotate, rotate_copy. Each one a
 * parallel map: every chunk runs std's algorithm on its part (memmove for
 * trivial types where std does), each element read and written once, as
 * std. The ranges must
 * not overlap (where std's sequential form allows it, e.g. copy to the
 * left, the policy form does not either). The schedulers apply. */
#ifndef ADAPT_STL_MODIFY_HPP
#define ADAPT_STL_MODIFY_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace adapt {
namespace detail {

/* Iterators over contiguous elements whose address &*it is the element's:
 * pointers and std::vector's iterators (not std::vector<bool>'s); under
 * C++20 every std::contiguous_iterator (std::array's, std::string's,
 * std::span's, a user's that declares contiguous_iterator_tag). */
template <class It, class = void>
struct contiguous : std::is_pointer<It> {};
template <class It>
struct contiguous<
    It, std::enable_if_t<std::is_object_v<value_t<It>> && !std::is_same_v<value_t<It>, bool>>>
    : std::bool_constant<std::is_pointer_v<It> ||
                         std::is_same_v<It, typename std::vector<value_t<It>>::iterator> ||
                         std::is_same_v<It, typename std::vector<value_t<It>>::const_iterator>
#if __cplusplus >= 202002L
                         || std::contiguous_iterator<It>
#endif
                         > {
};

/* copy and move that std does with memmove (one trivially copyable type,
 * contiguous ranges) and that may store without the caches (x86, SSE2). */
template <class It, class Out>
inline constexpr bool streamable_v =
#if defined(__SSE2__)
    std::conjunction_v<contiguous<It>, contiguous<Out>, std::is_same<value_t<It>, value_t<Out>>,
                       std::is_trivially_copyable<value_t<It>>>;
#else
    false;
#endif

/* Whether a copy of this many bytes under pol streams its stores
 * (ADAPT_STL_STREAM_MIN). */
inline bool stream_copy_worth(const policy &pol, std::size_t bytes) {
  const adapt::window m = pol.window_mode();
  if (m != adapt::window::none && m != adapt::window::default_) return false;
  constexpr std::size_t fixed = ADAPT_STL_STREAM_MIN;
  if constexpr (fixed > 0) return bytes >= fixed;
  if (bytes < (std::size_t{1} << 20)) return false; /* below any cache's share: no query */
  const std::size_t llc = adapt_shared_cache_size();
  const int w = adapt_num_workers();
  return llc > 0 && bytes >= llc / 4 * 3 / static_cast<std::size_t>(w > 1 ? w : 1);
}

#if defined(__SSE2__)
/* 64 bytes from s to d (16-byte aligned) by streaming stores. */
inline void stream_64(unsigned char *d, const unsigned char *s) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16));
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 32));
  const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 48));
  _mm_stream_si128(reinterpret_cast<__m128i *>(d), a);
  _mm_stream_si128(reinterpret_cast<__m128i *>(d + 16), b);
  _mm_stream_si128(reinterpret_cast<__m128i *>(d + 32), c);
  _mm_stream_si128(reinterpret_cast<__m128i *>(d + 48), e);
}
#endif

/* n bytes from src to dst (not overlapping): streaming stores from dst's
 * first 16-byte boundary on (memcpy before it and for the tail), four
 * 4 KiB pages at a time interleaved, as glibc's large memmove does (four
 * streams of reads keep more of the memory busy than one: 8.2-8.5 ms for
 * 80 MB in 32 KiB chunks against 9.2-10.3 with one stream, and 8.0-10.0
 * for one memmove). No fence: the caller's stream_fence() orders them. */
inline void stream_bytes_unfenced(void *dst, const void *src, std::size_t n) {
#if defined(__SSE2__)
  constexpr std::size_t page = 4096;
  auto *d = static_cast<unsigned char *>(dst);
  auto *s = static_cast<const unsigned char *>(src);
  std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
  if (head > n) head = n;
  std::memcpy(d, s, head);
  d += head, s += head, n -= head;
  for (; n >= 4 * page; d += 4 * page, s += 4 * page, n -= 4 * page)
    for (std::size_t o = 0; o < page; o += 64) {
      stream_64(d + o, s + o);
      stream_64(d + page + o, s + page + o);
      stream_64(d + 2 * page + o, s + 2 * page + o);
      stream_64(d + 3 * page + o, s + 3 * page + o);
    }
  for (; n >= 64; d += 64, s += 64, n -= 64) stream_64(d, s);
  for (; n >= 16; d += 16, s += 16, n -= 16)
    _mm_stream_si128(reinterpret_cast<__m128i *>(d),
                     _mm_loadu_si128(reinterpret_cast<const __m128i *>(s)));
  std::memcpy(d, s, n);
#else
  std::memcpy(dst, src, n);
#endif
}

/* A store fence after streaming stores: they are not ordered with the
 * others, and the fence orders them before whatever the caller stores next
 * (the chunk's or segment's end, which the runtime's release publishes:
 * the fence pairs with that release and the reader's acquire). It waits
 * for the write-combining buffers to drain: one per chunk or segment, not
 * per buffer. */
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

/* stream_bytes_unfenced, then stream_fence. */
inline void stream_bytes(void *dst, const void *src, std::size_t n) {
  stream_bytes_unfenced(dst, src, n);
  stream_fence();
}

/* out[i] from first[i], chunk by chunk: run(it, end, out) runs std's
 * algorithm on a part of the input into its part of the output; once over
 * the whole range, on this thread, when the iterators cannot be written in
 * parallel (writable_v; Read: the input only needs random access, as
 * transform's). Returns out + n. */
template <bool Read = false, class It, class Out, class Run>
Out map_to(const policy &pol, const char *name, It first, It last, Out out, Run run) {
  if constexpr (!random_access_v<It> || !writable_v<Out> || (!Read && !writable_v<It>)) {
    return run(first, last, out);
  } else {
    std::size_t n = dist(first, last);
    par_map(pol, name, n, sizeof(value_t<It>) + sizeof(value_t<Out>),
            [&](adapt_seq *, std::size_t b, std::size_t e) {
              run(adv(first, b), adv(first, e), adv(out, b));
            });
    return adv(out, n);
  }
}

} // namespace detail

/* std::transform, unary: d_first[i] = op(first[i]); returns d_first + n.
 * The output may be the input (in place). */
template <class It, class Out, class Op>
Out transform(const policy &pol, It first, It last, Out d_first, Op op) {
  static_assert(std::is_invocable_v<Op &, detail::ref_t<It>>,
                "adapt::transform: op must be callable with an element, op(*first)");
  return detail::map_to<true>(
      pol, "adapt::transform", first, last, d_first,
      [&](It it, It end, Out o) { return std::transform(it, end, o, std::ref(op)); });
}

/* std::transform, binary: d_first[i] = op(first1[i], first2[i]). */
template <class It1, class It2, class Out, class Op>
Out transform(const policy &pol, It1 first1, It1 last1, It2 first2, Out d_first, Op op) {
  static_assert(std::is_invocable_v<Op &, detail::ref_t<It1>, detail::ref_t<It2>>,
                "adapt::transform: op must be callable with two elements, op(*first1, *first2)");
  if constexpr (!detail::random_access_v<It1, It2> || !detail::writable_v<Out>) {
    return std::transform(first1, last1, first2, d_first, op);
  } else {
    detail::par_map_range(pol, "adapt::transform", first1, last1,
                          sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>) +
                              sizeof(detail::value_t<Out>),
                          [&](It1 a, It1 end, std::size_t b) {
                            It2 c = detail::adv(first2, b);
                            for (Out o = detail::adv(d_first, b); a != end; ++a, ++c, ++o)
                              *o = op(*a, *c);
                          });
    return detail::adv(d_first, detail::dist(first1, last1));
  }
}

/* std::copy: d_first[i] = first[i] (copy assignment); returns d_first + n.
 * A copy of one trivially copyable type between contiguous ranges of
 * ADAPT_STL_STREAM_MIN bytes or more (by default about glibc's memmove
 * threshold) stores without the caches, as memmove does for one call of
 * that size: each chunk streams its stores, or when no thief can take part
 * (detail::alone) std::copy, one memmove, copies the whole range. */
template <class It, class Out>
Out copy(const policy &pol, It first, It last, Out d_first) {
  if constexpr (detail::streamable_v<It, Out>) {
    const std::size_t n = detail::dist(first, last);
    if (detail::stream_copy_worth(pol, n * sizeof(detail::value_t<It>))) {
      if (detail::alone(pol)) return std::copy(first, last, d_first); /* one memmove */
      return detail::map_to(pol, "adapt::copy", first, last, d_first, [](It it, It end, Out o) {
        const std::size_t k = detail::dist(it, end);
        if (k > 0)
          detail::stream_bytes(std::addressof(*o), std::addressof(*it),
                               k * sizeof(detail::value_t<It>));
        return detail::adv(o, k);
      });
    }
  }
  return detail::map_to(pol, "adapt::copy", first, last, d_first,
                        [](It it, It end, Out o) { return std::copy(it, end, o); });
}

/* std::copy_n: copy of [first, first + n) (nothing when n <= 0). */
template <class It, class Size, class Out>
Out copy_n(const policy &pol, It first, Size n, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>)
    return std::copy_n(first, n, d_first);
  else
    return detail::first_n(first, n, d_first,
                           [&](It last) { return adapt::copy(pol, first, last, d_first); });
}

/* std::move (the algorithm): d_first[i] = std::move(first[i]). Trivially
 * copyable types: as copy (streaming stores from ADAPT_STL_STREAM_MIN). */
template <class It, class Out>
Out move(const policy &pol, It first, It last, Out d_first) {
  if constexpr (detail::streamable_v<It, Out>) return adapt::copy(pol, first, last, d_first);
  return detail::map_to(pol, "adapt::move", first, last, d_first,
                        [](It it, It end, Out o) { return std::move(it, end, o); });
}

/* std::fill_n: fill of [first, first + n); returns first + n (first when
 * n <= 0). */
template <class It, class Size, class T>
It fill_n(const policy &pol, It first, Size n, const T &value) {
  return detail::in_place_n(
      first, n, [&] { return std::fill_n(first, n, value); },
      [&](It last) { adapt::fill(pol, first, last, value); });
}

/* std::generate_n: generate on [first, first + n) (g called concurrently,
 * as adapt::generate); returns first + n (first when n <= 0). */
template <class It, class Size, class G>
It generate_n(const policy &pol, It first, Size n, G g) {
  return detail::in_place_n(
      first, n, [&] { return std::generate_n(first, n, g); },
      [&](It last) { adapt::generate(pol, first, last, g); });
}

/* std::swap_ranges: swaps first1[i] and first2[i]; returns first2 + n. */
template <class It1, class It2>
It2 swap_ranges(const policy &pol, It1 first1, It1 last1, It2 first2) {
  return detail::map_to(pol, "adapt::swap_ranges", first1, last1, first2,
                        [](It1 it, It1 end, It2 o) { return std::swap_ranges(it, end, o); });
}

/* std::replace_if: elements satisfying pred become new_value (pred once
 * per element). */
template <class It, class Pred, class T>
void replace_if(const policy &pol, It first, It last, Pred pred, const T &new_value) {
  detail::par_map_range(
      pol, "adapt::replace_if", first, last, sizeof(detail::value_t<It>),
      [&](It it, It end, std::size_t) { std::replace_if(it, end, std::ref(pred), new_value); });
}

/* std::replace: elements == old_value become new_value. */
template <class It, class T>
void replace(const policy &pol, It first, It last, const T &old_value, const T &new_value) {
  detail::par_map_range(
      pol, "adapt::replace", first, last, sizeof(detail::value_t<It>),
      [&](It it, It end, std::size_t) { std::replace(it, end, old_value, new_value); });
}

/* std::replace_copy_if: d_first[i] = pred(first[i]) ? new_value :
 * first[i]; returns d_first + n. */
template <class It, class Out, class Pred, class T>
Out replace_copy_if(const policy &pol, It first, It last, Out d_first, Pred pred,
                    const T &new_value) {
  return detail::map_to(pol, "adapt::replace_copy_if", first, last, d_first,
                        [&](It it, It end, Out o) {
                          return std::replace_copy_if(it, end, o, std::ref(pred), new_value);
                        });
}

/* std::replace_copy: as replace_copy_if with == old_value. */
template <class It, class Out, class T>
Out replace_copy(const policy &pol, It first, It last, Out d_first, const T &old_value,
                 const T &new_value) {
  return detail::map_to(
      pol, "adapt::replace_copy", first, last, d_first,
      [&](It it, It end, Out o) { return std::replace_copy(it, end, o, old_value, new_value); });
}

/* std::reverse: swaps first[i] and first[n - 1 - i] for i < n / 2 (a map
 * over the n / 2 pairs). */
template <class It>
void reverse(const policy &pol, It first, It last) {
  if constexpr (!detail::writable_v<It>) {
    std::reverse(first, last);
  } else {
    std::size_t n = detail::dist(first, last);
    detail::par_map(pol, "adapt::reverse", n / 2, 2 * sizeof(detail::value_t<It>),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      std::swap_ranges(detail::adv(first, b), detail::adv(first, e),
                                       std::make_reverse_iterator(detail::adv(first, n - b)));
                    });
  }
}

/* std::reverse_copy: d_first[i] = first[n - 1 - i]; returns d_first + n. */
template <class It, class Out>
Out reverse_copy(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::reverse_copy(first, last, d_first);
  } else {
    std::size_t n = detail::dist(first, last);
    detail::par_map(pol, "adapt::reverse_copy", n,
                    sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      std::reverse_copy(detail::adv(first, n - e), detail::adv(first, n - b),
                                        detail::adv(d_first, b));
                    });
    return detail::adv(d_first, n);
  }
}

/* std::rotate: [middle, last) then [first, middle), in place; returns
 * first + (last - middle). Two maps: the two parts reversed (one map over
 * their pairs), then the whole range: n swaps at most, as std. */
template <class It>
It rotate(const policy &pol, It first, It middle, It last) {
  if constexpr (!detail::writable_v<It>) {
    return std::rotate(first, middle, last);
  } else {
    std::size_t n = detail::dist(first, last), k = detail::dist(first, middle);
    if (k == 0) return last;
    if (k == n) return first;
    const std::size_t h = k / 2; /* the pairs of [first, middle); then [middle, last)'s */
    detail::par_map(pol, "adapt::rotate", h + (n - k) / 2, 2 * sizeof(detail::value_t<It>),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      for (std::size_t u = b; u < e; u++) {
                        if (u < h)
                          std::iter_swap(detail::adv(first, u), detail::adv(first, k - 1 - u));
                        else
                          std::iter_swap(detail::adv(middle, u - h),
                                         detail::adv(middle, n - k - 1 - (u - h)));
                      }
                    });
    adapt::reverse(pol, first, last);
    return detail::adv(first, n - k);
  }
}

/* std::rotate_copy: [middle, last) then [first, middle) to d_first;
 * returns d_first + n. One map over the output. */
template <class It, class Out>
Out rotate_copy(const policy &pol, It first, It middle, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::rotate_copy(first, middle, last, d_first);
  } else {
    std::size_t n = detail::dist(first, last), k = detail::dist(middle, last);
    detail::par_map(
        pol, "adapt::rotate_copy", n, sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
        [&](adapt_seq *, std::size_t b, std::size_t e) {
          Out o = detail::adv(d_first, b);
          if (b < k) o = std::copy(detail::adv(middle, b), detail::adv(middle, std::min(e, k)), o);
          if (e > k)
            std::copy(detail::adv(first, std::max(b, k) - k), detail::adv(first, e - k), o);
        });
    return detail::adv(d_first, n);
  }
}

} // namespace adapt

#endif /* ADAPT_STL_MODIFY_HPP */
