/* Tests of the algorithms of <adapt/stl.hpp> defined in
 * <adapt/stl/algorithms.hpp> (searches, order predicates, min/max,
 * element-wise maps, numeric, order-keeping selections): each one against
 * std on several sizes (0, 1, 2, small, larger than a grain), worker
 * counts and policies, with and without a policy; non-random-access
 * fallbacks; element copies; exceptions. The closing line says passed or
 * FAILED; the exit status is non-zero on failure. ADAPT_TEST_VARIANT (set
 * by make test-run) scales the largest size down under the sanitizers. */
#include <adapt/stl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int checks = 0, failures = 0;
std::string where; /* the case being run, for failure messages */

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    checks++;                                                                                      \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed [%s]\n", __FILE__, __LINE__, #cond,            \
                   where.c_str());                                                                 \
    }                                                                                              \
  } while (0)

bool variant(const char *name) {
  const char *v = std::getenv("ADAPT_TEST_VARIANT");
  return v && std::strcmp(v, name) == 0;
}
bool sanitized() { return variant("tsan") || variant("asan"); }

/* The sizes every algorithm runs on; the largest one last (several chunks
 * and blocks: ADAPT_STL_BLOCK is 4096). */
const std::vector<std::size_t> &sizes() {
  static const std::vector<std::size_t> v = {
      0, 1, 2, 7, 1000, 5003, sanitized() ? 20011u : 100003u};
  return v;
}

/* The policies: all of them on the largest size, the default on the others. */
std::vector<std::pair<const char *, adapt::policy>> policies(std::size_t n) {
  if (n != sizes().back()) return {{"par", adapt::par}};
  return {{"par", adapt::par},
          {"static", adapt::par.window(adapt::window::static_, 4096)},
          {"sliding", adapt::par.window(adapt::window::sliding, 3000)},
          {"grain7", adapt::par.grain(7)},
          {"dac", adapt::par.sched(adapt::sched::dac)}};
}

std::vector<int> ints(std::size_t n, unsigned seed, int range) {
  std::mt19937 g(seed);
  std::vector<int> v(n);
  for (auto &x : v) x = static_cast<int>(g() % static_cast<unsigned>(range));
  return v;
}
std::vector<int> iota(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}
std::vector<std::string> strings(const std::vector<int> &v) {
  std::vector<std::string> s;
  for (int x : v)
    s.push_back(std::string(8 + static_cast<std::size_t>(x % 3), 'a') + "#" +
                std::to_string(x)); /* longer than the small-string buffer */
  return s;
}
/* Positions to plant a feature at. */
std::vector<std::size_t> spots(std::size_t n) {
  if (n == 0) return {};
  return {0, n / 2, n - 1};
}

/* An element that counts its copies. */
std::atomic<long> copies{0};
struct counted {
  int v = 0;
  counted() = default;
  explicit counted(int x) : v(x) {}
  counted(const counted &o) : v(o.v) { copies.fetch_add(1, std::memory_order_relaxed); }
  counted(counted &&o) noexcept : v(o.v) {}
  counted &operator=(const counted &o) {
    v = o.v;
    copies.fetch_add(1, std::memory_order_relaxed);
    return *this;
  }
  counted &operator=(counted &&o) noexcept {
    v = o.v;
    return *this;
  }
  bool operator==(const counted &o) const { return v == o.v; }
  bool operator<(const counted &o) const { return v < o.v; }
};

struct boom : std::runtime_error {
  boom() : std::runtime_error("boom") {}
};

/* 1 when call threw boom, 0 when it threw nothing, -1 otherwise. */
template <class F>
int throws(F &&call) {
  try {
    call();
  } catch (const boom &) {
    return 1;
  } catch (...) {
    return -1;
  }
  return 0;
}

