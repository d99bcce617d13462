/* bench_stl: the C++ front end <adapt/stl.hpp> against the sequential std
 * algorithm, GNU parallel mode (__gnu_parallel::, OpenMP), oneTBB and
 * std::execution::par (libstdc++'s PSTL on TBB), in one process and one run:
 * the window paper's Table 1 on this machine (issue 10,
 * docs/benchmarks-stl.md).
 *
 * Cases: every algorithm below on n doubles (--sizes, default 1e6 and 1e7),
 * with a cheap element operation (0.5 x + 1: memory-bound), an expensive one
 * (8 chained multiply-adds, ~13 ns: compute-bound) and an unbalanced one (the
 * cost grows along the array), on 1 and 2 workers (adapt workers, OpenMP
 * threads, TBB arena), bench/kernels/stl_kernels.hpp:
 *   for_each (x = op(x) in place), for_each_n (the same), transform
 *   (y = op(x)), fill, generate, reduce (+), transform_reduce (+, op),
 *   transform_reduce2 (binary: the dot product of x and random y; costly:
 *   op(x) * y), find_if (first match at 3n/4), find (the same element by
 *   value), any_of / none_of (no match: full scan), all_of (all match),
 *   count_if and copy_if (half match), count (a value, 1/1000 of the
 *   elements), inclusive_scan / exclusive_scan (+), sort and stable_sort
 *   (random doubles, operator<), sort_cmp and stable_sort_cmp (the same
 *   with a comparator lambda, descending), sort_int (random ints) and
 *   sort_string (n / 10 random strings of 8 to 23 letters); at most 5 rounds
 *   for the sorts from n = 1e7.
 * The expensive operation runs with the algorithms that take one per element
 * (not fill, generate, reduce, find, count, the scans, the sorts); the unbalanced one with
 * for_each, transform, transform_reduce and count_if; the scans also run as
 * op "nondet": adapt with adapt::par.deterministic(false) (the default
 * policy's scans are deterministic, at one more operation per element on
 * the calling thread), the peers as in "cheap". Peers without the
 * algorithm are "n/a": GNU parallel mode has no fill (its generate stands
 * in), no for_each_n (its for_each stands in), no copy_if, no exclusive_scan
 * and no any/all/none_of (its find_if stands in); TBB has no stable sort. adapt's calls are the std signatures
 * without a policy (the default policy, adapt::par).
 *
 * Method (bench/common/harness.hpp): per case every implementation, the
 * sequential std algorithm Ts included, runs once per round, the order
 * rotated from round to round, after one untimed warm-up round whose output
 * is checked against the sequential one (arrays bitwise, counts exactly,
 * floating-point sums within 5e-8 n); a wrong or failing implementation is
 * FAILED in the table and the exit status is 1. Figures are medians of
 * per-round paired ratios: T/Ts, and adapt's time over the best peer's (the
 * peer with the lowest median time in the case). Beside them, the same
 * figures from each implementation's fastest round ("best of N": min T /
 * min Ts, min T(adapt) / min T(best peer)): on a VM whose vCPUs each lose
 * up to 40% of their speed in phases of 50-500 ms that the guest cannot
 * see (docs/benchmarks.md, "Machine"), the two estimators read
 * differently and the summary judges the targets both ways, the medians
 * (the targets' own figures) first. Targets (summary):
 *   T1/Ts <= 1.02 for every algorithm (1 worker);
 *   speedup Ts/T2 >= 1.9 on the compute-bound operations (expensive,
 *   unbalanced; 2 workers);
 *   T(adapt)/T(best peer) <= 1.03 on every algorithm and size, <= 1/1.1
 *   (>= 10% ahead) on the cheap and unbalanced operations, <= 1.10 for the
 *   sorts (2 workers).
 *
 * Table 1 proper (first in each section, --no-window-table skips it): the
 * paper's for_each with no-window and static-window in every library, on
 * the reuse kernel b[i] = a[i] + 0.5 a[i - R] (binary transform, reuse
 * distance 5/8 of --cache, default 32 MiB): one parallel call (no-window)
 * against a loop over windows of m = 2^18 elements with one parallel call
 * each (static-window; adapt: its window policies, static and sliding).
 * Informational (no target): on this VM the time effect of the windows may
 * not show (docs/benchmarks-stl.md).
 *
 * Output: tables on stdout; in --out DIR: stl_samples.csv (every sample),
 * stl_summary.csv (one line per case with the targets), stl_report.md (the
 * Markdown tables of docs/benchmarks-stl.md).
 *
 * Options: --out DIR, --sizes LIST (e.g. 1e6,1e7), --workers 1,2,
 * --algos LIST, --ops cheap,costly,unbalanced,nondet, --reps K (timed
 * rounds, default 7), --gap-ms MS (pause before each 2-worker sample so that
 * every runtime's idle threads are asleep, default 5), --no-window-table,
 * --cache BYTES, --commit STR, --quick (n = 1e6, 2 rounds, a smaller window
 * table: smoke test, figures not meaningful).
 * --cachesim MODE (seq|none|static|sliding): the simulated-cache mode of
 * bench/scripts/stl_cachesim.sh: the reuse kernel over --cachesim-n
 * elements (default 4 R) with a reuse distance of --cachesim-reuse bytes
 * (default 5/8 of --cache), on 2 workers with the window mode given and
 * --cachesim-m (default 2^16), the callgrind instrumentation on only around
 * the call.
 * --ir (bench/scripts/stl_cachesim.sh --ir): instructions per element of
 * std and adapt on one worker, every selected case, under callgrind (see
 * ir_mode below).
 */
#include <adapt/adapt.h>
#include <adapt/stl.hpp>

#include "bandwidth.hpp"
#include "cli.hpp"
#include "harness.hpp"
#include "output.hpp"
#include "peers.hpp"
#include "stl_kernels.hpp"

#include <oneapi/tbb/parallel_sort.h>
#include <parallel/algorithm>
#include <parallel/numeric>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <execution>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "callgrind.hpp"

static const std::vector<std::string> ALGOS = {
    "for_each", "for_each_n",       "transform",         "fill",       "generate",
    "reduce",   "transform_reduce", "transform_reduce2", "find_if",    "find",
    "any_of",   "all_of",           "none_of",           "count_if",   "count",
    "copy_if",  "inclusive_scan",   "exclusive_scan",    "sort",       "stable_sort",
    "sort_cmp", "stable_sort_cmp",  "sort_int",          "sort_string"};
static const std::vector<std::string> OPS = {"cheap", "costly", "unbalanced", "nondet"};

struct options {
  std::string out = "build/release/bench-results";
  std::vector<size_t> sizes = {1000000, 10000000};
  std::set<std::string> workers = {"1", "2"};
  std::set<std::string> algos = std::set<std::string>(ALGOS.begin(), ALGOS.end());
  std::set<std::string> ops = std::set<std::string>(OPS.begin(), OPS.end());
  int reps = 7;
  long long gap_ns = 5 * 1000000LL;
  bool quick = false, window_table = true;
  std::string commit;
  std::string cachesim;
  size_t cachesim_n = 0, cachesim_reuse = 0, cachesim_m = 1u << 16;
  bool ir = false;       /* --ir: instruction counts under callgrind */
  std::string ir_grains; /* --ir-grains: ALGO:OP:G,... from the native pass */
  /* The shared cache the window cases are sized for: the L3 this VM's CPU
   * has (hwloc on the VM reports one 508 MB L3 per vCPU, nothing shared,
   * so adapt_shared_cache_size() is no guide here). */
  size_t cache = 32u << 20;
};
static options opt;
static std::unique_ptr<peer_pools> pools;
static bool failed = false;

/* Does the algorithm take the operation? */
static bool takes(const std::string &algo, const std::string &op) {
  static const std::set<std::string> costly = {
      "for_each",          "for_each_n", "transform", "transform_reduce",
      "transform_reduce2", "find_if",    "any_of",    "all_of",
      "none_of",           "count_if",   "copy_if"};
  static const std::set<std::string> unbalanced = {"for_each", "transform", "transform_reduce",
                                                   "count_if"};
  if (op == "cheap") return true;
  if (op == "costly") return costly.count(algo) > 0;
  if (op == "nondet") return algo == "inclusive_scan" || algo == "exclusive_scan";
  return unbalanced.count(algo) > 0;
}

