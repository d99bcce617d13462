/* The scans of <adapt/stl.hpp> (included by it): inclusive_scan and
 * exclusive_scan, on fixed blocks, deterministic under a deterministic
 * policy (docs/stl.md, "Determinism"); the transform scans of
 * <adapt/stl/numeric.hpp> run on the same kernel (detail::scan). */
#ifndef ADAPT_STL_SCAN_HPP
#define ADAPT_STL_SCAN_HPP

#ifndef ADAPT_STL_HPP
#error "include <adapt/stl.hpp>"
#endif

#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>

namespace adapt {
namespace detail {

/* --- Scans: fixed blocks ------------------------------------------------ */
/* The part of a scan that does not depend on its types (one copy per
 * program, not one per instantiation): the output tasks' scope, the first
 * exception of a task, and the flag that makes the tasks give up. */
struct scan_state {
  adapt_scope *scope = nullptr; /* the tasks' scope; nullptr: none */
  failure tfail;                /* the first exception of a task */
  /* Set when the call failed elsewhere: tasks not started yet return at
   * once, running ones at their next unit. relaxed: a hint to skip work;
   * adapt_sync orders the tasks before the caller. */
  std::atomic<bool> abandon{false};
};

/* The ordered region of a scan: c's kernel over count blocks with the
 * master's state master, inside a scope
 * for the output tasks that the merges spawn (on this thread; all finished
 * before it returns). Rethrows the first exception, a task's first. Without
 * a scope (one worker: nothing is stolen; or its error) the caller writes
 * the jobs' outputs after it returns. */
inline void scan_region(scan_state &st, const call_attr &a, const char *name, std::size_t count,
                        std::size_t unit_bytes, ordered_call &c, void *master) {
  adapt_scope sc;
  if (adapt_num_workers() > 1 && adapt_scope_begin(&sc) == 0) st.scope = &sc;
  try {
    ordered_region(a, name, count, unit_bytes, c, master);
  } catch (...) {
    st.abandon.store(true, std::memory_order_relaxed);
    if (st.scope) (void)adapt_sync(st.scope);
    st.scope = nullptr;
    if (st.tfail.exc) std::rethrow_exception(st.tfail.exc); /* cancelled because of it */
    throw;
  }
  if (st.scope) (void)adapt_sync(st.scope);
  st.scope = nullptr;
  if (st.tfail.exc) std::rethrow_exception(st.tfail.exc);
}

/* Deterministic definition (blocks k of blocks(n)): s_k is block k's left
 * fold, P_0 = init (none for an inclusive scan without init), P_{k+1} =
 * P_k (+) s_k (s_0 where P_0 is none); inside block k the outputs are the
 * chain from P_k: out[lo] = P_k (+) x[lo] and out[i] = out[i-1] (+) x[i]
 * (inclusive), out[lo] = P_k and out[i+1] = out[i] (+) x[i] (exclusive); a
 * first block without P_0 chains from x[lo]. The expression depends on n
 * only. The master knows P_k: one pass per block computes the output chain
 * and the block sum s_k (two independent chains that overlap, std's
 * operation count plus one op per element, off the dependency chain). A
 * stolen piece only folds its blocks' sums (four blocks interleaved: four
 * independent chains), reading its input once and writing nothing; when it
 * reaches the master the prefixes P_k follow (one op per block) and its
 * outputs, the chains from them, become a spawned task (four blocks
 * interleaved, a parallel map when large), which an idle worker takes
 * before any new piece of the sequence (a thief looks at spawned tasks
 * first, <adapt/tasks.h>) while the master goes on with its own blocks.
 * The split gives a thief two parts for the master's one (thief_parts,
 * <adapt/seq.h>): the master reaches a lone thief's piece when about half
 * of it is summed and takes the rest back (preemption), which it scans in
 * one pass while the thief writes the summed half's outputs: on 2 workers
 * about a third of the input is summed (the second pass), as in GNU's
 * partial_sum, rather than half with equal shares. Non-deterministic
 * policy: the master's own blocks are std's fold (P_{k+1} = the chain's
 * end, no block sum), stolen pieces as above. The unrolled and interleaved
 * loops are for trivially copyable T only (scan_ops::unrolled). One
 * type for the inclusive and the exclusive scan of the same types: the
 * master's loop over its blocks and the output chains of the mode a
 * call uses (md, called once per chunk) are its only parts instantiated
 * per mode. */
template <class In, class Out, class T, class Op>
struct scan_ops : scan_state {
  static constexpr unsigned thief_parts = 2;
  /* The outputs of a merged piece's blocks [tb, te) from their prefixes
   * pre[k - tb] = P_k: one spawned task (or, without a scope, written by
   * finish() after the region). */
  struct pending {
    scan_ops *ops;
    std::size_t tb, te;
    std::vector<T> pre;
    bool spawned;
  };
  struct master {
    std::optional<T> p;       /* prefix before the master's next block */
    std::deque<pending> jobs; /* in sequence order; stable addresses */
  };
  using master_type = master;
  using piece_type = std::vector<T>; /* sums of the piece's blocks, in order */
  In in;
  Out out;
  Op &op;
  const blocks &bl;
  const policy &pol;
  /* The loops of one mode, through member pointers: only the mode a call
   * uses is instantiated (an operation may be valid in one mode only). */
  struct mode {
    void (scan_ops::*run)(master &, std::size_t, std::size_t);
    void (scan_ops::*chains)(pending &, std::size_t, std::size_t);
  };
  const mode *md;
  /* Exclusive step of trivially copyable values read as plain references
   * or values (not proxies): the element is copied out, so that the output
   * can be stored before the operation and the chain stays in one register
   * (GCC 12 otherwise copies the accumulator on the chain: 1.04-1.09 of
   * std's time for doubles). xarg passes the copy as *x would have been. */
  static constexpr bool plain_x =
      std::is_trivially_copyable_v<T> && std::is_trivially_copyable_v<value_t<In>> &&
      (std::is_same_v<ref_t<In>, value_t<In> &> || std::is_same_v<ref_t<In>, const value_t<In> &> ||
       std::is_same_v<ref_t<In>, value_t<In>>);
  using xarg = std::conditional_t<std::is_reference_v<ref_t<In>>, ref_t<In>, value_t<In> &&>;
  /* One output chain: c is the value before element j (exclusive: out[j]
   * itself). step(j) reads x[j] before writing o[j] (in place). */
  template <bool Incl>
  struct lane {
    In x;
    Out o;
    T c;
    void step(Op &f, std::size_t j) {
      if constexpr (Incl) {
        c = fold_op(f, c, *adv(x, j));
        *adv(o, j) = c;
      } else if constexpr (plain_x) {
        value_t<In> v = *adv(x, j); /* read before the write (in place) */
        *adv(o, j) = c;
        c = f(c, static_cast<xarg>(v));
      } else {
        T nc = f(c, *adv(x, j));
        *adv(o, j) = std::move(c);
        c = std::move(nc);
      }
    }
  };
  template <bool Incl>
  lane<Incl> at(std::size_t lo, T &&c) {
    return lane<Incl>{adv(in, lo), adv(out, lo), std::move(c)};
  }
  static bool full(std::size_t lo, std::size_t hi) { return hi - lo == ADAPT_STL_BLOCK; }
  /* Cheap accumulators (trivially copyable: arithmetic types, small
   * structs) run the loops unrolled by 8 and four blocks interleaved,
   * which hide the operation's latency; for the others (strings, ...) the
   * operation's own cost dwarfs the loop's, and one plain loop per block is
   * instantiated (a fraction of the code). */
  static constexpr bool unrolled = std::is_trivially_copyable_v<T>;

