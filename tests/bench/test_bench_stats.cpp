/* The benchmarks' statistics (bench/common): the order of the variants in
 * a round (round_order: a Williams design), the 95% interval of a median
 * (median_interval) and the rounds a case runs again (more_rounds). The
 * verdicts of every benchmark rest on them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" {
#include <cmocka.h>
}

#include <cerrno>
#include <cmath>
#include <vector>

#include "harness.hpp"
#include "report.hpp"

/* Over one block of rounds (m of them, 2m if m is odd), starting at any
 * round: every round a permutation, each variant once at each place (twice
 * if m is odd) and right after each other one as often as after any. */
static void test_round_order_balanced(void **state) {
  (void)state;
  for (size_t m = 1; m <= 9; m++) {
    const size_t block = m % 2 == 0 ? m : 2 * m;
    for (size_t first = 0; first < 2 * block; first += 3) {
      std::vector<std::vector<int>> after(m, std::vector<int>(m, 0)), at(m, std::vector<int>(m, 0));
      for (size_t r = first; r < first + block; r++) {
        std::vector<int> seen(m, 0);
        for (size_t k = 0; k < m; k++) {
          const size_t v = round_order(m, r, k);
          assert_true(v < m);
          assert_int_equal(seen[v]++, 0);
          at[v][k]++;
          if (k > 0) after[round_order(m, r, k - 1)][v]++;
        }
      }
      for (size_t a = 0; a < m; a++)
        for (size_t b = 0; b < m; b++) {
          assert_int_equal(at[a][b], (int)(block / m));
          assert_int_equal(after[a][b], a == b ? 0 : (int)(block / m));
        }
    }
  }
}

/* P(B <= j), B ~ Binomial(n, 1/2), from log-gamma (independent of the sum
 * median_interval runs). */
static double binomial_below(size_t n, size_t j) {
  double p = 0;
  for (size_t i = 0; i <= j; i++)
    p += std::exp(std::lgamma((double)n + 1) - std::lgamma((double)i + 1) -
                  std::lgamma((double)(n - i) + 1) - (double)n * std::log(2.0));
  return p;
}

/* On 1..n out of order: [k, n+1-k] with the largest k whose tail is <= 2.5%;
 * NaN under 6 elements; the textbook cases. */
static void test_median_interval(void **state) {
  (void)state;
  for (size_t n = 0; n < 6; n++) {
    interval e = median_interval(std::vector<double>(n, 1.0));
    assert_true(std::isnan(e.lo) && std::isnan(e.hi));
  }
  for (size_t n = 6; n <= 120; n++) {
    std::vector<double> v;
    for (size_t i = 0; i < n; i++) v.push_back((double)((i + n / 2) % n + 1)); /* 1..n, rotated */
    interval e = median_interval(v);
    const size_t k = (size_t)e.lo;
    assert_true(k >= 1);
    assert_true(e.hi == (double)(n + 1 - k));
    assert_true(binomial_below(n, k - 1) <= 0.025 + 1e-12);
    assert_true(binomial_below(n, k) > 0.025 - 1e-12);
  }
  interval e10 = median_interval({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  assert_true(e10.lo == 2 && e10.hi == 9);
  std::vector<double> v21;
  for (int i = 21; i >= 1; i--) v21.push_back(i);
  interval e21 = median_interval(v21);
  assert_true(e21.lo == 6 && e21.hi == 16);
}

/* more_rounds: the rounds numbered on, the samples appended, a failed
 * variant not run again. */
static void test_more_rounds(void **state) {
  (void)state;
  int runs[2] = {0, 0};
  std::vector<variant> v;
  v.push_back({"ok", FAM_SEQ, [&runs] { return runs[0]++, 0; }});
  v.push_back({"fails on purpose", FAM_PTHREAD, [&runs] { return runs[1]++ == 2 ? -EINVAL : 0; }});
  case_spec cs;
  cs.group = "g";
  cs.name = "c";
  cs.rounds = 4;
  const size_t samples = bench_samples.size();
  case_result c = run_case(cs, v);
  assert_int_equal(c.rounds, 4);
  assert_int_equal(c.t[0].size(), 4);
  assert_false(c.ok(1)); /* failed in its second timed round */
  const int failed_runs = runs[1];
  more_rounds(&c, cs, v, 6);
  assert_int_equal(c.rounds, 10);
  assert_int_equal(c.t[0].size(), 10);
  assert_int_equal(c.extra[0].size(), 10);
  assert_int_equal(runs[0], 1 + 4 + 1 + 6); /* two warm-ups */
  assert_int_equal(runs[1], failed_runs);
  assert_false(c.ok(1));
  std::vector<int> rounds;
  for (size_t i = samples; i < bench_samples.size(); i++)
    if (bench_samples[i].impl == "ok") rounds.push_back(bench_samples[i].round);
  assert_int_equal(rounds.size(), 10);
  for (int r = 0; r < 10; r++) assert_int_equal(rounds[(size_t)r], r);
  more_rounds(&c, cs, v, 0);
  assert_int_equal(c.rounds, 10);
}

int main(void) {
  bench_prog = "test_bench_stats";
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_order_balanced),
      cmocka_unit_test(test_median_interval),
      cmocka_unit_test(test_more_rounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
