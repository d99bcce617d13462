/* The default grain of the non-adaptive schedulers, white-box:
 * adapt__default_grain(n, P) is min(ADAPT_SCHED_GRAIN_MAX, n / (8 P)), at
 * least 1 (test_sched.c checks the bound it gives through adapt_for). */
#include "adapt_test.h"
#include "../../libadapt/src/config.h"     /* white-box */
#include "../../libadapt/src/schedulers.h" /* white-box */

static void test_default_grain(void **state) {
  /* the default grain of the non-adaptive schedulers: min(max, n/(8P)), >= 1 */
  for (int p = 1; p <= 8; p++)
    for (size_t n = 0; n < 200000; n = n * 3 + 1) {
      size_t g = adapt__default_grain(n, p), want = n / (8 * (size_t)p);
      if (want > ADAPT_SCHED_GRAIN_MAX) want = ADAPT_SCHED_GRAIN_MAX;
      assert_int_equal(g, want ? want : 1);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      ADAPT_TEST(test_default_grain),
  };
  return adapt_test_run("sched_grain", tests);
}