static bool is_sort(const std::string &algo) {
  return algo.compare(0, 4, "sort") == 0 || algo.compare(0, 11, "stable_sort") == 0;
}

/* ------------------------------------------------------------------ */
/* Data                                                                */

/* The arrays of one size: inputs (integers in [-500, 500), hashed order;
 * the same increasing for the unbalanced cases; with one element above 900
 * at 3n/4 for find_if; random doubles for the sorts), the in-place array,
 * the output and the sequential reference. */
struct arrays {
  size_t n = 0;
  double *in = nullptr, *ramp = nullptr, *find = nullptr, *rnd = nullptr;
  double *io = nullptr, *out = nullptr, *ref = nullptr;
};
static arrays A;
/* sort_int: the ints of A.in (their order); sort_string: n / 10 strings
 * of 8 to 23 letters (some beyond the short-string buffer), random. */
static std::vector<int> IIN, IIO, IREF;
static std::vector<std::string> SIN, SIO, SREF;

static void arrays_free(void) {
  for (double *p : {A.in, A.ramp, A.find, A.rnd, A.io, A.out, A.ref}) free(p);
  A = arrays();
}

static void arrays_make(size_t n) {
  if (A.n == n) return;
  arrays_free();
  A.n = n;
  for (double **p : {&A.in, &A.ramp, &A.find, &A.rnd, &A.io, &A.out, &A.ref})
    *p = alloc_array<double>(n);
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; i++) {
    h ^= h >> 12;
    h ^= h << 25;
    h ^= h >> 27;
    uint64_t r = h * 0x2545f4914f6cdd1dull;
    A.in[i] = A.find[i] = (double)(r % 1000) - 500.0;
    A.rnd[i] = (double)(r >> 11) * 0x1p-53;
    A.ramp[i] = -500.0 + 1000.0 * (double)i / (double)n;
    A.io[i] = A.out[i] = A.ref[i] = 0.0;
  }
  A.find[n / 4 * 3] = 1000.0;
  IIN.resize(n);
  IIO.assign(n, 0);
  IREF.assign(n, 0);
  for (size_t i = 0; i < n; i++) IIN[i] = (int)(A.rnd[i] * 2e9) - 1000000000;
  const size_t ns = n / 10;
  SIN.resize(ns);
  SIO.assign(ns, std::string());
  SREF.assign(ns, std::string());
  for (size_t i = 0; i < ns; i++) {
    h ^= h >> 12;
    h ^= h << 25;
    h ^= h >> 27;
    uint64_t r = h * 0x2545f4914f6cdd1dull;
    std::string &t = SIN[i];
    t.resize(8 + r % 16);
    for (char &ch : t) {
      ch = (char)('a' + (r >> 8) % 26);
      r = r * 6364136223846793005ull + 1442695040888963407ull;
    }
  }
}

/* ------------------------------------------------------------------ */
/* Implementations of one case                                         */

/* What a case's implementations produce, compared with the reference. */
enum out_kind { OUT_ARRAY, OUT_IO, OUT_SUM, OUT_INDEX, OUT_BOOL, OUT_COPY, OUT_CUSTOM };

struct outcome {
  double sum = 0;
  size_t index = 0; /* find_if's position, count_if's and copy_if's count */
  bool flag = false;
};
static outcome got, want;

enum impl_id { I_SEQ, I_ADAPT, I_GNU, I_TBB, I_PSTL, I_COUNT };
static const char *const IMPL_NAMES[I_COUNT] = {"std (sequential)", "adapt", "gnu parallel", "tbb",
                                                "std::execution::par"};
static const char *const IMPL_SHORT[I_COUNT] = {"seq", "adapt", "gnu", "tbb", "std::par"};

struct impls {
  out_kind kind = OUT_ARRAY;
  const double *io_src = nullptr;   /* OUT_IO: copied to A.io before every run */
  std::function<void()> f[I_COUNT]; /* empty: the peer has no such algorithm */
  std::string note;
  /* OUT_CUSTOM (int and string sorts): reset the input before every run,
   * keep the sequential result, compare the last run's with it. */
  std::function<void()> reset, save_ref;
  std::function<std::string()> check;
};

/* The five implementations of algo with the element operation op, on
 * `workers` threads (the TBB arena of that size; the OpenMP thread count is
 * set by the section). */
