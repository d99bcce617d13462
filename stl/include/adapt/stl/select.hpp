/* The order-keeping variable-output algorithms of <adapt/stl.hpp>
 * (included by it, through <adapt/stl/algorithms.hpp>): copy_if, remove,
 * remove_if, remove_copy, remove_copy_if, unique, unique_copy,
 * partition_copy. copy_if and remove_copy(_if) (the negated test) have a
 * kernel of their own (copy_if_ops); the others share the two below.
 *
 * One pass, the test called once per element (unique: once per element
 * after the first, as std), under the sequence engine (the calling thread,
 * the master, from the front; the schedulers do not apply: merges in
 * sequence order; the policy's other attributes do).
 *
 * To another range (the _copy algorithms, partition_copy): the master puts
 * each kept element at its final place at once; a stolen piece marks its
 * kept elements as copy_if's pieces do (marks: a bit an element), and when
 * the master reaches it they (partition_copy: and the rejected ones) are
 * assigned to their place from the input, each once (a parallel map over
 * the segments when they span ADAPT_STL_NESTED_MIN elements or more; by
 * streaming stores when the call is large: stream_select, stream_writer).
 *
 * In place (remove, remove_if, unique): every piece compacts its own units
 * towards its front as std's loop does (the master's from the range's
 * front), so a piece's survivors form a few segments of its range (one,
 * plus one per thief merged into it: no per-element memory); when the
 * master reaches a piece it moves the piece's segments down after its own
 * survivors, in order (in rounds of at most the gap's length, each a
 * parallel move from ADAPT_STL_NESTED_MIN elements on). An element moves
 * at most twice (its piece's compaction, then the master's merge), never
 * onto itself. unique compares each element with the last element kept
 * before it (std's loop; the same runs as neighbours, its predicate being
 * an equivalence as std requires): a piece's first element with the
 * survivors of the piece before it, at the merge. */
#ifndef ADAPT_STL_SELECT_HPP
#define ADAPT_STL_SELECT_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace adapt {
namespace detail {

/* A stolen piece's record of which elements of its units it selected:
 * one bit an element, in segments of at most ADAPT_STL_COPY_SEGMENT
 * consecutive elements (each with its first element and its count of
 * selected ones), in sequence order. When the master reaches the piece,
 * the output offset is known: the selected elements are assigned to their
 * place from the input, each once, one segment per unit of a nested
 * parallel map when the segments hold ADAPT_STL_NESTED_MIN elements or
 * more. A bit costs 1/64 of a double's copy: the piece writes no copy of
 * its elements (one would be written, read back, and its pages faulted in
 * afresh at each call). A piece merged into another hands its segments
 * over (no copy). */
struct marks {
  using word = unsigned long long;
  static constexpr std::size_t bits = 64;
  struct segment {
    std::size_t start, len, kept; /* first element, elements marked, selected */
    std::unique_ptr<word[]> w;    /* ceil(ADAPT_STL_COPY_SEGMENT / 64) words */
  };
  std::vector<segment> segs;

  static constexpr std::size_t words = (ADAPT_STL_COPY_SEGMENT + bits - 1) / bits;

