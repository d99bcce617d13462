/* Tests of <adapt/stl.hpp>: every algorithm against std on several sizes,
 * element types, function kinds, worker counts, window modes, splitters and
 * schedulers; determinism; element copies; exceptions (first, middle, last
 * element; caller and workers; later calls from other threads);
 * cancellation promptness; the cases of test_stl_use.cpp. The closing line says passed or FAILED; the exit
 * status is non-zero on failure. ADAPT_TEST_VARIANT (set by make test-run)
 * scales the largest size down under the sanitizers. */
#include <adapt/stl.hpp>

#include "stl_test_util.h"
#include "test_stl_use.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace stl_test;

/* Under ThreadSanitizer the runs on 1 and 3 workers are left out: nothing
 * runs concurrently on one, and 2 and 8 workers hold the races (one thief,
 * several); the release and asan variants check the results on every count. */
bool tsan_skips(int workers) { return (workers == 1 || workers == 3) && variant("tsan"); }

/* Two random sizes per run (below 70000), from TEST_STL_SEED if set, else
 * a random seed; main prints it to repeat a failing run. */
unsigned seed_value() {
  static const unsigned seed = [] {
    const char *e = std::getenv("TEST_STL_SEED");
    return e && *e ? static_cast<unsigned>(std::strtoul(e, nullptr, 10)) : std::random_device{}();
  }();
  return seed;
}

/* The sizes every algorithm runs on; the largest one last. */
std::vector<std::size_t> sizes() {
  static const std::vector<std::size_t> v = [] {
    std::size_t big = sanitized() ? 30001 : 300001;
    std::mt19937 g(seed_value());
    std::size_t r1 = 2 + g() % 20000, r2 = 20000 + g() % 50000;
    if (sanitized()) r2 = r2 % 29000;
    return std::vector<std::size_t>{0, 1, 7, 1000, 2049, 5003, r1, r2, big};
  }();
  return v;
}

std::vector<int> ints(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<int> v(n);
  for (auto &x : v) x = static_cast<int>(g() % 1000) - 500;
  return v;
}
std::vector<double> doubles(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto &x : v) x = d(g) * std::pow(10.0, d(g) * 8);
  return v;
}
std::vector<std::string> strings(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<std::string> v(n);
  for (auto &s : v) s = std::string(1 + g() % 3, static_cast<char>('a' + g() % 26));
  return v;
}

/* The policies every algorithm runs under. */
std::vector<std::pair<const char *, adapt::policy>> policies(std::size_t n = 1000) {
  if (n != 1000 && n != sizes().back()) return {{"par", adapt::par}};
  return {{"par", adapt::par},
          {"none", adapt::par.window(adapt::window::none)},
          {"static", adapt::par.window(adapt::window::static_, 4096)},
          {"sliding-local",
           adapt::par.window(adapt::window::sliding, 3000).splitter(adapt::splitter::local)},
          {"sliding-distant",
           adapt::par.window(adapt::window::sliding, 3000).splitter(adapt::splitter::distant)},
          {"sliding-balanced",
           adapt::par.window(adapt::window::sliding).splitter(adapt::splitter::balanced)},
          {"grain7", adapt::par.grain(7)}};
}
const adapt::sched all_scheds[] = {
    adapt::sched::default_, adapt::sched::adaptive, adapt::sched::loopframe,
    adapt::sched::dac,      adapt::sched::hybrid,   adapt::sched::lazy_df,
    adapt::sched::lazy_df2, adapt::sched::lazy_bf,  adapt::sched::static_};

struct boom : std::runtime_error {
  std::size_t at;
  explicit boom(std::size_t i) : std::runtime_error("boom"), at(i) {}
};

/* The element functions on ints below are a few named types, each shared by
 * every case that calls an algorithm on the same iterators: a lambda is a
 * type of its own, and each one would instantiate the algorithm (its
 * kernels, windows and schedulers) once more (test compile time). */

/* Unary map: mul * i + add; throws boom when i is `at` (SIZE_MAX: never;
 * the exception tests run it on 0..n-1). */
struct int_map {
  int mul, add;
  std::size_t at = SIZE_MAX;
  int operator()(int i) const {
    if (at != SIZE_MAX && static_cast<std::size_t>(i) == at) throw boom(at);
    return mul * i + add;
  }
};
const int_map twice{2, 0}, add3{1, 3};
int_map throw_at(std::size_t at) { return {1, 0, at}; }

/* Binary op: x + y, x - y or x * y; throws boom when x is `at` (as
 * int_map). */
struct int_op {
  char op;
  std::size_t at = SIZE_MAX;
  int operator()(int x, int y) const {
    if (at != SIZE_MAX && static_cast<std::size_t>(x) == at) throw boom(at);
    return op == '+' ? x + y : op == '-' ? x - y : x * y;
  }
};

/* In-place update: v += k, or v = k (set). */
struct int_update {
  bool set;
  int k;
  void operator()(int &v) const { v = set ? k : v + k; }
};
int_update add_to(int k) { return {false, k}; }
int_update set_to(int k) { return {true, k}; }

/* Predicate: v < k, v > k, v == k, v odd, always, never; or throws boom
 * when v is k (else false). */
struct int_pred {
  enum kind { lt, gt, eq, odd, always, never, throws_at } op;
  int k;
  bool operator()(int v) const {
    switch (op) {
    case lt: return v < k;
    case gt: return v > k;
    case eq: return v == k;
    case odd: return v % 2 != 0;
    case always: return true;
    case never: return false;
    case throws_at:
      if (v == k) throw boom(static_cast<std::size_t>(k));
      return false;
    }
    return false;
  }
};
int_pred lt(int k) { return {int_pred::lt, k}; }
int_pred gt(int k) { return {int_pred::gt, k}; }
int_pred eq(int k) { return {int_pred::eq, k}; }

/* Predicate on strings: shorter than k, first character below c, equal to
 * word; or throws boom at the element of index at in base[] (else true). */
struct str_pred {
  enum kind { shorter, first_below, equals, throws_at } op;
  std::size_t k;
  const char *word = nullptr;
  const std::string *base = nullptr;
  bool operator()(const std::string &t) const {
    switch (op) {
    case shorter: return t.size() < k;
    case first_below: return t[0] < static_cast<char>(k);
    case equals: return t == word;
    case throws_at:
      if (static_cast<std::size_t>(&t - base) == k) throw boom(k);
      return true;
    }
    return false;
  }
};

/* The comparator on ints of test_sort (desc: x > y) and of the exception
 * tests (x < y): throws when either operand is `at` (SIZE_MAX: never) or
 * when the shared count of comparisons reaches `k` (SIZE_MAX: never); one
 * type for both kinds of throwing sort and the descending one. */
