/* The set operations of <adapt/stl.hpp> (included by it, through
 * <adapt/stl/algorithms.hpp>): set_union, set_intersection,
 * set_difference, set_symmetric_difference, on sorted ranges (multisets,
 * as std).
 *
 * Parts: a cut of the first range at element b is moved back to the start
 * of b's run of equivalent elements, and the second range cut at the lower
 * bound of the same element: every run of equivalent elements of both
 * ranges then lies in one part, so std's algorithm on each pair of parts
 * gives that part's share of std's output.
 *
 * Both ranges of one element type: one adaptive pass over the first range
 * (the sequence engine), std's loop resumed chunk after chunk (set_walk).
 * The calling thread walks its chunks straight into the output, each
 * stopping at the part boundary before the chunk's end, found by a
 * backward search from there (one comparison when the elements are
 * distinct): on one worker, or while no thief comes, std's algorithm and
 * its comparisons plus about one a chunk. A stolen piece finds the
 * boundary before its first unit by two binary searches and walks into a
 * list of the addresses of its output elements; when the calling thread
 * reaches the piece it assigns them at its place (a parallel map when
 * ADAPT_STL_NESTED_MIN of them or more).
 * Other types: two parallel passes over blocks of ADAPT_STL_BLOCK elements
 * of the first range, the first counting each part's output (std's
 * algorithm writing nowhere), the second, after a prefix sum, writing each
 * part at its place (twice std's comparisons, plus two binary searches a
 * block). Either way one copy assignment per output element, as
 * std. The parts follow the first range: a
 * second range much longer than the first is balanced only as far as its
 * elements spread over the first's. The output must not overlap the
 * inputs. */
#ifndef ADAPT_STL_SET_HPP
#define ADAPT_STL_SET_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

namespace adapt {
namespace detail {

/* The member types of an output iterator (std::iterator_traits finds
 * them in a derived iterator). */
struct output_types {
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;
};

/* An output iterator that counts what is written to it. */
struct count_out : output_types {
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

/* A part's boundary: c1 elements of the first range, c2 of the second. */
struct set_cut {
  std::size_t c1, c2;
  bool operator==(const set_cut &o) const { return c1 == o.c1 && c2 == o.c2; }
};

/* An output iterator that records the address of each element assigned to
 * it (an lvalue of one of the inputs) in a list. */
template <class V>
struct addr_out : output_types {
  std::vector<const V *> *list;
  addr_out &operator*() { return *this; }
  addr_out &operator=(const V &x) {
    list->push_back(std::addressof(x));
    return *this;
  }
  addr_out &operator++() { return *this; }
  addr_out &operator++(int) { return *this; }
};

/* The resumable walk of the set operations, std's loop: A, B, Both say
 * which elements are written (the first range's alone, the second's
 * alone, a pair of equivalent ones: the first's). Walks the first range
 * from p1 to e1 and the second from p2; then, when last, the rest of the
 * second range, else its elements before *e1 (so that the walk stops at a
 * part boundary: p1 at the start of a run of equivalent elements, p2 at
 * the lower bound of the same element). Returns the output's end. */
template <bool A, bool B, bool Both, class It1, class It2, class O, class Cmp>
O set_walk(It1 &p1_, It1 e1, It2 &p2_, It2 e2, bool last, O o, Cmp &cmp) {
  It1 p1 = p1_; /* locals: the output's stores cannot be taken to change them */
  It2 p2 = p2_;
  while (p1 != e1 && p2 != e2) {
    if (cmp(*p1, *p2)) {
      if constexpr (A) *o++ = *p1;
      ++p1;
    } else if (cmp(*p2, *p1)) {
      if constexpr (B) *o++ = *p2;
      ++p2;
    } else {
      if constexpr (Both) *o++ = *p1;
      ++p1;
      ++p2;
    }
  }
  for (; p1 != e1; ++p1)
    if constexpr (A) *o++ = *p1;
  for (; p2 != e2 && (last || cmp(*p2, *e1)); ++p2)
    if constexpr (B) *o++ = *p2;
  p1_ = p1;
  p2_ = p2;
  return o;
}

/* The adaptive kernel (both ranges of element type V): units are the first
 * range's elements; a piece's state is where its walk stands (a part
 * boundary). */
template <bool A, bool B, bool Both, class It1, class It2, class Out, class Cmp>
struct set_ops : two_ranges<It1, It2, Out, Cmp> {
  using V = value_t<It1>;
  struct master {
    std::size_t pos = 0; /* outputs written */
    set_cut at{0, 0};    /* where the walk stands */
  };
  struct piece {
    bool started = false;
    set_cut from{0, 0}, to{0, 0};
    std::vector<const V *> outs;
  };
  using master_type = master;
  using piece_type = piece;
  using base = two_ranges<It1, It2, Out, Cmp>;
  using base::cmp, base::d, base::first1, base::first2, base::n1, base::n2;

