/* Tests of the streaming stores of adapt::copy and adapt::move (and of
 * uninitialized_copy and uninitialized_move for trivial types; modify.hpp:
 * detail::stream_bytes, detail::contiguous, detail::streamable_v), and of
 * the selections to another range whose merges stream (copy_if,
 * remove_copy_if, unique_copy, partition_copy; select.hpp:
 * detail::stream_writer, detail::stream_select). Compiled
 * with ADAPT_STL_STREAM_MIN=1 (stl/module.mk) so that every copy of a
 * trivially copyable type between contiguous ranges streams, whatever the
 * machine's cache: its own program, since the other tests keep the
 * default threshold. Compiled as C++20, where detail::contiguous takes
 * every std::contiguous_iterator (std::span's, std::string's). */
#include "stl_test_util.h"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

static_assert(ADAPT_STL_STREAM_MIN == 1, "stl/module.mk compiles this test with 1");

namespace {

using namespace stl_test;
using adapt::detail::contiguous;
using adapt::detail::streamable_v;

struct rgb { /* 24 bytes: chunks end inside an element's bytes' 16-byte blocks */
  double r, g, b;
  bool operator==(const rgb &o) const { return r == o.r && g == o.g && b == o.b; }
};

static_assert(contiguous<double *>::value && contiguous<const double *>::value);
static_assert(contiguous<std::vector<int>::iterator>::value &&
              contiguous<std::vector<int>::const_iterator>::value);
static_assert(!contiguous<std::vector<bool>::iterator>::value);
static_assert(!contiguous<std::deque<int>::iterator>::value);
static_assert(!contiguous<std::back_insert_iterator<std::vector<int>>>::value);
static_assert(contiguous<std::span<int>::iterator>::value &&
              contiguous<std::string::iterator>::value &&
              contiguous<std::string::const_iterator>::value);
#if defined(__SSE2__)
static_assert(streamable_v<const rgb *, std::vector<rgb>::iterator>);
static_assert(streamable_v<std::span<const double>::iterator, std::span<double>::iterator>);
#endif
static_assert(!streamable_v<const int *, long *>);
static_assert(!streamable_v<std::vector<std::string>::iterator, std::string *>);

/* stream_bytes(dst + dof, src + so, n) against memcpy, into a buffer of
 * dof + n + 32 bytes; the bytes before and after the destination
 * untouched. */
void check_bytes(const std::vector<unsigned char> &src, std::size_t so, std::size_t dof,
                 std::size_t n) {
  where = "stream_bytes src+" + std::to_string(so) + " dst+" + std::to_string(dof) +
          " n=" + std::to_string(n);
  std::vector<unsigned char> dst(dof + n + 32, 0xAB);
  adapt::detail::stream_bytes(dst.data() + dof, src.data() + so, n);
  bool ok = std::memcmp(dst.data() + dof, src.data() + so, n) == 0;
  for (std::size_t i = 0; i < dof; i++) ok = ok && dst[i] == 0xAB;
  for (std::size_t i = dof + n; i < dst.size(); i++) ok = ok && dst[i] == 0xAB;
  CHECK(ok);
}

/* Every offset of source and destination in a 16-byte block with lengths
 * around the 16- and 64-byte steps; a few offsets with lengths around the
 * four-page step (16 KiB) and past it. */
void test_bytes() {
  std::vector<unsigned char> src(65536 + 64);
  for (std::size_t i = 0; i < src.size(); i++) src[i] = static_cast<unsigned char>(i * 7 + 1);
  for (std::size_t so = 0; so < 16; so++)
    for (std::size_t dof = 0; dof < 16; dof++)
      for (std::size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 200, 4000})
        check_bytes(src, so, dof, n);
  for (std::size_t so : {0, 5})
    for (std::size_t dof : {0, 1, 8, 15})
      for (std::size_t n : {16383, 16384, 16384 + 83, 50001}) check_bytes(src, so, dof, n);
}

/* copy, copy_n, move, uninitialized_copy and uninitialized_move_n against
 * std::copy: pointers and vector iterators,
 * every offset of the output in a 16-byte block, sizes of one element to
 * many chunks, the window modes (sliding: not streamed) and a grain that
 * cuts rgb elements' blocks; the copy's end returned. */
