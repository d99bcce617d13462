/* Tests of <adapt/stl/algorithms.hpp>, second part (one program with
 * test_stl_algos.cpp): the order-keeping selections and partitions,
 * merges, nth_element and partial sorts, set operations, <memory>'s
 * algorithms, exceptions. */
#include "algos_test.h"

#include <adapt/tasks.h>
#include <deque>
#include <random>
#include <thread>

namespace algos_test {
namespace {

template <class T, class Pred>
void check_removes(const adapt::policy &pol, const std::vector<T> &a, Pred pred) {
  std::vector<T> o(a.size()), r(a.size()), o2(a.size()), r2(a.size());
  auto x = a, y = a;
  auto ex = adapt::remove_if(pol, x.begin(), x.end(), pred);
  auto ey = std::remove_if(y.begin(), y.end(), pred);
  CHECK(ex - x.begin() == ey - y.begin() && std::equal(x.begin(), ex, y.begin()));
  auto eo = adapt::remove_copy_if(pol, a.begin(), a.end(), o.begin(), pred);
  auto er = std::remove_copy_if(a.begin(), a.end(), r.begin(), pred);
  CHECK(eo - o.begin() == er - r.begin() && o == r);
  auto po = adapt::partition_copy(pol, a.begin(), a.end(), o.begin(), o2.begin(), pred);
  auto pr = std::partition_copy(a.begin(), a.end(), r.begin(), r2.begin(), pred);
  CHECK(po.first - o.begin() == pr.first - r.begin() && o == r);
  CHECK(po.second - o2.begin() == pr.second - r2.begin() && o2 == r2);
  x = a;
  y = a;
  ex = adapt::unique(pol, x.begin(), x.end());
  ey = std::unique(y.begin(), y.end());
  CHECK(ex - x.begin() == ey - y.begin() && std::equal(x.begin(), ex, y.begin()));
  eo = adapt::unique_copy(pol, a.begin(), a.end(), o.begin());
  er = std::unique_copy(a.begin(), a.end(), r.begin());
  CHECK(eo - o.begin() == er - r.begin() && o == r);
  x = a;
  y = a;
  ex = adapt::stable_partition(pol, x.begin(), x.end(), pred);
  ey = std::stable_partition(y.begin(), y.end(), pred);
  CHECK(ex - x.begin() == ey - y.begin() && x == y);
  x = a;
  ex = adapt::partition(pol, x.begin(), x.end(), pred);
  CHECK(ex - x.begin() == ey - y.begin() && std::is_partitioned(x.begin(), x.end(), pred));
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  CHECK(x == y); /* a permutation */
}

/* The four set operations against std on sorted ranges a and b. */
template <class T>
void check_sets(const adapt::policy &pol, const std::vector<T> &a, const std::vector<T> &b) {
  std::vector<T> o(a.size() + b.size()), r(o.size());
  auto same = [&](typename std::vector<T>::iterator e, typename std::vector<T>::iterator f) {
    return e - o.begin() == f - r.begin() && std::equal(o.begin(), e, r.begin());
  };
  CHECK(same(adapt::set_union(pol, a.begin(), a.end(), b.begin(), b.end(), o.begin()),
             std::set_union(a.begin(), a.end(), b.begin(), b.end(), r.begin())));
  CHECK(same(adapt::set_intersection(pol, a.begin(), a.end(), b.begin(), b.end(), o.begin()),
             std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), r.begin())));
  CHECK(same(adapt::set_difference(pol, a.begin(), a.end(), b.begin(), b.end(), o.begin()),
             std::set_difference(a.begin(), a.end(), b.begin(), b.end(), r.begin())));
  CHECK(
      same(adapt::set_symmetric_difference(pol, a.begin(), a.end(), b.begin(), b.end(), o.begin()),
           std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), r.begin())));
}
/* An element that counts the live objects and throws when constructed from
 * the value `bad_value`. */
std::atomic<long> live{0};
int bad_value = -1;
struct tracked {
  int v;
  tracked() : v(0) { live++; }
  tracked(int x) : v(x) { /* implicit: uninitialized_fill from an int */
    if (x == bad_value) throw boom();
    live++;
  }
  tracked(const tracked &o) : tracked(o.v) {}
  ~tracked() { live--; }
};

/* Raw storage for n objects of T. */
template <class T>
struct raw {
  std::allocator<T> al;
  std::size_t n;
  T *p;
  explicit raw(std::size_t n_) : n(n_), p(al.allocate(n_ ? n_ : 1)) {}
  ~raw() { al.deallocate(p, n ? n : 1); }
  T *begin() { return p; }
  T *end() { return p + n; }
};

/* A move-only element that counts its move constructions and move
 * assignments, and the assignments onto itself (std never makes one). */
