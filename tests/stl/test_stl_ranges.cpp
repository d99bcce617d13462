/* adapt::ranges:: (C++20, <adapt/stl/ranges.hpp>) against std::ranges:
 * iterator and range forms, with and without a policy, projections,
 * sentinels (sized: parallel; unsized: std's fallback, sort through
 * ranges::next), returned iterators and borrowed results. Compiled with
 * -std=c++20 and strict warnings (stl/module.mk), part of test_stl_algos
 * (in the release and asan variants). One element type (rec, projected on its key) keeps the instantiations
 * few. */
#include "algos_test.h"

#include <ranges>
#include <span>
#include <type_traits>

namespace algos_test {
namespace {

struct rec {
  int k = 0;   /* the key the projections see */
  int tag = 0; /* the position it was made at (stability, identity) */
  bool operator==(const rec &) const = default;
};

std::vector<rec> recs(std::size_t n, unsigned seed, int range) {
  std::vector<int> keys = ints(n, seed, range);
  std::vector<rec> v(n);
  for (std::size_t i = 0; i < n; i++) v[i] = {keys[i], static_cast<int>(i)};
  return v;
}

/* An unsized sentinel: the first element with key < 0. */
struct neg_key {
  friend bool operator==(std::vector<rec>::iterator it, neg_key) { return it->k < 0; }
};

auto is_odd = [](int k) { return (k & 1) != 0; };

/* Maps, copies and counts of one input: adapt::ranges vs std::ranges. */
void check_maps(const adapt::policy &pol, const std::vector<rec> &a) {
  namespace ar = adapt::ranges;
  namespace sr = std::ranges;
  std::vector<rec> x = a, y = a;
  auto fe = ar::for_each(
      pol, x, [](int &k) { k += 3; }, &rec::k);
  sr::for_each(
      y, [](int &k) { k += 3; }, &rec::k);
  CHECK(x == y && fe.in == x.end());
  auto fn = ar::for_each_n(x.begin(), static_cast<std::ptrdiff_t>(x.size() / 2),
                           [](rec &r) { r.tag = -r.tag; });
  sr::for_each_n(y.begin(), static_cast<std::ptrdiff_t>(y.size() / 2),
                 [](rec &r) { r.tag = -r.tag; });
  CHECK(x == y && fn.in == x.begin() + static_cast<std::ptrdiff_t>(x.size() / 2));

  std::vector<int> o1(a.size()), o2(a.size());
  auto t1 = ar::transform(
      pol, a, o1.begin(), [](int k) { return 2 * k; }, &rec::k);
  sr::transform(
      a, o2.begin(), [](int k) { return 2 * k; }, &rec::k);
  CHECK(o1 == o2 && t1.in == a.end() && t1.out == o1.end());
  auto sum = [](int u, int v) { return u + v; };
  auto t2 = ar::transform(pol, a, x, o1.begin(), sum, &rec::k, &rec::tag);
  sr::transform(a, x, o2.begin(), sum, &rec::k, &rec::tag);
  CHECK(o1 == o2 && t2.in1 == a.end() && t2.in2 == x.end() && t2.out == o1.end());

  std::vector<rec> c1(a.size()), c2(a.size());
  CHECK(ar::copy(pol, a, c1.begin()).out == c1.end() && c1 == a);
  sr::fill(c1, rec{});
  auto ci = ar::copy_if(pol, a, c1.begin(), is_odd, &rec::k);
  auto cs = sr::copy_if(a, c2.begin(), is_odd, &rec::k);
  CHECK(ci.out - c1.begin() == cs.out - c2.begin() && c1 == c2 && ci.in == a.end());
  CHECK(ar::fill(pol, c1, rec{7, 7}) == c1.end());
  CHECK(sr::count(c1, rec{7, 7}) == static_cast<std::ptrdiff_t>(c1.size()));

  CHECK(ar::count(pol, a, 3, &rec::k) == sr::count(a, 3, &rec::k));
  CHECK(ar::count_if(pol, a, is_odd, &rec::k) == sr::count_if(a, is_odd, &rec::k));
  CHECK(ar::count_if(a.begin(), a.end(), is_odd, &rec::k) == sr::count_if(a, is_odd, &rec::k));
}

/* Searches, extrema and comparisons. */
void check_searches(const adapt::policy &pol, const std::vector<rec> &a) {
  namespace ar = adapt::ranges;
  namespace sr = std::ranges;
  auto big = [](int k) { return k > 90; };
  CHECK(ar::find(pol, a, 42, &rec::k) == sr::find(a, 42, &rec::k));
  CHECK(ar::find_if(pol, a, big, &rec::k) == sr::find_if(a, big, &rec::k));
  CHECK(ar::find_if_not(pol, a, is_odd, &rec::k) == sr::find_if_not(a, is_odd, &rec::k));
  CHECK(ar::any_of(pol, a, big, &rec::k) == sr::any_of(a, big, &rec::k));
  CHECK(ar::all_of(pol, a, is_odd, &rec::k) == sr::all_of(a, is_odd, &rec::k));
  CHECK(ar::none_of(a, big, &rec::k) == sr::none_of(a, big, &rec::k));
  CHECK(ar::min_element(pol, a, {}, &rec::k) == sr::min_element(a, {}, &rec::k));
  CHECK(ar::max_element(pol, a, {}, &rec::k) == sr::max_element(a, {}, &rec::k));
  auto m1 = ar::minmax_element(pol, a, {}, &rec::k);
  auto m2 = sr::minmax_element(a, {}, &rec::k);
  CHECK(m1.min == m2.min && m1.max == m2.max);
  CHECK(ar::is_sorted(pol, a, {}, &rec::k) == sr::is_sorted(a, {}, &rec::k));

  std::vector<rec> b = a;
  CHECK(ar::equal(pol, a, b));
  if (!b.empty()) {
    std::size_t at = b.size() / 2;
    b[at].tag++; /* differs, but not in the key */
    CHECK(!ar::equal(pol, a, b) && ar::equal(pol, a, b, {}, &rec::k, &rec::k));
    auto mm = ar::mismatch(pol, a, b);
    CHECK(mm.in1 - a.begin() == static_cast<std::ptrdiff_t>(at) &&
          mm.in2 - b.begin() == static_cast<std::ptrdiff_t>(at));
    b.pop_back(); /* shorter: never equal; mismatch stops at its end */
    CHECK(!ar::equal(pol, a, b, {}, &rec::k, &rec::k));
    auto ms = ar::mismatch(pol, a, b, {}, &rec::k, &rec::k);
    CHECK(ms.in2 == b.end() && ms.in1 == a.begin() + static_cast<std::ptrdiff_t>(b.size()));
  }
}

/* Sorts and in-place modifications. */
void check_modify(const adapt::policy &pol, const std::vector<rec> &a) {
  namespace ar = adapt::ranges;
  namespace sr = std::ranges;
  std::vector<rec> x = a, y = a;
  CHECK(ar::stable_sort(pol, x, {}, &rec::k) == x.end());
  sr::stable_sort(y, {}, &rec::k);
  CHECK(x == y); /* tags too: equal keys kept their order */
  CHECK(ar::sort(pol, x, sr::greater{}, &rec::tag) == x.end());
  CHECK(sr::is_sorted(x, sr::greater{}, &rec::tag));
  CHECK(ar::reverse(pol, x) == x.end());
  CHECK(sr::is_sorted(x, {}, &rec::tag));

  x = a;
  y = a;
  CHECK(ar::replace(pol, x, 5, rec{-5, 0}, &rec::k) == x.end());
  sr::replace(y, 5, rec{-5, 0}, &rec::k);
  CHECK(x == y);
  ar::replace_if(pol, x, is_odd, rec{1, 1}, &rec::k);
  sr::replace_if(y, is_odd, rec{1, 1}, &rec::k);
  CHECK(x == y);

  x = a;
  y = a;
  auto r1 = ar::remove(pol, x, 4, &rec::k);
  auto r2 = sr::remove(y, 4, &rec::k);
  CHECK(r1.begin() - x.begin() == r2.begin() - y.begin() && r1.end() == x.end());
  CHECK(std::equal(x.begin(), r1.begin(), y.begin()));
  x = a;
  y = a;
  r1 = ar::remove_if(pol, x, is_odd, &rec::k);
  r2 = sr::remove_if(y, is_odd, &rec::k);
  CHECK(r1.begin() - x.begin() == r2.begin() - y.begin());
  CHECK(std::equal(x.begin(), r1.begin(), y.begin()));
  x = a;
  y = a;
  r1 = ar::unique(pol, x, {}, &rec::k);
  r2 = sr::unique(y, {}, &rec::k);
  CHECK(r1.begin() - x.begin() == r2.begin() - y.begin() && r1.end() == x.end());
  CHECK(std::equal(x.begin(), r1.begin(), y.begin()));
}

/* Sentinels: sized (counted_iterator: the parallel path) and unsized
 * (a terminator key: std's fallback; sort: through ranges::next). */
void check_sentinels(std::vector<rec> a) {
  namespace ar = adapt::ranges;
  namespace sr = std::ranges;
  auto half = static_cast<std::ptrdiff_t>(a.size() / 2);
  std::counted_iterator<std::vector<rec>::iterator> cb(a.begin(), half);
  auto cf = ar::find_if(cb, std::default_sentinel, is_odd, &rec::k);
  CHECK(cf.base() == sr::find_if(a.begin(), a.begin() + half, is_odd, &rec::k));
  CHECK(ar::count_if(adapt::par, cb, std::default_sentinel, is_odd, &rec::k) ==
        sr::count_if(a.begin(), a.begin() + half, is_odd, &rec::k));
  CHECK(ar::for_each(
            cb, std::default_sentinel, [](int &k) { k++; }, &rec::k)
            .in.count() == 0);

  if (a.empty()) return;
  a[a.size() - 1].k = -1; /* the terminator */
  std::vector<rec> b = a;
  auto e = ar::sort(adapt::par, a.begin(), neg_key{}, {}, &rec::k);
  CHECK(e == a.end() - 1 && sr::is_sorted(a.begin(), e, {}, &rec::k));
  std::vector<rec> c = a; /* a permutation of b: the same records by tag */
  sr::sort(c, {}, &rec::tag);
  sr::sort(b, {}, &rec::tag);
  CHECK(c == b);
  CHECK(ar::count_if(a.begin(), neg_key{}, is_odd, &rec::k) ==
        sr::count_if(a.begin(), a.end() - 1, is_odd, &rec::k));
  CHECK(ar::find(a.begin(), neg_key{}, 1 << 30, &rec::k) == a.end() - 1);
}

/* Range arguments: a borrowed range returns iterators into it, a
 * temporary that does not borrow returns std::ranges::dangling. */
void check_borrowed() {
  namespace ar = adapt::ranges;
  std::vector<rec> a = recs(100, 5, 10);
  std::span<rec> s(a);
  auto it = ar::find(adapt::par, s, a[50].k, &rec::k);
  static_assert(std::is_same_v<decltype(it), std::span<rec>::iterator>);
  CHECK(it != s.end() && it->k == a[50].k);
  auto d = ar::min_element(recs(10, 1, 10), {}, &rec::k);
  static_assert(std::is_same_v<decltype(d), std::ranges::dangling>);
  auto rd = ar::sort(recs(10, 2, 10), {}, &rec::k);
  static_assert(std::is_same_v<decltype(rd), std::ranges::dangling>);
  auto sub = ar::remove(std::span<rec>(a), 3, &rec::k);
  static_assert(std::is_same_v<decltype(sub), std::ranges::subrange<std::span<rec>::iterator>>);
  CHECK(std::ranges::none_of(
      a.begin(), a.begin() + (sub.begin() - s.begin()), [](int k) { return k == 3; }, &rec::k));
}

} // namespace

void test_ranges() {
  /* Under the sanitizers the default policy only: the policies' paths are
   * the adapt:: algorithms', tested in full by the other parts. */
  for (std::size_t n : sizes())
    for (auto &[pname, pol] :
         sanitized() ? decltype(policies(n)){{"par", adapt::par}} : policies(n)) {
      where = std::string("ranges n=") + std::to_string(n) + " " + pname;
      std::vector<rec> a = recs(n, static_cast<unsigned>(n) + 11, 100);
      check_maps(pol, a);
      check_searches(pol, a);
      check_modify(pol, a);
      /* Under the sanitizers up to 5003 elements (two blocks). */
      if (!sanitized() || n < sizes().back()) ranges_more(pol, n);
    }
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, sizes().back()}) {
    where = "ranges sentinels n=" + std::to_string(n);
    check_sentinels(recs(n, 3, 100));
  }
  where = "ranges borrowed";
  check_borrowed();
}

} // namespace algos_test
