/* The set operations of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): set_union, set_intersection,
 * set_difference, set_symmetric_difference, on sorted ranges (multisets,
 * as std).
 *
 * The first range is cut into blocks of ADAPT_STL_BLOCK elements, each cut
 * moved back to the start of its run of equivalent elements, and the
 * second range cut at the lower bounds of the same elements: every run of
 * equivalent elements of both ranges then lies in one part, so std's
 * algorithm on each pair of parts gives that part's share of std's output.
 * Two parallel passes over the parts: the first counts each part's output
 * (std's algorithm writing nowhere), the second, after a prefix sum,
 * writes each part at its place (one copy assignment per output element,
 * as std). Comparisons: twice std's, plus two binary searches per block.
 * The parts follow the first range: a second range much longer than the
 * first is balanced only as far as its elements spread over the first's
 * blocks. The output must not overlap the inputs. */
#ifndef ADAPT_STL_SET_HPP
#define ADAPT_STL_SET_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

namespace adapt {
namespace detail {

/* An output iterator that counts what is written to it. */
struct count_out {
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;
  struct sink {
    template <class T>
    sink &operator=(const T &) {
      return *this;
    }
  };
  std::size_t n = 0;
  sink operator*() const { return {}; }
  count_out &operator++() {
    n++;
    return *this;
  }
  count_out operator++(int) {
    count_out c = *this;
    n++;
    return c;
  }
};

/* The parts and the two passes; op(a, ae, b, be, out) runs std's
 * algorithm (out: count_out or Out). Returns the output's end. */
template <class It1, class It2, class Out, class Cmp, class Op>
Out set_op(const policy &pol, const char *name, It1 first1, It1 last1, It2 first2, It2 last2, Out d,
           Cmp &cmp, Op &&op) {
  std::size_t n1 = dist(first1, last1), n2 = dist(first2, last2);
  blocks bl(n1);
  std::vector<std::size_t> c1(bl.count + 1), c2(bl.count + 1), out(bl.count + 1);
  c1[bl.count] = n1;
  c2[bl.count] = n2;
  for (std::size_t k = 1; k < bl.count; k++) {
    It1 x = adv(first1, bl.lo(k));
    c1[k] = dist(first1, std::lower_bound(first1, x, *x, std::ref(cmp)));
    c2[k] = dist(first2, std::lower_bound(first2, last2, *x, std::ref(cmp)));
  }
  for (std::size_t k = 1; k < bl.count; k++) { /* monotone even on unsorted input (UB) */
    c1[k] = std::max(c1[k], c1[k - 1]);
    c2[k] = std::max(c2[k], c2[k - 1]);
  }
  const std::size_t unit = ADAPT_STL_BLOCK * (sizeof(value_t<It1>) + sizeof(value_t<Out>));
  auto part = [&](std::size_t k, auto o) {
    return op(adv(first1, c1[k]), adv(first1, c1[k + 1]), adv(first2, c2[k]),
              adv(first2, c2[k + 1]), o);
  };
  par_map(pol.attr(ADAPT_STL_BLOCK), name, bl.count, unit,
          [&](adapt_seq *, std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; k++) out[k + 1] = part(k, count_out{}).n;
          });
  for (std::size_t k = 0; k < bl.count; k++) out[k + 1] += out[k];
  par_map(pol.attr(ADAPT_STL_BLOCK), name, bl.count, unit,
          [&](adapt_seq *, std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; k++) part(k, adv(d, out[k]));
          });
  return adv(d, out[bl.count]);
}

} // namespace detail

/* std::set_union: the sorted union (an element present m times in the
 * first range and k in the second appears max(m, k) times: the m of the
 * first, then the k - m last of the second). */
template <class It1, class It2, class Out, class Cmp = std::less<>>
Out set_union(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
              Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It1, It2, Out>) {
    return std::set_union(first1, last1, first2, last2, d_first, cmp);
  } else {
    return detail::set_op(pol, "adapt::set_union", first1, last1, first2, last2, d_first, cmp,
                          [&](It1 a, It1 ae, It2 b, It2 be, auto o) {
                            return std::set_union(a, ae, b, be, o, std::ref(cmp));
                          });
  }
}
template <class It1, class It2, class Out, class Cmp = std::less<>, detail::not_policy<It1> = 0>
Out set_union(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, Cmp cmp = {}) {
  return adapt::set_union(par, first1, last1, first2, last2, d_first, std::ref(cmp));
}

/* std::set_intersection: the elements of the first range that the second
 * also holds (min(m, k) times, from the first). */
template <class It1, class It2, class Out, class Cmp = std::less<>>
Out set_intersection(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
                     Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It1, It2, Out>) {
    return std::set_intersection(first1, last1, first2, last2, d_first, cmp);
  } else {
    return detail::set_op(pol, "adapt::set_intersection", first1, last1, first2, last2, d_first,
                          cmp, [&](It1 a, It1 ae, It2 b, It2 be, auto o) {
                            return std::set_intersection(a, ae, b, be, o, std::ref(cmp));
                          });
  }
}
template <class It1, class It2, class Out, class Cmp = std::less<>, detail::not_policy<It1> = 0>
Out set_intersection(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, Cmp cmp = {}) {
  return adapt::set_intersection(par, first1, last1, first2, last2, d_first, std::ref(cmp));
}

/* std::set_difference: the elements of the first range that the second
 * does not hold (max(m - k, 0) times, the last ones of the first). */
template <class It1, class It2, class Out, class Cmp = std::less<>>
Out set_difference(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
                   Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It1, It2, Out>) {
    return std::set_difference(first1, last1, first2, last2, d_first, cmp);
  } else {
    return detail::set_op(pol, "adapt::set_difference", first1, last1, first2, last2, d_first, cmp,
                          [&](It1 a, It1 ae, It2 b, It2 be, auto o) {
                            return std::set_difference(a, ae, b, be, o, std::ref(cmp));
                          });
  }
}
template <class It1, class It2, class Out, class Cmp = std::less<>, detail::not_policy<It1> = 0>
Out set_difference(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, Cmp cmp = {}) {
  return adapt::set_difference(par, first1, last1, first2, last2, d_first, std::ref(cmp));
}

/* std::set_symmetric_difference: the elements of either range that the
 * other does not hold (|m - k| times), sorted. */
template <class It1, class It2, class Out, class Cmp = std::less<>>
Out set_symmetric_difference(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2,
                             Out d_first, Cmp cmp = {}) {
  if constexpr (!detail::writable_v<It1, It2, Out>) {
    return std::set_symmetric_difference(first1, last1, first2, last2, d_first, cmp);
  } else {
    return detail::set_op(pol, "adapt::set_symmetric_difference", first1, last1, first2, last2,
                          d_first, cmp, [&](It1 a, It1 ae, It2 b, It2 be, auto o) {
                            return std::set_symmetric_difference(a, ae, b, be, o, std::ref(cmp));
                          });
  }
}
template <class It1, class It2, class Out, class Cmp = std::less<>, detail::not_policy<It1> = 0>
Out set_symmetric_difference(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
                             Cmp cmp = {}) {
  return adapt::set_symmetric_difference(par, first1, last1, first2, last2, d_first, std::ref(cmp));
}

} // namespace adapt

#endif /* ADAPT_STL_SET_HPP */