struct throwing_less {
  std::size_t at, k;
  std::atomic<std::size_t> *ncmp;
  bool desc = false;
  bool operator()(int x, int y) const {
    if (at != SIZE_MAX && (static_cast<std::size_t>(x) == at || static_cast<std::size_t>(y) == at))
      throw boom(at);
    /* the count only where it is asked for (ncmp): no shared atomic per
     * comparison in the sorts that throw at an element */
    if (ncmp && ncmp->fetch_add(1, std::memory_order_relaxed) == k) throw boom(k);
    return desc ? x > y : x < y;
  }
};

/* Generator: the next value of a shared counter; throws boom when it is
 * `at` (SIZE_MAX: never). */
struct counter_gen {
  std::atomic<int> *next;
  std::size_t at = SIZE_MAX;
  int operator()() const {
    int i = next->fetch_add(1);
    if (at != SIZE_MAX && static_cast<std::size_t>(i) == at) throw boom(at);
    return i;
  }
};

/* Reduction on longs: x + y; throws boom when either operand is `at`
 * (SIZE_MAX: never). */
struct long_add {
  std::size_t at = SIZE_MAX;
  long operator()(long x, long y) const {
    if (at != SIZE_MAX && (static_cast<std::size_t>(x) == at || static_cast<std::size_t>(y) == at))
      throw boom(at);
    return x + y;
  }
};

/* Map on doubles: x * x, or x itself. */
struct dbl_map {
  bool square;
  double operator()(double x) const { return square ? x * x : x; }
};

/* Results of the deterministic algorithms on doubles, keyed by case: equal
 * bits for every worker count and policy. */
std::map<std::string, std::vector<double>> det_results;
void check_det(const std::string &key, const std::vector<double> &r) {
  auto it = det_results.find(key);
  if (it == det_results.end()) {
    det_results[key] = r;
    return;
  }
  CHECK(it->second.size() == r.size() &&
        (r.empty() || std::memcmp(it->second.data(), r.data(), r.size() * sizeof(double)) == 0));
}
bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1 + std::fabs(b)) * 1e3; }

/* A move-only element. */
struct mo {
  std::unique_ptr<int> p;
  explicit mo(int v = 0) : p(new int(v)) {}
};

/* adapt::fill of v with `value`, then adapt::generate from a shared
 * counter: each of 0..n-1 once (v ends sorted). */
void check_fill_generate(const adapt::policy &pol, std::vector<int> &v, int value) {
  adapt::fill(pol, v.begin(), v.end(), value);
  CHECK(std::count(v.begin(), v.end(), value) == static_cast<long>(v.size()));
  std::atomic<int> next{0};
  adapt::generate(pol, v.begin(), v.end(), counter_gen{&next});
  std::sort(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); i++) CHECK_ONCE(v[i] == static_cast<int>(i));
}

void test_maps() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 1), b = ints(n, 2);
    for (auto &[pname, pol] : policies(n)) {
      where = std::string("maps n=") + std::to_string(n) + " " + pname;
      auto x = a, y = a;
      adapt::for_each(pol, x.begin(), x.end(), add_to(5));
      std::for_each(y.begin(), y.end(), [](int &v) { v += 5; });
      CHECK(x == y);
      std::vector<int> o(n), r(n);
      CHECK(adapt::transform(pol, a.begin(), a.end(), o.begin(), twice) == o.end());
      std::transform(a.begin(), a.end(), r.begin(), twice);
      CHECK(o == r);
      adapt::transform(pol, a.begin(), a.end(), b.begin(), o.begin(), int_op{'-'});
      std::transform(a.begin(), a.end(), b.begin(), r.begin(), std::minus<>());
      CHECK(o == r);
      check_fill_generate(pol, o, 42);
    }
    where = "maps-nopolicy n=" + std::to_string(n);
    auto x = a;
    auto f = adapt::for_each(x.begin(), x.end(), add_to(3));
    (void)f;
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(x[i] == a[i] + 3);
    x = a;
    CHECK(adapt::for_each_n(x.begin(), n / 2, set_to(0)) == x.begin() + n / 2);
    CHECK(std::count(x.begin(), x.begin() + n / 2, 0) == static_cast<long>(n / 2));
    CHECK(std::equal(x.begin() + n / 2, x.end(), a.begin() + n / 2));
    std::vector<int> o(n);
    adapt::transform(a.begin(), a.end(), o.begin(), add3);
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(o[i] == a[i] + 3);
    adapt::transform(a.begin(), a.end(), a.begin(), o.begin(), int_op{'+'});
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(o[i] == 2 * a[i]);
    auto s = strings(n, 3);
    std::vector<std::string> so(n), sr(n);
    adapt::transform(s.begin(), s.end(), so.begin(), [](const std::string &t) { return t + "!"; });
    std::transform(s.begin(), s.end(), sr.begin(), [](const std::string &t) { return t + "!"; });
    CHECK(so == sr);
    std::vector<mo> m(n);
    adapt::for_each(m.begin(), m.end(), [](mo &e) { *e.p = 7; });
    CHECK(std::all_of(m.begin(), m.end(), [](const mo &e) { return *e.p == 7; }));
    std::vector<mo> m2(n);
    adapt::transform(m.begin(), m.end(), m2.begin(), [](mo &e) { return mo(*e.p + 1); });
    CHECK(std::all_of(m2.begin(), m2.end(), [](const mo &e) { return *e.p == 8; }));
    std::list<int> l(a.begin(), a.end());
    adapt::for_each(l.begin(), l.end(), [](int &v) { v *= 2; });
    CHECK(std::equal(l.begin(), l.end(), o.begin()));
  }
  for (adapt::sched sc : all_scheds) {
    std::size_t n = sizes().back();
    where = std::string("maps sched=") + adapt_sched_name(static_cast<adapt_sched>(sc));
    auto a = ints(n, 4);
    std::vector<int> o(n);
    adapt::transform(adapt::par.sched(sc), a.begin(), a.end(), o.begin(), twice);
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(o[i] == 2 * a[i]);
    auto pol = adapt::par.sched(sc);
    auto x = a;
    adapt::for_each(pol, x.begin(), x.end(), add_to(-1));
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(x[i] == a[i] - 1);
    CHECK(adapt::for_each_n(pol, x.begin(), n / 2, set_to(9)) == x.begin() + n / 2);
    CHECK(std::count(x.begin(), x.end(), 9) >= static_cast<long>(n / 2));
    check_fill_generate(pol, x, 4);
    adapt::transform(pol, a.begin(), a.end(), x.begin(), o.begin(), int_op{'+'});
    for (std::size_t i = 0; i < n; i++) CHECK_ONCE(o[i] == a[i] + static_cast<int>(i));
    CHECK(adapt::any_of(pol, a.begin(), a.end(), eq(1000)) == false);
    CHECK(adapt::all_of(pol, a.begin(), a.end(), lt(1000)));
    CHECK(adapt::none_of(pol, a.begin(), a.end(), gt(999)));
    CHECK(adapt::find(adapt::par.sched(sc), a.begin(), a.end(), 1000) == a.end());
    a[n / 3] = 1000;
    CHECK(adapt::find_if(pol, a.begin(), a.end(), gt(999)) == a.begin() + n / 3);
    CHECK(adapt::any_of(pol, a.begin(), a.end(), eq(1000)));
    CHECK(adapt::find(adapt::par.sched(sc).grain(16), a.begin(), a.end(), 1000) ==
          a.begin() + n / 3);
  }
  where = "maps sched+window";
  std::vector<int> v(100);
  bool threw = false;
  try {
    adapt::for_each(adapt::par.sched(adapt::sched::dac).window(adapt::window::sliding), v.begin(),
                    v.end(), add_to(0));
  } catch (const adapt::error &e) {
    threw = e.code().value() == ENOTSUP;
  }
  CHECK(threw);
}