  /* Marks the elements [b, e), element i selected when keep(i); appends
   * to the last segment when [b, e) follows it. */
  template <class Keep>
  void add(std::size_t b, std::size_t e, Keep &&keep) {
    while (b < e) {
      if (segs.empty() || segs.back().start + segs.back().len != b ||
          segs.back().len == ADAPT_STL_COPY_SEGMENT)
        segs.push_back(segment{b, 0, 0, std::unique_ptr<word[]>(new word[words]())});
      segment &s = segs.back();
      const std::size_t m = std::min<std::size_t>(e - b, ADAPT_STL_COPY_SEGMENT - s.len);
      std::size_t c = 0;
      for (std::size_t k = 0; k < m;) { /* a word at a time, no branch per element */
        const std::size_t j = s.len + k, bit = j % bits,
                          q = std::min<std::size_t>(bits - bit, m - k);
        word x = 0;
        for (std::size_t t = 0; t < q; t++)
          x |= static_cast<word>(static_cast<bool>(keep(b + k + t))) << (bit + t);
        s.w[j / bits] |= x;
        c += static_cast<std::size_t>(__builtin_popcountll(x));
        k += q;
      }
      s.len += m;
      s.kept += c;
      b += m;
    }
  }
  /* Selects the first element of the first segment (marked unselected). */
  void select_first() {
    segs.front().w[0] |= 1;
    segs.front().kept++;
  }
  /* The selected elements of every segment. */
  std::size_t selected() const {
    std::size_t c = 0;
    for (const segment &sg : segs) c += sg.kept;
    return c;
  }
  /* Appends t's segments (t is left empty). */
  void take(marks &t) {
    for (segment &sg : t.segs) segs.push_back(std::move(sg));
    t.segs.clear();
  }
  /* put(segment, selected, position) for each segment (selected: whether
   * the selected elements or the others are wanted), the positions from
   * pos on in order; one segment per unit of a nested parallel map
   * (unit_bytes each) from ADAPT_STL_NESTED_MIN elements and two segments
   * on. Returns pos + the count placed. */
  template <class Put>
  std::size_t place(const char *name, bool selected, std::size_t pos, std::size_t unit_bytes,
                    Put &&put) const {
    const std::size_t ns = segs.size();
    std::size_t len = 0;
    for (const segment &sg : segs) len += sg.len;
    if (len < ADAPT_STL_NESTED_MIN || ns < 2) {
      for (const segment &sg : segs) pos = put(sg, selected, pos);
      return pos;
    }
    std::vector<std::size_t> off(ns); /* output offset of each segment */
    for (std::size_t k = 0; k < ns; k++) {
      off[k] = pos;
      pos += selected ? segs[k].kept : segs[k].len - segs[k].kept;
    }
    par_map(policy().window(adapt::window::none).grain(1), name, ns, unit_bytes,
            [&](adapt_seq *, std::size_t b, std::size_t e) {
              for (std::size_t k = b; k < e; k++) put(segs[k], selected, off[k]);
            });
    return pos;
  }
};

/* Whether a selection from It to Out may stream its placements: copy's
 * types (streamable_v), trivial (stream_writer's buffer), of a size that
 * divides a cache line (a line's boundary never splits an element). */
template <class It, class Out>
constexpr bool stream_selectable() {
  if constexpr (streamable_v<It, Out>) {
    using V = value_t<It>;
    return std::is_trivial_v<V> && ADAPT_STL_STREAM_LINE % sizeof(V) == 0;
  } else {
    return false;
  }
}

/* Whether the selections to another range stream their output: copy's
 * rule (stream_copy_worth) judged on the input's n elements (a bound on
 * the output's), for the types of stream_selectable. */
template <class It, class Out>
bool stream_select(const policy &pol, std::size_t n) {
  if constexpr (stream_selectable<It, Out>())
    return stream_copy_worth(pol, n * sizeof(value_t<It>));
  else
    return false;
}

/* The output of one segment of a stolen piece placed by a merge, when the
 * selection streams: the elements it is given, in order, from o on. A run
 * of whole cache lines is streamed from the input directly
 * (stream_bytes_unfenced); single elements gather in a buffer on the
 * stack, whose whole lines of output are streamed each time it fills, the
 * rest (less than a line) staying for the next. A partial line (the
 * output's first and last, which the neighbouring segments, placed by
 * other workers at the same time, share) is written with ordinary stores,
 * so two workers never stream to one line. An output not aligned to the
 * element's size is written with ordinary stores throughout. The caller
 * guarantees room for what it gives; finish() is called once, at the end,
 * and fences the streaming stores (one fence a segment, not one a buffer:
 * a fence waits for the write-combining buffers to drain). */
template <class V, class Out>
class stream_writer {
public:
  static constexpr std::size_t line = ADAPT_STL_STREAM_LINE / sizeof(V); /* elements */
  static constexpr std::size_t cap = ADAPT_STL_STREAM_BUFFER / sizeof(V);
  static_assert(cap >= 2 * line, "ADAPT_STL_STREAM_BUFFER must hold two cache lines");

  explicit stream_writer(Out o) : o_(o) {}
  stream_writer(const stream_writer &) = delete;
  stream_writer &operator=(const stream_writer &) = delete;