template <class Op>
static impls make_impls(const std::string &algo, Op op, bool unbalanced, bool nondet, int workers) {
  impls m;
  tbb::task_arena *ar = &pools->of(workers);
  const size_t n = A.n;
  const double *in = unbalanced ? A.ramp : A.in;
  double *io = A.io, *out = A.out;
  auto arena = [ar](std::function<void()> g) { return [ar, g] { ar->execute(g); }; };
  auto par = std::execution::par;
  std::function<void()> *f = m.f;
  if (algo == "for_each") {
    auto body = [op](double &v) { v = op(v); };
    m.kind = OUT_IO;
    m.io_src = in;
    f[I_SEQ] = [=] { std::for_each(io, io + n, body); };
    f[I_ADAPT] = [=] { adapt::for_each(io, io + n, body); };
    f[I_GNU] = [=] { __gnu_parallel::for_each(io, io + n, body); };
    f[I_TBB] = arena([=] {
      stl_tbb_map(n, [=](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) io[i] = op(io[i]);
      });
    });
    f[I_PSTL] = arena([=] { std::for_each(par, io, io + n, body); });
  } else if (algo == "for_each_n") {
    auto body = [op](double &v) { v = op(v); };
    m.kind = OUT_IO;
    m.io_src = in;
    f[I_SEQ] = [=] { std::for_each_n(io, n, body); };
    f[I_ADAPT] = [=] { adapt::for_each_n(io, n, body); };
    f[I_GNU] = [=] { __gnu_parallel::for_each(io, io + n, body); };
    f[I_TBB] = arena([=] {
      stl_tbb_map(n, [=](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) io[i] = op(io[i]);
      });
    });
    f[I_PSTL] = arena([=] { std::for_each_n(par, io, n, body); });
    m.note = "gnu: for_each";
  } else if (algo == "transform") {
    f[I_SEQ] = [=] { std::transform(in, in + n, out, op); };
    f[I_ADAPT] = [=] { adapt::transform(in, in + n, out, op); };
    f[I_GNU] = [=] { __gnu_parallel::transform(in, in + n, out, op); };
    f[I_TBB] = arena([=] {
      stl_tbb_map(n, [=](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; i++) out[i] = op(in[i]);
      });
    });
    f[I_PSTL] = arena([=] { std::transform(par, in, in + n, out, op); });
  } else if (algo == "fill" || algo == "generate") {
    const double v = algo == "fill" ? 1.5 : 2.5;
    auto gen = [v] { return v; };
    if (algo == "fill") {
      f[I_SEQ] = [=] { std::fill(out, out + n, v); };
      f[I_ADAPT] = [=] { adapt::fill(out, out + n, v); };
      f[I_PSTL] = arena([=] { std::fill(par, out, out + n, v); });
      m.note = "gnu: generate";
    } else {
      f[I_SEQ] = [=] { std::generate(out, out + n, gen); };
      f[I_ADAPT] = [=] { adapt::generate(out, out + n, gen); };
      f[I_PSTL] = arena([=] { std::generate(par, out, out + n, gen); });
    }
    f[I_GNU] = [=] { __gnu_parallel::generate(out, out + n, gen); };
    f[I_TBB] = arena(
        [=] { stl_tbb_map(n, [=](size_t lo, size_t hi) { std::fill(out + lo, out + hi, v); }); });
  } else if (algo == "reduce") {
    m.kind = OUT_SUM;
    f[I_SEQ] = [=] { got.sum = std::reduce(in, in + n, 0.0); };
    f[I_ADAPT] = [=] { got.sum = adapt::reduce(in, in + n, 0.0); };
    f[I_GNU] = [=] { got.sum = __gnu_parallel::accumulate(in, in + n, 0.0); };
    f[I_TBB] = arena([=] { got.sum = stl_tbb_sum(in, n, [](double x) { return x; }); });
    f[I_PSTL] = arena([=] { got.sum = std::reduce(par, in, in + n, 0.0); });
    m.note = "gnu: accumulate";
  } else if (algo == "transform_reduce") {
    m.kind = OUT_SUM;
    std::plus<double> plus;
    f[I_SEQ] = [=] { got.sum = std::transform_reduce(in, in + n, 0.0, plus, op); };
    f[I_ADAPT] = [=] { got.sum = adapt::transform_reduce(in, in + n, 0.0, plus, op); };
    /* GNU's inner_product with operations: its sequential fallback (one
     * thread, or n < accumulate_minimal_n) drops the operations and returns
     * the plain inner product (libstdc++ 12, parallel/numeric); there the
     * call is what the fallback means, std::inner_product. */
    auto second = [op](double a, double) { return op(a); };
    f[I_GNU] = [=] {
      got.sum = omp_get_max_threads() > 1
                    ? __gnu_parallel::inner_product(in, in + n, in, 0.0, plus, second)
                    : std::inner_product(in, in + n, in, 0.0, plus, second);
    };
    f[I_TBB] = arena([=] { got.sum = stl_tbb_sum(in, n, op); });
    f[I_PSTL] = arena([=] { got.sum = std::transform_reduce(par, in, in + n, 0.0, plus, op); });
    m.note = "gnu: inner_product";
  } else if (algo == "transform_reduce2") {
    /* Binary: the dot product of in and rnd (cheap: std's default + and *;
     * costly: op(x) * y). */
    m.kind = OUT_SUM;
    const double *y = A.rnd;
    const bool plain = std::is_same_v<Op, stl_cheap>;
    std::plus<double> plus;
    auto mul = [op](double a, double b) { return op(a) * b; };
    if (plain) {
      f[I_SEQ] = [=] { got.sum = std::transform_reduce(in, in + n, y, 0.0); };
      f[I_ADAPT] = [=] { got.sum = adapt::transform_reduce(in, in + n, y, 0.0); };
      f[I_GNU] = [=] { got.sum = __gnu_parallel::inner_product(in, in + n, y, 0.0); };
      f[I_PSTL] = arena([=] { got.sum = std::transform_reduce(par, in, in + n, y, 0.0); });
    } else {
      f[I_SEQ] = [=] { got.sum = std::transform_reduce(in, in + n, y, 0.0, plus, mul); };
      f[I_ADAPT] = [=] { got.sum = adapt::transform_reduce(in, in + n, y, 0.0, plus, mul); };
      /* the sequential fallback drops the operations (see transform_reduce) */
      f[I_GNU] = [=] {
        got.sum = omp_get_max_threads() > 1
                      ? __gnu_parallel::inner_product(in, in + n, y, 0.0, plus, mul)
                      : std::inner_product(in, in + n, y, 0.0, plus, mul);
      };
      f[I_PSTL] =
          arena([=] { got.sum = std::transform_reduce(par, in, in + n, y, 0.0, plus, mul); });
    }
    f[I_TBB] = arena([=] {
      got.sum = tbb::parallel_reduce(
          stl_range(0, n), 0.0,
          [=](const stl_range &r, double acc) {
            for (size_t i = r.begin(); i < r.end(); i++)
              acc += plain ? in[i] * y[i] : mul(in[i], y[i]);
            return acc;
          },
          std::plus<double>());
    });
    m.note = "gnu: inner_product";
  } else if (algo == "find") {
    m.kind = OUT_INDEX;
    const double *x = A.find;
    auto pos = [x](const double *it) { return (size_t)(it - x); };
    const double v = 1000.0;
    f[I_SEQ] = [=] { got.index = pos(std::find(x, x + n, v)); };
    f[I_ADAPT] = [=] { got.index = pos(adapt::find(x, x + n, v)); };
    f[I_GNU] = [=] { got.index = pos(__gnu_parallel::find(x, x + n, v)); };
    f[I_TBB] = arena([=] { got.index = stl_tbb_find_if(x, n, [v](double e) { return e == v; }); });
    f[I_PSTL] = arena([=] { got.index = pos(std::find(par, x, x + n, v)); });
  } else if (algo == "count") {
    m.kind = OUT_INDEX;
    const double v = 7.0;
    f[I_SEQ] = [=] { got.index = (size_t)std::count(in, in + n, v); };
    f[I_ADAPT] = [=] { got.index = (size_t)adapt::count(in, in + n, v); };
    f[I_GNU] = [=] { got.index = (size_t)__gnu_parallel::count(in, in + n, v); };
    f[I_TBB] =
        arena([=] { got.index = stl_tbb_count_if(in, n, [v](double e) { return e == v; }); });
    f[I_PSTL] = arena([=] { got.index = (size_t)std::count(par, in, in + n, v); });
  } else if (algo == "find_if") {
    m.kind = OUT_INDEX;
    const double *x = A.find;
    auto p = stl_make_above(op, 900.0);
    auto pos = [x](const double *it) { return (size_t)(it - x); };
    f[I_SEQ] = [=] { got.index = pos(std::find_if(x, x + n, p)); };
    f[I_ADAPT] = [=] { got.index = pos(adapt::find_if(x, x + n, p)); };
    f[I_GNU] = [=] { got.index = pos(__gnu_parallel::find_if(x, x + n, p)); };
    f[I_TBB] = arena([=] { got.index = stl_tbb_find_if(x, n, p); });
    f[I_PSTL] = arena([=] { got.index = pos(std::find_if(par, x, x + n, p)); });
  } else if (algo == "any_of" || algo == "none_of" || algo == "all_of") {
    m.kind = OUT_BOOL;
    bool all = algo == "all_of", none = algo == "none_of";
    auto p = stl_make_above(op, all ? -1000.0 : 2000.0);
    auto np = [p](double x) { return !p(x); };
    if (all) {
      f[I_SEQ] = [=] { got.flag = std::all_of(in, in + n, p); };
      f[I_ADAPT] = [=] { got.flag = adapt::all_of(in, in + n, p); };
      f[I_GNU] = [=] { got.flag = __gnu_parallel::find_if(in, in + n, np) == in + n; };
      f[I_TBB] = arena([=] { got.flag = stl_tbb_find_if(in, n, np) == n; });
      f[I_PSTL] = arena([=] { got.flag = std::all_of(par, in, in + n, p); });
    } else if (none) {
      f[I_SEQ] = [=] { got.flag = std::none_of(in, in + n, p); };
      f[I_ADAPT] = [=] { got.flag = adapt::none_of(in, in + n, p); };
      f[I_GNU] = [=] { got.flag = __gnu_parallel::find_if(in, in + n, p) == in + n; };
      f[I_TBB] = arena([=] { got.flag = stl_tbb_find_if(in, n, p) == n; });
      f[I_PSTL] = arena([=] { got.flag = std::none_of(par, in, in + n, p); });
    } else {
      f[I_SEQ] = [=] { got.flag = std::any_of(in, in + n, p); };
      f[I_ADAPT] = [=] { got.flag = adapt::any_of(in, in + n, p); };
      f[I_GNU] = [=] { got.flag = __gnu_parallel::find_if(in, in + n, p) != in + n; };
      f[I_TBB] = arena([=] { got.flag = stl_tbb_find_if(in, n, p) != n; });
      f[I_PSTL] = arena([=] { got.flag = std::any_of(par, in, in + n, p); });
    }
    m.note = "gnu, tbb: find_if";
  } else if (algo == "count_if") {
    m.kind = OUT_INDEX;
    auto p = stl_make_above(op, 0.0);
    f[I_SEQ] = [=] { got.index = (size_t)std::count_if(in, in + n, p); };
    f[I_ADAPT] = [=] { got.index = (size_t)adapt::count_if(in, in + n, p); };
    f[I_GNU] = [=] { got.index = (size_t)__gnu_parallel::count_if(in, in + n, p); };
    f[I_TBB] = arena([=] { got.index = stl_tbb_count_if(in, n, p); });
    f[I_PSTL] = arena([=] { got.index = (size_t)std::count_if(par, in, in + n, p); });
  } else if (algo == "copy_if") {
    m.kind = OUT_COPY;
    auto p = stl_make_above(op, 0.0);
    f[I_SEQ] = [=] { got.index = (size_t)(std::copy_if(in, in + n, out, p) - out); };
    f[I_ADAPT] = [=] { got.index = (size_t)(adapt::copy_if(in, in + n, out, p) - out); };
    f[I_TBB] = arena([=] { got.index = stl_tbb_copy_if(in, n, out, p); });
    f[I_PSTL] = arena([=] { got.index = (size_t)(std::copy_if(par, in, in + n, out, p) - out); });
  } else if (algo == "inclusive_scan") {
    f[I_SEQ] = [=] { std::inclusive_scan(in, in + n, out); };
    if (nondet)
      f[I_ADAPT] = [=] { adapt::inclusive_scan(adapt::par.deterministic(false), in, in + n, out); };
    else
      f[I_ADAPT] = [=] { adapt::inclusive_scan(in, in + n, out); };
    f[I_GNU] = [=] { __gnu_parallel::partial_sum(in, in + n, out); };
    f[I_TBB] = arena([=] { stl_tbb_scan(in, n, out, true); });
    f[I_PSTL] = arena([=] { std::inclusive_scan(par, in, in + n, out); });
    m.note = "gnu: partial_sum";
  } else if (algo == "exclusive_scan") {
    f[I_SEQ] = [=] { std::exclusive_scan(in, in + n, out, 0.0); };
    if (nondet)
      f[I_ADAPT] = [=] {
        adapt::exclusive_scan(adapt::par.deterministic(false), in, in + n, out, 0.0);
      };
    else
      f[I_ADAPT] = [=] { adapt::exclusive_scan(in, in + n, out, 0.0); };
    f[I_TBB] = arena([=] { stl_tbb_scan(in, n, out, false); });
    f[I_PSTL] = arena([=] { std::exclusive_scan(par, in, in + n, out, 0.0); });
  } else if (algo == "sort") {
    m.kind = OUT_IO;
    m.io_src = A.rnd;
    f[I_SEQ] = [=] { std::sort(io, io + n); };
    f[I_ADAPT] = [=] { adapt::sort(io, io + n); };
    f[I_GNU] = [=] { __gnu_parallel::sort(io, io + n); };
    f[I_TBB] = arena([=] { tbb::parallel_sort(io, io + n); });
    f[I_PSTL] = arena([=] { std::sort(par, io, io + n); });
  } else if (algo == "stable_sort") {
    m.kind = OUT_IO;
    m.io_src = A.rnd;
    f[I_SEQ] = [=] { std::stable_sort(io, io + n); };
    f[I_ADAPT] = [=] { adapt::stable_sort(io, io + n); };
    f[I_GNU] = [=] { __gnu_parallel::stable_sort(io, io + n); };
    f[I_PSTL] = arena([=] { std::stable_sort(par, io, io + n); });
  } else if (algo == "sort_cmp" || algo == "stable_sort_cmp") {
    /* A comparator (descending), a capturing-free lambda as a user's. */
    m.kind = OUT_IO;
    m.io_src = A.rnd;
    auto gt = [](double a, double b) { return a > b; };
    if (algo == "sort_cmp") {
      f[I_SEQ] = [=] { std::sort(io, io + n, gt); };
      f[I_ADAPT] = [=] { adapt::sort(io, io + n, gt); };
      f[I_GNU] = [=] { __gnu_parallel::sort(io, io + n, gt); };
      f[I_TBB] = arena([=] { tbb::parallel_sort(io, io + n, gt); });
      f[I_PSTL] = arena([=] { std::sort(par, io, io + n, gt); });
    } else {
      f[I_SEQ] = [=] { std::stable_sort(io, io + n, gt); };
      f[I_ADAPT] = [=] { adapt::stable_sort(io, io + n, gt); };
      f[I_GNU] = [=] { __gnu_parallel::stable_sort(io, io + n, gt); };
      f[I_PSTL] = arena([=] { std::stable_sort(par, io, io + n, gt); });
    }
  } else if (algo == "sort_int") {
    m.kind = OUT_CUSTOM;
    int *x = IIO.data();
    m.reset = [] { IIO = IIN; };
    m.save_ref = [] { IREF = IIO; };
    m.check = [] { return IIO == IREF ? std::string() : std::string("wrong sorted ints"); };
    f[I_SEQ] = [=] { std::sort(x, x + n); };
    f[I_ADAPT] = [=] { adapt::sort(x, x + n); };
    f[I_GNU] = [=] { __gnu_parallel::sort(x, x + n); };
    f[I_TBB] = arena([=] { tbb::parallel_sort(x, x + n); });
    f[I_PSTL] = arena([=] { std::sort(par, x, x + n); });
  } else if (algo == "sort_string") {
    m.kind = OUT_CUSTOM;
    std::string *x = SIO.data();
    const size_t ns = SIO.size();
    m.reset = [] { SIO = SIN; };
    m.save_ref = [] { SREF = SIO; };
    m.check = [] { return SIO == SREF ? std::string() : std::string("wrong sorted strings"); };
    f[I_SEQ] = [=] { std::sort(x, x + ns); };
    f[I_ADAPT] = [=] { adapt::sort(x, x + ns); };
    f[I_GNU] = [=] { __gnu_parallel::sort(x, x + ns); };
    f[I_TBB] = arena([=] { tbb::parallel_sort(x, x + ns); });
    f[I_PSTL] = arena([=] { std::sort(par, x, x + ns); });
    m.note = "n/10 strings";
  } else {
    fatal("unknown algorithm %s", algo.c_str());
  }
  return m;
}