double det_reduce_ref(const std::vector<double> &a, std::size_t b, double init);

void test_reduce() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 5), b = ints(n, 6);
    auto d = doubles(n, 7);
    auto s = strings(std::min<std::size_t>(n, 2049), 8); /* accumulate copies: n^2 */
    for (auto &[pname, pol] : policies(n)) {
      where = std::string("reduce n=") + std::to_string(n) + " " + pname;
      CHECK(adapt::reduce(pol, a.begin(), a.end()) == std::reduce(a.begin(), a.end()));
      CHECK(adapt::reduce(pol, a.begin(), a.end(), 10L) == std::reduce(a.begin(), a.end(), 10L));
      auto mx = [](int x, int y) { return std::max(x, y); };
      CHECK(adapt::reduce(pol, a.begin(), a.end(), -1000, mx) ==
            std::reduce(a.begin(), a.end(), -1000, mx));
      double rd = adapt::reduce(pol, d.begin(), d.end(), 0.5);
      CHECK(close(rd, std::accumulate(d.begin(), d.end(), 0.5)));
      if (n >= 2) { /* the documented tree, whatever the count of blocks */
        double want = det_reduce_ref(d, adapt::detail::reduce_block(n), 0.5);
        CHECK(std::memcmp(&rd, &want, sizeof rd) == 0);
      }
      double td =
          adapt::transform_reduce(pol, d.begin(), d.end(), 0.0, std::plus<>(), dbl_map{true});
      double tb = adapt::transform_reduce(pol, d.begin(), d.end(), d.begin(), 1.0);
      CHECK(close(td + 1.0, tb));
      check_det("reduce" + std::to_string(n), {rd, td, tb});
      CHECK(adapt::transform_reduce(pol, a.begin(), a.end(), b.begin(), 3L) ==
            std::transform_reduce(a.begin(), a.end(), b.begin(), 3L));
      /* Sequence order kept: a non-commutative (associative) operation. */
      CHECK(adapt::reduce(pol, s.begin(), s.end(), std::string("<")) ==
            std::accumulate(s.begin(), s.end(), std::string("<")));
      CHECK(adapt::transform_reduce(pol, s.begin(), s.end(), std::size_t{0}, std::plus<>(),
                                    [](const std::string &t) { return t.size(); }) ==
            std::transform_reduce(s.begin(), s.end(), std::size_t{0}, std::plus<>(),
                                  [](const std::string &t) { return t.size(); }));
    }
    where = "reduce-nopolicy n=" + std::to_string(n);
    CHECK(adapt::reduce(a.begin(), a.end()) == std::reduce(a.begin(), a.end()));
    CHECK(adapt::reduce(a.begin(), a.end(), 1L) == std::reduce(a.begin(), a.end(), 1L));
    CHECK(adapt::reduce(a.begin(), a.end(), 1L, long_add{}) == std::reduce(a.begin(), a.end(), 1L));
    CHECK(adapt::transform_reduce(a.begin(), a.end(), 0L, std::plus<>(), twice) ==
          2 * std::reduce(a.begin(), a.end(), 0L));
    CHECK(adapt::transform_reduce(a.begin(), a.end(), b.begin(), 0L, std::plus<>(), int_op{'*'}) ==
          std::transform_reduce(a.begin(), a.end(), b.begin(), 0L));
    CHECK(adapt::transform_reduce(a.begin(), a.end(), b.begin(), 0L) ==
          std::transform_reduce(a.begin(), a.end(), b.begin(), 0L));
    std::list<int> l(a.begin(), a.end());
    CHECK(adapt::reduce(l.begin(), l.end(), 0L) == std::reduce(a.begin(), a.end(), 0L));
  }
}

/* reduce's documented expression (docs/stl.md), computed sequentially:
 * blocks of size b (the last one takes the remainder), block k's value is
 * std::reduce from (x_lo + x_lo+1), block values merge along aligned
 * power-of-two groups, the groups left over fold left to right, init last. */
double det_reduce_ref(const std::vector<double> &a, std::size_t b, double init) {
  std::size_t n = a.size(), nb = n / b ? n / b : 1;
  struct group {
    std::size_t lo, hi;
    double v;
  };
  std::vector<group> st;
  for (std::size_t k = 0; k < nb; k++) {
    std::size_t lo = k * b, hi = k + 1 == nb ? n : lo + b;
    st.push_back({k, k + 1, std::reduce(a.begin() + lo + 2, a.begin() + hi, a[lo] + a[lo + 1])});
    while (st.size() >= 2) {
      group &l = st[st.size() - 2], &r = st.back();
      std::size_t w = l.hi - l.lo;
      if (r.hi - r.lo != w || l.lo % (2 * w) != 0) break;
      l.v = l.v + r.v;
      l.hi = r.hi;
      st.pop_back();
    }
  }
  double acc = st[0].v;
  for (std::size_t i = 1; i < st.size(); i++) acc = acc + st[i].v;
  return init + acc;
}

/* Long sequences: reduce's block grows with n (detail::reduce_block), and
 * the result is still the documented expression, bit for bit, over the
 * longer blocks, at every worker count and window mode. */
