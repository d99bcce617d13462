/* Shared helpers of the tests of <adapt/stl/algorithms.hpp>
 * (test_stl_algos.cpp, test_stl_algos_more.cpp: one program): the
 * sizes, policies, inputs and element types (the counters and CHECK:
 * stl_test_util.h). */
#ifndef TESTS_STL_ALGOS_TEST_H
#define TESTS_STL_ALGOS_TEST_H

#include <adapt/stl.hpp>

#include "stl_test_util.h"

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

namespace algos_test {

using namespace stl_test;

/* The sizes every algorithm runs on; the largest one last (several chunks
 * and blocks: ADAPT_STL_BLOCK is 4096). */
inline const std::vector<std::size_t> &sizes() {
  static const std::vector<std::size_t> v = {
      0, 1, 2, 7, 1000, 5003, sanitized() ? 20011u : 100003u};
  return v;
}

/* The policies: all of them on the largest size (under the sanitizers
 * three: the window modes and schedulers run in release), the default on
 * the others. */
inline std::vector<std::pair<const char *, adapt::policy>> policies(std::size_t n) {
  if (n != sizes().back()) return {{"par", adapt::par}};
  if (sanitized())
    return {{"par", adapt::par},
            {"sliding", adapt::par.window(adapt::window::sliding, 3000)},
            {"grain7", adapt::par.grain(7)}};
  return {{"par", adapt::par},
          {"static", adapt::par.window(adapt::window::static_, 4096)},
          {"sliding", adapt::par.window(adapt::window::sliding, 3000)},
          {"grain7", adapt::par.grain(7)},
          {"dac", adapt::par.sched(adapt::sched::dac)}};
}

inline std::vector<int> ints(std::size_t n, unsigned seed, int range) {
  std::mt19937 g(seed);
  std::vector<int> v(n);
  for (auto &x : v) x = static_cast<int>(g() % static_cast<unsigned>(range));
  return v;
}
inline std::vector<int> iota(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}
inline std::vector<std::string> strings(const std::vector<int> &v) {
  std::vector<std::string> s;
  for (int x : v)
    s.push_back(std::string(8 + static_cast<std::size_t>(x % 3), 'a') + "#" +
                std::to_string(x)); /* longer than the small-string buffer */
  return s;
}
/* Positions to plant a feature at. */
inline std::vector<std::size_t> spots(std::size_t n) {
  if (n == 0) return {};
  return {0, n / 2, n - 1};
}

struct boom : std::runtime_error {
  boom() : std::runtime_error("boom") {}
};

/* The parts of the program, one per family (test_stl_algos_more.cpp:
 * select to memory, exceptions; test_stl_ranges.cpp and
 * test_stl_ranges_more.cpp, C++20: adapt::ranges). */
void test_select();
void test_merge();
void test_nth();
void test_sets();
void test_memory();
void test_exceptions();
void test_ranges();
void test_ranges_more();
/* test_stl_ranges_more.cpp's checks on one size and policy (test_ranges
 * runs them in its loop). */
void ranges_more(const adapt::policy &pol, std::size_t n);

} // namespace algos_test

#endif /* TESTS_STL_ALGOS_TEST_H */
