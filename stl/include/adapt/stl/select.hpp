/* The order-keeping variable-output algorithms of <adapt/stl.hpp>
 * (included by it, through <adapt/stl/algorithms.hpp>): remove, remove_if,
 * remove_copy, remove_copy_if, unique, unique_copy, partition_copy.
 *
 * One pass, the test called once per element (unique: once per pair of
 * neighbours), as copy_if: the calling thread (the master, from the front)
 * puts each kept element at its final place at once; a stolen piece
 * records the indices of its kept (partition_copy: also of its rejected)
 * elements, one list per chunk, and when the master reaches it the
 * elements are assigned to their place, each once (a parallel map over
 * the lists when they hold ADAPT_STL_NESTED_MIN elements or more and the
 * output is another range; in place, in order on the calling thread: an
 * element only moves towards the front, over elements already read).
 * unique compares neighbours (its predicate is an equivalence, as std
 * requires): a piece's first element waits for the merge, where its
 * predecessor's piece is known (in place: the master compares it with the
 * last element it kept, as std does). The schedulers do not apply (merges
 * in sequence order); the policy's other attributes do. */
#ifndef ADAPT_STL_SELECT_HPP
#define ADAPT_STL_SELECT_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace adapt {
namespace detail {

/* Rules: keep(i) tests element i (pairwise: against element i - 1, both
 * unread by any move); keep_master(i, pos) tests element i when the
 * master's output holds pos elements. */
template <class It, class Pred, bool Want>
struct test_rule { /* keep when pred(x) == Want */
  static constexpr bool pairwise = false;
  It first;
  Pred &pred;
  bool keeps(ref_t<It> x) { return static_cast<bool>(pred(x)) == Want; }
  bool keep(std::size_t i) { return keeps(*adv(first, i)); }
  bool keep_master(std::size_t i, std::size_t) { return keep(i); }
  /* The master's chunk to other ranges: std's algorithm. */
  template <class Out>
  Out copy(It b, It e, Out o) {
    if constexpr (Want)
      return std::copy_if(b, e, o, std::ref(pred));
    else
      return std::remove_copy_if(b, e, o, std::ref(pred));
  }
  template <class Out1, class Out2>
  std::pair<Out1, Out2> copy(It b, It e, Out1 o1, Out2 o2) {
    if constexpr (Want) {
      return std::partition_copy(b, e, o1, o2, std::ref(pred));
    } else {
      auto r = std::partition_copy(b, e, o2, o1, std::ref(pred));
      return {r.second, r.first};
    }
  }
};
template <class It, class Pred, bool InPlace>
struct unique_rule {
  static constexpr bool pairwise = true;
  It first;
  Pred &pred;
  bool keep(std::size_t i) { return !pred(*adv(first, i - 1), *adv(first, i)); }
  bool keep_master(std::size_t i, std::size_t pos) {
    if (pos == 0) return true;
    if constexpr (InPlace) return !pred(*adv(first, pos - 1), *adv(first, i));
    return keep(i);
  }
  /* The master's chunk from a kept first element to another range. */
  template <class Out>
  Out copy(It b, It e, Out o) {
    return std::unique_copy(b, e, o, std::ref(pred));
  }
};

/* The kernel; Out2 = std::nullptr_t: rejected elements are dropped. */
template <bool InPlace, class It, class Rule, class Out1, class Out2>
struct select_ops {
  static constexpr bool two = !std::is_same_v<Out2, std::nullptr_t>;
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  using list = std::vector<std::size_t>;
  struct master {
    std::size_t pos1 = 0, pos2 = 0;
  };
  struct piece {
    std::vector<list> kept, rejected; /* one list per chunk, in order */
    std::size_t start = none;         /* the piece's first element */
  };
  using master_type = master;
  using piece_type = piece;
  It first;
  Rule &rule;
  Out1 d1;
  Out2 d2;