  void push(const V &x) {
    if (k_ == cap) drain();
    buf_[k_++] = x;
  }
  /* The k elements from p (contiguous): whole lines streamed from p
   * directly, the rest through the buffer. */
  void append(const V *p, std::size_t k) {
    if (k >= 2 * line) start(); /* aligned_ known */
    if (aligned_ && k >= 2 * line) {
      const std::size_t head = (line - (lines_at(k_) % line)) % line; /* to the next line */
      if (cap - k_ < head) drain();                                   /* d_ + k_ stays */
      std::copy(p, p + head, buf_ + k_);
      k_ += head, p += head, k -= head;
      drain(); /* the buffer ends on a line: all of it goes */
      const std::size_t body = k / line * line;
      stream_bytes_unfenced(d_, p, body * sizeof(V));
      streamed_ = true;
      d_ += body, count_ += body, p += body, k -= body;
    }
    while (k > 0) {
      const std::size_t m = std::min(k, cap - k_);
      std::copy(p, p + m, buf_ + k_);
      k_ += m, p += m, k -= m;
      if (k_ == cap) drain();
    }
  }
  /* Writes what is left (ordinary stores); returns the output's end. */
  Out finish() {
    if (k_ > 0) {
      start();
      std::memcpy(static_cast<void *>(d_), buf_, k_ * sizeof(V));
      d_ += k_;
      count_ += k_;
      k_ = 0;
    }
    if (streamed_) stream_fence(); /* before the segment's end is published: stream_fence */
    return adv(o_, count_);
  }

private:
  /* The output's address, once something is to be written there (o_ may
   * be its end before). */
  void start() {
    if (d_ == nullptr) {
      d_ = std::addressof(*adv(o_, count_));
      aligned_ = reinterpret_cast<std::uintptr_t>(d_) % sizeof(V) == 0;
    }
  }
  /* Elements from the output's last line boundary to buffer position i. */
  std::size_t lines_at(std::size_t i) const {
    return (reinterpret_cast<std::uintptr_t>(d_ + i) % ADAPT_STL_STREAM_LINE) / sizeof(V);
  }
  /* Writes the buffer's whole lines of output (ordinary stores before the
   * first line boundary); keeps the rest at the buffer's front. */
  void drain() {
    if (k_ == 0) return;
    start();
    std::size_t out = k_;
    if (aligned_) {
      const std::size_t lead = std::min(k_, (line - lines_at(0)) % line),
                        whole = (k_ - lead) / line * line;
      if (lead > 0) std::memcpy(static_cast<void *>(d_), buf_, lead * sizeof(V));
      if (whole > 0) {
        stream_bytes_unfenced(d_ + lead, buf_ + lead, whole * sizeof(V));
        streamed_ = true;
      }
      out = lead + whole;
    } else {
      std::memcpy(static_cast<void *>(d_), buf_, out * sizeof(V));
    }
    std::memmove(static_cast<void *>(buf_), buf_ + out, (k_ - out) * sizeof(V));
    d_ += out;
    count_ += out;
    k_ -= out;
  }