static impls impls_for(const std::string &algo, const std::string &op, int workers) {
  if (op == "costly") return make_impls(algo, stl_costly(), false, false, workers);
  if (op == "unbalanced") return make_impls(algo, stl_ramp(), true, false, workers);
  return make_impls(algo, stl_cheap(), false, op == "nondet", workers);
}

/* "" when the last run's output equals the reference, else why. */
static std::string check_outcome(const impls &m) {
  const size_t n = A.n;
  switch (m.kind) {
  case OUT_ARRAY: return check_equal(A.out, A.ref, n, "wrong output array");
  case OUT_IO: return check_equal(A.io, A.ref, n, "wrong result array");
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
    return check_equal(A.out, A.ref, got.index, "wrong copied elements");
  case OUT_CUSTOM: return m.check();
  }
  return "?";
}

/* ------------------------------------------------------------------ */
/* Cases, rows, targets                                                */

/* One case's figures: medians of per-round paired ratios. */
struct row {
  std::string algo, op, note;
  size_t n = 0;
  int workers = 0, rounds = 0;
  double seq_ms = NAN;
  double ratio[I_COUNT]; /* T/Ts; NaN: n/a or failed */
  bool present[I_COUNT], ok[I_COUNT];
  int best = -1;                                              /* the fastest peer */
  double vs_best = NAN, vs_best_p25 = NAN, vs_best_p75 = NAN; /* T(adapt)/T(best peer) */
  /* Best of N: min T / min Ts, min T(adapt) / min T(best peer); NaN: n/a. */
  double min_ratio[I_COUNT];
  double vs_best_min = NAN;
  double noise = NAN;
};
static std::vector<row> rows;
/* The memory bandwidth line measured before the 2-worker section (empty
 * without it). */
static std::string bandwidth_report;
static bandwidth bandwidth_measured; /* zeros without it */