void test_search() {
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "search n=" + std::to_string(n) + " " + pname;
      auto a = iota(n);
      for (std::size_t p : spots(n)) {
        auto x = a;
        x[p] = -7;
        if (p + 1 < n) x[p + 1] = -7;
        auto small = [](int v) { return v >= 0; };
        CHECK(adapt::find_if_not(pol, x.begin(), x.end(), small) ==
              std::find_if_not(x.begin(), x.end(), small));
        CHECK(adapt::adjacent_find(pol, x.begin(), x.end()) ==
              std::adjacent_find(x.begin(), x.end()));
        CHECK(adapt::mismatch(pol, a.begin(), a.end(), x.begin()) ==
              std::mismatch(a.begin(), a.end(), x.begin()));
        CHECK(adapt::mismatch(pol, a.begin(), a.end(), x.begin(), x.begin() + p) ==
              std::mismatch(a.begin(), a.end(), x.begin(), x.begin() + p));
        CHECK(adapt::equal(pol, a.begin(), a.end(), x.begin()) == false);
        CHECK(adapt::equal(pol, a.begin(), a.begin() + p, x.begin(), x.begin() + p));
        const int set[] = {-9, -7};
        CHECK(adapt::find_first_of(pol, x.begin(), x.end(), set, set + 2) ==
              std::find_first_of(x.begin(), x.end(), set, set + 2));
        /* the pattern x[p - 2 .. p + 1], planted again near the end */
        std::vector<int> pat(x.begin() + (p >= 2 ? p - 2 : 0), x.begin() + std::min(p + 2, n));
        auto y = x;
        if (n > 20) std::copy(pat.begin(), pat.end(), y.end() - 8);
        CHECK(adapt::search(pol, y.begin(), y.end(), pat.begin(), pat.end()) ==
              std::search(y.begin(), y.end(), pat.begin(), pat.end()));
        CHECK(adapt::find_end(pol, y.begin(), y.end(), pat.begin(), pat.end()) ==
              std::find_end(y.begin(), y.end(), pat.begin(), pat.end()));
        for (int c : {0, 1, 2, 3}) {
          auto z = ints(n, static_cast<unsigned>(p), 3);
          std::fill(z.begin() + p, z.begin() + std::min(p + 3, n), 5);
          CHECK(adapt::search_n(pol, z.begin(), z.end(), c, 5) ==
                std::search_n(z.begin(), z.end(), c, 5));
        }
        CHECK(adapt::lexicographical_compare(pol, a.begin(), a.end(), x.begin(), x.end()) ==
              std::lexicographical_compare(a.begin(), a.end(), x.begin(), x.end()));
        CHECK(adapt::lexicographical_compare(pol, x.begin(), x.end(), a.begin(), a.end()) ==
              std::lexicographical_compare(x.begin(), x.end(), a.begin(), a.end()));
        CHECK(adapt::lexicographical_compare(pol, a.begin(), a.begin() + p, a.begin(), a.end()) ==
              (p < n));
      }
      std::vector<int> absent = {-3, -4};
      CHECK(adapt::search(pol, a.begin(), a.end(), absent.begin(), absent.end()) == a.end());
      CHECK(adapt::find_end(pol, a.begin(), a.end(), absent.begin(), absent.begin()) == a.end());
      CHECK(adapt::search(pol, a.begin(), a.end(), absent.begin(), absent.begin()) == a.begin());
      CHECK(adapt::equal(pol, a.begin(), a.end(), a.begin(), a.end()));
    }
    where = "search-nopolicy n=" + std::to_string(n);
    auto s = strings(ints(n, 3, 5));
    CHECK(adapt::adjacent_find(s.begin(), s.end()) == std::adjacent_find(s.begin(), s.end()));
    CHECK(adapt::mismatch(s.begin(), s.end(), s.begin(), s.end()).first == s.end());
    CHECK(adapt::equal(s.begin(), s.end(), s.begin()));
    CHECK(adapt::search_n(s.begin(), s.end(), 2, s.empty() ? "" : s.back()) ==
          std::search_n(s.begin(), s.end(), 2, s.empty() ? "" : s.back()));
    CHECK(adapt::lexicographical_compare(s.begin(), s.end(), s.begin(), s.end()) == false);
  }
}