std::atomic<long> moves{0}, self_moves{0}, move_constructs{0};
struct moved {
  int v = 0;
  explicit moved(int x) : v(x) {}
  moved(const moved &) = delete;
  moved(moved &&o) noexcept : v(o.v) { move_constructs.fetch_add(1, std::memory_order_relaxed); }
  moved &operator=(const moved &) = delete;
  moved &operator=(moved &&o) noexcept {
    moves.fetch_add(1, std::memory_order_relaxed);
    if (this == &o) self_moves.fetch_add(1, std::memory_order_relaxed);
    v = o.v;
    return *this;
  }
};

/* remove_if and unique in place on a move-only element against std on
 * the values a: the same survivors in order; std's test counts (n calls;
 * unique n - 1); each survivor moved at most twice (its piece's
 * compaction, then the move down to the master's), none onto itself. */
void check_in_place(const adapt::policy &pol, const std::vector<int> &a) {
  const long n = static_cast<long>(a.size());
  std::vector<moved> x;
  x.reserve(a.size());
  for (int v : a) x.emplace_back(v);
  std::atomic<long> calls{0};
  moves = 0;
  self_moves = 0;
  auto e = adapt::remove_if(pol, x.begin(), x.end(), [&calls](const moved &m) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return m.v == 1;
  });
  auto y = a;
  auto ey = std::remove(y.begin(), y.end(), 1);
  CHECK(e - x.begin() == ey - y.begin());
  CHECK(std::equal(x.begin(), e, y.begin(), [](const moved &m, int v) { return m.v == v; }));
  CHECK(calls.load() == n && moves.load() <= 2 * (e - x.begin()) && self_moves.load() == 0);
  x.clear();
  for (int v : a) x.emplace_back(v);
  calls = 0;
  moves = 0;
  e = adapt::unique(pol, x.begin(), x.end(), [&calls](const moved &u, const moved &v) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return u.v == v.v;
  });
  y = a;
  ey = std::unique(y.begin(), y.end());
  CHECK(e - x.begin() == ey - y.begin());
  CHECK(std::equal(x.begin(), e, y.begin(), [](const moved &m, int v) { return m.v == v; }));
  CHECK(calls.load() == (n > 0 ? n - 1 : 0) && moves.load() <= 2 * (e - x.begin()) &&
        self_moves.load() == 0);
}
/* Stolen pieces stolen from in turn (three workers and more, grain 64):
 * a piece merged into another hands over its marks, and unique_copy
 * decides the thief's first element then. Many calls on runs of 0s and 1s
 * (the first element of a piece kept half the time), against std. */
void check_piece_merges() {
  const std::size_t n = sanitized() ? 20000 : 200000;
  const adapt::policy pol = adapt::par.grain(64);
  auto one = [](int v) { return v == 1; };
  const int calls = sanitized() ? 8 : 20;
  for (int call = 0; call < calls; call++) {
    where = "select piece merges, call " + std::to_string(call);
    const std::vector<int> a = ints(n, 100 + static_cast<unsigned>(call), 2);
    std::vector<int> o(n), o2(n), r(n), r2(n);
    auto eo = adapt::unique_copy(pol, a.begin(), a.end(), o.begin());
    auto er = std::unique_copy(a.begin(), a.end(), r.begin());
    CHECK(eo - o.begin() == er - r.begin() && o == r);
    auto po = adapt::partition_copy(pol, a.begin(), a.end(), o.begin(), o2.begin(), one);
    auto pr = std::partition_copy(a.begin(), a.end(), r.begin(), r2.begin(), one);
    CHECK(po.first - o.begin() == pr.first - r.begin() && o == r);
    CHECK(po.second - o2.begin() == pr.second - r2.begin() && o2 == r2);
    eo = adapt::copy_if(pol, a.begin(), a.end(), o.begin(), one);
    er = std::copy_if(a.begin(), a.end(), r.begin(), one);
    CHECK(eo - o.begin() == er - r.begin() && std::equal(r.begin(), er, o.begin()));
  }
}

/* detail::marks alone, deterministic: three pieces built from chunks of
 * random lengths (some longer than a segment), the first element of the
 * second and third left for the merge (then selected when it is kept),
 * taken into one another as merge_piece does, then placed (the selected
 * elements and the others, sequentially and by the nested map) against
 * std::copy_if and std::remove_copy_if. */