  Out o_;                 /* the output's first position */
  V *d_ = nullptr;        /* where buf_[0] goes (null: not known yet) */
  bool aligned_ = false;  /* d_ aligned to sizeof(V): lines stream */
  bool streamed_ = false; /* a streaming store was made: finish() fences */
  std::size_t count_ = 0; /* elements written */
  std::size_t k_ = 0;     /* elements in buf_ */
  alignas(ADAPT_STL_STREAM_LINE) V buf_[cap];
};

/* Assigns the elements of sg's range of first that sel wants (the
 * selected ones, or the others) to o on, in order, each once from the
 * input; returns how many. A run of whole words of wanted elements is
 * copied as one range; the other words bit by bit. Stream: through a
 * stream_writer. */
template <bool Stream, class It, class Out>
std::size_t place_segment(const marks::segment &sg, bool sel, It first, Out o) {
  using word = marks::word;
  constexpr std::size_t bits = marks::bits;
  std::size_t placed = 0, run = 0; /* run: wanted, before j, not copied yet */
  using W = std::conditional_t<Stream, stream_writer<value_t<It>, Out>, Out>;
  W w(o);
  auto flush = [&](std::size_t j) {
    It r = adv(first, sg.start + j - run);
    if constexpr (Stream)
      w.append(std::addressof(*r), run);
    else
      w = std::copy(r, adv(r, run), w);
    placed += run;
    run = 0;
  };
  for (std::size_t j = 0; j < sg.len; j += bits) {
    const std::size_t q = std::min<std::size_t>(bits, sg.len - j);
    const word valid = q == bits ? ~word(0) : (word(1) << q) - 1;
    word x = (sel ? sg.w[j / bits] : ~sg.w[j / bits]) & valid;
    if (x == valid) {
      run += q;
      continue;
    }
    if (run > 0) flush(j);
    It in = adv(first, sg.start + j);
    for (; x != 0; x &= x - 1, ++placed) {
      It at = adv(in, static_cast<std::size_t>(__builtin_ctzll(x)));
      if constexpr (Stream) {
        w.push(*at);
      } else {
        *w = *at;
        ++w;
      }
    }
  }
  if (run > 0) flush(sg.len);
  if constexpr (Stream) w.finish();
  return placed;
}

/* Assigns the elements of first that ms marks (selected, or the others)
 * to d from output position pos on, in order (place_segment; streamed when
 * stream); returns the new position. */
template <class It, class Out>
std::size_t place_marks(const char *name, const marks &ms, bool selected, It first, Out d,
                        std::size_t pos, bool stream) {
  return ms.place(name, selected, pos,
                  ADAPT_STL_COPY_SEGMENT * (sizeof(value_t<It>) + sizeof(value_t<Out>)),
                  [&](const marks::segment &sg, bool sel, std::size_t at) {
                    if constexpr (stream_selectable<It, Out>())
                      if (stream) return at + place_segment<true>(sg, sel, first, adv(d, at));
                    return at + place_segment<false>(sg, sel, first, adv(d, at));
                  });
}

/* --- copy_if ------------------------------------------------------------ */
/* One pass, pred called once per element. The master (the calling thread,
 * from the front) copies each selected element to its final place at once.
 * A stolen piece cannot: its output offset (the count of selected elements
 * before it) is known only when the master reaches it. It marks its
 * selected elements (marks, above), and when a piece reaches the master
 * they are copied to their place from the input, one segment per unit of
 * a nested parallel map when they span ADAPT_STL_NESTED_MIN elements or
 * more. The master's selection is branch-free for the staged types (each
 * element is stored, the count advances by pred's result: a
 * half-selecting predicate costs no mispredicted branch; it stages
 * ADAPT_STL_COPY_STAGE elements on its stack, since it must not write past
 * the output's end); a piece's marking is branch-free for every type. */
template <class It, class Out, class Pred>
struct copy_if_ops {
  using V = value_t<It>;
  static constexpr bool staged = std::is_trivial_v<V> && sizeof(V) <= 16;
  struct master {
    std::size_t pos = 0;
  };
  using piece = marks;
  using master_type = master;
  using piece_type = piece;
  It first;
  Out d;
  Pred &pred;
  bool stream;      /* the merges stream their output (stream_select) */
  const char *name; /* the algorithm's, for the merges' nested maps */

  /* Branch-free: x stored at dst[c], c advanced by pred's result (x an
   * lvalue for pred, as std's copy_if passes it). */
  template <class X>
  std::size_t stage_one(V *dst, std::size_t c, X &&x) {
    const bool keep = static_cast<bool>(pred(x));
    dst[c] = x;
    return c + keep;
  }

  /* The n elements from it so, into dst from 0; returns how many were
   * kept. Four a step, written out (the loop's own cost; GCC does not
   * unroll a loop of 4 at -O2). */
  std::size_t stage_run(V *dst, It it, std::size_t n) {
    std::size_t c = 0, i = 0;
    for (; n - i >= 4; i += 4, it += 4) {
      c = stage_one(dst, c, it[0]);
      c = stage_one(dst, c, it[1]);
      c = stage_one(dst, c, it[2]);
      c = stage_one(dst, c, it[3]);
    }
    for (; i < n; ++i, ++it) c = stage_one(dst, c, *it);
    return c;
  }