  void put1(std::size_t pos, std::size_t i) {
    if constexpr (InPlace) {
      if (pos != i) *adv(first, pos) = std::move(*adv(first, i));
    } else {
      *adv(d1, pos) = *adv(first, i);
    }
  }
  void put2(std::size_t pos, std::size_t i) {
    if constexpr (two) *adv(d2, pos) = *adv(first, i);
  }
  void take(master &m, std::size_t i, bool keep) {
    if (keep)
      put1(m.pos1++, i);
    else if constexpr (two)
      put2(m.pos2++, i);
  }
  void run_master(master &m, adapt_seq *, std::size_t b, std::size_t e) {
    if constexpr (InPlace && !Rule::pairwise) { /* std::remove_if's loop */
      It o = adv(first, m.pos1), x = adv(first, b), xe = adv(first, e);
      if (m.pos1 == b) /* nothing removed yet: the kept prefix stays */
        while (x != xe && rule.keeps(*x)) ++x, ++o;
      for (; x != xe; ++x)
        if (rule.keeps(*x)) {
          *o = std::move(*x);
          ++o;
        }
      m.pos1 = dist(first, o);
    } else if constexpr (InPlace) {
      for (std::size_t i = b; i < e; i++) take(m, i, rule.keep_master(i, m.pos1));
    } else {
      if constexpr (Rule::pairwise) /* the chunk's leading run of its predecessor's */
        while (b > 0 && b < e && !rule.keep(b)) b++;
      if (b == e) return;
      Out1 o1 = adv(d1, m.pos1);
      if constexpr (two) {
        Out2 o2 = adv(d2, m.pos2);
        auto r = rule.copy(adv(first, b), adv(first, e), o1, o2);
        m.pos1 += dist(o1, r.first);
        m.pos2 += dist(o2, r.second);
      } else {
        m.pos1 += dist(o1, rule.copy(adv(first, b), adv(first, e), o1));
      }
    }
  }
  void run_piece(piece &p, adapt_seq *, std::size_t b, std::size_t e) {
    if (p.start == none) {
      p.start = b;
      if constexpr (Rule::pairwise) b++; /* decided at the merge */
    }
    list &k = p.kept.emplace_back();
    list *r = two ? &p.rejected.emplace_back() : nullptr;
    for (std::size_t i = b; i < e; i++) {
      if (rule.keep(i))
        k.push_back(i);
      else if (two)
        r->push_back(i);
    }
  }
  /* Assigns the lists' elements from output position pos on (put(pos, i));
   * returns the new position. */
  template <class Put>
  std::size_t place(const std::vector<list> &ls, std::size_t pos, Put &&put) {
    std::size_t total = 0;
    for (const list &l : ls) total += l.size();
    if (InPlace || total < ADAPT_STL_NESTED_MIN || ls.size() < 2) {
      for (const list &l : ls)
        for (std::size_t i : l) put(pos++, i);
      return pos;
    }
    std::vector<std::size_t> off(ls.size());
    for (std::size_t k = 0, p = pos; k < ls.size(); k++) {
      off[k] = p;
      p += ls[k].size();
    }
    /* The bytes of a list, on average: at least 1 (a piece may hold more
     * lists than elements: one list per chunk, most of them empty). */
    const std::size_t list_bytes =
        std::max<std::size_t>(1, total * 2 * sizeof(value_t<It>) / ls.size());
    par_map(policy().window(adapt::window::none).grain(1), "adapt::select", ls.size(), list_bytes,
            [&](adapt_seq *, std::size_t b, std::size_t e) {
              for (std::size_t k = b; k < e; k++)
                for (std::size_t j = 0; j < ls[k].size(); j++) put(off[k] + j, ls[k][j]);
            });
    return pos + total;
  }
  void merge_master(master &m, piece &t, std::size_t, std::size_t) {
    if (Rule::pairwise && t.start != none) take(m, t.start, rule.keep_master(t.start, m.pos1));
    m.pos1 = place(t.kept, m.pos1, [this](std::size_t p, std::size_t i) { put1(p, i); });
    if constexpr (two)
      m.pos2 = place(t.rejected, m.pos2, [this](std::size_t p, std::size_t i) { put2(p, i); });
  }
  void merge_piece(piece &v, piece &t, std::size_t, std::size_t) {
    if (Rule::pairwise && t.start != none && rule.keep(t.start)) v.kept.push_back({t.start});
    for (list &l : t.kept) v.kept.push_back(std::move(l));
    for (list &l : t.rejected) v.rejected.push_back(std::move(l));
  }
};

/* Runs the kernel over [first, first + n); returns the output counts. */
template <bool InPlace, class It, class Rule, class Out1, class Out2 = std::nullptr_t>
std::pair<std::size_t, std::size_t> select(const policy &pol, const char *name, It first,
                                           std::size_t n, Rule rule, Out1 d1, Out2 d2 = nullptr) {
  select_ops<InPlace, It, Rule, Out1, Out2> ops{first, rule, d1, d2};
  typename select_ops<InPlace, It, Rule, Out1, Out2>::master m;
  par_ordered(pol.attr(1, false), name, n, 2 * sizeof(value_t<It>), ops, m);
  return {m.pos1, m.pos2};
}

} // namespace detail