void check_marks() {
  using adapt::detail::marks;
  std::mt19937 g(5);
  for (std::size_t n :
       {std::size_t{1000}, std::size_t{3 * ADAPT_STL_COPY_SEGMENT + 77}, sizes().back()}) {
    where = "select marks n=" + std::to_string(n);
    const std::vector<int> a = ints(n, 7, 3);
    auto keep = [&a](std::size_t i) { return a[i] == 1; };
    const std::size_t cut[4] = {0, n / 3, n / 3 + n / 5, n};
    marks m[3];
    for (int k = 0; k < 3; k++) {
      std::size_t b = cut[k];
      if (k > 0) m[k].add(b, b + 1, [](std::size_t) { return false; }), b++;
      while (b < cut[k + 1]) {
        std::size_t len = 1 + g() % (3 * ADAPT_STL_COPY_SEGMENT / 2);
        len = std::min(len, cut[k + 1] - b);
        m[k].add(b, b + len, keep);
        b += len;
      }
      if (k > 0 && keep(cut[k])) m[k].select_first();
    }
    m[1].take(m[2]);
    m[0].take(m[1]);
    CHECK(m[1].selected() == 0 && m[1].segs.empty());
    const std::size_t at = 5;
    std::vector<int> o(n + at, -1), o2(n + at, -1), r(n + at, -1), r2(n + at, -1);
    auto one = [](int v) { return v == 1; };
    const std::size_t kept =
        static_cast<std::size_t>(std::copy_if(a.begin(), a.end(), r.begin() + at, one) - r.begin());
    const std::size_t rest = static_cast<std::size_t>(
        std::remove_copy_if(a.begin(), a.end(), r2.begin() + at, one) - r2.begin());
    CHECK(m[0].selected() + at == kept);
    for (bool stream : {false, true}) { /* ordinary stores; the streaming writer */
      std::fill(o.begin(), o.end(), -1);
      std::fill(o2.begin(), o2.end(), -1);
      CHECK(adapt::detail::place_marks("marks", m[0], true, a.begin(), o.begin(), at, stream) ==
            kept);
      CHECK(adapt::detail::place_marks("marks", m[0], false, a.begin(), o2.begin(), at, stream) ==
            rest);
      CHECK(o == r && o2 == r2);
    }
  }
}
} // namespace

/* select_ops driven by hand for unique_copy (pairwise) and partition_copy,
 * deterministic: the calling thread's chunk, then two stolen pieces run
 * chunk by chunk, the second taken into the first (a thief's thief:
 * merge_piece decides its first element), then merged by the calling
 * thread, at cuts where the second piece's first element repeats its
 * predecessor and where it does not; against std. */
void check_select_ops() {
  using It = std::vector<int>::const_iterator;
  using Out = std::vector<int>::iterator;
  const std::size_t n = 3 * ADAPT_STL_COPY_SEGMENT + 501;
  const std::vector<int> a = ints(n, 31, 2);
  std::mt19937 g(7);
  std::equal_to<> eq;
  auto one = [](int v) { return v == 1; };
  for (std::size_t c1 : {n / 2, n / 2 + 1, n / 2 + 2, n / 2 + 3}) {
    const std::size_t cut[3] = {n / 5, c1, n};
    where = "select ops c1=" + std::to_string(c1) +
            (a[c1] == a[c1 - 1] ? " (a repeat)" : " (a change)");
    auto drive = [&](auto &ops, auto &m) {
      using ops_t = std::remove_reference_t<decltype(ops)>;
      typename ops_t::piece p[2];
      ops.run_master(m, nullptr, 0, cut[0]);
      for (int k = 0; k < 2; k++)
        for (std::size_t u = cut[k]; u < cut[k + 1];) {
          const std::size_t len =
              std::min<std::size_t>(1 + g() % ADAPT_STL_COPY_SEGMENT, cut[k + 1] - u);
          ops.run_piece(p[k], nullptr, u, u + len);
          u += len;
        }
      ops.merge_piece(p[0], p[1], cut[1], cut[2]);
      ops.merge_master(m, p[0], cut[0], cut[2]);
    };
    for (bool stream : {false, true}) { /* the merges' ordinary stores; the streaming writer */
      std::vector<int> o(n, -1), r(n, -1), o2(n, -1), r2(n, -1);
      adapt::detail::unique_rule<It, std::equal_to<>> ur{a.cbegin(), eq};
      adapt::detail::select_ops<It, decltype(ur), Out, std::nullptr_t> uo{a.cbegin(), ur, o.begin(),
                                                                          nullptr, stream};
      decltype(uo)::master um;
      drive(uo, um);
      CHECK(um.pos1 == static_cast<std::size_t>(std::unique_copy(a.begin(), a.end(), r.begin()) -
                                                r.begin()) &&
            o == r);
      std::fill(o.begin(), o.end(), -1);
      std::fill(r.begin(), r.end(), -1);
      adapt::detail::test_rule<It, decltype(one), true> pr{a.cbegin(), one};
      adapt::detail::select_ops<It, decltype(pr), Out, Out> po{a.cbegin(), pr, o.begin(),
                                                               o2.begin(), stream};
      decltype(po)::master pm;
      drive(po, pm);
      auto want = std::partition_copy(a.begin(), a.end(), r.begin(), r2.begin(), one);
      CHECK(pm.pos1 == static_cast<std::size_t>(want.first - r.begin()) &&
            pm.pos2 == static_cast<std::size_t>(want.second - r2.begin()) && o == r && o2 == r2);
    }
  }
}

