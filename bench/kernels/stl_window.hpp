/* bench_stl's reuse kernel: b[i] = a[i] + 0.5 a[i - r] over [r, n) (a
 * binary transform), for the window paper's Table 1 (the timed window
 * table) and the --cachesim mode (bench/scripts/stl_cachesim.sh). Its
 * reuse distance is 16 r bytes, sized by bench_stl to 5/8 of the shared
 * cache. Implementations: the sequential std::transform; adapt's window
 * modes with windows of m elements (adapt::par.window); GNU parallel mode,
 * TBB and std::execution::par without windows (one parallel call) and with
 * static windows (a sequential loop over windows of m elements with one
 * parallel call each, the paper's §2.2).
 *
 * Not thread-safe: one thread runs the implementations (each may run in
 * parallel inside). Needs stl/include (bench/mk/stl.mk).
 */
#ifndef BENCH_KERNELS_STL_WINDOW_HPP
#define BENCH_KERNELS_STL_WINDOW_HPP

#include <adapt/stl.hpp>

#include "harness.hpp"

#include <oneapi/tbb/task_arena.h>

#include <stddef.h>

#include <vector>

/* The arrays of one kernel: a[i] = (i % 1000) / 1000, b the output (zero),
 * ref the sequential result (when asked for, else NULL). */
struct stl_window_case {
  size_t r, n, m;
  double *a, *b, *ref;
};

stl_window_case stl_window_make(size_t r, size_t n, size_t m, bool with_ref);
void stl_window_free(stl_window_case *w);

/* The sequential kernel, std::transform. */
void stl_window_seq(const stl_window_case &w);

/* adapt::transform of the kernel under adapt::par.window(mode, m) (no
 * window: m = 0). */
void stl_window_adapt(const stl_window_case &w, adapt::window mode);

/* The implementations as the harness's variants, the sequential one first,
 * the TBB ones in arena ar: "std (sequential)", "adapt no-window", "adapt
 * static-window", "adapt sliding-window", then "<peer> no-window" and
 * "<peer> static-window" for gnu, tbb and std::par. */
std::vector<variant> stl_window_variants(const stl_window_case &w, tbb::task_arena *ar);

#endif /* BENCH_KERNELS_STL_WINDOW_HPP */