  /* The start of the run of elements equivalent to first1[e] (e < n1), at
   * or after lo: searched backwards from e by doubling steps (one
   * comparison when first1[e - 1] differs). At least lo even on unsorted
   * input (UB): the walks never go back, the output stays in bounds. */
  std::size_t run_start(std::size_t e, std::size_t lo) {
    const auto &x = *adv(first1, e);
    std::size_t hi = e;
    for (std::size_t step = 1; hi - lo >= step; step *= 2) {
      std::size_t j = hi - step;
      if (cmp(*adv(first1, j), x)) {
        lo = j + 1;
        break;
      }
      hi = j;
    }
    return dist(first1, std::lower_bound(adv(first1, lo), adv(first1, hi), x, std::ref(cmp)));
  }
  /* Walks from `at` to the part boundary before unit e into o. */
  template <class O>
  O walk(set_cut &at, std::size_t e, O o) {
    It1 p1 = adv(first1, at.c1);
    It2 p2 = adv(first2, at.c2);
    bool last = e >= n1;
    std::size_t e1 = last ? n1 : std::max(run_start(e, at.c1), at.c1);
    o = set_walk<A, B, Both>(p1, adv(first1, e1), p2, adv(first2, n2), last, o, cmp);
    at = {e1, dist(first2, p2)};
    return o;
  }
  void run_master(master &m, adapt_seq *, std::size_t, std::size_t e) {
    Out o = adv(d, m.pos);
    m.pos += dist(o, walk(m.at, e, o));
  }
  void run_piece(piece &p, adapt_seq *, std::size_t b, std::size_t e) {
    if (!p.started) { /* the boundary before b, by binary searches */
      It1 x = adv(first1, b);
      std::size_t c1 = dist(first1, std::lower_bound(first1, x, *x, std::ref(cmp)));
      It2 l2 = std::lower_bound(first2, adv(first2, n2), *adv(first1, c1), std::ref(cmp));
      p.from = p.to = {c1, dist(first2, l2)};
      p.started = true;
    }
    walk(p.to, e, addr_out<V>{{}, &p.outs});
  }
  void merge_master(master &m, piece &t, std::size_t tb, std::size_t te) {
    if (!(t.from == m.at)) { /* unsorted input: the master walks the piece's units */
      run_master(m, nullptr, tb, te);
      return;
    }
    const std::size_t k = t.outs.size(), at = m.pos;
    const V *const *src = t.outs.data();
    auto put = [&](std::size_t b, std::size_t e) {
      Out o = adv(d, at + b);
      for (std::size_t j = b; j < e; ++j, ++o) *o = *src[j];
    };
    if (k < ADAPT_STL_NESTED_MIN)
      put(0, k);
    else
      par_map(policy().window(adapt::window::none), "adapt::set_op", k,
              sizeof(V) + sizeof(value_t<Out>),
              [&](adapt_seq *, std::size_t b, std::size_t e) { put(b, e); });
    m.pos += k;
    m.at = t.to;
  }
  void merge_piece(piece &v, piece &t, std::size_t tb, std::size_t te) {
    if (!(t.from == v.to)) { /* unsorted input: the victim walks the piece's units */
      run_piece(v, nullptr, tb, te);
      return;
    }
    v.outs.insert(v.outs.end(), t.outs.begin(), t.outs.end());
    v.to = t.to;
  }
};

/* The set operation over [first1, last1) and [first2, last2) into d: the
 * adaptive walk (A, B, Both: set_walk) when both ranges hold one element
 * type, else the two passes of set_op with op (std's algorithm); op over
 * the whole ranges, on this thread, when the iterators cannot be written
 * in parallel. */
template <bool A, bool B, bool Both, class It1, class It2, class Out, class Cmp, class Op>
Out set_run(const policy &pol, const char *name, It1 first1, It1 last1, It2 first2, It2 last2,
            Out d, Cmp &cmp, Op &&op) {
  if constexpr (!writable_v<It1, It2, Out>) {
    return op(first1, last1, first2, last2, d);
  } else if constexpr (!std::is_same_v<value_t<It1>, value_t<It2>>) {
    return set_op(pol, name, first1, last1, first2, last2, d, cmp, op);
  } else {
    std::size_t n1 = dist(first1, last1), n2 = dist(first2, last2);
    if (n1 == 0) return op(first1, last1, first2, last2, d);
    using ops_t = set_ops<A, B, Both, It1, It2, Out, Cmp>;
    ops_t ops{{first1, n1, first2, n2, d, cmp}};
    typename ops_t::master m;
    par_ordered(pol.attr(1, false), name, n1,
                (sizeof(value_t<It1>) + sizeof(value_t<Out>)) * (n1 + n2) / n1, ops, m);
    return adv(d, m.pos);
  }
}

} // namespace detail

/* The four public set operations: NAME(pol, first1, last1, first2, last2,
 * d_first, cmp = std::less<>) as std::NAME, returning the end of the
 * output; A, B, Both: set_walk's choice of what each operation keeps
 * (set_run). One definition for the four: they differ in nothing else. */
#define ADAPT_STL_SET_OP(NAME, A, B, BOTH)                                                         \
  template <class It1, class It2, class Out, class Cmp = std::less<>>                              \
  Out NAME(const policy &pol, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,           \
           Cmp cmp = {}) {                                                                         \
    return detail::set_run<A, B, BOTH>(pol, "adapt::" #NAME, first1, last1, first2, last2,         \
                                       d_first, cmp,                                               \
                                       [&](auto... a) { return std::NAME(a..., std::ref(cmp)); }); \
  }

/* std::set_union: the sorted union (an element present m times in the
 * first range and k in the second appears max(m, k) times: the m of the
 * first, then the k - m last of the second). */
ADAPT_STL_SET_OP(set_union, true, true, true)

/* std::set_intersection: the elements of the first range that the second
 * also holds (min(m, k) times, from the first). */
ADAPT_STL_SET_OP(set_intersection, false, false, true)

/* std::set_difference: the elements of the first range that the second
 * does not hold (max(m - k, 0) times, the last ones of the first). */
ADAPT_STL_SET_OP(set_difference, true, false, false)

/* std::set_symmetric_difference: the elements of either range that the
 * other does not hold (|m - k| times), sorted. */
ADAPT_STL_SET_OP(set_symmetric_difference, true, true, false)

#undef ADAPT_STL_SET_OP

} // namespace adapt

#endif /* ADAPT_STL_SET_HPP */