static void run_one(const std::string &algo, const std::string &op, int workers) {
  impls m = impls_for(algo, op, workers);
  const size_t n = A.n;
  /* The reference: the sequential std algorithm. */
  if (m.kind == OUT_IO) std::copy(m.io_src, m.io_src + n, A.io);
  if (m.reset) m.reset();
  std::fill(A.out, A.out + n, NAN);
  m.f[I_SEQ]();
  want = got;
  std::copy(m.kind == OUT_IO ? A.io : A.out, (m.kind == OUT_IO ? A.io : A.out) + n, A.ref);
  if (m.save_ref) m.save_ref();

  std::vector<variant> v;
  std::vector<int> id_of;
  for (int i = 0; i < I_COUNT; i++) {
    if (!m.f[i]) continue;
    std::function<void()> g = m.f[i];
    v.push_back({IMPL_NAMES[i],
                 i == I_SEQ     ? FAM_SEQ
                 : i == I_ADAPT ? FAM_ADAPT
                 : i == I_GNU   ? FAM_OMP
                                : FAM_TBB,
                 [g] {
                   try {
                     g();
                   } catch (const std::exception &e) {
                     fprintf(stderr, "%s: exception: %s\n", bench_prog, e.what());
                     return -ECANCELED;
                   }
                   return 0;
                 }});
    id_of.push_back(i);
  }
  auto prepares = std::make_shared<size_t>(0);
  case_spec cs;
  cs.group = fmt("%d worker%s", workers, workers > 1 ? "s" : "");
  cs.name = fmt("%s %s n=%zu", algo.c_str(), op.c_str(), n);
  cs.workers = workers;
  /* The sorts of 1e7 take about a second per run: at most 5 rounds. */
  cs.rounds = is_sort(algo) && n >= 10000000 ? std::min(opt.reps, 5) : opt.reps;
  cs.n = (double)n;
  cs.gap_ns = workers > 1 ? opt.gap_ns : 0;
  const size_t nv = v.size();
  cs.prepare = [&m, prepares, nv, n](size_t) {
    if (m.kind == OUT_IO) std::copy(m.io_src, m.io_src + n, A.io);
    if (m.reset) m.reset();
    /* Warm-up runs (checked) start from an output that is wrong everywhere. */
    if ((*prepares)++ < nv && m.kind != OUT_IO) std::fill(A.out, A.out + n, NAN);
    got = outcome();
  };
  cs.check = [&m](size_t) { return check_outcome(m); };
  case_result c = run_case(cs, v);

  row r;
  r.algo = algo;
  r.op = op;
  r.note = m.note;
  r.n = n;
  r.workers = workers;
  r.rounds = cs.rounds;
  r.noise = c.noise;
  int seq = c.seq();
  r.seq_ms = c.ok(seq) ? median(c.t[(size_t)seq]) * 1e3 : NAN;
  int adapt = -1;
  double best_t = 0;
  for (int i = 0; i < I_COUNT; i++) {
    r.ratio[i] = r.min_ratio[i] = NAN;
    r.present[i] = r.ok[i] = false;
  }
  for (size_t k = 0; k < nv; k++) {
    int i = id_of[k];
    r.present[i] = true;
    r.ok[i] = c.ok((int)k);
    if (!r.ok[i]) {
      failed = true;
      continue;
    }
    if (c.ok(seq)) {
      r.ratio[i] = median(c.paired((int)k, seq));
      r.min_ratio[i] = quantile(c.t[k], 0.0) / quantile(c.t[(size_t)seq], 0.0);
    }
    if (i == I_ADAPT) adapt = (int)k;
    if (i >= I_GNU) {
      double t = median(c.t[k]);
      if (r.best < 0 || t < best_t) {
        r.best = i;
        best_t = t;
      }
    }
  }
  if (adapt >= 0 && r.best >= 0) {
    int kb = (int)(std::find(id_of.begin(), id_of.end(), r.best) - id_of.begin());
    std::vector<double> p = c.paired(adapt, kb);
    r.vs_best = median(p);
    r.vs_best_p25 = quantile(p, 0.25);
    r.vs_best_p75 = quantile(p, 0.75);
    r.vs_best_min = quantile(c.t[(size_t)adapt], 0.0) / quantile(c.t[(size_t)kb], 0.0);
  }
  rows.push_back(r);
}

/* The targets a row is judged on: name, bound on the figure, figure. */
struct target {
  const char *name;
  double bound; /* figure <= bound passes (speedup: >= bound) */
  bool at_least;
  double value;
  /* ">= 10% ahead" only: the best peer's speed-up is within 10% of what
   * the machine allows (room_bound), so that no schedule can be 10% ahead:
   * a miss the target cannot decide here. */
  bool no_room = false;
};

/* The highest 2-worker speed-up the machine allows a row whose best peer
 * reaches `peer`: 2, or on a cheap row whose arrays exceed the shared
 * cache, the measured bandwidth's two-thread ratio (the larger of the
 * read's and the map's), unless the peer is above it (the row is then not
 * bound by the memory: its operation weighs, as count_if's hashed
 * predicate). */
static double room_bound(const row &r, double peer) {
  const bandwidth &b = bandwidth_measured;
  if (r.op == "cheap" && r.n * sizeof(double) > opt.cache && b.read1 > 0 && b.map1 > 0 &&
      b.read2 > 0 && b.map2 > 0) {
    const double bw = std::max(b.read2 / b.read1, b.map2 / b.map1);
    if (peer <= bw) return bw;
  }
  return 2.0;
}

/* The figures a row is judged on: the medians of paired ratios, or with
 * by_min the best of N (min_ratio, vs_best_min). */
static std::vector<target> targets_of(const row &r, bool by_min = false) {
  std::vector<target> t;
  const double *ratio = by_min ? r.min_ratio : r.ratio;
  const double adapt = ratio[I_ADAPT], vs_best = by_min ? r.vs_best_min : r.vs_best;
  if (r.workers == 1) t.push_back({"T1/Ts <= 1.02", 1.02, false, adapt});
  if (r.workers == 2 && (r.op == "costly" || r.op == "unbalanced"))
    t.push_back({"speedup >= 1.9", 1.9, true, adapt > 0 ? 1.0 / adapt : NAN});
  if (r.workers == 2 && r.best >= 0) {
    if (is_sort(r.algo)) {
      t.push_back({"sort <= 1.10 x best peer", 1.10, false, vs_best});
    } else {
      t.push_back({"<= 1.03 x best peer", 1.03, false, vs_best});
      if (r.op != "costly") {
        target x{">= 10% ahead of best peer", 1.0 / 1.1, false, vs_best};
        const double peer = 1.0 / ratio[r.best]; /* the best peer's speed-up */
        x.no_room = std::isfinite(peer) && 1.1 * peer > room_bound(r, peer);
        t.push_back(x);
      }
    }
  }
  return t;
}

static bool passes(const target &t) {
  if (std::isnan(t.value)) return false;
  return t.at_least ? t.value >= t.bound : t.value <= t.bound;
}

static std::string targets_text(const row &r, bool by_min = false) {
  std::string s;
  for (const target &t : targets_of(r, by_min)) {
    const char *tag = strncmp(t.name, "T1", 2) == 0        ? "T1"
                      : strncmp(t.name, "speedup", 7) == 0 ? "S2"
                      : strncmp(t.name, ">=", 2) == 0      ? "+10%"
                      : strncmp(t.name, "sort", 4) == 0    ? "10%"
                                                           : "3%";
    s += fmt("%s%s %s", s.empty() ? "" : ", ", tag,
             passes(t)   ? "PASS"
             : t.no_room ? "MISS (no room)"
                         : "MISS");
  }
  return s;
}

/* A ratio cell: T/Ts on one worker, speedup Ts/T on two; "n/a", "FAILED". */
static std::string cell(const row &r, int i) {
  if (!r.present[i]) return "n/a";
  if (!r.ok[i]) return "FAILED";
  if (std::isnan(r.ratio[i])) return "-";
  return num(r.workers == 1 ? r.ratio[i] : 1.0 / r.ratio[i], "%.3f");
}

static std::string size_label(size_t n) {
  if (n >= 1000000 && n % 1000000 == 0) {
    size_t m = n / 1000000;
    return m == 1 ? "1e6" : m == 10 ? "1e7" : m == 100 ? "1e8" : fmt("%zue6", m);
  }
  return fmt("%zu", n);
}

/* adapt's figure from the fastest rounds: T/Ts on one worker, Ts/T on two. */
static std::string cell_min(const row &r) {
  const double x = r.min_ratio[I_ADAPT];
  return num(r.workers == 1 ? x : 1.0 / x, "%.3f");
}

static void print_row(const row &r) {
  printf("   %-16s %-10s %4s %9s", r.algo.c_str(), r.op.c_str(), size_label(r.n).c_str(),
         num(r.seq_ms, "%.3f").c_str());
  for (int i = I_ADAPT; i < I_COUNT; i++) printf(" %8s", cell(r, i).c_str());
  printf(" %8s %7s [%5s %5s] %7s %7s  %s\n", r.best >= 0 ? IMPL_SHORT[r.best] : "-",
         num(r.vs_best, "%.3f").c_str(), num(r.vs_best_p25, "%.2f").c_str(),
         num(r.vs_best_p75, "%.2f").c_str(), cell_min(r).c_str(),
         num(r.vs_best_min, "%.3f").c_str(), targets_text(r).c_str());
  fflush(stdout);
}

