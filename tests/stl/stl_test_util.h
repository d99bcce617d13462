/* Shared by the C++ tests of <adapt/stl.hpp> (test_stl with
 * test_stl_use.cpp, test_stl_algos with test_stl_algos_more.cpp): the check
 * counters and CHECK, the test variant, an element that counts its copies,
 * and the loops over parts and worker counts. Not templates: each program
 * compiles them once. Single-threaded use (the checks run on the caller). */
#ifndef TESTS_STL_STL_TEST_UTIL_H
#define TESTS_STL_STL_TEST_UTIL_H

#include <adapt/stl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

namespace stl_test {

inline int checks = 0, failures = 0;
inline std::string where; /* the case being run, for failure messages */

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    ::stl_test::checks++;                                                                          \
    if (!(cond)) {                                                                                 \
      ::stl_test::failures++;                                                                      \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed [%s]\n", __FILE__, __LINE__, #cond,            \
                   ::stl_test::where.c_str());                                                     \
    }                                                                                              \
  } while (0)

/* In a loop over elements: report the first mismatch only. */
#define CHECK_ONCE(cond)                                                                           \
  if (!(cond)) {                                                                                   \
    CHECK(cond);                                                                                   \
    break;                                                                                         \
  }

/* True when ADAPT_TEST_VARIANT (set by make test-run) is `name`. */
inline bool variant(const char *name) {
  const char *v = std::getenv("ADAPT_TEST_VARIANT");
  return v && std::strcmp(v, name) == 0;
}
/* Under a sanitizer: the tests scale their largest sizes down. */
inline bool sanitized() { return variant("tsan") || variant("asan"); }

/* An element that counts its copies (moves are free). */
inline std::atomic<long> copies{0};
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

/* 1 when call threw an E, 0 when it threw nothing, -1 for another
 * exception (the tests of exceptions thrown by element functions). */
template <class E, class F>
int throws(F &&call) {
  try {
    call();
  } catch (const E &) {
    return 1;
  } catch (...) {
    return -1;
  }
  return 0;
}

using part = std::pair<const char *, void (*)()>;

/* Starts the runtime on `workers` (checked), runs each part in order (its
 * time on stderr when TEST_STL_TIMES is set), stops the runtime. */
inline void run_parts(int workers, std::initializer_list<part> parts) {
  adapt_config cfg{};
  cfg.workers = workers;
  where = "adapt_init workers=" + std::to_string(workers);
  CHECK(adapt_init(&cfg) == 0);
  CHECK(adapt_num_workers() == workers);
  for (const part &p : parts) {
    auto t0 = std::chrono::steady_clock::now();
    p.second();
    if (std::getenv("TEST_STL_TIMES"))
      std::fprintf(stderr, "  %-10s %.2f s\n", p.first,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  adapt_finalize();
}

/* run_all(w) for each w of counts that skip(w) does not leave out, with a
 * line "PROG: W workers: ok|FAILED" each, then the closing line "PROG: N
 * checks, F failed: passed|FAILED"; returns main's exit status. */
inline int run_counts(const char *prog, std::initializer_list<int> counts, bool (*skip)(int),
                      void (*run_all)(int)) {
  for (int w : counts) {
    if (skip(w)) continue;
    int before = failures;
    run_all(w);
    std::printf("%s: %d workers: %s\n", prog, w, failures == before ? "ok" : "FAILED");
    std::fflush(stdout);
  }
  std::printf("%s: %d checks, %d failed: %s\n", prog, checks, failures,
              failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}

} // namespace stl_test

#endif /* TESTS_STL_STL_TEST_UTIL_H */
