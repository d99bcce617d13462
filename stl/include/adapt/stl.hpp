/* libadapt's C++17 front end: the algorithms of <algorithm> and <numeric>
 * on the adaptive runtime, with std's signatures, without a policy or with
 * an adapt::policy first (docs/stl.md is the guide):
 *
 *   std::vector<double> v(1 << 24, 1.0);
 *   adapt::transform(v.begin(), v.end(), v.begin(), [](double x) { return 2 * x; });
 *   double s = adapt::reduce(adapt::par.window(adapt::window::sliding), v.begin(), v.end());
 *
 * Tasks: adapt::task_group (run, wait) and adapt::parallel_invoke, in
 * <adapt/stl/task_group.hpp>, on the runtime's spawn/sync.
 * Index loop: adapt::for_index(first, last, f), f(i) for i in [first,
 * last), in <adapt/stl/index.hpp>.
 *
 * Common contract of every algorithm below:
 * - Effect: std's, each element function called once per element
 *   (find/find_if/any_of/all_of/none_of: at most once) and possibly
 *   concurrently on several workers, in no guaranteed order, on the element
 *   function object you passed (shared by reference: make it thread-safe).
 *   The calling thread takes part; calls made from inside a body of another
 *   parallel call are nested.
 * - Element functions see the elements as lvalues, as std's loops pass
 *   them: parameters by value, by (non-const) reference or generic work as
 *   with std. An operation's accumulator is an lvalue too, or an rvalue
 *   where the operation accepts one (moved, not copied).
 * - Iterators: random-access iterators (all of them: inputs and outputs)
 *   run in parallel; other iterators call the sequential std algorithm, and
 *   so do the algorithms that write through a proxy reference
 *   (std::vector<bool>: neighbouring elements share a word).
 * - Elements: no copies beyond std's (no memcpy of objects); move-only
 *   types where std accepts them.
 * - Accumulation: reductions and scans accumulate in std's type (init's;
 *   an inclusive scan without init: the element type): a block's first two
 *   elements are combined as op(T(x0), x1) when op(x0, x1) is not a T (ints
 *   summed into a long long never add in int).
 * - Exceptions: the first exception thrown by an element function, on any
 *   worker, is rethrown on the calling thread after every worker has left
 *   the call; the rest of the call is cancelled (at most about one grain per
 *   worker still runs after the throw; sort and stable_sort: the
 *   partitions, leaf sorts and merges already running finish). Outputs
 *   then hold unspecified (valid) values. The runtime stays usable from
 *   every thread. adapt_cancel() from an element function cancels the call
 *   (adapt::error, ECANCELED), except in sort and stable_sort (see there)
 *   and in a reduction or scan of one block (ADAPT_STL_BLOCK elements or
 *   fewer), which runs on the calling thread outside any region: there
 *   adapt_cancel() returns -EPERM and the call completes. The policy's
 *   cancel token (policy::cancel_with, cancel_token: from any thread, sorts
 *   included) cancels a call too. Runtime failures throw
 *   adapt::error (std::system_error: EINVAL bad policy or environment value,
 *   ENOTSUP a non-adaptive scheduler with a window mode, ENOMEM, ...).
 * - Determinism: reduce and transform_reduce always give the same result
 *   for a given n whatever the workers, mode, grain and schedule (fixed
 *   blocks of ADAPT_STL_BLOCK elements, longer ones on long sequences,
 *   combined along a fixed tree); the scans do under a deterministic policy
 *   (the default, adapt::par).
 * - Calling context: any thread; the runtime starts lazily (adapt_init).
 * - Not guaranteed: which worker runs which element, the chunk sizes, the
 *   grouping of reduce's operations (any grouping std::reduce allows). */
#if !defined(ADAPT_STL_HPP) && __cplusplus < 201703L &&                                            \
    !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "<adapt/stl.hpp> needs C++17 or later (-std=c++17)"
#define ADAPT_STL_HPP /* skip the rest: one error, not one per C++17 construct */
#endif

#ifndef ADAPT_STL_HPP
#define ADAPT_STL_HPP

#include <algorithm>
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
#include <vector>