void test_reduce_long() {
  using adapt::detail::reduce_block;
  const std::size_t B = ADAPT_STL_BLOCK, M = ADAPT_STL_REDUCE_BLOCKS_MIN;
  where = "reduce_block";
  CHECK(reduce_block(0) == B && reduce_block(1000) == B);
  CHECK(reduce_block(2 * B * M - 1) == B);
  CHECK(reduce_block(2 * B * M) == 2 * B);
  CHECK(reduce_block(4 * B * M) == 4 * B);
  CHECK(reduce_block(std::size_t(1) << 40) == ADAPT_STL_REDUCE_BLOCK_MAX);
  const std::size_t n = 4 * B * M + 12345; /* blocks of 16384 by default */
  CHECK(reduce_block(n) == 4 * B);
  auto d = doubles(n, 31);
  double want = det_reduce_ref(d, reduce_block(n), 0.25);
  double want_t = det_reduce_ref(d, B, 0.25); /* a sanity check of the test */
  CHECK(std::memcmp(&want, &want_t, sizeof want) != 0);
  const std::pair<const char *, adapt::policy> pols[] = {
      {"par", adapt::par},
      {"sliding", adapt::par.window(adapt::window::sliding, 1 << 18)},
      {"grain", adapt::par.grain(3 * B)}};
  for (auto &[pname, pol] : pols) {
    where = std::string("reduce_long ") + pname;
    double got = adapt::reduce(pol, d.begin(), d.end(), 0.25);
    CHECK(std::memcmp(&got, &want, sizeof got) == 0);
    double got_t =
        adapt::transform_reduce(pol, d.begin(), d.end(), 0.25, std::plus<>(), dbl_map{false});
    CHECK(std::memcmp(&got_t, &want, sizeof got_t) == 0);
  }
}

/* adapt::count on the types it compares 16 bytes at a time (4- and 8-byte
 * integers and floating point) against std::count: values repeated every
 * few elements, NaN (equals nothing, itself included), -0.0 against 0.0,
 * every start offset and length modulo the vectors' 8 elements, and a
 * deque (random access, not contiguous). */
template <class V>
void check_count_lanes(const adapt::policy &pol, std::size_t n) {
  std::vector<V> a(n);
  for (std::size_t i = 0; i < n; i++) a[i] = static_cast<V>((i * 7) % 5);
  std::vector<V> probes = {V(0), V(1), V(4), V(9)};
  if constexpr (std::is_floating_point_v<V>) {
    for (std::size_t i = 3; i < n; i += 11) a[i] = std::numeric_limits<V>::quiet_NaN();
    for (std::size_t i = 5; i < n; i += 13) a[i] = V(-0.0);
    probes.push_back(std::numeric_limits<V>::quiet_NaN());
    probes.push_back(V(-0.0));
  }
  for (V v : probes) {
    CHECK(adapt::count(pol, a.begin(), a.end(), v) == std::count(a.begin(), a.end(), v));
    if (n > 5003) continue; /* the offsets on the smaller sizes (test time) */
    for (std::size_t off = 1; off < 9 && off < n; off++) {
      CHECK(adapt::count(pol, a.begin() + off, a.end(), v) ==
            std::count(a.begin() + off, a.end(), v));
      CHECK(adapt::count(pol, a.begin(), a.end() - off, v) ==
            std::count(a.begin(), a.end() - off, v));
    }
  }
  if (n > 5003) return;
  std::deque<V> d(a.begin(), a.end());
  CHECK(adapt::count(pol, d.begin(), d.end(), V(1)) == std::count(d.begin(), d.end(), V(1)));
}

void test_search() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 9);
    auto s = strings(n, 10);
    std::vector<std::size_t> pos = {0, n / 2, n ? n - 1 : 0};
    for (auto &[pname, pol] : policies(n)) {
      where = std::string("search n=") + std::to_string(n) + " " + pname;
      for (std::size_t p : pos) {
        auto x = a;
        if (n) x[p] = 777;
        if (n) x[n - 1 - (n - 1 - p) / 2] = 777;
        CHECK(adapt::find(pol, x.begin(), x.end(), 777) == std::find(x.begin(), x.end(), 777));
        auto big = gt(600);
        CHECK(adapt::find_if(pol, x.begin(), x.end(), big) ==
              std::find_if(x.begin(), x.end(), big));
        CHECK(adapt::any_of(pol, x.begin(), x.end(), big) == std::any_of(x.begin(), x.end(), big));
        CHECK(adapt::none_of(pol, x.begin(), x.end(), big) ==
              std::none_of(x.begin(), x.end(), big));
        CHECK(adapt::all_of(pol, x.begin(), x.end(), lt(700)) ==
              std::all_of(x.begin(), x.end(), lt(700)));
      }
      CHECK(adapt::count(pol, a.begin(), a.end(), 3) == std::count(a.begin(), a.end(), 3));
      check_count_lanes<double>(pol, n);
      check_count_lanes<float>(pol, n);
      check_count_lanes<std::int64_t>(pol, n);
      check_count_lanes<unsigned>(pol, n);
      int_pred odd{int_pred::odd, 0};
      CHECK(adapt::count_if(pol, a.begin(), a.end(), odd) ==
            std::count_if(a.begin(), a.end(), odd));
      CHECK(adapt::count(pol, s.begin(), s.end(), std::string("aa")) ==
            std::count(s.begin(), s.end(), std::string("aa")));
    }
    where = "search-nopolicy n=" + std::to_string(n);
    CHECK(adapt::find(a.begin(), a.end(), 499) == std::find(a.begin(), a.end(), 499));
    CHECK(adapt::find_if(s.begin(), s.end(), str_pred{str_pred::equals, 0, "zzz"}) ==
          std::find(s.begin(), s.end(), "zzz"));
    CHECK(adapt::count_if(a.begin(), a.end(), lt(0)) == std::count_if(a.begin(), a.end(), lt(0)));
    CHECK(adapt::count(a.begin(), a.end(), 0) == std::count(a.begin(), a.end(), 0));
    CHECK(adapt::any_of(a.begin(), a.end(), eq(1)) == std::any_of(a.begin(), a.end(), eq(1)));
    CHECK(adapt::all_of(a.begin(), a.end(), gt(-501)));
    CHECK(adapt::none_of(a.begin(), a.end(), gt(500)));
    std::vector<mo> m(n);
    if (n) *m[n / 2].p = 5;
    CHECK(adapt::find_if(m.begin(), m.end(), [](const mo &e) { return *e.p == 5; }) ==
          (n ? m.begin() + n / 2 : m.end()));
    CHECK(adapt::count_if(m.begin(), m.end(), [](const mo &e) { return *e.p == 0; }) ==
          static_cast<long>(n ? n - 1 : 0));
  }
}

bool positive(double x) { return x > 0; }