void test_select() {
  check_marks();
  check_select_ops();
  check_piece_merges();
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "select n=" + std::to_string(n) + " " + pname;
      for (int range : {2, 5}) {
        auto a = ints(n, 9, range);
        check_removes(pol, a, [](int v) { return v == 1; });
        auto x = a, y = a;
        CHECK(adapt::remove(pol, x.begin(), x.end(), 0) - x.begin() ==
              std::remove(y.begin(), y.end(), 0) - y.begin());
        std::vector<int> o(n), r(n);
        auto eo = adapt::remove_copy(pol, a.begin(), a.end(), o.begin(), 0);
        CHECK(eo - o.begin() == std::remove_copy(a.begin(), a.end(), r.begin(), 0) - r.begin());
        CHECK(o == r);
      }
      auto s = strings(ints(n, 10, 3));
      check_removes(pol, s, [](const std::string &t) { return t.size() == 9; });
      /* short runs; runs across chunks and pieces; one run; a first half
       * removed (a stolen back half moves down far: in parallel rounds) */
      check_in_place(pol, ints(n, 11, 3));
      std::vector<int> runs(n), one(n, 1), half(n);
      for (std::size_t i = 0; i < n; i++) {
        runs[i] = static_cast<int>(i / 700 % 3);
        half[i] = i < n / 2 ? 1 : static_cast<int>(i);
      }
      check_in_place(pol, runs);
      check_in_place(pol, one);
      check_in_place(pol, half);
    }
    where = "select-nopolicy n=" + std::to_string(n);
    std::vector<counted> c(n), d(n), d2(n);
    for (std::size_t i = 0; i < n; i++) c[i].v = static_cast<int>(i / 3);
    copies = 0;
    auto e = adapt::unique_copy(c.begin(), c.end(), d.begin());
    CHECK(copies.load() == e - d.begin() && e - d.begin() == static_cast<long>((n + 2) / 3));
    copies = 0;
    auto p = adapt::partition_copy(c.begin(), c.end(), d.begin(), d2.begin(),
                                   [](const counted &x) { return x.v % 2 == 0; });
    CHECK(copies.load() == static_cast<long>(n) &&
          (p.first - d.begin()) + (p.second - d2.begin()) == static_cast<long>(n));
    copies = 0;
    CHECK(adapt::unique(c.begin(), c.end()) - c.begin() == static_cast<long>((n + 2) / 3));
    CHECK(copies.load() == 0);
    std::vector<std::unique_ptr<int>> u(n);
    for (std::size_t i = 0; i < n; i += 2) u[i].reset(new int(static_cast<int>(i)));
    auto ue =
        adapt::remove_if(u.begin(), u.end(), [](const std::unique_ptr<int> &q) { return !q; });
    CHECK(ue - u.begin() == static_cast<long>((n + 1) / 2));
    bool ordered = true;
    for (auto it = u.begin(); it != ue; ++it)
      ordered = ordered && *it && **it == 2 * static_cast<int>(it - u.begin());
    CHECK(ordered);
  }
}

/* Two sorted runs of n moved elements: the evens (the first k), then the
 * odds; inplace_merge's input in the checks below. */
std::vector<moved> merge_runs(std::size_t n, std::size_t k) {
  std::vector<moved> x;
  x.reserve(n);
  for (std::size_t i = 0; i < n; i++)
    x.emplace_back(static_cast<int>(i < k ? 2 * i : 2 * (i - k) + 1));
  return x;
}

/* inplace_merge's two paths told apart by their moves: the parallel one
 * move-constructs each element into its buffer and move-assigns it back
 * (n and n), std::inplace_merge (taken alone: one worker, .workers(1))
 * moves otherwise; a dispatch to the wrong path changes the counts. */
void check_merge_paths() {
  std::size_t n = sizes().back(), k = (n + 1) / 2;
  where = "inplace_merge paths n=" + std::to_string(n);
  auto runs = [&] { return merge_runs(n, k); };
  auto less = [](const moved &u, const moved &v) { return u.v < v.v; };
  auto counts = [](auto &&merge) {
    moves = 0;
    move_constructs = 0;
    merge();
    return std::make_pair(move_constructs.load(), moves.load());
  };
  const auto par_counts = std::make_pair(static_cast<long>(n), static_cast<long>(n));
  auto y = runs();
  auto by_std = counts([&] { std::inplace_merge(y.begin(), y.begin() + long(k), y.end(), less); });
  CHECK(by_std != par_counts); /* the counts tell the paths apart */
  for (adapt::policy pol : {adapt::par, adapt::par.workers(1)}) {
    auto x = runs();
    bool alone = adapt_num_workers() == 1 || pol.max_workers() == 1;
    auto got =
        counts([&] { adapt::inplace_merge(pol, x.begin(), x.begin() + long(k), x.end(), less); });
    CHECK(got == (alone ? by_std : par_counts));
    bool sorted = true;
    for (std::size_t i = 0; i < n; i++) sorted = sorted && x[i].v == static_cast<int>(i);
    CHECK(sorted);
  }
}

/* The same nested in a region whose workers are all busy: one task per
 * worker, each waiting until every worker runs one (none is idle), then
 * one of them merges: no thief can come (adapt_idle_workers() 0), so it
 * takes std's path, as alone. */