#include <adapt/seq.h>
#include <adapt/tasks.h>
#include <adapt/stl/config.hpp>
#include <adapt/stl/detail.hpp>
#include <adapt/stl/policy.hpp>
#include <adapt/stl/sort.hpp>
#include <adapt/stl/task_group.hpp>

namespace adapt {
namespace detail {

template <class It>
It adv(It it, std::size_t i) {
  return it + static_cast<typename std::iterator_traits<It>::difference_type>(i);
}

template <class It>
std::size_t dist(It first, It last) {
  return static_cast<std::size_t>(last - first);
}

/* The _n form of an algorithm: whole(first + n), the whole form's call on
 * [first, first + n) returning the _n form's result, when n > 0; else none
 * (nothing called). */
template <class It, class Size, class R, class Whole>
R first_n(It first, Size n, R none, Whole &&whole) {
  if (n <= 0) return none;
  return whole(adv(first, static_cast<std::size_t>(n)));
}

/* The _n form of an algorithm on one range that returns first + n (first
 * when n <= 0): std_n() (the std _n form's call) when It is not writable
 * (writable_v), else whole(first + n), the whole form's call on
 * [first, first + n), when n > 0. */
template <class It, class Size, class StdN, class Whole>
It in_place_n(It first, Size n, StdN &&std_n, Whole &&whole) {
  if constexpr (!writable_v<It>)
    return std_n();
  else
    return first_n(first, n, first, [&](It last) {
      whole(last);
      return last;
    });
}

/* A map over [first, last): body(it, end, b) on disjoint chunks [b, e), it
 * and end their iterators, as par_map does (elem_bytes: the bytes one
 * element touches); iterators that are not random access, or whose
 * elements are proxies (writable_v): body(first, last, 0), sequentially. */
template <class It, class Body>
void par_map_range(const policy &pol, const char *name, It first, It last, std::size_t elem_bytes,
                   Body &&body) {
  if constexpr (!writable_v<It>)
    body(first, last, std::size_t{0});
  else
    par_map(
        pol, name, dist(first, last), elem_bytes,
        [&](adapt_seq *, std::size_t b, std::size_t e) { body(adv(first, b), adv(first, e), b); });
}

/* The function object behind a std::reference_wrapper (generate). */
template <class G>
struct unref {
  using type = G;
  static const G &get(const G &g) { return g; }
};
template <class U>
struct unref<std::reference_wrapper<U>> {
  using type = std::remove_const_t<U>;
  static U &get(const std::reference_wrapper<U> &g) { return g.get(); }
};

/* --- Deterministic reduction: fixed blocks, fixed tree ------------------ */
/* Block k's value comes from blockv(lo, hi) (one sequential pass, std's)
 * and goes to its own slot vals[k]: the chunks, whoever runs them, write
 * disjoint slots and merge nothing. The caller then folds the slots along
 * the aligned power-of-two groups (as adapt_reduce): level by level, the
 * two halves of each complete group of width 2w; the groups of count's
 * binary decomposition left over, left to right. The tree depends on n
 * only. */
template <class T, class Op>
T fold_blocks(std::optional<T> *vals, std::size_t count, Op &op) {
  std::size_t w = 1;
  for (; 2 * w <= count; w *= 2)
    for (std::size_t i = 0; i + 2 * w <= count; i += 2 * w)
      vals[i] = fold_op(op, *vals[i], *vals[i + w]);
  /* w: the largest power of two <= count, the first group's width */
  T acc = std::move(*vals[0]);
  for (std::size_t pos = w; pos < count;) {
    while (pos + w > count) w /= 2;
    acc = fold_op(op, acc, *vals[pos]);
    pos += w;
  }
  return acc;
}

/* op(init, fold of the blocks of n >= 2 elements). */
template <class T, class Op, class BlockFn>
T reduce_blocks(const policy &pol, const char *name, std::size_t n, std::size_t elem_bytes, T init,
                Op &op, BlockFn &&blockv) {
  blocks bl(n, reduce_block(n));
  if (bl.count == 1) {
    T v = blockv(bl.lo(0), bl.hi(0));
    return fold_op(op, init, v);
  }
  /* Plain slots, each written by the one chunk that runs its block; the
   * caller reads them after par_map returned, which the runtime's join
   * orders after every chunk (no atomics needed). */
  std::unique_ptr<std::optional<T>[]> vals(new std::optional<T>[bl.count]);
  std::optional<T> *v = vals.get();
  par_map(pol.attr(bl.size, false), name, bl.count, bl.size * elem_bytes,
          [&](adapt_seq *, std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; k++) v[k].emplace(blockv(bl.lo(k), bl.hi(k)));
          });
  T acc = fold_blocks(v, bl.count, op);
  return fold_op(op, init, acc);
}

/* v (+) get(i) for i in [i, e), accumulated in T where std::reduce's loop
 * would pair two elements in op's own result type (a narrower one): the
 * same grouping as that loop (four elements: two pairs, their sum, into
 * v; one dependent operation on v per four elements), each pair formed in
 * T (fold_first). get(i): the element, or its transform. */
template <class T, class Op, class Get>
T fold_rest(T v, std::size_t i, std::size_t e, Op &op, Get &&get) {
  for (; e - i >= 4; i += 4) {
    T v1 = fold_first<T>(op, get(i), get(i + 1));
    T v2 = fold_first<T>(op, get(i + 2), get(i + 3));
    T v3 = fold_op(op, v1, v2);
    v = fold_op(op, v, v3);
  }
  for (; i < e; ++i) v = fold_op(op, v, get(i));
  return v;
}

/* --- count_if ----------------------------------------------------------- */
template <class It, class Pred>
struct count_ops {
  using master_type = std::size_t;
  using piece_type = std::size_t;
  It first;
  Pred &pred;
  void run_master(std::size_t &c, adapt_seq *, std::size_t b, std::size_t e) {
    std::size_t k = 0;
    for (It it = adv(first, b), end = adv(first, e); it != end; ++it)
      k += pred(*it) ? 1u : 0u; /* branch-free: vectorised for cheap predicates */
    c += k;
  }
  void run_piece(std::size_t &c, adapt_seq *s, std::size_t b, std::size_t e) {
    run_master(c, s, b, e);
  }
  void merge_master(std::size_t &v, std::size_t &t, std::size_t, std::size_t) { v += t; }
  void merge_piece(std::size_t &v, std::size_t &t, std::size_t, std::size_t) { v += t; }
};

/* --- find_if ------------------------------------------------------------ */
template <class It, class Pred>
It find_if(const policy &pol, It first, It last, Pred &pred) {
  if constexpr (!random_access_v<It>) {
    return std::find_if(first, last, pred);
  } else {
    std::size_t n = dist(first, last);
    /* Smallest match found so far (n: none). relaxed: chunks use it only to
     * skip work; the caller reads it after the call, ordered by the
     * runtime's join. */
    std::atomic<std::size_t> found{n};
    par_map(pol, "adapt::find_if", n, sizeof(value_t<It>),
            [&](adapt_seq *s, std::size_t b, std::size_t e) {
              std::size_t lim = found.load(std::memory_order_relaxed);
              if (b >= lim) return;
              if (e > lim) e = lim;
              /* std's own loop on the chunk (unrolled by libstdc++), pred by
               * reference */
              It end = adv(first, e), it = std::find_if(adv(first, b), end, std::ref(pred));
              if (it == end) return;
              std::size_t i = dist(first, it), cur = found.load(std::memory_order_relaxed);
              while (i < cur && !found.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {}
              adapt_seq_stop(s, i, 0);
            });
    return adv(first, found.load(std::memory_order_relaxed));
  }
}

/* --- copy_if ------------------------------------------------------------ */
/* One pass, pred called once per element. The master (the calling thread,
 * from the front) copies each selected element to its final place at once.
 * A stolen piece cannot: its output offset (the count of selected elements
 * before it) is known only when the master reaches it. It records its
 * selected elements (trivial types of at most 16 bytes: their values;
 * others: their indices, so that each element is assigned once, as std
 * does) in segments of ADAPT_STL_COPY_SEGMENT input elements: raw storage
 * (no zero fill, never reallocated nor moved), a piece merged into another
 * piece hands over its segments (no copy), and when a piece reaches the
 * master its segments are copied to their place, one segment per unit of a
 * nested parallel map when they hold ADAPT_STL_NESTED_MIN elements or more.
 * The selection is branch-free for the staged types (each element is
 * stored, the count advances by pred's result: a half-selecting predicate
 * costs no mispredicted branch; the master stages ADAPT_STL_COPY_STAGE
 * elements on its stack, since it must not write past the output's end). */
template <class It, class Out, class Pred>
struct copy_if_ops {
  using V = value_t<It>;
  static constexpr bool staged = std::is_trivial_v<V> && sizeof(V) <= 16;
  using E = std::conditional_t<staged, V, std::size_t>; /* what a piece records */
  struct master {
    std::size_t pos = 0;
  };
  struct segment {
    std::unique_ptr<E[]> p; /* default-initialised: raw for these types */
    std::size_t n, cap;     /* recorded, room */
  };
  struct piece {
    std::vector<segment> segs;
    std::size_t total = 0;
  };
  using master_type = master;
  using piece_type = piece;
  It first;
  Out d;
  Pred &pred;

  void run_master(master &m, adapt_seq *, std::size_t b, std::size_t e) {
    Out o = adv(d, m.pos);
    std::size_t k = 0; /* a local: stores to the output cannot alias it */
    It it = adv(first, b);
    if constexpr (staged) {
      V stage[ADAPT_STL_COPY_STAGE];
      for (std::size_t i = b; i < e;) {
        std::size_t stop = e - i < ADAPT_STL_COPY_STAGE ? e : i + ADAPT_STL_COPY_STAGE, c = 0;
        for (; i < stop; ++i, ++it) {
          auto &&x = *it; /* an lvalue for pred, as std's copy_if passes it */
          const bool keep = static_cast<bool>(pred(x));
          stage[c] = x;
          c += keep;
        }
        o = std::copy(stage, stage + c, o);
        k += c;
      }
    } else {
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
    std::size_t len = e - b;
    if (p.segs.empty() || p.segs.back().cap - p.segs.back().n < len) {
      std::size_t cap = len > ADAPT_STL_COPY_SEGMENT ? len : ADAPT_STL_COPY_SEGMENT;
      p.segs.push_back(segment{std::unique_ptr<E[]>(new E[cap]), 0, cap});
    }
    segment &sg = p.segs.back();
    E *dst = sg.p.get() + sg.n;
    std::size_t c = 0; /* a local, as in run_master */
    It it = adv(first, b);
    for (std::size_t i = b; i < e; ++i, ++it) {
      if constexpr (staged) {
        auto &&x = *it;
        const bool keep = static_cast<bool>(pred(x));
        dst[c] = x;
        c += keep;
      } else if (pred(*it)) {
        dst[c++] = i;
      }
    }
    sg.n += c;
    p.total += c;
  }
  void merge_master(master &m, piece &t, std::size_t, std::size_t) {
    const std::size_t ns = t.segs.size();
    std::vector<std::size_t> off(ns); /* output offset of each segment */
    for (std::size_t k = 0, pos = m.pos; k < ns; k++) {
      off[k] = pos;
      pos += t.segs[k].n;
    }
    auto copy = [&](adapt_seq *, std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; k++) {
        const segment &sg = t.segs[k];
        Out o = adv(d, off[k]);
        if constexpr (staged)
          std::copy(sg.p.get(), sg.p.get() + sg.n, o);
        else
          for (std::size_t j = 0; j < sg.n; ++j, ++o) *o = *adv(first, sg.p[j]);
      }
    };
    if (t.total >= ADAPT_STL_NESTED_MIN && ns >= 2)
      par_map(policy().window(adapt::window::none).grain(1), "adapt::copy_if", ns,
              ADAPT_STL_COPY_SEGMENT * (sizeof(E) + sizeof(value_t<Out>)), copy);
    else
      copy(nullptr, 0, ns);
    m.pos += t.total;
  }
  void merge_piece(piece &v, piece &t, std::size_t, std::size_t) {
    for (segment &sg : t.segs) v.segs.push_back(std::move(sg));
    v.total += t.total;
    t.segs.clear();
  }
};

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

/* ===== Maps ============================================================== */

/* std::for_each (returns nothing, as std's policy form). */
template <class It, class F>
void for_each(const policy &pol, It first, It last, F f) {
  static_assert(std::is_invocable_v<F &, detail::ref_t<It>>,
                "adapt::for_each: f must be callable with an element, f(*first)");
  detail::par_map_range(pol, "adapt::for_each", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) {
                          for (; it != end; ++it) f(*it);
                        });
}
/* std::for_each: returns f (the object every worker called). */
template <class It, class F, detail::not_policy<It> = 0>
F for_each(It first, It last, F f) {
  adapt::for_each(par, first, last, std::ref(f));
  return f;
}

/* std::for_each_n: f on [first, first + n); returns first + n (first when
 * n <= 0). */
template <class It, class Size, class F>
It for_each_n(const policy &pol, It first, Size n, F f) {
  static_assert(std::is_invocable_v<F &, detail::ref_t<It>>,
                "adapt::for_each_n: f must be callable with an element, f(*first)");
  if constexpr (!detail::random_access_v<It>)
    return std::for_each_n(first, n, f);
  else
    return detail::first_n(first, n, first, [&](It last) {
      adapt::for_each(pol, first, last, std::ref(f));
      return last;
    });
}

/* std::fill: every element = value (copy assignment). */
template <class It, class T>
void fill(const policy &pol, It first, It last, const T &value) {
  /* std's loop per chunk (value read once per chunk, memset for bytes) */
  detail::par_map_range(pol, "adapt::fill", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) { std::fill(it, end, value); });
}