  /* The chain of block [lo, hi) from c, the value before its element j0
   * (elements before j0 already written); returns the chain's end. */
  template <bool Incl>
  T chain(std::size_t lo, std::size_t hi, std::size_t j0, T &&c) {
    lane<Incl> l = at<Incl>(lo, std::move(c));
    std::size_t j = j0, len = hi - lo;
    if constexpr (unrolled)
      for (; j + 8 <= len; j += 8) /* as in known() */
#pragma GCC unroll 8
        for (std::size_t u = 0; u < 8; u++) l.step(op, j + u);
    for (; j < len; j++) l.step(op, j);
    return std::move(l.c);
  }
  /* Master, inclusive scan without init, first block: the chain from x[lo]
   * is the left fold; returns s_0 (= P_1). */
  T first(std::size_t lo, std::size_t hi) {
    T c(*adv(in, lo));
    *adv(out, lo) = c;
    return chain<true>(lo, hi, 1, std::move(c));
  }
  /* Master, deterministic: outputs of block [lo, hi) from p = P_k and its
   * sum s_k in one pass; p becomes P_{k+1} = P_k (+) s_k. */
  template <bool Incl>
  void known(T &p, std::size_t lo, std::size_t hi) {
    In x = adv(in, lo);
    T s = fold_first<T>(op, x[0], x[1]); /* read before the chain writes out[lo..lo+1] */
    /* inclusive: the chain starts at P_k (+) x[lo], so that p is not copied
     * (std's copies: one per output) */
    lane<Incl> l = Incl ? at<Incl>(lo, op(p, x[0])) : at<Incl>(lo, T(p));
    if constexpr (Incl)
      *l.o = l.c;
    else
      l.step(op, 0);
    l.step(op, 1);
    auto both = [&](std::size_t j) {
      s = fold_op(op, s, *adv(x, j));
      l.step(op, j);
    };
    /* unrolled by hand: the loop's bookkeeping once per 8 elements (GCC's
     * unrolling kept an index update per element: 5.5 instructions per
     * element for doubles, std's loop 5.0) */
    std::size_t j = 2, len = hi - lo;
    if constexpr (unrolled)
      for (; j + 8 <= len; j += 8)
#pragma GCC unroll 8
        for (std::size_t u = 0; u < 8; u++) both(j + u);
    for (; j < len; j++) both(j);
    p = fold_op(op, p, s);
  }
  /* Master, non-deterministic: std's fold from p; p becomes the chain's end. */
  template <bool Incl>
  void fold(T &p, std::size_t lo, std::size_t hi) {
    p = chain<Incl>(lo, hi, 0, std::move(p));
  }
  /* Stolen piece: appends s_k of the blocks [b, e). */
  void sums(std::vector<T> &v, std::size_t b, std::size_t e) {
    std::size_t k = b;
    if constexpr (unrolled)
      for (; k + 4 <= e && full(bl.lo(k + 3), bl.hi(k + 3)); k += 4) {
        In x0 = adv(in, bl.lo(k)), x1 = adv(in, bl.lo(k + 1)), x2 = adv(in, bl.lo(k + 2)),
           x3 = adv(in, bl.lo(k + 3));
        T s0 = fold_first<T>(op, x0[0], x0[1]), s1 = fold_first<T>(op, x1[0], x1[1]),
          s2 = fold_first<T>(op, x2[0], x2[1]), s3 = fold_first<T>(op, x3[0], x3[1]);
        for (std::size_t j = 2; j < ADAPT_STL_BLOCK; j++) {
          s0 = fold_op(op, s0, *adv(x0, j));
          s1 = fold_op(op, s1, *adv(x1, j));
          s2 = fold_op(op, s2, *adv(x2, j));
          s3 = fold_op(op, s3, *adv(x3, j));
        }
        v.push_back(std::move(s0));
        v.push_back(std::move(s1));
        v.push_back(std::move(s2));
        v.push_back(std::move(s3));
      }
    for (; k < e; k++) {
      In x = adv(in, bl.lo(k));
      T s = fold_first<T>(op, x[0], x[1]);
      for (std::size_t j = 2; j < bl.hi(k) - bl.lo(k); j++) s = fold_op(op, s, *adv(x, j));
      v.push_back(std::move(s));
    }
  }
  /* Outputs of the blocks tb + i, i in [b, e), of job j from their
   * prefixes j.pre[i] (consumed), four blocks interleaved where all four are
   * full (only the last block of the sequence is not). */
  template <bool Incl>
  void chains(pending &j, std::size_t b, std::size_t e) {
    std::size_t i = b;
    if constexpr (unrolled)
      for (; i + 4 <= e && full(bl.lo(j.tb + i + 3), bl.hi(j.tb + i + 3)); i += 4) {
        if (abandon.load(std::memory_order_relaxed)) return;
        lane<Incl> l0 = at<Incl>(bl.lo(j.tb + i), std::move(j.pre[i])),
                   l1 = at<Incl>(bl.lo(j.tb + i + 1), std::move(j.pre[i + 1])),
                   l2 = at<Incl>(bl.lo(j.tb + i + 2), std::move(j.pre[i + 2])),
                   l3 = at<Incl>(bl.lo(j.tb + i + 3), std::move(j.pre[i + 3]));
        for (std::size_t u = 0; u < ADAPT_STL_BLOCK; u++) {
          l0.step(op, u);
          l1.step(op, u);
          l2.step(op, u);
          l3.step(op, u);
        }
      }
    for (; i < e; i++) {
      if (abandon.load(std::memory_order_relaxed)) return;
      const std::size_t k = j.tb + i;
      (void)chain<Incl>(bl.lo(k), bl.hi(k), 0, std::move(j.pre[i]));
    }
  }
  /* Job j's outputs, by a parallel map when large (units of 4 blocks: the
   * interleaved groups stay whole). */
  void write(pending &j) {
    const std::size_t np = j.te - j.tb;
    const std::size_t units = (np + 3) / 4;
    auto run = [&](std::size_t b, std::size_t e) { (this->*md->chains)(j, b, e); };
    if (np * ADAPT_STL_BLOCK >= ADAPT_STL_NESTED_MIN && units >= 2)
      par_map(pol.sched(adapt::sched::default_).grain(0), "adapt::scan", units,
              4 * ADAPT_STL_BLOCK * (sizeof(value_t<In>) + sizeof(T)),
              [&](adapt_seq *, std::size_t b, std::size_t e) { run(4 * b, std::min(4 * e, np)); });
    else
      run(0, np);
  }
  /* The spawned task of a job. */
  static void task(void *arg) noexcept {
    auto *j = static_cast<pending *>(arg);
    scan_ops *o = j->ops;
    if (o->abandon.load(std::memory_order_relaxed) || o->tfail.stopped()) return;
    try {
      o->write(*j);
    } catch (...) {
      o->tfail.capture(false);
    }
  }
  /* After the region and the tasks: the jobs that were not spawned. */
  void finish(master &m) {
    for (pending &j : m.jobs)
      if (!j.spawned) write(j);
  }