template <class T, class Make>
void check_type(const char *name, Make make) {
  const std::size_t sizes[] = {1, 3, 1000, sanitized() ? 20011u : 300007u};
  const adapt::policy pols[] = {adapt::par, adapt::par.grain(7),
                                adapt::par.window(adapt::window::sliding, 3000)};
  for (std::size_t n : sizes)
    for (const adapt::policy &pol : pols)
      for (std::size_t off : {0, 1, 3}) {
        where = std::string(name) + " n=" + std::to_string(n) + " off=" + std::to_string(off);
        std::vector<T> in(n);
        for (std::size_t i = 0; i < n; i++) in[i] = make(i);
        std::vector<T> out(n + off), want(n + off);
        std::copy(in.begin(), in.end(), want.begin() + static_cast<long>(off));
        T *e = adapt::copy(pol, in.data(), in.data() + n, out.data() + off);
        CHECK(e == out.data() + off + n && out == want);
        std::vector<T> out2(n + off);
        auto e2 = adapt::copy_n(pol, in.cbegin(), n, out2.begin() + static_cast<long>(off));
        CHECK(e2 == out2.end() && out2 == want);
        std::vector<T> out3(n + off);
        auto e3 = adapt::move(pol, in.begin(), in.end(), out3.begin() + static_cast<long>(off));
        CHECK(e3 == out3.end() && out3 == want);
        std::vector<T> out4(n + off), out5(n + off);
        T *e4 = adapt::uninitialized_copy(pol, in.data(), in.data() + n, out4.data() + off);
        CHECK(e4 == out4.data() + off + n && out4 == want);
        auto e5 =
            adapt::uninitialized_move_n(pol, in.begin(), n, out5.begin() + static_cast<long>(off));
        CHECK(e5.first == in.end() && e5.second == out5.end() && out5 == want);
        std::vector<T> out6(n + off);
        std::span<const T> sin(in);
        std::span<T> sout(out6);
        auto e6 = adapt::copy(pol, sin.begin(), sin.end(), sout.begin() + static_cast<long>(off));
        CHECK(e6 == sout.end() && out6 == want);
      }
}

/* std::string's iterators (contiguous under C++20): copy and move. */
void test_strings() {
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(200003)}) {
    where = "string n=" + std::to_string(n);
    std::string in(n, ' '), out(n + 3, '.'), out2(n + 3, '.');
    for (std::size_t i = 0; i < n; i++) in[i] = static_cast<char>('a' + i % 26);
    std::string want = out;
    std::copy(in.begin(), in.end(), want.begin() + 3);
    CHECK(adapt::copy(adapt::par, in.cbegin(), in.cend(), out.begin() + 3) == out.end() &&
          out == want);
    CHECK(adapt::move(adapt::par, in.begin(), in.end(), out2.begin() + 3) == out2.end() &&
          out2 == want);
  }
}

void test_copies() {
  check_type<double>("double", [](std::size_t i) { return 0.5 * static_cast<double>(i); });
  check_type<char>("char", [](std::size_t i) { return static_cast<char>(i * 13); });
  check_type<rgb>("rgb", [](std::size_t i) {
    const double x = static_cast<double>(i);
    return rgb{x, -x, x * 0.25};
  });
}

/* A 16-byte element aligned to 8: at an odd position of a vector it is not
 * aligned to its size (stream_writer's ordinary-store path). */
struct pair16 {
  double a, b;
  bool operator==(const pair16 &o) const { return a == o.a && b == o.b; }
};
static_assert(alignof(pair16) == 8 && sizeof(pair16) == 16);

/* Storage for count elements of T at mis bytes past a 64-byte boundary
 * (mis a multiple of alignof(T)), each a copy of fill. */
template <class T>
struct placed {
  unsigned char *raw;
  T *p;
  std::size_t count;
  placed(std::size_t n, std::size_t mis, const T &fill)
      : raw(static_cast<unsigned char *>(
            std::aligned_alloc(64, (n * sizeof(T) + mis + 63) / 64 * 64))),
        p(reinterpret_cast<T *>(raw + mis)), count(n) {
    std::uninitialized_fill_n(p, n, fill);
  }
  placed(const placed &) = delete;
  placed &operator=(const placed &) = delete;
  ~placed() { std::free(raw); }
  bool operator==(const std::vector<T> &v) const {
    return v.size() == count && std::equal(v.begin(), v.end(), p);
  }
};

/* stream_writer against the same elements appended to a vector: random
 * sequences of single elements (push) and runs (append, 0 to 3 lines and
 * more) into a buffer at every element offset of a 64-byte line, and
 * (mis) at a distance from the line's start that is not a multiple of the
 * element's size (ordinary stores throughout); the elements before and
 * after the output untouched. */