/* std::generate: every element = g(); g is called concurrently (a
 * trivially copyable g callable as const: on a copy made per chunk, which
 * it cannot tell from g; others: on g itself). */
template <class It, class G>
void generate(const policy &pol, It first, It last, G g) {
  static_assert(std::is_invocable_v<G &>,
                "adapt::generate: g must be callable without arguments, g()");
  detail::par_map_range(pol, "adapt::generate", first, last, sizeof(detail::value_t<It>),
                        [&](It it, It end, std::size_t) {
                          using U = typename detail::unref<G>::type;
                          if constexpr (std::is_trivially_copyable_v<U> &&
                                        std::is_invocable_v<const U &>) {
                            /* A local copy per chunk: the stores to the
                             * range cannot alias its state, which the loop
                             * then keeps in registers (through g itself
                             * every element re-reads it: 25% more
                             * instructions than std for a constant).
                             * Called as const, it cannot tell. */
                            const U lg = detail::unref<G>::get(g);
                            for (; it != end; ++it) *it = lg();
                          } else {
                            for (; it != end; ++it) *it = g();
                          }
                        });
}

/* ===== Reductions ======================================================== */

/* std::reduce(first, last, init, op): op must be associative and
 * commutative as for std::reduce; the grouping is fixed by n (docs/stl.md),
 * so the result is reproducible. */
