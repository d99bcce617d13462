/* adapt::ranges:: (C++20) against std::ranges, the algorithms beyond
 * test_stl_ranges.cpp's: searches, order checks, partitions, selections,
 * merges and set operations, copies, the <memory> ones. The range form
 * with a policy for every algorithm (it runs the policy-first iterator
 * form: the dispatch), the forms without a policy and with iterators on a
 * few (the macros that write them are shared), unsized sentinels (std's
 * fallback) and dangling results. A second C++20 source of
 * test_stl_algos, in the release and asan variants (its compile runs
 * beside test_stl_ranges.o's), compiled with the same strict warnings. */
#include "algos_test.h"

#include <list>
#include <ranges>
#include <span>
#include <type_traits>

namespace algos_test {
namespace {

namespace ar = adapt::ranges;
namespace sr = std::ranges;

struct rec {
  int k = 0;   /* the key the projections see */
  int tag = 0; /* the position it was made at */
  bool operator==(const rec &) const = default;
};
using vec = std::vector<rec>;
using it_t = vec::iterator;

vec recs(std::size_t n, unsigned seed, int range) {
  std::vector<int> keys = ints(n, seed, range);
  vec v(n);
  for (std::size_t i = 0; i < n; i++) v[i] = {keys[i], static_cast<int>(i)};
  return v;
}
vec sorted_recs(std::size_t n, unsigned seed, int range) {
  vec v = recs(n, seed, range);
  sr::stable_sort(v, {}, &rec::k);
  return v;
}

/* The offset of an iterator into its vector. */
std::ptrdiff_t at(const vec &v, vec::const_iterator it) { return it - v.begin(); }
/* Two subranges at the same offsets of x and y. */
bool same_sub(const vec &x, sr::subrange<it_t> a, const vec &y, sr::subrange<it_t> b) {
  return at(x, a.begin()) == at(y, b.begin()) && at(x, a.end()) == at(y, b.end());
}

auto is_odd = [](int k) { return (k & 1) != 0; };
auto small = [](int k) { return k < 30; };

/* Searches and order checks: results as offsets equal std's. */
void check_searches(const adapt::policy &pol, const vec &a) {
  vec b = a;
  CHECK(at(a, ar::adjacent_find(pol, a, {}, &rec::k)) == at(a, sr::adjacent_find(a, {}, &rec::k)));
  CHECK(at(a, ar::adjacent_find(a.begin(), a.end(), sr::greater{}, &rec::k)) ==
        at(a, sr::adjacent_find(a, sr::greater{}, &rec::k)));
  auto sn1 = ar::search_n(pol, b, 2, 7, {}, &rec::k);
  auto sn2 = sr::search_n(b, 2, 7, {}, &rec::k);
  CHECK(at(b, sn1.begin()) == at(b, sn2.begin()) && at(b, sn1.end()) == at(b, sn2.end()));
  /* A needle taken from the middle: found at or before its place. */
  std::size_t m = a.size() / 2, len = std::min<std::size_t>(a.size() - m, 3);
  vec needle(a.begin() + static_cast<std::ptrdiff_t>(m),
             a.begin() + static_cast<std::ptrdiff_t>(m + len));
  for (auto &r : needle) r.tag = -1; /* equal in the key only */
  CHECK(same_sub(b, ar::search(pol, b, needle, {}, &rec::k, &rec::k), b,
                 sr::search(b, needle, {}, &rec::k, &rec::k)));
  CHECK(same_sub(b, ar::find_end(pol, b, needle, {}, &rec::k, &rec::k), b,
                 sr::find_end(b, needle, {}, &rec::k, &rec::k)));
  CHECK(same_sub(b, ar::search(b.begin(), b.end(), needle.begin(), needle.end()), b,
                 sr::search(b, needle)));
  CHECK(at(a, ar::find_first_of(pol, a, needle, {}, &rec::k, &rec::k)) ==
        at(a, sr::find_first_of(a, needle, {}, &rec::k, &rec::k)));
  CHECK(ar::lexicographical_compare(pol, a, needle, {}, &rec::k, &rec::k) ==
        sr::lexicographical_compare(a, needle, {}, &rec::k, &rec::k));
  CHECK(ar::lexicographical_compare(pol, needle, a, {}, &rec::k, &rec::tag) ==
        sr::lexicographical_compare(needle, a, {}, &rec::k, &rec::tag));

  CHECK(at(a, ar::is_sorted_until(pol, a, {}, &rec::k)) ==
        at(a, sr::is_sorted_until(a, {}, &rec::k)));
  CHECK(ar::is_heap(pol, a, {}, &rec::k) == sr::is_heap(a, {}, &rec::k));
  CHECK(at(a, ar::is_heap_until(pol, a, {}, &rec::k)) == at(a, sr::is_heap_until(a, {}, &rec::k)));
  sr::make_heap(b, {}, &rec::k);
  CHECK(ar::is_heap(b, {}, &rec::k) && ar::is_heap_until(pol, b, {}, &rec::k) == b.end());
  CHECK(ar::is_partitioned(pol, a, small, &rec::k) == sr::is_partitioned(a, small, &rec::k));
  sr::partition(b, small, &rec::k);
  CHECK(ar::is_partitioned(b.begin(), b.end(), small, &rec::k));
}

/* Partitions, selections, rotations and replacement copies. */
void check_modify(const adapt::policy &pol, const vec &a) {
  vec x = a, y = a;
  auto p1 = ar::partition(pol, x, small, &rec::k);
  auto p2 = sr::partition(y, small, &rec::k);
  CHECK(same_sub(x, p1, y, p2) && sr::is_partitioned(x, small, &rec::k));
  sr::sort(x, {}, &rec::tag); /* the same records */
  CHECK(x == a);
  x = a;
  y = a;
  CHECK(same_sub(x, ar::stable_partition(pol, x, is_odd, &rec::k), y,
                 sr::stable_partition(y, is_odd, &rec::k)) &&
        x == y);
  x = a;
  y = a;
  auto mid = static_cast<std::ptrdiff_t>(a.size() / 3);
  CHECK(same_sub(x, ar::rotate(pol, x, x.begin() + mid), y, sr::rotate(y, y.begin() + mid)) &&
        x == y);
  CHECK(same_sub(x, ar::rotate(x.begin(), x.begin() + mid, x.end()), y,
                 sr::rotate(y, y.begin() + mid)) &&
        x == y);

  vec o1(a.size()), o2(a.size());
  auto rc = ar::rotate_copy(pol, a, a.begin() + mid, o1.begin());
  sr::rotate_copy(a, a.begin() + mid, o2.begin());
  CHECK(o1 == o2 && rc.in == a.end() && rc.out == o1.end());
  auto rv = ar::reverse_copy(pol, a, o1.begin());
  sr::reverse_copy(a, o2.begin());
  CHECK(o1 == o2 && rv.in == a.end() && rv.out == o1.end());
  auto rpc = ar::replace_copy(pol, a, o1.begin(), 5, rec{-5, 0}, &rec::k);
  sr::replace_copy(a, o2.begin(), 5, rec{-5, 0}, &rec::k);
  CHECK(o1 == o2 && rpc.out == o1.end());
  ar::replace_copy_if(pol, a, o1.begin(), is_odd, rec{1, 1}, &rec::k);
  sr::replace_copy_if(a, o2.begin(), is_odd, rec{1, 1}, &rec::k);
  CHECK(o1 == o2);
  auto rm1 = ar::remove_copy(pol, a, o1.begin(), 4, &rec::k);
  auto rm2 = sr::remove_copy(a, o2.begin(), 4, &rec::k);
  CHECK(at(o1, rm1.out) == at(o2, rm2.out) && sr::equal(o1.begin(), rm1.out, o2.begin(), rm2.out));
  rm1 = ar::remove_copy_if(pol, a, o1.begin(), is_odd, &rec::k);
  rm2 = sr::remove_copy_if(a, o2.begin(), is_odd, &rec::k);
  CHECK(at(o1, rm1.out) == at(o2, rm2.out) && sr::equal(o1.begin(), rm1.out, o2.begin(), rm2.out));
  auto u1 = ar::unique_copy(pol, a, o1.begin(), {}, &rec::k);
  auto u2 = sr::unique_copy(a, o2.begin(), {}, &rec::k);
  CHECK(at(o1, u1.out) == at(o2, u2.out) && sr::equal(o1.begin(), u1.out, o2.begin(), u2.out));
  vec f1(a.size()), f2(a.size());
  auto pc1 = ar::partition_copy(pol, a, o1.begin(), f1.begin(), is_odd, &rec::k);
  auto pc2 = sr::partition_copy(a, o2.begin(), f2.begin(), is_odd, &rec::k);
  CHECK(pc1.in == a.end() && at(o1, pc1.out1) == at(o2, pc2.out1) &&
        at(f1, pc1.out2) == at(f2, pc2.out2) &&
        sr::equal(o1.begin(), pc1.out1, o2.begin(), pc2.out1) &&
        sr::equal(f1.begin(), pc1.out2, f2.begin(), pc2.out2));
}

/* Copies, moves, fills and generators, counted forms included. */
void check_copies(const adapt::policy &pol, const vec &a) {
  auto n = static_cast<std::ptrdiff_t>(a.size());
  vec o(a.size()), x = a;
  auto mv = ar::move(pol, x, o.begin());
  CHECK(o == a && mv.in == x.end() && mv.out == o.end());
  auto cn = ar::copy_n(pol, a.begin(), n / 2, o.begin());
  CHECK(cn.in == a.begin() + n / 2 && cn.out == o.begin() + n / 2);
  CHECK(ar::fill_n(pol, o.begin(), n / 2, rec{9, 9}) == o.begin() + n / 2);
  CHECK(sr::count(o.begin(), o.begin() + n / 2, rec{9, 9}) == n / 2);
  std::atomic<int> calls{0};
  auto gen = [&calls] {
    calls.fetch_add(1, std::memory_order_relaxed);
    return rec{3, 3};
  };
  CHECK(ar::generate(pol, o, gen) == o.end() && sr::count(o, rec{3, 3}) == n && calls.load() == n);
  CHECK(ar::generate_n(pol, o.begin(), n / 3, [] { return rec{4, 4}; }) == o.begin() + n / 3);
  CHECK(sr::count(o, rec{4, 4}) == n / 3);
  CHECK(ar::fill_n(o.begin(), -1, rec{}) == o.begin());

  vec y = a, z = recs(a.size() / 2, 9, 100), y2 = y, z2 = z;
  auto sw = ar::swap_ranges(pol, y, z);
  sr::swap_ranges(y2, z2);
  CHECK(y == y2 && z == z2 && sw.in1 == y.begin() + static_cast<std::ptrdiff_t>(z.size()) &&
        sw.in2 == z.end());
}

/* Sorts beyond sort, merges and set operations. */
void check_order(const adapt::policy &pol, const vec &a) {
  vec x = a, y = a;
  auto mid = x.begin() + static_cast<std::ptrdiff_t>(a.size() / 2);
  if (!a.empty()) {
    CHECK(ar::nth_element(pol, x, mid, {}, &rec::k) == x.end());
    sr::nth_element(y, y.begin() + at(x, mid), {}, &rec::k);
    CHECK(mid->k == y[static_cast<std::size_t>(at(x, mid))].k);
    CHECK(sr::all_of(x.begin(), mid, [&](const rec &r) { return r.k <= mid->k; }));
    CHECK(sr::all_of(mid, x.end(), [&](const rec &r) { return r.k >= mid->k; }));
  }
  x = a;
  y = a;
  auto q = static_cast<std::ptrdiff_t>(a.size() / 4);
  CHECK(ar::partial_sort(pol, x, x.begin() + q, {}, &rec::k) == x.end());
  sr::partial_sort(y, y.begin() + q, {}, &rec::k);
  CHECK(sr::equal(x.begin(), x.begin() + q, y.begin(), y.begin() + q, {}, &rec::k, &rec::k));
  vec o1(static_cast<std::size_t>(q)), o2(o1.size());
  auto ps = ar::partial_sort_copy(pol, a, o1, {}, &rec::k, &rec::k);
  sr::partial_sort_copy(a, o2, {}, &rec::k, &rec::k);
  CHECK(ps.in == a.end() && ps.out == o1.end() && sr::equal(o1, o2, {}, &rec::k, &rec::k));

  x = sorted_recs(a.size(), 21, 50);
  vec s2 = sorted_recs(a.size() / 2 + 3, 22, 50);
  vec m1(x.size() + s2.size()), m2(m1.size());
  auto mg = ar::merge(pol, x, s2, m1.begin(), {}, &rec::k, &rec::k);
  sr::merge(x, s2, m2.begin(), {}, &rec::k, &rec::k);
  CHECK(m1 == m2 && mg.in1 == x.end() && mg.in2 == s2.end() && mg.out == m1.end());
  y = x;
  y.insert(y.end(), s2.begin(), s2.end());
  vec y2 = y;
  auto ymid = static_cast<std::ptrdiff_t>(x.size());
  CHECK(ar::inplace_merge(pol, y, y.begin() + ymid, {}, &rec::k) == y.end());
  sr::inplace_merge(y2, y2.begin() + ymid, {}, &rec::k);
  CHECK(y == y2 && y == m2);

  CHECK(ar::includes(pol, x, s2, {}, &rec::k, &rec::k) ==
        sr::includes(x, s2, {}, &rec::k, &rec::k));
  CHECK(ar::includes(pol, m1, x, {}, &rec::k, &rec::k));
  auto e1 = ar::set_union(pol, x, s2, m1.begin(), {}, &rec::k, &rec::k);
  auto e2 = sr::set_union(x, s2, m2.begin(), {}, &rec::k, &rec::k);
  CHECK(at(m1, e1.out) == at(m2, e2.out) && m1 == m2 && e1.in1 == x.end() && e1.in2 == s2.end());
  auto i1 = ar::set_intersection(pol, x, s2, m1.begin(), {}, &rec::k, &rec::k);
  auto i2 = sr::set_intersection(x, s2, m2.begin(), {}, &rec::k, &rec::k);
  CHECK(at(m1, i1.out) == at(m2, i2.out) && m1 == m2);
  auto d1 = ar::set_difference(pol, x, s2, m1.begin(), {}, &rec::k, &rec::k);
  auto d2 = sr::set_difference(x, s2, m2.begin(), {}, &rec::k, &rec::k);
  CHECK(at(m1, d1.out) == at(m2, d2.out) && m1 == m2 && d1.in == x.end());
  auto y1 = ar::set_symmetric_difference(x, s2, m1.begin(), {}, &rec::k, &rec::k);
  auto y3 = sr::set_symmetric_difference(x, s2, m2.begin(), {}, &rec::k, &rec::k);
  CHECK(at(m1, y1.out) == at(m2, y3.out) && m1 == m2);
  /* Different projections: std's sequential merge, the same result. */
  auto mp = ar::merge(pol, x, s2, m1.begin(), {}, &rec::k, [](const rec &r) { return r.k; });
  CHECK(mp.out == m1.end() && sr::is_sorted(m1, {}, &rec::k));
}

/* The <memory> algorithms on raw storage. */
void check_memory(const adapt::policy &pol, const std::vector<std::string> &s) {
  std::size_t n = s.size();
  std::allocator<std::string> al;
  std::string *p = al.allocate(n + 1);
  std::span<std::string> raw(p, n);
  auto uc = ar::uninitialized_copy(pol, s, raw);
  CHECK(uc.in == s.end() && uc.out == raw.end() && sr::equal(raw, s));
  CHECK(ar::destroy(pol, raw) == raw.end());
  CHECK(ar::uninitialized_fill(pol, raw, std::string(20, 'x')) == raw.end());
  CHECK(sr::count(raw, std::string(20, 'x')) == static_cast<std::ptrdiff_t>(n));
  CHECK(ar::destroy_n(pol, raw.begin(), static_cast<std::ptrdiff_t>(n)) == raw.end());
  std::vector<std::string> src = s;
  CHECK(ar::uninitialized_value_construct(pol, raw) == raw.end());
  CHECK(sr::all_of(raw, [](const std::string &t) { return t.empty(); }));
  ar::destroy(raw.begin(), raw.end());
  CHECK(ar::uninitialized_default_construct_n(pol, raw.begin(), static_cast<std::ptrdiff_t>(n)) ==
        raw.end());
  ar::destroy(pol, raw);
  auto mv = ar::uninitialized_move(pol, src, raw);
  CHECK(mv.out == raw.end() && sr::equal(raw, s));
  CHECK(ar::uninitialized_fill_n(pol, p + n, 1, std::string("tail")) == p + n + 1 &&
        p[n] == "tail");
  ar::destroy_n(p, static_cast<std::ptrdiff_t>(n + 1));
  /* The _n forms: the shorter of count and the output, from a list too. */
  auto h = static_cast<std::ptrdiff_t>(n / 2);
  auto cn = ar::uninitialized_copy_n(pol, s.begin(), static_cast<std::ptrdiff_t>(n), p, p + h);
  CHECK(cn.in == s.begin() + h && cn.out == p + h && std::equal(p, p + h, s.begin()));
  ar::destroy_n(pol, p, h);
  src = s;
  auto mn = ar::uninitialized_move_n(pol, src.begin(), h, p, p + n);
  CHECK(mn.in == src.begin() + h && mn.out == p + h && std::equal(p, p + h, s.begin()) &&
        std::all_of(src.begin(), src.begin() + h, [](const std::string &t) { return t.empty(); }));
  ar::destroy_n(p, h);
  std::list<std::string> l(s.begin(), s.begin() + std::min<std::ptrdiff_t>(h, 3));
  auto ln =
      ar::uninitialized_copy_n(pol, l.begin(), static_cast<std::ptrdiff_t>(l.size()), p, p + n);
  CHECK(ln.in == l.end() && ln.out == p + l.size() && std::equal(l.begin(), l.end(), p));
  ar::destroy_n(p, static_cast<std::ptrdiff_t>(l.size()));
  auto none = ar::uninitialized_move_n(pol, src.begin(), -1, p, p + n);
  CHECK(none.in == src.begin() && none.out == p);
  al.deallocate(p, n + 1);
}

/* Unsized sentinels (std's fallback) and dangling results. */
struct neg_key {
  friend bool operator==(it_t it, neg_key) { return it->k < 0; }
};
void check_fallback(vec a) {
  if (a.empty()) return;
  a.back().k = -1;
  auto e = a.end() - 1;
  vec b = a;
  CHECK(ar::partition(adapt::par, a.begin(), neg_key{}, is_odd, &rec::k).end() == e);
  CHECK(sr::is_partitioned(a.begin(), e, is_odd, &rec::k));
  CHECK(ar::is_sorted_until(b.begin(), neg_key{}, {}, &rec::k) ==
        sr::is_sorted_until(b.begin(), b.end() - 1, {}, &rec::k));
  vec o(a.size());
  CHECK(ar::reverse_copy(b.begin(), b.end() - 1, o.begin()).out == o.end() - 1);
  auto d = ar::adjacent_find(recs(10, 1, 3), {}, &rec::k);
  static_assert(std::is_same_v<decltype(d), std::ranges::dangling>);
  auto ds = ar::partition(recs(10, 1, 3), is_odd, &rec::k);
  static_assert(std::is_same_v<decltype(ds), std::ranges::dangling>);
  o.resize(b.size() + 4);
  auto dm = ar::merge(recs(4, 1, 3), std::span<rec>(b), o.begin(), {}, &rec::k, &rec::k);
  static_assert(std::is_same_v<decltype(dm.in1), std::ranges::dangling> &&
                std::is_same_v<decltype(dm.in2), std::span<rec>::iterator>);
}

/* Exceptions and element copies through the range forms: an element that
 * counts its live objects and copies, and one functor type for every role
 * (projection lrec -> key, predicate, comparator, element op) that throws
 * boom when it sees the key `bad` (-1: never), so that each algorithm is
 * instantiated once. */
std::atomic<long> lives{0}, lcopies{0};
struct lrec {
  int k = 0;
  lrec() { lives++; }
  explicit lrec(int x) : k(x) { lives++; }
  lrec(const lrec &o) : k(o.k) {
    lives++;
    lcopies++;
  }
  lrec(lrec &&o) noexcept : k(o.k) { lives++; }
  lrec &operator=(const lrec &o) {
    k = o.k;
    lcopies++;
    return *this;
  }
  lrec &operator=(lrec &&o) noexcept {
    k = o.k;
    return *this;
  }
  ~lrec() { lives--; }
};
struct bomb {
  int bad = -1;
  int operator()(const lrec &r) const { return key(r.k); }
  bool operator()(int k) const { return (key(k) & 1) != 0; }
  bool operator()(int u, int v) const { return key(u) < key(v); }
  int key(int k) const {
    if (k == bad) throw boom();
    return k;
  }
};
using lvec = std::vector<lrec>;

/* A sorted input of keys 0..n-1 (each key once, so `bad` is met once). */
lvec lrecs(std::size_t n) {
  lvec v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; i++) v.emplace_back(static_cast<int>(i));
  return v;
}
bool keys_permuted(lvec x) {
  sr::sort(x, {}, &lrec::k);
  return sr::equal(x, sr::iota_view<int, int>(0, static_cast<int>(x.size())), {}, &lrec::k);
}

/* Each algorithm once with the projection throwing (p: bomb{at}, f:
 * bomb{}) and once with the predicate, comparator or op throwing: the
 * exception reaches the caller, the live objects are the containers'
 * (nothing leaked, nothing destroyed twice), the reorderings by swaps
 * (sort, nth_element, partition) leave a permutation and stable_partition
 * (its predicate runs before anything moves) too. The merges through a
 * buffer (stable_sort, inplace_merge) give std's basic guarantee only:
 * valid elements, not necessarily the same ones. */
void check_throwing(const adapt::policy &pol, std::size_t n, int at) {
  lvec a = lrecs(n), x = a, o(2 * n);
  const long base = lives.load();
  bool hit = at < static_cast<int>(n);
  for (int role = 0; role < 2; role++) {
    bomb p{role == 0 ? at : -1}, f{role == 0 ? -1 : at};
    where = "ranges exceptions n=" + std::to_string(n) + " at=" + std::to_string(at) +
            (role == 0 ? " projection" : " function");
    auto thrown = [&](auto call) { return throws<boom>(call) == (hit ? 1 : 0) && lives == base; };
    CHECK(thrown([&] { ar::for_each(pol, x, f, p); }));
    CHECK(throws<boom>([&] { ar::find_if(pol, a, f, p); }) >= 0 &&
          lives == base); /* may stop first */
    CHECK(thrown([&] { ar::count_if(pol, a, f, p); }));
    CHECK(thrown([&] { ar::copy_if(pol, a, o.begin(), f, p); }));
    CHECK(thrown([&] { ar::min_element(pol, a, f, p); }));
    CHECK(thrown([&] { ar::merge(pol, a, a, o.begin(), f, p, p); }));
    x = lrecs(n);
    CHECK(thrown([&] { ar::sort(pol, x, f, p); }) && keys_permuted(x));
    CHECK(thrown([&] { ar::stable_sort(pol, x, f, p); }));
    x = lrecs(n);
    CHECK(thrown([&] {
            ar::nth_element(pol, x, x.begin() + static_cast<std::ptrdiff_t>(n / 2), f, p);
          }) &&
          keys_permuted(x));
    CHECK(thrown([&] { ar::partition(pol, x, f, p); }) && keys_permuted(x));
    CHECK(thrown([&] { ar::stable_partition(pol, x, f, p); }) && keys_permuted(x));
    x = lrecs(n); /* two interleaved sorted halves: every element is compared */
    sr::stable_partition(x, [](const lrec &r) { return r.k % 2 == 0; });
    CHECK(thrown([&] {
      ar::inplace_merge(pol, x, x.begin() + static_cast<std::ptrdiff_t>((n + 1) / 2), f, p);
    }));
    x = lrecs(n);
    CHECK(thrown([&] { ar::remove_if(pol, x, f, p); }));
    x = lrecs(n);
    CHECK(thrown([&] { ar::unique(pol, x, f, p); }));
  }
}

/* Copies: the in-place algorithms move (no copy), the copying ones copy
 * each element they write once, as std::ranges does. */
void check_lcopies(const adapt::policy &pol, std::size_t n) {
  where = "ranges copies n=" + std::to_string(n);
  bomb p, f;
  lvec x = lrecs(n), o(2 * n);
  sr::reverse(x);
  lcopies = 0;
  ar::sort(pol, x, f, p);
  sr::reverse(x);
  ar::stable_sort(pol, x, f, p);
  ar::nth_element(pol, x, x.begin() + static_cast<std::ptrdiff_t>(n / 2), f, p);
  ar::partition(pol, x, f, p);
  ar::stable_partition(pol, x, f, p);
  ar::sort(pol, x, f, p);
  ar::inplace_merge(pol, x, x.begin() + static_cast<std::ptrdiff_t>(n / 3), f, p);
  ar::for_each(pol, x, f, p);
  CHECK(lcopies == 0 && sr::is_sorted(x, {}, &lrec::k));
  auto e = ar::remove_if(pol, x, f, p).begin();
  auto u = ar::unique(pol, x.begin(), e, f, p).begin();
  CHECK(lcopies == 0);
  /* the comparator is <: every kept key "equals" the first */
  CHECK(e - x.begin() == static_cast<long>((n + 1) / 2) && u - x.begin() == (n ? 1 : 0));
  x = lrecs(n);
  auto c = ar::copy_if(pol, x, o.begin(), f, p);
  CHECK(lcopies == c.out - o.begin() && lcopies == static_cast<long>(n / 2));
  lcopies = 0;
  auto m = ar::merge(pol, x, x, o.begin(), f, p, p);
  CHECK(lcopies == static_cast<long>(2 * n) && m.out == o.end());
}

} // namespace

void ranges_more(const adapt::policy &pol, std::size_t n) {
  vec a = recs(n, static_cast<unsigned>(n) + 17, 100);
  check_searches(pol, a);
  check_modify(pol, a);
  check_copies(pol, a);
  check_order(pol, a);
  check_memory(pol, strings(ints(std::min<std::size_t>(n, 5003), 4, 1000)));
}

void test_ranges_more() {
  const std::size_t big = 20011; /* five blocks of ADAPT_STL_BLOCK */
  for (auto &[pname, pol] :
       sanitized() ? decltype(policies(big)){{"par", adapt::par}} : policies(big)) {
    for (std::size_t at : {std::size_t{0}, big / 2, big})
      check_throwing(pol, big, static_cast<int>(at));
    check_lcopies(pol, big);
  }
  CHECK(lives == 0);
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
    where = "ranges more fallback n=" + std::to_string(n);
    check_fallback(recs(n, 3, 100));
  }
}

} // namespace algos_test