/* The paper's Table 1 proper: window modes in every library. */

/* The reuse kernel b[i] = a[i] + 0.5 a[i - R] (binary transform over
 * [R, n)): reuse distance 16 R bytes = 5/8 of the shared cache. No-window:
 * one parallel call; static-window for the peers: a sequential loop over
 * windows of m elements with one parallel call each (the paper's §2.2);
 * adapt: the policy's window modes with the same m. */
struct window_row {
  std::string impl;
  int workers;
  double ms, ratio, p25, p75; /* ratio: T/Ts (1 worker) or Ts/T (2) */
  bool ok;
};
static std::vector<window_row> window_rows;
static std::string window_title;

static void run_window_table(int workers) {
  const size_t cache = opt.cache;
  const size_t r = cache / 8 * 5 / 16, n = opt.quick ? 4 * r : 12 * r, m = 1u << 18;
  double *a = alloc_array<double>(n), *b = alloc_array<double>(n), *ref = alloc_array<double>(n);
  for (size_t i = 0; i < n; i++) a[i] = (double)(i % 1000) * 0.001;
  auto op = [](double x, double y) { return x + 0.5 * y; };
  std::fill(ref, ref + n, 0.0);
  std::transform(a + r, a + n, a, ref + r, op);
  tbb::task_arena *ar = &pools->of(workers);
  /* f(lo, hi) over [r, n) in windows of m (m = 0: one call). */
  auto windows = [=](size_t win, std::function<void(size_t, size_t)> f) {
    return [=] {
      if (win == 0) return f(r, n);
      for (size_t lo = r; lo < n; lo += win) f(lo, std::min(n, lo + win));
    };
  };
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
  auto ad = [=](adapt::window w) {
    adapt::policy pol = adapt::par.window(w, w == adapt::window::none ? 0 : m);
    return [=] { adapt::transform(pol, a + r, a + n, a, b + r, op); };
  };
  std::vector<std::pair<std::string, std::function<void()>>> impl = {
      {"std (sequential)", [=] { std::transform(a + r, a + n, a, b + r, op); }},
      {"adapt no-window", ad(adapt::window::none)},
      {"adapt static-window", ad(adapt::window::static_)},
      {"adapt sliding-window", ad(adapt::window::sliding)},
      {"gnu no-window", windows(0, gnu)},
      {"gnu static-window", windows(m, gnu)},
      {"tbb no-window", windows(0, tbb)},
      {"tbb static-window", windows(m, tbb)},
      {"std::par no-window", windows(0, pstl)},
      {"std::par static-window", windows(m, pstl)},
  };
  std::vector<variant> v;
  for (auto &x : impl) {
    std::function<void()> g = x.second;
    family f = x.first[0] == 'a'   ? FAM_ADAPT
               : x.first[0] == 'g' ? FAM_OMP
               : x.first[1] == 't' ? FAM_SEQ
                                   : FAM_TBB;
    v.push_back({x.first, f, no_error(g)});
  }
  case_spec cs;
  cs.group = "window";
  cs.name = fmt("b[i] = a[i] + 0.5 a[i-R], n=%zu", n);
  cs.workers = workers;
  cs.rounds = opt.reps;
  cs.n = (double)n;
  cs.gap_ns = workers > 1 ? opt.gap_ns : 0;
  cs.check = [=](size_t) {
    std::string why = check_equal(b + r, ref + r, n - r, "wrong result");
    std::fill(b, b + n, NAN); /* the next warm-up run must write every element */
    return why;
  };
  case_result c = run_case(cs, v);
  window_title = fmt("n = %zu doubles (2 arrays of %.0f MiB), R = %zu (reuse distance %.1f MiB = "
                     "5/8 of the %.0f MiB shared cache), window m = %zu elements",
                     n, (double)n * 8 / (1 << 20), r, (double)(16 * r) / (1 << 20),
                     (double)cache / (1 << 20), m);
  printf("\n== Table 1 (window modes), %d worker%s: %s\n   %-24s %10s %8s %15s\n", workers,
         workers > 1 ? "s" : "", window_title.c_str(), "implementation", "ms",
         workers == 1 ? "T/Ts" : "Ts/T", "[p25 p75]");
  for (int i = 0; i < (int)v.size(); i++) {
    window_row w{v[(size_t)i].name, workers, NAN, NAN, NAN, NAN, c.ok(i)};
    if (c.ok(i) && c.ok(0)) {
      std::vector<double> p = workers == 1 ? c.paired(i, 0) : c.paired(0, i);
      w.ms = median(c.t[(size_t)i]) * 1e3;
      w.ratio = median(p);
      w.p25 = quantile(p, 0.25);
      w.p75 = quantile(p, 0.75);
    }
    failed = failed || !w.ok;
    printf("   %-24s %10s %8s [%5s %5s]%s\n", w.impl.c_str(), num(w.ms, "%.2f").c_str(),
           num(w.ratio, "%.3f").c_str(), num(w.p25, "%.2f").c_str(), num(w.p75, "%.2f").c_str(),
           w.ok ? "" : " FAILED");
    window_rows.push_back(w);
  }
  fflush(stdout);
  free(a);
  free(b);
  free(ref);
}

static void run_workers(int workers) {
  omp_set_num_threads(workers); /* GNU parallel mode's thread count */
  printf("\n== %d worker%s: %s; medians of %d rounds of paired ratios; min: adapt's figures "
         "from the fastest rounds (best of N)\n",
         workers, workers > 1 ? "s" : "",
         workers == 1 ? "T/Ts (time over the sequential std algorithm)" : "speedup Ts/T", opt.reps);
  printf("   %-16s %-10s %4s %9s %8s %8s %8s %8s %8s %7s %13s %7s %7s  %s\n", "algorithm", "op",
         "n", "seq ms", "adapt", "gnu", "tbb", "std::par", "best", "a/best", "[p25 p75]", "a min",
         "a/b min", "targets (medians)");
  if (opt.window_table) run_window_table(workers);
  for (size_t n : opt.sizes) {
    arrays_make(n);
    for (const std::string &algo : ALGOS)
      for (const std::string &op : OPS)
        if (opt.algos.count(algo) && opt.ops.count(op) && takes(algo, op)) {
          run_one(algo, op, workers);
          print_row(rows.back());
        }
  }
}

/* ------------------------------------------------------------------ */
/* Summary, CSV, Markdown                                              */