void test_order() {
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "order n=" + std::to_string(n) + " " + pname;
      auto a = iota(n);
      auto h = a;
      std::make_heap(h.begin(), h.end());
      CHECK(adapt::is_sorted(pol, a.begin(), a.end()));
      CHECK(adapt::is_heap(pol, h.begin(), h.end()));
      CHECK(adapt::is_partitioned(pol, a.begin(), a.end(), [](int v) { return v < 10; }));
      for (std::size_t p : spots(n)) {
        auto x = a;
        x[p] = -1;
        CHECK(adapt::is_sorted_until(pol, x.begin(), x.end()) ==
              std::is_sorted_until(x.begin(), x.end()));
        CHECK(adapt::is_sorted(pol, x.begin(), x.end(), std::greater<>()) ==
              std::is_sorted(x.begin(), x.end(), std::greater<>()));
        auto y = h;
        y[p] = static_cast<int>(n) + 5;
        CHECK(adapt::is_heap_until(pol, y.begin(), y.end()) ==
              std::is_heap_until(y.begin(), y.end()));
        auto lowp = [](int v) { return v < 3; }; /* a[0..3) then x[p] = -1 */
        CHECK(adapt::is_partitioned(pol, x.begin(), x.end(), lowp) ==
              std::is_partitioned(x.begin(), x.end(), lowp));
      }
      auto big = ints(n, 4, 40), sub = ints(n / 3, 5, 40);
      std::sort(big.begin(), big.end());
      std::sort(sub.begin(), sub.end());
      std::vector<int> half;
      for (std::size_t i = 0; i < n; i += 2) half.push_back(big[i]);
      CHECK(adapt::includes(pol, big.begin(), big.end(), half.begin(), half.end()));
      CHECK(adapt::includes(pol, big.begin(), big.end(), sub.begin(), sub.end()) ==
            std::includes(big.begin(), big.end(), sub.begin(), sub.end()));
      for (int extra : {-1, 7, 50}) {
        auto more = half;
        more.insert(std::upper_bound(more.begin(), more.end(), extra), 3, extra);
        CHECK(adapt::includes(pol, big.begin(), big.end(), more.begin(), more.end()) ==
              std::includes(big.begin(), big.end(), more.begin(), more.end()));
      }
    }
    where = "order-nopolicy n=" + std::to_string(n);
    auto s = strings(iota(n));
    std::sort(s.begin(), s.end());
    CHECK(adapt::is_sorted_until(s.begin(), s.end(), std::greater<>()) ==
          std::is_sorted_until(s.begin(), s.end(), std::greater<>()));
    CHECK(adapt::is_heap(s.begin(), s.end()) == std::is_heap(s.begin(), s.end()));
    CHECK(adapt::includes(s.begin(), s.end(), s.begin() + n / 2, s.end()));
  }
}

void test_minmax() {
  for (std::size_t n : sizes()) {
    for (auto &[pname, pol] : policies(n)) {
      where = "minmax n=" + std::to_string(n) + " " + pname;
      for (int range : {1, 3, 1000}) { /* ties everywhere, many, few */
        auto a = ints(n, 6, range);
        CHECK(adapt::min_element(pol, a.begin(), a.end()) == std::min_element(a.begin(), a.end()));
        CHECK(adapt::max_element(pol, a.begin(), a.end()) == std::max_element(a.begin(), a.end()));
        CHECK(adapt::minmax_element(pol, a.begin(), a.end()) ==
              std::minmax_element(a.begin(), a.end()));
        CHECK(adapt::min_element(pol, a.begin(), a.end(), std::greater<>()) ==
              std::min_element(a.begin(), a.end(), std::greater<>()));
      }
    }
    where = "minmax-nopolicy n=" + std::to_string(n);
    std::vector<counted> c(n);
    for (std::size_t i = 0; i < n; i++) c[i].v = static_cast<int>((i * 7919) % 101);
    std::atomic<long> cmps{0};
    auto cmp = [&cmps](const counted &x, const counted &y) {
      cmps.fetch_add(1, std::memory_order_relaxed);
      return x.v < y.v;
    };
    copies = 0;
    CHECK(adapt::min_element(c.begin(), c.end(), cmp) == std::min_element(c.begin(), c.end()));
    CHECK(cmps.load() == static_cast<long>(n ? n - 1 : 0)); /* std's count */
    CHECK(adapt::minmax_element(c.begin(), c.end()) == std::minmax_element(c.begin(), c.end()));
    CHECK(adapt::max_element(c.begin(), c.end()) == std::max_element(c.begin(), c.end()));
    CHECK(copies.load() == 0);
  }
}