/* std::remove_if: moves the elements not satisfying pred to the front, in
 * order (one move assignment each, none onto itself); returns the new end.
 * The elements past it hold valid unspecified values. */
template <class It, class Pred>
It remove_if(const policy &pol, It first, It last, Pred pred) {
  if constexpr (!detail::writable_v<It>) {
    return std::remove_if(first, last, pred);
  } else {
    detail::test_rule<It, Pred, false> r{first, pred};
    auto c =
        detail::select<true>(pol, "adapt::remove_if", first, detail::dist(first, last), r, first);
    return detail::adv(first, c.first);
  }
}

/* std::remove: remove_if with == value. */
template <class It, class T>
It remove(const policy &pol, It first, It last, const T &value) {
  return adapt::remove_if(pol, first, last, [&value](const auto &x) { return x == value; });
}

/* std::remove_copy_if: copies the elements not satisfying pred, in order
 * (one copy assignment each); returns the output's end. The ranges must
 * not overlap. */
template <class It, class Out, class Pred>
Out remove_copy_if(const policy &pol, It first, It last, Out d_first, Pred pred) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::remove_copy_if(first, last, d_first, pred);
  } else {
    detail::test_rule<It, Pred, false> r{first, pred};
    auto c = detail::select<false>(pol, "adapt::remove_copy_if", first, detail::dist(first, last),
                                   r, d_first);
    return detail::adv(d_first, c.first);
  }
}

/* std::remove_copy: remove_copy_if with == value. */
template <class It, class Out, class T>
Out remove_copy(const policy &pol, It first, It last, Out d_first, const T &value) {
  return adapt::remove_copy_if(pol, first, last, d_first,
                               [&value](const auto &x) { return x == value; });
}

/* std::unique: keeps the first element of every run of consecutive
 * elements equivalent under pred (==), moved to the front in order;
 * returns the new end. pred must be an equivalence (as std requires). */
template <class It, class Pred = std::equal_to<>>
It unique(const policy &pol, It first, It last, Pred pred = {}) {
  if constexpr (!detail::writable_v<It>) {
    return std::unique(first, last, pred);
  } else {
    detail::unique_rule<It, Pred, true> r{first, pred};
    auto c = detail::select<true>(pol, "adapt::unique", first, detail::dist(first, last), r, first);
    return detail::adv(first, c.first);
  }
}

/* std::unique_copy: copies the first element of every run of equivalent
 * neighbours (pred(first[i - 1], first[i]) false), in order; returns the
 * output's end. The ranges must not overlap. */
template <class It, class Out, class Pred = std::equal_to<>>
Out unique_copy(const policy &pol, It first, It last, Out d_first, Pred pred = {}) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::unique_copy(first, last, d_first, pred);
  } else {
    detail::unique_rule<It, Pred, false> r{first, pred};
    auto c = detail::select<false>(pol, "adapt::unique_copy", first, detail::dist(first, last), r,
                                   d_first);
    return detail::adv(d_first, c.first);
  }
}

/* std::partition_copy: the elements satisfying pred to d_true, the others
 * to d_false, each in order (one copy assignment each); returns the two
 * outputs' ends. */
template <class It, class Out1, class Out2, class Pred>
std::pair<Out1, Out2> partition_copy(const policy &pol, It first, It last, Out1 d_true,
                                     Out2 d_false, Pred pred) {
  if constexpr (!detail::writable_v<It, Out1, Out2>) {
    return std::partition_copy(first, last, d_true, d_false, pred);
  } else {
    detail::test_rule<It, Pred, true> r{first, pred};
    auto c = detail::select<false>(pol, "adapt::partition_copy", first, detail::dist(first, last),
                                   r, d_true, d_false);
    return {detail::adv(d_true, c.first), detail::adv(d_false, c.second)};
  }
}

} // namespace adapt

#endif /* ADAPT_STL_SELECT_HPP */