template <class It, class T, class Op>
T reduce(const policy &pol, It first, It last, T init, Op op) {
  static_assert(std::is_invocable_v<Op &, T &, detail::ref_t<It>>,
                "adapt::reduce: op must be callable as op(init, *first)");
  if constexpr (!detail::random_access_v<It>) {
    return std::reduce(first, last, std::move(init), op);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(op, init, *first);
    using R = detail::ref_t<It>;
    return detail::reduce_blocks(pol, "adapt::reduce", n, sizeof(detail::value_t<It>),
                                 std::move(init), op, [&](std::size_t lo, std::size_t hi) -> T {
                                   It a = detail::adv(first, lo), e = detail::adv(first, hi);
                                   T v = detail::fold_first<T>(op, a[0], a[1]);
                                   if constexpr (detail::pair_gives_v<T, Op, R, R>)
                                     return std::reduce(a + 2, e, std::move(v), op);
                                   else
                                     return detail::fold_rest(
                                         std::move(v), 2, hi - lo, op,
                                         [a](std::size_t i) -> R { return *detail::adv(a, i); });
                                 });
  }
}
template <class It, class T>
T reduce(const policy &pol, It first, It last, T init) {
  return adapt::reduce(pol, first, last, std::move(init), std::plus<>());
}
template <class It>
detail::value_t<It> reduce(const policy &pol, It first, It last) {
  return adapt::reduce(pol, first, last, detail::value_t<It>{}, std::plus<>());
}

