/* Internals of <adapt/stl.hpp>: the trampolines between the sequence engine
 * (<adapt/seq.h>) and C++ element functions, and the first-exception slot.
 * Not part of the API (namespace adapt::detail may change at any time).
 *
 * One engine callback per chunk: each algorithm passes a lambda that loops
 * over the chunk [b, e) calling the element function; the trampoline is a
 * template instantiated for that lambda, so the element function is inlined
 * into the chunk loop. What does not depend on the lambda (the region, the
 * merges of ordered kernels) is plain functions. Exceptions never cross the
 * C engine: the trampoline catches them, keeps the first one and cancels the
 * call (adapt_cancel); the caller rethrows it once adapt_seq_run has
 * returned. */
#ifndef ADAPT_STL_DETAIL_HPP
#define ADAPT_STL_DETAIL_HPP

#include <atomic>
#include <cstddef>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <adapt/loop.h>
#include <adapt/seq.h>
#include <adapt/stl/config.hpp>
#include <adapt/stl/policy.hpp>

namespace adapt {
namespace detail {

template <class It>
using category_t = typename std::iterator_traits<It>::iterator_category;

/* Random-access iterators run in parallel; the others use std. */
template <class... It>
inline constexpr bool
    random_access_v = (std::is_base_of_v<std::random_access_iterator_tag, category_t<It>> && ...);

/* Iterators a worker may write through alone: random access with a real
 * reference. A proxy reference (std::vector<bool>'s) writes a bit of a word
 * that neighbouring elements share, so two workers would race on it: the
 * algorithms that write through such iterators run sequentially. */
template <class... It>
inline constexpr bool
    writable_v = random_access_v<It...> &&
                 (std::is_reference_v<typename std::iterator_traits<It>::reference> && ...);

/* True when no thief can take part in a call under pol now: the runtime
 * has one worker, the policy's limit is one (policy::workers(1)), or no
 * worker is idle (adapt_idle_workers() 0: a call nested in a region whose
 * other workers are all busy, or a top-level call while another thread's
 * region holds the workers). The algorithms whose parallel path does more
 * work than std's even when no thief comes (partition's fix-up pass,
 * inplace_merge's buffer and co-ranks, nth_element's partitioning rounds)
 * take std's path then; the others run their chunk loop inline, as cheap
 * as std's. A snapshot: a worker that becomes idle later does not help
 * that call. Any thread. */
inline bool alone(const policy &pol) {
  return adapt_num_workers() <= 1 || pol.max_workers() == 1 || adapt_idle_workers() == 0;
}

/* A buffer of n elements allocated from al (the caller's try holds the
 * allocation, to fall back when it fails): its elements destroyed once the
 * caller sets built, and the memory freed, however the scope ends. An
 * aggregate (never copied: one object owns the buffer). */
template <class V>
struct scratch_buffer {
  std::allocator<V> &al;
  V *p;
  std::size_t n;
  bool built;
  ~scratch_buffer() {
    if (built) std::destroy(p, p + n);
    al.deallocate(p, n);
  }
};

template <class T>
inline constexpr bool is_policy_v = std::is_same_v<std::decay_t<T>, policy>;

/* Enables the overloads without a policy only when the first argument is
 * not a policy (no ambiguity with the policy-first overloads): one per
 * algorithm name, in <adapt/stl/without_policy.hpp>. */
template <class T>
using not_policy = std::enable_if_t<!is_policy_v<T>, int>;

template <class It>
using value_t = typename std::iterator_traits<It>::value_type;
template <class It>
using ref_t = typename std::iterator_traits<It>::reference;

/* One step of a fold, acc (+) x, whose result the caller stores back into
 * acc (an accumulator of the algorithm's own, never an element): acc is
 * moved when op accepts an rvalue there (no copy of a string), else passed
 * as an lvalue, as std's loops pass it (an op taking (T &, T &)). x is
 * forwarded: an element is an lvalue, as in std's loops. */
template <class Op, class A, class X>
decltype(auto) fold_op(Op &op, A &acc, X &&x) {
  if constexpr (std::is_invocable_v<Op &, A &&, X &&>)
    return op(std::move(acc), std::forward<X>(x));
  else
    return op(acc, std::forward<X>(x));
}

/* True when op(x, y) on two values of types X, Y gives a T. */
template <class T, class Op, class X, class Y, class = void>
struct pair_gives : std::false_type {};
template <class T, class Op, class X, class Y>
struct pair_gives<
    T, Op, X, Y,
    std::enable_if_t<std::is_same_v<std::decay_t<std::invoke_result_t<Op &, X, Y>>, T>>>
    : std::true_type {};
template <class T, class Op, class X, class Y>
inline constexpr bool pair_gives_v = pair_gives<T, Op, X, Y>::value;

/* The first step of a block's fold, x (+) y, in the accumulator's type T
 * (the type std accumulates in: init's, or the element type of an
 * inclusive scan without init): op(x, y) when that gives a T; otherwise
 * op(T(x), y) when T can be made from x, so that ints summed into a
 * long long do not overflow in int first (as a fold from init would not). */
template <class T, class Op, class X, class Y>
T fold_first(Op &op, X &&x, Y &&y) {
  if constexpr (!pair_gives_v<T, Op, X &&, Y &&> && std::is_constructible_v<T, X &&>) {
    T t(std::forward<X>(x));
    return fold_op(op, t, std::forward<Y>(y));
  } else {
    return op(std::forward<X>(x), std::forward<Y>(y));
  }
}

/* The first exception of a call, and its cancel token. failed: set once by
 * the first body that throws; exc: written only by that body; by_token: set
 * by the chunks that saw the token cancelled. */
struct failure {
  std::atomic<bool> failed{false};
  std::exception_ptr exc;
  const cancel_token *token = nullptr;
  std::atomic<bool> by_token{false};
  /* false: the parts run as spawned tasks or inline on the caller (the
   * sorts), where adapt_cancel would reach an enclosing call: the parts
   * poll stopped() instead. */
  bool cancels = true;