void check_merge_nested_busy() {
  int w = adapt_num_workers();
  if (w < 2) return; /* one worker: check_merge_paths */
  std::size_t n = sizes().back(), k = (n + 1) / 2;
  where = "inplace_merge nested, all workers busy, n=" + std::to_string(n);
  auto runs = [&] { return merge_runs(n, k); };
  auto less = [](const moved &u, const moved &v) { return u.v < v.v; };
  struct busy {
    int workers;
    std::atomic<int> in{0}, arrived{0};
    std::atomic<bool> done{false}, all_in{false};
    std::function<void()> merge;
  } c;
  c.workers = w;
  auto y = runs();
  moves = 0;
  move_constructs = 0;
  std::inplace_merge(y.begin(), y.begin() + long(k), y.end(), less);
  const auto by_std = std::make_pair(move_constructs.load(), moves.load());
  auto x = runs();
  std::pair<long, long> got{-1, -1};
  c.merge = [&] {
    moves = 0;
    move_constructs = 0;
    adapt::inplace_merge(adapt::par, x.begin(), x.begin() + long(k), x.end(), less);
    got = std::make_pair(move_constructs.load(), moves.load());
  };
  void (*task)(void *) = [](void *p) {
    auto *b = static_cast<busy *>(p);
    auto t0 = std::chrono::steady_clock::now();
    auto late = [&] { return std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20); };
    b->in.fetch_add(1);
    while (b->in.load() < b->workers && !late()) std::this_thread::yield();
    if (b->arrived.fetch_add(1) == 0) {
      b->all_in = b->in.load() == b->workers;
      b->merge();
      b->done = true;
    } else {
      while (!b->done.load() && !late()) std::this_thread::yield();
    }
  };
  adapt_scope s;
  CHECK(adapt_scope_begin(&s) == 0);
  for (int i = 0; i < w; i++) CHECK(adapt_spawn(&s, task, &c) == 0);
  CHECK(adapt_sync(&s) == 0);
  CHECK(c.all_in.load()); /* every worker ran a task at once */
  CHECK(got == by_std);
  bool sorted = true;
  for (std::size_t i = 0; i < n; i++) sorted = sorted && x[i].v == static_cast<int>(i);
  CHECK(sorted);
}

void test_merge() {
  check_merge_paths();
  check_merge_nested_busy();
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "merge n=" + std::to_string(n) + " " + pname;
      for (std::size_t k : {std::size_t{0}, n / 3, n}) {
        /* pairs sorted by key only: ties show whether the merge is stable */
        std::vector<std::pair<int, int>> a(n);
        auto keys = ints(n, 12, 50);
        for (std::size_t i = 0; i < n; i++) a[i] = {keys[i], static_cast<int>(i)};
        auto key = [](const std::pair<int, int> &u, const std::pair<int, int> &v) {
          return u.first < v.first;
        };
        std::sort(a.begin(), a.begin() + k, key);
        std::sort(a.begin() + k, a.end(), key);
        std::vector<std::pair<int, int>> o(n), r(n);
        CHECK(adapt::merge(pol, a.begin(), a.begin() + k, a.begin() + k, a.end(), o.begin(), key) ==
              o.end());
        std::merge(a.begin(), a.begin() + k, a.begin() + k, a.end(), r.begin(), key);
        CHECK(o == r);
        adapt::inplace_merge(pol, a.begin(), a.begin() + k, a.end(), key);
        CHECK(a == r);
      }
    }
    where = "merge-nopolicy n=" + std::to_string(n);
    auto s = strings(ints(n, 13, 100)), t = strings(ints(n / 2, 14, 100));
    std::sort(s.begin(), s.end());
    std::sort(t.begin(), t.end());
    std::vector<std::string> o(s.size() + t.size()), r(o.size());
    adapt::merge(s.begin(), s.end(), t.begin(), t.end(), o.begin());
    std::merge(s.begin(), s.end(), t.begin(), t.end(), r.begin());
    CHECK(o == r);
    s.insert(s.end(), t.begin(), t.end());
    /* a comparator taking its arguments by value sees elements, not rvalues */
    adapt::inplace_merge(s.begin(), s.end() - static_cast<long>(t.size()), s.end(),
                         [](std::string u, std::string v) { return u < v; });
    CHECK(s == r);
  }
}

/* A call no thief can join (.workers(1); the runtime's one worker in the
 * first round) takes std's path where the parallel one does more work:
 * partition and nth_element then leave std's exact arrangement (their
 * parallel paths another one). */
void check_alone() {
  std::size_t n = sizes().back();
  where = "alone n=" + std::to_string(n);
  adapt::policy one = adapt::par.workers(1);
  auto a = ints(n, 21, 1000), x = a, y = a;
  auto odd = [](int v) { return (v & 1) != 0; };
  CHECK(adapt::partition(one, x.begin(), x.end(), odd) - x.begin() ==
            std::partition(y.begin(), y.end(), odd) - y.begin() &&
        x == y);
  x = a;
  y = a;
  adapt::nth_element(one, x.begin(), x.begin() + static_cast<long>(n / 3), x.end());
  std::nth_element(y.begin(), y.begin() + static_cast<long>(n / 3), y.end());
  CHECK(x == y);
}