/* std::transform_reduce, unary: reduce_op over transform_op(x). */
template <class It, class T, class ROp, class TOp>
T transform_reduce(const policy &pol, It first, It last, T init, ROp rop, TOp top) {
  static_assert(std::is_invocable_v<TOp &, detail::ref_t<It>>,
                "adapt::transform_reduce: the transform must be callable with an element");
  if constexpr (!detail::random_access_v<It>) {
    return std::transform_reduce(first, last, std::move(init), rop, top);
  } else {
    std::size_t n = detail::dist(first, last);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(rop, init, top(*first));
    using R = std::invoke_result_t<TOp &, detail::ref_t<It>>;
    return detail::reduce_blocks(
        pol, "adapt::transform_reduce", n, sizeof(detail::value_t<It>), std::move(init), rop,
        [&](std::size_t lo, std::size_t hi) -> T {
          It a = detail::adv(first, lo), e = detail::adv(first, hi);
          T v = detail::fold_first<T>(rop, top(a[0]), top(a[1]));
          if constexpr (detail::pair_gives_v<T, ROp, R, R>) /* as in reduce */
            return std::transform_reduce(a + 2, e, std::move(v), rop, top);
          else
            return detail::fold_rest(std::move(v), 2, hi - lo, rop, [a, &top](std::size_t i) -> R {
              return top(*detail::adv(a, i));
            });
        });
  }
}

