/* Element-wise algorithms of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): copy, copy_n, move, fill_n, generate_n,
 * swap_ranges, replace, replace_if, replace_copy, replace_copy_if,
 * reverse, reverse_copy, rotate, rotate_copy. Each one a parallel map: every
 * chunk runs std's algorithm on its part (memmove for trivial types where
 * std does), each element read and written once, as std. The ranges must
 * not overlap (where std's sequential form allows it, e.g. copy to the
 * left, the policy form does not either). The schedulers apply. */
#ifndef ADAPT_STL_MODIFY_HPP
#define ADAPT_STL_MODIFY_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <utility>

namespace adapt {

/* std::copy: d_first[i] = first[i] (copy assignment); returns d_first + n. */
template <class It, class Out>
Out copy(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::copy(first, last, d_first);
  } else {
    detail::par_map_range(
        pol, "adapt::copy", first, last, sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
        [&](It it, It end, std::size_t b) { std::copy(it, end, detail::adv(d_first, b)); });
    return detail::adv(d_first, detail::dist(first, last));
  }
}
template <class It, class Out, detail::not_policy<It> = 0>
Out copy(It first, It last, Out d_first) {
  return adapt::copy(par, first, last, d_first);
}

/* std::copy_n: copy of [first, first + n) (nothing when n <= 0). */
template <class It, class Size, class Out>
Out copy_n(const policy &pol, It first, Size n, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::copy_n(first, n, d_first);
  } else {
    if (n <= 0) return d_first;
    return adapt::copy(pol, first, detail::adv(first, static_cast<std::size_t>(n)), d_first);
  }
}
template <class It, class Size, class Out, detail::not_policy<It> = 0>
Out copy_n(It first, Size n, Out d_first) {
  return adapt::copy_n(par, first, n, d_first);
}

/* std::move (the algorithm): d_first[i] = std::move(first[i]). */
template <class It, class Out>
Out move(const policy &pol, It first, It last, Out d_first) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::move(first, last, d_first);
  } else {
    detail::par_map_range(
        pol, "adapt::move", first, last, sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
        [&](It it, It end, std::size_t b) { std::move(it, end, detail::adv(d_first, b)); });
    return detail::adv(d_first, detail::dist(first, last));
  }
}
template <class It, class Out, detail::not_policy<It> = 0>
Out move(It first, It last, Out d_first) {
  return adapt::move(par, first, last, d_first);
}

/* std::fill_n: fill of [first, first + n); returns first + n (first when
 * n <= 0). */
template <class It, class Size, class T>
It fill_n(const policy &pol, It first, Size n, const T &value) {
  if constexpr (!detail::writable_v<It>) {
    return std::fill_n(first, n, value);
  } else {
    if (n <= 0) return first;
    It last = detail::adv(first, static_cast<std::size_t>(n));
    adapt::fill(pol, first, last, value);
    return last;
  }
}
template <class It, class Size, class T, detail::not_policy<It> = 0>
It fill_n(It first, Size n, const T &value) {
  return adapt::fill_n(par, first, n, value);
}

/* std::generate_n: generate on [first, first + n) (g called concurrently,
 * as adapt::generate); returns first + n (first when n <= 0). */
template <class It, class Size, class G>
It generate_n(const policy &pol, It first, Size n, G g) {
  if constexpr (!detail::writable_v<It>) {
    return std::generate_n(first, n, g);
  } else {
    if (n <= 0) return first;
    It last = detail::adv(first, static_cast<std::size_t>(n));
    adapt::generate(pol, first, last, g);
    return last;
  }
}
template <class It, class Size, class G, detail::not_policy<It> = 0>
It generate_n(It first, Size n, G g) {
  return adapt::generate_n(par, first, n, std::ref(g));
}

/* std::swap_ranges: swaps first1[i] and first2[i]; returns first2 + n. */
template <class It1, class It2>
It2 swap_ranges(const policy &pol, It1 first1, It1 last1, It2 first2) {
  if constexpr (!detail::writable_v<It1, It2>) {
    return std::swap_ranges(first1, last1, first2);
  } else {
    detail::par_map_range(
        pol, "adapt::swap_ranges", first1, last1,
        sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>),
        [&](It1 it, It1 end, std::size_t b) { std::swap_ranges(it, end, detail::adv(first2, b)); });
    return detail::adv(first2, detail::dist(first1, last1));
  }
}
template <class It1, class It2, detail::not_policy<It1> = 0>
It2 swap_ranges(It1 first1, It1 last1, It2 first2) {
  return adapt::swap_ranges(par, first1, last1, first2);
}

