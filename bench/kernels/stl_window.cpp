/* bench_stl's reuse kernel and its implementations (stl_window.hpp). */
#include "stl_window.hpp"

#include "stl_kernels.hpp"

#include <parallel/algorithm>

#include <stdlib.h>

#include <algorithm>
#include <execution>
#include <functional>

/* The kernel's operation, a capturing-free lambda as a user's. */
static const auto reuse_op = [](double x, double y) { return x + 0.5 * y; };

stl_window_case stl_window_make(size_t r, size_t n, size_t m, bool with_ref) {
  stl_window_case w = {r, n, m, alloc_array<double>(n), alloc_array<double>(n), nullptr};
  for (size_t i = 0; i < n; i++) {
    w.a[i] = (double)(i % 1000) * 0.001;
    w.b[i] = 0.0;
  }
  if (with_ref) {
    w.ref = alloc_array<double>(n);
    std::fill(w.ref, w.ref + n, 0.0);
    std::transform(w.a + r, w.a + n, w.a, w.ref + r, reuse_op);
  }
  return w;
}

void stl_window_free(stl_window_case *w) {
  free(w->a);
  free(w->b);
  free(w->ref);
  w->a = w->b = w->ref = nullptr;
}

void stl_window_seq(const stl_window_case &w) {
  std::transform(w.a + w.r, w.a + w.n, w.a, w.b + w.r, reuse_op);
}

void stl_window_adapt(const stl_window_case &w, adapt::window mode) {
  adapt::policy pol = adapt::par.window(mode, mode == adapt::window::none ? 0 : w.m);
  adapt::transform(pol, w.a + w.r, w.a + w.n, w.a, w.b + w.r, reuse_op);
}

/* The peers' calls f(lo, hi) over [r, n): one (m = 0) or one per window of
 * m elements. */
static std::function<void()> in_windows(const stl_window_case &w, size_t m,
                                        std::function<void(size_t, size_t)> f) {
  const size_t r = w.r, n = w.n;
  return [=] {
    if (m == 0) return f(r, n);
    for (size_t lo = r; lo < n; lo += m) f(lo, std::min(n, lo + m));
  };
}

std::vector<variant> stl_window_variants(const stl_window_case &w, tbb::task_arena *ar) {
  const size_t r = w.r, m = w.m;
  const double *a = w.a;
  double *b = w.b;
  auto op = reuse_op;
  auto gnu = [=](size_t lo, size_t hi) {
    __gnu_parallel::transform(a + lo, a + hi, a + lo - r, b + lo, op);
  };
  auto tbb = [=](size_t lo, size_t hi) {
    ar->execute([=] {
      tbb::parallel_for(stl_range(lo, hi), [=](const stl_range &q) {
        for (size_t i = q.begin(); i < q.end(); i++) b[i] = op(a[i], a[i - r]);
      });
    });
  };
  auto pstl = [=](size_t lo, size_t hi) {
    ar->execute(
        [=] { std::transform(std::execution::par, a + lo, a + hi, a + lo - r, b + lo, op); });
  };
  auto ad = [w](adapt::window mode) { return no_error([w, mode] { stl_window_adapt(w, mode); }); };
  return {
      {"std (sequential)", FAM_SEQ, no_error([w] { stl_window_seq(w); })},
      {"adapt no-window", FAM_ADAPT, ad(adapt::window::none)},
      {"adapt static-window", FAM_ADAPT, ad(adapt::window::static_)},
      {"adapt sliding-window", FAM_ADAPT, ad(adapt::window::sliding)},
      {"gnu no-window", FAM_OMP, no_error(in_windows(w, 0, gnu))},
      {"gnu static-window", FAM_OMP, no_error(in_windows(w, m, gnu))},
      {"tbb no-window", FAM_TBB, no_error(in_windows(w, 0, tbb))},
      {"tbb static-window", FAM_TBB, no_error(in_windows(w, m, tbb))},
      {"std::par no-window", FAM_TBB, no_error(in_windows(w, 0, pstl))},
      {"std::par static-window", FAM_TBB, no_error(in_windows(w, m, pstl))},
  };
}