/* adapt::copy_if against std::copy_if on outputs first filled with
 * `fill`: the same end, the same outputs. `in` is read only; it is taken
 * by non-const reference so that the calls here share their instantiation
 * with the other copy_if calls on the same vectors (a const_iterator is
 * another type: the algorithm compiled twice). */
template <class T, class Pred>
void check_copy_if(const adapt::policy &pol, std::vector<T> &in, Pred pred, const T &fill) {
  std::vector<T> o(in.size(), fill), r(in.size(), fill);
  auto e = adapt::copy_if(pol, in.begin(), in.end(), o.begin(), pred);
  auto f = std::copy_if(in.begin(), in.end(), r.begin(), pred);
  CHECK(e - o.begin() == f - r.begin());
  CHECK(o == r);
}

void test_copy_if() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 11);
    auto s = strings(n, 12);
    auto d = doubles(n, 19);
    auto pols = policies(n);
    /* chunks longer than a segment (ADAPT_STL_COPY_SEGMENT) */
    pols.push_back({"grain20000", adapt::par.grain(20000)});
    for (auto &[pname, pol] : pols) {
      where = std::string("copy_if n=") + std::to_string(n) + " " + pname;
      check_copy_if(pol, d, positive, -1.0);
      check_copy_if(pol, s, str_pred{str_pred::shorter, 2}, std::string());
      /* all and none selected */
      std::vector<double> od(n, -1.0);
      CHECK(adapt::copy_if(pol, a.begin(), a.end(), od.begin(), int_pred{int_pred::never, 0}) ==
            od.begin());
      std::vector<int> all(n);
      CHECK(adapt::copy_if(pol, a.begin(), a.end(), all.begin(), int_pred{int_pred::always, 0}) ==
            all.end());
      CHECK(all == a);
    }
    for (auto &[pname, pol] : policies(n)) {
      where = std::string("copy_if n=") + std::to_string(n) + " " + pname;
      check_copy_if(pol, a, gt(0), -1);
      check_copy_if(pol, s, str_pred{str_pred::first_below, 'm'}, std::string());
    }
  }
}

/* The deterministic scans' documented expression (docs/stl.md), computed
 * sequentially: block k's sum s_k is its left fold, P_{k+1} = P_k + s_k
 * (P_1 = s_0 without init), and block k's outputs chain from P_k. */
std::vector<double> det_scan_ref(const std::vector<double> &a, bool incl, const double *init) {
  std::size_t n = a.size(), nb = n / ADAPT_STL_BLOCK ? n / ADAPT_STL_BLOCK : 1;
  std::vector<double> r(n);
  bool have = init != nullptr;
  double p = have ? *init : 0;
  for (std::size_t k = 0; k < nb && n >= 2; k++) {
    std::size_t lo = k * ADAPT_STL_BLOCK, hi = k + 1 == nb ? n : lo + ADAPT_STL_BLOCK;
    double s = a[lo] + a[lo + 1];
    for (std::size_t i = lo + 2; i < hi; i++) s = s + a[i];
    double c = have ? p : a[lo];
    for (std::size_t i = lo; i < hi; i++) {
      if (!incl) {
        r[i] = c;
        c = c + a[i];
      } else if (have || i > lo) {
        c = c + a[i];
        r[i] = c;
      } else {
        r[i] = c;
      }
    }
    p = have ? p + s : s;
    have = true;
  }
  return r;
}

/* The scans of a (read only) against std's, out of place and in place. a
 * is taken by non-const reference: its iterators are then of the in-place
 * calls' type, and each scan is instantiated once per T, not twice (with
 * a const_iterator too: test compile time). */
template <class T, class Op>
void scan_case(const std::string &name, const adapt::policy &pol, std::vector<T> &a, Op op, T init,
               bool exact) {
  std::size_t n = a.size();
  std::vector<T> o(n), r(n);
  auto same = [&](const std::vector<T> &x, const std::vector<T> &y) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!exact) {
        for (std::size_t i = 0; i < x.size(); i++)
          if (!close(x[i], y[i])) return false;
        return true;
      }
    }
    return x == y;
  };
  CHECK(adapt::inclusive_scan(pol, a.begin(), a.end(), o.begin(), op) == o.end());
  std::inclusive_scan(a.begin(), a.end(), r.begin(), op);
  CHECK(same(o, r));
  std::vector<T> keep = o;
  adapt::inclusive_scan(pol, a.begin(), a.end(), o.begin(), op, init);
  std::inclusive_scan(a.begin(), a.end(), r.begin(), op, init);
  CHECK(same(o, r));
  adapt::exclusive_scan(pol, a.begin(), a.end(), o.begin(), init, op);
  std::exclusive_scan(a.begin(), a.end(), r.begin(), init, op);
  CHECK(same(o, r));
  std::vector<T> in = a; /* in place */
  adapt::exclusive_scan(pol, in.begin(), in.end(), in.begin(), init, op);
  CHECK(same(in, r));
  in = a;
  adapt::inclusive_scan(pol, in.begin(), in.end(), in.begin(), op);
  CHECK(same(in, keep));
  if constexpr (std::is_same_v<T, double>) {
    if (pol.is_deterministic() && n >= 2) {
      CHECK(keep == det_scan_ref(a, true, nullptr));
      CHECK(o == det_scan_ref(a, false, &init));
      std::vector<double> w(n);
      adapt::inclusive_scan(pol, a.begin(), a.end(), w.begin(), op, init);
      CHECK(w == det_scan_ref(a, true, &init));
    }
    if (pol.is_deterministic()) {
      check_det(name + "-incl", keep);
      check_det(name + "-excl", o);
    }
  }
}