  void run_master(master &m, adapt_seq *, std::size_t b, std::size_t e) {
    Out o = adv(d, m.pos);
    std::size_t k = 0; /* a local: stores to the output cannot alias it */
    if constexpr (staged) {
      V stage[ADAPT_STL_COPY_STAGE];
      for (std::size_t i = b; i < e;) {
        const std::size_t len = std::min<std::size_t>(e - i, ADAPT_STL_COPY_STAGE),
                          c = stage_run(stage, adv(first, i), len);
        i += len;
        o = std::copy(stage, stage + c, o);
        k += c;
      }
    } else {
      It it = adv(first, b);
      for (std::size_t i = b; i < e; ++i, ++it)
        if (pred(*it)) {
          *o = *it;
          ++o;
          k++;
        }
    }
    m.pos += k;
  }
  void run_piece(piece &p, adapt_seq *, std::size_t b, std::size_t e) {
    p.add(b, e, [this](std::size_t i) { return pred(*adv(first, i)); });
  }
  void merge_master(master &m, piece &t, std::size_t, std::size_t) {
    m.pos = place_marks(name, t, true, first, d, m.pos, stream);
  }
  void merge_piece(piece &v, piece &t, std::size_t, std::size_t) { v.take(t); }
};

/* copy_if's kernel over [first, first + n) into d (pred an lvalue, called
 * once per element); returns the output's end. */
template <class It, class Out, class Pred>
Out copy_if_run(const policy &pol, const char *name, It first, std::size_t n, Out d, Pred &pred) {
  copy_if_ops<It, Out, Pred> ops{first, d, pred, stream_select<It, Out>(pol, n), name};
  typename copy_if_ops<It, Out, Pred>::master m;
  par_ordered(pol.attr(1, false), name, n, sizeof(value_t<It>) + sizeof(value_t<Out>), ops, m);
  return adv(d, m.pos);
}

/* Rules: keep(i) tests element i (pairwise: against element i - 1, both
 * unread by any move); in place, keeps(x) (pairwise: keeps(kept, x),
 * against the last element kept before x). */
template <class It, class Pred, bool Want>
struct test_rule { /* keep when pred(x) == Want */
  static constexpr bool pairwise = false;
  It first;
  Pred &pred;
  bool keeps(ref_t<It> x) { return static_cast<bool>(pred(x)) == Want; }
  bool keep(std::size_t i) { return keeps(*adv(first, i)); }
  /* The master's chunk to two ranges (partition_copy): std's algorithm. */
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
template <class It, class Pred>
struct unique_rule {
  static constexpr bool pairwise = true;
  It first;
  Pred &pred;
  bool keep(std::size_t i) { return !pred(*adv(first, i - 1), *adv(first, i)); }
  bool keeps(ref_t<It> kept, ref_t<It> x) { return !pred(kept, x); }
  /* The master's chunk from a kept first element to another range. */
  template <class Out>
  Out copy(It b, It e, Out o) {
    return std::unique_copy(b, e, o, std::ref(pred));
  }
};

/* The kernel to other ranges; Out2 = std::nullptr_t: rejected elements
 * are dropped. A stolen piece marks its kept elements as copy_if's pieces
 * do (marks: the rejected ones are the others), from its second element
 * on when the rule is pairwise (its first is decided at the merge, against
 * the last element kept before it). */
template <class It, class Rule, class Out1, class Out2>
struct select_ops {
  static constexpr bool two = !std::is_same_v<Out2, std::nullptr_t>;
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  struct master {
    std::size_t pos1 = 0, pos2 = 0;
  };
  struct piece {
    marks kept;
    std::size_t start = none; /* the piece's first element */
  };
  using master_type = master;
  using piece_type = piece;
  It first;
  Rule &rule;
  Out1 d1;
  Out2 d2;
  bool stream; /* the merges stream their outputs (stream_select) */

  using V = value_t<It>;
  /* partition_copy of a trivial type of at most 16 bytes (an element
   * reference, no proxy): the master's chunks branch-free, as copy_if's. */
  static constexpr bool staged =
      !Rule::pairwise && std::is_trivial_v<V> && sizeof(V) <= 16 &&
      std::is_lvalue_reference_v<ref_t<It>> &&
      std::is_same_v<std::remove_cv_t<std::remove_reference_t<ref_t<It>>>, V>;

