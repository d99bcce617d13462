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
 * boundary before its first unit by two binary searches and walks
 * recording each step of std's loop in two bits (set_record); when the
 * calling thread reaches the piece it replays the steps at its place
 * without comparing, one segment of the record a unit (a parallel map when
 * ADAPT_STL_NESTED_MIN outputs or more).
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
#include <cstdint>
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

/* A stolen piece's record of its walk: two bits a step of std's loop
 * (set_step), 32 steps a word, cut in segments of at least
 * ADAPT_STL_COPY_SEGMENT steps at word boundaries; each segment starts at
 * a position of both ranges (at) and of the piece's output (out) and at a
 * word of its own. Placing a segment replays its steps from there without
 * comparing (set_ops::place); the record costs a quarter of a byte a step
 * where a list of the outputs' addresses cost 8 bytes an output. */
enum set_step : unsigned {
  step_first = 0,  /* first range's element alone: advance it */
  step_second = 1, /* second range's element alone: advance it */
  step_both = 2    /* a pair of equivalent elements: advance both */
};
struct set_seg {
  set_cut at;
  std::size_t out, word, steps;
};
struct set_record {
  std::vector<std::uint64_t> words;
  std::vector<set_seg> segs;
  std::size_t outs = 0; /* outputs recorded */
  /* Appends t's record (the piece after this one's end). */
  void append(const set_record &t) {
    const std::size_t w0 = words.size(), o0 = outs;
    words.insert(words.end(), t.words.begin(), t.words.end());
    for (set_seg g : t.segs) {
      g.word += w0;
      g.out += o0;
      segs.push_back(g);
    }
    outs += t.outs;
  }
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
    set_record rec;
  };
  /* What step s writes: the first range's element (A: alone, Both: of a
   * pair) or the second's (B). */
  static constexpr bool writes(unsigned s) {
    return s == step_first ? A : s == step_second ? B : Both;
  }
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
    record(p.to, e, p.rec);
  }
  /* walk's steps from `at` to the part boundary before unit e, recorded
   * into r (a new segment) instead of written: set_walk's loop with its
   * bookkeeping (one walk calling a step function for both cost the
   * calling thread's walk 1-1.5 instructions an element, 12.7 -> 13.7-14.2
   * Ir/elem on set_union, as GCC 12 left that walk out of line). */
  void record(set_cut &at, std::size_t e, set_record &r) {
    bool last = e >= n1;
    const std::size_t e1 = last ? n1 : std::max(run_start(e, at.c1), at.c1);
    std::size_t i1 = at.c1, i2 = at.c2, out = r.outs;
    std::uint64_t w = 0;
    unsigned k = 0;
    r.segs.push_back(set_seg{at, out, r.words.size(), 0});
    std::size_t seg_steps = 0;
    auto put = [&](unsigned st) {
      w |= std::uint64_t(st) << (2 * k);
      out += writes(st);
      seg_steps++;
      if (++k == 32) {
        r.words.push_back(w);
        w = 0;
        k = 0;
        if (seg_steps >= ADAPT_STL_COPY_SEGMENT) { /* a new segment from here */
          r.segs.back().steps = seg_steps;
          r.segs.push_back(set_seg{{i1, i2}, out, r.words.size(), 0});
          seg_steps = 0;
        }
      }
    };
    while (i1 != e1 && i2 != n2) {
      const auto &x = *adv(first1, i1);
      const auto &y = *adv(first2, i2);
      if (cmp(x, y)) {
        ++i1;
        put(step_first);
      } else if (cmp(y, x)) {
        ++i2;
        put(step_second);
      } else {
        ++i1;
        ++i2;
        put(step_both);
      }
    }
    while (i1 != e1) {
      ++i1;
      put(step_first);
    }
    while (i2 != n2 && (last || cmp(*adv(first2, i2), *adv(first1, e1)))) {
      ++i2;
      put(step_second);
    }
    if (k) r.words.push_back(w);
    r.segs.back().steps = seg_steps;
    r.outs = out;
    at = {e1, i2};
  }
  /* Replays segment g of r into the output from position at0 + g.out:
   * contiguous ranges choose the source address without a branch. */
  void place(const set_record &r, const set_seg &g, std::size_t at0) {
    constexpr bool addresses = contiguous<It1>::value && contiguous<It2>::value;
    const std::uint64_t *w = r.words.data() + g.word;
    Out o = adv(d, at0 + g.out);
    std::size_t i1 = g.at.c1, i2 = g.at.c2;
    const V *b1 = nullptr, *b2 = nullptr;
    if constexpr (addresses) {
      b1 = std::addressof(*first1); /* n1 >= 1 (set_run) */
      b2 = n2 ? std::addressof(*first2) : nullptr;
    }
    for (std::size_t s = 0; s < g.steps; s++) {
      const unsigned st = unsigned(w[s / 32] >> (2 * (s % 32))) & 3u;
      if (writes(st)) {
        if constexpr (addresses)
          *o = *(st == step_second ? b2 + i2 : b1 + i1);
        else if (st == step_second)
          *o = *adv(first2, i2);
        else
          *o = *adv(first1, i1);
        ++o;
      }
      i1 += st != step_second;
      i2 += st != step_first;
    }
  }
  void merge_master(master &m, piece &t, std::size_t tb, std::size_t te) {
    if (!(t.from == m.at)) { /* unsorted input: the master walks the piece's units */
      run_master(m, nullptr, tb, te);
      return;
    }
    const set_record &r = t.rec;
    const std::size_t k = r.outs, at = m.pos, ns = r.segs.size();
    auto put = [&](std::size_t b, std::size_t e) {
      for (std::size_t j = b; j < e; j++) place(r, r.segs[j], at);
    };
    if (k < ADAPT_STL_NESTED_MIN || ns < 2)
      put(0, ns);
    else
      par_map(policy().window(adapt::window::none), "adapt::set_op", ns,
              ADAPT_STL_COPY_SEGMENT * (sizeof(V) + sizeof(value_t<Out>)),
              [&](adapt_seq *, std::size_t b, std::size_t e) { put(b, e); });
    m.pos += k;
    m.at = t.to;
  }
  void merge_piece(piece &v, piece &t, std::size_t tb, std::size_t te) {
    if (!(t.from == v.to)) { /* unsorted input: the victim walks the piece's units */
      run_piece(v, nullptr, tb, te);
      return;
    }
    v.rec.append(t.rec);
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