  /* The master's blocks [b, e). */
  template <bool Incl>
  void run(master &m, std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; k++) {
      if (!m.p)
        m.p.emplace(first(bl.lo(k), bl.hi(k)));
      else if (pol.is_deterministic())
        known<Incl>(*m.p, bl.lo(k), bl.hi(k));
      else
        fold<Incl>(*m.p, bl.lo(k), bl.hi(k));
    }
  }
  void run_master(master &m, adapt_seq *s, std::size_t b, std::size_t e) {
    if (tfail.stopped()) return adapt_seq_stop(s, 0, -ECANCELED);
    (this->*md->run)(m, b, e);
  }
  void run_piece(piece_type &v, adapt_seq *s, std::size_t b, std::size_t e) {
    if (tfail.stopped()) return adapt_seq_stop(s, 0, -ECANCELED);
    sums(v, b, e);
  }
  /* The prefixes of a stolen piece's blocks [tb, te) (one operation per
   * block); its outputs become a spawned task (finish() writes them when
   * the spawn fails). */
  void merge_master(master &m, piece_type &t, std::size_t tb, std::size_t te) {
    if (t.size() != te - tb || !m.p) throw error(-EPROTO, "adapt::scan: merge out of order");
    pending &j = m.jobs.emplace_back(pending{this, tb, te, {}, false});
    j.pre.reserve(t.size());
    for (std::size_t i = 0; i < t.size(); i++) {
      T nx = op(*m.p, t[i]);
      j.pre.push_back(std::move(*m.p));
      *m.p = std::move(nx);
    }
    j.spawned = scope && adapt_spawn(scope, &scan_ops::task, &j) == 0;
  }
  void merge_piece(piece_type &v, piece_type &t, std::size_t, std::size_t) {
    for (T &s : t) v.push_back(std::move(s));
  }
  /* The mode of an inclusive (Incl) or exclusive scan. */
  template <bool Incl>
  static constexpr mode mode_of{&scan_ops::run<Incl>, &scan_ops::chains<Incl>};
};

/* The scans of n >= 2 elements on random-access iterators (md: the mode's
 * loops); init: the initial value (moved from), or nullptr for an
 * inclusive scan without one. Returns d + n. */
template <class T, class In, class Out, class Op>
Out scan_blocks(const policy &pol, const char *name,
                const typename scan_ops<In, Out, T, Op>::mode &md, In first, In last, Out d, Op &op,
                T *init) {
  std::size_t n = dist(first, last);
  if (pol.max_workers()) /* the output tasks too keep to the call's workers */
    return with_workers(pol.max_workers(), [&] {
      return scan_blocks<T>(pol.workers(0), name, md, first, last, d, op, init);
    });
  blocks bl(n);
  using Ops = scan_ops<In, Out, T, Op>;
  Ops ops{{}, first, d, op, bl, pol, &md};
  typename Ops::master m;
  if (init) m.p.emplace(std::move(*init));
  if (bl.count == 1) {
    ops.run_master(m, nullptr, 0, 1);
    return adv(d, n);
  }
  ordered_call c{&ordered_fns<Ops>::table, &ops, {}};
  scan_region(ops, pol.attr(ADAPT_STL_BLOCK, false), name, bl.count,
              ADAPT_STL_BLOCK * (sizeof(value_t<In>) + sizeof(T)), c, &m);
  ops.finish(m);
  return adv(d, n);
}

/* The scans on random-access iterators; init: the initial value (moved
 * from), or nullptr for an inclusive scan without one. Returns d + n. */
template <bool Incl, class T, class In, class Out, class Op>
Out scan(const policy &pol, const char *name, In first, In last, Out d, Op &op, T *init) {
  std::size_t n = dist(first, last);
  if (n == 0) return d;
  if (n == 1) {
    if constexpr (Incl) {
      if (init)
        *d = op(*init, *first);
      else
        *d = *first;
    } else {
      *d = std::move(*init);
    }
    return adv(d, 1);
  }
  using Ops = scan_ops<In, Out, T, Op>;
  return scan_blocks<T>(pol, name, Ops::template mode_of<Incl>, first, last, d, op, init);
}

} // namespace detail

