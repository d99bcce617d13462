/* Tests of <adapt/stl.hpp> as C++ users write it, beside std: element
 * functions taking their arguments by value, by non-const reference or as
 * generic parameters; std::vector<bool> (proxy iterators); scans and
 * reductions into a wider type; stable_sort when memory is short;
 * adapt::task_group and adapt::parallel_invoke; policy::workers(k). Linked
 * into test_stl, which runs stl_use::run() at each of its worker counts.
 * This file is compiled with -Wpedantic -Wshadow -Wconversion
 * -Wsign-conversion -Werror (stl/module.mk): the installed headers
 * must stay clean under them. */
#include <adapt/stl.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "stl_test_util.h"
#include "test_stl_use.h"

#if defined(__GNUC__) && !defined(__clang__)
/* operator delete below frees what operator new malloc'ed; GCC, inlining
 * both into a caller, takes free() for a mismatch. */
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
/* operator new below fails requests of at least this many bytes made by
 * the thread that set it (0: none). */
thread_local std::size_t fail_from = 0;
} // namespace

/* The program's operator new: malloc, failing as fail_from says (the
 * nothrow form, the arrays and delete follow it). */
void *operator new(std::size_t n) {
  if (fail_from && n >= fail_from) throw std::bad_alloc();
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return ::operator new(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

namespace {

/* Above 2 ADAPT_STL_SORT_LEAF_MIN (the sorts run in parallel) and two scan
 * blocks; cheap element functions, so the sanitizer variants keep it. */
constexpr std::size_t n = 20000;

/* A key that a move empties (-1), as a moved-from string or vector is
 * empty; copies keep it. Cheaper than strings under the sanitizers. */
struct key {
  int v = 0;
  key() = default;
  explicit key(int x) : v(x) {}
  key(const key &) = default;
  key(key &&o) noexcept : v(o.v) { o.v = -1; }
  key &operator=(const key &) = default;
  key &operator=(key &&o) noexcept {
    v = o.v;
    o.v = -1;
    return *this;
  }
  bool operator<(const key &o) const { return v < o.v; }
  bool operator==(const key &o) const { return v == o.v; }
};

std::vector<key> keys() {
  std::vector<key> v(n);
  for (std::size_t i = 0; i < n; i++) v[i] = key(static_cast<int>((i * 7919) % 5000));
  return v;
}

std::vector<int> small_ints() {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; i++) v[i] = static_cast<int>((i * 7919) % 1000);
  return v;
}

/* Comparators and predicates see lvalues: by value, non-const reference
 * and generic parameters work as with std. */
void element_functions() {
  const auto a = keys();
  auto want = a;
  std::stable_sort(want.begin(), want.end());
  auto s = a;
  adapt::stable_sort(s.begin(), s.end(), [](auto x, auto y) { return x < y; });
  CHECK(s == want);
  s = a;
  adapt::sort(s.begin(), s.end(), [](key &x, key &y) { return x < y; });
  CHECK(s == want);

  auto v = small_ints();
  std::vector<int> o(n), r(n);
  auto even = [](int &x) { return x % 2 == 0; };
  auto oe = adapt::copy_if(v.begin(), v.end(), o.begin(), even);
  auto re = std::copy_if(v.begin(), v.end(), r.begin(), even);
  CHECK(oe - o.begin() == re - r.begin() && o == r);
  CHECK(adapt::count_if(v.begin(), v.end(), even) == std::count_if(v.begin(), v.end(), even));
  auto is777 = [](int &x) { return x == 777; };
  CHECK(adapt::find_if(v.begin(), v.end(), is777) == std::find_if(v.begin(), v.end(), is777));
  CHECK(adapt::all_of(v.begin(), v.end(), [](auto &x) { return x >= 0; }));

  auto add = [](int &x, int &y) { return x + y; }; /* accepted by libstdc++'s */
  CHECK(adapt::reduce(v.begin(), v.end(), 0, add) == std::reduce(v.begin(), v.end(), 0, add));
  adapt::inclusive_scan(v.begin(), v.end(), o.begin(), add);
  std::inclusive_scan(v.begin(), v.end(), r.begin(), add);
  CHECK(o == r);
  adapt::inclusive_scan(adapt::par.deterministic(false), v.begin(), v.end(), o.begin(), add, 5);
  std::inclusive_scan(v.begin(), v.end(), r.begin(), add, 5);
  CHECK(o == r);
  adapt::exclusive_scan(v.begin(), v.end(), o.begin(), 5, add);
  std::exclusive_scan(v.begin(), v.end(), r.begin(), 5, add);
  CHECK(o == r);
}

/* int elements near 2e9 accumulated into long long (the offsets idiom):
 * no pair of elements is added in int. */
void wider_accumulator() {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; i++) v[i] = 2000000000 - static_cast<int>(i);
  std::vector<long long> want(n), o(n);
  long long acc = 0;
  for (std::size_t i = 0; i < n; i++) want[i] = acc += v[i];
  adapt::inclusive_scan(v.begin(), v.end(), o.begin(), std::plus<>(), 0LL);
  CHECK(o == want);
  adapt::inclusive_scan(adapt::par.deterministic(false), v.begin(), v.end(), o.begin(),
                        std::plus<>(), 0LL);
  CHECK(o == want);
  adapt::exclusive_scan(v.begin(), v.end(), o.begin(), 0LL);
  CHECK(o[0] == 0 && std::equal(want.begin(), want.end() - 1, o.begin() + 1));
  CHECK(adapt::reduce(v.begin(), v.end(), 0LL) == acc);
  CHECK(adapt::transform_reduce(v.begin(), v.end(), 0LL, std::plus<>(), [](int x) { return x; }) ==
        acc);
  std::vector<int> ones(n, 1);
  CHECK(adapt::transform_reduce(v.begin(), v.end(), ones.begin(), 0LL, std::plus<>(),
                                std::minus<>()) == acc - static_cast<long long>(n));
}

/* Proxy iterators: no two workers write bits of one word. */
void vector_bool() {
  std::vector<int> idx(n), owner(n, -1);
  for (std::size_t i = 0; i < n; i++) idx[i] = static_cast<int>(i);
  std::vector<bool> bits(n), want(n);
  /* slow elements, small chunks: every worker takes part when it may */
  adapt::transform(adapt::par.grain(16), idx.begin(), idx.end(), bits.begin(), [&](int i) {
    double x = i;
    for (int k = 0; k < 40; k++) x = std::sqrt(x + k);
    owner[static_cast<std::size_t>(i)] = adapt_worker_id();
    return x > 0 && i % 3 == 0;
  });
  bool one_writer = true;
  for (std::size_t i = 0; i < n; i++) one_writer = one_writer && owner[i] == owner[i / 64 * 64];
  CHECK(one_writer);
  for (std::size_t i = 0; i < n; i++) want[i] = i % 3 == 0;
  CHECK(bits == want);
  adapt::for_each(bits.begin(), bits.end(), [](std::vector<bool>::reference b) { b = !b; });
  want.flip();
  CHECK(bits == want);
  adapt::sort(bits.begin(), bits.end());
  std::sort(want.begin(), want.end());
  CHECK(bits == want);
  std::vector<bool> o(n), r(n);
  /* with init: libstdc++'s scan without one holds *first as a proxy */
  adapt::inclusive_scan(want.begin(), want.end(), o.begin(), std::bit_xor<>(), true);
  std::inclusive_scan(want.begin(), want.end(), r.begin(), std::bit_xor<>(), true);
  CHECK(o == r);
  adapt::fill(o.begin(), o.end(), true);
  CHECK(std::count(o.begin(), o.end(), true) == static_cast<long>(n));
  auto oe = adapt::copy_if(idx.begin(), idx.end(), o.begin(), [](int i) { return i % 2 == 0; });
  CHECK(oe - o.begin() == static_cast<long>(n + 1) / 2);
  adapt::generate(o.begin(), o.end(), [] { return false; });
  CHECK(std::count(o.begin(), o.end(), true) == 0);
}

/* stable_sort without memory for its buffer degrades as std::stable_sort
 * does (here: requests of a quarter of the range's bytes fail on this
 * thread). */
void stable_sort_short_memory() {
  using P = std::pair<int, int>;
  std::vector<P> p(n);
  for (std::size_t i = 0; i < n; i++)
    p[i] = {static_cast<int>((i * 7919) % 10), static_cast<int>(i)};
  auto key = [](const P &x, const P &y) { return x.first < y.first; };
  auto want = p;
  std::stable_sort(want.begin(), want.end(), key);
  bool threw = false;
  fail_from = n * sizeof(P) / 4;
  try {
    adapt::stable_sort(p.begin(), p.end(), key);
  } catch (const std::bad_alloc &) {
    threw = true;
  }
  fail_from = 0;
  CHECK(!threw);
  CHECK(p == want);
}

/* Every algorithm, with and without a policy, on a few elements: their
 * instantiations compile clean under this file's warnings. */
void every_algorithm() {
  const std::size_t m = 100;
  std::vector<int> v(m), o(m), r(m);
  for (std::size_t i = 0; i < m; i++) v[i] = static_cast<int>((i * 37) % 50);
  std::vector<double> d(v.begin(), v.end());
  auto inc = [](int &x) { x++; };
  auto pos = [](int x) { return x > 25; };
  adapt::for_each(o.begin(), o.end(), inc);
  adapt::for_each(adapt::par, o.begin(), o.end(), inc);
  adapt::for_each_n(o.begin(), m / 2, inc);
  CHECK(adapt::for_each_n(adapt::par, o.begin(), m, inc) == o.end() && o[0] == 4 && o[m - 1] == 3);
  adapt::transform(v.begin(), v.end(), o.begin(), [](int x) { return x + 1; });
  adapt::transform(adapt::par, v.begin(), v.end(), o.begin(), o.begin(), std::minus<>());
  CHECK(std::count(o.begin(), o.end(), -1) == static_cast<long>(m));
  adapt::fill(o.begin(), o.end(), 2);
  adapt::fill(adapt::par, r.begin(), r.end(), 2);
  CHECK(o == r);
  adapt::generate(o.begin(), o.end(), [] { return 4; });
  adapt::generate(adapt::par, r.begin(), r.end(), [] { return 4; });
  CHECK(o == r);
  const long sum = std::accumulate(v.begin(), v.end(), 0L);
  CHECK(adapt::reduce(v.begin(), v.end()) == sum &&
        adapt::reduce(adapt::par, v.begin(), v.end()) == sum);
  CHECK(adapt::reduce(v.begin(), v.end(), 0L) == sum &&
        adapt::reduce(adapt::par, v.begin(), v.end(), 0L, std::plus<>()) == sum);
  CHECK(adapt::transform_reduce(v.begin(), v.end(), v.begin(), 0L) ==
        adapt::transform_reduce(adapt::par, v.begin(), v.end(), 0L, std::plus<>(),
                                [](int x) { return static_cast<long>(x) * x; }));
  CHECK(adapt::transform_reduce(adapt::par, d.begin(), d.end(), v.begin(), 0.0) ==
        adapt::transform_reduce(d.begin(), d.end(), v.begin(), 0.0, std::plus<>(),
                                std::multiplies<>()));
  CHECK(adapt::find(v.begin(), v.end(), 49) == std::find(v.begin(), v.end(), 49));
  CHECK(adapt::find(adapt::par, v.begin(), v.end(), 7) == std::find(v.begin(), v.end(), 7));
  CHECK(adapt::find_if(adapt::par, v.begin(), v.end(), pos) ==
        std::find_if(v.begin(), v.end(), pos));
  CHECK(adapt::any_of(v.begin(), v.end(), pos) &&
        adapt::any_of(adapt::par, v.begin(), v.end(), pos));
  CHECK(!adapt::all_of(v.begin(), v.end(), pos) &&
        !adapt::all_of(adapt::par, v.begin(), v.end(), pos));
  CHECK(!adapt::none_of(v.begin(), v.end(), pos) &&
        !adapt::none_of(adapt::par, v.begin(), v.end(), pos));
  CHECK(adapt::count(v.begin(), v.end(), 12) == std::count(v.begin(), v.end(), 12) &&
        adapt::count(adapt::par, v.begin(), v.end(), 12) == std::count(v.begin(), v.end(), 12));
  CHECK(adapt::count_if(adapt::par, v.begin(), v.end(), pos) ==
        std::count_if(v.begin(), v.end(), pos));
  CHECK(adapt::copy_if(adapt::par, v.begin(), v.end(), o.begin(), pos) - o.begin() ==
        std::count_if(v.begin(), v.end(), pos));
  adapt::inclusive_scan(v.begin(), v.end(), o.begin());
  adapt::inclusive_scan(adapt::par, v.begin(), v.end(), r.begin());
  CHECK(o == r && o[m - 1] == sum);
  adapt::inclusive_scan(v.begin(), v.end(), o.begin(), std::plus<>(), 1);
  adapt::exclusive_scan(adapt::par, v.begin(), v.end(), r.begin(), 1);
  CHECK(o[m - 2] == r[m - 1]);
  adapt::exclusive_scan(v.begin(), v.end(), o.begin(), 0, std::plus<>());
  CHECK(o[m - 1] == sum - v[m - 1]);
  o = v;
  r = v;
  adapt::sort(o.begin(), o.end());
  adapt::sort(adapt::par, r.begin(), r.end(), std::greater<>());
  CHECK(std::is_sorted(o.begin(), o.end()) && std::equal(o.begin(), o.end(), r.rbegin()));
  adapt::stable_sort(o.begin(), o.end(), std::greater<>());
  adapt::stable_sort(adapt::par, r.begin(), r.end());
  CHECK(std::equal(o.begin(), o.end(), r.rbegin()));
}

/* The sum of [lo, hi) by nested task groups (a tree of tasks). */
long tree_sum(long lo, long hi) {
  if (hi - lo <= 64) return (lo + hi - 1) * (hi - lo) / 2;
  long mid = lo + (hi - lo) / 2, left = 0;
  adapt::task_group g;
  g.run([&] { left = tree_sum(lo, mid); });
  long right = tree_sum(mid, hi);
  g.wait();
  return left + right;
}

struct task_boom {};

void tasks() {
  CHECK(tree_sum(0, 100000) == 100000L * 99999 / 2);
  adapt::task_group g;
  std::vector<int> hit(64, 0);
  for (std::size_t i = 0; i < hit.size(); i++) g.run([&hit, i] { hit[i] = 1; });
  g.wait();
  CHECK(std::count(hit.begin(), hit.end(), 1) == 64);
  bool caught = false;
  g.run([] { throw task_boom(); });
  g.run([&hit] { hit[0] = 2; });
  try {
    g.wait();
  } catch (const task_boom &) {
    caught = true;
  }
  CHECK(caught);
  g.run([&hit] { hit[1] = 3; }); /* usable again */
  g.wait();
  CHECK(hit[1] == 3);
  int a = 0, b = 0, c = 0;
  adapt::parallel_invoke([&] { a = 1; }, [&] { b = 2; }, [&] { c = 3; });
  CHECK(a == 1 && b == 2 && c == 3);
  for (int thrower = 0; thrower < 2; thrower++) {
    caught = false;
    try {
      adapt::parallel_invoke(
          [&] {
            if (thrower == 0) throw task_boom();
          },
          [&] {
            if (thrower == 1) throw task_boom();
          });
    } catch (const task_boom &) {
      caught = true;
    }
    CHECK(caught);
  }
}

/* adapt::for_index: each index once (negative bounds, mixed bound types,
 * a small grain, adapt_for and, with a window, the sequence engine), empty
 * ranges, an exception and adapt_cancel from f. */
void index_loop() {
  std::vector<int> hit(n, 0);
  const int lo = -100;
  adapt::for_index(lo, lo + static_cast<int>(n),
                   [&](int i) { hit[static_cast<std::size_t>(i - lo)]++; });
  CHECK(std::count(hit.begin(), hit.end(), 1) == static_cast<long>(n));
  adapt::for_index(adapt::par.window(adapt::window::sliding).grain(7), 0, n,
                   [&](std::size_t i) { hit[i]--; });
  CHECK(std::count(hit.begin(), hit.end(), 0) == static_cast<long>(n));
  adapt::for_index(5, 5, [&](int) { hit[0] = 9; });
  adapt::for_index(5, 3, [&](int) { hit[0] = 9; });
  CHECK(hit[0] == 0);
  std::atomic<std::size_t> ran{0};
  bool caught = false;
  try {
    adapt::for_index(std::size_t{0}, n, [&](std::size_t i) {
      ran.fetch_add(1, std::memory_order_relaxed);
      if (i == n / 2) throw task_boom();
    });
  } catch (const task_boom &) {
    caught = true;
  }
  CHECK(caught && ran.load() <= n);
  ran = 0;
  int code = 0;
  try {
    adapt::for_index(adapt::par.grain(16), std::size_t{0}, n, [&](std::size_t i) {
      ran.fetch_add(1, std::memory_order_relaxed);
      if (i == 0) (void)adapt_cancel();
    });
  } catch (const adapt::error &e) {
    code = e.code().value();
  }
  CHECK(code == ECANCELED && ran.load() < n / 2);
}

/* adapt::cancel_token: a token cancelled before the call stops it before
 * any element (a map, adapt_for, an ordered kernel, the sorts); one
 * cancelled by another thread while the call runs stops it early; reset()
 * lets calls run again. */
void cancel_tokens() {
  adapt::cancel_token tok;
  const auto pol = adapt::par.cancel_with(tok);
  auto v = small_ints();
  auto cancelled = [](auto &&call) {
    try {
      call();
    } catch (const adapt::error &e) {
      return e.code().value() == ECANCELED;
    }
    return false;
  };
  std::atomic<std::size_t> ran{0};
  auto count = [&](int &) { ran.fetch_add(1, std::memory_order_relaxed); };
  tok.cancel();
  CHECK(cancelled([&] { adapt::for_each(pol, v.begin(), v.end(), count); }));
  CHECK(cancelled([&] { adapt::for_index(pol, 0, n, [&](std::size_t) { ran++; }); }));
  CHECK(ran.load() == 0);
  CHECK(cancelled(
      [&] { (void)adapt::count_if(pol, v.begin(), v.end(), [](int x) { return x > 5; }); }));
  CHECK(cancelled([&] { adapt::sort(pol, v.begin(), v.end()); }));
  CHECK(cancelled([&] { adapt::stable_sort(pol, v.begin(), v.end()); }));
  tok.reset();
  adapt::for_each(pol, v.begin(), v.end(), count);
  CHECK(ran.load() == n);
  ran = 0;
  std::thread canceller([&] {
    while (ran.load() == 0) std::this_thread::yield();
    tok.cancel();
  });
  CHECK(cancelled([&] {
    adapt::for_index(pol.grain(16), std::size_t{0}, n, [&](std::size_t) {
      ran.fetch_add(1, std::memory_order_relaxed);
      while (!tok.cancelled()) std::this_thread::yield();
    });
  }));
  canceller.join();
  CHECK(ran.load() < n / 2);
}

/* policy::workers(k), composed with the other modifiers: with 8 workers
 * and k = 1, 2, 3, at most k distinct workers run the element functions of
 * a map, an index loop, a reduce, a scan and both sorts (their spawned
 * parts included); every element once, the results right. */
void worker_limits() {
  constexpr auto composed = adapt::par.grain(64).workers(2).deterministic(false);
  static_assert(composed.max_workers() == 2 && composed.grain_size() == 64 &&
                    !composed.is_deterministic() && adapt::par.max_workers() == 0,
                "workers(k) composes with the other modifiers");
  if (adapt_num_workers() < 8) return; /* the limit is checked where it binds */
  std::atomic<unsigned> ids{0};
  auto note = [&] { /* bit w: worker w ran an element function; bit 31: off the workers */
                    int id = adapt_worker_id();
                    unsigned bit = id >= 0 && id < 31 ? 1u << id : 1u << 31;
                    if (!(ids.load(std::memory_order_relaxed) & bit))
                      ids.fetch_or(bit, std::memory_order_relaxed);
  };
  auto within = [&](unsigned k) {
    unsigned s = ids.exchange(0);
    unsigned seen = static_cast<unsigned>(__builtin_popcount(s));
    if (s >> 31 || seen == 0 || seen > k) std::fprintf(stderr, "workers(%u): ran on 0x%x\n", k, s);
    return !(s >> 31) && seen >= 1 && seen <= k;
  };
  auto ref = small_ints();
  std::sort(ref.begin(), ref.end());
  for (unsigned k = 1; k <= 3; k++) {
    /* sanitizers: the composed policy only (1.2 s of CPU under TSan for all three) */
    const adapt::policy pols[] = {adapt::par.grain(16).workers(k), adapt::par.workers(k),
                                  adapt::par.workers(k).window(adapt::window::sliding, 2048)};
    const std::size_t npols = stl_test::sanitized() ? 1 : 3;
    for (std::size_t p = 0; p < npols; p++) {
      const adapt::policy &pol = pols[p];
      std::vector<int> v(n, 1);
      adapt::for_each(pol, v.begin(), v.end(), [&](int &x) {
        note();
        for (int j = 0; j < 64; j++) x = x * 3 % 7 == 99 ? 0 : x; /* some work */
        x++;
      });
      CHECK(std::count(v.begin(), v.end(), 2) == static_cast<long>(n) && within(k));
      std::vector<unsigned char> hit(n, 0);
      adapt::for_index(pol, std::size_t{0}, n, [&](std::size_t i) {
        note();
        hit[i]++;
      });
      CHECK(std::count(hit.begin(), hit.end(), 1) == static_cast<long>(n) && within(k));
      long long sum =
          adapt::transform_reduce(pol, v.begin(), v.end(), 0LL, std::plus<>(), [&](int x) {
            note();
            return static_cast<long long>(x);
          });
      CHECK(sum == 2 * static_cast<long long>(n) && within(k));
      std::vector<long long> out(n);
      adapt::inclusive_scan(
          pol, v.begin(), v.end(), out.begin(),
          [&](long long a, long long b) {
            note();
            return a + b;
          },
          0LL);
      CHECK(out[n / 2] == 2 * static_cast<long long>(n / 2 + 1) &&
            out[n - 1] == 2 * static_cast<long long>(n) && within(k));
      auto less = [&](int a, int b) {
        note();
        return a < b;
      };
      auto w = small_ints();
      adapt::sort(pol, w.begin(), w.end(), less);
      CHECK(w == ref && within(k));
      w = small_ints();
      adapt::stable_sort(pol, w.begin(), w.end(), less);
      CHECK(w == ref && within(k));
    }
  }
}

/* adapt_cancel() from a sort's comparator, with and without workers(2):
 * the sort completes (spawned parts do not see it), and the cancel goes to
 * the call enclosing the sort, as the contract says: a body that sorts and
 * calls it from the comparator cancels its adapt_for (-ECANCELED) whatever
 * the policy (adapt_with_workers, which runs a limited sort, opens no call
 * that would keep it). */
void cancel_in_comparator() {
  for (unsigned k : {0u, 2u}) {
    std::atomic<int> sorted{0};
    auto body = [](std::size_t, std::size_t, void *p) {
      auto *x = static_cast<std::pair<unsigned, std::atomic<int> *> *>(p);
      auto w = small_ints();
      std::atomic<long> calls{0};
      auto cmp = [&](int a, int b) {
        if (calls.fetch_add(1, std::memory_order_relaxed) == 0) (void)adapt_cancel();
        return a < b;
      };
      adapt::sort(adapt::par.workers(x->first), w.begin(), w.end(), cmp);
      if (std::is_sorted(w.begin(), w.end())) x->second->fetch_add(1);
    };
    std::pair<unsigned, std::atomic<int> *> arg{k, &sorted};
    adapt_attr a{};
    a.grain = 1;
    int rc = adapt_for(0, 1, body, &arg, &a);
    if (rc != -ECANCELED || sorted.load() != 1)
      std::fprintf(stderr, "cancel in a comparator, workers(%u): rc %d, sorted %d\n", k, rc,
                   sorted.load());
    CHECK(rc == -ECANCELED && sorted.load() == 1);
  }
}

} // namespace

namespace stl_use {

void run(int workers) {
  stl_test::where = "use, workers " + std::to_string(workers);
  element_functions();
  wider_accumulator();
  vector_bool();
  stable_sort_short_memory();
  every_algorithm();
  tasks();
  index_loop();
  cancel_tokens();
  worker_limits();
  cancel_in_comparator();
}

} // namespace stl_use
