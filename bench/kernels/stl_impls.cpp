/* bench_stl's table of implementations (stl_impls.hpp): the arrays, the
 * check of a run, the table of algorithms in the order of the tables. */
#include "stl_impls.hpp"

#include "harness.hpp"
#include "output.hpp"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const STL_OP_NAMES[STL_OPS] = {"cheap", "costly", "unbalanced", "nondet"};
const char *const STL_IMPL_NAMES[STL_IMPLS] = {"std (sequential)", "adapt", "gnu parallel", "tbb",
                                               "std::execution::par"};
const char *const STL_IMPL_SHORT[STL_IMPLS] = {"seq", "adapt", "gnu", "tbb", "std::par"};

/* ------------------------------------------------------------------ */
/* Data                                                                */

/* The next of the xorshift sequence in *h, scrambled. */
static uint64_t next_random(uint64_t *h) {
  *h ^= *h >> 12;
  *h ^= *h << 25;
  *h ^= *h >> 27;
  return *h * 0x2545f4914f6cdd1dull;
}

void stl_data::release(void) {
  for (double *p : {in, ramp, find, rnd, io, out, ref}) free(p);
  in = ramp = find = rnd = io = out = ref = nullptr;
  n = 0;
  iin.clear();
  iio.clear();
  iref.clear();
  sin.clear();
  sio.clear();
  sref.clear();
  got = want = stl_outcome();
}

void stl_data::make(size_t size) {
  if (n == size) return;
  release();
  n = size;
  for (double **p : {&in, &ramp, &find, &rnd, &io, &out, &ref}) *p = alloc_array<double>(n);
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = next_random(&h);
    in[i] = find[i] = (double)(r % 1000) - 500.0;
    rnd[i] = (double)(r >> 11) * 0x1p-53;
    ramp[i] = -500.0 + 1000.0 * (double)i / (double)n;
    io[i] = out[i] = ref[i] = 0.0;
  }
  find[n / 4 * 3] = 1000.0;
  iin.resize(n);
  iio.assign(n, 0);
  iref.assign(n, 0);
  for (size_t i = 0; i < n; i++) iin[i] = (int)(rnd[i] * 2e9) - 1000000000;
  const size_t ns = n / 10;
  sin.resize(ns);
  sio.assign(ns, std::string());
  sref.assign(ns, std::string());
  for (size_t i = 0; i < ns; i++) {
    uint64_t r = next_random(&h);
    std::string &t = sin[i];
    t.resize(8 + r % 16);
    for (char &ch : t) {
      ch = (char)('a' + (r >> 8) % 26);
      r = r * 6364136223846793005ull + 1442695040888963407ull;
    }
  }
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

bool stl_is_sort(const std::string &algo) {
  return algo.compare(0, 4, "sort") == 0 || algo.compare(0, 11, "stable_sort") == 0;
}

std::string stl_check(const stl_impls &m, const stl_data &d) {
  const size_t n = d.n;
  const stl_outcome &got = d.got, &want = d.want;
  switch (m.kind) {
  case OUT_ARRAY: return check_equal(d.out, d.ref, n, "wrong output array");
  case OUT_IO: return check_equal(d.io, d.ref, n, "wrong result array");
  case OUT_SUM:
    return fabs(got.sum - want.sum) <= 5e-8 * (double)n
               ? ""
               : fmt("wrong sum %.17g (sequential %.17g)", got.sum, want.sum);
  case OUT_INDEX:
    return got.index == want.index
               ? ""
               : fmt("wrong answer %zu (sequential %zu)", got.index, want.index);
  case OUT_BOOL: return got.flag == want.flag ? "" : "wrong answer";
  case OUT_COPY:
    if (got.index != want.index) return fmt("copied %zu, not %zu", got.index, want.index);
    return check_equal(d.out, d.ref, got.index, "wrong copied elements");
  case OUT_CUSTOM: return m.check();
  }
  return "?";
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

/* The rows of every family, in the order of the tables. */
static std::vector<stl_algo> in_order(void) {
  static const char *const order[] = {"for_each",
                                      "for_each_n",
                                      "transform",
                                      "fill",
                                      "generate",
                                      "reduce",
                                      "transform_reduce",
                                      "transform_reduce2",
                                      "find_if",
                                      "find",
                                      "any_of",
                                      "all_of",
                                      "none_of",
                                      "count_if",
                                      "count",
                                      "copy_if",
                                      "inclusive_scan",
                                      "exclusive_scan",
                                      "sort",
                                      "stable_sort",
                                      "sort_cmp",
                                      "stable_sort_cmp",
                                      "sort_int",
                                      "sort_string",
                                      "copy",
                                      "fill_n",
                                      "min_element",
                                      "minmax_element",
                                      "equal",
                                      "mismatch",
                                      "adjacent_find",
                                      "is_sorted",
                                      "remove_if",
                                      "unique_copy",
                                      "partition",
                                      "merge",
                                      "set_union",
                                      "nth_element",
                                      "partial_sort",
                                      "inplace_merge",
                                      "transform_inclusive_scan"};
  std::vector<stl_algo> table;
  for (const char *name : order)
    for (const std::vector<stl_algo> *family :
         {&STL_MAP_ALGOS, &STL_REDUCE_ALGOS, &STL_SEARCH_ALGOS, &STL_SCAN_ALGOS, &STL_SORT_ALGOS,
          &STL_MORE_ALGOS})
      for (const stl_algo &a : *family)
        if (strcmp(a.name, name) == 0) table.push_back(a);
  if (table.size() != sizeof order / sizeof order[0]) fatal("an algorithm has no row or two");
  return table;
}

const std::vector<stl_algo> &stl_algos(void) {
  static const std::vector<stl_algo> table = in_order();
  return table;
}