void test_scans() {
  for (std::size_t n : sizes()) {
    auto a = ints(n, 13);
    std::vector<long> al(a.begin(), a.end());
    auto d = doubles(n, 14);
    /* Prefixes of strings grow as n^2: keep them short. */
    auto s = strings(std::min<std::size_t>(n, sanitized() ? 300 : 1000), 15);
    for (auto &[pname, pol] : policies(n)) {
      where = std::string("scan n=") + std::to_string(n) + " " + pname;
      scan_case("scan-l" + std::to_string(n), pol, al, std::plus<>(), 7L, true);
      scan_case("scan-d" + std::to_string(n), pol, d, std::plus<>(), 0.25, false);
      scan_case("scan-s" + std::to_string(n), pol, s, std::plus<>(), std::string("#"), true);
      scan_case("scan-l" + std::to_string(n), pol.deterministic(false), al, std::plus<>(), 7L,
                true);
      scan_case("scan-d" + std::to_string(n), pol.deterministic(false), d, std::plus<>(), 0.25,
                false);
    }
    where = "scan-nopolicy n=" + std::to_string(n);
    std::vector<long> o(n), r(n);
    adapt::inclusive_scan(al.begin(), al.end(), o.begin());
    std::inclusive_scan(al.begin(), al.end(), r.begin());
    CHECK(o == r);
    adapt::inclusive_scan(al.begin(), al.end(), o.begin(), std::plus<>(), 1L);
    std::inclusive_scan(al.begin(), al.end(), r.begin(), std::plus<>(), 1L);
    CHECK(o == r);
    adapt::exclusive_scan(al.begin(), al.end(), o.begin(), 2L);
    std::exclusive_scan(al.begin(), al.end(), r.begin(), 2L);
    CHECK(o == r);
    adapt::exclusive_scan(al.begin(), al.end(), o.begin(), 2L, std::plus<>());
    CHECK(o == r);
  }
  /* Scans from four threads at once (this one and three more): one holds
   * the workers, the others run alone, spawned output tasks included. */
  const std::size_t n = sanitized() ? 30001 : 300001;
  auto a = ints(n, 16);
  std::vector<long> al(a.begin(), a.end()), ri(n), rx(n);
  std::inclusive_scan(al.begin(), al.end(), ri.begin());
  std::exclusive_scan(al.begin(), al.end(), rx.begin(), 3L);
  std::atomic<int> ok{0};
  auto scans = [&] {
    std::vector<long> o(n);
    for (int k = 0; k < 4; k++) {
      adapt::inclusive_scan(al.begin(), al.end(), o.begin());
      if (o == ri) ok++;
      adapt::exclusive_scan(al.begin(), al.end(), o.begin(), 3L);
      if (o == rx) ok++;
    }
  };
  std::vector<std::thread> th;
  for (int t = 0; t < 3; t++) th.emplace_back(scans);
  scans();
  for (auto &t : th) t.join();
  where = "scan from 4 threads";
  CHECK(ok.load() == 32);
}

void test_sort() {
  std::vector<std::size_t> ns = sizes();
  ns.push_back(sanitized() ? 40000 : 200000);
  for (std::size_t n : ns) {
    where = "sort n=" + std::to_string(n);
    auto a = ints(n, 16);
    auto x = a, y = a;
    adapt::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    CHECK(x == y);
    x = a;
    adapt::sort(adapt::par, x.begin(), x.end(), throwing_less{SIZE_MAX, SIZE_MAX, nullptr, true});
    std::sort(y.begin(), y.end(), std::greater<>());
    CHECK(x == y);
    auto d = doubles(n, 17), e = d;
    adapt::sort(adapt::par, d.begin(), d.end());
    std::sort(e.begin(), e.end());
    CHECK(d == e);
    /* inputs that stress the quicksort's pivots: all equal, sorted,
     * reversed, two values, organ pipe, sawtooth */
    for (int shape = 0; shape < 6; shape++) {
      std::vector<int> u(n);
      for (std::size_t i = 0; i < n; i++) {
        int k = static_cast<int>(i);
        u[i] = shape == 0   ? 7
               : shape == 1 ? k
               : shape == 2 ? -k
               : shape == 3 ? k % 2
               : shape == 4 ? std::min(k, static_cast<int>(n) - k)
                            : k % 1000;
      }
      auto w = u;
      adapt::sort(u.begin(), u.end());
      std::sort(w.begin(), w.end());
      CHECK(u == w);
    }
    auto s = strings(n, 18), t = s;
    adapt::sort(s.begin(), s.end());
    std::sort(t.begin(), t.end());
    CHECK(s == t);
    /* stable: pairs compared on the key only */
    std::vector<std::pair<int, std::size_t>> p(n);
    for (std::size_t i = 0; i < n; i++) p[i] = {a[i] % 10, i};
    auto q = p;
    auto key = [](const std::pair<int, std::size_t> &u, const std::pair<int, std::size_t> &v) {
      return u.first < v.first;
    };
    adapt::stable_sort(p.begin(), p.end(), key);
    std::stable_sort(q.begin(), q.end(), key);
    CHECK(p == q);
    auto z = a;
    adapt::stable_sort(adapt::par, z.begin(), z.end());
    CHECK(z == std::vector<int>(y.rbegin(), y.rend()));
    std::vector<mo> m;
    for (int v : a) m.emplace_back(v);
    adapt::sort(m.begin(), m.end(), [](const mo &u, const mo &v) { return *u.p < *v.p; });
    bool ok = true;
    for (std::size_t i = 0; i < n; i++) ok = ok && *m[i].p == y[n - 1 - i];
    CHECK(ok);
    /* move-only, stable, a functor comparator: equal keys keep their order */
    std::vector<mo> ms;
    for (std::size_t i = 0; i < n; i++) ms.emplace_back(static_cast<int>(i));
    struct by_tens {
      bool operator()(const mo &u, const mo &v) const { return *u.p / 10 > *v.p / 10; }
    };
    adapt::stable_sort(ms.begin(), ms.end(), by_tens());
    std::vector<int> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [](int u, int v) { return u / 10 > v / 10; });
    ok = true;
    for (std::size_t i = 0; i < n; i++) ok = ok && *ms[i].p == want[i];
    CHECK(ok);
    CHECK(adapt::transform_reduce(ms.begin(), ms.end(), 0L, std::plus<>(), [](const mo &e) {
            return static_cast<long>(*e.p);
          }) == static_cast<long>(n) * static_cast<long>(n ? n - 1 : 0) / 2);
  }
}

