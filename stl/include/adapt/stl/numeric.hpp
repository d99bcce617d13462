/* adjacent_difference, transform_inclusive_scan, transform_exclusive_scan
 * of <adapt/stl.hpp> (included by it, through <adapt/stl/algorithms.hpp>).
 * adjacent_difference is a map; the transform scans are adapt's scans
 * (fixed blocks, deterministic under a deterministic policy, docs/stl.md)
 * reading their input through the unary operation. */
#ifndef ADAPT_STL_NUMERIC_HPP
#define ADAPT_STL_NUMERIC_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <cstddef>
#include <functional>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <utility>

namespace adapt {
namespace detail {

/* A random-access iterator reading uop(*it): the input of the transform
 * scans (only the operations the scans use). */
template <class It, class F>
struct xform_iter {
  using iterator_category = std::random_access_iterator_tag;
  using difference_type = typename std::iterator_traits<It>::difference_type;
  using value_type =
      std::decay_t<std::invoke_result_t<F &, typename std::iterator_traits<It>::reference>>;
  using reference = value_type;
  using pointer = void;
  It it;
  F *f;
  value_type operator*() const { return (*f)(*it); }
  value_type operator[](difference_type k) const { return (*f)(it[k]); }
  xform_iter operator+(difference_type k) const { return {it + k, f}; }
  difference_type operator-(const xform_iter &o) const { return it - o.it; }
};

} // namespace detail

/* std::adjacent_difference: d_first[0] = first[0], d_first[i] =
 * op(first[i], first[i - 1]) (-); returns d_first + n. A map: each output
 * from its two inputs (no accumulator copy). The policy form needs
 * non-overlapping ranges (as std's); the form without a policy also
 * accepts d_first == first (std's sequential form allows it), which runs
 * std::adjacent_difference on the calling thread. */
template <class It, class Out, class Op = std::minus<>>
Out adjacent_difference(const policy &pol, It first, It last, Out d_first, Op op = {}) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::adjacent_difference(first, last, d_first, op);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return d_first;
    detail::par_map(pol, "adapt::adjacent_difference", n,
                    sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>),
                    [&](adapt_seq *, std::size_t b, std::size_t e) {
                      It x = detail::adv(first, b);
                      Out o = detail::adv(d_first, b);
                      if (b == 0) {
                        *o = *x;
                        ++o;
                        ++x;
                        ++b;
                      }
                      for (; b < e; ++b, ++x, ++o) *o = op(*x, *(x - 1));
                    });
    return detail::adv(d_first, n);
  }
}
template <class It, class Out, class Op = std::minus<>, detail::not_policy<It> = 0>
Out adjacent_difference(It first, It last, Out d_first, Op op = {}) {
  if constexpr (std::is_same_v<It, Out>)
    if (first == d_first) return std::adjacent_difference(first, last, d_first, std::ref(op));
  return adapt::adjacent_difference(par, first, last, d_first, std::ref(op));
}

/* std::transform_inclusive_scan: the inclusive scan (op, from init if
 * given) of uop(first[i]); d_first may equal first. uop is called once or
 * twice per element (the block's sum and its output chain read the input
 * separately: std allows O(n) calls). */
template <class It, class Out, class Op, class UOp, class T>
Out transform_inclusive_scan(const policy &pol, It first, It last, Out d_first, Op op, UOp uop,
                             T init) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::transform_inclusive_scan(first, last, d_first, op, uop, std::move(init));
  } else {
    using X = detail::xform_iter<It, UOp>;
    return detail::scan<true, T>(pol, "adapt::transform_inclusive_scan", X{first, &uop},
                                 X{last, &uop}, d_first, op, &init);
  }
}
template <class It, class Out, class Op, class UOp>
Out transform_inclusive_scan(const policy &pol, It first, It last, Out d_first, Op op, UOp uop) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::transform_inclusive_scan(first, last, d_first, op, uop);
  } else {
    using X = detail::xform_iter<It, UOp>;
    using T = typename X::value_type;
    return detail::scan<true, T>(pol, "adapt::transform_inclusive_scan", X{first, &uop},
                                 X{last, &uop}, d_first, op, static_cast<T *>(nullptr));
  }
}

/* std::transform_exclusive_scan: the exclusive scan (op, from init) of
 * uop(first[i]); d_first may equal first. uop as in
 * transform_inclusive_scan. */
template <class It, class Out, class T, class Op, class UOp>
Out transform_exclusive_scan(const policy &pol, It first, It last, Out d_first, T init, Op op,
                             UOp uop) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::transform_exclusive_scan(first, last, d_first, std::move(init), op, uop);
  } else {
    using X = detail::xform_iter<It, UOp>;
    return detail::scan<false, T>(pol, "adapt::transform_exclusive_scan", X{first, &uop},
                                  X{last, &uop}, d_first, op, &init);
  }
}

} // namespace adapt

#endif /* ADAPT_STL_NUMERIC_HPP */