void test_nth() {
  check_alone();
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "nth n=" + std::to_string(n) + " " + pname;
      for (int range : {3, 1 << 30}) { /* many equal keys, few */
        auto a = ints(n, 15, range), sorted = a;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t k : {std::size_t{0}, n / 3, n ? n - 1 : 0}) {
          if (k >= n) continue;
          auto x = a;
          adapt::nth_element(pol, x.begin(), x.begin() + static_cast<long>(k), x.end());
          CHECK(x[k] == sorted[k]);
          CHECK(std::all_of(x.begin(), x.begin() + static_cast<long>(k),
                            [&](int v) { return v <= x[k]; }) &&
                std::all_of(x.begin() + static_cast<long>(k), x.end(),
                            [&](int v) { return v >= x[k]; }));
          x = a;
          adapt::partial_sort(pol, x.begin(), x.begin() + static_cast<long>(k), x.end());
          CHECK(std::equal(x.begin(), x.begin() + static_cast<long>(k), sorted.begin()));
          std::vector<int> o(k + 1, -1), r(k + 1, -1);
          auto e = adapt::partial_sort_copy(pol, a.begin(), a.end(), o.begin(), o.end());
          auto f = std::partial_sort_copy(a.begin(), a.end(), r.begin(), r.end());
          CHECK(e - o.begin() == f - r.begin() && o == r);
        }
        std::vector<int> o(n + 3, -1), r(n + 3, -1); /* longer than the input */
        CHECK(adapt::partial_sort_copy(pol, a.begin(), a.end(), o.begin(), o.end()) - o.begin() ==
              static_cast<long>(n));
        std::partial_sort_copy(a.begin(), a.end(), r.begin(), r.end());
        CHECK(o == r);
      }
    }
    where = "nth-nopolicy n=" + std::to_string(n);
    auto s = strings(ints(n, 16, 1000)), t = s;
    std::sort(t.begin(), t.end(), std::greater<>());
    adapt::nth_element(s.begin(), s.begin() + static_cast<long>(n / 2), s.end(), std::greater<>());
    CHECK(n == 0 || s[n / 2] == t[n / 2]);
    std::vector<counted> c(n), d(n / 4);
    for (std::size_t i = 0; i < n; i++) c[i].v = static_cast<int>((i * 7919) % 1009);
    copies = 0;
    adapt::partial_sort_copy(c.begin(), c.end(), d.begin(), d.end());
    CHECK(copies.load() == static_cast<long>(d.size()) && std::is_sorted(d.begin(), d.end()));
  }
}
/* One set operation's adaptive kernel driven by hand (set_ops; A, B,
 * Both as set_walk): the calling thread's walk up to a third of the first
 * range, then two stolen pieces recorded chunk by chunk (chunks of random
 * lengths, up to a few ADAPT_STL_COPY_SEGMENT: records cut in several
 * segments), the second taken into the first (a thief's thief) and the
 * result placed by the calling thread, against std's operation. C1: the
 * first range's container (std::deque: the replay without addresses). */
template <bool A, bool B, bool Both, class C1, class Std>
void check_set_record(const char *name, std::size_t n, int range, Std std_op) {
  std::mt19937 g(static_cast<unsigned>(n) + static_cast<unsigned>(range));
  std::vector<int> av = ints(n, 23, range), b = ints(n / 2 + 3, 24, range);
  std::sort(av.begin(), av.end());
  std::sort(b.begin(), b.end());
  const C1 a(av.begin(), av.end());
  std::vector<int> o(n + b.size() + 1, -1), r(o.size(), -1);
  std::less<> cmp;
  using It1 = typename C1::const_iterator;
  using It2 = std::vector<int>::const_iterator;
  using ops_t =
      adapt::detail::set_ops<A, B, Both, It1, It2, std::vector<int>::iterator, std::less<>>;
  ops_t ops{{a.begin(), n, b.cbegin(), b.size(), o.begin(), cmp}};
  typename ops_t::master m;
  typename ops_t::piece p[2];
  const std::size_t cut[3] = {n / 3, n / 3 + n / 4, n};
  ops.run_master(m, nullptr, 0, cut[0]);
  for (int k = 0; k < 2; k++)
    for (std::size_t u = cut[k]; u < cut[k + 1];) {
      std::size_t len =
          std::min<std::size_t>(1 + g() % (3 * ADAPT_STL_COPY_SEGMENT), cut[k + 1] - u);
      ops.run_piece(p[k], nullptr, u, u + len);
      u += len;
    }
  where = std::string("set record ") + name + " n=" + std::to_string(n) +
          " range=" + std::to_string(range) + " segments=" + std::to_string(p[0].rec.segs.size()) +
          "+" + std::to_string(p[1].rec.segs.size());
  ops.merge_piece(p[0], p[1], cut[1], cut[2]);
  ops.merge_master(m, p[0], cut[0], cut[2]);
  const std::size_t want = static_cast<std::size_t>(
      std_op(a.begin(), a.end(), b.begin(), b.end(), r.begin()) - r.begin());
  CHECK(m.pos == want && o == r);
}