static void summary(const run_info &run, const std::vector<std::string> &noise_lines) {
  struct tally {
    const char *name;
    int pass = 0, miss = 0, no_room = 0;
    std::string misses;
  };
  /* [0]: medians of paired ratios; [1]: best of N */
  std::vector<tally> ts[2];
  for (int by_min = 0; by_min < 2; by_min++)
    for (const row &r : rows)
      for (const target &t : targets_of(r, by_min)) {
        std::vector<tally> &v = ts[by_min];
        auto it = std::find_if(v.begin(), v.end(),
                               [&](const tally &x) { return strcmp(x.name, t.name) == 0; });
        if (it == v.end()) {
          v.push_back(tally());
          v.back().name = t.name;
          it = v.end() - 1;
        }
        if (passes(t)) {
          it->pass++;
        } else {
          it->miss++;
          it->no_room += t.no_room;
          it->misses += fmt("%s%s/%s/%s (%s%s)", it->misses.empty() ? "" : "; ", r.algo.c_str(),
                            r.op.c_str(), size_label(r.n).c_str(), num(t.value, "%.3f").c_str(),
                            t.no_room ? ", no room" : "");
        }
      }
  std::string md;
  md += "# bench_stl report\n\n";
  md += "Run " + run.when + " on " + run.host + " (" + run.machine + ")" +
        (run.commit.empty() ? "" : ", commit " + run.commit);
  md += fmt(", %d timed rounds per case, sizes", opt.reps);
  for (size_t n : opt.sizes) md += " " + size_label(n);
  md += ".\n\n";
  for (const std::string &l : noise_lines) md += "    " + l + "\n";
  if (!bandwidth_report.empty()) md += "\n" + bandwidth_report + ".\n";
  static const char *const estimator[2] = {
      "medians of paired ratios",
      "best of N: each implementation's fastest round (docs/benchmarks.md, \"Machine\")"};
  for (int by_min = 0; by_min < 2; by_min++) {
    md += fmt("\n## Targets, %s\n\n| target | PASS | MISS | misses (algorithm/op/n: figure) "
              "|\n|---|---:|---:|---|\n",
              estimator[by_min]);
    printf("\nSummary of targets (1 worker: T1/Ts; 2 workers: speedup, adapt vs best peer), %s:\n",
           estimator[by_min]);
    for (const tally &t : ts[by_min]) {
      const std::string room =
          t.no_room ? fmt(" (%d with no room: the best peer's speed-up within 10%% of the "
                          "machine's bound, 2 or the bandwidth's ratio)",
                          t.no_room)
                    : std::string();
      printf("   %-28s PASS %3d  MISS %3d%s%s%s\n", t.name, t.pass, t.miss, room.c_str(),
             t.miss ? "  misses: " : "", t.misses.c_str());
      /* not fmt(): the list of misses may exceed its 1023 characters */
      md += std::string("| ") + t.name + " | " + std::to_string(t.pass) + " | " +
            std::to_string(t.miss) + room + " | " + t.misses + " |\n";
    }
  }
  if (!window_rows.empty()) {
    md += "\n## Table 1 (window modes): " + window_title + "\n\n";
    /* the first section's columns first (--workers 2 alone: the 2-worker ones) */
    const bool one = window_rows.front().workers == 1;
    md += std::string("| implementation | ") +
          (one ? "1 worker: ms | T/Ts [p25 p75] | 2 workers: ms | Ts/T [p25 p75]"
               : "2 workers: ms | Ts/T [p25 p75] | 1 worker: ms | T/Ts [p25 p75]") +
          " |\n|---|---:|---:|---:|---:|\n";
    for (const window_row &x : window_rows) {
      if (x.workers != window_rows.front().workers) break;
      const window_row *y = nullptr;
      for (const window_row &z : window_rows)
        if (z.impl == x.impl && z.workers != x.workers) y = &z;
      auto cells = [](const window_row *w) {
        if (!w) return std::string("- | -");
        if (!w->ok) return std::string("FAILED | FAILED");
        return num(w->ms, "%.2f") + " | " + num(w->ratio, "%.3f") + " [" + num(w->p25, "%.2f") +
               " " + num(w->p75, "%.2f") + "]";
      };
      md += "| " + x.impl + " | " + cells(&x) + " | " + cells(y) + " |\n";
    }
  }
  for (int w = 1; w <= 2; w++) {
    bool any = false;
    for (const row &r : rows) any = any || r.workers == w;
    if (!any) continue;
    md += fmt("\n## %d worker%s: %s\n\n", w, w > 1 ? "s" : "",
              w == 1 ? "T/Ts (lower is better)" : "speedup Ts/T (higher is better)");
    md += "| algorithm | op | n | seq ms | adapt | gnu | tbb | std::par | best peer | "
          "adapt/best [p25 p75] | adapt, best of N | adapt/best, best of N | targets (medians) "
          "|\n|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|\n";
    for (const row &r : rows) {
      if (r.workers != w) continue;
      md += fmt("| %s | %s | %s | %s |", r.algo.c_str(), r.op.c_str(), size_label(r.n).c_str(),
                num(r.seq_ms, "%.3f").c_str());
      for (int i = I_ADAPT; i < I_COUNT; i++) md += " " + cell(r, i) + " |";
      md += fmt(" %s | %s [%s %s] | %s | %s | %s |\n", r.best >= 0 ? IMPL_SHORT[r.best] : "-",
                num(r.vs_best, "%.3f").c_str(), num(r.vs_best_p25, "%.2f").c_str(),
                num(r.vs_best_p75, "%.2f").c_str(), cell_min(r).c_str(),
                num(r.vs_best_min, "%.3f").c_str(), targets_text(r).c_str());
    }
  }
  mkdirs(opt.out);
  std::string samples = opt.out + "/stl_samples.csv", sum = opt.out + "/stl_summary.csv",
              rep = opt.out + "/stl_report.md";
  write_samples_csv(samples,
                    "date,host,section,case,implementation,workers,round,iterations,seconds", run);
  csv_writer w(sum, "date,host,commit,algorithm,op,n,workers,rounds,seq_ms,adapt,gnu,tbb,pstl,"
                    "best_peer,adapt_vs_best,p25,p75,noise,targets,adapt_min,adapt_vs_best_min,"
                    "targets_min");
  for (const row &r : rows) {
    w.text(run.when).text(run.host).text(run.commit).word(r.algo).word(r.op);
    w.integer((long long)r.n).integer(r.workers).integer(r.rounds).number(r.seq_ms, "%.4f");
    for (int i = I_ADAPT; i < I_COUNT; i++) w.number(r.ratio[i], "%.4f");
    w.word(r.best >= 0 ? IMPL_SHORT[r.best] : "").number(r.vs_best, "%.4f");
    w.number(r.vs_best_p25, "%.4f").number(r.vs_best_p75, "%.4f").number(r.noise, "%.3f");
    w.text(targets_text(r)).number(r.min_ratio[I_ADAPT], "%.4f").number(r.vs_best_min, "%.4f");
    w.text(targets_text(r, true)).end_row();
  }
  FILE *f = fopen(rep.c_str(), "w");
  if (!f) fatal("cannot write %s", rep.c_str());
  fputs(md.c_str(), f);
  fclose(f);
  printf("\nCSV: %s, %s; Markdown: %s\n", samples.c_str(), sum.c_str(), rep.c_str());
}

/* ------------------------------------------------------------------ */
/* Simulated caches: one windowed transform under callgrind            */