void test_modify() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 7, 10);
    for (auto &[pname, pol] : policies(n)) {
      where = "modify n=" + std::to_string(n) + " " + pname;
      std::vector<int> o(n, -1), r(n, -1);
      CHECK(adapt::copy(pol, a.begin(), a.end(), o.begin()) == o.end() && o == a);
      std::fill(o.begin(), o.end(), -1);
      CHECK(adapt::copy_n(pol, a.begin(), n / 2, o.begin()) == o.begin() + n / 2);
      CHECK(std::equal(a.begin(), a.begin() + n / 2, o.begin()) &&
            std::count(o.begin(), o.end(), -1) == static_cast<long>(n - n / 2));
      auto s = strings(a), t = std::vector<std::string>(n);
      CHECK(adapt::move(pol, s.begin(), s.end(), t.begin()) == t.end() && t == strings(a));
      CHECK(adapt::fill_n(pol, o.begin(), n / 3, 4) == o.begin() + n / 3);
      CHECK(std::count(o.begin(), o.begin() + n / 3, 4) == static_cast<long>(n / 3));
      std::atomic<int> next{0};
      CHECK(adapt::generate_n(pol, o.begin(), n, [&next] { return next++; }) == o.end());
      std::sort(o.begin(), o.end());
      CHECK(o == iota(n));
      auto x = a, y = iota(n);
      CHECK(adapt::swap_ranges(pol, x.begin(), x.end(), y.begin()) == y.end());
      CHECK(x == iota(n) && y == a);
      x = a;
      r = a;
      adapt::replace(pol, x.begin(), x.end(), 3, 33);
      std::replace(r.begin(), r.end(), 3, 33);
      CHECK(x == r);
      auto odd = [](int v) { return v % 2 != 0; };
      adapt::replace_if(pol, x.begin(), x.end(), odd, -5);
      std::replace_if(r.begin(), r.end(), odd, -5);
      CHECK(x == r);
      CHECK(adapt::replace_copy(pol, a.begin(), a.end(), o.begin(), 4, 44) == o.end());
      std::replace_copy(a.begin(), a.end(), r.begin(), 4, 44);
      CHECK(o == r);
      CHECK(adapt::replace_copy_if(pol, a.begin(), a.end(), o.begin(), odd, 9) == o.end());
      std::replace_copy_if(a.begin(), a.end(), r.begin(), odd, 9);
      CHECK(o == r);
      x = iota(n);
      r = x;
      adapt::reverse(pol, x.begin(), x.end());
      std::reverse(r.begin(), r.end());
      CHECK(x == r);
      CHECK(adapt::reverse_copy(pol, a.begin(), a.end(), o.begin()) == o.end());
      std::reverse_copy(a.begin(), a.end(), r.begin());
      CHECK(o == r);
      for (std::size_t m : {std::size_t{0}, n / 3, n / 2 + 1, n}) {
        if (m > n) continue;
        CHECK(adapt::rotate_copy(pol, a.begin(), a.begin() + m, a.end(), o.begin()) == o.end());
        std::rotate_copy(a.begin(), a.begin() + m, a.end(), r.begin());
        CHECK(o == r);
        x = a;
        CHECK(adapt::rotate(pol, x.begin(), x.begin() + m, x.end()) ==
              x.begin() + static_cast<long>(n - m));
        CHECK(x == o);
      }
    }
    where = "modify-nopolicy n=" + std::to_string(n);
    std::vector<counted> c(n), d(n);
    copies = 0;
    CHECK(adapt::copy(c.begin(), c.end(), d.begin()) == d.end());
    CHECK(copies.load() == static_cast<long>(n));
    copies = 0;
    adapt::move(c.begin(), c.end(), d.begin());
    adapt::reverse(d.begin(), d.end());
    adapt::swap_ranges(c.begin(), c.end(), d.begin());
    CHECK(copies.load() == 0);
    std::vector<std::unique_ptr<int>> u(n), w(n);
    for (std::size_t i = 0; i < n; i++) u[i].reset(new int(static_cast<int>(i)));
    adapt::move(u.begin(), u.end(), w.begin());
    adapt::reverse(w.begin(), w.end());
    CHECK(n == 0 || (*w[0] == static_cast<int>(n - 1) && !u[0]));
  }
}

