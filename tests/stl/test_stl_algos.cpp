/* Tests of the algorithms of <adapt/stl.hpp> defined in
 * <adapt/stl/algorithms.hpp> (searches, order predicates, min/max,
 * element-wise maps, numeric, order-keeping selections): each one against
 * std on several sizes (0, 1, 2, small, larger than a grain), worker
 * counts and policies, with and without a policy; non-random-access
 * fallbacks; element copies; exceptions. The closing line says passed or
 * FAILED; the exit status is non-zero on failure. ADAPT_TEST_VARIANT (set
 * by make test-run) scales the largest size down under the sanitizers. The second part
 * is test_stl_algos_more.cpp. */
#include "algos_test.h"

namespace algos_test {
namespace {

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
        /* doubles under std::less (the branch-free blocks): ties, 0.0 and
         * -0.0 equivalent (the first one wins) */
        std::vector<double> d(a.size());
        for (std::size_t i = 0; i < a.size(); i++)
          d[i] = a[i] == 0 ? (i % 2 ? -0.0 : 0.0) : static_cast<double>(a[i]);
        CHECK(adapt::min_element(pol, d.begin(), d.end()) == std::min_element(d.begin(), d.end()));
        CHECK(adapt::max_element(pol, d.begin(), d.end(), std::less<double>()) ==
              std::max_element(d.begin(), d.end()));
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
  /* std::vector<bool> (a proxy reference: neighbouring bits share a word):
   * the algorithms writing it run on one thread, so no two workers write one
   * word (ThreadSanitizer would report it; the results would lose bits). */
  const std::size_t nb = 50000;
  std::vector<bool> bits(nb), want(nb);
  for (std::size_t i = 0; i < nb; i++) want[i] = (i * 7) % 3 == 0;
  adapt::copy(adapt::par, want.begin(), want.end(), bits.begin());
  CHECK(bits == want);
  adapt::reverse(adapt::par, bits.begin(), bits.end());
  std::reverse(want.begin(), want.end());
  CHECK(bits == want);
  adapt::replace(adapt::par, bits.begin(), bits.end(), false, true);
  CHECK(std::find(bits.begin(), bits.end(), false) == bits.end());
  adapt::fill_n(adapt::par, bits.begin(), nb / 2, false);
  CHECK(std::count(bits.begin(), bits.end(), false) == (std::ptrdiff_t)(nb / 2));
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

} // namespace

void run_all(int workers) {
  run_parts(workers, {{"search", test_search},
                      {"order", test_order},
                      {"minmax", test_minmax},
                      {"modify", test_modify},
                      {"numeric", test_numeric},
                      {"select", test_select},
                      {"merge", test_merge},
                      {"nth", test_nth},
                      {"sets", test_sets},
                      {"memory", test_memory},
                      {"fallback", test_fallback},
                      {"exceptions", test_exceptions},
#ifndef ALGOS_TEST_NO_RANGES /* stl/module.mk: not under TSan */
                      {"ranges", test_ranges},
                      {"ranges more", test_ranges_more},
#endif
                      {"early stop", test_early_stop}});
}

/* Nothing runs concurrently on one worker: tsan leaves it out. */
bool skip(int workers) { return workers == 1 && variant("tsan"); }

} // namespace algos_test

int main() {
  return stl_test::run_counts("test_stl_algos", {1, 2, 3}, algos_test::skip, algos_test::run_all);
}