static int cachesim_mode(void) {
  size_t reuse = opt.cachesim_reuse ? opt.cachesim_reuse : opt.cache / 8 * 5;
  size_t r = reuse / 16, n = opt.cachesim_n ? opt.cachesim_n : 4 * r;
  if (r == 0 || r >= n) fatal("--cachesim-reuse %zu does not fit --cachesim-n %zu", reuse, n);
  double *a = alloc_array<double>(n), *b = alloc_array<double>(n);
  for (size_t i = 0; i < n; i++) {
    a[i] = (double)(i % 1000) * 0.001;
    b[i] = 0.0;
  }
  auto op = [](double x, double y) { return x + 0.5 * y; };
  const std::string &mode = opt.cachesim;
  const int workers = 2;
  if (mode != "seq") adapt_start(workers);
  adapt_stats_reset();
  CALLGRIND_START_INSTRUMENTATION;
  if (mode == "seq") {
    std::transform(a + r, a + n, a, b + r, op);
  } else {
    adapt::window wm = mode == "none"     ? adapt::window::none
                       : mode == "static" ? adapt::window::static_
                                          : adapt::window::sliding;
    adapt::policy pol = adapt::par.window(wm, wm == adapt::window::none ? 0 : opt.cachesim_m);
    adapt::transform(pol, a + r, a + n, a, b + r, op);
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  steal_counts st = mode == "seq" ? steal_counts{0, 0, 0} : adapt_steal_counts();
  size_t bad = 0;
  for (size_t i = r; i < n; i++) bad += b[i] != a[i] + 0.5 * a[i - r];
  printf("STL_CACHESIM mode=%s workers=%d n=%zu reuse_bytes=%zu m=%zu steals=%llu wrong=%zu\n",
         mode.c_str(), mode == "seq" ? 1 : workers, n, 16 * r,
         mode == "static" || mode == "sliding" ? opt.cachesim_m : 0, (unsigned long long)st.steals,
         bad);
  if (mode != "seq") adapt_finalize();
  free(a);
  free(b);
  return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Instruction counts: the 1-worker overhead under callgrind           */

/* --ir (bench/scripts/stl_cachesim.sh --ir runs it under valgrind
 * --tool=callgrind --instr-atstart=no): every selected case on the first
 * size, adapt started with 1 worker (the calling thread only), the
 * sequential std algorithm and adapt's call each run once untimed (warm-up,
 * checked as in the timed rounds), then once with the instrumentation on
 * only around the call, the counters zeroed before it and dumped after it
 * under the name "ir ALGO OP IMPL". Instruction counts are what callgrind
 * measures without hardware counters: the front end's overhead per element
 * (the trampoline, the chunk loop, steal points, merges), not the time of
 * branch mispredictions or cache misses.
 * The grain: the engine grows it while a chunk takes less than 2 us, which
 * under valgrind (50-100 times slower) would stop at a few elements and
 * count a steal point per element. So --ir first runs natively (not under
 * valgrind): it times each case's adapt call (best of 5, adapt started
 * with 1 worker) and prints the grain the calibration reaches there
 * (STL_IR_GRAIN: the power of two whose chunk takes at least 2 us at that
 * speed, at most IR_GRAIN_MAX units; units are blocks for reduce and
 * transform_reduce (adapt::detail::reduce_block(n) elements) and the scans
 * (ADAPT_STL_BLOCK));
 * the valgrind run gets them back (--ir-grains) and runs each case with
 * that fixed grain (ADAPT_GRAIN, adapt restarted per case). */
/* The engine's ADAPT_ALGO_GRAIN_MAX (algorithms/algo_config.h, not a
 * public header): the automatic grain's bound, in units. */
static const size_t IR_GRAIN_MAX = 16384;

static size_t ir_units(const std::string &algo, size_t n) {
  if (algo.compare(0, 6, "reduce") == 0 || algo.compare(0, 16, "transform_reduce") == 0)
    return adapt::detail::reduce_block(n);
  return algo.find("scan") != std::string::npos ? ADAPT_STL_BLOCK : 1;
}

static int ir_mode(void) {
  pools.reset(new peer_pools());
  const size_t n = opt.sizes.front();
  arrays_make(n);
  int bad = 0;
  for (const std::string &algo : ALGOS)
    for (const std::string &op : OPS) {
      if (!opt.algos.count(algo) || !opt.ops.count(op) || !takes(algo, op)) continue;
      impls m = impls_for(algo, op, 1);
      const std::string key = algo + ":" + op + ":";
      auto prepare = [&] {
        if (m.kind == OUT_IO) std::copy(m.io_src, m.io_src + n, A.io);
        if (m.reset) m.reset();
        std::fill(A.out, A.out + n, NAN);
        got = outcome();
      };
      if (!RUNNING_ON_VALGRIND) { /* the native pass: the grain */
        adapt_start(1);
        double best = INFINITY;
        for (int k = 0; k < 5; k++) {
          prepare();
          double t0 = now_s();
          m.f[I_ADAPT]();
          best = std::min(best, now_s() - t0);
        }
        double unit_ns = best * 1e9 / (double)n * (double)ir_units(algo, n);
        size_t g = 1;
        while (g < IR_GRAIN_MAX && (double)g * unit_ns < 2000.0) g *= 2;
        printf("STL_IR_GRAIN %s%zu\n", key.c_str(), g);
        adapt_finalize();
        continue;
      }
      size_t at = ("," + opt.ir_grains + ",").find("," + key);
      if (at == std::string::npos) fatal("--ir-grains has no grain for %s", key.c_str());
      std::string g = opt.ir_grains.substr(at + key.size());
      g = g.substr(0, g.find(','));
      setenv("ADAPT_GRAIN", g.c_str(), 1);
      adapt_start(1);
      prepare();
      m.f[I_SEQ]();
      want = got;
      std::copy(m.kind == OUT_IO ? A.io : A.out, (m.kind == OUT_IO ? A.io : A.out) + n, A.ref);
      if (m.save_ref) m.save_ref();
      for (int i : {I_SEQ, I_ADAPT}) {
        prepare();
        m.f[i]();
        std::string why = check_outcome(m);
        prepare();
        std::string name = "ir " + algo + " " + op + " " + IMPL_SHORT[i];
        CALLGRIND_ZERO_STATS;
        CALLGRIND_START_INSTRUMENTATION;
        m.f[i]();
        CALLGRIND_STOP_INSTRUMENTATION;
        CALLGRIND_DUMP_STATS_AT(name.c_str());
        if (why.empty()) why = check_outcome(m);
        printf("STL_IR algo=%s op=%s impl=%s n=%zu grain=%s%s%s\n", algo.c_str(), op.c_str(),
               IMPL_SHORT[i], algo == "sort_string" ? SIN.size() : n, g.c_str(),
               why.empty() ? "" : " FAILED=", why.c_str());
        bad += !why.empty();
      }
      adapt_finalize();
    }
  fflush(stdout);
  pools.reset();
  arrays_free();
  return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv) {
  bench_prog = "bench_stl";
  cli c("       bench_stl --cachesim seq|none|static|sliding [--cachesim-n N]"
        " [--cachesim-reuse BYTES] [--cachesim-m M]\n"
        "                 (under valgrind: bench/scripts/stl_cachesim.sh)\n");
  std::string sizes_arg;
  c.text("--out", "DIR", &opt.out);
  c.text("--commit", "STR", &opt.commit);
  c.text("--sizes", "LIST", &sizes_arg);
  c.list("--workers", {"1", "2"}, &opt.workers);
  c.list("--algos", ALGOS, &opt.algos);
  c.list("--ops", OPS, &opt.ops);
  c.integer("--reps", "K", 1, 1000, &opt.reps);
  c.integer("--cache", "BYTES", 1 << 20, 1LL << 34, &opt.cache);
  c.flag("--no-window-table", [] { opt.window_table = false; });
  c.real("--gap-ms", "MS", [](double ms) { opt.gap_ns = (long long)(ms * 1e6); });
  c.flag("--quick", [] {
    opt.quick = true;
    opt.sizes = {1000000};
    opt.reps = 2;
    opt.gap_ns = 1000000;
  });
  c.choice("--cachesim", {"seq", "none", "static", "sliding"}, &opt.cachesim);
  c.integer("--cachesim-n", "N", 1024, 1LL << 32, &opt.cachesim_n);
  c.integer("--cachesim-reuse", "BYTES", 1024, 1LL << 36, &opt.cachesim_reuse);
  c.integer("--cachesim-m", "M", 1, 1LL << 32, &opt.cachesim_m);
  c.flag("--ir", [] { opt.ir = true; });
  c.text("--ir-grains", "LIST", &opt.ir_grains);
  c.parse(argc, argv);
  if (!sizes_arg.empty()) {
    opt.sizes.clear();
    for (size_t p = 0; p <= sizes_arg.size();) {
      size_t q = std::min(sizes_arg.find(',', p), sizes_arg.size());
      double x = atof(sizes_arg.substr(p, q - p).c_str());
      if (!(x >= 16 && x <= 1e9)) c.usage();
      opt.sizes.push_back((size_t)x);
      p = q + 1;
    }
  }
  if (!opt.cachesim.empty()) return cachesim_mode();
  if (opt.ir) return ir_mode();

  run_info run =
      start_run(peer_versions() + " vs std::execution::par (libstdc++ PSTL on TBB)", opt.commit);
  run.commit = opt.commit;
  if (opt.quick) printf("   --quick: n = 1e6, 2 rounds per case, figures NOT meaningful\n");
  pools.reset(new peer_pools());

  std::vector<std::string> noise_lines;
  std::vector<section> sections = {{"1", 1, [] { run_workers(1); }},
                                   {"2", 2, [] { run_workers(2); }}};
  section_hooks hooks;
  hooks.phase_begin = [](int workers) {
    if (workers != 2) return;
    printf("\n%s", affinity_report(pools->two).c_str());
    /* Before the 2-worker cases, every pool idle: the bound of the
     * memory-bound rows' speed-ups, in the same minutes. */
    const size_t bytes = (size_t)128 << 20;
    const int rounds = opt.quick ? 3 : 7;
    bandwidth_measured = measure_bandwidth(bytes, rounds);
    bandwidth_report = bandwidth_line(bandwidth_measured, bytes, rounds);
    printf("   %s\n", bandwidth_report.c_str());
  };
  hooks.section_end = [&](const section &s, const noise_mark &since) {
    std::string l = noise_line(since, s.name + " worker(s) section", NULL, NULL);
    printf("%s", l.c_str());
    size_t a = l.find_first_not_of(' '), b = l.find_last_not_of('\n');
    if (a != std::string::npos && b != std::string::npos)
      noise_lines.push_back(l.substr(a, b + 1 - a));
  };
  run_sections(sections, opt.workers, hooks);
  printf("\n%s", load_at_end().c_str());
  summary(run, noise_lines);
  arrays_free();
  return failed ? 1 : 0;
}