void test_numeric() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 8, 1000);
    for (auto &[pname, pol] : policies(n)) {
      where = "numeric n=" + std::to_string(n) + " " + pname;
      std::vector<long> o(n), r(n);
      CHECK(adapt::adjacent_difference(pol, a.begin(), a.end(), o.begin()) == o.end());
      std::adjacent_difference(a.begin(), a.end(), r.begin());
      CHECK(o == r);
      auto sq = [](int v) { return static_cast<long>(v) * v; };
      CHECK(adapt::transform_inclusive_scan(pol, a.begin(), a.end(), o.begin(), std::plus<>(),
                                            sq) == o.end());
      std::transform_inclusive_scan(a.begin(), a.end(), r.begin(), std::plus<>(), sq);
      CHECK(o == r);
      adapt::transform_inclusive_scan(pol, a.begin(), a.end(), o.begin(), std::plus<>(), sq, 5L);
      std::transform_inclusive_scan(a.begin(), a.end(), r.begin(), std::plus<>(), sq, 5L);
      CHECK(o == r);
      CHECK(adapt::transform_exclusive_scan(pol, a.begin(), a.end(), o.begin(), 3L, std::plus<>(),
                                            sq) == o.end());
      std::transform_exclusive_scan(a.begin(), a.end(), r.begin(), 3L, std::plus<>(), sq);
      CHECK(o == r);
    }
    where = "numeric-nopolicy n=" + std::to_string(n);
    auto x = a, y = a;
    adapt::adjacent_difference(x.begin(), x.end(), x.begin(), std::plus<>()); /* in place */
    std::adjacent_difference(y.begin(), y.end(), y.begin(), std::plus<>());
    CHECK(x == y);
    std::vector<int> o(n);
    x = a;
    adapt::transform_exclusive_scan(x.begin(), x.end(), x.begin(), 0, std::plus<>(),
                                    [](int v) { return v % 7; }); /* in place */
    std::transform_exclusive_scan(a.begin(), a.end(), o.begin(), 0, std::plus<>(),
                                  [](int v) { return v % 7; });
    CHECK(x == o);
  }
}

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