template <class T, class Make>
void check_writer(const char *name, Make make, std::size_t mis = 0) {
  using W = adapt::detail::stream_writer<T, T *>;
  std::uint64_t h = 88172645463325252ull;
  auto rnd = [&h](std::size_t m) {
    h ^= h << 13, h ^= h >> 7, h ^= h << 17;
    return static_cast<std::size_t>(h % m);
  };
  std::vector<T> src(40000);
  for (std::size_t i = 0; i < src.size(); i++) src[i] = make(i + 1);
  const std::size_t per_line = 64 / sizeof(T) ? 64 / sizeof(T) : 1;
  for (std::size_t off = 0; off < per_line + 1; off++)
    for (int round = 0; round < 6; round++) {
      where = std::string("stream_writer ") + name + " off=" + std::to_string(off) +
              " mis=" + std::to_string(mis) + " round=" + std::to_string(round);
      std::vector<T> want;
      std::vector<std::pair<std::size_t, std::size_t>> ops; /* (first, count); count 0: push */
      for (std::size_t total = 0; total < 30000;) {
        const std::size_t at = rnd(src.size() - 5000);
        const std::size_t k = rnd(4) == 0 ? 0 : rnd(round % 2 ? 4 * per_line : 3000);
        ops.push_back({at, k});
        if (k == 0)
          want.push_back(src[at]);
        else
          want.insert(want.end(), src.begin() + static_cast<long>(at),
                      src.begin() + static_cast<long>(at + k));
        total += k ? k : 1;
      }
      placed<T> out(off + want.size() + per_line, mis, make(0));
      {
        W w(out.p + off);
        for (const auto &op : ops)
          if (op.second == 0)
            w.push(src[op.first]);
          else
            w.append(src.data() + op.first, op.second);
        CHECK(w.finish() == out.p + off + want.size());
      }
      bool ok = std::equal(want.begin(), want.end(), out.p + off);
      for (std::size_t i = 0; i < off; i++) ok = ok && out.p[i] == make(0);
      for (std::size_t i = off + want.size(); i < out.count; i++) ok = ok && out.p[i] == make(0);
      CHECK(ok);
    }
}

void test_writer() {
  check_writer<double>("double", [](std::size_t i) { return 0.5 * static_cast<double>(i); });
  check_writer<char>("char", [](std::size_t i) { return static_cast<char>(i * 13 + 1); });
  for (std::size_t mis : {0, 8})
    check_writer<pair16>(
        "pair16",
        [](std::size_t i) {
          return pair16{static_cast<double>(i), -static_cast<double>(i)};
        },
        mis);
}

/* Trivially copyable, not default-constructible: the selections compile
 * for it and place it with ordinary stores (stream_selectable). */
struct no_default {
  explicit no_default(int x) : v(x) {}
  int v;
  bool operator==(const no_default &o) const { return v == o.v; }
};
static_assert(std::is_trivially_copyable_v<no_default> && !std::is_trivial_v<no_default>);
static_assert(!adapt::detail::stream_selectable<const no_default *, no_default *>() &&
              !adapt::detail::stream_selectable<const rgb *, rgb *>());
#if defined(__SSE2__)
static_assert(adapt::detail::stream_selectable<const double *, std::vector<double>::iterator>());
#endif

/* copy_if, remove_copy_if, unique_copy and partition_copy against std's,
 * inputs with runs of repeats and of rejected elements (whole 64-element
 * words of marks and words bit by bit), at every element offset of the
 * output in a line and the policies of check_type (grain 7: many stolen
 * pieces, so many merges); the outputs' ends returned, the elements
 * after them untouched. rgb (24 bytes) does not stream (a line's boundary
 * would split one); pair16 at odd offsets streams nothing (not aligned to
 * its size). */