/* std::transform_reduce, binary: reduce_op over transform_op(x1, x2);
 * without the operations: init + sum of x1 * x2. */
template <class It1, class It2, class T, class ROp, class TOp>
T transform_reduce(const policy &pol, It1 first1, It1 last1, It2 first2, T init, ROp rop, TOp top) {
  static_assert(std::is_invocable_v<TOp &, detail::ref_t<It1>, detail::ref_t<It2>>,
                "adapt::transform_reduce: the transform must be callable with two elements");
  if constexpr (!detail::random_access_v<It1, It2>) {
    return std::transform_reduce(first1, last1, first2, std::move(init), rop, top);
  } else {
    std::size_t n = detail::dist(first1, last1);
    if (n == 0) return init;
    if (n == 1) return detail::fold_op(rop, init, top(*first1, *first2));
    using R = std::invoke_result_t<TOp &, detail::ref_t<It1>, detail::ref_t<It2>>;
    return detail::reduce_blocks(
        pol, "adapt::transform_reduce", n,
        sizeof(detail::value_t<It1>) + sizeof(detail::value_t<It2>), std::move(init), rop,
        [&](std::size_t lo, std::size_t hi) -> T {
          It1 a = detail::adv(first1, lo), e = detail::adv(first1, hi);
          It2 c = detail::adv(first2, lo);
          T v = detail::fold_first<T>(rop, top(a[0], c[0]), top(a[1], c[1]));
          if constexpr (detail::pair_gives_v<T, ROp, R, R>) /* as in reduce */
            return std::transform_reduce(a + 2, e, c + 2, std::move(v), rop, top);
          else
            return detail::fold_rest(std::move(v), 2, hi - lo, rop,
                                     [a, c, &top](std::size_t i) -> R {
                                       return top(*detail::adv(a, i), *detail::adv(c, i));
                                     });
        });
  }
}
template <class It1, class It2, class T>
T transform_reduce(const policy &pol, It1 first1, It1 last1, It2 first2, T init) {
  return adapt::transform_reduce(pol, first1, last1, first2, std::move(init), std::plus<>(),
                                 std::multiplies<>());
}

/* ===== Searches and counts =============================================== */

/* std::find_if: the first element satisfying pred (last if none). Elements
 * before the result are tested once, after it at most once; once a match
 * is known, at most about one grain per worker is tested past it. */
template <class It, class Pred>
It find_if(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::find_if: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred);
}

/* std::find: the first element == value. */
template <class It, class T>
It find(const policy &pol, It first, It last, const T &value) {
  auto eq = [&value](const auto &x) { return x == value; };
  return detail::find_if(pol, first, last, eq);
}

/* std::any_of, all_of, none_of (early exit as find_if). */
template <class It, class Pred>
bool any_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::any_of: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred) != last;
}
template <class It, class Pred>
bool all_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::all_of: pred must be callable with an element, pred(*first)");
  auto neg = [&pred](auto &&x) { return !pred(x); };
  return detail::find_if(pol, first, last, neg) == last;
}
template <class It, class Pred>
bool none_of(const policy &pol, It first, It last, Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::none_of: pred must be callable with an element, pred(*first)");
  return detail::find_if(pol, first, last, pred) == last;
}