void check_set_records() {
  for (std::size_t n : {std::size_t{1000}, std::size_t{5 * ADAPT_STL_COPY_SEGMENT + 77}})
    for (int range : {7, 100000}) {
      auto un = [](auto... x) { return std::set_union(x...); };
      auto in = [](auto... x) { return std::set_intersection(x...); };
      auto di = [](auto... x) { return std::set_difference(x...); };
      auto sy = [](auto... x) { return std::set_symmetric_difference(x...); };
      check_set_record<true, true, true, std::vector<int>>("union", n, range, un);
      check_set_record<false, false, true, std::vector<int>>("intersection", n, range, in);
      check_set_record<true, false, false, std::vector<int>>("difference", n, range, di);
      check_set_record<true, true, false, std::vector<int>>("symmetric", n, range, sy);
      check_set_record<true, true, true, std::deque<int>>("union/deque", n, range, un);
      check_set_record<false, false, true, std::deque<int>>("intersection/deque", n, range, in);
    }
}

void test_sets() {
  check_set_records();
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "sets n=" + std::to_string(n) + " " + pname;
      for (int range : {7, 100000}) { /* long runs of equal keys, short */
        auto a = ints(n, 17, range), b = ints(n / 2 + 1, 18, range);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        check_sets(pol, a, b);
        check_sets(pol, b, a);
        check_sets(pol, a, std::vector<int>());
        check_sets(pol, std::vector<int>(), a);
      }
      /* unsorted ranges (UB, for std too): the output stays in its bounds */
      auto u = ints(n, 21, 50), w = ints(n / 2, 22, 50);
      std::vector<int> uo(u.size() + w.size());
      CHECK(adapt::set_union(pol, u.begin(), u.end(), w.begin(), w.end(), uo.begin()) <= uo.end());
      CHECK(adapt::set_symmetric_difference(pol, u.begin(), u.end(), w.begin(), w.end(),
                                            uo.begin()) <= uo.end());
    }
    where = "sets-nopolicy n=" + std::to_string(n);
    std::vector<counted> a(n), b(n / 3), o(n + n / 3);
    for (std::size_t i = 0; i < n; i++) a[i].v = static_cast<int>(i / 2);
    for (std::size_t i = 0; i < b.size(); i++) b[i].v = static_cast<int>(i);
    copies = 0;
    auto e = adapt::set_union(a.begin(), a.end(), b.begin(), b.end(), o.begin());
    CHECK(copies.load() == e - o.begin() && std::is_sorted(o.begin(), e));
    auto s = strings(ints(n, 19, 40)), t = strings(ints(n, 20, 40));
    std::sort(s.begin(), s.end());
    std::sort(t.begin(), t.end());
    check_sets(adapt::par, s, t);
  }
}
void test_memory() {
  for (std::size_t n : sizes()) {
    auto a = strings(ints(n, 11, 100));
    for (auto &[pname, pol] : policies(n)) {
      where = "memory n=" + std::to_string(n) + " " + pname;
      raw<std::string> r(n);
      CHECK(adapt::uninitialized_copy(pol, a.begin(), a.end(), r.begin()) == r.end());
      CHECK(std::equal(a.begin(), a.end(), r.begin()));
      adapt::destroy(pol, r.begin(), r.end());
      CHECK(adapt::uninitialized_copy_n(pol, a.begin(), n, r.begin()) == r.end());
      auto b = a;
      raw<std::string> m(n);
      CHECK(adapt::uninitialized_move(pol, b.begin(), b.end(), m.begin()) == m.end());
      CHECK(std::equal(a.begin(), a.end(), m.begin()));
      CHECK(adapt::destroy_n(pol, r.begin(), n) == r.end());
      auto mn = adapt::uninitialized_move_n(pol, m.begin(), n, r.begin());
      CHECK(mn.first == m.end() && mn.second == r.end() && std::equal(a.begin(), a.end(), r.p));
      adapt::destroy(pol, m.begin(), m.end());
      adapt::destroy(pol, r.begin(), r.end());
      adapt::uninitialized_fill(pol, r.begin(), r.end(), std::string("fill"));
      CHECK(std::count(r.begin(), r.end(), "fill") == static_cast<long>(n));
      adapt::destroy(pol, r.begin(), r.end());
      CHECK(adapt::uninitialized_fill_n(pol, r.begin(), n, std::string("f")) == r.end());
      adapt::destroy(pol, r.begin(), r.end());
      CHECK(adapt::uninitialized_value_construct_n(pol, r.begin(), n) == r.end());
      CHECK(std::count(r.begin(), r.end(), "") == static_cast<long>(n));
      adapt::destroy(pol, r.begin(), r.end());
      CHECK(adapt::uninitialized_default_construct_n(pol, r.begin(), n) == r.end());
      CHECK(std::count(r.begin(), r.end(), "") == static_cast<long>(n));
      adapt::destroy(pol, r.begin(), r.end());
      raw<int> z(n);
      std::fill(z.begin(), z.end(), 5);
      adapt::uninitialized_value_construct(pol, z.begin(), z.end());
      CHECK(std::count(z.begin(), z.end(), 0) == static_cast<long>(n));
    }
    /* A throwing construction: the objects already built are destroyed. */
    where = "memory exceptions n=" + std::to_string(n);
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    raw<tracked> t(n);
    bad_value = static_cast<int>(n / 2);
    CHECK(throws<boom>([&] { adapt::uninitialized_copy(v.begin(), v.end(), t.begin()); }) ==
          (n ? 1 : 0));
    CHECK(live.load() == 0);
    bad_value = 0;
    CHECK(throws<boom>([&] { adapt::uninitialized_fill(t.begin(), t.end(), 0); }) == (n ? 1 : 0));
    CHECK(live.load() == 0);
    bad_value = -1;
    adapt::uninitialized_fill(t.begin(), t.end(), 3);
    CHECK(live.load() == static_cast<long>(n));
    adapt::destroy(t.begin(), t.end());
    CHECK(live.load() == 0);
  }
}
void test_exceptions() {
  std::size_t n = sizes().back();
  auto a = iota(n);
  std::vector<int> o(n), o2(n);
  for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
    where = "exceptions at=" + std::to_string(at);
    int bad = static_cast<int>(at);
    auto p1 = [bad](int v) {
      if (v == bad) throw boom();
      return false;
    };
    auto p2 = [bad](int u, int v) {
      if (u == bad || v == bad) throw boom();
      return u < v;
    };
    auto eq2 = [bad](int u, int v) {
      if (u == bad || v == bad) throw boom();
      return u == v;
    };
    CHECK(throws<boom>([&] { adapt::adjacent_find(a.begin(), a.end(), eq2); }) == 1);
    CHECK(throws<boom>([&] { adapt::mismatch(a.begin(), a.end(), a.begin(), eq2); }) == 1);
    CHECK(throws<boom>([&] { adapt::is_sorted(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws<boom>([&] { adapt::includes(a.begin(), a.end(), a.begin(), a.end(), p2); }) == 1);
    CHECK(throws<boom>([&] { adapt::min_element(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws<boom>([&] { adapt::minmax_element(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws<boom>([&] { adapt::replace_if(o.begin(), o.end(), p1, 0); }) == (at == 0 ? 1 : 0));
    CHECK(throws<boom>([&] { adapt::remove_copy_if(a.begin(), a.end(), o.begin(), p1); }) == 1);
    CHECK(throws<boom>(
              [&] { adapt::partition_copy(a.begin(), a.end(), o.begin(), o2.begin(), p1); }) == 1);
    auto x = a;
    CHECK(throws<boom>([&] { adapt::remove_if(x.begin(), x.end(), p1); }) == 1);
    x = a;
    CHECK(throws<boom>([&] { adapt::unique(x.begin(), x.end(), eq2); }) == (n > 1 ? 1 : 0));
    CHECK(throws<boom>([&] {
            adapt::transform_inclusive_scan(a.begin(), a.end(), o.begin(), std::plus<>(),
                                            [bad](int v) {
                                              if (v == bad) throw boom();
                                              return v & 1; /* no int overflow */
                                            });
          }) == 1);
    x = a;
    CHECK(throws<boom>([&] { adapt::stable_partition(x.begin(), x.end(), p1); }) == 1);
    CHECK(x == a); /* pred runs before anything moves */
    CHECK(throws<boom>([&] { adapt::partition(x.begin(), x.end(), p1); }) == 1);
    std::sort(x.begin(), x.end());
    CHECK(x == a); /* swaps only: a permutation */
    std::vector<int> m(2 * n);
    CHECK(throws<boom>(
              [&] { adapt::merge(a.begin(), a.end(), a.begin(), a.end(), m.begin(), p2); }) == 1);
    std::copy(a.begin(), a.end(), m.begin());
    std::copy(a.begin(), a.end(), m.begin() + static_cast<long>(n));
    CHECK(throws<boom>([&] {
            adapt::inplace_merge(m.begin(), m.begin() + static_cast<long>(n), m.end(), p2);
          }) == 1);
    CHECK(throws<boom>([&] {
            adapt::set_union(a.begin(), a.end(), a.begin(), a.end(), m.begin(), p2);
          }) == 1);
    /* the runtime goes on */
    CHECK(adapt::min_element(a.begin(), a.end()) == a.begin());
  }
}

} // namespace algos_test