/* ===== Scans ============================================================= */
/* op must be associative (as std's scans require). Under a deterministic
 * policy (the default) the result depends on n only, floating point
 * included (docs/stl.md gives the expression); d_first may equal first. */

template <class It, class Out, class Op, class T>
Out inclusive_scan(const policy &pol, It first, It last, Out d_first, Op op, T init) {
  static_assert(std::is_invocable_v<Op &, T &, detail::ref_t<It>>,
                "adapt::inclusive_scan: op must be callable as op(init, *first)");
  if constexpr (!detail::random_access_v<It> || !detail::writable_v<Out>)
    return std::inclusive_scan(first, last, d_first, op, std::move(init));
  else
    return detail::scan<true, T>(pol, "adapt::inclusive_scan", first, last, d_first, op, &init);
}
template <class It, class Out, class Op>
Out inclusive_scan(const policy &pol, It first, It last, Out d_first, Op op) {
  static_assert(std::is_invocable_v<Op &, detail::value_t<It> &, detail::ref_t<It>>,
                "adapt::inclusive_scan: op must be callable with two elements");
  using T = detail::value_t<It>;
  if constexpr (!detail::random_access_v<It> || !detail::writable_v<Out>)
    return std::inclusive_scan(first, last, d_first, op);
  else
    return detail::scan<true, T>(pol, "adapt::inclusive_scan", first, last, d_first, op,
                                 static_cast<T *>(nullptr));
}
template <class It, class Out>
Out inclusive_scan(const policy &pol, It first, It last, Out d_first) {
  return adapt::inclusive_scan(pol, first, last, d_first, std::plus<>());
}

template <class It, class Out, class T, class Op>
Out exclusive_scan(const policy &pol, It first, It last, Out d_first, T init, Op op) {
  static_assert(std::is_invocable_v<Op &, T &, detail::ref_t<It>>,
                "adapt::exclusive_scan: op must be callable as op(init, *first)");
  if constexpr (!detail::random_access_v<It> || !detail::writable_v<Out>)
    return std::exclusive_scan(first, last, d_first, std::move(init), op);
  else
    return detail::scan<false, T>(pol, "adapt::exclusive_scan", first, last, d_first, op, &init);
}
template <class It, class Out, class T>
Out exclusive_scan(const policy &pol, It first, It last, Out d_first, T init) {
  return adapt::exclusive_scan(pol, first, last, d_first, std::move(init), std::plus<>());
}

} // namespace adapt

#endif /* ADAPT_STL_SCAN_HPP */