/* std::replace_if: elements satisfying pred become new_value (pred once
 * per element). */
template <class It, class Pred, class T>
void replace_if(const policy &pol, It first, It last, Pred pred, const T &new_value) {
  detail::par_map_range(
      pol, "adapt::replace_if", first, last, sizeof(detail::value_t<It>),
      [&](It it, It end, std::size_t) { std::replace_if(it, end, std::ref(pred), new_value); });
}
template <class It, class Pred, class T, detail::not_policy<It> = 0>
void replace_if(It first, It last, Pred pred, const T &new_value) {
  adapt::replace_if(par, first, last, std::ref(pred), new_value);
}

/* std::replace: elements == old_value become new_value. */
template <class It, class T>
void replace(const policy &pol, It first, It last, const T &old_value, const T &new_value) {
  detail::par_map_range(
      pol, "adapt::replace", first, last, sizeof(detail::value_t<It>),
      [&](It it, It end, std::size_t) { std::replace(it, end, old_value, new_value); });
}
template <class It, class T, detail::not_policy<It> = 0>
void replace(It first, It last, const T &old_value, const T &new_value) {
  adapt::replace(par, first, last, old_value, new_value);
}

/* std::replace_copy_if: d_first[i] = pred(first[i]) ? new_value :
 * first[i]; returns d_first + n. */
template <class It, class Out, class Pred, class T>
Out replace_copy_if(const policy &pol, It first, It last, Out d_first, Pred pred,
                    const T &new_value) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::replace_copy_if(first, last, d_first, pred, new_value);
  } else {
    detail::par_map_range(pol, "adapt::replace_copy_if", first, last,
                          sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
                          [&](It it, It end, std::size_t b) {
                            std::replace_copy_if(it, end, detail::adv(d_first, b), std::ref(pred),
                                                 new_value);
                          });
    return detail::adv(d_first, detail::dist(first, last));
  }
}
template <class It, class Out, class Pred, class T, detail::not_policy<It> = 0>
Out replace_copy_if(It first, It last, Out d_first, Pred pred, const T &new_value) {
  return adapt::replace_copy_if(par, first, last, d_first, std::ref(pred), new_value);
}

/* std::replace_copy: as replace_copy_if with == old_value. */
template <class It, class Out, class T>
Out replace_copy(const policy &pol, It first, It last, Out d_first, const T &old_value,
                 const T &new_value) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::replace_copy(first, last, d_first, old_value, new_value);
  } else {
    detail::par_map_range(pol, "adapt::replace_copy", first, last,
                          sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
                          [&](It it, It end, std::size_t b) {
                            std::replace_copy(it, end, detail::adv(d_first, b), old_value,
                                              new_value);
                          });
    return detail::adv(d_first, detail::dist(first, last));
  }
}
template <class It, class Out, class T, detail::not_policy<It> = 0>
Out replace_copy(It first, It last, Out d_first, const T &old_value, const T &new_value) {
  return adapt::replace_copy(par, first, last, d_first, old_value, new_value);
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
template <class It, detail::not_policy<It> = 0>
void reverse(It first, It last) {
  adapt::reverse(par, first, last);
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
template <class It, class Out, detail::not_policy<It> = 0>
Out reverse_copy(It first, It last, Out d_first) {
  return adapt::reverse_copy(par, first, last, d_first);
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
template <class It, detail::not_policy<It> = 0>
It rotate(It first, It middle, It last) {
  return adapt::rotate(par, first, middle, last);
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
template <class It, class Out, detail::not_policy<It> = 0>
Out rotate_copy(It first, It middle, It last, Out d_first) {
  return adapt::rotate_copy(par, first, middle, last, d_first);
}

} // namespace adapt

#endif /* ADAPT_STL_MODIFY_HPP */