void test_select() {
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

void test_merge() {
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

void test_nth() {
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
    CHECK(throws([&] { adapt::uninitialized_copy(v.begin(), v.end(), t.begin()); }) == (n ? 1 : 0));
    CHECK(live.load() == 0);
    bad_value = 0;
    CHECK(throws([&] { adapt::uninitialized_fill(t.begin(), t.end(), 0); }) == (n ? 1 : 0));
    CHECK(live.load() == 0);
    bad_value = -1;
    adapt::uninitialized_fill(t.begin(), t.end(), 3);
    CHECK(live.load() == static_cast<long>(n));
    adapt::destroy(t.begin(), t.end());
    CHECK(live.load() == 0);
  }
}

/* Iterators that are not random access: std's algorithm. */
void test_fallback() {
  where = "fallback";
  std::list<int> l = {3, 1, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
  std::vector<int> v(l.begin(), l.end()), o(v.size()), r(v.size());
  CHECK(*adapt::adjacent_find(l.begin(), l.end()) == 1);
  CHECK(*adapt::min_element(l.begin(), l.end()) == 1 &&
        *adapt::max_element(l.begin(), l.end()) == 9);
  CHECK(!adapt::is_sorted(adapt::par, l.begin(), l.end()));
  adapt::copy(l.begin(), l.end(), o.begin());
  CHECK(o == v);
  auto x = l;
  x.erase(adapt::unique(x.begin(), x.end()), x.end());
  CHECK(x.size() == v.size() - 1);
  x.erase(adapt::remove(adapt::par, x.begin(), x.end(), 5), x.end());
  CHECK(x.size() == v.size() - 4);
  adapt::reverse(x.begin(), x.end());
  CHECK(x.front() == 3);
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
    CHECK(throws([&] { adapt::adjacent_find(a.begin(), a.end(), eq2); }) == 1);
    CHECK(throws([&] { adapt::mismatch(a.begin(), a.end(), a.begin(), eq2); }) == 1);
    CHECK(throws([&] { adapt::is_sorted(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws([&] { adapt::includes(a.begin(), a.end(), a.begin(), a.end(), p2); }) == 1);
    CHECK(throws([&] { adapt::min_element(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws([&] { adapt::minmax_element(a.begin(), a.end(), p2); }) == 1);
    CHECK(throws([&] { adapt::replace_if(o.begin(), o.end(), p1, 0); }) == (at == 0 ? 1 : 0));
    CHECK(throws([&] { adapt::remove_copy_if(a.begin(), a.end(), o.begin(), p1); }) == 1);
    CHECK(throws([&] { adapt::partition_copy(a.begin(), a.end(), o.begin(), o2.begin(), p1); }) ==
          1);
    auto x = a;
    CHECK(throws([&] { adapt::remove_if(x.begin(), x.end(), p1); }) == 1);
    x = a;
    CHECK(throws([&] { adapt::unique(x.begin(), x.end(), eq2); }) == (n > 1 ? 1 : 0));
    CHECK(throws([&] {
            adapt::transform_inclusive_scan(a.begin(), a.end(), o.begin(), std::plus<>(),
                                            [bad](int v) {
                                              if (v == bad) throw boom();
                                              return v;
                                            });
          }) == 1);
    x = a;
    CHECK(throws([&] { adapt::stable_partition(x.begin(), x.end(), p1); }) == 1);
    CHECK(x == a); /* pred runs before anything moves */
    CHECK(throws([&] { adapt::partition(x.begin(), x.end(), p1); }) == 1);
    std::sort(x.begin(), x.end());
    CHECK(x == a); /* swaps only: a permutation */
    std::vector<int> m(2 * n);
    CHECK(throws([&] { adapt::merge(a.begin(), a.end(), a.begin(), a.end(), m.begin(), p2); }) ==
          1);
    std::copy(a.begin(), a.end(), m.begin());
    std::copy(a.begin(), a.end(), m.begin() + static_cast<long>(n));
    CHECK(throws([&] {
            adapt::inplace_merge(m.begin(), m.begin() + static_cast<long>(n), m.end(), p2);
          }) == 1);
    /* the runtime goes on */
    CHECK(adapt::min_element(a.begin(), a.end()) == a.begin());
  }
}

/* A search stops early: a hit at the front leaves most of a long sequence
 * untested. */
void test_early_stop() {
  where = "early stop";
  std::size_t n = sanitized() ? 200000 : 2000000;
  std::vector<int> a(n, 0);
  a[100] = 1;
  a[101] = 1;
  std::atomic<std::size_t> calls{0};
  auto eq = [&calls](int u, int v) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return u == v && u == 1;
  };
  CHECK(adapt::adjacent_find(adapt::par.grain(64), a.begin(), a.end(), eq) == a.begin() + 100);
  CHECK(calls.load() < n / 4);
}

void run_all(int workers) {
  adapt_config cfg{};
  cfg.workers = workers;
  where = "adapt_init workers=" + std::to_string(workers);
  CHECK(adapt_init(&cfg) == 0);
  const std::pair<const char *, void (*)()> parts[] = {
      {"search", test_search},         {"order", test_order},
      {"minmax", test_minmax},         {"modify", test_modify},
      {"numeric", test_numeric},       {"select", test_select},
      {"merge", test_merge},           {"nth", test_nth},
      {"memory", test_memory},         {"fallback", test_fallback},
      {"exceptions", test_exceptions}, {"early stop", test_early_stop}};
  for (auto &[name, fn] : parts) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    if (std::getenv("TEST_STL_TIMES"))
      std::fprintf(stderr, "  %-10s %.2f s\n", name,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  adapt_finalize();
}

} // namespace

int main() {
  for (int w : {1, 2, 3}) {
    if (w == 1 && variant("tsan")) continue; /* nothing runs concurrently */
    int before = failures;
    run_all(w);
    std::printf("test_stl_algos: %d workers: %s\n", w, failures == before ? "ok" : "FAILED");
    std::fflush(stdout);
  }
  std::printf("test_stl_algos: %d checks, %d failed: %s\n", checks, failures,
              failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