/* Element copies: never more than std's for the same call. */
void test_copies() {
  std::size_t n = sizes().back();
  std::vector<counted> a(n), o(n);
  for (std::size_t i = 0; i < n; i++) a[i].v = static_cast<int>((i * 7919) % 1000);
  auto measure = [](auto &&f) {
    copies.store(0);
    f();
    return copies.load();
  };
  where = "copies";
  auto inc = [](counted &c) { c.v++; };
  CHECK(measure([&] { adapt::for_each(a.begin(), a.end(), inc); }) ==
        measure([&] { std::for_each(a.begin(), a.end(), inc); }));
  auto tr = [](const counted &c) { return counted(c.v + 1); };
  CHECK(measure([&] { adapt::transform(a.begin(), a.end(), o.begin(), tr); }) ==
        measure([&] { std::transform(a.begin(), a.end(), o.begin(), tr); }));
  auto big = [](const counted &c) { return c.v > 500; };
  CHECK(measure([&] { adapt::copy_if(a.begin(), a.end(), o.begin(), big); }) ==
        measure([&] { std::copy_if(a.begin(), a.end(), o.begin(), big); }));
  auto sum = [](long acc, const counted &c) { return acc + c.v; };
  auto add = [](auto x, auto y) -> long {
    auto val = [](const auto &u) -> long {
      if constexpr (std::is_same_v<std::decay_t<decltype(u)>, counted>)
        return u.v;
      else
        return u;
    };
    return val(x) + val(y);
  };
  (void)sum;
  long r1 = 0, r2 = 0;
  long c1 = measure([&] { r1 = adapt::reduce(a.begin(), a.end(), 0L, add); });
  long c2 = measure([&] { r2 = std::reduce(a.begin(), a.end(), 0L, add); });
  CHECK(r1 == r2);
  CHECK(c1 <= c2);
  CHECK(measure([&] { adapt::count_if(a.begin(), a.end(), big); }) == 0);
  CHECK(measure([&] {
          adapt::find_if(a.begin(), a.end(), [](const counted &c) { return c.v == 999; });
        }) == 0);
  auto addc = [](const counted &x, const counted &y) { return counted(x.v + y.v); };
  CHECK(measure([&] { adapt::inclusive_scan(a.begin(), a.end(), o.begin(), addc); }) <=
        measure([&] { std::inclusive_scan(a.begin(), a.end(), o.begin(), addc); }));
  CHECK(measure([&] { adapt::exclusive_scan(a.begin(), a.end(), o.begin(), counted(1), addc); }) <=
        measure([&] { std::exclusive_scan(a.begin(), a.end(), o.begin(), counted(1), addc); }));
  CHECK(measure([&] {
          adapt::inclusive_scan(adapt::par.deterministic(false), a.begin(), a.end(), o.begin(),
                                addc);
        }) <= measure([&] { std::inclusive_scan(a.begin(), a.end(), o.begin(), addc); }));
  CHECK(measure([&] { adapt::fill(o.begin(), o.end(), counted(3)); }) ==
        measure([&] { std::fill(o.begin(), o.end(), counted(3)); }));
  CHECK(measure([&] { adapt::generate(o.begin(), o.end(), [] { return counted(4); }); }) ==
        measure([&] { std::generate(o.begin(), o.end(), [] { return counted(4); }); }));
  CHECK(measure([&] { adapt::transform(a.begin(), a.end(), a.begin(), o.begin(), addc); }) ==
        measure([&] { std::transform(a.begin(), a.end(), a.begin(), o.begin(), addc); }));
  CHECK(measure([&] { adapt::copy_if(adapt::par.grain(7), a.begin(), a.end(), o.begin(), big); }) ==
        measure([&] { std::copy_if(a.begin(), a.end(), o.begin(), big); }));
  auto lt = [](const counted &x, const counted &y) { return x.v < y.v; };
  auto b = a;
  CHECK(measure([&] { adapt::sort(a.begin(), a.end(), lt); }) ==
        measure([&] { std::sort(b.begin(), b.end(), lt); }));
  CHECK(measure([&] { adapt::stable_sort(a.begin(), a.end(), lt); }) ==
        measure([&] { std::stable_sort(b.begin(), b.end(), lt); }));
}