/* std::count_if: the number of elements satisfying pred. */
template <class It, class Pred>
typename std::iterator_traits<It>::difference_type count_if(const policy &pol, It first, It last,
                                                            Pred pred) {
  static_assert(std::is_invocable_v<Pred &, detail::ref_t<It>>,
                "adapt::count_if: pred must be callable with an element, pred(*first)");
  using D = typename std::iterator_traits<It>::difference_type;
  if constexpr (!detail::random_access_v<It>) {
    return std::count_if(first, last, pred);
  } else {
    detail::count_ops<It, Pred> ops{first, pred};
    std::size_t c = 0;
    detail::par_ordered(pol.attr(1, false), "adapt::count_if", detail::dist(first, last),
                        sizeof(detail::value_t<It>), ops, c);
    return static_cast<D>(c);
  }
}

/* std::count: the number of elements == value. */
template <class It, class T>
typename std::iterator_traits<It>::difference_type count(const policy &pol, It first, It last,
                                                         const T &value) {
  return adapt::count_if(pol, first, last, [&value](const auto &x) { return x == value; });
}

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
    detail::copy_if_ops<It, Out, Pred> ops{first, d_first, pred};
    typename detail::copy_if_ops<It, Out, Pred>::master m;
    detail::par_ordered(pol.attr(1, false), "adapt::copy_if", detail::dist(first, last),
                        sizeof(detail::value_t<It>) + sizeof(detail::value_t<Out>), ops, m);
    return detail::adv(d_first, m.pos);
  }
}

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

/* ===== Sorting =========================================================== */
/* Parallel sorts (<adapt/stl/sort.hpp>). sort: an in-place parallel
 * quicksort (median-of-nine pivots, std's Hoare partition; the first,
 * largest partitions are split among the workers; std::sort below a leaf
 * size or past a depth bound), no buffer. stable_sort: a parallel merge
 * sort, std::stable_sort on leaves, one buffer of n elements (raw storage,
 * move-constructed; when it cannot be allocated, merges in place with
 * std::inplace_merge, as std::stable_sort degrades). One worker, short
 * ranges, proxy references (std::vector<bool>) or element types whose move
 * constructor may throw: std's sequential sort. Random-access iterators
 * only, as std's. The policy's attributes do not apply (spawn/sync tasks),
 * nor does adapt_cancel() in the comparator (it returns -EPERM, or cancels
 * the parallel call enclosing the sort): throw to stop a sort. On an
 * exception the range holds valid but unspecified values (as std::sort's,
 * not necessarily a permutation of the input). */

namespace detail {

/* adapt::sort (Stable: adapt::stable_sort) on the policy's workers. */
template <bool Stable, class It, class Cmp>
void sort_entry(const policy &pol, It first, It last, Cmp &cmp) {
  static_assert(random_access_v<It>, "adapt::sort and adapt::stable_sort need random-access "
                                     "iterators (std::list: list.sort())");
  static_assert(std::is_invocable_v<Cmp &, ref_t<It>, ref_t<It>>,
                "adapt::sort, adapt::stable_sort: cmp must be callable with two elements, "
                "cmp(*first, *first)");
  with_workers(pol.max_workers(),
               [&] { detail::sort<Stable>(first, last, cmp, pol.token(), pol.max_workers()); });
}

} // namespace detail

template <class It, class Cmp = std::less<>>
void sort(const policy &pol, It first, It last, Cmp cmp = {}) {
  detail::sort_entry<false>(pol, first, last, cmp);
}

template <class It, class Cmp = std::less<>>
void stable_sort(const policy &pol, It first, It last, Cmp cmp = {}) {
  detail::sort_entry<true>(pol, first, last, cmp);
}

} // namespace adapt

#include <adapt/stl/algorithms.hpp>
/* C++20: adapt::ranges:: (<adapt/stl/ranges.hpp>). */
#if __cplusplus >= 202002L && __has_include(<ranges>)
#include <adapt/stl/ranges.hpp>
#endif

#endif /* ADAPT_STL_HPP */