  /* The master's chunk [b, e) to both outputs, branch-free: each element
   * stored to both of two stages on the stack, each count advanced by its
   * side of the test (std's partition_copy mispredicts a branch per
   * element on unsorted data), the stages then copied out. */
  void stage_two(master &m, std::size_t b, std::size_t e) {
    V s1[ADAPT_STL_COPY_STAGE], s2[ADAPT_STL_COPY_STAGE];
    Out1 o1 = adv(d1, m.pos1);
    Out2 o2 = adv(d2, m.pos2);
    It x = adv(first, b);
    std::size_t k1 = 0, k2 = 0; /* locals: stores to the outputs cannot alias them */
    while (b < e) {
      const std::size_t len = std::min<std::size_t>(e - b, ADAPT_STL_COPY_STAGE);
      std::size_t c1 = 0, c2 = 0;
      for (std::size_t j = 0; j < len; ++j, ++x) {
        const bool keep = rule.keeps(*x);
        const V v = *x;
        s1[c1] = v;
        s2[c2] = v;
        c1 += keep;
        c2 += !keep;
      }
      o1 = std::copy(s1, s1 + c1, o1);
      o2 = std::copy(s2, s2 + c2, o2);
      k1 += c1, k2 += c2, b += len;
    }
    m.pos1 += k1;
    m.pos2 += k2;
  }

  void run_master(master &m, adapt_seq *, std::size_t b, std::size_t e) {
    if constexpr (Rule::pairwise) /* the chunk's leading run of its predecessor's */
      while (b > 0 && b < e && !rule.keep(b)) b++;
    if (b == e) return;
    if constexpr (two && staged) {
      stage_two(m, b, e);
    } else if constexpr (two) {
      Out1 o1 = adv(d1, m.pos1);
      Out2 o2 = adv(d2, m.pos2);
      auto r = rule.copy(adv(first, b), adv(first, e), o1, o2);
      m.pos1 += dist(o1, r.first);
      m.pos2 += dist(o2, r.second);
    } else {
      Out1 o1 = adv(d1, m.pos1);
      m.pos1 += dist(o1, rule.copy(adv(first, b), adv(first, e), o1));
    }
  }
  void run_piece(piece &p, adapt_seq *, std::size_t b, std::size_t e) {
    if (p.start == none) {
      p.start = b;
      if constexpr (Rule::pairwise) { /* decided at the merge */
        p.kept.add(b, b + 1, [](std::size_t) { return false; });
        b++;
      }
    }
    p.kept.add(b, e, [this](std::size_t i) { return rule.keep(i); });
  }
  void merge_master(master &m, piece &t, std::size_t, std::size_t) {
    if (Rule::pairwise && t.start != none && (m.pos1 == 0 || rule.keep(t.start)))
      t.kept.select_first();
    m.pos1 = place_marks("adapt::select", t.kept, true, first, d1, m.pos1, stream);
    if constexpr (two)
      m.pos2 = place_marks("adapt::select", t.kept, false, first, d2, m.pos2, stream);
  }
  void merge_piece(piece &v, piece &t, std::size_t, std::size_t) {
    if (Rule::pairwise && t.start != none && rule.keep(t.start)) t.kept.select_first();
    v.kept.take(t.kept);
  }
};

/* Runs the kernel over [first, first + n) into d1 (and d2); returns the
 * output counts. */
template <class It, class Rule, class Out1, class Out2 = std::nullptr_t>
std::pair<std::size_t, std::size_t> select(const policy &pol, const char *name, It first,
                                           std::size_t n, Rule rule, Out1 d1, Out2 d2 = nullptr) {
  bool stream = stream_select<It, Out1>(pol, n);
  if constexpr (!std::is_null_pointer_v<Out2>) stream = stream && stream_select<It, Out2>(pol, n);
  select_ops<It, Rule, Out1, Out2> ops{first, rule, d1, d2, stream};
  typename select_ops<It, Rule, Out1, Out2>::master m;
  par_ordered(pol.attr(1, false), name, n, 2 * sizeof(value_t<It>), ops, m);
  return {m.pos1, m.pos2};
}

/* The in-place kernel (remove_if, unique). A segment [start, start + len)
 * holds survivors in order; the master's is [0, pos). A piece's segments
 * are in sequence order, the last one the one its chunks compact onto
 * (every position after it and before the piece's next unit is dead:
 * moved from, or a rejected element). */
template <class It, class Rule>
struct compact_ops {
  struct seg {
    std::size_t start = 0, len = 0;
  };
  struct piece {
    std::vector<seg> segs;
    bool pending = false; /* pairwise: segs[0]'s first element awaits the merge */
  };
  using master_type = seg;
  using piece_type = piece;
  It first;
  Rule &rule;
  policy pol; /* of the call, for the parallel moves */

