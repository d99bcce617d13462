/* The probe of scripts/check_clang_ranges.sh: adapt::ranges under
 * clang++ with libstdc++. PROBE=1: the forms that return iterators, bool,
 * counts or the *_result structures; PROBE=2: a form returning a
 * std::ranges::subrange (adapt::ranges::remove); PROBE=3: the same call
 * to std::ranges (the subrange of the standard library alone). Compiled
 * with -fsyntax-only, never linked. */
#include <adapt/stl.hpp>

#include <algorithm>
#include <ranges>
#include <vector>

namespace {
struct rec {
  int k = 0;
};
} // namespace

int probe(std::vector<rec> &v, std::vector<rec> &o);
int probe(std::vector<rec> &v, std::vector<rec> &o) {
#if PROBE == 1
  adapt::ranges::sort(adapt::par, v, {}, &rec::k);
  auto m = adapt::ranges::merge(adapt::par, v, v, o.begin(), {}, &rec::k, &rec::k);
  auto it = adapt::ranges::find(adapt::par, v, 3, &rec::k);
  auto mn = adapt::ranges::min_element(v, {}, &rec::k);
  bool all = adapt::ranges::all_of(
      adapt::par, v, [](int k) { return k >= 0; }, &rec::k);
  return static_cast<int>((m.out - o.begin()) + (it - v.begin()) + (mn - v.begin())) + all +
         static_cast<int>(adapt::ranges::count(adapt::par, v, 1, &rec::k));
#elif PROBE == 2
  auto s = adapt::ranges::remove(adapt::par, v, 3, &rec::k);
  return static_cast<int>(s.begin() - v.begin()) + static_cast<int>(o.size());
#elif PROBE == 3
  auto s = std::ranges::remove(v, 3, &rec::k);
  return static_cast<int>(s.begin() - v.begin()) + static_cast<int>(o.size());
#else
#error "PROBE is 1, 2 or 3"
#endif
}