template <class T, class Make, class Less>
void check_select(const char *name, Make make, Less less) {
  const std::size_t sizes[] = {1, 1000, sanitized() ? 30011u : 300007u};
  const adapt::policy pols[] = {adapt::par, adapt::par.grain(7),
                                adapt::par.window(adapt::window::sliding, 3000)};
  for (std::size_t n : sizes) {
    std::vector<T> in(n);
    std::uint64_t h = 0x2545f4914f6cdd1dull;
    for (std::size_t i = 0; i < n; i++) {
      h ^= h << 13, h ^= h >> 7, h ^= h << 17;
      const std::size_t phase = (i / 5000) % 3; /* long runs of kept, then of repeats, mixed */
      const bool repeat = i > 0 && (phase == 1 ? h % 8 != 0 : phase == 2 && h % 3 == 0);
      in[i] = repeat ? in[i - 1] : make(i + 1);
    }
    const T pivot = make(n / 2);
    auto pred = [&](const T &x) { return less(x, pivot); };
    for (const adapt::policy &pol : pols)
      for (std::size_t off : {0, 1, 3}) {
        where = std::string("select ") + name + " n=" + std::to_string(n) +
                " off=" + std::to_string(off);
        const T fill = make(0);
        std::vector<T> want(n + off, fill), want2(n + off, fill), out(n + off, fill),
            out2(n + off, fill);
        const long o = static_cast<long>(off);
        auto we = std::unique_copy(in.begin(), in.end(), want.begin() + o);
        auto e = adapt::unique_copy(pol, in.begin(), in.end(), out.begin() + o);
        CHECK(e - out.begin() == we - want.begin() && out == want);
        std::fill(want.begin(), want.end(), fill), std::fill(out.begin(), out.end(), fill);
        we = std::copy_if(in.begin(), in.end(), want.begin() + o, pred);
        T *p = adapt::copy_if(pol, in.data(), in.data() + n, out.data() + off, pred);
        CHECK(p - out.data() == we - want.begin() && out == want);
        std::fill(want.begin(), want.end(), fill), std::fill(out.begin(), out.end(), fill);
        we = std::remove_copy_if(in.begin(), in.end(), want.begin() + o, pred);
        e = adapt::remove_copy_if(pol, in.begin(), in.end(), out.begin() + o, pred);
        CHECK(e - out.begin() == we - want.begin() && out == want);
        std::fill(want.begin(), want.end(), fill), std::fill(out.begin(), out.end(), fill);
        auto wp = std::partition_copy(in.begin(), in.end(), want.begin() + o, want2.begin(), pred);
        auto ep =
            adapt::partition_copy(pol, in.begin(), in.end(), out.begin() + o, out2.begin(), pred);
        CHECK(ep.first - out.begin() == wp.first - want.begin() &&
              ep.second - out2.begin() == wp.second - want2.begin() && out == want &&
              out2 == want2);
      }
  }
}

/* unique_copy and copy_if of pair16 into an output at 8 bytes past a
 * 16-byte boundary (not aligned to its size: ordinary stores), and of
 * no_default; many stolen pieces (grain 7). */
void test_selections_unaligned() {
  const std::size_t n = sanitized() ? 30011 : 300007;
  std::vector<pair16> in(n);
  std::vector<no_default> nin;
  for (std::size_t i = 0; i < n; i++) {
    const double a = static_cast<double>((i * 7919) % 1013 / 3);
    in[i] = pair16{a, 1.0};
    nin.push_back(no_default(static_cast<int>(a)));
  }
  where = "select pair16 unaligned";
  std::vector<pair16> want(n, pair16{-1, -1});
  auto we = std::unique_copy(in.begin(), in.end(), want.begin());
  placed<pair16> out(n, 8, pair16{-1, -1});
  CHECK(adapt::unique_copy(adapt::par.grain(7), in.begin(), in.end(), out.p) - out.p ==
            we - want.begin() &&
        out == want);
  auto big = [](const pair16 &x) { return x.a > 100; };
  std::fill(want.begin(), want.end(), pair16{-1, -1});
  we = std::copy_if(in.begin(), in.end(), want.begin(), big);
  placed<pair16> out2(n, 8, pair16{-1, -1});
  CHECK(adapt::copy_if(adapt::par.grain(7), in.begin(), in.end(), out2.p, big) - out2.p ==
            we - want.begin() &&
        out2 == want);
  where = "select no_default";
  std::vector<no_default> nwant(n, no_default(-1)), nout(n, no_default(-1));
  auto nwe = std::unique_copy(nin.begin(), nin.end(), nwant.begin());
  auto ne = adapt::unique_copy(adapt::par.grain(7), nin.begin(), nin.end(), nout.begin());
  CHECK(ne - nout.begin() == nwe - nwant.begin() && nout == nwant);
}

void test_selections() {
  check_select<double>(
      "double", [](std::size_t i) { return 0.5 * static_cast<double>(i % 7919); }, std::less<>());
  check_select<char>(
      "char", [](std::size_t i) { return static_cast<char>(i * 13 + 1); }, std::less<>());
  check_select<pair16>(
      "pair16",
      [](std::size_t i) {
        return pair16{static_cast<double>(i % 7919), 1.0};
      },
      [](const pair16 &x, const pair16 &y) { return x.a < y.a; });
  check_select<rgb>(
      "rgb",
      [](std::size_t i) {
        const double x = static_cast<double>(i % 7919);
        return rgb{x, -x, x * 0.25};
      },
      [](const rgb &x, const rgb &y) { return x.r < y.r; });
}

void run_all(int workers) {
  run_parts(workers, {{"bytes", test_bytes},
                      {"copies", test_copies},
                      {"strings", test_strings},
                      {"writer", test_writer},
                      {"selections", test_selections},
                      {"selections unaligned", test_selections_unaligned}});
}

bool skip(int workers) { return workers == 1 && variant("tsan"); }

} // namespace

int main() { return run_counts("test_stl_stream", {1, 2, 3}, skip, run_all); }