  using V = value_t<It>;
  /* remove_if of a trivial type of at most 16 bytes (an element reference,
   * no proxy): branch-free, as copy_if's staging. */
  static constexpr bool branch_free =
      !Rule::pairwise && std::is_trivial_v<V> && sizeof(V) <= 16 && std::is_same_v<ref_t<It>, V &>;

  /* Branch-free: x (an element, read by the test in place) stored at
   * o[c], c advanced by the test's result. o + c is at most x's position
   * (a dead slot, or x itself), never an element still to be read. */
  std::size_t keep_one(It o, std::size_t c, V &x) {
    const bool keep = rule.keeps(x);
    const V v = x;
    *adv(o, c) = v;
    return c + keep;
  }

  /* Compacts the units [b, e) onto the end of s (which ends at or before
   * b); pairwise, an empty s keeps unit b (the master's first unit, or a
   * piece's: then pending). */
  void compact(seg &s, std::size_t b, std::size_t e) {
    It o = adv(first, s.start + s.len), x = adv(first, b), xe = adv(first, e);
    if constexpr (branch_free) { /* eight a step, written out (as copy_if's stage_run) */
      std::size_t c = 0, i = 0, n = e - b;
      for (; n - i >= 8; i += 8, x += 8) {
        c = keep_one(o, c, x[0]);
        c = keep_one(o, c, x[1]);
        c = keep_one(o, c, x[2]);
        c = keep_one(o, c, x[3]);
        c = keep_one(o, c, x[4]);
        c = keep_one(o, c, x[5]);
        c = keep_one(o, c, x[6]);
        c = keep_one(o, c, x[7]);
      }
      for (; i < n; ++i, ++x) c = keep_one(o, c, *x);
      o = adv(o, c);
    } else if constexpr (Rule::pairwise) { /* o: one past the last kept */
      if (s.len == 0 && x != xe) {
        if (o != x) *o = std::move(*x);
        ++o, ++x;
      }
      for (; x != xe; ++x)
        if (rule.keeps(*std::prev(o), *x)) {
          if (o != x) *o = std::move(*x);
          ++o;
        }
    } else {        /* std::remove_if's loop */
      if (o == x) { /* the kept prefix stays; the first rejected one is dead */
        while (x != xe && rule.keeps(*x)) ++x, ++o;
        if (x != xe) ++x;
      }
      for (; x != xe; ++x)
        if (rule.keeps(*x)) {
          *o = std::move(*x);
          ++o;
        }
    }
    s.len = dist(adv(first, s.start), o);
  }
  void run_master(seg &m, adapt_seq *, std::size_t b, std::size_t e) { compact(m, b, e); }
  void run_piece(piece &p, adapt_seq *, std::size_t b, std::size_t e) {
    if (p.segs.empty()) {
      p.segs.push_back({b, 0});
      p.pending = Rule::pairwise;
    }
    compact(p.segs.back(), b, e);
  }
  /* Pairwise: drops t's pending first element when it is equivalent to
   * the element at position kept (the last one kept before it). */
  void settle(piece &t, std::size_t kept) {
    if (!t.pending) return;
    t.pending = false;
    seg &f = t.segs.front();
    if (!rule.keeps(*adv(first, kept), *adv(first, f.start))) f.start++, f.len--;
  }
  /* Moves the segment s down to position to (to <= s.start), in order: in
   * rounds of at most s.start - to elements, so that no round writes over
   * an element it has still to read. */
  void move_down(std::size_t to, const seg &s) {
    const std::size_t gap = s.start - to;
    if (gap == 0) return;
    for (std::size_t off = 0; off < s.len; off += gap) {
      const std::size_t c = std::min(gap, s.len - off);
      It src = adv(first, s.start + off), dst = adv(first, to + off);
      if (c < ADAPT_STL_NESTED_MIN) {
        std::move(src, adv(src, c), dst);
        continue;
      }
      par_map(pol.window(adapt::window::none), "adapt::select", c, 2 * sizeof(value_t<It>),
              [&](adapt_seq *, std::size_t b, std::size_t e) {
                std::move(adv(src, b), adv(src, e), adv(dst, b));
              });
    }
  }
  void merge_master(seg &m, piece &t, std::size_t, std::size_t) {
    if constexpr (Rule::pairwise)
      if (m.len > 0) settle(t, m.len - 1);
    for (const seg &s : t.segs) {
      move_down(m.len, s);
      m.len += s.len;
    }
  }
  void merge_piece(piece &v, piece &t, std::size_t, std::size_t) {
    if constexpr (Rule::pairwise) { /* v's last segment holds at least its first element */
      const seg &l = v.segs.back();
      settle(t, l.start + l.len - 1);
    }
    for (const seg &s : t.segs)
      if (s.len > 0) v.segs.push_back(s);
  }
};

/* The in-place selections (remove_if, unique): the elements of
 * [first, last) that Rule{first, pred} keeps, moved to the front in order
 * by the in-place kernel; returns the new end. std_path(first, last), std's
 * algorithm, when the iterators cannot be written in parallel. */
template <class Rule, class It, class Pred, class Std>
It select_in_place(const policy &pol, const char *name, It first, It last, Pred &pred,
                   Std std_path) {
  if constexpr (!writable_v<It>) {
    return std_path(first, last);
  } else {
    Rule rule{first, pred};
    compact_ops<It, Rule> ops{first, rule, pol};
    typename compact_ops<It, Rule>::seg m;
    par_ordered(pol.attr(1, false), name, dist(first, last), 2 * sizeof(value_t<It>), ops, m);
    return adv(first, m.len);
  }
}

} // namespace detail

/* std::copy_if: copies the elements satisfying pred, in order, to d_first
 * (one copy assignment each); returns the end of the output. The ranges
 * must not overlap. */
template <class It, class Out, class Pred>
Out copy_if(const policy &pol, It first, It last, Out d_first, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::copy_if: pred must be callable with an element, pred(*first)");
  if constexpr (!detail::random_access_v<It> || !detail::writable_v<Out>) {
    return std::copy_if(first, last, d_first, pred);
  } else {
    return detail::copy_if_run(pol, "adapt::copy_if", first, detail::dist(first, last), d_first,
                               pred);
  }
}

/* std::remove_if: moves the elements not satisfying pred to the front, in
 * order (one move assignment each, none onto itself); returns the new end.
 * The elements past it hold valid unspecified values. */
template <class It, class Pred>
It remove_if(const policy &pol, It first, It last, Pred pred) {
  return detail::select_in_place<detail::test_rule<It, Pred, false>>(
      pol, "adapt::remove_if", first, last, pred,
      [&](auto... a) { return std::remove_if(a..., std::ref(pred)); });
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
    auto keep = std::not_fn(std::ref(pred)); /* copy_if's kernel: branch-free staging */
    return detail::copy_if_run(pol, "adapt::remove_copy_if", first, detail::dist(first, last),
                               d_first, keep);
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
  return detail::select_in_place<detail::unique_rule<It, Pred>>(
      pol, "adapt::unique", first, last, pred,
      [&](auto... a) { return std::unique(a..., std::ref(pred)); });
}

/* std::unique_copy: copies the first element of every run of equivalent
 * neighbours (pred(first[i - 1], first[i]) false), in order; returns the
 * output's end. The ranges must not overlap. */
template <class It, class Out, class Pred = std::equal_to<>>
Out unique_copy(const policy &pol, It first, It last, Out d_first, Pred pred = {}) {
  if constexpr (!detail::writable_v<It, Out>) {
    return std::unique_copy(first, last, d_first, pred);
  } else {
    detail::unique_rule<It, Pred> r{first, pred};
    auto c =
        detail::select(pol, "adapt::unique_copy", first, detail::dist(first, last), r, d_first);
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
    auto c = detail::select(pol, "adapt::partition_copy", first, detail::dist(first, last), r,
                            d_true, d_false);
    return {detail::adv(d_true, c.first), detail::adv(d_false, c.second)};
  }
}

} // namespace adapt

#endif /* ADAPT_STL_SELECT_HPP */