  /* In a catch handler: keep the current exception if it is the first one;
   * cancel the running call (cancel false: a spawned task, which adapt_cancel
   * does not stop; the other tasks poll stopped()). Never throws. */
  void capture(bool cancel = true) noexcept {
    /* acq_rel: the exchange only elects the writer of exc; exc is read by
     * the caller after adapt_seq_run / adapt_sync returned, which is ordered
     * after every body by the runtime's join (the end of the region). */
    if (!failed.exchange(true, std::memory_order_acq_rel)) exc = std::current_exception();
    /* -EPERM outside a parallel body is harmless: the chunks poll stopped(). */
    if (cancel) (void)adapt_cancel();
  }
  /* True when the call is to stop: a body threw, or the token was
   * cancelled (then noted in by_token and the running call cancelled, as
   * capture does). relaxed: a hint to skip work; a stale false runs one
   * more chunk; by_token is read after the call's join. */
  bool stopped() noexcept {
    if (failed.load(std::memory_order_relaxed)) return true;
    if (!token || !token->cancelled()) return false;
    by_token.store(true, std::memory_order_relaxed);
    if (cancels) (void)adapt_cancel();
    return true;
  }
};

/* After a call: rethrow the first exception of a body, else adapt::error
 * ECANCELED when the token stopped it, else turn a negative return code
 * into adapt::error. */
inline void finish(int rc, failure &f) {
  if (f.exc) std::rethrow_exception(f.exc);
  if (f.by_token.load(std::memory_order_relaxed))
    throw error(-ECANCELED, "cancelled by the policy's adapt::cancel_token");
  if (rc < 0) throw error(rc, adapt_last_error());
}

/* f() as one call limited to k workers (policy::workers), for the calls
 * whose parts are spawned tasks (the sorts, the scans' output tasks): f
 * runs on this thread under adapt_with_workers(k), so that the scopes it
 * opens, and the calls under it, keep to k workers. k 0: f() directly.
 * Returns f's result; rethrows its exception; adapt::error when the
 * runtime fails before f runs. An adapt_cancel that f's own code makes on
 * this thread goes, as without the limit, to the call enclosing this one. */
template <class F>
auto with_workers(unsigned k, F &&f) -> decltype(f()) {
  using R = decltype(f());
  if (k == 0) return f();
  struct call {
    F &f;
    std::optional<std::conditional_t<std::is_void_v<R>, bool, R>> result;
    std::exception_ptr exc;
    static void run(void *p) noexcept {
      auto *c = static_cast<call *>(p);
      try {
        if constexpr (std::is_void_v<R>) {
          c->f();
          c->result.emplace(true);
        } else {
          c->result.emplace(c->f());
        }
      } catch (...) {
        c->exc = std::current_exception();
      }
    }
  };
  call c{f, {}, {}};
  int rc = adapt_with_workers(k, &call::run, &c);
  if (c.exc) std::rethrow_exception(c.exc);
  if (!c.result) throw error(rc < 0 ? rc : -EPROTO, adapt_last_error());
  if constexpr (!std::is_void_v<R>) return std::move(*c.result);
}

/* --- Maps: a kernel without merge nor discard --------------------------- */
/*
 * The engine's callback for a chunk is instantiated per body type (the
 * body inlined into it); the region around it (the failure slot, the run,
 * the rethrow) does not depend on the body: plain functions.
 */
struct map_call {
  void *body;
  failure fail;
};

template <class Body>
struct map_fns {
  static void run(adapt_seq *s, void *, std::size_t b, std::size_t e, void *ctx) noexcept {
    auto *c = static_cast<map_call *>(ctx);
    if (c->fail.stopped()) return;
    try {
      (*static_cast<Body *>(c->body))(s, b, e);
    } catch (...) {
      c->fail.capture();
    }
  }
  static constexpr adapt_seq_kernel kernel = {&run, nullptr, nullptr, 0, 0};
};

/* The map's region: kernel over [0, n) (n > 0) with c; rethrows as
 * finish(). */
inline void map_region(const call_attr &a, const char *name, std::size_t n, std::size_t unit_bytes,
                       const adapt_seq_kernel *kernel, map_call &c) {
  c.fail.token = a.token;
  int rc = adapt_seq_run(name, n, unit_bytes, kernel, &c, nullptr, &a);
  finish(rc, c.fail);
}

/* The address of an object as void * (the thunks cast it back to its
 * type, const included). */
template <class T>
void *erase(T &x) noexcept {
  return const_cast<void *>(static_cast<const volatile void *>(std::addressof(x)));
}

/* body(s, b, e) on disjoint chunks covering [0, n), in parallel under the
 * policy's scheduler; rethrows the first exception of a body. */
template <class Body>
void par_map(const call_attr &a, const char *name, std::size_t n, std::size_t unit_bytes,
             Body &&body) {
  if (n == 0) return;
  map_call c{erase(body), {}};
  map_region(a, name, n, unit_bytes, &map_fns<std::remove_reference_t<Body>>::kernel, c);
}
/* The same with the policy's attributes, elements as units. */
template <class Body>
void par_map(const policy &pol, const char *name, std::size_t n, std::size_t unit_bytes,
             Body &&body) {
  par_map(pol.attr(), name, n, unit_bytes, std::forward<Body>(body));
}

/* --- Ordered kernels: partial results merged in sequence order ---------- */
/*
 * The engine's per-piece state is a slot: the master's points to the
 * caller's Ops::master_type (p != NULL, master = 1); a stolen piece's is all
 * zero at first (no partial result) and gets a heap Ops::piece_type at its
 * first chunk. merge moves a thief's piece into its victim (the master, or
 * another piece) and deletes it; discard deletes it.
 * Ops provides: run_master(M &, s, b, e), run_piece(P &, s, b, e),
 * merge_master(M &, P &, tb, te), merge_piece(P &victim, P &thief, tb, te),
 * and optionally a static constexpr unsigned thief_parts (the kernel's split
 * ratio, <adapt/seq.h>; 1 when absent).
 * The chunk's callback (run) is instantiated per Ops type, Ops's parts
 * inlined into it; merge and discard, called once per stolen piece, are
 * plain functions that reach Ops through a table of thunks
 * (ordered_fns<Ops>::table), and so is the region.
 */
struct slot {
  void *p;
  int master;
};
static_assert(sizeof(slot) <= ADAPT_SEQ_STATE_MAX, "slot must fit in the piece state");

template <class Ops, class = void>
struct thief_parts_of {
  static constexpr unsigned value = 1;
};
template <class Ops>
struct thief_parts_of<Ops, std::void_t<decltype(Ops::thief_parts)>> {
  static constexpr unsigned value = Ops::thief_parts;
};

/* Ops's merges on erased pointers (ops, master M, pieces P), and the
 * kernel. */
struct ordered_table {
  void (*delete_piece)(void *p) noexcept;
  void (*merge_master)(void *ops, void *m, void *t, std::size_t tb, std::size_t te);
  void (*merge_piece)(void *ops, void *v, void *t, std::size_t tb, std::size_t te);
  adapt_seq_kernel kernel;
};

struct ordered_call {
  const ordered_table *t;
  void *ops;
  failure fail;
};

inline void ordered_merge(adapt_seq *, void *st, void *tst, std::size_t tb, std::size_t te,
                          void *ctx) noexcept {
  auto *c = static_cast<ordered_call *>(ctx);
  auto *v = static_cast<slot *>(st), *t = static_cast<slot *>(tst);
  void *tp = t->p;
  t->p = nullptr;
  if (!tp) return;
  if (!c->fail.stopped()) {
    try {
      if (v->master) {
        c->t->merge_master(c->ops, v->p, tp, tb, te);
      } else if (!v->p) {
        v->p = tp; /* the victim takes the thief's piece as it is */
        return;
      } else {
        c->t->merge_piece(c->ops, v->p, tp, tb, te);
      }
    } catch (...) {
      c->fail.capture();
    }
  }
  c->t->delete_piece(tp);
}
inline void ordered_discard(adapt_seq *, void *tst, void *ctx) noexcept {
  auto *t = static_cast<slot *>(tst);
  static_cast<ordered_call *>(ctx)->t->delete_piece(t->p);
  t->p = nullptr;
}

template <class Ops>
struct ordered_fns {
  using M = typename Ops::master_type;
  using P = typename Ops::piece_type;
  static void run(adapt_seq *s, void *st, std::size_t b, std::size_t e, void *ctx) noexcept {
    auto *c = static_cast<ordered_call *>(ctx);
    auto *sl = static_cast<slot *>(st);
    auto &ops = *static_cast<Ops *>(c->ops);
    if (c->fail.stopped()) return;
    try {
      if (sl->master) {
        ops.run_master(*static_cast<M *>(sl->p), s, b, e);
      } else {
        if (!sl->p) sl->p = new P();
        ops.run_piece(*static_cast<P *>(sl->p), s, b, e);
      }
    } catch (...) {
      c->fail.capture();
    }
  }
  static void delete_piece(void *p) noexcept { delete static_cast<P *>(p); }
  static void merge_master(void *o, void *m, void *t, std::size_t tb, std::size_t te) {
    static_cast<Ops *>(o)->merge_master(*static_cast<M *>(m), *static_cast<P *>(t), tb, te);
  }
  static void merge_piece(void *o, void *v, void *t, std::size_t tb, std::size_t te) {
    static_cast<Ops *>(o)->merge_piece(*static_cast<P *>(v), *static_cast<P *>(t), tb, te);
  }
  static constexpr ordered_table table = {
      &delete_piece,
      &merge_master,
      &merge_piece,
      {&run, &ordered_merge, &ordered_discard, sizeof(slot), thief_parts_of<Ops>::value}};
};

/* The ordered region: c's kernel over the units [0, n) (n > 0) with the
 * master's state m; rethrows as finish(). */
inline void ordered_region(const call_attr &a, const char *name, std::size_t n,
                           std::size_t unit_bytes, ordered_call &c, void *m) {
  c.fail.token = a.token;
  slot sl{m, 1};
  int rc = adapt_seq_run(name, n, unit_bytes, &c.t->kernel, &c, &sl, &a);
  finish(rc, c.fail);
}

/* Run ops over the units [0, n) with the master's state m; rethrows the
 * first exception. attr: from the policy, without its scheduler. */
template <class Ops>
void par_ordered(const call_attr &a, const char *name, std::size_t n, std::size_t unit_bytes,
                 Ops &ops, typename Ops::master_type &m) {
  if (n == 0) return;
  ordered_call c{&ordered_fns<Ops>::table, &ops, {}};
  ordered_region(a, name, n, unit_bytes, c, &m);
}

/* Blocks of reduce and the scans: n / size of them (at least one), the
 * last one taking the remainder, so every block of a sequence of n >= 2
 * elements has at least 2 elements. The scans use size = ADAPT_STL_BLOCK,
 * reduce and transform_reduce reduce_block(n). */
struct blocks {
  std::size_t n, size, count;
  explicit blocks(std::size_t n_, std::size_t size_ = ADAPT_STL_BLOCK)
      : n(n_), size(size_), count(n_ / size_ ? n_ / size_ : 1) {}
  std::size_t lo(std::size_t k) const { return k * size; }
  std::size_t hi(std::size_t k) const { return k + 1 == count ? n : (k + 1) * size; }
};

/* The block of reduce and transform_reduce for n elements: ADAPT_STL_BLOCK,
 * doubled while the doubled block stays within ADAPT_STL_REDUCE_BLOCK_MAX
 * and n still holds ADAPT_STL_REDUCE_BLOCKS_MIN of them. A function of n
 * only: the result's grouping does not depend on the workers. */
constexpr std::size_t reduce_block(std::size_t n) {
  std::size_t b = ADAPT_STL_BLOCK;
  while (2 * b <= ADAPT_STL_REDUCE_BLOCK_MAX && n / (2 * b) >= ADAPT_STL_REDUCE_BLOCKS_MIN) b *= 2;
  return b;
}

} // namespace detail
} // namespace adapt

#endif /* ADAPT_STL_DETAIL_HPP */