void test_exceptions() {
  std::size_t n = sizes().back();
  std::vector<int> a(n, 1), o(n);
  std::vector<std::size_t> ats = {0, n / 2, n - 1};
  for (std::size_t at : ats) {
    where = "exceptions at=" + std::to_string(at);
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    int_map thr = throw_at(at);
    CHECK(throws<boom>([&] { adapt::for_each(idx.begin(), idx.end(), thr); }) == 1);
    for (adapt::sched sc : all_scheds)
      CHECK(throws<boom>(
                [&] { adapt::for_each(adapt::par.sched(sc), idx.begin(), idx.end(), thr); }) == 1);
    for (auto &[pname, pol] : policies(n))
      CHECK(throws<boom>([&] { adapt::for_each(pol, idx.begin(), idx.end(), thr); }) == 1);
    CHECK(throws<boom>([&] { adapt::transform(idx.begin(), idx.end(), o.begin(), thr); }) == 1);
    CHECK(throws<boom>([&] {
            adapt::transform_reduce(idx.begin(), idx.end(), 0L, std::plus<>(), thr);
          }) == 1);
    int_pred thp{int_pred::throws_at, static_cast<int>(at)};
    CHECK(throws<boom>([&] { adapt::find_if(idx.begin(), idx.end(), thp); }) == 1);
    CHECK(throws<boom>([&] { adapt::count_if(idx.begin(), idx.end(), thp); }) == 1);
    CHECK(throws<boom>([&] { adapt::copy_if(idx.begin(), idx.end(), o.begin(), thp); }) == 1);
    auto op = [at](int x, int y) { /* wraps instead of overflowing at large n */
                                   if (static_cast<std::size_t>(y) == at) throw boom(at);
                                   return static_cast<int>(static_cast<unsigned>(x) +
                                                           static_cast<unsigned>(y));
    };
    CHECK(throws<boom>([&] { adapt::inclusive_scan(idx.begin(), idx.end(), o.begin(), op); }) ==
          (at == 0 ? 0 : 1));
    /* Every element takes part in some comparison (n >= 2): the sorts throw
     * whatever the order of the input. */
    throwing_less cmp{at, SIZE_MAX, nullptr};
    for (bool reversed : {false, true}) {
      std::vector<int> v(idx.size());
      std::iota(v.begin(), v.end(), 0);
      if (reversed) std::reverse(v.begin(), v.end());
      CHECK(throws<boom>([&] { adapt::sort(v.begin(), v.end(), cmp); }) == 1);
      CHECK(throws<boom>([&] { adapt::stable_sort(v.begin(), v.end(), cmp); }) == 1);
    }
    /* sort: the k-th comparison throws, k = n / 3 (in the first partition,
     * which all workers share) or 3 n (deeper: later partitions, leaves). */
    for (std::size_t k : {n / 3, 3 * n}) {
      std::vector<int> v(idx.size());
      std::iota(v.begin(), v.end(), 0);
      std::shuffle(v.begin(), v.end(), std::mt19937(static_cast<unsigned>(k)));
      std::atomic<std::size_t> ncmp{0};
      throwing_less counting{SIZE_MAX, k, &ncmp};
      CHECK(throws<boom>([&] { adapt::sort(v.begin(), v.end(), counting); }) == 1);
    }
    CHECK(throws<boom>([&] { adapt::for_each_n(idx.begin(), n, thr); }) == 1);
    std::atomic<int> calls{0};
    CHECK(throws<boom>([&] { adapt::generate(o.begin(), o.end(), counter_gen{&calls, at}); }) == 1);
    int_op thr2{'+', at};
    CHECK(throws<boom>(
              [&] { adapt::transform(idx.begin(), idx.end(), a.begin(), o.begin(), thr2); }) == 1);
    CHECK(throws<boom>([&] {
            adapt::transform_reduce(idx.begin(), idx.end(), a.begin(), 0L, std::plus<>(), thr2);
          }) == 1);
    CHECK(throws<boom>([&] { adapt::reduce(idx.begin(), idx.end(), -1L, long_add{at}); }) == 1);
    CHECK(throws<boom>([&] { adapt::any_of(idx.begin(), idx.end(), thp); }) == 1);
    /* exclusive: std never applies op to the last element; adapt may */
    int ex = throws<boom>([&] { adapt::exclusive_scan(idx.begin(), idx.end(), o.begin(), 0, op); });
    CHECK(at == n - 1 ? ex >= 0 : ex == 1);
    std::vector<std::string> ss(n, "s"), so(n);
    str_pred ths{str_pred::throws_at, at, nullptr, ss.data()};
    CHECK(throws<boom>([&] { adapt::copy_if(ss.begin(), ss.end(), so.begin(), ths); }) == 1);
    /* The runtime is usable afterwards, here and from other threads. */
    CHECK(adapt::reduce(a.begin(), a.end()) == static_cast<int>(n));
    std::vector<std::thread> th;
    std::atomic<int> ok{0};
    for (int t = 0; t < 3; t++)
      th.emplace_back([&] {
        std::vector<int> v(n, 2);
        if (adapt::reduce(v.begin(), v.end(), 0L) == 2L * static_cast<long>(n)) ok++;
        /* every element is 2: every call throws */
        if (throws<boom>([&] { adapt::for_each(v.begin(), v.end(), throw_at(2)); }) == 1) ok++;
      });
    for (auto &t : th) t.join();
    CHECK(ok.load() == 6);
  }
  /* From a worker: the first element run by a thread other than the caller
   * throws (slow elements so that workers steal). */
  where = "exceptions on a worker";
  int on_worker = 0;
  for (int round = 0; round < 5; round++) {
    int caller = adapt_worker_id();
    std::atomic<bool> thrown{false};
    std::size_t m = 20000;
    std::vector<double> v(m, 1.0);
    int r = throws<boom>([&] {
      adapt::for_each(adapt::par.grain(16), v.begin(), v.end(), [&](double &x) {
        for (int k = 0; k < 200; k++) x = std::sqrt(x + k);
        if (adapt_worker_id() != caller && !thrown.exchange(true)) throw boom(0);
      });
    });
    CHECK(r == (thrown.load() ? 1 : 0));
    on_worker += r == 1;
    CHECK(adapt::reduce(v.begin(), v.end(), 0.0) > 0);
    /* The kernels that merge partial results: a stolen piece throws. */
    auto slow = [](double x) {
      for (int k = 0; k < 200; k++) x = std::sqrt(x + k);
      return x;
    };
    auto on_thief = [&](double x) {
      x = slow(x);
      if (adapt_worker_id() != caller && !thrown.exchange(true)) throw boom(0);
      return x > 0;
    };
    std::vector<double> out(m);
    auto pol = adapt::par.grain(16);
    thrown = false;
    r = throws<boom>([&] { adapt::copy_if(pol, v.begin(), v.end(), out.begin(), on_thief); });
    CHECK(r == (thrown.load() ? 1 : 0));
    thrown = false;
    r = throws<boom>([&] { adapt::count_if(pol, v.begin(), v.end(), on_thief); });
    CHECK(r == (thrown.load() ? 1 : 0));
    thrown = false;
    r = throws<boom>([&] {
      adapt::transform_reduce(pol, v.begin(), v.end(), 0.0, std::plus<>(),
                              [&](double x) { return on_thief(x) ? x : 0.0; });
    });
    CHECK(r == (thrown.load() ? 1 : 0));
    thrown = false;
    r = throws<boom>([&] {
      adapt::inclusive_scan(pol, v.begin(), v.end(), out.begin(),
                            [&](double x, double y) { return x + (on_thief(y) ? 1.0 : 0.0); });
    });
    CHECK(r == (thrown.load() ? 1 : 0));
    /* and the runtime goes on */
    thrown = true; /* on_thief no longer throws: x > 0 after slow */
    CHECK(adapt::count_if(pol, v.begin(), v.end(), on_thief) == static_cast<long>(m));
  }
  if (adapt_num_workers() > 1 && on_worker == 0)
    std::fprintf(stderr, "test_stl: note: no worker stole in 5 rounds (busy machine?)\n");
}

/* After a throw, at most about one grain per worker still runs. Counted
 * from the cancel (adapt_cancelled() in the element function), not from the
 * throw: between the two the throwing thread unwinds, and on a loaded
 * machine it may be descheduled there while the others go on. */
void test_promptness() {
  where = "promptness";
  std::size_t n = sanitized() ? 50000 : 400000, g = 64;
  std::vector<double> v(n, 1.0);
  std::atomic<std::size_t> after{0};
  int r = throws<boom>([&] {
    adapt::for_each(adapt::par.grain(g), v.begin(), v.end(), [&](double &x) {
      if (adapt_cancelled()) after.fetch_add(1, std::memory_order_relaxed);
      for (int k = 0; k < 50; k++) x = std::sqrt(x + k);
      std::size_t i = static_cast<std::size_t>(&x - v.data());
      if (i == n / 4) throw boom(i);
    });
  });
  CHECK(r == 1);
  std::size_t w = static_cast<std::size_t>(adapt_num_workers());
  CHECK(after.load() <= 2 * g * w + g);
}

/* The cases of test_stl_use.cpp (element functions as users write them,
 * std::vector<bool>, wider accumulators, stable_sort short of memory). */
void test_use() { stl_use::run(adapt_num_workers()); }

void run_all(int workers) {
  run_parts(workers, {{"maps", test_maps},
                      {"reduce", test_reduce},
                      {"reduce_long", test_reduce_long},
                      {"search", test_search},
                      {"copy_if", test_copy_if},
                      {"scans", test_scans},
                      {"sort", test_sort},
                      {"copies", test_copies},
                      {"exceptions", test_exceptions},
                      {"promptness", test_promptness},
                      {"use", test_use}});
}

} // namespace

int main() {
  std::printf("test_stl: seed %u (TEST_STL_SEED), random sizes %zu and %zu\n", seed_value(),
              sizes()[6], sizes()[7]);
  return run_counts("test_stl", {1, 2, 3, 8}, tsan_skips, run_all);
}
